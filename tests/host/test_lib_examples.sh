#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# liblkst's examples (utils/examples/) as a user builds them: make -C utils
# install into a scratch DESTDIR with PREFIX=/usr, then the installed
# sources (share/doc/liblkst/examples) built with their Makefile through
# pkg-config (PKG_CONFIG_PATH and --define-prefix into the DESTDIR), run
# with the installed liblkst.so.0 on a log of utils/gen_log:
#   - the C example prints the first five selected records' time, CPU,
#     pid and event as lkbuf print -S shows them, and the count of
#     selected and all records, equal to lkbuf print's;
#   - the C++ example's counts per event equal lkbuf print's;
#   - both refuse a bad event list with the library's message, exit 1;
#   - the installed man3 pages include lkst_trace_open.3.
# Usage: test_lib_examples.sh UTILS_DIR.  Ends with "N passed, M failed".
set -u
dir=$(cd "${1:-.}" && pwd) || exit 1
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
show() { tail -n 15 "$1" | sed 's/^/    | /'; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
ex=$tmp/ex

if make -s -C "$dir" install DESTDIR="$dest" PREFIX=/usr >"$tmp/install.log" 2>&1; then ok; else
	fail "make -C utils install DESTDIR=$dest PREFIX=/usr"; show "$tmp/install.log"
fi
docs=$dest/usr/share/doc/liblkst/examples
for f in lkst_count.c lkst_count.cc Makefile; do
	if cmp -s "$dir/examples/$f" "$docs/$f"; then ok; else fail "share/doc/liblkst/examples/$f not installed"; fi
done
if [ -f "$dest/usr/share/man/man3/lkst_trace_open.3" ]; then ok; else fail "man3/lkst_trace_open.3 not installed"; fi

# Built from the installed copy, elsewhere, against the installed library.
mkdir -p "$ex" && cp "$docs"/* "$ex"/ 2>/dev/null
if PKG_CONFIG_PATH=$dest/usr/lib/pkgconfig make -C "$ex" PKG_CONFIG="pkg-config --define-prefix" \
   CFLAGS="-O2 -Wall -Wextra -Werror" CXXFLAGS="-O2 -Wall -Wextra -Werror" >"$tmp/build.log" 2>&1; then ok; else
	fail "building the examples with pkg-config"; show "$tmp/build.log"
fi
run() { LD_LIBRARY_PATH=$dest/usr/lib "$@"; }
for p in lkst_count lkst_count++; do
	if [ -x "$ex/$p" ] && run ldd "$ex/$p" | grep -q "$dest/usr/lib/liblkst.so.0"; then ok; else
		fail "$p does not run with the installed liblkst.so.0"
	fi
done

log=$tmp/trace.log
"$dir/gen_log" "$log" 4000 2 1 >/dev/null 2>&1 || fail "gen_log"
sel=syscall,USER_MARK
"$dir/lkbuf" print -S -e "$sel" -f "$log" >"$tmp/print.txt" 2>/dev/null || fail "lkbuf print -S -e $sel"
n=$(wc -l <"$tmp/print.txt")

# C: "SECONDS cpu N pid P EVENT" for the first five, then the counts.
run "$ex/lkst_count" "$log" "$sel" >"$tmp/c.out" 2>"$tmp/c.err"
rc=$?
if [ $rc -eq 0 ]; then ok; else fail "lkst_count exited $rc: $(cat "$tmp/c.err")"; fi
head -n 5 "$tmp/print.txt" |
	sed 's/^\([0-9.]*\) cpu=\([0-9]*\) pid=\([0-9]*\) ctx=[a-z]* !\{0,1\}\([A-Z_0-9]*\).*/\1 cpu \2 pid \3 \4/' \
	>"$tmp/c.want"
echo "$n of 4000 records selected" >>"$tmp/c.want"
if diff -u "$tmp/c.want" "$tmp/c.out" >"$tmp/c.diff"; then ok; else
	fail "lkst_count's output differs from lkbuf print's (- lkbuf, + example)"; show "$tmp/c.diff"
fi
if [ "$n" -gt 5 ] && [ "$n" -lt 4000 ]; then ok; else fail "the selection kept $n records of 4000"; fi

# C++: counts per event, by name.
run "$ex/lkst_count++" "$log" "$sel" >"$tmp/cc.out" 2>"$tmp/cc.err"
rc=$?
if [ $rc -eq 0 ]; then ok; else fail "lkst_count++ exited $rc: $(cat "$tmp/cc.err")"; fi
awk '{ e = $5; sub(/^!/, "", e); c[e]++ } END { for (e in c) printf "%-24s %d\n", e, c[e] }' \
	"$tmp/print.txt" | LC_ALL=C sort >"$tmp/cc.want"
echo "$n of 4000 records selected" >>"$tmp/cc.want"
if diff -u "$tmp/cc.want" "$tmp/cc.out" >"$tmp/cc.diff"; then ok; else
	fail "lkst_count++'s counts differ from lkbuf print's (- lkbuf, + example)"; show "$tmp/cc.diff"
fi

# A bad list: the library's message, exit 1, nothing on stdout.
for p in lkst_count lkst_count++; do
	run "$ex/$p" "$log" NO_SUCH_EVENT >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s "$tmp/bad.out" ] && grep -q NO_SUCH_EVENT "$tmp/bad.err"; then ok; else
		fail "$p with a bad event list: exit $rc, $(cat "$tmp/bad.err")"
	fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
