"""The differential test: lkst's hooks against ftrace's own tracepoints.

The guest ran one workload (tests/guest/lkst_diffload.c) with lkst under
RALL and the upstream twins of its hooks enabled in ftrace, both on for
the whole life of the workload's process tree.  Here, for every pair of
(upstream event, lkst event) in PAIRS, the records that belong to that tree
are turned into tuples of the facts both carry and compared as multisets,
per pair and per pid: each record of one side must have an identical one
on the other.

Every difference must be explained by a row of differential.tsv (the
deliberate ones, each with its reason); a row marked "always" that explains
nothing this run is a failure too, so a difference that went away is
noticed.  Every event of lkst's table is either in a pair or listed there as
having no upstream twin.
"""
import collections
import fnmatch
import gzip
import os
import re
import sys
import tempfile

from lkstcheck import ARCH, EV, EVENTS, check, covers, done, read_csv, read_log

d = sys.argv[1]
HERE = os.path.dirname(os.path.realpath(__file__))
TABLE = os.path.join(HERE, "differential.tsv")
KERNEL_MIN = 0xffff800000000000
TASK_DEAD = 0x80
X86_PF_USER = 0x4               # the fault came from user mode
WORK_CPU_UNBOUND = 4            # NR_CPUS of configs/guest.config


def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def s32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v >= 1 << 31 else v


# ---------------------------------------------------------------- symbols
_syms = []
with gzip.open(os.path.join(d, "kallsyms.gz"), "rt") as f:
    for line in f:
        addr, kind, name = line.split()[:3]
        if kind.lower() in "tw" and int(addr, 16):
            _syms.append((int(addr, 16), name))
_syms.sort()
_sym_addrs = [a for a, _ in _syms]


def sym(v):
    """A value as ftrace's %ps prints it: a kernel text address as its
    symbol's name, anything else as 0x-hex."""
    import bisect
    if v >= KERNEL_MIN and _sym_addrs:
        i = bisect.bisect_right(_sym_addrs, v) - 1
        if i >= 0:
            return _syms[i][1]
    return f"{v:#x}"


def ps(text):
    """ftrace's %ps output, as sym() gives it: names stay, hex is normalised."""
    if text.startswith("0x"):
        return f"{int(text, 16):#x}"
    return text.split("+")[0]


# --------------------------------------------------------------- state letters
def lkst_state(v):
    """The letter sched_switch reports for the state lkst recorded."""
    if v == 0:
        return "R"
    if v & TASK_DEAD:
        return "dead"
    if v == 0x402:                      # TASK_IDLE
        return "I"
    for bit, letter in ((1, "S"), (2, "D"), (4, "T"), (8, "t"), (0x40, "P")):
        if v & bit:
            return letter
    return f"state {v:#x}"


def ftrace_state(text):
    text = text.rstrip("+")
    return {"X": "dead", "Z": "dead"}.get(text, text)


# ---------------------------------------------------------------- pairs
def kv(rest):
    return dict(m.groups() for m in re.finditer(r"(\w+)=(\S*)", rest))


def hexint(t):
    return int(t, 16)


BLOCK_RQ = re.compile(r"\d+,\d+ \S+ (\d+) \(.*?\) (\d+) \+ (\d+)")
BLOCK_DONE = re.compile(r"\d+,\d+ \S+ \(.*?\) (\d+) \+ (\d+) \S+ \[(-?\d+)\]")
BLOCK_BIO = re.compile(r"\d+,\d+ \S+ (\d+) \+ (\d+)")
SYS_ENTER = re.compile(r"NR (-?\d+) \((\w+), (\w+), (\w+), (\w+), (\w+), (\w+)\)")
SYS_EXIT = re.compile(r"NR (-?\d+) = (-?\d+)")
WORK = re.compile(r"work struct[ =](\w+):? function[ =](\S+)")


def f_sys_enter(r):
    m = SYS_ENTER.match(r["rest"])
    return r["pid"], (int(m[1]),) + tuple(hexint(m[i]) for i in range(2, 7))


def nr(arg):
    """The number of a SYSCALL_* record; the ABI above it is checked apart
    (ftrace's raw_syscalls do not say which ABI a number belongs to)."""
    return s32(arg)


def l_sys_enter(r):
    return r["pid"], (nr(r["arg1"]), r["arg2"], r["arg3"], r["arg4"], r["arg5"], r["arg6"])


def f_sleep(r):
    """sched_switch of a task that blocked: the state it sleeps in."""
    state = ftrace_state(r["f"]["prev_state"])
    if r["f"]["prev_state"].endswith("+") or state in ("R", "dead"):
        return None
    return int(r["f"]["prev_pid"]), (state,)


def f_sys_arg5(r):
    m = SYS_ENTER.match(r["rest"])
    return r["pid"], (int(m[1]), hexint(m[7]))


NAPI_POLL = re.compile(r"napi poll on napi struct (?:0x)?([0-9a-f]+) for device \S+ "
                       r"work (-?\d+) budget (-?\d+)")


