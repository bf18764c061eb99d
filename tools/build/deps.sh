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
	protobuf-c-compiler libprotobuf-c-dev protobuf-compiler
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm gcc-arm-linux-gnueabihf
	sqlite3 libsqlite3-dev libcurl4-openssl-dev clickhouse-server clickhouse-client
	dkms linux-headers-6.12-amd64
	# make bench's peers: perf, trace-cmd, bpfrec (libbpf, clang -target bpf)
	linux-perf trace-cmd libbpf-dev clang
	bpftrace
)
# The arm64 guest's tools link these statically (make test-arm64).
arm64_pkgs=(libpopt-dev:arm64 libzstd-dev:arm64)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo -n"; fi
# arm64 packages need the architecture added once (then an apt-get update).
added=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "  DEPS    dpkg --add-architecture arm64"
	$sudo dpkg --add-architecture arm64
	added=1
fi
missing=()
for p in "${pkgs[@]}" "${arm64_pkgs[@]}"; do
	# One line per architecture installed (libpopt-dev: amd64 and arm64).
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qx 'install ok installed' ||
		missing+=("$p")
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
	added=0
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
fi

# Kernel rebuilds after "make distclean" or a tree switch are mostly cache hits.
if command -v ccache >/dev/null; then
	ccache -M 5G >/dev/null
fi

# busybox-static:arm64 cannot be installed beside the amd64 one (both are
# /bin/busybox): unpacked into build/busybox-arm64 for the arm64 initramfs.
bb=$(dirname "$(realpath "$0")")/../../build/busybox-arm64
if [ ! -x "$bb/bin/busybox" ]; then
	echo "  DEPS    busybox-static:arm64 -> build/busybox-arm64"
	[ $added -eq 0 ] || $sudo apt-get update -qq
	dl=$(mktemp -d)
	(cd "$dl" && apt-get download -qq busybox-static:arm64 >/dev/null)
	mkdir -p "$bb"
	dpkg-deb -x "$dl"/busybox-static_*_arm64.deb "$bb"
	rm -rf "$dl"
fi
