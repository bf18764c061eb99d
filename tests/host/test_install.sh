#!/bin/sh
# make install / make uninstall of the host programs, from the top of the
# repository into a DESTDIR with PREFIX=/usr:
#   - exactly the expected files and directories, with their modes, and
#     copies of the sources (nothing stray);
#   - the installed tools, run from another directory with the installed
#     bin first in PATH, print their --version; lkbuf prints a log made by
#     utils/gen_log; the visualizers draw PNGs from gen_log's log and
#     tools/visualize's mkpagelog log with their installed gnuplot scripts
#     (a broken or missing installed script makes them fail, so they do
#     not fall back to the source tree);
#   - liblkst: lib/liblkst.a, liblkst.so.0 (+ .so link), include/lkst/
#     and lib/pkgconfig/liblkst.pc; a small program built with
#     pkg-config --cflags --libs liblkst (--define-prefix into DESTDIR)
#     that loads gen_log's log, merges its records and prints them as CSV
#     prints what lkbuf print -C does, linked shared (LD_LIBRARY_PATH) and
#     static;
#   - man finds the installed pages by MANPATH and renders them without
#     warnings (groff -ww alone when man is missing);
#   - liblkst's man3 pages and its examples' sources (share/doc/liblkst);
#   - make uninstall removes all of it and nothing else.
# Run by tests/host/run_tests.sh (make -C utils test); works from any
# directory.  Ends with "N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
# The release, as utils/lkst_cli.h defines it once.
release=$(sed -n 's/^#define LKST_RELEASE[[:space:]]*"\(.*\)"$/\1/p' "$top/utils/lkst_cli.h")
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() {	# check DESCRIPTION COMMAND...
	what=$1; shift
	if "$@"; then ok; else fail "$what"; fi
}
is_png() {
	[ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
# show FILE: the tail of a log, indented, after a failure.
show() { tail -n 20 "$1" | sed 's/^/    | /'; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
run=$tmp/run		# the installed tools' working directory
mkdir -p "$run"
bin=$dest/usr/bin
data=$dest/usr/share/lkst
man1=$dest/usr/share/man/man1
TOOLS="lkm lkbuf lkst-procstate lkst-pagemap"

# The inputs, made with the source tree's writers.
if ! make -s -C "$top/utils" gen_log >"$tmp/build.log" 2>&1 ||
   ! make -s -C "$top/tools/visualize" obj/mkpagelog >>"$tmp/build.log" 2>&1 ||
   ! "$top/utils/gen_log" "$run/trace.log" 4000 2 >>"$tmp/build.log" 2>&1 ||
   ! "$top/tools/visualize/obj/mkpagelog" "$run/pages.log" >>"$tmp/build.log" 2>&1; then
	fail "building the test logs (gen_log, mkpagelog)"; show "$tmp/build.log"
fi

# ---- the default PREFIX is /usr/local ------------------------------------
# (MAKEFLAGS may carry a PREFIX given to the make that runs this test.)
env -u PREFIX -u MAKEFLAGS -u MFLAGS make -C "$top" install DESTDIR="$tmp/dflt" >"$tmp/dflt.log" 2>&1
check "make install without PREFIX: usr/local/bin/lkst-procstate" \
	[ -x "$tmp/dflt/usr/local/bin/lkst-procstate" ]
check "make install without PREFIX: usr/local/share/man/man1/lkbuf.1" \
	[ -f "$tmp/dflt/usr/local/share/man/man1/lkbuf.1" ]
rm -rf "$tmp/dflt"

# ---- install ----------------------------------------------------------------
if make -C "$top" install DESTDIR="$dest" PREFIX=/usr >"$tmp/install.log" 2>&1; then ok; else
	fail "make install DESTDIR=$dest PREFIX=/usr exited $?"; show "$tmp/install.log"
fi

# Every file and directory, with its type and mode: nothing more, nothing less.
cat >"$tmp/want" <<'EOF'
d 755 usr
d 755 usr/bin
f 755 usr/bin/lkbuf
f 755 usr/bin/lkm
f 755 usr/bin/lkst-pagemap
f 755 usr/bin/lkst-procstate
d 755 usr/share
d 755 usr/share/lkst
f 644 usr/share/lkst/pagemap.gp
f 644 usr/share/lkst/procstate.gp
d 755 usr/share/man
d 755 usr/share/man/man1
f 644 usr/share/man/man1/lkbuf.1
f 644 usr/share/man/man1/lkm.1
d 755 usr/include
d 755 usr/include/lkst
f 644 usr/include/lkst/lkst.h
f 644 usr/include/lkst/lkst_util.h
f 644 usr/include/lkst/lkst_logio.h
f 644 usr/include/lkst/lkst_log.h
f 644 usr/include/lkst/lkst_format.h
f 644 usr/include/lkst/lkst_drain.h
f 644 usr/include/lkst/lkst_ksym.h
f 644 usr/include/lkst/lkst_export.h
f 644 usr/include/lkst/lkst_vmcore.h
f 644 usr/include/lkst/lkst_pred.h
f 644 usr/include/lkst/lkst_sysnames.h
f 644 usr/include/lkst/lkst_logboot.h
f 644 usr/include/lkst/lkst_filter.h
d 755 usr/include/lkst/linux
f 644 usr/include/lkst/linux/lkst_events.h
f 644 usr/include/lkst/linux/lkst_ioctl.h
f 644 usr/include/lkst/linux/lkst_record.h
d 755 usr/lib
f 644 usr/lib/liblkst.a
l 777 usr/lib/liblkst.so
f 755 usr/lib/liblkst.so.0
d 755 usr/lib/pkgconfig
f 644 usr/lib/pkgconfig/liblkst.pc
d 755 usr/share/man/man3
d 755 usr/share/doc
d 755 usr/share/doc/liblkst
d 755 usr/share/doc/liblkst/examples
f 644 usr/share/doc/liblkst/examples/Makefile
f 644 usr/share/doc/liblkst/examples/lkst_count.c
f 644 usr/share/doc/liblkst/examples/lkst_count.cc
EOF
# liblkst's man3 pages: one per public function, as make man3 made them.
for f in "$top"/utils/man3/*.3; do echo "f 644 usr/share/man/man3/${f##*/}"; done >>"$tmp/want"
LC_ALL=C sort -k3 -o "$tmp/want" "$tmp/want"
listing() {	# "type mode path" of everything under $dest
	(cd "$dest" 2>/dev/null && find . -mindepth 1 -printf '%y %m %P\n' | LC_ALL=C sort -k3)
}
listing >"$tmp/got"
if diff -u "$tmp/want" "$tmp/got" >"$tmp/list.diff"; then ok; else
	fail "installed files differ from the list (- expected, + installed):"; show "$tmp/list.diff"
fi
for f in utils/lkm utils/lkbuf tools/visualize/lkst-procstate tools/visualize/lkst-pagemap; do
	check "bin/${f##*/} is the built $f" cmp -s "$top/$f" "$bin/${f##*/}"
done
for f in procstate.gp pagemap.gp; do
	check "share/lkst/$f is tools/visualize/$f" cmp -s "$top/tools/visualize/$f" "$data/$f"
done
for f in lkm.1 lkbuf.1; do
	check "share/man/man1/$f is utils/$f" cmp -s "$top/utils/$f" "$man1/$f"
done

# ---- the installed tools, away from the source tree ----------------------
# Only the installed bin and the system's (gnuplot); cwd is $run.
inst() { (cd "$run" && env PATH="$bin:/usr/bin:/bin" "$@"); }

for t in $TOOLS; do
	check "$t resolves to the installed copy" \
		[ "$(inst sh -c "command -v $t")" = "$bin/$t" ]
	v=$(inst "$t" --version 2>&1)
	if printf '%s\n' "$v" | grep -qE "^$t \(lkst\) $release, tracer ABI [0-9]+, log format [0-9]+"; then ok; else
		fail "installed $t --version: $v"
	fi
done

inst lkbuf print -f trace.log >"$tmp/print.txt" 2>&1
rc=$?
check "installed lkbuf print -f trace.log exits 0" [ $rc -eq 0 ]
check "installed lkbuf print prints gen_log's 4000 records" [ "$(wc -l <"$tmp/print.txt")" -ge 4000 ]
[ $rc -eq 0 ] || show "$tmp/print.txt"

inst lkst-procstate -f trace.log -o ps.png --summary >"$tmp/ps.txt" 2>"$tmp/ps.err"
rc=$?
check "installed lkst-procstate -o exits 0" [ $rc -eq 0 ]
check "installed lkst-procstate draws ps.png" is_png "$run/ps.png"
check "installed lkst-procstate prints the summary" grep -q 'lkw-spin1' "$tmp/ps.txt"
[ $rc -eq 0 ] || show "$tmp/ps.err"

inst lkst-pagemap -f pages.log -n t-mem -o pm.png >"$tmp/pm.txt" 2>"$tmp/pm.err"
rc=$?
check "installed lkst-pagemap -o exits 0" [ $rc -eq 0 ]
check "installed lkst-pagemap draws pm.png" is_png "$run/pm.png"
[ $rc -eq 0 ] || show "$tmp/pm.err"

# The scripts they ran are the installed ones: broken, they fail naming it;
# gone, they fail (no copy elsewhere is used).
for p in procstate pagemap; do
	case $p in procstate) set -- -f trace.log ;; pagemap) set -- -f pages.log -n t-mem ;; esac
	[ -f "$data/$p.gp" ] || continue	# already failed above
	cp "$data/$p.gp" "$tmp/$p.gp.keep"
	printf 'exit status 3\n' >"$data/$p.gp"
	inst "lkst-$p" "$@" -o x.png >"$tmp/x.txt" 2>&1
	rc=$?
	check "lkst-$p fails with a broken installed $p.gp" [ $rc -ne 0 ]
	check "lkst-$p names the installed $p.gp" grep -qF "$bin/../share/lkst/$p.gp" "$tmp/x.txt"
	rm -f "$data/$p.gp"
	inst "lkst-$p" "$@" -o x.png >"$tmp/x.txt" 2>&1
	rc=$?
	check "lkst-$p fails without an installed $p.gp" [ $rc -ne 0 ]
	check "lkst-$p says it cannot find $p.gp" grep -q "cannot find $p.gp" "$tmp/x.txt"
	cp "$tmp/$p.gp.keep" "$data/$p.gp"
	chmod 644 "$data/$p.gp"
