#!/bin/bash
# Install the Debian packages the build and the QEMU harness need, but only
# those missing: quiet and quick when everything is there, and one
# "apt-get update" at most. Also sizes the ccache once.
set -euo pipefail

pkgs=(
	build-essential bc bison flex libelf-dev libssl-dev dwarves cpio
	xz-utils kmod perl python3 ccache quilt diffstat file
	linux-source-6.12 busybox-static qemu-system-x86
	libpopt-dev gnuplot-nox stress-ng time babeltrace2
	libzstd-dev zstd
)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
	sudo=""
	if [ "$(id -u)" -ne 0 ]; then
		command -v sudo >/dev/null || { echo "deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
		sudo="sudo -n"
	fi
	echo "  DEPS    installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
fi

# Kernel rebuilds after "make distclean" or a tree switch are mostly cache hits.
if command -v ccache >/dev/null; then
	ccache -M 5G >/dev/null
fi
