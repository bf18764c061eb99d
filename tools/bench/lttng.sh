#!/bin/bash
# LTTng in make bench: Debian's lttng-modules (lttng-modules-dkms 2.13.9,
# downloaded and unpacked, not installed: its postinst builds for the
# host's kernels and leaves dpkg with a failed package when that fails)
# built against the lkst bench kernel.  Writes one line to OUT: that it
# built, or that it did not and the compiler's first errors, which
# tools/bench/report_peers.py puts in results.md.  LTTng is not patched.
#
# usage: tools/bench/lttng.sh KSRC OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
ksrc=$(realpath "${1:?usage: lttng.sh KSRC OUT}")
out=$(realpath -m "${2:?usage: lttng.sh KSRC OUT}")
work=build/lttng
rm -rf "$work" && mkdir -p "$work"
if ! (cd "$work" && apt-get download -qq lttng-modules-dkms) >"$work/apt.log" 2>&1; then
	echo "not measured: apt-get download lttng-modules-dkms failed: $(tail -n 1 "$work/apt.log")" | tee "$out"
	exit 0
fi
deb=$(ls "$work"/lttng-modules-dkms_*.deb)
dpkg-deb -x "$deb" "$work/root"
src=$(ls -d "$work"/root/usr/src/lttng-modules-*)
ver=${src##*/lttng-modules-}
kver=$(make -s -C "$ksrc" kernelversion)
# CONFIG_LTTNG=m as lttng-modules' own Makefile passes it: without it
# Kbuild builds nothing and succeeds.
if tools/build/kmake.sh "$ksrc" M="$(realpath "$src")" CONFIG_LTTNG=m -j"$(nproc)" modules \
	>"$work/build.log" 2>&1 && [ -n "$(find "$src" -name '*.ko' -print -quit)" ]; then
	echo "lttng-modules $ver built against Linux $kver; not measured yet" | tee "$out"
else
	errors=$(grep -E ': error: ' "$work/build.log" | sed 's|^.*/lttng-modules-[^/]*/||' |
		sort -u | head -n 4 | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	echo "not measured: lttng-modules $ver does not build against Linux $kver ($work/build.log): $errors" | tee "$out"
fi