done

# ---- liblkst: header, pkg-config, shared and static ----------------------
check "lib/liblkst.so links to liblkst.so.0" [ "$(readlink "$dest/usr/lib/liblkst.so")" = liblkst.so.0 ]
check "lib/liblkst.a is the built utils/liblkst.a" cmp -s "$top/utils/liblkst.a" "$dest/usr/lib/liblkst.a"
# A program of its own: the log's records merged over the CPUs, as CSV.
cat >"$tmp/csvdump.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <lkst.h>

int main(int argc, char **argv)
{
	struct lkst_format_opts opts = { .csv = 1 };
	const struct lkst_record *rec;
	struct lkst_ksym_table *symbols = NULL;
	struct lkst_log_merge *merge = NULL;
	struct lkst_outbuf *out;
	struct lkst_log *log;
	struct lkst_err err;
	unsigned int s;

	if (argc != 2)
		return 2;
	if (!(log = lkst_log_load(argv[1], &err)) || lkst_log_use_events(log, &err) ||
	    !(symbols = lkst_ksym_table_from_log(log, &err)) ||
	    !(merge = lkst_log_merge_new(log, &err))) {
		fprintf(stderr, "csvdump: %s\n", err.msg);
		return 1;
	}
	opts.symbols = symbols;
	out = lkst_outbuf_new(stdout);
	if (!out)
		return 1;
	lkst_format_csv_header(stdout, &opts);
	while ((rec = lkst_log_merge_next(merge, &s)))
		lkst_format_record_buf(out, rec, lkst_log_get_section(log, s)->info.cpu, &opts);
	lkst_outbuf_flush(out);
	lkst_outbuf_free(out);
	lkst_log_merge_free(merge);
	lkst_ksym_table_free(symbols);
	lkst_log_free(log);
	return fflush(stdout) || ferror(stdout);
}
EOF
# pkg-config with only the installed .pc, relocated into DESTDIR.
pc() { PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR=$dest/usr/lib/pkgconfig \
	pkg-config --define-prefix "$@"; }
