#!/usr/bin/env python3
"""The benchmark suite's figures (make bench): reads the guest runs in
OUT/{vanilla,lkst}-{icount,wall}/bench_suite/output.txt and OUT/native.txt,
OUT/userland.txt, writes OUT/results.md, OUT/overhead.dat and, with
gnuplot, OUT/overhead.png.  It asserts nothing: a figure that misses its
goal is printed as missed.

A RESULT line of tests/scenarios/bench_suite.sh:
  RESULT KERNEL CONFIG WORKLOAD REP OPS NS_PER_OP LKST_RECORDS
         FTRACE_ENTRIES FTRACE_OVERRUN FTRACE_BYTES [LKST_BYTES]
(for perf and libbpf, the FTRACE_ columns are that peer's records, lost
records and bytes: tools/bench/report_peers.py)
Under -icount shift=0 a guest ns is one executed instruction.

usage: report.py OUT [--no-chart]
"""
import os
import statistics
import subprocess
import sys

import report_peers
import report_bpftrace

WORKLOADS = ["getppid", "pipe", "forkexit", "forkexec", "mmap", "hackbench", "udp"]
LKST_CONFIGS = ["lkst-rdefault", "lkst-rall", "lkst-twins", "ftrace-twins", "both-twins"]

GOALS = {
    "P1": "off: patched kernel under RNOTHING vs pristine, <= 0.5% per workload",
    "P2": "per event: lkst <= 0.5x ftrace on the same events",
    "P4": "always on: RDEFAULT overhead <= 1/3 of ftrace's with the equivalent events",
}
# The native write path's row of OUT/native.txt (tests/host bench) that P3
# is read from, and the write path's goals (issue 35).
NATIVE_ROW = "write mix, 4 MiB ring, counter time"
GOAL_INSTR_PER_EVENT = 100      # a DEFAULT event, getppid's twins (2 and 6 arguments)
GOAL_NATIVE_NS = 10
GOAL_PROLOGUES = 10             # hooked functions whose prologue differs from pristine


def native_ns(out):
    """ns per event of NATIVE_ROW in OUT/native.txt, None without it."""
    try:
        with open(os.path.join(out, "native.txt")) as f:
            for line in f:
                if line.startswith(NATIVE_ROW):
                    return float(line[len(NATIVE_ROW):].split()[0])
    except OSError:
        pass
    return None


def prologues_differing(out):
    """(differing, new) of OUT/hook-cost.txt (tools/bench/hook-cost.py):
    hooked functions of the pristine kernel whose prologue saves more or
    whose frame grew, and out-of-line copies new in the patched one."""
    try:
        with open(os.path.join(out, "hook-cost.txt")) as f:
            rows = [line for line in f if "hooked functions" not in line and line.strip()]
    except OSError:
        return None, None
    new = sum("new function" in r for r in rows)
    return len(rows) - new, new


def goal_rows(out, ic):
    """(goal, figure, verdict) of every write-path and overhead goal."""
    def span(vals, spec, suffix=""):
        vals = [v for v in vals if v is not None]
        if not vals:
            return "not measured"
        lo, hi = min(vals), max(vals)
        return f"{lo:{spec}}{suffix}" if lo == hi else f"{lo:{spec}}{suffix} to {hi:{spec}}{suffix}"

    def met(vals, limit):
        vals = [v for v in vals if v is not None]
        return "not measured" if not vals else ("met" if max(vals) <= limit else "MISSED")

    rows = []
    p1 = list(ic["P1"].values())
    rows.append((GOALS["P1"], span(p1, "+.2f", "%"),
                 met(p1, 0.5)))
    per = ic["P2 lkst"].get("getppid")
    rows.append((f"a DEFAULT event (getppid's twins) <= {GOAL_INSTR_PER_EVENT} instructions",
                 "not measured" if per is None else f"{per:.0f}",
                 met([per], GOAL_INSTR_PER_EVENT)))
    ns = native_ns(out)
    rows.append((f"native write path <= {GOAL_NATIVE_NS} ns ({NATIVE_ROW})",
                 "not measured" if ns is None else f"{ns:.1f} ns",
                 met([ns], GOAL_NATIVE_NS)))
    p2 = list(ic["P2 ratio"].values())
    rows.append((GOALS["P2"], span(p2, ".2f", "x"),
                 met(p2, 0.5)))
    p4 = list(ic["P4"].values())
    rows.append((GOALS["P4"], span(p4, ".2f"),
                 met(p4, 1 / 3)))
    diff, new = prologues_differing(out)
    rows.append((f"at most {GOAL_PROLOGUES} hooked functions whose prologue differs from pristine",
                 "not measured" if diff is None else f"{diff} (and {new} new out-of-line functions)",
                 met([diff], GOAL_PROLOGUES)))
    return rows


