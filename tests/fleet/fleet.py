#!/usr/bin/env python3
"""The fleet test: the guest logs of a test run shipped into a 2-shard
ClickHouse, checked against the logs themselves and against SQLite.

fleet.py LKBUF OUT WORK: OUT is a test run's output (tests/run-all.sh's
out/test), whose boots name their hosts (lkst_hostname=): the scenarios
boot lkst-a (a log and lkbuf record's rotated set), the persist boots
lkst-b (the crashed boot's trace saved with --previous-boot) and the demo
boot lkst-b again (a second boot of that host), the boot-options boot
lkst-c, and, when the run had one, kdump's vmcore-extracted log (lkst-d).

1. two clickhouse-server instances (tests/fleet/clickhouse.py), the tables
   made by lkbuf ship --create --cluster on both;
2. the single logs shipped with a small batch, the shipper killed with
   SIGKILL once rows arrive and shard 2's server killed too, the shipper
   started again (it retries with backoff while the shard is down; it
   resumes from its state file), the server restarted; the rotated set
   shipped by --dir; then every file shipped again with --force; a log
   shipped as a ClickHouse user with a password (ship_auth.py);
3. per (host, boot, CPU) rows equal lkbuf print's (0 missing), and after
   OPTIMIZE ... FINAL each record is stored once (0 duplicated); every
   file's losses rows equal lkbuf info's, its gaps add up to its losses;
4. per log, lkbuf sql's SQLite database and ClickHouse (restricted to the
   log's sequence ranges) give the same answers to: top system calls, the
   last 20 events before each OOPS_PANIC, scheduling latency p99.
Ends with the line `fleet: N records shipped from H hosts ...`.
"""
import collections
import csv
import io
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_sql  # noqa: E402
import ship_auth  # noqa: E402
from clickhouse import Cluster  # noqa: E402

# (path under OUT, kind): "file" ships with -f, "dir" with --dir.
LOGS = [('scenarios/t66_report/trace.log', 'file'),
        ('scenarios/t94_record/recD', 'dir'),
        ('persist/persist/previous.log', 'file'),
        ('demo/demo/trace.log', 'file'),
        ('bootopt/boot_options/trace.log', 'file'),
        ('kdump/crash.log', 'file')]
EV_SYSCALL_ENTRY, EV_OOPS_PANIC = 0x30, 0xc1
DB = 'lkst'

fails = []


def fail(msg):
    fails.append(msg)
    print('FAIL: ' + msg, flush=True)


def run(*cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


class Log:
    def __init__(self, lkbuf, path, kind, work):
        self.path, self.kind = path, kind
        info = run(lkbuf, 'info', '-f', path)
        self.host = re.search(r'^host +(.*)$', info, re.M)[1]
        self.boot = re.search(r'^boot +(\S+) \((.*)\)$', info, re.M)[1]
        self.boot_origin = re.search(r'^boot +(\S+) \((.*)\)$', info, re.M)[2]
        self.source = re.search(r'^source +(.*)$', info, re.M)[1]
        self.per_cpu = collections.Counter(
            int(r['cpu']) for r in csv.DictReader(io.StringIO(run(lkbuf, 'print', '-C', '-f', path))))
        self.files = ([os.path.join(path, f) for f in sorted(os.listdir(path))
                       if re.match(r'lkst-.*\.log(\.zst)?$', f)] if kind == 'dir' else [path])
        self.db = os.path.join(work, re.sub(r'[^A-Za-z0-9]+', '_', path[-60:]) + '.db')
        run(lkbuf, 'sql', '-f', path, '-o', self.db)
        self.sql = sqlite3.connect(self.db)
        self.ranges = self.sql.execute('SELECT cpu, seq_start, seq_end FROM losses').fetchall()

    def q(self, sql):
        return [tuple(str(x) for x in r) for r in self.sql.execute(sql).fetchall()]

    def where(self):
        """This log's records in ClickHouse: its host, boot and sequence ranges."""
        rng = ' OR '.join(f'(cpu = {c} AND seq >= {a} AND seq < {b})' for c, a, b in self.ranges)
        return f"host = '{esc(self.host)}' AND boot = '{esc(self.boot)}' AND ({rng or '0'})"


def esc(s):
    return s.replace('\\', '\\\\').replace("'", "\\'")


def info_losses(lkbuf, path):
    out = {}
    for m in re.finditer(r'^cpu (\d+) +\d+ records.*?, (\d+) lost; since boot: written (\d+), '
                         r'overwritten (\d+), dropped (\d+)', run(lkbuf, 'info', '-f', path), re.M):
        out[int(m[1])] = tuple(int(x) for x in m.groups()[1:])
    return out


def ship(lkbuf, ch, args, state, batch=50000, wait=True):
    cmd = [lkbuf, 'ship', '--url', ch.url(0), '--state', state, '--batch', str(batch)] + args
    if not wait:
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(state + '.err', 'a'))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    if p.returncode:
        raise RuntimeError(f'{" ".join(cmd)} exited {p.returncode}: {p.stderr[-800:]}')
    return p.stderr


