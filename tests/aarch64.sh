#!/bin/sh
# The aarch64 binary (issue 31) under Debian's qemu-user-static, on this x86_64 host: built (or
# reused) with `make bench-aarch64`, checked as the release rule checks it (static, stripped,
# AArch64, LOAD segments 64K-aligned, <= 1.5 MiB), then run through a wrapper
# (qemu-aarch64-static -0 NAME: argv[0] kept, so the sysbench persona works):
#  - the unit tests built for aarch64 (tests/unit-aarch64; the live groups on the MariaDB);
#  - the golden transcripts cli.t and memx.t (cram, BENCH = the wrapper);
#  - cpu, memory, threads, mutex runs: their counts exact;
#  - the sysbench persona's output against Debian's x86 sysbench on the same command lines
#    (tests/mask_timing.py masks the timings; speed is not compared under emulation);
#  - fileio with the sync engines (sync, mmap; --validate) and async, which falls back to sync
#    with the warning that names why: qemu-user has no io_uring (io_uring_setup: ENOSYS);
#  - OLTP and slap against the suite's MariaDB over loopback (TLS and plain), the rows the
#    server holds afterwards and its Com_* counters checked.
# Not run under emulation: fileio.t (it asserts io_uring's queue depth and uses the x86
# seccomp helper tests/noiouring, which cannot wrap a qemu process: its filter would bind
# qemu's own system calls), ping.t (its timing lines are of a real network stack; ping runs
# here instead), the sanitizers (ASan/UBSan need an aarch64 glibc and sanitizer runtime: the
# unit tests run here as tests/unit-aarch64, static musl with the invariants on, without them),
# and any speed comparison. No ARM hardware runs here.
# About 1.5 minutes on 2 loaded CPUs. Exits 77 (skip) when qemu-aarch64-static is missing
# (tests/setup.sh installs it; the Makefile installs the cross toolchain as root).
# shellcheck disable=SC2015,SC2016 # ok() never fails; the wrapper's $0 and $@ are its own
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
command -v qemu-aarch64-static >/dev/null || { echo "aarch64: SKIP: qemu-aarch64-static not installed (apt-get install qemu-user-static)"; exit 77; }
make -s bench-aarch64 tests/unit-aarch64 || { echo "aarch64: FAIL: make bench-aarch64 tests/unit-aarch64"; exit 1; }
B64=$top/bench-aarch64
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "aarch64: FAIL: $*"; }

# 1. the binary as the release rule wants it
readelf -h "$B64" | grep -q 'Machine:.*AArch64' && ok || bad "not an AArch64 ELF"
! readelf -l "$B64" | grep -q 'program interpreter' && ok || bad "dynamically linked"
! readelf -S "$B64" | grep -q '\.symtab' && ok || bad "not stripped"
n=$(wc -c <"$B64")
[ "$n" -le 1572864 ] && ok || bad "$n bytes, over 1.5 MiB (make dist's cap)"
readelf -lW "$B64" | awk '$1 == "LOAD" { n++; if ($NF != "0x10000") bad = 1 } END { exit !(n > 0 && !bad) }' &&
    ok || { bad "LOAD segments not 64K-aligned"; readelf -lW "$B64" | grep LOAD; }

printf '#!/bin/sh\nexec qemu-aarch64-static -0 "$0" %s "$@"\n' "$B64" >"$w/bench"
chmod +x "$w/bench"
ln -s "$w/bench" "$w/sysbench"
Q=$w/bench
"$Q" --version | grep -q '^bench ' && ok || bad "--version under qemu"

# 2. the unit tests, aarch64 and musl (strerror's words are musl's: the tests take the libc's)
#    qemu-user has no io_uring: the groups that need a ring skip (CI=true would count a skip as a
#    failure), and every skip must be one of those or a live group without a server
env -u CI qemu-aarch64-static tests/unit-aarch64 >"$w/unit.log" 2>&1 && ok ||
    { bad "unit tests under qemu: $(tail -1 "$w/unit.log")"; grep -B3 '^FAIL' "$w/unit.log" | head -40; }
