#!/bin/sh
# Runs the host unit test programs given as arguments plus the command-line
# test, and sums their "N passed, M failed" lines into one final line.
# Run from utils/ (make -C utils test).
here=$(dirname "$0")
passed=0
failed=0
status=0

run() {
	out=$("$@" 2>&1)
	rc=$?
	last=$(printf '%s\n' "$out" | tail -n 1)
	p=$(printf '%s\n' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(printf '%s\n' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	printf '%s\n' "$out" | sed '$d'
	if [ -z "$p" ]; then
		echo "$*: crashed or gave no result (exit $rc)"
		failed=$((failed + 1))
		status=1
		return
	fi
	echo "$*: $last"
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ]; then
		status=1
	fi
}

for t in "$@"; do
	run "$t"
done
run sh "$here/test_cli.sh" .
run sh "$here/test_dev.sh" .
# The boot ID logs carry (docs/fleet.md): read, record, --previous-boot, sql.
run sh "$here/test_bootid.sh" .
run sh "$here/test_convert.sh" .
# lkbuf ship against a stand-in for ClickHouse: timeouts, signals,
# quarantine, credentials, TLS (docs/fleet.md).
run sh "$here/test_ship.sh" .
# Devices, FIFOs and links as every writer's output (lkst_outfile.h).
run sh "$here/test_output.sh" .
# lkbuf report's tables under UBSan, empty ones too.
run sh "$here/test_ubsan.sh" .
# zstd logs, standard input, rotated sets read as one, CPU ranges, slices.
run sh "$here/test_logset.sh" .
run sh "$here/test_manpages.sh"
# liblkst: nothing in it exits; the shared library exports lkst_* only.
run sh "$here/test_lib.sh" .
# liblkst's C and C++ examples built against an installed copy, run.
run sh "$here/test_lib_examples.sh" .
# make install / uninstall from the top into a scratch DESTDIR, the installed
# tools run away from the source tree.
run sh "$here/test_install.sh"
# A command-line CFLAGS (make CFLAGS='-O2 -g') keeps what the build needs.
run sh "$here/test_build_flags.sh" .
# lkbuf sql's views and tables against ship --create's on one local
# clickhouse-server (the SQLite half alone without one).
views_work=$(mktemp -d /tmp/lkst_views.XXXXXX)
run python3 "$here/../fleet/check_views.py" ./lkbuf ./gen_log "$views_work"
rm -rf "$views_work"
# The log reader's fuzzer, briefly, when make found clang to build it.
if [ -n "$FUZZ" ]; then
	run sh "$here/run_fuzz.sh" "$FUZZ" "${FUZZ_TEST_SECONDS:-10}" fuzz-seed
fi

echo "$passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
