#!/bin/sh
# icount.sh counts the instructions of one call of an operation, as the
# sections of RESULTS.md report them: callgrind's count of N2 calls minus
# that of N1 calls, over N2 - N1, which leaves out the setup.
#
#   ./icount.sh SHAPE OP [IMPL [N1 N2]]
#   ./icount.sh Request decode msgp-tuple
#   GOGC=100 ./icount.sh CompositeMedium legacy generated 20 120
#
# SHAPE: a shape of the benchmarks, or PersonText, PersonUnix; OP: encode,
# decode or legacy, zerocopy or marshal on the person record (generated,
# mus; marshal: generated, msgp, msgp-tuple), or
# skip, skipreader, valid on SHAPE Document, CompositeLarge or StoreDocument
# (IMPL fxamacker: cbor.Wellformed, or its Decoder.Skip for skipreader; see
# TestRepeat). The collector is off unless GOGC says
# otherwise. ICOUNT_COLLECT=PATTERN counts only inside the functions
# PATTERN matches (callgrind's --toggle-collect), which leaves out the Go
# runtime's own threads: '*Decoder).Skip' for skip and skipreader,
# '*cborgen/runtime.Valid' for valid, '*).UnmarshalCBOR' for decode.
# Needs valgrind.
set -eu
cd "$(dirname "$0")"
[ $# -ge 2 ] || { sed -n '2,20p' "$0"; exit 2; }
command -v valgrind >/dev/null || { echo "icount.sh: needs valgrind" >&2; exit 1; }
shape=$1 op=$2 impl=${3:-generated} n1=${4:-2000} n2=${5:-12000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/icount.XXXXXX")
trap 'rm -rf "$dir"' EXIT
bin=$dir/bench.test
go test -c -o "$bin" .
# count N: the instructions of a run of N calls. valgrind stops a run
# with SIGILL where the Go runtime reads the clock with rdtscp (a lock's
# spin, now and then, more often on a busy machine), so a run that
# ends without a count is made again, up to five times.
count() {
	for try in 1 2 3 4 5; do
		n=$(BENCH_REPEAT_SHAPE=$shape BENCH_REPEAT_OP=$op BENCH_REPEAT_IMPL=$impl BENCH_REPEAT_N=$1 \
			GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=${GOGC:-off} \
			valgrind --tool=callgrind --callgrind-out-file=/dev/null \
				${ICOUNT_COLLECT:+"--toggle-collect=$ICOUNT_COLLECT"} "$bin" -test.run '^TestRepeat$' 2>&1 |
			awk '/SIGILL/ { bad = 1 } /Collected/ { n = $4 } END { if (!bad) print n }')
		if [ -n "$n" ]; then
			echo "$n"
			return
		fi
		echo "icount.sh: valgrind stopped the run of $1 calls (try $try of 5)" >&2
	done
	exit 1
}
a=$(count "$n1")
b=$(count "$n2")
echo "$shape $op $impl: $(( (b - a) / (n2 - n1) )) instructions per call"
