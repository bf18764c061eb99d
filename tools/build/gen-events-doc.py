#!/usr/bin/env python3
"""Generate docs/events.md, the events reference, from the sources it
describes so it cannot drift from them:

  - IDs, mnemonics, categories, descriptions and arguments from the event
    table, kernel/include/uapi/linux/lkst_events.h;
  - where each event is hooked from the LKST_HOOK*() sites in the files the
    patch series touches, read from a patched kernel tree (KSRC), and from
    the tracer core (kernel/) and the handler modules (handlers/), which
    emit some events themselves;
  - which categories RDEFAULT routes from lkst_route_primary() in boot.c.

usage: gen-events-doc.py KSRC PATCH_DIR SERIES > docs/events.md
       gen-events-doc.py --check DOC KSRC PATCH_DIR SERIES

The page names the kernel release its functions were read from.  The
archive's 6.12.y moves on under the project, and a stable update may move a
hook's line into another function (panic() became a wrapper of vpanic() in
6.12.y) with the series still applying.  So --check compares DOC strictly
when KSRC is the release DOC was made from; against another release it
compares everything but the enclosing functions' names, and lists the names
that differ as a note, not a failure.
"""
import difflib
import os
import re
import sys

from lkst_table import read_table

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
BOOT = os.path.join(REPO, "kernel/kernel/lkst/boot.c")

ARG_TYPES = {
    "DEC": "signed", "UDEC": "unsigned", "HEX": "hex", "PID": "pid",
    "STATE": "task state", "SYSNR": "syscall nr", "RETVAL": "return value",
    "COMM": "name", "COMM2": None, "TEXT": "text", "NONE": None,
    "STACKPOS": "stack position", "KSYM": "kernel address",
    "UADDR": "user address",
}


def enclosing_function(lines, index):
    """Name of the C function whose body holds line INDEX (0-based)."""
    for i in range(index, -1, -1):
        line = lines[i]
        if line.startswith("}") and i != index:
            return None
        m = re.match(r"^(?:[A-Za-z_][\w\s\*]*?\s\**)?([A-Za-z_]\w*)\s*\(", line)
        if m and not line.startswith((" ", "\t", "#")) and not line.rstrip().endswith(";"):
            name = m.group(1)
            if name in ("__releases", "__acquires", "__must_hold"):
                continue  # sparse annotations after the signature
            if name.startswith(("DEFINE_IDTENTRY", "SYSCALL_DEFINE")):
                arg = re.search(r"\(\s*(\w+)", line[m.end() - 1:])
                return arg.group(1) if arg else name
            return name
    return None


WORD = re.compile(r"\b([A-Za-z_]\w*)\b")


def logical_lines(path):
    """(raw lines, [(first line index, text)]) of PATH with backslash
    continuations joined; ([], []) if it cannot be read."""
    try:
        with open(path, errors="replace") as f:
            raw = f.read().split("\n")
    except OSError:
        return [], []
    logical, i = [], 0
    while i < len(raw):
        start, text = i, raw[i]
        while text.endswith("\\") and i + 1 < len(raw):
            i += 1
            text = text[:-1] + " " + raw[i]
        logical.append((start, text))
        i += 1
    return raw, logical


def macro_defs(logical):
    """{name: words of its body} of the function-like macros defined."""
    macros = {}
    for _, text in logical:
        m = re.match(r"\s*#\s*define\s+(\w+)\(", text)
        if m:
            macros[m.group(1)] = set(WORD.findall(text[m.end():]))
    return macros


def hook_sites(path, shown, names, header_macros):
    """{event: [(shown path, function)]} for the hook sites in PATH:
    LKST_HOOK*(EVENT, ...), lkst_record_event(LKST_EV_EVENT, ...), and
    invocations of macros (local, or of a patched header) that expand to
    hooks of known events, named in their body or in their arguments."""
    sites = {}
    raw, logical = logical_lines(path)
    word = WORD
    macros = dict(header_macros)
    macros.update(macro_defs(logical))
    # Macros that expand to a hook, directly or through another macro, and
    # the events they name (as mnemonics, or through the macros they call).
    hooky = {n for n, words in macros.items() if words & {"LKST_HOOK", "LKST_HOOK6"}}
    changed = True
    while changed:
        grown = {n for n, words in macros.items() if words & hooky} | hooky
        changed, hooky = grown != hooky, grown
    expands = {n: {w for w in macros[n] if w in names} for n in hooky}
    changed = True
    while changed:
        changed = False
        for n in hooky:
            evs = expands[n] | {e for w in macros[n] if w in hooky and w != n for e in expands[w]}
            if evs != expands[n]:
                expands[n], changed = evs, True
    # lkst_*() helpers holding a hook: their callers are the sites.
    helpers = {}
    for index, text in logical:
        for m in re.finditer(r"LKST_HOOK6?\(\s*(\w+)", text):
            fn = enclosing_function(raw, index)
            if fn and fn.startswith("lkst_"):
                helpers.setdefault(fn, set()).add(m.group(1))
    for index, text in logical:
        stripped = text.lstrip()
        if stripped.startswith(("#", "*", "/*", "//")):
            continue
        found = [m.group(1) for m in re.finditer(r"LKST_HOOK6?\(\s*(\w+)", text)]
        if "lkst_record_event" in "".join(raw[max(0, index - 3):index + 1]):
            found += re.findall(r"LKST_EV_(\w+)", text)
        fn = enclosing_function(raw, index) or "?"
        if fn in helpers:
            continue  # reported where the helper is called
        if re.match(r"#\s*define", stripped):
            continue
        for m in re.finditer(r"\b(\w+)\s*\(", text):
            found += sorted(expands.get(m.group(1), ()))
            if m.group(1) in hooky:
                found += [w for w in word.findall(text[m.end():]) if w in names]
            if m.group(1) in helpers and m.group(1) != fn:
                found += sorted(helpers[m.group(1)])
        for event in found:
            site = (shown, fn)
            sites.setdefault(event, [])
            if site not in sites[event]:
                sites[event].append(site)
    return sites


