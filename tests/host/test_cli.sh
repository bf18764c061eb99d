#!/bin/sh
# Command-line tests of lkm and lkbuf on the host: bad arguments and bad
# files fail with exit 1 and one line on stderr, device verbs fail with
# exit 2 when /dev/lkst is missing, and print works on a generated log.
# Usage: test_cli.sh DIR-WITH-lkm-AND-lkbuf
bin=${1:-.}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/lkst_test_cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# expect_fail CODE CMD...: exits CODE with exactly one "prog: " line on stderr.
expect_fail() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	lines=$(wc -l <"$tmp/err")
	prog=$(basename "$1")
	if [ "$rc" -eq "$want" ] && [ "$lines" -eq 1 ] &&
	   grep -q "^$prog: .*; " "$tmp/err"; then
		pass
	else
		fail "$* -> exit $rc, want $want; stderr: $(cat "$tmp/err")"
	fi
}

# expect_out CMD... : exits 0; stdout compared with $tmp/want.
expect_out() {
	if "$@" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$tmp/want"; then
		pass
	else
		fail "$*: output differs:"
		diff "$tmp/want" "$tmp/out" >&2
	fi
}

lkm="$bin/lkm"
lkbuf="$bin/lkbuf"

# ---- bad usage: exit 1 ----
expect_fail 1 "$lkm"
expect_fail 1 "$lkm" frobnicate
expect_fail 1 "$lkm" read
expect_fail 1 "$lkm" read -m 99
expect_fail 1 "$lkm" read -m abc
expect_fail 1 "$lkm" read -m -1
expect_fail 1 "$lkm" read -m 3 extra
expect_fail 1 "$lkm" read --bogus
# Short letters that would clash with the shared -r -n -t -c are long only.
expect_fail 1 "$lkbuf" record -o "$tmp/rec" -r 1M
expect_fail 1 "$lkbuf" create -c 0 -s 4K -n 1
expect_fail 1 "$lkbuf" link -c 0 -b 0 -n none
expect_fail 1 "$lkm" filter -m 3 SYSCALL_ENTRY 'pid == 1' -t default
expect_fail 1 "$lkm" filter -c
expect_fail 1 "$lkm" probe add -r p1 vfs_read
expect_fail 1 "$lkm" agg set -m 3 -F count -r SYSCALL_ENTRY
expect_fail 1 "$lkm" write -m 32
expect_fail 1 "$lkm" write -m 3 -N 'bad"name'
expect_fail 1 "$lkm" write -m 3 -f "$tmp/nonexistent"
expect_fail 1 "$lkm" config -m 3 NO_SUCH_EVENT default
expect_fail 1 "$lkm" config -m 3 0x99 default
expect_fail 1 "$lkm" config -m 3 1
expect_fail 1 "$lkm" config -m 3
expect_fail 1 "$lkm" config 1 1
expect_fail 1 "$lkm" set
expect_fail 1 "$lkm" delete -m 0x20
expect_fail 1 "$lkm" events extra
expect_fail 1 "$lkbuf"
expect_fail 1 "$lkbuf" frobnicate
expect_fail 1 "$lkbuf" print
expect_fail 1 "$lkbuf" print -f "$tmp/nonexistent"
expect_fail 1 "$lkbuf" read
expect_fail 1 "$lkbuf" create -s 4K
expect_fail 1 "$lkbuf" create -c 0
expect_fail 1 "$lkbuf" create -c 0 -s 1K
expect_fail 1 "$lkbuf" create -c 0 -s 1G
expect_fail 1 "$lkbuf" create -c 0 -s 4K --next 64
expect_fail 1 "$lkbuf" link -c 0 -b 1
expect_fail 1 "$lkbuf" jump -c 0 -b 64
expect_fail 1 "$lkbuf" delete -c x -b 0
expect_fail 1 "$lkbuf" delete -c 0 -b 0 -n 1

# ---- bad files: exit 1 ----
: >"$tmp/empty"
expect_fail 1 "$lkbuf" print -f "$tmp/empty"
head -c 5000 /dev/urandom >"$tmp/garbage"
expect_fail 1 "$lkbuf" print -f "$tmp/garbage"
printf 'LKSTLOG\n' >"$tmp/short"
expect_fail 1 "$lkbuf" print -f "$tmp/short"
expect_fail 1 "$lkbuf" print -f "$tmp"