# ---- the fixed queries, in SQLite and in ClickHouse -----------------------

def q_top_syscalls(log, ch):
    lite = log.q(f'SELECT arg1, count(*) AS n FROM records WHERE event = {EV_SYSCALL_ENTRY} '
                 'GROUP BY arg1 ORDER BY n DESC, arg1 LIMIT 10')
    house = ch.rows(f'SELECT arg1, count() AS n FROM {DB}.records FINAL WHERE {log.where()} '
                    f'AND event = {EV_SYSCALL_ENTRY} GROUP BY arg1 ORDER BY n DESC, arg1 LIMIT 10')
    return [('top system calls', lite, [tuple(r) for r in house])]


def q_before_panic(log, ch):
    out = []
    panics = log.q(f'SELECT time_ns, cpu, seq FROM records WHERE event = {EV_OOPS_PANIC} '
                   'ORDER BY time_ns, cpu, seq')
    house = ch.rows(f'SELECT time_ns, cpu, seq FROM {DB}.records FINAL WHERE {log.where()} '
                    f'AND event = {EV_OOPS_PANIC} ORDER BY time_ns, cpu, seq')
    out.append(('OOPS_PANIC records', panics, [tuple(r) for r in house]))
    for t, c, s in panics:
        before = f'(time_ns < {t} OR (time_ns = {t} AND (cpu < {c} OR (cpu = {c} AND seq < {s}))))'
        lite = log.q(f'SELECT cpu, seq, event, pid FROM records WHERE {before} '
                     'ORDER BY time_ns DESC, cpu DESC, seq DESC LIMIT 20')
        house = ch.rows(f'SELECT cpu, seq, event, pid FROM {DB}.records FINAL WHERE {log.where()} '
                        f'AND {before} ORDER BY time_ns DESC, cpu DESC, seq DESC LIMIT 20')
        out.append((f'the 20 events before the OOPS_PANIC at {t}', lite,
                    [tuple(r) for r in house]))
    return out


# Scheduling latency pairs (lkst_report.c's rule, as v_sched_latency in
# lkbuf_sql.c) with arrays, as ClickHouse 18 has no window functions: per
# woken pid its wakeups (1), switch-outs while runnable (2) and switch-ins
# (3) in order; a switch-in right after a wakeup is a pair.
CH_SCHED = """
SELECT count() AS n, if(n > 0, arraySort(groupArray(lat))[intDiv(99 * n + 99, 100)], 0)
FROM (
 SELECT arrayJoin(arrayMap(i -> items[i].1 - items[i - 1].1,
   arrayFilter(i -> i > 1 AND items[i].5 = 3 AND items[i - 1].5 = 1,
               arrayEnumerate(items)))) AS lat
 FROM (
  SELECT bitAnd(it.1, 4294967295) AS target,
         arraySort(groupArray((time_ns, cpu, seq, it.2, it.3))) AS items
  FROM (
   SELECT time_ns, cpu, seq, arrayJoin(multiIf(
     event = 1 AND arg3 = 0, [(arg1, toUInt8(0), toUInt8(2)), (arg2, toUInt8(1), toUInt8(3))],
     event = 1, [(arg2, toUInt8(1), toUInt8(3))],
     [(arg1, toUInt8(0), toUInt8(1))])) AS it
   FROM {db}.records FINAL
   WHERE {where} AND (event IN (1, 14) OR (event = 2 AND arg1 != pid)))
  WHERE target BETWEEN 1 AND 2147483647
  GROUP BY target))
"""


