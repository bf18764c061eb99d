"""Helpers for the host-side checkers of the QEMU scenarios.

Each checker gets the scenario's results directory, reads what the real
utilities produced in the guest (CSV from `lkbuf print`, log files from
`lkbuf read`) and asserts on it.  Log files are parsed here independently
of lkbuf, from the layout in utils/lkst_log.h.
"""
import csv
import os
import struct
import sys

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tools/build"))
from lkst_table import EVENTS_DEF, read_table  # noqa: E402  (after the path)

_CATS, EVENTS = read_table()
# {mnemonic: id} for every event of events.def.
EV = {e["name"]: e["id"] for e in EVENTS}
CATEGORIES = [(first, last, name) for name, first, last in _CATS.values()]


def category_of(event_id):
    """The category name of an event ID, from the header's ranges."""
    for first, last, name in CATEGORIES:
        if first <= event_id <= last:
            return name
    return None
EV_CONTEXTSWITCH = EV["PROCESS_CONTEXTSWITCH"]
EV_WAKEUP = EV["PROCESS_WAKEUP"]
EV_SYSCALL_ENTRY = EV["SYSCALL_ENTRY"]
EV_SYSCALL_EXIT = EV["SYSCALL_EXIT"]
EV_USER_MARK = EV["USER_MARK"]


def _guest_arch():
    """The guest's `uname -m`, which common.inc writes into each scenario's
    results (arch.txt); x86_64 for results without it."""
    if len(sys.argv) > 1:
        try:
            with open(os.path.join(sys.argv[1], "arch.txt")) as f:
                return f.read().strip() or "x86_64"
        except OSError:
            pass
    return "x86_64"


ARCH = _guest_arch()
# arm64 records its system calls with LKST_SYSCALL_ABI_ARM64 (2) in the
# number's high 32 bits, which lkbuf print -r shows: other numbers, another
# table.
SYSCALL_ABI = 2 << 32 if ARCH == "aarch64" else 0


def sysnr(x86_64, aarch64):
    """A system call's first SYSCALL_* argument as this guest records it."""
    return SYSCALL_ABI | aarch64 if ARCH == "aarch64" else x86_64


NR_WRITE = sysnr(1, 64)
NR_LSEEK = sysnr(8, 62)
NR_GETPPID = sysnr(110, 173)
EBADF = 9

TASK_RUNNING = 0
TASK_INTERRUPTIBLE = 0x1
TASK_DEAD = 0x80

LOG_HEADER = struct.Struct("<8sIIIIIIII QQ 96s 65s 65s 6x")
LOG_HEADER_V3 = struct.Struct("<QQII")    # version 3: + meta_offset, meta_size, nr_meta
LOG_META = struct.Struct("<IIQ")          # type, pad, size; payload padded to 8
META_EVENTS, META_SOURCE, META_SYMBOLS, META_TASKS = 1, 2, 3, 4
# struct lkst_log_event: id, category, flags, arg_type[6], text_size; then
# text_size bytes of 8 NUL-terminated strings (mnemonic, description, args)
LOG_EVENT = struct.Struct("<HBB6sH")
LOG_CPU_V1 = struct.Struct("<II QQQQ")
LOG_CPU = struct.Struct("<II QQQQ QQQ")     # version 2: + seq_start, seq_end, lost
RECORD = struct.Struct("<QIHBB6Q")
RECORD_SIZE = 64

_failures = []
_failed_events = set()
_covered = []


def check(cond, message, event=None):
    """Record a failed expectation without stopping, so one run shows all.
    A failure naming an event keeps only that event out of the coverage;
    one naming none keeps every event this checker covers out."""
    if not cond:
        _failures.append(message)
        _failed_events.add(event)
        print("FAIL:", message)
    return cond


def covers(*names):
    """Declare the events whose presence and arguments this checker proves;
    done() reports them to the coverage count (tests/check/coverage.py)."""
    for name in names:
        if name not in EV:
            raise KeyError(f"covers({name!r}): not an event of {EVENTS_DEF}")
        _covered.append(name)


def _write_coverage():
    path = os.environ.get("LKST_COVERAGE")
    if not path or not _covered:
        return
    checker = os.path.basename(sys.argv[0])
    with open(path, "a") as f:
        for name in _covered:
            ok = None not in _failed_events and name not in _failed_events
            f.write(f"{name} {'ok' if ok else 'failed'} {checker}\n")


def done():
    _write_coverage()
    if _failures:
        print(f"{len(_failures)} expectation(s) failed")
        sys.exit(1)
    print("all expectations met")
    sys.exit(0)


def signed64(value):
    return value - (1 << 64) if value >= 1 << 63 else value


def parse_arg(text):
    if text == "":
        return None
    return int(text, 0)


def read_csv(path):
    """Rows of `lkbuf print -C [-r]` output with numeric fields parsed."""
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            row["pid"] = int(row["pid"])
            row["cpu"] = int(row["cpu"])
            row["id"] = int(row["id"], 16)
            for i in range(1, 7):
                key = f"arg{i}"
                if row.get(key) is not None and row["id"] != -1:
                    try:
                        row[key] = parse_arg(row[key])
                    except ValueError:
                        pass  # decoded text (state names, command names)
            rows.append(row)
    return rows


def events(rows, event_id):
    return [r for r in rows if r["id"] == event_id]


