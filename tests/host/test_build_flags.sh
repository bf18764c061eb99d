#!/bin/sh
# A CFLAGS, CPPFLAGS or LDLIBS on make's command line (as distributions
# build: make CFLAGS='-O2 -g') must not remove what the build needs:
#   - make -n of every target of utils/Makefile (tools, static tools,
#     both libraries, test programs) and of tests/host/Makefile with such
#     a command line: every compile and link still has the required flags
#     and include directories, and the command line's flags too;
#   - a copy of utils built with CFLAGS='-O2 -g' (out of the tree: the
#     normal build is not touched) prints make_log.py's log with losses
#     and an errno name (strerrorname_np) as the normal lkbuf does.
# Usage: test_build_flags.sh [DIR-WITH-lkbuf] (the normal build's lkbuf,
# to compare with).  Ends with "N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=$(cd "${1:-$top/utils}" && pwd)
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

tmp=$(mktemp -d /tmp/lkst_test_build_flags.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
# Not the make that runs this test's variables or jobs.
unset MAKEFLAGS MFLAGS CFLAGS CPPFLAGS LDLIBS LDFLAGS

USER_CFLAGS='-O2 -g'
USER_CPPFLAGS='-DLKST_USER_CPPFLAGS'
NEED_CFLAGS='-Wall -Wextra -Werror -fno-strict-aliasing'

# check_lines FILE WHAT WORD...: every compiler line of FILE has every WORD.
check_lines() {
	file=$1 what=$2
	shift 2
	n=$(grep -c '^lkst-cc ' "$file")
	if [ "$n" -lt 5 ]; then
		fail "$what: only $n compiler lines in make -n: $(head -5 "$file")"
		return
	fi
	for word in "$@"; do
		bad=$(grep '^lkst-cc ' "$file" | grep -v -e " $word " -e " $word\$" | head -1)
		if [ -z "$bad" ]; then ok; else fail "$what: lines without $word: $bad"; fi
	done
}

# ---- utils/Makefile: every compile and link (make -n runs nothing) ----
make -n -B -C "$top/utils" CC=lkst-cc CFLAGS="$USER_CFLAGS" CPPFLAGS="$USER_CPPFLAGS" \
	LDLIBS=-lm all static lib test_utils test_logio test_vmcore fake_lkst.so gen_log \
	>"$tmp/utils.n" 2>"$tmp/utils.err" ||
	fail "make -n in utils: $(cat "$tmp/utils.err")"
check_lines "$tmp/utils.n" "utils" $NEED_CFLAGS -D_GNU_SOURCE -O2 -g
# Compiles: the include directories and the command line's CPPFLAGS.
grep '^lkst-cc .* -c ' "$tmp/utils.n" >"$tmp/utils.c"
check_lines "$tmp/utils.c" "utils compiles" -I../kernel/include/uapi -I../handlers "$USER_CPPFLAGS"
if grep '^lkst-cc .*-o lkst_vmcore.o ' "$tmp/utils.n" | grep -q -- '-I../kernel/kernel/lkst' &&
   grep '^lkst-cc .*-o pic/lkst_vmcore.o ' "$tmp/utils.n" | grep -q -- '-I../kernel/kernel/lkst'; then
	ok
else
	fail "utils: lkst_vmcore.o or pic/lkst_vmcore.o lost -I\$(LKST_BUF)"
fi
# Links of programs: popt after the command line's LDLIBS.
for prog in lkbuf lkm lkbuf.static lkm.static gen_log; do
	if grep "^lkst-cc .*-o $prog " "$tmp/utils.n" | grep -q -- '-lm -lpopt'; then ok; else
		fail "utils: the link of $prog lost -lpopt: $(grep -- "-o $prog " "$tmp/utils.n")"
	fi
done

# ---- tests/host/Makefile: the same for its builds ----
make -n -B -C "$here" CC=lkst-cc CFLAGS="$USER_CFLAGS" CPPFLAGS="$USER_CPPFLAGS" all \
	build/broken/no_epoch/unit >"$tmp/host.n" 2>"$tmp/host.err" ||
	fail "make -n in tests/host: $(cat "$tmp/host.err")"
check_lines "$tmp/host.n" "tests/host" $NEED_CFLAGS -std=gnu11 -pthread -O2 -g \
	-I../../kernel/include/uapi -I../../utils "$USER_CPPFLAGS"

# ---- a copy of utils built as a distribution builds it ----
# The copy's neighbours are the tree's, read only.
mkdir -p "$tmp/top/utils"
cp "$top"/utils/*.c "$top"/utils/*.h "$top"/utils/Makefile "$top"/utils/liblkst.map \
	"$tmp/top/utils/"
# lkbuf's Perfetto messages are made from this at build time.
mkdir -p "$tmp/top/utils/perfetto"
cp "$top"/utils/perfetto/*.proto "$tmp/top/utils/perfetto/"
for d in kernel handlers tools; do ln -s "$top/$d" "$tmp/top/$d"; done
if make -C "$tmp/top/utils" -j2 CFLAGS="$USER_CFLAGS" lkbuf >"$tmp/build.log" 2>&1; then
	ok
else
	fail "make CFLAGS='$USER_CFLAGS' lkbuf in a copy of utils:"
	tail -n 20 "$tmp/build.log" | sed 's/^/    | /'
fi
if grep -q "warning:" "$tmp/build.log"; then
	fail "warnings building with CFLAGS='$USER_CFLAGS': $(grep -m 3 "warning:" "$tmp/build.log")"
else
	ok
fi

python3 "$here/make_log.py" "$tmp/good.lkst" good
env TZ=UTC "$bin/lkbuf" print -f "$tmp/good.lkst" >"$tmp/want" 2>"$tmp/want.err"
env TZ=UTC "$tmp/top/utils/lkbuf" print -f "$tmp/good.lkst" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && cmp -s "$tmp/out" "$tmp/want" && cmp -s "$tmp/err" "$tmp/want.err" &&
   grep -q 'return_value=-14(EFAULT)$' "$tmp/out" &&
   grep -q '^lkbuf: cpu1: 5 records overwritten$' "$tmp/err" &&
   grep -q '^lkbuf: cpu0: 2 events dropped$' "$tmp/err"; then
	ok
else
	fail "lkbuf built with CFLAGS='$USER_CFLAGS': print exit $rc (want 0); stdout:"
	diff "$tmp/want" "$tmp/out" | head -10 | sed 's/^/    | /'
	echo "  stderr:"
	diff "$tmp/want.err" "$tmp/err" | head -10 | sed 's/^/    | /'
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
