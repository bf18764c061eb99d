# lkbuf report against lkm agg: the same events aggregated live by
# lkst_agg and recorded by the buffers (agg-record hands each one to
# both), then summarized offline from the saved log; the report's numbers
# must equal the live ones.  Also lkbuf print --where.
# tests/check/t66_report.py compares the files.
. /scenarios/common.inc

M=13
EVENTS="SYSCALL_ENTRY SYSCALL_EXIT PROCESS_CONTEXTSWITCH PROCESS_WAKEUP PROCESS_WAKEUP_NEW INT_HARDWARE_ENTRY INT_HARDWARE_EXIT"
prev=$(lkm list | awk '$3 ~ /active/ { print $1 }')
cleanup() {
	[ -n "$prev" ] && lkm set -m "$prev"
	lkm agg delete 2>/dev/null
	lkm delete -m $M
	rmmod lkst_agg 2>/dev/null
	lkbuf resize -s 512K
}
agg() {
	run lkm agg set -m $M --record "$@"
}

echo "active before: $prev"
run insmod /lib/lkst/lkst_agg.ko
# Only what the aggregations route is recorded: a copy of rnothing.
lkm read -m 0 | lkm write -m $M -N report || fail "cannot create maskset $M"
agg --name byev --func count --keys event $EVENTS
agg --name bycpu --func count --keys cpu $EVENTS
agg --name bypid --func count --keys pid $EVENTS
agg --name bysys --func count --keys arg1 SYSCALL_ENTRY
agg --name bypidsys --func count --keys pid,arg1 SYSCALL_ENTRY
agg --name slat --func quantize --latency syscall --keys pid
agg --name sched --func quantize --latency sched --keys pid
agg --name irq --func quantize --latency irq --keys arg1
lkm read -m $M >maskset.txt
# Nothing routed while the buffers are emptied, so that they hold exactly
# the events the aggregations see; big enough that none is overwritten.
run lkm set -m 0
run lkbuf resize -s 8M
dropped() {
	lkbuf list | sed -n 's/.*dropped \([0-9]*\).*/\1/p' >"$1"
}
dropped dropped-before.txt
run lkm set -m $M
lkst_aggload writes -N rwrites -c 1 -g 37 >writes.txt || fail "lkst_aggload writes"
lkst_aggload sleep -N rsleep -n 10 -d 5 || fail "lkst_aggload sleep"
lkst_aggload spin -t 300 || fail "lkst_aggload spin"
lkst_irqload disk -d /dev/vdb >disk.txt || fail "lkst_irqload disk"
run lkm set -m 0
dropped dropped-after.txt
lkm agg list >list.txt || fail "lkm agg list"
lkm agg print -C >agg.csv || fail "lkm agg print -C"
run lkbuf read -f trace.log
lkbuf info -f trace.log >info.txt || fail "lkbuf info"
lkbuf report -f trace.log >report.txt || fail "lkbuf report"
lkbuf report -C -f trace.log >report.csv || fail "lkbuf report -C"
lkbuf report -C --section syscalls,errors -f trace.log >report-sections.csv ||
	fail "lkbuf report -s"
lkbuf print -r -C -f trace.log >trace.csv || fail "lkbuf print"
# --where: the checker computes the same selection from trace.csv.
lkbuf print -r -C -f trace.log --where 'arg1 == 8 || (cpu == 1 && ctx != 0)' \
	>where1.csv || fail "lkbuf print --where (1)"
lkbuf print -r -C -f trace.log --where 'comm == "rsleep" && arg1 >= 35 && !(arg2 < 0)' \
	>where2.csv || fail "lkbuf print --where (2)"
lkbuf report -C -f trace.log --where 'comm == "rsl*"' >report-where.csv ||
	fail "lkbuf report --where"
lkbuf print -f trace.log --where 'tgid == 1' >/dev/null 2>where-tgid.txt &&
	fail "--where tgid accepted"
lkbuf report -f trace.log --section bogus >/dev/null 2>section-bad.txt &&
	fail "--section bogus accepted"
cleanup
