# lkst.ko unloads under load: its handler first, then lkst itself while
# system calls and block I/O run with every event routed (tests/stock);
# then it loads again and records.
. /scenarios/common.inc
step insmod /lib/lkst/lkst_filter.ko
step lkm set -m 2
rm -f /tmp/stop
(while [ ! -f /tmp/stop ]; do lkst_syscalls >/dev/null 2>&1; done) &
load1=$!
(while [ ! -f /tmp/stop ]; do dd if=/dev/zero of=/tmp/rmmod.dat bs=4k count=64 2>/dev/null; done) &
load2=$!
sleep 2
step rmmod lkst_filter
rmmod lkst || { echo "FAIL: rmmod lkst under load exited $?"; touch /tmp/stop; exit 1; }
lsmod | grep -q '^lkst ' && { echo "FAIL: lkst still loaded"; touch /tmp/stop; exit 1; }
[ -e /dev/lkst ] && { echo "FAIL: /dev/lkst left behind"; touch /tmp/stop; exit 1; }
sleep 1
touch /tmp/stop
wait $load1 $load2
step insmod /lib/lkst/lkst.ko maskset=rdefault bufsize=512K
lkst_syscalls >/dev/null 2>&1
step lkbuf read -f reloaded.log
lkbuf print -f reloaded.log -e SYSCALL_ENTRY | grep -q SYSCALL_ENTRY ||
	{ echo "FAIL: no system call recorded after the reload"; exit 1; }
echo "rmmod-ok"
