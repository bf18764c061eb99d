# lkst: build system and QEMU test harness.
# The real work is in tools/build/*.sh (one job each); this file wires them.
# Every step is idempotent and incremental: stamps inside the kernel tree
# decide whether to re-apply patches or reconfigure.

SHELL      := /bin/bash
TOOLS      := $(CURDIR)/tools/build
TARBALL    ?= /usr/src/linux-source-6.12.tar.xz
DEF_KSRC   := $(CURDIR)/build/linux-6.12
KSRC       ?= $(DEF_KSRC)
KBUILD_DIR ?= $(KSRC)
PATCH_DIR  ?= $(CURDIR)/patches
SERIES     ?= $(PATCH_DIR)/series
CORE_PATCH := 0001-lkst-core.patch
KCONFIG_FRAGMENTS ?= configs/guest.config configs/ftrace.config configs/lkst.config configs/debug.config
BZIMAGE    := $(KBUILD_DIR)/arch/x86/boot/bzImage
INITRAMFS  ?= $(CURDIR)/build/initramfs.cpio.gz
SCENARIO_DIR ?= $(CURDIR)/tests/scenarios
QEMU_TIMEOUT ?= 300
HAVE_HANDLERS := $(wildcard handlers/Kbuild handlers/Makefile)
# tests/run-all.sh builds the kernel once and clears this to skip re-checking it.
KERNEL_DEP ?= kernel

.PHONY: stock-module dkms-install test-stock bench-stock all deps events sysnames kernel kernel-tree kernel-kasan kernel-kcsan initramfs-kcsan kcsan kernel-bench bench-ablate initramfs-kasan patches docs count-hooks \
	utils handlers initramfs initramfs-kdump demo install uninstall \
	test torture bench initramfs-bench checkpatch clean distclean help

all: kernel utils handlers initramfs

help:
	@echo "targets: deps kernel patches docs count-hooks utils handlers initramfs demo test test-shuffle torture bench checkpatch install uninstall clean distclean"
	@echo "vars: KSRC=tree (skips extraction) SERIES=file KCONFIG_FRAGMENTS='...' QEMU_TIMEOUT=s PREFIX=/usr/local DESTDIR="

deps:
	@$(TOOLS)/deps.sh

# Extracted (only for the default KSRC) and patched tree, not yet configured.
kernel-tree:
ifeq ($(KSRC),$(DEF_KSRC))
	@$(TOOLS)/extract-kernel.sh $(TARBALL) $(KSRC)
endif
	@test -f $(KSRC)/Makefile || { echo "KSRC=$(KSRC) is not a kernel tree" >&2; exit 1; }
	@$(TOOLS)/apply-patches.sh $(KSRC) $(PATCH_DIR) $(SERIES)

kernel: kernel-tree
	@$(TOOLS)/configure-kernel.sh $(KSRC) $(KCONFIG_FRAGMENTS)
	@$(TOOLS)/build-kernel.sh $(KSRC)

# The KASAN kernel of the debug run: its own tree, handler modules and
# initramfs, so it never disturbs the test kernel's incremental build.
KASAN_KSRC      := $(CURDIR)/build/linux-6.12-kasan
KASAN_FRAGMENTS := $(KCONFIG_FRAGMENTS) configs/kasan.config
KASAN_HANDLERS  := $(CURDIR)/build/handlers-kasan
KASAN_INITRAMFS := $(CURDIR)/build/initramfs-kasan.cpio.gz

kernel-kasan:
	@$(TOOLS)/extract-kernel.sh $(TARBALL) $(KASAN_KSRC)
	@$(TOOLS)/apply-patches.sh $(KASAN_KSRC) $(PATCH_DIR) $(SERIES)
	@$(TOOLS)/configure-kernel.sh $(KASAN_KSRC) $(KASAN_FRAGMENTS)
	@$(TOOLS)/build-kernel.sh $(KASAN_KSRC)

