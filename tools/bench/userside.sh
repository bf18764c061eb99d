#!/bin/bash
# The user side against peers (make bench): one getppid run's twin events,
# recorded in the guest by lkst, ftrace and perf (tests/scenarios/peers.inc:
# userside.lkst, userside.dat, userside.perf), each printed to /dev/null by
# its own reader on the host; lkst's log is also converted to CTF and read
# by babeltrace2.  Per reader: records (lines of its output), seconds,
# records per second and peak memory (/usr/bin/time).  Each reader's
# output is counted in a second, untimed pass.
#
# usage: tools/bench/userside.sh DIR
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${1:?usage: userside.sh DIR}
[ -f "$dir/userside.lkst" ] || { echo "userside.sh: no $dir/userside.lkst (make bench's guest run)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# READER FILE COMMAND...: one line of figures.
measure() {
	local name=$1 file=$2 n t m
	shift 2
	[ -e "$file" ] || { echo "user side: $name: no ${file##*/}"; return 0; }
	command -v "$1" >/dev/null || { echo "user side: $name: $1 not installed"; return 0; }
	/usr/bin/time -o "$tmp/time" -f "%e %M" "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "user side: $name failed: $(head -n 3 "$tmp/err")"; return 0; }
	read -r t m <"$tmp/time"
	n=$("$@" 2>/dev/null | wc -l)
	awk -v name="$name" -v n="$n" -v t="$t" -v m="$m" 'BEGIN {
		printf "user side: %-16s %8d lines %7.2f s %9.0f records/s peak %6d KiB\n",
			name, n, t, (t > 0 ? n / t : 0), m }'
}

utils/lkbuf convert -f "$dir/userside.lkst" --to ctf -o "$tmp/ctf" >/dev/null 2>&1
measure "lkbuf print" "$dir/userside.lkst" utils/lkbuf print -f "$dir/userside.lkst"
measure "babeltrace2" "$tmp/ctf" babeltrace2 "$tmp/ctf"
measure "trace-cmd report" "$dir/userside.dat" trace-cmd report -i "$dir/userside.dat"
measure "perf script" "$dir/userside.perf" perf script -i "$dir/userside.perf"
