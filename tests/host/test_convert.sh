#!/bin/sh
# lkbuf convert on the host.  A crafted log with known records (every
# field type, IRQ and softirq nesting, an ia32 system call, an escaped
# mark, an unknown event, records out of time order, lost records) is
# converted to CTF, which babeltrace2 must read record for record, and to
# Chrome JSON, whose slices, flows and names are checked one by one;
# tests/check/convert.py then compares both with lkbuf print -C on it and
# on a generated log, and is shown to fail on a corrupted conversion.
# Bad input exits 1 with one line.
# Usage: test_convert.sh DIR-WITH-lkbuf-AND-gen_log
bin=$(cd "${1:-.}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
checker="$here/../check/convert.py"
tmp=$(mktemp -d /tmp/lkst_test_convert.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
lkbuf="$bin/lkbuf"

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# expect_fail CMD...: exits 1 with exactly one "lkbuf: ...; ..." line on stderr.
expect_fail() {
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	   grep -q "^lkbuf: .*; " "$tmp/err"; then
		pass
	else
		fail "$* -> exit $rc, want 1 and one line; stderr: $(cat "$tmp/err")"
	fi
}

finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

if ! command -v python3 >/dev/null || ! command -v babeltrace2 >/dev/null; then
	fail "python3 and babeltrace2 are needed: run tools/build/deps.sh (Debian packages python3 babeltrace2)"
	finish
fi

# ---- the crafted log (format: utils/lkst_log.h, version 2) ----
python3 - "$tmp/crafted.lkst" <<'EOF'
import struct
import sys

HEADER, CPU, REC = "=8sIIIIIIIIQQ96s65s65s6x", "=IIQQQQQQQ", "=QIHBB6Q"
LAYOUT = b"time_ns:u64 pid:u32 event:u16 context:u8 flags:u8 arg:u64[6]"
T0 = 1000000000                       # trace time 1 s was 2023-11-14 22:13:20 UTC
TASK, SOFTIRQ, IRQ = 0, 1, 2
IA32_20 = 1 << 32 | 20                # LKST_SYSCALL_NR_ABI(20, IA32)


def comm(name):
    return struct.unpack("=QQ", name.encode().ljust(16, b"\0"))


def rec(us, pid, event, ctx, *args):
    args = [a & (1 << 64) - 1 for a in args] + [0] * (6 - len(args))
    return struct.pack(REC, T0 + int(us * 1000), pid, event, ctx, 0, *args)


mark = struct.unpack("=6Q", b'say "hi", \\ ok\x01'.ljust(48, b"\0"))
cpu0 = [
    rec(0, 100, 0x01, TASK, 100, 101, 0x1, 120, *comm("lkw-a")),     # sh blocks, lkw-a runs
    rec(1, 101, 0x30, TASK, IA32_20, 1, 2, 3, 4, 5),                 # ia32 getpid entry
    rec(2, 101, 0x32, TASK, IA32_20, 0x66),
    rec(3, 101, 0x10, IRQ, 11, 0xffffffff81000000, 0xffff888000001000),
    rec(4, 101, 0x02, IRQ, 102, 0x1, 0, 120, *comm("lkw-b")),        # the IRQ wakes lkw-b
    rec(5, 101, 0x11, IRQ, 11, 1, 0xffffffff81000000),
    rec(6, 101, 0x16, SOFTIRQ, 3, 0xffffffff81100000),               # NET_RX
    rec(7, 101, 0x17, SOFTIRQ, 3, 0xffffffff81100000),
    rec(8, 101, 0x31, TASK, IA32_20, -14),
    rec(9, 101, 0xe0, TASK, *mark),
    rec(10, 101, 0x02, TASK, 100, 0x1, 0, 120, *comm("sh")),         # lkw-a wakes sh
    rec(11, 101, 0x01, TASK, 101, 102, 0, 120, *comm("lkw-b")),      # lkw-a preempted
    rec(13, 102, 0x99, SOFTIRQ, 1, 2, 3, 4, 5, 6),                   # stored before an earlier one
    rec(12, 102, 0x30, TASK, 0, 3, 0x7ffc0000, 4096),
    rec(14, 102, 0x31, TASK, 0, 5),
    rec(15, 102, 0x01, TASK, 102, 0, 0x80, 120, *comm("swapper/0")), # lkw-b exits
    rec(16, 0, 0x02, TASK, 300, (1 << 64) - 1, 1, 120, *comm("x\tab")), # every state bit
]
# CPU 1: 1000 records overwritten before it, 5 lost between its two, 2 after.
cpu1 = [rec(0.5, 200, 0x30, TASK, 1, 1, 0x1000, 3), rec(20, 200, 0x31, TASK, 1, 3)]


def section(cpu, recs, seqs, seq_start, seq_end, overwritten, dropped):
    lost = seq_end - seq_start - len(recs)
    return (struct.pack(CPU, cpu, 0, len(recs), seq_end, overwritten, dropped,
                        seq_start, seq_end, lost) +
            b"".join(recs) + struct.pack("=%dQ" % len(seqs), *seqs))


data = struct.pack(HEADER, b"LKSTLOG\n", 0x01020304, 2, 288, 64, 2, 1, 2, 256, T0,
                   1700000000 * 10**9, LAYOUT, b"testhost", b"6.12.0-test")
data += section(0, cpu0, list(range(17)), 0, 17, 0, 0)
data += section(1, cpu1, [1000, 1006], 1000, 1009, 1007, 3)
with open(sys.argv[1], "wb") as f:
    f.write(data)
EOF
crafted="$tmp/crafted.lkst"

# ---- CTF: babeltrace2 reads every record with its values ----
if "$lkbuf" convert -f "$crafted" --to ctf -o "$tmp/ctf" 2>"$tmp/err" &&
   [ "$(cat "$tmp/err")" = "lkbuf: converted 19 records of 2 CPUs to $tmp/ctf (CTF 1.8: 1007 records lost (overwritten before they were read) as discarded events)" ]; then
	pass
else
	fail "convert --to ctf: $(cat "$tmp/err")"
fi
babeltrace2 --clock-cycles --no-delta "$tmp/ctf" >"$tmp/bt" 2>"$tmp/bt.err"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/bt")" -eq 19 ]; then
	pass
else
	fail "babeltrace2 exit $rc, $(wc -l <"$tmp/bt") events, want 19: $(head -5 "$tmp/bt.err")"
fi
cat >"$tmp/want" <<'EOF'
[00000000001000000000] testhost PROCESS_CONTEXTSWITCH: { cpu_id = 0 }, { pid = 100, context = ( "task" : container = 0 ) }, { prev_pid = 100, next_pid = 101, prev_state = "TASK_INTERRUPTIBLE", next_prio = 120, next_comm = "lkw-a" }
[00000000001000001000] testhost SYSCALL_ENTRY: { cpu_id = 0 }, { pid = 101, context = ( "task" : container = 0 ) }, { syscall_number = 20, syscall_number_abi = ( "ia32" : container = 1 ), syscall_number_name = "getpid", arg0 = 0x1, arg1 = 0x2, arg2 = 0x3, arg3 = 0x4, arg4 = 0x5 }
[00000000001000003000] testhost INT_HARDWARE_ENTRY: { cpu_id = 0 }, { pid = 101, context = ( "irq" : container = 2 ) }, { irq = 11, handler = 0xFFFFFFFF81000000, dev_id = 0xFFFF888000001000 }
[00000000001000008000] testhost SYSCALL_EXIT: { cpu_id = 0 }, { pid = 101, context = ( "task" : container = 0 ) }, { syscall_number = 20, syscall_number_abi = ( "ia32" : container = 1 ), syscall_number_name = "getpid", return_value = -14 }
[00000000001000009000] testhost USER_MARK: { cpu_id = 0 }, { pid = 101, context = ( "task" : container = 0 ) }, { text = "say \"hi\", \\x5c ok\\x01" }
[00000000001000013000] testhost UNKNOWN_0x99: { cpu_id = 0 }, { pid = 102, context = ( "softirq" : container = 1 ) }, { arg1 = 0x1, arg2 = 0x2, arg3 = 0x3, arg4 = 0x4, arg5 = 0x5, arg6 = 0x6 }
[00000000001000015000] testhost PROCESS_CONTEXTSWITCH: { cpu_id = 0 }, { pid = 102, context = ( "task" : container = 0 ) }, { prev_pid = 102, next_pid = 0, prev_state = "TASK_DEAD", next_prio = 120, next_comm = "swapper/0" }
[00000000001000016000] testhost PROCESS_WAKEUP: { cpu_id = 0 }, { pid = 0, context = ( "task" : container = 0 ) }, { target_pid = 300, target_state = "TASK_INTERRUPTIBLE|TASK_UNINTERRUPTIBLE|__TASK_STOPPED|__TASK_TRACED|EXIT_DEAD|EXIT_ZOMBIE|TASK_PARKED|TASK_DEAD|TASK_WAKEKILL|TASK_WAKING|TASK_NOLOAD|TASK_NEW|TASK_RTLOCK_WAIT|TASK_FREEZABLE|TASK_FROZEN|0xffffffffffff4000", last_cpu = 1, target_prio = 120, target_comm = "x\\x09ab" }
[00000000001000020000] testhost SYSCALL_EXIT: { cpu_id = 1 }, { pid = 200, context = ( "task" : container = 0 ) }, { syscall_number = 1, syscall_number_abi = ( "native" : container = 0 ), syscall_number_name = "write", return_value = 3 }
EOF
while IFS= read -r line; do
	if grep -Fxq "$line" "$tmp/bt"; then pass; else fail "babeltrace2 does not show: $line"; fi
done <"$tmp/want"
# Records sorted back into time order within a CPU.
if grep -n "" "$tmp/bt" | grep -q "^14:.* SYSCALL_ENTRY: { cpu_id = 0 }, { pid = 102" &&
   grep -n "" "$tmp/bt" | grep -q "^15:.* UNKNOWN_0x99"; then
	pass
else
	fail "CPU 0 is not in time order: $(cat "$tmp/bt")"
fi
# Losses in their places: before the section, between and after its records.
for n in 1000 5 2; do
	if grep -q "WARNING: Tracer discarded $n events between .* within stream \"$tmp/ctf/cpu1\"" "$tmp/bt.err"; then
		pass
	else
		fail "babeltrace2 does not report $n discarded events on cpu1: $(cat "$tmp/bt.err")"
	fi
done
# The clock's offset makes the time of day that of the log's anchor.
if babeltrace2 --clock-gmt --clock-date --no-delta "$tmp/ctf" 2>/dev/null | head -1 |
   grep -q '^\[2023-11-14 22:13:20.000000000\] testhost PROCESS_CONTEXTSWITCH'; then
	pass
else
	fail "the first event is not at the anchor's time of day"
fi
# One event class per table event and per unknown ID seen; counters in env.
nr_events=$("$bin/lkm" events | grep -c '^0x')
if [ "$(grep -c '^event {' "$tmp/ctf/metadata")" -eq $((nr_events + 1)) ] &&
   grep -q 'name = "UNKNOWN_0x99";' "$tmp/ctf/metadata" &&
   grep -q 'cpu1_dropped = 3;' "$tmp/ctf/metadata" &&
   grep -q 'kernel_release = "6.12.0-test";' "$tmp/ctf/metadata"; then
	pass
else
	fail "metadata: $(grep -c '^event {' "$tmp/ctf/metadata") event classes, want $((nr_events + 1)), or env missing"
fi

# Converting again into the directory replaces the earlier trace, stale CPUs too.
"$bin/gen_log" "$tmp/one.lkst" 100 1
if "$lkbuf" convert -f "$tmp/one.lkst" --to ctf -o "$tmp/ctf" 2>"$tmp/err" &&
   [ ! -e "$tmp/ctf/cpu1" ] && [ "$(babeltrace2 "$tmp/ctf" 2>&1 | wc -l)" -eq 100 ]; then
	pass
else
	fail "reconverting into $tmp/ctf: $(cat "$tmp/err"); $(ls "$tmp/ctf")"
fi

# ---- Chrome JSON: tracks, slices, flows, names ----
if "$lkbuf" convert -f "$crafted" --to json -o "$tmp/trace.json" 2>"$tmp/err" &&
   grep -q "2 wakeup flows" "$tmp/err"; then
	pass
else
	fail "convert --to json: $(cat "$tmp/err")"
fi
python3 - "$tmp/trace.json" <<'EOF'
import json
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
B, CPU = 10000000, 20000000           # syscall tracks are B + tid, CPU n is 2B + n
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "thread_name"}
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}


