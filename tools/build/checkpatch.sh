#!/bin/bash
# Run the kernel's checkpatch.pl on every patch in a quilt series and on
# the handler and test modules' sources; fail on any ERROR or WARNING. It runs inside the kernel tree so checkpatch finds
# its spelling.txt/const_structs.checkpatch data.  No check is ignored:
# the core patch adds its MAINTAINERS entry along with its new files.
set -euo pipefail
ksrc=$(realpath "${1:?usage: checkpatch.sh KSRC PATCHES_DIR SERIES}")
pdir=$(realpath "${2:?usage: checkpatch.sh KSRC PATCHES_DIR SERIES}")
series=${3:?usage: checkpatch.sh KSRC PATCHES_DIR SERIES}

[ -x "$ksrc/scripts/checkpatch.pl" ] || [ -f "$ksrc/scripts/checkpatch.pl" ] ||
	{ echo "checkpatch: $ksrc/scripts/checkpatch.pl not found" >&2; exit 1; }
bad=0 n=0
for p in $(sed -e 's/#.*//' "$series" | awk 'NF { print $1 }'); do
	n=$((n + 1))
	if out=$(cd "$ksrc" && perl scripts/checkpatch.pl --no-signoff -q "$pdir/$p" 2>&1) &&
	   ! grep -qE '^(ERROR|WARNING):' <<<"$out"; then
		echo "  CHECKPATCH $p: clean"
	else
		echo "  CHECKPATCH $p: problems"
		sed 's/^/    /' <<<"$out"
		bad=1
	fi
done
[ $n -gt 0 ] || echo "  CHECKPATCH series is empty"
# Out-of-tree kernel code: the handler modules and the test modules.
repo=$(realpath "$(dirname "$0")/../..")
for f in $(cd "$repo" && git ls-files 'handlers/*.[ch]' 'tests/modules/*.[ch]' 2>/dev/null); do
	if out=$(cd "$ksrc" && perl scripts/checkpatch.pl --no-tree -q -f "$repo/$f" 2>&1) &&
	   ! grep -qE '^(ERROR|WARNING):' <<<"$out"; then
		echo "  CHECKPATCH $f: clean"
	else
		echo "  CHECKPATCH $f: problems"
		sed 's/^/    /' <<<"$out"
		bad=1
	fi
done
exit $bad
