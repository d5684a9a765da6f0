#!/bin/sh
# Mutation testing: apply each mutant of tests/mutants.txt (one at a time) to a COPY of
# bench.c, build the mutant, run the suites fastest first and stop at the first that fails
# (the mutant is killed). One line per mutant, a summary, exit 1 if any survived, exit 2 if
# the list is stale (a literal not found exactly once, or a "section:" tag that is not the
# section its literal sits in: tests/mutants.py check) or the unmutated baseline fails (the
# baseline failing a suite that killed a mutant: that mutant "not judged", the run goes on).
# A unit failure is a kill only when a failed group fails again run alone (a timed test that
# failed by the host's load is no kill: the mutant goes on to its next suites).
#   sh tests/mutate.sh [ID...]       every mutant after a baseline run (or the ones named, alone)
#   sh tests/mutate.sh --fast        the fast subset (mutants with "fast: GROUP"): each one
#                                    built as the unit tests only and run on that unit group
# Each mutant runs the suites that test its section (section_suites, by the section's prefix:
# "21 all_" -> unit oracle-all all-guard all), fastest first, then the old default four (unit
# results golden compat) where the map leaves them out; a suite NAME is `sh tests/NAME.sh`
# (dashes as underscores) unless named in run_suite. The unmutated bench.c is checked on each
# suite that kills a mutant (a kill by a suite it fails too proves nothing), not on all first.
# Builds are quick glibc ones (unit tests -O0, bench -O1, no sanitizers); work tree, logs and
# (unless BENCH_MY_PORT is set) a MariaDB of its own under build/mutate. Env: MUTANTS (the
# list), MUTATE_SUITES (the same suites for every mutant instead of the map), MUTATE_PORT,
# MUTATE_TIMEOUT (seconds per suite), MUTATE_OPT (bench's optimisation, -O1; -O0 builds in
# seconds, not minutes, on a loaded host: for sections whose suites do not time bench, e.g.
# mrg_ cmp_ all_ sizing_).
# shellcheck disable=SC2089,SC2090,SC2046,SC2086 # flags split into words on purpose
set -u
t_name=mutate
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 2
list=${MUTANTS:-tests/mutants.txt}
fixed=${MUTATE_SUITES:-}
defaults="unit results golden compat"
# section_suites PREFIX: the suites (run.sh's names) that test a section of bench.c, fastest
# first; the defaults follow where not named. Not here: hostile (it runs `make san`'s binary,
# not the mutant) and memory-oracle (it runs make in the tree).
section_suites() {
    case $1 in
    b_) s="unit cli-hostile golden" ;;
    buf_) s="unit" ;;
    clk_ | hist_) s="unit results golden compat" ;;
    unit_) s="unit golden cli-hostile" ;;
    rnd_) s="unit compat oltp" ;;
    opt_) s="unit golden docs cli-hostile" ;;
    os_) s="unit engine-signals all-guard all" ;;
    my_) s="unit fake-auth tls-cli" ;;
    myc_) s="unit fake-auth tls-cli conns" ;;
    pg_) s="unit pgsql-hostile pgsql" ;;
    pgc_) s="unit pgsql-hostile pgsql" ;;
    cpu_ | mem_) s="unit golden compat" ;;
    thr_) s="unit golden compat" ;;
    load_) s="unit results golden compat engine-signals" ;;
    jr_) s="unit merge-hostile merge compare json" ;;
    res_) s="unit results golden json" ;;
    uring_ | io_) s="unit golden fileio-hostile fileio-compat compat" ;;
    evl_) s="unit conns slap" ;;
    oltp_) s="unit results oltp compat pgsql-oltp" ;; # results: the client split's oracle (oracle_clients.py)
    tpcc_) s="unit tpcc" ;;
    ping_ | sizing_) s="unit oneliner oracle-all json oltp all pgsql" ;;
    slap_) s="unit slap" ;;
    all_) s="unit oracle-all all-guard all" ;;
    mrg_) s="unit merge-hostile merge multihost" ;;
    cmp_) s="unit compare" ;;
    wl_) s="unit golden compat" ;;
    rep_) s="unit golden results compat json" ;;
    cli_) s="unit golden cli-hostile docs" ;;
    *) echo "mutate: no suites for section prefix '$1' (add it to section_suites)" >&2; return 1 ;;
    esac
    for d in $defaults; do case " $s " in *" $d "*) ;; *) s="$s $d" ;; esac; done
    echo "$s"
}
# suites_of SECTION ("21 all_"): MUTATE_SUITES, else its prefix's
suites_of() {
    [ -z "$fixed" ] || { echo "$fixed"; return 0; }
    p=$(echo "$1" | tr -s ' ,' '\n' | grep -m1 '_$')
    section_suites "${p:-?}"
}
tmo=${MUTATE_TIMEOUT:-600}
bopt=${MUTATE_OPT:--O1}
fast=0
[ "${1:-}" = --fast ] && { fast=1; shift; }
dir=$top/build/mutate
mkdir -p "$dir/logs"
rm -f "$dir/base-unit" "$dir/base-bench"
base_ok=" "
t0=$(date +%s)

