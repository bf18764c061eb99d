"""lkst_stack records an event followed by its kernel stack (and user stack)
in STACK_KERNEL / STACK_USER records that carry the event's ID and index
their frames; the frames are exactly the known call chain of a pipe read,
in the kernel and in lkst_stackload's stack_a -> stack_b -> stack_c;
lkbuf read saves only the symbols the stacks need, which print the same on
another machine (this host); lkst_filter passes to it for one pid only;
bad input is refused; rmmod while routed under load is clean."""
import os
import re
import struct
import subprocess
import sys

from lkstcheck import ARCH, EV, check, covers, done, read_csv, read_log, sysnr

EV_STACK_K = EV["STACK_KERNEL"]
EV_STACK_U = EV["STACK_USER"]
EV_PIPE_READ = EV["IPC_PIPE_READ"]
EV_SYSCALL_ENTRY = EV["SYSCALL_ENTRY"]
META_SYMBOLS = 3
PER_RECORD = 5
EINVAL, EFAULT = 22, 14
NR_READ = sysnr(0, 63)

# The kernel's chain of a read(2) of a pipe, from IPC_PIPE_READ's hook in
# pipe_read_traced() (pipe_read() tail-calls it while the event is traced)
# up to the system call entry (ksys_read and vfs_read are not inlined in
# this kernel: System.map has them), and of SYSCALL_ENTRY's.
PIPE_CHAIN = ["pipe_read_traced", "vfs_read", "ksys_read", "do_syscall_64",
              "entry_SYSCALL_64_after_hwframe"]
SYSCALL_CHAIN = ["lkst_syscall_entry", "do_syscall_64",
                 "entry_SYSCALL_64_after_hwframe"]
# The system call's own function (x86: if not inlined) and the entry of
# openat(2) that a probe on do_sys_openat2 sees.
SYS_READ, SYS_OPENAT, ENTRY = ("__x64_sys_read", "x64_sys_call"), "__x64_sys_openat", \
    "do_syscall_64"
if ARCH == "aarch64":
    # arm64's: pipe_read() calls pipe_read_traced() (no tail call), the
    # syscall table's __arm64_sys_read through invoke_syscall,
    # el0_svc_common, the el0 sync handler and its vector.
    PIPE_CHAIN = ["pipe_read_traced", "pipe_read", "vfs_read", "ksys_read", "__arm64_sys_read",
                  "invoke_syscall", "el0_svc_common.constprop.0", "do_el0_svc", "el0_svc",
                  "el0t_64_sync_handler", "el0t_64_sync"]
    SYSCALL_CHAIN = ["lkst_invoke_traced", "invoke_syscall", "el0_svc_common.constprop.0"]
    # __arm64_sys_openat tail-calls do_sys_openat2: the probed function
    # itself is the frame before the entry's.
    SYS_READ, SYS_OPENAT, ENTRY = (), "do_sys_openat2", "invoke_syscall"

d = sys.argv[1]
covers("STACK_KERNEL", "STACK_USER")


def path(name):
    return os.path.join(d, name)


def read_words(name):
    """{first word: rest} of a "key value" file."""
    out = {}
    with open(path(name)) as f:
        for line in f:
            w = line.split()
            if w:
                out[w[0]] = w[1:]
    return out


def chain_facts(name):
    w = read_words(name)
    facts = {k: int(v[0], 0) for k, v in w.items() if k != "func" and v}
    funcs = {}
    with open(path(name)) as f:
        for line in f:
            p = line.split()
            if p[0] == "func":
                funcs[p[1]] = int(p[2], 0)
    facts["funcs"] = funcs
    return facts


def frames_of(row):
    return [row[f"arg{i}"] for i in range(2, 7)]


SYM = re.compile(r"^([A-Za-z0-9_.$]+)\+0x([0-9a-f]+)(?:/0x([0-9a-f]+))?( \[[^]]+\])?$")
POS = re.compile(r"^([A-Z0-9_]+|0x[0-9a-f]+) frames (\d+)-(\d+) of (\d+)$")


