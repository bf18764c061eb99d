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
marked=0
loglevel=$(cut -f1 /proc/sys/kernel/printk)
min_free=$(cat /proc/sys/vm/min_free_kbytes)
blocks=

MARK="lkst-t41: OOM and reclaim phases start"

cleanup() {
	# Also on failure: what the quiet console did not show.
	[ $marked = 0 ] || dmesg | sed -n "/$MARK/,\$p" >dmesg.txt
	marked=0
	dmesg -n "$loglevel"
	echo "$min_free" >/proc/sys/vm/min_free_kbytes
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

lkm read -m 0 | lkm write -m $MS -N memory || fail "cannot create maskset $MS"
run lkm config -m $MS memory default
run lkm set -m $MS
run lkst_mem basic -o facts.txt
run lkst_mem swap -c $CG/lkst-swap -s 12 -o facts.txt
# The expected OOM report (with its stack dump) stays off the console;
# dmesg.txt keeps it for the checker, which scans it for anything else.
dmesg -n 1
echo "$MARK" >/dev/kmsg
marked=1
run lkst_mem oom -c $CG/lkst-oom -s 16 -o facts.txt
run lkm set -m 0
run lkbuf read -f /tmp/t41.log
lkbuf print -r -C -e memory -f /tmp/t41.log >trace.csv || fail "lkbuf print"
rm -f /tmp/t41.log
cat /proc/swaps
grep -E '^(pswp|pgmajfault|pgfault|oom_kill)' /proc/vmstat

# Global pressure: with the min watermark raised to 96 MiB under the free
# memory, kswapd wakes at once and the hog soon allocates past it into
# direct reclaim.  Reclaim can swap and the hog volunteers as OOM victim.
for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = kswapd0 ] && echo "kswapd_pid ${p#/proc/}" >>facts.txt
done
lkm read -m 0 | lkm write -m $MS_RECLAIM -N reclaim || fail "cannot create maskset $MS_RECLAIM"
run lkm config -m $MS_RECLAIM MEM_RECLAIM_START default MEM_RECLAIM_END default
run lkm set -m $MS_RECLAIM
free_kb=$(awk '/^MemFree/ { print $2 }' /proc/meminfo)
echo $((free_kb - 96 * 1024)) >/proc/sys/vm/min_free_kbytes
# The hog volunteers as the OOM victim (oom_score_adj 1000): when reclaim
# cannot keep up (it happens under KASAN on a loaded host), the OOM killer
# takes it after its direct reclaims, which are what is checked here.
echo "+ timeout 40 lkst_mem hog -s $((free_kb / 1024)) -o facts.txt"
timeout 40 lkst_mem hog -s $((free_kb / 1024)) -o facts.txt
rc=$?
case $rc in
0) ;;
137) echo "hog_oom_killed 1" >>facts.txt ;;
*) fail "'lkst_mem hog' exited $rc" ;;
esac
echo "$min_free" >/proc/sys/vm/min_free_kbytes
# kswapd ends its balance_pgdat() run once the watermark is back down, and
# its MEM_RECLAIM_END must be recorded before the maskset goes: under KASAN
# the run outlasted a fixed second (the fresh-clone CI of c23b748).  lkbuf
# read copies the buffers without consuming them.
kswapd=$(sed -n 's/^kswapd_pid //p' facts.txt)
waited=0
while [ $waited -lt 60 ]; do
	lkbuf read -f /tmp/t41-wait.log >/dev/null 2>&1 &&
		lkbuf print -r -C -e MEM_RECLAIM_END -p "$kswapd" -f /tmp/t41-wait.log |
		grep -q ',MEM_RECLAIM_END,' && break
	sleep 1
	waited=$((waited + 1))
done
rm -f /tmp/t41-wait.log
echo "kswapd's run ended after ${waited}s more (60: it did not)"
run lkm set -m 0
run lkbuf read -f /tmp/t41.log
lkbuf print -r -C -e MEM_RECLAIM_START,MEM_RECLAIM_END -f /tmp/t41.log >reclaim.csv ||
	fail "lkbuf print"
cat facts.txt | grep -v '^pfn'
cleanup
