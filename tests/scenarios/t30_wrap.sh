# (c) A small block that wraps many times keeps the newest records and
# counts the overwritten ones.  CPU 0 writes into a fresh 16 KiB block 1.
. /scenarios/common.inc

new_syscall_maskset 5
step lkbuf create -c 0 -s 16K
step lkbuf jump -c 0 -b 1
step lkm set -m 5
lkst_syscalls -c 0 -n 2000 -t 0x77770000 >prog.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
step lkm set -m 0
step lkbuf list
step lkbuf read -c 0 -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkbuf jump -c 0 -b 0
step lkbuf delete -c 0 -b 1
step lkm delete -m 5
