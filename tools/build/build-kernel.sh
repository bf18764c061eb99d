#!/bin/bash
# Build bzImage (and modules when enabled) in an already configured tree.
# Output goes to a log so the console stays readable; compiler warnings
# are still shown, and the log's tail is printed when the build fails.
set -euo pipefail
here=$(dirname "$(realpath "$0")")
ksrc=${1:?usage: build-kernel.sh KSRC}
log="$ksrc/.lkst-build.log"

# ARCH=arm64 (kmake.sh) builds Image.
image=arch/x86/boot/bzImage
[ "${ARCH:-x86_64}" = x86_64 ] || image=arch/${ARCH}/boot/Image
targets=("${image##*/}")
grep -qx 'CONFIG_MODULES=y' "$ksrc/.config" && targets+=(modules)

echo "  KBUILD  ${targets[*]} (-j$(nproc), log: $log)"
start=$(date +%s)
if ! "$here/kmake.sh" "$ksrc" -j"$(nproc)" "${targets[@]}" >"$log" 2>&1; then
	grep -E 'error:|Error [0-9]' "$log" | head -n 30 >&2 || true
	echo "----- last lines of $log -----" >&2
	tail -n 40 "$log" >&2
	echo "build-kernel: kernel build failed" >&2
	exit 1
fi
grep -E 'warning:' "$log" | sort -u >&2 || true
echo "  KBUILD  done in $(( $(date +%s) - start ))s: $ksrc/$image"
