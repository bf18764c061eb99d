#!/bin/bash
# Put dynamically linked host programs into a tree that mk-initramfs.sh
# copies over the guest's root (EXTRA_ROOT): each program as /bin/NAME and
# every shared library ldd names at the same path as on the host, so the
# guest's dynamic loader finds them.  The peers of make bench (perf,
# bpftrace) are Debian's own binaries, not static builds.
#
# usage: guest-binaries.sh DIR PROGRAM[=NAME]...
#   PROGRAM  a path or a command name (resolved by PATH; a shell-script
#            wrapper such as Debian's /usr/bin/perf is refused: give the
#            binary it runs, e.g. /usr/bin/perf_6.1)
#   NAME     its name in the guest's /bin (default: its basename)
# e.g.  tools/bench/guest-binaries.sh build/bench-root perf bpftrace
#       EXTRA_ROOT=build/bench-root tools/build/mk-initramfs.sh out.cpio.gz
set -euo pipefail

die() { echo "guest-binaries: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: guest-binaries.sh DIR PROGRAM[=NAME]..."
dir=$1
shift
mkdir -p "$dir/bin"

for arg in "$@"; do
	prog=${arg%%=*}
	name=${prog##*/}
	[ "$arg" = "$prog" ] || name=${arg#*=}
	[ -n "$name" ] || die "$arg: empty name"
	path=$(command -v "$prog" 2>/dev/null) || die "$prog: no such program, or not executable (make deps)"
	path=$(realpath "$path")
	file -b "$path" | grep -q '^ELF' ||
		die "$path is not an ELF program (a wrapper script? give the binary it runs)"
	cp "$path" "$dir/bin/$name"
	# A static program has no libraries ("not a dynamic executable").
	ldd "$path" >/dev/null 2>&1 || continue
	if ldd "$path" | grep -q 'not found'; then
		die "$path: $(ldd "$path" | grep 'not found' | head -n 1)"
	fi
	for lib in $(ldd "$path" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		[ -e "$dir$lib" ] && continue
		mkdir -p "$dir$(dirname "$lib")"
		cp -L "$lib" "$dir$lib"
	done
done
