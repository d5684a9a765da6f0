#!/bin/sh
# OLTP against the suite's MariaDB (run.sh exports BENCH_MY_*): sysbench compatibility side by
# side with Debian's sysbench on the same server, bench's counts against the server's own
# counters, error handling under load, and the safety rules for tables bench did not create.
set -u
t_name=oltp
. "$(dirname "$0")/lib.sh"
[ -n "${BENCH_MY_PORT:-}" ] || { echo "oltp: SKIP: BENCH_MY_PORT unset (run via tests/run.sh)"; exit 77; }
ln -s "$B" "$w/sysbench"
ROOT="mariadb --no-defaults -uroot -S $BENCH_MY_SOCK"
$ROOT -e "DROP DATABASE IF EXISTS sbt; CREATE DATABASE sbt; DROP DATABASE IF EXISTS keep; CREATE DATABASE keep;"
C="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=sbt"
# only timing-dependent fields masked, keeping widths (tests/mask_timing.py); bench's results
# must also hold tests/check_result.py's invariants
mask() { python3 "$top/tests/mask_timing.py" <"$1"; }
invariants() { # invariants FILE ARGS...: bench's result in FILE holds the invariants
    f=$1; shift
    if python3 "$top/tests/check_result.py" --quiet -- "$@" <"$f"; then ok; else bad "invariants of: $*"; fi
}

# 1. sysbench compatibility: the same command lines through Debian's sysbench and bench as
#    `sysbench`, on the same server: messages, schema, counts, exit codes
same() { # same NAME ARGS...: compare masked stdout, stderr and the exit code
    name=$1; shift
    (cd "$w" && sysbench "$@" >ref.out 2>ref.err; echo $? >ref.rc)
    [ -n "${BETWEEN:-}" ] && (cd "$w" && eval "$BETWEEN") >/dev/null 2>&1
    (cd "$w" && ./sysbench "$@" >our.out 2>our.err; echo $? >our.rc)
    python3 "$top/tests/mask_timing.py" "$w/ref.out" "$w/our.out" "$w/ref.err" "$w/our.err"
    if cmp -s "$w/ref.out.m" "$w/our.out.m" && cmp -s "$w/ref.err.m" "$w/our.err.m" && cmp -s "$w/ref.rc" "$w/our.rc"; then ok; else
        bad "$name differs from sysbench (exit $(cat "$w/ref.rc") vs $(cat "$w/our.rc"))"
        diff "$w/ref.out.m" "$w/our.out.m" | head -20; diff "$w/ref.err.m" "$w/our.err.m" | head -10; fi
}
schema() { $ROOT sbt -e "SHOW CREATE TABLE sbtest1\G SHOW CREATE TABLE sbtest2\G" 2>&1 | sed 's/AUTO_INCREMENT=[0-9]*//'; }
for wl in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index oltp_update_non_index select_random_points select_random_ranges; do
    T=2
    case $wl in select_random_*) T=1 ;; esac # their cleanup refuses --tables > 1
    (cd "$w" && sysbench $wl $C --tables=$T --table-size=500 prepare >ref.prep 2>&1)
    schema >"$w/ref.schema"
    (cd "$w" && sysbench $wl $C --tables=$T --table-size=500 --events=100 --time=0 run >ref.run 2>&1)
    (cd "$w" && sysbench $wl $C --tables=$T cleanup >ref.clean 2>&1)
    (cd "$w" && ./sysbench $wl $C --tables=$T --table-size=500 prepare >our.prep 2>&1)
    schema >"$w/our.schema"
    (cd "$w" && ./sysbench $wl $C --tables=$T --table-size=500 --events=100 --time=0 run >our.run 2>&1)
    (cd "$w" && ./sysbench $wl $C --tables=$T cleanup >our.clean 2>&1)
    for f in prep schema clean; do
        if cmp -s <(mask "$w/ref.$f") <(mask "$w/our.$f") 2>/dev/null || [ "$(mask "$w/ref.$f")" = "$(mask "$w/our.$f")" ]; then ok; else
            bad "$wl $f differs from sysbench"; diff "$w/ref.$f" "$w/our.$f" | head -10; fi
    done
    # the counts of a 100-event run (reads and the transaction count are exact; writes and
    # other depend on which rows were hit only for oltp_delete, not run here)
    for k in read write other total transactions; do
        r=$(grep -E "^ *$k:" "$w/ref.run" | awk '{print $2}') o=$(grep -E "^ *$k:" "$w/our.run" | awk '{print $2}')
        if [ -n "$r" ] && [ "$r" = "$o" ]; then ok; else bad "$wl run: $k: sysbench $r, bench $o"; fi
    done
    if [ "$(mask "$w/ref.run" | sed -n '/^Running/,/^Threads started/p')" = "$(mask "$w/our.run" | sed -n '/^Running/,/^Threads started/p')" ]; then ok; else bad "$wl run header differs"; fi
    invariants "$w/our.run" $wl --tables=$T --events=100 --time=0 run
done
same help oltp_read_write help
BETWEEN="sysbench oltp_point_select $C --tables=1 cleanup" same lua-path /usr/share/sysbench/oltp_point_select.lua $C --tables=1 --table-size=100 prepare
same lua-path-run /usr/share/sysbench/oltp_point_select.lua $C --tables=1 --events=10 --time=0 run
same prewarm oltp_point_select $C --tables=1 prewarm
BETWEEN="sysbench oltp_point_select $C --tables=1 --table-size=100 prepare" same lua-path-cleanup /usr/share/sysbench/oltp_point_select.lua $C --tables=1 cleanup
same dry-run oltp_read_write --mysql-dry-run --tables=1 --events=100 --time=0 run
same help-points select_random_points help
same missing-table oltp_read_write $C --tables=1 --events=1 run

# 1b. same --rand-seed, same statements (issue 17): glibc's random() and sysbench's seeding,
#     arithmetic and draw order. Tables prepared once and copied; Debian's sysbench runs on one
#     copy, bench (as sysbench) on the other, --threads=1 and the same seed: byte-identical
#     tables (CHECKSUM TABLE); the server's general log holds the same statements
$ROOT -e "DROP DATABASE IF EXISTS sbt_a; CREATE DATABASE sbt_a; DROP DATABASE IF EXISTS sbt_b; CREATE DATABASE sbt_b;"
CA=$(echo "$C" | sed 's/--mysql-db=sbt/--mysql-db=sbt_a/')" --mysql-ssl=off"
CB=$(echo "$C" | sed 's/--mysql-db=sbt/--mysql-db=sbt_b/')" --mysql-ssl=off"
twin() { # twin WL PREPARE-ARGS: prepare in sbt_a with sysbench, copy the tables to sbt_b
    wl=$1; shift
    $ROOT -e "DROP DATABASE sbt_a; CREATE DATABASE sbt_a; DROP DATABASE sbt_b; CREATE DATABASE sbt_b;"
    (cd "$w" && sysbench "$wl" $CA "$@" prepare >/dev/null 2>&1) || bad "$wl: sysbench prepare"
    for t in $($ROOT -N sbt_a -e "SHOW TABLES"); do
        $ROOT -e "CREATE TABLE sbt_b.$t LIKE sbt_a.$t; INSERT INTO sbt_b.$t SELECT * FROM sbt_a.$t"
    done
}
sums() { # sums DB COLUMNS: an order-free digest of each table's rows
    for t in $($ROOT -N "$1" -e "SHOW TABLES"); do
        $ROOT -N "$1" -e "SELECT '$t', COUNT(*), SUM(CRC32(CONCAT_WS(',', $2))), BIT_XOR(CRC32(CONCAT_WS(',', $2))) FROM $t"
    done
}
same_data() { # same_data NAME WL RUN-ARGS: both tools run, the tables compared
    name=$1 wl=$2; shift 2
    (cd "$w" && sysbench "$wl" $CA "$@" run >ref.out 2>&1) || { bad "$name: sysbench run"; tail -3 "$w/ref.out"; }
    (cd "$w" && ./sysbench "$wl" $CB "$@" run >our.out 2>&1) || { bad "$name: bench run"; tail -3 "$w/our.out"; }
    if [ "${COLS:-}" ]; then a=$(sums sbt_a "$COLS") b=$(sums sbt_b "$COLS")
    else
        tl=$($ROOT -N sbt_a -e "SHOW TABLES" | tr '\n' ' ')
        a=$($ROOT -N sbt_a -e "CHECKSUM TABLE $(echo $tl | sed 's/ /, /g')" | awk '{print $2}')
        b=$($ROOT -N sbt_b -e "CHECKSUM TABLE $(echo $tl | sed 's/ /, /g')" | awk '{print $2}')
    fi
    if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else bad "$name: tables differ after the same seeded run: sysbench $(echo $a) bench $(echo $b)"; fi
}
R="--tables=2 --table-size=1000 --threads=1 --time=0"
for wl in oltp_read_write oltp_write_only; do
    twin $wl --tables=2 --table-size=1000
    same_data "$wl seed 7" $wl $R --events=300 --rand-seed=7
    same_data "$wl seed 7, once more" $wl $R --events=100 --rand-seed=7 # not the initial state
done
twin oltp_write_only --tables=2 --table-size=1000
same_data "oltp_write_only gaussian" oltp_write_only $R --events=200 --rand-seed=3 --rand-type=gaussian
same_data "oltp_write_only uniform, 3 inserts" oltp_write_only $R --events=200 --rand-seed=3 --rand-type=uniform --delete-inserts=3
twin oltp_insert --tables=2 --table-size=1000
same_data "oltp_insert" oltp_insert $R --events=300 --rand-seed=11
# --auto-inc=off: ids from sysbench.rand.unique(), seeded as sb_rand_init seeds it; sysbench
# draws that seed from a random() state Debian's LuaJIT seeded with the time of day, which
# tests/sbseed.c (LD_PRELOAD) pins to srandom(--rand-seed): then the same rows, ids included,
# and the same ids in order
gcc -shared -fPIC -O2 -o "$w/sbseed.so" "$top/tests/sbseed.c" -ldl 2>"$w/gcc.err" || { bad "tests/sbseed.c does not build"; cat "$w/gcc.err"; }
twin oltp_insert --tables=2 --auto-inc=off
export SB_UNIQUE_SEED=11 LD_PRELOAD="$w/sbseed.so"
COLS="id, k, c, pad" same_data "oltp_insert --auto-inc=off" oltp_insert $R --events=300 --rand-seed=11 --auto-inc=off
unset SB_UNIQUE_SEED LD_PRELOAD
for t in sbtest1 sbtest2; do
    $ROOT -N sbt_a -e "SELECT id FROM $t ORDER BY id" >"$w/ids.a"
    $ROOT -N sbt_b -e "SELECT id FROM $t ORDER BY id" >"$w/ids.b"
    if [ "$(wc -l <"$w/ids.a")" -gt 100 ] && cmp -s "$w/ids.a" "$w/ids.b"; then ok; else
        bad "oltp_insert --auto-inc=off: $t's ids differ from sysbench's (seed 11)"; diff "$w/ids.a" "$w/ids.b" | head -5; fi
done
# a second run with another seed starts elsewhere in the permutation: no collision (the same
# seed draws the same ids again, as a seeded run repeats its statements)
(cd "$w" && ./sysbench oltp_insert $CB $R --events=300 --rand-seed=12 --auto-inc=off run >our.out 2>&1) &&
    [ "$($ROOT -N sbt_b -e "SELECT (SELECT COUNT(*) FROM sbtest1) + (SELECT COUNT(*) FROM sbtest2)")" = 600 ] &&
    [ "$($ROOT -N sbt_b -e "SELECT SUM(id < 0) > 100 AND SUM(id > 0) > 100 FROM (SELECT id FROM sbtest1 UNION ALL SELECT id FROM sbtest2) u")" = 1 ] &&
    ok || { bad "oltp_insert --auto-inc=off: a second run on the same tables"; tail -3 "$w/our.out"; }
# bulk_insert: the same rows, and the same statements: sysbench sends a statement before the
# row that would not fit 512 KiB with its ',' and NUL (39033 rows in the first)
twin bulk_insert --threads=1
# bulk_insert.lua's prepare() and cleanup() print "Creating table 'sbtestN'..." / "Dropping
# table ..." (Lua's print: shown at --verbosity=1, sysbench's cram test
# script_bulk_insert_mysql.t), one table after the other, without "Initializing worker threads"
$ROOT -e "DROP DATABASE IF EXISTS sbt_k; CREATE DATABASE sbt_k"
K="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=sbt_k --threads=3"
for v in 1 3; do
    same "bulk_insert prepare --verbosity=$v" bulk_insert $K --verbosity=$v prepare
    grep -q "^Creating table 'sbtest3'...$" "$w/our.out" && ok || bad "bulk_insert prepare --verbosity=$v: no 'Creating table' line"
    same "bulk_insert cleanup --verbosity=$v" bulk_insert $K --verbosity=$v cleanup
    grep -q "^Dropping table 'sbtest3'...$" "$w/our.out" && ok || bad "bulk_insert cleanup --verbosity=$v: no 'Dropping table' line"
done
$ROOT -e "DROP DATABASE sbt_k"
glog() { # glog CMD...: the nat user's Prepare/Execute/Query texts during CMD, in order
    $ROOT -e "SET GLOBAL log_output='TABLE'; SET GLOBAL general_log=0; TRUNCATE mysql.general_log; SET GLOBAL general_log=1"
    (cd "$w" && "$@" >/dev/null 2>&1)
    $ROOT -e "SET GLOBAL general_log=0"
    $ROOT -N -e "SELECT command_type, REPLACE(CONVERT(argument USING utf8mb4), '\n', '|') FROM mysql.general_log WHERE command_type IN ('Prepare','Execute','Query') AND user_host LIKE 'nat%' AND argument NOT LIKE '%information_schema%' ORDER BY event_time"
}
rows() { awk -F'\t' '/INSERT INTO sbtest1 VALUES/ {print gsub(/\),\(/, "&") + 1}' | tr '\n' ' '; }
ra=$(glog sysbench bulk_insert $CA --threads=1 --events=40000 --time=0 run | rows)
rb=$(glog ./sysbench bulk_insert $CB --threads=1 --events=40000 --time=0 run | rows)
[ "$ra" = "39033 967 " ] && [ "$rb" = "$ra" ] && ok || bad "bulk_insert rows per statement: sysbench $ra, bench $rb"
[ "$($ROOT -N -e "CHECKSUM TABLE sbt_a.sbtest1" | awk '{print $2}')" = "$($ROOT -N -e "CHECKSUM TABLE sbt_b.sbtest1" | awk '{print $2}')" ] &&
    [ "$($ROOT -N -e "SELECT COUNT(*) FROM sbt_b.sbtest1")" = 40000 ] && ok || bad "bulk_insert: tables differ"
# select_random_*: the scripts' multi-line texts, and with the seed the same values
twin select_random_points --tables=1 --table-size=1000
for wl in select_random_points select_random_ranges; do
    glog sysbench $wl $CA --tables=1 --table-size=1000 --events=20 --time=0 --rand-seed=9 run >"$w/ref.log"
    glog ./sysbench $wl $CB --tables=1 --table-size=1000 --events=20 --time=0 --rand-seed=9 run >"$w/our.log"
    if [ "$(grep -c Execute "$w/ref.log")" = 20 ] && cmp -s "$w/ref.log" "$w/our.log"; then ok; else
        bad "$wl: statements differ from sysbench's"; diff "$w/ref.log" "$w/our.log" | head -6; fi
