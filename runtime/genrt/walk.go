package genrt

import (
	"hash/maphash"
	"io"
	"math"
	"strconv"
	"time"
)

// walk flags: what a walk checks beyond well-formedness and the limits.
type walkFlags uint16

const (
	checkUTF8   walkFlags = 1 << iota // text strings are UTF-8
	checkDups                         // no map has a key twice (by value)
	checkTags                         // tags 0-3 hold content of the type RFC 8949 §3.4 requires
	checkDates                        // with checkTags: tag 0 text is an RFC 3339 date/time (only over a slice)
	noIndef                           // no indefinite lengths (what a cbor.Marshaler may return)
	keyPrints                         // with checkDups, in a map key: each item leaves its print in slowState.keys.print
	tagContent                        // the item is the content of a tag (a tag 55799 there is part of a key's value)
	forbidIndef                       // no indefinite lengths (Options.IndefLength), in fxamacker's words
	forbidTags                        // no tags (Options.TagsMd)
	forbidNaN                         // no NaN (Options.NaN)
	forbidInf                         // no infinity (Options.Inf)
)

// forbidFloats are the flags that look at the values of floats.
const forbidFloats = forbidNaN | forbidInf

// validFlags are the checks of Valid.
const validFlags = checkUTF8 | checkDups | checkTags | checkDates

// Skip consumes one whole data item of any shape: nested, indefinite
// length or tagged. It checks well-formedness and the limits (depth
// counted from the current nesting level) but not UTF-8; in strict mode it
// also rejects indefinite lengths, non-shortest heads and duplicate keys.
// Over a slice it moves the offset; over a stream it discards through the
// read buffer without allocating.
func (d *Decoder) Skip() error {
	if d.opts.Strict && d.depth > 0 {
		return d.walk(0, d.depth)
	}
	if d.checks != 0 {
		// checkItem walks the whole item at the top level, strict heads
		// included, within the limits that the lenient skip applies: when
		// it has just walked this item, the item ends where it stopped,
		// and the skip is a move there (its bytes are still buffered).
		fresh := d.depth == 0 && d.Offset() >= d.checkedTo
		if err := d.checkItem(); err != nil {
			return err
		}
		if fresh {
			d.off = int(d.checkedTo - d.base)
			return nil
		}
	}
	if d.st != nil {
		return d.skip(d.depth)
	}
	s := newSliceSkipper(d)
	if off := s.items(d.off, 1, d.depth); off >= 0 {
		d.off = off
		return nil
	}
	return d.walk(0, d.depth)
}

// checkItem checks the whole item at the read position, once, before a
// decoder at the top level (depth 0) consumes any of it, when the options
// ask for checks of the whole item (d.checks, see Options.itemChecks):
// under Strict, strict heads (head enforces them during the walk), UTF-8
// and duplicate keys; the modes that fxamacker/cbor checks with an item's
// well-formedness before it decodes it (IndefLength, TagsMd, NaN, Inf),
// so that they hold also in what is skipped, kept raw or handed to
// fxamacker, and the first fault found is fxamacker's. Over a stream the
// item stays buffered (pinned) during the check, then decoding starts
// again at its beginning. The reads that may be the first of an item at
// the top level call it when d.checks is not zero (head, peek, peekHead,
// containerHead, peekMajorSlow, ReadRawChecked, Skip), and the fast paths
// that could consume an item unchecked stand aside then.
func (d *Decoder) checkItem() error {
	if d.depth != 0 || d.Offset() < d.checkedTo {
		return nil
	}
	d.checkedTo = math.MaxInt64 // the walk's own reads at depth 0 check nothing again
	d.pinned, d.pin = true, d.off
	var err error
	if !d.checked(false) {
		err = d.walk(d.checks, 0)
	}
	end := d.Offset()
	d.off = d.pin
	d.pinned = false
	if err != nil {
		d.checkedTo = 0 // a read that follows finds the fault again
		return err
	}
	d.checkedTo = end
	return nil
}

