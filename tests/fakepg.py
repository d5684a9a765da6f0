#!/usr/bin/env python3
"""A scripted PostgreSQL server (protocol 3.0) for what no real server does: each mode lies
or attacks at one step, to prove that bench's pgc_ client refuses cleanly, in one line, within
its deadline (tests/pgsql_hostile.sh). Loopback only; serves until killed.

    fakepg.py --port-file F --mode MODE [--tls CERT KEY]

--port-file F: listens on a port the kernel picks, then writes it to F (written, renamed).
Modes:
    inject     answers the SSLRequest with 'S' and, in the same write, bytes that look like a
               server's first messages (CVE-2021-23222: a man in the middle's injection)
    notls      answers 'N' to the SSLRequest, then logs in anyone (trust)
    badsig     SCRAM-SHA-256 whose SASLFinal carries a wrong server signature (an impostor
               that does not know the password)
    badsiglast the same, its last byte off (a comparison of the first bytes only passes it)
    nofinal    SCRAM-SHA-256, then AuthenticationOk without any SASLFinal
    itermax    SCRAM-SHA-256 with 1,000,000 iterations (bench's cap: about a second of PBKDF2);
               the port file's name + ".sent" written once the server-first-message is out
    mext       SCRAM-SHA-256 whose server-first-message starts with a mandatory extension m=
    downgrade  TLS (--tls), but offers only SCRAM-SHA-256, never -PLUS (channel binding
               stripped); a client that does not say so (gs2 header "y,,": it could bind, the
               server offered no binding, RFC 5802 6) gets an ErrorResponse
    biglen     answers the startup with a message whose length word claims 1 GiB
    shortlen   answers the startup with a message whose length word is 2
    rowlie     trust; a query's DataRow claims a value longer than the message
    collie     trust; a query's RowDescription claims 40000 columns in 31 bytes
    bigkey     trust; BackendKeyData with a 300-byte key (3.2 allows 256)
    widerow    trust; a query's 20 columns and one row (more than the client's 16 on its
               stack), then a CommandComplete without its NUL (the error path after a wide row)
    silent     accepts, reads, never answers
    qsilent    trust; a query never answered (the port file's name + ".query" written when one
               came), a CancelRequest read and its connection held open, never closed
    trickle    a trust login sent one byte every 0.3 s (bytes keep coming; the deadline holds)
    flood      trust; a query answered by DataRows that never end, sent as fast as it can
    trust      a well-behaved trust login and 'SELECT 1' (the control)
    tlstrust   TLS (--tls), then a trust login; each connection's SNI (the server name the
               client sent, or None) appended to the port file's name + ".sni"
    direct     PostgreSQL 17's direct TLS (--tls): the connection's first byte must be a TLS
               handshake record (0x16: no SSLRequest), ALPN "postgresql" chosen (a client
               that offers none gets PostgreSQL 17's FATAL), then a trust login inside TLS;
               each connection's first byte (hex) and chosen ALPN appended to the port file's
               name + ".direct"
    directnoalpn  the same TLS, but the server chooses no ALPN (a TLS service that is not
               PostgreSQL 17, or a proxy that drops ALPN), then a trust login
    directplain   reads the ClientHello and answers it in plain text: an ErrorResponse, as a
               server that reads TLS as a startup packet might
"""
import argparse, base64, hashlib, hmac, os, socket, ssl, struct, sys, threading, time


def msg(t, body=b""):
    return t + struct.pack("!I", len(body) + 4) + body


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError
        b += c
    return b


def read_startup(s):
    n = struct.unpack("!I", recv_exact(s, 4))[0]
    return recv_exact(s, n - 4)


def read_msg(s):
    t = recv_exact(s, 1)
    n = struct.unpack("!I", recv_exact(s, 4))[0]
    return t, recv_exact(s, n - 4)


def ready_burst():
    return (msg(b"R", struct.pack("!I", 0)) + msg(b"S", b"server_version\x0015.0 (fake)\x00") +
            msg(b"K", struct.pack("!I", 4242) + b"abcd") + msg(b"Z", b"I"))


