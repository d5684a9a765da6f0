#!/bin/sh
# sysbench's 11 OLTP workloads on PostgreSQL (issue 32, part 2): bench (as sysbench) beside
# Debian's sysbench 1.0.20 --db-driver=pgsql on the PostgreSQL 15 of tests/postgres.sh. For
# each workload sysbench prepares database sbpa, which is copied to sbpb (CREATE DATABASE ...
# TEMPLATE); sysbench runs on sbpa, bench on sbpb (and on more copies: on an event loop, with
# --pgsql-pipeline; twin below), seeded, --threads=1, a fixed --events:
#   - the outputs are the same with the timings masked (tests/mask_timing.py);
#   - the server counted the same: pg_stat_database's xact_commit, xact_rollback,
#     tup_inserted, tup_updated, tup_deleted, and pg_stat_statements' calls and rows per
#     statement text (the same statements, prepared, with the same parameter types);
#   - the tables are identical after the runs (md5 of an ordered dump).
# Then bench's own: sysbench's ignorable 23505 rolled back and counted (xact_rollback moves
# with "ignored errors"), a fatal error in the server's words with its SQLSTATE, the
# --pgsql-ignore-errors syntax, cleanup that drops only its own and sysbench's tables, the
# JSON counts, a terminated session (reconnect with 08006, else exit 1; on a loop too),
# prepare's COPY, a SIGINT during prepare (the unfinished table it created dropped, an earlier
# one kept); on event loops: 200 connections on 2 loops (all logged in at once, the
# server's counts exact), a stop signal with every statement in flight (cancelled), a
# statement past --pgsql-io-timeout.
# Needs postgresql-15, openssl and sysbench with its pgsql driver; exits 77 without them.
# About 30 seconds (100 at a load average of 8 on 2 CPUs).
set -u
t_name=pgsql-oltp
. "$(dirname "$0")/lib.sh"
[ -x /usr/lib/postgresql/15/bin/initdb ] && command -v openssl >/dev/null &&
    command -v sysbench >/dev/null && command -v psql >/dev/null ||
    { echo "pgsql-oltp: SKIP: needs postgresql-15, psql, openssl and sysbench"; exit 77; }
pgdir=$(mktemp -d /tmp/bench-pgo.XXXXXX)
t_at_exit() { sh "$here/postgres.sh" stop "$pgdir"; rm -rf "$pgdir"; }
# max_connections: room for the many-connections run on event loops (below)
env=$(BENCH_PG_MAX_CONNECTIONS=230 sh "$here/postgres.sh" start "$pgdir" "${PGSQL_TEST_PORT:-$((29700 + $$ % 800))}") ||
    { echo "pgsql-oltp: FAIL: the PostgreSQL test server did not start"; exit 1; }
eval "$env"
unset PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PGSSLMODE PGSSLROOTCERT PGCHANNELBINDING PGPASSFILE PGCONNECT_TIMEOUT PGAPPNAME
export HOME="$w/home"
mkdir -p "$HOME"
ln -s "$B" "$w/sysbench" # bench as sysbench: its output is sysbench's
PSQL="psql -X -q -At -h $BENCH_PG_HOST -p $BENCH_PG_PORT -U postgres"
$PSQL -d postgres -c "CREATE EXTENSION pg_stat_statements" ||
    { echo "pgsql-oltp: FAIL: pg_stat_statements (shared_preload_libraries)"; exit 1; }
C="--db-driver=pgsql --pgsql-host=$BENCH_PG_HOST --pgsql-port=$BENCH_PG_PORT --pgsql-user=postgres"
# no autovacuum: sbpa carries prepare's changes in its statistics (sbpb, its copy, starts at
# zero), so an autoanalyze came in sysbench's window only, its transactions and pg_statistic
# rows counted in pg_stat_database (seen: 8 commits, 30 inserted, 16 updated more)
$PSQL -d postgres -c "ALTER SYSTEM SET autovacuum = off" -c "SELECT pg_reload_conf()" >/dev/null
t_wait 10 sh -c "[ \"\$($PSQL -d postgres -c 'SHOW autovacuum')\" = off ]" ||
    { echo "pgsql-oltp: FAIL: autovacuum stays on"; exit 1; }
