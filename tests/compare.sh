#!/bin/sh
# `bench compare` (issue 11): two recorded reports made here from one real `bench all --quick`
# and copies with chosen facts edited by python (so every ratio and mark is known exactly):
# ratios and marks (better / worse / ~ within noise) in both directions and for both kinds of
# measure (higher and lower is better), --noise, a measure's own spread (two real cpu runs with
# intervals), column alignment and the 100-column limit for 3 reports, the JSON document
# against the schema and the expected values, --output, and the refusals with their exit codes
# and one-line messages. No database needed. Ends with "compare: N passed, N failed".
set -u
t_name=compare
. "$(dirname "$0")/lib.sh"
python3 -c 'import jsonschema' 2>/dev/null || { echo "compare: SKIP: python3-jsonschema is not installed"; exit 77; }

# run NAME WANT_EXIT ARGS...: bench compare ARGS, stdout in $w/NAME, stderr in $w/NAME.err
run() {
    n=$1 want=$2; shift 2
    "$B" compare "$@" >"$w/$n" 2>"$w/$n.err"
    ex=$?
    check "$n: exit $ex, want $want ($(head -c 300 "$w/$n.err"))" "[ $ex = $want ]"
}
# row FILE NAME: the MEASURES row of NAME as "values... ratio mark" (fields after the name)
row() { awk -v n="$2" '$1 == n { $1 = ""; sub(/^ /, ""); print; exit }' "$1"; }
expect_row() { # expect_row FILE NAME WANT
    got=$(row "$1" "$2") wantrow=$3
    check "$1 $2: '$got', want '$wantrow'" '[ "$got" = "$wantrow" ]'
}

# 1. A: a real report; B: A with chosen measures changed; C: another change.
mkdir -p "$w/d"
"$B" all --quick --dir="$w/d" --format=json --output="$w/a.json" >/dev/null 2>"$w/all.err"
check "bench all --quick wrote a report" '[ -s "$w/a.json" ]'
python3 - "$w" <<'PY'
import json, sys
w = sys.argv[1]
a = json.load(open(w + "/a.json"))
f = a["facts"]
# chosen values: exact ratios; each kind of measure in both directions
f["cpu.events_per_s"] = 1000.0
f["disk.fdatasync_p99_ms"] = 8.0
f["disk.seqread_mib_per_s"] = 1000.0
f["mem.latency_l1_ns"] = 2.0
f["sched.ctxsw_same_cpu_ns"] = 4000.0
f["disk.randread_qd1_iops"] = 1000.0
f["disk.randwrite_qd1_iops"] = 1000.0
f["cpu_steal_pct"] = 0
json.dump(a, open(w + "/a.json", "w"))
b = json.loads(json.dumps(a))
g = b["facts"]
g["cpu.events_per_s"] = 1100.0          # higher is better: 1.100 better
g["disk.fdatasync_p99_ms"] = 4.0        # lower is better: 0.500 better
g["disk.seqread_mib_per_s"] = 800.0     # 0.800 worse
g["mem.latency_l1_ns"] = 2.06           # 1.030: within 5%
g["sched.ctxsw_same_cpu_ns"] = 4800.0   # lower is better: 1.200 worse
g["disk.randread_qd1_iops"] = 1049.0    # 1.049: within 5%, beyond --noise=4
g["disk.randwrite_qd1_iops"] = 1051.0   # 1.051: beyond 5%
g["cpu_steal_pct"] = 3                  # from 0: no ratio, n/a
del g["mem.stream_add_mb_per_s"]        # missing in B
g["cpu_model"] = "Other CPU"
g["isa"] = "aarch64" if f.get("isa") != "aarch64" else "x86_64"   # another ISA: differs
g["page_size_bytes"] = 65536 if f.get("page_size_bytes") != 65536 else 4096
b["started_at"] = "2026-01-01T00:00:00.000Z"
for s in b["steps"]:
    if s["action"] == "check" and s["facts"]["id"] == "steal":
        s["facts"]["verdict"] = "FAIL"
