#!/usr/bin/env python3
"""docs/options.md, the one table of what each option letter and name
means, made from the tools' own option tables, and the rules that keep
those tables one command line:

  1. a short letter has one long name in every tool and verb;
  2. a long name shown in --help takes an argument everywhere or nowhere;
  3. no two shown long names differ only by a plural "s" (--event and
     --events): one of them must be a hidden alias of the other;
  4. a hidden option is an alias of a shown option of its verb (sets the
     same variable), so nothing is undocumented;
  5. every shown option has a --help text.

The tables come from the programs themselves: with LKST_OPTIONS_TABLE=1,
lkbuf and lkm print every verb's table (utils/lkst_cli.c) and each
visualizer its own, so a new verb or option is seen without a change here.
The visualizers are the PROGRAMS of tools/visualize/Makefile.

usage: gen-options.py [--check] [--tables]
  (none)    write docs/options.md and README.md's letter table, check the rules
  --check   check the rules and that docs/options.md and README.md's table are current
  --tables  print the tables as read (TOOL VERB SHORT LONG KIND HIDDEN SAME)
Exit 1 when a rule is broken or the file is stale.  The programs must be
built (make -C utils; make -C tools/visualize).
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOC = os.path.join(REPO, "docs", "options.md")
README = os.path.join(REPO, "README.md")
# The README's compact letter table sits between these lines.
README_BEGIN = "<!-- BEGIN letters (tools/build/gen-options.py) -->"
README_END = "<!-- END letters -->"
VIZ = os.path.join(REPO, "tools", "visualize")
# popt's own --help/--usage and lkst's --version (lkst_cli.h's
# LKST_POPT_TAIL, the visualizers' own), the same in every table.
POPT_HELP = {"help", "usage", "version"}


def programs():
    progs = [os.path.join(REPO, "utils", "lkbuf"), os.path.join(REPO, "utils", "lkm")]
    with open(os.path.join(VIZ, "Makefile")) as f:
        m = re.search(r"^PROGRAMS\s*:?=\s*(.*)$", f.read(), re.M)
    progs += [os.path.join(VIZ, p) for p in m.group(1).split()]
    return progs


def read_tables():
    rows = []
    env = dict(os.environ, LKST_OPTIONS_TABLE="1")
    for prog in programs():
        try:
            out = subprocess.run([prog], env=env, capture_output=True, text=True,
                                 check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"gen-options.py: cannot list the options of {prog}: {e}; build it first")
        for line in out.splitlines():
            f = line.split("\t")
            if len(f) != 8:
                sys.exit(f"gen-options.py: {prog}: bad table line {line!r}")
            tool, verb, short, long_, kind, hidden, same, doc = f
            rows.append(dict(tool=tool, verb=verb, short="" if short == "-" else short,
                             long=long_, kind=kind, hidden=hidden == "hidden",
                             same=same, doc=doc == "doc"))
    if not rows:
        sys.exit("gen-options.py: the programs listed no options")
    return rows


def where(r):
    return r["tool"] if r["verb"] == "-" else f'{r["tool"]} {r["verb"]}'


def takes_arg(r):
    return r["kind"] not in ("flag", "value")


def check(rows):
    errs = []
    rows = [r for r in rows if r["long"] not in POPT_HELP]
    letters = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["short"]:
            letters[r["short"]][r["long"]].append(where(r))
    for letter, longs in sorted(letters.items()):
        if len(longs) > 1:
            errs.append(f"-{letter} means " + " and ".join(
                f"--{l} ({', '.join(w)})" for l, w in sorted(longs.items())) +
                "; give one of them another letter or none")
    shown = [r for r in rows if not r["hidden"]]
    kinds = defaultdict(lambda: defaultdict(list))
    for r in shown:
        kinds[r["long"]][takes_arg(r)].append(where(r))
    for name, by in sorted(kinds.items()):
        if len(by) > 1:
            errs.append(f"--{name} takes an argument in {', '.join(by[True])} "
                        f"but none in {', '.join(by[False])}; rename one")
    names = set(kinds)
    for name in sorted(names):
        for plural in (name + "s", name + "es"):
            if plural in names:
                errs.append(f"--{name} ({', '.join(sorted(set(sum(kinds[name].values(), []))))}) "
                            f"and --{plural} ({', '.join(sorted(set(sum(kinds[plural].values(), []))))}) "
                            "are both shown; keep one, the other as a hidden alias")
    for r in rows:
        if r["hidden"]:
            target = [s for s in shown if s["tool"] == r["tool"] and s["verb"] == r["verb"]
                      and s["long"] == r["same"]]
            if not target or r["same"] == r["long"]:
                errs.append(f"{where(r)}: --{r['long']} is hidden from --help but is no "
                            "alias of a shown option; document it")
        elif not r["doc"]:
            errs.append(f"{where(r)}: --{r['long']} has no --help text")
    return errs


def verbs_of(rs):
    """'lkbuf read, print; lkm agg set' from rows."""
    by = defaultdict(list)
    for r in rs:
        v = "" if r["verb"] == "-" else r["verb"]
        if v not in by[r["tool"]]:
            by[r["tool"]].append(v)
    return "; ".join(f"{t} {', '.join(v)}".strip() for t, v in by.items())


def render(rows):
    rows = [r for r in rows if r["long"] not in POPT_HELP]
    out = []
    w = out.append
    w("# Options")
    w("")
    w("<!-- Generated by tools/build/gen-options.py from the tools' option tables;")
    w("     do not edit. tests/host/test_options.py fails when it is stale. -->")
    w("")
    w("One command line across `lkbuf`, `lkm` and the visualizers: a short letter")
    w("means one thing in every tool and verb, a thing has one long name, and a")
    w("repeated option that takes one value (`-f a -f b`) is refused. A list is")
    w("given comma-separated (`-e process,syscall`); where a verb also takes it")
    w("repeated, its `--help` says so (`lkbuf record -e`, `lkbuf print -f`).")
    w("`tests/host/test_options.py` checks these rules against the programs'")
    w("own tables (`LKST_OPTIONS_TABLE=1 lkbuf` prints them) and that this page")
    w("is current; after changing an option run `tools/build/gen-options.py`.")
    w("Every program and verb also takes `--help`, `--usage` and `--version`.")
    w("")
    w("## Short letters")
    w("")
    w("| letter | long name | takes | used by |")
    w("| --- | --- | --- | --- |")
    letters = defaultdict(list)
    for r in rows:
        if r["short"]:
            letters[r["short"]].append(r)
    for letter in sorted(letters, key=lambda c: (c.lower(), c)):
        rs = letters[letter]
        longs = sorted({r["long"] for r in rs})
        kinds = sorted({r["kind"] for r in rs})
        w(f"| `-{letter}` | {', '.join('`--' + l + '`' for l in longs)} | "
          f"{', '.join(kinds)} | {verbs_of(rs)} |")
    w("")
    w("## Long names without a letter")
    w("")
    w("| long name | takes | used by |")
    w("| --- | --- | --- |")
    longonly = defaultdict(list)
    lettered = {r["long"] for r in rows if r["short"]}
    for r in rows:
        if not r["short"] and not r["hidden"] and r["long"] not in lettered:
            longonly[r["long"]].append(r)
    for name in sorted(longonly):
        rs = longonly[name]
        w(f"| `--{name}` | {', '.join(sorted({r['kind'] for r in rs}))} | {verbs_of(rs)} |")
    w("")
    w("## Old spellings (hidden aliases)")
    w("")
    w("Still accepted so that scripts keep working, but not shown in `--help`:")
    w("")
    w("| old | now | where |")
    w("| --- | --- | --- |")
    aliases = defaultdict(list)
    for r in rows:
        if r["hidden"]:
            aliases[(r["long"], r["same"])].append(r)
    for (old, now), rs in sorted(aliases.items()):
        w(f"| `--{old}` | `--{now}` | {verbs_of(rs)} |")
    w("")
    w("Kinds: `flag` takes no argument, `string` and `number` one value, `list`")
    w("a comma-separated list.")
    return "\n".join(out) + "\n"


def readme_letters(rows):
    """The README's table: every short letter and its long name, three
    pairs a row, so a newcomer sees the whole command line at a glance."""
    letters = {}
    for r in rows:
        if r["short"] and r["long"] not in POPT_HELP:
            letters.setdefault(r["short"], r["long"])
    cells = [f"`-{c}` | `--{letters[c]}`"
             for c in sorted(letters, key=lambda c: (c.lower(), c))]
    per = 3
    out = ["| " + " | ".join(["letter | long name"] * per) + " |",
           "|" + " --- |" * (2 * per)]
    for i in range(0, len(cells), per):
        row = cells[i:i + per] + [" | "] * (per - len(cells[i:i + per]))
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out) + "\n"


def readme_with_letters(text, rows):
    """README.md's text with its letter table replaced; None without markers."""
    b, e = text.find(README_BEGIN), text.find(README_END)
    if b < 0 or e < b:
        return None
    start = b + len(README_BEGIN) + 1
    return text[:start] + readme_letters(rows) + text[e:]