def f_napi_poll(r):
    m = NAPI_POLL.match(r["rest"])
    return r["pid"], (int(m[1], 16), int(m[2]), int(m[3]))


def f_sys_exit(r):
    m = SYS_EXIT.match(r["rest"])
    return r["pid"], (int(m[1]), int(m[2]))


def f_block_rq(r):
    m = BLOCK_RQ.match(r["rest"])
    return r["pid"], (int(m[2]), int(m[1]))


def f_block_done(r):
    m = BLOCK_DONE.match(r["rest"])
    return r["pid"], (int(m[1]), int(m[2]), int(m[3]))


def f_block_bio(r):
    m = BLOCK_BIO.match(r["rest"])
    return r["pid"], (int(m[1]), int(m[2]) * 512)


def f_work(r):
    m = WORK.match(r["rest"])
    return r["pid"], (hexint(m[1]), ps(m[2]))


def f_queue_work(r):
    k = kv(r["rest"])
    req = int(k["req_cpu"])
    return r["pid"], (hexint(k["struct"]), ps(k["function"]),
                      -1 if req == WORK_CPU_UNBOUND else req)


def f_ipi_send(r):
    """ipi_send_cpu (cpu=) or ipi_send_cpumask (cpumask=, in %*pb hex)."""
    k = kv(r["rest"])
    if "cpu" in k:
        target, mask = int(k["cpu"]), 1 << int(k["cpu"])
    else:
        target, mask = -1, int(k["cpumask"].replace(",", ""), 16)
    return r["pid"], (target, mask, ps(k["callback"]), ps(k["callsite"]))


# The x86 system vectors the workload meets, each with its own upstream
# event pair; lkst records them all as INT_VECTOR_ENTRY/EXIT.
SYSTEM_VECTORS = ("local_timer", "reschedule", "call_function", "call_function_single",
                  "irq_work")


def with_pid(fn):
    """Pairs keyed by the current task: fn gives the tuple only."""
    return lambda r: (r["pid"], fn(r))