json.dump(b, open(w + "/b.json", "w"))
c = json.loads(json.dumps(a))
c["facts"]["cpu.events_per_s"] = 2000.0
json.dump(c, open(w + "/c.json", "w"))
# refusals
v2 = json.loads(json.dumps(a)); v2["schema_version"] = 2
json.dump(v2, open(w + "/v2.json", "w"))
nt = json.loads(json.dumps(a)); nt["type"] = "interval"
json.dump(nt, open(w + "/notresult.json", "w"))
open(w + "/trunc.json", "w").write(json.dumps(a)[:5000])
open(w + "/deep.json", "w").write('{"type":' + "[" * 70 + "]" * 70 + "}")
open(w + "/notjson.txt", "w").write("hello\n")
open(w + "/array.json", "w").write("[1,2]")
nul = json.loads(json.dumps(a)); nul["facts"]["isa"] = str(a["facts"]["isa"]) + "\u0000evil"
json.dump(nul, open(w + "/nul.json", "w"))   # JSON's \u0000 inside a host fact
PY

run ab 0 "$w/a.json" "$w/b.json"
expect_row "$w/ab" cpu.events_per_s "1000 1100 1.100 better"
expect_row "$w/ab" disk.fdatasync_p99_ms "8 4 0.500 better"
expect_row "$w/ab" disk.seqread_mib_per_s "1000 800 0.800 worse"
expect_row "$w/ab" mem.latency_l1_ns "2 2.06 1.030 ~"
expect_row "$w/ab" sched.ctxsw_same_cpu_ns "4000 4800 1.200 worse"
expect_row "$w/ab" disk.randread_qd1_iops "1000 1049 1.049 ~"
expect_row "$w/ab" disk.randwrite_qd1_iops "1000 1051 1.051 better"
expect_row "$w/ab" cpu_steal_pct "0 3 - n/a"
check "mem.stream_add_mb_per_s missing in B" '[ "$(row "$w/ab" mem.stream_add_mb_per_s | awk "{ print \$2, \$3, \$4 }")" = "- - missing" ]'
# sizes and settings are not measures; host facts and checks side by side
check "no size row (mem.latency_max_bytes)" '! grep -q "^  mem.latency_max_bytes " "$w/ab"'
check "no recommendation row (rec.*)" '! grep -q "^  rec\." "$w/ab"'
check "sections HOST MEASURES CHECKS" 'grep -q "^HOST " "$w/ab" && grep -q "^MEASURES " "$w/ab" && grep -q "^CHECKS " "$w/ab"'
check "cpu_model differs" 'grep "^  cpu_model " "$w/ab" | grep -q "  Other CPU  *differs$"'
check "kernel the same: no differs" 'grep "^  kernel " "$w/ab" | grep -qv differs'
isa_a=$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["facts"]; print(f["isa"], f["page_size_bytes"])' "$w/a.json")
isa_b=$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["facts"]; print(f["isa"], f["page_size_bytes"])' "$w/b.json")
check "isa shown and differs ($isa_a, $isa_b)" \
    '[ "$(grep "^  isa " "$w/ab" | awk "{ print \$2, \$3, \$4 }")" = "${isa_a% *} ${isa_b% *} differs" ]'
check "page size shown and differs ($isa_a, $isa_b)" \
    '[ "$(grep "^  page_size_bytes " "$w/ab" | awk "{ print \$2, \$3, \$4 }")" = "${isa_a#* } ${isa_b#* } differs" ]'
run anul 0 "$w/a.json" "$w/nul.json"
check "an isa with a NUL inside shown with it (\\0) and differs, not cut at the NUL" \
    '[ "$(grep "^  isa " "$w/anul" | awk "{ print \$2, \$3, \$4 }")" = "${isa_a% *} ${isa_a% *}\\0evil differs" ]'
