#!/bin/sh
# fileio side by side with Debian's sysbench 1.0.20 (issue #17, items 8-12): what bench sends
# to the disk equals what sysbench sends for the same command line. Counts fsync/fdatasync/
# pwrite64 system calls with strace -c -f for both (bench invoked as `sysbench`, a symlink,
# and in sync mode, where every request is a system call), with --events and deterministic
# settings; checks the async execution time against the run's wall time, cleanup after a
# prepare with other sizes, and the written data (--file-fill). Each check prints both
# figures on failure. Needs /usr/bin/sysbench 1.0.20 and strace: exits 77 (skip, said so)
# without them. Ends with "fileio_compat: N passed, N failed".
set -u
t_name=fileio_compat
. "$(dirname "$0")/lib.sh"
ref=${SYSBENCH_REF:-/usr/bin/sysbench}
[ -x "$ref" ] || { echo "fileio_compat: SKIP: $ref not installed"; exit 77; }
"$ref" --version | grep -q '^sysbench 1\.0\.20' || { echo "fileio_compat: SKIP: $ref is not 1.0.20"; exit 77; }
command -v strace >/dev/null || { echo "fileio_compat: SKIP: strace not installed"; exit 77; }
work=$w
mkdir "$work/s" "$work/b"
ln -s "$B" "$work/b/sysbench"

expect() { [ "$2" = "$3" ] || { echo "$1: got '$2', wanted '$3'"; return 1; }; }

F="--file-num=16 --file-total-size=16M"
(cd "$work/s" && "$ref" fileio $F prepare >/dev/null) || { echo "fileio_compat: sysbench prepare failed"; exit 1; }
(cd "$work/b" && ./sysbench fileio $F prepare >/dev/null) || { echo "fileio_compat: bench prepare failed"; exit 1; }

# calls WHO ARGS...: "fsync=N fdatasync=N pwrite64=N" made by a fileio run (WHO: s or b)
calls() {
    who=$1; shift
    exe=$ref
    [ "$who" = b ] && exe=./sysbench
    (cd "$work/$who" && strace -f -c -o "$work/$who.strace" -e trace=fsync,fdatasync,pwrite64 \
        "$exe" fileio $F --rand-seed=1 --time=0 "$@" run >"$work/$who.out" 2>&1) ||
        { echo "$who: run failed:"; cat "$work/$who.out"; return 1; }
    for c in fsync fdatasync pwrite64; do
        printf '%s=%s ' $c "$(awk -v c=$c '$NF == c { print $4 }' "$work/$who.strace" | grep . || echo 0)"
    done
}
# same_calls ARGS...: bench's system calls equal sysbench's
same_calls() {
    s=$(calls s "$@") && b=$(calls b "$@") || return 1
    echo "sysbench: $s"
    echo "bench:    $b"
    [ "$s" = "$b" ]
}

# 8. --file-fsync-all: an fsync after every write and nothing else: 1000 writes, 1000 fsyncs
# (bench made 1004 in sync mode: 4 end fsyncs; in async mode 0 per write)
t8_sync() { same_calls --file-test-mode=rndwr --events=1000 --file-fsync-all=on; }
t8_async() {
    same_calls --file-test-mode=rndwr --events=1000 --file-fsync-all=on --file-io-mode=async
    # io_uring writes are no pwrite64: the counters must say 1000 writes and 1000 fsyncs
    grep -E 'writes/s|fsyncs/s' "$work/b.out" | awk '{ print $2 }' | uniq | wc -l | grep -qx 1
}
t8_fdatasync() { same_calls --file-test-mode=seqrewr --events=500 --file-fsync-all=on --file-fsync-mode=fdatasync; }
# 9. periodic fsync only after a write: rndrw at --file-rw-ratio=1000 writes once in 1000
# events, so no burst, only the end fsyncs (sysbench 16, bench made 156); the default ratio
# bursts every 100 requests, as before
t9_ratio() { same_calls --file-test-mode=rndrw --events=1000 --file-rw-ratio=1000; }
t9_default() { same_calls --file-test-mode=rndrw --events=1000; }
t9_seq() { same_calls --file-test-mode=seqrewr --events=1000 --file-fsync-freq=7; }

# 11. async execution time: the thread's time, never more than the run's wall time
# (it was the sum of overlapping request latencies: 0.59 s for a 0.014 s run)
t11() {
    (cd "$work/b" && ./sysbench fileio $F --file-test-mode=rndrd --file-io-mode=async \
        --file-async-backlog=64 --events=20000 --time=0 run >"$work/b.out" 2>&1)
    total=$(awk '/total time:/ { sub("s$", "", $3); print $3 }' "$work/b.out")
    exec=$(awk -F'[ /:]+' '/execution time/ { print $(NF-1) }' "$work/b.out")
    sum=$(awk '/ sum: / { print $2 / 1000 }' "$work/b.out")
    echo "total time $total s, execution time $exec s, latency sum $sum s"
    awk -v e="$exec" -v t="$total" 'BEGIN { exit !(e > 0 && e <= t) }'
    # per-request latency stays submission to completion: overlapping, so its sum exceeds
    awk -v s="$sum" -v t="$total" 'BEGIN { exit !(s > t) }'
}

