#!/usr/bin/env python3
"""A scripted MySQL 8 server for the authentication paths no Debian server offers:
caching_sha2_password (fast path, full authentication over TLS, full authentication with an
RSA key request) and sha256_password, plus an AuthSwitchRequest from mysql_native_password.
Its correctness is checked by Debian's independent `mariadb` client (tests/fake_auth.sh)
before bench is tested against it. Loopback only; serves until killed.

    fakemysql.py --port P --plugin caching_sha2_password|sha256_password
                 [--full] [--switch] [--tls CERT KEY] --rsa-key KEY.pem
                 --user U --password PW
"""
import argparse
import hashlib
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
    return bytes(p ^ nonce[i % 20] for i, p in enumerate(plain))


def serve(sock, args, key, pem, ctx):
    c = Conn(sock, args, key, pem)
    if args.silent:  # accept and say nothing: the client's timeout must fire
        threading.Event().wait(60)
        sock.close()
        return
    try:
        nonce = nonce20()
        plugin = "mysql_native_password" if args.switch else args.plugin
        caps = CAPS | (SSL_CAP if ctx else 0)
        g = (b"\x0a" + b"8.0.36-fake\x00" + struct.pack("<I", 7) + nonce[:8] + b"\x00" +
             struct.pack("<H", caps & 0xFFFF) + bytes([255]) + struct.pack("<H", 2) +
             struct.pack("<H", caps >> 16) + bytes([21]) + b"\x00" * 10 + nonce[8:] + b"\x00" +
             plugin.encode() + b"\x00")
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
        if ccaps & 0x8:
            i = p.index(b"\x00", i) + 1
        cplugin = p[i:p.index(b"\x00", i)].decode() if ccaps & 0x00080000 else ""
        pw = args.password.encode()
        if cplugin != args.plugin:  # MariaDB-style: switch to the plugin the account uses
            nonce = nonce20()
            c.write(b"\xfe" + args.plugin.encode() + b"\x00" + nonce + b"\x00")
            auth = c.read()
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
        while True:  # a minimal command phase
            p = c.read()
            c.seq = 1
            if p[:1] == b"\x01":
                return
            if p[:1] == b"\x0e":
                c.ok()
            elif p[:1] == b"\x03":
                deprecate_eof = ccaps & 0x01000000
                c.write(b"\x01")
                c.write(b"\x03def\x00\x00\x00\x011\x00\x0c\x3f\x00\x01\x00\x00\x00\x08\x81\x00"
                        b"\x00\x00\x00")
                if not deprecate_eof:
                    c.write(b"\xfe\x00\x00\x02\x00")
                c.write(b"\x011")
                c.write(b"\xfe\x00\x00\x02\x00\x00\x00" if deprecate_eof else b"\xfe\x00\x00\x02\x00")
            else:
                c.err(1047, b"08S01", "Unknown command")
    except (EOFError, ConnectionError, ssl.SSLError, ValueError, IndexError):
        pass
    finally:
        c.s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--plugin", default="caching_sha2_password")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--switch", action="store_true")
    ap.add_argument("--tls", nargs=2)
    ap.add_argument("--rsa-key", required=True)
    ap.add_argument("--user", default="alice")
    ap.add_argument("--password", default="secret")
    ap.add_argument("--silent", action="store_true")
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
    while True:
        s, _ = ls.accept()
        threading.Thread(target=serve, args=(s, args, key, pem, ctx), daemon=True).start()


if __name__ == "__main__":
    main()