def q_sched_p99(log, ch):
    lite = log.q('SELECT count(*), coalesce((SELECT latency_ns FROM v_sched_latency '
                 'ORDER BY latency_ns LIMIT 1 OFFSET (SELECT (99 * count(*) + 99) / 100 - 1 '
                 'FROM v_sched_latency)), 0) FROM v_sched_latency')
    house = ch.rows(CH_SCHED.format(db=DB, where=log.where()))
    return [('scheduling latency pairs and p99', lite, [tuple(r) for r in house])]


QUERIES = (q_top_syscalls, q_before_panic, q_sched_p99)


# ---- the test ----------------------------------------------------------------

def follow(lkbuf, ch, g, work):
    """A rotated set shipped as lkbuf record makes it: --follow on a
    directory whose files appear one by one, each written under a .tmp
    name and renamed, then SIGTERM once the state file lists them all."""
    d = os.path.join(work, 'follow-' + os.path.basename(g.path))
    os.makedirs(d)
    g.follow_dir, g.follow_state = d, os.path.join(work, 'follow.state')
    p = ship(lkbuf, ch, ['--dir', d, '--follow'], g.follow_state, wait=False)
    copies = []
    for f in g.files:
        dst = os.path.join(d, os.path.basename(f))
        shutil.copyfile(f, dst + '.tmp')
        os.rename(dst + '.tmp', dst)
        copies.append(dst)
        time.sleep(0.3)
    end = time.time() + 60
    while time.time() < end and p.poll() is None:
        if os.path.exists(g.follow_state) and \
                len(open(g.follow_state).read().splitlines()) == len(copies):
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGTERM)
    if p.wait(timeout=60):
        fail(f'ship --follow exited {p.returncode}: {open(g.follow_state + ".err").read()[-500:]}')
    n = len(open(g.follow_state).read().splitlines()) if os.path.exists(g.follow_state) else 0
    if n != len(copies):
        fail(f'ship --follow shipped {n} of {len(copies)} files')
    g.files = copies


def check_delete(lkbuf, ch, g, work):
    """--delete removes a file only once ClickHouse took all of it: kept
    when every try failed, removed once acknowledged."""
    d = os.path.join(work, 'delete')
    os.makedirs(d)
    f = os.path.join(d, 'copy.log')
    shutil.copyfile(g.path, f)
    dead = subprocess.run([lkbuf, 'ship', '--url', 'http://127.0.0.1:1', '--retries', '2',
                           '--delete', '-f', f], capture_output=True, text=True)
    if dead.returncode != 2 or not os.path.exists(f):
        fail(f'--delete with ClickHouse unreachable: exit {dead.returncode}, '
             f'file {"kept" if os.path.exists(f) else "deleted"}')
    # A database of its own: the copy's files and losses rows stay apart.
    ship(lkbuf, ch, ['--database', 'lkst_delete', '--create', '--delete', '-f', f],
         os.path.join(d, 'state'))
    if os.path.exists(f):
        fail('--delete left a shipped file')


def counts(ch, final=True):
    return {(h, b, int(c)): int(n) for h, b, c, n in ch.rows(
        f'SELECT host, boot, cpu, count() FROM {DB}.records {"FINAL" if final else ""} '
        'GROUP BY host, boot, cpu')}


def check_counts(ch, expected, when):
    got = counts(ch)
    missing = sum(max(0, n - got.get(k, 0)) for k, n in expected.items())
    extra = sum(max(0, n - expected.get(k, 0)) for k, n in got.items())
    if got != expected:
        fail(f'{when}: rows per (host, boot, cpu) {got} != lkbuf print {expected}')
    return missing, extra


def check_stored_once(ch, expected, when):
    for i in range(len(ch.servers)):
        ch.query(f'OPTIMIZE TABLE {DB}.records_local FINAL', i)
    raw = counts(ch, final=False)
    dups = sum(max(0, n - expected.get(k, 0)) for k, n in raw.items())
    if raw != expected:
        fail(f'{when}: stored rows {raw} != {expected} after OPTIMIZE FINAL')
    return dups


