#!/bin/sh
# shellcheck disable=SC2317 # the fake tools are called through perf_cmp
# The fairness of tests/perf (the benchmarks are not run here): tests/perf/lib/common.sh
# alternates the tools (A B, B A, ...; A B C, C B A with three), warms each up once without
# recording, reports the median of each tool and the median of the per-pair ratios (not the
# ratio of the medians), and a failed or garbled run fails the script; every tests/perf
# script parses, uses the shared alternation, and exits 77 when its peer is missing.
# Ends with "perf-lib: N passed, N failed".
set -u
t_name=perf-lib
. "$(dirname "$0")/lib.sh"
t() { # t NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then ok
    else bad "$1"; printf '  expected: %s\n  actual:   %s\n' "$2" "$3"; fi
}
# each fake tool logs its name (and "w" while warming up) and prints the next figure of its list
cat >"$w/run.sh" <<'EOS'
. "$1/tests/perf/lib/common.sh"
n=0
fig() { # fig NAME LIST...: the figure of run n of NAME
    name=$1; shift
    k=$(($(grep -c "^$name$" "$W/log" 2>/dev/null) + 1))
    [ "$perf_warming" = 1 ] && echo "${name}w" >>"$W/log.w" || echo "$name" >>"$W/log"
    [ "$perf_warming" = 1 ] && { echo "$1 1"; return; }
    eval "echo \${$k} 1"
}
a() { fig a 10 20 30 40 50; }
b() { fig b 11 44 33 40 100; }
c() { fig c 1 1 1 1 1; }
bad() { echo "x 1"; }
short() { echo "5"; }
failing() { return 3; }
case $2 in
two) perf_cmp two "v one" a b ;;
three) perf_cmp three "v one" a c b ;;
warm) PERF_WARMUP=1; perf_cmp warm "v one" a b ;;
bad) perf_cmp bad "v one" a bad ;;
short) perf_cmp short "v one" a short ;;
failing) perf_cmp failing "v one" a failing ;;
esac
cat "$PERF_TMP/med" "$PERF_TMP/ratio" >"$W/res"
perf_end
EOS
run() { # run CASE [REPS]: the script's exit status; output in $w/out, runs in $w/log
    rm -f "$w/log" "$w/log.w" "$w/res"
    W=$w REPS=${2:-5} sh "$w/run.sh" "$top" "$1" >"$w/out" 2>&1
}
run two 4
t "two tools: exit status" 0 $?
t "two tools: ABBA order" "a b b a a b b a" "$(tr '\n' ' ' <"$w/log" | sed 's/ $//')"
# pairs: (10,11) (20,44) (30,33) (40,40): ratios 1.1 2.2 1.1 1.0, median 1.1; medians 25 and 36.5
t "two tools: medians and median pair ratio" "a 25 1|b 36.5 1|a 1.100 1.000" "$(tr '\n' '|' <"$w/res" | sed 's/|$//')"
t "two tools: per-rep line, second rep reversed" "  rep 2 (b first): b 44 1 | a 20 1" "$(grep '^  rep 2' "$w/out")"
run two 5
# ratios 1.1 2.2 1.1 1.0 2.0: median 1.1 (the ratio of the medians, 40/30, would be 1.333)
t "five reps: median of pair ratios, not ratio of medians" "a 1.100 1.000" "$(tail -1 "$w/res")"
run three 2
t "three tools: A B C then C B A" "a c b b c a" "$(tr '\n' ' ' <"$w/log" | sed 's/ $//')"
# b/a: 11/10, 44/20: median 1.65; b/c: 11/1, 44/1: median 27.5
t "three tools: a ratio per peer" "a 1.650 1.000|c 27.500 1.000" "$(tail -2 "$w/res" | tr '\n' '|' | sed 's/|$//')"
run warm 1
t "warm-up: one unrecorded run of each, first" "aw bw|a b" "$(tr '\n' ' ' <"$w/log.w" | sed 's/ $//')|$(tr '\n' ' ' <"$w/log" | sed 's/ $//')"
t "warm-up: not in the figures" "a 10 1" "$(head -1 "$w/res")"
for c in bad short failing; do
    run "$c" 3
    t "$c run: exit 1" 1 $?
    t "$c run: said" 1 "$(grep -c "perf: FAILED: $c: rep 1, run of $c" "$w/out")"
    t "$c run: no medians" "" "$(cat "$w/res")"
