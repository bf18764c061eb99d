#!/bin/sh
# lkst-pagemap tests, run by `make test` from tools/visualize:
#   1. the page series' unit test (obj/test_pagemap)
#   2. a two-CPU log written by the utils' writer (obj/mkpagelog, answers
#      in its comment), summarised and rendered through gnuplot; every CSV
#      variant of `lkbuf print -C` must give the log's figures
#   3. --live on a CSV that grows while it runs
#   4. failures are reported
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.." || exit 1

OUT=tests/out-pagemap
PM=./lkst-pagemap
. tests/lib.sh

# figures FILE: the summary's "key value" lines as one line "k=v k=v ..."
figures() {
	awk '!/^#/ && NF >= 2 { printf "%s%s=%s", sep, $1, $2; sep = " " }' "$1"
}

# rows FILE INDEX: data rows (not comments, not NaN) of one block of a .dat
rows() {
	awk -v want="$2" 'BEGIN { idx = 0 } /^$/ { blank++; next }
		blank >= 2 { idx++; blank = 0 } { blank = 0 }
		idx == want && !/^#/ && $1 != "NaN" { n++ } END { print n + 0 }' "$1"
}

rm -rf "$OUT" && mkdir -p "$OUT" || exit 1

# ---- 1. unit test --------------------------------------------------------
unit_test ./obj/test_pagemap "$OUT/unit.txt"

# ---- 2. log from the utils' writer -----------------------------------
check "mkpagelog writes a log" ./obj/mkpagelog "$OUT/pages.log"

TMEM="allocations=3 allocated_pages=6 frees=2 freed_pages=3 early_frees=1 early_freed_pages=1 missed_free_pages=0 held_pages=3 pfn_min=0xf00 pfn_max=0x1200 snapshots=2 last_snapshot=2 last_snapshot_pages=2 last_snapshot_runs=1"

$PM -f "$OUT/pages.log" -n t-mem -o "$OUT/log.png" --summary > "$OUT/log.txt" 2> "$OUT/log.err"
check "render of the log exits 0" [ $? -eq 0 ]
check "log.png is a PNG" is_png "$OUT/log.png"
check "t-mem figures (pairing by pfn/order, early free, CPUs merged)" \
	same "$(figures "$OUT/log.txt")" "$TMEM"
check "3 allocations plotted" same "$(rows "$OUT/log.dat" 0)" 3
check "2 frees plotted" same "$(rows "$OUT/log.dat" 1)" 2
check "1 early free plotted" same "$(rows "$OUT/log.dat" 2)" 1
check "3 snapshot runs plotted" same "$(rows "$OUT/log.dat" 3)" 3
check "held-pages line plotted" [ "$(rows "$OUT/log.dat" 4)" -gt 0 ]
check "summary names the process" grep -q '^# lkst-pagemap: pid 300 (t-mem)' "$OUT/log.txt"

# -p picks the same process; another pid gives its own figures.
$PM -f "$OUT/pages.log" -p 300 > "$OUT/p300.txt"
check "-p 300 gives the t-mem figures" same "$(figures "$OUT/p300.txt")" "$TMEM"
$PM -f "$OUT/pages.log" -p 301 > "$OUT/p301.txt"
check "-p 301 (pid filter)" same "$(figures "$OUT/p301.txt")" \
	"allocations=1 allocated_pages=2 frees=0 freed_pages=0 early_frees=0 early_freed_pages=0 missed_free_pages=0 held_pages=2 pfn_min=0x2000 pfn_max=0x2001 snapshots=0"
$PM -f "$OUT/pages.log" -t ,1.035 -n t-mem > "$OUT/win.txt"
check "-t clips the events" same "$(figures "$OUT/win.txt")" \
	"allocations=2 allocated_pages=5 frees=0 freed_pages=0 early_frees=0 early_freed_pages=0 missed_free_pages=0 held_pages=5 pfn_min=0x1000 pfn_max=0x1013 snapshots=0"

