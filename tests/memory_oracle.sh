#!/bin/sh
# bench's memory figures against an independent reference (issue 27): tests/memref.c, a
# STREAM-style kernel and a pointer chase written apart from bench.c. bench and the reference
# run back to back in pairs, the order alternating (bench first, then the reference first,
# ...), and the median of the pairs' ratios is judged: a burst of other load (the issue's
# host: 2 CPUs shared) lands on both runs of a pair, and one disturbed pair of five does not
# move the median:
#  1. STREAM copy and triad within 15% of the reference at the same arrays (256 MiB), threads,
#     passes and pages (both advise MADV_HUGEPAGE); 5 pairs;
#  2. bench all --quick's STREAM (its own array size, >= 4x the plausible last level) within
#     20% of the band of four references at 1 GiB arrays, two run just before and two just
#     after it (the page measures memory, not a cache; a second bench all when the first is
#     off); its threads (all.cpus) and passes as facts;
#     its DRAM figure names its pages and samples;
#  3. the latency mode's DRAM figure (the largest working set, 256 MiB here; 4 KiB pages and
#     the huge-page pass) within 25% of the chase over the same size and pages; 3 pairs;
#  4. the modes alone: the header names the sizes; --time=2 ends in < 4 s with the passes or
#     sizes done reported; SIGINT (sent once the first progress line is out) ends the run
#     within 1 s with what was done reported.
# Ends with "memory_oracle: N passed, N failed".
set -u
t_name=memory_oracle
. "$(dirname "$0")/lib.sh"
R=$top/tests/memref
make -s -C "$top" tests/memref || exit 1 # (up to date: nothing done)
bpid=""
t_at_exit() { [ -z "$bpid" ] || kill "$bpid" 2>/dev/null; }
# jfact FILE KEY: a fact of a JSON document
jfact() { python3 -c "import json,sys; v=json.load(open(sys.argv[1]))['facts'].get(sys.argv[2]); print('' if v is None else v)" "$1" "$2"; }
# med V...: the median
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# within NAME PCT "BENCH REF" ...: the median of the pairs' ratios BENCH / REF within PCT% of 1
within() {
    n=$1 p=$2; shift 2
    rs=$(for pr in "$@"; do echo "$pr"; done | awk '{ printf "%.3f\n", ($1 > 0 && $2 > 0) ? $1 / $2 : 0 }')
    # shellcheck disable=SC2086 # the ratios split into words on purpose
    m=$(med $rs)
    echo "$n: pairs (bench reference): $(printf '[%s] ' "$@"); ratios $(printf '%s ' $rs); median $m"
    if awk -v m="$m" -v p="$p" 'BEGIN { exit !(m > 0 && (m - 1)^2 <= (p / 100)^2) }'; then
        ok
    else
        bad "$n: median ratio bench / reference $m, not within $p%"
    fi
}
# inband V REF...: V within 20% of the band the references span (>= 0.8x the lowest, <= 1.2x
# the highest); all four references present and positive
inband() {
    v=$1; shift
    [ $# = 4 ] && printf '%s\n' "$@" | awk -v v="$v" 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 }
        END { exit !(NR == 4 && lo > 0 && v >= 0.8 * lo && v <= 1.2 * hi) }'
}
# refs KEY: the field after KEY in the reference's line ("copy 123 scale ...")
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }

T=$(env -u OMP_NUM_THREADS nproc)
MiB=1048576