check "check steal: PASS or WARN in A, FAIL in B, differs" 'grep -Eq "^  steal +(PASS|WARN|INFO) +FAIL  differs$" "$w/ab"'
nmeas=$(python3 -c "
import json,sys
f=json.load(open(sys.argv[1]))['facts']
def d(k):
    if k.endswith('_bytes') or k.startswith(('all.','rec.')): return 0
    if any(s in k for s in ('_per_s','_iops')) or k.endswith(('_tps','efficiency')): return 1
    if k.endswith(('_ns','_us','_ms','_s','_pct')) or any(s in k for s in ('_ns_','_us_','_ms_','latency')): return -1
    return 0
print(sum(1 for k,v in f.items() if isinstance(v,(int,float)) and not isinstance(v,bool) and d(k)))" "$w/a.json")
check "B against A: counts (2 better of the row list + randwrite, 2 worse, 1 n/a, 1 missing)" 'grep -q "^B against A: 3 better, 2 worse, $((nmeas - 7)) within noise, 1 not in both$" "$w/ab"'

# 2. the other direction: ratios inverted, marks swapped
run ba 0 "$w/b.json" "$w/a.json"
expect_row "$w/ba" cpu.events_per_s "1100 1000 0.909 worse"
expect_row "$w/ba" disk.fdatasync_p99_ms "4 8 2.000 worse"
expect_row "$w/ba" disk.seqread_mib_per_s "800 1000 1.250 better"
expect_row "$w/ba" sched.ctxsw_same_cpu_ns "4800 4000 0.833 better"
expect_row "$w/ba" cpu_steal_pct "3 0 0.000 better"

# 3. --noise: 4% marks the 1.049 row; 30% leaves only the large changes
run noise4 0 "$w/a.json" "$w/b.json" --noise=4
expect_row "$w/noise4" disk.randread_qd1_iops "1000 1049 1.049 better"
expect_row "$w/noise4" mem.latency_l1_ns "2 2.06 1.030 ~"
run noise30 0 "$w/a.json" "$w/b.json" --noise=30
expect_row "$w/noise30" sched.ctxsw_same_cpu_ns "4000 4800 1.200 ~"
expect_row "$w/noise30" disk.fdatasync_p99_ms "8 4 0.500 better"
run noise_bad 2 "$w/a.json" "$w/b.json" --noise=-1

# 4. three reports: columns aligned, <= 100 columns, both ratio columns
run abc 0 "$w/a.json" "$w/b.json" "$w/c.json"
expect_row "$w/abc" cpu.events_per_s "1000 1100 2000 1.100 better 2.000 better"
check "3 reports fit 100 columns" '[ "$(awk "{ if (length > m) m = length } END { print m + 0 }" "$w/abc")" -le 100 ]'
cat >"$w/cols.py" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("MEASURES "))
head = lines[i]
ends = [head.index(h) + 3 for h in ("B/A", "C/A")]
vals = [head.index(c) + 1 for c in (" A ", " B ", " C ")]
rows = []
for l in lines[i + 1:]:
    if not l.startswith("  "):
        break
    rows.append(l)
assert len(rows) > 20, len(rows)
for l in rows:
    for e in ends:  # each ratio (or a dash) ends under the end of its header
        assert l[e - 1] != " " and l[e] == " ", (e, l)
    for v in vals:  # values right-aligned under their letter
        assert l[v] != " ", (v, l)
print("ok")
PY
if python3 "$w/cols.py" "$w/abc" >"$w/cols" 2>&1; then ok; else bad "columns: $(cat "$w/cols")"; fi