python3 tests/mutants.py check "$list" bench.c || { echo "mutate: FAILED: stale mutants in $list (fix the literals)"; exit 2; }
ids=$(python3 tests/mutants.py ids "$list" $([ $fast = 1 ] && echo --fast)) || exit 2

# the build: mbedTLS for the host as `make dev` uses it; no sanitizers, -O1, no debug info
MB=build/deps/mbedtls-2.28.3
[ -f "$MB-host/library/libmbedtls.a" ] || make -s "$MB-host/library/libmbedtls.a" >/dev/null || exit 2
CFLAGS="-std=c11 -O1 -DBENCH_VERSION=\"mutant\" -DBENCH_ASSERT -I$top/$MB/include -I$top/build/deps -DMBEDTLS_CONFIG_FILE=\"bench_mbedtls_config.h\" -DBENCH_HAVE_MBEDTLS"
LIBS="$top/$MB-host/library/libmbedtls.a $top/$MB-host/library/libmbedx509.a $top/$MB-host/library/libmbedcrypto.a -lpthread -lm"

# the helper the golden transcripts preload (as `make test` builds it)
if [ $fast = 0 ]; then
    gcc -O1 -Wall -Wextra -o "$dir/noiouring" tests/noiouring.c || exit 2
fi

own_db=
t_at_exit() { [ -z "$own_db" ] || sh "$top/tests/mariadb.sh" stop "$dir/mariadb"; }
if [ -z "${BENCH_MY_PORT:-}" ]; then
    port=${MUTATE_PORT:-$((25100 + $$ % 800))}
    own_db=1
    menv=$(sh tests/mariadb.sh start "$dir/mariadb" "$port") || {
        r=$?
        [ $r = 77 ] && { echo "mutate: SKIP: no MariaDB server here (the live unit tests need one)"; exit 77; }
        echo "mutate: FAILED: the MariaDB test server did not start"; exit 2; }
    eval "$menv"
fi

# tree ID SRC: a copy of the tests with SRC as bench.c under $dir/tree (the suites find the
# binary as $top/bench there, or through $BENCH; docs/ for the suites that read them, build/
# for the files the unit tests record)
tree() {
    rm -rf "$dir/tree" && mkdir -p "$dir/tree/tests" "$dir/tree/build" || return 1
    cp -r tests/. "$dir/tree/tests/" && cp -r docs "$dir/tree/" && cp bench.h "$dir/tree/" &&
        cp "$2" "$dir/tree/bench.c"
    rm -f "$dir/tree/tests/unit" "$dir/tree/tests/noiouring"
    [ ! -f "$dir/noiouring" ] || cp "$dir/noiouring" "$dir/tree/tests/noiouring"
}
build_unit() {
    # shellcheck disable=SC2086
    gcc $CFLAGS -o "$dir/tree/tests/unit" "$dir/tree/tests/unit.c" $LIBS
}
build_bench() {
    # shellcheck disable=SC2086
    gcc $(echo "$CFLAGS" | sed "s/-O1/$bopt/") -o "$dir/tree/bench" "$dir/tree/bench.c" $LIBS
}

# run_suite NAME LOG [UNITGROUP]: 0 = passed
run_suite() {
    (
        cd "$dir/tree" || exit 2
        export BENCH="$dir/tree/bench"
        f=tests/$(echo "$1" | tr - _).sh
        case $1 in
        unit) timeout "$tmo" ./tests/unit ${3:-} ;;
        golden) timeout "$tmo" cram3 --shell=/bin/sh tests/golden ;;
        oltp) timeout "$tmo" bash tests/oltp.sh ;;
        multihost) timeout "$tmo" env $(env | sed -n 's/^\(BENCH_MY_[A-Z0-9_]*\)=.*/-u \1/p') sh "$f" ;;
        *) if [ -f "$f" ]; then timeout "$tmo" sh "$f"; else echo "mutate: unknown suite $1"; exit 2; fi ;;
        esac
    ) >"$2" 2>&1
}

