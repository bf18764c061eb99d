# The README's tour (trace a program in one command, summarise, print,
# export), then the process-trace flow of LKST's demo (seed 004) exactly as
# a user types it, around a small workload of sleeping, waking and spinning
# processes; then the memory demo: lkst_pagewalk.ko snapshots a process's
# pages every second while the page allocator's events are traced.
. /scenarios/common.inc

# ---- the README's tour: one command to trace a program, then its summary,
# its records and an export. tour.txt keeps each command and what it
# printed, for the README; tests/host/test_readme.sh checks that every
# command the README shows is one of these.
tour() {
	echo "\$ $*" >>tour.txt
	sh -c "$*" >>tour.txt 2>&1 || { echo "FAIL: '$*' exited $?"; exit 1; }
}
tour "lkbuf record -e process -e 'SYSCALL_*' -f prog.log.zst -- lkst_workload -o progpids.txt -t 300"
tour "lkbuf report -f prog.log.zst -n 'lkw-*' --section syscalls,errors"
tour "lkbuf report -f prog.log.zst -n lkw-reader --section syscall_lat"
tour "lkbuf print -f prog.log.zst -n lkw-reader -e syscall | head -n 4"
tour "lkbuf convert -f prog.log.zst -n 'lkw-*' --to json -o prog.json"
tour "lkbuf info -f prog.log.zst"
cat tour.txt

lkm read -m 0 | lkm write -m 3 || { echo "FAIL: lkm read | lkm write"; exit 1; }
step lkm config -m 3 1 1
step lkm config -m 3 2 1
step lkm set -m 3
step lkst_workload -o pids.txt -t 400
step lkbuf read -f trace.log
lkbuf print -r -C -S -V -f trace.log >trace.csv || { echo "FAIL: lkbuf print"; exit 1; }
step lkbuf list
step lkm list
echo "trace.csv: $(wc -l <trace.csv) lines"

# ---- physical pages of one process ----
# Every page allocation in the system is traced: give each CPU an 8 MiB
# block (131072 records) so that five seconds of it fit.
for cpu in $(seq 0 $(($(nproc) - 1))); do
	blk=$(lkbuf create -c "$cpu" -s 8M) || { echo "FAIL: lkbuf create -c $cpu"; exit 1; }
	step lkbuf jump -c "$cpu" -b "$blk"
done
lkm read -m 0 | lkm write -m 4 -N pages || { echo "FAIL: lkm write -m 4"; exit 1; }
step lkm config -m 4 process default
step lkm config -m 4 MEM_PAGE_ALLOC default MEM_PAGE_FREE default MEM_PAGE_SNAPSHOT default
step insmod /lib/lkst/lkst_pagewalk.ko
step lkm set -m 4
lkst_pagemem -t 5 -b 512 -w 500 >pages.txt &
i=0
until grep -q buffer pages.txt 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "FAIL: lkst_pagemem printed no buffer"; exit 1; }
	sleep 0.1
done
awk '/buffer/ { print $2 }' pages.txt >/sys/module/lkst_pagewalk/parameters/pid ||
	{ echo "FAIL: cannot set lkst_pagewalk's pid"; exit 1; }
wait
sleep 1		# the last snapshot notices the exit
step lkm set -m 0
step lkbuf read -f pages.log
lkbuf print -r -C -S -f pages.log -e memory >pages.csv || { echo "FAIL: lkbuf print pages"; exit 1; }
step lkm stat -e memory
step rmmod lkst_pagewalk
step lkm delete -m 4
cat pages.txt
echo "pages.csv: $(wc -l <pages.csv) lines"