# 5. JSON: the schema, the values and marks exactly
"$B" compare "$w/a.json" "$w/b.json" --format=json >"$w/j" 2>"$w/j.err"
ex=$?
check "JSON exit 0" '[ $ex = 0 ]'
if python3 "$top/tests/json_check.py" "$top/docs/bench-result.schema.json" "$w/j" --exit 0 --steps >"$w/jc" 2>&1; then ok; else bad "JSON against the schema: $(cat "$w/jc")"; fi
if python3 - "$w/j" "$w/a.json" "$w/b.json" >"$w/jv" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a, b = (json.load(open(p))["facts"] for p in sys.argv[2:4])
assert d["action"] == "compare" and d["workload"] == "compare" and d["results"] is None
f = d["facts"]
assert f["compare.files"] == 2 and f["compare.noise_pct"] == 5, f
assert f["file_1"] == sys.argv[2] and f["file_2"] == sys.argv[3] and f["what_1"] == "all (quick)"
assert f["started_at_2"] == "2026-01-01T00:00:00.000Z"
m = {s["facts"]["name"]: s["facts"] for s in d["steps"] if s["action"] == "measure"}
want = {"cpu.events_per_s": ("higher", "better"), "disk.fdatasync_p99_ms": ("lower", "better"),
        "disk.seqread_mib_per_s": ("higher", "worse"), "mem.latency_l1_ns": ("lower", "same"),
        "sched.ctxsw_same_cpu_ns": ("lower", "worse"), "disk.randread_qd1_iops": ("higher", "same"),
        "disk.randwrite_qd1_iops": ("higher", "better"), "cpu_steal_pct": ("lower", "n/a"),
        "mem.stream_add_mb_per_s": ("higher", "missing")}
for k, (better, mark) in want.items():
    r = m[k]
    assert r["better"] == better and r["mark_2"] == mark, (k, r)
    assert r["path"] == "facts." + k and r["noise_pct"] == 5, r
    assert r["value_1"] == a[k], (k, r)
    if mark != "missing":
        assert r["value_2"] == b[k], (k, r)
    if a[k] and mark != "missing":
        assert r["ratio_2"] == b[k] / a[k], (k, r)
    else:
        assert "ratio_2" not in r, r
for k, r in m.items():  # every other measure: unchanged, ratio 1, same
    if k not in want:
        assert r["value_1"] == r["value_2"] and r["mark_2"] == "same", r
        assert r.get("ratio_2") == 1 or r["value_1"] == 0, r
assert f["compare.better_2"] == 3 and f["compare.worse_2"] == 2, f
assert f["compare.same_2"] == len(m) - 7, (f, len(m))
h = {s["facts"]["name"]: s["facts"] for s in d["steps"] if s["action"] == "host"}
assert h["cpu_model"]["value_2"] == "Other CPU" and h["cpu_model"]["differs"] is True, h
assert h["kernel"]["differs"] is False and h["mem_total_bytes"]["value_1"] == a["mem_total_bytes"]
assert h["isa"]["differs"] is True and h["isa"]["value_1"] == a["isa"] and h["isa"]["path"] == "facts.isa", h
assert h["page_size_bytes"]["differs"] is True and h["page_size_bytes"]["value_1"] == a["page_size_bytes"], h
c = {s["facts"]["id"]: s["facts"] for s in d["steps"] if s["action"] == "check"}
assert c["steal"]["verdict_2"] == "FAIL" and c["steal"]["differs"] is True, c
assert sum(1 for r in c.values() if r["differs"]) == 1, c
print("ok")
PY
then ok; else bad "JSON values: $(cat "$w/jv")"; fi

