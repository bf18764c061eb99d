# Helpers of the render tests (run_tests.sh, run_pagemap_tests.sh), sourced
# from tools/visualize: counts checks in pass/fail.

pass=0
fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() {	# check DESCRIPTION COMMAND...
	what=$1; shift
	if "$@"; then ok; else bad "$what"; fi
}
same() { [ "$1" = "$2" ] || { echo "  got:  $1"; echo "  want: $2"; return 1; }; }
fails() { "$@" > /dev/null 2>&1; [ $? -ne 0 ]; }

is_png() {	# exists, non-empty, PNG signature
	[ -s "$1" ] &&
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# unit_test PROGRAM OUTFILE: runs a unit test and adds its "N passed,
# M failed" to the counts.
unit_test() {
	"$1" > "$2" 2>&1
	unit_rc=$?
	grep FAIL "$2"
	set -- $(tail -n 1 "$2")
	if [ "$#" -eq 4 ] && [ "$2" = passed, ]; then
		pass=$((pass + $1)); fail=$((fail + $3))
		[ "$unit_rc" -ne 0 ] && [ "$3" -eq 0 ] && bad "unit test exited $unit_rc"
	else
		bad "unit test printed no result (exit $unit_rc)"
	fi
}

# The last line and the exit status of a test script.
report() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

# refusals PROGRAM LOG: what both programs refuse alike (the shared input
# readers and gnuplot run): a truncated log, a CSV without argument
# columns, a failing gnuplot script, an empty -t window.  Files go to $OUT.
refusals() {
	head -c 300 "$2" > "$OUT/cut.log"
	check "truncated log is refused" fails "$1" -f "$OUT/cut.log"
	printf 'time,cpu,pid\n1,0,0\n' > "$OUT/nohdr.csv"
	check "CSV without arg columns is refused" fails "$1" --csv-file "$OUT/nohdr.csv"
	printf 'exit status 3\n' > "$OUT/bad.gp"
	check "gnuplot failure is reported" fails "$1" -f "$2" --script "$OUT/bad.gp" -o "$OUT/y.png"
	check "bad -t is refused" fails "$1" -f "$2" -t 2,1
}

# max_per_column DAT X0 X1 COLS: the most interval rows (data block 1 of
# lkst-procstate's .dat) of one lane that overlap one of COLS columns of
# [X0, X1] by more than a thousandth of a column.
max_per_column() {
	awk -v x0="$2" -v x1="$3" -v cols="$4" '
		/^$/ { blank++; next } blank < 2 || /^#/ || NF != 6 { next }
		{
			w = (x1 - x0) / cols; eps = w / 1000
			for (c = int(($2 - x0) / w); c < cols && x0 + c * w < $3 - eps; c++)
				if (x0 + (c + 1) * w > $2 + eps && ++n[$1 " " c] > max)
					max = n[$1 " " c]
		}
		END { print max + 0 }' "$1"
}
