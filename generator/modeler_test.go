package generator

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/cborgen/cborgen/generator/internal/build"
	"github.com/cborgen/cborgen/generator/internal/load"
	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/generator/internal/schema"
)

// modelCase is a Go source snippet (package x, with runtime imported as
// runtime when it uses it) and the model the builder makes of it, or the
// errors it refuses it with.
type modelCase struct {
	name  string
	src   string
	types []string          // -type; none: the default selection
	want  map[string]string // type name -> describeStruct of its model
	pos   map[string]string // type name or Type.FieldID -> line:column of its declaration
	notes []string          // parts of the notes, in order
	errs  []string          // parts of the error, in order; none: success
}

var modelCases = []modelCase{
	// Embedding promotion, as fxamacker/cbor (and encoding/json) do it.
	{
		name: "own field beats a promoted one",
		src:  "type Base struct {\n\tA int\n\tB string\n}\n\ntype T struct {\n\tBase\n\tA bool\n}\n",
		want: map[string]string{"T": "Base.B:\"B\":string A:\"A\":bool"},
	}, {
		name: "promoted through a pointer, three levels down",
		src: "type C struct{ Z int8 }\n\ntype B struct{ *C }\n\ntype A struct{ B }\n\n" +
			"type T struct {\n\tA\n\tN uint16\n}\n",
		want: map[string]string{"T": "A.B.*C.Z:\"Z\":int8 N:\"N\":uint16"},
		pos:  map[string]string{"T": "9:6", "T.A.B.C.Z": "3:16", "T.N": "11:2"},
	}, {
		name: "the tagged field wins at the same depth",
		src: "type P struct {\n\tV int `cbor:\"V\"`\n}\n\ntype Q struct{ V string }\n\n" +
			"type T struct {\n\tP\n\tQ\n}\n",
		want: map[string]string{"T": "P.V:\"V\":int"},
	}, {
		name: "a tie drops both",
		src: "type P struct{ V int }\n\ntype Q struct{ V string }\n\n" +
			"type T struct {\n\tP\n\tQ\n\tW bool\n}\n",
		want: map[string]string{"T": "W:\"W\":bool"},
	}, {
		name: "a type embedded twice at one level is not opened",
		src: "type C struct{ Z int }\n\ntype P struct{ C }\n\ntype Q struct{ C }\n\n" +
			"type T struct {\n\tP\n\tQ\n\tW bool\n}\n",
		want: map[string]string{"T": "W:\"W\":bool"},
	}, {
		name: "an embedded struct with a tag name is a field",
		src:  "type Base struct{ A int }\n\ntype T struct {\n\tBase `cbor:\"base\"`\n}\n",
		want: map[string]string{"T": "Base:\"base\":x.Base"},
	}, {
		name: "an unexported embedded struct promotes its exported fields",
		src:  "type base struct {\n\tA int\n\tb int\n}\n\ntype T struct{ base }\n",
		want: map[string]string{"T": "base.A:\"A\":int"},
	}, {
		name: "tags: cbor before json, keyasint, options, skipped and unexported fields",
		src: "type T struct {\n\tA int `cbor:\"a,omitempty\" json:\"j\"`\n\tB int `json:\"b,omitzero\"`\n" +
			"\tC int `cbor:\"-3,keyasint\"`\n\tD int `cbor:\"-\"`\n\te int\n\t_ struct{} `cbor:\",toarray\"`\n}\n",
		want: map[string]string{"T": "nolegacy | A:\"a\",omitempty:int B:\"b\",omitzero:int C:-3:int"},
	}, {
		name: "reserved slots",
		src:  "type T struct {\n\tA int\n\t_ runtime.Reserved\n\tgone runtime.Reserved\n\tC int\n\tD runtime.Reserved `cbor:\"-\"`\n}\n",
		want: map[string]string{"T": "A:\"A\":int _:reserved gone:reserved C:\"C\":int"},
	}, {
		name: "two own fields with one key",
		src:  "type T struct {\n\tA int `cbor:\"x\"`\n\tB int `cbor:\"x\"`\n}\n",
		errs: []string{`x.go:5:2: field T.B: key "x" is also used by field A`},
	}, {
		name: "keyasint needs an integer",
		src:  "type T struct {\n\tA int `cbor:\"a,keyasint\"`\n}\n",
		errs: []string{`x.go:4:2: field T.A: keyasint needs an integer key, found "a"`},
	},

	// Directives.
	{
		name: "directives",
		src: "//cborgen:extensible\n//cborgen:nolegacy\ntype A struct{ X int }\n\n" +
			"// B is tagged.\n//\n//cborgen:tag 1001 optional\n//cborgen:embeddable\ntype B struct{ X int }\n\n" +
			"type (\n\t//cborgen:tag 1002\n\tC struct{ X int }\n\n\tD struct{ X int }\n)\n",
		want: map[string]string{
			"A": "extensible nolegacy | X:\"X\":int",
			"B": "embeddable tag=1001? | X:\"X\":int",
			"C": "tag=1002 | X:\"X\":int",
			"D": "X:\"X\":int",
		},
	}, {
		name:  "a value type with a tag, and a catch-all",
		src:   "//cborgen:tag 1003\ntype ID uint64\n\n//cborgen:catchall\ntype Unknown []byte\n",
		types: []string{"ID", "Unknown"},
		want: map[string]string{
			"ID":      "tag=1003 value uint64",
			"Unknown": "catchall value []byte",
		},
	}, {
		name: "refused directives",
		src: "//cborgen:bogus\ntype A struct{ X int }\n\n//cborgen:tag 2\ntype B struct{ X int }\n\n" +
			"//cborgen:tag 1004\n//cborgen:tag 1005\ntype C struct{ X int }\n\n//cborgen:catchall\ntype D struct{ X int }\n",
		errs: []string{
			"x.go:3:1: type A: unknown directive //cborgen:bogus (known: //cborgen:array, //cborgen:body, //cborgen:case V, //cborgen:catchall, //cborgen:embeddable, //cborgen:extensible, //cborgen:legacy, //cborgen:map, //cborgen:nolegacy, //cborgen:optional N, //cborgen:raw F, //cborgen:required N, //cborgen:tag N, //cborgen:tag N optional, //cborgen:union, //cborgen:union first, //cborgen:union key K)",
			"x.go:6:1: type B: //cborgen:tag 2: tag 2 has a meaning of its own in CBOR; use another number",
			"x.go:10:1: type C: //cborgen:tag 1005: a second tag directive",
			"x.go:13:1: type D: //cborgen:catchall is for named basic, slice, array and map types; D is a struct type (directives of a struct type: //cborgen:array, ",
		},
	},

	{
		name: "refused unions chosen by content",
		src: "//cborgen:union first\ntype U interface{ isU() }\n\n//cborgen:case 1\ntype A struct {\n\tK string\n\tX int\n}\n\n" +
			"//cborgen:case 1\ntype B struct{ K int }\n\ntype C struct{ K int }\n\n//cborgen:case 300\ntype D struct{ K uint8 }\n\n" +
			"//cborgen:case 3\ntype E struct{ X int }\n\n//cborgen:union key \"t\"\ntype V interface{ isV() }\n\n" +
			"//cborgen:case \"f\"\ntype F struct{ T string `cbor:\"t\"` }\n\n" +
			"func (A) isU() {}\nfunc (B) isU() {}\nfunc (C) isU() {}\nfunc (D) isU() {}\nfunc (F) isV() {}\n",
		errs: []string{
			"x.go:8:2: union U: variant A: field K holds the //cborgen:case 1, but it is a string field and the case an integer",
			"x.go:13:6: union U: variants A and B are both //cborgen:case 1",
			"x.go:15:6: union U: variant C has no //cborgen:case V: a //cborgen:union first needs the constant that names each variant",
			"x.go:18:16: union U: variant D: field K holds the //cborgen:case 300, but its type does not hold 300",
			"x.go:21:6: type E: //cborgen:case names a variant of a union chosen by content (//cborgen:union first, or key K), and E is a variant of none",
			`x.go:27:6: union V: variant F is not a //cborgen:map struct: a //cborgen:union key "t" chooses among map structs by the value of that key (add //cborgen:map)`,
		},
	}, {
		name: "a union directive with a bad argument",
		src:  "//cborgen:union keys\ntype W interface{ isW() }\n\ntype T struct{ X int }\n",
		errs: []string{"x.go:3:1: type W: //cborgen:union keys: want //cborgen:union or //cborgen:union first or //cborgen:union key K " + knownList},
	},
	// Every //cborgen: line of the package is checked (directivecheck.go):
	// a misspelt, spaced or misplaced one is refused where it is, with
	// the known ones, never ignored.
	{
		name:  "a misspelt union",
		src:   "//cborgen:unoin\ntype V interface{ isV() }\n\ntype T struct{ X V }\n",
		types: []string{"T"},
		errs:  []string{"x.go:3:1: type V: unknown directive //cborgen:unoin " + knownList},
	}, {
		name: "a spaced directive",
		src:  "// T is signed.\n//\n// cborgen:nolegacy\ntype T struct{ X int }\n\n//  \tcborgen:map\ntype M struct{ X int }\n\n//cborgen: extensible\ntype E struct{ X int }\n",
		errs: []string{
			`x.go:5:1: type T: "// cborgen:nolegacy" is a plain comment, not a directive, because of its space: Go directives have no space after // or after the colon. Remove the space (//cborgen:nolegacy) ` + knownList,
			`x.go:8:1: type M: "//  \tcborgen:map" is a plain comment, not a directive, because of its space`, "(//cborgen:map)",
			`x.go:11:1: type E: "//cborgen: extensible" is a plain comment`, "(//cborgen:extensible)",
		},
	}, {
		name:  "on fields and methods",
		src:   "type T struct {\n\t//cborgen:map\n\tX int //cborgen:nolegacy\n\tY struct {\n\t\t// cborgen:tag 7\n\t\tZ int\n\t}\n}\n\n//cborgen:union\ntype V interface {\n\t//cborgen:catchall\n\tisV()\n}\n",
		types: []string{"T"},
		errs: []string{
			"x.go:4:2: field T.X: //cborgen:map is not read on a field; a directive goes in the doc comment of the type it is for " + knownList,
			"x.go:5:8: field T.X: //cborgen:nolegacy is not read on a field",
			`x.go:7:3: field T.Z: "// cborgen:tag 7" is a plain comment`,
			"x.go:14:2: method V.isV: //cborgen:catchall is not read on a method",
		},
	}, {
		name: "outside type declarations",
		src: "//cborgen:map\n\n// F does.\n//\n//cborgen:extensible\nfunc F() {\n\t//cborgen:nolegacy\n\t_ = 1\n}\n\n" +
			"//cborgen:tag 9\nvar X = 1\n\n//cborgen:embeddable\ntype (\n\tA struct{ X int }\n\tB struct{ X int }\n)\n\ntype C struct{ X int } //cborgen:nolegacy\n\n//cborgen:legacy\n",
		errs: []string{
			"x.go:3:1: //cborgen:map is not read outside any declaration; a directive goes in the doc comment of the type it is for " + knownList,
			"x.go:7:1: func F: //cborgen:extensible is not read on a function",
			"x.go:9:2: //cborgen:nolegacy is not read inside a function",
			"x.go:13:1: var X: //cborgen:tag 9 is not read on a var declaration",
			"x.go:16:1: type group: //cborgen:embeddable is not read in the doc comment of a type ( ... ) group: move it to the doc comment of the type it is for, inside the group",
			"x.go:22:24: type C: //cborgen:nolegacy is not read in the comment after the type: move it to the type's doc comment, the lines above it",
			"x.go:24:1: //cborgen:legacy is not read outside any declaration",
		},
	}, {
		name:  "on a type of the wrong kind, generated or not",
		src:   "//cborgen:union\ntype T struct{ X int }\n\n//cborgen:tag 1010\ntype V interface{ isV() }\n\n//cborgen:map\ntype u []int\n\n//cborgen:catchall\ntype n uint64\n\n//cborgen:tag 1011\ntype p *int\n",
		types: []string{"T"},
		errs: []string{
			"x.go:3:1: type T: //cborgen:union is for interface types; T is a struct type (directives of a struct type: //cborgen:array, //cborgen:body, ",
			"x.go:6:1: type V: //cborgen:tag 1010 is for struct types and named basic, slice, array and map types; V is an interface type (directives of an interface type: //cborgen:union, //cborgen:union first, //cborgen:union key K)",
			"x.go:9:1: type u: //cborgen:map is for struct types; u is a named []int type",
			"x.go:15:1: type p: //cborgen:tag 1011 is for struct types and named basic, slice, array and map types; p is a named *int type (cbor-gen reads no directive on such a type)",
		},
	}, {
		name:  "arguments the forms do not take",
		src:   "//cborgen:union fist\ntype V interface{ isV() }\n\n//cborgen:nolegacy yes\n//cborgen:tag\n//cborgen:raw\n//cborgen:\ntype T struct{ X V }\n",
		types: []string{"T"},
		errs: []string{
			"x.go:3:1: type V: //cborgen:union fist: want //cborgen:union or //cborgen:union first or //cborgen:union key K " + knownList,
			"x.go:6:1: type T: //cborgen:nolegacy yes: want //cborgen:nolegacy",
			"x.go:7:1: type T: //cborgen:tag: want //cborgen:tag N or //cborgen:tag N optional",
			"x.go:8:1: type T: //cborgen:raw: want //cborgen:raw F",
			"x.go:9:1: type T: //cborgen:: a directive without a name",
		},
	}, {
		name:  "a catch-all that is not a named []byte",
		src:   "//cborgen:catchall\n//cborgen:tag 1014\ntype U uint64\n",
		types: []string{"U"},
		errs:  []string{"x.go:3:1: type U: //cborgen:catchall needs a named []byte type"},
	}, {
		name:  "directives in their places, and comments that only mention them",
		src:   "// T mentions //cborgen:map, and\n//\n//\t//cborgen:tag 5\n//\n// in its prose.\n//\n//cborgen:tag 1012 optional\n//cborgen:nolegacy\ntype T struct{ X V }\n\n//cborgen:union\ntype V interface{ isV() }\n\ntype W struct{ A int }\n\nfunc (W) isV() {}\n\n//cborgen:tag 1013\n//cborgen:body\ntype B []int\n\nfunc (B) MarshalCBOR() ([]byte, error) { return nil, nil }\n\nfunc (*B) UnmarshalCBOR([]byte) error { return nil }\n\n/* cborgen:not-a-line-comment */\n",
		types: []string{"T", "B", "W"},
		want:  map[string]string{"T": "nolegacy tag=1012? | X:\"X\":x.V"},
	},

	// Refusals and notes.
	{
		name: "unsupported field types",
		src: "type T struct {\n\tA chan int\n\tB func()\n\tC complex64\n\tD uintptr\n" +
			"\tE map[[2]any]int\n\tF chan bool\n\tMarshalCBOR int\n}\n",
		errs: []string{
			"x.go:4:2: field T.A has unsupported type chan int: channels have no CBOR encoding (leave the field out of the encoding with the tag `cbor:\"-\"`)",
			"x.go:5:2: field T.B has unsupported type func(): functions have no CBOR encoding",
			"x.go:6:2: field T.C has unsupported type complex64: complex numbers are not supported",
			"x.go:7:2: field T.D has unsupported type uintptr: uintptr values are addresses, not data",
			"x.go:8:2: field T.E has unsupported type map[[2]any]int: map keys that hold an interface value (any) are not supported",
			"x.go:9:2: field T.F has unsupported type chan bool: channels have no CBOR encoding",
			"x.go:10:2: field T.MarshalCBOR has the name of a method cbor-gen generates for T; rename the field",
		},
	}, {
		name: "anonymous structs the output cannot copy",
		src: "type Base struct{ A int }\n\ntype E struct {\n\tF struct {\n\t\tBase\n\t\tN int\n\t}\n}\n\n" +
			"type G[T any] struct{ F []struct{ V T } }\n",
		types: []string{"Base", "E", "G"},
		errs: []string{
			"field E.F has unsupported type struct{Base; N int}: an anonymous struct with an embedded field (Base); declare a named struct type and add it to -type",
			"field G.F has unsupported type []struct{V T}: an anonymous struct that uses a type parameter; declare a named generic struct type and add it to -type",
		},
	}, {
		name:  "anonymous structs get hidden named copies",
		src:   "type T struct {\n\tM map[string]struct{}\n\tP *struct {\n\t\tX int `cbor:\"x\"`\n\t\tQ struct{ Y string }\n\t}\n\tA struct {\n\t\t_ struct{} `cbor:\",toarray\"`\n\t\tZ bool\n\t}\n}\n",
		types: []string{"T"},
		want: map[string]string{
			"T":              "M:\"M\":map[string]cborAnon_T_M P:\"P\":*cborAnon_T_P A:\"A\":cborAnon_T_A",
			"cborAnon_T_M":   "",
			"cborAnon_T_P":   "X:\"x\":int Q:\"Q\":cborAnon_T_P_Q",
			"cborAnon_T_P_Q": "Y:\"Y\":string",
			"cborAnon_T_A":   "nolegacy | Z:\"Z\":bool",
		},
	}, {
		// The Cardano libraries' toarray marker, embedded: no field, no
		// method, only the option of its promoted "_" field.
		name: "an embedded toarray marker",
		src: "type StructAsArray struct {\n\t_ struct{} `cbor:\",toarray\"`\n}\n\n" +
			"type T struct {\n\tV struct {\n\t\tStructAsArray\n\t\tMajor uint\n\t}\n}\n\n" +
			"type U struct {\n\tStructAsArray\n\tA int `cbor:\"1,keyasint\"`\n}\n",
		types: []string{"T", "U"},
		want: map[string]string{
			"T":            "V:\"V\":cborAnon_T_V",
			"cborAnon_T_V": "nolegacy | Major:\"Major\":uint",
			"U":            "nolegacy | A:1:int",
		},
	}, {
		// keyasint says map under fxamacker: a struct with it must say
		// which format it is, or its wire format would change silently.
		name: "keyasint on a struct that is neither //cborgen:map nor //cborgen:array",
		src: "type Block struct {\n\tSlot uint64 `cbor:\"0,keyasint\"`\n\tHash []byte `cbor:\"1,keyasint\"`\n}\n\n" +
			"type Base struct {\n\tID int `cbor:\"7,keyasint\"`\n}\n\ntype Ext struct {\n\tName string\n\tBase\n}\n",
		types: []string{"Block", "Ext"},
		errs: []string{
			"x.go:3:6: type Block: field Slot has the keyasint option (key 0), so fxamacker/cbor writes Block as a map with integer keys, " +
				"but cbor-gen writes a struct as an array unless told otherwise, which would change its wire format. " +
				"Say which it is: add //cborgen:map to its doc comment to keep the map (fxamacker's bytes), " +
				"or //cborgen:array to write it as an array on purpose",
			"x.go:12:6: type Ext: field ID has the keyasint option (key 7), so fxamacker/cbor writes Ext as a map", "//cborgen:map", "//cborgen:array",
		},
	}, {
		name: "keyasint with the format said",
		src: "//cborgen:array\ntype A struct {\n\tX int `cbor:\"1,keyasint\"`\n}\n\n" +
			"//cborgen:map\ntype M struct {\n\tX int `cbor:\"1,keyasint\"`\n}\n\n" +
			"type T struct {\n\t_ struct{} `cbor:\",toarray\"`\n\tX int `cbor:\"1,keyasint\"`\n}\n",
		types: []string{"A", "M", "T"},
		want: map[string]string{
			"A": "X:1:int",
			"M": "X:1:int",
			"T": "nolegacy | X:1:int",
		},
	}, {
		name:  "//cborgen:array where it means nothing",
		src:   "//cborgen:array\ntype V []int\n\n//cborgen:array\n//cborgen:map\ntype B struct{ X int }\n",
		types: []string{"V", "B"},
		errs: []string{
			"x.go:3:1: type V: //cborgen:array is for struct types; V is a named []int type (directives of a named []int type: //cborgen:body, //cborgen:catchall, //cborgen:tag N, //cborgen:tag N optional)",
			"x.go:6:1: type B: //cborgen:array and //cborgen:map contradict each other; keep one",
		},
	}, {
		name:  "a struct of the package that is not generated",
		src:   "type Item struct{ A int }\n\ntype T struct{ I []Item }\n",
		types: []string{"T"},
		errs:  []string{"x.go:5:16: field T.I has unsupported type []Item: Item is not generated and has no AppendCBOR/DecodeCBOR methods (add it to -type)"},
	}, {
		// fxamacker users drop a type's methods with a local type
		// (type alias T) and keep its fields: once Payload is generated,
		// alias would get its methods and lose Version.
		name: "a function-local type that embeds a generated type",
		src: "type Payload struct{ A int }\n\ntype TxOrder struct {\n\tPayload\n\tVersion int\n}\n\n" +
			"func (t *TxOrder) MarshalCBOR() ([]byte, error) {\n\ttype alias TxOrder\n\t_ = (*alias)(t)\n\treturn nil, nil\n}\n\n" +
			"func (t *TxOrder) UnmarshalCBOR([]byte) error { return nil }\n\n" +
			"func f() any {\n\ttype wrapped struct {\n\t\t*Payload\n\t\tN int\n\t}\n\treturn wrapped{} }\n\n" +
			"var _ = struct {\n\tPayload\n\tExtra int\n}{}\n",
		errs: []string{
			"x.go:11:7: the type alias declared inside a function gets the MarshalCBOR and UnmarshalCBOR that cbor-gen generates for Payload through its embedded field Payload, " +
				"so fxamacker/cbor would encode it as that Payload alone and drop its other fields, in both directions. " +
				"Mark Payload //cborgen:embeddable (generated without those two methods), or name the field (Payload Payload)",
			"x.go:19:7: the type wrapped declared inside a function gets", "for Payload through its embedded field Payload", "name the field (Payload *Payload)",
			"x.go:25:9: the anonymous struct type struct{Payload; Extra int} gets", "Mark Payload //cborgen:embeddable",
		},
	}, {
		name: "a local type over a generated type that embeds one",
		src: "type Payload struct{ A int }\n\ntype T struct {\n\tPayload\n\tB int\n}\n\n" +
			"func f(t *T) any {\n\ttype plain T\n\treturn (*plain)(t)\n}\n",
		errs: []string{"x.go:11:7: the type plain declared inside a function gets the MarshalCBOR and UnmarshalCBOR that cbor-gen generates for Payload"},
	}, {
		name: "local types are fine when the embedded type is embeddable",
		src: "//cborgen:embeddable\ntype Payload struct{ A int }\n\ntype TxOrder struct {\n\tPayload\n\tVersion int\n}\n\n" +
			"func f(t *TxOrder) any {\n\ttype alias TxOrder\n\treturn struct {\n\t\tPayload\n\t\tN int\n\t}{}\n}\n",
		want: map[string]string{"Payload": "embeddable | A:\"A\":int", "TxOrder": "Payload.A:\"A\":int Version:\"Version\":int"},
	}, {
		name:  "a generic type that embeds a generated generic type",
		src:   "type Box[T any] struct{ V T }\n\ntype Page[T any] struct {\n\t*Box[T]\n\tN int\n}\n\nvar _ Page[int]\n",
		types: []string{"Box"},
		errs:  []string{"x.go:6:3: Page embeds Box, whose MarshalCBOR and UnmarshalCBOR cbor-gen generates"},
	}, {
		name:  "a tagged value type left out of -type",
		src:   "//cborgen:tag 1010\ntype ID uint64\n\ntype T struct{ I []ID }\n",
		types: []string{"T"},
		errs:  []string{"x.go:6:16: field T.I has unsupported type []ID: ID has a //cborgen:tag directive but is not generated, so it would be written without its tag (add it to -type)"},
	}, {
		name:  "types that cannot be generated by name",
		src:   "type V interface{ M() }\n\ntype B struct{}\n\nfunc (B) MarshalBinary() ([]byte, error) { return nil, nil }\n",
		types: []string{"V", "B", "Nope"},
		errs: []string{
			"x.go:3:6: -type V: V is not a struct type, nor a named basic, slice, array or map type",
			"x.go:5:6: -type B: it has a method MarshalBinary, so fxamacker/cbor writes it as a byte string of MarshalBinary's output",
			"-type Nope: no such type in package example.com/x/c", "; its struct types are B",
		},
	}, {
		name: "the default selection leaves out hand-written and binary types",
		src: "type H struct{}\n\nfunc (H) MarshalCBOR() ([]byte, error) { return nil, nil }\n\nfunc (*H) UnmarshalCBOR([]byte) error { return nil }\n\n" +
			"type B struct{}\n\nfunc (B) MarshalBinary() ([]byte, error) { return nil, nil }\n\n" +
			"type T struct {\n\tH H\n\tB B\n\tAny any\n\tS fmt.Stringer\n}\n",
		want: map[string]string{"T": "H:\"H\":x.H/Marshaler B:\"B\":x.B/Dynamic Any:\"Any\":any/Dynamic S:\"S\":fmt.Stringer/Dynamic"},
		notes: []string{
			"x.go:10:6: note: B is not generated: it has a method MarshalBinary",
			"x.go:16:2: note: field T.B (B) is encoded and decoded by fxamacker/cbor with reflection (the slow path)",
			"x.go:17:2: note: field T.Any (any)", "x.go:18:2: note: field T.S (fmt.Stringer)",
		},
	},
}