# 12. cleanup removes every file bench's prepare recorded, whatever the size options; a
# prepare with other sizes reuses or extends bench's files, as sysbench does
t12() {
    for who in bench sysbench; do
        rm -rf "$work/c" && mkdir "$work/c" && cd "$work/c"
        if [ $who = bench ]; then exe=$B; else ln -s "$B" sysbench; exe=./sysbench; fi
        "$exe" fileio --file-num=4 --file-total-size=4M prepare >/dev/null 2>&1
        "$exe" fileio --file-num=4 --file-total-size=2M prepare >out 2>&1
        grep -qx 'Reusing existing file test_file.3' out || { echo "$who: smaller prepare:"; cat out; return 1; }
        "$exe" fileio --file-num=8 --file-total-size=16M --file-block-size=4K prepare >out 2>&1
        grep -qx 'Extending existing file test_file.3' out && grep -qx 'Creating file test_file.7' out ||
            { echo "$who: larger prepare:"; cat out; return 1; }
        "$exe" fileio --file-num=2 --file-total-size=1G cleanup >out 2>&1 || { echo "$who: cleanup failed:"; cat out; return 1; }
        expect "$who: left after cleanup" "$(ls -A | grep -v '^sysbench$' | tr '\n' ' ')" "out "
    done
}

# 10. written data: the sysbench persona writes sysbench's zeros unless asked; the bench
# persona writes incompressible data, unique per 512 bytes, or zeros with --file-fill=zero
t10_sb_zero() {
    for who in s b; do
        exe=$ref
        [ $who = b ] && exe=./sysbench
        (cd "$work/$who" && "$exe" fileio $F --file-test-mode=seqrewr --events=64 --time=0 run >/dev/null 2>&1)
        cmp -n 1048576 "$work/$who/test_file.0" /dev/zero || { echo "$who: not zeros"; return 1; }
    done
}
t10_bench_random() {
    rm -rf "$work/r" && mkdir "$work/r" && cd "$work/r"
    "$B" fileio --file-num=1 --file-total-size=2M --file-fill=zero prepare >/dev/null 2>&1
    cmp -n 2097152 test_file.0 /dev/zero
    "$B" fileio --file-num=1 --file-total-size=2M --file-test-mode=seqrewr --file-fsync-freq=0 --events=128 --time=0 run >/dev/null 2>&1
    n=$(gzip -c test_file.0 | wc -c)
    u=$(od -An -v -tx1 -w512 test_file.0 | sort -u | wc -l)
    echo "gzip: $n bytes of 2097152, unique 512-byte sectors: $u of 4096"
    [ "$n" -ge 2097152 ] && [ "$u" = 4096 ] || return 1 # set -e skips all but an and-list's last
    "$B" fileio --file-num=1 --file-total-size=2M --file-fill=zero --file-test-mode=seqrewr --file-fsync-freq=0 --events=128 --time=0 run >/dev/null 2>&1
    cmp -n 2097152 test_file.0 /dev/zero
    # --validate writes random data with checksums whatever the fill, and reads them back
    "$B" fileio --file-num=1 --file-total-size=2M --file-fill=zero --validate --file-test-mode=seqrewr --file-fsync-freq=0 --events=128 --time=0 run >/dev/null 2>&1
    "$B" fileio --file-num=1 --file-total-size=2M --validate --file-test-mode=seqrd --events=128 --time=0 run >out 2>&1
    grep -q 'reads/s' out && ! grep -q FATAL out || { cat out; return 1; }
    "$B" fileio --file-num=1 --file-total-size=2M --file-fill=ones --file-test-mode=seqrewr run >out 2>&1 && return 1
    expect "exit" "$?" 2
    grep -qx "bench: --file-fill: invalid value 'ones' (expected random or zero)" out || { cat out; return 1; }
}

t_case fsync-all-sync t8_sync
t_case fsync-all-async t8_async
t_case fsync-all-fdatasync t8_fdatasync
t_case periodic-fsync-ratio-1000 t9_ratio
t_case periodic-fsync-default t9_default
t_case periodic-fsync-seq t9_seq
t_case async-execution-time t11
t_case cleanup-other-sizes t12
t_case fill-sysbench-zeros t10_sb_zero
t_case fill-bench-random t10_bench_random
t_summary
