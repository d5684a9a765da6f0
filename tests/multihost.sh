#!/bin/sh
# Many client hosts as one run (docs/multi-host.md): network namespaces as hosts, each with
# its own address and Debian's sshd, a MariaDB of the test's in the root namespace; the doc's
# GNU parallel and Ansible recipes run as written (extracted from the doc, so it cannot
# drift), with the suite's settings in place of the doc's first block. Asserts no duplicate
# key, no lost row (rows == the clients' inserts == Com_insert delta), merged counts == the
# sum of the parts, each client's JSON naming itself; and the Kubernetes Job manifest field by
# field, its command line the ssh recipe's. Namespaces, links, sshd, keys and the server are
# removed on exit, also on failure or a signal.
set -u
t_name=multihost t_tmp=/tmp/bmh.XXXXXX # short: the sockets' paths are under it
. "$(dirname "$0")/lib.sh"
doc=$top/docs/multi-host.md

# the Kubernetes manifest: no root, no server needed (python3-yaml)
. "$top/tests/multihost_lib.sh"
t_at_exit() { mh_down; [ -z "${DBDIR:-}" ] || sh "$top/tests/mariadb.sh" stop "$DBDIR"; }
# a signal ends the recipe running in the background (wait returns at once), then EXIT cleans
rpid=""
trap '[ -n "$rpid" ] && kill "$rpid" 2>/dev/null; exit 130' INT
trap '[ -n "$rpid" ] && kill "$rpid" 2>/dev/null; exit 143' TERM
python3 "$top/tests/multihost_doc.py" extract "$doc" "$w/doc" || { echo "multihost: cannot extract the recipes of $doc"; exit 1; }
if python3 -c 'import yaml' 2>/dev/null; then
    # the ssh recipe's command lines under the doc's own settings (START fixed)
    (cd "$w/doc" && START=2026-12-02T14:00:00Z && . ./settings.sh &&
        eval "$(grep -E '^(PREP|ARGS)=' parallel.sh)" &&
        { printf '%s\n' $ARGS --client-index=0 run; echo --; printf '%s\n' $PREP --client-index=0 prepare; }) >"$w/ssh.args"
    if python3 "$top/tests/multihost_doc.py" k8s "$w/doc/bench-job.yaml" "$w/ssh.args" "$w/doc/settings.sh"; then ok; else bad "the Kubernetes manifest"; fi
else
    bad "python3-yaml is missing: the Kubernetes manifest is not checked (tests/setup.sh installs it)"
fi

# --client-index/--client-count: usage errors (exit 2), no server needed
usage() { # usage MESSAGE ARGS...: exit 2 and MESSAGE
    msg=$1; shift
    out=$("$B" oltp_insert --no-defaults --mysql-host=127.0.0.1 --mysql-port=1 "$@" run 2>&1 >/dev/null); rc=$?
    if [ $rc = 2 ] && echo "$out" | grep -qF -- "$msg"; then ok; else bad "usage error for $*: exit $rc: $out"; fi
}
usage "--client-index=1 without --client-count" --client-index=1
usage "--client-count=2 without --client-index" --client-count=2 --rand-seed=1
usage "--client-index=2: must be below --client-count=2" --client-index=2 --client-count=2 --rand-seed=1
usage "--client-count=0: must be at least 1" --client-index=0 --client-count=0
usage "--client-count=3 needs --rand-seed" --client-index=0 --client-count=3

[ "$(id -u)" = 0 ] || { echo "multihost: SKIP: not root (network namespaces need CAP_NET_ADMIN); $pass passed, $fail failed"; [ $fail = 0 ] && exit 77; exit 1; }
miss=""
for c in ip sshd ssh scp ssh-keygen parallel ansible-playbook ansible mariadb gcc; do
    command -v $c >/dev/null 2>&1 || [ -x /usr/sbin/$c ] || miss="$miss $c"
done
[ -z "$miss" ] || { echo "multihost: SKIP: missing$miss (tests/setup.sh installs openssh-server openssh-client parallel ansible-core iproute2)"; exit 77; }

