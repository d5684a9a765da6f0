#!/bin/sh
# bench ping on PostgreSQL (issue 32, part 1): the pgc_ client against Debian's PostgreSQL 15
# started by tests/postgres.sh (its own directory and port, stopped at exit): every
# authentication method (trust, scram-sha-256 with and without channel binding, md5,
# cleartext over TLS and over the unix socket), wrong passwords (the server's words verbatim,
# exit 3), sslmode (verify-full with the right CA, a wrong CA, a wrong host name; allow and
# disable against a hostssl-only user), channel_binding=require, the URL, libpq's environment
# and ~/.pgpass with its permission rule; then tests/unit's pglive groups (COPY, the extended
# query after errors, CancelRequest) on the same server. The hostile server's cases:
# tests/pgsql_hostile.sh.
# Needs postgresql-15 and openssl (tests/setup.sh); exits 77 without them. Seconds.
set -u
t_name=pgsql
. "$(dirname "$0")/lib.sh"
[ -x /usr/lib/postgresql/15/bin/initdb ] && command -v openssl >/dev/null ||
    { echo "pgsql: SKIP: needs postgresql-15 and openssl"; exit 77; }
# the server's directory: short (the socket path's limit), outside $w (owned by postgres)
pgdir=$(mktemp -d /tmp/bench-pg.XXXXXX)
t_at_exit() { sh "$here/postgres.sh" stop "$pgdir"; rm -rf "$pgdir"; }
env=$(sh "$here/postgres.sh" start "$pgdir" "${PGSQL_TEST_PORT:-$((26100 + $$ % 800))}") ||
    { echo "pgsql: FAIL: the PostgreSQL test server did not start"; exit 1; }
eval "$env"
export HOME="$w/home"
mkdir -p "$HOME"
unset PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PGSSLMODE PGSSLROOTCERT PGCHANNELBINDING PGPASSFILE PGCONNECT_TIMEOUT PGAPPNAME PGSSLNEGOTIATION
t_on_fail() { sed 's/^/    /' "$w/out" | head -8; }
# expect NAME RC REGEX CMD...: exit status RC, stdout+stderr matching REGEX (grep -E)
expect() {
    name=$1 rc=$2 re=$3; shift 3
    "$@" >"$w/out" 2>&1
    got=$?
    if [ "$got" != "$rc" ]; then bad "$name: exit $got, expected $rc"; return 1; fi
    if ! grep -qE -- "$re" "$w/out"; then bad "$name: no /$re/"; return 1; fi
    pass=$((pass + 1))
}
absent() { # absent NAME REGEX: the last command's output does not match
    if grep -qE -- "$2" "$w/out"; then bad "$1: /$2/ printed"; else pass=$((pass + 1)); fi
}
P="--db-driver=pgsql --pgsql-host=$BENCH_PG_HOST --pgsql-port=$BENCH_PG_PORT --pgsql-db=benchtest --count=3"

# every method logs in, and says which
expect trust 0 "authentication: +trust as 'trustu'" $B ping $P --pgsql-user=trustu
expect scram-plus 0 "authentication: +scram-sha-256-plus as 'scram'" $B ping $P --pgsql-user=scram --pgsql-password=scrampw
grep -qE 'TLS: +TLSv1\.2 .*certificate not verified' "$w/out" && ok || bad "scram-plus: TLS line (prefer over TCP)"
grep -qE 'SELECT \$1 \(Bind/Execute\) +3 round trips' "$w/out" && ok || bad "scram-plus: 3 extended-query round trips"
expect scram-plain 0 "authentication: +scram-sha-256 as 'scram'" $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=disable
grep -qE 'TLS: +off \(sslmode=disable\)' "$w/out" && ok || bad "scram-plain: TLS off"
expect scram-nobind 0 "authentication: +scram-sha-256 as 'scram'" $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-channel-binding=disable
expect md5 0 "authentication: +md5 as 'md5u'" $B ping $P --pgsql-user=md5u --pgsql-password=md5pw
expect cleartext-tls 0 "authentication: +password as 'clear'" $B ping $P --pgsql-user=clear --pgsql-password=clearpw
expect cleartext-socket 0 "authentication: +password as 'clear'" $B ping --db-driver=pgsql --pgsql-host="$BENCH_PG_SOCKDIR" --pgsql-port="$BENCH_PG_PORT" --pgsql-user=clear --pgsql-password=clearpw --pgsql-db=benchtest --count=1
grep -qE 'TLS: +off \(unix socket\)' "$w/out" && ok || bad "cleartext-socket: no TLS on a socket"
# cleartext over plain TCP: refused before the password leaves
expect cleartext-plain 3 "the server asks for the password in clear text: bench sends it only over TLS or a unix socket" \
    $B ping $P --pgsql-user=clear --pgsql-password=clearpw --pgsql-sslmode=disable

