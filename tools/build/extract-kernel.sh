#!/bin/bash
# Extract the Debian kernel source tarball into DEST (once).
# Extraction goes to a temporary dir and is renamed at the end, so an
# interrupted run never leaves a half tree that later steps would trust.
set -euo pipefail

tarball=${1:?usage: extract-kernel.sh TARBALL DEST}
dest=${2:?usage: extract-kernel.sh TARBALL DEST}

if [ -f "$dest/.lkst-extracted" ]; then
	exit 0
fi
if [ ! -r "$tarball" ]; then
	echo "extract-kernel: $tarball not found (apt-get install linux-source-6.12, or make deps)" >&2
	exit 1
fi
if [ -e "$dest" ]; then
	echo "extract-kernel: $dest exists but is not a complete extraction; remove it (make distclean)" >&2
	exit 1
fi

tmp="$dest.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
echo "  EXTRACT $tarball -> $dest"
tar -xJf "$tarball" -C "$tmp" --strip-components=1
touch "$tmp/.lkst-extracted"
mv "$tmp" "$dest"
trap - EXIT
