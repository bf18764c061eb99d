"""Maskset requests complete while a drain is held in its copy: they do not
wait for it."""
import os
import re
import sys

from lkstcheck import check, done

d = sys.argv[1]
text = open(os.path.join(d, "figures.txt")).read()
m = re.search(r"drain stopped in its copy: maskset_reads (\d+), switches (\d+) "
              r"completed inside it", text)
check(m is not None, f"no figures in {text!r}")
if m:
    check(int(m.group(1)) == 2000,
          f"{m.group(1)} of 2000 maskset reads completed inside the drain")
    check(int(m.group(2)) == 6,
          f"{m.group(2)} of 6 maskset switches completed inside the drain")
done()
