// Package load holds the generator's calls of the go command (through
// golang.org/x/tools/go/packages) that load what a run generates from.
//
//	load.go  Load: the package, type-checked, with its dependencies from
//	         export data and the runtime packages beside it; the previous
//	         output is replaced by a bare package clause (StubOverlay), so
//	         that a stale generated file never blocks its regeneration; the
//	         type errors that only the missing generated methods cause are
//	         tolerated. OutputPath, PackageDir and TagFlags say where the
//	         output goes and how the package is built.
//	deps.go  ListDeps: go list -export -deps of the package, what the
//	         regeneration cache digests; GoFiles: the files of another
//	         package, whose //go:generate lines say what it will generate;
//	         List: the packages of a pattern, for -check ./...
//	files.go ParseFiles: the Go files of a directory that a type check
//	         does not see (test files, other build configurations),
//	         parsed for their syntax alone (Package.Others)
//	golist.go  goLoad: packages.Load with the go command's errors in its
//	         own words; SupportError: what to say when the runtime's
//	         packages cannot be loaded
package load
