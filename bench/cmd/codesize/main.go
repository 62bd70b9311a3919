// Command codesize measures what the generated code costs a program that
// builds it: the lines written, the compiler's CPU time and peak memory,
// the package's archive, the linked binary per type and go vet's time,
// for cbor-gen and for msgp in tuple mode (//msgp:tuple, its default
// methods: the buffer and the streaming forms and Msgsize) on the same
// types.
//
//	cd bench && go run ./cmd/codesize -n 20,200
//
// For each N it writes two packages into temporary modules: "ten", N
// copies of a ten-field struct (uint64, string, int32, []byte, bool,
// []string, map[string]int64, a pointer to the next copy, time.Time,
// float64), and "two", N copies of a two-field struct (uint64, string).
// Each generator runs on each package; then, for each package:
//
//   - lines: the lines of the generated file;
//   - compile CPU and peak memory: the user+system time and the maximum
//     resident set of the one `compile` process that compiles the
//     package, from its rusage (go build -toolexec runs this command
//     around every tool; it records the compile of the measured package
//     and nothing else). A comment with a fresh number in the package
//     before each build makes go rebuild exactly that package;
//   - archive: the size of the object file that compile writes;
//   - binary per type: a main that calls every generated method of every
//     type through an interface, linked with -ldflags=-s -w (no symbol
//     table, no DWARF); the bytes of its loaded ELF sections (code, data,
//     the runtime's tables; the file's page padding left out) at N minus
//     those at one type, over N - 1;
//   - binary per type, byte methods: the same for a main that calls only
//     the methods between a value and a []byte (cbor-gen's MarshalCBOR
//     and UnmarshalCBOR, msgp's MarshalMsg and UnmarshalMsg), which
//     leaves the linker the streaming methods and the size method to
//     drop where nothing else calls them;
//   - vet: the user+system time of the vet process that checks the
//     package (go vet -toolexec, as for compile).
//
// Times and memory are the medians of -runs builds. The output is a
// markdown table per N: each measure for cbor-gen, for msgp and the
// ratio cbor-gen ÷ msgp.
//
// -gen picks the generators (cborgen, msgp or both); -repo the cbor-gen
// checkout whose generator and runtime are measured (another worktree,
// for a before and after); -gcflags passes compiler flags to the
// measured packages only (-gcflags=-l: without inlining); -cborgen-flags
// passes flags to cbor-gen (-cborgen-flags=-nolegacy: no legacy map
// decoders).
package main

