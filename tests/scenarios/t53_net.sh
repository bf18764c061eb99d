# Network: UDP datagrams of known sizes to 127.0.0.1 over lo.
. /scenarios/common.inc

# Leave lo as it was found.
lo_was_up=0
ip link show lo | grep -q '<.*UP' && lo_was_up=1
step ip link set lo up
lkm read -m 0 | lkm write -m 23 -N net || { echo "FAIL: write"; exit 1; }
step lkm config -m 23 net default USER_MARK default
step lkm set -m 23
# The buffers still hold earlier records: the checker starts here.
step lkbuf mark t53_net-start
lkst_net >prog.txt || { echo "FAIL: lkst_net"; lkm set -m 0; exit 1; }
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
lkbuf print -C -f trace.log >decoded.csv || { echo "FAIL: print -C"; exit 1; }
step lkm delete -m 23
[ $lo_was_up = 1 ] || step ip link set lo down
cat prog.txt
