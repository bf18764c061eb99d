# make bench-stock: per-event cost of lkst.ko and of ftrace on the same
# tracepoints of Debian's stock kernel, under QEMU -icount shift=0 (a guest
# nanosecond is one instruction).  Each workload runs untraced, under lkst
# (a maskset routing only the events listed) and under ftrace (only their
# tracepoints enabled); tests/stock/run.sh prints the differences per
# tracepoint hit.  Not part of make test.
. /scenarios/common.inc
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T || { echo "FAIL: no tracefs"; exit 1; }
echo 8192 >$T/buffer_size_kb
step lkbuf resize -s 8M
# workload:ops:hits per op:lkst events:ftrace events
WORKLOADS="getppid:20000:2:SYSCALL_ENTRY,SYSCALL_EXIT:raw_syscalls/sys_enter,raw_syscalls/sys_exit
pipe:3000:4:PROCESS_CONTEXTSWITCH,PROCESS_WAKEUP:sched/sched_switch,sched/sched_waking"
for wl in $WORKLOADS; do
	IFS=: read -r name ops hits levs fevs <<EOF2
$wl
EOF2
	lkst_benchload "$name" -n 10 >/dev/null || { echo "FAIL: warm-up $name"; exit 1; }
	for config in none lkst ftrace; do
		lkm set -m 0
		# Maskset 6: a copy of RNOTHING, then only this workload's events.
		lkm delete -m 6 2>/dev/null
		lkm read -m 0 | lkm write -m 6 -N bench || { echo "FAIL: maskset 6"; exit 1; }
		echo 0 >$T/events/enable
		echo >$T/trace
		case $config in
		lkst)	for e in $(echo "$levs" | tr , ' '); do step lkm config -m 6 "$e" default; done
			step lkm set -m 6 ;;
		ftrace)	for e in $(echo "$fevs" | tr , ' '); do echo 1 >$T/events/$e/enable; done
			echo 1 >$T/tracing_on ;;
		esac
		sleep 1		# the key and probe changes settle
		lkst_benchload "$name" -n "$ops" >run.txt || { echo "FAIL: $name under $config"; exit 1; }
		read -r _ _ ns <run.txt
		echo "BENCH $name $config $ns $hits"
	done
done
echo 0 >$T/events/enable
lkm set -m 1
lkm delete -m 6
lkbuf resize -s 512K
rm -f run.txt
