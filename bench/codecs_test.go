package bench

import (
	"bytes"
	"io"
	"sync"

	"github.com/fxamacker/cbor/v2"
	"github.com/tinylib/msgp/msgp"
	cbg "github.com/whyrusleeping/cbor-gen"

	"github.com/cborgen/cborgen/bench/handwritten"
	"github.com/cborgen/cborgen/bench/internal/convert"
	"github.com/cborgen/cborgen/bench/peers/fxarray"
	"github.com/cborgen/cborgen/bench/peers/fxmap"
	"github.com/cborgen/cborgen/bench/peers/msgpmap"
	"github.com/cborgen/cborgen/bench/peers/msgptuple"
	"github.com/cborgen/cborgen/bench/peers/wrcbg"
	"github.com/cborgen/cborgen/bench/workload"
	"github.com/cborgen/cborgen/bench/workload/unsorted"
	"github.com/cborgen/cborgen/runtime"
)

// The implementations, in the order of the result table.
const (
	implGenerated     = "generated"
	implUnsorted      = "generated-unsorted"
	implHandwritten   = "handwritten"
	implFxamacker     = "fxamacker"
	implFxamackerMap  = "fxamacker-map"
	implWhyrusleeping = "whyrusleeping"
	implMsgp          = "msgp"
	implMsgpTuple     = "msgp-tuple"
	implMus           = "mus"     // the person record only
	implGencode       = "gencode" // the person record only
)

// A codec is one implementation's encoder and decoder for the value of
// one shape. Each function is a closure over typed variables, so that every
// implementation pays the same single indirect call per operation.
type codec struct {
	impl string

	// encode appends the shape's value to dst, or writes it to a buffer of
	// its own and returns that buffer's bytes.
	encode func(dst []byte) ([]byte, error)
	// decode decodes data into a zero value kept by the codec; nil where
	// decoding is the same code as another codec's (generated-unsorted).
	decode func(data []byte) error
	// result returns the value decode produced, converted to the workload
	// type (a pointer).
	result func() any
	// stream returns a function that decodes the next value from r at each
	// call; nil where the DecodeReader operation is not measured.
	stream func(r io.Reader) func() error
	// marshal encodes into a new slice; nil where not measured.
	marshal func() ([]byte, error)
}

// A shape is one workload value and its codecs.
type shape struct {
	name    string
	value   any    // a pointer to the workload value
	legacy  []byte // fxamacker's map encoding of the value: the legacy format
	codecs  []*codec
	skipped map[string]string // implementations left out, and why
}

func (s *shape) codec(impl string) *codec {
	for _, c := range s.codecs {
		if c.impl == impl {
			return c
		}
	}
	return nil
}

// shapeNames are the shapes in the order of the result table.
var shapeNames = []string{"Request", "Profile", "Graph", "Drawing", "Tables", "Counters", "CompositeSmall", "CompositeMedium", "CompositeLarge"}

var (
	shapesMu sync.Mutex
	shapes   = map[string]*shape{}
)

// getShape builds a shape once; the large values take a while to convert.
func getShape(name string) *shape {
	shapesMu.Lock()
	defer shapesMu.Unlock()
	if s, ok := shapes[name]; ok {
		return s
	}
	var s *shape
	switch name {
	case "Request":
		s = requestShape()
	case "Profile":
		s = profileShape()
	case "Graph":
		s = graphShape()
	case "Drawing":
		s = drawingShape()
	case "Tables":
		s = tablesShape()
	case "Counters":
		s = countersShape()
	case "CompositeSmall":
		s = compositeShape(name, workload.CompositeSmall)
	case "CompositeMedium":
		s = compositeShape(name, workload.CompositeMedium)
	case "CompositeLarge":
		s = compositeShape(name, workload.CompositeLarge)
	default:
		panic("no shape " + name)
	}
	var err error
	if s.legacy, err = s.codec(implFxamackerMap).encode(nil); err != nil {
		panic(err)
	}
	s.legacy = bytes.Clone(s.legacy)
	shapes[name] = s
	return s
}