# build_tree ID: the unit tests of the tree, -O0 (about 4 s of CPU; -O1 took minutes on a
# loaded 2-core host); 3 if they do not build. bench (-O1: the suites time it) is built when a
# suite other than unit first needs it (need_bench): most mutants die in unit.
build_tree() {
    CFLAGS=$(echo "$CFLAGS" | sed 's/-O1/-O0/') build_unit >"$dir/logs/$1.build" 2>&1 || return 3
}
# need_bench ID: the tree's bench (the baseline's built once and kept as base-bench); 3 if it
# does not build
need_bench() {
    [ ! -x "$dir/tree/bench" ] || return 0
    if [ "$1" = baseline ] && [ -x "$dir/base-bench" ]; then cp "$dir/base-bench" "$dir/tree/bench"; return; fi
    build_bench >"$dir/logs/$1.build2" 2>&1 || return 3
    [ "$1" != baseline ] || cp "$dir/tree/bench" "$dir/base-bench"
}

# base_check SUITE [UNITGROUP]: 0 if the unmutated bench.c passes SUITE (each suite checked
# once; the full run's baseline checked them all), 4 if it fails it too: a kill by a suite that
# fails anyway (a stale test, a missing server) proves nothing about the mutant
base_check() {
    case "$base_ok" in *" $1:${2:-} "*) return 0 ;; esac
    tree baseline bench.c || return 2
    if [ "$1" = unit ] && [ -x "$dir/base-unit" ]; then # built once (--fast: one build, many groups)
        cp "$dir/base-unit" "$dir/tree/tests/unit" || return 2
    else
        build_tree baseline || return 3
        cp "$dir/tree/tests/unit" "$dir/base-unit" || return 2
    fi
    [ "$1" = unit ] || need_bench baseline || return 3
    # twice at most: on a loaded host a timed unit test (a --rate run's count) can fail once
    run_suite "$1" "$dir/logs/baseline.$1" "${2:-}" ||
        { mv "$dir/logs/baseline.$1" "$dir/logs/baseline.$1.try1"; run_suite "$1" "$dir/logs/baseline.$1" "${2:-}"; } ||
        return 4
    base_ok="$base_ok$1:${2:-} "
}

# mutant ID SUITES [UNITGROUP]: sets $killed_by (empty: survived) and $skipped (the suites
# that skipped, exit 77); returns 3 when the mutant does not build (a mutant must compile: a
# build failure is an error in the list, never a kill)
mutant() {
    id=$1 suites=$2 group=${3:-} skipped=""
    if [ "$id" = baseline ]; then cp bench.c "$dir/src.c"
    else python3 tests/mutants.py apply "$list" bench.c "$id" "$dir/src.c" || return 2; fi
    tree "$id" "$dir/src.c" || return 2
    build_tree "$id" || return 3
    if [ $fast = 1 ]; then
        run_suite unit "$dir/logs/$id.unit" "$group" || { killed_by="unit"; return 0; }
        killed_by=""; return 0
    fi
    for s in $suites; do
        [ "$s" = unit ] || need_bench "$id" || return 3
        run_suite "$s" "$dir/logs/$id.$s"; r=$?
        [ $r = 0 ] && continue
        # a skip (77: a prerequisite missing) says nothing about the mutant: never a kill
        [ $r = 77 ] && { skipped="$skipped $s"; continue; }
        # unit: each failed group run again alone; a group that passes then failed by the load
        # (a timed test on a busy host), not by the mutant: no kill unless one fails twice
        if [ "$s" = unit ]; then
            again=""
            for g in $(sed -n 's/^FAIL \([a-z0-9_]*\).*/\1/p' "$dir/logs/$id.unit"); do
                run_suite unit "$dir/logs/$id.unit.$g" "$g" && continue
                again="$again $g"
            done
            [ -n "$again" ] || { flaky="$flaky $id"; echo "mutate: $id: unit's failures did not repeat alone (load): not a kill" >>"$dir/logs/flaky"; continue; }
            sed -i "1i FAIL again alone:$again" "$dir/logs/$id.unit"
        fi
        killed_by=$s; return 0
    done
    killed_by=""
}