def find(ph, name, pid, tid, ts, dur=None):
    return [e for e in ev if e["ph"] == ph and e["name"] == name and e["pid"] == pid and
            e["tid"] == tid and e["ts"] == ts and (dur is None or e["dur"] == dur)]


checks = [
    ("process and thread names", procs.get(101) == "lkw-a" and procs.get(CPU) == "CPUs (interrupts)"
     and names.get((101, 101)) == "lkw-a" and names.get((101, B + 101)) == "lkw-a syscalls"
     and names.get((200, B + 200)) == "200 syscalls" and names.get((CPU, CPU)) == "CPU 0"),
    ("lkw-a runs on CPU 0 until preempted", [e["args"] for e in find("X", "running", 101, 101, 1000000.0, 11.0)] == [{"cpu": 0}]),
    ("then waits for a CPU to the end of the trace (CPU 1, 20 us)", find("X", "ready", 101, 101, 1000011.0, 9.0)),
    ("sh blocked until woken, then ready", find("X", "blocked", 100, 100, 1000000.0, 10.0) and
     find("X", "ready", 100, 100, 1000010.0, 10.0)),
    ("lkw-b ready from the IRQ's wakeup, runs until it exits", find("X", "ready", 102, 102, 1000004.0, 7.0) and
     find("X", "running", 102, 102, 1000011.0, 4.0) and
     not [e for e in ev if e["tid"] == 102 and e["ph"] == "X" and e["ts"] > 1000011.0]),
    ("the ia32 call with its arguments and result",
     [e["args"] for e in find("X", "ia32:getpid", 101, B + 101, 1000001.0, 7.0)] ==
     [{"nr": 20, "arg0": "0x1", "arg1": "0x2", "arg2": "0x3", "arg3": "0x4", "arg4": "0x5",
       "arg5": "0x66", "return": -14}]),
    ("read by lkw-b", find("X", "read", 102, B + 102, 1000012.0, 2.0)),
    ("IRQ 11 and NET_RX on CPU 0", find("X", "irq 11", CPU, CPU, 1000003.0, 2.0) and
     find("X", "softirq NET_RX", CPU, CPU, 1000006.0, 1.0)),
    ("the mark, escaped as lkbuf print shows it",
     [e["args"]["text"] for e in find("i", 'say "hi", \\x5c ok\\x01', 101, 101, 1000009.0)] ==
     ['say "hi", \\x5c ok\\x01']),
    ("wakeup flows from the IRQ and from lkw-a",
     sorted((e["ph"], e["pid"], e["tid"], e["ts"], e["id"]) for e in ev if e["ph"] in "sf") ==
     [("f", 100, 100, 1000010.0, 2), ("f", 102, 102, 1000004.0, 1),
      ("s", 101, 101, 1000010.0, 2), ("s", CPU, CPU, 1000004.0, 1)]),
    ("no idle track", not [e for e in ev if e.get("tid") == 0]),
]
bad = [what for what, ok in checks if not ok]
for what in bad:
    print("FAIL: json:", what, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
[ $? -eq 0 ] && pass || fail "the JSON of the crafted log (above)"

# ---- the checker against lkbuf print -C ----
"$bin/gen_log" "$tmp/gen.lkst" 20000 2
# gen_log's switches name tasks no CPU runs: no running slice to look for.
for log in "$crafted lkw-" "$tmp/gen.lkst -"; do
	set -- $log
	if python3 "$checker" "$1" "$lkbuf" "$2" >"$tmp/check.out" 2>&1; then
		pass
	else
		fail "convert.py $log:"
		cat "$tmp/check.out" >&2
	fi
done

# It fails when a conversion is wrong: a name changed in a CPU stream, and
# a slice stretched over the next one.
cat >"$tmp/bad-lkbuf" <<EOF
#!/bin/sh
"$lkbuf" "\$@" || exit
case "\$*" in
*"--to ctf"*) sed -i 's/lkw-a/lkw-z/' "\$7/cpu0" ;;
*"--to json"*) sed -i '/"name":"running".*"pid":101,/s/"dur":11.000/"dur":12.000/' "\$7" ;;
esac
EOF
chmod +x "$tmp/bad-lkbuf"
python3 "$checker" "$crafted" "$tmp/bad-lkbuf" lkw- >"$tmp/check.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q "record differs" "$tmp/check.out" &&
   grep -q "overlaps" "$tmp/check.out"; then
	pass
