#!/usr/bin/env python3
"""Writes small version 1 lkst log files (format of utils/lkst_log.h) for
test_cli.sh, with the layout tests/check/lkstcheck.py reads them by.

make_log.py PATH good|swapped|cut|badcontext|escapes|errors
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "check"))
from lkstcheck import LOG_CPU_V1, LOG_HEADER, RECORD as LOG_RECORD  # noqa: E402

LAYOUT = b"time_ns:u64 pid:u32 event:u16 context:u8 flags:u8 arg:u64[6]"
HEADER = LOG_HEADER.format                # 288 bytes
CPU = LOG_CPU_V1.format                   # 40 bytes
RECORD = LOG_RECORD.format                # 64 bytes


def header(nr_cpus, order=0x01020304, host=b"host", release=b"6.12.0"):
    return struct.pack(HEADER, b"LKSTLOG\n", order, 1, 288, 64, nr_cpus, 1, 1,
                       256, 0, 0, LAYOUT, host, release)


def record(time_ns, pid, event, context, *args):
    args = list(args) + [0] * (6 - len(args))
    return struct.pack(RECORD, time_ns, pid, event, context, 0, *args)


def cpu(number, records, overwritten=0, dropped=0):
    return struct.pack(CPU, number, 0, len(records), len(records), overwritten,
                       dropped) + b"".join(records)


def main():
    path, kind = sys.argv[1], sys.argv[2]
    cpu0 = [record(3000, 11, 0x31, 0, 2, 0), record(2000, 10, 0x31, 0, 0, 5)]
    cpu1 = [record(2000, 20, 0x99, 1, 1), record(1000, 0, 0x31, 2, 1, (1 << 64) - 14)]
    data = header(2) + cpu(0, cpu0, dropped=2) + cpu(1, cpu1, overwritten=5)
    if kind == "swapped":
        data = header(2, order=0x04030201) + data[288:]
    elif kind == "cut":
        data = data[:-10]
    elif kind == "badcontext":
        data = header(1) + cpu(0, [record(1, 1, 0x31, 7)])
    elif kind == "escapes":     # terminal escapes in the host name and release
        data = header(2, host=b"h\x1b[31mred\x07", release=b"6\x1b]0;title\x07\\") + data[288:]
    elif kind == "errors":      # SYSCALL_ERROR, EXCEPTION_FAULT_SIGNAL, rt_sigreturn
        data = header(1) + cpu(0, [
            record(1000, 30, 0x33, 0, 2, (1 << 64) - 2, 4200, 0x47c06a),
            record(2000, 30, 0x33, 0, 1 << 32 | 3, (1 << 64) - 9, (1 << 64) - 1),
            record(3000, 31, 0x26, 0, 0x7f0000000123, 4, 0x401b10, 11, 1),
            record(4000, 30, 0x31, 0, 0xffffffff, (1 << 64) - 4)])
    assert struct.calcsize(HEADER) == 288 and struct.calcsize(RECORD) == 64
    with open(path, "wb") as f:
        f.write(data)


main()