NH=${MH_HOSTS:-3}
mh_up "$w" "$NH" 1 || { bad "the namespace hosts could not be made"; echo "multihost: $pass passed, $fail failed"; exit 1; }
[ "$MH_NETEM" = none ] || echo "multihost: netem: $MH_NETEM"
PORT=${MH_PORT:-$((27100 + $$ % 800))} # below the ephemeral range (tests/run.sh)
DBDIR=$w/db
BENCH_MY_BIND_EXTRA=10.213.0.1 sh "$top/tests/mariadb.sh" start "$DBDIR" "$PORT" >"$w/db.env" ||
    { bad "the test's MariaDB did not start"; echo "multihost: $pass passed, $fail failed"; exit 1; }
PORT=$(sed -n 's/.*BENCH_MY_PORT=\([0-9]*\).*/\1/p' "$w/db.env") # the one it took
ROOT="mariadb --no-defaults -uroot -S $DBDIR/sock"
$ROOT -e "CREATE DATABASE mh"
# every client host reaches the server through the bridge
i=1
while [ $i -le "$NH" ]; do
    ip netns exec "bmh$i" "$B" ping --no-defaults -h 10.213.0.1 -P "$PORT" -u nat -psecret --count=1 >/dev/null 2>&1 ||
        bad "bmh$i cannot reach the server at 10.213.0.1:$PORT"
    i=$((i + 1))
done

# a client other than 0 waits for client 0's tables, and says which when the wait runs out;
# its header and JSON name it
DB1="--no-defaults --mysql-host=127.0.0.1 --mysql-port=$PORT --mysql-user=nat --mysql-password=secret --mysql-db=mh"
"$B" oltp_insert $DB1 --auto-inc=off --rand-seed=5 --client-index=1 --client-count=2 --client-wait=1 prepare >/dev/null 2>"$w/wait.err"; rc=$?
[ $rc = 1 ] && grep -q "client 1 of 2: table 'sbtest1' on .* is not there after --client-wait=1 s" "$w/wait.err" && ok || { bad "client 1's prepare without client 0 (exit $rc)"; cat "$w/wait.err"; }
("$B" oltp_insert $DB1 --auto-inc=off --rand-seed=5 --client-index=1 --client-count=2 --client-wait=30 prepare >"$w/wait.out" 2>&1; echo $? >"$w/wait.rc") &
t_wait 20 grep -q "Waiting for client 0 of 2" "$w/wait.out" || :
"$B" oltp_insert $DB1 --auto-inc=off --rand-seed=5 --client-index=0 --client-count=2 prepare >/dev/null 2>&1 || bad "client 0's prepare"
wait
[ "$(cat "$w/wait.rc")" = 0 ] && grep -q "Waiting for client 0 of 2 to prepare 'sbtest1'" "$w/wait.out" && ok || { bad "client 1's prepare waiting for client 0"; cat "$w/wait.out"; }
"$B" oltp_insert $DB1 --auto-inc=off --rand-seed=5 --client-index=1 --client-count=2 --events=10 --time=0 run >"$w/c1.out" 2>&1 &&
    grep -q '^Client 2 of 2 (client index 1): one run of 2 threads in all$' "$w/c1.out" && ok || { bad "client 1's run header"; head -8 "$w/c1.out"; }
"$B" oltp_insert $DB1 --auto-inc=off --rand-seed=5 --client-index=0 --client-count=2 --events=10 --time=0 --format=json run >"$w/c0.json" 2>&1 &&
    python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["facts"]; sys.exit(0 if (f["client_index"], f["client_count"]) == (0, 2) else 1)' "$w/c0.json" &&
    ok || { bad "client 0's JSON facts"; head -c 600 "$w/c0.json"; }
# the two clients' 10 inserts each: 20 distinct ids, 10 from each lane
[ "$($ROOT -N mh -e "SELECT COUNT(DISTINCT id) FROM sbtest1")" = 20 ] && ok || bad "two clients' 10 inserts each are not 20 rows"
"$B" oltp_insert $DB1 --rand-seed=5 --client-index=1 --client-count=2 cleanup 2>&1 | grep -q "client 1 of 2 leaves the tables to client 0" &&
    [ "$($ROOT -N mh -e "SHOW TABLES" | wc -l)" = 1 ] && ok || bad "client 1's cleanup touched the tables"
"$B" oltp_insert $DB1 --rand-seed=5 --client-index=0 --client-count=2 cleanup >/dev/null 2>&1 &&
    [ -z "$($ROOT -N mh -e "SHOW TABLES")" ] && ok || bad "client 0's cleanup"

