/*
 * bench.h - the map of bench.c.
 *
 * bench is one translation unit. This header is included by bench.c only (and, through it, by
 * tests/unit.c and the fuzzers). It lists the types shared between sections, the error codes,
 * and every function called from another section than its own (tests/srcmap.py header checks
 * it: make test, suite source), grouped under the banner of the section that defines it. Every
 * function is BENCH_API, i.e. static: nothing leaks out of the binary, and a prototype left
 * here after its function is deleted warns under -Wunused-function.
 *
 * Sections of bench.c (grep -n '^/\*==' bench.c), 29 of them: 1 includes, 2 b_, 3 buf_,
 * 4 clk_/hist_, 5 res_ (results as data), 6 unit_, 7 rnd_, 8 opt_, 9 os_, 10 my_ (MySQL
 * codec), 11 myc_ (MySQL connection: a state machine driven by bytes), 12 pg_ (PostgreSQL
 * codec), 13 pgc_ (PostgreSQL connection), 14 uring_, 15 load_, 16 cpu_/mem_, 17 thr_, 18 jr_
 * (JSON reader), 19 io_ (fileio), 20 evl_ (the event loop of many client connections per
 * thread), 21 oltp_, 22 slap_, 23 wl_, 24 ping_/sizing_ (commands of their own), 25 all_,
 * 26 mrg_ (bench merge), 27 cmp_ (bench compare), 28 rep_, 29 cli_. The banners here carry the same numbers; they follow bench.c's order where the
 * types allow (res_'s types need load_'s and jr_'s, so its banner comes after them). Types
 * used by one section only (the codec's packets, the connection, the io_uring ring) are
 * declared at the top of it in bench.c; a prototype here names them as incomplete structs
 * (the "defined in bench.c" lines).
 *
 * Ownership: parsers return views into the caller's buffer, valid until it is reused.
 * x_new returns heap memory that x_free releases. A function that takes ownership of an
 * argument says so in its doc block. Lower layers never print; they return a code and, where
 * there is more to say, fill a struct b_err. Only the cli_ and rep_ sections print.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>

#define BENCH_API static

/*== 2 b_ : basics, error codes, messages ===================================*/

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t i64;

#define countof(a) (sizeof(a) / sizeof((a)[0]))
#define B_MIN(a, b) ((a) < (b) ? (a) : (b))
#define B_MAX(a, b) ((a) > (b) ? (a) : (b))
#define B_MUSTCHECK __attribute__((warn_unused_result))
#define B_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define B_CACHELINE 64
#define B_UNUSED __attribute__((unused))

/* Invariants, SQLite's way: B_ASSERT(x) states what must hold; ALWAYS(x) / NEVER(x) wrap the
 * test of a case that cannot happen but is handled all the same (the branch stays in release
 * builds). With BENCH_ASSERT defined (make san, make tsan, tests/unit, the coverage and mutant
 * builds) a broken invariant aborts with its place and text (b_assert_fail); without it
 * (release) B_ASSERT is nothing and ALWAYS(x) / NEVER(x) are (x). */
#ifdef BENCH_ASSERT
#define B_ASSERT(x) ((x) ? (void)0 : b_assert_fail(__FILE__, __LINE__, #x))
#define ALWAYS(x) ((x) ? 1 : (b_assert_fail(__FILE__, __LINE__, #x), 0))
#define NEVER(x) ((x) ? (b_assert_fail(__FILE__, __LINE__, #x), 1) : 0)
#else
#define B_ASSERT(x) ((void)0)
#define ALWAYS(x) (x)
#define NEVER(x) (x)
#endif
/* b_assert_fail - says a broken invariant (file, line, its text) on stderr and aborts. */
BENCH_API void b_assert_fail(const char *file, int line, const char *what)
    __attribute__((noreturn));

/* Internal result codes: 0 is success, errors are negative. X(name, value, text). */
#define B_ERRORS(X)                                                                          \
    X(B_OK, 0, "success")                                                                    \
    X(B_AGAIN, -1, "would block or needs more input")                                        \
    X(B_SYSERR, -2, "system call failed (see errno)")                                        \
    X(B_TRUNCATED, -3, "truncated input")                                                    \
    X(B_PROTOCOL, -4, "protocol violation")                                                  \
    X(B_SERVER, -5, "server returned an error")                                              \
    X(B_TIMEOUT, -6, "timed out")                                                            \
    X(B_UNSUPPORTED, -7, "not supported")                                                    \
    X(B_INVALID, -8, "invalid value")                                                        \
    X(B_NOMEM, -9, "out of memory")                                                          \
    X(B_DONE, -10, "no more events")                                                         \
    X(B_INTR, -11, "interrupted by a signal")

enum b_rc {
#define B_ENUM(name, value, text) name = value,
    B_ERRORS(B_ENUM)
#undef B_ENUM
};

/* Process exit codes (docs/cli.md "Exit status"). */
enum b_exit {
    B_EXIT_OK = 0,         /* success */
    B_EXIT_FAIL = 1,       /* the run failed or its result is invalid */
    B_EXIT_USAGE = 2,      /* usage error: bad option, value or argument */
    B_EXIT_ENV = 3,        /* the environment refused: connect, auth, open, io_uring, memory */
    B_EXIT_FORCED = 2,     /* sysbench's code for --forced-shutdown (same value as usage) */
    B_EXIT_WARN = 4,       /* bench all: the page ran, some check WARN, none FAIL */
    B_EXIT_CHECK_FAIL = 5, /* bench all: the page ran, some check (or --expect term) FAIL */
    B_EXIT_NO_MEASURE = 6, /* bench all: an --expect term names no measure it makes (a typo) */
    B_EXIT_NONE = -1,      /* never an exit status: keeps the type signed, as the int exit()
                              takes (the personas' own codes, 128 + a signal, are values too) */
};

/* The personas: who bench is for this invocation, decided once by cli_ from argv[0]. Their
 * differences (banner, message prefixes and streams, exit codes, help) live in one table in
 * cli_ (cli_personas); lower sections never test it, they fill a struct b_err with both
 * wordings where sysbench's own differs. */
enum b_persona { B_BENCH, B_SYSBENCH, B_MYSQLSLAP };

/* Error detail filled by lower layers; only cli_/rep_ print it (cli_err_print). */
struct b_err {
    enum b_rc rc;   /* B_* code */
    int sys_errno;  /* errno for B_SYSERR, else 0 */
    char msg[512];  /* "what was attempted on what target: cause" (lines: '\n' between) */
    char hint[256]; /* what to do about it, or "" */
    enum b_exit ex; /* the bench persona's exit code for it (0: the caller decides) */
    char sb[1536];  /* the sysbench persona's own text, printed verbatim (lines end in '\n');
                       "" = "FATAL: <msg>"; room for a test's option list (fileio) */
    int sb_fd;      /* where that text goes: 1 = sysbench's logger (stdout), 2 = stderr */
    enum b_exit sb_ex; /* the sysbench persona's exit code (0: as ex) */
};

/* b_msg_fn - prints one message line of a kind (enum b_msg_kind in bench.c): the persona's
 * prefix, stream and newline around fmt (cli_ sets it in struct bench_opts.msg_print). */
typedef void b_msg_fn(int kind, const char *fmt, va_list ap);

/* b_errname - symbolic name of a B_* code ("B_TRUNCATED"). */
BENCH_API const char *b_errname(int rc);
/* b_errstr - text of a B_* code for people. */
BENCH_API const char *b_errstr(int rc);
/* b_errno_name - symbolic errno ("ECONNREFUSED"), or "E?" when unknown. */
BENCH_API const char *b_errno_name(int e);
/* b_seterr - fill *e (may be NULL) with rc, errno and a formatted message; returns rc. */
/* Return values: rc, whatever it is (for `return b_seterr(...)`). */
BENCH_API enum b_rc b_seterr(struct b_err *e, int rc, int sys_errno, const char *fmt, ...)
    B_PRINTF(4, 5) B_MUSTCHECK;
/* b_fail - fill *e for a refusal in the bench persona's words and exit code ex (B_EXIT_*);
 * e->rc becomes B_INVALID unless set. Returns ex. */
/* Return values: ex, whatever it is (for `return b_fail(...)`). */
BENCH_API enum b_exit b_fail(struct b_err *e, int ex, const char *fmt, ...) B_PRINTF(3, 4);
/* b_hint - the hint of e ("" = none). */
BENCH_API void b_hint(struct b_err *e, const char *fmt, ...) B_PRINTF(2, 3);
/* b_fail_sb - the sysbench persona's own text for the failure in e (printed as is: end it with
 * '\n'), its stream (1 stdout, 2 stderr) and exit code. */
BENCH_API void b_fail_sb(struct b_err *e, int fd, int ex, const char *fmt, ...) B_PRINTF(4, 5);
/* b_usage_exit - the exit code of a usage error in the persona's convention (opts.usage_ex,
 * set by cli_ from its persona table; 2 before that). */
/* Return values: B_EXIT_USAGE, or the persona's own code for a usage error. */
BENCH_API enum b_exit b_usage_exit(void);
/* b_die - print "bench: fatal: ..." and exit(1); for programming errors and OOM during setup. */
BENCH_API _Noreturn void b_die(const char *fmt, ...) B_PRINTF(1, 2);
/* b_xmalloc/b_xcalloc - allocation that dies on failure (setup time only). */
BENCH_API void *b_xmalloc(size_t n);
BENCH_API void *b_xcalloc(size_t n, size_t size);

/* The smallest kept block of lo..hi bytes (its size in *cap), or NULL. */
BENCH_API void *b_spare_take(size_t lo, size_t hi, size_t *cap);
/* Keep p (cap bytes from malloc) for a b_spare_take, or free it when the spares are full. */
BENCH_API void b_spare_give(void *p, size_t cap);
/* b_xstrdup - strdup that dies on failure (setup time only). */
BENCH_API char *b_xstrdup(const char *s);
/* b_msg - one message line of a kind, through opts.msg_print (the persona's words); nothing
 * before cli_ set it. */
BENCH_API void b_msg(int kind, const char *fmt, ...) B_PRINTF(2, 3);

/*== 3 buf_ : growable byte buffer ==========================================*/

struct buf {
    char *p;     /* bytes, always NUL-terminated when cap > 0 */
    size_t len;  /* used bytes */
    size_t cap;  /* allocated bytes */
};

/* buf_printf - append formatted text. Dies on OOM (setup and report paths only). */
BENCH_API void buf_printf(struct buf *b, const char *fmt, ...) B_PRINTF(2, 3);
/* buf_free - release the buffer and zero it. */
BENCH_API void buf_free(struct buf *b);

/* buf_reserve - room for n more bytes, doubling; dies on OOM. Buffers reused across queries
 * stop growing after the first ones, so the measured loop does not allocate. */
BENCH_API void buf_reserve(struct buf *b, size_t n);
/* buf_put - append n bytes (kept NUL-terminated). */
BENCH_API void buf_put(struct buf *b, const void *p, size_t n);

/*== 4 clk_, hist_ : clock and latency histogram ============================*/

/* clk_now_ns - CLOCK_MONOTONIC in nanoseconds. */
BENCH_API u64 clk_now_ns(void);

/*
 * Log-linear histogram of nanosecond values: values below 2^HIST_SUB_BITS are exact, above
 * that each power of two is split into 2^(HIST_SUB_BITS-1) linear buckets, so a bucket is at
 * most 1/128 of its lower bound wide and its midpoint is within 0.4% of any value in it.
 * Counters are relaxed atomics written by one thread and read by the reporter.
 */
#define HIST_SUB_BITS 8
#define HIST_MAX_EXP 42 /* values >= 2^42 ns (73 minutes) land in the last bucket */
#define HIST_NBUCKETS                                                                        \
    ((1u << HIST_SUB_BITS) + (HIST_MAX_EXP - HIST_SUB_BITS) * (1u << (HIST_SUB_BITS - 1)))

struct hist {
    _Atomic u64 count[HIST_NBUCKETS];
};

/* hist_index - bucket of value v (ns). */
BENCH_API unsigned hist_index(u64 v);
/* hist_bucket_lo/hi - smallest value in bucket i, and one past the largest. */
BENCH_API u64 hist_bucket_lo(unsigned i);
BENCH_API u64 hist_bucket_hi(unsigned i);
/* hist_record - add one value; only the owning thread calls it. */
BENCH_API void hist_record(struct hist *h, u64 v);
/* hist_add - dst += src (merging); hist_sub - dst -= src (interval from snapshots). */
BENCH_API void hist_add(struct hist *dst, const struct hist *src);
BENCH_API void hist_sub(struct hist *dst, const struct hist *src);
/* hist_total - number of values. */
BENCH_API u64 hist_total(const struct hist *h);
/* hist_percentile - nearest-rank percentile p (0 < p <= 100) as a bucket midpoint, clamped to
 * [min, max] when those are given (pass 0 and UINT64_MAX otherwise); 0 when empty. */
BENCH_API u64 hist_percentile(const struct hist *h, double p, u64 min, u64 max);

/* clk_sleep_until - sleep until clk_now_ns() reaches t_ns (signals do not cut it short). */
BENCH_API void clk_sleep_until(u64 t_ns);

/*== 6 unit_ : sizes ========================================================*/

/* unit_parse_size - sysbench SIZE: digits plus an optional K/M/G/T (either case, x1024).
 * Stricter than sysbench: returns B_INVALID for anything else (sysbench silently gives 0). */
/* Return values: B_OK; B_INVALID when s is not a size (*out untouched). */
BENCH_API enum b_rc unit_parse_size(const char *s, u64 *out) B_MUSTCHECK;
/* unit_fmt_size - "512KiB", "16MiB": up to 5 significant digits, as sysbench prints sizes. */
BENCH_API const char *unit_fmt_size(u64 bytes, char *out, size_t outlen);

/* unit_num - the shortest text that reads back as exactly v, without an exponent for
 * values from 1e-4 up: "99.99999" where %g says "100", "99.9", "95". */
BENCH_API const char *unit_num(char *out, size_t n, double v);

/*== 7 rnd_ : random numbers (sysbench 1.0.20 algorithms) ===================*/

struct rnd {
    u64 s[2];  /* xoroshiro128+ state */
};

enum rnd_type { RND_UNIFORM, RND_GAUSSIAN, RND_SPECIAL, RND_PARETO, RND_ZIPFIAN };

/* Distribution parameters, copied from the options once before the run. */
struct rnd_params {
    int type;        /* enum rnd_type */
    int spec_iter;   /* --rand-spec-iter */
    int spec_pct;    /* --rand-spec-pct */
    int spec_res;    /* --rand-spec-res */
    double pareto_h; /* --rand-pareto-h */
    double pareto_p; /* ln(h)/ln(1-h), precomputed */
    double zipf_e;   /* --rand-zipfian-exp */
    double zipf_hx1; /* H(1.5) - 1, precomputed */
    double zipf_s;   /* 2 - Hinv(H(2.5) - h(2)), precomputed */
};

/* rnd_libc_srandom, rnd_libc_random - glibc's srandom()/random() (TYPE_3), musl or not. */
BENCH_API void rnd_libc_srandom(unsigned seed);
BENCH_API long rnd_libc_random(void);
/* rnd_seed - seed from two glibc random() calls per word, as sysbench does. */
BENCH_API void rnd_seed(struct rnd *r);
/* sysbench.rand.unique(): a permutation of the uint32 range, no repeats for 2^32 calls */
struct rnd_unique {
    _Atomic u32 next; /* draws so far (this client's) */
    u32 base, offset; /* rand_unique_seed's permuted index and offset */
    u32 lane, stride; /* --client-index, --client-count: indices base + lane + k * stride */
};
BENCH_API void rnd_unique_init(struct rnd_unique *u, u32 index, u32 offset);
BENCH_API void rnd_unique_seed(struct rnd_unique *u, unsigned seed);
BENCH_API void rnd_unique_lane(struct rnd_unique *u, u32 lane, u32 stride);
BENCH_API u32 rnd_unique(struct rnd_unique *u);
/* glibc's random() on a private stream (the process-wide one is rnd_libc_*) */
struct rnd_glibc {
    int f, r;  /* glibc's fptr and rptr, as indices */
    u32 s[31]; /* int32_t state[31] */
};
BENCH_API void rnd_glibc_srandom(struct rnd_glibc *g, unsigned seed);
BENCH_API u32 rnd_glibc_random(struct rnd_glibc *g);
BENCH_API unsigned rnd_client_seed(u64 seed, i64 index);
/* rnd_next - next 64-bit output of xoroshiro128+. */
BENCH_API u64 rnd_next(struct rnd *r);
/* rnd_double - uniform double in [0, 1). */
BENCH_API double rnd_double(struct rnd *r);
/* rnd_params_init - fill *p from type and parameters; precomputes derived constants. */
BENCH_API void rnd_params_init(struct rnd_params *p, int type, int iter, int pct, int res,
                               double pareto_h, double zipf_e);
/* rnd_uniform - uniform integer in [a, b]. */
BENCH_API u32 rnd_uniform(struct rnd *r, u32 a, u32 b);
/* rnd_default - integer in [a, b] from the distribution in *p (sysbench.rand.default). */
BENCH_API u32 rnd_default(struct rnd *r, const struct rnd_params *p, u32 a, u32 b);

/* Exponential gap with mean 1/rate seconds, in ns: the Poisson arrivals of --rate. */
BENCH_API u64 rnd_exp_gap_ns(struct rnd *r, double rate);

/*== 8 opt_ : option tables, parser, help ===================================*/

enum opt_type { OPT_INT, OPT_SIZE, OPT_BOOL, OPT_STR, OPT_ENUM, OPT_LIST, OPT_DOUBLE, OPT_FILE };

