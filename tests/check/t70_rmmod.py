"""A handler module removed while routed: its events stop, nothing breaks."""
import os
import sys

from lkstcheck import check, done, read_csv, read_log_cpus

d = sys.argv[1]
with open(os.path.join(d, "handled-before-rmmod.txt")) as f:
    check(int(f.read()) > 100, "the handler was not busy before rmmod")
with open(os.path.join(d, "handlers.txt")) as f:
    check("trigger" not in f.read(), "lkm handlers still lists the removed handler")
after = read_log_cpus(os.path.join(d, "after.log"))
later = read_log_cpus(os.path.join(d, "later.log"))
for cpu in after:
    check(after[cpu]["written"] == later[cpu]["written"],
          f"cpu{cpu} recorded events routed to the removed handler")
rows = read_csv(os.path.join(d, "later.csv"))
check(not any(r["arg3"] is not None and isinstance(r["arg3"], int) and
              0xdead0000 <= r["arg3"] < 0xdead0005 for r in rows),
      "syscalls after rmmod were recorded")
done()
