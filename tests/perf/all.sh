#!/bin/sh
# Benchmark (not a test): the wall time of `bench all` and `bench all --quick` in a directory
# of its own (DIR, default a fresh one under /tmp), with the total each page prints and its
# verdict line. Goals (issue 11, on the 2-core reference VM): default <= 60 s, --quick <= 20 s.
# Env: DIR (the --dir), DB (connection options, e.g. "-h 127.0.0.1 -u nat -psecret").
# Exit 0 unless a run could not run (exit 3).
# no peer: no other tool makes this page; it times bench all and --quick against the goals.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
d=${DIR:-$(mktemp -d)}
rc=0
for mode in --quick ""; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # DB splits into options on purpose
    "$B" all $mode --dir="$d" ${DB:-} >"$d.page" 2>/dev/null
    ex=$?
    t1=$(date +%s.%N)
    [ $ex = 3 ] && rc=1
    printf 'perf/all: bench all %-8s wall %6.1f s, exit %d; %s\n' "${mode:-(default)}" \
        "$(echo "$t1 - $t0" | bc)" "$ex" "$(grep '^Total time' "$d.page")"
done
rm -f "$d.page"
[ -n "${DIR:-}" ] || rm -rf "$d"
exit $rc
