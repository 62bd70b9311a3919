package generator

import (
	"bytes"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/cborgen/cborgen/generator/internal/cache"
	"github.com/cborgen/cborgen/generator/internal/model"
)

// TestSettingsReachFlagsAndKey sets each field of Settings in turn and
// checks that the command line carries it (Args, read back by the
// command's flags, gives the same Settings) and that the cache key
// changes: a setting that shapes the output but missed the key would be
// a stale cache hit that -check cannot see.
func TestSettingsReachFlagsAndKey(t *testing.T) {
	zero := Settings{}.cacheKey()
	typ := reflect.TypeOf(Settings{})
	for i := range typ.NumField() {
		field := typ.Field(i)
		t.Run(field.Name, func(t *testing.T) {
			var s Settings
			v := reflect.ValueOf(&s).Elem().Field(i)
			switch v.Kind() {
			case reflect.String:
				v.SetString("x1")
			case reflect.Bool:
				v.SetBool(true)
			case reflect.Int:
				v.SetInt(7)
			case reflect.Slice:
				v.Set(reflect.ValueOf([]string{"x1", "x2"}))
			default:
				t.Fatalf("Settings.%s is a %s: teach this test, Args and BindFlags its kind", field.Name, v.Kind())
			}
			if bytes.Equal(s.cacheKey(), zero) {
				t.Errorf("Settings.%s does not change the cache key", field.Name)
			}
			args := Config{Settings: s}.Args()
			if len(args) == 0 {
				t.Fatalf("Settings.%s gives no flag in Args", field.Name)
			}
			fs := flag.NewFlagSet("cbor-gen", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			var back Config
			done := BindFlags(fs, &back)
			if err := fs.Parse(args); err != nil {
				t.Fatalf("the flags of Settings.%s, %q, do not parse: %v", field.Name, args, err)
			}
			done()
			got := reflect.ValueOf(back.Settings).Field(i).Interface()
			if !reflect.DeepEqual(got, v.Interface()) {
				t.Errorf("Settings.%s: %q reads back as %#v, want %#v", field.Name, args, got, v.Interface())
			}
		})
	}
	// The defaults the flags take are no setting at all.
	if !(Settings{Sort: "bytewise", Time: "unix", Float: "shortest"}).onlyTags() || (Settings{NilEmpty: true}).onlyTags() {
		t.Error("onlyTags disagrees with the flags' defaults")
	}
}

// TestFloatSetting: -float takes shortest or none, and refuses to pair
// none with the time modes that write floats (the runtime writes those
// in their shortest form, fxamacker under ShortestFloatNone in 9 bytes).
func TestFloatSetting(t *testing.T) {
	for _, s := range []Settings{{Float: "none"}, {Float: "shortest"}, {Float: "none", Time: "rfc3339"}} {
		if _, err := s.options(); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	for _, s := range []Settings{{Float: "half"}, {Float: "none", Time: "unixmicro"}, {Float: "none", Time: "unixdynamic"}} {
		if _, err := s.options(); err == nil || !strings.Contains(err.Error(), "-float") {
			t.Errorf("%+v: %v", s, err)
		}
	}
	if o, _ := (Settings{Float: "none"}).options(); !o.build.FloatNone {
		t.Error("-float none does not reach the builder")
	}
}

// TestPublicNames: the constants of the public API are those the stages
// use.
func TestPublicNames(t *testing.T) {
	if DefaultOutput != model.DefaultOutput || CacheEnv != cache.Env {
		t.Errorf("DefaultOutput %q, CacheEnv %q; the stages use %q, %q", DefaultOutput, CacheEnv, model.DefaultOutput, cache.Env)
	}
}
