# lkst_pagewalk.ko snapshots the physical pages a workload process maps,
# once a second, as MEM_PAGE_SNAPSHOT records, and stops when it exits.
# The pid is written at run time through the module's sysfs parameter;
# while MEM_PAGE_SNAPSHOT is not routed (RNOTHING) no walk is done.
. /scenarios/common.inc

lkm read -m 0 | lkm write -m 11 -N pagewalk || { echo "FAIL: cannot create maskset 11"; exit 1; }
step lkm config -m 11 MEM_PAGE_SNAPSHOT default
step insmod /lib/lkst/lkst_pagewalk.ko
param=/sys/module/lkst_pagewalk/parameters
step lkm set -m 0	# RNOTHING: the module watches but does not walk

lkst_pagemem -t 5 -b 256 >prog.txt &
i=0
until grep -q buffer prog.txt 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "FAIL: lkst_pagemem printed no buffer"; exit 1; }
	sleep 0.1
done
pid=$(awk '/buffer/ { print $2 }' prog.txt)
echo "$pid" >"$param/pid" || { echo "FAIL: cannot write $param/pid"; exit 1; }
cat "$param/pid" >pid_set.txt
sleep 1.5
cat "$param/snapshots" >unrouted.txt
step lkm set -m 11
wait
# The work item notices the exit at its next run (1 s).
i=0
until [ "$(cat "$param/pid")" = 0 ]; do
	i=$((i + 1))
	[ $i -lt 50 ] || break
	sleep 0.1
done
cat "$param/pid" >pid_after.txt
cat "$param/snapshots" >snapshots.txt
cat "$param/truncated" >truncated.txt
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: lkbuf print"; exit 1; }
# max_runs caps a snapshot (and counts it in truncated): this shell maps
# more than 4 runs.
echo 4 >"$param/max_runs" && step lkm set -m 11 && echo $$ >"$param/pid" ||
	{ echo "FAIL: cannot watch the shell"; exit 1; }
sleep 1.5
cat "$param/truncated" >truncated_capped.txt
echo 0 >"$param/pid"
step lkm set -m 0
step lkm delete -m 11
step rmmod lkst_pagewalk
free -k | tee meminfo.txt
cat prog.txt
echo "snapshots $(cat snapshots.txt), pid after exit $(cat pid_after.txt)"
