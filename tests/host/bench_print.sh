#!/bin/sh
# Benchmark of lkbuf print (not a test; asserts nothing): generates a log of
# N records (default 5 million) over 2 CPUs and times
# `lkbuf print -C -f big.log >/dev/null` on one core.
# Usage: bench_print.sh DIR-WITH-lkbuf-AND-gen_log [RECORDS]
bin=${1:-.}
n=${2:-5000000}
tmp=$(mktemp -d /tmp/lkst_bench_print.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$bin/gen_log" "$tmp/big.log" "$n" 2 || exit 1
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
for flags in "-C" "-C -r" "-S" ""; do
	start=$(date +%s%N)
	$pin "$bin/lkbuf" print $flags -f "$tmp/big.log" >/dev/null 2>"$tmp/err" || {
		cat "$tmp/err"; exit 1; }
	end=$(date +%s%N)
	ns=$((end - start))
	echo "lkbuf print $flags: $n records in $((ns / 1000000)) ms, $((n * 1000 / (ns / 1000000 + 1))) records/s" |
		sed 's/print : /print: /'
done
