# Timers: the VT bell timer armed by KDMKTONE (added, cancelled by a
# second KDMKTONE, added again, expired), an absolute clock_nanosleep and
# an ITIMER_REAL that fires and one that is cancelled (hrtimers).
. /scenarios/common.inc

[ -e /dev/tty0 ] || mknod /dev/tty0 c 4 0
lkm read -m 0 | lkm write -m 22 -N timer22 || { echo "FAIL: write"; exit 1; }
step lkm config -m 22 timer default
step lkm set -m 22
lkst_irqload tone -d /dev/tty0 -m 100 >prog.txt || { echo "FAIL: lkst_irqload tone"; exit 1; }
lkst_irqload hrtimer -m 40 >>prog.txt || { echo "FAIL: lkst_irqload hrtimer"; exit 1; }
step lkm set -m 0
grep -wE 'kd_nosound|kd_mksound_timer|hrtimer_wakeup|it_real_fn' /proc/kallsyms >kallsyms.txt
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 22
cat prog.txt