if ! command -v pkg-config >/dev/null 2>&1; then
	fail "no pkg-config to build against the installed liblkst (apt-get install pkg-config)"
else
	check "pkg-config knows liblkst" pc --exists liblkst
	cflags=$(pc --cflags liblkst | sed 's/ *$//')
	libs=$(pc --libs liblkst)
	check "pkg-config --cflags is the installed include/lkst ($cflags)" \
		[ "$cflags" = "-I$dest/usr/include/lkst" ]
	inst lkbuf print -C -f trace.log >"$tmp/want.csv" 2>/dev/null
	# shellcheck disable=SC2086
	if ${CC:-cc} -Wall -Wextra -Werror -o "$tmp/csvdump" "$tmp/csvdump.c" $cflags $libs \
		>"$tmp/cc.log" 2>&1; then ok; else
		fail "building a program with pkg-config --cflags --libs liblkst"; show "$tmp/cc.log"
	fi
	check "the program runs on the installed liblkst.so.0" \
		sh -c "LD_LIBRARY_PATH='$dest/usr/lib' ldd '$tmp/csvdump' | grep -qF '$dest/usr/lib/liblkst.so.0'"
	(cd "$run" && LD_LIBRARY_PATH=$dest/usr/lib "$tmp/csvdump" trace.log) >"$tmp/got.csv" 2>"$tmp/csv.err"
	check "shared: the program's CSV is lkbuf print -C's" cmp -s "$tmp/want.csv" "$tmp/got.csv"
	check "shared: a header and 4000 records" [ "$(wc -l <"$tmp/got.csv")" -ge 4001 ]
	# shellcheck disable=SC2086
	if ${CC:-cc} -Wall -Wextra -Werror -static -o "$tmp/csvdump.static" "$tmp/csvdump.c" \
		$cflags $(pc --libs --static liblkst) >"$tmp/cc.log" 2>&1; then ok; else
		fail "building it static against the installed liblkst.a"; show "$tmp/cc.log"
	fi
	check "static: no liblkst.so needed" \
		sh -c "! readelf -d '$tmp/csvdump.static' 2>/dev/null | grep -q liblkst"
	(cd "$run" && "$tmp/csvdump.static" trace.log) >"$tmp/got-static.csv" 2>"$tmp/csv.err"
	check "static: the program's CSV is lkbuf print -C's" cmp -s "$tmp/want.csv" "$tmp/got-static.csv"
