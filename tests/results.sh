#!/bin/sh
# Exact values and relations of the reports (issue 9: mutants that every other suite let
# through): deterministic counts (--events, fileio's fsync formula per mode, OLTP query
# counts, MiB transferred) compared exactly; min <= percentile <= max and avg within them;
# the histogram's bar scale; sysbench's interval-line layout. $BENCH is the binary under
# test; the OLTP checks use the suite's MariaDB (BENCH_MY_* from tests/run.sh or
# tests/mariadb.sh). Ends with "results: N passed, N failed".
# shellcheck disable=SC2086,SC2015 # option lists split into words on purpose
set -u
t_name=results
. "$(dirname "$0")/lib.sh"
[ -n "${BENCH_MY_PORT:-}" ] || { echo "results: SKIP: BENCH_MY_PORT unset (run via tests/run.sh)"; exit 77; }
# field FILE REGEX: the first number after REGEX on a line of FILE
field() { sed -n -E "s#^ *$2 *([0-9.]+).*#\1#p" "$1" | head -1; }
# expect NAME GOT WANT
expect() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }
# holds NAME AWK-EXPR: an awk condition over the variables given after it (name=value ...)
holds() {
    n=$1 e=$2; shift 2
    if awk "$@" "BEGIN { exit !($e) }" </dev/null; then ok; else bad "$n: not ($e) with $*"; fi
}

# 1. the latency block: min <= avg <= max, min <= p50 <= p95 <= max, sum = avg x events
"$B" cpu --threads=2 --events=400 --time=0 --cpu-max-prime=4000 --percentile=95 --rand-seed=1 run >"$w/cpu" 2>"$w/cpu.err"
expect "cpu events" "$(field "$w/cpu" 'total number of events:')" 400
mn=$(field "$w/cpu" 'min:') av=$(field "$w/cpu" 'avg:') mx=$(field "$w/cpu" 'max:')
p95=$(field "$w/cpu" '95th percentile:') sum=$(field "$w/cpu" 'sum:')
holds "cpu latency order" 'mn <= av && av <= mx && mn <= p95 && p95 <= mx && mn < mx' -v mn="$mn" -v av="$av" -v mx="$mx" -v p95="$p95"
holds "cpu sum = avg x events" 'sum - av * 400 <= 0.005 * 400 + 0.01 && av * 400 - sum <= 0.005 * 400 + 0.01' -v sum="$sum" -v av="$av"
expect "cpu events avg" "$(sed -n -E 's/^ *events \(avg\/stddev\): *([0-9.]+)\/.*/\1/p' "$w/cpu")" 200.0000
eps=$(field "$w/cpu" 'events per second:') tt=$(sed -n -E 's/^ *total time: *([0-9.]+)s$/\1/p' "$w/cpu")
holds "cpu events/s = events / time" 'e * t / 400 > 0.99 && e * t / 400 < 1.01' -v e="$eps" -v t="$tt"

# 2. warmup is excluded: exactly --events are reported after a warmup second
"$B" cpu --events=300 --time=0 --warmup-time=1 --cpu-max-prime=2000 run >"$w/warm" 2>&1
expect "warmup events" "$(field "$w/warm" 'total number of events:')" 300
eps=$(field "$w/warm" 'events per second:') tt=$(sed -n -E 's/^ *total time: *([0-9.]+)s$/\1/p' "$w/warm")
holds "warmup: events/s x total time = events (the window excludes warmup)" 'e * t / 300 > 0.98 && e * t / 300 < 1.02' -v e="$eps" -v t="$tt"

# 3. the histogram: the fullest row has 40 stars, every row count x 40 / max rounded
"$B" cpu --events=60 --time=0 --histogram=on --cpu-max-prime=3000 run >"$w/hist" 2>&1
sed -n '/^Latency histogram/,/^ $/p' "$w/hist" | awk -F'|' '
    NF == 2 { n = split($2, a, " "); c = a[n]; s = $2; gsub(/[^*]/, "", s); cnt[NR] = c; st[NR] = length(s); if (c > mx) mx = c; rows++ }
    END { if (!rows) exit 1; for (k in cnt) if (st[k] != int(cnt[k] * 40 / mx + 0.5)) exit 1; for (k in cnt) if (cnt[k] == mx && st[k] != 40) exit 1 }' &&
    ok || bad "histogram bars are not count x 40 / max: $(sed -n '/^Latency histogram/,/^ $/p' "$w/hist" | head -5)"

