#!/bin/bash
# Scan a guest console log for signs of kernel trouble (warnings, oopses,
# lockdep/atomic-context reports, stalls). Prints the offending lines with
# their line numbers and exits 1 if any are found, 0 if the log is clean.
#
# usage: check-console.sh CONSOLE_LOG
# CHECK_CONSOLE_IGNORE: optional extended regex of lines to disregard.
set -euo pipefail

log=${1:?usage: check-console.sh CONSOLE_LOG}
[ -r "$log" ] || { echo "check-console: $log not found" >&2; exit 2; }

patterns=(
	'BUG:'
	'WARNING:'
	'Oops'
	'Kernel panic'
	'general protection fault'
	'INFO: possible recursive locking'
	'possible circular locking'
	'inconsistent lock state'
	'lockdep'
	'turning off the locking correctness validator'
	'KASAN'
	'UBSAN'
	'Call Trace:'
	'scheduling while atomic'
	'sleeping function called from invalid context'
	'RCU stall'
	'self-detected stall'
	'detected stalls on CPU'
	'blocked for more than [0-9]+ seconds'
)
re=$(IFS='|'; echo "${patterns[*]}")
# Benign lines: lockdep's boot banner, and what the guest's /init and the
# scenarios print (user-space text, e.g. a scenario grepping for "lockdep").
benign='RCU lockdep checking is enabled|^[0-9]+:lkst-(init:|out\[)'

hits=$(tr -d '\r' <"$log" | grep -nE -- "$re" | grep -vE -- "$benign" || true)
if [ -n "${CHECK_CONSOLE_IGNORE:-}" ] && [ -n "$hits" ]; then
	hits=$(grep -vE -- "$CHECK_CONSOLE_IGNORE" <<<"$hits" || true)
fi
if [ -n "$hits" ]; then
	echo "check-console: $log shows kernel problems:" >&2
	sed 's/^/  /' <<<"$hits" | head -n 60 >&2
	n=$(wc -l <<<"$hits")
	[ "$n" -le 60 ] || echo "  ... ($n lines in all)" >&2
	exit 1
fi
exit 0
