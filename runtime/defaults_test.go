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
