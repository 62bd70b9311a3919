package workload

import (
	"fmt"
	"math/rand/v2"
)

// Every constructor returns the same value on every call: the benchmarks
// of all implementations encode equal values, and runs compare.

// NewRequest returns a typical call envelope (about 100 bytes encoded).
func NewRequest() *Request {
	r := &Request{
		ID:         1<<40 + 12345,
		Service:    "storage.v1.Accounts",
		Method:     "GetBalance",
		Deadline:   1767225600123,
		Priority:   3,
		Idempotent: true,
		Payload:    make([]byte, 32),
	}
	for i := range r.TraceID {
		r.TraceID[i] = byte(0xa0 + i)
	}
	for i := range r.Payload {
		r.Payload[i] = byte(i * 7)
	}
	return r
}

// NewProfile returns an update that sets six of the ten optional fields.
func NewProfile() *Profile {
	name, email := "Ada Lovelace", "ada@example.org"
	age, score, verified, level := uint32(36), 1234.5, true, int32(-2)
	return &Profile{
		UserID:   987654321,
		Name:     &name,
		Email:    &email,
		Age:      &age,
		Score:    &score,
		Verified: &verified,
		Level:    &level,
	}
}

// NewGraph returns a graph of the given numbers of nodes and edges.
func NewGraph(nodes, edges int) *Graph {
	rng := rand.New(rand.NewPCG(1, 2))
	g := &Graph{Name: "build-graph", Nodes: make([]Node, nodes), Edges: make([]Edge, edges)}
	for i := range g.Nodes {
		g.Nodes[i] = Node{
			ID:     uint64(1000 + i),
			Label:  fmt.Sprintf("//pkg/mod%03d:lib", i),
			Kind:   NodeKind(rng.IntN(4)),
			Weight: rng.Int64N(200000) - 100000,
		}
	}
	for i := range g.Edges {
		g.Edges[i] = Edge{
			From:     uint64(1000 + rng.IntN(nodes)),
			To:       uint64(1000 + rng.IntN(nodes)),
			Cost:     rng.Int64N(5000),
			Required: rng.IntN(3) != 0,
		}
	}
	return g
}

// NewDrawing returns n segments between points of a 4000 by 4000 grid.
func NewDrawing(n int) *Drawing {
	rng := rand.New(rand.NewPCG(7, 8))
	d := &Drawing{Segments: make([]Segment, n)}
	for i := range d.Segments {
		d.Segments[i] = Segment{
			Start: Point{X: rng.Int64N(4000) - 2000, Y: rng.Int64N(4000) - 2000},
			End:   Point{X: rng.Int64N(4000) - 2000, Y: rng.Int64N(4000) - 2000},
			Label: fmt.Sprintf("wall-%d", i),
		}
	}
	return d
}

// NewTables returns nested containers of about 2.5 KB encoded.
func NewTables() *Tables {
	rng := rand.New(rand.NewPCG(3, 4))
	t := &Tables{
		Matrix: make([][]int64, 16),
		Rows:   make([][]string, 8),
		Index:  make(map[string][]uint32, 20),
		Groups: make(map[string][]string, 10),
		Chunks: make([][]byte, 8),
	}
	for i := range t.Matrix {
		row := make([]int64, 16)
		for j := range row {
			row[j] = rng.Int64N(1<<uint(2*j+1)) - 1<<uint(2*j)
		}
		t.Matrix[i] = row
	}
	for i := range t.Rows {
		row := make([]string, 6)
		for j := range row {
			row[j] = fmt.Sprintf("cell-%d-%d", i, j)
		}
		t.Rows[i] = row
	}
	for i := 0; i < 20; i++ {
		ids := make([]uint32, 8)
		for j := range ids {
			ids[j] = rng.Uint32N(1 << uint(4+i%20))
		}
		t.Index[fmt.Sprintf("term%02d", i)] = ids
	}
	for i := 0; i < 10; i++ {
		t.Groups[fmt.Sprintf("group-%d", i)] = []string{"alice", "bob", fmt.Sprintf("user%d", i), "ops"}
	}
	for i := range t.Grid {
		for j := range t.Grid[i] {
			if (i+j)%2 == 0 {
				t.Grid[i][j] = float64(i*4+j) / 4 // exact in float16
			} else {
				t.Grid[i][j] = rng.Float64() * 1000
			}
		}
	}
	for i := range t.Chunks {
		c := make([]byte, 24)
		for j := range c {
			c[j] = byte(rng.Uint32())
		}
		t.Chunks[i] = c
	}
	return t
}

