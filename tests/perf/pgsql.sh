#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): bench against Debian's sysbench 1.0.20 --db-driver=pgsql on the same
# PostgreSQL 15 (tests/postgres.sh: its own, on loopback) and dataset: oltp_point_select with
# 8 connections and oltp_read_write with 16, T seconds each (default 10), then prepare's wall
# time: sysbench's multi-row INSERTs against bench's --pgsql-copy=on. bench runs as a thread
# per connection (sysbench's way: bench), on LOOPS event loops (bench_loop: --event-loops,
# default 1), and for oltp_read_write also with --pgsql-pipeline=on (bench_pipe: a thread per
# connection, a transaction's statements in one pipeline; bench only, default off).
# Fair by construction:
# - the same connection settings for both: TCP to 127.0.0.1, user postgres (trust), TLS as
#   SSLMODE says for both (default disable: PGSSLMODE for sysbench's libpq, which has no
#   option for it, --pgsql-sslmode for bench); the tables are sysbench's (bench runs as
#   sysbench: a symlink, its defaults and output);
# - one unrecorded warm-up run of WARM seconds (default 10) of each before timing a workload;
# - runs alternate (ABBA), REPS (default 5) times; every run's figures, the medians and the
#   median of the per-pair ratios bench/sysbench are printed.
# Figures per run: TPS, client CPU seconds per 1000 transactions (user+sys of the client
# process, all its threads: wait4's rusage) and context switches per transaction; prepare:
# seconds (--tables=4, TABLE_SIZE rows each, into a new database each time).
# Goals (issue 32): TPS >= 1.10x, CPU/txn <= 0.5x; bench's COPY prepare at least 3x faster.
# Env: REPS (5), T (10), WARM (10), SSLMODE (disable), TABLE_SIZE (rows in each of 4 tables,
# 100000), PG_PORT (26990), SPECS (default "oltp_point_select:8 oltp_read_write:16").
# The host's other load moves every figure: compare only within a run (alternating).
# Exit 0, 1 if a run failed; 77 without sysbench or PostgreSQL 15.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${T:-10}
WARM=${WARM:-10}
SSLMODE=${SSLMODE:-disable}
[ -x "$S" ] || { echo "perf/pgsql: $S not installed (apt-get install sysbench)"; exit 77; }
[ -x /usr/lib/postgresql/15/bin/initdb ] && command -v psql >/dev/null ||
    { echo "perf/pgsql: postgresql-15 not installed"; exit 77; }
command -v python3 >/dev/null || { echo "perf/pgsql: python3 (wait4's rusage of a run) not installed"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
pgdir=$(mktemp -d /tmp/bench-perfpg.XXXXXX)
trap 'sh "$top/tests/postgres.sh" stop "$pgdir"; rm -rf "$pgdir" "$PERF_TMP"' EXIT
env=$(sh "$top/tests/postgres.sh" start "$pgdir" "${PG_PORT:-26990}") ||
    { echo "perf/pgsql: the PostgreSQL server did not start"; exit 1; }
eval "$env"
export PGSSLMODE=$SSLMODE
PSQL="psql -X -q -At -h $BENCH_PG_HOST -p $BENCH_PG_PORT -U postgres"
$PSQL -d postgres -c "CREATE DATABASE perf"
mkdir -p "$top/build/perfbin" && ln -sf "$B" "$top/build/perfbin/sysbench"
BS=$top/build/perfbin/sysbench
C="--db-driver=pgsql --pgsql-host=$BENCH_PG_HOST --pgsql-port=$BENCH_PG_PORT --pgsql-user=postgres --tables=4 --table-size=${TABLE_SIZE:-100000}"
perf_header pgsql
perf_cmd sysbench "$S WORKLOAD $C --pgsql-db=perf --threads=N --time=$T run"
perf_cmd bench "$BS WORKLOAD $C --pgsql-db=perf --pgsql-sslmode=$SSLMODE --threads=N --time=$T run"
perf_cmd bench_loop "$BS WORKLOAD $C --pgsql-db=perf --pgsql-sslmode=$SSLMODE --threads=N --time=$T --event-loops=${LOOPS:-1} run"
perf_cmd bench_pipe "$BS WORKLOAD $C --pgsql-db=perf --pgsql-sslmode=$SSLMODE --threads=N --time=$T --pgsql-pipeline=on run"
echo "  (WORKLOAD (N): oltp_point_select (8), oltp_read_write (16); TLS: sslmode=$SSLMODE for both;" \
    "warm-up: one run of ${WARM}s of each tool before timing a workload)"
"$S" oltp_read_write $C --pgsql-db=perf --threads=4 prepare >/dev/null
# run BINARY [OPTION...]: prints "TPS CPU-s/1000-txn ctxsw/txn"
run() {
    secs=$T bin=$1
    shift
    [ "$perf_warming" = 0 ] || secs=$WARM
    c=$(perf_rusage "$PERF_TMP/out" "$bin" "$wl" $C --pgsql-db=perf --threads="$th" --time="$secs" "$@" run) || return 1
    perf_per_txn "$PERF_TMP/out" "$c"
}
sysbench() { run "$S"; }
bench() { run "$BS" --pgsql-sslmode="$SSLMODE"; }
bench_loop() { run "$BS" --pgsql-sslmode="$SSLMODE" --event-loops="${LOOPS:-1}"; }
bench_pipe() { run "$BS" --pgsql-sslmode="$SSLMODE" --pgsql-pipeline=on; }
PERF_WARMUP=1
for spec in ${SPECS:-oltp_point_select:8 oltp_read_write:16}; do
    wl=${spec%:*} th=${spec#*:}
    # each bench mode against sysbench, alternating pairs (the ratio: the mode / sysbench)
    for mode in bench bench_loop bench_pipe; do
        # (point select: no transaction to pipeline)
        [ "$mode" != bench_pipe ] || [ "$wl" = oltp_read_write ] || continue
        perf_cmp "$wl, $th threads, $mode" "TPS CPU-s/1000-txn ctxsw/txn" sysbench "$mode"
    done
done
# prepare: seconds of sysbench's INSERTs and of bench's COPY, each into a new database
prep() { # prep BINARY [OPTION...]: prints the seconds
    bin=$1
    shift
    $PSQL -d postgres -c "DROP DATABASE IF EXISTS perfp" -c "CREATE DATABASE perfp" 2>/dev/null
    t0=$(date +%s.%N)
    "$bin" oltp_read_write $C --pgsql-db=perfp "$@" prepare >"$PERF_TMP/prep" 2>&1 || return 1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
sysbench_insert() { prep "$S"; }
bench_copy() { prep "$BS" --pgsql-sslmode="$SSLMODE" --pgsql-copy=on; }
PERF_WARMUP=0
perf_cmp "prepare, 4 tables" "seconds" sysbench_insert bench_copy
$PSQL -d postgres -c "DROP DATABASE IF EXISTS perfp"
echo "(goals: TPS >= 1.10x, CPU/txn <= 0.5x; prepare: bench_copy/sysbench_insert seconds <= 0.33x;" \
    "$("$S" --version) vs bench; PostgreSQL on loopback sharing the $(nproc) cores; ${T}s per run)"
perf_end
