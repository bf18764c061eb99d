#!/bin/sh
# lkbuf report under UBSan: the report tables' code (lkst_report.c,
# lkbuf_report.c and the lkm agg formatter it prints with, lkm_agg.c)
# compiled with -fsanitize=undefined and linked with the rest of the
# normal build's lkbuf objects, then run on logs and selections that
# leave every section, or some, empty: no runtime error (an empty
# table's NULL entries must never reach memcpy or qsort).
# Usage: test_ubsan.sh UTILS_DIR (built: make -C utils lkbuf gen_log).
# Ends with "N passed, M failed"; without a compiler that has UBSan, says
# so and counts nothing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${1:-.}" && pwd)
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d /tmp/lkst_test_ubsan.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset MAKEFLAGS MFLAGS

SAN='-fsanitize=undefined -fno-sanitize-recover=all'
cc=
for c in clang "${CC:-cc}"; do
	if echo 'int main(void){return 0;}' | $c -x c $SAN -o "$tmp/t" - 2>/dev/null; then
		cc=$c
		break
	fi
done
if [ -z "$cc" ]; then
	echo "test_ubsan.sh: no compiler with -fsanitize=undefined; nothing checked"
	echo "0 passed, 0 failed"
	exit 0
fi

# The normal link of lkbuf (make prints it), with the three objects swapped.
link=$(make -s -B -n -C "$dir" lkbuf | tail -n 1)
case $link in *" -o lkbuf "*) ;; *)
	fail "cannot find lkbuf's link command in make -n: $link"
	echo "$passed passed, $failed failed"
	exit 1 ;;
esac
built=1
for f in lkst_report lkbuf_report lkm_agg; do
	(cd "$dir" && $cc -I../kernel/include/uapi -I../handlers -I. -D_GNU_SOURCE -O1 -g $SAN \
		-c -o "$tmp/$f.o" $f.c) || built=0
	link=$(printf '%s\n' "$link" | sed "s| $f\.o | $tmp/$f.o |")
done
link=$(printf '%s\n' "$link" | sed "s|^[^ ]* |$cc $SAN |; s| -Werror | |; s| -o lkbuf | -o $tmp/lkbuf |")
if [ $built = 1 ] && (cd "$dir" && eval "$link"); then ok; else
	fail "cannot build lkbuf with UBSan: $link"
	echo "$passed passed, $failed failed"
	exit 1
fi

"$dir/gen_log" "$tmp/a.log" 2000 2 1 >/dev/null
python3 "$here/make_log.py" "$tmp/v1.log" good
python3 "$here/make_log.py" "$tmp/err.log" errors
# run DESCRIPTION ARGS...: lkbuf report ARGS exits 0 with no runtime error.
run() {
	what=$1
	shift
	if "$tmp/lkbuf" report "$@" >"$tmp/out" 2>"$tmp/err" &&
	   ! grep -q 'runtime error' "$tmp/err"; then ok; else
		fail "report $what: $(head -3 "$tmp/err")"
	fi
}
run "of a generated log" -f "$tmp/a.log"
run "as CSV" -C -f "$tmp/a.log"
run "with empty sections" -f "$tmp/v1.log"
run "of errors" -f "$tmp/err.log"
run "with every section empty but one event" -f "$tmp/a.log" -c 1 -e PROCESS_CONTEXTSWITCH
run "with every section empty, CSV" -C -f "$tmp/a.log" -c 1 -e PROCESS_CONTEXTSWITCH
run "of no record at all" -f "$tmp/a.log" -t 0,0
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
