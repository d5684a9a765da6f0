#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): 1, 2 and 4 client "hosts" (network namespaces on a bridge,
# tests/multihost_lib.sh) against one MariaDB in the root namespace, oltp_insert
# --auto-inc=off with TT threads in all (default 8: TT/H per host, --client-index/--client-count,
# one --start-at), merged with `bench merge`; beside one process in one namespace with the same
# TT threads. Figures: total TPS and p99 latency (ms) of the merged result and of the one
# process; REPS alternating (ABBA) repetitions of T seconds (default 10) each; then the table.
# Env: REPS (5), T (10), TT (8), LEAD (seconds from launch to the common start, 10).
# no peer: the comparison is bench as one process with the same total threads, not another tool
# Exit 0 unless a run failed; 77 when not root or a tool is missing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
T=${T:-10}
TT=${TT:-8}
LEAD=${LEAD:-10}
[ "$(id -u)" = 0 ] || { echo "perf/multihost: not root: network namespaces need CAP_NET_ADMIN"; exit 77; }
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || { echo "perf/multihost: no mariadb-server"; exit 77; }
# without `bench merge` (a build before it): the parts' events over their common window and
# the largest of their p99s (an upper bound of the merged p99, not it), said in the output
MERGE=1
"$B" merge 2>&1 | grep -q "unknown test 'merge'" && MERGE=0
. "$top/tests/perf/lib/common.sh"
. "$top/tests/multihost_lib.sh"
W=$(mktemp -d /tmp/bmh.XXXXXX)
trap 'mh_down; [ -n "${DBDIR:-}" ] && sh "$top/tests/mariadb.sh" stop "$DBDIR"; rm -rf "$W" "$PERF_TMP"' EXIT
mh_up "$W" 4 >/dev/null || { echo "perf/multihost: the namespace hosts could not be made"; exit 1; }
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DBDIR=$W/db
menv=$(BENCH_MY_BIND_EXTRA=10.213.0.1 sh "$top/tests/mariadb.sh" start "$DBDIR" "$PORT") || exit 1
PORT=$(echo "$menv" | sed -n 's/.*BENCH_MY_PORT=\([0-9]*\).*/\1/p') # the one it took
mariadb --no-defaults -uroot -S "$DBDIR/sock" -e "CREATE DATABASE perf"
DB="--no-defaults --mysql-host=10.213.0.1 --mysql-port=$PORT --mysql-user=nat --mysql-password=secret --mysql-db=perf"
RUN="oltp_insert --auto-inc=off --tables=4 --time=$T --percentile=99 --start-at-force"
"$B" $RUN $DB --rand-seed=1 prepare >/dev/null
echo 1 >"$W/seed"
# every run on empty tables, with a seed of its own (runs are subshells: the count is a file)
fresh() {
    mariadb --no-defaults -uroot -S "$DBDIR/sock" perf -e "TRUNCATE sbtest1; TRUNCATE sbtest2; TRUNCATE sbtest3; TRUNCATE sbtest4" || return 1
    seed=$(($(cat "$W/seed") + 1)) && echo $seed >"$W/seed"
}

# figures of a text result: TPS and the p99 (ms)
figs() { awk '/^ +transactions:/ { gsub(/\(/, "", $3); t = $3 } /99th percentile:/ { p = $3 }
    END { if (t == "" || p == "") exit 1; print t, p }' "$1"; }

one() { # one process, TT threads, in bmh1
    fresh || return 1
    ip netns exec bmh1 "$B" $RUN $DB --threads=$TT --rand-seed=$seed run >"$W/one.out" 2>&1 || return 1
    figs "$W/one.out"
}

multi() { # H namespace hosts, TT/H threads each, one start; bench merge
    fresh || return 1
    start=$(date -u -d "+$LEAD seconds" +%Y-%m-%dT%H:%M:%SZ)
    rm -f "$W"/c*.json
    i=0
    while [ $i -lt "$H" ]; do
        ip netns exec "bmh$((i + 1))" "$B" $RUN $DB --threads=$((TT / H)) --rand-seed=$seed \
            --client-index=$i --client-count="$H" --start-at="$start" --format=json run >"$W/c$i.json" 2>"$W/c$i.err" &
        i=$((i + 1))
    done
    wait
    for f in "$W"/c*.err; do # a client's failure, in its words
        grep -q . "$f" && ! grep -qv '^bench: \(clock\|start\|warning\|note\)' "$f" || { cat "$f" >&2; }
    done
    if [ $MERGE = 0 ]; then
        python3 - "$W"/c*.json <<'PY'
import json, sys
d = [json.load(open(f))['results'] for f in sys.argv[1:]]
lo = max(r['window_start_unix_ns'] for r in d)
hi = min(r['window_end_unix_ns'] for r in d)
print('%.2f %.2f' % (sum(r['events'] for r in d) / ((hi - lo) / 1e9),
                     max(r['latency_ns']['percentiles']['p99'] for r in d) / 1e6))
PY
        return
    fi
    "$B" merge "$W"/c*.json >"$W/merged.out" 2>&1 || return 1
    figs "$W/merged.out"
}

perf_header multihost
perf_cmd "H hosts" "ip netns exec bmhI $B $RUN DB --threads=$TT/H --client-index=I --client-count=H --start-at=T --format=json run; $B merge c*.json"
perf_cmd "one process" "ip netns exec bmh1 $B $RUN DB --threads=$TT run"
echo "  (server: MariaDB in the root namespace at 10.213.0.1 over a bridge; netem: $MH_NETEM)"
[ $MERGE = 1 ] || echo "  (this bench has no 'merge': the hosts' figures are their events over the common window and the LARGEST of their p99s, not the merged p99)"
: >"$W/table"
for H in 1 2 4; do
    perf_cmp "$H host(s), $TT threads in all" "tps p99_ms" one multi
    m=$(grep '^multi ' "$PERF_TMP/med") o=$(grep '^one ' "$PERF_TMP/med") r=$(cut -d' ' -f2- "$PERF_TMP/ratio")
    echo "$H $((TT / H)) $m $o $r" >>"$W/table"
done
echo
echo "hosts  threads/host  merged TPS  merged p99 ms  one-process TPS  one-process p99 ms  TPS ratio  p99 ratio"
awk '{ printf "%5s  %12s  %10s  %13s  %15s  %18s  %9s  %9s\n", $1, $2, $4, $5, $7, $8, $9, $10 }' "$W/table"
perf_end
