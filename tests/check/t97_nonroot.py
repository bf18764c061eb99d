"""An unprivileged process gets nothing from /dev/lkst: every check of
lkst_nonroot and of the utilities run as uid 65534 passed, and the matrix
covered every command of the ioctl header for both kinds of user."""
import os
import re
import sys

from lkstcheck import REPO, check, done

d = sys.argv[1]
with open(os.path.join(d, "output.txt")) as f:
    out = f.read().splitlines()

header = os.path.join(REPO, "kernel/include/uapi/linux/lkst_ioctl.h")
with open(header) as f:
    commands = re.findall(r"^#define\s+LKST_IOC_(\w+)\s+_IO", f.read(), re.M)
check(len(commands) >= 20, f"only {len(commands)} LKST_IOC_ commands found in {header}")

fails = [line for line in out if line.startswith("FAIL")]
check(not fails, f"{len(fails)} failed checks, the first: {fails[:1]}")
check(out.count("0 failures") == 2, "lkst_nonroot or the scenario did not end with '0 failures'")

oks = {line[5:] for line in out if line.startswith("ok   ")}
for who in ("nobody", "root-nocap"):
    for how in ("O_RDWR", "O_RDONLY"):
        for cmd in commands:
            for what in (f"{cmd} -> EPERM, wanted EPERM",
                         f"{cmd} wrote nothing back",
                         f"{cmd} with NULL -> EPERM, wanted EPERM"):
                check(f"{who}: inherited {how} fd: {what}" in oks,
                      f"no ok line for {who}, inherited {how} fd: {what}")
    for mode in ("0600", "0666"):
        n = sum(1 for o in oks if o.startswith(f"{who}: open(") and f"of a {mode} node" in o)
        check(n == 4, f"{who}: {n} of 4 open modes refused with the node at {mode}")
for mode in ("600", "666"):
    n = sum(1 for o in oks if o.startswith(f"uid 65534 ({mode}): "))
    check(n == 19, f"{n} of 19 utility commands refused as uid 65534 with the node at {mode}")
check("masksets and buffers as they were" in oks, "the layout was not compared")
done()
