#!/bin/sh
# Hostile command lines, option files and standard descriptors (issues #8.9, #8.11, #18.3-5):
# passwords out of /proc/PID/cmdline, option files read as the mysql client reads them (compared
# with Debian's my_print_defaults on the same files), files that are directories, devices,
# world-writable or full of junk, closed fds 0-2, a report sent to /dev/full or a closed pipe.
# HOME is a scratch directory; nothing outside it is touched; the only socket is a loopback
# listener of its own. Ends with "cli_hostile: N passed, N failed".
set -u
t_name=cli_hostile
. "$(dirname "$0")/lib.sh"
work=$w
lpid=
t_at_exit() { [ -z "$lpid" ] || kill "$lpid" 2>/dev/null; }
export HOME="$work/home"
mkdir -p "$HOME" "$work/f"
unset MYSQL_PWD
t_on_fail() { [ ! -f "$work/err" ] || head -5 "$work/err"; }

# expect NAME RC REGEX CMD...: exit status RC and stdout+stderr matching REGEX (grep -E)
expect() {
    name=$1 rc=$2 re=$3; shift 3
    "$@" >"$work/out" 2>"$work/err"
    got=$?
    if [ "$got" != "$rc" ]; then bad "$name: exit $got, expected $rc"; return; fi
    if ! cat "$work/out" "$work/err" | grep -qE -- "$re"; then bad "$name: no /$re/"; return; fi
    ok
}

