# bench - one translation unit (bench.c + bench.h), released as a static musl + mbedTLS binary.
#
#   make            ./bench: x86_64, fully static, stripped (musl-gcc, mbedTLS 2.28.3)
#   make ARCH=aarch64  ./bench-aarch64: the same for 64-bit ARM (cross gcc, musl and mbedTLS
#                   built for aarch64 under build/deps), loads on 4K, 16K and 64K page kernels
#   make dist       dist/bench-x86_64, dist/bench-aarch64, dist/SHA256SUMS (each <= 1.5 MiB)
#   make test       the whole suite: unit (ASan/UBSan), golden CLI, sysbench compatibility,
#                   docs sync, ThreadSanitizer runs; installs what it needs when run as root
#   make san        bench-san: glibc build with ASan + UBSan
#   make tsan       bench-tsan: glibc build with ThreadSanitizer
#   make clang-check  clang -fsyntax-only: the warnings (-Wenum-conversion) and -Wassign-enum
#   make dev        bench-dev: quick dynamic glibc build, no TLS
#   make perf       tests/perf/*.sh: benchmarks against the peers (not part of test)
#   make mutate     tests/mutate.sh: every mutant of tests/mutants.txt must be killed by the
#                   suite (`make test` runs the fast subset, tests/mutate.sh --fast)
#   make coverage   tests/coverage.sh: gcov line and branch coverage of bench.c per section
#   make fmt        counts the lines clang-format (.clang-format) would change; changes nothing
#
# mbedTLS is not in the repository: its Debian source package is fetched at build time with
# apt-get source (a private deb-src list derived from this machine's own apt sources; the
# system's apt configuration is not touched), checked against a pinned sha256, and built with
# musl-gcc under build/deps/, where later builds find it without network. Elsewhere:
#   MBEDTLS_TARBALL=/path/to/mbedtls-2.28.3.tar.gz make

CC        ?= cc
MUSL_CC   ?= musl-gcc
VERSION   := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CPPFLAGS  += -DBENCH_VERSION='"$(VERSION)"'
LDLIBS     = -lpthread -lm
WARN       = -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion \
             -Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition \
             -Wwrite-strings -Wformat=2 -Wundef -Wcast-align -Wvla \
             -Wnull-dereference -Wdouble-promotion -Wimplicit-fallthrough -Wenum-conversion
# -Werror in CI (CI=true is set by the CI runner) or on request (make WERROR=1)
ifneq ($(filter true 1,$(CI) $(WERROR)),)
WARN      += -Werror
endif
SAN        = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# the invariants (B_ASSERT, ALWAYS, NEVER: bench.h) are checked in the sanitizer and test builds
CHECKS     = -DBENCH_ASSERT
SRC        = bench.c bench.h

DEPS            = build/deps
MBEDTLS_VER     = 2.28.3
MBEDTLS_DEBVER  = 2.28.3-1
MBEDTLS_SHA256  = 3b4953aa55a681e084d31892d9904cc5328d6b4958ea57b90ae4b4f94ae69a8d
MBEDTLS_ORIG    = $(DEPS)/mbedtls_$(MBEDTLS_VER).orig.tar.gz
MBEDTLS_TARBALL ?= $(MBEDTLS_ORIG)
MBEDTLS_DIR     = $(DEPS)/mbedtls-$(MBEDTLS_VER)
MBEDTLS_CFG     = $(DEPS)/bench_mbedtls_config.h
MBEDTLS_LIBS    = $(MBEDTLS_DIR)/library/libmbedtls.a $(MBEDTLS_DIR)/library/libmbedx509.a \
                  $(MBEDTLS_DIR)/library/libmbedcrypto.a
