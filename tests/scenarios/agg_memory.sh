# lkst_agg's tables are sized per possible CPU.  In a 256 MiB guest
# (tests/run-all.sh), quantize aggregations of 8192 slots (about 9 MiB per
# possible CPU each) are made until the handler refuses one with ENOMEM,
# as the core refuses buffers: before reclaim turns hard or the OOM killer
# wakes, with nothing on the console, and leaving a sixteenth of the memory
# for everything else.  (It used to allocate on: the OOM
# killer killed this scenario's shell.)
. /scenarios/common.inc

M=12
cleanup() {
	lkm delete -m $M
	rmmod lkst_agg 2>/dev/null
}
run insmod /lib/lkst/lkst_agg.ko
lkm read -m 0 | lkm write -m $M -N aggmem || fail "cannot create maskset $M"
cat /sys/devices/system/cpu/possible >result.txt
made=0
refusal=none
while [ $made -lt 8 ]; do
	if ! lkm agg set -N "q$made" -m $M -F quantize -v arg4 -K comm,arg1 -s 8192 \
		SYSCALL_ENTRY 2>err.txt; then
		refusal=$(cat err.txt)
		break
	fi
	made=$((made + 1))
done
echo "made $made" >>result.txt
echo "refused $refusal" >>result.txt
grep -E 'MemTotal|MemAvailable' /proc/meminfo >>result.txt
cat result.txt
cleanup
