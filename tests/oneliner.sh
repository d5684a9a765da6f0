#!/bin/sh
# The one-liner's (`bench oltp -h HOST -u USER`) and ping's failure paths (issue 29: branch
# coverage of sizing_ with behaviour asserted): bad options refused before any connection
# (exit 2, one line naming the option); a user who may not create the schema (exit 3, the
# server's ERROR, no hint about an existing schema); a user who may create, load and drop but
# not SELECT (the ladder's first rung fails: exit 1, the workload and threads named, the
# schema dropped); a user who may create but neither INSERT nor DROP (the load fails, exit 3,
# and the schema bench could not drop is said as such, not claimed dropped). Each case ends
# before any ladder step runs or after its first: seconds. Needs the suite's MariaDB
# (BENCH_MY_* and root on its socket). Ends with "oneliner: N passed, N failed".
# shellcheck disable=SC2086,SC2015 # option lists split into words on purpose; ok || bad
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=${BENCH:-$top/bench}
[ -n "${BENCH_MY_PORT:-}" ] && [ -n "${BENCH_MY_SOCK:-}" ] ||
    { echo "oneliner: SKIP: BENCH_MY_PORT/BENCH_MY_SOCK unset (tests/mariadb.sh)"; exit 77; }
w=$(mktemp -d)
ROOT="mariadb --no-defaults -uroot -S $BENCH_MY_SOCK"
P=$BENCH_MY_PORT
# users and schemas of this suite only (names no other suite uses: suites share the server)
drop_all() {
    $ROOT -e "DROP USER IF EXISTS ol_none, ol_nosel, ol_create; DROP DATABASE IF EXISTS ol_nosel; DROP DATABASE IF EXISTS ol_create; DROP DATABASE IF EXISTS ol_none" 2>/dev/null
}
trap 'drop_all; rm -rf "$w"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "oneliner: FAIL: $*"; sed 's/^/    /' "$w/err"; }
# run NAME WANT_RC ARGS...: bench ARGS (30 s at most); its stderr in $w/err, stdout in $w/out
run() {
    n=$1 want=$2
    shift 2
    timeout -k 5 30 "$B" "$@" >"$w/out" 2>"$w/err"
    rc=$?
    [ $rc = "$want" ] && ok || bad "$n: exit $rc, wanted $want"
}
has() { grep -Eq -- "$2" "$w/err" && ok || bad "$1: no line matching '$2'"; }
hasnt() { grep -Eq -- "$2" "$w/err" && bad "$1: a line matching '$2'" || ok; }
schema() { $ROOT -N -e "SHOW DATABASES LIKE '$1'"; }

drop_all
$ROOT -e "CREATE USER ol_none IDENTIFIED BY 'pw1';
    CREATE USER ol_nosel IDENTIFIED BY 'pw2';
    GRANT CREATE, DROP, INSERT, INDEX, ALTER ON ol_nosel.* TO ol_nosel;
    CREATE USER ol_create IDENTIFIED BY 'pw3';
    GRANT CREATE ON ol_create.* TO ol_create" || { echo "oneliner: FAIL: creating the users"; exit 1; }
L="--no-defaults -h 127.0.0.1 -P $P --tables=1 --table-size=100 --step-time=1 --max-threads=2"

# 1. bad options: refused before any connection, exit 2, the option named
run "--step-time=43" 2 oltp $L -u nat -psecret --step-time=43
has "--step-time=43" "^bench: --step-time: .*43"
hasnt "--step-time=43: nothing ran" "created schema|loading"
run "-P 0 (oltp)" 2 oltp --no-defaults -h 127.0.0.1 -P 0 -u nat -psecret
has "-P 0 (oltp)" "^bench: --mysql-port: invalid port '0' \(expected 1\.\.65535\)"
run "-P 70000 (ping)" 2 ping --no-defaults -h 127.0.0.1 -P 70000 -u nat -psecret
has "-P 70000 (ping)" "^bench: --mysql-port: invalid port '70000' \(expected 1\.\.65535\)"

# 2. no CREATE privilege: the server's refusal, exit 3, no hint about an existing schema
run "no CREATE" 3 oltp $L -u ol_none -ppw1 -D ol_none
has "no CREATE" "^bench: oltp: creating schema 'ol_none' on 127\.0\.0\.1:$P failed: ERROR 1044 .*Access denied for user 'ol_none'"
hasnt "no CREATE: not called an existing schema" "never touches an existing one"
[ -z "$(schema ol_none)" ] && ok || bad "no CREATE: a schema ol_none exists"

# 3. no SELECT: the load works, the first rung fails: exit 1, the rung named with the
#    server's error; no rung in the table; the schema dropped all the same
run "no SELECT" 1 oltp $L -u ol_nosel -ppw2 -D ol_nosel
has "no SELECT" "^bench: oltp: oltp_point_select with 1 threads: .*ERROR 1142 .*SELECT command denied"
has "no SELECT: dropped" "^bench: oltp: dropped schema 'ol_nosel'"
grep -Eq "^oltp_(point_select|read_write) +[0-9]" "$w/out" && bad "no SELECT: a rung in the table" || ok
[ -z "$(schema ol_nosel)" ] && ok || bad "no SELECT: schema ol_nosel left"

# 4. CREATE only: the load fails (INSERT denied), exit 3; the schema bench could not drop is
#    said to be left (drop it yourself), never claimed dropped; it is there indeed
run "CREATE only" 3 oltp $L -u ol_create -ppw3 -D ol_create
has "CREATE only" "^bench: .*ERROR 1142 .*INSERT command denied"
has "CREATE only: left, said" "^bench: warning: oltp: dropping schema 'ol_create' failed: ERROR 1044 .*\(drop it yourself\)"
hasnt "CREATE only: not claimed dropped" "dropped schema 'ol_create'"
[ "$(schema ol_create)" = ol_create ] && ok || bad "CREATE only: schema ol_create is not there"

echo "oneliner: $pass passed, $fail failed"
[ $fail = 0 ]