# name: (ftrace event, lkst event, ftrace -> (pid, tuple), lkst -> (pid, tuple),
#        required: the workload always produces it)
PAIRS = {
    "syscall entry": ("sys_enter", "SYSCALL_ENTRY", f_sys_enter, l_sys_enter, True),
    "syscall sixth argument": ("sys_enter", "SYSCALL_ENTRY_ARG5", f_sys_arg5,
                               with_pid(lambda r: (nr(r["arg1"]), r["arg2"])), True),
    "syscall exit": ("sys_exit", "SYSCALL_EXIT", f_sys_exit,
                     with_pid(lambda r: (nr(r["arg1"]), s64(r["arg2"]))), True),
    "context switch": (
        "sched_switch", "PROCESS_CONTEXTSWITCH",
        lambda r: (int(r["f"]["prev_pid"]),
                   (int(r["f"]["prev_pid"]), ftrace_state(r["f"]["prev_state"]),
                    int(r["f"]["next_pid"]), int(r["f"]["next_prio"]))),
        lambda r: (r["arg1"], (r["arg1"], lkst_state(r["arg3"]), r["arg2"], s64(r["arg4"]))),
        True),
    "context switch in": (
        "sched_switch", "PROCESS_CONTEXTSWITCH",
        lambda r: (int(r["f"]["next_pid"]), (int(r["f"]["prev_pid"]), int(r["f"]["next_pid"]))),
        lambda r: (r["arg2"], (r["arg1"], r["arg2"])), True),
    "sleep": (
        "sched_switch", "PROCESS_SLEEP", f_sleep,
        lambda r: None if r["arg2"] else (r["pid"], (lkst_state(r["arg1"]),)), True),
    "wakeup": (
        "sched_waking", "PROCESS_WAKEUP",
        lambda r: (int(r["f"]["pid"]), (int(r["f"]["pid"]), int(r["f"]["prio"]),
                                         int(r["f"]["target_cpu"]))),
        lambda r: (r["arg1"], (r["arg1"], s64(r["arg4"]), r["arg3"])), True),
    "new task wakeup": (
        "sched_wakeup_new", "PROCESS_WAKEUP_NEW",
        lambda r: (int(r["f"]["pid"]), (int(r["f"]["pid"]), int(r["f"]["prio"]),
                                         int(r["f"]["target_cpu"]))),
        lambda r: (r["arg1"], (r["arg1"], s64(r["arg3"]), r["arg2"])), True),
    "fork": (
        "sched_process_fork", "PROCESS_FORK",
        lambda r: (int(r["f"]["pid"]), (int(r["f"]["pid"]), int(r["f"]["child_pid"]))),
        lambda r: (r["arg1"], (r["arg1"], r["arg2"])), True),
    "exec": (
        "sched_process_exec", "PROCESS_EXEC",
        lambda r: (int(r["f"]["pid"]), (int(r["f"]["pid"]), int(r["f"]["old_pid"]))),
        lambda r: (r["arg1"], (r["arg1"], r["arg2"])), True),
    "exit": (
        "sched_process_exit", "PROCESS_EXIT",
        lambda r: (int(r["f"]["pid"]), (int(r["f"]["pid"]),)),
        lambda r: (r["arg1"], (r["arg1"],)), True),
    "migration": (
        "sched_migrate_task", "PROCESS_MIGRATE",
        lambda r: (int(r["f"]["pid"]), (int(r["f"]["pid"]), int(r["f"]["orig_cpu"]),
                                         int(r["f"]["dest_cpu"]))),
        lambda r: (r["arg1"], (r["arg1"], r["arg2"], r["arg3"])), True),
    "signal sent": (
        "signal_generate", "PROCESS_SIGSEND",
        lambda r: (int(r["f"]["pid"]), (int(r["f"]["sig"]), int(r["f"]["pid"]),
                                         int(r["f"]["code"]), int(r["f"]["grp"]),
                                         int(r["f"]["res"]))),
        lambda r: (r["arg2"], (s64(r["arg1"]), r["arg2"], s64(r["arg3"]), r["arg4"],
                               r["arg5"])), True),
    "signal delivered": (
        "signal_deliver", "PROCESS_SIGDELIVER",
        with_pid(lambda r: (int(r["f"]["sig"]), int(r["f"]["code"]),
                            hexint(r["f"]["sa_handler"]), hexint(r["f"]["sa_flags"]))),
        with_pid(lambda r: (s64(r["arg1"]), s64(r["arg2"]), r["arg3"], r["arg4"])), True),
    "irq handler entry": (
        "irq_handler_entry", "INT_HARDWARE_ENTRY",
        with_pid(lambda r: (int(r["f"]["irq"]),)),
        with_pid(lambda r: (r["arg1"],)), True),
    "irq handler exit": (
        "irq_handler_exit", "INT_HARDWARE_EXIT",
        with_pid(lambda r: (int(r["f"]["irq"]), r["f"]["ret"])),
        with_pid(lambda r: (r["arg1"], "handled" if r["arg2"] else "unhandled")), True),
    "system vector entry": (
        tuple(v + "_entry" for v in SYSTEM_VECTORS), "INT_VECTOR_ENTRY",
        with_pid(lambda r: (int(r["f"]["vector"]),)),
        with_pid(lambda r: (r["arg1"],)), True),
    "system vector exit": (
        tuple(v + "_exit" for v in SYSTEM_VECTORS), "INT_VECTOR_EXIT",
        with_pid(lambda r: (int(r["f"]["vector"]),)),
        with_pid(lambda r: (r["arg1"],)), True),
    "IPI sent": (
        ("ipi_send_cpu", "ipi_send_cpumask"), "INT_IPI_SEND", f_ipi_send,
        with_pid(lambda r: (s64(r["arg1"]), r["arg2"], sym(r["arg3"]), sym(r["arg4"]))), True),
    "softirq entry": ("softirq_entry", "INT_SOFTIRQ_ENTRY",
                      with_pid(lambda r: (int(r["f"]["vec"]),)),
                      with_pid(lambda r: (r["arg1"],)), True),
    "softirq exit": ("softirq_exit", "INT_SOFTIRQ_EXIT",
                     with_pid(lambda r: (int(r["f"]["vec"]),)),
                     with_pid(lambda r: (r["arg1"],)), True),
    "softirq raise": ("softirq_raise", "INT_SOFTIRQ_RAISE",
                      with_pid(lambda r: (int(r["f"]["vec"]),)),
                      with_pid(lambda r: (r["arg1"],)), True),
    "page allocation": (
        "mm_page_alloc", "MEM_PAGE_ALLOC",
        with_pid(lambda r: (hexint(r["f"]["pfn"]), int(r["f"]["order"]),
                            int(r["f"]["migratetype"]))),
        with_pid(lambda r: (r["arg1"], r["arg2"], r["arg4"])), True),
    "page free": (
        "mm_page_free", "MEM_PAGE_FREE",
        with_pid(lambda r: (hexint(r["f"]["pfn"]), int(r["f"]["order"]))),
        with_pid(lambda r: (r["arg1"], r["arg2"])), True),
    "user page fault": (
        "page_fault_user", "EXCEPTION_PAGEFAULT_ENTRY",
        with_pid(lambda r: (ps(r["f"]["address"]), ps(r["f"]["ip"]),
                            hexint(r["f"]["error_code"]))),
        lambda r: (r["pid"], (sym(r["arg1"]), sym(r["arg3"]), r["arg2"]))
        if r["arg2"] & X86_PF_USER else None, True),
    "kernel page fault": (
        "page_fault_kernel", "EXCEPTION_PAGEFAULT_ENTRY",
        with_pid(lambda r: (ps(r["f"]["address"]), ps(r["f"]["ip"]),
                            hexint(r["f"]["error_code"]))),
        lambda r: None if r["arg2"] & X86_PF_USER else
        (r["pid"], (sym(r["arg1"]), sym(r["arg3"]), r["arg2"])), True),
    "hrtimer start": (
        "hrtimer_start", "HRTIMER_START",
        with_pid(lambda r: (hexint(r["f"]["hrtimer"]), ps(r["f"]["function"]),
                            int(r["f"]["expires"]), int(r["f"]["softexpires"]))),
        with_pid(lambda r: (r["arg1"], sym(r["arg2"]), r["arg5"], r["arg3"])), True),
    "hrtimer cancel": (
        "hrtimer_cancel", "HRTIMER_CANCEL",
        with_pid(lambda r: (hexint(r["f"]["hrtimer"]),)),
        with_pid(lambda r: (r["arg1"],)), False),
    "hrtimer expiry": (
        "hrtimer_expire_entry", "HRTIMER_EXPIRE_ENTRY",
        with_pid(lambda r: (hexint(r["f"]["hrtimer"]), ps(r["f"]["function"]))),
        with_pid(lambda r: (r["arg1"], sym(r["arg2"]))), True),
    "hrtimer expiry done": (
        "hrtimer_expire_exit", "HRTIMER_EXPIRE_EXIT",
        with_pid(lambda r: (hexint(r["f"]["hrtimer"]),)),
        with_pid(lambda r: (r["arg1"],)), True),
    "timer start": (
        "timer_start", "TIMER_ADD",
        with_pid(lambda r: (hexint(r["f"]["timer"]), ps(r["f"]["function"]),
                            int(r["f"]["expires"]))),
        with_pid(lambda r: (r["arg1"], sym(r["arg2"]), r["arg3"])), False),
    "timer cancel": (
        "timer_cancel", "TIMER_CANCEL",
        with_pid(lambda r: (hexint(r["f"]["timer"]),) + (("expiry",) if r["expiry"] else ())),
        with_pid(lambda r: (r["arg1"],)), False),
    "timer expiry": (
        "timer_expire_entry", "TIMER_EXPIRE_ENTRY",
        with_pid(lambda r: (hexint(r["f"]["timer"]), ps(r["f"]["function"]))),
        with_pid(lambda r: (r["arg1"], sym(r["arg2"]))), False),
    "timer expiry done": (
        "timer_expire_exit", "TIMER_EXPIRE_EXIT",
        with_pid(lambda r: (hexint(r["f"]["timer"]),)),
        with_pid(lambda r: (r["arg1"],)), False),
    "work queued": (
        "workqueue_queue_work", "INT_WORKQUEUE_QUEUE", f_queue_work,
        with_pid(lambda r: (r["arg2"], sym(r["arg1"]), s64(r["arg3"]))), True),
    "work started": ("workqueue_execute_start", "INT_WORKQUEUE_START", f_work,
                     with_pid(lambda r: (r["arg2"], sym(r["arg1"]))), True),
    "work done": ("workqueue_execute_end", "INT_WORKQUEUE_END", f_work,
                  with_pid(lambda r: (r["arg2"], sym(r["arg1"]))), True),
    "bio submitted": ("block_bio_queue", "BLOCK_BIO_SUBMIT", f_block_bio,
                      with_pid(lambda r: (r["arg2"], r["arg3"])), True),
    "request issued": ("block_rq_issue", "BLOCK_RQ_ISSUE", f_block_rq,
                       with_pid(lambda r: (r["arg2"], r["arg3"])), False),
    "request completed": (
        "block_rq_complete", "BLOCK_RQ_COMPLETE", f_block_done,
        with_pid(lambda r: (r["arg2"], r["arg3"] >> 9, s64(r["arg4"]))), True),
    "packet sent": (
        "net_dev_xmit", "NET_XMIT",
        with_pid(lambda r: (int(r["f"]["len"]), int(r["f"]["rc"]))),
        with_pid(lambda r: (r["arg1"], s64(r["arg4"]))), True),
    "packet received": (
        "netif_receive_skb", "NET_RECEIVE",
        with_pid(lambda r: (int(r["f"]["len"]),)),
        with_pid(lambda r: (r["arg1"],)), True),
    "napi poll": (
        "napi_poll", "NET_NAPI_POLL", f_napi_poll,
        with_pid(lambda r: (r["arg1"], s64(r["arg2"]), s64(r["arg3"]))), True),
}

