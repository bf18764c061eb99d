# (a) Context switches and wakeups of a workload, with the states the
# tasks leave the CPU in.
. /scenarios/common.inc

lkm read -m 0 | lkm write -m 3 -N proctrace || { echo "FAIL: write"; exit 1; }
step lkm config -m 3 PROCESS_CONTEXTSWITCH default PROCESS_WAKEUP default
step lkm set -m 3
step lkst_workload -o pids.txt -t 400
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print -r -C"; exit 1; }
lkbuf print -C -f trace.log >decoded.csv || { echo "FAIL: print -C"; exit 1; }
step lkm delete -m 3
