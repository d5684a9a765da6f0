Golden transcripts of the bench persona: timing fields matched by their exact format (width,
precision), every result also through tests/check_result.py's invariants. Run by tests/run.sh with cram3;
$BENCH is the release binary under test.

Version and help come from the option tables:

  $ $BENCH --version
  bench * (sysbench 1.0.20 compatible; mbed TLS 2.28.3) (glob)
  $ $BENCH cpu help
  bench * (sysbench 1.0.20 compatible) (glob)
  
  cpu options:
    --cpu-max-prime=N upper limit for primes generator [10000]
  
  $ $BENCH --help | sed -n '1,15p'
  bench: database host sizing and benchmarks in one static binary
  
  Commands:
    all   the one-page sizing report: host, CPU, memory, disk, database, verdicts
          bench all --dir=/var/lib/mysql [-h HOST -u USER -p] [--quick]
    oltp  the OLTP sizing one-liner: a thread ladder in its own schema, the knee
          bench oltp -h HOST -u USER -p
    ping  connection check: server, TLS, authentication, round-trip times
          bench ping -h HOST -u USER -p
    compare  reports side by side: ratios, better/worse beyond noise
          bench compare before.json after.json
    slap  mysqlslap (mariadb-slap), drop-in
          bench slap -h HOST -u USER -p -a -c 10,50 -i 3
  
  The sysbench 1.0.20 compatible tests and their options follow.
  $ $BENCH --help | sed -n '/^Usage:/,$p' | sed -n '1,8p'
  Usage:
    bench [options]... [testname] [command]
  
  Commands implemented by most tests: prepare run cleanup help
  
  General options:
    --threads=N                     number of threads to use [1]
    --events=N                      limit for total number of events [0]
  $ $BENCH --help | sed -n '/^Compiled-in tests:/,/^$/p' | grep -E '^  (fileio|ping|oltp_read_write|oltp_point_select|bulk_insert|oltp|cpu|memory|threads|mutex) - '
    fileio - File I/O test
    ping - MySQL/MariaDB or PostgreSQL connection check: server, TLS, authentication, round trips
    oltp_read_write - sysbench's oltp_read_write.lua (MySQL/MariaDB)
    oltp_point_select - sysbench's oltp_point_select.lua (MySQL/MariaDB)
    bulk_insert - sysbench's bulk_insert.lua (MySQL/MariaDB)
    oltp - the sizing one-liner: bench oltp -h HOST -u USER [-p]: a schema of its own, a thread ladder, the knee
    cpu - CPU performance test
    memory - Memory functions speed test
    threads - Threads subsystem performance test
    mutex - Mutex performance test
  $ $BENCH --help | grep -c zipfian
  2

A cpu run with --events: exact event count, sysbench's blocks, several percentiles.

  $ CHECK="python3 $TESTDIR/../check_result.py"
  $ $BENCH cpu --events=20 --time=0 --threads=2 --percentile=50,99,99.9 --rand-seed=7 run | $CHECK --tee -- cpu --events=20 --time=0 --threads=2 --percentile=50,99,99.9 run
  bench * (sysbench 1.0.20 compatible) (glob)
  
  Running the test with following options:
  Number of threads: 2
  Initializing random number generator from seed (7).
  
  
  Prime numbers limit: 10000
  
  Initializing worker threads...
  
  Threads started!
  
  CPU speed:
      events per second: (?=.{8}$) *[0-9]+\.[0-9]{2} (re)
  
  General statistics:
      total time:                          [0-9]+\.[0-9]{4}s (re)
      total number of events:              20
  
  Latency (ms):
           min: (?=.{39}$) *[0-9]+\.[0-9]{2} (re)
           avg: (?=.{39}$) *[0-9]+\.[0-9]{2} (re)
           max: (?=.{39}$) *[0-9]+\.[0-9]{2} (re)
           50th percentile: (?=.{27}$) *[0-9]+\.[0-9]{2} (re)
           99th percentile: (?=.{27}$) *[0-9]+\.[0-9]{2} (re)
         99.9th percentile: (?=.{27}$) *[0-9]+\.[0-9]{2} (re)
           sum: (?=.{39}$) *[0-9]+\.[0-9]{2} (re)
  
  Threads fairness:
      events \(avg/stddev\):           10.0000/[0-9]+\.[0-9]{2} (re)
      execution time \(avg/stddev\):   [0-9]+\.[0-9]{4}/[0-9]+\.[0-9]{2} (re)
  
  invariants: 16 hold

