"""Two clickhouse-server instances on 127.0.0.1, the two shards of cluster
lkst_fleet, each with its own ports, configuration and data directory under
a work directory; started and stopped (killed, if need be) by the test.
"""
import ctypes
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request

CONFIG = """<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>{d}/log/server.log</log>
    <errorlog>{d}/log/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>{http}</http_port>
  <tcp_port>{tcp}</tcp_port>
  <interserver_http_port>{inter}</interserver_http_port>
  <path>{d}/data/</path>
  <tmp_path>{d}/tmp/</tmp_path>
  <user_files_path>{d}/data/user_files/</user_files_path>
  <format_schema_path>{d}/data/format_schemas/</format_schema_path>
  <users_config>{d}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709120</mark_cache_size>
  <max_concurrent_queries>20</max_concurrent_queries>
  <remote_servers>
    <lkst_fleet>
{shards}
    </lkst_fleet>
  </remote_servers>
</yandex>
"""
SHARD = ("      <shard><replica><host>127.0.0.1</host><port>{tcp}</port>"
         "</replica></shard>")
# lkbuf ship --credentials logs in as SHIP_USER (ship_auth.py), whose
# queries system.query_log keeps, to show who sent them; the Distributed
# tables reach the shards as default.
SHIP_USER, SHIP_PASSWORD = 'lkst_ship', 'fleet-Pa55:word'
USERS = """<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage></default>
    <ship><max_memory_usage>2000000000</max_memory_usage><log_queries>1</log_queries></ship>
  </profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks>
    <profile>default</profile><quota>default</quota></default>
    <""" + SHIP_USER + """><password>""" + SHIP_PASSWORD + """</password>
    <networks><ip>127.0.0.1</ip></networks>
    <profile>ship</profile><quota>default</quota></""" + SHIP_USER + """></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries>
    <errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows>
    <execution_time>0</execution_time></interval></default></quotas>
</yandex>
"""


def _die_with_parent():
    """In the child: killed when the test dies, even by SIGKILL."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def free_ports(n):
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(('127.0.0.1', 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


class Cluster:
    def __init__(self, work, n=2):
        ports = free_ports(3 * n)
        self.servers = []
        for i in range(n):
            d = os.path.join(work, f'clickhouse{i + 1}')
            for sub in ('data', 'tmp', 'log'):
                os.makedirs(os.path.join(d, sub), exist_ok=True)
            self.servers.append({'dir': d, 'http': ports[3 * i], 'tcp': ports[3 * i + 1],
                                 'inter': ports[3 * i + 2], 'proc': None})
        shards = '\n'.join(SHARD.format(tcp=s['tcp']) for s in self.servers)
        for s in self.servers:
            with open(os.path.join(s['dir'], 'config.xml'), 'w') as f:
                f.write(CONFIG.format(d=s['dir'], shards=shards, **{
                    k: s[k] for k in ('http', 'tcp', 'inter')}))
            with open(os.path.join(s['dir'], 'users.xml'), 'w') as f:
                f.write(USERS)

    def url(self, i):
        return f'http://127.0.0.1:{self.servers[i]["http"]}'

    def start(self, i, timeout=60):
        s = self.servers[i]
        out = open(os.path.join(s['dir'], 'log', 'stdout.txt'), 'ab')
        s['proc'] = subprocess.Popen(
            ['clickhouse-server', '--config-file=' + os.path.join(s['dir'], 'config.xml')],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent)
        end = time.time() + timeout
        while time.time() < end:
            if s['proc'].poll() is not None:
                raise RuntimeError(f'clickhouse-server {i + 1} exited: see {s["dir"]}/log')
            try:
                if urllib.request.urlopen(self.url(i) + '/', timeout=2).read() == b'Ok.\n':
                    return
            except (urllib.error.URLError, ConnectionError, socket.timeout):
                pass
            time.sleep(0.2)
        raise RuntimeError(f'clickhouse-server {i + 1} did not answer in {timeout} s')

    def kill(self, i):
        p = self.servers[i]['proc']
        if p and p.poll() is None:
            p.kill()
            p.wait()
        self.servers[i]['proc'] = None

    def stop_all(self):
        for i in range(len(self.servers)):
            self.kill(i)

    def query(self, sql, i=0):
        req = urllib.request.Request(self.url(i) + '/', data=sql.encode())
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return r.read().decode()
        except urllib.error.HTTPError as e:
            raise RuntimeError(f'ClickHouse: {e.read().decode()[:400]}\nquery: {sql}')

    def rows(self, sql, i=0):
        return [line.split('\t') for line in self.query(sql, i).splitlines()]
