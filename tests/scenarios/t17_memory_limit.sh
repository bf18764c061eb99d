# Buffer requests the machine cannot hold fail with ENOMEM up front: no
# OOM kill, no allocation failure report, and the buffers stay as they
# were.  (The guest has 512 MiB; 256 MiB blocks on two CPUs need 576 MiB.)
. /scenarios/common.inc

lkbuf list >before.txt || { echo "FAIL: lkbuf list"; exit 1; }
dmesg | grep -c -i -e "invoked oom-killer" -e "page allocation failure" >oom-before.txt
lkbuf resize -s 256M >resize.out 2>resize.err
echo "resize exited $?" >rc.txt
lkbuf create -c 0 -s 256M --next none >create.out 2>create.err
echo "create exited $?" >>rc.txt
lkbuf list >after.txt || { echo "FAIL: lkbuf list"; exit 1; }
dmesg | grep -c -i -e "invoked oom-killer" -e "page allocation failure" >oom-after.txt
# A 256 MiB block that was granted goes first: with it the guest may have
# too little left even for the modest resize below (KASAN's shadow too).
[ ! -s create.out ] || step lkbuf delete -c 0 -b "$(cat create.out)"
# Memory there: a modest resize still works, and back.
step lkbuf resize -s 1M
step lkbuf resize -s 512K
cat rc.txt resize.err create.err
