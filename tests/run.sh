#!/bin/sh
# The integration tiers of `make test` (the unit tests run before this): golden CLI
# transcripts, compatibility with the real sysbench, docs sync, sanitizer runs of the engine,
# and the release binary's static linking. Ends with "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
cd "$top" || exit 1
export BENCH="$top/bench"
# Under CI (CI=true or 1; .ci/run exports it) a missing prerequisite (exit 77: no sysbench
# 1.0.20, no MariaDB, no BENCH_MY_HOST) fails the run instead of skipping a suite.
case ${CI:-} in true | 1) strict=1 ;; *) strict=0 ;; esac
# Hermetic: HOME is an empty directory of our own for every suite (tests/hermetic.sh)
. "$here/hermetic.sh"
pass=0 fail=0 skip=0
run_t0=$(date +%s)
# A suite's output goes to $lanes/suites/NAME.log, then is shown (a lane that is killed shows the
# part its current suite wrote: $lanes/LANE.cur names it); a failed suite is named again, with
# its first failure lines, at the end of the run (CI shows only the run's last lines).
failed=""
suite() { # suite NAME CMD...
    name=$1; shift
    echo "== $name"
    t0=$(date +%s)
    mkdir -p "$lanes/suites"
    slog=$lanes/suites/$name.log
    [ -z "${LANE_NAME:-}" ] || echo "$slog" >"$lanes/$LANE_NAME.cur"
    s_cur=$slog s_name=$name
    "$@" >"$slog" 2>&1
    rc=$?
    s_cur=""
    [ -z "${LANE_NAME:-}" ] || rm -f "$lanes/$LANE_NAME.cur"
    cat "$slog"
    dt="($(($(date +%s) - t0)) s)"
    [ $rc = 0 ] || { [ $rc = 77 ] && [ $strict = 0 ]; } || failed="$failed $name"
    if [ -n "$(ls -A "$hermetic")" ]; then
        echo "== $name: left files in the test HOME:"; ls -A "$hermetic"; rm -rf "${hermetic:?}"/* "$hermetic"/.[!.]*
    fi
    if [ $rc = 0 ]; then pass=$((pass + 1)); echo "== $name: ok $dt"
    elif [ $rc = 77 ] && [ $strict = 0 ]; then skip=$((skip + 1)); echo "== $name: skipped $dt"
    elif [ $rc = 77 ]; then fail=$((fail + 1)); echo "== $name: FAILED (skipped: a prerequisite is missing, CI=$CI) $dt"
    else fail=$((fail + 1)); echo "== $name: FAILED (exit $rc) $dt"; fi
    if [ -n "${LANE_NAME:-}" ]; then # the lane's counts so far: a lane killed later keeps them
        echo "$pass $fail $skip" >"$lanes/$LANE_NAME.counts"
        echo "$failed" >"$lanes/$LANE_NAME.failed"
    fi
}
# suite_interrupted (the EXIT trap): the output of a suite that a signal stopped
suite_interrupted() {
    [ -z "${s_cur:-}" ] || { echo "== $s_name: interrupted; its output so far:"; cat "$s_cur"; }
}

static_check() {
    readelf -l "$BENCH" | grep -q 'program interpreter' && { echo "bench is dynamically linked"; return 1; }
    readelf -S "$BENCH" | grep -q '\.symtab' && { echo "bench is not stripped"; return 1; }
    readelf -h "$BENCH" | grep -q 'X86-64' || { echo "bench is not x86_64"; return 1; }
    return 0
}

# A binary built with a sanitizer runs the engine's concurrent paths: workers, the
# controller (intervals, checkpoints, warmup), --rate, and every workload.
san_runs() { # san_runs BINARY (its files, database and slap schema named after it: the
    # two sanitizer builds run at the same time)
    b=$1 tag=$(basename "$1" | tr - _)
    SF="--file-num=4 --file-total-size=8M --file-dir=$top/build/san-files-$tag"
    DB="--no-defaults -h 127.0.0.1 -P ${BENCH_MY_PORT:-1} -u nat -psecret -D $tag"
    [ -z "${BENCH_MY_SOCK:-}" ] || mariadb --no-defaults -uroot -S "$BENCH_MY_SOCK" -e "CREATE DATABASE IF NOT EXISTS $tag"
    set -- \
        "cpu --threads=4 --time=2 --report-interval=1 --report-checkpoints=1 --rate=500 --cpu-max-prime=2000 --warmup-time=1 run" \
        "cpu --threads=3 --events=300 --time=0 --histogram --percentile=50,99 --cpu-max-prime=2000 run" \
        "threads --threads=4 --events=200 --thread-yields=20 --thread-locks=2 run" \
        "mutex --threads=4 --mutex-locks=2000 --mutex-loops=100 --mutex-num=8 run" \
        "memory --threads=2 --memory-total-size=32M --memory-block-size=64K --memory-scope=local --time=0 run" \
        "memory --threads=2 --memory-total-size=8M --memory-access-mode=rnd --memory-oper=read --time=0 run" \
        "fileio $SF --validate prepare" \
        "fileio $SF --threads=2 --file-test-mode=rndrw --events=2000 --time=0 --validate run" \
        "fileio $SF --threads=2 --file-test-mode=rndrw --file-io-mode=async --file-queue-depth=8 --events=2000 --time=0 --report-interval=1 run" \
        "fileio $SF --threads=2 --file-test-mode=seqrd --file-io-mode=mmap --events=500 --time=0 run" \
        "fileio $SF cleanup" \
        "ping --no-defaults -h 127.0.0.1 -P ${BENCH_MY_PORT:-1} -u nat -psecret --count=20" \
        "ping --no-defaults -h 127.0.0.1 -P ${BENCH_MY_PORT:-1} -u ed -pfoobar --ssl-mode=DISABLED --count=5" \
        "slap --no-defaults -h 127.0.0.1 -P ${BENCH_MY_PORT:-1} -u nat -psecret -a -c 2,4 -i 2 --number-of-queries=100 --auto-generate-sql-add-autoincrement --commit=3 --detach=5 --percentile=99 --create-schema=${tag}_slap" \
        "slap --no-defaults -h 127.0.0.1 -P ${BENCH_MY_PORT:-1} -u nat -psecret -a -c 2,5 -i 2 --number-of-queries=100 --auto-generate-sql-add-autoincrement --commit=3 --detach=5 --percentile=99 --event-loops=2 --create-schema=${tag}_slap" \
        "oltp_read_write $DB --threads=3 --tables=3 --table-size=500 prepare" \
        "oltp_read_write $DB --threads=4 --tables=3 --time=2 --report-interval=1 run" \
        "oltp_read_write $DB --threads=4 --tables=3 --time=2 --report-interval=1 --outage-report --verify-writes run" \
        "oltp_read_write $DB --threads=2 --tables=3 --events=50 --time=0 --db-ps-mode=disable --ssl-mode=REQUIRED run" \
        "oltp_read_write $DB --threads=3 --tables=3 prewarm" \
        "oltp_read_write $DB --tables=3 cleanup" \
        "tpcc $DB --threads=2 --scale=1 prepare" \
        "tpcc $DB --threads=4 --scale=1 --time=2 --report-interval=1 --enable-purge=yes run" \
        "tpcc $DB --threads=4 --scale=1 --time=2 --event-loops=2 --enable-purge=yes run" \
        "tpcc $DB --scale=1 --tpcc-mode=spec --tpcc-terminals=40 --tpcc-time-scale=0.01 --time=2 run" \
        "tpcc $DB --threads=2 --scale=1 check" \
        "tpcc $DB --scale=1 cleanup"
    err=$top/build/$tag.err
    rm -rf "$top/build/san-files-$tag" && mkdir -p "$top/build/san-files-$tag"
    for a in "$@"; do
        # shellcheck disable=SC2086
        if ! "$b" $a >/dev/null 2>"$err"; then
            echo "$b $a: failed"; cat "$err"; return 1
        fi
        if grep -qv '^bench: \(warning\|hint\):' "$err"; then
            echo "$b $a: sanitizer output:"; cat "$err"; return 1
        fi
    done
    return 0
}

# Lanes in the background: suites that share nothing with those running at the same time
# run there, each lane a process group of its own (setsid: a signal to the run, or its end,
# kills the lane and everything it started) with a HOME of its own; its output is printed when
# it ends, then its counts join ours. bg NAME FUNCTION starts one; bg_wait NAME waits for it,
# at most LANE_LIMIT seconds (default 1500) from its start, then kills it: FAILED (timed
# out). The lane is a new sh that sources $lane_src (this file) with RUN_SH_LIB=1 (the
# functions only) and runs lane_main NAME FUNCTION. lanes_kill_all (the EXIT trap) kills what
# is left and removes the lanes' HOMEs.
lanes=${RUN_LANES:-$top/build/lanes}
lane_src=${RUN_LANE_SRC:-$here/run.sh}
bg() {
    rm -f "$lanes/$1".*
    date +%s >"$lanes/$1.t0"
    # shellcheck disable=SC2016 # expanded by the lane's sh
    RUN_SH_LIB=1 setsid -w sh -c '. "$0"; unset RUN_SH_LIB; lane_main "$@"' "$lane_src" "$1" "$2" \
        >"$lanes/$1.log" 2>&1 </dev/null &
    echo $! >"$lanes/$1.pid"
}
lane_main() { # in the lane: its pgid and HOME for the parent's cleanup, then the suites
    echo $$ >"$lanes/$1.pgid"
    echo "$hermetic" >"$lanes/$1.home"
    LANE_NAME=$1
    trap 'rm -rf "$hermetic"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    "$2"
    echo "$pass $fail $skip" >"$lanes/$1.counts"
    echo "$failed" >"$lanes/$1.failed"
    : >"$lanes/$1.done"
}
lane_alive() { # lane_alive PGID: a process of the group is alive (not a zombie: one whose
    # parent died waits for pid 1 to reap it); the lane's group is its session (setsid)
    # shellcheck disable=SC2009 # pgrep -s would count the zombies
    kill -0 -"$1" 2>/dev/null && ps -o stat= -s "$1" 2>/dev/null | grep -qv '^Z'
}
lane_kill() { # lane_kill NAME: TERM to its process group, KILL after 5 s; removes its HOME
    [ -f "$lanes/$1.pid" ] || return 0
    g=$(cat "$lanes/$1.pgid" 2>/dev/null || cat "$lanes/$1.pid")
    kill -TERM -"$g" 2>/dev/null || kill -TERM "$(cat "$lanes/$1.pid")" 2>/dev/null
    i=0
    while lane_alive "$g" && [ $i -lt 25 ]; do sleep 0.2; i=$((i + 1)); done
    kill -KILL -"$g" 2>/dev/null
    wait "$(cat "$lanes/$1.pid")" 2>/dev/null
    [ ! -f "$lanes/$1.home" ] || rm -rf "$(cat "$lanes/$1.home")"
    rm -f "$lanes/$1.pid"
}
lanes_kill_all() {
    for f in "$lanes"/*.pid; do [ ! -f "$f" ] || lane_kill "$(basename "$f" .pid)"; done
}
bg_wait() {
    t0=$(cat "$lanes/$1.t0") limit=${LANE_LIMIT:-1500} p=$(cat "$lanes/$1.pid") timedout=0
    while kill -0 "$p" 2>/dev/null; do
        [ $(($(date +%s) - t0)) -lt "$limit" ] || { timedout=1; break; }
        sleep 0.2
    done
    if [ $timedout = 1 ]; then lane_kill "$1"; else wait "$p"; rm -f "$lanes/$1.pid"; fi
    cat "$lanes/$1.log"
    cur=$(cat "$lanes/$1.cur" 2>/dev/null) && cat "$cur"
    dt="($(($(date +%s) - t0)) s)"
    # the suites it finished count, whatever became of the lane
    if read -r p f s <"$lanes/$1.counts" 2>/dev/null; then
        pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
        failed="$failed $(cat "$lanes/$1.failed" 2>/dev/null)"
    fi
    if [ $timedout = 1 ]; then
        fail=$((fail + 1)) failed="$failed lane-$1"
        echo "== lane $1: FAILED (timed out: killed after LANE_LIMIT=$limit s) $dt"
    elif [ ! -f "$lanes/$1.done" ]; then
        fail=$((fail + 1)) failed="$failed lane-$1"; echo "== lane $1: FAILED (it ended before its last suite) $dt"; fi
}
failed_summary() { # each failed suite with its first lines that say FAIL (or its last lines)
    for n in $failed; do
        l=$lanes/suites/$n.log
        case $n in lane-*) l=$(cat "$lanes/${n#lane-}.cur" 2>/dev/null) || l=$lanes/${n#lane-}.log ;; esac
        echo "run: FAILED $n ($l):"
        { grep -m 4 -E 'FAIL|failed|Error|ERROR|not ok|^[+]  ' "$l" 2>/dev/null || tail -n 3 "$l" 2>/dev/null; } |
            cut -c 1-200 | sed 's/^/    /'
    done
}
# The suites that use none of the suite's MariaDB, its files or ports (multihost has its own
# server and hosts, mutate-fast and fuzz their build trees) and mostly wait or use one core
# (multihost waits on its hosts, mutate-fast compiles, fuzz runs one process): the whole run
# long, one after the other.
lane_own() {
    # the aarch64 binary and unit tests (cross musl and mbedTLS: ~1 min of compiling) for the
    # aarch64 suite at the end, built here while the main lane mostly waits on its servers
    suite aarch64-build make -s bench-aarch64 tests/unit-aarch64
    suite multihost no_suite_server sh tests/multihost.sh
    suite outage no_suite_server sh tests/outage.sh
    suite mutate-fast no_suite_server sh tests/mutate.sh --fast
    suite fuzz make -s fuzz FUZZ_TIME=20
}
# The PostgreSQL suites that take minutes (each its own PostgreSQL 15 and sysbench beside it;
# no MariaDB, files or ports of the main lane's): the two servers mostly wait on each other,
# so beside the main lane from the start (pgsql-oltp ~60 s, tpcc-pg ~95 s, tpcc ~155 s in a CI
# run on 2 CPUs).
lane_pg() {
    suite pgsql-oltp no_suite_server sh tests/pgsql_oltp.sh
    suite tpcc-pg no_suite_server sh tests/tpcc_pg.sh
    # the PostgreSQL client's error paths (a leak there exits 23, not 3) and its live logins
    suite pgsql-hostile-asan env ASAN_OPTIONS=detect_leaks=1 BENCH="$PWD/bench-san" PGSQL_HOSTILE_SLOW=3 sh tests/pgsql_hostile.sh
    suite pgsql-asan env ASAN_OPTIONS=detect_leaks=1 BENCH="$PWD/bench-san" sh tests/pgsql.sh
    # tpcc (~2.5 min) on a MariaDB of its own: it compares the server's global Com_*
    # counters, so no other suite may use its server
    if menv=$(sh tests/mariadb.sh start "$top/build/mariadb-tpcc" "${RUN_TPCC_PORT:-$((31300 + $$ % 800))}"); then
        eval "$menv" # this lane's (the last suite of it)
        suite tpcc bash tests/tpcc.sh
        sh tests/mariadb.sh stop "$top/build/mariadb-tpcc"
    else
        fail=$((fail + 1)) failed="$failed tpcc"; echo "== tpcc: FAILED (its MariaDB did not start)"
    fi
}
# no_suite_server CMD...: CMD without the suite's server in its environment (BENCH_MY_*): it
# starts one of its own. (mutate-fast's live unit tests on the suite's server made the TLS
# handshakes that tests/oltp.sh counted there, at the same time: "3 TLS handshakes, wanted 0")
no_suite_server() {
    # shellcheck disable=SC2046 # one -u NAME per variable
    env $(env | sed -n 's/^\(BENCH_MY_[A-Z0-9_]*\)=.*/-u \1/p') "$@"
}
# The two sanitizer builds at the same time (files, database and slap schema of their own);
# then, beside tsan, the aarch64 binary under qemu-user (its own database a64, schema
# a64_slap and files; 1-2 minutes).
lane_asan() {
    ASAN_OPTIONS="detect_leaks=1" suite asan san_runs ./bench-san
    suite aarch64 sh tests/aarch64.sh
}
# Old kernels (3.10, 4.18: newer system calls refused by seccomp; its own database oldk, slap
# schema oldk_slap and user oldk, whose counters it compares: MariaDB's userstat, per user, not
# the global Com_* the lanes beside it move): ~1.5 min, beside the sanitizer lanes
lane_old() {
    suite oldkernel sh tests/oldkernel.sh
}
# Sourced for its functions (a lane, tests/run_selftest.sh): no more.
# shellcheck disable=SC2317
[ -z "${RUN_SH_LIB:-}" ] || return 0

