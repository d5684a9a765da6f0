# bench - one translation unit (bench.c + bench.h), released as a static musl + mbedTLS binary.
#
#   make            ./bench: x86_64, fully static, stripped (musl-gcc, mbedTLS 2.28.3)
#   make test       the whole suite: unit (ASan/UBSan), golden CLI, sysbench compatibility,
#                   docs sync, ThreadSanitizer runs; installs what it needs when run as root
#   make san        bench-san: glibc build with ASan + UBSan
#   make tsan       bench-tsan: glibc build with ThreadSanitizer
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
             -Wnull-dereference -Wdouble-promotion -Wimplicit-fallthrough
# -Werror in CI (CI=true is set by the CI runner) or on request (make WERROR=1)
ifneq ($(filter true 1,$(CI) $(WERROR)),)
WARN      += -Werror
endif
SAN        = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
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
# sha256_password / caching_sha2_password), ECDHE, AES-GCM, ChaCha20-Poly1305 and SHA-1/256/512.
MBEDTLS_FEATURES = HAVE_ASM HAVE_TIME HAVE_TIME_DATE AESNI_C AES_C ASN1_PARSE_C ASN1_WRITE_C \
  BASE64_C BIGNUM_C CHACHA20_C CHACHAPOLY_C CIPHER_C CIPHER_MODE_CBC CTR_DRBG_C ECDH_C \
  ECDSA_C ECP_C ECP_DP_SECP256R1_ENABLED ECP_DP_SECP384R1_ENABLED ECP_DP_SECP521R1_ENABLED \
  ECP_DP_CURVE25519_ENABLED ECP_NIST_OPTIM ENTROPY_C GCM_C HMAC_DRBG_C \
  KEY_EXCHANGE_ECDHE_RSA_ENABLED KEY_EXCHANGE_ECDHE_ECDSA_ENABLED KEY_EXCHANGE_RSA_ENABLED \
  MD_C OID_C PEM_PARSE_C PK_C PK_PARSE_C PKCS1_V15 PKCS1_V21 POLY1305_C RSA_C SHA1_C \
  SHA256_C SHA512_C SSL_CLI_C SSL_TLS_C SSL_PROTO_TLS1_2 SSL_SERVER_NAME_INDICATION \
  SSL_KEEP_PEER_CERTIFICATE X509_CRT_PARSE_C X509_USE_C VERSION_C FS_IO ERROR_C
MBEDTLS_CFLAGS  = -I$(MBEDTLS_DIR)/include -I$(DEPS) \
                  -DMBEDTLS_CONFIG_FILE='"bench_mbedtls_config.h"' -DBENCH_HAVE_MBEDTLS
# the same sources built with the host compiler, for the glibc test and sanitizer builds
MBEDTLS_HDIR    = $(DEPS)/mbedtls-$(MBEDTLS_VER)-host
MBEDTLS_HLIBS   = $(MBEDTLS_HDIR)/library/libmbedtls.a $(MBEDTLS_HDIR)/library/libmbedx509.a \
                  $(MBEDTLS_HDIR)/library/libmbedcrypto.a
HOST_TLS        = $(MBEDTLS_CFLAGS) $(MBEDTLS_HLIBS)

# musl-gcc hides /usr/include; expose only the kernel UAPI headers (io_uring needs them).
KINC = build/kinc

all: bench

bench: $(SRC) $(MBEDTLS_LIBS) | $(KINC) musl-check
	$(MUSL_CC) $(CPPFLAGS) -isystem $(KINC) $(MBEDTLS_CFLAGS) $(WARN) -O2 \
	    -fstack-protector-strong -static -s -o $@ bench.c $(MBEDTLS_LIBS) $(LDLIBS)
	@! readelf -l $@ | grep -q 'program interpreter' || { echo "make: $@ is not statically linked" >&2; exit 1; }

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
	@command -v apt-get >/dev/null 2>&1 || { echo "make: cannot fetch mbedTLS source: apt-get not found; run: MBEDTLS_TARBALL=/path/to/mbedtls-$(MBEDTLS_VER).tar.gz make" >&2; exit 1; }
	@rm -rf $(DEPS)/apt && mkdir -p $(DEPS)/apt/parts $(DEPS)/apt/lists/partial $(DEPS)/apt/cache/archives/partial
	@for f in /etc/apt/sources.list.d/*.sources; do [ -f "$$f" ] && sed 's/^Types:.*/Types: deb-src/' "$$f" > $(DEPS)/apt/parts/$${f##*/}; done; \
	 for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do [ -f "$$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$$f" >> $(DEPS)/apt/parts/derived.list; done; true
	@echo "make: fetching the mbedtls $(MBEDTLS_DEBVER) Debian source package"
	@A="apt-get -q -o Dir::Etc::SourceParts=$(abspath $(DEPS))/apt/parts -o Dir::Etc::SourceList=/dev/null \
	   -o Dir::State::Lists=$(abspath $(DEPS))/apt/lists -o Dir::Cache=$(abspath $(DEPS))/apt/cache \
	   -o APT::Sandbox::User=root"; \
	 $$A update > $(DEPS)/apt/update.log 2>&1; \
	 cd $(DEPS) && $$A source --download-only mbedtls=$(MBEDTLS_DEBVER) > apt/source.log 2>&1 || \
	   { echo "make: apt-get source mbedtls=$(MBEDTLS_DEBVER) failed (see $(DEPS)/apt/*.log); run: MBEDTLS_TARBALL=/path/to/mbedtls-$(MBEDTLS_VER).tar.gz make" >&2; exit 1; }
	@echo "$(MBEDTLS_SHA256)  $@" | sha256sum -c --quiet - || { echo "make: $@ does not match the pinned sha256 $(MBEDTLS_SHA256)" >&2; rm -f $@; exit 1; }

