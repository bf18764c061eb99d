"""The panic boot: the console up to the provoked oops is clean, and the
records lkst's panic notifier printed hold the user mark written before
the crash, OOPS_DIE for the NULL dereference (page fault, trap 14, read of a
not-present page in kernel mode: error code 0) and OOPS_PANIC
with panic()'s message.  On arm64 OOPS_DIE carries the ESR's class (a data
abort at EL1) and the ESR (a read, a translation fault), and panic()'s
message starts with die()'s "Oops: ".

usage: panic_console.py CONSOLE_LOG [ARCH]   (ARCH: uname -m, default x86_64)
"""
import re
import subprocess
import sys
import tempfile

from lkstcheck import EV, check, covers, done

covers("OOPS_DIE", "OOPS_PANIC")
X86_TRAP_PF = 14
ARCH = sys.argv[2] if len(sys.argv) > 2 else "x86_64"
ESR_EC_DABT_CUR, ESR_WNR, ESR_DFSC_TRANS = 0x25, 1 << 6, 0x04
MARKER = "lkst-panic: provoking an oops"

with open(sys.argv[1], errors="replace") as f:
    lines = [l.rstrip("\r\n") for l in f]
at = [i for i, l in enumerate(lines) if MARKER in l]
check(len(at) == 1, f"{len(at)} '{MARKER}' lines on the console, expected 1")
before, after = (lines[:at[0]], lines[at[0]:]) if at else (lines, [])

with tempfile.NamedTemporaryFile("w", suffix=".log") as tmp:
    tmp.write("\n".join(before) + "\n")
    tmp.flush()
    clean = subprocess.run(["tests/qemu/check-console.sh", tmp.name]).returncode == 0
check(clean, "kernel problems on the console before the provoked oops")


# "lkst-dump: cpu0 3.938413856 pid 77 OOPS_DIE 0xc0 e 0 ffffffff81421260 1 "Oops""
dump = re.compile(r"lkst-dump: cpu(\d+) (\d+)\.(\d+) pid (\d+) (\S+) 0x([0-9a-f]+)(.*)$")
records = []
for line in after:
    m = dump.search(line)
    if m:
        args = [s if q else int(h, 16) for q, s, h in
                re.findall(r'( "([^"]*)")|(?: ([0-9a-f]+))', m.group(7))]
        records.append(dict(cpu=int(m.group(1)), pid=int(m.group(4)), name=m.group(5),
                            id=int(m.group(6), 16), args=args))
check(any("lkst-dump: end" in l for l in after), "the panic dump did not finish")
check(records, "no records in the panic dump")

marks = [r for r in records if r["id"] == EV["USER_MARK"]]
check(all(r["name"] == name for name in EV for r in records if r["id"] == EV[name]),
      "an event is printed under another name")
check(any(r["args"] == ["before-the-crash"] for r in marks),
      f"the mark is not in the dump: {[r['args'] for r in marks]}")
dies = [r for r in records if r["id"] == EV["OOPS_DIE"]]
if ARCH == "aarch64":
    esr = dies[0]["args"][1] if len(dies) == 1 else 0
    kernel_read = ((esr >> 26) & 0x3f == ESR_EC_DABT_CUR and not esr & ESR_WNR and
                   esr & 0x3c == ESR_DFSC_TRANS)
    cause, text_min, panic_msg = [ESR_EC_DABT_CUR], 0xffff800000000000, "Oops: Fatal exception"
else:
    kernel_read = len(dies) == 1 and dies[0]["args"][1] == 0
    cause, text_min, panic_msg = [X86_TRAP_PF], 0xffffffff80000000, "Fatal exception"
check(len(dies) == 1 and dies[0]["args"][:1] == cause and kernel_read and
      dies[0]["args"][3:] == [1, "Oops"],
      f"OOPS_DIE (trap, err, ip, counter, message): {dies}", event="OOPS_DIE")
check(dies and dies[0]["args"][2] >= text_min,
      "OOPS_DIE's instruction pointer is not a kernel address", event="OOPS_DIE")
panics = [r for r in records if r["id"] == EV["OOPS_PANIC"]]
check(len(panics) == 1 and panics[0]["args"] == [panic_msg],
      f"OOPS_PANIC message: {[r['args'] for r in panics]}", event="OOPS_PANIC")
# Both on the CPU that crashed, the panic after the oops.
order = [r["id"] for r in records if r["id"] in (EV["OOPS_DIE"], EV["OOPS_PANIC"])]
check(order == [EV["OOPS_DIE"], EV["OOPS_PANIC"]], f"oops and panic order: {order}")
done()
