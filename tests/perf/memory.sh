#!/bin/sh
# shellcheck disable=SC2317,SC2086 # run functions are called through perf_cmp; $args splits
# Benchmark (not a test): bench memory against Debian's sysbench memory, side by side, for
# read/write x seq/rnd x 1K/1M blocks (1 thread, global scope). Runs alternate (ABBA) so
# that frequency drift and neighbours hit both alike; the median of REPS (>= 5) runs of TIME
# seconds of each tool and the median of the per-pair ratios bench/sysbench are printed.
# Two figures per tool: MiB/s as printed (wall clock), and MiB per CPU second of the process
# (user + sys), which stays comparable when other work shares the CPUs (each run gets
# whatever share the scheduler gives it; on an idle host the two are equal), less the CPU
# time the tool spends outside the measured window (start-up, allocating and zeroing the
# block: the median of 3 runs of one event; sysbench's start-up is ~30 ms). Both run pinned
# to the same CPU (CPU, default the last one; taskset), so that migrations and the caches of
# other CPUs do not tell them apart.
# Goal: the ratio bench/sysbench in 0.95..1.05 for every case: `bench memory` runs the loop
# sysbench 1.0.20 runs (and its per-event bookkeeping), so the figures compare. The goal is
# judged on MiB per CPU second and printed; exit 0 unless a run failed, 77 without sysbench.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${TIME:-2}
CPU=${CPU:-$(($(nproc) - 1))}
[ -x "$S" ] || { echo "perf/memory: $S not installed (apt-get install sysbench)"; exit 77; }
[ "${REPS:-5}" -ge 5 ] || { echo "perf/memory: REPS must be at least 5"; exit 2; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
perf_header memory
perf_cmd sysbench "taskset -c $CPU $S --memory-block-size=BS --memory-oper=OP" \
    "--memory-access-mode=MODE --time=$T memory run"
perf_cmd bench "taskset -c $CPU $B --memory-block-size=BS --memory-oper=OP" \
    "--memory-access-mode=MODE --time=$T memory run"
echo "  (BS 1K, 1M; OP read, write; MODE seq, rnd; fixed cost: the same with" \
    "--memory-total-size=BS --time=0, median of 3)"
# cpu TOOL ARGS...: CPU seconds (user + sys) of one pinned run; its output in $PERF_TMP/out
cpu() { perf_cpu "$PERF_TMP/out" taskset -c "$CPU" "$@" memory run; }
# fixed TOOL: CPU seconds outside the measured window (one event, median of 3)
fixed() {
    : >"$PERF_TMP/fixed"
    for k in 1 2 3; do
        cpu "$1" $args --memory-total-size="$bs" --time=0 >>"$PERF_TMP/fixed" || return 1
    done
    perf_median <"$PERF_TMP/fixed"
}
# run FIXED TOOL: prints "MiB/s MiB/cpu-s"
run() {
    c=$(cpu "$2" $args --time="$T") || return 1
    awk -v cpu="$c" -v f="$1" '/MiB transferred/ {
        gsub(/[()]/, ""); printf "%s %.2f\n", $4, $1 / (cpu - f) }' "$PERF_TMP/out"
}
sysbench() { run "$sf" "$S"; }
bench() { run "$bf" "$B"; }
bad="" judged=0
for bs in 1K 1M; do
    for op in read write; do
        for mode in seq rnd; do
            args="--memory-block-size=$bs --memory-oper=$op --memory-access-mode=$mode"
            if ! sf=$(fixed "$S") || ! bf=$(fixed "$B"); then
                perf_fail "memory $bs $op $mode: the one-event run"
                continue
            fi
            perf_cmp "memory $bs $op $mode (fixed CPU s: sysbench $sf, bench $bf)" \
                "MiB/s MiB/cpu-s" sysbench bench
            r=$(sed -n 's/^sysbench [^ ]* //p' "$PERF_TMP/ratio")
            [ -n "$r" ] || continue
            judged=$((judged + 1))
            awk -v r="$r" 'BEGIN { exit !(r >= 0.95 && r <= 1.05) }' || bad="$bad $bs/$op/$mode"
        done
    done
done
echo "($("$S" --version); 1 thread on CPU $CPU; ${T}s per run)"
if [ -n "$bad" ]; then
    echo "goal: MiB per CPU second bench/sysbench outside 0.95..1.05 for:$bad"
else
    echo "goal: MiB per CPU second bench/sysbench within 0.95..1.05 in the $judged of 8 cases measured"
fi
perf_end