# What bench uses of mbedTLS: a TLS 1.2 client with x509, RSA (PKCS#1 v1.5 and OAEP for
# sha256_password / caching_sha2_password), ECDHE, AES-GCM, ChaCha20-Poly1305 and SHA-1/256/512;
# MD5 and PKCS#5 (PBKDF2) for PostgreSQL's md5 and SCRAM-SHA-256 logins; ALPN for its direct TLS
# (sslnegotiation=direct: ALPN "postgresql").
MBEDTLS_FEATURES = HAVE_ASM HAVE_TIME HAVE_TIME_DATE AESNI_C AES_C ASN1_PARSE_C ASN1_WRITE_C \
  BASE64_C BIGNUM_C CHACHA20_C CHACHAPOLY_C CIPHER_C CIPHER_MODE_CBC CTR_DRBG_C ECDH_C \
  ECDSA_C ECP_C ECP_DP_SECP256R1_ENABLED ECP_DP_SECP384R1_ENABLED ECP_DP_SECP521R1_ENABLED \
  ECP_DP_CURVE25519_ENABLED ECP_NIST_OPTIM ENTROPY_C GCM_C HMAC_DRBG_C \
  KEY_EXCHANGE_ECDHE_RSA_ENABLED KEY_EXCHANGE_ECDHE_ECDSA_ENABLED KEY_EXCHANGE_RSA_ENABLED \
  MD_C MD5_C OID_C PEM_PARSE_C PK_C PK_PARSE_C PKCS5_C PKCS1_V15 PKCS1_V21 POLY1305_C RSA_C SHA1_C \
  SHA256_C SHA512_C SSL_CLI_C SSL_TLS_C SSL_PROTO_TLS1_2 SSL_SERVER_NAME_INDICATION \
  SSL_ALPN SSL_KEEP_PEER_CERTIFICATE X509_CRT_PARSE_C X509_USE_C VERSION_C FS_IO ERROR_C
MBEDTLS_CFLAGS  = -I$(MBEDTLS_DIR)/include -I$(DEPS) \
                  -DMBEDTLS_CONFIG_FILE='"bench_mbedtls_config.h"' -DBENCH_HAVE_MBEDTLS
# the same sources built with the host compiler, for the glibc test and sanitizer builds
MBEDTLS_HDIR    = $(DEPS)/mbedtls-$(MBEDTLS_VER)-host
MBEDTLS_HLIBS   = $(MBEDTLS_HDIR)/library/libmbedtls.a $(MBEDTLS_HDIR)/library/libmbedx509.a \
                  $(MBEDTLS_HDIR)/library/libmbedcrypto.a
HOST_TLS        = $(MBEDTLS_CFLAGS) $(MBEDTLS_HLIBS)

# musl-gcc hides /usr/include; expose only the kernel UAPI headers (io_uring needs them).
KINC = build/kinc

# The aarch64 binary: Debian's cross gcc (gcc-aarch64-linux-gnu), musl built for aarch64 from
# Debian's musl source package (fetched like mbedTLS, sha256-pinned, under build/deps), its
# musl-gcc wrapper, mbedTLS built with it, and the kernel UAPI headers of
# linux-libc-dev-arm64-cross. Linked for 64K pages, so that it also loads on 64K page kernels
# (RHEL on ARM); the rule checks the LOAD alignment with readelf.
ARCH            ?= $(shell uname -m)
A64             = aarch64-linux-gnu
A64_PKGS        = gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu linux-libc-dev-arm64-cross
MUSL_VER        = 1.2.3
MUSL_DEBVER     = 1.2.3-1
MUSL_SHA256     = 7d5b0b6062521e4627e099e4c9dc8248d32a30285e959b7eecaa780cf8cfd4a4
MUSL_ORIG       = $(DEPS)/musl_$(MUSL_VER).orig.tar.gz
MUSL_TARBALL   ?= $(MUSL_ORIG)
MUSL_A64        = $(abspath $(DEPS))/musl-$(MUSL_VER)-aarch64
MUSL_A64_CC     = $(MUSL_A64)/bin/musl-gcc
MBEDTLS_ADIR    = $(DEPS)/mbedtls-$(MBEDTLS_VER)-aarch64
MBEDTLS_ALIBS   = $(MBEDTLS_ADIR)/library/libmbedtls.a $(MBEDTLS_ADIR)/library/libmbedx509.a \
                  $(MBEDTLS_ADIR)/library/libmbedcrypto.a
KINC_A64        = build/kinc-aarch64
MAX_BYTES       = 1572864

ifeq ($(ARCH),aarch64)
all: bench-aarch64
else ifeq ($(ARCH),arm64)
all: bench-aarch64
else
all: bench
endif

bench: $(SRC) $(MBEDTLS_LIBS) | $(KINC) musl-check
	$(MUSL_CC) $(CPPFLAGS) -isystem $(KINC) $(MBEDTLS_CFLAGS) $(WARN) -O2 \
	    -fstack-protector-strong -static -s -o $@ bench.c $(MBEDTLS_LIBS) $(LDLIBS)
	@! readelf -l $@ | grep -q 'program interpreter' || { echo "make: $@ is not statically linked" >&2; exit 1; }

