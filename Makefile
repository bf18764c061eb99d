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
KCONFIG_FRAGMENTS ?= configs/guest.config configs/lkst.config configs/debug.config
BZIMAGE    := $(KBUILD_DIR)/arch/x86/boot/bzImage
INITRAMFS  ?= $(CURDIR)/build/initramfs.cpio.gz
SCENARIO_DIR ?= $(CURDIR)/tests/scenarios
QEMU_TIMEOUT ?= 300
HAVE_HANDLERS := $(wildcard handlers/Kbuild handlers/Makefile)
# tests/run-all.sh builds the kernel once and clears this to skip re-checking it.
KERNEL_DEP ?= kernel

.PHONY: all deps kernel kernel-tree patches utils handlers initramfs demo \
	test bench checkpatch clean distclean help

all: kernel utils handlers initramfs

help:
	@echo "targets: deps kernel patches utils handlers initramfs demo test bench checkpatch clean distclean"
	@echo "vars: KSRC=tree (skips extraction) SERIES=file KCONFIG_FRAGMENTS='...' QEMU_TIMEOUT=s"

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

# Regenerate the core patch from kernel/ and make sure the series starts with it.
patches:
	@$(TOOLS)/gen-core-patch.sh $(CURDIR)/kernel $(PATCH_DIR)/$(CORE_PATCH)
	@$(TOOLS)/series-add.sh $(PATCH_DIR)/series $(CORE_PATCH)

utils:
	$(MAKE) -C utils
	$(MAKE) -C utils static

handlers: $(KERNEL_DEP)
ifneq ($(HAVE_HANDLERS),)
	@$(TOOLS)/kmake.sh $(KBUILD_DIR) M=$(CURDIR)/handlers modules
else
	@echo "  HANDLERS none (no handlers/Kbuild or handlers/Makefile)"
endif

initramfs: utils handlers
	@SCENARIO_DIR=$(SCENARIO_DIR) $(TOOLS)/mk-initramfs.sh $(INITRAMFS)

demo: deps kernel utils handlers initramfs
	@rm -rf out/demo
	@KERNEL=$(BZIMAGE) INITRD=$(INITRAMFS) APPEND="lkst_run=demo" TIMEOUT=$(QEMU_TIMEOUT) \
		tests/qemu/run.sh out/demo
	@csv=out/demo/demo/trace.csv; \
	if [ -f $$csv ]; then \
		echo "----- $$csv (first 40 lines) -----"; head -n 40 $$csv; \
		echo "----- $$(wc -l < $$csv) lines in $$csv -----"; \
	else echo "demo: $$csv was not produced; see out/demo/demo/output.txt" >&2; exit 1; fi
	@$(MAKE) -s -C tools/visualize
	@tools/visualize/lkst-procstate -f out/demo/demo/trace.log -c lkw- \
		-o out/demo/procstate.png --summary
	@echo "----- process states drawn in out/demo/procstate.png -----"
	@tools/visualize/lkst-pagemap -f out/demo/demo/pages.log -c lkw-pages \
		-o out/demo/pagemap.png --summary
	@echo "----- physical pages of lkw-pages drawn in out/demo/pagemap.png -----"

test: deps
	@tests/run-all.sh

# Benchmarks print figures; they assert nothing.  Host: the buffer write
# path natively and lkbuf print's throughput.  Guest: a traced system
# call against an untraced one.
bench: deps kernel utils handlers initramfs
	$(MAKE) -C tests/host bench
	$(MAKE) -C utils bench
	@rm -rf out/bench
	@KERNEL=$(BZIMAGE) INITRD=$(INITRAMFS) APPEND="lkst_run=bench" TIMEOUT=$(QEMU_TIMEOUT) \
		tests/qemu/run.sh out/bench
	@cat out/bench/bench/output.txt

checkpatch: kernel-tree
	@$(TOOLS)/checkpatch.sh $(KSRC) $(PATCH_DIR) $(SERIES)

# print-VAR: lets scripts ask for a variable, e.g. make -s print-BZIMAGE
print-%:
	@echo '$($*)'

clean:
	-@[ ! -f utils/Makefile ] || $(MAKE) -C utils clean
	-@[ -z "$(HAVE_HANDLERS)" ] || [ ! -f $(KBUILD_DIR)/Makefile ] || \
		$(TOOLS)/kmake.sh $(KBUILD_DIR) M=$(CURDIR)/handlers clean
	rm -rf out

distclean: clean
	rm -rf build
