"""Under lockdown=confidentiality neither lkbuf nor lkm opens /dev/lkst, and a
descriptor opened before it is raised adds no probe, reads no record and
reads no aggregation of lkst_agg, whose other commands still run."""
import os
import re
import sys

from lkstcheck import check, done

d = sys.argv[1]
levels = open(os.path.join(d, "levels.txt")).read().splitlines()
check(len(levels) == 2 and "[confidentiality]" in levels[1],
      f"lockdown did not reach confidentiality: {levels}")
fd = open(os.path.join(d, "fd.txt")).read().splitlines()
fd_rc = open(os.path.join(d, "fd_rc.txt")).read().strip()
# Each request and its answer: refused (EPERM) or answered (0).
EPERM = "Operation not permitted"
WANTED = [
    ("BUFFER_DRAIN before lockdown", "0"),
    ("agg SET before lockdown", "0"),
    ("agg READ before lockdown", "0"),
    ("PROBE_ADD on an open descriptor", EPERM),
    ("BUFFER_DRAIN on an open descriptor", EPERM),
    ("BLOCK_READ on an open descriptor", EPERM),
    ("PREVIOUS_DRAIN on an open descriptor", EPERM),
    ("agg READ on an open descriptor", EPERM),
    ("GET_VERSION on an open descriptor", "0"),
    ("agg INFO on an open descriptor", "0"),
    ("agg CLEAR on an open descriptor", "0"),
    ("agg DELETE on an open descriptor", "0"),
    ("MASKSET_SET 0 (tracing off) on an open descriptor", "0"),
]
want = [f"ok   {what} -> {answer}" for what, answer in WANTED]
check(fd_rc == "lkst_lockdown_fd exited 0" and fd == want,
      f"requests on a descriptor opened before lockdown: {fd_rc}, "
      f"{[line for line in fd if line not in want] or fd}, "
      f"missing {[line for line in want if line not in fd]}")
# The fuzzer, mid-run when lockdown came, met it and was answered as documented.
fuzz = open(os.path.join(d, "fuzz.txt")).read()
m = re.search(r"^lockdown_refusals (\d+)$", fuzz, re.M)
check(open(os.path.join(d, "fuzz_rc.txt")).read().strip() == "fuzz_exit 0" and
      re.search(r"^unexpected_answers 0$", fuzz, re.M) and m and int(m.group(1)) > 0,
      "the fuzzer running when lockdown was raised: " + fuzz[-600:])
rc = open(os.path.join(d, "rc.txt")).read().split("\n")
check(rc[0].endswith("exited 2"), f"lkbuf under lockdown: {rc[0]}, expected exit 2")
check(rc[1].endswith("exited 2"), f"lkm under lockdown: {rc[1]}, expected exit 2")
for name in ("list.err", "lkm.err"):
    err = open(os.path.join(d, name)).read()
    check("Operation not permitted" in err and err.count("\n") == 1,
          f"{name}: expected one line saying 'Operation not permitted', got {err!r}")
check(os.path.getsize(os.path.join(d, "list.txt")) == 0,
      "lkbuf printed buffers under lockdown")
done()
