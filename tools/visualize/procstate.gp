# lkst-procstate timeline: one lane per process, a bar per state interval.
#
#   gnuplot -e "datafile='x.dat'; outfile='x.png'" procstate.gp
#
# Optional: nlanes (image height), width (pixels, 1200), xmin/xmax
# (seconds), plottitle.
# The data file (written by lkst-procstate) has two blocks:
#   index 0: lane "PID comm"                      -> y tic labels
#   index 1: lane start_s end_s state cpu pid     (state 0 running,
#            1 ready, 2 blocked; cpu -1 unless running)

if (!exists("datafile") || !exists("outfile")) {
	print "procstate.gp: set datafile and outfile with -e"
	exit status 1
}
if (!exists("nlanes")) nlanes = 10
if (!exists("plottitle")) plottitle = "lkst process states"
if (!exists("width")) width = 1200

height = 110 + 26 * (nlanes > 1 ? nlanes : 1)
if (strstrt(GPVAL_TERMINALS, " pngcairo ") > 0) {
	set terminal pngcairo size width, height font "sans,10" noenhanced
} else {
	set terminal png size width, height noenhanced
}
set output outfile

set title plottitle
set xlabel "time (s)"
set format x "%.3f"
set yrange [nlanes - 0.5 : -0.5]	# first lane (lowest PID) on top
set ytics nomirror scale 0
set grid xtics
set key outside top center horizontal
set style fill solid 1.0 noborder
if (exists("xmin") && exists("xmax")) set xrange [xmin : xmax]

bar(s, state) = ($4 == state ? s : NaN)

plot datafile index 0 using (NaN):1:ytic(2) notitle, \
     '' index 1 using (bar(($2 + $3) / 2, 0)):1:(($3 - $2) / 2):(0.38) \
        with boxxyerror lc rgb "#2ca02c" title "running", \
     '' index 1 using (bar(($2 + $3) / 2, 1)):1:(($3 - $2) / 2):(0.38) \
        with boxxyerror lc rgb "#ff7f0e" title "ready (waiting for a CPU)", \
     '' index 1 using (bar(($2 + $3) / 2, 2)):1:(($3 - $2) / 2):(0.20) \
        with boxxyerror lc rgb "#9fb7d9" title "blocked (sleeping)"
