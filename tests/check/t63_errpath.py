"""lkst_errpath records exactly the failing system calls and the page
faults that end in SIGSEGV/SIGBUS of a known load, with their arguments
and durations, nothing for the successful calls; hands events on to
DEFAULT with pass_on; goes away cleanly while routed.  Prints the buffer
space errpath and DEFAULT used for the same load."""
import os
import re
import sys

from lkstcheck import (ARCH, EV, EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT, SYSCALL_ABI, check,
                       covers, done, read_csv, read_log_cpus, signed64, sysnr)

EV_ERROR = EV["SYSCALL_ERROR"]
EV_FAULT_SIGNAL = EV["EXCEPTION_FAULT_SIGNAL"]
EV_PF_ENTRY = EV["EXCEPTION_PAGEFAULT_ENTRY"]
UNKNOWN = (1 << 64) - 1
SIGBUS, SIGSEGV = 7, 11
SEGV_MAPERR, BUS_ADRERR = 1, 2
PF_PROT, PF_WRITE, PF_USER = 1, 2, 4
WAIT_NS = 20000000          # lkst_errload's rt_sigtimedwait timeout
NR_SIGTIMEDWAIT = sysnr(128, 137)
NR_GETRANDOM = sysnr(318, 278)
# arm64's error code is the ESR of the data abort: its class (a data abort
# from EL0), WnR (bit 6: a write) and the fault status (a translation fault
# at some level: not present).
ESR_EC_DABT_LOW, ESR_WNR, ESR_DFSC_TRANS = 0x24, 1 << 6, 0x04
EAGAIN = 11
TOL_NS = 100000             # user clock_gettime vs the records' clock
SLOT = 64 + 8               # a record and its sequence number in a block

d = sys.argv[1]
covers("SYSCALL_ERROR", "EXCEPTION_FAULT_SIGNAL")


def read_prog(name):
    """lkst_errload's output: facts, failing calls, children."""
    prog = dict(calls=[], children=[])
    with open(os.path.join(d, name)) as f:
        for line in f:
            w = line.split()
            if w[0] == "pid":
                prog.update(pid=int(w[1]), start=int(w[3]), end=int(w[5]),
                            successes=int(w[7]))
            elif w[0] == "call":
                c = {w[i]: int(w[i + 1], 0) for i in range(2, len(w) - 1, 2)}
                c["nr"] |= SYSCALL_ABI      # as the records carry it
                prog["calls"].append(c)
            elif w[0] == "child":
                prog["children"].append({w[i]: int(w[i + 1], 0)
                                         for i in range(1, len(w) - 1, 2)})
    return prog


def of_pids(rows, pids):
    return [r for r in rows if r["pid"] in pids]


def in_run(rows, prog):
    """The rows of the load's pid from main()'s first clock read to its last."""
    return [r for r in of_pids(rows, {prog["pid"]})
            if prog["start"] <= int(r["time"]) <= prog["end"]]


def check_startup(rows, prog, what, errors_only=False):
    """Before main(), static glibc's malloc asks getrandom(GRND_NONBLOCK) for
    a key, which fails with -EAGAIN until the kernel's random pool is ready:
    the only error the load may have outside its run (and, unless
    errors_only, the only record)."""
    for r in of_pids(rows, {prog["pid"]}):
        if prog["start"] <= int(r["time"]) <= prog["end"]:
            continue
        if errors_only and r["id"] not in (EV_ERROR, EV_FAULT_SIGNAL):
            continue
        ok = r["id"] == EV_ERROR and r["arg1"] == NR_GETRANDOM and \
            signed64(r["arg2"]) == -EAGAIN
        check(ok, f"{what}: pid {prog['pid']} has a record outside its run: "
              f"event {r['id']:#x} args {r['arg1']:#x} {r['arg2']:#x}")


def written(name):
    with open(os.path.join(d, name)) as f:
        return sum(int(line.split()[1]) for line in f if line.strip())


def check_error(rec, call, what, pass_rows=None):
    """One SYSCALL_ERROR against the call lkst_errload made."""
    nr, ret, dur = rec["arg1"], signed64(rec["arg2"]), rec["arg3"]
    check(nr == call["nr"], f"{what}: number {nr:#x}, expected {call['nr']}", "SYSCALL_ERROR")
    check(ret == call["ret"], f"{what}: returned {ret}, expected {call['ret']}", "SYSCALL_ERROR")
    args = [rec["arg4"], rec["arg5"], rec["arg6"]]
    want = [call["a0"], call["a1"], call["a2"]]
    check(args == want, f"{what}: arguments {[hex(a) for a in args]}, expected "
          f"{[hex(a) for a in want]}", "SYSCALL_ERROR")
    if not check(dur != UNKNOWN, f"{what}: duration unknown", "SYSCALL_ERROR"):
        return
    # The entry and exit lie between the program's clock reads around the call.
    t = int(rec["time"])
    check(0 < dur <= call["after"] - call["before"] + TOL_NS,
          f"{what}: duration {dur} ns, the call took at most "
          f"{call['after'] - call['before']} ns", "SYSCALL_ERROR")
    check(t - dur >= call["before"] - TOL_NS and t <= call["after"] + TOL_NS,
          f"{what}: entry {t - dur} and exit {t} not within the call "
          f"[{call['before']}, {call['after']}]", "SYSCALL_ERROR")
    if call["nr"] == NR_SIGTIMEDWAIT:
        check(dur >= WAIT_NS, f"{what}: rt_sigtimedwait failed after {dur} ns, "
              f"its timeout is {WAIT_NS} ns", "SYSCALL_ERROR")


