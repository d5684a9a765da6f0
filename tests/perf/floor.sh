#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): how close bench comes to the floor, the least client CPU any client
# can spend per oltp_point_select transaction on this host (issue 13 asks bench's CPU per
# transaction to be <= 0.5x sysbench's). Per round, for each CONNS value (default "8 64"),
# six clients run oltp_point_select, T seconds each (default 8), against the same MariaDB and
# dataset:
#   sysbench     Debian's sysbench 1.0.20 (the peer)
#   bench        bench in thread mode (a thread per connection, sysbench's way)
#   bench_epoll  bench --event-loops=1 --event-backend=epoll
#   bench_uring  bench --event-loops=1 --event-backend=io_uring
#   floor_epoll  tests/perf/floor.c -m epoll: one thread, a send and a recv per statement
#   floor_uring  tests/perf/floor.c -m uring: one thread, multishot recvs into provided
#                buffers, a turn's sends submitted with the wait in one io_uring_enter
# The floor does nothing but the statements (see floor.c): what it spends is what the
# kernel and a minimal protocol cost, the least a client can spend here.
# Fair by construction:
# - the same user for all (bench_floor, no password: the floor does no auth; created here
#   with SELECT on the perf schema, dropped at exit), TCP to 127.0.0.1, TLS off for all (the
#   server's Ssl_accepts is checked to stay put);
# - the same server work per transaction: sysbench's table choice (uniform over the 4
#   tables, per event) and row ids (--rand-type=special, its default) in the floor; checked
#   with the server's counters: Com_stmt_execute and Bytes_sent per transaction of every
#   client are printed, and the floors' must be within 2% of sysbench's (else the script
#   fails); Bytes_received per transaction is printed too (the requests' size);
# - the dataset (4 x TABLE_SIZE rows, sysbench's prepare) fits the buffer pool (raised on
#   the script's own server as in oltp.sh); one warm-up run of WARM seconds (default 3) of
#   each client before timing each CONNS value;
# - runs alternate (ABBA) REPS (default 5) times; every run's figures, the medians and the
#   median of the per-pair ratios to sysbench are printed.
# Figures per run: TPS, client CPU microseconds per transaction (user+sys of the client
# process, all threads: wait4's rusage as in oltp.sh, taken by tests/perf/rusage.c),
# voluntary and involuntary context switches per transaction (the same rusage), and the
# server's counters per transaction.
# The last line gives the floor ratio (the best floor's CPU/txn over sysbench's) and bench's.
# Env: REPS (5), T (8), WARM (3), CONNS ("8 64"), TABLE_SIZE (100000), CC (gcc).
# Starts its own MariaDB on loopback (tests/mariadb.sh, port MY_PORT, default 33994) unless
# BENCH_MY_PORT and BENCH_MY_SOCK (root's unix socket) are set; then the counters are the
# whole server's: other clients on it spoil the check.
# Exit 0 unless a run or a check failed; 77 without sysbench or a C compiler.
# REPS=3 T=5 takes about 5 minutes on a loaded 2-CPU host (4m55s at load average 35).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${T:-8}
WARM=${WARM:-3}
CONNS=${CONNS:-8 64}
TS=${TABLE_SIZE:-100000}
CC=${CC:-gcc}
U=bench_floor
[ -x "$S" ] || { echo "perf/floor: $S not installed (apt-get install sysbench)"; exit 77; }
command -v "$CC" >/dev/null || { echo "perf/floor: $CC (to build tests/perf/floor.c) not installed"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
# the floor, and rusage (runs a command, prints its wait4 rusage: "CPU-s VCSW IVCSW")
F=$top/build/perf-floor/floor R=$top/build/perf-floor/rusage
mkdir -p "$top/build/perf-floor"
for p in floor rusage; do
    "$CC" -O2 -std=c11 -Wall -Wextra -Wconversion -o "$top/build/perf-floor/$p" "$top/tests/perf/$p.c" ||
        { echo "perf/floor: building tests/perf/$p.c failed"; exit 1; }
done
# on any exit: the perf database and the floor's user dropped, the server this script
# started stopped
perf_mariadb perf-floor-mariadb 33994 "" perf
perf_sql "CREATE DATABASE perf"
perf_user "$U" "SELECT ON perf.*"
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=$U --mysql-password= --mysql-db=perf --mysql-ssl=off --tables=4 --table-size=$TS"
FO="-h 127.0.0.1 -P $BENCH_MY_PORT -u $U -D perf -n 4 -s $TS"
perf_sb_persona # $BS: bench as `sysbench`
perf_header floor
perf_cmd sysbench "$S oltp_point_select $C --threads=N --time=$T run"
perf_cmd bench "$BS oltp_point_select $C --threads=N --time=$T run  ($BS -> $B)"
perf_cmd bench_epoll "$BS ... --event-loops=1 --event-backend=epoll run"
perf_cmd bench_uring "$BS ... --event-loops=1 --event-backend=io_uring run"
perf_cmd floor_epoll "$F $FO -c N -t $T -m epoll"
perf_cmd floor_uring "$F $FO -c N -t $T -m uring"
echo "  (N: $CONNS; TLS off for all; warm-up: one run of ${WARM}s of each client before timing each N)"
# the tables are made by sysbench as nat (the floor's user may only read them)
"$S" oltp_point_select $C --mysql-user=nat --mysql-password=secret --threads=4 prepare >/dev/null
perf_fit_pool perf sbtest1 sbtest2 sbtest3 sbtest4
# counters: "Com_stmt_execute Bytes_sent Bytes_received" of the whole server
counters() {
    perf_sql "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_stmt_execute', 'Bytes_sent', 'Bytes_received')" |
        awk '{ v[$1] = $2 } END { print v["Com_stmt_execute"], v["Bytes_sent"], v["Bytes_received"] }'
}
FIELDS="TPS CPUus/txn vcs/txn ivcs/txn exec/txn sent/txn recv/txn"
# measure CMD...: one run; prints the figures of FIELDS
measure() {
    c0=$(counters) || return 1
    r=$("$R" "$PERF_TMP/out" "$@") || { sed 's/^/    | /' "$PERF_TMP/out" >&2; return 1; }
    c1=$(counters) || return 1
    sed -n 's/^ *transactions: *\([0-9]*\) *(\([0-9.]*\) per sec.)/\1 \2/p' "$PERF_TMP/out" |
        awk -v r="$r" -v c0="$c0" -v c1="$c1" '$1 > 0 {
            split(r, u, " "); split(c0, a, " "); split(c1, b, " ")
            printf "%s %.2f %.3f %.3f %.4f %.2f %.2f\n", $2, u[1] / $1 * 1e6, u[2] / $1, u[3] / $1,
                (b[1] - a[1]) / $1, (b[2] - a[2]) / $1, (b[3] - a[3]) / $1 }'
}
secs() { if [ "$perf_warming" = 0 ]; then echo "$T"; else echo "$WARM"; fi; }
sysbench() { measure "$S" oltp_point_select $C --threads="$th" --time="$(secs)" run; }
bench() { measure "$BS" oltp_point_select $C --threads="$th" --time="$(secs)" run; }
bench_epoll() { measure "$BS" oltp_point_select $C --threads="$th" --time="$(secs)" --event-loops=1 --event-backend=epoll run; }
bench_uring() { measure "$BS" oltp_point_select $C --threads="$th" --time="$(secs)" --event-loops=1 --event-backend=io_uring run; }
floor_epoll() { measure "$F" $FO -c "$th" -t "$(secs)" -m epoll; }
floor_uring() { measure "$F" $FO -c "$th" -t "$(secs)" -m uring; }
fns="sysbench bench bench_epoll bench_uring floor_epoll floor_uring"
nf=$(echo "$FIELDS" | wc -w)
# vs_sysbench FN: the median of the per-rep ratios FN/sysbench of each figure (after perf_cmp)
vs_sysbench() {
    r=""
    for k in $(seq "$nf"); do
        r="$r $(paste -d' ' "$PERF_TMP/f.sysbench" "$PERF_TMP/f.$1" | awk -v k="$k" -v n="$nf" \
            '{ printf "%.4f\n", ($k > 0) ? $(n + k) / $k : 0 }' | perf_median | awk '{ printf "%.3f", $1 }')"
    done
    echo "$r"
}
ssl() { perf_sql "SHOW GLOBAL STATUS LIKE 'Ssl_accepts'" | cut -f2; }
PERF_WARMUP=1
: >"$PERF_TMP/table"
for th in $CONNS; do
    ssl0=$(ssl)
    perf_cmp "oltp_point_select, $th connections" "$FIELDS" $fns
    for fn in $fns; do
        [ -s "$PERF_TMP/f.$fn" ] || continue
        # shellcheck disable=SC2046 # the figures
        set -- $(vs_sysbench "$fn")
        echo "$th $fn $(grep "^$fn " "$PERF_TMP/med" | cut -d' ' -f2-) $*" >>"$PERF_TMP/table"
        # the server must do the same work per transaction: statements and bytes within 2%
        ok=$(awk -v e="$5" -v s="$6" 'BEGIN { print (e >= 0.98 && e <= 1.02 && s >= 0.98 && s <= 1.02) }')
        case $fn:$ok in
        floor_*:0) perf_fail "$th connections: $fn's Com_stmt_execute/txn ${5}x, Bytes_sent/txn ${6}x sysbench's (must be within 2%)" ;;
        *:0) echo "  NOTE: $fn's Com_stmt_execute/txn ${5}x, Bytes_sent/txn ${6}x sysbench's (not within 2%)" ;;
        esac
    done
    n=$(($(ssl) - ssl0))
    echo "  TLS handshakes the server accepted during these runs: $n"
    [ "$n" = 0 ] || perf_fail "$th connections: $n connection(s) used TLS although all were given TLS off"
