#!/bin/sh
# Logs that travel, on the host: zstd-compressed logs (written by a .zst
# name, read by their magic; zstd(1) reads ours and we read its), corrupt
# and cut-short ones refused with one line; -f - reading standard input;
# a rotated set (split_log) read as one trace, byte for byte what the
# single log prints, with a gap between files shown as a loss and
# overlapping or foreign files refused; CPU ranges; convert slices.
# Usage: test_logset.sh DIR-WITH-lkbuf-gen_log-AND-split_log
bin=$(cd "${1:-.}" && pwd)
tmp=$(mktemp -d /tmp/lkst_test_logset.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
lkbuf="$bin/lkbuf"

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$1"; then pass; else fail "$2"; fi; }

# expect_fail PATTERN CMD...: exit 1, one "lkbuf: ...; ..." line matching PATTERN.
expect_fail() {
	pat=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	   grep -q "^lkbuf: .*; " "$tmp/err" && grep -q -- "$pat" "$tmp/err"; then
		pass
	else
		fail "$* -> exit $rc, want 1 and one line with '$pat'; stderr: $(cat "$tmp/err")"
	fi
}

# same_print A B [OPTIONS]: lkbuf print of A and of B agree on stdout and stderr.
same_print() {
	a=$1
	b=$2
	shift 2
	"$lkbuf" print -f "$a" "$@" >"$tmp/pa" 2>"$tmp/ea"
	ra=$?
	"$lkbuf" print -f "$b" "$@" >"$tmp/pb" 2>"$tmp/eb"
	rb=$?
	if [ "$ra" -eq 0 ] && [ "$rb" -eq 0 ] && cmp -s "$tmp/pa" "$tmp/pb" &&
	   cmp -s "$tmp/ea" "$tmp/eb" && [ -s "$tmp/pa" ]; then
		pass
	else
		fail "print -f $a and -f $b $* differ (exit $ra, $rb): $(diff "$tmp/ea" "$tmp/eb" | head -5)"
	fi
}

# With saved task names: each file of a set split from it carries them.
"$bin/gen_log" "$tmp/a.log" 40000 4 1 || { echo "gen_log failed"; exit 1; }

# ---- zstd ----------------------------------------------------------------
"$bin/gen_log" "$tmp/b.log.zst" 40000 4 1
check '[ "$(head -c 4 "$tmp/b.log.zst" | od -An -tx1 | tr -d " ")" = 28b52ffd ]' \
	"a .zst name does not write a zstd frame"
check '[ ! -e "$tmp/b.log.zst.tmp" ]' "the .zst writer left its tmp file"
same_print "$tmp/a.log" "$tmp/b.log.zst"
check 'zstd -q -dc "$tmp/b.log.zst" | cmp -s - "$tmp/a.log"' "zstd -d of our .zst is not the plain log"
zstd -q -19 -c "$tmp/a.log" >"$tmp/c.zst"
same_print "$tmp/a.log" "$tmp/c.zst"
check '"$lkbuf" info -f "$tmp/b.log.zst" | grep -q "^total *40000 records of 4 CPUs"' \
	"lkbuf info does not read a .zst log"
# Two frames (zstd of two halves, concatenated) are one stream.
head -c 100000 "$tmp/a.log" | zstd -q -c >"$tmp/two.zst"
tail -c +100001 "$tmp/a.log" | zstd -q -c >>"$tmp/two.zst"
same_print "$tmp/a.log" "$tmp/two.zst"
head -c 30000 "$tmp/b.log.zst" >"$tmp/cut.zst"
expect_fail "cut short" "$lkbuf" print -f "$tmp/cut.zst"
cp "$tmp/b.log.zst" "$tmp/bad.zst"
printf 'garbage!' | dd of="$tmp/bad.zst" bs=1 seek=5000 conv=notrunc 2>/dev/null
expect_fail "corrupt zstd" "$lkbuf" print -f "$tmp/bad.zst"
expect_fail "cut short" sh -c "head -c 30000 '$tmp/b.log.zst' | '$lkbuf' print -f -"
# A zstd frame holding what is not a log.
echo "hello" | zstd -q -c >"$tmp/text.zst"
expect_fail "decompressed.*not an lkst log" "$lkbuf" print -f "$tmp/text.zst"
# A frame that claims a huge size is a first guess only.
expect_fail "zstd" sh -c "printf '\050\265\057\375\344\377\377\377\377\377\377\377\377' | '$lkbuf' print -f -"

# pzstd (and the seekable format) start with a skippable frame.
printf '\120\052\115\030\004\000\000\000\001\002\003\004' >"$tmp/p.zst"
cat "$tmp/b.log.zst" >>"$tmp/p.zst"
same_print "$tmp/a.log" "$tmp/p.zst"
if command -v pzstd >/dev/null; then
	pzstd -q -c "$tmp/a.log" >"$tmp/pz.zst" 2>/dev/null
	same_print "$tmp/a.log" "$tmp/pz.zst"
fi

# ---- memory: bombs, standard input, zstd and sets --------------------------
# peak [PATTERN] CMD...: the most memory (KiB of RSS) CMD or its children
# held; -1 when it failed.  peak_fail PATTERN CMD...: the same, for a CMD
# that must fail with one line matching PATTERN.
peak() {
	python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else -1)
' "$@"
}
peak_fail() {
	python3 -c '
import re, resource, subprocess, sys
r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
ok = r.returncode == 1 and re.search(sys.argv[1], r.stderr.decode()) and r.stderr.count(b"\n") == 1
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if ok else -1)
if not ok:
    sys.stderr.write("exit %d: %s" % (r.returncode, r.stderr.decode()))
