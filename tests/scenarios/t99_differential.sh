# The differential test: ftrace's upstream tracepoints and lkst under RALL
# record the same workload in the same run; tests/check/t99_differential.py
# compares them event by event.  Named t99 so that it runs last: its
# results are large, and the guest rewrites the results tar after every
# scenario.
. /scenarios/common.inc

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || { echo "FAIL: no tracefs"; exit 1; }
[ -d $T/events/raw_syscalls ] || { echo "FAIL: no syscall tracepoints (CONFIG_FTRACE_SYSCALLS)"; exit 1; }

# The upstream twins of lkst's hooks (tests/check/differential.tsv says
# which lkst event each one is compared with): RDEFAULT's and the rest's.
. /scenarios/twins.inc
EVENTS="$TWINS_FTRACE
kmem/mm_page_alloc kmem/mm_page_free
timer/hrtimer_start timer/hrtimer_cancel
timer/hrtimer_expire_entry timer/hrtimer_expire_exit
timer/timer_start timer/timer_cancel
timer/timer_expire_entry timer/timer_expire_exit
block/block_bio_queue block/block_rq_issue block/block_rq_complete
net/net_dev_xmit net/netif_receive_skb napi/napi_poll"

ftrace_kb=$(cut -d' ' -f1 $T/buffer_size_kb)	# "7 (expanded: 1408)"
hash_ptr=$(cat $T/options/hash-ptr)
lo_was_up=0
ip link show lo | grep -q '<.*UP' && lo_was_up=1
cleanup() {
	lkm set -m 1
	echo 0 >$T/tracing_on
	echo 0 >$T/events/enable
	echo "$ftrace_kb" >$T/buffer_size_kb
	echo "$hash_ptr" >$T/options/hash-ptr
	lkbuf resize -s 512K
	[ $lo_was_up = 1 ] || ip link set lo down
}

run ip link set lo up
for e in $EVENTS; do
	[ -f $T/events/$e/enable ] || fail "no upstream event $e"
	echo 1 >$T/events/$e/enable || fail "cannot enable $e"
done
# Large enough that neither tracer wraps: the checker verifies it.
echo 16384 >$T/buffer_size_kb || fail "ftrace buffer_size_kb"
run lkbuf resize -s 16M
# Raw addresses (timers, work items, functions) to compare with lkst's.
echo 0 >$T/options/hash-ptr || fail "ftrace hash-ptr option"
echo >$T/trace
# Counted since boot: the checker wants them unchanged by the run.
lkbuf list >lkbuf-list-before.txt || fail "lkbuf list"
lkm stat >lkm-stat-before.txt || fail "lkm stat"
echo 1 >$T/tracing_on
run lkm set -m 2
lkst_diffload -d /dev/vdb >facts.txt || fail "lkst_diffload"
# Which interrupts are the scratch disk's: virtioN, or virtioN-req.Q with MSI-X.
echo "disk_irq_name $(basename "$(readlink -f /sys/block/vdb/device)")" >>facts.txt
# The last switch away from a dead child can follow its parent's wait()
# return; let every task of the workload finish before both stop.
sleep 1
run lkm set -m 1
echo 0 >$T/tracing_on

run lkbuf read -f trace.log
lkbuf print -r -C -f trace.log | gzip -1 >trace.csv.gz || fail "lkbuf print"
gzip -1 trace.log
# The overrun counters say whether ftrace lost anything.
for s in $T/per_cpu/cpu*/stats; do
	echo "== $s"
	cat "$s"
done >ftrace-stats.txt
gzip -1 <$T/trace >ftrace.txt.gz || fail "reading $T/trace"
lkbuf list >lkbuf-list.txt
lkm stat >lkm-stat.txt
# Names for the function addresses lkst records (ftrace prints symbols).
gzip -1 </proc/kallsyms >kallsyms.gz
cleanup
cat facts.txt
