#!/bin/sh
# Device verbs of lkm and lkbuf against fake_lkst.so (an LD_PRELOAD
# stand-in for /dev/lkst), checking output and errno messages.
# Usage: test_dev.sh DIR-WITH-lkm-lkbuf-AND-fake_lkst.so
test_name=dev
. "$(dirname "$0")/fake_dev.sh"
# Every command here runs on the fake device.
export LD_PRELOAD="$bin/fake_lkst.so" FAKE_LKST_STATE="$tmp/state"

check "list shows system masksets" "'$lkm' list | grep -q '^1   rdefault  *system  *2\$'"
check "read | write copies maskset 0" "'$lkm' read -m 0 | '$lkm' write -m 3"
check "copy has the same entries" \
	"'$lkm' read -m 0 | grep '^0x' >'$tmp/a'; '$lkm' read -m 3 | grep '^0x' >'$tmp/b'; cmp '$tmp/a' '$tmp/b'"
check "a copy of a system maskset gets its own name" "'$lkm' list | grep -q '^3   maskset3  *-  *0\$'"
check "write -N names it" "'$lkm' read -m 1 | '$lkm' write -m 4 -N mine && '$lkm' list | grep -q '^4   mine  *-  *2\$'"
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

check "lkbuf list" "'$lkbuf' list | grep -q 'block 0: size 8192, 2 pages, next 1 \[current: 160 of 8192 bytes used\]'"
check "create prints ID" "[ \"\$('$lkbuf' create -c 0 -s 8K)\" = 1 ]"
check "link" "'$lkbuf' link -c 0 -b 1 --next none && '$lkbuf' list | grep -q 'block 1: size 8192, 2 pages, next wrap'"
check "delete busy" "! '$lkbuf' delete -c 0 -b 0 && grep -q 'being written' '$tmp/err'"
check "delete" "'$lkbuf' delete -c 0 -b 1 && ! '$lkbuf' list | grep -q 'size 8192, 2 pages, next wrap'"
check "jump ENOENT" "! '$lkbuf' jump -c 1 -b 5 && grep -q 'block 5 does not exist on cpu 1' '$tmp/err'"
check "read saves" "'$lkbuf' read -f '$tmp/log' && grep -q 'saved 5 records of 2 CPUs' '$tmp/err' && [ ! -e '$tmp/log.tmp' ]"
check "print merges" "'$lkbuf' print -S -f '$tmp/log' | cut -d' ' -f1 | tr '\n' ' ' | grep -q '^0.000001000 0.000001001 0.000002000 0.000002001 0.000003000 \$'"
check "print reports overwritten" "'$lkbuf' print -f '$tmp/log' >/dev/null && grep -q 'cpu1: 4 records overwritten' '$tmp/err'"
check "read one cpu" "'$lkbuf' read -f '$tmp/log1' -c 1 && [ \$('$lkbuf' print -f '$tmp/log1' -C | wc -l) -eq 3 ]"
# The running kernel's event table, a dynamic probe in it, goes into the log
# and decodes it later without the kernel.
check "lkm events lists a kernel's dynamic probe" "FAKE_LKST_PROBE=myread '$lkm' events | grep -q '^0xf0 probe  *myread  *kprobe on ksys_read\$'"
check "read keeps the kernel's table" "FAKE_LKST_PROBE=myread '$lkbuf' read -f '$tmp/logp' && '$lkbuf' info -f '$tmp/logp' | grep -q '^events    $(( $("$lkm" events | grep -c '^0x') + 1 )), the log.s own table, 1 of them dynamic probes\$'"
check "the log's table names the probe" "python3 -c \"import sys; sys.path.insert(0, '$here/../check'); from lkstcheck import read_log; h, _ = read_log('$tmp/logp'); assert h['events'][0xf0][0] == 'myread' and h['events'][0xf0][3][0] == 'fd=\\\$arg1:u64', h['events'][0xf0]\""
check "a filter by the probe's name takes the log's table" "'$lkbuf' print -f '$tmp/logp' -e myread -C >/dev/null && ! '$lkbuf' print -f '$tmp/log' -e myread 2>/dev/null"