def serve_queries(s, mode, port_file=""):
    while True:
        t, body = read_msg(s)
        if t == b"X":
            return
        if t == b"Q":
            if mode == "qsilent":
                with open(port_file + ".query", "w") as f:
                    f.write("query\n")
                while s.recv(4096):
                    pass
                return
            if mode == "flood":
                rd = struct.pack("!H", 1) + b"?column?\x00" + struct.pack("!IHIhih", 0, 0, 23, 4, -1, 0)
                row = msg(b"D", struct.pack("!HI", 1, 1) + b"1") * 4096
                s.sendall(msg(b"T", rd))
                while True:
                    s.sendall(row)
            if mode == "collie":
                s.sendall(msg(b"T", struct.pack("!H", 40000) + b"a\x00" + b"\x00" * 27))
                continue
            if mode == "widerow":
                col = b"c\x00" + struct.pack("!IHIhih", 0, 0, 23, 4, -1, 0)
                s.sendall(msg(b"T", struct.pack("!H", 20) + col * 20) +
                          msg(b"D", struct.pack("!H", 20) + (struct.pack("!I", 1) + b"1") * 20) +
                          msg(b"C", b"SELECT 1"))
                continue
            if mode == "rowlie":
                rd = struct.pack("!H", 1) + b"?column?\x00" + struct.pack("!IHIhih", 0, 0, 23, 4, -1, 0)
                s.sendall(msg(b"T", rd) + msg(b"D", struct.pack("!HI", 1, 100) + b"42"))
                continue
            out = b""
            if body.strip(b"\x00"):
                rd = struct.pack("!H", 1) + b"?column?\x00" + struct.pack("!IHIhih", 0, 0, 23, 4, -1, 0)
                out += msg(b"T", rd) + msg(b"D", struct.pack("!HI", 1, 1) + b"1") + msg(b"C", b"SELECT 1\x00")
            else:
                out += msg(b"I")
            s.sendall(out + msg(b"Z", b"I"))
        elif t == b"S":
            s.sendall(msg(b"Z", b"I"))
        elif t in (b"P",):
            s.sendall(msg(b"1"))
        elif t == b"D":
            s.sendall(msg(b"t", struct.pack("!HI", 1, 20)) + msg(b"n"))
        elif t == b"B":
            s.sendall(msg(b"2"))
        elif t == b"E":
            s.sendall(msg(b"C", b"SELECT 0\x00"))
        elif t == b"C":
            s.sendall(msg(b"3"))


def scram(s, mode, password=b"pw", port_file=""):
    s.sendall(msg(b"R", struct.pack("!I", 10) + b"SCRAM-SHA-256\x00\x00"))
    t, body = read_msg(s)
    mech, rest = body.split(b"\x00", 1)
    n = struct.unpack("!I", rest[:4])[0]
    first = rest[4:4 + n]
    bare = first.split(b",", 2)[2]
    if mode == "downgrade" and not first.startswith(b"y,,"):
        s.sendall(msg(b"E", b"SFATAL\x00C08P01\x00Mfakepg: gs2 header %s, not y,, (TLS, no -PLUS offered)\x00\x00"
                      % first.split(b",", 2)[0]))
        return
    cnonce = dict(kv.split(b"=", 1) for kv in bare.split(b","))[b"r"]
    salt = os.urandom(16)
    sf = b"r=" + cnonce + b"srv,s=" + base64.b64encode(salt) + b",i=4096"
    if mode == "itermax":
        sf = sf.replace(b",i=4096", b",i=1000000")
    if mode == "mext":
        sf = b"m=ext," + sf
    s.sendall(msg(b"R", struct.pack("!I", 11) + sf))
    if mode == "itermax":
        with open(port_file + ".sent", "w") as f:
            f.write("sent\n")
    t, final = read_msg(s)
    if mode == "nofinal":
        s.sendall(ready_burst())
        return
    sp = hashlib.pbkdf2_hmac("sha256", password, salt, 4096)
    skey = hmac.new(sp, b"Server Key", "sha256").digest()
    without = final.rsplit(b",p=", 1)[0]
    am = bare + b"," + sf + b"," + without
    sig = bytearray(hmac.new(skey, am, "sha256").digest())
    if mode == "badsig":
        sig[0] ^= 1  # one bit off
    if mode == "badsiglast":
        sig[-1] ^= 1
    s.sendall(msg(b"R", struct.pack("!I", 12) + b"v=" + base64.b64encode(bytes(sig))))
    s.sendall(ready_burst())