mkdir -p build

# a MariaDB of our own on loopback for the protocol tests (stopped on exit); INT and TERM exit
# so that the EXIT trap runs (dash runs no EXIT trap on a death by a signal). Its port is below
# the kernel's ephemeral range (32768-60999): there an outgoing connection of a lane may hold
# it (mutate.sh's server: 25100-25899, multihost's: 27100-27899, the fake servers: the kernel's)
MDB=$top/build/mariadb
MPORT=${RUN_PORT:-$((24100 + $$ % 800))}
rm -rf "$lanes" && mkdir -p "$lanes"
trap 'suite_interrupted; lanes_kill_all; sh tests/mariadb.sh stop "$MDB"; rm -rf "$hermetic"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if menv=$(sh tests/mariadb.sh start "$MDB" "$MPORT"); then
    eval "$menv"
else
    echo "run: the MariaDB test server did not start; the protocol tests will fail"
    [ $strict = 1 ] && fail=$((fail + 1))
fi

# the lanes' self-test (seconds; bounded: a lane it fails to kill would hang it)
suite lanes timeout -k 5 60 sh tests/run_selftest.sh
# bandwidth and latency against a reference: before the lanes start, on a host not yet loaded
suite memory-oracle sh tests/memory_oracle.sh
bg own lane_own
bg pg lane_pg

