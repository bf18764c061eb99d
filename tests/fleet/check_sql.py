#!/usr/bin/env python3
"""lkbuf sql against the tools' own figures, on real guest logs.

check_sql.py LKBUF WORKDIR LOG...: each LOG (a file, or a directory of
lkbuf record's rotated set) becomes a SQLite database; then
  - rows per CPU equal `lkbuf print -C`'s, and (cpu, seq) are unique;
  - the losses table equals `lkbuf info`'s per-CPU lost/overwritten/dropped,
    and its gaps add up to the lost counts;
  - the views v_syscalls, v_sched_latency and v_irqs give, per key, the
    count, sum, min and max of `lkbuf report -C`'s syscall_lat,
    sched_lat and irq_lat (which equal `lkm agg`'s: scenario t66);
  - every event view ev_MNEMONIC names its arguments and counts its event.
Prints one line per log and exits non-zero on any difference.
"""
import collections
import csv
import io
import os
import re
import sqlite3
import subprocess
import sys


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def check_log(lkbuf, work, log):
    fails = []
    db = os.path.join(work, re.sub(r'[^A-Za-z0-9]+', '_', log.strip('/')) + '.db')
    run(lkbuf, 'sql', '-f', log, '-o', db)
    con = sqlite3.connect(db)
    q = lambda sql: con.execute(sql).fetchall()

    # Rows per CPU as lkbuf print shows them.
    printed = collections.Counter()
    for row in csv.DictReader(io.StringIO(run(lkbuf, 'print', '-C', '-f', log))):
        printed[int(row['cpu'])] += 1
    stored = dict(q('SELECT cpu, count(*) FROM records GROUP BY cpu'))
    if stored != dict(printed):
        fails.append(f'rows per cpu {stored} != lkbuf print {dict(printed)}')
    (dups,), = q('SELECT count(*) - count(DISTINCT cpu || "/" || seq) FROM records')
    if dups:
        fails.append(f'{dups} duplicated (cpu, seq)')

    # Losses as lkbuf info says them.
    info = {}
    for m in re.finditer(r'^cpu (\d+) +\d+ records.*?, (\d+) lost; since boot: written (\d+), '
                         r'overwritten (\d+), dropped (\d+)', run(lkbuf, 'info', '-f', log), re.M):
        info[int(m[1])] = tuple(int(x) for x in m.groups()[1:])
    losses = {c: (l, w, o, d) for c, l, w, o, d in
              q('SELECT cpu, lost, written, overwritten, dropped FROM losses')}
    if losses != info:
        fails.append(f'losses {losses} != lkbuf info {info}')
    gaps = dict(q('SELECT cpu, sum(count) FROM gaps GROUP BY cpu'))
    for c, (lost, *_ ) in info.items():
        if gaps.get(c, 0) != lost:
            fails.append(f'cpu {c}: gaps add up to {gaps.get(c, 0)}, lost {lost}')

    # The views' pairs as lkbuf report's aggregations.
    report = collections.defaultdict(dict)
    for row in csv.DictReader(io.StringIO(run(lkbuf, 'report', '-C', '-f', log, '--section',
                                             'syscall_lat,sched_lat,irq_lat'))):
        report[row['aggregation']][int(row['key1'])] = tuple(
            int(row[k]) for k in ('count', 'sum', 'min', 'max'))
    views = {'syscall_lat': 'SELECT pid, count(*), sum(duration_ns), min(duration_ns), '
                            'max(duration_ns) FROM v_syscalls GROUP BY pid',
             'sched_lat': 'SELECT pid, count(*), sum(latency_ns), min(latency_ns), '
                          'max(latency_ns) FROM v_sched_latency GROUP BY pid',
             'irq_lat': 'SELECT irq, count(*), sum(duration_ns), min(duration_ns), '
                        'max(duration_ns) FROM v_irqs GROUP BY irq'}
    pairs = {}
    for agg, sql in views.items():
        got = {k: tuple(v) for k, *v in q(sql)}
        pairs[agg] = sum(v[0] for v in got.values())
        if got != report.get(agg, {}):
            diff = sorted(set(got.items()) ^ set(report.get(agg, {}).items()))[:6]
            fails.append(f'{agg}: the view differs from lkbuf report: {diff}')

    # Event views: named arguments, every record of the event.
    for ev, n in q('SELECT e.mnemonic, count(r.seq) FROM events e LEFT JOIN records r '
                   'ON r.event = e.event GROUP BY e.event'):
        (m,), = q(f'SELECT count(*) FROM "ev_{ev}"')
        if m != n:
            fails.append(f'ev_{ev} has {m} rows, the records {n}')
    cols = [r[1] for r in q('PRAGMA table_info("ev_SYSCALL_EXIT")')]
    if 'return_value' not in cols or 'syscall_number' not in cols:
        fails.append(f'ev_SYSCALL_EXIT does not name its arguments: {cols}')

    total = sum(printed.values())
    for f in fails:
        print(f'FAIL: {log}: {f}')
    print(f'{"ok" if not fails else "FAIL"}: {log}: {total} records; pairs: '
          + ', '.join(f'{k} {v}' for k, v in pairs.items()))
    return not fails


def main():
    lkbuf, work, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(work, exist_ok=True)
    if not logs:
        sys.exit('FAIL: no logs to check')
    ok = all([check_log(lkbuf, work, log) for log in logs])
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
