#!/bin/bash
# make test's scenario boot with its scenarios in a shuffled order (make
# test-shuffle): a scenario that leaves state behind, or one that assumes
# a state make test's fixed order happens to give it, shows only in
# another order.  Two such defects were found by chance: t16_switch_drain
# hung after t98_torture left CPU 0's buffer empty, and t94_record failed
# after t64_stack (lkbuf record's files went over --rotate by the symbols
# of the stacks t64 left in the buffer).
# t00_boot stays first: it reads what the boot recorded.
#
# usage: tests/shuffle.sh [SEED]   (a random seed without one; the seed
# and the order are printed, and SEED repeats the order)
# Passes when the guest ran to the end with a clean console and every
# scenario's rc and checker (tests/check/NAME.py) passed.  Output:
# out/shuffle/ (console.log, NAME/, check-NAME.log; SHUFFLE_OUT=DIR
# elsewhere, to run two at once).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
seed=${1:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
case $seed in '' | *[!0-9]*) echo "shuffle.sh: seed '$seed' is not a number" >&2; exit 2 ;; esac
out=${SHUFFLE_OUT:-out/shuffle}
rm -rf "$out" && mkdir -p "$out"
names=$(tests/scenario-list.sh | grep -vx t00_boot |
	shuf --random-source=<(openssl enc -aes-128-ctr -pass "pass:$seed" -nosalt -pbkdf2 </dev/zero 2>/dev/null))
order="t00_boot $(paste -sd ' ' <<<"$names")"
echo "shuffle: seed $seed: $order"
echo "$seed $order" >"$out/order.txt"
KERNEL=$(make -s print-BZIMAGE) INITRD=$(make -s print-INITRAMFS) TIMEOUT=${TEST_QEMU_TIMEOUT:-1800} \
	APPEND="lkst.maskset=rdefault lkst.bufsize=512K lkst_hostname=lkst-a lkst_run=$(tr ' ' , <<<"$order")" \
	tests/qemu/run.sh "$out"
rc=$?
fail=0
[ $rc = 0 ] || { echo "FAIL: the guest (run.sh exit $rc: 1 did not end, 3 console)"; fail=1; }
for n in $order; do
	log=$out/check-$n.log
	if [ "$(cat "$out/$n/rc" 2>/dev/null)" != 0 ]; then
		echo "FAIL: $n: rc $(cat "$out/$n/rc" 2>/dev/null || echo missing)"
		tail -n 15 "$out/$n/output.txt" 2>/dev/null | sed 's/^/    | /'
		fail=1
	elif [ -f "tests/check/$n.py" ] &&
		! timeout -k 5 300 python3 "tests/check/$n.py" "$out/$n" >"$log" 2>&1 </dev/null; then
		echo "FAIL: $n: tests/check/$n.py"
		grep -m 8 '^FAIL' "$log" | sed 's/^/    ! /'
		fail=1
	else
		echo "PASS: $n"
	fi
done
[ $fail = 0 ] && echo "shuffle: seed $seed passed" || echo "shuffle: seed $seed FAILED (make test-shuffle SEED=$seed repeats it)"
exit $fail
