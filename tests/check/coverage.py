"""Event coverage of the whole QEMU run: which events of the table some
scenario checker proved (present, with correct arguments), which are marked
untriggerable in the guest (tests/check/untriggerable.txt, with a reason),
and which nothing proved.  Exit 1 when an event is neither proved nor
marked, or when a mark names no event of the table.

usage: coverage.py COVERAGE_FILE
The last line printed is the coverage line of the test run.
"""
import os
import sys

from lkstcheck import EV

here = os.path.dirname(os.path.realpath(__file__))


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
    proved, failed = {}, {}
    if os.path.exists(sys.argv[1]):
        with open(sys.argv[1]) as f:
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
        elif name in proved:
            state = "ok (" + ",".join(sorted(set(proved[name]))) + ")"
        elif name in marks:
            state = "untriggerable: " + marks[name]
        else:
            state = "NOT OBSERVED"
        if name in failed or (name not in proved and name not in marks):
            missing.append(name)
        print(f"0x{ev:02x} {name:28} {state}")
    ok = sum(1 for n in EV if n in proved and n not in failed)
    print(f"coverage: {ok} of {len(EV)} events observed with correct arguments, "
          f"{sum(1 for n in marks if n in EV and n not in proved)} marked untriggerable, "
          f"{len(missing)} missing{': ' + ' '.join(missing) if missing else ''}")
    sys.exit(1 if missing or bad else 0)


main()
