#!/bin/sh
# Where each writer of an output file writes (utils/lkst_outfile.h): read,
# record -f, record -o DIR, sql and convert, each given a character device
# (a /dev/null and a /dev/full made with mknod in the test's directory, so
# that a writer that replaces them harms nothing), a FIFO, a link to a
# file, a link to the device and a dangling link.  A device or a FIFO is
# written through, or refused with a message where the format seeks
# (SQLite, a CTF directory); a link's target is written and the link
# stays; nothing that is not a regular file is renamed over, a stale
# PATH.tmp link included.  The device cases need root (mknod); without
# it they are left out.
# Usage: test_output.sh DIR-WITH-lkbuf-fake_lkst.so-AND-gen_log
test_name=output
. "$(dirname "$0")/fake_dev.sh"

# The fake device for read and record, as a command's prefix.
dev="env LD_PRELOAD='$bin/fake_lkst.so' FAKE_LKST_STATE='$tmp/state'"
"$bin/gen_log" "$tmp/in.log" 200 2 1 >/dev/null || { echo "gen_log failed"; exit 1; }

root=0
if mknod "$tmp/null" c 1 3 2>/dev/null && mknod "$tmp/full" c 1 7 2>/dev/null; then
	root=1
	ln -s null "$tmp/lnull"
fi
mkfifo "$tmp/fifo"

# fresh: a regular file and links to it and nowhere, for each writer.
fresh() {
	rm -rf "$tmp/file" "$tmp/lfile" "$tmp/ldang" "$tmp/missing" "$tmp/file.tmp" "$tmp/victim" "$tmp/out" "$tmp/out.tmp"
	echo old >"$tmp/file"
	ln -s file "$tmp/lfile"
	ln -s missing "$tmp/ldang"
	echo keep >"$tmp/victim"
}

# Helpers for the checks' shells, which start with $L.
cat >"$tmp/lib.sh" <<EOF
# isdev PATH: still the character device it was made as.
isdev() { [ -c "\$1" ] && [ ! -L "\$1" ]; }
# fromfifo CMD...: CMD with a reader on the FIFO (bounded: a writer that
# replaced the FIFO never opens it), its copy in fifo.out.
fromfifo() {
	timeout 20 cat '$tmp/fifo' >'$tmp/fifo.out' &
	reader=\$!
	"\$@"
	rc=\$?
	wait \$reader
	return \$rc
}
islog() { '$lkbuf' info -f "\$1" >/dev/null 2>&1; }
EOF
L=". '$tmp/lib.sh';"

# ---- the log writer: read, record -f -------------------------------------
for w in read record; do
	if [ $w = read ]; then
		run="$dev '$lkbuf' read -f"
	else
		run="$dev FAKE_LKST_RATE=2 timeout 20 '$lkbuf' record -i 5 -d 0.3 -f"
	fi
	fresh
	if [ $root = 1 ]; then
		check "$w to a device writes through it" "$L $run '$tmp/null' && isdev '$tmp/null'"
		check "$w to a link to a device writes through both" "$L $run '$tmp/lnull' && [ -L '$tmp/lnull' ] && isdev '$tmp/null'"
		check "$w .zst to a link to a device" "$L ln -s null '$tmp/lz.zst' && $run '$tmp/lz.zst' && [ -L '$tmp/lz.zst' ] && isdev '$tmp/null'; rc=\$?; rm -f '$tmp/lz.zst'; exit \$rc"
		check "$w to a full device fails with one message" "$L ! $run '$tmp/full' && isdev '$tmp/full' && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q '^lkbuf: cannot write $tmp/full: No space left on device' '$tmp/err'"
	fi
	check "$w to a FIFO writes the log through it" "$L fromfifo $run '$tmp/fifo' && [ -p '$tmp/fifo' ] && islog '$tmp/fifo.out'"
	check "$w to a link writes its target, the link stays" "$L $run '$tmp/lfile' && [ -L '$tmp/lfile' ] && [ ! -L '$tmp/file' ] && islog '$tmp/file' && [ ! -e '$tmp/file.tmp' ]"
	check "$w to a dangling link creates its target" "$L $run '$tmp/ldang' && [ -L '$tmp/ldang' ] && islog '$tmp/missing'"
	check "$w never writes through a stale .tmp link" "$L ln -s victim '$tmp/out.tmp' && $run '$tmp/out' && [ \"\$(cat '$tmp/victim')\" = keep ] && islog '$tmp/out' && [ ! -e '$tmp/out.tmp' ]"
	check "$w to a directory is refused" "$L ! $run '$tmp' && grep -q 'is a directory; give a file name for the log' '$tmp/err'"