# Per-event counters (the fake starts with SYSCALL_ENTRY 50 hits, 2 dropped).
check "stat lists every event" "'$lkm' stat >'$tmp/s' && [ \$(grep -c '^0x' '$tmp/s') -eq \$('$lkm' events | grep -c '^0x') ] && grep -q '^ID   EVENT  *HITS  *DROPPED\$' '$tmp/s'"
check "stat counts" "'$lkm' stat | grep -q '^0x30 SYSCALL_ENTRY  *50  *2\$'"
# The process category as lkm events lists it, in table order.
procs=$("$lkm" events | awk '$2 == "process" { printf "%s ", $1 }')
check "stat -e events and categories" "[ -n '$procs' ] && [ \"\$('$lkm' stat -e process,SYSCALL_EXIT | cut -d' ' -f1 | tr '\n' ' ')\" = 'ID ${procs}0x31 ' ]"
check "stat -e unknown" "'$lkm' stat -e process,bogus; [ \$? -eq 1 ] && grep -q \"unknown event or category 'bogus'; see lkm events\" '$tmp/err'"
# A category with no event yet (they fill up as hooks are added).
empty=
for c in oops lock timer net block ipc memory; do
	if ! "$lkm" stat -e $c >/dev/null 2>&1; then empty=$c; break; fi
done
if [ -n "$empty" ]; then
check "stat -e empty category" "'$lkm' stat -e $empty; [ \$? -eq 1 ] && grep -q \"category '$empty' has no events in this version\" '$tmp/err'"
fi
check "stat -e empty item" "'$lkm' stat -e process,,syscall; [ \$? -eq 1 ] && grep -q 'bad item in event list' '$tmp/err'"
check "stat --reset prints, then zeroes" "'$lkm' stat --reset -e SYSCALL_ENTRY | grep -q '^0x30 SYSCALL_ENTRY  *50  *2\$' && '$lkm' stat | grep -q '^0x30 SYSCALL_ENTRY  *0  *0\$' && ! '$lkm' stat | grep -q '^0x01 .* 12 '"

# config by category, before and after single events.
check "config by category" "'$lkm' read -m 0 | '$lkm' write -m 6 -N bycat && '$lkm' config -m 6 process 1 && '$lkm' read -m 6 | grep -c ' 1 default\$' | grep -qx $(echo $procs | wc -w) && '$lkm' read -m 6 | grep -q '^0x02 PROCESS_WAKEUP 1 default\$'"
check "a later pair overrides a category" "'$lkm' config -m 6 SYSCALL default && '$lkm' config -m 6 syscall counter SYSCALL_EXIT nothing && '$lkm' read -m 6 | grep -q '^0x30 SYSCALL_ENTRY 7 counter\$' && '$lkm' read -m 6 | grep -q '^0x31 SYSCALL_EXIT 255 nothing\$'"
check "config with a bad category changes nothing" "'$lkm' config -m 6 tracer default procss default; [ \$? -eq 1 ] && grep -q \"unknown event or category 'procss'\" '$tmp/err' && '$lkm' read -m 6 | grep -q '^0xe0 USER_MARK 255 nothing\$'"
[ -z "$empty" ] ||
check "config of an empty category" "'$lkm' config -m 6 $empty default; [ \$? -eq 1 ] && grep -q \"category '$empty' has no events\" '$tmp/err'"

