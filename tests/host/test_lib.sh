#!/bin/sh
# liblkst never exits and exports only its documented surface:
#   - no object of utils/liblkst.a refers to exit, _exit, _Exit, abort,
#     quick_exit or lkst_die (nm -u); and the check itself is shown to
#     catch one: an object calling exit() added to a copy of the archive
#     must fail it;
#   - utils/liblkst.so.0 has soname liblkst.so.0 and defines only lkst_*
#     symbols, each at a version node of liblkst.map (nm -D, objdump -T;
#     which one, liblkst.abi says), each
#     declared in a header lkst.h names (not the CLI's, not the kernel
#     buffer code's lkst_buf_*);
#   - no object of the library uses libpopt or /dev/lkst's CLI half;
#   - nor prints on its own: no object refers to stderr or the functions
#     that print to stdout, and only the writers of a path "-" (the log
#     writer, the JSON exporter) to stdout;
#   - every exported function links from C++ (the public headers'
#     extern "C"), and every public header that declares one has it;
#   - the ABI (lkst_abi.sh: soname, symbols and their versions, sizes of
#     the public structs) is the committed liblkst.abi, and the check
#     catches a change;
#   - man3/ has a page for every exported function and none for anything
#     a public header does not declare, and groff renders them cleanly;
#   - test_lib_threads, under helgrind when valgrind is installed: no race.
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

# The shared library: soname, only lkst_* defined, at a node of liblkst.map.
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
other=$(grep -v -e '^lkst_' -e '^LKST_[0-9]*$' "$tmp/defined")
if [ -z "$other" ]; then ok; else fail "liblkst.so.0 exports non-lkst symbols: $other"; fi
# objdump -T: defined dynamic symbols (not *UND*) and their versions.
objdump -T "$so" | awk '$0 ~ /DF|DO/ && $0 !~ /\*UND\*/ { print $(NF-1), $NF }' >"$tmp/versions"
# wrong: a symbol at no node of the map (liblkst.abi holds each one's node).
nodes=$(sed -n 's/^\(LKST_[0-9]*\) {.*/\1/p' "$dir/liblkst.map" | tr '\n' '|')
wrong="\$2 !~ /^LKST_/ && \$1 !~ /^(${nodes%|})\$/"
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

# ---- No output of its own -------------------------------------------------
# printed ARCHIVE: "object: symbol" for each reference to the terminal.
printed() {
	(cd "$tmp" && rm -rf p && mkdir p && cd p && ar x "$1" &&
	 for o in *.o; do
		nm -u "$o" | awk -v o="$o" '{ print o ": " $NF }'
	 done) | grep -E ': (stderr|perror|printf|vprintf|puts|putchar|__printf_chk|__vprintf_chk|stdout)(@.*)?$' |
		grep -vE '^(lkst_logwrite|lkst_export_json_write)\.o: stdout'
}
bad=$(printed "$abs")
if [ -z "$bad" ]; then ok; else fail "liblkst.a objects that print on their own: $bad"; fi
printf '#include <stdio.h>\nvoid lkst_noisy(void);\nvoid lkst_noisy(void) { fprintf(stderr, "50%%\\n"); }\n' \
	>"$tmp/lkst_noisy.c"
cp "$abs" "$tmp/noisy.a"
if ${CC:-cc} -c -o "$tmp/lkst_noisy.o" "$tmp/lkst_noisy.c" && ar q "$tmp/noisy.a" "$tmp/lkst_noisy.o" &&
   printed "$tmp/noisy.a" | grep -q '^lkst_noisy.o: stderr$'; then ok; else
	fail "the nm -u check does not see stderr in an added object"
fi

# ---- C++ -------------------------------------------------------------------
inc="-I$dir/../kernel/include/uapi -I$dir/../handlers -I$dir"
for h in $hdrs ../handlers/lkst_filter.h; do
	if grep -qE '^[a-z].*lkst_[a-z0-9_]+\(' "$dir/$h" && ! grep -q 'extern "C"' "$dir/$h"; then
		fail "$h declares functions without extern \"C\""
	else ok; fi
done
if command -v "${CXX:-c++}" >/dev/null; then
	# Every exported function's address taken from C++, linked with the library.
	{
		echo '#include "lkst.h"'
		echo 'int main() {'
		echo '	const void *volatile p;'
		nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
			sort -u | sed 's/.*/	p = (const void *)\&&;/'
		echo '	(void)p;'
		echo '	return 0;'
		echo '}'
	} >"$tmp/cxx.cc"
	if "${CXX:-c++}" -std=c++17 $inc -o "$tmp/cxx" "$tmp/cxx.cc" -L"$dir" -llkst \
	   >"$tmp/cxx.log" 2>&1; then ok; else
		fail "a C++ program cannot link liblkst's functions: $(grep -m3 -E 'undefined|error' "$tmp/cxx.log")"
	fi
