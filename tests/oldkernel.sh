#!/bin/sh
# oldkernel: bench on old kernels (issue 31). tests/oldkernel answers ENOSYS to every system
# call newer than Linux 3.10 (RHEL 7) or 4.18 (RHEL 8); under each lane the suite's commands
# (fileio sync, mmap and async, the OLTP workloads with threads and event loops, every one of
# bench's 11 OLTP workloads with the server's own counters, slap, ping, the cpu/memory/
# threads/mutex tests, every command of the golden transcripts, and under 3.10
# `bench all --quick`) run and give the same output as without the filter, timing masked
# (tests/mask_timing.py), which did its work on its own (exit 0, its count: a bench that does
# nothing fails), or fall back and say so: the header's "Kernel fallback:" lines, exactly the
# command's (none for cpu, ping, the thread-per-connection OLTP), the JSON's host.fallbacks.
# 50-90 s on 2 CPUs under load 10-20 (40-60 s before the golden
# transcripts, run for both lanes at once, and the 11 OLTP workloads came in).
# Needs the suite's MariaDB (BENCH_MY_PORT, BENCH_MY_SOCK: tests/mariadb.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
B=${BENCH:-$top/bench}
OK=$top/tests/oldkernel
for t in oldkernel noiouring; do # noiouring: fileio.t's io_uring refusals
    [ -x "$top/tests/$t" ] || (cd "$top" && make -s "tests/$t" >/dev/null 2>&1) ||
        { echo "oldkernel: FAIL: tests/$t could not be built"; exit 1; }
done
if [ -z "${BENCH_MY_PORT:-}" ] || [ -z "${BENCH_MY_SOCK:-}" ]; then
    echo "oldkernel: SKIP: no MariaDB (BENCH_MY_PORT, BENCH_MY_SOCK: tests/mariadb.sh start)"
    exit 77
fi
w=$(mktemp -d "${TMPDIR:-/tmp}/bench-oldkernel.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$w"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "oldkernel: FAIL: $*"; }
check() { # check NAME SHELL-TEST
    if eval "$2"; then ok; else bad "$1"; fi
}
lanes=${LANES:-3.10 4.18}
# the lanes' ENOSYS on this kernel (5.1 or later: the unfiltered runs take io_uring) is a
# sandbox's filter, and the header says so (os_fallback_why)
sandbox="refused with ENOSYS on Linux $(uname -r | sed -E 's/^([0-9]+\.[0-9]+).*/\1/') (a sandbox's filter, or a kernel built without it)"
echo "oldkernel: work in $w"
DB="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret"
mariadb --no-defaults -uroot -S "$BENCH_MY_SOCK" -e "DROP DATABASE IF EXISTS oldk; CREATE DATABASE oldk" ||
    { echo "oldkernel: FAIL: cannot make the schema oldk"; exit 1; }

