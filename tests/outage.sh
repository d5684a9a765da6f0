#!/bin/sh
# --outage-report, --verify-writes and failover (docs/cli.md "Outages"), on servers of its own
# (OUTAGE_PORT, else a port from the pid):
# failover: a primary and its asynchronous replica behind tests/cutproxy.py; the replica's
#     replication stopped, the proxy switched: bench's lost writes are the rows only the primary
#     has (to within its unknown outcomes), each lost example is one of them, the replica's rows
#     = acknowledged - lost + unknown found, and its read-only refusals (1290 until promoted) are
#     bench's read_only count;
# (1) the server SIGKILLed during an oltp_insert run and restarted: each client's outage window
#     is the test's own kill-to-greeting stopwatch within 100 ms, no acknowledged write lost
#     (innodb_flush_log_at_trx_commit=1), the rows = acknowledged + unknown found; (2) the same at
#     innodb_flush_log_at_trx_commit=0: rows = acknowledged - lost + unknown found; (3) the
#     event-loop core, with --rate kept through the outage; (3b) oltp_write_only's transactions
#     on shared rows: no row's last acknowledged state called lost; (3e) a c changed behind
#     bench's back before a later UPDATE k=k+1: that row lost, no other; (3d) bulk_insert: its
#     ledger of id ranges (under a byte per row), nothing lost, its rows; (4) read-only: the errors
#     classified read_only, as many as the server's general log received less the rows; (5) a
#     server that stays down: each client gives up after --mysql-reconnect-timeout, named, and
#     SIGINT during the audit that follows: exit 1, "interrupted"; (6) two servers: each
#     client's writes audited on its own; (7) deadlocks alone: counted, no window; (8) a SIGSTOP
#     hang: windows from the stop (--mysql-io-timeout), stalls (without); (9) a partial outage
#     (one client through a proxy cut): its window alone, back via the next server within 1 s.
# No sleep synchronises anything: each step waits on state with a deadline.
set -u
t_name=outage
. "$(dirname "$0")/lib.sh"
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || { echo "outage: SKIP: mariadb-server is not installed"; exit 77; }
port=${OUTAGE_PORT:-$((25100 + $$ % 700))}
mdb=$w/mdb
mdb2=$w/mdb2
t_at_exit() {
    [ ! -s "$w/proxy.pid" ] || kill "$(cat "$w/proxy.pid")" 2>/dev/null
    sh "$top/tests/mariadb.sh" stop "$mdb" >/dev/null 2>&1
    sh "$top/tests/mariadb.sh" stop "$mdb2" >/dev/null 2>&1
}
start() { # start [MARIADBD ARGS]: a fresh server with an empty sbtest1
    menv=$(BENCH_MDB_ARGS="$*" sh "$top/tests/mariadb.sh" start "$mdb" "$port") || return 1
    eval "$menv"
    port=$BENCH_MY_PORT
    C="--mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=nat --mysql-password=secret --mysql-db=benchtest"
    "$B" oltp_insert $C --table-size=0 prepare >/dev/null
}
sql() { mariadb --no-defaults -uroot -S "$mdb/sock" -N -B -e "$1" benchtest; }
rows() { sql 'SELECT COUNT(*) FROM sbtest1'; }
# crash_run NAME MDB_ARGS BENCH_ARGS...: a write run; once rows arrive the server is killed and
# restarted at once; the JSON in $w/NAME.json, in $w/NAME.t the kill's time and the restarted
# server's first answer, each a pair that brackets it (mariadb.sh: on a loaded host the
# stopwatch's own process wakes late, and the pair says by how much)
crash_run() {
    name=$1 margs=$2 wl=${WL:-oltp_insert}; shift 2
    "$B" "$wl" $C --auto-inc=off --threads=4 --time=5 --mysql-ignore-errors=1213,1020,1205,2013,2006 \
        --outage-report --verify-writes --format=json "$@" run >"$w/$name.json" 2>"$w/$name.err" &
    bpid=$!
    t_wait 10 sh -c "${READY:-[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e \"SHOW GLOBAL STATUS LIKE 'Handler_write'\" 2>/dev/null | cut -f2 || echo 0)\" -gt \$((${hw0:-0} + 200)) ]}" || { bad "$name: no rows arrived"; head -5 "$w/$name.err"; kill "$bpid"; return 1; }
    tk=$(sh "$top/tests/mariadb.sh" kill "$mdb") || { bad "$name: kill"; return 1; }
    tu=$(BENCH_MDB_ARGS="$margs" sh "$top/tests/mariadb.sh" restart "$mdb" "$port" | tail -n 1) || { bad "$name: restart"; return 1; }
    echo "$tk $tu" >"$w/$name.t"
    wait "$bpid" || { bad "$name: bench exited $?"; head -5 "$w/$name.err"; return 1; }
}
# judge NAME FLUSH: the report against the stopwatch and the table
judge() {
    python3 - "$w/$1.json" "$w/$1.t" "$(rows)" "$2" "${RATE:-0}" <<'PY' && ok "$1" || bad "$1"
import json, sys
doc, ivs = None, []
for line in open(sys.argv[1]):
    d = json.loads(line)
    if "outage" in d or "results" in d:
        doc = d
    elif d.get("type") == "interval":
        ivs.append(d)
tk0, tk1, tu0, tu1 = (int(x) for x in open(sys.argv[2]).read().split())
tk, tu = tk1, tu1
def off(t, lo, hi): # how far t lies outside [lo, hi], in s
    return (t - lo) / 1e9 if t < lo else (t - hi) / 1e9 if t > hi else 0.0
rows, flush, rate = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
o = doc["outage"]
v = o["verify_writes"]
errs = []
print("outage: stopwatch %.3f s (kill bracketed to %.3f s, answer to %.3f s); windows:"
      % ((tu1 - tk0) / 1e9, (tk1 - tk0) / 1e9, (tu1 - tu0) / 1e9),
      ["%+.3f/%+.3f" % (off(w["start_unix_ns"], tk0, tk1), off(w["end_unix_ns"], tu0, tu1))
       for c in o["clients"] for w in c["windows"] if w["end_unix_ns"]],
      "acked", v["acknowledged"], "lost", v["lost"], "unknown", v["unknown"],
      "found", v["unknown_present"], "rows", rows, "recovery_s", o["recovery_s"],
      "down", ["%+.2f:%d" % ((i["end_unix_ns"] - tk1) / 1e9, i["clients_down"]) for i in ivs])
if not v["checked"]:
    errs.append("not verified: %s" % v["error"])
if o["never_back"]:
    errs.append("%d clients never came back" % o["never_back"])
for c in o["clients"]:
    ws = c["windows"] # a deadlock opens none (the server answered): one window, the kill's
    if len(ws) != 1 or c["windows_total"] != 1:
        errs.append("client %d: %d windows (%d kept)" % (c["client"], c["windows_total"], len(ws)))
        continue
    if ws[0]["end_unix_ns"] is None:
        errs.append("client %d: never came back" % c["client"])
        continue
    ds, de = off(ws[0]["start_unix_ns"], tk0, tk1), off(ws[0]["end_unix_ns"], tu0, tu1)
    # flush 0: the end may be up to 0.2 s early (the open question below, at the kill0 case)
    if abs(ds) > 0.1 or de > 0.1 or de < (-0.2 if flush == 0 else -0.1):
        errs.append("client %d: window off the stopwatch by %+.3f s at its start, %+.3f s at its end" % (c["client"], ds, de))
    if ws[0]["class"] != "lost":
        errs.append("client %d: opened by %s" % (c["client"], ws[0]["class"]))
if o["errors"]["lost"] < 4 or o["errors"]["refused"] < 4:
    errs.append("errors %s: each client lost its connection and was refused" % o["errors"])
if flush != 0 and v["lost"]:
    errs.append("%d acknowledged writes lost with innodb_flush_log_at_trx_commit=1" % v["lost"])
if flush >= 0 and rows != v["acknowledged"] - v["lost"] + v["unknown_present"]:
    errs.append("the table has %d rows, bench says %d acknowledged - %d lost + %d unknown found"
                % (rows, v["acknowledged"], v["lost"], v["unknown_present"]))
r = doc["results"]
down = (tu - tk) / 1e9
if rate and not rate * (r["window_s"] - down) * 0.95 <= r["events"] <= rate * r["window_s"] * 1.05:
    # the rate goes on after the outage (sysbench #224: not after a reconnect), the arrivals
    # missed in it run at its end as far as the run's time allows, never beyond the rate
    errs.append("--rate=%d: %d events in %.2f s with %.2f s out" % (rate, r["events"], r["window_s"], down))
# the recovery (to 95% of the throughput before, 100 ms buckets: the first that is, and the
# mean of it and the next 4) cannot come before the server answered (a bucket's resolution
# and the first failure's lead: 0.2 s); at flush 1 the server is as fast after as before: it
# comes within 1 s of the answer ("not within the run", null, only when the run ended less
# than 1.5 s after the answer: a restart slowed by a loaded host). At flush 0 the restarted
# server may stay slower than before for the rest of the run (null seen 2.2 s after)
lo_r, hi_r = (tu0 - tk1) / 1e9 - 0.2, (tu1 - tk0) / 1e9 + 1.0
after = (doc["results"]["window_end_unix_ns"] - tu1) / 1e9
if flush != 1:
    hi_r, after = 1e9, 0
if not rate and (o["recovery_s"] is None and after >= 1.5 or
                 o["recovery_s"] is not None and not lo_r <= o["recovery_s"] <= hi_r):
    errs.append("recovery_s %s, the stopwatch says %.3f..%.3f s (the run went on %.2f s after the answer)" % (o["recovery_s"], lo_r, hi_r, after))
# down: N at each interval's end (--report-interval): every client (4, all cut by the kill)
# between the kill (+0.2 s: each client's next statement fails) and the answer, none before
# the kill or 1 s after the answer; a span over 1 s holds an interval's end
if ivs:
    inside = [i for i in ivs if tk1 + 0.2e9 < i["end_unix_ns"] < tu0 - 0.05e9]
    for i in ivs:
        want = 4 if i in inside else 0 if not tk0 - 0.05e9 <= i["end_unix_ns"] <= tu1 + 1e9 else None
        if want is not None and i["clients_down"] != want:
            errs.append("interval at %+.3f s of the kill: down %d, the test cut %d" % ((i["end_unix_ns"] - tk1) / 1e9, i["clients_down"], want))
    if not inside and (tu0 - 0.05e9) - (tk1 + 0.2e9) > 1e9:
        errs.append("no interval line ended in the outage")
    if not any(i["end_unix_ns"] > tu1 + 1e9 for i in ivs):
        errs.append("no interval line after the outage")
if sys.argv[1].endswith("kill-trx.json") and not o["errors"]["deadlock"]:
    errs.append("no deadlocks: the case is to have them beside the outage")
if v["unknown_present"] > v["unknown"]:
    errs.append("more unknown outcomes found than there were")
for e in errs:
    print("outage:", e)
sys.exit(1 if errs else 0)
PY
}

