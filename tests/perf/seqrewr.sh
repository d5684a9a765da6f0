#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; option lists split
# Benchmark (not a test): page-cache sequential rewrite, bench fileio against Debian's
# sysbench fileio on the same file set (issue 17 item 10): both run
#   fileio --file-test-mode=seqrewr --file-block-size=16K --file-total-size=SIZE
#          --file-fsync-freq=0 --time=T run
# in the directory of the files (sysbench 1.0.20 has no --file-dir), buffered (no O_DIRECT),
# with the periodic fsync off so that the disk stays out of the measure (the default,
# every 100 requests, makes both wait for the disk; FSYNC_FREQ sets it). The files are
# prepared once by bench and rewritten by both. Runs alternate (ABBA); prints every run's
# writes/s and CPU seconds per 1000 writes (user+sys of the whole process), the median of
# each tool and the median of the per-pair ratios bench/sysbench.
# Goal: writes/s bench/sysbench >= 0.97 (only measured and printed here).
# Env: DIR (default build/perf-seqrewr), SIZE (1G, to fit in RAM), T (seconds per run, 5),
# REPS (alternating runs per tool, 5), FSYNC_FREQ (0). Exit 0 unless a run failed; 77
# without sysbench.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
DIR=${DIR:-$top/build/perf-seqrewr}
SIZE=${SIZE:-1G}
T=${T:-5}
[ -x "$S" ] || { echo "perf/seqrewr: $S not installed (apt-get install sysbench)"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
F="--file-test-mode=seqrewr --file-block-size=16K --file-total-size=$SIZE --file-fsync-freq=${FSYNC_FREQ:-0} --time=$T"
perf_header seqrewr
perf_cmd sysbench "(cd $DIR && $S fileio $F run)"
perf_cmd bench "(cd $DIR && $B fileio $F run)"
mkdir -p "$DIR"
cd "$DIR"
"$B" fileio $F prepare >/dev/null 2>&1 || { perf_fail "bench fileio prepare in $DIR"; perf_end; }
trap '"$B" fileio $F cleanup >/dev/null 2>&1; cd /; rmdir "$DIR" 2>/dev/null; rm -rf "$PERF_TMP"' EXIT
# run TOOL: prints "writes/s CPU-s/1000-writes"
run() {
    t=$(perf_cpu "$PERF_TMP/out" "$1" fileio $F run) || return 1
    awk -v t="$t" '/^ *writes\/s:/ { w = $2 } /^ *total time:/ { s = $3 + 0 }
        END { if (w > 0 && s > 0) printf "%s %.4f\n", w, t / (w * s) * 1000 }' "$PERF_TMP/out"
}
sysbench() { run "$S"; }
bench() { run "$B"; }
perf_cmp "seqrewr 16K, page cache" "writes/s CPU-s/1000-writes" sysbench bench
r=$(sed -n 's/^sysbench \([^ ]*\).*/\1/p' "$PERF_TMP/ratio")
[ -z "$r" ] || awk -v r="$r" 'BEGIN { printf "goal: writes/s bench/sysbench >= 0.97: %s (%.3f)\n",
    (r >= 0.97) ? "met" : "not met", r }'
echo "($("$S" --version); ${T}s per run; $SIZE in $DIR)"
perf_end