# x LANE NAME ARGS...: bench ARGS under the lane (new: no filter), output and exit code in
# $w/LANE.NAME, its messages in $w/LANE.NAME.err
x() {
    x_l=$1 x_n=$2
    shift 2
    if [ "$x_l" = new ]; then "$B" "$@"; else "$OK" "$x_l" "$B" "$@"; fi >"$w/$x_l.$x_n" 2>"$w/$x_l.$x_n.err"
    echo "exit $?" >>"$w/$x_l.$x_n"
}
# norm FILE: FILE.m (timing masked, sysbench's fields: tests/mask_timing.py, run once for all
# files, a python start costs seconds on a busy host), then what differs from run to run in
# bench's own lines (the banner's version, free space, per-operation latencies, slap's and
# ping's seconds, the connection id), and the fallback's own lines (checked apart), dropped
norm() {
    sed -E <"$1.m" \
        -e '/^Kernel fallback: /d' -e 's/^(Client I.O: )(io_uring|epoll)/\1IO/' \
        -e 's/connection id [0-9]+/connection id N/' \
        -e 's/^bench [^ ]+ /bench V /' -e 's/, [0-9.]+[KMGT]iB free/, N free/' \
        -e 's/(ops | [0-9.]+%: )[0-9.]+/\1T/g' -e 's/[0-9]+\.[0-9]+/T/g' \
        -e 's/(^Client mode: .*), (on a ring T us|no ring granted)\)$/\1, RING)/'
}
# ref NAME ERE: the unfiltered run NAME did its work, on its own (a bench that does nothing
# gives outputs that all compare equal): exit 0, the line ERE (its count, its result), no
# kernel fallback; then $w/ref.NAME, which same NAME needs
ref() {
    if tail -1 "$w/new.$1" | grep -qx "exit 0" && grep -Eq "$2" "$w/new.$1" &&
        ! grep -q "^Kernel fallback" "$w/new.$1"; then
        ok; : >"$w/ref.$1"
    else
        bad "$1 unfiltered: not exit 0 with /$2/ and no kernel fallback: $(tail -2 "$w/new.$1" | tr '\n' ' ')"
    fi
}
# fbwant NAME LANE: the "Kernel fallback:" lines NAME must print under LANE, sorted: statx
# under 3.10 for fileio's runs on its files, io_uring for async fileio (sync file I/O); none
# for the rest (cpu/memory/threads/mutex, ping, slap without loops, the thread-per-connection
# OLTP runs, prepare and cleanup: no run header)
fbwant() {
    { case $1 in sync | mmap | async) [ "$2" != 3.10 ] ||
        echo "Kernel fallback: statx: $sandbox: fileio's test files known by device, inode and size, no birth time" ;;
    esac
    [ "$1" != async ] || echo "Kernel fallback: io_uring: $sandbox: sync file I/O"; } | sort
}
# same NAME [REF]: each lane's output of NAME equals the unfiltered one's (REF's, which did its
# work: ref), normalised, and its "Kernel fallback:" lines are NAME's under the lane (fbwant)
same() {
    for l in $lanes; do
        if [ ! -f "$w/ref.${2:-$1}" ]; then
            bad "$1 under $l: no unfiltered run that did its work to compare with"; continue
        fi
        { fbwant "$1" "$l"; norm "$w/new.${2:-$1}"; norm "$w/new.${2:-$1}.err"; } >"$w/a"
        { grep "^Kernel fallback: " "$w/$l.$1" | sort; norm "$w/$l.$1"
            norm "$w/$l.$1.err" | grep -v '^bench: warning: fileio: io_uring_setup'; } >"$w/b"
        if cmp -s "$w/a" "$w/b"; then ok; else
            bad "$1 under $l differs from the unfiltered run (its fallback lines first):"; diff "$w/a" "$w/b" | head -20
        fi
    done
}

# 1. the filter itself: refused calls get ENOSYS, older ones run (a statx of 4.11 and an
#    io_uring_setup of 5.1, by bench's own fallbacks below; here: the lanes' boundaries)
check "oldkernel: an unknown lane refused" '! "$OK" 2.6 true 2>/dev/null'
check "oldkernel: a command runs under 3.10" '"$OK" 3.10 sh -c "exit 0"'

# 2. cpu, memory, threads, mutex: counts fixed by --events and sizes
for l in new $lanes; do
    x "$l" cpu cpu --events=200 --time=0 --cpu-max-prime=2000 run
    x "$l" mem memory --memory-total-size=16M --time=0 run
    x "$l" thr threads --events=100 --time=0 run
    x "$l" mutex mutex --threads=2 --mutex-locks=2000 run
done

# 3. fileio: prepare unfiltered (birth times recorded), then under each lane sync and mmap
#    runs equal the unfiltered ones; async falls back to sync (said), equal to the sync run;
#    the files stay bench's without statx (device, inode and size); cleanup under the lane
F="--file-num=4 --file-total-size=4M --file-dir=$w/d --rand-seed=7"
mkdir -p "$w/d"
for l in new $lanes; do
    x new prep fileio $F prepare
    x "$l" sync fileio $F --file-test-mode=rndrw --events=300 --time=0 run
    x "$l" mmap fileio $F --file-test-mode=seqrd --file-io-mode=mmap --events=200 --time=0 run
    x "$l" async fileio $F --file-test-mode=rndrd --file-io-mode=async --events=200 --time=0 run
    x "$l" sync2 fileio $F --file-test-mode=rndrd --events=200 --time=0 run
    x "$l" ajson fileio $F --file-test-mode=rndrd --file-io-mode=async --events=20 --time=0 --format=json run
    x "$l" clean fileio $F cleanup