// byName qualifies a named type by its package's name: x.Item.
func byName(p *types.Package) string { return p.Name() }

// describeStruct writes the model of a struct in one line: its
// directives, then each field as ID:key:kind, with /Kind for the model
// types that a wire kind does not tell apart.
func describeStruct(s *model.Struct) string {
	var parts []string
	for _, d := range []struct {
		on   bool
		name string
	}{{s.CatchAll, "catchall"}, {s.Embeddable, "embeddable"}, {s.Extensible, "extensible"}, {s.NoLegacy, "nolegacy"}} {
		if d.on {
			parts = append(parts, d.name)
		}
	}
	if s.HasTag {
		parts = append(parts, "tag="+schema.TagToken(s))
	}
	if s.Value != nil {
		return strings.Join(append(parts, "value "+schema.KindOf(s.Value, byName).Text), " ")
	}
	if len(parts) > 0 {
		parts = append(parts, "|")
	}
	for _, f := range s.Fields {
		id := f.Name
		if len(f.Via) > 0 {
			var via []string
			for _, e := range f.Via {
				if e.Ptr != nil {
					via = append(via, "*"+e.Name)
				} else {
					via = append(via, e.Name)
				}
			}
			id = strings.Join(via, ".") + "." + f.Name
		}
		if f.IsReserved() {
			parts = append(parts, id+":reserved")
			continue
		}
		key := schema.KeyToken(f)
		if f.OmitEmpty {
			key += ",omitempty"
		}
		if f.OmitZero {
			key += ",omitzero"
		}
		k := schema.KindOf(f.Type, byName).Text
		switch f.Type.(type) {
		case model.Marshaler, model.BinaryMarshaler, model.Dynamic:
			k += "/" + strings.TrimPrefix(fmt.Sprintf("%T", f.Type), "model.")
		}
		parts = append(parts, id+":"+key+":"+k)
	}
	return strings.Join(parts, " ")
}