# the suite's settings in place of the doc's (the names of the namespace hosts, the server);
# --start-at-force: the kernel here may call its clock unsynchronized (one clock for all hosts)
ctl=$w/h0
cp "$B" "$ctl/bench"
HOSTS=$(i=1; while [ $i -le "$NH" ]; do printf 'bmh%s ' $i; i=$((i + 1)); done)
cat >"$ctl/settings.sh" <<EOF
HOSTS="$HOSTS"
N=\$(echo \$HOSTS | wc -w)
DB="--no-defaults --mysql-host=10.213.0.1 --mysql-port=$PORT --mysql-user=nat --mysql-password=secret --mysql-db=mh"
RUN="oltp_insert --auto-inc=off --tables=2 --threads=2 --time=4 --rand-seed=42 --start-at-force"
LEAD=${MH_LEAD:-60}
EOF
cp "$w/doc/parallel.sh" "$w/doc/ansible.sh" "$w/doc/cleanup.sh" "$w/doc/bench.yml" "$ctl/"

status() { $ROOT -N -e "SHOW GLOBAL STATUS LIKE 'Com_insert'" | awk '{print $2}'; }
recipe() { # recipe NAME: run the doc's recipe NAME in the controller, then check its result
    name=$1
    rm -f "$ctl"/client*.json
    before=$(status)
    (cd "$ctl" && exec ip netns exec bmh0 env HOME="$ctl" LC_ALL=C.UTF-8 sh -c ". ./settings.sh && . ./$name.sh") >"$w/$name.out" 2>"$w/$name.err" &
    rpid=$!
    if wait "$rpid"; then ok; else
        bad "the $name recipe failed"; tail -20 "$w/$name.out"; tail -20 "$w/$name.err"; fi
    rpid=""
    after=$(status)
    rows=$($ROOT -N mh -e "SELECT (SELECT COUNT(*) FROM sbtest1) + (SELECT COUNT(*) FROM sbtest2)" 2>&1)
    if python3 "$top/tests/multihost_doc.py" check "$NH" "$rows" "$((after - before))" "$w/$name.out" "$ctl"/client*.json; then ok; else
        bad "$name: the clients' results (above)"; fi
    (cd "$ctl" && mh_ctl sh -c ". ./settings.sh && . ./cleanup.sh") >"$w/$name.clean" 2>&1 || { bad "$name: cleanup"; cat "$w/$name.clean"; }
    [ -z "$($ROOT -N mh -e "SHOW TABLES")" ] && ok || bad "$name: cleanup left tables"
}
recipe parallel
recipe ansible
# each host ran its own copy of the binary (scp bench host:), in its own home
i=1
while [ $i -le "$NH" ]; do
    cmp -s "$B" "$w/h$i/bench" && ok || bad "bmh$i has no copy of bench in its home"
    i=$((i + 1))
done
# bench slap from two namespace hosts as one run (docs/multi-host.md): client 1 started first
# waits for client 0's schema; 2 x 2 clients of 10 INSERTs each, 99 pre-loaded, no
# duplicate autoincrement id; the schema is left for the operator to drop
mh_slap() {
    $ROOT -e "DROP DATABASE IF EXISTS mhslap"
    S="slap --no-defaults -h 10.213.0.1 -P $PORT -u nat -psecret --skip-ssl -a --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=write -c 2 --auto-generate-sql-execute-number=10 --create-schema=mhslap --rand-seed=3 --client-count=2"
    (ip netns exec bmh2 "$B" $S --client-index=1 >"$w/slap1.out" 2>&1; echo $? >"$w/slap1.rc") &
    ip netns exec bmh1 "$B" $S --client-index=0 >"$w/slap0.out" 2>&1; rc=$?
    wait
    if [ $rc = 0 ] && [ "$(cat "$w/slap1.rc")" = 0 ] && grep -q "Client 2 of 2 (client index 1): one run of 4 clients in all" "$w/slap1.out" &&
        [ "$($ROOT -N mhslap -e "SELECT COUNT(*), COUNT(DISTINCT id) FROM t1")" = "$(printf '139\t139')" ]; then ok; else
        bad "slap from two hosts: exit $rc, $(cat "$w/slap1.rc"): $($ROOT -N mhslap -e "SELECT COUNT(*), COUNT(DISTINCT id) FROM t1" 2>&1) (139 expected)"; cat "$w/slap0.out" "$w/slap1.out"; fi
    $ROOT -e "DROP DATABASE IF EXISTS mhslap"
}
mh_slap
t_summary "$NH hosts; "
