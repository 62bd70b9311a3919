#!/bin/sh
# icount.sh TYPE OP SIDE: instructions per call of one benchmark operation
# (OP encode, decode or reuse, SIDE theirs or ours) under callgrind: the count of
# 6,000 calls less that of 1,000, over 5,000; the collector off. Valgrind
# sometimes stops a run with SIGILL inside the Go runtime (its rdtscp in a
# lock's spin), after which it still prints the count of the part that
# ran: such a run is made again, up to three times.
bin=$(dirname "$0")/h.test
count() {
	for try in 1 2 3; do
		r=$(REPEAT_TYPE=$1 REPEAT_OP=$2 REPEAT_SIDE=$3 REPEAT_N=$4 GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off \
			valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" -test.run '^TestRepeat$' 2>&1 |
			awk '/SIGILL/ { bad = 1 } /Collected/ { n = $4 } END { if (!bad) print n }')
		if [ -n "$r" ]; then
			echo "$r"
			return
		fi
	done
	echo "icount.sh: valgrind failed" >&2
	exit 1
}
a=$(count "$1" "$2" "$3" 1000)
b=$(count "$1" "$2" "$3" 6000)
echo "$1 $2 $3: $(((b - a) / 5000))"
