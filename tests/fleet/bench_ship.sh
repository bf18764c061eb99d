#!/bin/sh
# Benchmark of lkbuf ship (not a test; asserts nothing): its CPU time
# (user+sys, from its own getrusage) per million records shipped, for a
# generated log of N records (default 1 million) over 2 CPUs, into an HTTP
# sink that acknowledges every insert and keeps nothing, so that only the
# shipper's cost is measured (ClickHouse's is its own).  Compare it with
# the rate lkbuf record writes at (docs/fleet.md).
# Usage: bench_ship.sh DIR-WITH-lkbuf-AND-gen_log [RECORDS]
bin=${1:-.}
n=${2:-1000000}
tmp=$(mktemp -d /tmp/lkst_bench_ship.XXXXXX)
sink=""
trap '[ -z "$sink" ] || kill "$sink" 2>/dev/null; rm -rf "$tmp"' EXIT
"$bin/gen_log" "$tmp/big.log" "$n" 2 || exit 1
python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        while n > 0:
            n -= len(self.rfile.read(min(n, 1 << 20)))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_address[1]))
s.serve_forever()
' "$tmp/port" &
sink=$!
i=0
while [ ! -s "$tmp/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
"$bin/lkbuf" ship --url "http://127.0.0.1:$(cat "$tmp/port")" -f "$tmp/big.log" \
	--state "$tmp/state" 2>&1 | sed -n 's/^lkbuf: shipped \([0-9]* records\).*CPU/lkbuf ship: \1, CPU/p'