Memory: sysbench's semantics (events = total / block / threads, --events ignored).

  $ $BENCH memory --memory-total-size=64M --memory-block-size=64K --threads=2 --events=1 --time=0 run | $CHECK --tee -- memory --memory-total-size=64M --memory-block-size=64K --threads=2 --events=1 --time=0 run | sed -n '/Running memory/,$p'
  Running memory speed test with the following options:
    block size: 64KiB
    total size: 64MiB
    operation: write
    scope: global
  
  Initializing worker threads...
  
  Threads started!
  
  Total operations: 1024 \((?=[ 0-9.]{8,} per second\)$) *[0-9]+\.[0-9]{2} per second\) (re)
  
  64.00 MiB transferred \([0-9]+\.[0-9]{2} MiB/sec\) (re)
  
  
  General statistics:
      total time:                          [0-9]+\.[0-9]{4}s (re)
      total number of events:              1024
  
  Latency (ms):
           min: (?=.{39}$) *[0-9]+\.[0-9]{2} (re)
           avg: (?=.{39}$) *[0-9]+\.[0-9]{2} (re)
           max: (?=.{39}$) *[0-9]+\.[0-9]{2} (re)
           95th percentile: (?=.{27}$) *[0-9]+\.[0-9]{2} (re)
           sum: (?=.{39}$) *[0-9]+\.[0-9]{2} (re)
  
  Threads fairness:
      events (avg/stddev):           512.0000/0.00
      execution time \(avg/stddev\):   [0-9]+\.[0-9]{4}/[0-9]+\.[0-9]{2} (re)
  
  invariants: 15 hold

threads and mutex (mutex: one event per thread whatever --events says):

  $ $BENCH threads --events=50 --thread-yields=10 run | grep 'total number of events'
      total number of events:              50
  $ $BENCH mutex --threads=3 --events=50 --mutex-locks=100 run | grep 'total number of events'
      total number of events:              3

The 0.4 syntax of old scripts, with sysbench's deprecation warnings; a .lua path maps to the
built-in test of that name; options may come in a config file:

  $ $BENCH --test=cpu --num-threads=2 --max-requests=30 --max-time=0 run 2>&1 | grep -E 'WARN|deprecated|threads:|number of events'
  WARNING: the --test option is deprecated. You can pass a script name or path on the command line without any options.
  bench: warning: --num-threads is deprecated, use --threads instead
  bench: warning: --max-requests is deprecated, use --events instead
  Number of threads: 2
      total number of events:              30
  $ $BENCH /usr/share/sysbench/threads.lua --events=5 run | grep 'number of events'
      total number of events:              5
  $ printf 'threads = 2\n# a comment\nevents=7\ntime = 0\n' > my.conf
  $ $BENCH --config-file=my.conf cpu run | grep -E 'threads:|number of events'
  Number of threads: 2
      total number of events:              7

A script path stands for the built-in only when the file is sysbench 1.0.20's own script of that
name (sha256) or lies under sysbench's script directory: bench has no Lua interpreter, so an
edited copy is refused (exit 2) rather than run as the built-in in its place:

  $ cp /usr/share/sysbench/oltp_point_select.lua . && $BENCH ./oltp_point_select.lua help | sed -n 3p
  oltp_point_select options:
  $ mkdir ed && sed '$a -- point selects only' oltp_point_select.lua > ed/oltp_point_select.lua
  $ $BENCH ed/oltp_point_select.lua --events=1 run
  bench: ed/oltp_point_select.lua: not sysbench 1.0.20's oltp_point_select.lua (sha256 *..., not 5002f6d702e1...): bench would run its built-in oltp_point_select in its place (glob)
  bench: hint: bench has no Lua interpreter: for sysbench's own script name the built-in (`bench oltp_point_select ...`); run an edited one with sysbench itself
  [2]
  $ cp ed/oltp_point_select.lua mine.lua && $BENCH ./mine.lua run
  bench: ./mine.lua: not a script of sysbench 1.0.20: bench cannot run it
  bench: hint: bench has no Lua interpreter and runs only its built-in workloads (`bench --help` lists them); run this script with sysbench itself
  [2]
  $ $BENCH ./nosuch/oltp_point_select.lua run
  bench: ./nosuch/oltp_point_select.lua: cannot read the script: No such file or directory (ENOENT)
  bench: hint: bench has no Lua interpreter and runs only its built-in workloads (`bench --help` lists them); run this script with sysbench itself
  [2]

