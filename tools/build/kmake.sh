#!/bin/bash
# Run the kernel's make with the settings every step must share: the
# compiler string ends up in .config (CC_VERSION_TEXT), so configuring with
# one CC and building with another would silently reconfigure the tree.
# Fixed build user/host/time keep ccache hits and images reproducible.
set -euo pipefail
ksrc=${1:?usage: kmake.sh KSRC [make args...]}
shift
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-1970-01-01}
export KBUILD_BUILD_USER=lkst KBUILD_BUILD_HOST=lkst
# ARCH=arm64 cross-compiles with aarch64-linux-gnu-gcc (tools/build/deps.sh).
arch=${ARCH:-x86_64}
cross=
[ "$arch" = x86_64 ] || cross=${CROSS_COMPILE:-aarch64-linux-gnu-}
ccache=
if command -v ccache >/dev/null 2>&1; then ccache="ccache "; fi
exec make -C "$ksrc" ARCH="$arch" CROSS_COMPILE="$cross" CC="${ccache}${cross}gcc" \
	HOSTCC="${ccache}gcc" "$@"
