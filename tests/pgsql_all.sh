#!/bin/sh
# The one-liner (`bench oltp`) and `bench all`'s database section on PostgreSQL (issue 32),
# against Debian's PostgreSQL 15 started by tests/postgres.sh (its own directory and port):
# the one-liner selected by --db-driver=pgsql with libpq's environment (PGHOST, PGPORT, PGUSER,
# PGPASSWORD, PGDATABASE), by a postgres:// URL and by --pgsql-* options with ~/.pgpass; its
# ladder names a knee or says it is still rising, its events equal the server's xact_commit
# delta within the statements of its own setup, it leaves pg_namespace and pg_class as they
# were, and refuses a schema it did not create (the user's table in it untouched); a wrong
# PGPASSWORD, a URL's unknown database and a .pgpass with loose permissions reach the server
# (or not) as psql sees them. `bench all --quick` against the server: the page's settings are
# SHOW's words, the recommendations PGTune's rules computed here from /proc/meminfo, nproc
# and the --dir disk's rotational flag, the page <= 60 lines, nothing left behind. A SIGINT
# during the one-liner's ladder still drops its schema. The sysbench persona beside Debian's
# sysbench: PGUSER/PGDATABASE unread, PGSSLMODE/PGSSLROOTCERT read.
# Needs postgresql-15 and openssl (tests/setup.sh); exits 77 without them. About 60 s.
# shellcheck disable=SC2086,SC2016,SC2015 # option lists split into words; check evals its quoted test; ok || bad
set -u
t_name=pgsql-all
. "$(dirname "$0")/lib.sh"
[ -x /usr/lib/postgresql/15/bin/initdb ] && command -v openssl >/dev/null ||
    { echo "pgsql-all: SKIP: needs postgresql-15 and openssl"; exit 77; }
pgdir=$(mktemp -d /tmp/bench-pga.XXXXXX)
t_at_exit() { sh "$here/postgres.sh" stop "$pgdir"; rm -rf "$pgdir"; }
env=$(sh "$here/postgres.sh" start "$pgdir" "${PGSQL_ALL_PORT:-$((28100 + $$ % 800))}") ||
    { echo "pgsql-all: FAIL: the PostgreSQL test server did not start"; exit 1; }
eval "$env"
export HOME="$w/home"
mkdir -p "$HOME" "$w/dir"
unset PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PGSSLMODE PGSSLROOTCERT PGCHANNELBINDING PGPASSFILE PGCONNECT_TIMEOUT PGAPPNAME
PSQL=/usr/lib/postgresql/15/bin/psql
Q() { "$PSQL" -X -q -At -h "$BENCH_PG_SOCKDIR" -p "$BENCH_PG_PORT" -U postgres -d benchtest -c "$1"; }
# the scram user may create a schema in benchtest (the least privilege the one-liner needs)
Q "GRANT CREATE ON DATABASE benchtest TO scram" || { echo "pgsql-all: FAIL: grant"; exit 1; }
t_on_fail() { sed 's/^/    /' "$w/out" | tail -12; }
# every schema and relation by name (temporary ones aside): what the runs must leave as found
objects() { Q "SELECT n.nspname || '.' || coalesce(c.relname, '') FROM pg_namespace n LEFT JOIN pg_class c ON c.relnamespace = n.oid WHERE n.nspname NOT LIKE 'pg_temp%' AND n.nspname NOT LIKE 'pg_toast_temp%' ORDER BY 1"; }
# (read from the database postgres: the polling itself commits nothing in benchtest)
commits() { "$PSQL" -X -q -At -h "$BENCH_PG_SOCKDIR" -p "$BENCH_PG_PORT" -U postgres -d postgres -c "SELECT xact_commit FROM pg_stat_database WHERE datname = 'benchtest'"; }
# the server's counter once every backend of the run has reported (they do as they exit)
settled() { [ "$(commits)" -ge "$1" ]; }
L="--step-time=1 --max-threads=4 --tables=2 --table-size=1000"

objects >"$w/before"

