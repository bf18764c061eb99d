# lkbuf resize (every block of every CPU, while tracing under syscall load)
# and the STOP buffer mode: a fresh block on CPU 0 keeps the first records
# after a jump and drops the rest instead of wrapping.
. /scenarios/common.inc

lkbuf list >list_before.txt || { echo "FAIL: list"; exit 1; }
cat list_before.txt
boot_size=$(sed -n 's/^  block 0: size \([0-9]*\),.*/\1/p' list_before.txt | head -n 1)
# A link on CPU 1 that resize must keep: block 1 -> block 0.
step lkbuf create -c 1 -s 32K --next 0
load() { while :; do lkst_syscalls -n 500 -t 0x92000000 >/dev/null || exit 1; done; }
load &
a=$!
step lkbuf resize -s 128K
step lkbuf resize -s 32K
kill $a
wait $a 2>/dev/null
# Once more with only the shell running, to count overwrites exactly.
lkbuf list >list_quiet.txt || { echo "FAIL: list"; exit 1; }
step lkbuf resize -s 64K
lkbuf list >list_resized.txt || { echo "FAIL: list"; exit 1; }
cat list_resized.txt

# STOP: cpu 0 writes into a new 64 KiB block with no next, then stops.
new_syscall_maskset 6
step lkbuf create -c 0 -s 64K --mode stop
lkbuf list >list_stop.txt || { echo "FAIL: list"; exit 1; }
step lkm set -m 6
step lkbuf jump -c 0 -b 1
lkst_syscalls -c 0 -n 2000 -t 0x92920000 >prog.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
step lkm set -m 0
lkbuf list >list_after_stop.txt || { echo "FAIL: list"; exit 1; }
cat list_after_stop.txt
step lkbuf read -c 0 -f stop.log
lkbuf print -r -C -f stop.log >stop.csv || { echo "FAIL: print"; exit 1; }

# Mode for all CPUs, shown by list; then everything as it was.
step lkbuf mode -a stop
lkbuf list >list_all_stop.txt
step lkbuf mode -a overwrite
lkbuf list >list_all_overwrite.txt
step lkbuf jump -c 0 -b 0
step lkbuf delete -c 0 -b 1
step lkbuf delete -c 1 -b 1
step lkbuf resize -s "$boot_size"
step lkm delete -m 6
lkbuf list >list_end.txt
cat list_end.txt