# failover: the primary ($mdb, binary log) and an asynchronous replica ($mdb2, read-only)
# (row-based binary log: the replica's general log has only the clients' statements) behind
# tests/cutproxy.py, which the test switches: the replica's SQL thread stopped first, so
# what the primary committed after that is lost, and bench must name exactly as many; the
# clients' first statements on the replica fail read-only (1290) until it is promoted
failover() {
    sql2() { mariadb --no-defaults -uroot -S "$mdb2/sock" -N -B -e "$1" benchtest; }
    menv=$(BENCH_MDB_ARGS="--log-bin --server-id=1 --binlog-format=ROW" sh "$top/tests/mariadb.sh" start "$mdb" "$port") || return 1
    eval "$menv"; pa=$BENCH_MY_PORT
    menv=$(BENCH_MDB_ARGS="--server-id=2" sh "$top/tests/mariadb.sh" start "$mdb2" "$((pa + 1))") || return 1
    eval "$menv"; pb=$BENCH_MY_PORT
    echo "$pa $pb" >"$w/ports"
    users="SET SESSION sql_log_bin=0; CREATE USER repl@'%' IDENTIFIED BY 'repl'; GRANT REPLICATION SLAVE ON *.* TO repl@'%';
           CREATE USER rw@'%' IDENTIFIED BY 'rw'; GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX, ALTER ON benchtest.* TO rw@'%'"
    sql "$users"; sql2 "$users"
    gtid=$(sql 'SELECT @@gtid_binlog_pos')
    sql2 "SET GLOBAL gtid_slave_pos='$gtid'; CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$pa, MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos; START SLAVE"
    "$B" oltp_insert --mysql-host=127.0.0.1 --mysql-port="$pa" --mysql-user=rw --mysql-password=rw --mysql-db=benchtest --table-size=0 prepare >/dev/null
    t_wait 10 sh -c "mariadb --no-defaults -uroot -S '$mdb2/sock' -N -B -e 'SELECT 1 FROM sbtest1 LIMIT 1' benchtest >/dev/null 2>&1" || { echo "the replica did not get the table"; return 1; }
    sql2 "SET GLOBAL read_only=1; SET GLOBAL general_log_file='$w/general2.log'; SET GLOBAL general_log=1"
    python3 "$top/tests/cutproxy.py" 0 "$pa" "$pb" >"$w/proxy.out" 2>&1 &
    proxy=$!
    echo "$proxy" >"$w/proxy.pid"
    t_wait 5 grep -q ready "$w/proxy.out" || return 1
    px=$(sed -n 's/^ready //p' "$w/proxy.out")
    "$B" oltp_insert --mysql-host=127.0.0.1 --mysql-port="$px" --mysql-user=rw --mysql-password=rw \
        --mysql-db=benchtest --auto-inc=off --threads=4 --time=6 --outage-report --verify-writes \
        --mysql-ignore-errors=1290,2013,2006 --format=json run >"$w/fo.json" 2>"$w/fo.err" &
    bpid=$!
    t_wait 10 sh -c "[ \"\$(mariadb --no-defaults -uroot -S '$mdb2/sock' -N -B -e 'SELECT COUNT(*) FROM sbtest1' benchtest)\" -gt 100 ]" || { echo "no rows replicated"; return 1; }
    sql2 'STOP SLAVE'
    rb=$(sql2 'SELECT COUNT(*) FROM sbtest1')
    t_wait 10 sh -c "[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e 'SELECT COUNT(*) FROM sbtest1' benchtest)\" -gt $((rb + 300)) ]" || { echo "no lag"; return 1; }
    kill -USR2 "$proxy"
    t_wait 10 sh -c "[ \"\$(grep -c 'INSERT INTO sbtest1' '$w/general2.log')\" -gt 200 ]" || { echo "no INSERT reached the replica"; return 1; }
    sql2 'SET GLOBAL read_only=0'
    wait "$bpid" || { echo "bench exited $?"; head -5 "$w/fo.err"; return 1; }
    sql2 'SET GLOBAL general_log=0'
    sql 'SELECT id FROM sbtest1' >"$w/ids.a"
    sql2 'SELECT id FROM sbtest1' >"$w/ids.b"
    python3 - "$w/fo.json" "$w/ids.a" "$w/ids.b" "$rb" "$(grep -c 'INSERT INTO sbtest1' "$w/general2.log")" <<'PY'
import json, sys
doc = [json.loads(l) for l in open(sys.argv[1])][-1]
o = doc["outage"]
v = o["verify_writes"]
a = set(open(sys.argv[2]).read().split())
b = set(open(sys.argv[3]).read().split())
rb, ins_b = int(sys.argv[4]), int(sys.argv[5])
gone = a - b  # committed on the primary, never on the replica
ro = o["errors"]["read_only"]
print("outage: failover: primary", len(a), "replica", len(b), "(%d replicated)" % rb, "only on the primary", len(gone),
      "bench: acked", v["acknowledged"], "lost", v["lost"], "unknown", v["unknown"], "found", v["unknown_present"],
      "read_only", ro, "replica INSERTs received", ins_b, "windows", [w["class"] for c in o["clients"] for w in c["windows"]])
errs = []
if not v["checked"]:
    errs.append("not verified: %s" % v["error"])
if not v["lost"] or not v["lost"] <= len(gone) <= v["lost"] + v["unknown"]:
    errs.append("bench lost %d, unknown %d; the primary alone has %d" % (v["lost"], v["unknown"], len(gone)))
for x in v["lost_examples"]:
    if str(x["id"]) not in gone:
        errs.append("lost id %d is on the replica" % x["id"])
if len(b) != v["acknowledged"] - v["lost"] + v["unknown_present"]:
    errs.append("the replica has %d rows, bench: %d acknowledged - %d lost + %d unknown found" % (len(b), v["acknowledged"], v["lost"], v["unknown_present"]))
if ro < 1 or ro != ins_b - (len(b) - rb):
    errs.append("read_only errors %d, the replica refused %d" % (ro, ins_b - (len(b) - rb)))
if o["never_back"]:
    errs.append("clients never came back")
for e in errs:
    print("outage: failover:", e)
sys.exit(1 if errs else 0)
PY
}
t_case failover failover
grep '^outage: failover' "$w/t_case.log"
kill "$(cat "$w/proxy.pid")" 2>/dev/null; rm -f "$w/proxy.pid"
# (6) two servers, no outage (--mysql-port=A,B: the clients alternate, as sysbench; the
# failover case's primary and replica, replication stopped): each client's writes are
# audited on the server it wrote on: none lost, both servers' rows are the acknowledged
# writes (client 0's server alone: half of them lost)
read -r pa pb <"$w/ports"
sql 'DROP TABLE sbtest1'
mariadb --no-defaults -uroot -S "$mdb2/sock" -N -B -e 'DROP TABLE sbtest1' benchtest
for p in "$pa" "$pb"; do "$B" oltp_insert --mysql-host=127.0.0.1 --mysql-port="$p" --mysql-user=rw --mysql-password=rw --mysql-db=benchtest --table-size=0 prepare >/dev/null; done
"$B" oltp_insert --mysql-host=127.0.0.1 --mysql-port="$pa,$pb" --mysql-user=rw --mysql-password=rw --mysql-db=benchtest --auto-inc=off --threads=2 --time=1 \
    --verify-writes --outage-report --format=json run >"$w/two.json" 2>"$w/two.err" || bad "two: bench exited $?"