# 1. STREAM at the same arrays (256 MiB each), threads, passes and pages; 5 pairs
A=$((256 * MiB)) P=6
cp="" tp=""
bstream() { # bstream: bench's copy and triad
    "$B" memory --memory-mode=stream --memory-total-size=$((3 * A)) --threads="$T" \
        --memory-passes=$P --format=json --output="$w/s.json" run >/dev/null 2>"$w/s.err" ||
        { bad "bench stream: $(cat "$w/s.err")"; return 1; }
    bc=$(jfact "$w/s.json" stream_copy_mb_per_s) bt=$(jfact "$w/s.json" stream_triad_mb_per_s)
}
rstream() { # rstream BYTES PASSES: the reference's copy and triad
    "$R" stream "$1" "$T" "$2" thp >"$w/r.out" || { bad "memref stream failed"; return 1; }
    rc=$(field copy <"$w/r.out") rt=$(field triad <"$w/r.out")
}
# offmed PAIRS...: 0 when the median ratio of the pairs ("BENCH REF") is within 15% of 1
offmed() {
    printf '%s\n' "$@" | awk '$1 > 0 && $2 > 0 { print $1 / $2 }' | sort -g |
        awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              exit (NR == 0 || (m - 1)^2 > 0.0225) }'
}
# 5 pairs; a second set of 5 when the first set's copy or triad median is off: this VM's
# bandwidth swings +-40% from minute to minute (a shared hypervisor), and a phase of it once
# held bench's triad at 0.75-0.88x the reference for all 5 pairs of a run (copy 1.01 in the
# same pairs; triad 1.02-1.07 in a run minutes before). A wrong bench (a 2x timing error, the
# cache measured, a memcpy for a copy loop) is off in both sets.
for set in 1 2; do
    cp="" tp=""
    for i in 1 2 3 4 5; do
        if [ $((i % 2)) = 1 ]; then bstream && rstream $A $P; else rstream $A $P && bstream; fi || break
        cp="$cp|$bc $rc" tp="$tp|$bt $rt"
    done
    IFS='|'
    # shellcheck disable=SC2086 # the pairs split at '|' on purpose
    if offmed ${cp#|} && offmed ${tp#|}; then unset IFS; break; fi
    unset IFS
    [ $set = 2 ] || echo "STREAM set $set off (copy pairs${cp}; triad pairs${tp}): a second set"
done
IFS='|'
# shellcheck disable=SC2086 # the pairs split at '|' on purpose
{ within "STREAM copy, 3 x 256 MiB, $T threads" 15 ${cp#|}
  within "STREAM triad, 3 x 256 MiB, $T threads" 15 ${tp#|}; }
unset IFS

# 2. bench all --quick: its STREAM against the reference at 1 GiB arrays, two runs just before
#    and two just after it: bench all's copy and triad within 20% of the band those four span
#    (>= 0.8x the lowest, <= 1.2x the highest). This VM's bandwidth flips between two levels
#    about 1.7x apart from second to second (a shared host: memref alone, back to back, gave
#    copy 53.9, 32.9, 33.2, 30.2 GB/s), so one bench all against the mean of two references
#    was off by 0.69-0.73x in a CI run and here with bench all at the low level and both
#    references at the high one. The band still fails a bench all that measures a cache
#    (L3 is several times DRAM here) or times wrong by 2x; the threads and the arrays it ran
#    are checked as facts below. A second bench all when the first is outside the band.
G=$((1024 * MiB))
mkdir -p "$w/d"
for try in 1 2; do
    rc_all="" rt_all=""
    for k in 1 2; do rstream $G 3 && rc_all="$rc_all $rc" rt_all="$rt_all $rt"; done
    "$B" all --quick --dir="$w/d" --format=json >"$w/all.json" 2>"$w/all.err"
    for k in 1 2; do rstream $G 3 && rc_all="$rc_all $rc" rt_all="$rt_all $rt"; done
    ac=$(jfact "$w/all.json" mem.stream_copy_mb_per_s) at=$(jfact "$w/all.json" mem.stream_triad_mb_per_s)
    echo "bench all try $try: copy $ac triad $at; 1 GiB references (2 before, 2 after): copy$rc_all; triad$rt_all"
    inband "$ac" $rc_all && inband "$at" $rt_all && break
done
# shellcheck disable=SC2086 # the references split into words on purpose
{ check "bench all STREAM copy within 20% of the 1 GiB references' band ($ac;$rc_all)" 'inband "$ac" $rc_all'
  check "bench all STREAM triad within 20% of the 1 GiB references' band ($at;$rt_all)" 'inband "$at" $rt_all'; }
check "bench all: STREAM on all.cpus threads" '[ "$(jfact "$w/all.json" mem.stream_threads)" = "$(jfact "$w/all.json" all.cpus)" ] && [ "$(jfact "$w/all.json" all.cpus)" -ge 1 ]'
check "bench all: STREAM best of 3 passes (--quick)" '[ "$(jfact "$w/all.json" mem.stream_passes)" = 3 ]'
check "bench all: mem.stream_reaches_dram" '[ "$(jfact "$w/all.json" mem.stream_reaches_dram)" = True ]'
check "bench all: mem.stream_level memory" '[ "$(jfact "$w/all.json" mem.stream_level)" = memory ]'
check "bench all: arrays >= 4x the last level sized from" '[ "$(jfact "$w/all.json" mem.stream_array_bytes)" -ge $((4 * $(jfact "$w/all.json" mem.stream_llc_bytes))) ]'
echo "bench all latency: knees $(jfact "$w/all.json" mem.latency_knees), dram $(jfact "$w/all.json" mem.latency_dram_bytes) bytes ($(jfact "$w/all.json" mem.latency_dram_samples) samples), largest set $(jfact "$w/all.json" mem.latency_max_bytes), l3 to $(jfact "$w/all.json" mem.latency_l3_to_bytes), llc $(jfact "$w/all.json" mem.stream_llc_bytes)"
# the largest set is 4x the last level sized from (128 MiB on a 32 MiB L3): the DRAM figure is
# that set's
check "bench all: the DRAM figure is the largest set's (>= 4x the last level), on 4KiB pages, 15 samples" 'db=$(jfact "$w/all.json" mem.latency_dram_bytes) && [ "$db" = "$(jfact "$w/all.json" mem.latency_max_bytes)" ] && [ "$db" -ge $((4 * $(jfact "$w/all.json" mem.stream_llc_bytes))) ] && [ "$(jfact "$w/all.json" mem.latency_dram_pages)" = 4KiB ] && [ "$(jfact "$w/all.json" mem.latency_dram_samples)" = 15 ]'

# 3. the latency mode at 256 MiB, 4 KiB pages and huge pages, against the chase; 3 pairs
L=$((256 * MiB))
np="" hp=""
blat() {
    "$B" memory --memory-mode=latency --memory-total-size=$L --format=json --output="$w/l.json" run >/dev/null 2>"$w/l.err" ||
        { bad "bench latency: $(cat "$w/l.err")"; return 1; }
    bn=$(jfact "$w/l.json" latency_dram_ns) bh=$(jfact "$w/l.json" latency_dram_ns_thp)
}
rlat() {
    rn=$("$R" chase $L 0.4 nothp | field ns_per_load) rh=$("$R" chase $L 0.4 thp | field ns_per_load)
}
for i in 1 2 3; do
    if [ $((i % 2)) = 1 ]; then blat && rlat; else rlat && blat; fi || break
    np="$np|$bn $rn" hp="$hp|$bh $rh"
done
check "latency: the DRAM figure is the 256 MiB set on 4 KiB pages" '[ "$(jfact "$w/l.json" latency_dram_bytes)" = $L ] && [ "$(jfact "$w/l.json" latency_dram_pages)" = 4KiB ]'
IFS='|'
# shellcheck disable=SC2086 # the pairs split at '|' on purpose
{ within "DRAM latency, 256 MiB, 4 KiB pages" 25 ${np#|}
  within "DRAM latency, 256 MiB, huge pages" 25 ${hp#|}; }
unset IFS

# 4. the modes alone: header, --time, SIGINT
for mode in stream latency; do
    t0=$(date +%s%N)
    # (stream: passes enough to outlast --time; latency's curve outlasts it by default)
    "$B" memory --memory-mode=$mode --time=2 $([ $mode = stream ] && echo --memory-passes=100000) run >"$w/t.out" 2>&1
    ms=$((($(date +%s%N) - t0) / 1000000))
    check "$mode --time=2 ends in < 4 s ($ms ms)" '[ $ms -lt 4000 ]'
    if [ $mode = stream ]; then
        check "stream header: the arrays' size and the time expected" 'grep -Eq "^3 arrays of [0-9.]+[KMG]iB .*expected about" "$w/t.out"'
        check "stream --time: passes reported" 'grep -Eq "^Stopped by time after [0-9]+ of [0-9]+ passes" "$w/t.out"'
    else
        check "latency header: the sizes and the time expected" 'grep -Eq "^working sets 4KiB to [0-9.]+[KMG]iB .*expected about" "$w/t.out"'
        check "latency --time: sizes reported" 'grep -Eq "^(Stopped by time after [0-9]+ sizes|Plateaus)" "$w/t.out"'
    fi
    : >"$w/i.out"
    "$B" memory --memory-mode=$mode $([ $mode = stream ] && echo --memory-passes=100000) run >"$w/i.out" 2>&1 &
    bpid=$!
    # wait for the first progress line (a state, with a deadline), then the signal
    n=0
    while ! grep -Eq "^pass 1 of|ns/load, best of" "$w/i.out" && [ $n -lt 600 ]; do
        kill -0 $bpid 2>/dev/null || break
        n=$((n + 1)); sleep 0.05
    done
    t0=$(date +%s%N)
    kill -INT $bpid 2>/dev/null
    n=0
    while kill -0 $bpid 2>/dev/null && [ $n -lt 400 ]; do n=$((n + 1)); sleep 0.01; done
    ms=$((($(date +%s%N) - t0) / 1000000))
    wait $bpid 2>/dev/null
    bpid=""
    check "$mode: SIGINT ends the run within 1 s ($ms ms)" '[ $ms -le 1000 ]'
    check "$mode: SIGINT: what was done is reported" 'grep -Eq "^Stopped by signal after [0-9]+ (of [0-9]+ passes|sizes)" "$w/i.out"'
done

t_summary