def patched_files(patch_dir, series):
    files = []
    with open(series) as f:
        names = [l.split("#")[0].strip() for l in f if l.split("#")[0].strip()]
    for name in names:
        with open(os.path.join(patch_dir, name)) as p:
            for line in p:
                m = re.match(r"^\+\+\+ b/(\S+)", line)
                if m and m.group(1).endswith((".c", ".h")) and m.group(1) not in files:
                    files.append(m.group(1))
    return files


def rdefault_categories():
    with open(BOOT) as f:
        text = f.read()
    body = text[text.index("lkst_route_primary(unsigned int event)"):]
    body = body[:body.index("\n}\n")]
    return re.findall(r"case LKST_CAT_(\w+):", body)


def kernel_release(ksrc):
    """VERSION.PATCHLEVEL.SUBLEVEL of the tree's top Makefile."""
    fields = {}
    with open(os.path.join(ksrc, "Makefile")) as f:
        for line in f:
            m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)", line)
            if m:
                fields[m.group(1)] = m.group(2)
            if len(fields) == 3:
                break
    return "{VERSION}.{PATCHLEVEL}.{SUBLEVEL}".format(**fields)


RELEASE_LINE = re.compile(r"^Hook sites and their functions as in Linux (\S+)\.$", re.M)
SITE_FN = re.compile(r"(`[^`]+`): `[^`]+\(\)`")


def check(doc_path, text, release):
    """0 when DOC agrees with TEXT (made from RELEASE), as the docstring
    says; prints what differs."""
    with open(doc_path) as f:
        doc = f.read()
    if doc == text:
        print(f"{doc_path}: up to date (Linux {release})")
        return 0
    m = RELEASE_LINE.search(doc)
    made = m.group(1) if m else None
    if made == release or made is None:
        sys.stdout.writelines(difflib.unified_diff(
            doc.splitlines(True), text.splitlines(True), doc_path, "generated"))
        print(f"{doc_path} is stale: run make docs" +
              ("" if made else " (it names no kernel release)"))
        return 1

    def masked(t):
        return SITE_FN.sub(r"\1", RELEASE_LINE.sub("", t)).splitlines(True)
    diff = list(difflib.unified_diff(masked(doc), masked(text), doc_path, "generated"))
    if diff:
        sys.stdout.writelines(diff)
        print(f"{doc_path} is stale beyond its functions' names "
              f"(made from Linux {made}, the tree is {release}): run make docs")
        return 1
    old = set(re.findall(r"`[^`]+`: `[^`]+\(\)`", doc))
    new = set(re.findall(r"`[^`]+`: `[^`]+\(\)`", text))
    print(f"{doc_path}: made from Linux {made}, the tree is {release}; "
          "the same events, arguments and hooked files")
    for site in sorted(old - new):
        print(f"  note: only in {made}: {site}")
    for site in sorted(new - old):
        print(f"  note: only in {release}: {site}")
    return 0