done
# perf_mariadb against a fake tests/mariadb.sh and mariadb client that log what they are asked
mkdir -p "$w/top/tests" "$w/bin"
cat >"$w/top/tests/mariadb.sh" <<'EOS'
[ "$1" = stop ] && { echo "stop $2" >>"$W/my.log"; exit 0; }
echo "start $2 $3 args=${BENCH_MDB_ARGS:-}" >>"$W/my.log"
[ -z "${FAIL_START:-}" ] || exit 1
echo "export BENCH_MY_PORT=4242 BENCH_MY_SOCK=$W/sock"
EOS
cat >"$w/bin/mariadb" <<'EOS'
#!/bin/sh
echo "mariadb $*" >>"$W/my.log"
EOS
chmod +x "$w/bin/mariadb"
cat >"$w/my.sh" <<'EOS'
. "$1/tests/perf/lib/common.sh"
top=$W/top
perf_mariadb perf-x 30000 "--a=1 --b=2" d1 d2
echo "own=$perf_my_own port=$BENCH_MY_PORT" >>"$W/my.log"
perf_sql "SELECT 1"
echo "$PERF_TMP" >"$W/tmp"
EOS
my() { # my [VAR=VALUE...]: runs my.sh with them; its exit status, its log in $w/my.log
    rm -f "$w/my.log" "$w/tmp"
    # (a server the caller gave, as run.sh's, is not the one these cases are about)
    env -u BENCH_MY_PORT -u BENCH_MY_SOCK -u BENCH_MY_HOST -u MY_PORT -u BENCH_MDB_ARGS \
        W="$w" PATH="$w/bin:$PATH" "$@" sh "$w/my.sh" "$top" >"$w/out" 2>&1
}
q="mariadb --no-defaults --skip-ssl -uroot -S"
drops() { echo "$q $1 -N -B -e DROP DATABASE IF EXISTS d1|$q $1 -N -B -e DROP DATABASE IF EXISTS d2"; }
my BENCH_MDB_ARGS=--c=3
t "perf_mariadb, its own server: exit status" 0 $?
t "perf_mariadb, its own server: started, databases dropped, stopped on exit" \
    "start $w/top/build/perf-x 30000 args=--a=1 --b=2 --c=3|$(drops "$w/sock")|own=1 port=4242|$q $w/sock -N -B -e SELECT 1|$(drops "$w/sock")|stop $w/top/build/perf-x" \
    "$(tr '\n' '|' <"$w/my.log" | sed 's/|$//')"
t "perf_mariadb: PERF_TMP removed on exit" 1 "$([ -s "$w/tmp" ] && [ ! -e "$(cat "$w/tmp")" ] && echo 1)"
my MY_PORT=31001
t "perf_mariadb: MY_PORT wins over the script's port" "start $w/top/build/perf-x 31001 args=--a=1 --b=2 " "$(head -1 "$w/my.log")"
my BENCH_MY_PORT=5000 BENCH_MY_SOCK="$w/given"
t "perf_mariadb, a given server: not started or stopped, databases dropped" \
    "$(drops "$w/given")|own=0 port=5000|$q $w/given -N -B -e SELECT 1|$(drops "$w/given")" \
    "$(tr '\n' '|' <"$w/my.log" | sed 's/|$//')"
my FAIL_START=1
t "perf_mariadb, its server fails to start: exit 1" 1 $?
t "perf_mariadb, its server fails to start: said, nothing run" \
    "perf: the MariaDB server in $w/top/build/perf-x did not start|start $w/top/build/perf-x 30000 args=--a=1 --b=2 |stop $w/top/build/perf-x" \
    "$(cat "$w/out" "$w/my.log" | tr '\n' '|' | sed 's/|$//')"