def main():
    lkbuf, out, work = (os.path.abspath(a) for a in sys.argv[1:4])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    logs = [Log(lkbuf, os.path.join(out, p), k, work)
            for p, k in LOGS if os.path.exists(os.path.join(out, p))]
    hosts = collections.defaultdict(set)
    for log in logs:
        hosts[log.host].add(log.boot)
        print(f'log {log.path}: host {log.host}, boot {log.boot} ({log.boot_origin}), '
              f'{sum(log.per_cpu.values())} records, {len(log.files)} file(s)', flush=True)
    # Each log's SQLite views against lkbuf report, print and info.
    for log in logs:
        if not check_sql.check_log(lkbuf, work, log.path):
            fail(f'{log.path}: lkbuf sql differs from the tools (above)')
    prev = [g for g in logs if 'previous-boot' in g.source]
    if len(hosts) < 3 or max(len(b) for b in hosts.values()) < 2 or not prev:
        sys.exit(f'FAIL: the logs of {out} are not a fleet: hosts {dict(hosts)}, '
                 f'{len(prev)} previous-boot log(s); they need three host names, two boots of one '
                 'host, and a panic recovered by --previous-boot (run tests/run-all.sh, whose '
                 'boots set lkst_hostname=)')
    for g in prev:
        if not g.q(f'SELECT 1 FROM records WHERE event = {EV_OOPS_PANIC}'):
            fail(f'{g.path}: the recovered boot has no OOPS_PANIC record')
    expected = collections.Counter()
    for log in logs:
        for c, n in log.per_cpu.items():
            expected[(log.host, log.boot, c)] += n
    expected = dict(expected)
    # Two logs of one boot must not hold the same records, or the sum overcounts.
    seen = collections.Counter()
    for log in logs:
        for c, a, b in log.ranges:
            seen[(log.host, log.boot, c, a, b)] += 1
    if max(seen.values()) > 1:
        sys.exit(f'FAIL: two logs cover the same sequence numbers: {seen}')

    ch = Cluster(work)
    prev_term = signal.signal(signal.SIGTERM, lambda *a: sys.exit('FAIL: terminated'))
    shipper = None
    t0 = time.time()
    try:
        for i in range(2):
            ch.start(i)
        for i in range(2):
            run(lkbuf, 'ship', '--url', ch.url(i), '--database', DB, '--create',
                '--cluster', 'lkst_fleet')
        singles = [g for g in logs if g.kind == 'file']
        dirs = [g for g in logs if g.kind == 'dir']
        fargs = [a for g in singles for a in ('-f', g.path)]
        state = os.path.join(work, 'ship.state')

        # Crashes: the shipper and shard 2 killed mid-ship, both restarted.
        shipper = ship(lkbuf, ch, fargs, state, batch=2000, wait=False)
        end, part = time.time() + 60, 0
        single = sum(sum(g.per_cpu.values()) for g in singles)
        while time.time() < end and shipper.poll() is None and part < single // 3:
            part = sum(counts(ch, final=False).values())
            time.sleep(0.02)
        shipper.kill()
        if shipper.wait() != -signal.SIGKILL:
            fail(f'the shipper ended before it was killed: put {part} of {single} rows in')
        ch.kill(1)
        shipper = ship(lkbuf, ch, fargs, state, batch=2000, wait=False)
        time.sleep(1.5)
        ch.start(1)
        if shipper.wait(timeout=180):
            fail(f'the restarted shipper failed: {open(state + ".err").read()[-800:]}')
        shipper = None
        retried = open(state + '.err').read().count('again in')
        for g in dirs:
            follow(lkbuf, ch, g, work)
        missing, extra = check_counts(ch, expected, 'after the crashes')
        print(f'crashes: {part} of {single} rows in before the kill, {retried} inserts retried while shard 2 '
              f'was down; missing {missing}, extra {extra}', flush=True)
        # The state file: shipping again without --force sends nothing.
        again = ship(lkbuf, ch, fargs, state)
        if 'shipped' in again:
            fail(f'the state file did not stop a second shipment: {again}')
        # A forced re-ship of every file.
        for g in singles:
            ship(lkbuf, ch, ['-f', g.path, '--force'], state)
        for g in dirs:
            ship(lkbuf, ch, ['--dir', g.follow_dir, '--force'], g.follow_state)
        check_delete(lkbuf, ch, singles[0], work)
        # A user with a password: credentials file, environment, URL (own database).
        ship_auth.check(lkbuf, ch, work, singles[0].path, fail)
        raw_dups = sum(counts(ch, final=False).values()) - sum(expected.values())
        m2, e2 = check_counts(ch, expected, 'after a forced re-ship')
        missing, extra = missing + m2, extra + e2
        dups = check_stored_once(ch, expected, 'after a forced re-ship')
        print(f're-ship: {raw_dups} repeated rows before the merge, {dups} after', flush=True)

        # The per-event views --create made name the arguments, as lkbuf sql's do.
        cols = [r[0] for r in ch.rows(f'DESCRIBE TABLE {DB}.ev_SYSCALL_EXIT')]
        n_exit = sum(int(g.q('SELECT count(*) FROM "ev_SYSCALL_EXIT"')[0][0]) for g in logs)
        (got_exit,), = ch.rows(f'SELECT count() FROM {DB}.ev_SYSCALL_EXIT')
        if 'return_value' not in cols or int(got_exit) != n_exit:
            fail(f'ev_SYSCALL_EXIT in ClickHouse: columns {cols}, {got_exit} rows, '
                 f'SQLite {n_exit}')

        # Losses and files, file by file, as lkbuf info says them.
        for g in logs:
            for f in g.files:
                real = os.path.realpath(f)
                want = info_losses(lkbuf, f)
                got = {int(c): tuple(int(x) for x in r) for c, *r in ch.rows(
                    f"SELECT cpu, lost, written, overwritten, dropped FROM {DB}.losses FINAL "
                    f"WHERE file = '{esc(real)}'")}
                if got != want:
                    fail(f'{f}: losses {got} != lkbuf info {want}')
                gaps = {int(c): int(n) for c, n in ch.rows(
                    f"SELECT g.cpu, sum(g.count) FROM {DB}.gaps AS g FINAL GLOBAL ANY INNER JOIN "
                    f"(SELECT host, boot, cpu, seq_start, seq_end FROM {DB}.losses FINAL "
                    f"WHERE file = '{esc(real)}') USING (host, boot, cpu) "
                    "WHERE g.first_seq >= seq_start AND g.first_seq < seq_end GROUP BY g.cpu")}
                for c, (lost, *_) in want.items():
                    if gaps.get(c, 0) != lost:
                        fail(f'{f}: cpu {c}: gaps add up to {gaps.get(c, 0)}, lost {lost}')
                if not ch.rows(f"SELECT 1 FROM {DB}.files FINAL WHERE file = '{esc(real)}'"):
                    fail(f'{f}: no files row')

        # SQLite and ClickHouse agree.
        agreed = 0
        for g in logs:
            for qf in QUERIES:
                for name, lite, house in qf(g, ch):
                    if lite != house:
                        fail(f'{g.path}: {name}: SQLite {lite[:5]} != ClickHouse {house[:5]}')
                    else:
                        agreed += 1

        # The fleet's answers, per host, from the Distributed tables.
        print('top system calls per host (ClickHouse):')
        for h, nr, n in ch.rows(
                f'SELECT host, name, count() AS n FROM (SELECT host, arg1 FROM {DB}.records '
                f'FINAL WHERE event = {EV_SYSCALL_ENTRY}) GLOBAL ANY LEFT JOIN (SELECT '
                f'toInt64(nr) AS arg1, name FROM {DB}.syscalls FINAL) USING arg1 '
                'GROUP BY host, name ORDER BY host, n DESC, name LIMIT 3 BY host'):
            print(f'  {h:8} {nr:16} {n}')
        for h in sorted(hosts):
            n, p99 = ch.rows(CH_SCHED.format(db=DB, where=f"host = '{esc(h)}'"))[0]
            print(f'  {h}: scheduling latency p99 {int(p99) / 1000:.1f} us over {n} wakeups')
        total = sum(expected.values())
        secs = time.time() - t0
        print(f'({secs:.0f} s with the servers)')
        if fails:
            sys.exit(f'FAIL: {len(fails)} check(s) failed')
        print(f'fleet: {total} records shipped from {len(hosts)} hosts to a 2-shard ClickHouse, '
              f'{missing} missing, {dups} duplicated; SQLite and ClickHouse agree on {agreed} '
              'queries')
    finally:
        if shipper and shipper.poll() is None:
            shipper.kill()
        ch.stop_all()
        signal.signal(signal.SIGTERM, prev_term)
    if not fails:
        for i in range(2):
            shutil.rmtree(os.path.join(ch.servers[i]['dir'], 'data'), ignore_errors=True)


if __name__ == '__main__':
    main()
