package diag

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// Limits are the bounds the generated decoders put on an item, by
// default the runtime's (runtime.DefaultOptions).
type Limits struct {
	MaxDepth         int
	MaxArrayElements uint64
	MaxMapPairs      uint64
	MaxStringLength  uint64
}

// DefaultLimits are the runtime's default limits.
var DefaultLimits = Limits{
	MaxDepth:         genrt.DefaultMaxDepth,
	MaxArrayElements: genrt.DefaultMaxArrayElements,
	MaxMapPairs:      genrt.DefaultMaxMapPairs,
	MaxStringLength:  genrt.DefaultMaxStringLength,
}

// SyntaxError is input that is not a well-formed CBOR item within the
// limits, at byte Offset of the input.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Major types.
const (
	majUint   = 0
	majNeg    = 1
	majBytes  = 2
	majText   = 3
	majArray  = 4
	majMap    = 5
	majTag    = 6
	majSimple = 7
)

// node is one parsed data item. The tree costs a bounded amount per byte
// of input: a node is made only for a head that was read, and a
// container's children grow as they are read, never by its declared
// length.
type node struct {
	off, end int // the item's bytes: data[off:end]
	major    byte
	ai       byte   // the head's additional information
	arg      uint64 // the argument: value, length, tag number, simple value
	indef    bool   // indefinite length
	f        float64
	data     []byte  // a definite string's content
	kids     []*node // array elements, map keys and values in turn, a tag's content, string chunks
	partial  bool    // the input ends, or is not well-formed, inside this item
	headless bool    // not even the head could be read: nothing to print
}

// parser reads items from data.
type parser struct {
	data []byte
	off  int
	lim  Limits
	err  *SyntaxError
}

