# Per-event counters (lkm stat) and user marks (lkbuf mark) on the real
# kernel: a burst of 50 lseeks is counted with nothing dropped, and the
# mark written afterwards is in the trace with its text.
. /scenarios/common.inc

new_syscall_maskset 10
step lkm config -m 10 USER_MARK default
step lkm set -m 10
step lkm stat --reset
lkst_syscalls -n 50 >prog.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
step lkbuf mark "before-the-burst"
lkm stat >stat.txt || { echo "FAIL: lkm stat"; exit 1; }
step lkbuf read -f trace.log
lkbuf print -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm set -m 0
step lkm delete -m 10
cat stat.txt
