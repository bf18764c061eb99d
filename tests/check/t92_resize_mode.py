"""lkbuf resize replaced every block of every CPU, keeping IDs and links;
STOP mode kept the first records of a full block and dropped the rest."""
import os
import re
import sys

from lkstcheck import (EV_SYSCALL_ENTRY, NR_LSEEK, check, done, events,
                       read_csv, read_log_cpus, read_prog)

d = sys.argv[1]
CPU_LINE = re.compile(r"^cpu (\d+) \((\w+), (\w+)\): (\d+) blocks; written (\d+), "
                      r"overwritten (\d+), dropped (\d+)$")
BLOCK_LINE = re.compile(r"^  block (\d+): size (\d+), (\d+) pages, next (\w+)"
                        r"( \[current: (\d+) of (\d+) bytes used\])?$")
PAGE, MAX_RECORD, PAGE_HEAD = 4096, 64, 64
PAGE_RECORDS = (PAGE - PAGE_HEAD) // 16     # most records a page holds


def min_records(used):
    """Fewest records that fill `used` bytes of a block: pages' heads and
    the unused ends of full pages taken out, every record 64 bytes."""
    return max(0, (used - 2 * PAGE_HEAD * (used // PAGE + 1)) // MAX_RECORD)


def read_list(name):
    """{cpu: dict(mode, written, overwritten, dropped, blocks={id: (size, next, current)})}"""
    cpus, cpu = {}, None
    with open(os.path.join(d, name)) as f:
        for line in f.read().splitlines():
            m = CPU_LINE.match(line)
            if m:
                cpu = int(m.group(1))
                cpus[cpu] = dict(mode=m.group(3), written=int(m.group(5)),
                                 overwritten=int(m.group(6)), dropped=int(m.group(7)),
                                 blocks={})
                continue
            m = BLOCK_LINE.match(line)
            check(m and cpu is not None, f"{name}: unexpected line {line!r}")
            if m:
                cur = int(m.group(6)) if m.group(5) else None
                cpus[cpu]["blocks"][int(m.group(1))] = (int(m.group(2)), m.group(4), cur)
    return cpus


before = read_list("list_before.txt")
quiet = read_list("list_quiet.txt")
resized = read_list("list_resized.txt")
check(len(before) >= 2, f"list shows {len(before)} CPUs")
check(all(c["mode"] == "overwrite" for c in before.values()),
      "the default mode is overwrite")
boot = before[0]["blocks"][0][0]
check(boot != 65536, f"boot block size {boot} is already 64K; the test proves nothing")
check(set(resized) == set(before), "resize changed the set of CPUs")
for cpu, c in resized.items():
    ids = set(c["blocks"])
    want = set(before[cpu]["blocks"]) | ({1} if cpu == 1 else set())
    check(ids == want, f"cpu {cpu}: blocks {sorted(ids)} after resize, expected {sorted(want)}")
    for bid, (size, nxt, _cur) in c["blocks"].items():
        check(size == 65536, f"cpu {cpu} block {bid}: size {size} after resize -s 64K")
    check(c["written"] >= before[cpu]["written"], f"cpu {cpu}: counters went back")
    # The new blocks start empty and are written from their first page: of
    # the records written since the quiet list, those now in the current
    # block overwrote nothing (the others went to the old, wrapped block).
    q = quiet[cpu]
    grown = c["overwritten"] - q["overwritten"]
    fill = [min_records(b[2]) for b in c["blocks"].values() if b[2] is not None]
    check(fill and grown <= c["written"] - q["written"] - fill[0],
          f"cpu {cpu}: {grown} overwritten, {c['written'] - q['written']} written "
          f"since the quiet list, {fill} in the new current block")
    check(q["blocks"][0][0] == 32768, f"cpu {cpu}: block 0 not 32K after two resizes under load")
check(resized.get(1, {}).get("blocks", {}).get(1, (0, ""))[1] == "0",
      "cpu 1 block 1 lost its link to block 0 in the resize")
cur0 = [b for b in resized[0]["blocks"].values() if b[2] is not None]
check(len(cur0) == 1 and cur0[0][2] < 65536,
      f"cpu 0's current block after resize: {cur0}")

# STOP mode: the new block 1 on cpu 0 (16 pages) filled once and stopped.
stop_list = read_list("list_stop.txt")
after = read_list("list_after_stop.txt")
check(stop_list[0]["mode"] == "stop" and stop_list[1]["mode"] == "overwrite",
      "create -c 0 -m stop set the mode of cpu 0 only")
check(stop_list[0]["blocks"].get(1, (0,))[0] == 65536, "no 64K block 1 on cpu 0")
check(after[0]["blocks"][1][2] > 65536 - MAX_RECORD,
      f"block 1 not full: {after[0]['blocks'][1]}")
check(after[0]["overwritten"] == stop_list[0]["overwritten"],
      f"cpu 0 overwrote {after[0]['overwritten'] - stop_list[0]['overwritten']} "
      "records in STOP mode")
lseeks = 2000

pid, _ = read_prog(os.path.join(d, "prog.txt"))
rows = read_csv(os.path.join(d, "stop.csv"))
tag = 0x92920000
kept = sorted(r["arg3"] - tag for r in events(rows, EV_SYSCALL_ENTRY)
              if r["pid"] == pid and r["arg1"] == NR_LSEEK)
check(0 < len(kept) < lseeks, f"{len(kept)} of {lseeks} lseeks kept")
check(kept == list(range(len(kept))),
      f"STOP kept lseeks {kept[:3]}..{kept[-3:]}, not the first ones in order")
cpus = read_log_cpus(os.path.join(d, "stop.log"))
check(cpus[0]["records"] <= 2 * 16 * PAGE_RECORDS, f"{cpus[0]['records']} records saved")
# Every lseek entry and exit that found no room was dropped.
check(after[0]["dropped"] - stop_list[0]["dropped"] >= 2 * lseeks - cpus[0]["records"],
      f"cpu 0 dropped {after[0]['dropped'] - stop_list[0]['dropped']}, "
      f"expected at least {2 * lseeks - cpus[0]['records']}")

all_stop = read_list("list_all_stop.txt")
all_over = read_list("list_all_overwrite.txt")
check(all(c["mode"] == "stop" for c in all_stop.values()), "mode -a stop")
check(all(c["mode"] == "overwrite" for c in all_over.values()), "mode -a overwrite")
end = read_list("list_end.txt")
check(all(set(c["blocks"]) == {0} and c["blocks"][0][0] == boot for c in end.values()),
      "the buffers were not restored to one boot-size block per CPU")
done()