' "$@"
}
# A 33 KB zstd bomb (1 GiB of zeros) is refused at its first bytes.
head -c 1073741824 /dev/zero | zstd -q -c >"$tmp/bomb.zst"
kb=$(peak_fail "bad magic" "$lkbuf" info -f "$tmp/bomb.zst")
check '[ "$kb" -gt 0 ] && [ "$kb" -lt 32768 ]' "a zstd bomb: peak $kb KiB (-1: wrong message), want < 32 MiB"
kb=$(peak_fail "bad magic" sh -c "cat '$tmp/bomb.zst' | '$lkbuf' info -f -")
check '[ "$kb" -gt 0 ] && [ "$kb" -lt 32768 ]' "a piped zstd bomb: peak $kb KiB, want < 32 MiB"
# One with a log's header whose CPU claims 2^25 records, then zeros: the
# ratio no log has stops it.
python3 -c '
import struct, subprocess, sys
head = open(sys.argv[1], "rb").read(4096)
hsize, = struct.unpack_from("<I", head, 16)
cpu = bytearray(head[hsize:hsize + 64])
struct.pack_into("<Q", cpu, 8, 1 << 25)
z = subprocess.Popen(["zstd", "-q", "-c"], stdin=subprocess.PIPE, stdout=open(sys.argv[2], "wb"))
z.stdin.write(head[:hsize] + bytes(cpu))
zero = bytes(1 << 20)
for i in range(1024):
    z.stdin.write(zero)
