# lkst_filter records an event only when its predicate holds: system call
# entries of one command's lseek() calls, exits of one pid that succeeded,
# events of one cgroup; bad expressions are refused with a caret; clearing
# a predicate stops recording; rmmod while the filter is routed is safe.
. /scenarios/common.inc

# Refused before the module is loaded (exit 2) and for bad input (exit 1).
lkm filter -m 8 SYSCALL_ENTRY 'pid == 1' 2>noload.txt; echo "noload $?" >rc.txt
step insmod /lib/lkst/lkst_filter.ko
lkm handlers | tee handlers.txt
lkm read -m 0 | lkm write -m 8 -N filter || { echo "FAIL: write"; exit 1; }
lkm filter -m 8 SYSCALL_ENTRY 'pid == 12x3 && arg1 == 0' 2>badexpr.txt; echo "badexpr $?" >>rc.txt
lkm filter -m 8 NO_SUCH_EVENT 'pid == 1' 2>badevent.txt; echo "badevent $?" >>rc.txt
lkm filter -m 8 SYSCALL_ENTRY 'pid == 1' --handler filter 2>badto.txt; echo "badto $?" >>rc.txt
lkm filter -m 99 SYSCALL_ENTRY 'pid == 1' 2>badms.txt; echo "badms $?" >>rc.txt
lkm filter -m 0 SYSCALL_ENTRY 'pid == 1' 2>rodms.txt; echo "rodms $?" >>rc.txt

# The second workload waits on a FIFO until its pid's predicate is in place.
mkfifo go
sh -c 'echo $$ >pid2.txt; read x <go; exec lkst_syscalls -n 7 -w 3 -t 0x7a70000' >prog2.txt &
waiter=$!
while [ ! -s pid2.txt ]; do sleep 0.1; done
pid2=$(cat pid2.txt)

# lseek: 8 on x86-64; 62 with arm64's ABI (2) in the high 32 bits there.
nr_lseek=8
[ "$(uname -m)" != aarch64 ] || nr_lseek=$(( (2 << 32) | 62 ))
step lkm filter -m 8 SYSCALL_ENTRY "comm == \"lkst_syscalls\" && arg1 == $nr_lseek"
step lkm filter -m 8 SYSCALL_EXIT "pid == $pid2 && arg2 >= 0"
# Marks pass only from a cgroup made here (its ID is its inode number).
cg=none
if mkdir -p /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null &&
	mkdir /sys/fs/cgroup/lkstf; then
	cg=$(stat -c %i /sys/fs/cgroup/lkstf)
	step lkm filter -m 8 USER_MARK "cgroup == $cg"
fi
echo "$cg" >cgroup.txt
step lkm set -m 8
# Only what the filter passes from now on: empty every block.
step lkbuf resize -s 512K
lkm filter --list | tee filters.txt

lkst_syscalls -n 20 -w 5 -t 0x7a10000 >prog1.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
echo >go
wait $waiter || { echo "FAIL: second lkst_syscalls"; exit 1; }
dd if=/dev/zero of=/dev/null bs=512 count=20 2>/dev/null
lkbuf mark outside the cgroup
if [ "$cg" != none ]; then
	sh -c "echo \$\$ >/sys/fs/cgroup/lkstf/cgroup.procs && lkbuf mark inside the cgroup"
fi
lkm filter --list | tee filters-after.txt
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }

# Without its predicate an event routed to the filter is not recorded.
step lkm filter --clear SYSCALL_ENTRY
lkst_syscalls -n 5 >prog3.txt || { echo "FAIL: lkst_syscalls 3"; exit 1; }
step lkbuf read -f cleared.log
lkbuf print -r -C -f cleared.log >cleared.csv || { echo "FAIL: print"; exit 1; }
lkm filter --list >filters-cleared.txt

# rmmod while routed and busy: the entries act as NOTHING afterwards.
step lkm filter -m 8 SYSCALL_ENTRY 'arg1 == 8'
(for i in 1 2 3 4 5 6 7 8; do lkst_syscalls -n 200 >/dev/null; done) &
busy=$!
sleep 0.2
step rmmod lkst_filter
wait $busy || { echo "FAIL: workload during rmmod"; exit 1; }
lkst_syscalls -n 3 >/dev/null || { echo "FAIL: after rmmod"; exit 1; }
lkm list >list-after.txt || { echo "FAIL: lkm list after rmmod"; exit 1; }
step lkm set -m 0
step lkm delete -m 8
if [ "$cg" != none ]; then
	rmdir /sys/fs/cgroup/lkstf
	umount /sys/fs/cgroup
fi
