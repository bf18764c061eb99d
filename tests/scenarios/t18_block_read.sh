# BLOCK_READ of one block among others (lkst_blockread): two blocks of two
# pages on CPU 0, the first linked to the second, filled with marks and
# each read; then linked into a ring, lapped and read again.  Each read
# must return exactly the marks its block's pages hold, in order.
. /scenarios/common.inc

lkst_blockread >blockread.txt
rc=$?
cat blockread.txt
[ $rc -eq 0 ] || { echo "FAIL: lkst_blockread exited $rc"; exit 1; }
