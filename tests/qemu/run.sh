#!/bin/bash
# Boot the test kernel in QEMU (TCG), let the initramfs /init run the
# scenarios named by APPEND's lkst_run=..., then pull the results tar back
# out of the scratch virtio disk and scan the console log.
#
# usage: KERNEL=bzImage INITRD=initramfs.cpio.gz [APPEND=...] run.sh OUTDIR
#   OUTDIR gets console.log and the extracted results (OUTDIR/NAME/...).
# env: TIMEOUT (s, default 300), MEM (512M), SMP (2), QEMU_VERBOSE=1 shows
#   the whole console live (otherwise only the init's lines), QEMU_EXTRA:
#   more QEMU options (make bench: -icount shift=0,sleep=off), REBOOT=1: a
#   guest reboot (panic=N) resets the machine, keeping its RAM, instead of
#   ending QEMU; the results come from the last boot.  SCRATCH_SIZE (64M):
#   the scratch disk's size; KEEP_SCRATCH=1 keeps OUTDIR/scratch.img.
#   ARCH=arm64: KERNEL is an arm64 Image, booted by qemu-system-aarch64 on
#   -M virt,gic-version=3 -cpu cortex-a57 (make test-arm64).
# exit: 0 ok; 1 boot failed/timed out/no results; 3 console check failed.
set -euo pipefail

here=$(dirname "$(realpath "$0")")
out=${1:?usage: KERNEL=... INITRD=... run.sh OUTDIR}
: "${KERNEL:?KERNEL=path/to/bzImage is required}"
: "${INITRD:?INITRD=path/to/initramfs.cpio.gz is required}"
TIMEOUT=${TIMEOUT:-300}
for f in "$KERNEL" "$INITRD"; do
	[ -r "$f" ] || { echo "run.sh: $f not found" >&2; exit 1; }
done
qemu=qemu-system-x86_64 machine=() console=ttyS0
if [ "${ARCH:-x86_64}" = arm64 ]; then
	qemu=qemu-system-aarch64 console=ttyAMA0
	machine=(-M virt,gic-version=3 -cpu cortex-a57)
fi
command -v $qemu >/dev/null || { echo "run.sh: $qemu missing (make deps)" >&2; exit 1; }

mkdir -p "$out"
log="$out/console.log"
disk="$out/disk.img"
rm -f "$log" "$disk" "$out/.lkst-done"
# Zero-filled: an all-zero disk reads as an empty tar, so stale data
# from an earlier run can never pass for fresh results.
truncate -s 256M "$disk"
# A second, scratch disk (/dev/vdb) for swap and block I/O scenarios.
scratch="$out/scratch.img"
rm -f "$scratch"
truncate -s "${SCRATCH_SIZE:-64M}" "$scratch"

append="console=$console panic=-1 ${APPEND:-}"
echo "  QEMU    $append (timeout ${TIMEOUT}s, log: $log)"
start=$(date +%s)
set +e
# Single-threaded TCG by default: with QEMU 7.2's multi-threaded TCG, a vCPU
# sometimes runs stale translated code after another vCPU patched a static
# key in do_syscall_64 (it traps on an INT3 the memory no longer holds).
# ACCEL=tcg runs the guest's vCPUs on separate host threads anyway.
timeout -k 10 "$TIMEOUT" $qemu "${machine[@]}" \
	-accel "${ACCEL:-tcg,thread=single}" -smp "${SMP:-2}" -m "${MEM:-512M}" \
	-display none -monitor none -serial stdio -nic none \
	$([ "${REBOOT:-0}" = 1 ] || echo -no-reboot) \
	-kernel "$KERNEL" -initrd "$INITRD" -append "$append" \
	-drive "file=$disk,format=raw,if=virtio" \
	-drive "file=$scratch,format=raw,if=virtio" ${QEMU_EXTRA:-} </dev/null 2>&1 |
	sed -u 's/\r$//' | tee "$log" |
	if [ "${QEMU_VERBOSE:-0}" = 1 ]; then cat; else grep --line-buffered -E '^(\[[ 0-9.]+\] )?lkst-' || true; fi
qrc=${PIPESTATUS[0]}
set -e
echo "  QEMU    exited with $qrc after $(( $(date +%s) - start ))s"

fail=0
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	echo "run.sh: guest timed out after ${TIMEOUT}s; last console lines:" >&2
	tail -n 25 "$log" >&2
	fail=1
elif [ "$qrc" -ne 0 ]; then
	echo "run.sh: qemu failed with exit code $qrc; last console lines:" >&2
	tail -n 25 "$log" >&2
	fail=1
fi

# The guest's init rewrites the tar after each scenario and adds .lkst-done
# last: without it the results are partial (kept, but the run failed).
if tar -xf "$disk" -C "$out" --no-same-owner 2>/dev/null && [ -f "$out/.lkst-done" ]; then
	rm -f "$disk"
	[ "${KEEP_SCRATCH:-0}" = 1 ] || rm -f "$scratch"
else
	echo "run.sh: no complete results tar on the guest disk ($disk kept)" >&2
	fail=1
fi

if ! "$here/check-console.sh" "$log"; then
	[ $fail -ne 0 ] || fail=3
fi
exit $fail
