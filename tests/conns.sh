#!/bin/sh
# Many connections against the suite's MariaDB (run.sh exports BENCH_MY_*): the connect phase
# (myc_connect_retry through the login gate). 1,000 connections log in and run (all of them
# connected, events, one line per worker, the progress line on a terminal); a server that
# allows fewer connections answers ERROR 1040 once, at once, with its hint; a listener that
# accepts but never greets fails within --mysql-connect-timeout with one clear line; SIGINT
# during the connect phase ends it promptly. Ends with "N passed, N failed".
set -u
t_name=conns
. "$(dirname "$0")/lib.sh"
[ -n "${BENCH_MY_PORT:-}" ] || { echo "conns: SKIP: BENCH_MY_PORT unset (run via tests/run.sh)"; exit 77; }
N=1000
# bench holds N sockets, and the server N connections and their files
ulimit -n 4096 2>/dev/null || true
[ "$(ulimit -n)" -ge $((N + 100)) ] || { echo "conns: SKIP: the open files limit is $(ulimit -n), below $((N + 100)) (ulimit -Hn: $(ulimit -Hn))"; exit 77; }
ROOT="mariadb --no-defaults -uroot -S $BENCH_MY_SOCK"
files=$($ROOT -N -e 'SELECT @@open_files_limit') || { echo "conns: FAIL: no root access to the suite's server"; exit 1; }
[ "$files" -ge $((N + 100)) ] || { echo "conns: SKIP: the server's open_files_limit is $files, below $((N + 100))"; exit 77; }
old=$($ROOT -N -e 'SELECT @@max_connections')
lpid=""
t_at_exit() {
    $ROOT -e "SET GLOBAL max_connections=$old; DROP DATABASE IF EXISTS conns"
    [ -z "$lpid" ] || kill "$lpid" 2>/dev/null
    [ ! -f "$w/mdbh/pid" ] || sh "$top/tests/mariadb.sh" stop "$w/mdbh" >/dev/null 2>&1
}
$ROOT -e "DROP DATABASE IF EXISTS conns; CREATE DATABASE conns; SET GLOBAL max_connections=$((N + 100))"
C="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret -D conns --tables=1 --table-size=100"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
"$B" oltp_point_select $C prepare >/dev/null || { echo "conns: FAIL: prepare"; exit 1; }

# 1. N connections at once: every worker logs in (one "initialized" line each, the server
#    counts N more connections), the run has events, and a terminal shows the progress line
conns() { $ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Connections'" | cut -f2; }
#    in both modes: a thread per connection, and 2 event loops (their logins without
#    blocking, many at once per loop through the same gate)
for L in 0 2; do
c0=$(conns)
cmd="$B oltp_point_select $C --threads=$N --event-loops=$L --time=2 --debug=on run"
if command -v script >/dev/null; then # a terminal (pty), so that the status line shows
    timeout 300 script -qec "$cmd" /dev/null >"$w/n.out" 2>&1
else
    echo "conns: note: no script(1): the progress line is not checked"
    # shellcheck disable=SC2086
    timeout 300 $cmd >"$w/n.out" 2>&1
fi
rc=$?
c1=$(conns)
tr -d '\r' <"$w/n.out" >"$w/n.txt"
inits=$(grep -o 'Worker thread (#[0-9]*) initialized' "$w/n.txt" | sort -u | wc -l)
events=$(sed -n 's/^ *total number of events: *\([0-9]*\)$/\1/p' "$w/n.txt")
[ "$rc" = 0 ] && ok || { bad "$N connections (loops $L): exit $rc"; tail -5 "$w/n.txt"; }
[ "$inits" = $N ] && ok || bad "$N connections (loops $L): $inits workers initialized"
[ $((c1 - c0)) -ge $N ] && ok || bad "$N connections (loops $L): the server counted $((c1 - c0)) logins"
[ "${events:-0}" -gt 0 ] && ok || bad "$N connections (loops $L): no events"
if command -v script >/dev/null; then
    # the line shows once the phase lasts longer than its first period (0.5 s), then ends
    # with N/N; a phase that is quicker shows none (t_gate_progress checks those rules)
    if grep -q "bench: connecting: " "$w/n.txt"; then
        grep -q "bench: connecting: $N/$N" "$w/n.txt" && ok || bad "$N connections (loops $L): progress lines without the last one 'connecting: $N/$N'"
    else
        ok; echo "conns: $N connections (loops $L) connected within the progress line's first period: no line"
    fi
fi
done

# 2. a server that allows fewer connections than --threads: its ERROR 1040 verbatim, once, the
#    hint, exit code 3, at once (a login refused by the server is not retried)
for L in 0 2; do
$ROOT -e "SET GLOBAL max_connections=50"
t0=$(now)
timeout 120 "$B" oltp_point_select $C --threads=100 --event-loops=$L --time=2 run >"$w/m.out" 2>"$w/m.err"
rc=$? t1=$(now)
$ROOT -e "SET GLOBAL max_connections=$((N + 100))"
[ "$rc" = 3 ] && ok || bad "max_connections=50 (loops $L): exit $rc, not 3"
[ "$(grep -c 'ERROR 1040 (HY000): Too many connections' "$w/m.err")" = 1 ] && ok || { bad "max_connections=50 (loops $L): not one ERROR 1040 line"; cat "$w/m.err"; }
grep -q "^bench: hint: .*raise its max_connections" "$w/m.err" && ok || bad "max_connections=50 (loops $L): no hint"
[ "$(grep -vc '^bench: hint:' "$w/m.err")" = 1 ] && ok || { bad "max_connections=50 (loops $L): more than one error line"; cat "$w/m.err"; }
lt "$(secs "$t0" "$t1")" 30 && ok || bad "max_connections=50 (loops $L): took $(secs "$t0" "$t1") s"
done

# 3. a listener that accepts and never greets: one clear line within the login deadline
#    (a timeout is not retried while no login succeeded: 5 tries would take 10 s)
python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(1024)
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1])
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
keep = []
while True:
    keep.append(s.accept()[0])
