"""The event definitions of kernel/kernel/lkst/events.def and the category
ranges of kernel/include/uapi/linux/lkst_events.h, read by the generator of
the C table (gen-event-table.py), the Python tools (events reference, hook
counter) and the test checkers, so that all of them parse them one way.
"""
import os
import re

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
EVENTS_H = os.path.join(REPO, "kernel/include/uapi/linux/lkst_events.h")
EVENTS_DEF = os.path.join(REPO, "kernel/kernel/lkst/events.def")

STRING = r'"((?:[^"\\]|\\.)*)"'
ENTRY = re.compile(r"^LKST_EVENT\((\w+), (0x[0-9a-f]+), (\w+),\s*" + STRING + r",\s*"
                   + STRING + r",\s*" + STRING + r"((?:,?\s*LKST_ARG\(.*\n)*)", re.M)
ARG = re.compile(r"LKST_ARG\((\w+), (\w+), " + STRING + r"\)")


def unescape(s):
    return s.replace('\\"', '"').replace("\\\\", "\\")


def read_categories(path=EVENTS_H):
    """LKST_CAT_ suffix -> (name, first ID, last ID), in the list's order,
    for the fixed categories (not PROBE, whose IDs are handed out at run
    time)."""
    with open(path) as f:
        text = f.read()
    cats = {}
    for m in re.finditer(r"\[LKST_CAT_(\w+)\]\s*=\s*\{\s*\"(\w+)\",\s*(0x[0-9a-f]+),\s*(0x[0-9a-f]+)",
                         text):
        cats[m.group(1)] = (m.group(2), int(m.group(3), 16), int(m.group(4), 16))
    return cats


def category_of(cats, event_id):
    for sym, (_, first, last) in cats.items():
        if first <= event_id <= last:
            return sym
    raise ValueError(f"event ID {event_id:#x} is in no category's range")


def read_table(path=EVENTS_DEF):
    """(categories, events): categories as read_categories() gives them;
    events lists the definitions in order, each a dict of name, id, cat,
    desc, arches, twin (a list of "subsystem:event"), locks, and args
    [(type, desc)] with names [identifier] beside them."""
    cats = read_categories()
    with open(path) as f:
        text = f.read()
    events = []
    for m in ENTRY.finditer(text):
        args = ARG.findall(m.group(7))
        event_id = int(m.group(2), 16)
        events.append(dict(name=m.group(1), id=event_id, cat=category_of(cats, event_id),
                           arches=m.group(3), desc=unescape(m.group(4)),
                           twin=unescape(m.group(5)).split(), locks=unescape(m.group(6)),
                           args=[(t, unescape(d)) for t, _, d in args],
                           arg_names=[n for _, n, _ in args]))
    entries = len(re.findall(r"^LKST_EVENT\(", text, re.M))
    if entries != len(events):
        raise ValueError(f"{path}: read {len(events)} of {entries} LKST_EVENT() entries;"
                         " keep each to the shape its opening comment gives")
    seen = {}
    for e in events:
        if e["id"] in seen:
            raise ValueError(f"{path}: {e['name']} and {seen[e['id']]} both have ID {e['id']:#04x}")
        seen[e["id"]] = e["name"]
        if not 1 <= len(e["args"]) <= 6:
            raise ValueError(f"{path}: {e['name']} has {len(e['args'])} arguments (1 to 6)")
        if e["arches"] not in ("ALL", "X86_64", "ARM64"):
            raise ValueError(f"{path}: {e['name']}: ARCHES is ALL, X86_64 or ARM64, "
                             f"not {e['arches']}")
    return cats, events
