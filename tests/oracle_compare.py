#!/usr/bin/env python3
"""An oracle for `bench compare --format=json`, written from the documents only (docs/cli.md
"compare", docs/json.md "bench compare"), not from bench.c.

  oracle_compare.py OUT.json NOISE A.json B.json...   exit 0 when every measure row of OUT is
                                                      what the documented rules give for the
                                                      files; else one line per wrong figure

For each file it reads the result document (the file, or its last line that is a result) and
computes, for every measure row bench wrote: each file's value (at the row's path), its own
spread (the population coefficient of variation, percent, of the field of the same name in the
file's interval lines, when it has at least 3; none for a row outside `results`), the row's
noise (the largest of --noise and the spreads of every file), the ratio to A and the mark
(better / worse beyond the noise in the measure's direction, same within it, missing when one
of the two lacks it, n/a against a 0 or negative value), and the counts of marks per file. The
rows of a single run's `results` must be all there: each rate (`*_per_s`), latency min, avg,
max, every percentile, every operation's percentiles, in any of the files.
"""
import json
import math
import sys


def read_doc(path):
    text = open(path, encoding="utf-8").read()
    try:
        return json.loads(text)
    except ValueError:
        pass
    for line in reversed(text.splitlines()):
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if isinstance(d, dict) and d.get("type") == "result":
            return d
    return None


def at(doc, path):
    v = doc
    for k in path.split("."):
        if isinstance(v, dict) and k in v:
            v = v[k]
        elif isinstance(v, list) and k.isdigit() and int(k) < len(v):
            v = v[int(k)]
        else:
            return None
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def spread(doc, path):
    """The measure's own spread in doc: the population coefficient of variation (percent) of
    the same field over the run's interval lines, with at least 3 of them; else 0."""
    if not path.startswith("results."):
        return 0.0
    sub = path[len("results."):]
    xs = [at(iv, sub) for iv in doc.get("intervals") or []]
    xs = [x for x in xs if x is not None]
    if len(xs) < 3 or sum(xs) == 0:
        return 0.0
    mean = sum(xs) / len(xs)
    var = sum(x * x for x in xs) / len(xs) - mean * mean
    return 100 * math.sqrt(var) / abs(mean) if var > 0 else 0.0


def result_paths(doc):
    """The measures of a run's results: rates, latency min/avg/max, percentiles, per op."""
    r = doc.get("results")
    if not isinstance(r, dict):
        return set()
    ps = {"results." + k for k, v in r.items() if k.endswith("_per_s") and at(r, k) is not None}
    lat = r.get("latency_ns") or {}
    ps |= {"results.latency_ns." + k for k in ("min", "avg", "max") if at(lat, k) is not None}
    ps |= {"results.latency_ns.percentiles." + k for k in lat.get("percentiles") or {}}
    for op, o in (r.get("operations") or {}).items():
        for k in ((o.get("latency_ns") or {}).get("percentiles") or {}):
            ps.add("results.operations.%s.latency_ns.percentiles.%s" % (op, k))
    return ps


def main():
    out, noise, files = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    errs = []
    d = json.load(open(out))
    docs = [read_doc(f) for f in files]
    n = len(files)

    def eq(what, got, want, tol=1e-9):
        good = got == want or (isinstance(got, (int, float)) and isinstance(want, (int, float))
                               and not isinstance(got, bool) and not isinstance(want, bool)
                               and math.isclose(got, want, rel_tol=tol, abs_tol=1e-12))
        if not good:
            errs.append("%s is %r, expected %r" % (what, got, want))

    eq("facts.compare.files", d["facts"].get("compare.files"), n)
    eq("facts.compare.noise_pct", d["facts"].get("compare.noise_pct"), noise)
    rows = [s["facts"] for s in d["steps"] if s["action"] == "measure"]
    want_paths = set().union(*(result_paths(x) for x in docs))
    got_paths = {r["path"] for r in rows if r["path"].startswith("results.")}
    eq("the rows of results", sorted(got_paths), sorted(want_paths))
    counts = {k: {"better": 0, "worse": 0, "same": 0} for k in range(2, n + 1)}
    for r in rows:
        p, nm = r["path"], r["name"]
        vals = [at(x, p) for x in docs]
        sps = [spread(x, p) if v is not None else 0.0 for x, v in zip(docs, vals)]
        nz = max([noise] + sps)
        eq(nm + ".noise_pct", r.get("noise_pct"), nz)
        for k in range(n):
            eq("%s.value_%d" % (nm, k + 1), r.get("value_%d" % (k + 1)), vals[k])
            eq("%s.spread_pct_%d" % (nm, k + 1), r.get("spread_pct_%d" % (k + 1)),
               sps[k] if sps[k] > 0 else None)
        hi = r["better"] == "higher"
        if p.startswith("results."):  # rates higher, latencies lower (the name says)
            eq(nm + ".better", r["better"], "higher" if p.endswith("_per_s") else "lower")
        for k in range(1, n):
            a, b = vals[0], vals[k]
            ratio = None
            if a is None or b is None:
                mark = "missing"
            elif a == 0 and b == 0:
                mark = "same"
            elif a <= 0 or b < 0:
                mark = "n/a"
            else:
                ratio = b / a
                if abs(ratio - 1) * 100 <= nz:
                    mark = "same"
                else:
                    mark = "better" if (ratio > 1) == hi else "worse"
            eq("%s.ratio_%d" % (nm, k + 1), r.get("ratio_%d" % (k + 1)), ratio)
            eq("%s.mark_%d" % (nm, k + 1), r.get("mark_%d" % (k + 1)), mark)
            if mark in counts[k + 1]:
                counts[k + 1][mark] += 1
    for k, c in counts.items():
        for mark, v in c.items():
            eq("facts.compare.%s_%d" % (mark, k), d["facts"].get("compare.%s_%d" % (mark, k)), v)
    for e in errs:
        print("oracle_compare: %s: %s" % (out, e))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
