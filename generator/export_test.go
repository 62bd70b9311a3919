package generator

// LargePackage is largePackage, for the benchmarks of package generator_test.
var LargePackage = largePackage

// GenerateRuns is generateRuns, so that the golden test generates each case
// with the flags of its //go:generate line, as make check-generated does.
var GenerateRuns = generateRuns