def readme_wanted(rows):
    """(current README text, the text it should have); exits without markers."""
    with open(README) as f:
        readme = f.read()
    want = readme_with_letters(readme, rows)
    if want is None:
        sys.exit(f"gen-options.py: README.md lacks the {README_BEGIN} ... {README_END} table")
    return readme, want


def main():
    args = sys.argv[1:]
    if args and args[0] not in ("--check", "--tables") or len(args) > 1:
        sys.exit(__doc__)
    rows = read_tables()
    if args == ["--tables"]:
        for r in rows:
            print("\t".join([r["tool"], r["verb"], r["short"] or "-", r["long"], r["kind"],
                             "hidden" if r["hidden"] else "shown", r["same"]]))
        return 0
    errs = check(rows)
    for e in errs:
        print(f"gen-options.py: {e}", file=sys.stderr)
    text = render(rows)
    if args == ["--check"]:
        try:
            with open(DOC) as f:
                current = f.read()
        except OSError:
            current = ""
        readme, want = readme_wanted(rows)
        if want != readme:
            import difflib
            sys.stderr.writelines(difflib.unified_diff(
                readme.splitlines(True), want.splitlines(True), README, "from the tables"))
            print("gen-options.py: README.md's letter table is stale; run tools/build/gen-options.py",
                  file=sys.stderr)
            return 1
        if current != text:
            import difflib
            sys.stderr.writelines(difflib.unified_diff(
                current.splitlines(True), text.splitlines(True), DOC, "from the tables"))
            print("gen-options.py: docs/options.md is stale; run tools/build/gen-options.py",
                  file=sys.stderr)
            return 1
        return 1 if errs else 0
    # Written even when a rule is broken, so that the diff shows the clash.
    with open(DOC + ".tmp", "w") as f:
        f.write(text)
    os.rename(DOC + ".tmp", DOC)
    readme, want = readme_wanted(rows)
    if want != readme:
        with open(README + ".tmp", "w") as f:
            f.write(want)
        os.rename(README + ".tmp", README)
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
