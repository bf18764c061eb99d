# Sourced (not run) by the host tests of lkm's and lkbuf's device verbs
# against fake_lkst.so, an LD_PRELOAD stand-in for /dev/lkst (test_dev.sh,
# test_bootid.sh).  Set test_name first; the test's $1 is the directory
# with lkm, lkbuf and fake_lkst.so.  Gives bin, here (tests/host), tmp
# (removed at exit), lkm, lkbuf; check DESCRIPTION COMMAND-STRING (the
# string runs in sh -c, its output in $tmp/out and $tmp/err); fake
# COMMAND... (one command on the fake device, its state in $tmp/state);
# and report, the test's last line (the counts; fails if any check did).
bin=$(cd "${1:-.}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "/tmp/lkst_test_${test_name:?}.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
lkm="$bin/lkm"
lkbuf="$bin/lkbuf"
passed=0
failed=0

check() {	# check DESCRIPTION COMMAND-STRING
	if sh -c "$2" >"$tmp/out" 2>"$tmp/err"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $1: $(cat "$tmp/out" "$tmp/err")" >&2
	fi
}

fake() { LD_PRELOAD="$bin/fake_lkst.so" FAKE_LKST_STATE="$tmp/state" "$@"; }

report() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
