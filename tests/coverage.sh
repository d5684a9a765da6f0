#!/bin/sh
# Coverage of bench.c over the suite (`make coverage`): a gcc --coverage build of bench and of
# the unit tests, the unit tests and the shell/cram suites run against it through $BENCH (the
# `sysbench` persona too: the suites symlink the binary as sysbench), then line and branch
# coverage per section (tests/coverage.py). Uses the suite's MariaDB when BENCH_MY_PORT is
# set, else starts its own. Work tree and data under build/cov. Env: COV_SUITES.
# shellcheck disable=SC2089,SC2090,SC2086 # flags split into words on purpose
set -u
t_name=coverage
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 2
dir=$top/build/cov
suites=${COV_SUITES:-unit oracle-all golden results compat fileio-hostile engine-signals cli-hostile docs fake-auth hostile oltp oneliner conns slap json merge merge-hostile compare all-guard all}
MB=build/deps/mbedtls-2.28.3
[ -f "$MB-host/library/libmbedtls.a" ] || make -s "$MB-host/library/libmbedtls.a" >/dev/null || exit 2
CFLAGS="-std=c11 -O0 -g --coverage -DBENCH_VERSION=\"coverage\" -DBENCH_ASSERT -I$top/$MB/include -I$top/build/deps -DMBEDTLS_CONFIG_FILE=\"bench_mbedtls_config.h\" -DBENCH_HAVE_MBEDTLS"
LIBS="$top/$MB-host/library/libmbedtls.a $top/$MB-host/library/libmbedx509.a $top/$MB-host/library/libmbedcrypto.a -lpthread -lm"
rm -rf "$dir" && mkdir -p "$dir/obj" "$dir/tree/tests" "$dir/tree/build" "$dir/gcov" || exit 2
cp -r tests/. "$dir/tree/tests/" && cp -r docs "$dir/tree/" && cp bench.c bench.h README.md "$dir/tree/" &&
    rm -f "$dir/tree/tests/unit"
# objects (and so the .gcno/.gcda) under $dir/obj; the binaries in the tree the suites use
# shellcheck disable=SC2086
(cd "$dir/obj" && gcc $CFLAGS -c -o bench.o "$top/bench.c" && gcc --coverage -o "$dir/tree/bench" bench.o $LIBS &&
    gcc $CFLAGS -Wno-missing-prototypes -c -o unit.o "$dir/tree/tests/unit.c" && gcc --coverage -o "$dir/tree/tests/unit" unit.o $LIBS) ||
    { echo "coverage: the instrumented build failed"; exit 2; }
gcc -O1 -Wall -Wextra -o "$dir/tree/tests/noiouring" tests/noiouring.c || exit 2

own_db=
t_at_exit() { [ -z "$own_db" ] || sh "$top/tests/mariadb.sh" stop "$dir/mariadb"; }
if [ -z "${BENCH_MY_PORT:-}" ]; then
    port=${COV_PORT:-$((25100 + $$ % 800))}
    own_db=1
    menv=$(sh tests/mariadb.sh start "$dir/mariadb" "$port") || { echo "coverage: the MariaDB test server did not start"; exit 2; }
    eval "$menv"
fi
failed=""
for s in $suites; do
    case $s in
    unit) cmd="./tests/unit" ;;
    golden) cmd="cram3 --shell=/bin/sh tests/golden" ;;
    oltp) cmd="bash tests/oltp.sh" ;;
    *) cmd="sh tests/$(echo "$s" | tr - _).sh" ;;
    esac
    t0=$(date +%s)
    # shellcheck disable=SC2086
    (cd "$dir/tree" && BENCH="$dir/tree/bench" BENCH_SAN="$dir/tree/bench" $cmd) >"$dir/$s.log" 2>&1
    rc=$?
    echo "coverage: suite $s: exit $rc ($(($(date +%s) - t0)) s)"
    [ $rc = 0 ] || failed="$failed $s"
done
(cd "$dir/gcov" && for g in "$dir"/obj/*.gcda; do gcov -j -b -o "$dir/obj" "$g" >/dev/null 2>&1; done)
python3 tests/coverage.py bench.c "$dir"/gcov/*.gcov.json.gz
[ -z "$failed" ] || echo "coverage: note: suites that failed under the instrumented build:$failed (logs in $dir)"