import (
	"bytes"
	"debug/elf"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// recordEnv names the file that the command, run as a -toolexec wrapper,
// appends its records to; targetEnv the import path whose compile and vet
// it records.
const (
	recordEnv = "CODESIZE_RECORD"
	targetEnv = "CODESIZE_TARGET"
)

func main() {
	if os.Getenv(recordEnv) != "" {
		os.Exit(toolexec(os.Args[1:]))
	}
	var (
		nList = flag.String("n", "20,200", "comma-separated `list` of type counts")
		gens  = flag.String("gen", "cborgen,msgp", "comma-separated `list` of generators: cborgen, msgp")
		repo  = flag.String("repo", "..", "the cbor-gen checkout (`dir`) whose generator and runtime are measured")
		runs  = flag.Int("runs", 3, "builds per measure; times and memory are their medians")
		keep  = flag.Bool("keep", false, "keep the temporary modules and print where they are")
	)
	flag.StringVar(&gcflags, "gcflags", "", "compiler `flags` for the measured packages (-l: no inlining)")
	flag.StringVar(&cborgenFlags, "cborgen-flags", "", "space-separated `flags` for cbor-gen (-nolegacy: no legacy map decoders)")
	flag.Parse()
	var ns []int
	for _, f := range strings.Split(*nList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 {
			fatalf("-n: %q is not a count of at least 2", f)
		}
		ns = append(ns, n)
	}
	var gs []*generator
	for _, g := range strings.Split(*gens, ",") {
		switch strings.TrimSpace(g) {
		case "cborgen":
			gs = append(gs, &generator{name: "cbor-gen"})
		case "msgp":
			gs = append(gs, &generator{name: "msgp-tuple", msgp: true})
		default:
			fatalf("-gen: unknown generator %q (cborgen, msgp)", g)
		}
	}
	root, err := filepath.Abs(*repo)
	check(err)
	tmp, err := os.MkdirTemp("", "codesize")
	check(err)
	if *keep {
		fmt.Fprintln(os.Stderr, "codesize: the modules are in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	self, err := os.Executable()
	check(err)
	for _, g := range gs {
		check(g.setup(tmp, root))
	}
	fmt.Printf("Measured with %s, %s (%d builds per measure, medians)", goVersion(), time.Now().UTC().Format("2006-01-02"), *runs)
	if gcflags != "" {
		fmt.Printf(", -gcflags=%s", gcflags)
	}
	if cborgenFlags != "" {
		fmt.Printf(", cbor-gen %s", cborgenFlags)
	}
	fmt.Println(".")
	for _, n := range ns {
		results := map[string]map[string]*result{}
		for _, g := range gs {
			results[g.name] = map[string]*result{}
			for _, shape := range shapes {
				r, err := g.measure(self, shape, n, *runs)
				if err != nil {
					fatalf("%s, %s, N=%d: %v", g.name, shape.name, n, err)
				}
				results[g.name][shape.name] = r
			}
		}
		printTable(n, gs, results)
	}
}

// A shape is one of the measured packages.
type shape struct {
	name  string
	write func(w io.Writer, n int, msgp bool)
}

var shapes = []shape{
	{"ten", writeTen},
	{"two", writeTwo},
}

func writeTen(w io.Writer, n int, msgp bool) {
	fmt.Fprintf(w, "package ten\n\nimport \"time\"\n\n")
	if msgp {
		tupleDirective(w, "T", n)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `type T%d struct {
	A uint64
	B string
	C int32
	D []byte
	E bool
	F []string
	G map[string]int64
	H *T%d
	I time.Time
	J float64
}

`, i, (i+1)%n)
	}
}

func writeTwo(w io.Writer, n int, msgp bool) {
	fmt.Fprintf(w, "package two\n\n")
	if msgp {
		tupleDirective(w, "T", n)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, "type T%d struct {\n\tA uint64\n\tB string\n}\n\n", i)
	}
}

func tupleDirective(w io.Writer, prefix string, n int) {
	for i := 0; i < n; i += 50 {
		fmt.Fprint(w, "//msgp:tuple")
		for j := i; j < n && j < i+50; j++ {
			fmt.Fprintf(w, " %s%d", prefix, j)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// The methods that the measured main calls, per generator.
const (
	cborgenIface = `interface {
	MarshalCBOR() ([]byte, error)
	AppendCBOR([]byte) ([]byte, error)
	SizeCBOR() int
	UnmarshalCBOR([]byte) error
	DecodeCBOR(*runtime.Decoder) error
}`
	msgpIface = `interface {
	MarshalMsg([]byte) ([]byte, error)
	UnmarshalMsg([]byte) ([]byte, error)
	EncodeMsg(*msgp.Writer) error
	DecodeMsg(*msgp.Reader) error
	Msgsize() int
}`
	cborgenBytesIface = `interface {
	MarshalCBOR() ([]byte, error)
	UnmarshalCBOR([]byte) error
}`
	msgpBytesIface = `interface {
	MarshalMsg([]byte) ([]byte, error)
	UnmarshalMsg([]byte) ([]byte, error)
}`
)

// writeMain writes the main that calls the methods of n types of pkg:
// all of them, or with bytesOnly those between a value and a []byte.
func writeMain(w io.Writer, pkg string, n int, isMsgp, bytesOnly bool) {
	fmt.Fprintf(w, "package main\n\nimport (\n\t\"os\"\n\n\t\"codesize/%s\"\n", pkg)
	switch {
	case bytesOnly && isMsgp:
		fmt.Fprintf(w, ")\n\ntype codec %s\n\n", msgpBytesIface)
	case bytesOnly:
		fmt.Fprintf(w, ")\n\ntype codec %s\n\n", cborgenBytesIface)
	case isMsgp:
		fmt.Fprintf(w, "\t\"github.com/tinylib/msgp/msgp\"\n)\n\ntype codec %s\n\n", msgpIface)
	default:
		fmt.Fprintf(w, "\t\"github.com/cborgen/cborgen/runtime\"\n)\n\ntype codec %s\n\n", cborgenIface)
	}
	fmt.Fprintf(w, "var all = []codec{\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, "\tnew(%s.T%d),\n", pkg, i)
	}
	fmt.Fprintf(w, "}\n\nfunc main() {\n\tdata := []byte(os.Args[0])\n\tfor _, c := range all {\n")
	switch {
	case bytesOnly && isMsgp:
		fmt.Fprint(w, `		b, _ := c.MarshalMsg(nil)
		c.UnmarshalMsg(data)
		os.Stdout.Write(b)
`)
	case bytesOnly:
		fmt.Fprint(w, `		b, _ := c.MarshalCBOR()
		c.UnmarshalCBOR(data)
		os.Stdout.Write(b)
`)
	case isMsgp:
		fmt.Fprint(w, `		b, _ := c.MarshalMsg(nil)
		c.UnmarshalMsg(data)
		c.EncodeMsg(msgp.NewWriter(os.Stdout))
		c.DecodeMsg(msgp.NewReader(os.Stdin))
		os.Stdout.Write(b[:c.Msgsize()%1])
`)
	default:
		fmt.Fprint(w, `		b, _ := c.MarshalCBOR()
		b, _ = c.AppendCBOR(b)
		c.UnmarshalCBOR(data)
		c.DecodeCBOR(runtime.NewDecoder(os.Stdin))
		os.Stdout.Write(b[:c.SizeCBOR()%1])
`)
	}
	fmt.Fprint(w, "\t}\n}\n")
}

// A generator is one of the measured code generators with its module.
type generator struct {
	name string
	msgp bool
	bin  string // the generator's command
	dir  string // its module
}

func (g *generator) setup(tmp, root string) error {
	g.dir = filepath.Join(tmp, strings.ReplaceAll(g.name, "-", ""))
	if err := os.MkdirAll(g.dir, 0o755); err != nil {
		return err
	}
	g.bin = filepath.Join(tmp, "bin", strings.ReplaceAll(g.name, "-", ""))
	var gomod string
	if g.msgp {
		// msgp's command, built from the bench module's go.mod, and its
		// library at the same version.
		if err := run("", "go", "build", "-o", g.bin, "github.com/tinylib/msgp"); err != nil {
			return err
		}
		gomod = "module codesize\n\ngo 1.24.0\n\nrequire github.com/tinylib/msgp v1.6.5\n\nrequire github.com/philhofer/fwd v1.2.0 // indirect\n"
	} else {
		if err := run(root, "go", "build", "-o", g.bin, "./cmd/cbor-gen"); err != nil {
			return err
		}
		gomod = fmt.Sprintf("module codesize\n\ngo 1.24.0\n\nrequire github.com/cborgen/cborgen v0.0.0-00010101000000-000000000000\n\nrequire (\n\tgithub.com/fxamacker/cbor/v2 v2.10.0 // indirect\n\tgithub.com/x448/float16 v0.8.4 // indirect\n)\n\nreplace github.com/cborgen/cborgen => %s\n", root)
	}
	if err := os.WriteFile(filepath.Join(g.dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		return fmt.Errorf("run codesize in the bench module: %v", err)
	}
	return os.WriteFile(filepath.Join(g.dir, "go.sum"), sum, 0o644)
}

// A result holds the measures of one package.
type result struct {
	lines      int
	compileCPU time.Duration
	compileMem int64 // bytes
	archive    int64
	perType    float64 // bytes of binary per type
	// perTypeBytes: the same for the main that calls the byte methods only
	perTypeBytes float64
	vetCPU       time.Duration
}

// generate writes the package of n types and its generated code and
// returns the lines of the generated file.
func (g *generator) generate(s shape, n int) (int, error) {
	pkg := filepath.Join(g.dir, s.name)
	os.RemoveAll(pkg)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		return 0, err
	}
	var src bytes.Buffer
	s.write(&src, n, g.msgp)
	if err := os.WriteFile(filepath.Join(pkg, "types.go"), src.Bytes(), 0o644); err != nil {
		return 0, err
	}
	var out string
	if g.msgp {
		out = filepath.Join(pkg, "types_gen.go")
		if err := run(pkg, g.bin, "-file", "types.go", "-o", out, "-tests=false"); err != nil {
			return 0, err
		}
	} else {
		out = filepath.Join(pkg, "cbor_gen.go")
		if err := run(pkg, g.bin, append(strings.Fields(cborgenFlags), ".")...); err != nil {
			return 0, err
		}
	}
	text, err := os.ReadFile(out)
	if err != nil {
		return 0, err
	}
	return bytes.Count(text, []byte("\n")), nil
}

func (g *generator) writeMain(s shape, n int, bytesOnly bool) error {
	dir := filepath.Join(g.dir, "cmd", s.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var src bytes.Buffer
	writeMain(&src, s.name, n, g.msgp, bytesOnly)
	return os.WriteFile(filepath.Join(dir, "main.go"), src.Bytes(), 0o644)
}

// binarySizes generates the package with n types and returns the sizes of
// the linked mains: the one that calls every method and the one that calls
// the byte methods only.
func (g *generator) binarySizes(s shape, n int) (all, bytesOnly int64, err error) {
	if _, err := g.generate(s, n); err != nil {
		return 0, 0, err
	}
	if all, err = g.binarySize(s, n, false); err != nil {
		return 0, 0, err
	}
	bytesOnly, err = g.binarySize(s, n, true)
	return all, bytesOnly, err
}

// binarySize links the main of the package as it is on disk and returns
// the size of its loaded sections.
func (g *generator) binarySize(s shape, n int, bytesOnly bool) (int64, error) {
	if err := g.writeMain(s, n, bytesOnly); err != nil {
		return 0, err
	}
	bin := filepath.Join(g.dir, s.name+".bin")
	args := append([]string{"build", "-trimpath", "-ldflags=-s -w", "-o", bin}, buildFlags(s)...)
	if err := run(g.dir, "go", append(args, "./cmd/"+s.name)...); err != nil {
		return 0, err
	}
	f, err := elf.Open(bin)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var size int64
	for _, sec := range f.Sections {
		if sec.Flags&elf.SHF_ALLOC != 0 && sec.Type != elf.SHT_NOBITS {
			size += int64(sec.Size)
		}
	}
	return size, nil
}

var (
	nonce        int
	gcflags      string
	cborgenFlags string
)

// buildFlags are go build's flags for the package of s.
func buildFlags(s shape) []string {
	if gcflags == "" {
		return nil
	}
	return []string{"-gcflags=codesize/" + s.name + "=" + gcflags}
}

func (g *generator) measure(self string, s shape, n, runs int) (*result, error) {
	one, oneBytes, err := g.binarySizes(s, 1)
	if err != nil {
		return nil, err
	}
	full, fullBytes, err := g.binarySizes(s, n)
	if err != nil {
		return nil, err
	}
	r := &result{perType: float64(full-one) / float64(n-1), perTypeBytes: float64(fullBytes-oneBytes) / float64(n-1)}
	// The package at n types is on disk now; generate it again for its
	// line count (the same file).
	if r.lines, err = g.generate(s, n); err != nil {
		return nil, err
	}
	pkg := filepath.Join(g.dir, s.name)
	target := "codesize/" + s.name
	record := filepath.Join(g.dir, "record.json")
	var cpu, vet []time.Duration
	var mem []int64
	for i := 0; i < runs; i++ {
		nonce++
		if err := os.WriteFile(filepath.Join(pkg, "nonce.go"), []byte(fmt.Sprintf("package %s\n\n// build %d\n", s.name, nonce)), 0o644); err != nil {
			return nil, err
		}
		os.Remove(record)
		env := []string{recordEnv + "=" + record, targetEnv + "=" + target}
		args := append([]string{"build", "-toolexec", self}, buildFlags(s)...)
		if err := runEnv(g.dir, env, "go", append(args, "./"+s.name)...); err != nil {
			return nil, err
		}
		if err := runEnv(g.dir, env, "go", "vet", "-toolexec", self, "./"+s.name); err != nil {
			return nil, err
		}
		recs, err := readRecords(record)
		if err != nil {
			return nil, err
		}
		var sawCompile, sawVet bool
		for _, rec := range recs {
			switch rec.Tool {
			case "compile":
				sawCompile = true
				cpu = append(cpu, rec.CPU)
				mem = append(mem, rec.MaxRSS)
				r.archive = rec.Output
			case "vet":
				sawVet = true
				vet = append(vet, rec.CPU)
			}
		}
		if !sawCompile || !sawVet {
			return nil, fmt.Errorf("no compile or vet of %s was recorded (cached?)", target)
		}
	}
	r.compileCPU = median(cpu)
	r.compileMem = median(mem)
	r.vetCPU = median(vet)
	return r, nil
}

func median[T int64 | time.Duration](xs []T) T {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// A record is what the -toolexec wrapper writes for one tool run.
type record struct {
	Tool   string
	CPU    time.Duration
	MaxRSS int64 // bytes
	Output int64 // size of compile's -o file
}

func readRecords(path string) ([]record, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var recs []record
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var r record
		if err := dec.Decode(&r); err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// toolexec runs the tool in args as go build's -toolexec wrapper and,
// when it compiles or vets the target package, records its rusage.
func toolexec(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			fmt.Fprintln(os.Stderr, "codesize:", err)
			return 1
		}
	}
	tool := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	target := os.Getenv(targetEnv)
	var rec record
	switch tool {
	case "compile":
		if !hasArgPair(args, "-p", target) {
			return code
		}
		if out := argAfter(args, "-o"); out != "" {
			if st, err := os.Stat(out); err == nil {
				rec.Output = st.Size()
			}
		}
	case "vet":
		cfg := args[len(args)-1]
		data, err := os.ReadFile(cfg)
		if err != nil {
			return code
		}
		var c struct {
			ImportPath string
			VetxOnly   bool
		}
		if json.Unmarshal(data, &c) != nil || c.ImportPath != target || c.VetxOnly {
			return code
		}
	default:
		return code
	}
	rec.Tool = tool
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rec.CPU = time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime))
		rec.MaxRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	line, _ := json.Marshal(rec)
	f, err := os.OpenFile(os.Getenv(recordEnv), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		f.Write(append(line, '\n'))
		f.Close()
	}
	return code
}

func hasArgPair(args []string, flag, value string) bool {
	return argAfter(args, flag) == value
}

func argAfter(args []string, flag string) string {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == flag {
			return args[i+1]
		}
	}
	return ""
}

func printTable(n int, gs []*generator, results map[string]map[string]*result) {
	fmt.Printf("\n### N = %d\n\n", n)
	header := "| measure |"
	sep := "|---|"
	for _, s := range shapes {
		for _, g := range gs {
			header += fmt.Sprintf(" %s %s |", s.name, g.name)
			sep += "---:|"
		}
		if len(gs) == 2 {
			header += fmt.Sprintf(" %s ratio |", s.name)
			sep += "---:|"
		}
	}
	fmt.Println(header)
	fmt.Println(sep)
	rows := []struct {
		name  string
		value func(*result) float64
		show  func(float64) string
	}{
		{"generated lines", func(r *result) float64 { return float64(r.lines) }, func(x float64) string { return fmt.Sprintf("%.0f", x) }},
		{"compile CPU", func(r *result) float64 { return r.compileCPU.Seconds() }, func(x float64) string { return fmt.Sprintf("%.2f s", x) }},
		{"compiler peak memory", func(r *result) float64 { return float64(r.compileMem) }, func(x float64) string { return fmt.Sprintf("%.0f MB", x/1e6) }},
		{"archive", func(r *result) float64 { return float64(r.archive) }, func(x float64) string { return fmt.Sprintf("%.0f KB", x/1e3) }},
		{"binary per type", func(r *result) float64 { return r.perType }, func(x float64) string { return fmt.Sprintf("%.0f B", x) }},
		{"binary per type, byte methods", func(r *result) float64 { return r.perTypeBytes }, func(x float64) string { return fmt.Sprintf("%.0f B", x) }},
		{"go vet CPU", func(r *result) float64 { return r.vetCPU.Seconds() }, func(x float64) string { return fmt.Sprintf("%.2f s", x) }},
	}
	for _, row := range rows {
		line := "| " + row.name + " |"
		for _, s := range shapes {
			var vals []float64
			for _, g := range gs {
				v := row.value(results[g.name][s.name])
				vals = append(vals, v)
				line += " " + row.show(v) + " |"
			}
			if len(gs) == 2 {
				if vals[1] == 0 {
					line += " — |"
				} else {
					line += fmt.Sprintf(" %.2f× |", vals[0]/vals[1])
				}
			}
		}
		fmt.Println(line)
	}
}

func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return "go"
	}
	return strings.TrimSpace(string(out))
}

func run(dir, name string, args ...string) error {
	return runEnv(dir, nil, name, args...)
}

func runEnv(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.Bytes())
	}
	return nil
}

func check(err error) {
	if err != nil {
		fatalf("%v", err)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "codesize: "+format+"\n", args...)
	os.Exit(1)
}
