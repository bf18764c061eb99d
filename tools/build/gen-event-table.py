#!/usr/bin/env python3
"""Make the generated parts of kernel/include/uapi/linux/lkst_events.h from
the event definitions, kernel/kernel/lkst/events.def: enum lkst_event_id,
enum lkst_event_nr_args (what LKST_HOOK() checks a site against) and
lkst_event_table[].  Each part sits between a BEGIN and an END marker; the
rest of the header is written by hand.  Generated C rather than macros that
expand the list in place: the kernel's checkpatch refuses such macros.

usage: gen-event-table.py [--check]
Rewrites the header, or with --check exits 1 (printing a diff) when it is
not what the definitions make.
"""
import difflib
import re
import sys

from lkst_table import EVENTS_H, read_table

BEGIN = "/* BEGIN generated from events.def by gen-event-table.py (make events) */"
END = "/* END generated */"
# The opening paragraph of the header's first comment, which says why the
# header is long; kept by this script, the rest of the comment by hand.
NOTE = [" * Mostly generated from kernel/lkst/events.def by lkst's",
        " * tools/build/gen-event-table.py (make events), and long because it",
        " * holds every event's table entry, which the kernel and the tools",
        " * compile in.",
        " *"]


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def event_enum(cats, events):
    out = ["enum lkst_event_id {"]
    cat = None
    for e in events:
        if e["cat"] != cat:
            if cat:
                out += [f"\t/* end of {cats[cat][0]} */", ""]
            cat = e["cat"]
            out.append(f"\t/* {cats[cat][0]} */")
        sym = f"LKST_EV_{e['name']}"
        pad = "\t" * max(1, (40 - 8 - len(sym) + 7) // 8)
        out.append(f"\t{sym}{pad}= {e['id']:#04x},")
    out += [f"\t/* end of {cats[cat][0]} */", "};", "",
            "/* A hook site of each event passes exactly this many arguments. */",
            "enum lkst_event_nr_args {"]
    out += [f"\tLKST_NR_ARGS_{e['name']} = {len(e['args'])}," for e in events]
    out.append("};")
    return out


def event_table(cats, events):
    out = ["static const struct lkst_event_info lkst_event_table[] = {"]
    for e in events:
        out += ["\t{",
                f"\t\tLKST_EVENT({e['name']}),",
                f"\t\t.category = LKST_CAT_{e['cat']},",
                f"\t\t.description = {c_string(e['desc'])},",
                "\t\t.args = {"]
        for (t, d), n in zip(e["args"], e["arg_names"]):
            line = f"\t\t\t{{ LKST_ARG_{t}, {c_string(d)}, \"{n}\" }},"
            if len(line.expandtabs(8)) > 100:
                line = f"\t\t\t{{ LKST_ARG_{t}, {c_string(d)},\n\t\t\t  \"{n}\" }},"
            out.append(line)
        out += ["\t\t},",
                f"\t\t.nr_args = LKST_NR_ARGS_{e['name']},",
                f"\t\t.arches = LKST_ARCH_{e['arches']},",
                f"\t\t.twin = {c_string(' '.join(e['twin']))},",
                f"\t\t.locks = {c_string(e['locks'])},",
                "\t},"]
    out.append("};")
    return out


def replace_part(text, index, lines):
    """Text with the INDEX-th (0-based) generated part replaced by LINES."""
    parts = text.split(BEGIN)
    if len(parts) != 3 or any(END not in p for p in parts[1:]):
        sys.exit(f"gen-event-table: {EVENTS_H} needs two parts between\n  {BEGIN}\nand\n  {END}")
    head, tail = parts[index + 1].split(END, 1)
    parts[index + 1] = "\n" + "\n".join(lines) + "\n" + END + tail
    return BEGIN.join(parts)


def put_note(text):
    """Text with NOTE as the first paragraph of the comment after SPDX."""
    spdx, opening, rest = text.split("\n", 2)
    if opening != "/*":
        sys.exit(f"gen-event-table: {EVENTS_H} must open with SPDX, then a comment")
    if rest.startswith(" * Mostly generated"):
        rest = rest.split("\n *\n", 1)[1]
    return "\n".join([spdx, opening] + NOTE + [rest])


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit(__doc__)
    cats, events = read_table()
    with open(EVENTS_H) as f:
        old = f.read()
    new = put_note(old)
    new = replace_part(new, 0, event_enum(cats, events))
    new = replace_part(new, 1, event_table(cats, events))
    too_long = [line for line in new.split("\n") if len(line.expandtabs(8)) > 100]
    if too_long:
        sys.exit("gen-event-table: lines over 100 columns (shorten a description):\n"
                 + "\n".join(too_long))
    if check:
        if new != old:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), EVENTS_H, "generated"))
            print("gen-event-table: lkst_events.h is stale: make events", file=sys.stderr)
            sys.exit(1)
        return
    if new != old:
        with open(EVENTS_H, "w") as f:
            f.write(new)
        print(f"  GEN     {re.sub(r'.*/kernel/', 'kernel/', EVENTS_H)}")


main()
