#!/bin/bash
# The scenarios make test runs in its one scenario boot, in their order
# (t00_boot first: it reads what the boot itself recorded).  The others
# need a boot of their own (panic, persist, kdump, boot options, ...) or
# are not tests (demo, the bench suite).
cd "$(dirname "$0")/scenarios" || exit 1
ls -1 ./*.sh | sed 's|^\./||; s/\.sh$//' | LC_ALL=C sort |
	grep -vx -e demo -e bench_suite -e bench_bpftrace -e panic -e persist -e kdump \
		-e late_cpu -e oops_handler -e lockdown -e boot_options -e agg_memory -e compat32
