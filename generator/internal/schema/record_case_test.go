package schema

import (
	"strings"
	"testing"
)

// TestRecordCases: a record with the cases and the unions chosen by
// content reads and writes back byte for byte.
func TestRecordCases(t *testing.T) {
	body := `cbor-gen schema 1

type Circle map case "circle"
Circle key Type "$type" string

type StakeReg required=2 nolegacy case 0
StakeReg 0 Kind "Kind" uint8
StakeReg 1 Cred "Cred" []byte

union Cert by=first StakeReg

union Shape by=key "$type" Circle
`
	rec, err := ParseRecord("cbor_gen.lock", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.types["Circle"].caseTok; got != `"circle"` {
		t.Errorf("Circle's case %s", got)
	}
	if u := rec.unions["Shape"]; u.by != `key "$type"` || len(u.variants) != 1 {
		t.Errorf("Shape: by %q, variants %q", u.by, u.variants)
	}
	out := string(formatRecord(rec, "cbor_gen.go"))
	if !strings.HasSuffix(out, body[len("cbor-gen schema 1\n"):]) {
		t.Errorf("written back:\n%s", out)
	}
	if _, err := ParseRecord("x", []byte("cbor-gen schema 1\n\ntype A map case x\n")); err == nil {
		t.Error("a case that is no constant was read")
	}
}
