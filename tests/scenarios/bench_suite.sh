# The benchmark suite's guest side (make bench, not part of make test):
# every workload of lkst_benchload under every tracer configuration this
# kernel has, interleaved, lkst_bench_reps times.  The host boots it once
# on the pristine kernel (no lkst: "none" and "ftrace" only) and once on
# the patched one, both with -icount shift=0, and tools/bench/report.py
# turns the RESULT lines into the figures.  It asserts nothing.
. /scenarios/common.inc

T=/sys/kernel/tracing
cmdline_arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p" | tail -n 1; }
REPS=$(cmdline_arg lkst_bench_reps)
REPS=${REPS:-5}
# workload:operations, sized so that each run is a few million instructions
WORKLOADS="getppid:20000 pipe:2000 forkexit:200 forkexec:100 mmap:400 hackbench:4000 udp:2000"

# The events both tracers are given: RDEFAULT's events that have an
# upstream twin, twin by twin.
. /scenarios/twins.inc
# perf and libbpf on the same tracepoints (PEER_CONFIGS, peer_start...),
# and bpftrace below, unless lkst_bench_peers=0 (make bench's wall runs).
. /scenarios/peers.inc
PEERS=$(cmdline_arg lkst_bench_peers)
[ "${PEERS:-1}" = 0 ] && PEER_CONFIGS=
# bpftrace alone can be left out (lkst_bench_bt=0): under TCG its
# consumer formats every event in user space, minutes per workload.
BT=$(cmdline_arg lkst_bench_bt)

[ -d $T/events ] || mount -t tracefs nodev $T || { echo "FAIL: no tracefs"; exit 1; }
step ip link set lo up
if lkm list >/dev/null 2>&1; then
	KERNEL=lkst
	CONFIGS="none lkst-rdefault lkst-rall lkst-twins ftrace-twins both-twins $PEER_CONFIGS"
	active=$(lkm list | awk '$3 ~ /active/ { print $1 }')
	lkm read -m 0 | lkm write -m 5 -N twins || { echo "FAIL: maskset 5"; exit 1; }
	for e in $TWINS_LKST; do
		step lkm config -m 5 "$e" default >/dev/null
	done
	# Handler costs.  Maskset 6 routes RDEFAULT's events to lkst_filter
	# with a predicate that always holds (each event then recorded by
	# DEFAULT) or never does (each event only tested), or to lkst_agg
	# counting them by event.  Maskset 7 routes lkst_errpath's events to it;
	# its RESULT lines count those events' hits instead of records written.
	RDEFAULT_EVENTS=$(lkm read -m 1 | awk '$3 == 1 { print $2 }')
	lkm read -m 0 | lkm write -m 6 -N handlers || { echo "FAIL: maskset 6"; exit 1; }
	HANDLER_MODULES=
	if insmod /lib/lkst/lkst_filter.ko; then
		CONFIGS="$CONFIGS filter-pass filter-drop"
		HANDLER_MODULES="$HANDLER_MODULES lkst_filter"
	fi
	if insmod /lib/lkst/lkst_agg.ko; then
		CONFIGS="$CONFIGS agg-count"
		HANDLER_MODULES="$HANDLER_MODULES lkst_agg"
	fi
	ERRPATH_EVENTS="SYSCALL_ENTRY SYSCALL_EXIT EXCEPTION_PAGEFAULT_ENTRY EXCEPTION_PAGEFAULT_EXIT PROCESS_SIGSEND"
	if insmod /lib/lkst/lkst_errpath.ko; then
		CONFIGS="$CONFIGS errpath"
		HANDLER_MODULES="$HANDLER_MODULES lkst_errpath"
		lkm read -m 0 | lkm write -m 7 -N errpath || { echo "FAIL: maskset 7"; exit 1; }
		for e in $ERRPATH_EVENTS; do
			step lkm config -m 7 "$e" errpath >/dev/null
		done
	fi
	# Maskset 8 routes RDEFAULT's events to lkst_stack, kernel stacks of
	# at most 16 frames, no user stacks: each event costs its record and
	# its stack's (up to 4 more records).
	if insmod /lib/lkst/lkst_stack.ko; then
		CONFIGS="$CONFIGS stack"
		HANDLER_MODULES="$HANDLER_MODULES lkst_stack"
		lkm read -m 0 | lkm write -m 8 -N stack || { echo "FAIL: maskset 8"; exit 1; }
		for e in $RDEFAULT_EVENTS; do
			step lkm config -m 8 "$e" stack >/dev/null
		done
		step lkm stack --depth 16 --no-user
	fi
	# 16 MiB per CPU, rewound before each run: no run wraps.
	step lkbuf resize -s 16M