enum opt_flags {
    OPT_F_NODEF = 1,      /* help shows no [default] */
    OPT_F_EXT = 2,        /* a bench extension: hidden in the sysbench persona's help */
    OPT_F_DEPRECATED = 4, /* deprecated alias */
    OPT_F_NOHELP = 8,     /* accepted, never listed (0.4 names) */
    OPT_F_SBLATE = 16,    /* sysbench persona: its bounds error comes after the banner */
    OPT_F_SBHINT_N = 32,  /* sysbench persona: help shows "=N" (bench takes a list) */
    OPT_F_LUA = 64,       /* a Lua script option: help shows it with underscores */
};

/* One typed, bounded option. Rows stay in sysbench's help order (tables are short, so lookup
 * is linear); a test checks that names are unique across all tables. */
struct opt_def {
    const char *name;     /* with dashes: "cpu-max-prime" */
    int type;             /* enum opt_type */
    size_t off;           /* offsetof(struct bench_opts, field) */
    const char *def;      /* default as text, parsed like a user value */
    double lo, hi;        /* bounds for INT/SIZE/DOUBLE */
    const char *choices;  /* ENUM: "a,b,c|d" (after '|': bench only); STR: NULL */
    const char *help;     /* sysbench's description; "%C" expands to {choices} */
    const char *sb_bad;   /* sysbench persona's FATAL for a bad value: "%s" as given,
                             "%u" sysbench's size reading, "%f" the number (cli_sb_bad) */
    int flags;            /* enum opt_flags */
};

enum opt_format { OPT_FMT_TEXT, OPT_FMT_JSON }; /* --format */

#define OPT_MAX_PCT 8   /* --percentile list entries */
#define OPT_MAX_CKPT 256 /* --report-checkpoints entries, as sysbench */

/* All option values; written once by cli_, read-only afterwards. */
struct bench_opts {
    /* general */
    i64 threads, events, time_s, rate, report_interval, warmup_time;
    u64 thread_stack_size;
    char *forced_shutdown, *report_checkpoints, *config_file, *percentile_list;
    bool debug, validate, help, version, histogram;
    i64 tx_rate, max_requests, max_time, num_threads; /* deprecated aliases */
    char *test_alias;                                 /* --test=NAME (0.4 syntax) */
    int format;                                       /* --format: 0 text, 1 json */
    char *output;                                     /* --output=FILE, "" = stdout */
    char *start_at;                                   /* --start-at=TIME, "" = none */
    bool start_at_force;                              /* --start-at-force */
    /* random numbers */
    int rand_type;
    i64 rand_spec_iter, rand_spec_pct, rand_spec_res, rand_seed;
    double rand_pareto_h, rand_zipfian_exp;
    i64 client_index, client_count, client_wait; /* --client-index, --client-count (0: none) */
    /* log */
    i64 verbosity;
    /* cpu */
    i64 cpu_max_prime;
    /* memory */
    u64 memory_block_size, memory_total_size;
    int memory_scope, memory_oper, memory_access_mode;
    bool memory_hugetlb;
    int memory_mode;              /* --memory-mode: sysbench, stream, latency */
    i64 memory_passes;            /* --memory-passes (stream) */
    /* threads, mutex */
    i64 thread_yields, thread_locks, mutex_num, mutex_locks, mutex_loops;
    int threads_mode;             /* --threads-mode: sysbench, pingpong */
    i64 thread_round_trips;       /* --thread-round-trips (pingpong) */
    /* database */
    char *db_driver, *mysql_host, *mysql_port, *mysql_socket, *mysql_user, *mysql_password;
    char *mysql_db, *mysql_ssl_cipher, *mysql_ignore_errors, *ssl_mode, *ssl_ca, *ssl_cert;
    char *ssl_key, *server_pubkey, *defaults_file, *defaults_extra_file;
    char *ssl_capath, *ssl_crl, *ssl_crlpath, *ssl_cipher, *tls_version; /* the clients' TLS keys */
    bool ssl_on;                  /* --ssl (the mariadb client's; --skip-ssl: off) */
    bool ssl_set;                 /* --ssl or --skip-ssl was given */
    bool ssl_verify_server_cert;  /* --ssl-verify-server-cert: VERIFY_IDENTITY, never less */
    char *mysql_compression_algorithms; /* --mysql-compression-algorithms */
    int db_ps_mode;
    int mysql_protocol; /* --mysql-protocol: MYC_PROTO_AUTO, _TCP, _SOCKET (cli_ resolves auto
                           for the bench and mysqlslap personas: cli_protocol) */
    bool mysql_protocol_by_port; /* set by cli_: TCP because a port was given (the hint) */
    bool db_debug, mysql_ssl, mysql_compression, mysql_debug, mysql_dry_run, no_defaults;
    i64 mysql_connect_timeout, mysql_io_timeout;
    bool outage_report;  /* --outage-report: each client's outages, errors by class, recovery */
    bool verify_writes;  /* --verify-writes: a ledger of acknowledged writes, checked after */
    i64 reconnect_timeout; /* --mysql-reconnect-timeout: s a client tries to come back, 0: the
                              run's end */
    i64 event_loops; /* --event-loops: 0 = a thread per connection, -1 = auto (usable CPUs) */
    char *event_loops_arg; /* --event-loops as given: "auto" or a number (cli_ sets the above) */
    int event_backend; /* --event-backend: EVL_BE_EPOLL, EVL_BE_URING, EVL_BE_AUTO */
    bool event_backend_set; /* set by cli_: --event-backend was given */
    bool event_loops_set;   /* set by cli_: --event-loops was given */
    u64 max_allowed_packet;       /* --max-allowed-packet: cap of one packet from the server */
    bool get_server_pubkey;       /* --get-server-public-key: RSA key request over plain TCP */
    bool debug_proto;             /* --debug=proto: hex dump of every packet */
    void (*proto_trace)(void *ctx, const char *line); /* where cli_ prints those lines */
    bool password_prompt;         /* -p or --password without a value */
    bool mysql_db_set;            /* --mysql-db (-D) was given */
    bool mysql_ssl_set;           /* --mysql-ssl was given */
    bool tls_preferred;           /* TLS default PREFERRED (ping, the one-liner), not DISABLED */
    /* ping */
    i64 ping_count;
    /* PostgreSQL (ping): "" = not given */
    char *pgsql_url, *pgsql_host, *pgsql_port, *pgsql_user, *pgsql_password, *pgsql_db;
    char *pgsql_sslmode, *pgsql_sslrootcert, *pgsql_channel_binding, *pgsql_sslnegotiation;
    i64 pgsql_connect_timeout, pgsql_io_timeout;
    char *pgsql_ignore_errors;    /* the pgsql workloads: SQLSTATEs, or "all" */
    bool pgsql_copy;              /* the pgsql workloads' prepare loads with COPY */
    bool pgsql_pipeline;          /* the pgsql workloads' transactions as one pipeline each */
    /* oltp */
    i64 oltp_tables, oltp_table_size, oltp_range_size, oltp_point_selects, oltp_simple_ranges;
    i64 oltp_sum_ranges, oltp_order_ranges, oltp_distinct_ranges, oltp_index_updates;
    i64 oltp_non_index_updates, oltp_delete_inserts, oltp_random_points, oltp_number_of_ranges;
    i64 oltp_delta;
    bool oltp_range_selects, oltp_auto_inc, oltp_skip_trx, oltp_secondary, oltp_create_secondary;
    char *oltp_engine, *oltp_pgsql_variant, *oltp_legacy_table;
    i64 sizing_max_threads, sizing_step_time; /* bench oltp (the one-liner) */
    char *oltp_test_mode, *oltp_nontrx_mode;  /* sysbench 0.4's --test=oltp */
    bool oltp_read_only;
    bool sizing_tables_set, sizing_rows_set;   /* --tables / --table-size were given */
    double sizing_budget_s; /* not an option: the one-liner's time budget (0: 85 s; bench all
                             * sets its own) */
    bool sizing_existing; /* not an option: bench all's ladder may work in a schema that exists
                           * (its own tables only; the schema stays): sizing_own_tables */
    const char *pgsql_schema; /* not an option: the pgsql workloads' search_path (the
                               * one-liner's and bench all's own schema); NULL: the server's */
    const char *own_mark; /* not an option: the COMMENT of the tables bench makes (NULL:
                           * "created by bench"; bench all's ladder: "created by bench all",
                           * so a dataset prepared with bench is never taken for its leftover) */
    bool sb_behaviour; /* set by cli_ from the persona's row: behave as sysbench 1.0.20 where
                          bench deliberately differs (docs/cli.md): fileio's zero fill and
                          lenient file checks, TLS off unless asked. Lower sections read this,
                          never the persona. */
    /* tpcc (sysbench-tpcc's tpcc.lua; --tables is oltp_tables, --mysql-storage-engine
     * oltp_engine) */
    i64 tpcc_scale, tpcc_use_fk, tpcc_force_pk;
    char *tpcc_trx_level, *tpcc_enable_purge, *tpcc_report_csv, *tpcc_pgsql_schema;
    char *tpcc_table_options, *tpcc_splittable;
    char *tpcc_mode;           /* "sysbench" (tpcc.lua's closed loop) or "spec" (terminals) */
    i64 tpcc_terminals;        /* spec: terminals, 0 = 10 per warehouse */
    double tpcc_time_scale;    /* spec: keying and think times multiplied by this */
    double tpcc_limit_scale;   /* spec: the response-time limits multiplied by this (tests) */
    /* bench all */
    bool all_quick, all_thorough;
    char *all_expect, *all_expect_file;       /* --expect, --expect-file */
    char *all_html;                           /* --html=FILE */
    char *all_list;                           /* --list=measures|checks */
    u64 all_server_ram;                       /* --server-ram: the DB host's RAM (0: unknown) */
    i64 all_server_cpus;                      /* --server-cpus: the DB host's CPUs (0: unknown) */
    i64 all_step_ms;     /* not an option: bench all's length of a timed step in ms (> 0:
                          * instead of time_s; time_s stays its ceiling in whole seconds) */
    double mem_lat_min_s; /* not an option: latency mode's seconds of loads per size (0: 0.02) */
    bool mem_lat_nothp;   /* not an option: latency mode without its huge-page pass */
    bool time_set;        /* set by cli_: --time was given (the memory modes stop at it) */
    /* bench compare */
    double cmp_noise_pct;                     /* --noise */
    bool db_given;    /* set by cli_: a mysql option, MYSQL_PWD or an option file named one */
    bool db_driver_set;        /* set by cli_: --db-driver was given */
    const char *pgsql_given;   /* set by cli_: the first --pgsql-* option given (its name) */
    const char *mysql_given;   /* set by cli_: the first --mysql-* option on the command line */
    bool own_tables;  /* set by cli_ (the bench persona): OLTP tables carry the COMMENT
                         'created by bench' marker, and bench writes to, drops or undoes only
                         tables with it (or sysbench's exact definition, said so); off
                         (sysbench): no marker, sysbench's definition is ownership, no check
                         connection before a run, an interrupted prepare leaves its table */
    bool sig_kills;   /* set by cli_ (the sysbench persona): a signal ends an OLTP command as it
                         kills sysbench: exit 128 + signal, no message */
    /* fileio */
    i64 file_num, file_async_backlog, file_fsync_freq, file_merged_requests, file_queue_depth;
    u64 file_block_size, file_total_size;
    char *file_test_mode, *file_extra_flags, *file_dir, *file_fill;
    int file_io_mode, file_fsync_mode;
    bool file_fsync_all, file_fsync_end, file_io_mode_strict;
    double file_rw_ratio;

    /* slap (mysqlslap mode) */
    bool slap_auto, slap_autoinc, slap_guid, slap_only_print, slap_no_drop, slap_silent;
    bool slap_debug_info, slap_force_drop, slap_latency;
    char *slap_load_type, *slap_int_cols, *slap_char_cols, *slap_query, *slap_create;
    char *slap_schema, *slap_delimiter, *slap_concurrency, *slap_engine, *slap_pre_query;
    char *slap_post_query, *slap_csv, *slap_init_command, *slap_sql_mode;
    char *slap_pre_system, *slap_post_system; /* --pre-system, --post-system: sh -c CMD */
    i64 slap_secondary, slap_unique_query, slap_unique_write, slap_write_number;
    i64 slap_execute_number, slap_queries, slap_iterations, slap_commit, slap_detach;
    i64 slap_verbose;

    /* derived by cli_ after parsing */
    int persona;                  /* enum b_persona, from argv[0] (cli_personas) */
    bool sb;                      /* persona == B_SYSBENCH: kept in sync for code not yet on
                                     persona; cli_ and sections 1-9 (to os_) do not read it */
    int usage_ex;                 /* the persona's exit code for a usage error (b_usage_exit) */
    bool ext_off;                 /* the persona refuses bench's extension values (ENUM
                                     choices after '|'): sysbench's */
    b_msg_fn *msg_print;          /* prints b_msg's lines in the persona's words (cli_) */
    int npct;                     /* number of percentiles; 0 disables */
    double pct[OPT_MAX_PCT];      /* the percentiles */
    int nckpt;                    /* number of checkpoints */
    double ckpt[OPT_MAX_CKPT];    /* checkpoint times, seconds from start */
    double forced_s;              /* seconds after --time before forced shutdown; <0 off */
    const char **files;           /* set by cli_: the file operands of a test that takes them
                                     (bench merge|compare A.json B.json), [nfiles] */
    int nfiles;
    i64 start_at_unix_ns;         /* --start-at as CLOCK_REALTIME ns (load_start_at_parse);
                                     0 = none */
    struct rnd_params rnd;        /* distribution */
    FILE *msg_out;                /* --verbosity < 3: where messages go (stdout is muted) */
};

/* Parse results, with the information the cli_ messages need. */
enum opt_rc { OPT_OK = 0, OPT_UNKNOWN = -1, OPT_BADVAL = -2, OPT_RANGE = -3 };

/* opt_find - look a name up (dashes or underscores) in a table; NULL if absent. */
BENCH_API const struct opt_def *opt_find(const struct opt_def *t, size_t n, const char *name,
                                         size_t namelen);
/* opt_set - parse text into the row's field of *o. Returns enum opt_rc. */
BENCH_API int opt_set(const struct opt_def *d, struct bench_opts *o, const char *val) B_MUSTCHECK;
/* opt_help_text - one help block in sysbench's layout, appended to b (rep_opt_help prints
 * it). */
BENCH_API void opt_help_text(struct buf *b, const struct opt_def *t, size_t n, bool sb);
/* opt_edit_distance - Levenshtein distance, for "did you mean". */
BENCH_API size_t opt_edit_distance(const char *a, size_t alen, const char *b, size_t blen);

/* Compare an option name from the command line (dashes or underscores) with a row name. */
BENCH_API bool opt_name_eq(const char *row, const char *name, size_t namelen);
/* opt_parse_i64 - v as a decimal i64: OPT_OK, or OPT_BADVAL for anything else. */
BENCH_API int opt_parse_i64(const char *v, i64 *out);
/* Set every row of a table to its default. */
BENCH_API void opt_defaults(const struct opt_def *t, size_t n, struct bench_opts *o);
/* Free the strings a table's rows own in *o (STR, LIST, FILE). */
BENCH_API void opt_free_strings(const struct opt_def *t, size_t n, struct bench_opts *o);
/* "an integer 1..4096" - what a row accepts, for error messages. */
BENCH_API void opt_expect(struct buf *b, const struct opt_def *d, bool sb);
/* opt_file_read_by - the option of o that reads the file at path (--expect-file, --defaults-file,
 * --defaults-extra-file, --config-file; same device and inode, a regular file), or NULL:
 * writing a report there would destroy the user's file (bench all would read no terms). */
BENCH_API const char *opt_file_read_by(const struct bench_opts *o, const char *path,
                                       const char **named);

/*== 9 os_ : threads, signals, host facts ===================================*/

struct res;

/* One reading of /proc/stat's aggregate cpu line, in clock ticks (USER_HZ). */
struct os_cpu_sample {
    u64 total_ticks;   /* user + nice + system + idle + iowait + irq + softirq + steal */
    u64 idle_ticks;    /* idle + iowait */
    u64 steal_ticks;   /* time a hypervisor ran something else while we wanted the CPU */
    u64 busy_ticks;    /* user + nice + system: processes ran (not interrupts, not steal) */
};

/* os_host_facts - the host's facts into res (res_fact_*; the key names the unit): CPU,
 * caches, NUMA, frequency, features, memory, huge pages, swap, dirty ratios, kernel, clock
 * source, virtualization, container, cgroup limits. Every /proc and /sys path is read as
 * root + path; root "" is the running system (then also CPUID, uname, sched_getaffinity).
 * A missing or malformed file leaves its fact out. Return values: B_OK. */
BENCH_API enum b_rc os_host_facts(const char *root, struct res *res) B_MUSTCHECK;
/* os_dir_facts - the facts of directory dir (for --dir): its mount (type, source, options,
 * read-only, tmpfs), block device chain down to the disk and the disk's scheduler,
 * rotational, write cache and model; free space (root "" only). Under a fake root, dir is
 * taken as an absolute path of that tree. Return values: B_OK; B_SYSERR (dir cannot be
 * resolved, live) or B_INVALID (not absolute, fake root), with res->err filled. */
BENCH_API enum b_rc os_dir_facts(const char *root, const char *dir, struct res *res) B_MUSTCHECK;
/* os_cg_mem_room - the memory this process may still take before its cgroup's memory limit
 * (v2 memory.max or v1 memory.limit_in_bytes, the tightest of its cgroup and their ancestors)
 * is reached: the limit less the working set (usage less the inactive page cache) into
 * *room, the limit into *limit. Under root as os_host_facts. false: no limit applies. */
