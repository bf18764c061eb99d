"""lkm stat counted the syscall burst; lkbuf mark's text is in the trace."""
import os
import struct
import sys

from lkstcheck import EV_USER_MARK, check, covers, done, events, read_csv

covers("USER_MARK")
d = sys.argv[1]


def read_stat(path):
    """{mnemonic: (hits, dropped)} from `lkm stat` output."""
    stats = {}
    with open(path) as f:
        lines = f.read().splitlines()
    check(lines and lines[0].split() == ["ID", "EVENT", "HITS", "DROPPED"],
          f"{path}: no 'ID EVENT HITS DROPPED' header")
    for line in lines[1:]:
        _id, name, hits, dropped = line.split()
        stats[name] = (int(hits), int(dropped))
    return stats


def mark_text(row):
    """The first text field; decoded by print, or rebuilt from raw args."""
    if isinstance(row["arg1"], str):
        return row["arg1"]
    raw = b"".join(struct.pack("<Q", row[f"arg{i}"] or 0) for i in range(1, 7))
    return raw.rstrip(b"\0").decode(errors="replace")


stats = read_stat(os.path.join(d, "stat.txt"))
hits, dropped = stats.get("SYSCALL_ENTRY", (0, -1))
check(hits >= 50, f"SYSCALL_ENTRY hits {hits}, expected at least the 50 lseeks")
check(dropped == 0, f"SYSCALL_ENTRY dropped {dropped}, expected 0")

marks = events(read_csv(os.path.join(d, "trace.csv")), EV_USER_MARK)
check(len(marks) >= 1, "no USER_MARK row in trace.csv")
texts = [mark_text(r) for r in marks]
check("before-the-burst" in texts,
      f"no USER_MARK with text 'before-the-burst' (got {texts})")
check(all(r["event"] == "USER_MARK" for r in marks),
      "a 0xe0 row is not named USER_MARK")
done()
