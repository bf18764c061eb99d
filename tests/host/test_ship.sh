#!/bin/sh
# lkbuf ship against a stand-in for ClickHouse (fake_clickhouse.py):
# a server that accepts and never answers is given up (--timeout), with
# the message saying so; SIGTERM ends it after the insert in flight, the
# unfinished file not marked (also in --follow, also while the server
# hangs); a log cut short in a --dir set is quarantined once, listed in
# the state file, and the rest shipped; credentials from an owner-only
# file or the environment go in ClickHouse's headers and no password is
# ever printed; ?user=&password= in the URL is kept as ClickHouse reads
# it; TLS with a CA file and a client certificate; with clickhouse-server
# installed, tests/fleet/ship_auth.py (a ClickHouse user with a password).
# The default give-up bound is test_fleet's.
# Usage: test_ship.sh DIR-WITH-lkbuf-gen_log-AND-split_log
bin=$(cd "${1:-.}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/lkst_test_ship.XXXXXX)
servers=""
trap 'for p in $servers; do kill "$p" 2>/dev/null; done; [ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
passed=0
failed=0
lkbuf="$bin/lkbuf"

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$1"; then pass; else fail "$2"; fi; }

# serve NAME MODE [ARGS]: a fake server; sets url and log for NAME.
serve() {
	name=$1
	shift
	rm -f "$tmp/$name.port"
	python3 "$here/fake_clickhouse.py" "$1" "$tmp/$name.port" "$tmp/$name.log" "$@" \
		2>"$tmp/$name.err" &
	servers="$servers $!"
	i=0
	while [ ! -s "$tmp/$name.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	scheme=http
	case " $* " in *" --tls "*) scheme=https ;; esac
	url="$scheme://127.0.0.1:$(cat "$tmp/$name.port")"
	log="$tmp/$name.log"
	touch "$log"
}
# count_log LOG PYTHON-EXPR: the requests of LOG for which EXPR (of r) holds.
count_log() {
	python3 -c 'import json,sys
print(sum(1 for l in open(sys.argv[1]) for r in [json.loads(l)] if eval(sys.argv[2])))' "$1" "$2"
}
now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$1" "$2"; }
less() { python3 -c "import sys; sys.exit(not float(sys.argv[1]) < float(sys.argv[2]))" "$1" "$2"; }

"$bin/gen_log" "$tmp/a.log" 20000 2 >/dev/null || { echo "gen_log failed"; exit 1; }
"$bin/gen_log" "$tmp/big.log" 60000 2 >/dev/null

# ---- a server that accepts and never answers --------------------------------
serve hang hang
t0=$(now)
timeout -k 5 60 "$lkbuf" ship --url "$url" -f "$tmp/a.log" --timeout 1 --retries 3 \
	--state "$tmp/hang.state" >"$tmp/out" 2>"$tmp/err"
rc=$?
t=$(elapsed "$t0" "$(now)")
check '[ $rc -eq 2 ]' "a silent server: exit $rc, want 2 (124: it hung): $(tail -2 "$tmp/err")"
check 'less "$t" 10' "a silent server: 3 tries of 1 s took $t s"
check 'grep -q "no answer for 1 s (--timeout)" "$tmp/err" &&
       tail -1 "$tmp/err" | grep -q "did not take the request after 3 tries in [0-9]* s"' \
	"a silent server: no clear message: $(cat "$tmp/err")"
check '[ "$(count_log "$log" "\"connect\" in r")" -eq 3 ]' \
	"a silent server: $(count_log "$log" "'connect' in r") connections, want one per try"
check '[ ! -s "$tmp/hang.state" ]' "a silent server: the state file lists a file"
for opt in --timeout --connect-timeout; do
	"$lkbuf" ship --url "$url" -f "$tmp/a.log" $opt 0 >/dev/null 2>"$tmp/err"
	check '[ $? -eq 1 ] && grep -q "is not a number from 1" "$tmp/err"' "$opt 0 is not refused"
done

# ---- SIGTERM while an insert is in flight ------------------------------------
serve slow slow --delay 1
"$lkbuf" ship --url "$url" -f "$tmp/big.log" --batch 2000 --state "$tmp/slow.state" \
	>/dev/null 2>"$tmp/err" &
pid=$!
i=0
while [ "$(count_log "$log" True)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
t0=$(now)
kill -TERM $pid
timeout 20 sh -c "while kill -0 $pid 2>/dev/null; do sleep 0.05; done"
t=$(elapsed "$t0" "$(now)")
wait $pid
rc=$?
n=$(count_log "$log" True)
check '[ $rc -eq 0 ]' "SIGTERM during an insert: exit $rc: $(cat "$tmp/err")"
check 'less "$t" 5' "SIGTERM during an insert: it took $t s to stop"
check '[ "$n" -le 3 ]' "SIGTERM during an insert: $n inserts after it, want the one in flight"
check 'grep -q "stopped by a signal in .*big.log; it is not marked shipped" "$tmp/err"' \
	"SIGTERM during an insert: no message: $(cat "$tmp/err")"
check '[ ! -s "$tmp/slow.state" ]' "SIGTERM during an insert: the unfinished file is marked shipped"
serve ok1 ok
"$lkbuf" ship --url "$url" -f "$tmp/big.log" --batch 20000 --state "$tmp/slow.state" 2>"$tmp/err"
check '[ $? -eq 0 ] && [ "$(wc -l <"$tmp/slow.state")" -eq 1 ] && grep -q big.log "$tmp/slow.state"' \
	"after SIGTERM, a restart does not ship the file: $(cat "$tmp/err")"

# ---- --follow: SIGTERM while idle, and while the server hangs -----------------
mkdir "$tmp/f"
cp "$tmp/a.log" "$tmp/f/lkst-000001.log"
serve ok2 ok
"$lkbuf" ship --url "$url" --dir "$tmp/f" --follow 2>"$tmp/err" &
pid=$!
i=0
while [ ! -s "$tmp/f/.lkst-ship.state" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
cp "$tmp/a.log" "$tmp/f/.new" && mv "$tmp/f/.new" "$tmp/f/lkst-000002.log"
i=0
while [ "$(wc -l <"$tmp/f/.lkst-ship.state")" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
check '[ $? -eq 0 ] && [ "$(wc -l <"$tmp/f/.lkst-ship.state")" -eq 2 ]' \
	"--follow: not 2 files shipped and a clean exit on SIGTERM: $(cat "$tmp/err")"
cp "$tmp/a.log" "$tmp/f/.new" && mv "$tmp/f/.new" "$tmp/f/lkst-000003.log"
serve hang2 hang
"$lkbuf" ship --url "$url" --dir "$tmp/f" --follow --timeout 2 2>"$tmp/err" &
pid=$!
i=0
while [ "$(count_log "$log" True)" -lt 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
t0=$(now)
kill -TERM $pid
timeout 20 sh -c "while kill -0 $pid 2>/dev/null; do sleep 0.05; done"
t=$(elapsed "$t0" "$(now)")
wait $pid
rc=$?
check '[ $rc -eq 0 ] && less "$t" 6' \
	"--follow, server silent: SIGTERM took $t s, exit $rc: $(cat "$tmp/err")"
check '[ "$(count_log "$log" True)" -eq 1 ]' "--follow, server silent: tried again after SIGTERM"
check '[ "$(wc -l <"$tmp/f/.lkst-ship.state")" -eq 2 ] && ! grep -q lkst-000003 "$tmp/f/.lkst-ship.state"' \
	"--follow, server silent: the state file changed"

# ---- a log cut short in a --dir set -------------------------------------------
mkdir "$tmp/q"
cp "$tmp/a.log" "$tmp/q/lkst-000001.log"
head -c 100000 "$tmp/a.log" >"$tmp/q/lkst-000002.log"
cp "$tmp/a.log" "$tmp/q/lkst-000003.log"
serve okq ok
"$lkbuf" ship --url "$url" --dir "$tmp/q" 2>"$tmp/err"
rc=$?
check '[ $rc -eq 1 ]' "a cut-short file: exit $rc, want 1: $(cat "$tmp/err")"
check '[ "$(grep -c "quarantined: left in place" "$tmp/err")" -eq 1 ] &&
       grep "quarantined: left in place" "$tmp/err" | grep -q "lkst-000002.log.*truncated"' \
	"a cut-short file: not reported once, with the reader's reason: $(cat "$tmp/err")"
check '[ "$(count_log "$log" "r[\"table\"] == \"lkst.files\"")" -eq 2 ]' \
	"a cut-short file: the files around it not both shipped"
check '[ "$(grep -c "^quarantined [0-9]* [0-9]* .*/lkst-000002.log$" "$tmp/q/.lkst-ship.state")" -eq 1 ] &&
       [ "$(grep -c "^[0-9]" "$tmp/q/.lkst-ship.state")" -eq 2 ]' \
	"a cut-short file: the state file: $(cat "$tmp/q/.lkst-ship.state")"
check '[ -f "$tmp/q/lkst-000002.log" ]' "a cut-short file: removed"
"$lkbuf" ship --url "$url" --dir "$tmp/q" 2>"$tmp/err"
rc=$?
check '[ $rc -eq 0 ] && ! grep -q quarantined "$tmp/err"' \
	"a cut-short file: reported again, or exit $rc on the next run: $(cat "$tmp/err")"
# --follow goes on past it.
"$lkbuf" ship --url "$url" --dir "$tmp/q" --follow 2>"$tmp/err" &
pid=$!
cp "$tmp/a.log" "$tmp/q/.new" && mv "$tmp/q/.new" "$tmp/q/lkst-000004.log"
i=0
while ! grep -q lkst-000004 "$tmp/q/.lkst-ship.state" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
check '[ $? -eq 0 ] && grep -q "^[0-9].*lkst-000004.log$" "$tmp/q/.lkst-ship.state"' \
	"--follow after a quarantined file: the next file not shipped: $(cat "$tmp/err")"
# Changed (a complete copy), it is tried again.
cp "$tmp/a.log" "$tmp/q/lkst-000002.log"
"$lkbuf" ship --url "$url" --dir "$tmp/q" 2>"$tmp/err"
check '[ $? -eq 0 ] && grep -q "^[0-9].*lkst-000002.log$" "$tmp/q/.lkst-ship.state"' \
	"a repaired file is not shipped: $(cat "$tmp/err")"
# -f: the bad file said, the others shipped, exit 1.
head -c 100000 "$tmp/a.log" >"$tmp/cut.log"
"$lkbuf" ship --url "$url" -f "$tmp/cut.log" -f "$tmp/a.log" 2>"$tmp/err"
check '[ $? -eq 1 ] && grep -q "cut.log.*quarantined" "$tmp/err" && grep -q "shipped .*/a.log" "$tmp/err"' \
	"-f with a cut-short file first: $(cat "$tmp/err")"

# ---- credentials ----------------------------------------------------------------
printf 'lkst:s3cret-pw\n' >"$tmp/cred"
chmod 600 "$tmp/cred"
serve cred ok
"$lkbuf" ship --url "$url" --credentials "$tmp/cred" -f "$tmp/a.log" 2>"$tmp/err"
check '[ $? -eq 0 ] && [ "$(count_log "$log" "r[\"user\"] == \"lkst\" and r[\"key\"] == \"s3cret-pw\"")" -eq "$(count_log "$log" True)" ]' \
	"--credentials: not sent as X-ClickHouse-User/Key: $(cat "$tmp/err")"
check '! grep -q s3cret "$tmp/err"' "--credentials: the password printed"
chmod 640 "$tmp/cred"
"$lkbuf" ship --url "$url" --credentials "$tmp/cred" -f "$tmp/a.log" 2>"$tmp/err"
check '[ $? -eq 1 ] && grep -q "may be read or written by others (mode 0640).*chmod 600" "$tmp/err" &&
       [ "$(wc -l <"$tmp/err")" -eq 1 ]' "a group-readable credentials file: $(cat "$tmp/err")"
: >"$log"
LKST_CLICKHOUSE_CREDENTIALS='envuser:env-s3cret' "$lkbuf" ship --url "$url" -f "$tmp/a.log" --force 2>"$tmp/err"
check '[ $? -eq 0 ] && [ "$(count_log "$log" "r[\"user\"] == \"envuser\" and r[\"key\"] == \"env-s3cret\"")" -gt 0 ]' \
	"LKST_CLICKHOUSE_CREDENTIALS: not sent: $(cat "$tmp/err")"
# An empty password is sent empty, not left out.
: >"$log"
LKST_CLICKHOUSE_CREDENTIALS='nopw:' "$lkbuf" ship --url "$url" -f "$tmp/a.log" --force 2>"$tmp/err"
check '[ $? -eq 0 ] && [ "$(count_log "$log" "r[\"user\"] == \"nopw\" and r[\"key\"] == \"\"")" -gt 0 ]' \
	"an empty password: X-ClickHouse-Key not sent empty: $(head -c 300 "$log")"
LKST_CLICKHOUSE_CREDENTIALS='nocolon' "$lkbuf" ship --url "$url" -f "$tmp/a.log" 2>"$tmp/err"
check '[ $? -eq 1 ] && grep -q "USER:PASSWORD" "$tmp/err" && ! grep -q nocolon "$tmp/err"' \
	"a bad LKST_CLICKHOUSE_CREDENTIALS: $(cat "$tmp/err")"
# ClickHouse's own ?user=&password=: kept in the URL, ours after it.
: >"$log"
"$lkbuf" ship --url "$url/?user=u&password=q-s3cret" -f "$tmp/a.log" 2>"$tmp/err"
check '[ $? -eq 0 ] && [ "$(count_log "$log" "r[\"params\"][\"user\"] == [\"u\"] and r[\"params\"][\"password\"] == [\"q-s3cret\"] and r[\"params\"][\"query\"][0].startswith(\"INSERT INTO lkst.\")")" -eq "$(count_log "$log" True)" ]' \
	"?user=&password= in --url: not ClickHouse's parameters: $(head -c 300 "$log")"
check 'grep -q "visible\|can be read by every user" "$tmp/err" && ! grep -q s3cret "$tmp/err"' \
	"?password= in --url: no warning, or the password printed: $(cat "$tmp/err")"
# A user without a password in the URL: no warning.
"$lkbuf" ship --url "http://u@127.0.0.1:$(cat "$tmp/cred.port")" -f "$tmp/a.log" --force 2>"$tmp/err"
check '[ $? -eq 0 ] && ! grep -q "ps)" "$tmp/err"' "a user without a password in --url: $(cat "$tmp/err")"
# Errors print the URL without its passwords.
serve fail fail
"$lkbuf" ship --url "http://u:url-s3cret@127.0.0.1:$(cat "$tmp/fail.port")/?password=q-s3cret" \
	-f "$tmp/a.log" --retries 2 2>"$tmp/err"
check '[ $? -eq 2 ] && grep -q "u:\*\*\*@127.0.0.1.*password=\*\*\*.*HTTP 500: Code: 999" "$tmp/err" &&
       ! grep -q s3cret "$tmp/err"' "a failure prints a password: $(cat "$tmp/err")"
"$lkbuf" ship --url "http://u:url-s3cret@127.0.0.1:1" --credentials "$tmp/cred" -f "$tmp/a.log" 2>"$tmp/err"
check '[ $? -eq 1 ] && ! grep -q s3cret "$tmp/err"' "credentials twice are not refused: $(cat "$tmp/err")"
"$lkbuf" ship --url "ftp://u:url-s3cret@h/" -f "$tmp/a.log" 2>"$tmp/err"
check '[ $? -eq 1 ] && ! grep -q s3cret "$tmp/err"' "a bad --url is echoed: $(cat "$tmp/err")"
# A wrong password is not retried.
chmod 600 "$tmp/cred"
serve deny deny
"$lkbuf" ship --url "$url" --credentials "$tmp/cred" -f "$tmp/a.log" 2>"$tmp/err"
check '[ $? -eq 2 ] && [ "$(count_log "$log" True)" -eq 1 ] && grep -q "refused the credentials.*HTTP 401" "$tmp/err" &&
       ! grep -q s3cret "$tmp/err"' "a refused password: $(cat "$tmp/err")"

# ---- TLS: a CA file and a client certificate -------------------------------------
if command -v openssl >/dev/null 2>&1; then
	cd "$tmp" || exit 1
	openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
		-subj /CN=lkst-test-ca >/dev/null 2>&1
	openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr -subj /CN=127.0.0.1 \
		>/dev/null 2>&1
	printf 'subjectAltName=IP:127.0.0.1\n' >srv.ext
	openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem \
		-days 2 -extfile srv.ext >/dev/null 2>&1
	openssl req -newkey rsa:2048 -nodes -keyout cli.key -out cli.csr -subj /CN=shipper \
		>/dev/null 2>&1
	openssl x509 -req -in cli.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out cli.pem \
		-days 2 >/dev/null 2>&1
	cd - >/dev/null || exit 1
	serve tls ok --tls "$tmp/srv.pem" "$tmp/srv.key" "$tmp/ca.pem"
	"$lkbuf" ship --url "$url" --cacert "$tmp/ca.pem" --cert "$tmp/cli.pem" \
		--cert-key "$tmp/cli.key" -f "$tmp/a.log" 2>"$tmp/err"
	check '[ $? -eq 0 ] && [ "$(count_log "$log" True)" -gt 0 ]' \
		"https with --cacert, --cert, --cert-key: $(cat "$tmp/err")"
	"$lkbuf" ship --url "$url" -f "$tmp/a.log" --retries 1 2>"$tmp/err"
	check '[ $? -eq 2 ] && grep -qi "certificate" "$tmp/err"' \
		"https without --cacert: the server's certificate not refused: $(cat "$tmp/err")"
	"$lkbuf" ship --url "$url" --cacert "$tmp/ca.pem" -f "$tmp/a.log" --retries 1 2>"$tmp/err"
	check '[ $? -eq 2 ]' "https without a client certificate: shipped"
	"$lkbuf" ship --url "http://127.0.0.1:1" --cacert "$tmp/ca.pem" -f "$tmp/a.log" 2>"$tmp/err"
	check '[ $? -eq 1 ] && grep -q "https://" "$tmp/err"' "--cacert with http:// not refused"
	"$lkbuf" ship --url "$url" --cert-key "$tmp/cli.key" -f "$tmp/a.log" 2>"$tmp/err"
	check '[ $? -eq 1 ] && grep -q "give --cert" "$tmp/err"' "--cert-key without --cert not refused"
	"$lkbuf" ship --url "$url" --cacert "$tmp/none.pem" -f "$tmp/a.log" 2>"$tmp/err"
	check '[ $? -eq 1 ] && grep -q "cannot read .*none.pem" "$tmp/err"' "a missing --cacert not refused"
else
	echo "test_ship: no openssl; the TLS cases are skipped"
fi

# ---- a real ClickHouse user with a password, when the server is installed --------
if command -v clickhouse-server >/dev/null 2>&1; then
	python3 "$here/../fleet/ship_auth.py" "$lkbuf" "$bin/gen_log" "$tmp/auth" >"$tmp/auth.out" 2>&1
	check '[ $? -eq 0 ]' "ship_auth.py against clickhouse-server: $(tail -5 "$tmp/auth.out")"
else
	echo "test_ship: no clickhouse-server; tests/fleet/ship_auth.py skipped (make test-fleet runs it)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
