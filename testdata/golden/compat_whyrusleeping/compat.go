// Package compat_whyrusleeping is a golden case: -compat whyrusleeping
// writes whyrusleeping/cbor-gen's API and tuple format (an array of the
// exported fields), with its field options and limits.
package compat_whyrusleeping

//go:generate go tool cbor-gen -compat whyrusleeping -max-string 1000000 -type Message,Header,Epochs,Envelope

// Epoch is a named int64: written as an int64, as whyrusleeping/cbor-gen
// goes by kind.
type Epoch int64

type Header struct {
	Version uint8
	Kind    string `cborgen:"const=msg"`
	Nonce   *uint64
}

type Message struct {
	To     string `cborgen:"maxlen=64"`
	Value  int64
	Params []byte
	Head   Header
	Prev   *Header
	Tags   []string `cborgen:"preservenil"`
	Seen   bool
	Hash   [4]byte
	Epochs []Epoch
	Note   string `cborgen:"optional"`
	note   string
}

// Epochs is a transparent type: the slice itself, no array around it.
type Epochs []Epoch

// Envelope holds a Message transparently.
type Envelope struct {
	Msg Message `cborgen:"transparent"`
}
