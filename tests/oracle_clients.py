#!/usr/bin/env python3
"""Oracle for the write ids of --client-index=i --client-count=n, written from docs/cli.md
(`--client-index`, `oltp_insert`), not from bench.c. It reads the table as the server holds it
(`mariadb -N -e "SELECT id, c ..."`, one "id<TAB>c" line per row) before and after a client ran.

  oracle_clients.py residue SIZE N I BEFORE AFTER
      a DELETE/INSERT-pairs run of client I of N on a table of SIZE rows (ids 1..SIZE): the
      rows it rewrote (c changed, or a row that appeared or went) are exactly the ids of its
      residue class: 1 <= id <= SIZE and (id - 1) mod N = I (the drawn id moved to its class
      "within [1, size]"; enough uniform draws that every id of the class was drawn). So the
      clients' sets are disjoint, none outside the table, and together they cover it.
  oracle_clients.py lanes N SINGLE C0 ... C(N-1)
      oltp_insert --auto-inc=off: client i inserts the indices i, i+n, i+2n ... of the run's one
      sysbench.rand.unique() sequence, so K events of each of the N clients insert exactly the
      ids that one plain run (same --rand-seed) of N x K events inserts; ids are
      rand.unique() - 2^31, within INT. Files: the ids each run inserted (an id, or "id<TAB>c",
      a line).
  oracle_clients.py bulk N K C0 ... C(N-1)
      bulk_insert, one thread, K events each: client i writes the ids i+1, i+1+n, ... of the
      thread's table, K of them; together 1..N x K, each once. Files: the ids each wrote.
Exit 0 when the rule holds, else 1 with one line per difference."""
import sys

INT_MIN, INT_MAX = -2**31, 2**31 - 1


def rows(path):
    out = {}
    for line in open(path):
        if line.strip():
            parts = line.rstrip("\n").split("\t")
            out[int(parts[0])] = parts[1] if len(parts) > 1 else ""
    return out


def residue(size, n, i, before, after):
    b, a = rows(before), rows(after)
    changed = {x for x in set(b) | set(a) if b.get(x) != a.get(x)}
    want = {x for x in range(1, size + 1) if (x - 1) % n == i}
    errs = []
    if set(b) != set(range(1, size + 1)):
        errs.append("the table did not hold ids 1..%d before client %d ran" % (size, i))
    if set(a) != set(b):
        errs.append("client %d of %d: rows appeared %s or went %s" % (i, n, sorted(set(a) - set(b)), sorted(set(b) - set(a))))
    if changed - want:
        errs.append("client %d of %d, table size %d: wrote ids %s outside its set %s"
                    % (i, n, size, sorted(changed - want), sorted(want)))
    if want - changed:
        errs.append("client %d of %d, table size %d: never wrote ids %s of its set %s"
                    % (i, n, size, sorted(want - changed), sorted(want)))
    return errs


def lanes(n, single, clients):
    errs = []
    s = set(rows(single))
    sets = [set(rows(c)) for c in clients]
    if len(sets) != n:
        return ["%d client files for --client-count=%d" % (len(sets), n)]
    for k, c in enumerate(sets):
        out = [x for x in c if not INT_MIN <= x <= INT_MAX]
        if out:
            errs.append("client %d: ids outside INT: %s" % (k, out))
        for j in range(k):
            if c & sets[j]:
                errs.append("clients %d and %d both wrote %s" % (j, k, sorted(c & sets[j])))
    u = set().union(*sets)
    if u != s:
        errs.append("the clients wrote %d ids, the plain run %d: only the clients' %s, only the run's %s"
                    % (len(u), len(s), sorted(u - s)[:5], sorted(s - u)[:5]))
    return errs


def bulk(n, k, clients):
    errs = []
    if len(clients) != n:
        return ["%d client files for --client-count=%d" % (len(clients), n)]
    for i, c in enumerate(clients):
        got = sorted(rows(c))
        want = [i + 1 + j * n for j in range(k)]
        if got != want:
            errs.append("bulk_insert client %d of %d, %d events: wrote ids %s, want %s" % (i, n, k, got, want))
    return errs


def main():
    a = sys.argv[1:]
    if a and a[0] == "residue" and len(a) == 6:
        errs = residue(int(a[1]), int(a[2]), int(a[3]), a[4], a[5])
    elif a and a[0] == "lanes" and len(a) >= 3:
        errs = lanes(int(a[1]), a[2], a[3:])
    elif a and a[0] == "bulk" and len(a) >= 4:
        errs = bulk(int(a[1]), int(a[2]), a[3:])
    else:
        sys.exit(__doc__)
    for e in errs:
        print("oracle_clients: " + e)
    sys.exit(1 if errs else 0)


if __name__ == "__main__":
    main()
