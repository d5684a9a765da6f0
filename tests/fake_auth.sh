#!/bin/sh
# MySQL 8 authentication paths against tests/fakemysql.py. First the fake server is proven
# right by an independent client, Debian's `mariadb` (libmariadb has caching_sha2_password
# and sha256_password client plugins); then bench logs in through every path.
# Needs python3-cryptography, openssl and mariadb-client; exits 77 without them.
set -u
t_name=fake_auth
. "$(dirname "$0")/lib.sh"
command -v mariadb >/dev/null && command -v openssl >/dev/null &&
    python3 -c 'import cryptography' 2>/dev/null || { echo "fake_auth: SKIP: needs mariadb-client, openssl, python3-cryptography"; exit 77; }
pids=""
t_at_exit() { for p in $pids; do kill "$p" 2>/dev/null; done; }
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$w/rsa.pem" 2>/dev/null
openssl rsa -in "$w/rsa.pem" -pubout -out "$w/rsa.pub" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -keyout "$w/tls.key" -out "$w/tls.pem" 2>/dev/null

# each fake server listens on a port the kernel picks (a fixed one may be someone else's) and
# writes it to $w/NAME.port; taken into $NAME once it is there
names=""
start() { # start NAME ARGS... : a fake server, its port in $NAME once started
    name=$1
    shift
    python3 "$top/tests/fakemysql.py" --port-file "$w/$name.port" --rsa-key "$w/rsa.pem" "$@" 2>"$w/fake.$name.err" &
    pids="$pids $!" names="$names $name"
}
start FAST --plugin caching_sha2_password
start FULL --plugin caching_sha2_password --full
start FULLTLS --plugin caching_sha2_password --full --tls "$w/tls.pem" "$w/tls.key"
start SWITCH --plugin caching_sha2_password --full --switch
start SHA256 --plugin sha256_password
start SHA256TLS --plugin sha256_password --tls "$w/tls.pem" "$w/tls.key"
start NOPW --plugin caching_sha2_password --full --password ""
start CLEAR --plugin mysql_clear_password --switch
start CLEARTLS --plugin mysql_clear_password --switch --tls "$w/tls.pem" "$w/tls.key"
start SILENT --silent
t_end=$(($(date +%s) + 90)) # one deadline for all: the ten start at once and share the CPU
set -- $pids
for n in $names; do
    until [ -s "$w/$n.port" ]; do
        kill -0 "$1" 2>/dev/null || { echo "fake_auth: the fake server $n exited at its start"; cat "$w/fake.$n.err"; exit 1; }
        [ "$(date +%s)" -lt $t_end ] || { echo "fake_auth: the fake server $n did not start within 90 s"; cat "$w/fake.$n.err"; exit 1; }; sleep 0.1; done
    eval "$n=$(cat "$w/$n.port")"
    shift
done

