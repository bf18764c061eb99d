#!/bin/bash
# The kernel headers bpftrace needs in the bench guest, and no more: with
# no BTF, bpftrace compiles each program with the kernel's headers
# (BPFTRACE_KERNEL_SOURCE) and always includes <linux/types.h> with
# <linux/kconfig.h> (its clang_workarounds.h), which the tracepoints'
# argument structs it makes from their formats also need.  This copies
# those headers' closure, as clang finds it with bpftrace's include flags
# in the bench kernel's tree KSRC, into DEST at the same relative paths
# (a few hundred KiB, where the tree's include/ is tens of MiB).
#
# usage: bpftrace-headers.sh KSRC DEST
set -euo pipefail
ksrc=$(realpath "${1:?usage: bpftrace-headers.sh KSRC DEST}")
dest=${2:?usage: bpftrace-headers.sh KSRC DEST}
arch=x86
flags=(-nostdinc -D__KERNEL__ -D__BPF_TRACING__ -D__HAVE_BUILTIN_BSWAP16__
	-D__HAVE_BUILTIN_BSWAP32__ -D__HAVE_BUILTIN_BSWAP64__ -DKBUILD_MODNAME='"bpftrace"'
	-D__TARGET_ARCH_$arch
	-I"$ksrc/arch/$arch/include" -I"$ksrc/arch/$arch/include/generated"
	-I"$ksrc/include" -I"$ksrc/arch/$arch/include/uapi"
	-I"$ksrc/arch/$arch/include/generated/uapi" -I"$ksrc/include/uapi"
	-I"$ksrc/include/generated/uapi" -include "$ksrc/include/linux/kconfig.h")
deps=$(echo '#include <linux/types.h>' |
	clang "${flags[@]}" -x c -M -MT x - | sed 's/^x://; s/\\$//' | tr ' ' '\n' | grep "^$ksrc/")
rm -rf "$dest"
for f in $deps; do
	rel=${f#"$ksrc"/}
	mkdir -p "$dest/$(dirname "$rel")"
	cp "$f" "$dest/$rel"
done
echo "  HEADERS $(echo "$deps" | wc -l) kernel headers for bpftrace in $dest"
