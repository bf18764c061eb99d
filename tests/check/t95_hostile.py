"""Hostile load under RALL (stress-ng or lkst_hostile, a memcg OOM, maskset switches):
every stressor ran, the OOM killer struck, the kernel logged nothing bad,
the log holds records of many categories, and on every CPU every record
written is held in the log or counted overwritten."""
import os
import re
import sys

from lkstcheck import category_of, check, done, read_facts, read_log

d = sys.argv[1]


def path(name):
    return os.path.join(d, name)


def text(name):
    with open(path(name)) as f:
        return f.read()


# ---- stress-ng: each stressor did work, none failed
STRESSORS = {
    "stress-ng.txt": ["fork", "sigq", "kill", "fault", "mmap", "pipe", "futex",
                      "msg", "sem-sysv", "shm-sysv", "timer"],
    "stress-ng-exec.txt": ["exec"],
}
METRIC = re.compile(r"^stress-ng: metrc: \[\d+\] (\S+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s")
rcs = read_facts(path("stress-rc.txt"))
# Without stress-ng in the guest (arm64), lkst_hostile did the same work.
HOSTILE = os.path.exists(path("hostile.txt"))
if HOSTILE:
    out = text("hostile.txt")
    ops = {m[1]: int(m[2]) for m in re.finditer(r"^stressor (\S+) ops (\d+)$", out, re.M)}
    check(rcs.get("hostile_rc") == 0 and "hostile: done" in out,
          f"lkst_hostile exited {rcs.get('hostile_rc')}: {out!r}")
    for s in sum(STRESSORS.values(), []):
        check(ops.get(s, 0) > 0, f"hostile.txt: stressor {s} did no work ({ops.get(s)})")
    print(f"hostile.txt: ops {ops}")
else:
    check(rcs.get("stress_ng_rc") == 0 and rcs.get("stress_ng_exec_rc") == 0,
          f"stress-ng exited non-zero: {rcs}")
for name, wanted in ({} if HOSTILE else STRESSORS).items():
    out = text(name)
    ops = {}
    for line in out.splitlines():
        if "miscellaneous metrics" in line:
            break
        m = METRIC.match(line)
        if m:
            ops[m.group(1)] = int(m.group(2))
    for s in wanted:
        check(ops.get(s, 0) > 0, f"{name}: stressor {s} did no bogo ops ({ops.get(s)})")
    bad = [line for line in out.splitlines()
           if re.match(r"stress-ng: (fail|error):", line) or "failed" in line]
    check(not bad, f"{name}: stress-ng reported failures: {bad[:5]}")
    check("successful run completed" in out, f"{name}: no 'successful run completed'")
    print(f"{name}: bogo ops {ops}")

# ---- the memcg OOM: both victims killed, counted by the cgroup
runs = re.findall(r"^oom_run_rc (\d+)$", text("oom-runs.txt"), re.M)
check(runs == ["0", "0"], f"the OOM runs did not both end in an OOM kill: {runs}")
events = read_facts(path("memory.events.txt"))
check(events.get("oom_kill", 0) >= 2, f"memory.events oom_kill {events.get('oom_kill')} < 2")
print(f"memory.events: {events}")

# ---- the maskset switches happened, none failed
sw = text("switches.txt")
sets = [(int(m), float(t)) for m, t, _end in
        re.findall(r"^set (\d+) ([\d.]+) ([\d.]+)$", sw, re.M)]
took = [float(e) - float(t) for t, e in re.findall(r"^set \d+ ([\d.]+) ([\d.]+)$", sw, re.M)]
check({m for m, _t in sets} >= {0, 1, 2, 25},
      f"not every maskset was switched to (RNOTHING, RDEFAULT, RALL, 25): {sets}")
check("switch_failed" not in sw, f"maskset switches failed: {sw!r}")
if len(sets) > 1:
    print(f"{len(sets)} maskset switches, one every "
          f"{(sets[-1][1] - sets[0][1]) / (len(sets) - 1):.2f} s; `lkm set` took "
          f"{min(took):.2f}-{max(took):.2f} s")

# ---- the kernel log of the scenario: nothing but OOM reports
bad = re.compile(r"BUG:|WARNING:|Oops|general protection fault|lockdep|"
                 r"possible recursive locking|circular locking|inconsistent lock state|"
                 r"KASAN|UBSAN|Call Trace:|scheduling while atomic|"
                 r"sleeping function called from invalid context|\bstall|"
                 r"blocked for more than")
log = text("dmesg.txt").splitlines()
check(log and "lkst-t95" in log[0], "dmesg.txt does not start at the scenario's marker")
check(any("invoked oom-killer" in line for line in log), "no OOM report in dmesg.txt")
in_report = False
for line in log:
    if "invoked oom-killer" in line:
        in_report = True
    if bad.search(line) and not (in_report and "Call Trace:" in line):
        check(False, f"kernel log during the load: {line}")
    if "Killed process" in line:
        in_report = False

# ---- the log after the load: many categories
_hdr, after = read_log(path("after.log"))
_hdr, before = read_log(path("before.log"))
cats = {}
for s in after:
    for rec in s["recs"]:
        c = category_of(rec[3])
        cats[c] = cats.get(c, 0) + 1
print(f"records by category: {cats}")
for c in ("process", "interrupt", "exception", "syscall", "memory", "ipc", "timer"):
    check(cats.get(c, 0) > 0, f"no {c} records in after.log")

# ---- accounting: written == held + overwritten on every CPU
# A record is either still held or was counted overwritten; records an
# earlier scenario discarded by resizing or deleting blocks are in neither
# on a kernel that does not count them, so the load is judged against the
# difference already there before it.
def unaccounted(sections):
    return {s["cpu"]: s["written"] - s["overwritten"] - s["records"] for s in sections}


u0, u1 = unaccounted(before), unaccounted(after)
check(set(u0) == set(u1) and u1, f"CPU sections differ: before {sorted(u0)}, after {sorted(u1)}")
total = 0
for s in after:
    cpu = s["cpu"]
    b = next((x for x in before if x["cpu"] == cpu), None)
    diff = u1[cpu] - (u0.get(cpu, 0))
    total += diff
    print(f"cpu{cpu}: written {s['written']} overwritten {s['overwritten']} held {s['records']} "
          f"dropped {s['dropped']} (during the load {s['dropped'] - b['dropped'] if b else '?'}) seq [{s['seq_start']}, {s['seq_end']}) lost {s['lost']}; "
          f"unaccounted {u1[cpu]} (before the load {u0.get(cpu)})")
    check(diff == 0, f"cpu{cpu}: {diff} records written during the load neither held nor "
                     f"counted overwritten")
    check(s["records"] + s["lost"] == s["seq_end"] - s["seq_start"],
          f"cpu{cpu}: records + lost != seq_end - seq_start")
    # Every sequence number handed out during the load was committed.
    check(b is not None and s["seq_end"] - s["written"] == b["seq_end"] - b["written"],
          f"cpu{cpu}: sequence numbers taken during the load != records written")
    check(b is not None and s["written"] - b["written"] > s["records"] and
          s["overwritten"] > b["overwritten"], f"cpu{cpu}: the load did not wrap the buffer")
hard = read_facts(path("hardening.txt"))
check(hard.get("records_unaccounted") == total,
      f"hardening.txt says {hard.get('records_unaccounted')}, the logs {total}")
check(total == 0, f"records_unaccounted {total}")
print(f"records_unaccounted {total} (since boot: {sum(u1.values())})")
done()
