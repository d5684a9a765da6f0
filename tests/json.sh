#!/bin/sh
# --format=json and --output (docs/json.md): every test and command writes JSON lines and one
# result document that follow docs/bench-result.schema.json (python3-jsonschema) and its
# relations (tests/json_check.py); nothing else reaches standard output; exit codes are those
# of the text format; secrets never appear. The database part needs the suite's MariaDB
# (run.sh exports BENCH_MY_*; else one of our own is started when BENCH_JSON_PORT is set).
set -u
t_name=json
. "$(dirname "$0")/lib.sh"
SCHEMA=$top/docs/bench-result.schema.json
python3 -c 'import jsonschema' 2>/dev/null || { echo "json: SKIP: python3-jsonschema is not installed"; exit 77; }
own_db=
t_at_exit() { [ -z "$own_db" ] || sh "$top/tests/mariadb.sh" stop "$w/mdb"; }
if [ -z "${BENCH_MY_PORT:-}" ] && [ -n "${BENCH_JSON_PORT:-}" ]; then
    menv=$(sh "$top/tests/mariadb.sh" start "$w/mdb" "$BENCH_JSON_PORT") || exit 77
    eval "$menv"
    own_db=1
fi
[ -n "${BENCH_MY_PORT:-}" ] || { echo "json: SKIP: BENCH_MY_PORT unset (run via tests/run.sh, or set BENCH_JSON_PORT)"; exit 77; }

# j NAME CHECKARGS -- ARGS...: run bench ARGS --format=json in $w; its stdout must pass
# json_check.py with CHECKARGS (plus the exit code); stderr is kept in $w/err
j() {
    name=$1; shift
    ca=
    while [ "$1" != -- ]; do ca="$ca $1"; shift; done
    shift
    (cd "$w" && "$B" "$@" --format=json >"$w/out" 2>"$w/err"); rc=$?
    # shellcheck disable=SC2086
    if python3 "$top/tests/json_check.py" "$SCHEMA" "$w/out" --exit $rc $ca; then ok; else
        bad "$name (exit $rc): bench $*"; head -c 600 "$w/out"; echo; head -5 "$w/err"
    fi
}

# 1. the built-in tests, with intervals, checkpoints, several percentiles, the histogram
j cpu --end limit --complete yes --intervals --results -- cpu --time=2 --report-interval=1 --percentile=50,95,99.9 --histogram --cpu-max-prime=2000 run
j cpu-ckpt --checkpoints --results -- cpu --time=2 --report-checkpoints=1 --cpu-max-prime=2000 run
j cpu-events --complete yes --no-lines -- cpu --events=500 --time=0 --threads=2 --cpu-max-prime=1000 run
j cpu-rate --intervals -- cpu --time=2 --rate=200 --report-interval=1 --cpu-max-prime=1000 run
j memory --complete yes --results -- memory --memory-total-size=64M --time=0 run
j threads --complete yes -- threads --threads=2 --events=200 --time=0 run
j mutex --complete yes -- mutex --threads=2 --mutex-locks=2000 run
FS="--file-num=2 --file-total-size=8M"
j fileio-prepare --complete yes --exit 0 -- fileio $FS prepare
j fileio-sync --complete yes --intervals --checkpoints -- fileio $FS --file-test-mode=rndrw --time=3 --report-interval=1 --report-checkpoints=2 --percentile=50,99 run
j fileio-async --complete yes -- fileio $FS --file-test-mode=rndrw --file-io-mode=async --events=300 --time=0 run
j fileio-cleanup --complete yes -- fileio $FS cleanup
j fileio-no-files --complete no --exit 3 -- fileio $FS --file-test-mode=seqrd --time=1 run

