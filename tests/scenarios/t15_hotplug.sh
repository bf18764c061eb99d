# CPU hotplug while tracing: CPU 1 goes offline and online again and again
# under RDEFAULT (its last IPI is sent after RCU stopped watching it) while
# a load runs; after each cycle a tagged burst of system calls runs on CPU 1.
# The CPU keeps its buffer while offline, records again once back, and
# every record stays accounted for.  Lockdep on the console catches RCU use
# from the offline CPU.
. /scenarios/common.inc

cycles=${HOTPLUG_CYCLES:-12}
online=/sys/devices/system/cpu/cpu1/online
[ -w $online ] || { echo "FAIL: $online is not writable"; exit 1; }
new_syscall_maskset 11
step lkm config -m 11 interrupt default process default
step lkm set -m 11
lkst_workload -o pids.txt -t 4000 >/dev/null &
load=$!
done_cycles=0
i=0
while [ $i -lt $cycles ]; do
	step sh -c "echo 0 > $online"
	lkbuf list >offline-$i.txt || { echo "FAIL: lkbuf list while offline"; exit 1; }
	step sh -c "echo 1 > $online"
	# lseek(1234, 0xc0de0000 + 100 * i + n): tagged per cycle
	lkst_syscalls -c 1 -n 3 -t $((0xc0de0000 + 100 * i)) >>prog.txt ||
		{ echo "FAIL: lkst_syscalls on CPU 1"; exit 1; }
	done_cycles=$((done_cycles + 1))
	i=$((i + 1))
done
kill $load 2>/dev/null
wait $load 2>/dev/null
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 11
echo "hotplug_cycles $done_cycles" >hardening.txt
cat offline-0.txt
