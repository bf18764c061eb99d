#!/bin/sh
# lkst-procstate tests, run by `make test` from tools/visualize:
#   1. the state machine's unit test (obj/test_procstate)
#   2. a log written by the utils' writer (obj/mklog) and a shipped CSV,
#      summarised and rendered through gnuplot; every CSV variant of
#      `lkbuf print -C` must give the log's figures.
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.." || exit 1

OUT=tests/out
PS=./lkst-procstate
. tests/lib.sh

rm -rf "$OUT" && mkdir -p "$OUT" || exit 1

# ---- 1. unit tests -------------------------------------------------------
unit_test ./obj/test_procstate "$OUT/unit.txt"
unit_test ./obj/test_decimate "$OUT/unit_decimate.txt"

# ---- helpers ----------------------------------------------------------
rows_for_pid() {	# interval rows (data block 1) of pid in a data file
	awk -v pid="$2" '/^$/ { blank++ } blank >= 2 && !/^#/ && NF == 6 && $6 == pid { n++ }
		END { print n + 0 }' "$1"
}

has_rows() { [ "$(rows_for_pid "$1" "$2")" -gt 0 ]; }
no_rows()  { [ "$(rows_for_pid "$1" "$2")" -eq 0 ]; }

lane_label() {	# lane labels (data block 0)
	awk '/^$/ { exit } !/^#/ { sub(/^[0-9]+ /, ""); print }' "$1"
}

summary_line() {	# the summary row of pid, fields joined by single spaces
	awk -v pid="$2" '$1 == pid { $1 = $1; print }' "$1"
}

# ---- 2. log from the utils' writer -----------------------------------
check "mklog writes a log" ./obj/mklog "$OUT/small.log"

$PS -f "$OUT/small.log" -n 't-*' -o "$OUT/log.png" --summary > "$OUT/log.txt" 2> "$OUT/log.err"
check "render of the log exits 0" [ $? -eq 0 ]
check "log.png is a PNG" is_png "$OUT/log.png"
for pid in 100 101 102; do
	check "lane $pid has intervals" has_rows "$OUT/log.dat" $pid
done
check "-n 't-*' leaves out pid 103" no_rows "$OUT/log.dat" 103
check "lanes labelled PID comm" same "$(lane_label "$OUT/log.dat" | tr '\n' '|')" \
	'"100 t-writer"|"101 t-reader"|"102 t-spin"|'
# Known answers (tests/mklog.c): ms running ready blocked, switches, max ready
check "writer figures" same "$(summary_line "$OUT/log.txt" 100)" \
	"100 t-writer 50.000 40.000 10.000 3 30.000 1.020000000"
check "reader figures" same "$(summary_line "$OUT/log.txt" 101)" \
	"101 t-reader 10.000 20.000 60.000 1 20.000 1.010000000"
check "spinner figures" same "$(summary_line "$OUT/log.txt" 102)" \
	"102 t-spin 69.000 11.000 0.000 2 11.000 1.050000000"

# The script on its own, as documented: gnuplot -e "datafile=...; outfile=..."
gnuplot -e "datafile='$OUT/log.dat'; outfile='$OUT/direct.png'; nlanes=3" procstate.gp
check "gnuplot procstate.gp exits 0" [ $? -eq 0 ]
check "direct.png is a PNG" is_png "$OUT/direct.png"

# Every CSV form lkbuf prints must give the log's figures.
$PS -f "$OUT/small.log" --idle > "$OUT/all_log.txt"
for flags in "" "-r" "-S" "-V" "-r -S -V" "-r -V"; do
	./obj/lkbuf print -C $flags -f "$OUT/small.log" > "$OUT/v.csv" 2>/dev/null &&
	$PS --csv-file "$OUT/v.csv" --idle > "$OUT/all_csv.txt"
	check "CSV 'lkbuf print -C $flags' gives the log's summary" \
		cmp -s "$OUT/all_log.txt" "$OUT/all_csv.txt"
done

# Selection and window.
$PS -f "$OUT/small.log" -p 101 -o "$OUT/p.png" > /dev/null 2>&1
check "-p 101 draws one lane" same "$(lane_label "$OUT/p.dat")" '"101 t-reader"'
$PS -f "$OUT/small.log" -p 100 -t 1.030,1.060 > "$OUT/win.txt"
check "-t clips the figures" same "$(summary_line "$OUT/win.txt" 100)" \
	"100 t-writer 10.000 20.000 0.000 1 20.000 1.030000000"
$PS -f "$OUT/small.log" -t 1.030,1.060 -n 't-*' -o "$OUT/win.png" > /dev/null 2>&1
check "-t drops rows outside the window" \
	[ "$(awk '/^$/ { b++ } b >= 2 && NF == 6 && !/^#/ && ($2 < 1.03 || $3 > 1.06)' "$OUT/win.dat" | wc -l)" -eq 0 ]

# The options lkbuf print shares: -n exact or PREFIX*, -p decimal or hex,
# -t in seconds or as the time of day lkbuf print shows (anchor 0 here:
# the trace clock's 1.030 s is 00:00:01.030 UTC), either side empty.
$PS -f "$OUT/small.log" -n t-writer,t-spin -o "$OUT/n.png" > /dev/null 2>&1
check "-n NAME,NAME is exact" same "$(lane_label "$OUT/n.dat" | tr '\n' '|')" \
	'"100 t-writer"|"102 t-spin"|'
