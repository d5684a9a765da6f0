#!/bin/bash
# bench tpcc against the suite's MariaDB (run.sh exports BENCH_MY_*), beside Debian's sysbench
# running Percona-Lab's sysbench-tpcc (../shared/peers/sysbench-tpcc) at scale 1, tables 1:
# the same seeds give the same nine tables after prepare and after a 1-thread run (dates set
# by NOW() and Payment's os.time() masked, then CHECKSUM TABLE), the same server counters
# (Com_*) and the same output block (thread mode and --event-loops=1); `check` passes after
# both tools' loads and runs, and fails naming the condition on tables corrupted on purpose,
# one case per condition; cleanup drops only sysbench-tpcc's tables. (bash: the PIPESTATUS of a check.)
set -u
t_name=tpcc
. "$(dirname "$0")/lib.sh"
[ -n "${BENCH_MY_PORT:-}" ] || { echo "tpcc: SKIP: BENCH_MY_PORT unset (run via tests/run.sh)"; exit 77; }
P=$(cd "$top/.." && pwd)/shared/peers/sysbench-tpcc
[ -f "$P/tpcc.lua" ] || { echo "tpcc: SKIP: no sysbench-tpcc at $P (the peer checkout)"; exit 77; }
command -v sysbench >/dev/null || { echo "tpcc: SKIP: Debian's sysbench is not installed"; exit 77; }
ln -s "$B" "$w/sysbench"
ROOT="mariadb --no-defaults -uroot -S $BENCH_MY_SOCK"
$ROOT -e "DROP DATABASE IF EXISTS tpa; CREATE DATABASE tpa; DROP DATABASE IF EXISTS tpb; CREATE DATABASE tpb;
          DROP DATABASE IF EXISTS tpk; CREATE DATABASE tpk;"
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-ssl=off --tables=1 --scale=1"
CA="$C --mysql-db=tpa" CB="$C --mysql-db=tpb"
TABLES="warehouse district customer history orders new_orders order_line stock item"
# sysbench seeds its prepare threads from random() after Debian's LuaJIT seeded it from the
# time of day; tests/sbseed.c (LD_PRELOAD) pins that seed to SB_UNIQUE_SEED: then its prepare
# draws what bench's prepare draws with --rand-seed of the same number
gcc -shared -fPIC -O2 -o "$w/sbseed.so" "$top/tests/sbseed.c" -ldl 2>"$w/gcc.err" || { bad "tests/sbseed.c does not build"; cat "$w/gcc.err"; }

