"""A CPU first brought online after boot gets its buffer then and records."""
import os
import re
import sys

from lkstcheck import EV_SYSCALL_ENTRY, NR_LSEEK, check, done, read_csv

d = sys.argv[1]
before = open(os.path.join(d, "before.txt")).read()
after = open(os.path.join(d, "after.txt")).read()
check(re.search(r"^cpu 0 \(online", before, re.M), "CPU 0 has no buffer at boot")
check(not re.search(r"^cpu 1 ", before, re.M),
      "CPU 1 had a buffer before it was ever online")
m = re.search(r"^cpu 1 \(online.*\n  block 0: size (\d+)", after, re.M)
check(m and int(m.group(1)) == 256 << 10,
      "CPU 1 has no 256 KiB block 0 (lkst.bufsize=256K) after coming online")
rows = read_csv(os.path.join(d, "trace.csv"))
tagged = [r for r in rows if r["id"] == EV_SYSCALL_ENTRY and
          r["arg1"] == NR_LSEEK and isinstance(r["arg3"], int) and
          0x1a7e0000 <= r["arg3"] < 0x1a7e0005]
check([r["cpu"] for r in tagged] == [1] * 5,
      f"the 5 lseeks pinned to CPU 1 were recorded on {[r['cpu'] for r in tagged]}")
done()