BENCH_API bool os_cg_mem_room(const char *root, double *room, double *limit);
/* os_steal_sample - read /proc/stat's cpu line (under root). Return values: B_OK;
 * B_SYSERR (unreadable); B_INVALID (malformed). */
BENCH_API enum b_rc os_steal_sample(const char *root, struct os_cpu_sample *s) B_MUSTCHECK;
/* os_steal_pct - steal time between samples a and b (b later) in percent of all CPU time;
 * 0 when no time passed or the counters went backwards. */
BENCH_API double os_steal_pct(const struct os_cpu_sample *a, const struct os_cpu_sample *b);

/* defined in bench.c */
struct os_host; struct os_fb_def; struct os_fsinfo;
BENCH_API void os_install_signals(void);
/* os_stop_signame - the signal that set b_stop, for messages. */
BENCH_API const char *os_stop_signame(void);
/* os_thread_start - pthread_create with an explicit stack size. Returns 0 or an errno. */
BENCH_API int os_thread_start(pthread_t *tid, size_t stack_bytes, void *(*fn)(void *), void *arg);
/* os_probe_syscall_ns - ns of a trivial system call (getppid through syscall(2): no cache). */
BENCH_API double os_probe_syscall_ns(void);
/* os_probe_pair_ns - ns of a 64-byte send and its recv over a unix socketpair, as system
 * calls (what a thread per connection and an epoll loop pay per statement); 0 on failure. */
BENCH_API double os_probe_pair_ns(void);
/* os_read_line - first line of a small /proc or /sys file, in a static buffer; "?" if absent. */
BENCH_API const char *os_read_line(const char *path);
/* os_host_get - fill *h; unknown parts are "" and 0. */
BENCH_API void os_host_get(struct os_host *h);
/* os_fallback - the call `which` (os_fb_defs' index) refused with err, `way` (OS_FB_W_*) taken
 * instead: recorded when err is ENOSYS or EPERM (true), else not a kernel fallback (false). */
BENCH_API bool os_fallback(int which, int err, int way);
/* os_fallback_fact - the facts "fallbacks" ("statx, io_uring") and, per call, "fallback_CALL"
 * (its errno and ways: "EPERM: sync file I/O, event loops on epoll") on res, when taken. */
BENCH_API void os_fallback_fact(struct res *res);
/* os_fallback_fact_on - os_fallback_fact for the kernel release `release` (uname's there):
 * also "fallback_CALL_why", os_fallback_why's for the call's first errno. */
BENCH_API void os_fallback_fact_on(struct res *res, const char *release);
/* os_fallback_why - why the call `which` was refused with err on the kernel release (uname's
 * "6.18.44-fc-v1300"), into out: EPERM "refused by policy (seccomp, container ...)"; ENOSYS
 * below the call's version "the kernel has no io_uring (Linux 5.1; this is 3.10.0-...)", at
 * or above it (a seccomp filter: podman's, containerd's; CONFIG_IO_URING=n) "refused with
 * ENOSYS on Linux 6.18 (a sandbox's filter, or a kernel built without it)"; a release not
 * read as MAJOR.MINOR: "refused with ENOSYS (Linux 5.1; this kernel's release unread: ...)". */
BENCH_API void os_fallback_why(char *out, size_t n, int which, int err, const char *release);
/* os_fallback_def - the entry of call ("statx"), NULL if none. */
BENCH_API const struct os_fb_def *os_fallback_def(const char *call, size_t len);
/* os_fsinfo_get - describe the filesystem holding dir. Returns B_OK or B_SYSERR (errno). */
/* Return values: B_OK; B_SYSERR when statfs fails (errno). */
BENCH_API enum b_rc os_fsinfo_get(const char *dir, struct os_fsinfo *fi) B_MUSTCHECK;
/* os_hf_read - the file root+path whole, up to cap-1 bytes, NUL-terminated in a heap buffer
 * (*out, freed by the caller; embedded NULs end the text early). Returns the length or -1. */
BENCH_API ssize_t os_hf_read(const char *root, const char *path, size_t cap, char **out);
/* os_hf_line - the first line of root+path, blanks trimmed, into out; false if absent/empty. */
BENCH_API bool os_hf_line(const char *root, const char *path, char *out, size_t n);
/* os_meminfo - key's value in this host's /proc/meminfo in bytes, 0 if unknown: the one
 * reader of the file (host facts read it under their root with os_parse_meminfo too). */
BENCH_API u64 os_meminfo(const char *key);
/* os_mem_total - MemTotal in bytes, 0 if unknown. */
BENCH_API u64 os_mem_total(void);
/* os_clock_cost - what one clock_gettime(CLOCK_MONOTONIC) costs (ns), through the C library
 * and as a system call: the median of 21 batches of 1,000 calls each (a preempted batch is an
 * outlier, not the median). A library cost near the system call's: this clock source cannot
 * be read in user space, every timestamp enters the kernel. false if the clock fails. */
BENCH_API bool os_clock_cost(double *lib_ns, double *sys_ns);
/* os_swap_pages - pages swapped in plus out since boot (/proc/vmstat pswpin + pswpout under
 * root); false when unreadable. Sampled before and after a run: the difference is swap
 * activity during it. */
BENCH_API bool os_swap_pages(const char *root, u64 *pages);
/* CPUs this process may run on (sched_getaffinity), at least 1. */
BENCH_API int os_usable_cpus(void);

/*== 10 my_ : MySQL wire protocol codec (bytes in, structs out; no I/O) =====*/

/* defined in bench.c */
struct my_rd; struct my_str; struct my_err_pkt; struct my_handshake; struct my_ok_pkt;
struct my_coldef; struct my_prep_ok; struct my_val;
BENCH_API size_t my_rd_left(const struct my_rd *r);
/* Return values: B_OK; B_TRUNCATED when the packet ends first. */
BENCH_API enum b_rc my_rd_u8(struct my_rd *r, u8 *v) B_MUSTCHECK;
/* int<lenenc>; 0xFB (NULL) only where is_null is given, 0xFF never */
/* Return values: B_OK; B_TRUNCATED when the packet ends first; B_PROTOCOL for 0xFF, or 0xFB
 * where no NULL may be. */
BENCH_API enum b_rc my_rd_lenenc(struct my_rd *r, u64 *v, bool *is_null) B_MUSTCHECK;
/* string<NUL>; with eof_ok the end of the packet also terminates (old servers) */
/* Return values: B_OK; B_TRUNCATED when no NUL ends it (and eof_ok is off). */
BENCH_API enum b_rc my_rd_nstr(struct my_rd *r, struct my_str *s, bool eof_ok) B_MUSTCHECK;
BENCH_API void my_put_u8(struct buf *b, u8 v);
/*
 * my_frame - append payload as packets to out: 4-byte headers (length, sequence id), split
 * at 0xFFFFFF bytes, and an empty packet after a payload that is a multiple of 0xFFFFFF.
 * *seq is advanced past the packets written.
 */
BENCH_API void my_frame(struct buf *out, u8 *seq, const void *payload, size_t len);
/*
 * my_frame_parse - the first packet in in[0..len): B_AGAIN when incomplete, else the bytes it
 * takes (header included); payload, plen and seq describe the packet.
 */
BENCH_API long my_frame_parse(const u8 *in, size_t len, const u8 **payload, size_t *plen, u8 *seq);
/*
 * my_deflate - append the zlib stream of in[0..n) to out: LZ77 matches (3..258 bytes, up to
 * 32 KiB back) found over hash chains, in blocks of MY_ZT_MAX tokens, each with its own
 * dynamic Huffman code (or the fixed one, when cheaper). work holds MY_Z_WORK u32s (chain
 * heads, links and a block's tokens), reused between calls. Returns the bytes appended.
 */
BENCH_API size_t my_deflate(struct buf *out, const u8 *in, size_t n, u32 *work);
/*
 * my_zframe_parse - the compressed frame at in[0..len): its compressed
 * length, sequence id and uncompressed length (0: stored). B_PROTOCOL when a length is over
 * cap (checked as soon as the header is there), B_AGAIN while incomplete (*clen is known once
 * the header is), else the bytes the frame takes.
 */
BENCH_API long my_zframe_parse(const u8 *in, size_t len, size_t cap, size_t *clen, size_t *ulen,
                               u8 *cseq);
/* my_zframe_body - a parsed frame's bytes into out[0 .. ulen, or clen when stored). */
/* Return values: B_OK; B_PROTOCOL when the zlib stream is bad or not ulen bytes (*why says it). */
BENCH_API enum b_rc my_zframe_body(const u8 *frame, size_t clen, size_t ulen, u8 *out,
                                   const char **why) B_MUSTCHECK;
/* Return values: B_OK; B_PROTOCOL when it is not an ERR packet or ends early. */
BENCH_API enum b_rc my_parse_err(const u8 *p, size_t len, struct my_err_pkt *e) B_MUSTCHECK;
/* Return values: B_OK; B_SERVER when the server sent an ERR instead; B_UNSUPPORTED for a
 * pre-4.1 server; B_PROTOCOL when malformed. */
BENCH_API enum b_rc my_parse_handshake(const u8 *p, size_t len, struct my_handshake *h) B_MUSTCHECK;
/* Return values: B_OK; B_PROTOCOL when it is not an OK packet or ends early. */
BENCH_API enum b_rc my_parse_ok(const u8 *p, size_t len, struct my_ok_pkt *ok) B_MUSTCHECK;
/* classic EOF (0xFE, only without CLIENT_DEPRECATE_EOF) */
/* Return values: B_OK; B_PROTOCOL when it is not an EOF packet. */
BENCH_API enum b_rc my_parse_eof(const u8 *p, size_t len, u16 *warnings, u16 *status) B_MUSTCHECK;
/* Is this payload the end of a result set (EOF, or OK with 0xFE under DEPRECATE_EOF)? */
BENCH_API bool my_is_eof(const u8 *p, size_t len);
/* Return values: B_OK; B_PROTOCOL when malformed. */
BENCH_API enum b_rc my_parse_coldef(const u8 *p, size_t len, bool ext_meta,
                                    struct my_coldef *c) B_MUSTCHECK;
/* A text row: ncols lenenc strings, 0xFB for NULL (vals[i].p == NULL). */
/* Return values: B_OK; B_PROTOCOL when it does not hold ncols values exactly. */
BENCH_API enum b_rc my_parse_text_row(const u8 *p, size_t len, size_t ncols,
                                      struct my_str *vals) B_MUSTCHECK;
/* Return values: B_OK; B_PROTOCOL when malformed. */
BENCH_API enum b_rc my_parse_prepare_ok(const u8 *p, size_t len, struct my_prep_ok *o) B_MUSTCHECK;
/*
 * my_count_params - the ? placeholders of sql[0..len) as the server's lexer counts them:
 * not inside '...', "..." or `...` (backslash escapes; a doubled quote closes and reopens),
 * nor in a -- , # or C comment (an executable comment, slash-star-bang, is code: its ?
 * count). What a PREPARE_OK must claim (a server claiming 65535 for SELECT ? is refused at once).
 */
BENCH_API size_t my_count_params(const char *sql, size_t len);
/* A binary result row: 0x00, NULL bitmap with offset 2, values. */
/* Return values: B_OK; B_PROTOCOL when malformed or longer than its values. */
BENCH_API enum b_rc my_parse_binary_row(const u8 *p, size_t len, size_t ncols,
                                        const struct my_coldef *cols,
                                        struct my_val *vals) B_MUSTCHECK;
/* COM_STMT_EXECUTE payload: types are sent every time (2 bytes/param). */
BENCH_API void my_build_execute(struct buf *b, u32 stmt_id, const struct my_val *params,
                                size_t n);
/* SSLRequest / the first 32 bytes of HandshakeResponse41 (the same bytes: flags, max packet,
 * charset, 23 zero bytes). */
BENCH_API void my_build_login_head(struct buf *b, u32 caps, u32 ext_caps);
/* HandshakeResponse41; returns the offset of the auth data in it (--debug=proto masks it) */
BENCH_API size_t my_build_handshake_response(struct buf *b, u32 caps, u32 ext_caps,
                                             const char *user, const u8 *auth, size_t auth_len,
                                             const char *db, const char *plugin);
/*
 * my_auth_mask - the auth data in a packet the server sends during the login, for
 * --debug=proto to mask: two (offset, length) ranges of the payload in m. The greeting has
 * the two parts of its scramble, an AuthSwitchRequest its nonce; other packets none
 * (AuthMoreData is a status byte or a public key).
 */
BENCH_API void my_auth_mask(const u8 *p, size_t n, bool greeting, size_t m[4]);
/*
 * my_escape - a server-supplied string (version, error message, host name) made safe for a
 * terminal into dst (always NUL-terminated): control characters, DEL, C1 controls and bytes
 * that are not UTF-8 become \n, \r, \t or \xNN; UTF-8 text and backslashes stay (server
 * messages are quoted verbatim).
 */
BENCH_API void my_escape(char *dst, size_t cap, const char *src, size_t len);
/* mysql_native_password: SHA1(pw) XOR SHA1(nonce || SHA1(SHA1(pw))). */
BENCH_API void my_scramble_native(const char *pw, size_t pwlen, const u8 nonce[20], u8 out[20]);
/* caching_sha2_password: SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) || nonce) (3.3). */
BENCH_API void my_scramble_sha2(const char *pw, size_t pwlen, const u8 nonce[20], u8 out[32]);
/*
 * my_ed25519_sign - client_ed25519's reply: R || S over msg with the key derived from pw.
 * pub (may be NULL) receives the public key A, which the server stores as base64.
 */
BENCH_API void my_ed25519_sign(const char *pw, size_t pwlen, const u8 *msg, size_t msglen,
                               u8 sig[64], u8 pub[32]);

/*== 11 myc_ : MySQL connection: sockets, TLS, authentication, commands =====*/

/* defined in bench.c */
struct my_conn; struct myc_params; struct myc_gate; struct addrinfo; struct myc_result;
struct myc_stmt; struct my_val; struct myc_conn_params;
/* Row callbacks: text values (p == NULL for NULL) or binary values. Return < 0 to abort. */
typedef int (*myc_text_cb)(void *ctx, const struct myc_result *res, const struct my_str *vals);
typedef int (*myc_bin_cb)(void *ctx, const struct myc_result *res, const struct my_val *vals);
/* myc_detach - drop a transport that serves the socket for a while (myc_io.close): the
 * socket itself carries the bytes from here on. */
BENCH_API void myc_detach(struct my_conn *c);
/*
 * Statements bench knows to be long (prepare's bulk loads, CREATE INDEX, DROP: OLTP section)
 * are not cut by --mysql-io-timeout: their commands get no deadline, and the wait ends only
 * on b_stop (a signal), which every slice checks, whichever thread it hit.
 */
BENCH_API void myc_set_unbounded(struct my_conn *c, bool on);
/* myc_unread - bytes a transport received for c and did not hand over before it went
 * (myc_detach): they come first at the next read. The plain protocol only: under TLS and
 * compression they are records and frames of another layer (false: the caller drops them,
 * and the connection with them). */
BENCH_API bool myc_unread(struct my_conn *c, const u8 *p, size_t n);
/* myc_sock_id - which socket c has now (0: none): a socket closed and another opened under
 * the same fd number (the next address of a login, a reconnect) have different ids. */
BENCH_API u64 myc_sock_id(const struct my_conn *c);
/* myc_init - a closed connection for p (kept by pointer), its login deadline set. */
BENCH_API void myc_init(struct my_conn *c, const struct myc_params *p);
/* myc_close - send COM_QUIT when connected, close, free everything (c is reusable). */
BENCH_API void myc_close(struct my_conn *c);
/*
 * myc_step - advance the operation in progress as far as the bytes allow: MYC_WANT_READ or
 * MYC_WANT_WRITE (wait on myc_fd, call again), B_OK (done), B_SERVER (the server's error:
 * c->srv_code etc.; the connection stays usable) or another error (c->err; close c). Past
 * c->deadline_ns: B_TIMEOUT. Nothing in progress: B_OK.
 */
BENCH_API int myc_step(struct my_conn *c);
/* myc_runnable - after MYC_WANT_READ: the step stopped on its budget, not on a would-block:
 * step it again soon (no edge may come for bytes already received). */
BENCH_API bool myc_runnable(const struct my_conn *c);
/* myc_answered - the current step received bytes (a timeout's hint: slow, or endless) */
BENCH_API bool myc_answered(const struct my_conn *c);
/*
 * myc_connect - connect, greet, TLS as --ssl-mode says, authenticate.
 * Return values: B_OK; B_SYSERR/B_TIMEOUT (socket, c->err), B_SERVER (the server refused:
 * c->srv_code etc.), B_PROTOCOL, B_UNSUPPORTED (TLS, plugin). On failure c is closed.
 */
BENCH_API enum b_rc myc_connect(struct my_conn *c, const struct myc_params *p) B_MUSTCHECK;
/* myc_gate_init - a gate for total logins, at most max (<= 0: MYC_GATE_LOGINS) in flight;
 * a wait fails after stall_ms without a finished login. MYC_GATE_LOGINS = 64, measured with
 * 4,000 connections to MariaDB 10.11 on a 2-core host: 16, 64 and 256 in flight log in at the
 * same rate (the server's accept thread is the limit), 900+ overflow its listen queue. */
