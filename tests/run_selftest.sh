#!/bin/sh
# Self-test of tests/run.sh's background lanes (bg, bg_wait, lanes_kill_all), seconds long:
# fake lanes, one passing, one failing, one hanging past a short LANE_LIMIT (killed, its log
# shown, counted FAILED), then a run killed by SIGINT and one by SIGTERM while two hanging lanes
# run: no process of a lane may be left, nor a lane's HOME. And tests/mariadb.sh: a stale pid
# file naming another process has nothing killed.
# --inner: the killed run (sourced functions, traps as in run.sh, two hanging lanes).
set -u
me=$(cd "$(dirname "$0")" && pwd)/run_selftest.sh
lib=${RUN_SH_LIB:-} # set: a lane's sh sources this file for the lanes' functions
RUN_SH_LIB=1
# shellcheck source=tests/run.sh
. "$(dirname "$me")/run.sh"
unset RUN_SH_LIB
lane_src=$me
lane_ok() { suite fake-ok true; }
lane_bad() { suite fake-bad sh -c 'echo "fake-bad: its own words"; exit 3'; }
# a child and a grandchild (sleep in the background of sh) that must die with the lane
lane_hang() { # a suite that fails, then one that hangs: the first one's failure must count
    suite fake-early sh -c 'echo "fake-early: failed early"; exit 4'
    suite fake-hang sh -c 'echo "fake-hang: before the hang"; sleep 3001 & sleep 3002; wait'
}
# shellcheck disable=SC2317
[ -z "$lib" ] || return 0

gone() { # gone PGID: its process group is empty within 5 s
    i=0
    while lane_alive "$1"; do
        [ $i -lt 25 ] || { echo "selftest: process group $1 is still alive:"; ps -o pid,pgid,stat,args -s "$1"; return 1; }
        sleep 0.2; i=$((i + 1))
    done
}

if [ "${1:-}" = --inner-suite ]; then # a main-line suite stopped by a signal: its output so far
    lanes=$2
    trap 'suite_interrupted; rm -rf "$hermetic"' EXIT
    trap 'exit 143' TERM
    suite fake-main sh -c 'echo "fake-main: its words so far"; sleep 3004'
    exit 0
fi
if [ "${1:-}" = --inner ]; then
    lanes=$2
    trap 'lanes_kill_all; rm -rf "$hermetic"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    bg h1 lane_hang
    bg h2 lane_hang
    bg_wait h1
    exit 0
fi

lanes=$(mktemp -d "${TMPDIR:-/tmp}/bench-lanes.XXXXXX") || exit 1
export RUN_LANES="$lanes"
trap 'lanes_kill_all; rm -rf "$lanes" "$hermetic"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
bad=0
no() { echo "selftest: $*"; bad=$((bad + 1)); }

