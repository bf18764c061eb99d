"""lkst_agg refuses tables the machine cannot give (ENOMEM), as the core's
buffers do, instead of reclaiming hard or waking the OOM killer."""
import os
import sys

from lkstcheck import check, done

d = sys.argv[1]
lines = open(os.path.join(d, "result.txt")).read().splitlines()
made = [l for l in lines if l.startswith("made ")]
refused = [l for l in lines if l.startswith("refused ")]
check(made and int(made[0].split()[1]) < 8,
      f"every aggregation was made: {made}; the guest has too much memory for the test")
check(refused and "not enough memory for the tables" in refused[0],
      f"the refusal was not ENOMEM: {refused}")
# What the refusal leaves: the handler keeps a sixteenth of the memory
# over (some of it goes to the scenario itself meanwhile).
mem = {l.split(":")[0]: int(l.split()[1]) for l in lines if l.startswith("Mem")}
check("MemTotal" in mem and "MemAvailable" in mem and mem["MemAvailable"] >= mem["MemTotal"] // 24,
      f"the tables left too little memory: {mem}")
done()