# mark: the words joined by spaces, NUL padded to 48 bytes, counted when routed.
check "mark" "'$lkm' config -m 6 tracer default && '$lkm' set -m 6 && '$lkbuf' mark hello lkst world && [ \"\$(tr -d '\0' <'$tmp/state.mark')\" = 'hello lkst world' ] && [ \$(wc -c <'$tmp/state.mark') -eq 48 ] && [ \$(tr -cd '\0' <'$tmp/state.mark' | wc -c) -eq 32 ]"
check "mark is counted as USER_MARK" "'$lkm' stat -e tracer | grep -q '^0xe0 USER_MARK  *1  *0\$'"
check "mark of exactly 48 bytes" "'$lkbuf' mark 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL && [ \"\$(cat '$tmp/state.mark')\" = 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL ]"
check "mark too long" "'$lkbuf' mark 0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKL; [ \$? -eq 1 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q '^lkbuf: mark text is 49 bytes, the limit is 48; shorten it\$' '$tmp/err' && [ \"\$(cat '$tmp/state.mark')\" = 0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL ]"
check "mark without text" "'$lkbuf' mark; [ \$? -eq 1 ] && grep -q 'no mark text given' '$tmp/err'"
check "mark text starting with a dash after --" "'$lkbuf' mark -- -x && [ \"\$(tr -d '\0' <'$tmp/state.mark')\" = '-x' ]"
check "delete the category maskset" "'$lkm' set -m 0 && '$lkm' delete -m 6"

# Buffer modes and resize.
check "list shows the mode" "'$lkbuf' list | grep -q '^cpu 1 (online, overwrite): 2 blocks'"
check "mode -c stop" "'$lkbuf' mode -c 1 stop && '$lkbuf' list | grep -q '^cpu 1 (online, stop)' && '$lkbuf' list | grep -q '^cpu 0 (online, overwrite)'"
check "mode -a overwrite" "'$lkbuf' mode -a overwrite && [ \$('$lkbuf' list | grep -c '(online, overwrite)') -eq 2 ]"
check "mode needs a mode" "'$lkbuf' mode -a; [ \$? -eq 1 ] && grep -q 'give one mode, overwrite or stop' '$tmp/err'"
check "mode refuses an unknown mode" "'$lkbuf' mode -a wrap; [ \$? -eq 1 ] && grep -q \"unknown buffer mode 'wrap'; give overwrite or stop\" '$tmp/err'"
check "mode needs -c or -a, not both" "'$lkbuf' mode stop; [ \$? -eq 1 ] && '$lkbuf' mode -a -c 0 stop; [ \$? -eq 1 ] && grep -q 'give either -c CPU or -a' '$tmp/err'"
check "mode of a missing cpu" "'$lkbuf' mode -c 7 stop; [ \$? -eq 1 ] && grep -q 'cpu 7 does not exist' '$tmp/err'"
check "create --mode sets the mode" "'$lkbuf' create -c 0 -s 4K --mode stop >/dev/null && '$lkbuf' list | grep -q '^cpu 0 (online, stop): 2 blocks' && '$lkbuf' mode -a overwrite"
check "resize" "'$lkbuf' resize -s 16K && [ \$('$lkbuf' list | grep -c 'size 16384, 4 pages') -eq 4 ]"
check "resize refuses a bad size" "'$lkbuf' resize -s 100; [ \$? -eq 1 ] && grep -q \"bad block size '100'\" '$tmp/err' && '$lkbuf' resize; [ \$? -eq 1 ]"

