fileio: sysbench's disk test on real files (cram runs this in a scratch directory).
F holds small sizes; the RAM warning (stderr) is checked once, then silenced.

  $ F="--file-num=4 --file-total-size=4M --file-dir=d"
  $ mkdir d

prepare writes whole blocks of incompressible data, with sysbench's messages:

  $ $BENCH fileio $F prepare
  bench * (sysbench 1.0.20 compatible) (glob)
  
  4 files, 1024Kb each, 4Mb total
  Creating files for the test...
  Extra file open flags: (none)
  Creating file d/test_file.0
  Creating file d/test_file.1
  Creating file d/test_file.2
  Creating file d/test_file.3
  4194304 bytes written in [0-9]+\.[0-9]{2} seconds \([0-9]+\.[0-9]{2} MiB/sec\)\. (re)
  $ ls d
  test_file.0
  test_file.1
  test_file.2
  test_file.3
  $ gzip -c d/test_file.0 | wc -c | awk '{ print ($1 > 1040000) ? "incompressible" : "compressible: " $1 }'
  incompressible
  $ $BENCH fileio $F prepare | grep -c 'Reusing existing file'
  4

A run: sysbench's blocks, then bench's per-operation latency; the header says what the
files sit on and warns when the page cache, not the disk, would answer:

  $ CHECK="python3 $TESTDIR/../check_result.py"
  $ $BENCH fileio $F --file-test-mode=rndrw --events=300 --time=0 --percentile=50,99 run 2>&1 | $CHECK --tee -- fileio $F --file-test-mode=rndrw --events=300 --time=0 --percentile=50,99 run | sed -n '/^Directory/p;/^bench:/p;/^File operations/,/^General/p;/^invariants/p'
  Directory */d: * on * (*), * free* (glob)
  bench: warning: fileio: the 4MiB of test files fit in RAM (*) and O_DIRECT is off: this measures the page cache, not the disk (glob)
  bench: hint: add --file-extra-flags=direct, or make --file-total-size larger than RAM
  File operations:
      reads/s:                      [0-9]+\.[0-9]{2} (re)
      writes/s:                     [0-9]+\.[0-9]{2} (re)
      fsyncs/s:                     [0-9]+\.[0-9]{2} (re)
  
  Throughput:
      read, MiB/s:                  [0-9]+\.[0-9]{2} (re)
      written, MiB/s:               [0-9]+\.[0-9]{2} (re)
  
  Latency by operation (ms):
      read          175 ops  50%: [0-9]+\.[0-9]{3} 99%: [0-9]+\.[0-9]{3} (re)
      write         117 ops  50%: [0-9]+\.[0-9]{3} 99%: [0-9]+\.[0-9]{3} (re)
      fsync           8 ops  50%: [0-9]+\.[0-9]{3} 99%: [0-9]+\.[0-9]{3} (re)
  
  General statistics:
  invariants: 24 hold

The event sequence is sysbench's: 100 requests, then one fsync per file (4), repeated;
rndrw reads and writes 1.5:1; each thread fsyncs every file at the end:

  $ $BENCH fileio $F --file-test-mode=rndrw --events=312 --time=0 run 2>/dev/null | $CHECK --tee -- fileio $F --file-test-mode=rndrw --events=312 --time=0 run | grep -E 'ops |number of events|invariants'
      read          180 ops  95%: [0-9]+\.[0-9]{3} (re)
      write         120 ops  95%: [0-9]+\.[0-9]{3} (re)
      fsync          12 ops  95%: [0-9]+\.[0-9]{3} (re)
      total number of events:              312
  invariants: 22 hold