def read_log(path):
    """(header dict, [section dict]) of a log file (utils/lkst_log.h),
    versions 1 to 3.  A section has cpu, records, written, overwritten,
    dropped, seq_start, seq_end, lost, and recs: a list of
    (seq, time, pid, event, context, args) (seq None in version 1).  A
    version 3 header also has events ({id: (mnemonic, category, flags,
    [arg descriptions])}, the log's own table), source, tasks ({pid:
    (tgid, comm)}, the saved task names) and meta ({type: payload
    bytes})."""
    with open(path, "rb") as f:
        data = f.read()
    header = LOG_HEADER.unpack_from(data, 0)
    magic, byte_order, version, header_size, record_size, nr_cpus = header[:6]
    assert magic == b"LKSTLOG\n", f"{path}: bad magic {magic!r}"
    assert byte_order == 0x01020304 and version in (1, 2, 3), f"{path}: bad header"
    meta_offset = None
    if version >= 3:
        meta_offset, meta_size, nr_meta = LOG_HEADER_V3.unpack_from(data, LOG_HEADER.size)[:3]
        assert header_size == LOG_HEADER.size + LOG_HEADER_V3.size, f"{path}: header size"
        assert meta_offset + meta_size == len(data), f"{path}: metadata does not end the file"
    assert record_size == RECORD_SIZE, f"{path}: record size {record_size}"
    offset = header_size
    sections = []
    for _ in range(nr_cpus):
        if version == 1:
            fields = LOG_CPU_V1.unpack_from(data, offset) + (None, None, 0)
            offset += LOG_CPU_V1.size
        else:
            fields = LOG_CPU.unpack_from(data, offset)
            offset += LOG_CPU.size
        cpu, _pad, nr, written, overwritten, dropped, start, end, lost = fields
        recs = []
        for i in range(nr):
            t, pid, ev, ctx, _fl, *args = RECORD.unpack_from(data, offset + i * RECORD_SIZE)
            recs.append([None, t, pid, ev, ctx, args])
        offset += nr * RECORD_SIZE
        if version > 1:
            for i, (seq,) in enumerate(struct.iter_unpack("<Q", data[offset:offset + 8 * nr])):
                recs[i][0] = seq
            offset += 8 * nr
        sections.append(dict(cpu=cpu, records=nr, written=written,
                             overwritten=overwritten, dropped=dropped,
                             seq_start=start, seq_end=end, lost=lost,
                             recs=[tuple(r) for r in recs]))
    info = dict(version=version, nr_cpus=nr_cpus, size=len(data))
    if meta_offset is not None:
        assert offset == meta_offset, f"{path}: sections end at {offset}, metadata at {meta_offset}"
        meta = {}
        for _ in range(nr_meta):
            mtype, _pad, size = LOG_META.unpack_from(data, offset)
            offset += LOG_META.size
            meta.setdefault(mtype, data[offset:offset + size])
            offset += (size + 7) // 8 * 8
        events = {}
        table = meta[META_EVENTS]
        nr = struct.unpack_from("<I", table, 0)[0]
        pos = 8
        for _ in range(nr):
            eid, cat, flags, _types, text_size = LOG_EVENT.unpack_from(table, pos)
            pos += LOG_EVENT.size
            name, _desc, *argd = table[pos:pos + text_size].split(b"\0")[:8]
            pos += text_size
            events[eid] = (name.decode(), cat, flags, [a.decode() for a in argd])
        tasks = {}
        blob = meta.get(META_TASKS, b"")
        for i in range(struct.unpack_from("<I", blob, 0)[0] if blob else 0):
            pid, tgid, comm = struct.unpack_from("<II16s", blob, 8 + 24 * i)
            tasks[pid] = (tgid, comm.rstrip(b"\0").decode(errors="replace"))
        info.update(events=events, meta=meta, tasks=tasks,
                    source=meta.get(META_SOURCE, b"").split(b"\0")[0].decode())
    assert offset == len(data), f"{path}: {len(data) - offset} trailing bytes"
    return info, sections


def read_log_cpus(path):
    """{cpu: dict(records, written, overwritten, dropped, ...)} from a log file."""
    _header, sections = read_log(path)
    return {s["cpu"]: {k: v for k, v in s.items() if k != "recs"} for s in sections}


def read_roles(path):
    """{role: pid} from the workload's pids file."""
    roles = {}
    with open(path) as f:
        for line in f:
            role, pid = line.split()
            roles[role] = int(pid)
    return roles


def read_prog(path):
    """pid and /dev/null fd printed by lkst_syscalls."""
    with open(path) as f:
        words = f.read().split()
    return int(words[1]), int(words[3])


def read_kallsyms(path):
    """{name: address} from a copy of /proc/kallsyms (the first of a name)."""
    syms = {}
    with open(path) as f:
        for line in f:
            addr, _type, name = line.split()[:3]
            syms.setdefault(name, int(addr, 16))
    return syms


def read_facts(path):
    """{key: int} from the "key value [key value...]" lines a guest program
    printed; a key seen again keeps its last value."""
    facts = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            for i in range(0, len(words) - 1, 2):
                facts[words[i]] = int(words[i + 1], 0)
    return facts


def read_prog_keyed(path):
    """{name: {key: int}} from "name key value key value..." lines, as the
    interrupt and timer guest programs print them."""
    prog = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            prog[words[0]] = {words[i]: int(words[i + 1]) for i in range(1, len(words) - 1, 2)}
    return prog