# The options lkbuf print shares: -n PREFIX*, -p hex, -t as a time of day
# (the log's anchor is 0: 1.035 s is 00:00:01.035 UTC).
$PM -f "$OUT/pages.log" -n 't-m*' > "$OUT/prefix.txt"
check "-n t-m* gives the t-mem figures" same "$(figures "$OUT/prefix.txt")" "$TMEM"
$PM -f "$OUT/pages.log" -p 0x12c > "$OUT/hex.txt"
check "-p 0x12c gives the t-mem figures" same "$(figures "$OUT/hex.txt")" "$TMEM"
TZ=UTC $PM -f "$OUT/pages.log" -t ,00:00:01.035 -n t-mem > "$OUT/tod.txt"
check "-t as a time of day clips as seconds do" cmp -s "$OUT/win.txt" "$OUT/tod.txt"
check "-c is not an option any more" fails $PM -f "$OUT/pages.log" -c t-mem
check "-n t- matches no name exactly" fails $PM -f "$OUT/pages.log" -n t-
check "-t as a time of day needs a log (not --csv-file)" \
	fails $PM --csv-file testdata/small.csv -t 00:00:01,
check "-t 1:2, is refused" fails $PM -f "$OUT/pages.log" -t 1:2,

# Sparse: no two points of a kind in one pixel: the data is exactly what
# the undecimated lkst-pagemap wrote (testdata/sparse-pagemap.dat).
$PM -f "$OUT/pages.log" -o "$OUT/sparse.png" > /dev/null 2>&1
check "sparse log: data unchanged by decimation" cmp "$OUT/sparse.dat" testdata/sparse-pagemap.dat

# Dense: 80000 allocations and frees of 4096 PFNs in 200 ms drawn on 100x50
# pixels.  Counted on a grid of the points' own extent, which may straddle
# the picture's cells, so at most 4 (2x2 cells) points of a kind per cell.
check "mkdenselog writes a log" ./obj/mkdenselog "$OUT/dense.log" 400000
$PM -f "$OUT/dense.log" -p 400 --width 100 --height 50 -o "$OUT/dense.png" > /dev/null 2>&1
check "dense log renders" is_png "$OUT/dense.png"
for b in 0 1; do
	got=$(awk -v want=$b 'BEGIN { idx = 0; n = 0 } /^$/ { blank++; next }
		blank >= 2 { idx++; blank = 0 } { blank = 0 }
		idx == want && !/^#/ && $1 != "NaN" { t[n] = $1; y[n] = $2; n++ }
		END {
			for (i = 0; i < n; i++) {
				if (!i || t[i] < t0) t0 = t[i]; if (!i || t[i] > t1) t1 = t[i]
				if (!i || y[i] < y0) y0 = y[i]; if (!i || y[i] > y1) y1 = y[i]
			}
			for (i = 0; i < n; i++) {
				k = int((t[i] - t0) * 100 / (t1 - t0 + 1e-12)) " " \
				    int((y[i] - y0) * 50 / (y1 - y0 + 1))
				if (++c[k] > max) max = c[k]
			}
			print n " " max + 0
		}' "$OUT/dense.dat")
	check "dense log, block $b: points drawn ($got)" [ "${got% *}" -gt 100 ]
	check "dense log, block $b: at most 4 points per cell ($got)" [ "${got#* }" -le 4 ]
done
check "dense log: the held line has at most 4 points per pixel column (+1)" \
	[ "$(rows "$OUT/dense.dat" 4)" -le 401 ]
check "--height 0 is refused" fails $PM -f "$OUT/pages.log" --height 0 -o "$OUT/h0.png"

# The script on its own, as documented.
gnuplot -e "datafile='$OUT/log.dat'; outfile='$OUT/direct.png'" pagemap.gp
check "gnuplot pagemap.gp exits 0" [ $? -eq 0 ]
check "direct.png is a PNG" is_png "$OUT/direct.png"

# Every CSV form lkbuf prints must give the log's figures.
for flags in "" "-r" "-S" "-V" "-r -S -V" "-r -V"; do
	./obj/lkbuf print -C $flags -f "$OUT/pages.log" > "$OUT/v.csv" 2>/dev/null &&
	$PM --csv-file "$OUT/v.csv" -n t-mem > "$OUT/v.txt"
	check "CSV 'lkbuf print -C $flags' gives the log's figures" \
		same "$(figures "$OUT/v.txt")" "$TMEM"
done

# Snapshots alone (no allocator hooks routed) still draw: fixed axes.
./obj/lkbuf print -C -e MEM_PAGE_SNAPSHOT,process -f "$OUT/pages.log" > "$OUT/snaps.csv" 2>/dev/null
$PM --csv-file "$OUT/snaps.csv" -n t-mem -o "$OUT/snaps.png" > "$OUT/snaps.txt" 2>&1
check "snapshots alone render" is_png "$OUT/snaps.png"
check "snapshots alone: 3 runs, no allocations" \
	same "$(rows "$OUT/snaps.dat" 3) $(rows "$OUT/snaps.dat" 0)" "3 0"
check "a snapshot's runs share its time" \
	same "$(awk '/^# snapshot runs/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$OUT/snaps.dat" | sort -u | tr '\n' ' ')" \
	"1.060000000 1.090000000 "

