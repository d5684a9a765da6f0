#!/usr/bin/env python3
"""An oracle for `bench merge --format=json`, written from the documents only (docs/cli.md
"merge", docs/json.md "bench merge", "The histogram", "interval lines"), not from bench.c.

  oracle_merge.py MERGED.json CLIENT.json...   exit 0 when every figure of MERGED is the one
                                               the documented rules give for the CLIENT files;
                                               else one line per wrong figure, exit 1

What it computes from the clients' files: completeness (a file with no result document is a
lost client; a result whose `complete` is false an incomplete one: either makes the merge
incomplete, exit 1), the counts (added), the rates (the sum of the clients' rates; window_s
events over it; total_time_s the common window), the windows (common, union, overlap), each
client's start skew (from the earliest start) and the spread of the starts, the warnings a
late, lost or incomplete client and a small overlap call for, the latency histogram (added
bucket by bucket) and every percentile of it, each operation's count, histogram and
percentiles, the per-thread counts (joined), and every merged interval line (aligned by wall
clock on the --report-interval grid: counts and threads added, percentiles the highest).
"""
import json
import math
import sys

S, E = 8, 42  # the histogram's sub_bits and max_exp (docs/json.md "The histogram")


def b_lo(i):
    """The lowest value of bucket i (the inverse of the documented index formula)."""
    if i < 1 << S:
        return i
    half = 1 << (S - 1)
    k = S + (i - (1 << S)) // half
    return (half + (i - (1 << S)) % half) << (k - S + 1)


def b_hi(i):
    """One past the highest value of bucket i."""
    if i < 1 << S:
        return i + 1
    k = S + (i - (1 << S)) // (1 << (S - 1))
    return b_lo(i) + (1 << (k - S + 1))


def pct_of(buckets, total, p, lo, hi):
    """Percentile p of a histogram: the bucket holding rank ceil(total * p / 100) (at least 1),
    its middle lo + (hi - 1 - lo) / 2 rounded down, clamped to the exact min and max."""
    if not total:
        return None
    rank = max(1, min(total, math.ceil(total * p / 100.0)))
    seen = 0
    for i, c in buckets:
        seen += c
        if seen >= rank:
            v = b_lo(i) + (b_hi(i) - 1 - b_lo(i)) // 2
            return min(max(v, lo), hi)
    return None


def add_hist(hs):
    cnt = {}
    for h in hs:
        for i, c in h["buckets"]:
            cnt[i] = cnt.get(i, 0) + c
    return sorted(cnt.items())


def read_doc(path):
    """The result document of a file (one document, pretty-printed or not, or the last line
    of a run's JSON lines), or None: no result document (the client was killed)."""
    text = open(path, encoding="utf-8").read()
    try:
        d = json.loads(text)
        return d if isinstance(d, dict) and d.get("type") == "result" else None
    except ValueError:
        pass
    lines = [l for l in text.splitlines() if l.strip()]
    if not lines:
        return None
    try:
        d = json.loads(lines[-1])
    except ValueError:
        return None
    return d if isinstance(d, dict) and d.get("type") == "result" else None


class Oracle:
    def __init__(self):
        self.errors = []

    def eq(self, what, got, want, rel=0.0, absol=0.0):
        ok = got == want
        if not ok and isinstance(got, (int, float)) and isinstance(want, (int, float)) \
                and not isinstance(got, bool):
            ok = math.isclose(got, want, rel_tol=rel, abs_tol=absol)
        if not ok:
            self.errors.append("%s is %r, expected %r" % (what, got, want))
        return ok


def pkey_value(k):
    return float(k[1:])


