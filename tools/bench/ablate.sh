#!/bin/bash
# What pieces of the DEFAULT write path cost, weighed by taking them out:
# one bench kernel per variant, each built in a copy of the bench tree with
# kernel/lkst/core.c edited, and the icount half of the bench suite run on
# each.  The variants are not correct kernels (a bare RDTSC is not
# nanoseconds); they only measure.  The format variants are what each
# candidate change of the record format (issue 35) saves or would save:
# ns-clock times every record in nanoseconds again (what storing the
# counter saved), fixed-widths stores every argument in two words (no
# test of each argument), pid-always the PID word in every record (no
# comparison with the record before), format-floor both; no-write is
# everything but the record (the hook, the call and the dispatcher).  Prints
# instructions per twin event by variant.  Run `make initramfs-bench`
# first (make bench-ablate does); about 8 minutes a variant at 1
# repetition on the three workloads that repeat.
#
# usage: tools/bench/ablate.sh [OUTDIR]   (default out/bench-ablate)
# ABLATE_VARIANTS: which (default: all of them, base first);
# ABLATE_REPS: repetitions (3); ABLATE_WORKLOADS (getppid,pipe,udp: the
# workloads whose figures repeat under icount).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-out/bench-ablate}
variants=${ABLATE_VARIANTS:-base rdtsc rdtsc-nohits ns-clock fixed-widths pid-always format-floor no-write}
reps=${ABLATE_REPS:-3}
tree=build/linux-6.12-bench
initrd=build/initramfs-bench.cpio.gz
[ -f $tree/arch/x86/boot/bzImage ] && [ -f $initrd ] ||
	{ echo "ablate.sh: no bench kernel: run make initramfs-bench" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
copy=$out/tree
cp -a $tree "$copy"
core=$copy/kernel/lkst/core.c
cp "$core" "$out/core.c.orig"

# ablate OLD NEW: replace the text OLD of core.c by NEW, or fail loudly
# when the code has moved on and OLD is no longer there.
ablate() {
	python3 - "$core" "$1" "$2" <<'EOF'
import sys
path, old, new = sys.argv[1:]
src = open(path).read()
if src.count(old) < 1:
    sys.exit(f"ablate.sh: {old!r} not in {path}: update the variant")
open(path, "w").write(src.replace(old, new))
EOF
}

# The pieces.  The clock: the counter records store (lkst_clock_stamp())
# against the cheapest read there is, or against converting every time to
# nanoseconds, as records did before persist layout 4.
no_clock() { ablate '	now = lkst_clock_stamp(slot.page, &info);' '	now = rdtsc();'; }
ns_clock() {
	ablate '	now = lkst_clock_stamp(slot.page, &info);' \
		'	now = lkst_clock_ns();
	info |= LKST_BREC_TIME_NS;'
}
# The per-event hits counter of the DEFAULT path (lkm stat).
no_hits() {
	ablate '	if (likely(id == LKST_HANDLER_DEFAULT)) {
		this_cpu_inc(lkst_counters.hits[event]);' \
		'	if (likely(id == LKST_HANDLER_DEFAULT)) {'
}
# Every argument a site can pass stored in two words, the count known
# from the dispatcher's copy (its constant zeros): the layout is a
# constant, and the record a correct one (every wide bit set).
fixed_widths() {
	ablate '	len = lkst_brec_layout_args(a1, a2, a3, a4, a5, a6, &nr_args, &wide);' \
		'	nr_args = !__LKST_ZERO_ARG(a6) ? 6 : !__LKST_ZERO_ARG(a5) ? 5 :
		  !__LKST_ZERO_ARG(a4) ? 4 : !__LKST_ZERO_ARG(a3) ? 3 :
		  !__LKST_ZERO_ARG(a2) ? 2 : !__LKST_ZERO_ARG(a1) ? 1 : 0;
	wide = (1u << nr_args) - 1;
	len = LKST_BREC_SIZE(nr_args, nr_args);'
	ablate '	lkst_slot_put_args(&slot, pid, nr_args, a1, a2, a3, a4, a5, a6);' \
		'	{
		u32 *w = lkst_slot_args(&slot);

		lkst_slot_put_pid(&slot, pid);
#define PUT_WIDE(i, a) if (i < nr_args) { WRITE_ONCE(w[i], (u32)(a)); \
		WRITE_ONCE(w[nr_args + i], (u32)((a) >> 32)); }
		PUT_WIDE(0, a1) PUT_WIDE(1, a2) PUT_WIDE(2, a3)
		PUT_WIDE(3, a4) PUT_WIDE(4, a5) PUT_WIDE(5, a6)
	}'
}
# Everything the DEFAULT path does but the record: the hook, the call,
# the dispatcher's checks and its saved registers.
no_write() {
	ablate '		this_cpu_inc(lkst_counters.hits[event]);
		lkst_write(event, ctx, a1, a2, a3, a4, a5, a6);' \
		'		this_cpu_inc(lkst_counters.hits[event]);'
}
# The PID word in every record.
pid_always() {
	ablate 'lkst_buf_reserve_inline(cb, len, pid, true, &slot)' \
		'lkst_buf_reserve_inline(cb, len, pid, false, &slot)'
}