else
	fail "convert.py passed a corrupted conversion (exit $rc): $(cat "$tmp/check.out")"
fi

# ---- losses in their places: print, CTF, JSON ----
# Version 2 sections (utils/lkst_log.h) with holes in their numbers; the
# gaps and where the exports must put them are listed with the log.
python3 - "$tmp/gaps.lkst" "$tmp/hostile.lkst" <<'EOF'
import struct
import sys

HEADER, CPU, REC = "=8sIIIIIIIIQQ96s65s65s6x", "=IIQQQQQQQ", "=QIHBB6Q"
LAYOUT = b"time_ns:u64 pid:u32 event:u16 context:u8 flags:u8 arg:u64[6]"
T0 = 1000000000


def header(nr_cpus, host, release):
    return struct.pack(HEADER, b"LKSTLOG\n", 0x01020304, 2, 288, 64, nr_cpus, 1, 2, 256, T0,
                       1700000000 * 10**9, LAYOUT, host, release)


def section(cpu, times, seqs, seq_start, seq_end, overwritten, dropped):
    recs = [struct.pack(REC, T0 + t, 300 + cpu, 0x31, 0, 0, 1, 0, 0, 0, 0, 0) for t in times]
    return (struct.pack(CPU, cpu, 0, len(recs), seq_end, overwritten, dropped, seq_start,
                        seq_end, seq_end - seq_start - len(recs)) +
            b"".join(recs) + struct.pack("=%dQ" % len(seqs), *seqs))