else
	KERNEL=vanilla
	CONFIGS="none ftrace-twins"
fi
echo 16384 >$T/buffer_size_kb || { echo "FAIL: ftrace buffer_size_kb"; exit 1; }
echo "kernel $KERNEL"
uname -a

ftrace_events() {	# 0|1
	for e in $TWINS_FTRACE; do
		echo "$1" >$T/events/$e/enable || { echo "FAIL: enable $e"; exit 1; }
	done
}

# Everything off, then the configuration's ftrace events enabled; the
# tracers themselves start right before the workload and stop right after
# it (start/stop), so that little else is recorded with it.
configure() {
	[ $KERNEL = lkst ] && lkm set -m 0 >/dev/null
	echo 0 >$T/tracing_on
	echo 0 >$T/events/enable
	case $1 in ftrace-*|both-*) ftrace_events 1 ;; esac
	case $1 in
	filter-pass) filter_all 'cpu < 4096' ;;
	filter-drop) filter_all 'cpu > 4096' ;;
	agg-count)
		# shellcheck disable=SC2086
		lkm agg set -N bench -m 6 -F count -K event $RDEFAULT_EVENTS ||
			{ echo "FAIL: lkm agg set"; exit 1; } ;;
	esac
	echo >$T/trace
}

filter_all() {
	for e in $RDEFAULT_EVENTS; do
		lkm filter -m 6 "$e" "$1" || { echo "FAIL: lkm filter $e"; exit 1; }
	done
}

start() {
	case $1 in
	lkst-rdefault) lkm set -m 1 >/dev/null ;;
	lkst-rall) lkm set -m 2 >/dev/null ;;
	lkst-twins|both-twins) lkm set -m 5 >/dev/null ;;
	filter-*|agg-*) lkm set -m 6 >/dev/null ;;
	errpath) lkm set -m 7 >/dev/null ;;
	stack) lkm set -m 8 >/dev/null ;;
	esac
	case $1 in ftrace-*|both-*) echo 1 >$T/tracing_on ;; esac
	case $1 in perf-*|libbpf-*) peer_start "$1" || { echo "FAIL: starting $1"; exit 1; } ;; esac
}

stop() {
	case $1 in perf-*|libbpf-*) peer_stop "$1" || { echo "FAIL: stopping $1"; exit 1; } ;; esac
	echo 0 >$T/tracing_on
	[ $KERNEL = lkst ] && lkm set -m 0 >/dev/null
}

