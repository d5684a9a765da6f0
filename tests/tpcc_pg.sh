#!/bin/sh
# shellcheck disable=SC2086,SC2016 # $C, $CA, $CB: option lists split on purpose; '\$1': a grep pattern
# bench tpcc --db-driver=pgsql (issue 33 on PostgreSQL) beside Debian's sysbench 1.0.20 running
# Percona-Lab's sysbench-tpcc (../shared/peers/sysbench-tpcc) --db-driver=pgsql on the
# PostgreSQL 15 of tests/postgres.sh, scale 1, tables 1, --use_fk=0 (a load with the foreign
# keys in place takes 4x as long: the keys' DDL is the MySQL path's text, compared in tpcc.sh):
#   - a seeded --threads=1 prepare of each tool (sysbench into tpa, bench as sysbench into
#     tpb, at once) leaves the same nine tables (each table's rows: count and an order-free
#     sum of their md5s, the clock's values masked), the same columns, types and indexes,
#     and the same rows counted by pg_stat_database;
#   - seeded --threads=1 runs on those identical tables (300 events; SERIALIZABLE; a planted
#     new_orders row that makes New-Order's INSERT fail with 23505, which both roll back and
#     restart; --enable_purge=yes --splittable=yes --trx_level=RC): the same tables after
#     each, equal pg_stat_database deltas (xact_commit, xact_rollback, tup_inserted,
#     tup_updated, tup_deleted), equal pg_stat_statements calls and rows per statement text,
#     the same output block (timings masked by tests/mask_timing.py);
#   - check passes after both tools' loads and runs and fails, naming the condition, on
#     tables corrupted on purpose (conditions 1, 6, 12), and passes after the undo;
#   - cleanup drops sysbench-tpcc's nine tables and leaves a foreign item1 alone (exit 1);
#   - refusals: --event-loops, --tpcc-mode=spec and --force_pk=1 on PostgreSQL.
# Needs postgresql-15, psql, openssl and sysbench with its pgsql driver; exits 77 without them.
# About 90 seconds (two loads of one warehouse).
set -u
t_name=tpcc-pg
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
[ -x /usr/lib/postgresql/15/bin/initdb ] && command -v openssl >/dev/null &&
    command -v sysbench >/dev/null && command -v psql >/dev/null ||
    { echo "tpcc-pg: SKIP: needs postgresql-15, psql, openssl and sysbench"; exit 77; }
P=$(cd "$top/.." && pwd)/shared/peers/sysbench-tpcc
[ -f "$P/tpcc.lua" ] || { echo "tpcc-pg: SKIP: no sysbench-tpcc at $P (the peer checkout)"; exit 77; }
pgdir=$(mktemp -d /tmp/bench-tpg.XXXXXX)
t_at_exit() { sh "$here/postgres.sh" stop "$pgdir"; rm -rf "$pgdir"; }
env=$(sh "$here/postgres.sh" start "$pgdir" "${PGSQL_TEST_PORT:-$((30500 + $$ % 800))}") ||
    { echo "tpcc-pg: FAIL: the PostgreSQL test server did not start"; exit 1; }
eval "$env"
unset PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PGSSLMODE PGSSLROOTCERT PGCHANNELBINDING PGPASSFILE PGCONNECT_TIMEOUT PGAPPNAME
export HOME="$w/home"
mkdir -p "$HOME" "$w/bin"
ln -s "$B" "$w/sysbench" # bench as sysbench: its output is sysbench's
# tpcc.lua's prepare waits 30 s for the other threads' tables with os.execute("sleep 30"):
# a sleep that returns at once on sysbench's PATH (bench waits on a barrier instead)
printf '#!/bin/sh\nexit 0\n' >"$w/bin/sleep" && chmod +x "$w/bin/sleep"
# sysbench seeds its prepare threads from random() after Debian's LuaJIT seeded it from the
# time of day: tests/sbseed.c (LD_PRELOAD) pins it, as tests/tpcc.sh does
gcc -shared -fPIC -O2 -o "$w/sbseed.so" "$top/tests/sbseed.c" -ldl 2>"$w/gcc.err" ||
    { echo "tpcc-pg: FAIL: tests/sbseed.c does not build"; cat "$w/gcc.err"; exit 1; }
PSQL="psql -X -q -At -h $BENCH_PG_HOST -p $BENCH_PG_PORT -U postgres"
$PSQL -d postgres -c "CREATE EXTENSION pg_stat_statements" ||
    { echo "tpcc-pg: FAIL: pg_stat_statements (shared_preload_libraries)"; exit 1; }