The fsync counts follow that sequence in every fsync mode (tests/check_result.py simulates
it: periodic bursts, end fsyncs per thread, none of those under --file-fsync-all, whose
writes are each followed by an fsync in the same event; with several threads, writes without
periodic fsyncs: every thread fsyncs every file at the end):

  $ for x in "--file-test-mode=rndwr --file-fsync-all --events=50" "--file-test-mode=rndrw --file-fsync-all --events=60" \
  >     "--file-test-mode=rndrw --file-fsync-mode=fdatasync --events=250" "--file-test-mode=rndwr --file-fsync-end=off --events=250" \
  >     "--file-test-mode=rndwr --file-fsync-freq=0 --events=50" "--file-test-mode=rndwr --file-fsync-freq=0 --threads=2 --events=100" \
  >     "--file-test-mode=seqwr --file-fsync-freq=7 --events=100"; do
  >   $BENCH fileio $F $x --time=0 run 2>/dev/null | $CHECK -- fileio $F $x --time=0 run
  > done
  invariants: 22 hold
  invariants: 22 hold
  invariants: 22 hold
  invariants: 22 hold
  invariants: 22 hold
  invariants: 22 hold
  invariants: 22 hold
  $ $BENCH fileio $F prepare >/dev/null

Every mode and I/O mode (sync, mmap, io_uring with a queue depth, O_DIRECT):

  $ for m in seqwr seqrewr seqrd rndrd rndwr rndrw; do for io in sync mmap async; do
  >   $BENCH fileio $F prepare >/dev/null
  >   $BENCH fileio $F --file-test-mode=$m --file-io-mode=$io --file-queue-depth=$([ $io = async ] && echo 8 || echo 0) --events=200 --time=0 run 2>/dev/null | grep -q 'total number of events:              200' || echo "FAIL $m $io"
  > done; done
  $ $BENCH fileio $F --file-test-mode=seqwr --events=10 --time=0 run >/dev/null 2>&1
  $ ls -l d | awk 'NR > 1 { print $5, $9 }'
  163840 test_file.0
  0 test_file.1
  0 test_file.2
  0 test_file.3
  $ $BENCH fileio $F prepare | grep -E 'existing file|Creating file '
  Extending existing file d/test_file.0
  Creating file d/test_file.1
  Creating file d/test_file.2
  Creating file d/test_file.3
  $ $BENCH fileio $F --file-test-mode=rndrd --file-extra-flags=direct --file-io-mode=async --file-queue-depth=16 --time=1 run 2>&1 | grep -E 'directio|queue depth|^bench:'
  Extra file open flags: directio
  io_uring queue depth 16 per thread

--validate: blocks written by io_uring are read back and checked by pread, and the other way
round; a flipped byte is caught (flipped: the data is random, so writing a fixed byte left it
unchanged once in 256 runs):

  $ $BENCH fileio $F prepare >/dev/null
  $ $BENCH fileio $F --file-test-mode=seqwr --validate --file-io-mode=async --file-queue-depth=4 --events=264 --time=0 run >/dev/null 2>&1
  $ $BENCH fileio $F --file-test-mode=seqrd --validate --events=256 --time=0 run 2>/dev/null | grep -E 'Using checksums|number of events'
  Using checksums validation.
      total number of events:              256
  $ $BENCH fileio $F --file-test-mode=rndwr --validate --events=500 --time=0 --file-fsync-freq=0 run >/dev/null 2>&1
  $ $BENCH fileio $F --file-test-mode=rndrd --validate --file-io-mode=async --file-queue-depth=8 --events=2000 --time=0 run 2>/dev/null | grep 'number of events'
      total number of events:              2000
  $ python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(100); b = f.read(1)[0]; f.seek(100); f.write(bytes([b ^ 0xff]))' d/test_file.2
  $ $BENCH fileio $F --file-test-mode=seqrd --validate --events=256 --time=0 run >/dev/null 2>err; echo "exit $?"
  exit 1
  $ grep -v RAM err
  bench: warning: the statistics above are incomplete: the run stopped on the error below
  bench: fileio: Checksum mismatch in block with offset: 0 (file 2)