BENCH_API void myc_gate_init(struct myc_gate *g, int max, int total, int stall_ms);
/* myc_gate_free - release what myc_gate_init made. */
BENCH_API void myc_gate_free(struct myc_gate *g);
/* myc_gate_try - take a slot without waiting (an event loop): B_OK, B_AGAIN when all are in
 * flight (try again when one leaves), or < 0 when the phase failed (myc_gate_why). */
/* Return values: B_OK (a slot taken); B_AGAIN when all are in flight; the phase's failure
 * (< 0, myc_gate_why) when it was shut. */
BENCH_API enum b_rc myc_gate_try(struct myc_gate *g) B_MUSTCHECK;
/* myc_gate_nap - wait until a slot is freed, the gate is shut or until_ns (CLOCK_MONOTONIC)
 * passes, whichever comes first; at once when a slot is free or the gate is shut. For a login
 * that polls its own end between naps (a reconnect in thread mode: oltp_reconnect). */
BENCH_API void myc_gate_nap(struct myc_gate *g, u64 until_ns);
/* myc_gate_leave - a login that held a slot finished with rc (B_OK or its failure; a retry
 * leaves and enters again). */
BENCH_API void myc_gate_leave(struct myc_gate *g, int rc);
/* myc_gate_shut - the phase failed (the first call's rc and e win): waiters return them. */
BENCH_API void myc_gate_shut(struct myc_gate *g, int rc, const struct b_err *e);
/* myc_gate_progress - a progress line into line[n] when one is due ("connecting: 2400/4000"):
 * phases of at least MYC_PROGRESS_MIN logins, at most every MYC_PROGRESS_NS, and once at the
 * end (with '\n': the status line is complete) when an earlier one was shown. */
BENCH_API bool myc_gate_progress(struct myc_gate *g, char *line, size_t n);
/* myc_gate_why - a shut gate's error into e (for a caller that saw myc_gate_try fail). */
BENCH_API void myc_gate_why(struct myc_gate *g, struct b_err *e);
/* myc_gate_stalled - for a login waiting for a slot without blocking (an event loop): B_OK
 * while the phase makes progress; B_TIMEOUT (e says it, in myc_gate_enter's words) when no
 * login began or ended within the stall time. */
/* Return values: B_OK; B_TIMEOUT with e filled when the phase stalled. */
BENCH_API enum b_rc myc_gate_stalled(struct myc_gate *g, struct b_err *e) B_MUSTCHECK;
/* myc_gate_seen - a login of this phase succeeded (myc_retryable's server_seen). */
BENCH_API bool myc_gate_seen(struct myc_gate *g);
/* myc_resolve - the addresses of host:port for a run's logins (myc_params.addrs), resolved
 * once before any login, or NULL when resolving fails (each login then fails in its words).
 * Free with freeaddrinfo. */
BENCH_API struct addrinfo *myc_resolve(const char *host, unsigned port, int *gai);
/* myc_backoff_ns - the wait before attempt+1 (attempt >= 1): MYC_BACKOFF_MIN_MS doubled per
 * attempt up to MYC_BACKOFF_MAX_MS, jittered to [half, whole] of it by *seed (splitmix64), so
 * that logins refused together do not come back together. */
BENCH_API u64 myc_backoff_ns(unsigned attempt, u64 *seed);
/* myc_retryable - is the failed login c (rc) worth another attempt? server_seen: a login of
 * this phase succeeded (a refusal or a timeout then means overload, not a wrong address). */
BENCH_API bool myc_retryable(const struct my_conn *c, int rc, bool server_seen);
/* myc_connect_retry - myc_connect through the gate g: wait for a slot, log in, and on a
 * transient failure (myc_retryable) back off and try again, at most MYC_CONNECT_TRIES
 * times. (more in bench.c) */
/* Return values: B_OK; myc_connect's failures (c->err); the gate's (B_TIMEOUT, B_DONE, or the
 * shut phase's code) with c->err set. */
BENCH_API enum b_rc myc_connect_retry(struct my_conn *c, const struct myc_params *p,
                                      struct myc_gate *g, unsigned *tries, u64 *seed) B_MUSTCHECK;
/* myc_ping, myc_init_db - COM_PING, COM_INIT_DB: answered by OK or ERR. */
/* Return values: B_OK; B_SERVER (the server's ERR: c->srv_code etc.; c stays usable); else
 * B_SYSERR, B_TIMEOUT, B_PROTOCOL or B_DONE (a stop signal) with c->err: close c. */
BENCH_API enum b_rc myc_ping(struct my_conn *c) B_MUSTCHECK;
BENCH_API enum b_rc myc_init_db(struct my_conn *c, const char *db) B_MUSTCHECK;
/* myc_query - COM_QUERY; text rows go to cb (may be NULL: rows are only counted). */
/* Return values: as myc_ping's. */
BENCH_API enum b_rc myc_query(struct my_conn *c, const char *sql, size_t len,
                              struct myc_result *res, myc_text_cb cb, void *ctx) B_MUSTCHECK;
/* Free what myc_prepare allocated. */
BENCH_API void myc_stmt_free(struct myc_stmt *st);
/* myc_prepare - COM_STMT_PREPARE; st keeps the column types for decoding (nothing is kept
 * on failure). */
/* Return values: as myc_ping's. */
BENCH_API enum b_rc myc_prepare(struct my_conn *c, const char *sql, size_t len,
                                struct myc_stmt *st) B_MUSTCHECK;
/* myc_execute - COM_STMT_EXECUTE with params[nv]; binary rows go to cb. */
/* Return values: as myc_ping's. */
BENCH_API enum b_rc myc_execute(struct my_conn *c, struct myc_stmt *st, const struct my_val *params,
                                size_t nv, struct myc_result *res, myc_bin_cb cb,
                                void *ctx) B_MUSTCHECK;
/* Return values: B_OK (COM_STMT_CLOSE has no reply); B_SYSERR or B_TIMEOUT when the send fails
 * (c->err). */
BENCH_API enum b_rc myc_stmt_close(struct my_conn *c, struct myc_stmt *st) B_MUSTCHECK;
/* myc_result_free - free a result's columns and zero it. */
BENCH_API void myc_result_free(struct myc_result *res);
/* The cipher suite of a TLS connection, or NULL. */
BENCH_API const char *myc_cipher(struct my_conn *c);
/* The TLS version of a TLS connection ("TLSv1.2"), or NULL. */
BENCH_API const char *myc_tls_version(struct my_conn *c);
/* myc_connect_start, myc_query_start, myc_prepare_start, myc_execute_start - each begins an
 * operation without waiting: the request is framed into c->out and sent as far as the socket
 * takes it (more in bench.c, above myc_connect_start). */
BENCH_API int myc_connect_start(struct my_conn *c, const struct myc_params *p);
BENCH_API int myc_query_start(struct my_conn *c, const char *sql, size_t len,
                              struct myc_result *res, myc_text_cb cb, void *ctx);
BENCH_API int myc_prepare_start(struct my_conn *c, const char *sql, size_t len,
                                struct myc_stmt *st);
BENCH_API int myc_execute_start(struct my_conn *c, struct myc_stmt *st, const struct my_val *params,
                                size_t nv, struct myc_result *res, myc_bin_cb cb, void *ctx);
/* The socket to wait on (-1 when closed). */
BENCH_API int myc_fd(const struct my_conn *c);
/* Nothing in progress (a finished or no operation). */
BENCH_API bool myc_idle(const struct my_conn *c);
/* Return values: B_OK; B_INVALID with e filled for a bad option value (port, TLS, compression). */
BENCH_API enum b_rc myc_params_from_opts(const struct bench_opts *o, unsigned idx,
                                         struct myc_conn_params *cc, struct b_err *e) B_MUSTCHECK;
BENCH_API void myc_fmt(char *dst, size_t n, const char *fmt, ...);
/* The hint of a refused TCP connection; when a port given made localhost TCP though the local
 * server's socket exists (cli_protocol), it says so. */
BENCH_API void myc_hint_refused(const struct myc_params *p, char *dst, size_t n, const char *more);
/* myc_conn_error - a failed connect as the error-message rule asks (what, on what target,
 * the cause from the lowest layer, elapsed time and attempts; never the password), into *e:
 * the bench persona's lines (msg may hold two, '\n'-separated: the login and the server's
 * answer) and hint, and sysbench's own FATAL lines. Returns the exit code (the bench
 * persona's; e->sb_ex sysbench's). */
/* Return values: B_EXIT_ENV (the connect or login failed); B_EXIT_FAIL after a stop signal. */
BENCH_API enum b_exit myc_conn_error(const char *what, const struct my_conn *c,
                                     const struct myc_params *p, struct b_err *e);

/*== 12 pg_ : PostgreSQL wire protocol codec (bytes in, structs out; no I/O) =*/

/* defined in bench.c */
struct pg_msg; struct pg_str; struct pg_auth; struct pg_err; struct pg_col; struct pg_copy;
struct pg_negotiate; struct pg_scram;
/* pg_frame_parse - the first backend message in in[0..len): B_AGAIN while incomplete,
 * B_PROTOCOL when its length word is under 4 or its body over max (known from 5 bytes on),
 * else the bytes it takes (type and length included); *m views its body in in. */
BENCH_API long pg_frame_parse(const u8 *in, size_t len, size_t max, struct pg_msg *m);
/* pg_frame_want - the bytes the message starting at in[0..len) takes (5 until its header is
 * there): how much to read. */
BENCH_API size_t pg_frame_want(const u8 *in, size_t len);
/* Builders: each appends one whole message to b. */
BENCH_API void pg_build_ssl_request(struct buf *b);
/* StartupMessage (3.0): npairs key/value pairs (kv[2i], kv[2i+1] of vlen[i] bytes). */
/* Return values: B_OK; B_INVALID (nothing appended) when a value holds a NUL or a key is
 * empty (CVE-2026-142201's injection). */
BENCH_API enum b_rc pg_build_startup(struct buf *b, const char *const *kv, const size_t *vlen,
                                     size_t npairs) B_MUSTCHECK;
/* Return values: B_OK; B_INVALID (nothing appended) when pw holds a NUL. */
BENCH_API enum b_rc pg_build_password(struct buf *b, const char *pw, size_t n) B_MUSTCHECK;
BENCH_API void pg_build_sasl_initial(struct buf *b, const char *mech, const void *data, size_t n);
BENCH_API void pg_build_sasl_response(struct buf *b, const void *data, size_t n);
/* Return values: B_OK; B_INVALID (nothing appended) when sql holds a NUL. */
BENCH_API enum b_rc pg_build_query(struct buf *b, const char *sql, size_t len) B_MUSTCHECK;
/* Parse: statement name ("" unnamed), SQL with $n, noids parameter types (0: inferred). */
/* Return values: B_OK; B_INVALID when sql holds a NUL or noids > 65535. */
BENCH_API enum b_rc pg_build_parse(struct buf *b, const char *name, const char *sql, size_t len,
                                   const u32 *oids, size_t noids) B_MUSTCHECK;
/* Bind: n text parameters (p == NULL: SQL NULL), text results. */
/* Return values: B_OK; B_INVALID when n > 65535 or a value is over 2 GiB. */
BENCH_API enum b_rc pg_build_bind(struct buf *b, const char *portal, const char *stmt,
                                  const struct pg_str *vals, size_t n) B_MUSTCHECK;
/* Describe / Close of a statement ('S') or portal ('P'). */
BENCH_API void pg_build_describe(struct buf *b, u8 kind, const char *name);
BENCH_API void pg_build_close(struct buf *b, u8 kind, const char *name);
BENCH_API void pg_build_execute(struct buf *b, const char *portal, u32 max_rows);
/* A message with an empty body: Sync 'S', Flush 'H', Terminate 'X', CopyDone 'c'. */
BENCH_API void pg_build_empty(struct buf *b, u8 type);
BENCH_API void pg_build_copy_data(struct buf *b, const void *p, size_t n);
BENCH_API void pg_build_copy_fail(struct buf *b, const char *why);
/* CancelRequest with the BackendKeyData's pid and key (4..256 bytes). */
/* Return values: B_OK; B_INVALID when keylen is out of 4..256. */
BENCH_API enum b_rc pg_build_cancel(struct buf *b, u32 pid, const u8 *key, size_t keylen)
    B_MUSTCHECK;
/* Parsers: one message's body to a struct (views into it); B_PROTOCOL when the type is not
 * theirs, a count or length does not fit the body, or bytes are left over. */
/* Return values: B_OK; B_PROTOCOL; B_UNSUPPORTED for an authentication code other than
 * 0, 3, 5, 10, 11, 12 (a->code says which). */
BENCH_API enum b_rc pg_parse_auth(const struct pg_msg *m, struct pg_auth *a) B_MUSTCHECK;
/* Return values: B_OK; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_param_status(const struct pg_msg *m, struct pg_str *name,
                                          struct pg_str *value) B_MUSTCHECK;
/* BackendKeyData: a 4..256-byte key into key[PG_KEY_MAX]. */
/* Return values: B_OK; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_key(const struct pg_msg *m, u32 *pid, u8 *key, size_t *keylen)
    B_MUSTCHECK;
/* Return values: B_OK (status I, T or E); B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_ready(const struct pg_msg *m, u8 *status) B_MUSTCHECK;
/* ErrorResponse or NoticeResponse: severity (V, else S), SQLSTATE, message, detail, hint. */
/* Return values: B_OK; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_error(const struct pg_msg *m, struct pg_err *e) B_MUSTCHECK;
/* RowDescription: cols NULL gives the count only (checked against the body's bytes). */
/* Return values: B_OK; B_PROTOCOL (also when the count is over cap). */
BENCH_API enum b_rc pg_parse_rowdesc(const struct pg_msg *m, size_t *ncols, struct pg_col *cols,
                                     size_t cap) B_MUSTCHECK;
/* DataRow of exactly ncols values. */
/* Return values: B_OK; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_datarow(const struct pg_msg *m, size_t ncols, struct pg_str *vals)
    B_MUSTCHECK;
/* CommandComplete: its tag and the count at its end (0 when none). */
/* Return values: B_OK; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_complete(const struct pg_msg *m, struct pg_str *tag, u64 *rows)
    B_MUSTCHECK;
/* Return values: B_OK when m is of that type with an empty body; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_empty(const struct pg_msg *m, u8 type) B_MUSTCHECK;
/* Return values: B_OK; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_paramdesc(const struct pg_msg *m, size_t *n) B_MUSTCHECK;
/* Return values: B_OK; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_copy(const struct pg_msg *m, struct pg_copy *cp) B_MUSTCHECK;
/* Return values: B_OK; B_PROTOCOL. */
BENCH_API enum b_rc pg_parse_negotiate(const struct pg_msg *m, struct pg_negotiate *v)
    B_MUSTCHECK;
/* md5 method: "md5" + hex(md5(hex(md5(pw || user)) || salt)), NUL-terminated. */
BENCH_API void pg_md5_password(const char *user, const char *pw, const u8 salt[4], char out[36]);
/* SCRAM-SHA-256: the client-first-message (gs2 header, user, nonce) into out. */
BENCH_API void pg_scram_first(struct pg_scram *s, const char *gs2, const char *user,
                              const char *nonce, struct buf *out);
/* Return values: B_OK; B_PROTOCOL with *why (more in bench.c). */
BENCH_API enum b_rc pg_scram_final(struct pg_scram *s, const u8 *sf, size_t sflen, const char *pw,
                                   const u8 *cb, size_t cblen, struct buf *out,
                                   const char **why) B_MUSTCHECK;
/* Return values: B_OK; B_SERVER (e=); B_PROTOCOL (malformed, or the wrong signature). */
BENCH_API enum b_rc pg_scram_verify(const struct pg_scram *s, const u8 *p, size_t n,
                                    const char **why) B_MUSTCHECK;
/* tls-server-end-point's channel binding data of a certificate; 0 when unknown. */
/* pg_scram_free - release the exchange's state. */
BENCH_API void pg_scram_free(struct pg_scram *s);
BENCH_API size_t pg_cert_endpoint(const u8 *der, size_t n, int sig_md, u8 out[64]);

/*== 13 pgc_ : PostgreSQL connection: sockets, TLS, authentication, queries =*/

/* defined in bench.c */
struct pgc_conn; struct pgc_params; struct pgc_result; struct pgc_conn_params;
typedef int (*pgc_row_cb)(void *ctx, const struct pgc_result *res, const struct pg_str *vals);
BENCH_API void pgc_init(struct pgc_conn *c);
/* pgc_connect - socket, TLS as p->sslmode says, startup, authentication, up to
 * ReadyForQuery, within p->connect_ms. c keeps p by pointer.
 * Return values: B_OK; B_SERVER (the server's ErrorResponse: c->srv), B_SYSERR, B_TIMEOUT,
 * B_PROTOCOL, B_UNSUPPORTED (TLS, a method or a binding refused), B_DONE (a stop signal),
 * all with c->err; on failure c holds no socket. */
BENCH_API enum b_rc pgc_connect(struct pgc_conn *c, const struct pgc_params *p) B_MUSTCHECK;
/* pgc_close - Terminate when logged in, close, free (c is reusable after pgc_init). */
BENCH_API void pgc_close(struct pgc_conn *c);
/* pgc_query - a simple query ('Q'); rows to cb (may be NULL), up to ReadyForQuery.
 * Return values: B_OK; B_SERVER (the first ErrorResponse, c->srv; drained to 'Z', c stays
 * usable); else B_SYSERR, B_TIMEOUT, B_PROTOCOL or B_DONE (a CancelRequest went out) with
 * c->err: close c. */
BENCH_API enum b_rc pgc_query(struct pgc_conn *c, const char *sql, size_t len,
                              struct pgc_result *r, pgc_row_cb cb, void *ctx) B_MUSTCHECK;
