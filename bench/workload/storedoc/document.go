package storedoc

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// The document's counts, as in the real record
// (bench/testdata/cadence-composite-v3.cbor.gz).
const (
	Composites   = 1 + Sets + Plays // the contract, its sets' data and its plays
	Dictionaries = 3 + Plays        // the contract's three and one per play
	Texts        = Sets + 2*(Plays*Fields+2*(Plays/Extra))
	UInt32s      = 4*Sets + 2*Plays + 3 // ids, and the contract's counters
	UInt64s      = 1                    // the contract's total supply
	Sets         = 35                   // sets, each with its data
	Plays        = 834                  // plays, each with its metadata
	Fields       = 25                   // metadata fields of every play
	Extra        = 834 / 134            // every Extra-th play has two more
	maxMetadata  = Fields + 2           // the names of the metadata fields
)

// NewDocument builds the store document of the given seed, in the shape
// of the real record (a contract of collectibles): the contract is the
// root, a Composite of seven fields, three of them dictionaries: its
// sets (Sets ids), its sets' data (the ids, and by id in decimal a
// composite of a name and two numbers) and its plays (Plays ids, and by
// id a composite of the play's id and a dictionary of its metadata:
// Fields names, in Values and as the keys of Entries, every Extra-th play
// two more, each with a text value). The names, texts and numbers are
// drawn from the seed, with the real record's lengths: 6 to 20 bytes for
// metadata names, 1 to 36 for their values, most of them short. The same
// seed gives the same document.
func NewDocument(seed uint64) Value {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	address := make([]byte, 8)
	for i := range address {
		address[i] = byte(r.Uint32())
	}
	contract := identifier(r, 7, 7)
	location := Location{Address: address, Name: contract}
	composite := func(kind uint8, name string) *Composite {
		return &Composite{Location: location, Kind: kind, Fields: map[string]Value{}, QualifiedName: name}
	}
	root := composite(3, contract)

	sets := &Dictionary{Values: []Value{}, Entries: map[string]Value{}}
	setData := &Dictionary{Values: []Value{}, Entries: map[string]Value{}}
	for id := UInt32Value(1); id <= Sets; id++ {
		sets.Values = append(sets.Values, id)
		setData.Values = append(setData.Values, id)
		s := composite(1, contract+".SetData")
		s.Fields["name"] = StringValue(words(r, 4, 26))
		s.Fields["setID"] = id
		s.Fields["series"] = UInt32Value(r.IntN(3))
		setData.Entries[strconv.Itoa(int(id))] = s
	}

	// Names of 6 to 16 bytes, spread evenly, two of them longer: 17 and
	// 20 bytes.
	names := make([]string, 0, maxMetadata)
	for len(names) < maxMetadata {
		n := 6 + len(names)*7%11
		switch len(names) {
		case 3:
			n = 17
		case 11:
			n = 20
		}
		if name := identifier(r, n, n); !contains(names, name) {
			names = append(names, name)
		}
	}
	plays := &Dictionary{Values: []Value{}, Entries: map[string]Value{}}
	for id := UInt32Value(1); id <= Plays; id++ {
		plays.Values = append(plays.Values, id)
		fields := names[:Fields]
		if id%Extra == 0 {
			fields = names
		}
		metadata := &Dictionary{Values: make([]Value, 0, len(fields)), Entries: make(map[string]Value, len(fields))}
		for _, name := range fields {
			metadata.Values = append(metadata.Values, StringValue(name))
			metadata.Entries[name] = StringValue(text(r))
		}
		p := composite(1, contract+".Play")
		p.Fields["playID"] = id
		p.Fields["metadata"] = metadata
		plays.Entries[strconv.Itoa(int(id))] = p
	}

	root.Fields["sets"] = sets
	root.Fields["setDatas"] = setData
	root.Fields["playDatas"] = plays
	root.Fields["nextSetID"] = UInt32Value(Sets + 1)
	root.Fields["nextPlayID"] = UInt32Value(Plays + 1)
	root.Fields["currentSeries"] = UInt32Value(2)
	root.Fields["totalSupply"] = UInt64Value(1<<22 + r.Uint64N(1<<22))
	return root
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// syllables make the identifiers and words of the document.
var syllables = []string{"ac", "count", "to", "ken", "ba", "lance", "vault", "id", "ow", "ner", "pub", "lic", "key", "sto", "rage", "path", "re", "cei", "ver", "cap", "nft", "meta", "da", "ta", "fee", "pay"}

// identifier returns an identifier in camel case of min to max bytes.
func identifier(r *rand.Rand, min, max int) string {
	n := min + r.IntN(max-min+1)
	var b strings.Builder
	for b.Len() < n {
		s := syllables[r.IntN(len(syllables))]
		if r.IntN(3) == 0 || b.Len() == 0 {
			s = strings.ToUpper(s[:1]) + s[1:]
		}
		b.WriteString(s)
	}
	return b.String()[:n]
}

// words returns a few words of min to max bytes in all.
func words(r *rand.Rand, min, max int) string {
	n := min + r.IntN(max-min+1)
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(identifier(r, 2, 9))
	}
	return strings.TrimSpace(b.String()[:n])
}

// text returns a metadata value, with the lengths of the real record's:
// 42% of 1 to 3 bytes (scores, numbers, positions), 19% of 4 to 7, 15% of
// 8 to 12, 20% of 13 to 22 (names, teams, places), the rest of 23 to 36
// (dates); now and then a word that is not ASCII, as names have.
func text(r *rand.Rand) string {
	var n int
	switch p := r.IntN(100); {
	case p < 42:
		n = 1 + r.IntN(3)
	case p < 61:
		n = 4 + r.IntN(4)
	case p < 76:
		n = 8 + r.IntN(5)
	case p < 96:
		n = 13 + r.IntN(10)
	default:
		n = 23 + r.IntN(14)
	}
	if n <= 3 {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		return string(b)
	}
	s := words(r, n, n)
	if r.IntN(100) == 0 {
		s = s[:len(s)-1] + "é"
	}
	return s
}
