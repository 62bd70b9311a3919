package rpc_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/iotest"

	"github.com/cborgen/cborgen/examples/rpc"
	"github.com/cborgen/cborgen/runtime"
	"github.com/cborgen/cborgen/runtime/genrt"
)

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// putRequest is Request{Version: 1, ID: 7, Method: "kv.put", Params:
// {Put: {Key: "k", Value: <value>}}} with the value's encoding spliced in
// at offset 18.
func putRequest(value []byte) []byte {
	return cat([]byte{0x87, 0x01, 0x07, 0x66}, []byte("kv.put"), []byte{0xf6, 0xf6, 0xf6, 0x83, 0xf6, 0x84, 0x61, 'k'},
		value, []byte{0x00, 0xf6, 0xf6})
}

// TestErrorPaths checks whole messages of errors deep in the messages.
func TestErrorPaths(t *testing.T) {
	forged := []byte{0x5b, 0, 0, 0, 1, 0, 0, 0, 0}
	legacyPut := cat([]byte{0xa1, 0x66}, []byte("params"), []byte{0xa1, 0x63}, []byte("put"), []byte{0xa1, 0x65}, []byte("value"), forged)
	entries := []byte{0x84, 0x01, 0x85, 0xf4, 0xf6, 0x00, 0x82,
		0x84, 0x61, 'a', 0x00, 0x00, 0xf9, 0x00, 0x00,
		0x84, 0x62, 0xc3, 0x28, 0x00, 0x00, 0xf9, 0x00, 0x00, 0xf6, 0xf6}
	fields := cat([]byte{0x85, 0x19, 0x01, 0x94, 0x60, 0xf6, 0xa1, 0x1b}, bytes.Repeat([]byte{0xff}, 8), []byte{0x60, 0xf6})
	trace := cat([]byte{0x87, 0x01, 0x07, 0x66}, []byte("kv.get"), []byte{0xf6, 0xf6, 0x4f}, make([]byte, 15), []byte{0x83, 0xf6, 0xf6, 0xf6})
	headers := cat([]byte{0x87, 0x01, 0x07, 0x66}, []byte("kv.get"), []byte{0xba, 0x00, 0x03, 0x0d, 0x40})

	for _, c := range []struct {
		name   string
		decode func([]byte) error
		data   []byte
		want   string
		is     error
	}{
		{"forged byte string length", new(rpc.Request).UnmarshalCBOR, putRequest(forged),
			"cbor: Request.Params.Put.Value: byte string length 4294967296 exceeds limit 67108864 at offset 18", runtime.ErrLimit},
		{"forged length, legacy", new(rpc.Request).UnmarshalCBOR, legacyPut,
			"cbor: Request.Params.Put.Value: byte string length 4294967296 exceeds limit 67108864 at offset 20", runtime.ErrLimit},
		{"byte string beyond the input", new(rpc.Request).UnmarshalCBOR, putRequest([]byte{0x59, 0xff, 0xff}),
			"cbor: Request.Params.Put.Value: unexpected end of data in byte string of 65535 bytes at offset 18", io.ErrUnexpectedEOF},
		{"invalid UTF-8", new(rpc.Response).UnmarshalCBOR, entries,
			"cbor: Response.Result.Entries[1].Key: text string is not valid UTF-8 at offset 16", runtime.ErrUTF8},
		{"map key out of range", new(rpc.Error).UnmarshalCBOR, fields,
			"cbor: Error.Fields: integer 18446744073709551615 overflows int at offset 7", runtime.ErrRange},
		{"byte array of the wrong length (strict)", func(b []byte) error {
			return runtime.Unmarshal(b, new(rpc.Request), runtime.Options{Strict: true})
		}, trace,
			"cbor: Request.Trace: expected byte string of 16 bytes, found 15 at offset 12", runtime.ErrLength},
		{"pairs over the limit", new(rpc.Request).UnmarshalCBOR, headers,
			"cbor: Request.Headers: map pairs 200000 exceed limit 131072 at offset 10", runtime.ErrLimit},
		{"wrong type", new(rpc.Request).UnmarshalCBOR, putRequest([]byte{0x61, 'v'}),
			"cbor: Request.Params.Put.Value: expected byte string, found text string at offset 18", runtime.ErrType},
	} {
		err := c.decode(c.data)
		var rerr *runtime.Error
		if err == nil || err.Error() != c.want || !errors.Is(err, c.is) || !errors.As(err, &rerr) {
			t.Errorf("%s:\n got %v\nwant %s (%v)", c.name, err, c.want, c.is)
		}
	}
	var r rpc.Request
	if err := r.UnmarshalCBOR(putRequest([]byte{0x41, 'v'})); err != nil || string(r.Params.Put.Value) != "v" {
		t.Errorf("the valid request: %+v, %v", r, err)
	}
}

// serve reads requests from conn until it ends, as a server does, and
// answers each with its ID.
func serve(conn io.Reader, opts runtime.Options) ([]uint64, error) {
	d := runtime.NewDecoder(conn)
	d.SetOptions(opts)
	var ids []uint64
	for {
		var req rpc.Request
		if err := req.DecodeCBOR(d); err == io.EOF {
			return ids, nil
		} else if err != nil {
			return ids, err
		}
		ids = append(ids, req.ID)
	}
}

// TestServeConnection: requests in both formats read one after another
// from one connection, however it splits them; a connection that breaks
// inside a request reports the break, wrapped, and the offset.
func TestServeConnection(t *testing.T) {
	var conn []byte
	for id := range uint64(50) {
		b, err := rpc.Request{ID: id, Method: rpc.MethodGet, Params: rpc.Params{Get: &rpc.GetParams{Key: fmt.Sprint(id)}}}.MarshalCBOR()
		if err != nil {
			t.Fatal(err)
		}
		if id%2 == 1 { // an old client: the legacy map of the same request
			b = genrt.AppendMapHead(nil, 3)
			b = genrt.AppendUint(genrt.AppendString(b, "id"), id)
			b = genrt.AppendString(genrt.AppendString(b, "method"), "kv.get")
			b = genrt.AppendMapHead(genrt.AppendString(b, "params"), 1)
			b = genrt.AppendMapHead(genrt.AppendString(b, "get"), 1)
			b = genrt.AppendString(genrt.AppendString(b, "key"), fmt.Sprint(id))
		}
		conn = append(conn, b...)
	}
	for _, r := range []io.Reader{bytes.NewReader(conn), iotest.OneByteReader(bytes.NewReader(conn)), iotest.HalfReader(bytes.NewReader(conn))} {
		ids, err := serve(r, runtime.Options{Strict: true, MaxDepth: 4})
		if err != nil || len(ids) != 50 || ids[49] != 49 {
			t.Fatalf("serve: %d requests, %v", len(ids), err)
		}
	}
	// Requests in the array format take 20 bytes, legacy ones 38: the
	// fifth (ID 4) starts at offset 116, and its key is the text string at
	// offset 131; the connection breaks after its head.
	errReset := errors.New("connection reset by peer")
	broken := io.MultiReader(bytes.NewReader(conn[:132]), iotest.ErrReader(errReset))
	ids, err := serve(broken, runtime.Options{})
	var rerr *runtime.Error
	if !errors.Is(err, errReset) || !errors.As(err, &rerr) || len(ids) != 4 {
		t.Fatalf("serve(broken connection) = %d requests, %v; want 4 and the reset", len(ids), err)
	}
	if want := "cbor: Request.Params.Get.Key: reading text string of 1 byte: connection reset by peer at offset 131"; err.Error() != want {
		t.Errorf("serve(broken connection):\n got %v\nwant %s", err, want)
	}
}
