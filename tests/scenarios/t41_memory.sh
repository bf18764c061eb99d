# Memory events: an anonymous region's faults, page allocations and frees
# (by PFN), mmap/mprotect/munmap/brk with known arguments and results,
# kmalloc/kfree of System V messages of known sizes, memcg reclaim with
# swap-out and swap-in (major faults) on /dev/vdb, a memcg OOM kill of a
# known child, then kswapd and direct reclaim under global pressure.
# Facts for tests/check/t41_memory.py go to facts.txt.
. /scenarios/common.inc

CG=/sys/fs/cgroup
MS=14
MS_RECLAIM=15
mounted_cg=0
enabled_memcg=0
swap_on=0
loglevel=$(cut -f1 /proc/sys/kernel/printk)
wsf=$(cat /proc/sys/vm/watermark_scale_factor)
blocks=

cleanup() {
	dmesg -n "$loglevel"
	echo "$wsf" >/proc/sys/vm/watermark_scale_factor
	lkm set -m 0
	lkm delete -m $MS 2>/dev/null
	lkm delete -m $MS_RECLAIM 2>/dev/null
	for cb in $blocks; do
		lkbuf jump -c "${cb%:*}" -b 0 && lkbuf delete -c "${cb%:*}" -b "${cb#*:}"
	done
	blocks=
	[ $swap_on = 0 ] || swapoff /dev/vdb
	swap_on=0
	rmdir $CG/lkst-swap $CG/lkst-oom 2>/dev/null
	[ $enabled_memcg = 0 ] || echo -memory >$CG/cgroup.subtree_control
	enabled_memcg=0
	[ $mounted_cg = 0 ] || umount $CG
	mounted_cg=0
	rm -f /tmp/t41.log
}
fail() {
	echo "FAIL: $*"
	cleanup
	exit 1
}
run() {
	echo "+ $*"
	"$@" || fail "'$*' exited $?"
}

# Page and slab events are many: an 8 MiB block (131072 records) per CPU.
for cpu in $(seq 0 $(($(nproc) - 1))); do
	id=$(lkbuf create -c "$cpu" -s 8M) || fail "lkbuf create on CPU $cpu"
	blocks="$blocks $cpu:$id"
	run lkbuf jump -c "$cpu" -b "$id"
done

if ! grep -q " $CG cgroup2 " /proc/mounts; then
	run mount -t cgroup2 none $CG
	mounted_cg=1
fi
if ! grep -qw memory $CG/cgroup.subtree_control; then
	echo +memory >$CG/cgroup.subtree_control || fail "cannot enable the memory controller"
	enabled_memcg=1
fi
run mkdir $CG/lkst-swap $CG/lkst-oom
echo 4M >$CG/lkst-swap/memory.max || fail "lkst-swap memory.max"
echo 4M >$CG/lkst-oom/memory.max || fail "lkst-oom memory.max"
echo 0 >$CG/lkst-oom/memory.swap.max || fail "lkst-oom memory.swap.max"
echo "swap_cgroup_ino $(stat -c %i $CG/lkst-swap)" >facts.txt
echo "oom_cgroup_ino $(stat -c %i $CG/lkst-oom)" >>facts.txt
run mkswap /dev/vdb
run swapon /dev/vdb
swap_on=1

lkm read -m 0 | lkm write -m $MS -n memory || fail "cannot create maskset $MS"
run lkm config -m $MS memory default
run lkm set -m $MS
run lkst_mem basic -o facts.txt
run lkst_mem swap -c $CG/lkst-swap -s 12 -o facts.txt
# The expected OOM report (with its stack dump) stays off the console;
# dmesg.txt keeps it for the checker, which scans it for anything else.
dmesg -n 1
echo "lkst-t41: OOM and reclaim phases start" >/dev/kmsg
run lkst_mem oom -c $CG/lkst-oom -s 16 -o facts.txt
run lkm set -m 0
run lkbuf read -f /tmp/t41.log
lkbuf print -r -C -e memory -f /tmp/t41.log >trace.csv || fail "lkbuf print"
rm -f /tmp/t41.log
cat /proc/swaps
grep -E '^(pswp|pgmajfault|pgfault|oom_kill)' /proc/vmstat

# Global pressure: a larger gap between the min and low watermarks wakes
# kswapd early; the hog then outruns it into direct reclaim.
for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = kswapd0 ] && echo "kswapd_pid ${p#/proc/}" >>facts.txt
done
lkm read -m 0 | lkm write -m $MS_RECLAIM -n reclaim || fail "cannot create maskset $MS_RECLAIM"
run lkm config -m $MS_RECLAIM MEM_RECLAIM_START default MEM_RECLAIM_END default
echo 1000 >/proc/sys/vm/watermark_scale_factor
run lkm set -m $MS_RECLAIM
free_mib=$(awk '/^MemFree/ { print int($2 / 1024) }' /proc/meminfo)
run timeout 40 lkst_mem hog -s $((free_mib + 48)) -o facts.txt
run lkm set -m 0
echo "$wsf" >/proc/sys/vm/watermark_scale_factor
run lkbuf read -f /tmp/t41.log
lkbuf print -r -C -e MEM_RECLAIM_START,MEM_RECLAIM_END -f /tmp/t41.log >reclaim.csv ||
	fail "lkbuf print"
dmesg | sed -n '/lkst-t41: OOM and reclaim phases start/,$p' >dmesg.txt
cat facts.txt | grep -v '^pfn'
cleanup