# record: each DRAIN writes FAKE_LKST_RATE more records; a CPU holds 3
# (cpu 0) or 2, so most are overwritten before the next drain.
# record DIR FILES ARGS...: SIGINT after half a second, or later once DIR
# holds FILES files (at most 30 s): a loaded host may not have drained
# enough in half a second to rotate.
record() {
	dir=$1 files=$2; shift 2
	FAKE_LKST_RATE=5 "$lkbuf" record -o "$dir" -i 5 "$@" 2>"$dir.report" &
	pid=$!
	sleep 0.5
	for _ in $(seq 300); do
		[ "$(ls "$dir" 2>/dev/null | wc -l)" -lt "$files" ] || break
		sleep 0.1
	done
	kill -INT $pid
	wait $pid
}
# (a fresh fake: cpu 0 holds the newest 3, cpu 1 the newest 2)
export FAKE_LKST_STATE="$tmp/state2"
record "$tmp/rec1" 3 --rotate 16K; echo $? >"$tmp/rec1.rc"
check "record writes rotated files" "[ \$(cat '$tmp/rec1.rc') = 0 ] && [ \$(ls '$tmp/rec1' | wc -l) -gt 2 ]"
check "recorded files follow each other and add up" "python3 '$here/check_record.py' '$tmp/rec1' '$tmp/rec1.report' 16384 0"
check "recorded losses are reported" "grep -q '^lkbuf: cpu0: .* [1-9][0-9]* lost' '$tmp/rec1.report'"
check "every recorded file prints" "for f in '$tmp'/rec1/*.log; do '$lkbuf' print -C -r -f \$f >/dev/null || exit 1; done"
record "$tmp/rec2" 2 --rotate 16K --keep 2; echo $? >"$tmp/rec2.rc"
check "record --keep" "[ \$(cat '$tmp/rec2.rc') = 0 ] && [ \$(ls '$tmp/rec2' | wc -l) -eq 2 ] && python3 '$here/check_record.py' '$tmp/rec2' '$tmp/rec2.report' 16384 2"
check "record SIGTERM" "FAKE_LKST_RATE=1 '$lkbuf' record -o '$tmp/rec3' -i 5 2>'$tmp/rec3.report' & p=\$!; sleep 0.3; kill -TERM \$p; wait \$p && python3 '$here/check_record.py' '$tmp/rec3' '$tmp/rec3.report' 16777216 0 && [ \$(ls '$tmp/rec3' | wc -l) -eq 1 ]"
check "record refuses a used directory" "'$lkbuf' record -o '$tmp/rec3'; [ \$? -eq 1 ] && grep -q 'already holds lkst-000001.log from an earlier recording' '$tmp/err'"
check "record refuses a tiny rotate size" "'$lkbuf' record -o '$tmp/rec4' --rotate 100; [ \$? -eq 1 ] && grep -q \"bad rotate size '100'\" '$tmp/err'"
check "record needs -o" "'$lkbuf' record; [ \$? -eq 1 ] && grep -q 'needs -o DIR' '$tmp/err'"
# record -f spills what it drains to temporary files and writes the log
# from them: under a 30 MB data limit it records 500000 records and more
# (72 bytes each); holding them in memory, it died at the end, nothing
# written.  FAKE_LKST_HELD: a CPU of the 1 MiB blocks holds 2000 records.
export FAKE_LKST_STATE="$tmp/state9"
"$lkbuf" resize -s 1M
check "record -f streams its records to the file" "sh -c 'ulimit -d 30000; FAKE_LKST_HELD=2000 FAKE_LKST_RATE=2000 exec \"$lkbuf\" record -f \"$tmp/big.log\" -i 1 -d 2' &&
	n=\$('$lkbuf' info -f '$tmp/big.log' | sed -n 's/^total *\([0-9]*\) records.*/\1/p') && [ \"\$n\" -gt 500000 ]"
rm -f "$tmp/big.log"
export FAKE_LKST_STATE="$tmp/state2"
# Task names (LKST_META_TASKS): the fake's records carry the pids of a
# live process of a name of its own and of one that does not exist; each
# file, sized with its names, names the live one, the set too.
cp "$(command -v sleep)" "$tmp/lkst-named"
"$tmp/lkst-named" 30 &
named=$!
FAKE_LKST_PIDS=$named,4194303 record "$tmp/rec5" 3 --rotate 11300; echo $? >"$tmp/rec5.rc"
kill $named
check "record names the pids its records carry" "[ \$(cat '$tmp/rec5.rc') = 0 ] && python3 '$here/check_record.py' '$tmp/rec5' '$tmp/rec5.report' 11300 0 && python3 -c \"import glob, sys; sys.path.insert(0, '$here/../check'); from lkstcheck import read_log
for f in glob.glob('$tmp/rec5/*.log'):
    h, secs = read_log(f)
    pids = {r[2] for s in secs for r in s['recs']}
    want = {$named: ($named, 'lkst-named')} if $named in pids else {}
    assert h['tasks'] == want, (f, h['tasks'], pids)\""
check "a recorded set prints the saved name, ? for the gone pid" "'$lkbuf' print -f '$tmp/rec5' 2>/dev/null | awk '{ print \$3, \$4 }' | sort -u >'$tmp/rec5.names' && printf '%s lkst-named\\n4194303 ?\\n' $named | sort | cmp - '$tmp/rec5.names'"
check "-n selects by the saved name" "[ \$('$lkbuf' print -f '$tmp/rec5' -n lkst-named -C 2>/dev/null | grep -v '^time,' | grep -vc ',$named,') -eq 0 ] && [ \$('$lkbuf' print -f '$tmp/rec5' -n lkst-named -C 2>/dev/null | wc -l) -gt 1 ]"
# Kernel symbols (LKST_META_SYMBOLS) take room too: every third record is a
# kernel stack of 5 frames in new functions of long names (fake_lkst.c), as
# t94_record met after t64_stack left stacks in the buffers.  Each file,
# sized with its symbols, stays within the rotate size, is full, and names
# every frame.
awk 'BEGIN { x = sprintf("%150s", ""); gsub(/ /, "x", x)
	for (i = 0; i < 4096; i++)
		printf "ffffffff81%06x T lkst_fake_function_%04d_%s\n", i * 256, i, substr(x, 1, i % 150)
	printf "ffffffff81%06x T _etext\n", 4096 * 256 }' >"$tmp/kallsyms"