// walk consumes one item at depth depth (the number of containers open
// around it), checking what flags ask for. It recurses through arrays,
// maps and tags, so it keeps a small frame: what is not the common path
// is in functions of its own.
func (d *Decoder) walk(flags walkFlags, depth int) error {
	start := d.Offset()
	ib, arg, err := d.head()
	if err != nil {
		return err
	}
	if ib&0x1f == 31 && flags&noIndef != 0 {
		return d.errAt(start, ErrSyntax, msgIndefOut)
	}
	switch ib >> 5 {
	case MajorBytes, MajorText:
		if ib&0x1f == 31 && flags&forbidIndef != 0 {
			return d.forbiddenIndef(ib, start)
		}
		return d.walkString(ib, arg, flags, start)
	case MajorArray, MajorMap:
		if depth >= d.opts.MaxDepth {
			return d.depthError(start)
		}
		if ib&0x1f == 31 && flags&forbidIndef != 0 {
			return d.forbiddenIndef(ib, start) // after the depth, as fxamacker checks them
		}
		n := -1
		if ib&0x1f != 31 {
			if err := d.checkCount(ib>>5, arg, start); err != nil {
				return err
			}
			n = int(arg)
		}
		if ib>>5 == MajorArray {
			return d.walkArray(flags&^tagContent, depth+1, n)
		}
		return d.walkMap(flags&^tagContent, depth+1, n)
	case MajorTag:
		if flags&forbidTags != 0 {
			return d.errAt(start, ErrForbidden, "CBOR tag isn't allowed")
		}
		return d.walkTag(flags, depth, arg)
	case MajorSimple:
		if flags&forbidFloats != 0 && ib >= byteFloat16 && ib <= byteFloat64 {
			if err := d.checkFloat(ib, arg, flags, start); err != nil {
				return err
			}
		}
	}
	// Integers; major type 7: head has rejected break and the two-byte
	// simple values below 32; everything else (simple values, floats)
	// is done.
	if flags&keyPrints != 0 {
		d.printed(headPrint(ib, arg))
	}
	return nil
}

// forbiddenIndef is the error for an indefinite-length item (initial byte
// ib) at start under IndefLengthForbidden, in fxamacker's words.
func (d *Decoder) forbiddenIndef(ib byte, start int64) error {
	return d.errAt(start, ErrForbidden, "indefinite-length "+fxTypeNames[ib>>5]+" isn't allowed")
}

// checkFloat is the check of NaNDecodeForbidden and InfDecodeForbidden on
// a float of initial byte ib and bits arg at start, in fxamacker's words.
func (d *Decoder) checkFloat(ib byte, arg uint64, flags walkFlags, start int64) error {
	var f float64
	switch ib {
	case byteFloat16:
		f = float16ToFloat64(uint16(arg))
	case byteFloat32:
		f = float64(math.Float32frombits(uint32(arg)))
	default:
		f = math.Float64frombits(arg)
	}
	switch {
	case flags&forbidNaN != 0 && math.IsNaN(f):
		return d.errAt(start, ErrForbidden, "data item of cbor type primitives is not accepted by protocol: floating-point NaN")
	case flags&forbidInf != 0 && math.IsInf(f, 0):
		return d.errAt(start, ErrForbidden, "data item of cbor type primitives is not accepted by protocol: floating-point infinity")
	}
	return nil
}

// depthError is the error of a container or a tag within a tag at start
// beyond MaxDepth.
func (d *Decoder) depthError(start int64) error {
	return d.errAt(start, ErrLimit, "nesting depth exceeds limit "+strconv.Itoa(d.opts.MaxDepth))
}

// walkString consumes the content of a byte or text string whose head
// (ib, arg) started at start.
func (d *Decoder) walkString(ib byte, arg uint64, flags walkFlags, start int64) error {
	major := ib >> 5
	if ib&0x1f == 31 {
		return d.walkChunks(major, flags, start)
	}
	if arg > uint64(d.opts.MaxStringLength) {
		return d.errAt(start, ErrLimit, majorNames[major]+" length "+strconv.FormatUint(arg, 10)+" exceeds limit "+strconv.Itoa(d.opts.MaxStringLength))
	}
	if err := d.skipBytes(int(arg), major == MajorText && flags&checkUTF8 != 0, start); err != nil {
		return err
	}
	if flags&keyPrints != 0 {
		d.slow.keys.work += int(arg)
		d.printed(stringPrint(major, arg, maphash.Bytes(printSeed, d.buf[d.off-int(arg):d.off])))
	}
	return nil
}

// walkArray consumes the n elements (-1: indefinite) of an array whose
// elements are at depth depth.
func (d *Decoder) walkArray(flags walkFlags, depth, n int) error {
	p := printArray // with keyPrints: the array's own print
	for i := 0; ; i++ {
		more, err := d.NextElem(n, i)
		if err != nil {
			return err
		}
		if !more {
			if flags&keyPrints != 0 {
				d.printed(mixPrint(p, uint64(i)))
			}
			return nil
		}
		if flags&keyPrints != 0 || !d.skipSmallInt() {
			if err := d.walk(flags, depth); err != nil {
				return err
			}
		}
		if flags&keyPrints != 0 {
			p = mixPrint(p, d.slow.keys.print)
		}
	}
}

