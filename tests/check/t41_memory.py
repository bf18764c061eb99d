"""Memory events of the t41_memory scenario, against what its workload knows:
the region's addresses and PFNs, the exact mmap/mprotect/munmap/brk calls
and results, System V message sizes, the swap cgroup's inode, the OOM
victim's pid, oom_score_adj and name, and kswapd's pid."""
import os
import re
import struct
import sys

from lkstcheck import ARCH, EV, check, covers, done, read_csv, signed64

covers("MEM_PAGE_ALLOC", "MEM_PAGE_FREE", "MEM_SLAB_ALLOC", "MEM_SLAB_FREE",
       "MEM_MMAP", "MEM_MUNMAP", "MEM_MPROTECT", "MEM_BRK",
       "MEM_FAULT_MINOR", "MEM_FAULT_MAJOR", "MEM_SWAP_OUT", "MEM_SWAP_IN",
       "MEM_RECLAIM_START", "MEM_RECLAIM_END", "MEM_OOM_KILL")

PAGE = 4096
EINVAL = 22
PROT_READ, PROT_WRITE = 1, 2
MAP_PRIVATE_ANON = 0x22
MIGRATE_MOVABLE = 1
FAULT_FLAG_WRITE, FAULT_FLAG_USER = 0x1, 0x40
VM_FAULT_MAJOR = 0x4
VM_FAULT_ERROR = 0x1 | 0x2 | 0x10 | 0x20 | 0x40 | 0x800
RECLAIM_DIRECT, RECLAIM_KSWAPD, RECLAIM_MEMCG = 0, 1, 2
SWAP_IO = 0
SCRATCH_PAGES = (64 << 20) // PAGE
KERNEL_TEXT = 0xffffffff80000000
KERNEL_ADDR = 0xffff800000000000
USER_END = 0x800000000000
if ARCH == "aarch64":
    # 48-bit VAs: the linear map from 0xffff000000000000, the kernel image
    # above its modules at 0xffff800080000000, user space below 2^48.
    KERNEL_TEXT = 0xffff800080000000
    KERNEL_ADDR = 0xffff000000000000
    USER_END = 1 << 48

d = sys.argv[1]
facts = {}
pfns = []
with open(os.path.join(d, "facts.txt")) as f:
    for line in f:
        w = line.split()
        if w[0] == "pfn":
            pfns.append((int(w[1], 0), int(w[2], 0)))
        else:
            facts[w[0]] = int(w[1], 0)
rows = read_csv(os.path.join(d, "trace.csv"))


def ev(name, pid=None):
    return [r for r in rows if r["id"] == EV[name] and (pid is None or r["pid"] == pid)]


def comm(row):
    return struct.pack("<QQ", row["arg5"], row["arg6"]).rstrip(b"\0").decode(errors="replace")


basic = facts["pid_basic"]
region, region_len = facts["region"], facts["region_len"]

# ---- mmap, mprotect, munmap, brk: the exact calls and their results
mmaps = [(signed64(r["arg1"]), r["arg2"], r["arg3"], r["arg4"], r["arg5"])
         for r in ev("MEM_MMAP", basic)]
check((region, region_len, PROT_READ | PROT_WRITE, MAP_PRIVATE_ANON, 0) in mmaps,
      f"no MEM_MMAP returning the region {region:#x} ({region_len} bytes, RW, private anon)",
      event="MEM_MMAP")
check((-EINVAL, 0, PROT_READ, MAP_PRIVATE_ANON, 0) in mmaps,
      "no MEM_MMAP of length 0 returning -EINVAL", event="MEM_MMAP")

mprotects = [(r["arg1"], r["arg2"], r["arg3"], signed64(r["arg4"]), signed64(r["arg5"]))
             for r in ev("MEM_MPROTECT", basic)]
for call in [(region, 16 * PAGE, PROT_READ, 0, -1), (region + 1, PAGE, PROT_READ, -EINVAL, -1)]:
    check(call in mprotects, f"no MEM_MPROTECT (start, length, prot, result, pkey) = "
          f"({call[0]:#x}, {call[1]}, {call[2]}, {call[3]}, {call[4]})",
          event="MEM_MPROTECT")

