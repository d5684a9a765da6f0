# Sourced by tests/run.sh: every suite runs with an empty HOME of its own, so a user's
# ~/.my.cnf ([client] password...), MYSQL_PWD or XDG config cannot change what bench reads
# (its option-file lookup reads HOME and MYSQL_PWD; the mysql clients read MYSQL_HOME too).
# Sets $hermetic (the directory; the caller removes it).
hermetic=$(mktemp -d "${TMPDIR:-/tmp}/bench-home.XXXXXX") || exit 1
export HOME="$hermetic" MYSQL_HOME="$hermetic" XDG_CONFIG_HOME="$hermetic/.config"
unset MYSQL_PWD MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_TEST_LOGIN_FILE MYSQL_GROUP_SUFFIX
