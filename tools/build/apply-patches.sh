#!/bin/bash
# Bring the quilt stack of a kernel tree in line with a series file.
#
# A stamp (hash of the series and of every patch it names) records what
# was applied last. When it differs, everything is popped and pushed again:
# popping restores (and touches) the original files, so kbuild rebuilds
# exactly what changed and the build stays incremental.
set -euo pipefail

ksrc=$(realpath "${1:?usage: apply-patches.sh KSRC PATCHES_DIR SERIES_FILE}")
pdir=$(realpath "${2:?usage: apply-patches.sh KSRC PATCHES_DIR SERIES_FILE}")
series=$(realpath "${3:?usage: apply-patches.sh KSRC PATCHES_DIR SERIES_FILE}")
stamp="$ksrc/.lkst-patches.stamp"

# Patch names listed in the series (comments, blank lines and options dropped).
list_patches() {
	sed -e 's/#.*//' "$series" | awk 'NF { print $1 }'
}

[ -f "$series" ] || { echo "apply-patches: series file $series not found" >&2; exit 1; }

want=$( {
	echo "series=$series"
	cat "$series"
	list_patches | while read -r p; do
		[ -f "$pdir/$p" ] || { echo "apply-patches: $p is listed in $series but $pdir/$p does not exist" >&2; exit 1; }
		echo "== $p"
		cat "$pdir/$p"
	done
} | sha256sum | cut -d' ' -f1)

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi
rm -f "$stamp"

cd "$ksrc"
# Pop with the settings quilt recorded in .pc (they override the env anyway).
if [ -s .pc/applied-patches ]; then
	echo "  QUILT   pop -a -f ($(wc -l < .pc/applied-patches) patches)"
	if ! quilt pop -a -f -q >/dev/null; then
		echo "apply-patches: 'quilt pop -a -f' failed in $ksrc; the tree is in an unknown state, run 'make distclean'" >&2
		exit 1
	fi
fi
rm -rf .pc

n=$(list_patches | wc -l)
if [ "$n" -gt 0 ]; then
	echo "  QUILT   push -a ($n patches from $series)"
	if ! QUILT_PATCHES="$pdir" QUILT_SERIES="$series" quilt push -a -q; then
		echo "apply-patches: the series does not apply to $ksrc (see above); rolling back" >&2
		if [ -s .pc/applied-patches ]; then quilt pop -a -f -q >/dev/null || true; fi
		rm -rf .pc
		exit 1
	fi
fi
echo "$want" > "$stamp"
