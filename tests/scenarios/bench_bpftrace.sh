# bpftrace in the bench suite (issue 35), sourced by bench_suite.sh after
# its repetitions, with its variables and functions (KERNEL, WORKLOADS,
# cmdline_arg, T, TWINS_LKST, HANDLER_MODULES, step, lkst_written, lkst_rewind,
# lkst_bytes): not a scenario of its own.  Two kinds of configuration:
#
# - bpftrace-twins: tools/bench/bpftrace/twins.bt recording the twin
#   tracepoints to its output file (-o), on both kernels;
# - handlers against bpftrace, on the patched kernel, the same question
#   answered both ways (h-QUESTION-lkst, h-QUESTION-bt): drop (a predicate
#   that never holds, on the twin events), pass (one that always does,
#   then recorded), count (system calls counted by number), hist (a
#   power-of-two histogram of system call latency, entry to exit) and
#   kstack (the kernel stack of every system call entry, 16 frames).
#
# bt-none is the same kernel with nothing traced, interleaved with them.
# A bpftrace configuration starts bpftrace once, on CPU 0 (its compilation
# is outside every measured window), and the suite's shell writes a marker
# to /dev/kmsg before and after each workload, which the program's
# printk:console probe turns into MARK ... END in its output (with its maps
# then, emptied): a workload's records and maps are those between its two
# markers.  The reader drains the perf rings during the window, as it must
# to keep a trace; under icount those instructions count.  RESULT lines as
# bench_suite.sh's:
#   RESULT KERNEL CONFIG WORKLOAD REP OPS NS_PER_OP LKST_RECORDS
#          FTRACE_ENTRIES FTRACE_OVERRUN FTRACE_BYTES LKST_BYTES
# where an h-*-lkst line's LKST_RECORDS are the routed events' hits
# (lkm stat), and a bpftrace line's FTRACE_ENTRIES, FTRACE_OVERRUN and
# FTRACE_BYTES are the records of bpftrace's output, the events it
# reported lost and the output's bytes (as peers.inc's peers have them).
# The answers of the first repetition are kept beside output.txt for
# tools/bench/report_bpftrace.py to compare: bt-count-WL.txt with
# lkst-count-WL.csv, bt-hist-WL.txt with lkst-hist-WL.csv, bt-kstack-WL.txt
# with lkst-kstack-WL.txt (lkm stat of SYSCALL_ENTRY).

[ -n "${WORKLOADS:-}" ] || { echo "bench_bpftrace: run by bench_suite.sh (make bench), not alone"; exit 1; }

BT_PROGS=/usr/share/lkst/bpftrace
# Without BTF bpftrace compiles with the kernel's headers: the few it needs
# (tools/bench/bpftrace-headers.sh); the bench kernels have one set.
export BPFTRACE_KERNEL_SOURCE=/usr/src/lkst-headers BPFTRACE_KERNEL_BUILD=/usr/src/lkst-headers
# 16 MiB of perf ring per CPU, as ftrace's buffer in the suite.
export BPFTRACE_PERF_RB_PAGES=4096

# bpftrace PROGRAM in the background on CPU 0, its output in bt.out, with
# this shell's PID as $1 (the marker's); returns once its BEGIN probe ran
# (every probe attached), 1 if it died or never did.  Compiling a program
# takes bpftrace minutes under TCG: it starts once per configuration and
# repetition, and the marker splits its output by workload.
# A program that prints every event writes with -o (bpftrace's way of
# recording a trace, fully buffered: the events' flood flushes it); one
# that prints only at the markers writes to standard output line by line
# (-B line), as a -o file is never flushed until it fills, so its READY
# and markers would never show.
bt_start() {
	rm -f bt.out bt.err
	case $1 in
	*/twins.bt|*/bt-pass.bt) taskset 1 bpftrace -o bt.out "$1" $$ 2>bt.err & ;;
	*) taskset 1 bpftrace -B line "$1" $$ >bt.out 2>bt.err & ;;
	esac
	BT_PID=$!
	i=0
	while ! grep -q '^READY$' bt.out 2>/dev/null; do
		{ kill -0 $BT_PID 2>/dev/null && [ $i -lt 3000 ]; } ||
			{ echo "bench_bpftrace: bpftrace $1 did not start:"; cat bt.err
			  [ -d "/proc/$BT_PID" ] && for t in "/proc/$BT_PID"/task/*; do
				echo "thread ${t##*/} $(cat "$t/comm") $(cat "$t/wchan")"; cat "$t/stack"
			  done 2>/dev/null; return 1; }
		sleep 1
		i=$((i + 1))
	done
	BT_SEEN=0 BT_FREED=0 BT_T=0
}