suite static static_check
suite checker python3 tests/check_result.py --selftest
# the mutant list: every literal once in bench.c, every section: tag its literal's section (1 s)
suite mutants sh -c 'python3 tests/mutants.py selftest && python3 tests/mutants.py check tests/mutants.txt bench.c'
suite source sh -c 'python3 tests/srcmap.py order bench.c -v && python3 tests/srcmap.py header bench.c bench.h -v && make -s clang-check'
suite make-pins sh tests/make_pins.sh
suite hermetic sh -c '[ -z "$(ls -A "$HOME")" ] && [ "$HOME" != "$(getent passwd "$(id -un)" | cut -d: -f6)" ] && [ -z "${MYSQL_PWD+x}" ]'
suite unit ./tests/unit
suite golden cram3 --shell=/bin/sh tests/golden
suite compat sh tests/compat.sh
suite fileio-hostile sh tests/fileio_hostile.sh
suite fileio-compat sh tests/fileio_compat.sh
suite engine-signals sh tests/engine_signals.sh
suite cli-hostile sh tests/cli_hostile.sh
suite docs sh tests/docs.sh
suite perf-lib sh tests/perf_lib.sh
suite fake-auth sh tests/fake_auth.sh
suite tls-cli sh tests/tls_cli.sh
suite hostile sh tests/hostile.sh
suite pgsql sh tests/pgsql.sh
suite pgsql-hostile sh tests/pgsql_hostile.sh
suite pgsql-all sh tests/pgsql_all.sh
suite oltp bash tests/oltp.sh
suite oneliner sh tests/oneliner.sh
suite conns sh tests/conns.sh
suite slap sh tests/slap.sh
suite results sh tests/results.sh
suite json sh tests/json.sh
suite merge sh tests/merge.sh
suite merge-hostile sh tests/merge_hostile.sh
suite all sh tests/all.sh
suite all-guard sh tests/all_guard.sh
suite all-outage sh tests/all_outage.sh
suite compare sh tests/compare.sh
# lane own is long done (its aarch64 build before lane asan's aarch64 suite: no two makes at once)
bg_wait own
bg_wait pg
bg asan lane_asan
bg old lane_old
TSAN_OPTIONS="halt_on_error=1" suite tsan san_runs ./bench-tsan
# PostgreSQL's logins on helper threads beside the event loops (its own server)
suite pgsql-tsan env TSAN_OPTIONS="halt_on_error=1" BENCH="$PWD/bench-tsan" sh tests/pgsql_tsan.sh
bg_wait asan
bg_wait old
failed_summary
echo "run: $pass passed, $fail failed, $skip skipped ($(($(date +%s) - run_t0)) s)"
[ $fail = 0 ]
