# Switching masksets over and over while processes make system calls and
# context switches on both CPUs: every switch patches static keys in the
# syscall and scheduler paths under load.  The console must stay clean.
. /scenarios/common.inc

new_syscall_maskset 4
lkm read -m 0 | lkm write -m 5 -N sched || { echo "FAIL: write"; exit 1; }
step lkm config -m 5 PROCESS_CONTEXTSWITCH default PROCESS_WAKEUP default
load() { while :; do lkst_syscalls -n 2000 >/dev/null || exit 1; done; }
load &
a=$!
load &
b=$!
i=0
while [ $i -lt 60 ]; do
	step lkm set -m 4 >/dev/null
	step lkm set -m 5 >/dev/null
	step lkm set -m 2 >/dev/null
	step lkm set -m 0 >/dev/null
	i=$((i + 1))
done
kill $a $b
step lkbuf list
step lkm delete -m 4
step lkm delete -m 5
echo "$i rounds of 4 switches"
