/*
 * bench.h - the map of bench.c.
 *
 * bench is one translation unit. This header is included by bench.c only (and, through it, by
 * tests/unit.c and the fuzzers). It lists, in the order of the sections of bench.c, the types
 * shared between sections, the error codes, and the functions each section exports to the
 * sections above it. Every function is BENCH_API, i.e. static: nothing leaks out of the binary,
 * and a prototype left here after its function is deleted warns under -Wunused-function.
 *
 * Sections of bench.c (grep -n '^/\*==' bench.c), 26 of them: 1 includes, 2 b_, 3 buf_,
 * 4 clk_/hist_, 5 unit_, 6 rnd_, 7 opt_, 8 os_, 9 my_ (MySQL codec), 10 myc_ (MySQL connection:
 * a state machine driven by bytes), 11 cpu_/mem_, 12 thr_, 13 load_, 14 jr_ (JSON reader),
 * 15 res_ (results as data), 16 uring_/io_ (fileio), 17 evl_ (the event loop of many client
 * connections per thread), 18 oltp_, 19 ping_/sizing_ (commands of their own), 20 slap_,
 * 21 all_, 22 mrg_ (bench merge), 23 cmp_ (bench compare), 24 wl_, 25 rep_, 26 cli_. The
 * types and prototypes shared between sections are here, under banners with the same numbers;
 * types used by one section only (the codec's packets, the connection, the io_uring ring) are
 * declared at the top of it.
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
    B_EXIT_OK = 0,      /* success */
    B_EXIT_FAIL = 1,    /* the run failed or its result is invalid */
    B_EXIT_USAGE = 2,   /* usage error: bad option, value or argument */
    B_EXIT_ENV = 3,     /* the environment refused: connect, auth, open, io_uring, memory */
    B_EXIT_FORCED = 2,  /* sysbench's code for --forced-shutdown (same value as usage) */
    B_EXIT_WARN = 4,       /* bench all: the page ran, some check WARN, none FAIL */
    B_EXIT_CHECK_FAIL = 5, /* bench all: the page ran, some check (or --expect term) FAIL */
    B_EXIT_NO_MEASURE = 6, /* bench all: an --expect term names no measure it makes (a typo) */
};

/* The personas: who bench is for this invocation, decided once by cli_ from argv[0]. Their
 * differences (banner, message prefixes and streams, exit codes, help) live in one table in
 * cli_ (cli_personas); lower sections never test it, they fill a struct b_err with both
 * wordings where sysbench's own differs. */
enum b_persona { B_BENCH, B_SYSBENCH, B_MYSQLSLAP };

