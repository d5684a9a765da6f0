#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): many concurrent connections. For each count N (default 1000 2000
# 4000), oltp_point_select with --threads=N at --rate=R (default 4000) for T seconds (10),
# Debian's sysbench and bench alternately on the same server and table, bench in thread mode
# (`bench`: a thread per connection, as sysbench) and in loop mode (`bench_loop`: the N
# connections on --event-loops=LOOPS threads, default 2). Figures per run: the
# client's peak RSS (VmHWM, MiB) and peak thread count (Threads), both sampled from
# /proc/PID/status every 0.2 s while it runs, its TPS, and the wall time of the whole command
# (the connect phase of N logins, T seconds, the teardown). A table of the medians at the end.
# The goal for 4,000 connections is a bench peak RSS <= 256 MiB in loop mode (thread mode
# pays a thread and its stack per connection, as sysbench). With two counts or more, the
# loop mode's memory per connection is printed: the growth of its peak RSS from the
# smallest count to the largest over the connections added.
# Env: COUNTS ("1000 2000 4000"), R (4000), T (10), REPS (1: these runs are long),
# TABLE_SIZE (10000), LOOPS (2), POOL (1: the server this script starts runs
# thread_handling=pool-of-threads, for the 10,000-connection stretch goal).
# Starts its own MariaDB on loopback (tests/mariadb.sh, port MY_PORT, default 33992,
# max_connections max(COUNTS) + 500) unless BENCH_MY_PORT and BENCH_MY_SOCK (root's unix
# socket) are set; that server must allow max(COUNTS) + 1 connections.
# Exit 0 unless a run failed; 77 without sysbench; 1 when the open files limit cannot be
# raised to 2 * max(COUNTS) + 100.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
COUNTS=${COUNTS:-1000 2000 4000}
R=${R:-4000}
T=${T:-10}
REPS=${REPS:-1}
LOOPS=${LOOPS:-2}
POOL=${POOL:-0}
[ -x "$S" ] || { echo "perf/conns: $S not installed (apt-get install sysbench)"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
max=$(printf '%s\n' $COUNTS | sort -n | tail -1)
ulimit -n $((2 * max + 100)) 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
[ "$(ulimit -n)" -ge $((2 * max + 100)) ] ||
    { echo "perf/conns: the open files limit is $(ulimit -n); $max connections need $((2 * max + 100))"; exit 1; }
pool=""
[ "$POOL" = 0 ] || pool=" --thread-handling=pool-of-threads"
perf_mariadb perf-conns-mariadb 33992 \
    "--max-connections=$((max + 500)) --open-files-limit=$((4 * max + 1000))$pool" perfconns
mc=$(perf_sql "SELECT @@max_connections")
[ "$mc" -gt "$max" ] || { echo "perf/conns: the server allows $mc connections, fewer than $max + 1"; exit 1; }
perf_sql "CREATE DATABASE perfconns"
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=perfconns --mysql-ssl=off --tables=1 --table-size=${TABLE_SIZE:-10000}"
"$S" oltp_point_select $C prepare >/dev/null
perf_header conns
perf_cmd sysbench "$S oltp_point_select $C --threads=N --rate=$R --time=$T run"
perf_cmd bench "$B oltp_point_select $C --threads=N --rate=$R --time=$T --event-loops=0 run"
perf_cmd bench_loop "$B oltp_point_select $C --threads=N --rate=$R --time=$T --event-loops=$LOOPS run"
echo "  (N: $COUNTS; server max_connections $mc, back_log $(perf_sql "SELECT @@back_log")," \
    "thread_handling $(perf_sql "SELECT @@thread_handling"))"

# measure CMD...: run it, sampling /proc; prints "rss_mib threads tps wall_s"
measure() {
    out=$PERF_TMP/run.out
    t0=$(date +%s.%N)
    "$@" >"$out" 2>&1 &
    pid=$!
    hwm=0 thr=0
    while kill -0 $pid 2>/dev/null; do
        st=$(cat /proc/$pid/status 2>/dev/null) || break
        h=$(echo "$st" | awk '/^VmHWM:/ { print $2 }')
        n=$(echo "$st" | awk '/^Threads:/ { print $2 }')
        [ -z "$h" ] || [ "$h" -le "$hwm" ] || hwm=$h
        [ -z "$n" ] || [ "$n" -le "$thr" ] || thr=$n
        sleep 0.2
    done
    wait $pid || { echo "perf/conns: $* failed:" >&2; tail -5 "$out" >&2; return 1; }
    t1=$(date +%s.%N)
    tps=$(sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.)$/\1/p' "$out")
    [ -n "$tps" ] || { echo "perf/conns: no TPS in the output of $*" >&2; return 1; }
    awk -v h="$hwm" -v n="$thr" -v tps="$tps" -v a="$t0" -v b="$t1" \
        'BEGIN { printf "%.1f %d %s %.1f\n", h / 1024, n, tps, b - a }'
}
sysbench() { measure "$S" oltp_point_select $C --threads=$N --rate=$R --time=$T run; }
bench() { measure "$B" oltp_point_select $C --threads=$N --rate=$R --time=$T --event-loops=0 run; }
bench_loop() { measure "$B" oltp_point_select $C --threads=$N --rate=$R --time=$T --event-loops=$LOOPS run; }
: >"$PERF_TMP/table"
for N in $COUNTS; do
    perf_cmp "$N connections" "rss_mib threads tps wall_s" sysbench bench bench_loop
    while read -r who rss thr tps wall; do
        printf '%11s  %-8s  %12s  %7s  %8s  %6s\n' "$N" "$who" "$rss" "$thr" "$tps" "$wall" >>"$PERF_TMP/table"
    done <"$PERF_TMP/med"
done
echo "-- table (medians; bench's goal at 4000 connections: peak RSS <= 256 MiB)"
printf '%11s  %-8s  %12s  %7s  %8s  %6s\n' connections tool "peak RSS MiB" threads TPS "wall s"
cat "$PERF_TMP/table"
lo=$(printf '%s\n' $COUNTS | sort -n | head -1)
if [ "$lo" != "$max" ]; then
    a=$(awk -v n="$lo" '$1 == n && $2 == "bench_loop" { print $3 }' "$PERF_TMP/table")
    b=$(awk -v n="$max" '$1 == n && $2 == "bench_loop" { print $3 }' "$PERF_TMP/table")
    [ -z "$a" ] || [ -z "$b" ] || awk -v a="$a" -v b="$b" -v lo="$lo" -v hi="$max" 'BEGIN {
        printf "bench_loop: %.0f bytes per connection (peak RSS %s MiB at %d, %s MiB at %d)\n",
            (b - a) * 1048576 / (hi - lo), a, lo, b, hi }'
fi
perf_end
