# Run in a boot of its own with lkst.panic_dump=N oops=panic: a user
# mark, then an oops provoked through LKDTM.  The oops panics the guest;
# the host finds OOPS_DIE, OOPS_PANIC and the mark in the records the
# panic notifier printed (tests/check/panic_console.py).
. /scenarios/common.inc

lkm read -m 0 | lkm write -m 7 -N crash || { echo "FAIL: write"; exit 1; }
step lkm config -m 7 oops default USER_MARK default SYSCALL_ENTRY default SYSCALL_EXIT default
step lkm set -m 7
step lkbuf mark before-the-crash
echo 1 >/proc/sys/kernel/panic_on_oops
# A NULL dereference: the most common oops, where the page fault
# handler dies without going through do_trap().
provoke_crash "lkst-panic: provoking an oops" ACCESS_NULL
