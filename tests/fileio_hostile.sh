#!/bin/sh
# fileio in a hostile directory: foreign files and symlinks named like bench's, a manifest
# that is not bench's, signals during prepare and run, full and read-only filesystems
# (small tmpfs mounts: needs root), and the edge sizes of issue #18. Each test asserts what
# bench leaves on disk (bytes of foreign files, nothing outside --file-dir), its messages
# and its exit status. Ends with "fileio_hostile: N passed, N failed".
set -u
t_name=fileio_hostile
. "$(dirname "$0")/lib.sh"
work=$w
mnt=$work/mnt
mkdir -p "$mnt"
t_at_exit() { umount "$mnt" 2>/dev/null; }
cd "$work" || exit 1

# expect WHAT ACTUAL WANTED
expect() { [ "$2" = "$3" ] || { echo "$1: got '$2', wanted '$3'"; return 1; }; }
has() { grep -qF -- "$2" "$1" || { echo "$1 lacks '$2':"; cat "$1"; return 1; }; }
ms() { echo $(($(date +%s%N) / 1000000)); }
fresh() { rm -rf d && mkdir d; }
# tmpfs of $1 at $mnt with the test dir inside (root only)
tmpfs() {
    umount "$mnt" 2>/dev/null || true
    mount -t tmpfs -o "size=$1" tmpfs "$mnt" && mkdir "$mnt/d"
}
# wait_size FILE PID: wait until FILE exists with nonzero size (at most 60 s, then PID is
# killed)
wait_size() {
    n=0 t0=$(ms)
    while [ ! -s "$1" ]; do
        n=$((n + 1))
        [ $((n % 5000)) != 0 ] || [ $(($(ms) - t0)) -lt 60000 ] || {
            echo "timed out waiting for $1"; kill -9 "$2"; wait "$2"; return 1; }
    done
}
# stop_within PID LIMIT_MS: the process ends within LIMIT_MS; echoes its exit status
stop_within() {
    t0=$(ms)
    while kill -0 "$1" 2>/dev/null && [ $(($(ms) - t0)) -lt "$2" ]; do sleep 0.02; done
    if kill -0 "$1" 2>/dev/null; then
        echo "pid $1 still running $2 ms after the signal" >&2
        kill -9 "$1"
        wait "$1"
        return 1
    fi
    wait "$1"
}
F="--file-num=4 --file-total-size=256K --file-dir=d"

# --- ownership (#8.4) -------------------------------------------------------------------

# cleanup deleted an empty test_file.0 and a 16 KiB test_file.1 of user data (exit 0)
own_cleanup_foreign() {
    fresh
    : >d/test_file.0
    head -c 16384 /dev/urandom >d/test_file.1
    cp d/test_file.1 keep.1
    rc=0; $B fileio --file-num=4 --file-total-size=64K --file-dir=d cleanup >out 2>err || rc=$?
    expect exit $rc 1
    has err "left d/test_file.0: not created by bench (no manifest entry)"
    has err "left d/test_file.1: not created by bench (no manifest entry)"
    [ -f d/test_file.0 ]
    cmp d/test_file.1 keep.1
}

# a test_file.0 symlink made prepare fill its target
own_prepare_symlink() {
    fresh
    head -c 5000 /dev/urandom >target && cp target keep
    ln -s ../target d/test_file.0
    rc=0; $B fileio $F prepare >out 2>err || rc=$?
    expect exit $rc 3
    has err "not touching d/test_file.0: not created by bench (is a symlink)"
    cmp target keep
}

# a dangling test_file.0 symlink made prepare create a file outside --file-dir
own_prepare_dangling() {
    fresh
    ln -s ../outside d/test_file.0
    rc=0; $B fileio $F prepare >out 2>err || rc=$?
    expect exit $rc 3
    has err "(is a symlink)"
    [ ! -e outside ]
    [ -L d/test_file.0 ]
}

# an rndwr run overwrote a database file through a symlink; a read run follows none either
own_run_symlink() {
    fresh
    $B fileio $F prepare >/dev/null
    head -c 65536 /dev/urandom >db && cp db keep
    rm d/test_file.1 && ln -s ../db d/test_file.1
    rc=0; $B fileio $F --file-test-mode=rndwr --events=200 --time=0 run >out 2>err || rc=$?
    expect exit $rc 3
    has err "cannot open d/test_file.1: not created by bench (is a symlink)"
    rc=0; $B fileio $F --file-test-mode=seqwr --events=200 --time=0 run >out 2>err || rc=$?
    expect exit $rc 3
    has err "seqwr would re-create d/test_file.1, but it was not created by bench (is a symlink)"
    rc=0; $B fileio $F --file-test-mode=rndrd --events=20 --time=0 run >out 2>err || rc=$?
    expect exit $rc 3
    cmp db keep
    [ -L d/test_file.1 ]
}

