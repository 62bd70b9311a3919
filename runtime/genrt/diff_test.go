package genrt_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// The differential tests check, value by value, that the runtime writes the
// bytes fxamacker's CoreDet mode writes, that fxamacker reads the runtime's
// bytes back to the same value, and that both runtime decoders read
// fxamacker's bytes back to the same value.

const diffRounds = 3000

// diffCase ties a Go type to its runtime encoder and decoder.
type diffCase[T any] struct {
	name   string
	gen    func(r *rand.Rand) T
	edges  []T
	append func([]byte, T) []byte
	read   func(*genrt.Decoder) (T, error)
	equal  func(a, b T) bool
}

func runDiff[T any](t *testing.T, c diffCase[T]) {
	t.Helper()
	r := rand.New(rand.NewPCG(0xcb0, 0x8949))
	if c.equal == nil {
		c.equal = func(a, b T) bool { return reflect.DeepEqual(a, b) }
	}
	values := append([]T(nil), c.edges...)
	for i := 0; i < diffRounds; i++ {
		values = append(values, c.gen(r))
	}
	failures := 0
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(c.name+": "+format, args...)
		failures++
		if failures > 10 {
			t.FailNow()
		}
	}
	for _, v := range values {
		got := c.append(nil, v)
		want, err := fxEnc.Marshal(v)
		if err != nil {
			t.Fatalf("%s: fxamacker Marshal(%v): %v", c.name, v, err)
		}
		if !bytes.Equal(got, want) {
			fail("value %v: runtime %x, fxamacker %x", v, got, want)
			continue
		}
		// fxamacker reads the runtime's bytes back.
		back := new(T)
		if err := fxDecStrict.Unmarshal(got, back); err != nil || !c.equal(*back, v) {
			fail("fxamacker reads %x as %v, %v; want %v", got, *back, err, v)
		}
		// Both runtime decoders read fxamacker's bytes back.
		for _, k := range decoderKinds {
			d := k.new(want)
			rv, err := c.read(d)
			if err != nil || !c.equal(rv, v) {
				fail("%s decoder reads %x as %v, %v; want %v", k.name, want, rv, err, v)
			}
			if d.Offset() != int64(len(want)) {
				fail("%s decoder consumed %d of %d bytes of %x", k.name, d.Offset(), len(want), want)
			}
		}
		if err := genrt.Valid(got); err != nil {
			fail("Valid(%x) = %v", got, err)
		}
	}
}

// randBits returns integers spread over all magnitudes, not just large ones.
func randBits(r *rand.Rand) uint64 { return r.Uint64() >> r.IntN(65) }

func floatEqual(a, b float64) bool { return sameFloat(a, b) }