# ---- option files: the same values as my_print_defaults ----
# the options bench takes from a file, last one wins: "key=value" lines, sorted
mpd_values() { # FILE
    my_print_defaults --defaults-file="$1" client client-server client-mariadb 2>/dev/null |
        sed -e 's/^--//' -e 's/^loose[-_]//' | awk -F= '
        { k = $1; gsub("_", "-", k); v = substr($0, length($1) + 2)
          if (k ~ /^(host|port|user|socket|database|ssl-mode|ssl-ca|ssl-cert|ssl-key)$/) val[k] = v }
        END { for (k in val) print k "=" val[k] }' | sort
}
bench_values() { # FILE
    "$B" oltp_read_write --defaults-file="$1" --debug help 2>/dev/null | sed -n 's/^DEBUG: [^ ]*: --//p' |
        sed -e 's/^mysql-db=/database=/' -e 's/^mysql-//' -e 's/\\t/	/g' | awk -F= '
        { k = $1; v = substr($0, length($1) + 2); if (k != "password") val[k] = v }
        END { for (k in val) print k "=" val[k] }' | sort
}
cmp_mpd() { # NAME FILE
    mpd_values "$2" >"$work/mpd"
    bench_values "$2" >"$work/ours"
    if [ ! -s "$work/mpd" ]; then bad "$1: my_print_defaults gave nothing"; return; fi
    if cmp -s "$work/mpd" "$work/ours"; then ok; else
        bad "$1: values differ (my_print_defaults vs bench)"; diff "$work/mpd" "$work/ours" | head; fi
}
if command -v my_print_defaults >/dev/null 2>&1; then
    c=$work/cnf && mkdir -p "$c/d"
    long=$(head -c 5000 /dev/zero | tr '\0' x)
    printf '[client]\n# %suser=evil\nhost = 127.0.0.1 # the test server\nport = 1 # comment\n' "$long" >"$c/comment.cnf"
    cmp_mpd long-comment-inline "$c/comment.cnf"
    printf '[client]\nuser = "a#b\\"c\\\\d" # q\ndatabase='"'"'x y'"'"'\nsocket=s\\sp\\tq\nssl_ca = /ca.pem\nloose-ssl-key=/k\n' >"$c/quotes.cnf"
    cmp_mpd quotes-escapes "$c/quotes.cnf"
    printf '[mysql]\nuser=m\n[ client-server ]\nuser=cs\n[CLIENT]\nhost=127.0.0.2\n[client-mariadb]\nport=3\n[other]\nport=9\n; c\n' >"$c/groups.cnf"
    cmp_mpd groups "$c/groups.cnf"
    printf '[client]\nuser=d1\n' >"$c/d/b.cnf"; printf '[client]\nuser=d0\nhost=127.0.0.3\n' >"$c/d/a.cnf"
    printf '[client]\nuser=nope\n' >"$c/d/c.conf"; printf '[client]\nsocket=/inc\n' >"$c/inc.cnf"
    printf '[client]\nuser=top\n!includedir %s/d\n!include %s/missing.cnf\n!include %s/inc.cnf\nport=7\n' "$c" "$c" "$c" >"$c/top.cnf"
    cmp_mpd includes "$c/top.cnf"
    i=0; : >"$c/many.cnf"; echo '[client]' >>"$c/many.cnf"
    while [ $i -lt 1500 ]; do echo "port=$i" >>"$c/many.cnf"; i=$((i + 1)); done
    cmp_mpd 1500-entries "$c/many.cnf"
    i=0; while [ $i -lt 12 ]; do printf '[client]\nport=%d\n!include %s/deep%d.cnf\n' $i "$c" $((i + 1)) >"$c/deep$i.cnf"; i=$((i + 1)); done
    cmp_mpd include-depth "$c/deep0.cnf"
    chmod 600 "$c"/*.cnf "$c"/d/*
else
    bad "my_print_defaults is not installed (apt-get install mariadb-client)"
fi

# ---- option files: refused, ignored, errors that name the file and line ----
expect config-dir 3 "cannot read config file '$work': it is a directory" \
    "$B" --config-file="$work" cpu run
expect config-devzero 3 "not a regular file" timeout 10 "$B" --config-file=/dev/zero cpu run
expect defaults-devzero 3 "not a regular file" timeout 10 "$B" ping --defaults-file=/dev/zero
expect defaults-dir 3 "cannot read option file '$work': it is a directory" \
    "$B" ping --defaults-file="$work"
printf '[client]\nport = 1x # comment\n' >"$work/badport.cnf"
expect port-file-line 2 "badport.cnf:2: port: invalid value '1x'" "$B" ping --defaults-file="$work/badport.cnf"
# the client's --protocol: a value missing (the last word, or an option after it), a value
# it does not take (as typed), the same in an option file (its FILE:LINE)
expect protocol-last 2 "^bench: --protocol: no value \(the mysql client's --protocol takes TCP or SOCKET\)$" "$B" ping --no-defaults --protocol
expect protocol-option 2 "^bench: --protocol: no value" "$B" ping --no-defaults --protocol -P 1
expect protocol-pipe 2 "^bench: --mysql-protocol: invalid value 'PIPE' \(expected one of \{auto,tcp,socket\}\)$" "$B" ping --no-defaults --protocol=PIPE
printf '[client]\nprotocol=memory\n' >"$work/badproto.cnf"
expect protocol-file-line 2 "badproto.cnf:2: .*--mysql-protocol.*'memory'" "$B" ping --defaults-file="$work/badproto.cnf"
printf '[client]\nhost=127.0.0.9\nport=1\n' >"$HOME/.my.cnf"
chmod 666 "$HOME/.my.cnf"
expect world-writable 0 "World-writable config file '$HOME/.my.cnf' is ignored" \
    "$B" oltp_read_write --debug help
if grep -q '^DEBUG:.*127.0.0.9' "$work/out"; then bad "world-writable: its options were read"; else ok; fi
rm -f "$HOME/.my.cnf"
printf 'threads=1\n\033[31mjunk\001=1\n' >"$work/junk.cfg"
expect config-junk-escaped 2 "junk.cfg:2: unknown option '--.x1b\\[31mjunk.x01'" \
    "$B" --config-file="$work/junk.cfg" cpu run
if grep -q "$(printf '\033')" "$work/err"; then bad "config-junk: a raw ESC byte reached stderr"; else ok; fi
# a config file that names another one: that one was silently not read
printf 'threads = 1\nconfig-file = %s/junk.cfg\n' "$work" >"$work/nested.cfg"
expect config-nested 2 "nested.cfg:2: config-file: a config file cannot name another one" \
    "$B" --config-file="$work/nested.cfg" cpu --events=1 --time=0 run
# names an option file gives (!includedir, a file found there) are escaped in messages too
mkdir -p "$work/inc"
printf '[client]\nport=x\n' >"$work/inc/$(printf 'e\033[31m').cnf"
printf '[client]\n!includedir %s\n' "$work/inc" >"$work/incdir.cnf"
expect include-name-escaped 2 "e.x1b\\[31m\.cnf:2: port: invalid value 'x'" \
    "$B" ping --defaults-file="$work/incdir.cnf"
if grep -q "$(printf '\033')" "$work/err"; then bad "include-name: a raw ESC byte reached stderr"; else ok; fi
printf '[client]\n!includedir %s/no\033[31m\n' "$work" >"$work/nodir.cnf"
expect includedir-escaped 3 "cannot read !includedir '.*/no.x1b\\[31m'" \
    "$B" ping --defaults-file="$work/nodir.cnf"
if grep -q "$(printf '\033')" "$work/err"; then bad "includedir: a raw ESC byte reached stderr"; else ok; fi
i=0; : >"$work/many.cfg"
while [ $i -lt 1500 ]; do echo "cpu-max-prime = $((1000 + i))" >>"$work/many.cfg"; i=$((i + 1)); done
printf '# %s cpu-max-prime=5\n' "$long" >>"$work/many.cfg"
expect config-1500-entries 0 "Prime numbers limit: 2499" \
    "$B" --config-file="$work/many.cfg" cpu --events=1 --time=0 run

# ---- secrets: out of /proc/PID/cmdline during a run; a mistyped option shows its name only ----
# (a port the kernel picks: a fixed one may be someone else's)
python3 -c '
import os, socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1] + ".tmp", "w").write("%d\n" % s.getsockname()[1])
os.rename(sys.argv[1] + ".tmp", sys.argv[1])   # listening, on that port
conns = []
while True:
    c, _ = s.accept(); conns.append(c)   # accept and never answer
