# An ioctl fuzzer on /dev/lkst: random and mutated requests of every
# command from 4 threads while CPU 1 goes offline and online; the kernel
# must stay unharmed and answer only as the ABI says.  The call count is
# /scenarios/fuzz_calls if present, else the default below.
. /scenarios/common.inc

calls=1000000
[ ! -f /scenarios/fuzz_calls ] || calls=$(cat /scenarios/fuzz_calls)
echo "fuzz_calls_requested $calls" >hardening.txt
lkst_fuzz -s 0x1c57f022 -n "$calls" -t 4 >fuzz.txt 2>&1
rc=$?
cat fuzz.txt
echo "fuzz_exit $rc" >>hardening.txt
grep -E '^(fuzz_calls|fuzz_seconds|fuzz_rate|hotplug_cycles|unexpected_answers) ' fuzz.txt >>hardening.txt
cat hardening.txt
step lkbuf list
step lkm list
[ "$rc" -eq 0 ] || { echo "FAIL: lkst_fuzz exited $rc"; exit 1; }
