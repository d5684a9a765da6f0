# shellcheck shell=sh
# Shared by tests/perf/*.sh (sourced, not run): fair side-by-side runs of bench and a peer.
#   perf_header NAME          the header: what runs, host facts (nproc, kernel, load average)
#   perf_cmd WHO CMDLINE...   prints one command line of the comparison ("WHO: CMDLINE")
#   perf_cpu OUT CMD...       runs CMD (stdout+stderr to OUT), prints its CPU seconds (user+sys)
#   perf_cmp LABEL FIELDS FN... runs each FN (a shell function printing one figure per name
#                             in FIELDS) REPS times in alternating order (ABBA: odd reps in
#                             the given order, even reps reversed), after one unrecorded
#                             warm-up run of each when PERF_WARMUP=1 (perf_warming=1
#                             while it runs); prints the per-rep figures, the median of
#                             each, and for every FN but the last
#                             (the peers) the median of the pair ratios last/FN (bench/peer)
#                             per figure. A run that fails or prints no number counts as a
#                             failure (perf_fail), and the comparison is abandoned.
#   perf_median               median of the numbers on stdin, one a line
#   perf_rusage OUT CMD...    runs CMD (stdout+stderr to OUT); prints "CPU-s CTXSW" of it, all
#                             its threads (wait4's rusage: user+sys seconds, voluntary +
#                             involuntary context switches); fails when CMD fails
#   perf_per_txn OUT FIGURES  from a sysbench result in OUT and perf_rusage's "CPU-s CTXSW":
#                             "TPS CPU-s/1000-txn ctxsw/txn"
#   perf_end                  the closing line; exit 1 if any run failed, else 0
#   perf_mariadb DIR PORT ARGS DB...
#                             the MariaDB the runs share: the one BENCH_MY_PORT and
#                             BENCH_MY_SOCK (root's unix socket) name, else one of the
#                             script's own on loopback (perf_my_own=1: tests/mariadb.sh
#                             start $top/build/DIR on port MY_PORT, default PORT; the mariadbd
#                             options ARGS, then BENCH_MDB_ARGS), stopped on exit; the
#                             databases DB... dropped now (if there) and on exit. Needs $top
#                             (the checkout); exits 1 when its server does not start
#   perf_sql SQL              runs SQL as root on that server (its socket, no TLS); the
#                             answer without column names, tab-separated
# Env: REPS (alternating repetitions, default 5), PERF_WARMUP.
# After perf_cmp: the medians in $PERF_TMP/med ("FN f1 f2 ..", a line per FN) and the
# median pair ratios in $PERF_TMP/ratio ("PEER r1 r2 ..", a line per peer).
REPS=${REPS:-5}
perf_failed=0
perf_warming=0
perf_my_own=0
perf_my_dir=""
perf_my_dbs=""
perf_my_users=""
PERF_TMP=$(mktemp -d)
trap 'rm -rf "$PERF_TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

perf_header() {
    echo "perf/$1: bench against its peer, median of $REPS alternating (ABBA) repetitions"
    echo "host: $(nproc) CPUs, kernel $(uname -r), load average at start" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
}

perf_cmd() {
    who=$1
    shift
    echo "  $who: $*"
}

