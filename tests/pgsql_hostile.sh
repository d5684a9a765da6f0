#!/bin/sh
# bench ping against tests/fakepg.py, a PostgreSQL server scripted for what no real server does
# (issue 32): bytes injected after the 'S' of the SSLRequest (CVE-2021-23222), a SCRAM server
# signature that is wrong, AuthenticationOk without the signature, channel binding stripped
# under channel_binding=require (pgjdbc's CVE-2026-54291 downgrade), TLS required of a server
# that answers 'N', message lengths that lie, an error after a row wider than 16 columns (its
# heap array freed: run under ASan by tests/run.sh's asan lane), a silent server, one that trickles its login
# and one that floods a query with rows; PostgreSQL 17's direct TLS (sslnegotiation=direct:
# the ClientHello first, ALPN "postgresql") against a server that speaks it, one that chooses
# no ALPN and one that answers in plain text. Each must fail safely: exit 3,
# one line naming the cause, within its deadline. A trust control proves the fake speaks the
# protocol. Needs python3 and openssl; exits 77 without them. Seconds.
set -u
t_name=pgsql_hostile
. "$(dirname "$0")/lib.sh"
unset PGSSLNEGOTIATION PGSSLMODE PGSSLROOTCERT PGCHANNELBINDING PGCONNECT_TIMEOUT
command -v openssl >/dev/null || { echo "pgsql_hostile: SKIP: needs openssl"; exit 77; }
pids=""
t_at_exit() { for p in $pids; do kill "$p" 2>/dev/null; done; }
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost -keyout "$w/tls.key" -out "$w/tls.pem" 2>/dev/null
modes="direct directnoalpn directplain trust inject notls badsig badsiglast nofinal itermax mext downgrade biglen shortlen rowlie collie bigkey widerow tlstrust qsilent silent trickle flood"
for m in $modes; do
    python3 "$here/fakepg.py" --port-file "$w/$m.port" --mode "$m" --tls "$w/tls.pem" "$w/tls.key" 2>"$w/$m.err" &
    pids="$pids $!"
done
for m in $modes; do
    t_wait 30 test -s "$w/$m.port" || { echo "pgsql_hostile: FAIL: the fake server $m did not start"; cat "$w/$m.err"; exit 1; }
done
t_on_fail() { sed 's/^/    /' "$w/out" | head -6; }
# hostile NAME RC MAXMS REGEX ARGS...: bench ping against mode NAME's server exits RC
# within MAXMS milliseconds (times PGSQL_HOSTILE_SLOW, default 1: a sanitizer build's
# factor), its one error line matching REGEX. Tight: a failure is refused at once (< 100 ms),
# a deadline holds to 100 ms (a client that slept would fail here). Over the limit, the case
# runs once more (a loaded host's one slow start): both runs over it fail.
t_ms() { echo $(($(date +%s%N) / 1000000)); }
hostile() {
    name=$1 rc=$2 max=$3 re=$4; shift 4
    for try in 1 2; do
        t0=$(t_ms)
        $B ping --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port="$(cat "$w/$name.port")" \
            --pgsql-user=u --pgsql-password=pw --pgsql-db=d --count=2 "$@" >"$w/out" 2>&1
        got=$? t=$(($(t_ms) - t0))
        [ "$t" -gt $((max * ${PGSQL_HOSTILE_SLOW:-1})) ] || break
    done
    if [ "$got" != "$rc" ]; then bad "$name: exit $got, expected $rc"; return 1; fi
    if ! grep -qE -- "$re" "$w/out"; then bad "$name: no /$re/"; return 1; fi
    if [ "$t" -gt $((max * ${PGSQL_HOSTILE_SLOW:-1})) ]; then bad "$name: took $t ms, more than $max"; return 1; fi
    if [ "$rc" != 0 ] && [ "$(grep -c '^bench: ping:' "$w/out")" != 1 ]; then bad "$name: not one error line"; return 1; fi
    pass=$((pass + 1))
}
hostile trust 0 1000 'authentication: +trust' --pgsql-sslmode=prefer
hostile inject 3 100 "the server sent [0-9]+ more bytes after its 'S' answer, before the TLS handshake: refused \(bytes injected on the way, CVE-2021-23222\)"
hostile notls 3 100 'does not support TLS, and sslmode=require requires it' --pgsql-sslmode=require
hostile notls 3 100 'does not support TLS, and sslmode=verify-full requires it' --pgsql-sslmode=verify-full --pgsql-sslrootcert="$w/tls.pem"
hostile badsig 3 100 "SCRAM: the server's SCRAM signature is wrong: it does not know the password" --pgsql-sslmode=disable
hostile badsiglast 3 100 "SCRAM: the server's SCRAM signature is wrong: it does not know the password" --pgsql-sslmode=disable
hostile nofinal 3 100 'AuthenticationOk before the server proved it knows the password' --pgsql-sslmode=disable
hostile mext 3 100 "SCRAM: the server-first-message has a mandatory extension \(m=\)" --pgsql-sslmode=disable
# 1,000,000 SCRAM iterations: SIGINT while PBKDF2 runs ends bench at once (its chunks look
# at the stop flag; the deadline likewise, not testable here: libpq's 2 s minimum is longer)
# (300 ms: a loaded host; the old code took 1.3 s)
$B ping --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port="$(cat "$w/itermax.port")" --pgsql-user=u \
    --pgsql-password=pw --pgsql-db=d --pgsql-sslmode=disable --count=1 >"$w/out" 2>&1 &