FAKE_LKST_STACKS=3 FAKE_LKST_KALLSYMS="$tmp/kallsyms" record "$tmp/rec6" 3 --rotate 16K; echo $? >"$tmp/rec6.rc"
check "recorded files hold their stacks' symbols within the rotate size" "[ \$(cat '$tmp/rec6.rc') = 0 ] && python3 '$here/check_record.py' '$tmp/rec6' '$tmp/rec6.report' 16384 0"
check "every recorded frame prints as its symbol" "for f in '$tmp'/rec6/*.log; do '$lkbuf' print -f \$f 2>/dev/null | grep STACK_KERNEL >'$tmp/stacks' && grep -q 'frame=lkst_fake_function_' '$tmp/stacks' && ! grep -q 'frame=0x' '$tmp/stacks' || exit 1; done"

check "read saves every thread's name" "'$lkbuf' read -f '$tmp/tasks.log' && '$lkbuf' info -f '$tmp/tasks.log' | grep -q '^tasks     [1-9][0-9]* names saved\$'"

# read --previous-boot: the fake keeps a previous boot's trace of 3 CPUs
# (fake_lkst.c, prev_*), anchored at trace time 0.123456789, with record n
# of cpu c at time 7000000 + 1000 n + c and arg 0x5eed.
export FAKE_LKST_STATE="$tmp/state3"
prev="'$lkbuf' read --previous-boot"
cat >"$tmp/prev.want" <<'EOT'
7000002,2,200,irq,SYSCALL_EXIT,0x31,0x0,0x5eed,,,,
7001002,2,201,irq,SYSCALL_EXIT,0x31,0x1,0x5eed,,,,
7002000,0,202,task,SYSCALL_EXIT,0x31,0x2,0x5eed,,,,
7003000,0,203,task,SYSCALL_EXIT,0x31,0x3,0x5eed,,,,
7003002,2,203,irq,SYSCALL_EXIT,0x31,0x3,0x5eed,,,,
7004000,0,204,task,SYSCALL_EXIT,0x31,0x4,0x5eed,,,,
EOT
cat >"$tmp/prev.info" <<'EOT'
cpu 0     3 records, numbers 2..4, 0 lost; since boot: written 5, overwritten 2, dropped 0
cpu 1     0 records, 0 lost; since boot: written 0, overwritten 0, dropped 0
cpu 2     3 records, numbers 0..3, 1 lost; since boot: written 4, overwritten 1, dropped 0
total     6 records of 3 CPUs, 1 lost
EOT
check "previous: saves its records" "$prev -f '$tmp/p1' && '$lkbuf' print -C -r -f '$tmp/p1' | sed 1d | cmp - '$tmp/prev.want'"
check "previous: a section per CPU of that boot, its counts" "'$lkbuf' info -f '$tmp/p1' | grep -E '^(cpu|total) ' | cmp - '$tmp/prev.info'"
check "previous: its clock anchor, this kernel's release" "'$lkbuf' info -f '$tmp/p1' >'$tmp/p1.info' && grep -qx 'anchor    trace time 0.123456789 was 2023-11-14 22:13:20.987654321 UTC' '$tmp/p1.info' && grep -qx \"kernel    \$(uname -r)\" '$tmp/p1.info' && grep -qx 'clock     CLOCK_MONOTONIC' '$tmp/p1.info'"
check "previous: summary" "$prev -f '$tmp/p2' && grep -qx \"lkbuf: saved 6 records of the previous boot's 3 CPUs to $tmp/p2; 3 overwritten, 0 dropped in that boot\" '$tmp/err'"
check "previous: refused pages" "$prev -f '$tmp/p2' && grep -qx 'lkbuf: 1 page failed validation at boot and was left out' '$tmp/err'"
check "previous: dropped not saved without a panic" "$prev -f '$tmp/p2' && grep -q 'counts of dropped events were not saved: dropped is 0' '$tmp/err'"
check "previous: counts saved at panic" "FAKE_LKST_PREVIOUS=panic $prev -f '$tmp/p3' && ! grep -q 'not saved' '$tmp/err' && grep -q '2 overwritten, 4 dropped in that boot' '$tmp/err' && '$lkbuf' info -f '$tmp/p3' | grep -q '^cpu 0 .* overwritten 2, dropped 3\$'"
check "previous: none kept" "FAKE_LKST_PREVIOUS=none $prev -f '$tmp/p4'; [ \$? -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -qx \"lkbuf: no previous boot's trace is kept (boot with reserve_mem=SIZE:ALIGN:NAME lkst.persist=NAME; see dmesg for why)\" '$tmp/err' && [ ! -e '$tmp/p4' ] && [ ! -e '$tmp/p4.tmp' ]"
check "previous: refuses -c" "$prev -c 0 -f '$tmp/p5'; [ \$? -eq 1 ] && grep -q 'saves every CPU the previous boot had; leave out -c' '$tmp/err' && [ ! -e '$tmp/p5' ]"
check "previous: --release needs --previous-boot" "'$lkbuf' read --release -f '$tmp/p5'; [ \$? -eq 1 ] && grep -q 'give it with --previous-boot' '$tmp/err' && [ ! -e '$tmp/p5' ]"
check "previous: no release without --release" "[ ! -e '$tmp/state3.release' ]"
check "previous: a failed drain writes nothing, releases nothing" "FAKE_LKST_PREVIOUS_FAIL=1 $prev --release -f '$tmp/p6'; [ \$? -eq 2 ] && [ ! -e '$tmp/p6' ] && [ ! -e '$tmp/p6.tmp' ] && [ ! -e '$tmp/state3.release' ]"
check "previous: a log that cannot be created releases nothing" "$prev --release -f '$tmp/nodir/p7'; [ \$? -eq 1 ] && [ ! -e '$tmp/state3.release' ] && $prev -f '$tmp/p7'"
check "previous: --release after the log is committed" "FAKE_LKST_LOG='$tmp/p8' $prev --release -f '$tmp/p8' && grep -qx 'log present, tmp absent' '$tmp/state3.release' && grep -q 'released the previous boot' '$tmp/err' && '$lkbuf' print -C -r -f '$tmp/p8' | sed 1d | cmp - '$tmp/prev.want'"
check "previous: gone once released" "$prev -f '$tmp/p9'; [ \$? -eq 2 ] && grep -q 'no previous boot' '$tmp/err'"

report
