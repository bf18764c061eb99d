#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# liblkst's ABI as text, for the committed list liblkst.abi:
#   soname NAME
#   symbol NAME VERSION KIND each defined dynamic symbol of liblkst.so.0
#                            (KIND: function, data or tls)
#   size struct NAME BYTES   each struct a public header defines (nested
#                            ones too), as a program compiled against the
#                            headers sees it
# sorted, so that a diff shows what changed.  Usage: lkst_abi.sh [UTILS_DIR]
# (make -C utils abi writes liblkst.abi with it; tests/host/test_lib.sh
# compares).  The public headers are those lkst.h includes, the ones they
# include, and handlers/lkst_filter.h.
set -eu
dir=${1:-.}
so=$dir/liblkst.so.0
CC=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -f "$so" ] || { echo "lkst_abi.sh: $so missing (make -C utils lib)" >&2; exit 1; }
objdump -p "$so" | awk '$1 == "SONAME" { print "soname", $2 }'
# Defined dynamic symbols, not the version nodes (*ABS*): name, version
# and kind (a function, data, or per-thread data).
objdump -T "$so" | awk '$0 ~ / D[FO ]? / && $0 !~ /\*UND\*|\*ABS\*/ {
	kind = $0 ~ / DF / ? "function" : $0 ~ /\.t(data|bss)/ ? "tls" : "data"
	print "symbol", $NF, $(NF-1), kind }' | LC_ALL=C sort

hdrs="$(sed -n 's/^#include "\(.*\)"$/\1/p' "$dir/lkst.h") ../handlers/lkst_filter.h"
hdrs="$hdrs $(cd "$dir" && ls ../kernel/include/uapi/linux/lkst_*.h)"
{
	echo '#include <stdio.h>'
	echo '#include "lkst.h"'
	echo 'int main(void)'
	echo '{'
	for h in $hdrs; do
		sed -n 's/^[ \t]*struct \(lkst_[a-z0-9_]*\) {.*/\1/p' "$dir/$h"
	done | LC_ALL=C sort -u | while read -r s; do
		printf '\tprintf("size struct %s %%zu\\n", sizeof(struct %s));\n' "$s" "$s"
	done
	echo '	return 0;'
	echo '}'
} >"$tmp/sizes.c"
$CC -I"$dir/../kernel/include/uapi" -I"$dir/../handlers" -I"$dir" -D_GNU_SOURCE \
	-o "$tmp/sizes" "$tmp/sizes.c"
"$tmp/sizes" | LC_ALL=C sort