' "$work/listening" &
lpid=$!
t_wait 30 test -s "$work/listening" || :
port=$(cat "$work/listening")
for pw in "-pSEKRET1" "--password=SEKRET1" "--mysql-password=SEKRET1"; do
    "$B" ping --no-defaults -h 127.0.0.1 -P $port -u u "$pw" --mysql-connect-timeout=4 >/dev/null 2>&1 &
    bp=$!
    sleep 1
    cmd=$(tr '\0' ' ' <"/proc/$bp/cmdline" 2>/dev/null)
    wait $bp
    case "$cmd" in
    *SEKRET1*) bad "cmdline $pw: the password is visible: $cmd" ;;
    *ping*xxxxxxx*) ok ;;
    *) bad "cmdline $pw: unexpected: $cmd" ;;
    esac
done
expect mistyped-option 2 "unknown option '--mysql-pasword' \\(did you mean '--mysql-password'\\?\\)" \
    "$B" cpu --mysql-pasword=TOPSECRET run
if grep -q TOPSECRET "$work/out" "$work/err"; then bad "mistyped-option: value echoed"; else ok; fi
# -p at a terminal (a pty): a password longer than the buffer is refused, not cut; SIGINT at
# the prompt ends bench (it went on and connected with what was typed); no terminal: exit 2
# (the sysbench persona's errors exit 1, docs/cli.md)
tty_prompt() { # MODE (long: type 300 bytes; int: SIGINT at the prompt)
    timeout 20 python3 -c '
import os, pty, signal, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "ping", "-p", "--mysql-port=1", "--mysql-host=127.0.0.1"])
out, t0 = b"", time.time()
while b"password: " not in out and time.time() - t0 < 10:
    out += os.read(fd, 1024)
if sys.argv[2] == "long":
    os.write(fd, b"x" * 300 + b"\n")
