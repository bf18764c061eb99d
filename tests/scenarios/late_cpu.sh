# Booted with maxcpus=1: CPU 1 is present but was never online, so it has
# no buffer yet (nothing is allocated for CPUs that are only possible).
#  - a resize leaves it alone (its first block will have the new size),
#    and returns: it once waited for ever for CPU 1's missing block;
#  - a block created for it then is its first, with page 0 made current;
#  - the fuzzer aims random requests at it while it stays offline;
#  - brought online, it keeps that block and records into it.
. /scenarios/common.inc

online=/sys/devices/system/cpu/cpu1/online
step test "$(cat $online)" = 0
lkbuf list >before.txt || { echo "FAIL: lkbuf list"; exit 1; }
step lkbuf resize -s 128K
lkbuf list >resized.txt || { echo "FAIL: lkbuf list after resize"; exit 1; }
lkbuf create -c 1 -s 64K >created.txt || { echo "FAIL: lkbuf create -c 1"; exit 1; }
lkbuf list >created-list.txt || { echo "FAIL: lkbuf list after create"; exit 1; }
lkst_fuzz -s 0x1a7ec9a -n 20000 -t 2 -H >fuzz.txt 2>&1
rc=$?
cat fuzz.txt
{
	echo "offline_cpu_requests $(( $(sed -n 's/^offline_cpu_requests //p' fuzz.txt) + 2 ))"
	grep -E '^(fuzz_calls|unexpected_answers) ' fuzz.txt
} >hardening.txt
[ "$rc" -eq 0 ] || { echo "FAIL: lkst_fuzz exited $rc"; exit 1; }
step test "$(cat $online)" = 0
new_syscall_maskset 13
step lkm set -m 13
step sh -c "echo 1 > $online"
lkst_syscalls -c 1 -n 5 -t 0x1a7e0000 >prog.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
lkbuf list >after.txt || { echo "FAIL: lkbuf list"; exit 1; }
step lkm set -m 0
step lkm delete -m 13
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
cat before.txt resized.txt created.txt created-list.txt after.txt hardening.txt