perf_cpu() {
    out=$1
    shift
    rm -f "$out"
    # the children's user+sys clock ticks of a shell that ran only CMD (fields 16 and 17)
    ticks=$(sh -c 'o=$1; shift; "$@" >"$o" 2>&1 || exit 1
        set -- $(cat /proc/$$/stat); echo $(( ${16} + ${17} ))' sh "$out" "$@") || return 1
    awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.3f\n", t / hz }'
}

perf_rusage() {
    python3 - "$@" <<'EOF'
import os, sys
out, cmd = sys.argv[1], sys.argv[2:]
fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
pid = os.fork()
if pid == 0:
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    try:
        os.execv(cmd[0], cmd)
    finally:
        os._exit(127)
_, st, ru = os.wait4(pid, 0)
if not os.WIFEXITED(st) or os.WEXITSTATUS(st) != 0:
    sys.exit(1)
print("%.3f %d" % (ru.ru_utime + ru.ru_stime, ru.ru_nvcsw + ru.ru_nivcsw))
EOF
}

perf_per_txn() {
    sed -n 's/^ *transactions: *\([0-9]*\) *(\([0-9.]*\) per sec.)/\1 \2/p' "$1" |
        awk -v c="${2% *}" -v x="${2#* }" '$1 > 0 { printf "%s %.4f %.3f\n", $2, c / $1 * 1000, x / $1 }'
}

perf_median() {
    sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2];
        else printf "%.6g\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

perf_fail() {
    echo "perf: FAILED: $*" >&2
    perf_failed=1
}

# _perf_run FN NFIELDS: one run of FN, its figures on stdout; non-zero if it failed
_perf_run() {
    r=$("$1") || return 1
    echo "$r" | awk -v n="$2" '
        NF != n { bad = 1 }
        { for (i = 1; i <= NF; i++) if ($i !~ /^[0-9.eE+-]+$/) bad = 1; $1 = $1; l = $0 }
        END { if (bad || NR != 1) exit 1; print l }' || return 1
}

perf_cmp() {
    label=$1 fields=$2
    shift 2
    nf=$(echo "$fields" | wc -w)
    last=$(eval "echo \${$#}")
    echo "-- $label: $fields"
    : >"$PERF_TMP/med"
    : >"$PERF_TMP/ratio"
    for fn in "$@"; do : >"$PERF_TMP/f.$fn"; done
    if [ "${PERF_WARMUP:-0}" = 1 ]; then
        perf_warming=1
        for fn in "$@"; do
            _perf_run "$fn" "$nf" >/dev/null ||
                { perf_warming=0; perf_fail "$label: warm-up run of $fn"; return 0; }
        done
        perf_warming=0
    fi
    rep=1
    while [ "$rep" -le "$REPS" ]; do
        order=$*
        [ $((rep % 2)) = 1 ] || order=$(printf '%s\n' "$@" | tac | tr '\n' ' ')
        line="rep $rep ($(echo "$order" | cut -d' ' -f1) first):"
        for fn in $order; do
            fig=$(_perf_run "$fn" "$nf") || { perf_fail "$label: rep $rep, run of $fn"; return 0; }
            echo "$fig" >>"$PERF_TMP/f.$fn"
            line="$line $fn $fig |"
        done
        echo "  ${line% |}"
        rep=$((rep + 1))
    done
    line="median:"
    for fn in "$@"; do
        m=$fn
        for k in $(seq "$nf"); do
            m="$m $(cut -d' ' -f"$k" "$PERF_TMP/f.$fn" | perf_median)"
        done
        echo "$m" >>"$PERF_TMP/med"
        line="$line $m |"
    done
    echo "  ${line% |}"
    for fn in "$@"; do
        [ "$fn" != "$last" ] || continue
        r="$fn"
        for k in $(seq "$nf"); do
            r="$r $(paste -d' ' "$PERF_TMP/f.$fn" "$PERF_TMP/f.$last" | awk -v k="$k" -v n="$nf" \
                '{ printf "%.4f\n", ($k > 0) ? $(n + k) / $k : 0 }' | perf_median |
                awk '{ printf "%.3f", $1 }')"
        done
        echo "$r" >>"$PERF_TMP/ratio"
        echo "  $last/$fn, median of pair ratios: ${r#* }"
    done
}

perf_end() {
    echo "(load average at end $(cut -d' ' -f1-3 /proc/loadavg))"
    if [ "$perf_failed" != 0 ]; then
        echo "perf: some runs failed (see above)"
        exit 1
    fi
    exit 0
}

# perf_sb_persona: BS, bench as `sysbench` (a symlink in build/perfbin to $B): sysbench's
# defaults, and the sysbench persona may use the tables sysbench made (the bench persona
# writes only to tables it created)
# shellcheck disable=SC2034,SC2154 # BS, top and B: the sourcing script's
perf_sb_persona() {
    mkdir -p "$top/build/perfbin" && ln -sf "$B" "$top/build/perfbin/sysbench"
    BS=$top/build/perfbin/sysbench
}

# perf_mib BYTES: "N MiB"
perf_mib() { awk -v b="$1" 'BEGIN { printf "%.0f MiB", b / 1048576 }'; }

