"""After a handler oopsed on CPU 0, CPU 0 still records: 1000 lseeks are
hits, none dropped, and all in the trace.  The oops is the only kernel
report on the console of this boot."""
import os
import subprocess
import sys

from lkstcheck import EV_SYSCALL_ENTRY, NR_LSEEK, check, done, read_csv

d = sys.argv[1]
mark = open(os.path.join(d, "mark.txt")).read().split()
check(mark[-1] != "0", "the task whose mark reached the faulty handler survived")
stat = open(os.path.join(d, "stat.txt")).read().splitlines()
fields = stat[1].split() if len(stat) > 1 else ["", "", "0", "-1"]
hits, dropped = int(fields[2]), int(fields[3])
check(hits >= 1000, f"SYSCALL_ENTRY hits {hits} after the oops, expected >= 1000")
check(dropped == 0, f"SYSCALL_ENTRY dropped {dropped} after the oops, expected 0")
rows = read_csv(os.path.join(d, "trace.csv"))
tagged = [r for r in rows if r["id"] == EV_SYSCALL_ENTRY and
          r["arg1"] == NR_LSEEK and isinstance(r["arg3"], int) and
          0x00950000 <= r["arg3"] < 0x00950000 + 1000]
check(len(tagged) == 1000, f"{len(tagged)} of the 1000 lseeks in the trace")

# The console: exactly one oops, in lkst_faulty; nothing else reported.
console = os.path.join(os.path.dirname(d.rstrip("/")), "console.log")
lines = open(console, errors="replace").read().splitlines()
start = [i for i, l in enumerate(lines) if "BUG: kernel NULL pointer dereference" in l]
check(len(start) == 1, f"{len(start)} NULL pointer oopses on the console, expected 1")
if len(start) == 1:
    end = next((i for i in range(start[0], len(lines)) if "---[ end trace" in lines[i]),
               None)
    check(end is not None, "the oops report has no end")
    block = "\n".join(lines[start[0]:(end or start[0]) + 1])
    check("lkst_faulty_handle" in block, "the oops is not in lkst_faulty_handle")
    rest = os.path.join(d, "console-without-oops.log")
    with open(rest, "w") as f:
        f.write("\n".join(lines[:start[0]] + lines[(end or start[0]) + 1:]) + "\n")
    repo = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
    r = subprocess.run([os.path.join(repo, "tests/qemu/check-console.sh"), rest],
                       capture_output=True, text=True)
    check(r.returncode == 0, "other kernel reports on the console:\n" + r.stderr)
done()