# a file of the right size but another inode (a copy), or grown by its new owner
own_inode_size() {
    fresh
    $B fileio $F prepare >/dev/null
    cp d/test_file.2 x && mv x d/test_file.2 && cp d/test_file.2 keep.2
    printf 'user data' >>d/test_file.3 && cp d/test_file.3 keep.3
    rc=0; $B fileio $F --file-test-mode=rndwr --events=200 --time=0 run >out 2>err || rc=$?
    expect exit $rc 3
    has err "rndwr would write to d/test_file.2, but it was not created by bench (inode changed"
    rc=0; $B fileio $F cleanup >out 2>err || rc=$?
    expect exit $rc 1
    has err "left d/test_file.2: not created by bench (inode changed: inode"
    has err "left d/test_file.3: not created by bench (size changed: 65545 bytes, the manifest says 65536)"
    cmp d/test_file.2 keep.2
    cmp d/test_file.3 keep.3
    [ ! -e d/test_file.0 ]
    [ ! -e d/test_file.1 ]
}

# the manifest itself: a symlink, or not bench's format, is not trusted
own_manifest_hostile() {
    fresh
    printf 'x\n' >target && cp target keep
    ln -s ../target d/.bench-fileio.manifest
    rc=0; $B fileio $F prepare >out 2>err || rc=$?
    expect exit $rc 3
    has err "d/.bench-fileio.manifest is a symlink: not trusted"
    cmp target keep
    rm d/.bench-fileio.manifest && printf 'hello\n' >d/.bench-fileio.manifest
    rc=0; $B fileio $F prepare >out 2>err || rc=$?
    expect exit $rc 3
    has err "d/.bench-fileio.manifest is not a bench manifest"
    [ ! -e d/test_file.0 ]
    printf 'bench-fileio-manifest 1 x\n\033[2J\007evil\n' >d/.bench-fileio.manifest
    rc=0; $B fileio $F prepare >out 2>err || rc=$?
    expect exit $rc 3
    has err "d/.bench-fileio.manifest is not a bench manifest (line 2: '\x1b[2J\x07evil')"
    ! grep -q "$(printf '\033')" err
}

# prepare, run, cleanup: the manifest goes with the last file; a second prepare reuses
own_roundtrip() {
    fresh
    $B fileio $F prepare >/dev/null
    $B fileio $F --file-test-mode=seqwr --events=10 --time=0 run >/dev/null 2>&1
    $B fileio $F prepare >out
    expect "files after seqwr" "$(grep -c ' file d/test_file' out)" 4
    $B fileio $F --file-test-mode=rndwr --file-io-mode=async --events=100 --time=0 run >/dev/null 2>&1
    $B fileio $F cleanup >/dev/null
    expect "left in d" "$(ls -A d | wc -l)" 0
}

# the sysbench persona keeps sysbench's rule for files of sysbench's shape (no manifest
# needed), but follows no symlink either
own_sysbench_persona() {
    fresh
    ln -sf "$B" sysbench
    head -c 65536 /dev/urandom >d/test_file.0 # what sysbench's prepare leaves: whole blocks
    head -c 16384 /dev/urandom >target && cp target keep # sysbench's shape, behind a symlink
    ln -s ../target d/test_file.1
    rc=0; ./sysbench fileio $F prepare >out 2>err || rc=$?
    expect exit $rc 1
    has out "FATAL: fileio: prepare: not touching d/test_file.1: not created by bench (is a symlink)"
    cmp target keep
    rm d/test_file.1
    rc=0; ./sysbench fileio $F prepare >out 2>err || rc=$?
    expect "exit of the second prepare" $rc 0
    has out "Reusing existing file d/test_file.0"
    ./sysbench fileio $F cleanup >out 2>err
    expect "left in d" "$(ls -A d | wc -l)" 0
}

