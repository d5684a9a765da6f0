#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): every way bench can run its clients against Debian's sysbench on
# the same MariaDB and dataset, side by side: oltp_point_select with 8 and 64 connections and
# oltp_read_write with 16, T seconds each (default 10). The modes:
# - `threads`: a thread per connection, sysbench's way (--event-loops=0);
# - `loopL_uring`, `loopL_epoll`: the connections on L event-loop threads for each L in LOOPS
#   (default "1 2"), --event-backend=io_uring and epoll;
# - `default`: bench as `bench` with no --event-loops (auto: the mode chosen at the start
#   of the run from the connection count and a probe of the host, load_mode_pick; the mode
#   it chose is printed under each workload).
# Every bench mode runs as the bench persona (the default's), so that only the mode differs
# between them (the sysbench persona's own defaults do not enter).
# Fair by construction:
# - the same connection settings for all: TCP to 127.0.0.1, the same user, TLS set
#   explicitly and equally (SSL, default off: --mysql-ssl=off for all; the server's
#   Ssl_accepts counter is checked to agree); the tables are sysbench's (which the bench
#   persona may use: it writes to bench's or sysbench's tables only);
# - the dataset fits the buffer pool (checked after prepare from information_schema; on its
#   own server the script raises innodb_buffer_pool_size to fit, on a given server it says
#   when it does not), and before timing each workload one warm-up run of WARM seconds
#   (default 10) of each;
# - runs alternate (ABBA), REPS (default 5) times; every run's figures, the medians, the
#   median of the per-pair ratios to sysbench and of the default's to every other mode are
#   printed.
# Figures per run: TPS, client CPU seconds per 1000 transactions (user+sys of the client
# process, all its threads: wait4's rusage) and context switches per transaction (voluntary +
# involuntary, all threads: wait4's rusage, what /proc/PID/task/*/status would sum). Ratios:
# the median of the per-rep ratios of each bench run over sysbench's.
# Flags: a default beaten by another mode beyond the noise, i.e. the median of the per-rep
# TPS ratios default/mode below 1/(1 + noise), noise the larger relative spread
# ((max - min) / median) of the two modes' TPS over the reps, at least NOISE (default 0.05):
# a "FLAG:" line, and exit 3.
# Goals: TPS >= 1.15x (point select), >= 1.10x (read_write); CPU/txn <= 0.5x; no FLAG.
# Env: REPS (5), T (10), WARM (10), SSL (off), TABLE_SIZE (rows in each of 4 tables, 100000),
# LOOPS (the --event-loops values of the loop-mode runs, default "1 2"), NOISE (0.05),
# SPECS (the workloads, default "oltp_point_select:8 oltp_point_select:64 oltp_read_write:16").
# Starts its own MariaDB on loopback (tests/mariadb.sh, port MY_PORT, default 33990) unless
# BENCH_MY_PORT and BENCH_MY_SOCK (root's unix socket) are set. The host's other load moves
# every figure: on a shared host compare only within a run (alternating), not across runs.
# Exit 0, 1 if a run failed, 3 if the default was beaten beyond the noise; 77 without sysbench.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${T:-10}
WARM=${WARM:-10}
LOOPS=${LOOPS:-1 2}
SSL=${SSL:-off}
[ -x "$S" ] || { echo "perf/oltp: $S not installed (apt-get install sysbench)"; exit 77; }
command -v python3 >/dev/null || { echo "perf/oltp: python3 (wait4's rusage of a run) not installed"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
# on any exit: the perf database dropped, the server this script started stopped
perf_mariadb perf-mariadb 33990 "" perf
perf_sql "CREATE DATABASE perf"
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=perf --mysql-ssl=$SSL --tables=4 --table-size=${TABLE_SIZE:-100000}"
perf_header oltp
perf_cmd sysbench "$S WORKLOAD $C --threads=N --time=$T run"
perf_cmd threads "$B WORKLOAD $C --threads=N --time=$T --event-loops=0 run"
for l in $LOOPS; do
    for be in uring epoll; do
        perf_cmd "loop${l}_$be" "$B WORKLOAD $C --threads=N --time=$T --event-loops=$l --event-backend=$(echo $be | sed 's/uring/io_uring/') run"
    done
done
perf_cmd default "$B WORKLOAD $C --threads=N --time=$T run"
echo "  (WORKLOAD (N): oltp_point_select (8, 64), oltp_read_write (16); TLS: --mysql-ssl=$SSL for all;" \
    "warm-up: one run of ${WARM}s of each tool before timing a workload)"
"$S" oltp_read_write $C --threads=4 prepare >/dev/null
# the dataset (data + indexes) against the buffer pool
perf_fit_pool perf sbtest1 sbtest2 sbtest3 sbtest4
# run BINARY [OPTION...]: prints "TPS CPU-s/1000-txn ctxsw/txn"
run() {
    secs=$T bin=$1
    shift
    [ "$perf_warming" = 0 ] || secs=$WARM
    c=$(perf_rusage "$PERF_TMP/out" "$bin" "$wl" $C --threads="$th" --time="$secs" "$@" run) || return 1
    # the default: the mode it chose (its header's Client mode and Client I/O lines)
    [ "$bin" != "$B" ] || [ -n "$*" ] || [ "$perf_warming" != 0 ] || sed -n 's/^Client mode: \([^(]*\) (.*/\1/p; s/^Client I\/O: \([a-z_]*\), .* on \([0-9]*\) event loops*$/\2 loop(s) on \1/p' \
        "$PERF_TMP/out" | tr '\n' ' ' | sed 's/ *$/\n/' >>"$PERF_TMP/mode.$wl.$th"
    perf_per_txn "$PERF_TMP/out" "$c"
}
sysbench() { run "$S"; }
threads() { run "$B" --event-loops=0; }
default() { run "$B"; }
fns="sysbench threads"
for l in $LOOPS; do
    eval "loop${l}_uring() { run \"\$B\" --event-loops=$l --event-backend=io_uring; }"
    eval "loop${l}_epoll() { run \"\$B\" --event-loops=$l --event-backend=epoll; }"
    fns="$fns loop${l}_uring loop${l}_epoll"
done
fns="$fns default" # last: perf_cmp prints default/X for every other mode
# spread FN: the relative spread of FN's TPS over the reps, (max - min) / median
spread() {
    m=$(cut -d' ' -f1 "$PERF_TMP/f.$1" | perf_median)
    cut -d' ' -f1 "$PERF_TMP/f.$1" | sort -g | awk -v m="$m" 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.4f", (m > 0 ? (hi - lo) / m : 0) }'
}
flags=0
# vs_sysbench FN: the median of the per-rep ratios FN/sysbench of each figure (after perf_cmp)
vs_sysbench() {
    r=""
    for k in 1 2 3; do
        r="$r $(paste -d' ' "$PERF_TMP/f.sysbench" "$PERF_TMP/f.$1" | awk -v k="$k" \
            '{ printf "%.4f\n", ($k > 0) ? $(3 + k) / $k : 0 }' | perf_median | awk '{ printf "%.3f", $1 }')"
    done
    echo "$r"
}
ssl() { perf_sql "SHOW GLOBAL STATUS LIKE 'Ssl_accepts'" | cut -f2; }
PERF_WARMUP=1
: >"$PERF_TMP/table"
for spec in ${SPECS:-oltp_point_select:8 oltp_point_select:64 oltp_read_write:16}; do
    wl=${spec%:*} th=${spec#*:}
    ssl0=$(ssl)
    : >"$PERF_TMP/mode.$wl.$th"
    perf_cmp "$wl, $th threads" "TPS CPU-s/1000-txn ctxsw/txn" $fns
    echo "  the default chose: $(sort "$PERF_TMP/mode.$wl.$th" | uniq -c | sed 's/^ *\([0-9]*\) \(.*\)/\2 (\1 runs)/' | paste -sd';' -)"
    # a default beaten by another mode beyond the noise
    sd=$(spread default)
    while read -r fn r _; do
        [ "$fn" != sysbench ] || continue
        noise=$(awk -v a="$sd" -v b="$(spread "$fn")" -v f="${NOISE:-0.05}" 'BEGIN { n = (a > b ? a : b); printf "%.4f", (n > f ? n : f) }')
        if awk -v r="$r" -v n="$noise" 'BEGIN { exit !(r > 0 && r * (1 + n) < 1) }'; then
            echo "  FLAG: $wl, $th connections: the default beaten by $fn: default/$fn TPS ${r}x, beyond the noise (${noise})"
            flags=$((flags + 1))
        fi
    done <"$PERF_TMP/ratio"
    for fn in $fns; do
        [ "$fn" = sysbench ] || [ ! -s "$PERF_TMP/f.$fn" ] || {
            # shellcheck disable=SC2046 # three figures
            set -- $(vs_sysbench "$fn")
            echo "  $fn/sysbench (median of pair ratios): TPS $1x, CPU/txn $2x, ctxsw/txn $3x"
            echo "$wl $th $fn $(grep "^$fn " "$PERF_TMP/med" | cut -d' ' -f2-) $1 $2 $3" >>"$PERF_TMP/table"
        }
    done
    n=$(($(ssl) - ssl0))
    echo "  TLS handshakes the server accepted during these runs: $n"
    if [ "$SSL" = off ] && [ "$n" != 0 ]; then
        perf_fail "$wl: $n connection(s) used TLS although both tools were given --mysql-ssl=off"
    fi
done
echo "-- table (medians; ratios: median of the per-rep ratios to sysbench; goals: TPS >= 1.15x" \
    "point select, >= 1.10x read_write, CPU/txn <= 0.5x)"
printf '%-18s %4s %-12s %9s %9s %8s %7s %7s %7s\n' workload conn tool TPS CPUms/txn cs/txn "TPS x" "CPU x" "cs x"
while read -r w n f tps cpu cs a b d; do
    printf '%-18s %4s %-12s %9s %9s %8s %7s %7s %7s\n' "$w" "$n" "$f" "$tps" "$cpu" "$cs" "$a" "$b" "$d"
done <"$PERF_TMP/table"
echo "($("$S" --version) vs bench; MariaDB on loopback sharing the $(nproc) cores; ${T}s per run)"
if [ "$flags" != 0 ] && [ "$perf_failed" = 0 ]; then
    echo "(load average at end $(cut -d' ' -f1-3 /proc/loadavg))"
    echo "perf/oltp: the default was beaten beyond the noise $flags time(s) (the FLAG lines)"
    exit 3
fi
perf_end
