# Booted with lkst.mode=stop lkst.bufsize=512K and
# lkst.events=syscall_entry,process,NO_SUCH_EVENT: tracing ran from boot
# with exactly those events, into buffers that keep their first records.
. /scenarios/common.inc

lkm list >masksets.txt || { echo "FAIL: lkm list"; exit 1; }
lkm read -m 3 >boot_maskset.txt || { echo "FAIL: lkm read -m 3"; exit 1; }
# 40000 lseeks on CPU 0 fill its 512 KiB block: it holds at most 32512
# records (128 pages of 254 records of 16 bytes).
lkst_syscalls -c 0 -n 40000 -t 0xb0070000 >prog.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
lkbuf list >list.txt || { echo "FAIL: lkbuf list"; exit 1; }
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
cat masksets.txt list.txt