else
	echo "note: no C++ compiler, the C++ link is not checked"
fi

# ---- ABI ---------------------------------------------------------------------
# abi_diff LIST: how the library differs from LIST, nothing when it does not.
abi_diff() {
	CC=${CC:-cc} sh "$dir/lkst_abi.sh" "$dir" >"$tmp/abi.now" 2>"$tmp/abi.err" ||
		{ echo "lkst_abi.sh failed: $(cat "$tmp/abi.err")"; return; }
	diff "$1" "$tmp/abi.now"
}
if [ -f "$dir/liblkst.abi" ]; then
	d=$(abi_diff "$dir/liblkst.abi")
	if [ -z "$d" ]; then ok; else
		fail "liblkst's ABI is not liblkst.abi (< listed, > built); if the change is meant, follow docs/library.md (ABI changes), then make -C utils abi:
$d"
	fi
	# The check sees a size that changed and a symbol that went.
	sed -e 's/^size struct lkst_err [0-9]*$/size struct lkst_err 1/' \
	    -e '/^symbol lkst_trace_open /d' "$dir/liblkst.abi" >"$tmp/abi.changed"
	d=$(abi_diff "$tmp/abi.changed")
	if printf '%s\n' "$d" | grep -q '^> size struct lkst_err ' &&
	   printf '%s\n' "$d" | grep -q '^> symbol lkst_trace_open '; then ok; else
		fail "the ABI check does not see a changed size or symbol"
	fi
else
	fail "$dir/liblkst.abi missing"
fi

# ---- man3 --------------------------------------------------------------------
python3 "$dir/gen-man3.py" --list $(for h in $hdrs ../handlers/lkst_filter.h; do echo "$dir/$h"; done) |
	awk '{ print $1 }' | sort -u >"$tmp/declared"
nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u >"$tmp/functions"
# man_diff MAN3DIR: "missing NAME" and "stray NAME" lines.
man_diff() {
	ls "$1" | sed -n 's/\.3$//p' | sort >"$tmp/pages"
	comm -23 "$tmp/functions" "$tmp/pages" | sed 's/^/missing /'
	comm -13 "$tmp/declared" "$tmp/pages" | sed 's/^/stray /'
}
if [ -d "$dir/man3" ]; then
	d=$(man_diff "$dir/man3")
	if [ -z "$d" ]; then ok; else fail "man3 pages against the exported functions: $d"; fi
	rm -rf "$tmp/m3" && cp -r "$dir/man3" "$tmp/m3" &&
		cp "$tmp/m3/lkst_trace_open.3" "$tmp/m3/lkst_no_such.3" && rm "$tmp/m3/lkst_trace_next.3"
	d=$(man_diff "$tmp/m3")
	if printf '%s\n' "$d" | grep -q '^stray lkst_no_such$' &&
	   printf '%s\n' "$d" | grep -q '^missing lkst_trace_next$'; then ok; else
		fail "the man3 check does not see a stray or a missing page"
	fi
	if command -v groff >/dev/null; then
		w=$(for f in "$dir"/man3/*.3; do groff -man -ww -z "$f" 2>&1; done | head -5)
		if [ -z "$w" ]; then ok; else fail "groff warns on man3 pages: $w"; fi
	fi
	if grep -q 'lkst_trace_open(const char \*path' "$dir/man3/lkst_trace_open.3"; then ok; else
		fail "man3/lkst_trace_open.3 lacks its synopsis"
	fi
else
	fail "$dir/man3 missing (make -C utils man3)"
fi

# ---- Threads -----------------------------------------------------------------
if [ -x "$dir/test_lib_threads" ] && command -v valgrind >/dev/null; then
	if valgrind --tool=helgrind -q --error-exitcode=9 "$dir/test_lib_threads" \
	   >"$tmp/hg.log" 2>&1; then ok; else
		fail "test_lib_threads under helgrind: $(grep -m5 -E 'Possible data race|FAIL|failed' "$tmp/hg.log")"
	fi
elif [ -x "$dir/test_lib_threads" ]; then
	echo "note: valgrind is not installed; test_lib_threads runs without helgrind"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
