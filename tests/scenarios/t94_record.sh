# lkbuf record: drain the buffers into rotating files while a workload
# runs on both CPUs, stop with SIGINT; then again with a tiny block on
# CPU 0 drained rarely, so records are lost, stopped with SIGTERM; then
# while the buffers are resized; then the recordings read as one trace,
# and zstd snapshots.
. /scenarios/common.inc

new_syscall_maskset 7
step lkm config -m 7 process default
step lkm set -m 7

# A: 64 KiB files, the newest 3 kept.
lkbuf record -o recA --rotate 64K --keep 3 -i 100 2>recA.report &
rec=$!
lkst_syscalls -c 0 -n 3000 -w 300 -t 0x94a00000 >progA0.txt &
w0=$!
lkst_syscalls -c 1 -n 3000 -w 300 -t 0x94a10000 >progA1.txt ||
	{ echo "FAIL: lkst_syscalls"; exit 1; }
wait $w0 || { echo "FAIL: lkst_syscalls"; exit 1; }
# Nothing new after this: the buffers then hold only what record must save.
step lkm set -m 0
kill -INT $rec
wait $rec
echo $? >recA.rc
cat recA.report
step lkbuf read -f snapA.log
ls -l recA
for f in recA/lkst-*.log; do
	lkbuf print -C -f "$f" >/dev/null 2>>prints.err
	echo "$(basename "$f") $?" >>printsA.txt
done

# B: cpu 0 writes a 16 KiB block and is drained every 3 s: records are lost.
step lkbuf create -c 0 -s 16K
step lkbuf jump -c 0 -b 1
step lkm set -m 7
lkbuf record -o recB --rotate 256K -i 3000 2>recB.report &
rec=$!
sleep 1
lkst_syscalls -c 0 -n 4000 -t 0x94b00000 >progB.txt || { echo "FAIL: lkst_syscalls"; exit 1; }
step lkm set -m 0
kill -TERM $rec
wait $rec
echo $? >recB.rc
cat recB.report
for f in recB/lkst-*.log; do
	lkbuf print -C -f "$f" >/dev/null 2>>prints.err
	echo "$(basename "$f") $?" >>printsB.txt
done
step lkbuf jump -c 0 -b 0
step lkbuf delete -c 0 -b 1

# C: the buffers are resized while recording, to blocks larger than the
# ones lkbuf sized its drain buffer for; what they held is counted lost.
boot_size=$(lkbuf list | sed -n 's/^  block 0: size \([0-9]*\),.*/\1/p' | head -n 1)
step lkm set -m 7
lkbuf record -o recC -i 50 2>recC.report &
rec=$!
lkst_syscalls -n 500 -t 0x94c00000 >/dev/null || { echo "FAIL: lkst_syscalls"; exit 1; }
step lkbuf resize -s 1M
lkst_syscalls -n 500 -t 0x94c10000 >/dev/null || { echo "FAIL: lkst_syscalls"; exit 1; }
step lkm set -m 0
kill -INT $rec
wait $rec
echo $? >recC.rc
cat recC.report
for f in recC/lkst-*.log; do
	lkbuf print -C -f "$f" >/dev/null 2>>prints.err
	echo "$(basename "$f") $?" >>printsC.txt
done
step lkbuf resize -s "$boot_size"

# D: logs that travel.  recB (every file kept, losses on cpu 0) read as one
# trace; a new recording recD read as one and compared with a snapshot of
# the buffers taken after it; zstd snapshots, to a file, to standard output
# and read back from standard input.
lkbuf print -S -f recB >setB.txt 2>setB.err
echo $? >setB.rc
lkbuf info -f recB >infoB.txt 2>&1
step lkm set -m 7
lkbuf record -o recD --rotate 64K -i 100 2>recD.report &
rec=$!
lkst_syscalls -c 0 -n 1500 -t 0x94d00000 >/dev/null &
w0=$!
lkst_syscalls -c 1 -n 1500 -t 0x94d10000 >/dev/null || { echo "FAIL: lkst_syscalls"; exit 1; }
wait $w0 || { echo "FAIL: lkst_syscalls"; exit 1; }
step lkm set -m 0
kill -INT $rec
wait $rec
echo $? >recD.rc
cat recD.report
step lkbuf read -f snapD.log
step lkbuf read -f snapD.log.zst
lkbuf read -z -f - >snapD.stdout.zst 2>snapD.stdout.err || echo "FAIL: lkbuf read -z -f -"
step lkbuf read -z -f snapD.forced
lkbuf print -S -f snapD.forced >snapDf.txt 2>snapDf.err
ls -l recD snapD.log snapD.log.zst snapD.stdout.zst
lkbuf print -S -f recD >setD.txt 2>setD.err
echo $? >setD.rc
lkbuf print -S -f snapD.log >snapD.txt 2>snapD.err
lkbuf print -S -f snapD.log.zst >snapDz.txt 2>snapDz.err
lkbuf print -S -f - <snapD.stdout.zst >snapDs.txt 2>snapDs.err
cat snapD.log.zst | lkbuf print -S -f - >snapDp.txt 2>snapDp.err
lkbuf print -S -f recD -c 0-1 -e SYSCALL_ENTRY >setDsel.txt 2>/dev/null
lkm delete -m 7
