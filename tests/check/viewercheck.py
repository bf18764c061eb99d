"""convert.py's checks of the viewers' formats: the LTTng-layout CTF
(lkbuf convert --to ctf --layout lttng), read with babeltrace2, and the
Perfetto trace (--to perfetto), decoded with protoc against
utils/perfetto/perfetto_trace.proto.  Both are compared record by record
with `lkbuf print -r -C` (raw arguments), from a reimplementation of the
mapping here: lttng-modules' event and field names and values (priorities
as prio - 100, prev_state as the kernel reports it), ftrace's for Perfetto.
"""
import os
import re
import struct
import subprocess

from lkstcheck import check

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.path.join(HERE, "..", "..", "utils", "perfetto")

SWITCH, WAKEUP, FORK, EXEC, EXIT, WAKEUP_NEW = 0x01, 0x02, 0x08, 0x09, 0x0a, 0x0e
IRQ_ENTRY, IRQ_EXIT, SOFT_ENTRY, SOFT_EXIT, SOFT_RAISE = 0x10, 0x11, 0x16, 0x17, 0x18
SYS_ENTRY, SYS_EXIT = 0x30, 0x31
USER_MARK = 0xe0
SCHED = (SWITCH, WAKEUP, WAKEUP_NEW, FORK, EXEC, EXIT)
LTTNG_NAMES = {SWITCH: "sched_switch", WAKEUP: "sched_waking", WAKEUP_NEW: "sched_wakeup_new",
               FORK: "sched_process_fork", EXEC: "sched_process_exec",
               EXIT: "sched_process_exit", IRQ_ENTRY: "irq_handler_entry",
               IRQ_EXIT: "irq_handler_exit", SOFT_ENTRY: "irq_softirq_entry",
               SOFT_EXIT: "irq_softirq_exit", SOFT_RAISE: "irq_softirq_raise"}
FTRACE_NAMES = {SWITCH: "sched_switch", WAKEUP: "sched_waking",
                WAKEUP_NEW: "sched_wakeup_new", FORK: "sched_process_fork",
                EXEC: "sched_process_exec", EXIT: "sched_process_exit",
                IRQ_ENTRY: "irq_handler_entry", IRQ_EXIT: "irq_handler_exit",
                SOFT_ENTRY: "softirq_entry", SOFT_EXIT: "softirq_exit",
                SOFT_RAISE: "softirq_raise", SYS_ENTRY: "sys_enter", SYS_EXIT: "sys_exit",
                USER_MARK: "print"}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, errors="replace", text=True, **kw)


def s64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def s32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v >= 1 << 31 else v


def comm(a, b):
    """Two arguments holding a name, as lkst_format_comm() prints a plain one."""
    raw = struct.pack("=QQ", a, b).split(b"\0")[0]
    return "".join(chr(c) if 0x20 <= c < 0x7f and c != 0x5c else f"\\x{c:02x}" for c in raw)


def mark_text(a):
    """A USER_MARK's text, as lkst_format_text() escapes it."""
    raw = struct.pack("=6Q", *a).split(b"\0")[0]
    return "".join(chr(c) if 0x20 <= c < 0x7f and c != 0x5c else f"\\x{c:02x}" for c in raw)


def report_state(state):
    """sched_switch's prev_state as the kernel reports it."""
    if state == 0x402:
        return 0x80
    if state == 0x1000:
        return 0x2
    s = state & 0x7f
    if not s:
        return 0x10 if state & 0x80 else 0
    return 1 << (s.bit_length() - 1)


class Rec:
    """One record of `lkbuf print -r -C`, with its system call's name."""

    def __init__(self, row, sysname):
        self.time, self.cpu, self.pid = int(row["time"]), int(row["cpu"]), int(row["pid"])
        self.id = int(row["id"], 16)
        self.a = [int(row[f"arg{i}"] or "0", 16) for i in range(1, 7)]
        self.sysname = sysname


def raw_records(lkbuf, log):
    """The log's records (raw), and each system call's name from lkbuf print."""
    r = run([lkbuf, "print", "-r", "-C", "-f", log])
    t = run([lkbuf, "print", "-f", log])
    if not check(r.returncode == 0 and t.returncode == 0,
                 f"lkbuf print -r -C / print: {r.stderr}{t.stderr}"):
        return None
    import csv
    import io
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    lines = t.stdout.splitlines()
    if not check(len(lines) == len(rows), f"print shows {len(lines)} lines, -C {len(rows)}"):
        return None
    out = []
    for row, line in zip(rows, lines):
        m = re.search(r" syscall_number=(\S+)", line)
        out.append(Rec(row, m.group(1) if m else None))
    out.sort(key=lambda r: (r.time, r.cpu))
    return out