grep -q ' passed, 0 failed' "$w/unit.log" && ok || bad "unit tests: no summary line"
n=$(grep '^skip' "$w/unit.log" | grep -vc 'io_uring_setup(2) failed: Function not implemented\|BENCH_MY_HOST unset')
[ "$n" = 0 ] && ok || { bad "unit tests under qemu: $n skips that are not io_uring's"; grep '^skip' "$w/unit.log" | grep -v 'io_uring_setup'; }

# 2b. golden transcripts
if command -v cram3 >/dev/null; then
    BENCH=$Q cram3 --shell=/bin/sh tests/golden/cli.t tests/golden/memx.t >"$w/cram.log" 2>&1 &&
        ok || { bad "golden (cli.t, memx.t) under qemu"; tail -40 "$w/cram.log"; }
else bad "cram3 not installed"; fi

# 3. the workloads' counts: events, bytes, the host facts of the ISA
has() { # has NAME PATTERN FILE
    grep -q -- "$2" "$3" && ok || { bad "$1: no '$2'"; head -40 "$3"; }
}
"$Q" cpu --events=200 --time=0 --cpu-max-prime=2000 run >"$w/o" 2>&1
has cpu 'total number of events: *200$' "$w/o"
"$Q" memory --memory-total-size=8M --memory-block-size=4K --time=0 run >"$w/o" 2>&1
has memory '8.00 MiB transferred' "$w/o"
"$Q" threads --threads=2 --events=100 --time=0 run >"$w/o" 2>&1
has threads 'total number of events: *100$' "$w/o"
"$Q" mutex --threads=2 --mutex-locks=1000 run >"$w/o" 2>&1
has mutex 'total number of events: *2$' "$w/o"
"$Q" cpu --events=10 --time=0 --format=json run >"$w/j" 2>&1
python3 - "$w/j" <<'EOF' && ok || bad "cpu --format=json: events"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["results"]["events"] == 10, d["results"]
EOF

# 4. the sysbench persona against Debian's x86 sysbench: text, not speed
if [ -x /usr/bin/sysbench ]; then
    for args in "cpu --events=50 --time=0 --cpu-max-prime=500 run" "--threads=0 cpu run" \
        "memory --memory-block-size=3 run" "memory --memory-total-size=1M --time=0 run" \
        "threads --events=20 --time=0 run" "cpu help"; do
        # shellcheck disable=SC2086
        (cd "$w" && /usr/bin/sysbench $args >ref.out 2>ref.err; echo $? >ref.rc
         ./sysbench $args >our.out 2>our.err; echo $? >our.rc)
        python3 tests/mask_timing.py "$w/ref.out" "$w/our.out" "$w/ref.err" "$w/our.err"
        s=0
        for f in out err; do cmp -s "$w/ref.$f.m" "$w/our.$f.m" || { s=1; diff "$w/ref.$f.m" "$w/our.$f.m" | head -10; }; done
        cmp -s "$w/ref.rc" "$w/our.rc" || s=1
        [ $s = 0 ] && ok || bad "compat '$args' (x86 sysbench vs aarch64 bench)"
    done
else bad "/usr/bin/sysbench not installed"; fi

# 5. fileio: the sync engines; async falls back to sync and says why
F="--file-num=2 --file-total-size=4M --file-dir=$w/f"
mkdir -p "$w/f"
# shellcheck disable=SC2086
"$Q" fileio $F --validate prepare >"$w/o" 2>&1 && ok || { bad "fileio prepare"; cat "$w/o"; }
for mode in sync mmap; do
    # shellcheck disable=SC2086
    "$Q" fileio $F --file-test-mode=rndrw --file-io-mode=$mode --validate --events=400 --time=0 run >"$w/o" 2>&1
    has "fileio $mode" 'total number of events: *400$' "$w/o"