def stacks(rows, kind, what):
    """Groups [(event row, [stack rows])] of rows (one pid, in order): every
    event row not a STACK_* starts a group; stack rows of kind follow it."""
    groups = []
    for r in rows:
        if r["id"] not in (EV_STACK_K, EV_STACK_U):
            groups.append((r, {EV_STACK_K: [], EV_STACK_U: []}))
        elif not groups:
            check(False, f"{what}: a stack record before any event", r["event"])
        else:
            groups[-1][1][r["id"]].append(r)
    return [(ev, st[kind]) for ev, st in groups]


def check_positions(ev_row, recs, what, event_name):
    """The STACKPOS of raw rows: the event's ID, first 0, 5, 10..., one
    total; returns the frames in order."""
    frames = []
    if not check(recs, f"{what}: {ev_row['event']} at {ev_row['time']} has no stack",
                 event_name):
        return frames
    total = (recs[0]["arg1"] >> 32) & 0xffff
    check(len(recs) == (total + PER_RECORD - 1) // PER_RECORD,
          f"{what}: {len(recs)} records for {total} frames", event_name)
    for i, r in enumerate(recs):
        pos = r["arg1"]
        check(pos & 0xffff == ev_row["id"],
              f"{what}: stack record names event {pos & 0xffff:#x}, not {ev_row['id']:#x}",
              event_name)
        check((pos >> 16) & 0xffff == i * PER_RECORD,
              f"{what}: record {i} starts at frame {(pos >> 16) & 0xffff}", event_name)
        check((pos >> 32) & 0xffff == total, f"{what}: totals differ in one stack",
              event_name)
        check(r["cpu"] == ev_row["cpu"] and r["context"] == ev_row["context"],
              f"{what}: a stack record on another CPU or context than its event",
              event_name)
        n = min(PER_RECORD, total - i * PER_RECORD)
        got = frames_of(r)
        check(all(f for f in got[:n]) and all(f in (None, 0) for f in got[n:]),
              f"{what}: record {i} of {total} frames holds {got}", event_name)
        frames += got[:n]
    return frames


def symbols_of(sym_rows):
    """The frame texts of symbolized rows, split into (name, offset)."""
    out = []
    for r in sym_rows:
        for i in range(2, 7):
            v = r[f"arg{i}"]
            if v in (None, ""):
                continue
            m = SYM.match(str(v))
            out.append((m.group(1), int(m.group(2), 16)) if m else (str(v), None))
    return out


kallsyms = {}
with open(path("kallsyms.txt")) as f:
    for line in f:
        a, _t, name = line.split()[:3]
        kallsyms.setdefault(name, int(a, 16))

# ---- D: bad input -----------------------------------------------------
rc = {w[0]: int(w[1]) for w in (l.split() for l in open(path("rc.txt"))) if len(w) == 2}
check(rc.get("noload") == 2, f"lkm stack without the module: exit {rc.get('noload')}, not 2")
check("load it first (insmod lkst_stack.ko)" in open(path("noload.txt")).read(),
      "lkm stack without the module does not say what to load")
for name in ("depth0", "depth65", "depthgarbage", "depthneg", "userboth", "extra"):
    check(rc.get(name) == 1, f"lkm stack {name}: exit {rc.get(name)}, not 1")
bad = open(path("bad.txt")).read()
check(bad.count("bad depth") == 4, f"bad depths not all refused by name:\n{bad}")
check("contradict" in bad and "unexpected argument 'extra'" in bad,
      f"--user --no-user or an extra argument not refused:\n{bad}")
for f in ("config-default.txt", "config-after-bad.txt"):
    c = read_words(f)
    check(c.get("depth") == ["16"] and c.get("user") == ["off"],
          f"{f}: {c.get('depth')} {c.get('user')}, not the defaults 16 off")
check(read_words("config-64.txt").get("depth") == ["64"], "depth 64 not taken")
ctl = {w[0]: int(w[1]) for w in (l.split() for l in open(path("ctl.txt")))}
want_ctl = dict(get=0, get_short=EINVAL, set_short=EINVAL, set_long=EINVAL,
                set_zero_size=EINVAL, set_null=EFAULT, set_badptr=EFAULT,
                set_depth0=EINVAL, set_depth65=EINVAL, set_badflags=EINVAL,
                stat_long=EINVAL, badcmd=EINVAL, stat=0, set_saved=0)
check(ctl == want_ctl, f"control requests: {ctl}, want {want_ctl}")

