#!/bin/sh
# Benchmark (not a test): the wall time of `bench all --quick`, `--quick` with a database and
# the default run in a directory of its own (DIR, default a fresh one under /tmp), with the
# total each page prints, its verdict and where the time went: each step's seconds from the
# JSON (the timed windows and the work around them) and what is left (host facts, checks).
# Goals (issue 11, on the 2-core reference VM): default <= 60 s, --quick <= 20 s with a DB.
# Env: DIR (the --dir), DB (connection options, e.g. "-h 127.0.0.1 -P 3306 -u nat -psecret";
# without it the suite's MariaDB when BENCH_MY_PORT is set, else no database run).
# Exit 0 unless a run could not run (exit 3).
# no peer: no other tool makes this page; it times bench all and --quick against the goals.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
B=${BENCH:-$top/bench}
d=${DIR:-$(mktemp -d)}
db=${DB:-}
[ -z "$db" ] && [ -n "${BENCH_MY_PORT:-}" ] && db="--no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret"
rc=0
echo "perf/all: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
run() { # NAME OPTIONS...
    name=$1
    shift
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # the options split into words on purpose
    "$B" all "$@" --dir="$d" --format=json >"$d.json" 2>/dev/null
    ex=$?
    t1=$(date +%s.%N)
    [ $ex = 3 ] && rc=1
    python3 - "$d.json" "$name" "$(echo "$t1 - $t0" | bc)" "$ex" <<'EOF'
import json, sys
path, name, wall, ex = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
try:
    d = json.load(open(path))
except ValueError:
    print("perf/all: bench all %-14s wall %6.1f s, exit %s; no JSON" % (name, wall, ex))
    sys.exit(0)
f = d.get("facts", {})
parts, spent = [], 0.0
for s in d.get("steps", []):
    if s.get("action") in ("check", "setting"):
        continue
    what = s.get("facts", {}).get("step") or s.get("action")
    spent += s.get("elapsed_s", 0)
    parts.append("%s %.1f" % (what, s.get("elapsed_s", 0)))
tot = f.get("all.total_s", 0)
print("perf/all: bench all %-14s wall %6.1f s, exit %s; total %.1f s, verdict %s"
      % (name, wall, ex, tot, f.get("all.verdict", "-")))
print("perf/all:   steps (s): " + ", ".join(parts))
print("perf/all:   steps %.1f s, the rest (facts, checks, start) %.1f s" % (spent, tot - spent))
EOF
}
run --quick --quick
if [ -n "$db" ]; then
    # shellcheck disable=SC2086
    run "--quick (DB)" --quick $db
else
    echo "perf/all: no database (set DB or BENCH_MY_PORT): --quick with a database not timed"
fi
run "(default)"
rm -f "$d.json"
[ -n "${DIR:-}" ] || rm -rf "$d"
exit $rc
