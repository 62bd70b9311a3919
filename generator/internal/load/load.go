package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/cborgen/cborgen/generator/internal/model"
)

// LoadMode asks go/packages for what the modeler needs and nothing more.
const LoadMode = packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo |
	packages.NeedSyntax | packages.NeedFiles

// Package is a type-checked package and where its generated file goes.
type Package struct {
	Pkg     *packages.Package
	Support []*packages.Package // the runtime packages, for the type check of the output
	Dir     string              // absolute package directory
	OutPath string              // absolute output file path
	Flags   []string            // the go command's build flags of the run (its -tags)
	// Others are the Go files of the directory that the type check does
	// not see, parsed into Pkg.Fset: the test files (of the package and
	// of its external _test package) and the files its build
	// constraints leave out in this build configuration.
	Others []*File
	// FromSource says that the dependencies were type-checked from
	// source, not read from export data: the build cache did not have
	// it (see loadFirst), or a dependency did not compile.
	FromSource bool
}

// Load finds the package named by pattern ("" is ".") and type-checks it
// with the build tags tags, for the output file output ("" is
// DefaultOutput in the package directory), leaving
// the command's own output file out, so that a stale or broken earlier
// output never stops its own regeneration: the output's syntax is replaced
// by its bare package clause as it is parsed (Config.ParseFile, not an
// overlay: with an overlay go/packages type-checks every dependency from
// source, five times slower than reading their export data). The go
// command, which go/packages runs, sees the same bare clause through an
// overlay of its own (stubOverlay).
//
// The runtime packages that generated code imports are loaded beside it,
// so that the output can be type-checked before it is written (see
// package finish); they come from the same load so that the types they
// share with the package (time.Time, ...) are identical.
//
// Type errors that only the generated methods' absence causes (the
// package calls r.MarshalCBOR before its first generation, or a method of
// another package that is generated later in the same go generate ./...)
// are tolerated; every other error stops the run. When a dependency does
// not compile for that reason, it has no export data, and the package is
// loaded again with its dependencies type-checked from source.
//
// cold says that the build cache is known to lack the dependencies'
// export data: the dependencies are then type-checked from source at
// once (see loadFirst).
func Load(pattern, output string, tags []string, cold bool) (*Package, error) {
	if pattern == "" {
		pattern = "."
	}
	buildFlags := TagFlags(tags)

	dir, err := PackageDir(pattern, buildFlags)
	if err != nil {
		return nil, err
	}
	out, err := OutputPath(dir, output)
	if err != nil {
		return nil, err
	}

	pcfg := &packages.Config{
		Mode:       LoadMode,
		Dir:        dir,
		BuildFlags: buildFlags,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			if filename == out {
				name, err := packageName(out, dir, src)
				if err != nil {
					return nil, err
				}
				src = []byte("package " + name + "\n")
			}
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		},
	}
	// The go command compiles the package itself too, for export data
	// that go/packages then does not use (it type-checks the package from
	// source): with the old output in it, that compile costs as much as
	// building the package does (most of it the output, which a changed
	// type makes stale and the cache misses). The go command is shown a
	// bare package clause instead, through an overlay of its own that
	// go/packages does not know of, so that it still reads the
	// dependencies from export data.
	if flag, cleanup, err := StubOverlay(out, dir); err == nil && flag != "" {
		defer cleanup()
		pcfg.BuildFlags = append(buildFlags[:len(buildFlags):len(buildFlags)], flag)
	}
	if cold {
		pcfg.Mode |= packages.NeedDeps | packages.NeedImports
	}
	l, err := loadFirst(pcfg, dir, out)
	if err != nil && errors.Is(err, errDependency) {
		pcfg.Mode |= packages.NeedDeps | packages.NeedImports
		l, err = loadWith(pcfg, dir, out)
	}
	if err != nil {
		// The go command itself may trip over the old output (another
		// package clause, say): show it a bare package clause instead,
		// the slow way.
		if src, rerr := os.ReadFile(out); rerr == nil {
			if name, nerr := packageName(out, dir, src); nerr == nil {
				pcfg.Overlay = map[string][]byte{out: []byte("package " + name + "\n")}
				pcfg.BuildFlags = buildFlags // go/packages passes its own overlay
				if l2, err2 := loadWith(pcfg, dir, out); err2 == nil {
					return l2, nil
				}
			}
		}
	}
	return l, err
}

