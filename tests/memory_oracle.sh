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
#     20% of the reference at 1 GiB arrays, run just before and just after it (the page
#     measures memory, not a cache; one bench all, so a second one when the first is off);
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

# 2. bench all --quick: its STREAM against the reference at 1 GiB arrays run just before and
#    just after it (their mean is the pair's reference); a second bench all when the first
#    pair is off by more than 20% (one run has no median: this is its second sample)
G=$((1024 * MiB))
mkdir -p "$w/d"
for try in 1 2; do
    rstream $G 3 && c1=$rc t1=$rt
    "$B" all --quick --dir="$w/d" --format=json >"$w/all.json" 2>"$w/all.err"
    rstream $G 3 && c2=$rc t2=$rt
    ac=$(jfact "$w/all.json" mem.stream_copy_mb_per_s) at=$(jfact "$w/all.json" mem.stream_triad_mb_per_s)
    rcm=$(awk -v a="$c1" -v b="$c2" 'BEGIN { print (a + b) / 2 }')
    rtm=$(awk -v a="$t1" -v b="$t2" 'BEGIN { print (a + b) / 2 }')
    echo "bench all try $try: copy $ac triad $at; 1 GiB reference: copy $c1, $c2; triad $t1, $t2"
    awk -v a="$ac" -v b="$rcm" -v c="$at" -v d="$rtm" 'BEGIN { exit !(b > 0 && d > 0 && (a / b - 1)^2 <= 0.04 && (c / d - 1)^2 <= 0.04) }' && break
done
within "bench all STREAM copy vs 1 GiB arrays" 20 "$ac $rcm"
within "bench all STREAM triad vs 1 GiB arrays" 20 "$at $rtm"
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
