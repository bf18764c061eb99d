#!/bin/bash
# What pieces of the DEFAULT write path cost, weighed by taking them out:
# one bench kernel per variant, each a copy of the bench tree with a piece
# of kernel/lkst/core.c replaced, and the icount half of the bench suite
# run on each.  The variants are not correct kernels (a bare RDTSC is not
# nanoseconds); they only measure.  Prints instructions per twin event by
# variant.  Run `make initramfs-bench` first (make bench-ablate does);
# about 20 minutes.
#
# usage: tools/bench/ablate.sh [OUTDIR]   (default out/bench-ablate)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-out/bench-ablate}
tree=build/linux-6.12-bench
initrd=build/initramfs-bench.cpio.gz
[ -f $tree/arch/x86/boot/bzImage ] && [ -f $initrd ] ||
	{ echo "ablate.sh: no bench kernel: run make initramfs-bench" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
copy=$out/tree
cp -a $tree "$copy"

# ablate OLD NEW: replace the text OLD of core.c by NEW, or fail loudly
# when the code has moved on and OLD is no longer there.
ablate() {
	python3 - "$copy/kernel/lkst/core.c" "$1" "$2" <<'EOF'
import sys
path, old, new = sys.argv[1:]
src = open(path).read()
if src.count(old) < 1:
    sys.exit(f"ablate.sh: {old!r} not in {path}: update the variant")
open(path, "w").write(src.replace(old, new))
EOF
}

bench() { # VARIANT BZIMAGE
	echo "== $1"
	BENCH_PEERS=0 tools/bench/run-guest.sh "$2" $initrd "$out/$1/lkst-icount" icount 3 \
		>"$out/$1.log" 2>&1 ||
		{ echo "ablate.sh: the $1 guest failed: $out/$1.log" >&2; exit 1; }
	python3 tools/bench/report.py "$out/$1" >/dev/null
}

build() { # VARIANT
	tools/build/kmake.sh "$copy" -j"$(nproc)" bzImage >"$out/build-$1.log" 2>&1 ||
		{ echo "ablate.sh: building $1 failed: $out/build-$1.log" >&2; exit 1; }
	cp "$copy/arch/x86/boot/bzImage" "$out/bzImage-$1"
}

bench base $tree/arch/x86/boot/bzImage
# The clock: lkst_clock_ns() against the cheapest read there is.
ablate '	now = lkst_clock_ns();' \
	'	now = rdtsc();'
build rdtsc
bench rdtsc "$out/bzImage-rdtsc"
# The per-event hits counter of the DEFAULT path (lkm stat), besides.
ablate '	if (likely(id == LKST_HANDLER_DEFAULT)) {
		this_cpu_inc(lkst_counters.hits[event]);' \
	'	if (likely(id == LKST_HANDLER_DEFAULT)) {'
build rdtsc-nohits
bench rdtsc-nohits "$out/bzImage-rdtsc-nohits"
rm -rf "$copy"

python3 - "$out" base rdtsc rdtsc-nohits <<'EOF' | tee "$out/ablation.md"
import re, sys
out, variants = sys.argv[1], sys.argv[2:]
per = {}
for v in variants:
    text = open(f"{out}/{v}/results.md").read()
    table = text.split("## Per recorded event")[1].split("\n\n")[1]
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        per.setdefault(cells[0], {})[v] = (int(cells[2]), int(cells[4]))
print("Instructions per twin event (icount), by variant; ftrace's in parentheses.\n")
print("| workload | " + " | ".join(variants) + " | " +
      " | ".join(f"{v} saves" for v in variants[1:]) + " |")
print("| --- " * (2 * len(variants)) + "|")
for w, by in per.items():
    base = by[variants[0]][0]
    cells = [f"{by[v][0]} ({by[v][1]})" for v in variants]
    cells += [str(base - by[v][0]) for v in variants[1:]]
    print(f"| {w} | " + " | ".join(cells) + " |")
EOF
