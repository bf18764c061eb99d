# In-kernel aggregations (handlers/lkst_agg.ko, lkm agg): exact counts,
# sums, min, max, avg and quantize buckets of a workload with known system
# calls; syscall, wakeup and IRQ latencies; clear; pass-on to DEFAULT;
# bad input refused; reconfiguring and rmmod while events are routed.
# tests/check/t62_agg.py checks the files.
. /scenarios/common.inc

M=12
prev=$(lkm list | awk '$3 ~ /active/ { print $1 }')
cleanup() {
	[ -n "$prev" ] && lkm set -m "$prev"
	lkm delete -m $M
	rmmod lkst_agg 2>/dev/null
}
# expect_fail CODE CMD...: CMD must exit with CODE and say why on stderr.
expect_fail() {
	want=$1
	shift
	"$@" >/dev/null 2>err.txt
	rc=$?
	echo "rc=$rc $*: $(cat err.txt)" >>badinput.txt
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, not $want"
	[ -s err.txt ] || fail "'$*' said nothing on stderr"
}

echo "active before: $prev"
: >badinput.txt
run insmod /lib/lkst/lkst_agg.ko
lkm handlers >handlers.txt
lkm read -m 0 | lkm write -m $M -N agg || fail "cannot create maskset $M"

# 1. Eight aggregations of the system calls' arguments, one workload.
run lkm agg set -N calls -m $M -F count -K comm,arg1 SYSCALL_ENTRY
run lkm agg set -N wsum -m $M -F sum -v arg4 -K comm,arg1 SYSCALL_ENTRY
run lkm agg set -N wmin -m $M -F min -v arg4 -K comm,arg1 SYSCALL_ENTRY
run lkm agg set -N wmax -m $M -F max -v arg4 -K comm,arg1 SYSCALL_ENTRY
run lkm agg set -N wavg -m $M -F avg -v arg4 -K comm,arg1 SYSCALL_ENTRY
run lkm agg set -N wq -m $M -F quantize -v arg4 -K comm,arg1 -s 64 SYSCALL_ENTRY
run lkm agg set -N bypid -m $M -F count -K pid,cpu,arg1 SYSCALL_ENTRY
run lkm agg set -N byev -m $M -F count -K event,comm SYSCALL_ENTRY SYSCALL_EXIT
expect_fail 2 lkm agg set -N ninth -m $M -F count SYSCALL_ENTRY
lkm read -m $M >maskset1.txt
run lkm set -m $M
lkst_aggload writes -N aggw -c 1 -g 37 >writes1.txt || fail "lkst_aggload writes"
run lkm set -m 0
lkm agg list >list1.txt
lkm agg print >print1.txt || fail "lkm agg print"
lkm agg print -C >print1.csv || fail "lkm agg print -C"
lkm agg print -N wq >wq1.txt || fail "lkm agg print -N wq"

# 2. clear: one, then all; the workload again counts from zero.
run lkm agg clear -N calls
lkm agg print -C >cleared-calls.csv || fail "print after clear -N calls"
run lkm agg clear
lkm agg print -C >cleared-all.csv || fail "print after clear"
run lkm set -m $M
lkst_aggload writes -N aggw -c 1 -g 37 >writes2.txt || fail "lkst_aggload writes (2)"
run lkm set -m 0
lkm agg print -C >print2.csv || fail "lkm agg print -C (2)"

# 3. Latencies, reconfigured while the maskset is active and busy.
run lkm set -m $M
lkst_aggload spin -t 1500 &
spin=$!
run lkm agg delete
run lkm agg set -N slat -m $M -F quantize -L syscall -K comm,arg1 --record
run lkm agg set -N sched -m $M -F quantize -L sched -K comm
run lkm agg set -N irq -m $M -F quantize -L irq -K arg1
run lkm agg set -N irqmax -m $M -F max -L irq
wait $spin || fail "lkst_aggload spin"
lkst_aggload sleep -N aggs -n 10 -d 10 &
sleeper=$!
echo "sleeper $sleeper" >sleeper.txt
wait $sleeper || fail "lkst_aggload sleep"
lkst_irqload disk -d /dev/vdb >disk.txt || fail "lkst_irqload disk"
run lkm set -m 0
lkm agg list >list3.txt
lkm agg print >print3.txt || fail "lkm agg print (3)"
lkm agg print -C >print3.csv || fail "lkm agg print -C (3)"
run lkbuf read -f trace3.log
lkbuf print -r -C -f trace3.log >trace3.csv || fail "lkbuf print"
lkm read -m $M >maskset3.txt