func TestDiffIntegers(t *testing.T) {
	runDiff(t, diffCase[bool]{name: "bool", gen: func(r *rand.Rand) bool { return r.IntN(2) == 0 },
		append: genrt.AppendBool, read: (*genrt.Decoder).ReadBool})
	runDiff(t, diffCase[int8]{name: "int8", gen: func(r *rand.Rand) int8 { return int8(r.Uint64()) },
		edges:  []int8{math.MinInt8, -25, -24, -1, 0, 23, 24, math.MaxInt8},
		append: func(b []byte, v int8) []byte { return genrt.AppendInt(b, int64(v)) },
		read:   (*genrt.Decoder).ReadInt8})
	runDiff(t, diffCase[int16]{name: "int16", gen: func(r *rand.Rand) int16 { return int16(randBits(r)) },
		edges:  []int16{math.MinInt16, -257, -256, 255, 256, math.MaxInt16},
		append: func(b []byte, v int16) []byte { return genrt.AppendInt(b, int64(v)) },
		read:   (*genrt.Decoder).ReadInt16})
	runDiff(t, diffCase[int32]{name: "int32", gen: func(r *rand.Rand) int32 { return int32(randBits(r)) },
		edges:  []int32{math.MinInt32, -65537, -65536, 65535, 65536, math.MaxInt32},
		append: func(b []byte, v int32) []byte { return genrt.AppendInt(b, int64(v)) },
		read:   (*genrt.Decoder).ReadInt32})
	runDiff(t, diffCase[int64]{name: "int64", gen: func(r *rand.Rand) int64 { return int64(randBits(r)) },
		edges:  []int64{math.MinInt64, -1 << 32, -1<<32 - 1, 1<<32 - 1, 1 << 32, math.MaxInt64},
		append: genrt.AppendInt, read: (*genrt.Decoder).ReadInt64})
	runDiff(t, diffCase[int]{name: "int", gen: func(r *rand.Rand) int { return int(randBits(r)) },
		edges:  []int{math.MinInt, math.MaxInt},
		append: func(b []byte, v int) []byte { return genrt.AppendInt(b, int64(v)) },
		read:   (*genrt.Decoder).ReadInt})
	runDiff(t, diffCase[uint8]{name: "uint8", gen: func(r *rand.Rand) uint8 { return uint8(r.Uint64()) },
		edges:  []uint8{0, 23, 24, 255},
		append: func(b []byte, v uint8) []byte { return genrt.AppendUint(b, uint64(v)) },
		read:   (*genrt.Decoder).ReadUint8})
	runDiff(t, diffCase[uint16]{name: "uint16", gen: func(r *rand.Rand) uint16 { return uint16(randBits(r)) },
		edges:  []uint16{255, 256, math.MaxUint16},
		append: func(b []byte, v uint16) []byte { return genrt.AppendUint(b, uint64(v)) },
		read:   (*genrt.Decoder).ReadUint16})
	runDiff(t, diffCase[uint32]{name: "uint32", gen: func(r *rand.Rand) uint32 { return uint32(randBits(r)) },
		edges:  []uint32{65535, 65536, math.MaxUint32},
		append: func(b []byte, v uint32) []byte { return genrt.AppendUint(b, uint64(v)) },
		read:   (*genrt.Decoder).ReadUint32})
	runDiff(t, diffCase[uint64]{name: "uint64", gen: randBits,
		edges:  []uint64{0, 23, 24, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32 + 1, math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64},
		append: genrt.AppendUint, read: (*genrt.Decoder).ReadUint64})
	runDiff(t, diffCase[uint]{name: "uint", gen: func(r *rand.Rand) uint { return uint(randBits(r)) },
		edges:  []uint{0, math.MaxUint},
		append: func(b []byte, v uint) []byte { return genrt.AppendUint(b, uint64(v)) },
		read:   (*genrt.Decoder).ReadUint})
}

// randFloat64 draws from every class: random bit patterns (NaNs with
// payloads, subnormals, infinities), values exact in float16 and float32,
// halves of integers, and the edges around each format's range.
func randFloat64(r *rand.Rand) float64 {
	switch r.IntN(6) {
	case 0:
		return math.Float64frombits(r.Uint64())
	case 1:
		return float64(math.Float32frombits(r.Uint32()))
	case 2:
		return halfToFloat(uint16(r.Uint32()))
	case 3:
		return float64(r.Int64N(1<<20)-1<<19) / 16
	case 4: // a float16-exact value nudged by one float64 ulp
		f := halfToFloat(uint16(r.Uint32()))
		if r.IntN(2) == 0 {
			return math.Nextafter(f, math.Inf(1))
		}
		return math.Nextafter(f, math.Inf(-1))
	default: // subnormal float32 and float16 ranges, exact and inexact
		return math.Ldexp(float64(r.Int64N(1<<24)), -(r.IntN(40) + 130))
	}
}

var floatEdges = []float64{
	0, math.Copysign(0, -1), 1, -1, 1.5, 65504, 65505, 65520, -65504, 100000,
	math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000000),
	math.SmallestNonzeroFloat64, math.MaxFloat64, math.SmallestNonzeroFloat32, math.MaxFloat32,
	float64(math.Float32frombits(0x00800000)),                    // smallest normal float32
	5.960464477539063e-8, 6.103515625e-05, 6.097555160522461e-05, // float16 subnormal min, normal min, max subnormal
	2.9802322387695312e-8, // half of the smallest float16 subnormal: not exact in float16
	1.1, -4.1, 1e300, 3.4028234663852886e+38, 3.4028235677973366e+38,
}