// fxCodec is fxamacker/cbor over a copy of v of type T (reflection; the
// calls go through interfaces in any case).
func fxCodec[T any, W any](impl string, em cbor.UserBufferEncMode, dm cbor.DecMode, v any) *codec {
	in := convert.To[T](v)
	out := new(T)
	var buf bytes.Buffer
	return &codec{
		impl: impl,
		encode: func([]byte) ([]byte, error) {
			buf.Reset()
			err := em.MarshalToBuffer(in, &buf)
			return buf.Bytes(), err
		},
		decode: func(data []byte) error {
			var zero T
			*out = zero
			return dm.Unmarshal(data, out)
		},
		result: func() any { return convert.To[W](out) },
		stream: func(r io.Reader) func() error {
			dec := dm.NewDecoder(r)
			return func() error {
				var zero T
				*out = zero
				return dec.Decode(out)
			}
		},
		marshal: func() ([]byte, error) { return em.Marshal(in) },
	}
}

// addFxamacker adds both fxamacker/cbor codecs, toarray and the map format;
// only the first is measured on streams and for Marshal.
func (s *shape) addFxamacker(array, maps *codec) {
	maps.stream, maps.marshal = nil, nil
	s.codecs = append(s.codecs, array, maps)
}

// wrBuffer is the reused output of whyrusleeping/cbor-gen's encoders,
// which write to an io.Writer.
type wrBuffer struct {
	buf bytes.Buffer
	rd  bytes.Reader
}

func requestShape() *shape {
	v := workload.NewRequest()
	s := &shape{name: "Request", value: v}

	var out workload.Request
	s.codecs = append(s.codecs, &codec{
		impl:   implGenerated,
		encode: v.AppendCBOR,
		decode: func(data []byte) error { out = workload.Request{}; return out.UnmarshalCBOR(data) },
		result: func() any { return &out },
		stream: func(r io.Reader) func() error {
			d := runtime.NewDecoder(r)
			return func() error { out = workload.Request{}; return out.DecodeCBOR(d) }
		},
		marshal: v.MarshalCBOR,
	})

	var hout workload.Request
	s.codecs = append(s.codecs, &codec{
		impl:   implHandwritten,
		encode: func(dst []byte) ([]byte, error) { return handwritten.AppendRequest(dst, v), nil },
		decode: func(data []byte) error { hout = workload.Request{}; return handwritten.DecodeRequest(data, &hout) },
		result: func() any { return &hout },
	})

	s.addFxamacker(
		fxCodec[fxarray.Request, workload.Request](implFxamacker, fxarray.EncMode, fxarray.DecMode, v),
		fxCodec[fxmap.Request, workload.Request](implFxamackerMap, fxmap.EncMode, fxmap.DecMode, v))

	wv, wout, wb := convert.To[wrcbg.Request](v), new(wrcbg.Request), new(wrBuffer)
	s.codecs = append(s.codecs, &codec{
		impl: implWhyrusleeping,
		encode: func([]byte) ([]byte, error) {
			wb.buf.Reset()
			err := wv.MarshalCBOR(&wb.buf)
			return wb.buf.Bytes(), err
		},
		decode: func(data []byte) error { wb.rd.Reset(data); return wout.UnmarshalCBOR(&wb.rd) },
		result: func() any { return convert.To[workload.Request](wout) },
		stream: func(r io.Reader) func() error {
			cr := cbg.NewCborReader(r)
			return func() error { return wout.UnmarshalCBOR(cr) }
		},
	})

	mv, mout := convert.To[msgpmap.Request](v), new(msgpmap.Request)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgp,
		encode: mv.MarshalMsg,
		decode: func(data []byte) error { *mout = msgpmap.Request{}; _, err := mout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Request](mout) },
	})

	tv, tout := convert.To[msgptuple.Request](v), new(msgptuple.Request)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgpTuple,
		encode: tv.MarshalMsg,
		decode: func(data []byte) error { *tout = msgptuple.Request{}; _, err := tout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Request](tout) },
		stream: func(r io.Reader) func() error {
			mr := msgp.NewReader(r)
			return func() error { *tout = msgptuple.Request{}; return tout.DecodeMsg(mr) }
		},
		marshal: func() ([]byte, error) { return tv.MarshalMsg(nil) },
	})
	return s
}