lkst_written() {
	[ $KERNEL = lkst ] || { echo 0; return; }
	lkbuf list | sed -n 's/.* written \([0-9]*\),.*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}

# Every CPU writes from the start of its block again: a run's bytes are
# then the used bytes after it minus the heads of the first pages.
lkst_rewind() {
	[ $KERNEL = lkst ] || return 0
	for c in $(lkbuf list | sed -n 's/^cpu \([0-9]*\) .*/\1/p'); do
		lkbuf jump -c "$c" -b 0 || { echo "FAIL: jump cpu $c"; exit 1; }
	done
}

# Bytes of the CPUs' current blocks used, page heads and ends included.
lkst_bytes() {
	[ $KERNEL = lkst ] || { echo 0; return; }
	lkbuf list | sed -n 's/.*\[current: \([0-9]*\) of.*/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}

# Hits of lkst_errpath's events, summed: the events its runs routed.
errpath_hits() {
	lkm stat -e "$(echo $ERRPATH_EVENTS | tr ' ' ,)" | awk 'NR > 1 { s += $3 } END { print s + 0 }'
}

# What a run counts: records written, or for errpath its events' hits.
counted() {
	if [ "$1" = errpath ]; then errpath_hits; else lkst_written; fi
}

ftrace_stat() {	# entries|bytes, summed over the CPUs
	cat $T/per_cpu/cpu*/stats | sed -n "s/^$1: //p" | awk '{ s += $1 } END { print s + 0 }'
}

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

# lkst_bench_configs=none,lkst-twins,ftrace-twins and
# lkst_bench_workloads=getppid,pipe: only those (tools/bench/ablate.sh).
# shellcheck disable=SC2086
CONFIGS=$(only_listed "$(cmdline_arg lkst_bench_configs)" $CONFIGS)
# shellcheck disable=SC2086
WORKLOADS=$(only_listed "$(cmdline_arg lkst_bench_workloads)" $WORKLOADS)

# One warm-up pass, so that page cache and slab state are alike for all.
for wl in $WORKLOADS; do
	lkst_benchload "${wl%%:*}" -n 10 >/dev/null || { echo "FAIL: warm-up ${wl%%:*}"; exit 1; }
done
rep=1
while [ $rep -le "$REPS" ]; do
	for config in $CONFIGS; do
		configure "$config"
		for wl in $WORKLOADS; do
			echo >$T/trace
			lkst_rewind
			before=$(counted "$config")
			bytes_before=$(lkst_bytes)
			start "$config"
			lkst_benchload "${wl%%:*}" -n "${wl#*:}" >run.txt ||
				{ stop "$config"; configure none; echo "FAIL: lkst_benchload $wl under $config"; exit 1; }
			stop "$config"
			after=$(counted "$config")
			read -r name ops ns <run.txt
			# The tracer's records, lost records and bytes: ftrace's, or
			# the peer's that ran.
			case $config in
			perf-*|libbpf-*) tr=$(peer_stats "$config") ;;
			*) tr="$(ftrace_stat entries) $(ftrace_stat overrun) $(ftrace_stat bytes)" ;;
			esac
			echo "RESULT $KERNEL $config $name $rep $ops $ns $((after - before)) $tr $(($(lkst_bytes) - bytes_before))"
		done
	done
	rep=$((rep + 1))
done
# Nothing traced: the last configuration's events stay enabled otherwise
# (ftrace-twins' on the pristine kernel, with tracing off: bt-none's
# getppid read 575 instructions against none's 218).
configure none
[ "${PEERS:-1}" = 0 ] || [ "${BT:-1}" = 0 ] ||
	. /scenarios/bench_bpftrace.sh	# bpftrace, and the handlers against it
rm -f run.txt
configure none
[ $KERNEL = lkst ] && [ "${PEERS:-1}" != 0 ] && userside_traces
[ $KERNEL = lkst ] && { lkm delete -m 5; lkbuf resize -s 512K; lkm set -m "${active:-1}"; }
if [ $KERNEL = lkst ]; then
	lkm agg delete 2>/dev/null	# fails only without lkst_agg
	lkm delete -m 6 || { echo "FAIL: maskset 6 cleanup"; exit 1; }
	case " $HANDLER_MODULES " in
	*" lkst_errpath "*) lkm delete -m 7 || { echo "FAIL: maskset 7 cleanup"; exit 1; } ;;
	esac
	# shellcheck disable=SC2086
	[ -z "$HANDLER_MODULES" ] || rmmod $HANDLER_MODULES || { echo "FAIL: rmmod"; exit 1; }
fi
echo "bench_suite done"
