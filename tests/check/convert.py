"""lkbuf convert on a trace: babeltrace2 reads the CTF trace and shows every
record with the values `lkbuf print -C` shows, and the Chrome trace JSON is
valid, its slices nest on every track, and they agree with the records.
The LTTng-layout CTF (babeltrace2) and the Perfetto trace (protoc --decode)
carry every record they map with lttng-modules' and ftrace's names and
values (viewercheck.py), and both are smaller than the JSON.

convert.py TRACE.log LKBUF [COMM_PREFIX]
COMM_PREFIX (default lkw-): some thread named so must have a running slice;
"-" checks no name.
"""
import csv
import decimal
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from lkstcheck import EV, check, done
import viewercheck
from lkst_table import read_table

_, TABLE = read_table()
BY_ID = {e["id"]: e for e in TABLE}
TASK_DEAD = 0x80


# ---- what lkbuf print shows of an event, from the event table ----

def field_name(desc):
    """The field name lkbuf convert gives an argument (lkst_format.c)."""
    name = re.split(r"[,:(]", desc.lower())[0]
    name = re.sub(r"[^a-z0-9]+", "_", name).strip("_")
    return "" if name[:1].isdigit() else name


def shown_fields(event_id):
    """[(argument index, name, type)] of the arguments lkbuf print shows."""
    ev = BY_ID.get(event_id)
    if ev is None:
        return [(i, f"arg{i + 1}", "HEX") for i in range(6)]
    fields, names = [], set()
    args = ev["args"] + [("NONE", "")] * (6 - len(ev["args"]))
    for i, (typ, desc) in enumerate(args):
        if typ in ("NONE", "COMM2") or (typ == "TEXT" and i and args[i - 1][0] == "TEXT"):
            continue
        name = field_name(desc)
        if not name or name in names:
            name = f"arg{i + 1}"
        names.add(name)
        fields.append((i, name, typ))
    return fields


# ---- babeltrace2's text output ----

_ESC = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f",
        "v": "\v", "0": "\0"}


class Parser:
    """The `{ name = value, ... }` structures of a sink.text.pretty line."""

    def __init__(self, text):
        self.s, self.i = text, 0

    def eat(self, token):
        if not self.s.startswith(token, self.i):
            raise ValueError(f"expected {token!r} at {self.s[self.i:self.i + 40]!r}")
        self.i += len(token)

    def string(self):
        self.eat('"')
        out = []
        while self.s[self.i] != '"':
            c = self.s[self.i]
            if c == "\\":
                n = self.s[self.i + 1]
                if n == "x":
                    out.append(chr(int(self.s[self.i + 2:self.i + 4], 16)))
                    self.i += 4
                    continue
                out.append(_ESC.get(n, n))
                self.i += 2
                continue
            out.append(c)
            self.i += 1
        self.i += 1
        return out and "".join(out) or ""

    def value(self):
        if self.s.startswith('"', self.i):
            return self.string()
        if self.s.startswith("( ", self.i):      # enum: ( "label" : container = N )
            self.eat("( ")
            label = self.string() if self.s.startswith('"', self.i) else None
            if label is None:                    # <unknown>
                self.i = self.s.index(" : ", self.i)
            self.eat(" : container = ")
            m = re.compile(r"-?\d+").match(self.s, self.i)
            self.i = m.end()
            self.eat(" )")
            return (label, int(m.group()))
        m = re.compile(r"-?0x[0-9a-fA-F]+|-?\d+").match(self.s, self.i)
        if not m:
            raise ValueError(f"no value at {self.s[self.i:self.i + 40]!r}")
        self.i = m.end()
        return m.group()

    def struct(self):
        self.eat("{ ")
        fields = []
        while not self.s.startswith("}", self.i):
            m = re.compile(r"(\w+) = ").match(self.s, self.i)
            if not m:
                raise ValueError(f"no field at {self.s[self.i:self.i + 40]!r}")
            self.i = m.end()
            fields.append((m.group(1), self.value()))
            if self.s.startswith(", ", self.i):
                self.i += 2
            else:
                self.eat(" ")
        self.eat("}")
        return fields

    def structs(self):
        out = [self.struct()]
        while self.s.startswith(", {", self.i):
            self.i += 2
            out.append(self.struct())
        if self.i != len(self.s):
            raise ValueError(f"trailing text {self.s[self.i:]!r}")
        return out


LINE = re.compile(r"^\[(\d+)\] (.*?) ([A-Za-z0-9_]+): (\{.*)$")


