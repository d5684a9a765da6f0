#!/bin/sh
# Compatibility with the real sysbench 1.0.20: run the same command line through Debian's
# sysbench and through bench invoked as `sysbench` (a symlink), then compare stdout, stderr
# and exit status after masking what legitimately varies (timings, the banner's build note).
# Needs /usr/bin/sysbench (tests/setup.sh installs it); exits 77 (skip) without it.
set -u
t_name=compat
. "$(dirname "$0")/lib.sh"
ref=${SYSBENCH_REF:-/usr/bin/sysbench}
[ -x "$ref" ] || { echo "compat: SKIP: $ref not installed"; exit 77; }
"$ref" --version | grep -q '^sysbench 1\.0\.20' || { echo "compat: SKIP: $ref is not 1.0.20"; exit 77; }
work=$w
ln -s "$top/bench" "$work/sysbench"

# only the timing-dependent fields are masked, column for column (tests/mask_timing.py: widths
# and precision stay compared; counts, MiB transferred and the events average stay exact); the
# events stddev too when threads share the events. bench's results must also hold the
# invariants of tests/check_result.py (fileio's read/write/fsync split by its formula).
check() { # check NAME ARGS... (not lib.sh's: sysbench and bench side by side)
    name=$1; shift
    sd=
    case " $* " in *" --threads="[2-9]* | *" --threads="[1-9][0-9]* | *" --num-threads="[2-9]*) sd=--stddev ;; esac
    (cd "$work" && "$ref" "$@" >ref.out 2>ref.err; echo $? >ref.rc)
    [ -n "${BETWEEN:-}" ] && (cd "$work" && eval "$BETWEEN")
    (cd "$work" && ./sysbench "$@" >our.out 2>our.err; echo $? >our.rc)
    ok=1
    python3 "$here/mask_timing.py" $sd "$work/ref.out" "$work/our.out" "$work/ref.err" "$work/our.err"
    for s in out err; do
        if ! cmp -s "$work/ref.$s.m" "$work/our.$s.m"; then
            ok=0
            echo "compat: FAIL $name: std$s differs (sysbench vs bench):"
            diff "$work/ref.$s.m" "$work/our.$s.m" | head -20
        fi
    done
    if ! cmp -s "$work/ref.rc" "$work/our.rc"; then
        ok=0
        echo "compat: FAIL $name: exit $(cat "$work/ref.rc") vs $(cat "$work/our.rc")"
    fi
    if grep -q '^General statistics:' "$work/our.out" &&
        ! python3 "$here/check_result.py" --quiet -- "$@" <"$work/our.out"; then
        ok=0
        echo "compat: FAIL $name: bench's result breaks an invariant (above)"
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
}

check version --version
check cpu-help cpu help
check memory-help memory help
check threads-help threads help
check mutex-help mutex help
check no-command cpu
check prepare cpu prepare
check cleanup cpu cleanup
check unknown-command cpu frobnicate
check extra-arg cpu run extra
check unknown-test foo run
check threads-0 --threads=0 cpu run
check threads-x --threads=x cpu run
check unknown-opt --thread=4 cpu run
check bad-bool --debug=5 cpu run
check pct-101 --percentile=101 cpu run
check hist-pct0 --histogram --percentile=0 cpu run
check zipfian --rand-type=zipfian cpu run
check cpu-prime-0 --cpu-max-prime=0 cpu run
check mem-bs-3 memory --memory-block-size=3 run
check mem-bs-0 memory --memory-block-size=0 run
check mem-bs-9 memory --memory-block-size=9 run
# every workload option's invalid-value path that sysbench reports (it runs on, hangs or
# crashes on the others: docs/cli.md, "sysbench persona")
check cpu-prime-neg cpu --cpu-max-prime=-1 run
check cpu-prime-x cpu --cpu-max-prime=x run
check cpu-prime-empty cpu --cpu-max-prime= run
for v in -1 x 1.5K ""; do check "mem-bs-'$v'" memory --memory-block-size="$v" run; done
for o in memory-scope memory-oper memory-access-mode; do
    check "$o-x" memory --$o=x run
    check "$o-num" memory --$o=1 run
