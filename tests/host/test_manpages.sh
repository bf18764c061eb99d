#!/bin/sh
# The man pages cannot drift from the tools: every verb that `TOOL --help`
# lists is in TOOL.1, and so is every option of every verb's --help (its
# long form, or its short one when it has no long one); `TOOL help VERB` is `TOOL VERB --help`;
# `TOOL --version` names the release (lkst_cli.h), the ABI and log format.  Run from utils/.
passed=0
failed=0
# The release, as lkst_cli.h defines it once.
release=$(sed -n 's/^#define LKST_RELEASE[[:space:]]*"\(.*\)"$/\1/p' lkst_cli.h)

ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

for tool in lkm lkbuf; do
	man=$tool.1
	[ -f "$man" ] || { fail "$man missing"; continue; }
	verbs=$(./$tool --help | awk '/^Verbs:/ { f = 1; next } f && /^  [a-z]/ { print $1 }')
	[ -n "$verbs" ] || fail "$tool --help lists no verbs"
	for v in $verbs; do
		if grep -qE "^\.B[IR]? \"?($tool )?$v( |\"|$)" "$man"; then ok; else
			fail "$tool $v: the verb is not in $man"
		fi
		help=$(./$tool "$v" --help 2>&1) || fail "$tool $v --help exited $?"
		# "  -x, --long=ARG  text" or "      --long  text": options of the verb.
		printf '%s\n' "$help" | sed -n '/^Help options:/q; p' |
			sed -n 's/^ \{2,6\}\(-[a-zA-Z]\)\{0,1\},\{0,1\} \{0,1\}\(--[a-z][a-z0-9-]*\)\{0,1\}.*/\1 \2/p' \
			>opts.tmp
		while read -r short long; do
			[ -n "$short$long" ] || continue
			case $short in --*) long=$short; short= ;; esac
			s=$(printf '%s' "$short" | sed 's/-/\\\\-/')
			l=$(printf '%s' "$long" | sed 's/-/\\\\-/g')
			# The long name where there is one: short letters repeat.
			if [ -n "$long" ] && grep -q -- "$l" "$man" ||
			   { [ -z "$long" ] && grep -q -- "$s" "$man"; }; then
				ok
			else
				fail "$tool $v: option ${short:+$short }$long is not in $man"
			fi
		done <opts.tmp
		if [ "$(./$tool help "$v" 2>&1)" = "$help" ]; then ok; else
			fail "$tool help $v differs from $tool $v --help"
		fi
	done
	if ./$tool --version | grep -qE "^$tool \(lkst\) $release, tracer ABI [0-9]+, log format [0-9]+"; then ok; else
		fail "$tool --version: $(./$tool --version 2>&1)"
	fi
	if ./$tool help no-such-verb >/dev/null 2>&1; then
		fail "$tool help no-such-verb exited 0"
	else ok; fi
done
rm -f opts.tmp

