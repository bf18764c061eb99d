#!/bin/sh
# Runs the log reader's fuzzer for a bounded time as one check.
# Usage: run_fuzz.sh FUZZER SECONDS SEED-DIR
fuzzer=$1
seconds=${2:-10}
seed=$3
corpus=$(mktemp -d /tmp/lkst_fuzz.XXXXXX)
trap 'rm -rf "$corpus"' EXIT
if "$fuzzer" -max_total_time="$seconds" -max_len=16384 -artifact_prefix="$corpus.crash-" \
	"$corpus" $seed \
	>"$corpus.log" 2>&1; then
	rm -f "$corpus.log"
	echo "1 passed, 0 failed"
else
	tail -n 30 "$corpus.log"
	echo "fuzz_logio failed; log kept in $corpus.log"
	echo "0 passed, 1 failed"
	exit 1
fi
