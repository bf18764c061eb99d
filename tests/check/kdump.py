"""A trace taken out of a kdump vmcore (tests/scenarios/kdump.sh).

The scratch disk holds, at offset 0, a tar of before.log (what `lkbuf read`
got shortly before the panic) and, 16 MiB in, the /proc/vmcore the capture
kernel saved.  `lkbuf extract` turns the vmcore and the vmlinux into
crash.log, which must hold every record of before.log and every record
lkst's panic notifier printed on the console, number for number, with the
overwritten and dropped counts the notifier printed, and end with
OOPS_PANIC.  The consoles of both kernels are clean (up to the provoked
panic, and the capture kernel's).

usage: kdump.py RUN_DIR VMLINUX LKBUF
"""
import os
import re
import subprocess
import sys
import tarfile
import tempfile

from lkstcheck import EV, check, covers, done, read_log

covers("OOPS_PANIC", "USER_MARK")
run, vmlinux, lkbuf = sys.argv[1:4]
MARKER = "lkst-kdump: provoking a panic"
VMCORE_AT = 16 << 20

with open(os.path.join(run, "console.log"), errors="replace") as f:
    lines = [l.rstrip("\r\n") for l in f]
at = [i for i, l in enumerate(lines) if MARKER in l]
boots = [i for i, l in enumerate(lines) if "Linux version" in l]
if not (len(at) == 1 and len(boots) == 2 and boots[0] < at[0] < boots[1]):
    check(False, f"expected boot, panic, capture boot: {len(boots)} boots, {len(at)} markers")
    done()
for name, part in (("test kernel up to the panic", lines[:at[0]]),
                   ("capture kernel", lines[boots[1]:])):
    with tempfile.NamedTemporaryFile("w", suffix=".log") as tmp:
        tmp.write("\n".join(part) + "\n")
        tmp.flush()
        clean = subprocess.run(["tests/qemu/check-console.sh", tmp.name]).returncode == 0
    check(clean, f"kernel problems on the console: {name}")

# The dump between the marker and the capture kernel.
dump_re = re.compile(r"lkst-dump: cpu(\d+) (\d+)\.(\d{9}) pid (\d+) (\S+) 0x([0-9a-f]+)")
counts_re = re.compile(r"lkst-dump: cpu(\d+) counts: overwritten (\d+) dropped (\d+)")
dumped, counts = [], {}
for l in lines[at[0]:boots[1]]:
    m = dump_re.search(l)
    if m:
        dumped.append((int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)),
                       int(m.group(4)), int(m.group(6), 16)))
    m = counts_re.search(l)
    if m:
        counts[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
check(len(dumped) > 0 and counts, "no lkst-dump records or counts on the console")

size_file = os.path.join(run, "capture", "vmcore-size")
check(os.path.exists(size_file), "the capture kernel saved no vmcore")
if not os.path.exists(size_file):
    done()
size = int(open(size_file).read())
scratch = os.path.join(run, "scratch.img")
with tarfile.open(scratch) as t:
    t.extract("before.log", run)
vmcore = os.path.join(run, "vmcore")
with open(scratch, "rb") as src, open(vmcore, "wb") as dst:
    src.seek(VMCORE_AT)
    left = size
    while left:
        chunk = src.read(min(left, 1 << 24))
        if not chunk:
            break
        dst.write(chunk)
        left -= len(chunk)
check(os.path.getsize(vmcore) == size, "the vmcore on the scratch disk is short")

crash = os.path.join(run, "crash.log")
r = subprocess.run([lkbuf, "extract", "--vmcore", vmcore, "--vmlinux", vmlinux, "-f", crash],
                   capture_output=True, text=True)
print(r.stderr, end="")
check(r.returncode == 0, f"lkbuf extract exited {r.returncode}")
if r.returncode:
    done()

_h, before = read_log(os.path.join(run, "before.log"))
_h, extracted = read_log(crash)
ex = {s["cpu"]: s for s in extracted}
held = {(s["cpu"],) + r[:5] + (tuple(r[5]),) for s in extracted for r in s["recs"]}
brief = {(s["cpu"], r[1], r[2], r[3]) for s in extracted for r in s["recs"]}
wanted = [(s["cpu"],) + r[:5] + (tuple(r[5]),) for s in before for r in s["recs"]]
from_before = sum(w in held for w in wanted)
check(len(wanted) > 300, f"before.log holds only {len(wanted)} records")
check(from_before == len(wanted),
      f"{len(wanted) - from_before} of {len(wanted)} records read before the panic are missing")
before_brief = {(w[0], w[2], w[3], w[4]) for w in wanted}
only_dumped = [d for d in dumped if d not in before_brief]
from_dump = sum(d in brief for d in only_dumped)
check(from_dump == len(only_dumped),
      f"{len(only_dumped) - from_dump} of the records the panic dump printed are missing")
print(f"vmcore: {from_before + from_dump} of {len(wanted) + len(only_dumped)} records extracted")

for cpu, (overwritten, dropped) in counts.items():
    s = ex.get(cpu)
    if s is None:
        check(False, f"cpu {cpu}: not in the extracted log")
        continue
    check((s["overwritten"], s["dropped"]) == (overwritten, dropped),
          f"cpu {cpu}: extracted overwritten {s['overwritten']}, dropped {s['dropped']}; "
          f"the panic dump said {overwritten}, {dropped}")
    seqs = [r[0] for r in s["recs"]]
    check(seqs == sorted(seqs) and len(set(seqs)) == len(seqs),
          f"cpu {cpu}: numbers out of order")

last = max(((r[1], r[3]) for s in extracted for r in s["recs"]), default=None)
check(last is not None and last[1] == EV["OOPS_PANIC"],
      f"the newest extracted record is not OOPS_PANIC: {last}")
done()
