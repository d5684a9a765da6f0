#!/bin/sh
# shellcheck disable=SC2317,SC2086,SC2046,SC2154,SC2034 # run functions are called through perf_cmp; option lists and perf figures split; perf_warming and PERF_WARMUP belong to lib/common.sh
# Benchmark (not a test): the event loop's readiness mechanism, chosen by measurement. Debian's
# sysbench (a thread per connection) and bench's event loops (--event-loops=LOOPS, default 2)
# with --event-backend=epoll and --event-backend=io_uring, alternately (ABBA) on the same
# MariaDB and dataset: oltp_point_select with 8 and 64 connections, oltp_read_write with 16,
# T seconds each (default 10), one warm-up run of WARM seconds (5) of each first.
# Figures per run: TPS, client CPU seconds per 1000 transactions (user+sys of the client:
# perf stat's task-clock when perf can count, else the process's rusage), and with perf:
# syscalls per transaction (raw_syscalls:sys_enter) and context switches per transaction.
# Without a usable perf (perf_event_paranoid, no tracefs) the last two print as 0, said once.
# Ratios: io_uring/sysbench and io_uring/epoll (median of the per-pair ratios).
# Env: REPS (5), T (10), WARM (5), LOOPS (2), TABLE_SIZE (rows in each of 4 tables, 100000).
# Starts its own MariaDB on loopback (tests/mariadb.sh, port MY_PORT, default 33993) unless
# BENCH_MY_PORT and BENCH_MY_SOCK (root's unix socket) are set.
# Exit 0 unless a run failed; 77 without sysbench.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${T:-10}
WARM=${WARM:-5}
LOOPS=${LOOPS:-2}
[ -x "$S" ] || { echo "perf/evl: $S not installed (apt-get install sysbench)"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
perf_mariadb perf-evl-mariadb 33993 --innodb-buffer-pool-size=256M perfevl
perf_sql "CREATE DATABASE perfevl"
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=perfevl --mysql-ssl=off --tables=4 --table-size=${TABLE_SIZE:-100000}"
perf_sb_persona # $BS: bench as `sysbench`
# perf stat counting the client's syscalls and context switches, when this host lets it
P=""
if command -v perf >/dev/null 2>&1 &&
    perf stat -x, -o /dev/null -e task-clock,context-switches,raw_syscalls:sys_enter true >/dev/null 2>&1; then
    P=perf
fi
perf_header evl
perf_cmd sysbench "$S WORKLOAD $C --threads=N --time=$T run"
perf_cmd epoll "$BS WORKLOAD $C --threads=N --time=$T --event-loops=$LOOPS --event-backend=epoll run"
perf_cmd io_uring "$BS WORKLOAD $C --threads=N --time=$T --event-loops=$LOOPS --event-backend=io_uring run"
if [ -n "$P" ]; then
    echo "  (each under perf stat -e task-clock,context-switches,raw_syscalls:sys_enter: CPU is task-clock)"
else
    echo "  (perf cannot count here: syscalls/txn and cs/txn print as 0; CPU from rusage)"
fi
"$S" oltp_read_write $C --threads=4 prepare >/dev/null
# run BINARY [OPTION...]: prints "TPS CPU-s/1000-txn syscalls/txn cs/txn"
run() {
    secs=$T bin=$1
    shift
    [ "$perf_warming" = 0 ] || secs=$WARM
    if [ -n "$P" ]; then
        perf stat -x, -o "$PERF_TMP/stat" -e task-clock,context-switches,raw_syscalls:sys_enter \
            -- "$bin" "$wl" $C --threads="$th" --time="$secs" "$@" run >"$PERF_TMP/out" 2>&1 || return 1
        set -- $(awk -F, '$3 == "task-clock" { c = $1 / 1000 } $3 == "context-switches" { x = $1 }
            $3 ~ /sys_enter/ { s = $1 } END { print c, x, s }' "$PERF_TMP/stat")
        c=$1 cs=$2 sc=$3
    else
        c=$(perf_cpu "$PERF_TMP/out" "$bin" "$wl" $C --threads="$th" --time="$secs" "$@" run) || return 1
        cs=0 sc=0
    fi
    sed -n 's/^ *transactions: *\([0-9]*\) *(\([0-9.]*\) per sec.)/\1 \2/p' "$PERF_TMP/out" |
        awk -v c="$c" -v cs="$cs" -v sc="$sc" '$1 > 0 {
            printf "%s %.4f %.3f %.3f\n", $2, c / $1 * 1000, sc / $1, cs / $1 }'
}
sysbench() { run "$S"; }
epoll() { run "$BS" --event-loops="$LOOPS" --event-backend=epoll; }
io_uring() { run "$BS" --event-loops="$LOOPS" --event-backend=io_uring; }
PERF_WARMUP=1
for spec in oltp_point_select:8 oltp_point_select:64 oltp_read_write:16; do
    wl=${spec%:*} th=${spec#*:}
    perf_cmp "$wl, $th connections" "TPS CPU-s/1000-txn syscalls/txn cs/txn" sysbench epoll io_uring
done
echo "($("$S" --version) vs bench; MariaDB on loopback sharing the $(nproc) cores; ${T}s per run)"
perf_end
