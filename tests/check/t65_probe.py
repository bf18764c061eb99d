"""Dynamic probes: exact records of known calls, removal while routed under
load, the IDs reused, and bad input refused with its exit code and errno."""
import csv
import os
import sys

from lkstcheck import check, done, read_log

N = 50
BASE = 7000000
EINVAL = 22
O_RDWR, O_WRONLY, O_CREAT, O_LARGEFILE = 0o2, 0o1, 0o100, 0o100000
AT_FDCWD = -100
CAT_PROBE = 12          # enum lkst_category
EVENT_DYNAMIC = 1

d = sys.argv[1]


def text(name):
    with open(os.path.join(d, name)) as f:
        return f.read()


LIST = """\
0xf0 lseek_in             kprobe: ksys_lseek+0
       arg1 fd=%di:u32
       arg2 off=$arg2:s64
       arg3 whence=$arg3:u32
       arg4 $comm
0xf1 lseek_out            kretprobe: return from ksys_lseek
       arg1 ret=$retval:errno
       arg2 off=$arg2:s64
0xf2 open_how             kprobe: do_sys_openat2+0
       arg1 dfd=$arg1:s32
       arg2 flags=+0($arg3):x64
       arg3 mode=+8($arg3):u64
       arg4 $comm
"""
OPEN_HOW_LIST = LIST[LIST.index("0xf2"):]
EVENTS = """\
0xf0 probe     lseek_in                 kprobe: ksys_lseek+0
       arg1 udec   fd=%di:u32
       arg2 dec    off=$arg2:s64
       arg3 udec   whence=$arg3:u32
       arg4 comm   $comm
0xf1 probe     lseek_out                kretprobe: return from ksys_lseek
       arg1 retval ret=$retval:errno
       arg2 dec    off=$arg2:s64
0xf2 probe     open_how                 kprobe: do_sys_openat2+0
       arg1 dec    dfd=$arg1:s32
       arg2 hex    flags=+0($arg3):x64
       arg3 udec   mode=+8($arg3):u64
       arg4 comm   $comm
"""

# ---- A: the probes as made, listed and routed ----
for name, eid in (("lseek_in", 0xf0), ("lseek_out", 0xf1), ("open_how", 0xf2)):
    got = text(f"add-{name}.txt").strip()
    check(got == f"0x{eid:02x} {name}", f"probe add {name} printed {got!r}")
check(text("list.txt") == LIST, "lkm probe list:\n" + text("list.txt"))
events = text("events.txt")
check(EVENTS in events, "lkm events does not list the probes as expected:\n"
      + events[events.find("0xf0"):])
check(events.index("0xe0 ") < events.index("0xf0 "), "probes not after the static events")
ms30 = text("maskset30.txt").splitlines()
for line in ("0xf0 lseek_in 1 default", "0xf1 lseek_out 1 default",
             "0xf2 open_how 1 default"):
    check(line in ms30, f"maskset 30 lacks '{line}'")

# ---- A: the records of lkst_probeload's calls, by the log's names ----
pid = int(text("prog.txt").split()[1])
rows = list(csv.DictReader(open(os.path.join(d, "probe.csv"), newline="")))
check(all(int(r["pid"]) == pid for r in rows), "print -p left other pids in")
check({r["event"] for r in rows} <= {"lseek_in", "lseek_out", "open_how"},
      f"print -e lseek_in,lseek_out,open_how let in {({r['event'] for r in rows})}")
DESCS = {"lseek_in": ["fd=%di:u32", "off=$arg2:s64", "whence=$arg3:u32", "$comm"],
         "lseek_out": ["ret=$retval:errno", "off=$arg2:s64"],
         "open_how": ["dfd=$arg1:s32", "flags=+0($arg3):x64", "mode=+8($arg3):u64", "$comm"]}
IDS = {"lseek_in": "0xf0", "lseek_out": "0xf1", "open_how": "0xf2"}
for r in rows:
    want = DESCS[r["event"]]
    got = [r[f"arg{i}_desc"] for i in range(1, len(want) + 1)]
    if not check(got == want and r["id"] == IDS[r["event"]],
                 f"{r['event']} record: id {r['id']}, descriptions {got}"):
        break