// loadSnippets lays out one package per case in a module, loads them all
// at once and returns each case's package by case index.
func loadSnippets(t *testing.T, cases []modelCase) []*load.Package {
	t.Helper()
	dir := schemaModule(t)
	for i, tc := range cases {
		var imports []string
		for _, p := range []string{"fmt", "github.com/cborgen/cborgen/runtime"} {
			if strings.Contains(tc.src, filepath.Base(p)+".") {
				imports = append(imports, fmt.Sprintf("import %q\n", p))
			}
		}
		pkgDir := filepath.Join(dir, fmt.Sprintf("c%d", i))
		if err := os.MkdirAll(pkgDir, 0o755); err != nil {
			t.Fatal(err)
		}
		// The first line of src is line 3 of x.go, one more for each import.
		writeFile(t, filepath.Join(pkgDir, "x.go"), "package x\n"+strings.Join(imports, "")+"\n"+tc.src)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.LoadMode, Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*load.Package, len(cases))
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		var i int
		if _, err := fmt.Sscanf(filepath.Base(p.PkgPath), "c%d", &i); err != nil {
			t.Fatalf("package %s", p.PkgPath)
		}
		pkgDir := filepath.Join(dir, filepath.Base(p.PkgPath))
		out[i] = &load.Package{Pkg: p, Dir: pkgDir, OutPath: filepath.Join(pkgDir, model.DefaultOutput)}
	}
	return out
}

