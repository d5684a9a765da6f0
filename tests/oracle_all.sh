#!/bin/sh
# tests/oracle_all.py (issue 29) on documents made at the rules' edges: the unit group
# all_oracle_docs writes them (bench.c's all_settings and sizing_ladder_facts on given facts and
# rungs: RAM just below, at and above 1 GiB and 4 GiB, shares not a multiple of 128 MiB, a cgroup
# limit, --server-ram/--server-cpus here and elsewhere, odd CPUs; ladders whose peak is not the
# last rung, a dip, still rising, one rung, not confirmed); the oracle recomputes every setting
# and knee from docs/cli.md's rules. Seconds. tests/all.sh runs it (and the oracle on its own
# runs' documents). Needs tests/unit (make tests/unit). Ends with "oracle_all: N documents, 0
# differences", exit 1 on a difference.
set -u
t_name=oracle_all
. "$(dirname "$0")/lib.sh"
[ -x "$top/tests/unit" ] || { echo "oracle_all: FAIL: no $top/tests/unit (make tests/unit)"; exit 1; }
BENCH_ORACLE_DIR=$w "$top/tests/unit" all_oracle_docs >"$w/unit.log" 2>&1 || {
    echo "oracle_all: FAIL: tests/unit all_oracle_docs"; cat "$w/unit.log"; exit 1; }
n=$(find "$w" -name '*.json' | wc -l)
[ "$n" -ge 17 ] || { echo "oracle_all: FAIL: $n documents written, wanted 17"; exit 1; }
python3 "$top/tests/oracle_all.py" "$w"/*.json
