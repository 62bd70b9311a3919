#!/bin/sh
# run.sh runs every benchmark of this module COUNT times, compares the
# implementations with benchstat and writes the tables into RESULTS.md.
#
#   ./run.sh                     # all shapes: 8 to 12 minutes on 2 cores
#   COUNT=3 BENCHTIME=100ms ./run.sh
#   BENCH='Request|Profile' ./run.sh
#   PROFILE=1 ./run.sh           # also CPU and memory profiles of the generated code
#
# Raw results, benchstat's report and profiles go to results/ (not committed).
# The summary in ../docs/performance.md is rewritten from the same run.
# The runs are interleaved (every benchmark runs once, COUNT times over)
# so that a change in the machine's load hits every implementation alike,
# each implementation in a process of its own (below).
set -eu
cd "$(dirname "$0")"

COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-100ms}
BENCH=${BENCH:-.}
BENCHSTAT="go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da"
OUT=results

mkdir -p "$OUT"
go test -c -o "$OUT/bench.test" .
: > "$OUT/raw.txt"
# Each implementation of a benchmark runs in a process of its own.
# Its heap then holds its own values alone: the fixtures another
# benchmark left live (the real record, the large composites) make every
# collection of a later one longer, and doubled the times of the
# allocating decodes of a benchmark run after them (the union document's
# decode: 145 µs alone, 306 µs after the skip benchmarks of the real
# record). And every implementation is timed in a process in the same
# state, a new one, with its own encode before it: with all
# of a shape's implementations in one process, an allocating decode ran
# 15-33% slower when its implementation came first in the process than
# when it came last (the generated code's Profile and Drawing decodes,
# msgp-tuple's Graph and Tables decodes; 8 runs of each order, p <= 0.05),
# which favoured whichever implementation the order put last.
# groups: the processes of one round, each a -test.bench pattern: a
# benchmark's sub-benchmarks up to their impl= level, or the whole
# benchmark where it has none. Listed by running each benchmark once.
groups() {
	"./$OUT/bench.test" -test.run '^$' -test.bench "^$1\$" -test.benchtime 1x -test.count 1 2>/dev/null |
		awk '/^Benchmark/ {
			name = $1; sub(/-[0-9]+$/, "", name)
			n = split(name, part, "/"); g = ""
			for (i = 1; i <= n; i++) {
				g = g (i > 1 ? "/" : "") "^" part[i] "$"
				if (part[i] ~ /^impl=/) break
			}
			if (i > n) g = "^" part[1] "$"
			gsub(/[.+]/, "\\\\&", g)
			if (!(g in seen)) { seen[g] = 1; print g }
		}'
}
names=$("./$OUT/bench.test" -test.list '^Benchmark' | grep '^Benchmark')
: > "$OUT/groups.txt"
for name in $names; do
	# BENCH selects as -test.bench does: its part before the first
	# slash by the top-level name, the rest the sub-benchmarks (then the
	# benchmark runs in one process).
	echo "$name" | grep -Eq -- "${BENCH%%/*}" || continue
	case "$BENCH" in
	*/*) echo "^$name\$/${BENCH#*/}" >> "$OUT/groups.txt" ;;
	*) groups "$name" >> "$OUT/groups.txt" ;;
	esac
done
# Every round runs each group once, in turn forwards and backwards, so
# that a drift of the machine's load within a round evens out.
i=1
while [ "$i" -le "$COUNT" ]; do
	echo "run $i of $COUNT" >&2
	if [ $((i % 2)) -eq 1 ]; then order=cat; else order="sed -n 1!G;h;\$p"; fi
	$order "$OUT/groups.txt" | while IFS= read -r g; do
		"./$OUT/bench.test" -test.run '^$' -test.bench "$g" \
			-test.benchtime "$BENCHTIME" -test.count 1 | grep -v '^PASS$\|^ok ' >> "$OUT/raw.txt" || true
	done
	i=$((i + 1))
done

if [ -n "${PROFILE:-}" ]; then
	for op in Encode Decode; do
		"./$OUT/bench.test" -test.run '^$' -test.bench "/impl=generated/op=$op\$" \
			-test.benchtime 1s -test.count 1 \
			-test.cpuprofile "$OUT/cpu-$op.pprof" -test.memprofile "$OUT/mem-$op.pprof" \
			-test.memprofilerate 512 > "$OUT/profile-$op.txt"
		go tool pprof -top -nodecount 40 "$OUT/bench.test" "$OUT/cpu-$op.pprof" > "$OUT/cpu-$op.txt" 2>/dev/null
		go tool pprof -top -nodecount 40 -sample_index alloc_space "$OUT/bench.test" "$OUT/mem-$op.pprof" \
			> "$OUT/mem-$op.txt" 2>/dev/null
	done
fi

# The store document runs on two documents (doc=synthetic, doc=real): each
# becomes a shape of its own, StoreDocument and StoreDocumentReal, so that
# benchstat does not pool their times into one row.
sed -e 's#^BenchmarkStoreDocument/doc=synthetic/#BenchmarkStoreDocument/#' \
	-e 's#^BenchmarkStoreDocument/doc=real/#BenchmarkStoreDocumentReal/#' \
	"$OUT/raw.txt" > "$OUT/shapes.txt"
$BENCHSTAT -row .name,/op -col /impl "$OUT/shapes.txt" > "$OUT/benchstat.txt"
$BENCHSTAT -format csv -row .name,/op -col /impl "$OUT/shapes.txt" > "$OUT/benchstat.csv" 2>/dev/null
go run ./cmd/benchtable -csv "$OUT/benchstat.csv" -o RESULTS.md -docs ../docs/performance.md \
	-note "$(go version), $COUNT runs of -benchtime $BENCHTIME, $(date -u +%Y-%m-%d)."
echo "wrote RESULTS.md; benchstat's report is $OUT/benchstat.txt" >&2
