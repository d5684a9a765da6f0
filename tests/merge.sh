#!/bin/sh
# --start-at and `bench merge` (docs/multi-host.md): clients started together against the
# suite's MariaDB and their --format=json results merged. Checked against the server and an
# independent computation: merged events == the sum of the parts == the server's Com_select
# delta / 14 (oltp_read_only's SELECTs per transaction); merged percentiles == those of the
# parts' histograms added up in python (nearest rank, bucket midpoint, clamped to min/max);
# a mismatched test or option is an error naming the field; a client killed mid-run (by
# SIGTERM: a document that says so; by SIGKILL: interval lines only) is reported; start skew
# and window overlap shown. --start-at: a past time, an unsynchronized clock (refused unless
# --start-at-force; where this clock is synchronized that path is the unit test
# load_clock_refuse's), the measured window starts at the target, a signal ends the wait.
# The database part needs the suite's MariaDB (run.sh exports BENCH_MY_*; else one of our
# own is started when BENCH_MERGE_PORT is set).
set -u
t_name=merge
. "$(dirname "$0")/lib.sh"
SCHEMA=$top/docs/bench-result.schema.json
python3 -c 'import jsonschema' 2>/dev/null || { echo "merge: SKIP: python3-jsonschema is not installed"; exit 77; }
own_db=
t_at_exit() { [ -z "$own_db" ] || sh "$top/tests/mariadb.sh" stop "$w/mdb"; }
if [ -z "${BENCH_MY_PORT:-}" ] && [ -n "${BENCH_MERGE_PORT:-}" ]; then
    menv=$(sh "$top/tests/mariadb.sh" start "$w/mdb" "$BENCH_MERGE_PORT") || exit 77
    eval "$menv"
    own_db=1
fi
[ -n "${BENCH_MY_PORT:-}" ] || { echo "merge: SKIP: BENCH_MY_PORT unset (run via tests/run.sh, or set BENCH_MERGE_PORT)"; exit 77; }
# expect NAME RC PATTERN: the last command's exit code and a line of $w/err
expect() {
    if [ "$rc" = "$2" ] && grep -q -- "$3" "$w/err"; then ok; else
        bad "$1: exit $rc (expected $2), stderr:"; head -5 "$w/err"
    fi
}
# at SECONDS [MORE]: an RFC 3339 UTC time SECONDS from now, with milliseconds (and one MORE
# seconds after it)
at() { python3 -c "
import time, sys
t = time.time() + float(sys.argv[1])
f = lambda t: time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(t)) + '.%03dZ' % (int(t * 1000) % 1000)
print(' '.join(f(t + float(x)) for x in ['0'] + sys.argv[2:]))" "$@"; }
ns_of() {  # the ns of an RFC 3339 time with milliseconds, in sh (no interpreter to start)
    d=$(echo "$1" | cut -c1-19 | tr T ' ') ms=$(echo "$1" | cut -c21-23)
    echo "$(date -u -d "$d" +%s)$ms""000000"
}
last() { tail -n 1 "$1"; }

# ---- the clock: what adjtimex(2) says, read by python, not by bench ----
synced=$(python3 - <<'PY'
import ctypes
buf = ctypes.create_string_buffer(256)  # struct timex: modes 0 reads
st = ctypes.CDLL(None, use_errno=True).adjtimex(buf)
status = int.from_bytes(buf.raw[40:44], 'little')
print('unknown' if st < 0 else 'no' if st == 5 or status & 0x40 else 'yes')
PY
)
F=
[ "$synced" = yes ] || F=--start-at-force

# ---- 1. --start-at, without a server ----
"$B" cpu --start-at=2020-01-01T00:00:00Z --time=1 run >"$w/out" 2>"$w/err"; rc=$?
expect "past time" 2 "start-at=2020-01-01T00:00:00Z: that time is .* s in the past"
[ ! -s "$w/out" ] && ok || bad "past time: something was printed on stdout"
"$B" cpu --start-at=tomorrow run >"$w/out" 2>"$w/err"; rc=$?
expect "not a time" 2 "start-at=tomorrow: not a time"
"$B" cpu --start-at=2030-01-01T00:00:00+02:00 run >"$w/out" 2>"$w/err"; rc=$?
expect "not UTC" 2 "only UTC"
if [ "$synced" = no ]; then
    "$B" cpu --start-at=+1 --time=1 run >"$w/out" 2>"$w/err"; rc=$?
    expect "unsynchronized clock refused" 3 "kernel says the system clock is not synchronized"
    grep -q "Threads started" "$w/out" && bad "unsynchronized: the run started" || ok
