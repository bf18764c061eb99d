"""Buffers kept across a warm reboot (tests/scenarios/persist.sh).

The first boot, on cold RAM, says it found no previous trace; the second
says it kept one with no page refused.  The first could neither resize nor
delete the persistent buffer, nor link it to a block it created nor jump
there (lkbuf exits 2 saying why); the second fuzzes its persistent
buffers, resizes, deletes, links and jumps out of the region refused as
documented.  The log the second boot saved with
`lkbuf read --previous-boot` holds every record the first boot read before
the crash (before.log), number for number, then the mark written after
that read, OOPS_DIE and OOPS_PANIC in that order, and nothing after the
panic on any CPU; nothing was lost, and the counters saved at panic are
at least those read before it.  The console of each boot,
up to the provoked oops and from the second boot on, is clean.

usage: persist.py RESULTS_DIR   (RESULTS_DIR/../console.log is the console)
"""
import os
import re
import subprocess
import sys
import tempfile

from lkstcheck import EV, check, covers, done, read_log

covers("OOPS_DIE", "OOPS_PANIC", "USER_MARK")
d = sys.argv[1]
MARKER = "lkst-persist: provoking an oops"

with open(os.path.join(d, "..", "console.log"), errors="replace") as f:
    lines = [l.rstrip("\r\n") for l in f]
at = [i for i, l in enumerate(lines) if MARKER in l]
boots = [i for i, l in enumerate(lines) if "Linux version" in l]
check(len(at) == 1 and len(boots) == 2 and boots[0] < at[0] < boots[1],
      f"expected boot, oops, boot on the console: {len(boots)} boots, {len(at)} oops markers")
if len(at) == 1 and len(boots) == 2:
    first, second = lines[:at[0]], lines[boots[1]:]
    check(any("lkst: persist: region lkst holds no previous trace: no trace there" in l
              for l in first), "the cold boot did not report an empty region")
    kept = [re.search(r"kept the previous boot's trace: (\d+) records of (\d+) CPUs, (\d+) pages refused", l)
            for l in second]
    kept = [m for m in kept if m]
    check(len(kept) == 1 and kept[0].group(3) == "0",
          f"the second boot did not keep the trace with no page refused: {[m.group(0) for m in kept]}")
    for name, part in (("first boot up to the oops", first), ("second boot", second)):
        with tempfile.NamedTemporaryFile("w", suffix=".log") as tmp:
            tmp.write("\n".join(part) + "\n")
            tmp.flush()
            clean = subprocess.run(["tests/qemu/check-console.sh", tmp.name]).returncode == 0
        check(clean, f"kernel problems on the console: {name}")


def text_of(args):
    return b"".join(a.to_bytes(8, "little") for a in args).rstrip(b"\0").decode(errors="replace")


_h, before = read_log(os.path.join(d, "before.log"))
# The first boot could neither resize nor delete the persistent buffer, nor
# move the writer off it by a link or a jump to a block it created.
refusals = open(os.path.join(d, "refusals.txt")).read().splitlines()
fuzzed = open(os.path.join(d, "fuzz-result.txt")).read().strip()
fz = re.match(r"fuzz exited 0 unexpected_answers 0 persistent_refusals (\d+)", fuzzed)
check(fz and int(fz.group(1)) > 0, f"the fuzzer on persistent buffers: {fuzzed}")
verbs = ("resize", "delete", "link", "jump")
check(len(refusals) == len(verbs) and
      all(r.startswith(f"{v} exited 2 ") and "persistent" in r for v, r in zip(verbs, refusals)),
      f"resize, delete, link and jump out of the persistent buffer were not all refused: {refusals}")

_h, previous = read_log(os.path.join(d, "previous.log"))
prev_by_cpu = {s["cpu"]: s for s in previous}
wanted = recovered = 0
for s in before:
    p = prev_by_cpu.get(s["cpu"])
    held = {r[:5] + (tuple(r[5]),) for r in p["recs"]} if p else set()
    for r in s["recs"]:
        wanted += 1
        recovered += r[:5] + (tuple(r[5]),) in held
check(wanted > 300, f"before.log holds only {wanted} records")
check(recovered == wanted, f"{wanted - recovered} of {wanted} records read before the crash are missing")
print(f"persist: {recovered} of {wanted} records recovered after a warm reboot")

marks_before = [text_of(r[5]) for s in before for r in s["recs"] if r[3] == EV["USER_MARK"]]
check(all(f"persist-{i}" in marks_before for i in range(300)), "before.log lacks some of the 300 marks")

before_by_cpu = {s["cpu"]: s for s in before}
for s in previous:
    seqs = [r[0] for r in s["recs"]]
    check(seqs == list(range(s["seq_start"], s["seq_end"])),
          f"cpu {s['cpu']}: the kept numbers are not contiguous")
    check(s["lost"] == 0 and s["overwritten"] == 0,
          f"cpu {s['cpu']}: lost {s['lost']}, overwritten {s['overwritten']}")
    # The counters saved at panic: at least what the read before saw.
    b = before_by_cpu.get(s["cpu"])
    check(b is not None and s["dropped"] >= b["dropped"] and s["written"] >= b["written"],
          f"cpu {s['cpu']}: counters at panic below those read before it")

recs = sorted((r[1], s["cpu"], r) for s in previous for r in s["recs"])
order = [(r[3], text_of(r[5]) if r[3] == EV["USER_MARK"] else "") for _t, _c, r in recs]
try:
    i_after = order.index((EV["USER_MARK"], "after-the-read"))
    i_die = next(i for i, o in enumerate(order) if o[0] == EV["OOPS_DIE"])
    i_panic = next(i for i, o in enumerate(order) if o[0] == EV["OOPS_PANIC"])
except (ValueError, StopIteration):
    check(False, "the kept trace lacks the mark after the read, OOPS_DIE or OOPS_PANIC")
else:
    check(i_after < i_die < i_panic, "the mark, OOPS_DIE and OOPS_PANIC are out of order")
    check(i_panic == len(order) - 1,
          f"{len(order) - 1 - i_panic} records after OOPS_PANIC: {order[i_panic + 1:][:5]}")
done()
