"""In-kernel aggregations (lkst_agg.ko, lkm agg) of workloads with known
system calls: exact counts, sums, min, max, avg and quantize buckets;
plausible latencies; clear; pass-on to DEFAULT; refused bad input; rmmod
while routed."""
import csv
import os
import re
import sys

from lkstcheck import (ARCH, EV, EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT, NR_GETPPID,
                       NR_LSEEK, NR_WRITE, check, done, events, read_csv, sysnr)

d = sys.argv[1]
NR_NANOSLEEP = sysnr(35, 101)
NR_PRCTL = sysnr(157, 167)
NR_EXIT_GROUP = sysnr(231, 94)


def K(nr):
    """An aggregation's syscall key: the number without its ABI (arm64's
    is in the high 32 bits of records, x86-64's is 0)."""
    return nr & 0xffffffff
NS_MS = 1000000


def path(name):
    return os.path.join(d, name)


def read_prog(name):
    """lkst_aggload writes' header: pid, getppid count, lseek and write tables."""
    prog = {"lseek": [], "write": []}
    with open(path(name)) as f:
        for line in f:
            w = line.split()
            if w[0] in ("lseek", "write"):
                prog[w[0]].append((int(w[1]), int(w[2])))
            elif w[0] in ("pid", "getppid"):
                prog[w[0]] = int(w[1])
    return prog


def read_agg(name):
    """{aggregation: {(key1, key2, key3): row}} of `lkm agg print -C`."""
    aggs = {}
    with open(path(name), newline="") as f:
        reader = csv.DictReader(f)
        check(reader.fieldnames == ["aggregation", "function", "key1", "key2",
                                    "key3", "count", "sum", "min", "max",
                                    "value", "bucket_min", "bucket_max",
                                    "bucket_count"],
              f"{name}: CSV header {reader.fieldnames}")
        for row in reader:
            key = (row["key1"], row["key2"], row["key3"])
            agg = aggs.setdefault(row["aggregation"], {})
            entry = agg.setdefault(key, dict(row, buckets={}))
            if row["bucket_count"]:
                b = (int(row["bucket_min"]), int(row["bucket_max"]))
                check(b not in entry["buckets"], f"{name}: bucket {b} twice")
                entry["buckets"][b] = int(row["bucket_count"])
            else:
                check(row["value"] != "", f"{name}: row without value nor bucket: {row}")
    return aggs


def bucket(v):
    """quantize's bucket of v as (min, max), as handlers/lkst_agg.h says."""
    n = abs(v).bit_length()
    if v >= 0:
        return (0, 0) if n == 0 else (1 << (n - 1), (1 << n) - 1)
    if n == 64:
        return (-(1 << 63), -(1 << 63))
    return (-((1 << n) - 1), -(1 << (n - 1)))