# bench-aarch64: the same source, flags and checks as bench, for aarch64 (see ARCH above)
bench-aarch64: $(SRC) $(MBEDTLS_ALIBS) | $(KINC_A64) a64-check
	$(MUSL_A64_CC) $(CPPFLAGS) -isystem $(KINC_A64) \
	    $(subst $(MBEDTLS_DIR),$(MBEDTLS_ADIR),$(MBEDTLS_CFLAGS)) $(WARN) -O2 \
	    -fstack-protector-strong -static -s -Wl,-z,max-page-size=65536 -Wl,-z,common-page-size=65536 \
	    -o $@ bench.c $(MBEDTLS_ALIBS) $(LDLIBS)
	@! readelf -l $@ | grep -q 'program interpreter' || { echo "make: $@ is not statically linked" >&2; exit 1; }
	@readelf -h $@ | grep -q 'AArch64' || { echo "make: $@ is not an aarch64 binary" >&2; exit 1; }
	@readelf -lW $@ | awk '$$1 == "LOAD" { n++; if ($$NF != "0x10000") bad = 1 } END { exit !(n > 0 && !bad) }' || \
	  { echo "make: $@ has LOAD segments not aligned to 64K pages (readelf -lW $@)" >&2; exit 1; }

# tests/unit-aarch64: the unit tests for aarch64 (static musl, invariants on, no sanitizer: no
# aarch64 ASan runtime here), run under qemu-user by tests/aarch64.sh
tests/unit-aarch64: tests/unit.c $(wildcard tests/t_*.c) $(SRC) $(MBEDTLS_ALIBS) | $(KINC_A64) a64-check
	$(MUSL_A64_CC) $(CPPFLAGS) $(CHECKS) -isystem $(KINC_A64) \
	    $(subst $(MBEDTLS_DIR),$(MBEDTLS_ADIR),$(MBEDTLS_CFLAGS)) $(WARN) -Wno-missing-prototypes -O1 \
	    -static -Wl,-z,max-page-size=65536 -o $@ tests/unit.c $(MBEDTLS_ALIBS) $(LDLIBS)