# sums DB: each table's CHECKSUM TABLE once the values that depend on the clock are masked
# (the datetime columns NOW() filled, NULL kept apart; the os.time() Payment writes into a
# bad-credit customer's c_data), one line per table
sums() {
    $ROOT "$1" -e "UPDATE customer1 SET c_since = '2000-01-01' WHERE c_since IS NOT NULL;
        UPDATE customer1 SET c_data = REGEXP_REPLACE(c_data, '(\\\\\$[ 0-9.]{7}) [ 0-9]{12} ', '\\\\1 TTTTTTTTTTTT ') WHERE c_credit = 'BC';
        UPDATE history1 SET h_date = '2000-01-01' WHERE h_date IS NOT NULL;
        UPDATE orders1 SET o_entry_d = '2000-01-01' WHERE o_entry_d IS NOT NULL;
        UPDATE order_line1 SET ol_delivery_d = '2000-01-01' WHERE ol_delivery_d IS NOT NULL;"
    for t in $TABLES; do $ROOT -N "$1" -e "CHECKSUM TABLE ${t}1" | awk '{print $1, $2}' | sed 's/^[a-z]*\.//'; done
}
same_tables() { # same_tables WHAT: the nine tables of tpa and tpb hold the same rows
    sums tpa >"$w/sum.a"; sums tpb >"$w/sum.b"
    if [ "$(wc -l <"$w/sum.a")" = 9 ] && cmp -s "$w/sum.a" "$w/sum.b"; then ok; else
        bad "$1: the tables differ from sysbench-tpcc's"; diff "$w/sum.a" "$w/sum.b"; fi
}
COMS="'Com_select','Com_insert','Com_update','Com_delete','Com_commit','Com_rollback','Com_begin','Com_set_option','Com_show_variables','Com_insert_select'"
# coms: the server's counters, once no other client is connected (a session that has just
# ended, a mariadb CLI's, may add its statements to the global counts a moment later)
idle() { [ "$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND USER IN ('nat', 'root')")" = 0 ]; }
coms() { t_wait 10 idle || bad "clients still connected"; $ROOT -N -e "SHOW GLOBAL STATUS WHERE Variable_name IN ($COMS)" | sort; }
delta() { join "$1" "$2" | awk '{print $1, $3 - $2}'; }

# 1. prepare: the same nine tables
(cd "$P" && SB_UNIQUE_SEED=7 LD_PRELOAD="$w/sbseed.so" sysbench tpcc.lua $CA --threads=1 --rand-seed=7 prepare >"$w/ref.prep" 2>&1) || bad "sysbench prepare"
(cd "$w" && ./sysbench "$P/tpcc.lua" $CB --threads=1 --rand-seed=7 prepare >"$w/our.prep" 2>&1) || { bad "bench prepare (as sysbench)"; tail -5 "$w/our.prep"; }
same_tables "prepare, seed 7"
for k in "Creating tables: 1" "Adding indexes 1 ... " "Adding FK 1 ... " "loading tables: 1 for warehouse: 1"; do
    check "prepare says '$k' as sysbench-tpcc" "grep -qx '$k' '$w/our.prep' && grep -qx '$k' '$w/ref.prep'"
done
$ROOT -N tpa -e "SHOW CREATE TABLE history1\G SHOW CREATE TABLE order_line1\G SHOW CREATE TABLE stock1" >"$w/ddl.a"
$ROOT -N tpb -e "SHOW CREATE TABLE history1\G SHOW CREATE TABLE order_line1\G SHOW CREATE TABLE stock1" >"$w/ddl.b"
check "the DDL (indexes and foreign keys included) is sysbench-tpcc's" "cmp -s '$w/ddl.a' '$w/ddl.b'"

# 2. check passes on both loads, with both tools
for db in tpa tpb; do
    "$B" tpcc $C --mysql-db=$db check >"$w/chk.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && [ "$(grep -c 'PASSED$' "$w/chk.out")" = 11 ] && ! grep -q FAILED "$w/chk.out"; then ok; else
        bad "bench tpcc check after the load in $db: exit $rc"; cat "$w/chk.out"; fi
done
(cd "$P" && sysbench tpcc.lua $CB check >"$w/ref.chk" 2>&1)
check "sysbench-tpcc's check passes on bench's load" "[ \$(grep -c 'PASSED\$' '$w/ref.chk') = 10 ]"

# 3. seeded 1-thread runs: the same tables, counters and output block
# glog: the statements of the general log's connections as user nat, one file per connection
# (glog.1, glog.2, ...), the digits of a Unix time (Payment's os.time() in c_data) masked
glog() {
    $ROOT -N -e "SELECT thread_id, argument FROM mysql.general_log WHERE command_type = 'Query'
                 AND user_host LIKE 'nat[nat]%'" >"$w/glog"
    rm -f "$w"/glog.[0-9]*
    awk -F'\t' -v d="$w" '{ id = $1; if (!(id in n)) n[id] = ++k; sub(/^[^\t]*\t/, ""); print > (d "/glog." n[id]) }' "$w/glog"
    for f in "$w"/glog.[0-9]*; do sed -E -i 's/[0-9]{10}/T/g' "$f"; done
}
run_pair() { # run_pair WHAT ARGS...: sysbench on tpa, bench as sysbench on tpb; the same
    # statements in the server's general log, the same counters, output and tables
    what=$1; shift
    $ROOT -e "SET GLOBAL log_output = 'TABLE'; TRUNCATE mysql.general_log; SET GLOBAL general_log = 1"
    coms >"$w/c0"
    (cd "$P" && sysbench tpcc.lua $CA --threads=1 --time=0 "$@" run >"$w/ref.run" 2>&1) || bad "$what: sysbench run"
    coms >"$w/c1"
    (cd "$w" && ./sysbench "$P/tpcc.lua" $CB --threads=1 --time=0 ${BX:-} "$@" run >"$w/our.run" 2>&1) || { bad "$what: bench run"; tail -5 "$w/our.run"; }
    coms >"$w/c2"
    $ROOT -e "SET GLOBAL general_log = 0"
    glog
    if [ -s "$w/glog.1" ] && [ ! -e "$w/glog.3" ] && cmp -s "$w/glog.1" "$w/glog.2"; then ok; else
        bad "$what: other statements than sysbench-tpcc's (general log)"; diff "$w/glog.1" "$w/glog.2" | head -6; fi
    delta "$w/c0" "$w/c1" >"$w/d.ref"; delta "$w/c1" "$w/c2" >"$w/d.our"
    if cmp -s "$w/d.ref" "$w/d.our" && grep -q 'Com_select [1-9]' "$w/d.our"; then ok; else
        bad "$what: server counters differ (sysbench, bench)"; paste "$w/d.ref" "$w/d.our"; fi
    python3 "$top/tests/mask_timing.py" "$w/ref.run" "$w/our.run"
    if diff "$w/ref.run.m" "$w/our.run.m" >"$w/run.diff"; then ok; else
        bad "$what: the output differs from sysbench's"; head -20 "$w/run.diff"; fi
    same_tables "$what"
}
run_pair "run, seed 11, 300 events" --events=300 --rand-seed=11
# every workload option of sysbench-tpcc: the same statements (counters) and rows
run_pair "run with --enable_purge=yes --splittable=yes --trx_level=RC" --events=200 --rand-seed=5 --enable_purge=yes --splittable=yes --trx_level=RC
run_pair "run with --trx_level=SER --report-interval=1" --events=100 --rand-seed=3 --trx_level=SER
# the same event on an event loop (tpcc_ev_*: each statement sent without blocking, the
# transaction replayed up to it): the same statements, counters, output and tables
BX=--event-loops=1 run_pair "run on an event loop, seed 13, 300 events" --events=300 --rand-seed=13
for db in tpa tpb; do
    "$B" tpcc $C --mysql-db=$db check >"$w/chk.out" 2>&1
    rc=$?
    # purge deletes history rows (and orders with their lines): conditions 8-12 need not
    # hold after it (sysbench-tpcc's neither); 1-7 do
    if [ $rc -le 1 ] && [ "$(grep -c 'Check [1-7], warehouse: 1 PASSED' "$w/chk.out")" = 7 ]; then ok; else
        bad "bench tpcc check after runs with purge in $db: exit $rc"; cat "$w/chk.out"; fi
done
# interval lines: the Lua report_default's ("err/s" without the C reporter's colon), and
# --report_csv=yes's
for csv in no yes; do
    (cd "$P" && sysbench tpcc.lua $CA --time=2 --report-interval=1 --report_csv=$csv run >"$w/ref.iv" 2>&1)
    (cd "$w" && ./sysbench "$P/tpcc.lua" $CB --time=2 --report-interval=1 --report_csv=$csv run >"$w/our.iv" 2>&1)
    a=$(grep -m1 -E '^(\[ 1s \]|1,)' "$w/ref.iv" | sed 's/[0-9][0-9.]*/9/g')
    b=$(grep -m1 -E '^(\[ 1s \]|1,)' "$w/our.iv" | sed 's/[0-9][0-9.]*/9/g')
    if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "--report_csv=$csv: interval line '$b', sysbench-tpcc's '$a'"; fi
done
# cleanup of sysbench-tpcc's tables as sysbench: its line, and the schema empty (the suite's
# server has a small buffer pool: one loaded set at a time keeps the checks in memory)
(cd "$w" && ./sysbench "$P/tpcc.lua" $CA cleanup >"$w/our.cl" 2>&1) && grep -qx "Dropping tables '1'..." "$w/our.cl" &&
    [ "$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'tpa'")" = 0 ] && ok ||
    { bad "cleanup of sysbench's tables as sysbench"; cat "$w/our.cl"; }

# 4. a fresh load of bench's own (bench persona), runs of both tools, check after each
$ROOT -e "DROP DATABASE tpb; CREATE DATABASE tpb;"
"$B" tpcc $CB --threads=2 prepare >"$w/p2.out" 2>&1 || { bad "bench tpcc prepare --threads=2"; tail -5 "$w/p2.out"; }
"$B" tpcc $CB --threads=2 prepare >"$w/p3.out" 2>&1
check "a second prepare on the loaded set is refused (exit 1)" "[ $? = 1 ] && grep -q 'table set 1 exists' '$w/p3.out'"
(cd "$P" && sysbench tpcc.lua $CB --threads=2 --time=0 --events=300 run >/dev/null 2>&1) || bad "sysbench run on bench's load"
"$B" tpcc $CB --threads=2 check >"$w/chk.out" 2>&1 && ok || { bad "check after sysbench-tpcc's run on bench's load"; cat "$w/chk.out"; }
"$B" tpcc $CB --threads=4 --time=0 --events=400 run >"$w/b.run" 2>&1 || { bad "bench tpcc run, 4 threads"; tail -5 "$w/b.run"; }
"$B" tpcc $CB --threads=2 check >"$w/chk.out" 2>&1 && ok || { bad "check after bench's run"; cat "$w/chk.out"; }
# the bench persona's block: each type, and NOPM from the schema (New-Orders committed)
n_no=$(awk '$1 == "new_order" {print $2}' "$w/b.run")
n_err=$(awk '$1 == "new_order" {print $NF}' "$w/b.run")
n_all=$(awk '$1 ~ /^(new_order|payment|order_status|delivery|stock_level)$/ {s += $2} END {print s}' "$w/b.run")
check "per-type counts add up to the 400 events" "[ '$n_all' = 400 ]"
check "New-Orders are about 10/23 of the mix (got $n_no)" "[ '$n_no' -gt 120 ] && [ '$n_no' -lt 230 ]"
check "NOPM is reported" "grep -q 'NOPM (New-Orders per minute from the schema): [0-9]' '$w/b.run'"
"$B" tpcc $CB --threads=1 --time=0 --events=60 --format=json run >"$w/b.json" 2>"$w/b.err" || bad "bench tpcc --format=json run"
if python3 - "$w/b.json" <<'EOF'; then ok; else bad "JSON: nopm = the schema's New-Orders per minute of the window, per-type latency"; fi
import json, sys
d = json.load(open(sys.argv[1]))
def find(o, k):
    if isinstance(o, dict):
        if k in o: return o[k]
        for v in o.values():
            r = find(v, k)
            if r is not None: return r
    if isinstance(o, list):
        for v in o:
            r = find(v, k)
            if r is not None: return r
    return None
nopm, n, ops = find(d, "nopm"), find(d, "tpcc_new_orders_schema"), find(d, "operations")
win = find(d, "time_total_s") or find(d, "window_s") or find(d, "total_time_s")
assert nopm is not None and n is not None and n > 0, (nopm, n)
assert ops and "new_order" in ops and "payment" in ops, ops
ctr = find(d, "new_orders")
assert ctr == n, (ctr, n)  # one client: its commits are the schema's delta
EOF

# 4b. spec mode (--tpcc-mode=spec): terminals on the loop core with TPC-C's keying and think
#     times, scaled down (--tpcc-time-scale): 1000 terminals (--tpcc-terminals: 100 warehouses
#     are too big to load here; 100 per district of the one warehouse) from one process; the
#     mix within TPC-C's bounds, each type's measured keying mean within 5% of the configured
#     (scaled) time, its measured think mean within 5% of what those waits drew (think times
#     that the run's end cut are not measured: the short ones are more often whole, so the
#     measured mean is compared with their draws), and the mean of every think time drawn
#     within 4 standard errors (mean/sqrt(n), a negative exponential) of the configured mean.
#     Delivery deferred (TPC-C 2.7): the terminal's response is its queuing (90th percentile
#     under 2 ms: no statement), 10 executors (one per 100 terminals) run them: queued =
#     the Deliveries counted, completed + pending <= queued <= completed + pending +
#     executors, and the server saw them: new_orders lost 10 rows per completed Delivery less
#     the districts it skipped, beyond what the New-Orders added. The limits (TPC-C 5.2.5.4,
#     2.7.2.2, 5.2.3) with --tpcc-limit-scale=100 (500 s: what a loaded host cannot break):
#     the 90th percentiles are the JSON's (--percentile=90), the verdict is "yes"; the
#     verdict recomputed from the facts agrees in this run and in one with limits of
#     microseconds (--tpcc-limit-scale=1e-5), which says "no", naming each type that
#     touches the server and the deferred Deliveries
old_mc=$($ROOT -N -e 'SELECT @@max_connections')
$ROOT -e "SET GLOBAL max_connections = 1100"
ulimit -n 4096 2>/dev/null || true
no0=$($ROOT -N tpb -e "SELECT COUNT(*) FROM new_orders1")
"$B" tpcc $CB --tpcc-mode=spec --tpcc-terminals=1000 --tpcc-time-scale=0.2 --tpcc-limit-scale=100 --percentile=90 --time=12 --format=json run >"$w/spec.json" 2>"$w/spec.err"
rc=$?
no1=$($ROOT -N tpb -e "SELECT COUNT(*) FROM new_orders1")
$ROOT -e "SET GLOBAL max_connections = $old_mc"
if [ $rc = 0 ] && python3 - "$w/spec.json" "$no0" "$no1" 100 >"$w/spec.why" 2>&1 <<'EOF'; then ok; else bad "spec mode, 1000 terminals: exit $rc"; cat "$w/spec.why"; tail -5 "$w/spec.err"; fi
import json, math, sys
d = json.load(open(sys.argv[1]))
def find(o, k):
    if isinstance(o, dict):
        if k in o: return o[k]
        for v in o.values():
            r = find(v, k)
            if r is not None: return r
    if isinstance(o, list):
        for v in o:
            r = find(v, k)
            if r is not None: return r
    return None
assert find(d, "terminals") == 1000, find(d, "terminals")
assert find(d, "tpcc_mode") == "spec"
ops = find(d, "operations")
names = ["new_order", "payment", "order_status", "delivery", "stock_level"]
n = {k: ops[k]["count"] if isinstance(ops[k], dict) and "count" in ops[k] else ops[k] for k in names}
tot = sum(n.values())
assert tot >= 1000, n
share = {k: n[k] / tot for k in names}
print("mix", {k: round(v * 100, 2) for k, v in share.items()}, "of", tot)
assert share["payment"] >= 0.43 and all(share[k] >= 0.04 for k in names[2:]), share
for k in names:
    ks, km, kn = find(d, "keying_s_" + k), find(d, "keying_mean_s_" + k), find(d, "keying_n_" + k)
    ts, tm, tdr, tn = (find(d, "think_s_" + k), find(d, "think_mean_s_" + k),
                       find(d, "think_drawn_mean_s_" + k), find(d, "think_n_" + k))
    print(k, "keying", ks, km, kn, "think", ts, tm, tdr, tn)
    assert kn >= 30 and abs(km - ks) <= 0.05 * ks, (k, "keying", ks, km, kn)
    assert tn >= 30 and abs(tm - tdr) <= 0.05 * tdr, (k, "think vs drawn", tm, tdr, tn)
    ta, tan = find(d, "think_all_mean_s_" + k), find(d, "think_all_n_" + k)
    assert abs(ta - ts) <= 4 * ts / math.sqrt(tan), (k, "drawn think vs configured", ta, ts, tan)
eff, nopm, wh = find(d, "efficiency"), find(d, "nopm"), find(d, "warehouses")
assert abs(eff - nopm / (12.86 * wh)) < 1e-6 * max(1, eff), (eff, nopm, wh)
F = float(sys.argv[4])
q, c, pend, ex = (find(d, "deferred_queued"), find(d, "deferred_completed"),
                  find(d, "deferred_pending"), find(d, "deferred_executors"))
print("deferred", q, c, pend, ex, find(d, "deferred_p90_s"), find(d, "deferred_skipped_districts"))
assert ex == 10 and q == n["delivery"] and c >= 20 and c + pend <= q <= c + pend + ex, (q, c, pend, ex, n)
delivered = int(sys.argv[2]) + find(d, "tpcc_new_orders_schema") - int(sys.argv[3])
assert delivered == 10 * c - find(d, "deferred_skipped_districts"), (delivered, c)
assert find(d, "rt_p90_s_delivery") < 0.002, find(d, "rt_p90_s_delivery")
for k, lim in zip(names, [5, 5, 5, 5, 20]):
    p90 = ops[k]["latency_ns"]["percentiles"]["p90"] / 1e9
    assert abs(find(d, "rt_p90_s_" + k) - p90) < 1e-6, (k, find(d, "rt_p90_s_" + k), p90)
    assert find(d, "rt_limit_s_" + k) == lim * F and abs(find(d, "mix_share_" + k) - share[k]) < 1e-9, k
assert find(d, "deferred_limit_s") == 80 * F and find(d, "tpcc_within_limits") == 1, find(d, "tpcc_limits_failed")
EOF
# the verdict from the facts: each limit that fails named, "yes" only when none does
verdict() { python3 - "$1" <<'EOF'
import json, sys
f = json.load(open(sys.argv[1]))["facts"]
names = ["new_order", "payment", "order_status", "delivery", "stock_level"]
fails = [k for k in names if f["rt_p90_s_" + k] > f["rt_limit_s_" + k]]
fails += [k for k, m in zip(names, [0, .43, .04, .04, .04]) if f["mix_share_" + k] < m]
c = f["deferred_completed"]
if c == 0 or f["deferred_within_limit"] < 0.9 * c: fails.append("deferred delivery")
why = f["tpcc_limits_failed"]
assert f["tpcc_within_limits"] == (not fails), (fails, why)
assert all(k in why for k in fails), (fails, why)
print("failed:", fails or "none")
EOF
}
check "spec mode's verdict agrees with its facts (limits x100)" "verdict '$w/spec.json' >'$w/verdict1' 2>&1"
"$B" tpcc $CB --tpcc-mode=spec --tpcc-terminals=20 --tpcc-time-scale=0.02 --tpcc-limit-scale=1e-5 --time=4 --format=json run >"$w/lim.json" 2>"$w/lim.err"
check "spec mode with limits of microseconds: exit 0, the verdict agrees with its facts" "[ $? = 0 ] && verdict '$w/lim.json' >'$w/verdict2' 2>&1"
check "... and names each type on the server and the deferred Deliveries as failed" "python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))[\"facts\"]; w=f[\"tpcc_limits_failed\"]; assert f[\"tpcc_within_limits\"] == 0 and all(k in w for k in (\"new_order\", \"payment\", \"order_status\", \"stock_level\", \"deferred delivery\")), w' '$w/lim.json'"
"$B" tpcc $CB --tpcc-mode=spec --tpcc-terminals=20 --tpcc-time-scale=0.02 --tpcc-limit-scale=1e-5 --time=3 run >"$w/lim.out" 2>&1
check "the report says the run is not within the standard's limits, and why" "grep -q \"within the standard's limits (TPC-C 5.2.3, 5.2.5.4, 2.7.2.2): no: .*new_order 90th percentile .* > 5e-05 s (5.2.5.4)\" '$w/lim.out' && grep -q 'deferred delivery: [0-9]* completed of [0-9]* queued' '$w/lim.out'"
#    --events=N: N terminal transactions (the executors' run is none of them), then the
#    executors take the queue to its end and the run ends
timeout 60 "$B" tpcc $CB --tpcc-mode=spec --tpcc-time-scale=0.01 --time=0 --events=100 run >"$w/spev.out" 2>&1
rc=$?
check "spec mode with --events=100 ends (exit $rc): 100 transactions, every deferred Delivery completed" "[ $rc = 0 ] && grep -q '^    total number of events: *100\$' '$w/spev.out' && grep -Eq 'deferred delivery: ([0-9]+) completed of \\1 queued \\(0 pending' '$w/spev.out'"
#    --warmup-time: the Deliveries queued by its events are run, not counted (queued = the
#    Deliveries counted)
"$B" tpcc $CB --tpcc-mode=spec --tpcc-time-scale=0.01 --time=4 --warmup-time=2 --format=json run >"$w/spwu.json" 2>"$w/spwu.err"
check "spec mode with --warmup-time: exit $?, the deferred Deliveries counted are the measured ones" "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d[\"facts\"]; n=d[\"results\"][\"operations\"][\"delivery\"][\"count\"]; assert n > 0 and f[\"deferred_queued\"] == n and f[\"deferred_completed\"] + f[\"deferred_pending\"] <= n, (f, n)' '$w/spwu.json'"
"$B" tpcc $CB --tpcc-mode=spec --event-loops=0 --time=1 run >"$w/spec0.out" 2>&1
check "spec mode refuses --event-loops=0 (exit 2)" "[ $? = 2 ] && grep -q 'runs its terminals on event loops' '$w/spec0.out'"

# SIGINT in spec mode: terminals waiting (keying, think) end at once, not counted as
# transactions left unfinished
"$B" tpcc $CB --tpcc-mode=spec --tpcc-time-scale=0.5 --time=60 run >"$w/spint.out" 2>&1 &
pid=$!
terms() { [ "$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'nat' AND DB = 'tpb'")" -ge 10 ]; }
gone() { ! kill -0 $pid 2>/dev/null; }
t_wait 30 terms || bad "spec mode: 10 terminals not connected in 30 s"
t0=$(date +%s%N); kill -INT $pid; t_wait 5 gone; t1=$(date +%s%N); wait $pid; rc=$?
ms=$(((t1 - t0) / 1000000))
check "SIGINT ends spec mode within 1 s (exit $rc, $ms ms), no waiting terminal counted unfinished" "[ $rc = 1 ] && [ $ms -lt 1000 ] && ! grep -q unfinished '$w/spint.out'"

# 5. check fails, naming the condition and the warehouse, on tables corrupted on purpose:
#    each case a change and its undo; `only` cases break no other condition
corrupt() { # corrupt N ONLY SQL UNDO
    n=$1 only=$2
    $ROOT tpb -e "$3"
    "$B" tpcc $CB check >"$w/chk.out" 2>&1
    rc=$?
    $ROOT tpb -e "$4"
    nf=$(grep -c FAILED "$w/chk.out")
    if [ $rc = 1 ] && grep -q "^Check $n, warehouse: 1 FAILED!!! (condition 3.3.2.$n: " "$w/chk.out" &&
        { [ "$only" = 0 ] || [ "$nf" = 1 ]; }; then ok; else
        bad "condition 3.3.2.$n: exit $rc, $nf failing"; cat "$w/chk.out"; fi
}
NO="SELECT MIN(no_o_id) + 1 FROM new_orders1 WHERE no_w_id = 1 AND no_d_id = 1"
no=$($ROOT -N tpb -e "$NO")
car=$($ROOT -N tpb -e "SELECT o_carrier_id FROM orders1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1")
# a customer with a delivered order (10 and 12 compare sums over delivered order lines)
cid=$($ROOT -N tpb -e "SELECT o_c_id FROM orders1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1")
corrupt 1 0 "UPDATE warehouse1 SET w_ytd = w_ytd + 1" "UPDATE warehouse1 SET w_ytd = w_ytd - 1"
corrupt 2 0 "UPDATE district1 SET d_next_o_id = d_next_o_id + 1 WHERE d_id = 1" "UPDATE district1 SET d_next_o_id = d_next_o_id - 1 WHERE d_id = 1"
corrupt 3 0 "DELETE FROM new_orders1 WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = $no" "INSERT INTO new_orders1 VALUES ($no, 1, 1)"
corrupt 4 0 "UPDATE orders1 SET o_ol_cnt = o_ol_cnt + 1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1" "UPDATE orders1 SET o_ol_cnt = o_ol_cnt - 1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1"
corrupt 5 0 "UPDATE orders1 SET o_carrier_id = NULL WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1" "UPDATE orders1 SET o_carrier_id = $car WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1"
corrupt 6 1 "UPDATE orders1 SET o_ol_cnt = o_ol_cnt + IF(o_id = 1, 1, -1) WHERE o_w_id = 1 AND o_d_id = 1 AND o_id IN (1, 2)" "UPDATE orders1 SET o_ol_cnt = o_ol_cnt - IF(o_id = 1, 1, -1) WHERE o_w_id = 1 AND o_d_id = 1 AND o_id IN (1, 2)"
corrupt 7 1 "UPDATE order_line1 SET ol_delivery_d = NULL WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 1 AND ol_number = 1" "UPDATE order_line1 SET ol_delivery_d = NOW() WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 1 AND ol_number = 1"
corrupt 8 0 "INSERT INTO history1 VALUES ($cid, 1, 1, 1, 1, NOW(), 5, 'corrupt')" "DELETE FROM history1 WHERE h_data = 'corrupt'"
corrupt 9 1 "UPDATE district1 SET d_ytd = d_ytd + IF(d_id = 1, 1, -1) WHERE d_w_id = 1 AND d_id IN (1, 2)" "UPDATE district1 SET d_ytd = d_ytd - IF(d_id = 1, 1, -1) WHERE d_w_id = 1 AND d_id IN (1, 2)"
corrupt 10 1 "UPDATE customer1 SET c_balance = c_balance + 1, c_ytd_payment = c_ytd_payment - 1 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = $cid" "UPDATE customer1 SET c_balance = c_balance - 1, c_ytd_payment = c_ytd_payment + 1 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = $cid"
corrupt 12 1 "UPDATE customer1 SET c_ytd_payment = c_ytd_payment + 1 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = $cid" "UPDATE customer1 SET c_ytd_payment = c_ytd_payment - 1 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = $cid"
"$B" tpcc $CB check >"$w/chk.out" 2>&1 && ok || { bad "check after the undos"; cat "$w/chk.out"; }

# 6. cleanup drops sysbench-tpcc's tables only; a table of that name that is not its is left
$ROOT tpk -e "CREATE TABLE item1 (id INT PRIMARY KEY, note TEXT); INSERT INTO item1 VALUES (1, 'keep')"
"$B" tpcc $C --mysql-db=tpk cleanup >"$w/cl.out" 2>&1
rc=$?
check "cleanup leaves a foreign item1 alone and says so (exit 1)" "[ $rc = 1 ] && grep -q \"left table 'item1' alone\" '$w/cl.out' && [ \"\$($ROOT -N tpk -e 'SELECT note FROM item1')\" = keep ]"
"$B" tpcc $CB cleanup >"$w/cl.out" 2>&1 && ok || { bad "bench tpcc cleanup"; cat "$w/cl.out"; }
check "cleanup dropped all nine tables" "[ \"\$($ROOT -N -e \"SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'tpb'\")\" = 0 ]"

# 6b. SIGINT: a prepare in its load stops within 1.5 s, exit 1, saying what it leaves; cleanup
#     then drops what it made
$ROOT -e "DROP DATABASE IF EXISTS tpx; CREATE DATABASE tpx"
"$B" tpcc $C --mysql-db=tpx prepare >"$w/int.out" 2>&1 &
pid=$!
loading() { n=$($ROOT -N tpx -e "SELECT COUNT(*) FROM customer1" 2>/dev/null) && [ "${n:-0}" -gt 0 ]; }
gone() { ! kill -0 $pid 2>/dev/null; }
t_wait 60 loading || bad "prepare loaded no customer in 60 s"
t0=$(date +%s%N); kill -INT $pid; t_wait 5 gone; t1=$(date +%s%N); wait $pid; rc=$?
ms=$(((t1 - t0) / 1000000))
check "SIGINT ends a prepare within 1.5 s (exit $rc, $ms ms), saying the tables are kept" "[ $rc = 1 ] && [ $ms -lt 1500 ] && grep -q 'interrupted by SIGINT; the tables made so far are kept' '$w/int.out'"
"$B" tpcc $C --mysql-db=tpx cleanup >"$w/cl.out" 2>&1
check "cleanup drops the interrupted prepare's tables" "[ \"\$($ROOT -N -e \"SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'tpx'\")\" = 0 ]"

# 7. help: the header sysbench prints for tpcc.lua (the script's file name), bench's the same
#    (its first: the bench persona adds PostgreSQL's options after)
(cd "$P" && sysbench tpcc.lua help) 2>&1 | grep -x '.* options:' | head -n 1 >"$w/help.ref"
"$B" tpcc help 2>&1 | grep -x '.* options:' | head -n 1 >"$w/help.our"
check "help's header is sysbench's: $(cat "$w/help.ref")" "[ \"\$(cat '$w/help.ref')\" = 'tpcc.lua options:' ] && cmp -s '$w/help.ref' '$w/help.our'"
#    a tpcc.lua that is not sysbench-tpcc's byte for byte is refused
sed 's/23/22/' "$P/tpcc.lua" >"$w/tpcc.lua"
(cd "$w" && ./sysbench "$w/tpcc.lua" $CA --events=1 run >"$w/edit.out" 2>&1)
check "an edited tpcc.lua is refused" "[ $? != 0 ] && grep -q 'not sysbench' '$w/edit.out'"
$ROOT -e "DROP DATABASE tpa; DROP DATABASE tpb; DROP DATABASE tpk; DROP DATABASE tpx"
t_summary
