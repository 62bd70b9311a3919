package model

import (
	"runtime/debug"
)

// ModulePath is the path of the module that holds the generator and the
// runtime its output calls: they are released together.
const ModulePath = "github.com/cborgen/cborgen"

// develVersion is the version of a generator built from a checkout (or a
// directory replace) rather than a downloaded module.
const develVersion = "(devel)"

// Version returns the version of this module as the binary was built
// with it: the module version of a released generator (go get -tool
// github.com/cborgen/cborgen/cmd/cbor-gen@v1.2.3, go install ...@v1.2.3),
// and "(devel)" when the module came from a directory: a checkout of the
// repository, its tests, or a replace directive. Only a downloaded module
// has a checksum, and only its version names the same source everywhere,
// so this is what the generated header carries: the same pinned tool
// writes the same header on every machine, and a checkout writes the same
// header however it is built (go build, go run, go tool or go test, with
// or without version control stamping).
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return develVersion
	}
	return ModuleVersion(bi)
}

// ModuleVersion finds this module in bi: the main module when the binary
// is the command itself, else the dependency of that path, following a
// replace directive.
func ModuleVersion(bi *debug.BuildInfo) string {
	m := &bi.Main
	if m.Path != ModulePath {
		m = nil
		for _, d := range bi.Deps {
			if d.Path == ModulePath {
				m = d
				break
			}
		}
	}
	if m == nil {
		return develVersion
	}
	if m.Replace != nil {
		m = m.Replace
	}
	if m.Sum == "" || m.Version == "" || m.Version == develVersion {
		return develVersion
	}
	return m.Version
}
