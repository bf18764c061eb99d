#!/bin/bash
# The two arm64 bench kernels of one configuration (make bench-arm64):
# pristine 6.12 in build/linux-6.12-arm64-vanilla and the series in
# build/linux-6.12-arm64-bench, from x86's bench fragments plus
# configs/arm64.config.  ftrace.config's IA32_EMULATION is x86's compat
# switch (arm64.config sets COMPAT), so it is left out here rather than
# copying the fragment.
#
# usage: tools/bench/kernels-arm64.sh TARBALL PATCH_DIR SERIES
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# = 3 ] || { echo "usage: $0 TARBALL PATCH_DIR SERIES" >&2; exit 2; }
tools=tools/build
lkst=build/linux-6.12-arm64-bench
vanilla=build/linux-6.12-arm64-vanilla
frag=build/ftrace-arm64.config
mkdir -p build
# One build at a time in these trees (make bench-arm64 run twice).
exec 9>build/.kernels-arm64.lock
flock 9
grep -v '^CONFIG_IA32_EMULATION=' configs/ftrace.config > "$frag.tmp"
cmp -s "$frag.tmp" "$frag" 2>/dev/null && rm "$frag.tmp" || mv "$frag.tmp" "$frag"
frags=(configs/guest.config "$frag" configs/arm64.config)
export ARCH=arm64
"$tools/extract-kernel.sh" "$1" "$lkst"
"$tools/apply-patches.sh" "$lkst" "$2" "$3"
"$tools/configure-kernel.sh" "$lkst" "${frags[@]}" configs/bench.config
"$tools/build-kernel.sh" "$lkst"
"$tools/extract-kernel.sh" "$1" "$vanilla"
"$tools/configure-kernel.sh" "$vanilla" "${frags[@]}"
"$tools/build-kernel.sh" "$vanilla"
# One configuration: a fragment changed between the two builds (another
# engineer's edit of arm64.config) would compare two different kernels.
if ! diff <(grep -v LKST "$lkst/.config") <(grep -v LKST "$vanilla/.config") >/dev/null; then
	echo "kernels-arm64: $lkst and $vanilla differ in more than CONFIG_LKST; run again to reconfigure both" >&2
	exit 1
fi