python3 - "$w/two.json" "$(rows)" "$(mariadb --no-defaults -uroot -S "$mdb2/sock" -N -B -e 'SELECT COUNT(*) FROM sbtest1' benchtest)" <<'PY' && ok "two servers: each audited on its own" || bad "two servers: each audited on its own"
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]["verify_writes"]
a, b = int(sys.argv[2]), int(sys.argv[3])
print("outage: two servers: rows %d + %d; bench" % (a, b), v)
sys.exit(0 if v["checked"] and v["lost"] == 0 and a > 50 and b > 50 and v["acknowledged"] == a + b and not v["not_checked"] else 1)
PY
sh "$top/tests/mariadb.sh" stop "$mdb2"
sh "$top/tests/mariadb.sh" stop "$mdb"

# (1) flush at every commit: nothing acknowledged is lost
start --userstat=1 || { bad "the server did not start"; t_summary; }
crash_run kill1 "--userstat=1" --report-interval=1 && judge kill1 1
if python3 -c 'import jsonschema' 2>/dev/null; then # the outage object as docs/json.md says
    python3 "$top/tests/json_check.py" "$top/docs/bench-result.schema.json" "$w/kill1.json" --exit 0 && ok "schema" || bad "schema"
else echo "outage: the schema check did not run: python3-jsonschema is not installed"; fi
# (2) flush once a second: a kill loses what the log buffer held, and bench must say so.
# Open (issue 34): here, at load ~2 as at ~30, the clients' windows sometimes end 0.13-0.15 s
# before the poller's last refused connect (a 10 ms bracket): not the stopwatch waking late;
# bench's first success came while the port still refused the poller (cause not found yet):
# judge lets a flush-0 window end up to 0.2 s before the poller's bracket, 0.1 s after it
sql 'TRUNCATE sbtest1'
sql 'SET GLOBAL innodb_flush_log_at_trx_commit=0'
crash_run kill0 "--userstat=1 --innodb-flush-log-at-trx-commit=0" && judge kill0 0
# (3) the event-loop core: the same rules; --rate kept through the outage (the rate goes on
# after it, its missed arrivals run at its end as far as the time allows, never beyond it)
sql 'TRUNCATE sbtest1'
sql 'SET GLOBAL innodb_flush_log_at_trx_commit=1'
crash_run kill-evl "--userstat=1" --event-loops=1 --rate=1500 && RATE=1500 judge kill-evl 1
# (3b) transactions (oltp_write_only: DELETE+INSERT, UPDATE c, UPDATE k=k+1 on 100 shared
# rows: deadlocks beside the outage, which open no window): each row's last acknowledged
# state is on the server, none called lost (judge's -1: no rows equation, the rows were there
# before); one window per client, the kill's
sql 'SET GLOBAL innodb_flush_log_at_trx_commit=1'
sql 'DROP TABLE sbtest1'
"$B" oltp_write_only $C --table-size=100 prepare >/dev/null
hw0=$(sql "SHOW GLOBAL STATUS LIKE 'Handler_write'" | cut -f2)
WL=oltp_write_only crash_run kill-trx "--userstat=1" --table-size=100 && judge kill-trx -1
hw0=
# (3c) no outage, and UPDATEs of rows that are not there (--table-size 10x the table's): an
# UPDATE that changed no row says nothing of it (they were lost writes before: 1041 of 7508)
"$B" oltp_write_only $C --table-size=20000 --threads=4 --time=2 --verify-writes --format=json run >"$w/gaps.json" 2>"$w/gaps.err" &&
    python3 -c 'import json, sys; v = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]["verify_writes"]; print("outage: no outage, UPDATEs of missing rows:", v); sys.exit(0 if v["checked"] and v["acknowledged"] > 100 and v["lost"] == 0 else 1)' "$w/gaps.json" &&
    ok "no outage: nothing lost" || bad "no outage: nothing lost"