# 1. pass, fail, hang (LANE_LIMIT=2): 1 passed, 2 failed, the logs shown
pass=0 fail=0 skip=0
bg ok lane_ok
bg bad lane_bad
bg hang lane_hang
until [ -s "$lanes/hang.pgid" ] && [ -s "$lanes/hang.home" ]; do sleep 0.1; done
hpg=$(cat "$lanes/hang.pgid") hhome=$(cat "$lanes/hang.home")
{ [ "$hhome" != "$hermetic" ] && [ -d "$hhome" ]; } || no "the hanging lane has no HOME of its own ($hhome)"
# the hanging lane ran its first suite and began the second (bg's start time is in whole
# seconds: the limit may leave it anything from 1 to 2 s, too little on a loaded host)
i=0; until grep -q "before the hang" "$lanes/suites/fake-hang.log" 2>/dev/null || [ $i -ge 200 ]; do sleep 0.1; i=$((i + 1)); done
# (not in $(...): a subshell cannot wait for, nor reap, the lanes)
LANE_LIMIT=2 bg_wait hang >"$lanes/out" 2>&1
bg_wait bad >>"$lanes/out" 2>&1
bg_wait ok >>"$lanes/out" 2>&1
failed_summary >>"$lanes/out" 2>&1
out="$(cat "$lanes/out")
counts $pass $fail $skip"
printf '%s\n' "$out" | sed 's/^/    /'
case $out in *"== fake-hang"*"fake-hang: before the hang"*"== lane hang: FAILED (timed out: killed after LANE_LIMIT=2 s)"*) ;;
*) no "the hanging lane's log (its suite's words so far) and its timeout are not shown" ;; esac
# the summary at the end names each failed suite with its words (CI shows the run's last lines)
case $out in *"run: FAILED lane-hang ("*"    fake-hang: before the hang"*"run: FAILED fake-bad ("*"    fake-bad: its own words"*"counts"*) ;;
*) no "the summary does not name the failed suites with their words" ;; esac
case $out in *"FAILED fake-ok"* | *"FAILED ok"*) no "the summary names a passing suite" ;; esac
case $out in *"fake-bad: its own words"*"== fake-bad: FAILED (exit 3)"*) ;;
*) no "the failing lane's log is not shown" ;; esac
case $out in *"== fake-ok: ok"*) ;; *) no "the passing lane's log is not shown" ;; esac
case $out in *"counts 1 3 0") ;; *) no "counts: want 1 passed, 3 failed (one of them before the hang), 0 skipped" ;; esac
case $out in *"run: FAILED fake-early ("*"    fake-early: failed early"*) ;; *) no "the timed-out lane's earlier failure is not in the summary" ;; esac
gone "$hpg" || no "the timed-out lane's processes are left"
[ ! -e "$hhome" ] || no "the timed-out lane's HOME is left: $hhome"
ls "$lanes"/*.pid >/dev/null 2>&1 && no "pid files left: $(ls "$lanes")"

# 1b. a main-line suite stopped by TERM: the EXIT trap shows what it had written
setsid sh "$me" --inner-suite "$lanes" >"$lanes/isuite.out" 2>&1 &
ip=$!
i=0; until grep -q "its words so far" "$lanes/suites/fake-main.log" 2>/dev/null || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM -"$ip" 2>/dev/null; wait "$ip"
case $(cat "$lanes/isuite.out") in *"== fake-main: interrupted; its output so far:"*"fake-main: its words so far"*) ;;
*) no "a main-line suite stopped by TERM: its output is not shown"; cat "$lanes/isuite.out" ;; esac
gone "$ip" || no "the stopped suite's processes are left"

# 2. the run killed by INT (as Ctrl-C: env resets the ignored SIGINT of a background job), then
# by TERM: it exits 130/143 and leaves no lane process nor HOME
for sig in INT TERM; do
    rm -rf "${lanes:?}"/*
    env --default-signal=INT sh "$me" --inner "$lanes" >"$lanes/inner.out" 2>&1 &
    inner=$!
    i=0
    until [ -s "$lanes/h1.pgid" ] && [ -s "$lanes/h2.pgid" ] && [ -s "$lanes/h1.home" ] && [ -s "$lanes/h2.home" ]; do
        [ $i -lt 100 ] || { no "$sig: the lanes did not start"; break; }
        sleep 0.1; i=$((i + 1))
    done
    sleep 0.3
    g1=$(cat "$lanes/h1.pgid") g2=$(cat "$lanes/h2.pgid") d1=$(cat "$lanes/h1.home") d2=$(cat "$lanes/h2.home")
    { lane_alive "$g1" && lane_alive "$g2"; } || no "$sig: the lanes are not running"
    kill -"$sig" "$inner"
    wait "$inner"; rc=$?
    want=130; [ $sig = TERM ] && want=143
    [ $rc = $want ] || { no "$sig: the run exited $rc, want $want"; cat "$lanes/inner.out"; }
    gone "$g1" || no "$sig: lane h1's processes are left"
    gone "$g2" || no "$sig: lane h2's processes are left"
    { [ ! -e "$d1" ] && [ ! -e "$d2" ]; } || no "$sig: a lane's HOME is left"
    kill -KILL -"$g1" -"$g2" 2>/dev/null; rm -rf "$d1" "$d2" # what a failure left
done
# 4. tests/mariadb.sh never kills what a stale pid file names when it is not its DIR's server
# (pids are reused; the suites' servers run as the same user): stop, and a start whose install
# fails (a mariadb-install-db that exits 1: no server started), leave the process alive
# (the fake outside DIR: start's rm -rf DIR would take it away and run the real one)
v=$lanes/mdb-victim fake=$lanes/fakebin
mkdir -p "$v" "$fake" && printf '#!/bin/sh\nexit 1\n' >"$fake/mariadb-install-db" && chmod +x "$fake/mariadb-install-db"
sleep 3003 & victim=$!
echo "$victim" >"$v/pid"
sh "$(dirname "$me")/mariadb.sh" stop "$v" >/dev/null 2>&1
kill -0 "$victim" 2>/dev/null || no "mariadb.sh stop killed pid $victim, not a server of $v"
echo "$victim" >"$v/pid"
PATH=$fake:$PATH sh "$(dirname "$me")/mariadb.sh" start "$v" 3 >/dev/null 2>&1 &&
    no "mariadb.sh start succeeded with a mariadb-install-db that fails"
kill -0 "$victim" 2>/dev/null || no "mariadb.sh start killed pid $victim, not a server of $v"
! pgrep -f -- "--datadir=$v/data" >/dev/null || { no "a server was started on $v"; pkill -f -- "--datadir=$v/data"; }
kill "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
[ $bad = 0 ] && echo "selftest: lanes ok (pass/fail/timeout counted and shown; INT, TERM leave no lane behind); mariadb.sh kills no stranger"
[ $bad = 0 ]
