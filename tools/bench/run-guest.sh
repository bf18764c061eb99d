#!/bin/bash
# One guest run of the bench suite (tests/scenarios/bench_suite.sh), as
# make bench and tools/bench/ablate.sh run it.  CLOCK icount counts
# executed instructions (-icount shift=0: repeats run to run); wall is
# TCG's wall clock.  The suite's results land in OUTDIR (its console.log,
# the scenario's files), which tools/bench/report.py reads.
#
# usage: tools/bench/run-guest.sh BZIMAGE INITRD OUTDIR icount|wall REPS
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# = 5 ] || { echo "usage: $0 BZIMAGE INITRD OUTDIR icount|wall REPS" >&2; exit 2; }
case $4 in
icount) extra="-icount shift=0,sleep=off" ;;
wall) extra="" ;;
*) echo "run-guest.sh: clock $4: not icount or wall" >&2; exit 2 ;;
esac
QEMU_EXTRA="$extra" KERNEL=$1 INITRD=$2 \
	APPEND="lkst_run=bench_suite lkst_bench_reps=$5 lkst_timeout=3000" \
	TIMEOUT=3600 exec tests/qemu/run.sh "$3"
