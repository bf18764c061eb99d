#!/bin/bash
# lkst.ko on Debian's stock kernel (issue 32, docs/stock.md): build the
# module and handlers with `make stock-module` against the installed
# headers, fetch the matching linux-image package (kept in build/stock/),
# make an initramfs that loads the stock virtio_blk and lkst.ko
# (tests/stock/preinit), boot the stock vmlinuz in QEMU, run the scenarios
# and check them; the last line is the stock summary.
# usage: tests/stock/run.sh [OUTDIR]   env: KVER (default: the installed
#   linux-headers-*-amd64), STOCK_DIR (build/stock), TIMEOUT (600)
set -euo pipefail
# Scenarios of the patched kernel run here unchanged, with their checkers.
STOCK_SCENARIOS_REUSED=${STOCK_SCENARIOS_REUSED:-"demo t20_syscall t61_filter t62_agg t99_differential"}
here=$(dirname "$(realpath "$0")")
repo=$(realpath "$here/../..")
out=$(realpath -m "${1:-$repo/out/stock}")
stock=${STOCK_DIR:-$repo/build/stock}
newest_headers() {
	ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sed 's|.*/linux-headers-||' | sort -V | tail -n 1
}
kver_given=${KVER:+1}
KVER=${KVER:-$(newest_headers)}
[ -n "$KVER" ] || { echo "stock: no linux-headers-*-amd64 installed (make deps)" >&2; exit 1; }

# fetch_image VERSION: download the linux-image package of VERSION into $stock/deb.
fetch_image() {
	mkdir -p "$stock/deb"
	(cd "$stock/deb" && { apt-get download "linux-image-$1-unsigned" ||
			      apt-get download "linux-image-$1"; })
}
# The archive keeps only its newest 6.12.y: once it moves on, the image of
# the headers installed earlier is gone.  Unless KVER was asked for, move the
# headers to the archive's version (as a user's apt upgrade would) and test
# that kernel instead of failing.
if [ ! -f "$stock/image-$KVER/boot/vmlinuz-$KVER" ] && [ -z "$kver_given" ] &&
	! fetch_image "$KVER" >/dev/null 2>&1; then
	echo "stock: the archive no longer has linux-image-$KVER; upgrading linux-headers-6.12-amd64"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends linux-headers-6.12-amd64 </dev/null >/dev/null ||
		{ echo "stock: could not upgrade linux-headers-6.12-amd64" >&2; exit 1; }
	KVER=$(newest_headers)
	echo "stock: testing $KVER"
fi

make -s -C "$repo" stock-module KVER="$KVER"

# The image of the same version as the headers, never the host's own.
image=$stock/image-$KVER
if [ ! -f "$image/boot/vmlinuz-$KVER" ]; then
	ls "$stock"/deb/linux-image-"$KVER"*_*.deb >/dev/null 2>&1 || fetch_image "$KVER" ||
		{ echo "stock: apt-get download linux-image-$KVER failed" >&2; exit 1; }
	rm -rf "$image.tmp" && mkdir -p "$image.tmp"
	dpkg-deb -x "$(ls "$stock"/deb/linux-image-"$KVER"*_*.deb | head -n 1)" "$image.tmp"
	# The package leaves modules.dep to the installing machine.
	/sbin/depmod -b "$image.tmp" "$KVER"
	mv "$image.tmp" "$image"
fi

# The guest's extra root: the disk driver's modules in dependency order
# (from the package's modules.dep), the preinit, the stock scenarios
# beside the shared includes and the reused scenarios.
extra=$stock/root
rm -rf "$extra" && mkdir -p "$extra/lib/modules/$KVER" "$extra/etc"
mods=$image/lib/modules/$KVER
order=()
want() {	# want MODULE-PATH: its dependencies first
	local m=$1 d
	case " ${order[*]-} " in *" $m "*) return ;; esac
	for d in $(sed -n "s|^$m: *||p" "$mods/modules.dep"); do want "$d"; done
	order+=("$m")
}
blk=$(grep -o '^[^:]*/virtio_blk.ko[^:]*' "$mods/modules.dep") ||
	{ echo "stock: no virtio_blk in $mods/modules.dep" >&2; exit 1; }
want "$blk"
for m in "${order[@]}"; do
	mkdir -p "$extra/lib/modules/$KVER/$(dirname "$m")"
	case $m in
	*.xz) xz -dc "$mods/$m" >"$extra/lib/modules/$KVER/${m%.xz}"; m=${m%.xz} ;;
	*) cp "$mods/$m" "$extra/lib/modules/$KVER/$m" ;;
	esac
	echo "$m" >>"$extra/lib/modules/$KVER/load-order"
done
cp "$here/preinit" "$extra/etc/lkst-preinit"

scen=$stock/scenarios
rm -rf "$scen" && mkdir -p "$scen"
cp "$repo"/tests/scenarios/{common.inc,twins.inc} "$scen/"
for s in $STOCK_SCENARIOS_REUSED; do cp "$repo/tests/scenarios/$s.sh" "$scen/"; done
cp "$here"/stock_*.sh "$scen/"

make -s -C "$repo/utils" static
HANDLERS_DIR=$stock/src TESTMODS_DIR=/nonexistent SCENARIO_DIR=$scen EXTRA_ROOT=$extra \
	"$repo/tools/build/mk-initramfs.sh" "$stock/initramfs.cpio.gz"

# make bench-stock: STOCK_RUN=stock_bench, under icount.
runs=${STOCK_RUN:-"$STOCK_SCENARIOS_REUSED stock_coverage stock_rmmod"}
rm -rf "$out"
KERNEL=$image/boot/vmlinuz-$KVER INITRD=$stock/initramfs.cpio.gz TIMEOUT=${TIMEOUT:-600} \
	APPEND="lkst.maskset=rdefault lkst.bufsize=512K lkst_run=$(echo $runs | tr ' ' ',')" \
	"$repo/tests/qemu/run.sh" "$out"
if [ "$runs" = stock_bench ]; then
	# Instructions per tracepoint hit above the untraced run.
	awk '$1 == "BENCH" { ns[$2 " " $3] = $4; hits[$2] = $5; order[$2] = 1 }
	END { print "bench-stock: instructions per tracepoint hit over the untraced run (QEMU -icount shift=0)"
		for (w in order) printf "  %-8s lkst.ko %6.0f   ftrace %6.0f   (untraced %.0f per op, %d hits per op)\n", w,
			(ns[w " lkst"] - ns[w " none"]) / hits[w], (ns[w " ftrace"] - ns[w " none"]) / hits[w],
			ns[w " none"], hits[w] }' "$out/stock_bench/output.txt"
	grep -q '^BENCH' "$out/stock_bench/output.txt"
	exit
fi
python3 "$repo/tests/check/stock.py" "$out" $runs
