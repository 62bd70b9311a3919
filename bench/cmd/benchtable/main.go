// Command benchtable renders the benchmark results as markdown tables:
// every shape and implementation with its median ns/op, B/op and allocs/op
// and its ratio to the generated code, then the performance targets of the
// project, each marked met or missed.
//
// It reads the CSV that benchstat writes for
//
//	benchstat -format csv -row .name,/op -col /impl results.txt
//
// and replaces the part of a markdown file between the lines
// "<!-- results:begin -->" and "<!-- results:end -->" (or the whole file
// when it has no such lines):
//
//	go run ./cmd/benchtable -csv results/benchstat.csv -o RESULTS.md
//
// With -docs FILE it also replaces the part of FILE between
// "<!-- summary:begin -->" and "<!-- summary:end -->" with the users'
// summary of the same run: the time per encode and decode of each shape
// against each peer, and the other operations against fxamacker/cbor
// (docs/performance.md).
package main

import (
	"bytes"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

const (
	beginMark = "<!-- results:begin -->"
	endMark   = "<!-- results:end -->"
)

// The markers of the summary in the users' documentation.
const (
	summaryBegin = "<!-- summary:begin -->"
	summaryEnd   = "<!-- summary:end -->"
)

// The implementations and shapes, in table order. Names not listed here
// follow in the order benchstat gives them.
var (
	implOrder  = []string{"generated", "generated-unsorted", "handwritten", "fxamacker", "fxamacker-map", "whyrusleeping", "msgp", "msgp-tuple", "mus", "gencode"}
	shapeOrder = []string{"Request", "Profile", "Graph", "Drawing", "Tables", "Counters", "CompositeSmall", "CompositeMedium", "CompositeLarge",
		"PersonText", "PersonUnix", "Union", "StoreDocument", "StoreDocumentReal", "SkipCompositeLarge", "SkipDocument"}
)

// results holds medians: unit -> "Shape Op" -> impl -> value.
type results struct {
	config []string // goos, goarch, cpu, ... lines
	values map[string]map[string]map[string]float64
	ci     map[string]map[string]map[string]string // sec/op confidence intervals
	shapes []string
	impls  []string
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchtable: ")
	in := flag.String("csv", "", "benchstat CSV `file` (default standard input)")
	out := flag.String("o", "", "markdown `file` to update (default standard output)")
	note := flag.String("note", "", "a line about the run, printed above the tables")
	docs := flag.String("docs", "", "markdown `file` whose summary part to update too")
	flag.Parse()

	var r io.Reader = os.Stdin
	if *in != "" {
		f, err := os.Open(*in)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		r = f
	}
	res, err := parse(r)
	if err != nil {
		log.Fatal(err)
	}
	var md bytes.Buffer
	render(&md, res, *note)
	if *out == "" {
		os.Stdout.Write(md.Bytes())
		return
	}
	if err := splice(*out, md.Bytes(), beginMark, endMark); err != nil {
		log.Fatal(err)
	}
	if *docs != "" {
		var sum bytes.Buffer
		summary(&sum, res, *note)
		if err := splice(*docs, sum.Bytes(), summaryBegin, summaryEnd); err != nil {
			log.Fatal(err)
		}
	}
}

// The shapes' names in the summary, and the peers it shows.
var (
	summaryNames = map[string]string{
		"Request":           "Request (8 scalars)",
		"Profile":           "Profile (10 optional)",
		"Graph":             "Graph (200 nodes, 400 edges)",
		"Drawing":           "Drawing (300 segments of points)",
		"Tables":            "Tables (containers of containers)",
		"Counters":          "Counters (100 sorted keys)",
		"CompositeSmall":    "Composite, 140 B",
		"CompositeMedium":   "Composite, 15 KB",
		"CompositeLarge":    "Composite, 750 KB",
		"PersonText":        "Person, time as RFC 3339 text",
		"PersonUnix":        "Person, time as integer nanoseconds",
		"Union":             "Union document, 27 KB",
		"StoreDocument":     "Store document, 790 KB (synthetic)",
		"StoreDocumentReal": "Store record, 776 KB (mainnet)",
	}
	summaryPeers = []string{"fxamacker", "whyrusleeping", "msgp-tuple", "mus", "gencode", "handwritten"}
)

// summary writes the users' table: per shape, the encode and decode
// times of the generated code and of each peer, with the peer's time
// over the generated code's; fxamacker is fxamacker-any where the shape
// has only that (the documents decoded into any). Then the other
// operations against fxamacker, as ranges over the shapes.
func summary(w io.Writer, r *results, note string) {
	peers := []string{}
	for _, p := range summaryPeers {
		for _, s := range r.shapes {
			if _, ok := r.get("sec/op", s, "Decode", p); ok {
				peers = append(peers, p)
				break
			}
		}
	}
	if note != "" {
		fmt.Fprintf(w, "%s\n\n", note)
	}
	fmt.Fprintf(w, "| shape | op | generated | %s |\n", strings.Join(peers, " | "))
	fmt.Fprintf(w, "|---|---|---:|%s\n", strings.Repeat("---:|", len(peers)))
	for _, s := range r.shapes {
		name, ok := summaryNames[s]
		if !ok {
			continue
		}
		for i, op := range []string{"Encode", "Decode"} {
			// A document whose peer is fxamacker into any compares
			// MarshalCBOR with its Marshal.
			gop := op
			_, fxEncode := r.get("sec/op", s, op, "fxamacker")
			if _, anyMarshal := r.get("sec/op", s, "Marshal", "fxamacker-any"); op == "Encode" && !fxEncode && anyMarshal {
				gop = "Marshal"
			}
			g, ok := r.get("sec/op", s, gop, "generated")
			if !ok {
				continue
			}
			label := name
			if i > 0 {
				label = ""
			}
			cells := []string{label, strings.ToLower(gop), dur(g)}
			for _, p := range peers {
				pop := gop
				v, ok := r.get("sec/op", s, pop, p)
				if !ok && p == "fxamacker" {
					v, ok = r.get("sec/op", s, pop, "fxamacker-any")
				}
				if !ok {
					cells = append(cells, "—")
					continue
				}
				cells = append(cells, fmt.Sprintf("%s (%s)", dur(v), ratio(v/g)))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	fmt.Fprintln(w, "\nOther operations in the same run, fxamacker's time over the generated code's:")
	fmt.Fprintln(w, "\n| operation | fxamacker's operation | lowest | highest |")
	fmt.Fprintln(w, "|---|---|---:|---:|")
	others := []struct{ what, peer, op, fop, fimpl string }{
		{"legacy map decode", "its own map decode", "DecodeLegacy", "Decode", "fxamacker-map"},
		{"decode from an `io.Reader`", "`Decoder.Decode`", "DecodeReader", "DecodeReader", "fxamacker"},
		{"`MarshalCBOR` into a new slice", "`Marshal`", "Marshal", "Marshal", "fxamacker"},
		{"`Decoder.Skip` over a slice", "`cbor.Wellformed`", "Skip", "Skip", "fxamacker"},
		{"`Decoder.Skip` over a stream", "`Decoder.Skip`", "SkipReader", "SkipReader", "fxamacker"},
		{"`runtime.Valid` (UTF-8, duplicate keys, tag content)", "`cbor.Wellformed`", "Valid", "Valid", "fxamacker"},
	}
	for _, o := range others {
		lo, hi := math.Inf(1), math.Inf(-1)
		var loS, hiS string
		for _, s := range r.shapes {
			g, ok1 := r.get("sec/op", s, o.op, "generated")
			f, ok2 := r.get("sec/op", s, o.fop, o.fimpl)
			if !ok1 || !ok2 {
				continue
			}
			if x := f / g; x < lo {
				lo, loS = x, s
			}
			if x := f / g; x > hi {
				hi, hiS = x, s
			}
		}
		if loS == "" {
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s (%s) | %s (%s) |\n", o.what, o.peer, ratio(lo), loS, ratio(hi), hiS)
	}
}

// parse reads benchstat's CSV: a few "key: value" lines, then one block
// per unit, each a row of column names (impls), a row of units, and one
// row per benchmark.
func parse(r io.Reader) (*results, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	res := &results{
		values: map[string]map[string]map[string]float64{},
		ci:     map[string]map[string]map[string]string{},
	}
	seenShape, seenImpl := map[string]bool{}, map[string]bool{}
	for _, block := range strings.Split(string(data), "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		for len(lines) > 0 && !strings.HasPrefix(lines[0], ",") {
			if l := strings.TrimSpace(lines[0]); l != "" && !strings.Contains(l, ",") {
				res.config = append(res.config, l)
			}
			lines = lines[1:]
		}
		if len(lines) < 2 {
			continue
		}
		cr := csv.NewReader(strings.NewReader(strings.Join(lines, "\n")))
		cr.FieldsPerRecord = -1
		rows, err := cr.ReadAll()
		if err != nil {
			return nil, err
		}
		head, units := rows[0], rows[1]
		// Each implementation's group starts at the column that names it;
		// its first column is the median in the block's unit.
		cols := map[int]string{}
		unit := ""
		for i := 1; i < len(head) && i < len(units); i++ {
			if head[i] != "" {
				cols[i] = head[i]
				unit = units[i]
				if !seenImpl[head[i]] {
					seenImpl[head[i]] = true
					res.impls = append(res.impls, head[i])
				}
			}
		}
		if res.values[unit] == nil {
			res.values[unit] = map[string]map[string]float64{}
			res.ci[unit] = map[string]map[string]string{}
		}
		for _, row := range rows[2:] {
			if len(row) == 0 || row[0] == "geomean" {
				continue
			}
			name := row[0]
			if sh, _, ok := strings.Cut(name, " "); ok && !seenShape[sh] {
				seenShape[sh] = true
				res.shapes = append(res.shapes, sh)
			}
			for i, impl := range cols {
				if i >= len(row) || row[i] == "" {
					continue
				}
				v, err := strconv.ParseFloat(row[i], 64)
				if err != nil {
					continue
				}
				if res.values[unit][name] == nil {
					res.values[unit][name] = map[string]float64{}
					res.ci[unit][name] = map[string]string{}
				}
				res.values[unit][name][impl] = v
				if i+1 < len(row) {
					res.ci[unit][name][impl] = row[i+1]
				}
			}
		}
	}
	if len(res.values["sec/op"]) == 0 {
		return nil, fmt.Errorf("no sec/op results in the input")
	}
	res.shapes = ordered(res.shapes, shapeOrder)
	res.impls = ordered(res.impls, implOrder)
	return res, nil
}

// ordered returns names in the order of pref, then the others as given.
func ordered(names, pref []string) []string {
	rank := map[string]int{}
	for i, n := range pref {
		rank[n] = i + 1
	}
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank[out[i]], rank[out[j]]
		if ri == 0 {
			ri = len(pref) + 1
		}
		if rj == 0 {
			rj = len(pref) + 1
		}
		return ri < rj
	})
	return out
}

func (r *results) get(unit, shape, op, impl string) (float64, bool) {
	v, ok := r.values[unit][shape+" "+op][impl]
	return v, ok
}

func render(w io.Writer, r *results, note string) {
	fmt.Fprintln(w, "Medians of the runs; the ratio is the implementation's time over the generated code's")
	fmt.Fprintln(w, "(above 1: the generated code is faster). `±` is benchstat's 95% confidence interval.")
	if note != "" {
		fmt.Fprintf(w, "\n%s\n", note)
	}
	if len(r.config) > 0 {
		fmt.Fprintf(w, "\n```\n%s\n```\n", strings.Join(r.config, "\n"))
	}

	for _, op := range []string{"Encode", "Decode"} {
		fmt.Fprintf(w, "\n### %s: time per operation\n\n", op)
		timeTable(w, r, op, r.impls)
		fmt.Fprintf(w, "\n### %s: bytes and allocations per operation\n\n", op)
		allocTable(w, r, op, r.impls)
	}

	fmt.Fprintln(w, "\n### Legacy map format: the generated decoder against fxamacker/cbor")
	fmt.Fprintln(w, "\nBoth decode the same bytes: fxamacker/cbor's default (map) encoding of the value.")
	fmt.Fprintln(w, "\n| shape | generated | fxamacker-map | ratio | generated B/op, allocs | fxamacker-map B/op, allocs |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|")
	for _, s := range r.shapes {
		g, ok1 := r.get("sec/op", s, "DecodeLegacy", "generated")
		f, ok2 := r.get("sec/op", s, "Decode", "fxamacker-map")
		if !ok1 || !ok2 {
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", s, dur(g), dur(f), ratio(f/g),
			allocCell(r, s, "DecodeLegacy", "generated"), allocCell(r, s, "Decode", "fxamacker-map"))
	}

	for _, op := range []string{"DecodeReader", "Marshal", "DecodeZeroCopy", "Total", "TotalZeroCopy", "MarshalUnmarshal", "Skip", "SkipReader", "Valid"} {
		impls := r.implsWith(op)
		if len(impls) == 0 {
			continue
		}
		title := map[string]string{
			"DecodeReader":   "Decode from an io.Reader (one value after another from a stream)",
			"Marshal":        "Marshal: encode into a new slice",
			"DecodeZeroCopy": "Decode with strings aliasing the input (generated: runtime.Unmarshal with ZeroCopy; mus: its unsafe serializers)",
			"Total":          "Total: encode into a reused buffer, then decode those bytes",
			"TotalZeroCopy":  "Total with the zero-copy decode",
			"MarshalUnmarshal": "Marshal into a new slice, then unmarshal it (the public benchmark's plain entries: " +
				"MarshalCBOR and UnmarshalCBOR; msgp's MarshalMsg(nil) and UnmarshalMsg)",
			"Skip":       "Skip a whole document over a slice (fxamacker: cbor.Wellformed)",
			"SkipReader": "Skip one document after another from an io.Reader (fxamacker: Decoder.Skip)",
			"Valid":      "runtime.Valid (UTF-8, duplicate keys, tag content) against fxamacker's cbor.Wellformed",
		}[op]
		fmt.Fprintf(w, "\n### %s\n\n", title)
		timeTable(w, r, op, impls)
		fmt.Fprintln(w)
		allocTable(w, r, op, impls)
	}

	targets(w, r)
}

// implsWith lists the implementations that have results for op.
func (r *results) implsWith(op string) []string {
	var out []string
	for _, impl := range r.impls {
		for _, s := range r.shapes {
			if _, ok := r.get("sec/op", s, op, impl); ok {
				out = append(out, impl)
				break
			}
		}
	}
	return out
}

func timeTable(w io.Writer, r *results, op string, impls []string) {
	header(w, impls)
	for _, s := range r.shapes {
		g, hasGen := r.get("sec/op", s, op, "generated")
		cells := []string{s}
		found := false
		for _, impl := range impls {
			v, ok := r.get("sec/op", s, op, impl)
			if !ok {
				cells = append(cells, "—")
				continue
			}
			found = true
			c := dur(v)
			if ci := r.ci["sec/op"][s+" "+op][impl]; ci != "" && ci != "∞" {
				c += " ±" + ci
			}
			if hasGen && impl != "generated" {
				c += " (" + ratio(v/g) + ")"
			}
			cells = append(cells, c)
		}
		if found {
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
}

func allocTable(w io.Writer, r *results, op string, impls []string) {
	header(w, impls)
	for _, s := range r.shapes {
		cells := []string{s}
		found := false
		for _, impl := range impls {
			c := allocCell(r, s, op, impl)
			if c != "—" {
				found = true
			}
			cells = append(cells, c)
		}
		if found {
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	if op == "Decode" {
		fmt.Fprintln(w, "\nHeap objects the decoded values hold (a lower bound for any decoder; maps counted once):")
		var parts []string
		for _, s := range r.shapes {
			if v, ok := r.get("held-objects", s, op, "generated"); ok {
				parts = append(parts, fmt.Sprintf("%s %d", s, int(v)))
			}
		}
		fmt.Fprintf(w, "%s.\n", strings.Join(parts, ", "))
	}
}

func header(w io.Writer, impls []string) {
	fmt.Fprintf(w, "| shape | %s |\n", strings.Join(impls, " | "))
	fmt.Fprintf(w, "|---|%s\n", strings.Repeat("---:|", len(impls)))
}

func allocCell(r *results, s, op, impl string) string {
	b, ok1 := r.get("B/op", s, op, impl)
	a, ok2 := r.get("allocs/op", s, op, impl)
	if !ok1 || !ok2 {
		return "—"
	}
	return fmt.Sprintf("%s B, %s", size(b), count(a))
}

// targets checks the goals of the project, shape by shape.
func targets(w io.Writer, r *results) {
	type check struct {
		name string
		eval func(s string) (string, bool, bool) // cell, met, applicable
	}
	faster := func(op, peer string, want float64) func(s string) (string, bool, bool) {
		return func(s string) (string, bool, bool) {
			g, ok1 := r.get("sec/op", s, op, "generated")
			p, ok2 := r.get("sec/op", s, op, peer)
			if !ok1 || !ok2 {
				return "", false, false
			}
			return ratio(p / g), p/g >= want, true
		}
	}
	within := func(op string, limit float64) func(s string) (string, bool, bool) {
		return func(s string) (string, bool, bool) {
			g, ok1 := r.get("sec/op", s, op, "generated")
			h, ok2 := r.get("sec/op", s, op, "handwritten")
			if !ok1 || !ok2 {
				return "", false, false
			}
			return ratio(g / h), g/h <= limit, true
		}
	}
	checks := []check{
		{"Encode: 0 allocs", func(s string) (string, bool, bool) {
			a, ok := r.get("allocs/op", s, "Encode", "generated")
			return count(a), a == 0, ok
		}},
		{"Encode ≥5× fxamacker", faster("Encode", "fxamacker", 5)},
		{"Encode ≥3× whyrusleeping", faster("Encode", "whyrusleeping", 3)},
		{"Encode ≤ msgp-tuple", faster("Encode", "msgp-tuple", 1)},
		{"Encode ≤ msgp-tuple, both unsorted", func(s string) (string, bool, bool) {
			u, ok1 := r.get("sec/op", s, "Encode", "generated-unsorted")
			m, ok2 := r.get("sec/op", s, "Encode", "msgp-tuple")
			if !ok1 || !ok2 {
				return "", false, false
			}
			return ratio(m / u), m >= u, true
		}},
		{"Encode ≤1.2× hand", within("Encode", 1.2)},
		{"Decode ≥3× fxamacker", faster("Decode", "fxamacker", 3)},
		{"Decode ≥2× whyrusleeping", faster("Decode", "whyrusleeping", 2)},
		{"Decode ≤ msgp-tuple", faster("Decode", "msgp-tuple", 1)},
		{"Decode ≤1.3× hand", within("Decode", 1.3)},
		{"Decode allocs < every peer", func(s string) (string, bool, bool) {
			g, ok := r.get("allocs/op", s, "Decode", "generated")
			if !ok {
				return "", false, false
			}
			least, who := math.Inf(1), ""
			for _, impl := range r.impls {
				if impl == "generated" || impl == "handwritten" {
					continue
				}
				if a, ok := r.get("allocs/op", s, "Decode", impl); ok && a < least {
					least, who = a, impl
				}
			}
			return fmt.Sprintf("%s vs %s (%s)", count(g), count(least), who), g < least, true
		}},
		{"Decode allocs = held", func(s string) (string, bool, bool) {
			g, ok1 := r.get("allocs/op", s, "Decode", "generated")
			h, ok2 := r.get("held-objects", s, "Decode", "generated")
			if !ok1 || !ok2 {
				return "", false, false
			}
			return fmt.Sprintf("%s / %s", count(g), count(h)), g <= h, true
		}},
		{"Skip ≥1.25× fxamacker Wellformed", faster("Skip", "fxamacker", 1.25)},
		{"Skip (stream) ≥0.8× fxamacker", faster("SkipReader", "fxamacker", 0.8)},
		{"Valid ≥0.8× fxamacker Wellformed", faster("Valid", "fxamacker", 0.8)},
		{"Legacy ≥2× fxamacker", func(s string) (string, bool, bool) {
			g, ok1 := r.get("sec/op", s, "DecodeLegacy", "generated")
			f, ok2 := r.get("sec/op", s, "Decode", "fxamacker-map")
			if !ok1 || !ok2 {
				return "", false, false
			}
			return ratio(f / g), f >= 2*g, true
		}},
	}
	fmt.Fprintln(w, "\n### Targets")
	fmt.Fprintln(w, "\nPer shape: the measured ratio (peer time / generated time; for \"hand\", generated / hand-written),")
	fmt.Fprintln(w, "or allocations. ✅ met, ❌ missed, blank: the peer does not support the shape.")
	fmt.Fprintln(w, "\n| target | "+strings.Join(r.shapes, " | ")+" |")
	fmt.Fprintln(w, "|---|"+strings.Repeat("---|", len(r.shapes)))
	for _, c := range checks {
		cells := []string{c.name}
		for _, s := range r.shapes {
			cell, met, ok := c.eval(s)
			switch {
			case !ok:
				cells = append(cells, "")
			case met:
				cells = append(cells, "✅ "+cell)
			default:
				cells = append(cells, "❌ "+cell)
			}
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

func dur(sec float64) string {
	ns := sec * 1e9
	switch {
	case ns < 1e3:
		return fmt.Sprintf("%.0f ns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	}
}

func ratio(x float64) string { return fmt.Sprintf("%.2f×", x) }

func size(b float64) string {
	switch {
	case b < 1<<10:
		return fmt.Sprintf("%.0f", b)
	case b < 1<<20:
		return fmt.Sprintf("%.1f Ki", b/(1<<10))
	default:
		return fmt.Sprintf("%.1f Mi", b/(1<<20))
	}
}

func count(a float64) string { return strconv.FormatFloat(a, 'f', -1, 64) }

// splice writes md between the markers begin and end of file, or as the
// whole file.
func splice(file string, md []byte, beginMark, endMark string) error {
	old, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var out bytes.Buffer
	b, rest, ok1 := bytes.Cut(old, []byte(beginMark))
	_, after, ok2 := bytes.Cut(rest, []byte(endMark))
	if ok1 && ok2 {
		out.Write(b)
		out.WriteString(beginMark + "\n\n")
		out.Write(md)
		out.WriteString("\n" + endMark)
		out.Write(after)
	} else {
		out.WriteString(beginMark + "\n\n")
		out.Write(md)
		out.WriteString("\n" + endMark + "\n")
	}
	return os.WriteFile(file, out.Bytes(), 0o666)
}