# 6. --output: the text goes to the file, nothing to stdout
run out 0 "$w/a.json" "$w/b.json" --output="$w/out.txt"
check "--output: stdout empty" '[ ! -s "$w/out" ]'
check "--output: the same text as stdout" 'cmp -s "$w/out.txt" "$w/ab"'
# --output naming an input (issue 28: was truncated to 0 bytes): refused, exit 2, before
# anything is read or written; by its name, through ./, a symlink and a hard link
cp "$w/b.json" "$w/b.keep"; ln -s b.json "$w/b.sym"; ln "$w/b.json" "$w/b.hard"
for o in "$w/b.json" "$w/./b.json" "$w/b.sym" "$w/b.hard"; do
    for fmt in text json; do
        run outin 2 "$w/a.json" "$w/b.json" --output="$o" --format=$fmt
        check "--output=$o --format=$fmt: the line ($(head -c 200 "$w/outin.err"))" \
            'grep -q "^bench: --output=.*: it is input file 2 (.*b.json, the same file); writing the result there would destroy it$" "$w/outin.err"'
        check "--output=$o --format=$fmt: the input intact" 'cmp -s "$w/b.json" "$w/b.keep"'
        check "--output=$o --format=$fmt: nothing on stdout" '[ ! -s "$w/outin" ]'
        cp "$w/b.keep" "$w/b.json" # the next checks' input, whatever happened to it
    done
done

# 7. single runs: a measure's own spread over intervals raises its noise
"$B" cpu --time=3 --report-interval=1 --cpu-max-prime=2000 --format=json --output="$w/r1.json" run >/dev/null 2>&1
"$B" cpu --time=3 --report-interval=1 --cpu-max-prime=2000 --threads=2 --format=json --output="$w/r2.json" run >/dev/null 2>&1
"$B" compare "$w/r1.json" "$w/r2.json" --format=json --noise=0.5 >"$w/rj" 2>"$w/rj.err"
check "runs: exit 0" '[ $? = 0 ]'
if python3 - "$w/rj" "$w/r1.json" "$w/r2.json" >"$w/rv" 2>&1 <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
docs = [json.load(open(p)) for p in sys.argv[2:4]]
m = {s["facts"]["name"]: s["facts"] for s in d["steps"] if s["action"] == "measure"}
assert d["facts"]["what_1"] == "cpu run", d["facts"]
for k in ("events_per_s", "latency_ns.min", "latency_ns.avg", "latency_ns.max", "latency_ns.p95"):
    assert k in m, (k, sorted(m))
def cv(doc, get):
    xs = [get(i) for i in doc["intervals"]]
    mean = sum(xs) / len(xs)
    return 100 * math.sqrt(max(sum(x * x for x in xs) / len(xs) - mean * mean, 0)) / mean
r = m["events_per_s"]
sp = [cv(doc, lambda i: i["events_per_s"]) for doc in docs]
assert all(len(doc["intervals"]) >= 3 for doc in docs)
for k, s in enumerate(sp):
    assert math.isclose(r.get("spread_pct_%d" % (k + 1), 0), s, rel_tol=1e-9, abs_tol=1e-9), (r, sp)
assert math.isclose(r["noise_pct"], max([0.5] + sp), rel_tol=1e-9), (r, sp)
assert r["value_1"] == docs[0]["results"]["events_per_s"] and r["path"] == "results.events_per_s"
p = m["latency_ns.p95"]
assert p["path"] == "results.latency_ns.percentiles.p95" and p["better"] == "lower"
assert m["latency_ns.min"]["noise_pct"] == 0.5  # no spread for the extremes
ratio = r["value_2"] / r["value_1"]
want = "same" if abs(ratio - 1) * 100 <= r["noise_pct"] else ("better" if ratio > 1 else "worse")
assert r["mark_2"] == want, (r, want)
h = {s["facts"]["name"]: s["facts"] for s in d["steps"] if s["action"] == "host"}
assert h["kernel"]["path"] == "host.kernel" and h["cpus"]["value_1"] == docs[0]["host"]["cpus"], h
print("ok")
PY
then ok; else bad "runs: $(cat "$w/rv")"; fi

