package genrt_test

import (
	"bytes"
	"errors"
	"sync"
	"testing"

	"github.com/cborgen/cborgen/runtime/genrt"
)

// TestSetDefaultOptionsConcurrent: decoders made while another goroutine
// changes the process defaults each take one set of options, whole: an
// item 40 deep is either refused at depth 32 or read at depth 64, and
// under the race detector nothing races.
func TestSetDefaultOptionsConcurrent(t *testing.T) {
	t.Cleanup(func() { genrt.SetDefaultOptions(genrt.Options{}) })
	item := append(bytes.Repeat([]byte{0x81}, 40), 0x00)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				d := genrt.NewBytesDecoder(item)
				max := d.Options().MaxDepth
				err := d.Skip()
				switch {
				case max == 64 && err == nil, max == genrt.DefaultMaxDepth && errors.Is(err, genrt.ErrLimit):
				default:
					errs <- err
					return
				}
				if s := genrt.NewDecoder(bytes.NewReader(item)); s.Options().MaxDepth != 64 && s.Options().MaxDepth != genrt.DefaultMaxDepth {
					errs <- errors.New("a stream decoder with other options")
					return
				}
			}
		}()
	}
	n := 2000
	if testing.Short() {
		n = 200
	}
	for i := range n {
		if i%2 == 0 {
			genrt.SetDefaultOptions(genrt.Options{MaxDepth: 64})
		} else {
			genrt.SetDefaultOptions(genrt.Options{})
		}
	}
	close(stop)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatalf("a decoder saw mixed options: %v", err)
	default:
	}
}

// TestSetDefaultOptionsFillsDefaults: the zero fields of the options set
// take the built-in defaults, and a small MaxStringLength holds for new
// decoders over a slice and over a stream.
func TestSetDefaultOptionsFillsDefaults(t *testing.T) {
	t.Cleanup(func() { genrt.SetDefaultOptions(genrt.Options{}) })
	genrt.SetDefaultOptions(genrt.Options{MaxStringLength: 4})
	o := genrt.NewBytesDecoder(nil).Options()
	if o.MaxStringLength != 4 || o.MaxDepth != genrt.DefaultMaxDepth || o.MaxArrayElements != genrt.DefaultMaxArrayElements {
		t.Fatalf("options %+v", o)
	}
	text := []byte{0x65, 'h', 'e', 'l', 'l', 'o'}
	if _, err := genrt.NewBytesDecoder(text).ReadString(); !errors.Is(err, genrt.ErrLimit) {
		t.Errorf("a 5-byte text under MaxStringLength 4 over a slice: %v", err)
	}
	if _, err := genrt.NewDecoder(bytes.NewReader(text)).ReadString(); !errors.Is(err, genrt.ErrLimit) {
		t.Errorf("over a stream: %v", err)
	}
	if s, ok := genrt.NewBytesDecoder(text).TryString(); ok {
		t.Errorf("TryString read %q past the limit", s)
	}
}

// optsProbe records the options of the decoder it is decoded with.
type optsProbe struct{ got genrt.Options }

func (p *optsProbe) DecodeCBOR(d *genrt.Decoder) error {
	p.got = d.Options()
	_, err := d.ReadUint64()
	return err
}

func (p *optsProbe) DecodeCBORBody(d *genrt.Decoder) error { return p.DecodeCBOR(d) }

// TestZeroOptionsTakeProcessDefaults: wherever options are taken, a zero
// field means what SetDefaultOptions set (a hook's Options{} keeps the
// program's MaxDepth 256), a field given wins, and the bools are on when
// either says so.
func TestZeroOptionsTakeProcessDefaults(t *testing.T) {
	t.Cleanup(func() { genrt.SetDefaultOptions(genrt.Options{}) })
	set := genrt.Options{MaxDepth: 256, MaxMapPairs: 9, Strict: true,
		DupMapKey: genrt.DupMapKeyEnforcedAPF, ExtraReturnErrors: genrt.ExtraDecErrorUnknownField}
	genrt.SetDefaultOptions(set)
	want := set
	want.MaxArrayElements, want.MaxStringLength = genrt.DefaultMaxArrayElements, genrt.DefaultMaxStringLength
	for _, tc := range []struct {
		name string
		give genrt.Options
		want genrt.Options
	}{
		{"zero", genrt.Options{}, want},
		{"depth given", genrt.Options{MaxDepth: 8}, func() genrt.Options { w := want; w.MaxDepth = 8; return w }()},
		{"modes given", genrt.Options{DupMapKey: genrt.DupMapKeyQuiet, ExtraReturnErrors: genrt.ExtraDecErrorNone},
			func() genrt.Options {
				w := want
				w.DupMapKey, w.ExtraReturnErrors = genrt.DupMapKeyQuiet, genrt.ExtraDecErrorNone
				return w
			}()},
		{"zero copy given", genrt.Options{ZeroCopy: true}, func() genrt.Options { w := want; w.ZeroCopy = true; return w }()},
	} {
		var p optsProbe
		if err := genrt.Unmarshal([]byte{0x01}, &p, tc.give); err != nil || p.got != tc.want {
			t.Errorf("%s: Unmarshal: %v, options %+v, want %+v", tc.name, err, p.got, tc.want)
		}
		p = optsProbe{}
		if err := genrt.UnmarshalBody([]byte{0x01}, &p, tc.give); err != nil || p.got != tc.want {
			t.Errorf("%s: UnmarshalBody: %v, options %+v, want %+v", tc.name, err, p.got, tc.want)
		}
		d := genrt.NewBytesDecoder(nil)
		d.SetOptions(tc.give)
		if got := d.Options(); got != tc.want {
			t.Errorf("%s: SetOptions: %+v, want %+v", tc.name, got, tc.want)
		}
		s := genrt.NewDecoder(bytes.NewReader(nil))
		s.SetOptions(tc.give)
		if got := s.Options(); got != tc.want {
			t.Errorf("%s: SetOptions over a stream: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if got := genrt.NewBytesDecoder(nil).Options(); got != want {
		t.Errorf("NewBytesDecoder: %+v, want %+v", got, want)
	}
	// Restoring the built-in defaults reaches the zero Options again.
	genrt.SetDefaultOptions(genrt.Options{})
	var p optsProbe
	if err := genrt.Unmarshal([]byte{0x01}, &p, genrt.Options{}); err != nil || p.got != genrt.DefaultOptions() {
		t.Errorf("after restoring: %v, %+v", err, p.got)
	}
}