t_on_fail() { [ -f "$w/diff" ] && sed 's/^/    /' "$w/diff" | head -12; rm -f "$w/diff"; }

# idle: no session left on sbpa or sbpb (a backend flushes its counters as it exits)
idle() { [ "$($PSQL -d postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname IN ('sbpa','sbpb')")" = 0 ]; }
counters() { # counters DB: pg_stat_database's five, one line
    $PSQL -d postgres -c "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database WHERE datname = '$1'"
}
delta() { # delta BEFORE AFTER: AFTER - BEFORE, field by field ('|'-separated)
    echo "$1 $2" | awk '{n = split($1, a, "|"); split($2, b, "|"); s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? "|" : "") b[i] - a[i]; print s}'
}
statements() { # statements DB: pg_stat_statements' text, calls and rows there, sorted
    $PSQL -d postgres -c "SELECT regexp_replace(s.query, '\s+', ' ', 'g') || ' | ' || s.calls || ' | ' || s.rows FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$1' ORDER BY 1"
}
dump() { # dump DB: md5 of every sbtest table's rows, ordered
    for t in $($PSQL -d "$1" -c "SELECT relname FROM pg_class WHERE relkind = 'r' AND relname LIKE 'sbtest%' ORDER BY relname"); do
        printf '%s:' "$t"
        $PSQL -d "$1" -c "SELECT count(*) || ':' || md5(coalesce(string_agg(t::text, ';' ORDER BY t::text), '')) FROM $t t"
    done | tr '\n' ' '
}

# twin NAME WL PREPARE-ARGS RUN-ARGS: sysbench prepares sbpa (then TWIN_SQL runs there, if
# set), copied to one database per bench run: sbpb (a thread per connection, as sysbench),
# sbpl unless LOOP=0 (the same client on an event loop: pgc_step driven by the loop: the
# workloads whose statements are of kinds the others already ran on it skip it, for time);
# with PIPE=1 also sbpq
# and sbpr (--pgsql-pipeline=on, threads and a loop: a transaction's statements in one
# pipeline). Every run leaves the same output (timings masked), counters, statements and
# tables as sysbench's.
twin() {
    name=$1 wl=$2 prep=$3 runa=$4
    dbs=sbpb
    [ "${LOOP:-1}" = 0 ] || dbs="$dbs sbpl"
    [ "${PIPE:-0}" = 0 ] || dbs="$dbs sbpq sbpr"
    $PSQL -d postgres -c "DROP DATABASE IF EXISTS sbpa" -c "CREATE DATABASE sbpa" 2>/dev/null
    for d in sbpb sbpl sbpq sbpr; do $PSQL -d postgres -c "DROP DATABASE IF EXISTS $d" 2>/dev/null; done
    (cd "$w" && sysbench "$wl" $C --pgsql-db=sbpa $prep prepare >prep.out 2>&1) || { bad "$name: sysbench prepare"; tail -3 "$w/prep.out"; return; }
    [ -z "${TWIN_SQL:-}" ] || $PSQL -d sbpa -c "$TWIN_SQL" >/dev/null || { bad "$name: TWIN_SQL"; return; }
    for d in $dbs; do $PSQL -d postgres -c "CREATE DATABASE $d TEMPLATE sbpa"; done
    t_wait 10 idle || { bad "$name: sessions left before the runs"; return; }
    $PSQL -d postgres -c "SELECT pg_stat_statements_reset()" >/dev/null
    ca=$(counters sbpa)
    for d in $dbs; do eval "c_$d=\$(counters $d)"; done
    (cd "$w" && sysbench "$wl" $C --pgsql-db=sbpa $runa run >ref.out 2>&1) || { bad "$name: sysbench run"; tail -3 "$w/ref.out"; }
    [ -z "${TWIN_SQL:-}" ] || grep -qE '^ +ignored errors: +[1-9]' "$w/ref.out" || bad "$name: no error met (TWIN_SQL)"
    for d in $dbs; do
        case $d in sbpb) x= ;; sbpl) x=--event-loops=1 ;; sbpq) x=--pgsql-pipeline=on ;; *) x="--pgsql-pipeline=on --event-loops=1" ;; esac
        (cd "$w" && ./sysbench "$wl" $C --pgsql-db=$d $runa $x run >$d.out 2>&1) || { bad "$name: bench $x run (exit $?)"; tail -3 "$w/$d.out"; }
        python3 "$here/mask_timing.py" "$w/ref.out" "$w/$d.out"
        diff "$w/ref.out.m" "$w/$d.out.m" >"$w/diff" || { bad "$name: bench $x: output differs from sysbench's (timings masked)"; t_on_fail; }
    done
    ok
    t_wait 10 idle || bad "$name: sessions left after the runs"
    da=$(delta "$ca" "$(counters sbpa)")
    statements sbpa >"$w/st.a"
    a=$(dump sbpa)
    for d in $dbs; do
        eval "dd=\$(delta \"\$c_$d\" \"\$(counters $d)\")"
        if [ "$wl" = bulk_insert ]; then # sysbench's driver logs in once more (db_describe, at
            # the first row: a session that only logs in; the server counts its login's
            # transaction): one commit more than bench, deliberately not copied
            dd=$(echo "$dd" | awk -F'|' -v OFS='|' '{$1 = $1 + 1; print}')
        fi
        if [ "$da" = "$dd" ] && [ "$(echo "$da" | cut -d'|' -f1)" -gt 0 ]; then ok; else
            bad "$name: pg_stat_database (commits|rollbacks|inserted|updated|deleted): sysbench $da, bench on $d $dd"; fi
        statements $d >"$w/st.b"
        if [ -s "$w/st.a" ] && diff "$w/st.a" "$w/st.b" >"$w/diff"; then ok; else bad "$name: pg_stat_statements' calls and rows differ on $d"; t_on_fail; fi
        b=$(dump $d)
        if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "$name: tables differ after the same seeded run: sysbench $a, bench on $d $b"; fi
    done
}
P="--tables=2 --table-size=300"
R="$P --threads=1 --time=0 --rand-seed=7"
PIPE=1
twin oltp_read_write oltp_read_write "$P" "$R --events=40"
PIPE=0 LOOP=0
twin oltp_read_only oltp_read_only "$P" "$R --events=40"
LOOP=1
twin oltp_write_only oltp_write_only "$P" "$R --events=60 --rand-type=uniform --delete-inserts=2"
PIPE=1
# an error inside a transaction (a trigger raises sysbench's ignorable 40001 for the index
# UPDATEs that make k a multiple of 3): rolled back and the event run again from where the
# failed statement's draws left the generator; pipelined, the statements after it never run
TWIN_SQL="CREATE FUNCTION f40001() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN IF NEW.k % 3 = 0 AND NEW.k <> OLD.k THEN RAISE EXCEPTION 'serialize' USING ERRCODE = '40001'; END IF; RETURN NEW; END \$\$; CREATE TRIGGER t40001 BEFORE UPDATE ON sbtest1 FOR EACH ROW EXECUTE FUNCTION f40001(); CREATE TRIGGER t40001 BEFORE UPDATE ON sbtest2 FOR EACH ROW EXECUTE FUNCTION f40001();"
twin "oltp_read_write, 40001 inside" oltp_read_write "$P" "$R --events=40"
TWIN_SQL= PIPE=0
twin oltp_point_select oltp_point_select "$P" "$R --events=200"
twin oltp_insert oltp_insert "$P" "$R --events=100"
LOOP=0
twin oltp_update_index oltp_update_index "$P" "$R --events=100"
twin oltp_update_non_index oltp_update_non_index "$P" "$R --events=100"
twin oltp_delete oltp_delete "$P" "$R --events=100"
twin select_random_points select_random_points "$P" "$R --events=100"
twin select_random_ranges select_random_ranges "$P" "$R --events=100"
LOOP=1
twin bulk_insert bulk_insert "--threads=1" "--threads=1 --time=0 --events=3000 --rand-seed=7"
twin "oltp_read_write --db-ps-mode=disable" oltp_read_write "$P" "$R --events=30 --db-ps-mode=disable"
PIPE=1 # (no transaction: nothing to pipeline: one implicit transaction each statement)
twin "oltp_read_write --skip-trx" oltp_read_write "$P" "$R --events=30 --skip-trx=on"
PIPE=0