# 7b. issue 29: the oracle (tests/oracle_compare.py, from the docs alone) on edge cases: every
# value, spread, noise, ratio and mark of the rows. From r1.json: a quiet A (its interval
# samples equal: no spread), a noisy B (10% faster, 10% slower percentiles, its samples +-30%:
# its own spread, ~24%, is the row's noise: within it), both ways round; a file with an
# operation (fileio's write) that the other lacks (missing), against the real runs too.
python3 - "$w" <<'PY' || bad "python (the compare edge cases)"
import json, copy, sys
w = sys.argv[1]
r1 = json.load(open(w + "/r1.json"))
assert len(r1["intervals"]) >= 3, len(r1["intervals"])
quiet, noisy = copy.deepcopy(r1), copy.deepcopy(r1)
def pcts(d): return d["results"]["latency_ns"]["percentiles"]
for iv in quiet["intervals"]:
    iv["events_per_s"] = quiet["results"]["events_per_s"]
    iv["latency_ns"]["percentiles"] = dict(pcts(quiet))
noisy["results"]["events_per_s"] *= 1.10
for k in pcts(noisy):
    pcts(noisy)[k] = round(pcts(noisy)[k] * 1.10)
for i, iv in enumerate(noisy["intervals"]):
    f = (1.0, 1.3, 0.7)[i % 3]
    iv["events_per_s"] = noisy["results"]["events_per_s"] * f
    iv["latency_ns"]["percentiles"] = {k: round(v * f) for k, v in pcts(noisy).items()}
json.dump(quiet, open(w + "/quiet.json", "w")); json.dump(noisy, open(w + "/noisy.json", "w"))
op = lambda p95: {"count": 10, "latency_ns": {"percentiles": {"p95": p95},
                  "histogram": {"scheme": "log-linear", "sub_bits": 8, "max_exp": 42, "buckets": [[100, 10]]}}}
a, b = copy.deepcopy(quiet), copy.deepcopy(quiet)
a["results"]["operations"] = {"read": op(100), "write": op(100)}
b["results"]["operations"] = {"read": op(150)}
json.dump(a, open(w + "/opa.json", "w")); json.dump(b, open(w + "/opb.json", "w"))
PY
ocmp() {  # ocmp NAME NOISE FILE...: compare --format=json, checked by the oracle
    n=$1 nz=$2; shift 2
    "$B" compare "$@" --noise="$nz" --format=json >"$w/oc.json" 2>"$w/oc.err"; ex=$?
    if [ $ex = 0 ] && python3 "$top/tests/oracle_compare.py" "$w/oc.json" "$nz" "$@" >"$w/ocv" 2>&1
    then ok; else bad "oracle: $n: exit $ex; $(head -5 "$w/ocv") $(head -2 "$w/oc.err")"; fi
}
ocmp "quiet A, noisy B" 5 "$w/quiet.json" "$w/noisy.json"
python3 - "$w/oc.json" <<'PY' && ok || bad "quiet A, noisy B: the edge case is not one (B's spread is not the noise)"
import json, sys
m = {s["facts"]["name"]: s["facts"] for s in json.load(open(sys.argv[1]))["steps"] if s["action"] == "measure"}
e = m["events_per_s"]
assert e["noise_pct"] > 20 and e.get("spread_pct_1", 0) < 1e-3 and e["mark_2"] == "same", e  # A's spread: 0 or float dust
PY
ocmp "noisy A, quiet B" 5 "$w/noisy.json" "$w/quiet.json"
ocmp "quiet, noisy, quiet" 5 "$w/quiet.json" "$w/noisy.json" "$w/quiet.json"
ocmp "an operation in one file only" 5 "$w/opa.json" "$w/opb.json"
ocmp "two real runs" 0.5 "$w/r1.json" "$w/r2.json"
# issue 29 (coverage): the results of each step (a merged result's one step per client) are
# rows of their own, by the oracle; host values that are not text, a number or a boolean (an
# object) are not shown, a value only in A differs, a fractional number is kept as it is
"$B" merge "$w/r1.json" --format=json >"$w/m1.json" 2>/dev/null && "$B" merge "$w/r2.json" --format=json >"$w/m2.json" 2>/dev/null ||
    bad "bench merge of r1.json, r2.json failed"
