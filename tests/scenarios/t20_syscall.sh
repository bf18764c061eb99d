# (b) A known number of distinctive system calls, found exactly, with
# their arguments and return values.
. /scenarios/common.inc

new_syscall_maskset 4
step lkm set -m 4
lkst_syscalls -n 37 -w 23 -t 0x5eed0000 -6 >prog.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 4
cat prog.txt