class Cell:
    """The repetitions of one (clock, kernel, config, workload)."""

    def __init__(self):
        self.ns, self.lkst, self.ftrace, self.bytes, self.overrun = [], [], [], [], []
        self.lkst_bytes = []

    def add(self, ops, ns, lkst, fentries, foverrun, fbytes, lbytes=None):
        self.ns.append(ns)
        self.lkst.append(lkst / ops)
        self.ftrace.append(fentries / ops)
        self.overrun.append(foverrun)
        self.bytes.append((fbytes, fentries))
        if lbytes is not None:
            self.lkst_bytes.append((lbytes, lkst))

    @property
    def median(self):
        return statistics.median(self.ns)

    @property
    def spread(self):
        """(max - min) / median of the repetitions, in percent."""
        return (max(self.ns) - min(self.ns)) / self.median * 100 if self.median else 0.0

    @property
    def lkst_per_op(self):
        return statistics.median(self.lkst)

    @property
    def ftrace_per_op(self):
        return statistics.median(self.ftrace)

    @property
    def lkst_bytes_per_event(self):
        b = sum(x for x, _ in self.lkst_bytes)
        n = sum(y for _, y in self.lkst_bytes)
        return b / n if n and b > 0 else None

    @property
    def ftrace_bytes_per_event(self):
        b = sum(x for x, _ in self.bytes)
        n = sum(y for _, y in self.bytes)
        return b / n if n else None


def result_lines(path, kernel):
    """The words of each RESULT line of bench_suite's output at path, a
    kernel's; a malformed one is an error."""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split()
            if words[:1] != ["RESULT"]:
                continue
            if len(words) not in (11, 12) or words[1] != kernel:
                raise ValueError(f"{path}:{n}: malformed RESULT line: {line.strip()}")
            yield words


def parse(out):
    """({(clock, kernel, config, workload): Cell}, lkst bytes per record or
    None).  A missing run is skipped; a malformed RESULT line is an error."""
    cells = {}
    for kernel in ("vanilla", "lkst"):
        for clock in ("icount", "wall"):
            path = os.path.join(out, f"{kernel}-{clock}", "bench_suite", "output.txt")
            if not os.path.exists(path):
                continue
            for words in result_lines(path, kernel):
                config, workload, _rep, ops, ns, lk, fe, fo, fb = words[2:11]
                lb = int(words[11]) if len(words) == 12 and kernel == "lkst" else None
                cell = cells.setdefault((clock, kernel, config, workload), Cell())
                cell.add(int(ops), float(ns), int(lk), int(fe), int(fo), int(fb), lb)
    return cells


def figures(cells, clock="icount"):
    """The figures of one clock: {name: {workload: value}}; a value is None
    where a run is missing or nothing was recorded."""
    def get(kernel, config, w):
        return cells.get((clock, kernel, config, w))

    f = {k: {} for k in ("P1", "overhead", "P2 lkst", "P2 ftrace", "P2 ratio", "P4",
                         "vanilla ftrace")}
    for w in WORKLOADS:
        base_v, base_l = get("vanilla", "none", w), get("lkst", "none", w)
        f["P1"][w] = (base_l.median / base_v.median - 1) * 100 if base_v and base_l else None
        vf = get("vanilla", "ftrace-twins", w)
        f["vanilla ftrace"][w] = (vf.median / base_v.median - 1) * 100 if vf and base_v else None
        for c in LKST_CONFIGS:
            cell = get("lkst", c, w)
            f["overhead"][(c, w)] = (cell.median / base_l.median - 1) * 100 \
                if cell and base_l else None
        lt, ft = get("lkst", "lkst-twins", w), get("lkst", "ftrace-twins", w)
        lkst_ev = (lt.median - base_l.median) / lt.lkst_per_op \
            if lt and base_l and lt.lkst_per_op else None
        ftrace_ev = (ft.median - base_l.median) / ft.ftrace_per_op \
            if ft and base_l and ft.ftrace_per_op else None
        f["P2 lkst"][w], f["P2 ftrace"][w] = lkst_ev, ftrace_ev
        f["P2 ratio"][w] = lkst_ev / ftrace_ev if lkst_ev is not None and ftrace_ev else None
        o_rd, o_ft = f["overhead"][("lkst-rdefault", w)], f["overhead"][("ftrace-twins", w)]
        f["P4"][w] = o_rd / o_ft if o_rd is not None and o_ft else None
    return f