ocmp "merged results: the steps' rows" 5 "$w/m1.json" "$w/m2.json"
grep -q '"name":"steps.0.events_per_s"' "$w/oc.json" && ok || bad "merged results: no row steps.0.events_per_s"
python3 - "$w" <<'PY' || bad "python (host values)"
import json, copy, sys
w = sys.argv[1]
d = json.load(open(w + "/r2.json"))
d["host"]["hostname"] = {"a": 1}
d["host"]["cpus"] = 2.5
del d["host"]["kernel"]
json.dump(d, open(w + "/hostv.json", "w"))
PY
"$B" compare "$w/r1.json" "$w/hostv.json" --format=json >"$w/hv.json" 2>"$w/hv.err"; ex=$?
if [ $ex = 0 ] && python3 - "$w/hv.json" "$w/r1.json" <<'PY'
import json, sys
out = json.load(open(sys.argv[1])); a = json.loads(open(sys.argv[2]).read().splitlines()[-1])
h = {s["facts"]["name"]: s["facts"] for s in out["steps"] if s["action"] == "host"}
assert h["hostname"]["value_1"] == a["host"]["hostname"] and "value_2" not in h["hostname"] and h["hostname"]["differs"], h["hostname"]
assert h["cpus"]["value_2"] == 2.5 and h["cpus"]["differs"], h["cpus"]
assert h["kernel"]["value_1"] == a["host"]["kernel"] and "value_2" not in h["kernel"] and h["kernel"]["differs"], h["kernel"]
assert not h["mem_total_bytes"]["differs"], h["mem_total_bytes"]
PY
then ok; else bad "host values of other types: exit $ex $(head -2 "$w/hv.err")"; fi
# 8. refusals: exit code and the one line (plus at most a hint)
msg() { # msg NAME WANT_EXIT PATTERN ARGS...: exit code and first stderr line
    n=$1 want=$2 pat=$3; shift 3
    run "$n" "$want" "$@"
    check "$n: message '$(head -1 "$w/$n.err")' matches '$pat'" 'head -1 "$w/$n.err" | grep -q -- "$pat"'
    check "$n: nothing on stdout" '[ ! -s "$w/$n" ]'
    check "$n: at most 2 lines" '[ "$(wc -l <"$w/$n.err")" -le 2 ]'
}
msg missing 3 "^bench: compare: reading $w/nope.json: No such file or directory (ENOENT)\$" "$w/a.json" "$w/nope.json"
msg notjson 3 "^bench: compare: reading $w/notjson.txt: line 1 col 1: expected a value (found 'h')\$" "$w/a.json" "$w/notjson.txt"
msg trunc 3 "^bench: compare: reading $w/trunc.json: line 1 col 5001: " "$w/a.json" "$w/trunc.json"
msg schema 3 "^bench: compare: $w/v2.json: field 'schema_version' is 2; this bench reads 1\$" "$w/a.json" "$w/v2.json"
msg notresult 3 "^bench: compare: $w/notresult.json: not a bench result (field 'type' is 'interval')\$" "$w/a.json" "$w/notresult.json"
msg array 3 "^bench: compare: $w/array.json: not a bench result (the document is an array, not an object)\$" "$w/array.json" "$w/a.json"
msg dir 3 "^bench: compare: reading $w/d: a directory, not a report file\$" "$w/a.json" "$w/d"
truncate -s 100M "$w/big.json"
msg big 3 "^bench: compare: reading $w/big.json: 104857600 bytes, more than the 8 MiB a report may have\$" "$w/a.json" "$w/big.json"
rm -f "$w/big.json"
msg deep 3 "^bench: compare: reading $w/deep.json: line 1 col 72: nested deeper than 64 levels\$" "$w/a.json" "$w/deep.json"
mkfifo "$w/pipe.json"
msg fifo 3 "^bench: compare: reading $w/pipe.json: not a regular file\$" "$w/a.json" "$w/pipe.json"
msg command 3 "^bench: compare: $w/r1.json: field 'action' is 'run', but $w/a.json's is 'all'\$" "$w/a.json" "$w/r1.json"
msg one 2 "^bench: compare: needs at least two reports (1 given)\$" "$w/a.json"
msg nine 2 "^bench: compare: too many reports (at most 8)\$" "$w/a.json" "$w/a.json" "$w/a.json" "$w/a.json" "$w/a.json" "$w/a.json" "$w/a.json" "$w/a.json" "$w/a.json"
# a JSON refusal writes no document either
"$B" compare "$w/a.json" "$w/trunc.json" --format=json >"$w/jt" 2>"$w/jt.err"
check "JSON mode refusal: exit 3" '[ $? = 3 ]'

