# Records carry kernel addresses: under lockdown=confidentiality /dev/lkst
# refuses to open, as tracefs does, and a descriptor opened before refuses
# probes, reads of records and lkst_agg's reads (its keys are arguments).
# Runs last in its boot: lockdown cannot be lifted.
. /scenarios/common.inc

step lkbuf list
# Loaded before lockdown, whose integrity level would refuse an unsigned
# module: lkst_lockdown_fd asks it for a read and for commands.
step insmod /lib/lkst/lkst_agg.ko
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
cat /sys/kernel/security/lockdown >levels.txt || { echo "FAIL: no lockdown LSM"; exit 1; }
# Raised by a process holding /dev/lkst open: its requests are refused too,
# and so are the fuzzer's, which is mid-run on descriptors opened before.
lkst_fuzz -s 0x10c4d0 -n 200000 -t 2 -H >fuzz.txt 2>&1 &
fuzz=$!
sleep 1
lkst_lockdown_fd >fd.txt
echo "lkst_lockdown_fd exited $?" >fd_rc.txt
wait $fuzz
echo "fuzz_exit $?" >fuzz_rc.txt
cat fd.txt fd_rc.txt fuzz.txt fuzz_rc.txt
grep -E '^(fuzz_calls|lockdown_refusals|unexpected_answers) ' fuzz.txt >hardening.txt
cat /sys/kernel/security/lockdown >>levels.txt
lkbuf list >list.txt 2>list.err
echo "lkbuf list exited $?" >rc.txt
lkm list >lkm.txt 2>lkm.err
echo "lkm list exited $?" >>rc.txt
cat levels.txt rc.txt list.err lkm.err
