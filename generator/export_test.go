package generator

// LargePackage is largePackage, for the benchmarks of package generator_test.
var LargePackage = largePackage
