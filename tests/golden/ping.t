bench ping against the suite's MariaDB (tests/run.sh exports BENCH_MY_*): server, TLS,
plugin, connect time and round trips; then the errors a DBA meets first.

  $ C="--no-defaults -h $BENCH_MY_HOST -P $BENCH_MY_PORT"
  $ $BENCH ping $C -u nat -psecret --count=5 | python3 $TESTDIR/../check_result.py --tee -- ping --count=5 | sed "s/:$BENCH_MY_PORT\$/:PORT/"
  Connected to 127.0.0.1:PORT
      server:            10.11.*-MariaDB* (MariaDB), connection id * (glob)
      TLS:               TLSv1.2 TLS-* (certificate not verified) (glob)
      authentication:    mysql_native_password as 'nat'
      connect:           [0-9]+\.[0-9]{2} ms \(TCP \+ TLS \+ login\) (re)
      server settings:   hostname *, max_connections 200, innodb_buffer_pool_size 64MiB (glob)
      COM_PING                    5 round trips, ms: min [0-9]+\.[0-9]{3} avg [0-9]+\.[0-9]{3} p50 [0-9]+\.[0-9]{3} p95 [0-9]+\.[0-9]{3} p99 [0-9]+\.[0-9]{3} max [0-9]+\.[0-9]{3} (re)
      SELECT 1 \(COM_QUERY\)        5 round trips, ms: min [0-9]+\.[0-9]{3} avg [0-9]+\.[0-9]{3} p50 [0-9]+\.[0-9]{3} p95 [0-9]+\.[0-9]{3} p99 [0-9]+\.[0-9]{3} max [0-9]+\.[0-9]{3} (re)
      SELECT \? \(COM_STMT_EXECUTE\) 5 round trips, ms: min [0-9]+\.[0-9]{3} avg [0-9]+\.[0-9]{3} p50 [0-9]+\.[0-9]{3} p95 [0-9]+\.[0-9]{3} p99 [0-9]+\.[0-9]{3} max [0-9]+\.[0-9]{3} (re)
  invariants: 9 hold
  $ $BENCH ping $C -u ed -pfoobar --ssl-mode=DISABLED --count=1 | sed -n '3,4p'
      TLS:               off (--ssl-mode=DISABLED)
      authentication:    client_ed25519 as 'ed'
  $ $BENCH ping --no-defaults -S $BENCH_MY_SOCK -u root --count=1 | sed -n '1p;3p'
  Connected to */sock (glob)
      TLS:               off (unix socket)
  $ $BENCH ping --no-defaults -h localhost -P $BENCH_MY_PORT -u tls -ptlspw --ssl-mode=VERIFY_IDENTITY --ssl-ca=$BENCH_MY_CA --count=1 | sed -n 3p
      TLS:               TLSv1.2 TLS-* (certificate verified) (glob)

Connection options the mysql client way: MYSQL_PWD, --defaults-file, --password=:

  $ MYSQL_PWD=secret $BENCH ping -h $BENCH_MY_HOST -P $BENCH_MY_PORT -u nat --count=1 | sed -n 1p
  Connected to 127.0.0.1:* (glob)
  $ printf '[mysql]\nuser=nobody\n[client]\nuser = nat\npassword = "secret"\nhost=%s\nport=%s\n' $BENCH_MY_HOST $BENCH_MY_PORT > my.cnf
  $ $BENCH ping --defaults-file=my.cnf --count=1 | sed -n 4p
      authentication:    mysql_native_password as 'nat'
  $ $BENCH ping --defaults-file=my.cnf -u ed --password=foobar --ssl-mode=DISABLED --count=1 | sed -n 4p
      authentication:    client_ed25519 as 'ed'

Errors: what, where, the server's words verbatim, a hint; exit 3:

  $ $BENCH ping $C -u nat -pwrong
  bench: ping: login to 127.0.0.1:* failed for user 'nat' (auth plugin mysql_native_password, password: yes) (glob)
  bench: ping: server said: ERROR 1045 (28000): Access denied for user 'nat'@'localhost' (using password: YES)
  bench: hint: check --mysql-user/--mysql-password (-u/-p); MariaDB also answers 1045 when it requires TLS (try --ssl-mode=REQUIRED)
  [3]
  $ $BENCH ping $C -u nat -psecret -D nosuchdb
  bench: ping: login to 127.0.0.1:* failed for user 'nat' (auth plugin mysql_native_password, password: yes) (glob)
  bench: ping: server said: ERROR 1049 (42000): Unknown database 'nosuchdb'
  bench: hint: create the database first, or name another with --mysql-db (-D)
  [3]
  $ $BENCH ping --no-defaults -h 127.0.0.1 -P 1 -u nat
  bench: ping: connecting to 127.0.0.1:1 failed: Connection refused (ECONNREFUSED) (1 attempt, * ms) (glob)
  bench: hint: nothing is listening there; check --mysql-host/--mysql-port (-h/-P) or use --mysql-socket (-S)
  [3]
  $ $BENCH ping $C -u tls -ptlspw --ssl-mode=VERIFY_CA --ssl-ca=$BENCH_MY_OTHER_CA
  bench: ping: TLS with 127.0.0.1:*: the server certificate did not verify (VERIFY_CA): The certificate is not correctly signed by the trusted CA (glob)
  bench: hint: give the server's CA with --ssl-ca, or use --ssl-mode=REQUIRED to encrypt without verifying
  [3]