func TestDiffFloats(t *testing.T) {
	runDiff(t, diffCase[float64]{name: "float64", gen: randFloat64, edges: floatEdges,
		append: genrt.AppendFloat64, read: (*genrt.Decoder).ReadFloat64, equal: floatEqual})
	var edges32 []float32
	for _, f := range floatEdges {
		edges32 = append(edges32, float32(f))
	}
	runDiff(t, diffCase[float32]{name: "float32", gen: func(r *rand.Rand) float32 { return float32(randFloat64(r)) },
		edges: edges32, append: genrt.AppendFloat32, read: (*genrt.Decoder).ReadFloat32,
		equal: func(a, b float32) bool { return sameFloat(float64(a), float64(b)) }})
}

func TestDiffStrings(t *testing.T) {
	long := func(n int) string { return string(bytes.Repeat([]byte("ab"), n/2)) }
	runDiff(t, diffCase[string]{name: "string",
		gen: func(r *rand.Rand) string {
			if r.IntN(10) == 0 {
				return long(r.IntN(70000))
			}
			return randString(r, 40)
		},
		edges:  []string{"", "a", long(22) + "a", long(24), long(254) + "a", long(256), long(65534) + "a", long(65536)},
		append: genrt.AppendString, read: (*genrt.Decoder).ReadString})
	runDiff(t, diffCase[[]byte]{name: "[]byte",
		gen: func(r *rand.Rand) []byte {
			b := make([]byte, r.IntN(300))
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		},
		edges:  [][]byte{{}, {0}, bytes.Repeat([]byte{1}, 23), bytes.Repeat([]byte{2}, 24), bytes.Repeat([]byte{3}, 256)},
		append: genrt.AppendBytes,
		read:   func(d *genrt.Decoder) ([]byte, error) { return d.ReadBytes(nil) }})
}

// Arrays: slices of each kind and nested slices, written with heads.
func appendSlice[T any](dst []byte, s []T, elem func([]byte, T) []byte) []byte {
	if s == nil {
		return genrt.AppendNull(dst)
	}
	dst = genrt.AppendArrayHead(dst, len(s))
	for _, v := range s {
		dst = elem(dst, v)
	}
	return dst
}

func readSlice[T any](d *genrt.Decoder, elem func(*genrt.Decoder) (T, error)) ([]T, error) {
	if null, err := d.ReadNull(); err != nil || null {
		return nil, err
	}
	n, err := d.ReadArrayHead()
	if err != nil {
		return nil, err
	}
	s := make([]T, 0, d.Hint(n))
	for i := 0; ; i++ {
		more, err := d.NextElem(n, i)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		v, err := elem(d)
		if err != nil {
			return nil, genrt.AtIndex(err, i)
		}
		s = append(s, v)
	}
	d.Leave()
	return s, nil
}

func genSlice[T any](r *rand.Rand, max int, elem func(*rand.Rand) T) []T {
	if r.IntN(20) == 0 {
		return nil
	}
	s := make([]T, r.IntN(max))
	for i := range s {
		s[i] = elem(r)
	}
	return s
}