# ---- A: IPC_PIPE_READ with kernel and user stacks -----------------------
fa = chain_facts("chain-a.txt")
raw = read_csv(path("a-raw.csv"))
sym = read_csv(path("a-sym.csv"))
check(len(raw) == len(sym), "print -C and print -r -C give different rows")
reads = [r for r in raw if r["id"] == EV_PIPE_READ]
check(len(reads) == 20, f"A: {len(reads)} IPC_PIPE_READ of the chain, want 20", "STACK_KERNEL")
check(all(r["pid"] == fa["pid"] for r in raw), "A: rows of another pid")
kgroups = stacks(raw, EV_STACK_K, "A kernel")
ugroups = stacks(raw, EV_STACK_U, "A user")
sym_by_time = {}
for r in sym:
    sym_by_time.setdefault((r["cpu"], r["time"]), []).append(r)
seen_k = seen_u = 0
for (ev, krecs), (_ev, urecs) in zip(kgroups, ugroups):
    check(ev["id"] == EV_PIPE_READ, f"A: a {ev['event']} record among the stacks", "STACK_KERNEL")
    kframes = check_positions(ev, krecs, "A kernel", "STACK_KERNEL")
    uframes = check_positions(ev, urecs, "A user", "STACK_USER")
    if kframes:
        seen_k += 1
        krows = [x for r in krecs for x in sym_by_time.get((r["cpu"], r["time"]), [])
                 if x["id"] == EV_STACK_K]
        names = symbols_of(krows)
        check([n for n, _ in names] == PIPE_CHAIN[:len(names)] and len(names) == len(PIPE_CHAIN) or
              [n for n, _ in names if n not in SYS_READ] == PIPE_CHAIN,
              f"A: kernel stack {names}, want {PIPE_CHAIN} (with {SYS_READ} "
              "if they are not inlined)", "STACK_KERNEL")
        # Symbolized exactly: the raw frame is the symbol's address + offset.
        for addr, (name, off) in zip(kframes, names):
            if name in kallsyms and off is not None:
                check(kallsyms[name] + off == addr,
                      f"A: {addr:#x} shown as {name}+{off:#x}, but {name} is at "
                      f"{kallsyms[name]:#x}", "STACK_KERNEL")
        check(len(kframes) <= 24, f"A: {len(kframes)} kernel frames with depth 24",
              "STACK_KERNEL")
    if uframes:
        seen_u += 1
        want = [fa["ip"], fa["ret_b"], fa["ret_a"], fa["ret_main"]]
        check(uframes[:4] == want,
              f"A: user stack {[hex(x) for x in uframes[:4]]}, want ip, ret_b, ret_a, "
              f"ret_main {[hex(x) for x in want]}", "STACK_USER")
        check(len(uframes) <= 24, f"A: {len(uframes)} user frames with depth 24", "STACK_USER")
check(seen_k == 20 and seen_u == 20, f"A: {seen_k} kernel and {seen_u} user stacks of 20 reads")
# The user frames fall inside their functions (each function ends where
# the next one printed starts).
starts = sorted(fa["funcs"].values())


def func_of(addr):
    best = None
    for name, a in fa["funcs"].items():
        nxt = [s for s in starts if s > a]
        end = nxt[0] if nxt else a + 0x1000
        if a <= addr < end:
            best = name
    return best


check(func_of(fa["ip"]) == "stack_c" and func_of(fa["ret_b"]) == "stack_b" and
      func_of(fa["ret_a"]) == "stack_a",
      f"A: ip {fa['ip']:#x}, ret_b {fa['ret_b']:#x}, ret_a {fa['ret_a']:#x} not in "
      f"stack_c, stack_b, stack_a {fa['funcs']}", "STACK_USER")
st = {k: int(v[0]) for k, v in read_words("stat-a.txt").items() if v and v[0].isdigit()}
check(st.get("events", 0) >= 20 and st.get("kernel_stacks") == st.get("events") and
      st.get("user_stacks", 0) >= 20 and
      st.get("user_stacks", 0) + st.get("user_skipped", 0) == st.get("events"),
      f"A: counters {st}")