def main():
    mpath, files = sys.argv[1], sys.argv[2:]
    o = Oracle()
    m = read_doc(mpath)
    if m is None:
        print("oracle_merge: %s: no result document" % mpath)
        return 1
    docs = [read_doc(f) for f in files]
    ok = [(f, d) for f, d in zip(files, docs) if d is not None and isinstance(d.get("results"), dict)]
    lost = [f for f, d in zip(files, docs) if d is None or not isinstance(d.get("results"), dict)]
    incomplete = [f for f, d in ok if not d.get("complete")]
    complete = not lost and not incomplete
    # completeness: from which clients reported and how they ended
    o.eq("complete", m["complete"], complete)
    o.eq("exit_code", m["exit_code"], 0 if complete else 1)
    o.eq("error is null", m["error"] is None, complete)
    f = m["facts"]
    o.eq("facts.clients", f["clients"], len(files))
    o.eq("facts.clients_merged", f["clients_merged"], len(ok))
    rs = [d["results"] for _, d in ok]
    st = [r["window_start_unix_ns"] for r in rs]
    en = [r["window_end_unix_ns"] for r in rs]
    common = (min(en) - max(st)) / 1e9
    union = (max(en) - min(st)) / 1e9
    overlap = 100 * common / union if union > 0 else 100
    o.eq("facts.start_skew_s", f["start_skew_s"], (max(st) - min(st)) / 1e9, 0, 1e-9)
    o.eq("facts.common_window_s", f["common_window_s"], common, 0, 1e-9)
    o.eq("facts.union_window_s", f["union_window_s"], union, 0, 1e-9)
    o.eq("facts.window_overlap_pct", f["window_overlap_pct"], overlap, 1e-9, 1e-9)
    # one step per file, in order: its file, its own start skew, or an error (lost)
    o.eq("steps", len(m["steps"]), len(files))
    for k, (path, d) in enumerate(zip(files, docs)):
        if k >= len(m["steps"]):
            break
        s = m["steps"][k]
        o.eq("steps[%d].facts.file" % k, s["facts"].get("file"), path)
        if path in lost:
            o.eq("steps[%d] (lost) has an error, no results" % k,
                 s.get("error") is not None and not s.get("results"), True)
            continue
        skew = (d["results"]["window_start_unix_ns"] - min(st)) / 1e9
        o.eq("steps[%d].facts.start_skew_s" % k, s["facts"].get("start_skew_s"), skew, 0, 1e-9)
        o.eq("steps[%d].complete" % k, s["complete"], d["complete"])
        o.eq("steps[%d].results.events" % k, s["results"]["events"], d["results"]["events"])
    # the warnings: one per late, lost or incomplete client, and for a small overlap
    codes = sorted(w["code"] for w in m["warnings"] if w["code"] != "intervals_late"
                   and w["code"] != "intervals_early")
    want = ["client_lost"] * len(lost) + ["client_incomplete"] * len(incomplete)
    want += ["client_late"] * sum(1 for s in st if (s - min(st)) / 1e9 > 1.0)
    want += ["window_overlap"] if overlap < 95 else []
    o.eq("warnings", codes, sorted(want))
    r = m["results"]
    # counts added; rates the sum of the clients' rates, window_s events over it
    ev = sum(x["events"] for x in rs)
    o.eq("results.events", r["events"], ev)
    o.eq("results.threads", r["threads"], sum(x["threads"] for x in rs))
    o.eq("results.unfinished_events", r["unfinished_events"], sum(x["unfinished_events"] for x in rs))
    rate = sum(x["events_per_s"] for x in rs)
    o.eq("results.events_per_s", r["events_per_s"], rate, 1e-9)
    if rate > 0:
        o.eq("results.window_s", r["window_s"], ev / rate, 1e-9)
    o.eq("results.total_time_s", r["total_time_s"], common, 0, 1e-9)
    o.eq("results.window_start_unix_ns", r["window_start_unix_ns"], max(st))
    o.eq("results.window_end_unix_ns", r["window_end_unix_ns"], min(en))
    skip = {"events", "events_per_s", "total_time_s", "window_s", "window_start_unix_ns",
            "window_end_unix_ns", "threads", "unfinished_events"}
    for k, v in rs[0].items():  # the test's counters and their rates
        if k in skip or isinstance(v, (dict, list)) or isinstance(v, bool):
            continue
        if k.endswith("_per_s"):  # a counter over the merged window_s (docs/json.md)
            c = k[:-len("_per_s")]
            o.eq("results." + k, r.get(k), r.get(c, 0) / r["window_s"] if r["window_s"] else 0, 1e-9)
        else:
            o.eq("results." + k, r.get(k), sum(x[k] for x in rs))
    pt = r["per_thread"]
    o.eq("per_thread.events", pt["events"], sum((x["per_thread"]["events"] for x in rs), []))
    o.eq("per_thread.time_ns", pt["time_ns"], sum((x["per_thread"]["time_ns"] for x in rs), []))
    # the latency histogram added, its percentiles those of one histogram fed every sample
    lat = r["latency_ns"]
    have = [x["latency_ns"] for x in rs if x["events"]]
    mn = min(x["min"] for x in have) if have else 0
    mx = max(x["max"] for x in have) if have else 0
    o.eq("latency_ns.min", lat["min"], mn)
    o.eq("latency_ns.max", lat["max"], mx)
    o.eq("latency_ns.sum", lat["sum"], sum(x["latency_ns"]["sum"] for x in rs))
    if ev:
        o.eq("latency_ns.avg", lat["avg"], lat["sum"] / ev, 1e-9)
    hb = add_hist(x["latency_ns"]["histogram"] for x in rs)
    o.eq("latency_ns.histogram.buckets", [tuple(b) for b in lat["histogram"]["buckets"]], hb)
    pkeys = list(rs[0]["latency_ns"]["percentiles"])
    o.eq("latency_ns.percentiles keys", list(lat["percentiles"]), pkeys)
    for k in pkeys:
        o.eq("latency_ns.percentiles." + k, lat["percentiles"].get(k),
             pct_of(hb, ev, pkey_value(k), mn, mx))
    # each operation: counts added, histograms added, percentiles of the added histogram
    ops = []
    for x in rs:
        ops += [k for k in x.get("operations", {}) if k not in ops]
    o.eq("operations", sorted(r.get("operations", {})), sorted(ops))
    for k in ops:
        parts = [x["operations"][k] for x in rs if k in x.get("operations", {})]
        got = r.get("operations", {}).get(k)
        if got is None:
            continue
        n = sum(p["count"] for p in parts)
        o.eq("operations.%s.count" % k, got["count"], n)
        ob = add_hist(p["latency_ns"]["histogram"] for p in parts)
        o.eq("operations.%s.histogram.buckets" % k,
             [tuple(b) for b in got["latency_ns"]["histogram"]["buckets"]], ob)
        for pk in pkeys:
            o.eq("operations.%s.percentiles.%s" % (k, pk), got["latency_ns"]["percentiles"].get(pk),
                 pct_of(ob, n, pkey_value(pk), mn, mx))
    # interval lines: each client's line to the grid point nearest its end (from the common
    # start, every --report-interval), lines before the first point or ending more than half
    # an interval after the common window left out; counts and threads added, percentiles
    # the highest, interval_s the mean, events_per_s events over it
    ri = m["options"].get("report-interval", 0)
    want_iv = {}
    if ri:
        rin = int(ri * 10**9)
        t0, t1 = max(st), min(en)
        for _, d in ok:
            for iv in d.get("intervals", []):
                e = iv["end_unix_ns"]
                if e < t0 + rin // 2 or e > t1 + rin // 2:
                    continue
                slot = (e - t0 + rin // 2) // rin
                want_iv.setdefault(slot, []).append(iv)
    got_iv = m.get("intervals", [])
    o.eq("interval lines' at_s", [iv["at_s"] for iv in got_iv], [k * ri for k in sorted(want_iv)])
    for g, k in zip(got_iv, sorted(want_iv)):
        ls = want_iv[k]
        at = "intervals[at_s=%g]." % g["at_s"]
        o.eq(at + "events", g["events"], sum(l["events"] for l in ls))
        o.eq(at + "threads_running", g["threads_running"], sum(l["threads_running"] for l in ls))
        secs = sum(l["interval_s"] for l in ls) / len(ls)
        o.eq(at + "interval_s", g["interval_s"], secs, 1e-9)
        o.eq(at + "events_per_s", g["events_per_s"], g["events"] / secs if secs else 0, 1e-9)
        o.eq(at + "end_unix_ns", g["end_unix_ns"], max(l["end_unix_ns"] for l in ls))
        for c, v in ls[0].items():  # counters (and not their rates: per second of the line)
            if c in ("type", "at_s", "interval_s", "end_unix_ns", "events", "events_per_s",
                     "threads_running", "rate_limited", "queue_length", "concurrency") \
                    or c.endswith("_per_s") or not isinstance(v, int) or isinstance(v, bool):
                continue
            o.eq(at + c, g.get(c), sum(l.get(c, 0) for l in ls))
        for pk in pkeys:
            o.eq(at + "percentiles." + pk, g["latency_ns"]["percentiles"].get(pk),
                 max(l["latency_ns"]["percentiles"].get(pk, 0) for l in ls))
    for e in o.errors:
        print("oracle_merge: %s: %s" % (mpath, e))
    return 1 if o.errors else 0


if __name__ == "__main__":
    sys.exit(main())