# 1. PG* environment (no connection option: --db-driver=pgsql selects PostgreSQL), JSON
c0=$(commits)
PGHOST=$BENCH_PG_HOST PGPORT=$BENCH_PG_PORT PGUSER=scram PGPASSWORD=scrampw PGDATABASE=benchtest \
    $B oltp --db-driver=pgsql $L --format=json >"$w/env.json" 2>"$w/out"
rc=$?
check "env: exit 0 ($rc)" '[ $rc = 0 ]'
tail -1 "$w/env.json" >"$w/env.doc"
events=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["facts"]["server_kind"] == "PostgreSQL" and d["facts"]["schema"] == "bench", d["facts"]
print(sum(s["results"]["events"] for s in d["steps"]))' "$w/env.doc") || events=0
check "env: the ladder ran (events $events)" '[ "$events" -gt 100 ]'
check "env: the server is the test's (schema in benchtest)" 'grep -q "created schema .bench. in database .benchtest. on $BENCH_PG_HOST:$BENCH_PG_PORT" "$w/env.json"'
# a knee for each workload, or the ladder says it is still rising: one of the two, always
python3 - "$w/env.doc" >"$w/knees" <<'EOF' && ok || bad "env: each workload names a knee or still_rising: $(cat "$w/knees")"
import json, sys
f = json.load(open(sys.argv[1]))["facts"]
for wl in ("oltp_point_select", "oltp_read_write"):
    knee = f.get(wl + "_knee_threads")
    print(wl, knee, f.get(wl + "_still_rising"))
    assert (knee is not None) != bool(f[wl + "_still_rising"]), wl
    assert knee is None or knee in (1, 2, 4), knee
EOF
t_wait 20 settled $((c0 + events)) || true
c1=$(commits)
# every event is one commit (a read_write transaction, or a point select's implicit one);
# beside them only the setup's: schema, tables, COPY, index, marks, each connection's
# prepared statements and the cleanup (measured 201 with rungs of 1, 2, 4 threads)
check "env: xact_commit delta $((c1 - c0)) = events $events + the setup's (<= 400)" \
    '[ $((c1 - c0)) -ge "$events" ] && [ $((c1 - c0 - events)) -le 400 ]'
objects >"$w/after"
check "env: pg_namespace and pg_class as before" 'cmp -s "$w/before" "$w/after"'

# 2. a wrong PGPASSWORD: the server's words, as the test's own psql gets them
PGPASSWORD=Wr0ngPw "$PSQL" -X -h "$BENCH_PG_HOST" -p "$BENCH_PG_PORT" -U scram -d benchtest -c "SELECT 1" >"$w/psql.out" 2>&1
said=$(sed -n 's/.*FATAL:  \(password authentication failed for user "scram"\).*/\1/p' "$w/psql.out" | head -1)
PGHOST=$BENCH_PG_HOST PGPORT=$BENCH_PG_PORT PGUSER=scram PGPASSWORD=Wr0ngPw PGDATABASE=benchtest \
    $B oltp --db-driver=pgsql $L >"$w/out" 2>&1
rc=$?
check "wrong PGPASSWORD: exit 3 ($rc)" '[ $rc = 3 ]'
check "wrong PGPASSWORD: psql's FATAL ($said) verbatim, SQLSTATE 28P01" \
    '[ -n "$said" ] && grep -q "FATAL:  $said (SQLSTATE 28P01)" "$w/out"'
check "wrong PGPASSWORD: where it came from" 'grep -q "the password came from PGPASSWORD" "$w/out"'
check "wrong PGPASSWORD: never shown" '! grep -q Wr0ngPw "$w/out"'

# 3. a postgres:// URL: its database reaches the server (psql's words for one that is not there)
"$PSQL" -X "postgres://trustu@$BENCH_PG_HOST:$BENCH_PG_PORT/nosuchdb" -c "SELECT 1" >"$w/psql.out" 2>&1
said=$(sed -n 's/.*FATAL:  \(database "nosuchdb" does not exist\).*/\1/p' "$w/psql.out" | head -1)
$B oltp --pgsql-url="postgres://trustu@$BENCH_PG_HOST:$BENCH_PG_PORT/nosuchdb" $L >"$w/out" 2>&1
rc=$?
check "URL: exit 3 ($rc), psql's FATAL ($said) verbatim" \
    '[ $rc = 3 ] && [ -n "$said" ] && grep -q "FATAL:  $said (SQLSTATE 3D000)" "$w/out"'

