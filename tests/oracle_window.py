#!/usr/bin/env python3
"""Oracle for where the measured window opens with --start-at and --warmup-time, written from
docs/cli.md (`--start-at`, `--warmup-time`) and docs/json.md (`results`), not from bench.c:
  - the workers are released (fact released_unix_ns: the warmup starts) --warmup-time seconds
    before the target (start_at_unix_ns), never earlier; later only when connecting took longer
    than that, and then the warning warmup_short says so;
  - the window starts at the target, or when the workers were released if that was later:
    window_start_unix_ns = max(start_at_unix_ns, released_unix_ns), exactly (one clock offset);
  - the window's end - start is window_s (= total_time_s: no checkpoints), and --time counts
    from the window's start: window_s >= --time.

  oracle_window.py FILE [SLACK_MS]
FILE is a result document (--format=json, a run with --start-at). SLACK_MS (default 50; 250
when the load average is over twice the CPUs, said) bounds how late a sleeping thread may wake.
Exit 0 when the document keeps the rule, else 1 with one line per difference."""
import calendar
import json
import os
import sys
import time


def main():
    path = sys.argv[1]
    slack = int(sys.argv[2]) * 1_000_000 if len(sys.argv) > 2 else 50_000_000
    if os.getloadavg()[0] > 2 * os.cpu_count():
        slack = max(slack, 250_000_000)
        print("oracle_window: note: load average %.1f on %d CPUs: wake-ups may be up to 250 ms late"
              % (os.getloadavg()[0], os.cpu_count()))
    d = [json.loads(x) for x in open(path) if x.strip()][-1]
    f, r, o = d["facts"], d["results"], d["options"]
    warm = int(o["warmup-time"]) * 10**9
    target, rel = f["start_at_unix_ns"], f["released_unix_ns"]
    sa = d["started_at"]  # bench's own start, before it connected (ms)
    started = calendar.timegm(time.strptime(sa[:19], "%Y-%m-%dT%H:%M:%S")) * 10**9 + int(sa[20:23]) * 10**6
    short = any(w.get("code") == "warmup_short" for w in d["warnings"])
    errs = []
    if rel < target - warm:
        errs.append("released %.3f ms before target - warmup: the warmup ran long" % ((target - warm - rel) / 1e6))
    if short:
        if not target - warm < rel < target:
            errs.append("warmup_short, yet released %.3f ms before the target (warmup %d s)" % ((target - rel) / 1e6, warm // 10**9))
    else:
        if started > target - warm:
            errs.append("bench started %.3f s before the target, less than --warmup-time, and no warmup_short warning"
                        % ((target - started) / 1e9))
        if rel > target - warm + slack:
            errs.append("released %.3f ms after target - warmup (slack %d ms)" % ((rel - target + warm) / 1e6, slack // 10**6))
    want = max(target, rel)
    if r["window_start_unix_ns"] != want:
        errs.append("window_start_unix_ns %d, want max(start_at %d, released %d): off by %+d ns"
                    % (r["window_start_unix_ns"], target, rel, r["window_start_unix_ns"] - want))
    span = (r["window_end_unix_ns"] - r["window_start_unix_ns"]) / 1e9
    if abs(span - r["window_s"]) > 2e-6 or abs(r["window_s"] - r["total_time_s"]) > 1e-9:
        errs.append("window end - start %.6f s, window_s %r, total_time_s %r" % (span, r["window_s"], r["total_time_s"]))
    if int(o["time"]) and r["window_s"] < int(o["time"]):
        errs.append("window_s %r shorter than --time=%s" % (r["window_s"], o["time"]))
    for e in errs:
        print("oracle_window: %s: %s" % (path, e))
    sys.exit(1 if errs else 0)


if __name__ == "__main__":
    main()