done
check mem-hugetlb-x memory --memory-hugetlb=x run
for o in thread-yields thread-locks; do check "$o-x" threads --$o=x run; done
for o in mutex-num mutex-locks mutex-loops; do check "$o-x" mutex --$o=x run; done
FB="--file-num=1 --file-total-size=16K --file-test-mode=seqwr"
for v in x -1 0; do check "fio-bs-'$v'" fileio $FB --file-block-size=$v run; done
for o in file-fsync-freq file-merged-requests; do
    check "$o-neg" fileio $FB --$o=-1 run
    check "$o-x" fileio $FB --$o=x run
done
check fio-rw-ratio-neg fileio $FB --file-rw-ratio=-1 run
check fio-io-mode-x fileio $FB --file-io-mode=x run
check fio-io-mode-x-prepare fileio $FB --file-io-mode=x prepare
check fio-fsync-mode-x fileio $FB --file-fsync-mode=x run
for o in file-fsync-all file-fsync-end; do check "$o-x" fileio $FB --$o=x run; done
check cpu-events cpu --events=100 run
check cpu-2thr cpu --events=10 --threads=2 --time=0 run
check cpu-seed --rand-seed=42 --cpu-max-prime=2000 --events=5 cpu run
check cpu-pct0 --percentile=0 cpu --events=10 run
check cpu-pct99 --percentile=99 cpu --events=10 run
check cpu-debug --debug cpu --events=4 --time=0 run
check cpu-verbose --verbosity=4 cpu --events=4 --threads=2 --time=0 run
check cpu-validate --validate cpu --events=4 run
check cpu-forced --forced-shutdown=3 --time=1 --events=5 cpu run
check cpu-0.4 --test=cpu --num-threads=2 --max-requests=100 --max-time=1 run
check rate-full --rate=2000000000 cpu run --verbosity=1
check dashes --cpu_max_prime=2000 --events=3 cpu run
check threads-run threads --events=100 run
check mutex-run mutex --events=10 --threads=2 --mutex-locks=500 run
for oper in read write; do
    for scope in global local; do
        check "mem-$oper-$scope" memory --memory-total-size=1G --memory-block-size=4K \
            --memory-oper=$oper --memory-scope=$scope --events=1 --time=0 --threads=2 run
    done
done
check mem-none memory --memory-oper=none --memory-total-size=16M --time=0 run
check mem-rnd memory --memory-access-mode=rnd --memory-total-size=16M --time=0 run
check mem-zero memory --memory-block-size=1M --memory-total-size=1M --threads=2 --time=0 run

# fileio: prepare, every mode, cleanup, and the error paths (files in the scratch dir)
F="--file-num=4 --file-total-size=4M"
check fio-help fileio help
BETWEEN="rm -f test_file.*" check fio-prepare fileio $F prepare
check fio-reprepare fileio $F prepare
# O_SYNC includes O_DSYNC's bit: "sync" alone is shown as "sync ", as sysbench does
check fio-flag-sync fileio $F --file-extra-flags=sync prepare
check fio-flag-sync-dsync fileio $F --file-extra-flags=dsync,sync prepare
for m in seqwr seqrewr seqrd rndrd rndwr rndrw; do
    check "fio-$m" fileio $F --file-test-mode=$m --events=150 --time=0 run
done
check fio-mmap fileio $F --file-test-mode=rndrw --file-io-mode=mmap --events=150 --time=0 run
check fio-merged fileio $F --file-test-mode=seqrd --file-merged-requests=4 --events=50 --time=0 run
check fio-fsync-all fileio $F --file-test-mode=rndwr --file-fsync-all --events=20 --time=0 run
check fio-fdatasync fileio $F --file-test-mode=rndwr --file-fsync-mode=fdatasync --events=20 --time=0 run
check fio-nomode fileio $F run
check fio-badmode fileio $F --file-test-mode=foo run
check fio-badflag fileio $F --file-extra-flags=foo prepare
check fio-cleanup fileio $F cleanup
check fio-missing fileio $F --file-test-mode=rndrd run
(cd "$work" && "$ref" fileio $F prepare >/dev/null && truncate -s 100K test_file.1)
check fio-short fileio $F --file-test-mode=rndrd run
(cd "$work" && rm -f test_file.*)

# --help: sysbench's text byte for byte, whole, less the pgsql driver bench does not have
"$ref" --help | sed -e '/pgsql - PostgreSQL driver/d' -e '/^pgsql options:/,/^$/d' >"$work/ref.help"
(cd "$work" && ./sysbench --help) >"$work/our.help"
if cmp -s "$work/ref.help" "$work/our.help"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "compat: FAIL help:"; diff "$work/ref.help" "$work/our.help" | head; fi

t_summary
