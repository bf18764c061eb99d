#!/bin/bash
# One guest run of the bench suite (tests/scenarios/bench_suite.sh), as
# make bench and tools/bench/ablate.sh run it.  CLOCK icount counts
# executed instructions (-icount shift=0: repeats run to run); wall is
# TCG's wall clock.  The suite's results land in OUTDIR (its console.log,
# the scenario's files), which tools/bench/report.py reads.
#
# The peers (perf, libbpf, bpftrace) run only under icount, where their
# figures are read: under wall they would double a long run for nothing.
# BENCH_PEERS=0 leaves them out under icount too (tools/bench/ablate.sh),
# BENCH_BPFTRACE=0 only bpftrace; BENCH_BT_WORKLOADS=getppid,pipe runs
# bpftrace on those workloads only (all seven without it), BENCH_BT_CONFIGS=
# h-drop-bt,... those of its configurations only; BENCH_CONFIGS=
# none,lkst-twins and BENCH_WORKLOADS=getppid,pipe the suite's own.
# Two hours at most: bpftrace compiles each of its programs under TCG.
#
# usage: tools/bench/run-guest.sh BZIMAGE INITRD OUTDIR icount|wall REPS
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# = 5 ] || { echo "usage: $0 BZIMAGE INITRD OUTDIR icount|wall REPS" >&2; exit 2; }
case $4 in
icount) extra="-icount shift=0,sleep=off" peers=1 ;;
wall) extra="" peers=0 ;;
*) echo "run-guest.sh: clock $4: not icount or wall" >&2; exit 2 ;;
esac
peers=${BENCH_PEERS:-$peers}
QEMU_EXTRA="$extra" KERNEL=$1 INITRD=$2 \
	APPEND="lkst_run=bench_suite lkst_bench_reps=$5 lkst_bench_peers=$peers lkst_bench_bt=${BENCH_BPFTRACE:-1} ${BENCH_BT_WORKLOADS:+lkst_bench_bt_workloads=$BENCH_BT_WORKLOADS} ${BENCH_BT_CONFIGS:+lkst_bench_bt_configs=$BENCH_BT_CONFIGS} ${BENCH_CONFIGS:+lkst_bench_configs=$BENCH_CONFIGS} ${BENCH_WORKLOADS:+lkst_bench_workloads=$BENCH_WORKLOADS} lkst_timeout=6600" \
	TIMEOUT=7200 exec tests/qemu/run.sh "$3"
