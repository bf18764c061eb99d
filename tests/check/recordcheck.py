"""Checks on a directory written by `lkbuf record`, shared by the t94
checker (real kernel) and the host test against the fake device.

verify(dir, report_text, rotate, keep) returns a list of failure messages:
the numbered files are the newest `keep` of those written; each is a
complete log file of at most `rotate` bytes and all but the newest are
full (could not take the record it stopped at, with its task name when
this file does not have it); for every CPU the files follow each other (a file starts at the
sequence number where the previous one ended) and hold strictly
increasing numbers with no gap other than the numbers they declare lost;
with every file kept, what they hold and lose adds up to what lkbuf
reported at the end.
"""
import glob
import os
import re
import struct

from lkstcheck import read_log

SLOT = 64 + 8           # a record and its sequence number
TASK = 24               # a task name; the first also brings 24 of headers
META_SYMBOLS = 3        # utils/lkst_log.h
META_HEAD = 16          # struct lkst_log_meta
KSYM_HEAD = 8           # LKST_KSYM_HEAD_SIZE
KSYM_ENTRY = 16         # struct lkst_ksym_entry


def symbols(header):
    """[(addr, size, name)] of a log's kernel-symbol section, and its
    payload bytes (0: none)."""
    blob = header.get("meta", {}).get(META_SYMBOLS, b"")
    if not blob:
        return [], 0
    nr, _strtab = struct.unpack_from("<II", blob, 0)
    names = blob[KSYM_HEAD + nr * KSYM_ENTRY:]
    syms = []
    for i in range(nr):
        addr, size, name = struct.unpack_from("<QII", blob, KSYM_HEAD + i * KSYM_ENTRY)
        syms.append((addr, size, names[name:names.index(b"\0", name)]))
    return syms, len(blob)


def meta_bytes(payload):
    return META_HEAD + (payload + 7) // 8 * 8 if payload else 0


def symbol_cost(header, following, rec):
    """Bytes the symbol section of header's file grows by with the symbols
    rec's frames have in the following file (lkbuf counts them)."""
    if following[0]["events"].get(rec[3], ("",))[0] != "STACK_KERNEL":
        return 0
    have, payload = symbols(header)
    have = {a for a, _s, _n in have}
    new = {}
    for addr in rec[5][1:]:
        for a, size, name in symbols(following[0])[0]:
            if addr and (a == addr or a <= addr < a + size) and a not in have:
                new[a] = name
    if not new:
        return 0
    grown = (payload or KSYM_HEAD) + sum(KSYM_ENTRY + len(n) + 1 for n in new.values())
    return meta_bytes(grown) - meta_bytes(payload)


def next_cost(header, following):
    """The most bytes the record this file stopped at may have needed: it
    is one CPU's first in the following file (the earliest pending then;
    another CPU's earlier ones may have come after), with its task name
    when the following file has it and this one does not, and the kernel
    symbols of its frames this file does not have."""
    cost = SLOT
    for s in following[1]:
        if not s["recs"]:
            continue
        rec = s["recs"][0]
        pid = rec[2]
        task = 0
        if pid in following[0].get("tasks", {}) and pid not in header.get("tasks", {}):
            task = TASK if header.get("tasks") else 2 * TASK
        cost = max(cost, SLOT + task + symbol_cost(header, following, rec))
    return cost
    pid = min(firsts)[2]
    if pid in following[0].get("tasks", {}) and pid not in header.get("tasks", {}):
        return SLOT + (TASK if header.get("tasks") else 2 * TASK)
    return SLOT


def parse_report(text):
    """lkbuf record's closing lines: totals and {cpu: dict}."""
    cpus = {}
    for m in re.finditer(r"^lkbuf: cpu(\d+): (\d+) records saved of sequence numbers "
                         r"\[(\d+), (\d+)\), (\d+) lost \(overwritten before they were "
                         r"drained\), (\d+) dropped$", text, re.M):
        cpu, saved, first, end, lost, dropped = map(int, m.groups())
        cpus[cpu] = dict(saved=saved, first=first, end=end, lost=lost, dropped=dropped)
    m = re.search(r"^lkbuf: recorded (\d+) records of (\d+) CPUs in (\d+) files, (\d+) kept "
                  r"in \S+; (\d+) lost in the kernel \(overwritten before they were "
                  r"drained\), (\d+) dropped$", text, re.M)
    if not m:
        return None, cpus
    saved, nr_cpus, files, kept, lost, dropped = map(int, m.groups())
    return dict(saved=saved, nr_cpus=nr_cpus, files=files, kept=kept, lost=lost,
                dropped=dropped), cpus