else:
    os.kill(pid, signal.SIGINT)
while True:
    try:
        d = os.read(fd, 1024)
    except OSError:
        break
    if not d:
        break
    out += d
sys.stderr.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
' "$B" "$1"
}
expect prompt-long 2 "-p: the password typed is longer than 255 bytes" tty_prompt long
expect prompt-sigint 1 "-p: asking for the password: interrupted by SIGINT" tty_prompt int
expect prompt-no-tty 2 "-p: cannot ask for the password: no terminal" setsid "$B" ping -p
ln -sf "$B" "$work/sysbench"
expect prompt-no-tty-sysbench 1 "FATAL: -p: cannot ask for the password: no terminal" \
    setsid "$work/sysbench" oltp_read_only run -p
# "--mysql-password SECRET" (a space, not '='): the next word is not echoed as a test/command
expect password-space 2 "--mysql-password: no value attached; the argument after it is not shown" \
    "$B" ping --mysql-password TOPSECRET2 --mysql-port=1
if grep -q TOPSECRET2 "$work/out" "$work/err"; then bad "password-space: value echoed"; else ok; fi
# the same for PostgreSQL's password and URL (the URL may hold the password)
for o in --pgsql-password --pgsql_password; do
    expect "password-space$o" 2 "$o: no value attached; the argument after it is not shown" \
        "$B" ping $o TOPSECRET3 --pgsql-port=1
    if grep -q TOPSECRET3 "$work/out" "$work/err"; then bad "password-space$o: value echoed"; else ok; fi
done
for o in --pgsql-url --pgsql_url; do
    expect "url-space$o" 2 "$o: no value attached; the argument after it is not shown \(it may hold the password\)" \
        "$B" ping $o postgres://u:TOPSECRET4@127.0.0.1:1/d
    if grep -q TOPSECRET4 "$work/out" "$work/err"; then bad "url-space$o: value echoed"; else ok; fi
done

# ---- closed standard descriptors: the report must not land in a test file ----
F1="--file-num=1 --file-total-size=16K"
(cd "$work/f" && "$B" fileio $F1 --validate prepare >&- 2>"$work/err")
rc=$?
size=$(stat -c %s "$work/f/test_file.0" 2>/dev/null || echo none)
if [ $rc = 0 ] && [ "$size" = 16384 ] && ! grep -aq 'bench\|Creating\|written' "$work/f/test_file.0"; then ok
else bad "fileio prepare >&-: exit $rc, test_file.0 size $size"; fi
(cd "$work/f" && "$B" fileio $F1 --file-test-mode=seqrd --events=5 --time=0 run >&- 2>"$work/err")
rc=$?
if [ $rc = 0 ] && ! grep -aq 'Threads started\|total time' "$work/f/test_file.0"; then ok
else bad "fileio run >&-: exit $rc, report lines in test_file.0: $(grep -ac 'Threads started\|total time' "$work/f/test_file.0")"; fi
expect fileio-validate-after 0 "total number of events: +20" \
    sh -c "cd '$work/f' && '$B' fileio $F1 --file-test-mode=seqrd --validate --events=20 --time=0 run"
(cd "$work/f" && "$B" fileio $F1 cleanup >/dev/null)
(cd "$work/f" && "$B" fileio --file-num=1 --file-total-size=16K prepare <&- 2>&- >"$work/out")
if [ $? = 0 ] && grep -q 'Creating file test_file.0' "$work/out" && [ "$(stat -c %s "$work/f/test_file.0")" = 16384 ]; then ok
else bad "fileio prepare <&- 2>&-"; fi
(cd "$work/f" && "$B" fileio --file-num=1 --file-total-size=16K cleanup >/dev/null)