done
for l in $lanes; do # async: the fallback said, then the sync run's output
    check "fileio async under $l: io_uring refused, sync named" \
        'grep -q "^bench: warning: fileio: io_uring_setup(2) failed: Function not implemented (ENOSYS); the kernel lacks io_uring (Linux < 5.1.*falling back to --file-io-mode=sync$" "$w/$l.async.err"'
    check "fileio async under $l: the header names the io_uring fallback" \
        'grep -q "^Kernel fallback: io_uring: $sandbox: sync file I/O$" "$w/$l.async"'
    check "fileio under $l: no file left" '[ -z "$(ls -A "$w/d" | grep -v "^\.")" ]'
done
check "fileio under 3.10: the header names statx" \
    'grep -q "^Kernel fallback: statx: $sandbox: fileio.s test files known by device, inode and size, no birth time$" "$w/3.10.sync"'
[ ! -f "$w/4.18.sync" ] || check "fileio under 4.18: statx is there" '! grep -q "^Kernel fallback: statx" "$w/4.18.sync"'

# 4. OLTP (one client, read-only: counts fixed; auto's event loop on epoll under the lanes; event loops: auto picks epoll), slap, ping
for l in new $lanes; do
    x "$l" oprep oltp_read_write $DB -D oldk --tables=2 --table-size=100 prepare
    x "$l" orw oltp_read_only $DB -D oldk --tables=2 --events=30 --time=0 run
    x "$l" oloop oltp_point_select $DB -D oldk --tables=2 --threads=4 --event-loops=2 --events=200 --time=0 run
    x "$l" oclean oltp_read_write $DB -D oldk --tables=2 cleanup
    x "$l" slap slap $DB -a -c 2 -i 1 --number-of-queries=40 --create-schema=oldk_slap
    x "$l" slapj slap $DB -a -c 4 --number-of-queries=40 --event-loops=2 --create-schema=oldk_slap --format=json
    x "$l" ping ping $DB --count=5
done
for l in $lanes; do # io_uring asked for, not auto: refused with exit 3 and a line naming it
    "$OK" "$l" "$B" oltp_point_select $DB -D oldk --tables=2 --threads=2 --event-loops=1 --event-backend=io_uring \
        --events=10 --time=0 run >"$w/$l.ouring" 2>&1
    echo "exit $?" >>"$w/$l.ouring"
    check "oltp --event-backend=io_uring under $l: exit 3, the kernel's lack named: $(grep -m1 '^bench:' "$w/$l.ouring")" \
        'grep -q "^bench: .*--event-backend=io_uring: io_uring_setup(2) failed: Function not implemented (ENOSYS); the kernel lacks io_uring (Linux < 5.1" "$w/$l.ouring" && tail -1 "$w/$l.ouring" | grep -qx "exit 3"'
    "$OK" "$l" "$B" fileio --file-num=1 --file-total-size=1M --file-dir="$w" --file-test-mode=rndrd \
        --file-io-mode=async --file-io-mode-strict run >"$w/$l.fstrict" 2>&1
    echo "exit $?" >>"$w/$l.fstrict"
    check "fileio --file-io-mode-strict under $l: exit 3, the kernel's lack named: $(grep -m1 '^bench:' "$w/$l.fstrict")" \
        'grep -q "^bench: fileio: io_uring_setup(2) failed: Function not implemented (ENOSYS); the kernel lacks io_uring (Linux < 5.1" "$w/$l.fstrict" && tail -1 "$w/$l.fstrict" | grep -qx "exit 3"'
done
for l in $lanes; do
    check "oltp event loops under $l: epoll, said" \
        'grep -q "^Client I/O: epoll, 4 connections on 2 event loops$" "$w/$l.oloop" && [ "$(grep "^Kernel fallback" "$w/$l.oloop")" = "Kernel fallback: io_uring: $sandbox: event loops on epoll" ] && grep -q "total number of events: *200$" "$w/$l.oloop"'
