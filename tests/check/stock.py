#!/usr/bin/env python3
"""The stock-kernel run (tests/stock/run.sh): each scenario's own checker,
the coverage against tests/stock/coverage.txt, and the summary line.

usage: stock.py OUTDIR SCENARIO...
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.realpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tools", "build"))
import lkst_table  # noqa: E402

COVERAGE = os.path.join(REPO, "tests", "stock", "coverage.txt")


def read_coverage(path=COVERAGE):
    """{mnemonic: (status, reason)}; status recorded, partial or unavailable."""
    cov = {}
    for n, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.match(r"(\w+)\s+(recorded|partial|unavailable|written)(?:\s+(.*))?$", line)
        if not m:
            sys.exit(f"{path}:{n}: not 'EVENT recorded|partial|unavailable|written [reason]'")
        if m.group(1) in cov:
            sys.exit(f"{path}:{n}: {m.group(1)} listed twice")
        if m.group(2) in ("unavailable", "partial") and not m.group(3):
            sys.exit(f"{path}:{n}: {m.group(1)} {m.group(2)} without a reason")
        cov[m.group(1)] = (m.group(2), m.group(3) or "")
    return cov


def main():
    out, scenarios = sys.argv[1], sys.argv[2:]
    errors = []
    diff = None
    for s in scenarios:
        rc_path = os.path.join(out, s, "rc")
        rc = open(rc_path).read().strip() if os.path.exists(rc_path) else "missing"
        if rc != "0":
            errors.append(f"{s}: scenario rc {rc} (see {out}/{s}/output.txt)")
            continue
        checker = os.path.join(HERE, s + ".py")
        if not s.startswith("stock_") and os.path.exists(checker):
            r = subprocess.run([sys.executable, checker, os.path.join(out, s)],
                               capture_output=True, text=True)
            sys.stdout.write(r.stdout)
            sys.stderr.write(r.stderr)
            if r.returncode:
                errors.append(f"{s}: its checker failed")
            m = re.search(r"^differential: (\d+) event pairs compared, (\d+) records matched, "
                          r"(\d+) unexplained differences$", r.stdout, re.M)
            if m:
                diff = tuple(map(int, m.groups()))

    # The module's own account of what it lacks (lkc_tracepoints_report()).
    console = open(os.path.join(out, "console.log"), errors="replace").read()
    said = {}
    for m in re.finditer(r"lkst: (absent|partial): (\w+) \(([^)]*)\)", console):
        said[m.group(2)] = m.group(1)
    cov = read_coverage()
    events = [e["name"] for e in lkst_table.read_table()[1]]
    for ev in events:
        if ev not in cov:
            errors.append(f"coverage.txt does not list {ev}")
    for ev, (status, reason) in cov.items():
        if ev not in events:
            errors.append(f"coverage.txt lists {ev}, which events.def has not")
        want = {"unavailable": "absent", "partial": "partial"}.get(status)
        if said.get(ev) != want:
            errors.append(f"{ev}: coverage.txt says {status}, the module says "
                          f"{said.get(ev, 'recorded')}")

    # lkm events shows the same, from the kernel's event table.
    shown = {}
    events_txt = os.path.join(out, "stock_coverage", "events.txt")
    if os.path.exists(events_txt):
        for line in open(events_txt, errors="replace"):
            m = re.match(r"0x[0-9a-f]+ +\S+ +(\w+) .*\[(absent|partial): [^]]*\]$", line)
            if m:
                shown[m.group(1)] = m.group(2)
    else:
        errors.append("no stock_coverage/events.txt")
    for ev, (status, _) in cov.items():
        want = {"unavailable": "absent", "partial": "partial"}.get(status)
        if shown.get(ev) != want:
            errors.append(f"{ev}: coverage.txt says {status}, lkm events shows "
                          f"{shown.get(ev, 'no mark')}")

    # Every event said recorded or partial shows in the RALL log.
    seen = set()
    rall = os.path.join(out, "stock_coverage", "rall.txt")
    if os.path.exists(rall):
        for line in open(rall, errors="replace"):
            for tok in line.split()[:6]:
                if tok in cov:
                    seen.add(tok)
    recorded = [e for e, (s, _) in cov.items() if s in ("recorded", "partial")]
    exercised = [e for e in recorded if e in seen]
    unavailable = [e for e, (s, _) in cov.items() if s == "unavailable"]
    for e in recorded:
        if e not in seen and cov[e][1] != "not exercised":
            errors.append(f"{e}: said recorded, not in the RALL log")
    if diff is None:
        errors.append("no differential line (t99_differential did not run or check)")
        diff = (0, 0, -1)
    elif diff[0] < 30 or diff[2]:
        errors.append(f"differential: {diff[0]} pairs (at least 30 wanted), "
                      f"{diff[2]} unexplained differences")
    for e in errors:
        print("stock: FAIL: " + e)
    print(f"stock: {len(recorded)} events recorded, {len(unavailable)} unavailable; "
          f"differential: {diff[0]} event pairs compared, {diff[1]} records matched, "
          f"{diff[2]} unexplained differences")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