# ---- liblkst's man3 pages ----------------------------------------------------
# They are real ones: every function's header comment documents what it
# does, each argument and what it returns (gen-man3.py --check), so each
# page has a RETURN VALUE and an entry per argument of its synopsis, and
# renders without a warning.
# page_problems PAGE...: one line per thing a real page has and a PAGE
# lacks: a section, or an argument of a prototype in its SYNOPSIS with no
# ".TP" / ".I ARG" entry (a stub page, or a comment that leaves one out).
# The prototypes are ".B TYPE name(ARGS);" in the SYNOPSIS, maybe wrapped
# onto '.B "   MORE"' lines; each argument is the last word of a top-level
# comma-separated part (the name in "(*name)" for a function pointer),
# "void" and "..." none.  One awk for all pages: a shell loop of greps
# over 200 pages takes long.
page_problems() {
	awk '
	function args(s,    i, c, depth, part, name, n, w) {
		sub(/^[^(]*\(/, "", s); sub(/\);$/, "", s)
		depth = 0; part = ""
		for (i = 1; i <= length(s) + 1; i++) {
			c = i <= length(s) ? substr(s, i, 1) : ","
			if (c == "(") depth++
			if (c == ")") depth--
			if (c == "," && depth == 0) {
				if (match(part, /\(\*[A-Za-z_0-9]+\)/))
					name = substr(part, RSTART + 2, RLENGTH - 3)
				else {
					gsub(/\[[^]]*\]/, "", part)
					n = split(part, w, /[^A-Za-z_0-9.]+/)
					name = w[n]; if (name == "" && n > 1) name = w[n - 1]
				}
				if (name != "void" && name != "...")
					want[name] = 1
				part = ""
			} else part = part c
		}
	}
	function report(    s, a) {
		split("NAME|SYNOPSIS|DESCRIPTION|RETURN VALUE|SEE ALSO", need, "|")
		for (s in need)
			if (!(need[s] in sec)) print file ": no " need[s]
		for (a in want)
			if (!(a in have)) print file ": argument " a " is not documented"
	}
	FNR == 1 {
		if (file != "") report()
		file = FILENAME; split("", sec); split("", want); split("", have)
		insyn = 0; proto = ""; tp = 0
	}
	/^\.SH / { s = $0; sub(/^\.SH /, "", s); sec[s] = 1; insyn = (s == "SYNOPSIS") }
	/^\.fi$/ { insyn = 0 }
	insyn && /^\.B / {
		l = $0; sub(/^\.B "?/, "", l); sub(/"$/, "", l); gsub(/\\-/, "-", l)
		if (l !~ /^#/) {
			proto = proto == "" ? l : proto " " l
			if (proto ~ /;$/) { args(proto); proto = "" }
		}
	}
	tp && /^\.I / { a = $0; sub(/^\.I /, "", a); have[a] = 1 }
	{ tp = ($0 == ".TP") }
	END { if (file != "") report() }
	' "$@"
}
if [ -d man3 ]; then
	hdrs="lkst.h $(sed -n 's/^#include "\(.*\)"$/\1/p' lkst.h) ../handlers/lkst_filter.h"
	# shellcheck disable=SC2086
	if c=$(python3 gen-man3.py --check $hdrs); then ok; else
		fail "header comments that make no man3 page: $(printf '%s\n' "$c" | head -20)"
	fi
	set -- man3/*.3
	if [ -f "$1" ]; then
		p=$(page_problems "$@")
		if [ -z "$p" ]; then ok; else
			fail "$(printf '%s\n' "$p" | wc -l) man3 pages lack what a real page has:"
			printf '%s\n' "$p" | head -20
		fi
	else
		fail "man3/ holds no page (make man3)"
	fi
	# The check sees a stub: a page without its RETURN VALUE, and one
	# without an argument's entry.
	tmpd=$(mktemp -d)
	sed '/^\.SH RETURN VALUE$/d' man3/lkst_log_load.3 >"$tmpd/noret.3"
	awk '$0 == ".I path" { next } { print }' man3/lkst_log_load.3 >"$tmpd/noarg.3"
	if page_problems "$tmpd/noret.3" | grep -q 'no RETURN VALUE' &&
	   page_problems "$tmpd/noarg.3" | grep -q 'argument path is not documented' &&
	   [ -z "$(page_problems man3/lkst_log_load.3)" ]; then ok; else
		fail "the man3 check does not see a stub page"
	fi
	rm -rf "$tmpd"
	# Each page renders without a warning (man's groff run, -ww); a man
	# without --warnings (mandoc's) is no man-db to ask.
	if MANWIDTH=80 man --warnings -l man3/lkst_log_load.3 >/dev/null 2>&1; then
		# All at once (man starts slowly); page by page only to name one.
		w=$(MANWIDTH=80 man --warnings -l man3/*.3 2>&1 >/dev/null)
		[ -z "$w" ] || w=$(for f in man3/*.3; do
			MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null | sed "s|^|$f: |"
		done | head -5)
		if [ -z "$w" ]; then ok; else fail "man -l warns: $w"; fi
	else
		echo "note: man (man-db) is not installed; the man3 pages are not rendered"
	fi
else
	fail "man3 missing (make -C utils man3)"
fi

# ship's many options are a list in lkbuf.1, each beginning a line of the
# rendered page, not one run-together paragraph.
if command -v man >/dev/null 2>&1; then
	page=$(MANWIDTH=100 man -l lkbuf.1 2>/dev/null | sed -n '/^       ship --url/,/^[A-Z]/p')
	for o in $(./lkbuf ship --help | sed -n '/^Help options:/q; p' | grep -o -- ' --[a-z][a-z-]*' | sort -u); do
		if printf '%s\n' "$page" | grep -qE -- "^ +(-[a-zA-Z], )?$o(=| |\$)"; then ok; else
			fail "lkbuf.1: ship's $o does not begin a line of its own"
		fi
	done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