# 4. --pgsql-* options and ~/.pgpass (0600: read; 0644: ignored with libpq's warning)
printf '%s:%s:benchtest:scram:scrampw\n' "$BENCH_PG_HOST" "$BENCH_PG_PORT" >"$HOME/.pgpass"
chmod 600 "$HOME/.pgpass"
c0=$(commits)
$B oltp --pgsql-host="$BENCH_PG_HOST" --pgsql-port="$BENCH_PG_PORT" --pgsql-user=scram \
    --pgsql-db=benchtest --step-time=1 --max-threads=2 --tables=1 --table-size=1000 >"$w/out" 2>&1
rc=$?
check "pgpass 0600: exit 0 ($rc), dropped its schema" '[ $rc = 0 ] && grep -q "dropped schema .bench." "$w/out"'
check "pgpass 0600: the table and knee lines" 'grep -qE "^oltp_read_write +[0-9]+ " "$w/out"'
chmod 644 "$HOME/.pgpass"
$B oltp --pgsql-host="$BENCH_PG_HOST" --pgsql-port="$BENCH_PG_PORT" --pgsql-user=scram \
    --pgsql-db=benchtest $L >"$w/out" 2>&1
rc=$?
check "pgpass 0644: libpq's warning, no password: exit 3 ($rc)" \
    '[ $rc = 3 ] && grep -q "has group or world access" "$w/out" && grep -q "password: no" "$w/out"'
rm -f "$HOME/.pgpass"
objects >"$w/after"
check "pgpass: pg_namespace and pg_class as before" 'cmp -s "$w/before" "$w/after"'

# 5. a schema 'bench' bench did not create: refused, the user's table in it untouched
Q "CREATE SCHEMA bench; CREATE TABLE bench.sbtest1 (id int); INSERT INTO bench.sbtest1 VALUES (7)"
$B oltp --pgsql-host="$BENCH_PG_HOST" --pgsql-port="$BENCH_PG_PORT" --pgsql-user=postgres \
    --pgsql-db=benchtest $L >"$w/out" 2>&1
rc=$?
check "not ours: exit 3 ($rc), the server's 42P06" \
    '[ $rc = 3 ] && grep -q "schema \"bench\" already exists (SQLSTATE 42P06)" "$w/out"'
check "not ours: the hint" 'grep -q "never touches one that exists" "$w/out"'
check "not ours: the user's schema and row stay" '[ "$(Q "SELECT id FROM bench.sbtest1")" = 7 ]'
check "not ours: nothing dropped" '! grep -q "dropped" "$w/out"'
Q "SET client_min_messages = warning; DROP SCHEMA bench CASCADE"

# 5b. SIGINT during the ladder: exit 1, the schema still dropped (the cleanup is not cut by
# the signal that ended the run)
$B oltp --pgsql-host="$BENCH_PG_HOST" --pgsql-port="$BENCH_PG_PORT" --pgsql-user=postgres \
    --pgsql-db=benchtest --step-time=3 --max-threads=4 --tables=1 --table-size=1000 >"$w/out" 2>&1 &
bp=$!
t_wait 30 grep -q "threads:" "$w/out" || bad "SIGINT: no rung started"
kill -INT $bp
wait $bp
rc=$?
check "SIGINT: exit 1 ($rc), the schema dropped" '[ $rc = 1 ] && grep -q "dropped schema .bench." "$w/out"'
objects >"$w/after"
check "SIGINT: pg_namespace and pg_class as before" 'cmp -s "$w/before" "$w/after"'

# 5d. a table the user puts into bench's schema during the run: kept with its row; bench's
# tables dropped, the schema left and its comment no longer bench's mark (no later hint calls
# it a leftover to drop: the review found the mark kept, and DROP ... CASCADE advised)
$B oltp --pgsql-host="$BENCH_PG_HOST" --pgsql-port="$BENCH_PG_PORT" --pgsql-user=postgres \
    --pgsql-db=benchtest --step-time=2 --max-threads=2 --tables=2 --table-size=1000 >"$w/out" 2>&1 &