// OutputPath is the absolute path of the output file output ("" is
// DefaultOutput in the package directory dir).
func OutputPath(dir, output string) (string, error) {
	if output == "" {
		output = filepath.Join(dir, model.DefaultOutput)
	}
	return filepath.Abs(output)
}

// StubOverlay writes an overlay for the go command (its -overlay flag)
// that replaces the output file out, if there is one, with a bare package
// clause, and returns the flag and a function that removes the files.
func StubOverlay(out, dir string) (flag string, cleanup func(), err error) {
	src, err := os.ReadFile(out)
	if err != nil {
		return "", nil, err
	}
	name, err := packageName(out, dir, src)
	if err != nil {
		return "", nil, err
	}
	tmp, err := os.MkdirTemp("", "cbor-gen-overlay")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	stub := filepath.Join(tmp, "stub.go")
	replace, err := json.Marshal(map[string]map[string]string{"Replace": {out: stub}})
	if err == nil {
		err = os.WriteFile(stub, []byte("package "+name+"\n"), 0o644)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(tmp, "overlay.json"), replace, 0o644)
	}
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return "-overlay=" + filepath.Join(tmp, "overlay.json"), cleanup, nil
}

// TagFlags are the go command's flags for the build tags of a run.
func TagFlags(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	return []string{"-tags=" + strings.Join(tags, ",")}
}

// errDependency marks a load that failed because a dependency could not
// be imported.
var errDependency = errors.New("a dependency could not be imported")

func loadWith(pcfg *packages.Config, dir, out string) (*Package, error) {
	pkgs, err := goLoad(pcfg, append([]string{"."}, model.SupportPaths...)...)
	if err != nil {
		return nil, err
	}
	var main *packages.Package
	var support []*packages.Package
	for _, p := range pkgs {
		switch {
		case model.IsSupport(p.PkgPath) || (len(p.GoFiles) == 0 && len(p.Errors) > 0 && model.IsSupport(p.ID)):
			support = append(support, p)
		case main != nil:
			return nil, fmt.Errorf("%s: found more than one package", model.RelPath(dir))
		default:
			main = p
		}
	}
	if main == nil {
		if err := packageErrors(pkgs, out); err != nil {
			return nil, err
		}
		if err := goListError(pcfg, []string{"."}); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: no Go package found", model.RelPath(dir))
	}
	if err := packageErrors([]*packages.Package{main}, out); err != nil {
		return nil, err
	}
	// The flags without the load's own -overlay, whose files go with it.
	flags := slices.DeleteFunc(slices.Clone(pcfg.BuildFlags), func(f string) bool { return strings.HasPrefix(f, "-overlay=") })
	seen := map[string]bool{out: true}
	for _, f := range append(append([]string{}, main.GoFiles...), main.CompiledGoFiles...) {
		seen[f] = true
	}
	left := map[string]bool{}
	for _, f := range main.IgnoredFiles {
		left[f] = true
	}
	others := ParseFiles(main.Fset, dir, seen, left)
	return &Package{Pkg: main, Support: support, Dir: dir, OutPath: out, Flags: flags, Others: others,
		FromSource: pcfg.Mode&packages.NeedDeps != 0}, nil
}