# ---- device verbs without /dev/lkst: exit 2 ----
if [ ! -e /dev/lkst ]; then
	expect_fail 2 "$lkm" list
	expect_fail 2 "$lkm" read -m 0
	expect_fail 2 "$lkm" write -m 3
	expect_fail 2 "$lkm" config -m 3 PROCESS_WAKEUP default
	expect_fail 2 "$lkm" set -m 3
	expect_fail 2 "$lkm" delete -m 3
	expect_fail 2 "$lkm" handlers
	expect_fail 2 "$lkbuf" list
	expect_fail 2 "$lkbuf" read -f "$tmp/saved"
	expect_fail 2 "$lkbuf" create -c 0 -s 64K
	expect_fail 2 "$lkbuf" link -c 0 -b 0 --next none
	expect_fail 2 "$lkbuf" delete -c 0 -b 1
	expect_fail 2 "$lkbuf" jump -c 0 -b 1
	if grep -q "CONFIG_LKST=y" "$tmp/err"; then pass; else fail "no CONFIG_LKST hint"; fi
fi

# ---- help and events: exit 0 ----
for cmd in "$lkm --help" "$lkm read --help" "$lkm write --help" \
	   "$lkbuf --help" "$lkbuf print --help" "$lkbuf create --help"; do
	if $cmd >"$tmp/out" 2>&1 && grep -q "Exit codes: 0 success, 1 bad usage, input or output (a path, a full disk), 2 device or kernel error" "$tmp/out"; then
		pass
	else
		fail "$cmd: no exit codes in help"
	fi
done
if "$lkm" events >"$tmp/out" && grep -q '^0x02 process   PROCESS_WAKEUP' "$tmp/out" &&
   grep -q 'arg1 pid    target pid' "$tmp/out"; then
	pass
else
	fail "lkm events"
fi

# ---- print a generated log ----
if ! command -v python3 >/dev/null; then
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi
python3 "$here/make_log.py" "$tmp/good.lkst" good
python3 "$here/make_log.py" "$tmp/swapped.lkst" swapped
python3 "$here/make_log.py" "$tmp/cut.lkst" cut
python3 "$here/make_log.py" "$tmp/ctx.lkst" badcontext

expect_fail 1 "$lkbuf" print -f "$tmp/swapped.lkst"
grep -q "other byte order" "$tmp/err" && pass || fail "swapped: $(cat "$tmp/err")"
expect_fail 1 "$lkbuf" print -f "$tmp/cut.lkst"
grep -q "truncated: expected 2 records for cpu 1, found 1" "$tmp/err" && pass ||
	fail "cut: $(cat "$tmp/err")"
expect_fail 1 "$lkbuf" print -f "$tmp/ctx.lkst"

# The default text: time of day from the header's anchor (0 and 0 here).
cat >"$tmp/want" <<'END'
00:00:00.000001  #1  0  ?  !SYSCALL_EXIT syscall_number=write return_value=-14(EFAULT)
00:00:00.000002  #0  10  ?  SYSCALL_EXIT syscall_number=read return_value=5
00:00:00.000002  #1  20  ?  UNKNOWN_0x99 arg1=0x1 arg2=0x0 arg3=0x0 arg4=0x0 arg5=0x0 arg6=0x0
00:00:00.000003  #0  11  ?  SYSCALL_EXIT syscall_number=open return_value=0
END
expect_out env TZ=UTC "$lkbuf" print -f "$tmp/good.lkst"
if grep -q "^lkbuf: cpu1: 5 records overwritten$" "$tmp/err" &&
   grep -q "^lkbuf: cpu0: 2 events dropped$" "$tmp/err" &&
   grep -q "^lkbuf: printed 4 records of 2 CPUs$" "$tmp/err"; then
	pass
else
	fail "print summary: $(cat "$tmp/err")"
fi

