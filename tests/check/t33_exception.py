"""Exceptions: each trap lkst_traps raised in a child is recorded with the
vector, error code, ip and fault address the child saw in its signal frame,
and its exit with the signal; page faults with their address and error
code; NMIs of the sysrq backtrace."""
import os
import sys

from lkstcheck import ARCH, EV, check, covers, done, events, read_csv

covers("EXCEPTION_ENTRY", "EXCEPTION_EXIT", "EXCEPTION_PAGEFAULT_ENTRY",
       "EXCEPTION_PAGEFAULT_EXIT", "NMI_ENTRY", "NMI_EXIT")

X86_TRAP_PF = 14
PF_WRITE, PF_USER = 2, 4
# Every one of these must fault in the guest as on hardware; #AC and #XM
# depend on the emulator (QEMU's TCG checks neither), so they are checked
# only when the child got a signal.
REQUIRED = {"de", "db", "bp", "of", "br", "ud", "np", "ss", "gp", "pf", "mf"}
# Traps whose signal frame error code is the hardware error code.
ERRCODE = {"np", "ss", "gp", "pf"}
# do_trap() records si_addr as the fault address: the ip for #DE and #UD.
ADDR_IS_IP = {"de", "ud"}
if ARCH == "aarch64":
    # tests/guest/lkst_traps_arm64.h: the ESR's class where x86 has its
    # vector, the ESR as error code (the frame carries it for data aborts:
    # pf, handled apart), the pc as fault address for undef and BRK; a
    # misaligned pc ("pc") may not fault under the emulator; "mrs" is
    # emulated (no signal); WnR (ESR bit 6) marks a write, and arg4 user mode.
    REQUIRED = {"ud", "bp", "pf"}
    ERRCODE = set()
    ADDR_IS_IP = {"ud", "bp"}
    PF_WRITE, PF_USER = 1 << 6, 0


def read_traps(path):
    traps, touch, parent = {}, None, None
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "trap":
                t = {w[i]: int(w[i + 1], 0) for i in range(2, len(w) - 1, 2)}
                traps[w[1]] = t
            elif w[0] == "touch":
                touch = (int(w[2]), int(w[4], 16))
            elif w[0] == "pid":
                parent = int(w[1])
    return traps, touch, parent


d = sys.argv[1]
rows = sorted(read_csv(os.path.join(d, "trace.csv")), key=lambda r: int(r["time"]))
traps, touch, parent = read_traps(os.path.join(d, "traps.txt"))


def ev(name):
    return events(rows, EV[name])


entries, exits = ev("EXCEPTION_ENTRY"), ev("EXCEPTION_EXIT")
pf_in, pf_out = ev("EXCEPTION_PAGEFAULT_ENTRY"), ev("EXCEPTION_PAGEFAULT_EXIT")

for name in sorted(REQUIRED):
    t = traps.get(name)
    check(t is not None and t["signal"] != 0 and t["trapno"] == t["expect"],
          f"trap {name}: the child did not take its expected exception: {t}",
          event="EXCEPTION_PAGEFAULT_ENTRY" if name == "pf" else "EXCEPTION_ENTRY")

if ARCH == "aarch64":
    t = traps.get("mrs")
    mine = [r for r in entries if t and r["pid"] == t["pid"]]
    outs = [r for r in exits if t and r["pid"] == t["pid"]]
    check(t is not None and t["signal"] == 0 and len(mine) == 1 and mine[0]["arg1"] == 0
          and mine[0]["arg3"] == mine[0]["arg5"] and mine[0]["arg4"] == 1,
          f"trap mrs (emulated): {t}, EXCEPTION_ENTRY {mine}", event="EXCEPTION_ENTRY")
    check(len(outs) == 1 and outs[0]["arg2"] == 0,
          f"trap mrs: EXCEPTION_EXIT {outs}, expected one with signal 0", event="EXCEPTION_EXIT")
    t = traps.get("pc")
    if t and t["signal"]:
        mine = [r for r in entries if r["pid"] == t["pid"]]
        check(len(mine) == 1 and mine[0]["arg5"] == t["addr"],
              f"trap pc: fault address {[hex(r['arg5']) for r in mine]}, si_addr {t['addr']:#x}",
              event="EXCEPTION_ENTRY")

for name, t in sorted(traps.items()):
    if ARCH == "aarch64" and name == "mrs":
        continue
    if t["signal"] == 0:
        print(f"note: trap {name} did not fault in this guest (emulator)")
        continue
    if name == "pf":
        continue
    mine = [r for r in entries if r["pid"] == t["pid"]]
    check(len(mine) == 1, f"trap {name}: {len(mine)} EXCEPTION_ENTRY for pid {t['pid']}",
          event="EXCEPTION_ENTRY")
    if not mine:
        continue
    e = mine[0]
    check(e["arg1"] == t["trapno"], f"trap {name}: vector {e['arg1']}, the child saw "
          f"{t['trapno']}", event="EXCEPTION_ENTRY")
    check(e["arg3"] == t["ip"], f"trap {name}: ip {e['arg3']:#x}, the child saw {t['ip']:#x}",
          event="EXCEPTION_ENTRY")
    check(e["arg4"] == 1, f"trap {name}: not recorded as from user mode", event="EXCEPTION_ENTRY")
    if name in ERRCODE:
        check(e["arg2"] == t["err"], f"trap {name}: error code {e['arg2']:#x}, the child "
              f"saw {t['err']:#x}", event="EXCEPTION_ENTRY")
    if name in ADDR_IS_IP:
        check(e["arg5"] == t["addr"] == t["ip"], f"trap {name}: fault address "
              f"{e['arg5']:#x}, si_addr {t['addr']:#x}", event="EXCEPTION_ENTRY")
    if name == "db":
        check(e["arg2"] & 0x4000, f"trap db: DR6 {e['arg2']:#x} without BS (single step)",
              event="EXCEPTION_ENTRY")
    outs = [r for r in exits if r["pid"] == t["pid"]]
    check(len(outs) == 1 and outs[0]["arg1"] == t["trapno"] and outs[0]["arg2"] == t["signal"]
          and int(outs[0]["time"]) >= int(e["time"]),
          f"trap {name}: EXCEPTION_EXIT {[(r['arg1'], r['arg2']) for r in outs]}, expected "
          f"vector {t['trapno']} signal {t['signal']}", event="EXCEPTION_EXIT")

