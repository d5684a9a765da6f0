#!/bin/sh
# bench's memory figures against an independent reference (issue 27): tests/memref.c, a
# STREAM-style kernel and a pointer chase written apart from bench.c. Runs alternate (bench,
# reference, reference, bench, ...) and the medians are compared, so a burst of other load
# lands on both sides:
#  1. STREAM copy and triad within 15% of the reference at the same arrays, threads, passes
#     (and pages: both advise MADV_HUGEPAGE);
#  2. bench all's STREAM (--quick: its own array size, >= 4x the plausible last level) within
#     20% of the reference at 1 GiB arrays (the page measures memory, not a cache), and the
#     page's DRAM latency within 25% of the chase over the same working set and page size;
#  3. the latency mode's DRAM figure (the largest working set, 256 MiB here, 4 KiB pages; and
#     the huge-page pass's) within 25% of the chase over the same size and pages;
#  4. the modes alone: the header names the sizes; --time=2 ends in < 4 s with the passes or
#     sizes done reported; SIGINT (sent once the first progress line is out) ends the run
#     within 1 s with what was done reported.
# Ends with "memory_oracle: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
B=${BENCH:-$top/bench}
R=$top/tests/memref
[ -x "$R" ] && [ "$R" -nt "$top/tests/memref.c" ] || make -s -C "$top" tests/memref || exit 1
w=$(mktemp -d)
bpid=""
trap '[ -n "$bpid" ] && kill "$bpid" 2>/dev/null; rm -rf "$w"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "memory_oracle: FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
# jfact FILE KEY: a fact of a JSON document
jfact() { python3 -c "import json,sys; v=json.load(open(sys.argv[1]))['facts'].get(sys.argv[2]); print('' if v is None else v)" "$1" "$2"; }
# med V...: the median
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# within NAME BENCH REF PCT: |bench / ref - 1| <= PCT%
within() {
    echo "$1: bench $2, reference $3"
    if awk -v b="$2" -v r="$3" -v p="$4" 'BEGIN { exit !(b > 0 && r > 0 && (b / r - 1)^2 <= (p / 100)^2) }'; then
        ok
    else
        bad "$1: bench $2 vs reference $3: ratio $(awk -v b="$2" -v r="$3" 'BEGIN { printf "%.2f", (r > 0 ? b / r : 0) }'), not within $4%"
    fi
}
# refs KEY: the field after KEY in the reference's line ("copy 123 scale ...")
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }

T=$(env -u OMP_NUM_THREADS nproc)
MiB=1048576

# 1. STREAM at the same arrays (256 MiB each), threads and passes; 3 pairs, alternating
A=$((256 * MiB)) P=6
bc="" bt="" rc="" rt=""
for i in 1 2 3; do
    for side in b r; do
        [ $((i % 2)) = 0 ] && side=$([ $side = b ] && echo r || echo b)
        if [ $side = b ]; then
            "$B" memory --memory-mode=stream --memory-total-size=$((3 * A)) --threads="$T" run \
                --memory-passes=$P --format=json --output="$w/s.json" >/dev/null 2>"$w/s.err" || { bad "bench stream: $(cat "$w/s.err")"; break 2; }
            bc="$bc $(jfact "$w/s.json" stream_copy_mb_per_s)" bt="$bt $(jfact "$w/s.json" stream_triad_mb_per_s)"
        else
            "$R" stream $A "$T" $P thp >"$w/r.out" || { bad "memref stream failed"; break 2; }
            rc="$rc $(field copy <"$w/r.out")" rt="$rt $(field triad <"$w/r.out")"
        fi
    done
done
# shellcheck disable=SC2086 # the lists split into words on purpose
{ within "STREAM copy, 3 x 256 MiB, $T threads" "$(med $bc)" "$(med $rc)" 15
  within "STREAM triad, 3 x 256 MiB, $T threads" "$(med $bt)" "$(med $rt)" 15; }

