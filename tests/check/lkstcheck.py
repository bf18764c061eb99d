"""Helpers for the host-side checkers of the QEMU scenarios.

Each checker gets the scenario's results directory, reads what the real
utilities produced in the guest (CSV from `lkbuf print`, log files from
`lkbuf read`) and asserts on it.  Log files are parsed here independently
of lkbuf, from the layout in utils/lkst_log.h.
"""
import csv
import struct
import sys

EV_CONTEXTSWITCH = 0x01
EV_WAKEUP = 0x02
EV_SYSCALL_ENTRY = 0x30
EV_SYSCALL_EXIT = 0x31
EV_USER_MARK = 0xe0

NR_WRITE = 1
NR_LSEEK = 8
NR_GETPPID = 110
EBADF = 9

TASK_RUNNING = 0
TASK_INTERRUPTIBLE = 0x1
TASK_DEAD = 0x80

LOG_HEADER = struct.Struct("<8sIIIIIIII QQ 96s 65s 65s 6x")
LOG_CPU = struct.Struct("<II QQQQ")
RECORD_SIZE = 64

_failures = []


def check(cond, message):
    """Record a failed expectation without stopping, so one run shows all."""
    if not cond:
        _failures.append(message)
        print("FAIL:", message)
    return cond


def done():
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


def read_log_cpus(path):
    """{cpu: dict(records, written, overwritten, dropped)} from a log file."""
    with open(path, "rb") as f:
        data = f.read()
    header = LOG_HEADER.unpack_from(data, 0)
    magic, byte_order, version, header_size, record_size, nr_cpus = header[:6]
    assert magic == b"LKSTLOG\n", f"{path}: bad magic {magic!r}"
    assert byte_order == 0x01020304 and version == 1, f"{path}: bad header"
    assert record_size == RECORD_SIZE, f"{path}: record size {record_size}"
    offset = header_size
    cpus = {}
    for _ in range(nr_cpus):
        cpu, _pad, nr, written, overwritten, dropped = LOG_CPU.unpack_from(data, offset)
        offset += LOG_CPU.size + nr * RECORD_SIZE
        cpus[cpu] = dict(records=nr, written=written,
                         overwritten=overwritten, dropped=dropped)
    assert offset == len(data), f"{path}: {len(data) - offset} trailing bytes"
    return cpus


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
