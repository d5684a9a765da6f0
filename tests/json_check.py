#!/usr/bin/env python3
"""Check bench --format=json output (tests/json.sh).

json_check.py SCHEMA FILE [--exit N] [--end END] [--complete yes|no] [--intervals] [--checkpoints]
              [--steps] [--no-lines] [--error CODE] [--merged]

Every line of FILE must be one JSON object valid against SCHEMA (docs/bench-result.schema.json);
the last one, and only it, is the result document. Relations: events_per_s * window_s == events
within rounding, min <= each percentile <= max and percentiles rise with p, histogram counts sum
to the events, interval lines' at_s increasing and equal to the document's intervals.
"""
import argparse
import json
import math
import sys

import jsonschema


def fail(msg):
    print("json_check: %s" % msg)
    sys.exit(1)


MERGED = False  # --merged


def check_stats(st, where, forced=False):
    ev = st["events"]
    if not math.isclose(st["events_per_s"] * st["window_s"], ev, rel_tol=1e-9, abs_tol=1e-6):
        fail("%s: events_per_s * window_s = %r, events %d" % (where, st["events_per_s"] * st["window_s"], ev))
    span = st["window_end_unix_ns"] - st["window_start_unix_ns"]
    untimed = st["window_end_unix_ns"] == st["window_start_unix_ns"] == 0  # ping times itself
    if MERGED and where == "doc.results":
        # bench merge: the span is the common window; window_s, the events over the sum of the
        # clients' rates, is at least that (each client's window holds the common one)
        if span > st["window_s"] * 1e9 + 1000:
            fail("%s: the common window %d ns is longer than window_s %r" % (where, span, st["window_s"]))
    elif not untimed and abs(span - st["window_s"] * 1e9) > 1000:
        fail("%s: window_end_unix_ns - window_start_unix_ns = %d ns, window_s %r" % (where, span, st["window_s"]))
    pt = st["per_thread"]
    if len(pt["events"]) != st["threads"] or len(pt["time_ns"]) != st["threads"]:
        fail("%s: per_thread.events/time_ns do not have one entry per thread" % where)
    if not forced and sum(pt["events"]) != ev:
        fail("%s: per_thread.events sum to %d, events %d" % (where, sum(pt["events"]), ev))
    lat = st["latency_ns"]
    if ev:
        if not lat["min"] <= lat["avg"] <= lat["max"]:
            fail("%s: min <= avg <= max does not hold: %r" % (where, lat))
        if not math.isclose(lat["avg"] * ev, lat["sum"], rel_tol=1e-9, abs_tol=1):
            fail("%s: avg * events != sum" % where)
    pcts = sorted(((float(k[1:]), v) for k, v in lat["percentiles"].items()))
    last = 0
    for p, v in pcts:
        if ev and not lat["min"] <= v <= lat["max"]:
            fail("%s: p%g = %d outside [min %d, max %d]" % (where, p, v, lat["min"], lat["max"]))
        if v < last:
            fail("%s: percentiles do not rise with p" % where)
        last = v
    h = lat["histogram"]
    idx = [b[0] for b in h["buckets"]]
    if idx != sorted(set(idx)):
        fail("%s: histogram buckets not strictly increasing" % where)
    total = sum(b[1] for b in h["buckets"])
    if total != ev and not forced:
        fail("%s: histogram counts sum to %d, events %d" % (where, total, ev))
    for name, op in st["operations"].items():
        if sum(b[1] for b in op["latency_ns"]["histogram"]["buckets"]) != op["count"]:
            fail("%s: operation %s: histogram counts != count" % (where, name))
    for k, v in st.items():
        if k.endswith("_per_s") and k != "events_per_s":
            base = k[: -len("_per_s")]
            if base not in st:
                fail("%s: %s without %s" % (where, k, base))
            if not math.isclose(v * st["window_s"], st[base], rel_tol=1e-9, abs_tol=1e-6):
                fail("%s: %s * window_s != %s" % (where, k, base))


