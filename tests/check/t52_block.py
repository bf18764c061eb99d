"""Block I/O events: lkst_blockio's direct writes and reads of /dev/vdb,
with the device number, sectors, sizes, operations and completions."""
import os
import sys

from lkstcheck import EV, check, covers, done, signed64
from scenario_facts import read_facts, rows_since_mark

covers("BLOCK_BIO_SUBMIT", "BLOCK_RQ_ISSUE", "BLOCK_RQ_COMPLETE")
d = sys.argv[1]
prog = read_facts(os.path.join(d, "prog.txt"))
check("done" in prog, "lkst_blockio did not finish")
pid = int(prog["pid"])
major, minor = (int(x) for x in prog["dev"].split())
dev = major << 20 | minor        # the kernel's dev_t encoding
rows = rows_since_mark(d, "t52_block")

# Must match tests/guest/lkst_blockio.c: each range written, then read.
RANGES = [(2048, 4096), (4104, 8192), (16384, 65536), (40001, 512)]
REQ_OP_READ, REQ_OP_WRITE = 0, 1
REQ_OP_MASK = 0xff
# Each transfer in the order the program makes them.
IO = [(s, n, REQ_OP_WRITE) for s, n in RANGES] + [(s, n, REQ_OP_READ) for s, n in RANGES]


def on_vdb(name):
    return sorted((r for r in rows if r["id"] == EV[name] and r["arg1"] == dev),
                  key=lambda r: int(r["time"]))


# Submission happens in the program's context, one bio per transfer.
bios = on_vdb("BLOCK_BIO_SUBMIT")
got = [(r["arg2"], r["arg3"], r["arg4"] & REQ_OP_MASK) for r in bios]
check(got == IO, f"bios on vdb {got}, expected {IO} in order",
      event="BLOCK_BIO_SUBMIT")
check(all(r["pid"] == pid for r in bios), "a bio on vdb not submitted by lkst_blockio",
      event="BLOCK_BIO_SUBMIT")

# Each bio becomes one request (nothing else touches vdb, the writes are
# synchronous so nothing merges); the driver may run in another context.
issues = on_vdb("BLOCK_RQ_ISSUE")
got = [(r["arg2"], r["arg3"], r["arg4"] & REQ_OP_MASK) for r in issues]
check(got == IO, f"requests issued on vdb {got}, expected {IO} in order",
      event="BLOCK_RQ_ISSUE")
check(all(r["arg4"] == b["arg4"] for r, b in zip(issues, bios)),
      "a request's flags differ from its bio's", event="BLOCK_RQ_ISSUE")

completions = on_vdb("BLOCK_RQ_COMPLETE")
got = [(r["arg2"], r["arg3"], signed64(r["arg4"])) for r in completions]
want = [(s, n, 0) for s, n, _ in IO]
check(got == want, f"completions on vdb {got}, expected {want} in order",
      event="BLOCK_RQ_COMPLETE")
# The completion carries the request's start time (its allocation, before
# the issue) on the records' clock: the latency it gives covers the
# issue-to-complete interval.
for issue, comp in zip(issues, completions):
    between = int(comp["time"]) - int(issue["time"])
    latency = int(comp["time"]) - comp["arg5"]
    check(0 < comp["arg5"] <= int(issue["time"]) and
          between <= latency < between + 1_000_000_000,
          f"sector {comp['arg2']}: started at {comp['arg5']} ns, latency {latency} ns, "
          f"{between} ns between issue and completion records", event="BLOCK_RQ_COMPLETE")
    check(int(issue["time"]) < int(comp["time"]),
          f"sector {comp['arg2']}: completed before issued", event="BLOCK_RQ_COMPLETE")
done()
