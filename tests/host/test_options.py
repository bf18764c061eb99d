"""One command line across lkbuf, lkm and the visualizers (docs/options.md):

  - the rules of tools/build/gen-options.py hold for every verb's option
    table (one long name per letter, one name per thing, hidden options
    are aliases, every option has a --help text) and docs/options.md is
    current;
  - the tables are complete: every verb of `TOOL --help` and of each
    nested group is in them, and each shown option is in its verb's
    --help, each hidden one is not;
  - an option that takes one value, given twice (also as its alias), is
    refused with exit 1 by the runner and by the visualizers; lists may
    repeat; the old spellings still work.

Prints "PASS ..."/"FAIL ..." per case; the programs must be built
(make -C tests/host check builds them first)."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.realpath(__file__))
TOP = os.path.realpath(os.path.join(HERE, "..", ".."))
UTILS = os.path.join(TOP, "utils")
VIZ = os.path.join(TOP, "tools", "visualize")
GEN = os.path.join(TOP, "tools", "build", "gen-options.py")
LKBUF, LKM = os.path.join(UTILS, "lkbuf"), os.path.join(UTILS, "lkm")
PS, PM = os.path.join(VIZ, "lkst-procstate"), os.path.join(VIZ, "lkst-pagemap")

failures = 0


def check(cond, what, detail=""):
    global failures
    print(f"{'PASS' if cond else 'FAIL'} options: {what}")
    if not cond:
        failures += 1
        if detail:
            print("    " + detail.strip().replace("\n", "\n    "))


def run(*argv, env=None):
    e = dict(os.environ, LC_ALL="C")
    e.pop("LKST_OPTIONS_TABLE", None)
    e.update(env or {})
    return subprocess.run(argv, capture_output=True, text=True, env=e)


# ---- the rules and the generated page ---------------------------------
r = run(sys.executable, GEN, "--check")
check(r.returncode == 0, "gen-options.py --check: the rules hold and docs/options.md is current",
      r.stderr)

r = run(sys.executable, GEN, "--tables")
rows = [line.split("\t") for line in r.stdout.splitlines()]
check(r.returncode == 0 and rows, "the tables are listed", r.stderr)
verbs_in_tables = {(t, v) for t, v, *_ in rows}


# ---- the tables are complete --------------------------------------------
def help_list(argv, heading):
    out = run(*argv).stdout
    m = re.search(rf"^{heading}:\n((?:  \S.*\n)+)", out, re.M)
    return [line.split()[0] for line in m.group(1).splitlines()] if m else []


for prog in (LKBUF, LKM):
    tool = os.path.basename(prog)
    verbs = help_list([prog, "--help"], "Verbs")
    check(verbs, f"{tool} --help lists verbs")
    for verb in verbs:
        sub = help_list([prog, verb, "--help"], "Subcommands")
        for name in ([f"{verb} {s}" for s in sub] or [verb]):
            if (tool, name) not in verbs_in_tables:
                check(False, f"{tool} {name} is missing from the option tables")
                continue
            text = run(prog, *name.split(), "--help").stdout
            wrong = []
            for t, v, short, long_, kind, hidden, same in rows:
                if (t, v) != (tool, name) or long_ in ("help", "usage"):
                    continue
                shown = re.search(rf"--{re.escape(long_)}(?![\w-])", text) is not None
                if hidden == "shown" and not shown:
                    wrong.append(f"--{long_} is not in its --help")
                if hidden == "hidden" and shown:
                    wrong.append(f"hidden --{long_} is in its --help")
            check(not wrong, f"{tool} {name}: in the tables, its options in its --help",
                  "; ".join(wrong))
for prog in (PS, PM):
    tool = os.path.basename(prog)
    text = run(prog, "--help").stdout
    wrong = [f"--{l} {'is not' if h == 'shown' else 'hidden but'} in its --help"
             for t, v, _, l, _, h, _ in rows if t == tool and l not in ("help", "usage")
             and (re.search(rf"--{re.escape(l)}(?![\w-])", text) is not None) != (h == "shown")]
    check((tool, "-") in verbs_in_tables and not wrong,
          f"{tool}: in the tables, its options in its --help", "; ".join(wrong))

# ---- a single value given twice is refused --------------------------------
tmp = tempfile.mkdtemp(prefix="lkst-options.")
log = os.path.join(tmp, "t.log")
subprocess.run([os.path.join(UTILS, "gen_log"), log, "20", "2"], check=True,
               capture_output=True)
csv = os.path.join(VIZ, "testdata", "small.csv")

twice = [
    ([LKBUF, "read", "-f", log, "-f", log], "lkbuf: -f given twice; give it once"),
    ([LKBUF, "extract", "--file", log, "--file=" + log, "--vmcore", log, "--vmlinux", log],
     "lkbuf: -f given twice; give it once"),
    ([LKBUF, "extract", "-f", log, "--vmcore", log, "--vmcore", log, "--vmlinux", log],
     "lkbuf: --vmcore given twice; give it once"),
    ([LKBUF, "convert", "-f", log, "--to", "ctf", "--to", "json", "-o", tmp + "/x"],
     "lkbuf: --to given twice; give it once"),
    ([LKBUF, "create", "-c", "0", "-s", "64K", "-s", "128K"], "lkbuf: -s given twice; give it once"),
    ([LKM, "read", "-m", "3", "-m", "4"], "lkm: -m given twice; give it once"),
    ([LKM, "agg", "set", "-N", "a", "-N", "b", "-m", "3", "-F", "count", "SYSCALL_ENTRY"],
     "lkm: -N given twice; give it once"),
    ([LKM, "agg", "set", "-m", "3", "-F", "count", "-K", "pid", "--key", "comm", "SYSCALL_ENTRY"],
     "lkm: -K and --key both given; they are the same option, give it once"),
    ([LKM, "stat", "--events", "syscall", "-e", "process"],
     "lkm: --events and -e both given; they are the same option, give it once"),
    ([LKM, "filter", "-m", "3", "--handler", "agg", "--to", "stack", "SYSCALL_ENTRY", "pid == 1"],
     "lkm: --handler and --to both given; they are the same option, give it once"),
    ([PS, "-f", log, "-f", log], "lkst-procstate: -f given twice; give it once"),
    ([PM, "--csv-file", csv, "--csv", csv], "lkst-pagemap: --csv-file and --csv both given; "
     "they are the same option, give it once"),
    ([PM, "-f", log, "--width", "10", "--width", "20"], "lkst-pagemap: --width given twice; give it once"),
]
for argv, msg in twice:
    r = run(*argv)
    name = os.path.basename(argv[0]) + ("" if argv[1].startswith("-") else " " + argv[1])
    check(r.returncode == 1 and r.stderr.strip() == msg,
          f"{name}: a repeated option is refused ({msg.split(': ', 1)[1]})",
          f"exit {r.returncode}, stderr {r.stderr!r}")

# Flags may repeat (lists too, unless the verb says otherwise: lkbuf print
# asks for one comma-separated list); the old spellings still work.
r = run(LKBUF, "print", "-f", log, "-S", "-S", "-r", "-r")
check(r.returncode == 0 and r.stdout, "lkbuf print: -S and -r twice are accepted", r.stderr)
r = run(PS, "--csv", csv, "--summary")
check(r.returncode == 0 and r.stdout, "lkst-procstate: the old --csv still reads a CSV", r.stderr)
r = run(LKM, "agg", "set", "-m", "3", "-F", "count", "--key", "color", "SYSCALL_ENTRY")
check(r.returncode == 1 and "unknown key 'color'" in r.stderr,
      "lkm agg set: the old --key still sets the keys", r.stderr)
r = run(LKBUF, "create", "-c", "0", "-s", "64K", "-m", "stop")
check(r.returncode == 1, "lkbuf create: -m is no longer the mode", r.stderr)

subprocess.run(["rm", "-rf", tmp])
sys.exit(1 if failures else 0)
