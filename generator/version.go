package generator

import "github.com/cborgen/cborgen/generator/internal/model"

// Version returns the version of this module as the binary was built
// with it: the module version of a released generator, "(devel)" when
// the module came from a directory. The generated header carries it.
func Version() string { return model.Version() }