cat >"$tmp/want" <<'END'
time,cpu,pid,context,event,id,arg1_desc,arg1,arg2_desc,arg2,arg3_desc,arg3,arg4_desc,arg4,arg5_desc,arg5,arg6_desc,arg6
0.000001000,1,0,irq,SYSCALL_EXIT,0x31,syscall number,0x1,return value,0xfffffffffffffff2,,,,,,,,
0.000002000,0,10,task,SYSCALL_EXIT,0x31,syscall number,0x0,return value,0x5,,,,,,,,
0.000002000,1,20,softirq,UNKNOWN_0x99,0x99,,0x1,,0x0,,0x0,,0x0,,0x0,,0x0
0.000003000,0,11,task,SYSCALL_EXIT,0x31,syscall number,0x2,return value,0x0,,,,,,,,
END
expect_out "$lkbuf" print -f "$tmp/good.lkst" -C -S -V -r

# -S without -C: the text with the trace clock's seconds.
cat >"$tmp/want" <<'END'
0.000001000 cpu=1 pid=0 ctx=irq !SYSCALL_EXIT syscall_number=write return_value=-14(EFAULT)
0.000002000 cpu=0 pid=10 ctx=task SYSCALL_EXIT syscall_number=read return_value=5
0.000002000 cpu=1 pid=20 ctx=softirq UNKNOWN_0x99 arg1=0x1 arg2=0x0 arg3=0x0 arg4=0x0 arg5=0x0 arg6=0x0
0.000003000 cpu=0 pid=11 ctx=task SYSCALL_EXIT syscall_number=open return_value=0
END
expect_out "$lkbuf" print -S -f "$tmp/good.lkst"
# A CPU filter naming no CPU of the log is an error that says which it has
# (print, report and convert alike), not an empty success.
for v in print report "convert --to json -o $tmp/c.json"; do
	# shellcheck disable=SC2086
	expect_fail 1 "$lkbuf" $v -f "$tmp/good.lkst" -c 999
	grep -q "the log has no CPU of the CPU filter '999'; it has CPUs 0,1" "$tmp/err" && pass ||
		fail "$v -c 999: $(cat "$tmp/err")"
done
"$lkbuf" print -f "$tmp/good.lkst" -c 1,999 -C >"$tmp/out" 2>"$tmp/err" &&
	[ "$(wc -l <"$tmp/out")" -eq 3 ] && pass || fail "print -c 1,999: $(cat "$tmp/err")"

# What lkst_errpath writes: errors marked with '!' and errno names in the
# text, numbers only in CSV.
python3 "$here/make_log.py" "$tmp/errors.lkst" errors
cat >"$tmp/want" <<'END'
0.000001000 cpu=0 pid=30 ctx=task !SYSCALL_ERROR syscall_number=open return_value=-2(ENOENT) duration_ns=4200 arg0=0x47c06a arg1=0x0(O_RDONLY) arg2=0x0
0.000002000 cpu=0 pid=30 ctx=task !SYSCALL_ERROR syscall_number=ia32:read return_value=-9(EBADF) duration_ns=18446744073709551615 arg0=0x0 arg1=0x0 arg2=0x0
0.000003000 cpu=0 pid=31 ctx=task !EXCEPTION_FAULT_SIGNAL address=0x7f0000000123 error_code=0x4 ip=0x401b10 signal=11 si_code=1
0.000004000 cpu=0 pid=30 ctx=task SYSCALL_EXIT syscall_number=-1 return_value=-4(EINTR)
END
expect_out "$lkbuf" print -S -f "$tmp/errors.lkst"
cat >"$tmp/want" <<'END'
time,cpu,pid,context,event,id,arg1,arg2,arg3,arg4,arg5,arg6
1000,0,30,task,SYSCALL_ERROR,0x33,2,-2,4200,0x47c06a,0x0,0x0
2000,0,30,task,SYSCALL_ERROR,0x33,ia32:3,-9,18446744073709551615,0x0,0x0,0x0
3000,0,31,task,EXCEPTION_FAULT_SIGNAL,0x26,0x7f0000000123,0x4,0x401b10,11,1,
4000,0,30,task,SYSCALL_EXIT,0x31,-1,-4,,,,
END
expect_out "$lkbuf" print -C -f "$tmp/errors.lkst"

