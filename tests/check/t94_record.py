"""lkbuf record: rotated files of at most the rotate size, the newest N
kept, every file prints, consecutive records per CPU with no duplicates
and no gap but the lost numbers lkbuf reported; nothing that was in the
buffers when recording stopped is missing; losses are seen and reported
when the buffer is drained too rarely; recording goes on through a resize
to blocks larger than its drain buffer."""
import glob
import os
import re
import sys

from lkstcheck import EV_SYSCALL_ENTRY, NR_LSEEK, check, done, read_log
from recordcheck import parse_report, verify

d = sys.argv[1]


def text(name):
    with open(os.path.join(d, name)) as f:
        return f.read()


def prints_ok(name, files):
    lines = [line.split() for line in text(name).splitlines()]
    check(sorted(n for n, _ in lines) == sorted(os.path.basename(f) for f in files),
          f"{name}: printed {[n for n, _ in lines]}")
    for n, rc in lines:
        check(rc == "0", f"lkbuf print -f {n} exited {rc}")


def records_by_cpu(paths):
    """{cpu: {seq: record tuple}} over the files."""
    out = {}
    for path in paths:
        _h, sections = read_log(path)
        for s in sections:
            for r in s["recs"]:
                check(r[0] not in out.setdefault(s["cpu"], {}),
                      f"{os.path.basename(path)}: cpu{s['cpu']} seq {r[0]} saved twice")
                out[s["cpu"]][r[0]] = r
    return out


# A: rotation at 64 KiB, keep 3, SIGINT.
rotate = 64 * 1024
check(text("recA.rc").strip() == "0", f"record A exited {text('recA.rc').strip()}")
for msg in verify(os.path.join(d, "recA"), text("recA.report"), rotate, 3):
    check(False, "A: " + msg)
totalA, cpusA = parse_report(text("recA.report"))
filesA = sorted(glob.glob(os.path.join(d, "recA", "lkst-*.log")))
check(totalA is not None and totalA["files"] > 3,
      f"A: only {totalA and totalA['files']} files written; rotation not exercised")
check(len(filesA) == 3, f"A: {len(filesA)} files kept, --keep 3")
prints_ok("printsA.txt", filesA)

# Nothing that the buffers held when recording stopped is missing: every
# record of the snapshot taken afterwards, from the first kept number on,
# is in the files, identical.
saved = records_by_cpu(filesA)
_h, snap = read_log(os.path.join(d, "snapA.log"))
first_kept = {}
for s in read_log(filesA[0])[1] if filesA else []:
    first_kept[s["cpu"]] = s["seq_start"]
for s in snap:
    cpu = s["cpu"]
    if cpu not in cpusA:
        continue
    want = [r for r in s["recs"] if r[0] >= first_kept.get(cpu, 0)]
    missing = [r[0] for r in want if saved.get(cpu, {}).get(r[0]) != r]
    check(not missing, f"A: cpu{cpu}: {len(missing)} of {len(want)} records left in the "
          f"buffer are not in the files (first {missing[:5]})")
    check(s["seq_end"] == cpusA[cpu]["end"],
          f"A: cpu{cpu}: the buffer's next number {s['seq_end']} after recording, "
          f"lkbuf stopped at {cpusA[cpu]['end']}")
    check(len(want) > 0, f"A: cpu{cpu}: the snapshot shares no record with the files")

# B: every file kept, losses on cpu 0 reported and accounted for exactly.
check(text("recB.rc").strip() == "0", f"record B exited {text('recB.rc').strip()}")
for msg in verify(os.path.join(d, "recB"), text("recB.report"), 256 * 1024, 0):
    check(False, "B: " + msg)
totalB, cpusB = parse_report(text("recB.report"))
filesB = sorted(glob.glob(os.path.join(d, "recB", "lkst-*.log")))
prints_ok("printsB.txt", filesB)
check(cpusB.get(0, {}).get("lost", 0) > 0,
      f"B: no records lost on cpu 0 with a 16K block drained every 3 s: {cpusB.get(0)}")
savedB = records_by_cpu(filesB)
lseeks = sorted(r[5][2] - 0x94b00000 for r in savedB.get(0, {}).values()
                if r[3] == EV_SYSCALL_ENTRY and r[5][0] == NR_LSEEK
                and 0x94b00000 <= r[5][2] < 0x94b00000 + 4000)
check(0 < len(lseeks) < 4000, f"B: {len(lseeks)} of 4000 lseeks saved")
if lseeks:
    check(lseeks[-1] == 3999, f"B: the last lseek saved is {lseeks[-1]}, not 3999")

# C: resized to 1 MiB blocks while recording: still one valid, continuous
# file, and the second burst of lseeks, written after the resize, is whole.
check(text("recC.rc").strip() == "0", f"record C exited {text('recC.rc').strip()}")
for msg in verify(os.path.join(d, "recC"), text("recC.report"), 16 << 20, 0):
    check(False, "C: " + msg)