// knownList is the list of directives errors end with.
const knownList = "(known: //cborgen:array, //cborgen:body, //cborgen:case V, //cborgen:catchall, //cborgen:embeddable, //cborgen:extensible, //cborgen:legacy, //cborgen:map, //cborgen:nolegacy, //cborgen:optional N, //cborgen:raw F, //cborgen:required N, //cborgen:tag N, //cborgen:tag N optional, //cborgen:union, //cborgen:union first, //cborgen:union key K)"

func TestModel(t *testing.T) {
	ls := loadSnippets(t, modelCases)
	for i, tc := range modelCases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := build.Model(ls[i], build.Options{Types: tc.types, Order: model.OrderBytewise})
			if len(tc.errs) > 0 {
				if err == nil {
					t.Fatal("no error")
				}
				inOrder(t, "error", err.Error(), tc.errs)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			pos := map[string]string{}
			at := func(p token.Position) string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }
			for _, s := range f.Structs {
				got[s.Name] = describeStruct(s)
				pos[s.Name] = at(s.Pos)
				for _, fd := range s.Fields {
					pos[s.Name+"."+model.FieldID(fd)] = at(fd.Pos)
				}
			}
			for name, want := range tc.pos {
				if pos[name] != want {
					t.Errorf("position of %s: got %s, want %s", name, pos[name], want)
				}
			}
			for name, want := range tc.want {
				if got[name] != want {
					t.Errorf("%s:\n got %s\nwant %s", name, got[name], want)
				}
			}
			inOrder(t, "notes", strings.Join(f.Notes, "\n"), tc.notes)
		})
	}
}