check "-n t- matches no name exactly" fails $PS -f "$OUT/small.log" -n t- -o "$OUT/n0.png"
check "-c is not an option any more" fails $PS -f "$OUT/small.log" -c t-
$PS -f "$OUT/small.log" -p 0x65 -o "$OUT/hex.png" > /dev/null 2>&1
check "-p 0x65 is pid 101" same "$(lane_label "$OUT/hex.dat")" '"101 t-reader"'
TZ=UTC $PS -f "$OUT/small.log" -p 100 -t 00:00:01.030,00:00:01.060 > "$OUT/tod.txt"
check "-t as a time of day (UTC)" cmp -s "$OUT/win.txt" "$OUT/tod.txt"
TZ=JST-9 $PS -f "$OUT/small.log" -p 100 -t 09:00:01.03,1.06 > "$OUT/tod9.txt"
check "-t as a time of day (JST-9) and seconds" cmp -s "$OUT/win.txt" "$OUT/tod9.txt"
$PS -f "$OUT/small.log" -p 100 -t 1.030, > "$OUT/open.txt"
check "-t START, runs to the trace's end" \
	grep -q '^# window 1.030000000-' "$OUT/open.txt"
$PS -f "$OUT/small.log" -p 100 -t ,1.060 > "$OUT/open2.txt"
check "-t ,END starts at the trace's start" \
	same "$(sed -n 1p "$OUT/open2.txt" | cut -d' ' -f3)" "$(sed -n 1p "$OUT/all_log.txt" | sed 's/-.*//; s/.* //')-1.060000000"
for bad in 25:00:00, 1:2, abc, 2,1 00:00:01.06,1.03; do
	check "-t $bad is refused" fails $PS -f "$OUT/small.log" -t "$bad"
done
check "-t as a time of day needs a log (not --csv-file)" fails $PS --csv-file testdata/small.csv -t 00:00:02,
check "-p x is refused" fails $PS -f "$OUT/small.log" -p x

# Sparse: every interval is wider than a pixel column, so the data is
# exactly what it was before decimation (testdata/sparse-*.dat were
# written by the undecimated lkst-procstate).
$PS -f "$OUT/small.log" --idle -o "$OUT/sparse.png" > /dev/null 2>&1
check "sparse log: data unchanged by decimation" cmp "$OUT/sparse.dat" testdata/sparse-procstate.dat
$PS -f "$OUT/small.log" -t 1.030,1.060 --idle -o "$OUT/sparsew.png" > /dev/null 2>&1
check "sparse log, -t: data unchanged by decimation" \
	cmp "$OUT/sparsew.dat" testdata/sparse-procstate-window.dat

# Dense: 200000 records, a state change every 0.5 us on 100 ms; at most 3
# segments per pixel column and lane, whatever the width.
check "mkdenselog writes a log" ./obj/mkdenselog "$OUT/dense.log" 200000
for w in 1200 100; do
	$PS -f "$OUT/dense.log" -t 1.0,1.1 --idle --width $w -o "$OUT/dense$w.png" > /dev/null 2>&1
	check "dense log, --width $w: renders" is_png "$OUT/dense$w.png"
	check "dense log, --width $w: at most 3 segments per pixel column and lane" \
		[ "$(max_per_column "$OUT/dense$w.dat" 1.0 1.1 $w)" -le 3 ]
done
check "dense log, --width 100: 1 to 3 x 100 rows per lane" \
	[ "$(rows_for_pid "$OUT/dense100.dat" 401)" -ge 1 ] && [ "$(rows_for_pid "$OUT/dense100.dat" 401)" -le 300 ]
# The checker itself: 5 segments in one column of one lane.
printf '0 "x"\n\n\n# rows\n' > "$OUT/five.dat"
for i in 0 1 2 3 4; do echo "0 1.00$i 1.00$((i + 1)) 0 0 5" >> "$OUT/five.dat"; done
check "the column count sees 5 segments in a column" \
	same "$(max_per_column "$OUT/five.dat" 1.0 1.1 10)" 5
check "--width 0 is refused" fails $PS -f "$OUT/small.log" --width 0 -o "$OUT/w0.png"

# ---- 3. shipped CSV fixture (decoded, -V, ns times, quoted comm) ------
$PS --csv-file testdata/small.csv -n 't-*' -o "$OUT/csv.png" --summary > "$OUT/csv.txt" 2> "$OUT/csv.err"
check "render of the CSV fixture exits 0" [ $? -eq 0 ]
check "csv.png is a PNG" is_png "$OUT/csv.png"
check "lane 200 has intervals" has_rows "$OUT/csv.dat" 200
check "lane 201 has intervals" has_rows "$OUT/csv.dat" 201
check "-n 't-*' leaves out bg" no_rows "$OUT/csv.dat" 202
check "t-cpu figures" same "$(summary_line "$OUT/csv.txt" 200)" \
	"200 t-cpu 28.000 2.000 20.000 2 2.000 2.010000000"
check "quoted comm read whole" same "$(summary_line "$OUT/csv.txt" 201)" \
	"201 t-x,y 12.000 5.000 28.000 2 5.000 2.005000000"

# ---- 4. failures are reported ----------------------------------------
check "no matching process fails" fails $PS -f "$OUT/small.log" -p 999 -o "$OUT/x.png"
refusals $PS "$OUT/small.log"

report
