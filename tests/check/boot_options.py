"""lkst.events= and lkst.mode= on the command line: tracing from boot with
exactly the events named, in STOP mode, and a bad name reported."""
import os
import re
import sys

from lkstcheck import (EV, EV_SYSCALL_ENTRY, NR_LSEEK, check, done, events,
                       read_csv, read_log_cpus, read_prog)

d = sys.argv[1]
console = open(os.path.join(d, "..", "console.log"), errors="replace").read()
check("lkst.events: no event or category 'NO_SUCH_EVENT'" in console,
      "the unknown name in lkst.events= was not reported on the console")
check(re.search(r"lkst: .* KiB per CPU, stop mode, maskset boot", console),
      "the boot line does not say stop mode and maskset boot")

masksets = open(os.path.join(d, "masksets.txt")).read()
check(re.search(r"^3 +boot +.*active", masksets, re.M),
      f"maskset 3 'boot' is not the active one:\n{masksets}")

# The process category and SYSCALL_ENTRY, nothing else.
process = {i for n, i in EV.items() if 0x01 <= i <= 0x0f}
wanted = process | {EV_SYSCALL_ENTRY}
rows = read_csv(os.path.join(d, "trace.csv"))
seen = {r["id"] for r in rows}
check(seen <= wanted, f"events not named in lkst.events=: "
      f"{sorted(hex(i) for i in seen - wanted)}")
for name in ("SYSCALL_ENTRY", "PROCESS_CONTEXTSWITCH", "PROCESS_WAKEUP"):
    check(EV[name] in seen, f"no {name} record")

list_text = open(os.path.join(d, "list.txt")).read()
modes = re.findall(r"^cpu \d+ \(\w+, (\w+)\): \d+ blocks; written (\d+), "
                   r"overwritten (\d+), dropped (\d+)$", list_text, re.M)
check(len(modes) >= 2 and all(m[0] == "stop" for m in modes),
      f"not every CPU is in STOP mode: {modes}")
check(all(int(m[2]) == 0 for m in modes), f"a CPU overwrote in STOP mode: {modes}")
check(int(modes[0][3]) > 0, "CPU 0 dropped nothing: its block never filled")

# STOP keeps the oldest: the records of CPU 0 start at boot, and of the
# lseeks only the first ones fit.
cpus = read_log_cpus(os.path.join(d, "trace.log"))
check(cpus[0]["seq_start"] == 0, f"CPU 0's records start at #{cpus[0]['seq_start']}, not 0")
pid, _ = read_prog(os.path.join(d, "prog.txt"))
tag = 0xb0070000
kept = [r["arg3"] - tag for r in events(rows, EV_SYSCALL_ENTRY)
        if r["pid"] == pid and r["arg1"] == NR_LSEEK and r["cpu"] == 0]
check(len(kept) < 40000, "all 40000 lseeks fit in a 512 KiB block")
check(kept == list(range(len(kept))), f"STOP kept lseeks {kept[:3]}..{kept[-3:]}")
done()
