"""lkbuf report of a log against lkm agg's live aggregations of the same
events (t66_report.sh), no record lost: equal counts by event, CPU, pid,
system call and (pid, system call) and equal numbers of syscall, sched and
irq latency samples per key; the report's latency buckets exactly those
of the pairs the records make (redone here) and exactly the live ones
(lkst_agg's agg-record times each event by its record's time).  lkbuf print --where selects what the same predicate,
evaluated here, selects from the unfiltered CSV."""
import csv
import os
import struct
import sys

from lkstcheck import (EV, EVENTS, EV_CONTEXTSWITCH, EV_SYSCALL_EXIT, EV_WAKEUP,
                       check, done, read_csv, read_log, read_log_cpus, signed64)

d = sys.argv[1]
HEADER = ["aggregation", "function", "key1", "key2", "key3", "count", "sum",
          "min", "max", "value", "bucket_min", "bucket_max", "bucket_count"]
# lkm agg's live aggregation -> the report's section of the same numbers.
PAIRS = {"byev": "events", "bycpu": "cpus", "bysys": "syscalls",
         "bypidsys": "task_syscalls", "slat": "syscall_lat",
         "sched": "sched_lat", "irq": "irq_lat"}
ROUTED = {"SYSCALL_ENTRY", "SYSCALL_EXIT", "PROCESS_CONTEXTSWITCH",
          "PROCESS_WAKEUP", "PROCESS_WAKEUP_NEW", "INT_HARDWARE_ENTRY",
          "INT_HARDWARE_EXIT"}
SIGNED = {"DEC", "RETVAL", "SYSNR"}
TYPES = {e["id"]: [t for t, _ in e["args"]] for e in EVENTS}


def path(name):
    return os.path.join(d, name)


def read_agg(name):
    """{aggregation: {(key1, key2, key3): {count, sum, min, max, value, buckets}}}"""
    aggs = {}
    with open(path(name), newline="") as f:
        reader = csv.DictReader(f)
        check(reader.fieldnames == HEADER, f"{name}: CSV header {reader.fieldnames}")
        for row in reader:
            key = (row["key1"], row["key2"], row["key3"])
            e = aggs.setdefault(row["aggregation"], {}).setdefault(key, {
                "count": int(row["count"]), "sum": int(row["sum"]),
                "min": int(row["min"]), "max": int(row["max"]),
                "value": row["value"], "buckets": {}})
            if row["bucket_count"]:
                b = (int(row["bucket_min"]), int(row["bucket_max"]))
                e["buckets"][b] = int(row["bucket_count"])
    return aggs


def arg(r, i):
    v = r.get(f"arg{i}")
    return v if isinstance(v, int) else 0


# 1. The comparison is void unless the log holds every event the handler saw.
for cpu, s in read_log_cpus(path("trace.log")).items():
    check(s["lost"] == 0, f"cpu{cpu}: {s['lost']} records lost in the log")
    check(s["records"] == s["seq_end"] - s["seq_start"],
          f"cpu{cpu}: {s['records']} records for sequence numbers {s['seq_start']}..{s['seq_end']}")
with open(path("list.txt")) as f:
    rows = [line.split() for line in f][1:]
for w in rows:
    check(w[3:9] == ["0"] * 6 or (w[0] == "slat" and w[3] == "0" and w[5:9] == ["0"] * 4),
          f"lkm agg list: {w[0]} lost samples: {' '.join(w[3:9])}")
before = {}
for name in ("dropped-before.txt", "dropped-after.txt"):
    with open(path(name)) as f:
        before[name] = f.read().split()
check(before["dropped-before.txt"] == before["dropped-after.txt"],
      f"events dropped while tracing: {before}")

# 2. The same numbers, live and offline.
live = read_agg("agg.csv")
rep = read_agg("report.csv")
trace = read_csv(path("trace.csv"))
check({r["event"] for r in trace} <= ROUTED,
      f"the log holds events not routed to agg-record: {({r['event'] for r in trace} - ROUTED)}")
def bucket(v):
    """lkst_agg_bucket()'s range of a latency (never negative)."""
    return (0, 0) if v == 0 else (1 << (v.bit_length() - 1), (1 << v.bit_length()) - 1)


def latencies(rows):
    """{section: {key: {bucket: count}}}: handlers/lkst_agg_hook.c's pairing,
    redone here from the records in the log's order."""
    out = {"syscall_lat": {}, "sched_lat": {}, "irq_lat": {}}
    sys_starts, sched_starts, irq_starts = {}, {}, {}

    def add(section, key, lat):
        if lat >= 0:
            h = out[section].setdefault((str(key), "", ""), {})
            h[bucket(lat)] = h.get(bucket(lat), 0) + 1

    for r in rows:
        ev, pid, t = r["event"], r["pid"], int(r["time"])
        if ev == "SYSCALL_ENTRY":
            nr, abi = arg(r, 1) & 0xffffffff, arg(r, 1) >> 32
            noreturn = (abi == 0 and nr in (60, 231)) or (abi == 1 and nr in (1, 252))
            if pid and not noreturn:
                sys_starts[pid] = (t, arg(r, 1))
        elif ev == "SYSCALL_EXIT" and pid in sys_starts:
            t0, nr = sys_starts.pop(pid)
            if nr == arg(r, 1) or arg(r, 1) & 0xffffffff == 0xffffffff:
                add("syscall_lat", pid, t - t0)
        elif ev == "PROCESS_CONTEXTSWITCH":
            if arg(r, 3) == 0:
                sched_starts.pop(arg(r, 1), None)
            if arg(r, 2) in sched_starts:
                add("sched_lat", arg(r, 2), t - sched_starts.pop(arg(r, 2)))
        elif ev in ("PROCESS_WAKEUP", "PROCESS_WAKEUP_NEW"):
            if arg(r, 1) and not (ev == "PROCESS_WAKEUP" and arg(r, 1) == pid):
                sched_starts[arg(r, 1)] = t
        elif ev == "INT_HARDWARE_ENTRY":
            irq_starts[(r["cpu"], r["context"])] = (t, arg(r, 1), arg(r, 2))
        elif ev == "INT_HARDWARE_EXIT":
            s = irq_starts.get((r["cpu"], r["context"]))
            if s and s[1] == arg(r, 1) and s[2] == arg(r, 3):
                del irq_starts[(r["cpu"], r["context"])]
                add("irq_lat", arg(r, 1), t - s[0])
    return out