# ---- 3. live: the CSV grows while lkst-pagemap redraws it -------------
./obj/lkbuf print -C -r -f "$OUT/pages.log" > "$OUT/full.csv" 2>/dev/null
head -n 6 "$OUT/full.csv" > "$OUT/grow.csv"	# header + 5 records, 2 allocs of t-mem
# A record cut in the middle, as a writer leaves it between two writes.
sed -n 7p "$OUT/full.csv" | head -c 20 >> "$OUT/grow.csv"
$PM --live --interval 0.4 --frames 6 --csv-file "$OUT/grow.csv" -n t-mem \
	-o "$OUT/live.png" --summary > "$OUT/live.txt" 2> "$OUT/live.err" &
live=$!
# Append the rest once the first frame is drawn (not on a timer: the
# machine may be busy).
i=0
until grep -q 'frame 1:' "$OUT/live.err" 2>/dev/null || [ $i -ge 100 ]; do
	sleep 0.1; i=$((i + 1))
done
{ sed -n 7p "$OUT/full.csv" | tail -c +21; sed -n '8,$p' "$OUT/full.csv"; } >> "$OUT/grow.csv"
wait $live
check "--live exits 0" [ $? -eq 0 ]
check "--live drew 6 frames" same "$(grep -c ': frame [0-9]*: .* -> ' "$OUT/live.err")" 6
check "--live never failed on the cut line" fails grep -q 'keeping the last picture' "$OUT/live.err"
check "--live first frames: 2 allocations, 5 pages" \
	grep -q 'frame 1: 5 pages allocated, 0 freed, 5 held' "$OUT/live.err"
check "--live last frame: the whole trace" \
	grep -q 'frame 6: 6 pages allocated, 3 freed, 3 held, 2 snapshots' "$OUT/live.err"
check "live.png is a PNG" is_png "$OUT/live.png"
check "no temporary picture left" [ ! -e "$OUT/live.png.tmp" ]
check "--live --summary gives the final figures" same "$(figures "$OUT/live.txt")" "$TMEM"

# ---- 4. failures are reported ----------------------------------------
check "no matching process fails" fails $PM -f "$OUT/pages.log" -n nosuch
check "nothing to draw fails" fails $PM -f "$OUT/pages.log" -p 999 -o "$OUT/x.png"
refusals $PM "$OUT/pages.log"
printf 'time,cpu,pid,id,arg1,arg2,arg3,arg4,arg5,arg6\n1,0,5,0x40,zz,0,0,0,,\n' > "$OUT/badarg.csv"
check "a bad argument is refused" fails $PM --csv-file "$OUT/badarg.csv"
check "bad --pfn is refused" fails $PM -f "$OUT/pages.log" --pfn 0x20,0x10 -o "$OUT/w.png"
$PM -f "$OUT/pages.log" -n t-mem --pfn 0x1000,0x1020 -o "$OUT/zoom.png" > /dev/null 2>&1
check "--pfn zooms" is_png "$OUT/zoom.png"
check "--live needs -o" fails $PM -f "$OUT/pages.log" --live
check "--live with nothing to draw fails" fails $PM -f "$OUT/pages.log" -p 999 -o "$OUT/z.png" --live --frames 1 --interval 0.1

report