# ---- --help and --version, everywhere ----
# Every verb takes --version (as it takes --help): the same line as the
# tool's, which names the release; help --help is the list of verbs.
"$lkbuf" --version >"$tmp/want" 2>&1
expect_out "$lkbuf" print --version
expect_out "$lkbuf" list --version
"$lkm" --version >"$tmp/want" 2>&1
expect_out "$lkm" read --version
expect_out "$lkm" agg set --version
for t in "$lkbuf" "$lkm"; do
	if "$t" help --help >"$tmp/out" 2>"$tmp/err" && grep -q '^Verbs:' "$tmp/out" &&
	   [ ! -s "$tmp/err" ]; then pass; else
		fail "$t help --help: $(cat "$tmp/out" "$tmp/err")"
	fi
done
# convert's three formats, perfetto among them, in lkbuf --help.
"$lkbuf" --help | grep -q '^  convert .*--to ctf|json|perfetto' && pass ||
	fail "lkbuf --help does not name convert's perfetto"

# ---- info: the header and the counts, no records ----
cat >"$tmp/want" <<'END'
file      GOOD
format    version 1, 64-byte records
layout    time_ns:u64 pid:u32 event:u16 context:u8 flags:u8 arg:u64[6]
host      host
kernel    6.12.0
boot      afe1da6d-2179-8c37-908a-3e952e6b22e5 (not saved: derived from the host and clock anchor)
tracer    lkst ABI 1, 256 event IDs
source    not said (log format before version 3)
events    NR_EVENTS, this lkbuf's built-in table (the log has none)
tasks     no names saved (log format before version 3)
clock     CLOCK_MONOTONIC
anchor    trace time 0.000000000 was 1970-01-01 00:00:00.000000000 UTC
cpu 0     2 records; kernel counters: written 2, overwritten 0, dropped 2
cpu 1     2 records; kernel counters: written 2, overwritten 5, dropped 0
total     4 records of 2 CPUs
END
# As many as events.def defines: the count is not written down twice.
nr_events=$(grep -c '^LKST_EVENT(' "$here/../../kernel/kernel/lkst/events.def")
sed -i "s/NR_EVENTS/$nr_events/" "$tmp/want"
sed -i "s|GOOD|$tmp/good.lkst|" "$tmp/want"
expect_out "$lkbuf" info -f "$tmp/good.lkst"
expect_fail 1 "$lkbuf" info
expect_fail 1 "$lkbuf" info -f "$tmp/cut.lkst"
# A crafted log's host name and kernel release reach the terminal escaped,
# as print escapes names: in info, in sql's summary, and in the message
# refusing two files of different hosts as one trace.
python3 "$here/make_log.py" "$tmp/esc.lkst" escapes
no_ctl() { ! LC_ALL=C grep -q '[[:cntrl:]]' "$1"; }
if "$lkbuf" info -f "$tmp/esc.lkst" >"$tmp/out" 2>"$tmp/err" && no_ctl "$tmp/out" &&
   grep -qxF 'host      h\x1b[31mred\x07' "$tmp/out" &&
   grep -qxF 'kernel    6\x1b]0;title\x07\x5c' "$tmp/out"; then pass; else
	fail "info of a log with escapes: $(cat -v "$tmp/out" "$tmp/err")"
fi
if "$lkbuf" sql -f "$tmp/esc.lkst" -o "$tmp/esc.db" >"$tmp/out" 2>"$tmp/err" &&
   no_ctl "$tmp/out" && grep -qF '(host h\x1b[31mred\x07, boot ' "$tmp/out"; then pass; else
	fail "sql of a log with escapes: $(cat -v "$tmp/out" "$tmp/err")"
fi
"$bin/gen_log" "$tmp/h1.log" 10 1 1 >/dev/null && "$bin/gen_log" "$tmp/h2.log" 10 1 2 >/dev/null &&
python3 -c "import sys; f = open(sys.argv[1], 'r+b'); f.seek(152); f.write(b'e\x1b[2Jvil\0')" "$tmp/h2.log"
# The log's own event table too: an argument's description with an
# escape sequence, shown by print as a key (text) and a header (-V -C).
python3 - "$tmp/h1.log" "$tmp/desc.log" <<'EOF'
import sys
d = open(sys.argv[1], "rb").read()
i = d.find(b"prev pid\0")
assert i > 0
open(sys.argv[2], "wb").write(d[:i] + b"p\x1b[31mXd\0" + d[i + 9:])
EOF
for opt in -S -VC; do
	if "$lkbuf" print $opt -f "$tmp/desc.log" >"$tmp/out" 2>"$tmp/err" && no_ctl "$tmp/out" &&
	   grep -qF 'p\x1b[31mXd' "$tmp/out"; then pass; else
		fail "print $opt of a log whose event table has escapes: $(cat -v "$tmp/out" | head -3)"
	fi
