# Booted with maxcpus=1: CPU 1 is present but was never online, so it has
# no buffer yet (nothing is allocated for CPUs that are only possible).
# Brought online, it gets its first block then, and records.
. /scenarios/common.inc

online=/sys/devices/system/cpu/cpu1/online
step test "$(cat $online)" = 0
lkbuf list >before.txt || { echo "FAIL: lkbuf list"; exit 1; }
new_syscall_maskset 13
step lkm set -m 13
step sh -c "echo 1 > $online"
lkst_syscalls -c 1 -n 5 -t 0x1a7e0000 >prog.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
lkbuf list >after.txt || { echo "FAIL: lkbuf list"; exit 1; }
step lkm set -m 0
step lkm delete -m 13
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
cat before.txt after.txt