# Hit through their int3 (not optimized): still the probed task's context.
kprobes = text("kprobes-list.txt")
check("ksys_lseek+0x0" in kprobes and "OPTIMIZED" not in kprobes and "FTRACE" not in kprobes,
      "the probes were not left on int3:\n" + kprobes)
contexts = {(r["event"], r["context"]) for r in rows}
check(contexts == {("lseek_in", "task"), ("lseek_out", "task"), ("open_how", "task")},
      f"probe records' contexts (event, context): {sorted(contexts)}, expected task")


def args(event, n):
    return [tuple(r[f"arg{i}"] for i in range(1, n + 1)) for r in rows if r["event"] == event]


lin = args("lseek_in", 4)
want = []
for i in range(N):
    want.append(("3", str(BASE + i), "0", "lkst_probeload"))
    want.append(("3", str(-(i + 1)), "42", "lkst_probeload"))
check(len(lin) == 2 * N, f"lseek_in: {len(lin)} records of pid {pid}, expected {2 * N}")
check(lin == want, f"lseek_in records differ; first ones: {lin[:4]}")
lout = args("lseek_out", 2)
want = []
for i in range(N):
    want.append((str(BASE + i), str(BASE + i)))
    want.append((str(-EINVAL), str(-(i + 1))))
check(len(lout) == 2 * N, f"lseek_out: {len(lout)} records of pid {pid}, expected {2 * N}")
check(lout == want, f"lseek_out records differ; first ones: {lout[:4]}")
# The shell's redirection opens prog.txt as pid too, before the exec.
opens = [a for a in args("open_how", 4) if a[3] == "lkst_probeload"]
want = [(str(AT_FDCWD), hex(O_RDWR | O_CREAT | O_LARGEFILE), str(0o600), "lkst_probeload")]
want += [(str(AT_FDCWD), hex(O_WRONLY | O_CREAT | O_LARGEFILE), str(0o640 + i % 8),
          "lkst_probeload") for i in range(N)]
check(len(opens) == N + 1, f"open_how: {len(opens)} records of lkst_probeload, expected {N + 1}")
check(opens == want, f"open_how records differ; first ones: {opens[:3]}")

# Raw CSV: the same records, the values as the kernel fetched them.
raw = [r for r in csv.DictReader(open(os.path.join(d, "probe-raw.csv"), newline=""))
       if r["event"] == "lseek_in"]
check(len(raw) == 2 * N and raw[0]["arg2"] == hex(BASE) and raw[1]["arg2"] == hex((1 << 64) - 1),
      f"raw lseek_in: {len(raw)} records, first {raw[:2]}")
check(all(int(r["arg4"], 16) == int.from_bytes(b"lkst_pro", "little") and
          int(r["arg5"], 16) == int.from_bytes(b"beload\0\0", "little") for r in raw),
      "raw $comm words are not 'lkst_probeload'")
txt = text("probe.txt")
check("lseek_out ret=-22(EINVAL) off=-1" in txt,
      "text print does not name the EINVAL return")

# The log carries its own table with the probes.
info, _ = read_log(os.path.join(d, "probe.log"))
check(info["version"] >= 3, f"log version {info['version']}")
tab = info.get("events", {})
for name, eid in (("lseek_in", 0xf0), ("lseek_out", 0xf1), ("open_how", 0xf2)):
    ev = tab.get(eid)
    check(ev is not None and ev[0] == name and ev[1] == CAT_PROBE and ev[2] == EVENT_DYNAMIC
          and ev[3][:len(DESCS[name])] == DESCS[name],
          f"the log's table has {ev} for 0x{eid:02x}")

stat = {line.split()[1]: line.split()[2:] for line in text("stat.txt").splitlines()[1:]}
for name in ("lseek_in", "lseek_out"):
    hits, dropped = (int(x) for x in stat.get(name, ["-1", "-1"]))
    check(hits >= 2 * N and dropped == 0, f"lkm stat {name}: hits {hits}, dropped {dropped}")

