package genrt

import "strings"

// What only the smaller form of the generated code (cbor-gen -small) calls:
// the parts of UnmarshalCBOR and DecodeCBOR that the default code has in
// line in each type, here once for every type.

// AtStructField is the error of a -small DecodeCBOR whose field number
// field failed with err: AtRoot(AtField(err, name), typ, OneItem), where
// name is the field's Go name, word number field of names (the type's
// field names, in order, separated by spaces). One call at the end of
// each DecodeCBOR, in place of the two at each place a field can fail.
func AtStructField(err error, field int, names, typ string) error {
	name := names
	for range field {
		_, name, _ = strings.Cut(name, " ")
	}
	name, _, _ = strings.Cut(name, " ")
	return AtRoot(AtField(err, name), typ, OneItem)
}

// InitBytes readies d, a zero Decoder, to read data with the default
// options, as NewBytesDecoder(data) does:
//
//	var d genrt.Decoder
//	d.InitBytes(data)
//	return d.FinishCall(v.DecodeCBOR(&d), "Item")
//
// is -small's UnmarshalCBOR, the stores that NewBytesDecoder puts in line
// in every type made in one call that every type shares.
//
//go:noinline
func (d *Decoder) InitBytes(data []byte) {
	d.buf, d.shortText, d.opts = data, shortTextLimit, &builtinOpts[0]
	d.applyDefaults()
}

// ReadStringTo is *p, err = d.ReadStringOr(*p): -small code reads a
// string field by this call, the store of the string (with the
// collector's write barrier) here instead of in every type.
//
//go:noinline
func (d *Decoder) ReadStringTo(p *string) error {
	s, err := d.ReadStringOr(*p)
	*p = s
	return err
}

// FinishCall is Finish kept out of line, as -small's UnmarshalCBOR calls
// it: its test, in line in the default code, is then not in every type.
//
//go:noinline
func (d *Decoder) FinishCall(err error, name string) error {
	return d.Finish(err, name)
}
