# lkst-pagemap: physical pages of a process against time.
#
#   gnuplot -e "datafile='x.dat'; outfile='x.png'" pagemap.gp
#
# Optional: width, height (pixels: 1200, 700), xmin/xmax (seconds),
# ymin/ymax (PFN), y2max (pages held), snapw (half width of a snapshot bar, seconds), minh (least half height
# of a bar, PFNs, so that one page stays visible), plottitle.
# The data file (written by lkst-pagemap) has five blocks, each with at
# least one row (a row of NaN when there is nothing to draw):
#   index 0: allocations  time_s pfn order pid pages
#   index 1: frees        time_s pfn order pid pages   (allocated in the trace)
#   index 2: frees        time_s pfn order pid pages   (allocated before it)
#   index 3: snapshot runs  time_s first_pfn end_pfn pages snapshot vaddr pid
#            (time_s: the snapshot's first run, so a snapshot is one bar)
#   index 4: pages held   time_s pages                 (right axis)

if (!exists("datafile") || !exists("outfile")) {
	print "pagemap.gp: set datafile and outfile with -e"
	exit status 1
}
if (!exists("plottitle")) plottitle = "lkst physical pages"
if (!exists("snapw")) snapw = 0.05
if (!exists("minh")) minh = 0
if (!exists("width")) width = 1200
if (!exists("height")) height = 700

if (strstrt(GPVAL_TERMINALS, " pngcairo ") > 0) {
	set terminal pngcairo size width, height font "sans,10" noenhanced
} else {
	set terminal png size width, height noenhanced
}
set output outfile

set title plottitle
set xlabel "time (s)"
set ylabel "physical page frame number (PFN)"
set y2label "pages held (allocated in the trace, not freed)"
set format x "%.3f"
set format y "0x%05x"
set ytics nomirror
set y2tics
set grid xtics ytics
set key outside top center horizontal
set style fill solid 0.5 noborder
if (exists("xmin") && exists("xmax")) set xrange [xmin : xmax]
if (exists("ymin") && exists("ymax")) set yrange [ymin : ymax]
# gnuplot cannot autoscale an axis whose series has no point at all.
if (!exists("y2max")) y2max = 10
set y2range [0 : y2max]

# Point size grows with the order: 1 page, 2, 4, ...
psize(order) = 0.8 + 0.5 * order

halfh(a, b) = (b - a) / 2 > minh ? (b - a) / 2 : minh

plot datafile index 3 using 1:(($2 + $3) / 2):(snapw):(halfh($2, $3)) \
        with boxxyerror lc rgb "#707070" title "mapped (lkst_pagewalk snapshot)", \
     '' index 0 using 1:2:(psize($3)) with points pt 7 ps variable \
        lc rgb "#1f77b4" title "allocated", \
     '' index 1 using 1:2:(psize($3)) with points pt 4 ps variable lw 1.5 \
        lc rgb "#d62728" title "freed", \
     '' index 2 using 1:2:(psize($3)) with points pt 2 ps variable \
        lc rgb "#ff7f0e" title "freed, allocated before the trace", \
     '' index 4 using 1:2 axes x1y2 with steps lw 2 lc rgb "#2ca02c" title "pages held"
