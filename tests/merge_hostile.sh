#!/bin/sh
# `bench merge` on hostile inputs (no server): a base result of `bench cpu` edited by python
# into documents a reviewer's attack used. Each check fails on the merge before these fixes:
# options not an object (was SIGSEGV), SIGINT mid-merge (was ignored, exit 0), 80k interval
# lines (was quadratic, 10 s), out-of-range windows (signed overflow), threads_running summed
# past int, interval lines after the common window, repeated/missing client-index, the same
# file twice, contradictory fields, u64 sums that wrap, terminal controls from a file printed
# raw, an over-16-MiB input, and the exit codes of non-bench JSON (3, as compare). Issue 28:
# one file under two names, --output naming an input, a partial window's rate, windows apart,
# a pretty-printed result.
set -u
t_name=merge_hostile
. "$(dirname "$0")/lib.sh"
# expect NAME RC PATTERN: the last command's exit code and a line of $w/err
expect() {
    if [ "$rc" = "$2" ] && grep -q -- "$3" "$w/err"; then ok; else
        bad "$1: exit $rc (expected $2), stderr:"; head -5 "$w/err"
    fi
}
m() { "$B" merge "$@" >"$w/out" 2>"$w/err"; rc=$?; }
"$B" cpu --time=1 --threads=2 --report-interval=1 --format=json run >"$w/a.json" 2>/dev/null ||
    { bad "bench cpu run failed"; exit 1; }
python3 - "$w" <<'PY' || { echo "merge_hostile: FAIL: python"; exit 1; }
import json, sys, copy
w = sys.argv[1]
lines = open(w + "/a.json").read().splitlines()
base = json.loads(lines[-1])
t0 = base["results"]["window_start_unix_ns"]
def out(name, d, ivs=()):
    with open(w + "/" + name, "w") as f:
        for i in ivs: f.write(json.dumps(i) + "\n")
        f.write(json.dumps(d) + "\n")
def mod(name, fn, ivs=()):
    d = copy.deepcopy(base); fn(d); out(name, d, ivs)
r = lambda d: d["results"]
mod("optarr.json", lambda d: d.__setitem__("options", [1, 2, 3]))
def wide(d): r(d)["window_start_unix_ns"] = -2**63; r(d)["window_end_unix_ns"] = 2**63 - 1
mod("wide.json", wide)
def minmax(d): r(d)["latency_ns"]["min"] = 10**15; r(d)["latency_ns"]["max"] = 1
mod("minmax.json", minmax)
mod("neg.json", lambda d: r(d).__setitem__("window_s", -5))
mod("ttime.json", lambda d: r(d).__setitem__("total_time_s", 1e308))
mod("ptime.json", lambda d: r(d)["per_thread"].__setitem__("time_ns", [2**64 - 1] * r(d)["threads"]))
def ptev(d): r(d)["per_thread"]["events"][0] += 1
mod("ptev.json", ptev)
def bigsum(d): r(d)["latency_ns"]["sum"] = 2**64 - 1
mod("bigsum.json", bigsum)
def k(i, n):
    def f(d): d["options"]["client-index"] = i; d["options"]["client-count"] = n
    return f
mod("k0.json", k(0, 3)); mod("k0b.json", k(0, 3)); mod("k1.json", k(1, 3))
def host(d): d["host"]["hostname"] = "h\n[ 1s ] thds: 999\x1b[31m"
mod("host.json", host)
mod("osc.json", lambda d: d["options"].__setitem__("rand-type", "\x1b]0;pwn\x07x"))
iv = lambda e, run=1: {"type": "interval", "end_unix_ns": e, "events": 1, "interval_s": 1,
                       "threads_running": run}
