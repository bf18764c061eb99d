#!/usr/bin/env python3
"""check_record.py DIR REPORT ROTATE KEEP: tests/check/recordcheck.py's
checks of a `lkbuf record` directory, for test_dev.sh.  Prints each
failure; exits 1 if any."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "check"))
from recordcheck import verify  # noqa: E402

directory, report, rotate, keep = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with open(report) as f:
    fails = verify(directory, f.read(), rotate, keep)
for msg in fails:
    print("FAIL:", msg)
sys.exit(1 if fails else 0)
