#!/bin/bash
# The arm64 guest's initramfs (make initramfs-arm64), beside the x86 one
# and without touching its build products:
#   build/arm64/src      links to the sources utils/ builds from, where
#                        lkm.static and lkbuf.static are cross-built
#   build/arm64/handlers handlers/*.ko and tests/modules/*.ko (test/) built
#                        against the arm64 kernel tree KSRC
# then tools/build/mk-initramfs.sh with the arm64 busybox (BUSYBOX, from
# busybox-static:arm64, which tools/build/deps.sh unpacks into build/), the
# guest programs cross-compiled (the few lines of x86 assembly they have
# come with their arm64 form, or tests/arm64/guest/ replaces the program)
# and no stress-ng.
#
# --bench (make bench-arm64): the same in build/arm64-bench against the
# arm64 bench kernel, so that the test guest's build/arm64 and its modules
# are left alone; no test modules and no AArch32 programs, which the bench
# does not run.
#
# usage: initramfs-arm64.sh [--bench] KSRC OUTPUT.cpio.gz
set -euo pipefail
here=$(dirname "$(realpath "$0")")
repo=$(realpath "$here/../..")
bench=0
[ "${1:-}" != --bench ] || { bench=1; shift; }
ksrc=$(realpath "${1:?usage: initramfs-arm64.sh [--bench] KSRC OUTPUT.cpio.gz}")
out=${2:?usage: initramfs-arm64.sh [--bench] KSRC OUTPUT.cpio.gz}
work=$repo/build/arm64
[ $bench = 0 ] || work=$repo/build/arm64-bench
cross=${CROSS_COMPILE:-aarch64-linux-gnu-}
busybox=${BUSYBOX:-$repo/build/busybox-arm64/bin/busybox}
[ -x "$busybox" ] || { echo "initramfs-arm64: $busybox missing (make deps)" >&2; exit 1; }

# utils' Makefile finds ../kernel, ../handlers, ../tools: link them, and
# link each of utils' sources (not its build products) into a directory of
# its own, where the arm64 objects go.
mkdir -p "$work/src/utils"
for d in kernel handlers tools; do ln -sfn "$repo/$d" "$work/src/$d"; done
find "$work/src/utils" -maxdepth 1 -type l -delete
for f in "$repo"/utils/*.[ch] "$repo"/utils/Makefile "$repo"/utils/*.map "$repo"/utils/*.in; do
	ln -s "$f" "$work/src/utils/"
done
echo "  UTILS   arm64 (${work#"$repo"/}/src/utils)"
make -s -C "$work/src/utils" static CC="${cross}gcc" AR="${cross}ar" >/dev/null

mkdir -p "$work/handlers/test" "$work/root32/bin"
cp "$repo"/handlers/*.c "$repo"/handlers/*.h "$repo"/handlers/Kbuild "$work/handlers/"
ARCH=arm64 "$here/kmake.sh" "$ksrc" M="$work/handlers" modules >/dev/null
if [ $bench = 0 ]; then
	cp "$repo"/tests/modules/*.c "$repo"/tests/modules/Kbuild "$work/handlers/test/"
	ARCH=arm64 "$here/kmake.sh" "$ksrc" M="$work/handlers/test" modules >/dev/null

	# The compat scenario's AArch32 programs (compat32.sh), without a C
	# library: arm-linux-gnueabihf-gcc (tools/build/deps.sh), over the root.
	rm -rf "$work/root32" && mkdir -p "$work/root32/bin"
	for c in "$repo"/tests/arm64/guest/arm32/*.c; do
		arm-linux-gnueabihf-gcc -marm -static -nostdlib -ffreestanding -fno-stack-protector \
			-O2 -Wall -Wextra -Werror -o "$work/root32/bin/$(basename "$c" .c)" "$c"
	done
fi

UTILS_DIR=$work/src/utils HANDLERS_DIR=$work/handlers TESTMODS_DIR=$work/handlers/test \
	BUSYBOX=$busybox STRESS_NG=none GUEST_CC="${cross}gcc" \
	GUEST_EXTRA_DIR=$repo/tests/arm64/guest EXTRA_ROOT=$work/root32 \
	"$here/mk-initramfs.sh" "$out"