done
# the k-slices: 3 threads over 10 rows, the last one ends at 10 (double arithmetic, as Lua:
# 10/3 is no integer either). Slices of 4 values, each thread drawing 10 a statement for a
# whole second: a value of the edges missed with a chance below (3/4)^100. (Was 1000 rows and
# 900 events in all: the edges missed once in ~4000 runs, always where a thread started late.)
glog ./sysbench select_random_points $CB --tables=1 --table-size=10 --threads=3 --time=1 --events=0 --rand-type=uniform run |
    grep Execute | sed 's/.*IN (//; s/).*//' | tr ', ' '\n\n' | grep . | sort -n >"$w/ks"
[ "$(head -1 "$w/ks")" = 0 ] && [ "$(tail -1 "$w/ks")" = 10 ] && ok || bad "select_random_points slices: k from $(head -1 "$w/ks") to $(tail -1 "$w/ks"), wanted 0 to 10"
# oltp_read_write's whole statement stream, the same
twin oltp_read_write --tables=2 --table-size=1000
# (BEGIN and COMMIT left out: how they travel is another item of the issue)
glog sysbench oltp_read_write $CA $R --events=10 --rand-seed=5 run | grep Execute | grep -Ev "	(BEGIN|COMMIT)$" >"$w/ref.log"
glog ./sysbench oltp_read_write $CB $R --events=10 --rand-seed=5 run | grep Execute | grep -Ev "	(BEGIN|COMMIT)$" >"$w/our.log"
if [ "$(wc -l <"$w/ref.log")" -ge 180 ] && cmp -s "$w/ref.log" "$w/our.log"; then ok; else
    bad "oltp_read_write: executed statements differ from sysbench's"; diff "$w/ref.log" "$w/our.log" | head -6; fi
# prewarm: the SETs once per connection (2 threads, 4 tables: 2 + 2), not per table
twin oltp_read_write --tables=4 --table-size=100
n=$(glog ./sysbench oltp_read_write $CB --tables=4 --table-size=100 --threads=2 prewarm | grep -c "SET tmp_table_size")
[ "$n" = 2 ] && ok || bad "prewarm sent $n SET tmp_table_size, wanted 2 (one per connection)"
$ROOT -e "DROP DATABASE sbt_a; DROP DATABASE sbt_b"

# 2. bench's counts against the server's own counters (prepared statements: Com_stmt_execute)
status() { $ROOT -N -e "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_begin','Com_commit','Com_delete','Com_insert','Com_update','Com_stmt_execute','Com_select')" | awk '{printf "%s=%s ", $1, $2}'; }
$B oltp_read_write $C --no-defaults --tables=2 --table-size=1000 prepare >/dev/null 2>&1 || bad "prepare for the counter test"
before=$(status)
$B oltp_read_write $C --no-defaults --tables=2 --events=200 --time=0 run >"$w/run" 2>&1 || bad "run for the counter test"
after=$(status)
delta() { b=$(echo "$before" | tr ' ' '\n' | sed -n "s/^$1=//p"); a=$(echo "$after" | tr ' ' '\n' | sed -n "s/^$1=//p"); echo $((a - b)); }
[ "$(delta Com_begin)" = 200 ] && [ "$(delta Com_commit)" = 200 ] && ok || bad "BEGIN/COMMIT: server saw $(delta Com_begin)/$(delta Com_commit), wanted 200"
[ "$(delta Com_update)" = 400 ] && [ "$(delta Com_delete)" = 200 ] && [ "$(delta Com_insert)" = 200 ] && ok ||
    bad "server saw update $(delta Com_update) delete $(delta Com_delete) insert $(delta Com_insert), wanted 400 200 200"
[ "$(delta Com_stmt_execute)" = 4000 ] && ok || bad "server saw $(delta Com_stmt_execute) COM_STMT_EXECUTE, wanted 4000 (20 per transaction: BEGIN and COMMIT prepared, as sysbench)"
sel=$(delta Com_select); [ "$sel" -ge 2800 ] && [ "$sel" -le 2805 ] && ok || bad "server saw $sel SELECTs, wanted 2800 (+ bench's one ownership check)"
grep -q "read:                            2800" "$w/run" && grep -q "transactions:                        200 " "$w/run" && ok || bad "bench's report"
invariants "$w/run" oltp_read_write --events=200 --time=0 run
# text protocol: the same counts, no COM_STMT_EXECUTE
before=$(status)
$B oltp_read_write $C --no-defaults --tables=2 --events=50 --time=0 --db-ps-mode=disable run >"$w/run" 2>&1 || bad "text run"
after=$(status)
[ "$(delta Com_stmt_execute)" = 0 ] && grep -q "read:                            700" "$w/run" && ok || bad "text protocol: $(delta Com_stmt_execute) executes"

# 3. errors under load: a duplicate key stops the run (server's words, partial statistics,
#    exit 1); listed in --mysql-ignore-errors it restarts the event instead
#    (--auto-inc=off draws its ids from sysbench's unique sequence and no longer collides:
#    the duplicates come from a unique key on k, whose values repeat)
$ROOT sbt -e "DELETE FROM sbtest1; DELETE FROM sbtest2; ALTER TABLE sbtest1 ADD UNIQUE KEY kk (k); ALTER TABLE sbtest2 ADD UNIQUE KEY kk (k)"
$B oltp_insert $C --no-defaults --tables=2 --events=200 --time=0 --rand-seed=1 run >"$w/out" 2>"$w/err"; rc=$?
[ $rc = 1 ] && grep -q "ERROR 1062 (23000): Duplicate entry '[0-9]*' for key 'kk'" "$w/err" &&
    grep -q "statistics above are incomplete" "$w/err" && grep -q "^SQL statistics:" "$w/out" && ok || { bad "fatal 1062 (exit $rc)"; cat "$w/err"; }
$B oltp_insert $C --no-defaults --tables=2 --events=20 --time=0 --rand-seed=1 --mysql-ignore-errors=1062 run >"$w/out" 2>&1 &&
    grep -q "write:                           20$" "$w/out" && grep -Eq "ignored errors: +[1-9][0-9]* " "$w/out" && ok || { bad "ignored 1062"; grep -E "write|ignored" "$w/out"; }