def parse_bt2(line):
    m = LINE.match(line)
    if not m:
        raise ValueError(f"not an event line: {line!r}")
    blocks = Parser(m.group(4)).structs()
    return int(m.group(1)), m.group(3), blocks


def bt2_as_csv(ts, name, blocks):
    """The CSV row lkbuf print -C would show for an event babeltrace2 shows,
    and the field names: (time, cpu, pid, context, event, args[6], names)."""
    packet, ctx = dict(blocks[0]), dict(blocks[1])
    payload = blocks[2] if len(blocks) > 2 else []
    eid = int(name[len("UNKNOWN_"):], 16) if name.startswith("UNKNOWN_") else EV.get(name)
    args, names, values = [""] * 6, [], dict(payload)
    for index, fname, typ in shown_fields(eid):
        names.append(fname)
        if typ == "SYSNR":
            nr, (abi, _) = values.get(fname), values.get(fname + "_abi", (None, 0))
            names += [fname + "_abi", fname + "_name"]
            # The call's name, "" for a number without one.
            ok = isinstance(values.get(fname + "_name"), str)
            args[index] = ("ia32:" if abi == "ia32" else "") + str(nr) + ("" if ok else "?")
        else:
            v = values.get(fname, "<missing>")
            args[index] = v.lower() if isinstance(v, str) and v.startswith("0x") else v
    return (str(ts), packet["cpu_id"], ctx["pid"], ctx["context"][0], name, args,
            [n for n, _ in payload], names)


def json_nr(name, args):
    """A syscall slice's number as lkbuf print -C shows it ("ia32:20"): the
    slice is named by the call ("ia32:getpid"), its args hold the number."""
    return ("ia32:" if name.startswith("ia32:") else "") + str(args.get("nr"))


# ---- the checks ----

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", **kw)


def check_ctf(log, lkbuf, tmp, rows):
    out = os.path.join(tmp, "ctf")
    t0 = time.monotonic()
    r = run([lkbuf, "convert", "-f", log, "--to", "ctf", "-o", out])
    if not check(r.returncode == 0, f"lkbuf convert --to ctf: exit {r.returncode}: {r.stderr}"):
        return
    print(f"ctf: {r.stderr.strip()} in {time.monotonic() - t0:.2f} s")
    r = run(["babeltrace2", "--clock-cycles", "--no-delta", out])
    if not check(r.returncode == 0, f"babeltrace2 exit {r.returncode}: {r.stderr[-2000:]}"):
        return
    for line in r.stderr.splitlines():
        print("babeltrace2:", line)
    lines = r.stdout.splitlines()
    check(len(lines) == len(rows),
          f"babeltrace2 shows {len(lines)} events, lkbuf print -C {len(rows)} records")
    got = []
    for line in lines:
        try:
            got.append(bt2_as_csv(*parse_bt2(line)))
        except (ValueError, KeyError, IndexError) as e:
            check(False, f"cannot read babeltrace2's line ({e}): {line}")
            return
    # babeltrace2 merges the streams by time, lkbuf by time then CPU:
    # a stable sort by (time, cpu) gives both the same order.
    want = sorted(rows, key=lambda r: (int(r["time"]), int(r["cpu"])))
    got.sort(key=lambda g: (int(g[0]), int(g[1])))
    bad = 0
    for w, g in zip(want, got):
        expect = (w["time"], w["cpu"], w["pid"], w["context"], w["event"],
                  [w[f"arg{i}"] for i in range(1, 7)])
        if expect != g[:6] or g[6] != g[7]:
            bad += 1
            if bad <= 5:
                check(False, f"record differs:\n  lkbuf print: {expect}\n  babeltrace2: "
                             f"{g[:6]}\n  fields {g[6]}, expected {g[7]}")
    check(bad == 0, f"{bad} of {len(want)} records differ between babeltrace2 and lkbuf print")
    print(f"ctf: babeltrace2 read {len(lines)} events; {len(want) - bad} match lkbuf print -C")


def ns(value):
    return int(decimal.Decimal(value) * 1000)


def check_nesting(slices, what):
    """Slices (start, end, name) of one track nest and never overlap."""
    stack, bad = [], 0
    for start, end, name in sorted(slices, key=lambda s: (s[0], -s[1])):
        while stack and stack[-1][1] <= start:
            stack.pop()
        if stack and end > stack[-1][1]:
            bad += 1
            if bad <= 3:
                check(False, f"{what}: {name} [{start}, {end}) overlaps "
                             f"{stack[-1][2]} [{stack[-1][0]}, {stack[-1][1]})")
        stack.append((start, end, name))
    return bad == 0


