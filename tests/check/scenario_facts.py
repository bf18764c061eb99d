"""Helpers shared by the t51-t54 checkers: the facts a guest program
printed, and the trace rows written after the scenario's start mark.

The per-CPU buffers keep records from earlier scenarios (and from boot,
when lkst.maskset routes everything), so each of these scenarios writes
`lkbuf mark NAME-start` once its maskset is active and its checker looks
only at the records after that mark.
"""
import os
import struct

from lkstcheck import EV, check, read_csv


def read_facts(path):
    """{key: value} from "key value..." lines of a guest program."""
    facts = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition(" ")
            facts[key] = value
    return facts


def mark_text(row):
    """The text of a USER_MARK row, decoded by print or rebuilt from raw."""
    if isinstance(row["arg1"], str):
        return row["arg1"]
    raw = b"".join(struct.pack("<Q", row[f"arg{i}"] or 0) for i in range(1, 7))
    return raw.rstrip(b"\0").decode(errors="replace")


def rows_since_mark(directory, name, csv_name="trace.csv"):
    """Rows of DIRECTORY/CSV_NAME after the last mark "NAME-start", in
    time order; all rows if there is none (a failure)."""
    rows = sorted(read_csv(os.path.join(directory, csv_name)),
                  key=lambda r: int(r["time"]))
    marks = [r for r in rows if r["id"] == EV["USER_MARK"]
             and mark_text(r) == f"{name}-start"]
    if not check(marks, f"no '{name}-start' mark in the trace"):
        return rows
    start = int(marks[-1]["time"])
    return [r for r in rows if int(r["time"]) > start]
