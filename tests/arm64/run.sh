#!/bin/bash
# The arm64 stage (make test-arm64, tests/run-all.sh): one boot of the
# arm64 guest running ARM64_SCENARIOS, each scenario's checker (the same
# as x86's, keyed on the arch.txt the scenario writes), the console scan,
# and a summary line
#   arm64: N scenarios passed, H hook sites for E events
# before which the coverage line (tests/check/coverage.py, from the checkers'
# proofs in OUTDIR/coverage.txt)
#   arm64 coverage: N of M events observed with correct arguments, ...
# and, when t99_differential ran, its line
#   arm64 differential: P event pairs compared, R records matched, U unexplained differences
#
# usage: run.sh IMAGE INITRAMFS OUTDIR
# env: ARM64_SCENARIOS (comma-separated), ARM64_HARDENING (scenarios of the
#      maxcpus=1 boot, default late_cpu), ARM64_PANIC (0: no panic boot),
#      TIMEOUT (s, default 900)
# exit: 0 when every scenario's checker passed and the console is clean.
set -uo pipefail
here=$(dirname "$(realpath "$0")")
repo=$(realpath "$here/../..")
image=${1:?usage: run.sh IMAGE INITRAMFS OUTDIR}
initrd=${2:?usage: run.sh IMAGE INITRAMFS OUTDIR}
out=${3:?usage: run.sh IMAGE INITRAMFS OUTDIR}
scenarios=${ARM64_SCENARIOS:-t20_syscall,t10_process,t12_process_events,t33_exception,t31_interrupt,t41_memory,t61_filter,t62_agg,t30_wrap,t32_timer,t51_ipc,t54_lock,t15_hotplug,t96_fuzz,compat32,t45_pagemap,t52_block,t53_net,t90_stat_mark,t63_errpath,t64_stack,t95_hostile,t99_differential}
# A boot of its own with maxcpus=1, as x86's hardening boot: CPU 1 never
# online (late_cpu).  ARM64_HARDENING= skips it.
hardening=${ARM64_HARDENING-late_cpu}

rm -rf "$out"
ARCH=arm64 KERNEL=$image INITRD=$initrd TIMEOUT=${TIMEOUT:-900} \
	APPEND="lkst.maskset=rdefault lkst.bufsize=512K lkst_run=$scenarios" \
	"$repo/tests/qemu/run.sh" "$out"
boot=$?
if [ -n "$hardening" ]; then
	ARCH=arm64 KERNEL=$image INITRD=$initrd TIMEOUT=300 \
		APPEND="maxcpus=1 lkst.bufsize=256K lkst_run=$hardening" \
		"$repo/tests/qemu/run.sh" "$out/hardening" >"$out/hardening.log" 2>&1 ||
		{ boot=1; echo "FAIL: arm64 maxcpus=1 boot ($out/hardening.log)"; }
fi

# The panic boot, as x86's: an oops that panics, and the records lkst's
# panic notifier prints (OOPS_DIE, OOPS_PANIC).  ARM64_PANIC=0 skips it.
if [ "${ARM64_PANIC:-1}" = 1 ]; then
	ARCH=arm64 KERNEL=$image INITRD=$initrd TIMEOUT=300 \
		APPEND="lkst.maskset=rdefault lkst.panic_dump=200 oops=panic lkst_run=panic" \
		"$repo/tests/qemu/run.sh" "$out/panic" >"$out/panic.log" 2>&1
fi

# The events each checker proves (tests/check/coverage.py), as x86's run.
export LKST_COVERAGE=$out/coverage.txt
passed=0 failed=()
IFS=, read -ra names <<<"$scenarios"
IFS=, read -ra late <<<"$hardening"
for n in "${names[@]}" "${late[@]/#/hardening/}"; do
	if [ -d "$out/$n" ] && python3 "$repo/tests/check/${n#hardening/}.py" "$out/$n" >"$out/${n#hardening/}.check.log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS: arm64 $n"
	else
		failed+=("$n")
		echo "FAIL: arm64 $n"
		grep -m 8 '^FAIL' "$out/${n#hardening/}.check.log" 2>/dev/null | sed 's/^/    ! /'
	fi
done
if [ "${ARM64_PANIC:-1}" = 1 ]; then
	if python3 "$repo/tests/check/panic_console.py" "$out/panic/console.log" aarch64 \
		>"$out/panic.check.log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS: arm64 panic"
	else
		failed+=(panic)
		echo "FAIL: arm64 panic"
		grep -m 8 '^FAIL' "$out/panic.check.log" | sed 's/^/    ! /'
	fi
fi
# KUnit at boot: every lkst suite ok (the clock's test checks the inline
# arch counter against the timekeeper).
kunit_ok=1
ktap=$(sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$out/console.log" 2>/dev/null |
	grep -E '^(not )?ok [0-9]+ lkst' || true)
if [ -z "$ktap" ] || grep -q '^not ok' <<<"$ktap"; then
	kunit_ok=0
	echo "FAIL: arm64 KUnit lkst suites: ${ktap:-none ran}"
else
	echo "PASS: arm64 KUnit, $(wc -l <<<"$ktap") lkst suites"
fi
grep -m 1 -o 'records timed .*' "$out/console.log" | sed 's/^/    /' || true
hooks=$(python3 "$repo/tools/build/count-hooks.py" "$(dirname "$image")/../../../vmlinux" 2>&1 | tail -n 1)
# "hook sites: N in vmlinux for E events" -> "N hook sites for E events"
hooks=$(sed -n 's/^hook sites: \([0-9]*\) in vmlinux for \([0-9]*\) events.*/\1 hook sites for \2 events/p' <<<"$hooks")
# Every event observed, untriggerable, or absent on arm64 (events.def):
# the line tests/run-all.sh prints; its check there is the verdict.
python3 "$repo/tests/check/coverage.py" --arch aarch64 "$LKST_COVERAGE" >"$out/coverage.log" 2>&1
tail -n 1 "$out/coverage.log"
# t99_differential's comparison with ftrace in this guest, when it ran.
grep -h '^differential:' "$out/t99_differential.check.log" 2>/dev/null | sed 's/^/arm64 /' || true
echo "arm64: $passed scenarios passed, ${hooks:-? hook sites for ? events}"
[ $boot -eq 0 ] && [ ${#failed[@]} -eq 0 ] && [ $kunit_ok -eq 1 ]