def cdiv(a, b):
    """C's division, truncated toward zero, as avg is."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def value(aggs, agg, key):
    row = aggs.get(agg, {}).get(key)
    return int(row["value"]) if row and row["value"] != "" else None


def rows_of(aggs, agg, key1):
    return {k: r for k, r in aggs.get(agg, {}).items() if k[0] == key1}


def check_writes(aggs, prog, tag):
    """The eight aggregations of lkst_aggload writes -N aggw -c 1."""
    g = prog["getppid"]
    seeks = [v for v, n in prog["lseek"] for _ in range(n)]
    writes = [v for v, n in prog["write"] for _ in range(n)]
    nr = {K(NR_GETPPID): g, K(NR_LSEEK): len(seeks), K(NR_WRITE): len(writes),
          K(NR_EXIT_GROUP): 1}
    got = {int(k[1]): int(r["value"]) for k, r in rows_of(aggs, "calls", "aggw").items()}
    check(got == nr, f"{tag}: calls of aggw by syscall {got}, expected {nr}")
    for values, n in ((writes, NR_WRITE), (seeks, NR_LSEEK)):
        key = ("aggw", str(K(n)), "")
        for agg, want in (("wsum", sum(values)), ("wmin", min(values)),
                          ("wmax", max(values)),
                          ("wavg", cdiv(sum(values), len(values)))):
            check(value(aggs, agg, key) == want,
                  f"{tag}: {agg} of syscall {n}: {value(aggs, agg, key)}, expected {want}")
        row = aggs.get("wq", {}).get(key)
        want = {}
        for v in values:
            want[bucket(v)] = want.get(bucket(v), 0) + 1
        check(row is not None and row["buckets"] == want,
              f"{tag}: wq buckets of syscall {n}: {row and row['buckets']}, expected {want}")
        check(row is not None and (int(row["count"]), int(row["sum"]), int(row["min"]),
                                   int(row["max"])) ==
              (len(values), sum(values), min(values), max(values)),
              f"{tag}: wq's count/sum/min/max of syscall {n}: {row}")
    # Keyed by pid, cpu, syscall: pinned to CPU 1 before the counted calls;
    # before the pinning it wrote its header once (one flush).
    pid = str(prog["pid"])
    bypid = {(k[1], int(k[2])): int(r["value"]) for k, r in rows_of(aggs, "bypid", pid).items()}
    check(bypid.get(("1", K(NR_GETPPID))) == g and bypid.get(("1", K(NR_LSEEK))) == len(seeks)
          and bypid.get(("1", K(NR_EXIT_GROUP))) == 1,
          f"{tag}: bypid of pid {pid}: {bypid}")
    check(sum(v for (c, n), v in bypid.items() if n == K(NR_WRITE)) == len(writes) + 1
          and bypid.get(("1", K(NR_WRITE)), 0) >= len(writes),
          f"{tag}: bypid writes of pid {pid}: {bypid}")
    calls = g + len(seeks) + len(writes)
    byev = {k[0]: int(r["value"]) for k, r in aggs.get("byev", {}).items() if k[1] == "aggw"}
    # Entries: the counted calls and exit_group; exits: prctl's, renamed, and the calls.
    check(byev == {"SYSCALL_ENTRY": calls + 1, "SYSCALL_EXIT": calls + 1},
          f"{tag}: byev of aggw {byev}, expected {calls + 1} each")


# 1. Eight aggregations, one workload.
with open(path("handlers.txt")) as f:
    text = f.read()
    check(re.search(r"\bagg\b", text) and "agg-record" in text,
          "lkm handlers does not list agg and agg-record")
prog1 = read_prog("writes1.txt")
p1 = read_agg("print1.csv")
check(sorted(p1) == sorted(["calls", "wsum", "wmin", "wmax", "wavg", "wq", "bypid", "byev"]),
      f"aggregations printed: {sorted(p1)}")
check_writes(p1, prog1, "first run")
with open(path("list1.txt")) as f:
    lines = f.read().splitlines()
check(len(lines) == 9 and all(line.split()[3] == "0" for line in lines[1:]),
      f"lkm agg list: 8 aggregations, no drops: {lines}")
with open(path("wq1.txt")) as f:
    wq = f.read()
check(re.search(r"^\s+value  ------------- Distribution ------------- count$", wq, re.M)
      and re.search(r"^ {12}4096 \|@{6} {34} 15$", wq, re.M)
      and re.search(r"^ {14}-1 \|@{7} {33} 1$", wq, re.M),
      f"lkm agg print -N wq: no DTrace-style histogram rows:\n{wq}")
with open(path("print1.txt")) as f:
    text = f.read()
# arm64's calls print as numbers: the tools name x86-64's only.
check(re.search(r"^calls: count\(\) by comm, arg1 of SYSCALL_ENTRY$", text, re.M)
      and re.search(r"^  aggw\s+%s\s+100$" % ("64" if ARCH == "aarch64" else "write"),
                    text, re.M),
      "lkm agg print: no 'calls' title or 'aggw write 100' row (the call by name)")

# 2. clear -n calls, clear, and the same workload counted from zero.
c1 = read_agg("cleared-calls.csv")
check("calls" not in c1 and rows_of(c1, "wsum", "aggw"),
      f"after clear -n calls: {sorted(c1)}")
check(read_agg("cleared-all.csv") == {}, "after clear: rows left")
check_writes(read_agg("print2.csv"), read_prog("writes2.txt"), "after clear")

# 3. Latencies.
p3 = read_agg("print3.csv")
with open(path("sleeper.txt")) as f:
    sleeper = int(f.read().split()[1])
row = p3.get("slat", {}).get(("aggs", str(K(NR_NANOSLEEP)), ""))
check(row is not None and int(row["count"]) == 10,
      f"syscall latency of aggs' 10 nanosleeps: {row}")
if row:
    mn, mx = int(row["min"]), int(row["max"])
    check(mn >= 10 * NS_MS and mx < 1000 * NS_MS,
          f"nanosleep(10 ms) latency from {mn} to {mx} ns")
    # Emulation may wake a sleeper late, never early: most in 8M-16M ns.
    check(sum(row["buckets"].values()) == 10 and
          all(lo >= 8 * 1024 * 1024 for lo, _ in row["buckets"]) and
          row["buckets"].get((1 << 23, (1 << 24) - 1), 0) >= 5,
          f"nanosleep(10 ms) latency buckets {row['buckets']}: not mostly in 8M-16M ns")
row = p3.get("slat", {}).get(("aggs", str(K(NR_PRCTL)), ""))
check(row is not None and int(row["count"]) == 1, f"prctl latency of aggs: {row}")
row = p3.get("sched", {}).get(("aggs", "", ""))
check(row is not None and int(row["count"]) == 10 and 0 <= int(row["min"])
      and int(row["max"]) < 1000 * NS_MS,
      f"wakeup latency of aggs (10 wakeups from nanosleep): {row}")
irq = p3.get("irq", {})
check(irq and all(int(r["count"]) > 0 and 0 <= int(r["min"]) and int(r["max"]) < 100 * NS_MS
                  for r in irq.values()),
      f"IRQ handler latencies: {irq}")
irqmax = value(p3, "irqmax", ("", "", ""))
# irqmax is set after irq, while the maskset is active: on arm64 the arch
# timer is an IRQ, whose ticks in between only irq sees (x86's is a vector).
irqs_max = max((int(r["max"]) for r in irq.values()), default=None)
check(irqmax is not None and 0 < irqmax < 100 * NS_MS and irqs_max is not None and
      (irqmax <= irqs_max if ARCH == "aarch64" else irqmax == irqs_max),
      f"max IRQ latency {irqmax} and the irq rows' max disagree")
with open(path("list3.txt")) as f:
    lines = f.read().splitlines()
for line in lines[1:]:
    w = line.split()
    check(w[7] == "0", f"an exit paired with another call's entry: {line}")
# Pass-on: agg-record recorded the sleeper's system calls, agg its switches not.
rows = read_csv(path("trace3.csv"))
nanos = [r for r in events(rows, EV_SYSCALL_ENTRY)
         if r["pid"] == sleeper and r["arg1"] == NR_NANOSLEEP]
exits = [r for r in events(rows, EV_SYSCALL_EXIT)
         if r["pid"] == sleeper and r["arg1"] == NR_NANOSLEEP]
check(len(nanos) == 10 and len(exits) == 10,
      f"agg-record passed on {len(nanos)} nanosleep entries and {len(exits)} exits, not 10")
check(not [r for r in events(rows, EV["PROCESS_CONTEXTSWITCH"]) if r["arg2"] == sleeper]
      and not [r for r in events(rows, EV["PROCESS_WAKEUP"]) if r["arg1"] == sleeper],
      "events routed to agg (not agg-record) were recorded")
with open(path("maskset3.txt")) as f:
    routes = f.read()
check(re.search(r"^0x30 SYSCALL_ENTRY \d+ agg-record$", routes, re.M)
      and re.search(r"^0x31 SYSCALL_EXIT \d+ agg-record$", routes, re.M)
      and re.search(r"^0x01 PROCESS_CONTEXTSWITCH \d+ agg$", routes, re.M)
      and re.search(r"^0x0e PROCESS_WAKEUP_NEW \d+ agg$", routes, re.M)
      and re.search(r"^0x11 INT_HARDWARE_EXIT \d+ agg$", routes, re.M),
      f"maskset routes after the latency sets:\n{routes}")

# 4. Bad input.
with open(path("badinput.txt")) as f:
    bad = f.read()
check("unknown function 'median'" in bad and "unknown key 'color'" in bad
      and "bad size '0'" in bad and "bad size '1000000000'" in bad
      and "already 8 aggregations" in bad and "NO_SUCH_EVENT" in bad,
      f"bad-input messages:\n{bad}")
with open(path("kernel-bad.txt")) as f:
    kbad = f.read()
check("FAIL" not in kbad and re.search(r"^\d+ ok, 0 failed$", kbad, re.M),
      f"the kernel's own checks:\n{kbad}")

# 5. The count by event equals the tracer's hit counter, event by event.
hits = {}
with open(path("stat5.txt")) as f:
    for line in f.read().splitlines()[1:]:
        w = line.split()
        if int(w[2]):
            hits[w[1]] = int(w[2])
ctx = {}
for (ev, cpu, _), r in read_agg("ctx.csv").get("ctx", {}).items():
    ctx[ev] = ctx.get(ev, 0) + int(r["value"])
check(ctx == hits, "count by event differs from lkm stat's hits: " +
      str({e: (ctx.get(e), hits.get(e)) for e in set(ctx) | set(hits)
           if ctx.get(e) != hits.get(e)}))
# lkst.ko on a stock kernel (tests/stock) says at load which events it
# cannot record (docs/stock.md): those are not expected.
console = os.path.join(d, "..", "console.log")
absent = set(re.findall(r"lkst: absent: (\w+)", open(console, errors="replace").read())
             if os.path.exists(console) else [])
for ev in ("SYSCALL_ENTRY", "PROCESS_CONTEXTSWITCH", "PROCESS_WAKEUP",
           "INT_HARDWARE_ENTRY", "INT_VECTOR_ENTRY", "INT_SOFTIRQ_ENTRY",
           "HRTIMER_EXPIRE_ENTRY", "NMI_ENTRY"):
    # NMI_* have x86 sites only (events.def).
    check(ev in absent or ctx.get(ev, 0) > 0 or (ev == "NMI_ENTRY" and ARCH == "aarch64"),
          f"no {ev} counted: task, softirq, hardirq and NMI contexts all expected")
with open(path("list-ctx.txt")) as f:
    lines = f.read().splitlines()
check(len(lines) == 2 and lines[1].split()[3] == "0", f"ctx dropped events: {lines}")

# 6. rmmod while routed, and back.
with open(path("busy.txt")) as f:
    check(re.search(r"^busy: count\(\) by comm", f.read(), re.M), "busy aggregation not printed")
with open(path("handlers-after-rmmod.txt")) as f:
    check(not re.search(r"\bagg", f.read()), "lkm handlers lists agg after rmmod")
check("load it first (insmod lkst_agg.ko)" in bad,
      "lkm agg print without the module does not say to load it")
with open(path("list5.txt")) as f:
    check(len(f.read().splitlines()) == 1, "a reloaded lkst_agg has aggregations")
p5 = read_agg("print5.csv")
prog5 = read_prog("writes5.txt")
got = {int(k[1]): int(r["value"]) for k, r in rows_of(p5, "calls", "aggw").items()}
check(got.get(K(NR_WRITE)) == 100 and got.get(K(NR_GETPPID)) == prog5["getppid"],
      f"after reloading: calls of aggw {got}")
done()