done

# record -o DIR: each rotated file is the log writer's; DIR a device is refused.
if [ $root = 1 ]; then
	check "record -o a device is refused" "$L ! $dev '$lkbuf' record -i 5 -d 0.3 -o '$tmp/null' && isdev '$tmp/null' && grep -q 'give a directory' '$tmp/err'"
fi
check "record -o a link to a directory rotates into it" "$L mkdir '$tmp/rd' && ln -s rd '$tmp/lrd' && $dev FAKE_LKST_RATE=2 timeout 20 '$lkbuf' record -i 5 -d 0.3 -o '$tmp/lrd' && [ -L '$tmp/lrd' ] && islog '$tmp/rd/lkst-000001.log'"

# ---- sql: SQLite seeks in its file ---------------------------------------
sql="'$lkbuf' sql -f '$tmp/in.log' -o"
fresh
if [ $root = 1 ]; then
	check "sql refuses a device" "$L ! $sql '$tmp/null' && isdev '$tmp/null' && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'null is a character device, and a SQLite database is written by seeking in a file; give a regular file' '$tmp/err'"
	check "sql refuses a link to a device" "$L ! $sql '$tmp/lnull' && isdev '$tmp/null' && [ -L '$tmp/lnull' ] && grep -q 'lnull is a character device' '$tmp/err'"
fi
check "sql refuses a FIFO without waiting for a reader" "$L ! timeout 20 $sql '$tmp/fifo' && [ -p '$tmp/fifo' ] && grep -q 'fifo is a FIFO, and a SQLite database is written by seeking' '$tmp/err'"
check "sql refuses standard output" "$L cd '$tmp' && ! $sql - && grep -q 'not to standard output' '$tmp/err' && [ ! -e '$tmp/-' ]"
check "sql to a link writes its target, the link stays" "$L $sql '$tmp/lfile' && [ -L '$tmp/lfile' ] && head -c 15 '$tmp/file' | grep -q 'SQLite format 3'"
check "sql to a dangling link creates its target" "$L $sql '$tmp/ldang' && [ -L '$tmp/ldang' ] && head -c 15 '$tmp/missing' | grep -q 'SQLite format 3'"
check "sql never writes through a stale .tmp link" "$L ln -s victim '$tmp/out.tmp' && $sql '$tmp/out' && [ \"\$(cat '$tmp/victim')\" = keep ] && head -c 15 '$tmp/out' | grep -q 'SQLite format 3' && [ ! -e '$tmp/out.tmp' ]"

# ---- convert: JSON and Perfetto are written in order; CTF is a directory --
for f in json perfetto; do
	conv="'$lkbuf' convert -f '$tmp/in.log' --to $f -o"
	fresh
	if [ $root = 1 ]; then
		check "convert $f to a device" "$L $conv '$tmp/null' && isdev '$tmp/null'"
		check "convert $f to a link to a device" "$L $conv '$tmp/lnull' && isdev '$tmp/null' && [ -L '$tmp/lnull' ]"
		check "convert $f to a full device fails with one message" "$L ! $conv '$tmp/full' && isdev '$tmp/full' && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'No space left on device' '$tmp/err'"
	fi
	check "convert $f to a FIFO" "$L fromfifo $conv '$tmp/fifo' && [ -s '$tmp/fifo.out' ]"
	check "convert $f to a link writes its target" "$L $conv '$tmp/lfile' && [ -L '$tmp/lfile' ] && [ \$(wc -c <'$tmp/file') -gt 100 ]"
	check "convert $f to a directory is refused" "$L ! $conv '$tmp' && grep -q 'is a directory' '$tmp/err'"
done
if [ $root = 1 ]; then
	check "convert ctf refuses a device" "$L ! '$lkbuf' convert -f '$tmp/in.log' --to ctf -o '$tmp/null' && isdev '$tmp/null' && grep -q 'is not a directory' '$tmp/err'"
fi
check "convert ctf into a link to a directory" "$L mkdir '$tmp/cd' && ln -s cd '$tmp/lcd' && '$lkbuf' convert -f '$tmp/in.log' --to ctf -o '$tmp/lcd' && [ -L '$tmp/lcd' ] && [ -s '$tmp/cd/metadata' ]"

[ $root = 1 ] || echo "test_output.sh: not root: the device cases were left out" >&2
report