def verify(directory, report_text, rotate, keep):
    fails = []
    total, per_cpu = parse_report(report_text)
    if total is None:
        return [f"no closing 'lkbuf: recorded ...' line in the report: {report_text!r}"]
    paths = sorted(glob.glob(os.path.join(directory, "lkst-*.log")))
    numbers = [int(re.search(r"lkst-(\d+)\.log$", p).group(1)) for p in paths]
    want_kept = min(keep, total["files"]) if keep else total["files"]
    if total["kept"] != want_kept:
        fails.append(f"reported {total['kept']} kept of {total['files']}, keep {keep}")
    if numbers != list(range(total["files"] - want_kept + 1, total["files"] + 1)):
        fails.append(f"files {numbers}, expected the newest {want_kept} of 1..{total['files']}")
    if glob.glob(os.path.join(directory, "*.tmp")):
        fails.append("a .tmp file was left behind")
    if len(per_cpu) != total["nr_cpus"]:
        fails.append(f"report has lines for CPUs {sorted(per_cpu)} of {total['nr_cpus']}")

    ends = {}
    held = {c: 0 for c in per_cpu}
    lost = {c: 0 for c in per_cpu}
    first = {}
    logs = []
    for path in paths:
        try:
            logs.append(read_log(path))
        except Exception as e:  # noqa: BLE001 - any parse failure is a finding
            logs.append(None)
            fails.append(f"{os.path.basename(path)}: not a valid log file: {e}")
    for i, path in enumerate(paths):
        name = os.path.basename(path)
        if logs[i] is None:
            continue
        header, sections = logs[i]
        if header["version"] != 3 or "SYSCALL_EXIT" not in [e[0] for e in header["events"].values()]:
            fails.append(f"{name}: version {header['version']}")
        if header["size"] > rotate:
            fails.append(f"{name}: {header['size']} bytes, more than the rotate size {rotate}")
        cost = next_cost(header, logs[i + 1]) if i < len(paths) - 1 and logs[i + 1] else SLOT
        if i < len(paths) - 1 and header["size"] + cost <= rotate:
            fails.append(f"{name}: {header['size']} bytes, not full for rotate size {rotate} "
                         f"(the next record takes {cost})")
        if sorted(s["cpu"] for s in sections) != sorted(per_cpu):
            fails.append(f"{name}: CPU sections {[s['cpu'] for s in sections]}")
        for s in sections:
            cpu = s["cpu"]
            seqs = [r[0] for r in s["recs"]]
            if cpu in ends and s["seq_start"] != ends[cpu]:
                fails.append(f"{name}: cpu{cpu} starts at {s['seq_start']}, "
                             f"the previous file ended at {ends[cpu]}")
            first.setdefault(cpu, s["seq_start"])
            ends[cpu] = s["seq_end"]
            if any(b <= a for a, b in zip(seqs, seqs[1:])):
                fails.append(f"{name}: cpu{cpu}: sequence numbers not strictly increasing")
            if seqs and (seqs[0] < s["seq_start"] or seqs[-1] >= s["seq_end"]):
                fails.append(f"{name}: cpu{cpu}: numbers outside [{s['seq_start']}, {s['seq_end']})")
            if len(seqs) + s["lost"] != s["seq_end"] - s["seq_start"]:
                fails.append(f"{name}: cpu{cpu}: {len(seqs)} records + {s['lost']} lost != "
                             f"{s['seq_end']} - {s['seq_start']}")
            gaps = sum(b - a - 1 for a, b in zip([s["seq_start"] - 1] + seqs,
                                                 seqs + [s["seq_end"]]))
            if gaps != s["lost"]:
                fails.append(f"{name}: cpu{cpu}: gaps add up to {gaps}, the file says {s['lost']} lost")
            held[cpu] = held.get(cpu, 0) + len(seqs)
            lost[cpu] = lost.get(cpu, 0) + s["lost"]
    for cpu, rep in per_cpu.items():
        if cpu in ends and ends[cpu] != rep["end"]:
            fails.append(f"cpu{cpu}: the newest file ends at {ends[cpu]}, lkbuf reported {rep['end']}")
        if want_kept == total["files"] and paths:
            if first.get(cpu) != rep["first"]:
                fails.append(f"cpu{cpu}: the first file starts at {first.get(cpu)}, "
                             f"lkbuf reported {rep['first']}")
            if held.get(cpu) != rep["saved"] or lost.get(cpu) != rep["lost"]:
                fails.append(f"cpu{cpu}: files hold {held.get(cpu)} and lose {lost.get(cpu)}, "
                             f"lkbuf reported {rep['saved']} saved and {rep['lost']} lost")
        elif lost.get(cpu, 0) > rep["lost"] or held.get(cpu, 0) > rep["saved"]:
            fails.append(f"cpu{cpu}: kept files hold {held.get(cpu)} and lose {lost.get(cpu)}, "
                         f"more than reported ({rep['saved']}, {rep['lost']})")
    if sum(r["lost"] for r in per_cpu.values()) != total["lost"]:
        fails.append("per-CPU lost counts do not add up to the total")
    return fails