# SIGKILL: everything measured was read at the markers.  On SIGINT
# bpftrace would format what its rings still hold before it exits: after
# a workload whose events it lost by the million (pipe), that took longer
# than the rest of the suite under TCG.  Its probes go with its files.
bt_stop() {
	kill -KILL "$BT_PID"
	wait "$BT_PID" 2>/dev/null
	return 0
}

# Markers.  The suite's shell writes "lkst-bench-mark N" to /dev/kmsg,
# numbered from 1 per boot; the program's printk:console probe (pid ==
# $1) prints "MARK lkst-bench-mark N", its maps (emptied) and "END
# lkst-bench-mark N".  bt_mark writes one and returns once bpftrace wrote
# its END, with the window since the last marker read: bt_window and
# bt_maps give what it held.
#
# bt.out holds every record of the configuration: 170 MB after six
# workloads of twins.bt, as bpftrace formats more than the workloads
# traced (it runs behind, and records the suite's waits too).  Two things
# about it stalled the suite (docs/bench/bpftrace-2026-11-28.md):
# - It is on the initramfs's tmpfs, which has half of the guest's memory
#   and the initramfs's 295 MB in it.  When it filled, bpftrace's -o
#   stream failed in the middle of a line and wrote nothing more, so
#   every later marker was "lost", written again or not.  What a wait
#   has read is given back as it goes (lkst_holepunch).
# - Each second of a wait read the file from its start (busybox's
#   tail -c +N reads what it skips) and scanned the window with awk.  A
#   look now reads only the bytes bpftrace wrote since the last (dd
#   seeks), once, counting as it goes, and leaves a line bpftrace has not
#   finished for the next look.
# A marker could also be lost as any event is, on a full ring: a wait
# writes the next number every 10 s of guest time and takes the END of
# any number it wrote, and skips the MARK ... END of an earlier number
# that shows up late (lkst_bench_bt_resend=0 writes each marker once).
# A wait gives up when bpftrace has written nothing for 120 s of guest
# time, or after 600 s (a look can take a minute: bpftrace runs tens of
# seconds behind, and a look reads all it wrote since the last), and shows
# where bpftrace is.
BT_MK=0
BT_SEEN=0 BT_FREED=0 BT_T=0
BT_RESEND=$(cmdline_arg lkst_bench_bt_resend)
bt_send() {
	BT_MK=$((BT_MK + 1))
	echo "lkst-bench-mark $BT_MK" >/dev/kmsg
}
guest_s() {
	read -r up _ </proc/uptime
	echo "${up%.*}"
}

