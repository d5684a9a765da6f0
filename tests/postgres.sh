#!/bin/sh
# A throwaway PostgreSQL 15 server for the test suite (Debian's package), on loopback only,
# with TLS and one user per authentication method.
#   tests/postgres.sh start DIR [PORT]   prints "export" lines for the tests (eval them)
#   tests/postgres.sh stop DIR
# initdb refuses root: as root the cluster belongs to the user postgres (the package's), DIR
# is chowned to it and the server runs as it; as anyone else it runs as that user.
# Listens on 127.0.0.1 and 127.0.0.2 (an address the certificate does not name). Users
# (pg_hba.conf, TCP): trustu (trust), scram/scrampw (scram-sha-256),
# md5u/md5pw (md5, its password stored as md5), clear/clearpw (password: cleartext), tlsonly/
# tlspw (hostssl only, scram-sha-256); over the unix socket: clear (password), others trust.
# Database benchtest; pg_stat_statements preloaded (tests/pgsql_oltp.sh's counters). The CA,
# server certificate (CN localhost, SAN localhost and 127.0.0.1)
# and an unrelated CA are made with the openssl CLI at start, never committed.
set -eu
cmd=$1 dir=$2 port=${3:-54321}
bin=/usr/lib/postgresql/15/bin
as_pg() { # run "$@" as the cluster's owner
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case $cmd in
stop)
    [ -f "$dir/data/postmaster.pid" ] || exit 0
    as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 10 stop >/dev/null 2>&1 || true
    exit 0 ;;
start)
    [ ! -f "$dir/data/postmaster.pid" ] ||
        as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate -w -t 10 stop >/dev/null 2>&1 || true ;;
*) echo "usage: $0 start|stop DIR [PORT]" >&2; exit 2 ;;
esac
[ -x "$bin/initdb" ] || { echo "postgres.sh: postgresql-15 is not installed" >&2; exit 77; }
command -v openssl >/dev/null || { echo "postgres.sh: openssl is not installed" >&2; exit 77; }
rm -rf "$dir" && mkdir -p "$dir/tls"
(
    cd "$dir/tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=bench-pg-ca -keyout ca.key -out ca.pem 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj /CN=localhost -keyout server.key -out server.csr 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > san.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile san.ext -out server.pem 2>/dev/null
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=other-ca -keyout other.key -out other.pem 2>/dev/null
    chmod 600 server.key
)
[ "$(id -u)" != 0 ] || chown -R postgres "$dir"
as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }
cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1,127.0.0.2'
port = $port
unix_socket_directories = '$dir'
ssl = on
ssl_cert_file = '$dir/tls/server.pem'
ssl_key_file = '$dir/tls/server.key'
fsync = off
max_connections = ${BENCH_PG_MAX_CONNECTIONS:-50}
shared_buffers = 16MB
shared_preload_libraries = 'pg_stat_statements'
CONF
cat >"$dir/data/pg_hba.conf" <<'HBA'
local   all  clear                  password
local   all  all                    trust
host    all  trustu   127.0.0.0/8   trust
host    all  scram    127.0.0.0/8   scram-sha-256
host    all  md5u     127.0.0.0/8   md5
host    all  clear    127.0.0.0/8   password
hostssl all  tlsonly  127.0.0.0/8   scram-sha-256
host    all  postgres 127.0.0.0/8   trust
HBA
# a port another program holds: the next one, up to 20 times
tries=0
until as_pg "$bin/pg_ctl" -D "$dir/data" -o "-p $port" -l "$dir/server.log" -w -t 30 start >/dev/null 2>&1; do
    if grep -q "Address already in use\|could not create any TCP/IP sockets" "$dir/server.log" && [ $tries -lt 20 ]; then
        echo "postgres.sh: port $port is taken: trying $((port + 1))" >&2
        tries=$((tries + 1)) port=$((port + 1))
        sed -i "s/^port = .*/port = $port/" "$dir/data/postgresql.conf"
        : >"$dir/server.log"
        continue
    fi
    echo "postgres.sh: server did not start:" >&2; tail "$dir/server.log" >&2; exit 1
done
as_pg "$bin/psql" -X -q -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 >/dev/null <<'SQL'
CREATE ROLE trustu LOGIN;
CREATE ROLE scram LOGIN PASSWORD 'scrampw';
CREATE ROLE clear LOGIN PASSWORD 'clearpw';
CREATE ROLE tlsonly LOGIN PASSWORD 'tlspw';
SET password_encryption = 'md5';
CREATE ROLE md5u LOGIN PASSWORD 'md5pw';
CREATE DATABASE benchtest;
SQL
echo "export BENCH_PG_HOST=127.0.0.1 BENCH_PG_PORT=$port BENCH_PG_SOCKDIR=$dir BENCH_PG_CA=$dir/tls/ca.pem BENCH_PG_OTHER_CA=$dir/tls/other.pem"
