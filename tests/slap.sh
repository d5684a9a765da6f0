#!/bin/sh
# bench slap (mysqlslap mode, issue 12) against the suite's MariaDB (run.sh exports BENCH_MY_*;
# run alone, it starts its own): --only-print's statement stream byte for byte against
# Debian's mariadb-slap on the same options (the generated SQL comes from glibc random()
# unseeded in both), the shape of a real run and of --csv against mariadb-slap's (times
# masked), the refusal to drop a schema it did not create (with data in it), a failing query
# (the server's error, exit 1), CALL of a procedure with two result sets, bench as mysqlslap.
set -u
t_name=slap
. "$(dirname "$0")/lib.sh"
command -v mariadb-slap >/dev/null || { echo "slap: SKIP: mariadb-slap not installed"; exit 77; }
own=
t_at_exit() { [ -z "$own" ] || sh "$top/tests/mariadb.sh" stop "$own"; }
if [ -z "${BENCH_MY_PORT:-}" ]; then
    own=$w/mdb
    eval "$(sh "$top/tests/mariadb.sh" start "$own" "${SLAP_PORT:-26650}")" || exit 77
fi
ROOT="mariadb --no-defaults -uroot -S $BENCH_MY_SOCK"
C="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --skip-ssl"

# 1. --only-print: no server, the same statements in the same order (one client: the stream
#    of several clients is compared sorted, mariadb-slap's threads interleave it)
printf 'SELECT 1\n\nSELECT 2\n\n\nSELECT 3\n' >"$w/q.sql"
only() { # only SORT ARGS...
    s=$1; shift
    mariadb-slap --only-print "$@" >"$w/ref" 2>&1; echo "exit $?" >>"$w/ref"
    "$B" slap --only-print "$@" >"$w/our" 2>&1; echo "exit $?" >>"$w/our"
    if [ "$s" = sort ]; then sort -o "$w/ref" "$w/ref"; sort -o "$w/our" "$w/our"; fi
    if cmp -s "$w/ref" "$w/our"; then ok; else bad "--only-print $*"; diff "$w/ref" "$w/our" | head -6 | cut -c1-160; fi
}
only - -a
only - -a -y 2:1 -x 3:1 --auto-generate-sql-unique-write-number=3 --auto-generate-sql-write-number=7
only - -a --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=key --auto-generate-sql-unique-query-number=2 --commit=2 --number-of-queries=5 --pre-query="SELECT 1" --post-query="SELECT 2" -e innodb,memory:max_rows=100 -i 2
only - -a --auto-generate-sql-guid-primary --auto-generate-sql-secondary-indexes=2 --auto-generate-sql-load-type=update
only - -a --auto-generate-sql-load-type=read -y 0 -x 2 --auto-generate-sql-execute-number=15
only - -a --auto-generate-sql-load-type=write --create-schema=other --no-drop
only - -a --auto-generate-sql-guid-primary --auto-generate-sql-load-type=key -y 0 -x 0
only - -a -vv --auto-generate-sql-write-number=2 --auto-generate-sql-add-autoincrement
only - -q "$w/q.sql"
only - -q "SELECT 1" -vvv -i 2 --commit=1
only - -a -vv --auto-generate-sql-write-number=1 --auto-generate-sql-unique-query-number=0
only sort -q "SELECT 1" -vvv -c 3
only - -q "SELECT 1;;SELECT 2" --delimiter=";" --number-of-queries=3
only - --create="CREATE TABLE a(a int);INSERT INTO a VALUES (1)" --delimiter=";" -e innodb -q "SELECT * FROM a"
only sort -a -c 3,2 --detach=2 --commit=3 --number-of-queries=9
only sort -a --concurrency=2 --iterations=2 --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=mixed
# issue 29 (coverage of slap_): the generated SQL's column lists at their edges (no columns, INT
# columns only, VARCHAR ones only) for each statement kind, keyed or not
only - -a --auto-generate-sql-add-autoincrement -y 0 -x 0 --auto-generate-sql-load-type=write
only - -a -y 2 -x 0 --auto-generate-sql-load-type=update
only - -a --auto-generate-sql-add-autoincrement -y 3 -x 0 --auto-generate-sql-load-type=update
only - -a -y 0 -x 2 --auto-generate-sql-load-type=update --auto-generate-sql-guid-primary
only - -a -y 2 -x 0 --auto-generate-sql-load-type=read
only - -a -y 2:1 -x 0 --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=mixed
only - -a -y 0 -x 0 --auto-generate-sql-load-type=update
# as mysqlslap (a symlink): the same stream
ln -s "$B" "$w/mysqlslap"
"$w/mysqlslap" --only-print -a -c 1 -i 2 >"$w/our" 2>&1
mariadb-slap --only-print -a -c 1 -i 2 >"$w/ref" 2>&1
if cmp -s "$w/ref" "$w/our"; then ok; else bad "mysqlslap --only-print -a"; fi

# 2. real runs: the output's shape (times masked) and --csv's, against mariadb-slap's
mask() { sed -E 's/[0-9]+\.[0-9]{3}/T.TTT/g' "$1"; }
$ROOT -e "DROP DATABASE IF EXISTS mysqlslap"
shape() { # shape ARGS...
    mariadb-slap $C "$@" >"$w/ref" 2>&1; echo "exit $?" >>"$w/ref"
    "$B" slap $C "$@" >"$w/our" 2>&1; echo "exit $?" >>"$w/our"
    if [ "$(mask "$w/ref")" = "$(mask "$w/our")" ]; then ok; else bad "shape of a run: $*"; diff "$w/ref" "$w/our" | head -10; fi
}
shape -a -c 2,4 -i 2 --number-of-queries=100
shape -a -c 3 -e innodb,memory --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=key --number-of-queries=60 --commit=4
shape -a -c 2 --auto-generate-sql-guid-primary --auto-generate-sql-load-type=update --detach=3 --auto-generate-sql-execute-number=10
shape -a -c 1,2 --csv
shape -a -c 2 -i 2 --csv="$w/out.csv"
shape -a -s
if [ "$(sed -E 's/[0-9]+\.[0-9]{3}/T/g' "$w/out.csv" | sort -u)" = ",mixed,T,T,T,2,0" ]; then ok; else bad "--csv=FILE: $(cat "$w/out.csv")"; fi
if [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'mysqlslap'")" ]; then ok; else bad "the schema was left behind"; fi
# -vvv: "connected!" once per client, not again on a --detach reconnect (times masked)
$ROOT -e "CREATE DATABASE IF NOT EXISTS slapq"
shape --create-schema=slapq -q "SELECT 1" -vvv --detach=1 --number-of-queries=3
$ROOT -e "DROP DATABASE slapq"
# the server counts the queries bench says it ran (every client its share, twice)
q0=$($ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2)
$ROOT -e "CREATE DATABASE slapq"
"$B" slap $C --create-schema=slapq -q "SELECT 1" -c 4 -i 2 --number-of-queries=100 >"$w/our" 2>&1 || bad "a --query run failed: $(cat "$w/our")"
q1=$($ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2)
if [ $((q1 - q0)) = 200 ]; then ok; else bad "--number-of-queries=100 -c 4 -i 2: the server counted $((q1 - q0)) SELECTs, not 200"; fi
if grep -q "Average number of queries per client: 25" "$w/our"; then ok; else bad "queries per client: $(cat "$w/our")"; fi
# the statistics from the per-iteration times (tests/oracle_slap.py, from the docs): each
# iteration's pre-query bumps a counter that its timed query sleeps by (40, 10, 30 ms): the
# smallest in the middle, the largest first, the last neither; two blocks (-c 1,2) of three
# iterations, and one iteration alone
$ROOT -e "CREATE TABLE slapq.t (n int); INSERT INTO slapq.t VALUES (0)"
oslap() { "$B" slap $C --create-schema=slapq --pre-query="UPDATE slapq.t SET n=n+1" --format=json "$@"; }
oslap -q "SELECT SLEEP(ELT((n - 1) % 3 + 1, 0.04, 0.01, 0.03)) FROM t" -c 1,2 -i 3 >"$w/or3.json" 2>"$w/or.err" &&
    python3 "$top/tests/oracle_slap.py" "$w/or3.json" 2 3 && ok || bad "slap's avg/min/max against its iterations (-c 1,2 -i 3): $(head -c 300 "$w/or.err")"
