"""lkst_pagewalk.ko recorded MEM_PAGE_SNAPSHOT runs of the workload: its
pid, PFNs inside the guest's RAM, increasing snapshot numbers, and every
snapshot covering the buffer the workload touched and kept."""
import os
import sys

from lkstcheck import ARCH, EV, check, covers, done, events, read_csv

covers("MEM_PAGE_SNAPSHOT")
d = sys.argv[1]
PAGE = 4096
RAM_PAGES = 512 * 1024 * 1024 // PAGE   # the guest has 512 MiB (tests/qemu/run.sh)
# Its first PFN (QEMU virt's RAM starts at 1 GiB on arm64) and the end of
# user space (47 bits on x86-64, 48 on arm64).
RAM_START, USER_END = (1 << 30) // PAGE, 1 << 48
if ARCH != "aarch64":
    RAM_START, USER_END = 0, 1 << 47
EVENT = "MEM_PAGE_SNAPSHOT"


def read_words(name):
    with open(os.path.join(d, name)) as f:
        return f.read().split()


prog = read_words("prog.txt")   # pid P buffer 0xADDR pages N / rounds R
pid, buf, buf_pages = int(prog[1]), int(prog[3], 16), int(prog[5])
snaps = list(events(read_csv(os.path.join(d, "trace.csv")), EV[EVENT]))

check(read_words("pid_set.txt") == [str(pid)], "the pid parameter did not read back", EVENT)
check(read_words("unrouted.txt") == ["0"],
      "snapshots were taken while MEM_PAGE_SNAPSHOT was not routed", EVENT)
check(read_words("pid_after.txt") == ["0"],
      "the pid parameter is not 0 after the workload exited (walk did not stop)", EVENT)
check(read_words("truncated.txt") == ["0"], "a snapshot was cut at max_runs", EVENT)
check(read_words("truncated_capped.txt") not in (["0"], []),
      "max_runs=4 did not cut a snapshot of the shell", EVENT)
check(len(snaps) > 0, "no MEM_PAGE_SNAPSHOT records", EVENT)
check(all(r["arg1"] == pid for r in snaps),
      f"snapshot records of other pids than {pid}: "
      f"{sorted({r['arg1'] for r in snaps} - {pid})}", EVENT)
check(all(r["pid"] != pid for r in snaps),
      "a snapshot was recorded by the workload itself, not the work item", EVENT)

bad_pfn = [r for r in snaps
           if not (RAM_START < r["arg3"] and r["arg4"] >= 1 and
                   r["arg3"] + r["arg4"] <= RAM_START + RAM_PAGES)]
check(not bad_pfn, f"runs outside the guest's {RAM_PAGES} pages of RAM: {bad_pfn[:3]}", EVENT)
check(all(r["arg2"] % PAGE == 0 and r["arg2"] < USER_END for r in snaps),
      "a run's virtual address is not a page-aligned user address", EVENT)

# Snapshot numbers: non-decreasing in time, each snapshot's runs together.
numbers = [r["arg5"] for r in sorted(snaps, key=lambda r: float(r["time"]))]
check(numbers == sorted(numbers), "snapshot numbers go backwards in time", EVENT)
distinct = sorted(set(numbers))
check(len(distinct) >= 2, f"fewer than 2 snapshots in 3.5 s: {distinct}", EVENT)
check(distinct == list(range(distinct[0], distinct[0] + len(distinct))) if distinct else False,
      f"snapshot numbers are not consecutive: {distinct}", EVENT)
check(distinct and read_words("snapshots.txt") == [str(distinct[-1])],
      f"the snapshots parameter {read_words('snapshots.txt')} is not the last number "
      f"{distinct[-1:]}", EVENT)

# Within a snapshot, runs are coalesced and do not overlap: a run never
# continues the previous one both virtually and physically.
for n in distinct:
    runs = sorted((r["arg2"], r["arg3"], r["arg4"]) for r in snaps if r["arg5"] == n)
    for (va, pfn, pages), (vb, pfnb, _) in zip(runs, runs[1:]):
        check(vb >= va + pages * PAGE, f"snapshot {n}: runs overlap at {vb:#x}", EVENT)
        check(not (vb == va + pages * PAGE and pfnb == pfn + pages),
              f"snapshot {n}: runs at {va:#x} and {vb:#x} were not coalesced", EVENT)
    # The buffer the workload touched at start and kept mapped to its end.
    covered = 0
    for va, pfn, pages in runs:
        lo, hi = max(va, buf), min(va + pages * PAGE, buf + buf_pages * PAGE)
        covered += max(0, hi - lo) // PAGE
    check(covered == buf_pages,
          f"snapshot {n} covers {covered} of the {buf_pages} pages of the buffer at {buf:#x}",
          EVENT)
done()
