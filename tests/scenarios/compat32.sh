# The arm64 guest's AArch32 compat system calls (tests/arm64/run.sh; not
# in the x86 boot, whose 32-bit entry t99_differential checks): a static
# AArch32 program without a C library (lkst_syscalls32) makes exactly 29
# lseek, 17 write and one six-argument futex call through svc #0.
. /scenarios/common.inc

[ -x /bin/lkst_syscalls32 ] || { echo "FAIL: no /bin/lkst_syscalls32 (an arm64 initramfs)"; exit 1; }
new_syscall_maskset 4
step lkm set -m 4
lkst_syscalls32 29 17 0x5eed0000 >prog.txt || { echo "FAIL: lkst_syscalls32 exited $?"; exit 1; }
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 4
cat prog.txt
