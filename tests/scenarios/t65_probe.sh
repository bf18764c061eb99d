# Dynamic probes (lkm probe): events made at run time on kernel functions.
#  A  an entry probe on ksys_lseek (registers, arguments, $comm), a return
#     probe on it ($retval and an argument saved at entry), and an entry
#     probe on do_sys_openat2 reading struct open_how through $arg3; routed
#     by a user maskset; lkst_probeload drives known calls; the log names
#     them by its own table; probes left unoptimized (hit through int3,
#     whose handler runs as an NMI) record the probed task's context;
#  B  removal while routed, in a copy of RALL, under a loop of lseeks; the
#     IDs are free again;
#  C  bad input, each refused with its exit code; the 16th probe is ENOSPC.
. /scenarios/common.inc

N=50
BASE=7000000
cleanup() {
	lkm set -m 0
	[ -z "${busy:-}" ] || kill "$busy" 2>/dev/null
	for p in $(lkm probe list 2>/dev/null | awk '/^0x/ { print $2 }'); do
		lkm probe del "$p"
	done
	lkm delete -m 30
	lkm delete -m 31
}
# expect CODE CMD...: CMD must exit with CODE; its stderr goes to bad.txt.
expect() {
	want=$1
	shift
	echo "+ $* (expecting exit $want)"
	"$@" >/dev/null 2>err.txt
	got=$?
	echo "$* => $got: $(cat err.txt)" >>bad.txt
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want"
}

# ---- A: known calls, exact records ----
# Left unoptimized, the entry probes are hit through their int3, whose
# handler runs in NMI context: the records must still say task.
opt=/proc/sys/debug/kprobes-optimization
[ -w $opt ] || fail "$opt missing (CONFIG_OPTPROBES)"
run sh -c "echo 0 > $opt"
lkm probe add lseek_in ksys_lseek 'fd=%di:u32' 'off=$arg2:s64' \
	'whence=$arg3:u32' '$comm' >add-lseek_in.txt || fail "add lseek_in"
lkm probe add --return lseek_out ksys_lseek 'ret=$retval' 'off=$arg2:s64' \
	>add-lseek_out.txt || fail "add lseek_out"
lkm probe add open_how do_sys_openat2 'dfd=$arg1:s32' \
	'flags=+0($arg3):x64' 'mode=+8($arg3):u64' '$comm' >add-open_how.txt ||
	fail "add open_how"
lkm probe list >list.txt || fail "probe list"
lkm events >events.txt || fail "lkm events"
lkm read -m 0 | lkm write -m 30 -N probes || fail "write maskset 30"
run lkm config -m 30 lseek_in default lseek_out default open_how default
lkm read -m 30 >maskset30.txt || fail "read maskset 30"
run lkm set -m 30
lkst_probeload -n $N -b $BASE >prog.txt || fail "lkst_probeload"
run lkm set -m 0
cp /sys/kernel/debug/kprobes/list kprobes-list.txt || fail "kprobes/list"
run sh -c "echo 1 > $opt"
lkm stat -e lseek_in,lseek_out,open_how >stat.txt || fail "lkm stat"
run lkbuf read -f probe.log
pid=$(awk '{ print $2 }' prog.txt)

# ---- B: removal while routed, every other event traced too ----
# Also a probe in the timer interrupt, and a return probe on a function
# tasks sleep in, removed while a sleeper is inside it: it returns through
# kretprobes' trampoline after the probe is gone.
lkm probe add tick update_process_times 'user=$arg1:u32' >add-tick.txt ||
	fail "add tick"
lkm probe add --return slept do_nanosleep '$retval' '$comm' >add-slept.txt ||
	fail "add slept"
lkm read -m 2 | lkm write -m 31 -N probesall || fail "write maskset 31"
run lkm config -m 31 lseek_in default lseek_out default open_how default \
	tick default slept default
run lkm set -m 31
sleep 3 &
sleeper=$!
lkst_probeload -L >prog-loop.txt &
busy=$!
sleep 1
lkm stat -e lseek_in,lseek_out,tick,slept >stat-loop-before.txt ||
	fail "stat before del"
run lkm probe del lseek_in
run lkm probe del 0xf1
run lkm probe del slept
run lkm probe del tick
sleep 1
kill "$busy"
wait "$busy" 2>/dev/null
busy=
wait "$sleeper"
echo "sleeper exit $?" >sleeper.txt
run lkm set -m 0
lkm read -m 31 >maskset31-after.txt || fail "read maskset 31"
lkm events >events-after.txt || fail "lkm events after del"
lkm probe list >list-after.txt || fail "probe list after del"
# The first free ID is lseek_in's again.
lkm probe add again ksys_lseek '%si' >add-again.txt || fail "add again"
run lkm probe del again
run lkm probe del open_how
lkm probe list >list-empty.txt || fail "probe list when empty"
# The probes are gone from the kernel: the log names them by its own table.
lkbuf print -r -C -f probe.log -p "$pid" >probe-raw.csv || fail "print -r -C"
lkbuf print -V -C -f probe.log -p "$pid" -e lseek_in,lseek_out,open_how \
	>probe.csv || fail "print -V -C -e"
TZ=UTC lkbuf print -f probe.log -p "$pid" >probe.txt || fail "print as text"

# ---- C: bad input ----
: >bad.txt
expect 2 lkm probe add nofn no_such_function_lkst
expect 2 lkm probe add midinsn ksys_lseek+1
expect 1 lkm probe add badreg ksys_lseek '%zz'
expect 1 lkm probe add entryret ksys_lseek '$retval'
expect 1 lkm probe add deep ksys_lseek '+8(+8(+8(%di)))'
expect 1 lkm probe add badtype ksys_lseek '%di:u12'
expect 1 lkm probe add --return retoff ksys_lseek+4
expect 1 lkm probe add 9bad ksys_lseek
expect 2 lkm probe add SYSCALL_EXIT ksys_lseek
expect 2 lkm probe add self lkst_kprobe_pre
expect 2 lkm probe del no_such_probe
run lkm probe add dup ksys_lseek
expect 2 lkm probe add dup do_sys_openat2
i=2
while [ $i -le 15 ]; do
	run lkm probe add "fill$i" ksys_lseek
	i=$((i + 1))
done
expect 2 lkm probe add sixteenth ksys_lseek
lkm probe list >list-full.txt || fail "probe list when full"
for p in $(awk '/^0x/ { print $2 }' list-full.txt); do
	run lkm probe del "$p"
done
lkm probe list >list-end.txt || fail "probe list at the end"
run lkm delete -m 30
run lkm delete -m 31