# prepare: sysbench's lines and schema (columns, defaults, indexes, the SERIAL's sequence),
# --auto-inc on and off
schema() { # schema DB: the sbtest tables' columns and indexes, one line each
    $PSQL -d "$1" -c "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(character_maximum_length::text, '') || ' ' || is_nullable || ' ' || coalesce(column_default, '') FROM information_schema.columns WHERE table_name LIKE 'sbtest%' ORDER BY 1" \
        -c "SELECT indexdef FROM pg_indexes WHERE tablename LIKE 'sbtest%' ORDER BY 1" \
        -c "SELECT sequencename FROM pg_sequences ORDER BY 1"
}
for aut in on off; do
    $PSQL -d postgres -c "DROP DATABASE IF EXISTS sbpg" -c "DROP DATABASE IF EXISTS sbph" -c "CREATE DATABASE sbpg" -c "CREATE DATABASE sbph" 2>/dev/null
    (cd "$w" && sysbench oltp_read_write $C --pgsql-db=sbpg --tables=3 --table-size=100 --auto-inc=$aut prepare >ref.out 2>&1 &&
        ./sysbench oltp_read_write $C --pgsql-db=sbph --tables=3 --table-size=100 --auto-inc=$aut prepare >our.out 2>&1) ||
        bad "prepare --auto-inc=$aut: a tool failed"
    python3 "$here/mask_timing.py" "$w/ref.out" "$w/our.out"
    schema sbpg >"$w/sch.a"
    schema sbph >"$w/sch.b"
    if diff "$w/ref.out.m" "$w/our.out.m" >"$w/diff" && [ "$(wc -l <"$w/sch.a")" -ge 12 ] && diff "$w/sch.a" "$w/sch.b" >"$w/diff"; then ok; else
        bad "prepare --auto-inc=$aut: output or schema differ from sysbench's"; fi
