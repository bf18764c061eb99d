# Which events lkst.ko records on this kernel (tests/stock): the event
# table as lkm events shows it, and a log of a mixed workload under RALL.
. /scenarios/common.inc
step lkm events >events.txt
step ip link set lo up
# Large enough not to wrap under the workload.
step lkbuf resize -s 16M
step lkm set -m 2
lkst_diffload -d /dev/vdb >facts.txt 2>&1
step lkm set -m 1
step lkbuf read -f rall.log
step lkbuf resize -s 512K
lkbuf print -f rall.log >rall.txt || { echo "FAIL: lkbuf print"; exit 1; }
echo "coverage-ok"