// PackageDir returns the directory of the one package pattern names.
// A directory is taken as it is; anything else goes to the go command.
func PackageDir(pattern string, buildFlags []string) (string, error) {
	if fi, err := os.Stat(pattern); err == nil && fi.IsDir() {
		return filepath.Abs(pattern)
	}
	pkgs, err := goLoad(&packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles,
		BuildFlags: buildFlags,
	}, pattern)
	if err != nil {
		return "", err
	}
	if len(pkgs) != 1 {
		return "", fmt.Errorf("pattern %q matches %d packages; run cbor-gen once per package", pattern, len(pkgs))
	}
	p := pkgs[0]
	files := append(append([]string{}, p.GoFiles...), p.IgnoredFiles...)
	if len(files) == 0 {
		if err := packageErrors(pkgs, ""); err != nil {
			return "", err
		}
		return "", fmt.Errorf("pattern %q: no Go files found", pattern)
	}
	return filepath.Dir(files[0]), nil
}

// packageName returns the package name for the stand-in of the output
// file: the name most other Go files in dir declare, or failing that the
// output's own package clause.
func packageName(out, dir string, src []byte) (string, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	count := map[string]int{}
	best := ""
	for _, e := range entries {
		name := filepath.Join(dir, e.Name())
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == out {
			continue
		}
		if f, err := parser.ParseFile(fset, name, nil, parser.PackageClauseOnly); err == nil {
			pkg := f.Name.Name
			count[pkg]++
			if best == "" || count[pkg] > count[best] {
				best = pkg
			}
		}
	}
	if best != "" {
		return best, nil
	}
	if f, err := parser.ParseFile(fset, out, src, parser.PackageClauseOnly); err == nil {
		return f.Name.Name, nil
	}
	return "", fmt.Errorf("%s: cannot tell the package name: no other Go file in %s and its own package clause does not parse", model.RelPath(out), model.RelPath(dir))
}

// MissingGenerated matches the type errors that only the absence of the
// generated methods causes: a call of one (r.MarshalCBOR undefined, or
// r.AppendCBORBody in the hook of a //cborgen:body type), or a
// type that does not yet implement an interface made of them.
var MissingGenerated = regexp.MustCompile(`(has no field or method|missing method) (MarshalCBOR|UnmarshalCBOR|AppendCBOR|DecodeCBOR|SizeCBOR)(Body)?\b`)

// missingUnionFunc matches a call of one of the functions generated for a
// //cborgen:union interface (MarshalValueCBOR) before they exist.
var missingUnionFunc = regexp.MustCompile(`^undefined: (Append|Size|Decode|Marshal|Unmarshal)[A-Z]\w*CBOR$`)

// tolerated reports whether the type error msg is one that generation
// itself cures.
func tolerated(msg string) bool {
	return MissingGenerated.MatchString(msg) || missingUnionFunc.MatchString(msg)
}

// packageErrors gathers the errors of pkgs and their imports, each as
// file:line:col: message, as go/packages' PrintErrors shows them.
//
// Left out: errors in the output file out (it is about to be replaced),
// the errors generation cures (tolerated), and the go command's own report
// of a package's compile errors (a "# import/path" block), since the type
// checker reports the same errors, or ones generation cures. An import
// that failed is reported wrapped in errDependency. A package's errors
// are in source order, as the compiler prints them.
func packageErrors(pkgs []*packages.Package, out string) error {
	seen := map[string]bool{}
	var msgs []string
	dependency := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		errs := append([]packages.Error(nil), p.Errors...)
		sort.SliceStable(errs, func(i, j int) bool { return model.PosLess(errs[i].Pos, errs[j].Pos) })
		for _, e := range errs {
			if e.Kind == packages.TypeError && importListed(e.Msg, p) {
				continue
			}
			if e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") && p.Types != nil {
				continue
			}
			if file, _, _ := model.SplitPos(e.Pos); out != "" && file == out {
				continue
			}
			if e.Kind == packages.TypeError && tolerated(e.Msg) {
				continue
			}
			if e.Kind == packages.TypeError && strings.HasPrefix(e.Msg, "could not import ") {
				dependency = true
			}
			msg := e.Msg
			if e.Pos != "" && e.Pos != "-" {
				msg = model.RelPath(e.Pos) + ": " + e.Msg
			}
			if !seen[msg] {
				seen[msg] = true
				msgs = append(msgs, msg)
			}
		}
	})
	if len(msgs) == 0 {
		return nil
	}
	err := errors.New(strings.Join(msgs, "\n"))
	if dependency {
		return dependencyError{err}
	}
	return err
}