# (3e) a c changed behind bench's back, then only k=k+1 on the row (F3: a row's last write an
# UPDATE k hid its lost c): a trigger sets c to 'tampered' at every UPDATE k of a row whose c
# bench had changed before (an acknowledged UPDATE c: the row's c no longer the prepared one);
# a later UPDATE c of bench's puts its own back. The rows left 'tampered' are exactly those
# whose last acknowledged c is not on the server: bench must call each lost ("different"),
# and no other row
sql 'DROP TABLE sbtest1'
"$B" oltp_write_only $C --table-size=10 prepare >/dev/null
sql "CREATE TABLE orig AS SELECT id, c FROM sbtest1;
     CREATE TRIGGER tamper BEFORE UPDATE ON sbtest1 FOR EACH ROW SET NEW.c = IF(NEW.k <> OLD.k AND OLD.c <> (SELECT c FROM orig WHERE id = OLD.id), 'tampered', NEW.c)"
"$B" oltp_write_only $C --table-size=10 --delete-inserts=0 --index-updates=4 --non-index-updates=1 \
    --threads=2 --events=300 --time=0 --mysql-ignore-errors=1213,1205,1020 --verify-writes \
    --format=json run >"$w/tamper.json" 2>"$w/tamper.err" || { bad "tamper: bench exited $?"; head -3 "$w/tamper.err"; }