# Pairs whose upstream events the guest's architecture lacks (twins.inc
# leaves them out there): arm64 has no irq_vectors events (its IPIs have
# ipi_entry/exit, which events.def does not name as INT_VECTOR_*'s twin) and
# no exceptions events (t31 and t33 check those lkst events on arm64).
ARCH_SKIP = {
    "aarch64": {"system vector entry": "irq_vectors", "system vector exit": "irq_vectors",
                "user page fault": "exceptions", "kernel page fault": "exceptions"},
}.get(ARCH, {})

# ---------------------------------------------------------------- inputs
LINE = re.compile(r"^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): ?(.*)$")
ftrace = collections.defaultdict(list)
timer_events = collections.defaultdict(list)    # per CPU, in order
with gzip.open(os.path.join(d, "ftrace.txt.gz"), "rt", errors="replace") as f:
    for line in f:
        m = LINE.match(line)
        if not m:
            continue
        r = {"pid": int(m[2]), "cpu": int(m[3]), "ts": float(m[4]), "rest": m[6]}
        r["f"] = kv(m[6])
        ftrace[m[5]].append(r)
        if m[5] in ("timer_cancel", "timer_expire_entry", "timer_start"):
            timer_events[r["cpu"]].append((m[5], r))

# Upstream's timer_cancel is in detach_timer(), which expire_timers() also
# calls just before the callback: tag those, so the table can tell them
# from a real cancel (lkst records only those, in detach_if_pending()).
for events in timer_events.values():
    for i, (name, r) in enumerate(events):
        if name != "timer_cancel":
            continue
        following = (n for n, o in events[i + 1:] if o["f"]["timer"] == r["f"]["timer"])
        r["expiry"] = next(following, None) == "timer_expire_entry"