# wrong passwords: the server's error verbatim, SQLSTATE, exit 3, never the password
for u in scram md5u clear; do
    expect "wrong-$u" 3 "^bench: server said: FATAL:  password authentication failed for user \"$u\" \(SQLSTATE 28P01\)$" \
        $B ping $P --pgsql-user=$u --pgsql-password=Wr0ngPw
    absent "wrong-$u: password shown" Wr0ngPw
done
expect refused 3 'connecting to 127\.0\.0\.1:1 failed: Connection refused \(ECONNREFUSED\)' $B ping --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=1 --pgsql-user=x
grep -q '^bench: hint: nothing is listening there' "$w/out" && ok || bad "refused: hint"
expect no-socket 3 "connecting to $w/.s.PGSQL.5432 failed: No such file or directory \(ENOENT\)" $B ping --db-driver=pgsql --pgsql-host="$w" --pgsql-user=x
grep -q '^bench: hint: no server socket there' "$w/out" && ok || bad "no-socket: hint"
expect no-db 3 'FATAL:  database "nosuchdb" does not exist \(SQLSTATE 3D000\)' $B ping $P --pgsql-user=trustu --pgsql-db=nosuchdb

# sslmode
expect verify-full 0 'TLS: +TLSv1\.2 .*\(certificate verified\)' $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=verify-full --pgsql-sslrootcert="$BENCH_PG_CA"
expect verify-full-name 0 'Connected to localhost:' $B ping $P --pgsql-host=localhost --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=verify-full --pgsql-sslrootcert="$BENCH_PG_CA"
expect verify-full-wrong-ca 3 'the server certificate did not verify \(sslmode=verify-full\): The certificate is not correctly signed by the trusted CA' \
    $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=verify-full --pgsql-sslrootcert="$BENCH_PG_OTHER_CA"
expect verify-full-wrong-host 3 'did not verify \(sslmode=verify-full\): The certificate Common Name \(CN\) does not match' \
    $B ping $P --pgsql-host=127.0.0.2 --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=verify-full --pgsql-sslrootcert="$BENCH_PG_CA"
expect verify-ca-other-host 0 'certificate verified' \
    $B ping $P --pgsql-host=127.0.0.2 --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=verify-ca --pgsql-sslrootcert="$BENCH_PG_CA"
expect verify-ca-no-root 2 'sslmode=verify-ca: no root certificate' $B ping $P --pgsql-user=scram --pgsql-sslmode=verify-ca
# sslmode=require verifies (as verify-ca) when a root certificate is given or
# ~/.postgresql/root.crt exists, as libpq does
expect require-rootcert-wrong 3 'did not verify \(sslmode=require, which verifies as verify-ca with a root certificate\)' \
    $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=require --pgsql-sslrootcert="$BENCH_PG_OTHER_CA"
grep -q 'hint: sslmode=require verifies against the root certificate given' "$w/out" && ok || bad "require-rootcert-wrong: hint"
mkdir -p "$HOME/.postgresql" && cp "$BENCH_PG_OTHER_CA" "$HOME/.postgresql/root.crt"
expect require-homeca-wrong 3 'did not verify \(sslmode=require, which verifies as verify-ca' \
    $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=require
grep -q "hint: sslmode=require verifies against $HOME/.postgresql/root.crt (it exists), as libpq: .* or remove that file" "$w/out" &&
    ok || bad "require-homeca-wrong: hint"