# perf_fit_pool against a fake mariadb client that answers the sizes it is asked and logs the
# rest: the tables analysed; a pool raised to twice the data in 128 MiB steps on the server
# the script started, waited for; left and said on a given one; nothing raised when it fits
cat >"$w/bin/mariadb" <<'EOS'
#!/bin/sh
for a; do q=$a; done
case $q in
*SUM\(data_length*) echo "$DATA" ;;
*@@innodb_buffer_pool_size) echo "$POOL" ;;
*mysql.user*) echo "${USERS:-0}" ;;
*INNODB_BUFFER_POOL_PAGES_TOTAL*) n=$(cat "$W/polls" 2>/dev/null || echo 0); echo $((n + 1)) >"$W/polls"; [ "$n" -ge 2 ] && echo 1 || echo 0 ;;
*) echo "$q" >>"$W/my.log" ;;
esac
EOS
cat >"$w/fit.sh" <<'EOS'
. "$1/tests/perf/lib/common.sh"
perf_my_own=$2 BENCH_MY_SOCK=$W/sock
perf_fit_pool perf t1 t2
echo "pool=$perf_pool"
EOS
fit() { # fit OWN DATA POOL: the lines said, then the statements logged
    rm -f "$w/my.log" "$w/polls"
    W="$w" PATH="$w/bin:$PATH" DATA=$2 POOL=$3 sh "$w/fit.sh" "$top" "$1" 2>&1 | tr '\n' '|'
    tr '\n' '|' <"$w/my.log" | sed 's/|$//'
}
M=1048576
t "perf_fit_pool: own server, 300 MiB of data in a 128 MiB pool: raised to 640 MiB, waited for" \
    "dataset: 300 MiB (data + indexes); innodb_buffer_pool_size raised from 128 MiB to 640 MiB|pool=$((640 * M))|ANALYZE TABLE perf.t1, perf.t2|SET GLOBAL innodb_buffer_pool_size = $((640 * M))" \
    "$(fit 1 $((300 * M)) $((128 * M)))"
t "perf_fit_pool: the resize waited for (three polls)" 3 "$(cat "$w/polls")"
t "perf_fit_pool: a given server is left as it is, and said" \
    "dataset: 300 MiB does NOT fit this server's buffer pool (128 MiB): the runs read from disk (raise innodb_buffer_pool_size, or set TABLE_SIZE lower)|pool=$((128 * M))|ANALYZE TABLE perf.t1, perf.t2" \
    "$(fit 0 $((300 * M)) $((128 * M)))"
t "perf_fit_pool: data that fits (three quarters of the pool): nothing raised" \
    "dataset: 96 MiB (data + indexes), fits the buffer pool (128 MiB)|pool=$((128 * M))|ANALYZE TABLE perf.t1, perf.t2" \
    "$(fit 1 $((96 * M)) $((128 * M)))"
# perf_user: a new account made, granted, and dropped on exit; an account that exists is
# someone's: refused (exit 1), neither used nor dropped
cat >"$w/user.sh" <<'EOS'
. "$1/tests/perf/lib/common.sh"
BENCH_MY_SOCK=$W/sock
trap _perf_my_end EXIT
perf_user pu "SELECT ON d.*"
echo "made" >>"$W/my.log"
EOS
rm -f "$w/my.log"
W="$w" PATH="$w/bin:$PATH" sh "$w/user.sh" "$top" >"$w/out" 2>&1
t "perf_user: made, granted, dropped on exit" "0|CREATE USER 'pu'@'127.0.0.1' IDENTIFIED BY ''|GRANT SELECT ON d.* TO 'pu'@'127.0.0.1'|made|DROP USER 'pu'@'127.0.0.1'" \
    "$?|$(tr '\n' '|' <"$w/my.log" | sed 's/|$//')"
rm -f "$w/my.log"
W="$w" PATH="$w/bin:$PATH" USERS=1 sh "$w/user.sh" "$top" >"$w/out" 2>&1
t "perf_user: an account that exists: exit 1, said, not dropped" "1|perf: the account 'pu'@'127.0.0.1' exists on this server: not ours to use or drop|" \
    "$?|$(cat "$w/out")|$(cat "$w/my.log" 2>/dev/null)"
for s in "$top"/tests/perf/*.sh; do
    n=${s##*/}
    sh -n "$s"
    t "$n: parses" 0 $?
    if grep -q '^# no peer: ' "$s"; then # it times bench alone (all.sh): no alternation to share
        t "$n: says why it has no peer" 1 "$(grep -c '^# no peer: ' "$s")"
        continue
    fi
    t "$n: its MariaDB through perf_mariadb" 0 "$(grep -c -e '^sql() {' -e 'mariadb.sh" start' "$s")"
    # shellcheck disable=SC2016 # the literal line the scripts source the library with
    t "$n: uses the shared alternation" 1 "$(grep -c '^\. "$top/tests/perf/lib/common.sh"' "$s")"
    SYSBENCH=/nonexistent FIO_BIN=/nonexistent MBW_BIN=/nonexistent SLAP=/nonexistent sh "$s" >"$w/out" 2>&1 </dev/null
    t "$n: a missing peer exits 77" 77 $?
done
t_summary