oslap -q "SELECT SLEEP(0.005) FROM t" -i 1 >"$w/or1.json" 2>"$w/or.err" &&
    python3 "$top/tests/oracle_slap.py" "$w/or1.json" 1 1 && ok || bad "slap's avg/min/max of one iteration: $(head -c 300 "$w/or.err")"

# as mariadb-slap (a symlink), the client's long options with their value in the next word
ln -s "$B" "$w/mariadb-slap"
"$w/mariadb-slap" --no-defaults --host 127.0.0.1 --port "$BENCH_MY_PORT" --user nat -psecret --skip-ssl --create-schema slapq -q "SELECT 1" -c 2 >"$w/our" 2>&1
if grep -q "Number of clients running queries: 2" "$w/our"; then ok; else bad "mariadb-slap --host H --port P: $(cat "$w/our")"; fi

# 3. the data-loss trap: -a on an existing schema holding data is refused, exit 3, data kept
$ROOT -e "DROP DATABASE IF EXISTS slapkeep; CREATE DATABASE slapkeep; CREATE TABLE slapkeep.t (a int); INSERT INTO slapkeep.t VALUES (1),(2),(3)"
"$B" slap $C --create-schema=slapkeep -a >"$w/out" 2>"$w/err"; rc=$?
if [ $rc = 3 ] && [ "$($ROOT -N -e "SELECT COUNT(*) FROM slapkeep.t")" = 3 ]; then ok; else bad "-a on an existing schema: exit $rc, rows left: $($ROOT -N -e "SELECT COUNT(*) FROM slapkeep.t" 2>&1)"; fi
if grep -q "refusing to drop schema \`slapkeep\`: it exists (1 table) and was not created by this run" "$w/err" && ! [ -s "$w/out" ]; then ok; else bad "refusal message: $(cat "$w/err")"; fi
"$B" slap $C --create-schema=slapkeep --create="CREATE TABLE x (a int)" -q "SELECT 1" >/dev/null 2>&1; rc=$?
if [ $rc = 3 ] && [ "$($ROOT -N -e "SELECT COUNT(*) FROM slapkeep.t")" = 3 ]; then ok; else bad "--create on an existing schema: exit $rc"; fi
# --query alone runs on it and leaves it
"$B" slap $C --create-schema=slapkeep -q "SELECT * FROM t" -c 2 >/dev/null 2>&1; rc=$?
if [ $rc = 0 ] && [ "$($ROOT -N -e "SELECT COUNT(*) FROM slapkeep.t")" = 3 ]; then ok; else bad "--query on an existing schema: exit $rc"; fi
# --no-drop on an existing schema: the server's refusal of CREATE SCHEMA, exit 1 (as mysqlslap)
"$B" slap $C --create-schema=slapkeep -a --no-drop >/dev/null 2>"$w/err"; rc=$?
if [ $rc = 1 ] && grep -q "ERROR 1007 (HY000): Can't create database 'slapkeep'; database exists" "$w/err"; then ok; else bad "--no-drop on an existing schema: exit $rc: $(cat "$w/err")"; fi

# a backtick in --create-schema stays in the name (doubled), never ends it: no second statement
"$B" slap $C -a --create-schema='x`; DROP DATABASE slapkeep; -- ' >/dev/null 2>&1
if [ "$($ROOT -N -e "SELECT COUNT(*) FROM slapkeep.t" 2>&1)" = 3 ]; then ok; else bad "a backtick in --create-schema dropped slapkeep"; fi
"$B" slap $C --create-schema=slapkeep -q "SELECT 1" --sql-mode='ANSI`; DROP DATABASE slapkeep; -- ' >/dev/null 2>&1
if [ "$($ROOT -N -e "SELECT COUNT(*) FROM slapkeep.t" 2>&1)" = 3 ]; then ok; else bad "a backtick in --sql-mode dropped slapkeep"; fi
"$B" slap $C -a --create-schema='sl`ap' >/dev/null 2>&1; rc=$?
if [ $rc = 0 ] && [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'sl\`ap'")" ]; then ok; else bad "--create-schema='sl\`ap': exit $rc, or left behind"; fi

# a schema made by another client between bench's check and its DDL is not dropped: a proxy
# runs that client's CREATE just before it forwards bench's first DROP/CREATE SCHEMA
cat >"$w/race.py" <<'EOF'
import socket, subprocess, sys, threading
fired = []
def pipe(a, b, hook):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            if hook and not fired and (b"DROP SCHEMA" in d or b"CREATE SCHEMA" in d):
                fired.append(subprocess.run(sys.argv[2], shell=True))
            b.sendall(d)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
ls = socket.socket()
ls.bind(("127.0.0.1", 0))
ls.listen(16)
print(ls.getsockname()[1], flush=True)
while True:
    c, _ = ls.accept()
    u = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    threading.Thread(target=pipe, args=(c, u, True), daemon=True).start()
    threading.Thread(target=pipe, args=(u, c, False), daemon=True).start()