# a hard link to someone's file under bench's name is not sysbench's shape either: the
# sysbench persona neither writes to it nor unlinks it
own_sysbench_hardlink() {
    fresh
    ln -sf "$B" sysbench
    head -c 16384 /dev/urandom >user.db && cp user.db keep
    ln user.db d/test_file.0
    rc=0; ./sysbench fileio $F prepare >out 2>err || rc=$?
    expect exit $rc 1
    has out "FATAL: fileio: prepare: not touching d/test_file.0: not created by bench (no manifest entry, and 2 hard links)"
    rc=0; ./sysbench fileio $F --file-test-mode=rndwr --events=50 --time=0 run >out 2>err || rc=$?
    expect "exit of rndwr" $rc 1
    has out "rndwr would write to d/test_file.0, but it was not created by bench (no manifest entry, and 2 hard links): not touching it"
    ./sysbench fileio $F cleanup >out 2>err
    [ -e d/test_file.0 ]
    cmp user.db keep
}

# beyond --file-num sysbench removes nothing: there the sysbench persona removes only what the
# manifest proves bench's, not a file of sysbench's shape that replaced a recorded one
own_sysbench_beyond() {
    fresh
    ln -sf "$B" sysbench
    ./sysbench fileio --file-num=8 --file-total-size=512K --file-dir=d prepare >/dev/null
    rm d/test_file.7
    head -c 16384 /dev/urandom >user.db && cp user.db d/test_file.7 # someone else's, same name
    ./sysbench fileio $F cleanup >out 2>err
    has out "WARNING: fileio: cleanup: left d/test_file.7: not created by bench (inode changed"
    cmp user.db d/test_file.7
    expect "left in d" "$(ls -A d | tr '\n' ' ')" "test_file.7 "
}

# cleanup that cannot look at a file (out of descriptors) says which and why, exit 3,
# and removes nothing it could not check
cleanup_emfile() {
    fresh
    $B fileio $F prepare >/dev/null
    rc=0; sh -c 'ulimit -n 5; exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; exec "$@"' sh \
        $B fileio $F cleanup >out 2>err || rc=$?
    expect exit $rc 3
    has err "bench: fileio: cleanup: cannot look at d/test_file.0: " # strerror: the libc's words
    has err " (EMFILE)"
    expect "left in d" "$(ls -A d | wc -l)" 5
}

# --- signals (#8.5, #18.2) --------------------------------------------------------------

# SIGINT inside a 1 GiB prepare (O_DSYNC keeps it writing): stops within 3 s (one O_DSYNC
# write on a shared VM disk can take hundreds of ms; the old code went on for the GiB), says so,
# removes the unfinished file, exits 1
sig_prepare_big() {
    fresh
    $B fileio --file-num=1 --file-total-size=1G --file-extra-flags=dsync --file-dir=d prepare >out 2>err &
    pid=$!
    wait_size d/test_file.0 $pid
    kill -INT $pid
    rc=0; stop_within $pid 3000 || rc=$?
    expect exit $rc 1
    has err "fileio: prepare interrupted after 0 of 1 files: removed the unfinished d/test_file.0"
    expect "left in d" "$(ls -A d | wc -l)" 0
}

# SIGTERM inside a prepare of 1,000,000 small files (on tmpfs: no fsync cost): stops within
# 3 s; the finished files stay, whole and recorded, and cleanup removes them all
sig_prepare_many() {
    tmpfs 5g
    P="--file-num=1000000 --file-block-size=512 --file-total-size=512000000 --file-dir=$mnt/d"
    $B fileio $P prepare >out 2>err &
    pid=$!
    wait_size "$mnt/d/test_file.200" $pid
    kill -TERM $pid
    rc=0; stop_within $pid 3000 || rc=$?
    expect exit $rc 1
    has err "fileio: prepare interrupted after"
    n=$(ls "$mnt/d" | wc -l)
    [ "$n" -lt 1000000 ] || { echo "all $n files written"; return 1; }
    expect "files not 512 bytes" "$(find "$mnt/d" -name 'test_file.*' ! -size 512c | wc -l)" 0
    has err " $n finished files stay"
    $B fileio $P cleanup >/dev/null
    expect "left in d" "$(ls -A "$mnt/d" | wc -l)" 0
}

# once started - sysbench's "Threads started!" in FILE - and a little more
started() {
    t_wait 10 grep -q "^Threads started!" "$1" || :
    grep -q "^Threads started!" "$1" || { echo "the run did not start within 10 s"; return 1; }
    sleep 0.3
}
# SIGINT during a run (sync and io_uring): stops within 3 s (the old code ran its 60 s),
# report marked interrupted, exit 1
sig_run() {
    fresh
    $B fileio $F prepare >/dev/null
    for io in sync async; do
        : >out # (not the last run's words: started reads it)
        $B fileio $F --file-test-mode=rndwr --file-io-mode=$io --time=60 run >out 2>err &
        pid=$!
        started out || { kill -9 $pid; wait $pid; return 1; }
        kill -INT $pid
        rc=0; stop_within $pid 3000 || rc=$?
        expect "exit ($io)" $rc 1
        has err "interrupted; the report covers the run until the signal"
        has out "total number of events"
    done
}

