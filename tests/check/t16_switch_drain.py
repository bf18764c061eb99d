"""Maskset requests completed inside a drain call: they do not wait for it."""
import os
import re
import sys

from lkstcheck import check, done

d = sys.argv[1]
text = open(os.path.join(d, "figures.txt")).read()
m = re.search(r"maskset_reads (\d+), reads_inside_a_drain (\d+)", text)
check(m is not None, f"no figures in {text!r}")
if m:
    check(int(m.group(2)) > 0,
          f"none of {m.group(1)} maskset reads completed inside a drain call")
done()
