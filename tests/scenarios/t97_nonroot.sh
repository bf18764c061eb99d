# An unprivileged process gets nothing from /dev/lkst: no open, no ioctl on
# an fd root passed down, and lkm and lkbuf run as uid 65534 stop with one
# line on stderr and exit 2.  None of it changes the tracer.
. /scenarios/common.inc

failures=0
# The node as the kernel made it; put back however the script ends.
node_mode=$(stat -c %a /dev/lkst)
trap 'chmod "$node_mode" /dev/lkst' EXIT

layout() {
	lkm list && lkbuf list | sed -e 's/; written.*//' -e 's/ \[current.*//'
}
layout >layout_before.txt || { echo "FAIL: lkm/lkbuf list as root"; exit 1; }

echo "== lkst_nonroot"
lkst_nonroot || failures=$((failures + $?))

# as_nobody CMD...: CMD run as uid 65534 must exit 2 with exactly one line
# on stderr and nothing on stdout.
as_nobody() {
	lkst_nonroot --exec "$@" >/tmp/nobody.out 2>/tmp/nobody.err </tmp/maskset.txt
	rc=$?
	lines=$(wc -l </tmp/nobody.err)
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s /tmp/nobody.out ]; then
		echo "ok   uid 65534 ($mode): $* -> 2: $(cat /tmp/nobody.err)"
	else
		echo "FAIL uid 65534 ($mode): $* -> exit $rc, $lines stderr lines, $(wc -c </tmp/nobody.out) bytes on stdout:"
		cat /tmp/nobody.err
		failures=$((failures + 1))
	fi
}

lkm read -m 1 >/tmp/maskset.txt || { echo "FAIL: lkm read as root"; exit 1; }
echo "== the utilities as uid 65534"
for mode in 600 666; do
	step chmod "$mode" /dev/lkst
	as_nobody lkm list
	as_nobody lkm read -m 1
	as_nobody lkm write -m 9 -N nobody
	as_nobody lkm config -m 1 USER_MARK default
	as_nobody lkm set -m 0
	as_nobody lkm delete -m 3
	as_nobody lkm handlers
	as_nobody lkm stat
	as_nobody lkm stat --reset
	as_nobody lkbuf list
	as_nobody lkbuf read -f /tmp/nobody.log
	as_nobody lkbuf record -o /tmp/nobody-rec
	as_nobody lkbuf create -c 0 -s 8K
	as_nobody lkbuf link -c 0 -b 0 --next none
	as_nobody lkbuf jump -c 0 -b 0
	as_nobody lkbuf delete -c 0 -b 1
	as_nobody lkbuf resize -s 8K
	as_nobody lkbuf mode -a stop
	as_nobody lkbuf mark from nobody
	if [ -e /tmp/nobody.log ]; then
		echo "FAIL lkbuf read as uid 65534 left /tmp/nobody.log"
		failures=$((failures + 1))
	fi
done
chmod "$node_mode" /dev/lkst

layout >layout_after.txt || { echo "FAIL: lkm/lkbuf list as root"; exit 1; }
if cmp -s layout_before.txt layout_after.txt; then
	echo "ok   masksets and buffers as they were"
else
	echo "FAIL masksets or buffers changed:"
	diff layout_before.txt layout_after.txt
	failures=$((failures + 1))
fi
echo "$failures failures"
[ "$failures" -eq 0 ]
