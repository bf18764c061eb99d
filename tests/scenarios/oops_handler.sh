# A handler that oopses in hook context (a NULL dereference on the first
# event routed to it) kills the task that hit the hook; the tracer must go
# on recording on that CPU.  Before the fix, the dying task left its
# context's recursion bit set and every later task-level event on CPU 0
# counted as dropped.
. /scenarios/common.inc

step insmod /lib/lkst/test/lkst_faulty.ko
new_syscall_maskset 12
step lkm config -m 12 USER_MARK faulty
step lkm set -m 12
# The mark runs the handler on CPU 0 and dies there (killed by the oops).
taskset 1 lkbuf mark "oops-now"
echo "mark exited $?" >mark.txt
step test "$(cat /sys/module/lkst_faulty/parameters/armed)" = N
lkm stat --reset >/dev/null || { echo "FAIL: lkm stat --reset"; exit 1; }
step lkst_syscalls -c 0 -n 1000 -t 0x00950000
lkm stat -e SYSCALL_ENTRY >stat.txt || { echo "FAIL: lkm stat"; exit 1; }
step lkbuf read -c 0 -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm set -m 0
cat mark.txt stat.txt
