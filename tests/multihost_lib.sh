# Client "hosts" as network namespaces, for tests/multihost.sh and tests/perf/multihost.sh
# (sourced; POSIX sh). Needs root. Everything it makes is named bmh* and lives in
# 10.213.0.0/16:
#   bridge bmhbr0 (10.213.0.1/16) in the root namespace, where the test's MariaDB listens;
#   namespace bmh0, the controller (10.213.0.10): where the recipes run, as an operator's
#     machine would, with root's home (via /etc/netns/bmh0/passwd) a directory of the test's;
#   namespaces bmh1..bmhN, the client hosts (10.213.0.11..), each a veth pair to the bridge and
#     Debian's sshd with a host key and an authorized key the test makes, root's home its own
#     directory, so `scp bench host:` puts one binary per host.
# mh_up DIR N [NETEM_HOST]: make them; mh_down: remove everything (idempotent; for a trap).
# mh_ctl CMD...: run CMD in the controller (HOME, ssh config, known hosts set up).

MH_DIR="" MH_N=0 MH_RUNSSHD=""

mh_say() { echo "multihost: $*"; }

mh_down() {
    [ -n "$MH_DIR" ] || return 0
    for f in "$MH_DIR"/sshd*.pid; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    i=0
    while [ $i -le "$MH_N" ]; do
        ip netns del "bmh$i" 2>/dev/null
        ip link del "bmhv$i" 2>/dev/null
        rm -rf "/etc/netns/bmh$i"
        i=$((i + 1))
    done
    ip link del bmhbr0 2>/dev/null
    [ -n "$MH_RUNSSHD" ] && rmdir /run/sshd 2>/dev/null
    rm -f "$MH_DIR/id" "$MH_DIR/id.pub" "$MH_DIR/hostkey" "$MH_DIR/hostkey.pub"
    MH_DIR=""
    return 0
}

# mh_ns I ADDR: namespace bmhI with ADDR/16 on a veth to the bridge; root's home DIR/hI
mh_ns() {
    ip netns add "bmh$1" &&
        ip link add "bmhv$1" type veth peer name "bmhp$1" &&
        ip link set "bmhp$1" netns "bmh$1" &&
        ip link set "bmhv$1" master bmhbr0 &&
        ip link set "bmhv$1" up &&
        ip netns exec "bmh$1" ip addr add "$2/16" dev "bmhp$1" &&
        ip netns exec "bmh$1" ip link set "bmhp$1" up &&
        ip netns exec "bmh$1" ip link set lo up || return 1
    mkdir -p "$MH_DIR/h$1" "/etc/netns/bmh$1" && chmod 700 "$MH_DIR/h$1"
    sed "s|^root:\([^:]*\):0:0:\([^:]*\):[^:]*:|root:\1:0:0:\2:$MH_DIR/h$1:|" /etc/passwd >"/etc/netns/bmh$1/passwd"
}

mh_up() { # mh_up DIR N [NETEM_HOST]
    MH_DIR=$1 MH_N=$2
    ip link add bmhbr0 type bridge && ip addr add 10.213.0.1/16 dev bmhbr0 && ip link set bmhbr0 up ||
        { mh_say "cannot make the bridge bmhbr0"; return 1; }
    mh_ns 0 10.213.0.10 || { mh_say "cannot make the controller namespace bmh0"; return 1; }
    ssh-keygen -q -t ed25519 -N '' -C bmh-host -f "$MH_DIR/hostkey" &&
        ssh-keygen -q -t ed25519 -N '' -C bmh-client -f "$MH_DIR/id" || return 1
    cp "$MH_DIR/id.pub" "$MH_DIR/authorized_keys"
    cat >"$MH_DIR/sshd_config" <<EOF
HostKey $MH_DIR/hostkey
AuthorizedKeysFile $MH_DIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
MaxStartups 100
Subsystem sftp internal-sftp
EOF
    [ -d /run/sshd ] || { mkdir -p /run/sshd && MH_RUNSSHD=1; }
    mkdir -p "$MH_DIR/h0/.ssh"
    : >"$MH_DIR/h0/.ssh/known_hosts"
    { echo "Host *"; echo "  User root"; echo "  IdentityFile $MH_DIR/id"; echo "  IdentitiesOnly yes"
      echo "  BatchMode yes"; echo "  StrictHostKeyChecking yes"; echo "  ConnectTimeout 10"; } >"$MH_DIR/h0/.ssh/config"
    i=1
    while [ $i -le "$MH_N" ]; do
        a=10.213.0.$((10 + i))
        mh_ns $i $a || { mh_say "cannot make namespace bmh$i"; return 1; }
        printf 'Host bmh%s\n  HostName %s\n' $i $a >>"$MH_DIR/h0/.ssh/config"
        echo "$a $(cut -d' ' -f1,2 "$MH_DIR/hostkey.pub")" >>"$MH_DIR/h0/.ssh/known_hosts"
        ip netns exec "bmh$i" /usr/sbin/sshd -f "$MH_DIR/sshd_config" -o "ListenAddress=$a" \
            -o "PidFile=$MH_DIR/sshd$i.pid" -E "$MH_DIR/sshd$i.log" || { mh_say "sshd in bmh$i did not start"; return 1; }
        i=$((i + 1))
    done
    # the own RTT of one host: 5 ms each way on its link (where the kernel has sch_netem)
    MH_NETEM=none
    if [ -n "${3:-}" ]; then
        if err=$(ip netns exec "bmh$3" tc qdisc add dev "bmhp$3" root netem delay 5ms 2>&1); then
            MH_NETEM="bmh$3 +5 ms"
        else
            mh_say "NOTE: tc netem on bmh$3 failed ($err): this kernel has no sch_netem, every host runs at the bridge's RTT"
        fi
    fi
    # every sshd answers (a login through the controller's config)
    i=1
    while [ $i -le "$MH_N" ]; do
        t=0
        until mh_ctl ssh "bmh$i" true 2>"$MH_DIR/ssh.err"; do
            t=$((t + 1)); [ $t -lt 50 ] || { mh_say "ssh bmh$i: $(cat "$MH_DIR/ssh.err")"; return 1; }
            sleep 0.2
        done
        i=$((i + 1))
    done
    return 0
}

mh_ctl() { # mh_ctl CMD...: in the controller namespace, HOME its root's home
    ip netns exec bmh0 env HOME="$MH_DIR/h0" LC_ALL=C.UTF-8 "$@"
}