expect() { # expect 0|1 DESCRIPTION CMD...: the command must succeed (0) or fail (1)
    want=$1 what=$2; shift 2
    if "$@" >"$w/out" 2>&1; then got=0; else got=1; fi
    if [ "$got" = "$want" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "fake_auth: FAIL: $what (exit $got, wanted $( [ $want = 0 ] && echo success || echo failure))"; sed 's/^/    /' "$w/out"; fi
}
mdb() { mariadb --no-defaults -h127.0.0.1 -ualice -e 'select 1' "$@"; }
M=mdb
# 1. the oracle: an independent client agrees with the fake server
expect 0 "mariadb: caching_sha2 fast path" $M -P$FAST -psecret --skip-ssl
expect 1 "mariadb: caching_sha2 wrong password" $M -P$FAST -pwrong --skip-ssl
expect 0 "mariadb: caching_sha2 full auth, RSA key request" $M -P$FULL -psecret --skip-ssl
expect 0 "mariadb: caching_sha2 full auth over TLS" $M -P$FULLTLS -psecret --ssl
expect 0 "mariadb: native -> caching_sha2 switch" $M -P$SWITCH -psecret --skip-ssl
expect 0 "mariadb: sha256_password, RSA" $M -P$SHA256 -psecret --skip-ssl
expect 1 "mariadb: sha256_password wrong password" $M -P$SHA256 -pwrong --skip-ssl

# 2. bench through every path (ping logs in, then COM_PING / COM_QUERY round trips)
P="$B ping --no-defaults -h 127.0.0.1 -u alice --count=2"
expect 0 "bench: caching_sha2 fast path" $P -P $FAST -psecret --ssl-mode=DISABLED
expect 1 "bench: caching_sha2 wrong password" $P -P $FAST -pwrong --ssl-mode=DISABLED
grep -q "ERROR 1045 (28000): Access denied for user 'alice'" "$w/out" || { fail=$((fail + 1)); echo "fake_auth: FAIL: 1045 not shown verbatim"; cat "$w/out"; }
expect 0 "bench: caching_sha2 full auth, RSA key request" $P -P $FULL -psecret --ssl-mode=DISABLED --get-server-public-key
expect 1 "bench: caching_sha2 full auth, no key request without --get-server-public-key" $P -P $FULL -psecret --ssl-mode=DISABLED
expect 0 "bench: caching_sha2 full auth, --server-public-key-path" $P -P $FULL -psecret --ssl-mode=DISABLED --server-public-key-path="$w/rsa.pub"
expect 0 "bench: caching_sha2 full auth over TLS (cleartext)" $P -P $FULLTLS -psecret --ssl-mode=REQUIRED
grep -q "caching_sha2_password as 'alice'" "$w/out" && grep -q "TLSv1.2" "$w/out" || { fail=$((fail + 1)); echo "fake_auth: FAIL: plugin or TLS not reported"; cat "$w/out"; }
expect 1 "bench: caching_sha2 full auth, wrong password over TLS" $P -P $FULLTLS -pwrong --ssl-mode=REQUIRED
expect 0 "bench: native -> caching_sha2 AuthSwitchRequest" $P -P $SWITCH -psecret --ssl-mode=DISABLED --get-server-public-key
expect 0 "bench: sha256_password, RSA key request" $P -P $SHA256 -psecret --ssl-mode=DISABLED --get-server-public-key
expect 1 "bench: sha256_password, no key request without --get-server-public-key" $P -P $SHA256 -psecret --ssl-mode=DISABLED
expect 0 "bench: sha256_password, --server-public-key-path" $P -P $SHA256 -psecret --ssl-mode=DISABLED --server-public-key-path="$w/rsa.pub"
expect 0 "bench: sha256_password over TLS (cleartext)" $P -P $SHA256TLS -psecret --ssl-mode=REQUIRED
expect 1 "bench: sha256_password wrong password" $P -P $SHA256 -pwrong --ssl-mode=DISABLED
expect 0 "bench: caching_sha2 empty password" $P -P $NOPW --ssl-mode=DISABLED
expect 1 "bench: mysql_clear_password refused over plain TCP" $P -P $CLEAR -psecret --ssl-mode=DISABLED
grep -q "asked for mysql_clear_password over plain TCP" "$w/out" || { fail=$((fail + 1)); echo "fake_auth: FAIL: clear_password refusal not explained"; cat "$w/out"; }
expect 0 "bench: mysql_clear_password over TLS" $P -P $CLEARTLS -psecret --ssl-mode=REQUIRED
# a server that accepts and never greets: the connect timeout bounds the login
expect 1 "bench: greeting timeout" $P -P $SILENT --mysql-connect-timeout=1
grep -q "timed out (ETIMEDOUT)" "$w/out" && grep -q "no answer within --mysql-connect-timeout=1 s" "$w/out" ||
    { fail=$((fail + 1)); echo "fake_auth: FAIL: timeout not reported"; cat "$w/out"; }
# 3. the OLTP workloads connect without TLS by default, as sysbench (issue 17): against a server
#    that offers TLS, caching_sha2's full authentication then needs a trusted RSA key (2061
#    with the hint); asked for, TLS carries it; ping keeps the mysql client's PREFERRED
W="$B oltp_point_select --no-defaults --mysql-host=127.0.0.1 --mysql-user=alice --mysql-password=secret --events=1 --time=0"
expect 1 "bench oltp_point_select: no TLS by default, full auth without a key" $W --mysql-port=$FULLTLS run
grep -q "^bench: oltp_point_select: login to 127.0.0.1:$FULLTLS failed for user 'alice': ERROR 2061 (HY000): Authentication plugin 'caching_sha2_password' reported error: Authentication requires secure connection.$" "$w/out" &&
    grep -q "^bench: hint: over plain TCP the password goes only to a trusted RSA key: use TLS (--ssl-mode=REQUIRED), give the key" "$w/out" ||
    { fail=$((fail + 1)); echo "fake_auth: FAIL: 2061 of a workload without TLS not explained"; cat "$w/out"; }
expect 0 "bench oltp_point_select --mysql-ssl=on: full auth over TLS" $W --mysql-port=$FULLTLS --mysql-ssl=on run
grep -q "^Server: 127.0.0.1:$FULLTLS (.*), TLSv1.2 " "$w/out" || { fail=$((fail + 1)); echo "fake_auth: FAIL: TLS not in the run header"; cat "$w/out"; }
expect 0 "bench oltp_point_select: full auth, --server-public-key-path" $W --mysql-port=$FULLTLS --server-public-key-path="$w/rsa.pub" run
grep -q "^Server: 127.0.0.1:$FULLTLS (.*), TCP, no TLS$" "$w/out" || { fail=$((fail + 1)); echo "fake_auth: FAIL: no TLS not in the run header"; cat "$w/out"; }
expect 0 "bench ping: PREFERRED by default, full auth over TLS" $P -P $FULLTLS -psecret
t_summary
