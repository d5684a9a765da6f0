#!/bin/sh
# shellcheck disable=SC2317 # run functions are called through perf_cmp
# Benchmark (not a test): bench memory --memory-mode=stream against mbw's memcpy (-t0) and,
# when it reports a rate, stress-ng --stream, side by side. Runs alternate (ABBA, REPS >= 5).
# Counting differs, so each figure is put in the peer's terms:
#  - mbw copies SIZE MiB from one array to another and reports MiB copied per second (the
#    copy counted once); bench's copy counts 16 bytes per element (read + write, STREAM's
#    rule), so bench's figure here is its best copy MiB/s / 2. Best of N iterations for
#    both (bench: best of --memory-passes, the first excepted; mbw: the best of its -n).
#  - stress-ng --stream (one worker) reports MB (10^6) read + written per second over its
#    kernels; bench's figure is its triad MB/s (also reads + writes, STREAM's counting).
# mbw runs one thread, so bench runs pinned to one CPU (taskset -c CPU: one usable CPU, one
# thread) for the judged ratio; bench on all CPUs is printed too.
# Goal: bench's copy >= mbw's (ratio bench/mbw >= 1, one thread).
# Env: REPS (default 5), SIZE (MiB per array, default 512: three arrays for bench, two for
# mbw; >= 4x the last-level cache is bench's own default, which on hosts whose hypervisor
# reports a huge L3 takes minutes), PASSES (bench --memory-passes and mbw -n, default 10),
# CPU (default 0), MBW_BIN (default: mbw from PATH). Installs mbw and stress-ng with
# apt-get when root and missing (unless MBW_BIN is set); exit 77
# without mbw.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
SIZE=${SIZE:-512}
PASSES=${PASSES:-10}
CPU=${CPU:-0}
[ "${REPS:-5}" -ge 5 ] || { echo "perf/membw: REPS must be at least 5"; exit 2; }
M=${MBW_BIN:-mbw}
for p in "$M" stress-ng; do
    if [ -z "${MBW_BIN:-}" ] && ! command -v "$p" >/dev/null 2>&1 && [ "$(id -u)" = 0 ] &&
        command -v apt-get >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$p" >/dev/null 2>&1 || true
    fi
done
command -v "$M" >/dev/null 2>&1 || { echo "perf/membw: $M not installed (apt-get install mbw)"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
perf_header membw
total=$((SIZE * 3))
perf_cmd mbw "taskset -c $CPU mbw -q -n $PASSES -t0 $SIZE  (best iteration's MiB/s)"
perf_cmd bench "taskset -c $CPU $B memory --memory-mode=stream --memory-total-size=${total}M" \
    "--memory-passes=$PASSES run  (best copy MiB/s / 2)"
perf_cmd bench_all "$B memory --memory-mode=stream --memory-total-size=${total}M" \
    "--memory-passes=$PASSES run  (all $(nproc) CPUs)"
# figure of one bench run: field F of the Copy/Triad row, from $PERF_TMP/out
bench_run() {
    "$@" memory --memory-mode=stream --memory-total-size="${total}M" \
        --memory-passes="$PASSES" run >"$PERF_TMP/out" 2>&1 || return 1
}
mbw1() {
    taskset -c "$CPU" "$M" -q -n "$PASSES" -t0 "$SIZE" |
        awk '/^[0-9]+[ \t]+Method: MEMCPY/ { v = $NF == "MiB/s" ? $(NF - 1) : $NF;
            if (v + 0 > best) best = v + 0 } END { if (best) printf "%.1f\n", best }'
}
bench1() {
    bench_run taskset -c "$CPU" "$B" || return 1
    awk '/^Copy:/ { printf "%.1f\n", $3 / 2 }' "$PERF_TMP/out"
}
benchall() {
    bench_run "$B" || return 1
    awk '/^Copy:/ { printf "%.1f\n", $3 / 2 }' "$PERF_TMP/out"
}
perf_cmp "copy, one thread: MiB copied per second (mbw's counting)" copy-MiB/s mbw1 bench1
goal_ratio=$(sed -n 's/^mbw1 //p' "$PERF_TMP/ratio") # (perf_cmp uses $r)
perf_cmp "copy, bench on all CPUs against mbw's one thread" copy-MiB/s mbw1 benchall
# stress-ng: one worker, its arrays sized from --stream-l3-size (4x it per array)
l3=$((SIZE / 4))
sng() {
    taskset -c "$CPU" stress-ng --stream 1 --stream-l3-size "${l3}M" -t 30 --metrics-brief 2>&1 |
        sed -n 's/.*memory rate: \([0-9.]*\) MB read\/sec, \([0-9.]*\) MB write\/sec.*/\1 \2/p' |
        awk '{ printf "%.1f\n", $1 + $2 }'
}
bench_triad() {
    bench_run taskset -c "$CPU" "$B" || return 1
    awk '/^Triad:/ { printf "%.1f\n", $2 }' "$PERF_TMP/out"
}
if ! command -v stress-ng >/dev/null 2>&1; then
    echo "-- stress-ng not installed: no comparison with stress-ng --stream"
elif [ -z "$(sng)" ]; then
    echo "-- stress-ng --stream printed no memory rate here (it says 'run duration too short'" \
        "when its kernels ran too little): no comparison"
else
    perf_cmd stress-ng "taskset -c $CPU stress-ng --stream 1 --stream-l3-size ${l3}M -t 30" \
        "(MB read + written per second)"
    perf_cmp "stream, one thread: MB/s read + written (bench: triad)" MB/s sng bench_triad
fi
echo "goal: bench's copy >= mbw's (one thread): median ratio bench/mbw ${goal_ratio:-?}" \
    "$(awk -v r="${goal_ratio:-0}" 'BEGIN { print (r >= 1 ? "(met)" : "(NOT met)") }')"
perf_end