python3 - "$w/tamper.json" "$(sql "SELECT GROUP_CONCAT(id) FROM sbtest1 WHERE c = 'tampered'")" <<'PY' && ok "a lost c behind a later UPDATE k: lost" || bad "a lost c behind a later UPDATE k: lost"
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]["verify_writes"]
t = set(int(i) for i in sys.argv[2].split(",") if i.strip() and i != "NULL")
ex = [(x["id"], x["how"] == "missing") for x in v["lost_examples"]]
print("outage: tampered rows", sorted(t), "bench: acked", v["acknowledged"], "lost", v["lost"], "examples", ex)
sys.exit(0 if v["checked"] and t and v["lost"] == len(t) and all(i in t and not m for i, m in ex) and len(ex) == min(8, len(t)) else 1)
PY
sql 'DROP TRIGGER tamper; DROP TABLE orig'
# (3d) bulk_insert (a 512 KiB INSERT per statement, each thread its own table): its ledger an
# id range per INSERT (bytes per acknowledged row well under 1; 32 when it was a row each), no
# acknowledged row lost at flush 1, the tables' rows = acknowledged - lost + unknown found
sql "DROP TABLE sbtest1"
"$B" bulk_insert $C --threads=4 prepare >/dev/null
# killed once an INSERT of each of two threads is committed (READY: crash_run's wait)
READY="[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e 'SELECT (SELECT COUNT(*) > 0 FROM sbtest1) + (SELECT COUNT(*) > 0 FROM sbtest2)' benchtest 2>/dev/null)\" = 2 ]" \
    WL=bulk_insert crash_run kill-bulk "--userstat=1" &&
python3 - "$w/kill-bulk.json" "$(sql 'SELECT (SELECT COUNT(*) FROM sbtest1) + (SELECT COUNT(*) FROM sbtest2) + (SELECT COUNT(*) FROM sbtest3) + (SELECT COUNT(*) FROM sbtest4)')" <<'PY' && ok "bulk_insert: ranges" || bad "bulk_insert: ranges"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]
v, rows = o["verify_writes"], int(sys.argv[2])
bpr = v["ledger_bytes"] / max(v["acknowledged"], 1)
print("outage: bulk_insert: acked", v["acknowledged"], "lost", v["lost"], "unknown", v["unknown"],
      "found", v["unknown_present"], "rows", rows, "ledger %d bytes, %.4f per row" % (v["ledger_bytes"], bpr),
      "errors", o["errors"])
# under a byte per row, or (a loaded host: fewer rows) the arrays never grew past their first
# 1,024 entries of 40 bytes per client
sys.exit(0 if v["checked"] and v["acknowledged"] > 1000 and v["lost"] == 0 and (bpr < 1 or v["ledger_bytes"] <= 4 * 1024 * 40)
         and o["errors"]["lost"] >= 1 and rows == v["acknowledged"] - v["lost"] + v["unknown_present"] else 1)
PY
sql "DROP TABLE sbtest2, sbtest3, sbtest4"
# (4) read-only: a user without READ_ONLY ADMIN is refused with 1290
sql "DROP TABLE sbtest1"
"$B" oltp_insert $C --table-size=0 prepare >/dev/null
sql "CREATE USER ro@'%' IDENTIFIED BY 'ro'; GRANT SELECT, INSERT, DELETE, UPDATE ON benchtest.* TO ro@'%'"
sql "SET GLOBAL general_log_file='$w/general.log'; SET GLOBAL general_log=1"
inserts() { grep -c 'INSERT INTO sbtest1' "$w/general.log" || true; }
"$B" oltp_insert --mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=ro --mysql-password=ro \
    --mysql-db=benchtest --auto-inc=off --threads=2 --events=3000 --time=20 --rate=2000 \
    --mysql-ignore-errors=1290 --outage-report --format=json run >"$w/ro.json" 2>"$w/ro.err" &