/* pgc_prepare - Parse, Describe (statement), Sync: r->cols are the statement's columns.
 * Return values: as pgc_query's. */
BENCH_API enum b_rc pgc_prepare(struct pgc_conn *c, const char *name, const char *sql, size_t len,
                                size_t nparams, struct pgc_result *r) B_MUSTCHECK;
/* pgc_prepare_typed - pgc_prepare with the parameters' type OIDs (oids[noids]; 0: inferred),
 * as libpq's PQprepare sends them. Return values: as pgc_query's. */
BENCH_API enum b_rc pgc_prepare_typed(struct pgc_conn *c, const char *name, const char *sql,
                                      size_t len, const u32 *oids, size_t noids,
                                      struct pgc_result *r) B_MUSTCHECK;
/* pgc_execute - Bind (text parameters) of the prepared name, Execute, Sync; rows (decoded
 * with r->cols from pgc_prepare) to cb. Return values: as pgc_query's. */
BENCH_API enum b_rc pgc_execute(struct pgc_conn *c, const char *name, const struct pg_str *vals,
                                size_t n, struct pgc_result *r, pgc_row_cb cb, void *ctx)
    B_MUSTCHECK;
/* pgc_execute_start, pgc_query_start - pgc_execute and pgc_query (no row callback) without
 * blocking: the messages queued and sent as far as the socket takes them; pgc_step goes on
 * when c's socket (pgc_fd) is ready. Return values: PGC_WANT_READ/WRITE (EVL_WANT_READ/WRITE:
 * wait on the socket, then pgc_step), PGC_WANT_RUN (EVL_WANT_RUN: step again soon), or the
 * command's end as the blocking function's (B_OK; B_SERVER with c->srv, drained to 'Z'; a
 * failure in c->err: B_TIMEOUT past io_ms, B_PROTOCOL, B_SYSERR). One command at a time;
 * a stop signal is not looked at (the caller's loop decides). pgc_busy - one in flight. */
BENCH_API int pgc_execute_start(struct pgc_conn *c, const char *name, const struct pg_str *vals,
                                size_t n, struct pgc_result *r);
BENCH_API int pgc_query_start(struct pgc_conn *c, const char *sql, size_t len,
                              struct pgc_result *r);
BENCH_API int pgc_step(struct pgc_conn *c);
/* pgc_pipe_add - Bind and Execute of prepared name queued (nothing sent); pgc_pipe_start -
 * the n queued sent with one Sync, statement i's replies into rs[i] (reset first; the same
 * result may repeat), done(ctx, i, rs[i]) as each one completes; returns as pgc_step's, and
 * after an error (B_SERVER, drained to 'Z') pgc_pipe_at is the failed statement: those
 * before it completed, those after it never ran. pgc_finish - step c's command to its end,
 * blocking (the deadline; a stop signal: CancelRequest, B_DONE). */
typedef void (*pgc_done_cb)(void *ctx, size_t i, const struct pgc_result *r);
BENCH_API enum b_rc pgc_pipe_add(struct pgc_conn *c, const char *name, const struct pg_str *vals,
                                 size_t n) B_MUSTCHECK;
BENCH_API int pgc_pipe_start(struct pgc_conn *c, struct pgc_result **rs, size_t n,
                             pgc_done_cb done, void *ctx);
BENCH_API size_t pgc_pipe_at(const struct pgc_conn *c);
BENCH_API enum b_rc pgc_finish(struct pgc_conn *c, int rc) B_MUSTCHECK;
BENCH_API int pgc_fd(const struct pgc_conn *c);
BENCH_API bool pgc_busy(const struct pgc_conn *c);
/* pgc_cancel - a CancelRequest for c's backend, on a connection of its own.
 * Return values: B_OK (sent); B_INVALID (no key yet); B_SYSERR. */
BENCH_API enum b_rc pgc_cancel(struct pgc_conn *c) B_MUSTCHECK;
BENCH_API void pgc_result_free(struct pgc_result *r);
/* pgc_close_stmt - Close (statement) and Sync. Return values: as pgc_query's. */
BENCH_API enum b_rc pgc_close_stmt(struct pgc_conn *c, const char *name) B_MUSTCHECK;
/* pgc_copy_in - COPY ... FROM STDIN (sql) with data[0..len) (text rows, tab-separated, \N
 * for NULL) as CopyData messages, CopyDone, up to ReadyForQuery; r->affected: the rows the
 * server counted. Return values: as pgc_query's (B_SERVER: the server refused the COPY or
 * its data). */
BENCH_API enum b_rc pgc_copy_in(struct pgc_conn *c, const char *sql, const char *data, size_t len,
                                struct pgc_result *r) B_MUSTCHECK;
/* pgc_url_secret - the first password inside a postgres[ql]:// URL (user:PASSWORD@... or a
 * query's password=VALUE, the key percent-decoded) that starts after `after` (NULL: from the
 * start), and its length, or NULL (no more): what --pgsql-url's echoes mask. */
BENCH_API const char *pgc_url_secret(const char *url, const char *after, size_t *len);
/* pgc_url_masked - appends url to out with every password in it as "***". */
BENCH_API void pgc_url_masked(struct buf *out, const char *url);
/* pgc_parse_url - postgres[ql]://[user[:password]@][host][:port][/db][?key=value&...] into
 * cc (percent-decoded; sslmode, sslnegotiation, sslrootcert, channel_binding, connect_timeout,
 * application_name, host, port, user, password, dbname).
 * Return values: B_OK; B_INVALID with e filled. */
BENCH_API enum b_rc pgc_parse_url(struct pgc_conn_params *cc, const char *url, struct b_err *e)
    B_MUSTCHECK;
/* pgc_params_resolve - the URL, the given settings (host, port, user, password, dbname,
 * sslmode, sslrootcert, channel_binding; "" or NULL: not given), PG* environment, defaults,
 * ~/.pgpass, in libpq's order (more in bench.c); sslnegotiation from the URL and
 * PGSSLNEGOTIATION only. B_UNUSED: bench's commands call pgc_params_resolve_neg.
 * Return values: B_OK; B_INVALID with e filled. */
BENCH_API enum b_rc pgc_params_resolve(struct pgc_conn_params *cc, const char *url,
                                       const char *const given[8], int connect_ms, int io_ms,
                                       struct b_err *e) B_MUSTCHECK B_UNUSED;
/* pgc_params_resolve_neg - pgc_params_resolve with the sslnegotiation given too (postgres or
 * direct; "" or NULL: the URL's, PGSSLNEGOTIATION, else postgres). */
BENCH_API enum b_rc pgc_params_resolve_neg(struct pgc_conn_params *cc, const char *url,
                                           const char *const given[8], const char *negotiation,
                                           int connect_ms, int io_ms, struct b_err *e) B_MUSTCHECK;

/*== 14 uring_ : io_uring by raw syscalls: setup, SQEs, CQEs ================*/

/* defined in bench.c */
struct uring; struct io_uring_sqe; struct io_uring_cqe;
BENCH_API int uring_sys_register(int fd, unsigned op, const void *arg, unsigned n);
/* uring_free - unmap the rings and close the ring's fd (after a failed setup too). */
BENCH_API void uring_free(struct uring *u);
/* uring_setup - a ring of `entries` SQEs. On failure *e says why (errno kept). */
/* Return values: B_OK; B_UNSUPPORTED when the kernel refuses io_uring (ENOSYS, EPERM); B_SYSERR
 * otherwise (e). */
BENCH_API enum b_rc uring_setup(struct uring *u, unsigned entries, struct b_err *e) B_MUSTCHECK;
/* uring_sqe - the next free SQE, zeroed, or NULL when the SQ is full. */
BENCH_API struct io_uring_sqe *uring_sqe(struct uring *u);
/* uring_submit - publish the filled SQEs and wait for at least `wait` completions. */
/* Return values: B_OK; B_SYSERR when io_uring_enter fails (errno). */
BENCH_API enum b_rc uring_submit(struct uring *u, unsigned wait) B_MUSTCHECK;
/* uring_cqe - the next completion, or NULL; uring_cqe_seen releases it. */
BENCH_API struct io_uring_cqe *uring_cqe(struct uring *u);
/* uring_cqe_seen - release the completion uring_cqe returned. */
BENCH_API void uring_cqe_seen(struct uring *u);

/*== 15 load_ : worker threads, limits, rate, intervals =====================*/

#define LOAD_NCTR 8 /* workload-defined counters per thread */

/* Per-thread state: owned by its worker; counters are relaxed atomics read by the reporter. */
struct load_thread {
    int id;                    /* 0..threads-1 */
    pthread_t tid;             /* the thread */
    struct rnd rng;            /* per-thread RNG */
    struct load_run *run;      /* the run it belongs to */
    void *wl;                  /* workload's per-thread state */
    u64 limit;                 /* per-thread event limit (memory, mutex), UINT64_MAX = none */
    u64 done;                  /* events done by this thread (owner only) */
    _Atomic u64 lat_sum_ns;    /* sum of latencies */
    _Atomic u64 exec_ns;       /* self-timed workloads: the thread's time in its events */
    _Atomic u64 lat_min_ns;    /* min latency since last reset */
    _Atomic u64 lat_max_ns;    /* max latency since last reset */
    _Atomic u64 ctr[LOAD_NCTR];/* workload counters (bytes, ops, ...) */
    _Atomic int busy;          /* inside an event now */
    int end_why;               /* why the loop ended (LOAD_END_*), read after join */
    int op;                    /* kind of the current event, for per-operation latency */
    u64 warm_claims;           /* events claimed during --warmup-time, not yet finished:
                                  their records are dropped (owner only) */
    struct b_err err;          /* this worker's failure, copied to the run's by load_fail */
    struct hist *op_hist;      /* per-operation histograms [wl->nops], or NULL */
    _Atomic int sb_lock;       /* sysbench's per-thread timer lock (load_sb_bookkeeping) */
    _Atomic u64 *sb_hist;      /* sysbench's log-scale histogram [1024] (ditto), or NULL */
    struct hist *hist;         /* cumulative latency histogram: its own, or (a client of an
                                  event loop) its loop's, shared by the loop's clients */
    _Atomic u64 events;        /* a loop's client: events recorded (its histogram is shared) */
    /* a client of an event loop (evl_): what the loop thread knows of it */
    u64 ev_intended_ns;        /* the current event's intended start (--rate: its arrival) */
    u64 ev_last_ns;            /* the last progress of the current event */
    _Atomic u32 ev_sock_gen;   /* bumped by the workload when it replaces its socket (a
                                  reconnect: the new one may reuse the old number; atomic: a
                                  PostgreSQL login thread may bump it while the loop looks) */
    int ev_state;              /* EVL_C_* */
    u64 ev_wake_ns;            /* EVL_WANT_TIMER: when to step it again */
    u64 ev_deadline_ns;        /* set by the workload with EVL_WANT_READ/WRITE: the wait's
                                  deadline (a login's), stepped then even without an edge;
                                  0 = none */
    _Atomic u64 down_since_ns; /* the outage report: when this client's current outage began
                                  (its first failed statement or lost connection); 0 = up */
} __attribute__((aligned(B_CACHELINE)));

/* An event loop thread of a run (evl_): clients thr[first .. first + n) share it. */
struct load_loop {
    pthread_t tid;
    struct load_run *run;
    int id, first, n;
    _Atomic int live;          /* its clients not finished (the intervals' thds) */
    struct hist hist;          /* the latency histogram of all its clients (one writer) */
} __attribute__((aligned(B_CACHELINE)));

/* A consistent-enough sum of all threads at one instant (see load_snapshot). */
struct load_snap {
    u64 t_ns;                  /* when taken */
    u64 events, lat_sum_ns, lat_min_ns, lat_max_ns;
    u64 ctr[LOAD_NCTR];
    u64 *thr_events;           /* per thread, [threads] */
    u64 *thr_sum_ns;           /* per thread, [threads] */
    int busy;                  /* threads inside an event */
    int down;                  /* clients in an outage (load_thread.down_since_ns) */
    struct hist *hist;         /* merged histogram */
    int nops;                  /* per-operation histograms in op_hist */
    struct hist *op_hist;      /* merged per-operation histograms [nops] */
};

struct wl_def;
struct res;

/* One run of one workload. */
/* What a short probe of this host measured (load_probe_host): the costs that decide how the
 * OLTP clients run under --event-loops=auto (load_mode_pick). A cost of 0: not measured. */
struct load_probe {
    int cpus;          /* CPUs this process may use (sched_getaffinity) */
    double sys_ns;     /* a trivial system call */
    double pair_ns;    /* a 64-byte send and its recv over a socketpair, as system calls */
    double ring_ns;    /* the same on an io_uring, 8 of each per io_uring_enter; 0: refused */
};

/* Why load_mode_pick chose what it did (the facts client_mode_why says it in words). */
enum load_why {
    LOAD_WHY_FEW = 1, /* connections <= LOAD_THREADS_PER_CPU per CPU: a thread each */
    LOAD_WHY_MANY,    /* more connections than that: event loops */
    LOAD_WHY_BACKEND, /* --event-backend given (io_uring or epoll): event loops */
};

/* How the clients run (load_mode_pick's answer). */
struct load_mode {
    int loops;        /* event loops; 0: a thread per connection */
    int backend;      /* the loops' I/O: EVL_BE_URING or EVL_BE_EPOLL; EVL_BE_AUTO: as given */
    enum load_why why;
    i64 threads_max;  /* the most connections that get a thread each (LOAD_THREADS_PER_CPU) */
};

struct load_run {
    const struct wl_def *w;        /* the workload */
    const struct bench_opts *o;    /* options */
    int nthreads;                  /* worker count */
    struct load_thread *thr;       /* [nthreads] */
    void *wl_global;               /* workload's shared state */
    struct res *res;               /* the result being filled (facts, warnings) */
    u64 t_start_ns;                /* all threads released */
    u64 t_measure_ns;              /* end of warmup: statistics start here */
    u64 deadline_ns;               /* stop issuing events after this, 0 = none */
    u64 start_at_ns;               /* --start-at on the monotonic clock, 0 = none */
    i64 unix_off_ns;               /* CLOCK_REALTIME - CLOCK_MONOTONIC, read once (load_go) */
    u64 event_limit;               /* --events, 0 = none */
    _Atomic u64 issued;            /* events handed out against --events */
    _Atomic u64 next_arrival_ns;   /* --rate: intended start of the next event */
    double rate;                   /* --rate, events/s, 0 = closed loop */
    _Atomic int stop;              /* workers stop at the next event boundary */
    _Atomic int failed;            /* a worker failed: rc of the first failure */
    _Atomic int queue_full;        /* --rate could not be kept */
    _Atomic u64 abandoned;         /* events in flight past an event loop's drain (signal) */
    _Atomic int running;           /* workers not yet finished */
    _Atomic int ready;             /* workers initialised */
    bool self_timed;               /* set by init: event() runs each thread's whole loop,
                                      calling load_claim/load_record_op per request */
    bool sb_bookkeeping;           /* set by init: per event, sysbench's bookkeeping costs
                                      too (load_sb_bookkeeping; memory) */
    pthread_mutex_t mu;            /* guards the two condition variables below */
    pthread_cond_t cv_done;        /* a worker finished */
    pthread_cond_t cv_go;          /* the start signal */
    int go;                        /* start signal given (under mu) */
    struct load_snap base;         /* statistics base (warmup end, last checkpoint) */
    struct b_err err;              /* first failure, for the report */
    bool forced;                   /* --forced-shutdown fired: workers may still be inside an
                                      event; the run is abandoned, not joined (wl_reap) */
    struct load_snap forced_snap;  /* the counts at that instant */
    struct load_run *next_abandoned;
    int nloops;                    /* event loops running the clients (evl_), 0: a thread per
                                      client (load_worker) */
    struct load_loop *loops;       /* [nloops] */
    int evl_backend;               /* what the loops wait with: EVL_BE_EPOLL or EVL_BE_URING
                                      (evl_backend_pick) */
    bool mode_auto;                /* --event-loops=auto: probe and mode decided the mode */
    struct load_probe probe;       /* what the probe measured (mode_auto) */
    struct load_mode mode;         /* what load_mode_pick chose from it (mode_auto) */
    struct bench_opts o_own;       /* wl_run's copy of the caller's options (o points here):
                                      an abandoned run outlives the caller's */
    struct res *res_own;           /* an abandoned run's own result (res points here): the
                                      caller's is gone once wl_run returns */
};

/* What adjtimex(2) says of the system clock (load_clock_read). */
struct load_clock {
    bool known;        /* adjtimex answered */
    bool synced;       /* neither TIME_ERROR nor STA_UNSYNC */
    i64 esterror_us;   /* the kernel's estimated error */
    i64 maxerror_us;   /* and maximum error */
};

/* load_mode_pick - how n connections run under --event-loops=auto, from the probe's facts
 * p (fabricated ones in the unit tests): a thread each up to LOAD_THREADS_PER_CPU per CPU,
 * event loops beyond (one per 32 connections, at most p->cpus), on io_uring unless the
 * ring's send and recv cost more than the system calls' or it was refused (then epoll).
 * backend_given: --event-backend=io_uring|epoll, loops on that backend whatever n.
 * Deterministic: the same facts, the same answer. */
BENCH_API void load_mode_pick(const struct load_probe *p, i64 n, bool backend_given,
                              struct load_mode *m);
