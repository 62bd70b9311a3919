module github.com/cborgen/cborgen/bench

go 1.24.0

replace github.com/cborgen/cborgen => ../

require (
	github.com/cborgen/cborgen v0.0.0-00010101000000-000000000000
	github.com/fxamacker/cbor/v2 v2.10.0
	github.com/ipfs/go-cid v0.0.6
	github.com/mus-format/mus-go v0.7.2
	github.com/tinylib/msgp v1.6.5
	github.com/whyrusleeping/cbor-gen v0.3.1
	golang.org/x/xerrors v0.0.0-20191204190536-9bdfabe68543
)

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/minio/blake2b-simd v0.0.0-20160723061019-3f5f724cb5b1 // indirect
	github.com/minio/sha256-simd v0.1.1-0.20190913151208-6de447530771 // indirect
	github.com/mr-tron/base58 v1.1.3 // indirect
	github.com/multiformats/go-base32 v0.0.3 // indirect
	github.com/multiformats/go-base36 v0.1.0 // indirect
	github.com/multiformats/go-multibase v0.0.3 // indirect
	github.com/multiformats/go-multihash v0.0.13 // indirect
	github.com/multiformats/go-varint v0.0.5 // indirect
	github.com/mus-format/common-go v0.0.0-20251026152644-9f5ac6728d8a // indirect
	github.com/philhofer/fwd v1.2.0 // indirect
	github.com/spaolacci/murmur3 v1.1.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/crypto v0.0.0-20190611184440-5c40567a22f8 // indirect
	golang.org/x/exp v0.0.0-20230425010034-47ecfdc1ba53 // indirect
	golang.org/x/mod v0.33.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/tools v0.42.0 // indirect
)

tool github.com/cborgen/cborgen/cmd/cbor-gen
