"""The README's tour (one-command recording, report, print, export) did
what the README shows; the demo's CSV shows real context switches and wakeups of the workload,
and its memory part the pages of lkst_pagemem: lkst_pagewalk.ko snapshots
and, once the mm hooks are in the series, its allocations and frees."""
import json
import os
import re
import sys

from lkstcheck import EV, REPO, check, done, events, read_csv, read_roles
from process_checks import check_process_trace

d = sys.argv[1]

# ---- the tour ----
with open(os.path.join(d, "tour.txt")) as f:
    tour = f.read()
with open(os.path.join(d, "progpids.txt")) as f:
    reader = [int(w[1]) for w in (l.split() for l in f) if w and w[0] == "lkw-reader"]
check(re.search(r"lkbuf: recorded \d+ records of \d+ CPUs in prog.log.zst", tour),
      "lkbuf record did not report its log")
for call in ("clock_nanosleep", "read", "write", "exit_group"):
    check(re.search(rf"^  {call} +[1-9]\d*$", tour, re.M),
          f"lkbuf report's syscalls of the lkw-* tasks lack {call}")
check(reader and re.search(rf"  {reader[0]}  lkw-reader  SYSCALL_(ENTRY|EXIT) syscall_number=read ",
                           tour),
      f"lkbuf print did not show the reader (pid {reader}) reading, by name")
with open(os.path.join(d, "prog.json")) as f:
    slices = json.load(f)
names = {e.get("name") for e in slices.get("traceEvents", slices) if isinstance(e, dict)}
check({"read", "write", "clock_nanosleep"} <= names,
      "the JSON export lacks the workload's system calls by name")
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

# ---- the memory part ----
with open(os.path.join(d, "pages.txt")) as f:
    words = f.read().split()     # pid P buffer 0xADDR pages N / rounds R
pid = int(words[1])
pages = read_csv(os.path.join(d, "pages.csv"))
snaps = list(events(pages, EV["MEM_PAGE_SNAPSHOT"]))
check(snaps and all(r["arg1"] == pid for r in snaps),
      f"no MEM_PAGE_SNAPSHOT records of lkst_pagemem (pid {pid}), or of others")
check(len({r["arg5"] for r in snaps}) >= 3,
      f"fewer than 3 snapshots in a 5 s run: {sorted({r['arg5'] for r in snaps})}")
with open(os.path.join(REPO, "patches", "series")) as f:
    hooked = any("mm-lkst-hooks" in line for line in f)
if hooked:
    allocs = [r for r in events(pages, EV["MEM_PAGE_ALLOC"]) if r["pid"] == pid]
    check(len(allocs) >= 100, f"only {len(allocs)} MEM_PAGE_ALLOC records of lkst_pagemem")
    check(any(True for _ in events(pages, EV["MEM_PAGE_FREE"])), "no MEM_PAGE_FREE records")
done()