mod("ivsame.json", lambda d: d.__setitem__("intervals", [iv(t0 + 10**9, 100000)] * 30000))
mod("ivover.json", lambda d: d.__setitem__("intervals", [iv(2**63 - 1)]))
mod("ivbomb.json", lambda d: d.__setitem__("intervals", [iv(t0 + (i + 1) * 10**9) for i in range(80000)]))
mod("ivbig.json", lambda d: d.__setitem__("intervals", [iv(t0 + (i + 1) * 10**9) for i in range(120000)]))
open(w + "/ones.json", "w").write("[" + "1," * (9 << 20) + "1]\n")
open(w + "/notjson.json", "w").write("hello\n")
open(w + "/nontype.json", "w").write('{"a":1}\n')
# issue 28: a client whose window is a's moved by half of it, one that starts 1 s after a's
# ended, and a's result pretty-printed (jq .)
def shift(ns):
    def f(d): r(d)["window_start_unix_ns"] += ns; r(d)["window_end_unix_ns"] += ns
    return f
span = r(base)["window_end_unix_ns"] - t0
mod("half.json", shift(span // 2))
mod("apart.json", shift(span + 10**9))
json.dump(base, open(w + "/pretty.json", "w"), indent=2)
PY
m "$w/optarr.json"; expect "options an array" 1 "optarr.json: options: expected an object"
# 80k interval lines: the slot computed, not searched (was 10 s)
s=$(date +%s%N); m "$w/ivbomb.json"; e=$(( ($(date +%s%N) - s) / 1000000 ))
[ "$rc" = 0 ] && [ "$e" -lt 3000 ] && ok || bad "80k interval lines: exit $rc in $e ms (expected 0, < 3000 ms)"
grep -q "79999 interval line(s) of the clients ended after the common window" "$w/err" && ok || bad "80k lines: no late-lines warning: $(head -2 "$w/err")"
# SIGINT mid-merge: 30 large files take seconds; the merge stops with exit 1
i=0 fs=""; while [ $i -lt 30 ]; do cp "$w/ivbig.json" "$w/iv$i.json"; fs="$fs $w/iv$i.json"; i=$((i + 1)); done
# shellcheck disable=SC2086
"$B" merge $fs >"$w/out" 2>"$w/err" & p=$!
sleep 0.5; kill -INT $p; wait $p; rc=$?
expect "SIGINT during merge" 1 "merge: interrupted by SIGINT"
m "$w/wide.json"; expect "window INT64_MIN..INT64_MAX" 1 "wide.json: results.window_start_unix_ns: expected a wall clock in the years 2000 to 2200"
m "$w/ivsame.json"
[ "$rc" = 0 ] && grep -q "^\[ 1s \] thds: 100000 eps: 30000.00 " "$w/out" && ok || bad "30000 lines of 100000 threads: exit $rc, $(grep thds "$w/out" | head -1)"
m "$w/ivover.json"
[ "$rc" = 0 ] && ! grep -q "7427150092s" "$w/out" && grep -q "1 interval line(s) of the clients ended after the common window" "$w/err" && ok || bad "a line past the window: exit $rc, $(grep thds "$w/out" | tail -1)"
m "$w/k0.json" "$w/k0b.json" "$w/k1.json"; expect "a repeated client-index" 1 "k0.json and .*k0b.json: both are client-index 0"
m "$w/k0.json" "$w/k1.json"; expect "a missing client-index" 1 "client-count is 3, but no result of client-index 2$"
m "$w/k0.json"; expect "two missing client-indexes" 1 "client-count is 3, but no result of client-index 1, 2$"
m "$w/a.json" "$w/a.json"; expect "the same file twice" 2 "a.json: named twice (files 1 and 2)"
m "$w/minmax.json"; expect "min > max" 1 "minmax.json: results.latency_ns.min: expected at most latency_ns.max"
m "$w/neg.json"; expect "window_s < 0" 1 "neg.json: results.window_s: expected seconds"
m "$w/ttime.json"; expect "total_time_s 1e308" 1 "ttime.json: results.total_time_s: expected seconds, 0 to 1e9"
m "$w/ptime.json"; expect "per-thread time > window" 1 "ptime.json: results.per_thread.time_ns: expected at most the window"
m "$w/ptev.json"; expect "per-thread events != events" 1 "ptev.json: results.per_thread.events: expected counts that add up to events"
m "$w/bigsum.json" "$w/a.json"; expect "latency sums wrap" 1 "a.json: results.latency_ns.sum: the clients' sum overflows 64 bits"
m "$w/host.json"
[ "$rc" = 0 ] && grep -qF 'h\n[ 1s ] thds: 999\x1b[31m' "$w/out" && ! grep -q "$(printf '\033')" "$w/out" && ok || bad "hostname printed raw: $(cat -v "$w/out" | sed -n 4p)"
m "$w/a.json" "$w/osc.json"
[ "$rc" = 2 ] && grep -qF "'\\x1b]0;pwn\\x07x'" "$w/err" && ! grep -q "$(printf '\033')" "$w/err" && ok || bad "option value printed raw: $(cat -v "$w/err")"
s=$(date +%s%N); m "$w/ones.json"; e=$(( ($(date +%s%N) - s) / 1000000 ))
expect "an 18 MiB file" 3 "ones.json: [0-9]* bytes, larger than a result can be (16 MiB)"
[ "$e" -lt 1000 ] && ok || bad "the 18 MiB file took $e ms to refuse"
m "$w/notjson.json"; expect "not JSON (as compare)" 3 "notjson.json"
m "$w/nontype.json"; expect "not a bench result (as compare)" 3 "nontype.json: not a bench result"
# issue 29 (coverage of mrg_): every field merge reads, missing, of the wrong type or out of
# range, is refused naming the file and the field (exit 1; another schema_version 3, as
# compare); a file that holds no result is a lost client; what merge makes of odd but valid
# documents (an unknown end, a line before the result, an empty window, percentiles out of
# order, an interval line without its fields) is checked by value.
python3 - "$w" <<'PY' || bad "python (the fields)"
import json, sys, copy
w = sys.argv[1]
lines = open(w + "/a.json").read().splitlines()
base = json.loads(lines[-1])
r = lambda d: d["results"]
h = lambda d: r(d)["latency_ns"]["histogram"]
def out(name, d, pre=""):
    with open(w + "/" + name, "w") as f:
        f.write(pre + json.dumps(d) + "\n")
def mod(name, fn, pre=""):
    d = copy.deepcopy(base); fn(d); out(name, d, pre)
def setr(k, v): return lambda d: r(d).__setitem__(k, v)
def seth(k, v): return lambda d: h(d).__setitem__(k, v)
mod("x_thr_str.json", setr("threads", "2"))
mod("x_thr0.json", setr("threads", 0))
def back(d): r(d)["window_end_unix_ns"] = r(d)["window_start_unix_ns"] - 1
mod("x_back.json", back)
def noev(d): del r(d)["events"]
mod("x_noev.json", noev)
mod("x_scheme.json", seth("scheme", "hdr"))
mod("x_maxexp.json", seth("max_exp", 40))
mod("x_bkobj.json", seth("buckets", {}))
def bkdesc(d): b = h(d)["buckets"]; b.reverse()
mod("x_bkdesc.json", bkdesc)
def bkzero(d): h(d)["buckets"][0][1] = 0
mod("x_bkzero.json", bkzero)
def htot(d): h(d)["buckets"][0][1] += 1
mod("x_htot.json", htot)
def ptstr(d): r(d)["per_thread"]["events"][0] = "x"
mod("x_ptstr.json", ptstr)
def ptshort(d): r(d)["per_thread"]["time_ns"] = r(d)["per_thread"]["time_ns"][:1]
mod("x_ptshort.json", ptshort)
def ptwrap(d):  # forced: the counts need not add up, but each must fit 64 bits
    d["end"] = "forced"; r(d)["per_thread"]["events"] = [2**64 - 1, 1]
mod("x_ptwrap.json", ptwrap)
mod("x_schema2.json", lambda d: d.__setitem__("schema_version", 2))
mod("x_minor0.json", lambda d: d.__setitem__("schema_minor", 0))
mod("x_wlnone.json", lambda d: d.__setitem__("workload", "nosuch"))
mod("x_wlping.json", lambda d: d.__setitem__("workload", "ping"))
mod("x_resnull.json", lambda d: d.__setitem__("results", None))
def endodd(d): d["end"] = "bogus"; d["complete"] = False
mod("x_endodd.json", endodd)
def k(i, n):
    def f(d): d["options"]["client-index"] = i; d["options"]["client-count"] = n
    return f
mod("x_k5of3.json", k(5, 3)); mod("x_k1of2.json", k(1, 2)); mod("x_k0of3.json", k(0, 3))
mod("x_k0of200.json", k(0, 200))
def evwrap(d):  # forced: events need not match the histogram; two of them wrap 64 bits
    d["end"] = "forced"; r(d)["events"] = 2**63
mod("x_evwrap.json", evwrap)
def many(d):  # 60000 threads: two such clients are more than merge takes (100000)
    n = 60000; r(d)["threads"] = n
    r(d)["per_thread"]["events"] = [0] * (n - 1) + [r(d)["events"]]
    r(d)["per_thread"]["time_ns"] = [0] * n
mod("x_many.json", many)
def pct2(d):  # the file's own percentiles as a run of --percentile=50,99 writes them
    d["options"]["percentile"] = ["99", "0", "50", "200"]
    r(d)["latency_ns"]["percentiles"] = {"p50": 0, "p99": 0}
    for iv in d["intervals"]: iv["latency_ns"]["percentiles"] = {"p50": 1000, "p99": 2000}
mod("x_pct2.json", pct2)
mod("x_preamble.json", lambda d: None, pre="bench: a line before the result\n")
def empty_win(d):
    r(d)["window_end_unix_ns"] = r(d)["window_start_unix_ns"]; r(d)["window_s"] = 0
    r(d)["per_thread"]["time_ns"] = [0] * r(d)["threads"]; d["intervals"] = []
mod("x_emptywin.json", empty_win)
def ivbad(d):
    d["intervals"][0].pop("end_unix_ns")
mod("x_ivbad.json", ivbad)
open(w + "/x_empty.json", "w").close()
def bk(name, b): mod(name, seth("buckets", b))
bk("x_bk3.json", [[1, 2, 3]]); bk("x_bkstr.json", [["a", 1]]); bk("x_bkhigh.json", [[5000, 1]])
bk("x_bkwrap.json", [[0, 2**64 - 1], [1, 1]]); bk("x_bknum.json", [5])
mod("x_subbits.json", seth("sub_bits", "8"))
def drop(*path):
    def f(d):
        o = d
        for k in path[:-1]: o = o[k]
        del o[path[-1]]
    return f
mod("x_nostart.json", drop("results", "window_start_unix_ns"))
mod("x_nowin.json", drop("results", "window_s"))
mod("x_nottime.json", drop("results", "total_time_s"))
mod("x_nounf.json", drop("results", "unfinished_events"))
mod("x_nomin.json", drop("results", "latency_ns", "min"))
mod("x_nopt.json", drop("results", "per_thread"))
mod("x_noschema.json", drop("schema_version"))
mod("x_nominor.json", drop("schema_minor"))
mod("x_nowl.json", lambda d: d.__setitem__("workload", 7))
mod("x_noopts.json", drop("options"))
mod("x_resnum.json", lambda d: d.__setitem__("results", 5))
mod("x_bigwin.json", setr("window_s", 1000))
def pttime(d): r(d)["per_thread"]["time_ns"][0] = "x"
mod("x_pttime.json", pttime)
mod("x_kneg.json", k(-1, 3)); mod("x_kbig.json", k(0, 2000000))
def ivbad4(d):
    iv = d["intervals"][0]
    d["intervals"] = [dict(iv, events="x"), dict(iv, interval_s=-1), {k: v for k, v in iv.items() if k != "interval_s"}, dict(iv, end_unix_ns=None)]
mod("x_ivbad4.json", ivbad4)
out("x_type30.json", {"type": "a" * 30, "at_s": 3})
PY
cp "$w/x_evwrap.json" "$w/x_evwrap2.json"; cp "$w/x_many.json" "$w/x_many2.json"
fe() { # fe FILE FIELD EXPECTED: merge FILE refused, exit 1, on FIELD
    m "$w/$1"; expect "$1" 1 "^bench: merge: $w/$1: $2: expected $3"
}
fe x_thr_str.json results.threads "a count (an integer >= 0)$"
fe x_thr0.json results.threads "1 to 100000 threads$"
fe x_back.json results.window_start_unix_ns "the window's wall clock"
fe x_noev.json results.events "a count (an integer >= 0)$"
fe x_scheme.json results.latency_ns.histogram.scheme "'log-linear'"
fe x_maxexp.json results.latency_ns.histogram.max_exp "42 "
fe x_bkobj.json results.latency_ns.histogram.buckets "an array of \\[index, count\\] pairs$"
fe x_bkdesc.json results.latency_ns.histogram.buckets "\\[index, count\\] pairs, indexes rising below 4608, counts >= 1$"
fe x_bkzero.json results.latency_ns.histogram.buckets "\\[index, count\\] pairs, indexes rising below 4608, counts >= 1$"
fe x_ptstr.json results.per_thread counts
fe x_ptshort.json results.per_thread.events "one count per thread"
fe x_ptwrap.json results.per_thread.events "counts that add up in 64 bits$"
fe x_minor0.json schema_minor "1 or more"
fe x_wlnone.json workload "a test that bench runs$"
fe x_wlping.json workload "a test that bench runs$"
fe x_k5of3.json options.client-index "0 to client-count - 1"
fe x_kneg.json options.client-index "0 to client-count - 1"
fe x_kbig.json options.client-index "0 to client-count - 1 (client-count at most 1000000)$"
for f in x_bk3 x_bkstr x_bkhigh x_bkwrap x_bknum; do
    fe $f.json results.latency_ns.histogram.buckets "\\[index, count\\] pairs, indexes rising below 4608, counts >= 1$"
done
fe x_subbits.json results.latency_ns.histogram.sub_bits "8 "
fe x_nostart.json results.window_start_unix_ns "the window's wall clock"
fe x_nowin.json results.window_s "seconds, 0 to the span"
fe x_bigwin.json results.window_s "seconds, 0 to the span"
fe x_nottime.json results.total_time_s "seconds, 0 to 1e9$"
fe x_nounf.json results.unfinished_events "a count"
fe x_nomin.json results.latency_ns.min "a count"
fe x_nopt.json results.per_thread.events "one count per thread"
fe x_pttime.json results.per_thread counts
fe x_nominor.json schema_minor "1 or more"
fe x_nowl.json workload "a test that bench runs$"
fe x_noopts.json options "an object$"
m "$w/x_noschema.json"; expect "no schema_version" 3 "x_noschema.json: schema_version: expected 1$"
m "$w/x_resnum.json"; expect "results a number" 1 "none of the 1 file(s) holds a result: $w/x_resnum.json: its run measured nothing (results: null)$"
m "$w/x_type30.json"; expect "a 30-character type" 1 "x_type30.json: no result document: its last line is an 'aaaaaaaaaaaaaaaaaaaa' line at 3 s (the client was killed mid-run?)$"
m "$w/x_htot.json"; expect "histogram != events" 1 "x_htot.json: results.latency_ns.histogram: its counts add up to [0-9]*, but events is [0-9]*$"
m "$w/x_schema2.json"; expect "schema_version 2" 3 "x_schema2.json: schema_version: expected 1$"
m "$w/x_evwrap.json" "$w/x_evwrap2.json"; expect "events wrap" 1 "x_evwrap2.json: results.events: the clients' sum overflows 64 bits$"
m "$w/x_many.json" "$w/x_many2.json"; expect "120000 threads" 1 "x_many2.json: results.threads: the clients' threads add up to more than 100000$"
m "$w/x_k0of3.json" "$w/x_k1of2.json"; expect "client-count differs" 2 "x_k1of2.json: option client-count is 2, but .*x_k0of3.json has 3: the clients ran different tests$"
m "$w/x_k0of200.json"; expect "199 missing client-indexes" 1 "client-count is 200, but no result of client-index 1, 2, 3, .*, 6[0-9]*\\.\\.\\.$"
[ "$(head -1 "$w/err" | wc -c)" -lt 340 ] && ok || bad "199 missing client-indexes: the line is not cut: $(head -1 "$w/err" | wc -c) bytes"
m "$w"; expect "a directory" 3 "merge: $w: not a regular file$"
m "$w/x_empty.json"; expect "an empty file alone" 1 "merge: none of the 1 file(s) holds a result: $w/x_empty.json: empty: the client left no result"
m "$w/a.json" "$w/x_empty.json"; expect "an empty file: a lost client" 1 "warning: client 2 ($w/x_empty.json) is not in the merged result: empty: "
m "$w/x_resnull.json"; expect "results: null alone" 1 "merge: none of the 1 file(s) holds a result: $w/x_resnull.json: its run measured nothing (results: null)$"
m "$w/x_endodd.json"; expect "an end bench does not write" 1 "warning: client 1 ($w/x_endodd.json) did not run to its end: it ended on '' after "
ev=$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["results"]["events"])' "$w/a.json")
m "$w/x_preamble.json"
[ "$rc" = 0 ] && grep -Eq "total number of events: +$ev$" "$w/out" && ok || bad "a line before the result: exit $rc, $(head -2 "$w/err")"
"$B" merge "$w/x_emptywin.json" --format=json >"$w/out" 2>"$w/err"; rc=$?
if [ "$rc" = 0 ] && python3 - "$w/out" "$ev" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert d["facts"]["common_window_s"] == 0 and d["facts"]["clients_merged"] == 1, d["facts"]
assert d["results"]["events"] == int(sys.argv[2]), d["results"]["events"]
PY
then ok; else bad "an empty window: exit $rc, $(head -2 "$w/err")"; fi
# percentiles out of order, 0 and 200 among them: 50 and 99 only, each of the merged histogram
"$B" merge "$w/x_pct2.json" --format=json >"$w/out" 2>"$w/err"; rc=$?
if [ "$rc" = 0 ] && python3 - "$w/out" <<'PY' &&
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
p = d["results"]["latency_ns"]["percentiles"]
assert list(p) == ["p50", "p99"], p
PY
   python3 "$top/tests/oracle_merge.py" "$w/out" "$w/x_pct2.json" >"$w/orc" 2>&1
then ok; else bad "percentiles 99,0,50,200: exit $rc, $(head -3 "$w/orc") $(head -2 "$w/err")"; fi
m "$w/x_ivbad.json"; expect "an interval line without end_unix_ns" 0 "warning: 1 interval line(s) of the clients lack end_unix_ns, events or interval_s"
m "$w/x_ivbad4.json"; expect "4 interval lines of the wrong type" 0 "warning: 4 interval line(s) of the clients lack end_unix_ns, events or interval_s"
grep -q "^\\[ 1s \\]" "$w/out" && bad "4 interval lines of the wrong type: a merged line printed: $(grep '^\\[' "$w/out")" || ok
# issue 28. One file under two names (./, a symlink, a hard link): refused, not two clients
ln -s a.json "$w/a.sym"; ln "$w/a.json" "$w/a.hard"
for f in "$w/./a.json" "$w/a.sym" "$w/a.hard"; do
    m "$w/a.json" "$f"; expect "a.json again as $f" 2 "$f: the same file as .*/a.json (one device and inode: files 1 and 2)"
done
# --output naming an input (was truncated, then reported as a killed client): refused, exit
# 2, the file intact, in text and JSON, by name, through ./ and a symlink
cp "$w/half.json" "$w/half.keep"; ln -s half.json "$w/half.sym"
for o in "$w/half.json" "$w/./half.json" "$w/half.sym"; do
    for fmt in text json; do
        m "$w/a.json" "$w/half.json" --output="$o" --format=$fmt
        expect "--output=$o --format=$fmt" 2 "^bench: --output=$o: it is input file 2 (.*half.json, the same file); writing the result there would destroy it$"
        cmp -s "$w/half.json" "$w/half.keep" && [ ! -s "$w/out" ] && ok || bad "--output=$o --format=$fmt: the input changed or stdout written"
        cp "$w/half.keep" "$w/half.json" # the next checks' input, whatever happened to it
    done
done
# over a partial window (half of each in common) the merged rate is the sum of the clients'
# own rates, never above it (was 4x: both whole windows' events over half a window)
m "$w/a.json" "$w/half.json" --format=json
if [ "$rc" = 0 ] && python3 - "$w" <<'PY'
import json, sys
w = sys.argv[1]
parts = [json.loads(open(w + f).read().splitlines()[-1])["results"] for f in ("/a.json", "/half.json")]
m = json.loads(open(w + "/out").read().splitlines()[-1])
r, f = m["results"], m["facts"]
s = sum(p["events_per_s"] for p in parts)
assert r["events"] == sum(p["events"] for p in parts), r["events"]
assert r["events_per_s"] <= s * (1 + 1e-9) and r["events_per_s"] >= s * (1 - 1e-6), (r["events_per_s"], s)
span = (parts[0]["window_end_unix_ns"] - parts[0]["window_start_unix_ns"]) / 1e9
assert abs(f["common_window_s"] - span / 2) < 1e-6 and abs(r["total_time_s"] - span / 2) < 1e-6, f
PY
then ok; else bad "partial window: exit $rc, $(head -c 300 "$w/err")"; fi
# windows with no instant in common: not one run (was exit 0, 0.00 events per second, complete)
m "$w/a.json" "$w/apart.json"
expect "windows apart" 2 "apart.json: its measured window starts 1.000 s after .*/a.json's ended: the windows do not overlap"
grep -q "events per second\|complete" "$w/out" && bad "windows apart: a report was printed: $(head -3 "$w/out")" || ok
# a pretty-printed result (jq .) is one document, not a killed client
m "$w/pretty.json"
ev=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"]["events"])' "$w/pretty.json")
[ "$rc" = 0 ] && grep -Eq "total number of events: +$ev$" "$w/out" && ok || bad "pretty-printed: exit $rc, $(head -2 "$w/err")"
# issue 29: the oracle (tests/oracle_merge.py, from the docs alone) on edge cases: every count,
# rate, window, skew, warning, percentile, operation and merged interval line of the merge is
# the one the documented rules give for the inputs. A 3-interval client (c.json); a slow client
# listed first (its window 1.2 s later and 0.2 s shorter: late, overlap 38%, its interval
# percentiles 3x the other's), a killed one (interval lines only: lost, the merge incomplete,
# exit 1), one ended by SIGTERM (a document that says so); two fileio clients of one
# --start-at, the second with no fsync (one operation only in one file).
"$B" cpu --time=3 --threads=1 --report-interval=1 --percentile=50,95,99 --cpu-max-prime=3000 --format=json run >"$w/c.json" 2>/dev/null ||
    bad "bench cpu run (3 s) failed"
FS="--file-num=2 --file-total-size=2M --file-dir=$w/f"
mkdir -p "$w/f" && "$B" fileio $FS prepare >/dev/null 2>&1 || bad "fileio prepare failed"
for i in 1 2; do
    "$B" fileio $FS --file-test-mode=rndrw --time=1 --report-interval=1 --percentile=50,99 --start-at=+2 --start-at-force --format=json run >"$w/fio$i.json" 2>/dev/null &
done
wait
python3 - "$w" <<'PY' || bad "python (the edge cases)"
import json, sys, copy
w = sys.argv[1]
lines = open(w + "/c.json").read().splitlines()
c = json.loads(lines[-1])
assert len(c["intervals"]) >= 2, len(c["intervals"])
def out(name, d, ivs=()):
    with open(w + "/" + name, "w") as f:
        for i in ivs: f.write(json.dumps(i) + "\n")
        if d is not None: f.write(json.dumps(d) + "\n")
slow = copy.deepcopy(c)
for o in [slow["results"]] + slow["intervals"]:
    for k in ("window_start_unix_ns", "window_end_unix_ns", "end_unix_ns"):
        if k in o: o[k] += 1_200_000_000
for iv in slow["intervals"]:
    iv["latency_ns"]["percentiles"] = {k: 3 * v for k, v in iv["latency_ns"]["percentiles"].items()}
sr = slow["results"]  # and it ended 0.2 s early: its end skew is not its start skew
sr["window_end_unix_ns"] -= 200_000_000
sr["window_s"] = sr["total_time_s"] = (sr["window_end_unix_ns"] - sr["window_start_unix_ns"]) / 1e9
sr["events_per_s"] = sr["events"] / sr["window_s"]
out("slow.json", slow)
out("lost.json", None, [l for l in map(json.loads, lines) if l["type"] == "interval"])
term = copy.deepcopy(c)
term["end"], term["complete"], term["exit_code"] = "signal", False, 1
for o in [term["results"]] + term["intervals"]:
    for k in ("window_start_unix_ns", "window_end_unix_ns", "end_unix_ns"):
        if k in o: o[k] += 100_000_000
out("term.json", term)
f2 = json.loads(open(w + "/fio2.json").read().splitlines()[-1])
fs = f2["results"]["operations"]["fsync"]
fs["count"], fs["latency_ns"]["histogram"]["buckets"], fs["latency_ns"]["percentiles"] = 0, [], {}
out("fio2.json", f2)
PY
oracle() {  # oracle NAME WANT_EXIT FILE...: merge --format=json, its exit, the oracle's verdict
    n=$1 want=$2; shift 2
    "$B" merge "$@" --format=json >"$w/om.json" 2>"$w/err"; rc=$?
    if [ "$rc" = "$want" ] && python3 "$top/tests/oracle_merge.py" "$w/om.json" "$@" >"$w/orc" 2>&1
    then ok; else bad "oracle: $n: exit $rc (expected $want); $(head -5 "$w/orc") $(head -2 "$w/err")"; fi
}
oracle "a slow client first, a killed one" 1 "$w/slow.json" "$w/c.json" "$w/lost.json"
oracle "a slow client first" 0 "$w/slow.json" "$w/c.json"
oracle "a SIGTERM'd client" 1 "$w/c.json" "$w/term.json"
oracle "fileio, fsync only in one file" 0 "$w/fio1.json" "$w/fio2.json"
oracle "one client" 0 "$w/c.json"
# a workload's counter and an operation's histogram, refused by name when missing or wrong
python3 - "$w" <<'PY' || bad "python (fileio fields)"
import json, sys
w = sys.argv[1]
d = json.loads(open(w + "/fio1.json").read().splitlines()[-1])
del d["results"]["writes"]
open(w + "/fio_noctr.json", "w").write(json.dumps(d) + "\n")
d = json.loads(open(w + "/fio1.json").read().splitlines()[-1])
d["results"]["operations"]["read"]["latency_ns"]["histogram"]["scheme"] = "hdr"
open(w + "/fio_badop.json", "w").write(json.dumps(d) + "\n")
PY
fe fio_noctr.json results.writes "a count (an integer >= 0)$"
fe fio_badop.json results.operations.read.latency_ns.histogram.scheme "'log-linear'"
t_summary