def check_core(doc, where):
    if doc["results"] is not None:
        check_stats(doc["results"], where + ".results", doc["end"] == "forced")
    at = -1
    for iv in doc["intervals"]:
        if iv["at_s"] <= at:
            fail("%s: interval at_s not increasing" % where)
        at = iv["at_s"]
        if not math.isclose(iv["events_per_s"] * iv["interval_s"], iv["events"], rel_tol=1e-9, abs_tol=1e-6):
            fail("%s: interval events_per_s * interval_s != events" % where)
    for i, c in enumerate(doc["checkpoints"]):
        check_stats(c["results"], "%s.checkpoints[%d]" % (where, i))
    if doc["complete"] and (doc["error"] is not None or doc["end"] not in (None, "limit")):
        fail("%s: complete with an error or an early end" % where)
    for i, s in enumerate(doc["steps"]):
        check_core(s, "%s.steps[%d]" % (where, i))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("schema")
    ap.add_argument("file")
    ap.add_argument("--exit", type=int)
    ap.add_argument("--end")
    ap.add_argument("--complete", choices=["yes", "no"])
    ap.add_argument("--intervals", action="store_true")
    ap.add_argument("--checkpoints", action="store_true")
    ap.add_argument("--steps", action="store_true")
    ap.add_argument("--no-lines", action="store_true")
    ap.add_argument("--error")
    ap.add_argument("--results", action="store_true")
    ap.add_argument("--merged", action="store_true",
                    help="bench merge's document: its intervals are not also lines")
    a = ap.parse_args()
    global MERGED
    MERGED = a.merged
    schema = json.load(open(a.schema))
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    raw = open(a.file, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("not UTF-8: %s" % e)
    if not text.endswith("\n"):
        fail("output does not end in a newline (%d bytes)" % len(raw))
    lines = text[:-1].split("\n")
    objs = []
    for n, line in enumerate(lines, 1):
        try:
            o = json.loads(line)
        except ValueError as e:
            fail("line %d is not JSON (%s): %.200s" % (n, e, line))
        errs = sorted(v.iter_errors(o), key=lambda e: list(e.path))
        if errs:
            for e in errs[:3]:
                for c in e.context[:5] or [e]:
                    print("  at %s: %.300s" % (list(c.absolute_path), c.message))
            fail("line %d (%s) does not follow the schema" % (n, o.get("type") if isinstance(o, dict) else "?"))
        objs.append(o)
    types = [o["type"] for o in objs]
    if types[-1] != "result" or types.count("result") != 1:
        fail("the result document must be the last line and the only one: %s" % types)
    doc = objs[-1]
    if a.no_lines and len(objs) > 1:
        fail("lines before the document: %s" % types[:-1])
    check_core(doc, "doc")
    ivs = [o for o in objs if o["type"] == "interval"]
    if ivs != doc["intervals"] and not a.merged:
        fail("interval lines differ from the document's intervals")
    cks = [o for o in objs if o["type"] == "checkpoint"]
    if cks != doc["checkpoints"]:
        fail("checkpoint lines differ from the document's checkpoints")
    if a.exit is not None and doc["exit_code"] != a.exit:
        fail("exit_code %d in the document, the process exited %d" % (doc["exit_code"], a.exit))
    if a.end is not None and doc["end"] != (None if a.end == "null" else a.end):
        fail("end is %r, wanted %s" % (doc["end"], a.end))
    if a.complete and doc["complete"] != (a.complete == "yes"):
        fail("complete is %r" % doc["complete"])
    if a.intervals and not ivs:
        fail("no interval lines")
    if a.checkpoints and not cks:
        fail("no checkpoint lines")
    if a.steps and not doc["steps"]:
        fail("no steps")
    if a.results and doc["results"] is None:
        fail("no results")
    if a.error is not None and (doc["error"] is None or doc["error"]["code"] != a.error):
        fail("error is %r, wanted code %s" % (doc["error"], a.error))
    if a.error is None and doc["error"] is not None and a.exit == 0:
        fail("an error in a successful command: %r" % doc["error"])
    if "verdict" in doc:  # bench all's page that ran: its verdict is its exit code, no error
        if {"PASS": 0, "WARN": 4, "FAIL": 5}[doc["verdict"]] != doc["exit_code"]:
            fail("verdict %s with exit_code %d" % (doc["verdict"], doc["exit_code"]))
        if doc["error"] is not None or not doc["complete"]:
            fail("a page that ran (verdict %s) with complete %r, error %r"
                 % (doc["verdict"], doc["complete"], doc["error"]))


if __name__ == "__main__":
    main()