with gzip.open(os.path.join(d, "trace.csv.gz"), "rt") as f, \
        tempfile.NamedTemporaryFile("w", suffix=".csv") as tmp:
    tmp.write(f.read())
    tmp.flush()
    lrows = read_csv(tmp.name)
lkst = collections.defaultdict(list)
for r in lrows:
    if r["id"] >= 0:
        lkst[r["id"]].append(r)

# Nothing lost on either side, or the comparison means nothing.
stats = open(os.path.join(d, "ftrace-stats.txt")).read()
overruns = [int(x) for x in re.findall(r"^overrun: (\d+)", stats, re.M)]
check(overruns and not any(overruns), f"ftrace overran its buffer: {overruns}")
with gzip.open(os.path.join(d, "trace.log.gz"), "rb") as f, \
        tempfile.NamedTemporaryFile("wb", suffix=".log") as tmp:
    tmp.write(f.read())
    tmp.flush()
    _, sections = read_log(tmp.name)
check(not [s for s in sections if s.get("lost", 0)],
      f"lkbuf read lost records: {[(s['cpu'], s['lost']) for s in sections]}")


def lkbuf_counts(name):
    """{cpu: (overwritten, dropped)} since boot, from `lkbuf list`."""
    text = open(os.path.join(d, name)).read()
    return {int(m[1]): (int(m[2]), int(m[3])) for m in re.finditer(
        r"^cpu (\d+) .*overwritten (\d+), dropped (\d+)$", text, re.M)}


def dropped_by_event(name):
    """{event: dropped} since boot, from `lkm stat`."""
    text = open(os.path.join(d, name)).read()
    return {m[1]: int(m[2]) for m in re.finditer(
        r"^0x[0-9a-f]+ +(\S+) +\d+ +(\d+)$", text, re.M)}


before, after = lkbuf_counts("lkbuf-list-before.txt"), lkbuf_counts("lkbuf-list.txt")
dropped_before = dropped_by_event("lkm-stat-before.txt")
dropped_during = {ev: n - dropped_before.get(ev, 0)
                  for ev, n in dropped_by_event("lkm-stat.txt").items()
                  if n != dropped_before.get(ev, 0)}
check(dropped_before, "no event counters in lkm-stat-before.txt")
check(before and before == after,
      f"lkst overwrote or dropped records during the run: (overwritten, dropped) per CPU "
      f"before {before}, after {after}; dropped by event {dropped_during}")

# ---------------------------------------------------------------- the process tree
facts = open(os.path.join(d, "facts.txt")).read()
root = int(re.search(r"^root (\d+)$", facts, re.M)[1])


def tree(forks):
    pids = {root}
    for parent, child in forks:
        if parent in pids:
            pids.add(child)
    return pids


f_tree = tree((int(r["f"]["pid"]), int(r["f"]["child_pid"]))
              for r in sorted(ftrace["sched_process_fork"], key=lambda r: r["ts"]))
l_tree = tree((r["arg1"], r["arg2"])
              for r in sorted(lkst[EV["PROCESS_FORK"]], key=lambda r: int(r["time"])))
check(f_tree == l_tree, f"process trees differ: ftrace {sorted(f_tree)}, lkst {sorted(l_tree)}")
check(len(f_tree) >= 10, f"the workload's tree has {len(f_tree)} tasks, expected at least 10")
pids = f_tree

# Some pairs are not the workload's by pid: the scratch disk's request
# completions and interrupts are (nothing else uses that disk), in whatever
# task they interrupt, and so are the kworkers' runs of the work items the
# workload queued.
disk_irq_name = re.search(r"^disk_irq_name (\S+)$", facts, re.M)[1]
disk_irqs = {int(r["f"]["irq"]) for r in ftrace["irq_handler_entry"]
             if r["f"]["name"] == disk_irq_name or
             r["f"]["name"].startswith(disk_irq_name + "-")}
