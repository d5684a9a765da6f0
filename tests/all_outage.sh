#!/bin/sh
# bench all's outage (issue 34): the suite's MariaDB behind tests/cutproxy.py (its failover to
# the same server: every piped connection cut at once, new ones go through); cut while the
# OLTP ladder runs, the page says so in one line (the longest outage, the clients affected,
# errors by class: lost at least one) and the HTML has the line (id="outage") and the
# timeline (id="outage-timeline": a bar per window, each a client's); tests/all.sh checks that
# a clean run shows neither. No sleep synchronises anything: each step waits on state.
set -u
t_name=all-outage
. "$(dirname "$0")/lib.sh"
[ -n "${BENCH_MY_PORT:-}" ] || { bad "no database: run it with the suite's MariaDB (BENCH_MY_PORT)"; t_summary; }
M="mariadb --no-defaults -h 127.0.0.1 -P $BENCH_MY_PORT -u nat -psecret -N -B"
t_at_exit() { [ ! -s "$w/proxy.pid" ] || kill "$(cat "$w/proxy.pid")" 2>/dev/null; }
python3 "$top/tests/cutproxy.py" 0 "$BENCH_MY_PORT" "$BENCH_MY_PORT" >"$w/proxy.out" 2>&1 &
echo $! >"$w/proxy.pid"
t_wait 5 grep -q ready "$w/proxy.out" || { bad "the proxy did not start"; t_summary; }
px=$(sed -n 's/^ready //p' "$w/proxy.out")
stat() { $M -e "SHOW GLOBAL STATUS LIKE '$1'" | cut -f2; }
give_up() { bad "$1"; kill "$bpid" 2>/dev/null; wait "$bpid"; sed 's/^/    /' "$w/page.err" "$w/page" | tail -20; t_summary; }
mkdir "$w/d"
"$B" all --quick --dir="$w/d" --no-defaults -h 127.0.0.1 -P "$px" -u nat -psecret -D bench_all_cut \
    --html="$w/r.html" >"$w/page" 2>"$w/page.err" &
bpid=$!
# the ladder's tables loaded, then its rungs' statements under way, its clients connected
t_wait 60 sh -c "[ \"\$($M -e 'SELECT COUNT(*) FROM bench_all_cut.sbtest2' 2>/dev/null || echo 0)\" -ge 2000 ]" || give_up "the ladder's tables were not loaded"
# (prepared statements: the rungs', not the load's text INSERTs; their connections in the schema)
s0=$(stat Com_stmt_execute)
t_wait 30 sh -c "[ \"\$($M -e \"SHOW GLOBAL STATUS LIKE 'Com_stmt_execute'\" | cut -f2)\" -gt $((s0 + 300)) ] && [ \"\$($M -e \"SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = 'bench_all_cut'\")\" -ge 1 ]" || give_up "the ladder did not run"
kill -USR2 "$(cat "$w/proxy.pid")"
t_wait 10 grep -q switched "$w/proxy.out" || give_up "the proxy did not cut"
wait "$bpid"
echo "all-outage: $(grep OUTAGE "$w/page")"
check "the page: bench all ended with a page" 'grep -q "^DATABASE " "$w/page" || { cat "$w/page.err"; false; }'
check "the page: one OUTAGE line with the longest, the clients, errors lost >= 1" \
    '[ "$(grep -c "OUTAGE" "$w/page")" = 1 ] && grep -Eq "^ +OUTAGE in the ladder: longest [0-9.]+ s, [1-9][0-9]* of [1-9][0-9]* clients; errors: lost [1-9]" "$w/page"'
check "the page: still <= 60 lines ($(wc -l <"$w/page"))" '[ "$(wc -l <"$w/page")" -le 60 ]'
check "the HTML: the outage line" 'grep -q "<p id=\"outage\" class=\"WARN\">Outage in the OLTP ladder: longest [0-9.]* s, [1-9][0-9]* of [1-9][0-9]* clients.*errors: lost [1-9]" "$w/r.html"'
# the timeline: as many bars as windows (db.outage_windows, the page's clients at least)
nb=$(grep -o '<div id="outage-timeline">.*</div>' "$w/r.html" | grep -o '<rect class="b"' | wc -l)
nc=$(sed -n 's/.*OUTAGE in the ladder: longest [0-9.]* s, \([0-9]*\) of.*/\1/p' "$w/page")
check "the HTML: the timeline, a bar per window ($nb), at least one per client affected (${nc:-?})" '[ "$nb" -ge "${nc:-1}" ] && [ "${nc:-0}" -ge 1 ]'
# as Chromium renders it (tests/html_check.py, as tests/all.sh): 6 charts (the timeline, each
# drawn with data pixels), every section
if command -v chromium >/dev/null 2>&1; then
    mkdir -p "$w/chome"
    CH="env HOME=$w/chome XDG_CONFIG_HOME=$w/chome/.config XDG_CACHE_HOME=$w/chome/.cache timeout 180 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=$w/chr --force-device-scale-factor=0.5 --window-size=1000,6500"
    $CH --dump-dom "file://$w/r.html" >"$w/r.dom" 2>"$w/c.err"
    $CH --screenshot="$w/r.png" "file://$w/r.html" >"$w/c.err" 2>&1
    if python3 "$top/tests/html_check.py" "$w/r.html" "$w/r.dom" "$w/r.png" 6 Summary Verdicts Settings Host CPU Memory Scheduler Disk Database >"$w/hc" 2>&1; then ok; else bad "chromium: $(cat "$w/hc")"; fi
elif [ -n "${CI:-}" ]; then
    bad "chromium is not installed: CI must render the HTML (tests/setup.sh installs it)"
else
    echo "all-outage: SKIP: chromium is not installed: the HTML not rendered"
fi
check "the ladder's schema dropped after" '[ -z "$($M -e "SHOW DATABASES" | grep -x bench_all_cut)" ] || { grep -i "note\\|schema" "$w/page"; false; }'
t_summary
