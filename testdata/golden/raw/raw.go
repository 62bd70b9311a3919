// Package raw is a golden case: values that keep the exact bytes they
// were decoded from (//cborgen:raw F), as ledgers hash and sign them.
package raw

// Body is a transaction body: its signatures cover the bytes it was read
// from, which Raw holds after decoding (in either format).
//
//cborgen:raw Raw
type Body struct {
	Inputs []uint64
	Fee    uint64
	Memo   string
	Raw    []byte `cbor:"-"`
}

// Block keeps its own bytes, its tag included, in an unexported field;
// each body within keeps its own.
//
//cborgen:raw raw
//cborgen:tag 1300
//cborgen:nolegacy
type Block struct {
	Height uint64
	Bodies []Body
	Prev   *Body
	raw    []byte
}

// Bytes returns the bytes b was decoded from.
func (b *Block) Bytes() []byte { return b.raw }