EOF
python3 "$w/race.py" "$BENCH_MY_PORT" "$ROOT -e 'CREATE DATABASE slaprace; CREATE TABLE slaprace.t (a int); INSERT INTO slaprace.t VALUES (1)'" >"$w/race.port" &
rp=$!
i=0; while [ ! -s "$w/race.port" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
"$B" slap --no-defaults -h 127.0.0.1 -P "$(cat "$w/race.port")" -u nat -psecret --skip-ssl -a --create-schema=slaprace >/dev/null 2>"$w/err"; rc=$?
kill $rp; wait $rp 2>/dev/null
if [ $rc = 1 ] && [ "$($ROOT -N -e "SELECT COUNT(*) FROM slaprace.t" 2>&1)" = 1 ] && grep -q "ERROR 1007" "$w/err"; then ok; else bad "a schema made between the check and the DROP: exit $rc, $($ROOT -N -e "SELECT COUNT(*) FROM slaprace.t" 2>&1)"; fi
$ROOT -e "DROP DATABASE IF EXISTS slaprace"

# Ctrl-C: no further iteration (each a drop, create and pre-load) after it; exit 1; the schema
# this run created is dropped, one it did not create stays
"$B" slap $C -a -c 2 -i 400 --number-of-queries=4000 >/dev/null 2>"$w/err" &
sp=$!
sleep 1.5; kill -INT $sp; t0=$(date +%s); wait $sp; rc=$?; t1=$(date +%s)
if [ $rc = 1 ] && [ $((t1 - t0)) -le 2 ] && [ "$(grep -c . "$w/err")" = 1 ] && grep -q "^bench: slap: \(.*: \)\{0,1\}interrupted by SIGINT$" "$w/err" && ! grep -q "client [0-9]*: interrupted" "$w/err" && [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'mysqlslap'")" ]; then ok; else bad "Ctrl-C in -i 400: exit $rc after $((t1 - t0)) s: $(cat "$w/err")"; fi
"$B" slap $C --create-schema=slapkeep -q "SELECT SLEEP(0.01)" -c 2 --number-of-queries=100000 >/dev/null 2>&1 &
sp=$!
sleep 1; kill -INT $sp; wait $sp; rc=$?
if [ $rc = 1 ] && [ "$($ROOT -N -e "SELECT COUNT(*) FROM slapkeep.t")" = 3 ]; then ok; else bad "Ctrl-C in a --query run: exit $rc, or slapkeep changed"; fi

# 4. a failing query: the server's error verbatim, exit 1 (mysqlslap exits 0)
"$B" slap $C --create-schema=slapkeep -q "SELECT * FROM nosuch" -c 3 >"$w/out" 2>"$w/err"; rc=$?
if [ $rc = 1 ] && grep -q "ERROR 1146 (42S02): Table 'slapkeep.nosuch' doesn't exist" "$w/err"; then ok; else bad "failing query: exit $rc: $(cat "$w/err")"; fi
# a failure in -a's run drops what this run created
"$B" slap $C -a --pre-query="SELECT * FROM nosuch" >/dev/null 2>&1; rc=$?
if [ $rc = 1 ] && [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'mysqlslap'")" ]; then ok; else bad "failing --pre-query: exit $rc, or the schema was left"; fi

# 5. CALL of a procedure with two result sets: every set consumed, the next call works
printf 'DELIMITER //\nCREATE PROCEDURE slapkeep.p2() BEGIN SELECT a FROM t; SELECT 2, 3 UNION SELECT 4, 5; END//\nDELIMITER ;\n' | $ROOT
"$B" slap $C --create-schema=slapkeep -q "CALL p2()" -c 3 --number-of-queries=30 --percentile=50,99 >"$w/out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "Average number of queries per client: 10" "$w/out" && grep -q "Latency per query (ms): .*(30 queries)" "$w/out"; then ok; else bad "CALL p2(): exit $rc: $(cat "$w/out")"; fi
mariadb-slap $C --create-schema=slapkeep -q "CALL p2()" -c 3 --number-of-queries=30 >"$w/ref" 2>&1
if [ "$(mask "$w/ref")" = "$(mask "$w/out" | grep -v 'Latency per query')" ]; then ok; else bad "CALL p2(): shape"; diff "$w/ref" "$w/out"; fi

# 6. -T: the resource usage on stderr after an empty line, as mariadb-slap
mariadb-slap --only-print -q "SELECT 1" -T 2>&1 >/dev/null | sed -E 's/[0-9.]+/N/g' >"$w/ref"
"$B" slap --only-print -q "SELECT 1" -T 2>&1 >/dev/null | sed -E 's/[0-9.]+/N/g' >"$w/our"
if cmp -s "$w/ref" "$w/our"; then ok; else bad "-T block"; diff "$w/ref" "$w/our"; fi

# 6b. the mysqlslap persona's conventions, side by side with mariadb-slap (issue 28)
$ROOT -e "CREATE DATABASE IF NOT EXISTS slapq"
#     `bench slap --help` is slap's help, not bench's
"$B" slap --help >"$w/our" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q '^slap options:$' "$w/our" && grep -q -- '--auto-generate-sql' "$w/our" && ! grep -q '^Commands:' "$w/our"; then ok; else bad "bench slap --help: exit $rc: $(head -3 "$w/our")"; fi
#     the option groups [mysqlslap] and [mariadb-slap] besides [client]: a file's lines in
#     order, the last value wins whichever group holds it (a [client] port of another server
#     before them loses, one after them wins), as mariadb-slap reads them
for g in mysqlslap mariadb-slap; do
    printf '[client]\nport=1\nuser=nat\npassword=secret\nskip-ssl\n[%s]\nport=%s\n' "$g" "$BENCH_MY_PORT" >"$w/g.cnf"
    printf '[%s]\nport=%s\n[client]\nport=1\nuser=nat\npassword=secret\n' "$g" "$BENCH_MY_PORT" >"$w/g2.cnf"
    mariadb-slap --defaults-file="$w/g.cnf" -h 127.0.0.1 --create-schema=slapq -q "SELECT 1" >"$w/ref" 2>&1
    "$B" slap --defaults-file="$w/g.cnf" -h 127.0.0.1 --create-schema=slapq -q "SELECT 1" >"$w/our" 2>&1; rc=$?
    mariadb-slap --defaults-file="$w/g2.cnf" -h 127.0.0.1 --create-schema=slapq -q "SELECT 1" >"$w/ref2" 2>&1
    "$B" slap --defaults-file="$w/g2.cnf" -h 127.0.0.1 --create-schema=slapq -q "SELECT 1" >"$w/our2" 2>&1; rc2=$?
    if [ $rc = 0 ] && grep -q "Number of clients running queries: 1" "$w/our" && grep -q "Number of clients running queries: 1" "$w/ref" &&
        [ $rc2 = 3 ] && grep -q "connecting to 127.0.0.1:1 failed: Connection refused" "$w/our2" && grep -q "Can.t connect to server on .127.0.0.1." "$w/ref2"; then ok; else bad "[$g] group: exit $rc, $rc2: $(cat "$w/our" "$w/our2") vs mariadb-slap: $(cat "$w/ref" "$w/ref2")"; fi
done
#     no user given: the login name (root for euid 0), as mariadb-slap; not sysbench's sbtest
u=$(id -un); [ "$(id -u)" = 0 ] && u=root
mariadb-slap --no-defaults -h 127.0.0.1 -P "$BENCH_MY_PORT" --skip-ssl -q "SELECT 1" >"$w/ref" 2>&1
"$B" slap --no-defaults -h 127.0.0.1 -P "$BENCH_MY_PORT" --skip-ssl -q "SELECT 1" >"$w/our" 2>&1; rc=$?
if [ $rc = 3 ] && grep -q "as '$u': ERROR 1[0-9]* (28000): Access denied for user '$u'@" "$w/our" && grep -q "Access denied for user '$u'@" "$w/ref"; then ok; else bad "the default user: exit $rc: $(cat "$w/our") vs mariadb-slap: $(cat "$w/ref")"; fi
#     -c N at the user's MAX_USER_CONNECTIONS N (the main connection is the N+1st): the
#     refused login (ERROR 1226) is tried again until a client has ended, as mariadb-slap;
#     every query runs (the server's count), threads and event loops alike
$ROOT -e "DROP USER IF EXISTS slaplim; CREATE USER slaplim IDENTIFIED BY 'limpw' WITH MAX_USER_CONNECTIONS 3; GRANT ALL ON slapq.* TO slaplim"
L="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u slaplim -plimpw --skip-ssl --create-schema=slapq -c 3 --number-of-queries=30"
mariadb-slap $L -q "SELECT 1" >"$w/ref" 2>&1; rrc=$?
for el in 0 1; do
    q0=$($ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2)
    "$B" slap $L -q "SELECT 1" --event-loops=$el >"$w/our" 2>&1; rc=$?
    q1=$($ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2)
    if [ $rc = 0 ] && [ $rrc = 0 ] && [ $((q1 - q0)) = 30 ] && [ "$(mask "$w/our")" = "$(mask "$w/ref")" ]; then ok; else bad "-c 3 at MAX_USER_CONNECTIONS 3 (--event-loops=$el): exit $rc, $((q1 - q0)) SELECTs of 30: $(cat "$w/our") vs mariadb-slap (exit $rrc): $(cat "$w/ref")"; fi
done
$ROOT -e "DROP USER slaplim"

# 7. option errors: usage, exit 2
for a in "-a -q SELECT1" "-a --auto-generate-sql-load-type=key" "-c 0 -q X" "--auto-generate-sql-guid-primary --auto-generate-sql-add-autoincrement -a" ""; do
    # shellcheck disable=SC2086
    "$B" slap --only-print $a >/dev/null 2>&1; rc=$?
    if [ $rc = 2 ]; then ok; else bad "bench slap $a: exit $rc, not 2"; fi
done

# 8. --pre-system / --post-system: sh -c each iteration, the pre one before the pre-query and
#    the post one after the post-query: each command asks the server how many rows t1 holds
#    and appends it to a file (99 pre-loaded; the pre-query adds 1, two clients 6 INSERTs
#    each); mariadb-slap's file must be the same
order() { # order FILE PROGRAM...
    f=$1; shift
    rm -f "$f"
    "$@" $C -a -c 2 -i 2 --pre-query="INSERT INTO t1 VALUES (1,'pre')" \
        --pre-system="echo pre \$($ROOT -N -e 'SELECT COUNT(*) FROM mysqlslap.t1') >>$f" \
        --post-system="echo post \$($ROOT -N -e 'SELECT COUNT(*) FROM mysqlslap.t1') >>$f" >/dev/null 2>"$f.err"
}
order "$w/order.our" "$B" slap; rc=$?
order "$w/order.ref" mariadb-slap
if [ $rc = 0 ] && [ "$(cat "$w/order.our")" = "$(printf 'pre 99\npost 112\npre 99\npost 112')" ] && cmp -s "$w/order.our" "$w/order.ref"; then ok; else bad "--pre/post-system order: exit $rc: $(cat "$w/order.our" "$w/order.err") vs mariadb-slap: $(cat "$w/order.ref")"; fi
# a failing command: named with its status, exit 1 (mariadb-slap warns and exits 0), the
# schema this run made dropped; as mysqlslap: no "slap: " in the line, exit 1
"$B" slap $C -a --pre-system="exit 3" >/dev/null 2>"$w/err"; rc=$?
if [ $rc = 1 ] && [ "$(cat "$w/err")" = "bench: slap: --pre-system 'exit 3' exited with status 3" ] && [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'mysqlslap'")" ]; then ok; else bad "failing --pre-system: exit $rc: $(cat "$w/err")"; fi
"$w/mysqlslap" $C -a --post-system='kill -9 $$' >/dev/null 2>"$w/err"; rc=$?
if [ $rc = 1 ] && [ "$(cat "$w/err")" = "mysqlslap: --post-system 'kill -9 \$\$' was killed by signal 9 (SIGKILL)" ]; then ok; else bad "killed --post-system: exit $rc: $(cat "$w/err")"; fi
# a signal without a name of slap's table: its number alone (was "(SIG?)")
"$B" slap --only-print -q "SELECT 1" --pre-system='kill -PROF $$' >/dev/null 2>"$w/err"; rc=$?
if [ $rc = 1 ] && [ "$(cat "$w/err")" = "bench: slap: --pre-system 'kill -PROF \$\$' was killed by signal $(python3 -c "import signal; print(int(signal.SIGPROF))")" ]; then ok; else bad "--pre-system killed by SIGPROF: exit $rc: $(cat "$w/err")"; fi
# --only-print runs them too, as mariadb-slap (whose buffered stdout interleaves them: sorted)
"$B" slap --only-print -q "SELECT 1" -i 2 --pre-system="echo PRE" --post-system="echo POST" >"$w/our" 2>&1
mariadb-slap --only-print -q "SELECT 1" -i 2 --pre-system="echo PRE" --post-system="echo POST" >"$w/ref" 2>&1
if [ "$(cat "$w/our")" = "$(printf 'PRE\nSELECT 1;\nPOST\nPRE\nSELECT 1;\nPOST')" ] && [ "$(sort "$w/our")" = "$(sort "$w/ref")" ]; then ok; else bad "--only-print with --pre/post-system: $(cat "$w/our")"; fi
# Ctrl-C while a --pre-system command runs: the wait wakes, the command is ended, exit 1
"$B" slap --only-print -q "SELECT 1" --pre-system="sleep 30" >/dev/null 2>"$w/err" &
sp=$!
sleep 1; kill -INT $sp; t0=$(date +%s); wait $sp; rc=$?; t1=$(date +%s)
if [ $rc = 1 ] && [ $((t1 - t0)) -le 2 ] && grep -q "pre-system 'sleep 30': interrupted by SIGINT" "$w/err"; then ok; else bad "Ctrl-C in --pre-system: exit $rc after $((t1 - t0)) s: $(cat "$w/err")"; fi
# ... and nothing the command started survives it: it runs in a process group of its own,
# which the stop ends whole (sh's background 'sleep 300' is gone too, not left to init)
alive() { [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat"; }
rm -f "$w/kid"
"$B" slap --only-print -q "SELECT 1" --pre-system="sleep 300 & echo \$! >$w/kid.t; mv $w/kid.t $w/kid; wait" >/dev/null 2>"$w/err" &
sp=$!
n=0; while [ ! -s "$w/kid" ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
kid=$(cat "$w/kid" 2>/dev/null)
kill -TERM $sp; wait $sp; rc=$?
n=0; while [ -n "$kid" ] && alive "$kid" && [ $n -lt 10 ]; do sleep 0.1; n=$((n + 1)); done
if [ $rc = 1 ] && [ -n "$kid" ] && ! alive "$kid" && grep -q "interrupted by SIGTERM" "$w/err"; then ok; else bad "--pre-system's background child after SIGTERM: exit $rc, child '$kid' $(alive "$kid" && echo alive): $(cat "$w/err")"; kill "$kid" 2>/dev/null; fi
# a command shown in a message: its first 200 bytes escaped, cut to fit with "...", never past
# its buffer (a control byte escapes to 4 characters)
x=$(printf '\001%.0s' $(seq 250))
"$B" slap --only-print -q "SELECT 1" --pre-system="false #$x" >/dev/null 2>"$w/err"; rc=$?
if [ $rc = 1 ] && [ "$(cat "$w/err")" = "bench: slap: --pre-system 'false #$(printf '\\x01%.0s' $(seq 57))...' exited with status 1" ]; then ok; else bad "--pre-system of control bytes: exit $rc: $(cut -c1-300 "$w/err")"; fi
"$B" slap --only-print -q "SELECT 1" --post-system="true #$x" >/dev/null 2>"$w/err"; rc=$?
if [ $rc = 0 ] && [ ! -s "$w/err" ]; then ok; else bad "--post-system of control bytes: exit $rc: $(cut -c1-300 "$w/err")"; fi
# --only-print into a pipe whose reader went away: said as such, no signal named
{ "$B" slap --only-print -q "SELECT 1" --number-of-queries=1000000 2>"$w/err"; echo $? >"$w/rc"; } | head -1 >/dev/null
if [ "$(cat "$w/rc")" = 1 ] && grep -q "^bench: slap: stopped: the reader of standard output went away (EPIPE)$" "$w/err" && ! grep -q SIG "$w/err"; then ok; else bad "--only-print | head -1: exit $(cat "$w/rc"): $(cat "$w/err")"; fi
# --client-index/--client-count: one option alone is the command line's usage error (exit 2;
# cli_client_check runs first); the pair is slap's (slap_clients_mh below)
"$B" slap --only-print -a --client-count=2 >"$w/our" 2>"$w/err"; rc=$?
if [ $rc = 2 ] && [ ! -s "$w/our" ] && [ "$(head -1 "$w/err")" = "bench: --client-count=2 without --client-index: say which client (0 to 1) this is" ]; then ok; else bad "slap --client-count=2: exit $rc: $(cat "$w/err")"; fi
"$B" slap --only-print -a --client-index=1 >"$w/our" 2>"$w/err"; rc=$?
if [ $rc = 2 ] && [ ! -s "$w/our" ] && [ "$(head -1 "$w/err")" = "bench: --client-index=1 without --client-count: say how many clients act as one run" ]; then ok; else bad "slap --client-index=1: exit $rc: $(cat "$w/err")"; fi

# 9. as mariadb-slap (a symlink): -V's shape, its own option errors (text and exit code), 1
#    for other failures (mariadb-slap exits 0 when a client query fails: bench 1, as the
#    bench persona); compared with Debian's mariadb-slap
[ -e "$w/mariadb-slap" ] || ln -s "$B" "$w/mariadb-slap"
#    help: bench slap says where its clients run (event loops by default); as mariadb-slap,
#    whose clients are a thread each, bench does not say so
line="The clients run on event loops (--event-loops=auto; 0: a thread each, as mysqlslap) with --event-backend; these and the connection options: 'bench --help'."
"$B" slap help >"$w/help" 2>&1; "$w/mariadb-slap" --help >"$w/phelp" 2>&1
[ "$(grep -cxF "$line" "$w/help")" = 1 ] && [ "$(grep -c 'event loops' "$w/phelp")" = 0 ] &&
    grep -q -- '--concurrency=STRING' "$w/phelp" && ok || bad "help: the clients' line in bench slap help only"
v=$("$w/mariadb-slap" -V); vr=$(mariadb-slap -V)
if [ "$(echo "$v" | sed -E 's/Distrib .*, for [^ ]+ \(/Distrib D, for S (/')" = "$(echo "$vr" | sed -E 's/Distrib .*, for [^ ]+ \(/Distrib D, for S (/')" ] && echo "$v" | grep -q "Distrib bench-"; then ok; else bad "-V: '$v' vs '$vr'"; fi
for a in "--nosuch" "--nosuch=1" "-Z" "--concurrency" "-a -c" "-h" "a b c" "--iterations=-1 -a"; do
    # shellcheck disable=SC2086
    "$w/mariadb-slap" $a >/dev/null 2>"$w/our"; rc=$?
    # shellcheck disable=SC2086
    mariadb-slap $a >/dev/null 2>"$w/ref"; rr=$?
    if [ $rc = $rr ] && [ "$(tail -n 1 "$w/our")" = "$(tail -n 1 "$w/ref")" ]; then ok; else bad "as mariadb-slap $a: exit $rc '$(cat "$w/our")' vs $rr '$(cat "$w/ref")'"; fi
done
for a in "-a -q X" "-c 0 -q X" "--only-print"; do # refused by bench: mariadb-slap's usage code 1
    # shellcheck disable=SC2086
    "$w/mariadb-slap" --only-print $a >/dev/null 2>"$w/err"; rc=$?
    if [ $rc = 1 ] && ! grep -q "slap: slap:\|: slap: " "$w/err"; then ok; else bad "as mariadb-slap $a: exit $rc: $(cat "$w/err")"; fi
done
"$w/mariadb-slap" $C --create-schema=slapkeep -q "SELECT * FROM nosuch" >/dev/null 2>"$w/err"; rc=$?
if [ $rc = 1 ] && grep -q "^mariadb-slap: client 1: ERROR 1146 (42S02)" "$w/err"; then ok; else bad "as mariadb-slap, a failing query: exit $rc: $(cat "$w/err")"; fi
"$w/mariadb-slap" -a -h 127.0.0.1 -P 1 >/dev/null 2>&1; rc=$?; mariadb-slap -a -h 127.0.0.1 -P 1 >/dev/null 2>&1; rr=$?
if [ $rc = 1 ] && [ $rr = 1 ]; then ok; else bad "as mariadb-slap, no server: exit $rc vs $rr"; fi

# 10. --only-print streams: 2M statements byte for byte as mariadb-slap's, peak RSS < 30 MB
#     (-T's "Maximum resident set size", KiB: getrusage of the process; held, the stream
#     alone would be 20 MB, twice over with its copy in the result)
kb=$("$B" slap --only-print -q "SELECT 1" --number-of-queries=2000000 -T 2>&1 >"$w/our" | sed -n 's/^Maximum resident set size \([0-9]*\),.*/\1/p')
mariadb-slap --only-print -q "SELECT 1" --number-of-queries=2000000 >"$w/ref"
if [ "$kb" -lt 30000 ] && [ "$(wc -l <"$w/our")" = 2000000 ] && cmp -s "$w/ref" "$w/our"; then ok; else bad "--only-print of 2M statements: peak RSS $kb KiB, $(wc -l <"$w/our") lines"; fi
echo "slap: --only-print of 2M statements: peak RSS $kb KiB"
rm -f "$w/our" "$w/ref"

# 11. the clients on event loops (--event-loops=L): the same statements at the server as a
#     thread per client (Com_* deltas exact: -c 5 x 20 queries of the mixed list, 6 INSERTs and
#     5 key SELECTs a pass: 11 + 9 each; the pre-load's 99 INSERTs, the key list's and the
#     drop check's SELECTs; COMMIT every 3 and at the end: 7 each; 1 + 6 --detach=4
#     reconnects each, the main connection and the status query's own)
st() { $ROOT -N -e "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select','Com_insert','Com_commit','Connections')" | awk '{ printf "%s ", $2 }'; }
counts() { # counts ARGS...: the deltas "commit insert select connections"
    a=$(st); "$B" slap $C "$@" >"$w/out" 2>&1 || { echo "exit $?: $(cat "$w/out")"; return; }; b=$(st)
    echo "$a $b" | awk '{ print $5 - $1, $6 - $2, $7 - $3, $8 - $4 }'
}
E="-a -c 5 --number-of-queries=100 --commit=3 --detach=4 --auto-generate-sql-add-autoincrement"
#     (the loops on both backends: io_uring, auto's choice where granted, and epoll)
ct=$(counts $E --event-loops=0); cl=$(counts $E --event-loops=2); ce=$(counts $E --event-loops=2 --event-backend=epoll)
if [ "$ct" = "35 154 47 37" ] && [ "$cl" = "$ct" ] && [ "$ce" = "$ct" ]; then ok; else bad "event loops: Com_commit, Com_insert, Com_select, Connections: threads '$ct', loops '$cl', loops on epoll '$ce', wanted '35 154 47 37'"; fi
#     the output's shape is the same (times masked), and mariadb-slap's
"$B" slap $C -a -c 3,2 -i 2 --number-of-queries=30 --event-loops=2 >"$w/our" 2>&1
mariadb-slap $C -a -c 3,2 -i 2 --number-of-queries=30 >"$w/ref" 2>&1
if [ "$(mask "$w/our")" = "$(mask "$w/ref")" ]; then ok; else bad "event loops: shape"; diff "$w/ref" "$w/our"; fi
#     a CALL returning two result sets: every set consumed, per-query latency of all 30
"$B" slap $C --create-schema=slapkeep -q "CALL p2()" -c 3 --number-of-queries=30 --percentile=50,99 --event-loops=2 >"$w/out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "Average number of queries per client: 10" "$w/out" && grep -q "Latency per query (ms): .*(30 queries)" "$w/out"; then ok; else bad "event loops: CALL p2(): exit $rc: $(cat "$w/out")"; fi
#     a failing query: the server's error verbatim, exit 1
"$B" slap $C --create-schema=slapkeep -q "SELECT * FROM nosuch" -c 3 --event-loops=2 >"$w/out" 2>"$w/err"; rc=$?
if [ $rc = 1 ] && grep -q "^bench: slap: client [123]: ERROR 1146 (42S02): Table 'slapkeep.nosuch' doesn't exist$" "$w/err"; then ok; else bad "event loops: failing query: exit $rc: $(cat "$w/err")"; fi
#     1000 clients on 2 loops: the process holds 3 threads (main + loops; read from /proc while
#     the clients sleep in the server); then the server's max_connections (as it says it)
mc=$($ROOT -N -e 'SELECT @@max_connections')
$ROOT -e "SET GLOBAL max_connections=1100"
"$B" slap $C --create-schema=slapkeep -q "SELECT SLEEP(4)" -c 1000 --event-loops=2 >"$w/out" 2>&1 &
sp=$!
#     (read once most of the 1000 sleep in the server, however slow the logins were)
for _ in $(seq 300); do
    kill -0 $sp 2>/dev/null || break
    n=$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(4)'")
    [ "${n:-0}" -ge 900 ] && break; sleep 0.1
done
thr=$(awk '/^Threads:/ { print $2 }' "/proc/$sp/status" 2>/dev/null)
wait $sp; rc=$?
if [ $rc = 0 ] && [ "$thr" = 3 ] && grep -q "Number of clients running queries: 1000" "$w/out"; then ok; else bad "event loops: -c 1000: exit $rc, $thr threads: $(cat "$w/out")"; fi
# the server lets the 1000 sessions go before the next cases count on its max_connections (a
# CI run at load 35 still held them: ERROR 1040 for -c 40 below)
gone() { [ "$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'nat'")" -lt 10 ]; }
t_wait 120 gone || bad "event loops: -c 1000: the server still holds $($ROOT -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'nat'") sessions"
$ROOT -e "SET GLOBAL max_connections=20"
"$B" slap $C --create-schema=slapkeep -q "SELECT SLEEP(1)" -c 60 --event-loops=2 >"$w/out" 2>"$w/err"; rc=$?
$ROOT -e "SET GLOBAL max_connections=$mc"
t_wait 120 gone || bad "over max_connections: the server still holds sessions"
if [ $rc = 3 ] && grep -q "^bench: slap: connect to 127.0.0.1:$BENCH_MY_PORT as 'nat': ERROR 1040 ([0-9A-Z]*): Too many connections$" "$w/err"; then ok; else bad "event loops: over max_connections: exit $rc: $(cat "$w/err")"; fi
#     the open-file limit: -c past it (the soft limit raised to the hard one first, ulimit -n
#     sets both) is refused before any connect, exit 3, not run with fewer clients
(ulimit -n 64; "$B" slap $C --create-schema=slapkeep -q "SELECT SLEEP(1)" -c 100 --event-loops=2 >"$w/out" 2>"$w/err"); rc=$?
if [ $rc = 3 ] && [ ! -s "$w/out" ] && [ "$(head -1 "$w/err")" = "bench: slap: --concurrency=100 needs about 116 open files; the limit (ulimit -n) is 64" ] && grep -q "^bench: hint: raise it (ulimit -n 116" "$w/err"; then ok; else bad "open-file limit: exit $rc: $(cat "$w/out" "$w/err")"; fi
(ulimit -n 64; "$B" slap $C --create-schema=slapkeep -q "SELECT 1" -c 40 --event-loops=2 >"$w/out" 2>"$w/err"); rc=$?
if [ $rc = 0 ] && grep -q "Number of clients running queries: 40$" "$w/out"; then ok; else bad "open-file limit: -c 40 within 64: exit $rc: $(cat "$w/err")"; fi
#     Ctrl-C: the loops stop within a turn, exit 1, the schema this run created dropped
"$B" slap $C -a -c 20 -i 400 --number-of-queries=4000 --event-loops=2 >/dev/null 2>"$w/err" &
sp=$!
sleep 1.5; kill -INT $sp; t0=$(date +%s); wait $sp; rc=$?; t1=$(date +%s)
if [ $rc = 1 ] && [ $((t1 - t0)) -le 2 ] && [ "$(grep -c . "$w/err")" = 1 ] && grep -q "^bench: slap: \(.*: \)\{0,1\}interrupted by SIGINT$" "$w/err" && ! grep -q "client [0-9]*: interrupted" "$w/err" && [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'mysqlslap'")" ]; then ok; else bad "event loops: Ctrl-C: exit $rc after $((t1 - t0)) s: $(cat "$w/err")"; fi
# 12. --rand-seed: the generated statements (--only-print's stream) equal for equal seeds,
#     different for different ones; 0 is mysqlslap's (section 1); client 0 of n is the plain
#     run, client 1 its own data. --client-index/--client-count: usage errors, then two
#     processes as one run against the server: client 1 waits for client 0's schema (and
#     says so when --client-wait runs out), 2 x 3 clients share --number-of-queries, no
#     duplicate key, every row there, each client's data its own, the schema left (no drop),
#     the block's and the JSON's "which client of how many".
slap_clients_mh() {
    P="--only-print -a --auto-generate-sql-add-autoincrement"
    "$B" slap $P --rand-seed=5 >"$w/s5a"; "$B" slap $P --rand-seed=5 >"$w/s5b"; "$B" slap $P --rand-seed=6 >"$w/s6"
    "$B" slap $P --rand-seed=5 --client-index=0 --client-count=2 >"$w/c0"; "$B" slap $P --rand-seed=5 --client-index=1 --client-count=2 >"$w/c1"
    if [ -s "$w/s5a" ] && cmp -s "$w/s5a" "$w/s5b" && ! cmp -s "$w/s5a" "$w/s6" && [ "$(grep -c INSERT "$w/s5a")" = 105 ] && [ "$(sort -u "$w/s5a" | grep -c INSERT)" = 16 ] && [ "$(sort -u "$w/s6" | grep -c INSERT)" = 16 ]; then ok; else bad "--rand-seed: equal seeds, equal streams; different seeds, different ones"; fi
    if [ "$(grep -c '^DROP' "$w/s5a")" = 2 ] && grep -v '^DROP' "$w/s5a" | cmp -s - "$w/c0"; then ok; else bad "--rand-seed=5: client 0 of 2 is not the plain run (no DROP)"; diff "$w/s5a" "$w/c0" | head -4 | cut -c1-100; fi
    grep '^INSERT' "$w/c1" >"$w/c1i"
    if [ "$(grep -c . "$w/c1")" = 11 ] && [ "$(grep -c . "$w/c1i")" = 6 ] && ! grep -qxF -f "$w/c1i" "$w/c0"; then ok; else bad "client 1 of 2: its 11 queries only (6 INSERTs), its own data: $(head -2 "$w/c1" | cut -c1-80)"; fi
    usage() { # usage MESSAGE ARGS...
        m=$1; shift
        "$B" slap --only-print -a "$@" >"$w/our" 2>"$w/err"; rc=$?
        if [ $rc = 2 ] && [ ! -s "$w/our" ] && [ "$(head -1 "$w/err")" = "bench: $m" ]; then ok; else bad "slap $*: exit $rc: $(cat "$w/err")"; fi
    }
    usage "slap: --client-count=2 needs --rand-seed: each client's data comes from its own seed derived from it" --client-index=0 --client-count=2
    usage "slap: --client-count=2 with --iterations=3: every iteration, concurrency and engine re-creates the schema that the other clients use: one of each" --client-index=1 --client-count=2 --rand-seed=1 -i 3
    usage "slap: --client-count=3 with --concurrency=1,2: every iteration, concurrency and engine re-creates the schema that the other clients use: one of each" --client-index=0 --client-count=3 --rand-seed=1 -c 1,2
    usage "slap: --client-count=2 with --engine=innodb,memory: every iteration, concurrency and engine re-creates the schema that the other clients use: one of each" --client-index=0 --client-count=2 --rand-seed=1 -e innodb,memory
    "$B" slap --only-print -q "SELECT 1" -i 2 --client-index=0 --client-count=2 --rand-seed=1 >"$w/our" 2>&1 && [ "$(grep -c . "$w/our")" = 2 ] && ok || bad "--query alone: iterations allowed with --client-count: $(cat "$w/our")"

    $ROOT -e "DROP DATABASE IF EXISTS slapmh"
    c1_waits() { # client 1 (output in $w/c1.out) said it waits for client 0
        for _ in $(seq 400); do grep -q "^Waiting for client 0 of 2" "$w/c1.out" && return; sleep 0.05; done
        bad "client 1 did not say it waits within 20 s (setup)"
    }
    A="$C -a --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=mixed -c 3 --number-of-queries=60 --create-schema=slapmh --rand-seed=7 --client-count=2"
    "$B" slap $A --client-index=1 --client-wait=1 >"$w/our" 2>"$w/err"; rc=$?
    if [ $rc = 1 ] && [ "$(head -1 "$w/err")" = "bench: slap: client 1 of 2: schema \`slapmh\` on 127.0.0.1:$BENCH_MY_PORT is not there after --client-wait=1 s" ]; then ok; else bad "client 1 without client 0: exit $rc: $(cat "$w/err")"; fi
    b0=$($ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Com_insert'" | cut -f2)
    : >"$w/c1.out" # (c1_waits reads it)
    ("$B" slap $A --client-index=1 --client-wait=60 >"$w/c1.out" 2>&1; echo $? >"$w/c1.rc") &
    c1_waits
    "$B" slap $A --client-index=0 --format=json >"$w/c0.json" 2>"$w/c0.err"; rc=$?
    wait
    b1=$($ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Com_insert'" | cut -f2)
    # 99 rows pre-loaded by client 0 (--auto-generate-sql-write-number=100, its CREATE TABLE
    # counted); 60 queries for 6 clients: 10 each, 5 of them INSERTs (mixed: INSERT first)
    if [ $rc = 0 ] && [ "$(cat "$w/c1.rc")" = 0 ]; then ok; else bad "two clients: exit $rc and $(cat "$w/c1.rc"): $(cat "$w/c0.err" "$w/c1.out")"; fi
    if [ "$($ROOT -N slapmh -e "SELECT COUNT(*), COUNT(DISTINCT id), MAX(id) FROM t1")" = "$(printf '129\t129\t129')" ] && [ $((b1 - b0)) = 129 ]; then ok; else bad "two clients' rows: $($ROOT -N slapmh -e "SELECT COUNT(*), COUNT(DISTINCT id) FROM t1"), Com_insert +$((b1 - b0)), 129 expected"; fi
    if [ "$($ROOT -N slapmh -e "SELECT COUNT(DISTINCT intcol1, charcol1) FROM t1 WHERE id > 99")" = 10 ]; then ok; else bad "each client's INSERTs its own data: $($ROOT -N slapmh -e "SELECT COUNT(DISTINCT intcol1, charcol1) FROM t1 WHERE id > 99") distinct of 30, 10 expected"; fi
    if grep -q "^Waiting for client 0 of 2 to create schema \`slapmh\`...$" "$w/c1.out" && grep -q "^	Average number of queries per client: 10$" "$w/c1.out" && grep -q "^	Client 2 of 2 (client index 1): one run of 6 clients in all$" "$w/c1.out"; then ok; else bad "client 1's output: $(cat "$w/c1.out")"; fi
    if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["facts"]; s=d["steps"][0]["facts"]; sys.exit(0 if (f["client_index"], f["client_count"], s["queries_per_client"], s["queries"]) == (0, 2, 10, 30) else 1)' "$w/c0.json"; then ok; else bad "client 0's JSON: $(head -c 400 "$w/c0.json")"; fi
    if [ "$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'slapmh'")" = 1 ]; then ok; else bad "the schema of two clients was dropped"; fi
    # a second run of the same recipe: client 0 refuses the schema it did not make (exit 3,
    # the single run's line; tables: t1 and the marker), client 1 does not run alone on the
    # stale one (it joined that marker already): it times out
    ("$B" slap $A --client-index=1 --client-wait=3 >"$w/c1.out" 2>"$w/c1.err"; echo $? >"$w/c1.rc") &
    "$B" slap $A --client-index=0 >"$w/c0.out" 2>"$w/c0.err"; rc=$?
    wait
    if [ $rc = 3 ] && [ "$(head -1 "$w/c0.err")" = "bench: slap: refusing to drop schema \`slapmh\`: it exists (2 tables) and was not created by this run" ]; then ok; else bad "second run: client 0: exit $rc: $(cat "$w/c0.err")"; fi
    if [ "$(cat "$w/c1.rc")" = 1 ] && [ "$(head -1 "$w/c1.err")" = "bench: slap: client 1 of 2: schema \`slapmh\` on 127.0.0.1:$BENCH_MY_PORT holds the marker of an earlier run that this client index already joined after --client-wait=3 s" ] && ! grep -q "queries per client" "$w/c1.out"; then ok; else bad "second run: client 1: exit $(cat "$w/c1.rc"): $(cat "$w/c1.out" "$w/c1.err")"; fi
    # a user's schema with a t1 of >= 99 rows and no marker: client 1 waits, writes nothing
    $ROOT -e "DROP DATABASE slapmh; CREATE DATABASE slapmh"; $ROOT slapmh -e "CREATE TABLE t1 (id INT) SELECT seq AS id FROM seq_1_to_200"
    "$B" slap $A --client-index=1 --client-wait=1 >"$w/our" 2>"$w/err"; rc=$?
    if [ $rc = 1 ] && [ "$(head -1 "$w/err")" = "bench: slap: client 1 of 2: schema \`slapmh\` on 127.0.0.1:$BENCH_MY_PORT has no completion marker (bench_slap_ready) of this run after --client-wait=1 s" ] && [ "$($ROOT -N slapmh -e "SELECT COUNT(*) FROM t1")" = 200 ]; then ok; else bad "user's schema: client 1: exit $rc: $(cat "$w/err")"; fi
    # --create with a slow INSERT and client 1 started first: its query sees every row (a
    # subquery of 2 rows fails it otherwise: ERROR 1242, exit 1)
    $ROOT -e "DROP DATABASE IF EXISTS slapmh"
    A="$C --create-schema=slapmh --rand-seed=3 --client-count=2 -c 2 --number-of-queries=4"
    CR="CREATE TABLE t (a INT);INSERT INTO t SELECT seq FROM seq_1_to_300000"
    Q="SELECT IF(COUNT(*) = 300000, 1, (SELECT 1 UNION SELECT 2)) FROM t"
    : >"$w/c1.out"
    ("$B" slap $A --create="$CR" -q "$Q" --client-index=1 --client-wait=60 >"$w/c1.out" 2>&1; echo $? >"$w/c1.rc") &
    c1_waits
    "$B" slap $A --create="$CR" -q "$Q" --client-index=0 >"$w/c0.out" 2>&1; rc=$?
    wait
    if [ $rc = 0 ] && [ "$(cat "$w/c1.rc")" = 0 ] && grep -q "^Waiting for client 0 of 2" "$w/c1.out" && [ "$($ROOT -N slapmh -e "SELECT COUNT(*) FROM t")" = 300000 ] && [ "$($ROOT -N slapmh -e "SELECT GROUP_CONCAT(client ORDER BY client) FROM bench_slap_ready")" = "0,1" ]; then ok; else bad "--create, client 1 first: exit $rc and $(cat "$w/c1.rc"): $(cat "$w/c0.out" "$w/c1.out")"; fi
    $ROOT -e "DROP DATABASE slapmh"
    # GUID keys: two clients' inserts never collide (uuid() on the server)
    A="$C -a --auto-generate-sql-guid-primary --auto-generate-sql-load-type=write -c 2 --auto-generate-sql-execute-number=20 --create-schema=slapmh --rand-seed=9 --client-count=2"
    ("$B" slap $A --client-index=1 >"$w/c1.out" 2>&1; echo $? >"$w/c1.rc") &
    "$B" slap $A --client-index=0 >"$w/c0.out" 2>&1; rc=$?
    wait
    if [ $rc = 0 ] && [ "$(cat "$w/c1.rc")" = 0 ] && [ "$($ROOT -N slapmh -e "SELECT COUNT(*), COUNT(DISTINCT id) FROM t1")" = "$(printf '179\t179')" ]; then ok; else bad "GUID keys, two clients: exit $rc, $(cat "$w/c1.rc"): $($ROOT -N slapmh -e "SELECT COUNT(*), COUNT(DISTINCT id) FROM t1") (179 expected) $(cat "$w/c0.out" "$w/c1.out")"; fi
    $ROOT -e "DROP DATABASE IF EXISTS slapmh"
}
slap_clients_mh

# issue 29 (coverage of slap_): --init-command runs on each client's connection, not on the
# main one, as mariadb-slap (whose count of the rows it inserts is the reference; bench ran it
# on the main connection too: 4 rows, not 3), a thread each and on event loops; one that
# fails on a client is the server's error (exit 1); --create-schema that does not exist with
# --query alone: the server's 1049 and the hint (exit 3); --percentile with a thread per
# client: the latency of every query
$ROOT -e "CREATE DATABASE IF NOT EXISTS slapkeep; CREATE TABLE slapkeep.ic (a INT AUTO_INCREMENT PRIMARY KEY); CREATE TABLE slapkeep.once (a INT PRIMARY KEY)"
IC="$C --create-schema=slapkeep -c 3 --number-of-queries=30"
rows() { # rows PROGRAM ARGS...: the rows its --init-command inserted
    $ROOT -e "DELETE FROM slapkeep.ic"
    "$@" -q "SELECT 1" --init-command="INSERT INTO slapkeep.ic VALUES ()" >/dev/null 2>"$w/ic.err" || echo "exit $?: $(head -1 "$w/ic.err")"
    $ROOT -N -e "SELECT COUNT(*) FROM slapkeep.ic"
}
# shellcheck disable=SC2086
ref=$(rows mariadb-slap $IC) ict=$(rows "$B" slap $IC --event-loops=0) icl=$(rows "$B" slap $IC --event-loops=2)
if [ "$ref" = 3 ] && [ "$ict" = 3 ] && [ "$icl" = 3 ]; then ok; else bad "--init-command's rows: mariadb-slap '$ref', threads '$ict', event loops '$icl' (3 wanted)"; fi
for el in 0 2; do
    $ROOT -e "DELETE FROM slapkeep.once"
    "$B" slap $C --create-schema=slapkeep -q "SELECT 1" -c 2 --init-command="INSERT INTO slapkeep.once VALUES (1)" --event-loops=$el >"$w/out" 2>"$w/err"; rc=$?
    if [ $rc = 1 ] && grep -q "^bench: slap: --init-command: ERROR 1062 (23000): Duplicate entry '1' for key 'PRIMARY'$" "$w/err" && grep -q "^bench: hint: the statement was: INSERT INTO slapkeep.once VALUES (1)$" "$w/err" && [ ! -s "$w/out" ]; then ok; else bad "a failing --init-command (--event-loops=$el): exit $rc: $(cat "$w/out" "$w/err")"; fi
done
$ROOT -e "DROP TABLE slapkeep.ic, slapkeep.once"
for el in 0 2; do
    "$B" slap $C --create-schema=slapnosuch -q "SELECT 1" --event-loops=$el >"$w/out" 2>"$w/err"; rc=$?
    if [ $rc = 3 ] && [ "$(head -1 "$w/err")" = "bench: slap: connect to 127.0.0.1:$BENCH_MY_PORT as 'nat': ERROR 1049 (42000): Unknown database 'slapnosuch'" ] && grep -q "^bench: hint: with --query and no --create or -a, the schema --create-schema=slapnosuch must exist$" "$w/err"; then ok; else bad "--query in a schema that is not there (--event-loops=$el): exit $rc: $(cat "$w/err")"; fi
done
# io_uring refused (a container's seccomp profile, by tests/noiouring): --event-backend=io_uring
# is the environment's refusal (exit 3) with the kernel's errno and a hint; auto runs on epoll
[ -x "$top/tests/noiouring" ] || (cd "$top" && make -s tests/noiouring >/dev/null 2>&1)
if [ -x "$top/tests/noiouring" ]; then
    "$top/tests/noiouring" "$B" slap $C --create-schema=slapkeep -q "SELECT 1" -c 2 --event-loops=1 --event-backend=io_uring >"$w/out" 2>"$w/err"; rc=$?
    if [ $rc = 3 ] && head -1 "$w/err" | grep -q "^bench: slap: event loops: --event-backend=io_uring: .*EPERM" && grep -q "^bench: hint: use --event-backend=epoll" "$w/err" && [ ! -s "$w/out" ]; then ok; else bad "io_uring refused, --event-backend=io_uring: exit $rc: $(cat "$w/out" "$w/err")"; fi
    "$top/tests/noiouring" "$B" slap $C --create-schema=slapkeep -q "SELECT 1" -c 2 --event-loops=1 --format=json >"$w/out" 2>"$w/err"; rc=$?
    if [ $rc = 0 ] && [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["facts"]["client_io"])' "$w/out")" = epoll ]; then ok; else bad "io_uring refused, auto: exit $rc: $(head -c 400 "$w/out") $(cat "$w/err")"; fi
else
    bad "io_uring refused: tests/noiouring could not be built"
fi
# -vvv with --commit: every statement echoed (the clients' SET AUTOCOMMIT=0 and COMMITs too),
# a thread each and on event loops, as mariadb-slap's (sorted: the clients interleave)
vvv() { "$@" -q "SELECT 1" -c 2 --number-of-queries=4 --commit=1 -vvv 2>&1 | grep -v 'seconds' | sort; }
# shellcheck disable=SC2086
vr=$(vvv mariadb-slap $C --create-schema=slapkeep) vt=$(vvv "$B" slap $C --create-schema=slapkeep --event-loops=0) vl=$(vvv "$B" slap $C --create-schema=slapkeep --event-loops=1)
if [ "$(echo "$vr" | grep -c '^COMMIT;$')" = 6 ] && [ "$vt" = "$vr" ] && [ "$vl" = "$vr" ]; then ok; else bad "-vvv --commit=1: threads, event loops and mariadb-slap differ: $(echo "$vt" | tr '\n' '|') / $(echo "$vl" | tr '\n' '|') / $(echo "$vr" | tr '\n' '|')"; fi
# a --create statement that fails: the server's error, exit 1, the schema this run made dropped
"$B" slap $C --create-schema=slapcr --create="CREATE TABLE a (a INT);INSERT INTO nosuch VALUES (1)" --delimiter=";" -q "SELECT 1" >"$w/out" 2>"$w/err"; rc=$?
if [ $rc = 1 ] && [ "$(head -1 "$w/err")" = "bench: slap: create statement: ERROR 1146 (42S02): Table 'slapcr.nosuch' doesn't exist" ] && [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'slapcr'")" ]; then ok; else bad "a failing --create statement: exit $rc: $(cat "$w/err")"; fi
# a failing statement longer than the hint shows: its first 120 bytes and "..."
long="SELECT * FROM nosuch WHERE a = '$(printf '%0130d' 0)'"
"$B" slap $C --create-schema=slapkeep -q "$long" >"$w/out" 2>"$w/err"; rc=$?
if [ $rc = 1 ] && [ "$(sed -n 2p "$w/err")" = "bench: hint: the statement was: $(echo "$long" | cut -c1-120)..." ]; then ok; else bad "a long failing statement: exit $rc: $(cat "$w/err")"; fi
"$B" slap $C --create-schema=slapkeep -q "SELECT 1" -c 2 --number-of-queries=40 --percentile=50,99 --event-loops=0 >"$w/out" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "Latency per query (ms): .*(40 queries)" "$w/out"; then ok; else bad "--percentile, a thread per client: exit $rc: $(cat "$w/out")"; fi

# the transport in JSON (issue 28: the block has no line for it): TLS by default over TCP as
# mariadb-slap 10.11.19, none with --skip-ssl, a unix socket said; an explicit --ssl is TLS
tr() { # tr WANT ARGS...: "transport tls"
    want=$1; shift
    "$B" slap --no-defaults -u nat -psecret -q "SELECT 1" --create-schema=slapq --format=json "$@" >"$w/tr.json" 2>"$w/tr.err"
    got=$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["facts"]; print(f["transport"], f["tls"], f.get("tls_version", "-"))' "$w/tr.json" 2>/dev/null)
    case $got in "$want"*) ok ;; *) bad "transport with $*: got '$got', want '$want': $(head -c 300 "$w/tr.err")" ;; esac
}
$ROOT -e "CREATE DATABASE IF NOT EXISTS slapq"
tr "tcp True TLSv1.2" -h 127.0.0.1 -P "$BENCH_MY_PORT"
tr "tcp False -" -h 127.0.0.1 -P "$BENCH_MY_PORT" --skip-ssl
tr "tcp True TLSv1.2" -h 127.0.0.1 -P "$BENCH_MY_PORT" --ssl
[ -z "${BENCH_MY_SOCK:-}" ] || tr "unix False -" -S "$BENCH_MY_SOCK"

$ROOT -e "DROP DATABASE IF EXISTS slapkeep; DROP DATABASE IF EXISTS slapq"
t_summary
