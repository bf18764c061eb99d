"""Event coverage of the whole QEMU run: which events of the table some
scenario checker proved (present, with correct arguments), which are marked
untriggerable in the guest (tests/check/untriggerable.txt, with a reason),
which are absent on the guest's architecture (events.def's ARCHES names
only another one: x86's NMIs on arm64) and which nothing proved.  Exit 1
when an event is neither proved nor marked nor absent, or when a mark names
no event of the table.

usage: coverage.py [--arch aarch64] COVERAGE_FILE
--arch: the guest's `uname -m` (default x86_64); any other than x86_64
names the line ("arm64 coverage: ...").
The last line printed is the coverage line of the test run.
"""
import argparse
import os
import sys

from lkstcheck import EV, EVENTS

here = os.path.dirname(os.path.realpath(__file__))
# uname -m -> events.def's ARCHES, and the name the line gives the arch.
ARCHES = {"x86_64": ("X86_64", ""), "aarch64": ("ARM64", "arm64")}


def read_marks(path):
    marks = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, reason = line.partition(" ")
            if not reason.strip():
                sys.exit(f"{path}:{n}: {name} has no reason")
            marks[name] = reason.strip()
    return marks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="x86_64", choices=sorted(ARCHES))
    ap.add_argument("coverage")
    opts = ap.parse_args()
    arch, label = ARCHES[opts.arch]
    # Events whose sites are all in another architecture's code: a checker
    # may prove they are absent here, which is no observation.
    absent = {e["name"]: e["arches"] for e in EVENTS if e["arches"] not in ("ALL", arch)}
    proved, failed = {}, {}
    if os.path.exists(opts.coverage):
        with open(opts.coverage) as f:
            for line in f:
                name, status, checker = line.split()
                (proved if status == "ok" else failed).setdefault(name, []).append(checker)
    marks = read_marks(os.path.join(here, "untriggerable.txt"))
    bad = 0
    for name in marks:
        if name not in EV:
            print(f"untriggerable.txt: {name} is not an event of the table")
            bad += 1
    missing = []
    for name, ev in sorted(EV.items(), key=lambda kv: kv[1]):
        if name in failed:
            state = "FAILED in " + ",".join(failed[name])
        elif name in absent:
            state = (f"absent on {label}: events.def's ARCHES is {absent[name]}, "
                     "whose code alone has its sites")
        elif name in proved:
            state = "ok (" + ",".join(sorted(set(proved[name]))) + ")"
        elif name in marks:
            state = "untriggerable: " + marks[name]
        else:
            state = "NOT OBSERVED"
        if name in failed or (name not in proved and name not in marks and name not in absent):
            missing.append(name)
        print(f"0x{ev:02x} {name:28} {state}")
    ok = sum(1 for n in EV if n in proved and n not in failed and n not in absent)
    unmarked = sum(1 for n in marks if n in EV and n not in proved and n not in absent)
    print(f"{label + ' ' if label else ''}coverage: {ok} of {len(EV)} events observed with "
          f"correct arguments, {unmarked} marked untriggerable, "
          + (f"{len(absent)} absent on {label}, " if label else "")
          + f"{len(missing)} missing{': ' + ' '.join(missing) if missing else ''}")
    sys.exit(1 if missing or bad else 0)


main()
