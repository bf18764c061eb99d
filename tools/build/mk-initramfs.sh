#!/bin/bash
# Build the test guest's initramfs (gzip'd newc cpio):
#   /bin       busybox-static + applet symlinks, lkm/lkbuf (static builds),
#              stress-ng and its shared libraries (/lib...),
#              guest test programs compiled from tests/guest/*.c
#   /lib/lkst  handler modules (handlers/*.ko), test modules in test/
#              (tests/modules/*.ko)
#   /scenarios tests/scenarios/* (or $SCENARIO_DIR): *.sh are the scenarios
#   /init      tests/qemu/init
# Missing optional parts (no utils yet, no handlers) are reported, not fatal,
# so the harness itself can be exercised before they exist.
#
# usage: mk-initramfs.sh OUTPUT.cpio.gz
# env: REPO (default: this repo), SCENARIO_DIR, UTILS_DIR, HANDLERS_DIR,
#      TESTMODS_DIR, GUEST_DIR, BUSYBOX, STRESS_NG (none: no stress-ng, as
#      on arm64, whose t95 runs lkst_hostile), EXTRA_ROOT (a tree copied over
#      the root last: tests/stock's modules and /etc/lkst-preinit); for another architecture
#      (tools/build/initramfs-arm64.sh): GUEST_CC, GUEST_SKIP (programs of
#      GUEST_DIR not built: x86 assembly), GUEST_EXTRA_DIR (more programs)
set -euo pipefail

here=$(dirname "$(realpath "$0")")
repo=${REPO:-$(realpath "$here/../..")}
out=$(realpath -m "${1:?usage: mk-initramfs.sh OUTPUT.cpio.gz}")
scen=${SCENARIO_DIR:-$repo/tests/scenarios}
utils=${UTILS_DIR:-$repo/utils}
handlers=${HANDLERS_DIR:-$repo/handlers}
guest=${GUEST_DIR:-$repo/tests/guest}
busybox=${BUSYBOX:-/bin/busybox}

file "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic executable' ||
	{ echo "mk-initramfs: $busybox is not static (install busybox-static)" >&2; exit 1; }

root=$(mktemp -d)
# mktemp makes it 0700; the guest root must be traversable by other users.
chmod 755 "$root"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,lib/lkst,scenarios,results,etc}

cp "$busybox" "$root/bin/busybox"
# A foreign busybox cannot run here: the host's applet list (same package).
for a in $("$busybox" --list 2>/dev/null || /bin/busybox --list); do
	[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
done

for u in lkm lkbuf; do
	if [ -x "$utils/$u.static" ]; then
		cp "$utils/$u.static" "$root/bin/$u"
	else
		echo "mk-initramfs: warning: $utils/$u.static missing (make utils); not in the guest" >&2
	fi
done

# stress-ng (for t95_hostile) with every shared library it loads, at the
# same paths as on the host (/lib/x86_64-linux-gnu/..., /lib64/ld-linux...).
stressng=${STRESS_NG:-/usr/bin/stress-ng}
if [ "$stressng" = none ]; then
	:
elif [ -x "$stressng" ]; then
	cp "$stressng" "$root/bin/stress-ng"
	for lib in $(ldd "$stressng" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
else
	echo "mk-initramfs: warning: $stressng missing (make deps); t95_hostile will fail" >&2
fi

shopt -s nullglob
kos=("$handlers"/*.ko)
[ ${#kos[@]} -eq 0 ] || cp "${kos[@]}" "$root/lib/lkst/"
# Modules that exist only for tests (a handler that oopses) stay apart.
testkos=("${TESTMODS_DIR:-$repo/tests/modules}"/*.ko)
[ ${#testkos[@]} -eq 0 ] || { mkdir -p "$root/lib/lkst/test"; cp "${testkos[@]}" "$root/lib/lkst/test/"; }

for c in "$guest"/*.c ${GUEST_EXTRA_DIR:+"$GUEST_EXTRA_DIR"/*.c}; do
	p=$(basename "$c" .c)
	case " ${GUEST_SKIP:-} " in *" $p "*) [ "$(dirname "$c")" != "$guest" ] || continue ;; esac
	${GUEST_CC:-gcc} -static -O2 -Wall -Wextra -Werror -I"$repo/kernel/include/uapi" \
		-I"$guest" -o "$root/bin/$p" "$c" -lpthread ||
		{ echo "mk-initramfs: failed to compile guest program $c" >&2; exit 1; }
done
# A program of several files is a directory: tests/guest/NAME/*.c -> bin/NAME.
for d in "$guest"/*/; do
	srcs=("$d"*.c)
	[ ${#srcs[@]} -gt 0 ] || continue
	p=$(basename "$d")
	${GUEST_CC:-gcc} -static -O2 -Wall -Wextra -Werror -I"$repo/kernel/include/uapi" \
		-o "$root/bin/$p" "${srcs[@]}" -lpthread ||
		{ echo "mk-initramfs: failed to compile guest program $d" >&2; exit 1; }
done

# Scenarios are the *.sh files; other files there (shared includes such as
# common.inc) are copied along so scenarios can source them.
scripts=("$scen"/*.sh)
[ ${#scripts[@]} -gt 0 ] || echo "mk-initramfs: warning: no scenarios in $scen" >&2
for s in "$scen"/*; do
	[ ! -f "$s" ] || install -m 0755 "$s" "$root/scenarios/"
done

install -m 0755 "$repo/tests/qemu/init" "$root/init"
[ -z "${EXTRA_ROOT:-}" ] || cp -a "$EXTRA_ROOT"/. "$root"/

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
echo "  INITRAMFS $out ($(du -k "$out" | cut -f1) KiB, ${#kos[@]} modules, ${#scripts[@]} scenarios)"
