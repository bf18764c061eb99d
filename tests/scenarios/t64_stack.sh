# lkst_stack.ko records an event followed by its kernel stack (and its user
# stack), symbolized by lkbuf print from the symbols lkbuf read saved:
# Masksets 29-31 (t63 uses 26-28).
#  A  IPC_PIPE_READ routed to stack, kernel and user stacks, while
#     lkst_stackload reads a pipe through stack_a -> stack_b -> stack_c;
#     saved by lkbuf record too (its logs have the symbols as well);
#     the same log read once more with kptr_restrict=2 (no symbols saved);
#  B  SYSCALL_ENTRY routed to stack, 3 frames, no user stack;
#  C  lkst_filter passing IPC_PIPE_READ to stack for one pid only, while
#     another process reads pipes too;
#  D  bad input: lkm stack before the load and with bad options, control
#     requests with bad sizes, pointers, commands, depths and flags;
#  E  stack inside a copy of RALL, routed events of every context (IRQs,
#     context switches, page faults, allocations) with user stacks;
#  G  who calls a kernel function: a dynamic probe on do_sys_openat2
#     routed to stack;
#  F  rmmod while IPC_PIPE_READ is routed to stack and a load runs.
. /scenarios/common.inc

cleanup() {
	lkm set -m 0
	for m in 29 30 31; do lkm delete -m $m; done
	[ -z "${busy:-}" ] || kill "$busy" 2>/dev/null
	echo 0 >/proc/sys/kernel/kptr_restrict
	rmmod lkst_filter 2>/dev/null
	rmmod lkst_stack 2>/dev/null
}
pid_of() { sed -n 's/^pid //p' "$1"; }

# D, before the load: the verb says what to load.
lkm stack --depth 8 2>noload.txt; echo "noload $?" >rc.txt
run insmod /lib/lkst/lkst_stack.ko
lkm handlers >handlers.txt
lkm stack >config-default.txt || fail "lkm stack"
lkm stack --depth 0 2>>bad.txt; echo "depth0 $?" >>rc.txt
lkm stack --depth 65 2>>bad.txt; echo "depth65 $?" >>rc.txt
lkm stack --depth 12x 2>>bad.txt; echo "depthgarbage $?" >>rc.txt
lkm stack --depth -1 2>>bad.txt; echo "depthneg $?" >>rc.txt
lkm stack --user --no-user 2>>bad.txt; echo "userboth $?" >>rc.txt
lkm stack extra 2>>bad.txt; echo "extra $?" >>rc.txt
lkm stack >config-after-bad.txt || fail "lkm stack after bad input"
lkst_stackload ctl >ctl.txt || fail "lkst_stackload ctl"
lkm stack --depth 64 || fail "lkm stack --depth 64"
lkm stack >config-64.txt

grep -wE 'pipe_read|pipe_read_traced|vfs_read|ksys_read|__x64_sys_read|x64_sys_call|do_syscall_64|lkst_syscall_entry|entry_SYSCALL_64_after_hwframe|lkst_hook_dispatch' \
	/proc/kallsyms >kallsyms.txt

# A: from a copy of RNOTHING, after emptying every block.
lkm read -m 0 | lkm write -m 29 -N stackpipe || fail "write maskset 29"
run lkm config -m 29 IPC_PIPE_READ stack
run lkm stack --depth 24 --user
lkm stack >config-a.txt
run lkbuf resize -s 512K
run lkm set -m 29
lkbuf record -o rec -i 50 2>rec.report &
rec=$!
lkst_stackload chain chain-a.txt 20 || fail "lkst_stackload chain (A)"
run lkm set -m 0
sleep 0.2
kill -INT $rec
wait $rec
echo "record $?" >>rc.txt
for f in rec/lkst-*.log; do
	lkbuf print --stacks -f "$f" -p "$(pid_of chain-a.txt)"
done >rec-stacks.txt 2>/dev/null
rm -rf rec
lkm stack >stat-a.txt
run lkbuf read -f a.log
echo 2 >/proc/sys/kernel/kptr_restrict || fail "kptr_restrict"
lkbuf read -f restricted.log 2>restricted.err; echo "restricted $?" >>rc.txt
echo 0 >/proc/sys/kernel/kptr_restrict
p=$(pid_of chain-a.txt)
lkbuf print -r -C -f a.log -p "$p" >a-raw.csv || fail "print -r -C a.log"
lkbuf print -C -f a.log -p "$p" >a-sym.csv || fail "print -C a.log"
TZ=UTC lkbuf print -f a.log -p "$p" >a.txt || fail "print a.log"
TZ=UTC lkbuf print --stacks -f a.log -p "$p" >a-stacks.txt || fail "print --stacks a.log"
lkbuf print -C -f restricted.log -p "$p" >restricted.csv || fail "print restricted.log"
rm -f restricted.log

