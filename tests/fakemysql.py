#!/usr/bin/env python3
"""A scripted MySQL 8 server for the authentication paths no Debian server offers:
caching_sha2_password (fast path, full authentication over TLS, full authentication with an
RSA key request) and sha256_password, plus an AuthSwitchRequest from mysql_native_password.
Its correctness is checked by Debian's independent `mariadb` client (tests/fake_auth.sh)
before bench is tested against it. Loopback only; serves until killed.

    fakemysql.py --port P|--port-file F --plugin caching_sha2_password|sha256_password
                 [--full] [--switch] [--tls CERT KEY] --rsa-key KEY.pem
                 --user U --password PW [--hostile MODE] [--stall-after N]
                 [--server-version V] [--log-auth]

Hostile modes (tests/hostile.sh): a server that lies or attacks, to prove the client
refuses cleanly. --port-file F: the server listens on a port the kernel picks (a fixed one may
be someone else's), then writes it to F (whole: written, then renamed). --log-auth writes what a real attacker would learn ("fake: nonce HEX",
"fake: auth HEX", "fake: decrypted password") to stderr.
    nparams=N      PREPARE_OK claims N parameters (and sends N definitions)
    claim=N        PREPARE_OK claims N parameters, then sends the one definition of SELECT ?
    flood          answers a query with 16 MiB fragments, forever
    endless        answers a query with a result set of small rows that never ends, sent fast
    trickle        sends the greeting one byte every 2 s
    authflood      answers the login with fast_auth_success packets, forever
    badcol         a column definition whose strings run past the packet's end
    badrow         a row whose value runs past the packet's end
    midclose       closes the connection in the middle of a result set
    errquery       ERR 1193 (with control characters) for the first query
    errprepare     ERR 1295 for PREPARE
    errstate       ERR 1193 whose SQLSTATE holds control characters, for the first query
    z:KIND         offers CLIENT_COMPRESS; when the client takes it, answers the first command
                   with a hostile compressed frame: KIND adler (a bad adler32), bomb (1 MiB of
                   zeros announced as 100 bytes), long (a frame header of 16 MiB), seq (the
                   wrong compressed sequence id) or far (a match before the first byte)
"""
import argparse
import hashlib
import zlib
import os
import socket
import ssl
import struct
import threading

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

CAPS = (0x00000001 | 0x00000004 | 0x00000008 | 0x00000200 | 0x00002000 | 0x00008000 |
        0x00020000 | 0x00040000 | 0x00080000 | 0x00100000 | 0x00200000 | 0x01000000)
SSL_CAP = 0x00000800


class Conn:
    def __init__(self, sock, args, key, pem):
        self.s, self.args, self.key, self.pem = sock, args, key, pem
        self.seq = 0
        self.tls = False

    def recv_exact(self, n):
        b = b""
        while len(b) < n:
            chunk = self.s.recv(n - len(b))
            if not chunk:
                raise EOFError
            b += chunk
        return b

    def read(self):
        h = self.recv_exact(4)
        n = h[0] | h[1] << 8 | h[2] << 16
        self.seq = (h[3] + 1) & 0xFF
        return self.recv_exact(n)

    def write(self, payload):
        self.s.sendall(struct.pack("<I", len(payload))[:3] + bytes([self.seq]) + payload)
        self.seq = (self.seq + 1) & 0xFF

    def ok(self):
        self.write(b"\x00\x00\x00\x02\x00\x00\x00")

    def err(self, code, state, msg):
        self.write(b"\xff" + struct.pack("<H", code) + b"#" + state + msg.encode())


def nonce20():
    return bytes(33 + (b % 90) for b in os.urandom(20))  # printable, never NUL


def sha2_token(pw, nonce):
    h1 = hashlib.sha256(pw).digest()
    h2 = hashlib.sha256(h1).digest()
    h3 = hashlib.sha256(h2 + nonce).digest()
    return bytes(a ^ b for a, b in zip(h1, h3))