sysbench 1.0.20 loads a plain script name from the working directory first (the file NAME, then
NAME.lua): its persona checks that file too, and runs the built-in for sysbench's own copy:

  $ mkdir sb && ln -s "$BENCH" sb/sysbench && cd ed && ../sb/sysbench oltp_point_select help
  FATAL: ./oltp_point_select.lua: not sysbench 1.0.20's oltp_point_select.lua (sha256 *..., not 5002f6d702e1...): bench would run its built-in oltp_point_select in its place (glob)
  [1]
  $ mv oltp_point_select.lua oltp_point_select && ../sb/sysbench oltp_point_select help
  FATAL: oltp_point_select: sysbench 1.0.20 would run the file ./oltp_point_select in this directory, which is not its oltp_point_select.lua: bench would run its built-in in its place
  [1]
  $ cd .. && sb/sysbench oltp_point_select help | sed -n 3p
  oltp_point_select options:

Interval reports, --rate (open loop) and checkpoints in sysbench's line format:

  $ $BENCH cpu --time=2 --report-interval=1 --rate=100 --cpu-max-prime=1000 run | $CHECK --tee -- cpu --time=2 --report-interval=1 --rate=100 run | grep -E '^\[|^invariants'
  \[ 1s \] thds: 1 eps: [0-9]+\.[0-9]{2} lat \(ms,95%\): [0-9]+\.[0-9]{2} (re)
  \[ 1s \] queue length: [0-9]+ concurrency: [01] (re)
  \[ 2s \] thds: [01] eps: [0-9]+\.[0-9]{2} lat \(ms,95%\): [0-9]+\.[0-9]{2} (re)
  \[ 2s \] queue length: [0-9]+ concurrency: [01] (re)
  invariants: 20 hold
  $ $BENCH cpu --time=2 --report-checkpoints=1 --cpu-max-prime=1000 run | grep -cE 'Checkpoint report|^General statistics'
  3

A checkpoint time given twice is one report (as sysbench); a percentile is labelled with
the value given, never rounded (%g made 99.99999 "100th"):

  $ $BENCH cpu --time=2 --report-checkpoints=1,1 --report-interval=1 --percentile=99.99999 --cpu-max-prime=1000 run | grep -E '^\[|^Report|percentile'
  Report intermediate results every 1 second(s)
  Report checkpoint(s) at 1, 1 seconds
  \[ 1s \] thds: 1 eps: [0-9]+\.[0-9]{2} lat \(ms,99.99999%\): [0-9]+\.[0-9]{2} (re)
  [ 1s ] Checkpoint report:
     99.99999th percentile: (?=.{27}$) *[0-9]+\.[0-9]{2} (re)
  \[ 2s \] thds: [01] eps: [0-9]+\.[0-9]{2} lat \(ms,99.99999%\): [0-9]+\.[0-9]{2} (re)
     99.99999th percentile: (?=.{27}$) *[0-9]+\.[0-9]{2} (re)
  $ $BENCH cpu --events=200 --time=0 --histogram --cpu-max-prime=1000 run | sed -n '/Latency histogram/,/^ $/p' | head -2
  Latency histogram (values are in milliseconds)
         value  ------------- distribution ------------- count

--warmup-time runs events first and leaves them out of the statistics (the total time is
the measured second and the last events' join: up to 1.4 s under a loaded host, 2 s had the
warm-up been counted):

  $ $BENCH cpu --warmup-time=1 --time=1 --cpu-max-prime=1000 run | grep -E 'Warmup|total time'
  Warmup time: 1s
      total time:                          1\.[0-4][0-9]{3}s (re)
  $ $BENCH cpu --warmup-time=1 --events=3000 --time=0 --threads=2 --cpu-max-prime=300 run | $CHECK --tee -- cpu --warmup-time=1 --events=3000 --time=0 --threads=2 run | grep -E 'number of events|invariants'
      total number of events:              3000
  invariants: 12 hold

