package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/cborgen/cborgen/generator/internal/model"
	"github.com/cborgen/cborgen/runtime/genrt"
)

// sizeMethod emits SizeCBOR, an upper bound of the length of what
// AppendCBOR writes, so that MarshalCBOR allocates once. What has a
// fixed maximum (floats at their widest, bools, heads of fixed arrays,
// [N]byte, times, structs made only of such fields) is summed here, at
// generation time, into one constant; integers add the size of their
// head, strings, byte strings and containers their lengths, when the code
// runs. Without floats, times and fields that other code encodes the
// bound is exact, and MarshalCBOR allocates exactly the encoding's size.
// From testdata/golden/nested (the array's head and Price at its widest
// are the 10):
//
//	func (v *Item) SizeCBOR() int {
//		if v == nil {
//			return 1
//		}
//		n := 10
//		n += genrt.SizeHead(uint64(len(v.SKU))) + len(v.SKU)
//		n += genrt.SizeHead(uint64(v.Qty))
//		return n
//	}
//
// Fields that other code encodes (types with their own marshalers,
// interfaces, type parameters) are counted as sizeGuess bytes: for them
// the result is an estimate, and AppendCBOR grows the buffer if needed.
func (e *emitter) sizeMethod(s *model.Struct) jen.Code {
	if s.CatchAll {
		return jen.Commentf("%s returns the length of v's encoding.", methodName(s, model.MethodSize)).Line().
			Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodName(s, model.MethodSize)).Params().Int().
			Block(
				jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Lit(1))),
				jen.Return(jen.Max(jen.Len(deref(jen.Id("v"))), jen.Lit(1))),
			)
	}
	fixed, body := e.sizeParts(s)
	n := jen.Id("n")
	stmts := []jen.Code{jen.If(jen.Id("v").Op("==").Nil()).Block(jen.Return(jen.Lit(1)))}
	if len(body) == 0 {
		stmts = append(stmts, jen.Return(jen.Lit(fixed)))
	} else {
		stmts = append(stmts, n.Clone().Op(":=").Lit(fixed))
		stmts = append(stmts, body...)
		stmts = append(stmts, jen.Return(n))
	}
	return jen.Commentf("%s returns an upper bound of the length of v's encoding, for sizing a", methodName(s, model.MethodSize)).Line().
		Comment("buffer for " + methodName(s, "AppendCBOR") + ". It counts floats and times at their widest and is").Line().
		Comment("exact for everything else that the generated code writes itself.").Line().
		Func().Params(jen.Id("v").Op("*").Add(e.typeRef(s))).Id(methodName(s, model.MethodSize)).Params().Int().
		Block(stmts...)
}

// sizeParts returns SizeCBOR's count for s (not a catch-all) in two
// parts: fixed, what is known at generation time, and body, the
// statements that add to n what depends on the value, reading its fields
// through v.
func (e *emitter) sizeParts(s *model.Struct) (fixed int, body []jen.Code) {
	fixed = genrt.SizeHead(uint64(len(s.Fields))) + tagSize(s)
	if s.MapFormat {
		fixed += mapKeysSize(s)
	}
	if s.Value != nil {
		e.hoist = nil
		c, code := e.sizeValue(s.Value, deref(jen.Id("v")), 0)
		fixed = tagSize(s) + c
		body = append(append(body, e.hoist...), code...)
		e.hoist = nil
	}
	if s.HasOptionalFrom {
		// The array's elements are counted first (optional.go); a head
		// of 24 or more fields may be shorter than the fixed one.
		body = append(body, optionalElems(s)...)
		if len(s.Fields) >= 24 {
			fixed -= genrt.SizeHead(uint64(len(s.Fields)))
			body = append(body, jen.Id("n").Op("+=").Add(rt("SizeHead")).Call(jen.Uint64().Call(jen.Id("elems"))))
		}
	}
	for i, f := range s.Fields {
		if isCaseField(s, i) { // content.go: a constant
			c := len(caseEncoding(s.Case.Constant))
			if s.HasOptionalFrom && i >= s.OptionalFrom {
				body = append(body, ifElement(s, i, []jen.Code{jen.Id("n").Op("+=").Lit(c)})...)
			} else {
				fixed += c
			}
			continue
		}
		e.hoist = nil
		c, code := e.sizeValue(f.Type, fieldExpr(f), 0)
		if ptrs, _ := embeddedPtrs(f); len(ptrs) > 0 && len(code) > 0 {
			// A field promoted through a nil embedded pointer is null.
			cond := jen.Add(ptrs[0]).Op("!=").Nil()
			for _, p := range ptrs[1:] {
				cond = cond.Op("&&").Add(p).Op("!=").Nil()
			}
			code = []jen.Code{jen.If(cond).Block(code...)}
			c = max(c, 1)
		}
		if len(e.hoist) > 0 {
			code = []jen.Code{jen.Block(append(e.hoist, code...)...)}
		}
		e.hoist = nil
		if s.HasOptionalFrom && i >= s.OptionalFrom {
			// Counted when written: exact.
			if c > 0 {
				code = append([]jen.Code{jen.Id("n").Op("+=").Lit(c)}, code...)
			}
			code, c = ifElement(s, i, code), 0
		}
		fixed += c
		body = append(body, code...)
	}
	if s.Unknown != "" {
		// The kept items, and what they add to the head (unknown.go).
		body = append(body, jen.Id("n").Op("+=").Add(unknownField(s)).Dot("Size").Call(jen.Lit(len(s.Fields))))
	}
	return fixed, body
}