func (p *parser) fail(off int, format string, args ...any) {
	if p.err == nil {
		p.err = &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
}

// head reads an initial byte and its argument. ok is false after an error.
func (p *parser) head() (ib byte, arg uint64, ok bool) {
	start := p.off
	if p.off >= len(p.data) {
		p.fail(start, "unexpected end of input")
		return 0, 0, false
	}
	ib = p.data[p.off]
	p.off++
	ai := ib & 0x1f
	switch {
	case ai < 24:
		return ib, uint64(ai), true
	case ai <= 27:
		n := 1 << (ai - 24)
		if len(p.data)-p.off < n {
			p.fail(start, "unexpected end of input in the head of %s", majorName(ib))
			p.off = len(p.data)
			return ib, 0, false
		}
		b := p.data[p.off : p.off+n]
		p.off += n
		switch n {
		case 1:
			arg = uint64(b[0])
		case 2:
			arg = uint64(binary.BigEndian.Uint16(b))
		case 4:
			arg = uint64(binary.BigEndian.Uint32(b))
		default:
			arg = binary.BigEndian.Uint64(b)
		}
		return ib, arg, true
	case ai == 31:
		return ib, 0, true
	}
	p.fail(start, "reserved additional information %d in initial byte 0x%02x", ai, ib)
	return ib, 0, false
}

// item reads one item at depth (the number of arrays, maps and nested
// tags around it). It returns the node read so far, also after an error.
func (p *parser) item(depth int) *node {
	start := p.off
	ib, arg, ok := p.head()
	n := &node{off: start, major: ib >> 5, ai: ib & 0x1f, arg: arg}
	if !ok {
		n.partial, n.headless = true, true
		n.end = p.off
		return n
	}
	if ib == 0xff {
		p.fail(start, "break outside an indefinite-length item")
		n.partial = true
		n.end = p.off
		return n
	}
	n.indef = n.ai == 31
	switch n.major {
	case majUint, majNeg:
		if n.indef {
			p.fail(start, "indefinite length on an integer (initial byte 0x%02x)", ib)
			n.partial = true
		}
	case majBytes, majText:
		if n.indef {
			p.chunks(n)
		} else {
			p.str(n, arg)
		}
	case majArray:
		if depth >= p.lim.MaxDepth {
			p.fail(start, "nesting deeper than %d", p.lim.MaxDepth)
			n.partial = true
			break
		}
		p.array(n, depth)
	case majMap:
		if depth >= p.lim.MaxDepth {
			p.fail(start, "nesting deeper than %d", p.lim.MaxDepth)
			n.partial = true
			break
		}
		p.mapItem(n, depth)
	case majTag:
		if n.indef {
			p.fail(start, "indefinite length on a tag")
			n.partial = true
			break
		}
		d := depth
		if p.off < len(p.data) && p.data[p.off]>>5 == majTag {
			d++ // a tag within a tag counts as a level, as in the runtime
			if d > p.lim.MaxDepth {
				p.fail(p.off, "nesting deeper than %d", p.lim.MaxDepth)
				n.partial = true
				break
			}
		}
		c := p.item(d)
		if !c.headless {
			n.kids = append(n.kids, c)
		}
		n.partial = c.partial
	case majSimple:
		switch {
		case n.ai == 24 && arg < 32:
			p.fail(start, "simple value %d in two bytes (f8 %02x): not well-formed", arg, arg)
			n.partial = true
		case n.ai == 25:
			n.f = float16(uint16(arg))
		case n.ai == 26:
			n.f = float64(math.Float32frombits(uint32(arg)))
		case n.ai == 27:
			n.f = math.Float64frombits(arg)
		case n.indef:
			// the break, refused above
		}
	}
	n.end = p.off
	return n
}

func (p *parser) str(n *node, length uint64) {
	if length > p.lim.MaxStringLength {
		p.fail(n.off, "%s of %d bytes, more than the limit of %d", majorName(n.major<<5), length, p.lim.MaxStringLength)
		n.partial = true
		return
	}
	if length > uint64(len(p.data)-p.off) {
		p.fail(n.off, "%s of %d bytes, but only %d bytes follow", majorName(n.major<<5), length, len(p.data)-p.off)
		n.data = p.data[p.off:]
		p.off = len(p.data)
		n.partial = true
		return
	}
	n.data = p.data[p.off : p.off+int(length)]
	p.off += int(length)
}

// chunks reads the chunks of an indefinite-length string, each a definite
// string of the same major type.
func (p *parser) chunks(n *node) {
	var total uint64
	for {
		if p.off >= len(p.data) {
			p.fail(p.off, "unexpected end of input in an indefinite-length %s", majorName(n.major<<5))
			n.partial = true
			return
		}
		if p.data[p.off] == 0xff {
			p.off++
			return
		}
		at := p.off
		if ib := p.data[p.off]; ib>>5 != n.major || ib&0x1f == 31 {
			p.fail(at, "chunk of an indefinite-length %s is a %s", majorName(n.major<<5), chunkName(ib))
			n.partial = true
			return
		}
		c := p.item(0)
		if !c.headless {
			n.kids = append(n.kids, c)
		}
		if c.partial {
			n.partial = true
			return
		}
		total += uint64(len(c.data))
		if total > p.lim.MaxStringLength {
			p.fail(at, "indefinite-length %s of more than the limit of %d bytes", majorName(n.major<<5), p.lim.MaxStringLength)
			n.partial = true
			return
		}
	}
}

func chunkName(ib byte) string {
	if ib&0x1f == 31 && ib>>5 == majBytes || ib&0x1f == 31 && ib>>5 == majText {
		return "nested indefinite-length string"
	}
	return majorName(ib)
}

func (p *parser) array(n *node, depth int) {
	if !n.indef {
		if n.arg > p.lim.MaxArrayElements {
			p.fail(n.off, "array of %d elements, more than the limit of %d", n.arg, p.lim.MaxArrayElements)
			n.partial = true
			return
		}
		for i := uint64(0); i < n.arg; i++ {
			c := p.item(depth + 1)
			if !c.headless {
				n.kids = append(n.kids, c)
			}
			if c.partial {
				n.partial = true
				return
			}
		}
		return
	}
	for {
		if p.off >= len(p.data) {
			p.fail(p.off, "unexpected end of input in an indefinite-length array")
			n.partial = true
			return
		}
		if p.data[p.off] == 0xff {
			p.off++
			return
		}
		if uint64(len(n.kids)) >= p.lim.MaxArrayElements {
			p.fail(n.off, "array of more than the limit of %d elements", p.lim.MaxArrayElements)
			n.partial = true
			return
		}
		c := p.item(depth + 1)
		if !c.headless {
			n.kids = append(n.kids, c)
		}
		if c.partial {
			n.partial = true
			return
		}
	}
}

func (p *parser) mapItem(n *node, depth int) {
	if !n.indef && n.arg > p.lim.MaxMapPairs {
		p.fail(n.off, "map of %d pairs, more than the limit of %d", n.arg, p.lim.MaxMapPairs)
		n.partial = true
		return
	}
	for i := uint64(0); n.indef || i < n.arg; i++ {
		if n.indef {
			if p.off >= len(p.data) {
				p.fail(p.off, "unexpected end of input in an indefinite-length map")
				n.partial = true
				return
			}
			if p.data[p.off] == 0xff {
				p.off++
				return
			}
			if i >= p.lim.MaxMapPairs {
				p.fail(n.off, "map of more than the limit of %d pairs", p.lim.MaxMapPairs)
				n.partial = true
				return
			}
		}
		for j := 0; j < 2; j++ {
			if j == 1 && p.off < len(p.data) && p.data[p.off] == 0xff {
				p.fail(p.off, "break in place of a map value")
				n.partial = true
				return
			}
			c := p.item(depth + 1)
			if !c.headless {
				n.kids = append(n.kids, c)
			}
			if c.partial {
				n.partial = true
				return
			}
		}
	}
}

// majorName names the major type of an initial byte, as the runtime's
// errors do.
func majorName(ib byte) string {
	switch ib {
	case 0xf4, 0xf5:
		return "bool"
	case 0xf6:
		return "null"
	case 0xf7:
		return "undefined"
	case 0xf9, 0xfa, 0xfb:
		return "float"
	case 0xff:
		return "break"
	}
	return [...]string{"unsigned integer", "negative integer", "byte string", "text string", "array", "map", "tag", "simple value"}[ib>>5]
}

// what names the item n for messages: "text string", "null", "tag 24".
func (n *node) what() string {
	switch n.major {
	case majUint, majNeg:
		return "integer"
	case majTag:
		return fmt.Sprintf("tag %d", n.arg)
	case majSimple:
		switch {
		case n.ai == 20 || n.ai == 21:
			return "bool"
		case n.ai == 22:
			return "null"
		case n.ai == 23:
			return "undefined"
		case n.ai >= 25 && n.ai <= 27:
			return "float"
		}
		return "simple value"
	}
	return majorName(n.major << 5)
}

func (n *node) isNull() bool { return n.major == majSimple && (n.ai == 22 || n.ai == 23) }

// float16 converts an IEEE 754 half-precision value.
func float16(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	mant := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(mant, -24)
	case 31:
		if mant == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * math.Ldexp(mant+1024, exp-25)
}
