# lkst_errpath.ko records failing system calls and page faults that end in
# SIGSEGV/SIGBUS, and nothing else.  A known load (lkst_errload):
#  A  its system calls, faults and signals routed to errpath;
#  B  the same load routed to DEFAULT, to compare the buffer space;
#  C  errpath handing every event on to DEFAULT too (pass_on);
#  E  errpath inside a copy of RALL, every other event recorded around it;
#  D  rmmod while the events are routed to errpath and the load runs.
. /scenarios/common.inc

P=/sys/module/lkst_errpath/parameters
EVENTS="SYSCALL_ENTRY SYSCALL_EXIT EXCEPTION_PAGEFAULT_ENTRY EXCEPTION_PAGEFAULT_EXIT PROCESS_SIGSEND"
cleanup() {
	lkm set -m 0
	for m in 26 27 28; do lkm delete -m $m; done
	[ -z "${busy:-}" ] || kill "$busy" 2>/dev/null
	rmmod lkst_errpath 2>/dev/null
}
written() { lkbuf list | sed -n 's/^cpu \([0-9]*\) .*; written \([0-9]*\),.*/\1 \2/p'; }
# The pids lkst_errload's output names (its own, its children's), for -p.
pids_of() {
	sed -n 's/^pid \([0-9]*\) .*/\1/p; s/^child sig [0-9]* pid \([0-9]*\) .*/\1/p' "$1" |
		paste -sd, -
}
# print LOG PROG CSV: the CSV of PROG's pids in LOG, then LOG is dropped.
print_pids() {
	lkbuf print -r -C -f "$1" -p "$(pids_of "$2")" >"$3" || fail "print $1"
	rm -f "$1"
}

run insmod /lib/lkst/lkst_errpath.ko
lkm handlers >handlers.txt
to26= to27=
for e in $EVENTS; do
	to26="$to26 $e errpath"
	to27="$to27 $e default"
done
lkm read -m 0 | lkm write -m 26 -N errpath || fail "write maskset 26"
lkm read -m 0 | lkm write -m 27 -N errdefault || fail "write maskset 27"
lkm read -m 2 | lkm write -m 28 -N errall || fail "write maskset 28"
run lkm config -m 26 $to26
run lkm config -m 27 $to27
run lkm config -m 28 $to26

# A: from RNOTHING, so that all that is written between the two lists is
# errpath's.
run lkm set -m 0
written >written-errpath-before.txt
run lkm set -m 26
lkst_errload -r 10 -s 96 >prog-errpath.txt || fail "lkst_errload under errpath"
run lkm set -m 0
written >written-errpath-after.txt
for c in errors fault_signals unknown_duration; do
	echo "$c $(cat $P/$c)"
done >counters.txt
run lkbuf read -f errpath.log
lkbuf print -r -C -f errpath.log >errpath.csv || fail "print errpath.log"
TZ=UTC lkbuf print -f errpath.log -p "$(pids_of prog-errpath.txt)" >errpath.txt ||
	fail "print errpath.log as text"
rm -f errpath.log

# B
written >written-default-before.txt
run lkm set -m 27
lkst_errload -r 10 -s 96 >prog-default.txt || fail "lkst_errload under default"
run lkm set -m 0
written >written-default-after.txt
run lkbuf read -f default.log
print_pids default.log prog-default.txt default.csv

# C
echo 1 >$P/pass_on || fail "set pass_on"
run lkm set -m 26
lkst_errload -r 1 -s 4 -n >prog-pass.txt || fail "lkst_errload with pass_on"
run lkm set -m 0
echo 0 >$P/pass_on
run lkbuf read -f pass.log
print_pids pass.log prog-pass.txt pass.csv

# E
lkbuf list >list-all-before.txt
run lkm set -m 28
lkst_errload -r 2 -s 20 >prog-all.txt || fail "lkst_errload under errall"
run lkm set -m 0
lkbuf list >list-all-after.txt
run lkbuf read -f all.log
print_pids all.log prog-all.txt all.csv

# D: once errpath has recorded some of the load's errors.
run lkm set -m 26
before=$(cat $P/errors)
lkst_errload -r 100 -s 10 -n >prog-busy.txt &
busy=$!
n=0
while [ "$(cat $P/errors)" -lt $((before + 8)) ] && [ $n -lt 200 ]; do
	sleep 0.05
	n=$((n + 1))
done
kill -0 $busy 2>/dev/null && echo running >busy-at-rmmod.txt
run rmmod lkst_errpath
wait $busy || { busy=; fail "lkst_errload while rmmod"; }
busy=
lkm handlers >handlers-after.txt
run lkbuf read -f after-rmmod.log
lkst_errload -r 2 -s 4 -n >prog-after.txt || fail "lkst_errload after rmmod"
run lkbuf read -f later.log
run lkm set -m 0
lkbuf print -r -C -f later.log -p "$(pids_of prog-busy.txt),$(pids_of prog-after.txt)" \
	>later.csv || fail "print later.log"
for m in 26 27 28; do run lkm delete -m $m; done
cat counters.txt