# One look: the complete lines bpftrace wrote since the last, from byte
# BT_SEEN.  Counts into BT_R (records: lines that start with the time,
# outside marker blocks), BT_L (events bpftrace said it lost), BT_B (the
# records' bytes); a block of a marker numbered BT_WANT or later goes to
# bt.maps, one numbered lower is skipped.  BT_BLK: 0 outside a block, 1 in
# this wait's, 2 in an earlier one's; BT_FOUND=1 once its END was read.
bt_look() {
	size=$(stat -c %s bt.out) || return 0
	[ "$size" -gt "$BT_SEEN" ] || return 0
	# shellcheck disable=SC2046
	set -- $(dd if=bt.out bs=65536 skip="$BT_SEEN" count=$((size - BT_SEEN)) \
			iflag=skip_bytes,count_bytes 2>/dev/null |
		awk -v n=$((size - BT_SEEN)) -v want="$BT_WANT" -v blk="$BT_BLK" '
		{ b += length($0) + 1 }
		b > n { exit }
		{ done = b }
		/^MARK lkst-bench-mark / { blk = $NF + 0 >= want + 0 ? 1 : 2; next }
		/^END lkst-bench-mark / { if (blk == 1) { found = 1; exit } blk = 0; next }
		blk == 1 { print >>"bt.maps"; next }
		blk == 0 && /^[0-9]+ [0-9]+ [0-9]+ / { r++; rb += length($0) + 1; t = $1 }
		/Lost [0-9]+ events/ { for (i = 1; i < NF; i++) if ($i == "Lost") l += $(i + 1) }
		END { print done + 0, found + 0, blk, r + 0, l + 0, rb + 0, int(t / 1000000000) }')
	[ $# = 7 ] || return 0
	BT_SEEN=$((BT_SEEN + $1)) BT_FOUND=$2 BT_BLK=$3
	BT_R=$((BT_R + $4)) BT_L=$((BT_L + $5)) BT_B=$((BT_B + $6))
	[ "$7" = 0 ] || BT_T=$7
	# What was read is given back: the tmpfs filled after six workloads
	# of twins.bt.
	[ $((BT_SEEN - BT_FREED)) -lt 4194304 ] || {
		lkst_holepunch bt.out $BT_SEEN && BT_FREED=$BT_SEEN; }
}

# Where bpftrace is: its threads' state, CPU time and kernel stacks.
bt_where() {
	what=${1:-}
	for t in "/proc/$BT_PID"/task/*; do
		# shellcheck disable=SC2046
		set -- $(cut -d ')' -f 2 "$t/stat")
		echo "bench_bpftrace:   thread ${t##*/} $(cat "$t/comm") state $1 utime ${12} stime ${13} wchan $(cat "$t/wchan")"
		[ "$what" != stack ] || sed 's/^/bench_bpftrace:     /' "$t/stack"
	done 2>/dev/null
}

bt_mark() {
	bt_send
	BT_WANT=$BT_MK BT_FOUND=0 BT_BLK=0 BT_R=0 BT_L=0 BT_B=0
	: >bt.maps
	t0=$(guest_s)
	tg=$t0 seen=$BT_SEEN next=10
	while bt_look; [ "$BT_FOUND" = 0 ]; do
		now=$(guest_s)
		el=$((now - t0))
		[ "$BT_SEEN" = "$seen" ] || { seen=$BT_SEEN; tg=$now; }
		if [ $((now - tg)) -ge 120 ] || [ $el -ge 600 ]; then
			echo "bench_bpftrace: no END of marker $BT_WANT..$BT_MK after $el s, nothing new in bt.out for $((now - tg)) s ($BT_SEEN bytes read, last record at ${BT_T}s):"
			grep -E '^(MemAvailable|Shmem):' /proc/meminfo | sed 's/^/bench_bpftrace:   /'
			bt_where stack
			tail -n 3 bt.out | cut -c 1-100 | sed 's/^/bench_bpftrace:   bt.out: /'
			return 1
		fi
		if [ $el -ge $next ]; then
			echo "bench_bpftrace: waiting $el s for marker $BT_WANT..$BT_MK: bt.out $BT_SEEN bytes read, $BT_L events lost, last record at ${BT_T}s, $(awk '$1 == "MemAvailable:" { print $2 }' /proc/meminfo) KiB available"
			bt_where
			[ "${BT_RESEND:-1}" = 0 ] || bt_send
			next=$((el + 10))
		fi
		sleep 1
	done
}

# "RECORDS LOST BYTES" of the last window: the records (lines that start
# with the time) before its marker, the events bpftrace said it lost and
# the records' bytes.
bt_window() {
	echo "$BT_R $BT_L $BT_B"
}

# The maps the last marker printed (between its MARK and END).
bt_maps() {
	cat bt.maps
}

# Hits of the events named (comma-separated), summed.
bt_hits() {
	lkm stat -e "$1" | awk 'NR > 1 { s += $3 } END { print s + 0 }'
}

# Repetitions: lkst_bench_bt_reps (1: each bpftrace start costs minutes).
BT_REPS=$(cmdline_arg lkst_bench_bt_reps)
BT_REPS=${BT_REPS:-1}
BT_CONFIGS=
if ! command -v bpftrace >/dev/null || [ ! -f $BT_PROGS/twins.bt ]; then
	echo "bench_bpftrace: no bpftrace or no $BT_PROGS in this initramfs: skipped"
else
	bpftrace --version
	BT_CONFIGS="bt-none bpftrace-twins"
	# The predicate versions of twins.bt: PRED before every probe's "{".
	sed 's|^\(tracepoint:.*\) {$|\1 /cpu < 4096/ {|' $BT_PROGS/twins.bt >/tmp/bt-pass.bt
	sed 's|^\(tracepoint:.*\) {$|\1 /cpu > 4096/ {|' $BT_PROGS/twins.bt >/tmp/bt-drop.bt
fi
TWINS_LKST_LIST=$(echo $TWINS_LKST | tr ' ' ,)
if [ -n "$BT_CONFIGS" ] && [ $KERNEL = lkst ]; then
	BT_CONFIGS="$BT_CONFIGS h-drop-bt h-pass-bt h-count-bt h-hist-bt h-kstack-bt"
	case " $HANDLER_MODULES " in *" lkst_filter "*)
		lkm read -m 0 | lkm write -m 9 -N btfilter || { echo "FAIL: maskset 9"; exit 1; }
		BT_CONFIGS="$BT_CONFIGS h-drop-lkst h-pass-lkst" ;;
	esac
	case " $HANDLER_MODULES " in *" lkst_agg "*)
		lkm read -m 0 | lkm write -m 10 -N btcount || { echo "FAIL: maskset 10"; exit 1; }
		lkm read -m 0 | lkm write -m 11 -N bthist || { echo "FAIL: maskset 11"; exit 1; }
		step lkm agg set -N btcount -m 10 -F count -K arg1 SYSCALL_ENTRY
		step lkm agg set -N bthist -m 11 -F quantize -L syscall
		BT_CONFIGS="$BT_CONFIGS h-count-lkst h-hist-lkst" ;;
	esac
	case " $HANDLER_MODULES " in *" lkst_stack "*)
		lkm read -m 0 | lkm write -m 12 -N btstack || { echo "FAIL: maskset 12"; exit 1; }
		step lkm config -m 12 SYSCALL_ENTRY stack >/dev/null
		BT_CONFIGS="$BT_CONFIGS h-kstack-lkst" ;;
	esac
