# A handler module removed while the active maskset routes busy events to
# it: no crash, no dangling call, and its events stop.
. /scenarios/common.inc

step insmod /lib/lkst/lkst_trigger.ko trigger_event=0 once=0
lkm read -m 0 | lkm write -m 9 -N busy || { echo "FAIL: write"; exit 1; }
step lkm config -m 9 PROCESS_CONTEXTSWITCH trigger PROCESS_WAKEUP trigger SYSCALL_ENTRY trigger SYSCALL_EXIT trigger
step lkm set -m 9
lkst_workload -o pids.txt -t 600 &
workload=$!
sleep 0.2
cat /sys/module/lkst_trigger/parameters/handled >handled-before-rmmod.txt
step rmmod lkst_trigger
wait $workload || { echo "FAIL: workload"; exit 1; }
lkm handlers >handlers.txt
lkbuf read -f after.log
step lkst_syscalls -n 5 -t 0xdead0000
step lkbuf read -f later.log
lkbuf print -r -C -f later.log >later.csv || { echo "FAIL: print"; exit 1; }
step lkm set -m 0
step lkm delete -m 9