done
# the default (--event-loops=auto) past 4 connections per CPU (one CPU: 5): the probe finds
# no ring, the loop uses epoll, and the header names the fallback (was unsaid: review30)
if command -v taskset >/dev/null; then
    "$B" oltp_point_select $DB -D oldk --tables=1 --table-size=10 prepare >"$w/oauto.prep" 2>&1 ||
        bad "oltp auto: prepare failed: $(tail -1 "$w/oauto.prep")"
    for l in $lanes; do
        taskset -c 0 "$OK" "$l" "$B" oltp_point_select $DB -D oldk --tables=1 --table-size=10 \
            --threads=5 --events=100 --time=0 run >"$w/$l.oauto" 2>&1
        check "oltp auto, 5 connections on one CPU, under $l: epoll, the fallback said" \
            'grep -q "^Client I/O: epoll, 5 connections on 1 event loop$" "$w/$l.oauto" && grep -q "^Kernel fallback: io_uring: $sandbox: event loops on epoll$" "$w/$l.oauto" && grep -q "total number of events: *100$" "$w/$l.oauto"'
    done
    "$B" oltp_point_select $DB -D oldk --tables=1 cleanup >/dev/null 2>&1
else
    bad "taskset missing (util-linux): the auto mode's fallback is not checked"
fi

# 4a. the refusal's errno, said in the header: ENOSYS (on this kernel, which has io_uring, a
#     sandbox's filter: the lanes, and tests/noiouring with NOIOURING_ERRNO=38; a kernel older
#     than the call: tests/unit host_fallback_why), EPERM (a policy: tests/noiouring's default)
#     and ENOMEM (a limit of this process, RLIMIT_MEMLOCK before Linux 5.12: no kernel fallback;
#     fileio's warning says it, the loops' Client I/O line says epoll); each command names only
#     the way it took (fileio sync file I/O, the event loops epoll)
NI=$top/tests/noiouring
E="--file-num=1 --file-total-size=1M --file-dir=$w/e"
mkdir -p "$w/e"
"$B" fileio $E prepare >"$w/e.prep" 2>&1 || bad "errno: fileio prepare failed: $(tail -1 "$w/e.prep")"
"$B" oltp_point_select $DB -D oldk --tables=1 --table-size=10 prepare >"$w/e.prep" 2>&1 ||
    bad "errno: oltp prepare failed: $(tail -1 "$w/e.prep")"
for e in 1 38 12; do
    NOIOURING_ERRNO=$e "$NI" "$B" fileio $E --file-test-mode=rndrd --file-io-mode=async --events=10 --time=0 run >"$w/e$e.f" 2>&1
    NOIOURING_ERRNO=$e "$NI" "$B" oltp_point_select $DB -D oldk --tables=1 --threads=2 --event-loops=1 --events=20 --time=0 run >"$w/e$e.o" 2>&1
done
"$B" fileio $E cleanup >/dev/null 2>&1
"$B" oltp_point_select $DB -D oldk --tables=1 cleanup >/dev/null 2>&1
for e in 1 38; do
    case $e in 1) why="refused by policy (seccomp, container or io_uring_disabled)" ;;
    *) why=$sandbox ;; esac
    check "io_uring refused ($e), fileio: the one fallback line, $why: sync file I/O" \
        '[ "$(grep "^Kernel fallback" "$w/e$e.f")" = "Kernel fallback: io_uring: $why: sync file I/O" ] && grep -q "total number of events: *10$" "$w/e$e.f"'
    check "io_uring refused ($e), event loops: the one fallback line, $why: event loops on epoll" \
        '[ "$(grep "^Kernel fallback" "$w/e$e.o")" = "Kernel fallback: io_uring: $why: event loops on epoll" ] && grep -q "^Client I/O: epoll, 2 connections on 1 event loop$" "$w/e$e.o"'
done
check "io_uring_setup ENOMEM, fileio: sync, the warning says why, no kernel fallback" \
    'grep -q "^bench: warning: fileio: io_uring_setup(2) failed: Out of memory (ENOMEM); .*; falling back to --file-io-mode=sync$" "$w/e12.f" && ! grep -q "^Kernel fallback" "$w/e12.f" && grep -q "total number of events: *10$" "$w/e12.f"'