fi

# lkst_bench_bt_configs=h-drop-bt,h-drop-lkst: only those configurations
# (only_listed(): bench_suite.sh's, which sources this file).
# shellcheck disable=SC2086
BT_CONFIGS=$(only_listed "$(cmdline_arg lkst_bench_bt_configs)" $BT_CONFIGS)

# The events whose hits an h-*-lkst run counts, and its maskset.
bt_lkst_events() {
	case $1 in
	h-drop-lkst|h-pass-lkst) echo "$TWINS_LKST_LIST" ;;
	h-hist-lkst) echo SYSCALL_ENTRY,SYSCALL_EXIT ;;
	*) echo SYSCALL_ENTRY ;;
	esac
}
bt_lkst_maskset() {
	case $1 in
	h-drop-lkst|h-pass-lkst) echo 9 ;;
	h-count-lkst) echo 10 ;;
	h-hist-lkst) echo 11 ;;
	h-kstack-lkst) echo 12 ;;
	esac
}

bt_program() {
	case $1 in
	bpftrace-twins) echo $BT_PROGS/twins.bt ;;
	h-pass-bt) echo /tmp/bt-pass.bt ;;
	h-drop-bt) echo /tmp/bt-drop.bt ;;
	h-count-bt) echo $BT_PROGS/count.bt ;;
	h-hist-bt) echo $BT_PROGS/hist.bt ;;
	h-kstack-bt) echo $BT_PROGS/kstack.bt ;;
	esac
}

