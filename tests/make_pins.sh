#!/bin/sh
# The Makefile's pinned sources: a tarball at the default path (build/deps, where the Debian
# source package is fetched) that does not match the pinned sha256 stops the build, naming the
# pin (it is not used "as given"); one named by MBEDTLS_TARBALL= / MUSL_TARBALL= is used with a
# note, and still refused when it is not the version the build expects. In a DEPS of its own:
# the real build/deps is not touched. A few seconds.
t_name=make_pins
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
d=$w/deps
mkdir -p "$d/x/y"
echo 'not a release' >"$d/x/y/README"
tar czf "$w/bogus.tar.gz" -C "$d" x && rm -rf "${d:?}/x"
# mbedTLS: at the default path, a mismatch stops the build
cp "$w/bogus.tar.gz" "$d/mbedtls_2.28.3.orig.tar.gz"
make -s DEPS="$d" "$d/mbedtls-2.28.3/.unpacked" >"$w/o1" 2>&1; rc=$?
check "mbedtls default path: refused" "[ \$rc != 0 ]"
grep -q "does not match the pinned sha256 3b4953aa" "$w/o1" && ok "mbedtls pin named" || bad "mbedtls: $(cat "$w/o1")"
# named: a note, then the version check refuses it
make -s DEPS="$d" MBEDTLS_TARBALL="$w/bogus.tar.gz" "$d/mbedtls-2.28.3/.unpacked" >"$w/o2" 2>&1; rc=$?
check "mbedtls named: refused" "[ \$rc != 0 ]"
grep -q "note: .*bogus.tar.gz is not the pinned Debian tarball" "$w/o2" && grep -q "is not mbedtls 2.28.3" "$w/o2" &&
    ok "mbedtls named: note and version" || bad "mbedtls named: $(cat "$w/o2")"
# musl (the aarch64 build's): the same rules, its VERSION file checked
if command -v aarch64-linux-gnu-gcc >/dev/null; then
    cp "$w/bogus.tar.gz" "$d/musl_1.2.3.orig.tar.gz"
    make -s DEPS="$d" "$d/musl-1.2.3-aarch64/bin/musl-gcc" >"$w/o3" 2>&1; rc=$?
    check "musl default path: refused" "[ \$rc != 0 ]"
    grep -q "does not match the pinned sha256" "$w/o3" && ok "musl pin named" || bad "musl: $(cat "$w/o3")"
    make -s DEPS="$d" MUSL_TARBALL="$w/bogus.tar.gz" "$d/musl-1.2.3-aarch64/bin/musl-gcc" >"$w/o4" 2>&1; rc=$?
    check "musl named: refused" "[ \$rc != 0 ]"
    grep -q "is not musl 1.2.3" "$w/o4" && ok "musl named: version" || bad "musl named: $(cat "$w/o4")"
else
    bad "aarch64-linux-gnu-gcc not installed (make bench-aarch64 installs it as root)"
fi
[ ! -e build/deps/x ] && ok "build/deps untouched" || bad "build/deps/x appeared"
t_summary