munmaps = [(r["arg1"], r["arg2"], signed64(r["arg3"])) for r in ev("MEM_MUNMAP", basic)]
for call in [(region + 16 * PAGE, 16 * PAGE, 0), (region + 1, PAGE, -EINVAL),
             (region, region_len, 0)]:
    check(call in munmaps, f"no MEM_MUNMAP (start, length, result) = "
          f"({call[0]:#x}, {call[1]}, {call[2]})", event="MEM_MUNMAP")

brk0, want = facts["brk0"], facts["brk_want"]
brks = [(r["arg1"], r["arg2"], r["arg3"]) for r in ev("MEM_BRK", basic)]
calls = [(0, brk0, brk0), (want, brk0, want), (brk0, want, brk0)]
check(any(brks[i:i + 3] == calls for i in range(len(brks))),
      f"MEM_BRK (requested, old, result) {brks} lack brk(0), brk(grow), brk(shrink) in a row",
      event="MEM_BRK")

# ---- faults and page allocations of the touched region, by address and PFN
minor = {}
for r in ev("MEM_FAULT_MINOR", basic):
    minor.setdefault(r["arg1"], []).append(r)
missing = [a for a, _ in pfns if a not in minor]
check(len(pfns) == region_len // PAGE and not missing,
      f"{len(missing)} of {len(pfns)} touched pages have no MEM_FAULT_MINOR at their address",
      event="MEM_FAULT_MINOR")
first = [minor[a][0] for a, _ in pfns if a in minor]
check(all(r["arg2"] & FAULT_FLAG_WRITE and r["arg2"] & FAULT_FLAG_USER for r in first),
      "a write fault of the region lacks FAULT_FLAG_WRITE|FAULT_FLAG_USER", event="MEM_FAULT_MINOR")
check(all(not r["arg3"] & (VM_FAULT_ERROR | VM_FAULT_MAJOR) for r in first),
      "a region fault reports an error or VM_FAULT_MAJOR", event="MEM_FAULT_MINOR")
check(all(0 < r["arg4"] < USER_END for r in first),
      "a region fault's user ip is not a user address", event="MEM_FAULT_MINOR")
check(brk0 + PAGE in minor, f"no MEM_FAULT_MINOR in the new heap page {brk0 + PAGE:#x}",
      event="MEM_FAULT_MINOR")

allocs = {}
for r in ev("MEM_PAGE_ALLOC", basic):
    allocs.setdefault(r["arg1"], []).append(r)
missing = [p for _, p in pfns if p not in allocs]
check(not missing, f"{len(missing)} of the region's {len(pfns)} PFNs (from pagemap) have no "
      f"MEM_PAGE_ALLOC by pid {basic}, e.g. {missing[:3]}", event="MEM_PAGE_ALLOC")
ok = [allocs[p][-1] for _, p in pfns if p in allocs]
check(all(r["arg2"] == 0 and r["arg3"] != 0 and r["arg4"] == MIGRATE_MOVABLE for r in ok),
      "a region page's MEM_PAGE_ALLOC is not order 0, movable, with gfp flags",
      event="MEM_PAGE_ALLOC")

frees = {}
for r in ev("MEM_PAGE_FREE"):
    frees.setdefault(r["arg1"], []).append(r)
unfreed = [p for _, p in pfns if p in allocs and not any(
    int(f["time"]) > int(allocs[p][-1]["time"]) and f["arg2"] == 0 for f in frees.get(p, []))]
check(not unfreed, f"{len(unfreed)} region PFNs have no order-0 MEM_PAGE_FREE after their "
      f"allocation (munmap frees them), e.g. {unfreed[:3]}", event="MEM_PAGE_FREE")

# ---- kmalloc/kfree of the System V messages: sizes BASE + i*STEP + header
base, step, nmsg = facts["msg_base"], facts["msg_step"], facts["msgs"]
slab = ev("MEM_SLAB_ALLOC", basic)
by_size = {}
for r in slab:
    by_size.setdefault(r["arg2"], []).append(r)
header = [h for h in range(1, 257)
          if all(base + i * step + h in by_size for i in range(nmsg))]
