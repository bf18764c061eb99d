# The process-trace flow of LKST's demo (seed 004), exactly as a user types
# it, around a small workload of sleeping, waking and spinning processes.
. /scenarios/common.inc

lkm read -m 0 | lkm write -m 3 || { echo "FAIL: lkm read | lkm write"; exit 1; }
step lkm config -m 3 1 1
step lkm config -m 3 2 1
step lkm set -m 3
step lkst_workload -o pids.txt -t 400
step lkbuf read -f trace.log
lkbuf print -r -C -S -V -f trace.log >trace.csv || { echo "FAIL: lkbuf print"; exit 1; }
step lkbuf list
step lkm list
echo "trace.csv: $(wc -l <trace.csv) lines"
