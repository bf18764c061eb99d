#!/bin/bash
# Generate patches/0001-lkst-core.patch: one patch that creates every file
# under kernel/ at its in-tree path (kernel/include/x.h -> include/x.h) and
# makes the hand-kept edits of existing files in EDITS (by default
# core-patch-edits.diff beside this script: MAINTAINERS and docs).
# The output depends only on the file contents (sorted paths, no dates), so
# "make patches" on an unchanged tree is a no-op and staleness is a diff.
#
# usage: gen-core-patch.sh KERNEL_DIR OUTPUT_PATCH [EDITS]
set -euo pipefail
export LC_ALL=C

usage='usage: gen-core-patch.sh KERNEL_DIR OUTPUT_PATCH [EDITS]'
kdir=${1:?$usage}
out=${2:?$usage}
edits=${3:-$(dirname "$0")/core-patch-edits.diff}
desc_file="$kdir/PATCH_DESCRIPTION"

# Files that are not part of the tree: the description itself and editor/
# quilt/build leftovers.
files=$(cd "$kdir" && find . -type f \
	! -name PATCH_DESCRIPTION ! -name '*~' ! -name '*.orig' ! -name '*.rej' \
	! -name '*.o' ! -name '*.ko' ! -name '*.cmd' ! -name '.*' \
	| sed 's|^\./||' | sort)
[ -n "$files" ] || { echo "gen-core-patch: no files under $kdir" >&2; exit 1; }

body=$(mktemp)
tmp=$(mktemp)
secdir=$(mktemp -d)
trap 'rm -rf "$body" "$tmp" "$secdir"' EXIT

# Split EDITS into one file per "diff --git" section (the text before the
# first is a comment) and list each as "path<TAB>section file".
[ -f "$edits" ] || { echo "gen-core-patch: $edits not found" >&2; exit 1; }
awk -v dir="$secdir" '
	/^diff --git a\// {
		n++; path = $3; sub(/^a\//, "", path)
		printf "%s\t%s/%d\n", path, dir, n > (dir "/list")
	}
	n { print > (dir "/" n) }
' "$edits"
touch "$secdir/list"
for p in $(cut -f1 "$secdir/list"); do
	if [ -e "$kdir/$p" ]; then
		echo "gen-core-patch: $p is both created from kernel/ and edited in $edits" >&2
		exit 1
	fi
done

# New files and edits, in path order as git would list them.
{
	for p in $files; do printf '%s\t\n' "$p"; done
	cat "$secdir/list"
} | sort -t $'\t' -k1,1 | while IFS=$'\t' read -r p section; do
	if [ -n "$section" ]; then
		cat "$section" >>"$body"
		continue
	fi
	if [ ! -s "$kdir/$p" ]; then
		echo "gen-core-patch: skipping empty file kernel/$p (a unified diff cannot create it)" >&2
		continue
	fi
	printf 'diff --git a/%s b/%s\nnew file mode 100644\n' "$p" "$p" >>"$body"
	# diff exits 1 when the inputs differ, which is always the case here.
	diff -u --label /dev/null --label "b/$p" /dev/null "$kdir/$p" >>"$body" || [ $? -eq 1 ]
done

{
	echo "From: lkst developers <lkst@localhost>"
	echo "Subject: [PATCH] lkst: add the kernel state tracer core"
	echo
	if [ -s "$desc_file" ]; then
		# Trim leading/trailing blank lines so the header layout stays fixed.
		sed -e '/./,$!d' "$desc_file" | sed -e ':a' -e '/^\n*$/{$d;N;ba' -e '}'
	else
		cat <<'DESC'
LKST (Linux Kernel State Tracer) records kernel state transitions --
context switches, interrupts, softirqs, system calls, signals, memory
and lock events -- as fixed-size binary records in per-CPU ring buffers
that user space can select, resize and read through an ioctl interface.
Event types are dispatched through a handler table so that modules can
install extended handlers at run time.

This patch adds the core: the public header, the UAPI record, event and
ioctl definitions, the buffer management and the control device. The
hooks in the traced subsystems come in the following patches; with
CONFIG_LKST=n nothing changes.
DESC
	fi
	echo
	echo "---"
	if command -v diffstat >/dev/null 2>&1; then
		diffstat -p1 -w 72 "$body"
		echo
	fi
	cat "$body"
} >"$tmp"

mkdir -p "$(dirname "$out")"
# Only touch the output when it changed, so make and quilt stamps stay quiet.
if ! cmp -s "$tmp" "$out"; then
	cp "$tmp" "$out"
	echo "  GEN     $out"
fi