text = open(path("a.txt")).read()
check(re.search(r" STACK_KERNEL stack=IPC_PIPE_READ frames 0-4 of \d+ frame=pipe_read_traced\+0x[0-9a-f]+/0x[0-9a-f]+ "
                r"frame=%s\+0x" % PIPE_CHAIN[1], text),
      "A: lkbuf print does not show the kernel stack symbolized", "STACK_KERNEL")
# --stacks: each read's line, then its frames a line each.
lines = open(path("a-stacks.txt")).read().splitlines()
want_k = ["    kernel #%d  %s+0x" % (i, n) for i, n in enumerate(PIPE_CHAIN)]
want_u = ["    user   #%d  %#x" % (i, a) for i, a in
          enumerate([fa["ip"], fa["ret_b"], fa["ret_a"], fa["ret_main"]])]
starts_at = [i for i, l in enumerate(lines) if " IPC_PIPE_READ " in l]
check(len(starts_at) == 20, f"--stacks: {len(starts_at)} reads shown", "STACK_KERNEL")
for i in starts_at:
    k = lines[i + 1:i + 1 + len(PIPE_CHAIN)]
    check(len(k) == len(PIPE_CHAIN) and all(a.startswith(w) for a, w in zip(k, want_k)),
          f"--stacks: kernel frames {k}", "STACK_KERNEL")
    u = lines[i + 1 + len(PIPE_CHAIN):i + 5 + len(PIPE_CHAIN)]
    check(u == want_u, f"--stacks: user frames {u}, want {want_u}", "STACK_USER")
# lkbuf record's logs: the same stacks, symbolized from their own symbols.
rec = open(path("rec-stacks.txt")).read().splitlines()
check(rc.get("record") == 0, f"lkbuf record exited {rc.get('record')}")
check(sum(1 for l in rec if " IPC_PIPE_READ " in l) == 20 and
      sum(1 for l in rec if l.startswith("    kernel #0  pipe_read_traced+0x")) == 20,
      f"lkbuf record: {sum(1 for l in rec if ' IPC_PIPE_READ ' in l)} reads, "
      f"{sum(1 for l in rec if l.startswith('    kernel #0  pipe_read_traced+0x'))} symbolized stacks",
      "STACK_KERNEL")
check(re.search(r" STACK_USER stack=IPC_PIPE_READ frames 0-4 of \d+ frame=0x%x frame=0x%x " %
                (fa["ip"], fa["ret_b"]), text), "A: lkbuf print's user stack", "STACK_USER")

# The symbols saved: only those the stacks need, sorted, and they print on
# this host, which has other symbols, the same.
info, _secs = read_log(path("a.log"))
blob = info["meta"].get(META_SYMBOLS)
if check(blob is not None, "A: a.log has no kernel symbols", "STACK_KERNEL"):
    nr, strsize = struct.unpack_from("<II", blob, 0)
    check(len(blob) == 8 + 16 * nr + strsize, "A: symbols section size")
    ents = [struct.unpack_from("<QII", blob, 8 + 16 * i) for i in range(nr)]
    strtab = blob[8 + 16 * nr:]
    names = [strtab[n:strtab.index(b"\0", n)].decode() for _a, _s, n in ents]
    check([a for a, _s, _n in ents] == sorted(set(a for a, _s, _n in ents)),
          "A: symbols not sorted")
    check(set(PIPE_CHAIN) <= set(names), f"A: symbols {names} lack some of {PIPE_CHAIN}")
    check(nr <= max(12, len(PIPE_CHAIN) + 5),
          f"A: {nr} symbols saved for a stack of about {len(PIPE_CHAIN) + 2} frames: {names}")
    for (a, _s, _n), name in zip(ents, names):
        if name in kallsyms:
            check(kallsyms[name] == a, f"A: saved {name} at {a:#x}, kallsyms {kallsyms[name]:#x}")
    lkbuf = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../utils/lkbuf")
    if os.access(lkbuf, os.X_OK):
        out = subprocess.run([lkbuf, "print", "-C", "-f", path("a.log"), "-p", str(fa["pid"])],
                             capture_output=True, text=True)
        check(out.returncode == 0 and out.stdout == open(path("a-sym.csv")).read(),
              "A: the host's lkbuf print of a.log differs from the guest's")
# kptr_restrict=2: a warning, no symbols, frames as hex.
err = open(path("restricted.err")).read()
check(rc.get("restricted") == 0 and "kptr_restrict" in err,
      f"restricted read: exit {rc.get('restricted')}, {err!r}")
