#!/bin/sh
# Benchmark of lkbuf print (not a test; asserts nothing): generates a log of
# N records (default 10 million) over 2 CPUs and runs
# `lkbuf print FLAGS -f big.log >/dev/null` on one core for the CSV (-C),
# raw CSV, seconds and default text forms, each RUNS times (default 3).
# Prints per form the best run's wall time and records/s, its CPU time
# (user+sys) and records/s by CPU, and the largest peak RSS of the runs
# (with GNU time as /usr/bin/time; else wall time only).
# Usage: bench_print.sh DIR-WITH-lkbuf-AND-gen_log [RECORDS [RUNS]]
bin=${1:-.}
n=${2:-10000000}
runs=${3:-3}
tmp=$(mktemp -d /tmp/lkst_bench_print.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
"$bin/gen_log" "$tmp/big.log" "$n" 2 || exit 1
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
gnutime=""
/usr/bin/time -f %M true >/dev/null 2>&1 && gnutime=/usr/bin/time
echo "log: $n records over 2 CPUs, $(($(wc -c <"$tmp/big.log") / 1048576)) MiB; best of $runs runs${pin:+, pinned to CPU 0}"
for flags in "-C" "-C -r" "-S" ""; do
	best_ms=""
	best_cpu=""
	rss=0
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		start=$(date +%s%N)
		# shellcheck disable=SC2086
		if [ -n "$gnutime" ]; then
			$gnutime -f "%U %S %M" -o "$tmp/time" \
				$pin "$bin/lkbuf" print $flags -f "$tmp/big.log" >/dev/null 2>"$tmp/err"
		else
			$pin "$bin/lkbuf" print $flags -f "$tmp/big.log" >/dev/null 2>"$tmp/err"
		fi || { cat "$tmp/err"; exit 1; }
		end=$(date +%s%N)
		ms=$(((end - start) / 1000000))
		[ -z "$best_ms" ] || [ "$ms" -lt "$best_ms" ] && best_ms=$ms
		if [ -n "$gnutime" ]; then
			read -r user sys kb <"$tmp/time"
			cpu=$(echo "$user $sys" | awk '{ printf "%d", ($1 + $2) * 1000 }')
			[ -z "$best_cpu" ] || [ "$cpu" -lt "$best_cpu" ] && best_cpu=$cpu
			[ "$kb" -gt "$rss" ] && rss=$kb
		fi
	done
	line="lkbuf print $flags: wall $best_ms ms, $((n * 1000 / (best_ms + 1))) records/s"
	if [ -n "$gnutime" ]; then
		line="$line; cpu $best_cpu ms, $((n * 1000 / (best_cpu + 1))) records/s; peak RSS $((rss / 1024)) MiB"
	fi
	echo "$line" | sed 's/print : /print: /'
done