check "io_uring_setup ENOMEM, event loops: epoll, no kernel fallback" \
    'grep -q "^Client I/O: epoll, 2 connections on 1 event loop$" "$w/e12.o" && ! grep -q "^Kernel fallback" "$w/e12.o" && grep -q "total number of events: *20$" "$w/e12.o"'

# 4b. every OLTP workload of bench's (the 11 scripts of sysbench), one client, fixed --events
#     and --rand-seed, from a table prepared afresh under each lane: the same output (counts;
#     timing masked) as unfiltered, and the same deltas of the server's own counters for a
#     user of this suite's own (oldk; MariaDB's userstat, USER_STATISTICS: the lanes beside
#     this one share the server, its global Com_* counters are not ours alone)
ROOT="mariadb --no-defaults -uroot -S $BENCH_MY_SOCK"
ustat0=$($ROOT -N -e "SELECT @@GLOBAL.userstat")
$ROOT -e "SET GLOBAL userstat=1; DROP USER IF EXISTS oldk; CREATE USER oldk@'%' IDENTIFIED BY 'oldk';
    GRANT ALL ON oldk.* TO oldk@'%'" || bad "the user oldk, userstat: not made"
UDB="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u oldk -poldk -D oldk --tables=1 --rand-seed=11"
WL="oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_insert oltp_update_index
    oltp_update_non_index oltp_delete select_random_points select_random_ranges bulk_insert"
# ustat: the user oldk's counters (commands by kind, transactions, rows by what befell them)
ustat() {
    $ROOT -N -e "SELECT SELECT_COMMANDS, UPDATE_COMMANDS, OTHER_COMMANDS, COMMIT_TRANSACTIONS,
        ROLLBACK_TRANSACTIONS, ROWS_READ, ROWS_SENT, ROWS_INSERTED, ROWS_UPDATED, ROWS_DELETED
        FROM information_schema.USER_STATISTICS WHERE USER = 'oldk'"
}
for l in new $lanes; do
    x "$l" wprep oltp_read_write $UDB --table-size=50 prepare
    for wl in $WL; do
        if [ $wl = bulk_insert ]; then # a table of its own (id, k): 200 rows, one statement
            x "$l" wclean oltp_read_write $UDB cleanup
            x "$l" bprep bulk_insert $UDB prepare
        fi
        c0=$(ustat)
        x "$l" "w_$wl" "$wl" $UDB --events=$([ $wl = bulk_insert ] && echo 200 || echo 10) --time=0 run
        printf '%s\n%s\n' "$c0" "$(ustat)" |
            awk 'NR == 1 { split($0, a) } NR == 2 { for (i = 1; i <= NF; i++) printf "%d ", $i - a[i]; print "" }' >"$w/cnt.$l.$wl"
    done
    x "$l" bclean bulk_insert $UDB cleanup
done

# the outputs masked (one python for all), then compared; the JSON documents' facts
set --
for f in "$w"/new.* "$w"/3.1* "$w"/4.1*; do [ ! -f "$f" ] || set -- "$@" "$f"; done
python3 "$here/mask_timing.py" "$@"
ev='total number of events: +[1-9][0-9]*$'
for n in cpu mem thr mutex sync mmap async sync2 orw oloop; do ref $n "$ev"; done
ref prep '^[1-9][0-9]* bytes written in '
ref clean '^Removing test files\.\.\.$'
ref oprep "^Inserting 100 records into 'sbtest2'$"
ref oclean "^Dropping table 'sbtest2'\.\.\.$"
ref slap '^	Average number of queries per client: 20$'
ref ping '^ +COM_PING +5 round trips'
ref wprep "^Inserting 50 records into 'sbtest1'$"
ref bprep "^Creating table 'sbtest1'\.\.\.$"
for n in wclean bclean; do ref $n "^Dropping table 'sbtest1'\.\.\.$"; done
for wl in $WL; do ref "w_$wl" "$ev"; done
for n in cpu mem thr mutex sync mmap clean oprep orw oclean slap ping; do same $n; done
# the client-mode probe's ring: measured unfiltered, "no ring granted" under each lane (masked
# as RING above)
check "orw unfiltered: the probe's ring measured" 'grep -q "^Client mode: .*, on a ring [0-9T.]* us)$" "$w/new.orw.m"'
for l in $lanes; do
    check "orw under $l: the probe says no ring granted" 'grep -q "^Client mode: .*, no ring granted)$" "$w/$l.orw.m"'