# 10. review fixes: JSON lines, reader budget, long names, huge/negative/zero values, too many
# measures, hostile strings.
python3 - "$w" <<'PY'
import json, sys, copy
w = sys.argv[1]
a = json.load(open(w + "/a.json"))
with open(w + "/jl.json", "w") as f:  # a run's JSON-lines stdout: an interval, then the result
    f.write(json.dumps({"type": "interval", "events": 1}) + "\n" + json.dumps(a) + "\n")
d = copy.deepcopy(a); d["facts"]["x" * 100 + "_per_s"] = 5.0; json.dump(d, open(w + "/long.json", "w"))
d = copy.deepcopy(a); d["facts"]["cpu.events_per_s"] = 1e308; json.dump(d, open(w + "/huge.json", "w"))
d = copy.deepcopy(a); d["facts"]["cpu.events_per_s"] = -5.0; json.dump(d, open(w + "/neg.json", "w"))
d = copy.deepcopy(a)
for i in range(5000):
    d["facts"]["m%d_per_s" % i] = 1.0
json.dump(d, open(w + "/many.json", "w"))
d = copy.deepcopy(a); d["host"]["hostname"] = "evil\n\x1b[31m"; d["started_at"] = "t\x1b]0;x\x07"
json.dump(d, open(w + "/esc.json", "w"))
with open(w + "/ones.json", "w") as f:
    f.write("[" + "1," * ((4 << 20) - 100) + "1]")
PY
run jl 0 "$w/a.json" "$w/jl.json"
check "JSON lines: the last line's result is read" 'grep -q "^  B  $w/jl.json: all" "$w/jl"'
run long 0 "$w/long.json" "$w/long.json"
check "long name: warned" 'grep -q "2 measure(s) skipped: names longer than 95 bytes" "$w/long.err"'
run huge 0 "$w/a.json" "$w/huge.json"
check "huge value: %g, no 309-digit column" 'row "$w/huge" cpu.events_per_s | grep -q "^1000 1e+308 1e+305 better$"'
run neg 0 "$w/a.json" "$w/neg.json"
expect_row "$w/neg" cpu.events_per_s "1000 -5 - n/a"
run many 0 "$w/a.json" "$w/many.json"
check "too many measures: warned" 'grep -q "measure(s) skipped: more than 4096 measures" "$w/many.err"'
"$B" compare "$w/a.json" "$w/many.json" --format=json 2>/dev/null | grep -q '"code":"compare_too_many"'
check "too many measures: warning in JSON" '[ $? = 0 ]'
run esc 0 "$w/a.json" "$w/esc.json"
check "hostile strings escaped" 'grep -q "on evil\\\\n\\\\x1b\[31m, t\\\\x1b\]0;x\\\\x07$" "$w/esc"'
check "no raw ESC or BEL in the text" '! grep -q "$(printf "[\033\007]")" "$w/esc"'
run ones 3 "$w/ones.json" "$w/ones.json"
check "reader budget: refused" 'grep -q "more than 256 MiB of values" "$w/ones.err"'

t_summary