done

# sysbench's ignorable errors: the same seeded oltp_insert --auto-inc=off twice on one table
# set draws the same ids; the second run's INSERTs meet 23505, each rolled back (the server
# counts the ROLLBACK) and the event run again with the next id, until the ids are new
$PSQL -d postgres -c "DROP DATABASE IF EXISTS sbpc" -c "CREATE DATABASE sbpc" 2>/dev/null
I="$C --pgsql-db=sbpc --tables=1 --threads=1 --time=0 --rand-seed=5 --auto-inc=off"
(cd "$w" && ./sysbench oltp_insert $I prepare >/dev/null 2>&1 && ./sysbench oltp_insert $I --events=50 run >/dev/null 2>&1) ||
    bad "oltp_insert --auto-inc=off: prepare and a first run"
t_wait 10 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpc'\")\" = 0 ]"
c0=$(counters sbpc)
(cd "$w" && ./sysbench oltp_insert $I --events=50 run >ign.out 2>&1); rc=$?
t_wait 10 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpc'\")\" = 0 ]"
d=$(delta "$c0" "$(counters sbpc)")
ign=$(awk '/ignored errors:/ {print $3}' "$w/ign.out")
rb=$(echo "$d" | cut -d'|' -f2) ins=$(echo "$d" | cut -d'|' -f3)
# the server counts each failed INSERT (its heap tuple too) and each ROLLBACK as a rollback
if [ $rc = 0 ] && [ "${ign:-0}" -ge 50 ] && [ "$rb" = "$((ign * 2))" ] && [ "$ins" = "$((50 + ign))" ] &&
    [ "$($PSQL -d sbpc -c "SELECT count(*) FROM sbtest1")" = 100 ]; then ok; else
    bad "23505 ignored: exit $rc, ignored errors ${ign:-none}, server rollbacks $rb (each failed INSERT and its ROLLBACK), rows inserted $ins (want 50 + the failed ones)"; fi