# the cross toolchain and the aarch64 UAPI headers: Debian packages, installed when root
a64-check:
	@command -v $(A64)-gcc >/dev/null 2>&1 && [ -d /usr/$(A64)/include/asm ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "make: installing $(A64_PKGS)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(A64_PKGS) >/dev/null || \
	    { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(A64_PKGS) >/dev/null; } || \
	    { echo "make: installing $(A64_PKGS) failed; install them (apt-get install $(A64_PKGS))" >&2; exit 1; }; \
	  else echo "make: $(A64)-gcc or /usr/$(A64)/include/asm not found; install $(A64_PKGS) (Debian)" >&2; exit 1; fi; }

$(KINC_A64):
	@mkdir -p $@
	@for d in linux asm asm-generic; do ln -sfn /usr/$(A64)/include/$$d $@/$$d; done

# musl for aarch64 from Debian's source package (the orig tarball), built with the cross gcc and
# installed under build/deps with its musl-gcc wrapper and specs (which name the cross gcc)
$(MUSL_A64_CC): | $(MUSL_TARBALL) a64-check
	@set -e; sum=$$(sha256sum "$(MUSL_TARBALL)" | cut -d' ' -f1); \
	 if [ "$$sum" != "$(MUSL_SHA256)" ] && [ "$(MUSL_TARBALL)" = "$(MUSL_ORIG)" ]; then \
	   echo "make: $(MUSL_TARBALL) does not match the pinned sha256 $(MUSL_SHA256) (it is $$sum): remove it to fetch it again, or name a tarball with MUSL_TARBALL=" >&2; exit 1; fi; \
	 if [ "$$sum" != "$(MUSL_SHA256)" ]; then \
	   echo "make: note: $(MUSL_TARBALL) is not the pinned Debian tarball (sha256 $$sum); using it as given"; fi
	@echo "make: building musl $(MUSL_VER) for aarch64 with $(A64)-gcc"
	@rm -rf $(MUSL_A64) $(MUSL_A64)-src && mkdir -p $(MUSL_A64)-src
	@tar xzf "$(MUSL_TARBALL)" -C $(MUSL_A64)-src --strip-components=1
	@[ "$$(cat $(MUSL_A64)-src/VERSION 2>/dev/null)" = "$(MUSL_VER)" ] || \
	  { echo "make: $(MUSL_TARBALL) is not musl $(MUSL_VER) (its VERSION file says otherwise)" >&2; exit 1; }
	@cd $(MUSL_A64)-src && { ./configure --target=$(A64) CROSS_COMPILE=$(A64)- CC=$(A64)-gcc \
	    --prefix=$(MUSL_A64) --syslibdir=$(MUSL_A64)/lib --disable-shared --enable-wrapper=gcc && \
	    $(MAKE) -s && $(MAKE) -s install; } > $(MUSL_A64)-build.log 2>&1 || \
	    { tail -20 $(MUSL_A64)-build.log >&2; exit 1; }
	@test -x $@ || { echo "make: musl's install left no $@" >&2; exit 1; }
	@rm -rf $(MUSL_A64)-src

$(MUSL_ORIG):
	@$(MAKE) -s apt-source PKG=musl PKGVER=$(MUSL_DEBVER) PKGFILE=$@ PKGSUM=$(MUSL_SHA256) PKGENV=MUSL_TARBALL

$(MBEDTLS_ALIBS) &: $(MBEDTLS_DIR)/.unpacked $(MBEDTLS_CFG) $(MUSL_A64_CC)
	@echo "make: building mbedTLS $(MBEDTLS_VER) for aarch64 with $(MUSL_A64_CC)"
	@rm -rf $(MBEDTLS_ADIR) && mkdir -p $(MBEDTLS_ADIR) && \
	  tar xzf "$(MBEDTLS_TARBALL)" -C $(MBEDTLS_ADIR) --strip-components=1
	@$(MAKE) -s -C $(MBEDTLS_ADIR)/library CC=$(MUSL_A64_CC) AR=$(A64)-ar \
	    CFLAGS="-Os -ffunction-sections -fdata-sections -I$(abspath $(DEPS)) -DMBEDTLS_CONFIG_FILE='\"bench_mbedtls_config.h\"'" \
	    static > $(DEPS)/mbedtls-aarch64-build.log 2>&1 || { tail -20 $(DEPS)/mbedtls-aarch64-build.log >&2; exit 1; }

# dist/: both release binaries and their checksums; each static, stripped, <= 1.5 MiB (1 MiB until the PostgreSQL client and TPC-C: ~1.1 MiB)
dist: bench bench-aarch64
	@mkdir -p dist && cp bench dist/bench-x86_64 && cp bench-aarch64 dist/bench-aarch64
	@for b in dist/bench-x86_64 dist/bench-aarch64; do \
	  ! readelf -l $$b | grep -q 'program interpreter' || { echo "make: $$b is not statically linked" >&2; exit 1; }; \
	  ! readelf -S $$b | grep -q '\.symtab' || { echo "make: $$b is not stripped" >&2; exit 1; }; \
	  n=$$(wc -c < $$b); [ $$n -le $(MAX_BYTES) ] || { echo "make: $$b is $$n bytes, over $(MAX_BYTES)" >&2; exit 1; }; \
	  echo "make: $$b: $$n bytes, $$(readelf -h $$b | sed -n 's/^ *Machine: *//p'), static, stripped"; done
	@cd dist && sha256sum bench-x86_64 bench-aarch64 > SHA256SUMS && cat SHA256SUMS

musl-check:
	@command -v $(MUSL_CC) >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "make: installing musl-tools (musl-gcc)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q musl-tools >/dev/null || \
	    { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q musl-tools >/dev/null; } || \
	    { echo "make: installing musl-tools failed; install it (apt-get install musl-tools)" >&2; exit 1; }; \
	  else echo "make: $(MUSL_CC) not found; install musl-tools (Debian: apt-get install musl-tools) or set MUSL_CC" >&2; exit 1; fi; }

$(KINC):
	@mkdir -p $@
	@ln -sfn /usr/include/linux $@/linux
	@ln -sfn /usr/include/asm-generic $@/asm-generic
	@ln -sfn /usr/include/$$(gcc -dumpmachine 2>/dev/null || echo x86_64-linux-gnu)/asm $@/asm

# The Debian orig tarball, through a private apt state: nothing under /etc/apt is changed.
$(MBEDTLS_ORIG):
	@$(MAKE) -s apt-source PKG=mbedtls PKGVER=$(MBEDTLS_DEBVER) PKGFILE=$@ PKGSUM=$(MBEDTLS_SHA256) PKGENV=MBEDTLS_TARBALL

# apt-source PKG=name PKGVER=debian-version PKGFILE=orig-tarball PKGSUM=sha256 PKGENV=variable:
# one Debian source package's download into build/deps, checked against its pinned sha256;
# each package its own apt state (apt-PKG): make -j fetches mbedTLS and musl at the same time
apt-source:
	@command -v apt-get >/dev/null 2>&1 || { echo "make: cannot fetch $(PKG) source: apt-get not found; run: $(PKGENV)=/path/to/$(notdir $(PKGFILE)) make" >&2; exit 1; }
	@rm -rf $(DEPS)/apt-$(PKG) && mkdir -p $(DEPS)/apt-$(PKG)/parts $(DEPS)/apt-$(PKG)/lists/partial $(DEPS)/apt-$(PKG)/cache/archives/partial
	@for f in /etc/apt/sources.list.d/*.sources; do [ -f "$$f" ] && sed 's/^Types:.*/Types: deb-src/' "$$f" > $(DEPS)/apt-$(PKG)/parts/$${f##*/}; done; \
	 for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do [ -f "$$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$$f" >> $(DEPS)/apt-$(PKG)/parts/derived.list; done; true
	@echo "make: fetching the $(PKG) $(PKGVER) Debian source package"
	@A="apt-get -q -o Dir::Etc::SourceParts=$(abspath $(DEPS))/apt-$(PKG)/parts -o Dir::Etc::SourceList=/dev/null \
	   -o Dir::State::Lists=$(abspath $(DEPS))/apt-$(PKG)/lists -o Dir::Cache=$(abspath $(DEPS))/apt-$(PKG)/cache \
	   -o APT::Sandbox::User=root"; \
	 $$A update > $(DEPS)/apt-$(PKG)/update.log 2>&1; \
	 cd $(DEPS) && $$A source --download-only $(PKG)=$(PKGVER) > apt-$(PKG)/source.log 2>&1 || \
	   { echo "make: apt-get source $(PKG)=$(PKGVER) failed (see $(DEPS)/apt-$(PKG)/*.log); run: $(PKGENV)=/path/to/$(notdir $(PKGFILE)) make" >&2; exit 1; }
	@echo "$(PKGSUM)  $(PKGFILE)" | sha256sum -c --quiet - || { echo "make: $(PKGFILE) does not match the pinned sha256 $(PKGSUM)" >&2; rm -f $(PKGFILE); exit 1; }

$(MBEDTLS_DIR)/.unpacked: | $(MBEDTLS_TARBALL)
	@set -e; sum=$$(sha256sum "$(MBEDTLS_TARBALL)" | cut -d' ' -f1); \
	 if [ "$$sum" != "$(MBEDTLS_SHA256)" ] && [ "$(MBEDTLS_TARBALL)" = "$(MBEDTLS_ORIG)" ]; then \
	   echo "make: $(MBEDTLS_TARBALL) does not match the pinned sha256 $(MBEDTLS_SHA256) (it is $$sum): remove it to fetch it again, or name a tarball with MBEDTLS_TARBALL=" >&2; exit 1; fi; \
	 if [ "$$sum" != "$(MBEDTLS_SHA256)" ]; then \
	   echo "make: note: $(MBEDTLS_TARBALL) is not the pinned Debian tarball (sha256 $$sum); using it as given"; fi
	@rm -rf $(MBEDTLS_DIR) && mkdir -p $(MBEDTLS_DIR)
	@tar xzf "$(MBEDTLS_TARBALL)" -C $(MBEDTLS_DIR) --strip-components=1
	@grep -q '"$(MBEDTLS_VER)"' $(MBEDTLS_DIR)/include/mbedtls/version.h || \
	  { echo "make: $(MBEDTLS_TARBALL) is not mbedtls $(MBEDTLS_VER)" >&2; exit 1; }
	@touch $@

# rewritten only when the features change: another edit of the Makefile rebuilds no mbedTLS
$(MBEDTLS_CFG): Makefile
	@mkdir -p $(DEPS)
	@{ echo '/* generated by the Makefile: the mbedTLS features bench uses */'; \
	   echo '#ifndef BENCH_MBEDTLS_CONFIG_H'; echo '#define BENCH_MBEDTLS_CONFIG_H'; \
	   for f in $(MBEDTLS_FEATURES); do echo "#define MBEDTLS_$$f"; done; \
	   echo '#include "mbedtls/check_config.h"'; echo '#endif'; } > $@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

$(MBEDTLS_LIBS) &: $(MBEDTLS_DIR)/.unpacked $(MBEDTLS_CFG) | musl-check
	@echo "make: building mbedTLS $(MBEDTLS_VER) with $(MUSL_CC)"
	@$(MAKE) -s -C $(MBEDTLS_DIR)/library clean >/dev/null 2>&1 || true
	@$(MAKE) -s -C $(MBEDTLS_DIR)/library CC=$(MUSL_CC) AR=ar \
	    CFLAGS="-Os -ffunction-sections -fdata-sections -I$(abspath $(DEPS)) -DMBEDTLS_CONFIG_FILE='\"bench_mbedtls_config.h\"'" \
	    static > $(DEPS)/mbedtls-build.log 2>&1 || { tail -20 $(DEPS)/mbedtls-build.log >&2; exit 1; }

$(MBEDTLS_HLIBS) &: $(MBEDTLS_DIR)/.unpacked $(MBEDTLS_CFG)
	@echo "make: building mbedTLS $(MBEDTLS_VER) with $(CC) (for test builds)"
	@rm -rf $(MBEDTLS_HDIR) && mkdir -p $(MBEDTLS_HDIR) && \
	  tar xzf "$(MBEDTLS_TARBALL)" -C $(MBEDTLS_HDIR) --strip-components=1
	@$(MAKE) -s -C $(MBEDTLS_HDIR)/library clean >/dev/null 2>&1 || true
	@$(MAKE) -s -C $(MBEDTLS_HDIR)/library CC=$(CC) AR=ar \
	    CFLAGS="-O2 -g -I$(abspath $(DEPS)) -DMBEDTLS_CONFIG_FILE='\"bench_mbedtls_config.h\"'" \
	    static > $(DEPS)/mbedtls-host-build.log 2>&1 || { tail -20 $(DEPS)/mbedtls-host-build.log >&2; exit 1; }

dev: $(SRC) $(MBEDTLS_HLIBS)
	$(CC) $(CPPFLAGS) $(WARN) -O2 -g -o bench-dev bench.c $(HOST_TLS) $(LDLIBS)

san: $(SRC) $(MBEDTLS_HLIBS)
	$(CC) $(CPPFLAGS) $(CHECKS) $(WARN) -O1 -g $(SAN) -o bench-san bench.c $(HOST_TLS) $(LDLIBS)

tsan: $(SRC) $(MBEDTLS_HLIBS)
	$(CC) $(CPPFLAGS) $(CHECKS) $(WARN) -O1 -g -fsanitize=thread -o bench-tsan bench.c $(HOST_TLS) $(LDLIBS)

# clang-check: bench.c through clang's front end (the system's headers, as make san) with the
# warnings above, -Wenum-conversion among them (an enum b_rc where an enum b_exit goes, a
# loop's want where a code goes), and clang's -Wassign-enum (a constant out of its enum's
# range); a second, nothing built. make test runs it (suite source).
CLANG ?= clang
clang-check: $(SRC)
	$(CLANG) $(CPPFLAGS) $(CHECKS) $(WARN) -Wassign-enum -Werror -fsyntax-only \
	    $(MBEDTLS_CFLAGS) bench.c

tests/unit: tests/unit.c $(wildcard tests/t_*.c) $(SRC) $(MBEDTLS_HLIBS)
	$(CC) $(CPPFLAGS) $(CHECKS) $(WARN) -Wno-missing-prototypes -O1 -g $(SAN) -o $@ tests/unit.c $(HOST_TLS) $(LDLIBS)

# libFuzzer: tests/fuzz_my over the parsers of server bytes, tests/fuzz_opt over the command
# line and the option files, tests/fuzz_z over the compressed protocol (inflate, frames,
# deflate round trips), tests/fuzz_jr over the JSON reader (reports given to compare/merge),
# tests/fuzz_pg over the PostgreSQL codec (pg_: a server's byte stream; '@': a URL and its password spans; '!': SCRAM's server messages; '#': a ~/.pgpass).
# FUZZ_TIME seconds each: `make fuzz` runs 5 x 150 s, `make test` a 5 x 20 s slice;
# `make fuzz FUZZ_TIME=3600` runs long.
# Corpora grow in build/fuzz-corpus, build/fuzz-opt-corpus, build/fuzz-z-corpus,
# build/fuzz-jr-corpus and build/fuzz-pg-corpus.
FUZZ_TIME ?= 150
FUZZ_CC    = clang $(CPPFLAGS) $(CHECKS) $(WARN) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
tests/fuzz_my: tests/fuzz_my.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_my.c $(HOST_TLS) $(LDLIBS)

tests/fuzz_opt: tests/fuzz_opt.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_opt.c $(HOST_TLS) $(LDLIBS)

tests/fuzz_z: tests/fuzz_z.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_z.c $(HOST_TLS) $(LDLIBS)

tests/fuzz_jr: tests/fuzz_jr.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_jr.c $(HOST_TLS) $(LDLIBS)

tests/fuzz_pg: tests/fuzz_pg.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_pg.c $(HOST_TLS) $(LDLIBS)

fuzz: tests/fuzz_my tests/fuzz_opt tests/fuzz_z tests/fuzz_jr tests/fuzz_pg
	@rm -rf build/fuzz-seeds build/fuzz-opt-seeds build/fuzz-opt-tmp build/fuzz-z-seeds && \
	  mkdir -p build/fuzz-seeds build/fuzz-corpus build/fuzz-opt-seeds build/fuzz-opt-corpus build/fuzz-opt-tmp \
	    build/fuzz-z-seeds build/fuzz-z-corpus
	@python3 -c 'import os, sys; exec("for f in sys.argv[2:]:\n d = bytes.fromhex(\"\".join(l for l in open(f) if not l.startswith(\"#\")))\n for sel in range(11): open(os.path.join(sys.argv[1], os.path.basename(f)[:-4] + \"-%d\" % sel), \"wb\").write(bytes([sel]) + d)")' \
	    build/fuzz-seeds tests/fixtures/mysql/*.hex
	@python3 tests/fuzz_opt_seeds.py build/fuzz-opt-seeds
	@./tests/fuzz_my -max_total_time=$(FUZZ_TIME) -rss_limit_mb=2048 build/fuzz-corpus build/fuzz-seeds \
	    > build/fuzz.log 2>&1; rc=$$?; grep -E '^Done|ERROR|SUMMARY' build/fuzz.log | tail -3; \
	    [ $$rc = 0 ] || { tail -40 build/fuzz.log; exit $$rc; }
	@TMPDIR=$(abspath build/fuzz-opt-tmp) ./tests/fuzz_opt -max_total_time=$(FUZZ_TIME) -rss_limit_mb=2048 \
	    -max_len=200000 -close_fd_mask=3 -artifact_prefix=$(abspath build)/fuzz-opt- \
	    $(abspath build/fuzz-opt-corpus) $(abspath build/fuzz-opt-seeds) > build/fuzz-opt.log 2>&1; rc=$$?; \
	    grep -E '^Done|ERROR|SUMMARY' build/fuzz-opt.log | tail -3; rm -rf build/fuzz-opt-tmp; \
	    [ $$rc = 0 ] || { tail -40 build/fuzz-opt.log; exit $$rc; }
	@python3 -c 'import os, sys, zlib; exec("for f in sys.argv[2:]:\n d = bytes.fromhex(\"\".join(l for l in open(f) if not l.startswith(\"#\")))\n n = len(zlib.decompress(d)) if d[:1] == b\"x\" else 0\n for sel in range(3): open(os.path.join(sys.argv[1], os.path.basename(f)[:-4] + \"-%d\" % sel), \"wb\").write(bytes([sel, n & 255, n >> 8 & 255]) + d)")' \
	    build/fuzz-z-seeds tests/fixtures/zlib/*.hex
	@./tests/fuzz_z -max_total_time=$(FUZZ_TIME) -rss_limit_mb=2048 -artifact_prefix=$(abspath build)/fuzz-z- \
	    build/fuzz-z-corpus build/fuzz-z-seeds > build/fuzz-z.log 2>&1; rc=$$?; \
	    grep -E '^Done|ERROR|SUMMARY' build/fuzz-z.log | tail -3; \
	    [ $$rc = 0 ] || { tail -40 build/fuzz-z.log; exit $$rc; }
	@mkdir -p build/fuzz-jr-corpus
	@./tests/fuzz_jr -max_total_time=$(FUZZ_TIME) -rss_limit_mb=2048 -max_len=65536 \
	    -artifact_prefix=$(abspath build)/fuzz-jr- build/fuzz-jr-corpus tests/fixtures/json \
	    > build/fuzz-jr.log 2>&1; rc=$$?; grep -E '^Done|ERROR|SUMMARY' build/fuzz-jr.log | tail -3; \
	    [ $$rc = 0 ] || { tail -40 build/fuzz-jr.log; exit $$rc; }
	@rm -rf build/fuzz-pg-seeds && mkdir -p build/fuzz-pg-seeds build/fuzz-pg-corpus
	@python3 -c 'import os, sys; exec("for f in sys.argv[2:]:\n d = bytes.fromhex(\"\".join(l for l in open(f) if not l.startswith(\"#\")))\n open(os.path.join(sys.argv[1], os.path.basename(f)[:-4]), \"wb\").write(d)")' \
	    build/fuzz-pg-seeds tests/fixtures/pgsql/*.hex
	@printf '@postgres://u:p%%41@[::1]:5432/db?sslmode=verify-full&channel_binding=require' > build/fuzz-pg-seeds/url
	@./tests/fuzz_pg -max_total_time=$(FUZZ_TIME) -rss_limit_mb=2048 -artifact_prefix=$(abspath build)/fuzz-pg- \
	    build/fuzz-pg-corpus build/fuzz-pg-seeds > build/fuzz-pg.log 2>&1; rc=$$?; \
	    grep -E '^Done|ERROR|SUMMARY' build/fuzz-pg.log | tail -3; \
	    [ $$rc = 0 ] && echo "fuzz: 5 passed, 0 failed" || { tail -40 build/fuzz-pg.log; exit $$rc; }

tests/noiouring: tests/noiouring.c
	$(CC) $(WARN) -O1 -o $@ tests/noiouring.c

# every system call newer than Linux 3.10 or 4.18 refused (tests/oldkernel.sh)
tests/oldkernel: tests/oldkernel.c
	$(CC) $(WARN) -O1 -o $@ tests/oldkernel.c

# the memory oracle's independent STREAM and pointer chase (tests/memory_oracle.sh). -O3, as
# STREAM is built: at -O2 GCC 12 leaves the loops scalar, and a scalar copy here is bound by
# the core (~40 GB/s on 2 CPUs) where the memory gives ~60: the reference would be wrong
tests/memref: tests/memref.c
	$(CC) $(WARN) -O3 -pthread -o $@ tests/memref.c

# setup first: on a fresh machine it installs the compilers and servers the rest needs; the
# builds (each a full compile of bench.c) run one per core
test:
	@tests/setup.sh
	@t0=$$(date +%s); $(MAKE) -s -j$$(nproc 2>/dev/null || echo 2) bench tests/unit tests/noiouring tests/oldkernel tests/memref san tsan tests/fuzz_my tests/fuzz_opt tests/fuzz_z tests/fuzz_jr tests/fuzz_pg && \
	  echo "== build: ok ($$(($$(date +%s) - t0)) s)"
	tests/run.sh

# mutation testing and coverage: quick glibc builds of their own under build/mutate, build/cov
mutate: $(MBEDTLS_HLIBS)
	sh tests/mutate.sh

coverage: $(MBEDTLS_HLIBS)
	sh tests/coverage.sh

# every script runs, whatever the others did; a failed run or a missing peer (77) fails the whole
perf: bench
	@bad=""; for s in tests/perf/*.sh; do echo "== $$s"; sh $$s; rc=$$?; \
	    [ $$rc = 0 ] || bad="$$bad $$s(exit $$rc)"; done; \
	[ -z "$$bad" ] || { echo "perf: not run to the end:$$bad"; exit 1; }

# check only: the lines .clang-format (derived from the code) would change, counted; nothing
# is rewritten. The code is formatted by hand where clang-format has no matching option
# (tables of rows aligned in columns, bin-packed initialisers, comments aligned across a
# block), so the count is not zero and this is no part of `make test`.
fmt:
	@n=0; for f in bench.c bench.h tests/*.c; do \
	    d=$$(clang-format --style=file "$$f" | diff "$$f" - | grep -c '^<'); \
	    [ "$$d" = 0 ] || echo "fmt: $$f: $$d lines differ"; n=$$((n + d)); done; \
	echo "fmt: $$n lines differ from .clang-format (checked, not rewritten)"

clean:
	rm -rf bench bench-aarch64 tests/unit-aarch64 dist bench-san bench-tsan bench-dev tests/unit tests/noiouring tests/oldkernel tests/memref tests/fuzz_my tests/fuzz_opt tests/fuzz_z tests/fuzz_jr tests/fuzz_pg build/kinc build/kinc-aarch64

distclean: clean
	rm -rf build

.PHONY: all musl-check a64-check apt-source dist dev san tsan clang-check test perf fmt clean distclean fuzz mutate coverage
