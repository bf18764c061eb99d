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
cc="gcc"
if command -v ccache >/dev/null 2>&1; then cc="ccache gcc"; fi
exec make -C "$ksrc" ARCH=x86_64 CC="$cc" HOSTCC="$cc" "$@"