# --- full and read-only filesystems (root: tmpfs) -----------------------------------------

# mmap seqwr on a full disk died of SIGBUS (exit 135): now ENOSPC, partial report, exit 1
full_mmap() {
    tmpfs 20m
    cd "$mnt"
    $B fileio --file-num=4 --file-total-size=8M --file-dir=d prepare >/dev/null
    dd if=/dev/zero of=filler bs=64k 2>/dev/null || true
    rc=0; $B fileio --file-num=4 --file-total-size=16M --file-dir=d --file-test-mode=seqwr --file-io-mode=mmap --events=1024 --time=0 run >"$work/out" 2>"$work/err" || rc=$?
    cd "$work"
    expect exit $rc 1
    has err "No space left on device (ENOSPC)"
    has out "File operations:"
    has err "the statistics above are incomplete"
}

# a file cut short under an mmap run raised SIGBUS (exit 135): now an error naming it, exit 1
mmap_sigbus() {
    fresh
    $B fileio $F prepare >/dev/null
    : >out
    $B fileio $F --file-test-mode=rndrd --file-io-mode=mmap --time=30 run >out 2>err &
    pid=$!
    started out || { kill -9 $pid; wait $pid; return 1; }
    for i in 0 1 2 3; do truncate -s 0 d/test_file.$i; done
    rc=0; stop_within $pid 5000 || rc=$?
    expect exit $rc 1
    has err "read (SIGBUS: the file was cut under the mapping) from d/test_file."
    has out "File operations:"
}

# prepare's space check counted bytes, not filesystem blocks: 6000 files of 1000 bytes
# (4 KiB each on tmpfs) filled a 20 MiB tmpfs at file 5120; now refused before writing
full_blocks() {
    tmpfs 20m
    rc=0; $B fileio --file-num=6000 --file-block-size=1000 --file-total-size=6000000 --file-dir="$mnt/d" prepare >out 2>err || rc=$?
    expect exit $rc 3
    has err "fileio: prepare in $mnt/d needs"
    expect "files created" "$(ls -A "$mnt/d" | wc -l)" 0
}

# ENOSPC in the middle of prepare (the disk filled by someone else while it ran): the
# unfinished file is removed, the finished ones stay recorded; cleanup removes them and
# the next prepare works
full_prepare() {
    tmpfs 20m # 16-byte blocks: about a second of writing, so the test can stop it midway
    P="--file-num=16 --file-block-size=16 --file-total-size=16M --file-dir=$mnt/d"
    $B fileio $P prepare >out 2>err &
    pid=$!
    wait_size "$mnt/d/test_file.2" $pid
    kill -STOP $pid
    dd if=/dev/zero of="$mnt/filler" bs=64k 2>/dev/null || true
    kill -CONT $pid
    rc=0; wait $pid || rc=$?
    expect exit $rc 3
    has err "No space left on device (ENOSPC)"
    has err "bench: hint: removed the unfinished $mnt/d/test_file."
    expect "short files" "$(find "$mnt/d" -name 'test_file.*' ! -size 1048576c | wc -l)" 0
    rm "$mnt/filler"
    rc=0; $B fileio $P cleanup >out 2>err || rc=$?
    expect "cleanup exit" $rc 0
    expect "left in d" "$(ls -A "$mnt/d" | wc -l)" 0
    $B fileio $P prepare >/dev/null 2>err
    $B fileio $P cleanup >/dev/null 2>err
}

# seqwr on a read-only filesystem said EEXIST (unlink's EROFS ignored)
rofs_seqwr() {
    tmpfs 20m
    $B fileio $F prepare >/dev/null 2>&1 # in $work/d, then the same on the tmpfs:
    $B fileio --file-num=4 --file-total-size=256K --file-dir="$mnt/d" prepare >/dev/null
    mount -o remount,ro "$mnt"
    rc=0; $B fileio --file-num=4 --file-total-size=256K --file-dir="$mnt/d" --file-test-mode=seqwr --events=10 --time=0 run >out 2>err || rc=$?
    mount -o remount,rw "$mnt"
    expect exit $rc 3
    has err "cannot remove $mnt/d/test_file.0 to re-create it for seqwr: Read-only file system (EROFS)"
    ! grep -q EEXIST err
}