cp "$BENCH_PG_CA" "$HOME/.postgresql/root.crt"
expect require-homeca-right 0 'TLS: +TLSv1\.2 .*\(certificate verified\)' \
    $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=require
rm -rf "$HOME/.postgresql"
expect require-socket 3 'sslmode=require over the unix socket' $B ping --db-driver=pgsql --pgsql-host="$BENCH_PG_SOCKDIR" --pgsql-port="$BENCH_PG_PORT" --pgsql-user=trustu --pgsql-sslmode=require
expect hostssl-disable 3 'no pg_hba.conf entry for host "127.0.0.1", user "tlsonly", database "benchtest", no encryption \(SQLSTATE 28000\)' \
    $B ping $P --pgsql-user=tlsonly --pgsql-password=tlspw --pgsql-sslmode=disable
expect hostssl-allow 0 "scram-sha-256-plus as 'tlsonly'" $B ping $P --pgsql-user=tlsonly --pgsql-password=tlspw --pgsql-sslmode=allow
# PostgreSQL 17's direct TLS against PostgreSQL 15, which reads the ClientHello as a startup
# packet of a bad length and closes: one clear line, exit 3, at once (not the 10 s deadline)
t0=$(($(date +%s%N) / 1000000))
expect direct-pg15 3 "^bench: ping: direct TLS with .*: the server closed the connection at the TLS ClientHello: it does not speak direct TLS \(sslnegotiation=direct needs PostgreSQL 17 or later\)$" \
    $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=require --pgsql-sslnegotiation=direct
t=$(($(date +%s%N) / 1000000 - t0))
[ "$t" -lt 2000 ] && ok || bad "direct-pg15: took $t ms (the server closes at once)"
[ "$(grep -c '^bench: ping:' "$w/out")" = 1 ] && grep -q '^bench: hint: sslnegotiation=direct' "$w/out" && ok || bad "direct-pg15: not one error line and its hint"
# the OLTP driver reads the option too: libpq's rule against sysbench's default sslmode prefer,
# and the same clear line from PostgreSQL 15
expect direct-oltp-weak 2 '^bench: weak sslmode "prefer" may not be used with sslnegotiation=direct' \
    $B oltp_point_select --db-driver=pgsql --pgsql-host="$BENCH_PG_HOST" --pgsql-port="$BENCH_PG_PORT" --pgsql-sslnegotiation=direct run
expect direct-oltp-pg15 3 'oltp_point_select: direct TLS with .*: the server closed the connection at the TLS ClientHello' \
    $B oltp_point_select --db-driver=pgsql --pgsql-host="$BENCH_PG_HOST" --pgsql-port="$BENCH_PG_PORT" --pgsql-user=scram \
    --pgsql-password=scrampw --pgsql-db=benchtest --pgsql-sslmode=require --pgsql-sslnegotiation=direct --time=1 run
expect bad-sslmode 2 "sslmode 'verify': disable, allow, prefer, require, verify-ca or verify-full" $B ping $P --pgsql-user=trustu --pgsql-sslmode=verify

# channel_binding=require: SCRAM-SHA-256-PLUS or nothing
expect cb-require 0 "scram-sha-256-plus as 'scram'" $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-channel-binding=require
expect cb-require-md5 3 'channel_binding=require, but the server asks for a password without channel binding' \
    $B ping $P --pgsql-user=md5u --pgsql-password=md5pw --pgsql-channel-binding=require
expect cb-require-trust 3 'channel_binding=require, but the server logged bench in without channel binding' \
    $B ping $P --pgsql-user=trustu --pgsql-channel-binding=require
expect cb-require-notls 3 'channel_binding=require needs TLS \(sslmode=disable\)' \
    $B ping $P --pgsql-user=scram --pgsql-password=scrampw --pgsql-sslmode=disable --pgsql-channel-binding=require

# which server ping talks to: any --pgsql-* option selects PostgreSQL (the INT ones too); the
# other server's options beside them are refused before anything connects (exit 2); PG*
# variables alone do not switch (MySQL stays the default)
expect select-by-option 0 "authentication: +trust as 'trustu'" $B ping --count=1 --pgsql-host="$BENCH_PG_HOST" \
    --pgsql-port="$BENCH_PG_PORT" --pgsql-user=trustu --pgsql-db=benchtest