done
same async sync2
for n in wprep wclean bprep bclean; do same $n; done
for wl in $WL; do
    same "w_$wl"
    read -r sel upd oth com rb rr rs ri ru rd <"$w/cnt.new.$wl"
    check "$wl unfiltered: the server counted its work ($(cat "$w/cnt.new.$wl"))" \
        '[ $((sel + upd + oth)) -gt 0 ] && { [ $wl != bulk_insert ] || [ "$ri" = 200 ]; }'
    for l in $lanes; do
        check "$wl under $l: the server's counters as unfiltered (select update other commit rollback rows read sent inserted updated deleted: $(cat "$w/cnt.new.$wl") unfiltered, $(cat "$w/cnt.$l.$wl") under $l)" \
            '[ $((sel + upd + oth)) -gt 0 ] && cmp -s "$w/cnt.new.$wl" "$w/cnt.$l.$wl"'
    done
done
python3 -c '
import json, sys
for f in sys.argv[1:]:
    try:
        d = json.loads(open(f).read().rsplit("\nexit", 1)[0])
        print(f.rsplit("/", 1)[1], d["exit_code"], ",".join(d["host"]["fallbacks"]) or "-",
              d["facts"].get("io_mode", d["facts"].get("client_io", "-")),
              "|", d["facts"].get("fallback_statx", "-"), "|", d["facts"].get("fallback_io_uring", "-"))
    except Exception as e:
        print(f.rsplit("/", 1)[1], "not JSON:", e)' "$w"/*.ajson "$w"/*.slapj >"$w/jf"
check "fileio JSON unfiltered: host.fallbacks []" 'grep -qx "new.ajson 0 - async | - | -" "$w/jf"'
check "slap JSON unfiltered: host.fallbacks []" 'grep -q "^new.slapj 0 - .* | - | -$" "$w/jf"'
for l in $lanes; do # the facts fallback_statx, fallback_io_uring: the errno, the ways this command took
    case $l in 3.10) want=statx,io_uring st="ENOSYS: fileio's test files known by device, inode and size, no birth time" ;;
    *) want=io_uring st=- ;; esac
    check "fileio JSON under $l: host.fallbacks $want, sync, the facts: $(grep "^$l.ajson" "$w/jf")" \
        'grep -qxF "$l.ajson 0 $want sync | $st | ENOSYS: sync file I/O" "$w/jf"'
    check "slap JSON under $l: host.fallbacks io_uring, epoll, the fact: $(grep "^$l.slapj" "$w/jf")" \
        'grep -qxF "$l.slapj 0 io_uring epoll | - | ENOSYS: event loops on epoll" "$w/jf"'
done