// NewCounters returns 100 named counters.
func NewCounters() *Counters {
	rng := rand.New(rand.NewPCG(5, 6))
	c := &Counters{Host: "web-07.eu-west", Counts: make(map[string]int64, 100)}
	methods := []string{"GET", "PUT", "POST", "DELETE"}
	for i := 0; i < 100; i++ {
		name := fmt.Sprintf("http.%s./api/v1/r%02d.%d", methods[i%4], i, 200+100*(i%4))
		c.Counts[name] = rng.Int64N(1 << uint(8+i%40))
	}
	return c
}

// The sizes of NewComposite.
const (
	CompositeSmall  = 0    // about 140 bytes encoded
	CompositeMedium = 50   // about 15 KB
	CompositeLarge  = 2500 // about 750 KB
)

// NewComposite returns a stored record holding items nested composites in
// a dictionary field, each with scalar fields, bytes, an array and a
// dictionary of its own. With items == 0 it is a small record of three
// scalar fields.
func NewComposite(items int) *Composite {
	rng := rand.New(rand.NewPCG(7, uint64(items)))
	c := &Composite{
		Location: Location{Address: Address{0xf8, 0xd6, 0xe0, 0x58, 0x6b, 0x0a, 0x20, 0xc7}, Name: "FungibleToken"},
		ID:       []byte{0, 0, 0, 0, 0, 0, 0x12, 0x34},
		Kind:     1,
		TypeName: "A.f8d6e0586b0a20c7.FungibleToken.Vault",
		Fields: []Field{
			{Name: "uuid", Value: intValue(rng.Int64N(1 << 40))},
			{Name: "balance", Value: intValue(1_000_000_000)},
			{Name: "locked", Value: Value{Bool: new(bool)}},
		},
	}
	if items == 0 {
		return c
	}
	c.TypeName = "A.f8d6e0586b0a20c7.ExampleNFT.Collection"
	c.Location.Name = "ExampleNFT"
	dict := make(map[string]Value, items)
	for i := 0; i < items; i++ {
		dict[fmt.Sprintf("%d", 100000+i)] = Value{Composite: newItem(rng, i)}
	}
	c.Fields = append(c.Fields,
		Field{Name: "ownedNFTs", Value: Value{Dict: dict}},
		Field{Name: "owner", Value: strValue("0xf8d6e0586b0a20c7")},
	)
	return c
}

// newItem returns one nested composite of about 250 bytes encoded.
func newItem(rng *rand.Rand, i int) *Composite {
	thumb := make([]byte, 32)
	for j := range thumb {
		thumb[j] = byte(rng.Uint32())
	}
	tags := make([]Value, 3)
	for j := range tags {
		tags[j] = strValue(fmt.Sprintf("tag%d", rng.IntN(50)))
	}
	ok := i%2 == 0
	return &Composite{
		Location: Location{Address: Address{0xf8, 0xd6, 0xe0, 0x58, 0x6b, 0x0a, 0x20, 0xc7}, Name: "ExampleNFT"},
		ID:       []byte{0, 0, 0, 1, byte(i >> 16), byte(i >> 8), byte(i)},
		Kind:     2,
		TypeName: "A.f8d6e0586b0a20c7.ExampleNFT.NFT",
		Fields: []Field{
			{Name: "id", Value: intValue(int64(100000 + i))},
			{Name: "name", Value: strValue(fmt.Sprintf("Example #%d", i))},
			{Name: "thumbnail", Value: Value{Bytes: thumb}},
			{Name: "tradable", Value: Value{Bool: &ok}},
			{Name: "tags", Value: Value{Array: tags}},
			{Name: "royalties", Value: Value{Dict: map[string]Value{
				"creator": intValue(int64(rng.IntN(1000))),
				"market":  intValue(25),
			}}},
		},
	}
}

func intValue(v int64) Value  { return Value{Int: &v} }
func strValue(s string) Value { return Value{Str: &s} }
