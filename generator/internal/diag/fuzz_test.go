package diag

import (
	"encoding/hex"
	"slices"
	"strings"
	"testing"
)

// FuzzDecode feeds any input to Decode as every type of the test record
// (alone, and with what the source adds),
// annotated and plain: it must never panic, must end within the input,
// and must write no more than a bounded amount of text per input byte.
// go test runs the seeds; make fuzz runs it for FUZZTIME.
func FuzzDecode(f *testing.F) {
	for _, c := range appendixA {
		b, _ := hex.DecodeString(c.hex)
		f.Add(b)
	}
	for _, h := range notWellFormed {
		b, _ := hex.DecodeString(h)
		f.Add(b)
	}
	for _, h := range []string{
		"85 63412d31 03 f6 f6 a1616b6176",
		"a5 63534b55 63412d31 65636f756e74 03 66636f75706f6e 6158 637a7a7a 01 656974656d73 82 c7820161 61 a2 02 6162 01 02",
		"ca 81 83 cb 01 82 01 02 f5",
		"84 c11a514b67b0 c249010000000000000000 c24101 42 0102",
		"a2 01 26 04 4101",
	} {
		b, _ := hex.DecodeString(strings.ReplaceAll(h, " ", ""))
		f.Add(b)
	}
	schemas := []*Schema{testSchema(), hintedSchema()}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range schemas {
			fuzzSchema(t, s, data)
		}
	})
}

// fuzzSchema runs Decode on data as every type of s.
func fuzzSchema(t *testing.T, s *Schema, data []byte) {
	for _, typ := range s.names() {
		for _, plainOut := range []bool{false, true} {
			res, err := Decode(s, typ, data, Options{Plain: plainOut})
			if err != nil {
				t.Fatal(err)
			}
			if res.Err != nil && (res.Err.Offset < 0 || res.Err.Offset > len(data)) {
				t.Fatalf("%s: error offset %d of %d bytes", typ, res.Err.Offset, len(data))
			}
			if limit := 512*len(data) + 4096; len(res.Text) > limit {
				t.Fatalf("%s: %d bytes of text for %d bytes of input", typ, len(res.Text), len(data))
			}
			if res.OK() && slices.ContainsFunc(res.Problems, func(Problem) bool { return true }) {
				t.Fatalf("%s: OK with problems", typ)
			}
		}
	}
}
