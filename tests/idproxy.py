#!/usr/bin/env python3
"""A byte pipe in front of a MySQL server that rewrites the connection id in the server's
greeting, as a proxy (ProxySQL, MaxScale) shows its own id: the id a client reads then names
some other server thread. Loopback only; serves until killed.

    idproxy.py LISTEN_PORT UPSTREAM_PORT ID

LISTEN_PORT 0: a port the kernel picks; "ready PORT" on stdout says which.
"""
import socket
import struct
import sys
import threading


def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def serve(c, up_port, conn_id):
    u = socket.create_connection(("127.0.0.1", up_port))
    h = b""
    while len(h) < 4:
        h += u.recv(4 - len(h))
    n = h[0] | h[1] << 8 | h[2] << 16
    p = b""
    while len(p) < n:
        p += u.recv(n - len(p))
    i = p.index(b"\0", 1) + 1  # protocol version, version string, NUL, then the id
    p = p[:i] + struct.pack("<I", conn_id) + p[i + 4:]
    c.sendall(h + p)
    threading.Thread(target=pipe, args=(u, c), daemon=True).start()
    pipe(c, u)


def main():
    port, up_port, conn_id = (int(x) for x in sys.argv[1:4])
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(64)
    print("ready", ls.getsockname()[1], flush=True)
    while True:
        c, _ = ls.accept()
        threading.Thread(target=serve, args=(c, up_port, conn_id), daemon=True).start()


main()
