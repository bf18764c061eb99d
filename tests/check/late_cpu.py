"""A CPU never online: a resize passes it by, a block created for it is its
first, random requests aimed at it are answered, and once online it keeps
that block and records into it."""
import os
import re
import sys

from lkstcheck import EV_SYSCALL_ENTRY, NR_LSEEK, check, done, read_csv

d = sys.argv[1]


def text(name):
    return open(os.path.join(d, name)).read()


before, resized, after = text("before.txt"), text("resized.txt"), text("after.txt")
check(re.search(r"^cpu 0 \(online", before, re.M), "CPU 0 has no buffer at boot")
check(not re.search(r"^cpu 1 ", before, re.M),
      "CPU 1 had a buffer before it was ever online")
m = re.search(r"^cpu 0 \(online.*\n  block 0: size (\d+)", resized, re.M)
check(m and int(m.group(1)) == 128 << 10, "CPU 0's block 0 is not 128 KiB after the resize")
check(not re.search(r"^cpu 1 ", resized, re.M), "the resize gave CPU 1 a buffer")
check(text("created.txt").strip() == "0",
      f"the block created for CPU 1 is not block 0: {text('created.txt')!r}")
check(re.search(r"^cpu 1 \(offline.*\n  block 0: size 65536", text("created-list.txt"), re.M),
      "lkbuf list does not show CPU 1's 64 KiB block 0 while it is offline")
fuzz = text("hardening.txt")
m = re.search(r"^offline_cpu_requests (\d+)", fuzz, re.M)
check(m and int(m.group(1)) > 1000, f"few requests aimed at the offline CPU: {fuzz!r}")
check(re.search(r"^unexpected_answers 0$", fuzz, re.M), "the fuzzer got unexpected answers")
# The fuzzer puts every CPU back to one block 0 and resizes to CPU 0's
# saved size (128 KiB), offline CPU 1's block included; online, CPU 1
# keeps it.
m = re.search(r"^cpu 1 \(online.*\n  block 0: size (\d+)", after, re.M)
check(m and int(m.group(1)) == 128 << 10 and "\n  block 1:" not in after,
      "CPU 1 does not keep its one 128 KiB block 0 after coming online")
rows = read_csv(os.path.join(d, "trace.csv"))
tagged = [r for r in rows if r["id"] == EV_SYSCALL_ENTRY and
          r["arg1"] == NR_LSEEK and isinstance(r["arg3"], int) and
          0x1a7e0000 <= r["arg3"] < 0x1a7e0005]
check([r["cpu"] for r in tagged] == [1] * 5,
      f"the 5 lseeks pinned to CPU 1 were recorded on {[r['cpu'] for r in tagged]}")
done()
