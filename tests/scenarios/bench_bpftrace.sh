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
	BT_OFF=0
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

# A marker in bt.out: MARK, the program's maps (emptied), END; returns
# once bpftrace wrote it, with what bt.out gained since the last marker
# in bt.win.  Only that part is read (from byte BT_OFF): bt.out holds
# every record of the configuration, and scanning it all at each wait was
# what made the suite slow under TCG.  Returns 1 after 120 s of guest
# time without it: the printing programs have stalled so after a workload
# whose events they lost by the million (docs/bench/bpftrace-2026-11-28.md),
# and a guest second then lasts minutes of TCG.
bt_mark() {
	echo lkst-bench-mark >/dev/kmsg
	i=0
	until tail -c +$((BT_OFF + 1)) bt.out |
		awk '{ print } /^END$/ { found = 1; exit } END { exit !found }' >bt.win; do
		[ $i -lt 120 ] || { echo "bench_bpftrace: no marker after byte $BT_OFF of bt.out"; return 1; }
		sleep 1
		i=$((i + 1))
	done
	BT_OFF=$((BT_OFF + $(wc -c <bt.win)))
}

# "RECORDS LOST BYTES" of the window bt.win ends: the records (lines
# that start with the time) before its MARK, the events bpftrace said it
# lost and the records' bytes.
bt_window() {
	awk '/^MARK$/ { m = 1 }
	     !m && /^[0-9]+ [0-9]+ [0-9]+ / { r++; b += length($0) + 1 }
	     /Lost [0-9]+ events/ { for (i = 1; i < NF; i++) if ($i == "Lost") l += $(i + 1) }
	     END { print r + 0, l + 0, b + 0 }' bt.win
}

# The maps the last marker printed (between its MARK and END).
bt_maps() {
	awk '/^MARK$/ { m = 1; next } /^END$/ { exit } m' bt.win
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

# The ITEMS (name or name:count) that LIST names (comma-separated), all of
# them when LIST is empty.
only_listed() {	# LIST ITEMS...
	listed=$1
	shift
	[ -n "$listed" ] || { echo "$@"; return; }
	for item in "$@"; do
		case ",$listed," in *",${item%%:*},"*) printf '%s ' "$item" ;; esac
	done
}

# lkst_bench_bt_configs=h-drop-bt,h-drop-lkst: only those configurations.
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

# lkst_bench_bt_workloads=getppid,pipe: only those.  Without it the
# programs that print every event (bpftrace-twins, h-pass-bt) run on
# getppid and pipe only: after fork+exit or before mmap they stalled the
# suite for hours of TCG (docs/bench/bpftrace-2026-11-28.md); the other
# questions run on all seven.
BT_ONLY=$(cmdline_arg lkst_bench_bt_workloads)
# shellcheck disable=SC2086
BT_WORKLOADS=$(only_listed "$BT_ONLY" $WORKLOADS)
# shellcheck disable=SC2086
BT_PRINT_WORKLOADS=$(only_listed "${BT_ONLY:-getppid,pipe}" $WORKLOADS)
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
		wls=$BT_WORKLOADS
		case $config in bpftrace-twins|h-pass-bt) wls=$BT_PRINT_WORKLOADS ;; esac
		for wl in $wls; do
			bt_run "$config" "$wl" $rep && continue
			echo "bench_bpftrace: $config stalled on ${wl%%:*}: its other workloads skipped"
			break
		done
		[ -z "$prog" ] || bt_stop
	done
	rep=$((rep + 1))
done
rm -f bt.out bt.win bt.err /tmp/bt-pass.bt /tmp/bt-drop.bt
if [ -n "$BT_CONFIGS" ] && [ $KERNEL = lkst ]; then
	lkm agg delete -N btcount 2>/dev/null
	lkm agg delete -N bthist 2>/dev/null
	for m in 9 10 11 12; do
		lkm delete -m $m 2>/dev/null
	done
fi