$(MBEDTLS_DIR)/.unpacked: | $(MBEDTLS_TARBALL)
	@set -e; sum=$$(sha256sum "$(MBEDTLS_TARBALL)" | cut -d' ' -f1); \
	 if [ "$$sum" != "$(MBEDTLS_SHA256)" ]; then \
	   echo "make: note: $(MBEDTLS_TARBALL) is not the pinned Debian tarball (sha256 $$sum); using it as given"; fi
	@rm -rf $(MBEDTLS_DIR) && mkdir -p $(MBEDTLS_DIR)
	@tar xzf "$(MBEDTLS_TARBALL)" -C $(MBEDTLS_DIR) --strip-components=1
	@grep -q '"$(MBEDTLS_VER)"' $(MBEDTLS_DIR)/include/mbedtls/version.h || \
	  { echo "make: $(MBEDTLS_TARBALL) is not mbedtls $(MBEDTLS_VER)" >&2; exit 1; }
	@touch $@

$(MBEDTLS_CFG): Makefile
	@mkdir -p $(DEPS)
	@{ echo '/* generated by the Makefile: the mbedTLS features bench uses */'; \
	   echo '#ifndef BENCH_MBEDTLS_CONFIG_H'; echo '#define BENCH_MBEDTLS_CONFIG_H'; \
	   for f in $(MBEDTLS_FEATURES); do echo "#define MBEDTLS_$$f"; done; \
	   echo '#include "mbedtls/check_config.h"'; echo '#endif'; } > $@

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
	$(CC) $(CPPFLAGS) $(WARN) -O1 -g $(SAN) -o bench-san bench.c $(HOST_TLS) $(LDLIBS)

tsan: $(SRC) $(MBEDTLS_HLIBS)
	$(CC) $(CPPFLAGS) $(WARN) -O1 -g -fsanitize=thread -o bench-tsan bench.c $(HOST_TLS) $(LDLIBS)

tests/unit: tests/unit.c $(wildcard tests/t_*.c) $(SRC) $(MBEDTLS_HLIBS)
	$(CC) $(CPPFLAGS) $(WARN) -Wno-missing-prototypes -O1 -g $(SAN) -o $@ tests/unit.c $(HOST_TLS) $(LDLIBS)

# libFuzzer: tests/fuzz_my over the parsers of server bytes, tests/fuzz_opt over the command
# line and the option files, tests/fuzz_z over the compressed protocol (inflate, frames,
# deflate round trips), tests/fuzz_jr over the JSON reader (reports given to compare/merge).
# FUZZ_TIME seconds each: `make fuzz` runs 4 x 150 s, `make test` a 4 x 20 s slice;
# `make fuzz FUZZ_TIME=3600` runs long.
# Corpora grow in build/fuzz-corpus, build/fuzz-opt-corpus, build/fuzz-z-corpus and
# build/fuzz-jr-corpus.
FUZZ_TIME ?= 150
FUZZ_CC    = clang $(CPPFLAGS) $(WARN) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
tests/fuzz_my: tests/fuzz_my.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_my.c $(HOST_TLS) $(LDLIBS)

tests/fuzz_opt: tests/fuzz_opt.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_opt.c $(HOST_TLS) $(LDLIBS)

tests/fuzz_z: tests/fuzz_z.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_z.c $(HOST_TLS) $(LDLIBS)

tests/fuzz_jr: tests/fuzz_jr.c $(SRC) $(MBEDTLS_HLIBS)
	$(FUZZ_CC) -o $@ tests/fuzz_jr.c $(HOST_TLS) $(LDLIBS)

fuzz: tests/fuzz_my tests/fuzz_opt tests/fuzz_z tests/fuzz_jr
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
	    [ $$rc = 0 ] && echo "fuzz: 4 passed, 0 failed" || { tail -40 build/fuzz-jr.log; exit $$rc; }

tests/noiouring: tests/noiouring.c
	$(CC) $(WARN) -O1 -o $@ tests/noiouring.c

# the memory oracle's independent STREAM and pointer chase (tests/memory_oracle.sh). -O3, as
# STREAM is built: at -O2 GCC 12 leaves the loops scalar, and a scalar copy here is bound by
# the core (~40 GB/s on 2 CPUs) where the memory gives ~60: the reference would be wrong
tests/memref: tests/memref.c
	$(CC) $(WARN) -O3 -pthread -o $@ tests/memref.c

# setup first: on a fresh machine it installs the compilers and servers the rest needs; the
# builds (each a full compile of bench.c) run one per core
test:
	@tests/setup.sh
	@t0=$$(date +%s); $(MAKE) -s -j$$(nproc 2>/dev/null || echo 2) bench tests/unit tests/noiouring tests/memref san tsan tests/fuzz_my tests/fuzz_opt tests/fuzz_z tests/fuzz_jr && \
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
	rm -rf bench bench-san bench-tsan bench-dev tests/unit tests/noiouring tests/memref tests/fuzz_my tests/fuzz_opt tests/fuzz_z tests/fuzz_jr build/kinc

distclean: clean
	rm -rf build

.PHONY: all musl-check dev san tsan test perf fmt clean distclean fuzz mutate coverage