initramfs-kasan: kernel-kasan utils
	@rm -rf $(KASAN_HANDLERS) && mkdir -p $(KASAN_HANDLERS)
	@cp handlers/*.c handlers/*.h handlers/Kbuild $(KASAN_HANDLERS)/
	@$(TOOLS)/kmake.sh $(KASAN_KSRC) M=$(KASAN_HANDLERS) modules
	@rm -rf $(KASAN_HANDLERS)/test && mkdir -p $(KASAN_HANDLERS)/test
	@cp tests/modules/*.c tests/modules/Kbuild $(KASAN_HANDLERS)/test/
	@$(TOOLS)/kmake.sh $(KASAN_KSRC) M=$(KASAN_HANDLERS)/test modules
	@HANDLERS_DIR=$(KASAN_HANDLERS) TESTMODS_DIR=$(KASAN_HANDLERS)/test \
		SCENARIO_DIR=$(SCENARIO_DIR) \
		$(TOOLS)/mk-initramfs.sh $(KASAN_INITRAMFS)

# The data-race run (make kcsan): a KCSAN kernel of its own, the torture
# and hotplug scenarios on it, every KCSAN report whose stack is in lkst
# counted (tools/build/kcsan-reports.py); other kernel code's reports are
# listed apart.  Its durations are in docs/reliability.md.
KCSAN_KSRC      := $(CURDIR)/build/linux-6.12-kcsan
KCSAN_HANDLERS  := $(CURDIR)/build/handlers-kcsan
KCSAN_INITRAMFS := $(CURDIR)/build/initramfs-kcsan.cpio.gz
KCSAN_CYCLES    ?= 40
kernel-kcsan:
	@$(TOOLS)/extract-kernel.sh $(TARBALL) $(KCSAN_KSRC)
	@$(TOOLS)/apply-patches.sh $(KCSAN_KSRC) $(PATCH_DIR) $(SERIES)
	@$(TOOLS)/configure-kernel.sh $(KCSAN_KSRC) $(KCONFIG_FRAGMENTS) configs/kcsan.config
	@$(TOOLS)/build-kernel.sh $(KCSAN_KSRC)

initramfs-kcsan: kernel-kcsan utils
	@rm -rf $(KCSAN_HANDLERS) && mkdir -p $(KCSAN_HANDLERS)/test
	@cp handlers/*.c handlers/*.h handlers/Kbuild $(KCSAN_HANDLERS)/
	@$(TOOLS)/kmake.sh $(KCSAN_KSRC) M=$(KCSAN_HANDLERS) modules
	@cp tests/modules/*.c tests/modules/Kbuild $(KCSAN_HANDLERS)/test/
	@$(TOOLS)/kmake.sh $(KCSAN_KSRC) M=$(KCSAN_HANDLERS)/test modules
	@rm -rf $(TORTURE_SCENARIOS)-kcsan && cp -a tests/scenarios $(TORTURE_SCENARIOS)-kcsan
	@echo $(KCSAN_CYCLES) >$(TORTURE_SCENARIOS)-kcsan/torture_cycles
	@HANDLERS_DIR=$(KCSAN_HANDLERS) TESTMODS_DIR=$(KCSAN_HANDLERS)/test \
		SCENARIO_DIR=$(TORTURE_SCENARIOS)-kcsan \
		$(TOOLS)/mk-initramfs.sh $(KCSAN_INITRAMFS)

kcsan: deps initramfs-kcsan
	@rm -rf out/kcsan
	@CHECK_CONSOLE_IGNORE='BUG: KCSAN:' \
		KERNEL=$(KCSAN_KSRC)/arch/x86/boot/bzImage INITRD=$(KCSAN_INITRAMFS) \
		APPEND="lkst.maskset=rdefault lkst.bufsize=512K lkst_timeout=3000 lkst_run=t98_torture,t15_hotplug,t16_switch_drain" \
		TIMEOUT=3600 tests/qemu/run.sh out/kcsan
	@python3 tests/check/t98_torture.py out/kcsan/t98_torture
	@python3 tools/build/kcsan-reports.py out/kcsan/console.log

# The arm64 guest (issue 33): its own cross-built tree, the same series
# and fragments plus configs/arm64.config (no lockdep), handlers, test
# modules and tools cross-built under build/arm64, and the scenarios of
# ARM64_SCENARIOS in one boot of qemu-system-aarch64 (tests/arm64/run.sh).
ARM64_KSRC      := $(CURDIR)/build/linux-6.12-arm64
ARM64_FRAGMENTS := configs/guest.config configs/lkst.config configs/arm64.config
ARM64_INITRAMFS := $(CURDIR)/build/initramfs-arm64.cpio.gz
.PHONY: kernel-arm64 initramfs-arm64 test-arm64
kernel-arm64:
	@$(TOOLS)/extract-kernel.sh $(TARBALL) $(ARM64_KSRC)
	@$(TOOLS)/apply-patches.sh $(ARM64_KSRC) $(PATCH_DIR) $(SERIES)
	@ARCH=arm64 $(TOOLS)/configure-kernel.sh $(ARM64_KSRC) $(ARM64_FRAGMENTS)
	@ARCH=arm64 $(TOOLS)/build-kernel.sh $(ARM64_KSRC)

initramfs-arm64: kernel-arm64
	@SCENARIO_DIR=$(SCENARIO_DIR) $(TOOLS)/initramfs-arm64.sh $(ARM64_KSRC) $(ARM64_INITRAMFS)

test-arm64: deps initramfs-arm64
	@tests/arm64/run.sh $(ARM64_KSRC)/arch/arm64/boot/Image $(ARM64_INITRAMFS) out/arm64

# The persistent buffer on arm64 (docs/crash.md): QEMU virt's reset keeps
# RAM, so the persist scenario runs as on x86 (about 25 s): a workload, an
# oops, panic=1's reset, and the second boot's lkbuf read --previous-boot
# checked by tests/check/persist.py.  The provoked oops is the only one
# the console may show.
.PHONY: persist-arm64
persist-arm64: initramfs-arm64
	@rm -rf out/persist-arm64
	@ARCH=arm64 KERNEL=$(ARM64_KSRC)/arch/arm64/boot/Image INITRD=$(ARM64_INITRAMFS) \
		TIMEOUT=600 REBOOT=1 CHECK_CONSOLE_IGNORE='Internal error: Oops: |Kernel panic - not syncing: Oops: Fatal exception' \
		APPEND="reserve_mem=16M:4096:lkst lkst.persist=lkst panic=1 lkst_hostname=lkst-b lkst_run=persist" \
		tests/qemu/run.sh out/persist-arm64
	@[ "$$(grep -c 'Internal error: Oops: ' out/persist-arm64/console.log)" = 1 ] || \
		{ echo "persist-arm64: not exactly the one provoked oops on the console" >&2; exit 1; }
	@python3 tests/check/persist.py out/persist-arm64/persist

# Regenerate the core patch from kernel/ and make sure the series starts with it.
patches: events
	@$(TOOLS)/gen-core-patch.sh $(CURDIR)/kernel $(PATCH_DIR)/$(CORE_PATCH)
	@$(TOOLS)/series-add.sh $(PATCH_DIR)/series $(CORE_PATCH)

utils:
	$(MAKE) -C utils
	$(MAKE) -C utils static

# lkst.ko and the handlers for a kernel without the patch (docs/stock.md):
# stock-module builds them in build/stock/src for KVER's headers (default:
# the running kernel); dkms-install adds, builds and installs them with DKMS
# (root), which rebuilds them for every kernel installed later; test-stock
# boots Debian's stock kernel with them (tests/stock/run.sh).
KVER ?= $(shell uname -r)
STOCK_SRC := $(CURDIR)/build/stock/src
stock-module:
	@tools/dkms/mk-src.sh $(STOCK_SRC) >/dev/null
	@$(MAKE) -s -C /lib/modules/$(KVER)/build M=$(STOCK_SRC) modules
	@echo "  STOCK   $(STOCK_SRC)/lkst.ko for $(KVER)"

dkms-install:
	@ver=$$(tools/dkms/mk-src.sh $(STOCK_SRC)) && \
	rm -rf /usr/src/lkst-$$ver && cp -a $(STOCK_SRC) /usr/src/lkst-$$ver && \
	{ dkms status -m lkst -v $$ver | grep -q . || dkms add -m lkst -v $$ver; } && \
	dkms build -m lkst -v $$ver -k $(KVER) && \
	dkms install -m lkst -v $$ver -k $(KVER)

test-stock:
	@tests/stock/run.sh out/stock

# lkst.ko vs ftrace on the same tracepoints of the stock kernel, per event,
# under icount (tests/stock/stock_bench.sh).
bench-stock:
	@STOCK_RUN=stock_bench QEMU_EXTRA="-icount shift=0,sleep=off" \
		tests/stock/run.sh out/bench-stock

# The host programs: lkm, lkbuf, their man pages and liblkst (libraries,
# headers, pkg-config file) (utils), lkst-procstate,
# lkst-pagemap and their gnuplot scripts (tools/visualize).  PREFIX
# (/usr/local) and DESTDIR reach both through the command line or the
# environment; uninstall removes exactly what install put there.
install uninstall:
	$(MAKE) -C utils $@
	$(MAKE) -C tools/visualize $@

handlers: $(KERNEL_DEP)
ifneq ($(HAVE_HANDLERS),)
	@$(TOOLS)/kmake.sh $(KBUILD_DIR) M=$(CURDIR)/handlers modules
	@$(TOOLS)/kmake.sh $(KBUILD_DIR) M=$(CURDIR)/tests/modules modules
else
	@echo "  HANDLERS none (no handlers/Kbuild or handlers/Makefile)"
endif

initramfs: utils handlers
	@SCENARIO_DIR=$(SCENARIO_DIR) $(TOOLS)/mk-initramfs.sh $(INITRAMFS)

# The test initramfs plus the kdump capture kernel and its initramfs.
initramfs-kdump: kernel initramfs
	@$(TOOLS)/mk-kdump-initramfs.sh $(INITRAMFS) $(BZIMAGE) $(CURDIR)/build/initramfs-kdump.cpio.gz

demo: deps kernel utils handlers initramfs
	@rm -rf out/demo
	@KERNEL=$(BZIMAGE) INITRD=$(INITRAMFS) APPEND="lkst_run=demo" TIMEOUT=$(QEMU_TIMEOUT) \
		tests/qemu/run.sh out/demo
	@tour=out/demo/demo/tour.txt; \
	if [ -f $$tour ]; then echo "----- the tour ($$tour) -----"; cat $$tour; \
	else echo "demo: $$tour was not produced; see out/demo/demo/output.txt" >&2; exit 1; fi
	@csv=out/demo/demo/trace.csv; \
	if [ -f $$csv ]; then \
		echo "----- $$csv (first 40 lines) -----"; head -n 40 $$csv; \
		echo "----- $$(wc -l < $$csv) lines in $$csv -----"; \
	else echo "demo: $$csv was not produced; see out/demo/demo/output.txt" >&2; exit 1; fi
	@$(MAKE) -s -C tools/visualize
	@tools/visualize/lkst-procstate -f out/demo/demo/trace.log -n 'lkw-*' \
		-o out/demo/procstate.png --summary
	@echo "----- process states drawn in out/demo/procstate.png -----"
	@tools/visualize/lkst-pagemap -f out/demo/demo/pages.log -n lkw-pages \
		-o out/demo/pagemap.png --summary
	@echo "----- physical pages of lkw-pages drawn in out/demo/pagemap.png -----"

test: deps
	@tests/run-all.sh

# make test's scenario boot in a shuffled order (tests/shuffle.sh): defects
# that need another scenario before them.  SEED=N repeats an order.
.PHONY: test-shuffle
test-shuffle: deps initramfs
	@tests/shuffle.sh $(SEED)

# The fleet test (docs/fleet.md): the guest logs of a test run (FLEET_OUT,
# default out/test) as SQLite databases, and shipped into two
# clickhouse-server instances it starts itself; tests/run-all.sh runs it
# after its boots.
.PHONY: test-fleet
FLEET_OUT ?= out/test
test-fleet:
	@$(MAKE) -s -C utils lkbuf
	@python3 tests/fleet/fleet.py utils/lkbuf $(FLEET_OUT) $(FLEET_OUT)/fleet

# The long torture run, not part of make test: TORTURE_CYCLES cycles of
# t98_torture (about 2.1 s each under emulation: 1000 took 35 minutes)
# on the test kernel, then its checker.  ARCH=arm64: on the arm64 kernel,
# booted with pseudo-NMIs (irqchip.gicv3_pseudo_nmi=1) while
# lkst_perfnmi's PMU sampling NMIs fire, so that hooks also run in NMI
# context (the checker counts their records); 40 cycles by default.
TORTURE_SCENARIOS := $(CURDIR)/build/torture-scenarios
ifeq ($(ARCH),arm64)
TORTURE_CYCLES ?= 40
TORTURE_DEPS   := deps kernel-arm64
TORTURE_SCEN   := $(TORTURE_SCENARIOS)-arm64
TORTURE_RD     := $(CURDIR)/build/initramfs-torture-arm64.cpio.gz
TORTURE_MKRD   := $(TOOLS)/initramfs-arm64.sh $(ARM64_KSRC) $(TORTURE_RD)
TORTURE_BOOT   := ARCH=arm64 KERNEL=$(ARM64_KSRC)/arch/arm64/boot/Image
TORTURE_APPEND := irqchip.gicv3_pseudo_nmi=1
TORTURE_SECS   := 15
TORTURE_OUT    := out/torture-arm64
else
TORTURE_CYCLES ?= 1000
TORTURE_DEPS   := deps kernel utils handlers
TORTURE_SCEN   := $(TORTURE_SCENARIOS)
TORTURE_RD     := build/initramfs-torture.cpio.gz
TORTURE_MKRD   := $(TOOLS)/mk-initramfs.sh $(TORTURE_RD)
TORTURE_BOOT   := KERNEL=$(BZIMAGE)
TORTURE_APPEND :=
TORTURE_SECS   := 6
TORTURE_OUT    := out/torture
endif
torture: $(TORTURE_DEPS)
	@rm -rf $(TORTURE_SCEN) && cp -a tests/scenarios $(TORTURE_SCEN)
	@echo $(TORTURE_CYCLES) >$(TORTURE_SCEN)/torture_cycles
	@SCENARIO_DIR=$(TORTURE_SCEN) $(TORTURE_MKRD)
	@rm -rf $(TORTURE_OUT)
	@$(TORTURE_BOOT) INITRD=$(TORTURE_RD) \
		APPEND="lkst.maskset=rdefault lkst.bufsize=512K $(TORTURE_APPEND) lkst_timeout=$$(( $(TORTURE_CYCLES) * $(TORTURE_SECS) + 300 )) lkst_run=t98_torture" \
		TIMEOUT=$$(( $(TORTURE_CYCLES) * $(TORTURE_SECS) + 600 )) tests/qemu/run.sh $(TORTURE_OUT)
	@python3 tests/check/t98_torture.py $(TORTURE_OUT)/t98_torture
	@tests/qemu/check-console.sh $(TORTURE_OUT)/console.log
	@grep -h . $(TORTURE_OUT)/t98_torture/hardening.txt

# Benchmarks print figures; they assert nothing (docs/benchmarks.md).
# Two kernels of one configuration, no lockdep: pristine 6.12 and the
# series.  Each boots once with -icount shift=0 (guest ns = instructions)
# and once without (TCG wall clock, a cross-check), runs
# tests/scenarios/bench_suite.sh, and tools/bench/report.py writes
# out/bench/results.md and out/bench/overhead.png.  Host: the native write
# path and lkbuf print's throughput.  tools/bench/hook-cost.py lists the
# hooked functions whose prologue saves more registers or takes a bigger
# frame than the pristine kernel's (out/bench/hook-cost.txt).
# The two icount boots run side by side (their figures count instructions,
# which the host's load does not change); the wall boots one at a time.
# BENCH_REPS: repetitions (3; icount repeats within a few per cent).
BENCH_FRAGMENTS := configs/guest.config configs/ftrace.config configs/peers.config
BENCH_LKST_KSRC := $(CURDIR)/build/linux-6.12-bench
BENCH_VANILLA_KSRC := $(CURDIR)/build/linux-6.12-vanilla
BENCH_REPS ?= 3
# One bench guest, for $$k (vanilla or lkst) and $$clock: 2G, as bpftrace's
# output file lives on the guest's tmpfs.
BENCH_GUEST = ksrc=$(BENCH_VANILLA_KSRC); [ $$k = lkst ] && ksrc=$(BENCH_LKST_KSRC); \
	MEM=2G SCRATCH_SIZE=256M tools/bench/run-guest.sh $$ksrc/arch/x86/boot/bzImage \
	$(BENCH_INITRAMFS) out/bench/$$k-$$clock $$clock $(BENCH_REPS)
kernel-bench:
	@$(TOOLS)/extract-kernel.sh $(TARBALL) $(BENCH_LKST_KSRC)
	@$(TOOLS)/apply-patches.sh $(BENCH_LKST_KSRC) $(PATCH_DIR) $(SERIES)
	@$(TOOLS)/configure-kernel.sh $(BENCH_LKST_KSRC) $(BENCH_FRAGMENTS) configs/bench.config
	@$(TOOLS)/build-kernel.sh $(BENCH_LKST_KSRC)
	@$(TOOLS)/extract-kernel.sh $(TARBALL) $(BENCH_VANILLA_KSRC)
	@$(TOOLS)/configure-kernel.sh $(BENCH_VANILLA_KSRC) $(BENCH_FRAGMENTS)
	@$(TOOLS)/build-kernel.sh $(BENCH_VANILLA_KSRC)

# The handler modules built for the bench kernel, in an initramfs of their own,
# with the peers (tests/scenarios/peers.inc): Debian's perf and trace-cmd with
# their libraries, bpfrec (tools/bench/bpfrec, static), and bpftrace with the
# few kernel headers it compiles its programs with (bpftrace-headers.sh).
BENCH_HANDLERS  := $(CURDIR)/build/handlers-bench
BENCH_INITRAMFS := $(CURDIR)/build/initramfs-bench.cpio.gz
BENCH_PEERS     := $(CURDIR)/build/bench-peers
BENCH_PEER_BINS := perf trace-cmd bpftrace
initramfs-bench: kernel-bench utils
	@rm -rf $(BENCH_HANDLERS) && mkdir -p $(BENCH_HANDLERS)/none
	@cp handlers/*.c handlers/*.h handlers/Kbuild $(BENCH_HANDLERS)/
	@$(TOOLS)/kmake.sh $(BENCH_LKST_KSRC) M=$(BENCH_HANDLERS) modules
	@rm -rf $(BENCH_PEERS) && mkdir -p $(BENCH_PEERS)/build && \
		tools/bench/guest-binaries.sh $(BENCH_PEERS)/root $(BENCH_PEER_BINS) && \
		$(MAKE) -s -C tools/bench/bpfrec O=$(BENCH_PEERS)/build && \
		cp $(BENCH_PEERS)/build/bpfrec $(BENCH_PEERS)/root/bin/ && \
		mkdir -p $(BENCH_PEERS)/root/usr/share/lkst/bpftrace && \
		cp tools/bench/bpftrace/*.bt $(BENCH_PEERS)/root/usr/share/lkst/bpftrace/ && \
		tools/bench/bpftrace-headers.sh $(BENCH_LKST_KSRC) $(BENCH_PEERS)/root/usr/src/lkst-headers
	@HANDLERS_DIR=$(BENCH_HANDLERS) TESTMODS_DIR=$(BENCH_HANDLERS)/none \
		EXTRA_ROOT=$(BENCH_PEERS)/root \
		SCENARIO_DIR=$(SCENARIO_DIR) $(TOOLS)/mk-initramfs.sh $(BENCH_INITRAMFS)

bench: deps utils initramfs-bench
	@rm -rf out/bench && mkdir -p out/bench
	$(MAKE) -s -C tests/host bench | tee out/bench/native.txt
	$(MAKE) -s -C utils bench BENCH_RECORDS=10000000 | tee out/bench/userland.txt
	@$(MAKE) -s -C tools/visualize
	@utils/gen_log out/bench/10m.log 10000000 2 && \
		/usr/bin/time -f "lkst-procstate --summary on 10000000 records: %e s, peak %M KiB" \
		tools/visualize/lkst-procstate -f out/bench/10m.log -o out/bench/procstate-10m.png \
		--summary 2>&1 >/dev/null | tee -a out/bench/userland.txt; rm -f out/bench/10m.log
	@pids=; clock=icount; for k in vanilla lkst; do \
		($(BENCH_GUEST)) >out/bench/$$k-icount.txt 2>&1 & pids="$$pids $$!"; \
	done; rc=0; for p in $$pids; do wait $$p || rc=1; done; \
	tail -n 2 out/bench/vanilla-icount.txt out/bench/lkst-icount.txt; [ $$rc = 0 ]
	@clock=wall; for k in vanilla lkst; do ($(BENCH_GUEST)) || exit 1; done
	@tools/bench/userside.sh out/bench/lkst-icount/bench_suite | tee -a out/bench/userland.txt
	@tools/bench/lttng.sh $(BENCH_LKST_KSRC) out/bench/lttng.txt
	@python3 tools/bench/hook-cost.py $(BENCH_LKST_KSRC)/vmlinux $(BENCH_VANILLA_KSRC)/vmlinux \
		| tee out/bench/hook-cost.txt | tail -n 1
	@python3 tools/bench/report.py out/bench

# What pieces of the write path cost, by bench kernels with one taken out.
bench-ablate: deps utils initramfs-bench
	@tools/bench/ablate.sh out/bench-ablate

# The arm64 bench (issue 33): make bench's icount half on arm64.  Two
# kernels of one configuration (tools/bench/kernels-arm64.sh: pristine 6.12
# and the series, guest + ftrace + arm64 fragments), each booted once under
# qemu-system-aarch64 -icount shift=0,sleep=off with the same suite, and
# tools/bench/report-arm64.py's figures in out/bench-arm64/results.md, with
# hook-cost.py's prologue count (out/bench-arm64/hook-cost.txt).
# BENCH_ARM64_REPS: repetitions (3: arm64 TCG is slower than x86's).
BENCH_ARM64_REPS ?= 3
BENCH_ARM64_INITRAMFS := $(CURDIR)/build/initramfs-arm64-bench.cpio.gz
.PHONY: bench-arm64
bench-arm64: deps
	@tools/bench/kernels-arm64.sh $(TARBALL) $(PATCH_DIR) $(SERIES)
	@$(TOOLS)/initramfs-arm64.sh --bench build/linux-6.12-arm64-bench $(BENCH_ARM64_INITRAMFS)
	@rm -rf out/bench-arm64 && mkdir -p out/bench-arm64
	@for k in vanilla bench; do \
		ARCH=arm64 tools/bench/run-guest.sh build/linux-6.12-arm64-$$k/arch/arm64/boot/Image \
			$(BENCH_ARM64_INITRAMFS) out/bench-arm64/$${k/bench/lkst}-icount icount \
			$(BENCH_ARM64_REPS) || exit 1; \
	done
	@python3 tools/bench/hook-cost.py build/linux-6.12-arm64-bench/vmlinux \
		build/linux-6.12-arm64-vanilla/vmlinux | tee out/bench-arm64/hook-cost.txt | tail -n 1
	@python3 tools/bench/report-arm64.py out/bench-arm64 | tee out/bench-arm64/results.md

checkpatch: kernel-tree
	@$(TOOLS)/checkpatch.sh $(KSRC) $(PATCH_DIR) $(SERIES)

# The generated parts of lkst_events.h (enum, argument counts, table), made
# from the event definitions, kernel/kernel/lkst/events.def.
events:
	@python3 $(TOOLS)/gen-event-table.py

# System call, errno and flag names (utils/lkst_sysnames_gen.h), made from
# the kernel tree's own tables; committed, so utils builds without a tree.
sysnames:
	@python3 $(TOOLS)/gen-sysnames.py $(KSRC)

# The events reference, generated from the event definitions and the hook
# sites of the patched tree (make test fails when the committed copy is stale).
docs: kernel-tree
	@mkdir -p docs
	@python3 $(TOOLS)/gen-events-doc.py $(KSRC) $(PATCH_DIR) $(SERIES) > docs/events.md.tmp
	@mv docs/events.md.tmp docs/events.md
	@echo "  GEN     docs/events.md"

# Hook sites the compiler emitted: jump-table entries of lkst_event_keys.
count-hooks: kernel
	@python3 $(TOOLS)/count-hooks.py $(KBUILD_DIR)/vmlinux $(if $(LIST),--list)

# print-VAR: lets scripts ask for a variable, e.g. make -s print-BZIMAGE
print-%:
	@echo '$($*)'

clean:
	-@[ ! -f utils/Makefile ] || $(MAKE) -C utils clean
	-@[ -z "$(HAVE_HANDLERS)" ] || [ ! -f $(KBUILD_DIR)/Makefile ] || \
		$(TOOLS)/kmake.sh $(KBUILD_DIR) M=$(CURDIR)/handlers clean
	-@[ ! -f $(KBUILD_DIR)/Makefile ] || \
		$(TOOLS)/kmake.sh $(KBUILD_DIR) M=$(CURDIR)/tests/modules clean
	rm -rf out

distclean: clean
	rm -rf build