bp=$!
t_wait 30 grep -q "threads:" "$w/out" || bad "foreign object: no rung started"
Q "CREATE TABLE bench.mine (x int); INSERT INTO bench.mine VALUES (7)"
wait $bp
rc=$?
check "foreign object: exit 0 ($rc), said" \
    '[ $rc = 0 ] && grep -q "schema .bench. holds objects bench did not create: bench.s tables dropped" "$w/out"'
check "foreign object: the user's table and row stay, bench's tables gone" \
    '[ "$(Q "SELECT x FROM bench.mine")" = 7 ] && [ "$(Q "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '"'bench'"' AND c.relname LIKE '"'sbtest%'"'")" = 0 ]'
check "foreign object: the schema's comment is no longer bench's mark" \
    '[ "$(Q "SELECT obj_description(oid, '"'pg_namespace'"') FROM pg_namespace WHERE nspname = '"'bench'"'")" = "created by bench; holds objects bench did not create" ]'
Q "SET client_min_messages = warning; DROP SCHEMA bench CASCADE"

# 5c. the sysbench persona keeps sysbench 1.0.20's defaults: PGUSER and PGDATABASE are not
# read (sysbench hands 'sbtest' to libpq), PGSSLMODE and PGSSLROOTCERT are; beside Debian's
# sysbench, which must say the same (the server's words for user sbtest; a verify failure)
if command -v sysbench >/dev/null; then
    SB="oltp_point_select --db-driver=pgsql --pgsql-host=$BENCH_PG_HOST --pgsql-port=$BENCH_PG_PORT --time=1 run"
    for who in sysbench bench; do
        [ $who = bench ] && cmd=$B || cmd=sysbench
        PGUSER=trustu PGDATABASE=benchtest $cmd $SB >"$w/$who.user" 2>&1
        PGSSLMODE=verify-full PGSSLROOTCERT=$BENCH_PG_OTHER_CA PGUSER=trustu $cmd $SB >"$w/$who.ssl" 2>&1
    done
    cp "$w/bench.user" "$w/out"
    check "persona: PGUSER/PGDATABASE unread, as sysbench" \
        'grep -q "user \"sbtest\", database \"sbtest\"" "$w/sysbench.user" && grep -q "user \"sbtest\", database \"sbtest\"" "$w/bench.user"'
    cp "$w/bench.ssl" "$w/out"
    check "persona: PGSSLMODE=verify-full and PGSSLROOTCERT read, as sysbench" \
        'grep -q "certificate verify failed" "$w/sysbench.ssl" && grep -q "did not verify (sslmode=verify-full)" "$w/bench.ssl"'
else
    echo "pgsql-all: SKIP: the persona's PG* cases: sysbench is not installed (tests/setup.sh)"
fi

# 6. bench all --quick on the server: the settings against SHOW and PGTune's rules
t0=$(date +%s)
$B all --quick --dir="$w/dir" --pgsql-url="postgres://postgres@$BENCH_PG_HOST:$BENCH_PG_PORT/benchtest" \
    >"$w/page" 2>"$w/out"
rc=$?
t1=$(date +%s)
# about 45 s (its quick steps, then the ladder's budget of 20 s); 60 s on a loaded host
check "all: exit 0, 4 or 5 ($rc), in $((t1 - t0)) s (< 90)" \
    '{ [ $rc = 0 ] || [ $rc = 4 ] || [ $rc = 5 ]; } && [ $((t1 - t0)) -lt 90 ]'
check "all: the page <= 60 lines ($(wc -l <"$w/page"))" '[ "$(wc -l <"$w/page")" -le 60 ]'
check "all: the DATABASE lines (SHOW's values, the ladder's schema and knee)" \
    'grep -qE "^DATABASE  $BENCH_PG_HOST:$BENCH_PG_PORT, PostgreSQL 15\.[0-9]+: ping p50" "$w/page" &&
     grep -q "^          shared_buffers 16MB, effective_cache_size 4GB, work_mem 4MB, max_connections 50$" "$w/page" &&
     grep -qE "^          fsync off, synchronous_commit on; OLTP in .bench_all.: knee [0-9-]+ threads" "$w/page"'