bench() { # VARIANT BZIMAGE
	echo "== $1"
	MEM=1G SCRATCH_SIZE=256M BENCH_PEERS=0 BENCH_CONFIGS=none,lkst-twins,ftrace-twins \
		BENCH_WORKLOADS=${ABLATE_WORKLOADS:-getppid,pipe,udp} \
		tools/bench/run-guest.sh "$2" $initrd "$out/$1/lkst-icount" icount "$reps" \
		>"$out/$1.log" 2>&1 ||
		{ echo "ablate.sh: the $1 guest failed: $out/$1.log" >&2; exit 1; }
}

build() { # VARIANT
	tools/build/kmake.sh "$copy" -j"$(nproc)" bzImage >"$out/build-$1.log" 2>&1 ||
		{ echo "ablate.sh: building $1 failed: $out/build-$1.log" >&2; exit 1; }
	cp "$copy/arch/x86/boot/bzImage" "$out/bzImage-$1"
}

for v in $variants; do
	cp "$out/core.c.orig" "$core"
	case $v in
	base) bench base $tree/arch/x86/boot/bzImage; continue ;;
	rdtsc) no_clock ;;
	rdtsc-nohits) no_clock; no_hits ;;
	ns-clock) ns_clock ;;
	fixed-widths) fixed_widths ;;
	pid-always) pid_always ;;
	format-floor) fixed_widths; pid_always ;;
	no-write) no_write ;;
	*) echo "ablate.sh: no variant $v" >&2; exit 2 ;;
	esac
	build "$v"
	bench "$v" "$out/bzImage-$v"
done
rm -rf "$copy"

# Per twin event: the instructions a run of lkst-twins took over the
# run of nothing traced, per record the base kernel wrote on it (no-write
# writes none), from the suite's RESULT lines.
# shellcheck disable=SC2086
python3 - "$out" $variants <<'EOF' | tee "$out/ablation.md"
import glob, sys
out, variants = sys.argv[1], sys.argv[2:]
runs = {}	# variant -> workload -> config -> (instructions, lkst records, ftrace entries)
for v in variants:
    for path in glob.glob(f"{out}/{v}/lkst-icount/**/output.txt", recursive=True):
        for line in open(path):
            f = line.split()
            if len(f) >= 10 and f[0] == "RESULT":
                # instructions: operations times instructions per operation
                runs.setdefault(v, {}).setdefault(f[3], {})[f[2]] = (
                    int(f[5]) * float(f[6]), int(f[7]), int(f[8]))
base = runs[variants[0]]
print("Instructions per twin event (icount), by variant; ftrace's in parentheses.\n")
print("| workload | " + " | ".join(variants) + " | " +
      " | ".join(f"{v} saves" for v in variants[1:]) + " |")
print("| --- " * (2 * len(variants)) + "|")
for wl in base:
    per = {}
    for v in variants:
        r = runs.get(v, {}).get(wl, {})
        if {"none", "lkst-twins", "ftrace-twins"} <= r.keys():
            per[v] = (round((r["lkst-twins"][0] - r["none"][0]) / base[wl]["lkst-twins"][1]),
                      round((r["ftrace-twins"][0] - r["none"][0]) / r["ftrace-twins"][2]))
    cells = [f"{per[v][0]} ({per[v][1]})" if v in per else "-" for v in variants]
    cells += [str(per[variants[0]][0] - per[v][0]) if v in per and variants[0] in per else "-"
              for v in variants[1:]]
    print(f"| {wl} | " + " | ".join(cells) + " |")
EOF