Bad input: one line saying what and why, one hint, exit 2 (usage) or 3 (environment):

  $ $BENCH --thread=4 cpu run
  bench: unknown option '--thread' (did you mean '--threads'?)
  bench: hint: see 'bench --help' and 'bench cpu help'
  [2]
  $ $BENCH memory --cpu-max-prime=5 run
  bench: unknown option '--cpu-max-prime' (--cpu-max-prime is an option of the 'cpu' test)
  bench: hint: see 'bench --help' and 'bench memory help'
  [2]
  $ $BENCH --threads=eight cpu run
  bench: --threads: invalid value 'eight' (expected an integer 1..100000)
  bench: hint: see 'bench --help' and 'bench cpu help'
  [2]
  $ $BENCH --rand-type=zipf cpu run
  bench: --rand-type: invalid value 'zipf' (expected one of {uniform,gaussian,special,pareto,zipfian})
  bench: hint: see 'bench --help' and 'bench cpu help'
  [2]
  $ $BENCH --debug=maybe cpu run
  bench: --debug: invalid value 'maybe' (expected on, off, true, false, 1 or 0)
  bench: hint: see 'bench --help' and 'bench cpu help'
  [2]
  $ $BENCH --memory-block-size=1.5K memory run
  bench: --memory-block-size: invalid value '1.5K' (expected a size with an optional K/M/G/T suffix, 0..1099511627776 bytes)
  bench: hint: see 'bench --help' and 'bench memory help'
  [2]
  $ $BENCH memory --memory-block-size=3 run
  bench: memory: --memory-block-size=3: not a power of two of at least 8 bytes
  bench: hint: use a size such as 1K, 4K, 1M or 64M
  [2]
  $ $BENCH --percentile=50,x cpu run
  bench: --percentile: invalid value '50,x' (expected 0, or up to 8 percentiles in 0..100 separated by commas, such as 50,95,99.9)
  bench: hint: see 'bench --help' and 'bench cpu help'
  [2]
  $ $BENCH --histogram --percentile=0 cpu run
  bench: --histogram needs percentiles, but --percentile=0 disables them
  bench: hint: drop --percentile=0 or --histogram
  [2]
  $ $BENCH --forced-shutdown=soon cpu run
  bench: --forced-shutdown: invalid value 'soon' (expected off, seconds such as 5, or a percentage of --time such as 10%)
  bench: hint: see 'bench --help' and 'bench cpu help'
  [2]
  $ $BENCH cpux run
  bench: unknown test 'cpux' (did you mean 'cpu'?)
  bench: hint: the tests are listed by 'bench --help'
  [2]
  $ $BENCH cpu
  bench: the 'cpu' test needs a command: run or help
  bench: hint: try 'bench cpu run'
  [2]
  $ $BENCH cpu prepare
  bench: the 'cpu' test does not implement the 'prepare' command (it needs no files or tables)
  bench: hint: try 'bench cpu run'
  [2]
  $ $BENCH cpu run now
  bench: unexpected argument 'now' (the syntax is: bench [options]... [testname] [command])
  bench: hint: options take the form --name=value, with no space
  [2]
  $ $BENCH --config-file=/nonexistent.conf cpu run
  bench: cannot read config file '/nonexistent.conf': No such file or directory (ENOENT)
  bench: hint: the file holds lines such as 'threads = 4'
  [3]

HugeTLB memory, probed: when the host reserved no huge pages, the error and exit 3; when it
reserved some, the run works (each branch prints three lines):

  $ n=$(cat /proc/sys/vm/nr_hugepages)
  $ $BENCH memory --memory-hugetlb --memory-block-size=1M --memory-total-size=16M --time=0 run >/dev/null 2>hp.err; rc=$?
  $ if [ "$n" = 0 ]; then cat hp.err; echo "[$rc]"; else echo "$n huge pages reserved"; echo "exit $rc"; wc -l <hp.err; fi
  (bench: memory: allocating the 1048576-byte block from the HugeTLB pool: shmget\(SHM_HUGETLB, 4194304 bytes\) failed: .*|[1-9][0-9]* huge pages reserved) (re)
  (bench: hint: reserve huge pages first \(sysctl vm.nr_hugepages=N; now 0\) or drop --memory-hugetlb|exit 0) (re)
  (\[3\]|0) (re)

--rate that the workers cannot keep: sysbench's queue-full error, exit 1, no report:

  $ $BENCH --rate=2000000000 cpu run
  bench * (sysbench 1.0.20 compatible) (glob)
  
  Running the test with following options:
  Number of threads: 1
  Target transaction rate: 2000000000/sec
  Initializing random number generator from current time
  
  
  Prime numbers limit: 10000
  
  Initializing worker threads...
  
  Threads started!
  
  bench: The event queue is full. This means the worker threads are unable to keep up with the specified event generation rate
  bench: hint: lower --rate or add --threads; the results would hide the backlog
  [1]

--forced-shutdown: a run whose event outlives --time is cut, reported, exit 1:

  $ $BENCH mutex --mutex-locks=1000000000 --time=1 --forced-shutdown=1 run 2>&1 | grep -E 'forcing|unfinished'
  bench: run: --time=1 expired [0-9]+\.[0-9] s ago and 1 thread\(s\) are still inside an event; forcing shutdown \(--forced-shutdown=1\), exit 1 (re)
  Number of unfinished transactions on forced shutdown: 1

Invoked as sysbench (a symlink), bench is sysbench 1.0.20:

  $ ln -s $BENCH sysbench
  $ ./sysbench --version
  sysbench 1.0.20
  $ ./sysbench --thread=4 cpu run
  sysbench 1.0.20 (using bench *) (glob)
  
  invalid option: --thread=4
  [1]
  $ ./sysbench --rand-type=zipfian cpu run
  FATAL: Invalid random numbers distribution: zipfian.
  [1]