expect select-by-timeout 0 "authentication: +trust as 'trustu', database 'benchtest'" env PGHOST="$BENCH_PG_HOST" \
    PGPORT="$BENCH_PG_PORT" PGUSER=trustu PGDATABASE=benchtest $B ping --count=1 --pgsql-connect-timeout=5
expect mixed-driver 2 '^bench: ping: --pgsql-port is a PostgreSQL option, and --db-driver=mysql asks for another server: ping talks to one server$' \
    $B ping --db-driver=mysql --pgsql-port="$BENCH_PG_PORT" --pgsql-host="$BENCH_PG_HOST"
expect mixed-mysql 2 '^bench: ping: --mysql-host is a MySQL option, and --pgsql-user selects PostgreSQL: ping talks to one server$' \
    $B ping --pgsql-user=trustu --mysql-host=127.0.0.1 --pgsql-port="$BENCH_PG_PORT"
expect mixed-short 2 '^bench: ping: --mysql-port is a MySQL option, and --db-driver=pgsql selects PostgreSQL' \
    $B ping --db-driver=pgsql -P "$BENCH_PG_PORT"
expect env-no-switch 3 "check --mysql-host/--mysql-port" env PGHOST="$BENCH_PG_HOST" PGPORT="$BENCH_PG_PORT" PGUSER=trustu \
    $B ping --count=1 --mysql-host=127.0.0.1 --mysql-port=1

# the URL, percent-decoded; the options win over it; unknown settings refused
expect url 0 "scram-sha-256 as 'scram', database 'benchtest'" \
    $B ping --count=1 --pgsql-url="postgresql://scram:scram%70w@$BENCH_PG_HOST:$BENCH_PG_PORT/bench%74est?sslmode=disable&application_name=x"
grep -q 'TLS: *off (sslmode=disable)' "$w/out" && ok || bad "url: sslmode=disable from the query"
expect url-option-wins 0 "as 'md5u'" $B ping --count=1 --pgsql-user=md5u --pgsql-password=md5pw \
    --pgsql-url="postgres://scram:scrampw@$BENCH_PG_HOST:$BENCH_PG_PORT/benchtest"
expect url-unknown 2 "'sslmod': not a setting bench knows" $B ping --pgsql-url="postgres://x@$BENCH_PG_HOST/db?sslmod=disable"
expect url-nul 2 'a bad password' $B ping --pgsql-url="postgres://x:a%00b@$BENCH_PG_HOST/db"
expect url-scheme 2 'not a postgres:// or postgresql:// URL' $B ping --pgsql-url="mysql://x@h/db"

# libpq's environment
expect env 0 "md5 as 'md5u', database 'benchtest'" env PGHOST="$BENCH_PG_HOST" PGPORT="$BENCH_PG_PORT" PGUSER=md5u \
    PGPASSWORD=md5pw PGDATABASE=benchtest PGSSLMODE=disable $B ping --db-driver=pgsql --count=1
grep -q 'TLS: *off (sslmode=disable)' "$w/out" && ok || bad "env: PGSSLMODE"
expect env-option-wins 3 'password authentication failed for user "md5u"' env PGHOST="$BENCH_PG_HOST" PGPORT="$BENCH_PG_PORT" \
    PGUSER=md5u PGPASSWORD=md5pw PGDATABASE=benchtest $B ping --db-driver=pgsql --pgsql-password=nope --count=1
grep -q 'the password came from --pgsql-password' "$w/out" && ok || bad "env-option-wins: where the password came from"

# ~/.pgpass: used at 0600, ignored with libpq's warning when group or others may read it
printf '# comment\nother:*:*:*:nope\n%s:%s:*:scram:scrampw\n' "$BENCH_PG_HOST" "$BENCH_PG_PORT" >"$HOME/.pgpass"
chmod 600 "$HOME/.pgpass"
expect pgpass 0 "as 'scram'" $B ping $P --pgsql-user=scram
absent "pgpass: no warning at 0600" 'warning'
chmod 644 "$HOME/.pgpass"
expect pgpass-loose 3 "bench: warning: password file \"$HOME/.pgpass\" has group or world access; permissions should be u=rw \(0600\) or less: ignored" \
    $B ping $P --pgsql-user=scram