for v in shared_buffers effective_cache_size work_mem maintenance_work_mem max_connections \
    wal_buffers max_wal_size checkpoint_timeout checkpoint_completion_target fsync \
    synchronous_commit full_page_writes random_page_cost effective_io_concurrency; do
    Q "SHOW $v" | sed "s/^/$v /"
done >"$w/show"
nproc >"$w/nproc"
python3 - "$w/show" "$w/page" "$(cat "$w/nproc")" "$w/dir" >"$w/pyout" 2>&1 <<'EOF' && ok || { bad "all: settings vs SHOW and PGTune"; sed 's/^/    /' "$w/pyout"; }
import os, re, sys
show, page, ncpu, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
shown = dict(l.rstrip("\n").split(" ", 1) for l in open(show))
assert len(shown) == 14, shown
lines = open(page).read().splitlines()
rows, names, more = {}, [], 0
for l in lines:                 # "  as recommended: a, b, c, +N more"
    if l.startswith("  as recommended: "):
        for n in l[18:].split(", "):
            m = re.fullmatch(r"\+(\d+) more", n)
            if m:
                more = int(m.group(1))
            else:
                names.append(n)
for k, v in shown.items():
    row = [l for l in lines if re.match(r"  %s +\S+ +\S+ +PG" % k, l)]
    if row:                     # the page's row: the value, and SHOW's words as current
        value, cur = row[0].split()[1:3]
        assert cur == v, (k, cur, v)
        rows[k] = value
assert len(rows) + len(names) + more == 14 and not set(rows) & set(names), (rows, names, more)
assert set(names) <= set(shown), names
# PGTune (OLTP, Linux) from /proc/meminfo (a lower cgroup limit wins), nproc, the disk
kb = int([l for l in open("/proc/meminfo") if l.startswith("MemTotal:")][0].split()[1])
try:
    lim = open("/sys/fs/cgroup/memory.max").read().strip()
    if lim != "max" and int(lim) // 1024 < kb:
        kb = int(lim) // 1024
except OSError:
    pass
def size(x):
    x = int(x)
    if x >= 1048576 and x % 1048576 == 0: return "%dGB" % (x // 1048576)
    if x >= 1024 and x % 1024 == 0: return "%dMB" % (x // 1024)
    return "%dkB" % x
sb = kb // 4
workers = ncpu if ncpu >= 4 else 8
mc = int(shown["max_connections"])
wal = 3 * sb // 100
wal = 16384 if wal > 14336 else max(wal, 32)
st = os.stat(d)
sysd = "/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
rq = sysd + "/queue/rotational"
if not os.path.exists(rq):
    rq = os.path.realpath(sysd) + "/../queue/rotational"
rot = open(rq).read().strip() == "1"
nvme = not rot and os.path.basename(os.path.realpath(sysd)).startswith("nvme")
want = {"shared_buffers": size(sb), "effective_cache_size": size(kb * 3 // 4),
        "work_mem": size(max((kb - sb) // ((mc + workers) * 3), 4096)),
        "maintenance_work_mem": size(min(kb // 16, 8388608)), "wal_buffers": size(wal),
        "max_connections": str(mc), "max_wal_size": "8GB", "checkpoint_timeout": "5min",
        "checkpoint_completion_target": "0.9", "fsync": "on", "synchronous_commit": "on",
        "full_page_writes": "on", "random_page_cost": "4" if rot else "1.1",
        "effective_io_concurrency": "2" if rot else "1000" if nvme else "200"}
for k, v in want.items():        # a row shows the rule's value; the rest are at it already
    assert rows[k] == v if k in rows else shown[k] == v, (k, rows.get(k), shown[k], v)
print("ok", kb, ncpu, rot, rows, names, more)
EOF
objects >"$w/after"
check "all: pg_namespace and pg_class as before" 'cmp -s "$w/before" "$w/after"'
t_summary
