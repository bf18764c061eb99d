# Benchmark (make bench, not part of make test): what tracing adds to a
# system call, compared within this one guest run.
. /scenarios/common.inc

new_syscall_maskset 4
step lkm set -m 0
lkst_bench -n 200000 -l "RNOTHING (hooks are NOPs)" | tee -a bench.txt
step lkm set -m 4
lkst_bench -n 200000 -l "syscall entry+exit recorded" | tee -a bench.txt
step lkm set -m 2
lkst_bench -n 200000 -l "RALL (plus switches, wakeups)" | tee -a bench.txt
step lkm set -m 0
lkst_bench -n 200000 -l "RNOTHING again" | tee -a bench.txt
step lkm delete -m 4
awk '/^RNOTHING \(/ { base = $(NF-3) } /^syscall entry/ { t = $(NF-3) }
     END { if (base > 0) printf "recording 2 events per call costs %.2fx an untraced call (%.1f%% more)\n", t / base, (t / base - 1) * 100 }' bench.txt