def syscall_event(rec, lttng):
    """The LTTng event name of a system-call record ("compat_syscall_entry_x")."""
    name = rec.sysname or ""
    compat = name.startswith("ia32:")
    name = name[5:] if compat else name
    if not name or re.fullmatch(r"-?\d+\??", name):
        name = "unknown"
    kind = "entry" if rec.id == SYS_ENTRY else "exit"
    return ("compat_" if compat and lttng else "") + f"syscall_{kind}_{name}"


def expected_fields(rec, cur, lttng):
    """The fields (name -> value) an event must carry; None for a field
    checked only for its type.  cur: the CPU's task (pid, comm, prio) by its
    switches and execs before, if any."""
    a, p = rec.a, (lambda v: s32(v) - 100) if lttng else (lambda v: s32(v))
    tid = "tid" if lttng else "pid"
    if rec.id == SWITCH:
        # The task switched out was switched in by the CPU's switch before.
        known = cur is not None and cur[0] == a[0]
        f = {"prev_comm": cur[1] if known else
             (f"swapper/{rec.cpu}" if not a[0] else None),
             ("prev_tid" if lttng else "prev_pid"): a[0],
             "prev_prio": p(cur[2]) if known else None,
             "prev_state": report_state(a[2]), "next_comm": comm(a[4], a[5]),
             ("next_tid" if lttng else "next_pid"): a[1], "next_prio": p(a[3])}
        return f
    if rec.id == WAKEUP:
        return {"comm": comm(a[4], a[5]), tid: a[0], "prio": p(a[3]), "target_cpu": a[2]}
    if rec.id == WAKEUP_NEW:
        return {"comm": comm(a[3], a[4]), tid: a[0], "prio": p(a[2]), "target_cpu": a[1]}
    if rec.id == FORK:
        f = {"parent_comm": None, ("parent_tid" if lttng else "parent_pid"): a[0],
             "child_comm": comm(a[4], a[5]), ("child_tid" if lttng else "child_pid"): a[1]}
        if lttng:
            f.update(parent_pid=None, child_pid=a[2])
        return f
    if rec.id == EXEC:
        return {"filename": comm(a[2], a[3]), tid: a[0], ("old_tid" if lttng else "old_pid"): a[1]}
    if rec.id == EXIT:
        f = {"comm": comm(a[4], a[5]), tid: a[0], "prio": None}
        if not lttng:
            f["tgid"] = a[1]
        return f
    if rec.id == IRQ_ENTRY:
        return {"irq": s32(a[0]), "name": None}
    if rec.id == IRQ_EXIT:
        return {"irq": s32(a[0]), "ret": s32(a[1])}
    if rec.id in (SOFT_ENTRY, SOFT_EXIT, SOFT_RAISE):
        return {"vec": a[0] & 0xffffffff}
    if rec.id == SYS_ENTRY:
        if lttng:
            f = {f"arg{i}": a[i + 1] for i in range(5)}
            if syscall_event(rec, True).endswith("_unknown"):
                f["id"] = s32(a[0])
            return f
        return {"id": s32(a[0]), "args": [a[i] for i in range(1, 6)]}
    if rec.id == USER_MARK and not lttng:
        # Perfetto's print, as atrace's instant: "I|PID|TEXT".
        return {"buf": f"I|{rec.pid}|{mark_text(a)}\n"}
    if rec.id == SYS_EXIT:
        f = {"ret": s64(a[1])}
        if not lttng or syscall_event(rec, True).endswith("_unknown"):
            f["id"] = s32(a[0])
        return f
    return None


