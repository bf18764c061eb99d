#!/usr/bin/env python3
"""lkbuf sql's SQLite database and lkbuf ship --create's ClickHouse tables
name and fill one schema, on a host log (no guest needed).

check_views.py LKBUF GEN_LOG WORK: a gen_log log (with saved task names,
context switches and user marks) becomes a SQLite database and is shipped
to one clickhouse-server (tests/fleet/clickhouse.py); then
  - every ev_MNEMONIC view has the same columns in both, and the same rows;
  - task names and marks are text (ev_PROCESS_CONTEXTSWITCH.next_comm,
    ev_USER_MARK.text), equal in both;
  - the tasks table holds the log's saved names, equal in both;
  - ship --create again over the tables it made succeeds.
Prints "N passed, M failed"; without clickhouse-server, the SQLite half.
"""
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clickhouse import Cluster  # noqa: E402

DB = 'lkst'
passed = failed = 0


def check(ok, msg):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print('FAIL: ' + msg, flush=True)


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    lkbuf, gen_log, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, 'v.log')
    run(gen_log, log, '20000', '2', '1')
    db = os.path.join(work, 'v.db')
    run(lkbuf, 'sql', '-f', log, '-o', db)
    lite = sqlite3.connect(db)
    views = [r[0] for r in lite.execute(
        "SELECT name FROM sqlite_master WHERE type = 'view' AND name LIKE 'ev_%' ORDER BY name")]
    check(len(views) >= 90, f'{len(views)} ev_ views in SQLite')

    def lite_cols(v):
        return [r[1] for r in lite.execute(f'PRAGMA table_info("{v}")')]

    cs = lite.execute('SELECT arg_text, count(*) FROM records WHERE event = 1 GROUP BY 1 ORDER BY 1').fetchall()
    sw = lite.execute('SELECT next_comm, count(*) FROM "ev_PROCESS_CONTEXTSWITCH" GROUP BY 1 ORDER BY 1').fetchall()
    check(sw and sw == cs and all(isinstance(n, str) and not n.isdigit() for n, _ in sw),
          f'next_comm is not the task name as text: {sw[:5]}')
    marks = lite.execute('SELECT DISTINCT text FROM "ev_USER_MARK"').fetchall()
    check(marks and all(isinstance(m, str) and m and not m.isdigit() for m, in marks),
          f'ev_USER_MARK.text is not text: {marks[:3]}')
    tasks = lite.execute('SELECT pid, tgid, comm FROM tasks ORDER BY pid').fetchall()
    saved = [ln for ln in run(lkbuf, 'info', '-f', log).splitlines() if ln.startswith('tasks')]
    check(tasks and saved and saved[0].split()[1] == str(len(tasks)),
          f'tasks table {tasks[:3]} ({len(tasks)}) and info {saved}')

    if not shutil.which('clickhouse-server'):
        print('no clickhouse-server: the SQLite half only')
        return
    ch = Cluster(os.path.join(work, 'ch'), n=1)
    try:
        ch.start(0)
        run(lkbuf, 'ship', '--url', ch.url(0), '--database', DB, '--create')
        # Again over its own tables: what it adds to older ones must hold.
        run(lkbuf, 'ship', '--url', ch.url(0), '--database', DB, '--create')
        run(lkbuf, 'ship', '--url', ch.url(0), '--database', DB,
            '--state', os.path.join(work, 'state'), '-f', log)
        chviews = [r[0] for r in ch.rows(f"SELECT name FROM system.tables WHERE database = '{DB}' "
                                         "AND name LIKE 'ev\\\\_%' ORDER BY name")]
        check(chviews == views, f'views differ: SQLite only {sorted(set(views) - set(chviews))[:5]}, '
              f'ClickHouse only {sorted(set(chviews) - set(views))[:5]}')
        differ = []
        for v in views:
            if v not in chviews:
                continue
            cc = [r[0] for r in ch.rows(f'DESCRIBE TABLE {DB}.`{v}`')]
            if cc != lite_cols(v):
                differ.append((v, lite_cols(v), cc))
        check(not differ, f'{len(differ)} of {len(views)} views name their columns differently, '
              f'first: {differ[:1]}')
        for v in ('ev_PROCESS_CONTEXTSWITCH', 'ev_USER_MARK', 'ev_SYSCALL_ENTRY'):
            a = [tuple(str(x) for x in r) for r in lite.execute(f'SELECT * FROM "{v}" ORDER BY cpu, seq')]
            b = [tuple(r) for r in ch.rows(f'SELECT * FROM {DB}.`{v}` ORDER BY cpu, seq')]
            check(a and a == b, f'{v}: {len(a)} rows in SQLite, {len(b)} in ClickHouse, '
                  f'first differing {next(((x, y) for x, y in zip(a, b) if x != y), None)}')
        a = [tuple(str(x) for x in r) for r in tasks]
        b = [tuple(r) for r in ch.rows(f'SELECT pid, tgid, comm FROM {DB}.tasks FINAL ORDER BY pid')]
        check(a == b, f'tasks differ: {a[:3]} and {b[:3]}')
    finally:
        ch.stop_all()


if __name__ == '__main__':
    try:
        main()
    except (subprocess.CalledProcessError, RuntimeError, sqlite3.Error) as e:
        failed += 1
        print(f'FAIL: {e} {getattr(e, "stderr", "")}')
    print(f'{passed} passed, {failed} failed')
    sys.exit(1 if failed else 0)
