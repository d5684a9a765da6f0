#!/usr/bin/env python3
"""Oracle for bench slap's statistics, written from docs/cli.md (`slap`, its JSON), not from
bench.c: every Benchmark block is a step (action "slap") whose own steps are its iterations
(action "iteration", facts iteration 1.., ms: that iteration's whole milliseconds). From those
times alone:
  avg_ms = sum(ms) // iterations (mysqlslap's integer average), min_ms = min, max_ms = max,
  avg_s/min_s/max_s = the _ms values / 1000, the step's elapsed_s = sum / 1000.

  oracle_slap.py FILE [BLOCKS [ITERATIONS]]
FILE is one slap result document (--format=json); BLOCKS, when given, is how many blocks it
must hold, ITERATIONS how many iterations each. Exit 0 when every figure matches, else 1 with
one line per difference."""
import json
import sys


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def check_block(k, st, want_iters, errs):
    f = st["facts"]
    its = [s for s in st["steps"] if s["action"] == "iteration"]
    n = f["iterations"]
    where = "block %d (clients %s, engine '%s')" % (k, f.get("clients"), f.get("engine"))
    if want_iters is not None and n != want_iters:
        errs.append("%s: iterations %s, the command asked for %d" % (where, n, want_iters))
    if len(its) != n:
        errs.append("%s: %d iteration steps for %d iterations" % (where, len(its), n))
        return
    if [s["facts"]["iteration"] for s in its] != list(range(1, n + 1)):
        errs.append("%s: iteration numbers %s" % (where, [s["facts"]["iteration"] for s in its]))
    ms = [s["facts"]["ms"] for s in its]
    for s in its:
        if not close(s["elapsed_s"], s["facts"]["ms"] / 1000):
            errs.append("%s: iteration %d: elapsed_s %r, ms %r" % (where, s["facts"]["iteration"],
                                                                   s["elapsed_s"], s["facts"]["ms"]))
    want = {"avg_ms": sum(ms) // n, "min_ms": min(ms), "max_ms": max(ms)}
    for key, v in want.items():
        if f[key] != v:
            errs.append("%s: %s %r, the iterations %s give %r" % (where, key, f[key], ms, v))
        sk = key[:-3] + "_s"
        if not close(f[sk], v / 1000):
            errs.append("%s: %s %r, want %r" % (where, sk, f[sk], v / 1000))
    if not close(st["elapsed_s"], sum(ms) / 1000):
        errs.append("%s: elapsed_s %r, the iterations sum to %r s" % (where, st["elapsed_s"], sum(ms) / 1000))


def main():
    doc = json.load(open(sys.argv[1]))
    want_blocks = int(sys.argv[2]) if len(sys.argv) > 2 else None
    want_iters = int(sys.argv[3]) if len(sys.argv) > 3 else None
    errs = []
    blocks = [s for s in doc["steps"] if s["action"] == "slap"]
    if want_blocks is not None and len(blocks) != want_blocks:
        errs.append("%d blocks, want %d" % (len(blocks), want_blocks))
    if not blocks:
        errs.append("no slap block in the document")
    for k, st in enumerate(blocks, 1):
        check_block(k, st, want_iters, errs)
    for e in errs:
        print("oracle_slap: %s: %s" % (sys.argv[1], e))
    sys.exit(1 if errs else 0)


if __name__ == "__main__":
    main()
