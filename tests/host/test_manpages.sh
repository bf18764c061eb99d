#!/bin/sh
# The man pages cannot drift from the tools: every verb that `TOOL --help`
# lists is in TOOL.1, and so is every option of every verb's --help (its
# long form, or its short one when it has no long one); `TOOL help VERB` is `TOOL VERB --help`;
# `TOOL --version` names the ABI and log format.  Run from utils/.
passed=0
failed=0

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
	if ./$tool --version | grep -qE "^$tool \(lkst\) tracer ABI [0-9]+, log format [0-9]+"; then ok; else
		fail "$tool --version: $(./$tool --version 2>&1)"
	fi
	if ./$tool help no-such-verb >/dev/null 2>&1; then
		fail "$tool help no-such-verb exited 0"
	else ok; fi
done
rm -f opts.tmp
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
