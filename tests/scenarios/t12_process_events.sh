# Process management events: fork (process and thread), exec, exit,
# signals sent and delivered, priority changes, migration, sleep, wait
# queues, new-task wakeup, and kernel threads created when the unbound
# workqueues move to other CPUs.
. /scenarios/common.inc

lkm read -m 0 | lkm write -m 6 -N process || { echo "FAIL: write"; exit 1; }
step lkm config -m 6 process default
# Fresh 2 MiB blocks so nothing the checker needs is overwritten.
for cpu in 0 1; do
	step lkbuf create -c $cpu -s 2M
	step lkbuf jump -c $cpu -b 1
done
wq=/sys/devices/virtual/workqueue/cpumask
step lkm set -m 6
lkst_procev >facts.txt || { echo "FAIL: lkst_procev"; cat facts.txt; exit 1; }
# New unbound worker pools for CPU 0 only: kthreadd creates their first
# workers, which are listed before the pools go away with CPU 1 back.
[ -w $wq ] || { echo "FAIL: $wq missing"; exit 1; }
echo 1 >$wq || { echo "FAIL: cannot write $wq"; exit 1; }
sleep 1
for p in /proc/[0-9]*; do
	echo "${p#/proc/} $(cat $p/comm 2>/dev/null)"
done >comms.txt
echo 3 >$wq || { echo "FAIL: cannot write $wq"; exit 1; }
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print -r -C"; exit 1; }
lkbuf print -C -f trace.log >decoded.csv || { echo "FAIL: print -C"; exit 1; }
for cpu in 0 1; do
	step lkbuf jump -c $cpu -b 0
	step lkbuf delete -c $cpu -b 1
done
step lkm delete -m 6
# The functions the new kernel threads should be named by.
grep -w -e worker_thread -e kthread /proc/kallsyms >kallsyms.txt
cat facts.txt
