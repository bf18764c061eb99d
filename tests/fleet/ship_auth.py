#!/usr/bin/env python3
"""lkbuf ship with a ClickHouse user that has a password (docs/fleet.md):
the user and password from an owner-only --credentials file, from
LKST_CLICKHOUSE_CREDENTIALS, and as ClickHouse's own ?user=&password=;
a wrong password refused at once; a group-readable file refused; the
password never printed; the rows arrive, inserted as that user
(system.query_log).

check() runs within fleet.py's cluster; run alone it starts one
clickhouse-server (clickhouse.py) and ships a gen_log log:
  ship_auth.py LKBUF GEN_LOG WORK
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from clickhouse import Cluster, SHIP_USER, SHIP_PASSWORD  # noqa: E402

DB = 'lkst_auth'


def check(lkbuf, ch, work, log, fail):
    d = os.path.join(work, 'auth')
    os.makedirs(d, exist_ok=True)
    cred = os.path.join(d, 'cred')
    with open(os.open(cred, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 'w') as f:
        f.write(f'{SHIP_USER}:{SHIP_PASSWORD}\n')
    info = subprocess.run([lkbuf, 'info', '-f', log], capture_output=True, text=True).stdout
    want = int(re.search(r'^total +(\d+) records', info, re.M)[1])
    n_ok = 0

    def ship(args, env=None, url=None):
        p = subprocess.run([lkbuf, 'ship', '--url', url or ch.url(0), '--database', DB,
                            '--state', os.path.join(d, 'state')] + args,
                           capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, **(env or {})))
        if SHIP_PASSWORD in p.stderr or SHIP_PASSWORD.split(':')[0] in p.stderr:
            fail(f'lkbuf ship {args} printed the password: {p.stderr[-400:]}')
        return p

    p = ship(['--credentials', cred, '--create', '-f', log])
    if p.returncode:
        fail(f'ship --credentials (user {SHIP_USER}) exited {p.returncode}: {p.stderr[-400:]}')
    else:
        n_ok += 1
    p = ship(['-f', log, '--force'], env={'LKST_CLICKHOUSE_CREDENTIALS':
                                          f'{SHIP_USER}:{SHIP_PASSWORD}'})
    if p.returncode:
        fail(f'ship with LKST_CLICKHOUSE_CREDENTIALS exited {p.returncode}: {p.stderr[-400:]}')
    else:
        n_ok += 1
    # ClickHouse's own form: lkbuf's parameters go after the URL's.
    p = ship(['-f', log, '--force'],
             url=f'{ch.url(0)}/?user={SHIP_USER}&password={SHIP_PASSWORD.replace(":", "%3A")}')
    if p.returncode or 'ps' not in p.stderr:
        fail(f'ship --url ...?user=&password= exited {p.returncode} (want 0 and a warning): '
             f'{p.stderr[-400:]}')
    else:
        n_ok += 1
    # A wrong password: refused at once (one try), exit 2.
    wrong = os.path.join(d, 'wrong')
    with open(os.open(wrong, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 'w') as f:
        f.write(f'{SHIP_USER}:not-{SHIP_PASSWORD}\n')
    t0 = time.time()
    p = ship(['--credentials', wrong, '-f', log, '--force'])
    if p.returncode != 2 or 'refused the credentials' not in p.stderr or time.time() - t0 > 20 \
            or 'not-' in p.stderr:
        fail(f'a wrong password: exit {p.returncode} after {time.time() - t0:.1f} s: '
             f'{p.stderr[-400:]}')
    # Without credentials this user is not used: the insert goes in as default.
    os.chmod(cred, 0o644)
    p = ship(['--credentials', cred, '-f', log, '--force'])
    if p.returncode != 1 or 'chmod 600' not in p.stderr:
        fail(f'a world-readable credentials file: exit {p.returncode}: {p.stderr[-400:]}')
    os.chmod(cred, 0o600)
    (got,), = ch.rows(f'SELECT count() FROM {DB}.records FINAL')
    if int(got) != want:
        fail(f'{DB}.records holds {got} records, the log {want}')
    # Who inserted: every INSERT into the database came from the user.
    try:
        ch.query('SYSTEM FLUSH LOGS')
        users = ch.rows(f"SELECT user, count() FROM system.query_log WHERE type = 2 AND "
                        f"query LIKE 'INSERT INTO {DB}.records%' GROUP BY user")
        if [u for u, _ in users] != [SHIP_USER]:
            fail(f'the inserts into {DB}.records came from {users}, not only {SHIP_USER}')
    except RuntimeError as e:
        fail(f'system.query_log: {e}')
    print(f'credentials: {n_ok} shipments as ClickHouse user {SHIP_USER} (password file, '
          f'environment, URL), {got} records; a wrong password and a readable file refused',
          flush=True)


def main():
    lkbuf, gen_log, work = (os.path.abspath(a) for a in sys.argv[1:4])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    log = os.path.join(work, 'a.log')
    subprocess.run([gen_log, log, '20000', '2'], check=True, capture_output=True)
    fails = []

    def fail(msg):
        fails.append(msg)
        print('FAIL: ' + msg, flush=True)

    ch = Cluster(work, n=1)
    try:
        ch.start(0)
        check(lkbuf, ch, work, log, fail)
    finally:
        ch.stop_all()
    if fails:
        sys.exit(f'FAIL: {len(fails)} check(s) failed')
    shutil.rmtree(work, ignore_errors=True)
    print('ship_auth: passed')


if __name__ == '__main__':
    main()
