#!/bin/sh
# Benchmark (not a test): bench against Debian's sysbench on the same MariaDB and dataset, in
# one run: oltp_point_select with 8 threads and oltp_read_write with 16 threads, T seconds
# each (default 10), alternating REPS times (default 1; the median is compared). Prints TPS,
# client CPU seconds per 1000 transactions (user+sys of the client process, from /proc), and
# the ratios. Goals: TPS >= 1.10x (point select), >= 1.05x (read_write); CPU/txn <= 0.5x.
# Starts its own MariaDB on loopback (tests/mariadb.sh) unless BENCH_MY_PORT is set.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${T:-10}
REPS=${REPS:-1}
[ -x "$S" ] || { echo "perf/oltp: $S not installed (apt-get install sysbench)"; exit 77; }
if [ -z "${BENCH_MY_PORT:-}" ]; then
    D=$top/build/perf-mariadb
    trap 'sh "$top/tests/mariadb.sh" stop "$D"' EXIT
    eval "$(sh "$top/tests/mariadb.sh" start "$D" 33990)"
fi
mariadb --no-defaults -uroot -S "$BENCH_MY_SOCK" -e "DROP DATABASE IF EXISTS perf; CREATE DATABASE perf"
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=perf --mysql-ssl=off --tables=4 --table-size=100000"
"$S" oltp_read_write $C --threads=4 prepare >/dev/null
# bench runs as `sysbench` (a symlink): the same defaults, and the sysbench persona may use the
# tables sysbench made (the bench persona writes only to tables it created)
mkdir -p "$top/build/perfbin" && ln -sf "$B" "$top/build/perfbin/sysbench"
B=$top/build/perfbin/sysbench
hz=$(getconf CLK_TCK)
run() { # run BINARY WORKLOAD THREADS -> "tps ticks"
    out=$(sh -c '"$@" > "$OUT" 2>&1; set -- $(cat /proc/$$/stat); echo $(( ${16} + ${17} ))' sh \
        "$1" "$2" $C --threads="$3" --time="$T" run)
    tps=$(sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.)/\1/p' "$OUT")
    echo "$tps $out"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
OUT=$top/build/perf-oltp.out
export OUT
mkdir -p "$top/build"
printf '%-26s %10s %10s %7s %16s %16s %7s\n' "workload (threads)" "sysbench" "bench" "ratio" "sb CPU s/1k txn" "bench CPU s/1k" "ratio"
for spec in oltp_point_select:8 oltp_read_write:16; do
    wl=${spec%:*} th=${spec#*:}
    st="" bt="" sc="" bc="" i=0
    while [ $i -lt "$REPS" ]; do
        set -- $(run "$S" "$wl" "$th"); st="$st $1"; sc="$sc $(awk -v t="$2" -v n="$1" -v T="$T" -v hz="$hz" 'BEGIN { printf "%.4f", t / hz / (n * T) * 1000 }')"
        set -- $(run "$B" "$wl" "$th"); bt="$bt $1"; bc="$bc $(awk -v t="$2" -v n="$1" -v T="$T" -v hz="$hz" 'BEGIN { printf "%.4f", t / hz / (n * T) * 1000 }')"
        i=$((i + 1))
    done
    s=$(echo $st | tr ' ' '\n' | median) b=$(echo $bt | tr ' ' '\n' | median)
    scm=$(echo $sc | tr ' ' '\n' | median) bcm=$(echo $bc | tr ' ' '\n' | median)
    awk -v w="$wl ($th)" -v s="$s" -v b="$b" -v sc="$scm" -v bc="$bcm" 'BEGIN {
        printf "%-26s %10.1f %10.1f %7.3f %16.4f %16.4f %7.3f\n", w, s, b, (s > 0) ? b / s : 0, sc, bc, (sc > 0) ? bc / sc : 0 }'
done
mariadb --no-defaults -uroot -S "$BENCH_MY_SOCK" -e "DROP DATABASE perf"
echo "($("$S" --version) vs bench; MariaDB on loopback sharing the $(nproc) cores; ${T}s per run, median of $REPS)"
