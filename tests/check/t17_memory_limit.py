"""A resize (and a block) larger than available memory is refused with
ENOMEM, without waking the OOM killer, and changes nothing."""
import os
import sys

from lkstcheck import check, done

d = sys.argv[1]


def text(name):
    return open(os.path.join(d, name)).read()


rc = text("rc.txt").splitlines()
check(rc[0] == "resize exited 2", f"lkbuf resize -s 256M: {rc[0]}, expected exit 2")
check("not enough kernel memory" in text("resize.err"),
      f"resize error does not say ENOMEM: {text('resize.err')!r}")
# One 288 MiB block may fit or not; either way it must not OOM.
check(rc[1] in ("create exited 0", "create exited 2"), f"lkbuf create: {rc[1]}")
check(text("before.txt") == text("after.txt") or rc[1] == "create exited 0",
      "the refused resize changed the buffers")
check(text("oom-before.txt").strip() == text("oom-after.txt").strip(),
      "the refused requests woke the OOM killer or failed an allocation loudly")
done()