# a lost connection in the list: reconnect and go on (the connections are killed once the
# run issues - sysbench's "Threads started!" - never during the logins, where no list applies).
# The run has no time limit: the test stops it (SIGINT, exit 1) once the KILLs are confirmed,
# i.e. once a connection newer than every killed one, the reconnect, is in the processlist (a
# 3 s run on a loaded host ended before the KILLs arrived: issue 28). A run the lost
# connection ended by itself has no interrupted warning, or an ERROR 2013, and fails.
pl_nat() { $ROOT -N -e "SELECT ID FROM information_schema.PROCESSLIST WHERE USER='nat' ORDER BY ID"; }
kill_nat_then_stop() { # kill_nat_then_stop PID: the run's output in $w/out, rc set
    t_end=$(($(date +%s) + 60))
    until grep -q "^Threads started!" "$w/out" || ! kill -0 "$1" 2>/dev/null || [ "$(date +%s)" -ge $t_end ]; do sleep 0.05; done
    killed=$(pl_nat | tail -1)
    [ -n "$killed" ] && pl_nat | while read -r id; do $ROOT -e "KILL $id" 2>/dev/null; done
    until [ "$(pl_nat | tail -1)" -gt "${killed:-0}" ] 2>/dev/null || ! kill -0 "$1" 2>/dev/null || [ "$(date +%s)" -ge $t_end ]; do sleep 0.05; done
    [ "$(pl_nat | tail -1)" -gt "${killed:-0}" ] 2>/dev/null && kill -INT "$1"
    wait "$1"; rc=$?
    [ -n "$killed" ] || bad "no connection of the run to kill (setup)"
}
reconnected() { # reconnected NAME: the run reconnected, went on, and ended on the test's SIGINT
    r=$(sed -n 's/^ *reconnects: *\([0-9]*\).*/\1/p' "$w/out")
    [ $rc = 1 ] && [ "${r:-0}" -ge 1 ] && grep -q "^bench: warning: interrupted; the report covers the run until the signal" "$w/out" &&
        ! grep -q "ERROR 20" "$w/out" && ok || { bad "$1 (exit $rc, reconnects ${r:-?}; want 1 after the test's SIGINT, >= 1)"; tail -5 "$w/out"; }
}
: >"$w/out"
$B oltp_point_select $C --no-defaults --tables=2 --time=0 --mysql-ignore-errors=2013,2006 run >"$w/out" 2>&1 &
kill_nat_then_stop $!
reconnected "reconnect"
# sysbench's list of the codes that reconnect: 2013, 2006, 2011, 2055 (any one listed), or all
: >"$w/out"
$B oltp_point_select $C --no-defaults --tables=2 --time=0 --mysql-ignore-errors=2055 run >"$w/out" 2>&1 &
kill_nat_then_stop $!
reconnected "reconnect on 2055"
# a reconnect whose statements fail to prepare (sbtest2 renamed away: each login works, its
# prepare fails, again every 1 ms) closes that connection before the next attempt: bench's open
# files stay at the run's while the logins go on (each attempt leaked one, 9 -> 206 files, until
# the server's max_connections). Checked once the server counted 60 logins since the KILLs
# (Connections, less the test's own queries), with the table still away, or once one leaked.
conns() { $ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Connections'" 2>/dev/null | awk '{print $2}'; }
: >"$w/out"
$B oltp_point_select $C --no-defaults --tables=2 --threads=4 --event-loops=0 --time=0 --mysql-ignore-errors=all run >"$w/out" 2>&1 &
bp=$! t_end=$(($(date +%s) + 60))
until grep -q "^Threads started!" "$w/out" || ! kill -0 $bp 2>/dev/null || [ "$(date +%s)" -ge $t_end ]; do sleep 0.05; done
fds0=$(ls /proc/$bp/fd 2>/dev/null | wc -l)
$ROOT sbt -e "RENAME TABLE sbtest2 TO sbtest2_away"
pl_nat | while read -r id; do $ROOT -e "KILL $id" 2>/dev/null; done
c0=$(conns) polls=1 logins=0
fds1=$fds0
until [ $logins -ge 60 ] || [ "$fds1" -gt "$fds0" ] || ! kill -0 $bp 2>/dev/null || [ "$(date +%s)" -ge $t_end ]; do
    sleep 0.05; polls=$((polls + 1)); logins=$(($(conns) - c0 - polls)) fds1=$(ls /proc/$bp/fd 2>/dev/null | wc -l)
done
fds1=$(ls /proc/$bp/fd 2>/dev/null | wc -l) nat=$(pl_nat 2>/dev/null | wc -l)
kill -INT $bp; wait $bp; rc=$?
$ROOT sbt -e "RENAME TABLE sbtest2_away TO sbtest2"
[ $logins -ge 60 ] && [ "$fds0" -ge 4 ] && [ "$fds1" -le "$fds0" ] && [ $rc = 1 ] && ok ||
    { bad "failed prepares on reconnect: $fds0 -> $fds1 open files after $logins logins (the server lists $nat of its connections), exit $rc"; tail -3 "$w/out"; }
# a reconnect's login ends with the run: the server gone silent (cutproxy.py on SIGUSR1: the
# connections cut, each new one accepted and never answered), the run ends at --time=3, not up
# to --mysql-connect-timeout=10 later (the logins holding the gate's slots waited theirs out:
# 14.5 s for --time=8); a thread each and a loop. From the cut (after "Threads started!") to
# bench's exit: at most --time + 1 s.
for l in 0 1; do
    python3 "$top/tests/cutproxy.py" 0 "$BENCH_MY_PORT" >"$w/cx" 2>&1 &
    cx=$!
    t_wait 10 grep -q "^ready" "$w/cx"; CXP=$(sed -n 's/^ready //p' "$w/cx")
    : >"$w/out"
    $B oltp_point_select --mysql-host=127.0.0.1 --mysql-port="${CXP:-0}" --mysql-user=nat --mysql-password=secret --mysql-db=sbt --no-defaults \
        --tables=2 --threads=4 --event-loops=$l --time=3 --mysql-connect-timeout=10 --mysql-ignore-errors=all run >"$w/out" 2>&1 &
    bp=$!
    t_wait 30 grep -q "^Threads started!" "$w/out"; t0=$(date +%s%N)
    kill -USR1 $cx
    wait $bp; rc=$?; ms=$((($(date +%s%N) - t0) / 1000000))
    kill $cx 2>/dev/null; wait $cx 2>/dev/null
    [ -n "$CXP" ] && [ $rc = 0 ] && [ $ms -le 4000 ] && grep -q "^General statistics:" "$w/out" &&
        ok || { bad "a silent server's reconnects, --event-loops=$l: exit $rc $ms ms after the cut (want 0, <= 4000)"; tail -5 "$w/out"; cat "$w/cx"; }
done
$B oltp_read_write $C --no-defaults --tables=2 cleanup >/dev/null 2>&1

# 4. safety: tables bench did not create survive prepare, run and cleanup
K="--mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=keep --no-defaults"
$ROOT keep -e "CREATE TABLE sbtest1 (a INT, note VARCHAR(20)); INSERT INTO sbtest1 VALUES (1, 'mine')"
$B oltp_read_write $K --tables=1 prepare >/dev/null 2>"$w/err"; rc=$?
[ $rc = 3 ] && grep -q "Table 'sbtest1' already exists" "$w/err" && grep -q "does not touch tables it did not create" "$w/err" && ok || { bad "prepare over a user's table (exit $rc)"; cat "$w/err"; }
$B oltp_write_only $K --tables=1 --events=10 run >/dev/null 2>"$w/err"; rc=$?
[ $rc != 0 ] && grep -q "keep.sbtest1 was not created by bench" "$w/err" && ok || { bad "run on a user's table (exit $rc)"; cat "$w/err"; }
$B oltp_read_write $K --tables=1 cleanup >/dev/null 2>"$w/err"; rc=$?
[ $rc = 1 ] && grep -q "left table 'sbtest1' alone: bench did not create it" "$w/err" && ok || { bad "cleanup of a user's table (exit $rc)"; cat "$w/err"; }
[ "$($ROOT -N keep -e 'SELECT note FROM sbtest1')" = mine ] && ok || bad "the user's table was changed"
# a table made by sysbench (exactly sysbench's definition, no marker) is sysbench's benchmark
# data (issue 17): both personas run on it and clean it up, bench saying so; with anything
# more (here an extra column) it stays refused and untouched, by both personas
$ROOT keep -e "DROP TABLE sbtest1"
KS=$(echo "$K" | sed 's/ --no-defaults//')
for who in bench persona; do
    (cd "$w" && sysbench oltp_read_write $KS --tables=2 --table-size=10 prepare >/dev/null 2>&1)
    if [ $who = bench ]; then
        $B oltp_write_only $K --tables=2 --events=10 --time=0 run >"$w/out" 2>"$w/err"; rc1=$?
        $B oltp_read_write $K --tables=2 cleanup >/dev/null 2>>"$w/err"; rc2=$?
        [ "$rc1$rc2" = 00 ] && grep -q "transactions:                        10 " "$w/out" &&
            grep -qx "bench: oltp_write_only: sbtest1 and 1 more tables were created by sysbench (exactly sysbench's definition); using them as sysbench would" "$w/err" &&
            grep -qx "bench: oltp_read_write: sbtest2 was created by sysbench (exactly sysbench's definition); dropping it as sysbench would" "$w/err" &&
            ok || { bad "bench on sysbench's tables (exits $rc1 $rc2)"; cat "$w/err"; }
    else
        (cd "$w" && ./sysbench oltp_write_only $KS --tables=2 --events=10 --time=0 run >"$w/out" 2>&1); rc1=$?
        (cd "$w" && ./sysbench oltp_read_write $KS --tables=2 cleanup >"$w/clean" 2>&1); rc2=$?
        [ "$rc1$rc2" = 00 ] && grep -q "transactions:                        10 " "$w/out" && ! grep -q "WARNING" "$w/clean" &&
            ok || { bad "the sysbench persona on sysbench's tables (exits $rc1 $rc2)"; cat "$w/clean"; }
    fi
    [ -z "$($ROOT -N keep -e 'SHOW TABLES')" ] && ok || bad "$who left sysbench's tables: $($ROOT -N keep -e 'SHOW TABLES')"
done
(cd "$w" && sysbench oltp_read_write $KS --tables=1 --table-size=10 prepare >/dev/null 2>&1)
$ROOT keep -e "ALTER TABLE sbtest1 ADD COLUMN mine INT; UPDATE sbtest1 SET mine = 7"
$B oltp_write_only $K --tables=1 --events=10 --time=0 run >/dev/null 2>"$w/err"; rc=$?
[ $rc = 3 ] && grep -q "^bench: oltp_write_only: table keep.sbtest1 was not created by bench (no 'created by bench' comment) and its definition is not sysbench's: not writing to it$" "$w/err" &&
    ok || { bad "run on a sysbench table with an extra column (exit $rc)"; cat "$w/err"; }
$B oltp_read_write $K --tables=1 cleanup >/dev/null 2>"$w/err"; rc=$?
[ $rc = 1 ] && grep -q "left table 'sbtest1' alone: bench did not create it (no 'created by bench' comment) and its definition is not sysbench's" "$w/err" &&
    ok || { bad "cleanup of a sysbench table with an extra column (exit $rc)"; cat "$w/err"; }
(cd "$w" && ./sysbench oltp_read_write $KS --tables=1 cleanup >"$w/out" 2>&1); rc=$?
[ $rc = 0 ] && grep -q "^WARNING: oltp_read_write: cleanup: left table 'sbtest1' alone: its definition is not sysbench's" "$w/out" &&
    ok || { bad "the sysbench persona's cleanup of a changed table (exit $rc)"; cat "$w/out"; }
[ "$($ROOT -N keep -e 'SELECT COUNT(*), MIN(mine), MAX(mine) FROM sbtest1')" = "10	7	7" ] && ok || bad "the changed sysbench table was touched"
$ROOT keep -e "DROP TABLE sbtest1"
# sysbench's definition, but a user's table references it (ON DELETE CASCADE: bench's deletes
# would delete the user's rows) or a trigger on it writes elsewhere: not sysbench's data, so
# refused and left by both personas, the user's tables untouched
(cd "$w" && sysbench oltp_read_write $KS --tables=2 --table-size=10 prepare >/dev/null 2>&1)
$ROOT keep -e "CREATE TABLE orders (oid INT PRIMARY KEY, sb INT NOT NULL, CONSTRAINT orders_sb FOREIGN KEY (sb) REFERENCES sbtest1 (id) ON DELETE CASCADE) ENGINE=InnoDB; INSERT INTO orders SELECT id, id FROM sbtest1; CREATE TABLE audit (n INT); CREATE TRIGGER audit_k AFTER UPDATE ON sbtest2 FOR EACH ROW INSERT INTO audit VALUES (NEW.id)"
$B oltp_read_write $K --tables=2 cleanup >/dev/null 2>"$w/err"; rc=$?
(cd "$w" && ./sysbench oltp_read_write $KS --tables=2 cleanup >"$w/out" 2>&1); rc=$rc$?
[ $rc = 10 ] && [ "$(cat "$w/err" "$w/out" | grep -c "left table 'sbtest[12]' alone")" = 4 ] &&
    ok || { bad "cleanup of sysbench tables with a foreign key or a trigger (exits $rc)"; cat "$w/err" "$w/out"; }
$B oltp_write_only $K --tables=1 --events=10 --time=0 run >/dev/null 2>"$w/err"; rc=$?
$ROOT keep -e "ALTER TABLE orders DROP FOREIGN KEY orders_sb"
$B oltp_write_only $K --tables=2 --events=10 --time=0 run >/dev/null 2>>"$w/err"; rc=$rc$?
[ $rc = 33 ] && grep -q "^bench: oltp_write_only: table keep.sbtest1 was not created by bench (no 'created by bench' comment) and its definition is not sysbench's: not writing to it$" "$w/err" &&
    grep -q "^bench: oltp_write_only: table keep.sbtest2 was not created by bench (no 'created by bench' comment) and its definition is not sysbench's: not writing to it$" "$w/err" &&
    ok || { bad "run on sysbench tables with a foreign key or a trigger (exits $rc)"; cat "$w/err"; }
[ "$($ROOT -N keep -e 'SELECT (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM audit), (SELECT COUNT(*) FROM sbtest1), (SELECT COUNT(*) FROM sbtest2)')" = "10	0	10	10" ] &&
    ok || bad "a user's table was changed through a sysbench table"
$ROOT keep -e "DROP TABLE orders, audit, sbtest1, sbtest2"
# bulk_insert: one table per thread, rows = events
$B bulk_insert $C --no-defaults --threads=2 prepare >/dev/null 2>&1 &&
    $B bulk_insert $C --no-defaults --threads=2 --events=3000 --time=0 run >"$w/out" 2>&1 &&
    [ "$($ROOT -N sbt -e 'SELECT (SELECT COUNT(*) FROM sbtest1) + (SELECT COUNT(*) FROM sbtest2)')" = 3000 ] &&
    $B bulk_insert $C --no-defaults --threads=2 cleanup >/dev/null 2>&1 && ! $ROOT sbt -e "SELECT 1 FROM sbtest1" >/dev/null 2>&1 &&
    ok || { bad "bulk_insert"; cat "$w/out"; }
# bulk_insert's last rows go out at thread end: a failure there fails the run as a statement's
# mid-run does (the server's words, exit 1; sysbench's two FATAL lines), on a thread and on a
# loop (it was silent: exit 0, nothing inserted)
$B bulk_insert $C --no-defaults --threads=1 prepare >/dev/null 2>&1
$ROOT sbt -e "CREATE TRIGGER nope BEFORE INSERT ON sbtest1 FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'nope says no'"
for l in 0 1; do
    $B bulk_insert $C --no-defaults --threads=1 --events=10 --time=0 --event-loops=$l run >"$w/out" 2>"$w/err"; rc=$?
    [ $rc = 1 ] && grep -q "^bench: bulk_insert: statement failed on 127.0.0.1:$BENCH_MY_PORT: ERROR 1644 (45000): nope says no (statement: INSERT INTO sbtest1 VALUES(1,1),(2,2)," "$w/err" &&
        ok || { bad "bulk_insert's last rows refused, --event-loops=$l: exit $rc"; cat "$w/err"; }
done
"$w/sysbench" bulk_insert $C --no-defaults --threads=1 --events=10 --time=0 run >"$w/out" 2>&1; rc=$?
[ $rc = 1 ] && grep -A1 "^FATAL: mysql_drv_query() returned error 1644 (nope says no) for query 'INSERT INTO sbtest1 VALUES(1,1)," "$w/out" |
    grep -q "^FATAL: \`thread_done' function failed: /usr/share/sysbench/bulk_insert.lua:42: db_bulk_insert_done() failed$" &&
    ok || { bad "bulk_insert's last rows refused, sysbench persona: exit $rc"; cat "$w/out"; }
[ "$($ROOT -N sbt -e 'SELECT COUNT(*) FROM sbtest1')" = 0 ] || bad "the trigger let rows in (setup)"
$B bulk_insert $C --no-defaults --threads=1 cleanup >/dev/null 2>&1

# 5. the 0.4 command line: --test=oltp on one unnumbered table named by --oltp-table-name
O4="--test=oltp $C --no-defaults --oltp-table-size=500"
$B $O4 prepare >"$w/out" 2>&1 && grep -q "Creating table 'sbtest'..." "$w/out" && ok || { bad "0.4 prepare"; cat "$w/out"; }
$B $O4 --max-requests=50 --max-time=0 --num-threads=2 run >"$w/out" 2>&1
grep -q "transactions:                        50 " "$w/out" &&
    grep -q "runs as oltp_read_write on table 'sbtest'" "$w/out" && ok || { bad "0.4 run"; grep -E "read:|write:|warning" "$w/out"; }
$B $O4 --oltp-test-mode=nontrx --oltp-nontrx-mode=update_key --max-requests=20 --max-time=0 run >"$w/out" 2>&1
grep -q "write:                           20" "$w/out" && ok || { bad "0.4 nontrx update_key"; grep -E "read:|write:|other:" "$w/out"; }
$B $O4 cleanup >/dev/null 2>&1 && ! $ROOT sbt -e "SELECT 1 FROM sbtest" >/dev/null 2>&1 && ok || bad "0.4 cleanup"

# 6. the one-liner: its own schema, created and dropped; an existing one is never touched
L="-h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --no-defaults --step-time=1 --max-threads=4 --table-size=2000"
$ROOT -e "CREATE DATABASE bench; CREATE TABLE bench.mine (a INT); INSERT INTO bench.mine VALUES (7)"
$B oltp $L >/dev/null 2>"$w/err"; rc=$?
[ $rc = 3 ] && grep -q "creating schema 'bench' on 127.0.0.1:$BENCH_MY_PORT failed: ERROR 1007" "$w/err" &&
    [ "$($ROOT -N -e 'SELECT a FROM bench.mine')" = 7 ] && ok || { bad "one-liner over an existing schema (exit $rc)"; cat "$w/err"; }
$ROOT -e "DROP DATABASE bench"
$B oltp $L >"$w/out" 2>"$w/err"; rc=$?
# each workload: a knee below the ladder's top (1 or 2 threads of --max-threads=4), or no knee
# and "still rising at 4 threads": never a knee at the top, where nothing past it was measured
kn() { grep -Eq "^knee: $1 at [12] threads \(.*\): 95% of the peak \([124] threads\)" "$w/out" ||
    grep -Eq "^no knee: $1 still rising at 4 threads, \+[0-9]+% on the last doubling \(stopped by --max-threads\)" "$w/out"; }
[ $rc = 0 ] && grep -q "^OLTP sizing of 127.0.0.1:$BENCH_MY_PORT" "$w/out" && kn oltp_point_select && kn oltp_read_write &&
    ! grep -q "^knee: .* at 4 threads" "$w/out" && [ "$(grep -c "knee" "$w/out")" -ge 2 ] &&
    grep -Eq "^oltp_read_write +1 " "$w/out" && ok || { bad "one-liner (exit $rc)"; cat "$w/out" "$w/err"; }
# a ladder stopped by --max-threads=2: by the table's own figures, 1 thread under 95% of 2's
# is "still rising at 2 threads" (no knee), else the knee is at 1, unconfirmed
$B oltp $L --max-threads=2 --table-size=100 >"$w/out" 2>"$w/err"; rc=$?
g=$(awk '$1 == "oltp_read_write" { t[$2] = $3 } END { if (t[1] > 0 && t[2] > 0) print (t[1] < 0.95 * t[2]) ? "rising" : "flat" }' "$w/out")
if [ "$g" = rising ]; then
    grep -Eq "^no knee: oltp_read_write still rising at 2 threads, \+[0-9]+% on the last doubling \(stopped by --max-threads\): use at least 2 threads" "$w/out" &&
        ! grep -q "^knee: oltp_read_write\|oltp_read_write .*<- knee" "$w/out"
else
    grep -q "^knee: oltp_read_write at 1 threads .*: 95% of the peak (. threads), one doubling past where it flattens: not confirmed" "$w/out"
fi
r=$?
[ $rc = 0 ] && [ -n "$g" ] && [ $r = 0 ] && ok || { bad "one-liner stopped by --max-threads=2 ($g, exit $rc)"; cat "$w/out" "$w/err"; }
grep -q "dropped schema 'bench'" "$w/err" && [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'bench'")" ] && ok || bad "one-liner left its schema"
# interrupted (SIGTERM; a Ctrl-C is the same): the steps end, the schema is dropped, exit 1
$B oltp $L --step-time=3 >"$w/out" 2>"$w/err" &
pid=$!
sleep 5
kill -TERM $pid
wait $pid; rc=$?
[ $rc = 1 ] && grep -q "interrupted" "$w/err" && grep -q "dropped schema 'bench'" "$w/err" &&
    [ -z "$($ROOT -N -e "SHOW DATABASES LIKE 'bench'")" ] && ok || { bad "interrupted one-liner (exit $rc)"; cat "$w/err"; }
# 7. hardening (issue 18)
# 7.1 names reach SQL quoted, never spliced: hostile --oltp-table-name values through
#     prepare, run and cleanup; the user's table `victim` and bench's own `mine` survive
$ROOT sbt -e "CREATE TABLE victim (a INT); INSERT INTO victim VALUES (42)"
$B --test=oltp $C --no-defaults --oltp-table-name=mine --oltp-table-size=10 prepare >/dev/null 2>&1 || bad "prepare of 'mine'"
tables() { $ROOT -N -e "SELECT GROUP_CONCAT(TABLE_NAME ORDER BY TABLE_NAME SEPARATOR '|') FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbt'"; }
survived() { [ "$($ROOT -N sbt -e 'SELECT a FROM victim' 2>&1)" = 42 ] && [ "$(tables)" = "mine|victim" ]; }
# the value that made the old ownership check match 'mine' and cleanup drop `victim`
$B --test=oltp $C --no-defaults "--oltp-table-name=victim /*' OR t.TABLE_NAME='mine' OR '*/" cleanup >"$w/out" 2>"$w/err"; rc=$?
[ $rc = 0 ] && survived && ok || { bad "crafted cleanup (exit $rc): tables now $(tables)"; cat "$w/err"; }
# the check compares byte for byte: a user's `MINE` is not bench's `mine`
$ROOT sbt -e "CREATE TABLE MINE (a INT)"
$B --test=oltp $C --no-defaults --oltp-table-name=MINE cleanup >"$w/out" 2>"$w/err"; rc=$?
[ $rc = 1 ] && grep -q "left table 'MINE' alone: bench did not create it" "$w/err" && $ROOT sbt -e "DROP TABLE MINE" && survived &&
    ok || { bad "a user's table that differs from bench's in case (exit $rc): tables now $(tables)"; cat "$w/err"; }
u64=$(printf 'a%.0s' $(seq 64))
for name in 'x`y' "o'brien" 'x`; DROP TABLE victim; --x' "victim' OR '1'='1" 'a /* b */ c' 'a -- b' 'a#b' 'ünïcødé 表' "$u64"; do
    $B --test=oltp $C --no-defaults "--oltp-table-name=$name" --oltp-table-size=10 prepare >"$w/out" 2>"$w/err"; rc1=$?
    got=$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='sbt' AND TABLE_COMMENT='created by bench'")
    $B --test=oltp $C --no-defaults "--oltp-table-name=$name" --max-requests=5 --max-time=0 run >"$w/run" 2>&1; rc2=$?
    $B --test=oltp $C --no-defaults "--oltp-table-name=$name" --oltp-test-mode=simple --max-requests=5 --max-time=0 --db-ps-mode=disable run >"$w/run2" 2>&1; rc3=$?
    $B --test=oltp $C --no-defaults "--oltp-table-name=$name" cleanup >>"$w/out" 2>>"$w/err"; rc4=$?
    [ "$rc1$rc2$rc3$rc4" = 0000 ] && [ "$got" = 2 ] && grep -q "transactions:                        5 " "$w/run" &&
        grep -q "transactions:                        5 " "$w/run2" && survived && ok ||
        { bad "hostile table name [$name]: exits $rc1 $rc2 $rc3 $rc4, bench tables $got, now $(tables)"; cat "$w/err"; tail -3 "$w/run"; }
done
# names SQL cannot hold are refused before any statement, naming the option (exit 2)
for name in "${u64}b" "$(printf 'bad\377utf8')"; do
    for cmd in prepare run cleanup; do
        $B --test=oltp $C --no-defaults "--oltp-table-name=$name" --max-time=1 $cmd >"$w/out" 2>"$w/err"; rc=$?
        [ $rc = 2 ] && grep -q "^bench: --oltp-table-name: invalid name" "$w/err" && survived && ok ||
            { bad "invalid table name, $cmd (exit $rc)"; cat "$w/err"; }
    done
done
$B --test=oltp $C --no-defaults cleanup >/dev/null 2>&1
# the storage engine goes into the DDL (also as 0.4's --mysql-table-engine): a word only
for o in "oltp_read_write --mysql-storage-engine" "--test=oltp --mysql-table-engine"; do
    $B ${o% *} $C --no-defaults "${o#* }=innodb */ AS SELECT * FROM victim /*" prepare >"$w/out" 2>"$w/err"; rc=$?
    [ $rc = 2 ] && grep -q "^bench: --mysql-storage-engine: invalid name 'innodb \*/ AS SELECT \* FROM victim /\*': only letters, digits and '_' are allowed" "$w/err" &&
        survived && ok || { bad "hostile $o (exit $rc)"; cat "$w/err"; }
done
# --mysql-db: a hostile but valid name works (it travels in the login, never in SQL); the
# victim in sbt survives; more than 64 characters are refused by every command
odd='we`ird'"'"'db; DROP TABLE sbt.victim; --x'
$ROOT -e "CREATE DATABASE \`$(echo "$odd" | sed 's/`/``/g')\`"
D=$(echo "$C" | sed 's/--mysql-db=sbt//')
$B oltp_read_write $D --no-defaults "--mysql-db=$odd" --table-size=10 prepare >"$w/out" 2>"$w/err" &&
    $B oltp_read_write $D --no-defaults "--mysql-db=$odd" --events=5 --time=0 run >"$w/run" 2>>"$w/err" &&
    grep -q "transactions:                        5 " "$w/run" &&
    $B oltp_read_write $D --no-defaults "--mysql-db=$odd" cleanup >>"$w/out" 2>>"$w/err" && survived && ok || { bad "a hostile --mysql-db"; cat "$w/err"; }
$ROOT -e "DROP DATABASE \`$(echo "$odd" | sed 's/`/``/g')\`"
for cmd in prepare run cleanup prewarm; do
    $B oltp_read_write $C --no-defaults "--mysql-db=${u64}b" --time=1 $cmd >"$w/out" 2>"$w/err"; rc=$?
    [ $rc = 2 ] && grep -q "^bench: --mysql-db (-D): invalid name '${u64:0:40}\.\.\.' (65 characters): longer than 64 characters" "$w/err" && ok ||
        { bad "65-character --mysql-db, $cmd (exit $rc)"; cat "$w/err"; }
done
# 7.2 bad connection options: one validation path, the value named, exit 2, for every command
for cmd in prepare run cleanup prewarm; do
    $B oltp_point_select $C --no-defaults --mysql-port=70000 --time=1 $cmd >"$w/out" 2>"$w/err"; rc=$?
    [ $rc = 2 ] && [ "$(cat "$w/err")" = "bench: --mysql-port: invalid port '70000' (expected 1..65535)
bench: hint: see 'bench --help'" ] && ok || { bad "bad port under $cmd (exit $rc)"; cat "$w/err"; }
done
$B oltp_point_select $C --no-defaults --ssl-mode=SOMETIMES --time=1 run >"$w/out" 2>"$w/err"; rc=$?
[ $rc = 2 ] && grep -q "^bench: --ssl-mode: invalid value 'SOMETIMES'" "$w/err" && ok || { bad "bad --ssl-mode under run (exit $rc)"; cat "$w/err"; }
# 7.3 a signal stops prepare, also while the server holds the statement (the wait is seen
#     within 200 ms); bench drops the table it did not finish (its marker proves it), says
#     so, exits 1. The bound covers that cleanup too (a new login, KILL, DROP): 0.23-0.31 s
#     alone, 1.35 s once under a loaded `make test`, so 4 s; the old code was still loading
#     at 3 s, and a load of 10M rows takes far longer than 4 s (bench stops within a batch)
gone() { ! $ROOT sbt -e "SELECT 1 FROM sbtest1 LIMIT 1" >/dev/null 2>&1; }
stop_after() { # stop_after SIG PID: ms until PID exits (at most 8 s, then killed: 9999)
    t0=$(date +%s%N); kill -"$1" "$2"
    for _ in $(seq 160); do kill -0 "$2" 2>/dev/null || break; sleep 0.05; done
    if kill -0 "$2" 2>/dev/null; then kill -9 "$2"; wait "$2"; echo 9999; return; fi
    t1=$(date +%s%N); echo $(((t1 - t0) / 1000000))
}
for sig in TERM INT; do
    : >"$w/out" # (not the last run's words: the wait below reads it)
    $B oltp_read_write $C --no-defaults --table-size=10000000 prepare >"$w/out" 2>"$w/err" &
    pid=$!
    for _ in $(seq 400); do grep -q Inserting "$w/out" && break; sleep 0.05; done; sleep 0.5
    grep -q Inserting "$w/out" || bad "SIG$sig in prepare: no 'Inserting' within 20 s (setup)"
    ms=$(stop_after $sig $pid); wait $pid; rc=$?
    [ "$ms" -lt 4000 ] && [ $rc = 1 ] && gone && [ "$(cat "$w/err")" = "bench: warning: oltp_read_write: dropped the unfinished table 'sbtest1' (created by this prepare)
bench: warning: oltp_read_write prepare: interrupted by SIG$sig; tables finished before the signal are kept (cleanup removes them)" ] &&
        ok || { bad "SIG$sig in prepare: $ms ms, exit $rc"; cat "$w/err"; }
    $B oltp_read_write $C --no-defaults cleanup >/dev/null 2>&1
done
# the INSERT waits for a lock another session holds: the signal is seen during the wait; the
# DROP waits 1 s at most for that lock, then leaves the table to cleanup (exit 3, it says so).
# The holder sleeps 301 s (killed once bench is done): however late the signal lands, the lock
# is still held when the DROP asks for it. 3 s bound: the signal seen within 0.2 s, the DROP's
# 1 s, the undo's login and KILL (up to 1.35 s under load)
$B oltp_read_write $C --no-defaults --table-size=300000 prepare >"$w/out" 2>"$w/err" &
pid=$!
for _ in $(seq 400); do gone || break; sleep 0.05; done
$ROOT sbt -e "LOCK TABLES sbtest1 WRITE; SELECT SLEEP(301); UNLOCK TABLES" >/dev/null 2>&1 &
lk=$!
# wait until the other session holds the lock (its SLEEP runs) and bench's INSERT waits for
# it: a LOCK TABLES that still waits for bench's INSERT in flight also shows "metadata lock",
# and then bench's DROP may be granted before it (CI once: 91 ms, exit 1, the table dropped)
held=0
for _ in $(seq 400); do
    held=$($ROOT -N -e "SELECT (SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(301)')
        * (SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'INSERT INTO%' AND STATE LIKE '%metadata lock%')")
    [ "$held" = 1 ] && break; sleep 0.05
done
[ "$held" = 1 ] && ok || bad "the lock held by another session with bench's INSERT waiting for it (setup)"
ms=$(stop_after TERM $pid); wait $pid; rc=$?
for id in $($ROOT -N -e "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(301)'"); do
    $ROOT -e "KILL QUERY $id"
done
[ "$ms" -lt 3000 ] && [ $rc = 3 ] && grep -q "interrupted by SIGTERM" "$w/err" && grep -q "ERROR 1205" "$w/err" &&
    grep -q "^bench: hint: the unfinished table 'sbtest1' is left; it carries bench's marker: 'bench oltp_read_write cleanup' drops it" "$w/err" &&
    ok || { bad "SIGTERM while the server waits: $ms ms, exit $rc"; cat "$w/err"; }
wait $lk
$B oltp_read_write $C --no-defaults cleanup >/dev/null 2>&1 && gone && ok || bad "cleanup after an interrupted prepare"
# behind a proxy the greeting's id names another server thread (here: the same user's
# SELECT SLEEP in the same schema): the undo after a signal must not KILL it. The victim
# sleeps 302 s - still sleeping after bench is done, it was not killed (one that ended on its
# own before the undo would prove nothing) - then the test kills its query
NAT="mariadb --no-defaults -h127.0.0.1 -P$BENCH_MY_PORT -unat -psecret sbt"
$NAT -e "SELECT SLEEP(302)" >/dev/null 2>&1 &
vic=$!
vid=
for _ in $(seq 400); do
    vid=$($ROOT -N -e "SELECT ID FROM information_schema.PROCESSLIST WHERE USER = 'nat' AND INFO = 'SELECT SLEEP(302)'" | head -1)
    [ -n "$vid" ] && break; sleep 0.05
done
[ -n "$vid" ] || bad "undo behind a proxy: the victim's SELECT SLEEP(302) not seen within 20 s (setup)"
python3 "$top/tests/idproxy.py" 0 "$BENCH_MY_PORT" "${vid:-0}" >"$w/px" 2>&1 &
px=$!
t_wait 20 grep -q ready "$w/px" || :
PXP=$(sed -n 's/^ready //p' "$w/px")
[ -n "$PXP" ] || { bad "undo behind a proxy: idproxy.py did not start (setup)"; cat "$w/px"; }
: >"$w/out"
$B oltp_read_write ${C%%--mysql-port=*}--mysql-port=$PXP --mysql-user=nat --mysql-password=secret --mysql-db=sbt \
    --no-defaults --ssl-mode=DISABLED --table-size=2000000 prepare >"$w/out" 2>"$w/err" &
pid=$!
for _ in $(seq 400); do grep -q Inserting "$w/out" && break; sleep 0.05; done; sleep 0.3
grep -q Inserting "$w/out" || bad "undo behind a proxy: no 'Inserting' within 20 s (setup)"
kill -TERM $pid; wait $pid; rc=$?
alive=$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ${vid:-0} AND COMMAND = 'Query' AND INFO = 'SELECT SLEEP(302)'")
[ -n "$vid" ] && $ROOT -e "KILL QUERY $vid"
wait $vic
kill $px 2>/dev/null; wait $px 2>/dev/null
[ -n "$vid" ] && [ "$alive" = 1 ] && [ $rc != 0 ] && grep -q "interrupted by SIGTERM" "$w/err" &&
    ok || { bad "undo behind a proxy: victim thread $vid still sleeping: ${alive:-?} (wanted 1), bench exit $rc"; cat "$w/err"; }
for _ in $(seq 100); do $ROOT -N -e "SHOW PROCESSLIST" | grep -q "INSERT INTO" || break; sleep 0.1; done
$B oltp_read_write $C --no-defaults cleanup >/dev/null 2>&1 && gone && ok || bad "cleanup after the proxy case"
# the sysbench persona: as Debian's sysbench, which the signal kills (143), table left
for who in ref our; do
    prog=sysbench; [ $who = our ] && prog=./sysbench
    (cd "$w" && exec $prog oltp_read_write $C --table-size=2000000 prepare >"$who.sig" 2>&1) &
    pid=$!
    for _ in $(seq 100); do grep -q Inserting "$w/$who.sig" 2>/dev/null && break; sleep 0.05; done; sleep 0.3
    ms=$(stop_after TERM $pid); wait $pid; echo $? >"$w/$who.sigrc"
    [ "$ms" -lt 1000 ] && ! gone && ok || bad "$prog: SIGTERM in prepare ($ms ms)"
    $ROOT sbt -e "DROP TABLE IF EXISTS sbtest1"
done
[ "$(cat "$w/ref.sigrc")" = 143 ] && [ "$(cat "$w/our.sigrc")" = 143 ] && [ "$(mask "$w/ref.sig")" = "$(mask "$w/our.sig")" ] &&
    ok || { bad "sysbench persona on SIGTERM: exit $(cat "$w/our.sigrc"), sysbench $(cat "$w/ref.sigrc")"; diff "$w/ref.sig" "$w/our.sig"; }
# 7.4 --mysql-io-timeout does not cut the statements bench knows are long (here a bulk
#     INSERT held 3 s by a lock); a statement it does cut names the option
$B oltp_read_write $C --no-defaults --mysql-io-timeout=1 --table-size=300000 prepare >"$w/out" 2>"$w/err" &
pid=$!
for _ in $(seq 100); do gone || break; sleep 0.05; done
$ROOT sbt -e "LOCK TABLES sbtest1 WRITE; SELECT SLEEP(3); UNLOCK TABLES" >/dev/null 2>&1
wait $pid; rc=$?
[ $rc = 0 ] && [ "$($ROOT -N sbt -e 'SELECT COUNT(*) FROM sbtest1')" = 300000 ] && ok || { bad "a long load under --mysql-io-timeout=1 (exit $rc)"; cat "$w/err"; }
$B oltp_read_write $C --no-defaults cleanup >/dev/null 2>&1
# (the global read lock is held when bench starts - its SLEEP runs - and until bench is done;
# each holder of this file sleeps its own number of seconds, so that a probe finds only its own)
$ROOT -e "FLUSH TABLES WITH READ LOCK; SELECT SLEEP(303); UNLOCK TABLES" >/dev/null 2>&1 &
lk=$!
ftwrl() { $ROOT -N -e "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO = 'SELECT SLEEP(303)'"; }
for _ in $(seq 400); do [ -n "$(ftwrl)" ] && break; sleep 0.05; done
[ -n "$(ftwrl)" ] || bad "the global read lock not held within 20 s (setup)"
$B oltp_read_write $C --no-defaults --mysql-io-timeout=1 prepare >"$w/out" 2>"$w/err"; rc=$?
for id in $(ftwrl); do $ROOT -e "KILL QUERY $id"; done
wait $lk
[ $rc = 3 ] && grep -q "(ETIMEDOUT)" "$w/err" && grep -q "^bench: hint: no answer within --mysql-io-timeout=1 s; raise it for a slow or busy server" "$w/err" &&
    ok || { bad "a timed-out CREATE TABLE (exit $rc)"; cat "$w/err"; }
# the CREATE TABLE bench gave up on may still run on the server once the lock is gone
for _ in $(seq 100); do $ROOT -N -e "SHOW PROCESSLIST" | grep -q "CREATE TABLE" || break; sleep 0.1; done
$B oltp_read_write $C --no-defaults cleanup >/dev/null 2>&1
$B oltp_write_only $C --no-defaults --table-size=100 prepare >/dev/null 2>&1 || bad "oltp_write_only prepare (setup)"
$B oltp_write_only $C --no-defaults --mysql-io-timeout=1 --time=6 run >"$w/out" 2>"$w/err" &
pid=$!
# the lock comes once the workers issue (sysbench's line), then holds 3 s of the 6
for _ in $(seq 200); do grep -q "^Threads started!" "$w/out" && break; sleep 0.05; done
sleep 0.5
$ROOT sbt -e "LOCK TABLES sbtest1 WRITE; SELECT SLEEP(3); UNLOCK TABLES" >/dev/null 2>&1
wait $pid; rc=$?
[ $rc = 1 ] && grep -q "(ETIMEDOUT)" "$w/err" &&
    grep -q "^bench: hint: no answer within --mysql-io-timeout=1 s: raise it, or add 2013 to --mysql-ignore-errors to reconnect and go on" "$w/err" &&
    ok || { bad "a timed-out statement in a run (exit $rc)"; cat "$w/err"; }
$B oltp_write_only $C --no-defaults cleanup >/dev/null 2>&1
# 7.5 the window ends when the workers stop issuing: teardown (16 threads x 1000 tables x 5
#     statements) is not counted (it was: 1.45 s for --time=1)
$ROOT -e "SET GLOBAL max_prepared_stmt_count = 100000; DROP DATABASE IF EXISTS many; CREATE DATABASE many"
M=$(echo "$C" | sed 's/--mysql-db=sbt/--mysql-db=many/')
$B oltp_read_only $M --no-defaults --tables=1000 --table-size=1 --create-secondary=off --threads=4 prepare >/dev/null 2>&1 || bad "prepare of 1000 tables"
# (the best of three runs; the teardown added 0.17-0.5 s to each of 9 runs of the old code,
# 0.01-0.12 s now. The window also holds the last event begun before the deadline: under a
# loaded CI host that one can take long, so the bound is 1.15 s plus the run's max latency,
# that allowance capped at 0.15 s: more would let the old code's teardown through)
tts=""
win() { # the run in $w/out: total time within 1.0 .. 1.15 s + min(its max latency, 0.15 s)
    tt=$(sed -n 's/^ *total time: *\([0-9.]*\)s$/\1/p' "$w/out")
    mx=$(sed -n 's/^ *max: *\([0-9.]*\)$/\1/p' "$w/out" | head -1)
    awk -v t="${tt:-9}" -v m="${mx:-9999}" 'BEGIN { m /= 1000; if (m > 0.15) m = 0.15; exit !(t >= 1.0 && t < 1.15 + m) }'
}
for _ in 1 2 3; do
    $B oltp_read_only $M --no-defaults --tables=1000 --threads=16 --time=1 run >"$w/out" 2>&1; rc=$?
    [ $rc = 0 ] && win && break
    tts="$tts ${tt:-?} (max ${mx:-?} ms)"
done
[ $rc = 0 ] && win && ok || { bad "total time of --time=1 with 1000 tables:$tts s (exit $rc)"; tail -5 "$w/out"; }
$ROOT -e "SET GLOBAL max_prepared_stmt_count = DEFAULT; DROP DATABASE many" # (cleanup: 1000 checks)
# 7.6 the one-liner's -D: validated, quoted, never cut (45 two-byte characters, a backtick)
u45=$(printf 'ä%.0s' $(seq 45))
for db in "$u45" 'be`nch' 'x`; DROP DATABASE keep; --x'; do
    $B oltp $L --step-time=1 --max-threads=1 -D "$db" >"$w/out" 2>"$w/err"; rc=$?
    [ $rc = 0 ] && grep -qF "created schema '$db' on" "$w/err" && grep -qxF "bench: oltp: dropped schema '$db'" "$w/err" &&
        [ "$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN ('$u45', 'be\`nch', 'bench', 'x\`; DROP DATABASE keep; --x')")" = 0 ] &&
        $ROOT -e "USE keep" && ok || { bad "one-liner -D [$db] (exit $rc)"; cat "$w/err"; }
done
$B oltp $L -D "${u64}b" >"$w/out" 2>"$w/err"; rc=$?
[ $rc = 2 ] && grep -q "^bench: --mysql-db (-D): invalid name" "$w/err" && ok || { bad "one-liner -D of 65 characters (exit $rc)"; cat "$w/err"; }
# 7.7 sysbench's scripts print() whatever --verbosity (issue 8: bench muted them at 1)
BETWEEN="sysbench oltp_read_write $C --tables=1 cleanup" same verbosity-prepare oltp_read_write $C --tables=1 --table-size=10 --verbosity=1 prepare
same verbosity-prewarm oltp_read_write $C --tables=1 --verbosity=0 prewarm
BETWEEN="sysbench oltp_read_write $C --tables=1 --table-size=10 prepare" same verbosity-cleanup oltp_read_write $C --tables=1 --verbosity=1 cleanup
[ "$(mask "$w/our.out")" = "Dropping table 'sbtest1'..." ] && ok || { bad "verbosity-cleanup output"; cat "$w/our.out"; }
$ROOT sbt -e "DROP TABLE victim; DROP TABLE mine"
# 7.8 the compressed protocol (issue 17 item 6): what the server sends in a seeded
#     oltp_read_only shrinks at least as much with bench as with Debian's sysbench on the same
#     command line (server Bytes_sent deltas); a seeded oltp_read_write leaves the same tables
#     compressed or not
Z="$C --tables=2 --table-size=1000"
(cd "$w" && ./sysbench oltp_read_only $Z prepare >/dev/null 2>&1) || bad "prepare for the compression test"
sent() { $ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Bytes_sent'" | awk '{print $2}'; }
zrun() { # zrun PROGRAM on|off: the server's bytes sent for the run
    b0=$(sent)
    (cd "$w" && $1 oltp_read_only $Z --events=300 --time=0 --rand-seed=7 --mysql-compression=$2 run >zrun.out 2>&1) ||
        { bad "$1 oltp_read_only --mysql-compression=$2"; tail -3 "$w/zrun.out"; }
    grep -q "read: *4200$" "$w/zrun.out" || bad "$1 --mysql-compression=$2: not 4200 reads"
    echo $(($(sent) - b0))
}
bo=$(zrun ./sysbench off) bz=$(zrun ./sysbench on) so=$(zrun sysbench off) sz=$(zrun sysbench on)
echo "oltp: compression: server bytes sent, oltp_read_only 300 events: bench $bz/$bo, sysbench $sz/$so" |
    awk '{print} {split($(NF-2), b, "/"); split($NF, s, "/"); printf "oltp: compression: bench %.4f, sysbench %.4f of uncompressed\n", b[1]/b[2], s[1]/s[2]}'
awk -v bz="$bz" -v bo="$bo" -v sz="$sz" -v so="$so" 'BEGIN { exit !(bz / bo < 0.6 && bz / bo <= sz / so + 0.002) }' &&
    ok || bad "compression: bench $bz/$bo, sysbench $sz/$so (bench must shrink at least as much)"
(cd "$w" && ./sysbench oltp_read_only $Z cleanup >/dev/null 2>&1)
for zc in on off; do
    $B oltp_read_write $Z --no-defaults --rand-seed=3 prepare >/dev/null 2>&1 || bad "seeded prepare"
    $B oltp_read_write $Z --no-defaults --mysql-ssl=off --threads=1 --rand-seed=5 --events=100 --time=0 --mysql-compression=$zc run >"$w/zrw.$zc" 2>&1 || bad "oltp_read_write --mysql-compression=$zc"
    $ROOT sbt -N -e "CHECKSUM TABLE sbtest1, sbtest2" >"$w/zsum.$zc"
    $B oltp_read_write $Z --no-defaults cleanup >/dev/null 2>&1
done
cmp -s "$w/zsum.on" "$w/zsum.off" && grep -q "write: *400$" "$w/zrw.on" && ok ||
    { bad "a seeded oltp_read_write with compression left other tables"; cat "$w/zsum.on" "$w/zsum.off"; }

# 8. issue 17: what bench sends equals what sysbench 1.0.20 sends
RS="$ROOT --skip-ssl" # status probes that are no TLS handshake themselves
counters() { # counters NAMES...: "name=value ..." once the runs' sessions are gone (their
    # last COM_STMT_CLOSE and COM_QUIT get no answer: the server may count them after bench
    # exits) and two reads 0.1 s apart agree
    for i in $(seq 101); do
        [ "$($RS -N -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'nat'")" = 0 ] && break
        # (in $(...): the failure is counted at the end, from the file)
        [ $i = 101 ] && echo "$($RS -N -e "SELECT ID, COMMAND, INFO FROM information_schema.PROCESSLIST WHERE USER = 'nat'" | head -3 | tr '\n' ';')" >>"$w/leaks"
        sleep 0.1
    done
    q="SHOW GLOBAL STATUS WHERE Variable_name IN ('$(echo "$*" | sed "s/ /','/g")')"
    prev=$($RS -N -e "$q" | awk '{printf "%s=%s ", $1, $2}')
    for _ in $(seq 30); do
        sleep 0.1; cur=$($RS -N -e "$q" | awk '{printf "%s=%s ", $1, $2}')
        [ "$cur" = "$prev" ] && break; prev=$cur
    done
    echo "$cur"
}
deltas() { # deltas BEFORE AFTER: "name=after-before ..."
    for kv in $2; do k=${kv%%=*}; b=$(echo "$1" | tr ' ' '\n' | sed -n "s/^$k=//p"); printf '%s=%s ' "$k" $((${kv#*=} - b)); done
}
# 8.1 TLS: the sysbench workloads use sysbench's default, no TLS unless asked (Ssl_accepts
#     delta 0, "using TCP/IP" in the general log); ping and the one-liner keep PREFERRED
(cd "$w" && sysbench oltp_read_write $C --tables=2 --table-size=200 prepare >/dev/null 2>&1)
tls_delta() { # tls_delta CMD...: the server's Ssl_accepts over the command
    b=$(counters Ssl_accepts); "$@" >"$w/tls.out" 2>&1; a=$(counters Ssl_accepts); echo $((${a#*=} - ${b#*=}))
}
PS="oltp_point_select $C --tables=2 --threads=2 --events=20 --time=0 run"
rm -f "$w/general.log"
$ROOT -e "SET GLOBAL log_output='FILE'; SET GLOBAL general_log_file='$w/general.log'; SET GLOBAL general_log=ON"
n=$(tls_delta $B $PS --no-defaults); grep -q "^Server: 127.0.0.1:$BENCH_MY_PORT (.*), TCP, no TLS$" "$w/tls.out" && [ "$n" = 0 ] && ok || { bad "bench $PS: $n TLS handshakes, wanted 0"; cat "$w/tls.out"; }
n=$(cd "$w" && tls_delta ./sysbench $PS); [ "$n" = 0 ] && ok || bad "the sysbench persona: $n TLS handshakes, wanted 0"
n=$(cd "$w" && tls_delta sysbench $PS); [ "$n" = 0 ] && ok || bad "Debian's sysbench: $n TLS handshakes, wanted 0"
$ROOT -e "SET GLOBAL general_log=OFF"
tcp=$(grep -c "Connect.nat@localhost on sbt using TCP/IP" "$w/general.log") ssl=$(grep -c "Connect.nat@.* using SSL/TLS" "$w/general.log")
[ "$tcp" = 7 ] && [ "$ssl" = 0 ] && ok || { bad "general log: $tcp TCP/IP and $ssl SSL/TLS connections, wanted 7 (bench 1 + 2, the persona 2, sysbench 2) and 0"; grep Connect "$w/general.log"; }
n=$(tls_delta $B $PS --no-defaults --mysql-ssl=on); grep -q "^Server: 127.0.0.1:$BENCH_MY_PORT (.*), TLSv1\.[23] TLS-" "$w/tls.out" && [ "$n" = 3 ] && ok || { bad "bench --mysql-ssl=on: $n TLS handshakes, wanted 3"; cat "$w/tls.out"; }
n=$(tls_delta $B $PS --no-defaults --ssl-mode=REQUIRED); [ "$n" = 3 ] && ok || bad "bench --ssl-mode=REQUIRED: $n TLS handshakes, wanted 3"
n=$(cd "$w" && tls_delta ./sysbench $PS --mysql-ssl=on); [ "$n" = 2 ] && ok || bad "the sysbench persona --mysql-ssl=on: $n TLS handshakes, wanted 2"
n=$(tls_delta $B ping --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --count=1); [ "$n" = 1 ] && grep -q "TLS: *TLSv1" "$w/tls.out" && ok || bad "ping: $n TLS handshakes, wanted 1 (PREFERRED)"
n=$(tls_delta $B ping --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --count=1 --mysql-ssl=off); [ "$n" = 0 ] && ok || bad "ping --mysql-ssl=off: $n TLS handshakes, wanted 0"
n=$(tls_delta $B oltp $L --step-time=1 --max-threads=1 --table-size=100); [ "$n" -gt 2 ] && grep -q "^OLTP sizing of .*, TLS): " "$w/tls.out" && ok || { bad "the one-liner: $n TLS handshakes, wanted PREFERRED"; cat "$w/tls.out"; }
$B oltp_point_select --no-defaults --mysql-socket="$BENCH_MY_SOCK" --mysql-user=root --mysql-db=sbt --tables=2 --events=5 --time=0 run >"$w/out" 2>&1 &&
    grep -q "^Server: $BENCH_MY_SOCK (.*), unix socket$" "$w/out" && ok || { bad "the header over a socket"; cat "$w/out"; }
$B oltp_point_select --no-defaults --mysql-socket="$BENCH_MY_SOCK" --mysql-user=root --mysql-db=sbt --tables=2 --events=5 --time=0 --mysql-ssl=on run >"$w/out" 2>&1 &&
    grep -q "^Server: $BENCH_MY_SOCK (.*), unix socket, TLSv1\.[23] TLS-" "$w/out" && ok || { bad "the header over a socket with TLS"; cat "$w/out"; }
# 8.2 statements: the server's counters for the same seeded command line equal sysbench's:
#     BEGIN and COMMIT prepared once per connection and executed, everything closed at the end
CNT="Com_stmt_prepare Com_stmt_execute Com_stmt_close Com_begin Com_commit"
#     (writers at one thread: a deadlock between threads restarts an event, a BEGIN more)
for wl in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_delete select_random_points; do
    T=3
    case $wl in oltp_read_write | oltp_write_only | oltp_delete) T=1 ;; esac
    A="$wl $C --tables=2 --threads=$T --events=60 --time=0 --rand-seed=7"
    for who in ref our bench; do
        b=$(counters $CNT)
        case $who in
        ref) (cd "$w" && sysbench $A run >"$w/$who.run" 2>&1) ;;
        our) (cd "$w" && ./sysbench $A run >"$w/$who.run" 2>&1) ;;
        bench) $B $A --no-defaults run >"$w/$who.run" 2>&1 ;;
        esac
        a=$(counters $CNT)
        deltas "$b" "$a" >"$w/$who.cnt"
    done
    if cmp -s "$w/ref.cnt" "$w/our.cnt" && cmp -s "$w/ref.cnt" "$w/bench.cnt" && grep -q "Com_stmt_close=[1-9]" "$w/ref.cnt"; then ok; else
        bad "$wl: server counters differ: sysbench $(cat "$w/ref.cnt"), persona $(cat "$w/our.cnt"), bench $(cat "$w/bench.cnt")"; fi
done
(cd "$w" && sysbench oltp_read_write $C --tables=2 cleanup >/dev/null 2>&1)

# 9. event loops (--event-loops): many connections per loop thread, sysbench's counts kept
$B oltp_read_only $C --no-defaults --tables=1 --table-size=1000 prepare >/dev/null 2>&1
EV="$C --no-defaults --tables=1 --table-size=1000"
#    the same seeded run on threads and on loops: the server's counters agree exactly
for L in 0 2; do
    b=$(counters $CNT Com_select)
    $B oltp_read_only $EV --threads=8 --event-loops=$L --events=200 --time=0 --rand-seed=11 run >"$w/loop$L.run" 2>&1
    a=$(counters $CNT Com_select)
    deltas "$b" "$a" >"$w/loop$L.cnt"
done
if cmp -s "$w/loop0.cnt" "$w/loop2.cnt" && grep -q "Com_stmt_execute=3200" "$w/loop2.cnt"; then ok; else
    bad "event loops: server counters $(cat "$w/loop2.cnt"), threads $(cat "$w/loop0.cnt")"; fi
for k in read other transactions; do
    r=$(grep -E "^ *$k:" "$w/loop0.run" | awk '{print $2}') o=$(grep -E "^ *$k:" "$w/loop2.run" | awk '{print $2}')
    [ -n "$r" ] && [ "$r" = "$o" ] && ok || bad "event loops: $k: threads $r, loops $o"
done
grep -q "^Client I/O: io_uring, 8 connections on 2 event loops$" "$w/loop2.run" && ! grep -q "^Client I/O" "$w/loop0.run" && ok || { bad "event loops: the header"; head -20 "$w/loop2.run"; }
#    the ring's system calls: loops (8 connections on 1) whose sends and receives go
#    through io_uring, one io_uring_enter per turn of the loop: the system calls say so
#    (strace -c), against epoll's send and recv per statement. At most one enter per event
#    (2000): a loop that entered per operation (a submit, a wait) would make two per event,
#    as many as epoll's calls (measured: 503-608 on the 2-core VM)
L=1 loops="event loop"
calls() { awk -v c="$2" '$NF == c { print $4 }' "$1" | grep . || echo 0; }
sockio() { # sockio STRACE: the socket reads and writes of every kind
    n=0; for c in read write readv writev sendto recvfrom sendmsg recvmsg; do n=$((n + $(calls "$1" $c))); done; echo $n
}
#    (where strace may not trace, io_uring is refused or the kernel predates multishot
#    receives (Linux 6.0: the ring only polls), it says why and skips; a failure under CI)
why=""
strace -f -o /dev/null true 2>/dev/null || why="strace cannot trace here"
$B oltp_point_select $EV --threads=1 --event-loops=1 --events=1 --time=0 run >"$w/ur1.run" 2>&1 || why="a one-event run failed: $(head -1 "$w/ur1.run")"
grep -q "^Client I/O: io_uring, 1 connection on 1 event loop$" "$w/ur1.run" || why="the loop's client I/O here: $(grep '^Client I/O' "$w/ur1.run")"
if [ -n "$why" ] && [ "${CI:-}" != true ]; then
    echo "oltp: skip: the loop's system calls: $why"
elif [ -n "$why" ]; then
    bad "the loop's system calls: $why"
else
    strace -f -c -o "$w/ur.strace" $B oltp_point_select $EV --threads=8 --event-loops=1 --events=2000 --time=0 run >"$w/def.run" 2>&1
    strace -f -c -o "$w/ep.strace" $B oltp_point_select $EV --threads=8 --event-loops=1 --events=2000 --time=0 --event-backend=epoll run >"$w/ep.run" 2>&1
    us=$(sockio "$w/ur.strace") ue=$(calls "$w/ur.strace" io_uring_enter) es=$(sockio "$w/ep.strace")
    echo "oltp: 2000 point selects, 8 connections: io_uring: socket reads and writes $us, io_uring_enter $ue; epoll: socket reads and writes $es"
    grep -q "^Client I/O: io_uring, 8 connections on $L $loops$" "$w/def.run" && grep -q "transactions: *2000 " "$w/def.run" &&
        grep -q "^Client I/O: epoll, 8 connections on $L $loops$" "$w/ep.run" && grep -q "transactions: *2000 " "$w/ep.run" &&
        [ "$us" -le 200 ] && [ "$ue" -ge 1 ] && [ "$ue" -le 2000 ] && [ "$es" -ge 4000 ] &&
        ok || { bad "a loop on io_uring, its system calls (wanted socket reads and writes <= 200, io_uring_enter 1..2000; epoll >= 4000)"; head -12 "$w/def.run"; }
fi
#    fairness: every client's own count (JSON per_thread.events), not the average (fixed by
#    construction): each of the 8 did a share of the 800 (mean 100), none starved or ran most
jget() { # jget FILE EXPR: EXPR (python, on d = the result document) of the JSON lines in FILE
    python3 -c 'import json,sys
d=[json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
d=[x for x in d if x.get("type")=="result"][0]
print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}
$B oltp_read_only $EV --threads=8 --event-loops=2 --events=800 --time=0 --rand-seed=11 --format=json run >"$w/fair.json" 2>&1
pe=$(jget "$w/fair.json" 'd["results"]["per_thread"]["events"]')
[ "$(jget "$w/fair.json" 'len(d["results"]["per_thread"]["events"])')" = 8 ] &&
    [ "$(jget "$w/fair.json" 'sum(d["results"]["per_thread"]["events"])')" = 800 ] &&
    [ "$(jget "$w/fair.json" 'all(10 <= n <= 400 for n in d["results"]["per_thread"]["events"])')" = True ] &&
    ok || bad "event loops: fairness: per-client events ${pe:-?}, wanted 8 counts of 10..400 summing to 800"
#    --event-loops=auto (the bench persona's default) decides from the host: on one usable
#    CPU (taskset) 4 connections get a thread each, 5 go on one loop (4 per CPU: tests/
#    t_load.c's load_mode_pick has the boundaries); the header, the JSON facts and the
#    process's threads while the run holds its connections (/proc/PID/task: the main thread
#    and the workers) all say the same. Base 0dfa568: 4 connections on 1 loop, 2 tasks, no
#    "Client mode:" line, no client_mode fact
if command -v taskset >/dev/null; then
    for n in 4 5; do
        taskset -c 0 $B oltp_point_select $EV --threads=$n --time=2 run >"$w/auto$n.run" 2>&1 &
        bp=$! t_end=$(($(date +%s) + 30))
        until grep -q "^Threads started" "$w/auto$n.run" || ! kill -0 $bp 2>/dev/null || [ "$(date +%s)" -ge $t_end ]; do sleep 0.05; done
        tasks=$(ls /proc/$bp/task 2>/dev/null | wc -l)
        wait $bp; rc=$?
        taskset -c 0 $B oltp_point_select $EV --threads=$n --events=50 --time=0 --format=json run >"$w/auto$n.json" 2>&1
        f=$(jget "$w/auto$n.json" '"%s %s %s %s" % (d["facts"].get("client_mode"), d["facts"].get("client_mode_why"), d["facts"].get("event_loops", 0), d["facts"].get("probe_cpus"))')
        if [ $n = 4 ]; then
            want="threads few_connections 0 1" wtasks=5
            grep -q "^Client mode: a thread per connection (auto: 4 connections <= 4, 4 per CPU x 1 CPU; probe: system call [0-9.]* us, send+recv [0-9.]* us, on a ring [0-9.]* us)$" "$w/auto$n.run" &&
                ! grep -q "^Client I/O" "$w/auto$n.run"; hdr=$?
        else
            want="event_loops many_connections 1 1" wtasks=2
            grep -q "^Client mode: event loops (auto: 5 connections > 4, 4 per CPU x 1 CPU; .*; probe: system call [0-9.]* us, send+recv [0-9.]* us, on a ring [0-9.]* us)$" "$w/auto$n.run" &&
                grep -q "^Client I/O: [a-z_]*, 5 connections on 1 event loop$" "$w/auto$n.run"; hdr=$?
        fi
        [ $rc = 0 ] && [ $hdr = 0 ] && [ "$tasks" = $wtasks ] && [ "$f" = "$want" ] && ok ||
            { bad "--event-loops=auto, $n connections on 1 CPU: exit $rc, $tasks tasks (wanted $wtasks), facts '$f' (wanted '$want'), the header:"; grep "^Client" "$w/auto$n.run"; }
    done
else
    bad "--event-loops=auto: taskset (util-linux) is missing"
fi
#    --event-backend=io_uring (a multishot poll per socket): the same seeded run, the same
#    counters; the header and the JSON fact say io_uring. Where the kernel refuses io_uring
#    (a seccomp profile, kernel.io_uring_disabled) it says why and skips (a failure under CI)
$B oltp_point_select $EV --threads=1 --event-loops=1 --events=1 --time=0 --event-backend=io_uring run >"$w/uq.out" 2>&1; rc=$?
if [ $rc = 3 ] && grep -q "io_uring_setup" "$w/uq.out" && [ "${CI:-}" != true ]; then
    echo "oltp: skip: --event-backend=io_uring: $(head -1 "$w/uq.out")"
else
    b=$(counters $CNT Com_select)
    $B oltp_read_only $EV --threads=8 --event-loops=2 --events=200 --time=0 --rand-seed=11 --event-backend=io_uring run >"$w/loopu.run" 2>&1
    a=$(counters $CNT Com_select)
    deltas "$b" "$a" >"$w/loopu.cnt"
    if cmp -s "$w/loop0.cnt" "$w/loopu.cnt" && grep -q "^Client I/O: io_uring, 8 connections on 2 event loops$" "$w/loopu.run"; then ok; else
        bad "event loops on io_uring: server counters $(cat "$w/loopu.cnt"), threads $(cat "$w/loop0.cnt")"; head -20 "$w/loopu.run"; fi
    for k in read other transactions; do
        r=$(grep -E "^ *$k:" "$w/loop0.run" | awk '{print $2}') o=$(grep -E "^ *$k:" "$w/loopu.run" | awk '{print $2}')
        [ -n "$r" ] && [ "$r" = "$o" ] && ok || bad "event loops on io_uring: $k: threads $r, loops $o"
    done
    #    (--events is one shared count: 30 per client, so that a loop thread scheduled late
    #    on a loaded host still finds events left for its clients)
    $B oltp_point_select $EV --threads=150 --event-loops=2 --events=4500 --time=0 --event-backend=auto --format=json run >"$w/u.json" 2>&1
    grep -q '"client_io":"io_uring"' "$w/u.json" && grep -q '"event_loops":2[,}]' "$w/u.json" &&
        [ "$(jget "$w/u.json" 'sum(d["results"]["per_thread"]["events"]) == 4500 and min(d["results"]["per_thread"]["events"]) >= 1')" = True ] &&
        ok || { bad "event loops on io_uring (auto): 150 clients (the suite server allows 200), 4500 events, the client_io fact"; tail -c 400 "$w/u.json"; }
fi
#    io_uring refused (tests/noiouring: a container's seccomp profile): auto falls back to
#    epoll and the header says so, counts exact; io_uring asked for: exit 3, the cause named
[ -x "$top/tests/noiouring" ] || (cd "$top" && make -s tests/noiouring >/dev/null 2>&1)
if [ -x "$top/tests/noiouring" ]; then
    "$top/tests/noiouring" $B oltp_point_select $EV --threads=8 --event-loops=2 --events=100 --time=0 --event-backend=auto run >"$w/nu.run" 2>&1; rc=$?
    [ $rc = 0 ] && grep -q "^Client I/O: epoll, 8 connections on 2 event loops$" "$w/nu.run" && grep -q "transactions: *100 " "$w/nu.run" &&
        ok || { bad "event loops without io_uring (auto): exit $rc"; head -20 "$w/nu.run"; }
    #    --event-loops=auto without a ring: the probe finds none (0), the loops use epoll
    "$top/tests/noiouring" taskset -c 0 $B oltp_point_select $EV --threads=5 --events=100 --time=0 run >"$w/nua.run" 2>&1; rc=$?
    [ $rc = 0 ] && grep -q "^Client I/O: epoll, 5 connections on 1 event loop$" "$w/nua.run" &&
        grep -q "^Client mode: event loops (auto: 5 connections > 4, 4 per CPU x 1 CPU; epoll: no io_uring here; probe: system call [0-9.]* us, send+recv [0-9.]* us, no ring granted)$" "$w/nua.run" &&
        ok || { bad "--event-loops=auto without io_uring: exit $rc"; head -20 "$w/nua.run"; }
    "$top/tests/noiouring" $B oltp_point_select $EV --threads=8 --event-loops=2 --events=100 --time=0 --event-backend=io_uring run >"$w/nu.run" 2>&1; rc=$?
    [ $rc = 3 ] && grep -qxF "bench: oltp_point_select: event loops: --event-backend=io_uring: io_uring_setup(2) failed: Operation not permitted (EPERM); refused by a seccomp profile (containers) or by kernel.io_uring_disabled" "$w/nu.run" &&
        grep -qxF "bench: hint: use --event-backend=epoll (or auto: io_uring where granted, else epoll)" "$w/nu.run" &&
        ok || { bad "event loops: --event-backend=io_uring refused: exit $rc"; cat "$w/nu.run"; }
else
    bad "event loops without io_uring: tests/noiouring could not be built"
fi
#    the interval lines count the clients (sysbench's thds), not the loop threads
#    (the text and the JSON run at the same time: 16 connections, 2 s)
$B oltp_point_select $EV --threads=8 --event-loops=2 --time=2 --report-interval=1 run >"$w/iv.run" 2>&1 &
bp=$!
$B oltp_point_select $EV --threads=8 --event-loops=2 --time=2 --report-interval=1 --format=json run >"$w/iv.json" 2>&1
wait $bp
grep -q '^\[ 1s \] thds: 8 ' "$w/iv.run" && ok || bad "event loops: interval line $(grep '^\[ 1s' "$w/iv.run"), wanted thds: 8"
grep -q '"type":"interval","at_s":1,.*"threads_running":8[,}]' "$w/iv.json" && ok || bad "event loops: JSON threads_running of the 1 s interval: $(grep -o '"threads_running":[0-9]*' "$w/iv.json" | head -1)"
#    a test without event loops refuses --event-loops (usage error naming both)
for t in cpu fileio; do
    $B $t --event-loops=2 run >"$w/noloop.out" 2>&1; rc=$?
    [ $rc = 2 ] && grep -qxF "bench: $t: --event-loops does not apply: the test has no event loop (only the OLTP tests, tpcc and slap run their connections on event loops)" "$w/noloop.out" &&
        ok || { bad "--event-loops on $t: exit $rc"; cat "$w/noloop.out"; }
done
#    one connection on one loop: the header in the singular
$B oltp_point_select $EV --threads=1 --event-loops=1 --events=10 --time=0 run >"$w/one.run" 2>&1
grep -q "^Client I/O: io_uring, 1 connection on 1 event loop$" "$w/one.run" && ok || bad "event loops: singular header: $(grep '^Client I/O' "$w/one.run")"
#    SIGINT at 100 connections: the statements in flight end and are counted, as in thread
#    mode: rows inserted == events counted (issue 28: 98-100 rows more than events, they
#    were abandoned uncounted). Stopped once 500 rows are in, by the test.
$ROOT -e "DROP DATABASE IF EXISTS sbi; CREATE DATABASE sbi"
CI=$(echo "$C" | sed 's/--mysql-db=sbt/--mysql-db=sbi/')" --no-defaults --tables=2"
$B oltp_insert $CI --table-size=0 prepare >/dev/null 2>&1 || bad "event loops: oltp_insert prepare (setup)"
rows() { $ROOT -N -e "SELECT (SELECT COUNT(*) FROM sbi.sbtest1) + (SELECT COUNT(*) FROM sbi.sbtest2)"; }
$B oltp_insert $CI --threads=100 --event-loops=2 --time=0 run >"$w/ins.out" 2>&1 &
bp=$!
t_end=$(($(date +%s) + 60))
until [ "$(rows)" -ge 500 ] || ! kill -0 $bp 2>/dev/null || [ "$(date +%s)" -ge $t_end ]; do sleep 0.05; done
kill -INT $bp
wait $bp; rc=$?
ev=$(sed -n 's/^ *transactions: *\([0-9]*\) .*/\1/p' "$w/ins.out") n=$(rows)
# (a statement still unanswered 0.5 s after the signal, on a loaded host, is said unfinished)
u=$(sed -n 's/^Number of unfinished transactions on the stop signal: \([0-9]*\)$/\1/p' "$w/ins.out")
[ $rc = 1 ] && [ "${ev:-0}" -ge 500 ] && [ "$n" -ge "$ev" ] && [ "$n" -le $((ev + ${u:-0})) ] && ok ||
    { bad "event loops: SIGINT at 100 connections: exit $rc, $n rows inserted, ${ev:-?} events counted, ${u:-0} unfinished (want rows - events <= unfinished)"; tail -5 "$w/ins.out"; }
$ROOT -e "DROP DATABASE sbi"
#    with TLS: every connection its own session over one configuration
$B oltp_point_select $EV --ssl-mode=VERIFY_CA --ssl-ca="$BENCH_MY_CA" --threads=16 --event-loops=2 --events=500 --time=0 run >"$w/out" 2>&1 &&
    grep -q "transactions: *500 " "$w/out" && grep -q "^Server: .*TLSv1\.[23]" "$w/out" && ok || { bad "event loops with TLS"; tail -5 "$w/out"; }
#    a connection killed mid-run: 2013 ignored, it reconnects, the run goes on
#    (the run still ends on time: the new socket is watched, not only the 1 s stall check)
#    (the reconnect does not block the loop: the other 3 clients keep counting; the last
#    interval, after the kill, has events)
$B oltp_read_only $EV --threads=4 --event-loops=1 --time=6 --report-interval=1 --mysql-ignore-errors=2013 run >"$w/kill.out" 2>&1 &
bp=$!
i=0; until grep -q '^Threads started' "$w/kill.out" || [ $i -gt 300 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
id=$($ROOT -N -e "SELECT id FROM information_schema.processlist WHERE user='nat' AND db='sbt' ORDER BY id DESC LIMIT 1")
[ -n "$id" ] && $ROOT -e "KILL $id"
wait $bp; rc=$?
rec=$(grep -E "^ *reconnects:" "$w/kill.out" | awk '{print $2}') tr=$(grep -E "^ *transactions:" "$w/kill.out" | awk '{print $2}')
tt=$(grep -E "^ *total time:" "$w/kill.out" | awk '{print int($3)}')
last=$(grep '^\[ ' "$w/kill.out" | tail -1 | sed -n 's/.* tps: \([0-9.]*\) .*/\1/p')
[ $rc = 0 ] && [ -n "$id" ] && [ "${rec:-0}" -ge 1 ] && [ "${tr:-0}" -gt 10 ] && [ "${tt:-99}" -le 8 ] &&
    awk -v t="${last:-0}" 'BEGIN { exit !(t > 0) }' && ok || { bad "event loops: a killed connection (id ${id:-none}): exit $rc, reconnects ${rec:-?}, transactions ${tr:-?}, total time ${tt:-?} s, last interval's tps ${last:-?}"; tail -5 "$w/kill.out"; }
#    --rate with a stalled server (the table locked for 2 s): the latency shows the stall
#    latency counts from the intended start: the arrivals queued during the stall (~50 in
#    its first second) wait >= 1 s, far more than the 4 clients in flight when it began (a
#    program timing from the actual start would show at most those 4)
$B oltp_point_select $EV --threads=4 --event-loops=1 --rate=50 --time=5 --report-interval=1 --format=json run >"$w/rate.out" 2>&1 &
bp=$!
i=0; until grep -q '"type":"interval"' "$w/rate.out" || [ $i -gt 300 ]; do sleep 0.1; i=$((i + 1)); done
$ROOT sbt -e "LOCK TABLES sbtest1 WRITE; SELECT SLEEP(2); UNLOCK TABLES" >/dev/null
wait $bp; rc=$?
# buckets of the log-linear histogram (sub_bits 8): the lower bound of bucket i, in ns
slow=$(jget "$w/rate.out" 'sum(c for i, c in d["results"]["latency_ns"]["histogram"]["buckets"] if (i if i < 256 else (128 + (i - 256) % 128) << (1 + (i - 256) // 128)) >= 10**9)')
[ $rc = 0 ] && [ "${slow:-0}" -gt 8 ] && ok || { bad "event loops: --rate across a 2 s stall: exit $rc, ${slow:-?} events >= 1 s, wanted > 8 (threads*2)"; tail -c 600 "$w/rate.out"; }
#    1000 connections, a short run: it ends, exit 0, with its 20000 transactions (OLTP events
#    are transactions), and every one of the 1000 clients did events (its own count, JSON
#    per_thread.events). --events is one shared count: 20 per client, so that a loop thread
#    scheduled late still finds events left (the other loop does ~20000/s here)
mc=$($ROOT -N -e 'SELECT @@max_connections')
$ROOT -e "SET GLOBAL max_connections=1200"
$B oltp_point_select $EV --threads=1000 --event-loops=2 --events=20000 --time=0 --format=json run >"$w/k.json" 2>&1 &&
    [ "$(jget "$w/k.json" 'd["results"]["events"]')" = 20000 ] && ok || { bad "event loops: 1000 connections"; tail -c 600 "$w/k.json"; }
[ "$(jget "$w/k.json" 'len(d["results"]["per_thread"]["events"])')" = 1000 ] &&
    [ "$(jget "$w/k.json" 'min(d["results"]["per_thread"]["events"]) >= 1 and sum(d["results"]["per_thread"]["events"]) == 20000')" = True ] &&
    ok || bad "event loops: 1000 clients: per-client events min $(jget "$w/k.json" 'min(d["results"]["per_thread"]["events"])') max $(jget "$w/k.json" 'max(d["results"]["per_thread"]["events"])')"
#    Ctrl-C while the 1000 log in: thread mode's line and exit code (1: an interrupted run, issue 28), at once. The logins go to
#    a listener that accepts and never greets, so the signal lands in the connect phase however
#    fast the host is (against the real server 1000 logins can be done within the first second)
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4096)
open(sys.argv[1], "w").write(str(s.getsockname()[1])); s.settimeout(0.5); cs = []; t = time.time()
while time.time() - t < 60:
    try: cs.append(s.accept()[0])
    except OSError: pass
' "$w/lp" &
lpid=$!
i=0; until [ -s "$w/lp" ] || [ $i -ge 100 ]; do sleep 0.2; i=$((i + 1)); done # python may take seconds to start on a loaded host
LP=$(cat "$w/lp")
for L in 0 2; do
    $B oltp_point_select --mysql-host=127.0.0.1 --mysql-port="$LP" --mysql-user=u --mysql-password=x --no-defaults --threads=1000 --event-loops=$L --time=5 run >"$w/int$L.out" 2>&1 &
    bp=$!
    sleep 1
    kill -INT $bp; t0=$(date +%s%N)
    wait $bp; echo $? >"$w/int$L.rc"; echo $((($(date +%s%N) - t0) / 1000000)) >"$w/int$L.ms"
done
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null
line="bench: oltp_point_select: interrupted by SIGINT while waiting to connect to 127.0.0.1:$LP"
[ "$(cat "$w/int2.rc")" = 1 ] && [ "$(cat "$w/int0.rc")" = 1 ] && grep -qxF "$line" "$w/int2.out" && grep -qxF "$line" "$w/int0.out" &&
    ! grep -q 'Threads started' "$w/int2.out" && [ "$(cat "$w/int2.ms")" -lt 3000 ] && ok ||
    { bad "event loops: Ctrl-C while connecting: exit $(cat "$w/int2.rc") in $(cat "$w/int2.ms") ms (threads: exit $(cat "$w/int0.rc"))"; tail -4 "$w/int2.out"; }
$ROOT -e "SET GLOBAL max_connections=$mc"
#   a host with two addresses whose first refuses (127.0.0.2: the server listens on
#   127.0.0.1): the login's second socket may get the first one's fd number back, and the loop
#   must watch it (it was stepped once a second: 16 transactions in 2 s, exit 0). The names
#   come from a private /etc/hosts (a mount namespace of this test only). Both backends and
#   thread mode each do more than 100 transactions (hundreds a second here; the bug: 16 in
#   2 s): a bound of each run's own, since a burst of other load can slow any one run
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
    printf '127.0.0.2 benchmulti\n127.0.0.1 benchmulti\n' >"$w/hosts"
    for m in "0 epoll" "2 epoll" "2 auto"; do
        set -- $m
        unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' sh "$w/hosts" \
            $B oltp_read_only --mysql-host=benchmulti --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=secret --mysql-db=sbt --no-defaults --tables=1 --threads=8 --event-loops=$1 --event-backend=$2 --time=2 --format=json run >"$w/multi$1$2.json" 2>"$w/multi.err"
        echo "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"]["events"])' "$w/multi$1$2.json" 2>/dev/null || echo 0)" >"$w/multi$1$2.n"
    done
    n0=$(cat "$w/multi0epoll.n") n2=$(cat "$w/multi2epoll.n") n2a=$(cat "$w/multi2auto.n")
    [ "$n0" -gt 100 ] && [ "$n2" -gt 100 ] && [ "$n2a" -gt 100 ] && ok ||
        { bad "event loops: a host whose first address refuses: $n2 (epoll) and $n2a (auto) transactions on loops, $n0 in thread mode"; cat "$w/multi.err"; }
else
    bad "event loops: unshare -m is not available: the two-address host check did not run"
fi
#   --event-loops and --event-backend: malformed or inapplicable values are usage errors
for v in "" " 2" "+3" "-1" "2x" "4097"; do
    $B oltp_read_only $C --no-defaults --tables=1 --event-loops="$v" --time=1 run >"$w/out" 2>&1; rc=$?
    [ $rc = 2 ] && grep -qxF "bench: --event-loops: invalid value '$v' (expected auto or a number of loops, 0 to 4096)" "$w/out" && ok || { bad "--event-loops='$v': exit $rc"; cat "$w/out"; }
done
$B cpu --event-backend=io_uring --time=1 run >"$w/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -qxF "bench: cpu: --event-backend=io_uring does not apply: no event loop runs (--event-loops=0: a thread per connection)" "$w/out" && ok || { bad "cpu --event-backend=io_uring: exit $rc"; cat "$w/out"; }
$B oltp_read_only $C --no-defaults --tables=1 --event-loops=0 --event-backend=auto --time=1 run >"$w/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -qxF "bench: oltp_read_only: --event-backend=auto does not apply: no event loop runs (--event-loops=0: a thread per connection)" "$w/out" && ok || { bad "oltp --event-backend=auto without loops: exit $rc"; cat "$w/out"; }
#   slap's loops on io_uring: the statements' bytes on the ring (strace: a few sends and
#   receives for the logins, not one each per query), the same queries as on epoll; without
#   loops the option is refused; where io_uring is refused, exit 3 naming the cause
$ROOT -e "CREATE DATABASE IF NOT EXISTS mysqlslap"
for be in io_uring epoll; do
    strace -f -c -o "$w/slap_$be.strace" $B slap --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --skip-ssl -q "SELECT 1" -c 8 --number-of-queries=1600 --event-loops=2 --event-backend=$be >"$w/slap_$be.out" 2>&1 || echo "exit $?" >>"$w/slap_$be.out"
done
us=$(sockio "$w/slap_io_uring.strace") ue=$(calls "$w/slap_io_uring.strace" io_uring_enter) es=$(sockio "$w/slap_epoll.strace")
echo "oltp: slap, 1600 queries, 8 clients on 2 loops: io_uring: socket reads and writes $us, io_uring_enter $ue; epoll: socket reads and writes $es"
if [ -n "$why" ] && [ "${CI:-}" != true ]; then
    echo "oltp: skip: slap's system calls: $why"
else
    grep -q "Average number of queries per client: 200" "$w/slap_io_uring.out" && grep -q "Average number of queries per client: 200" "$w/slap_epoll.out" &&
        [ "$us" -le 200 ] && [ "$ue" -ge 1 ] && [ "$es" -ge 3200 ] &&
        ok || { bad "slap --event-backend=io_uring: socket reads and writes $us (wanted <= 200), epoll $es (>= 3200)"; cat "$w/slap_io_uring.out"; }
fi
$B slap --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret -q "SELECT 1" --event-loops=0 --event-backend=io_uring >"$w/out" 2>&1; rc=$?
[ $rc = 2 ] && grep -qxF "bench: slap: --event-backend=io_uring does not apply: no event loop runs (--event-loops=0: a thread per connection)" "$w/out" && ok || { bad "slap --event-backend=io_uring without loops: exit $rc"; cat "$w/out"; }
#   the JSON fact client_io says which I/O the loops used, and is absent without loops
jfacts() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["facts"]; e=d.get("error") or {}; print(d["exit_code"], f.get("client_io", "-"), e.get("code", "-"), e.get("errno_name", "-"))' "$1" 2>/dev/null || echo "no JSON"; }
slapj() { "$@" slap --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --skip-ssl -q "SELECT 1" --create-schema=mysql -c 4 --format=json; }
# auto's pick here, as the OLTP header above said it (io_uring, or "(polls only)" below 6.0)
ring_io=$(sed -n 's/^Client I\/O: \(.*\), 1 connection on 1 event loop$/\1/p' "$w/ur1.run")
#   (bench slap defaults to --event-loops=auto; as mariadb-slap bench keeps a thread per client)
ln -sf "$B" "$w/mariadb-slap"
for v in "--event-loops=2|0 $ring_io - -" "--event-loops=2 --event-backend=epoll|0 epoll - -" "--event-loops=0|0 - - -" "|0 $ring_io - -"; do
    slapj $B ${v%%|*} >"$w/sj.json" 2>"$w/sj.err"; f=$(jfacts "$w/sj.json")
    [ "$f" = "${v#*|}" ] && ok || { bad "slap ${v%%|*} --format=json: exit, client_io, error: '$f', wanted '${v#*|}'"; cat "$w/sj.err"; }
done
"$w/mariadb-slap" --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --skip-ssl -q "SELECT 1" --create-schema=mysql -c 4 --format=json >"$w/sj.json" 2>"$w/sj.err"; f=$(jfacts "$w/sj.json")
[ "$f" = "0 - - -" ] && ok || { bad "mariadb-slap persona: a thread per client, wanted no client_io: '$f'"; cat "$w/sj.err"; }
#   a ring without its sends and receives (a kernel that says it is older than 6.0: setarch
#   --uname-2.6) polls only: slap (its default loops) and the OLTP tests on a loop run and
#   say so
if setarch x86_64 --uname-2.6 true 2>/dev/null; then
    slapj setarch x86_64 --uname-2.6 $B >"$w/sj.json" 2>"$w/sj.err"; f=$(jfacts "$w/sj.json")
    [ "$f" = "0 io_uring (polls only) - -" ] && ok || { bad "slap, a pre-6.0 kernel: '$f'"; cat "$w/sj.err"; }
    setarch x86_64 --uname-2.6 $B oltp_point_select $EV --threads=4 --event-loops=1 --events=200 --time=0 --format=json run >"$w/sj.json" 2>"$w/sj.err"; f=$(jfacts "$w/sj.json")
    [ "$f" = "0 io_uring (polls only) - -" ] && ok || { bad "oltp, a pre-6.0 kernel: '$f'"; cat "$w/sj.err"; }
else
    [ "${CI:-}" != true ] || bad "setarch --uname-2.6 does not run here"
    echo "oltp: skip: setarch --uname-2.6 does not run here (the polls-only ring untested)"
fi
if [ -x "$top/tests/noiouring" ]; then
    #   refused before anything reaches the server: no schema made (-a), the kernel's errno
    "$top/tests/noiouring" $B slap --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --skip-ssl -a --create-schema=slapref -c 4 --event-loops=2 --event-backend=io_uring >"$w/out" 2>&1; rc=$?
    n=$($ROOT -N -e "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'slapref'")
    [ $rc = 3 ] && [ "$n" = 0 ] && [ "$(wc -l <"$w/out")" = 2 ] && grep -qxF "bench: slap: event loops: --event-backend=io_uring: io_uring_setup(2) failed: Operation not permitted (EPERM); refused by a seccomp profile (containers) or by kernel.io_uring_disabled" "$w/out" &&
        ok || { bad "slap: --event-backend=io_uring refused: exit $rc, schema slapref made: $n"; cat "$w/out"; }
    "$top/tests/noiouring" $B slap --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --skip-ssl -a --create-schema=slapref -c 4 --event-loops=2 --event-backend=io_uring --format=json >"$w/sj.json" 2>"$w/sj.err"; f=$(jfacts "$w/sj.json")
    [ "$f" = "3 - B_UNSUPPORTED EPERM" ] && ok || { bad "slap: --event-backend=io_uring refused, JSON: '$f'"; cat "$w/sj.err"; }
    #   ... and before any login: against a port where nobody listens the refusal still
    #   comes first, not the connection's failure
    cp=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$top/tests/noiouring" $B slap --no-defaults -h 127.0.0.1 -P "$cp" -u nat -psecret --skip-ssl -a -c 4 --event-loops=2 --event-backend=io_uring >"$w/out" 2>&1; rc=$?
    [ $rc = 3 ] && grep -q "^bench: slap: event loops: --event-backend=io_uring: io_uring_setup(2) failed" "$w/out" && ! grep -q "Connection refused\|connect to" "$w/out" &&
        ok || { bad "slap: --event-backend=io_uring refused before the login: exit $rc"; cat "$w/out"; }
    "$top/tests/noiouring" $B slap --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret --skip-ssl -q "SELECT 1" -c 4 --event-loops=2 >"$w/out" 2>&1; rc=$?
    [ $rc = 0 ] && grep -q "Number of clients running queries: 4" "$w/out" && ok || { bad "slap without io_uring (auto: epoll): exit $rc"; cat "$w/out"; }
    slapj "$top/tests/noiouring" $B --event-loops=2 >"$w/sj.json" 2>"$w/sj.err"; f=$(jfacts "$w/sj.json")
    [ "$f" = "0 epoll - -" ] && ok || { bad "slap without io_uring, JSON: '$f'"; cat "$w/sj.err"; }
fi
$ROOT -e "DROP DATABASE IF EXISTS mysqlslap" # made above: slap -a without --create-schema refuses it
#   too few open files: the line says which limit (ulimit -n) in a hint
(ulimit -n 64; $B oltp_read_only $C --no-defaults --tables=1 --threads=100 --event-loops=2 --time=1 run >"$w/out" 2>&1); rc=$?
[ $rc = 3 ] && grep -q "(EMFILE)" "$w/out" && grep -q "^bench: hint: every connection is an open file: raise the limit (ulimit -n: 64) above the connections" "$w/out" && ok || { bad "ulimit -n 64, 100 connections: exit $rc"; cat "$w/out"; }
#   a login refused while the workers start: sysbench's four FATAL lines, Lua frame included
#   (one thread: sysbench prints the first three once per thread)
same "a refused login" oltp_point_select --mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=wrong --mysql-db=sbt --tables=1 --events=10 --time=0 run
grep -q "connection creation failed" "$w/our.out" && ok || { bad "a refused login: no thread_init line"; cat "$w/our.out"; }
#   ... and bench's: on which login, the server's words verbatim, a hint; exit 3
$B oltp_point_select --no-defaults --mysql-host=127.0.0.1 --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=wrong --mysql-db=sbt --tables=1 --events=10 --time=0 run >"$w/out" 2>"$w/err"; rc=$?
[ $rc = 3 ] && [ "$(cat "$w/err")" = "bench: oltp_point_select: login to 127.0.0.1:$BENCH_MY_PORT failed for user 'nat': ERROR 1045 (28000): Access denied for user 'nat'@'localhost' (using password: YES)
bench: hint: check --mysql-user/--mysql-password (-u/-p); MariaDB also answers 1045 when it requires TLS (try --ssl-mode=REQUIRED)" ] && ok || { bad "bench, a refused login: exit $rc"; cat "$w/err"; }
# 11. host localhost is the local server's unix socket, but a port given on the command line
#     (-P, --port, --mysql-port) and no socket means TCP: bench and its mariadb-slap persona as
#     Debian's mariadb and mariadb-slap (10.6+), checked side by side; the sysbench persona as
#     Debian's sysbench (its client library: the socket, whatever the port). Each command runs
#     in a mount namespace of its own where /run/mysqld/mysqld.sock is this suite's server
#     (a link), whatever this machine runs there; nothing listens on port 1.
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    #   (ns.sh refuses to mount anything unless it runs in a mount namespace of its own)
    printf '%s\n' '[ "$(readlink /proc/self/ns/mnt)" != "$2" ] || exit 98' \
        'mount --make-rprivate / && mount -t tmpfs tmpfs /run && mkdir /run/mysqld &&' \
        'ln -s "$1" /run/mysqld/mysqld.sock || exit 99' 'shift 2; exec "$@"' >"$w/ns.sh"
    mnt=$(readlink /proc/self/ns/mnt)
    ns() { unshare -m sh "$w/ns.sh" "$BENCH_MY_SOCK" "$mnt" "$@"; }
    sh "$w/ns.sh" /x "$mnt" true; [ $? = 98 ] && ok || bad "ns.sh mounted over /run outside a namespace of its own"
    ln -sf "$B" "$w/mariadb-slap"
    conn() { # conn ARGS...: exit status and where bench ping connected
        case "${1:-}" in --defaults-file=*) nd="" ;; *) nd=--no-defaults ;; esac
        ns $B ping $nd -u nat -psecret --count=1 "$@" >"$w/pr.out" 2>&1; r=$?
        echo "$r $(sed -n 's/^Connected to \([^ ]*\).*/\1/p; s/.*connecting to \([^ ]*\) failed.*(\(E[A-Z]*\)).*/\1 \2/p' "$w/pr.out" | head -1)"
    }
    printf '[client]\nport=1\n' >"$w/port1.cnf"
    printf '[client]\nport=1\nprotocol=TCP\n' >"$w/proto.cnf"
    S=/run/mysqld/mysqld.sock P=$BENCH_MY_PORT
    for v in "|0 $S" "-h localhost|0 $S" "-P $P|0 localhost:$P" "-h localhost -P $P|0 localhost:$P" \
        "--port=1|3 localhost:1 ECONNREFUSED" "--mysql-port=1|3 localhost:1 ECONNREFUSED" \
        "-P 1 -S $S|0 $S" "--protocol=SOCKET -P 1|0 $S" "--protocol=tcp -P $P -S /nonexistent|0 localhost:$P" \
        "--protocol=socket -h 127.0.0.1 -P 1|3 127.0.0.1:1 ECONNREFUSED" "-P 1 --mysql-socket=|3 localhost:1 ECONNREFUSED" \
        "-P 1 --socket=|3 localhost:1 ECONNREFUSED" "--defaults-file=$w/proto.cnf|3 localhost:1 ECONNREFUSED" \
        "--defaults-file=$w/proto.cnf -S $S|0 $S" "--defaults-file=$w/proto.cnf --protocol=socket|0 $S"; do
        [ "$(conn ${v%%|*})" = "${v#*|}" ] && ok || { bad "localhost: ping ${v%%|*}: '$(conn ${v%%|*})', wanted '${v#*|}'"; cat "$w/pr.out"; }
    done
    #   a port from an option file does not: the socket (as the mariadb client)
    ns $B ping --defaults-file="$w/port1.cnf" -u nat -psecret --count=1 >"$w/pr.out" 2>&1 && grep -q "^Connected to $S" "$w/pr.out" && ok || { bad "localhost: the port of an option file took the socket's place"; cat "$w/pr.out"; }
    #   the peers, in the same namespace: the mariadb client and mariadb-slap to the port, or
    #   the socket; sysbench to the socket whatever the port
    r=$(ns mariadb --no-defaults -h localhost -P "$P" -u nat -psecret -e status 2>&1 | sed -n 's/^Connection:[[:space:]]*//p')
    [ "$r" = "localhost via TCP/IP" ] && ok || bad "the mariadb client, -h localhost -P $P: '$r' (the peer no longer takes TCP for a port given)"
    ns mariadb --defaults-file="$w/proto.cnf" -u nat -psecret -e 'SELECT 1' >/dev/null 2>&1 && bad "the mariadb client, protocol=TCP in a file with port 1: connected (the socket?)" || ok
    #   the refusal's hint says that the port given took localhost off the socket
    ns $B ping --no-defaults -P 1 -u nat -psecret >"$w/pr.out" 2>&1
    grep -qxF "bench: hint: nothing is listening on port 1; a port given makes localhost TCP (as the mariadb client), and the local server's socket $S exists: drop -P, or add --protocol=socket" "$w/pr.out" && ok || { bad "the refusal's hint does not name the socket -P bypassed"; cat "$w/pr.out"; }
    #   --protocol=socket without a local socket: the first default path, named
    unshare -m sh "$w/ns.sh" "/nonexistent-$$" "$mnt" $B ping --no-defaults --protocol=socket -u nat -psecret >"$w/pr.out" 2>&1
    grep -q "connecting to $S failed: No such file or directory (ENOENT)" "$w/pr.out" && ok || { bad "--protocol=socket, no socket: not the default path's ENOENT"; cat "$w/pr.out"; }
    #   the client's long options with their value in the next word, before the test word
    ns $B --protocol tcp --port "$P" slap -u nat -psecret -q "SELECT 1" --create-schema=sbt >"$w/ms.out" 2>&1 && grep -q "^Benchmark" "$w/ms.out" && ok || { bad "bench --protocol tcp --port P slap"; cat "$w/ms.out"; }
    ns mariadb --no-defaults -P 1 -u nat -psecret -e 'SELECT 1' >/dev/null 2>&1 && bad "the mariadb client, -P 1: connected (a socket?)" || ok
    for s in mariadb-slap "$w/mariadb-slap"; do
        ns $s --no-defaults -u nat -psecret -q "SELECT 1" --create-schema=sbt >"$w/ms.out" 2>&1; r1=$?
        ns $s --no-defaults -P 1 -u nat -psecret -q "SELECT 1" --create-schema=sbt >"$w/ms1.out" 2>&1; r2=$?
        [ $r1 = 0 ] && [ $r2 != 0 ] && grep -q "^Benchmark" "$w/ms.out" && ok || { bad "$s: the socket: exit $r1, -P 1: exit $r2 (wanted 0, and a refusal)"; cat "$w/ms.out" "$w/ms1.out"; }
    done
    #   mysqlslap's --protocol (one word or two) is bench's: it wins over the port rule
    ns "$w/mariadb-slap" --no-defaults --protocol=SOCKET -P 1 -u nat -psecret -q "SELECT 1" --create-schema=sbt >"$w/ms.out" 2>&1; r1=$?
    ns "$w/mariadb-slap" --no-defaults --protocol tcp -S "$S" -P 1 -u nat -psecret -q "SELECT 1" --create-schema=sbt >"$w/ms1.out" 2>&1; r2=$?
    [ $r1 = 0 ] && [ $r2 != 0 ] && grep -q "localhost:1 .*ECONNREFUSED" "$w/ms1.out" && ok || { bad "mariadb-slap persona --protocol: socket exit $r1, tcp exit $r2"; cat "$w/ms.out" "$w/ms1.out"; }
    SBL="oltp_point_select --mysql-port=1 --mysql-user=nat --mysql-password=secret --mysql-db=sbt --tables=1 --events=10 --time=0 run"
    for s in sysbench "$w/sysbench"; do
        (cd "$w" && ns $s $SBL >"$w/sbl.out" 2>&1) && grep -q "total number of events: *10$" "$w/sbl.out" && ok || { bad "$s --mysql-port=1, host localhost: not the socket"; tail -5 "$w/sbl.out"; }
        #   the FATAL line names host and port, not the socket it was not given
        (cd "$w" && ns $s ${SBL%%--mysql-password*}--mysql-password=wrong --mysql-db=sbt --tables=1 --events=10 --time=0 run >"$w/sbl.out" 2>&1)
        grep -qxF "FATAL: unable to connect to MySQL server on host 'localhost', port 1, aborting..." "$w/sbl.out" && ok || { bad "$s, a refused login on the default socket: FATAL line"; grep FATAL "$w/sbl.out"; }
    done
    $B $SBL --no-defaults >"$w/sbl.out" 2>&1; r=$?
    [ $r = 3 ] && grep -q "localhost:1 .*ECONNREFUSED" "$w/sbl.out" && ok || { bad "bench $SBL: exit $r, wanted 3 (TCP to port 1: the port given)"; cat "$w/sbl.out"; }
else
    [ "${CI:-}" != true ] || bad "unshare -m does not run here (not root?): host localhost untested"
    echo "oltp: skip: unshare -m does not run here (host localhost and the socket untested)"
fi
$B oltp_read_only $C --no-defaults --tables=1 cleanup >/dev/null 2>&1

[ ! -s "$w/leaks" ] && ok || bad "sessions of 'nat' still open 10 s after a run (the server counters' reads): $(cat "$w/leaks")"
$ROOT -e "DROP DATABASE sbt; DROP DATABASE keep"
t_summary
