package genrt_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// Encoding appends to a slice; every head and float takes its shortest form.
func Example() {
	b := genrt.AppendArrayHead(nil, 3)
	b = genrt.AppendString(b, "width")
	b = genrt.AppendFloat64(b, 1.5)
	b = genrt.AppendInt(b, -500)
	fmt.Printf("%x\n", b)

	d := genrt.NewBytesDecoder(b)
	n, _ := d.ReadArrayHead()
	s, _ := d.ReadString()
	f, _ := d.ReadFloat64()
	i, _ := d.ReadInt16()
	d.Leave()
	fmt.Println(n, s, f, i)
	// Output:
	// 83657769647468f93e003901f3
	// 3 width 1.5 -500
}

// Errors carry the offset, what was expected and what was found; the
// cause is a sentinel for errors.Is.
func ExampleError() {
	d := genrt.NewBytesDecoder([]byte{0x19, 0x01, 0x00}) // 256
	_, err := d.ReadUint8()
	fmt.Println(err)
	fmt.Println(errors.Is(err, genrt.ErrRange))
	// Output:
	// cbor: integer 256 overflows uint8 at offset 0
	// true
}

// A Decoder over a stream reads item after item; More reports whether
// another one starts (PeekMajor returns io.EOF there, as generated
// DecodeCBOR methods do).
func ExampleNewDecoder() {
	d := genrt.NewDecoder(strings.NewReader("\x01\x18\x2a\x39\x01\x00"))
	for d.More() {
		v, err := d.ReadInt64()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(v)
	}
	// Output:
	// 1
	// 42
	// -257
}

// Between items PeekMajor reports io.EOF itself.
func ExampleDecoder_PeekMajor() {
	d := genrt.NewDecoder(strings.NewReader(""))
	_, err := d.PeekMajor()
	fmt.Println(err == io.EOF)
	// Output:
	// true
}

// Limits and strict mode are set per Decoder.
func ExampleDecoder_SetOptions() {
	d := genrt.NewBytesDecoder([]byte{0x83, 0x01, 0x02, 0x03})
	d.SetOptions(genrt.Options{MaxArrayElements: 2})
	_, err := d.ReadArrayHead()
	fmt.Println(err)
	// Output:
	// cbor: array elements 3 exceed limit 2 at offset 0
}

// Valid checks one whole item: well-formed, UTF-8 text, no duplicate keys.
func ExampleValid() {
	fmt.Println(genrt.Valid([]byte{0xa2, 0x01, 0x00, 0x18, 0x01, 0x00}))
	// Output:
	// cbor: map key appears twice at offset 3
}
