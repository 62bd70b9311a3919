package runtime_test

import (
	"bytes"
	"errors"
	"sync"
	"testing"

	"github.com/cborgen/cborgen/runtime"
)

// TestSetDefaultOptionsConcurrent: decoders made while another goroutine
// changes the process defaults each take one set of options, whole: an
// item 40 deep is either refused at depth 32 or read at depth 64, and
// under the race detector nothing races.
func TestSetDefaultOptionsConcurrent(t *testing.T) {
	t.Cleanup(func() { runtime.SetDefaultOptions(runtime.Options{}) })
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
				d := runtime.NewBytesDecoder(item)
				max := d.Options().MaxDepth
				err := d.Skip()
				switch {
				case max == 64 && err == nil, max == runtime.DefaultMaxDepth && errors.Is(err, runtime.ErrLimit):
				default:
					errs <- err
					return
				}
				if s := runtime.NewDecoder(bytes.NewReader(item)); s.Options().MaxDepth != 64 && s.Options().MaxDepth != runtime.DefaultMaxDepth {
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
			runtime.SetDefaultOptions(runtime.Options{MaxDepth: 64})
		} else {
			runtime.SetDefaultOptions(runtime.Options{})
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
	t.Cleanup(func() { runtime.SetDefaultOptions(runtime.Options{}) })
	runtime.SetDefaultOptions(runtime.Options{MaxStringLength: 4})
	o := runtime.NewBytesDecoder(nil).Options()
	if o.MaxStringLength != 4 || o.MaxDepth != runtime.DefaultMaxDepth || o.MaxArrayElements != runtime.DefaultMaxArrayElements {
		t.Fatalf("options %+v", o)
	}
	text := []byte{0x65, 'h', 'e', 'l', 'l', 'o'}
	if _, err := runtime.NewBytesDecoder(text).ReadString(); !errors.Is(err, runtime.ErrLimit) {
		t.Errorf("a 5-byte text under MaxStringLength 4 over a slice: %v", err)
	}
	if _, err := runtime.NewDecoder(bytes.NewReader(text)).ReadString(); !errors.Is(err, runtime.ErrLimit) {
		t.Errorf("over a stream: %v", err)
	}
	if s, ok := runtime.NewBytesDecoder(text).TryString(); ok {
		t.Errorf("TryString read %q past the limit", s)
	}
}

// optsProbe records the options of the decoder it is decoded with.
type optsProbe struct{ got runtime.Options }

func (p *optsProbe) DecodeCBOR(d *runtime.Decoder) error {
	p.got = d.Options()
	_, err := d.ReadUint64()
	return err
}

func (p *optsProbe) DecodeCBORBody(d *runtime.Decoder) error { return p.DecodeCBOR(d) }

// TestZeroOptionsTakeProcessDefaults: wherever options are taken, a zero
// field means what SetDefaultOptions set (a hook's Options{} keeps the
// program's MaxDepth 256), a field given wins, and the bools are on when
// either says so.
func TestZeroOptionsTakeProcessDefaults(t *testing.T) {
	t.Cleanup(func() { runtime.SetDefaultOptions(runtime.Options{}) })
	set := runtime.Options{MaxDepth: 256, MaxMapPairs: 9, Strict: true,
		DupMapKey: runtime.DupMapKeyEnforcedAPF, ExtraReturnErrors: runtime.ExtraDecErrorUnknownField}
	runtime.SetDefaultOptions(set)
	want := set
	want.MaxArrayElements, want.MaxStringLength = runtime.DefaultMaxArrayElements, runtime.DefaultMaxStringLength
	for _, tc := range []struct {
		name string
		give runtime.Options
		want runtime.Options
	}{
		{"zero", runtime.Options{}, want},
		{"depth given", runtime.Options{MaxDepth: 8}, func() runtime.Options { w := want; w.MaxDepth = 8; return w }()},
		{"modes given", runtime.Options{DupMapKey: runtime.DupMapKeyQuiet, ExtraReturnErrors: runtime.ExtraDecErrorNone},
			func() runtime.Options {
				w := want
				w.DupMapKey, w.ExtraReturnErrors = runtime.DupMapKeyQuiet, runtime.ExtraDecErrorNone
				return w
			}()},
		{"zero copy given", runtime.Options{ZeroCopy: true}, func() runtime.Options { w := want; w.ZeroCopy = true; return w }()},
	} {
		var p optsProbe
		if err := runtime.Unmarshal([]byte{0x01}, &p, tc.give); err != nil || p.got != tc.want {
			t.Errorf("%s: Unmarshal: %v, options %+v, want %+v", tc.name, err, p.got, tc.want)
		}
		p = optsProbe{}
		if err := runtime.UnmarshalBody([]byte{0x01}, &p, tc.give); err != nil || p.got != tc.want {
			t.Errorf("%s: UnmarshalBody: %v, options %+v, want %+v", tc.name, err, p.got, tc.want)
		}
		d := runtime.NewBytesDecoder(nil)
		d.SetOptions(tc.give)
		if got := d.Options(); got != tc.want {
			t.Errorf("%s: SetOptions: %+v, want %+v", tc.name, got, tc.want)
		}
		s := runtime.NewDecoder(bytes.NewReader(nil))
		s.SetOptions(tc.give)
		if got := s.Options(); got != tc.want {
			t.Errorf("%s: SetOptions over a stream: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if got := runtime.NewBytesDecoder(nil).Options(); got != want {
		t.Errorf("NewBytesDecoder: %+v, want %+v", got, want)
	}
	// Restoring the built-in defaults reaches the zero Options again.
	runtime.SetDefaultOptions(runtime.Options{})
	var p optsProbe
	if err := runtime.Unmarshal([]byte{0x01}, &p, runtime.Options{}); err != nil || p.got != runtime.DefaultOptions() {
		t.Errorf("after restoring: %v, %+v", err, p.got)
	}
}