# Page faults: the unmapped write (SIGSEGV) and the first touch of a page.
t = traps.get("pf")
if t and t["signal"]:
    mine = [r for r in pf_in if r["pid"] == t["pid"] and r["arg1"] == t["addr"]]
    check(len(mine) == 1, f"trap pf: {len(mine)} EXCEPTION_PAGEFAULT_ENTRY at {t['addr']:#x}",
          event="EXCEPTION_PAGEFAULT_ENTRY")
    if mine:
        e = mine[0]
        check(e["arg2"] == t["err"] and e["arg3"] == t["ip"] and e["arg4"] == 1,
              f"trap pf: error {e['arg2']:#x} ip {e['arg3']:#x} user {e['arg4']}, the child "
              f"saw error {t['err']:#x} ip {t['ip']:#x}", event="EXCEPTION_PAGEFAULT_ENTRY")
        outs = [r for r in pf_out if r["pid"] == t["pid"] and r["arg1"] == t["addr"]]
        check(len(outs) == 1 and outs[0]["arg2"] == t["err"],
              "trap pf: no EXCEPTION_PAGEFAULT_EXIT with its address and error code",
              event="EXCEPTION_PAGEFAULT_EXIT")
    check(not [r for r in entries if r["pid"] == t["pid"]],
          "trap pf: a page fault recorded as EXCEPTION_ENTRY", event="EXCEPTION_ENTRY")
check(touch is not None, "traps.txt has no touch line")
if touch:
    pid, addr = touch
    mine = [r for r in pf_in if r["pid"] == pid and r["arg1"] == addr]
    check(len(mine) == 1 and mine[0]["arg2"] & (PF_WRITE | PF_USER) == PF_WRITE | PF_USER
          and mine[0]["arg4"] == 1,
          f"first touch of {addr:#x}: {[(r['arg2'], r['arg4']) for r in mine]}, expected one "
          "user write fault", event="EXCEPTION_PAGEFAULT_ENTRY")
    outs = [r for r in pf_out if r["pid"] == pid and r["arg1"] == addr]
    check(len(outs) == 1 and mine and int(outs[0]["time"]) >= int(mine[0]["time"]),
          f"first touch of {addr:#x}: no EXCEPTION_PAGEFAULT_EXIT after the entry",
          event="EXCEPTION_PAGEFAULT_EXIT")
# Every page fault entry has its exit (one may be cut at each end).
check(abs(len(pf_in) - len(pf_out)) <= 2,
      f"{len(pf_in)} page fault entries, {len(pf_out)} exits", event="EXCEPTION_PAGEFAULT_EXIT")

if ARCH == "aarch64":
    # NMI_* have x86 sites only (events.def): sysrq l's backtraces come by
    # IPI_CPU_BACKTRACE, an IPI without pseudo-NMIs (t31 sees them).
    with open(os.path.join(d, "nmi_backtraces.txt")) as f:
        backtraces = int(f.read().split()[0])
    check(not ev("NMI_ENTRY") and backtraces >= 2,
          f"{backtraces} CPU backtraces logged, NMI_ENTRY on arm64", event="NMI_ENTRY")
    done()
# NMIs: sysrq l sends an NMI to every other CPU, whose handler claims it.
nmi_in, nmi_out = ev("NMI_ENTRY"), ev("NMI_EXIT")
check(nmi_in, "no NMI_ENTRY after sysrq l", event="NMI_ENTRY")
check(all(r["context"] == "nmi" and r["arg1"] == r["cpu"] for r in nmi_in),
      "NMI_ENTRY outside NMI context or with another CPU number", event="NMI_ENTRY")
check(all(r["arg1"] == r["cpu"] and r["context"] == "nmi" for r in nmi_out),
      "NMI_EXIT outside NMI context or with another CPU number", event="NMI_EXIT")
for e in nmi_in:
    outs = [r for r in nmi_out if r["cpu"] == e["cpu"] and int(r["time"]) >= int(e["time"])]
    check(outs and outs[0]["arg2"] >= 1,
          f"NMI on CPU {e['cpu']}: no exit after it, or no handler claimed it", event="NMI_EXIT")
with open(os.path.join(d, "nmi_backtraces.txt")) as f:
    backtraces = int(f.read().split()[0])
check(len(nmi_in) >= 1 and backtraces >= 2,
      f"{len(nmi_in)} NMIs recorded, {backtraces} CPU backtraces logged", event="NMI_ENTRY")
done()