// sizeInLine reports whether MarshalCBOR of s counts the size itself,
// in the statements SizeCBOR runs, instead of calling SizeCBOR: when
// they are a few lines without a loop or a call but SizeHead, each
// reading one field (an integer's head, a string's or a byte string's
// head and length). The count then comes from the fields in the
// receiver's registers rather than through a pointer to its copy, so the
// allocation, which waits for it, starts sooner (2-3% of the person
// record's MarshalCBOR and UnmarshalCBOR, docs/performance.md).
func (e *emitter) sizeInLine(s *model.Struct) bool {
	if s.CatchAll || s.Value != nil || s.HasOptionalFrom || s.Unknown != "" || s.HoldsLock {
		return false
	}
	dynamic := 0
	for i, f := range s.Fields {
		if isCaseField(s, i) {
			continue
		}
		if len(f.Via) > 0 {
			return false
		}
		if _, ok := e.fixedSize(f.Type, nil); ok {
			continue
		}
		switch f.Type.(type) {
		case model.Int, model.String, model.Bytes:
			dynamic++
		default:
			return false
		}
	}
	return dynamic <= maxSizeInLine
}

// maxSizeInLine is the most fields whose size sizeInLine repeats in
// MarshalCBOR.
const maxSizeInLine = 8

// sizeGuess is what SizeCBOR counts for a value whose size only its own
// marshaler or fxamacker/cbor knows.
const sizeGuess = 32

// Upper bounds of the encodings of time.Time: an integer or float of at
// most 9 bytes, or RFC 3339 text of at most 35 bytes with its head (a zero
// time is null), plus one byte for tag 0 or 1.
const (
	timeNumberSize = 9
	timeTextSize   = 37
)

