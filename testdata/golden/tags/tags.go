// Package tags is a golden case: struct tags as fxamacker/cbor reads them.
package tags

// Tagged uses every tag form. Its toarray option would leave it without
// the legacy map decoder; //cborgen:legacy keeps it, so that this case
// covers the map keys the tags give.
//
//cborgen:legacy
type Tagged struct {
	_        struct{} `cbor:",toarray"`
	Name     string   `cbor:"name"`
	Skipped  int      `cbor:"-"`
	Opt      string   `cbor:"opt,omitempty"`
	One      int      `cbor:"1,keyasint"`
	Neg      bool     `cbor:"-2,keyasint,omitempty"`
	JSONName string   `json:"json_name"`
	JSONSkip int      `json:"-"`
	JSONOpt  []int    `json:"jopt,omitempty"`
	Both     uint     `cbor:"both_cbor" json:"both_json"`
	NoName   string   `cbor:",omitempty"`
	Plain    float32
	private  int
	Private2 int `cbor:"-" json:"p2"`
}

// IntKeys uses only integer keys; it is an array all the same.
//
//cborgen:array
type IntKeys struct {
	A int    `cbor:"1,keyasint"`
	B string `cbor:"2,keyasint"`
	C []byte `cbor:"-1,keyasint"`
}

// Cased has keys that differ only in case (an exact match wins over a
// case-insensitive one; the first field wins among those) and keys with
// letters whose other cases are longer (the Kelvin sign, the long s).
//
//cborgen:array
type Cased struct {
	Lower string `cbor:"key"`
	Upper string `cbor:"KEY"`
	Mixed int    `cbor:"kEy2"`
	Sigma string `cbor:"σς"`
	Ks    int    `cbor:"ks"`
	Int   int    `cbor:"3,keyasint"`
}
