# lkst.ko unloads under load: the handlers first, then lkst itself while a
# workload runs and every event is routed (tests/stock); loads again after.
. /scenarios/common.inc
step insmod /lib/lkst/lkst_filter.ko
step lkm set -m 2
lkst_syscalls >/dev/null 2>&1 &
load=$!
dd if=/dev/zero of=/tmp/rmmod.dat bs=4k count=256 2>/dev/null
step rmmod lkst_filter
step rmmod lkst
lsmod | grep -q '^lkst ' && { echo "FAIL: lkst still loaded"; exit 1; }
[ -e /dev/lkst ] && { echo "FAIL: /dev/lkst left behind"; exit 1; }
wait $load
step insmod /lib/lkst/lkst.ko maskset=rdefault bufsize=512K
step lkm set -m 1
lkbuf read -f reloaded.log || { echo "FAIL: lkbuf read after reload"; exit 1; }
echo "rmmod-ok"