data = header(4, b"gaphost", b"6.12.0-test")
# cpu0: numbers 0..9 overwritten since boot before it; 12..14, 17..19, 21..24.
data += section(0, [1000, 2000, 3000, 4000, 5000], [10, 11, 15, 16, 20], 10, 25, 20, 4)
# cpu1 continues an earlier file: 100..102 at its start, 105..109.
data += section(1, [1500, 2500, 3500], [103, 104, 110], 100, 111, 0, 0)
# cpu2: no record left of its 50..55, nor of the 50 before.
data += section(2, [], [], 50, 56, 100, 0)
# cpu3: every other number, 25 gaps of one.
data += section(3, [1000 + 100 * k for k in range(26)], list(range(0, 51, 2)), 0, 51, 25, 0)
open(sys.argv[1], "wb").write(data)

# Header strings no kernel gives: quotes, backslashes, control bytes,
# UTF-8, a byte that is not UTF-8, comment marks.
data = header(1, b'h"o\\st\t\xc3\xa9*/ \x01x', b'6.1"\\\n\x7f\xff/*')
data += section(0, [1000, 2000], [0, 1], 0, 2, 0, 0)
open(sys.argv[2], "wb").write(data)
EOF
gaps="$tmp/gaps.lkst"

# lkbuf print names each gap by the records around it, the first 20 of a CPU.
cat >"$tmp/want" <<'EOF'
lkbuf: printed 34 records of 4 CPUs
lkbuf: cpu0: 3 records lost between sequence numbers 11 and 15 (overwritten before they were read)
lkbuf: cpu0: 3 records lost between sequence numbers 16 and 20 (overwritten before they were read)
lkbuf: cpu0: 4 records lost after sequence number 20 (numbers 21..24, overwritten before they were read)
lkbuf: cpu0: 20 records overwritten since boot
lkbuf: cpu0: 4 events dropped since boot
lkbuf: cpu1: 3 records lost before sequence number 103 (numbers 100..102, overwritten before they were read)
lkbuf: cpu1: 5 records lost between sequence numbers 104 and 110 (overwritten before they were read)
lkbuf: cpu2: 6 records of sequence numbers 50..55 lost, none saved (overwritten before they were read)
lkbuf: cpu2: 100 records overwritten since boot
EOF
for k in $(seq 0 19); do
	echo "lkbuf: cpu3: 1 records lost between sequence numbers $((2 * k)) and $((2 * k + 2)) (overwritten before they were read)"
