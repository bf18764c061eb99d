# lkbuf record as one command: -e events in a private maskset, a command
# traced from its exec to its exit, the previous maskset back afterwards
# (normal end, SIGINT, a failing command, one that cannot run), a second
# recorder refused, -d, --filter.  Outputs are compared by the checker.
. /scenarios/common.inc

# print_log NAME [-r]: NAME.log as CSV into NAME.csv (NAME.raw.csv with -r).
print_log() {
	lkbuf print -C ${2:-} -f "$1.log" >"$1${2:+.raw}.csv" ||
		{ echo "FAIL: lkbuf print -C ${2:-} -f $1.log"; exit 1; }
}

# RDEFAULT current, whatever the scenarios before left: "the previous
# maskset is back" then means a maskset that records, not RNOTHING.
found=$(lkm list | awk '$3 ~ /active/ { print $1 }')
step lkm set -m 1
lkm list >ms_before.txt

# (1) exactly the command's lseek() calls, entries and exits.
lkbuf record -e 'SYSCALL_*' -f one.log -- lkst_syscalls -n 1234 -w 56 -t 0x93000000 \
	>one.out 2>one.err
echo $? >one.rc
lkm list >ms_after1.txt
print_log one
print_log one -r
# (2) a log of system calls alone names its tasks (LKST_META_TASKS): the
# text names the command, -n selects its records.
lkbuf print -f one.log >one.txt 2>one.txt.err || echo "FAIL: lkbuf print -f one.log"
lkbuf print -C -n lkst_syscalls -f one.log >one.n.csv 2>one.n.err ||
	echo "FAIL: lkbuf print -n lkst_syscalls"
lkbuf info -f one.log >one.info || echo "FAIL: lkbuf info -f one.log"

# (3a) SIGINT during a long command: it goes to the command, whose end
# ends the recording; lkbuf exits 128+2.  ms_during shows the switch.
lkbuf record -e syscall,process -f int.log -- sleep 60 2>int.err &
rec=$!
sleep 2
lkm list >ms_during.txt
kill -INT $rec
wait $rec
echo $? >int.rc
lkm list >ms_after2.txt
print_log int

# (3b) a command that exits 3, (3c) one that does not exist.
lkbuf record -e SYSCALL_ENTRY -f three.log -- sh -c 'exit 3' 2>three.err
echo $? >three.rc
lkbuf record -e SYSCALL_ENTRY -f nocmd.log -- /no/such/prog 2>nocmd.err
echo $? >nocmd.rc
lkm list >ms_after3.txt
print_log three
print_log nocmd

# (4) a second recorder while one runs: refused, nothing changed.
lkbuf record -e SYSCALL_ENTRY -f first.log -- sleep 4 2>first.err &
rec=$!
sleep 2
lkm list >ms_first.txt
lkbuf record -e USER_MARK -f second.log -d 1 2>second.err
echo $? >second.rc
lkm list >ms_second.txt
wait $rec
echo $? >first.rc
lkm list >ms_after4.txt
print_log first
[ -e second.log ] && echo exists >second.exists

# (5) -d: ends by itself; a mark during it is in, one after it is not.
lkbuf record -e USER_MARK -f dur.log -d 3 2>dur.err &
rec=$!
sleep 1
step lkbuf mark during-the-duration
i=0
while kill -0 $rec 2>/dev/null && [ $i -lt 60 ]; do
	sleep 1
	i=$((i + 1))
done
kill -0 $rec 2>/dev/null && { kill -TERM $rec; echo killed >dur.killed; }
wait $rec
echo $? >dur.rc
step lkbuf mark after-the-duration
lkm list >ms_after5.txt
print_log dur

# --filter: only the lseek() entries of the command reach the log, and the
# predicate is gone afterwards.
step insmod /lib/lkst/lkst_filter.ko
lkbuf record -e SYSCALL_ENTRY --filter 'arg1 == 8' -f filt.log -- lkst_syscalls -n 40 -w 30 \
	>filt.out 2>filt.err
echo $? >filt.rc
lkm filter --list >filt.list
lkm list >ms_after6.txt
print_log filt -r
step rmmod lkst_filter

step lkm set -m "$found"