def check_fault_signals(rows, prog, what):
    """Exactly one EXCEPTION_FAULT_SIGNAL per child, with its fault."""
    for child in prog["children"]:
        recs = of_pids(rows, {child["pid"]})
        faults = [r for r in recs if r["id"] == EV_FAULT_SIGNAL]
        if not check(len(faults) == 1, f"{what}: child {child['pid']} (signal "
                     f"{child['sig']}): {len(faults)} EXCEPTION_FAULT_SIGNAL records, "
                     "expected 1", "EXCEPTION_FAULT_SIGNAL"):
            continue
        f = faults[0]
        addr, err, ip, sig, code = (f["arg1"], f["arg2"], f["arg3"], f["arg4"],
                                    signed64(f["arg5"]))
        want_code = SEGV_MAPERR if child["sig"] == SIGSEGV else BUS_ADRERR
        check(addr == child["addr"], f"{what}: child {child['pid']} fault address "
              f"{addr:#x}, expected {child['addr']:#x}", "EXCEPTION_FAULT_SIGNAL")
        check(sig == child["sig"] and code == want_code,
              f"{what}: child {child['pid']}: signal {sig} si_code {code}, expected "
              f"{child['sig']} {want_code}", "EXCEPTION_FAULT_SIGNAL")
        # A user read; not present for the unmapped page, and for the page of
        # the file beyond its end.
        if ARCH == "aarch64":
            user_read_absent = ((err >> 26) & 0x3f == ESR_EC_DABT_LOW and not err & ESR_WNR and
                                err & 0x3c == ESR_DFSC_TRANS)
        else:
            user_read_absent = err & (PF_USER | PF_WRITE | PF_PROT) == PF_USER
        check(user_read_absent,
              f"{what}: child {child['pid']}: error code {err:#x}, expected a user "
              "read of a page not present", "EXCEPTION_FAULT_SIGNAL")
        check(child["func"] <= ip < child["func"] + 16,
              f"{what}: child {child['pid']}: ip {ip:#x} is not in touch() at "
              f"{child['func']:#x}", "EXCEPTION_FAULT_SIGNAL")
        check(len(recs) == 1, f"{what}: child {child['pid']} has {len(recs)} records, "
              "expected only its fault signal")


# ---- A: errpath alone -------------------------------------------------
with open(os.path.join(d, "handlers.txt")) as f:
    check("errpath" in f.read(), "lkm handlers does not list errpath")
a = read_prog("prog-errpath.txt")
rows_a = read_csv(os.path.join(d, "errpath.csv"))
calls = a["calls"]
check(len(calls) == 40 and a["successes"] == 960 and len(a["children"]) == 2,
      f"lkst_errload made {len(calls)} failing and {a['successes']} successful calls, "
      f"{len(a['children'])} children; expected 40, 960, 2")
mine = in_run(rows_a, a)
errors = [r for r in mine if r["id"] == EV_ERROR]
check_startup(rows_a, a, "errpath")
check(len(errors) == len(calls), f"{len(errors)} SYSCALL_ERROR records for pid {a['pid']} "
      f"during its run, expected {len(calls)}", "SYSCALL_ERROR")
for i, (rec, call) in enumerate(zip(errors, calls)):
    check_error(rec, call, f"call {i}")
check(len(mine) == len(errors),
      f"pid {a['pid']} has {len(mine) - len(errors)} records besides its errors: "
      f"{sorted(set(hex(r['id']) for r in mine if r not in errors))}")
check(not any(r["id"] == EV_FAULT_SIGNAL for r in mine),
      "the read into a PROT_NONE page (fixed up by the exception table) gave a fault signal",
      "EXCEPTION_FAULT_SIGNAL")
check_fault_signals(rows_a, a, "errpath")

# Only errpath writes these events: the log holds exactly what it counted,
# and nothing else was recorded while it was routed.
counters = {}
with open(os.path.join(d, "counters.txt")) as f:
    for line in f:
        k, v = line.split()
        counters[k] = int(v)