func profileShape() *shape {
	v := workload.NewProfile()
	s := &shape{name: "Profile", value: v, skipped: map[string]string{
		implWhyrusleeping: "no float fields, no pointers to 32-bit integers",
	}}

	var out workload.Profile
	s.codecs = append(s.codecs, &codec{
		impl:   implGenerated,
		encode: v.AppendCBOR,
		decode: func(data []byte) error { out = workload.Profile{}; return out.UnmarshalCBOR(data) },
		result: func() any { return &out },
		stream: func(r io.Reader) func() error {
			d := runtime.NewDecoder(r)
			return func() error { out = workload.Profile{}; return out.DecodeCBOR(d) }
		},
		marshal: v.MarshalCBOR,
	})

	var hout workload.Profile
	s.codecs = append(s.codecs, &codec{
		impl:   implHandwritten,
		encode: func(dst []byte) ([]byte, error) { return handwritten.AppendProfile(dst, v), nil },
		decode: func(data []byte) error { hout = workload.Profile{}; return handwritten.DecodeProfile(data, &hout) },
		result: func() any { return &hout },
	})

	s.addFxamacker(
		fxCodec[fxarray.Profile, workload.Profile](implFxamacker, fxarray.EncMode, fxarray.DecMode, v),
		fxCodec[fxmap.Profile, workload.Profile](implFxamackerMap, fxmap.EncMode, fxmap.DecMode, v))

	mv, mout := convert.To[msgpmap.Profile](v), new(msgpmap.Profile)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgp,
		encode: mv.MarshalMsg,
		decode: func(data []byte) error { *mout = msgpmap.Profile{}; _, err := mout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Profile](mout) },
	})

	tv, tout := convert.To[msgptuple.Profile](v), new(msgptuple.Profile)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgpTuple,
		encode: tv.MarshalMsg,
		decode: func(data []byte) error { *tout = msgptuple.Profile{}; _, err := tout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Profile](tout) },
		stream: func(r io.Reader) func() error {
			mr := msgp.NewReader(r)
			return func() error { *tout = msgptuple.Profile{}; return tout.DecodeMsg(mr) }
		},
		marshal: func() ([]byte, error) { return tv.MarshalMsg(nil) },
	})
	return s
}

// drawingShape is nested small structs: each segment holds two points.
func drawingShape() *shape {
	v := workload.NewDrawing(300)
	s := &shape{name: "Drawing", value: v, skipped: map[string]string{
		implWhyrusleeping: "not among its generated types",
		implMsgp:          "msgp-tuple measures the same code",
	}}

	var out workload.Drawing
	s.codecs = append(s.codecs, &codec{
		impl:   implGenerated,
		encode: v.AppendCBOR,
		decode: func(data []byte) error { out = workload.Drawing{}; return out.UnmarshalCBOR(data) },
		result: func() any { return &out },
		stream: func(r io.Reader) func() error {
			d := runtime.NewDecoder(r)
			return func() error { out = workload.Drawing{}; return out.DecodeCBOR(d) }
		},
		marshal: v.MarshalCBOR,
	})

	s.addFxamacker(
		fxCodec[fxarray.Drawing, workload.Drawing](implFxamacker, fxarray.EncMode, fxarray.DecMode, v),
		fxCodec[fxmap.Drawing, workload.Drawing](implFxamackerMap, fxmap.EncMode, fxmap.DecMode, v))

	tv, tout := convert.To[msgptuple.Drawing](v), new(msgptuple.Drawing)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgpTuple,
		encode: tv.MarshalMsg,
		decode: func(data []byte) error { *tout = msgptuple.Drawing{}; _, err := tout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Drawing](tout) },
		stream: func(r io.Reader) func() error {
			mr := msgp.NewReader(r)
			return func() error { *tout = msgptuple.Drawing{}; return tout.DecodeMsg(mr) }
		},
		marshal: func() ([]byte, error) { return tv.MarshalMsg(nil) },
	})
	return s
}