grep -q "the server asks user 'scram' for a password and none was given" "$w/out" && ok || bad "pgpass-loose: no password then"
$B ping $P --pgsql-user=trustu --format=json 2>/dev/null | python3 -c 'import json, sys; w = json.load(sys.stdin)["warnings"]; sys.exit(not (len(w) == 1 and w[0]["code"] == "pgpass_permissions"))' &&
    ok || bad "pgpass-loose: the JSON's warnings hold it"
PGPASSFILE="$HOME/.pgpass" && chmod 600 "$HOME/.pgpass" && mv "$HOME/.pgpass" "$w/pw.file"
expect pgpassfile 0 "as 'scram'" env PGPASSFILE="$w/pw.file" $B ping $P --pgsql-user=scram

# JSON: the facts of the login
$B ping $P --pgsql-user=scram --pgsql-password=scrampw --format=json >"$w/out" 2>&1
python3 - "$w/out" <<'PY' && ok || bad "json facts"
import json, sys
d = json.load(open(sys.argv[1]))
f = {x["name"] if isinstance(x, dict) else x: x for x in d.get("facts", [])} if isinstance(d.get("facts"), list) else d.get("facts", {})
s = json.dumps(d)
assert '"scram-sha-256-plus"' in s and '"PostgreSQL"' in s, s[:400]
PY
# secrets: --pgsql-password and a URL's password leave argv (/proc/PID/cmdline) and the JSON
# (the query's password= too, its key percent-encoded or not, each one: libpq takes the last)
$B ping --pgsql-url="postgres://scram:scrampw@$BENCH_PG_HOST:$BENCH_PG_PORT/benchtest?password=scrampw&pass%77ord=scrampw" \
    --pgsql-password=scrampw --count=1 --format=json >"$w/out" 2>&1
check "json: no password" '! grep -q scrampw "$w/out" && grep -q "postgres://scram:\*\*\*@" "$w/out"'
check "json: the query's passwords masked, in .command and .options" \
    '[ "$(grep -o "benchtest?password=\*\*\*&pass%77ord=\*\*\*" "$w/out" | wc -l)" = 2 ]'
python3 - "$B" "$BENCH_PG_HOST" "$BENCH_PG_PORT" >"$w/out" 2>&1 <<'PY'
import subprocess, sys, time
b, h, p = sys.argv[1:4]
pr = subprocess.Popen([b, "ping", "--pgsql-url=postgres://scram:scrampw@%s:%s/benchtest?sslmode=disable&password=scrampw" % (h, p),
                       "--pgsql-password=scrampw", "--count=1000000"], stdout=subprocess.DEVNULL)
seen = b""
for _ in range(100):  # until the options are parsed (the x's are there), at most 5 s
    time.sleep(0.05)
    seen = open("/proc/%d/cmdline" % pr.pid, "rb").read()
    if b"xxxxxxx" in seen:
        break
pr.terminate()
pr.wait()
print(seen)
sys.exit(0 if b"scrampw" not in seen and seen.count(b"xxxxxxx") == 3 and b"127" in seen else 1)
PY
rc=$?
check "cmdline: passwords replaced by x's" '[ $rc = 0 ]'

# the client's commands beyond ping (tests/t_pg_live.c): COPY FROM STDIN, the extended query
# drained to ReadyForQuery after an error, CancelRequest on a stop signal
if [ -x "$top/tests/unit" ]; then
    BENCH_PG_HOST=$BENCH_PG_HOST BENCH_PG_PORT=$BENCH_PG_PORT "$top/tests/unit" pglive >"$w/out" 2>&1
    check "unit pglive (COPY, extended query after errors, cancel, pgc_step, a pipeline)" 'grep -q "^3 passed, 0 failed$" "$w/out"'
else
    bad "tests/unit is not built (make tests/unit): the pglive groups did not run"
fi
t_summary