# One run: CONFIG WORKLOAD:OPS REP (a bpftrace configuration's bpftrace
# already started); 1 when bpftrace's marker did not come back.
bt_run() {
	wl=${2%%:*}
	case $1 in
	h-drop-lkst|h-pass-lkst)
		pred='cpu < 4096'; [ $1 = h-drop-lkst ] && pred='cpu > 4096'
		for e in $TWINS_LKST; do
			lkm filter -m 9 "$e" "$pred" || { echo "FAIL: lkm filter $e"; exit 1; }
		done ;;
	h-count-lkst) step lkm agg clear -N btcount ;;
	h-hist-lkst) step lkm agg clear -N bthist ;;
	esac
	recs=0 hits=0 bytes=0 lost=0
	case $1 in
	h-*-lkst)
		lkst_rewind
		hits=$(bt_hits "$(bt_lkst_events $1)")
		bytes=$(lkst_bytes)
		lkm set -m "$(bt_lkst_maskset $1)" >/dev/null ;;
	bpftrace-*|h-*-bt) bt_mark || return 1 ;;
	esac
	lkst_benchload "$wl" -n "${2#*:}" >run.txt ||
		{ echo "FAIL: lkst_benchload $2 under $1"; exit 1; }
	case $1 in
	h-*-lkst)
		lkm set -m 0 >/dev/null
		hits=$(($(bt_hits "$(bt_lkst_events $1)") - hits))
		bytes=$(($(lkst_bytes) - bytes)) ;;
	bpftrace-*|h-*-bt)
		bt_mark || return 1
		read -r recs lost bytes <<-EOF
		$(bt_window)
		EOF
		;;
	esac
	read -r name ops ns <run.txt
	echo "RESULT $KERNEL $1 $name $3 $ops $ns $hits $recs $lost $bytes $bytes"
	[ "$3" = 1 ] || return 0
	# The answers, compared by tools/bench/report_bpftrace.py.
	case $1 in
	h-count-bt) bt_maps >"bt-count-$name.txt" ;;
	h-hist-bt) bt_maps >"bt-hist-$name.txt" ;;
	h-kstack-bt) bt_maps >"bt-kstack-$name.txt" ;;
	h-count-lkst) lkm agg print -C -N btcount >"lkst-count-$name.csv" ;;
	h-hist-lkst) lkm agg print -C -N bthist >"lkst-hist-$name.csv" ;;
	h-kstack-lkst) echo "SYSCALL_ENTRY $hits" >"lkst-kstack-$name.txt" ;;
	esac
	return 0
}

# lkst_bench_bt_workloads=getppid,pipe: only those (all seven without it).
BT_ONLY=$(cmdline_arg lkst_bench_bt_workloads)
# shellcheck disable=SC2086
BT_WORKLOADS=$(only_listed "$BT_ONLY" $WORKLOADS)
rep=1
bt_started=0
while [ -n "$BT_CONFIGS" ] && [ $rep -le "$BT_REPS" ]; do
	for config in $BT_CONFIGS; do
		prog=$(bt_program $config)
		if [ -n "$prog" ] && ! bt_start "$prog"; then
			# The first start tells whether bpftrace runs on this kernel.
			[ $bt_started = 0 ] || exit 1
			echo "bench_bpftrace: bpftrace does not run on this kernel: skipped"
			BT_REPS=0
			break
		fi
		[ -z "$prog" ] || bt_started=1
		for wl in $BT_WORKLOADS; do
			bt_run "$config" "$wl" $rep && continue
			echo "bench_bpftrace: $config stalled on ${wl%%:*}: its other workloads skipped"
			break
		done
		[ -z "$prog" ] || bt_stop
	done
	rep=$((rep + 1))
done
rm -f bt.out bt.maps bt.err /tmp/bt-pass.bt /tmp/bt-drop.bt
if [ -n "$BT_CONFIGS" ] && [ $KERNEL = lkst ]; then
	lkm agg delete -N btcount 2>/dev/null
	lkm agg delete -N bthist 2>/dev/null
	for m in 9 10 11 12; do
		lkm delete -m $m 2>/dev/null
	done
fi
