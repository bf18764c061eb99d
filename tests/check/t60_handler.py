"""A handler switched to RNOTHING from hook context when getppid() ran."""
import os
import sys

from lkstcheck import (EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT, NR_GETPPID,
                       NR_LSEEK, check, done, events, read_csv, read_prog)

d = sys.argv[1]
pid, _ = read_prog(os.path.join(d, "prog.txt"))
rows = [r for r in read_csv(os.path.join(d, "trace.csv")) if r["pid"] == pid]
tag = 0xc0de0000
lseeks = sorted(r["arg3"] - tag for r in events(rows, EV_SYSCALL_ENTRY)
                if r["arg1"] == NR_LSEEK)
check(lseeks == list(range(10)), f"lseeks recorded: {lseeks}, expected 0..9")
check(any(r["arg1"] == NR_GETPPID for r in events(rows, EV_SYSCALL_ENTRY)),
      "the trigger's getppid entry was not recorded")
check(not any(r["arg1"] == NR_GETPPID for r in events(rows, EV_SYSCALL_EXIT)),
      "getppid's exit was recorded after the switch to RNOTHING")
with open(os.path.join(d, "fired.txt")) as f:
    check(f.read().strip() == "1", "trigger did not fire exactly once")
with open(os.path.join(d, "handlers.txt")) as f:
    check("trigger" in f.read(), "lkm handlers does not list the module's handler")
with open(os.path.join(d, "list.txt")) as f:
    active = [line for line in f if "active" in line]
check(len(active) == 1 and active[0].split()[0] == "0",
      f"active maskset after the trigger: {active}")
done()