# --- sizes (#18.12, #18.13, #18.16) ---------------------------------------------------------

# a block size that is not a multiple of 8: every byte is random, not a constant
tail_bytes() {
    fresh
    $B fileio --file-num=1 --file-block-size=4 --file-total-size=4096 --file-dir=d prepare >/dev/null
    n=$(od -An -tu1 -v d/test_file.0 | tr -s ' ' '\n' | grep -v '^$' | sort -u | wc -l)
    [ "$n" -ge 200 ] || { echo "only $n distinct byte values in 4096 bytes"; return 1; }
}

# --validate with blocks of 12 bytes or less checked nothing and exited 0
validate_small() {
    fresh
    $B fileio --file-num=1 --file-block-size=12 --file-total-size=4096 --file-dir=d prepare >/dev/null
    rc=0; $B fileio --file-num=1 --file-block-size=12 --file-total-size=4096 --file-dir=d --validate --file-test-mode=rndwr --events=10 --time=0 run >out 2>err || rc=$?
    expect exit $rc 2
    has err "bench: fileio: --validate with --file-block-size=12: each block ends with a 12-byte checksum and offset"
}

# --validate in async mode with fewer blocks than the queue is deep: each request in flight
# holds its block, so a full queue waited forever on itself (100% CPU, deaf to SIGINT)
validate_async_few() {
    fresh
    $B fileio --file-num=1 --file-total-size=64K --file-dir=d --validate prepare >/dev/null
    rc=0; timeout -k 1 10 $B fileio --file-num=1 --file-total-size=64K --file-dir=d --validate --file-test-mode=rndrw --file-io-mode=async --threads=2 --events=400 --time=0 run >out 2>err || rc=$?
    expect exit $rc 0
    has out "total number of events:              400"
}

# 4 files of "1Kb each" were 16 KiB each: the bench persona refuses a file smaller than a block
size_small() {
    fresh
    rc=0; $B fileio --file-num=4 --file-total-size=4K --file-dir=d prepare >out 2>err || rc=$?
    expect exit $rc 2
    has err "bench: fileio: --file-total-size=4096 over --file-num=4 files gives 1KiB per file, less than one --file-block-size block (16KiB)"
    expect "files" "$(ls -A d | wc -l)" 0
}

t_case own-cleanup-foreign own_cleanup_foreign
t_case own-prepare-symlink own_prepare_symlink
t_case own-prepare-dangling own_prepare_dangling
t_case own-run-symlink own_run_symlink
t_case own-inode-size own_inode_size
t_case own-manifest-hostile own_manifest_hostile
t_case own-roundtrip own_roundtrip
t_case own-sysbench-persona own_sysbench_persona
t_case own-sysbench-hardlink own_sysbench_hardlink
t_case own-sysbench-beyond own_sysbench_beyond
t_case cleanup-emfile cleanup_emfile
t_case sig-prepare-big sig_prepare_big
t_case sig-run sig_run
t_case mmap-sigbus mmap_sigbus
t_case tail-bytes tail_bytes
# --output naming one of the prepared files (a typo, a tab completion): refused, exit 3, the
# file untouched, in both formats
output_is_test_file() {
    fresh
    "$B" fileio --file-dir=d --file-num=2 --file-total-size=2M prepare >/dev/null
    for f in json text; do
        rc=0
        "$B" fileio --file-dir=d --file-num=2 --file-total-size=2M --file-test-mode=rndrd \
            --events=10 --time=0 run --format=$f --output=d/test_file.1 >out 2>err || rc=$?
        expect "exit ($f)" $rc 3
        has err "test_file.1; writing the result there would destroy it"
        expect "size ($f)" "$(stat -c %s d/test_file.1)" 1048576
    done
}
t_case validate-small validate_small
t_case output-is-test-file output_is_test_file
t_case validate-async-few validate_async_few
t_case size-small size_small
if [ "$(id -u)" = 0 ]; then
    t_case sig-prepare-many sig_prepare_many
    t_case full-mmap full_mmap
    t_case full-blocks full_blocks
    t_case full-prepare full_prepare
    t_case rofs-seqwr rofs_seqwr
else
    echo "fileio_hostile: FAIL: the tmpfs tests (sig-prepare-many, full-mmap, full-blocks, full-prepare, rofs-seqwr) need root"
    fail=$((fail + 5))
fi
t_summary