# 2. the database tests against the suite's MariaDB
ROOT="mariadb --no-defaults -uroot -S ${BENCH_MY_SOCK:-/nonexistent}"
$ROOT -e "DROP DATABASE IF EXISTS jsontest; CREATE DATABASE jsontest" 2>/dev/null || bad "cannot create the database jsontest"
C="--no-defaults --mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=jsontest"
j ping --complete yes -- ping $C --count=3
grep -q secret "$w/out" && bad "ping: the password is in the document" || ok
for wl in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_insert oltp_update_index oltp_update_non_index oltp_delete; do
    j "$wl-prepare" --complete yes -- $wl $C --tables=2 --table-size=200 prepare
    j "$wl-run" --complete yes --results --intervals -- $wl $C --tables=2 --threads=2 --time=2 --report-interval=1 run
    j "$wl-prewarm" --complete yes -- $wl $C --tables=2 prewarm
    j "$wl-cleanup" --complete yes -- $wl $C --tables=2 cleanup
done
for wl in select_random_points select_random_ranges; do
    j "$wl-prepare" --complete yes -- $wl $C --tables=1 --table-size=200 prepare
    j "$wl-run" --complete yes --results -- $wl $C --tables=1 --events=50 --time=0 run
    j "$wl-cleanup" --complete yes -- $wl $C --tables=1 cleanup
done
j bulk_insert-prepare --complete yes -- bulk_insert $C --tables=1 prepare
j bulk_insert-run --complete yes --results -- bulk_insert $C --tables=1 --time=1 run
j bulk_insert-cleanup --complete yes -- bulk_insert $C --tables=1 cleanup
# steps: filled once the one-liner records its ladder with res_step (sizing_ section)
j oltp-one-liner --complete yes -- oltp --no-defaults -h 127.0.0.1 -P "$BENCH_MY_PORT" -u nat -psecret --max-threads=2 --step-time=1 --table-size=100
grep -q secret "$w/out" && bad "the one-liner: the password is in the document" || ok
# its knees from its rungs by docs/cli.md's rule (tests/oracle_all.py)
if o=$(python3 "$top/tests/oracle_all.py" "$w/out" 2>&1); then ok; else bad "the one-liner's knee: $o"; fi
# MYSQL_PWD never appears
(cd "$w" && MYSQL_PWD=secret "$B" ping -h 127.0.0.1 -P "$BENCH_MY_PORT" -u nat --count=1 --format=json >"$w/out" 2>"$w/err")
{ [ -s "$w/out" ] && ! grep -q secret "$w/out"; } && ok || bad "MYSQL_PWD: the password is in the document"

# 3. failures: the server gone (nothing listens), an interrupted run, a bad option
j server-gone --complete no --exit 3 --error B_SYSERR -- oltp_read_write --no-defaults --mysql-host=127.0.0.1 --mysql-port=1 --mysql-user=nat --mysql-password=secret --time=1 run
grep -q secret "$w/out" && bad "server-gone: the password is in the document" || ok
# ping and the one-liner with nothing listening: the document says why (not "invalid value")
j ping-gone --complete no --exit 3 --error B_SYSERR -- ping --no-defaults -h 127.0.0.1 -P 1 --count=1
grep -q '"errno_name":"ECONNREFUSED"' "$w/out" && grep -q '"action":"ping"' "$w/out" && ok || bad "ping-gone: no errno or action in the document"
j oltp-gone --complete no --exit 3 --error B_SYSERR -- oltp --no-defaults -h 127.0.0.1 -P 1 -u nat
grep -q '"errno_name":"ECONNREFUSED"' "$w/out" && ok || bad "oltp-gone: no errno in the document"
(cd "$w" && exec "$B" cpu --time=30 --report-interval=1 --cpu-max-prime=3000 run --format=json >"$w/out" 2>"$w/err") &
pid=$!
sleep 2
kill -INT $pid
wait $pid; rc=$?
python3 "$top/tests/json_check.py" "$SCHEMA" "$w/out" --exit $rc --end signal --complete no --intervals &&
    [ $rc = 1 ] && ok || { bad "interrupted run (exit $rc)"; head -c 400 "$w/out"; }
(cd "$w" && "$B" cpu --threads=0 run --format=json >"$w/out" 2>"$w/err"); rc=$?
{ [ $rc = 2 ] && [ ! -s "$w/out" ] && grep -q '^bench: ' "$w/err"; } && ok || bad "a bad option: exit $rc, stdout $(wc -c <"$w/out") bytes, stderr $(cat "$w/err")"

