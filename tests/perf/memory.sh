#!/bin/sh
# Benchmark (not a test): bench memory against Debian's sysbench memory, side by side, for
# read/write x seq/rnd x 1K/1M blocks (1 thread, global scope). Runs alternate (sysbench,
# bench, sysbench, ...) so that frequency drift and neighbours hit both alike; the median
# of REPS (>= 5) runs of TIME seconds is compared.
# Two figures per tool: MiB/s as printed (wall clock), and MiB per CPU second of the process
# (user + sys), which stays comparable when other work shares the CPUs (each run gets
# whatever share the scheduler gives it; on an idle host the two are equal), less the CPU
# time the tool spends outside the measured window (start-up, allocating and zeroing the
# block: the median of 3 runs of one event; sysbench's start-up is ~30 ms). Both run pinned
# to the same CPU (CPU, default the last one; taskset), so that migrations and the caches of
# other CPUs do not tell them apart.
# Goal: the ratio bench/sysbench in 0.95..1.05 for every case: `bench memory` runs the loop
# sysbench 1.0.20 runs (and its per-event bookkeeping), so the figures compare. The goal is
# judged on MiB per CPU second. Exit 0 when every case is in the goal, 1 otherwise, 77
# without sysbench.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${TIME:-2}
CPU=${CPU:-$(($(nproc) - 1))}
REPS=${REPS:-5}
[ -x "$S" ] || { echo "perf/memory: $S not installed (apt-get install sysbench)"; exit 77; }
[ "$REPS" -ge 5 ] || { echo "perf/memory: REPS must be at least 5"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# cpu TOOL ARGS...: CPU seconds (user + sys) of one pinned run; its output in $tmp/out
cpu() {
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" taskset -c "$CPU" "$@" memory run >"$tmp/out"
    awk '{print $1 + $2}' "$tmp/cpu"
}
# fixed TOOL BLOCK ARGS...: CPU seconds outside the measured window (one event, median of 3)
fixed() {
    t=$1 bs=$2
    shift 2
    for k in 1 2 3; do cpu "$t" "$@" --memory-total-size="$bs" --time=0; done | median
}
# run FIXED TOOL ARGS...: prints "MiB/s MiB/cpu-s"
run() {
    f=$1
    shift
    c=$(cpu "$@" --time="$T")
    awk -v cpu="$c" -v f="$f" '/MiB transferred/ {
        gsub(/[()]/, ""); printf "%s %.2f\n", $4, $1 / (cpu - f) }' "$tmp/out"
}
printf '%-5s %-5s %-4s %10s %10s %6s   %10s %10s %6s\n' block oper mode \
    "sb MiB/s" "MiB/s" ratio "sb /cpu-s" "/cpu-s" ratio
bad=0
for bs in 1K 1M; do
    for op in read write; do
        for mode in seq rnd; do
            set -- --memory-block-size="$bs" --memory-oper="$op" --memory-access-mode="$mode"
            : >"$tmp/s"
            : >"$tmp/b"
            sf=$(fixed "$S" "$bs" "$@")
            bf=$(fixed "$B" "$bs" "$@")
            i=0
            while [ $i -lt "$REPS" ]; do
                run "$sf" "$S" "$@" >>"$tmp/s"
                run "$bf" "$B" "$@" >>"$tmp/b"
                i=$((i + 1))
            done
            sw=$(cut -d' ' -f1 "$tmp/s" | median) sc=$(cut -d' ' -f2 "$tmp/s" | median)
            bw=$(cut -d' ' -f1 "$tmp/b" | median) bc=$(cut -d' ' -f2 "$tmp/b" | median)
            awk -v bs="$bs" -v op="$op" -v m="$mode" -v sw="$sw" -v bw="$bw" -v sc="$sc" \
                -v bc="$bc" 'BEGIN {
                    printf "%-5s %-5s %-4s %10.2f %10.2f %6.3f   %10.2f %10.2f %6.3f\n",
                        bs, op, m, sw, bw, bw / sw, sc, bc, bc / sc
                    exit (bc / sc < 0.95 || bc / sc > 1.05) }' || bad=$((bad + 1))
        done
    done
done
echo "(median of $REPS alternating runs of ${T}s each, 1 thread on CPU $CPU; $("$S" --version);" \
    "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg))"
[ $bad = 0 ] || { echo "perf/memory: $bad case(s) outside 0.95..1.05 (MiB per CPU second)"; exit 1; }