// sizeValue returns the size of a value of type t at val in two parts:
// fixed, its maximum when that is known at generation time, and code,
// statements that add what depends on the value to n.
func (e *emitter) sizeValue(t model.Type, val jen.Code, depth int) (fixed int, code []jen.Code) {
	n := jen.Id("n")
	add := func(x jen.Code) jen.Code { return n.Clone().Op("+=").Add(x) }
	lenSize := func(x jen.Code) jen.Code {
		return rt("SizeHead").Call(jen.Uint64().Call(jen.Len(x)))
	}
	if c, ok := e.fixedSize(t, nil); ok {
		return c, nil
	}
	switch t := t.(type) {
	case model.Int:
		// Exact: the head that holds the value (for a negative one,
		// -1-x, which x ^ x>>63 is).
		if !t.Signed {
			return 0, []jen.Code{add(rt("SizeHead").Call(jen.Uint64().Call(val)))}
		}
		x := jen.Int64().Call(val)
		return 0, []jen.Code{add(rt("SizeHead").Call(jen.Uint64().Call(jen.Add(x).Op("^").Add(jen.Int64().Call(val)).Op(">>").Lit(63))))}

	case model.String, model.Bytes:
		// A nil byte slice is null: one byte, as SizeHead(0) + 0.
		if e.small {
			return 0, []jen.Code{add(rt("SizeStringCall").Call(jen.Len(val)))}
		}
		return 0, []jen.Code{add(jen.Add(lenSize(val)).Op("+").Len(val))}

	case model.Array:
		i := local("i", depth)
		c, inner := e.sizeValue(t.Elem, jen.Add(val).Index(jen.Id(i)), depth+1)
		if len(inner) > 0 {
			code = []jen.Code{jen.For(jen.Id(i).Op(":=").Range().Add(val)).Block(inner...)}
		}
		return genrt.SizeHead(uint64(t.N)) + int(t.N)*c, code

	case model.Slice:
		if _, ok := t.Elem.(model.TypeParam); ok {
			return 0, []jen.Code{add(jen.Add(lenSize(val)).Op("+").Len(val).Op("*").Lit(sizeGuess))}
		}
		i := local("i", depth)
		c, inner := e.sizeValue(t.Elem, jen.Add(val).Index(jen.Id(i)), depth+1)
		head := jen.Add(lenSize(val))
		if c > 0 {
			head = head.Op("+").Len(val).Op("*").Lit(c)
		}
		code = []jen.Code{add(head)}
		if len(inner) > 0 {
			code = append(code, jen.For(jen.Id(i).Op(":=").Range().Add(val)).Block(inner...))
		}
		return 0, code

	case model.Map:
		k, x := jen.Id(local("k", depth)), jen.Id(local("x", depth))
		kc, kcode := e.sizeValue(t.Key, k, depth+1)
		var assign []jen.Code
		hoisted := len(e.hoist)
		ec, ecode := e.sizeValue(t.Elem, x, depth+1)
		if len(ecode) > 0 && addressed(t.Elem) {
			// A local outside every loop, as in appendMap.
			v := jen.Id(local("e", depth))
			e.hoist = append(e.hoist[:hoisted], jen.Var().Add(v).Add(typeCode(t.Elem.GoType())))
			assign = []jen.Code{jen.Add(v).Op("=").Add(x)}
			ec, ecode = e.sizeValue(t.Elem, v, depth+1)
		}
		head := jen.Add(lenSize(val))
		if kc+ec > 0 {
			head = head.Op("+").Len(val).Op("*").Lit(kc + ec)
		}
		code = []jen.Code{add(head)}
		switch {
		case len(ecode) > 0:
			loop := append(append(kcode, assign...), ecode...)
			ks := k
			if len(kcode) == 0 {
				ks = jen.Id("_")
			}
			code = append(code, jen.For(jen.List(ks, x).Op(":=").Range().Add(val)).Block(loop...))
		case len(kcode) > 0:
			code = append(code, jen.For(k.Clone().Op(":=").Range().Add(val)).Block(kcode...))
		}
		return 0, code

	case model.Pointer:
		c, inner := e.sizeValue(t.Elem, deref(val), depth+1)
		if r, ok := t.Elem.(model.StructRef); ok && len(inner) > 0 {
			inner = []jen.Code{add(jen.Add(e.refOf(r, val, true)).Dot(model.MethodSize).Call())} // v.P.SizeCBOR(), not (*v.P)
		}
		if c > 0 {
			inner = append([]jen.Code{add(jen.Lit(c))}, inner...)
		}
		return 0, []jen.Code{jen.If(jen.Add(val).Op("==").Nil()).Block(
			n.Clone().Op("++"),
		).Else().Block(inner...)}

	case model.StructRef:
		if !t.HasSize {
			return sizeGuess, nil
		}
		return 0, []jen.Code{add(jen.Add(e.refOf(t, val, false)).Dot(model.MethodSize).Call())}

	case model.BigInt:
		return 0, []jen.Code{add(rt("SizeBigInt").Call(jen.Op("&").Add(val)))}

	case model.Union:
		return 0, []jen.Code{add(jen.Id(model.UnionFunc(t.Model, "Size")).Call(val))}

	case model.Marshaler:
		if t.Raw {
			// A cbor.RawMessage is written as it is, or as null.
			return 0, []jen.Code{add(jen.Max(jen.Len(val), jen.Lit(1)))}
		}

	case model.Split:
		return e.sizeValue(t.Enc, val, depth)
	}
	// Marshaler, BinaryMarshaler, Dynamic, TypeParam.
	return sizeGuess, nil
}

// fixedSize reports the largest encoding of a value of type t when it
// does not depend on the value: bools, floats, [N]byte, time.Time,
// arrays and pointers of such, and generated structs made only of them.
// visiting guards against a struct that refers to itself.
func (e *emitter) fixedSize(t model.Type, visiting map[*model.Struct]bool) (int, bool) {
	switch t := t.(type) {
	case model.Bool, model.Reserved:
		return 1, true
	case model.Float:
		return 1 + t.Bits/8, true
	case model.ByteArray:
		return genrt.SizeHead(uint64(t.N)) + int(t.N), true
	case model.Time:
		size := timeNumberSize
		if e.time.Mode >= genrt.TimeRFC3339 {
			size = timeTextSize
		}
		if e.time.Tag {
			size++
		}
		return size, true
	case model.Array:
		if c, ok := e.fixedSize(t.Elem, visiting); ok {
			return genrt.SizeHead(uint64(t.N)) + int(t.N)*c, true
		}
	case model.Pointer:
		return e.fixedSize(t.Elem, visiting) // null is 1 byte, no more than any value
	case model.StructRef:
		s := e.structs[t.Local]
		if s == nil || visiting[s] {
			return 0, false
		}
		if visiting == nil {
			visiting = map[*model.Struct]bool{}
		}
		visiting[s] = true
		defer delete(visiting, s)
		if s.Value != nil {
			c, ok := e.fixedSize(s.Value, visiting)
			return c + tagSize(s), ok
		}
		if s.HasOptionalFrom {
			return 0, false // its length depends on which fields are zero
		}
		size := genrt.SizeHead(uint64(len(s.Fields))) + tagSize(s)
		if s.MapFormat {
			size += mapKeysSize(s)
		}
		for _, f := range s.Fields {
			c, ok := e.fixedSize(f.Type, visiting)
			if !ok {
				return 0, false
			}
			size += c
		}
		return size, true
	}
	return 0, false
}

// tagSize is the length of the head of the tag that s is written under
// (//cborgen:tag), or 0.
func tagSize(s *model.Struct) int {
	if !s.HasTag {
		return 0
	}
	return genrt.SizeHead(s.Tag)
}