# B
lkm read -m 0 | lkm write -m 30 -N stacksys || fail "write maskset 30"
run lkm config -m 30 SYSCALL_ENTRY stack
run lkm stack --depth 3 --no-user
run lkbuf resize -s 512K
run lkm set -m 30
lkst_stackload chain chain-b.txt 5 || fail "lkst_stackload chain (B)"
run lkm set -m 0
run lkbuf read -f b.log
lkbuf print -C -f b.log -p "$(pid_of chain-b.txt)" >b-sym.csv || fail "print b.log"
lkbuf print -r -C -f b.log -p "$(pid_of chain-b.txt)" >b-raw.csv || fail "print -r b.log"
rm -f b.log

# C: X's pid is known before it runs: the shell that execs it.
run insmod /lib/lkst/lkst_filter.ko
lkm read -m 0 | lkm write -m 31 -N stackfilter || fail "write maskset 31"
rm -f go pid-x.txt
mkfifo go || fail "mkfifo"
sh -c 'echo $$ >pid-x.txt; read l <go; exec lkst_stackload chain chain-x.txt 10' &
xjob=$!
n=0
while [ ! -s pid-x.txt ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
x=$(cat pid-x.txt)
run lkm filter -m 31 IPC_PIPE_READ "pid == $x" --handler stack
run lkm stack --depth 16 --user
run lkbuf resize -s 512K
run lkm set -m 31
lkst_stackload chain chain-y.txt 10 &
yjob=$!
echo go >go
wait $xjob || fail "lkst_stackload X"
wait $yjob || fail "lkst_stackload Y"
run lkm set -m 0
run lkbuf read -f c.log
lkbuf print -r -C -f c.log >c-raw.csv || fail "print c.log"
lkbuf print -C -f c.log -p "$x" >c-sym.csv || fail "print -C c.log"
rm -f c.log go
run lkm delete -m 31
run rmmod lkst_filter

# E: every other event recorded around the stacks.
lkm read -m 2 | lkm write -m 31 -N stackall || fail "write maskset 31 (E)"
run lkm config -m 31 IPC_PIPE_READ stack INT_HARDWARE_ENTRY stack \
	HRTIMER_EXPIRE_ENTRY stack PROCESS_CONTEXTSWITCH stack \
	EXCEPTION_PAGEFAULT_ENTRY stack MEM_PAGE_ALLOC stack \
	INT_SOFTIRQ_ENTRY stack SYSCALL_ENTRY stack
run lkm stack --depth 64 --user
run lkbuf resize -s 512K
run lkm set -m 31
lkst_stackload chain chain-e.txt 50 || fail "lkst_stackload chain (E)"
lkst_stackload load 1 || fail "lkst_stackload load (E)"
run lkm set -m 0
lkm stack >stat-e.txt
run lkbuf read -f e.log
lkbuf print -C -f e.log >e-sym.csv || fail "print e.log"
rm -f e.log

# G: who calls do_sys_openat2?  A probe's event goes to stack like any event.
run lkm probe add who_opens do_sys_openat2 'dfd=$arg1:s32' '$comm'
lkm read -m 0 | lkm write -m 31 -N stackprobe || fail "write maskset 31 (G)"
run lkm config -m 31 who_opens stack
run lkm stack --depth 16 --no-user
run lkbuf resize -s 512K
run lkm set -m 31
cat /proc/version >/dev/null
run lkm set -m 0
run lkbuf read -f g.log
run lkm probe del who_opens
lkbuf print -C -f g.log >g-sym.csv || fail "print g.log"
lkbuf print --stacks -f g.log >g-stacks.txt || fail "print --stacks g.log"
rm -f g.log

# F
run lkm stack --depth 16 --user
run lkm set -m 29
lkst_stackload load 3 &
busy=$!
sleep 0.5
kill -0 $busy 2>/dev/null && echo running >busy-at-rmmod.txt
run rmmod lkst_stack
wait $busy || { busy=; fail "lkst_stackload load during rmmod"; }
busy=
lkm handlers >handlers-after.txt
lkst_stackload chain chain-f.txt 3 || fail "lkst_stackload after rmmod"
run lkm set -m 0
for m in 29 30 31; do run lkm delete -m $m; done
cat rc.txt