# every section's suites known before anything runs
tab=$(printf '\t')
while IFS=$tab read -r id section kind group; do
    [ -z "$id" ] || suites_of "$section" >/dev/null || exit 2
done <<EOF
$ids
EOF
if [ $fast = 0 ] && [ $# = 0 ]; then
    mutant baseline unit || { echo "mutate: FAILED: the unmutated baseline does not build"; exit 2; }
    if [ -n "$killed_by" ]; then
        echo "mutate: FAILED: the unmutated baseline fails suite $killed_by (see $dir/logs/baseline.$killed_by)"
        tail -20 "$dir/logs/baseline.$killed_by"
        exit 2
    fi
    base_ok=" unit: "
    echo "mutate: baseline builds and passes unit ($(($(date +%s) - t0)) s); each suite that kills a mutant is checked on it too"
fi

killed=0 survived=0 equiv=0 survivors="" skips="" unjudged="" flaky=""
tab=$(printf '\t')
while IFS=$tab read -r id section kind group; do
    [ -n "$id" ] || continue
    if [ $# -gt 0 ]; then
        want=0; for a in "$@"; do [ "$a" = "$id" ] && want=1; done
        [ $want = 1 ] || continue
    fi
    if [ "$kind" = equivalent ]; then
        equiv=$((equiv + 1)); printf 'mutate: %-26s [%s] equivalent (not run, not counted)\n' "$id" "$section"
        continue
    fi
    [ "$group" = - ] && group=""
    s0=$(date +%s)
    msuites=$(suites_of "$section") || exit 2
    mutant "$id" "$msuites" "$group"; rc=$?
    if [ $rc = 3 ]; then
        echo "mutate: FAILED: mutant $id does not build (a mutant must compile):"
        tail -5 "$dir/logs/$id.build" "$dir/logs/$id.build2" 2>/dev/null
        exit 2
    fi
    [ $rc = 0 ] || exit 2
    if [ -n "$killed_by" ]; then
        base_check "$killed_by" "$group"; rc=$?
        if [ $rc = 4 ]; then # not judged; the run goes on (hours of others' results kept)
            printf 'mutate: %-26s [%s] NOT JUDGED: killed by suite %s, but the unmutated bench.c fails it too (see %s)\n' \
                "$id" "$section" "$killed_by" "$dir/logs/baseline.$killed_by"
            tail -5 "$dir/logs/baseline.$killed_by" | sed 's/^/    /'
            unjudged="$unjudged $id"
            continue
        fi
        [ $rc = 0 ] || { echo "mutate: FAILED: the unmutated baseline does not build"; exit 2; }
    fi
    dt=$(($(date +%s) - s0))
    if [ -n "$killed_by" ]; then
        killed=$((killed + 1))
        lf=$dir/logs/$id.$killed_by # the first line that says FAIL, else a diff's or a failure
        why=$({ grep -m1 FAIL "$lf" || grep -m1 -E '^-  |^\+  |failed' "$lf"; } 2>/dev/null | sed "s#$dir/tree/##" | cut -c1-80)
        printf 'mutate: %-26s [%s] killed by %s (%ss)%s%s\n' "$id" "$section" "$killed_by" "$dt" "${why:+: $why}" "${skipped:+ (skipped:$skipped)}"
    else
        survived=$((survived + 1)); survivors="$survivors $id"
        printf 'mutate: %-26s [%s] SURVIVED (%ss)%s\n' "$id" "$section" "$dt" "${skipped:+ (skipped, exit 77:$skipped)}"
    fi
    [ -z "$skipped" ] || skips="$skips $id:$(echo $skipped | tr ' ' ,)"
done <<EOF
$ids
EOF
rm -rf "$dir/tree"
echo "mutate: $killed killed, $survived survived, $equiv equivalent (not counted); $(($(date +%s) - t0)) s${survivors:+; survivors:$survivors}${skips:+; suites that skipped (exit 77):$skips}${flaky:+; unit failures that did not repeat alone (not kills, the next suites ran):$flaky}"
[ -z "$unjudged" ] || { echo "mutate: FAILED: not judged (the baseline fails the suite that killed them):$unjudged"; exit 2; }
[ $survived = 0 ]
