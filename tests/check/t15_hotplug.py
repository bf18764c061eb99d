"""CPU 1 offlined and onlined under tracing: each cycle's tagged system
calls were recorded on CPU 1 after it came back, the offline CPU kept its
buffer, and every record written is held or counted overwritten."""
import os
import re
import sys

from lkstcheck import EV_SYSCALL_ENTRY, NR_LSEEK, check, done, read_csv, \
    read_log_cpus

d = sys.argv[1]
with open(os.path.join(d, "hardening.txt")) as f:
    cycles = int(f.read().split()[1])
check(cycles >= 10, f"only {cycles} hotplug cycles ran")

offline = open(os.path.join(d, "offline-0.txt")).read()
check(re.search(r"^cpu 1 \(offline", offline, re.M),
      "lkbuf list does not show CPU 1 offline with its buffer")

rows = read_csv(os.path.join(d, "trace.csv"))
tags = {}
for r in rows:
    if r["id"] == EV_SYSCALL_ENTRY and r["arg1"] == NR_LSEEK and \
            r["arg2"] == 1234 and isinstance(r["arg3"], int) and \
            0xc0de0000 <= r["arg3"] < 0xc0de0000 + 100 * cycles:
        tags.setdefault((r["arg3"] - 0xc0de0000) // 100, []).append(r["cpu"])
# The buffer wraps under the load: the later cycles must all be there.
recent = range(max(0, cycles - 3), cycles)
for i in recent:
    check(tags.get(i) == [1, 1, 1],
          f"cycle {i}: tagged lseeks on CPUs {tags.get(i)}, expected 3 on CPU 1")

for cpu, c in read_log_cpus(os.path.join(d, "trace.log")).items():
    check(c["written"] == c["records"] + c["overwritten"],
          f"cpu{cpu}: written {c['written']} != held {c['records']} + "
          f"overwritten {c['overwritten']}")
done()
