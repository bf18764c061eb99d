"""Host test of tools/bench/report.py: its parser and its arithmetic on a
recorded set of guest outputs whose figures are known by construction."""
import os
import subprocess
import sys
import tempfile

import benchcheck  # noqa: E402  (tools/bench on the path)
import report  # noqa: E402

checks = benchcheck.Checks("bench report")
check, close = checks.check, checks.close


def write_run(out, kernel, clock, lines):
    d = os.path.join(out, f"{kernel}-{clock}", "bench_suite")
    os.makedirs(d)
    with open(os.path.join(d, "output.txt"), "w") as f:
        f.write("kernel %s\n+ noise the parser must skip\n" % kernel)
        f.write("\n".join(lines) + "\n")


with tempfile.TemporaryDirectory() as out:
    # getppid, 1000 ops: pristine 200 instr/op; patched RNOTHING 201 (P1
    # +0.5%); lkst-twins 3 records/op at 401 (200 per event... minus base
    # 201: 66.67/event); ftrace-twins 2 entries/op at 801 (300/event);
    # RDEFAULT at 301 (+49.75%) vs ftrace +298.5% (P4 0.1667).  Three
    # repetitions with the median in the middle.
    lk = []
    for rep, d in ((1, -1), (2, 0), (3, 4)):
        lk += [f"RESULT lkst none getppid {rep} 1000 {201 + d} 0 0 0 0",
               f"RESULT lkst lkst-rdefault getppid {rep} 1000 {301 + d} 4000 0 0 0 120000",
               f"RESULT lkst lkst-rall getppid {rep} 1000 {501 + d} 6000 0 0 0",
               f"RESULT lkst lkst-twins getppid {rep} 1000 {401 + d} 3000 0 0 0 72000",
               f"RESULT lkst ftrace-twins getppid {rep} 1000 {801 + d} 0 2000 0 48000",
               f"RESULT lkst both-twins getppid {rep} 1000 {1001 + d} 3000 2000 0 48000",
               f"RESULT lkst filter-pass getppid {rep} 1000 {361 + d} 4000 0 0 0",
               f"RESULT lkst filter-drop getppid {rep} 1000 {241 + d} 0 0 0 0",
               f"RESULT lkst agg-count getppid {rep} 1000 {321 + d} 0 0 0 0",
               f"RESULT lkst errpath getppid {rep} 1000 {281 + d} 2000 0 0 0"]
    write_run(out, "lkst", "icount", lk)
    write_run(out, "vanilla", "icount",
              [f"RESULT vanilla none getppid {r} 1000 200 0 0 0 0" for r in (1, 2, 3)] +
              [f"RESULT vanilla ftrace-twins getppid {r} 1000 780 0 2000 0 48000"
               for r in (1, 2, 3)])
    cells = report.parse(out)
    close(cells[("icount", "lkst", "lkst-rdefault", "getppid")].lkst_bytes_per_event, 30,
          "lkst bytes per record from the used bytes")
    check(cells[("icount", "lkst", "none", "getppid")].lkst_bytes_per_event is None,
          "no bytes without a twelfth field")
    base = cells[("icount", "lkst", "none", "getppid")]
    close(base.median, 201, "median of three repetitions")
    close(base.spread, 5 / 201 * 100, "spread (max - min) / median")
    f = report.figures(cells)
    close(f["P1"]["getppid"], 0.5, "P1 in percent")
    close(f["overhead"][("lkst-rdefault", "getppid")], 100 / 201 * 100, "RDEFAULT overhead")
    close(f["P2 lkst"]["getppid"], 200 / 3, "lkst instructions per event")
    close(f["P2 ftrace"]["getppid"], 300, "ftrace instructions per event")
    close(f["P2 ratio"]["getppid"], 200 / 3 / 300, "P2 ratio")
    close(f["P4"]["getppid"], 100 / 600, "P4 ratio")
    close(f["vanilla ftrace"]["getppid"], 290, "ftrace overhead on the pristine kernel")
    check(f["P1"]["pipe"] is None, "a workload with no runs has no figure")
    close(cells[("icount", "lkst", "ftrace-twins", "getppid")].ftrace_bytes_per_event, 24,
          "ftrace bytes per entry")
    # RDEFAULT 4 events/op: DEFAULT 100/4, passing filter 160/4, dropping 40/4.
    hc = report.handler_costs(cells, "getppid")
    close(hc["default"], 25, "DEFAULT instructions per event")
    close(hc["filter-pass"], 40, "passing filter instructions per event")
    close(hc["filter-drop"], 10, "dropping filter per RDEFAULT event")
    close(hc["agg-count"], 30, "agg count per RDEFAULT event")
    close(hc["errpath"], 40, "errpath per hit of its events")
    check(report.handler_costs(cells, "pipe")["filter-drop"] is None, "no run, no handler figure")
    with open(os.path.join(out, "native.txt"), "w") as nf:
        nf.write("operation    ns/event   Mevents/s\n"
                 "write mix, 4 MiB ring, counter time                   12.5          80.00\n")
    with open(os.path.join(out, "hook-cost.txt"), "w") as hf:
        hf.write("a_function      pushes 2->4 frame 0->0 size 54->73 INT_IPI_SEND\n"
                 "b_traced        new function (pushes 2, frame 0) IPC_UNIX_SEND\n"
                 "2 of 9 hooked functions save more registers, take a bigger frame or are new\n")
    report.report(out, cells)
    md = open(os.path.join(out, "results.md")).read()
    check("| a DEFAULT event (getppid's twins) <= 100 instructions | 67 | met |" in md,
          "instructions per event goal in results.md")
    check("| native write path <= 10 ns (write mix, 4 MiB ring, counter time) | 12.5 ns | MISSED |"
          in md, "native goal read from native.txt and missed")
    check("| 1 (and 1 new out-of-line functions) | met |" in md, "prologue goal from hook-cost.txt")
    check("| +0.50% | met |" in md, "P1 goal row")
    check("| getppid | 30.0 | 24.0 | 24.0 | 2185 | 2731 | 2731 |" in md, "density row in results.md")
    check("At least 2000 RDEFAULT events per 64 KiB: met on every workload." in md,
          "density verdict")
    check("| getppid | 4.00 | 25 | 40 | 10 | 30 | 2.00 | 40 |" in md, "handler row in results.md")
    check("costs less than recording it: met on every workload." in md, "handler verdict")
    check("| getppid | 200.0 | 201.0 | +0.50% |" in md, "P1 row in results.md")
    check("P1: met on every workload." in md, "P1 verdict")
    check("P2: met on every workload." in md, "P2 verdict")
    check("P4: met on every workload." in md, "P4 verdict")
    dat = open(os.path.join(out, "overhead.dat")).read().split("\n")
    check(dat[1].startswith("getppid 0.500 49.751"), f"chart data row: {dat[1]}")

