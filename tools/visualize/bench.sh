#!/bin/sh
# Benchmark of the visualizers (not a test; asserts nothing): on a log of N
# records (default 10 million) over 2 CPUs, from utils/gen_log (processes
# and system calls) and tests/mkdenselog (processes and page events),
# prints each program's wall time, peak RSS (GNU time as /usr/bin/time)
# and the data rows handed to gnuplot.  Run from anywhere:
#   sh tools/visualize/bench.sh [RECORDS]
here=$(cd "$(dirname "$0")" && pwd)
n=${1:-10000000}
tmp=$(mktemp -d /tmp/lkst_bench_viz.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
make -s -C "$here" all obj/mkdenselog >/dev/null || exit 1
make -s -C "$here/../../utils" gen_log >/dev/null || exit 1
"$here/../../utils/gen_log" "$tmp/gen.log" "$n" 2 || exit 1
"$here/obj/mkdenselog" "$tmp/dense.log" "$n" || exit 1
gnutime=""
/usr/bin/time -f %M true >/dev/null 2>&1 && gnutime=/usr/bin/time
rows() {	# data rows of a .dat: not comments, not blank, not NaN
	awk '!/^#/ && NF && $1 != "NaN"' "$1" | wc -l
}
run() {	# run NAME DAT PROGRAM ARGS...
	name=$1 dat=$2; shift 2
	start=$(date +%s%N)
	if [ -n "$gnutime" ]; then
		$gnutime -f %M -o "$tmp/rss" "$@" >/dev/null 2>"$tmp/err"
	else
		"$@" >/dev/null 2>"$tmp/err"
	fi || { cat "$tmp/err"; return 1; }
	ms=$((($(date +%s%N) - start) / 1000000))
	line="$name: wall $ms ms"
	[ -n "$gnutime" ] && line="$line, peak RSS $(($(tail -n 1 "$tmp/rss") / 1024)) MiB"
	[ -n "$dat" ] && line="$line, $(rows "$dat") data rows to gnuplot"
	echo "$line"
}
echo "logs: $n records over 2 CPUs each ($(($(wc -c <"$tmp/gen.log") / 1048576)) MiB)"
run "lkst-procstate --summary, gen_log" "" "$here/lkst-procstate" -f "$tmp/gen.log" --summary
run "lkst-procstate -o, gen_log" "$tmp/ps.dat" "$here/lkst-procstate" -f "$tmp/gen.log" -o "$tmp/ps.png"
run "lkst-pagemap -n bash --summary, gen_log" "" "$here/lkst-pagemap" -f "$tmp/gen.log" -n bash --summary
run "lkst-procstate -o, mkdenselog" "$tmp/psd.dat" "$here/lkst-procstate" -f "$tmp/dense.log" -o "$tmp/psd.png"
run "lkst-pagemap -p 400 -o, mkdenselog" "$tmp/pmd.dat" "$here/lkst-pagemap" -f "$tmp/dense.log" -p 400 -o "$tmp/pmd.png"
