# (d) Switching to RNOTHING stops recording: nothing is written after it.
. /scenarios/common.inc

new_syscall_maskset 6
step lkm set -m 6
lkst_syscalls -n 10 -t 0xaaaa0000 >a.txt || { echo "FAIL: first run"; exit 1; }
step lkm set -m 0
step lkbuf read -f before.log
lkst_syscalls -n 10 -t 0xbbbb0000 >b.txt || { echo "FAIL: second run"; exit 1; }
step lkst_workload -o pids.txt -t 100
step lkbuf read -f after.log
lkbuf print -r -C -f after.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 6
