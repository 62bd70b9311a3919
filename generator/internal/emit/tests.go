package emit

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// Tests is the source of the tests that -tests writes beside the output:
// for every generated type that random values can fill (not generic, not
// a //cborgen:body type, whose hooks decide what it holds, not a
// catch-all, whose bytes must be one item, not a hidden copy of an
// anonymous struct), a round trip on random values, a fuzz target seeded
// with such values, encoding and decoding benchmarks, and with fx (the
// module requires fxamacker/cbor) the bytes fxamacker/cbor writes for the
// type's mirror. The values come from fixed seeds: every run tries the
// same ones.
func Tests(f *model.File, fx bool) ([]byte, error) {
	var types, zero, maps, refuse []string
	for _, s := range f.Structs {
		switch {
		case s.CatchAll:
			zero = append(zero, s.Name)
		case s.Anon != nil || len(s.TypeParams) > 0:
			continue
		case s.Body:
			refuse = append(refuse, s.Name)
			continue
		}
		if s.HasTag || s.CatchAll || s.HasOptionalFrom {
			refuse = append(refuse, s.Name)
		}
		if s.MapFormat {
			maps = append(maps, s.Name)
		}
		if !s.CatchAll {
			types = append(types, s.Name)
		}
	}
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("// %s\n\n", model.GeneratedHeader)
	if f.Build != "" {
		p("%s\n\n", f.Build)
	}
	p("package %s\n\n", f.Package)
	p("import (\n")
	if f.Order != model.OrderNone {
		p("\t\"bytes\"\n")
	}
	p("\t\"math/rand/v2\"\n")
	if len(types) > 0 || len(zero) > 0 {
		p("\t\"reflect\"\n")
	}
	p("\t\"testing\"\n\n\t%q\n\t%q\n", model.RuntimePath, model.RuntimePath+"/cbortest")
	// fxamacker's options name genrt's sort orders and time modes.
	var fxOptions string
	if fx && len(types) > 0 {
		e := &emitter{order: f.Order, time: f.Time, nilEmpty: f.NilEmpty, floatNone: f.FloatNone}
		fxOptions = fmt.Sprintf("%#v", e.dynamicOptions())
		p("\t%q\n", model.DynamicPath)
		if strings.Contains(fxOptions, "genrt.") {
			p("\t%q\n", model.GenrtPath)
		}
	}
	p(")\n\n")
	p("// cborgenTestValues is how many random values each test of a type tries.\nconst cborgenTestValues = 300\n\n")
	p("// cborgenFiller returns a filler of random values from a fixed seed:\n// every run tries the same values.\n")
	p("func cborgenFiller(seed uint64) *cbortest.Filler {\n\treturn &cbortest.Filler{Rand: rand.New(rand.NewPCG(seed, 0x63626f72)), Zero: %s}\n}\n\n", typeList(zero))
	p(`// cborgenCodec is what the generated methods of every type offer.
type cborgenCodec interface {
	AppendCBOR(dst []byte) ([]byte, error)
	DecodeCBOR(d *runtime.Decoder) error
}

// cborgenRoundTrip encodes v, decodes the bytes into a new value and
// checks that it encodes to the same bytes (the same length where maps
// are written in no order). Where decoding normalizes the value as
// fxamacker/cbor does (the nulls of a nil embedded pointer's fields
// decode into a new zero struct), the bytes of the decoded value must
// then round-trip unchanged.
func cborgenRoundTrip(tb testing.TB, v cborgenCodec, fresh func() cborgenCodec) {
	tb.Helper()
	b, err := v.AppendCBOR(nil)
	if err != nil {
		tb.Fatalf("AppendCBOR of %%#v: %%v", v, err)
	}
	for range 2 {
		w := fresh()
		if err := runtime.Unmarshal(b, w, runtime.Options{}); err != nil {
			tb.Fatalf("decoding %%x, which AppendCBOR wrote for %%#v: %%v", b, v, err)
		}
		again, err := w.AppendCBOR(nil)
		if err != nil {
			tb.Fatalf("AppendCBOR of %%#v, decoded from %%x: %%v", w, b, err)
		}
		if !(%s) {
			return
		}
		b, v = again, w
	}
	tb.Fatalf("%%#v: its encoding changes with every round trip", v)
}

`, differ(f, "b", "again"))
	if fx && len(types) > 0 {
		p("// cborgenMirrors says which types fxamacker/cbor's mirrors write as maps,\n// and which have none.\nvar cborgenMirrors = cbortest.MirrorOptions{Map: %s, Refuse: %s}\n\n", typeList(maps), typeList(refuse))
		p("// cborgenFxOptions makes fxamacker/cbor write what the generated code writes.\nvar cborgenFxOptions = %s\n\n", fxOptions)
	}
	for i, name := range types {
		seed := uint64(i+1) * 4
		p(`func TestCBORGenRoundTrip%[1]s(t *testing.T) {
	if cbortest.HasHooks(reflect.TypeFor[%[1]s]()) {
		t.Skip("%[1]s holds a //cborgen:body type, whose hooks decide what values it may hold")
	}
	f := cborgenFiller(%[2]d)
	for range cborgenTestValues {
		v := new(%[1]s)
		f.Fill(v)
		cborgenRoundTrip(t, v, func() cborgenCodec { return new(%[1]s) })
	}
}

`, name, seed)
		if fx {
			p(`func TestCBORGenFxamacker%[1]s(t *testing.T) {
	mirror, ok := cbortest.Mirror(reflect.TypeFor[%[1]s](), cborgenMirrors)
	if !ok {
		t.Skip("%[1]s has no mirror type for fxamacker/cbor to write: it holds a tagged, optional, hook or embedded type, or itself")
	}
	f := cborgenFiller(%[2]d)
	for range cborgenTestValues {
		v := new(%[1]s)
		f.Fill(v)
		got, err := v.AppendCBOR(nil)
		if err != nil {
			t.Fatalf("AppendCBOR of %%#v: %%v", v, err)
		}
		want, err := dynamic.Append(nil, cbortest.ToMirror(v, mirror), cborgenFxOptions)
		if err != nil {
			t.Fatalf("fxamacker/cbor on %%#v: %%v", v, err)
		}
		if %[3]s {
			t.Fatalf("%%#v:\n generated     %%x\n fxamacker/cbor %%x", v, got, want)
		}
	}
}

`, name, seed+1, differ(f, "got", "want"))
		}
		p(`func FuzzCBORGen%[1]s(f *testing.F) {
	fill := cborgenFiller(%[2]d)
	for range 16 {
		v := new(%[1]s)
		fill.Fill(v)
		if b, err := v.AppendCBOR(nil); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v := new(%[1]s)
		if runtime.Unmarshal(data, v, runtime.Options{}) != nil {
			return
		}
		cborgenRoundTrip(t, v, func() cborgenCodec { return new(%[1]s) })
	})
}

func BenchmarkCBORGenEncode%[1]s(b *testing.B) {
	if cbortest.HasHooks(reflect.TypeFor[%[1]s]()) {
		b.Skip("%[1]s holds a //cborgen:body type, whose hooks decide what values it may hold")
	}
	v := new(%[1]s)
	cborgenFiller(%[3]d).Fill(v)
	buf, err := v.AppendCBOR(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = v.AppendCBOR(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCBORGenDecode%[1]s(b *testing.B) {
	if cbortest.HasHooks(reflect.TypeFor[%[1]s]()) {
		b.Skip("%[1]s holds a //cborgen:body type, whose hooks decide what values it may hold")
	}
	v := new(%[1]s)
	cborgenFiller(%[3]d).Fill(v)
	data, err := v.AppendCBOR(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := runtime.Unmarshal(data, new(%[1]s), runtime.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

`, name, seed+2, seed+3)
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("cbor-gen: the generated tests do not parse: %v", err)
	}
	return out, nil
}

// differ is the test that the encodings x and y differ: by length alone
// when maps are written in no order.
func differ(f *model.File, x, y string) string {
	if f.Order == model.OrderNone {
		return "len(" + x + ") != len(" + y + ")"
	}
	return "!bytes.Equal(" + x + ", " + y + ")"
}

// typeList is a []reflect.Type literal of the named types, nil for none.
func typeList(names []string) string {
	if len(names) == 0 {
		return "nil"
	}
	var parts []string
	for _, n := range names {
		parts = append(parts, "reflect.TypeFor["+n+"]()")
	}
	return "[]reflect.Type{" + strings.Join(parts, ", ") + "}"
}
