#!/bin/sh
# Suite pgsql-tsan: PostgreSQL's OLTP on event loops under ThreadSanitizer (BENCH=./bench-tsan)
# on its own PostgreSQL 15: logins on helper threads beside the loops (TLS, SCRAM), the
# pipeline, a stop signal while clients log in and once all of them run. Each run: no
# ThreadSanitizer report, its exit code, and the sessions gone after it. (A review found the
# loop reading a login's socket and writing its client's error while the login thread ran:
# 3 reports in a 2 s run, 10 with a SIGINT during the logins.)
# Needs postgresql-15, openssl and make tsan; exits 77 without PostgreSQL.
set -u
t_name=pgsql-tsan
. "$(dirname "$0")/lib.sh"
[ -x /usr/lib/postgresql/15/bin/initdb ] && command -v openssl >/dev/null ||
    { echo "pgsql-tsan: SKIP: needs postgresql-15 and openssl"; exit 77; }
pgdir=$(mktemp -d /tmp/bench-pgt.XXXXXX)
bp=""
t_at_exit() { [ -z "$bp" ] || kill "$bp" 2>/dev/null; sh "$here/postgres.sh" stop "$pgdir"; rm -rf "$pgdir"; }
env=$(sh "$here/postgres.sh" start "$pgdir" "${PGSQL_TSAN_PORT:-$((28900 + $$ % 800))}") ||
    { echo "pgsql-tsan: FAIL: the PostgreSQL test server did not start"; exit 1; }
eval "$env"
PSQL=/usr/lib/postgresql/15/bin/psql
Q() { "$PSQL" -X -q -At -h "$BENCH_PG_SOCKDIR" -p "$BENCH_PG_PORT" -U postgres -d benchtest -c "$1"; }
Q "GRANT ALL ON SCHEMA public TO scram" || { echo "pgsql-tsan: FAIL: grant"; exit 1; }
sessions() { Q "SELECT count(*) FROM pg_stat_activity WHERE usename = 'scram' AND backend_type = 'client backend'"; }
at_least() { [ "$(sessions)" -ge "$1" ]; }
none() { [ "$(sessions)" = 0 ]; }
clean() { ! grep -q 'WARNING: ThreadSanitizer' "$1"; }
t_on_fail() { grep -m 3 -A 12 'WARNING: ThreadSanitizer' "$w/out" | sed 's/^/    /'; tail -3 "$w/out" | sed 's/^/    /'; }
P="--db-driver=pgsql --pgsql-host=$BENCH_PG_HOST --pgsql-port=$BENCH_PG_PORT --pgsql-user=scram --pgsql-password=scrampw --pgsql-db=benchtest --tables=2 --table-size=1000"
# shellcheck disable=SC2086 # the options split into words on purpose
"$B" oltp_read_write $P prepare >"$w/out" 2>&1
rc=$?
check "prepare: exit 0 ($rc), no report" '[ $rc = 0 ] && clean "$w/out"'

# (a) 30 clients on 2 loops over TLS with SCRAM and the pipeline, 2 s
# shellcheck disable=SC2086
"$B" oltp_read_write $P --threads=30 --event-loops=2 --time=2 --pgsql-pipeline=on --pgsql-sslmode=require run >"$w/out" 2>&1
rc=$?
check "30 clients, 2 loops, TLS, pipeline: exit 0 ($rc), transactions, no report" \
    '[ $rc = 0 ] && grep -qE "^ +transactions: +[1-9]" "$w/out" && clean "$w/out"'
t_wait 20 none || bad "30 clients: $(sessions) sessions left"

# (b) SIGINT once the first client is in and (c) once all 30 are: exit 1, no report, no
# session left
for want in 1 30; do
    # shellcheck disable=SC2086
    "$B" oltp_read_write $P --threads=30 --event-loops=2 --time=120 --pgsql-sslmode=require run >"$w/out" 2>&1 &
    bp=$!
    t_wait 120 at_least $want || bad "SIGINT at $want sessions: never seen ($(sessions))"
    kill -INT $bp
    wait $bp
    rc=$? bp=""
    check "SIGINT at >= $want sessions: exit 1 ($rc), no report" '[ $rc = 1 ] && clean "$w/out"'
    t_wait 20 none || bad "SIGINT at >= $want sessions: $(sessions) sessions left"
done
"$B" oltp_read_write $P cleanup >/dev/null 2>&1
t_summary