# 4. interval lines in sysbench's layout: "lat (ms,95%): 0.12" (a space, two decimals)
"$B" cpu --time=2 --report-interval=1 --cpu-max-prime=2000 run >"$w/iv" 2>&1
n=$(grep -c -E '^\[ [0-9]+s \] thds: [0-9]+ eps: [0-9]+\.[0-9]{2} lat \(ms,95%\): +[0-9]+\.[0-9]{2}$' "$w/iv")
holds "interval lines" 'n >= 1' -v n="$n"

# 5. memory: events and MiB transferred are exact
"$B" memory --threads=2 --memory-total-size=8M --memory-block-size=1K --time=0 run >"$w/mem" 2>&1
expect "memory operations" "$(sed -n -E 's/^Total operations: ([0-9]+) .*/\1/p' "$w/mem")" 8192
expect "memory MiB" "$(sed -n -E 's/^([0-9.]+) MiB transferred.*/\1/p' "$w/mem")" 8.00

# 6. fileio: the fsync formula of every mode, the read/write split
F="--file-num=4 --file-total-size=4M --file-dir=$w/f --threads=1 --time=0"
mkdir -p "$w/f"
fio() { # fio NAME ARGS...: prepare fresh files, run, leave the report in $w/NAME
    n=$1; shift
    "$B" fileio $F cleanup >/dev/null 2>&1
    "$B" fileio $F prepare >/dev/null 2>&1 || bad "fileio prepare for $n"
    "$B" fileio $F "$@" run >"$w/$n" 2>"$w/$n.err" || { bad "fileio $n: exit $?"; cat "$w/$n.err"; }
    grep -q '^4 files, 1MiB each$' "$w/$n" && grep -q '^4MiB total file size$' "$w/$n" && ok ||
        bad "fileio $n: sizes: $(grep -E 'files,|total file size' "$w/$n")"
}
ops() { sed -n -E "s/^ *$2 +([0-9]+) ops.*/\1/p" "$1"; }
fio all --file-test-mode=rndwr --events=100 --file-fsync-all=on --file-fsync-end=off
expect "fsync-all: writes" "$(ops "$w/all" write)" 100
expect "fsync-all: fsyncs/s = writes/s" "$(field "$w/all" 'fsyncs/s:')" "$(field "$w/all" 'writes/s:')"
expect "fsync-all: reads/s" "$(field "$w/all" 'reads/s:')" 0.00
fio freq --file-test-mode=rndwr --events=140 --file-fsync-freq=10 --file-fsync-end=off
expect "fsync-freq: writes" "$(ops "$w/freq" write)" 100
expect "fsync-freq: fsyncs (one per file every 10 writes)" "$(ops "$w/freq" fsync)" 40
expect "fsync-freq: events" "$(field "$w/freq" 'total number of events:')" 140
fio end --file-test-mode=rndwr --events=100 --file-fsync-freq=0 --file-fsync-end=on
wr=$(field "$w/end" 'writes/s:') fs=$(field "$w/end" 'fsyncs/s:')
holds "fsync-end: 4 fsyncs per 100 writes" 'fs * 25 >= wr * 0.99 && fs * 25 <= wr * 1.01' -v fs="$fs" -v wr="$wr"
# every thread fsyncs every file at the end (sysbench): 2 threads x 4 files per 100 writes
fio end2 --file-test-mode=rndwr --events=100 --file-fsync-freq=0 --file-fsync-end=on --threads=2
wr=$(field "$w/end2" 'writes/s:') fs=$(field "$w/end2" 'fsyncs/s:')
holds "fsync-end, 2 threads: 8 fsyncs per 100 writes" 'fs * 12.5 >= wr * 0.99 && fs * 12.5 <= wr * 1.01' -v fs="$fs" -v wr="$wr"
fio rd --file-test-mode=rndrd --events=50
fio iv --file-test-mode=rndrw --time=2 --events=0 --report-interval=1 --file-fsync-freq=0 --file-fsync-end=off
n=$(grep -c -E '^\[ [0-9]+s \] reads: [0-9]+\.[0-9]{2} MiB/s writes: [0-9]+\.[0-9]{2} MiB/s fsyncs: [0-9]+\.[0-9]{2}/s latency \(ms,95%\): +[0-9]+\.[0-9]{3}$' "$w/iv")
holds "fileio interval lines" 'n >= 1' -v n="$n"
# no fsync at all (no period, no end fsyncs) while writes go on: every line says fsyncs: 0.00/s,
# and writes went on (in one line at least: a second stalled by a shared disk can show none)
n=$(grep -c -E '^\[ [0-9]+s \] reads: .* writes: [0-9.]* MiB/s fsyncs: 0\.00/s' "$w/iv")
nw=$(grep -c -E '^\[ [0-9]+s \] reads: .* writes: [0-9.]*[1-9][0-9.]* MiB/s fsyncs: 0\.00/s' "$w/iv")
holds "fileio interval lines: fsyncs 0.00/s with writes, no fsync asked" 'n >= 1 && n == a && nw >= 1' -v n="$n" -v nw="$nw" -v a="$(grep -c '^\[' "$w/iv")"
expect "rndrd: reads" "$(ops "$w/rd" read)" 50
expect "rndrd: writes/s" "$(field "$w/rd" 'writes/s:')" 0.00
expect "rndrd: fsyncs/s" "$(field "$w/rd" 'fsyncs/s:')" 0.00
"$B" fileio $F cleanup >/dev/null 2>&1