bpid=$!
t_wait 10 sh -c "[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e 'SELECT COUNT(*) FROM sbtest1' benchtest)\" -gt 100 ]" || bad "ro: no rows"
sql 'SET GLOBAL read_only=1'
r0=$(rows)
t_wait 10 sh -c "[ \"\$(grep -c 'INSERT INTO sbtest1' '$w/general.log')\" -gt $((r0 + 500)) ]" || bad "ro: no refused INSERTs"
sql 'SET GLOBAL read_only=0'
wait "$bpid" || bad "ro: bench exited $?"
sql 'SET GLOBAL general_log=0'
python3 - "$w/ro.json" "$(inserts)" "$(rows)" <<'PY' && ok "read-only classified" || bad "read-only classified"
import json, sys
doc = [json.loads(l) for l in open(sys.argv[1])][-1]
o = doc["outage"]
tried, rows = int(sys.argv[2]), int(sys.argv[3])
ro = o["errors"]["read_only"]
print("outage: read_only errors", ro, "server: INSERTs received", tried, "rows", rows, "errors", o["errors"])
ok = ro > 0 and ro == tried - rows and all(w["class"] == "read_only" for c in o["clients"] for w in c["windows"])
sys.exit(0 if ok else 1)
PY
U="--mysql-user=nat --mysql-password=secret --mysql-db=benchtest"
"$B" oltp_insert --mysql-host=127.0.0.1, --mysql-port="$port" $U --time=1 run >"$w/empty.out" 2>&1
[ $? = 2 ] && grep -q "empty host" "$w/empty.out" && ok "--mysql-host=a,: a usage error" || bad "--mysql-host=a,: a usage error"
# (7) deadlocks only (8 clients on 10 rows): counted, no window, no client with an outage, no
# recovery measured (they crowded out the real windows: 1487 for 16 clients on a healthy server)
sql 'DROP TABLE sbtest1'
"$B" oltp_write_only $C --table-size=10 prepare >/dev/null
"$B" oltp_write_only $C --table-size=10 --threads=8 --time=1 --mysql-ignore-errors=1213,1205,1020 \
    --outage-report --format=json run >"$w/dl.json" 2>"$w/dl.err" || bad "deadlocks: bench exited $?"
python3 - "$w/dl.json" <<'PY' && ok "deadlocks: no windows" || bad "deadlocks: no windows"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]
print("outage: deadlocks:", o["errors"], "windows", [c["windows_total"] for c in o["clients"]], "first", o["first_failure_unix_ns"], "recovery", o["recovery_s"])
sys.exit(0 if o["errors"]["deadlock"] > 0 and all(c["windows_total"] == 0 for c in o["clients"]) and o["first_failure_unix_ns"] == 0 and o["recovery_s"] is None else 1)
PY
# (8) a hung server (SIGSTOP): with --mysql-io-timeout=1 each client's window opens at its
# failed statement's send (the stop, not the timeout 1 s later); held until every client
# gave up its connection (the server's sockets in CLOSE-WAIT: 4). Then, with no timeout, a
# stop of 1.5 s (the stimulus' length, timed) is a stall of each client, no window
sql 'DROP TABLE sbtest1'
"$B" oltp_insert $C --table-size=0 prepare >/dev/null
spid=$(cat "$mdb/pid")
cw() { ss -Htn state close-wait "( sport = :$port )" | wc -l; }
hang() { # hang NAME HOLD BENCH_ARGS...: HOLD: "cw" (until 4 CLOSE-WAIT) or seconds
    name=$1 hold=$2; shift 2
    "$B" oltp_insert $C --auto-inc=off --threads=4 --time=3 --outage-report --format=json \
        --mysql-ignore-errors=2013,2006,1205 "$@" run >"$w/$name.json" 2>"$w/$name.err" &
    bpid=$!
    r0=$(rows)
    t_wait 10 sh -c "[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e 'SELECT COUNT(*) FROM sbtest1' benchtest)\" -gt $((r0 + 200)) ]" || bad "$name: no rows"
    ts=$(date +%s%N); kill -STOP "$spid"
    if [ "$hold" = cw ]; then t_wait 10 sh -c "[ \$(ss -Htn state close-wait '( sport = :$port )' | wc -l) -ge 4 ]" || bad "$name: the clients kept their connections"
    else t_wait 10 python3 -c "import time, sys; sys.exit(time.time_ns() < $ts + $hold * 10**9)"; fi
    kill -CONT "$spid"; tc=$(date +%s%N)
    wait "$bpid" || bad "$name: bench exited $?"
    echo "$ts $tc" >"$w/$name.t"
}
hang stop-to cw --mysql-io-timeout=1
python3 - "$w/stop-to.json" "$w/stop-to.t" <<'PY' && ok "hang: windows from the stop" || bad "hang: windows from the stop"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]
ts, tc = (int(x) for x in open(sys.argv[2]).read().split())
ws = [w for c in o["clients"] for w in c["windows"]]
print("outage: hang with --mysql-io-timeout=1: stopped %.3f s, windows (start from the stop)" % ((tc - ts) / 1e9), ["%s %+.3f" % (w["class"], (w["start_unix_ns"] - ts) / 1e9) for w in ws], o["errors"])
sys.exit(0 if len(ws) == 4 and all(w["class"] == "timeout" and abs(w["start_unix_ns"] - ts) < 0.1e9 and w["end_unix_ns"] for w in ws) else 1)
PY
hang stall 1.5
python3 - "$w/stall.json" "$w/stall.t" <<'PY' && ok "hang: stalls" || bad "hang: stalls"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]
ts, tc = (int(x) for x in open(sys.argv[2]).read().split())
print("outage: hang, no timeout: stopped %.3f s; stalls" % ((tc - ts) / 1e9), o["stalls"], "longest", o["stall_longest_s"], "windows", sum(c["windows_total"] for c in o["clients"]))
sys.exit(0 if o["stalls"] >= 4 and 1.0 < o["stall_longest_s"] < (tc - ts) / 1e9 + 1.5 and not any(c["windows_total"] for c in o["clients"]) else 1)
PY
# (9) a partial outage: client 1 through tests/cutproxy.py, client 0 direct; the proxy cut
# (its connections shut, new ones held silent): client 1 alone has a window, from the cut; its
# reconnect's login to the silent proxy gives up after 1 s (a list of servers) and moves on to
# the direct one (it waited the whole --mysql-connect-timeout, 10 s: never back in the run)
python3 "$top/tests/cutproxy.py" 0 "$port" >"$w/proxy2.out" 2>&1 &
echo $! >"$w/proxy.pid"
t_wait 5 grep -q ready "$w/proxy2.out" || bad "partial: the proxy"
px=$(sed -n 's/^ready //p' "$w/proxy2.out")
r0=$(rows)
"$B" oltp_insert --mysql-host=127.0.0.1 --mysql-port="$port,$px" $U --auto-inc=off --threads=2 --time=4 \
    --outage-report --verify-writes --mysql-ignore-errors=2013,2006 --format=json run >"$w/part.json" 2>"$w/part.err" &