done
echo "-- medians per transaction (CPU in microseconds, user+sys; vcs/ivcs: voluntary/involuntary" \
    "context switches; exec/sent/recv: the server's Com_stmt_execute, Bytes_sent, Bytes_received)"
printf '%5s %-12s %9s %9s %8s %8s %8s %8s %8s\n' conn client TPS CPUus/txn vcs/txn ivcs/txn exec/txn sent/txn recv/txn
while read -r n f a b c d e g h _; do
    printf '%5s %-12s %9s %9s %8s %8s %8s %8s %8s\n' "$n" "$f" "$a" "$b" "$c" "$d" "$e" "$g" "$h"
done <"$PERF_TMP/table"
echo "-- ratios to sysbench (median of the per-rep ratios client/sysbench)"
printf '%5s %-12s %7s %7s %7s %7s %7s %7s %7s\n' conn client "TPS x" "CPU x" "vcs x" "ivcs x" "exec x" "sent x" "recv x"
while read -r n f _ _ _ _ _ _ _ a b c d e g h; do
    [ "$f" != sysbench ] || continue
    printf '%5s %-12s %7s %7s %7s %7s %7s %7s %7s\n' "$n" "$f" "$a" "$b" "$c" "$d" "$e" "$g" "$h"
done <"$PERF_TMP/table"
# the summary: per N, the best floor's CPU ratio, bench's three, and bench's best over the floor
line=""
for th in $CONNS; do
    s=$(awk -v n="$th" '$1 == n { c[$2] = $11; u[$2] = $4 }
        END {
            if (!("floor_epoll" in c) || !("floor_uring" in c) || !("bench" in c)) exit 1
            fl = c["floor_epoll"] <= c["floor_uring"] ? "floor_epoll" : "floor_uring"
            bb = "bench"
            if (c["bench_epoll"] < c[bb]) bb = "bench_epoll"
            if (c["bench_uring"] < c[bb]) bb = "bench_uring"
            printf "%s conns: floor %.3fx (%s); bench %.3fx, bench_epoll %.3fx, bench_uring %.3fx; best bench (%s) %.2fx the floor'"'"'s CPU/txn",
                n, c[fl], fl, c["bench"], c["bench_epoll"], c["bench_uring"], bb, u[bb] / u[fl] }' "$PERF_TMP/table") ||
        s="$th conns: incomplete (a run failed)"
    line="${line:+$line | }$s"
done
echo "floor ratio (client CPU/txn over sysbench's; issue 13's goal for bench: <= 0.5x): $line"
echo "($("$S" --version) vs bench vs floor; MariaDB on loopback sharing the $(nproc) cores; ${T}s per run)"
perf_end