rrows = read_csv(path("restricted.csv"))
rk = [r for r in rrows if r["id"] == EV_STACK_K]
check(rk and all(isinstance(r["arg2"], int) for r in rk),
      "restricted.log: kernel frames are not plain addresses")

# ---- B: SYSCALL_ENTRY, 3 frames, no user stack --------------------------
fb = chain_facts("chain-b.txt")
braw = read_csv(path("b-raw.csv"))
bsym = read_csv(path("b-sym.csv"))
check(not [r for r in braw if r["id"] == EV_STACK_U], "B: user stacks with --no-user", "STACK_USER")
bgroups = stacks(braw, EV_STACK_K, "B")
check(len(bgroups) >= 5 and all(ev["id"] == EV_SYSCALL_ENTRY for ev, _ in bgroups),
      f"B: {len(bgroups)} groups, not all SYSCALL_ENTRY", "STACK_KERNEL")
nreads = 0
for ev, recs in bgroups:
    frames = check_positions(ev, recs, "B", "STACK_KERNEL")
    check(len(frames) == 3, f"B: {len(frames)} frames with --depth 3", "STACK_KERNEL")
    nreads += ev["arg1"] == NR_READ
check(nreads >= 5, f"B: {nreads} read(2) entries of 5", "STACK_KERNEL")
bnames = [[n for n, _ in symbols_of([r])] for r in bsym if r["id"] == EV_STACK_K]
check(bnames and all(n == SYSCALL_CHAIN for n in bnames),
      f"B: SYSCALL_ENTRY stacks {bnames[:3]}, want {SYSCALL_CHAIN}", "STACK_KERNEL")
check(all(r["pid"] == fb["pid"] for r in braw), "B: rows of another pid")

# ---- C: the filter passes only pid X's events to stack -------------------
x = int(open(path("pid-x.txt")).read())
fx, fy = chain_facts("chain-x.txt"), chain_facts("chain-y.txt")
check(fx["pid"] == x, f"C: X ran as {fx['pid']}, not the shell's pid {x}")
craw = read_csv(path("c-raw.csv"))
xrows = [r for r in craw if r["pid"] == x]
check(not [r for r in craw if r["pid"] == fy["pid"]], "C: records of Y, which the filter drops",
      "STACK_KERNEL")
check(not [r for r in craw if r["id"] in (EV_PIPE_READ, EV_STACK_K, EV_STACK_U)
           and r["pid"] != x], "C: pipe reads or stacks of another pid", "STACK_KERNEL")
cg = list(zip(stacks(xrows, EV_STACK_K, "C"), stacks(xrows, EV_STACK_U, "C")))
check(all(ev["id"] == EV_PIPE_READ for (ev, _k), _u in cg),
      "C: X has records other than its pipe reads and their stacks", "STACK_KERNEL")
# X's pid also read the fifo, as the shell, before it exec'd the chain.
chain_reads = shell_reads = 0
for (ev, krecs), (_e, urecs) in cg:
    check_positions(ev, krecs, "C kernel", "STACK_KERNEL")
    uf = check_positions(ev, urecs, "C user", "STACK_USER")
    if uf[:1] == [fx["ip"]]:
        chain_reads += 1
        check(uf[:4] == [fx["ip"], fx["ret_b"], fx["ret_a"], fx["ret_main"]],
              f"C: X's user stack {[hex(a) for a in uf[:4]]}", "STACK_USER")
    else:
        shell_reads += 1
check(chain_reads == 10 and shell_reads <= 3,
      f"C: {chain_reads} pipe reads of the chain (want 10), {shell_reads} of the shell "
      "before its exec (want at most 3)", "STACK_KERNEL")
csym = read_csv(path("c-sym.csv"))
cnames = symbols_of([r for r in csym if r["id"] == EV_STACK_K and "frames 0-4" in str(r["arg1"])])
check(cnames and cnames[0][0] == "pipe_read_traced", f"C: first frame {cnames[:1]}", "STACK_KERNEL")