def handle(c, mode, tls, port_file):
    try:
        c.settimeout(30)
        if mode == "silent":
            while c.recv(4096):
                pass
            return
        if mode.startswith("direct"):
            first = c.recv(1, socket.MSG_PEEK)
            if mode == "directplain":
                c.recv(4096)
                c.sendall(msg(b"E", b"SFATAL\x00C08P01\x00Minvalid length of startup packet\x00\x00"))
                c.recv(4096)
                return
            if first != b"\x16":
                c.sendall(msg(b"E", b"SFATAL\x00C08P01\x00Mfakepg: not a TLS handshake\x00\x00"))
                return
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(*tls)
            if mode == "direct":
                ctx.set_alpn_protocols(["postgresql"])
            c = ctx.wrap_socket(c, server_side=True)
            alpn = c.selected_alpn_protocol()
            with open(port_file + ".direct", "a") as f:
                f.write("first=%s alpn=%s\n" % (first.hex(), alpn))
            if mode == "direct" and alpn != "postgresql":
                c.sendall(msg(b"E", b"SFATAL\x00C08P01\x00Mreceived direct SSL connection request "
                              b"without ALPN protocol negotiation extension\x00\x00"))
                return
        body = read_startup(c)
        code = struct.unpack("!I", body[:4])[0]
        if code == 80877102:  # CancelRequest: held open (a server that never closes it)
            time.sleep(30)
            return
        if code == 80877103:  # SSLRequest
            if mode == "inject":
                c.sendall(b"S" + ready_burst())
                c.recv(4096)
                return
            if mode in ("downgrade", "tlstrust"):
                c.sendall(b"S")
                ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                ctx.load_cert_chain(*tls)
                sni = []
                ctx.sni_callback = lambda so, name, cx: sni.append(name) and None
                c = ctx.wrap_socket(c, server_side=True)
                if mode == "tlstrust":
                    with open(port_file + ".sni", "a") as f:
                        f.write("%s\n" % (sni[0] if sni else None))
            else:
                c.sendall(b"N")
            body = read_startup(c)
        if mode == "biglen":
            c.sendall(b"R" + struct.pack("!I", 1 << 30) + b"\x00" * 64)
            c.recv(4096)
            return
        if mode == "shortlen":
            c.sendall(b"R" + struct.pack("!I", 2))
            c.recv(4096)
            return
        if mode in ("badsig", "badsiglast", "nofinal", "downgrade", "itermax", "mext"):
            scram(c, mode, port_file=port_file)
        elif mode == "trickle":
            for b in ready_burst():
                c.sendall(bytes([b]))
                time.sleep(0.3)
        elif mode == "bigkey":
            c.sendall(msg(b"R", struct.pack("!I", 0)) + msg(b"K", struct.pack("!I", 1) + b"k" * 300) + msg(b"Z", b"I"))
        else:
            c.sendall(ready_burst())
        serve_queries(c, mode, port_file)
    except (EOFError, OSError, ssl.SSLError, ValueError):
        pass
    finally:
        try:
            c.close()
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--mode", required=True)
    ap.add_argument("--tls", nargs=2)
    a = ap.parse_args()
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(ls.getsockname()[1]))
    os.rename(a.port_file + ".tmp", a.port_file)
    while True:
        c, _ = ls.accept()
        threading.Thread(target=handle, args=(c, a.mode, a.tls, a.port_file), daemon=True).start()


if __name__ == "__main__":
    main()
