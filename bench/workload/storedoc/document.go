package storedoc

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// The document's counts, as in the real record.
const (
	Composites   = 870
	Dictionaries = 837
	Texts        = 42000
	UInt32s      = 1800
	Bools        = 900
	maxNesting   = 6 // containers within containers below the root
)

// NewDocument builds the store document of the given seed: a Dictionary
// holding, at most six levels deep, Composites composites and Dictionaries
// dictionaries (the root included) and Texts text, UInt32s integer and
// Bools boolean values spread over them. The same seed gives the same
// document.
func NewDocument(seed uint64) Value {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	names := vocabulary(r, 400)
	addresses := make([][]byte, 60)
	for i := range addresses {
		addresses[i] = make([]byte, 8)
		for j := range addresses[i] {
			addresses[i][j] = byte(r.Uint32())
		}
	}
	contracts := vocabulary(r, 40)

	root := &Dictionary{Entries: map[string]Value{}}
	parents := []Value{root}
	depth := map[Value]int{root: 0}
	// add puts v into a random container of the document.
	add := func(v Value) Value {
		for {
			p := parents[r.IntN(len(parents))]
			if _, nested := v.(*Composite); (nested || isDictionary(v)) && depth[p] >= maxNesting {
				continue
			}
			switch p := p.(type) {
			case *Composite:
				p.Fields[uniqueKey(p.Fields, names[r.IntN(len(names))])] = v
			case *Dictionary:
				if r.IntN(5) < 3 {
					p.Values = append(p.Values, v)
				} else {
					p.Entries[uniqueKey(p.Entries, names[r.IntN(len(names))])] = v
				}
			}
			return p
		}
	}
	kinds := make([]bool, 0, Composites+Dictionaries-1) // true: a composite
	for i := 0; i < Composites; i++ {
		kinds = append(kinds, true)
	}
	for i := 1; i < Dictionaries; i++ {
		kinds = append(kinds, false)
	}
	r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	for _, composite := range kinds {
		var v Value
		if composite {
			address := addresses[r.IntN(len(addresses))]
			contract := contracts[r.IntN(len(contracts))]
			v = &Composite{
				Location:      Location{Address: address, Name: contract},
				Kind:          uint8(r.IntN(5)),
				Fields:        map[string]Value{},
				QualifiedName: "A." + hex(address) + "." + contract + "." + names[r.IntN(len(names))],
			}
		} else {
			v = &Dictionary{Entries: map[string]Value{}}
		}
		depth[v] = depth[add(v)] + 1
		parents = append(parents, v)
	}
	for i := 0; i < Texts; i++ {
		add(StringValue(text(r)))
	}
	for i := 0; i < UInt32s; i++ {
		add(UInt32Value(r.Uint32() >> r.IntN(32)))
	}
	for i := 0; i < Bools; i++ {
		add(BoolValue(r.IntN(2) == 0))
	}
	return root
}

func isDictionary(v Value) bool { _, ok := v.(*Dictionary); return ok }

// uniqueKey returns name, or name with a number after it if m has it.
func uniqueKey(m map[string]Value, name string) string {
	if _, taken := m[name]; !taken {
		return name
	}
	for i := 2; ; i++ {
		if k := name + strconv.Itoa(i); m[k] == nil {
			return k
		}
	}
}

// vocabulary returns n distinct identifiers of two to four syllables.
func vocabulary(r *rand.Rand, n int) []string {
	syllables := []string{"ac", "count", "to", "ken", "ba", "lance", "vault", "id", "ow", "ner", "pub", "lic", "key", "sto", "rage", "path", "re", "cei", "ver", "cap", "nft", "meta", "da", "ta", "fee", "pay"}
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var b strings.Builder
		for k := 2 + r.IntN(3); k > 0; k-- {
			b.WriteString(syllables[r.IntN(len(syllables))])
		}
		if s := b.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// text returns a short string, as most of a store's text values are:
// identifiers, amounts, names, now and then a longer description and a
// word that is not ASCII.
func text(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. "
	n := 1 + r.IntN(7)
	switch p := r.IntN(100); {
	case p < 5:
		n = 20 + r.IntN(40)
	case p < 25:
		n = 8 + r.IntN(10)
	}
	b := make([]byte, 0, n+3)
	for len(b) < n {
		b = append(b, letters[r.IntN(len(letters))])
	}
	if r.IntN(50) == 0 {
		b = append(b, "é"...)
	}
	return string(b)
}

func hex(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