// dependencyError is a load error in which an import failed.
type dependencyError struct{ error }

func (dependencyError) Is(target error) bool { return target == errDependency }

// ColdAfter is how long a load reading the dependencies' export data may
// run before loadFirst asks whether the build cache is cold; the
// regeneration cache waits as long for the export data it pins.
const ColdAfter = 1500 * time.Millisecond

// loadFirst is loadWith, made fast on a cold build cache too. Reading
// the dependencies' export data is the fast way when the build cache has
// it (0.2-0.7 s for a package that imports the runtime); when it does
// not, the go command compiles every dependency first, the standard
// library's included, which on a new machine or after a Go upgrade takes
// a minute of CPU, of which the generator needs only the types. So when
// the export-data load has not finished after ColdAfter and the go
// command says that the build cache lacks several dependencies
// (BuildCacheCold; a busy machine alone does not count), a second load
// type-checks the dependencies from source beside it (a few seconds) and
// the first to finish gives the result; the other is stopped. Both see
// the same files and give the same types to the stages after the load.
// An error of the source load in a dependency is not taken while the
// export-data load may still succeed; one in the package itself is (the
// other load would find it too, after compiling everything).
func loadFirst(pcfg *packages.Config, dir, out string) (*Package, error) {
	if pcfg.Mode&packages.NeedDeps != 0 {
		return loadWith(pcfg, dir, out)
	}
	final := func(err error) bool { return !errors.Is(err, errDependency) }
	probe := func(ctx context.Context) bool { return BuildCacheCold(ctx, dir, pcfg.BuildFlags) }
	return first(pcfg.Context, ColdAfter, final, probe,
		func(ctx context.Context) (*Package, error) {
			c := *pcfg
			c.Context = ctx
			return loadWith(&c, dir, out)
		},
		func(ctx context.Context) (*Package, error) {
			c := *pcfg
			c.Context = ctx
			c.Mode |= packages.NeedDeps | packages.NeedImports
			return loadWith(&c, dir, out)
		})
}

// first runs fast and, when fast has not returned after delay and probe
// says that slow would be faster, slow too, and returns the first
// success or final error; an error of slow that is not final waits for
// fast, whose result is taken then, as is fast's error when slow fails
// too. The loser's context is cancelled and first waits for it to
// return, so that nothing it runs outlives the call.
func first[T any](parent context.Context, delay time.Duration, final func(error) bool, probe func(context.Context) bool,
	fast, slow func(context.Context) (T, error)) (T, error) {
	if parent == nil {
		parent = context.Background()
	}
	type result struct {
		v    T
		err  error
		slow bool
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	done := make(chan result, 2)
	go func() { v, err := fast(ctx); done <- result{v, err, false} }()
	timer := time.NewTimer(delay)
	defer timer.Stop()
	probed := make(chan bool, 1)
	running, probing := 1, false
	var slowFailed *result
	for {
		select {
		case <-timer.C:
			probing = true
			go func() { probed <- probe(ctx) }()
		case cold := <-probed:
			probing = false
			if cold {
				running++
				go func() { v, err := slow(ctx); done <- result{v, err, true} }()
			}
		case r := <-done:
			running--
			if r.err != nil && r.slow && !final(r.err) {
				slowFailed = &r
				continue
			}
			if r.err != nil && !r.slow && slowFailed == nil && running > 0 {
				// fast failed while slow runs: its error is the one
				// to report (slow reads more and fails more often),
				// unless slow succeeds.
				if s := <-done; s.err == nil {
					return s.v, nil
				}
				return r.v, r.err
			}
			cancel()
			for ; running > 0; running-- {
				<-done
			}
			if probing {
				<-probed
			}
			return r.v, r.err
		}
	}
}
