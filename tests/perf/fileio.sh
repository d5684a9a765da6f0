#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): bench fileio against fio on the same prepared file, O_DIRECT,
# 16 KiB blocks, one thread, in one run:
#   1. random read QD1, sync          bench --file-io-mode=sync     fio --ioengine=psync
#   2. random read QD32, io_uring     bench --file-io-mode=async    fio --ioengine=io_uring
#                                      --file-queue-depth=32          --iodepth=32
#      fio twice: with its io_uring defaults, and with the features bench uses (registered
#      files and buffers: --registerfiles --fixedbufs); says which fio configuration won and
#      bench's ratio against each (fio 3.33 sets up its ring with SINGLE_ISSUER|DEFER_TASKRUN
#      itself, as bench does: strace shows flags CQSIZE|COOP_TASKRUN|0x3000)
#   3. sequential 16 KiB writes, each followed by fdatasync; compares the fdatasync p99
#      bench --file-test-mode=seqrewr --file-fsync-freq=1 --file-fsync-mode=fdatasync
#      fio --rw=write --fdatasync=1
# Same file, size, block size, O_DIRECT and queue depth for every tool. Runs alternate
# (ABBA: A B, B A, ...; with two fio configurations A B C, C B A, ...) so that the noise of
# a VM's disk and of neighbours hits all alike. Prints every run's figures, the median of
# each tool and the median of the per-pair ratios bench/fio: IOPS, CPU seconds per 1000
# I/Os (user+sys of the whole process), and the fdatasync p99.
# Goals: IOPS >= 0.98x fio's better configuration, CPU per I/O <= fio's, fdatasync p99
# within 10% of fio's.
# Env: DIR (default build/perf, on the disk to measure), SIZE (2G), T (seconds per run, 5),
# REPS (alternating runs per tool, 5), FIO_BIN (fio). Exit 0 unless a run failed; 77 without fio.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
DIR=${DIR:-$top/build/perf}
SIZE=${SIZE:-2G}
T=${T:-5}
FB=${FIO_BIN:-fio}
command -v "$FB" >/dev/null || { echo "perf/fileio: $FB not installed (apt-get install fio)"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
mkdir -p "$DIR"
F="--file-num=1 --file-total-size=$SIZE --file-dir=$DIR --file-block-size=16K --file-extra-flags=direct --threads=1 --time=$T"
file="$DIR/test_file.0"
FIO="$FB --filename=$file --size=$SIZE --bs=16k --direct=1 --runtime=$T --time_based --output-format=json"
BENCH="$B fileio $F --percentile=99"
perf_header fileio
"$B" fileio $F prepare >/dev/null || { perf_fail "bench fileio prepare in $DIR"; perf_end; }
trap '"$B" fileio $F cleanup >/dev/null; rmdir "$DIR" 2>/dev/null; rm -rf "$PERF_TMP"' EXIT

fio_json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; print(eval(sys.argv[2]))" "$@"; }
per_kio() { awk -v t="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.4f", t / n * 1000 }'; }

# randread: prints "IOPS CPU-s/1000-I/O"
rr_fio() {
    t=$(perf_cpu "$PERF_TMP/fio.json" $FIO --name=rr --rw=randread $1) || return 1
    echo "$(fio_json "$PERF_TMP/fio.json" "'%.2f' % j['read']['iops']")" \
        "$(per_kio "$t" "$(fio_json "$PERF_TMP/fio.json" "j['read']['total_ios']")")"
}
rr_bench() {
    t=$(perf_cpu "$PERF_TMP/bench.out" $BENCH --file-test-mode=rndrd $1 run) || return 1
    echo "$(sed -n 's/^ *reads\/s: *//p' "$PERF_TMP/bench.out")" \
        "$(per_kio "$t" "$(sed -n 's/^ *read  *\([0-9]*\) ops.*/\1/p' "$PERF_TMP/bench.out")")"
}

QD1_FIO="--ioengine=psync --iodepth=1" QD1_BENCH="--file-io-mode=sync"
echo "1. random read 16K QD1 sync"
perf_cmd fio "$FIO --name=rr --rw=randread $QD1_FIO"
perf_cmd bench "$BENCH --file-test-mode=rndrd $QD1_BENCH run"
fio() { rr_fio "$QD1_FIO"; }
bench() { rr_bench "$QD1_BENCH"; }
perf_cmp "randread 16K QD1 sync" "IOPS CPU-s/1000-I/O" fio bench

QD32_FIO="--ioengine=io_uring --iodepth=32" QD32_REG="--registerfiles --fixedbufs"
QD32_BENCH="--file-io-mode=async --file-queue-depth=32"
echo "2. random read 16K QD32 io_uring"
perf_cmd fio_default "$FIO --name=rr --rw=randread $QD32_FIO"
perf_cmd fio_registered "$FIO --name=rr --rw=randread $QD32_FIO $QD32_REG"
perf_cmd bench "$BENCH --file-test-mode=rndrd $QD32_BENCH run"
fio_default() { rr_fio "$QD32_FIO"; }
fio_registered() { rr_fio "$QD32_FIO $QD32_REG"; }
bench() { rr_bench "$QD32_BENCH"; }
perf_cmp "randread 16K QD32 io_uring" "IOPS CPU-s/1000-I/O" fio_default fio_registered bench
if [ -s "$PERF_TMP/ratio" ]; then
    awk 'FNR == NR { iops[$1] = $2; next } { r[$1] = $2 }
        END { w = (iops["fio_registered"] > iops["fio_default"]) ? "fio_registered" : "fio_default"
            printf "  fio configuration that won (median IOPS): %s; bench/fio_default %.3f," \
                " bench/fio_registered %.3f (median pair ratios of IOPS)\n",
                w, r["fio_default"], r["fio_registered"] }' "$PERF_TMP/med" "$PERF_TMP/ratio"
fi

# sequential writes + fdatasync each: p99 of the fdatasync, in ms
W_FIO="--ioengine=psync --fdatasync=1"
W_BENCH="--file-test-mode=seqrewr --file-fsync-freq=1 --file-fsync-mode=fdatasync --file-fsync-end=off"
echo "3. sequential 16K writes, fdatasync after each"
perf_cmd fio "$FIO --name=wsync --rw=write $W_FIO"
perf_cmd bench "$BENCH $W_BENCH run"
fio() {
    perf_cpu "$PERF_TMP/fio.json" $FIO --name=wsync --rw=write $W_FIO >/dev/null || return 1
    fio_json "$PERF_TMP/fio.json" "'%.3f' % (j['sync']['lat_ns']['percentile']['99.000000'] / 1e6)"
}
bench() {
    perf_cpu "$PERF_TMP/bench.out" $BENCH $W_BENCH run >/dev/null || return 1
    sed -n 's/^ *fsync  *[0-9]* ops.*99%: \([0-9.]*\).*/\1/p' "$PERF_TMP/bench.out"
}
perf_cmp "write+fdatasync 16K" "fdatasync-p99-ms" fio bench

echo "($("$FB" --version); ${T}s per run; one ${SIZE} file in $DIR)"
perf_end