' "$w/port" &
lpid=$!
i=0; until [ -s "$w/port" ] || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
P=$(cat "$w/port") || { echo "conns: FAIL: the silent listener did not start"; exit 1; }
S="--no-defaults -h 127.0.0.1 -P $P -u nat -psecret -D conns --tables=1"
#    (the run's own check of the tables logs in first: two deadlines in a row, at most)
for L in 0 2; do
t0=$(now)
timeout 120 "$B" oltp_point_select $S --threads=200 --event-loops=$L --mysql-connect-timeout=2 --time=2 run >"$w/s.out" 2>"$w/s.err"
rc=$? t1=$(now)
[ "$rc" = 3 ] && ok || bad "silent server (loops $L): exit $rc, not 3"
grep -q "^bench: oltp_point_select: reading from 127.0.0.1:$P failed: Operation timed out (ETIMEDOUT)$" "$w/s.err" && ok || { bad "silent server (loops $L): no timeout line"; cat "$w/s.err"; }
[ "$(grep -vc '^bench: hint:' "$w/s.err")" = 1 ] && ok || { bad "silent server (loops $L): more than one error line"; cat "$w/s.err"; }
el=$(secs "$t0" "$t1")
lt 1.9 "$el" && lt "$el" 8 && ok || bad "silent server (loops $L): failed after $el s (--mysql-connect-timeout=2)"
done

# 4. SIGINT while the workers wait for greetings (and at the gate): the run ends promptly
"$B" oltp_point_select $S --threads=200 --mysql-connect-timeout=60 --time=2 run >"$w/i.out" 2>"$w/i.err" &
bpid=$!
sleep 3
t0=$(now)
kill -INT $bpid
i=0; while kill -0 $bpid 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
t1=$(now)
if kill -0 $bpid 2>/dev/null; then bad "SIGINT: still running 30 s after the signal"; kill -9 $bpid; fi
wait $bpid
rc=$?
[ "$rc" != 0 ] && ok || bad "SIGINT: exit 0"
lt "$(secs "$t0" "$t1")" 3 && ok || bad "SIGINT: ended $(secs "$t0" "$t1") s after the signal"
grep -q "interrupted by SIGINT" "$w/i.err" && ok || { bad "SIGINT: no 'interrupted by SIGINT' line"; cat "$w/i.err"; }

#    ... and as `sysbench` (TERM): a stop is no refused login: its words, not thread_init's
ln -sf "$B" "$w/sysbench"
"$w/sysbench" oltp_point_select --mysql-host=127.0.0.1 --mysql-port="$P" --mysql-user=nat --mysql-password=secret --mysql-db=conns --tables=1 --threads=2 --mysql-connect-timeout=60 --time=2 run >"$w/t.out" 2>&1 &
bpid=$!
sleep 2
kill -TERM $bpid
i=0; while kill -0 $bpid 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $bpid 2>/dev/null && { bad "sysbench persona, SIGTERM: still running"; kill -9 $bpid; }
wait $bpid
grep -q "^FATAL: unable to connect to MySQL server: interrupted by SIGTERM" "$w/t.out" && ! grep -q "thread_init\|Thread initialization" "$w/t.out" &&
    ok || { bad "sysbench persona, SIGTERM while logging in: not said as a stop"; cat "$w/t.out"; }

# 5. tests/mariadb.sh on a port someone holds: the next one, said, and the exports say which
python3 -c '
import os, socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1]); os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(120)
' "$w/held" &
hpid=$!
i=0; until [ -s "$w/held" ] || [ $i -ge 300 ]; do sleep 0.1; i=$((i + 1)); done
H=$(cat "$w/held")
menv=$(sh "$top/tests/mariadb.sh" start "$w/mdbh" "$H" 2>"$w/mdbh.err")
got=$(echo "$menv" | sed -n 's/.*BENCH_MY_PORT=\([0-9]*\).*/\1/p')
[ "$got" -gt "$H" ] 2>/dev/null && grep -q "^mariadb.sh: port $H is taken: trying $((H + 1))$" "$w/mdbh.err" &&
    mariadb --no-defaults -h 127.0.0.1 -P "$got" -u nat -psecret -N -e 'SELECT @@port' 2>/dev/null | grep -qx "$got" &&
    ok || { bad "mariadb.sh on a held port $H: took '$got'"; cat "$w/mdbh.err"; }
sh "$top/tests/mariadb.sh" stop "$w/mdbh" >/dev/null 2>&1 && rm -rf "$w/mdbh"
kill $hpid 2>/dev/null

t_summary
