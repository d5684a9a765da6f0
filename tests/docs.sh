#!/bin/sh
# Docs move with code: every option that bench's help lists (generated from the option
# tables) is documented in docs/cli.md and docs/bench.1, and every option docs/cli.md
# documents exists. Also every test name, and tests/README.md's index of tests/.
set -u
t_name=docs
. "$(dirname "$0")/lib.sh"
b=$B
md=$top/docs/cli.md man=$top/docs/bench.1
tests=$("$b" --help | sed -n '/^Compiled-in tests:/,/^$/s/^  \([a-z_]*\) - .*/\1/p')
[ -n "$tests" ] || { echo "docs: no tests found in bench --help"; exit 1; }
opts=$( { "$b" --help; for t in $tests; do "$b" "$t" help; done; } |
        sed -n 's/^  --\([a-z0-9_-]*\).*/\1/p' | tr _ - | sort -u)
[ "$(echo "$opts" | wc -l)" -gt 20 ] || { echo "docs: too few options parsed"; exit 1; }
for o in $opts; do
    grep -q -- "--$o\b" "$md" || { bad "--$o is not in docs/cli.md"; }
    m=$(printf '%s' "$o" | sed 's/-/\\\\-/g')  # roff writes each dash as \-
    grep -q -- "\\\\-\\\\-$m\b" "$man" || { bad "--$o is not in docs/bench.1"; }
done
for t in $tests; do
    grep -q "^### \`$t\`" "$md" || { bad "test '$t' has no section in docs/cli.md"; }
    grep -q "^\.B $t\$" "$man" || { bad "test '$t' is not in docs/bench.1"; }
done
# the reverse: options in docs/cli.md tables that bench does not have
for o in $(sed -n 's/^| `--\([a-z0-9-]*\).*/\1/p' "$md" | sort -u); do
    echo "$opts" | grep -qx -- "$o" || { bad "docs/cli.md documents --$o, which bench does not list"; }
done
# every exit status of docs/cli.md's table is in the man page's EXIT STATUS
for st in $(sed -n '/^## Exit status/,/^## /s/^| \([0-9][0-9, ]*\) |.*/\1/p' "$md" | tr -d ,); do
    sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man" | grep -qw "$st" ||
        { bad "exit status $st of docs/cli.md is not in docs/bench.1"; }
done
# bench all: every measure of its table (what --expect takes) is in docs/cli.md's list, and
# its checks are docs/cli.md's "Checks" table, id for id, both ways
all=$(sed -n '/^### `all`/,/^### `merge`/p' "$md")
ms=$("$b" all --list=measures)
[ "$(echo "$ms" | wc -l)" -gt 50 ] || { bad "bench all --list=measures lists too few"; }
for m in $ms; do
    printf '%s\n' "$all" | grep -qF -- "\`$m\`" || { bad "bench all's measure $m is not in docs/cli.md"; }
done
ck=$("$b" all --list=checks | cut -d' ' -f1 | sort)
dk=$(printf '%s\n' "$all" | sed -n '/^#### Checks/,/^#/s/^| `\([a-z_]*\)` | `.*/\1/p' | sort)
[ -n "$ck" ] && [ "$ck" = "$dk" ] || { bad "bench all's checks ($(echo $ck)) differ from docs/cli.md's Checks table ($(echo $dk))"; }
# tests/README.md indexes every entry of tests/ under "## Files" (built binaries, names
# without a dot, aside) and every suite of tests/run.sh under "## Suites", and nothing else
idx=$top/tests/README.md
rows() { sed -n "/^## $1/,/^## /s/^| \`\([^\`]*\)\` |.*/\1/p" "$idx"; }
have=$(cd "$top/tests" && for f in *; do
    if [ -d "$f" ]; then echo "$f/"; else case $f in *.*) echo "$f" ;; esac; fi
done)
suites=$(sed -nE 's/^[[:space:]]*([A-Z_]+="[^"]*"[[:space:]]+)?suite ([a-z][a-z0-9-]*) .*/\2/p' "$top/tests/run.sh")
idx_check() { # WHAT THERE INDEXED: each of THERE indexed, each of INDEXED there
    for x in $2; do printf '%s\n' "$3" | grep -qxF -- "$x" || { bad "$1 $x is not in tests/README.md"; }; done
    for x in $3; do printf '%s\n' "$2" | grep -qxF -- "$x" || { bad "tests/README.md indexes $1 $x, which does not exist"; }; done
}
[ -n "$have" ] && [ -n "$suites" ] || { bad "found no files in tests/ or no suites in tests/run.sh"; }
idx_check "the file" "$have" "$(rows Files)"
idx_check "the suite" "$suites" "$(rows Suites)"
[ $fail = 0 ] && echo "docs: $(echo "$opts" | wc -l) options and $(echo $tests | wc -w) tests documented; tests/README.md indexes $(echo $have | wc -w) files and $(echo $suites | wc -w) suites"
[ $fail = 0 ]
