#!/usr/bin/env python3
"""A byte pipe in front of a MySQL server that goes silent on SIGUSR1: every connection piped
so far is cut (both ways shut), and from then on each new one is accepted and held without a
byte (a login waits out its deadline), as a server that hangs. Loopback only; serves until
killed.

    cutproxy.py LISTEN_PORT UPSTREAM_PORT [SECOND_PORT]

LISTEN_PORT 0: a port the kernel picks; "ready PORT" on stdout says which.
With SECOND_PORT, SIGUSR2 is a failover instead: every connection piped so far is cut, and
each new one goes to SECOND_PORT ("switched" on stdout once the old ones are shut).
"""
import signal
import socket
import sys
import threading

live = []  # the piped sockets, both ends
held = []  # the connections accepted after the cut (kept open, never answered)
cut = threading.Event()
mu = threading.Lock()
up = [0]  # the upstream port new connections go to


def shut(s):
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    shut(a)
    shut(b)


def serve(c, up_port):
    try:
        u = socket.create_connection(("127.0.0.1", up_port))
    except OSError:  # the upstream is down: as a refused connection
        shut(c)
        c.close()
        return
    with mu:
        live.extend((c, u))
        if cut.is_set() or up[0] != up_port:  # cut or switched while it connected: as one
            # piped before
            shut(c)
            shut(u)
    threading.Thread(target=pipe, args=(u, c), daemon=True).start()
    pipe(c, u)


def on_usr1(_sig, _frame):
    cut.set()
    with mu:
        for s in live:
            shut(s)


def on_usr2(_sig, _frame):
    with mu:
        up[0] = second
        for s in live:
            shut(s)
        live.clear()
    print("switched", flush=True)


second = 0


def main():
    global second
    port, up[0] = (int(x) for x in sys.argv[1:3])
    if len(sys.argv) > 3:
        second = int(sys.argv[3])
        signal.signal(signal.SIGUSR2, on_usr2)
    signal.signal(signal.SIGUSR1, on_usr1)
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(256)
    print("ready", ls.getsockname()[1], flush=True)
    while True:
        c, _ = ls.accept()
        if cut.is_set():
            held.append(c)
        else:
            with mu:
                to = up[0]
            threading.Thread(target=serve, args=(c, to), daemon=True).start()


main()
