"""The README stays short and true (issue: a newcomer reads it in ten
minutes):

  - at most 400 lines;
  - every command its tour shows was run by the demo: each `$ command`
    line and each lkm/lkbuf/lkst_ line of the tour's code blocks is one
    of the commands of tests/scenarios/demo.sh (which runs in the guest
    of `make demo` and `make test`, whose output the tour quotes), or, for
    the visualizers that run on the host, of the demo recipe in the
    Makefile (program and options; paths differ);
  - every relative link points to a file that exists.

Prints "PASS ..."/"FAIL ..." per case."""
import os
import re
import sys

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
failures = 0


def check(cond, what):
    global failures
    print(f"{'PASS' if cond else 'FAIL'} readme: {what}")
    failures += not cond


def squash(text):
    return re.sub(r"\s+", "", text)


def tour_commands(readme):
    """Commands in the code blocks of the tour section."""
    m = re.search(r"^## A five-minute tour\n(.*?)^## ", readme, re.S | re.M)
    if not m:
        return None
    # A block with "$ " lines is a transcript: only those are commands;
    # in other blocks every lkm/lkbuf/lkst_ line is one.
    cmds = []
    for block in re.findall(r"^```\n(.*?)^```", m.group(1), re.S | re.M):
        lines = block.splitlines()
        if any(line.startswith("$ ") for line in lines):
            cmds += [line[2:] for line in lines if line.startswith("$ ")]
        else:
            cmds += [re.sub(r"\s{2,}#.*$", "", line) for line in lines
                     if re.match(r"(lkm|lkbuf|lkst_[a-z]+) ", line)]
    return cmds


def main():
    with open(os.path.join(TOP, "README.md")) as f:
        readme = f.read()
    with open(os.path.join(TOP, "tests", "scenarios", "demo.sh")) as f:
        demo = squash(f.read())
    with open(os.path.join(TOP, "Makefile")) as f:
        makefile = f.read()
    m = re.search(r"^demo:.*?(?=^\S)", makefile, re.S | re.M)
    recipe = m.group(0) if m else ""

    n = readme.count("\n")
    check(n <= 400, f"README.md has {n} lines (at most 400)")
    cmds = tour_commands(readme)
    check(bool(cmds), "the tour section has commands")
    for c in cmds or []:
        if c.startswith("lkst-"):
            words = [w for w in c.split() if "/" not in w and "." not in w]
            ok = all(w.strip("'") in recipe for w in words)
            check(ok, f"the demo recipe of the Makefile runs: {c}")
        else:
            check(squash(c) in demo, f"tests/scenarios/demo.sh runs: {c}")
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", readme):
        check(os.path.exists(os.path.join(TOP, target)), f"link {target} exists")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
