# Exceptions: one of each x86 trap the guest can raise from user mode,
# caught in forked children (lkst_traps), page faults with and without a
# signal, and NMIs from a backtrace of all CPUs (sysrq l).
. /scenarios/common.inc

lkm read -m 0 | lkm write -m 23 -N exc23 || { echo "FAIL: write"; exit 1; }
step lkm config -m 23 exception default
step lkm set -m 23
lkst_traps >traps.txt || { cat traps.txt; echo "FAIL: lkst_traps"; exit 1; }
# The backtraces go to the log buffer only: the console shows alerts.
read -r level _ </proc/sys/kernel/printk
dmesg -n 1
echo l >/proc/sysrq-trigger
sleep 1
dmesg -n "$level"
step lkm set -m 0
dmesg | grep -c 'NMI backtrace for cpu' >nmi_backtraces.txt
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 23
cat traps.txt