def check_json(log, lkbuf, tmp, rows, comm_prefix):
    out = os.path.join(tmp, "trace.json")
    t0 = time.monotonic()
    r = run([lkbuf, "convert", "-f", log, "--to", "json", "-o", out])
    if not check(r.returncode == 0, f"lkbuf convert --to json: exit {r.returncode}: {r.stderr}"):
        return
    print(f"json: {r.stderr.strip()} in {time.monotonic() - t0:.2f} s")
    try:
        with open(out) as f:
            trace = json.load(f, parse_float=decimal.Decimal)
    except ValueError as e:
        check(False, f"the JSON does not parse: {e}")
        return
    events = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not check(isinstance(events, list), "no traceEvents list"):
        return
    names, tracks, flows, instants = {}, {}, {}, []
    for e in events:
        ph = e.get("ph")
        if ph == "M":
            ok = isinstance(e.get("pid"), int) and isinstance(e.get("args", {}).get("name"), str)
            check(ok, f"metadata event without pid or name: {e}")
            if ok and e["name"] == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        if not check(all(k in e for k in ("ph", "ts", "pid", "tid", "name")) and
                     isinstance(e["name"], str) and isinstance(e["pid"], int) and
                     isinstance(e["tid"], int), f"event lacks ph/ts/pid/tid/name: {e}"):
            return
        key = (e["pid"], e["tid"])
        if ph == "X":
            check(e.get("dur", -1) >= 0, f"slice without a duration: {e}")
            tracks.setdefault(key, []).append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]),
                                               e["name"], e))
        elif ph in ("s", "f"):
            flows.setdefault(e.get("id"), []).append(e)
        elif ph == "i":
            instants.append(e)
        else:
            check(False, f"unexpected phase {ph!r}: {e}")
    nested = sum(check_nesting([s[:3] for s in sl], f"track {k}") for k, sl in tracks.items())
    check(nested == len(tracks), f"slices overlap on {len(tracks) - nested} of {len(tracks)} tracks")

    # Flows: one start and one end each, bound to slices of their tracks.
    starts = {}
    for key, sl in tracks.items():
        for start, end, _, _ in sl:
            starts.setdefault(key, set()).add(start)
    bad = 0
    for fid, pair in flows.items():
        phases = sorted(e["ph"] for e in pair)
        if phases != ["f", "s"]:
            bad += 1
            continue
        s, f = sorted(pair, key=lambda e: e["ph"], reverse=True)
        sk, fk, t = (s["pid"], s["tid"]), (f["pid"], f["tid"]), ns(s["ts"])
        if (ns(f["ts"]) != t or s["cat"] != f["cat"] or
                not any(a <= t < b for a, b, _, _ in tracks.get(sk, [])) or
                t not in starts.get(fk, ())):
            bad += 1
            if bad <= 3:
                check(False, f"flow {fid} is not bound to slices: {s} -> {f}")
    check(bad == 0, f"{bad} of {len(flows)} wakeup flows are broken")

    # The slices agree with the records.
    sw = {}
    wk = {}
    entries, exits, irq_entries, marks = set(), {}, set(), set()
    for r in rows:
        t, cpu, eid = int(r["time"]), int(r["cpu"]), r["event"]
        if eid == "PROCESS_CONTEXTSWITCH":
            sw.setdefault(int(r["arg2"]), set()).add((t, cpu))      # switched in
            state = r["arg3"]
            out_state = "ready" if state == "TASK_RUNNING" else (
                None if "TASK_DEAD" in state else "blocked")
            sw.setdefault(("out", int(r["arg1"])), set()).add((t, out_state))
        elif eid == "PROCESS_WAKEUP":
            wk.setdefault(int(r["arg1"]), set()).add(t)
        elif eid == "SYSCALL_ENTRY":
            entries.add((int(r["pid"]), t, r["arg1"]))
        elif eid == "SYSCALL_EXIT":
            exits[(int(r["pid"]), t)] = (r["arg1"], int(r["arg2"]))
        elif eid in ("INT_HARDWARE_ENTRY", "INT_VECTOR_ENTRY", "INT_SOFTIRQ_ENTRY",
                     "INT_TASKLET_ENTRY", "INT_TASKLETHI_ENTRY", "NMI_ENTRY"):
            irq_entries.add((cpu, t))
        elif eid == "USER_MARK":
            marks.add((t, r["arg1"]))
    counts = {"running": 0, "ready": 0, "blocked": 0, "syscall": 0, "interrupt": 0}
    wrong = []
    for key, sl in tracks.items():
        for start, end, name, e in sl:
            cat, args = e.get("cat"), e.get("args", {})
            if cat == "state":
                tid = e["tid"]
                if name == "running":
                    ok = (start, args.get("cpu")) in sw.get(tid, ())
                elif name == "ready":
                    ok = start in wk.get(tid, ()) or (start, "ready") in sw.get(("out", tid), ())
                else:
                    ok = name == "blocked" and (start, "blocked") in sw.get(("out", tid), ())
                counts[name if name in counts else "running"] += 1
            elif cat == "syscall":
                tid = key[1] % (10 ** (len(str(key[1])) - 1))    # B + tid
                nr = json_nr(name, args)
                ok = (tid, start, nr) in entries
                if ok and "unfinished" not in args:
                    ok = exits.get((tid, end)) == (nr, args.get("return"))
                counts["syscall"] += 1
            else:
                ok = (key[1] - key[0], start) in irq_entries
                counts["interrupt"] += 1
            if not ok:
                wrong.append(e)
    for e in instants:
        if e.get("cat") != "syscall":
            continue
        tid, nr = e["tid"] % (10 ** (len(str(e["tid"])) - 1)), json_nr(e["name"], e["args"])
        if e["args"].get("unfinished") == "entry not in the trace":
            ok = exits.get((tid, ns(e["ts"]))) == (nr, e["args"].get("return"))
        else:
            ok = (tid, ns(e["ts"]), nr) in entries
        counts["syscall"] += 1
        if not ok:
            wrong.append(e)
    for e in wrong[:5]:
        check(False, f"slice not backed by the records: {e}")
    check(not wrong, f"{len(wrong)} slices are not backed by the records")
    got_marks = {(ns(e["ts"]), e["name"]) for e in instants if e.get("cat") == "mark"}
    check(got_marks == marks, f"marks differ: records {sorted(marks)[:5]}, "
                              f"JSON {sorted(got_marks)[:5]}")
    running = [k for k, sl in tracks.items()
               if any(s[2] == "running" for s in sl) and
               names.get(k, "").startswith(comm_prefix)]
    if comm_prefix != "-":
        check(running, f"no running slice of a thread named {comm_prefix}*")
    print(f"json: {len(events)} events on {len(tracks)} tracks; slices {counts}; "
          f"{len(flows)} flows; {len(got_marks)} marks; "
          f"threads {comm_prefix}* running: {len(running)}")


