package generator

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cborgen/cborgen/generator/internal/diag"
)

// Reading stored data from the schema record alone: -decode TYPE prints
// CBOR from standard input in diagnostic notation annotated with the
// record's slots, keys and variants; -cddl prints the record's types as
// CDDL. Neither loads the package: a directory with its cbor_gen.lock is
// enough. The work is in internal/diag; this file reads the record and
// the input.

// ReadConfig is a run of -decode or -cddl.
type ReadConfig struct {
	Decode string // the type (or union) to read standard input as
	Hex    bool   // the input is hex text (without it: hex when it looks like hex)
	Plain  bool   // diagnostic notation without the annotations
	CDDL   bool   // print the record's types as CDDL
	Dir    string // the package directory; "" means "."
	Output string // -o, beside which the record lies; "" means DefaultOutput in Dir
}

// BindReadFlags defines -decode, -hex, -plain and -cddl on fs.
func BindReadFlags(fs *flag.FlagSet, rc *ReadConfig) {
	fs.StringVar(&rc.Decode, "decode", "", "read CBOR from standard input as `TYPE` and print it in diagnostic notation, annotated from the schema record")
	fs.BoolVar(&rc.Hex, "hex", false, "with -decode: the input is hex text (default: hex when it looks like hex)")
	fs.BoolVar(&rc.Plain, "plain", false, "with -decode: plain diagnostic notation, without the annotations")
	fs.BoolVar(&rc.CDDL, "cddl", false, "print the types of the schema record as CDDL (RFC 8610)")
}

// Active reports whether rc asks for -decode or -cddl (or misuses -hex or
// -plain without them, which Read refuses).
func (rc ReadConfig) Active() bool { return rc.Decode != "" || rc.CDDL || rc.Hex || rc.Plain }

// maxInput is the most -decode reads from standard input.
const maxInput = 1 << 30

// Read runs rc: it reads the schema record, and for -decode the input
// from in, and writes the result to out. The error is a usage error, a
// record that is missing or does not parse, or input that the generated
// decoder refuses (its problems are written to out as comments and
// listed in the error); errors.Is(err, ErrRefused) tells the last apart.
func Read(rc ReadConfig, in io.Reader, out io.Writer) error {
	switch {
	case rc.CDDL && rc.Decode != "":
		return errors.New("-cddl and -decode cannot be combined")
	case rc.Decode == "" && (rc.Hex || rc.Plain):
		return errors.New("-hex and -plain go with -decode TYPE")
	}
	schema, lock, err := readSchema(rc.Dir, rc.Output)
	if err != nil {
		return err
	}
	if rc.CDDL {
		_, err := out.Write(diag.CDDL(schema, "schema record "+filepath.Base(lock)))
		return err
	}
	data, err := io.ReadAll(io.LimitReader(in, maxInput+1))
	if err != nil {
		return fmt.Errorf("reading standard input: %v", err)
	}
	if len(data) > maxInput {
		return fmt.Errorf("standard input holds more than %d bytes", maxInput)
	}
	if h, ok := diag.Hex(data); ok {
		data = h
	} else if rc.Hex {
		return errors.New("-hex: standard input is not hex text (pairs of hex digits, white space between them)")
	}
	w := bufio.NewWriter(out)
	res, err := diag.Decode(schema, rc.Decode, data, diag.Options{Plain: rc.Plain, Out: w})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("%s: %v", lock, err)
	}
	return refusal(rc.Decode, res)
}

// ErrRefused is the error of a -decode whose input the generated decoder
// of the type would refuse.
var ErrRefused = errors.New("the generated decoder refuses this input")

// refusal is the error of a result with problems, nil for one without.
func refusal(typ string, res *diag.Result) error {
	if res.OK() {
		return nil
	}
	var msgs []string
	switch {
	case res.Items == 0:
		msgs = append(msgs, "no CBOR item on standard input")
	case res.Err != nil:
		msgs = append(msgs, "not well-formed CBOR at "+res.Err.Error())
	}
	const most = 20
	for i, p := range res.Problems {
		if i == most {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(res.Problems)+res.More-most))
			break
		}
		msgs = append(msgs, p.String())
	}
	return fmt.Errorf("%w as %s:\n\t%s", ErrRefused, typ, strings.Join(msgs, "\n\t"))
}

// readSchema reads the schema record of the package in dir (beside the
// output file output) and returns it in diag's terms, with its path.
func readSchema(dir, output string) (*diag.Schema, string, error) {
	if dir == "" {
		dir = "."
	}
	if output == "" {
		output = filepath.Join(dir, DefaultOutput)
	}
	lock := LockPath(output)
	data, err := os.ReadFile(lock)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, lock, fmt.Errorf("no schema record at %s: it holds the types that -decode and -cddl read; run cbor-gen in the package first", lock)
	}
	if err != nil {
		return nil, lock, err
	}
	rec, err := parseRecord(lock, data)
	if err != nil {
		return nil, lock, err
	}
	return schemaOf(rec), lock, nil
}

// schemaOf converts a parsed record.
func schemaOf(rec *record) *diag.Schema {
	s := &diag.Schema{Types: map[string]*diag.Type{}, Unions: map[string]*diag.Union{}}
	for name, tr := range rec.types {
		t := &diag.Type{Name: name, Map: tr.mapFormat, Required: tr.required}
		if tr.tag != "" {
			n, _ := strconv.ParseUint(strings.TrimSuffix(tr.tag, "?"), 10, 64) // parseRecord checked it
			t.HasTag, t.Tag, t.TagOptional = true, n, strings.HasSuffix(tr.tag, "?")
		}
		for _, sr := range tr.slots {
			slot := diag.Slot{Reserved: sr.reserved, Name: sr.name, Kind: sr.kind}
			if sr.key != "" {
				slot.Key, slot.HasKey = diag.ParseKey(sr.key)
			}
			t.Slots = append(t.Slots, slot)
		}
		s.Types[name] = t
	}
	for name, ur := range rec.unions {
		s.Unions[name] = &diag.Union{Name: name, Variants: ur.variants}
	}
	return s
}
