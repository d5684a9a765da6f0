#!/bin/sh
# Issue 28, findings 1 and 10: every TLS key of the mysql 8 and mariadb clients, in option files
# and on the command line, with the clients' meaning, side by side with Debian's `mariadb`
# (10.11) on the same input; and the terminal/input hygiene of -p, option files on pipes,
# --defaults-extra-file, --connect-timeout. The servers: tests/fakemysql.py without TLS (what a
# man in the middle that strips TLS looks like) and with a self-signed certificate; the suite's
# MariaDB (BENCH_MY_*: its test CA, certificate for localhost and 127.0.0.1) when it runs.
# Needs python3-cryptography, openssl, mariadb-client; exits 77 without them. Seconds.
set -u
t_name=tls_cli
. "$(dirname "$0")/lib.sh"
command -v mariadb >/dev/null && command -v openssl >/dev/null && command -v setsid >/dev/null &&
    python3 -c 'import cryptography' 2>/dev/null || { echo "tls_cli: SKIP: needs mariadb-client, openssl, setsid, python3-cryptography"; exit 77; }
pids=""
t_at_exit() { for p in $pids; do kill "$p" 2>/dev/null; done; }
export HOME="$w/home"
mkdir -p "$HOME"
unset MYSQL_PWD
t_on_fail() { sed 's/^/    /' "$w/out" | head -6; }
# expect NAME RC REGEX CMD...: exit status RC, stdout+stderr matching REGEX (grep -E)
expect() {
    name=$1 rc=$2 re=$3; shift 3
    "$@" >"$w/out" 2>&1
    got=$?
    if [ "$got" != "$rc" ]; then bad "$name: exit $got, expected $rc"; return 1; fi
    if ! grep -qE -- "$re" "$w/out"; then bad "$name: no /$re/"; return 1; fi
    pass=$((pass + 1))
}
# absent NAME REGEX: the last command's output does not match
absent() {
    if grep -qE -- "$2" "$w/out"; then bad "$1: /$2/ printed"; else pass=$((pass + 1)); fi
}

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$w/rsa.pem" 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -keyout "$w/tls.key" -out "$w/tls.pem" 2>/dev/null
python3 "$top/tests/fakemysql.py" --port-file "$w/PLAIN.port" --rsa-key "$w/rsa.pem" --log-auth \
    --plugin mysql_clear_password --switch 2>"$w/PLAIN.err" &
pids="$pids $!"
python3 "$top/tests/fakemysql.py" --port-file "$w/SELF.port" --rsa-key "$w/rsa.pem" \
    --tls "$w/tls.pem" "$w/tls.key" 2>"$w/SELF.err" &
pids="$pids $!"
t_end=$(($(date +%s) + 60))
for n in PLAIN SELF; do
    until [ -s "$w/$n.port" ]; do
        [ "$(date +%s)" -lt $t_end ] || { echo "tls_cli: the fake server $n did not start within 60 s"; cat "$w/$n.err"; exit 1; }
        sleep 0.1
    done
    eval "$n=$(cat "$w/$n.port")"
done

printf '[client]\nssl-verify-server-cert\n' >"$w/verify.cnf"
printf '[client]\nssl_verify_server_cert = ON\n' >"$w/verify_on.cnf"
printf '[client]\nssl\n' >"$w/ssl.cnf"
printf '[client]\nssl-verify-server-cert=maybe\n' >"$w/verify_bad.cnf"
F="-h 127.0.0.1 -u alice -psecret"

# ---- finding 1: no plain-text login where TLS verification was asked for ----
# the oracle: the mariadb client refuses the server without TLS (ERROR 2026) from the file
expect "mariadb: [client] ssl-verify-server-cert, no TLS offered" 1 "ERROR 2026" \
    mariadb --defaults-file="$w/verify.cnf" -h127.0.0.1 -P"$PLAIN" -ualice -psecret -e 'select 1'
