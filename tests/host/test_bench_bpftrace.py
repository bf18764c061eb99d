"""Host test of tools/bench/report_bpftrace.py: bpftrace's and the
handlers' figures on a set of guest outputs whose figures are known by
construction, and its readers of the answers both tracers left."""
import os
import sys
import tempfile

import benchcheck  # noqa: E402  (tools/bench on the path)
import report  # noqa: E402
import report_bpftrace as rb  # noqa: E402

checks = benchcheck.Checks("bench bpftrace report")
check, close = checks.check, checks.close


# bpftrace 0.17's output of count.bt, hist.bt and kstack.bt at SIGINT.
BT_COUNT = """READY


@calls[110]: 2001
@calls[1]: 7
@calls[0]: 3
"""
BT_HIST = """READY


@lat:
[512, 1K)              2 |                                                    |
[1K, 2K)            2009 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
[2K, 4K)               0 |                                                    |
[4K, 8K)               1 |                                                    |

"""
BT_KSTACK = """READY


@stacks[
    trace_event_raw_event_sys_enter+196
    do_syscall_64+120
    entry_SYSCALL_64_after_hwframe+118
]: 7
@stacks[
    trace_event_raw_event_sys_enter+196
    do_syscall_64+120
    entry_SYSCALL_64_after_hwframe+118
    0x10
]: 2004
"""
LKST_COUNT = """aggregation,function,key1,key2,key3,count,sum,min,max,value,bucket_min,bucket_max,bucket_count
btcount,count,110,,,2000,0,0,0,2000,,,
btcount,count,1,,,9,0,0,0,9,,,
"""
LKST_HIST = """aggregation,function,key1,key2,key3,count,sum,min,max,value,bucket_min,bucket_max,bucket_count
bthist,quantize,,,,2012,0,0,0,,1024,2047,2008
bthist,quantize,,,,2012,0,0,0,,2048,4095,4
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


with tempfile.TemporaryDirectory() as out:
    # getppid, 1000 ops, on the patched kernel: bt-none 200 instr/op;
    # ftrace-twins 2 events/op; bpftrace-twins at 1400 (600 per twin
    # event, 2.5 records/op of its own), lkst-twins 3 records/op at 501
    # against bench_suite's none at 201 (100 per event); ftrace at 801
    # (300 per event).  Handlers: drop, lkst 4 hits/op at 400 (50 per
    # event), bpftrace at 300 (50 per twin event); count, lkst 3 hits/op
    # at 350 (50), bpftrace at 650 (150, per lkst's events, not ftrace's).
    lk = []
    for rep, d in ((1, 0), (2, 2), (3, -2)):
        lk += [f"RESULT lkst none getppid {rep} 1000 {201 + d} 0 0 0 0",
               f"RESULT lkst lkst-twins getppid {rep} 1000 {501 + d} 3000 0 0 0 72000",
               f"RESULT lkst ftrace-twins getppid {rep} 1000 {801 + d} 0 2000 0 48000",
               f"RESULT lkst bt-none getppid {rep} 1000 {200 + d} 0 0 0 0 0",
               f"RESULT lkst bpftrace-twins getppid {rep} 1000 {1400 + d} 0 2500 {rep * 10} 150000 150000",
               f"RESULT lkst h-drop-lkst getppid {rep} 1000 {400 + d} 4000 0 0 0 0",
               f"RESULT lkst h-drop-bt getppid {rep} 1000 {300 + d} 0 0 0 0 0",
               f"RESULT lkst h-count-lkst getppid {rep} 1000 {350 + d} 3000 0 0 0 0",
               f"RESULT lkst h-count-bt getppid {rep} 1000 {650 + d} 0 0 0 0 0",
               f"RESULT lkst h-kstack-lkst getppid {rep} 1000 {203 + d} 1000 0 0 0 0",
               f"RESULT lkst h-kstack-bt getppid {rep} 1000 {5200 + d} 0 0 0 0 0"]
    write(os.path.join(out, "lkst-icount", "bench_suite", "output.txt"), "\n".join(lk) + "\n")
    write(os.path.join(out, "vanilla-icount", "bench_suite", "output.txt"),
          "RESULT vanilla bt-none getppid 1 1000 190 0 0 0 0 0\n"
          "RESULT vanilla ftrace-twins getppid 1 1000 790 0 2000 0 48000\n"
          "RESULT vanilla bpftrace-twins getppid 1 1000 1090 0 2400 0 0 0\n")
    cells = report.parse(out)
    per, recs, ev, bpe = rb.recording(cells, "lkst", "getppid")
    close(per, 600, "bpftrace instructions per twin event")
    close(recs, 2.5, "bpftrace's own records per operation")
    close(ev, 2, "the workload's twin events per operation: ftrace's")
    close(bpe, 60, "bytes per bpftrace record")
    close(rb.recording(cells, "vanilla", "getppid")[0], 450, "bpftrace on the pristine kernel")
    lkd, btd = rb.handler_pair(cells, "drop", "getppid")
    close(lkd, 50, "lkst drop per routed event")
    close(btd, 50, "bpftrace drop per twin event")
    lkc, btc = rb.handler_pair(cells, "count", "getppid")
    close(lkc, 50, "lkst count per system call")
    close(btc, 150, "bpftrace count per system call lkst counted")
    check(rb.handler_pair(cells, "hist", "getppid") == (None, None), "hist not run: n/a")
    # The nothing-traced runs span 198-203 instr/op: kstack's lkst run, 3
    # over bt-none, is not measured; bpftrace's 5000 per call is.
    close(rb.noise_per_op(cells, "getppid"), 5, "range of the nothing-traced runs")
    lks, bts = rb.handler_pair(cells, "kstack", "getppid")
    check(lks is None, f"lkst kstack within the noise: n/a, not {lks}")
    close(bts, 5000, "bpftrace kstack per system call")

    # The answers: a workload with all six files, one without.
    d = os.path.join(out, "lkst-icount", "bench_suite")
    for name, text in (("bt-count-getppid.txt", BT_COUNT), ("lkst-count-getppid.csv", LKST_COUNT),
                       ("bt-hist-getppid.txt", BT_HIST), ("lkst-hist-getppid.csv", LKST_HIST),
                       ("bt-kstack-getppid.txt", BT_KSTACK),
                       ("lkst-kstack-getppid.txt", "SYSCALL_ENTRY 2010\n")):
        write(os.path.join(d, name), text)
    a = rb.agreement(out, "getppid")
    check(a is not None, "agreement read")
    check(a["top"] == "110" and a["top lkst"] == 2000 and a["top bt"] == 2001,
          f"count by call: {a}")
    check(a["calls lkst"] == 2009 and a["calls bt"] == 2011, f"all calls: {a}")
    check(a["mode lkst"] == 1024 and a["mode bt"] == 1024, f"latency modes: {a}")
    close(a["overlap"], 2008 / 2012, "shared shape: the 1K bucket's smaller share")
    check(a["stacks"] == 2 and a["stack events bt"] == 2011 and a["stack events lkst"] == 2010,
          f"stacks: {a}")
    check(rb.agreement(out, "pipe") is None, "no answers for pipe: None")
    check(rb.bt_hist(BT_HIST) == {512: 2, 1024: 2009, 2048: 0, 4096: 1}, "bpftrace hist buckets")
    check(rb.bt_number("4M") == 4 << 20, "bpftrace's M is 2^20")

    text = "\n".join(rb.section(out, cells))
    check("| getppid | 2.00 | 2.50 | 30 | 60.0 | 600 | 100 | 300 | 0.17 | 0.50 | 450 |" in text,
          "recording row")
    check("| getppid | 50 | 50 | 1.00 | n/a | n/a | n/a | 50 | 150 | 0.33 | n/a | n/a | n/a "
          "| n/a | 5000 | n/a |" in text, "handler row")
    check("| getppid | 110 | 2000 / 2001 | 2009 / 2011 | 1K / 1K | 1.00 | 2010 / 2011 | 2 |" in text,
          "agreement row")
    check(rb.section(os.path.join(out, "nothing"), {}) == [], "no bpftrace runs: no section")


if checks.failures:
    sys.exit(1)
print("bench bpftrace report: ok")
