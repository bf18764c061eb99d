"""Boot options: the maskset named by lkst.maskset= (RDEFAULT, or RALL in
the debug run) active and the lkst.bufsize= blocks from the start, and the
system calls /init made before any utility ran are recorded."""
import os
import sys

from lkstcheck import EV_SYSCALL_ENTRY, category_of, check, done, events, read_csv

NR_MOUNT = 165
d = sys.argv[1]
with open(os.path.join(d, "output.txt")) as f:
    cmdline = f.readline().split()
opts = dict(w.split("=", 1) for w in cmdline if w.startswith("lkst.") and "=" in w)
want_id = {"rnothing": "0", "rdefault": "1", "rall": "2"}[opts["lkst.maskset"]]
want_size = int(opts["lkst.bufsize"].rstrip("KM")) * {"K": 1024, "M": 1 << 20}[opts["lkst.bufsize"][-1]]
with open(os.path.join(d, "list.txt")) as f:
    active = [line for line in f if "active" in line]
check(len(active) == 1 and active[0].split()[0] == want_id,
      f"active maskset at boot: {active}, expected {want_id}")
with open(os.path.join(d, "buffers.txt")) as f:
    blocks = [line for line in f if "block 0:" in line]
check(blocks and all(f"size {want_size}" in b for b in blocks),
      f"block 0 of each CPU is not {want_size} bytes: {blocks}")
rows = read_csv(os.path.join(d, "boot.csv"))
if opts["lkst.maskset"] == "rall":
    # Everything routed since boot wraps a small block long before init
    # runs; what is left must span the categories RALL adds to RDEFAULT.
    cats = {category_of(r["id"]) for r in rows}
    check({"memory", "timer", "interrupt", "process", "syscall"} <= cats,
          f"categories recorded since boot under RALL: {sorted(cats)}")
else:
    # /init's mounts run before any scenario; only it mounts anything.
    mounts = [r for r in events(rows, EV_SYSCALL_ENTRY) if r["arg1"] == NR_MOUNT]
    check(len(mounts) >= 3, f"init's mount() calls recorded: {len(mounts)}")
done()