# a fatal error: the server's words and SQLSTATE, exit 3 (a missing table: prepare first)
$PSQL -d postgres -c "DROP DATABASE IF EXISTS sbpd" -c "CREATE DATABASE sbpd" 2>/dev/null
"$B" oltp_point_select $C --pgsql-db=sbpd --events=1 run >"$w/out" 2>&1; rc=$?
if [ $rc = 3 ] && grep -q 'relation "sbtest1" does not exist (SQLSTATE 42P01)' "$w/out" &&
    grep -q "run 'bench oltp_point_select prepare'" "$w/out"; then ok; else
    bad "a missing table: exit $rc, expected 3 with SQLSTATE 42P01 and the hint"; cp "$w/out" "$w/diff"; t_on_fail; fi
"$B" oltp_point_select $C --pgsql-db=sbpd --pgsql-ignore-errors=40001,4P01 run >"$w/out" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "pgsql-ignore-errors='40001,4P01': give SQLSTATE codes" "$w/out"; then ok; else
    bad "--pgsql-ignore-errors=40001,4P01: exit $rc, expected 2"; fi
# sysbench's default user and database (sbtest): the server's refusal, verbatim
"$B" oltp_point_select --db-driver=pgsql --pgsql-host=$BENCH_PG_HOST --pgsql-port=$BENCH_PG_PORT --events=1 run >"$w/out" 2>&1; rc=$?
if [ $rc != 0 ] && grep -q "login to $BENCH_PG_HOST:$BENCH_PG_PORT failed for user 'sbtest' (database 'sbtest'): FATAL: .*(SQLSTATE 28000)" "$w/out"; then ok; else
    bad "sysbench's defaults: exit $rc, expected the server's 28000 for user sbtest"; cp "$w/out" "$w/diff"; t_on_fail; fi

# bench's help of a workload lists the pgsql options (sysbench's stays sysbench's: oltp.sh)
"$B" oltp_read_write help >"$w/out" 2>&1
if grep -q '^  --pgsql-ignore-errors=STRING ' "$w/out" && grep -q '^  --pgsql-copy\[=on|off\] ' "$w/out" &&
    ! (cd "$w" && ./sysbench oltp_read_write help) | grep -q pgsql-copy; then ok; else
    bad "bench oltp_read_write help: no --pgsql-* options listed (or sysbench's help changed)"; fi

# bench's tables carry COMMENT ON 'created by bench'; cleanup drops its own and sysbench's
# (exactly sysbench's columns), and leaves a user's sbtest table alone
(cd "$w" && "$B" oltp_read_write $C --pgsql-db=sbpd --tables=2 --table-size=10 prepare >/dev/null 2>&1) || bad "bench prepare"
[ "$($PSQL -d sbpd -c "SELECT obj_description('sbtest1'::regclass)")" = "created by bench" ] && ok || bad "prepare: no 'created by bench' comment"
$PSQL -d sbpd -c "CREATE TABLE sbtest3 (id int PRIMARY KEY, note text)"
"$B" oltp_read_write $C --pgsql-db=sbpd --tables=3 cleanup >"$w/out" 2>&1; rc=$?
left=$($PSQL -d sbpd -c "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class WHERE relkind = 'r' AND relname LIKE 'sbtest%'")
if [ $rc = 1 ] && [ "$left" = sbtest3 ] && grep -q "left table 'sbtest3' alone" "$w/out"; then ok; else
    bad "cleanup: exit $rc, tables left '$left' (want sbtest3 only, exit 1)"; cp "$w/out" "$w/diff"; t_on_fail; fi

