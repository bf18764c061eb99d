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
lkst_torture -c "$cycles" -o after.log >torture.txt 2>&1
rc=$?
cat torture.txt
echo "torture_exit $rc" >>hardening.txt
grep -E '^(torture_cycles|hotplug_cycles|handler_calls|handler_fired|records_unaccounted) ' \
	torture.txt >>hardening.txt
cat hardening.txt
step lkbuf list
[ "$rc" -eq 0 ] || { echo "FAIL: lkst_torture exited $rc"; exit 1; }
