"""lkbuf record -e ... -- COMMAND: the log holds exactly the command's
system calls and marks carrying its pid from exec to exit, named by the
task names the log saved (print, -n); only the chosen events are recorded; the previous maskset is active again and the private
one gone after a normal end, SIGINT, a command exiting 3 and one that
cannot run (exit 130, 3, 127); a second recorder is refused and changes
nothing while the first completes; -d ends the recording by itself;
--filter keeps only matching events and its predicate is removed."""
import os
import re
import sys

from lkstcheck import (EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT, EV_USER_MARK,
                       NR_LSEEK, check, done, read_csv)

d = sys.argv[1]
LSEEKS, BAD_FD = 1234, 1234


def text(name):
    path = os.path.join(d, name)
    if not os.path.exists(path):
        check(False, f"{name} missing")
        return ""
    with open(path) as f:
        return f.read()


def rc(name):
    return text(name + ".rc").strip()


def csv(name):
    path = os.path.join(d, name)
    return read_csv(path) if os.path.exists(path) else check(False, f"{name} missing") or []


def marks(rows):
    return [r["arg1"] for r in rows if r["id"] == EV_USER_MARK]


def command_pid(name, rows, prog, end):
    """The pid of the exec mark, after checking the exit mark says end."""
    ms = marks(rows)
    execs = [m for m in ms if m.startswith("lkbuf record: exec pid ")]
    check(len(execs) == 1 and execs[0].endswith(": " + prog),
          f"{name}: exec marks {execs}, want one for {prog}")
    if not execs:
        return None
    pid = int(re.match(r"lkbuf record: exec pid (\d+):", execs[0]).group(1))
    want = f"lkbuf record: exit pid {pid} {end}"
    check(want in ms, f"{name}: no mark '{want}' in {ms}")
    return pid


# Masksets: the same list after every recording as before; during one, the
# recorder's own maskset is the active one.
before = text("ms_before.txt")
check("RDEFAULT                        system,active" in before,
      f"rdefault not active before: {before}")
for n in range(1, 7):
    check(text(f"ms_after{n}.txt") == before,
          f"masksets after recording {n} differ from before:\n{text(f'ms_after{n}.txt')}")
during = text("ms_during.txt")
check(re.search(r"^\d+ +lkbuf-record-\d+ +active ", during, re.M) and
      "system,active" not in during, f"the private maskset was not active:\n{during}")

# (1) Exactly the command's lseek() entries and exits.
check(rc("one") == "0", f"record one exited {rc('one')}")
rows = csv("one.csv")
raw = csv("one.raw.csv")
pid = command_pid("one", rows, "lkst_syscalls", "status 0")
m = re.match(r"pid (\d+) devnull", text("one.out"))
check(m and pid is not None and int(m.group(1)) == pid,
      f"the mark's pid {pid} is not the command's ({text('one.out').strip()})")
entries = [r for r in raw if r["id"] == EV_SYSCALL_ENTRY and r["pid"] == pid and
           r["arg1"] & 0xffffffff == NR_LSEEK]
exits = [r for r in raw if r["id"] == EV_SYSCALL_EXIT and r["pid"] == pid and
         r["arg1"] & 0xffffffff == NR_LSEEK]
check(len(entries) == LSEEKS and all(r["arg2"] == BAD_FD for r in entries),
      f"one: {len(entries)} lseek entries of pid {pid}, want {LSEEKS}")
check(len(exits) == LSEEKS, f"one: {len(exits)} lseek exits of pid {pid}, want {LSEEKS}")
names = {r["event"] for r in rows}
check(names and all(n.startswith("SYSCALL_") or n == "USER_MARK" for n in names),
      f"one: events outside -e 'SYSCALL_*': {sorted(names)}")
# The command runs between its two marks.
mtime = {r["arg1"].split(" pid ")[0]: int(r["time"]) for r in rows if r["id"] == EV_USER_MARK}
ptimes = [int(r["time"]) for r in raw if r["pid"] == pid]
check(ptimes and mtime.get("lkbuf record: exec", 1 << 64) < min(ptimes) and
      max(ptimes) < mtime.get("lkbuf record: exit", 0),
      "one: the command's records are not between its exec and exit marks")

