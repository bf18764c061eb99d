"""lkst_filter recorded exactly the events whose predicates held."""
import os
import sys

from lkstcheck import (EV, EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT, EV_USER_MARK,
                       NR_LSEEK, NR_WRITE, check, done, events, read_csv,
                       read_prog, signed64)

d = sys.argv[1]


def text(name):
    with open(os.path.join(d, name)) as f:
        return f.read()


rcs = dict(line.split() for line in text("rc.txt").splitlines())
check(rcs.get("noload") == "2" and "insmod lkst_filter.ko" in text("noload.txt"),
      f"filter without the module: exit {rcs.get('noload')}, {text('noload.txt')!r}")
for name, want in (("badexpr", "1"), ("badevent", "1"), ("badto", "1"),
                   ("badms", "1"), ("rodms", "2")):
    check(rcs.get(name) == want,
          f"{name}: exit {rcs.get(name)}, expected {want}: {text(name + '.txt')!r}")
bad = text("badexpr.txt").splitlines()
check(len(bad) == 3 and "expected a number" in bad[0] and
      bad[1] == "  pid == 12x3 && arg1 == 0" and bad[2] == " " * 11 + "^",
      f"bad expression message: {bad}")
check("read-only system maskset" in text("rodms.txt"), "maskset 0 not refused as read-only")
check(any(line.split()[1:3] == ["filter", "lkst_filter"]
          for line in text("handlers.txt").splitlines()[1:]),
      "lkm handlers does not list filter from lkst_filter")

pid1, _ = read_prog(os.path.join(d, "prog1.txt"))
pid2, _ = read_prog(os.path.join(d, "prog2.txt"))
check(int(text("pid2.txt")) == pid2, "the second workload's pid changed across exec")
rows = read_csv(os.path.join(d, "trace.csv"))

# comm == "lkst_syscalls" && arg1 == 8: every lseek entry of both runs, nothing else.
entries = events(rows, EV_SYSCALL_ENTRY)
others = [r for r in entries if r["pid"] not in (pid1, pid2) or r["arg1"] != NR_LSEEK]
check(not others, f"{len(others)} SYSCALL_ENTRY records fail the predicate, e.g. {others[:2]}")
offs1 = sorted(r["arg3"] - 0x7a10000 for r in entries if r["pid"] == pid1)
offs2 = sorted(r["arg3"] - 0x7a70000 for r in entries if r["pid"] == pid2)
check(offs1 == list(range(20)), f"first run's lseeks: {offs1}")
check(offs2 == list(range(7)), f"second run's lseeks: {offs2}")

# pid == pid2 && arg2 >= 0 (the return value is signed in the table).
exits = events(rows, EV_SYSCALL_EXIT)
wrong = [r for r in exits if r["pid"] != pid2 or signed64(r["arg2"]) < 0]
check(not wrong, f"{len(wrong)} SYSCALL_EXIT records fail the predicate, e.g. {wrong[:2]}")
writes = sorted(r["arg2"] for r in exits if r["arg1"] == NR_WRITE)
# Its "pid P devnull F" line, then the three writes to /dev/null.
want = sorted([len(text("prog2.txt")), 777, 778, 779])
check(writes == want, f"second run's write() exits: {writes}, expected {want}")
check(not [r for r in exits if r["arg1"] == NR_LSEEK], "a failed lseek() exit was recorded")
check(len(exits) > 3, "the second run's other successful calls are missing")

cg = text("cgroup.txt").strip()
marks = events(rows, EV_USER_MARK)
if cg != "none":
    first = marks[0]["arg1"].to_bytes(8, "little") if marks else b""
    check(len(marks) == 1 and first == b"inside t",
          f"cgroup {cg}: marks recorded {[(m['pid'], m['arg1']) for m in marks]}")
else:
    print("cgroup2 could not be mounted: the cgroup predicate was not tried")
    check(not marks, "marks recorded without a predicate")


def listing(name):
    """{event: (to, tested, passed, predicate)} from lkm filter --list."""
    out = {}
    lines = text(name).splitlines()
    check(lines and lines[0].split()[:4] == ["EVENT", "TO", "TESTED", "PASSED"],
          f"{name}: header {lines[:1]}")
    for line in lines[1:]:
        f = line.split(None, 4)
        out[f[0]] = (f[1], int(f[2]), int(f[3]), f[4])
    return out


before = listing("filters.txt")
check(before.get("SYSCALL_ENTRY", ("",) * 4)[::3] ==
      ("default", f'comm == "lkst_syscalls" && arg1 == {NR_LSEEK}'),
      f"listed SYSCALL_ENTRY predicate: {before.get('SYSCALL_ENTRY')}")
check(before.get("SYSCALL_EXIT", ("",) * 4)[3] == f"pid == {pid2} && arg2 >= 0",
      f"listed SYSCALL_EXIT predicate: {before.get('SYSCALL_EXIT')}")
after = listing("filters-after.txt")
to, tested, passed, _ = after.get("SYSCALL_ENTRY", ("", 0, 0, ""))
check(passed == 27 and tested > passed,
      f"SYSCALL_ENTRY counters: tested {tested} passed {passed}, expected 27 passed of more")
to, tested, passed, _ = after.get("SYSCALL_EXIT", ("", 0, 0, ""))
check(passed == len(exits) and tested > passed,
      f"SYSCALL_EXIT counters: tested {tested} passed {passed}, {len(exits)} recorded")

# After --clear SYSCALL_ENTRY: the third run's entries are not recorded.
pid3, _ = read_prog(os.path.join(d, "prog3.txt"))
cleared = read_csv(os.path.join(d, "cleared.csv"))
check(not [r for r in events(cleared, EV_SYSCALL_ENTRY) if r["pid"] == pid3],
      "SYSCALL_ENTRY recorded after its predicate was cleared")
check(len(events(cleared, EV_SYSCALL_ENTRY)) == 27, "entries lost by clearing")
check("SYSCALL_ENTRY" not in listing("filters-cleared.txt"),
      "the cleared predicate is still listed")
check("SYSCALL_EXIT" in listing("filters-cleared.txt"),
      "clearing one event removed the other's predicate")
check(os.path.getsize(os.path.join(d, "list-after.txt")) > 0, "lkm list after rmmod")
done()