func graphShape() *shape {
	v := workload.NewGraph(200, 400)
	s := &shape{name: "Graph", value: v}

	var out workload.Graph
	s.codecs = append(s.codecs, &codec{
		impl:   implGenerated,
		encode: v.AppendCBOR,
		decode: func(data []byte) error { out = workload.Graph{}; return out.UnmarshalCBOR(data) },
		result: func() any { return &out },
		stream: func(r io.Reader) func() error {
			d := runtime.NewDecoder(r)
			return func() error { out = workload.Graph{}; return out.DecodeCBOR(d) }
		},
		marshal: v.MarshalCBOR,
	})

	s.addFxamacker(
		fxCodec[fxarray.Graph, workload.Graph](implFxamacker, fxarray.EncMode, fxarray.DecMode, v),
		fxCodec[fxmap.Graph, workload.Graph](implFxamackerMap, fxmap.EncMode, fxmap.DecMode, v))

	wv, wout, wb := convert.To[wrcbg.Graph](v), new(wrcbg.Graph), new(wrBuffer)
	s.codecs = append(s.codecs, &codec{
		impl: implWhyrusleeping,
		encode: func([]byte) ([]byte, error) {
			wb.buf.Reset()
			err := wv.MarshalCBOR(&wb.buf)
			return wb.buf.Bytes(), err
		},
		decode: func(data []byte) error { wb.rd.Reset(data); return wout.UnmarshalCBOR(&wb.rd) },
		result: func() any { return convert.To[workload.Graph](wout) },
		stream: func(r io.Reader) func() error {
			cr := cbg.NewCborReader(r)
			return func() error { return wout.UnmarshalCBOR(cr) }
		},
	})

	mv, mout := convert.To[msgpmap.Graph](v), new(msgpmap.Graph)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgp,
		encode: mv.MarshalMsg,
		decode: func(data []byte) error { *mout = msgpmap.Graph{}; _, err := mout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Graph](mout) },
	})

	tv, tout := convert.To[msgptuple.Graph](v), new(msgptuple.Graph)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgpTuple,
		encode: tv.MarshalMsg,
		decode: func(data []byte) error { *tout = msgptuple.Graph{}; _, err := tout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Graph](tout) },
		stream: func(r io.Reader) func() error {
			mr := msgp.NewReader(r)
			return func() error { *tout = msgptuple.Graph{}; return tout.DecodeMsg(mr) }
		},
		marshal: func() ([]byte, error) { return tv.MarshalMsg(nil) },
	})
	return s
}

func tablesShape() *shape {
	v := workload.NewTables()
	s := &shape{name: "Tables", value: v, skipped: map[string]string{
		implWhyrusleeping: "map values must be strings or structs (here []uint32, []string); no floats",
	}}

	var out workload.Tables
	s.codecs = append(s.codecs, &codec{
		impl:   implGenerated,
		encode: v.AppendCBOR,
		decode: func(data []byte) error { out = workload.Tables{}; return out.UnmarshalCBOR(data) },
		result: func() any { return &out },
		stream: func(r io.Reader) func() error {
			d := runtime.NewDecoder(r)
			return func() error { out = workload.Tables{}; return out.DecodeCBOR(d) }
		},
		marshal: v.MarshalCBOR,
	})

	uv := convert.To[unsorted.Tables](v)
	s.codecs = append(s.codecs, &codec{impl: implUnsorted, encode: uv.AppendCBOR})

	s.addFxamacker(
		fxCodec[fxarray.Tables, workload.Tables](implFxamacker, fxarray.EncMode, fxarray.DecMode, v),
		fxCodec[fxmap.Tables, workload.Tables](implFxamackerMap, fxmap.EncMode, fxmap.DecMode, v))

	mv, mout := convert.To[msgpmap.Tables](v), new(msgpmap.Tables)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgp,
		encode: mv.MarshalMsg,
		decode: func(data []byte) error { *mout = msgpmap.Tables{}; _, err := mout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Tables](mout) },
	})

	tv, tout := convert.To[msgptuple.Tables](v), new(msgptuple.Tables)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgpTuple,
		encode: tv.MarshalMsg,
		decode: func(data []byte) error { *tout = msgptuple.Tables{}; _, err := tout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Tables](tout) },
		stream: func(r io.Reader) func() error {
			mr := msgp.NewReader(r)
			return func() error { *tout = msgptuple.Tables{}; return tout.DecodeMsg(mr) }
		},
		marshal: func() ([]byte, error) { return tv.MarshalMsg(nil) },
	})
	return s
}