# an OLTP run with stdout closed: the report must not go into the MySQL socket (ERROR 1156)
if [ -n "${BENCH_MY_PORT:-}" ]; then
    DB="--no-defaults -h ${BENCH_MY_HOST:-127.0.0.1} -P $BENCH_MY_PORT -u nat -psecret -D benchtest --tables=1 --table-size=20"
    # shellcheck disable=SC2086
    "$B" oltp_point_select $DB prepare >/dev/null 2>&1
    # shellcheck disable=SC2086
    "$B" oltp_point_select $DB --events=20 --time=0 run >&- 2>"$work/err"; rc=$?
    if [ $rc = 0 ] && ! grep -q 'ERROR\|FATAL\|bench:' "$work/err"; then ok; else bad "oltp run >&-: exit $rc"; fi
    # shellcheck disable=SC2086
    "$B" oltp_point_select $DB cleanup >/dev/null 2>&1
else
    echo "cli_hostile: note: no BENCH_MY_PORT (tests/run.sh starts MariaDB): oltp run >&- not checked"
fi

# ---- a report that cannot be written ----
[ -w /dev/full ] && {
    "$B" cpu --events=10 --time=0 run >/dev/full 2>"$work/err"; rc=$?
    if [ $rc = 1 ] && grep -q 'ENOSPC' "$work/err"; then ok; else bad "devfull: exit $rc"; fi
    ln -sf "$B" "$work/sysbench"
    "$work/sysbench" cpu --events=10 --time=0 run >/dev/full 2>"$work/err"; rc=$?
    if [ $rc = 1 ] && grep -q '^FATAL: cannot write the report' "$work/err"; then ok; else bad "devfull sysbench: exit $rc"; fi
    # text with --output=FILE: the message names the file, not standard output
    "$B" cpu --events=10 --time=0 --output=/dev/full run 2>"$work/err"; rc=$?
    if [ $rc = 1 ] && [ "$(cat "$work/err")" = "bench: cannot write the report to --output=/dev/full: No space left on device (ENOSPC)" ]; then ok; else bad "--output=/dev/full: exit $rc: $(cat "$work/err")"; fi
}
t0=$(date +%s)
{ "$B" cpu --time=60 run; echo $? >"$work/rc"; } 2>"$work/err" | true
t1=$(date +%s)
if [ "$(cat "$work/rc")" = 1 ] && [ $((t1 - t0)) -le 5 ] && grep -q 'EPIPE' "$work/err"; then ok
else bad "closed pipe: exit $(cat "$work/rc") after $((t1 - t0)) s"; fi
{ "$B" cpu --time=60 --report-interval=1 run; echo $? >"$work/rc"; } 2>"$work/err" | head -2 >/dev/null
if [ "$(cat "$work/rc")" = 1 ] && grep -q 'EPIPE' "$work/err"; then ok; else bad "pipe closed by head: exit $(cat "$work/rc")"; fi

# ---- --no-defaults anywhere among the options, with --event-loops (issue 13): right after
# the test name, after the connection options, before the test name; a ~/.my.cnf that would
# send the login elsewhere is not read, and --event-loops is never an unknown option ----
fp=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '[client]\nhost=192.0.2.1\nport=1\n' >"$HOME/.my.cnf"
for args in "oltp_point_select --no-defaults --event-loops=2 -h 127.0.0.1 -P $fp" \
    "oltp_point_select --event-loops=2 -h 127.0.0.1 -P $fp --no-defaults" \
    "oltp_point_select --no-defaults -h 127.0.0.1 --event-loops=2 -P $fp" \
    "--no-defaults oltp_point_select --event-loops=2 -h 127.0.0.1 -P $fp"; do
    # shellcheck disable=SC2086
    "$B" $args -u u -px --mysql-connect-timeout=2 --time=1 run >"$work/out" 2>"$work/err"; rc=$?
    if [ $rc = 3 ] && grep -qxF "bench: oltp_point_select: connecting to 127.0.0.1:$fp failed: Connection refused (ECONNREFUSED)" "$work/err" &&
        ! grep -q 'unknown option' "$work/err"; then ok; else bad "--no-defaults: $args: exit $rc"; fi
done
rm -f "$HOME/.my.cnf"

t_summary