/* Error detail filled by lower layers; only cli_/rep_ print it (cli_err_print). */
struct b_err {
    int rc;         /* B_* code */
    int sys_errno;  /* errno for B_SYSERR, else 0 */
    char msg[512];  /* "what was attempted on what target: cause" (lines: '\n' between) */
    char hint[256]; /* what to do about it, or "" */
    int ex;         /* the bench persona's exit code for it (0: the caller decides) */
    char sb[1536];  /* the sysbench persona's own text, printed verbatim (lines end in '\n');
                       "" = "FATAL: <msg>"; room for a test's option list (fileio) */
    int sb_fd;      /* where that text goes: 1 = sysbench's logger (stdout), 2 = stderr */
    int sb_ex;      /* the sysbench persona's exit code (0: as ex) */
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
BENCH_API int b_seterr(struct b_err *e, int rc, int sys_errno, const char *fmt, ...) B_PRINTF(4, 5);
/* b_fail - fill *e for a refusal in the bench persona's words and exit code ex (B_EXIT_*);
 * e->rc becomes B_INVALID unless set. Returns ex. */
BENCH_API int b_fail(struct b_err *e, int ex, const char *fmt, ...) B_PRINTF(3, 4);
/* b_hint - the hint of e ("" = none). */
BENCH_API void b_hint(struct b_err *e, const char *fmt, ...) B_PRINTF(2, 3);
/* b_fail_sb - the sysbench persona's own text for the failure in e (printed as is: end it with
 * '\n'), its stream (1 stdout, 2 stderr) and exit code. */
BENCH_API void b_fail_sb(struct b_err *e, int fd, int ex, const char *fmt, ...) B_PRINTF(4, 5);
/* b_usage_exit - the exit code of a usage error in the persona's convention (opts.usage_ex,
 * set by cli_ from its persona table; 2 before that). */
BENCH_API int b_usage_exit(void);
/* b_die - print "bench: fatal: ..." and exit(1); for programming errors and OOM during setup. */
BENCH_API _Noreturn void b_die(const char *fmt, ...) B_PRINTF(1, 2);
/* b_xmalloc/b_xcalloc - allocation that dies on failure (setup time only). */
BENCH_API void *b_xmalloc(size_t n);
BENCH_API void *b_xcalloc(size_t n, size_t size);

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

/*== 6 unit_ : sizes ========================================================*/

/* unit_parse_size - sysbench SIZE: digits plus an optional K/M/G/T (either case, x1024).
 * Stricter than sysbench: returns B_INVALID for anything else (sysbench silently gives 0). */
BENCH_API int unit_parse_size(const char *s, u64 *out) B_MUSTCHECK;
/* unit_fmt_size - "512KiB", "16MiB": up to 5 significant digits, as sysbench prints sizes. */
BENCH_API const char *unit_fmt_size(u64 bytes, char *out, size_t outlen);

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
    const char *own_mark; /* not an option: the COMMENT of the tables bench makes (NULL:
                           * "created by bench"; bench all's ladder: "created by bench all",
                           * so a dataset prepared with bench is never taken for its leftover) */
    bool sb_behaviour; /* set by cli_ from the persona's row: behave as sysbench 1.0.20 where
                          bench deliberately differs (docs/cli.md): fileio's zero fill and
                          lenient file checks, TLS off unless asked. Lower sections read this,
                          never the persona. */
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
BENCH_API int os_host_facts(const char *root, struct res *res);
/* os_dir_facts - the facts of directory dir (for --dir): its mount (type, source, options,
 * read-only, tmpfs), block device chain down to the disk and the disk's scheduler,
 * rotational, write cache and model; free space (root "" only). Under a fake root, dir is
 * taken as an absolute path of that tree. Return values: B_OK; B_SYSERR (dir cannot be
 * resolved, live) or B_INVALID (not absolute, fake root), with res->err filled. */
BENCH_API int os_dir_facts(const char *root, const char *dir, struct res *res);
/* os_cg_mem_room - the memory this process may still take before its cgroup's memory limit
 * (v2 memory.max or v1 memory.limit_in_bytes, the tightest of its cgroup and their ancestors)
 * is reached: the limit less the working set (usage less the inactive page cache) into
 * *room, the limit into *limit. Under root as os_host_facts. false: no limit applies. */
BENCH_API bool os_cg_mem_room(const char *root, double *room, double *limit);
/* os_steal_sample - read /proc/stat's cpu line (under root). Return values: B_OK;
 * B_SYSERR (unreadable); B_INVALID (malformed). */
BENCH_API int os_steal_sample(const char *root, struct os_cpu_sample *s);
/* os_steal_pct - steal time between samples a and b (b later) in percent of all CPU time;
 * 0 when no time passed or the counters went backwards. */
BENCH_API double os_steal_pct(const struct os_cpu_sample *a, const struct os_cpu_sample *b);

/*== 13 load_ : worker threads, limits, rate, intervals =====================*/

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
    u32 ev_sock_gen;           /* bumped by the workload when it replaces its socket (a
                                  reconnect: the new one may reuse the old number) */
    int ev_state;              /* EVL_C_* */
    u64 ev_wake_ns;            /* EVL_WANT_TIMER: when to step it again */
    u64 ev_deadline_ns;        /* set by the workload with EVL_WANT_READ/WRITE: the wait's
                                  deadline (a login's), stepped then even without an edge;
                                  0 = none */
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
BENCH_API int load_start_at_parse(const char *s, i64 now_unix_ns, i64 *out, struct b_err *e);
/* load_clock_read - the clock's synchronization state from adjtimex(2) (read only). */
BENCH_API void load_clock_read(struct load_clock *c);
/* load_clock_refuse - should --start-at refuse to run on this clock? B_OK, or B_UNSUPPORTED
 * with e filled when the kernel says unsynchronized and force is off (unknown: B_OK). */
BENCH_API int load_clock_refuse(const struct load_clock *c, bool force, struct b_err *e);
/* load_client_check - --client-index and --client-count (one run split among clients): both
 * or neither, count >= 1, 0 <= index < count. Returns B_EXIT_OK, else B_EXIT_USAGE with e
 * filled, naming the option (the first problem in that order). */
BENCH_API int load_client_check(const struct bench_opts *o, struct b_err *e);

/* load_stopping - should an event or a setup phase that runs long stop now (a signal, or
 * the run is ending on a failure)? Cheap: long loops call it every few milliseconds. */
BENCH_API bool load_stopping(const struct load_run *r);

/*== 16 jr_ : JSON reader: untrusted bytes to a tree, paths =================*/

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
BENCH_API int jr_parse(const char *p, size_t len, const char *what, struct jr_doc *doc,
                       struct b_err *e) B_MUSTCHECK B_UNUSED;
/* jr_parse_max - jr_parse with a budget: a document whose values and strings would take more
 * than max_arena bytes is refused (B_INVALID) before any is allocated. jr_parse's budget is
 * JR_MAX_ARENA_BYTES. Either stops with B_DONE ("interrupted by SIGINT") when b_stop is set. */
BENCH_API int jr_parse_max(const char *p, size_t len, const char *what, size_t max_arena,
                           struct jr_doc *doc, struct b_err *e) B_MUSTCHECK B_UNUSED;
/* jr_parse_file - read path (a regular file of at most JR_MAX_FILE_BYTES, no FIFO, device or
 * directory) and parse it. Return values: B_OK; B_SYSERR with e (exit code B_EXIT_ENV) when
 * it cannot be opened or read; B_INVALID with e (B_EXIT_FAIL) when it is not a regular file,
 * too large or not JSON. */
BENCH_API int jr_parse_file(const char *path, struct jr_doc *doc, struct b_err *e)
    B_MUSTCHECK B_UNUSED;
/* jr_parse_report - jr_parse_file with limits (max_file bytes of file, max_arena of memory)
 * that also reads JSON lines (a run's --format=json stdout): when the whole file is not one
 * JSON document and has more than one line, the last line that parses as a result document
 * ({"type":"result"}) is taken; with none, the whole-file error stands. */
BENCH_API int jr_parse_report(const char *path, size_t max_file, size_t max_arena,
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
    int npct;
    u64 pct_ns[OPT_MAX_PCT]; /* the interval's percentiles (o->pct) */
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
};

/* res_init/res_free - an empty result for command cmd of workload w (w may be NULL). */
BENCH_API void res_init(struct res *res, const struct wl_def *w, const char *cmd,
                        struct bench_opts *o, const struct res_sink *sink);
BENCH_API void res_free(struct res *res);
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
BENCH_API int res_stats_merge(struct res_stats *dst, const struct res_stats *src);

/*== 18 evl_ : event loop: many client connections per thread ===============*/

/* What a client of an event loop waits for (the values of MYC_WANT_READ/WRITE). */
#define EVL_WANT_READ 1
#define EVL_WANT_WRITE 2
/* Not done, bytes already there: step again at the next turn (no edge may come for them). */
#define EVL_WANT_RUN 3
/* Waiting for a time, t->ev_wake_ns (a retry's backoff): step it then. */
#define EVL_WANT_TIMER 4
/* Connect phase: every login slot of the run's gate is taken: call ev_connect again soon. */
#define EVL_WANT_SLOT 5

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
BENCH_API int evl_open(struct evl *e, const struct evl_ops *ops, void *ctx, int id, int n,
                       int be, struct b_err *err) B_MUSTCHECK;
/* evl_close - every connection off the ring, then the epoll set or ring, the core's memory. */
BENCH_API void evl_close(struct evl *e);
/* evl_run - turn until ops.turn or ops.wake ends the loop.
 * Return values: B_OK; B_SYSERR when the backend's wait failed (errno). */
BENCH_API int evl_run(struct evl *e) B_MUSTCHECK;
/* evl_watch - keep client i's socket (ops.fd) watched; a new one replaces the old.
 * Return values: B_OK; B_SYSERR with *err set. */
BENCH_API int evl_watch(struct evl *e, int i, struct b_err *err) B_MUSTCHECK;
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
BENCH_API int evl_uring_usable(struct b_err *e);

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
BENCH_API int evl_backend_pick(struct load_run *r);

/*== 20 slap_ : mysqlslap mode: generated SQL, statement lists ==============*/

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
BENCH_API int slap_build(const struct bench_opts *o, struct slap_plan *p, struct b_err *e);
BENCH_API void slap_plan_free(struct slap_plan *p);
/* slap_main - the slap command: fills res (one step per engine x concurrency) and never
 * prints; the text is rep_slap_*'s. */
BENCH_API int slap_main(struct res *res);
/* slap_args - mysqlslap's command line (short options, "--name value", --skip-x, -v counted,
 * --csv without a value) as bench's "slap --name=value" words, when forced (argv0 is a slap
 * name) or the test named is slap: returns the new argc and *out (out[0] is argv[0]; the
 * other strings and the array are the caller's to free). Else returns 0, *out NULL.
 * Returns -1 for an option that needs a value and has none (*bad: the option as written),
 * -2 for a third positional when forced (*bad: it; mysqlslap's "Too many arguments"); *out
 * is then still the caller's to free (out[1..] up to the first NULL). */
BENCH_API int slap_args(int argc, char **argv, bool forced, char ***out, const char **bad);

/*== 21 wl_ : workload registry =============================================*/

/* Which renderer of rep_ shows a workload's header, final block and interval lines. */
enum wl_family { WL_CMD, WL_CPU, WL_MEMORY, WL_THREADS, WL_MUTEX, WL_FILEIO, WL_OLTP };

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
    int (*check)(struct bench_opts *o, struct b_err *e);        /* run */
    bool db;                                   /* connects to a database server */
    /* commands fill res (res->o, res->w, res->sink for progress, res->err on failure) and
     * return an exit code; they never print */
    int (*command)(struct res *res);           /* a command of its own instead of the engine */
    int (*check_common)(struct bench_opts *o, struct b_err *e); /* prepare and cleanup */
    int (*prepare)(struct res *res);
    int (*cleanup)(struct res *res);
    int (*prewarm)(struct res *res);
    int variant;                               /* which of a family (the oltp_* scripts) */
    bool hidden;                               /* not listed in --help */
    bool files;                                /* takes file operands after its name, not a
                                                  command word (bench merge A.json B.json) */
    int (*init)(struct load_run *r);           /* shared setup before threads start */
    int (*thread_init)(struct load_thread *t); /* per-thread setup */
    int (*event)(struct load_thread *t);       /* one event: B_OK, B_DONE or an error */
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
    void (*thread_done)(struct load_thread *t);/* per-thread teardown */
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
BENCH_API int wl_run(const struct wl_def *w, struct bench_opts *o, struct res *res);
/* wl_reap - free runs abandoned at a forced shutdown once their workers left; waits up to
 * wait_ms; returns how many are still out. */
BENCH_API int wl_reap(int wait_ms);

#endif /* BENCH_H */