check(len(header) == 1, f"MEM_SLAB_ALLOC by pid {basic} lack the {nmsg} message sizes "
      f"{base}+{step}*i plus one header size (candidates {header})", event="MEM_SLAB_ALLOC")
msg_allocs = [by_size[base + i * step + header[0]][0] for i in range(nmsg)] if header else []
check(all(r["arg1"] >= KERNEL_ADDR and r["arg3"] >= r["arg2"] and r["arg4"] != 0 and
          r["arg5"] >= KERNEL_TEXT and signed64(r["arg6"]) == -1 for r in msg_allocs),
      "a message's MEM_SLAB_ALLOC has a bad address, allocated size, gfp, call site or node",
      event="MEM_SLAB_ALLOC")
check(len({r["arg5"] for r in msg_allocs}) <= 1, "the messages' allocations name different call sites",
      event="MEM_SLAB_ALLOC")
slab_frees = ev("MEM_SLAB_FREE", basic)
for r in msg_allocs:
    check(any(f["arg1"] == r["arg1"] and int(f["time"]) > int(r["time"]) and
              f["arg2"] >= KERNEL_TEXT for f in slab_frees),
          f"message object {r['arg1']:#x} ({r['arg2']} bytes) has no MEM_SLAB_FREE by pid {basic}",
          event="MEM_SLAB_FREE")

# ---- memcg reclaim, swap out and swap in (major faults) of the swap region
sw = facts["pid_swap"]
ino = facts["swap_cgroup_ino"]
sregion, slen = facts["swap_region"], facts["swap_region_len"]
starts = ev("MEM_RECLAIM_START", sw)
check(starts and all(r["arg3"] == RECLAIM_MEMCG and r["arg4"] == ino for r in starts),
      f"no MEM_RECLAIM_START by pid {sw}, or not memcg reclaim of cgroup inode {ino}",
      event="MEM_RECLAIM_START")
ends = ev("MEM_RECLAIM_END", sw)
check(ends and all(r["arg2"] == RECLAIM_MEMCG and r["arg3"] == ino for r in ends),
      f"no MEM_RECLAIM_END by pid {sw}, or not memcg reclaim of cgroup inode {ino}",
      event="MEM_RECLAIM_END")
check(sum(r["arg1"] for r in ends) > 0, "the memcg reclaims reclaimed no pages",
      event="MEM_RECLAIM_END")

outs = ev("MEM_SWAP_OUT", sw)
swapped_pages = (slen - (4 << 20)) // PAGE
check(len(outs) >= swapped_pages // 2,
      f"{len(outs)} MEM_SWAP_OUT by pid {sw}, expected about {swapped_pages}", event="MEM_SWAP_OUT")
check(all(r["arg5"] == SWAP_IO and r["arg4"] == 1 and 0 < r["arg2"] < SCRATCH_PAGES
          for r in outs), "a MEM_SWAP_OUT is not one page written to /dev/vdb's offsets",
      event="MEM_SWAP_OUT")
check(len({r["arg1"] for r in outs}) == 1, "swap-outs name more than one swap type",
      event="MEM_SWAP_OUT")
sw_allocs = {r["arg1"] for r in ev("MEM_PAGE_ALLOC", sw)}
check(all(r["arg3"] in sw_allocs for r in outs),
      f"a page swapped out by pid {sw} was not allocated by it (PFN)", event="MEM_SWAP_OUT")

written = {(r["arg1"], r["arg2"]) for r in ev("MEM_SWAP_OUT")}
ins = ev("MEM_SWAP_IN", sw)
check(len(ins) >= swapped_pages // 4,
      f"{len(ins)} MEM_SWAP_IN by pid {sw}, expected most of {swapped_pages}", event="MEM_SWAP_IN")
check(all((r["arg1"], r["arg2"]) in written and r["arg5"] == SWAP_IO for r in ins),
      "a MEM_SWAP_IN reads a (type, offset) no MEM_SWAP_OUT wrote", event="MEM_SWAP_IN")

major = ev("MEM_FAULT_MAJOR", sw)
check(len(major) >= swapped_pages // 8,
      f"{len(major)} MEM_FAULT_MAJOR by pid {sw} reading back the swapped region",
      event="MEM_FAULT_MAJOR")
