"""(d) After switching to RNOTHING nothing more is recorded."""
import os
import sys

from lkstcheck import (EV_SYSCALL_ENTRY, NR_LSEEK, check, done, events,
                       read_csv, read_log_cpus)

d = sys.argv[1]
rows = read_csv(os.path.join(d, "trace.csv"))
lseeks = [r["arg3"] for r in events(rows, EV_SYSCALL_ENTRY) if r["arg1"] == NR_LSEEK]
check(sum(0xaaaa0000 <= a < 0xaaaa0000 + 10 for a in lseeks) == 10,
      "the 10 lseeks made while tracing are not all recorded")
check(not any(0xbbbb0000 <= a < 0xbbbb0000 + 10 for a in lseeks),
      "lseeks made under RNOTHING were recorded")
before = read_log_cpus(os.path.join(d, "before.log"))
after = read_log_cpus(os.path.join(d, "after.log"))
for cpu in before:
    check(before[cpu]["written"] == after[cpu]["written"],
          f"cpu{cpu} wrote {after[cpu]['written'] - before[cpu]['written']} "
          "records under RNOTHING")
done()