done
# shellcheck disable=SC2086
"$Q" fileio $F --file-test-mode=rndrd --file-io-mode=async --events=100 --time=0 run >"$w/o" 2>&1
has "fileio async" 'io_uring_setup(.*ENOSYS.*falling back to --file-io-mode=sync' "$w/o"
has "fileio async" 'Using synchronous I/O mode' "$w/o"
has "fileio async" 'total number of events: *100$' "$w/o"
# shellcheck disable=SC2086
"$Q" fileio $F --file-test-mode=rndrd --file-io-mode=async --file-io-mode-strict run >"$w/o" 2>&1
[ $? = 3 ] && ok || { bad "fileio --file-io-mode-strict: exit 3 wanted"; cat "$w/o"; }
# shellcheck disable=SC2086
"$Q" fileio $F cleanup >/dev/null 2>&1 && [ -z "$(ls "$w/f")" ] && ok || bad "fileio cleanup"

# 6. the database over loopback: OLTP, slap, ping; the server's own view checked
if [ -n "${BENCH_MY_PORT:-}" ] && [ -n "${BENCH_MY_SOCK:-}" ]; then
    ROOT="mariadb --no-defaults -uroot -S $BENCH_MY_SOCK -N -B"
    $ROOT -e "DROP DATABASE IF EXISTS a64; CREATE DATABASE a64"
    DB="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret -D a64"
    st() { $ROOT -e "SHOW GLOBAL STATUS LIKE '$1'" | cut -f2; }
    # shellcheck disable=SC2086
    "$Q" oltp_insert $DB --tables=1 --table-size=100 prepare >"$w/o" 2>&1 && ok || { bad "oltp prepare"; cat "$w/o"; }
    # shellcheck disable=SC2086
    "$Q" oltp_insert $DB --tables=1 --threads=2 --events=60 --time=0 run >"$w/o" 2>&1 && ok || { bad "oltp_insert run"; cat "$w/o"; }
    rows=$($ROOT -e "SELECT COUNT(*) FROM a64.sbtest1")
    [ "$rows" = 160 ] && ok || bad "oltp_insert: the server holds $rows rows, 160 wanted (100 + 60 events)"
    c0=$(st Com_commit)
    # shellcheck disable=SC2086
    "$Q" oltp_read_write $DB --tables=1 --threads=2 --events=40 --time=0 --ssl-mode=REQUIRED run >"$w/o" 2>&1
    has "oltp_read_write (TLS)" 'transactions: *40 ' "$w/o"
    c1=$(st Com_commit)
    [ $((c1 - c0)) -ge 40 ] && ok || bad "oltp_read_write: Com_commit rose by $((c1 - c0)), >= 40 wanted"
    # shellcheck disable=SC2086
    "$Q" oltp_read_write $DB --tables=1 cleanup >/dev/null 2>&1 && ok || bad "oltp cleanup"
    i0=$(st Com_insert)
    "$Q" slap --no-defaults -h 127.0.0.1 -P "$BENCH_MY_PORT" -u nat -psecret -a -c 2 -i 1 \
        --auto-generate-sql-load-type=write --number-of-queries=100 --create-schema=a64_slap >"$w/o" 2>&1
    has slap 'Number of clients running queries: 2' "$w/o"
    i1=$(st Com_insert)
    [ $((i1 - i0)) -ge 100 ] && ok || bad "slap: Com_insert rose by $((i1 - i0)), >= 100 wanted"
    "$Q" ping --no-defaults -h 127.0.0.1 -P "$BENCH_MY_PORT" -u ed -pfoobar --count=5 >"$w/o" 2>&1 && ok ||
        { bad "ping (ed25519)"; cat "$w/o"; }
    $ROOT -e "DROP DATABASE IF EXISTS a64; DROP DATABASE IF EXISTS a64_slap"
else bad "no MariaDB: BENCH_MY_PORT/BENCH_MY_SOCK unset (tests/run.sh starts one)"; fi

echo "aarch64: $pass passed, $fail failed"
[ $fail = 0 ]