# 2. bench all --quick: its STREAM against the reference at 1 GiB arrays (runs before and
#    after it), its DRAM latency against the chase over its own largest working set
G=$((1024 * MiB))
"$R" stream $G "$T" 3 thp >"$w/g1" || bad "memref stream 1 GiB failed"
mkdir -p "$w/d"
"$B" all --quick --dir="$w/d" --format=json >"$w/all.json" 2>"$w/all.err"
"$R" stream $G "$T" 3 thp >"$w/g2" || bad "memref stream 1 GiB failed"
"$R" stream $G "$T" 3 thp >"$w/g3" || bad "memref stream 1 GiB failed"
check "bench all: mem.stream_reaches_dram" '[ "$(jfact "$w/all.json" mem.stream_reaches_dram)" = True ]'
check "bench all: mem.stream_level memory" '[ "$(jfact "$w/all.json" mem.stream_level)" = memory ]'
check "bench all: arrays >= 4x the last level sized from" '[ "$(jfact "$w/all.json" mem.stream_array_bytes)" -ge $((4 * $(jfact "$w/all.json" mem.stream_llc_bytes))) ]'
within "bench all STREAM copy vs 1 GiB arrays" "$(jfact "$w/all.json" mem.stream_copy_mb_per_s)" \
    "$(med "$(field copy <"$w/g1")" "$(field copy <"$w/g2")" "$(field copy <"$w/g3")")" 20
within "bench all STREAM triad vs 1 GiB arrays" "$(jfact "$w/all.json" mem.stream_triad_mb_per_s)" \
    "$(med "$(field triad <"$w/g1")" "$(field triad <"$w/g2")" "$(field triad <"$w/g3")")" 20
ds=$(jfact "$w/all.json" mem.latency_dram_bytes)
check "bench all: the DRAM figure names its pages (4KiB) and samples (15)" '[ "$(jfact "$w/all.json" mem.latency_dram_pages)" = 4KiB ] && [ "$(jfact "$w/all.json" mem.latency_dram_samples)" = 15 ]'
if [ -n "$ds" ] && [ "$ds" -ge $((256 * MiB)) ]; then
    c1=$("$R" chase "$ds" 0.5 nothp | field ns_per_load)
    c2=$("$R" chase "$ds" 0.5 nothp | field ns_per_load)
    within "bench all DRAM latency vs a chase over $((ds / MiB)) MiB, 4 KiB pages" \
        "$(jfact "$w/all.json" mem.latency_dram_ns)" "$(med "$c1" "$c2")" 25
else
    bad "bench all: no DRAM latency over >= 256 MiB (mem.latency_dram_bytes '$ds')"
fi

# 3. the latency mode at 256 MiB, 4 KiB pages and huge pages; 3 pairs, alternating
L=$((256 * MiB))
bn="" bh="" rn="" rh=""
for i in 1 2 3; do
    [ $((i % 2)) = 0 ] && { rn="$rn $("$R" chase $L 0.4 nothp | field ns_per_load)"; rh="$rh $("$R" chase $L 0.4 thp | field ns_per_load)"; }
    "$B" memory --memory-mode=latency --memory-total-size=$L --format=json --output="$w/l.json" run >/dev/null 2>"$w/l.err" || { bad "bench latency: $(cat "$w/l.err")"; break; }
    bn="$bn $(jfact "$w/l.json" latency_dram_ns)" bh="$bh $(jfact "$w/l.json" latency_dram_ns_thp)"
    [ $((i % 2)) = 1 ] && { rn="$rn $("$R" chase $L 0.4 nothp | field ns_per_load)"; rh="$rh $("$R" chase $L 0.4 thp | field ns_per_load)"; }
done
check "latency: the DRAM figure is the 256 MiB set on 4 KiB pages" '[ "$(jfact "$w/l.json" latency_dram_bytes)" = $L ] && [ "$(jfact "$w/l.json" latency_dram_pages)" = 4KiB ]'
# shellcheck disable=SC2086
{ within "DRAM latency, 256 MiB, 4 KiB pages" "$(med $bn)" "$(med $rn)" 25
  within "DRAM latency, 256 MiB, huge pages" "$(med $bh)" "$(med $rh)" 25; }

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

echo "memory_oracle: $pass passed, $fail failed"
[ $fail = 0 ]