disk_devs = {tuple(map(int, re.match(r"(\d+),(\d+)", r["rest"]).groups()))
             for r in ftrace["block_bio_queue"] if r["pid"] in pids}
SELECTED_NOT_BY_PID = {
    "irq handler entry": (lambda r: int(r["f"]["irq"]) in disk_irqs,
                          lambda r: r["arg1"] in disk_irqs),
    "irq handler exit": (lambda r: int(r["f"]["irq"]) in disk_irqs,
                         lambda r: r["arg1"] in disk_irqs),
    "request completed": (
        lambda r: tuple(map(int, re.match(r"(\d+),(\d+)", r["rest"]).groups())) in disk_devs,
        lambda r: (r["arg1"] >> 20, r["arg1"] & 0xfffff) in disk_devs),
}
check(disk_irqs and disk_devs, f"the scratch disk's irqs {disk_irqs} and devices {disk_devs}")


def runs_of_queued_work(events):
    """The ids of the execute start/end records, in kworkers, of the work
    items the workload queued: per side, in time order, a start of a work
    item a workload task queued and its end on that CPU.  events: (time,
    cpu, kind, work address, pid, record) with kind queue/start/end."""
    pending, running, chosen = set(), {}, set()
    for _, cpu, kind, work, pid, rec in sorted(events, key=lambda e: e[:2]):
        if kind == "queue" and pid in pids:
            pending.add(work)
        elif kind == "start" and work in pending:
            pending.discard(work)
            running[cpu] = work
            chosen.add(id(rec))
        elif kind == "end" and running.get(cpu) == work:
            del running[cpu]
            chosen.add(id(rec))
    return chosen


WORK_KINDS = (("queue", "workqueue_queue_work", "INT_WORKQUEUE_QUEUE"),
              ("start", "workqueue_execute_start", "INT_WORKQUEUE_START"),
              ("end", "workqueue_execute_end", "INT_WORKQUEUE_END"))
f_work_runs = runs_of_queued_work(
    (r["ts"], r["cpu"], kind, (f_queue_work(r) if kind == "queue" else f_work(r))[1][0],
     r["pid"], r) for kind, fev, _ in WORK_KINDS for r in ftrace[fev])
l_work_runs = runs_of_queued_work(
    (int(r["time"]), r["cpu"], kind, r["arg2"], r["pid"], r)
    for kind, _, lev in WORK_KINDS for r in lkst[EV[lev]])
for pair in ("work started", "work done"):
    SELECTED_NOT_BY_PID[pair] = (lambda r: id(r) in f_work_runs, lambda r: id(r) in l_work_runs)

# lkst.ko on a stock kernel (tests/stock, docs/stock.md) records from the
# twin tracepoints themselves and says at load which events it lacks
# (absent): their pairs are not compared (a partial event's pair compares
# the facts both carry), and a row's difference, which comes from the
# patch's hook sites, need not occur.
_console = os.path.join(d, "..", "console.log")
_console = open(_console, errors="replace").read() if os.path.exists(_console) else ""
_said = re.findall(r"lkst: (absent|partial): (\w+)", _console)
STOCK_SKIP = {ev for kind, ev in _said if kind == "absent"}
STOCK = bool(_said)
# WORK_CPU_UNBOUND is NR_CPUS, which the kernel says at boot (8192 on Debian's).
if re.search(r"NR_CPUS:(\d+)", _console):
    WORK_CPU_UNBOUND = int(re.search(r"NR_CPUS:(\d+)", _console)[1])

# ---------------------------------------------------------------- the table
Row = collections.namedtuple("Row", "line pair side cond seen reason")
rows, unpaired = [], {}
for n, line in enumerate(open(TABLE), 1):
    line = line.rstrip("\n")
    if not line.strip() or line.startswith("#"):
        continue
    cols = line.split("\t")
    if len(cols) != 5 or not cols[4].strip():
        check(False, f"differential.tsv:{n}: want 5 tab-separated columns with a reason")
        continue
    pair, side, cond, seen, reason = cols
    if side == "no-twin":
        check(pair in EV, f"differential.tsv:{n}: {pair} is not an lkst event")
        unpaired[pair] = reason
        continue
    check(pair in PAIRS, f"differential.tsv:{n}: no pair named {pair!r}")
    check(side in ("ftrace-only", "lkst-only"), f"differential.tsv:{n}: side {side!r}")
    check(seen in ("always", "sometimes"), f"differential.tsv:{n}: seen {seen!r}")
    conds = {}
    for c in cond.split(",") if cond != "*" else []:
        k, v = c.split("=", 1)
        conds[int(k)] = v
    rows.append(Row(n, pair, side, conds, seen, reason))