with tempfile.TemporaryDirectory() as out:
    # A missed goal is reported as missed.
    write_run(out, "lkst", "icount", ["RESULT lkst none getppid 1 100 210 0 0 0 0"])
    write_run(out, "vanilla", "icount", ["RESULT vanilla none getppid 1 100 200 0 0 0 0"])
    cells = report.parse(out)
    report.report(out, cells)
    check("P1: MISSED on 1 of 1 workloads." in open(os.path.join(out, "results.md")).read(),
          "a 5% P1 is reported as missed")

with tempfile.TemporaryDirectory() as out:
    write_run(out, "lkst", "icount", ["RESULT lkst none getppid 1 100"])
    try:
        report.parse(out)
        check(False, "a truncated RESULT line was accepted")
    except ValueError as e:
        check("malformed RESULT line" in str(e), f"error message: {e}")
    r = subprocess.run([sys.executable, report.__file__, out, "--no-chart"],
                       capture_output=True, text=True)
    check(r.returncode != 0 and "malformed" in r.stderr + r.stdout,
          f"report.py on bad input: rc {r.returncode}, {r.stderr.strip()[-200:]}")

with tempfile.TemporaryDirectory() as out:
    r = subprocess.run([sys.executable, report.__file__, out, "--no-chart"],
                       capture_output=True, text=True)
    check(r.returncode != 0 and "no benchmark results" in r.stderr,
          "report.py with no runs says so and fails")

print("PASS bench report: parser and figures" if not checks.failures else f"{checks.failures} check(s) failed")
sys.exit(1 if checks.failures else 0)