bpid=$!
t_wait 10 sh -c "[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e 'SELECT COUNT(*) FROM sbtest1' benchtest)\" -gt $((r0 + 100)) ]" || bad "partial: no rows"
tc=$(date +%s%N); kill -USR1 "$(cat "$w/proxy.pid")"
wait "$bpid" || { bad "partial: bench exited $?"; head -5 "$w/part.err"; }
kill "$(cat "$w/proxy.pid")"; rm -f "$w/proxy.pid"
python3 - "$w/part.json" "$tc" "$(rows)" "$r0" <<'PY' && ok "partial outage: client 1 alone, back via the next server" || bad "partial outage: client 1 alone, back via the next server"
import json, sys
o = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]
tc, rows, r0 = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
v = o["verify_writes"]
c0, c1 = o["clients"]
ws = c1["windows"]
print("outage: partial: client 0 windows", c0["windows_total"], "client 1", ["%s %+.3f..%s" % (w["class"], (w["start_unix_ns"] - tc) / 1e9, w["end_unix_ns"] and "%+.3f" % ((w["end_unix_ns"] - tc) / 1e9)) for w in ws], "never back", o["never_back"], "acked", v["acknowledged"], "lost", v["lost"], "rows", rows - r0)
ok = c0["windows_total"] == 0 and c1["windows_total"] == 1 and len(ws) == 1 and abs(ws[0]["start_unix_ns"] - tc) < 0.1e9 and \
     ws[0]["end_unix_ns"] and 0.9e9 < ws[0]["end_unix_ns"] - tc < 2.5e9 and not o["never_back"] and v["checked"] and v["lost"] == 0 and \
     rows - r0 == v["acknowledged"] + v["unknown_present"]
sys.exit(0 if ok else 1)
PY
# (10) slap --verify-writes (its generated INSERTs, autocommitted): a clean run loses none,
# checked by id (--auto-generate-sql-add-autoincrement) and by count (no key); 7 acknowledged
# rows deleted behind bench's back mid-run (a second connection): exactly 7 lost, by id the 7
# named; a client's connection killed mid-run (slap does not reconnect: exit 1, audited all
# the same before the schema goes): none lost, its statement in flight unknown at most
S="--host=127.0.0.1 --port=$port --user=nat --password=secret"
slapv() { # slapv NAME ARGS...: a write load; JSON in $w/NAME.json, exit status in $w/NAME.rc
    name=$1; shift
    "$B" slap $S -a --auto-generate-sql-load-type=write --concurrency=4 --verify-writes --format=json "$@" >"$w/$name.json" 2>"$w/$name.err"
    echo $? >"$w/$name.rc"
}
# vjudge NAME RC ACKED LOST UNKNOWN_MAX [IDS]: the run's verify facts
vjudge() {
    python3 - "$w/$1.json" "$(cat "$w/$1.rc")" "$2" "$3" "$4" "$5" "${6:-}" <<'PY'
import json, sys
f = [json.loads(l) for l in open(sys.argv[1])][-1]["facts"]
rc, want_rc, acked, lost, unk, ids = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
print("outage: slap", sys.argv[1].split("/")[-1], "exit", rc, {k: v for k, v in f.items() if k.startswith("verify")})
ok = rc == want_rc and f["verify_lost"] == lost and f["verify_unknown"] <= unk and f["verify_not_checked"] == 0
ok = ok and (f["verify_acknowledged"] == int(acked) if acked.isdigit() else f["verify_acknowledged"] >= int(acked[1:]))
if ids:
    ok = ok and sorted(f["verify_lost_ids"].split(",")) == sorted(ids.split(","))
sys.exit(0 if ok else 1)
PY
}
slapv s-id --auto-generate-sql-add-autoincrement --number-of-queries=2000
vjudge s-id 0 2000 0 0 && ok "slap: a clean run, by id: none lost" || bad "slap: a clean run, by id: none lost"
slapv s-n --number-of-queries=2000
vjudge s-n 0 2000 0 0 && ok "slap: a clean run, by count: none lost" || bad "slap: a clean run, by count: none lost"
slaprows() { mariadb --no-defaults -uroot -S "$mdb/sock" -N -B -e 'SELECT COUNT(*) FROM mysqlslap.t1' 2>/dev/null || echo 0; }
# midrun NAME ACTION ARGS...: a longer run; ACTION (a shell function) once 1000 rows are in
midrun() {
    name=$1 act=$2; shift 2
    slapv "$name" --number-of-queries=12000 "$@" &
    spid=$!
    t_wait 20 sh -c "[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e 'SELECT COUNT(*) FROM mysqlslap.t1' 2>/dev/null || echo 0)\" -gt 1000 ]" || bad "slap $name: no rows"
    $act
    wait "$spid"
}
del7() { # 7 rows the clients inserted (ids past the pre-load's 99), their ids in $w/del.ids
    sql "SELECT GROUP_CONCAT(id) FROM (SELECT id FROM mysqlslap.t1 WHERE id > 500 ORDER BY id LIMIT 7) x" >"$w/del.ids"
    [ "$(sql "DELETE FROM mysqlslap.t1 WHERE id IN ($(cat "$w/del.ids")); SELECT ROW_COUNT()")" = 7 ] || bad "slap: the test's DELETE"
}
del7n() { [ "$(sql "DELETE FROM mysqlslap.t1 LIMIT 7; SELECT ROW_COUNT()")" = 7 ] || bad "slap: the test's DELETE"; }
kill1() { # the newest connection of the user: a client's (they log in after the main one)
    sql "KILL $(sql "SELECT MAX(id) FROM information_schema.processlist WHERE user = 'nat'")"
}
midrun s-del del7 --auto-generate-sql-add-autoincrement
vjudge s-del 0 12000 7 0 "$(cat "$w/del.ids")" && ok "slap: 7 rows deleted behind its back: those 7 lost" || bad "slap: 7 rows deleted behind its back: those 7 lost"
midrun s-deln del7n
vjudge s-deln 0 12000 7 0 && ok "slap: 7 rows deleted, by count: 7 lost" || bad "slap: 7 rows deleted, by count: 7 lost"
midrun s-kill kill1 --auto-generate-sql-add-autoincrement
vjudge s-kill 1 '>1000' 0 1 && grep -q "client" "$w/s-kill.err" && ok "slap: a client's connection killed: none lost, exit 1" || { bad "slap: a client's connection killed: none lost, exit 1"; head -3 "$w/s-kill.err"; }
# (5) a server that does not come back: each client tries for --mysql-reconnect-timeout=1, then
# stops, and is named as never back (its window open: end null); the run ends before --time
# and with --verify-writes the audit retries the server (10 s): SIGINT then stops it: exit 1,
# "interrupted", not checked, the ledger's acknowledged count given (the workers joined: bench
# has one thread left)
# (5b) beside it, the same in a database of its own (bt2), left alone: its audit finds no
# server (10 s of tries): the acknowledged writes not checked, none lost, the server and the
# reason said, exit 1 (--verify-writes asked for a proof it could not give)
sql 'TRUNCATE sbtest1; CREATE DATABASE bt2'
"$B" oltp_insert ${C%benchtest}bt2 --table-size=0 prepare >/dev/null
"$B" oltp_insert ${C%benchtest}bt2 --auto-inc=off --threads=2 --time=20 --mysql-ignore-errors=2013,2006 \
    --mysql-reconnect-timeout=1 --verify-writes --format=json run >"$w/nc.json" 2>"$w/nc.err" &
