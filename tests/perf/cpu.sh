#!/bin/sh
# shellcheck disable=SC2317 # the run functions are called through perf_cmp
# Benchmark (not a test): bench cpu against Debian's sysbench cpu, side by side in one run,
# --cpu-max-prime=20000, 1 thread and all threads. Runs alternate (ABBA) so that frequency
# drift and neighbours hit both alike; prints every run's events/s, the median of each tool
# and the median of the per-pair ratios bench/sysbench.
# Goal: events/s ratio bench/sysbench in 0.97..1.03.
# Env: REPS (alternating runs per tool, default 5), TIME (seconds per run, 5).
# Exit 0 unless a run failed; 77 without sysbench.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
S=${SYSBENCH:-/usr/bin/sysbench}
T=${TIME:-5}
[ -x "$S" ] || { echo "perf/cpu: $S not installed (apt-get install sysbench)"; exit 77; }
# shellcheck source=tests/perf/lib/common.sh
. "$top/tests/perf/lib/common.sh"
ncpu=$(nproc)
perf_header cpu
perf_cmd sysbench "$S --cpu-max-prime=20000 --time=$T --threads=N cpu run  (N = 1, $ncpu)"
perf_cmd bench "$B --cpu-max-prime=20000 --time=$T --threads=N cpu run"
eps() { "$@" --cpu-max-prime=20000 --time="$T" --threads="$th" cpu run | sed -n 's/.*events per second: *//p'; }
sysbench() { eps "$S"; }
bench() { eps "$B"; }
for th in 1 "$ncpu"; do
    perf_cmp "cpu, $th thread(s)" events/s sysbench bench
done
echo "($("$S" --version); ${T}s per run)"
perf_end
