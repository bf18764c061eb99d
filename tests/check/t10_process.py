"""(a) Workload PIDs switch in and out with the right states."""
import os
import sys

from lkstcheck import covers, done, read_csv, read_roles
from process_checks import check_comm_names, check_process_trace

covers("PROCESS_CONTEXTSWITCH", "PROCESS_WAKEUP")
d = sys.argv[1]
roles = read_roles(os.path.join(d, "pids.txt"))
check_process_trace(read_csv(os.path.join(d, "trace.csv")), roles)
check_comm_names(read_csv(os.path.join(d, "decoded.csv")), roles)
done()