errs_all = [r for r in rows_a if r["id"] == EV_ERROR]
faults_all = [r for r in rows_a if r["id"] == EV_FAULT_SIGNAL]
check(counters["errors"] == len(errs_all) + len(faults_all),
      f"errors counter {counters['errors']}, the log holds {len(errs_all)} SYSCALL_ERROR "
      f"and {len(faults_all)} EXCEPTION_FAULT_SIGNAL records")
check(counters["fault_signals"] == len(faults_all) == 2,
      f"fault_signals counter {counters['fault_signals']}, {len(faults_all)} in the log, "
      "expected the 2 children's", "EXCEPTION_FAULT_SIGNAL")
check(counters["unknown_duration"] == sum(r["arg3"] == UNKNOWN for r in errs_all),
      f"unknown_duration counter {counters['unknown_duration']} does not match the log")
written_a = written("written-errpath-after.txt") - written("written-errpath-before.txt")
check(written_a == counters["errors"],
      f"{written_a} records written while errpath was routed, it recorded "
      f"{counters['errors']}")

# The text form marks the errors and names the errno.
with open(os.path.join(d, "errpath.txt")) as f:
    text = [t for t in f.read().splitlines() if "syscall_number=getrandom " not in t]
check(len(text) == len(calls) + 2 and all("!SYSCALL_ERROR " in t or "!EXCEPTION_FAULT_SIGNAL "
                                          in t for t in text),
      f"lkbuf print text: {len(text)} lines, expected {len(calls) + 2} marked with '!'")
check(sum("return_value=-2(ENOENT)" in t for t in text) == 10 and
      sum("return_value=-11(EAGAIN)" in t for t in text) == 10,
      "lkbuf print text does not name ENOENT and EAGAIN ten times each")

# ---- B: the same load under DEFAULT, and the space each took ---------
b = read_prog("prog-default.txt")
rows_b = read_csv(os.path.join(d, "default.csv"))
pids_b = {b["pid"]} | {c["pid"] for c in b["children"]}
recs_b = in_run(rows_b, b) + of_pids(rows_b, pids_b - {b["pid"]})
syscalls = sum(r["id"] == EV_SYSCALL_ENTRY for r in recs_b)
faults_b = sum(r["id"] == EV_PF_ENTRY for r in recs_b)
failed_b = [r for r in recs_b if r["id"] == EV_SYSCALL_EXIT and r["pid"] == b["pid"] and
            b["start"] <= int(r["time"]) <= b["end"] and -4095 <= signed64(r["arg2"]) < 0]
check([(r["arg1"], signed64(r["arg2"])) for r in failed_b] ==
      [(c["nr"], c["ret"]) for c in b["calls"]],
      "the failing exits DEFAULT recorded are not the calls lkst_errload made fail")
check(len(b["calls"]) == len(calls) and syscalls > b["successes"] + len(b["calls"]),
      f"DEFAULT recorded {syscalls} system call entries of the load")
recs_a = in_run(rows_a, a) + of_pids(rows_a, {c["pid"] for c in a["children"]})
if syscalls:
    per_a = 1000 * len(recs_a) / syscalls
    per_b = 1000 * len(recs_b) / syscalls
    print(f"space: the load made {syscalls} system calls ({len(calls)} failing) and "
          f"{faults_b} page faults (2 ending in a signal)")
    print(f"space: errpath {len(recs_a)} records ({len(recs_a) * SLOT} bytes), "
          f"{per_a:.1f} per 1000 system calls")
    print(f"space: DEFAULT {len(recs_b)} records ({len(recs_b) * SLOT} bytes), "
          f"{per_b:.1f} per 1000 system calls; errpath uses "
          f"{len(recs_b) / max(len(recs_a), 1):.0f}x less")
    written_b = written("written-default-after.txt") - written("written-default-before.txt")
    print(f"space: written system-wide while routed: errpath {written_a}, DEFAULT {written_b}")
    check(len(recs_a) == len(calls) + 2, f"errpath wrote {len(recs_a)} records for the load, "
          f"expected {len(calls) + 2}")

# ---- C: pass_on -------------------------------------------------------
c = read_prog("prog-pass.txt")
rows_c = in_run(read_csv(os.path.join(d, "pass.csv")), c)
errors_c = [r for r in rows_c if r["id"] == EV_ERROR]
check(len(errors_c) == len(c["calls"]) == 4,
      f"pass_on: {len(errors_c)} SYSCALL_ERROR records, expected {len(c['calls'])} (4)")
entries = [r for r in rows_c if r["id"] == EV_SYSCALL_ENTRY]
exits = [r for r in rows_c if r["id"] == EV_SYSCALL_EXIT]
check(len(entries) >= c["successes"] + 4 and len(exits) == len(entries),
      f"pass_on: {len(entries)} entries and {len(exits)} exits handed on to DEFAULT")
