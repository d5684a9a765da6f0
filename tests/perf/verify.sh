#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# no peer: its peer is bench itself without --verify-writes (the ratios are ledger / plain)
# Benchmark (not a test): what --verify-writes costs the client (docs/cli.md "Outages"): the
# same run with and without the ledger, alternating (ABBA), REPS (default 5) times, for
# oltp_insert (4 threads), oltp_write_only (4 threads, TABLE_SIZE rows, default 10000) and
# bulk_insert (4 threads, its tables made anew before each run: its ids start at 1), T
# seconds each (default 5). Figures per run: TPS, client CPU microseconds per transaction
# (user+sys, all threads, wait4's rusage: the run and, with the ledger, its audit after it)
# and, with the ledger, its bytes per acknowledged row state (JSON ledger_bytes/acknowledged).
# The peer here is bench without the option: ratios are ledger/plain.
# Starts its own MariaDB on loopback (tests/mariadb.sh, port MY_PORT, default 34790) unless
# BENCH_MY_PORT and BENCH_MY_SOCK (root's unix socket) are set.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
T=${T:-5}
command -v python3 >/dev/null || { echo "perf/verify: python3 (wait4's rusage of a run) not installed"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
perf_mariadb perf-verify-mariadb 34790 "" perfverify
perf_sql "CREATE DATABASE perfverify"
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=perfverify --threads=4 --time=$T --format=json"
perf_header verify
perf_cmd plain "$B WORKLOAD $C run"
perf_cmd ledger "$B WORKLOAD $C --verify-writes run"
# cost OUT CMD...: runs CMD (stdout to OUT); prints "TPS us/txn BYTES/row" from its rusage and
# its JSON (bytes 0 without a ledger)
cost() {
    python3 - "$@" <<'PY'
import json, os, sys
out, cmd = sys.argv[1], sys.argv[2:]
fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
pid = os.fork()
if pid == 0:
    os.dup2(fd, 1)
    try:
        os.execv(cmd[0], cmd)
    finally:
        os._exit(127)
_, st, ru = os.wait4(pid, 0)
if not os.WIFEXITED(st) or os.WEXITSTATUS(st) != 0:
    sys.exit(1)
doc = [json.loads(l) for l in open(out)][-1]
ev = doc["results"]["events"]
v = doc.get("outage", {}).get("verify_writes")
per = v["ledger_bytes"] / v["acknowledged"] if v and v["acknowledged"] else 0
print("%.1f %.2f %.3f" % (doc["results"]["events_per_s"], (ru.ru_utime + ru.ru_stime) * 1e6 / max(ev, 1), per))
PY
}
fresh() { # bulk_insert's tables anew (a run's ids start at 1)
    [ "$wl" = bulk_insert ] || return 0
    "$B" "$wl" $C $extra cleanup >/dev/null 2>&1 || true
    "$B" "$wl" $C $extra prepare >/dev/null
}
plain() { fresh; cost "$PERF_TMP/out" "$B" "$wl" $C $extra run; }
ledger() { fresh; cost "$PERF_TMP/out" "$B" "$wl" $C $extra --verify-writes run; }
for wl in oltp_insert oltp_write_only bulk_insert; do
    extra=
    [ "$wl" != oltp_write_only ] || extra="--table-size=${TABLE_SIZE:-10000}"
    "$B" "$wl" $C $extra cleanup >/dev/null 2>&1 || true
    "$B" "$wl" $C $extra prepare >/dev/null
    perf_cmp "$wl" "tps us/txn bytes/row" plain ledger
    "$B" "$wl" $C $extra cleanup >/dev/null 2>&1 || true
done
perf_end