io_uring refused by a seccomp filter (as in containers): a warning and sync, or exit 3 with
--file-io-mode-strict:

  $ $TESTDIR/../noiouring $BENCH fileio $F --file-test-mode=rndrd --file-io-mode=async --events=10 --time=0 run 2>&1 | grep -E '^bench: warning: fileio: io_uring|Using|number of events'
  bench: warning: fileio: io_uring_setup(2) failed: Operation not permitted (EPERM); refused by a seccomp profile (containers) or by kernel.io_uring_disabled; falling back to --file-io-mode=sync
  Using synchronous I/O mode
      total number of events:              10
  $ $TESTDIR/../noiouring $BENCH fileio $F --file-test-mode=rndrd --file-io-mode=async --file-io-mode-strict run
  bench: fileio: io_uring_setup(2) failed: Operation not permitted (EPERM); refused by a seccomp profile (containers) or by kernel.io_uring_disabled
  bench: hint: use --file-io-mode=sync (kernel.io_uring_disabled is * here) (glob)
  [3]
  $ NOIOURING_ERRNO=38 $TESTDIR/../noiouring $BENCH fileio $F --file-test-mode=rndrd --file-io-mode=async --file-io-mode-strict run 2>&1 | head -1
  bench: fileio: io_uring_setup(2) failed: Function not implemented (ENOSYS); the kernel lacks io_uring (Linux < 5.1 or CONFIG_IO_URING=n) or a sandbox hides it

Ownership: bench never touches a file named like its own that it did not make.

  $ head -c 1000 /dev/urandom > d/test_file.7
  $ cp d/test_file.7 keep.7
  $ $BENCH fileio --file-num=8 --file-total-size=8M --file-dir=d prepare >/dev/null
  bench: fileio: prepare: not touching d/test_file.7: not created by bench (no manifest entry)
  bench: hint: move it away, or use another --file-dir
  [3]
  $ $BENCH fileio --file-num=8 --file-total-size=8M --file-dir=d --file-test-mode=seqwr run 2>&1 | grep '^bench: fileio'
  bench: fileio: seqwr would re-create d/test_file.7, but it was not created by bench (no manifest entry): not touching it
  $ $BENCH fileio --file-num=8 --file-total-size=8M --file-dir=d cleanup
  bench * (sysbench 1.0.20 compatible) (glob)
  
  Removing test files...
  bench: warning: fileio: cleanup: left d/test_file.7: not created by bench (no manifest entry)
  bench: hint: bench removes only the files its manifest in --file-dir proves its own; remove the others yourself if they are yours to remove
  [1]
  $ ls d
  test_file.7
  $ cmp d/test_file.7 keep.7

prepare refuses, before writing anything, when the filesystem lacks the space:

  $ $BENCH fileio --file-num=2 --file-total-size=900T --file-dir=d prepare
  bench * (sysbench 1.0.20 compatible) (glob)
  
  2 files, 483183820800Kb each, 943718400Mb total
  Creating files for the test...
  Extra file open flags: (none)
  bench: fileio: prepare in d needs 900TiB more, but the filesystem has * available (989560465002496 bytes needed, * available) (glob)
  bench: hint: lower --file-total-size, or use another --file-dir
  [3]
  $ ls d
  test_file.7

Errors before a run, each with its hint:

  $ $BENCH fileio $F --file-test-mode=rndrd run 2>&1 | grep -E '^bench: (fileio|hint: run)'
  bench: fileio: cannot open d/test_file.0: No such file or directory (ENOENT)
  bench: hint: run 'bench fileio prepare' first with the same --file-num, --file-total-size and --file-dir
  $ $BENCH fileio $F run
  bench: fileio: run needs --file-test-mode: seqwr, seqrewr, seqrd, rndrd, rndwr or rndrw
  bench: hint: for example: bench fileio --file-test-mode=rndrd run
  [2]
  $ $BENCH fileio $F --file-test-mode=rndrd --file-queue-depth=8 run
  bench: fileio: --file-queue-depth=8 needs --file-io-mode=async (io_uring); sync and mmap modes do one request at a time
  bench: hint: add --file-io-mode=async, or use --threads for parallel sync I/O
  [2]
  $ $BENCH fileio $F --file-extra-flags=direct,fast prepare
  bench: --file-extra-flags: unknown flag 'fast' (expected sync, dsync or direct, separated by commas)
  bench: hint: see 'bench fileio help'
  [2]
  $ $BENCH fileio --file-dir=nowhere --file-test-mode=rndrd run
  bench: fileio: --file-dir=nowhere: No such file or directory
  bench: hint: create the directory first, on the disk you want to measure
  [3]
