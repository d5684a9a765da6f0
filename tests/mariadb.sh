#!/bin/sh
# A throwaway MariaDB server for the test suite, on loopback only, with TLS and test users.
#   tests/mariadb.sh start DIR [PORT]   prints "export" lines for the tests (eval them)
#   tests/mariadb.sh stop DIR
#   tests/mariadb.sh kill DIR           SIGKILL (a crash): returns once the process is gone;
#                                       prints the kill's time as "BEFORE AFTER" (ns since
#                                       the epoch: the kill came between them)
#   tests/mariadb.sh restart DIR PORT   the killed server again on its data (no new install),
#                                       returns once it answers (its greeting, polled every
#                                       5 ms), printing "REFUSED ANSWERED": the end of the
#                                       last attempt refused and the greeting's arrival (ns
#                                       since the epoch: it began to answer between them; a
#                                       loaded host widens the pair, it does not shift it)
# BENCH_MDB_ARGS: more mariadbd options, after the defaults (they win): the connection tests
# raise --max-connections, --open-files-limit, --back-log this way.
# Users: nat/secret (mysql_native_password), ed/foobar (client_ed25519), tls/tlspw (REQUIRE
# SSL), x509/certpw (REQUIRE X509: a client certificate), nopw (IDENTIFIED BY '': no password), root via the unix socket. The CA, server certificate (CN localhost, SAN 127.0.0.1)
# and an unrelated CA are made with the openssl CLI at start, never committed.
set -eu
cmd=$1 dir=$2 port=${3:-33061}
# ours PID: 0 when PID is a mariadbd serving this DIR (its command line names $dir/data), so
# that a stale pid file never has another process killed (pids are reused)
ours() { # (the datadir resolved against the server's cwd: DIR may be spelt relative)
    [ -n "$1" ] && [ -r "/proc/$1/cmdline" ] || return 1
    d=$(tr '\0' '\n' <"/proc/$1/cmdline" | sed -n 's/^--datadir=//p' | head -n 1)
    [ -n "$d" ] || return 1
    case $d in /*) ;; *) d=$(readlink "/proc/$1/cwd")/$d ;; esac
    [ "$(realpath -m "$d")" = "$(realpath -m "$dir/data")" ]
}
# stop_old: the server this DIR's pid file names stopped, if it is ours (waits up to 5 s for
# the process to end)
stop_old() {
    p=$(cat "$dir/pid" 2>/dev/null || true)
    ours "$p" || return 0
    kill "$p" 2>/dev/null || true
    i=0; while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    ! kill -0 "$p" 2>/dev/null
}
case $cmd in
stop) stop_old; exit 0 ;; # (a pid file naming another process: nothing killed)
kill)
    p=$(cat "$dir/pid" 2>/dev/null || true)
    ours "$p" || { echo "mariadb.sh: no server of ours on $dir" >&2; exit 1; }
    t0=$(date +%s%N) # the moment of the kill (the outage test's stopwatch), as a pair
    kill -KILL "$p"
    echo "$t0 $(date +%s%N)"
    i=0; while kill -0 "$p" 2>/dev/null && [ $i -lt 500 ]; do sleep 0.01; i=$((i + 1)); done
    ! kill -0 "$p" 2>/dev/null
    exit ;;
restart) ;;
start) # a server still running on DIR stopped first: `rm -rf DIR` under it would leave it
    # running on deleted files, holding its port and memory, unseen (a second start, a restart)
    if ours "$(cat "$dir/pid" 2>/dev/null || true)"; then
        echo "mariadb.sh: a server runs on $dir (pid $(cat "$dir/pid")): stopped first" >&2
        stop_old || { echo "mariadb.sh: the server on $dir did not stop in 5 s" >&2; exit 1; }
    fi ;;
*) echo "usage: $0 start|stop|kill|restart DIR [PORT]" >&2; exit 2 ;;
esac
command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || { echo "mariadb.sh: mariadb-server is not installed" >&2; exit 77; }
PATH=$PATH:/usr/sbin
if [ "$cmd" = start ]; then
rm -rf "$dir" && mkdir -p "$dir/data" "$dir/tls" "$dir/tmp"
(
    cd "$dir/tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=bench-test-ca -keyout ca.key -out ca.pem 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout server.key -out server.csr 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > san.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.pem 2>/dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other.key -out other.pem 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj /CN=bench-client -keyout client.key -out client.csr 2>/dev/null
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -out client.pem 2>/dev/null
)
fi
# listen on ::1 too when this machine has IPv6 loopback (the IPv6 test then runs)
bind=127.0.0.1 v6=""
if python3 -c "import socket; socket.socket(socket.AF_INET6).bind(('::1', 0))" 2>/dev/null; then
    bind=127.0.0.1,::1 v6=" BENCH_MY_V6=1"
fi
# BENCH_MY_BIND_EXTRA: more addresses to listen on (tests/multihost.sh: the namespaces' bridge)
bind=$bind${BENCH_MY_BIND_EXTRA:+,$BENCH_MY_BIND_EXTRA}
[ "$cmd" = restart ] ||
mariadb-install-db --no-defaults --datadir="$dir/data" --user=root --auth-root-authentication-method=socket >"$dir/install.log" 2>&1 ||
    { cat "$dir/install.log" >&2; exit 1; }
# a port another program holds (its server exits: "Address already in use"): the next one,
# up to 20 times; the exports say which port it took
start_server() {
    # shellcheck disable=SC2086 # BENCH_MDB_ARGS is split into options on purpose
    mariadbd --no-defaults --datadir="$dir/data" --user=root --bind-address=$bind --port="$port" \
        --socket="$dir/sock" --pid-file="$dir/pid" --tmpdir="$dir/tmp" --skip-log-bin --plugin-load-add=auth_ed25519 \
        --ssl-ca="$dir/tls/ca.pem" --ssl-cert="$dir/tls/server.pem" --ssl-key="$dir/tls/server.key" \
        --innodb-buffer-pool-size=64M --max-connections=200 --max-allowed-packet=64M --log-error="$dir/error.log" ${BENCH_MDB_ARGS:-} >/dev/null 2>&1 &
    spid=$!
}
if [ "$cmd" = restart ]; then # the moment it answers: its greeting, polled every 5 ms by a
    # poller started before the server (its own start-up is no part of the outage)
    python3 - "$port" >"$dir/up" <<'PY' &
import socket, sys, time
port = int(sys.argv[1])
print("polling", flush=True)
end = time.time() + 60
refused = time.time_ns() # the end of the last attempt refused (a late wake-up widens the pair)
while time.time() < end:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            if s.recv(1):
                print(refused, time.time_ns())
                sys.exit(0)
    except ConnectionRefusedError: # proof that nothing listened then (a reset, a silent
        refused = time.time_ns()   # close or a timeout prove nothing)
    except OSError:
        pass
    time.sleep(0.005)
sys.exit("mariadb.sh: the server did not answer in 60 s")
PY
    ppid_=$!
    i=0; until [ -s "$dir/up" ] || [ $i -ge 500 ]; do sleep 0.01; i=$((i + 1)); done
    start_server
    wait "$ppid_" || exit 1
    tail -n 1 "$dir/up"
    exit 0
fi
start_server
i=0 tries=0
until mariadb --no-defaults -uroot -S "$dir/sock" -e 'select 1' >/dev/null 2>&1; do
    if ! kill -0 "$spid" 2>/dev/null && grep -q "Address already in use" "$dir/error.log" && [ $tries -lt 20 ]; then
        echo "mariadb.sh: port $port is taken: trying $((port + 1))" >&2
        tries=$((tries + 1)) port=$((port + 1)) i=0
        : >"$dir/error.log"
        start_server
    fi
    i=$((i + 1)); [ $i -lt 300 ] || { echo "mariadb.sh: server did not start:" >&2; tail "$dir/error.log" >&2; exit 1; }
    sleep 0.1
done
mariadb --no-defaults -uroot -S "$dir/sock" <<'SQL'
DELETE FROM mysql.global_priv WHERE User='';
FLUSH PRIVILEGES;
CREATE USER 'nat'@'%' IDENTIFIED BY 'secret';
CREATE USER 'ed'@'%' IDENTIFIED VIA ed25519 USING PASSWORD('foobar');
CREATE USER 'tls'@'%' IDENTIFIED BY 'tlspw' REQUIRE SSL;
CREATE USER 'x509'@'%' IDENTIFIED BY 'certpw' REQUIRE X509;
CREATE USER 'nopw'@'%' IDENTIFIED BY '';
CREATE DATABASE benchtest;
GRANT ALL ON *.* TO 'nat'@'%', 'ed'@'%', 'tls'@'%', 'x509'@'%', 'nopw'@'%';
SQL
echo "export BENCH_MY_HOST=127.0.0.1 BENCH_MY_PORT=$port BENCH_MY_SOCK=$dir/sock BENCH_MY_CA=$dir/tls/ca.pem BENCH_MY_OTHER_CA=$dir/tls/other.pem BENCH_MY_CLIENT_CERT=$dir/tls/client.pem BENCH_MY_CLIENT_KEY=$dir/tls/client.key$v6"
