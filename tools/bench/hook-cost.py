#!/usr/bin/env python3
"""What the hook sites cost while off, function by function: compares each
function that holds a hook site in the patched vmlinux with the same
function of the pristine one (same configuration), by the registers its
prologue saves, its frame and its size.  A site that costs only its NOP
leaves the prologue alone; one whose arguments stay live across other
calls makes the function save more registers on every call, hook or not.

usage: hook-cost.py PATCHED_VMLINUX PRISTINE_VMLINUX [--all]
Prints one line per function whose prologue saves more registers or takes
a bigger frame (--all: every hooked function), then how many do.  Both
kernels must come from one configuration (make bench builds such a pair;
make bench-arm64 the arm64 one, disassembled with aarch64-linux-gnu-objdump).
"""
import re
import subprocess
import sys
from pathlib import Path

COUNT_HOOKS = Path(__file__).resolve().parent.parent / "build" / "count-hooks.py"
FUNC = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")


EM_AARCH64 = 183


def is_arm64(vmlinux):
    with open(vmlinux, "rb") as f:
        header = f.read(20)
    return int.from_bytes(header[18:20], "little") == EM_AARCH64


def disassemble(vmlinux, wanted):
    """{function: [instruction text]} for the functions in WANTED."""
    out, cur = {}, None
    cmd = ["objdump", "-d", "--no-show-raw-insn", "-M", "att", vmlinux]
    if is_arm64(vmlinux):
        cmd = ["aarch64-linux-gnu-objdump", "-d", "--no-show-raw-insn", vmlinux]
    proc = subprocess.Popen(cmd,
                            stdout=subprocess.PIPE, text=True, bufsize=1 << 20)
    for line in proc.stdout:
        m = FUNC.match(line)
        if m:
            cur = m.group(1) if m.group(1) in wanted else None
            if cur:
                out[cur] = []
            continue
        if cur and line.strip() and ":" in line:
            out[cur].append(line.split(":", 1)[1].strip())
    proc.wait()
    return out


ARM64_SAVE = re.compile(r"^(stp|str)\s+(x\d+|x29|x30)(?:,\s*(x\d+))?,\s*\[sp(?:,\s*#(-?\d+))?\](!?)")
ARM64_SUB_SP = re.compile(r"^sub\s+sp,\s*sp,\s*#(0x[0-9a-f]+|\d+)")


def prologue_arm64(insns):
    """Registers stored to the stack and stack bytes reserved at the
    function's start (stp/str of x19-x30 to [sp...], a pre-indexed store's
    and sub sp's decrement), up to the first instruction that is none of
    those, a pointer-authentication or BTI hint, a nop (ftrace's patchable
    entry) or a register move."""
    saved, frame = [], 0
    for text in insns[:24]:
        text = text.split("//")[0].strip()
        op = text.split()[0]
        m = ARM64_SAVE.match(text)
        if m:
            saved += [r for r in (m.group(2), m.group(3)) if r]
            if m.group(5) and m.group(4):
                frame += -int(m.group(4))
            continue
        m = ARM64_SUB_SP.match(text)
        if m:
            frame += int(m.group(1), 0)
        elif op in ("paciasp", "autiasp", "bti", "hint", "nop", "mov", "mrs", "adrp", "add", "ldr"):
            continue    # argument and per-CPU loads are interleaved with the saves
        elif saved or frame:
            break
    return saved, frame


def prologue(insns):
    """Registers pushed and stack bytes reserved at the function's start,
    up to the first instruction that is neither one of those nor an
    endbr, nop, __fentry__ call or argument move (mov, lea, xor)."""
    pushes, frame = [], 0
    for text in insns[:24]:
        op = text.split()[0]
        if op.startswith("push"):
            pushes.append(text.split()[-1])
        elif op.startswith("sub") and text.endswith(",%rsp"):
            frame = int(text.split()[1].split(",")[0].lstrip("$"), 16)
        elif op.startswith(("endbr", "nop", "mov", "xor", "lea")) or "__fentry__" in text:
            continue    # argument moves are interleaved with the pushes
        elif pushes or frame:
            break
    return pushes, frame


def hooked_functions(vmlinux):
    """{function: [event names]} from count-hooks.py --list's site lines."""
    out = subprocess.run([sys.executable, str(COUNT_HOOKS), vmlinux, "--list"],
                         capture_output=True, text=True, check=False).stdout
    sites = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0].startswith("0x"):
            sites.setdefault(parts[2], []).append(parts[1])
    return sites


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    sites = hooked_functions(args[0])
    if not sites:
        sys.exit(f"{args[0]}: no hook sites found")
    patched = disassemble(args[0], set(sites))
    pristine = disassemble(args[1], set(sites))
    prologue_of = prologue_arm64 if is_arm64(args[0]) else prologue
    differ = 0
    for fn in sorted(sites):
        if fn not in patched:
            continue
        pp, pf = prologue_of(patched[fn])
        if fn not in pristine:
            print(f"{fn:40} new function (pushes {len(pp)}, frame {pf}) {' '.join(sorted(set(sites[fn])))}")
            differ += 1
            continue
        qp, qf = prologue_of(pristine[fn])
        changed = len(pp) > len(qp) or pf > qf
        differ += changed
        if changed or "--all" in sys.argv:
            print(f"{fn:40} pushes {len(qp)}->{len(pp)} frame {qf}->{pf} "
                  f"size {len(pristine[fn])}->{len(patched[fn])} "
                  f"{' '.join(sorted(set(sites[fn])))}")
    print(f"{differ} of {len(sites)} hooked functions save more registers, "
          "take a bigger frame or are new")


main()