for f in verify verify_on; do
    n0=$(grep -c "fake: auth" "$w/PLAIN.err")
    expect "[client] $f.cnf, no TLS offered: refused" 3 \
        "does not offer TLS, and --ssl-verify-server-cert requires it" \
        "$B" ping --count=1 $F -P "$PLAIN" --defaults-file="$w/$f.cnf"
    n1=$(grep -c "fake: auth" "$w/PLAIN.err")
    [ "$n0" = "$n1" ] && pass=$((pass + 1)) || bad "$f.cnf: the fake server got a login ($n0 -> $n1 auth packets)"
done
# a named FIFO as the option file, its writer late (the review of issue 28): bench waits for
# the writer, as mariadb blocks in open, instead of reading EOF at once and logging in plain.
# The writer writes once bench holds the FIFO open (state, not a sleep).
mkfifo "$w/ff"
n0=$(grep -c "fake: auth" "$w/PLAIN.err")
"$B" ping --count=1 $F -P "$PLAIN" --defaults-file="$w/ff" >"$w/out" 2>&1 &
bp=$!
t_end=$(($(date +%s) + 30))
until ls -l /proc/$bp/fd 2>/dev/null | grep -q "$w/ff" || [ "$(date +%s)" -ge $t_end ]; do sleep 0.05; done
# (a bench that read EOF and left has no reader on the FIFO: the write would block; bounded)
timeout 10 sh -c 'printf "[client]\nssl-verify-server-cert\n" >"$1"' sh "$w/ff"
wait $bp; rc=$?
n1=$(grep -c "fake: auth" "$w/PLAIN.err")
if [ $rc = 3 ] && grep -q "does not offer TLS, and --ssl-verify-server-cert requires it" "$w/out" && [ "$n0" = "$n1" ]; then
    pass=$((pass + 1))
else bad "a FIFO option file written late: exit $rc, auth packets $n0 -> $n1"; fi
expect "slap, [client] ssl-verify-server-cert, no TLS offered: refused" 3 "does not offer TLS, and --ssl-verify-server-cert requires it" \
    "$B" slap $F -P "$PLAIN" --defaults-file="$w/verify.cnf" -q 'select 1'
# slap's --ssl/--skip-ssl are bench's --ssl (not --ssl-mode): a file's ssl-mode=VERIFY_IDENTITY stays
printf '[client]\nssl-mode=VERIFY_IDENTITY\n' >"$w/vid.cnf"
expect "slap --ssl keeps a file's ssl-mode=VERIFY_IDENTITY (self-signed refused)" 3 "did not verify \(VERIFY_IDENTITY\)" \
    "$B" slap $F -P "$SELF" --defaults-file="$w/vid.cnf" --ssl -q 'select 1'
expect "slap --skip-ssl keeps it too (no plain text)" 3 "does not offer TLS, and --ssl-mode requires it" \
    "$B" slap $F -P "$PLAIN" --defaults-file="$w/vid.cnf" --skip-ssl -q 'select 1'
expect "slap --ssl alone: TLS required" 3 "does not offer TLS, and --ssl requires it" \
    "$B" slap $F -P "$PLAIN" --ssl -q 'select 1'
expect "--ssl-verify-server-cert on the command line: refused" 3 "does not offer TLS, and --ssl-verify-server-cert requires it" \
    "$B" ping --count=1 $F -P "$PLAIN" --ssl-verify-server-cert
# as mariadb 10.11: verification wins over --skip-ssl
expect "mariadb: --skip-ssl --ssl-verify-server-cert" 1 "ERROR 2026" \
    mariadb --no-defaults --skip-ssl --ssl-verify-server-cert -h127.0.0.1 -P"$PLAIN" -ualice -psecret -e 'select 1'
expect "--skip-ssl does not undo the file's ssl-verify-server-cert" 3 "does not offer TLS" \
    "$B" ping --count=1 $F -P "$PLAIN" --defaults-file="$w/verify.cnf" --skip-ssl