for i, (rec, call) in enumerate(zip(errors_c, c["calls"])):
    check_error(rec, call, f"pass_on call {i}")
    # DEFAULT recorded the entry and the exit just before errpath's own
    # clock reads: the duration spans them.
    t = int(rec["time"])
    before = [r for r in rows_c if int(r["time"]) <= t]
    ent = [r for r in before if r["id"] == EV_SYSCALL_ENTRY][-1]
    ext = [r for r in before if r["id"] == EV_SYSCALL_EXIT][-1]
    span = int(ext["time"]) - int(ent["time"])
    check(ent["arg1"] == ext["arg1"] == call["nr"] and signed64(ext["arg2"]) == call["ret"],
          f"pass_on call {i}: the DEFAULT records before it are not its entry and exit")
    check(span - 2000000 <= rec["arg3"] <= t - int(ent["time"]),
          f"pass_on call {i}: duration {rec['arg3']}, DEFAULT's entry-exit span {span}",
          "SYSCALL_ERROR")

# ---- E: errpath inside a copy of RALL ----------------------------------
e = read_prog("prog-all.txt")


def read_list(name):
    """{cpu: [written, size of its current block]} from `lkbuf list`."""
    cpus, cpu = {}, None
    with open(os.path.join(d, name)) as f:
        for line in f:
            m = re.match(r"cpu (\d+) .*?; written (\d+),", line)
            if m:
                cpu = int(m.group(1))
                cpus[cpu] = [int(m.group(2)), 0]
            m = re.search(r"size (\d+), .*\[current:", line)
            if m and cpu is not None:
                cpus[cpu][1] = int(m.group(1))
    return cpus


# All of E must still be in the buffers: what each CPU wrote, at 64 bytes a
# record at most, plus a page its writer empties ahead, fits its block.
list_before, list_after = read_list("list-all-before.txt"), read_list("list-all-after.txt")
for cpu, (w_after, size) in list_after.items():
    w = w_after - list_before[cpu][0]
    print(f"errall: cpu{cpu} wrote {w} records into a block of {size} bytes")
    check(0 < w and w * 64 + 2 * 4096 <= size,
          f"errall: cpu{cpu} wrote {w} records, its block holds {size} bytes: "
          "the load's records may have been overwritten")
rows_e = read_csv(os.path.join(d, "all.csv"))
run_e = in_run(rows_e, e)
errors_e = [r for r in run_e if r["id"] == EV_ERROR]
check(len(run_e) > 4 * len(errors_e), f"errall: only {len(run_e)} records of the load: "
      "the other events were not recorded around errpath")
check(not any(r["id"] in (EV_SYSCALL_ENTRY, EV_SYSCALL_EXIT) for r in run_e),
      "errall: system calls routed to errpath were recorded")
check(len(errors_e) == len(e["calls"]) == 8,
      f"errall: {len(errors_e)} SYSCALL_ERROR records, expected {len(e['calls'])} (8)",
      "SYSCALL_ERROR")
for i, (rec, call) in enumerate(zip(errors_e, e["calls"])):
    check_error(rec, call, f"errall call {i}")
check_startup(rows_e, e, "errall", errors_only=True)
check_fault_signals([r for r in rows_e if r["id"] == EV_FAULT_SIGNAL], e, "errall")

# ---- D: rmmod while routed and busy ------------------------------------
busy = read_prog("prog-busy.txt")
check(os.path.exists(os.path.join(d, "busy-at-rmmod.txt")),
      "the load had ended before rmmod")
with open(os.path.join(d, "handlers-after.txt")) as f:
    check("errpath" not in f.read(), "lkm handlers still lists errpath after rmmod")
rows_l = read_csv(os.path.join(d, "later.csv"))
errors_busy = [r for r in in_run(rows_l, busy) if r["id"] == EV_ERROR]
check_startup(rows_l, busy, "busy")
check(0 < len(errors_busy) < len(busy["calls"]),
      f"{len(errors_busy)} of the busy load's {len(busy['calls'])} errors recorded: "
      "rmmod did not happen while it ran")
for i, (rec, call) in enumerate(zip(errors_busy, busy["calls"])):
    check_error(rec, call, f"busy call {i}")
after = read_prog("prog-after.txt")
check(not of_pids(rows_l, {after["pid"]}), "events routed to the removed handler were recorded")
cpus_r, cpus_l = read_log_cpus(os.path.join(d, "after-rmmod.log")), \
    read_log_cpus(os.path.join(d, "later.log"))
for cpu in cpus_r:
    check(cpus_r[cpu]["written"] == cpus_l[cpu]["written"],
          f"cpu{cpu} recorded events routed to the removed handler")
done()
