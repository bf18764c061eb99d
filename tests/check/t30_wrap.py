"""(c) A wrapping block keeps the newest records, counts the overwritten."""
import os
import sys

from lkstcheck import (EV_SYSCALL_ENTRY, NR_LSEEK, check, done, events,
                       read_csv, read_log_cpus, read_prog)

d = sys.argv[1]
pid, _ = read_prog(os.path.join(d, "prog.txt"))
rows = read_csv(os.path.join(d, "trace.csv"))
cpus = read_log_cpus(os.path.join(d, "trace.log"))
# The most records a 16 KiB block holds: 4 pages of 254 16-byte records.
tag, calls, slots = 0x77770000, 2000, 4 * (4096 - 32) // 16

check(list(cpus) == [0], f"lkbuf read -c 0 saved CPUs {list(cpus)}")
kept = sorted(r["arg3"] - tag for r in events(rows, EV_SYSCALL_ENTRY)
              if r["pid"] == pid and r["arg1"] == NR_LSEEK)
check(0 < len(kept) < calls, f"{len(kept)} of {calls} lseek entries kept")
if kept:
    check(kept[-1] == calls - 1, f"newest lseek kept is {kept[-1]}, not {calls - 1}")
    check(kept == list(range(kept[0], calls)),
          "kept lseek entries are not the newest, without gaps")
newest_block = [r for r in rows if r["cpu"] == 0 and int(r["time"]) >=
                min((int(r["time"]) for r in rows if r["pid"] == pid), default=0)]
check(len(newest_block) <= slots, f"{len(newest_block)} records after the first lseek")
cpu0 = cpus.get(0, {})
check(cpu0.get("overwritten", 0) >= 2 * calls - slots,
      f"overwritten {cpu0.get('overwritten')} < {2 * calls - slots}")
done()