expect "--ssl-mode=DISABLED does not undo it either" 3 "does not offer TLS" \
    "$B" ping --count=1 $F -P "$PLAIN" --defaults-file="$w/verify.cnf" --ssl-mode=DISABLED
expect "--skip-ssl-verify-server-cert undoes the file's (plain TCP: the user said so)" 3 "asked for mysql_clear_password over plain TCP" \
    "$B" ping --count=1 $F -P "$PLAIN" --defaults-file="$w/verify.cnf" --skip-ssl-verify-server-cert
expect "[client] ssl: TLS asked, never plain text (deliberate: mariadb 10.11 falls back)" 3 \
    "does not offer TLS, and --ssl requires it" "$B" ping --count=1 $F -P "$PLAIN" --defaults-file="$w/ssl.cnf"
expect "--ssl known (no 'did you mean --csv')" 3 "does not offer TLS, and --ssl requires it" \
    "$B" ping --count=1 $F -P "$PLAIN" --ssl
absent "--ssl: no suggestion" "did you mean"
expect "--ssl-ca: VERIFY_CA, no plain text" 3 "does not offer TLS, and --ssl-ca requires it" \
    "$B" ping --count=1 $F -P "$PLAIN" --ssl-ca="$w/tls.pem"
expect "a bad boolean in a file: one line, file and line" 2 "verify_bad.cnf:2: ssl-verify-server-cert: invalid value 'maybe'" \
    "$B" ping --count=1 $F -P "$PLAIN" --defaults-file="$w/verify_bad.cnf"
# a self-signed certificate: mariadb and bench refuse it once verification is asked
expect "mariadb: self-signed, ssl-verify-server-cert" 1 "ERROR 2026.*self-signed" \
    mariadb --defaults-file="$w/verify.cnf" -h127.0.0.1 -P"$SELF" -ualice -psecret -e 'select 1'
expect "self-signed, [client] ssl-verify-server-cert: refused" 3 "did not verify \(VERIFY_IDENTITY\).*not correctly signed" \
    "$B" ping --count=1 $F -P "$SELF" --defaults-file="$w/verify.cnf"
expect "self-signed, --ssl: encrypted, not verified (as mariadb --ssl)" 0 "certificate not verified" \
    "$B" ping --count=1 $F -P "$SELF" --ssl
# the name mismatched with the CA given: mariadb refuses; bench's hint names the certificate's names
expect "mariadb: CA given, name mismatched" 1 "ERROR 2026" \
    mariadb --no-defaults --ssl-ca="$w/tls.pem" --ssl-verify-server-cert -h127.0.0.1 -P"$SELF" -ualice -psecret -e 'select 1'
expect "CA given, name mismatched: the hint names the certificate's names" 3 \
    "hint: the server was reached as '127.0.0.1', which is not among the certificate's names \(localhost \(CN\)\)" \
    "$B" ping --count=1 $F -P "$SELF" --ssl-ca="$w/tls.pem" --ssl-verify-server-cert
expect "--ssl-capath: the directory's CAs verify" 0 "certificate verified" \
    "$B" ping --count=1 $F -P "$SELF" --ssl-capath="$w" --ssl-mode=VERIFY_CA
expect "--ssl-cipher (OpenSSL's name) is the suite used" 0 "TLS-ECDHE-RSA-WITH-AES-128-GCM-SHA256" \
    "$B" ping --count=1 $F -P "$SELF" --ssl-cipher=ECDHE-RSA-AES128-GCM-SHA256
expect "--ssl-cipher unknown: exit 2" 2 "ssl-cipher: no TLS 1.2 cipher suite 'NOPE'" \
    "$B" ping --count=1 $F -P "$SELF" --ssl-cipher=NOPE
expect "--tls-version without TLSv1.2: refused, not ignored" 2 "tls-version=TLSv1.3: bench speaks TLSv1.2 only" \
    "$B" ping --count=1 $F -P "$SELF" --tls-version=TLSv1.3
