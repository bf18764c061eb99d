#!/usr/bin/env python3
"""The arm64 bench's figures (make bench-arm64): reads the icount runs of
tests/scenarios/bench_suite.sh in OUT/vanilla-icount and OUT/lkst-icount
(their bench_suite/output.txt) and prints, as markdown, per workload:

  off       the patched kernel with nothing traced against the pristine one
  per event instructions per recorded event, lkst and ftrace given the same
            (twin) tracepoints, and their ratio
  always on RDEFAULT's overhead against ftrace's with the twin events

and, from OUT/hook-cost.txt (tools/bench/hook-cost.py), how many hooked
functions' prologues differ from the pristine kernel's.
Under -icount shift=0 a guest ns is one executed instruction.  Medians of
the repetitions; the spread is (max - min) / median.  With --against DIR, a
second patched kernel's runs (DIR/lkst-icount: the same series with one
change, e.g. the relaxed position exchange) are compared per event.  It
asserts nothing.

A RESULT line: RESULT KERNEL CONFIG WORKLOAD REP OPS NS_PER_OP LKST_RECORDS
FTRACE_ENTRIES FTRACE_OVERRUN FTRACE_BYTES [LKST_BYTES]

usage: report-arm64.py OUT [--against DIR]
"""
import os
import statistics
import sys

import report  # the RESULT lines are read as report.py reads them

WORKLOADS = ["getppid", "pipe", "forkexit", "forkexec", "mmap", "hackbench", "udp"]


def parse(path, kernel):
    """{(config, workload): [(ns_per_op, lkst_per_op, ftrace_per_op)]}."""
    runs = {}
    for words in report.result_lines(path, kernel):
        config, wl, _rep, ops, ns, lk, fe = words[2:9]
        ops = int(ops)
        runs.setdefault((config, wl), []).append((float(ns), int(lk) / ops, int(fe) / ops))
    return runs


def median(runs, key, i=0):
    return statistics.median(r[i] for r in runs[key]) if key in runs else None


def spread(runs, key):
    v = [r[0] for r in runs.get(key, [])]
    return (max(v) - min(v)) / statistics.median(v) * 100 if v else None


def per_event(runs, wl, config, i):
    """Instructions per event of CONFIG over the patched kernel's 'none'."""
    base, cell, ev = median(runs, ("none", wl)), median(runs, (config, wl)), \
        median(runs, (config, wl), i)
    return (cell - base) / ev if base and cell and ev else None


def fmt(v, spec=".1f", suffix=""):
    return "-" if v is None else f"{v:{spec}}{suffix}"


def suite(out, kernel, required=True):
    """The runs of one kernel; {} for a pristine run not there (its
    columns then print as -), an error for a patched one."""
    path = os.path.join(out, f"{kernel}-icount", "bench_suite", "output.txt")
    if not os.path.exists(path):
        if required:
            sys.exit(f"report-arm64: {path} missing; run make bench-arm64")
        print(f"(no {path}: the pristine kernel's columns are left out)\n")
        return {}
    return parse(path, kernel)


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--against"):
        sys.exit("usage: report-arm64.py OUT [--against DIR]")
    out = argv[1]
    van, lk = suite(out, "vanilla", required=False), suite(out, "lkst")
    reps = max((len(v) for v in lk.values()), default=0)
    print(f"## arm64 (qemu-system-aarch64 -M virt -cpu cortex-a57, -icount shift=0), "
          f"median of {reps} repetitions")
    print()
    print("| workload | pristine, instr/op | patched, nothing traced | off | spread | "
          "lkst per twin event | ftrace per twin event | lkst/ftrace | "
          "RDEFAULT overhead | ftrace overhead | RDEFAULT/ftrace |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for wl in WORKLOADS:
        v, b = median(van, ("none", wl)), median(lk, ("none", wl))
        off = (b / v - 1) * 100 if v and b else None
        sp = max(filter(None, [spread(van, ("none", wl)), spread(lk, ("none", wl))]),
                 default=None)
        le, fe = per_event(lk, wl, "lkst-twins", 1), per_event(lk, wl, "ftrace-twins", 2)
        rd, ft = median(lk, ("lkst-rdefault", wl)), median(lk, ("ftrace-twins", wl))
        o_rd = (rd / b - 1) * 100 if rd and b else None
        o_ft = (ft / b - 1) * 100 if ft and b else None
        print(f"| {wl} | {fmt(v)} | {fmt(b)} | {fmt(off, '+.2f', '%')} | {fmt(sp, '.2f', '%')} | "
              f"{fmt(le, '.0f')} | {fmt(fe, '.0f')} | "
              f"{fmt(le / fe if le and fe else None, '.2f')} | {fmt(o_rd, '+.1f', '%')} | "
              f"{fmt(o_ft, '+.1f', '%')} | {fmt(o_rd / o_ft if o_rd and o_ft else None, '.2f')} |")
    diff, new = report.prologues_differing(out)
    if diff is not None:
        print()
        print(f"Hooked functions whose prologue saves more registers or takes a bigger "
              f"frame than pristine: {diff}, plus {new} new out-of-line copies and helpers "
              f"(goal at most {report.GOAL_PROLOGUES}; OUT/hook-cost.txt).")
    if len(argv) == 4:
        other = suite(argv[3], "lkst")
        print()
        print(f"## Per twin event: {out} against {argv[3]}")
        print()
        print("| workload | lkst per twin event | other | difference |")
        print("| --- | ---: | ---: | ---: |")
        for wl in WORKLOADS:
            a, o = per_event(lk, wl, "lkst-twins", 1), per_event(other, wl, "lkst-twins", 1)
            print(f"| {wl} | {fmt(a)} | {fmt(o)} | "
                  f"{fmt(o - a if a is not None and o is not None else None, '+.1f')} |")


if __name__ == "__main__":
    main(sys.argv)
