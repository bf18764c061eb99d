#!/usr/bin/env python3
"""bpftrace in the bench report (issue 35): the results.md section of
tests/scenarios/bench_bpftrace.sh's runs, which tools/bench/report.py
appends, and, alone, that section printed.

- bpftrace recording the twin events: instructions per event, against the
  same kernel with nothing traced (bt-none, interleaved with them), per
  event the workload's twin events (ftrace-twins' events per operation:
  the same tracepoints on the same load; bpftrace's own output and the
  events it traces of itself are its cost); lkst and ftrace beside it.
- Handlers against bpftrace: the five questions answered both ways
  (h-Q-lkst, h-Q-bt), instructions per event of each and their ratio.
  Per event: an lkst run's routed events (its hits); a bpftrace run's
  events are the workload's: the twin events (ftrace-twins) for drop and
  pass, the lkst run's system call events for count, hist and kstack.
- Whether the answers agree: the counts by system call, the histograms'
  shapes and the number of stacks, from the files the first repetition
  left (bt-*.txt, lkst-*.csv).

usage: report_bpftrace.py OUT
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (report.py of this directory: RESULT parsing)

QUESTIONS = [
    ("drop", "predicate that drops every twin event", "lkst_filter `cpu > 4096`", "`/cpu > 4096/`"),
    ("pass", "predicate that passes every twin event, then recorded",
     "lkst_filter `cpu < 4096`, DEFAULT", "`/cpu < 4096/`, printf"),
    ("count", "system calls counted by number", "lkst_agg `count -K arg1`",
     "`@[args->id] = count()`"),
    ("hist", "system call latency histogram, entry to exit",
     "lkst_agg `quantize -L syscall`", "`hist(nsecs - @start[tid])`"),
    ("kstack", "kernel stack of every system call entry, 16 frames",
     "lkst_stack `--depth 16`", "`@[kstack(16)] = count()`"),
]


def per_event(cell, base, events_per_op):
    if not cell or not base or not events_per_op:
        return None
    return (cell.median - base.median) / events_per_op


def recording(cells, kernel, wl):
    """bpftrace-twins on one kernel: (instructions per event, its records
    per operation, the workload's twin events per operation, bytes per
    record)."""
    def get(config):
        return cells.get(("icount", kernel, config, wl))
    bt, base, ft = get("bpftrace-twins"), get("bt-none"), get("ftrace-twins")
    ev = ft.ftrace_per_op if ft else None
    return (per_event(bt, base, ev), bt and bt.ftrace_per_op, ev,
            bt.ftrace_bytes_per_event if bt else None)


def noise_per_op(cells, wl):
    """The range of the patched kernel's runs with nothing traced on WL
    (the suite's none and bt-none): a cost per operation below it is not
    measured."""
    runs = [ns for config in ("none", "bt-none")
            for ns in getattr(cells.get(("icount", "lkst", config, wl)), "ns", [])]
    return max(runs) - min(runs) if runs else None


def handler_pair(cells, q, wl):
    """(lkst instructions per event, bpftrace's) of question q; None for
    one whose cost per operation is within noise_per_op()."""
    def get(config):
        return cells.get(("icount", "lkst", config, wl))
    base, lk, bt = get("bt-none"), get(f"h-{q}-lkst"), get(f"h-{q}-bt")
    lk_ev = lk.lkst_per_op if lk else None
    if q in ("drop", "pass"):
        ft = get("ftrace-twins")
        bt_ev = ft.ftrace_per_op if ft else None
    else:
        bt_ev = lk_ev
    noise = noise_per_op(cells, wl)

    def measured(cell, ev):
        v = per_event(cell, base, ev)
        return None if v is None or noise is None or abs(v * ev) <= noise else v
    return measured(lk, lk_ev), measured(bt, bt_ev)


# --- the answers -----------------------------------------------------------

BT_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def bt_number(s):
    m = re.fullmatch(r"(\d+)([KMGT]?)", s.strip())
    if not m:
        raise ValueError(f"not a bpftrace histogram bound: {s!r}")
    return int(m.group(1)) * BT_UNITS[m.group(2)]


def bt_map(text):
    """A bpftrace count map printed at exit: {key: count}."""
    return {k: int(v) for k, v in re.findall(r"^@\w*\[([^\]\n]*)\]: (\d+)$", text, re.M)}


def bt_hist(text):
    """A bpftrace hist(): {bucket's lower bound: count}."""
    res = {}
    for lo, n in re.findall(r"^\[([0-9KMGT]+)(?:, [0-9KMGT]+\)|\])\s+(\d+) \|", text, re.M):
        res[bt_number(lo)] = int(n)
    return res


def bt_stacks(text):
    """@[kstack] = count(): (distinct stacks, events)."""
    counts = [int(n) for n in re.findall(r"^\]: (\d+)$", text, re.M)]
    return len(counts), sum(counts)


def lkst_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def lkst_counts(rows):
    return {r["key1"]: int(r["count"]) for r in rows}


def lkst_hist(rows):
    return {int(r["bucket_min"]): int(r["bucket_count"]) for r in rows if r["bucket_count"]}


def mode(hist):
    return max(hist, key=lambda k: (hist[k], -k)) if hist else None


def overlap(a, b):
    """Shared mass of two histograms, each normalized: 1.0 for one shape."""
    ta, tb = sum(a.values()), sum(b.values())
    if not ta or not tb:
        return None
    return sum(min(a.get(k, 0) / ta, b.get(k, 0) / tb) for k in set(a) | set(b))


def human(v):
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if v >= div:
            return f"{v // div}{unit}"
    return str(v)


def read(path):
    with open(path) as f:
        return f.read()


def agreement(out, wl):
    """One row of the answers' comparison for a workload, or None."""
    d = os.path.join(out, "lkst-icount", "bench_suite")
    paths = {k: os.path.join(d, f"{k}-{wl}{ext}") for k, ext in
             (("bt-count", ".txt"), ("lkst-count", ".csv"), ("bt-hist", ".txt"),
              ("lkst-hist", ".csv"), ("bt-kstack", ".txt"), ("lkst-kstack", ".txt"))}
    if not all(os.path.exists(p) for p in paths.values()):
        return None
    bc, lc = bt_map(read(paths["bt-count"])), lkst_counts(lkst_csv(paths["lkst-count"]))
    top = max(lc, key=lc.get) if lc else None
    bh, lh = bt_hist(read(paths["bt-hist"])), lkst_hist(lkst_csv(paths["lkst-hist"]))
    nstacks, bt_ev = bt_stacks(read(paths["bt-kstack"]))
    lk_ev = int(read(paths["lkst-kstack"]).split()[1])
    return {
        "top": top, "top lkst": lc.get(top), "top bt": bc.get(top),
        "calls lkst": sum(lc.values()), "calls bt": sum(bc.values()),
        "mode lkst": mode(lh), "mode bt": mode(bh), "overlap": overlap(lh, bh),
        "stacks": nstacks, "stack events bt": bt_ev, "stack events lkst": lk_ev,
    }


def section(out, cells):
    """The results.md lines; none when no bpftrace run is there."""
    if not any(k[2] == "bpftrace-twins" for k in cells):
        return []
    fmt = report.fmt
    lines = []
    w = lines.append
    w("")
    w("## bpftrace recording the twin events (icount)")
    w("")
    w("tools/bench/bpftrace/twins.bt: every twin tracepoint with all its fields, printf to "
      "bpftrace's output file (-o), 16 MiB of perf ring per CPU, its reader on CPU 0. "
      "Instructions per event of the workload's twin events (ftrace's count on the same "
      "load), against the same kernel with nothing traced; bpftrace's own records per "
      "operation include the events of its reader.")
    w("")
    w("| workload | twin events/op | bpftrace records/op | lost | bytes/record "
      "| bpftrace instr/event | lkst | ftrace | lkst / bpftrace | ftrace / bpftrace "
      "| bpftrace, pristine kernel |")
    w("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    ic = report.figures(cells, "icount")
    for wl in report.WORKLOADS:
        bt, recs, ev, bpe = recording(cells, "lkst", wl)
        vbt = recording(cells, "vanilla", wl)[0]
        lk, ft = ic["P2 lkst"][wl], ic["P2 ftrace"][wl]
        cell = cells.get(("icount", "lkst", "bpftrace-twins", wl))
        ls = cell and max(cell.overrun)
        w(f"| {wl} | {fmt(ev, '.2f')} | {fmt(recs, '.2f')} | {fmt(ls, 'd')} | "
          f"{fmt(bpe, '.1f')} | {fmt(bt, '.0f')} | {fmt(lk, '.0f')} | {fmt(ft, '.0f')} | "
          f"{fmt(lk / bt if lk is not None and bt else None, '.2f')} | "
          f"{fmt(ft / bt if ft is not None and bt else None, '.2f')} | {fmt(vbt, '.0f')} |")
    w("")
    w("## Handlers against bpftrace (icount): instructions per event")
    w("")
    w("The same question answered by an lkst handler and by a bpftrace program, on the same "
      "load and kernel. Per event: lkst's routed events (hits); for bpftrace the twin "
      "events (ftrace's count) for drop and pass, the system call events lkst counted for "
      "count, hist and kstack. n/a: the cost per operation is within the range of the "
      "runs with nothing traced (the suite's and bt-none), so it is not measured: on "
      "fork+exit, fork+exec and mmap an operation is long and varies between runs by "
      "more than a few events cost.")
    w("")
    for q, what, lk_how, bt_how in QUESTIONS:
        w(f"- **{q}**: {what}: {lk_how} against {bt_how}")
    w("")
    w("| workload | " + " | ".join(f"{q} lkst | {q} bpftrace | ratio" for q, *_ in QUESTIONS) + " |")
    w("| --- |" + " --- | --- | --- |" * len(QUESTIONS))
    for wl in report.WORKLOADS:
        row = []
        for q, *_ in QUESTIONS:
            lk, bt = handler_pair(cells, q, wl)
            row += [fmt(lk, ".0f"), fmt(bt, ".0f"),
                    fmt(lk / bt if lk is not None and bt else None, ".2f")]
        w(f"| {wl} | " + " | ".join(row) + " |")
    w("")
    w("## Do the answers agree? (first repetition)")
    w("")
    w("count: the most frequent system call and all calls, counted by each; hist: each "
      "histogram's most frequent power-of-two bucket of latency (ns) and the mass the two "
      "share, each normalized (1.00: one shape); kstack: the events stacked by each and "
      "bpftrace's distinct stacks. The two runs are separate runs of the same load, so "
      "the counts differ by what the shell and the tracer did around the workload.")
    w("")
    w("| workload | call | its count lkst / bpftrace | all calls lkst / bpftrace "
      "| latency mode lkst / bpftrace | shared shape | stacked events lkst / bpftrace "
      "| distinct stacks |")
    w("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for wl in report.WORKLOADS:
        a = agreement(out, wl)
        if a is None:
            w(f"| {wl} | n/a | | | | | | |")
            continue
        w(f"| {wl} | {a['top']} | {a['top lkst']} / {fmt(a['top bt'], 'd')} | "
          f"{a['calls lkst']} / {a['calls bt']} | "
          f"{human(a['mode lkst']) if a['mode lkst'] is not None else 'n/a'} / "
          f"{human(a['mode bt']) if a['mode bt'] is not None else 'n/a'} | "
          f"{fmt(a['overlap'], '.2f')} | {a['stack events lkst']} / {a['stack events bt']} | "
          f"{a['stacks']} |")
    return lines


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        cells = report.parse(sys.argv[1])
        lines = section(sys.argv[1], cells)
    except ValueError as e:
        sys.exit(f"report_bpftrace.py: {e}")
    if not lines:
        sys.exit(f"report_bpftrace.py: no bpftrace runs under {sys.argv[1]}")
    print("\n".join(lines[1:]))


if __name__ == "__main__":
    main()