/* load_probe_host - measure the costs load_mode_pick weighs (a few ms). */
BENCH_API void load_probe_host(struct load_probe *p);
/* load_why_name - the JSON word for a load_why ("few_connections", ...). */
BENCH_API const char *load_why_name(enum load_why w);
/* load_start_at_parse - --start-at=TIME (RFC 3339 UTC, or +N seconds from now_unix_ns) as
 * CLOCK_REALTIME ns into *out. Returns B_EXIT_OK, else B_EXIT_USAGE with e filled (not a
 * time, not UTC, already past, more than a day ahead). */
/* Return values: B_EXIT_OK; B_EXIT_USAGE with e filled. */
BENCH_API enum b_exit load_start_at_parse(const char *s, i64 now_unix_ns, i64 *out,
                                          struct b_err *e);
/* load_clock_read - the clock's synchronization state from adjtimex(2) (read only). */
BENCH_API void load_clock_read(struct load_clock *c);
/* load_clock_refuse - should --start-at refuse to run on this clock? B_OK, or B_UNSUPPORTED
 * with e filled when the kernel says unsynchronized and force is off (unknown: B_OK). */
/* Return values: B_OK; B_UNSUPPORTED with e filled (an unsynchronized clock, force off). */
BENCH_API enum b_rc load_clock_refuse(const struct load_clock *c, bool force,
                                      struct b_err *e) B_MUSTCHECK;
/* load_client_check - --client-index and --client-count (one run split among clients): both
 * or neither, count >= 1, 0 <= index < count. Returns B_EXIT_OK, else B_EXIT_USAGE with e
 * filled, naming the option (the first problem in that order). */
/* Return values: B_EXIT_OK; B_EXIT_USAGE with e filled. */
BENCH_API enum b_exit load_client_check(const struct bench_opts *o, struct b_err *e);

/* load_stopping - should an event or a setup phase that runs long stop now (a signal, or
 * the run is ending on a failure)? Cheap: long loops call it every few milliseconds. */
BENCH_API bool load_stopping(const struct load_run *r);

/* defined in bench.c */
struct load_hooks;
/* load_snapshot - sum every thread's counters into *s (allocated by res_snap_init). */
BENCH_API void load_snapshot(struct load_run *r, struct load_snap *s);
/* The first failure wins: its code, and the worker's error detail, become the run's. */
BENCH_API void load_fail(struct load_run *r, int rc, const struct b_err *e);
/* --rate: take the earliest arrival of the run's one Poisson process (lock-free); returns its
 * intended start. Also the event loops' (evl_arrival). */
BENCH_API u64 load_arrival(struct load_thread *t);
/*
 * load_claim - may thread t start another event now? Checks the stop flags, the per-thread
 * limit, --time and --events (the shared counter, only once warmup is over) and records why
 * not in t->end_why. Workloads that time their own events (self_timed) call it per request.
 */
BENCH_API bool load_claim(struct load_thread *t, u64 now);
/* load_record_op - record one event of kind op (for per-operation latency, e.g. fileio). */
BENCH_API inline void load_record_op(struct load_thread *t, int op, u64 lat);
/* load_debug - a debug line of the run to its sink (dropped without one). */
BENCH_API void load_debug(const struct load_run *r, const char *fmt, ...) B_PRINTF(2, 3);
/* load_auto_loops - --event-loops=auto for n connections: one loop per LOAD_LOOP_CONNS, at
 * least 1, at most the usable CPUs. */
BENCH_API int load_auto_loops(i64 n);
/* --event-loops as a number: -1 auto (the usable CPUs at run time; the sysbench persona: 0,
 * sysbench's thread per connection), 0 a thread per connection, N loops; -2 invalid (cli_
 * refuses it before any run). */
BENCH_API i64 load_event_loops(const struct bench_opts *o);
/* load_run_init - set up a run of workload w with nthreads workers (nothing started yet). */
BENCH_API void load_run_init(struct load_run *r, const struct wl_def *w,
                             const struct bench_opts *o);
BENCH_API void load_run_free(struct load_run *r);
/* load_join - wait for every worker (thread or event loop) to leave. */
BENCH_API void load_join(struct load_run *r);
/* load_start - create the workers and wait until all have run thread_init.
 * Returns B_OK, or the first failure (r->err says more); then the workers are released to
 * exit at once and joined. */
/* Return values: B_OK; B_SYSERR when a worker cannot be created; or the first worker's failure
 * (r->err). */
BENCH_API enum b_rc load_start(struct load_run *r) B_MUSTCHECK;
/*
 * load_start_at_setup - with --start-at: read the clock state into the result's facts and
 * refuse an unsynchronized clock (unless --start-at-force), a time already past; convert the
 * target to the monotonic clock once. B_OK (also without --start-at), else r->err says why.
 */
/* Return values: B_OK; B_INVALID (a time past) or load_clock_refuse's B_UNSUPPORTED, r->err
 * filled. */
BENCH_API enum b_rc load_start_at_setup(struct load_run *r) B_MUSTCHECK;
/*
 * load_start_at_wait - with --start-at, once the workers are connected and ready: sleep until
 * the instant minus --warmup-time (in slices: a signal ends the wait), so that the measured
 * window starts at it. A target already passed (connecting took too long) is an error, not a
 * late start. On failure the workers are joined and r->err says why.
 */
/* Return values: B_OK; B_TIMEOUT when the instant passed before the workers were ready; B_INTR
 * when a signal ended the wait (r->err filled). */
BENCH_API enum b_rc load_start_at_wait(struct load_run *r) B_MUSTCHECK;
/* load_go - start the clock and release the workers. */
BENCH_API void load_go(struct load_run *r);
/*
 * load_run_main - the controller: sleep until the next interval report, checkpoint, end of
 * warmup or forced shutdown, act, repeat until every worker has finished; then join them.
 */
BENCH_API void load_run_main(struct load_run *r, const struct load_hooks *hk);

/*== 16 cpu_, mem_ : CPU and memory workloads ===============================*/

/* defined in bench.c */
struct mem_caches; struct mem_room;
/* mem_caches - sysfs (cpu0's index*), else CPUID, else 32 KiB / 1 MiB / 32 MiB; the last
 * level each source claims is kept apart (llc_sysfs, llc_cpuid) for mem_llc_use's
 * cross-check. */
BENCH_API void mem_caches_read(struct mem_caches *c);
/* mem_llc_cap - llc, or MEM_LLC_PER_CPU per CPU where the claim is not plausible. */
BENCH_API u64 mem_llc_cap(u64 llc, int ncpu);
/* mem_llc_use - the last level to size working sets from (mem_llc_pick over c's claims). */
BENCH_API u64 mem_llc_use(const struct mem_caches *c, int ncpu);
/* mem_room - the memory a run may take (MemAvailable, or less under a cgroup limit), filled in
 * *m with where it comes from; returns m->bytes. */
BENCH_API u64 mem_room(struct mem_room *m);
/* The median of v[0..n) (sorted in place); 0 when empty. */
BENCH_API double mem_median(double *v, int n);

/*== 18 jr_ : JSON reader: untrusted bytes to a tree, paths =================*/

/* The reader is a library for commands that read reports (compare, merge): its API is
 * B_UNUSED so that a build without one of them stays warning-free. */