// walkTag consumes the content of a tag numbered arg at depth depth.
func (d *Decoder) walkTag(flags walkFlags, depth int, arg uint64) error {
	b, err := d.peek()
	if err != nil {
		return err
	}
	if flags&checkTags != 0 && arg <= 3 {
		if err := checkTagContent(d, arg, b); err != nil {
			return err
		}
	}
	// The content; in a key, a tag 55799 is no part of the value but as
	// the content of a tag.
	inner := flags | tagContent
	if arg == TagSelfDescribed && flags&tagContent == 0 {
		inner = flags
	}
	switch {
	case b>>5 == MajorTag:
		// fxamacker/cbor counts a tag within a tag as one level.
		if depth+1 > d.opts.MaxDepth {
			return d.depthError(d.Offset())
		}
		err = d.walk(inner, depth+1)
	case flags&checkDates != 0 && arg == 0:
		err = d.walkDate(inner&keyPrints, depth)
	default:
		err = d.walk(inner, depth)
	}
	if err == nil && inner&(keyPrints|tagContent) == keyPrints|tagContent {
		d.printed(mixPrint(mixPrint(printTag, arg), d.slow.keys.print))
	}
	return err
}

// skipSmallInt consumes the item at the read position if it is an integer
// of one byte (0 to 23, -1 to -24), as many values are, and reports
// whether it did: the loops over the items of a container call it first
// (out of map keys, whose prints walk notes), which saves them a call of
// walk and a head for such an item.
func (d *Decoder) skipSmallInt() bool {
	if d.off < len(d.buf) {
		if c := d.buf[d.off]; c < 0x18 || c-0x20 < 0x18 {
			d.off++
			return true
		}
	}
	return false
}

// printed notes p, the print of the item just walked, for the container
// or map around it.
func (d *Decoder) printed(p uint64) {
	d.slow.keys.print = p
	d.slow.keys.work++
}

// checkTagContent checks the content of tags 0-3, whose initial byte is b.
func checkTagContent(d *Decoder, tag uint64, b byte) error {
	if tagContentOK(tag, b) {
		return nil
	}
	return d.errAt(d.Offset(), ErrTag, "tag "+strconv.FormatUint(tag, 10)+" holds "+describe(b))
}

// walkDate consumes the content of a tag 0, a text string (checked by
// checkTagContent), and checks that it is a date/time in the RFC 3339
// format RFC 8949 §3.4.1 requires, as fxamacker/cbor parses it. It is for
// Valid, over a slice, and for a walk over a stream that keeps the item
// buffered (pinned: a refill moves the bytes and pin with them, so the
// content is found from pin).
//
// flags is keyPrints in a map key, else 0.
func (d *Decoder) walkDate(flags walkFlags, depth int) error {
	if d.st != nil && !d.pinned {
		return d.walk(checkUTF8|flags, depth)
	}
	start, rel := d.Offset(), d.off-d.pin
	if err := d.walk(checkUTF8|flags, depth); err != nil {
		return err
	}
	var text []byte
	for raw := d.buf[d.pin+rel : d.off]; len(raw) > 0; {
		if raw[0] == 0x7f || raw[0] == 0xff { // indefinite: its chunks follow
			raw = raw[1:]
			continue
		}
		n, h := headLen(raw)
		text, raw = append(text, raw[h:h+int(n)]...), raw[h+int(n):]
	}
	if _, err := time.Parse(time.RFC3339, string(text)); err != nil {
		return d.errAt(start, ErrTag, "tag 0 holds text that is not an RFC 3339 date/time")
	}
	return nil
}

// skipBytes consumes n bytes of string content, checking UTF-8 when asked.
// Over a stream that is not pinned it discards through the buffer.
func (d *Decoder) skipBytes(n int, utf8 bool, start int64) error {
	if len(d.buf)-d.off >= n {
		if utf8 && !validUTF8(d.buf[d.off:d.off+n]) {
			return d.errAt(start, ErrUTF8, "text string is not valid UTF-8")
		}
		d.off += n
		return nil
	}
	if d.st == nil || d.pinned || utf8 {
		if err := d.need(n); err != nil {
			return d.eof(err, start, "string")
		}
		return d.skipBytes(n, utf8, start)
	}
	for n > 0 {
		if d.off == len(d.buf) {
			if err := d.need(1); err != nil {
				return d.eof(err, start, "string")
			}
		}
		k := len(d.buf) - d.off
		if k > n {
			k = n
		}
		d.off += k
		n -= k
	}
	return nil
}

