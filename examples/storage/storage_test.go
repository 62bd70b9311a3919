package storage_test

import (
	"testing"

	"github.com/cborgen/cborgen/examples/internal/cbortest"
	"github.com/cborgen/cborgen/examples/internal/mirror"
	"github.com/cborgen/cborgen/examples/storage"
	"github.com/cborgen/cborgen/examples/storage/internal/fixture"
)

// The array mirrors: the storage types with toarray and no methods, so that
// fxamacker/cbor shows what the generated code must write. The legacy
// mirrors are fixture.Legacy*.

type arrLocation struct {
	_       struct{}        `cbor:",toarray"`
	Address storage.Address `cbor:"a"`
	Name    string          `cbor:"n"`
}

type arrComposite struct {
	_        struct{}      `cbor:",toarray"`
	Location arrLocation   `cbor:"l"`
	ID       []byte        `cbor:"id"`
	Kind     storage.Kind  `cbor:"k"`
	TypeName string        `json:"type"`
	Fields   []arrField    `cbor:"f,omitempty"`
	Version  uint64        `cbor:"v,omitempty"`
	Cache    *arrComposite `cbor:"-"`
}

type arrField struct {
	_     struct{} `cbor:",toarray"`
	Name  string   `cbor:"1,keyasint"`
	Value arrValue `cbor:"2,keyasint"`
}

type arrValue struct {
	_         struct{}            `cbor:",toarray"`
	Bool      *bool               `cbor:"t,omitempty"`
	Int       *int64              `cbor:"i,omitempty"`
	Uint      *uint64             `cbor:"u,omitempty"`
	Fix       *storage.Fix64      `cbor:"x,omitempty"`
	Float     *float64            `cbor:"f,omitempty"`
	Str       *string             `cbor:"s,omitempty"`
	Bytes     []byte              `cbor:"b,omitempty"`
	Hash      *[32]byte           `cbor:"h,omitempty"`
	Path      *arrPath            `cbor:"p,omitempty"`
	Array     []arrValue          `cbor:"a,omitempty"`
	Dict      map[string]arrValue `cbor:"d,omitempty"`
	Index     map[int32]string    `cbor:"n,omitempty"`
	Composite *arrComposite       `cbor:"c,omitempty"`
}

type arrPath struct {
	_          struct{}       `cbor:",toarray"`
	Domain     storage.Domain `cbor:"d"`
	Identifier string         `cbor:"i"`
}

type arrLimits struct {
	_          struct{}                   `cbor:",toarray"`
	MaxBytes   uint64                     `cbor:"1,keyasint"`
	MaxRecords uint32                     `cbor:"2,keyasint"`
	MaxDepth   uint8                      `cbor:"3,keyasint"`
	Frozen     bool                       `cbor:"4,keyasint,omitempty"`
	Burst      float32                    `cbor:"5,keyasint"`
	Quotas     [3]int16                   `cbor:"6,keyasint"`
	Exempt     map[bool][]storage.Address `cbor:"7,keyasint,omitempty"`
}

const seed = 20261130

// MaxDepth bounds the random values of the recursive types: each turn of
// Composite → Fields → Field → Value → Composite nests four CBOR levels, and
// both fxamacker/cbor and the runtime stop at 32.

func TestLocation(t *testing.T) {
	cbortest.Suite[storage.Location, arrLocation, fixture.LegacyLocation]{
		Samples: fixture.Locations(), Random: 2000, Seed: seed,
	}.Run(t)
}

func TestPath(t *testing.T) {
	cbortest.Suite[storage.Path, arrPath, fixture.LegacyPath]{
		Samples: fixture.Paths(), Random: 2000, Seed: seed,
	}.Run(t)
}

func TestField(t *testing.T) {
	cbortest.Suite[storage.Field, arrField, fixture.LegacyField]{
		Samples: fixture.Fields(), Random: 2000, Seed: seed,
		Filler: mirror.Filler{MaxDepth: 4},
	}.Run(t)
}

func TestValue(t *testing.T) {
	cbortest.Suite[storage.Value, arrValue, fixture.LegacyValue]{
		Samples: fixture.Values(), Random: 3000, Seed: seed,
		Filler: mirror.Filler{MaxDepth: 5},
		Bombs:  valueBombs(),
	}.Run(t)
}

func TestComposite(t *testing.T) {
	cbortest.Suite[storage.Composite, arrComposite, fixture.LegacyComposite]{
		Samples: fixture.Composites(), Random: 3000, Seed: seed,
		Filler: mirror.Filler{MaxDepth: 5},
		Bombs:  compositeBombs(),
	}.Run(t)
}

func TestLimits(t *testing.T) {
	cbortest.Suite[storage.Limits, arrLimits, fixture.LegacyLimits]{
		Samples: fixture.LimitsSamples(), Random: 2000, Seed: seed,
	}.Run(t)
}

// One fuzz target per generated type; the seed corpora in testdata/fuzz are
// written by go test -run . -update.

func FuzzLocation(f *testing.F)  { cbortest.Fuzz[storage.Location](f) }
func FuzzComposite(f *testing.F) { cbortest.Fuzz[storage.Composite](f) }
func FuzzField(f *testing.F)     { cbortest.Fuzz[storage.Field](f) }
func FuzzValue(f *testing.F)     { cbortest.Fuzz[storage.Value](f) }
func FuzzPath(f *testing.F)      { cbortest.Fuzz[storage.Path](f) }
func FuzzLimits(f *testing.F)    { cbortest.Fuzz[storage.Limits](f) }