paired = {p[1] for p in PAIRS.values()}
# The twins of events.def are the ones compared here: a pair against an
# upstream event the definition does not name is a wrong pair or a stale
# definition, and so is a twin named there but never compared nor listed.
TWINS = {e["name"]: {t.split(":", 1)[1] for t in e["twin"]} for e in EVENTS}
for pair, (fev, lname, *_rest) in PAIRS.items():
    for f in fev if isinstance(fev, tuple) else (fev,):
        check(any(fnmatch.fnmatchcase(f, t) for t in TWINS[lname]),
              f"pair {pair!r}: {f} is not a twin of {lname} in events.def ({TWINS[lname]})")
for name in EV:
    check(name in paired or name in unpaired,
          f"lkst event {name} is neither compared nor listed as having no upstream twin")
    check(not (name in paired and name in unpaired),
          f"lkst event {name} is compared and also listed as having no twin")


def explained_by(pair, side, tup):
    for row in rows:
        if row.pair == pair and row.side == side and all(
                i < len(tup) and str(tup[i]) == v for i, v in row.cond.items()):
            return row
    return None


# ---------------------------------------------------------------- compare
hits = collections.Counter()
matched = unexplained = compared_pairs = 0
for pair, (fev, lname, fget, lget, required) in PAIRS.items():
    if lname in STOCK_SKIP:
        print(f"  {pair:24} not compared: lkst.ko lacks {lname} on this kernel")
        continue
    if pair in ARCH_SKIP:
        print(f"  {pair:24} not compared: no upstream {ARCH_SKIP[pair]} events on {ARCH}")
        continue
    fsel, lsel = SELECTED_NOT_BY_PID.get(pair, (lambda r: True, lambda r: True))
    fevs = fev if isinstance(fev, tuple) else (fev,)
    fev = fevs[0] if len(fevs) == 1 else f"{fevs[0]}+{len(fevs) - 1}"
    frecs = [r for e in fevs for r in ftrace[e]]
    fc = collections.Counter(k for k in map(fget, filter(fsel, frecs))
                             if k and (pair in SELECTED_NOT_BY_PID or k[0] in pids))
    lc = collections.Counter(k for k in map(lget, filter(lsel, lkst[EV[lname]]))
                             if k and (pair in SELECTED_NOT_BY_PID or k[0] in pids))
    same = sum((fc & lc).values())
    matched += same
    compared_pairs += 1
    if required:
        check(same > 0, f"{pair}: no {fev}/{lname} record of the workload matched "
              f"(ftrace {sum(fc.values())}, lkst {sum(lc.values())})", event=lname)
    shown = 0
    for side, extra in (("ftrace-only", fc - lc), ("lkst-only", lc - fc)):
        for (pid, tup), n in sorted(extra.items(), key=str):
            row = explained_by(pair, side, tup)
            if row:
                hits[row.line] += n
                continue
            unexplained += n
            if shown < 8:
                check(False, f"{pair}: {n}x pid {pid} {tup} only in "
                      f"{'ftrace' if side == 'ftrace-only' else 'lkst'}", event=lname)
                shown += 1
    if same:
        covers(lname)
    print(f"  {pair:24} {fev:22} {lname:26} matched {same}, "
          f"ftrace {sum(fc.values())}, lkst {sum(lc.values())}")

for row in rows:
    if hits[row.line]:
        print(f"  explained by differential.tsv:{row.line} ({row.pair}, {row.side}): "
              f"{hits[row.line]}")
    elif row.seen == "always" and not STOCK and row.pair not in ARCH_SKIP:
        check(False, f"differential.tsv:{row.line} ({row.pair}, {row.side}) explained "
              f"nothing: the difference it lists is gone; remove or update the row")
    else:
        print(f"  differential.tsv:{row.line} ({row.pair}, {row.side}): not seen this run")

# The 32-bit entry: the workload's five int $0x80 getpid() calls carry
# the i386 ABI (ftrace cannot tell; lkst records it with the number).  On
# arm64 every call of the workload is native (the compat32 scenario has
# AArch32's): each carries LKST_SYSCALL_ABI_ARM64.
if ARCH == "aarch64":
    abis = collections.Counter(r["arg1"] >> 32 for ev in ("SYSCALL_ENTRY", "SYSCALL_EXIT")
                               for r in lkst[EV[ev]] if r["pid"] in pids)
    check(set(abis) == {2}, f"the workload's system calls by ABI in lkst: {dict(abis)}, "
          "expected all arm64's (2)", event="SYSCALL_ENTRY")
else:
    IA32_GETPID = (1 << 32) | 20
    ia32 = [(r["id"], r["arg1"]) for ev in ("SYSCALL_ENTRY", "SYSCALL_EXIT")
            for r in lkst[EV[ev]] if r["pid"] == root and r["arg1"] >> 32]
    check(ia32.count((EV["SYSCALL_ENTRY"], IA32_GETPID)) == 5 and
          ia32.count((EV["SYSCALL_EXIT"], IA32_GETPID)) == 5 and len(ia32) == 10,
          f"the workload's int $0x80 calls in lkst (event, number and ABI): {ia32}",
          event="SYSCALL_ENTRY")