bp=$!
if t_wait 10 test -s "$w/itermax.port.sent"; then
    t0=$(t_ms); kill -INT $bp; wait $bp; rc=$? t=$(($(t_ms) - t0))
    [ "$t" -le $((300 * ${PGSQL_HOSTILE_SLOW:-1})) ] && [ $rc != 0 ] && grep -q 'interrupted by a stop signal (computing PBKDF2)' "$w/out" &&
        ok || bad "itermax: SIGINT during PBKDF2: exit $rc after $t ms"
else
    kill $bp; bad "itermax: no server-first-message sent"
fi
rm -f "$w/itermax.port.sent"
# SIGINT during a query the server never answers: a CancelRequest, whose connection the server
# holds open; bench waits for its close at most 0.5 s
$B ping --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port="$(cat "$w/qsilent.port")" --pgsql-user=u \
    --pgsql-db=d --pgsql-sslmode=disable --count=1 >"$w/out" 2>&1 &
bp=$!
if t_wait 10 test -s "$w/qsilent.port.query"; then
    t0=$(t_ms); kill -INT $bp; wait $bp; rc=$? t=$(($(t_ms) - t0))
    [ "$t" -ge 400 ] && [ "$t" -le $((700 * ${PGSQL_HOSTILE_SLOW:-1})) ] && [ $rc != 0 ] &&
        ok || bad "qsilent: SIGINT, the cancel held open: exit $rc after $t ms (0.5 s wanted)"
else
    kill $bp; bad "qsilent: no query came"
fi
hostile downgrade 3 100 'channel_binding=require, but the server offers no SCRAM-SHA-256-PLUS \(a downgrade\): refused' --pgsql-channel-binding=require
hostile downgrade 0 1000 'authentication: +scram-sha-256 as' --pgsql-password=pw --pgsql-channel-binding=prefer --pgsql-sslmode=require
hostile biglen 3 100 'a message of length 1073741824 \(type 0x52\): not 4\.\.[0-9]+ bytes' --pgsql-sslmode=disable
hostile shortlen 3 100 'a message of length 2 \(type 0x52\): not 4\.\.[0-9]+ bytes' --pgsql-sslmode=disable
hostile rowlie 3 100 "a malformed 'D' message" --pgsql-sslmode=disable
hostile collie 3 100 "a malformed 'T' message \(31 bytes\)" --pgsql-sslmode=disable
hostile bigkey 3 100 "logging in to 127\.0\.0\.1:[0-9]+: a malformed 'K' message \(304 bytes\)" --pgsql-sslmode=disable
hostile widerow 3 100 "querying 127\.0\.0\.1:[0-9]+: a malformed 'C' message \(8 bytes\)" --pgsql-sslmode=disable
# SNI: the host's name in every sslmode (prefer and require still verify nothing: the fake's
# certificate is self-signed), none for an IP address, as libpq
for m in prefer require; do
    hostile tlstrust 0 1000 "TLS: .*certificate not verified" --pgsql-host=localhost --pgsql-sslmode=$m
    [ "$(tail -n 1 "$w/tlstrust.port.sni")" = localhost ] && ok || bad "tlstrust: sslmode=$m: SNI $(tail -n 1 "$w/tlstrust.port.sni"), not localhost"
