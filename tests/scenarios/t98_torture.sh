# Torture: masksets switched, written and deleted, buffers resized, blocks
# created, linked, jumped to and deleted on both CPUs, the trigger handler
# loaded and removed while routed, CPU 1 taken offline and back, all at
# once under load, for a number of cycles (/scenarios/torture_cycles if
# present: `make torture` runs 1000).  Then tracing stops and every record
# written must be held in the buffers or counted as overwritten.
. /scenarios/common.inc

cycles=10
[ ! -f /scenarios/torture_cycles ] || cycles=$(cat /scenarios/torture_cycles)
echo "torture_cycles_requested $cycles" >hardening.txt
# Booted with pseudo-NMIs (make torture ARCH=arm64): the PMU's overflow
# NMIs fire all along, so that hooks also run in NMI context.
perf=
if grep -qw 'irqchip.gicv3_pseudo_nmi=1' /proc/cmdline; then
	echo "pseudo_nmi 1" >>hardening.txt
	lkst_perfnmi -p 100000 >perf.txt 2>&1 &
	perf=$!
fi
lkst_torture -c "$cycles" -o after.log >torture.txt 2>&1
rc=$?
cat torture.txt
echo "torture_exit $rc" >>hardening.txt
if [ -n "$perf" ]; then
	# The NMIs' own records while they still fire (after.log's last
	# maskset may route no interrupt event): RALL for a 2 s load, saved
	# apart in nmi.log, then RDEFAULT again.
	step lkm set -m 2
	step lkst_workload -o nmi-pids.txt -t 2000
	step lkm set -m 0
	step lkbuf read -f nmi.log
	step lkm set -m 1
	kill $perf
	wait $perf
	echo "perf_exit $?" >>hardening.txt
	cat perf.txt
	grep -E '^perf_(cpus|overflows) ' perf.txt >>hardening.txt
fi
grep -E '^(torture_cycles|hotplug_cycles|handler_calls|handler_fired|records_unaccounted) ' \
	torture.txt >>hardening.txt
cat hardening.txt
step lkbuf list
[ "$rc" -eq 0 ] || { echo "FAIL: lkst_torture exited $rc"; exit 1; }
