package genrt

// ReadRawBytes reads the next item, whatever it is, as its bytes, tags
// included: what a union's catch-all variant keeps. Pass buf, the slice
// the variant holds: its array is reused as ReadBytes reuses one. The
// item is checked as Valid checks it, against the decoder's limits: a
// catch-all keeps only what it can write back as a valid item.
func (d *Decoder) ReadRawBytes(buf []byte) ([]byte, error) {
	if d.off >= len(d.buf) {
		if err := d.need(1); err != nil {
			return buf, d.eof(err, d.Offset(), "item head")
		}
	}
	d.pinned, d.pin = true, d.off // a refill keeps buf[pin:] and moves pin with it
	var err error
	if !d.checked(true) {
		err = d.walk(validFlags, d.depth)
	}
	d.pinned = false
	if err != nil {
		return buf, err
	}
	return copyBytes(buf, d.buf[d.pin:d.off:len(d.buf)]), nil
}

// ReadRawChecked consumes the next item, checks that it is well-formed within the
// limits (as Skip does), and returns its encoded bytes. As fxamacker/cbor
// does before it hands an item to a cbor.RawMessage or an UnmarshalCBOR
// method, it strips leading 55799 tags and checks that each of the tags
// in front holds what RFC 8949 requires if it is one of tags 0-3. The result aliases
// the decoder's buffer: it is valid until the next read from d, so copy it
// to keep it. Generated code hands it to a field's own UnmarshalCBOR, as
// fxamacker/cbor does, and copies it into a cbor.RawMessage.
func (d *Decoder) ReadRawChecked() ([]byte, error) {
	if d.checks != 0 {
		if err := d.checkItem(); err != nil {
			return nil, err
		}
	}
	depth := d.depth
	if d.off >= len(d.buf) || d.buf[d.off]>>5 == MajorTag {
		var err error
		if depth, err = d.readRawTags(); err != nil {
			return nil, err
		}
	}
	d.pinned, d.pin = true, d.off // a refill keeps buf[pin:] and moves pin with it
	err := d.walk(0, depth)
	d.pinned = false
	if err != nil {
		return nil, err
	}
	return d.buf[d.pin:d.off:d.off], nil
}

// RawStart marks the start of an item whose bytes the caller will keep,
// before its first byte (a tag in front included) is read: what a
// //cborgen:raw type's DecodeCBOR calls first. It returns the offset
// RawBytes takes. Over a stream the item is pinned from here until
// RawBytes: a refill keeps its bytes in the buffer (moving them), and
// skipping does not discard them. Marks nest (a raw type inside another
// keeps its own bytes); the outermost pins for all.
func (d *Decoder) RawStart() int64 {
	if d.st != nil {
		if d.st.raws == 0 {
			d.st.rawPin = d.off
		}
		d.st.raws++
	}
	return d.Offset()
}

// RawBytes returns the bytes read since the RawStart that returned start:
// the whole item, as it was in the input. Under Options.ZeroCopy over a
// slice it aliases the input (capped at its length, so appending to it
// never writes into the input); otherwise it is a copy, in buf's array
// when buf has room, as ReadBytes reuses one, else in one new array. It
// ends the pin of that RawStart.
func (d *Decoder) RawBytes(start int64, buf []byte) []byte {
	from := int(start - d.base)
	if d.st != nil {
		d.st.raws--
		return copyBytes(buf, d.buf[from:d.off:len(d.buf)])
	}
	if d.opts.ZeroCopy {
		return d.buf[from:d.off:d.off]
	}
	return copyBytes(buf, d.buf[from:d.off:len(d.buf)])
}
