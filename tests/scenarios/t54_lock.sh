# Locks: threads contend for a pipe's mutex, then for their process's
# mmap_lock (an rw_semaphore) as writers (mmap/munmap) and readers
# (mincore).
. /scenarios/common.inc

# 4 MiB per CPU: the read-write phase writes tens of thousands of lock
# records on one CPU, which would overwrite the mutex phase's in 512 KiB.
step lkbuf resize -s 4M
lkm read -m 0 | lkm write -m 24 -N lock || { echo "FAIL: write"; exit 1; }
step lkm config -m 24 lock default USER_MARK default
step lkm set -m 24
# The buffers still hold earlier records: the checker starts here.
# 4 s of pipe traffic: under single-threaded TCG the pipe threads queue on
# the mutex only when preempted while one holds it, 4 to 16 times in 1.5 s.
step lkbuf mark t54_lock-start
lkst_lock -m 4000 -r 1500 >prog.txt || { echo "FAIL: lkst_lock"; lkm set -m 0; exit 1; }
step lkm set -m 0
step lkbuf read -f trace.log
lkbuf print -r -C -f trace.log >trace.csv || { echo "FAIL: print"; exit 1; }
step lkm delete -m 24
step lkbuf resize -s 512K
cat prog.txt
