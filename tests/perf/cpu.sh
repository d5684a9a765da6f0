#!/bin/sh
# Benchmark (not a test): bench cpu against Debian's sysbench cpu, side by side in one run,
# --cpu-max-prime=20000, 1 thread and all threads. Runs alternate (sysbench, bench, ...) so
# that frequency drift hits both alike; the median of REPS runs is compared.
# Goal: events/s ratio bench/sysbench in 0.97..1.03.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${TIME:-5}
REPS=${REPS:-3}
[ -x "$S" ] || { echo "perf/cpu: $S not installed (apt-get install sysbench)"; exit 77; }
eps() { "$@" --cpu-max-prime=20000 --time="$T" cpu run | sed -n 's/.*events per second: *//p'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ncpu=$(nproc)
printf '%-8s %14s %14s %8s\n' threads sysbench bench ratio
for th in 1 "$ncpu"; do
    s_all="" b_all=""
    i=0
    while [ $i -lt "$REPS" ]; do
        s_all="$s_all $(eps "$S" --threads="$th")"
        b_all="$b_all $(eps "$B" --threads="$th")"
        i=$((i + 1))
    done
    s=$(echo $s_all | tr ' ' '\n' | median)
    b=$(echo $b_all | tr ' ' '\n' | median)
    awk -v t="$th" -v s="$s" -v b="$b" 'BEGIN { printf "%-8s %14s %14s %8.3f\n", t, s, b, b / s }'
done
echo "(events/s, median of $REPS runs of ${T}s each; sysbench: $("$S" --version))"