# (2) Task names saved with the log: the command's records print with its
# name, and -n NAME selects exactly them, in a log without scheduler events.
named = [ln.split() for ln in text("one.txt").splitlines() if ln.strip()]
mine = [f for f in named if len(f) > 3 and f[2] == str(pid)]
check(mine and all(f[3] == "lkst_syscalls" for f in mine),
      f"one: the command's records print as {sorted({f[3] for f in mine})}, want lkst_syscalls")
check(len(mine) == len([r for r in raw if r["pid"] == pid]),
      f"one: {len(mine)} text lines of pid {pid}, the CSV has "
      f"{len([r for r in raw if r['pid'] == pid])}")
sel = csv("one.n.csv")
check(sel and [(r["time"], r["cpu"]) for r in sel] ==
      [(r["time"], r["cpu"]) for r in rows if r["pid"] == pid],
      f"one: print -n lkst_syscalls gave {len(sel)} records, the command has "
      f"{len([r for r in rows if r['pid'] == pid])}")
check(re.search(r"^tasks +[1-9]\d* names saved$", text("one.info"), re.M),
      f"one: lkbuf info does not count saved names:\n{text('one.info')}")

# (3) SIGINT: passed on to the command; a failing command; a missing one.
check(rc("int") == "130", f"record int exited {rc('int')}, want 130 (128 + SIGINT)")
command_pid("int", csv("int.csv"), "sleep", "signal 2")
check(rc("three") == "3", f"record three exited {rc('three')}, want the command's 3")
command_pid("three", csv("three.csv"), "sh", "status 3")
check(rc("nocmd") == "127", f"record nocmd exited {rc('nocmd')}, want 127")
check("lkbuf: cannot execute /no/such/prog: No such file or directory" in text("nocmd.err"),
      f"nocmd: no clear message: {text('nocmd.err')}")
command_pid("nocmd", csv("nocmd.csv"), "/no/such/prog", "cannot exec")

# (4) A second recorder: refused, nothing changed, the first one complete.
check(rc("second") == "2", f"second recorder exited {rc('second')}, want 2")
check("another lkbuf record is running" in text("second.err"),
      f"second recorder: {text('second.err')}")
check(not os.path.exists(os.path.join(d, "second.exists")), "the refused recorder wrote a log")
check(text("ms_second.txt") == text("ms_first.txt"),
      "the refused recorder changed the masksets")
check(rc("first") == "0", f"first recorder exited {rc('first')}")
command_pid("first", csv("first.csv"), "sleep", "status 0")

# (5) -d: ended by itself, with the mark made during it and not the one after.
check(rc("dur") == "0", f"record -d exited {rc('dur')}")
check(not os.path.exists(os.path.join(d, "dur.killed")), "record -d 3 was still running after 60 s")
dm = marks(csv("dur.csv"))
check("during-the-duration" in dm and "after-the-duration" not in dm,
      f"record -d: marks {dm}")

# --filter: only lseek() entries (arg1 == 8) reach the log; predicate removed.
check(rc("filt") == "0", f"record --filter exited {rc('filt')}")
m = re.match(r"pid (\d+) devnull", text("filt.out"))
fpid = int(m.group(1)) if m else None
fraw = csv("filt.raw.csv")
fent = [r for r in fraw if r["id"] == EV_SYSCALL_ENTRY]
check(fent and all(r["arg1"] == NR_LSEEK for r in fent),
      f"--filter 'arg1 == 8' let other calls through: {sorted({r['arg1'] for r in fent})}")
check(len([r for r in fent if r["pid"] == fpid]) == 40,
      f"--filter: {len([r for r in fent if r['pid'] == fpid])} lseek entries of pid {fpid}, want 40")
check("SYSCALL_ENTRY" not in text("filt.list"), f"predicate left behind:\n{text('filt.list')}")
done()