apid=$!
"$B" oltp_insert $C --auto-inc=off --threads=4 --time=20 --mysql-ignore-errors=2013,2006 \
    --mysql-reconnect-timeout=1 --outage-report --verify-writes --format=json run >"$w/gone.json" 2>"$w/gone.err" &
bpid=$!
t_wait 10 sh -c "[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e 'SELECT COUNT(*) FROM sbtest1' benchtest)\" -gt 100 ]" || bad "gone: no rows"
t_wait 10 sh -c "[ \"\$(mariadb --no-defaults -uroot -S '$mdb/sock' -N -B -e 'SELECT COUNT(*) FROM sbtest1' bt2)\" -gt 100 ]" || bad "not checked: no rows"
sh "$top/tests/mariadb.sh" kill "$mdb" >/dev/null
t_wait 10 sh -c "[ \$(ls /proc/$bpid/task | wc -l) -eq 1 ]" || bad "gone: the workers did not end"
kill -INT "$bpid"
wait "$bpid"; rc=$?
[ $rc = 1 ] && grep -q interrupted "$w/gone.err" && ok "SIGINT in the audit: exit 1, interrupted" || { bad "SIGINT in the audit: exit $rc"; cat "$w/gone.err"; }
python3 - "$w/gone.json" <<'PY' && ok "never back, named" || bad "never back, named"
import json, sys
doc = [json.loads(l) for l in open(sys.argv[1])][-1]
o = doc["outage"]
v = o["verify_writes"]
print("outage: the audit interrupted:", v)
if v["checked"] or v["acknowledged"] < 100 or "interrupted" not in (v["error"] or ""):
    sys.exit(1)
ws = [w for c in o["clients"] for w in c["windows"]]
print("outage: gone:", o["never_back"], "never back; windows", len(ws), "ends", [w["end_unix_ns"] for w in ws],
      "longest %.2f s, run %.2f s" % (o["longest_s"], doc["results"]["total_time_s"]))
sys.exit(0 if o["never_back"] == 4 and len(ws) == 4 and all(w["end_unix_ns"] is None for w in ws)
         and 1 <= o["longest_s"] < 3 and doc["results"]["total_time_s"] < 15 else 1)
PY
wait "$apid"; rc=$?
python3 - "$w/nc.json" "$rc" "$w/nc.err" "$port" <<'PY' && ok "an unreachable audit: not checked, exit 1" || { bad "an unreachable audit: not checked, exit 1"; cat "$w/nc.err"; }
import json, sys
v = [json.loads(l) for l in open(sys.argv[1])][-1]["outage"]["verify_writes"]
err = open(sys.argv[3]).read()
print("outage: the audit's server gone: exit", sys.argv[2], v, err.strip().splitlines()[:1])
sys.exit(0 if sys.argv[2] == "1" and not v["checked"] and v["lost"] == 0 and v["acknowledged"] > 100 and
         v["unknown"] == 2 and v["unknown_present"] == 0 and
         v["not_checked"] == v["acknowledged"] and "127.0.0.1:%s" % sys.argv[4] in v["error"] and
         "%d of %d acknowledged writes not checked" % (v["acknowledged"], v["acknowledged"]) in err else 1)
PY
t_summary