func TestDiffArrays(t *testing.T) {
	runDiff(t, diffCase[[]int64]{name: "[]int64",
		gen: func(r *rand.Rand) []int64 {
			return genSlice(r, 30, func(r *rand.Rand) int64 { return int64(randBits(r)) })
		},
		edges:  [][]int64{nil, {}, make([]int64, 23), make([]int64, 24), make([]int64, 300)},
		append: func(b []byte, s []int64) []byte { return appendSlice(b, s, genrt.AppendInt) },
		read:   func(d *genrt.Decoder) ([]int64, error) { return readSlice(d, (*genrt.Decoder).ReadInt64) }})
	runDiff(t, diffCase[[]float64]{name: "[]float64",
		gen:    func(r *rand.Rand) []float64 { return genSlice(r, 10, randFloat64) },
		append: func(b []byte, s []float64) []byte { return appendSlice(b, s, genrt.AppendFloat64) },
		read:   func(d *genrt.Decoder) ([]float64, error) { return readSlice(d, (*genrt.Decoder).ReadFloat64) },
		equal: func(a, b []float64) bool {
			if len(a) != len(b) || (a == nil) != (b == nil) {
				return false
			}
			for i := range a {
				if !sameFloat(a[i], b[i]) {
					return false
				}
			}
			return true
		}})
	runDiff(t, diffCase[[]string]{name: "[]string",
		gen: func(r *rand.Rand) []string {
			return genSlice(r, 10, func(r *rand.Rand) string { return randString(r, 10) })
		},
		append: func(b []byte, s []string) []byte { return appendSlice(b, s, genrt.AppendString) },
		read:   func(d *genrt.Decoder) ([]string, error) { return readSlice(d, (*genrt.Decoder).ReadString) }})
	runDiff(t, diffCase[[]bool]{name: "[]bool",
		gen:    func(r *rand.Rand) []bool { return genSlice(r, 10, func(r *rand.Rand) bool { return r.IntN(2) == 1 }) },
		append: func(b []byte, s []bool) []byte { return appendSlice(b, s, genrt.AppendBool) },
		read:   func(d *genrt.Decoder) ([]bool, error) { return readSlice(d, (*genrt.Decoder).ReadBool) }})
	appendBytes := func(b []byte, v []byte) []byte {
		if v == nil {
			return genrt.AppendNull(b)
		}
		return genrt.AppendBytes(b, v)
	}
	readBytes := func(d *genrt.Decoder) ([]byte, error) {
		if null, err := d.ReadNull(); err != nil || null {
			return nil, err
		}
		return d.ReadBytes(nil)
	}
	runDiff(t, diffCase[[][]byte]{name: "[][]byte",
		gen: func(r *rand.Rand) [][]byte {
			return genSlice(r, 5, func(r *rand.Rand) []byte { return genSlice(r, 5, func(r *rand.Rand) byte { return byte(r.Uint32()) }) })
		},
		append: func(b []byte, s [][]byte) []byte { return appendSlice(b, s, appendBytes) },
		read:   func(d *genrt.Decoder) ([][]byte, error) { return readSlice(d, readBytes) }})
	runDiff(t, diffCase[[][]uint16]{name: "[][]uint16",
		gen: func(r *rand.Rand) [][]uint16 {
			return genSlice(r, 6, func(r *rand.Rand) []uint16 {
				return genSlice(r, 6, func(r *rand.Rand) uint16 { return uint16(randBits(r)) })
			})
		},
		append: func(b []byte, s [][]uint16) []byte {
			return appendSlice(b, s, func(b []byte, e []uint16) []byte {
				return appendSlice(b, e, func(b []byte, v uint16) []byte { return genrt.AppendUint(b, uint64(v)) })
			})
		},
		read: func(d *genrt.Decoder) ([][]uint16, error) {
			return readSlice(d, func(d *genrt.Decoder) ([]uint16, error) { return readSlice(d, (*genrt.Decoder).ReadUint16) })
		}})
	runDiff(t, diffCase[[][][]string]{name: "[][][]string",
		gen: func(r *rand.Rand) [][][]string {
			return genSlice(r, 4, func(r *rand.Rand) [][]string {
				return genSlice(r, 4, func(r *rand.Rand) []string {
					return genSlice(r, 4, func(r *rand.Rand) string { return randString(r, 4) })
				})
			})
		},
		append: func(b []byte, s [][][]string) []byte {
			return appendSlice(b, s, func(b []byte, e [][]string) []byte {
				return appendSlice(b, e, func(b []byte, e []string) []byte { return appendSlice(b, e, genrt.AppendString) })
			})
		},
		read: func(d *genrt.Decoder) ([][][]string, error) {
			return readSlice(d, func(d *genrt.Decoder) ([][]string, error) {
				return readSlice(d, func(d *genrt.Decoder) ([]string, error) { return readSlice(d, (*genrt.Decoder).ReadString) })
			})
		}})
}

// TestSizeHead: SizeHead agrees with what AppendHead writes, for every
// boundary of every head size.
func TestSizeHead(t *testing.T) {
	for _, n := range []uint64{0, 23, 24, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32 + 1, math.MaxUint64} {
		for m := byte(0); m < 7; m++ {
			if got, want := genrt.SizeHead(n), len(genrt.AppendHead(nil, m, n)); got != want {
				t.Errorf("SizeHead(%d) = %d, AppendHead writes %d", n, got, want)
			}
		}
	}
	if h := genrt.AppendHead(nil, genrt.MajorMap, 24); !bytes.Equal(h, []byte{0xb8, 24}) {
		t.Errorf("AppendHead(map, 24) = %x", h)
	}
	// A nil byte slice is the empty byte string; callers write null.
	if b := genrt.AppendBytes(nil, nil); !bytes.Equal(b, []byte{0x40}) {
		t.Errorf("AppendBytes(nil) = %x, want 40", b)
	}
}