# 4. --output=FILE: the same document in the file, nothing on standard output
(cd "$w" && "$B" cpu --events=200 --time=0 --cpu-max-prime=1000 --rand-seed=1 run --format=json --output="$w/doc.json" >"$w/out" 2>"$w/err"); rc=$?
(cd "$w" && "$B" cpu --events=200 --time=0 --cpu-max-prime=1000 --rand-seed=1 run --format=json >"$w/out2" 2>/dev/null)
if [ $rc = 0 ] && [ ! -s "$w/out" ] && python3 "$top/tests/json_check.py" "$SCHEMA" "$w/doc.json" --exit 0 --no-lines &&
    python3 - "$w/doc.json" "$w/out2" <<'PY'
import json, sys
a, b = (json.loads(open(f).read()) for f in sys.argv[1:3])
for d in (a, b):
    for k in ("command", "started_at", "elapsed_s", "results", "host"):
        d.pop(k)
    d["options"].pop("output")
sys.exit(a != b)
PY
then ok; else bad "--output: exit $rc, stdout $(wc -c <"$w/out") bytes"; fi
# text too: the report goes to the file, nothing on standard output
(cd "$w" && "$B" cpu --events=100 --time=0 run --output="$w/doc.txt" >"$w/out" 2>"$w/err"); rc=$?
{ [ $rc = 0 ] && [ ! -s "$w/out" ] && grep -q '^General statistics:' "$w/doc.txt" && grep -q '^bench ' "$w/doc.txt"; } && ok || bad "--output with text: exit $rc"
(cd "$w" && "$B" cpu --events=10 --time=0 run --output=/nonexistent/dir/doc --format=json >"$w/out" 2>"$w/err"); rc=$?
{ [ $rc = 3 ] && [ ! -s "$w/out" ] && grep -q 'nonexistent' "$w/err"; } && ok || bad "--output to a missing directory: exit $rc"
# the sysbench persona takes --format=json too, and prints no banner
ln -s "$B" "$w/sysbench"
(cd "$w" && ./sysbench cpu --events=100 --time=0 run --format=json >"$w/out" 2>"$w/err"); rc=$?
python3 "$top/tests/json_check.py" "$SCHEMA" "$w/out" --exit $rc --complete yes --no-lines && ok || bad "the sysbench persona with --format=json"
# --format=text is the default's bytes
(cd "$w" && "$B" cpu --events=100 --time=0 --rand-seed=1 run --format=text | python3 "$top/tests/mask_timing.py" >"$w/a")
(cd "$w" && "$B" cpu --events=100 --time=0 --rand-seed=1 run | python3 "$top/tests/mask_timing.py" >"$w/b")
cmp -s "$w/a" "$w/b" && ok || bad "--format=text differs from the default"
# --version and --help with --format=json: one object, the version text's words in it
"$B" --version --format=json >"$w/out" 2>"$w/err"; rc=$?
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); v = sys.argv[2]
assert d["type"] == "version" and d["program"] == "bench" and d["version_text"] == v, d
assert d["sysbench_compatible"] == "1.0.20" and d["bench_version"] in v and "tests" not in d' "$w/out" "$("$B" --version)" && [ $rc = 0 ] && [ ! -s "$w/err" ] && ok || bad "--version --format=json: exit $rc: $(cat "$w/out" "$w/err")"
"$B" --help --format=json >"$w/out" 2>"$w/err"; rc=$?
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); names = [t["name"] for t in d["tests"]]
assert d["type"] == "help" and "cpu" in names and "slap" in names and len(names) == len(set(names)) >= 15, d' "$w/out" && [ $rc = 0 ] && ok || bad "--help --format=json: exit $rc: $(head -c 300 "$w/out")"
ln -s "$B" "$w/mariadb-slap"
"$w/mariadb-slap" -V --format=json >"$w/out"; rc=$?
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["program"] == "mariadb-slap" and d["version_text"].startswith("mariadb-slap  Ver 1.0 Distrib bench-"), d' "$w/out" && [ $rc = 0 ] && ok || bad "mariadb-slap -V --format=json: $(cat "$w/out")"

$ROOT -e "DROP DATABASE IF EXISTS jsontest" 2>/dev/null
t_summary
