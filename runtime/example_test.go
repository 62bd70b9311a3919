package runtime_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cborgen/cborgen/runtime"
)

// Errors carry the offset, what was expected and what was found; the
// cause is a sentinel for errors.Is.
func ExampleError() {
	d := runtime.NewBytesDecoder([]byte{0x19, 0x01, 0x00}) // 256
	_, err := d.ReadUint8()
	fmt.Println(err)
	fmt.Println(errors.Is(err, runtime.ErrRange))
	var e *runtime.Error
	fmt.Println(errors.As(err, &e), e.Offset)
	// Output:
	// cbor: integer 256 overflows uint8 at offset 0
	// true
	// true 0
}

// A Decoder over a stream reads item after item, with the options given
// to it; More reports whether another item starts.
func ExampleNewDecoder() {
	d := runtime.NewDecoder(strings.NewReader("\x01\x18\x2a\x39\x01\x00\x83\x01\x02\x03"))
	d.SetOptions(runtime.Options{MaxArrayElements: 2})
	for d.More() {
		v, err := d.ReadInt64()
		if err != nil {
			fmt.Println(err, errors.Is(err, runtime.ErrType))
			return
		}
		fmt.Println(v)
	}
	// Output:
	// 1
	// 42
	// -257
	// cbor: expected integer, found array at offset 6 true
}

// Valid checks one whole item: well-formed, UTF-8 text, no duplicate keys.
func ExampleValid() {
	err := runtime.Valid([]byte{0xa2, 0x01, 0x00, 0x18, 0x01, 0x00})
	fmt.Println(err, errors.Is(err, runtime.ErrDuplicateKey))
	// Output:
	// cbor: map key appears twice at offset 3 true
}
