# IPC: System V messages, semaphores and shared memory, a pipe, a futex,
# a POSIX message queue and UNIX sockets, each with known sizes, types,
# priorities and values (lkst_ipc prints the ids and addresses).
. /scenarios/common.inc

lkm read -m 0 | lkm write -m 21 -N ipc || { echo "FAIL: write"; exit 1; }
step lkm config -m 21 ipc default USER_MARK default
step lkm set -m 21
# The buffers still hold earlier records: the checker starts here.
step lkbuf mark t51_ipc-start
lkst_ipc >prog.txt || { echo "FAIL: lkst_ipc"; lkm set -m 0; exit 1; }
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 21
cat prog.txt