done >>"$tmp/want"
echo "lkbuf: cpu3: 25 gaps in all, 25 records lost (lkbuf convert places each)" >>"$tmp/want"
echo "lkbuf: cpu3: 25 records overwritten since boot" >>"$tmp/want"
if "$lkbuf" print -f "$gaps" >/dev/null 2>"$tmp/err" && cmp -s "$tmp/err" "$tmp/want"; then
	pass
else
	fail "print's losses of $gaps differ:"
	diff "$tmp/want" "$tmp/err" >&2
fi

# CTF: babeltrace2 reports each gap with its count between the records
# around it (before the first record: at it; after the last: at it; none
# left: at the end of the log).
if "$lkbuf" convert -f "$gaps" --to ctf -o "$tmp/gctf" 2>"$tmp/err" &&
   grep -q "CTF 1.8: 109 records lost" "$tmp/err"; then
	pass
else
	fail "convert --to ctf of $gaps: $(cat "$tmp/err")"
fi
babeltrace2 --clock-gmt "$tmp/gctf" >"$tmp/bt" 2>"$tmp/bt.err"
rc=$?
sed -n 's/^WARNING: Tracer discarded \([0-9]*\) events\? between \[\([^]]*\)\] and \[\([^]]*\)\] in trace "gaphost" .* within stream "[^"]*\/\(cpu[0-9]*\)".*/\4 \1 \2 \3/p' \
	"$tmp/bt.err" | sort >"$tmp/discarded"
