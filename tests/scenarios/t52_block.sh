# Block I/O: direct writes and reads of known sizes at known sectors of
# the scratch disk /dev/vdb (never /dev/vda, the results disk).
. /scenarios/common.inc

[ -b /dev/vdb ] || { echo "FAIL: no scratch disk /dev/vdb"; exit 1; }
lkm read -m 0 | lkm write -m 22 -N block || { echo "FAIL: write"; exit 1; }
step lkm config -m 22 block default USER_MARK default
step lkm set -m 22
# The buffers still hold earlier records: the checker starts here.
step lkbuf mark t52_block-start
lkst_blockio /dev/vdb >prog.txt || { echo "FAIL: lkst_blockio"; lkm set -m 0; exit 1; }
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 22
cat prog.txt
