# Hostile load under RALL: stress-ng (or, where the guest has none, as the
# arm64 one, tests/guest/lkst_hostile.c: the same kinds of work) forks,
# execs (as nobody: its exec stressor refuses root), queues and sends
# signals, faults pages, maps,
# pipes, waits on futexes, uses System V messages, semaphores and shared
# memory and fires timers, while a child OOMs in a 32M memory cgroup twice
# and a loop switches masksets (RALL, RDEFAULT, a user maskset, RNOTHING)
# with 0.2 s between switches (a switch itself takes 0.3-1 s under the
# load).  Then RALL again for the end of the load, tracing off, and
# the buffers saved: every CPU's written == held + overwritten, the same
# as before the load (hardening.txt; tests/check/t95_hostile.py).
#
# The load lasts t95_seconds (kernel command line, which passes it to the
# init's environment) of wall-clock time; by default 18 s, longer on a
# kernel that switches masksets slowly (KASAN), as measured first.
. /scenarios/common.inc

CG=/sys/fs/cgroup
MS=25
SECS=${t95_seconds:-18}
MARK="lkst-t95: hostile load starts"
STOP=/tmp/t95.stop
mounted_cg=0
enabled_memcg=0
marked=0
loglevel=$(cut -f1 /proc/sys/kernel/printk)