# 7. OLTP query counts of a 10-transaction run: 10 point selects and 4 ranges per
#    transaction (oltp_read_only), 1 point select (oltp_point_select)
C="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret -D benchtest"
"$B" oltp_read_only $C --tables=1 --table-size=200 prepare >/dev/null 2>&1 || bad "oltp prepare"
"$B" oltp_read_only $C --tables=1 --events=10 --time=0 run >"$w/ro" 2>&1
expect "oltp_read_only reads" "$(field "$w/ro" 'read:')" 140
expect "oltp_read_only other" "$(field "$w/ro" 'other:')" 20
expect "oltp_read_only transactions" "$(field "$w/ro" 'transactions:')" 10
"$B" oltp_point_select $C --tables=1 --events=25 --time=0 run >"$w/ps" 2>&1
# interval lines: qps = r + w + o (each rounded to 2 decimals), tps <= qps
"$B" oltp_read_write $C --tables=1 --time=2 --report-interval=1 run >"$w/oiv" 2>&1
sed -n -E 's/^\[ [0-9]+s \] thds: [0-9]+ tps: ([0-9.]+) qps: ([0-9.]+) \(r\/w\/o: ([0-9.]+)\/([0-9.]+)\/([0-9.]+)\) lat \(ms,95%\): +[0-9]+\.[0-9]{2} err\/s: [0-9]+\.[0-9]{2} reconn\/s: [0-9]+\.[0-9]{2}$/\1 \2 \3 \4 \5/p' "$w/oiv" >"$w/oiv.n"
awk 'NF == 5 { n++; d = $2 - ($3 + $4 + $5); if (d > 0.02 || d < -0.02 || $1 > $2) bad++; if ($3 > 0) r++ } END { exit !(n >= 1 && r >= 1 && !bad) }' "$w/oiv.n" &&
    ok || bad "oltp interval lines: $(grep '^\[' "$w/oiv" | head -3)"
expect "oltp_point_select reads" "$(field "$w/ps" 'read:')" 25
expect "oltp_point_select queries" "$(field "$w/ps" 'queries:')" 25
# ignored errors are not reconnects: duplicate keys (a unique key on k, k uniform in 1..30),
# --mysql-ignore-errors=1062 restarts each such event; no connection is lost
mariadb --no-defaults -uroot -S "$BENCH_MY_SOCK" benchtest -e "DELETE FROM sbtest1; ALTER TABLE sbtest1 ADD UNIQUE KEY kk (k)" ||
    bad "a unique key for the 1062 test"
"$B" oltp_insert $C --tables=1 --table-size=30 --events=20 --time=0 --rand-seed=1 --rand-type=uniform --mysql-ignore-errors=1062 run >"$w/dup" 2>&1
expect "oltp 1062 ignored: writes" "$(field "$w/dup" 'write:')" 20
expect "oltp 1062 ignored: reconnects" "$(field "$w/dup" 'reconnects:')" 0
holds "oltp 1062 ignored: ignored errors >= 1" 'e >= 1' -v e="$(field "$w/dup" 'ignored errors:')"
"$B" oltp_read_only $C --tables=1 cleanup >/dev/null 2>&1

# 9. --client-index/--client-count write ids (tests/oracle_clients.py, from the docs), table
#    size 10 for 3 clients (not a multiple: the last class has the table's end, 10, and the
#    draws 10 of clients 1 and 2 move down into their classes): each client's DELETE/INSERT
#    pairs rewrite exactly its residue class; oltp_insert --auto-inc=off: 3 clients x 5 events
#    insert exactly the ids of one plain run of 15 (same seed), disjoint
MY="mariadb --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret -N benchtest"
"$B" oltp_write_only $C --tables=1 --table-size=10 prepare >/dev/null 2>&1 || bad "client split: prepare"
for i in 0 1 2; do
    $MY -e "SELECT id, c FROM sbtest1" >"$w/cb$i"
    "$B" oltp_write_only $C --tables=1 --table-size=10 --index-updates=0 --non-index-updates=0 --delete-inserts=1 \
        --rand-type=uniform --client-index=$i --client-count=3 --rand-seed=7 --events=150 --time=0 run >"$w/cr" 2>&1 &&
        $MY -e "SELECT id, c FROM sbtest1" >"$w/ca$i" &&
        python3 "$top/tests/oracle_clients.py" residue 10 3 $i "$w/cb$i" "$w/ca$i" && ok || bad "client $i of 3: its DELETE/INSERT ids: $(tail -3 "$w/cr")"