filesC = sorted(glob.glob(os.path.join(d, "recC", "lkst-*.log")))
prints_ok("printsC.txt", filesC)
after_resize = sorted(r[5][2] - 0x94c10000 for recs in records_by_cpu(filesC).values()
                      for r in recs.values()
                      if r[3] == EV_SYSCALL_ENTRY and r[5][0] == NR_LSEEK
                      and 0x94c10000 <= r[5][2] < 0x94c10000 + 500)
check(after_resize == list(range(500)),
      f"C: {len(after_resize)} of the 500 lseeks after the resize recorded")

# D: a recording directory read as one trace (lkbuf print -f DIR).
LINE = re.compile(r"^(\d+\.\d+) cpu=(\d+) ")


def lines_of(name):
    return text(name).splitlines()


check(text("setB.rc").strip() == "0", f"print -f recB exited {text('setB.rc').strip()}: "
      f"{text('setB.err')[-300:]}")
first_b, end_b, held_b = {}, {}, {}
for path in filesB:
    for sec in read_log(path)[1]:
        first_b.setdefault(sec["cpu"], sec["seq_start"])
        end_b[sec["cpu"]] = sec["seq_end"]
        held_b[sec["cpu"]] = held_b.get(sec["cpu"], 0) + len(sec["recs"])
want_lost = sum(end_b[c] - first_b[c] - held_b[c] for c in held_b)
check(len(lines_of("setB.txt")) == sum(held_b.values()),
      f"B as one trace printed {len(lines_of('setB.txt'))} records, its files hold "
      f"{sum(held_b.values())}")
m = re.search(r"^total +(\d+) records of (\d+) CPUs, (\d+) lost$", text("infoB.txt"), re.M)
check(m is not None and int(m.group(1)) == sum(held_b.values()) and
      int(m.group(3)) == want_lost and want_lost > 0,
      f"B as one trace: info says {m and m.group(0)}, the files hold "
      f"{sum(held_b.values())} records and lose {want_lost}")
check(want_lost == sum(c["lost"] for c in cpusB.values()),
      f"B as one trace loses {want_lost}, lkbuf record reported "
      f"{sum(c['lost'] for c in cpusB.values())}")
check("records lost" in text("setB.err"), "B as one trace: its losses are not reported")

# recD as one trace and the snapshot after it print the same records where
# both have them: per CPU, from the later of their first records on.
check(text("recD.rc").strip() == "0", f"record D exited {text('recD.rc').strip()}")
filesD = sorted(glob.glob(os.path.join(d, "recD", "lkst-*.log")))
check(len(filesD) > 1, f"D: {len(filesD)} files; rotation not exercised")
check(text("setD.rc").strip() == "0", f"print -f recD exited {text('setD.rc').strip()}: "
      f"{text('setD.err')[-300:]}")


def by_cpu_from(lines, start):
    """The lines whose CPU's start time (start[cpu]) they do not precede."""
    out = []
    for line in lines:
        lm = LINE.match(line)
        if lm and float(lm.group(1)) >= start.get(int(lm.group(2)), float("inf")):
            out.append(line)
    return out


def firsts(lines):
    f = {}
    for line in lines:
        lm = LINE.match(line)
        if lm:
            f.setdefault(int(lm.group(2)), float(lm.group(1)))
    return f


set_lines, snap_lines = lines_of("setD.txt"), lines_of("snapD.txt")
fs, fn = firsts(set_lines), firsts(snap_lines)
start = {c: max(fs[c], fn[c]) for c in fs if c in fn}
common_set, common_snap = by_cpu_from(set_lines, start), by_cpu_from(snap_lines, start)
check(len(common_set) > 1000, f"D: recording and snapshot share only {len(common_set)} records")
check(common_set == common_snap,
      f"D: the recording read as one trace and the snapshot differ where both hold records: "
      f"{len(common_set)} and {len(common_snap)} lines, first difference at "
      f"{next((i for i, (a, b) in enumerate(zip(common_set, common_snap)) if a != b), None)}")
sel = lines_of("setDsel.txt")
check(len(sel) > 0 and all(" SYSCALL_ENTRY " in x for x in sel) and
      len(sel) == sum(1 for x in set_lines if " SYSCALL_ENTRY " in x),
      f"D: -c 0-1 -e SYSCALL_ENTRY over the set selected {len(sel)} lines")

# zstd: the same snapshot from a .zst file, from standard output through
# standard input, and piped, prints exactly as the plain one.
for name in ("snapD.log.zst", "snapD.stdout.zst", "snapD.forced"):
    with open(os.path.join(d, name), "rb") as f:
        check(f.read(4) == b"\x28\xb5\x2f\xfd", f"{name} is not zstd")
for name in ("snapDz", "snapDs", "snapDp", "snapDf"):
    check(text(name + ".txt") == text("snapD.txt") and text(name + ".err") == text("snapD.err"),
          f"{name}: a zstd snapshot prints differently from the plain one")
plain = os.path.getsize(os.path.join(d, "snapD.log"))
packed = os.path.getsize(os.path.join(d, "snapD.log.zst"))
print(f"t94: zstd: {plain} bytes of log in {packed} ({plain / packed:.1f}x)")
check(packed * 2 < plain, f"zstd: {plain} bytes compressed only to {packed}")
done()
