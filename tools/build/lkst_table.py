"""The event table of kernel/include/uapi/linux/lkst_events.h, read by the
Python tools (events reference, hook counter) and the test checkers, so that
all of them parse the one header the same way.
"""
import os
import re

EVENTS_H = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..",
                                         "kernel/include/uapi/linux/lkst_events.h"))


def read_table(path=EVENTS_H):
    """(categories, events): categories maps LKST_CAT_ suffix to (name,
    first ID, last ID) in table order; events lists the table's entries in
    order, each a dict of name, id, cat, desc and args [(type, desc)]."""
    with open(path) as f:
        text = f.read()
    cats = {}
    for m in re.finditer(r"\[LKST_CAT_(\w+)\]\s*=\s*\{\s*\"(\w+)\",\s*(0x[0-9a-f]+),\s*(0x[0-9a-f]+)", text):
        cats[m.group(1)] = (m.group(2), int(m.group(3), 16), int(m.group(4), 16))
    ids = {m.group(1): int(m.group(2), 0) for m in
           re.finditer(r"^\s*LKST_EV_(\w+)\s*=\s*(0x[0-9a-fA-F]+|\d+),", text, re.M)}
    table = text[text.index("lkst_event_table[] = {"):]
    events = []
    for m in re.finditer(r"LKST_EVENT\((\w+)\),\s*\.category = LKST_CAT_(\w+),\s*"
                         r"\.description = \"((?:[^\"\\]|\\.)*)\",\s*\.args = \{(.*?)\n\t\t\},",
                         table, re.S):
        args = re.findall(r"\{ LKST_ARG_(\w+), \"((?:[^\"\\]|\\.)*)\" \}", m.group(4))
        events.append(dict(name=m.group(1), id=ids[m.group(1)], cat=m.group(2),
                           desc=m.group(3), args=args))
    return cats, events
