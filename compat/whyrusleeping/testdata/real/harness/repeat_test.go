package harness

import (
	"bytes"
	"os"
	"strconv"
	"testing"

	cbg "github.com/whyrusleeping/cbor-gen"
)

// TestRepeat runs one operation N times, for instruction counts:
// REPEAT_TYPE, REPEAT_OP (encode, decode, reuse), REPEAT_SIDE (theirs, ours), REPEAT_N.
func TestRepeat(t *testing.T) {
	name := os.Getenv("REPEAT_TYPE")
	if name == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(os.Getenv("REPEAT_N"))
	var p pair
	for _, q := range pairs {
		if q.name == name {
			p = q
		}
	}
	b := &testing.B{}
	tv, ov, data := benchValue(b, p)
	v, mk := tv, p.theirs
	if os.Getenv("REPEAT_SIDE") == "ours" {
		v, mk = ov, p.ours
	}
	var buf bytes.Buffer
	switch os.Getenv("REPEAT_OP") {
	case "encode":
		m := v.(cbg.CBORMarshaler)
		for range n {
			buf.Reset()
			m.MarshalCBOR(&buf)
		}
	case "decode":
		for range n {
			mk().(cbg.CBORUnmarshaler).UnmarshalCBOR(bytes.NewReader(data))
		}
	case "reuse":
		// One value and one reader, as BenchmarkCompat/DecodeReuse.
		u := mk().(cbg.CBORUnmarshaler)
		rd := bytes.NewReader(data)
		for range n {
			rd.Reset(data)
			u.UnmarshalCBOR(rd)
		}
	}
}
