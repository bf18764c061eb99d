#!/usr/bin/env python3
"""A stand-in for ClickHouse's HTTP interface, for lkbuf ship's host test
(test_ship.sh).

fake_clickhouse.py MODE PORTFILE LOG [--delay S] [--tls CERT KEY [CA]]
  ok      answers 200 to every POST
  slow    answers 200 after --delay seconds
  fail    answers 500 with a ClickHouse-like message
  deny    answers 401, as ClickHouse does for a wrong password
  hang    accepts connections and never reads or answers
Writes its port to PORTFILE once listening; appends one JSON line per
request to LOG: the path, the query string's parameters, the
authentication headers, the body's row count and the table inserted into.
With --tls it serves HTTPS with CERT and KEY, and with CA requires a
client certificate signed by it.
"""
import http.server
import json
import os
import socket
import ssl
import sys
import threading
import time
import urllib.parse

mode, portfile, logfile = sys.argv[1:4]
rest = sys.argv[4:]
delay = float(rest[rest.index('--delay') + 1]) if '--delay' in rest else 0
tls = rest[rest.index('--tls') + 1:] if '--tls' in rest else None
lock = threading.Lock()


def publish(port):
    with open(portfile + '.tmp', 'w') as f:
        f.write(str(port))
    os.rename(portfile + '.tmp', portfile)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def do_POST(self):
        n = int(self.headers.get('Content-Length', 0))
        body = b''
        while len(body) < n:
            chunk = self.rfile.read(n - len(body))
            if not chunk:
                break
            body += chunk
        url = urllib.parse.urlsplit(self.path)
        params = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        query = params.get('query', [''])[0]
        table = query.split()[2] if query.startswith('INSERT INTO ') else ''
        with lock, open(logfile, 'a') as f:
            f.write(json.dumps({
                'path': url.path, 'raw': self.path, 'params': params, 'table': table,
                'rows': body.count(b'\n'), 'time': time.time(),
                'user': self.headers.get('X-ClickHouse-User'),
                'key': self.headers.get('X-ClickHouse-Key'),
                'authorization': self.headers.get('Authorization')}) + '\n')
        if mode == 'slow':
            time.sleep(delay)
        code, text = {'fail': (500, b'Code: 999, e.displayText() = DB::Exception: boom\n'),
                      'deny': (401, b'Code: 193, e.displayText() = DB::Exception: '
                               b'Wrong password for user lkst\n')}.get(mode, (200, b''))
        self.send_response(code)
        self.send_header('Content-Length', str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def log_message(self, *a):
        pass


def hang():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    s.listen(64)
    publish(s.getsockname()[1])
    held = []
    while True:
        c, _ = s.accept()
        held.append(c)
        with lock, open(logfile, 'a') as f:
            f.write(json.dumps({'connect': time.time()}) + '\n')


if mode == 'hang':
    hang()
srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
if tls:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(tls[0], tls[1])
    if len(tls) > 2:
        ctx.verify_mode = ssl.CERT_REQUIRED
        ctx.load_verify_locations(tls[2])
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
publish(srv.server_address[1])
srv.serve_forever()