done
hostile tlstrust 0 1000 "TLS: .*certificate not verified" --pgsql-sslmode=require
[ "$(tail -n 1 "$w/tlstrust.port.sni")" = None ] && ok || bad "tlstrust: an IP address sent as SNI"
# direct TLS (PostgreSQL 17): no SSLRequest (the fake's first byte is a TLS record, 0x16),
# ALPN "postgresql" offered and chosen; by the option, the URL and PGSSLNEGOTIATION; verify-full
# verifies there too
hostile direct 0 1000 'TLS: .*\(certificate not verified; direct TLS, ALPN postgresql\)' --pgsql-sslmode=require --pgsql-sslnegotiation=direct
[ "$(tail -n 1 "$w/direct.port.direct")" = "first=16 alpn=postgresql" ] && ok || bad "direct: the fake saw $(tail -n 1 "$w/direct.port.direct")"
hostile direct 0 1000 'TLS: .*\(certificate verified; direct TLS, ALPN postgresql\)' --pgsql-host=localhost --pgsql-sslmode=verify-full --pgsql-sslrootcert="$w/tls.pem" --pgsql-sslnegotiation=direct
hostile direct 0 1000 'direct TLS, ALPN postgresql' --pgsql-url='postgres://127.0.0.1/d?sslnegotiation=direct&sslmode=require'
n0=$(wc -l <"$w/direct.port.direct")
PGSSLNEGOTIATION=direct $B ping --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port="$(cat "$w/direct.port")" \
    --pgsql-user=u --pgsql-db=d --pgsql-sslmode=require --count=1 --format=json >"$w/out" 2>&1 &&
    grep -q '"tls_negotiation":"direct"' "$w/out" && ok || bad "direct: PGSSLNEGOTIATION=direct not used"
n1=$(wc -l <"$w/direct.port.direct")
[ "$n1" = $((n0 + 1)) ] && [ "$(tail -n 1 "$w/direct.port.direct")" = "first=16 alpn=postgresql" ] && ok || bad "direct: PGSSLNEGOTIATION=direct: $((n1 - n0)) direct connections, 1 expected"
# libpq 17's rule: direct only with sslmode require or stronger (nothing sent: a usage error)
hostile direct 2 1000 'weak sslmode "prefer" may not be used with sslnegotiation=direct \(use "require", "verify-ca", or "verify-full"\)' --pgsql-sslnegotiation=direct
hostile direct 2 1000 "sslnegotiation 'tls': postgres \(an SSLRequest first, the default\) or direct" --pgsql-sslnegotiation=tls --pgsql-sslmode=require
[ "$(wc -l <"$w/direct.port.direct")" = "$n1" ] && ok || bad "direct: a refused setting still connected"
hostile directnoalpn 3 100 'direct TLS with 127\.0\.0\.1:[0-9]+: the server chose no protocol \(ALPN\), not "postgresql": refused' --pgsql-sslmode=require --pgsql-sslnegotiation=direct
hostile directplain 3 100 "direct TLS with 127\.0\.0\.1:[0-9]+: the server answered the TLS ClientHello in plain text \(first byte 0x45 'E'\), not TLS: refused" --pgsql-sslmode=require --pgsql-sslnegotiation=direct
hostile silent 3 2100 'no complete answer within the deadline \(2000 ms\)' --pgsql-connect-timeout=2
hostile silent 3 2100 'setting up TLS with 127\.0\.0\.1:[0-9]+: no complete answer within the deadline \(2000 ms\)' --pgsql-connect-timeout=2 --pgsql-sslmode=require --pgsql-sslnegotiation=direct
hostile trickle 3 2100 'logging in to 127\.0\.0\.1:[0-9]+: no complete answer within the deadline \(2000 ms\)' --pgsql-connect-timeout=2 --pgsql-sslmode=disable
hostile flood 3 2100 'querying 127\.0\.0\.1:[0-9]+: no complete answer within the deadline \(2000 ms\)' --pgsql-io-timeout=2 --pgsql-sslmode=disable
t_summary