done
"$lkbuf" print -f "$tmp/h1.log" -f "$tmp/h2.log" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && no_ctl "$tmp/err" && grep -qF 'of host e\x1b[2Jvil, kernel ' "$tmp/err"; then pass; else
	fail "two hosts' files as one: $(cat -v "$tmp/err")"
fi
if [ -w /dev/full ]; then
	"$lkbuf" info -f "$tmp/good.lkst" >/dev/full 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "^lkbuf: cannot write the description: " "$tmp/err"; then
		pass
	else
		fail "lkbuf info >/dev/full -> exit $rc: $(cat "$tmp/err")"
	fi
	# Every verb finds out that its output was lost: help, --version and
	# the verbs that print, device or not; in one line, with the error
	# the write got (not one left in errno by an earlier call).
	for cmd in "$lkm --help" "$lkm --version" "$lkm help config" "$lkm events" \
		   "$lkbuf --help" "$lkbuf help print" "$lkbuf print -f $tmp/good.lkst" \
		   "$lkbuf print -C -f $tmp/good.lkst" "$lkbuf report -f $tmp/good.lkst" \
		   "$lkbuf info -f $tmp/good.lkst" "$lkbuf print --version"; do
		$cmd >/dev/full 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 1 ] && grep -q "cannot write the.*: No space left on device" "$tmp/err" &&
		   [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
			pass
		else
			fail "$cmd >/dev/full -> exit $rc: $(cat "$tmp/err")"
		fi
	done
	for f in json perfetto; do
		"$lkbuf" convert -f "$tmp/good.lkst" --to $f -o - >/dev/full 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 1 ] && grep -q "No space left on device" "$tmp/err" &&
		   [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
			pass
		else
			fail "convert --to $f -o - >/dev/full -> exit $rc: $(cat "$tmp/err")"
		fi
	done
fi

# Endless input that is not a log is refused at its first bytes, in
# bounded memory (a 256 MiB address-space limit).
for input in "-f /dev/zero" "-f /dev/stdin"; do
	# shellcheck disable=SC2086
	(ulimit -v 262144; yes | timeout 20 "$lkbuf" print $input >/dev/null 2>"$tmp/err")
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "bad magic" "$tmp/err"; then
		pass
	else
		fail "lkbuf print $input (endless) -> exit $rc: $(cat "$tmp/err")"
	fi
done

# A log that cannot be mapped (a pipe) reads as the file does.
for flags in "" "-C"; do
	# shellcheck disable=SC2086
	"$lkbuf" print $flags -f "$tmp/good.lkst" >"$tmp/want" 2>&1
	# A pipe, not a redirection (that would be a regular file, mapped).
	# shellcheck disable=SC2002,SC2086
	cat "$tmp/good.lkst" | "$lkbuf" print $flags -f /dev/stdin >"$tmp/out" 2>&1
	if cmp -s "$tmp/want" "$tmp/out"; then
		pass
	else
		fail "lkbuf print $flags -f /dev/stdin differs from the file"
	fi
done

if [ -x "$bin/gen_log" ]; then
	# A whole log followed by endless zeros: refused soon after its end,
	# in bounded memory.
	"$bin/gen_log" "$tmp/empty1.lkst" 0 1
	# shellcheck disable=SC3045
	(ulimit -v 262144; cat "$tmp/empty1.lkst" /dev/zero |
		timeout 20 "$lkbuf" print -f /dev/stdin >/dev/null 2>"$tmp/err")
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "after the last CPU section, and no end" "$tmp/err"; then
		pass
	else
		fail "lkbuf print of a log then endless zeros -> exit $rc: $(cat "$tmp/err")"
	fi

	# A mapped log cut short while it is printed: a message, not SIGBUS.
	if command -v truncate >/dev/null && mkfifo "$tmp/fifo" 2>/dev/null; then
		"$bin/gen_log" "$tmp/shrinks.lkst" 40000 1
		"$lkbuf" print -C -f "$tmp/shrinks.lkst" >"$tmp/fifo" 2>"$tmp/err" &
		pid=$!
		exec 3<"$tmp/fifo"
		head -c 1000 <&3 >/dev/null
		truncate -s 8192 "$tmp/shrinks.lkst"
		cat <&3 >/dev/null
		exec 3<&-
		wait "$pid"
		rc=$?
		if [ "$rc" -eq 1 ] && grep -q "shrinks.lkst: the file cannot be read any more" "$tmp/err"; then
			pass
		else
			fail "lkbuf print of a log cut short meanwhile -> exit $rc: $(cat "$tmp/err")"
		fi
	fi
fi

# ---- print filters ----
printf '0.000002000 cpu=0 pid=10 ctx=task SYSCALL_EXIT syscall_number=read return_value=5\n' >"$tmp/want"
expect_out "$lkbuf" print -S -f "$tmp/good.lkst" -p 10,99
expect_out "$lkbuf" print -S -f "$tmp/good.lkst" -t 0.0000015,0.0000025 -e syscall
expect_out "$lkbuf" print -S -f "$tmp/good.lkst" -e SYSCALL_EXIT,0x30 -t ,0.000002 -p 10
printf '0.000003000 cpu=0 pid=11 ctx=task SYSCALL_EXIT syscall_number=open return_value=0\n' >"$tmp/want"
expect_out "$lkbuf" print -S -f "$tmp/good.lkst" -t 0.000002001,
: >"$tmp/want"
expect_out "$lkbuf" print -S -f "$tmp/good.lkst" -e process
expect_out "$lkbuf" print -S -f "$tmp/good.lkst" -n bash
expect_out "$lkbuf" print -S -f "$tmp/good.lkst" -n 'ba*'
printf 'time,cpu,pid,context,event,id,arg1,arg2,arg3,arg4,arg5,arg6\n1000,1,0,irq,SYSCALL_EXIT,0x31,1,-14,,,,\n' >"$tmp/want"
expect_out "$lkbuf" print -C -f "$tmp/good.lkst" -p 0
# -c CPUS; -t as a time of day (the anchor is 0 and 0: the epoch's day).
printf '0.000002000 cpu=0 pid=10 ctx=task SYSCALL_EXIT syscall_number=read return_value=5\n' >"$tmp/want"
expect_out env TZ=UTC "$lkbuf" print -S -f "$tmp/good.lkst" -c 0 -t 00:00:00.000002,00:00:00.000002
expect_out env TZ=JST-9 "$lkbuf" print -S -f "$tmp/good.lkst" -c 0x0 -t 09:00:00.0000015,0.0000025
printf '0.000001000 cpu=1 pid=0 ctx=irq !SYSCALL_EXIT syscall_number=write return_value=-14(EFAULT)\n0.000002000 cpu=1 pid=20 ctx=softirq UNKNOWN_0x99 arg1=0x1 arg2=0x0 arg3=0x0 arg4=0x0 arg5=0x0 arg6=0x0\n' >"$tmp/want"
expect_out env TZ=UTC "$lkbuf" print -S -f "$tmp/good.lkst" -c 1,7 -t 00:00:00,
for bad in "-e NO_SUCH" "-e 0x99" "-e syscall,,process" "-e ''" "-p x" "-p 1,-2" \
	   "-p 99999999999" "-t 1" "-t 2,1" "-t a,b" "-t 1,2,3" "-t 1.1234567891," \
	   "-n aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	   "-p 1 -p 2" "-e process -e syscall" "-t 1, -t ,2" "-n a -n b" \
	   "-c x" "-c 1,,2" "-c 65536" "-c 0 -c 1" "-t 25:00:00," "-t 1:2," "-t abc," \
	   "-t 0.000003,00:00:00.000001" "-t 00:60:00," "-t 0:00:00.1234567891,"; do
	eval "expect_fail 1 \"\$lkbuf\" print -f \"\$tmp/good.lkst\" $bad"
done
if "$lkbuf" print --help | grep -q "PROCESS_WAKEUP"; then
	pass
else
	fail "print --help does not explain -p"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