# perf_fit_pool SCHEMA TABLE...: the tables analysed, then their data and indexes against the
# buffer pool (a run that reads from disk times the disk, not the client): on the server
# perf_mariadb started, innodb_buffer_pool_size raised to twice the data (128 MiB steps) and
# waited for (the resize may finish in the background); on a given server, said that the runs
# read from disk. One line on stdout; perf_pool is the pool's size after.
perf_fit_pool() {
    _pf_db=$1 _pf_t=""
    shift
    for _pf_x in "$@"; do _pf_t="$_pf_t${_pf_t:+, }$_pf_db.$_pf_x"; done
    perf_sql "ANALYZE TABLE $_pf_t" >/dev/null
    _pf_data=$(perf_sql "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.tables WHERE table_schema = '$_pf_db'")
    perf_pool=$(perf_sql "SELECT @@innodb_buffer_pool_size")
    if [ "$_pf_data" -le $((perf_pool * 3 / 4)) ]; then
        echo "dataset: $(perf_mib "$_pf_data") (data + indexes), fits the buffer pool ($(perf_mib "$perf_pool"))"
    elif [ "$perf_my_own" = 1 ]; then
        _pf_want=$(( (_pf_data * 2 / 134217728 + 1) * 134217728 ))
        perf_sql "SET GLOBAL innodb_buffer_pool_size = $_pf_want"
        _pf_i=0
        until [ "$(perf_sql "SELECT (SELECT variable_value FROM information_schema.global_status
                WHERE variable_name = 'INNODB_BUFFER_POOL_PAGES_TOTAL') * @@innodb_page_size
                >= 0.9 * $_pf_want")" = 1 ]; do
            _pf_i=$((_pf_i + 1))
            [ $_pf_i -lt 300 ] || { perf_fail "could not raise innodb_buffer_pool_size to $(perf_mib "$_pf_want")"; perf_end; }
            sleep 0.1
        done
        echo "dataset: $(perf_mib "$_pf_data") (data + indexes); innodb_buffer_pool_size raised from $(perf_mib "$perf_pool") to $(perf_mib "$_pf_want")"
        perf_pool=$_pf_want
    else
        echo "dataset: $(perf_mib "$_pf_data") does NOT fit this server's buffer pool ($(perf_mib "$perf_pool")): the runs read from disk (raise innodb_buffer_pool_size, or set TABLE_SIZE lower)"
    fi
}

perf_sql() {
    mariadb --no-defaults --skip-ssl -uroot -S "$BENCH_MY_SOCK" -N -B -e "$1"
}

# perf_user NAME GRANT: NAME@127.0.0.1, no password (for a client that sends none: floor.c),
# with GRANT ("SELECT ON db.*"); a NAME that exists there is someone's: said, exit 1. Dropped on
# exit (perf_mariadb's trap), and only that one.
perf_user() {
    if [ "$(perf_sql "SELECT COUNT(*) FROM mysql.user WHERE User = '$1' AND Host = '127.0.0.1'")" != 0 ]; then
        echo "perf: the account '$1'@'127.0.0.1' exists on this server: not ours to use or drop" >&2
        exit 1
    fi
    perf_sql "CREATE USER '$1'@'127.0.0.1' IDENTIFIED BY ''" || exit 1
    perf_my_users="$perf_my_users $1"
    perf_sql "GRANT $2 TO '$1'@'127.0.0.1'"
}

# _perf_my_drop: perf_mariadb's databases dropped, those that exist
_perf_my_drop() {
    for _perf_db in $perf_my_dbs; do
        perf_sql "DROP DATABASE IF EXISTS $_perf_db" || return 1
    done
}

# on exit after perf_mariadb: its databases dropped, its own server stopped, PERF_TMP removed
# shellcheck disable=SC2154 # top: the sourcing script's
_perf_my_end() {
    for _perf_u in $perf_my_users; do
        perf_sql "DROP USER '$_perf_u'@'127.0.0.1'" >/dev/null 2>&1 || true
    done
    [ -z "${BENCH_MY_SOCK:-}" ] || _perf_my_drop >/dev/null 2>&1 || true
    [ "$perf_my_own" = 0 ] || sh "$top/tests/mariadb.sh" stop "$perf_my_dir"
    rm -rf "$PERF_TMP"
}

# shellcheck disable=SC2154 # top: the sourcing script's
perf_mariadb() {
    perf_my_dir=$top/build/$1 _perf_port=$2 _perf_args=$3
    shift 3
    perf_my_dbs=$*
    trap _perf_my_end EXIT
    if [ -z "${BENCH_MY_PORT:-}" ]; then
        perf_my_own=1
        _perf_env=$(BENCH_MDB_ARGS="$_perf_args ${BENCH_MDB_ARGS:-}" \
            sh "$top/tests/mariadb.sh" start "$perf_my_dir" "${MY_PORT:-$_perf_port}") ||
            { echo "perf: the MariaDB server in $perf_my_dir did not start" >&2; exit 1; }
        eval "$_perf_env"
    fi
    _perf_my_drop
}