cat >"$tmp/want" <<'EOF'
cpu0 10 22:13:20.000001000 22:13:20.000001000
cpu0 3 22:13:20.000002000 22:13:20.000003000
cpu0 3 22:13:20.000004000 22:13:20.000005000
cpu0 4 22:13:20.000005000 22:13:20.000005000
cpu1 3 22:13:20.000001500 22:13:20.000001500
cpu1 5 22:13:20.000002500 22:13:20.000003500
cpu2 56 22:13:20.000005000 22:13:20.000005000
EOF
for k in $(seq 0 24); do
	printf 'cpu3 1 22:13:20.%09d 22:13:20.%09d\n' $((1000 + 100 * k)) $((1100 + 100 * k))
done >>"$tmp/want"
sort -o "$tmp/want" "$tmp/want"
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/bt")" -eq 34 ] && cmp -s "$tmp/discarded" "$tmp/want"; then
	pass
else
	fail "babeltrace2 (exit $rc, $(wc -l <"$tmp/bt") events of 34) reports other discarded events:"
	diff "$tmp/want" "$tmp/discarded" >&2
	head -3 "$tmp/bt.err" >&2
fi

# JSON: an instant per gap on its CPU's track, at the record after it
# (the last one after the last record), with the numbers missing; totals.
if "$lkbuf" convert -f "$gaps" --to json -o "$tmp/gaps.json" 2>"$tmp/err" &&
   grep -q "109 records lost as instants on their CPUs" "$tmp/err"; then
	pass
else
	fail "convert --to json of $gaps: $(cat "$tmp/err")"
fi
python3 - "$tmp/gaps.json" <<'EOF'
import json
import sys

trace = json.load(open(sys.argv[1]))
CPU = 20000000
got = sorted((e["tid"] - CPU, e["args"]["lost"], e["args"]["first_seq"], e["args"]["last_seq"],
              round(e["ts"] * 1000) - 1000000000, e["name"], e["pid"], e["s"])
             for e in trace["traceEvents"] if e.get("cat") == "loss")
want = [(0, 10, 0, 9, 1000), (0, 3, 12, 14, 3000), (0, 3, 17, 19, 5000), (0, 4, 21, 24, 5000),
        (1, 3, 100, 102, 1500), (1, 5, 105, 109, 3500), (2, 56, 0, 55, 5000)]
want += [(3, 1, 2 * k + 1, 2 * k + 1, 1100 + 100 * k) for k in range(25)]
want = sorted(w + ("lkst: %d records lost" % w[1], CPU, "t") for w in want)
names = {e["tid"] - CPU: e["args"]["name"] for e in trace["traceEvents"]
         if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == CPU}
other = trace["otherData"]
checks = [
    ("one loss instant per gap", got == want),
    ("the CPUs' tracks are named", all(names.get(c) == "CPU %d" % c for c in range(4))),
    ("the total", other.get("records_lost") == 109),
    ("the kernel's counters", other.get("kernel_counters", [None])[0] ==
     {"cpu": 0, "written": 25, "overwritten": 20, "dropped": 4}),
]
for what, ok in checks:
    if not ok:
        print("FAIL: json losses:", what, file=sys.stderr)
if got != want:
    print("  got ", got[:8], "\n  want", want[:8], file=sys.stderr)
sys.exit(any(not ok for _, ok in checks))
EOF
[ $? -eq 0 ] && pass || fail "the loss instants of $gaps (above)"

# ---- what the log says goes into the exports escaped ----
# Event names are letters, digits and '_' (the kernel's rule): a table
# with another byte is refused, never quoted into TSDL as it is.
"$bin/gen_log" "$tmp/badname.lkst" 100 1
python3 - "$tmp/badname.lkst" <<'EOF'
import sys

