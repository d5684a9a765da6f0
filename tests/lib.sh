# tests/lib.sh - the shell suites' one harness. Sourced, first thing, after the suite's name
# (dash's `.` takes no arguments):
#   t_name=NAME; . "$(dirname "$0")/lib.sh"
# It sets here (tests/), top (the checkout), B and BENCH (the binary under test: $BENCH, else
# ./bench), w (a temporary directory of the suite's own, removed at exit), pass=0 fail=0, and
# gives (t_tmp, set before sourcing, is mktemp's template for $w where the path must be short):
#   ok [WHAT]              one check passed (WHAT: said as "NAME: ok: WHAT")
#   bad WHAT...            one check failed: "NAME: FAIL: WHAT" ("NAME: FAIL: T_WHAT: WHAT"
#                          where the suite set t_what: the case), then t_on_fail, if the suite
#                          defines it (the output that explains the failure)
#   check WHAT EXPR        eval EXPR: ok, or bad WHAT
#   t_case NAME FUNCTION   run FUNCTION in a subshell under set -e: ok, or bad NAME and the
#                          last 20 lines it wrote. set -e ignores a failure of any command of
#                          an and-list but its last, and of a `! CMD` not last in FUNCTION:
#                          end such a check with `|| return 1`
#   t_wait SECONDS CMD...  run CMD every 50 ms until it succeeds (0) or SECONDS pass (1): every
#                          wait has a deadline, and none sleeps longer than it must
#   t_summary [PREFIX]     "NAME: [PREFIX]N passed, N failed", and exits 0 only if none failed
# At exit (a signal too: INT and TERM exit, so that dash runs the EXIT trap) t_at_exit runs,
# if the suite defines it (its servers and processes to stop), then $w is removed.
# shellcheck shell=sh disable=SC2034 # the variables are the suites'
t_name=${t_name:?lib.sh: set t_name (the suite name) before sourcing it}
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
B=${BENCH:-$top/bench}
BENCH=$B
pass=0 fail=0 t_what=
w=$(mktemp -d "${t_tmp:-${TMPDIR:-/tmp}/bench-$t_name.XXXXXX}") || { echo "$t_name: no temporary directory"; exit 1; }

t_cleanup() {
    ! command -v t_at_exit >/dev/null 2>&1 || t_at_exit
    rm -rf "$w"
}
trap t_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck disable=SC2120 # WHAT is optional
ok() { pass=$((pass + 1)); [ $# = 0 ] || echo "$t_name: ok: $*"; }
bad() {
    fail=$((fail + 1))
    echo "$t_name: FAIL: ${t_what:+$t_what: }$*"
    ! command -v t_on_fail >/dev/null 2>&1 || t_on_fail
    return 0
}
check() { if eval "$2"; then ok; else bad "$1"; fi; }

t_case() { # t_case NAME FUNCTION
    (set -e; "$2") >"$w/t_case.log" 2>&1
    if [ $? = 0 ]; then ok; else
        fail=$((fail + 1))
        echo "$t_name: FAIL: $1:"
        sed 's/^/    /' "$w/t_case.log" | tail -20
    fi
}

t_wait() { # t_wait SECONDS CMD...
    t_wait_end=$(($(date +%s) + $1)); shift
    until "$@"; do
        [ "$(date +%s)" -lt "$t_wait_end" ] || return 1
        sleep 0.05
    done
}

t_summary() {
    echo "$t_name: ${1:-}$pass passed, $fail failed"
    [ $((pass + fail)) -gt 0 ] || { echo "$t_name: FAIL: no check ran"; exit 1; }
    [ "$fail" = 0 ] && exit 0
    exit 1
}