# no autovacuum: its ANALYZE in one tool's window only would count in pg_stat_database
$PSQL -d postgres -c "ALTER SYSTEM SET autovacuum = off" -c "SELECT pg_reload_conf()" >/dev/null
t_wait 10 sh -c "[ \"\$($PSQL -d postgres -c 'SHOW autovacuum')\" = off ]" ||
    { echo "tpcc-pg: FAIL: autovacuum stays on"; exit 1; }
for db in tpa tpb tpk; do $PSQL -d postgres -c "CREATE DATABASE $db"; done
C="--db-driver=pgsql --pgsql-host=$BENCH_PG_HOST --pgsql-port=$BENCH_PG_PORT --pgsql-user=postgres --tables=1 --scale=1 --use_fk=0"
CA="$C --pgsql-db=tpa" CB="$C --pgsql-db=tpb"
t_on_fail() { [ -f "$w/diff" ] && sed 's/^/    /' "$w/diff" | head -12; rm -f "$w/diff"; }

idle() { [ "$($PSQL -d postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname IN ('tpa','tpb')")" = 0 ]; }
counters() { # counters DB: pg_stat_database's five, one line
    $PSQL -d postgres -c "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database WHERE datname = '$1'"
}
delta() { # delta BEFORE AFTER: AFTER - BEFORE, field by field ('|'-separated)
    echo "$1 $2" | awk '{n = split($1, a, "|"); split($2, b, "|"); s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? "|" : "") b[i] - a[i]; print s}'
}
statements() { # statements DB: pg_stat_statements' text, calls and rows there, sorted
    $PSQL -d postgres -c "SELECT regexp_replace(s.query, '\s+', ' ', 'g') || ' | ' || s.calls || ' | ' || s.rows FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$1' ORDER BY 1"
}
# dump DB: per table its row count and an order-free sum of its rows' md5s (60 bits each),
# the clock's values masked: the datetime columns NOW() filled (NULL or not), and the
# os.time() that Payment writes into a bad-credit customer's c_data
h() { printf '%s' "count(*) || ' ' || coalesce(sum(('x' || substr(md5($1::text), 1, 15))::bit(60)::bigint), 0)"; }
dump() {
    $PSQL -d "$1" <<SQL
SELECT 'warehouse ' || $(h t) FROM warehouse1 t;
SELECT 'district ' || $(h t) FROM district1 t;
SELECT 'customer ' || $(h "ROW(c_id,c_d_id,c_w_id,c_first,c_middle,c_last,c_street_1,c_street_2,c_city,c_state,c_zip,c_phone,c_since IS NULL,c_credit,c_credit_lim,c_discount,c_balance,c_ytd_payment,c_payment_cnt,c_delivery_cnt,regexp_replace(c_data, '(\\\$[ 0-9.]{7}) [ 0-9]{12} ', '\\1 T ', 'g'))") FROM customer1;
SELECT 'history ' || $(h "ROW(h_c_id,h_c_d_id,h_c_w_id,h_d_id,h_w_id,h_date IS NULL,h_amount,h_data)") FROM history1;
SELECT 'orders ' || $(h "ROW(o_id,o_d_id,o_w_id,o_c_id,o_entry_d IS NULL,o_carrier_id,o_ol_cnt,o_all_local)") FROM orders1;
SELECT 'new_orders ' || $(h t) FROM new_orders1 t;
SELECT 'order_line ' || $(h "ROW(ol_o_id,ol_d_id,ol_w_id,ol_number,ol_i_id,ol_supply_w_id,ol_delivery_d IS NULL,ol_quantity,ol_amount,ol_dist_info)") FROM order_line1;
SELECT 'stock ' || $(h t) FROM stock1 t;
SELECT 'item ' || $(h t) FROM item1 t;
SQL
}
same_tables() { # same_tables WHAT: the nine tables of tpa and tpb hold the same rows
    dump tpa >"$w/sum.a" 2>&1 &
    dump tpb >"$w/sum.b" 2>&1
    wait $!
    if [ "$(grep -c ' [0-9]* [0-9]*$' "$w/sum.a")" = 9 ] && cmp -s "$w/sum.a" "$w/sum.b"; then ok; else
        bad "$1: the tables differ from sysbench-tpcc's"; diff "$w/sum.a" "$w/sum.b" >"$w/diff"; t_on_fail; fi
}
schema() { # schema DB: the nine tables' columns with their types, and their indexes
    $PSQL -d "$1" -c "SELECT table_name || ' ' || column_name || ' ' || data_type || ' ' || coalesce(character_maximum_length, numeric_precision, 0) || ' ' || coalesce(numeric_scale, 0) || ' ' || is_nullable FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position" \
        -c "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname"
}

# 1. prepare, both tools at once (sysbench into tpa, bench as sysbench into tpb): the same
#    nine tables, schema and rows inserted
ca=$(counters tpa) cb=$(counters tpb)
(cd "$P" && PATH="$w/bin:$PATH" SB_UNIQUE_SEED=7 LD_PRELOAD="$w/sbseed.so" sysbench tpcc.lua $CA --threads=1 --rand-seed=7 prepare >"$w/ref.prep" 2>&1) &
spid=$!
(cd "$P" && "$w/sysbench" tpcc.lua $CB --threads=1 --rand-seed=7 prepare >"$w/our.prep" 2>&1) || { bad "bench prepare (as sysbench)"; tail -5 "$w/our.prep"; }
wait $spid || { bad "sysbench prepare"; tail -5 "$w/ref.prep"; }
same_tables "prepare, seed 7"
schema tpa >"$w/ddl.a"; schema tpb >"$w/ddl.b"
if [ -s "$w/ddl.a" ] && cmp -s "$w/ddl.a" "$w/ddl.b" && grep -q '^order_line1 ol_delivery_d timestamp without time zone' "$w/ddl.b" &&
    grep -q '^district1 d_id smallint' "$w/ddl.b" && grep -q 'idx_customer1 ON public.customer1' "$w/ddl.b"; then ok; else
    bad "the columns, types and indexes are not sysbench-tpcc's pgsql DDL"; diff "$w/ddl.a" "$w/ddl.b" >"$w/diff"; t_on_fail; fi
for k in "DB SCHEMA public" "Creating tables: 1" "Adding indexes 1 ... " "loading tables: 1 for warehouse: 1"; do
    check "prepare says '$k' as sysbench-tpcc" "grep -qx '$k' '$w/our.prep' && grep -qx '$k' '$w/ref.prep'"
done
t_wait 10 idle || bad "sessions left after prepare"
# the rows: pg_stat_database's tup_* (sysbench's bulk inserts each log in once more to
# describe the driver, a session with one commit of its own: commits not compared here)
da=$(delta "$ca" "$(counters tpa)" | cut -d'|' -f3-) db=$(delta "$cb" "$(counters tpb)" | cut -d'|' -f3-)
check "prepare inserted the same rows (tup_inserted|updated|deleted $db, sysbench's $da)" "[ '$da' = '$db' ] && [ '${db%%|*}' -gt 490000 ]"

# 2. check passes on both loads
for db in tpa tpb; do
    "$B" tpcc $C --pgsql-db=$db check >"$w/chk.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && [ "$(grep -c 'PASSED$' "$w/chk.out")" = 11 ] && ! grep -q FAILED "$w/chk.out"; then ok; else
        bad "bench tpcc check after the load in $db: exit $rc"; cp "$w/chk.out" "$w/diff"; t_on_fail; fi
done

# 3. seeded 1-thread runs on identical tables
run_pair() { # run_pair WHAT ARGS...: sysbench on tpa, bench as sysbench on tpb
    what=$1; shift
    t_wait 10 idle || bad "$what: sessions left before the runs"
    $PSQL -d postgres -c "SELECT pg_stat_statements_reset()" >/dev/null
    ca=$(counters tpa) cb=$(counters tpb)
    (cd "$P" && sysbench tpcc.lua $CA --threads=1 --time=0 "$@" run >"$w/ref.run" 2>&1) || bad "$what: sysbench run"
    (cd "$P" && "$w/sysbench" tpcc.lua $CB --threads=1 --time=0 "$@" run >"$w/our.run" 2>&1) || { bad "$what: bench run"; tail -5 "$w/our.run"; }
    python3 "$here/mask_timing.py" "$w/ref.run" "$w/our.run"
    if diff "$w/ref.run.m" "$w/our.run.m" >"$w/diff"; then ok; rm -f "$w/diff"; else bad "$what: the output differs from sysbench's (timings masked)"; fi
    t_wait 10 idle || bad "$what: sessions left after the runs"
    da=$(delta "$ca" "$(counters tpa)") db=$(delta "$cb" "$(counters tpb)")
    if [ "$da" = "$db" ] && [ "${db%%|*}" -gt 0 ]; then ok; else
        bad "$what: pg_stat_database deltas (commit|rollback|inserted|updated|deleted): bench $db, sysbench $da"; fi
    statements tpa >"$w/st.a"; statements tpb >"$w/st.b"
    if [ "$(wc -l <"$w/st.a")" -gt 20 ] && diff "$w/st.a" "$w/st.b" >"$w/diff"; then ok; rm -f "$w/diff"; else
        bad "$what: pg_stat_statements' calls and rows per statement differ (sysbench <, bench >)"; fi
    same_tables "$what"
}
run_pair "run, seed 11, 300 events" --events=300 --rand-seed=11
grep -q '^DB SCHEMA public$' "$w/our.run.m" && grep -qE '^ +ignored errors: +[1-9]' "$w/our.run.m" && ok ||
    bad "run, seed 11: the DB SCHEMA line or New-Order's rollbacks (ignored errors) missing"
run_pair "run with --trx_level=SER" --events=100 --rand-seed=3 --trx_level=SER
# an ignorable error: a new_orders row at district 1's next order id makes every New-Order of
# district 1 fail with 23505 at its third INSERT; both tools roll back and run the event again
next="SELECT d_next_o_id FROM district1 WHERE d_w_id = 1 AND d_id = 1"
na=$($PSQL -d tpa -c "$next") nb=$($PSQL -d tpb -c "$next")
$PSQL -d tpa -c "INSERT INTO new_orders1 VALUES ($na, 1, 1)"
$PSQL -d tpb -c "INSERT INTO new_orders1 VALUES ($nb, 1, 1)"
run_pair "run with a planted duplicate (23505)" --events=100 --rand-seed=9
e=$(sed -n 's/^ *ignored errors: *\([0-9]*\) .*/\1/p' "$w/our.run")
x=$(grep -c 'INSERT INTO new_orders1' "$w/st.b")
check "23505: New-Order of district 1 rolled back and restarted (ignored errors $e)" "[ '${e:-0}' -gt 3 ] && [ '$x' = 1 ]"
$PSQL -d tpa -c "DELETE FROM new_orders1 WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = $na"
$PSQL -d tpb -c "DELETE FROM new_orders1 WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = $nb"
for db in tpa tpb; do
    "$B" tpcc $C --pgsql-db=$db check >"$w/chk.out" 2>&1 && ok || { bad "check after the runs in $db"; cp "$w/chk.out" "$w/diff"; t_on_fail; }
done
t_wait 10 idle || bad "sessions left after check"
$PSQL -d postgres -c "DROP DATABASE tpk" -c "CREATE DATABASE tpk TEMPLATE tpa" # section 4's
# purge deletes an order of a customer with two orders above 2100 older than the district's
# oldest new order: the load gives each customer one order per district, so only a customer
# of one of the runs' New-Orders, once that is delivered. Every order but each district's
# newest is delivered by hand in both (conditions 1-7 kept), so that purge's DELETEs (its
# history rows by ctid on PostgreSQL) run
n="(SELECT no_d_id, max(no_o_id) m FROM new_orders1 GROUP BY no_d_id) n"
deliver="UPDATE orders1 o SET o_carrier_id = 1 FROM $n WHERE n.no_d_id = o.o_d_id AND o.o_carrier_id IS NULL AND o.o_id < n.m; UPDATE order_line1 l SET ol_delivery_d = '2000-01-01' FROM $n WHERE n.no_d_id = l.ol_d_id AND l.ol_delivery_d IS NULL AND l.ol_o_id < n.m; DELETE FROM new_orders1 x USING $n WHERE n.no_d_id = x.no_d_id AND x.no_o_id < n.m"
$PSQL -d tpa -c "$deliver" && $PSQL -d tpb -c "$deliver" || bad "orders 2101-2200 not delivered by hand"
run_pair "run with --enable_purge=yes --splittable=yes --trx_level=RC" --events=200 --rand-seed=5 --enable_purge=yes --splittable=yes --trx_level=RC
grep -q 'ctid IN (SELECT ctid FROM history1' "$w/st.b" && grep -q '^START TRANSACTION READ ONLY' "$w/st.b" && ok ||
    bad "purge's DELETE by ctid or --splittable's READ ONLY not among bench's statements"
grep -q 'ctid IN (SELECT ctid FROM history1 WHERE h_w_id=\$1 AND h_d_id=\$2 LIMIT \$3) | [1-9][0-9]* | [1-9]' "$w/st.b" && ok ||
    bad "purge deleted no history rows"
# purge deletes history rows (and orders with their lines): conditions 1-7 still hold
"$B" tpcc $CB check >"$w/chk.out" 2>&1
check "check after purge: conditions 1-7 pass" "[ \$(grep -c 'Check [1-7], warehouse: 1 PASSED' '$w/chk.out') = 7 ]"

# 4. check fails naming the condition on tables corrupted on purpose (tpk: tpa before the
#    purge run; each case a change and its undo, breaking no other condition)
cid=$($PSQL -d tpk -c "SELECT o_c_id FROM orders1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1")
corrupt() { # corrupt N SQL UNDO
    n=$1
    $PSQL -d tpk -c "$2"
    "$B" tpcc $C --pgsql-db=tpk check >"$w/chk.out" 2>&1
    rc=$?
    $PSQL -d tpk -c "$3"
    if [ $rc = 1 ] && grep -q "^Check $n, warehouse: 1 FAILED!!! (condition 3.3.2.$n: " "$w/chk.out" &&
        [ "$(grep -c FAILED "$w/chk.out")" = 1 ]; then ok; else
        bad "condition 3.3.2.$n: exit $rc"; cp "$w/chk.out" "$w/diff"; t_on_fail; fi
}
corrupt 6 "UPDATE orders1 SET o_ol_cnt = o_ol_cnt + CASE o_id WHEN 1 THEN 1 ELSE -1 END WHERE o_w_id = 1 AND o_d_id = 1 AND o_id IN (1, 2)" "UPDATE orders1 SET o_ol_cnt = o_ol_cnt - CASE o_id WHEN 1 THEN 1 ELSE -1 END WHERE o_w_id = 1 AND o_d_id = 1 AND o_id IN (1, 2)"
corrupt 9 "UPDATE district1 SET d_ytd = d_ytd + CASE d_id WHEN 1 THEN 1 ELSE -1 END WHERE d_w_id = 1 AND d_id IN (1, 2)" "UPDATE district1 SET d_ytd = d_ytd - CASE d_id WHEN 1 THEN 1 ELSE -1 END WHERE d_w_id = 1 AND d_id IN (1, 2)"
corrupt 12 "UPDATE customer1 SET c_ytd_payment = c_ytd_payment + 1 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = $cid" "UPDATE customer1 SET c_ytd_payment = c_ytd_payment - 1 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = $cid"
"$B" tpcc $C --pgsql-db=tpk check >"$w/chk.out" 2>&1 && ok || { bad "check after the undos"; cp "$w/chk.out" "$w/diff"; t_on_fail; }

# 5. cleanup: sysbench-tpcc's nine tables dropped, a table of one of their names that is not
#    theirs left alone (exit 1, said)
$PSQL -d tpk -c "DROP TABLE item1 CASCADE" -c "CREATE TABLE item1 (id INT PRIMARY KEY, note TEXT)" -c "INSERT INTO item1 VALUES (1, 'keep')"
"$B" tpcc $C --pgsql-db=tpk cleanup >"$w/cl.out" 2>&1
rc=$?
check "cleanup leaves a foreign item1 alone and says so (exit $rc)" "[ $rc = 1 ] && grep -q \"left table 'item1' alone\" '$w/cl.out' && [ \"\$($PSQL -d tpk -c 'SELECT note FROM item1')\" = keep ] && [ \"\$($PSQL -d tpk -c \"SELECT count(*) FROM pg_tables WHERE schemaname = 'public'\")\" = 1 ]"
(cd "$P" && "$w/sysbench" tpcc.lua $CA cleanup >"$w/cl.out" 2>&1) && grep -qx "Dropping tables '1'..." "$w/cl.out" && grep -qx 'DB SCHEMA public' "$w/cl.out" &&
    [ "$($PSQL -d tpa -c "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" = 0 ] && ok ||
    { bad "cleanup of sysbench's tables as sysbench"; cp "$w/cl.out" "$w/diff"; t_on_fail; }

# 6. what tpcc does not do on PostgreSQL yet, or cannot: one line, exit 2
refuse() { # refuse WHAT PATTERN ARGS...
    what=$1 pat=$2; shift 2
    "$B" tpcc $CB "$@" >"$w/ref.out" 2>&1
    rc=$?
    if [ $rc = 2 ] && grep -q "$pat" "$w/ref.out"; then ok; else bad "$what: exit $rc"; cp "$w/ref.out" "$w/diff"; t_on_fail; fi
}
refuse "--event-loops=1" "tpcc: --event-loops on PostgreSQL: not yet" --event-loops=1 --time=1 run
refuse "--tpcc-mode=spec" "tpcc: --tpcc-mode=spec on PostgreSQL: not yet" --tpcc-mode=spec --time=1 run
refuse "--force_pk=1" "AUTO_INCREMENT', which PostgreSQL refuses" --force_pk=1 prepare
t_summary