func countersShape() *shape {
	v := workload.NewCounters()
	s := &shape{name: "Counters", value: v, skipped: map[string]string{
		implWhyrusleeping: "map values must be strings or structs (here int64)",
	}}

	var out workload.Counters
	s.codecs = append(s.codecs, &codec{
		impl:   implGenerated,
		encode: v.AppendCBOR,
		decode: func(data []byte) error { out = workload.Counters{}; return out.UnmarshalCBOR(data) },
		result: func() any { return &out },
		stream: func(r io.Reader) func() error {
			d := runtime.NewDecoder(r)
			return func() error { out = workload.Counters{}; return out.DecodeCBOR(d) }
		},
		marshal: v.MarshalCBOR,
	})

	uv := convert.To[unsorted.Counters](v)
	s.codecs = append(s.codecs, &codec{impl: implUnsorted, encode: uv.AppendCBOR})

	s.addFxamacker(
		fxCodec[fxarray.Counters, workload.Counters](implFxamacker, fxarray.EncMode, fxarray.DecMode, v),
		fxCodec[fxmap.Counters, workload.Counters](implFxamackerMap, fxmap.EncMode, fxmap.DecMode, v))

	mv, mout := convert.To[msgpmap.Counters](v), new(msgpmap.Counters)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgp,
		encode: mv.MarshalMsg,
		decode: func(data []byte) error { *mout = msgpmap.Counters{}; _, err := mout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Counters](mout) },
	})

	tv, tout := convert.To[msgptuple.Counters](v), new(msgptuple.Counters)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgpTuple,
		encode: tv.MarshalMsg,
		decode: func(data []byte) error { *tout = msgptuple.Counters{}; _, err := tout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Counters](tout) },
		stream: func(r io.Reader) func() error {
			mr := msgp.NewReader(r)
			return func() error { *tout = msgptuple.Counters{}; return tout.DecodeMsg(mr) }
		},
		marshal: func() ([]byte, error) { return tv.MarshalMsg(nil) },
	})
	return s
}

func compositeShape(name string, items int) *shape {
	v := workload.NewComposite(items)
	s := &shape{name: name, value: v}

	var out workload.Composite
	s.codecs = append(s.codecs, &codec{
		impl:   implGenerated,
		encode: v.AppendCBOR,
		decode: func(data []byte) error { out = workload.Composite{}; return out.UnmarshalCBOR(data) },
		result: func() any { return &out },
		stream: func(r io.Reader) func() error {
			d := runtime.NewDecoder(r)
			return func() error { out = workload.Composite{}; return out.DecodeCBOR(d) }
		},
		marshal: v.MarshalCBOR,
	})

	uv := convert.To[unsorted.Composite](v)
	s.codecs = append(s.codecs, &codec{impl: implUnsorted, encode: uv.AppendCBOR})

	s.addFxamacker(
		fxCodec[fxarray.Composite, workload.Composite](implFxamacker, fxarray.EncMode, fxarray.DecMode, v),
		fxCodec[fxmap.Composite, workload.Composite](implFxamackerMap, fxmap.EncMode, fxmap.DecMode, v))

	wv, wout, wb := convert.To[wrcbg.Composite](v), new(wrcbg.Composite), new(wrBuffer)
	s.codecs = append(s.codecs, &codec{
		impl: implWhyrusleeping,
		encode: func([]byte) ([]byte, error) {
			wb.buf.Reset()
			err := wv.MarshalCBOR(&wb.buf)
			return wb.buf.Bytes(), err
		},
		decode: func(data []byte) error { wb.rd.Reset(data); return wout.UnmarshalCBOR(&wb.rd) },
		result: func() any { return convert.To[workload.Composite](wout) },
		stream: func(r io.Reader) func() error {
			cr := cbg.NewCborReader(r)
			return func() error { return wout.UnmarshalCBOR(cr) }
		},
	})

	mv, mout := convert.To[msgpmap.Composite](v), new(msgpmap.Composite)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgp,
		encode: mv.MarshalMsg,
		decode: func(data []byte) error { *mout = msgpmap.Composite{}; _, err := mout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Composite](mout) },
	})

	tv, tout := convert.To[msgptuple.Composite](v), new(msgptuple.Composite)
	s.codecs = append(s.codecs, &codec{
		impl:   implMsgpTuple,
		encode: tv.MarshalMsg,
		decode: func(data []byte) error { *tout = msgptuple.Composite{}; _, err := tout.UnmarshalMsg(data); return err },
		result: func() any { return convert.To[workload.Composite](tout) },
		stream: func(r io.Reader) func() error {
			mr := msgp.NewReader(r)
			return func() error { *tout = msgptuple.Composite{}; return tout.DecodeMsg(mr) }
		},
		marshal: func() ([]byte, error) { return tv.MarshalMsg(nil) },
	})
	return s
}

// loop is an endless stream of the same encoded value, as a connection
// delivers one message after another.
type loop struct {
	data []byte
	off  int
}

func (l *loop) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], l.data[l.off:])
		n += c
		l.off = (l.off + c) % len(l.data)
	}
	return n, nil
}
