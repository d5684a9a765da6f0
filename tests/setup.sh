#!/bin/sh
# Install what the test suite needs on a fresh Debian 12 machine (as root); elsewhere, say
# what is missing. The peers (sysbench) are references for the compatibility test.
set -u
need=""
command -v cram3 >/dev/null 2>&1 || need="$need python3-cram"
[ -x /usr/bin/sysbench ] || need="$need sysbench"
command -v fio >/dev/null 2>&1 || need="$need fio"
command -v stress-ng >/dev/null 2>&1 || need="$need stress-ng"  # tests/all.sh: a busy host said busy
command -v readelf >/dev/null 2>&1 || need="$need binutils"
[ -x /usr/sbin/mariadbd ] || need="$need mariadb-server"
command -v mariadb >/dev/null 2>&1 || need="$need mariadb-client"
command -v openssl >/dev/null 2>&1 || need="$need openssl"
[ -x /usr/lib/postgresql/15/bin/initdb ] || need="$need postgresql-15"  # tests/pgsql.sh: its own server (tests/postgres.sh)
[ -x /usr/bin/time ] || need="$need time"           # GNU time: peak memory in tests/hostile.sh
command -v strace >/dev/null 2>&1 || need="$need strace"      # system-call counts in tests/fileio_compat.sh
command -v my_print_defaults >/dev/null 2>&1 || need="$need mariadb-client-core"
python3 -c 'import cryptography' 2>/dev/null || need="$need python3-cryptography"
python3 -c 'import jsonschema' 2>/dev/null || need="$need python3-jsonschema"    # tests/json.sh validates against docs/bench-result.schema.json
command -v chromium >/dev/null 2>&1 || need="$need chromium"  # tests/all.sh renders the --html page headless
command -v setpriv >/dev/null 2>&1 || need="$need util-linux" # tests/all.sh runs bench all as nobody
command -v socat >/dev/null 2>&1 || need="$need socat"          # tests/all.sh: a server on another host, by a forwarder
command -v clang >/dev/null 2>&1 || need="$need clang"
[ -f /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a ] || need="$need libclang-rt-14-dev"
# tests/multihost.sh: client hosts as network namespaces with sshd, the doc's recipes
[ -x /usr/sbin/sshd ] || need="$need openssh-server"
command -v ssh >/dev/null 2>&1 || need="$need openssh-client"
command -v parallel >/dev/null 2>&1 || need="$need parallel"
command -v ansible-playbook >/dev/null 2>&1 || need="$need ansible-core"
command -v ip >/dev/null 2>&1 && command -v tc >/dev/null 2>&1 || need="$need iproute2"
python3 -c 'import yaml' 2>/dev/null || need="$need python3-yaml"
# tests/aarch64.sh: the aarch64 binary (cross gcc, its binutils, the arm64 UAPI headers) run
# under qemu-user
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need="$need gcc-aarch64-linux-gnu"
command -v aarch64-linux-gnu-ar >/dev/null 2>&1 || need="$need binutils-aarch64-linux-gnu"
[ -d /usr/aarch64-linux-gnu/include/asm ] || need="$need linux-libc-dev-arm64-cross"
command -v qemu-aarch64-static >/dev/null 2>&1 || need="$need qemu-user-static"
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing$need"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    apt-get install -y -q $need >/dev/null 2>&1 ||
        { apt-get update -q >/dev/null && apt-get install -y -q $need >/dev/null; } ||
        { echo "setup: apt-get install$need failed" >&2; exit 1; }
else
    echo "setup: missing$need; install them (Debian: apt-get install$need)" >&2
    exit 1
fi
