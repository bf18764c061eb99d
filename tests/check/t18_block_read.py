"""BLOCK_READ of one block among others (tests/scenarios/t18_block_read.sh):
each of two linked blocks read on its own returns the marks its pages
hold, in order, before and after the two are made a ring and lapped
(lkst_blockread checks the numbers; here, that it ran and read records
from both blocks both times)."""
import os
import re
import sys

from lkstcheck import check, done

d = sys.argv[1]
text = open(os.path.join(d, "blockread.txt")).read()
fails = [l for l in text.splitlines() if l.startswith("FAIL")]
check(not fails, f"lkst_blockread: {fails[:5]}")
m = re.search(r"^blockread: A (\d+) B (\d+) ring: A (\d+) B (\d+) of (\d+)$", text, re.M)
check(m is not None, f"no figures in {text[-500:]!r}")
if m:
    a, b, a2, b2, n = map(int, m.groups())
    check(a > 0 and b > 0, f"block reads before the ring: A {a}, B {b} records")
    check(a2 > 0 and b2 > 0, f"block reads of the ring: A {a2}, B {b2} records")
    check(a + b <= n and a2 + b2 <= n, f"more records read than marks made: {m.group(0)}")
done()