def handler_costs(cells, wl, clock="icount"):
    """Instructions per routed event of DEFAULT and of the handler configs,
    against the patched kernel with nothing traced; None where not run."""
    base = cells.get((clock, "lkst", "none", wl))
    rd = cells.get((clock, "lkst", "lkst-rdefault", wl))
    fp = cells.get((clock, "lkst", "filter-pass", wl))
    fd = cells.get((clock, "lkst", "filter-drop", wl))
    ac = cells.get((clock, "lkst", "agg-count", wl))
    ep = cells.get((clock, "lkst", "errpath", wl))   # counts its events' hits
    st = cells.get((clock, "lkst", "stack", wl))

    def per(cell, events_per_op):
        if not cell or not base or not events_per_op:
            return None
        return (cell.median - base.median) / events_per_op

    return {
        "default": per(rd, rd and rd.lkst_per_op),
        "filter-pass": per(fp, fp and fp.lkst_per_op),
        "filter-drop": per(fd, rd and rd.lkst_per_op),
        "agg-count": per(ac, rd and rd.lkst_per_op),
        "errpath": per(ep, ep and ep.lkst_per_op),
        "stack": per(st, rd and rd.lkst_per_op),
    }


def fmt(v, spec=".1f", suffix=""):
    return "n/a" if v is None else f"{v:{spec}}{suffix}"


def verdict(values, ok):
    vals = [v for v in values if v is not None]
    if not vals:
        return "not measured"
    bad = [v for v in vals if not ok(v)]
    return "met on every workload" if not bad else f"MISSED on {len(bad)} of {len(vals)} workloads"


