module github.com/cborgen/cborgen

go 1.24.0

require (
	github.com/dave/jennifer v1.7.1
	github.com/fxamacker/cbor/v2 v2.10.0
	golang.org/x/tools v0.42.0
)

require (
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/mod v0.33.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
)

tool github.com/cborgen/cborgen/cmd/cbor-gen
