package bench

import (
	"os"
	"strconv"
	"testing"
)

func TestCG(t *testing.T) {
	name := os.Getenv("CG_SHAPE")
	if name == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(os.Getenv("CG_N"))
	s := getShape(name)
	c := s.codec(implGenerated)
	data := s.legacy
	if os.Getenv("CG_OP") == "decode" {
		data, _ = c.encode(nil)
		data = append([]byte(nil), data...)
	}
	for i := 0; i < n; i++ {
		if err := c.decode(data); err != nil {
			t.Fatal(err)
		}
	}
}
