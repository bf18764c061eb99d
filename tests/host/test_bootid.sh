#!/bin/sh
# The boot ID a log carries (LKST_META_BOOT, docs/fleet.md), against
# fake_lkst.so: lkbuf read and record save the running boot's, read
# --previous-boot one derived from that boot's anchor (stable, never the
# running boot's); lkbuf info prints it and lkbuf sql puts it in every row.
# Usage: test_bootid.sh DIR-WITH-lkbuf-AND-fake_lkst.so
test_name=bootid
. "$(dirname "$0")/fake_dev.sh"
now=$(cat /proc/sys/kernel/random/boot_id)
boot_of() { "$lkbuf" info -f "$1" | sed -n 's/^boot  *//p'; }

# The commands see these as environment variables.
fake "$lkbuf" read -f "$tmp/now.log" 2>/dev/null
export NOW="$now" N1="$(boot_of "$tmp/now.log")"
check "read saves the running boot's ID" "[ \"\$N1\" = \"\$NOW (the recording boot's boot_id)\" ]"
fake "$lkbuf" read --previous-boot -f "$tmp/prev1.log" 2>/dev/null
fake "$lkbuf" read --previous-boot -f "$tmp/prev2.log" 2>/dev/null
export P1="$(boot_of "$tmp/prev1.log")" P2="$(boot_of "$tmp/prev2.log")"
export ID1="${P1%% *}"
check "--previous-boot: a derived ID, not the running boot's" \
	"[ \"\$P1\" = \"\$ID1 (derived from the saved boot's host and clock anchor)\" ] && [ \"\$ID1\" != \"\$NOW\" ]"
check "--previous-boot: the same ID at every save" "[ -n \"\$P1\" ] && [ \"\$P1\" = \"\$P2\" ]"
check "--previous-boot: a UUID of version 8" \
	"echo \"\$ID1\" | grep -Eqx '[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'"
# record: rotated files, each with the running boot's ID.
LD_PRELOAD="$bin/fake_lkst.so" FAKE_LKST_STATE="$tmp/state" FAKE_LKST_RATE=50 \
	"$lkbuf" record -o "$tmp/rec" -i 5 --rotate 16K 2>/dev/null &
sleep 0.5
kill -INT $! 2>/dev/null
wait $!
check "record saves the running boot's ID in every file" \
	"ls '$tmp'/rec/lkst-*.log >'$tmp/files' && [ -s '$tmp/files' ] && for f in \$(cat '$tmp/files'); do '$lkbuf' info -f \$f | grep -qx \"boot      \$NOW (the recording boot's boot_id)\" || exit 1; done"
check "record: the boot ID fits the rotate size" \
	"for f in \$(cat '$tmp/files'); do [ \$(wc -c <\$f) -le 16384 ] || exit 1; done"
# lkbuf sql: every row names the log's boot.
if "$lkbuf" sql -f "$tmp/prev1.log" -o "$tmp/prev1.db" >/dev/null 2>&1; then
	check "sql: the rows carry the derived boot ID" \
		"[ \"\$(sqlite3 '$tmp/prev1.db' 'SELECT DISTINCT boot FROM records; SELECT boot_origin FROM files')\" = \"\$(printf '%s\\nderived' \"\$ID1\")\" ]"
else
	check "lkbuf sql writes a database" "false"
fi
report
