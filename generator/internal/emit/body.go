package emit

import "github.com/cborgen/cborgen/generator/internal/model"

// A //cborgen:body type keeps its hand-written MarshalCBOR and
// UnmarshalCBOR (and AppendCBOR and DecodeCBOR, if the program wrote
// them): the generated methods are the same codec under the names of
// model.BodyNames, for those methods to call, and neither MarshalCBOR nor
// UnmarshalCBOR is generated (addStruct). In outline, for a type Record:
//
//	func (v *Record) AppendCBORBody(dst []byte) ([]byte, error) // AppendCBOR's code
//	func (v *Record) SizeCBORBody() int                         // SizeCBOR's
//	func (v *Record) DecodeCBORBody(d *runtime.Decoder) error   // DecodeCBOR's: array and legacy map
//
// The helpers (cborDecodeFields, cborDecodeMap...) keep their names. The
// types that hold a Record call its own methods (the builder models such
// a field as a Marshaler, or as a StructRef to the program's AppendCBOR
// and DecodeCBOR), so its hooks run for nested values too.

// methodName is the name under which s declares the generated method
// name (AppendCBOR, DecodeCBOR or SizeCBOR): name itself, or for a
// //cborgen:body type name + "Body".
func methodName(s *model.Struct, name string) string {
	if s.Body {
		return name + model.BodySuffix
	}
	return name
}