def report(out, cells):
    lines = []
    w = lines.append
    ic = figures(cells, "icount")
    wall = figures(cells, "wall")
    w("# lkst benchmark results")
    w("")
    w("Generated by `make bench` (tools/bench/report.py). Guest figures are medians of the "
      "repetitions; under `-icount shift=0` a guest ns is one executed instruction. "
      "Overheads are against the same kernel with nothing traced; P1 compares the two kernels.")
    w("")
    w("## Goals")
    w("")
    w("| goal | figure | |")
    w("| --- | --- | --- |")
    for goal, figure, verdict_ in goal_rows(out, ic):
        w(f"| {goal} | {figure} | {verdict_} |")
    w("")
    w("## Instructions per operation (icount), nothing traced")
    w("")
    w("| workload | pristine | patched, RNOTHING | P1 (goal <= 0.5%) | spread of repetitions |")
    w("| --- | --- | --- | --- | --- |")
    for wl in WORKLOADS:
        v, l = cells.get(("icount", "vanilla", "none", wl)), cells.get(("icount", "lkst", "none", wl))
        spread = max((c.spread for c in (v, l) if c), default=None)
        w(f"| {wl} | {fmt(v and v.median)} | {fmt(l and l.median)} | "
          f"{fmt(ic['P1'][wl], '+.2f', '%')} | {fmt(spread, '.2f', '%')} |")
    w("")
    w(f"P1: {verdict(ic['P1'].values(), lambda x: x <= 0.5)}.")
    w("")
    w("## Overhead per workload (icount)")
    w("")
    w("| workload | " + " | ".join(LKST_CONFIGS) + " | ftrace-twins, pristine kernel |")
    w("| --- |" + " --- |" * (len(LKST_CONFIGS) + 1))
    for wl in WORKLOADS:
        w(f"| {wl} | " + " | ".join(fmt(ic["overhead"][(c, wl)], "+.1f", "%")
                                    for c in LKST_CONFIGS)
          + f" | {fmt(ic['vanilla ftrace'][wl], '+.1f', '%')} |")
    w("")
    w("## Per recorded event (icount): the same events in both tracers (P2)")
    w("")
    w("| workload | lkst events/op | lkst instr/event | ftrace events/op | ftrace instr/event "
      "| lkst / ftrace (goal <= 0.5) |")
    w("| --- | --- | --- | --- | --- | --- |")
    for wl in WORKLOADS:
        lt = cells.get(("icount", "lkst", "lkst-twins", wl))
        ft = cells.get(("icount", "lkst", "ftrace-twins", wl))
        w(f"| {wl} | {fmt(lt and lt.lkst_per_op, '.2f')} | {fmt(ic['P2 lkst'][wl], '.0f')} | "
          f"{fmt(ft and ft.ftrace_per_op, '.2f')} | {fmt(ic['P2 ftrace'][wl], '.0f')} | "
          f"{fmt(ic['P2 ratio'][wl], '.2f')} |")
    w("")
    w(f"P2: {verdict(ic['P2 ratio'].values(), lambda x: x <= 0.5)}.")
    w("")
    w("## Always on (icount): RDEFAULT against ftrace with the equivalent events (P4)")
    w("")
    w("| workload | RDEFAULT events/op | RDEFAULT overhead | ftrace overhead | ratio (goal <= 0.33) |")
    w("| --- | --- | --- | --- | --- |")
    for wl in WORKLOADS:
        rd = cells.get(("icount", "lkst", "lkst-rdefault", wl))
        w(f"| {wl} | {fmt(rd and rd.lkst_per_op, '.2f')} | "
          f"{fmt(ic['overhead'][('lkst-rdefault', wl)], '+.1f', '%')} | "
          f"{fmt(ic['overhead'][('ftrace-twins', wl)], '+.1f', '%')} | {fmt(ic['P4'][wl], '.2f')} |")
    w("")
    w(f"P4: {verdict(ic['P4'].values(), lambda x: x <= 1 / 3)}.")
    w("")
    w("## Handlers (icount): instructions per routed event")
    w("")
    w("RDEFAULT's events routed to DEFAULT; to lkst_filter with a predicate that always "
      "holds (then recorded by DEFAULT) or never does (tested only); to lkst_agg counting them "
      "by event. The events per operation of the dropping filter and of the count are "
      "RDEFAULT's. lkst_errpath gets the system call, page fault and signal events, counted "
      "by their hits. lkst_stack records RDEFAULT's events with kernel stacks of up to 16 "
      "frames (the event's record and up to four stack records).")
    w("")
    w("| workload | RDEFAULT events/op | DEFAULT | filter, passing | filter, dropping "
      "| agg count by event | errpath events/op | errpath | stack, 16 frames |")
    w("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for wl in WORKLOADS:
        per = handler_costs(cells, wl)
        rd = cells.get(("icount", "lkst", "lkst-rdefault", wl))
        ep = cells.get(("icount", "lkst", "errpath", wl))
        w(f"| {wl} | {fmt(rd and rd.lkst_per_op, '.2f')} | {fmt(per['default'], '.0f')} | "
          f"{fmt(per['filter-pass'], '.0f')} | {fmt(per['filter-drop'], '.0f')} | "
          f"{fmt(per['agg-count'], '.0f')} | {fmt(ep and ep.lkst_per_op, '.2f')} | "
          f"{fmt(per['errpath'], '.0f')} | {fmt(per['stack'], '.0f')} |")
    w("")
    drop_vs_default = [(handler_costs(cells, wl)["filter-drop"], handler_costs(cells, wl)["default"])
                       for wl in WORKLOADS]
    w("Filtering an event out costs less than recording it: "
      f"{verdict([d / r if d is not None and r else None for d, r in drop_vs_default], lambda x: x < 1)}.")
    w("")
    w("## Density: bytes per recorded event")
    w("")
    w("| workload | lkst RDEFAULT | lkst twins | ftrace twins | RDEFAULT events per 64 KiB | "
      "twins events per 64 KiB, lkst | ftrace |")
    w("| --- | --- | --- | --- | --- | --- | --- |")
    dense, vs_ftrace = [], []
    for wl in WORKLOADS:
        rd = cells.get(("icount", "lkst", "lkst-rdefault", wl))
        tw = cells.get(("icount", "lkst", "lkst-twins", wl))
        ft = cells.get(("icount", "lkst", "ftrace-twins", wl))
        rb = rd.lkst_bytes_per_event if rd else None
        tb = tw.lkst_bytes_per_event if tw else None
        fb = ft.ftrace_bytes_per_event if ft else None
        dense.append(rb and 65536 / rb)
        vs_ftrace.append(fb / tb if tb and fb else None)
        w(f"| {wl} | {fmt(rb, '.1f')} | {fmt(tb, '.1f')} | {fmt(fb, '.1f')} | "
          f"{fmt(rb and 65536 / rb, '.0f')} | {fmt(tb and 65536 / tb, '.0f')} | "
          f"{fmt(fb and 65536 / fb, '.0f')} |")
    w("")
    w("lkst's bytes are those its blocks' used part grew by (page heads and the unused ends "
      "of full pages included) per record written; ftrace's are bytes and entries from its "
      "per-CPU stats.")
    w("")
    w(f"At least 2000 RDEFAULT events per 64 KiB: {verdict(dense, lambda x: x >= 2000)}.")
    w(f"At least ftrace's events per MiB on the same events: "
      f"{verdict(vs_ftrace, lambda x: x >= 1)}.")
    w("")
    w("## Cross-check: TCG wall clock (noisy; only the direction should agree)")
    w("")
    w("| workload | P1 | " + " | ".join(LKST_CONFIGS) + " |")
    w("| --- | --- |" + " --- |" * len(LKST_CONFIGS))
    for wl in WORKLOADS:
        w(f"| {wl} | {fmt(wall['P1'][wl], '+.1f', '%')} | "
          + " | ".join(fmt(wall["overhead"][(c, wl)], "+.1f", "%") for c in LKST_CONFIGS) + " |")
    report_peers.report(w, cells, WORKLOADS, fmt, verdict, out)
    lines.extend(report_bpftrace.section(out, cells))
    overruns = sorted({(k[0], k[2], k[3]) for k, c in cells.items()
                       if any(c.overrun) and k[2].startswith(("ftrace-", "both-"))})
    if overruns:
        w("")
        w(f"ftrace overran its buffer in: {overruns} (its event counts there are low)")
    for name, title in (("native.txt", "Native write path (host, P3)"),
                        ("userland.txt", "User side: lkbuf print, lkst-procstate")):
        path = os.path.join(out, name)
        if os.path.exists(path):
            w("")
            w(f"## {title}")
            w("")
            w("```")
            lines.extend(open(path).read().rstrip("\n").split("\n"))
            w("```")
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    # Chart data: one row per workload, overhead % per configuration.
    with open(os.path.join(out, "overhead.dat"), "w") as f:
        f.write("workload off-vs-pristine " + " ".join(LKST_CONFIGS) + "\n")
        for wl in WORKLOADS:
            vals = [ic["P1"][wl]] + [ic["overhead"][(c, wl)] for c in LKST_CONFIGS]
            f.write(wl + " " + " ".join("0" if v is None else f"{v:.3f}" for v in vals) + "\n")
    return ic


CHART = """set terminal pngcairo size 1250,520 noenhanced
set output '{png}'
set title 'Overhead per workload (guest instructions under -icount, median of repetitions)'
set ylabel 'overhead vs nothing traced (%)'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set key outside right top vertical
set grid ytics
set logscale y
set yrange [0.1:*]
plot for [i=2:{ncols}] '{dat}' using (column(i) > 0.1 ? column(i) : 0.1):xtic(1) title columnheader(i)
"""


def chart(out):
    dat = os.path.join(out, "overhead.dat")
    script = CHART.format(png=os.path.join(out, "overhead.png"), dat=dat,
                          ncols=len(LKST_CONFIGS) + 2)
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


def main():
    args = [a for a in sys.argv[1:] if a != "--no-chart"]
    if len(args) != 1:
        sys.exit(__doc__)
    out = args[0]
    try:
        cells = parse(out)
    except ValueError as e:
        sys.exit(f"report.py: {e}")
    if not cells:
        sys.exit(f"report.py: no benchmark results under {out}")
    report(out, cells)
    if "--no-chart" not in sys.argv:
        chart(out)
    print(open(os.path.join(out, "results.md")).read(), end="")


if __name__ == "__main__":
    main()
