# Tracing selected on the kernel command line (lkst.maskset=rdefault
# lkst.bufsize=512K) is already recording when init starts.
. /scenarios/common.inc

cat /proc/cmdline
lkm list | tee list.txt
lkbuf list | tee buffers.txt
step lkbuf read -f boot.log
lkbuf print -r -C -f boot.log >boot.csv || { echo "FAIL: print"; exit 1; }
