"""Host test of tools/bench/report_peers.py (make bench's lkst vs each
peer): per-event figures and ratios on guest outputs whose figures are
known by construction, and the table report.py writes."""
import os
import sys
import tempfile

import benchcheck  # noqa: E402  (tools/bench on the path)
import report  # noqa: E402
import report_peers  # noqa: E402

checks = benchcheck.Checks("bench peers")
check, close = checks.check, checks.close


with tempfile.TemporaryDirectory() as out:
    # pipe, 100 ops, base 1000 instr/op: lkst-twins 2 records/op at 1200
    # (100/event); ftrace 2/op at 1600 (300); perf 4/op at 3000 (500, the
    # consumer's own syscalls recorded too), 7 lost per run; perf
    # --overwrite 2/op at 1800 (400); libbpf 2/op at 1500 (250).
    lines = []
    for rep, d in ((1, -2), (2, 0), (3, 5)):
        lines += [f"RESULT lkst none pipe {rep} 100 {1000 + d} 0 0 0 0 0",
                  f"RESULT lkst lkst-twins pipe {rep} 100 {1200 + d} 200 0 0 0 4800",
                  f"RESULT lkst ftrace-twins pipe {rep} 100 {1600 + d} 0 200 0 6400 0",
                  f"RESULT lkst perf-twins pipe {rep} 100 {3000 + d} 0 400 7 40000 0",
                  f"RESULT lkst perf-ow-twins pipe {rep} 100 {1800 + d} 0 200 0 20000 0",
                  f"RESULT lkst libbpf-twins pipe {rep} 100 {1500 + d} 0 200 0 9600 0"]
    d = os.path.join(out, "lkst-icount", "bench_suite")
    os.makedirs(d)
    with open(os.path.join(d, "output.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "lttng.txt"), "w") as f:
        f.write("did not build: error: the test's reason\n")
    cells = report.parse(out)
    close(report_peers.per_event(cells, "pipe", "lkst-twins")[0], 100, "lkst per event")
    close(report_peers.per_event(cells, "pipe", "perf-twins")[0], 500, "perf per event")
    close(report_peers.per_event(cells, "pipe", "perf-twins")[1], 4, "perf events per op")
    r = report_peers.ratios(cells, ["pipe", "udp"])
    close(r["ftrace-twins"]["pipe"], 1 / 3, "lkst / ftrace")
    close(r["perf-twins"]["pipe"], 0.2, "lkst / perf")
    close(r["perf-ow-twins"]["pipe"], 0.25, "lkst / perf --overwrite")
    close(r["libbpf-twins"]["pipe"], 0.4, "lkst / libbpf")
    check(r["libbpf-twins"]["udp"] is None, "a workload not run has no ratio")
    close(cells[("icount", "lkst", "perf-twins", "pipe")].ftrace_bytes_per_event, 100,
          "perf bytes per event")
    report.report(out, cells)
    md = open(os.path.join(out, "results.md")).read()
    check("## lkst vs each peer" in md, "results.md has the table lkst vs each peer")
    check("| pipe | 100 | 300 | 0.33 | 500 | 0.20 | 400 | 0.25 | 250 | 0.40 |" in md,
          "the table's pipe row")
    check("| pipe | perf | +200.0% | 4.00 | 100.0 | 21 |" in md, "perf's lost events summed")
    check("LTTng: did not build: error: the test's reason" in md, "LTTng's status")
    check("ftrace overran" not in md, "a peer's lost events are not ftrace's overruns")

if checks.failures:
    sys.exit(1)
print("bench peers: ok")
