#!/bin/sh
# Device verbs of lkm and lkbuf against fake_lkst.so (an LD_PRELOAD
# stand-in for /dev/lkst), checking output and errno messages.
# Usage: test_dev.sh DIR-WITH-lkm-lkbuf-AND-fake_lkst.so
bin=$(cd "${1:-.}" && pwd)
tmp=$(mktemp -d /tmp/lkst_test_dev.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export LD_PRELOAD="$bin/fake_lkst.so" FAKE_LKST_STATE="$tmp/state"
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

check "list shows system masksets" "'$lkm' list | grep -q '^1   rdefault  *system  *2\$'"
check "read | write copies maskset 0" "'$lkm' read -m 0 | '$lkm' write -m 3"
check "copy has the same entries" \
	"'$lkm' read -m 0 | grep '^0x' >'$tmp/a'; '$lkm' read -m 3 | grep '^0x' >'$tmp/b'; cmp '$tmp/a' '$tmp/b'"
check "a copy of a system maskset gets its own name" "'$lkm' list | grep -q '^3   maskset3  *-  *0\$'"
check "write -n names it" "'$lkm' read -m 1 | '$lkm' write -m 4 -n mine && '$lkm' list | grep -q '^4   mine  *-  *2\$'"
check "config by number and name" "'$lkm' config -m 3 1 1 PROCESS_WAKEUP counter"
check "config took effect" "'$lkm' read -m 3 | grep -q '^0x02 PROCESS_WAKEUP 7 counter\$'"
check "write of edited text" "'$lkm' read -m 3 | sed 's/^0x01 .*/0x01 PROCESS_CONTEXTSWITCH 255 nothing/' | '$lkm' write -m 3 && '$lkm' read -m 3 | grep -q '^0x01 PROCESS_CONTEXTSWITCH 255 nothing'"
check "handlers" "'$lkm' handlers | grep -q '^7   counter  *lkst_counter\$'"
check "EROFS message" "! '$lkm' config -m 0 1 1 && grep -q 'read-only system maskset; copy it to a user maskset' '$tmp/err'"
check "EROFS on write" "'$lkm' read -m 0 | '$lkm' write -m 1; [ \$? -eq 2 ]"
check "ENOENT message" "! '$lkm' read -m 9 && grep -q 'maskset 9 does not exist; create it with lkm write' '$tmp/err'"
check "set" "'$lkm' set -m 3 && '$lkm' list | grep -q '^3 .*active'"
check "EBUSY message" "! '$lkm' delete -m 3 && grep -q 'maskset 3 is active; switch to another maskset first' '$tmp/err'"
check "delete" "'$lkm' set -m 0 && '$lkm' delete -m 3 && ! '$lkm' read -m 3"
check "parse error names line" "printf '0x01 1\nBAD 1\n' | '$lkm' write -m 5; [ \$? -eq 1 ] && grep -q 'line 2: unknown event' '$tmp/err'"

check "lkbuf list" "'$lkbuf' list | grep -q 'block 0: size 8192, 128 slots, next 1 \[current: 2/128 filled\]'"
check "create prints ID" "[ \"\$('$lkbuf' create -c 0 -s 8K)\" = 1 ]"
check "link" "'$lkbuf' link -c 0 -b 1 -n none && '$lkbuf' list | grep -q 'block 1: size 8192, 128 slots, next wrap'"
check "delete busy" "! '$lkbuf' delete -c 0 -b 0 && grep -q 'being written' '$tmp/err'"
check "delete" "'$lkbuf' delete -c 0 -b 1 && ! '$lkbuf' list | grep -q 'size 8192, 128 slots, next wrap'"
check "jump ENOENT" "! '$lkbuf' jump -c 1 -b 5 && grep -q 'block 5 does not exist on cpu 1' '$tmp/err'"
check "read saves" "'$lkbuf' read -f '$tmp/log' && grep -q 'saved 5 records of 2 CPUs' '$tmp/err' && [ ! -e '$tmp/log.tmp' ]"
check "print merges" "'$lkbuf' print -f '$tmp/log' | cut -d' ' -f1 | tr '\n' ' ' | grep -q '^1000 1001 2000 2001 3000 \$'"
check "print reports overwritten" "'$lkbuf' print -f '$tmp/log' >/dev/null && grep -q 'cpu1: 4 records overwritten' '$tmp/err'"
check "read one cpu" "'$lkbuf' read -f '$tmp/log1' -c 1 && [ \$('$lkbuf' print -f '$tmp/log1' -C | wc -l) -eq 3 ]"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