expect "--tls-version with TLSv1.2" 0 "TLSv1.2" "$B" ping --count=1 $F -P "$SELF" --tls-version=TLSv1.2,TLSv1.3
printf '[client]\nssl-crl=/x.pem\n' >"$w/crl.cnf"
expect "[client] ssl-crl: refused, not ignored" 2 "ssl-crl=/x.pem: certificate revocation lists are not supported" \
    "$B" ping --count=1 $F -P "$SELF" --defaults-file="$w/crl.cnf"

# ---- finding 10: input hygiene ----
for a in "ping -h 127.0.0.1 -p hunter2x" "-p hunter2x ping" "cpu -p hunter2x"; do
    # shellcheck disable=SC2086 # the words are the test
    echo x | expect "'$a': the word after -p is never echoed" 2 "the word after -p, hidden" setsid -w "$B" $a
    absent "'$a': the word printed" "hunter2x"
done
echo secret | expect "-p without a terminal: the password from standard input (as mariadb -p)" 0 "Connected to" \
    setsid -w "$B" ping --count=1 -h 127.0.0.1 -u alice -P "$SELF" -p
expect "-p without a terminal, empty input: the hint names ssh -t" 2 "ssh -t HOST" \
    setsid -w "$B" ping --count=1 -h 127.0.0.1 -u alice -P "$SELF" -p </dev/null
# --defaults-file=<(...) as the mariadb client reads it (a pipe: credentials never on disk)
expect "mariadb: --defaults-file on a pipe" 0 "1" sh -c "printf '[client]\\npassword=secret\\n' |
    mariadb --defaults-file=/dev/stdin -h127.0.0.1 -P$SELF -ualice --ssl -e 'select 1'"
expect "--defaults-file on a pipe" 0 "Connected to" sh -c "printf '[client]\\npassword=secret\\n' |
    '$B' ping --count=1 -h 127.0.0.1 -u alice -P $SELF --defaults-file=/dev/stdin"
printf '[client]\nuser=alice\npassword=secret\n' >"$w/extra.cnf"
expect "--defaults-extra-file" 0 "Connected to" \
    "$B" ping --count=1 -h 127.0.0.1 -P "$SELF" --defaults-extra-file="$w/extra.cnf"
printf '[client]\nuser=nobody\n' >"$HOME/.my.cnf"
expect "--defaults-extra-file, then ~/.my.cnf wins (as the client)" 3 "user 'nobody'" \
    "$B" ping --count=1 -h 127.0.0.1 -P "$SELF" --defaults-extra-file="$w/extra.cnf"
rm -f "$HOME/.my.cnf"
expect "--connect-timeout is --mysql-connect-timeout" 2 "mysql-connect-timeout: invalid value '0'" \
    "$B" ping --count=1 $F -P "$SELF" --connect-timeout=0

ln -s "$B" "$w/sysbench"
expect "sysbench persona: --config-file=/dev/null read (as sysbench)" 0 "total number of events: +1" \
    "$w/sysbench" --config-file=/dev/null cpu --events=1 --time=0 run

# ---- the suite's MariaDB: its CA, a certificate for localhost and IP 127.0.0.1 ----
if [ -n "${BENCH_MY_HOST:-}" ] && [ -n "${BENCH_MY_CA:-}" ]; then
    M="-h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret"
    printf '[client]\nssl-verify-server-cert\nssl-ca=%s\n' "$BENCH_MY_CA" >"$w/ca.cnf"
    expect "mariadb: 127.0.0.1 verified by the IP subjectAltName" 0 "1" \
        mariadb --defaults-file="$w/ca.cnf" $M -e 'select 1'
    expect "127.0.0.1 verified by the IP subjectAltName" 0 "certificate verified" \
        "$B" ping --count=1 $M --defaults-file="$w/ca.cnf"
    expect "the other CA: refused" 3 "not correctly signed" \
        "$B" ping --count=1 $M --ssl-verify-server-cert --ssl-ca="$BENCH_MY_OTHER_CA"
fi
t_summary