# MEM_FAULT_*'s user ip: a fault the kernel took on a user address (the
# read() into untouched pages, a page_fault_kernel upstream) records 0,
# never the kernel address it faulted at.
def fault_keys(name):
    return {(r["pid"], int(r["f"]["address"], 16)) for r in ftrace[name]
            if r["pid"] in pids and r["f"]["address"].startswith("0x")}


# An address the task also faulted on from user mode (a stack page the
# kernel wrote first, say) cannot tell which record is the kernel's.
kernel_faults = fault_keys("page_fault_kernel") - fault_keys("page_fault_user")
if ARCH == "aarch64":
    # No exceptions events: lkst's own entries tell the kernel's faults,
    # those whose ESR class is a data abort taken at EL1 (0x25).
    def l_faults(el1):
        return {(r["pid"], r["arg1"]) for r in lkst[EV["EXCEPTION_PAGEFAULT_ENTRY"]]
                if r["pid"] in pids and ((r["arg2"] >> 26) & 0x3f == 0x25) == el1}
    kernel_faults = l_faults(True) - l_faults(False)
outcomes = [r for ev in ("MEM_FAULT_MINOR", "MEM_FAULT_MAJOR") for r in lkst[EV[ev]]
            if r["pid"] in pids]
check(not [r for r in outcomes if r["arg4"] >= KERNEL_MIN],
      "MEM_FAULT_* with a kernel address as user ip: " +
      str([(r["pid"], hex(r["arg1"]), hex(r["arg4"])) for r in outcomes
           if r["arg4"] >= KERNEL_MIN][:5]), event="MEM_FAULT_MINOR")
from_kernel = [r for r in outcomes if (r["pid"], r["arg1"]) in kernel_faults]
check("MEM_FAULT_MINOR" in STOCK_SKIP or
      from_kernel and all(r["arg4"] == 0 for r in from_kernel),
      f"{len(from_kernel)} MEM_FAULT_* records for the kernel's faults on user pages, "
      "expected some, all with user ip 0", event="MEM_FAULT_MINOR")

# Wait queues have no upstream twin, but their events must balance: per
# entry of the workload's tasks, ADD and REMOVE alternate, starting with
# ADD (the tree began after tracing did) and ending removed (every wait
# of the workload ended).
waits = collections.defaultdict(list)
for ev in ("PROCESS_WAITQ_ADD", "PROCESS_WAITQ_REMOVE"):
    for r in lkst[EV[ev]]:
        if r["arg3"] in pids:
            waits[r["arg2"]].append((int(r["time"]), ev, r["arg3"]))
unbalanced = []
for entry, evs in waits.items():
    evs.sort()
    expect = "PROCESS_WAITQ_ADD"
    for t, ev, waiter in evs + [(None, "PROCESS_WAITQ_ADD", None)]:
        if ev != expect:
            unbalanced.append((hex(entry), waiter, t, "end" if t is None else ev))
            break
        expect = "PROCESS_WAITQ_REMOVE" if ev == "PROCESS_WAITQ_ADD" else "PROCESS_WAITQ_ADD"
check("PROCESS_WAITQ_ADD" in STOCK_SKIP or waits and not unbalanced,
      f"wait-queue ADD/REMOVE of the workload's {len(waits)} entries do not alternate "
      f"(entry, waiter, time, event out of turn): {unbalanced[:5]}",
      event="PROCESS_WAITQ_ADD")
if waits and not unbalanced:
    covers("PROCESS_WAITQ_ADD", "PROCESS_WAITQ_REMOVE")
# A simple wait queue: the workload's vfork parent waits on the vfork
# completion, and the child's exit ends that wait (swake_up_locked()).
vfork_child = int(re.search(r"^vfork_child (\d+)$", facts, re.M)[1])
vfork_waits = [entry for entry, evs in waits.items()
               if any(ev == "PROCESS_WAITQ_ADD" and w == root for _, ev, w in evs)
               and any(ev == "PROCESS_WAITQ_REMOVE" and w == root for _, ev, w in evs)
               and entry in {r["arg2"] for r in lkst[EV["PROCESS_WAITQ_REMOVE"]]
                             if r["pid"] == vfork_child and r["arg3"] == root}]
check("PROCESS_WAITQ_ADD" in STOCK_SKIP or vfork_waits, f"no wait of {root} on its vfork child {vfork_child}'s completion "
      "(an ADD of the parent's entry, removed by the exiting child)", event="PROCESS_WAITQ_ADD")
print(f"  wait queues: {len(waits)} entries of the workload, "
      f"{sum(map(len, waits.values()))} ADD/REMOVE records, {len(unbalanced)} unbalanced")

print(f"differential: {compared_pairs} event pairs compared, {matched} records matched, "
      f"{unexplained} unexplained differences")
done()