z.stdin.close()
z.wait()
' "$tmp/a.log" "$tmp/hbomb.zst"
kb=$(peak_fail "times its size" "$lkbuf" info -f "$tmp/hbomb.zst")
check '[ "$kb" -gt 0 ] && [ "$kb" -lt 32768 ]' "a zstd bomb with a log header: peak $kb KiB, want < 32 MiB"
# A 72 MB log read from a pipe, as .zst, and as a set: what one file takes.
"$bin/gen_log" "$tmp/big.log" 1000000 4 1
zstd -q -c "$tmp/big.log" >"$tmp/big.log.zst"
mkdir -p "$tmp/bigset"
"$bin/split_log" "$tmp/big.log" "$tmp/bigset" 4
kb=$(peak "$lkbuf" info -f "$tmp/big.log")
check '[ "$kb" -gt 0 ] && [ "$kb" -lt 40960 ]' "info of a 72 MB file: peak $kb KiB, want < 40 MiB"
kb=$(peak sh -c "cat '$tmp/big.log' | '$lkbuf' info -f -")
check '[ "$kb" -gt 0 ] && [ "$kb" -lt 40960 ]' "info of a 72 MB log from a pipe: peak $kb KiB, want < 40 MiB"
kb=$(peak "$lkbuf" info -f "$tmp/big.log.zst")
check '[ "$kb" -gt 0 ] && [ "$kb" -lt 40960 ]' "info of a 72 MB log as .zst: peak $kb KiB, want < 40 MiB"
kb=$(peak "$lkbuf" info -f "$tmp/bigset")
check '[ "$kb" -gt 0 ] && [ "$kb" -lt 40960 ]' "info of a 72 MB set of 4 files: peak $kb KiB, want < 40 MiB"
kb=$(peak "$lkbuf" print -f "$tmp/bigset")
check '[ "$kb" -gt 0 ] && [ "$kb" -lt 40960 ]' "print of a 72 MB set of 4 files: peak $kb KiB, want < 40 MiB"
rm -rf "$tmp/big.log" "$tmp/big.log.zst" "$tmp/bigset" "$tmp/bomb.zst" "$tmp/hbomb.zst"

# ---- standard input --------------------------------------------------------
"$lkbuf" print -f "$tmp/a.log" >"$tmp/p1" 2>"$tmp/e1"
"$lkbuf" print -f - <"$tmp/a.log" >"$tmp/p2" 2>"$tmp/e2"
check 'cmp -s "$tmp/p1" "$tmp/p2" && cmp -s "$tmp/e1" "$tmp/e2"' "print -f - < x.log differs from -f x.log"
cat "$tmp/a.log" | "$lkbuf" print -f - >"$tmp/p3" 2>"$tmp/e3"
check 'cmp -s "$tmp/p1" "$tmp/p3" && cmp -s "$tmp/e1" "$tmp/e3"' "print -f - from a pipe differs"
cat "$tmp/b.log.zst" | "$lkbuf" print -f - >"$tmp/p4" 2>"$tmp/e4"
check 'cmp -s "$tmp/p1" "$tmp/p4" && cmp -s "$tmp/e1" "$tmp/e4"' "print -f - of a piped .zst differs"
check 'cat "$tmp/a.log" | "$lkbuf" info -f - | grep -q "^file *-$"' "info -f - from a pipe"
check 'cat "$tmp/a.log" | "$lkbuf" convert -f - --to json -o "$tmp/in.json" 2>/dev/null && [ -s "$tmp/in.json" ]' \
	"convert -f - from a pipe"

# ---- rotated sets ------------------------------------------------------------
mkdir -p "$tmp/set" "$tmp/setz" "$tmp/gap" "$tmp/over" "$tmp/one" "$tmp/empty"
"$bin/split_log" "$tmp/a.log" "$tmp/set" 5
"$bin/split_log" "$tmp/a.log" "$tmp/setz" 3 zst
"$bin/split_log" "$tmp/a.log" "$tmp/gap" 3 gap
"$bin/split_log" "$tmp/a.log" "$tmp/over" 3 overlap
"$bin/split_log" "$tmp/a.log" "$tmp/one" 1
check '[ "$(ls "$tmp/set" | wc -l)" -eq 5 ] && [ -e "$tmp/setz/lkst-000003.log.zst" ]' "split_log wrote no set"
same_print "$tmp/a.log" "$tmp/set"
same_print "$tmp/a.log" "$tmp/setz"
same_print "$tmp/a.log" "$tmp/one"
same_print "$tmp/a.log" "$tmp/set" -S -C
same_print "$tmp/a.log" "$tmp/set" -e syscall -c 1-2
same_print "$tmp/a.log" "$tmp/set" -n 'gen-10*'
check '"$lkbuf" info -f "$tmp/set" | grep -qx "tasks     10 names saved" &&
	[ "$("$lkbuf" print -f "$tmp/set" -n gen-100 2>/dev/null | wc -l)" -eq 1600 ]' \
	"a set's saved task names: $("$lkbuf" info -f "$tmp/set" 2>&1 | grep tasks)"