data = open(sys.argv[1], "rb").read()
assert data.count(b"PROCESS_CONTEXTSWITCH\0") == 1
open(sys.argv[1], "wb").write(data.replace(b"PROCESS_CONTEXTSWITCH\0", b'PROCESS"CONTEXTSWITCH\0'))
EOF
for cmd in "convert -f $tmp/badname.lkst --to ctf -o $tmp/badctf" \
	   "convert -f $tmp/badname.lkst --to json -o $tmp/bad.json" \
	   "print -f $tmp/badname.lkst" "info -f $tmp/badname.lkst"; do
	expect_fail "$lkbuf" $cmd
	if grep -qF "lkbuf: $tmp/badname.lkst: the log's event table: event 0x01: name \"PROCESS?CONTEXTSWITCH\" has byte 0x22 at 7, but event names are letters, digits and '_' only; the file is damaged" "$tmp/err"; then
		pass
	else
		fail "lkbuf $cmd: $(cat "$tmp/err")"
	fi
done
[ ! -e "$tmp/badctf" ] && [ ! -e "$tmp/bad.json" ] && pass || fail "a refused log left output"

# Header strings: the CTF metadata is ASCII, babeltrace2 reads it and
# gives the bytes back; the JSON parses to the same text.
hostile="$tmp/hostile.lkst"
if "$lkbuf" convert -f "$hostile" --to ctf -o "$tmp/hctf" 2>"$tmp/err" &&
   babeltrace2 "$tmp/hctf" >"$tmp/bt" 2>"$tmp/bt.err" && [ "$(wc -l <"$tmp/bt")" -eq 2 ] &&
   babeltrace2 "$tmp/hctf" -c sink.text.details >"$tmp/details" 2>"$tmp/bt.err"; then
	pass
else
	fail "CTF of hostile header strings: $(cat "$tmp/err"); babeltrace2: $(head -3 "$tmp/bt.err")"
fi
"$lkbuf" convert -f "$hostile" --to json -o "$tmp/hostile.json" 2>"$tmp/err" ||
	fail "JSON of hostile header strings: $(cat "$tmp/err")"
python3 - "$tmp/hctf/metadata" "$tmp/details" "$tmp/hostile.json" <<'EOF'
import json
import sys

HOST, RELEASE = b'h"o\\st\t\xc3\xa9*/ \x01x', b'6.1"\\\n\x7f\xff/*'
meta = open(sys.argv[1], "rb").read()
details = open(sys.argv[2], "rb").read()
try:
    other = json.load(open(sys.argv[3], encoding="utf-8"))["otherData"]
except ValueError as e:
    other = {"error": str(e)}
checks = [
    ("metadata is printable ASCII", all(32 <= b < 127 or b in b"\n\t" for b in meta)),
    ("babeltrace2's hostname", b"\n      hostname: " + HOST + b"\n" in details),
    ("babeltrace2's kernel_release", b"\n      kernel_release: " + RELEASE + b"\n" in details),
    ("JSON host", other.get("host") == HOST.decode("utf-8")),
    ("JSON kernel (a byte not UTF-8 as U+00XX)", other.get("kernel") == RELEASE.decode("latin-1")),
]
for what, ok in checks:
    if not ok:
        print("FAIL: hostile header:", what, file=sys.stderr)
if not all(ok for _, ok in checks):
    print("  otherData:", other, file=sys.stderr)
sys.exit(any(not ok for _, ok in checks))
EOF
[ $? -eq 0 ] && pass || fail "hostile header strings (above)"

# ---- bad input: exit 1, one line ----
python3 "$here/make_log.py" "$tmp/cut.lkst" cut
head -c 5000 /dev/urandom >"$tmp/garbage"
: >"$tmp/afile"
mkdir "$tmp/foreign" && : >"$tmp/foreign/notes.txt"
expect_fail "$lkbuf" convert
expect_fail "$lkbuf" convert -f "$crafted" -o "$tmp/x"
expect_fail "$lkbuf" convert -f "$crafted" --to json
expect_fail "$lkbuf" convert -f "$crafted" --to pdf -o "$tmp/x"
expect_fail "$lkbuf" convert -f "$crafted" --to json -o "$tmp/x" extra
expect_fail "$lkbuf" convert -f "$tmp/nonexistent" --to ctf -o "$tmp/x"
expect_fail "$lkbuf" convert -f "$tmp/garbage" --to json -o "$tmp/x"
expect_fail "$lkbuf" convert -f "$tmp/cut.lkst" --to ctf -o "$tmp/x"
expect_fail "$lkbuf" convert -f "$crafted" --to ctf -o "$tmp/afile"
grep -q "is not a directory" "$tmp/err" && pass || fail "ctf to a file: $(cat "$tmp/err")"
expect_fail "$lkbuf" convert -f "$crafted" --to ctf -o "$tmp/foreign"
[ -e "$tmp/foreign/notes.txt" ] && [ ! -e "$tmp/foreign/metadata" ] && pass ||
	fail "a refused directory was changed"
