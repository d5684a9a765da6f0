#!/usr/bin/env python3
"""Seeds of tests/fuzz_opt into the directory argv[1]: a first byte (bit 0: a command line,
bit 1: the sysbench persona), argv NUL-separated, then 0xFF before each of the files c1.cnf,
c2.cnf, d/c3.cnf, d/c4.cnf (see tests/fuzz_opt.c)."""
import os
import sys

LONG = "x" * 70000
SEEDS = [
    (0, [], ["[client]\nuser=a # c\nhost = h\n!include c2.cnf\n!includedir d\n"
             "password=\"p\\\"w\\\\\" # x\nsocket='s\\sq'\n[ client-server ]\nuser=z\n",
             "[client]\nport=1\n!include c1.cnf\n", "[client]\nsocket=s\n",
             "[client-server]\nuser=d\n"]),
    (0, [], ["[client]\n# " + LONG + "user=evil\nport = 1 # comment\n",
             "threads = 4\nevents=1 # c\nmysql-password = 'p q'\n" + LONG + "=1\n"]),
    (0, [], ["user=x\n[client\n", "\x01\x1b[31m=\x7f\n"]),
    (1, ["oltp_read_write", "--debug", "-pSECRET", "--defaults-file=c1.cnf", "help"],
     ["[client]\nuser=u\nport = 1 # comment\n!include c1.cnf\n"]),
    (1, ["cpu", "--config-file=c2.cnf", "--threads=2", "--mysql-pasword=X", "run"],
     ["", "cpu-max-prime=5\npercentile=50,99\n"]),
    (1, ["ping", "-h", "h", "-P", "1", "-u", "u", "--password=p", "--count=3"],
     ["[client]\nhost=127.0.0.1\n"]),
    (3, ["memory", "--memory-block-size=-1", "--config-file=c2.cnf", "run"],
     ["", "memory-oper=x\nfile-rw-ratio=-1\n"]),
    (3, ["fileio", "--file-block-size=x", "--file-test-mode=seqwr", "run"], []),
]

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for i, (sel, argv, files) in enumerate(SEEDS):
    data = bytes([sel]) + b"\0".join(a.encode() for a in argv)
    for f in files:
        data += b"\xff" + f.encode("latin-1")
    with open(os.path.join(out, "seed-%d" % i), "wb") as fh:
        fh.write(data)
