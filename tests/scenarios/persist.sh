# Buffers kept across a warm reboot.  Run by tests/run-all.sh in a boot of
# its own (reserve_mem=8M:4096:lkst lkst.persist=lkst panic=1, run.sh with
# REBOOT=1 so that the panic resets the guest instead of ending QEMU):
#   first boot (cold RAM): the kernel finds no previous trace; a resize,
#     a delete of the persistent block, a link from it to a new block
#     and a jump to that block are refused; a known
#     workload is recorded, read once (before.log, kept on the scratch
#     disk), marked once more, and then an oops panics the machine;
#   second boot: the same scenario finds the previous boot's trace, saves
#     it with lkbuf read --previous-boot, and tests/check/persist.py
#     compares it with before.log.
. /scenarios/common.inc

dmesg | grep "lkst: persist" >persist-dmesg.txt
if lkbuf read --previous-boot -f previous.log --release 2>previous.err; then
	echo "second boot: the previous boot's trace"
	cat previous.err
	tar -xf /dev/vdb -C . before.log refusals.txt ||
		{ echo "FAIL: no first-boot results on /dev/vdb"; exit 1; }
	step lkbuf print -C -f previous.log >previous.csv
	step lkbuf print -C -f before.log >before.csv
	# Released: asked again, there is none.
	if lkbuf read --previous-boot -f again.log 2>again.err; then
		echo "FAIL: a released previous trace was read again"; exit 1
	fi
	cat again.err
	# Random requests on this boot's persistent buffers, CPU 1
	# hotplugged: resizes, deletes, links and jumps out of the region
	# refused, the rest as ever.
	lkst_fuzz -s 0x9e2515 -n 20000 -t 2 >fuzz.txt 2>&1
	echo "fuzz exited $? $(grep -E '^(unexpected_answers|persistent_refusals) ' fuzz.txt | tr '\n' ' ')" >fuzz-result.txt
	cat fuzz.txt fuzz-result.txt
	exit 0
fi
cat previous.err
echo "first boot: a workload, then a crash"
grep -q "holds no previous trace" persist-dmesg.txt ||
	{ echo "FAIL: the cold boot did not say it found no previous trace"; exit 1; }
# The region is the buffer the next boot finds: neither resized nor deleted.
lkbuf resize -s 128K 2>resize.err
echo "resize exited $? $(cat resize.err)" >refusals.txt
lkbuf delete -c 0 -b 0 2>delete.err
echo "delete exited $? $(cat delete.err)" >>refusals.txt
# Nor left for a block this boot adds: a link out of the region and a jump
# away from it move the writer off it as silently.  The block is then
# deleted: it was never written (a jump that went ahead makes this fail).
b=$(lkbuf create -c 0 -s 64K) || { echo "FAIL: lkbuf create"; exit 1; }
lkbuf link -c 0 -b 0 --next "$b" 2>link.err
echo "link exited $? $(cat link.err)" >>refusals.txt
lkbuf jump -c 0 -b "$b" 2>jump.err
echo "jump exited $? $(cat jump.err)" >>refusals.txt
step lkbuf delete -c 0 -b "$b"
cat refusals.txt
crash_workload persist
tar -cf /dev/vdb before.log refusals.txt && sync ||
	{ echo "FAIL: cannot keep before.log on /dev/vdb"; exit 1; }
echo 1 >/proc/sys/kernel/panic_on_oops
provoke_crash "lkst-persist: provoking an oops" ACCESS_NULL
