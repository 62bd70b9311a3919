package generator

import (
	"github.com/cborgen/cborgen/generator/internal/cache"
	"github.com/cborgen/cborgen/generator/internal/emit"
	"github.com/cborgen/cborgen/generator/internal/testmod"
)

// LargePackage is testmod.Large, for the benchmarks of package generator_test.
var LargePackage = testmod.Large

// GenerateRuns is generateRuns, so that the golden test generates each case
// with the flags of its //go:generate line, as make check-generated does.
var GenerateRuns = generateRuns

// SetChunks renders every output in n chunks (0: as many as it is worth)
// until the returned function is called.
func SetChunks(n int) (restore func()) {
	old := emit.ChunksForTests
	emit.ChunksForTests = n
	return func() { emit.ChunksForTests = old }
}

// CacheHits is the number of runs the regeneration cache answered.
func CacheHits() int64 { return cache.Hits.Load() }