# 5. every command of the golden transcripts (tests/golden/*.t) under each lane, from copies
#    (cram writes FILE.err beside a failing FILE; check_result.py and noiouring beside them):
#    every transcript as unfiltered but fileio.t, whose one io_uring run with a queue depth
#    falls back, and says so: that line in, the queue depth's out, nothing else. cli.t's two
#    bounds on timing are left to the golden suite (unfiltered): under the sanitizer lanes
#    beside this one a 100/s --rate misses its Poisson bounds and a --time=1 run may end after
#    1.5 s; their calls (clock_nanosleep, futex) are 3.10's. In the copies: the --rate run's
#    invariants dropped (its lines stay), the --warmup-time=1 --time=1 run's total time 1.x s
# crampart T: what cram said of the transcript T under the lane $l (its diff), from $w/cram.$l
crampart() {
    awk -v t="/$1" 'index($0, "--- ") == 1 { on = substr($0, length($0) - length(t) + 1) == t }
        /^# Ran / { on = 0 } on' "$w/cram.$l"
}
for l in $lanes; do
    g=$w/g$l/tests
    mkdir -p "$g/golden" && cp "$here"/golden/*.t "$g/golden/" && ln -s "$here/check_result.py" "$here/noiouring" "$g/"
    awk -v t0='1\\.[0-4][0-9]{3}s (re)' -v t1='1\\.[0-9]{4}s (re)' '
        /--rate=100 --cpu-max-prime=1000 run \| \$CHECK --tee --/ { sub(/ \| \$CHECK --tee -- [^|]*\|/, " |"); r = 1 }
        r && /^  invariants: [0-9]+ hold$/ { r = 0; next }
        /^      total time: / && (i = index($0, t0)) { $0 = substr($0, 1, i - 1) t1 }
        { print }' "$here/golden/cli.t" >"$g/golden/cli.t"
    check "cli.t under $l: the --rate run's check dropped, the --time=1 bound widened, nothing else" \
        '[ "$(diff "$here/golden/cli.t" "$g/golden/cli.t" | grep -c "^[<>]")" = 5 ]'
    # the lanes at once: cli.t waits ~10 s on its --time runs (the suite's time: ~20 s less)
    "$OK" "$l" cram3 --shell=/bin/sh "$g"/golden/*.t >"$w/cram.$l" 2>&1 &
    crams="${crams:-} $!"
done
# shellcheck disable=SC2086 # one pid each
wait $crams
for l in $lanes; do
    g=$w/g$l/tests
    for t in "$g"/golden/*.t; do
        case $t in */fileio.t) continue ;; esac
        [ ! -f "$t.err" ] && ok || { bad "golden $(basename "$t") under $l:"; crampart "$(basename "$t")" | head -40; }
    done
    crampart fileio.t | grep -E '^[-+]  ' >"$w/fileio.$l.diff"
    printf '%s\n' "+  bench: warning: fileio: io_uring_setup(2) failed: Function not implemented (ENOSYS); the kernel lacks io_uring (Linux < 5.1 or CONFIG_IO_URING=n) or a sandbox hides it; falling back to --file-io-mode=sync" \
        "-  io_uring queue depth 16 per thread" >"$w/fileio.want"
    check "golden fileio.t under $l: as unfiltered but the io_uring fallback ($(wc -l <"$w/fileio.$l.diff") lines differ)" \
        'cmp -s "$w/fileio.want" "$w/fileio.$l.diff" || { crampart fileio.t | head -40; false; }'
    check "golden under $l: cram ran every transcript, only fileio.t failed" 'grep -q "^# Ran $(ls "$g"/golden/*.t | wc -l) tests, 0 skipped, 1 failed.$" "$w/cram.$l"'
done

# 6. bench all --quick under 3.10 (4.18's fallbacks are a part of 3.10's): every step ran,
#    the page and the JSON name the fallbacks
mkdir -p "$w/ad"
"$OK" 3.10 "$B" all --quick --dir="$w/ad" $DB --format=json --output="$w/all.json" --html="$w/all.html" >"$w/all.txt" 2>&1
rc=$?
check "all under 3.10: exit 0 or 4 (PASS or WARN), not $rc" '[ $rc = 0 ] || [ $rc = 4 ]'
check "all under 3.10: the page names the fallbacks" \
    'grep -q ", kernel [^<]* (refused, fallen back from: statx, io_uring), [a-z0-9_]*, [0-9]*-byte pages, [^<]*</p></header>$" "$w/all.html"'
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); f = d["facts"]
print(",".join(d["host"]["fallbacks"]), f["disk.io_engine"], "db" if "db.ping_p50_ms" in f else "no-db",
      " ".join(x["code"] for x in d["warnings"] if x["code"] in ("step_failed", "db_failed")) or "-",
      "|", f.get("fallback_io_uring", "-"))' "$w/all.json" >"$w/af" 2>&1
check "all under 3.10: JSON host.fallbacks, disk by sync, the server measured, no step failed, io_uring: sync file I/O (no step took an event loop): $(cat "$w/af")" \
    'grep -qx "statx,io_uring sync db - | ENOSYS: sync file I/O" "$w/af"'
check "all under 3.10: the directory left empty" '[ -z "$(ls -A "$w/ad")" ]'

$ROOT -e "DROP DATABASE IF EXISTS oldk; DROP DATABASE IF EXISTS oldk_slap; DROP USER IF EXISTS oldk;
    SET GLOBAL userstat=${ustat0:-0}" 2>/dev/null
echo "oldkernel: $pass passed, $fail failed"
[ $fail = 0 ]