# Several -f: the files in the order given.
"$lkbuf" print -f "$tmp/set/lkst-000001.log" -f "$tmp/set/lkst-000002.log" \
	-f "$tmp/set/lkst-000003.log" -f "$tmp/set/lkst-000004.log" \
	-f "$tmp/set/lkst-000005.log" >"$tmp/pf" 2>"$tmp/ef"
check 'cmp -s "$tmp/p1" "$tmp/pf" && cmp -s "$tmp/e1" "$tmp/ef"' "print -f FILE1 -f FILE2 ... differs from the single log"
check '"$lkbuf" info -f "$tmp/set" | grep -q "^total *40000 records of 4 CPUs, 0 lost"' \
	"info of a set: $("$lkbuf" info -f "$tmp/set" 2>&1 | tail -1)"
# A gap between two files: one record of each CPU lost, placed between numbers.
"$lkbuf" print -f "$tmp/gap" >"$tmp/pg" 2>"$tmp/eg"
check '[ "$(wc -l <"$tmp/pg")" -eq 39996 ]' "a set with gaps printed $(wc -l <"$tmp/pg") records, want 39996"
check '[ "$(grep -c "records lost between sequence numbers" "$tmp/eg")" -eq 4 ]' \
	"the gaps between files are not reported as losses: $(cat "$tmp/eg")"
check '"$lkbuf" info -f "$tmp/gap" | grep -q "^total *39996 records of 4 CPUs, 4 lost"' "info of a set with gaps"
# Records between two files are in none: a file of the set is missing, not
# a loss in the kernel's buffer.
check '[ "$(grep -c "a file of the set is missing" "$tmp/eg")" -eq 4 ] && ! grep -q overwritten "$tmp/eg"' \
	"a gap between files blamed on the kernel: $(cat "$tmp/eg")"
mkdir -p "$tmp/hole"
cp "$tmp/set"/lkst-*.log "$tmp/hole/"
rm "$tmp/hole/lkst-000003.log"
"$lkbuf" print -f "$tmp/hole" >/dev/null 2>"$tmp/eh"
check '[ "$(grep -c "records lost between sequence numbers.*a file of the set is missing" "$tmp/eh")" -eq 4 ] &&
	! grep -q "overwritten before" "$tmp/eh"' "a missing middle file: $(cat "$tmp/eh")"
"$lkbuf" convert -f "$tmp/hole" --to json -o "$tmp/hole.json" 2>/dev/null
check '[ "$(grep -o "\"cause\":\"in no file given: a file of the set is missing\"" "$tmp/hole.json" | wc -l)" -eq 4 ] &&
	! grep -q "overwritten before" "$tmp/hole.json"' "JSON export of a set with a missing file blames the kernel"
"$lkbuf" report -f "$tmp/hole" >/dev/null 2>"$tmp/rh"
check 'grep -q "in a missing file of the set" "$tmp/rh" && ! grep -q "overwritten before" "$tmp/rh"' \
	"report of a set with a missing file blames the kernel: $(cat "$tmp/rh")"
"$lkbuf" convert -f "$tmp/hole" --to ctf -o "$tmp/hole.ctf" 2>"$tmp/ch"
check 'grep -q "of them in a missing file of the set" "$tmp/ch" && ! grep -q "overwritten before" "$tmp/ch"' \
	"CTF export of a set with a missing file blames the kernel: $(cat "$tmp/ch")"
check '"$lkbuf" info -f "$tmp/hole" | grep -q "^cpu 0 .* lost (.* of them in a missing file of the set)"' \
	"info does not say a file of the set is missing: $("$lkbuf" info -f "$tmp/hole" | grep "^cpu 0")"
