"""The panic boot: the console up to the provoked oops is clean, and the
records lkst's panic notifier printed hold the user mark written before
the crash, OOPS_DIE for the BUG() (invalid opcode, trap 6) and OOPS_PANIC
with panic()'s message.

usage: panic_console.py CONSOLE_LOG
"""
import re
import struct
import subprocess
import sys
import tempfile

from lkstcheck import EV, check, covers, done

covers("OOPS_DIE", "OOPS_PANIC")
X86_TRAP_UD = 6
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


def text(words):
    return b"".join(struct.pack("<Q", w) for w in words).split(b"\0")[0].decode(errors="replace")


dump = re.compile(r"lkst-dump: cpu(\d+) (\d+)\.(\d+) pid (\d+) (\w+ )?0x([0-9a-f]+)((?: [0-9a-f]+){6})$")
records = []
for line in after:
    m = dump.search(line)
    if m:
        records.append(dict(cpu=int(m.group(1)), pid=int(m.group(4)),
                            id=int(m.group(6), 16),
                            args=[int(a, 16) for a in m.group(7).split()]))
check(any("lkst-dump: end" in l for l in after), "the panic dump did not finish")
check(records, "no records in the panic dump")

marks = [r for r in records if r["id"] == EV["USER_MARK"]]
check(any(text(r["args"]) == "before-the-crash" for r in marks),
      f"the mark is not in the dump: {[text(r['args']) for r in marks]}")
dies = [r for r in records if r["id"] == EV["OOPS_DIE"]]
check(len(dies) == 1 and dies[0]["args"][0] == X86_TRAP_UD and dies[0]["args"][3] == 1 and
      text(dies[0]["args"][4:6]) == "invalid opcode",
      f"OOPS_DIE (trap, err, ip, counter, message): {dies}", event="OOPS_DIE")
check(dies and dies[0]["args"][2] >= 0xffffffff80000000,
      "OOPS_DIE's instruction pointer is not a kernel address", event="OOPS_DIE")
panics = [r for r in records if r["id"] == EV["OOPS_PANIC"]]
check(len(panics) == 1 and text(panics[0]["args"]) == "Fatal exception",
      f"OOPS_PANIC message: {[text(r['args']) for r in panics]}", event="OOPS_PANIC")
# Both on the CPU that crashed, the panic after the oops.
order = [r["id"] for r in records if r["id"] in (EV["OOPS_DIE"], EV["OOPS_PANIC"])]
check(order == [EV["OOPS_DIE"], EV["OOPS_PANIC"]], f"oops and panic order: {order}")
done()