# --format=json: the same counts as the text
(cd "$w" && sysbench oltp_read_only $C --pgsql-db=sbpd --tables=1 --table-size=50 prepare >/dev/null 2>&1)
"$B" oltp_read_only $C --pgsql-db=sbpd --tables=1 --table-size=50 --events=5 --time=0 --format=json run >"$w/j" 2>"$w/err"; rc=$?
if [ $rc = 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = json.dumps(d)
sys.exit(0 if "\"queries_read\": 70" in s and "\"queries_other\": 10" in s else 1)' "$w/j"; then ok; else
    bad "--format=json: exit $rc, queries_read 70 and queries_other 10 expected"; head -c 600 "$w/j"; cat "$w/err"; fi

# prepare --pgsql-copy=on (bench only): the same rows as sysbench's INSERTs with the same seed,
# loaded by COPY FROM STDIN (the server counts COPY statements, no INSERT)
$PSQL -d postgres -c "DROP DATABASE IF EXISTS sbpe" -c "DROP DATABASE IF EXISTS sbpf" -c "CREATE DATABASE sbpe" -c "CREATE DATABASE sbpf" 2>/dev/null
for aut in on off; do
    $PSQL -d postgres -c "SELECT pg_stat_statements_reset()" >/dev/null
    K="$C --tables=2 --table-size=2000 --rand-seed=9 --auto-inc=$aut"
    (cd "$w" && ./sysbench oltp_read_write $K --pgsql-db=sbpe prepare >/dev/null 2>&1 &&
        ./sysbench oltp_read_write $K --pgsql-db=sbpf --pgsql-copy=on prepare >/dev/null 2>&1) || bad "--pgsql-copy=on --auto-inc=$aut: prepare"
    a=$(dump sbpe) b=$(dump sbpf)
    t_wait 10 idle || true
    st=$(statements sbpf | grep -c '^COPY sbtest[12] (')
    ins=$(statements sbpf | grep -c '^INSERT')
    if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$st" = 2 ] && [ "$ins" = 0 ]; then ok; else
        bad "--pgsql-copy=on --auto-inc=$aut: tables INSERT $a, COPY $b; COPY statements $st (want 2), INSERTs $ins"; fi
    (cd "$w" && ./sysbench oltp_read_write $K --pgsql-db=sbpe cleanup >/dev/null 2>&1 &&
        ./sysbench oltp_read_write $K --pgsql-db=sbpf cleanup >/dev/null 2>&1) || bad "--pgsql-copy: cleanup"
done

# a lost connection (the server terminates the session): with 08006 in --pgsql-ignore-errors
# bench logs in again, prepares again and goes on (one reconnect counted, exit 0); without,
# the run stops with the statistics so far and the hint, exit 1
lost() { # lost ARGS...: a 2 s run on sbpd whose session the server ends once, seen running
    "$B" oltp_point_select $C --pgsql-db=sbpd --tables=1 --table-size=50 --time=2 "$@" run >"$w/lost" 2>&1 &
    lpid=$!
    t_wait 5 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd' AND backend_type = 'client backend'\")\" = 1 ]" ||
        echo "no session seen" >>"$w/lost"
    $PSQL -d postgres -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'sbpd' AND backend_type = 'client backend'" >/dev/null
    wait $lpid
}
lost --pgsql-ignore-errors=08006; rc=$?
if [ $rc = 0 ] && grep -qE '^ +reconnects: +1 ' "$w/lost"; then ok; else
    bad "a terminated session with --pgsql-ignore-errors=08006: exit $rc, expected 0 and one reconnect"; cp "$w/lost" "$w/diff"; t_on_fail; fi
lost; rc=$?
if [ $rc = 1 ] && grep -q 'add 08006 to --pgsql-ignore-errors' "$w/lost"; then ok; else
    bad "a terminated session: exit $rc, expected 1 and the hint"; cp "$w/lost" "$w/diff"; t_on_fail; fi

# SIGINT during prepare, its INSERT or COPY running: the table this prepare created (its CREATE
# TABLE succeeded: it did not exist) is dropped; sbtest2, a finished table of an earlier prepare
# in the same range carrying the same marker, is kept with its rows (bench drops only what
# this run made)
$PSQL -d postgres -c "DROP DATABASE IF EXISTS sbsig" -c "CREATE DATABASE sbsig" >/dev/null 2>&1
"$B" oltp_read_write $C --pgsql-db=sbsig --tables=1 --table-size=10 prepare >/dev/null 2>&1 &&
    $PSQL -d sbsig -c "ALTER TABLE sbtest1 RENAME TO sbtest2" || bad "signal: the earlier table"
for copy in off on; do
    "$B" oltp_read_write $C --pgsql-db=sbsig --tables=2 --table-size=5000000 --pgsql-copy=$copy prepare >"$w/sig" 2>&1 &
    spid=$!
    if t_wait 30 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbsig' AND state = 'active' AND query ~ '^(INSERT|COPY) '\")\" = 1 ]"; then
        kill -INT $spid; wait $spid; rc=$?
        tables=$($PSQL -d sbsig -c "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class WHERE relname LIKE 'sbtest%' AND relkind = 'r'")
        rows=$($PSQL -d sbsig -c "SELECT count(*) FROM sbtest2")
        if [ $rc = 1 ] && [ "$tables" = sbtest2 ] && [ "$rows" = 10 ] &&
            grep -q "^bench: warning: oltp_read_write: dropped the unfinished table 'sbtest1' (created by this prepare)$" "$w/sig"; then ok; else
            bad "SIGINT during prepare (--pgsql-copy=$copy): exit $rc (1 expected), tables '$tables' (sbtest2 expected), sbtest2 rows $rows (10)"
            cp "$w/sig" "$w/diff"; t_on_fail; fi
    else
        kill $spid; wait $spid; bad "SIGINT during prepare (--pgsql-copy=$copy): no INSERT or COPY seen running"
    fi
done
lost --pgsql-ignore-errors=08006 --event-loops=1; rc=$?
if [ $rc = 0 ] && grep -qE '^ +reconnects: +1 ' "$w/lost"; then ok; else
    bad "a terminated session on an event loop with --pgsql-ignore-errors=08006: exit $rc, expected 0 and one reconnect"; cp "$w/lost" "$w/diff"; t_on_fail; fi

# many connections on event loops: 200 clients on 2 loops all logged in at once (seen in
# pg_stat_activity), every event counted by the server: the point select's calls equal the
# transactions, and the commits equal them plus 200 logins' worth and the run's own (the
# table check's): measured from runs of one and two clients
sessions() { $PSQL -d postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd' AND backend_type = 'client backend'"; }
M="$C --pgsql-db=sbpd --tables=1 --table-size=50 --time=0"
t_wait 10 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd'\")\" = 0 ]"
c0=$(counters sbpd)
"$B" oltp_point_select $M --threads=1 --events=100 --event-loops=1 run >"$w/one" 2>&1 || bad "one client on a loop: exit $?"
t_wait 10 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd'\")\" = 0 ]"
c1=$(counters sbpd)
"$B" oltp_point_select $M --threads=2 --events=100 --event-loops=1 run >"$w/one" 2>&1 || bad "two clients on a loop: exit $?"
t_wait 10 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd'\")\" = 0 ]"
c2=$(counters sbpd)
one=$(( $(delta "$c0" "$c1" | cut -d'|' -f1) - 100 )) two=$(( $(delta "$c1" "$c2" | cut -d'|' -f1) - 100 ))
login=$((two - one)) fixed=$((2 * one - two)) # one login's commits (its Parse/Syncs), the run's
c1=$c2
$PSQL -d postgres -c "SELECT pg_stat_statements_reset()" >/dev/null
"$B" oltp_point_select $M --threads=200 --event-loops=2 --events=20000 run >"$w/many" 2>&1 &
mpid=$!
if t_wait 120 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd' AND backend_type = 'client backend'\")\" = 200 ]"; then ok; else
    bad "200 clients on 2 loops: $(sessions) sessions seen at once, want 200"; fi
wait $mpid; rc=$?
t_wait 20 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd'\")\" = 0 ]"
d=$(delta "$c1" "$(counters sbpd)")
calls=$($PSQL -d postgres -c "SELECT sum(s.calls) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = 'sbpd' AND s.query LIKE 'SELECT c FROM sbtest1 WHERE id=%'")
trx=$(sed -n 's/^ *transactions: *\([0-9]*\) .*/\1/p' "$w/many")
if [ $rc = 0 ] && [ "$trx" = 20000 ] && [ "$calls" = 20000 ] && [ "$login" -gt 0 ] &&
    [ "$(echo "$d" | cut -d'|' -f1)" = $((20000 + fixed + 200 * login)) ] && grep -q 'Client I/O: .*200 connections on 2 event loops' "$w/many"; then ok; else
    bad "200 clients on 2 loops: exit $rc, transactions $trx, calls $calls (want 20000), commits $(echo "$d" | cut -d'|' -f1) (want 20000 + $fixed + 200 x $login)"; cp "$w/many" "$w/diff"; t_on_fail; fi

# a stop signal on a loop with every client's statement in flight (the table locked by
# another session): the report within a second, the 8 in flight said unfinished, and each
# cancelled (CancelRequest, as a thread's): their sessions end while the lock is still held
"$B" oltp_point_select $C --pgsql-db=sbpd --tables=1 --table-size=50 --time=60 --threads=8 --event-loops=1 run >"$w/int" 2>&1 &
ipid=$!
t_wait 20 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd' AND backend_type = 'client backend'\")\" = 8 ]" ||
    bad "stop signal: the 8 clients never logged in"
$PSQL -d sbpd -c "SET application_name = 'locker'" -c "BEGIN" -c "LOCK TABLE sbtest1" -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
t_wait 20 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd' AND application_name <> 'locker' AND wait_event_type = 'Lock'\")\" = 8 ]" ||
    bad "stop signal: the 8 clients' statements never waited on the lock"
t0=$(date +%s%N)
kill -INT $ipid
wait $ipid; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if t_wait 10 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd' AND backend_type = 'client backend' AND application_name <> 'locker'\")\" = 0 ]" &&
    [ $rc = 1 ] && [ $ms -lt 3000 ] && grep -q 'unfinished transactions on the stop signal: 8$' "$w/int" &&
    grep -qE '^ +transactions: +[1-9]' "$w/int"; then ok; else
    bad "stop signal on a loop: exit $rc after $ms ms (want 1, < 3000), sessions left $(sessions) (want 0: cancelled)"; cp "$w/int" "$w/diff"; t_on_fail; fi
$PSQL -d postgres -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'locker'" >/dev/null

# a statement unanswered past --pgsql-io-timeout on a loop (the table locked mid-run): the
# run stops on it within the deadline (+ the loop's 1 s stall scan), in thread mode's words
"$B" oltp_point_select $C --pgsql-db=sbpd --tables=1 --table-size=50 --time=60 --threads=4 --event-loops=1 --pgsql-io-timeout=1 run >"$w/to" 2>&1 &
ipid=$!
t_wait 20 sh -c "[ \"\$($PSQL -d postgres -c \"SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbpd' AND backend_type = 'client backend'\")\" = 4 ]" ||
    bad "io timeout: the 4 clients never logged in"
$PSQL -d sbpd -c "SET application_name = 'locker'" -c "BEGIN" -c "LOCK TABLE sbtest1" -c "SELECT pg_sleep(60)" >/dev/null 2>&1 &
t0=$(date +%s%N)
wait $ipid; rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ $rc = 1 ] && [ $ms -lt 4000 ] && grep -q 'executing .*: no complete answer within the deadline (1000 ms)$' "$w/to" &&
    grep -q 'hint: no complete answer within --pgsql-io-timeout=1 s' "$w/to"; then ok; else
    bad "io timeout on a loop: exit $rc after $ms ms (want 1, < 4000 ms) and the deadline's words"; cp "$w/to" "$w/diff"; t_on_fail; fi
$PSQL -d postgres -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'locker'" >/dev/null
t_summary