expect_fail "$lkbuf" convert -f "$crafted" --to ctf -o -
expect_fail "$lkbuf" convert -f "$crafted" --to ctf -o "$tmp/no/such/dir"
expect_fail "$lkbuf" convert -f "$crafted" --to json -o "$tmp"
expect_fail "$lkbuf" convert -f "$crafted" --to json -o "$tmp/no/such/file.json"
[ -e "$tmp/x" ] && fail "a failed conversion left $tmp/x" || pass
if [ -w /dev/full ]; then
	expect_fail "$lkbuf" convert -f "$crafted" --to json -o /dev/full
	grep -q "cannot write /dev/full: No space left on device" "$tmp/err" && pass ||
		fail "json to /dev/full: $(cat "$tmp/err")"
	"$lkbuf" convert -f "$crafted" --to json -o - >/dev/full 2>"$tmp/err"
	[ $? -eq 1 ] && grep -q "^lkbuf: cannot write the JSON trace: " "$tmp/err" && pass ||
		fail "json to a full stdout: $(cat "$tmp/err")"
fi
if "$lkbuf" convert --help | grep -q "Exit codes: 0 success, 1 bad usage, input or output" &&
   "$lkbuf" --help 2>&1 | grep -q "convert"; then
	pass
else
	fail "convert is missing from the help"
fi

# ---- progress only on a terminal ----
if command -v script >/dev/null; then
	script -qec "'$lkbuf' convert -f '$tmp/gen.lkst' --to json -o '$tmp/p.json'" /dev/null >"$tmp/tty" 2>&1
	grep -q "converting: 100%" "$tmp/tty" && pass || fail "no progress on a terminal: $(cat "$tmp/tty")"
fi
"$lkbuf" convert -f "$tmp/gen.lkst" --to json -o "$tmp/p.json" 2>"$tmp/err"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && ! grep -q converting "$tmp/err" && pass ||
	fail "progress without a terminal: $(cat "$tmp/err")"

# ---- Perfetto: the time of day and the marks ----
# A clock snapshot pairs the anchor's trace time (BOOTTIME, Perfetto's
# domain for ftrace timestamps, and MONOTONIC) with its time of day
# (REALTIME); a USER_MARK is a print event "I|PID|TEXT", escaped as print.
if command -v protoc >/dev/null 2>&1 && "$lkbuf" convert -f "$crafted" --to perfetto \
	-o "$tmp/c.pftrace" 2>"$tmp/err"; then
	protoc --decode=perfetto.protos.Trace -I "$bin/perfetto" \
		"$bin/perfetto/perfetto_trace.proto" <"$tmp/c.pftrace" >"$tmp/c.txt" 2>"$tmp/perr"
	python3 - "$tmp/c.txt" "$here/../check" <<'EOF' >"$tmp/out" 2>&1
import sys
sys.path.insert(0, sys.argv[2])
from viewercheck import parse_textproto, one
trace = parse_textproto(open(sys.argv[1]).read())
snaps = [s for p in trace.get("packet", []) for s in p.get("clock_snapshot", [])]
assert len(snaps) == 1, f"{len(snaps)} clock snapshots"
clocks = {one(c, "clock_id"): one(c, "timestamp") for c in snaps[0]["clocks"]}
assert clocks == {6: 10**9, 3: 10**9, 1: 1700000000 * 10**9}, clocks
prints = [(one(e, "timestamp"), one(e, "pid"), one(e["print"][0], "buf"))
          for p in trace.get("packet", []) for b in p.get("ftrace_events", [])
          for e in b.get("event", []) if "print" in e]
want = [(10**9 + 9000, 101, 'I|101|say "hi", \\x5c ok\\x01\n')]
assert prints == want, f"{prints} != {want}"
EOF
	[ $? -eq 0 ] && pass || fail "perfetto's clock snapshot and mark: $(cat "$tmp/out" "$tmp/perr")"
	grep -q ', 1 marks, ' "$tmp/err" && pass || fail "perfetto's summary counts no mark: $(cat "$tmp/err")"
fi

finish
