# An extended handler switches masksets from hook context: system calls
# are traced until getppid() fires the trigger, which switches to RNOTHING.
. /scenarios/common.inc

step insmod /lib/lkst/lkst_trigger.ko trigger_event=0x30 trigger_arg=110 switch_maskset=0
lkm handlers | tee handlers.txt
lkm read -m 0 | lkm write -m 8 -N trigger || { echo "FAIL: write"; exit 1; }
step lkm config -m 8 SYSCALL_ENTRY trigger SYSCALL_EXIT trigger
step lkm set -m 8
lkst_syscalls -n 20 -g -t 0xc0de0000 >prog.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
sleep 1	# the static keys follow the switch from a work item
lkm list | tee list.txt
cat /sys/module/lkst_trigger/parameters/fired >fired.txt
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 8
step rmmod lkst_trigger