fi

# ---- man pages ---------------------------------------------------------------
for t in lkm lkbuf; do
	page=$man1/$t.1
	if command -v man >/dev/null 2>&1; then
		check "man finds $t.1 under the installed MANPATH" \
			[ "$(MANPATH=$dest/usr/share/man man -w "$t" 2>/dev/null)" = "$page" ]
		MANWIDTH=80 man --warnings=all -l "$page" >"$tmp/man.out" 2>"$tmp/man.err"
		rc=$?
		check "man -l $t.1 exits 0" [ $rc -eq 0 ]
		check "man -l $t.1 renders the page" grep -q "$t" "$tmp/man.out"
		if [ -s "$tmp/man.err" ]; then fail "man -l $t.1 warns:"; show "$tmp/man.err"; else ok; fi
	fi
	if command -v groff >/dev/null 2>&1; then
		groff -man -Tutf8 -ww -z "$page" >"$tmp/groff.err" 2>&1
		rc=$?
		if [ $rc -eq 0 ] && [ ! -s "$tmp/groff.err" ]; then ok; else
			fail "groff -man -ww $t.1 (exit $rc):"; show "$tmp/groff.err"
		fi
	elif ! command -v man >/dev/null 2>&1; then
		echo "SKIP: neither man nor groff to render $t.1 (apt-get install man-db)"
	fi
done

# ---- uninstall ---------------------------------------------------------------
# A file install did not put there stays.
echo keep >"$bin/not-ours"
if make -C "$top" uninstall DESTDIR="$dest" PREFIX=/usr >"$tmp/uninstall.log" 2>&1; then ok; else
	fail "make uninstall exited $?"; show "$tmp/uninstall.log"
fi
check "uninstall leaves files it did not install" [ -f "$bin/not-ours" ]
rm -f "$bin/not-ours"
left=$(cd "$dest" && find . \! -type d)
if [ -z "$left" ]; then ok; else fail "files left after uninstall: $left"; fi
check "uninstall removes share/lkst" [ ! -e "$data" ]
check "uninstall removes include/lkst" [ ! -e "$dest/usr/include/lkst" ]
check "uninstall removes lib/pkgconfig" [ ! -e "$dest/usr/lib/pkgconfig" ]
check "uninstall removes share/man/man3" [ ! -e "$dest/usr/share/man/man3" ]
check "uninstall removes share/doc/liblkst" [ ! -e "$dest/usr/share/doc/liblkst" ]

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
