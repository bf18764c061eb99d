#!/bin/bash
# The kdump scenario's initramfs: the test initramfs plus /boot holding the
# capture kernel (the test bzImage itself) and its small initramfs
# (busybox-static and tests/qemu/capture-init as /init).  The kernel
# unpacks concatenated cpio archives in order, so the second one only adds
# /boot to the first.
#
# usage: mk-kdump-initramfs.sh TEST_INITRAMFS.cpio.gz BZIMAGE OUTPUT.cpio.gz
set -euo pipefail

here=$(dirname "$(realpath "$0")")
repo=$(realpath "$here/../..")
base=${1:?usage: mk-kdump-initramfs.sh TEST_INITRAMFS BZIMAGE OUTPUT}
bzimage=${2:?usage: mk-kdump-initramfs.sh TEST_INITRAMFS BZIMAGE OUTPUT}
out=$(realpath -m "${3:?usage: mk-kdump-initramfs.sh TEST_INITRAMFS BZIMAGE OUTPUT}")
busybox=${BUSYBOX:-/bin/busybox}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cpio_dir() {
	(cd "$1" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner=0:0 --quiet) | gzip -9n
}

cap=$work/capture
mkdir -p "$cap"/{bin,dev,proc,results}
chmod 755 "$cap"
cp "$busybox" "$cap/bin/busybox"
for a in $("$busybox" --list); do
	[ "$a" = busybox ] || ln -sf busybox "$cap/bin/$a"
done
install -m 0755 "$repo/tests/qemu/capture-init" "$cap/init"

extra=$work/extra
mkdir -p "$extra/boot"
chmod 755 "$extra"
cp "$bzimage" "$extra/boot/bzImage"
cpio_dir "$cap" >"$extra/boot/capture.cpio.gz"

cat "$base" <(cpio_dir "$extra") >"$out.tmp"
mv "$out.tmp" "$out"
echo "  INITRAMFS $out ($(du -k "$out" | cut -f1) KiB, with the capture kernel)"
