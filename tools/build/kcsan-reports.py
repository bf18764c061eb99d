#!/usr/bin/env python3
"""Sort the KCSAN reports of a guest console (make kcsan).

A report runs from "BUG: KCSAN: ..." to its closing line of '='.  One whose
racing functions (its title) are lkst's, or whose frames are in lkst's
modules ([lkst_...]), is lkst's: each must be fixed, or the race marked
with data_race()/READ_ONCE() and a comment on why it is benign, so any
left fails the run.  Reports whose racing functions are other kernel
code's (the timekeeper's own latch, reached from lkst's clock fallback,
is one) are listed and counted apart.  The console without the reports must be clean as in every run
(tests/qemu/check-console.sh).

usage: kcsan-reports.py CONSOLE_LOG
"""
import os
import re
import subprocess
import sys
import tempfile

STAMP = re.compile(r"^\[ *\d+\.\d+\] ")


def main(path):
    with open(path, errors="replace") as f:
        lines = [STAMP.sub("", l.rstrip("\r\n")) for l in f]
    reports, rest, cur = [], [], None
    for line in lines:
        if cur is None and "BUG: KCSAN:" in line:
            cur = [line]
        elif cur is not None:
            cur.append(line)
            if re.fullmatch(r"=+", line.strip()) and len(cur) > 2:
                reports.append(cur)
                cur = None
        else:
            rest.append(line)
    if cur is not None:
        reports.append(cur)
    ours = [r for r in reports
            if "lkst" in r[0] or any("[lkst_" in l for l in r)]
    others = [r for r in reports if r not in ours]
    for r in ours:
        print("lkst report:\n  " + "\n  ".join(r[:24]))
    titles = sorted({r[0].split("BUG: KCSAN: ", 1)[1] for r in others})
    for t in titles:
        print(f"other kernel code: {t}")
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as tmp:
        tmp.write("\n".join(l for l in rest if "KCSAN" not in l) + "\n")
    clean = subprocess.run([os.path.join(os.path.dirname(__file__), "..", "..",
                                         "tests", "qemu", "check-console.sh"), tmp.name])
    os.unlink(tmp.name)
    print(f"kcsan: {len(reports)} reports, {len(ours)} in lkst, "
          f"{len(others)} in other kernel code ({len(titles)} distinct); "
          f"console otherwise {'clean' if clean.returncode == 0 else 'NOT clean'}")
    return 1 if ours or clean.returncode else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