check(all(sregion <= r["arg1"] < sregion + slen and r["arg1"] % PAGE == 0 and
          r["arg2"] & FAULT_FLAG_USER and r["arg3"] & VM_FAULT_MAJOR and
          not r["arg3"] & VM_FAULT_ERROR and 0 < r["arg4"] < USER_END for r in major),
      "a major fault is outside the swapped region or lacks USER/VM_FAULT_MAJOR",
      event="MEM_FAULT_MAJOR")

# ---- the OOM kill of the known child
child, adj = facts["oom_child"], facts["oom_adj"]
kills = ev("MEM_OOM_KILL")
check(len(kills) == 1, f"{len(kills)} MEM_OOM_KILL, expected 1", event="MEM_OOM_KILL")
for r in kills:
    check((r["arg1"], r["arg2"], signed64(r["arg4"]), comm(r)) ==
          (child, child, adj, "lkst-oomvictim"),
          f"MEM_OOM_KILL (pid, tgid, oom_score_adj, comm) = "
          f"{(r['arg1'], r['arg2'], signed64(r['arg4']), comm(r))}, expected "
          f"{(child, child, adj, 'lkst-oomvictim')}", event="MEM_OOM_KILL")
    check(256 < r["arg3"] < 2048, f"OOM victim rss {r['arg3']} pages, expected about 4 MiB",
          event="MEM_OOM_KILL")
oom_ino = facts["oom_cgroup_ino"]
child_reclaims = ev("MEM_RECLAIM_START", child)
check(child_reclaims and all(r["arg3"] == RECLAIM_MEMCG and r["arg4"] == oom_ino
                             for r in child_reclaims),
      f"the OOM child's reclaims are missing or not of its cgroup (inode {oom_ino})",
      event="MEM_RECLAIM_START")

# ---- global pressure: kswapd's balance_pgdat() and direct reclaim
rec = read_csv(os.path.join(d, "reclaim.csv"))
kswapd, hog = facts["kswapd_pid"], facts["pid_hog"]
for name, who_arg, zero_args in (("MEM_RECLAIM_START", "arg3", ("arg4",)),
                                 ("MEM_RECLAIM_END", "arg2", ("arg3",))):
    k = [r for r in rec if r["id"] == EV[name] and r[who_arg] == RECLAIM_KSWAPD]
    check(k and all(r["pid"] == kswapd and all(r[a] == 0 for a in zero_args) for r in k),
          f"no {name} of kswapd (pid {kswapd}), or one by another pid", event=name)
    dr = [r for r in rec if r["id"] == EV[name] and r[who_arg] == RECLAIM_DIRECT]
    check(any(r["pid"] == hog for r in dr) and all(r["pid"] != kswapd and
                                                   all(r[a] == 0 for a in zero_args) for r in dr),
          f"no direct {name} by the hog (pid {hog})", event=name)

# ---- the OOM and reclaim phases' kernel log: nothing but the OOM reports
bad = re.compile(r"BUG:|WARNING:|Oops|general protection fault|lockdep|"
                 r"possible recursive locking|circular locking|inconsistent lock state|"
                 r"KASAN|UBSAN|Call Trace:|scheduling while atomic|"
                 r"sleeping function called from invalid context|\bstall")
in_report = False
with open(os.path.join(d, "dmesg.txt")) as f:
    log = f.read().splitlines()
check(log and "lkst-t41" in log[0], "dmesg.txt does not start at the scenario's marker")
killed = []
for line in log:
    if "invoked oom-killer" in line:
        in_report = True
    if bad.search(line) and not (in_report and "Call Trace:" in line):
        check(False, f"kernel log during the OOM/reclaim phases: {line}")
    m = re.search(r"Killed process (\d+)", line)
    if m:
        killed.append(int(m[1]))
        in_report = False
# The OOM child, and the hog if reclaim could not keep up (it volunteers).
hog_killed = facts.get("hog_oom_killed", 0)
check(killed == [child] + [hog] * hog_killed,
      f"OOM kills of pids {killed}, expected the OOM child {child}"
      + (f" then the hog {hog}" if hog_killed else ""))
done()
