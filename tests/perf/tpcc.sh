#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): bench tpcc against Debian's sysbench running Percona-Lab's
# sysbench-tpcc (tpcc.lua from ../shared/peers/sysbench-tpcc, or TPCC_DIR) on the same MariaDB,
# side by side with the same options: runs of --time=T seconds (default 10) on SCALE
# warehouses (default 4, loaded once by bench) at 1 and 8 threads, alternating (ABBA), REPS
# times (default 5); then the load of LOADW warehouses (default 10) with --threads=LOADT
# (default 4) into a fresh schema, alternating too (LOAD=0: no load). Fair by construction:
# TCP to 127.0.0.1, the same user, TLS off for both, bench both with a thread per connection
# (--event-loops=0, as sysbench) and on one event loop (--event-loops=1: the ratios are the
# loop's against each), the bench persona's run reads d_next_o_id twice more (NOPM). Figures: transactions
# per second and the client's CPU per transaction (ms, user+sys of the client process) for
# the runs, wall seconds for the loads (sysbench-tpcc's prepare sleeps 30 s between its
# tables and its rows: in its figure, and said). Goals (issue 33): TPS >= 1.0x, client CPU
# per transaction <= 0.5x, load wall time <= 0.5x. Measured (SCALE=2 T=5 REPS=3 LOAD=0, a
# shared 2-CPU host at load average 18-35, medians of pair ratios, loop against sysbench-tpcc):
# 1 thread 2.4x TPS at 0.89x client CPU per transaction (threads: 0.64x), 8 threads 0.61x TPS
# (one loop thread against sysbench's 8) at 0.70x CPU; the loop's CPU per transaction was
# 1.4x the threads' at 1 connection and 0.92x at 8: the goal of 0.5x is not met yet.
# Again (h-tpccspec, T=10 SCALE=4 REPS=5 LOAD=0, load average 12-15, medians of pair ratios
# computed from the reps): threads 1.07x TPS at 0.77x CPU per transaction (1 thread), 1.00x
# at 0.74x (8); one loop 1.36x at 0.84x (1), 0.56x at 0.73x (8). Where it goes (perf record,
# 1 connection, 1 loop): the kernel 83% of the client's samples (context switches 40%: two
# io_uring_enter per statement), the replay of a transaction per statement about 3.5%.
# Starts its own MariaDB on loopback (tests/mariadb.sh, port MY_PORT, default 34697, a 1 GiB
# buffer pool) unless BENCH_MY_PORT and BENCH_MY_SOCK (root's unix socket) are set. Exit 0
# unless a run failed; 77 without sysbench or sysbench-tpcc.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-$(command -v sysbench || true)}
P=${TPCC_DIR:-$(cd "$top/.." && pwd)/shared/peers/sysbench-tpcc}
[ -n "$S" ] && [ -x "$S" ] || { echo "perf/tpcc: sysbench not installed (apt-get install sysbench)"; exit 77; }
[ -f "$P/tpcc.lua" ] || { echo "perf/tpcc: no sysbench-tpcc at $P (TPCC_DIR)"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
perf_mariadb perf-tpcc-mariadb 34697 "--innodb-buffer-pool-size=1G --max-connections=500" perftpcc perftpccl
T=${T:-10} SCALE=${SCALE:-4} LOADW=${LOADW:-10} LOADT=${LOADT:-4} LOAD=${LOAD:-1}
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-ssl=off --tables=1"
perf_sql "CREATE DATABASE perftpcc"
"$B" tpcc $C --mysql-db=perftpcc --scale=$SCALE --threads=$SCALE prepare >"$PERF_TMP/prep" 2>&1 ||
    { cat "$PERF_TMP/prep"; echo "perf/tpcc: bench tpcc prepare failed"; exit 1; }
perf_header tpcc
perf_cmd sysbench "(cd $P && $S tpcc.lua $C --mysql-db=perftpcc --scale=$SCALE --time=$T --threads={1 | 8} run)"
perf_cmd bench "$B tpcc $C --mysql-db=perftpcc --scale=$SCALE --time=$T --threads={1 | 8} --event-loops=0 run"
perf_cmd bench_loop "$B tpcc $C --mysql-db=perftpcc --scale=$SCALE --time=$T --threads={1 | 8} --event-loops=1 run"
perf_cmd sysbench "(cd $P && $S tpcc.lua $C --mysql-db=perftpccl --scale=$LOADW --threads=$LOADT prepare)"
perf_cmd bench "$B tpcc $C --mysql-db=perftpccl --scale=$LOADW --threads=$LOADT prepare"

# one run: "tps cpu_ms_per_transaction"
run() { # run THREADS BINARY ARGS...
    th=$1; shift
    cpu=$(perf_cpu "$PERF_TMP/out" "$@" $C --mysql-db=perftpcc --scale=$SCALE --time=$T --threads=$th run) ||
        { cat "$PERF_TMP/out" >&2; return 1; }
    awk -v c="$cpu" '$1 == "transactions:" { n = $2; r = $3; gsub(/[(]/, "", r); f = 1 }
        END { if (!f || n == 0) exit 1; printf "%.2f %.4f\n", r, c * 1000 / n }' "$PERF_TMP/out" ||
        { cat "$PERF_TMP/out" >&2; return 1; }
}
t1_sysbench() { (cd "$P" && run 1 "$S" tpcc.lua); }
t1_bench() { run 1 "$B" tpcc --event-loops=0; }
t1_bench_loop() { run 1 "$B" tpcc --event-loops=1; }
t8_sysbench() { (cd "$P" && run 8 "$S" tpcc.lua); }
t8_bench() { run 8 "$B" tpcc --event-loops=0; }
t8_bench_loop() { run 8 "$B" tpcc --event-loops=1; }
perf_cmp "1 thread, $SCALE warehouses, $T s" "tps cpu_ms_per_trx" t1_sysbench t1_bench t1_bench_loop
perf_cmp "8 threads, $SCALE warehouses, $T s" "tps cpu_ms_per_trx" t8_sysbench t8_bench t8_bench_loop
[ "$LOAD" != 0 ] || { perf_end; exit 0; }

# one load into a fresh schema: "wall_s"
load() { # load BINARY ARGS...
    perf_sql "DROP DATABASE IF EXISTS perftpccl; CREATE DATABASE perftpccl"
    t0=$(date +%s.%N)
    "$@" $C --mysql-db=perftpccl --scale=$LOADW --threads=$LOADT prepare >"$PERF_TMP/out" 2>&1 ||
        { cat "$PERF_TMP/out" >&2; return 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
load_sysbench() { (cd "$P" && load "$S" tpcc.lua); }
load_bench() { load "$B" tpcc; }
perf_cmp "load of $LOADW warehouses, $LOADT threads (sysbench-tpcc's includes its 30 s sleep)" "wall_s" load_sysbench load_bench
echo "goal: bench/sysbench-tpcc TPS >= 1.0, client CPU per transaction <= 0.5, load wall <= 0.5"
perf_end