/* Kinds of JSON value. */
enum jr_type { JR_NULL, JR_FALSE, JR_TRUE, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

#define JR_MAX_DEPTH 64                     /* nesting of arrays and objects */
#define JR_MAX_FILE_BYTES (64u << 20)       /* jr_parse_file refuses larger files */
#define JR_MAX_ARENA_BYTES ((size_t)256 << 20) /* jr_parse: the most memory one document takes */

/* One value of a parsed document; all of them live in the document's one arena. */
struct jr_val {
    u8 type;                 /* enum jr_type */
    u8 exact;                /* JR_NUM: an integer literal that fits: mag holds it exactly */
    u8 neg;                  /* JR_NUM exact: negative (the value is -mag) */
    u32 n;                   /* JR_ARR/JR_OBJ: items or members; JR_STR: bytes (no NUL) */
    u32 keylen;              /* bytes of key */
    const char *key;         /* member name (NUL-terminated UTF-8); NULL outside objects */
    const char *s;           /* JR_STR: the decoded text; JR_NUM: the number's literal text */
    struct jr_val *next;     /* next member or item of the parent; NULL at the end */
    struct jr_val *kid;      /* JR_ARR/JR_OBJ: first member or item */
    double num;              /* JR_NUM: the value as a double (strtod, round to nearest) */
    u64 mag;                 /* JR_NUM exact: the magnitude */
};

/* A parsed document: the root and the arena every value and string lives in. */
struct jr_doc {
    struct jr_val *root;
    void *arena;             /* one allocation, freed by jr_free */
    size_t arena_bytes;
};

/* jr_parse - parse len bytes of RFC 8259 JSON (one value, whitespace around it) into *doc,
 * strictly: no comments, trailing commas, BOM, leading zeros or '+'; strings valid UTF-8 with
 * no raw control characters; \u escapes (surrogate pairs joined; a lone surrogate refused)
 * decoded to UTF-8; depth <= JR_MAX_DEPTH. Duplicate member names are kept; lookups find the
 * first. what names the input in messages ("A.json"). Return values: B_OK; B_INVALID with e
 * (b_fail, exit code B_EXIT_FAIL): "reading WHAT: line L col C: expected ',' or '}'". */
BENCH_API enum b_rc jr_parse(const char *p, size_t len, const char *what, struct jr_doc *doc,
                             struct b_err *e) B_MUSTCHECK B_UNUSED;
/* jr_parse_max - jr_parse with a budget: a document whose values and strings would take more
 * than max_arena bytes is refused (B_INVALID) before any is allocated. jr_parse's budget is
 * JR_MAX_ARENA_BYTES. Either stops with B_DONE ("interrupted by SIGINT") when b_stop is set. */
/* Return values: B_OK; B_INVALID (not JSON, over a limit: e); B_NOMEM; B_DONE when interrupted. */
BENCH_API enum b_rc jr_parse_max(const char *p, size_t len, const char *what, size_t max_arena,
                                 struct jr_doc *doc, struct b_err *e) B_MUSTCHECK B_UNUSED;
/* jr_parse_file - read path (a regular file of at most JR_MAX_FILE_BYTES, no FIFO, device or
 * directory) and parse it. Return values: B_OK; B_SYSERR with e (exit code B_EXIT_ENV) when
 * it cannot be opened or read; B_INVALID with e (B_EXIT_FAIL) when it is not a regular file,
 * too large or not JSON. */
BENCH_API enum b_rc jr_parse_file(const char *path, struct jr_doc *doc,
                                  struct b_err *e) B_MUSTCHECK B_UNUSED;
/* jr_parse_report - jr_parse_file with limits (max_file bytes of file, max_arena of memory)
 * that also reads JSON lines (a run's --format=json stdout): when the whole file is not one
 * JSON document and has more than one line, the last line that parses as a result document
 * ({"type":"result"}) is taken; with none, the whole-file error stands. */
/* Return values: as jr_parse_max, and B_SYSERR when the file cannot be read (e). */
BENCH_API enum b_rc jr_parse_report(const char *path, size_t max_file, size_t max_arena,
                                    struct jr_doc *doc, struct b_err *e) B_MUSTCHECK B_UNUSED;
/* jr_free - release the document (its values and strings); zeroes it. */
BENCH_API void jr_free(struct jr_doc *doc) B_UNUSED;
/* jr_get - the first member of object o named name; NULL if o is not an object or has none. */
BENCH_API const struct jr_val *jr_get(const struct jr_val *o, const char *name) B_UNUSED;
/* jr_at - item i of array a; NULL if a is not an array or is shorter. */
BENCH_API const struct jr_val *jr_at(const struct jr_val *a, size_t i) B_UNUSED;
/* jr_path - the value at a dotted path: "cpu.events_per_s", "steps.2.tps" (an array step is a
 * decimal index). Member names that contain dots themselves ("facts" of bench all hold
 * "cpu.events_per_s") match too: at an object, a member whose name equals the rest of the path
 * or a prefix of it ending at a '.' is tried, whole names first. NULL if nothing is there. */
BENCH_API const struct jr_val *jr_path(const struct jr_val *root, const char *path) B_UNUSED;
/* jr_first / jr_next - iterate the members of an object or the items of an array:
 * for (v = jr_first(a); v; v = jr_next(v)). jr_first is NULL for other kinds. */
BENCH_API const struct jr_val *jr_first(const struct jr_val *v) B_UNUSED;
BENCH_API const struct jr_val *jr_next(const struct jr_val *v) B_UNUSED;
/* Typed getters: true with *out set when v (may be NULL) is of the kind, else false.
 * jr_num: any number as a double; jr_i64/jr_u64: an integer literal that fits exactly
 * (histogram counts stay exact); jr_str: the text (NUL-terminated; *len may be NULL); jr_bool. */
BENCH_API bool jr_num(const struct jr_val *v, double *out) B_UNUSED;
BENCH_API bool jr_i64(const struct jr_val *v, i64 *out) B_UNUSED;
BENCH_API bool jr_u64(const struct jr_val *v, u64 *out) B_UNUSED;
BENCH_API bool jr_str(const struct jr_val *v, const char **out, size_t *len) B_UNUSED;
BENCH_API bool jr_bool(const struct jr_val *v, bool *out) B_UNUSED;
/* jr_type_name - "null", "false", "true", "number", "string", "array", "object". */
BENCH_API const char *jr_type_name(int type) B_UNUSED;

/*== 5 res_ : results as data ===============================================*/

/* How a workload's counter is shown and rated (struct wl_def.ctrs). */
struct res_ctr_def {
    const char *name;  /* JSON name, unit in it: "reads", "read_bytes", "queries_read" */
    const char *unit;  /* "operations", "bytes", "queries", "errors", "connections" */
    bool rated;        /* also reported per second over the window: name + "_per_s" */
    const char *desc;  /* what it counts, for docs/json.md */
};

/* A host or target fact: key (unit in the name) and a typed value. */
enum res_type { RES_INT, RES_NUM, RES_STR, RES_BOOL };
struct res_fact {
    char key[48];
    int type;          /* enum res_type */
    i64 i;             /* RES_INT, RES_BOOL */
    double num;        /* RES_NUM */
    char *str;         /* RES_STR, owned */
};

/* A warning: something that makes the numbers mean less than they seem. */
struct res_warn {
    char code[32];     /* "page_cache", "io_uring_fallback", "tls_off", ... */
    char msg[320];
    char hint[256];
};

/* One measured window: the whole run, or up to a checkpoint. */
struct res_stats {
    double window_s;   /* what rates are over: from the window's base to its end */
    double total_s;    /* sysbench's "total time": from the measured start to the end */
    double at_s;       /* a checkpoint's time as asked; else total_s */
    u64 unfinished;    /* events inside the workload at a forced shutdown */
    i64 start_unix_ns; /* the window's base and end on the wall clock (CLOCK_REALTIME ns) */
    i64 end_unix_ns;
    int threads;       /* workers: entries of the per-thread arrays */
    struct load_snap d;/* counts of the window: events, ctr[], latency, histograms, threads */
    u64 *thr_min_ns, *thr_max_ns; /* [threads]: per-thread extremes (--debug) */
};

/* One --report-interval sample. */
struct res_interval {
    double at_s;       /* end of the interval, seconds from the measured start */
    double secs;       /* its length */
    i64 end_unix_ns;   /* its end on the wall clock (CLOCK_REALTIME ns) */
    u64 events;
    u64 ctr[LOAD_NCTR];
    int running;       /* threads still running */
    int busy;          /* threads inside an event (--rate: "concurrency") */
    u64 queue;         /* --rate: arrivals due and not yet started */
    bool rate;         /* a --rate run: queue and busy mean something */
    int down;          /* clients in an outage at its end (the outage report's timeline) */
    int npct;
    u64 pct_ns[OPT_MAX_PCT]; /* the interval's percentiles (o->pct) */
};

/* What a failed statement or login of a database client was (the outage report's classes). */
enum res_oc { RES_OC_LOST, RES_OC_REFUSED, RES_OC_READ_ONLY, RES_OC_DEADLOCK, RES_OC_DUPLICATE,
              RES_OC_TIMEOUT, RES_OC_OTHER, RES_OC_N };

/* One unavailability window of one client: from its first failed statement (or lost
 * connection) to its first success after it. end_unix_ns 0: it never came back. */
struct res_outwin {
    int client;
    u8 cls;              /* enum res_oc of the failure that opened it */
    i64 start_unix_ns, end_unix_ns;
};

#define RES_STALL_NS 1000000000ull /* a statement slower than this: a stall (a hung server) */
#define RES_OUT_WINS 64   /* windows kept per client (the rest counted, longest and total kept) */
#define RES_OUT_EXAMPLES 8 /* lost writes named */

/* The outage report of a run of database clients (NULL in struct res when none happened and
 * none was asked): the windows, the errors by class, and --verify-writes' audit. */
struct res_outage {
    int clients;         /* the run's clients */
    u64 *cls;            /* [clients * RES_OC_N]: failed statements and logins by class */
    u64 *wins;           /* [clients]: windows (all of them; win keeps RES_OUT_WINS each) */
    struct res_outwin *win;
    int nwin, capwin;
    u64 longest_ns, total_ns; /* the longest window, and all windows' sum */
    int never_back;      /* clients in an outage at the run's end */
    u64 stalls;          /* statements that succeeded after more than RES_STALL_NS */
    u64 stall_longest_ns;
    i64 first_unix_ns;   /* the run's first failure, 0: none */
    double recovery_s;   /* first failure -> throughput back at 95% of before; <0: not */
    double before_per_s; /* the throughput before it (events/s) */
    /* --verify-writes: the ledger checked against the server after the run */
    bool verify;         /* asked */
    bool verified;       /* the check ran (verify_err says why not) */
    u64 acked;           /* writes the server acknowledged (the last state of each row) */
    u64 lost;            /* of those: missing or different on the server */
    u64 unknown;         /* writes whose outcome was unknown (the connection died first) */
    u64 unknown_present; /* of those: found on the server */
    int nlost_ex;
    struct { u32 table; i64 id; bool missing; } lost_ex[RES_OUT_EXAMPLES];
    u64 ledger_bytes;    /* the ledgers' memory */
    u64 not_kept;        /* row states past the ledgers' bound (1 GiB a run): not checked */
    u64 not_checked;     /* acknowledged writes on a server the audit could not reach (of
                            acked; verify_err says which and why) */
    u64 unknown_noid;    /* of unknown: auto-increment INSERTs (no id: cannot be checked) */
    bool interrupted;    /* a signal stopped the audit: its counts are partial */
    bool no_baseline;    /* the first unavailability came before a whole 100 ms of the run */
    char verify_err[200];
};

/* How a run ended. */
enum res_end {
    RES_END_NONE,      /* not run (setup failed) */
    RES_END_LIMIT,     /* --time, --events or the workload's own limit: complete */
    RES_END_SIGNAL,    /* SIGINT/SIGTERM/SIGPIPE: stopped early */
    RES_END_FAILED,    /* a worker failed: err says why */
    RES_END_FORCED,    /* --forced-shutdown with events still running */
    RES_END_QUEUE,     /* --rate: the backlog exceeded the queue */
};

/* Live events of a run, for renderers that print as it goes (rep_). */
enum res_phase {
    RES_PH_HEADER,     /* facts gathered, before the workload's init */
    RES_PH_READY,      /* init done, workers about to be created */
    RES_PH_STARTED,    /* workers released */
    RES_PH_STOPPED,    /* workers ended (joined, or abandoned on a forced shutdown) */
};
/* What a res_say line is, so that the CLI prints it where the persona does:
 * PROGRESS  what sysbench's scripts print() (prepare, cleanup, prewarm), not muted by
 *           --verbosity;
 * NOTE      a notice of the report's stream ("Initializing worker threads...");
 * DEBUG     --debug lines;
 * MSG, WARN, HINT  a message, a warning, a hint in the persona's words and stream (b_msg's
 *           NOTE, WARN, HINT: "bench: ...", "bench: warning: ...", "bench: hint: ...");
 * STATUS    a status line a terminal rewrites in place ("loading sbtest1: 5000 of 25000 rows");
 *           the last of a series ends in '\n'; shown only where the persona has one. */
enum res_say { RES_SAY_PROGRESS, RES_SAY_NOTE, RES_SAY_DEBUG, RES_SAY_MSG, RES_SAY_WARN,
               RES_SAY_HINT, RES_SAY_STATUS };

struct res_sink {
    void *ctx;
    void (*phase)(void *ctx, struct res *res, int phase);
    void (*interval)(void *ctx, struct res *res, const struct res_interval *iv);
    void (*checkpoint)(void *ctx, struct res *res, const struct res_stats *s);
    /* progress and notes of prepare/cleanup/commands, debug lines: text without '\n' */
    void (*say)(void *ctx, int kind, const char *text);
    /* a command's output text as it is made (slap --only-print's statements), len bytes,
     * '\n' included; text NULL: write out what is held (before a child process writes to
     * the same stream). NULL: the command keeps the text in a fact instead (JSON). */
    void (*out)(void *ctx, const char *text, size_t len);
};

/* The result of one command: a run, a prepare/cleanup, ping, the one-liner (steps). */
struct res {
    const struct wl_def *w;
    const char *command;         /* "run", "prepare", "cleanup", "prewarm", "ping", ... */
    struct bench_opts *o;        /* the options it ran with (commands may adjust them) */
    const struct res_sink *sink; /* may be NULL: nothing live */
    i64 started_unix_ms;         /* wall clock at the start */
    double elapsed_s;            /* wall time of the whole command */
    struct res_fact *facts;
    int nfacts, capfacts;
    struct res_warn *warns;
    int nwarns, capwarns;
    bool have_final;             /* final is filled */
    struct res_stats final;
    struct res_interval *iv;
    int niv, capiv;
    struct res_stats *ckpt;
    int nckpt, capckpt;
    int end;                     /* enum res_end */
    int end_signal;              /* RES_END_SIGNAL: which */
    int end_why[3];              /* threads that left on: none, --time, --events */
    bool complete;               /* ran to its limit, no failure, signal or forced shutdown */
    int rc;                      /* B_OK or the failure */
    struct b_err err;            /* the failure */
    struct res *steps;           /* sub-results (a ladder), [nsteps] */
    int nsteps, capsteps;
    struct res_outage *outage;   /* database clients' outages and write audit, or NULL */
};

/* res_init/res_free - an empty result for command cmd of workload w (w may be NULL). */
BENCH_API void res_init(struct res *res, const struct wl_def *w, const char *cmd,
                        struct bench_opts *o, const struct res_sink *sink);
BENCH_API void res_free(struct res *res);
/* res_outage_new - res->outage for n clients (allocated, zeroed; an existing one is kept). */
BENCH_API struct res_outage *res_outage_new(struct res *res, int n);
/* res_fact_int/_num/_str/_bool - add (or replace) a fact. */
BENCH_API void res_fact_int(struct res *res, const char *key, i64 v);
BENCH_API void res_fact_num(struct res *res, const char *key, double v);
BENCH_API void res_fact_str(struct res *res, const char *key, const char *fmt, ...)
    B_PRINTF(3, 4);
BENCH_API void res_fact_bool(struct res *res, const char *key, bool v);
/* res_fact - look a fact up; NULL if absent. */
BENCH_API const struct res_fact *res_fact(const struct res *res, const char *key);
/* res_warn - add a warning (code, message, hint). */
BENCH_API void res_warn(struct res *res, const char *code, const char *hint, const char *fmt,
                        ...) B_PRINTF(4, 5);
/* res_say - a progress/note/debug line to the sink as it happens (dropped without one). */
BENCH_API void res_say(const struct res *res, int kind, const char *fmt, ...) B_PRINTF(3, 4);
/* res_step - append a sub-result and return it (initialised like res_init). */
BENCH_API struct res *res_step(struct res *res, const struct wl_def *w, const char *cmd);
/* res_stats_merge - dst += src: counts and histograms added, extremes kept, windows summed
 * (two runs of the same workload and options in a row: one longer run's counts). */
/* Return values: B_OK; B_INVALID when the operation kinds differ (dst unchanged). */
BENCH_API enum b_rc res_stats_merge(struct res_stats *dst, const struct res_stats *src) B_MUSTCHECK;

/* res_snap_init/res_snap_free - a snapshot's counters for nthreads threads and nops operation
 * kinds (heap), and their release. */
BENCH_API void res_snap_init(struct load_snap *s, int nthreads, int nops);
BENCH_API void res_snap_free(struct load_snap *s);
/* res_snap_diff - d = a - b for the additive fields; min/max and busy are a's. */
BENCH_API void res_snap_diff(struct load_snap *d, const struct load_snap *a,
                              const struct load_snap *b, int nthreads);
BENCH_API void res_stats_free(struct res_stats *s);
/* Make room for one more element of an array that grows by doubling. */
BENCH_API void *res_grow(void *p, int *cap, int n, size_t size);
/* res_stats_from - the window cur - base as a result's statistics (allocates s). */
BENCH_API void res_stats_from(struct res_stats *s, const struct load_run *r,
                              const struct load_snap *cur, u64 t_end_ns);

/*== 19 io_ : the fileio workload ===========================================*/

/* defined in bench.c */
/* io_crc32 - CRC-32 (IEEE 802.3, zlib's crc32) of p[n] continuing crc (0 to start). */
BENCH_API u32 io_crc32(u32 crc, const u8 *p, size_t n);
struct io_shared;
BENCH_API bool io_mode_random(int mode);
/* The path of test file i in --file-dir. */
BENCH_API void io_path(const struct bench_opts *o, int i, char *out, size_t n);
/* io_test_mode - --file-test-mode's index of s (io_mode_names), or -1. */
BENCH_API int io_test_mode(const char *s);
/* Fill sh from the options (no I/O). */
BENCH_API void io_params(struct io_shared *sh, const struct bench_opts *o, int mode);
/* "Extra file open flags: sync dsync directio" as sysbench prints it, from the words given
 * (io_parse_flags): "sync" alone shows as "sync ", not "sync dsync ". The line of prepare's
 * progress and of the run header (rep_io_flags). */
BENCH_API const char *io_flags_text(int words, char *out, size_t n);
/* prepare: create (or extend) test_file.N with incompressible data. sysbench's progress
 * lines go to res's sink (the bench persona states the size it writes: whole blocks); the
 * facts: files, file_size_bytes, total_size_bytes, written_bytes; a failure in res->err. */
/* Return values: B_EXIT_OK; B_EXIT_FAIL or res->err.ex with res->err filled. */
BENCH_API enum b_exit io_prepare(struct res *res);
/* cleanup: remove test_file.N, but only those the manifest proves bench made (the
 * sysbench persona: or whose size prepare writes), never through a symlink; whatever the
 * size options, every file the manifest records goes, also beyond --file-num (sysbench
 * removes only test_file.0 to --file-num - 1: a prepare with more files left the rest).
 * Files left alone are warnings ("not_ours"); the facts: files, file_size_bytes,
 * total_size_bytes, removed_files; a failure in res->err. */
/* Return values: B_EXIT_OK; B_EXIT_FAIL or res->err.ex with res->err filled. */
BENCH_API enum b_exit io_cleanup(struct res *res);

/*== 20 evl_ : event loop: many client connections per thread ===============*/

/* What a client of an event loop waits for: a value > 0, beside the B_* codes (<= 0) in the
 * int that ev_start/ev_step/ev_connect return (MYC_WANT_READ/WRITE have the first two). */
enum evl_want {
    EVL_WANT_READ = 1,
    EVL_WANT_WRITE = 2,
    /* Not done, bytes already there: step again at the next turn (no edge may come for them). */
    EVL_WANT_RUN = 3,
    /* Waiting for a time, t->ev_wake_ns (a retry's backoff): step it then. */
    EVL_WANT_TIMER = 4,
    /* Connect phase: every login slot of the run's gate is taken: call ev_connect again soon. */
    EVL_WANT_SLOT = 5,
};

/*
 * The loop core (in the spirit of redis's ae.c): a loop thread owns a struct evl of n
 * clients (indices 0..n-1), each served through the callbacks of its evl_ops; the core keeps
 * their sockets watched (epoll or io_uring, evl_be_*; on io_uring the sends and receives on
 * the ring, evl_tx), their run queues (a client in at most one) and their timers (in due
 * order), and turns (evl_run). The logins of every client, reconnects included, go through
 * its run's gate (myc_gate): a login finding it full waits in EVL_Q_SLOT (ops.slot when a
 * slot may be free), a retry's backoff on its timer (ops.timer). Clients: the OLTP tests'
 * (load_thread, wl_def.ev_*: evl_thread) and slap's (slap_loop_main).
 */
struct evl;
struct my_conn;

/* The run queues of a loop: a client is in at most one of them (and, besides, timed or not). */
enum { EVL_Q_NONE, EVL_Q_READY, EVL_Q_AGAIN, EVL_Q_SLOT, EVL_Q_WAIT, EVL_NQ };

/* A loop's callbacks for its client i (e->ctx: their own state). */
struct evl_ops {
    int (*fd)(struct evl *e, int i);             /* its socket now, or -1 */
    u64 (*sock)(struct evl *e, int i);           /* optional: which socket (an id never reused) */
    u32 (*gen)(struct evl *e, int i);            /* optional: bumped when it replaced its socket */
    struct my_conn *(*conn)(struct evl *e, int i); /* optional: its connection (io_uring: the
                                                    sends and receives on the ring), or NULL */
    bool (*turn)(struct evl *e, u64 now);        /* a turn begins: false ends the loop */
    void (*run)(struct evl *e, int i);           /* taken from EVL_Q_READY */
    void (*io)(struct evl *e, int i);            /* its socket or ring said something, or it
                                                    asked to run again (EVL_Q_AGAIN) */
    void (*timer)(struct evl *e, int i);         /* its timer (evl_timer_at) is due */
    void (*slot)(struct evl *e, int i);          /* taken from EVL_Q_SLOT: a login slot may be
                                                    free (it puts itself back when not) */
    u64 (*wake)(struct evl *e, u64 now);         /* before the wait: the latest wake, 0 ends */
    void (*scan)(struct evl *e, u64 now);        /* every scan period: deadlines passed */
};

/* evl_open - a loop of n clients served by ops (ctx their state) on backend be (EVL_BE_*).
 * Return values: B_OK; B_SYSERR or B_UNSUPPORTED with *err set (close it all the same). */
BENCH_API enum b_rc evl_open(struct evl *e, const struct evl_ops *ops, void *ctx, int id, int n,
                             int be, struct b_err *err) B_MUSTCHECK;
/* evl_close - every connection off the ring, then the epoll set or ring, the core's memory. */
BENCH_API void evl_close(struct evl *e);
/* evl_run - turn until ops.turn or ops.wake ends the loop.
 * Return values: B_OK; B_SYSERR when the backend's wait failed (errno). */
BENCH_API enum b_rc evl_run(struct evl *e) B_MUSTCHECK;
/* evl_watch - keep client i's socket (ops.fd) watched; a new one replaces the old.
 * Return values: B_OK; B_SYSERR with *err set. */
BENCH_API enum b_rc evl_watch(struct evl *e, int i, struct b_err *err) B_MUSTCHECK;
/* evl_q_put - client i to the end of run queue qi (out of another first; in qi: stays). */
BENCH_API void evl_q_put(struct evl *e, int i, int qi);
/* evl_q_pop - the head of run queue qi taken out, or -1; evl_q_first - the head, or -1;
 * evl_q_len - its length. */
BENCH_API int evl_q_pop(struct evl *e, int qi);
BENCH_API int evl_q_first(const struct evl *e, int qi);
BENCH_API int evl_q_len(const struct evl *e, int qi);
/* evl_timer_at - client i's one timer, due at `at` (clk_now_ns), set or moved. */
BENCH_API void evl_timer_at(struct evl *e, int i, u64 at);
/* evl_forget - client i out of its run queue and timer. */
BENCH_API void evl_forget(struct evl *e, int i);
/* evl_tx_attach - before client i's next command: its idle connection (ops.conn) on the
 * loop's ring, when the ring carries sends and receives (else nothing). */
BENCH_API void evl_tx_attach(struct evl *e, int i);
/* evl_rb_kernel_ok - has this kernel multishot receives (the ring as the transport)? */
BENCH_API bool evl_rb_kernel_ok(void);
/* evl_uring_usable - can this process have a ring for a loop (a wait with a timeout)?
 * Return values: B_OK; B_UNSUPPORTED or B_SYSERR with *e set. */
BENCH_API enum b_rc evl_uring_usable(struct b_err *e) B_MUSTCHECK;

/* uring_probe_pair_ns - ns per send and recv pair on a ring, 8 of each per io_uring_enter
 * (load_probe_host); 0 where the kernel refuses the ring or the operations. */
BENCH_API double uring_probe_pair_ns(void);
/* evl_thread - an event loop (struct load_loop *arg): sets its clients up (thread_init),
 * then runs their events (wl_def.ev_start/ev_step) until the run's limits; load_start's
 * worker when the run has loops. */
BENCH_API void *evl_thread(void *arg);

/* The loops' readiness mechanism (--event-backend, in the order of its values). */
enum { EVL_BE_EPOLL, EVL_BE_URING, EVL_BE_AUTO };
/* evl_backend_name - "epoll" or "io_uring" (the run header's and the JSON fact's word). */
BENCH_API const char *evl_backend_name(int be);
/* evl_backend_pick - the mechanism r's loops use (r->evl_backend) from --event-backend:
 * io_uring when asked for or (auto) when the kernel grants a ring with what the loop needs
 * (IORING_ENTER_EXT_ARG: a wait with a timeout), else epoll. Returns B_OK, or with
 * --event-backend=io_uring refused, B_UNSUPPORTED/B_SYSERR with r->err filled. */
/* Return values: B_OK; B_UNSUPPORTED or B_SYSERR (r->err) when --event-backend=io_uring is
 * refused. */
BENCH_API enum b_rc evl_backend_pick(struct load_run *r) B_MUSTCHECK;

/*== 21 oltp_ : sysbench's OLTP workloads over the myc_ client ==============*/

/* defined in bench.c */
struct oltp_kv; struct oltp_job;
BENCH_API void oltp_table(const struct bench_opts *o, i64 n, char *out, size_t len);
/*
 * name as an identifier in SQL: bench's own sbtest<N> as sysbench writes it (the same
 * statements), any other name in backticks with each backtick doubled. Never spliced raw.
 */
BENCH_API void oltp_quote(const char *name, char *out, size_t len);
/* Return values: B_EXIT_OK; B_EXIT_USAGE (or e->ex) with e filled. */
BENCH_API enum b_exit oltp_check(struct bench_opts *o, struct b_err *e);
/* oltp_bump - counter k of thread t, plus one (the owner's store). */
BENCH_API void oltp_bump(struct load_thread *t, int k);
/* oltp_ignored - is a server error code in --mysql-ignore-errors ("all", or a list)? */
BENCH_API bool oltp_ignored(const struct bench_opts *o, unsigned code);
/* oltp_pg_ignored - is SQLSTATE code one sysbench's pgsql driver ignores (40P01, 23505,
 * 40001) or one of --pgsql-ignore-errors ("all", or a list)? */
BENCH_API bool oltp_pg_ignored(const struct bench_opts *o, const char *code);
/* oltp_pg_count - count one PostgreSQL statement of t by its result, as sysbench's pgsql
 * driver does (a row set: read; rows changed: write; else other). */
BENCH_API void oltp_pg_count(struct load_thread *t, const struct pgc_result *res);
/* oltp_pg_params - the pgsql workloads' connection: sysbench's defaults unless --pgsql-url
 * says otherwise. Return values: B_OK; B_INVALID with e filled. */
BENCH_API enum b_rc oltp_pg_params(const struct bench_opts *o, struct pgc_conn_params *cc,
                                   struct b_err *e) B_MUSTCHECK;
/* oltp_sb_fatal - the sysbench persona's words for a failure in e ("FATAL: " and the text). */
BENCH_API void oltp_sb_fatal(struct b_err *e, const char *fmt, ...) B_PRINTF(2, 3);
/* oltp_grow - realloc that dies on failure. */
BENCH_API void *oltp_grow(void *p, size_t n);
/* oltp_login_error - a failed login (rc after tries attempts, c->err) into *e in sysbench's and
 * bench's words, with a hint; gated: in the workers' connect phase. */
BENCH_API void oltp_login_error(struct b_err *e, const struct bench_opts *o, struct my_conn *c,
                                const struct myc_params *cp, int rc, unsigned tries, bool gated);
/* A name as an SQL string that no byte of it can end: CONVERT(X'hex' USING utf8mb4). */
BENCH_API void oltp_put_name(struct buf *q, const char *name);
/* oltp_schema_row - information_schema.TABLES' row of table tbl in the current schema: the
 * columns of `what` into kv (oltp_schema_where). Return values: B_OK (kv->n 0 when there is
 * none); myc_query's failures. */
BENCH_API enum b_rc oltp_schema_row(struct my_conn *c, const char *what, const char *from,
                                    const char *tbl, struct oltp_kv *kv) B_MUSTCHECK;
/* Run fn over the tables: in the main thread, or dealt round-robin to --threads threads. Lines
 * go to res (w's command), the first failure to res->err. Returns an exit code. */
/* Return values: B_EXIT_OK; the first failure's exit code (res->err); 128 + the signal when one
 * stops it (sig_kills). */
BENCH_API enum b_exit oltp_jobs(struct res *res, const struct bench_opts *o, const struct wl_def *w,
                                int (*fn)(struct oltp_job *, struct my_conn *, i64));
/* The 1.0 workload a 0.4 `--test=oltp` command line means, or NULL. */
BENCH_API const char *oltp_legacy_map(const struct bench_opts *o);

/*== 22 slap_ : mysqlslap mode: generated SQL, statement lists ==============*/

/* One statement of a list: mysqlslap's statement type decides what is appended to it. */
enum slap_type { SLAP_T_OTHER, SLAP_T_CREATE_TABLE, SLAP_T_SELECT_KEY, SLAP_T_UPDATE_KEY };
struct slap_stmt {
    char *sql;         /* owned, NUL-terminated */
    size_t len;        /* 0 ends the list (mysqlslap stops at an empty piece) */
    int type;          /* enum slap_type */
};
struct slap_list {
    struct slap_stmt *v;
    size_t n, cap;
    u64 pieces;        /* pieces cut by the delimiter, empty ones included (mysqlslap's count) */
};

/* What mysqlslap builds from its options before it connects (auto-generated or given SQL). */
struct slap_plan {
    struct slap_list create, query, pre, post;
    char **engines, **engine_opts; /* --engine items: name and option ("" = none) */
    size_t nengines;
    i64 *conc;                     /* --concurrency values, up to the first 0 */
    size_t nconc;
    int int_cols, int_index, char_cols, char_index; /* -y, -x: N[:I] */
    bool drop;                     /* (--create or -a) and not --no-drop: the schema goes */
    bool keyed;                    /* autoincrement or GUID primary key: a key list is made */
};

/* slap_split - cut text at every delim as mysqlslap's parse_delimiter: one whitespace after a
 * delimiter skipped, the first piece typed CREATE TABLE, an empty piece ends the walk. */
BENCH_API void slap_split(const char *text, char delim, struct slap_list *l);
/* slap_build - the plan from the options (generated SQL: glibc random() from seed 1, as
 * mysqlslap's statements). Returns an exit code; e says why on failure. */
/* Return values: B_EXIT_OK; B_EXIT_USAGE or B_EXIT_ENV with e filled. */
BENCH_API enum b_exit slap_build(const struct bench_opts *o, struct slap_plan *p, struct b_err *e);
BENCH_API void slap_plan_free(struct slap_plan *p);
/* slap_main - the slap command: fills res (one step per engine x concurrency) and never
 * prints; the text is rep_slap_*'s. */
/* Return values: B_EXIT_OK; the failure's exit code with res->err filled. */
BENCH_API enum b_exit slap_main(struct res *res);
/* slap_args - mysqlslap's command line (short options, "--name value", --skip-x, -v counted,
 * --csv without a value) as bench's "slap --name=value" words, when forced (argv0 is a slap
 * name) or the test named is slap: returns the new argc and *out (out[0] is argv[0]; the
 * other strings and the array are the caller's to free). Else returns 0, *out NULL.
 * Returns -1 for an option that needs a value and has none (*bad: the option as written),
 * -2 for a third positional when forced (*bad: it; mysqlslap's "Too many arguments"); *out
 * is then still the caller's to free (out[1..] up to the first NULL). */
BENCH_API int slap_args(int argc, char **argv, bool forced, char ***out, const char **bad);

/*== 23 wl_ : workload registry =============================================*/

/* Which renderer of rep_ shows a workload's header, final block and interval lines. */
enum wl_family { WL_CMD, WL_CPU, WL_MEMORY, WL_THREADS, WL_MUTEX, WL_FILEIO, WL_OLTP,
                 WL_TPCC };

/* A workload: sysbench's sb_test_t. Hooks may be NULL. */
struct my_conn; /* bench.c section 11 (myc_) */

struct wl_def {
    const char *name;                          /* "cpu" */
    const char *desc;                          /* "CPU performance test" */
    const struct opt_def *opts;                /* its options, sorted */
    size_t nopts;                              /* rows in opts */
    bool own_limit;                            /* sets its own event limit (memory, mutex) */
    int nops;                                  /* operation kinds with their own latency */
    const char *const *op_names;               /* [nops] */
    /* check hooks validate (and may adjust) the options before anything is printed or
     * touched; they return an exit code, B_EXIT_OK or what e says (cli_err_print prints e) */
    enum b_exit (*check)(struct bench_opts *o, struct b_err *e); /* run */
    bool db;                                   /* connects to a database server */
    /* commands fill res (res->o, res->w, res->sink for progress, res->err on failure) and
     * return an exit code; they never print */
    enum b_exit (*command)(struct res *res); /* a command of its own instead of the engine */
    enum b_exit (*check_common)(struct bench_opts *o, struct b_err *e); /* prepare, cleanup */
    enum b_exit (*prepare)(struct res *res);
    enum b_exit (*cleanup)(struct res *res);
    enum b_exit (*prewarm)(struct res *res);
    enum b_exit (*audit)(struct res *res);       /* `check`: the data's consistency (tpcc) */
    int variant;                               /* which of a family (the oltp_* scripts) */
    bool hidden;                               /* not listed in --help */
    bool files;                                /* takes file operands after its name, not a
                                                  command word (bench merge A.json B.json) */
    enum b_rc (*init)(struct load_run *r);     /* shared setup before threads start */
    enum b_rc (*thread_init)(struct load_thread *t); /* per-thread setup */
    enum b_rc (*event)(struct load_thread *t);       /* one event: B_OK, B_DONE or an error */
    /* the same event without blocking (evl_, --event-loops): ev_start begins one, ev_step
     * goes on once ev_fd's socket is ready; both return EVL_WANT_READ/WRITE (wait on
     * ev_fd), B_OK (done), B_DONE (the client is finished) or an error */
    int (*ev_start)(struct load_thread *t);
    int (*ev_step)(struct load_thread *t);
    int (*ev_fd)(const struct load_thread *t);
    u64 (*ev_sock)(const struct load_thread *t); /* optional: which socket ev_fd is (an id
                                                    never reused; myc_sock_id) */
    /* optional: the connection on ev_fd (--event-backend=io_uring: its sends and receives go
     * on the loop's ring between logins: evl_tx) */
    struct my_conn *(*ev_conn)(struct load_thread *t);
    /* thread_init without blocking (evl_'s connect phase; thread mode keeps thread_init):
     * called first, then whenever ev_fd is ready, its timer is due or a slot may be free;
     * returns EVL_WANT_READ/WRITE/RUN/TIMER/SLOT, B_OK (set up) or an error (t->err) */
    int (*ev_connect)(struct load_thread *t);
    /* per-thread teardown: B_OK, or a failure in t->err (a last statement: the run fails
     * with it as with one mid-run) */
    enum b_rc (*thread_done)(struct load_thread *t);
    void (*done)(struct load_run *r);          /* shared teardown */
    void (*facts)(struct load_run *r);         /* host/target facts and warnings for the
                                                  header, before init (res_fact_*, res_warn) */
    int family;                                /* enum wl_family: which renderer (rep_) */
    const struct res_ctr_def *ctrs;            /* what ctr[0..nctrs-1] count */
    int nctrs;
};

/* wl_run - run workload w once with options o into *res (res_init'ed with its sink): B_OK
 * when measured (res->end, res->complete say how it ended), else a setup failure's code with
 * res->err. Never prints, never exits the process (see bench.c). */
/* Return values: B_OK when measured; a setup failure's B_* code with res->err filled. */
BENCH_API enum b_rc wl_run(const struct wl_def *w, struct bench_opts *o,
                           struct res *res) B_MUSTCHECK;
/* wl_reap - free runs abandoned at a forced shutdown once their workers left; waits up to
 * wait_ms; returns how many are still out. */
BENCH_API int wl_reap(int wait_ms);

/* wl_find - a built-in by name, or by a script path "dir/name.lua"; NULL if none. */
BENCH_API const struct wl_def *wl_find(const char *name);
/*
 * wl_script_check - may the test name (a path ending in ".lua", or a plain name) stand for
 * a built-in? B_EXIT_OK: a plain name, a file under sysbench's script directory, a name with
 * no directory that is not a file here (sysbench looks in its directory), or sysbench
 * 1.0.20's script byte for byte. Else B_EXIT_USAGE with e saying why.
 */
/* Return values: B_EXIT_OK; B_EXIT_USAGE with e filled. */
BENCH_API enum b_exit wl_script_check(const char *name, struct b_err *e);
/*
 * wl_script_cwd - the sysbench persona's plain script name (oltp_read_write): sysbench 1.0.20
 * loads the file NAME, then NAME.lua, from the working directory before its own (luaL_loadfile,
 * then package.path's "./?.lua"), so an edited copy there is what sysbench would run: checked
 * as a path is (wl_script_check). B_EXIT_OK when none is there.
 */
/* Return values: B_EXIT_OK; B_EXIT_USAGE with e filled. */
BENCH_API enum b_exit wl_script_cwd(const char *name, struct b_err *e);

/*== 24 ping_, sizing_ : commands of their own: ping, the oltp one-liner ====*/

/* defined in bench.c */
struct sizing_row;
/*
 * ping_main - `bench ping`: connect, log in, and time COM_PING, SELECT 1 and a prepared
 * SELECT ?, --count each. Facts: the server, TLS, plugin, connect time, its settings; the
 * round trips of each kind a step with its final statistics (res->final: COM_PING's). Prints
 * nothing: rep_ping shows it. The first thing to run against a new DB host.
 */
/* Return values: B_EXIT_OK; B_EXIT_ENV (connect, login), B_EXIT_FAIL with res->err filled. */
BENCH_API enum b_exit ping_main(struct res *res);
/* sizing_row_of - the figures of step st (a measured run of the ladder). */
BENCH_API void sizing_row_of(const struct res *st, struct sizing_row *row);
/* Return values: B_EXIT_OK; B_EXIT_ENV or the failure's exit code with res->err filled. */
BENCH_API enum b_exit sizing_main(struct res *res);
/* sizing_pg_target - do o's options name a PostgreSQL server for the one-liner and bench all
 * (--db-driver=pgsql, --pgsql-url or any --pgsql-* connection option)? */
BENCH_API bool sizing_pg_target(const struct bench_opts *o);

/*== 25 all_ : bench all: the one-page sizing report, checks, settings ======*/

/* all_num, all_str - a fact of res as a number (0 and *have false when absent or not one) or
 * a string ("" when absent); all_fmt_num - v as the page prints it ("-" for NaN). */
BENCH_API double all_num(const struct res *res, const char *key, bool *have);
BENCH_API const char *all_str(const struct res *res, const char *key);
BENCH_API bool all_out_down(int cls); /* an outage class that makes a window (not contention) */
BENCH_API void all_fmt_num(char *out, size_t n, double v);
/* Return values: B_EXIT_OK (also without --html); e->ex with e filled when the file cannot be
 * made. */
BENCH_API enum b_exit all_html_open(const struct bench_opts *o, struct b_err *e);
/* No report to write (a usage error, --list): the file this run created goes. */
BENCH_API void all_html_close(const struct bench_opts *o);

/*== 27 cmp_ : bench compare: reports side by side ==========================*/

/* cmp_ends - does s end with suffix? */
BENCH_API bool cmp_ends(const char *s, const char *suffix);

/*== 28 rep_ : renderers: sysbench 1.0.20's text, JSON ======================*/

/* defined in bench.c */
struct rep_json; struct rep_json_env;
/* A command's text renderer, by workload. */
typedef void (*rep_render_fn)(const struct res *res);
/* Warnings of a result, on the message stream (b_msg: the persona's prefix). */
BENCH_API void rep_warnings(const struct res *res);
/* rep_header - sysbench's "Running the test with following options:" block. */
BENCH_API void rep_header(const struct res *res);
/* Once the workload's init is done: its own lines, then sysbench's. */
BENCH_API void rep_ready(const struct res *res);
/* One interval sample: the family's line, and --rate's queue line. */
BENCH_API void rep_interval(const struct res *res, const struct res_interval *iv);
/* rep_final - the test's own block, "General statistics", "Latency (ms)", "Threads fairness"
 * for one window (the whole run with last, or a checkpoint). */
BENCH_API void rep_final(const struct res *res, const struct res_stats *st, bool last);
/* rep_checkpoint - a --report-checkpoints block: its heading, then rep_final's. */
BENCH_API void rep_checkpoint(const struct res *res, const struct res_stats *st);
/* rep_all_html - the page as one HTML file. Returns 0, or errno when the file failed. */
BENCH_API int rep_all_html(const struct res *res, int fd);
/* rep_command_renderer - the renderer cli_command calls after a command that succeeded or
 * measured something; NULL when its progress lines were all its output. */
BENCH_API rep_render_fn rep_command_renderer(const struct res *res);
/* The one-liner's table (sizing_main's result): its heading, one row per step of the ladder
 * with each workload's knee marked, then one line per knee. */
BENCH_API void rep_sizing(const struct res *res);
/* rep_json_interval - one --report-interval sample ({"type":"interval",...}). */
BENCH_API void rep_json_interval(struct rep_json *j, const struct res *res,
                                 const struct res_interval *iv);
/* rep_json_checkpoint - one --report-checkpoints window ({"type":"checkpoint",...}). */
BENCH_API void rep_json_checkpoint(struct rep_json *j, const struct res *res,
                                   const struct res_stats *st);
/* rep_json_say - a progress line, note or debug line of a command. */
BENCH_API void rep_json_say(struct rep_json *j, int kind, const char *text);
/* Is ex the exit code of a verdict (a WARN or FAIL page that ran), not of a failure? */
BENCH_API bool rep_json_verdict_exit(const struct res *res, int ex);
/* rep_json_doc - the result document of one command ({"type":"result",...}), one line. */
BENCH_API void rep_json_doc(struct rep_json *j, const struct res *res,
                            const struct rep_json_env *env);
/* rep_json_about - --version or --help (help: true) with --format=json: one object on stdout,
 * {"type":"version"|"help","program":P,"bench_version":V,"sysbench_compatible":"1.0.20",
 * "mbedtls":M,"version_text":T}; help adds "tests": [{"name","description"}] (the tests'
 * options: `bench TEST help`, or any result document's "options"). Returns 0 or an errno. */
BENCH_API int rep_json_about(bool help, const char *program, const char *version_text);
/* rep_opt_help - an option table's help block (opt_help_text: sysbench's layout) on stdout. */
BENCH_API void rep_opt_help(const struct opt_def *t, size_t n, bool sb);
/* rep_stream - a command's output text as it is made (slap --only-print's statements, through
 * the text sink's out): held up to 64 KiB, then written to stdout in one piece; text NULL
 * writes out what is held and flushes stdout. Returns 0, or the errno of a failed write.
 * One writer at a time (slap holds its lock). */
BENCH_API int rep_stream(const char *text, size_t len);
/* rep_slap - the whole text of a slap result: --only-print's statement stream, the Benchmark
 * blocks (unless --silent, --csv or --only-print), the CSV lines, -T's usage. Returns B_OK or
 * a failure in e (the CSV file). */
/* Return values: B_OK; B_SYSERR when the CSV file cannot be opened or written (e, B_EXIT_ENV). */
BENCH_API enum b_rc rep_slap(const struct res *res, struct b_err *e) B_MUSTCHECK;

#endif /* BENCH_H */