// inOrder checks that text holds each of parts, in order.
func inOrder(t *testing.T, what, text string, parts []string) {
	t.Helper()
	rest := text
	for _, p := range parts {
		i := strings.Index(rest, p)
		if i < 0 {
			t.Errorf("%s lacks %q (in order):\n%s", what, p, text)
			return
		}
		rest = rest[i+len(p):]
	}
}

// TestLegacyChoice: which types get the legacy map decoder. A struct with
// fxamacker's toarray option has none unless //cborgen:legacy; -nolegacy
// takes it from every struct but those marked //cborgen:legacy; the two
// directives together are refused.
func TestLegacyChoice(t *testing.T) {
	src := "type A struct{ X int }\n\ntype B struct {\n\t_ struct{} `cbor:\",toarray\"`\n\tX int\n}\n\n" +
		"//cborgen:legacy\ntype C struct {\n\t_ struct{} `cbor:\",toarray\"`\n\tX int\n}\n\n" +
		"//cborgen:legacy\ntype D struct{ X int }\n\n//cborgen:map\ntype E struct{ X int }\n"
	cases := []modelCase{{name: "choice", src: src}, {name: "refused", src: "//cborgen:legacy\n//cborgen:nolegacy\ntype A struct{ X int }\n\n//cborgen:legacy\n//cborgen:tag 1001\ntype V uint64\n"}}
	ls := loadSnippets(t, cases)
	for _, noLegacy := range []bool{false, true} {
		f, err := build.Model(ls[0], build.Options{Order: model.OrderBytewise, NoLegacy: noLegacy})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, s := range f.Structs {
			got[s.Name] = s.NoLegacy
		}
		want := map[string]bool{"A": noLegacy, "B": true, "C": false, "D": false, "E": false}
		if !maps.Equal(got, want) {
			t.Errorf("-nolegacy=%t: NoLegacy %v, want %v", noLegacy, got, want)
		}
	}
	_, err := build.Model(ls[1], build.Options{Order: model.OrderBytewise, Types: []string{"A", "V"}})
	if err == nil {
		t.Fatal("no error")
	}
	inOrder(t, "error", err.Error(), []string{
		"x.go:3:1: type A: //cborgen:legacy and //cborgen:nolegacy contradict each other; keep one",
		"x.go:7:1: type V: //cborgen:legacy is for struct types; V is a named uint64 type",
	})
}