def lenenc(b, i):
    c = b[i]
    if c < 0xFB:
        return c, i + 1
    n = {0xFC: 2, 0xFD: 3, 0xFE: 8}[c]
    return int.from_bytes(b[i + 1:i + 1 + n], "little"), i + 1 + n


def rsa_plain(c, data, nonce):
    plain = c.key.decrypt(data, padding.OAEP(mgf=padding.MGF1(hashes.SHA1()),
                                             algorithm=hashes.SHA1(), label=None))
    log(c.args, "decrypted password")
    return bytes(p ^ nonce[i % 20] for i, p in enumerate(plain))


def log(args, what):
    if args.log_auth:
        os.write(2, ("fake: %s\n" % what).encode())


def coldef(name):
    return (b"\x03def\x00\x00\x00" + bytes([len(name)]) + name + b"\x00\x0c\x3f\x00\x01\x00\x00\x00"
            b"\x08\x81\x00\x00\x00\x00")


def zframe(c, cseq, body, ulen):
    c.s.sendall(struct.pack("<I", len(body))[:3] + bytes([cseq]) + struct.pack("<I", ulen)[:3] + body)


def zhostile(c, kind):
    """The compressed protocol: read the client's first frame, answer it as kind says."""
    h = c.recv_exact(7)
    clen, cseq, ulen = h[0] | h[1] << 8 | h[2] << 16, h[3], h[4] | h[5] << 8 | h[6] << 16
    body = c.recv_exact(clen)
    inner = zlib.decompress(body) if ulen else body
    log(c.args, "compressed frame %d, %d bytes, command 0x%02x" % (cseq, len(inner), inner[4]))
    ok = b"\x07\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00" * 8  # eight OKs, 88 bytes
    z = zlib.compress(ok)
    if kind == "adler":
        zframe(c, cseq + 1, z[:-1] + bytes([z[-1] ^ 1]), len(ok))
    elif kind == "bomb":
        zframe(c, cseq + 1, zlib.compress(b"\x00" * (1 << 20)), 100)
    elif kind == "long":
        c.s.sendall(b"\xff\xff\xff" + bytes([cseq + 1]) + b"\xff\xff\xff" + z)
    elif kind == "seq":
        zframe(c, cseq + 5, z, len(ok))
    else:  # far: a fixed block: literal 'a', then length 3 at distance 2
        zframe(c, cseq + 1, bytes.fromhex("789c4b04420000000001"), 4)
    threading.Event().wait(5)