done
"$B" oltp_write_only $C --tables=1 cleanup >/dev/null 2>&1
# a table of exactly --client-count rows (3 of 3): each client rewrites its one id, i + 1
"$B" oltp_write_only $C --tables=1 --table-size=3 prepare >/dev/null 2>&1 || bad "client split: prepare of 3 rows"
for i in 0 1 2; do
    $MY -e "SELECT id, c FROM sbtest1" >"$w/cb$i"
    "$B" oltp_write_only $C --tables=1 --table-size=3 --index-updates=0 --non-index-updates=0 --delete-inserts=1 \
        --rand-type=uniform --client-index=$i --client-count=3 --rand-seed=7 --events=30 --time=0 run >"$w/cr" 2>&1 &&
        $MY -e "SELECT id, c FROM sbtest1" >"$w/ca$i" &&
        python3 "$top/tests/oracle_clients.py" residue 3 3 $i "$w/cb$i" "$w/ca$i" && ok || bad "client $i of 3, 3 rows: its DELETE/INSERT ids: $(tail -3 "$w/cr")"
done
"$B" oltp_write_only $C --tables=1 cleanup >/dev/null 2>&1
"$B" oltp_insert $C --tables=1 --auto-inc=off prepare >/dev/null 2>&1 || bad "client split: oltp_insert prepare"
for i in 0 1 2; do
    "$B" oltp_insert $C --tables=1 --auto-inc=off --client-index=$i --client-count=3 --rand-seed=7 --events=5 --time=0 run >"$w/cr" 2>&1 ||
        bad "oltp_insert client $i of 3: $(tail -3 "$w/cr")"
    $MY -e "SELECT id FROM sbtest1; DELETE FROM sbtest1" >"$w/ci$i"
done
"$B" oltp_insert $C --tables=1 --auto-inc=off --rand-seed=7 --events=15 --time=0 run >"$w/cr" 2>&1 || bad "oltp_insert plain run: $(tail -3 "$w/cr")"
$MY -e "SELECT id FROM sbtest1" >"$w/cis"
python3 "$top/tests/oracle_clients.py" lanes 3 "$w/cis" "$w/ci0" "$w/ci1" "$w/ci2" && ok || bad "oltp_insert --auto-inc=off: the clients' ids against one run's"
"$B" oltp_insert $C --tables=1 cleanup >/dev/null 2>&1
#    bulk_insert: client i of 3 writes ids i+1, i+4, ... of the thread's table, 4 events each
"$B" bulk_insert $C --threads=1 prepare >/dev/null 2>&1 || bad "client split: bulk_insert prepare"
for i in 0 1 2; do
    "$B" bulk_insert $C --threads=1 --client-index=$i --client-count=3 --rand-seed=7 --events=4 --time=0 run >"$w/cr" 2>&1 ||
        bad "bulk_insert client $i of 3: $(tail -3 "$w/cr")"
    $MY -e "SELECT id FROM sbtest1; DELETE FROM sbtest1" >"$w/cb$i"
done
python3 "$top/tests/oracle_clients.py" bulk 3 4 "$w/cb0" "$w/cb1" "$w/cb2" && ok || bad "bulk_insert: the clients' ids"
"$B" bulk_insert $C --threads=1 cleanup >/dev/null 2>&1

# 8. --start-at with --warmup-time (tests/oracle_window.py, from the docs): released a warmup
#    before the target, the window opening at the target; and a warmup longer than the time
#    left (warmup_short: released when ready, the window still at the target). Both at once.
SA="cpu --start-at-force --time=1 --cpu-max-prime=2000 --format=json run"
"$B" $SA --start-at=+1 --warmup-time=2 >"$w/sa2.json" 2>"$w/sa2.err" & sap=$!
"$B" $SA --start-at=+1.5 --warmup-time=1 >"$w/sa1.json" 2>"$w/sa1.err" &&
    python3 "$top/tests/oracle_window.py" "$w/sa1.json" && ok || bad "--start-at=+1.5 --warmup-time=1: $(head -c 300 "$w/sa1.err")"
wait $sap && python3 "$top/tests/oracle_window.py" "$w/sa2.json" && grep -q '"code":"warmup_short"' "$w/sa2.json" &&
    ok || bad "--start-at=+1 --warmup-time=2 (warmup_short): $(head -c 300 "$w/sa2.err")"

t_summary
