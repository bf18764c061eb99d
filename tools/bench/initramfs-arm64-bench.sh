#!/bin/bash
# The arm64 bench guest's initramfs (make bench-arm64): the tools
# cross-built, the handler modules built against the arm64 bench kernel
# KSRC (the suite's filter, agg, errpath and stack configurations), the
# guest programs cross-compiled, the arm64 busybox.  As
# tools/build/initramfs-arm64.sh, but in build/arm64-bench, so that the
# test guest's build/arm64 and its modules are left alone; no test modules
# and no AArch32 programs, which the bench does not run.
#
# usage: initramfs-arm64-bench.sh KSRC OUTPUT.cpio.gz
set -euo pipefail
here=$(dirname "$(realpath "$0")")
repo=$(realpath "$here/../..")
ksrc=$(realpath "${1:?usage: initramfs-arm64-bench.sh KSRC OUTPUT.cpio.gz}")
out=${2:?usage: initramfs-arm64-bench.sh KSRC OUTPUT.cpio.gz}
work=$repo/build/arm64-bench
cross=${CROSS_COMPILE:-aarch64-linux-gnu-}
busybox=${BUSYBOX:-$repo/build/busybox-arm64/bin/busybox}
[ -x "$busybox" ] || { echo "initramfs-arm64-bench: $busybox missing (make deps)" >&2; exit 1; }

mkdir -p "$work/src/utils" "$work/handlers" "$work/none"
for d in kernel handlers tools; do ln -sfn "$repo/$d" "$work/src/$d"; done
find "$work/src/utils" -maxdepth 1 -type l -delete
for f in "$repo"/utils/*.[ch] "$repo"/utils/Makefile "$repo"/utils/*.map "$repo"/utils/*.in; do
	ln -s "$f" "$work/src/utils/"
done
echo "  UTILS   arm64 (build/arm64-bench/src/utils)"
make -s -C "$work/src/utils" static CC="${cross}gcc" AR="${cross}ar" >/dev/null
cp "$repo"/handlers/*.c "$repo"/handlers/*.h "$repo"/handlers/Kbuild "$work/handlers/"
ARCH=arm64 "$repo/tools/build/kmake.sh" "$ksrc" M="$work/handlers" modules >/dev/null

UTILS_DIR=$work/src/utils HANDLERS_DIR=$work/handlers TESTMODS_DIR=$work/none \
	BUSYBOX=$busybox STRESS_NG=/nonexistent GUEST_CC="${cross}gcc" \
	GUEST_SKIP="lkst_diffload lkst_errload lkst_stackload" \
	GUEST_EXTRA_DIR=$repo/tests/arm64/guest \
	"$repo/tools/build/mk-initramfs.sh" "$out"
