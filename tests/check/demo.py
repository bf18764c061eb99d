"""The demo's CSV shows real context switches and wakeups of the workload."""
import os
import sys

from lkstcheck import check, done, read_csv, read_roles
from process_checks import check_process_trace

d = sys.argv[1]
rows = read_csv(os.path.join(d, "trace.csv"))
with open(os.path.join(d, "trace.csv")) as f:
    header = f.readline().strip().split(",")
check(header[:6] == ["time", "cpu", "pid", "context", "event", "id"],
      f"unexpected CSV header {header}")
check("arg1_desc" in header, "-V did not add argument descriptions")
check(all("." in r["time"] for r in rows), "-S did not print seconds.nanoseconds")
check(all(r["arg1_desc"] == "prev pid" for r in rows if r["id"] == 1),
      "context switch arg1 is not described as prev pid")
check_process_trace(rows, read_roles(os.path.join(d, "pids.txt")))
done()