def main():
    args = sys.argv[1:]
    doc_path = None
    if args[:1] == ["--check"] and len(args) == 5:
        doc_path, args = args[1], args[2:]
    if len(args) != 3:
        sys.exit(__doc__)
    ksrc, patch_dir, series = args
    release = kernel_release(ksrc)
    cats, events = read_table()
    names = {e["name"] for e in events}
    sites = {}

    def merge(found):
        for ev, where in found.items():
            sites.setdefault(ev, []).extend(w for w in where if w not in sites.get(ev, []))

    files = patched_files(patch_dir, series)
    header_macros = {}
    for rel in files:
        if rel.endswith(".h"):
            header_macros.update(macro_defs(logical_lines(os.path.join(ksrc, rel))[1]))
    for rel in files:
        if rel.startswith("kernel/lkst/") or not rel.endswith(".c"):
            continue  # the core, read from the repository below
        merge(hook_sites(os.path.join(ksrc, rel), rel, names, header_macros))
    for sub in ("kernel/kernel/lkst", "handlers"):
        for name in sorted(os.listdir(os.path.join(REPO, sub))):
            if name.endswith(".c") and "kunit" not in name:
                merge(hook_sites(os.path.join(REPO, sub, name), f"{sub}/{name}", names, {}))

    nsites = sum(len(v) for k, v in sites.items() if any(e["name"] == k for e in events))
    out = []
    w = out.append
    w("# lkst events reference")
    w("")
    w("Generated by `make docs` from the event definitions "
      "(`kernel/kernel/lkst/events.def`), the hook sites in the "
      "patched kernel, the tracer core and the handler modules; `make test` "
      "fails when this file is stale. Do not edit it by hand.")
    w("")
    w(f"Hook sites and their functions as in Linux {release}.")
    w("")
    w(f"{len(events)} events; {nsites} hook sites in the source "
      "(one source line can be inlined into several places: "
      "`make count-hooks` counts the sites in a built kernel).")
    w("")
    w("Arguments are numbered as `lkbuf print` shows them (arg1..arg6). "
      "A *name* argument spans two slots (16 bytes of a command or device "
      "name); consecutive *text* slots join into one string.")
    w("")
    w("*Upstream twin*: the tracepoints that fire beside the event's sites and "
      "carry the same facts (the differential test compares them; the "
      "stock-kernel module attaches to them). *Locks*: what a site may hold "
      "when the hook fires, which a handler must never take. An event marked "
      "*x86-64 only* has its sites in x86 code so far.")
    w("")
    w("## Adding an event")
    w("")
    w("1. Its definition: one `LKST_EVENT()` entry in "
      "`kernel/kernel/lkst/events.def`, with the next free ID of its "
      "category's range, its description, upstream twin, the arches that "
      "have its sites, the locks they may hold and its arguments; then "
      "`make events docs`. The enum, the argument count `LKST_HOOK()` checks "
      "and the table the kernel and the tools compile in (the generated parts "
      "of `lkst_events.h`), the Python checkers' table and this page come "
      "from it; the generator refuses an ID in no category's range or used "
      "twice, and `make test` fails while a generated file is stale.")
    w("2. Its site: `LKST_HOOK(EVENT, ...)` in the kernel patch of its "
      "subsystem, beside the upstream tracepoint, with exactly the arguments "
      "the entry lists (a wrong count fails the build); read the code around "
      "it for the context and the locks held.")
    w("3. Its proof: a pair in `tests/check/t99_differential.py` against its "
      "twin, or, with no twin, a row in `tests/check/differential.tsv` and a "
      "checker that triggers it.")
    w("")
    w("## Masksets")
    w("")
    prim = rdefault_categories()
    w("- **RNOTHING** (0) routes no event: every hook is a NOP.")
    w("- **RDEFAULT** (1) routes the primary events to the default handler: "
      "the categories " + ", ".join(f"*{cats[c][0]}*" for c in prim) + ".")
    w("- **RALL** (2) routes every event of the table to the default handler.")
    w("- User masksets 3-31 start from any of these (`lkm read -m 1 | lkm write -m 3`) "
      "and route events by ID, name or category (`lkm config -m 3 memory default`).")
    w("")
    for cat, (cname, first, last) in cats.items():
        evs = [e for e in events if e["cat"] == cat]
        if not evs:
            continue
        w(f"## {cname} (0x{first:02x}-0x{last:02x})"
          + (" — in RDEFAULT" if cat in prim else ""))
        w("")
        w("| ID | Event | Description | Hooked in | Arguments | Upstream twin | Locks |")
        w("|----|-------|-------------|-----------|-----------|---------------|-------|")
        for e in sorted(evs, key=lambda e: e["id"]):
            where = "<br>".join(f"`{p}`: `{fn}()`" for p, fn in sites.get(e["name"], []))
            args = []
            for n, (t, d) in enumerate(e["args"], 1):
                kind = ARG_TYPES.get(t)
                if kind is None:
                    continue
                args.append(f"arg{n} {d} ({kind})" if d else f"arg{n} ({kind})")
            desc = e["desc"] + {"ALL": "", "X86_64": " (x86-64 only)",
                                  "ARM64": " (arm64 only)"}[e["arches"]]
            twin = "<br>".join(f"`{t}`" for t in e["twin"])
            w(f"| 0x{e['id']:02x} | `{e['name']}` | {desc} | "
              f"{where or '—'} | {'<br>'.join(args) or '—'} | {twin or '—'} | "
              f"{e['locks'] or '—'} |")
        w("")
    text = "\n".join(out)
    if doc_path:
        sys.exit(check(doc_path, text, release))
    sys.stdout.write(text)


main()