As with the mysql client, --ssl-ca alone (or with --ssl-mode=REQUIRED) means VERIFY_CA:

  $ $BENCH ping $C -u tls -ptlspw --ssl-ca=$BENCH_MY_OTHER_CA
  bench: ping: TLS with 127.0.0.1:*: the server certificate did not verify (VERIFY_CA): The certificate is not correctly signed by the trusted CA (glob)
  bench: hint: give the server's CA with --ssl-ca, or use --ssl-mode=REQUIRED to encrypt without verifying
  [3]
  $ $BENCH ping $C -u tls -ptlspw --ssl-mode=REQUIRED --ssl-ca=$BENCH_MY_OTHER_CA 2>&1 | head -1
  bench: ping: TLS with 127.0.0.1:*: the server certificate did not verify (VERIFY_CA): The certificate is not correctly signed by the trusted CA (glob)
  $ $BENCH ping $C -u tls -ptlspw --ssl-ca=$BENCH_MY_CA --count=1 | sed -n 3p
      TLS:               TLSv1.2 TLS-* (certificate verified) (glob)
  $ $BENCH ping $C -u tls -ptlspw --ssl-ca=$BENCH_MY_OTHER_CA --ssl-mode=PREFERRED --count=1 | sed -n 3p
      TLS:               TLSv1.2 TLS-* (certificate not verified) (glob)

  $ $BENCH ping $C -u tls -ptlspw --ssl-mode=VERIFY_IDENTITY --ssl-ca=$BENCH_MY_CA --count=1 2>&1 | sed -n 3p
      TLS:               TLSv1.2 TLS-* (certificate verified) (glob)
  $ $BENCH ping $C -u nat -psecret --ssl-mode=SOMETIMES
  bench: --ssl-mode: invalid value 'SOMETIMES' (expected DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY)
  bench: hint: see 'bench --help'
  [2]
  $ $BENCH ping $C -x
  bench: unknown option '-x' (bench takes --name=value options, and the mysql client's -h -P -u -p -S -D with a value)
  bench: hint: see 'bench --help'
  [2]

Invoked as sysbench, the connection error is sysbench's:

  $ ln -s $BENCH sysbench
  $ ./sysbench ping --mysql-host=$BENCH_MY_HOST --mysql-port=$BENCH_MY_PORT --mysql-user=nat --mysql-password=wrong
  sysbench 1.0.20 (using bench *) (glob)
  
  FATAL: unable to connect to MySQL server on host '127.0.0.1', port *, aborting... (glob)
  FATAL: error 1045: Access denied for user 'nat'@'localhost' (using password: YES)
  [1]

--debug=proto dumps every packet (the fixtures under tests/fixtures/mysql were captured so):

  $ $BENCH ping $C -u nat -psecret --count=1 --ssl-mode=DISABLED --debug=proto 2>&1 >/dev/null | head -3
  bench: proto: < * bytes (glob)
    0000 * 00 00 0a 35 2e 35 2e 35 2d 31 30 2e 31 31  |*| (glob)
    0010  2e 31 39 2d 4d 61 72 69 61 44 42 2d 30 2b 64 65  |.19-MariaDB-0+de|

The compressed protocol (issue 17): -C/--compress, --compression-algorithms, and sysbench's
--mysql-compression; inside TLS as the clients do; zstd is refused before connecting (exit 2):

  $ $BENCH ping $C -u nat -psecret -C --count=2 | sed -n '3,4p'
      TLS:               TLSv1.2 TLS-* (certificate not verified) (glob)
      compression:       zlib (bench's own deflate; the server's zlib)
  $ $BENCH ping $C -u nat -psecret --ssl-mode=DISABLED --compression-algorithms zlib,zstd --count=2 | sed -n '3,4p'
      TLS:               off (--ssl-mode=DISABLED)
      compression:       zlib (bench's own deflate; the server's zlib)
  $ $BENCH ping $C -u nat -psecret --mysql-compression=on --compression-algorithms=uncompressed --count=1 | grep -c compression
  1
  $ $BENCH ping $C -u nat -psecret --compression-algorithms=uncompressed --count=1 | grep -c compression
  0
  [1]
  $ $BENCH ping $C -u nat -psecret --compression-algorithms=zstd
  bench: --mysql-compression-algorithms=zstd: zstd compression is not supported (bench speaks the zlib compressed protocol)
  bench: hint: use --mysql-compression-algorithms=zlib (or --compress)
  [2]
  $ $BENCH ping $C -u nat -psecret --compression-algorithms=lz4
  bench: --mysql-compression-algorithms: invalid algorithm 'lz4' (expected zlib or uncompressed)
  bench: hint: see 'bench --help'
  [2]
  $ $BENCH ping $C -u nat -psecret --compression-algorithms
  bench: unknown option '--compression-algorithms' (bench takes --name=value options, and the mysql client's -h -P -u -p -S -D with a value)
  bench: hint: see 'bench --help'
  [2]