def compare(what, recs, got, lttng):
    """recs (time order) against got [(time, cpu, name, {field: value})]."""
    current, bad, want = {}, 0, []
    for r in recs:
        if r.id in (SYS_ENTRY, SYS_EXIT):
            name = syscall_event(r, True) if lttng else FTRACE_NAMES[r.id]
        else:
            name = (LTTNG_NAMES if lttng else FTRACE_NAMES).get(r.id)
        if name is None and not lttng:
            continue
        fields = expected_fields(r, current.get(r.cpu), lttng)
        if r.id == SWITCH:
            current[r.cpu] = (r.a[1], comm(r.a[4], r.a[5]), r.a[3])
        elif r.id == EXEC and current.get(r.cpu, (None,))[0] == r.a[0]:
            current[r.cpu] = (r.a[0], comm(r.a[2], r.a[3]), current[r.cpu][2])
        want.append((r.time, r.cpu, name, fields, r))
    got = sorted(got, key=lambda g: (g[0], g[1]))
    if not check(len(got) == len(want), f"{what}: {len(got)} events, {len(want)} expected"):
        return False
    counts = {}
    for (t, cpu, name, fields, r), g in zip(want, got):
        problem = None
        if (t, cpu) != (g[0], g[1]) or (name is not None and name != g[2]):
            problem = f"is {g[2]} at {g[0]} cpu {g[1]}"
        elif fields is not None:
            for k, v in fields.items():
                if k not in g[3]:
                    problem = f"lacks field {k}"
                elif v is None:
                    if not isinstance(g[3][k], (int, str)):
                        problem = f"field {k} = {g[3][k]!r}"
                elif g[3][k] != v:
                    problem = f"field {k} = {g[3][k]!r}, expected {v!r}"
                if problem:
                    break
        counts[g[2]] = counts.get(g[2], 0) + 1
        if problem:
            bad += 1
            if bad <= 5:
                check(False, f"{what}: record {r.id:#x} at {t} cpu {cpu} ({name}): {problem}: {g[3]}")
    check(bad == 0, f"{what}: {bad} of {len(want)} events differ from lkbuf print")
    return counts


# ---- LTTng-layout CTF, through babeltrace2 ----

def check_lttng(log, lkbuf, tmp, parse_bt2):
    out = os.path.join(tmp, "lttng")
    r = run([lkbuf, "convert", "-f", log, "--to", "ctf", "--layout", "lttng", "-o", out])
    if not check(r.returncode == 0, f"convert --layout lttng: exit {r.returncode}: {r.stderr}"):
        return None
    print(f"lttng: {r.stderr.strip()}")
    meta = open(os.path.join(out, "metadata")).read()
    env = dict(re.findall(r"^\t(\w+) = \"?([^\";]*)\"?;$", meta.split("env {")[1].split("};")[0], re.M))
    check(env.get("domain") == "kernel" and env.get("tracer_name") == "lttng-modules" and
          int(env.get("tracer_major", 0)) == 2 and int(env.get("tracer_minor", 0)) >= 9,
          f"the env does not make Trace Compass take it as lttng-modules >= 2.9: {env}")
    r = run(["babeltrace2", "--clock-cycles", "--no-delta", out])
    if not check(r.returncode == 0, f"babeltrace2 exit {r.returncode}: {r.stderr[-2000:]}"):
        return None
    recs = raw_records(lkbuf, log)
    if recs is None:
        return None
    got, bad = [], 0
    for line in r.stdout.splitlines():
        ts, name, blocks = parse_bt2(line)
        packet, ctx = dict(blocks[0]), dict(blocks[1])
        fields = {k: (int(v, 0) if isinstance(v, str) and re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)", v)
                      and k not in ("comm", "prev_comm", "next_comm", "child_comm",
                                    "parent_comm", "filename", "name") else v)
                  for k, v in (blocks[2] if len(blocks) > 2 else [])}
        got.append((ts, int(packet["cpu_id"]), name, fields))
        if not ("pid" in ctx and "tid" in ctx):
            bad += 1
    check(bad == 0, f"lttng: {bad} events lack the _tid or _pid context")
    # Each event's _tid is its record's pid.
    tids = sorted((int(ts), int(dict(b[0])["cpu_id"]), int(dict(b[1])["tid"]))
                  for ts, _, b in map(parse_bt2, r.stdout.splitlines()))
    check(tids == sorted((x.time, x.cpu, x.pid) for x in recs), "lttng: _tid differs from the records' pids")
    counts = compare("lttng", recs, got, True)
    if counts:
        known = {k: v for k, v in sorted(counts.items())
                 if k in LTTNG_NAMES.values() or "syscall_" in k}
        print(f"lttng: {len(got)} events match lkbuf print; LTTng-named: "
              f"{sum(known.values())} ({', '.join(f'{k} {v}' for k, v in list(known.items())[:12])}"
              f"{', ...' if len(known) > 12 else ''})")
    return out