# 4. Bad input: lkm's checks (exit 1), the kernel's (lkst_aggload bad).
expect_fail 1 lkm agg set -N x -m $M -F count NO_SUCH_EVENT
expect_fail 1 lkm agg set -N x -m $M -F median -v arg1 SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F count -K color SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F count -K comm,pid,cpu SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F count -s 0 SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F count -s 1000000000 SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F quantize -v arg1 -s 16384 SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F count -v arg1 SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F quantize SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F sum -v arg9 SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F max -L bogus
expect_fail 1 lkm agg set -N x -m $M -F max -L syscall SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m $M -F count
expect_fail 1 lkm agg set -N bad-name -m $M -F count SYSCALL_ENTRY
expect_fail 1 lkm agg set -N x -m 1 -F count SYSCALL_ENTRY
expect_fail 2 lkm agg set -N x -m 30 -F count SYSCALL_ENTRY
expect_fail 2 lkm agg print -N nosuch
expect_fail 1 lkm agg
expect_fail 1 lkm agg frob
lkst_aggload bad >kernel-bad.txt || fail "lkst_aggload bad: $(grep FAIL kernel-bad.txt)"

# 5. Every event counted exactly once, in any context (task, softirq,
#    hardirq nesting on one CPU's tables): the count by event equals the
#    tracer's own per-event hit counter over the same window.
run lkm agg delete
run lkm agg set -N ctx -m $M -F count -K event,cpu interrupt timer process syscall exception
run lkm stat --reset
run lkm set -m $M
lkst_workload -o pids5.txt -t 1000 &
load=$!
lkst_aggload spin -t 1000 &
spin=$!
lkst_irqload disk -d /dev/vdb >/dev/null || fail "lkst_irqload disk (5)"
# NMIs to the other CPU (a backtrace of all CPUs, kept off the console).
# The backtraces printed in NMI context reach the console later, from
# irq_work: the level comes back only after the workload and a second.
read -r level _ </proc/sys/kernel/printk
dmesg -n 1
for i in 1 2 3; do echo l >/proc/sysrq-trigger; done
load_rc=0 spin_rc=0
wait $load || load_rc=$?
wait $spin || spin_rc=$?
sleep 1
dmesg -n "$level"
[ "$load_rc" = 0 ] || fail "lkst_workload (5)"
[ "$spin_rc" = 0 ] || fail "lkst_aggload spin (5)"
run lkm set -m 0
lkm stat -e interrupt,timer,process,syscall,exception >stat5.txt
lkm agg print -C -N ctx >ctx.csv || fail "lkm agg print -N ctx"
lkm agg list >list-ctx.txt

# 6. Reconfigured, then rmmod, while routed and busy: the entries then
#    act as NOTHING.
run lkm agg set -N busy -m $M -F count -K comm SYSCALL_ENTRY SYSCALL_EXIT
run lkm set -m $M
lkst_workload -o pids.txt -t 1500 &
load=$!
lkst_aggload spin -t 1500 &
spin=$!
i=0
while [ $i -lt 10 ]; do
	run lkm agg set -N busy -m $M -F count -K comm SYSCALL_ENTRY SYSCALL_EXIT
	run lkm agg clear
	i=$((i + 1))
done
lkm agg print -N busy >busy.txt || fail "lkm agg print -N busy"
run rmmod lkst_agg
lkm handlers >handlers-after-rmmod.txt
expect_fail 2 lkm agg print
wait $load || fail "lkst_workload"
wait $spin || fail "lkst_aggload spin"
lkm stat -e SYSCALL_ENTRY >stat-after-rmmod.txt

# The module back: the routes reach it again, empty until set.
run insmod /lib/lkst/lkst_agg.ko
lkm agg list >list5.txt
run lkm agg set -N calls -m $M -F count -K comm,arg1 SYSCALL_ENTRY
lkst_aggload writes -N aggw -c 1 -g 37 >writes5.txt || fail "lkst_aggload writes (5)"
run lkm set -m 0
lkm agg print -C >print5.csv || fail "lkm agg print -C (5)"
cleanup
