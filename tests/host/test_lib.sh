#!/bin/sh
# liblkst never exits and exports only its documented surface:
#   - no object of utils/liblkst.a refers to exit, _exit, _Exit, abort,
#     quick_exit or lkst_die (nm -u); and the check itself is shown to
#     catch one: an object calling exit() added to a copy of the archive
#     must fail it;
#   - utils/liblkst.so.0 has soname liblkst.so.0 and defines only lkst_*
#     symbols, the trace reader's (lkst_trace_*) at version LKST_1 and every
#     other one at LKST_0 (nm -D, objdump -T), each
#     declared in a header lkst.h names (not the CLI's, not the kernel
#     buffer code's lkst_buf_*);
#   - no object of the library uses libpopt or /dev/lkst's CLI half.
# Usage: test_lib.sh UTILS_DIR (make -C utils test runs it from utils/).
# Ends with "N passed, M failed".
set -u
dir=${1:-.}
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lib=$dir/liblkst.a
so=$dir/liblkst.so.0
FORBIDDEN='exit|_exit|_Exit|abort|quick_exit|lkst_die|lkst_die_errno'

# exits ARCHIVE: "object: symbol" for each forbidden undefined symbol.
exits() {
	(cd "$tmp" && rm -rf x && mkdir x && cd x && ar x "$1" &&
	 for o in *.o; do
		nm -u "$o" | awk -v o="$o" '{ print o ": " $NF }'
	 done) | grep -E ": ($FORBIDDEN)(@.*)?\$"
}

if [ ! -f "$lib" ] || [ ! -f "$so" ]; then
	fail "$lib or $so missing (make -C utils lib)"
	echo "$passed passed, $failed failed"
	exit 1
fi
abs=$(cd "$(dirname "$lib")" && pwd)/liblkst.a

n=$(ar t "$lib" | wc -l)
if [ "$n" -ge 10 ]; then ok; else fail "liblkst.a holds $n objects"; fi

bad=$(exits "$abs")
if [ -z "$bad" ]; then ok; else fail "liblkst.a objects that may exit: $bad"; fi

# The check catches a library object that exits.
cat >"$tmp/lkst_bad.c" <<'EOF'
#include <stdlib.h>
void lkst_bad(int code);
void lkst_bad(int code) { if (code) exit(code); }
EOF
cp "$abs" "$tmp/bad.a"
if ${CC:-cc} -c -o "$tmp/lkst_bad.o" "$tmp/lkst_bad.c" && ar q "$tmp/bad.a" "$tmp/lkst_bad.o" &&
   exits "$tmp/bad.a" | grep -q '^lkst_bad.o: exit$'; then ok; else
	fail "the nm -u check does not see exit() in an added object"
fi

# No CLI half inside: popt, the device and the messages that exit.
cli=$(cd "$tmp" && rm -rf y && mkdir y && cd y && ar x "$abs" &&
      nm -u *.o | grep -E ' (popt[A-Za-z]*|lkst_dev_[a-z_]*|lkst_progname|lkst_parse_options)$')
if [ -z "$cli" ]; then ok; else fail "liblkst.a refers to the CLI half: $cli"; fi

# The shared library: soname, only lkst_* defined, at LKST_0 or (the reader) LKST_1.
soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
if [ "$soname" = liblkst.so.0 ]; then ok; else fail "soname is '$soname'"; fi
nm -D --defined-only "$so" | awk '{ print $NF }' | sed 's/@.*//' >"$tmp/defined"
if grep -q '^lkst_trace_next$' "$tmp/defined" &&
   grep -q '^lkst_log_merge_next$' "$tmp/defined" &&
   grep -q '^lkst_format_record_buf$' "$tmp/defined" &&
   grep -q '^lkst_export_json$' "$tmp/defined"; then ok; else
	fail "liblkst.so.0 lacks the iterator, formatter or exporter"
fi
# nm -D --defined-only also lists the version nodes themselves (type A).
other=$(grep -v -e '^lkst_' -e '^LKST_[01]$' "$tmp/defined")
if [ -z "$other" ]; then ok; else fail "liblkst.so.0 exports non-lkst symbols: $other"; fi
# objdump -T: defined dynamic symbols (not *UND*) and their versions.
objdump -T "$so" | awk '$0 ~ /DF|DO/ && $0 !~ /\*UND\*/ { print $(NF-1), $NF }' >"$tmp/versions"
# wrong: a reader symbol not at LKST_1, or another not at LKST_0.
wrong='$2 !~ /^LKST_/ && ($2 ~ /^lkst_trace_/) != ($1 == "LKST_1") || $2 !~ /^LKST_/ && $1 != "LKST_0" && $1 != "LKST_1"'
if [ -s "$tmp/versions" ] && awk "$wrong { found = 1 } END { exit !found }" "$tmp/versions"; then
	fail "symbols at the wrong version: $(awk "$wrong" "$tmp/versions" | head -5)"
elif [ -s "$tmp/versions" ]; then ok; else fail "objdump -T shows no defined symbols"; fi
for s in lkst_die lkst_dev_open lkst_progname lkst_buf_write lkst_page_read; do
	if grep -q "^$s\$" "$tmp/defined"; then fail "liblkst.so.0 exports $s"; else ok; fi
done

# The documented surface: each exported name is in a header lkst.h includes.
hdrs=$(sed -n 's/^#include "\(.*\)"$/\1/p' "$dir/lkst.h")
undoc=
for s in $(grep '^lkst_' "$tmp/defined"); do
	found=
	for h in $hdrs; do
		if grep -qw "$s" "$dir/$h" 2>/dev/null; then found=1; break; fi
	done
	[ -n "$found" ] || undoc="$undoc $s"
done
if [ -z "$undoc" ]; then ok; else fail "exported but in no header of lkst.h:$undoc"; fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