# The report's latencies are exactly the pairs the records make ...
redone = latencies(trace)
for s in ("syscall_lat", "sched_lat", "irq_lat"):
    got = {k: v["buckets"] for k, v in rep.get(s, {}).items()}
    check(got == redone[s] and got, f"report {s}: {got}, from the records {redone[s]}")
# ... and equal to the live ones, key by key, bucket by bucket: the
# agg-record handler measures each event at the time its record carries.
for a, s in PAIRS.items():
    check(a in live and live[a], f"lkm agg {a}: no entries")
    check(s in rep, f"report: no section {s}")
    la, rs = live.get(a, {}), rep.get(s, {})
    for key in sorted(set(la) | set(rs)):
        l, r = la.get(key), rs.get(key)
        check(l is not None and r is not None and l == r,
              f"{a}/{s} key {key}: live {l}, report {r}")
# tasks: by pid and comm, the live table by pid only.
bypid = {}
for (pid, _comm, _), r in rep.get("tasks", {}).items():
    bypid[pid] = bypid.get(pid, 0) + r["count"]
check(bypid == {k[0]: v["count"] for k, v in live.get("bypid", {}).items()},
      f"tasks by pid: report {bypid}")
check(sum(v["count"] for v in rep["events"].values()) == len(trace),
      "report events do not add up to the log's records")

# 3. errors: lkst_aggload's lseeks on a bad fd, each EBADF.
prog = {"lseek": 0}
with open(path("writes.txt")) as f:
    for line in f:
        w = line.split()
        if w[0] == "lseek":
            prog["lseek"] += int(w[2])
        elif w[0] == "pid":
            prog["pid"] = int(w[1])
errs = rep.get("errors", {})
ebadf = [v["count"] for k, v in errs.items() if k[0] in ("lseek", "8") and k[1] == "-9"]
check(ebadf and ebadf[0] >= prog["lseek"] > 0,
      f"errors: lseek EBADF {ebadf}, lkst_aggload made {prog['lseek']}")
sec = read_agg("report-sections.csv")
check(set(sec) == {"syscalls", "errors"} and sec["errors"] == errs,
      f"--section syscalls,errors gave {sorted(sec)}")

# 4. --where, evaluated here as the kernel's lkst_filter would; a pid is
# named by the log's saved task names until a record names it.
names = {pid: comm.encode() for pid, (_tgid, comm) in
         read_log(path("trace.log"))[0].get("tasks", {}).items()}
comm_of = []
for r in trace:
    if r["id"] == EV_CONTEXTSWITCH:
        names[r["arg2"]] = struct.pack("<QQ", r["arg5"], r["arg6"]).rstrip(b"\0")
    elif r["id"] == EV_WAKEUP:
        names[r["arg1"]] = struct.pack("<QQ", r["arg5"], r["arg6"]).rstrip(b"\0")
    comm_of.append(names.get(r["pid"], b""))
CTX = {"task": 0, "softirq": 1, "irq": 2, "nmi": 3}


def value(r, i, v):
    """Argument i as lkst_filter compares it with v: signed when the
    event's table says so or v is negative."""
    t = TYPES[r["id"]]
    signed = (len(t) >= i and t[i - 1] in SIGNED) or v < 0
    return signed64(arg(r, i)) if signed else arg(r, i)


def selected(name):
    with open(path(name), newline="") as f:
        return [(r["time"], r["cpu"], r["event"]) for r in csv.DictReader(f)]


def key(r):
    return (str(r["time"]), str(r["cpu"]), r["event"])


want1 = [key(r) for r in trace
         if arg(r, 1) == 8 or (r["cpu"] == 1 and CTX[r["context"]] != 0)]
want2 = [key(r) for r, c in zip(trace, comm_of)
         if c == b"rsleep" and value(r, 1, 35) >= 35 and not value(r, 2, 0) < 0]
got1, got2 = selected("where1.csv"), selected("where2.csv")
check(got1 == want1 and want1, f"--where 1: {len(got1)} records, want {len(want1)}")
check(got2 == want2 and want2, f"--where 2: {len(got2)} records, want {len(want2)}")
sleeps = {}
for r, c in zip(trace, comm_of):
    if c.startswith(b"rsl"):
        sleeps[r["event"]] = sleeps.get(r["event"], 0) + 1
rw = read_agg("report-where.csv")
check(sleeps and {k[0]: v["count"] for k, v in rw.get("events", {}).items()} == sleeps,
      f"report --where comm: {rw.get('events')}, want {sleeps}")
with open(path("where-tgid.txt")) as f:
    check("tgid is not in a log" in f.read(), "--where tgid: no clear refusal")
with open(path("section-bad.txt")) as f:
    check("unknown section 'bogus'" in f.read(), "--section bogus: no clear refusal")
done()