# ---- E: inside RALL ------------------------------------------------------
erows = read_csv(path("e-sym.csv"))
by_event = {}
for r in erows:
    if r["id"] != EV_STACK_K:
        continue
    m = POS.match(str(r["arg1"]))
    if check(m, f"E: stack position shown as {r['arg1']!r}", "STACK_KERNEL"):
        by_event.setdefault(m.group(1), []).append(r)
for name in ("IPC_PIPE_READ", "SYSCALL_ENTRY", "PROCESS_CONTEXTSWITCH", "HRTIMER_EXPIRE_ENTRY",
             "MEM_PAGE_ALLOC", "EXCEPTION_PAGEFAULT_ENTRY", "INT_SOFTIRQ_ENTRY"):
    check(name in by_event, f"E: no kernel stack of {name}; have {sorted(by_event)}",
          "STACK_KERNEL")
# The timer interrupt's stack, taken on the IRQ stack, goes on through the
# interrupted task's.
hr = [[n for n, _ in symbols_of([r])] for r in by_event.get("HRTIMER_EXPIRE_ENTRY", [])
      if r["context"] == "irq" and " frames 0-4 " in r["arg1"]]
check(any(f[:2] == ["__hrtimer_run_queues", "hrtimer_interrupt"] for f in hr),
      f"E: no HRTIMER_EXPIRE_ENTRY stack from hrtimer_interrupt in irq context: {hr[:2]}",
      "STACK_KERNEL")
sw = [n for n, _ in symbols_of([r for r in by_event.get("PROCESS_CONTEXTSWITCH", [])
                               if "frames 0-4" in r["arg1"]])]
check("__schedule" in sw, f"E: context switch stacks lack __schedule: {sw[:8]}", "STACK_KERNEL")
check(any(r["id"] == EV_STACK_U for r in erows), "E: no user stack", "STACK_USER")
se = {k: int(v[0]) for k, v in read_words("stat-e.txt").items() if v and v[0].isdigit()}
check(se.get("events", 0) > 0 and se.get("kernel_stacks", 0) > 0, f"E: counters {se}")

# ---- F: rmmod under load -------------------------------------------------
check(os.path.exists(path("busy-at-rmmod.txt")), "F: the load was not running at rmmod")
check(re.search(r"\bstack\b", open(path("handlers.txt")).read()) is not None,
      "lkm handlers does not list stack")
check(re.search(r"\bstack\b", open(path("handlers-after.txt")).read()) is None,
      "F: stack still registered after rmmod")
check("pid" in read_words("chain-f.txt"), "F: lkst_stackload after rmmod")

print(f"A: {seen_k} kernel and {seen_u} user stacks; counters {st}; "
      f"B: {len(bgroups)} syscall stacks; C: {chain_reads} + {shell_reads} reads of pid {x}; "
      f"E: stacks of {len(by_event)} events, counters {se}")
# G: a probe on do_sys_openat2 routed to stack says who calls it: cat's
# openat(2) comes through __x64_sys_openat (__arm64_sys_openat) and the system
# call entry.
g = read_csv(path("g-sym.csv"))
probe_rows = [r for r in g if r["event"] == "who_opens" and r["arg2"] == "cat"]
check(probe_rows, "G: no who_opens record of cat in g-sym.csv")
callers = []
for i, r in enumerate(g):
    if r not in probe_rows:
        continue
    frames = []
    for s in g[i + 1:]:
        if s["id"] != EV_STACK_K or s["cpu"] != r["cpu"]:
            break
        frames += [f for f in frames_of(s) if f]
    names = [m.group(1) if m else "?" for m in
             (SYM.match(f) if isinstance(f, str) else None for f in frames)]
    callers.append(names)
    # Unwound from the probed function's registers: it comes first (its ip
    # is past the probe's breakpoint, +0x1).
    check(names[:1] == ["do_sys_openat2"],
          f"G: who_opens of cat at {r['time']}: first frame {frames[:1]}, want do_sys_openat2")
    check(SYS_OPENAT in names and ENTRY in names and
          names.index(SYS_OPENAT) < names.index(ENTRY),
          f"G: who_opens of cat at {r['time']}: stack {names}, want {SYS_OPENAT} "
          f"then {ENTRY}")
with open(path("g-stacks.txt")) as f:
    text = f.read()
check(SYS_OPENAT + "+" in text, f"G: lkbuf print --stacks shows no {SYS_OPENAT} frame")

done()