# ---- Perfetto, through protoc --decode ----

def parse_textproto(text):
    """protoc's text format as nested dicts of lists."""
    root, stack = {}, []
    cur = root
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            cur = stack.pop()
        elif line.endswith(" {"):
            child = {}
            cur.setdefault(line[:-2], []).append(child)
            stack.append(cur)
            cur = child
        else:
            k, v = line.split(": ", 1)
            if v.startswith('"'):
                v = v[1:-1].encode().decode("unicode_escape")
            elif v in ("true", "false"):
                v = v == "true"
            elif re.fullmatch(r"-?\d+", v):
                v = int(v)
            cur.setdefault(k, []).append(v)
    return root


def one(d, k, default=None):
    v = d.get(k)
    return v[0] if v else default


def log_losses(lkbuf, log):
    """Records lost in the log by lkbuf info: the gaps, and the numbers
    before the first record when the kernel says they were overwritten."""
    total = 0
    for m in re.finditer(r"numbers (\d+)\.\.\d+, (\d+) lost; since boot: written \d+, "
                         r"overwritten (\d+)", run([lkbuf, "info", "-f", log]).stdout):
        start, lost, over = map(int, m.groups())
        total += lost + (start if over >= start + lost else 0)
    return total


def check_perfetto(log, lkbuf, tmp):
    out = os.path.join(tmp, "trace.pftrace")
    r = run([lkbuf, "convert", "-f", log, "--to", "perfetto", "-o", out])
    if not check(r.returncode == 0, f"convert --to perfetto: exit {r.returncode}: {r.stderr}"):
        return None
    print(f"perfetto: {r.stderr.strip()}")
    with open(out, "rb") as f:
        d = subprocess.run(["protoc", "--decode=perfetto.protos.Trace", "-I", PROTO_DIR,
                            os.path.join(PROTO_DIR, "perfetto_trace.proto")],
                           stdin=f, capture_output=True, text=True, errors="replace")
    if not check(d.returncode == 0, f"protoc --decode: exit {d.returncode}: {d.stderr[-1000:]}"):
        return None
    trace = parse_textproto(d.stdout)
    recs = raw_records(lkbuf, log)
    if recs is None:
        return None
    got, lost_bundles, threads, stats = [], 0, {}, None
    for p in trace.get("packet", []):
        for b in p.get("ftrace_events", []):
            lost_bundles += bool(one(b, "lost_events", False))
            for e in b.get("event", []):
                kinds = [k for k in e if k not in ("timestamp", "pid")]
                if not check(len(kinds) == 1, f"perfetto: an event with {kinds}"):
                    return None
                body = {k: (v if k == "args" else v[0]) for k, v in e[kinds[0]][0].items()}
                got.append((one(e, "timestamp"), one(b, "cpu"), kinds[0], body))
        for t in p.get("process_tree", []):
            for th in t.get("threads", []):
                threads[one(th, "tid")] = (one(th, "tgid"), one(th, "name"))
        stats = one(p, "ftrace_stats", stats)
    counts = compare("perfetto", recs, got, False)
    if counts:
        sched = sum(counts.get(FTRACE_NAMES[i], 0) for i in SCHED)
        want = sum(r.id in SCHED for r in recs)
        check(sched == want, f"perfetto: {sched} scheduling events, lkbuf print {want}")
        print(f"perfetto: {len(got)} events match lkbuf print, {sched} scheduling "
              f"({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))})")
    named = {r.a[1] for r in recs if r.id == SWITCH and r.a[1]}
    missing = sorted(named - set(threads))
    check(not missing, f"perfetto: threads switched to but not in the process tree: {missing[:10]}")
    total = log_losses(lkbuf, log)
    overrun = sum(one(c, "overrun", 0) for c in (stats or {}).get("cpu_stats", []))
    check(stats is not None and overrun == total,
          f"perfetto: ftrace_stats overrun {overrun}, lkbuf info {total} lost")
    check((lost_bundles > 0) == (total > 0), f"perfetto: {lost_bundles} bundles say lost_events, "
                                             f"the log lost {total}")
    print(f"perfetto: {len(threads)} threads in the process tree; {total} lost "
          f"({lost_bundles} bundles flag lost_events)")
    return out
