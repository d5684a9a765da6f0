#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): bench slap against Debian's mariadb-slap on the same MariaDB, side by
# side, with the same options: the auto-generated mixed load (-a --concurrency=50,100
# --number-of-queries=1000 --iterations=3) and one --query run (point SELECTs on a table of
# its own, --concurrency=50 --number-of-queries=20000). Fair by construction: TCP to
# 127.0.0.1, the same user, TLS off for both (--skip-ssl), the same schema names, runs
# alternating (ABBA), REPS times (default 5). bench runs its clients on event loops
# (--event-loops=LOOPS, default auto, bench slap's own; LOOPS=0: a thread per client, as mariadb-slap).
# Figures: wall seconds of the whole command and client CPU seconds (user+sys of the client
# process). Goals (issue 12): client CPU <= 0.2x mariadb-slap's, wall <= 1.0x.
# The --query run has a third client, the floor (tests/perf/floor.c -q: nothing but the
# same COM_QUERY over 50 connections on one io_uring loop, every byte checked; it logs in
# as a user without a password, made here): the least client CPU this host's kernel lets
# 20,000 such queries cost, printed as floor/mariadb-slap and bench/floor. Without a C
# compiler (CC, default gcc) the floor is left out, and said.
# Starts its own MariaDB on loopback (tests/mariadb.sh, port MY_PORT, default 34690) unless
# BENCH_MY_PORT and BENCH_MY_SOCK (root's unix socket) are set. Exit 0 unless a run failed;
# 77 without mariadb-slap.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SLAP:-$(command -v mariadb-slap || true)}
[ -n "$S" ] && [ -x "$S" ] || { echo "perf/slap: mariadb-slap not installed (apt-get install mariadb-client)"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
perf_mariadb perf-slap-mariadb 34690 "" perfslap perfslapq
perf_sql "SET GLOBAL max_connections = 500"
CC=${CC:-gcc} F=""
if command -v "$CC" >/dev/null; then
    mkdir -p "$top/build/perf-floor"
    "$CC" -O2 -std=c11 -Wall -Wextra -Wconversion -o "$top/build/perf-floor/floor" "$top/tests/perf/floor.c" ||
        { echo "perf/slap: building tests/perf/floor.c failed"; exit 1; }
    F=$top/build/perf-floor/floor
fi
U=bench_slap_floor
perf_sql "CREATE DATABASE perfslapq;
     USE perfslapq; CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(64));
     INSERT INTO t SELECT seq, CONCAT('row', seq) FROM seq_1_to_1000"
[ -z "$F" ] || perf_user "$U" "SELECT ON perfslapq.*"
C="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --skip-ssl"
L="--event-loops=${LOOPS:-auto}"
AUTO="-a --concurrency=50,100 --number-of-queries=1000 --iterations=3 --create-schema=perfslap"
perf_header slap
perf_cmd mariadb-slap "$S $C {AUTO | QUERY}"
perf_cmd bench "$B slap $C $L {AUTO | QUERY}"
[ -z "$F" ] || perf_cmd floor "$F -P $BENCH_MY_PORT -u $U -D perfslapq -c 50 -t 600 -m uring -q 'SELECT v FROM t WHERE id=17' -e 20000"
[ -n "$F" ] || echo "  floor: left out ($CC, to build tests/perf/floor.c, not installed)"
echo "  AUTO: $AUTO"
echo "  QUERY: --create-schema=perfslapq --query='SELECT v FROM t WHERE id=17' --concurrency=50 --number-of-queries=20000"

# one run: "wall cpu" seconds
run() { # run BINARY ARGS...
    t0=$(date +%s.%N)
    cpu=$(perf_cpu "$PERF_TMP/out" "$@") || { cat "$PERF_TMP/out" >&2; return 1; }
    t1=$(date +%s.%N)
    grep -q 'Average number of seconds' "$PERF_TMP/out" || { cat "$PERF_TMP/out" >&2; return 1; }
    awk -v a="$t0" -v b="$t1" -v c="$cpu" 'BEGIN { printf "%.3f %.3f\n", b - a, c }'
}
auto_slap() { run "$S" $C $AUTO; }
auto_bench() { run "$B" slap $C $L $AUTO; }
query_slap() { run "$S" $C --create-schema=perfslapq "--query=SELECT v FROM t WHERE id=17" --concurrency=50 --number-of-queries=20000; }
query_bench() { run "$B" slap $C $L --create-schema=perfslapq "--query=SELECT v FROM t WHERE id=17" --concurrency=50 --number-of-queries=20000; }
perf_cmp "auto (-a -c 50,100, 1000 queries, 3 iterations)" "wall_s cpu_s" auto_slap auto_bench
query_floor() {
    t0=$(date +%s.%N)
    cpu=$(perf_cpu "$PERF_TMP/out" "$F" -P "$BENCH_MY_PORT" -u $U -D perfslapq -c 50 -t 600 -m uring \
        -q "SELECT v FROM t WHERE id=17" -e 20000) || { cat "$PERF_TMP/out" >&2; return 1; }
    t1=$(date +%s.%N)
    grep -q 'transactions: *20000 ' "$PERF_TMP/out" || { cat "$PERF_TMP/out" >&2; return 1; }
    awk -v a="$t0" -v b="$t1" -v c="$cpu" 'BEGIN { printf "%.3f %.3f\n", b - a, c }'
}
if [ -n "$F" ]; then
    perf_cmp "query (point SELECT, -c 50, 20000 queries)" "wall_s cpu_s" query_slap query_floor query_bench
    # the floor against mariadb-slap: the same pairs, rep by rep
    [ ! -s "$PERF_TMP/f.query_floor" ] ||
        echo "  query_floor/query_slap, median of pair ratios: $(paste -d' ' "$PERF_TMP/f.query_slap" "$PERF_TMP/f.query_floor" |
            awk '{ printf "%.4f\n", $3 / $1 }' | perf_median | awk '{ printf "%.3f", $1 }') $(paste -d' ' "$PERF_TMP/f.query_slap" "$PERF_TMP/f.query_floor" |
            awk '{ printf "%.4f\n", ($2 > 0) ? $4 / $2 : 0 }' | perf_median | awk '{ printf "%.3f", $1 }')"
else
    perf_cmp "query (point SELECT, -c 50, 20000 queries)" "wall_s cpu_s" query_slap query_bench
fi
echo "goal: bench/mariadb-slap client CPU <= 0.2, wall <= 1.0"
perf_end