# ---- B: removed while routed and firing ----
loop = {line.split()[1]: int(line.split()[2]) for line in text("stat-loop-before.txt").splitlines()[1:]}
check(loop.get("lseek_in", 0) > 100 and loop.get("lseek_out", 0) > 100,
      f"the loop's probes did not fire before the removal: {loop}")
check(loop.get("tick", 0) > 0 and loop.get("slept", 0) > 0,
      f"the timer interrupt's or do_nanosleep's probe did not fire: {loop}")
check(text("add-tick.txt").strip() == "0xf3 tick" and text("add-slept.txt").strip() == "0xf4 slept",
      f"tick and slept got {text('add-tick.txt')!r} {text('add-slept.txt')!r}")
check(text("sleeper.txt").strip() == "sleeper exit 0",
      "the task asleep in do_nanosleep when its return probe went: " + text("sleeper.txt"))
ms31 = text("maskset31-after.txt")
check(not any(n in ms31 for n in ("lseek_in", "lseek_out", "tick", "slept")) and not any(
    line.startswith(("0xf0 ", "0xf1 ", "0xf3 ", "0xf4 ")) for line in ms31.splitlines()),
      "maskset 31 still routes a removed probe")
check("0xf2 open_how 1 default" in ms31, "maskset 31 lost open_how, which was not removed")
after = text("events-after.txt")
check("lseek_in" not in after and "lseek_out" not in after and "0xf2 probe     open_how" in after,
      "lkm events after the removal:\n" + after[after.find("0xe2"):])
check(text("list-after.txt") == OPEN_HOW_LIST, "probe list after del:\n" + text("list-after.txt"))
check(text("add-again.txt").strip() == "0xf0 again",
      f"the freed ID was not reused: {text('add-again.txt')!r}")
check(text("list-empty.txt") == "", "probes left after deleting all: " + text("list-empty.txt"))

# ---- C: bad input ----
bad = text("bad.txt")
for part in ("no_such_function_lkst => 2: lkm: probe nofn: no function 'no_such_function_lkst' the kernel can probe (ENOENT)",
             "ksys_lseek+1 => 2: lkm: probe midinsn: the kernel refused ksys_lseek+1",
             "%zz => 1: lkm: fetch argument '%zz': unknown register '%zz'",
             "$retval => 1: lkm: fetch argument '$retval': $retval is only known in a return probe",
             "+8(+8(+8(%di))) => 1: lkm: fetch argument '+8(+8(+8(%di)))': more than 2 dereferences",
             "%di:u12 => 1: lkm: fetch argument '%di:u12': unknown type 'u12'",
             "retoff ksys_lseek+4 => 1: lkm: a return probe is set on the function itself",
             "9bad ksys_lseek => 1: lkm: bad probe name '9bad'",
             "SYSCALL_EXIT ksys_lseek => 2: lkm: probe SYSCALL_EXIT: an event has that name already (EEXIST)",
             "self lkst_kprobe_pre => 2: lkm: probe self: the kernel refused lkst_kprobe_pre+0 or a fetch argument (EINVAL)",
             "del no_such_probe => 2: lkm: no probe 'no_such_probe' (ENOENT)",
             "dup do_sys_openat2 => 2: lkm: probe dup: an event has that name already (EEXIST)",
             "sixteenth ksys_lseek => 2: lkm: probe sixteenth: every probe ID 0xf0-0xfe is taken (ENOSPC)"):
    check(part in bad, f"bad input: no '{part}' in\n{bad}")
check("(EILSEQ)" in bad or "midinsn: the kernel refused ksys_lseek+1 or a fetch argument (EINVAL)" in bad,
      "a probe inside an instruction was not refused with EILSEQ/EINVAL")
full = [line.split() for line in text("list-full.txt").splitlines() if line.startswith("0x")]
check([int(f[0], 16) for f in full] == list(range(0xf0, 0xff)),
      f"15 probes expected when full, got {[f[0] for f in full]}")
check([f[1] for f in full] == ["dup"] + [f"fill{i}" for i in range(2, 16)],
      f"names when full: {[f[1] for f in full]}")
check(text("list-end.txt") == "", "probes left at the end: " + text("list-end.txt"))
done()