def command_phase(c, args, ccaps):
    """A minimal command phase; the hostile modes lie here."""
    mode = args.hostile or ""
    if mode.startswith("z:") and ccaps & 0x20:
        return zhostile(c, mode[2:])
    deprecate_eof = ccaps & 0x01000000
    eof = b"\xfe\x00\x00\x02\x00\x00\x00" if deprecate_eof else b"\xfe\x00\x00\x02\x00"
    n = 0
    while True:
        p = c.read()
        c.seq = 1
        if p[:1] == b"\x01":
            return
        n += 1
        if args.stall_after is not None and n > args.stall_after:
            log(args, "stalled at command %d" % n)
            threading.Event().wait(120)
            return
        if p[:1] == b"\x17":
            log(args, "COM_STMT_EXECUTE of %d bytes" % len(p))
        if p[:1] == b"\x0e":
            c.ok()
        elif p[:1] == b"\x03" and mode == "flood":
            frag = struct.pack("<I", 0xFFFFFF)[:3]
            body = b"\x00" * 0xFFFFFF
            while True:  # until the client hangs up
                c.s.sendall(frag + bytes([c.seq]) + body)
                c.seq = (c.seq + 1) & 0xFF
        elif p[:1] == b"\x03" and mode == "endless":
            c.write(b"\x01")
            c.write(coldef(b"1"))
            if not deprecate_eof:
                c.write(b"\xfe\x00\x00\x02\x00")
            block = b"".join(b"\x02\x00\x00" + bytes([(c.seq + i) & 0xFF]) + b"\x011"
                             for i in range(256)) * 43  # 256 rows: the ids wrap to c.seq
            try:
                while True:  # 64 KiB of 2-byte rows per send, until the client hangs up
                    c.s.sendall(block)
            except OSError:
                return
        elif p[:1] == b"\x03" and mode == "errstate":
            mode = ""
            c.err(1193, b"\x1b[2J\x07", "Unknown system variable 'x'")
        elif p[:1] == b"\x03" and mode == "errquery":
            mode = ""
            c.err(1193, b"HY000", "Unknown system variable '\x1b[31minnodb\x07'\nline 2")
        elif p[:1] == b"\x03":
            c.write(b"\x01")
            if mode == "badcol":
                c.write(b"\x03def\x00\x00\x00\xfc\xff\x7f1")  # a name of 32767 bytes, 1 there
                threading.Event().wait(5)
                return
            c.write(coldef(b"1"))
            if not deprecate_eof:
                c.write(b"\xfe\x00\x00\x02\x00")
            if mode == "midclose":
                return
            c.write(b"\xfc\xff\x7f1" if mode == "badrow" else b"\x011")
            c.write(eof)
        elif p[:1] == b"\x16" and mode == "errprepare":
            c.err(1295, b"HY000", "This command is not supported in the prepared statement "
                  "protocol yet")
        elif p[:1] == b"\x16":
            nparams = int(mode.split("=")[1]) if mode.startswith("nparams=") else 1
            claim = int(mode.split("=")[1]) if mode.startswith("claim=") else nparams
            c.write(b"\x00" + struct.pack("<IHHBH", 1, 1, claim, 0, 0))
            for _ in range(nparams):
                c.write(coldef(b"?"))
            if nparams and not deprecate_eof:
                c.write(b"\xfe\x00\x00\x02\x00")
            c.write(coldef(b"?"))
            if not deprecate_eof:
                c.write(b"\xfe\x00\x00\x02\x00")
        elif p[:1] == b"\x17":
            c.write(b"\x01")
            c.write(coldef(b"?"))
            if not deprecate_eof:
                c.write(b"\xfe\x00\x00\x02\x00")
            c.write(b"\x00\x00" + struct.pack("<q", 1))
            c.write(eof)
        elif p[:1] == b"\x19":
            c.seq = 0  # COM_STMT_CLOSE: no answer
        else:
            c.err(1047, b"08S01", "Unknown command")