cleanup() {
	touch $STOP
	wait
	# Also on failure: what the quiet console did not show.
	[ $marked = 0 ] || dmesg | sed -n "/$MARK/,\$p" >dmesg.txt
	marked=0
	dmesg -n "$loglevel"
	lkm set -m 0
	lkm delete -m $MS 2>/dev/null
	rmdir $CG/lkst-t95 2>/dev/null
	[ $enabled_memcg = 0 ] || echo -memory >$CG/cgroup.subtree_control
	enabled_memcg=0
	[ $mounted_cg = 0 ] || umount $CG
	mounted_cg=0
	rm -rf $STOP /tmp/t95-exec
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# unaccounted LOG LIST OUT: per CPU "cpuN written W overwritten O held H
# unaccounted W-O-H" from `lkbuf list` (the kernel's counters, still while
# nothing traces) and the records LOG holds; the sum on the last line.
unaccounted() {
	lkbuf print -r -C -f "$1" 2>/dev/null | awk -F, 'NR > 1 { n[$2]++ }
		END { for (c in n) print "held", c, n[c] }' >"$3.held" ||
		fail "lkbuf print -f $1"
	awk '$1 == "held" { held[$2] = $3; next }
	     $1 == "cpu" { for (i = 3; i < NF; i++) {
				   v = $(i + 1); sub(/,$/, "", v)
				   if ($i == "written") w = v
				   if ($i == "overwritten") o = v
			   }
			   h = held[$2] + 0
			   print "cpu" $2, "written", w, "overwritten", o, "held", h,
				 "unaccounted", w - o - h
			   sum += w - o - h }
	     END { print "sum", sum + 0 }' "$3.held" "$2" >"$3" || fail "awk"
	rm -f "$3.held"
}

echo "t95 start $(uptime_s)"
rm -f $STOP

# How long switching every static key takes here, before the load.
run lkm set -m 0
t0=$(uptime_s)
run lkm set -m 2
t1=$(uptime_s)
run lkm set -m 0
t2=$(uptime_s)
echo "switch_unloaded $t0 $t1 $t2" | tee timing.txt
# Under the load a switch takes 3 to 10 times as long, even at nice -20:
# leave time for whole cycles of switches on a slower (KASAN) kernel.
if [ -z "${t95_seconds:-}" ]; then
	SECS=$(awk -v a="$t0" -v b="$t2" 'BEGIN { s = int(8 + 60 * (b - a) / 2 + 0.5)
		if (s < 18) s = 18; if (s > 150) s = 150; print s }')
fi
echo "seconds $SECS" | tee -a timing.txt

# The accounting before the load, with nothing tracing.
run lkbuf read -f before.log
lkbuf list >list-before.txt || fail "lkbuf list"
unaccounted before.log list-before.txt acct-before.txt

# A user maskset between RDEFAULT and RALL.
lkm delete -m $MS 2>/dev/null
lkm read -m 0 | lkm write -m $MS -N hostile || fail "cannot create maskset $MS"
run lkm config -m $MS process default syscall default exception default ipc default timer default

# The memory cgroup of the OOM victims.
if ! grep -q " $CG cgroup2 " /proc/mounts; then
	run mount -t cgroup2 none $CG
	mounted_cg=1
fi
if ! grep -qw memory $CG/cgroup.subtree_control; then
	echo +memory >$CG/cgroup.subtree_control || fail "cannot enable the memory controller"
	enabled_memcg=1
fi
run mkdir $CG/lkst-t95
echo 32M >$CG/lkst-t95/memory.max || fail "memory.max"
[ ! -f $CG/lkst-t95/memory.swap.max ] || echo 0 >$CG/lkst-t95/memory.swap.max ||
	fail "memory.swap.max"

# stress-ng's exec stressor runs only as another user than root.
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:65534:65534:nobody:/nonexistent:/bin/sh' >>/etc/passwd
grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >>/etc/group
mkdir -p /tmp/t95-exec && chown 65534:65534 /tmp/t95-exec || fail "/tmp/t95-exec"

# The expected OOM reports (with their stack dumps) stay off the console;
# dmesg.txt keeps the kernel log of the scenario for the checker.
dmesg -n 1
echo "$MARK" >/dev/kmsg
marked=1

run lkm set -m 2
echo "load start $(uptime_s)"
if command -v stress-ng >/dev/null; then
	stress-ng --fork 1 --sigq 1 --kill 1 --fault 1 --mmap 1 --mmap-bytes 1M \
		--pipe 1 --futex 1 --msg 1 --sem-sysv 1 \
		--shm-sysv 1 --shm-sysv-bytes 1M --shm-sysv-segs 2 --timer 1 \
		--timeout "${SECS}s" --metrics-brief --temp-path /tmp \
		>stress-ng.txt 2>&1 &
	sng=$!
	su -s /bin/sh nobody -c "cd /tmp/t95-exec && exec stress-ng --exec 1 --exec-max 4 \
		--timeout ${SECS}s --metrics-brief --temp-path /tmp/t95-exec" \
		>stress-ng-exec.txt 2>&1 &
	sng_exec=$!
else
	lkst_hostile "$SECS" >hostile.txt 2>&1 &
	sng=$!
	sng_exec=
fi

# The OOM victims: 64 MiB touched in the 32M cgroup, after 1 s and 3 s more.
(
	for delay in 1 3; do
		sleep $delay
		lkst_mem oom -c $CG/lkst-t95 -s 64 -o oom-facts.txt
		echo "oom_run_rc $?"
	done >oom-runs.txt 2>&1
) &
oomer=$!

# Maskset switches (RDEFAULT, the user maskset, RNOTHING, RALL; each
# takes its time, every static key following) until 4 s before the end,
# then RALL; tracing stops 1 s before the end, the stressors still at work,
# so that the buffers hold every category of the load.  The switches, and
# this shell, run at nice -20 to keep up with the load.
load_start=$(cut -d. -f1 /proc/uptime)
renice -n -20 -p $$ >/dev/null || fail "renice"
(
	n=0
	while [ ! -e $STOP ]; do
		for m in 1 $MS 0 2; do
			[ "$(cut -d. -f1 /proc/uptime)" -lt $((load_start + SECS - 4)) ] || break 2
			t=$(uptime_s)
			if lkm set -m $m; then
				echo "set $m $t $(uptime_s)"
				n=$((n + 1))
			else
				echo "switch_failed $m"
			fi
			usleep 200000
		done
	done
	t=$(uptime_s)
	if lkm set -m 2; then
		echo "set 2 $t $(uptime_s)"
		n=$((n + 1))
	else
		echo "switch_failed 2"
	fi
	echo "switches $n"
) >switches.txt 2>&1 &
switcher=$!
wait $switcher
while [ "$(cut -d. -f1 /proc/uptime)" -lt $((load_start + SECS - 1)) ]; do
	usleep 100000
done
t=$(uptime_s)
run lkm set -m 0
echo "tracing off $t $(uptime_s)"

if [ -n "$sng_exec" ]; then
	wait $sng
	echo "stress_ng_rc $?" >stress-rc.txt
	wait $sng_exec
	echo "stress_ng_exec_rc $?" >>stress-rc.txt
else
	wait $sng
	echo "hostile_rc $?" >stress-rc.txt
fi
wait $oomer
echo "load end $(uptime_s)"
cat $CG/lkst-t95/memory.events >memory.events.txt || fail "memory.events"
run lkbuf read -f after.log
lkbuf list >list-after.txt || fail "lkbuf list"
unaccounted after.log list-after.txt acct-after.txt

cat stress-rc.txt oom-runs.txt switches.txt memory.events.txt
cat stress-ng.txt stress-ng-exec.txt hostile.txt 2>/dev/null
cat acct-before.txt acct-after.txt
# Records the load left unaccounted: since boot now, less what was already
# so before (records an earlier scenario's resize or delete discarded).
before=$(awk '$1 == "sum" { print $2 }' acct-before.txt)
after=$(awk '$1 == "sum" { print $2 }' acct-after.txt)
{
	echo "records_unaccounted $((after - before))"
	echo "records_unaccounted_since_boot $after"
} | tee hardening.txt
cleanup
echo "t95 end $(uptime_s)"