// walkChunks consumes the chunks of an indefinite-length string.
// In a map key the chunks' bytes are hashed as one string's.
func (d *Decoder) walkChunks(major byte, flags walkFlags, start int64) error {
	total := uint64(0)
	var h maphash.Hash
	if flags&keyPrints != 0 {
		h.SetSeed(printSeed)
	}
	for {
		if err := d.need(1); err != nil {
			return d.eof(err, d.Offset(), "indefinite-length "+majorNames[major])
		}
		if d.buf[d.off] == byteBreak {
			d.off++
			if flags&keyPrints != 0 {
				d.printed(stringPrint(major, total, h.Sum64()))
			}
			return nil
		}
		cs := d.Offset()
		ib, arg, err := d.head()
		if err != nil {
			return err
		}
		if ib>>5 != major || ib&0x1f == 31 {
			return d.errAt(cs, ErrSyntax, "chunk of an indefinite-length "+majorNames[major]+" is "+describe(ib))
		}
		total += arg
		if arg > uint64(d.opts.MaxStringLength) || total > uint64(d.opts.MaxStringLength) {
			return d.errAt(start, ErrLimit, majorNames[major]+" length exceeds limit "+strconv.Itoa(d.opts.MaxStringLength))
		}
		if err := d.skipBytes(int(arg), major == MajorText && flags&checkUTF8 != 0, cs); err != nil {
			return err
		}
		if flags&keyPrints != 0 {
			h.Write(d.buf[d.off-int(arg) : d.off])
			d.slow.keys.work += int(arg)
		}
	}
}

// walkMap consumes the pairs of a map of n pairs (-1: indefinite). With
// checkDups it notes each key's print and place, and compares the keys
// once the map ends. (After an error the keys of the maps open stay
// noted: a later walk notes its own above them, and Reset drops them.)
func (d *Decoder) walkMap(flags walkFlags, depth, n int) error {
	var keys *keyChecker // with checkDups: the keys of the maps open
	mark := 0
	if flags&checkDups != 0 {
		keys = &d.slowPath().keys
		mark = len(keys.spans)
	}
	p := printMap // with keyPrints: the map's own print
	i := 0
	for ; ; i++ {
		more, err := d.NextPair(n, i)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		if keys == nil {
			if !d.skipSmallInt() {
				if err := d.walk(flags, depth); err != nil {
					return err
				}
			}
		} else {
			ks := d.Offset() // absolute: a refill may move the buffer
			if err := d.walk(flags|keyPrints, depth); err != nil {
				return err
			}
			keys.note(ks, d.Offset())
			p = mixPrint(p, keys.print)
		}
		if flags&keyPrints != 0 || !d.skipSmallInt() {
			if err := d.walk(flags, depth); err != nil {
				return err
			}
		}
		if flags&keyPrints != 0 {
			p = mixPrint(p, keys.print)
		}
	}
	if keys == nil {
		return nil
	}
	return d.mapEnd(keys, mark, flags, mixPrint(p, uint64(i)))
}

// mapEnd compares the keys of a map that has ended, the keys from mark
// on, and drops them; with keyPrints it notes p, the map's print.
func (d *Decoder) mapEnd(keys *keyChecker, mark int, flags walkFlags, p uint64) error {
	off, dup := keys.duplicate(d, mark)
	keys.truncate(mark)
	if dup {
		return &Error{Offset: off, Msg: "map key appears twice", Err: ErrDuplicateKey}
	}
	if flags&keyPrints != 0 {
		d.printed(p)
	}
	return nil
}

// validSlow is Valid by the general walker: the judge of every input the
// fast validator is not sure of, and the author of every error.
func validSlow(data []byte) error {
	d := Decoder{buf: data, opts: &builtinOpts[0], shortText: shortTextLimit}
	if len(data) == 0 {
		return &Error{Msg: "no data", Err: io.ErrUnexpectedEOF}
	}
	if err := d.walk(validFlags, 0); err != nil {
		return err
	}
	if d.off != len(data) {
		return d.errAt(d.Offset(), ErrTrailing, count(len(data)-d.off, "byte")+" after the item")
	}
	return nil
}