def tree_size(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def check_sizes(tmp, lttng, pftrace, nr_records):
    """The viewers' formats are smaller than the Chrome JSON of the same
    trace, once it has records enough for the CTF metadata's fixed size
    (every event class, some 20 KiB) not to decide."""
    json_path = os.path.join(tmp, "trace.json")
    if not (lttng and pftrace and os.path.exists(json_path)):
        return
    sizes = {"json": tree_size(json_path), "ctf-lttng": tree_size(lttng),
             "perfetto": tree_size(pftrace)}
    print("sizes: " + ", ".join(f"{k} {v} bytes" for k, v in sizes.items()))
    if nr_records < 10000:
        print(f"sizes: not compared, {nr_records} records are fewer than 10000")
        return
    check(sizes["ctf-lttng"] < sizes["json"] and sizes["perfetto"] < sizes["json"],
          f"a viewer's format is not smaller than the JSON: {sizes}")


def main():
    log, lkbuf = sys.argv[1], os.path.abspath(sys.argv[2])
    comm_prefix = sys.argv[3] if len(sys.argv) > 3 else "lkw-"
    if not shutil.which("babeltrace2"):
        check(False, "babeltrace2 is not installed (tools/build/deps.sh installs it)")
        done()
    r = run([lkbuf, "print", "-C", "-f", log])
    if not check(r.returncode == 0, f"lkbuf print -C: exit {r.returncode}: {r.stderr}"):
        done()
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    print(f"{log}: {len(rows)} records")
    tmp = tempfile.mkdtemp(prefix="lkst_convert.")
    try:
        check_ctf(log, lkbuf, tmp, rows)
        check_json(log, lkbuf, tmp, rows, comm_prefix)
        lttng = viewercheck.check_lttng(log, lkbuf, tmp, parse_bt2)
        pftrace = viewercheck.check_perfetto(log, lkbuf, tmp)
        check_sizes(tmp, lttng, pftrace, len(rows))
    finally:
        shutil.rmtree(tmp)
    done()


main()