else
    echo "merge: note: this clock is synchronized ($synced): the refusal is the unit test load_clock_refuse's"
fi
# the window starts at the target: the document says the instant it was given, the clock's
# state as python read it, and the first interval ends one second after it
# (it waits in the background while the next two checks run and end: theirs is over 5 s
# before its target)
T=$(at 12); Tns=$(ns_of "$T")
t0=0
("$B" cpu --start-at="$T" $F --time=2 --report-interval=1 --cpu-max-prime=2000 --format=json run >"$w/s.json" 2>"$w/s.err"
    echo $? >"$w/s.rc"; date +%s%N >"$w/s.t1") &
sp=$!
"$B" cpu --start-at="$(at 5)" $F --time=1 --cpu-max-prime=2000 run >"$w/out" 2>"$w/err"; rc=$?
grep -q "^Measured window starts at 20..-..-..T..:..:..\.[0-9]*Z (clock " "$w/out" && ok || bad "the header's clock line: $(grep Measured "$w/out")"
# a signal ends the wait at once
"$B" cpu --start-at=+60 $F --time=1 run >"$w/out" 2>"$w/err" &
pid=$!
sleep 1; kill -TERM $pid; t0=$(date +%s)
wait $pid; rc=$?; t1=$(date +%s)
expect "SIGTERM while waiting" 1 "interrupted by SIGTERM while waiting for the start time"
[ $((t1 - t0)) -le 2 ] && ok || bad "SIGTERM while waiting: it took $((t1 - t0)) s to stop"
wait $sp
rc=$(cat "$w/s.rc") t0=0 t1=$(cat "$w/s.t1")
python3 - "$w/s.json" "$Tns" "$synced" "$t0" "$t1" <<'PY' && ok || { bad "--start-at=$T: window start (exit $rc)"; head -3 "$w/s.err"; }
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
d, T, synced, t0, t1 = lines[-1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
f, r = d["facts"], d["results"]
assert d["exit_code"] == 0 and d["complete"], d["end"]
assert f["start_at_unix_ns"] == T, (f["start_at_unix_ns"], T)
assert synced == "unknown" or f["clock_synchronized"] == (synced == "yes"), f
import os
late = r["window_start_unix_ns"] - T  # > 0 only when the workers were released late
bound = 50_000_000
if os.getloadavg()[0] > 2 * os.cpu_count():  # said, not silent: a wake-up waits for a CPU
    bound = 250_000_000
    print("merge: note: load average %.0f on %d CPUs: the start may be up to 250 ms late (it was %.1f ms)" % (os.getloadavg()[0], os.cpu_count(), late / 1e6))
assert 0 <= late <= bound, "the window started %.1f ms after the target" % (late / 1e6)
import calendar, time
sa = d["started_at"]
sa = calendar.timegm(time.strptime(sa[:19], "%Y-%m-%dT%H:%M:%S")) * 10**9 + int(sa[20:23]) * 10**6
assert sa < T - 1_000_000_000, "bench started %d ms before the target: nothing waited" % ((T - sa) // 10**6)
iv = [l for l in lines if l["type"] == "interval"]
assert iv and 0 <= iv[0]["end_unix_ns"] - (T + 10**9) <= 300_000_000, iv[0]["end_unix_ns"] - T
assert t1 >= T + 2 * 10**9, "the run ended before target + --time"
PY

# ---- 2. merge: clients against the suite's MariaDB ----
ROOT="mariadb --no-defaults -uroot -S ${BENCH_MY_SOCK:-/nonexistent}"
$ROOT -e "DROP DATABASE IF EXISTS mergetest; CREATE DATABASE mergetest" 2>/dev/null || bad "cannot create the database mergetest"
C="--no-defaults --mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=mergetest --tables=2 --table-size=1000"
"$B" oltp_read_only $C prepare >/dev/null 2>"$w/err" || bad "prepare: $(cat "$w/err")"
com_select() { $ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2; }
R="oltp_read_only $C --time=3 --report-interval=1 --percentile=50,95,99.9 --format=json run"
T=$(at 8)
before=$(com_select)
"$B" $R --threads=2 --start-at="$T" $F >"$w/c1.json" 2>"$w/e1" &
p1=$!
"$B" $R --threads=3 --start-at="$T" $F >"$w/c2.json" 2>"$w/e2" &
p2=$!
"$B" $R --threads=1 --start-at="$T" $F >"$w/c3.json" 2>"$w/e3" &
p3=$!
wait $p1 $p2 $p3
after=$(com_select)
"$B" merge "$w/c1.json" "$w/c2.json" "$w/c3.json" --format=json >"$w/m.json" 2>"$w/err"; rc=$?
[ $rc = 0 ] && ok || { bad "merge --format=json: exit $rc"; cat "$w/err"; }
"$B" merge "$w/c1.json" "$w/c2.json" "$w/c3.json" >"$w/m.txt" 2>"$w/err"; rc=$?
[ $rc = 0 ] && [ ! -s "$w/err" ] && ok || { bad "merge (text): exit $rc"; cat "$w/err"; }
python3 "$top/tests/json_check.py" "$SCHEMA" "$w/m.json" --exit 0 --complete yes --steps --no-lines --merged && ok || bad "the merged document does not pass json_check"
python3 - "$w" $((after - before)) <<'PY' && ok || bad "merged counts and percentiles"
import json, math, re, sys
w, com = sys.argv[1], int(sys.argv[2])
doc = lambda p: json.loads(open(p).read().splitlines()[-1])
parts = [doc("%s/c%d.json" % (w, i))["results"] for i in (1, 2, 3)]
m = doc(w + "/m.json")
r = m["results"]
ev = sum(p["events"] for p in parts)
assert r["events"] == ev, (r["events"], ev)
assert r["queries_read"] == sum(p["queries_read"] for p in parts)
assert com == 14 * ev, "Com_select delta %d, 14 x events %d" % (com, 14 * ev)
assert r["threads"] == 6 and r["per_thread"]["events"] == sum((p["per_thread"]["events"] for p in parts), [])
# the sum histogram, and its percentiles as one histogram fed every sample gives them
cnt = {}
for p in parts:
    for i, c in p["latency_ns"]["histogram"]["buckets"]:
        cnt[i] = cnt.get(i, 0) + c
assert sorted(cnt.items()) == [tuple(b) for b in r["latency_ns"]["histogram"]["buckets"]]
lo_ = lambda i: i if i < 256 else (128 + (i - 256) % 128) << ((8 + (i - 256) // 128) - 7)
hi_ = lambda i: i + 1 if i < 256 else lo_(i) + (1 << ((8 + (i - 256) // 128) - 7))
mn = min(p["latency_ns"]["min"] for p in parts)
mx = max(p["latency_ns"]["max"] for p in parts)
assert (r["latency_ns"]["min"], r["latency_ns"]["max"]) == (mn, mx)
assert r["latency_ns"]["sum"] == sum(p["latency_ns"]["sum"] for p in parts)
def pct(pc):
    rank = max(1, min(ev, math.ceil(pc / 100.0 * ev)))
    seen = 0
    for i in sorted(cnt):
        seen += cnt[i]
        if seen >= rank:
            v = lo_(i) + (hi_(i) - 1 - lo_(i)) // 2
            return min(max(v, mn), mx)
for k, pc in (("p50", 50), ("p95", 95), ("p99.9", 99.9)):
    assert r["latency_ns"]["percentiles"][k] == pct(pc), (k, r["latency_ns"]["percentiles"][k], pct(pc))
# rates over the common window
st = [p["window_start_unix_ns"] for p in parts]
en = [p["window_end_unix_ns"] for p in parts]
common = (min(en) - max(st)) / 1e9
# each client's events counted in the common window at its own rate: the merged rate is the
# sum of the clients' rates (never above it), window_s the events over that sum
rs = sum(p["events_per_s"] for p in parts)
assert abs(r["events_per_s"] - rs) <= 1e-9 * rs and r["events_per_s"] <= ev / common, (r["events_per_s"], rs)
assert abs(r["window_s"] - ev / rs) < 1e-6 and abs(r["total_time_s"] - common) < 1e-6, r
# the skew is the spread of the windows' starts, exactly; the three were released at one
# target, each by its own timer: within the lateness bound the check above allows each
mf = m["facts"]
assert mf["clients"] == 3 and abs(mf["start_skew_s"] - (max(st) - min(st)) / 1e9) < 1e-9, mf
assert mf["start_skew_s"] < 0.25, mf
un = (max(en) - min(st)) / 1e9
assert abs(mf["common_window_s"] - common) < 1e-6 and abs(mf["union_window_s"] - un) < 1e-6, mf
assert abs(mf["window_overlap_pct"] - 100 * common / un) < 1e-6, mf
assert [s["facts"]["file"] for s in m["steps"]] == ["%s/c%d.json" % (w, i) for i in (1, 2, 3)]
# the text: sysbench's block with the same numbers
t = open(w + "/m.txt").read()
assert re.search(r"total number of events: +%d\n" % ev, t), "events in the text"
assert re.search(r"transactions: +%d +\(" % ev, t)
assert re.search(r"95th percentile: +%.2f\n" % (pct(95) / 1e6), t), "p95 in the text"
assert re.search(r"99\.9th percentile: +%.2f\n" % (pct(99.9) / 1e6), t)
rows = re.findall(r"^ +(\d) +\S+c(\d)\.json +\S+ +(\d) +\+(\d+\.\d+)s", t, re.M)
assert [(a, b, c) for a, b, c, _ in rows] == [("1", "1", "2"), ("2", "2", "3"), ("3", "3", "1")], rows
sl = "Start skew: %.3f s; window overlap: %.1f%% (%.3f s in common of %.3f s)" % (
    mf["start_skew_s"], mf["window_overlap_pct"], common, un)
assert re.search("^" + re.escape(sl) + "$", t, re.M), ("skew line", sl)
assert re.search(r"^\[ 1s \] thds: 6 tps: ", t, re.M), "a merged interval line"
PY

# the oracle (tests/oracle_merge.py: every figure from the inputs by the documented rules)
python3 "$top/tests/oracle_merge.py" "$w/m.json" "$w/c1.json" "$w/c2.json" "$w/c3.json" >"$w/orc" 2>&1 && ok || bad "oracle: three clients: $(head -5 "$w/orc")"

# mismatched test or options: the error names the field
python3 - "$w" <<'PY'
import json, sys
w = sys.argv[1]
lines = open(w + "/c2.json").read().splitlines()
d = json.loads(lines[-1])
d["options"]["range-size"] = 7
open(w + "/opt.json", "w").write(json.dumps(d) + "\n")
d = json.loads(lines[-1])
d["results"]["latency_ns"]["histogram"]["sub_bits"] = 7
open(w + "/sub.json", "w").write(json.dumps(d) + "\n")
d = json.loads(lines[-1])
del d["results"]["per_thread"]["events"]
d["schema_minor"] = 0 if False else d["schema_minor"]
open(w + "/old.json", "w").write(json.dumps(d) + "\n")
PY
"$B" merge "$w/c1.json" "$w/opt.json" >"$w/out" 2>"$w/err"; rc=$?
expect "option differs" 2 "opt.json: option range-size is 7, but .*c1.json has 100: the clients ran different tests"
"$B" merge "$w/c1.json" "$w/sub.json" >"$w/out" 2>"$w/err"; rc=$?
expect "bucket scheme differs" 1 "sub.json: results.latency_ns.histogram.sub_bits: expected 8"
"$B" merge "$w/c1.json" "$w/old.json" >"$w/out" 2>"$w/err"; rc=$?
expect "per-thread counts missing" 1 "old.json: results.per_thread.events: expected one count per thread"
"$B" cpu --time=1 --cpu-max-prime=1000 --format=json run >"$w/cpu.json" 2>/dev/null
"$B" merge "$w/c1.json" "$w/cpu.json" >"$w/out" 2>"$w/err"; rc=$?
expect "another test" 2 "cpu.json: workload is 'cpu', but .*c1.json has 'oltp_read_only'"
"$B" merge "$w/c1.json" "$w/nonexistent.json" >"$w/out" 2>"$w/err"; rc=$?
expect "missing file" 3 "cannot open .*nonexistent.json"
"$B" merge >"$w/out" 2>"$w/err"; rc=$?
expect "no files" 2 "merge: no files"

# a client that starts 2 s late, one killed by SIGTERM mid-run, one by SIGKILL
set -- $(at 8 2); T=$1 T2=$2
"$B" $R --threads=2 --start-at="$T" $F >"$w/k1.json" 2>/dev/null &
p1=$!
"$B" $R --threads=2 --start-at="$T2" $F >"$w/k2.json" 2>/dev/null &
p2=$!
"$B" oltp_read_only $C --time=8 --report-interval=1 --format=json run --threads=1 --start-at="$T" $F >"$w/k3.json" 2>/dev/null &
p3=$!
"$B" oltp_read_only $C --time=8 --report-interval=1 --format=json run --threads=1 --start-at="$T" $F >"$w/k4.json" 2>/dev/null &
p4=$!
sleep 10.5; kill -TERM $p3; kill -KILL $p4
wait $p1 $p2 $p3 $p4 2>/dev/null
"$B" merge "$w/k1.json" "$w/k2.json" >"$w/out" 2>"$w/err"; rc=$?
expect "a late client" 0 "warning: client 2 (.*k2.json) started [12]\.[0-9]* s after the first"
grep -q "warning: the clients' measured windows overlap by [0-9.]*% only" "$w/err" && ok || bad "late client: no overlap warning: $(cat "$w/err")"
grep -Eq "^ +2 .*k2.json .* \+[12]\.[0-9]{3}s " "$w/out" && ok || bad "late client: its line: $(grep k2.json "$w/out")"
# a third of the windows in common (issue 28: was 2.0-2.4x the sum of the clients' rates):
# the merged rate is the sum of the two clients' own rates, the counts each client's whole
"$B" merge "$w/k1.json" "$w/k2.json" --format=json >"$w/kl.json" 2>"$w/err"
python3 - "$w" <<'PY' && ok || bad "late client: the merged rate: $(head -c 300 "$w/err")"
import json, sys
w = sys.argv[1]
doc = lambda f: json.loads(open(w + f).read().splitlines()[-1])
parts = [doc(f)["results"] for f in ("/k1.json", "/k2.json")]
r, f = doc("/kl.json")["results"], doc("/kl.json")["facts"]
rs = sum(p["events_per_s"] for p in parts)
assert r["events"] == sum(p["events"] for p in parts), r["events"]
assert f["common_window_s"] < 2.5 and rs * (1 - 1e-9) <= r["events_per_s"] <= rs * (1 + 1e-9), (r["events_per_s"], rs, f)
PY
python3 "$top/tests/oracle_merge.py" "$w/kl.json" "$w/k1.json" "$w/k2.json" >"$w/orc" 2>&1 && ok || bad "oracle: a late client: $(head -5 "$w/orc")"
# the SIGTERM'd client's three dimensions differ from k1's (--time): a different run
"$B" merge "$w/k1.json" "$w/k3.json" >"$w/out" 2>"$w/err"; rc=$?
expect "a client of another --time" 2 "option time is 8, but .*k1.json has 3"
python3 - "$w" <<'PY'
import json, sys
w = sys.argv[1]
d = json.loads(open(w + "/k3.json").read().splitlines()[-1])
assert d["end"] == "signal" and not d["complete"], d["end"]
PY
[ $? = 0 ] && ok || bad "the SIGTERM'd client did not write a document that says so"
"$B" merge "$w/k3.json" "$w/k4.json" >"$w/out" 2>"$w/err"; rc=$?
expect "a SIGTERM'd client" 1 "warning: client 1 (.*k3.json) did not run to its end: it ended on 'signal' after [0-9.]* s"
grep -q "warning: client 2 (.*k4.json) is not in the merged result: no result document: its last line is an 'interval' line at [0-9]* s (the client was killed mid-run?)" "$w/err" && ok || bad "SIGKILL'd client not reported: $(cat "$w/err")"
grep -q "merge: 2 of 2 client(s) did not complete their run" "$w/err" && ok || bad "the incomplete merge's error line: $(tail -2 "$w/err")"
grep -Eq "^ +1 .*k3.json .* signal$" "$w/out" && grep -Eq "^ +2 .*k4.json +.*no result document" "$w/out" && ok || bad "the clients' lines: $(cat "$w/out" | head -6)"
"$B" merge "$w/k3.json" "$w/k4.json" --format=json >"$w/kk.json" 2>/dev/null; rc=$?
[ $rc = 1 ] && python3 "$top/tests/oracle_merge.py" "$w/kk.json" "$w/k3.json" "$w/k4.json" >"$w/orc" 2>&1 && ok || bad "oracle: a SIGTERM'd and a SIGKILL'd client: exit $rc, $(head -5 "$w/orc")"
ev3=$(python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])['results']['events'])" "$w/k3.json")
grep -Eq "total number of events: +$ev3$" "$w/out" && ok || bad "the SIGTERM'd client's events ($ev3) are not the merged total"

"$B" oltp_read_only $C cleanup >/dev/null 2>&1
$ROOT -e "DROP DATABASE IF EXISTS mergetest" 2>/dev/null
# --client-index/--client-count for every workload (cpu has no check of its own, oltp's comes
# after): one without the other, index >= count, count < 1: usage exit 2 naming the option,
# before anything runs or connects (no header "Client 3 of 2")
cl_usage() {  # NAME WORKLOAD-ARGS... : exit 2, message naming the option, nothing on stdout
    n=$1; shift
    "$B" "$@" >"$w/cl.out" 2>"$w/cl.err"
    cx=$?
    if [ $cx = 2 ] && grep -q "^bench: --client-" "$w/cl.err" && ! grep -q "Client" "$w/cl.out"; then ok
    else bad "client options: $n: exit $cx, $(head -c 200 "$w/cl.err")"; fi
}
for wl in "cpu run --time=1" "oltp_read_only run --rand-seed=1 --mysql-port=1"; do
    cl_usage "$wl: index 2 of 2" $wl --client-index=2 --client-count=2
    cl_usage "$wl: count alone" $wl --client-count=2
    cl_usage "$wl: index alone" $wl --client-index=0
    cl_usage "$wl: count 0" $wl --client-index=0 --client-count=0
done
"$B" cpu run --time=1 --client-index=2 --client-count=2 2>"$w/cl.err" >/dev/null
grep -q -- "--client-index=2: must be below --client-count=2" "$w/cl.err" && ok || bad "client options: cpu: index >= count not named"
"$B" cpu run --time=1 --client-index=1 --client-count=2 >"$w/cl.out" 2>&1
grep -q "Client 2 of 2 (client index 1)" "$w/cl.out" && ok || bad "client options: cpu: a valid pair runs, header"
# --start-at: decimal seconds only (no strtod hex or exponent), far times "more than a day"
# (no overflow, never "in the past"): usage exit 2
for sa in +0x10 +1e3; do
    "$B" cpu run --time=1 --start-at=$sa >/dev/null 2>"$w/err"; rc=$?
    expect "--start-at=$sa" 2 "not a time"
done
for sa in +86401 9999-12-31T23:59:59Z; do
    "$B" cpu run --time=1 --start-at=$sa >/dev/null 2>"$w/err"; rc=$?
    expect "--start-at=$sa" 2 "more than a day"
done

# bench slap results: refused, saying why (exit 1); more than 64 clients: 70 copies of one
# client's result, indexes 0..69, merge (and one missing is named)
merge_slap_many() {
    "$B" slap --only-print -q "SELECT 1" --format=json >"$w/slap.json"
    "$B" merge "$w/slap.json" >/dev/null 2>"$w/err"; rc=$?
    expect "merge of a slap result" 1 "^bench: merge: $w/slap.json: a bench slap result: its seconds are per iteration of one process's clients, and the clients' iterations do not start or end together, so they add up to no one run's time$"
    "$B" cpu run --time=1 --client-index=0 --client-count=70 --format=json >"$w/c70.json" 2>/dev/null
    python3 - "$w" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/c70.json"))
for i in range(70):
    d["options"]["client-index"] = i
    json.dump(d, open("%s/c70-%d.json" % (sys.argv[1], i), "w"))
PY
    set --; i=0; while [ $i -lt 70 ]; do set -- "$@" "$w/c70-$i.json"; i=$((i + 1)); done
    "$B" merge "$@" >"$w/out" 2>"$w/err"; rc=$?
    ev=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"]["events"] * 70)' "$w/c70.json")
    [ $rc = 0 ] && grep -q "^Merged 70 client results of cpu: 70 threads in all$" "$w/out" && grep -q "total number of events: *$ev$" "$w/out" && ok || bad "70 clients merged: exit $rc: $(head -3 "$w/out") $(head -3 "$w/err"); events $ev expected"
    shift
    "$B" merge "$@" >/dev/null 2>"$w/err"; rc=$?
    expect "70 clients, index 0 missing" 1 "merge: client-count is 70, but no result of client-index 0$"
}
merge_slap_many

t_summary
