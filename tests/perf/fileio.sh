#!/bin/sh
# Benchmark (not a test): bench fileio against fio on the same prepared file, O_DIRECT,
# 16 KiB blocks, one thread, in one run:
#   1. random read QD1, sync          bench --file-io-mode=sync     fio --ioengine=psync
#   2. random read QD32, io_uring     bench --file-io-mode=async    fio --ioengine=io_uring
#                                      --file-queue-depth=32          --iodepth=32
#   3. sequential 16 KiB writes, each followed by fdatasync; compares the fdatasync p99
#      bench --file-test-mode=seqrewr --file-fsync-freq=1 --file-fsync-mode=fdatasync
#      fio --rw=write --fdatasync=1
# Prints IOPS ratios, CPU seconds per 1000 I/Os (user+sys of the whole process, from
# /proc), and the fdatasync p99 ratio. Goals: IOPS >= 0.98x fio, CPU per I/O <= fio's,
# fdatasync p99 within 10% of fio's.
# Env: DIR (default build/perf, on the disk to measure), SIZE (2G), T (seconds per run, 5),
# REPS (alternating runs per tool, 5; the median is compared: a VM's disk is noisy).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
DIR=${DIR:-$top/build/perf}
SIZE=${SIZE:-2G}
T=${T:-5}
REPS=${REPS:-5}
command -v fio >/dev/null || { echo "perf/fileio: fio not installed (apt-get install fio)"; exit 77; }
mkdir -p "$DIR"
F="--file-num=1 --file-total-size=$SIZE --file-dir=$DIR --file-block-size=16K --file-extra-flags=direct --threads=1 --time=$T"
"$B" fileio $F prepare >/dev/null
file="$DIR/test_file.0"
hz=$(getconf CLK_TCK)

# run CMD... > out; prints the CPU seconds (user+sys) the command used
cpu_of() {
    sh -c '"$@" > "$OUT" 2>/dev/null; set -- $(cat /proc/$$/stat); echo $(( ${16} + ${17} ))' sh "$@"
}
fio_json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; print(eval(sys.argv[2]))" "$@"; }
fio_run() { # fio_run NAME FIO-ARGS...
    name=$1; shift
    OUT=$DIR/fio.json; export OUT
    ticks=$(cpu_of fio --name="$name" --filename="$file" --size="$SIZE" --bs=16k --direct=1 \
        --runtime="$T" --time_based --output-format=json "$@")
    echo "$ticks"
}
bench_run() { # bench_run BENCH-ARGS...
    OUT=$DIR/bench.out; export OUT
    ticks=$(cpu_of "$B" fileio $F --percentile=99 "$@" run)
    echo "$ticks"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }'; }
per_kio() { awk -v t="$1" -v n="$2" -v hz="$hz" 'BEGIN { printf "%.4f", (n > 0) ? t / hz / n * 1000 : 0 }'; }

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf '%-38s %10s %10s %7s   %s\n' "test (median of $REPS alternating runs)" fio bench ratio "CPU s/1000 I/O (fio, bench)"

# randread TEST-NAME FIO-ENGINE-ARGS -- BENCH-ARGS: IOPS and CPU per I/O, median of REPS
randread() {
    label=$1 fargs=$2 bargs=$3
    fiops="" biops="" fcpu="" bcpu="" i=0
    while [ $i -lt "$REPS" ]; do
        # shellcheck disable=SC2086
        ft=$(fio_run rr --rw=randread $fargs)
        fiops="$fiops $(fio_json "$DIR/fio.json" "j['read']['iops']")"
        fcpu="$fcpu $(per_kio "$ft" "$(fio_json "$DIR/fio.json" "j['read']['total_ios']")")"
        # shellcheck disable=SC2086
        bt=$(bench_run --file-test-mode=rndrd $bargs)
        biops="$biops $(sed -n 's/^ *reads\/s: *//p' "$DIR/bench.out")"
        bcpu="$bcpu $(per_kio "$bt" "$(sed -n 's/^ *read  *\([0-9]*\) ops.*/\1/p' "$DIR/bench.out")")"
        i=$((i + 1))
    done
    fm=$(echo $fiops | tr ' ' '\n' | median) bm=$(echo $biops | tr ' ' '\n' | median)
    printf '%-38s %10.0f %10.0f %7s   %s, %s\n' "$label" "$fm" "$bm" "$(ratio "$bm" "$fm")" \
        "$(echo $fcpu | tr ' ' '\n' | median)" "$(echo $bcpu | tr ' ' '\n' | median)"
}
randread "randread 16K QD1 sync, IOPS" "--ioengine=psync --iodepth=1" "--file-io-mode=sync"
randread "randread 16K QD32 io_uring, IOPS" "--ioengine=io_uring --iodepth=32" \
    "--file-io-mode=async --file-queue-depth=32"

# sequential writes + fdatasync each: p99 of the fdatasync
fps="" bps="" i=0
while [ $i -lt "$REPS" ]; do
    fio_run wsync --rw=write --ioengine=psync --fdatasync=1 >/dev/null
    fps="$fps $(fio_json "$DIR/fio.json" "j['sync']['lat_ns']['percentile']['99.000000'] / 1e6")"
    bench_run --file-test-mode=seqrewr --file-fsync-freq=1 --file-fsync-mode=fdatasync \
        --file-fsync-end=off >/dev/null
    bps="$bps $(sed -n 's/^ *fsync  *[0-9]* ops.*99%: \([0-9.]*\).*/\1/p' "$DIR/bench.out")"
    i=$((i + 1))
done
fm=$(echo $fps | tr ' ' '\n' | median) bm=$(echo $bps | tr ' ' '\n' | median)
printf '%-38s %10.3f %10.3f %7s\n' "write+fdatasync 16K, fdatasync p99 ms" "$fm" "$bm" "$(ratio "$bm" "$fm")"

"$B" fileio $F cleanup >/dev/null
echo "($(fio --version); ${T}s per run; one ${SIZE} file in $DIR)"