def serve(sock, args, key, pem, ctx):
    c = Conn(sock, args, key, pem)
    if args.silent:  # accept and say nothing: the client's timeout must fire
        log(args, "stalled before the greeting")
        threading.Event().wait(60)
        sock.close()
        return
    try:
        nonce = nonce20()
        log(args, "nonce " + nonce.hex())
        plugin = "mysql_native_password" if args.switch else args.plugin
        caps = CAPS | (SSL_CAP if ctx else 0) | (0x20 if (args.hostile or "").startswith("z:") else 0)
        g = (b"\x0a" + args.server_version.encode() + b"\x00" + struct.pack("<I", 7) + nonce[:8] + b"\x00" +
             struct.pack("<H", caps & 0xFFFF) + bytes([255]) + struct.pack("<H", 2) +
             struct.pack("<H", caps >> 16) + bytes([21]) + b"\x00" * 10 + nonce[8:] + b"\x00" +
             plugin.encode() + b"\x00")
        if args.hostile == "trickle":  # one byte every 2 s: the connect timeout must bound it
            for b in struct.pack("<I", len(g))[:3] + b"\x00" + g:
                c.s.sendall(bytes([b]))
                threading.Event().wait(2)
            return
        c.write(g)
        p = c.read()
        ccaps = struct.unpack("<I", p[:4])[0]
        if ccaps & SSL_CAP and len(p) == 32:
            c.s = ctx.wrap_socket(c.s, server_side=True)
            c.tls = True
            p = c.read()
        i = 32
        z = p.index(b"\x00", i)
        user = p[i:z].decode()
        i = z + 1
        if ccaps & 0x00200000:
            n, i = lenenc(p, i)
        else:
            n, i = p[i], i + 1
        auth = p[i:i + n]
        i += n
        log(args, "auth " + auth.hex())
        if args.hostile == "authflood":  # fast_auth_success, forever
            while True:
                c.write(b"\x01\x03")
        if ccaps & 0x8:
            i = p.index(b"\x00", i) + 1
        cplugin = p[i:p.index(b"\x00", i)].decode() if ccaps & 0x00080000 else ""
        pw = args.password.encode()
        if cplugin != args.plugin:  # MariaDB-style: switch to the plugin the account uses
            nonce = nonce20()
            c.write(b"\xfe" + args.plugin.encode() + b"\x00" + nonce + b"\x00")
            log(args, "nonce " + nonce.hex())
            auth = c.read()
            log(args, "auth " + auth.hex())
        good = user == args.user
        if args.plugin == "mysql_clear_password":
            good = good and auth == pw + b"\x00"
        elif args.plugin == "caching_sha2_password":
            if auth and auth != sha2_token(pw, nonce):
                good = False
            elif not auth and pw:
                good = False
            elif args.full and pw:
                c.write(b"\x01\x04")  # perform_full_authentication
                r = c.read()
                if r == b"\x02":
                    c.write(b"\x01" + c.pem)
                    r = rsa_plain(c, c.read(), nonce)
                elif not c.tls and len(r) == key.key_size // 8:
                    r = rsa_plain(c, r, nonce)  # the client had the key already
                elif not c.tls:
                    good = False  # cleartext over plain TCP
                good = good and r == pw + b"\x00"
            elif pw:
                c.write(b"\x01\x03")  # fast_auth_success
        else:  # sha256_password
            if auth == b"\x01":
                c.write(b"\x01" + c.pem)
                auth = rsa_plain(c, c.read(), nonce)
            elif auth not in (b"\x00",) and not c.tls and len(auth) != key.key_size // 8:
                good = False
            elif len(auth) == key.key_size // 8 and not c.tls:
                auth = rsa_plain(c, auth, nonce)
            good = good and (auth == pw + b"\x00" or (not pw and auth == b"\x00"))
        if not good:
            c.err(1045, b"28000", "Access denied for user '%s'@'localhost' (using password: %s)"
                  % (user, "YES" if args.password else "NO"))
            return
        c.ok()
        command_phase(c, args, ccaps)
    except (EOFError, ConnectionError, ssl.SSLError, ValueError, IndexError):
        pass
    finally:
        c.s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--port-file")
    ap.add_argument("--plugin", default="caching_sha2_password")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--switch", action="store_true")
    ap.add_argument("--tls", nargs=2)
    ap.add_argument("--rsa-key", required=True)
    ap.add_argument("--user", default="alice")
    ap.add_argument("--password", default="secret")
    ap.add_argument("--silent", action="store_true")
    ap.add_argument("--hostile")
    ap.add_argument("--stall-after", type=int)
    ap.add_argument("--server-version", default="8.0.36-fake")
    ap.add_argument("--log-auth", action="store_true")
    args = ap.parse_args()
    with open(args.rsa_key, "rb") as f:
        key = serialization.load_pem_private_key(f.read(), password=None)
    pem = key.public_key().public_bytes(serialization.Encoding.PEM,
                                        serialization.PublicFormat.SubjectPublicKeyInfo)
    ctx = None
    if args.tls:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.tls[0], args.tls[1])
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", args.port))
    ls.listen(16)
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write("%d\n" % ls.getsockname()[1])
        os.rename(args.port_file + ".tmp", args.port_file)
    while True:
        s, _ = ls.accept()
        threading.Thread(target=serve, args=(s, args, key, pem, ctx), daemon=True).start()


if __name__ == "__main__":
    main()