expect_fail "overlap or are out of order" "$lkbuf" print -f "$tmp/over"
expect_fail "overlap or are out of order" "$lkbuf" print -f "$tmp/set/lkst-000002.log" -f "$tmp/set/lkst-000001.log"
expect_fail "holds no lkst-" "$lkbuf" print -f "$tmp/empty"
# A file of another host (nodename at offset 152 of the header).
cp "$tmp/set/lkst-000002.log" "$tmp/other.log"
printf 'otherhost\000' | dd of="$tmp/other.log" bs=1 seek=152 conv=notrunc 2>/dev/null
expect_fail "of host" "$lkbuf" print -f "$tmp/set/lkst-000001.log" -f "$tmp/other.log"
# A file of another boot: its clock anchor's realtime a minute later.
cp "$tmp/set/lkst-000002.log" "$tmp/boot.log"
python3 - "$tmp/boot.log" <<'EOF'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    f.seek(48)
    rt, = struct.unpack("<Q", f.read(8))
    f.seek(48)
    f.write(struct.pack("<Q", rt + 60 * 10**9))
EOF
expect_fail "different boots" "$lkbuf" print -f "$tmp/set/lkst-000001.log" -f "$tmp/boot.log"

# ---- CPU ranges ------------------------------------------------------------
"$lkbuf" print -f "$tmp/a.log" -c 0,1,2 >"$tmp/c1" 2>/dev/null
"$lkbuf" print -f "$tmp/a.log" -c 0-2 >"$tmp/c2" 2>/dev/null
"$lkbuf" print -f "$tmp/a.log" -c 3,0-1,2 >"$tmp/c3" 2>/dev/null
check 'cmp -s "$tmp/c1" "$tmp/c2"' "-c 0-2 differs from -c 0,1,2"
check '[ "$(wc -l <"$tmp/c2")" -eq 30000 ] && [ "$(wc -l <"$tmp/c3")" -eq 40000 ]' "CPU ranges select the wrong records"
expect_fail "bad CPU range" "$lkbuf" print -f "$tmp/a.log" -c 3-1
expect_fail "bad CPU range" "$lkbuf" print -f "$tmp/a.log" -c 1-x
expect_fail "bad CPU" "$lkbuf" print -f "$tmp/a.log" -c -
expect_fail "bad CPU range" "$lkbuf" convert -f "$tmp/a.log" --to json -o "$tmp/x.json" -c 2-

# ---- convert slices ------------------------------------------------------------
"$lkbuf" print -f "$tmp/set" -e syscall -c 0-1 -t 1.01,1.02 2>/dev/null >"$tmp/sel"
want=$(wc -l <"$tmp/sel")
"$lkbuf" convert -f "$tmp/set" --to ctf -o "$tmp/ctf" -e syscall -c 0-1 -t 1.01,1.02 2>"$tmp/cerr"
got=$(babeltrace2 "$tmp/ctf" 2>/dev/null | grep -c "^\[.*SYSCALL_\(ENTRY\|EXIT\)")
all=$(babeltrace2 "$tmp/ctf" 2>/dev/null | wc -l)
check '[ "$want" -gt 100 ] && [ "$got" -eq "$want" ] && [ "$all" -eq "$want" ]' \
	"CTF slice holds $got syscall records of $all, print selects $want"
check 'grep -q "converted $want selected records of 4 CPUs" "$tmp/cerr"' "convert's count: $(cat "$tmp/cerr")"
"$lkbuf" convert -f "$tmp/a.log" --to json -o "$tmp/w.json" -t 1.01,1.012 2>/dev/null
"$lkbuf" convert -f "$tmp/a.log" --to json -o "$tmp/all.json" 2>/dev/null
check 'python3 - "$tmp/w.json" "$tmp/all.json" <<EOF
import json, sys
def spans(p):
    ev = [e for e in json.load(open(p))["traceEvents"] if "ts" in e]
    return len(ev), min(e["ts"] for e in ev), max(e["ts"] + e.get("dur", 0) for e in ev)
n, lo, hi = spans(sys.argv[1])
m, alo, ahi = spans(sys.argv[2])
# Slices end at the last selected record at the latest; the whole log goes on.
sys.exit(not (0 < n < m and lo >= 1010000 and hi <= 1012000 and ahi > 1012000))
EOF' "a JSON slice has events outside its window"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
