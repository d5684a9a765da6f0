#define _GNU_SOURCE
/*
 * bench - size and accept a database server from one static binary.
 *
 * Build:  make            (static musl + mbedTLS release binary ./bench)
 *         make dev        (quick dynamic glibc build ./bench-dev, same mbedTLS)
 *
 * bench runs sysbench 1.0.20's command lines unchanged (`bench cpu run`,
 * `bench --test=cpu --num-threads=4 run`, and, invoked as `sysbench`, byte-compatible output)
 * and prints the same result blocks, so numbers stay comparable with published results.
 *
 * Map of this file (grep -n '^/\*==' bench.c):
 *   1  —       includes, version, build switches
 *   2  b_      basics, error codes, messages, allocation
 *   3  buf_    growable byte buffer
 *   4  clk_    monotonic clock;  hist_  log-linear latency histogram
 *   5  unit_   sizes (K/M/G/T)
 *   6  rnd_    xoroshiro128+ and sysbench's distributions
 *   7  opt_    option tables, parser, help printer
 *   8  os_     threads, signals, host facts
 *   9  my_     MySQL wire protocol codec (no I/O)
 *   10 myc_    MySQL connection: a state machine driven by bytes; sockets, TLS, auth
 *   11 cpu_, mem_   CPU and memory workloads
 *   12 thr_    threads and mutex workloads
 *   13 load_   worker threads, limits, --rate, intervals and checkpoints
 *   14 jr_     JSON reader: untrusted bytes to a tree, paths
 *   15 res_    results as data: facts, warnings, statistics, how a command ended
 *   16 uring_, io_  io_uring by raw syscalls; the fileio workload
 *   17 evl_    event loop: many client connections per thread (epoll)
 *   18 oltp_   sysbench's OLTP workloads, prepare/cleanup/prewarm
 *   19 ping_, sizing_  commands of their own: ping, the oltp one-liner
 *   20 slap_   the mysqlslap mode: options, generated SQL, client threads
 *   21 all_    bench all: the one-page sizing report, checks, settings
 *   22 mrg_    bench merge: one result from many clients' results
 *   23 cmp_    bench compare: reports side by side
 *   24 wl_     workload registry and the run path (wl_run)
 *   25 rep_    renderers: sysbench 1.0.20's text, JSON, mysqlslap's blocks, the page, HTML
 *   26 cli_    command line: personas, parse, resolve, dispatch; bench_main(), main()
 *
 * Limitations: Linux only (x86_64 tested). No Lua: sysbench scripts are mapped by name to
 * built-in workloads. Percentiles are exact to within 0.4% (log-linear histogram), not
 * quantised to sysbench's 1.8% buckets.
 */

/*== 1 — : includes, version, build switches =================================*/

#include "bench.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/io_uring.h>
#include <time.h>
#include <unistd.h>

#include <mbedtls/ctr_drbg.h>
#include <mbedtls/entropy.h>
#include <mbedtls/error.h>
#include <mbedtls/net_sockets.h>
#include <mbedtls/pk.h>
#include <mbedtls/platform_util.h>
#include <mbedtls/rsa.h>
#include <mbedtls/sha1.h>
#include <mbedtls/sha256.h>
#include <mbedtls/sha512.h>
#include <mbedtls/ssl.h>
#include <mbedtls/version.h>
#include <mbedtls/x509_crt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <strings.h>
#include <termios.h>

#ifndef BENCH_VERSION
#define BENCH_VERSION "unknown"
#endif
#define BENCH_SB_VERSION "1.0.20" /* the sysbench release whose CLI and output we follow */

/* The two mutable globals (STYLE 2.4): options, written once by cli_, and the stop flag,
 * set by SIGINT/SIGTERM. b_stop is a lock-free atomic rather than a volatile sig_atomic_t
 * because worker threads read it too. */
static struct bench_opts opts;
static _Atomic int b_stop;

/*== 2 b_ : basics, error codes, messages, allocation ========================*/
/*
 * Error codes come from the B_ERRORS X-macro in bench.h. Messages for people are printed
 * only by cli_ and rep_, through b_msg(), in the words of the persona's row of cli_personas:
 * "bench: <what>: <cause>" on stderr in the bench persona, sysbench's "FATAL: ..." on stdout
 * in the sysbench persona. This section never tests the persona.
 */

BENCH_API const char *b_errname(int rc)
{
    switch (rc) {
#define B_NAME(name, value, text)                                                            \
    case value:                                                                              \
        return #name;
        B_ERRORS(B_NAME)
#undef B_NAME
    }
    return "B_UNKNOWN";
}

BENCH_API const char *b_errstr(int rc)
{
    switch (rc) {
#define B_TEXT(name, value, text)                                                            \
    case value:                                                                              \
        return text;
        B_ERRORS(B_TEXT)
#undef B_TEXT
    }
    return "unknown error";
}

BENCH_API const char *b_errno_name(int e)
{
    static const struct {
        int e;
        const char *name;
    } t[] = {
        {EPERM, "EPERM"},           {ENOENT, "ENOENT"},         {EINTR, "EINTR"},
        {EIO, "EIO"},               {EBADF, "EBADF"},           {EAGAIN, "EAGAIN"},
        {ENOMEM, "ENOMEM"},         {EACCES, "EACCES"},         {EFAULT, "EFAULT"},
        {EBUSY, "EBUSY"},           {EEXIST, "EEXIST"},         {ENOTDIR, "ENOTDIR"},
        {EISDIR, "EISDIR"},         {EINVAL, "EINVAL"},         {ENFILE, "ENFILE"},
        {EMFILE, "EMFILE"},         {EFBIG, "EFBIG"},           {ENOSPC, "ENOSPC"},
        {EROFS, "EROFS"},           {EPIPE, "EPIPE"},           {ENOSYS, "ENOSYS"},
        {ENAMETOOLONG, "ENAMETOOLONG"}, {EOPNOTSUPP, "EOPNOTSUPP"},
        {ECONNREFUSED, "ECONNREFUSED"}, {ECONNRESET, "ECONNRESET"},
        {ETIMEDOUT, "ETIMEDOUT"},   {EHOSTUNREACH, "EHOSTUNREACH"},
        {ENETUNREACH, "ENETUNREACH"}, {EADDRINUSE, "EADDRINUSE"},
        {EINPROGRESS, "EINPROGRESS"}, {ENOTCONN, "ENOTCONN"}, {EDQUOT, "EDQUOT"},
    };
    for (size_t i = 0; i < countof(t); i++)
        if (t[i].e == e)
            return t[i].name;
    return "E?";
}

BENCH_API int b_seterr(struct b_err *e, int rc, int sys_errno, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        e->rc = rc;
        e->sys_errno = sys_errno;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
        va_end(ap);
    }
    return rc;
}

BENCH_API int b_fail(struct b_err *e, int ex, const char *fmt, ...)
{
    va_list ap;
    if (!e->rc)
        e->rc = B_INVALID;
    e->ex = ex;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
    return ex;
}

BENCH_API void b_hint(struct b_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->hint, sizeof(e->hint), fmt, ap);
    va_end(ap);
}

BENCH_API void b_fail_sb(struct b_err *e, int fd, int ex, const char *fmt, ...)
{
    va_list ap;
    e->sb_fd = fd;
    e->sb_ex = ex;
    va_start(ap, fmt);
    vsnprintf(e->sb, sizeof(e->sb), fmt, ap);
    va_end(ap);
}

BENCH_API _Noreturn void b_die(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("bench: fatal: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(B_EXIT_FAIL);
}

BENCH_API void *b_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        b_die("out of memory allocating %zu bytes", n);
    return p;
}

BENCH_API void *b_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        b_die("out of memory allocating %zu x %zu bytes", n, size);
    return p;
}

static char *b_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = b_xmalloc(n);
    memcpy(p, s, n);
    return p;
}

/* Message kinds: how each persona prints them is its row in cli_personas. */
enum b_msg_kind { B_MSG_FATAL, B_MSG_WARN, B_MSG_HINT, B_MSG_NOTE };

/*
 * b_msg - one message line through the persona's printer (opts.msg_print, set once by cli_
 * from cli_personas), which adds prefix, stream and newline (the format must not contain
 * '\n'). Only cli_/rep_ call it; lower sections fill a struct b_err. This section prints
 * nothing itself: before cli_ sets a printer (unit tests calling rep_ directly) the line is
 * dropped, the tests install a printer where they check one.
 */
static void b_msg(int kind, const char *fmt, ...) B_PRINTF(2, 3);
static void b_msg(int kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (opts.msg_print)
        opts.msg_print(kind, fmt, ap);
    va_end(ap);
}

BENCH_API int b_usage_exit(void)
{
    return opts.usage_ex ? opts.usage_ex : B_EXIT_USAGE;
}

/*== 3 buf_ : growable byte buffer ===========================================*/

/* buf_reserve - room for n more bytes, doubling; dies on OOM. Buffers reused across queries
 * stop growing after the first ones, so the measured loop does not allocate. */
static void buf_reserve(struct buf *b, size_t n)
{
    if (b->p && b->len + n <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + n)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p)
        b_die("out of memory growing a buffer to %zu bytes", cap);
    b->p = p;
    b->cap = cap;
}

/* buf_put - append n bytes (kept NUL-terminated). */
static void buf_put(struct buf *b, const void *p, size_t n)
{
    buf_reserve(b, n + 1);
    if (n)
        memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = 0;
}

BENCH_API void buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        int n;
        va_start(ap, fmt);
        n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            b_die("vsnprintf failed");
        if (b->p && (size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        buf_reserve(b, (size_t)n + 1);
    }
}

BENCH_API void buf_free(struct buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/*== 4 clk_, hist_ : monotonic clock, log-linear latency histogram ===========*/
/*
 * The clock is CLOCK_MONOTONIC through the vDSO (musl uses it in static binaries too).
 * The histogram is HdrHistogram's layout with 2 significant digits: values below 256 ns
 * are counted exactly; above, each power of two [2^e, 2^(e+1)) is cut into 128 equal
 * buckets. A bucket's midpoint is within 1/256 (0.4%) of every value in it. It is
 * mergeable (add the counters), so thread, interval and host results combine exactly.
 * HIST_NBUCKETS = 256 + (42 - 8) x 128 = 4608 buckets x 8 bytes = 36 KiB per histogram.
 */

BENCH_API u64 clk_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

static void clk_sleep_until(u64 t_ns)
{
    struct timespec ts = {.tv_sec = (time_t)(t_ns / 1000000000u),
                          .tv_nsec = (long)(t_ns % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}




#define HIST_HALF (1u << (HIST_SUB_BITS - 1)) /* 128 linear buckets per octave */

BENCH_API unsigned hist_index(u64 v)
{
    if (v < (1u << HIST_SUB_BITS))
        return (unsigned)v;
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* 2^e <= v < 2^(e+1), e >= 8 */
    if (e >= HIST_MAX_EXP)
        return HIST_NBUCKETS - 1;
    unsigned shift = e - (HIST_SUB_BITS - 1);
    unsigned mant = (unsigned)(v >> shift) - HIST_HALF; /* 0..127 */
    return (1u << HIST_SUB_BITS) + (e - HIST_SUB_BITS) * HIST_HALF + mant;
}

BENCH_API u64 hist_bucket_lo(unsigned i)
{
    if (i < (1u << HIST_SUB_BITS))
        return i;
    unsigned k = i - (1u << HIST_SUB_BITS);
    unsigned e = HIST_SUB_BITS + k / HIST_HALF, mant = HIST_HALF + k % HIST_HALF;
    return (u64)mant << (e - (HIST_SUB_BITS - 1));
}

BENCH_API u64 hist_bucket_hi(unsigned i)
{
    if (i < (1u << HIST_SUB_BITS))
        return (u64)i + 1;
    if (i == HIST_NBUCKETS - 1)
        return UINT64_MAX;
    unsigned k = i - (1u << HIST_SUB_BITS);
    unsigned e = HIST_SUB_BITS + k / HIST_HALF;
    return hist_bucket_lo(i) + ((u64)1 << (e - (HIST_SUB_BITS - 1)));
}

BENCH_API void hist_record(struct hist *h, u64 v)
{
    _Atomic u64 *c = &h->count[hist_index(v)];
    /* single writer: a relaxed load and store is a plain increment, and the reporter's
     * concurrent relaxed load is still well defined */
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

BENCH_API void hist_add(struct hist *dst, const struct hist *src)
{
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        u64 v = atomic_load_explicit(&src->count[i], memory_order_relaxed);
        if (v)
            atomic_store_explicit(&dst->count[i],
                                  atomic_load_explicit(&dst->count[i], memory_order_relaxed) + v,
                                  memory_order_relaxed);
    }
}

BENCH_API void hist_sub(struct hist *dst, const struct hist *src)
{
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        u64 v = atomic_load_explicit(&src->count[i], memory_order_relaxed);
        u64 d = atomic_load_explicit(&dst->count[i], memory_order_relaxed);
        if (v)
            atomic_store_explicit(&dst->count[i], d >= v ? d - v : 0, memory_order_relaxed);
    }
}

BENCH_API u64 hist_total(const struct hist *h)
{
    u64 n = 0;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        n += atomic_load_explicit(&h->count[i], memory_order_relaxed);
    return n;
}

BENCH_API u64 hist_percentile(const struct hist *h, double p, u64 min, u64 max)
{
    u64 n = hist_total(h), seen = 0;
    if (n == 0 || p <= 0)
        return 0;
    u64 rank = (u64)ceil(p / 100.0 * (double)n); /* nearest rank, 1-based */
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        seen += atomic_load_explicit(&h->count[i], memory_order_relaxed);
        if (seen >= rank) {
            u64 lo = hist_bucket_lo(i), hi = hist_bucket_hi(i), v;
            if (i == HIST_NBUCKETS - 1)
                v = max != UINT64_MAX ? max : lo;
            else
                v = lo + (hi - 1 - lo) / 2;
            if (v < min)
                v = min;
            if (v > max)
                v = max;
            return v;
        }
    }
    return max;
}

/*== 5 unit_ : sizes =========================================================*/

BENCH_API int unit_parse_size(const char *s, u64 *out)
{
    static const char mods[] = "KMGT";
    char *end;
    if (!isdigit((unsigned char)*s))
        return B_INVALID;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return B_INVALID;
    if (*end) {
        const char *m = strchr(mods, toupper((unsigned char)*end));
        if (!m || !*m)
            return B_INVALID;
        /* sysbench checks only the first letter ("1GB" = "1G"); accept an optional B/b/iB */
        const char *rest = end + 1;
        if (*rest && strcmp(rest, "B") && strcmp(rest, "b") && strcmp(rest, "iB"))
            return B_INVALID;
        for (long k = m - mods + 1; k > 0; k--) {
            if (v > ULLONG_MAX / 1024)
                return B_INVALID;
            v *= 1024;
        }
    }
    *out = v;
    return B_OK;
}

BENCH_API const char *unit_fmt_size(u64 bytes, char *out, size_t outlen)
{
    /* sysbench sb_print_value_size(): up to 5 significant digits and Ki/Mi/Gi/Ti + "B" */
    static const char *units[] = {"", "Ki", "Mi", "Gi", "Ti"};
    double v = (double)bytes;
    unsigned i = 0;
    while (v >= 1024 && i + 1 < countof(units)) {
        v /= 1024;
        i++;
    }
    snprintf(out, outlen, "%.5g%sB", v, units[i]);
    return out;
}

/*== 6 rnd_ : xoroshiro128+ and sysbench 1.0.20's distributions ==============*/
/*
 * Exactly sysbench 1.0.20 (sb_rand.c): per-thread xoroshiro128+ seeded from libc random(),
 * uniform doubles from the top 52 bits, and the uniform/gaussian/special/pareto mappings to
 * [a, b]. zipfian is sysbench 1.1's rejection-inversion sampler (Hörmann & Derflinger).
 * Reference: shared/spec/sysbench.md 1.4.
 */

static inline u64 rnd_rotl(u64 x, int k)
{
    return (x << k) | (x >> (64 - k));
}

BENCH_API u64 rnd_next(struct rnd *r)
{
    u64 s0 = r->s[0], s1 = r->s[1], res = s0 + s1;
    s1 ^= s0;
    r->s[0] = rnd_rotl(s0, 55) ^ s1 ^ (s1 << 14);
    r->s[1] = rnd_rotl(s1, 36);
    return res;
}

/*
 * glibc's random() (TYPE_3: additive feedback r[i] = r[i-3] + r[i-31] over 31 words, seeded
 * by the 16807 LCG and 310 discarded outputs), written here because musl's random() differs:
 * sysbench 1.0.20 seeds every thread's xoroshiro128+ from glibc's stream after
 * srandom(--rand-seed). One process-wide stream, as libc's; unseeded it is srandom(1)'s.
 */
static struct {
    pthread_mutex_t mu;
    bool seeded;
    struct rnd_glibc g;
} rnd_libc = {.mu = PTHREAD_MUTEX_INITIALIZER};

/* rnd_glibc_random - the next random() of a private glibc stream: 0 .. 2^31-1. */
BENCH_API u32 rnd_glibc_random(struct rnd_glibc *g)
{
    u32 v = g->s[g->f] += g->s[g->r];
    if (++g->f >= 31) {
        g->f = 0;
        ++g->r;
    } else if (++g->r >= 31)
        g->r = 0;
    return v >> 1;
}

/* rnd_glibc_srandom - glibc's srandom(seed) on a private stream. */
BENCH_API void rnd_glibc_srandom(struct rnd_glibc *g, unsigned seed)
{
    int32_t w = (int32_t)(seed ? seed : 1u);
    g->s[0] = (u32)w;
    for (int i = 1; i < 31; i++) { /* 16807 * w % 2147483647 without overflow (Schrage) */
        int32_t hi = w / 127773, lo = w % 127773;
        w = 16807 * lo - 2836 * hi;
        if (w < 0)
            w += 2147483647;
        g->s[i] = (u32)w;
    }
    g->f = 3;
    g->r = 0;
    for (int i = 0; i < 310; i++)
        (void)rnd_glibc_random(g);
}

static void rnd_libc_seed_locked(unsigned seed)
{
    rnd_glibc_srandom(&rnd_libc.g, seed);
    rnd_libc.seeded = true;
}

/* rnd_libc_srandom - glibc's srandom(seed). */
BENCH_API void rnd_libc_srandom(unsigned seed)
{
    pthread_mutex_lock(&rnd_libc.mu);
    rnd_libc_seed_locked(seed);
    pthread_mutex_unlock(&rnd_libc.mu);
}

/* rnd_libc_random - glibc's random(): 0 .. 2^31-1. */
BENCH_API long rnd_libc_random(void)
{
    pthread_mutex_lock(&rnd_libc.mu);
    if (!rnd_libc.seeded)
        rnd_libc_seed_locked(1);
    u32 v = rnd_glibc_random(&rnd_libc.g);
    pthread_mutex_unlock(&rnd_libc.mu);
    return (long)v;
}

/* sysbench's sb_rand_thread_init: state words from random() pairs, high half first */
BENCH_API void rnd_seed(struct rnd *r)
{
    for (int i = 0; i < 2; i++) {
        u64 hi = (u64)rnd_libc_random(), lo = (u64)rnd_libc_random();
        r->s[i] = (hi << 32) | (lo & 0xffffffffu);
    }
    if (!r->s[0] && !r->s[1])
        r->s[0] = 1;
}

BENCH_API double rnd_double(struct rnd *r)
{
    union {
        u64 u;
        double d;
    } x = {.u = (0x3ffull << 52) | (rnd_next(r) >> 12)};
    return x.d - 1.0;
}

/* zipfian helpers, 1.1's sb_rand.c: h(x) = x^-e, H(x) = (x^(1-e) - 1)/(1-e), with
 * log1p/expm1 forms that stay accurate as e -> 1 */
static double rnd_helper1(double x) /* log1p(x)/x */
{
    return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double rnd_helper2(double x) /* expm1(x)/x */
{
    return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}

static double rnd_zipf_H(double x, double e)
{
    double lx = log(x);
    return rnd_helper2((1 - e) * lx) * lx;
}

static double rnd_zipf_Hinv(double x, double e)
{
    double t = x * (1 - e);
    if (t < -1)
        t = -1;
    return exp(rnd_helper1(t) * x);
}

static double rnd_zipf_h(double x, double e)
{
    return exp(-e * log(x));
}

BENCH_API void rnd_params_init(struct rnd_params *p, int type, int iter, int pct, int res,
                               double pareto_h, double zipf_e)
{
    memset(p, 0, sizeof(*p));
    p->type = type;
    p->spec_iter = iter;
    p->spec_pct = pct;
    p->spec_res = res;
    p->pareto_h = pareto_h;
    p->pareto_p = log(pareto_h) / log(1.0 - pareto_h);
    p->zipf_e = zipf_e;
    p->zipf_hx1 = rnd_zipf_H(1.5, zipf_e) - 1.0;
    p->zipf_s = 2.0 - rnd_zipf_Hinv(rnd_zipf_H(2.5, zipf_e) - rnd_zipf_h(2.0, zipf_e), zipf_e);
}

/*
 * The mappings below keep sb_rand.c's expressions operation for operation (the same roundings,
 * so the same integers): `b - a + 1` in uint32_t arithmetic, multipliers precomputed
 * (1/iter, pct/100, pct/200, 100/(100-res)), and `a + double` converted to uint32_t where
 * sysbench relies on the implicit conversion.
 */
BENCH_API u32 rnd_uniform(struct rnd *r, u32 a, u32 b)
{
    return (u32)((double)a + rnd_double(r) * (double)(u32)(b - a + 1));
}

static u32 rnd_gaussian(struct rnd *r, int iter, u32 a, u32 b)
{
    double sum = 0, t = (double)(u32)(b - a + 1), mult = 1.0 / iter;
    for (int i = 0; i < iter; i++)
        sum += rnd_double(r) * t;
    return a + (u32)(sum * mult);
}

static u32 rnd_special(struct rnd *r, const struct rnd_params *p, u32 a, u32 b)
{
    double t = (double)(u32)(b - a), sum = 0;
    double res_mult = 100.0 / (100.0 - p->spec_res), iter_mult = 1.0 / p->spec_iter;
    double pct_mult = p->spec_pct / 100.0, pct2_mult = p->spec_pct / 200.0;
    double u = rnd_double(r);
    if (u * (t * res_mult) < t) {
        for (int i = 0; i < p->spec_iter; i++)
            sum += rnd_double(r);
        return (u32)((double)a + sum * t * iter_mult);
    }
    double d = t * pct_mult, res = u * (d + 1);
    res += t / 2 - t * pct2_mult;
    return a + (u32)res;
}

static u32 rnd_pareto(struct rnd *r, const struct rnd_params *p, u32 a, u32 b)
{
    return a + (u32)((double)(u32)(b - a + 1) * pow(rnd_double(r), p->pareto_p));
}

/*
 * sysbench.rand.unique(): Preshing's RandomSequence, a permutation of the uint32 range by
 * quadratic residues modulo the prime 4294967291, over a process-wide atomic index (sb_rand.c).
 */
static u32 rnd_permute(u32 x)
{
    const u32 prime = 4294967291u;
    if (x >= prime)
        return x; /* the 5 integers out of range map to themselves */
    u32 residue = (u32)((u64)x * x % prime);
    return x <= prime / 2 ? residue : prime - residue;
}

/* rnd_unique_init - sb_rand.c's rand_unique_seed(index, offset): the whole sequence (lane 0
 * of 1). */
BENCH_API void rnd_unique_init(struct rnd_unique *u, u32 index, u32 offset)
{
    u->base = rnd_permute(rnd_permute(index) + 0x682f0161u);
    u->offset = rnd_permute(rnd_permute(offset) + 0x46790905u);
    u->lane = 0;
    u->stride = 1;
    atomic_store(&u->next, 0u);
}

/*
 * rnd_unique_seed - the sequence of a run seeded `seed`, drawn as sb_rand_init draws it: after
 * srandom(seed), four random() calls seed the main thread's xoroshiro128+, then
 * rand_unique_seed(random(), random()) (gcc evaluates those arguments right to left: the
 * offset first). sysbench itself does this before its srandom(--rand-seed), from whatever state
 * random() is in then (Debian's LuaJIT seeds it from the time of day at load); bench takes the
 * run's seed, on a private stream, so the threads' seeds stay sysbench's.
 */
BENCH_API void rnd_unique_seed(struct rnd_unique *u, unsigned seed)
{
    struct rnd_glibc g;
    rnd_glibc_srandom(&g, seed);
    for (int i = 0; i < 4; i++)
        (void)rnd_glibc_random(&g);
    u32 offset = rnd_glibc_random(&g);
    u32 index = rnd_glibc_random(&g);
    rnd_unique_init(u, index, offset);
}

/* rnd_unique_lane - this client's share of the sequence: the indices lane, lane + stride,
 * lane + 2 * stride, ... (client `lane` of `stride`), so clients never draw the same value. */
BENCH_API void rnd_unique_lane(struct rnd_unique *u, u32 lane, u32 stride)
{
    u->lane = lane;
    u->stride = stride ? stride : 1;
}

/* rnd_unique - the next value of the sequence (safe from several threads). */
BENCH_API u32 rnd_unique(struct rnd_unique *u)
{
    u32 k = atomic_fetch_add(&u->next, 1u);
    u32 index = u->base + k * u->stride + u->lane;
    return rnd_permute((rnd_permute(index) + u->offset) ^ 0x5bf03635u);
}

/* rnd_client_seed - the srandom() seed of client `index` of a run seeded `seed` (not 0):
 * client 0 keeps the seed, so one client alone is the plain run; the others get their own
 * (a 32-bit mix of the seed and the index, never 0). */
BENCH_API unsigned rnd_client_seed(u64 seed, i64 index)
{
    if (index <= 0)
        return (unsigned)seed;
    u32 x = (u32)seed ^ (u32)(seed >> 32) ^ ((u32)index * 0x9e3779b9u);
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x == (u32)seed || !x ? x + 1u : x;
}

static u32 rnd_zipfian(struct rnd *r, const struct rnd_params *p, u32 a, u32 b)
{
    double n = (double)((u64)b - a + 1), e = p->zipf_e, hN = rnd_zipf_H(n + 0.5, e);
    for (;;) {
        double u = hN + rnd_double(r) * (p->zipf_hx1 - hN);
        double x = rnd_zipf_Hinv(u, e);
        double k = floor(x + 0.5);
        if (k < 1)
            k = 1;
        else if (k > n)
            k = n;
        if (k - x <= p->zipf_s || u >= rnd_zipf_H(k + 0.5, e) - rnd_zipf_h(k, e))
            return a + (u32)k - 1;
    }
}

BENCH_API u32 rnd_default(struct rnd *r, const struct rnd_params *p, u32 a, u32 b)
{
    switch (p->type) {
    case RND_GAUSSIAN:
        return rnd_gaussian(r, p->spec_iter, a, b);
    case RND_SPECIAL:
        return rnd_special(r, p, a, b);
    case RND_PARETO:
        return rnd_pareto(r, p, a, b);
    case RND_ZIPFIAN:
        return rnd_zipfian(r, p, a, b);
    default:
        return rnd_uniform(r, a, b);
    }
}

/* Exponential gap with mean 1/rate seconds, in ns: the Poisson arrivals of --rate. */
static u64 rnd_exp_gap_ns(struct rnd *r, double rate)
{
    double u = rnd_double(r);
    return (u64)(-log(1.0 - u) / rate * 1e9);
}

/*== 7 opt_ : option tables, parser, help printer ============================*/
/*
 * One typed, bounded row per option (struct opt_def), pointing at its field in struct
 * bench_opts. The same rows drive parsing, validation (all of it before any work starts),
 * `help` output in sysbench's exact layout, and the docs-sync test (tests/docs.sh). Value
 * syntax is sysbench's: --name=value only, dashes and underscores interchangeable, BOOL
 * on/off/true/false/1/0 (bare --name = on), SIZE with K/M/G/T, LIST comma-separated.
 * Limitations: no short options and no "--name value" form (sysbench has neither).
 */

#define OPT(name, type, field, def, lo, hi, choices, help, sb_bad, flags)                   \
    {name, OPT_##type, offsetof(struct bench_opts, field), def, lo, hi, choices, help, sb_bad, \
     flags}

/* General options, in the order and words of `sysbench --help`. */
static const struct opt_def opt_general[] = {
    OPT("threads", INT, threads, "1", 1, 100000, NULL, "number of threads to use",
        "Invalid value for --threads: %s.\n", 0),
    OPT("events", INT, events, "0", 0, 1e18, NULL, "limit for total number of events", NULL, 0),
    OPT("time", INT, time_s, "10", 0, 1e9, NULL, "limit for total execution time in seconds",
        NULL, 0),
    OPT("warmup-time", INT, warmup_time, "0", 0, 1e9, NULL,
        "execute events for this many seconds with statistics disabled before the actual "
        "benchmark run with statistics enabled",
        NULL, OPT_F_EXT),
    OPT("start-at", STR, start_at, "", 0, 0, NULL,
        "connect and warm up, then start the measured window at this wall-clock time: RFC 3339 "
        "UTC (2026-12-02T14:00:00Z) or +N seconds from now (clients on several hosts)",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("start-at-force", BOOL, start_at_force, "off", 0, 0, NULL,
        "--start-at even when the kernel says the system clock is not synchronized", NULL,
        OPT_F_EXT),
    OPT("forced-shutdown", STR, forced_shutdown, "off", 0, 0, NULL,
        "number of seconds to wait after the --time limit before forcing shutdown, or 'off' "
        "to disable",
        NULL, 0),
    OPT("thread-stack-size", SIZE, thread_stack_size, "64K", 16384, 1ull << 32, NULL,
        "size of stack per thread", NULL, 0),
    OPT("rate", INT, rate, "0", 0, 1e12, NULL, "average transactions rate. 0 for unlimited rate",
        NULL, 0),
    OPT("report-interval", INT, report_interval, "0", 0, 1e9, NULL,
        "periodically report intermediate statistics with a specified interval in seconds. 0 "
        "disables intermediate reports",
        NULL, 0),
    OPT("report-checkpoints", LIST, report_checkpoints, "", 0, 0, NULL,
        "dump full statistics and reset all counters at specified points in time. The argument "
        "is a list of comma-separated values representing the amount of time in seconds "
        "elapsed from start of test when report checkpoint(s) must be performed. Report "
        "checkpoints are off by default.",
        NULL, 0),
    OPT("debug", BOOL, debug, "off", 0, 0, NULL, "print more debugging info", NULL, 0),
    OPT("validate", BOOL, validate, "off", 0, 0, NULL,
        "perform validation checks where possible", NULL, 0),
    OPT("help", BOOL, help, "off", 0, 0, NULL, "print help and exit", NULL, 0),
    OPT("version", BOOL, version, "off", 0, 0, NULL, "print version and exit", NULL, 0),
    OPT("config-file", FILE, config_file, "", 0, 0, NULL, "File containing command line options",
        NULL, OPT_F_NODEF),
    OPT("format", ENUM, format, "text", 0, 0, "text,json",
        "how the result is written: text (sysbench's layout) or json (docs/json.md)", NULL,
        OPT_F_EXT),
    OPT("output", FILE, output, "", 0, 0, NULL,
        "write the result (text or the JSON document) to this file instead of standard output",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("tx-rate", INT, tx_rate, "0", 0, 1e12, NULL, "deprecated alias for --rate", NULL,
        OPT_F_DEPRECATED),
    OPT("max-requests", INT, max_requests, "0", 0, 1e18, NULL, "deprecated alias for --events",
        NULL, OPT_F_DEPRECATED),
    OPT("max-time", INT, max_time, "0", 0, 1e9, NULL, "deprecated alias for --time", NULL,
        OPT_F_DEPRECATED),
    OPT("num-threads", INT, num_threads, "1", 1, 100000, NULL, "deprecated alias for --threads",
        NULL, OPT_F_DEPRECATED),
    OPT("test", STR, test_alias, "", 0, 0, NULL, "deprecated: the test name (0.4 syntax)", NULL,
        OPT_F_DEPRECATED | OPT_F_NOHELP),
};

static const struct opt_def opt_rand[] = {
    OPT("rand-type", ENUM, rand_type, "special", 0, 0, "uniform,gaussian,special,pareto|zipfian",
        "random numbers distribution %C", "Invalid random numbers distribution: %s.", 0),
    OPT("rand-spec-iter", INT, rand_spec_iter, "12", 1, 1000, NULL,
        "number of iterations used for numbers generation", NULL, 0),
    OPT("rand-spec-pct", INT, rand_spec_pct, "1", 0, 100, NULL,
        "percentage of values to be treated as 'special' (for special distribution)", NULL, 0),
    OPT("rand-spec-res", INT, rand_spec_res, "75", 0, 99, NULL,
        "percentage of 'special' values to use (for special distribution)", NULL, 0),
    OPT("rand-seed", INT, rand_seed, "0", 0, 4294967295.0, NULL,
        "seed for random number generator. When 0, the current time is used as a RNG seed.",
        NULL, 0),
    OPT("rand-pareto-h", DOUBLE, rand_pareto_h, "0.2", 0.001, 0.999, NULL,
        "parameter h for pareto distribution", NULL, 0),
    OPT("rand-zipfian-exp", DOUBLE, rand_zipfian_exp, "0.8", 0, 100, NULL,
        "shape parameter (exponent, theta) for the Zipfian distribution", NULL, OPT_F_EXT),
    OPT("client-index", INT, client_index, "-1", -1, 1e6, NULL,
        "this process is client N (0-based) of --client-count acting as one run: its own ids "
        "and seeds; client 0 prepares and cleans up",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("client-count", INT, client_count, "-1", -1, 1e6, NULL,
        "number of clients (processes, hosts) acting as one run, with --client-index", NULL,
        OPT_F_EXT | OPT_F_NODEF),
    OPT("client-wait", INT, client_wait, "60", 1, 86400, NULL,
        "seconds a client other than 0 waits at prepare for client 0's tables", NULL, OPT_F_EXT),
};

static const struct opt_def opt_log[] = {
    OPT("verbosity", INT, verbosity, "3", 0, 5, NULL,
        "verbosity level {5 - debug, 0 - only critical messages}", NULL, 0),
};

static const struct opt_def opt_stats[] = {
    OPT("percentile", LIST, percentile_list, "95", 0, 100, NULL,
        "percentile to calculate in latency statistics (1-100). Use the special value of 0 to "
        "disable percentile calculations",
        "Invalid value for --percentile: %s", OPT_F_SBHINT_N),
    OPT("histogram", BOOL, histogram, "off", 0, 0, NULL, "print latency histogram in report",
        NULL, 0),
};

/* Database options: sysbench's, then bench's (TLS, timeouts, option files). */
static const struct opt_def opt_db[] = {
    OPT("db-driver", STR, db_driver, "mysql", 0, 0, NULL,
        "specifies database driver to use ('help' to get list of available drivers)", NULL, 0),
    OPT("db-ps-mode", ENUM, db_ps_mode, "auto", 0, 0, "auto,disable",
        "prepared statements usage mode {auto, disable}", NULL, 0),
    OPT("db-debug", BOOL, db_debug, "off", 0, 0, NULL, "print database-specific debug information",
        NULL, 0),
};

static const struct opt_def opt_mysql[] = {
    OPT("mysql-host", LIST, mysql_host, "localhost", 0, 0, NULL, "MySQL server host", NULL, 0),
    OPT("mysql-port", LIST, mysql_port, "3306", 0, 0, NULL, "MySQL server port", NULL, 0),
    OPT("mysql-socket", LIST, mysql_socket, "", 0, 0, NULL, "MySQL socket", NULL, OPT_F_NODEF),
    OPT("mysql-user", STR, mysql_user, "sbtest", 0, 0, NULL, "MySQL user", NULL, 0),
    OPT("mysql-password", STR, mysql_password, "", 0, 0, NULL, "MySQL password", NULL, 0),
    OPT("mysql-db", STR, mysql_db, "sbtest", 0, 0, NULL, "MySQL database name", NULL, 0),
    OPT("mysql-ssl", BOOL, mysql_ssl, "off", 0, 0, NULL,
        "use SSL connections, if available in the client library", NULL, 0),
    OPT("mysql-ssl-cipher", STR, mysql_ssl_cipher, "", 0, 0, NULL,
        "use specific cipher for SSL connections", NULL, 0),
    OPT("mysql-compression", BOOL, mysql_compression, "off", 0, 0, NULL,
        "use compression, if available in the client library", NULL, 0),
    OPT("mysql-compression-algorithms", STR, mysql_compression_algorithms, "", 0, 0, NULL,
        "compression algorithms the client permits: zlib (implies --mysql-compression=on), "
        "uncompressed; zstd is not supported",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("mysql-debug", BOOL, mysql_debug, "off", 0, 0, NULL, "trace all client library calls",
        NULL, 0),
    OPT("mysql-ignore-errors", LIST, mysql_ignore_errors, "1213,1020,1205", 0, 0, NULL,
        "list of errors to ignore, or \"all\"", NULL, 0),
    OPT("mysql-dry-run", BOOL, mysql_dry_run, "off", 0, 0, NULL,
        "Dry run, pretend that all MySQL client API calls are successful without executing them",
        NULL, 0),
    OPT("ssl-mode", STR, ssl_mode, "", 0, 0, NULL,
        "TLS: DISABLED (the default of the sysbench workloads), PREFERRED (the default of ping "
        "and the oltp one-liner over TCP), REQUIRED, VERIFY_CA or VERIFY_IDENTITY",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("ssl-ca", STR, ssl_ca, "", 0, 0, NULL, "file of CA certificates that verify the server",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("ssl-cert", STR, ssl_cert, "", 0, 0, NULL, "client certificate file (PEM)", NULL,
        OPT_F_EXT | OPT_F_NODEF),
    OPT("ssl-key", STR, ssl_key, "", 0, 0, NULL, "client private key file (PEM)", NULL,
        OPT_F_EXT | OPT_F_NODEF),
    OPT("server-public-key-path", STR, server_pubkey, "", 0, 0, NULL,
        "the server's RSA public key (PEM) for caching_sha2_password/sha256_password over plain "
        "TCP",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("get-server-public-key", BOOL, get_server_pubkey, "off", 0, 0, NULL,
        "over plain TCP, let caching_sha2_password/sha256_password ask the server for its RSA "
        "key (which nothing authenticates); else they need TLS or --server-public-key-path",
        NULL, OPT_F_EXT),
    OPT("mysql-connect-timeout", INT, mysql_connect_timeout, "10", 1, 3600, NULL,
        "seconds to connect, set up TLS and log in (one deadline for all of it)", NULL,
        OPT_F_EXT),
    OPT("mysql-io-timeout", INT, mysql_io_timeout, "60", 1, 86400, NULL,
        "seconds a command may take, from sending it to the last packet of its answer", NULL,
        OPT_F_EXT),
    OPT("max-allowed-packet", SIZE, max_allowed_packet, "64M", 4096, 1ull << 30, NULL,
        "largest packet accepted from the server (a longer one fails the command)", NULL,
        OPT_F_EXT),
    OPT("defaults-file", FILE, defaults_file, "", 0, 0, NULL,
        "read connection options from the [client] group of this file instead of ~/.my.cnf",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("no-defaults", BOOL, no_defaults, "off", 0, 0, NULL,
        "do not read ~/.my.cnf or MYSQL_PWD", NULL, OPT_F_EXT),
    OPT("event-loops", INT, event_loops, "0", 0, 4096, NULL,
        "run the --threads connections of the OLTP workloads on this many event-loop threads "
        "(epoll); 0: a thread per connection, as sysbench",
        NULL, OPT_F_EXT),
};

/* The general tables with their help titles, in `sysbench --help` order. */
static const struct {
    const char *title;
    const struct opt_def *t;
    size_t n;
} opt_groups[] = {
    {"General options:", opt_general, countof(opt_general)},
    {"Pseudo-Random Numbers Generator options:", opt_rand, countof(opt_rand)},
    {"Log options:", opt_log, countof(opt_log)},
    {"", opt_stats, countof(opt_stats)},
    {"General database options:\n", opt_db, countof(opt_db)},
    {"mysql options:", opt_mysql, countof(opt_mysql)},
};

/* Compare an option name from the command line (dashes or underscores) with a row name. */
static bool opt_name_eq(const char *row, const char *name, size_t namelen)
{
    size_t i;
    for (i = 0; i < namelen; i++) {
        char c = name[i] == '_' ? '-' : name[i];
        if (row[i] != c)
            return false;
    }
    return row[i] == '\0';
}

BENCH_API const struct opt_def *opt_find(const struct opt_def *t, size_t n, const char *name,
                                         size_t namelen)
{
    for (size_t i = 0; i < n; i++)
        if (opt_name_eq(t[i].name, name, namelen))
            return &t[i];
    return NULL;
}

/* Index of val among "a,b,c|d" choices; the sysbench persona does not see those after '|'. */
static int opt_choice(const char *choices, const char *val, bool sb)
{
    int idx = 0;
    size_t vlen = strlen(val);
    for (const char *p = choices; *p; idx++) {
        size_t len = strcspn(p, ",|");
        if (len == vlen && !strncmp(p, val, len))
            return idx;
        p += len;
        if (*p == '|' && sb)
            break;
        if (*p)
            p++;
    }
    return -1;
}

static int opt_parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1"))
        *out = true;
    else if (!strcmp(v, "off") || !strcmp(v, "false") || !strcmp(v, "0"))
        *out = false;
    else
        return OPT_BADVAL;
    return OPT_OK;
}

static int opt_parse_i64(const char *v, i64 *out)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end)
        return OPT_BADVAL;
    *out = x;
    return OPT_OK;
}

BENCH_API int opt_set(const struct opt_def *d, struct bench_opts *o, const char *val)
{
    char *field = (char *)o + d->off;
    switch (d->type) {
    case OPT_INT: {
        i64 x;
        if (opt_parse_i64(val, &x))
            return OPT_BADVAL;
        if ((double)x < d->lo || (double)x > d->hi)
            return OPT_RANGE;
        memcpy(field, &x, sizeof(x));
        return OPT_OK;
    }
    case OPT_SIZE: {
        u64 x;
        if (unit_parse_size(val, &x))
            return OPT_BADVAL;
        if ((double)x < d->lo || (double)x > d->hi)
            return OPT_RANGE;
        memcpy(field, &x, sizeof(x));
        return OPT_OK;
    }
    case OPT_DOUBLE: {
        char *end;
        errno = 0;
        double x = strtod(val, &end);
        if (errno || end == val || *end || x != x)
            return OPT_BADVAL;
        if (x < d->lo || x > d->hi)
            return OPT_RANGE;
        memcpy(field, &x, sizeof(x));
        return OPT_OK;
    }
    case OPT_BOOL: {
        bool b;
        if (opt_parse_bool(val, &b))
            return OPT_BADVAL;
        memcpy(field, &b, sizeof(b));
        return OPT_OK;
    }
    case OPT_ENUM: {
        int idx = opt_choice(d->choices, val, o->ext_off);
        if (idx < 0)
            return OPT_RANGE;
        memcpy(field, &idx, sizeof(idx));
        return OPT_OK;
    }
    case OPT_STR:
    case OPT_LIST:
    case OPT_FILE: {
        char *old, *s = b_xstrdup(val);
        memcpy(&old, field, sizeof(old));
        free(old);
        memcpy(field, &s, sizeof(s));
        return OPT_OK;
    }
    }
    return OPT_BADVAL;
}

/* Type hint shown after the name in help lines. */
static const char *opt_hint(const struct opt_def *d, bool sb)
{
    if (sb && (d->flags & OPT_F_SBHINT_N))
        return "=N";
    switch (d->type) {
    case OPT_INT:
    case OPT_DOUBLE:
        return "=N";
    case OPT_SIZE:
        return "=SIZE";
    case OPT_BOOL:
        return "[=on|off]";
    case OPT_LIST:
        return "=[LIST,...]";
    case OPT_FILE:
        return "=FILENAME";
    default:
        return "=STRING";
    }
}

static bool opt_listed(const struct opt_def *d, bool sb)
{
    return !(d->flags & OPT_F_NOHELP) && !(sb && (d->flags & OPT_F_EXT));
}

/* Description with "%C" expanded to {choices} (persona-filtered). */
static void opt_describe(struct buf *b, const struct opt_def *d, bool sb)
{
    for (const char *p = d->help; *p; p++) {
        if (p[0] == '%' && p[1] == 'C' && d->choices) {
            buf_printf(b, "{");
            for (const char *c = d->choices; *c; c++) {
                if (*c == '|') {
                    if (sb)
                        break;
                    buf_printf(b, ",");
                } else
                    buf_printf(b, "%c", *c);
            }
            buf_printf(b, "}");
            p++;
        } else
            buf_printf(b, "%c", *p);
    }
}

BENCH_API void opt_help_text(struct buf *b, const struct opt_def *t, size_t n, bool sb)
{
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (opt_listed(&t[i], sb))
            w = B_MAX(w, strlen(t[i].name) + strlen(opt_hint(&t[i], sb)));
    for (size_t i = 0; i < n; i++) {
        struct buf name = {0}, desc = {0};
        if (!opt_listed(&t[i], sb))
            continue;
        buf_printf(&name, "--%s%s", t[i].name, opt_hint(&t[i], sb));
        if (t[i].flags & OPT_F_LUA) /* sysbench lists Lua script options with underscores */
            for (char *q = name.p + 2; *q && *q != '=' && *q != '['; q++)
                if (*q == '-')
                    *q = '_';
        opt_describe(&desc, &t[i], sb);
        buf_printf(b, "  %-*s %s", (int)w + 2, name.p, desc.p);
        if (!(t[i].flags & OPT_F_NODEF))
            buf_printf(b, " [%s]", t[i].def);
        buf_put(b, "\n", 1);
        buf_free(&name);
        buf_free(&desc);
    }
}

BENCH_API size_t opt_edit_distance(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t row[64];
    if (alen >= countof(row) || blen >= countof(row))
        return SIZE_MAX;
    for (size_t j = 0; j <= blen; j++)
        row[j] = j;
    for (size_t i = 1; i <= alen; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= blen; j++) {
            char ca = a[i - 1] == '_' ? '-' : a[i - 1];
            size_t up = row[j];
            size_t best = diag + (ca != b[j - 1]);
            best = B_MIN(best, up + 1);
            best = B_MIN(best, row[j - 1] + 1);
            row[j] = best;
            diag = up;
        }
    }
    return row[blen];
}

/* Set every row of a table to its default. */
static void opt_defaults(const struct opt_def *t, size_t n, struct bench_opts *o)
{
    for (size_t i = 0; i < n; i++)
        if (opt_set(&t[i], o, t[i].def) != OPT_OK)
            b_die("default of --%s ('%s') does not parse", t[i].name, t[i].def);
}

/* Free the strings a table's rows own in *o (STR, LIST, FILE). */
static void opt_free_strings(const struct opt_def *t, size_t n, struct bench_opts *o)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].type == OPT_STR || t[i].type == OPT_LIST || t[i].type == OPT_FILE) {
            char *p;
            memcpy(&p, (char *)o + t[i].off, sizeof(p));
            free(p);
            p = NULL;
            memcpy((char *)o + t[i].off, &p, sizeof(p));
        }
}

/* "an integer 1..4096" - what a row accepts, for error messages. */
static void opt_expect(struct buf *b, const struct opt_def *d, bool sb)
{
    switch (d->type) {
    case OPT_INT:
        buf_printf(b, "an integer %.0f..%.0f", d->lo, d->hi);
        break;
    case OPT_SIZE:
        buf_printf(b, "a size with an optional K/M/G/T suffix, %.0f..%.0f bytes", d->lo, d->hi);
        break;
    case OPT_DOUBLE:
        buf_printf(b, "a number %g..%g", d->lo, d->hi);
        break;
    case OPT_BOOL:
        buf_printf(b, "on, off, true, false, 1 or 0");
        break;
    case OPT_ENUM:
        buf_printf(b, "one of ");
        {
            struct opt_def tmp = *d;
            tmp.help = "%C";
            opt_describe(b, &tmp, sb);
        }
        break;
    default:
        buf_printf(b, "text");
    }
}

/*== 8 os_ : threads, signals, host facts ====================================*/
/*
 * Thin wrappers over POSIX. Threads are created with an explicit stack size: musl's default
 * is about 128 KiB where glibc's is 8 MiB, so --thread-stack-size (sysbench's, default 64K)
 * is honoured, with a floor large enough for our workers.
 */

/*
 * The first SIGINT/SIGTERM sets b_stop: every loop, wait and phase checks it and stops at its
 * next safe point (within a second), reports what it measured marked interrupted, removes
 * what this run created and did not finish, and exits 1. A second signal exits at once with
 * 128 + signo (130, 143), saying so with one write(2): the user asked twice.
 */
static void os_on_signal(int sig)
{
    int was = atomic_exchange(&b_stop, sig);
    if (was && was != SIGPIPE) { /* SIGPIPE: the report's reader left (cli_out_failed) */
        static const char m[] = "bench: second signal: exiting at once; files or tables of "
                                "this run may be left\n";
        ssize_t w = write(2, m, sizeof(m) - 1);
        (void)w;
        _exit(128 + sig);
    }
}

static void os_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = os_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* os_stop_signame - the signal that set b_stop, for messages. */
static const char *os_stop_signame(void)
{
    return atomic_load(&b_stop) == SIGINT ? "SIGINT" : "SIGTERM";
}

/* os_thread_start - pthread_create with an explicit stack size. Returns 0 or an errno. */
static int os_thread_start(pthread_t *tid, size_t stack_bytes, void *(*fn)(void *), void *arg)
{
    pthread_attr_t a;
    int rc;
    if ((rc = pthread_attr_init(&a)))
        return rc;
    if (stack_bytes < 262144)
        stack_bytes = 262144; /* room for TLS handshakes, result decoding and printf */
    stack_bytes = (stack_bytes + 4095) & ~(size_t)4095;
    if ((rc = pthread_attr_setstacksize(&a, stack_bytes)) == 0)
        rc = pthread_create(tid, &a, fn, arg);
    pthread_attr_destroy(&a);
    return rc;
}

/* os_read_line - first line of a small /proc or /sys file, in a static buffer; "?" if absent. */
static const char *os_read_line(const char *path)
{
    static char line[64];
    FILE *f = fopen(path, "r");
    if (!f || !fgets(line, sizeof(line), f)) {
        if (f)
            fclose(f);
        return "?";
    }
    fclose(f);
    line[strcspn(line, "\n")] = 0;
    return line;
}

/* os_mem_total - MemTotal from /proc/meminfo in bytes, 0 if unknown. */
static u64 os_mem_total(void)
{
    char line[256];
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (u64)kb * 1024;
}

/* The machine, for result documents: host name, kernel release, online CPUs. */
struct os_host {
    char hostname[256];
    char kernel[128];
    int cpus;
};

/* os_host_get - fill *h; unknown parts are "" and 0. */
static void os_host_get(struct os_host *h)
{
    struct utsname u;
    memset(h, 0, sizeof(*h));
    if (!uname(&u)) {
        snprintf(h->hostname, sizeof(h->hostname), "%s", u.nodename);
        snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    h->cpus = n > 0 && n < INT_MAX ? (int)n : 0;
}

/* What is behind a directory: filesystem, mount options, block device. */
struct os_fsinfo {
    char fstype[32];    /* "ext4" */
    char source[128];   /* "/dev/vda1", "overlay", "tmpfs" */
    char options[256];  /* mount options */
    char device[64];    /* block device name ("nvme0n1p1"), or "" */
    char model[96];     /* device model, or "" */
    int rotational;     /* 1 spinning, 0 solid state, -1 unknown */
    u64 avail_bytes;    /* free space for unprivileged users */
};

/* Read the first line of a sysfs attribute of block device maj:min (or of its parent). */
static bool os_sysblk_attr(unsigned maj, unsigned min, const char *attr, char *out, size_t n)
{
    for (int k = 0; k < 2; k++) {
        char path[256];
        snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s%s", maj, min, k ? "../" : "", attr);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        bool ok = fgets(out, (int)n, f) != NULL;
        fclose(f);
        if (ok) {
            out[strcspn(out, "\n")] = 0;
            for (size_t i = strlen(out); i > 0 && out[i - 1] == ' '; i--)
                out[i - 1] = 0;
            return true;
        }
    }
    return false;
}

/* os_fsinfo_get - describe the filesystem holding dir. Returns B_OK or B_SYSERR (errno). */
static int os_fsinfo_get(const char *dir, struct os_fsinfo *fi)
{
    struct stat st;
    struct statfs sf;
    char line[4096], rot[8];
    memset(fi, 0, sizeof(*fi));
    fi->rotational = -1;
    if (stat(dir, &st) < 0 || statfs(dir, &sf) < 0)
        return B_SYSERR;
    fi->avail_bytes = (u64)sf.f_bavail * (u64)sf.f_bsize;
    unsigned maj = major(st.st_dev), min = minor(st.st_dev);
    FILE *f = fopen("/proc/self/mountinfo", "r");
    while (f && fgets(line, sizeof(line), f)) {
        unsigned a, b;
        char mnt_opts[256], fstype[32], source[128];
        /* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
        if (sscanf(line, "%*u %*u %u:%u %*s %*s %255s", &a, &b, mnt_opts) != 3 || a != maj ||
            b != min)
            continue;
        const char *sep = strstr(line, " - ");
        if (!sep || sscanf(sep + 3, "%31s %127s", fstype, source) != 2)
            continue;
        snprintf(fi->fstype, sizeof(fi->fstype), "%s", fstype);
        snprintf(fi->source, sizeof(fi->source), "%s", source);
        snprintf(fi->options, sizeof(fi->options), "%s", mnt_opts);
        break;
    }
    if (f)
        fclose(f);
    char path[128], target[256];
    snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, min);
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    if (n > 0) {
        target[n] = 0;
        const char *base = strrchr(target, '/');
        snprintf(fi->device, sizeof(fi->device), "%.63s", base ? base + 1 : target);
        os_sysblk_attr(maj, min, "device/model", fi->model, sizeof(fi->model));
        if (os_sysblk_attr(maj, min, "queue/rotational", rot, sizeof(rot)))
            fi->rotational = rot[0] == '1';
    }
    return B_OK;
}

/*
 * Host facts as data (issue 11): what the sizing report needs to know about the machine and
 * the test directory, read from /proc, /sys and CPUID only, never by running a program.
 * Every path is read as root + path, so tests hand in a fake tree; root "" is the real
 * system, and only then are CPUID, uname, sched_getaffinity, realpath and statvfs asked. A
 * missing or malformed file leaves its fact out: facts never fail. Files are read whole up to
 * a cap (OS_HF_CAP, more for cpuinfo and mountinfo), and every parser below takes text that
 * may be truncated or garbage. References: docs of /proc (proc(5)), sysfs-devices-system-cpu,
 * cgroup-v1/v2; systemd's virt.c for the order of the container and hypervisor checks.
 */

#define OS_HF_CAP 65536             /* small /proc and /sys files */
#define OS_HF_BIGCAP (1024 * 1024)  /* cpuinfo of many CPUs, mountinfo of many mounts */
#define OS_HF_MAXCPU 8192           /* topology entries looked at */

/* os_hf_path - root + path into out; false if it does not fit. */
static bool os_hf_path(char *out, size_t n, const char *root, const char *path)
{
    int len = snprintf(out, n, "%s%s", root, path);
    return len > 0 && (size_t)len < n;
}

/* os_hf_read - the file root+path whole, up to cap-1 bytes, NUL-terminated in a heap buffer
 * (*out, freed by the caller; embedded NULs end the text early). Returns the length or -1. */
static ssize_t os_hf_read(const char *root, const char *path, size_t cap, char **out)
{
    char p[PATH_MAX];
    *out = NULL;
    if (!os_hf_path(p, sizeof(p), root, path))
        return -1;
    int fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return -1;
    char *buf = b_xmalloc(cap);
    size_t len = 0;
    while (len + 1 < cap) {
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n < 0 && len == 0) {
                close(fd);
                free(buf);
                return -1;
            }
            break;
        }
        len += (size_t)n;
    }
    close(fd);
    buf[len] = 0;
    *out = buf;
    return (ssize_t)len;
}

/* os_hf_line - the first line of root+path, blanks trimmed, into out; false if absent/empty. */
static bool os_hf_line(const char *root, const char *path, char *out, size_t n)
{
    char *text;
    if (os_hf_read(root, path, 4096, &text) < 0)
        return false;
    size_t a = 0, len = strcspn(text, "\n");
    while (a < len && isspace((unsigned char)text[a]))
        a++;
    while (len > a && isspace((unsigned char)text[len - 1]))
        len--;
    bool ok = len > a && len - a < n;
    if (ok) {
        memcpy(out, text + a, len - a);
        out[len - a] = 0;
    }
    free(text);
    return ok;
}

/* os_parse_u64 - a decimal number with optional blanks around it and nothing else. */
static bool os_parse_u64(const char *s, u64 *v)
{
    u64 x = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    for (; isdigit((unsigned char)*s); s++) {
        u64 d = (u64)(*s - '0');
        if (x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    while (*s && isspace((unsigned char)*s))
        s++;
    if (*s)
        return false;
    *v = x;
    return true;
}

static bool os_hf_u64(const char *root, const char *path, u64 *v)
{
    char line[64];
    return os_hf_line(root, path, line, sizeof(line)) && os_parse_u64(line, v);
}

/* os_hf_exists - whether root+path exists (lstat: a dangling link counts). */
static bool os_hf_exists(const char *root, const char *path)
{
    char p[PATH_MAX];
    struct stat st;
    return os_hf_path(p, sizeof(p), root, path) && lstat(p, &st) == 0;
}

/* os_parse_bracket - the [selected] word of a sysfs choice list ("always [madvise] never"). */
static bool os_parse_bracket(const char *text, char *out, size_t n)
{
    const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;
    if (!a || !b || b == a + 1 || (size_t)(b - a - 1) >= n ||
        memchr(a + 1, '\n', (size_t)(b - a - 1)))
        return false;
    memcpy(out, a + 1, (size_t)(b - a - 1));
    out[b - a - 1] = 0;
    return true;
}

/* os_parse_cache_size - a sysfs cache size ("32K", "1024K", "16M") in bytes. */
static bool os_parse_cache_size(const char *s, u64 *bytes)
{
    char num[32];
    size_t n = strspn(s, "0123456789");
    if (n == 0 || n >= sizeof(num))
        return false;
    memcpy(num, s, n);
    num[n] = 0;
    u64 v, mul = 1;
    if (!os_parse_u64(num, &v))
        return false;
    const char *units = "KMG", *u = s[n] ? strchr(units, s[n]) : NULL;
    if (u) {
        mul = 1ull << (10 * (u - units + 1));
        n++;
    }
    if (s[n] && !isspace((unsigned char)s[n]))
        return false;
    if (v > UINT64_MAX / mul)
        return false;
    *bytes = v * mul;
    return true;
}

/* os_parse_cpulist - count the CPUs (or nodes) of a list "0-3,8,10-11"; -1 if malformed. */
static int os_parse_cpulist(const char *s)
{
    long count = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\n' || !*s)
        return 0;
    for (;;) {
        char *end;
        if (!isdigit((unsigned char)*s))
            return -1;
        unsigned long a = strtoul(s, &end, 10), b = a;
        s = end;
        if (*s == '-') {
            if (!isdigit((unsigned char)s[1]))
                return -1;
            b = strtoul(s + 1, &end, 10);
            s = end;
        }
        if (b < a || b - a >= 1u << 20 || a >= 1u << 20)
            return -1;
        count += (long)(b - a + 1);
        if (count > 1l << 20)
            return -1;
        if (*s != ',')
            break;
        s++;
    }
    while (*s && isspace((unsigned char)*s))
        s++;
    return *s ? -1 : (int)count;
}

/* os_parse_meminfo - the value of key ("MemTotal") in /proc/meminfo text, times 1024 when
 * the line says kB. */
static bool os_parse_meminfo(const char *text, const char *key, u64 *v)
{
    size_t klen = strlen(key);
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, key, klen) || l[klen] != ':')
            continue;
        const char *p = l + klen + 1;
        while (*p == ' ' || *p == '\t')
            p++;
        u64 x = 0;
        if (!isdigit((unsigned char)*p))
            return false;
        for (; isdigit((unsigned char)*p); p++) {
            if (x > (UINT64_MAX - 9) / 10)
                return false;
            x = x * 10 + (u64)(*p - '0');
        }
        while (*p == ' ')
            p++;
        if (!strncmp(p, "kB", 2)) {
            if (x > UINT64_MAX / 1024)
                return false;
            x *= 1024;
            p += 2;
        }
        if (*p && *p != '\n')
            return false;
        *v = x;
        return true;
    }
    return false;
}

/* What /proc/cpuinfo says: the first processor's identity and flags, and counts. */
struct os_cpuinfo {
    char model[128];       /* "model name" (x86), "Processor"/"cpu model"/"cpu" elsewhere */
    bool have_flags;       /* a flags/Features line was seen */
    bool aes, avx2, avx512;/* avx512 = avx512f */
    int processors;        /* "processor" lines */
    int sockets;           /* distinct "physical id" values (0: none given) */
    int cores;             /* sum over sockets of "cpu cores" (0: not given) */
};

/* os_hf_in_list - whether the list [s, e), items separated by any of seps, holds item w. */
static bool os_hf_in_list(const char *s, const char *e, const char *w, const char *seps)
{
    size_t wl = strlen(w);
    while (s < e) {
        while (s < e && strchr(seps, *s))
            s++;
        const char *t = s;
        while (t < e && !strchr(seps, *t))
            t++;
        if ((size_t)(t - s) == wl && !memcmp(s, w, wl))
            return true;
        s = t;
    }
    return false;
}

/* os_parse_cpuinfo - fill *ci from /proc/cpuinfo text. */
static void os_parse_cpuinfo(const char *text, struct os_cpuinfo *ci)
{
    long ids[256];
    int nids = 0;
    long cur_id = -1;
    memset(ci, 0, sizeof(*ci));
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        const char *e = strchr(l, '\n'), *colon;
        if (!e)
            e = l + strlen(l);
        colon = memchr(l, ':', (size_t)(e - l));
        if (!colon)
            continue;
        size_t klen = (size_t)(colon - l);
        while (klen && isspace((unsigned char)l[klen - 1]))
            klen--;
        const char *v = colon + 1;
        while (v < e && isspace((unsigned char)*v))
            v++;
        size_t vlen = (size_t)(e - v);
        while (vlen && isspace((unsigned char)v[vlen - 1]))
            vlen--;
#define OS_KEY(k) (klen == sizeof(k) - 1 && !memcmp(l, k, klen))
        if (OS_KEY("processor"))
            ci->processors++;
        else if ((OS_KEY("model name") || OS_KEY("Processor") || OS_KEY("cpu model") ||
                  OS_KEY("cpu")) && !ci->model[0] && vlen) {
            size_t n = B_MIN(vlen, sizeof(ci->model) - 1);
            memcpy(ci->model, v, n);
            ci->model[n] = 0;
        } else if ((OS_KEY("flags") || OS_KEY("Features")) && !ci->have_flags) {
            ci->have_flags = true;
            ci->aes = os_hf_in_list(v, v + vlen, "aes", " \t");
            ci->avx2 = os_hf_in_list(v, v + vlen, "avx2", " \t");
            ci->avx512 = os_hf_in_list(v, v + vlen, "avx512f", " \t");
        } else if (OS_KEY("physical id")) {
            char *end;
            long id = strtol(v, &end, 10);
            cur_id = end != v ? id : -1;
            bool seen = cur_id < 0;
            for (int i = 0; i < nids && !seen; i++)
                seen = ids[i] == cur_id;
            if (!seen && nids < (int)countof(ids)) {
                ids[nids++] = cur_id;
                ci->sockets = nids;
            } else
                cur_id = -1; /* "cpu cores" counted once per socket */
        } else if (OS_KEY("cpu cores") && cur_id >= 0) {
            char *end;
            long n = strtol(v, &end, 10);
            if (end != v && n > 0 && n < 100000 && ci->cores < 1000000)
                ci->cores += (int)n;
            cur_id = -1;
        }
#undef OS_KEY
    }
}

/* A cgroup membership line of /proc/self/cgroup: "4:cpu,cpuacct:/docker/abc" (v1) or
 * "0::/user.slice" (v2). os_parse_cgroup finds the path for controller ctl ("" = the v2
 * line); false if none. */
static bool os_parse_cgroup(const char *text, const char *ctl, char *path, size_t n)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        const char *e = strchr(l, '\n');
        if (!e)
            e = l + strlen(l);
        const char *c1 = memchr(l, ':', (size_t)(e - l));
        const char *c2 = c1 ? memchr(c1 + 1, ':', (size_t)(e - c1 - 1)) : NULL;
        if (!c2 || c2 + 1 >= e || c2[1] != '/')
            continue;
        bool hit = false;
        if (!*ctl)
            hit = c2 == c1 + 1 && l[0] == '0' && c1 == l + 1;
        else
            hit = os_hf_in_list(c1 + 1, c2, ctl, ",");
        if (!hit)
            continue;
        size_t len = (size_t)(e - c2 - 1);
        if (len >= n)
            return false;
        memcpy(path, c2 + 1, len);
        path[len] = 0;
        /* it becomes a path under /sys/fs/cgroup: no way up */
        for (const char *d = strstr(path, "/.."); d; d = strstr(d + 1, "/.."))
            if (d[3] == '/' || !d[3])
                return false;
        return true;
    }
    return false;
}

/* os_parse_cpu_max - cgroup v2 cpu.max "150000 100000" as CPUs (1.5); false when "max"
 * (unlimited) or malformed. */
static bool os_parse_cpu_max(const char *text, double *cpus)
{
    char q[32], p[32], extra[2];
    u64 quota, period;
    int n = sscanf(text, "%31s %31s %1s", q, p, extra);
    if (n != 2 || !os_parse_u64(q, &quota) || !os_parse_u64(p, &period) || !period || !quota)
        return false;
    *cpus = (double)quota / (double)period;
    return true;
}

/* os_parse_stat_cpu - the aggregate "cpu" line of /proc/stat into *s. */
static bool os_parse_stat_cpu(const char *text, struct os_cpu_sample *s)
{
    u64 v[8] = {0};
    int n = 0;
    if (strncmp(text, "cpu ", 4))
        return false;
    const char *p = text + 4;
    while (n < 8) {
        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            break;
        u64 x = 0;
        for (; isdigit((unsigned char)*p); p++) {
            if (x > (UINT64_MAX - 9) / 10)
                return false;
            x = x * 10 + (u64)(*p - '0');
        }
        v[n++] = x;
    }
    if (n < 4) /* user nice system idle: every kernel has them; steal since 2.6.11 */
        return false;
    memset(s, 0, sizeof(*s));
    for (int i = 0; i < n; i++) /* guest time is inside user and nice already */
        s->total_ticks += v[i];
    s->steal_ticks = n >= 8 ? v[7] : 0;
    s->idle_ticks = v[3] + (n >= 5 ? v[4] : 0);
    return true;
}

BENCH_API int os_steal_sample(const char *root, struct os_cpu_sample *s)
{
    char *text;
    memset(s, 0, sizeof(*s));
    if (os_hf_read(root, "/proc/stat", OS_HF_CAP, &text) < 0)
        return B_SYSERR;
    bool ok = os_parse_stat_cpu(text, s);
    free(text);
    return ok ? B_OK : B_INVALID;
}

BENCH_API double os_steal_pct(const struct os_cpu_sample *a, const struct os_cpu_sample *b)
{
    if (b->total_ticks <= a->total_ticks || b->steal_ticks < a->steal_ticks)
        return 0;
    double pct = 100.0 * (double)(b->steal_ticks - a->steal_ticks) /
                 (double)(b->total_ticks - a->total_ticks);
    return pct > 100 ? 100 : pct;
}

/* os_parse_vmstat - the value of key ("pswpin") in /proc/vmstat text: "key N" lines. */
static bool os_parse_vmstat(const char *text, const char *key, u64 *v)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, key, kl) || p[kl] != ' ')
            continue;
        const char *q = p + kl + 1;
        u64 x = 0;
        if (!isdigit((unsigned char)*q))
            return false;
        for (; isdigit((unsigned char)*q); q++) {
            if (x > (UINT64_MAX - 9) / 10)
                return false;
            x = x * 10 + (u64)(*q - '0');
        }
        *v = x;
        return true;
    }
    return false;
}

/* os_swap_pages - pages swapped in plus out since boot (/proc/vmstat pswpin + pswpout under
 * root); false when unreadable. Sampled before and after a run: the difference is swap
 * activity during it. */
static bool os_swap_pages(const char *root, u64 *pages)
{
    char *text;
    u64 in, out;
    if (os_hf_read(root, "/proc/vmstat", OS_HF_CAP, &text) < 0)
        return false;
    bool ok = os_parse_vmstat(text, "pswpin", &in) && os_parse_vmstat(text, "pswpout", &out);
    free(text);
    if (ok)
        *pages = in + out;
    return ok;
}

/* os_cpuid - CPUID leaf/subleaf into r[eax, ebx, ecx, edx]; zeros off x86. */
static void os_cpuid(u32 leaf, u32 sub, u32 r[4])
{
#if defined(__x86_64__)
    __asm__ volatile("cpuid"
                     : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
                     : "a"(leaf), "c"(sub));
#else
    (void)leaf;
    (void)sub;
    r[0] = r[1] = r[2] = r[3] = 0;
#endif
}

/* os_virt_from_sig - a hypervisor's CPUID signature (leaf 0x40000000 ebx, ecx, edx: 12
 * bytes) as a name; NULL if unknown. */
static const char *os_virt_from_sig(const char sig[12])
{
    static const struct {
        const char *sig, *name;
    } t[] = {
        {"KVMKVMKVM\0\0\0", "kvm"},    {"Linux KVM Hv", "kvm"},     {"TCGTCGTCGTCG", "qemu"},
        {"VMwareVMware", "vmware"},    {"Microsoft Hv", "hyperv"},  {"XenVMMXenVMM", "xen"},
        {"bhyve bhyve ", "bhyve"},     {"ACRNACRNACRN", "acrn"},    {"QNXQVMBSQG\0\0", "qnx"},
        {"VirtualApple", "apple"},     {"Apple VZ\0\0\0\0", "apple"},
    };
    for (size_t i = 0; i < countof(t); i++)
        if (!memcmp(sig, t[i].sig, 12))
            return t[i].name;
    return NULL;
}

/* os_virt_cpuid - the hypervisor named by CPUID, "other" for an unknown one, NULL for none
 * (no hypervisor bit). Hyper-V's signature on KVM with its enlightenments: KVM's own sits
 * at 0x40000100. */
static const char *os_virt_cpuid(void)
{
#if defined(__x86_64__)
    u32 r[4];
    char sig[12];
    os_cpuid(1, 0, r);
    if (!(r[2] & (1u << 31)))
        return NULL;
    os_cpuid(0x40000000, 0, r);
    memcpy(sig, &r[1], 4);
    memcpy(sig + 4, &r[2], 4);
    memcpy(sig + 8, &r[3], 4);
    const char *name = os_virt_from_sig(sig);
    if (name && !strcmp(name, "hyperv")) {
        os_cpuid(0x40000100, 0, r);
        memcpy(sig, &r[1], 4);
        memcpy(sig + 4, &r[2], 4);
        memcpy(sig + 8, &r[3], 4);
        const char *inner = os_virt_from_sig(sig);
        if (inner && !strcmp(inner, "kvm"))
            name = inner;
    }
    return name ? name : "other";
#else
    return NULL;
#endif
}

/* os_virt_dmi - the VM named by the DMI strings (systemd's table, restated); NULL if none. */
static const char *os_virt_dmi(const char *root)
{
    static const char *const files[] = {"product_name", "sys_vendor", "board_vendor",
                                        "bios_vendor", "product_version"};
    static const struct {
        const char *prefix, *name;
    } t[] = {
        {"KVM", "kvm"},          {"OpenStack", "kvm"},   {"KubeVirt", "kvm"},
        {"Amazon EC2", "amazon"},{"QEMU", "qemu"},       {"VMware", "vmware"},
        {"VMW", "vmware"},       {"innotek GmbH", "oracle"}, {"VirtualBox", "oracle"},
        {"Oracle Corporation", "oracle"}, {"Xen", "xen"}, {"Bochs", "bochs"},
        {"Parallels", "parallels"}, {"BHYVE", "bhyve"}, {"Hyper-V", "hyperv"},
        {"Apple Virtualization", "apple"}, {"Google Compute Engine", "google"},
    };
    char v[128], path[64], product[128] = "";
    os_hf_line(root, "/sys/class/dmi/id/product_name", product, sizeof(product));
    for (size_t f = 0; f < countof(files); f++) {
        snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", files[f]);
        if (!os_hf_line(root, path, v, sizeof(v)))
            continue;
        for (size_t i = 0; i < countof(t); i++)
            if (!strncmp(v, t[i].prefix, strlen(t[i].prefix))) {
                /* EC2 bare metal says "Amazon EC2" too; its product name ends in .metal */
                size_t pl = strlen(product);
                if (!strcmp(t[i].name, "amazon") && pl > 6 && !strcmp(product + pl - 6, ".metal"))
                    return "none";
                return t[i].name;
            }
        /* Hyper-V: "Microsoft Corporation" + "Virtual Machine" */
        if (!strcmp(files[f], "sys_vendor") && !strcmp(v, "Microsoft Corporation") &&
            !strcmp(product, "Virtual Machine"))
            return "hyperv";
    }
    return NULL;
}

/* os_hf_name_ok - a short printable word (a container manager's name from the environment). */
static bool os_hf_name_ok(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!isalnum((unsigned char)s[n]) && !strchr("-_.", s[n]))
            return false;
    return n > 0 && n < 32;
}

/* os_container - the container manager around us, or "none" (systemd's order: what the
 * manager says, PID 1's container=, then its marker files, then cgroup paths). */
static void os_container(const char *root, char *out, size_t n)
{
    char v[64], *text;
    ssize_t len;
    snprintf(out, n, "none");
    if (os_hf_exists(root, "/proc/vz") && !os_hf_exists(root, "/proc/bc")) {
        snprintf(out, n, "openvz");
        return;
    }
    if (os_hf_line(root, "/proc/sys/kernel/osrelease", v, sizeof(v)) &&
        (strstr(v, "Microsoft") || strstr(v, "WSL"))) {
        snprintf(out, n, "wsl");
        return;
    }
    if ((os_hf_line(root, "/run/host/container-manager", v, sizeof(v)) ||
         os_hf_line(root, "/run/systemd/container", v, sizeof(v))) &&
        os_hf_name_ok(v) && strcmp(v, "oci")) {
        snprintf(out, n, "%s", v);
        return;
    }
    if ((len = os_hf_read(root, "/proc/1/environ", OS_HF_CAP, &text)) >= 0) {
        bool found = false;
        for (const char *p = text; p < text + len; p += strlen(p) + 1)
            if (!strncmp(p, "container=", 10) && os_hf_name_ok(p + 10) && strcmp(p + 10, "oci")) {
                snprintf(out, n, "%s", p + 10);
                found = true;
                break;
            }
        free(text);
        if (found)
            return;
    }
    const char *cg = NULL;
    if (os_hf_read(root, "/proc/self/cgroup", OS_HF_CAP, &text) >= 0) {
        if (strstr(text, "kubepods"))
            cg = "kubernetes";
        else if (strstr(text, "libpod"))
            cg = "podman";
        else if (strstr(text, "/docker/") || strstr(text, "docker-"))
            cg = "docker";
        else if (strstr(text, "/lxc/") || strstr(text, "lxc.payload"))
            cg = "lxc";
        free(text);
    }
    if (cg && !strcmp(cg, "kubernetes"))
        snprintf(out, n, "%s", cg);
    else if (os_hf_exists(root, "/run/.containerenv"))
        snprintf(out, n, "podman");
    else if (os_hf_exists(root, "/.dockerenv"))
        snprintf(out, n, "docker");
    else if (cg)
        snprintf(out, n, "%s", cg);
}

/* os_cg_walk - the smallest limit along the cgroup path and its ancestors (a limit on any
 * of them applies): read(root, dir) gives a directory's limit (false: none there). Paths
 * the mount does not show (a v1 container sees its own cgroup as the mount's root) are
 * skipped; the mount's root is always looked at. */
static bool os_cg_walk(const char *root, const char *mnt, const char *cgpath,
                       bool (*read)(const char *root, const char *dir, double *v), double *best)
{
    char dir[PATH_MAX], p[PATH_MAX];
    bool any = false;
    snprintf(p, sizeof(p), "%s", cgpath);
    for (;;) {
        size_t pl = strlen(p);
        while (pl > 1 && p[pl - 1] == '/')
            p[--pl] = 0;
        double v;
        if (snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(p, "/") ? p : "") < (int)sizeof(dir) &&
            read(root, dir, &v) && (!any || v < *best)) {
            *best = v;
            any = true;
        }
        char *slash = strrchr(p, '/');
        if (!slash || slash == p)
            break;
        *slash = 0;
    }
    if (strcmp(p, "/") && p[0]) { /* the mount's root, when the walk did not end there */
        double v;
        if (read(root, mnt, &v) && (!any || v < *best)) {
            *best = v;
            any = true;
        }
    }
    return any;
}

static bool os_cg2_cpu(const char *root, const char *dir, double *v)
{
    char path[PATH_MAX], line[64];
    snprintf(path, sizeof(path), "%s/cpu.max", dir);
    return os_hf_line(root, path, line, sizeof(line)) && os_parse_cpu_max(line, v);
}

static bool os_cg2_mem(const char *root, const char *dir, double *v)
{
    char path[PATH_MAX];
    u64 x;
    snprintf(path, sizeof(path), "%s/memory.max", dir);
    if (!os_hf_u64(root, path, &x) || x >= (1ull << 62)) /* "max" does not parse: unlimited */
        return false;
    *v = (double)x;
    return true;
}

static bool os_cg1_cpu(const char *root, const char *dir, double *v)
{
    char path[PATH_MAX], line[32];
    u64 period;
    snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", dir);
    if (!os_hf_line(root, path, line, sizeof(line)) || line[0] == '-') /* -1: unlimited */
        return false;
    u64 quota;
    if (!os_parse_u64(line, &quota) || !quota)
        return false;
    snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", dir);
    if (!os_hf_u64(root, path, &period) || !period)
        return false;
    *v = (double)quota / (double)period;
    return true;
}

static bool os_cg1_mem(const char *root, const char *dir, double *v)
{
    char path[PATH_MAX];
    u64 x;
    snprintf(path, sizeof(path), "%s/memory.limit_in_bytes", dir);
    /* unlimited reads as PAGE_COUNTER_MAX pages: 0x7ffffffffffff000 or so */
    if (!os_hf_u64(root, path, &x) || x >= (1ull << 62))
        return false;
    *v = (double)x;
    return true;
}

/* os_cgroup_facts - cgroup_version and the CPU quota and memory limit that apply to us. */
static void os_cgroup_facts(const char *root, struct res *res)
{
    char *text = NULL, path[PATH_MAX];
    double cpus, mem;
    if (os_hf_read(root, "/proc/self/cgroup", OS_HF_CAP, &text) < 0)
        text = NULL;
    if (os_hf_exists(root, "/sys/fs/cgroup/cgroup.controllers")) {
        res_fact_int(res, "cgroup_version", 2);
        if (!text || !os_parse_cgroup(text, "", path, sizeof(path)))
            snprintf(path, sizeof(path), "/");
        if (os_cg_walk(root, "/sys/fs/cgroup", path, os_cg2_cpu, &cpus))
            res_fact_num(res, "cgroup_cpu_quota_cpus", cpus);
        if (os_cg_walk(root, "/sys/fs/cgroup", path, os_cg2_mem, &mem))
            res_fact_int(res, "cgroup_memory_limit_bytes", (i64)mem);
    } else if (os_hf_exists(root, "/sys/fs/cgroup/memory") ||
               os_hf_exists(root, "/sys/fs/cgroup/cpu") ||
               os_hf_exists(root, "/sys/fs/cgroup/cpu,cpuacct")) {
        res_fact_int(res, "cgroup_version", 1);
        const char *cpumnt = os_hf_exists(root, "/sys/fs/cgroup/cpu")
                                 ? "/sys/fs/cgroup/cpu"
                                 : "/sys/fs/cgroup/cpu,cpuacct";
        if (!text || !os_parse_cgroup(text, "cpu", path, sizeof(path)))
            snprintf(path, sizeof(path), "/");
        if (os_cg_walk(root, cpumnt, path, os_cg1_cpu, &cpus))
            res_fact_num(res, "cgroup_cpu_quota_cpus", cpus);
        if (!text || !os_parse_cgroup(text, "memory", path, sizeof(path)))
            snprintf(path, sizeof(path), "/");
        if (os_cg_walk(root, "/sys/fs/cgroup/memory", path, os_cg1_mem, &mem))
            res_fact_int(res, "cgroup_memory_limit_bytes", (i64)mem);
    }
    free(text);
}

/* sort key of a logical CPU's core: package, die, core */
static int os_u64_cmp(const void *a, const void *b)
{
    u64 x = *(const u64 *)a, y = *(const u64 *)b;
    return x < y ? -1 : x > y;
}

static int os_count_distinct(u64 *v, int n)
{
    int d = 0;
    qsort(v, (size_t)n, sizeof(*v), os_u64_cmp);
    for (int i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}

/* os_topology - sockets, cores and threads from /sys/devices/system/cpu/cpuN/topology. */
static bool os_topology(const char *root, int *sockets, int *cores, int *threads)
{
    char p[PATH_MAX];
    if (!os_hf_path(p, sizeof(p), root, "/sys/devices/system/cpu"))
        return false;
    DIR *d = opendir(p);
    if (!d)
        return false;
    u64 *pkg = b_xcalloc(OS_HF_MAXCPU, sizeof(u64)), *core = b_xcalloc(OS_HF_MAXCPU, sizeof(u64));
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < OS_HF_MAXCPU) {
        u64 cpu, pk, co, die = 0;
        if (strncmp(de->d_name, "cpu", 3) || !os_parse_u64(de->d_name + 3, &cpu) || cpu > 1u << 20)
            continue;
        char f[96];
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%u/topology/physical_package_id",
                 (unsigned)cpu);
        if (!os_hf_u64(root, f, &pk)) /* an offline CPU may have no topology */
            continue;
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%u/topology/core_id", (unsigned)cpu);
        if (!os_hf_u64(root, f, &co))
            continue;
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu%u/topology/die_id", (unsigned)cpu);
        if (!os_hf_u64(root, f, &die))
            die = 0;
        pkg[n] = pk;
        core[n] = (pk & 0xfffff) << 40 | (die & 0xfffff) << 20 | (co & 0xfffff);
        n++;
    }
    closedir(d);
    if (n) {
        *threads = n;
        *sockets = os_count_distinct(pkg, n);
        *cores = os_count_distinct(core, n);
    }
    free(pkg);
    free(core);
    return n > 0;
}

/* os_caches - L1d, L2 and L3 sizes of cpu0's caches. */
static void os_caches(const char *root, struct res *res)
{
    for (int i = 0; i < 16; i++) {
        char f[96], type[32], size[32];
        u64 level, bytes;
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!os_hf_u64(root, f, &level))
            continue;
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!os_hf_line(root, f, type, sizeof(type)))
            continue;
        snprintf(f, sizeof(f), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!os_hf_line(root, f, size, sizeof(size)) || !os_parse_cache_size(size, &bytes) ||
            bytes > (u64)INT64_MAX)
            continue;
        if (level == 1 && !strcmp(type, "Data"))
            res_fact_int(res, "cache_l1d_bytes", (i64)bytes);
        else if (level == 2 && strcmp(type, "Instruction"))
            res_fact_int(res, "cache_l2_bytes", (i64)bytes);
        else if (level == 3 && strcmp(type, "Instruction"))
            res_fact_int(res, "cache_l3_bytes", (i64)bytes);
    }
}

/* os_hf_fact_u64 - a fact from a one-number file, if it parses. */
static void os_hf_fact_u64(const char *root, const char *path, struct res *res, const char *key)
{
    u64 v;
    if (os_hf_u64(root, path, &v) && v <= (u64)INT64_MAX)
        res_fact_int(res, key, (i64)v);
}

/* os_hf_fact_line - a fact from a one-line file. */
static void os_hf_fact_line(const char *root, const char *path, struct res *res, const char *key)
{
    char v[256];
    if (os_hf_line(root, path, v, sizeof(v)))
        res_fact_str(res, key, "%s", v);
}

BENCH_API int os_host_facts(const char *root, struct res *res)
{
    bool live = !root[0];
    char *text, line[256];
    int sockets = 0, cores = 0, threads = 0;

    struct os_cpuinfo ci;
    memset(&ci, 0, sizeof(ci));
    if (os_hf_read(root, "/proc/cpuinfo", OS_HF_BIGCAP, &text) >= 0) {
        os_parse_cpuinfo(text, &ci);
        free(text);
    }
    if (ci.model[0])
        res_fact_str(res, "cpu_model", "%s", ci.model);
    if (!os_topology(root, &sockets, &cores, &threads)) {
        sockets = ci.sockets;
        cores = ci.cores;
        threads = ci.processors;
    }
    if (sockets > 0)
        res_fact_int(res, "cpu_sockets", sockets);
    if (cores > 0)
        res_fact_int(res, "cpu_cores", cores);
    if (threads > 0)
        res_fact_int(res, "cpu_threads", threads);
    int n;
    if (os_hf_line(root, "/sys/devices/system/cpu/online", line, sizeof(line)) &&
        (n = os_parse_cpulist(line)) > 0)
        res_fact_int(res, "cpus_online", n);
    if (live) {
        cpu_set_t set;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof(set), &set) == 0)
            res_fact_int(res, "cpus_usable", CPU_COUNT(&set));
    }
    os_caches(root, res);
    if (os_hf_line(root, "/sys/devices/system/node/online", line, sizeof(line)) &&
        (n = os_parse_cpulist(line)) > 0)
        res_fact_int(res, "numa_nodes", n);
    os_hf_fact_line(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", res,
                    "cpu_governor");
    os_hf_fact_line(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", res,
                    "cpu_freq_driver");
    u64 khz;
    if (os_hf_u64(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", &khz) &&
        khz > 0 && khz < (1ull << 40))
        res_fact_int(res, "cpu_mhz_max", (i64)(khz / 1000));
    /* CPU features: the kernel's flags, or (live, x86-64) what CPUID says the CPU has */
    bool aes = ci.aes, avx2 = ci.avx2, avx512 = ci.avx512, have = ci.have_flags;
#if defined(__x86_64__)
    if (live) {
        u32 r[4];
        os_cpuid(0, 0, r);
        u32 maxleaf = r[0];
        if (maxleaf >= 1) {
            os_cpuid(1, 0, r);
            aes = aes || (r[2] >> 25 & 1);
            have = true;
        }
        if (maxleaf >= 7) {
            os_cpuid(7, 0, r);
            avx2 = avx2 || (r[1] >> 5 & 1);
            avx512 = avx512 || (r[1] >> 16 & 1);
        }
    }
#endif
    if (have) {
        res_fact_bool(res, "cpu_aes", aes);
        res_fact_bool(res, "cpu_avx2", avx2);
        res_fact_bool(res, "cpu_avx512", avx512);
    }

    if (os_hf_read(root, "/proc/meminfo", OS_HF_CAP, &text) >= 0) {
        static const struct {
            const char *key, *fact;
        } mi[] = {{"MemTotal", "mem_total_bytes"},     {"MemAvailable", "mem_available_bytes"},
                  {"HugePages_Total", "hugepages_total"}, {"Hugepagesize", "hugepage_size_bytes"},
                  {"SwapTotal", "swap_total_bytes"},   {"SwapFree", "swap_free_bytes"}};
        for (size_t i = 0; i < countof(mi); i++) {
            u64 v;
            if (os_parse_meminfo(text, mi[i].key, &v) && v <= (u64)INT64_MAX)
                res_fact_int(res, mi[i].fact, (i64)v);
        }
        free(text);
    }
    char word[32];
    if (os_hf_line(root, "/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof(line)) &&
        os_parse_bracket(line, word, sizeof(word)))
        res_fact_str(res, "thp_enabled", "%s", word);
    os_hf_fact_u64(root, "/proc/sys/vm/swappiness", res, "swappiness");
    os_hf_fact_u64(root, "/proc/sys/vm/dirty_ratio", res, "dirty_ratio");
    os_hf_fact_u64(root, "/proc/sys/vm/dirty_background_ratio", res, "dirty_background_ratio");
    struct utsname u;
    if (live && uname(&u) == 0 && u.release[0])
        res_fact_str(res, "kernel", "%s", u.release);
    else
        os_hf_fact_line(root, "/proc/sys/kernel/osrelease", res, "kernel");
    os_hf_fact_line(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
                    res, "clocksource");

    const char *virt = live ? os_virt_cpuid() : NULL;
    if (!virt || !strcmp(virt, "other")) {
        const char *dmi = os_virt_dmi(root);
        if (dmi)
            virt = dmi;
    }
    if (!virt && (os_hf_exists(root, "/proc/xen") ||
                  (os_hf_line(root, "/sys/hypervisor/type", word, sizeof(word)) &&
                   !strcmp(word, "xen"))))
        virt = "xen";
    res_fact_str(res, "virtualization", "%s", virt ? virt : "none");
    os_container(root, line, sizeof(line));
    res_fact_str(res, "container", "%s", line);
    os_cgroup_facts(root, res);
    return B_OK;
}

/* One line of /proc/self/mountinfo: the mount holding a path. */
struct os_mount {
    char point[PATH_MAX];  /* mount point, unescaped */
    unsigned maj, min;     /* st_dev of the filesystem */
    char fstype[32];       /* "ext4" */
    char source[256];      /* "/dev/mapper/vg-root", "tmpfs" */
    char options[512];     /* per-mount options: "rw,noatime" */
    char super[512];       /* superblock options: "rw,errors=remount-ro" */
};

/* os_mount_field - one blank-separated field of [s, e) into out, with the kernel's \ooo
 * escapes undone; returns the position after it, NULL if absent or too long. */
static const char *os_mount_field(const char *s, const char *e, char *out, size_t n)
{
    size_t len = 0;
    while (s < e && *s == ' ')
        s++;
    if (s >= e)
        return NULL;
    while (s < e && *s != ' ') {
        char c = *s++;
        if (c == '\\' && e - s >= 3 && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' &&
            s[2] >= '0' && s[2] <= '7') {
            c = (char)((s[0] - '0') << 6 | (s[1] - '0') << 3 | (s[2] - '0'));
            s += 3;
        }
        if (len + 1 >= n)
            return NULL;
        out[len++] = c;
    }
    out[len] = 0;
    return s;
}

/* os_path_under - whether path is mount point mp or below it. */
static bool os_path_under(const char *path, const char *mp)
{
    size_t n = strlen(mp);
    if (n == 1 && mp[0] == '/')
        return path[0] == '/';
    return !strncmp(path, mp, n) && (path[n] == 0 || path[n] == '/');
}

/* os_parse_mountinfo - the mount that holds absolute path (the longest mount point that is
 * a prefix of it; of equal ones the last, which is on top). */
static bool os_parse_mountinfo(const char *text, const char *path, struct os_mount *m)
{
    struct os_mount cur;
    bool found = false;
    size_t best = 0;
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        const char *e = strchr(l, '\n'), *p;
        char f[64];
        if (!e)
            e = l + strlen(l);
        memset(&cur, 0, sizeof(cur));
        /* id parent maj:min root mountpoint options [optional...] - fstype source superopts */
        if (!(p = os_mount_field(l, e, f, sizeof(f))) ||
            !(p = os_mount_field(p, e, f, sizeof(f))) ||
            !(p = os_mount_field(p, e, f, sizeof(f))) ||
            sscanf(f, "%u:%u", &cur.maj, &cur.min) != 2 ||
            !(p = os_mount_field(p, e, cur.point, sizeof(cur.point))) || /* root: skipped */
            !(p = os_mount_field(p, e, cur.point, sizeof(cur.point))) ||
            !(p = os_mount_field(p, e, cur.options, sizeof(cur.options))))
            continue;
        const char *sep = p;
        for (;;) { /* optional fields end at a lone "-" */
            sep = os_mount_field(sep, e, f, sizeof(f));
            if (!sep || !strcmp(f, "-"))
                break;
        }
        if (!sep || !(sep = os_mount_field(sep, e, cur.fstype, sizeof(cur.fstype))) ||
            !(sep = os_mount_field(sep, e, cur.source, sizeof(cur.source))))
            continue;
        if (!os_mount_field(sep, e, cur.super, sizeof(cur.super)))
            cur.super[0] = 0;
        size_t n = strlen(cur.point);
        if (cur.point[0] != '/' || !os_path_under(path, cur.point) || (found && n < best))
            continue;
        *m = cur;
        best = n;
        found = true;
    }
    return found;
}

/* os_opt_has - whether a comma-separated option list holds opt. */
static bool os_opt_has(const char *list, const char *opt)
{
    return os_hf_in_list(list, list + strlen(list), opt, ",");
}

/* os_blk_link - the last component of the target of link root+path (a sysfs device path)
 * into out, and the one before it (the parent device) into parent when asked. */
static bool os_blk_link(const char *root, const char *path, char *out, size_t n, char *parent,
                        size_t pn)
{
    char p[PATH_MAX], t[PATH_MAX];
    if (!os_hf_path(p, sizeof(p), root, path))
        return false;
    ssize_t len = readlink(p, t, sizeof(t) - 1);
    if (len <= 0)
        return false;
    t[len] = 0;
    char *base = strrchr(t, '/');
    /* sysfs links are relative; a name is a device's, never "." or ".." */
    if ((root[0] && t[0] == '/') || !base || !base[1] || base[1] == '.' || strlen(base + 1) >= n)
        return false;
    snprintf(out, n, "%s", base + 1);
    if (parent) {
        *base = 0;
        char *pb = strrchr(t, '/');
        parent[0] = 0;
        if (pb && strlen(pb + 1) < pn)
            snprintf(parent, pn, "%s", pb + 1);
    }
    return true;
}

static int os_str_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

#define OS_BLK_MAX 16  /* devices per level of the chain */
#define OS_BLK_NAME 64

/* os_blk_below - what block device X sits on: its slaves (dm, md), or the disk of a
 * partition. Returns how many names it put in below[], 0 for a whole disk. */
static int os_blk_below(const char *root, const char *x, char below[][OS_BLK_NAME], int max)
{
    char path[PATH_MAX], parent[OS_BLK_NAME], name[OS_BLK_NAME];
    int n = 0;
    snprintf(path, sizeof(path), "/sys/class/block/%s/partition", x);
    if (os_hf_exists(root, path)) {
        snprintf(path, sizeof(path), "/sys/class/block/%s", x);
        if (os_blk_link(root, path, name, sizeof(name), parent, sizeof(parent)) && parent[0] &&
            max > 0) {
            snprintf(below[0], OS_BLK_NAME, "%s", parent);
            return 1;
        }
        return 0;
    }
    char p[PATH_MAX];
    snprintf(path, sizeof(path), "/sys/class/block/%s/slaves", x);
    if (!os_hf_path(p, sizeof(p), root, path))
        return 0;
    DIR *d = opendir(p);
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < max) {
        size_t len = strlen(de->d_name);
        if (de->d_name[0] != '.' && len < OS_BLK_NAME)
            memcpy(below[n++], de->d_name, len + 1);
    }
    closedir(d);
    /* readdir's order is the filesystem's: sort for a stable chain */
    qsort(below, (size_t)n, OS_BLK_NAME, os_str_cmp);
    return n;
}

/* os_blk_facts - the chain from the mounted device down to its disks ("dm-1 -> dm-0 ->
 * nvme0n1p2 -> nvme0n1"; several devices at one level are joined by "+"), and the first
 * disk's queue settings and model. */
static void os_blk_facts(const char *root, unsigned maj, unsigned min, struct res *res)
{
    char path[PATH_MAX], v[256];
    char lvl[2][OS_BLK_MAX][OS_BLK_NAME];
    int nl[2] = {0, 0}, cur = 0;
    snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, min);
    if (!os_blk_link(root, path, lvl[0][0], OS_BLK_NAME, NULL, 0))
        return;
    nl[0] = 1;
    res_fact_str(res, "block_device", "%s", lvl[0][0]);
    struct buf chain = {0};
    buf_printf(&chain, "%s", lvl[0][0]);
    for (int depth = 0; depth < 8; depth++) { /* dm on md on partition: a few levels */
        int nx = 1 - cur;
        nl[nx] = 0;
        for (int i = 0; i < nl[cur]; i++) {
            char below[OS_BLK_MAX][OS_BLK_NAME];
            int nb = os_blk_below(root, lvl[cur][i], below, OS_BLK_MAX);
            if (!nb && nl[nx] < OS_BLK_MAX) /* a disk: it stays at the bottom */
                memcpy(lvl[nx][nl[nx]++], lvl[cur][i], OS_BLK_NAME);
            for (int k = 0; k < nb && nl[nx] < OS_BLK_MAX; k++) {
                bool dup = false;
                for (int j = 0; j < nl[nx] && !dup; j++)
                    dup = !strcmp(lvl[nx][j], below[k]);
                if (!dup)
                    memcpy(lvl[nx][nl[nx]++], below[k], OS_BLK_NAME);
            }
        }
        bool same = nl[nx] == nl[cur];
        for (int i = 0; i < nl[nx] && same; i++)
            same = !strcmp(lvl[nx][i], lvl[cur][i]);
        if (same)
            break;
        buf_printf(&chain, " ->");
        for (int i = 0; i < nl[nx]; i++)
            buf_printf(&chain, "%s%s", i ? "+" : " ", lvl[nx][i]);
        cur = nx;
    }
    res_fact_str(res, "block_chain", "%s", chain.p);
    buf_free(&chain);
    const char *disk = lvl[cur][0];
    res_fact_str(res, "disk", "%s", disk);
    snprintf(path, sizeof(path), "/sys/class/block/%s/queue/scheduler", disk);
    char word[32];
    if (os_hf_line(root, path, v, sizeof(v))) {
        if (os_parse_bracket(v, word, sizeof(word)))
            res_fact_str(res, "disk_scheduler", "%s", word);
        else if (!strchr(v, ' ')) /* a single choice is printed without brackets */
            res_fact_str(res, "disk_scheduler", "%s", v);
    }
    u64 rot;
    snprintf(path, sizeof(path), "/sys/class/block/%s/queue/rotational", disk);
    if (os_hf_u64(root, path, &rot) && rot <= 1)
        res_fact_bool(res, "disk_rotational", rot == 1);
    snprintf(path, sizeof(path), "/sys/class/block/%s/queue/write_cache", disk);
    if (os_hf_line(root, path, v, sizeof(v)) &&
        (!strcmp(v, "write back") || !strcmp(v, "write through")))
        res_fact_str(res, "disk_write_cache", "%s", v);
    snprintf(path, sizeof(path), "/sys/class/block/%s/device/model", disk);
    if (os_hf_line(root, path, v, sizeof(v)))
        res_fact_str(res, "disk_model", "%s", v);
}

/* os_path_clean - an absolute path without ".", "..", or repeated slashes (lexically: for
 * a fake root, where realpath would look at the real system). */
static bool os_path_clean(const char *in, char *out, size_t n)
{
    size_t len = 0;
    if (in[0] != '/' || n < 2)
        return false;
    out[0] = 0;
    for (const char *s = in; *s;) {
        while (*s == '/')
            s++;
        size_t cl = strcspn(s, "/");
        if (!cl)
            break;
        if (cl == 1 && s[0] == '.') {
        } else if (cl == 2 && s[0] == '.' && s[1] == '.') {
            while (len > 0 && out[len - 1] != '/')
                len--;
            if (len > 0)
                len--;
            out[len] = 0;
        } else {
            if (len + 1 + cl + 1 > n)
                return false;
            out[len++] = '/';
            memcpy(out + len, s, cl);
            len += cl;
            out[len] = 0;
        }
        s += cl;
    }
    if (!len)
        snprintf(out, n, "/");
    return true;
}

BENCH_API int os_dir_facts(const char *root, const char *dir, struct res *res)
{
    struct b_err *e = &res->err;
    bool live = !root[0];
    char path[PATH_MAX], *text;
    struct statvfs sv;
    bool have_sv = false;
    if (live) {
        if (!realpath(dir, path) || statvfs(path, &sv) < 0) {
            e->rc = B_SYSERR;
            e->sys_errno = errno;
            b_fail(e, B_EXIT_ENV, "hostfacts: cannot look at directory %s: %s (%s)", dir,
                   strerror(e->sys_errno), b_errno_name(e->sys_errno));
            b_hint(e, "give an existing directory with --file-dir");
            return B_SYSERR;
        }
        have_sv = true;
    } else if (!os_path_clean(dir, path, sizeof(path))) {
        b_fail(e, B_EXIT_USAGE, "hostfacts: directory %s: not an absolute path", dir);
        return B_INVALID;
    }
    res_fact_str(res, "dir_path", "%s", path);
    if (have_sv) {
        res_fact_int(res, "fs_free_bytes", (i64)((u64)sv.f_bavail * sv.f_frsize));
        res_fact_int(res, "fs_size_bytes", (i64)((u64)sv.f_blocks * sv.f_frsize));
    }
    struct os_mount *m = b_xcalloc(1, sizeof(*m));
    bool ro = have_sv && (sv.f_flag & ST_RDONLY);
    if (os_hf_read(root, "/proc/self/mountinfo", OS_HF_BIGCAP, &text) >= 0) {
        if (os_parse_mountinfo(text, path, m)) {
            res_fact_str(res, "fs_type", "%s", m->fstype);
            res_fact_str(res, "fs_source", "%s", m->source);
            res_fact_str(res, "mount_point", "%s", m->point);
            res_fact_str(res, "mount_options", "%s", m->options);
            if (m->super[0])
                res_fact_str(res, "fs_options", "%s", m->super);
            res_fact_bool(res, "fs_tmpfs", !strcmp(m->fstype, "tmpfs") ||
                                               !strcmp(m->fstype, "ramfs"));
            ro = ro || os_opt_has(m->options, "ro") || os_opt_has(m->super, "ro");
            if (m->maj) /* 0: no block device (tmpfs, overlay, nfs, btrfs's anonymous ids) */
                os_blk_facts(root, m->maj, m->min, res);
        }
        free(text);
    }
    res_fact_bool(res, "fs_readonly", ro);
    free(m);
    return B_OK;
}

/* `bench hostfacts [--file-dir=DIR]`: the host's facts and those of DIR (default "."), as
 * data; a hidden command until `bench all` shows them (rep_facts renders them meanwhile). */
static const struct opt_def opt_hostfacts[] = {
    OPT("file-dir", STR, file_dir, ".", 0, 0, NULL,
        "directory whose filesystem and block device are described", NULL, OPT_F_EXT),
};

static int os_hostfacts_cmd(struct res *res)
{
    struct os_cpu_sample a, b;
    u64 t0_ns = clk_now_ns();
    bool steal = os_steal_sample("", &a) == B_OK;
    int rc = os_host_facts("", res);
    if (rc == B_OK)
        rc = os_dir_facts("", res->o->file_dir, res);
    res->rc = rc;
    if (rc < 0)
        return res->err.ex;
    /* steal time over a short window (a report samples it around each test instead) */
    u64 spent_ns = clk_now_ns() - t0_ns;
    if (steal && spent_ns < 250000000) {
        struct timespec ts = {0, (long)(250000000 - spent_ns)};
        nanosleep(&ts, NULL);
    }
    if (steal && os_steal_sample("", &b) == B_OK && b.total_ticks > a.total_ticks) {
        res_fact_num(res, "cpu_steal_pct", os_steal_pct(&a, &b));
        res_fact_int(res, "cpu_steal_window_ms", (i64)((clk_now_ns() - t0_ns) / 1000000));
    }
    return B_EXIT_OK;
}

/*== 9 my_ : MySQL wire protocol codec (bytes in, structs out; no I/O) =======*/
/*
 * The MySQL/MariaDB client protocol as pure functions over byte buffers, after trilogy's
 * layering: a bounds-checked reader (every read can return B_TRUNCATED), a builder that
 * appends to a struct buf, frame helpers (4-byte header, 16 MiB splitting with the empty
 * trailing packet), one parser per server packet and one builder per client packet, and the
 * authentication scrambles. Parsers return views into the caller's buffer. Nothing here does
 * I/O, so everything is tested from captured fixtures and fuzzed (tests/fuzz_my.c).
 * References: shared/spec/protocol.md sections 1-4 and Appendix A (test vectors); RFC 8032
 * (Ed25519) for client_ed25519.
 * Limitations: zlib compression only (no zstd), no LOCAL INFILE (refused with an empty packet), no cursors,
 * no COM_STMT_BULK_EXECUTE; pre-4.1 servers and mysql_old_password are refused.
 */

/* capability flags (protocol.md 2.3) */
#define MY_CAP_LONG_PASSWORD 0x00000001u
#define MY_CAP_LONG_FLAG 0x00000004u
#define MY_CAP_CONNECT_WITH_DB 0x00000008u
#define MY_CAP_PROTOCOL_41 0x00000200u
#define MY_CAP_SSL 0x00000800u
#define MY_CAP_TRANSACTIONS 0x00002000u
#define MY_CAP_SECURE_CONNECTION 0x00008000u
#define MY_CAP_MULTI_STATEMENTS 0x00010000u
#define MY_CAP_MULTI_RESULTS 0x00020000u
#define MY_CAP_PS_MULTI_RESULTS 0x00040000u
#define MY_CAP_PLUGIN_AUTH 0x00080000u
#define MY_CAP_CONNECT_ATTRS 0x00100000u
#define MY_CAP_PLUGIN_AUTH_LENENC 0x00200000u
#define MY_CAP_SESSION_TRACK 0x00800000u
#define MY_CAP_DEPRECATE_EOF 0x01000000u
#define MY_CAP_COMPRESS 0x00000020u
#define MY_CAP_ZSTD 0x04000000u /* MySQL 8.0.18+: zstd compression (not supported) */
/* what bench asks for (0x012EA205), ANDed with the server's */
#define MY_CAP_WANTED                                                                        \
    (MY_CAP_LONG_PASSWORD | MY_CAP_LONG_FLAG | MY_CAP_PROTOCOL_41 | MY_CAP_TRANSACTIONS |    \
     MY_CAP_SECURE_CONNECTION | MY_CAP_MULTI_RESULTS | MY_CAP_PS_MULTI_RESULTS |             \
     MY_CAP_PLUGIN_AUTH | MY_CAP_PLUGIN_AUTH_LENENC | MY_CAP_DEPRECATE_EOF)

#define MY_MARIADB_CACHE_METADATA 0x10u /* extended capability, bit 36 */
#define MY_SERVER_MORE_RESULTS 0x0008u
#define MY_SERVER_SESSION_STATE_CHANGED 0x4000u
#define MY_COLLATION_UTF8MB4 45
#define MY_MAX_PACKET 0xFFFFFFu

/* commands (protocol.md 4.1) */
enum {
    MY_COM_QUIT = 0x01,
    MY_COM_INIT_DB = 0x02,
    MY_COM_QUERY = 0x03,
    MY_COM_PING = 0x0E,
    MY_COM_STMT_PREPARE = 0x16,
    MY_COM_STMT_EXECUTE = 0x17,
    MY_COM_STMT_CLOSE = 0x19,
    MY_COM_STMT_RESET = 0x1A,
    MY_COM_RESET_CONNECTION = 0x1F,
};

/* column / value types (protocol.md 4.7) */
enum {
    MY_T_DECIMAL = 0x00, MY_T_TINY = 0x01, MY_T_SHORT = 0x02, MY_T_LONG = 0x03,
    MY_T_FLOAT = 0x04, MY_T_DOUBLE = 0x05, MY_T_NULL = 0x06, MY_T_TIMESTAMP = 0x07,
    MY_T_LONGLONG = 0x08, MY_T_INT24 = 0x09, MY_T_DATE = 0x0A, MY_T_TIME = 0x0B,
    MY_T_DATETIME = 0x0C, MY_T_YEAR = 0x0D, MY_T_VARCHAR = 0x0F, MY_T_BIT = 0x10,
    MY_T_JSON = 0xF5, MY_T_NEWDECIMAL = 0xF6, MY_T_ENUM = 0xF7, MY_T_SET = 0xF8,
    MY_T_TINY_BLOB = 0xF9, MY_T_MEDIUM_BLOB = 0xFA, MY_T_LONG_BLOB = 0xFB, MY_T_BLOB = 0xFC,
    MY_T_VAR_STRING = 0xFD, MY_T_STRING = 0xFE, MY_T_GEOMETRY = 0xFF,
};
#define MY_FLAG_UNSIGNED 0x20

/* A view of bytes in someone else's buffer. */
struct my_str {
    const char *p;
    size_t len;
};

/* Bounds-checked reader over one packet payload. */
struct my_rd {
    const u8 *p;
    size_t len, pos;
};

#define MY_RD(buf, n) ((struct my_rd){.p = (const u8 *)(buf), .len = (n), .pos = 0})
#define MY_CHECK(e)                                                                          \
    do {                                                                                     \
        if ((rc = (e)) < 0)                                                                  \
            return rc;                                                                       \
    } while (0)

static size_t my_rd_left(const struct my_rd *r)
{
    return r->len - r->pos;
}

static int my_rd_uint(struct my_rd *r, size_t n, u64 *v)
{
    if (my_rd_left(r) < n)
        return B_TRUNCATED;
    u64 x = 0;
    for (size_t i = 0; i < n; i++)
        x |= (u64)r->p[r->pos + i] << (8 * i);
    r->pos += n;
    *v = x;
    return B_OK;
}

static int my_rd_u8(struct my_rd *r, u8 *v)
{
    if (my_rd_left(r) < 1)
        return B_TRUNCATED;
    *v = r->p[r->pos++];
    return B_OK;
}

static int my_rd_u16(struct my_rd *r, u16 *v)
{
    u64 x = 0;
    int rc = my_rd_uint(r, 2, &x);
    *v = (u16)x;
    return rc;
}

static int my_rd_u32(struct my_rd *r, u32 *v)
{
    u64 x = 0;
    int rc = my_rd_uint(r, 4, &x);
    *v = (u32)x;
    return rc;
}

static int my_rd_bytes(struct my_rd *r, size_t n, const u8 **p)
{
    if (my_rd_left(r) < n)
        return B_TRUNCATED;
    *p = r->p + r->pos;
    r->pos += n;
    return B_OK;
}

/* int<lenenc>; 0xFB (NULL) only where is_null is given, 0xFF never */
static int my_rd_lenenc(struct my_rd *r, u64 *v, bool *is_null)
{
    u8 b;
    int rc;
    MY_CHECK(my_rd_u8(r, &b));
    if (is_null)
        *is_null = false;
    if (b < 0xFB) {
        *v = b;
        return B_OK;
    }
    if (b == 0xFB) {
        if (!is_null)
            return B_PROTOCOL;
        *is_null = true;
        *v = 0;
        return B_OK;
    }
    if (b == 0xFF)
        return B_PROTOCOL;
    return my_rd_uint(r, b == 0xFC ? 2 : b == 0xFD ? 3 : 8, v);
}

static int my_rd_lstr(struct my_rd *r, struct my_str *s, bool *is_null)
{
    u64 n;
    const u8 *p;
    int rc;
    MY_CHECK(my_rd_lenenc(r, &n, is_null));
    if (n > my_rd_left(r))
        return B_TRUNCATED;
    MY_CHECK(my_rd_bytes(r, (size_t)n, &p));
    s->p = (const char *)p;
    s->len = (size_t)n;
    return B_OK;
}

/* string<NUL>; with eof_ok the end of the packet also terminates (old servers) */
static int my_rd_nstr(struct my_rd *r, struct my_str *s, bool eof_ok)
{
    const u8 *z = memchr(r->p + r->pos, 0, my_rd_left(r));
    if (!z && !eof_ok)
        return B_TRUNCATED;
    size_t n = z ? (size_t)(z - (r->p + r->pos)) : my_rd_left(r);
    s->p = (const char *)(r->p + r->pos);
    s->len = n;
    r->pos += n + (z != NULL);
    return B_OK;
}

/* builder */
static void my_put_u8(struct buf *b, u8 v)
{
    buf_put(b, &v, 1);
}

static void my_put_uint(struct buf *b, u64 v, size_t n)
{
    u8 x[8];
    for (size_t i = 0; i < n; i++)
        x[i] = (u8)(v >> (8 * i));
    buf_put(b, x, n);
}

static void my_put_lenenc(struct buf *b, u64 v)
{
    if (v < 251)
        my_put_u8(b, (u8)v);
    else if (v <= 0xFFFF)
        my_put_u8(b, 0xFC), my_put_uint(b, v, 2);
    else if (v <= 0xFFFFFF)
        my_put_u8(b, 0xFD), my_put_uint(b, v, 3);
    else
        my_put_u8(b, 0xFE), my_put_uint(b, v, 8);
}

static void my_put_lstr(struct buf *b, const void *p, size_t n)
{
    my_put_lenenc(b, n);
    buf_put(b, p, n);
}

static void my_put_nstr(struct buf *b, const char *s)
{
    buf_put(b, s, strlen(s) + 1);
}

/*
 * my_frame - append payload as packets to out: 4-byte headers (length, sequence id), split
 * at 0xFFFFFF bytes, and an empty packet after a payload that is a multiple of 0xFFFFFF.
 * *seq is advanced past the packets written.
 */
static void my_frame(struct buf *out, u8 *seq, const void *payload, size_t len)
{
    const u8 *p = payload;
    for (;;) {
        size_t n = B_MIN(len, (size_t)MY_MAX_PACKET);
        my_put_uint(out, n, 3);
        my_put_u8(out, (*seq)++);
        buf_put(out, p, n);
        p += n;
        len -= n;
        if (n < MY_MAX_PACKET)
            return;
    }
}

/*
 * my_frame_parse - the first packet in in[0..len): B_AGAIN when incomplete, else the bytes it
 * takes (header included); payload, plen and seq describe the packet.
 */
static long my_frame_parse(const u8 *in, size_t len, const u8 **payload, size_t *plen, u8 *seq)
{
    if (len < 4)
        return B_AGAIN;
    size_t n = (size_t)in[0] | (size_t)in[1] << 8 | (size_t)in[2] << 16;
    if (len - 4 < n)
        return B_AGAIN;
    *payload = in + 4;
    *plen = n;
    *seq = in[3];
    return (long)(n + 4);
}

/*
 * The compressed protocol (protocol.md 5): zlib streams (RFC 1950) of deflate data (RFC
 * 1951) inside 7-byte frame headers. Both directions are written here, since bench links only
 * musl and mbedTLS. my_inflate is one-shot and bounded: it writes into the caller's buffer of
 * the announced uncompressed length and nowhere else, allocates nothing, and every malformed
 * input (bad header, code, length, distance, adler32) is B_PROTOCOL with a reason. my_deflate
 * is LZ77 over hash chains (32 KiB window, chains cut at MY_Z_CHAIN: one fixed level) with a
 * dynamic Huffman code per block of MY_ZT_MAX tokens, or the fixed code where that is
 * shorter; sbtest rows shrink to 0.52 of their size (zlib's default level: 0.52).
 */
#define MY_Z_MIN_COMPRESS 50   /* shorter payloads go stored, as libmysql/libmariadb */
#define MY_Z_HDR 7             /* int<3> compressed length, int<1> cseq, int<3> length */
#define MY_Z_WBITS 15
#define MY_Z_WSIZE (1u << MY_Z_WBITS)
#define MY_Z_HBITS 15
#define MY_Z_CHAIN 48          /* hash chain steps per position: a fixed level */
#define MY_Z_WORK (((size_t)1 << MY_Z_HBITS) + MY_Z_WSIZE + 16384) /* u32s: deflate's work */

static const u16 my_z_lbase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                   31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const u8 my_z_lext[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const u16 my_z_dbase[30] = {1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
                                   33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
                                   1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const u8 my_z_dext[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* adler32 (RFC 1950 8.2), continuing from a (1 for a new stream) */
static u32 my_adler32(u32 a, const u8 *p, size_t n)
{
    u32 s1 = a & 0xFFFF, s2 = a >> 16;
    while (n > 0) {
        size_t k = B_MIN(n, (size_t)5552); /* the most bytes before s2 can overflow */
        n -= k;
        while (k--) {
            s1 += *p++;
            s2 += s1;
        }
        s1 %= 65521;
        s2 %= 65521;
    }
    return s2 << 16 | s1;
}

/* Inflate state: input bits, the bounded output, the first error's reason. */
struct my_zs {
    const u8 *in;
    size_t inlen, inpos;
    u32 bitbuf;
    unsigned bitcnt;
    u8 *out;
    size_t outlen, outpos;
    const char *why; /* NULL while the stream is good */
};

/* A canonical Huffman code: codes per length, symbols in code order (RFC 1951 3.2.2), and a
 * table of the codes up to MY_Z_FAST bits by their next input bits: symbol << 4 | length. */
#define MY_Z_FAST 9
struct my_huff {
    u16 count[16];
    u16 symbol[288];
    u16 fast[1u << MY_Z_FAST];
};

static int my_z_fail(struct my_zs *s, const char *why)
{
    if (!s->why)
        s->why = why;
    return -1;
}

/* need (<= 16) bits, LSB first; 0 and the error past the end of the input */
static unsigned my_z_bits(struct my_zs *s, unsigned need)
{
    while (s->bitcnt < need) {
        if (s->inpos >= s->inlen) {
            my_z_fail(s, "the compressed data ends early");
            return 0;
        }
        s->bitbuf |= (u32)s->in[s->inpos++] << s->bitcnt;
        s->bitcnt += 8;
    }
    unsigned v = s->bitbuf & ((1u << need) - 1);
    s->bitbuf >>= need;
    s->bitcnt -= need;
    return v;
}

/* Build h from n code lengths: 0 for a complete code, > 0 incomplete, < 0 oversubscribed. */
static int my_huff_build(struct my_huff *h, const u8 *len, unsigned n)
{
    u16 offs[16];
    memset(h->count, 0, sizeof(h->count));
    memset(h->fast, 0, sizeof(h->fast));
    for (unsigned i = 0; i < n; i++)
        h->count[len[i]]++;
    if (h->count[0] == n)
        return 0; /* no codes: complete, decoding fails on use */
    int left = 1;
    for (unsigned l = 1; l < 16; l++) {
        left <<= 1;
        left -= h->count[l];
        if (left < 0)
            return left;
    }
    offs[1] = 0;
    for (unsigned l = 1; l < 15; l++)
        offs[l + 1] = (u16)(offs[l] + h->count[l]);
    for (unsigned i = 0; i < n; i++)
        if (len[i])
            h->symbol[offs[len[i]]++] = (u16)i;
    unsigned code = 0, index = 0;
    for (unsigned l = 1; l <= MY_Z_FAST; l++, code <<= 1)
        for (unsigned k = 0; k < h->count[l]; k++, code++, index++) {
            unsigned rev = 0; /* codes are sent most significant bit first */
            for (unsigned b = 0; b < l; b++)
                rev |= ((code >> b) & 1) << (l - 1 - b);
            for (unsigned x = rev; x < (1u << MY_Z_FAST); x += 1u << l)
                h->fast[x] = (u16)((unsigned)h->symbol[index] << 4 | l);
        }
    return left;
}

/* One symbol: by the table when its code is short, else bit by bit in code order (after
 * Mark Adler's puff.c); -1 on a bad code. */
static int my_huff_decode(struct my_zs *s, const struct my_huff *h)
{
    while (s->bitcnt < MY_Z_FAST && s->inpos < s->inlen) { /* look ahead, whole bytes */
        s->bitbuf |= (u32)s->in[s->inpos++] << s->bitcnt;
        s->bitcnt += 8;
    }
    unsigned e = h->fast[s->bitbuf & ((1u << MY_Z_FAST) - 1)];
    if (e && (e & 15) <= s->bitcnt) {
        s->bitbuf >>= e & 15;
        s->bitcnt -= e & 15;
        return (int)(e >> 4);
    }
    int code = 0, first = 0, index = 0;
    for (unsigned l = 1; l < 16; l++) {
        code |= (int)my_z_bits(s, 1);
        if (s->why)
            return -1;
        int count = h->count[l];
        if (code - count < first)
            return h->symbol[index + (code - first)];
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    return my_z_fail(s, "an invalid Huffman code");
}

/* The symbols of one block up to end-of-block, with its length and distance codes. */
static int my_z_codes(struct my_zs *s, const struct my_huff *lc, const struct my_huff *dc)
{
    for (;;) {
        int sym = my_huff_decode(s, lc);
        if (sym < 0)
            return -1;
        if (sym < 256) {
            if (s->outpos >= s->outlen)
                return my_z_fail(s, "more data than the announced length");
            s->out[s->outpos++] = (u8)sym;
            continue;
        }
        if (sym == 256)
            return 0;
        sym -= 257;
        if (sym >= 29)
            return my_z_fail(s, "an invalid length code");
        size_t len = my_z_lbase[sym] + my_z_bits(s, my_z_lext[sym]);
        int d = my_huff_decode(s, dc);
        if (d < 0)
            return -1;
        if (d >= 30)
            return my_z_fail(s, "an invalid distance code");
        size_t dist = my_z_dbase[d] + my_z_bits(s, my_z_dext[d]);
        if (s->why)
            return -1;
        if (dist > s->outpos)
            return my_z_fail(s, "a distance too far back");
        if (len > s->outlen - s->outpos)
            return my_z_fail(s, "more data than the announced length");
        for (size_t i = 0; i < len; i++, s->outpos++) /* overlapping copies repeat */
            s->out[s->outpos] = s->out[s->outpos - dist];
    }
}

static void my_z_fixed(struct my_huff *lc, struct my_huff *dc)
{
    u8 len[288];
    memset(len, 8, 144);
    memset(len + 144, 9, 112);
    memset(len + 256, 7, 24);
    memset(len + 280, 8, 8);
    my_huff_build(lc, len, 288);
    memset(len, 5, 32); /* 30 and 31 decode, and are refused as distances */
    my_huff_build(dc, len, 32);
}

/* A dynamic block's code lengths (RFC 1951 3.2.7), then its symbols. */
static int my_z_dynamic(struct my_zs *s)
{
    static const u8 order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    struct my_huff lc, dc;
    u8 len[320];
    unsigned nlen = my_z_bits(s, 5) + 257, ndist = my_z_bits(s, 5) + 1, ncode = my_z_bits(s, 4) + 4;
    if (s->why)
        return -1;
    if (nlen > 286 || ndist > 30)
        return my_z_fail(s, "too many length or distance codes");
    memset(len, 0, sizeof(len));
    for (unsigned i = 0; i < ncode; i++)
        len[order[i]] = (u8)my_z_bits(s, 3);
    if (s->why)
        return -1;
    if (my_huff_build(&lc, len, 19) != 0)
        return my_z_fail(s, "an incomplete code-length code");
    for (unsigned i = 0; i < nlen + ndist;) {
        int sym = my_huff_decode(s, &lc);
        if (sym < 0)
            return -1;
        if (sym < 16) {
            len[i++] = (u8)sym;
            continue;
        }
        u8 v = 0;
        unsigned rep;
        if (sym == 16) {
            if (i == 0)
                return my_z_fail(s, "a repeated length with no previous length");
            v = len[i - 1];
            rep = 3 + my_z_bits(s, 2);
        } else
            rep = sym == 17 ? 3 + my_z_bits(s, 3) : 11 + my_z_bits(s, 7);
        if (s->why)
            return -1;
        if (i + rep > nlen + ndist)
            return my_z_fail(s, "too many code lengths");
        while (rep--)
            len[i++] = v;
    }
    if (len[256] == 0)
        return my_z_fail(s, "no end-of-block code");
    int e = my_huff_build(&lc, len, nlen);
    if (e < 0 || (e > 0 && nlen != (unsigned)lc.count[0] + lc.count[1]))
        return my_z_fail(s, "an invalid literal/length code");
    e = my_huff_build(&dc, len + nlen, ndist);
    if (e < 0 || (e > 0 && ndist != (unsigned)dc.count[0] + dc.count[1]))
        return my_z_fail(s, "an invalid distance code set");
    return my_z_codes(s, &lc, &dc);
}

static int my_z_stored(struct my_zs *s)
{
    s->inpos -= s->bitcnt / 8; /* to a byte boundary: whole bytes looked ahead are unread */
    s->bitbuf = 0;
    s->bitcnt = 0;
    if (s->inlen - s->inpos < 4)
        return my_z_fail(s, "the compressed data ends early");
    const u8 *h = s->in + s->inpos;
    size_t len = (size_t)h[0] | (size_t)h[1] << 8;
    if ((h[2] ^ h[0]) != 0xFF || (h[3] ^ h[1]) != 0xFF)
        return my_z_fail(s, "a stored block whose length check fails");
    s->inpos += 4;
    if (s->inlen - s->inpos < len)
        return my_z_fail(s, "the compressed data ends early");
    if (len > s->outlen - s->outpos)
        return my_z_fail(s, "more data than the announced length");
    memcpy(s->out + s->outpos, s->in + s->inpos, len);
    s->inpos += len;
    s->outpos += len;
    return 0;
}

/*
 * my_inflate - decompress the zlib stream in[0..inlen) into exactly outlen bytes at out.
 * B_OK, or B_PROTOCOL with *why set (the stream is corrupt, ends early, holds more or less
 * than outlen bytes, or has trailing bytes). Never writes past out + outlen.
 */
static int my_inflate(const u8 *in, size_t inlen, u8 *out, size_t outlen, const char **why)
{
    struct my_zs s = {.in = in, .inlen = inlen, .out = out, .outlen = outlen};
    struct my_huff lc, dc;
    if (inlen < 2 || (in[0] & 0x0F) != 8 || (in[0] >> 4) > 7 || ((in[0] << 8) | in[1]) % 31)
        my_z_fail(&s, "not a zlib stream (bad header)");
    else if (in[1] & 0x20)
        my_z_fail(&s, "a preset dictionary");
    s.inpos = 2;
    for (unsigned last = 0; !s.why && !last;) {
        last = my_z_bits(&s, 1);
        unsigned type = my_z_bits(&s, 2);
        if (s.why)
            break;
        if (type == 0)
            my_z_stored(&s);
        else if (type == 1) {
            my_z_fixed(&lc, &dc);
            my_z_codes(&s, &lc, &dc);
        } else if (type == 2)
            my_z_dynamic(&s);
        else
            my_z_fail(&s, "an invalid block type");
    }
    if (!s.why && s.outpos != outlen)
        my_z_fail(&s, "less data than the announced length");
    if (!s.why) {
        s.inpos -= s.bitcnt / 8; /* whole bytes read ahead are the checksum's */
        if (s.inlen - s.inpos < 4)
            my_z_fail(&s, "the compressed data ends before its adler32");
        else if (((u32)s.in[s.inpos] << 24 | (u32)s.in[s.inpos + 1] << 16 |
                  (u32)s.in[s.inpos + 2] << 8 | s.in[s.inpos + 3]) != my_adler32(1, out, outlen))
            my_z_fail(&s, "an adler32 mismatch");
        else if (s.inlen - s.inpos > 4)
            my_z_fail(&s, "bytes after the end of the stream");
    }
    *why = s.why;
    return s.why ? B_PROTOCOL : B_OK;
}

/* Deflate output: bits LSB first into a buf. */
struct my_zw {
    struct buf *out;
    u32 bitbuf;
    unsigned bitcnt;
};

static void my_zw_bits(struct my_zw *w, u32 v, unsigned n)
{
    w->bitbuf |= v << w->bitcnt;
    w->bitcnt += n;
    while (w->bitcnt >= 8) {
        u8 b = (u8)w->bitbuf;
        buf_put(w->out, &b, 1);
        w->bitbuf >>= 8;
        w->bitcnt -= 8;
    }
}

static u32 my_z_hash(const u8 *p, unsigned bits)
{
    return ((u32)p[0] << 16 | (u32)p[1] << 8 | p[2]) * 2654435761u >> (32 - bits);
}

/* Code lengths (at most limit bits) for the frequencies freq[0..n): Huffman's merge of the
 * sorted leaves with the queue of merged nodes, the frequencies halved until the longest
 * code fits. At least two codes, so that each code is complete. */
static void my_zw_lengths(const u32 *freq, unsigned n, unsigned limit, u8 *len)
{
    u32 f[288], w[576];
    u16 leaf[288], parent[576];
    unsigned nl = 0, lone = 0;
    for (unsigned i = 0; i < n; i++) {
        f[i] = freq[i];
        nl += f[i] != 0, lone = f[i] ? i : lone;
    }
    if (nl < 2) /* one symbol (or none): a second one makes a complete code */
        f[lone == 0 ? 1 : 0] = 1, f[lone] = f[lone] ? f[lone] : 1;
    for (;;) {
        nl = 0;
        for (unsigned i = 0; i < n; i++) /* the leaves by frequency (insertion sort) */
            if (f[i]) {
                unsigned k = nl++;
                while (k > 0 && f[leaf[k - 1]] > f[i]) {
                    leaf[k] = leaf[k - 1];
                    k--;
                }
                leaf[k] = (u16)i;
            }
        for (unsigned k = 0; k < nl; k++) /* nodes: leaves 0..nl-1, then merged ones */
            w[k] = f[leaf[k]];
        unsigned li = 0, qi = nl, m = nl;
        while (m < 2 * nl - 1) {
            unsigned pick[2];
            for (int j = 0; j < 2; j++)
                pick[j] = li < nl && (qi >= m || w[li] <= w[qi]) ? li++ : qi++;
            w[m] = w[pick[0]] + w[pick[1]];
            parent[pick[0]] = parent[pick[1]] = (u16)m++;
        }
        unsigned maxl = 0;
        u8 depth[576];
        depth[m - 1] = 0;
        for (unsigned k = m - 1; k-- > 0;) /* parents come after their children */
            depth[k] = (u8)(depth[parent[k]] + 1);
        memset(len, 0, n);
        for (unsigned k = 0; k < nl; k++) {
            len[leaf[k]] = depth[k];
            maxl = B_MAX(maxl, depth[k]);
        }
        if (maxl <= limit)
            return;
        for (unsigned i = 0; i < n; i++)
            f[i] = f[i] ? (f[i] + 1) / 2 : 0;
    }
}

/* Canonical codes from lengths (RFC 1951 3.2.2), bit-reversed: sent as they are, LSB first. */
static void my_zw_codes(const u8 *len, unsigned n, u16 *code)
{
    u16 count[16] = {0}, next[16];
    for (unsigned i = 0; i < n; i++)
        count[len[i]]++;
    count[0] = 0;
    unsigned c = 0;
    for (unsigned l = 1; l < 16; l++) {
        c = (c + count[l - 1]) << 1;
        next[l] = (u16)c;
    }
    for (unsigned i = 0; i < n; i++) {
        unsigned x = len[i] ? next[len[i]]++ : 0, r = 0;
        for (unsigned b = 0; b < len[i]; b++)
            r |= ((x >> b) & 1) << (len[i] - 1 - b);
        code[i] = (u16)r;
    }
}

/* Fixed-code lengths of the literal/length symbols. */
static unsigned my_zw_fixlen(unsigned sym)
{
    return sym < 144 ? 8 : sym < 256 ? 9 : sym < 280 ? 7 : 8;
}

static unsigned my_zw_lcode(unsigned len)
{
    unsigned l = 28;
    while (my_z_lbase[l] > len)
        l--;
    return l;
}

static unsigned my_zw_dcode(unsigned dist)
{
    unsigned d = 29;
    while (my_z_dbase[d] > dist)
        d--;
    return d;
}

/* Tokens of one block: a literal byte, or MY_ZT_MATCH | length << 16 | distance. */
#define MY_ZT_MATCH 0x80000000u
#define MY_ZT_MAX 16384 /* tokens per block */

static const u8 my_zw_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

/* A dynamic block's code lengths ll (literal/length, then distance, packed), their run-length
 * coding rle (symbol, extra value pairs) and its code cl; returns the block's size in bits
 * without the extra bits of lengths and distances. */
static u64 my_zw_plan(const u32 *lf, const u32 *df, u8 *ll, u8 *cl, u8 *rle, unsigned *hlit,
                      unsigned *hdist, unsigned *hclen, unsigned *nr)
{
    u32 cf[19] = {0};
    u64 bits = 14;
    my_zw_lengths(lf, 286, 15, ll);
    my_zw_lengths(df, 30, 15, ll + 286);
    unsigned nl = 286, nd = 30, n = 0, nc = 19;
    while (nl > 257 && !ll[nl - 1])
        nl--;
    while (nd > 1 && !ll[286 + nd - 1])
        nd--;
    for (unsigned i = 0; i < 286; i++)
        bits += (u64)lf[i] * ll[i];
    for (unsigned i = 0; i < 30; i++)
        bits += (u64)df[i] * ll[286 + i];
    memmove(ll + nl, ll + 286, nd); /* the lengths, run-length coded (3.2.7) */
    for (unsigned i = 0; i < nl + nd;) {
        unsigned run = 1;
        while (i + run < nl + nd && ll[i + run] == ll[i])
            run++;
        if (ll[i] == 0 && run >= 3) {
            run = B_MIN(run, 138u);
            rle[n++] = run >= 11 ? 18 : 17, rle[n++] = (u8)(run >= 11 ? run - 11 : run - 3);
        } else if (ll[i] && run >= 4) {
            run = B_MIN(run - 1, 6u) + 1; /* the length, then 16 repeating it */
            rle[n++] = ll[i], rle[n++] = 0;
            rle[n++] = 16, rle[n++] = (u8)(run - 1 - 3);
        } else {
            run = 1;
            rle[n++] = ll[i], rle[n++] = 0;
        }
        i += run;
    }
    for (unsigned i = 0; i < n; i += 2)
        cf[rle[i]]++;
    my_zw_lengths(cf, 19, 7, cl);
    while (nc > 4 && !cl[my_zw_order[nc - 1]])
        nc--;
    bits += 3u * nc;
    for (unsigned i = 0; i < n; i += 2)
        bits += cl[rle[i]] + (rle[i] == 16 ? 2u : rle[i] == 17 ? 3u : rle[i] == 18 ? 7u : 0u);
    *hlit = nl, *hdist = nd, *hclen = nc, *nr = n;
    return bits;
}

/* The fixed code's lengths and (reversed) codes, made once: literal/length, then distance. */
static u8 my_zw_fixl[288 + 30];
static u16 my_zw_fixc[288 + 30];
static pthread_once_t my_zw_fix_once = PTHREAD_ONCE_INIT;

static void my_zw_fix_init(void)
{
    for (unsigned i = 0; i < 288; i++) /* all 288: the canonical codes depend on them */
        my_zw_fixl[i] = (u8)my_zw_fixlen(i);
    memset(my_zw_fixl + 288, 5, 30);
    my_zw_codes(my_zw_fixl, 288, my_zw_fixc);
    my_zw_codes(my_zw_fixl + 288, 30, my_zw_fixc + 288);
}

/*
 * One deflate block of tokens t[0..nt), with the dynamic Huffman codes of its own symbol
 * counts, or the fixed code when that costs fewer bits (and for short blocks, where the code
 * tables would not pay).
 */
static void my_zw_block(struct my_zw *w, const u32 *t, size_t nt, bool last)
{
    u32 lf[286] = {0}, df[30] = {0};
    u8 ll[288 + 30], cl[19], rle[316 * 2];
    u16 lc[288], dc[30], cc[19];
    u64 fix = 0, dyn = UINT64_MAX; /* the extra bits cost the same under either code */
    unsigned hlit = 0, hdist = 0, hclen = 0, nr = 0;
    for (size_t i = 0; i < nt; i++)
        if (t[i] & MY_ZT_MATCH) {
            unsigned l = my_zw_lcode(t[i] >> 16 & 0x1FF), d = my_zw_dcode(t[i] & 0xFFFF);
            lf[257 + l]++, df[d]++;
        } else
            lf[t[i]]++;
    lf[256] = 1;
    for (unsigned i = 0; i < 286; i++)
        fix += (u64)lf[i] * my_zw_fixlen(i);
    for (unsigned i = 0; i < 30; i++)
        fix += (u64)df[i] * 5;
    if (nt >= 128)
        dyn = my_zw_plan(lf, df, ll, cl, rle, &hlit, &hdist, &hclen, &nr);
    my_zw_bits(w, last, 1);
    const u8 *ll_ = ll, *dl = ll + hlit;
    const u16 *lc_ = lc, *dc_ = dc;
    if (fix <= dyn) {
        my_zw_bits(w, 1, 2);
        pthread_once(&my_zw_fix_once, my_zw_fix_init);
        ll_ = my_zw_fixl, dl = my_zw_fixl + 288, lc_ = my_zw_fixc, dc_ = my_zw_fixc + 288;
    } else {
        my_zw_bits(w, 2, 2);
        my_zw_bits(w, hlit - 257, 5);
        my_zw_bits(w, hdist - 1, 5);
        my_zw_bits(w, hclen - 4, 4);
        for (unsigned i = 0; i < hclen; i++)
            my_zw_bits(w, cl[my_zw_order[i]], 3);
        my_zw_codes(cl, 19, cc);
        for (unsigned i = 0; i < nr; i += 2) {
            my_zw_bits(w, cc[rle[i]], cl[rle[i]]);
            if (rle[i] >= 16)
                my_zw_bits(w, rle[i + 1], rle[i] == 16 ? 2 : rle[i] == 17 ? 3 : 7);
        }
        my_zw_codes(ll, hlit, lc);
        my_zw_codes(dl, hdist, dc);
    }
    for (size_t i = 0; i < nt; i++)
        if (t[i] & MY_ZT_MATCH) {
            unsigned len = t[i] >> 16 & 0x1FF, dist = t[i] & 0xFFFF;
            unsigned l = my_zw_lcode(len), d = my_zw_dcode(dist);
            my_zw_bits(w, lc_[257 + l], ll_[257 + l]);
            my_zw_bits(w, len - my_z_lbase[l], my_z_lext[l]);
            my_zw_bits(w, dc_[d], dl[d]);
            my_zw_bits(w, dist - my_z_dbase[d], my_z_dext[d]);
        } else
            my_zw_bits(w, lc_[t[i]], ll_[t[i]]);
    my_zw_bits(w, lc_[256], ll_[256]);
}

/*
 * my_deflate - append the zlib stream of in[0..n) to out: LZ77 matches (3..258 bytes, up to
 * 32 KiB back) found over hash chains, in blocks of MY_ZT_MAX tokens, each with its own
 * dynamic Huffman code (or the fixed one, when cheaper). work holds MY_Z_WORK u32s (chain
 * heads, links and a block's tokens), reused between calls. Returns the bytes appended.
 */
static size_t my_deflate(struct buf *out, const u8 *in, size_t n, u32 *work)
{
    u32 *head = work, *prev = work + ((size_t)1 << MY_Z_HBITS), *tok = prev + MY_Z_WSIZE;
    size_t start = out->len, nt = 0;
    struct my_zw w = {.out = out};
    static const u8 zhdr[2] = {0x78, 0x9C};
    buf_put(out, zhdr, 2);
    unsigned hbits = n < 2048 ? 10 : n < 16384 ? 13 : MY_Z_HBITS; /* short: less to clear */
    memset(head, 0, sizeof(u32) << hbits); /* positions + 1; 0 = none */
    for (size_t i = 0; i < n;) {
        size_t best = 0, bdist = 0;
        if (n - i >= 3) {
            u32 h = my_z_hash(in + i, hbits);
            size_t maxlen = B_MIN(n - i, (size_t)258);
            u32 cand = head[h];
            for (unsigned steps = 0; cand && steps < MY_Z_CHAIN; steps++) {
                size_t j = cand - 1, dist = i - j;
                if (dist > MY_Z_WSIZE)
                    break;
                if (in[j + best] == in[i + best]) {
                    size_t l = 0;
                    while (l < maxlen && in[j + l] == in[i + l])
                        l++;
                    if (l > best) {
                        best = l, bdist = dist;
                        if (l == maxlen)
                            break;
                    }
                }
                u32 nx = prev[j & (MY_Z_WSIZE - 1)];
                if (nx >= cand)
                    break; /* a link from an older window slot */
                cand = nx;
            }
        }
        size_t adv = best >= 3 ? best : 1;
        tok[nt++] = best >= 3 ? MY_ZT_MATCH | (u32)best << 16 | (u32)bdist : in[i];
        for (size_t k = 0; k < adv; k++, i++)
            if (n - i >= 3) {
                u32 h = my_z_hash(in + i, hbits);
                prev[i & (MY_Z_WSIZE - 1)] = head[h];
                head[h] = (u32)(i + 1);
            }
        if (nt == MY_ZT_MAX && i < n) {
            my_zw_block(&w, tok, nt, false);
            nt = 0;
        }
    }
    my_zw_block(&w, tok, nt, true);
    if (w.bitcnt)
        my_zw_bits(&w, 0, 8 - w.bitcnt);
    u32 a = my_adler32(1, in, n);
    u8 t[4] = {(u8)(a >> 24), (u8)(a >> 16), (u8)(a >> 8), (u8)a};
    buf_put(out, t, 4);
    return out->len - start;
}

/*
 * my_zframe_parse - the compressed frame at in[0..len) (protocol.md 5): its compressed
 * length, sequence id and uncompressed length (0: stored). B_PROTOCOL when a length is over
 * cap (checked as soon as the header is there), B_AGAIN while incomplete (*clen is known once
 * the header is), else the bytes the frame takes.
 */
static long my_zframe_parse(const u8 *in, size_t len, size_t cap, size_t *clen, size_t *ulen,
                            u8 *cseq)
{
    *clen = *ulen = 0;
    if (len < MY_Z_HDR)
        return B_AGAIN;
    *clen = (size_t)in[0] | (size_t)in[1] << 8 | (size_t)in[2] << 16;
    *cseq = in[3];
    *ulen = (size_t)in[4] | (size_t)in[5] << 8 | (size_t)in[6] << 16;
    if (*clen > cap || *ulen > cap)
        return B_PROTOCOL;
    if (len - MY_Z_HDR < *clen)
        return B_AGAIN;
    return (long)(MY_Z_HDR + *clen);
}

/* my_zframe_body - a parsed frame's bytes into out[0 .. ulen, or clen when stored). */
static int my_zframe_body(const u8 *frame, size_t clen, size_t ulen, u8 *out, const char **why)
{
    *why = NULL;
    if (!ulen) {
        memcpy(out, frame + MY_Z_HDR, clen);
        return B_OK;
    }
    return my_inflate(frame + MY_Z_HDR, clen, out, ulen, why);
}

/* Initial handshake (protocol.md 2.2). */
struct my_handshake {
    u8 proto;             /* 10 */
    struct my_str version;/* "5.5.5-10.11.19-MariaDB-0+deb12u1" */
    u32 conn_id;          /* thread id */
    u8 scramble[21];      /* nonce, NUL-terminated */
    size_t scramble_len;  /* 20 in practice */
    u32 caps;             /* capability flags */
    u32 ext_caps;         /* MariaDB extended capabilities (caps bit 0 clear) */
    u8 charset;           /* server collation, low byte */
    u16 status;           /* status flags */
    struct my_str plugin; /* auth plugin name */
};

/* ERR packet (protocol.md 4.3). */
struct my_err_pkt {
    u16 code;             /* error number */
    char sqlstate[6];     /* "28000", or "HY000" when absent */
    struct my_str msg;    /* message */
};

static int my_parse_err(const u8 *p, size_t len, struct my_err_pkt *e)
{
    struct my_rd r = MY_RD(p, len);
    u8 h;
    int rc;
    MY_CHECK(my_rd_u8(&r, &h));
    if (h != 0xFF)
        return B_PROTOCOL;
    MY_CHECK(my_rd_u16(&r, &e->code));
    memcpy(e->sqlstate, "HY000", 6);
    if (my_rd_left(&r) >= 6 && r.p[r.pos] == '#') { /* absent before the greeting */
        memcpy(e->sqlstate, r.p + r.pos + 1, 5);
        r.pos += 6;
    }
    e->msg.p = (const char *)(r.p + r.pos);
    e->msg.len = my_rd_left(&r);
    return B_OK;
}

static int my_parse_handshake(const u8 *p, size_t len, struct my_handshake *h)
{
    struct my_rd r = MY_RD(p, len);
    const u8 *part1, *filler;
    u16 caps_lo, caps_hi;
    u8 auth_len, zero;
    int rc;
    memset(h, 0, sizeof(*h));
    MY_CHECK(my_rd_u8(&r, &h->proto));
    if (h->proto == 0xFF)
        return B_SERVER; /* an ERR instead of the greeting */
    if (h->proto != 10)
        return B_PROTOCOL;
    MY_CHECK(my_rd_nstr(&r, &h->version, false));
    MY_CHECK(my_rd_u32(&r, &h->conn_id));
    MY_CHECK(my_rd_bytes(&r, 8, &part1));
    MY_CHECK(my_rd_u8(&r, &zero));
    MY_CHECK(my_rd_u16(&r, &caps_lo));
    h->caps = caps_lo;
    memcpy(h->scramble, part1, 8);
    h->scramble_len = 8;
    if (!(caps_lo & MY_CAP_PROTOCOL_41))
        return B_UNSUPPORTED; /* pre-4.1 server */
    MY_CHECK(my_rd_u8(&r, &h->charset));
    MY_CHECK(my_rd_u16(&r, &h->status));
    MY_CHECK(my_rd_u16(&r, &caps_hi));
    h->caps |= (u32)caps_hi << 16;
    MY_CHECK(my_rd_u8(&r, &auth_len));
    MY_CHECK(my_rd_bytes(&r, 10, &filler));
    if (!(h->caps & MY_CAP_LONG_PASSWORD)) /* MariaDB: extended capabilities in bytes 6..9 */
        h->ext_caps = (u32)filler[6] | (u32)filler[7] << 8 | (u32)filler[8] << 16 |
                      (u32)filler[9] << 24;
    if (h->caps & MY_CAP_SECURE_CONNECTION) {
        size_t n2 = B_MAX(13, (size_t)auth_len > 8 ? (size_t)auth_len - 8 : 0);
        const u8 *part2;
        if (n2 > 13 + 32)
            return B_PROTOCOL;
        MY_CHECK(my_rd_bytes(&r, n2, &part2));
        size_t use = n2 - 1; /* the last byte is a NUL terminator */
        if (use > 12)
            use = 12;
        memcpy(h->scramble + 8, part2, use);
        h->scramble_len = 8 + use;
    }
    h->scramble[h->scramble_len] = 0;
    if (h->caps & MY_CAP_PLUGIN_AUTH)
        MY_CHECK(my_rd_nstr(&r, &h->plugin, true));
    return B_OK;
}

/* OK packet (protocol.md 4.2); also the 0xFE OK that ends a result set with DEPRECATE_EOF. */
struct my_ok_pkt {
    u64 affected, insert_id;
    u16 status, warnings;
    struct my_str info;
};

static int my_parse_ok(const u8 *p, size_t len, struct my_ok_pkt *ok)
{
    struct my_rd r = MY_RD(p, len);
    u8 h;
    int rc;
    memset(ok, 0, sizeof(*ok));
    MY_CHECK(my_rd_u8(&r, &h));
    if (h != 0x00 && h != 0xFE)
        return B_PROTOCOL;
    MY_CHECK(my_rd_lenenc(&r, &ok->affected, NULL));
    MY_CHECK(my_rd_lenenc(&r, &ok->insert_id, NULL));
    MY_CHECK(my_rd_u16(&r, &ok->status));
    MY_CHECK(my_rd_u16(&r, &ok->warnings));
    if (my_rd_left(&r)) { /* info: lenenc in practice, string<EOF> if that does not fit */
        struct my_rd save = r;
        if (my_rd_lstr(&r, &ok->info, NULL) < 0) {
            r = save;
            ok->info.p = (const char *)(r.p + r.pos);
            ok->info.len = my_rd_left(&r);
        }
    }
    return B_OK;
}

/* classic EOF (protocol.md 4.4) */
static int my_parse_eof(const u8 *p, size_t len, u16 *warnings, u16 *status)
{
    struct my_rd r = MY_RD(p, len);
    u8 h;
    int rc;
    MY_CHECK(my_rd_u8(&r, &h));
    if (h != 0xFE || len >= 9)
        return B_PROTOCOL;
    MY_CHECK(my_rd_u16(&r, warnings));
    MY_CHECK(my_rd_u16(&r, status));
    return B_OK;
}

/* Is this payload the end of a result set (EOF, or OK with 0xFE under DEPRECATE_EOF)? */
static bool my_is_eof(const u8 *p, size_t len)
{
    return len > 0 && p[0] == 0xFE && len < MY_MAX_PACKET;
}

/* ColumnDefinition41 (protocol.md 4.5). */
struct my_coldef {
    struct my_str schema, table, org_table, name, org_name;
    u16 charset;
    u32 length;
    u8 type, decimals;
    u16 flags;
};

static int my_parse_coldef(const u8 *p, size_t len, bool ext_meta, struct my_coldef *c)
{
    struct my_rd r = MY_RD(p, len);
    struct my_str catalog, ext;
    u64 fixed;
    int rc;
    memset(c, 0, sizeof(*c));
    MY_CHECK(my_rd_lstr(&r, &catalog, NULL));
    MY_CHECK(my_rd_lstr(&r, &c->schema, NULL));
    MY_CHECK(my_rd_lstr(&r, &c->table, NULL));
    MY_CHECK(my_rd_lstr(&r, &c->org_table, NULL));
    MY_CHECK(my_rd_lstr(&r, &c->name, NULL));
    MY_CHECK(my_rd_lstr(&r, &c->org_name, NULL));
    if (ext_meta)
        MY_CHECK(my_rd_lstr(&r, &ext, NULL));
    MY_CHECK(my_rd_lenenc(&r, &fixed, NULL));
    if (fixed < 0x0C)
        return B_PROTOCOL;
    MY_CHECK(my_rd_u16(&r, &c->charset));
    MY_CHECK(my_rd_u32(&r, &c->length));
    MY_CHECK(my_rd_u8(&r, &c->type));
    MY_CHECK(my_rd_u16(&r, &c->flags));
    MY_CHECK(my_rd_u8(&r, &c->decimals));
    u16 filler;
    MY_CHECK(my_rd_u16(&r, &filler)); /* 00 00; default values follow only for COM_FIELD_LIST */
    return B_OK;
}

/* A text row: ncols lenenc strings, 0xFB for NULL (vals[i].p == NULL). */
static int my_parse_text_row(const u8 *p, size_t len, size_t ncols, struct my_str *vals)
{
    struct my_rd r = MY_RD(p, len);
    int rc;
    for (size_t i = 0; i < ncols; i++) {
        bool is_null;
        MY_CHECK(my_rd_lstr(&r, &vals[i], &is_null));
        if (is_null)
            vals[i].p = NULL;
    }
    return my_rd_left(&r) ? B_PROTOCOL : B_OK;
}

/* COM_STMT_PREPARE_OK (protocol.md 4.7). */
struct my_prep_ok {
    u32 stmt_id;
    u16 ncols, nparams, warnings;
};

static int my_parse_prepare_ok(const u8 *p, size_t len, struct my_prep_ok *o)
{
    struct my_rd r = MY_RD(p, len);
    u8 h, reserved;
    int rc;
    MY_CHECK(my_rd_u8(&r, &h));
    if (h != 0x00)
        return B_PROTOCOL;
    MY_CHECK(my_rd_u32(&r, &o->stmt_id));
    MY_CHECK(my_rd_u16(&r, &o->ncols));
    MY_CHECK(my_rd_u16(&r, &o->nparams));
    MY_CHECK(my_rd_u8(&r, &reserved));
    o->warnings = 0;
    if (my_rd_left(&r) >= 2)
        MY_CHECK(my_rd_u16(&r, &o->warnings));
    return B_OK;
}

/* A binary-protocol value: parameters and result cells. */
struct my_time {
    u16 year;
    u8 month, day, hour, minute, second;
    u32 usec;
    bool neg;   /* TIME only */
    u32 days;   /* TIME only */
};

struct my_val {
    u8 type;          /* MY_T_* */
    bool is_null, is_unsigned;
    i64 i;            /* integer types (u64 bits when unsigned) */
    double d;         /* FLOAT, DOUBLE */
    struct my_str s;  /* strings, blobs, decimals */
    struct my_time t; /* DATE, DATETIME, TIMESTAMP, TIME */
};

static bool my_type_is_string(u8 t)
{
    return t == MY_T_DECIMAL || t == MY_T_NEWDECIMAL || t == MY_T_VARCHAR || t == MY_T_BIT ||
           t == MY_T_JSON || t >= MY_T_ENUM;
}

static int my_rd_value(struct my_rd *r, u8 type, bool is_unsigned, struct my_val *v)
{
    u64 x;
    int rc;
    v->type = type;
    v->is_unsigned = is_unsigned;
    switch (type) {
    case MY_T_TINY:
    case MY_T_SHORT:
    case MY_T_YEAR:
    case MY_T_LONG:
    case MY_T_INT24:
    case MY_T_LONGLONG: {
        size_t n = type == MY_T_TINY ? 1 : (type == MY_T_SHORT || type == MY_T_YEAR) ? 2
                                       : type == MY_T_LONGLONG                   ? 8
                                                                                 : 4;
        MY_CHECK(my_rd_uint(r, n, &x));
        if (!is_unsigned && n < 8 && (x >> (8 * n - 1)) & 1)
            x |= ~(u64)0 << (8 * n); /* sign-extend */
        v->i = (i64)x;
        return B_OK;
    }
    case MY_T_FLOAT: {
        u32 b;
        float f;
        MY_CHECK(my_rd_u32(r, &b));
        memcpy(&f, &b, 4);
        v->d = (double)f;
        return B_OK;
    }
    case MY_T_DOUBLE:
        MY_CHECK(my_rd_uint(r, 8, &x));
        memcpy(&v->d, &x, 8);
        return B_OK;
    case MY_T_DATE:
    case MY_T_DATETIME:
    case MY_T_TIMESTAMP: {
        u8 n;
        memset(&v->t, 0, sizeof(v->t));
        MY_CHECK(my_rd_u8(r, &n));
        if (n != 0 && n != 4 && n != 7 && n != 11)
            return B_PROTOCOL;
        if (n >= 4) {
            MY_CHECK(my_rd_u16(r, &v->t.year));
            MY_CHECK(my_rd_u8(r, &v->t.month));
            MY_CHECK(my_rd_u8(r, &v->t.day));
        }
        if (n >= 7) {
            MY_CHECK(my_rd_u8(r, &v->t.hour));
            MY_CHECK(my_rd_u8(r, &v->t.minute));
            MY_CHECK(my_rd_u8(r, &v->t.second));
        }
        if (n == 11)
            MY_CHECK(my_rd_u32(r, &v->t.usec));
        return B_OK;
    }
    case MY_T_TIME: {
        u8 n, neg;
        memset(&v->t, 0, sizeof(v->t));
        MY_CHECK(my_rd_u8(r, &n));
        if (n != 0 && n != 8 && n != 12)
            return B_PROTOCOL;
        if (n >= 8) {
            MY_CHECK(my_rd_u8(r, &neg));
            v->t.neg = neg != 0;
            MY_CHECK(my_rd_u32(r, &v->t.days));
            MY_CHECK(my_rd_u8(r, &v->t.hour));
            MY_CHECK(my_rd_u8(r, &v->t.minute));
            MY_CHECK(my_rd_u8(r, &v->t.second));
        }
        if (n == 12)
            MY_CHECK(my_rd_u32(r, &v->t.usec));
        return B_OK;
    }
    case MY_T_NULL:
        v->is_null = true;
        return B_OK;
    default:
        if (!my_type_is_string(type))
            return B_PROTOCOL;
        return my_rd_lstr(r, &v->s, NULL);
    }
}

/* A binary result row (protocol.md 4.7): 0x00, NULL bitmap with offset 2, values. */
static int my_parse_binary_row(const u8 *p, size_t len, size_t ncols,
                               const struct my_coldef *cols, struct my_val *vals)
{
    struct my_rd r = MY_RD(p, len);
    const u8 *bitmap;
    u8 h;
    int rc;
    MY_CHECK(my_rd_u8(&r, &h));
    if (h != 0x00)
        return B_PROTOCOL;
    MY_CHECK(my_rd_bytes(&r, (ncols + 7 + 2) / 8, &bitmap));
    for (size_t i = 0; i < ncols; i++) {
        memset(&vals[i], 0, sizeof(vals[i]));
        vals[i].type = cols[i].type;
        if (bitmap[(i + 2) / 8] & (1u << ((i + 2) % 8))) {
            vals[i].is_null = true;
            continue;
        }
        MY_CHECK(my_rd_value(&r, cols[i].type, (cols[i].flags & MY_FLAG_UNSIGNED) != 0,
                             &vals[i]));
    }
    return my_rd_left(&r) ? B_PROTOCOL : B_OK;
}

static void my_put_value(struct buf *b, const struct my_val *v)
{
    switch (v->type) {
    case MY_T_TINY:
        my_put_uint(b, (u64)v->i, 1);
        break;
    case MY_T_SHORT:
    case MY_T_YEAR:
        my_put_uint(b, (u64)v->i, 2);
        break;
    case MY_T_LONG:
    case MY_T_INT24:
        my_put_uint(b, (u64)v->i, 4);
        break;
    case MY_T_LONGLONG:
        my_put_uint(b, (u64)v->i, 8);
        break;
    case MY_T_FLOAT: {
        float f = (float)v->d;
        u32 x;
        memcpy(&x, &f, 4);
        my_put_uint(b, x, 4);
        break;
    }
    case MY_T_DOUBLE: {
        u64 x;
        memcpy(&x, &v->d, 8);
        my_put_uint(b, x, 8);
        break;
    }
    case MY_T_DATE:
    case MY_T_DATETIME:
    case MY_T_TIMESTAMP: {
        const struct my_time *t = &v->t;
        u8 n = v->type == MY_T_DATE ? 4 : t->usec ? 11 : 7;
        my_put_u8(b, n);
        my_put_uint(b, t->year, 2), my_put_u8(b, t->month), my_put_u8(b, t->day);
        if (n >= 7)
            my_put_u8(b, t->hour), my_put_u8(b, t->minute), my_put_u8(b, t->second);
        if (n == 11)
            my_put_uint(b, t->usec, 4);
        break;
    }
    case MY_T_TIME: {
        const struct my_time *t = &v->t;
        u8 n = t->usec ? 12 : 8;
        my_put_u8(b, n);
        my_put_u8(b, t->neg), my_put_uint(b, t->days, 4);
        my_put_u8(b, t->hour), my_put_u8(b, t->minute), my_put_u8(b, t->second);
        if (n == 12)
            my_put_uint(b, t->usec, 4);
        break;
    }
    case MY_T_NULL:
        break;
    default:
        my_put_lstr(b, v->s.p, v->s.len);
    }
}

/* COM_STMT_EXECUTE payload (protocol.md 4.7): types are sent every time (2 bytes/param). */
static void my_build_execute(struct buf *b, u32 stmt_id, const struct my_val *params,
                             size_t n)
{
    my_put_u8(b, MY_COM_STMT_EXECUTE);
    my_put_uint(b, stmt_id, 4);
    my_put_u8(b, 0);    /* no cursor */
    my_put_uint(b, 1, 4); /* iteration count */
    if (!n)
        return;
    size_t nb = (n + 7) / 8, at = b->len;
    for (size_t i = 0; i < nb; i++)
        my_put_u8(b, 0);
    for (size_t i = 0; i < n; i++)
        if (params[i].is_null || params[i].type == MY_T_NULL)
            b->p[at + i / 8] = (char)(b->p[at + i / 8] | (char)(1u << (i % 8)));
    my_put_u8(b, 1); /* new params bound: types follow */
    for (size_t i = 0; i < n; i++) {
        /* YEAR as a parameter type confuses MariaDB 10.11: send SHORT (protocol.md 6.10) */
        u8 t = params[i].is_null ? MY_T_NULL : params[i].type == MY_T_YEAR ? MY_T_SHORT
                                                                            : params[i].type;
        my_put_u8(b, t);
        my_put_u8(b, params[i].is_unsigned ? 0x80 : 0);
    }
    for (size_t i = 0; i < n; i++)
        if (!params[i].is_null)
            my_put_value(b, &params[i]);
}

/* SSLRequest / the first 32 bytes of HandshakeResponse41 (protocol.md 2.6, 2.7). */
static void my_build_login_head(struct buf *b, u32 caps, u32 ext_caps)
{
    my_put_uint(b, caps, 4);
    my_put_uint(b, 0x01000000, 4); /* max packet size (advisory) */
    my_put_u8(b, MY_COLLATION_UTF8MB4);
    for (int i = 0; i < 19; i++)
        my_put_u8(b, 0);
    my_put_uint(b, ext_caps, 4); /* MariaDB extended capabilities (caps bit 0 clear), else 0 */
}

/* HandshakeResponse41; returns the offset of the auth data in it (--debug=proto masks it) */
static size_t my_build_handshake_response(struct buf *b, u32 caps, u32 ext_caps,
                                          const char *user, const u8 *auth, size_t auth_len,
                                          const char *db, const char *plugin)
{
    size_t start = b->len, at;
    my_build_login_head(b, caps, ext_caps);
    my_put_nstr(b, user);
    if (caps & MY_CAP_PLUGIN_AUTH_LENENC)
        my_put_lenenc(b, auth_len);
    else
        my_put_u8(b, (u8)auth_len);
    at = b->len - start;
    buf_put(b, auth, auth_len);
    if (caps & MY_CAP_CONNECT_WITH_DB)
        my_put_nstr(b, db);
    if (caps & MY_CAP_PLUGIN_AUTH)
        my_put_nstr(b, plugin);
    if (caps & MY_CAP_CONNECT_ATTRS) {
        struct buf a = {0};
        my_put_lstr(&a, "_client_name", 12);
        my_put_lstr(&a, "bench", 5);
        my_put_lstr(&a, "_client_version", 15);
        my_put_lstr(&a, BENCH_VERSION, strlen(BENCH_VERSION));
        my_put_lstr(b, a.p, a.len);
        buf_free(&a);
    }
    return at;
}

/*
 * my_auth_mask - the auth data in a packet the server sends during the login, for
 * --debug=proto to mask: two (offset, length) ranges of the payload in m. The greeting has
 * the two parts of its scramble, an AuthSwitchRequest its nonce; other packets none
 * (AuthMoreData is a status byte or a public key).
 */
static void my_auth_mask(const u8 *p, size_t n, bool greeting, size_t m[4])
{
    const u8 *z = n > 1 ? memchr(p + 1, 0, n - 1) : NULL;
    m[0] = m[1] = m[2] = m[3] = 0;
    if (!z)
        return;
    if (greeting && p[0] == 10) {
        m[0] = (size_t)(z - p) + 1 + 4; /* after the version and the thread id */
        m[1] = 8;
        size_t al = m[0] + 8 + 1 + 2 + 1 + 2 + 2; /* the length of the whole scramble */
        if (al < n) {
            m[2] = al + 1 + 10;
            m[3] = B_MAX(13, p[al] > 8 ? (size_t)p[al] - 8 : 0);
        }
    } else if (!greeting && p[0] == 0xFE) {
        m[0] = (size_t)(z - p) + 1;
        m[1] = n - m[0];
    }
    for (int i = 0; i < 4; i += 2) /* within the packet */
        m[i + 1] = m[i] >= n ? 0 : B_MIN(m[i + 1], n - m[i]);
}

/*
 * my_escape - a server-supplied string (version, error message, host name) made safe for a
 * terminal into dst (always NUL-terminated): control characters, DEL, C1 controls and bytes
 * that are not UTF-8 become \n, \r, \t or \xNN; UTF-8 text and backslashes stay (server
 * messages are quoted verbatim).
 */
static void my_escape(char *dst, size_t cap, const char *src, size_t len)
{
    const u8 *s = (const u8 *)src;
    size_t o = 0;
    for (size_t i = 0; i < len && cap > 0;) {
        char t[8];
        size_t k = 1, tl;
        u8 ch = s[i];
        if (ch >= 0xC2 && ch <= 0xF4) { /* a well-formed UTF-8 sequence (not C1) stays */
            size_t need = ch < 0xE0 ? 2 : ch < 0xF0 ? 3 : 4;
            bool ok = i + need <= len && !(ch == 0xC2 && s[i + 1] < 0xA0);
            for (size_t j = 1; ok && j < need; j++)
                ok = (s[i + j] & 0xC0) == 0x80;
            if (ok && need >= 3) { /* no overlong forms, surrogates or past U+10FFFF */
                u8 c1 = s[i + 1];
                ok = !(ch == 0xE0 && c1 < 0xA0) && !(ch == 0xED && c1 >= 0xA0) &&
                     !(ch == 0xF0 && c1 < 0x90) && !(ch == 0xF4 && c1 >= 0x90);
            }
            k = ok ? need : 1;
        }
        if (k > 1)
            memcpy(t, s + i, k), tl = k;
        else if (ch >= 0x20 && ch < 0x7F)
            t[0] = (char)ch, tl = 1;
        else if (ch == '\n' || ch == '\r' || ch == '\t')
            t[0] = '\\', t[1] = ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't', tl = 2;
        else
            tl = (size_t)snprintf(t, sizeof(t), "\\x%02x", ch);
        if (o + tl >= cap)
            break;
        memcpy(dst + o, t, tl);
        o += tl;
        i += k;
    }
    if (cap > 0)
        dst[o] = 0;
}

/* mysql_native_password: SHA1(pw) XOR SHA1(nonce || SHA1(SHA1(pw))) (protocol.md 3.2). */
static void my_scramble_native(const char *pw, size_t pwlen, const u8 nonce[20], u8 out[20])
{
    u8 s1[20], s2[20], h[20];
    mbedtls_sha1_context c;
    mbedtls_sha1_ret((const u8 *)pw, pwlen, s1);
    mbedtls_sha1_ret(s1, 20, s2);
    mbedtls_sha1_init(&c);
    mbedtls_sha1_starts_ret(&c);
    mbedtls_sha1_update_ret(&c, nonce, 20);
    mbedtls_sha1_update_ret(&c, s2, 20);
    mbedtls_sha1_finish_ret(&c, h);
    mbedtls_sha1_free(&c);
    for (int i = 0; i < 20; i++)
        out[i] = s1[i] ^ h[i];
}

/* caching_sha2_password: SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) || nonce) (3.3). */
static void my_scramble_sha2(const char *pw, size_t pwlen, const u8 nonce[20], u8 out[32])
{
    u8 h1[32], h2[32], h3[32];
    mbedtls_sha256_context c;
    mbedtls_sha256_ret((const u8 *)pw, pwlen, h1, 0);
    mbedtls_sha256_ret(h1, 32, h2, 0);
    mbedtls_sha256_init(&c);
    mbedtls_sha256_starts_ret(&c, 0);
    mbedtls_sha256_update_ret(&c, h2, 32);
    mbedtls_sha256_update_ret(&c, nonce, 20);
    mbedtls_sha256_finish_ret(&c, h3);
    mbedtls_sha256_free(&c);
    for (int i = 0; i < 32; i++)
        out[i] = h1[i] ^ h3[i];
}

/*
 * Ed25519 for MariaDB's client_ed25519 (protocol.md 3.5): RFC 8032 signing where the secret
 * is SHA-512 of the whole password. mbedTLS 2.28 has no Ed25519, so the group arithmetic is
 * here: field elements mod p = 2^255 - 19 as 16 limbs of 16 bits (in i64), points in extended
 * coordinates (X:Y:Z:T), scalars reduced mod L by binary long division. Not constant time:
 * it signs a login nonce with a key derived from a password the user typed on this host.
 */
typedef i64 my_fe[16];

static void my_fe_copy(my_fe r, const my_fe a)
{
    memcpy(r, a, sizeof(my_fe));
}

static void my_fe_carry(my_fe r)
{
    for (int i = 0; i < 16; i++) {
        i64 c = r[i] >> 16;
        r[i] -= c * 65536;
        if (i < 15)
            r[i + 1] += c;
        else
            r[0] += 38 * c; /* 2^256 = 38 mod p */
    }
}

static void my_fe_add(my_fe r, const my_fe a, const my_fe b)
{
    for (int i = 0; i < 16; i++)
        r[i] = a[i] + b[i];
}

static void my_fe_sub(my_fe r, const my_fe a, const my_fe b)
{
    for (int i = 0; i < 16; i++)
        r[i] = a[i] - b[i];
}

static void my_fe_mul(my_fe r, const my_fe a, const my_fe b)
{
    i64 t[31] = {0};
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            t[i + j] += a[i] * b[j];
    for (int i = 0; i < 15; i++)
        t[i] += 38 * t[i + 16];
    for (int i = 0; i < 16; i++)
        r[i] = t[i];
    my_fe_carry(r);
    my_fe_carry(r);
}

/* r = a^(p-2) = 1/a */
static void my_fe_inv(my_fe r, const my_fe a)
{
    my_fe c;
    my_fe_copy(c, a);
    for (int i = 253; i >= 0; i--) { /* p - 2 = 2^255 - 21: every bit set but 2 and 4 */
        my_fe_mul(c, c, c);
        if (i != 2 && i != 4)
            my_fe_mul(c, c, a);
    }
    my_fe_copy(r, c);
}

/* canonical little-endian bytes of a */
static void my_fe_pack(u8 out[32], const my_fe a)
{
    my_fe t, m;
    my_fe_copy(t, a);
    my_fe_carry(t);
    my_fe_carry(t);
    my_fe_carry(t);
    for (int k = 0; k < 2; k++) { /* subtract p while t >= p */
        m[0] = t[0] - 0xffed;
        for (int i = 1; i < 15; i++) {
            m[i] = t[i] - 0xffff - ((m[i - 1] >> 16) & 1);
            m[i - 1] &= 0xffff;
        }
        m[15] = t[15] - 0x7fff - ((m[14] >> 16) & 1);
        i64 borrow = (m[15] >> 16) & 1;
        m[14] &= 0xffff;
        if (!borrow)
            my_fe_copy(t, m);
    }
    for (int i = 0; i < 16; i++) {
        out[2 * i] = (u8)(t[i] & 0xff);
        out[2 * i + 1] = (u8)((t[i] >> 8) & 0xff);
    }
}

static void my_fe_from_bytes(my_fe r, const u8 in[32])
{
    for (int i = 0; i < 16; i++)
        r[i] = in[2 * i] + ((i64)in[2 * i + 1] << 8);
    r[15] &= 0x7fff;
}

/* points: X, Y, Z, T with x = X/Z, y = Y/Z, xy = T/Z */
typedef my_fe my_ge[4];

static const u8 my_ed_d2_bytes[32] = { /* 2d, d = -121665/121666 */
    0x59, 0xf1, 0xb2, 0x26, 0x94, 0x9b, 0xd6, 0xeb, 0x56, 0xb1, 0x83, 0x82, 0x9a, 0x14, 0xe0, 0x00,
    0x30, 0xd1, 0xf3, 0xee, 0xf2, 0x80, 0x8e, 0x19, 0xe7, 0xfc, 0xdf, 0x56, 0xdc, 0xd9, 0x06, 0x24};
static const u8 my_ed_bx[32] = { /* base point x */
    0x1a, 0xd5, 0x25, 0x8f, 0x60, 0x2d, 0x56, 0xc9, 0xb2, 0xa7, 0x25, 0x95, 0x60, 0xc7, 0x2c, 0x69,
    0x5c, 0xdc, 0xd6, 0xfd, 0x31, 0xe2, 0xa4, 0xc0, 0xfe, 0x53, 0x6e, 0xcd, 0xd3, 0x36, 0x69, 0x21};
static const u8 my_ed_by[32] = { /* base point y = 4/5 */
    0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
    0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66};

/* p = p + q (the unified addition formula for twisted Edwards curves with a = -1) */
static void my_ge_add(my_ge p, my_ge q)
{
    my_fe a, b, c, d, e, f, g, h, t, d2;
    my_fe_from_bytes(d2, my_ed_d2_bytes);
    my_fe_sub(a, p[1], p[0]);
    my_fe_sub(t, q[1], q[0]);
    my_fe_mul(a, a, t);             /* A = (Y1-X1)(Y2-X2) */
    my_fe_add(b, p[0], p[1]);
    my_fe_add(t, q[0], q[1]);
    my_fe_mul(b, b, t);             /* B = (Y1+X1)(Y2+X2) */
    my_fe_mul(c, p[3], q[3]);
    my_fe_mul(c, c, d2);            /* C = T1 2d T2 */
    my_fe_mul(d, p[2], q[2]);
    my_fe_add(d, d, d);             /* D = 2 Z1 Z2 */
    my_fe_sub(e, b, a);
    my_fe_sub(f, d, c);
    my_fe_add(g, d, c);
    my_fe_add(h, b, a);
    my_fe_mul(p[0], e, f);
    my_fe_mul(p[1], h, g);
    my_fe_mul(p[2], g, f);
    my_fe_mul(p[3], e, h);
}

static void my_ge_pack(u8 out[32], my_ge p)
{
    my_fe zi, x, y;
    u8 xb[32];
    my_fe_inv(zi, p[2]);
    my_fe_mul(x, p[0], zi);
    my_fe_mul(y, p[1], zi);
    my_fe_pack(out, y);
    my_fe_pack(xb, x);
    out[31] = (u8)(out[31] ^ ((xb[0] & 1) << 7)); /* the sign of x in the top bit */
}

/* r = s * B for a 32-byte little-endian scalar s */
static void my_ge_scalarmult_base(my_ge r, const u8 s[32])
{
    my_ge q;
    memset(r, 0, sizeof(my_ge));
    r[1][0] = 1;
    r[2][0] = 1; /* the neutral element (0, 1) */
    my_fe_from_bytes(q[0], my_ed_bx);
    my_fe_from_bytes(q[1], my_ed_by);
    memset(q[2], 0, sizeof(my_fe));
    q[2][0] = 1;
    my_fe_mul(q[3], q[0], q[1]);
    for (int i = 255; i >= 0; i--) {
        my_ge r2;
        memcpy(r2, r, sizeof(my_ge));
        my_ge_add(r, r2); /* double */
        if ((s[i / 8] >> (i % 8)) & 1)
            my_ge_add(r, q);
    }
}

/* the group order L = 2^252 + 27742317777372353535851937790883648493, little endian */
static const u8 my_ed_L[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                               0xa2, 0xde, 0xf9, 0xde, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                               0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10};

/* out = x mod L, x a little-endian number of n bytes (binary long division, bit by bit) */
static void my_ed_modl(u8 out[32], const u8 *x, size_t n)
{
    u8 r[33] = {0}; /* remainder < 2L < 2^254: fits, with a spare byte for the shift */
    for (size_t bit = n * 8; bit-- > 0;) {
        /* r = 2r + bit */
        int carry = (x[bit / 8] >> (bit % 8)) & 1;
        for (int i = 0; i < 33; i++) {
            int v = (r[i] << 1) | carry;
            carry = v >> 8;
            r[i] = (u8)v;
        }
        /* if r >= L: r -= L */
        u8 t[33];
        int borrow = 0;
        for (int i = 0; i < 33; i++) {
            int v = r[i] - (i < 32 ? my_ed_L[i] : 0) - borrow;
            borrow = v < 0;
            t[i] = (u8)(v + (borrow ? 256 : 0));
        }
        if (!borrow)
            memcpy(r, t, 33);
    }
    memcpy(out, r, 32);
}

/*
 * my_ed25519_sign - client_ed25519's reply: R || S over msg with the key derived from pw.
 * pub (may be NULL) receives the public key A, which the server stores as base64.
 */
static void my_ed25519_sign(const char *pw, size_t pwlen, const u8 *msg, size_t msglen,
                            u8 sig[64], u8 pub[32])
{
    u8 az[64], a[32], A[32], rh[64], r[32], kh[64], k[32], R[32];
    my_ge p;
    mbedtls_sha512_context c;
    mbedtls_sha512_ret((const u8 *)pw, pwlen, az, 0);
    memcpy(a, az, 32);
    a[0] &= 248;
    a[31] &= 63;
    a[31] |= 64;
    my_ge_scalarmult_base(p, a);
    my_ge_pack(A, p);
    /* r = SHA512(az[32..63] || msg) mod L; R = r B */
    mbedtls_sha512_init(&c);
    mbedtls_sha512_starts_ret(&c, 0);
    mbedtls_sha512_update_ret(&c, az + 32, 32);
    mbedtls_sha512_update_ret(&c, msg, msglen);
    mbedtls_sha512_finish_ret(&c, rh);
    my_ed_modl(r, rh, 64);
    my_ge_scalarmult_base(p, r);
    my_ge_pack(R, p);
    /* k = SHA512(R || A || msg) mod L */
    mbedtls_sha512_starts_ret(&c, 0);
    mbedtls_sha512_update_ret(&c, R, 32);
    mbedtls_sha512_update_ret(&c, A, 32);
    mbedtls_sha512_update_ret(&c, msg, msglen);
    mbedtls_sha512_finish_ret(&c, kh);
    mbedtls_sha512_free(&c);
    my_ed_modl(k, kh, 64);
    /* S = (r + k a) mod L, computed on 64-byte numbers */
    u32 prod[64] = {0};
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++)
            prod[i + j] += (u32)k[i] * a[j];
    for (int i = 0; i < 32; i++)
        prod[i] += r[i];
    u8 wide[64];
    u32 carry = 0;
    for (int i = 0; i < 64; i++) {
        u32 v = prod[i] + carry;
        wide[i] = (u8)v;
        carry = v >> 8;
    }
    memcpy(sig, R, 32);
    my_ed_modl(sig + 32, wide, 64);
    if (pub)
        memcpy(pub, A, 32);
}

/*== 10 myc_ : MySQL connection: sockets, TLS, authentication, commands ======*/
/*
 * A client over one socket: TCP (IPv4, IPv6, names via getaddrinfo, which musl
 * resolves without NSS) or a unix socket, with connect and I/O timeouts (poll), TCP_NODELAY,
 * one write per command, and a receive buffer that parses several packets per read. TLS 1.2
 * is mbedTLS over the connected socket after an SSLRequest, with the mysql client's
 * --ssl-mode semantics. Authentication: mysql_native_password, caching_sha2_password (fast
 * path; full authentication as cleartext over TLS or a unix socket, else RSA-OAEP with the
 * server's key, requested or from --server-public-key-path), sha256_password, MariaDB's
 * client_ed25519, mysql_clear_password (TLS or socket only), with one AuthSwitchRequest; one
 * row each in myc_auth_plugins (mysql_old_password's refuses).
 * Commands: COM_QUERY with text result sets and multi-results, the prepared-statement
 * commands with the binary protocol, COM_PING, COM_INIT_DB, COM_RESET_CONNECTION, COM_QUIT.
 * Errors: a B_* code, the detail in c->err, and for B_SERVER the server's code, SQLSTATE and
 * text, which cli_ prints verbatim as "ERROR nnnn (SSSSS): text". Nothing here prints:
 * --debug=proto's hex dump goes line by line to the parameters' trace callback.
 * Structure (issue 13; trilogy's): a client state machine driven by bytes. An operation (the
 * login, or one command and its response) is a state (c->op, c->state) advanced by myc_step
 * over buffered packets (frame first, then the codec's parsers on memory); its I/O goes
 * through struct myc_io (the socket, mbedTLS over it, or a test double). Non-blocking use:
 * myc_*_start, then myc_step whenever poll says myc_fd is ready (MYC_WANT_READ/WRITE). The
 * blocking calls (myc_connect, myc_query, ...) are the same states with waiting I/O.
 * Memory: sizeof(struct my_conn) (~4.3 KiB, 2.3 of them the error text), a 4 KiB receive
 * buffer that doubles for a packet that does not fit or after a read that filled it (up to
 * 64 KiB; shrinks back after one over 1 MiB), the request's bytes: 4.3 KiB of heap measured
 * after a query; TLS adds one
 * mbedtls_ssl_context, its record buffers and the peer's certificate (39 KiB measured), the
 * configuration (CA, certificate, key, generator) being shared per process.
 * Many logins at once (thousands of OLTP workers) go through a gate: at most 64 in flight,
 * transient failures retried with backoff, one error for the phase (myc_connect_retry).
 * Limits: getaddrinfo and a unix socket's connect still block (a numeric host resolves at
 * once); one outstanding command per connection, as the protocol allows.
 */

enum { MYC_SSL_DISABLED, MYC_SSL_PREFERRED, MYC_SSL_REQUIRED, MYC_SSL_VERIFY_CA,
       MYC_SSL_VERIFY_IDENTITY };

/* Connection parameters, from the options (cli_) or a test. */
struct myc_params {
    const char *host;          /* name or address; ignored with socket */
    unsigned port;             /* TCP port */
    const char *socket;        /* unix socket path, or NULL */
    const char *user, *password, *db; /* db may be NULL or "" */
    int ssl_mode;              /* MYC_SSL_*; -1 = default (PREFERRED over TCP, off on a socket) */
    const char *ssl_ca, *ssl_cert, *ssl_key, *server_pubkey; /* files, or NULL */
    int connect_timeout_ms;    /* deadline of the whole login: connect, TLS, authentication */
    int io_timeout_ms;         /* deadline of each command, from sending to its last packet */
    size_t max_packet;         /* longest (reassembled) packet accepted; 0 = MYC_MAX_PACKET */
    bool get_server_pubkey;    /* may ask for the server's RSA key over plain TCP */
    bool multi_statements;     /* CLIENT_MULTI_STATEMENTS */
    bool compress;             /* the compressed protocol (zlib) when the server offers it */
    /* --debug=proto: every packet as hex dump lines (text without '\n') to trace(trace_ctx,
     * line); NULL = no dump. myc_ prints nothing itself: the CLI's callback does. */
    void (*trace)(void *ctx, const char *line);
    void *trace_ctx;
    bool no_deprecate_eof;     /* tests: classic EOF packets instead of OK-as-EOF */
    bool no_cache_metadata;    /* tests: column definitions with every execute */
};

/* One column of a result, copied out of its definition packet. */
struct myc_col {
    char name[64];
    u8 type, decimals;
    u16 flags, charset;
};

/* What a command returned. */
struct myc_result {
    u64 rows;                  /* rows of all result sets */
    u64 affected, insert_id;   /* from the last OK */
    u16 status, warnings;      /* from the last OK or EOF */
    int nsets;                 /* result sets with columns */
    size_t ncols;              /* columns of the current result set */
    struct myc_col *cols;      /* [ncols], valid during and after the command */
    size_t cols_cap;
};

/* Row callbacks: text values (p == NULL for NULL) or binary values. Return < 0 to abort. */
typedef int (*myc_text_cb)(void *ctx, const struct myc_result *res, const struct my_str *vals);
typedef int (*myc_bin_cb)(void *ctx, const struct myc_result *res, const struct my_val *vals);

/* A prepared statement. */
struct myc_stmt {
    u32 id;
    u16 nparams, ncols;
    struct my_coldef *coldefs; /* types/flags for decoding binary rows [ncols] */
    struct myc_col *cols;      /* names and types from PREPARE [ncols] */
};

struct myc_auth_plugin;

/* The byte transport under the protocol (and under TLS): the socket, or a test double. Each
 * returns the bytes moved (recv: 0 = closed), MBEDTLS_ERR_SSL_WANT_READ/_WANT_WRITE (would
 * block), MBEDTLS_ERR_SSL_TIMEOUT (deadline or stop signal) or MBEDTLS_ERR_NET_*_FAILED. */
struct myc_io {
    int (*send)(void *ctx, const u8 *p, size_t n);
    int (*recv)(void *ctx, u8 *p, size_t n);
    void *ctx;
};

struct my_conn {
    int fd;                        /* the socket, -1 when closed */
    bool is_unix;                  /* connected over a unix socket */
    bool tls;                      /* TLS active */
    bool async;                    /* the operation was started by a myc_*_start: no waits */
    mbedtls_ssl_context *ssl;      /* TLS only: allocated for the handshake, else NULL */
    struct myc_io io;              /* the transport under TLS; send NULL: the socket */
    u8 *in;                        /* receive buffer (MYC_IN_START, grows for long packets) */
    size_t in_pos, in_len, in_cap; /* unread bytes are in[in_pos..in_len) */
    struct buf out;                /* framed bytes to send */
    size_t out_off;                /* out.p[out_off..out.len) is not sent yet */
    size_t need;                   /* bytes the packet being read still lacks (a hint) */
    bool rd_multi;                 /* a packet of 0xFFFFFF-byte fragments is being read */
    bool in_full;                  /* the last read filled the receive buffer's room */
    /* the operation in progress (the state machine: myc_step) */
    u8 op;                         /* MYC_OP_*: MYC_OP_NONE when idle */
    u8 state;                      /* the op's state: MYC_S_* */
    u8 want;                       /* MYC_WANT_* of the last would-block */
    u8 meta;                       /* result set: column definitions sent (cache metadata) */
    bool switched;                 /* login: an AuthSwitchRequest was answered */
    int ssl_eff;                   /* login: the --ssl-mode in effect */
    const char *what;              /* what the op waits for, for a timeout's message */
    struct addrinfo *ai_list, *ai; /* login: the addresses, the one being connected */
    int ai_errno;                  /* login: why the last address failed */
    u64 t0;                        /* login: start */
    struct myc_result *res;        /* query/execute: where the results go */
    struct myc_stmt *st;           /* prepare/execute: the statement */
    myc_text_cb tcb;               /* query: the row callback */
    myc_bin_cb bcb;                /* execute: the row callback */
    void *cb_ctx;
    size_t col_i, ncols;           /* result set / prepare: the definition being read, of */
    struct my_coldef *cd;          /* execute: binary row types of the current result set
                                      [MYC_MAX_ROW_COLS], allocated when first needed */
    struct buf big;                /* reassembly of payloads >= 16 MiB */
    struct buf scratch;            /* payload under construction */
    u8 seq;                        /* next sequence id */
    bool zlib;                     /* compressed protocol on (from the first command on) */
    u8 cseq;                       /* next compressed sequence id */
    u32 *zwork;                    /* deflate's hash chains [MY_Z_WORK] */
    struct buf zout;               /* compressed frames to send */
    u8 *zin;                       /* compressed bytes received, not yet inflated */
    size_t zin_pos, zin_len, zin_cap;
    u32 caps;                      /* negotiated capabilities */
    u32 ext_caps;                  /* negotiated MariaDB extended capabilities */
    struct my_handshake hs;        /* the greeting (views into hs_copy) */
    u8 hs_copy[512];
    char version[96];              /* server version string */
    char plugin[40];               /* auth plugin that finished the login */
    const struct myc_auth_plugin *auth; /* its row (NULL before the first answer) */
    u8 nonce[33];                  /* latest auth nonce */
    size_t nonce_len;
    char target[300];              /* "host:port" or the socket path, for messages */
    const struct myc_params *p;
    u64 deadline_ns;               /* the login's or the current command's end (clk_now_ns) */
    int io_rc;                     /* why the socket layer gave up: B_TIMEOUT or B_DONE */
    bool stop_before;              /* the step began after a stop signal (cleanup): not cut */
    unsigned reads;                /* successful reads of the current step (deadline checks) */
    u64 rcvd;                      /* bytes received during the current step */
    bool runnable;                 /* async: a step returned after its budget, bytes left */
    u8 login;                      /* 1 greeting, 2 authentication: --debug=proto masks */
    bool key_requested;            /* the RSA public key was asked for (once) */
    unsigned auth_packets;         /* packets read during the login */
    size_t mask_off, mask_len;     /* --debug=proto: bytes of c->out shown as ** */
    bool unbounded;                /* a statement known to be long: no command deadline */
    u64 connect_ns;                /* connect + TLS + authentication time */
    u64 socket_ns;                 /* of which the socket's connect */
    u16 srv_code;                  /* last server error */
    char sqlstate[6];
    char srv_msg[512];
    struct b_err err;              /* last error, for people */
};

/* ---- low-level I/O: plain or TLS, with deadlines and stop checks ---- */

/* How often a blocked wait looks at b_stop and the deadline (SO_RCVTIMEO/SO_SNDTIMEO). */
#define MYC_SLICE_MS 250
/* --max-allowed-packet's default: MySQL 8's server default max_allowed_packet (MariaDB's is
 * 16M), so what a default server sends fits, and a hostile one costs at most this much */
#define MYC_MAX_PACKET ((size_t)64 << 20)
/* Packets read during one login: the longest exchange (switch, full authentication, key
 * request, OK) reads five. */
#define MYC_MAX_AUTH_PACKETS 8
/* The receive buffer's first size: a connection's whole buffer while its results fit (a
 * point select's answer is ~100 bytes; 4,000 connections on an event loop pay it 4,000
 * times). It doubles when a packet does not fit, and when a read filled all its room (a
 * result longer than the buffer: up to MYC_IN_READ, so that such a result costs one read,
 * not one per 4 KiB, from the next command on); it goes back to this size when an operation
 * ends with more than MYC_IN_KEEP allocated and nothing unread. */
#define MYC_IN_START ((size_t)4 << 10)
#define MYC_IN_READ ((size_t)64 << 10)
#define MYC_IN_KEEP ((size_t)1 << 20)
/* Columns of a row decoded for a row callback (more: B_UNSUPPORTED, counting works). */
#define MYC_MAX_ROW_COLS 64

/* A step that keeps receiving (a server that never stops sending) looks at its deadline and
 * b_stop every MYC_CHECK_READS successful reads; an async one returns to its loop after
 * MYC_ASYNC_READS reads (myc_runnable: step it again without waiting for an edge). */
#define MYC_CHECK_READS 16
#define MYC_ASYNC_READS 64

#define MYC_WANT_READ 1  /* not finished: wait until myc_fd(c) is readable, then myc_step */
#define MYC_WANT_WRITE 2 /* not finished: wait until myc_fd(c) is writable, then myc_step */
#define MYC_NEXT 3       /* a state function: go on (after sending what was queued) */

/* myc_deadline - the current step (the login, or one command) must end within ms (none
 * when ms <= 0). A step that begins after the stop signal (the cleanup of what the run
 * created) is not cut short by it: only by its deadline, or a second signal. */
static void myc_deadline(struct my_conn *c, int ms)
{
    c->deadline_ns = ms > 0 ? clk_now_ns() + (u64)ms * 1000000u : 0;
    c->stop_before = atomic_load(&b_stop) != 0;
    c->reads = 0;
    c->rcvd = 0;
}

/* After EINTR or a timed-out slice: B_DONE on a stop signal during the step, B_TIMEOUT past
 * the deadline, else B_AGAIN (wait on). Kept in c->io_rc for the message. */
static int myc_waited(struct my_conn *c)
{
    c->io_rc = atomic_load(&b_stop) && !c->stop_before ? B_DONE
               : c->deadline_ns && clk_now_ns() >= c->deadline_ns ? B_TIMEOUT
                                                                  : B_AGAIN;
    return c->io_rc;
}

/* poll() for ev in slices, until ready, the deadline or a stop signal. */
static int myc_wait(struct my_conn *c, int fd, short ev)
{
    struct pollfd pfd = {.fd = fd, .events = ev};
    for (;;) {
        int n = poll(&pfd, 1, MYC_SLICE_MS);
        if (n > 0)
            return B_OK;
        if (n < 0 && errno != EINTR)
            return B_SYSERR;
        int w = myc_waited(c);
        if (w != B_AGAIN)
            return w;
    }
}

/*
 * The socket is blocking once connected, with a short SO_RCVTIMEO/SO_SNDTIMEO slice: one
 * system call per read or write on the fast path (a non-blocking socket costs recv, EAGAIN,
 * poll, recv), which halves the client's kernel time per query under load. A slice that
 * times out (EAGAIN) or a signal (EINTR) checks b_stop and the step's deadline: a signal
 * wakes only one thread of a multi-threaded run, the slice wakes the others. An operation
 * started with myc_*_start passes MSG_DONTWAIT instead: would-block goes back to its loop.
 */
static void myc_set_slice(struct my_conn *c)
{
    struct timeval tv = {.tv_sec = 0, .tv_usec = MYC_SLICE_MS * 1000};
    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* send or recv of the transport (mbedTLS's bio, and the plain path): bytes, or an
 * MBEDTLS_ERR_* code */
static int myc_sock_io(struct my_conn *c, bool out, unsigned char *p, size_t n)
{
    n = B_MIN(n, (size_t)INT_MAX);
    if (c->io.send) /* a test double */
        return out ? c->io.send(c->io.ctx, p, n) : c->io.recv(c->io.ctx, p, n);
    int fl = c->async ? MSG_DONTWAIT : 0;
    for (;;) {
        ssize_t k = out ? send(c->fd, p, n, MSG_NOSIGNAL | fl) : recv(c->fd, p, n, fl);
        if (k > 0 && !out && !c->async && ++c->reads % MYC_CHECK_READS == 0 &&
            myc_waited(c) != B_AGAIN) /* bytes that never stop: the deadline still holds */
            return MBEDTLS_ERR_SSL_TIMEOUT;
        if (k >= 0)
            return (int)k;
        if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
            return out ? MBEDTLS_ERR_NET_SEND_FAILED : MBEDTLS_ERR_NET_RECV_FAILED;
        if (c->async && errno != EINTR)
            return out ? MBEDTLS_ERR_SSL_WANT_WRITE : MBEDTLS_ERR_SSL_WANT_READ;
        if (!c->async && myc_waited(c) != B_AGAIN)
            return MBEDTLS_ERR_SSL_TIMEOUT;
    }
}

/*
 * Statements bench knows to be long (prepare's bulk loads, CREATE INDEX, DROP: OLTP section)
 * are not cut by --mysql-io-timeout: their commands get no deadline, and the wait ends only
 * on b_stop (a signal), which every slice checks, whichever thread it hit.
 */
static void myc_set_unbounded(struct my_conn *c, bool on)
{
    c->unbounded = on;
}

static int myc_sock_send(void *ctx, const unsigned char *p, size_t n)
{
    return myc_sock_io(ctx, true, (unsigned char *)p, n);
}

static int myc_sock_recv(void *ctx, unsigned char *p, size_t n)
{
    return myc_sock_io(ctx, false, p, n);
}

/* The transport: TLS over the socket (or the double), or the socket itself. */
static int myc_xio(struct my_conn *c, bool out, u8 *p, size_t n)
{
    if (c->tls)
        return out ? mbedtls_ssl_write(c->ssl, p, n) : mbedtls_ssl_read(c->ssl, p, n);
    return myc_sock_io(c, out, p, n);
}

/* An mbedTLS would-block code as MYC_WANT_* (kept in c->want), else 0. */
static int myc_would_block(struct my_conn *c, int r)
{
    if (r != MBEDTLS_ERR_SSL_WANT_READ && r != MBEDTLS_ERR_SSL_WANT_WRITE)
        return 0;
    c->want = r == MBEDTLS_ERR_SSL_WANT_READ ? MYC_WANT_READ : MYC_WANT_WRITE;
    return c->want;
}

static int myc_lost(struct my_conn *c, const char *what, int e)
{
    return b_seterr(&c->err, e == ETIMEDOUT ? B_TIMEOUT : B_SYSERR, e,
                    "%s %s failed: %s (%s)", what, c->target, strerror(e), b_errno_name(e));
}

/* The socket layer stopped on c->io_rc: the deadline (B_TIMEOUT) or a signal (B_DONE). */
static int myc_stopped(struct my_conn *c, const char *what)
{
    if (c->io_rc == B_DONE)
        return b_seterr(&c->err, B_DONE, 0, "interrupted by %s while %s %s",
                        atomic_load(&b_stop) == SIGTERM ? "SIGTERM" : "SIGINT", what,
                        c->target);
    return myc_lost(c, what, ETIMEDOUT);
}

/* --debug=proto: one packet in hex and text, line by line to p->trace; the bytes of the
 * ranges m (offset, length; two of them) show as ** (nonces, tokens, passwords). */
static void myc_dump(const struct myc_params *prm, const char *dir, const u8 *p, size_t n,
                     const size_t m[4])
{
    char line[96];
    snprintf(line, sizeof(line), "bench: proto: %s %zu bytes", dir, n);
    prm->trace(prm->trace_ctx, line);
    for (size_t i = 0; i < n; i += 16) {
        size_t l = (size_t)snprintf(line, sizeof(line), "  %04zx ", i);
        for (size_t k = i; k < i + 16; k++)
            if (k >= n)
                l += (size_t)snprintf(line + l, sizeof(line) - l, "   ");
            else if ((k >= m[0] && k - m[0] < m[1]) || (k >= m[2] && k - m[2] < m[3]))
                l += (size_t)snprintf(line + l, sizeof(line) - l, " **");
            else
                l += (size_t)snprintf(line + l, sizeof(line) - l, " %02x", p[k]);
        l += (size_t)snprintf(line + l, sizeof(line) - l, "  |");
        for (size_t k = i; k < i + 16 && k < n; k++)
            line[l++] = (k >= m[0] && k - m[0] < m[1]) || (k >= m[2] && k - m[2] < m[3]) ? '*'
                        : p[k] >= 32 && p[k] < 127                                     ? (char)p[k]
                                                                                       : '.';
        snprintf(line + l, sizeof(line) - l, "|");
        prm->trace(prm->trace_ctx, line);
    }
}

/*
 * The compressed protocol's sending side: the packets framed in c->out from at on become
 * compressed frames of at most 0xFFFFFF bytes each (built in c->zout, copied back in their
 * place). A frame under MY_Z_MIN_COMPRESS bytes, or one that deflate does not shrink, goes
 * stored (uncompressed length 0). A command (inner sequence id 0) restarts the compressed
 * sequence ids.
 */
static void myc_zwrap(struct my_conn *c, size_t at0)
{
    const u8 *p = (const u8 *)c->out.p + at0;
    size_t len = c->out.len - at0;
    if (len >= 4 && p[3] == 0)
        c->cseq = 0;
    if (!c->zwork)
        c->zwork = b_xcalloc(MY_Z_WORK, sizeof(u32));
    c->zout.len = 0;
    for (size_t off = 0; off < len;) {
        size_t n = B_MIN(len - off, (size_t)MY_MAX_PACKET), at = c->zout.len, z = 0;
        u8 h[MY_Z_HDR] = {0};
        buf_put(&c->zout, h, MY_Z_HDR);
        if (n >= MY_Z_MIN_COMPRESS && (z = my_deflate(&c->zout, p + off, n, c->zwork)) >= n) {
            c->zout.len = at + MY_Z_HDR; /* it did not shrink: stored */
            z = 0;
        }
        if (!z)
            buf_put(&c->zout, p + off, n);
        size_t clen = z ? z : n, ulen = z ? n : 0;
        u8 *w = (u8 *)c->zout.p + at;
        w[0] = (u8)clen, w[1] = (u8)(clen >> 8), w[2] = (u8)(clen >> 16), w[3] = c->cseq++;
        w[4] = (u8)ulen, w[5] = (u8)(ulen >> 8), w[6] = (u8)(ulen >> 16);
        off += n;
    }
    c->out.len = at0;
    buf_put(&c->out, c->zout.p, c->zout.len);
}

/*
 * Send the unsent bytes of c->out. Blocking: all of them (or an error). Started with a
 * myc_*_start: as many as the socket takes; B_AGAIN with c->want when it takes no more
 * (the rest stays in c->out for the next myc_step).
 */
static int myc_flush(struct my_conn *c)
{
    while (c->out_off < c->out.len) {
        int w = myc_xio(c, true, (u8 *)c->out.p + c->out_off, c->out.len - c->out_off);
        if (myc_would_block(c, w)) {
            if (c->async)
                return B_AGAIN;
            continue;
        }
        if (w <= 0) {
            c->out.len = c->out_off = 0;
            if (w == MBEDTLS_ERR_SSL_TIMEOUT)
                return myc_stopped(c, "sending to");
            return myc_lost(c, "sending to", EPIPE);
        }
        c->out_off += (size_t)w;
    }
    c->out.len = c->out_off = 0;
    return B_OK;
}

/* Frame payload with the next sequence id into c->out (--debug=proto's dump, compression),
 * and send it: all of it when blocking, else what the socket takes (myc_step sends the rest
 * before it reads). */
static int myc_send(struct my_conn *c, const void *payload, size_t len)
{
    size_t at = c->out.len;
    my_frame(&c->out, &c->seq, payload, len);
    if (c->p->trace) {
        size_t m[4] = {c->mask_off, c->mask_len, 0, 0};
        myc_dump(c->p, ">", (const u8 *)c->out.p + at, c->out.len - at, m);
    }
    c->mask_off = c->mask_len = 0;
    if (c->zlib)
        myc_zwrap(c, at);
    int rc = myc_flush(c);
    return rc == B_AGAIN ? B_OK : rc;
}

/* Send a login packet whose bytes from off on (mask bytes) are auth data. */
static int myc_send_auth(struct my_conn *c, const void *payload, size_t len, size_t off,
                         size_t mask)
{
    c->mask_off = 4 + off;
    c->mask_len = mask;
    return myc_send(c, payload, len);
}

/* Room for need more bytes after b[len], moving the unread bytes from *pos to the front and
 * doubling the buffer (first MYC_IN_START bytes) as needed. */
static int myc_room(struct my_conn *c, u8 **b, size_t *pos, size_t *len, size_t *cap,
                    size_t need)
{
    if (*pos == *len)
        *pos = *len = 0;
    if (*cap - *len >= need)
        return B_OK;
    if (*pos > 0) {
        memmove(*b, *b + *pos, *len - *pos);
        *len -= *pos;
        *pos = 0;
    }
    if (*cap - *len >= need)
        return B_OK;
    size_t ncap = *cap ? *cap * 2 : MYC_IN_START;
    while (ncap - *len < need)
        ncap *= 2;
    u8 *q = realloc(*b, ncap);
    if (!q)
        return b_seterr(&c->err, B_NOMEM, ENOMEM, "out of memory reading from %s", c->target);
    *b = q;
    *cap = ncap;
    return B_OK;
}

/* One read from the socket (or TLS) into p[0..n): *got += the bytes read. B_AGAIN with
 * c->want when nothing is there (an operation started with myc_*_start). */
static int myc_recv(struct my_conn *c, u8 *p, size_t n, size_t *got)
{
    for (;;) {
        int r = myc_xio(c, false, p, n);
        if (myc_would_block(c, r)) {
            if (c->async)
                return B_AGAIN;
            continue;
        }
        if (r == MBEDTLS_ERR_SSL_TIMEOUT)
            return myc_stopped(c, "reading from");
        if (r == 0 || r == MBEDTLS_ERR_SSL_PEER_CLOSE_NOTIFY)
            return b_seterr(&c->err, B_SYSERR, ECONNRESET,
                            "the server at %s closed the connection", c->target);
        if (r < 0)
            return myc_lost(c, "reading from", ECONNRESET);
        *got += (size_t)r;
        c->rcvd += (u64)r;
        return B_OK;
    }
}

/*
 * The compressed protocol's receiving side: the next compressed frame, its header checked
 * (sequence id, lengths against --max-allowed-packet), inflated into the receive buffer.
 */
static int myc_zfill(struct my_conn *c)
{
    size_t cap = (c->p->max_packet ? c->p->max_packet : MYC_MAX_PACKET) + 4;
    for (;;) {
        size_t clen, ulen, need = 16384;
        u8 cseq = 0;
        const char *why;
        int rc;
        const u8 *zp = c->zin ? c->zin + c->zin_pos : NULL; /* none before the first read */
        long used = my_zframe_parse(zp, c->zin_len - c->zin_pos, cap, &clen, &ulen, &cseq);
        if (used == B_PROTOCOL)
            return b_seterr(&c->err, B_PROTOCOL, 0, "a compressed packet from %s is longer "
                            "than --max-allowed-packet=%zu bytes", c->target, cap - 4);
        if (used == B_AGAIN && clen)
            need = MY_Z_HDR + clen - (c->zin_len - c->zin_pos);
        if (used < 0) {
            if ((rc = myc_room(c, &c->zin, &c->zin_pos, &c->zin_len, &c->zin_cap, need)) < 0 ||
                (rc = myc_recv(c, c->zin + c->zin_len, c->zin_cap - c->zin_len, &c->zin_len)) < 0)
                return rc;
            continue;
        }
        if (cseq != c->cseq)
            return b_seterr(&c->err, B_PROTOCOL, 0, "protocol error from %s: compressed packet "
                            "sequence %u, expected %u", c->target, cseq, c->cseq);
        size_t n = ulen ? ulen : clen;
        if ((rc = myc_room(c, &c->in, &c->in_pos, &c->in_len, &c->in_cap, B_MAX(n, 1))) < 0)
            return rc;
        if (my_zframe_body(c->zin + c->zin_pos, clen, ulen, c->in + c->in_len, &why) < 0)
            return b_seterr(&c->err, B_PROTOCOL, 0, "corrupt compressed packet from %s (%zu "
                            "bytes, announced %zu uncompressed): %s", c->target, clen, ulen, why);
        c->in_len += n;
        c->zin_pos += (size_t)used;
        c->cseq++;
        if (n)
            return B_OK;
    }
}

/* Read more bytes into the receive buffer: room for the rest of the packet being read (at
 * least 2 KiB; more than the buffer holds after a read that filled it, below MYC_IN_READ),
 * one read. */
static int myc_fill(struct my_conn *c)
{
    int rc;
    if (c->zlib)
        return myc_zfill(c);
    size_t need = B_MAX(c->need, (size_t)2048);
    if (c->in_full && c->in_cap < MYC_IN_READ)
        need = B_MAX(need, c->in_cap + 1); /* myc_room doubles it */
    if ((rc = myc_room(c, &c->in, &c->in_pos, &c->in_len, &c->in_cap, need)) < 0)
        return rc;
    size_t room = c->in_cap - c->in_len, had = c->in_len;
    rc = myc_recv(c, c->in + c->in_len, room, &c->in_len);
    c->in_full = rc == B_OK && c->in_len - had == room;
    return rc;
}

static int myc_too_long(struct my_conn *c, size_t cap)
{
    c->big.len = 0;
    c->rd_multi = false;
    return b_seterr(&c->err, B_PROTOCOL, 0,
                    "a packet from %s is longer than --max-allowed-packet=%zu bytes", c->target,
                    cap);
}

/*
 * myc_read_buffered - the next logical packet from the receive buffer, no I/O: B_AGAIN when
 * it is not all there yet (c->need: the bytes still missing of its current fragment).
 * Fragments of 0xFFFFFF are reassembled in c->big, up to --max-allowed-packet. The view is
 * valid until the next read. Sequence ids are checked, except on ERR packets (MySQL 8's
 * unsolicited ERR 4031 comes with any id).
 */
static int myc_read_buffered(struct my_conn *c, const u8 **payload, size_t *plen)
{
    size_t cap = c->p->max_packet ? c->p->max_packet : MYC_MAX_PACKET;
    if (!c->rd_multi)
        c->big.len = 0;
    for (;;) {
        const u8 *p, *h = c->in ? c->in + c->in_pos : NULL; /* no buffer before the first read */
        size_t n, have = c->in_len - c->in_pos;
        u8 seq;
        long used = my_frame_parse(h, have, &p, &n, &seq);
        if (used == B_AGAIN) { /* refuse a long one before buffering it */
            size_t hl = have >= 4 ? ((size_t)h[0] | (size_t)h[1] << 8 | (size_t)h[2] << 16) : 0;
            if (have >= 4 && c->big.len + hl > cap)
                return myc_too_long(c, cap);
            c->need = have >= 4 ? hl + 4 - have : 4 - have;
            return B_AGAIN;
        }
        c->in_pos += (size_t)used;
        if (c->p->trace) {
            size_t m[4] = {0, 0, 0, 0};
            if (c->login && !c->rd_multi)
                my_auth_mask(p, n, c->login == 1, m);
            m[0] += 4, m[2] += 4; /* the header comes first */
            myc_dump(c->p, "<", p - 4, n + 4, m);
        }
        /* compressed: servers resync inner ids to the frames' (protocol.md 5), unchecked */
        if (seq != c->seq && !c->zlib && !(n > 0 && p[0] == 0xFF && !c->rd_multi))
            return b_seterr(&c->err, B_PROTOCOL, 0,
                            "protocol error from %s: packet sequence %u, expected %u", c->target,
                            seq, c->seq);
        c->seq = (u8)(seq + 1);
        if (c->big.len + n > cap)
            return myc_too_long(c, cap);
        if (!c->rd_multi && n < MY_MAX_PACKET) {
            *payload = p;
            *plen = n;
            return B_OK;
        }
        c->rd_multi = true;
        buf_put(&c->big, p, n);
        if (n < MY_MAX_PACKET) {
            c->rd_multi = false;
            *payload = (const u8 *)c->big.p;
            *plen = c->big.len;
            return B_OK;
        }
    }
}

/* Keep an ERR packet's details; returns B_SERVER. */
static int myc_server_error(struct my_conn *c, const u8 *p, size_t n)
{
    struct my_err_pkt e;
    if (my_parse_err(p, n, &e) < 0)
        return b_seterr(&c->err, B_PROTOCOL, 0, "malformed ERR packet from %s", c->target);
    c->srv_code = e.code;
    memcpy(c->sqlstate, e.sqlstate, 6);
    for (int i = 0; i < 5; i++) /* five letters or digits; anything else reaches no terminal */
        if (!isalnum((u8)c->sqlstate[i]))
            c->sqlstate[i] = '?';
    my_escape(c->srv_msg, sizeof(c->srv_msg), e.msg.p, B_MIN(e.msg.len, 500));
    return b_seterr(&c->err, B_SERVER, 0, "ERROR %u (%s): %s", e.code, c->sqlstate, c->srv_msg);
}

/* ---- TLS ---- */
/*
 * One configuration per (verification, CA, client certificate, key) in a process: the files
 * are parsed once, by the first connection that needs them, and shared read-only by every
 * connection after it (mbedtls_ssl_config is read-only once set up). One random generator,
 * seeded once, behind a mutex (this mbedTLS is built without MBEDTLS_THREADING_C). A
 * connection with TLS allocates only its mbedtls_ssl_context (and mbedTLS its record
 * buffers); a plain connection carries no mbedTLS state at all. The configurations live
 * until the process ends.
 */
struct myc_tls_conf {
    struct myc_tls_conf *next;
    bool verify;               /* VERIFY_CA or VERIFY_IDENTITY: the chain is checked */
    char *ca, *cert, *key;     /* the files (NULL: none) */
    mbedtls_ssl_config conf;
    mbedtls_x509_crt ca_crt, cert_crt;
    mbedtls_pk_context pk;
};

static struct {
    pthread_mutex_t mu;        /* the list, and the first seeding */
    pthread_mutex_t rng_mu;    /* the generator */
    bool seeded;
    mbedtls_ctr_drbg_context drbg;
    mbedtls_entropy_context entropy;
    struct myc_tls_conf *list;
} myc_tls_g = {.mu = PTHREAD_MUTEX_INITIALIZER, .rng_mu = PTHREAD_MUTEX_INITIALIZER};

static int myc_tls_rng(void *ctx, unsigned char *out, size_t n)
{
    (void)ctx;
    pthread_mutex_lock(&myc_tls_g.rng_mu);
    int r = mbedtls_ctr_drbg_random(&myc_tls_g.drbg, out, n);
    pthread_mutex_unlock(&myc_tls_g.rng_mu);
    return r;
}

static int myc_tls_fail(struct my_conn *c, const char *what, int ret)
{
    char e[160];
    mbedtls_strerror(ret, e, sizeof(e));
    return b_seterr(&c->err, B_UNSUPPORTED, 0, "TLS with %s: %s: %s (mbedTLS -0x%04x)",
                    c->target, what, e, (unsigned)-ret);
}

static bool myc_same(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static char *myc_strdup0(const char *s)
{
    return s ? b_xstrdup(s) : NULL;
}

static void myc_tls_conf_free(struct myc_tls_conf *t)
{
    mbedtls_ssl_config_free(&t->conf);
    mbedtls_x509_crt_free(&t->ca_crt);
    mbedtls_x509_crt_free(&t->cert_crt);
    mbedtls_pk_free(&t->pk);
    free(t->ca);
    free(t->cert);
    free(t->key);
    free(t);
}

/* Build a configuration (under myc_tls_g.mu); NULL with c->err on failure. */
static struct myc_tls_conf *myc_tls_conf_new(struct my_conn *c, bool verify)
{
    const struct myc_params *p = c->p;
    struct myc_tls_conf *t = b_xcalloc(1, sizeof(*t));
    int ret;
    t->verify = verify;
    t->ca = myc_strdup0(verify ? p->ssl_ca : NULL);
    if (p->ssl_cert && p->ssl_key)
        t->cert = myc_strdup0(p->ssl_cert), t->key = myc_strdup0(p->ssl_key);
    mbedtls_ssl_config_init(&t->conf);
    mbedtls_x509_crt_init(&t->ca_crt);
    mbedtls_x509_crt_init(&t->cert_crt);
    mbedtls_pk_init(&t->pk);
    if (!myc_tls_g.seeded) {
        mbedtls_ctr_drbg_init(&myc_tls_g.drbg);
        mbedtls_entropy_init(&myc_tls_g.entropy);
        if ((ret = mbedtls_ctr_drbg_seed(&myc_tls_g.drbg, mbedtls_entropy_func,
                                         &myc_tls_g.entropy, (const u8 *)"bench", 5))) {
            mbedtls_ctr_drbg_free(&myc_tls_g.drbg);
            mbedtls_entropy_free(&myc_tls_g.entropy);
            myc_tls_fail(c, "seeding the random generator", ret);
            goto fail;
        }
        myc_tls_g.seeded = true;
    }
    if ((ret = mbedtls_ssl_config_defaults(&t->conf, MBEDTLS_SSL_IS_CLIENT,
                                           MBEDTLS_SSL_TRANSPORT_STREAM,
                                           MBEDTLS_SSL_PRESET_DEFAULT))) {
        myc_tls_fail(c, "configuring", ret);
        goto fail;
    }
    mbedtls_ssl_conf_rng(&t->conf, myc_tls_rng, NULL);
    mbedtls_ssl_conf_min_version(&t->conf, MBEDTLS_SSL_MAJOR_VERSION_3, MBEDTLS_SSL_MINOR_VERSION_3);
    if (verify) {
        const char *ca = p->ssl_ca ? p->ssl_ca : "/etc/ssl/certs/ca-certificates.crt";
        if ((ret = mbedtls_x509_crt_parse_file(&t->ca_crt, ca)) < 0) {
            myc_tls_fail(c, ca, ret);
            goto fail;
        }
        mbedtls_ssl_conf_ca_chain(&t->conf, &t->ca_crt, NULL);
        mbedtls_ssl_conf_authmode(&t->conf, MBEDTLS_SSL_VERIFY_REQUIRED);
    } else
        mbedtls_ssl_conf_authmode(&t->conf, MBEDTLS_SSL_VERIFY_NONE);
    if (t->cert) {
        if ((ret = mbedtls_x509_crt_parse_file(&t->cert_crt, p->ssl_cert)) < 0) {
            myc_tls_fail(c, p->ssl_cert, ret);
            goto fail;
        }
        if ((ret = mbedtls_pk_parse_keyfile(&t->pk, p->ssl_key, NULL)) < 0) {
            myc_tls_fail(c, p->ssl_key, ret);
            goto fail;
        }
        if ((ret = mbedtls_ssl_conf_own_cert(&t->conf, &t->cert_crt, &t->pk))) {
            myc_tls_fail(c, "the client certificate", ret);
            goto fail;
        }
    }
    return t;
fail:
    myc_tls_conf_free(t);
    return NULL;
}

/* The shared configuration for c's parameters and mode, built on first use. */
static const mbedtls_ssl_config *myc_tls_conf(struct my_conn *c, int mode)
{
    const struct myc_params *p = c->p;
    bool verify = mode >= MYC_SSL_VERIFY_CA;
    const char *ca = verify ? p->ssl_ca : NULL;
    const char *cert = p->ssl_cert && p->ssl_key ? p->ssl_cert : NULL;
    const char *key = cert ? p->ssl_key : NULL;
    struct myc_tls_conf *t;
    pthread_mutex_lock(&myc_tls_g.mu);
    for (t = myc_tls_g.list; t; t = t->next)
        if (t->verify == verify && myc_same(t->ca, ca) && myc_same(t->cert, cert) &&
            myc_same(t->key, key))
            break;
    if (!t && (t = myc_tls_conf_new(c, verify))) {
        t->next = myc_tls_g.list;
        myc_tls_g.list = t;
    }
    pthread_mutex_unlock(&myc_tls_g.mu);
    return t ? &t->conf : NULL;
}

/* The TLS handshake's start: c's context over the shared configuration. */
static int myc_tls_start(struct my_conn *c, int mode)
{
    const struct myc_params *p = c->p;
    const mbedtls_ssl_config *conf = myc_tls_conf(c, mode);
    int ret;
    if (!conf)
        return c->err.rc;
    c->ssl = b_xmalloc(sizeof(*c->ssl));
    mbedtls_ssl_init(c->ssl);
    if ((ret = mbedtls_ssl_setup(c->ssl, conf)))
        return myc_tls_fail(c, "setup", ret);
    if (mode == MYC_SSL_VERIFY_IDENTITY && !c->is_unix &&
        (ret = mbedtls_ssl_set_hostname(c->ssl, p->host)))
        return myc_tls_fail(c, "setting the host name", ret);
    mbedtls_ssl_set_bio(c->ssl, c, myc_sock_send, myc_sock_recv, NULL);
    return B_OK;
}

/* The handshake, as far as the bytes allow: B_OK when done, MYC_WANT_* (non-blocking). */
static int myc_tls_handshake(struct my_conn *c, int mode)
{
    int ret;
    while ((ret = mbedtls_ssl_handshake(c->ssl)) != 0) {
        if (myc_would_block(c, ret)) {
            if (c->async)
                return c->want;
            continue;
        }
        if (ret == MBEDTLS_ERR_X509_CERT_VERIFY_FAILED) {
            char why[256];
            mbedtls_x509_crt_verify_info(why, sizeof(why), "", mbedtls_ssl_get_verify_result(c->ssl));
            why[strcspn(why, "\n")] = 0;
            return b_seterr(&c->err, B_UNSUPPORTED, 0,
                            "TLS with %s: the server certificate did not verify (%s): %s",
                            c->target, mode == MYC_SSL_VERIFY_IDENTITY ? "VERIFY_IDENTITY" : "VERIFY_CA",
                            why);
        }
        if (ret == MBEDTLS_ERR_SSL_TIMEOUT)
            return myc_stopped(c, "setting up TLS with");
        return myc_tls_fail(c, "handshake", ret);
    }
    c->tls = true;
    return B_OK;
}

/* ---- authentication ---- */

static bool myc_secure(const struct my_conn *c)
{
    return c->tls || c->is_unix;
}

/* RSA keys bench encrypts the password with: the buffers hold a 4096-bit key's block. */
#define MYC_RSA_MIN_BITS 1024
#define MYC_RSA_MAX_BITS 4096

/* RSA-OAEP(SHA-1) of (password || 0) XOR nonce with a PEM public key (protocol.md 3.3);
 * from says where the key came from, for messages. */
static int myc_rsa_encrypt(struct my_conn *c, const u8 *pem, size_t pem_len, const char *from,
                           struct buf *out)
{
    mbedtls_pk_context pk;
    mbedtls_ctr_drbg_context drbg;
    mbedtls_entropy_context ent;
    u8 plain[MYC_RSA_MAX_BITS / 8], enc[MYC_RSA_MAX_BITS / 8];
    const char *pw = c->p->password ? c->p->password : "";
    size_t pwlen = strlen(pw), olen = 0, bits = 0;
    int ret, rc = B_OK;
    char *z = b_xmalloc(pem_len + 1); /* mbedTLS wants the PEM NUL-terminated, len + 1 */
    memcpy(z, pem, pem_len);
    z[pem_len] = 0;
    mbedtls_pk_init(&pk);
    mbedtls_ctr_drbg_init(&drbg);
    mbedtls_entropy_init(&ent);
    ret = mbedtls_pk_parse_public_key(&pk, (const u8 *)z, pem_len + 1);
    free(z);
    if (ret == 0 && mbedtls_pk_get_type(&pk) != MBEDTLS_PK_RSA)
        ret = MBEDTLS_ERR_PK_TYPE_MISMATCH;
    if (ret == 0)
        bits = mbedtls_pk_get_bitlen(&pk);
    if (ret == 0 && (bits < MYC_RSA_MIN_BITS || bits > MYC_RSA_MAX_BITS)) {
        rc = b_seterr(&c->err, B_UNSUPPORTED, 0, "the RSA public key %s has %zu bits: bench "
                      "supports RSA keys of %d to %d bits", from, bits, MYC_RSA_MIN_BITS,
                      MYC_RSA_MAX_BITS);
        goto done;
    }
    if (ret == 0 && pwlen + 1 + 42 > mbedtls_pk_get_len(&pk)) { /* OAEP(SHA-1) takes 42 */
        rc = b_seterr(&c->err, B_UNSUPPORTED, 0, "the password (%zu bytes) is too long for "
                      "the %zu-bit RSA key %s: at most %zu bytes fit", pwlen, bits, from,
                      mbedtls_pk_get_len(&pk) - 43);
        goto done;
    }
    if (ret == 0) {
        for (size_t i = 0; i <= pwlen; i++) /* pwlen + 1 <= the key's bytes <= sizeof(plain) */
            plain[i] = (u8)((i < pwlen ? (u8)pw[i] : 0) ^ c->nonce[i % 20]);
        mbedtls_rsa_set_padding(mbedtls_pk_rsa(pk), MBEDTLS_RSA_PKCS_V21, MBEDTLS_MD_SHA1);
        ret = mbedtls_ctr_drbg_seed(&drbg, mbedtls_entropy_func, &ent, (const u8 *)"rsa", 3);
        if (ret == 0)
            ret = mbedtls_pk_encrypt(&pk, plain, pwlen + 1, enc, &olen, sizeof(enc),
                                     mbedtls_ctr_drbg_random, &drbg);
    }
    if (ret) {
        char m[160];
        mbedtls_strerror(ret, m, sizeof(m));
        rc = b_seterr(&c->err, B_UNSUPPORTED, 0, "RSA-encrypting the password for %s with the "
                      "public key %s failed: %s (mbedTLS -0x%04x)", c->target, from, m,
                      (unsigned)-ret);
    } else
        buf_put(out, enc, olen);
done:
    mbedtls_platform_zeroize(plain, sizeof(plain));
    mbedtls_pk_free(&pk);
    mbedtls_ctr_drbg_free(&drbg);
    mbedtls_entropy_free(&ent);
    return rc;
}

/* The most a PEM public key file may hold: a 16384-bit key takes 3 KiB. */
#define MYC_KEY_FILE_MAX ((size_t)64 << 10)

/* Read a small file (at most MYC_KEY_FILE_MAX bytes: /dev/zero is no key). Opened
 * non-blocking: a FIFO with no writer reads as empty instead of waiting for one. */
static int myc_read_file(const char *path, struct buf *out, struct b_err *e)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (fd >= 0 && !f)
        close(fd);
    char tmp[4096];
    size_t n;
    int err = 0;
    if (!f)
        return b_seterr(e, B_SYSERR, errno, "cannot read %s: %s (%s)", path, strerror(errno),
                        b_errno_name(errno));
    while (out->len <= MYC_KEY_FILE_MAX && (n = fread(tmp, 1, sizeof(tmp), f)) > 0)
        buf_put(out, tmp, n);
    if (ferror(f))
        err = errno ? errno : EIO;
    fclose(f);
    if (err)
        return b_seterr(e, B_SYSERR, err, "cannot read %s: %s (%s)", path, strerror(err),
                        b_errno_name(err));
    if (out->len > MYC_KEY_FILE_MAX)
        return b_seterr(e, B_INVALID, 0, "%s holds more than %zu bytes: not a PEM public key",
                        path, MYC_KEY_FILE_MAX);
    return B_OK;
}

/* RSA-encrypt the password with the key in --server-public-key-path (no key request). */
static int myc_rsa_from_file(struct my_conn *c, struct buf *out)
{
    struct buf pem = {0};
    char from[PATH_MAX + 8];
    int rc = myc_read_file(c->p->server_pubkey, &pem, &c->err);
    snprintf(from, sizeof(from), "in %s", c->p->server_pubkey);
    if (rc == B_OK)
        rc = myc_rsa_encrypt(c, (const u8 *)pem.p, pem.len, from, out);
    buf_free(&pem);
    return rc;
}

/*
 * Over plain TCP the RSA exchange trusts a key that nothing authenticates: a server (or
 * anyone in between) that sends its own key gets the password. As MySQL's client, bench asks
 * for the key only with --get-server-public-key; otherwise its error 2061 (CR_AUTH_PLUGIN_ERR).
 */
static int myc_need_secure(struct my_conn *c)
{
    c->srv_code = 2061;
    memcpy(c->sqlstate, "HY000", 6);
    snprintf(c->srv_msg, sizeof(c->srv_msg), "Authentication plugin '%s' reported error: "
             "Authentication requires secure connection.", c->plugin);
    return b_seterr(&c->err, B_UNSUPPORTED, 0, "ERROR 2061 (HY000): %s", c->srv_msg);
}

/* Ask the server for its RSA public key (sha256_password: 1, caching_sha2_password: 2). */
static int myc_key_request(struct my_conn *c, u8 code, struct buf *out)
{
    if (!myc_secure(c) && !c->p->get_server_pubkey)
        return myc_need_secure(c);
    my_put_u8(out, code);
    c->key_requested = true;
    return B_OK;
}

/*
 * The authentication plugins, one row each (protocol.md 3): the first answer (to the
 * greeting or to an AuthSwitchRequest) and, for the plugins that have one, the handler of the
 * server's AuthMoreData. Adding a plugin is one row and its functions. pw is the password
 * ("" when none), its bytes pwlen.
 */
struct myc_auth_plugin {
    const char *name;   /* as the server names it */
    bool greet;         /* bench may answer the greeting with it (else native, and a switch) */
    bool secure_only;   /* sends the password in clear: only over TLS or a unix socket */
    /* the first answer into out; B_OK or an error in c->err */
    int (*first)(struct my_conn *c, const char *pw, size_t pwlen, struct buf *out);
    /* AuthMoreData d[n] (after its 0x01) into out (empty: nothing to send); NULL: none
     * expected */
    int (*more)(struct my_conn *c, const u8 *d, size_t n, struct buf *out);
};

static int myc_auth_native(struct my_conn *c, const char *pw, size_t pwlen, struct buf *out)
{
    u8 t[20];
    if (pwlen) {
        my_scramble_native(pw, pwlen, c->nonce, t);
        buf_put(out, t, 20);
    }
    return B_OK;
}

static int myc_auth_sha2(struct my_conn *c, const char *pw, size_t pwlen, struct buf *out)
{
    u8 t[32];
    if (pwlen) {
        my_scramble_sha2(pw, pwlen, c->nonce, t);
        buf_put(out, t, 32);
    }
    return B_OK;
}

/* The password RSA-encrypted with the key in --server-public-key-path, or with the server's,
 * asked for with code. */
static int myc_auth_rsa(struct my_conn *c, u8 code, struct buf *out)
{
    if (c->p->server_pubkey)
        return myc_rsa_from_file(c, out);
    return myc_key_request(c, code, out);
}

static int myc_auth_sha256(struct my_conn *c, const char *pw, size_t pwlen, struct buf *out)
{
    if (!pwlen)
        my_put_u8(out, 0);
    else if (c->tls)
        buf_put(out, pw, pwlen + 1);
    else
        return myc_auth_rsa(c, 1, out);
    return B_OK;
}

static int myc_auth_ed25519(struct my_conn *c, const char *pw, size_t pwlen, struct buf *out)
{
    u8 sig[64];
    my_ed25519_sign(pw, pwlen, c->nonce, c->nonce_len, sig, NULL);
    buf_put(out, sig, 64);
    return B_OK;
}

static int myc_auth_clear(struct my_conn *c, const char *pw, size_t pwlen, struct buf *out)
{
    (void)c;
    buf_put(out, pw, pwlen + 1);
    return B_OK;
}

static int myc_auth_old(struct my_conn *c, const char *pw, size_t pwlen, struct buf *out)
{
    (void)pw, (void)pwlen, (void)out;
    return b_seterr(&c->err, B_UNSUPPORTED, 0,
                    "the server at %s asked for the pre-4.1 password protocol "
                    "(mysql_old_password), which bench refuses",
                    c->target);
}

/* The RSA public key we asked for (once), in an AuthMoreData. */
static int myc_more_key(struct my_conn *c, const u8 *d, size_t n, struct buf *out)
{
    if (c->key_requested && n > 10 && !memcmp(d, "-----BEGIN", 10)) {
        char from[320];
        snprintf(from, sizeof(from), "from the server at %s", c->target);
        c->key_requested = false;
        return myc_rsa_encrypt(c, d, n, from, out);
    }
    return b_seterr(&c->err, B_PROTOCOL, 0, "unexpected AuthMoreData (%zu bytes) from %s for %s",
                    n, c->target, c->plugin);
}

/* caching_sha2_password: fast_auth_success (3), perform_full_authentication (4), or the key. */
static int myc_more_sha2(struct my_conn *c, const u8 *d, size_t n, struct buf *out)
{
    const char *pw = c->p->password ? c->p->password : "";
    if (n == 1 && d[0] == 3)
        return B_OK; /* OK follows */
    if (n == 1 && d[0] == 4) { /* in clear over TLS or a socket, else RSA */
        if (!myc_secure(c))
            return myc_auth_rsa(c, 2, out);
        buf_put(out, pw, strlen(pw) + 1);
        return B_OK;
    }
    return myc_more_key(c, d, n, out);
}

static const struct myc_auth_plugin myc_auth_plugins[] = {
    {"mysql_native_password", true, false, myc_auth_native, NULL},
    {"caching_sha2_password", true, false, myc_auth_sha2, myc_more_sha2},
    {"sha256_password", true, false, myc_auth_sha256, myc_more_key},
    {"client_ed25519", true, false, myc_auth_ed25519, NULL},
    {"mysql_clear_password", false, true, myc_auth_clear, NULL},
    {"mysql_old_password", false, false, myc_auth_old, NULL}, /* refused */
};

/* The row of a plugin name, or NULL (bench does not support it). */
static const struct myc_auth_plugin *myc_auth_find(const char *name)
{
    for (size_t i = 0; i < countof(myc_auth_plugins); i++)
        if (!strcmp(name, myc_auth_plugins[i].name))
            return &myc_auth_plugins[i];
    return NULL;
}

/* The first answer for a plugin (initial response or after a switch). */
static int myc_auth_data(struct my_conn *c, const char *plugin, struct buf *out)
{
    const char *pw = c->p->password ? c->p->password : "";
    my_escape(c->plugin, sizeof(c->plugin), plugin, strlen(plugin));
    c->auth = myc_auth_find(plugin);
    if (!c->auth)
        return b_seterr(&c->err, B_UNSUPPORTED, 0,
                        "the server at %s asked for the authentication plugin '%s', which "
                        "bench does not support",
                        c->target, c->plugin);
    if (c->auth->secure_only && !myc_secure(c))
        return b_seterr(&c->err, B_UNSUPPORTED, 0,
                        "the server at %s asked for %s over plain TCP: bench sends a "
                        "cleartext password only over TLS or a unix socket",
                        c->target, c->auth->name);
    return c->auth->first(c, pw, strlen(pw), out);
}

/* AuthMoreData: the plugin's handler, and its answer sent. */
static int myc_auth_more(struct my_conn *c, const u8 *d, size_t n)
{
    struct buf out = {0};
    int rc = c->auth && c->auth->more
                 ? c->auth->more(c, d, n, &out)
                 : b_seterr(&c->err, B_PROTOCOL, 0,
                            "unexpected AuthMoreData (%zu bytes) from %s for %s", n, c->target,
                            c->plugin);
    if (rc == B_OK && out.len)
        rc = myc_send_auth(c, out.p, out.len, 0, out.len > 1 ? out.len : 0);
    if (out.p)
        mbedtls_platform_zeroize(out.p, out.len);
    buf_free(&out);
    return rc;
}

/* ---- the state machine: operations, their states, the driver ---- */
/*
 * An operation (the login, or one command with its response) is c->op in state c->state.
 * A state function handles every packet already buffered and returns B_AGAIN when it needs
 * the next one (it keeps no view of the buffer across that), MYC_NEXT to have what it
 * queued sent first, MYC_WANT_* to wait for the socket, B_OK when the operation is done, or
 * an error. myc_step drives it: sends what c->out holds, reads when a state needs bytes.
 * Blocking (myc_connect, myc_query, ...): the same states, and the sends and reads wait
 * (slices, deadline, stop signal) instead of returning MYC_WANT_*.
 */
enum { MYC_OP_NONE, MYC_OP_CONNECT, MYC_OP_QUERY, MYC_OP_EXECUTE, MYC_OP_PREPARE, MYC_OP_SIMPLE };
enum {
    MYC_S_SOCKET, MYC_S_GREETING, MYC_S_TLS, MYC_S_AUTH_FIRST, MYC_S_AUTH, /* login */
    MYC_S_FIRST, MYC_S_COLS, MYC_S_COLS_EOF, MYC_S_ROWS,                   /* results */
    MYC_S_PREP_OK, MYC_S_PREP_PARAMS, MYC_S_PREP_PARAMS_EOF, MYC_S_PREP_COLS,
    MYC_S_PREP_COLS_EOF,                                                    /* prepare */
    MYC_S_SIMPLE,                                                           /* OK or ERR */
};

/* ---- the login ---- */

/* The login's end: the connection is ready for commands. */
static void myc_logged_in(struct my_conn *c)
{
    c->connect_ns = clk_now_ns() - c->t0;
    c->login = 0;
    c->zlib = (c->caps & MY_CAP_COMPRESS) != 0; /* from the first command on */
    c->cseq = 0;
}

/* The authentication exchange: one packet per turn (protocol.md 3). */
static int myc_auth_packet(struct my_conn *c, const u8 *p, size_t n)
{
    int rc;
    if (++c->auth_packets > MYC_MAX_AUTH_PACKETS)
        return b_seterr(&c->err, B_PROTOCOL, 0, "more than %d packets from %s during the "
                        "login", MYC_MAX_AUTH_PACKETS, c->target);
    if (n == 0)
        return b_seterr(&c->err, B_PROTOCOL, 0, "empty packet from %s during login",
                        c->target);
    if (p[0] == 0x00) {
        struct my_ok_pkt ok;
        if (my_parse_ok(p, n, &ok) < 0)
            return b_seterr(&c->err, B_PROTOCOL, 0, "malformed OK from %s", c->target);
        myc_logged_in(c);
        return B_OK;
    }
    if (p[0] == 0xFF)
        return myc_server_error(c, p, n);
    if (p[0] == 0xFE) { /* AuthSwitchRequest: plugin name, then its data */
        struct my_rd r = MY_RD(p + 1, n - 1);
        struct my_str name;
        struct buf out = {0};
        char plugin[40];
        if (n == 1) /* the pre-4.1 switch: no name, mysql_old_password's row refuses */
            return myc_auth_data(c, "mysql_old_password", &out);
        if (c->switched || my_rd_nstr(&r, &name, false) < 0 || name.len >= sizeof(plugin))
            return b_seterr(&c->err, B_PROTOCOL, 0, "malformed or repeated "
                            "AuthSwitchRequest from %s", c->target);
        c->switched = true;
        snprintf(plugin, sizeof(plugin), "%.*s", (int)name.len, name.p);
        size_t dl = my_rd_left(&r);
        if (dl > 0 && r.p[r.pos + dl - 1] == 0 && dl == 21)
            dl--; /* scramble plugins append a NUL */
        if (dl > 32)
            return b_seterr(&c->err, B_PROTOCOL, 0, "AuthSwitchRequest nonce of %zu bytes "
                            "from %s", dl, c->target);
        memcpy(c->nonce, r.p + r.pos, dl);
        c->nonce_len = dl;
        if ((rc = myc_auth_data(c, plugin, &out)) == B_OK)
            rc = myc_send_auth(c, out.p, out.len, 0, out.len > 1 ? out.len : 0);
        if (out.p)
            mbedtls_platform_zeroize(out.p, out.len);
        buf_free(&out);
        return rc < 0 ? rc : B_AGAIN;
    }
    if (p[0] == 0x01)
        return (rc = myc_auth_more(c, p + 1, n - 1)) < 0 ? rc : B_AGAIN;
    return b_seterr(&c->err, B_PROTOCOL, 0, "unexpected packet 0x%02x from %s during login",
                    p[0], c->target);
}

/* The greeting: capabilities, TLS as --ssl-mode says (the SSLRequest queued). */
static int myc_greeting(struct my_conn *c, const u8 *pk, size_t n)
{
    const struct myc_params *p = c->p;
    int rc, mode;
    c->login = 2;
    if (n > 0 && pk[0] == 0xFF) /* too many connections, host blocked: ERR, no greeting */
        return myc_server_error(c, pk, n);
    if (n > sizeof(c->hs_copy))
        return b_seterr(&c->err, B_PROTOCOL, 0, "greeting of %zu bytes from %s", n, c->target);
    memcpy(c->hs_copy, pk, n);
    rc = my_parse_handshake(c->hs_copy, n, &c->hs);
    if (rc < 0)
        return b_seterr(&c->err, rc == B_UNSUPPORTED ? B_UNSUPPORTED : B_PROTOCOL, 0,
                        rc == B_UNSUPPORTED ? "the server at %s speaks the pre-4.1 protocol"
                                            : "malformed greeting from %s (is it a MySQL server?)",
                        c->target);
    {
        /* MariaDB prefixes "5.5.5-" for old replication clients: the version is after it */
        struct my_str v = c->hs.version;
        if (v.len > 6 && !memcmp(v.p, "5.5.5-", 6) && strstr(v.p, "MariaDB"))
            v.p += 6, v.len -= 6;
        my_escape(c->version, sizeof(c->version), v.p, B_MIN(v.len, 90));
    }
    memcpy(c->nonce, c->hs.scramble, c->hs.scramble_len);
    c->nonce_len = c->hs.scramble_len;
    c->caps = (MY_CAP_WANTED | MY_CAP_CONNECT_ATTRS) & c->hs.caps;
    if (p->no_deprecate_eof)
        c->caps &= ~MY_CAP_DEPRECATE_EOF;
    /* MariaDB 10.6+: executes of a prepared statement skip the column definitions the
     * client already has from PREPARE (protocol.md 4.9): less work for the server per query */
    if (!(c->hs.caps & MY_CAP_LONG_PASSWORD) && !p->no_cache_metadata)
        c->ext_caps = c->hs.ext_caps & MY_MARIADB_CACHE_METADATA;
    if (p->db && *p->db)
        c->caps |= MY_CAP_CONNECT_WITH_DB & c->hs.caps;
    if (p->multi_statements)
        c->caps |= MY_CAP_MULTI_STATEMENTS & c->hs.caps;
    if (p->compress) /* zlib when the server offers it, as the mysql client's --compress */
        c->caps |= MY_CAP_COMPRESS & c->hs.caps;
    mode = p->ssl_mode >= 0 ? p->ssl_mode : c->is_unix ? MYC_SSL_DISABLED : MYC_SSL_PREFERRED;
    c->ssl_eff = mode;
    if (mode != MYC_SSL_DISABLED && !(c->hs.caps & MY_CAP_SSL) && mode != MYC_SSL_PREFERRED)
        return b_seterr(&c->err, B_UNSUPPORTED, 0,
                        "the server at %s does not offer TLS, and --ssl-mode requires it",
                        c->target);
    if (mode != MYC_SSL_DISABLED && (c->hs.caps & MY_CAP_SSL)) {
        struct buf req = {0};
        c->caps |= MY_CAP_SSL;
        my_build_login_head(&req, c->caps, c->ext_caps);
        rc = myc_send(c, req.p, req.len);
        buf_free(&req);
        if (rc < 0 || (rc = myc_tls_start(c, mode)) < 0)
            return rc;
        c->state = MYC_S_TLS;
        c->what = "setting up TLS with";
        return MYC_NEXT;
    }
    c->state = MYC_S_AUTH_FIRST;
    return MYC_NEXT;
}

/* The handshake response with the first answer of the plugin the server named. */
static int myc_auth_first(struct my_conn *c)
{
    const struct myc_params *p = c->p;
    struct buf auth = {0}, resp = {0};
    char plugin[40];
    int rc;
    /* answer with the plugin the server advertised when we have it (MySQL 8.4 refuses
     * clients that name mysql_native_password), else native and let it switch */
    snprintf(plugin, sizeof(plugin), "%.*s", (int)B_MIN(c->hs.plugin.len, 39), c->hs.plugin.p);
    const struct myc_auth_plugin *ap = myc_auth_find(plugin);
    if (!ap || !ap->greet)
        snprintf(plugin, sizeof(plugin), "mysql_native_password");
    rc = myc_auth_data(c, plugin, &auth);
    if (rc == B_OK) {
        size_t at = my_build_handshake_response(&resp, c->caps, c->ext_caps,
                                                p->user ? p->user : "", (const u8 *)auth.p,
                                                auth.len, p->db ? p->db : "", plugin);
        rc = myc_send_auth(c, resp.p, resp.len, at, auth.len);
    }
    if (resp.p)
        mbedtls_platform_zeroize(resp.p, resp.len);
    if (auth.p)
        mbedtls_platform_zeroize(auth.p, auth.len);
    buf_free(&auth);
    buf_free(&resp);
    c->state = MYC_S_AUTH;
    return rc < 0 ? rc : MYC_NEXT;
}

/* The connected socket: TCP_NODELAY, blocking with slices (MSG_DONTWAIT when async). */
static void myc_socket_ready(struct my_conn *c)
{
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) & ~O_NONBLOCK); /* blocking, with timeouts */
    myc_set_slice(c);
    if (c->ai_list)
        freeaddrinfo(c->ai_list);
    c->ai_list = c->ai = NULL;
    c->socket_ns = clk_now_ns() - c->t0;
    c->state = MYC_S_GREETING;
    c->what = "reading from";
    c->login = 1;
}

/* Connect to c->ai or the addresses after it: MYC_NEXT (connected), MYC_WANT_WRITE (in
 * progress), or an error when none is left. */
static int myc_try_addr(struct my_conn *c)
{
    for (; c->ai; c->ai = c->ai->ai_next) {
        struct addrinfo *ai = c->ai;
        int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0) {
            c->ai_errno = errno;
            continue;
        }
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 && errno != EINPROGRESS) {
            c->ai_errno = errno;
            close(fd);
            continue;
        }
        c->fd = fd;
        c->state = MYC_S_SOCKET;
        return c->want = MYC_WANT_WRITE;
    }
    return myc_lost(c, "connecting to", c->ai_errno);
}

/* A connect in progress: done, failed (the next address), or not yet. */
static int myc_socket_state(struct my_conn *c)
{
    struct pollfd pfd = {.fd = c->fd, .events = POLLOUT};
    int soerr = 0;
    socklen_t sl = sizeof(soerr);
    if (poll(&pfd, 1, 0) == 0)
        return c->want = MYC_WANT_WRITE;
    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
        soerr = errno;
    if (soerr) {
        c->ai_errno = soerr;
        close(c->fd);
        c->fd = -1;
        c->ai = c->ai->ai_next;
        return myc_try_addr(c);
    }
    myc_socket_ready(c);
    return MYC_NEXT;
}

/* Open the socket: a unix socket at once, TCP to the first address that answers. */
static int myc_open_socket(struct my_conn *c)
{
    const struct myc_params *p = c->p;
    if (p->socket && *p->socket) {
        struct sockaddr_un sa;
        memset(&sa, 0, sizeof(sa));
        sa.sun_family = AF_UNIX;
        if (strlen(p->socket) >= sizeof(sa.sun_path))
            return b_seterr(&c->err, B_INVALID, ENAMETOOLONG, "socket path %s is too long",
                            p->socket);
        memcpy(sa.sun_path, p->socket, strlen(p->socket));
        c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
            return myc_lost(c, "connecting to", errno);
        myc_set_slice(c);
        c->is_unix = true;
        c->socket_ns = clk_now_ns() - c->t0;
        c->state = MYC_S_GREETING;
        c->what = "reading from";
        c->login = 1;
        return MYC_NEXT;
    }
    struct addrinfo hints;
    char port[16];
    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof(port), "%u", p->port);
    int g = getaddrinfo(p->host, port, &hints, &c->ai_list);
    if (g) {
        c->ai_list = NULL;
        return b_seterr(&c->err, B_SYSERR, g == EAI_SYSTEM ? errno : EHOSTUNREACH,
                        "cannot resolve host '%s': %s", p->host, gai_strerror(g));
    }
    c->ai = c->ai_list;
    c->ai_errno = ECONNREFUSED;
    return myc_try_addr(c);
}

static int myc_login_state(struct my_conn *c)
{
    const u8 *p;
    size_t n;
    int rc;
    switch (c->state) {
    case MYC_S_SOCKET:
        return myc_socket_state(c);
    case MYC_S_GREETING:
        if ((rc = myc_read_buffered(c, &p, &n)) < 0)
            return rc;
        return myc_greeting(c, p, n);
    case MYC_S_TLS:
        if ((rc = myc_tls_handshake(c, c->ssl_eff)) != B_OK)
            return rc;
        c->state = MYC_S_AUTH_FIRST;
        c->what = "reading from";
        return MYC_NEXT;
    case MYC_S_AUTH_FIRST:
        return myc_auth_first(c);
    default:
        while ((rc = myc_read_buffered(c, &p, &n)) == B_OK)
            if ((rc = myc_auth_packet(c, p, n)) != B_AGAIN)
                return rc;
        return rc;
    }
}

static void myc_init(struct my_conn *c, const struct myc_params *p)
{
    memset(c, 0, sizeof(*c));
    c->fd = -1;
    c->p = p;
    c->what = "reading from";
    myc_deadline(c, p->connect_timeout_ms); /* one deadline for the whole login */
    if (p->socket && *p->socket)
        snprintf(c->target, sizeof(c->target), "%s", p->socket);
    else if (strchr(p->host, ':'))
        snprintf(c->target, sizeof(c->target), "[%s]:%u", p->host, p->port);
    else
        snprintf(c->target, sizeof(c->target), "%s:%u", p->host, p->port);
}

/* myc_close - send COM_QUIT when connected, close, free everything (c is reusable). */
static void myc_close(struct my_conn *c)
{
    if (c->fd >= 0) {
        u8 quit = MY_COM_QUIT;
        c->seq = 0;
        c->out.len = c->out_off = 0;
        myc_deadline(c, MYC_SLICE_MS); /* a TLS close_notify may wait at most a slice */
        if (c->op == MYC_OP_NONE) { /* not in the middle of a login or a command */
            my_frame(&c->out, &c->seq, &quit, 1);
            if (c->zlib)
                myc_zwrap(c, 0);
            if (c->tls)
                mbedtls_ssl_write(c->ssl, (const u8 *)c->out.p, c->out.len),
                    mbedtls_ssl_close_notify(c->ssl);
            else if (!c->io.send)
                (void)!send(c->fd, c->out.p, c->out.len, MSG_NOSIGNAL | MSG_DONTWAIT);
        }
        close(c->fd);
        c->fd = -1;
    }
    if (c->ssl) {
        mbedtls_ssl_free(c->ssl);
        free(c->ssl);
        c->ssl = NULL;
    }
    if (c->ai_list)
        freeaddrinfo(c->ai_list);
    c->ai_list = c->ai = NULL;
    c->tls = false;
    c->op = MYC_OP_NONE;
    free(c->in);
    c->in = NULL;
    c->in_pos = c->in_len = c->in_cap = 0;
    buf_free(&c->out);
    c->out_off = 0;
    c->rd_multi = false;
    buf_free(&c->big);
    buf_free(&c->scratch);
    buf_free(&c->zout);
    free(c->zin);
    free(c->zwork);
    free(c->cd);
    c->cd = NULL;
    c->zin = NULL;
    c->zwork = NULL;
    c->zin_pos = c->zin_len = c->zin_cap = 0;
    c->zlib = false;
}

/* A failed login: c closed, the error kept. */
static void myc_connect_failed(struct my_conn *c)
{
    struct b_err keep = c->err;
    u16 code = c->srv_code;
    char st[6], msg[512];
    u64 t0 = c->t0;
    memcpy(st, c->sqlstate, 6);
    memcpy(msg, c->srv_msg, sizeof(msg));
    myc_close(c);
    c->err = keep;
    c->srv_code = code;
    memcpy(c->sqlstate, st, 6);
    memcpy(c->srv_msg, msg, sizeof(msg));
    c->connect_ns = clk_now_ns() - t0;
}

/* ---- commands and their responses ---- */

static void myc_stmt_free(struct myc_stmt *st);

static int myc_command(struct my_conn *c, u8 cmd, const void *arg, size_t len)
{
    c->scratch.len = 0;
    my_put_u8(&c->scratch, cmd);
    if (len)
        buf_put(&c->scratch, arg, len);
    c->seq = 0;
    myc_deadline(c, c->unbounded ? 0 : c->p->io_timeout_ms); /* the whole command */
    return myc_send(c, c->scratch.p, c->scratch.len);
}

static int myc_set_cols(struct my_conn *c, struct myc_result *res, size_t ncols)
{
    if (ncols > 4096)
        return b_seterr(&c->err, B_PROTOCOL, 0, "%zu columns from %s", ncols, c->target);
    if (ncols > res->cols_cap) {
        struct myc_col *q = realloc(res->cols, ncols * sizeof(*q));
        if (!q)
            b_die("out of memory for %zu column definitions", ncols);
        res->cols = q;
        res->cols_cap = ncols;
    }
    res->ncols = ncols;
    return B_OK;
}

static void myc_col_copy(struct myc_col *col, const struct my_coldef *d)
{
    size_t nl = B_MIN(d->name.len, sizeof(col->name) - 1);
    memcpy(col->name, d->name.p, nl);
    col->name[nl] = 0;
    col->type = d->type;
    col->flags = d->flags;
    col->charset = d->charset;
    col->decimals = d->decimals;
}

/* The first packet of a response, or of the next result: OK, ERR, LOCAL INFILE, or a
 * column count. */
static int myc_res_first(struct my_conn *c, const u8 *p, size_t n)
{
    struct myc_result *res = c->res;
    const struct myc_stmt *st = c->st;
    int rc;
    if (n == 0)
        return b_seterr(&c->err, B_PROTOCOL, 0, "empty packet from %s", c->target);
    if (p[0] == 0xFF)
        return myc_server_error(c, p, n);
    if (p[0] == 0x00) {
        struct my_ok_pkt ok;
        if (my_parse_ok(p, n, &ok) < 0)
            return b_seterr(&c->err, B_PROTOCOL, 0, "malformed OK from %s", c->target);
        res->affected = ok.affected;
        res->insert_id = ok.insert_id;
        res->status = ok.status;
        res->warnings = ok.warnings;
        return ok.status & MY_SERVER_MORE_RESULTS ? B_AGAIN : B_OK;
    }
    if (p[0] == 0xFB) { /* LOCAL INFILE request: refuse with an empty packet */
        if ((rc = myc_send(c, "", 0)) < 0)
            return rc;
        return B_AGAIN;
    }
    struct my_rd r = MY_RD(p, n);
    u64 ncols;
    if (my_rd_lenenc(&r, &ncols, NULL) < 0 || ncols == 0)
        return b_seterr(&c->err, B_PROTOCOL, 0, "bad column count from %s", c->target);
    if ((rc = myc_set_cols(c, res, (size_t)ncols)) < 0)
        return rc;
    res->nsets++;
    c->ncols = (size_t)ncols;
    c->col_i = 0;
    c->meta = 1;
    if ((c->ext_caps & MY_MARIADB_CACHE_METADATA) && my_rd_u8(&r, &c->meta) < 0)
        return b_seterr(&c->err, B_PROTOCOL, 0, "no metadata flag from %s", c->target);
    if (!c->meta) { /* the definitions of PREPARE apply */
        if (!st || !st->cols || ncols != st->ncols)
            return b_seterr(&c->err, B_PROTOCOL, 0, "%s skipped column definitions "
                            "bench does not have", c->target);
        memcpy(res->cols, st->cols, (size_t)ncols * sizeof(*res->cols));
        c->state = MYC_S_ROWS;
    } else
        c->state = MYC_S_COLS;
    return B_AGAIN;
}

/* A row, or the end of a result set (EOF, or OK as EOF). */
static int myc_res_row(struct my_conn *c, const u8 *p, size_t n)
{
    struct myc_result *res = c->res;
    struct my_str sv[MYC_MAX_ROW_COLS];
    struct my_val vv[MYC_MAX_ROW_COLS];
    if (n && p[0] == 0xFF)
        return myc_server_error(c, p, n);
    if (my_is_eof(p, n)) {
        u16 w = 0, sf = 0;
        if (c->caps & MY_CAP_DEPRECATE_EOF) {
            struct my_ok_pkt ok;
            if (my_parse_ok(p, n, &ok) < 0)
                return b_seterr(&c->err, B_PROTOCOL, 0, "malformed end of result "
                                "from %s", c->target);
            w = ok.warnings, sf = ok.status;
        } else if (my_parse_eof(p, n, &w, &sf) < 0)
            return b_seterr(&c->err, B_PROTOCOL, 0, "malformed EOF from %s", c->target);
        res->warnings = w;
        res->status = sf;
        c->state = MYC_S_FIRST;
        return sf & MY_SERVER_MORE_RESULTS ? B_AGAIN : B_OK;
    }
    res->rows++;
    if (!c->tcb && !c->bcb)
        return B_AGAIN; /* counting only: no decoding */
    if (c->ncols > MYC_MAX_ROW_COLS)
        return b_seterr(&c->err, B_UNSUPPORTED, 0, "rows of %llu columns",
                        (unsigned long long)c->ncols);
    if (!c->st) {
        if (my_parse_text_row(p, n, c->ncols, sv) < 0)
            return b_seterr(&c->err, B_PROTOCOL, 0, "malformed row from %s", c->target);
        if (c->tcb(c->cb_ctx, res, sv) < 0)
            return B_INVALID;
    } else {
        const struct my_coldef *cd = c->ncols == c->st->ncols ? c->st->coldefs : c->cd;
        if (my_parse_binary_row(p, n, c->ncols, cd, vv) < 0)
            return b_seterr(&c->err, B_PROTOCOL, 0, "malformed binary row from %s", c->target);
        if (c->bcb && c->bcb(c->cb_ctx, res, vv) < 0)
            return B_INVALID;
    }
    return B_AGAIN;
}

/*
 * The response to COM_QUERY or COM_STMT_EXECUTE: OK, ERR, or result sets; text rows (query)
 * or binary rows (execute: the types from the definitions, or PREPARE's when the server
 * skips them), repeated while the server says more results exist.
 */
static int myc_results_state(struct my_conn *c)
{
    const u8 *p;
    size_t n;
    int rc;
    for (;;) {
        if ((rc = myc_read_buffered(c, &p, &n)) < 0)
            return rc;
        switch (c->state) {
        case MYC_S_FIRST:
            rc = myc_res_first(c, p, n);
            break;
        case MYC_S_COLS: {
            struct my_coldef d;
            if (my_parse_coldef(p, n, false, &d) < 0)
                return b_seterr(&c->err, B_PROTOCOL, 0, "malformed column definition %zu "
                                "from %s", c->col_i, c->target);
            myc_col_copy(&c->res->cols[c->col_i], &d);
            if (c->st && c->ncols == c->st->ncols) {
                /* the statement's cache: with MARIADB_CLIENT_CACHE_METADATA the server skips
                 * the definitions while they match the ones it sent last, which may be an
                 * execute's, not PREPARE's (SELECT ? + 1: DOUBLE at PREPARE, BIGINT after) */
                myc_col_copy(&c->st->cols[c->col_i], &d);
                c->st->coldefs[c->col_i] = d;
                memset(&c->st->coldefs[c->col_i].schema, 0, 5 * sizeof(struct my_str));
            } else if (c->st && c->col_i < MYC_MAX_ROW_COLS) { /* only the types are used */
                if (!c->cd)
                    c->cd = b_xcalloc(MYC_MAX_ROW_COLS, sizeof(*c->cd));
                c->cd[c->col_i] = d;
                memset(&c->cd[c->col_i].schema, 0, 5 * sizeof(struct my_str));
            }
            if (++c->col_i == c->ncols)
                c->state = c->caps & MY_CAP_DEPRECATE_EOF ? MYC_S_ROWS : MYC_S_COLS_EOF;
            rc = B_AGAIN;
            break;
        }
        case MYC_S_COLS_EOF: {
            u16 w, s2;
            if (my_parse_eof(p, n, &w, &s2) < 0)
                return b_seterr(&c->err, B_PROTOCOL, 0, "missing EOF after columns from %s",
                                c->target);
            c->state = MYC_S_ROWS;
            rc = B_AGAIN;
            break;
        }
        default:
            rc = myc_res_row(c, p, n);
            break;
        }
        if (rc != B_AGAIN)
            return rc;
        if (c->out_off < c->out.len)
            return MYC_NEXT; /* the refusal of a LOCAL INFILE goes first */
    }
}

/* The response to COM_STMT_PREPARE: PREPARE_OK, the parameters' definitions (skipped),
 * the columns' (kept in st), each group followed by an EOF unless deprecated. */
static int myc_prepare_state(struct my_conn *c)
{
    struct myc_stmt *st = c->st;
    const u8 *p;
    size_t n;
    int rc;
    for (;;) {
        if ((rc = myc_read_buffered(c, &p, &n)) < 0)
            return rc;
        if (c->state == MYC_S_PREP_OK) {
            struct my_prep_ok po;
            if (n && p[0] == 0xFF)
                return myc_server_error(c, p, n);
            if (my_parse_prepare_ok(p, n, &po) < 0)
                return b_seterr(&c->err, B_PROTOCOL, 0, "malformed PREPARE_OK from %s",
                                c->target);
            st->id = po.stmt_id;
            st->nparams = po.nparams;
            st->ncols = po.ncols;
            st->coldefs = b_xcalloc(B_MAX(po.ncols, 1), sizeof(struct my_coldef));
            st->cols = b_xcalloc(B_MAX(po.ncols, 1), sizeof(struct myc_col));
            c->col_i = 0;
        } else if (c->state == MYC_S_PREP_PARAMS_EOF || c->state == MYC_S_PREP_COLS_EOF) {
            u16 w, s;
            if (my_parse_eof(p, n, &w, &s) < 0)
                return b_seterr(&c->err, B_PROTOCOL, 0, "missing EOF from %s", c->target);
            c->col_i = 0;
        } else {
            struct my_coldef d;
            if (my_parse_coldef(p, n, false, &d) < 0)
                return b_seterr(&c->err, B_PROTOCOL, 0, "malformed definition from %s",
                                c->target);
            if (c->state == MYC_S_PREP_COLS) {
                myc_col_copy(&st->cols[c->col_i], &d);
                st->coldefs[c->col_i] = d;
                memset(&st->coldefs[c->col_i].schema, 0, 5 * sizeof(struct my_str));
            }
            c->col_i++;
        }
        /* the next state: the parameters, their EOF, the columns, their EOF, done */
        bool eofs = !(c->caps & MY_CAP_DEPRECATE_EOF);
        if (c->state == MYC_S_PREP_OK)
            c->state = MYC_S_PREP_PARAMS;
        else if (c->state == MYC_S_PREP_PARAMS_EOF)
            c->state = MYC_S_PREP_COLS;
        else if (c->state == MYC_S_PREP_COLS_EOF)
            return B_OK;
        if (c->state == MYC_S_PREP_PARAMS && c->col_i == st->nparams) {
            c->col_i = 0;
            c->state = eofs && st->nparams ? MYC_S_PREP_PARAMS_EOF : MYC_S_PREP_COLS;
        }
        if (c->state == MYC_S_PREP_COLS && c->col_i == st->ncols) {
            if (!eofs || !st->ncols)
                return B_OK;
            c->state = MYC_S_PREP_COLS_EOF;
        }
    }
}

/* The response to a command answered by OK or ERR. */
static int myc_simple_state(struct my_conn *c)
{
    const u8 *p;
    size_t n;
    int rc;
    if ((rc = myc_read_buffered(c, &p, &n)) < 0)
        return rc;
    if (n && p[0] == 0xFF)
        return myc_server_error(c, p, n);
    struct my_ok_pkt ok;
    if (my_parse_ok(p, n, &ok) < 0)
        return b_seterr(&c->err, B_PROTOCOL, 0, "malformed OK from %s", c->target);
    return B_OK;
}

/* ---- the driver ---- */

/* The operation ended with rc: a failed login closes c; a receive buffer grown past
 * MYC_IN_KEEP goes back to its first size. */
static int myc_end(struct my_conn *c, int rc)
{
    u8 op = c->op;
    c->op = MYC_OP_NONE;
    if (op == MYC_OP_CONNECT && rc < 0)
        myc_connect_failed(c);
    if (op == MYC_OP_PREPARE && rc < 0)
        myc_stmt_free(c->st);
    if (c->in_cap > MYC_IN_KEEP && c->in_pos == c->in_len) {
        free(c->in);
        c->in = NULL;
        c->in_pos = c->in_len = c->in_cap = 0;
    }
    return rc;
}

/*
 * myc_step - advance the operation in progress as far as the bytes allow: MYC_WANT_READ or
 * MYC_WANT_WRITE (wait on myc_fd, call again), B_OK (done), B_SERVER (the server's error:
 * c->srv_code etc.; the connection stays usable) or another error (c->err; close c). Past
 * c->deadline_ns: B_TIMEOUT. Nothing in progress: B_OK.
 */
static int myc_step(struct my_conn *c)
{
    int rc;
    unsigned fills = 0;
    c->runnable = false;
    if (c->op == MYC_OP_NONE)
        return B_OK;
    if (c->async && c->deadline_ns && clk_now_ns() >= c->deadline_ns) {
        c->io_rc = B_TIMEOUT;
        return myc_end(c, myc_stopped(c, c->out_off < c->out.len ? "sending to" : c->what));
    }
    for (;;) {
        if (c->out_off < c->out.len && (rc = myc_flush(c)) != B_OK)
            return rc == B_AGAIN ? c->want : myc_end(c, rc);
        switch (c->op) {
        case MYC_OP_CONNECT:
            rc = myc_login_state(c);
            break;
        case MYC_OP_QUERY:
        case MYC_OP_EXECUTE:
            rc = myc_results_state(c);
            break;
        case MYC_OP_PREPARE:
            rc = myc_prepare_state(c);
            break;
        default:
            rc = myc_simple_state(c);
            break;
        }
        if (rc == MYC_NEXT)
            continue;
        if (rc == B_AGAIN) {
            if (c->out_off < c->out.len)
                continue;
            if ((rc = myc_fill(c)) == B_OK) {
                if (c->async && ++fills % MYC_CHECK_READS == 0 && myc_waited(c) != B_AGAIN)
                    return myc_end(c, myc_stopped(c, c->what));
                if (c->async && fills >= MYC_ASYNC_READS) { /* let the loop's others run */
                    c->runnable = true;
                    c->want = MYC_WANT_READ;
                    return MYC_WANT_READ;
                }
                continue;
            }
            if (rc == B_AGAIN)
                return c->want;
        }
        if (rc == MYC_WANT_READ || rc == MYC_WANT_WRITE)
            return rc;
        return myc_end(c, rc);
    }
}

/* myc_runnable - after MYC_WANT_READ: the step stopped on its budget, not on a would-block:
 * step it again soon (no edge may come for bytes already received). */
static bool myc_runnable(const struct my_conn *c)
{
    return c->runnable;
}

/* myc_answered - the current step received bytes (a timeout's hint: slow, or endless) */
static bool myc_answered(const struct my_conn *c)
{
    return c->rcvd > 0;
}

/* The blocking functions' loop: step until the operation ends, waiting where it would
 * block (poll in slices: the deadline, a stop signal). */
static int myc_run(struct my_conn *c, int rc)
{
    if (rc >= 0 && c->op != MYC_OP_NONE)
        rc = myc_step(c);
    while (rc == MYC_WANT_READ || rc == MYC_WANT_WRITE) {
        int w = myc_wait(c, c->fd, rc == MYC_WANT_READ ? POLLIN : POLLOUT);
        if (w == B_SYSERR)
            return myc_end(c, myc_lost(c, c->what, errno));
        if (w != B_OK)
            return myc_end(c, myc_stopped(c, c->what));
        rc = myc_step(c);
    }
    return rc;
}

/* Begin the login (async: no waits). MYC_NEXT/MYC_WANT_* or an error (c closed). */
static int myc_connect_begin(struct my_conn *c, const struct myc_params *p, bool async)
{
    u64 t0 = clk_now_ns();
    myc_init(c, p);
    c->t0 = t0;
    c->async = async;
    c->op = MYC_OP_CONNECT;
    c->what = "connecting to";
    int rc = myc_open_socket(c);
    return rc < 0 ? myc_end(c, rc) : rc;
}

/*
 * myc_connect - connect, greet, TLS as --ssl-mode says, authenticate.
 * Return values: B_OK; B_SYSERR/B_TIMEOUT (socket, c->err), B_SERVER (the server refused:
 * c->srv_code etc.), B_PROTOCOL, B_UNSUPPORTED (TLS, plugin). On failure c is closed.
 */
static int myc_connect(struct my_conn *c, const struct myc_params *p)
{
    return myc_run(c, myc_connect_begin(c, p, false));
}

/* ---- the connect phase: thousands of logins at once ---- */
/*
 * Why a gate: a run with N threads used to open its N logins at the same instant. The
 * server's listen queue holds min(back_log, net.core.somaxconn) connections (MariaDB sizes
 * back_log 50 + max_connections / 5, at most 900), and one accept thread drains it while it
 * creates a thread per connection. Past the queue's size the kernel drops SYNs and, worse,
 * the handshake's final ACK (tcp_abort_on_overflow=0): the client believes it is connected
 * and waits for a greeting the server answers only after SYN-ACK retransmissions (1, 2, 4,
 * 8 s ...), so logins ran past --mysql-connect-timeout ("reading from ... failed: Operation
 * timed out"). The gate keeps at most K logins in flight (K well under any listen queue),
 * so no SYN or ACK is dropped and the server's accept thread sees a steady stream.
 *
 * The rules, for a thread per connection (myc_connect_retry) and for an event loop (which
 * uses myc_gate_try, myc_gate_leave, myc_retryable and myc_backoff_ns without blocking):
 * - at most max logins in flight; a wait at the gate wakes on a freed slot, the gate's
 *   shutdown, a stop signal, and ends with B_TIMEOUT when no login began or ended for
 *   stall_ms (the phase's deadline: it fails when it stops making progress, at any size);
 * - a login that failed on its way (reset, EPIPE, EAGAIN of a full unix socket queue) is
 *   tried again, at most MYC_CONNECT_TRIES times, after an exponential backoff with jitter;
 *   a refused or timed-out one only when this phase has already logged in (the server is
 *   there and is overloaded, not absent); never a server error (1040 too many connections,
 *   1045 access denied), an authentication or TLS failure, or a stop signal;
 * - the first failure that is not retried shuts the gate: every waiter returns at once
 *   with the same error, so the run reports one clear line.
 */
#define MYC_GATE_LOGINS 64        /* default logins in flight (measured: see myc_gate_init) */
#define MYC_CONNECT_TRIES 5       /* attempts of one login on a transient failure */
#define MYC_BACKOFF_MIN_MS 10     /* the first retry's backoff (then doubled per attempt) */
#define MYC_BACKOFF_MAX_MS 1000   /* the backoff's cap */
#define MYC_PROGRESS_MIN 256      /* a progress line when at least this many connect */
#define MYC_PROGRESS_NS 500000000u /* at most one progress line per half second */

struct myc_gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;             /* a slot freed or the gate shut (CLOCK_MONOTONIC) */
    int max;                       /* logins in flight at most */
    int inflight;                  /* logins in flight now */
    int total;                     /* logins of the phase (for progress) */
    int ok;                        /* logins that succeeded */
    u64 stall_ns;                  /* a wait ends when no login began or ended for this long */
    u64 last_ns;                   /* when the last login began or ended */
    int shut_rc;                   /* != 0: the phase failed with this code */
    struct b_err shut_err;         /* why: the first failure not retried */
    u64 progress_ns;               /* the next progress line is due at */
    bool shown;                    /* a progress line was shown (the last ends the line) */
    bool ended;                    /* the final progress line was handed out */
};

/* myc_gate_init - a gate for total logins, at most max (<= 0: MYC_GATE_LOGINS) in flight;
 * a wait fails after stall_ms without a finished login. MYC_GATE_LOGINS = 64, measured with
 * 4,000 connections to MariaDB 10.11 on a 2-core host: 16, 64 and 256 in flight log in at the
 * same rate (the server's accept thread is the limit), 900+ overflow its listen queue. */
static void myc_gate_init(struct myc_gate *g, int max, int total, int stall_ms)
{
    pthread_condattr_t ca;
    memset(g, 0, sizeof(*g));
    g->max = max > 0 ? max : MYC_GATE_LOGINS;
    g->total = total;
    g->stall_ns = (u64)B_MAX(stall_ms, 1) * 1000000u;
    g->last_ns = clk_now_ns();
    g->progress_ns = g->last_ns + MYC_PROGRESS_NS;
    pthread_mutex_init(&g->mu, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&g->cv, &ca);
    pthread_condattr_destroy(&ca);
}

static void myc_gate_free(struct myc_gate *g)
{
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
}

/* Under g->mu: B_OK and a slot taken, B_AGAIN (full), or the shutdown's code. */
static int myc_gate_take(struct myc_gate *g)
{
    if (g->shut_rc)
        return g->shut_rc;
    if (g->inflight >= g->max)
        return B_AGAIN;
    g->inflight++;
    g->last_ns = clk_now_ns(); /* a login began: the stall time counts from here */
    return B_OK;
}

/* myc_gate_try - take a slot without waiting (an event loop): B_OK, B_AGAIN when all are in
 * flight (try again when one leaves), or < 0 when the phase failed (myc_gate_why). */
static int myc_gate_try(struct myc_gate *g)
{
    pthread_mutex_lock(&g->mu);
    int rc = myc_gate_take(g);
    pthread_mutex_unlock(&g->mu);
    return rc;
}

/* myc_gate_enter - wait for a slot: B_OK; B_DONE on a stop signal; B_TIMEOUT when no login
 * began or ended within the stall time (e records it; longer than a login's deadline, so
 * an in-flight login's own failure comes first); the shutdown's code and error (into e). */
static int myc_gate_enter(struct myc_gate *g, struct b_err *e)
{
    if (atomic_load(&b_stop)) /* a login begun now would not be cut by the signal */
        return B_DONE;
    int rc = myc_gate_try(g); /* the fast path: a free slot */
    if (rc == B_OK)
        return rc;
    pthread_mutex_lock(&g->mu);
    while ((rc = myc_gate_take(g)) == B_AGAIN) {
        u64 now = clk_now_ns();
        if (atomic_load(&b_stop)) {
            rc = B_DONE;
            break;
        }
        if (now >= g->last_ns + g->stall_ns) {
            rc = b_seterr(e, B_TIMEOUT, ETIMEDOUT,
                          "no login began or ended within %llu ms while %d were in flight "
                          "(%d of %d connected)",
                          (unsigned long long)(g->stall_ns / 1000000u), g->inflight, g->ok,
                          g->total);
            break;
        }
        u64 wake = B_MIN(g->last_ns + g->stall_ns, now + (u64)MYC_SLICE_MS * 1000000u);
        struct timespec ts = {.tv_sec = (time_t)(wake / 1000000000u),
                              .tv_nsec = (long)(wake % 1000000000u)};
        pthread_cond_timedwait(&g->cv, &g->mu, &ts);
    }
    if (rc < 0 && g->shut_rc == rc && e->rc != B_TIMEOUT) /* shut, not this wait's own end */
        *e = g->shut_err;
    pthread_mutex_unlock(&g->mu);
    return rc;
}

/* myc_gate_leave - a login that held a slot finished with rc (B_OK or its failure; a retry
 * leaves and enters again). */
static void myc_gate_leave(struct myc_gate *g, int rc)
{
    pthread_mutex_lock(&g->mu);
    g->inflight--;
    g->last_ns = clk_now_ns();
    g->ok += rc == B_OK;
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* myc_gate_shut - the phase failed (the first call's rc and e win): waiters return them. */
static void myc_gate_shut(struct myc_gate *g, int rc, const struct b_err *e)
{
    pthread_mutex_lock(&g->mu);
    if (!g->shut_rc) {
        g->shut_rc = rc < 0 ? rc : B_SYSERR;
        g->shut_err = *e;
    }
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* myc_gate_progress - a progress line into line[n] when one is due ("connecting: 2400/4000"):
 * phases of at least MYC_PROGRESS_MIN logins, at most every MYC_PROGRESS_NS, and once at the
 * end (with '\n': the status line is complete) when an earlier one was shown. */
static bool myc_gate_progress(struct myc_gate *g, char *line, size_t n)
{
    bool say = false;
    if (g->total < MYC_PROGRESS_MIN)
        return false;
    pthread_mutex_lock(&g->mu);
    u64 now = clk_now_ns();
    bool end = g->ok >= g->total || g->shut_rc;
    if (!g->ended && (end ? g->shown : now >= g->progress_ns)) {
        say = true;
        g->shown = true;
        g->ended = end;
        g->progress_ns = now + MYC_PROGRESS_NS;
        snprintf(line, n, "connecting: %d/%d%s", g->ok, g->total, end ? "\n" : "");
    }
    pthread_mutex_unlock(&g->mu);
    return say;
}

/* myc_backoff_ns - the wait before attempt+1 (attempt >= 1): MYC_BACKOFF_MIN_MS doubled per
 * attempt up to MYC_BACKOFF_MAX_MS, jittered to [half, whole] of it by *seed (splitmix64), so
 * that logins refused together do not come back together. */
static u64 myc_backoff_ns(unsigned attempt, u64 *seed)
{
    u64 ms = MYC_BACKOFF_MIN_MS;
    for (unsigned i = 1; i < attempt && ms < MYC_BACKOFF_MAX_MS; i++)
        ms *= 2;
    u64 ns = B_MIN(ms, (u64)MYC_BACKOFF_MAX_MS) * 1000000u;
    u64 z = (*seed += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    return ns / 2 + z % (ns / 2 + 1);
}

/* myc_retryable - is the failed login c (rc) worth another attempt? server_seen: a login of
 * this phase succeeded (a refusal or a timeout then means overload, not a wrong address). */
static bool myc_retryable(const struct my_conn *c, int rc, bool server_seen)
{
    if (rc == B_DONE || c->srv_code || (rc != B_SYSERR && rc != B_TIMEOUT))
        return false; /* a signal, the server's ERR, protocol, TLS, authentication */
    switch (c->err.sys_errno) {
    case ECONNRESET:
    case EPIPE:
    case ECONNABORTED:
    case EAGAIN: /* a unix socket's full queue */
        return true;
    case ECONNREFUSED:
    case ETIMEDOUT:
        return server_seen;
    default:
        return false;
    }
}

/* Sleep ns, in slices that look at b_stop and the gate's shutdown: B_OK, B_DONE, or the
 * shutdown's code. */
static int myc_gate_sleep(struct myc_gate *g, u64 ns)
{
    u64 end = clk_now_ns() + ns;
    for (;;) {
        if (atomic_load(&b_stop))
            return B_DONE;
        pthread_mutex_lock(&g->mu);
        int shut = g->shut_rc;
        pthread_mutex_unlock(&g->mu);
        if (shut)
            return shut;
        u64 now = clk_now_ns();
        if (now >= end)
            return B_OK;
        clk_sleep_until(B_MIN(end, now + (u64)MYC_SLICE_MS * 1000000u));
    }
}

/*
 * myc_connect_retry - myc_connect through the gate g: wait for a slot, log in, and on a
 * transient failure (myc_retryable) back off and try again, at most MYC_CONNECT_TRIES times.
 * *tries counts the attempts. Returns B_OK; myc_connect's failures (c->err etc.); when the
 * gate's wait failed or the phase was shut by another login: its code with c->err set (and
 * c->srv_code etc. cleared; after a shutdown c->err is the b_err given to myc_gate_shut,
 * sb text and hint included). A failure that is not retried does not shut the gate: the
 * caller decides (myc_gate_shut), with its own words for the error.
 */
static int myc_connect_retry(struct my_conn *c, const struct myc_params *p, struct myc_gate *g,
                             unsigned *tries, u64 *seed)
{
    int rc;
    *tries = 0;
    for (;;) {
        struct b_err e;
        memset(&e, 0, sizeof(e));
        rc = myc_gate_enter(g, &e);
        if (rc != B_OK) {
            myc_init(c, p);
            c->err = e;
            if (rc == B_DONE) {
                memset(&c->err, 0, sizeof(c->err));
                b_seterr(&c->err, B_DONE, 0, "interrupted by %s while waiting to connect to %s",
                         atomic_load(&b_stop) == SIGTERM ? "SIGTERM" : "SIGINT", c->target);
            }
            return rc;
        }
        ++*tries;
        rc = myc_connect(c, p);
        myc_gate_leave(g, rc);
        pthread_mutex_lock(&g->mu);
        bool seen = g->ok > 0;
        pthread_mutex_unlock(&g->mu);
        if (rc == B_OK || *tries >= MYC_CONNECT_TRIES || !myc_retryable(c, rc, seen))
            return rc;
        int s = myc_gate_sleep(g, myc_backoff_ns(*tries, seed));
        if (s != B_OK)
            return rc; /* a signal or the phase's end: this attempt's failure is the answer */
    }
}

/* Begin a command answered by a response of op's kind (request sent or queued). */
static int myc_op_begin(struct my_conn *c, u8 op, u8 state, u8 cmd, const void *arg,
                        size_t len, bool async)
{
    c->async = async;
    c->op = op;
    c->state = state;
    c->what = "reading from";
    int rc = myc_command(c, cmd, arg, len);
    return rc < 0 ? myc_end(c, rc) : rc;
}

/* A command answered by OK or ERR (ping, init_db, reset connection, stmt reset). */
static int myc_simple(struct my_conn *c, u8 cmd, const void *arg, size_t len)
{
    return myc_run(c, myc_op_begin(c, MYC_OP_SIMPLE, MYC_S_SIMPLE, cmd, arg, len, false));
}

static int myc_ping(struct my_conn *c)
{
    return myc_simple(c, MY_COM_PING, NULL, 0);
}

B_UNUSED /* for the OLTP workloads; tested in tests/t_my_live.c */
static int myc_init_db(struct my_conn *c, const char *db)
{
    return myc_simple(c, MY_COM_INIT_DB, db, strlen(db));
}

B_UNUSED /* for the OLTP workloads; tested in tests/t_my_live.c */
static int myc_reset_connection(struct my_conn *c)
{
    return myc_simple(c, MY_COM_RESET_CONNECTION, NULL, 0);
}

static void myc_results_setup(struct my_conn *c, struct myc_result *res, struct myc_stmt *st,
                              myc_text_cb tcb, myc_bin_cb bcb, void *ctx)
{
    res->rows = 0;
    res->nsets = 0;
    res->ncols = 0;
    c->res = res;
    c->st = st;
    c->tcb = tcb;
    c->bcb = bcb;
    c->cb_ctx = ctx;
}

static int myc_query_begin(struct my_conn *c, const char *sql, size_t len,
                           struct myc_result *res, myc_text_cb cb, void *ctx, bool async)
{
    myc_results_setup(c, res, NULL, cb, NULL, ctx);
    return myc_op_begin(c, MYC_OP_QUERY, MYC_S_FIRST, MY_COM_QUERY, sql, len, async);
}

/* myc_query - COM_QUERY; text rows go to cb (may be NULL: rows are only counted). */
static int myc_query(struct my_conn *c, const char *sql, size_t len, struct myc_result *res,
                     myc_text_cb cb, void *ctx)
{
    return myc_run(c, myc_query_begin(c, sql, len, res, cb, ctx, false));
}

/* Free what myc_prepare allocated. */
static void myc_stmt_free(struct myc_stmt *st)
{
    free(st->coldefs);
    free(st->cols);
    st->coldefs = NULL;
    st->cols = NULL;
}

static int myc_prepare_begin(struct my_conn *c, const char *sql, size_t len,
                             struct myc_stmt *st, bool async)
{
    memset(st, 0, sizeof(*st));
    c->st = st;
    return myc_op_begin(c, MYC_OP_PREPARE, MYC_S_PREP_OK, MY_COM_STMT_PREPARE, sql, len, async);
}

/* myc_prepare - COM_STMT_PREPARE; st keeps the column types for decoding (nothing is kept
 * on failure). */
static int myc_prepare(struct my_conn *c, const char *sql, size_t len, struct myc_stmt *st)
{
    return myc_run(c, myc_prepare_begin(c, sql, len, st, false));
}

/* COM_STMT_EXECUTE with params[nv]: the parameters are what the caller passed; a
 * PREPARE_OK that claimed another count is B_INVALID (nothing is sent). */
static int myc_execute_begin(struct my_conn *c, struct myc_stmt *st, const struct my_val *params,
                             size_t nv, struct myc_result *res, myc_bin_cb cb, void *ctx,
                             bool async)
{
    myc_results_setup(c, res, st, NULL, cb, ctx);
    if (nv != st->nparams)
        return b_seterr(&c->err, B_INVALID, 0, "executing prepared statement %u on %s: the "
                        "server says it takes %u parameters, bench has %zu",
                        st->id, c->target, st->nparams, nv);
    c->async = async;
    c->op = MYC_OP_EXECUTE;
    c->state = MYC_S_FIRST;
    c->what = "reading from";
    c->scratch.len = 0;
    my_build_execute(&c->scratch, st->id, params, nv);
    c->seq = 0;
    myc_deadline(c, c->unbounded ? 0 : c->p->io_timeout_ms);
    int rc = myc_send(c, c->scratch.p, c->scratch.len);
    return rc < 0 ? myc_end(c, rc) : rc;
}

/* myc_execute - COM_STMT_EXECUTE with params[nv]; binary rows go to cb. */
static int myc_execute(struct my_conn *c, struct myc_stmt *st, const struct my_val *params,
                       size_t nv, struct myc_result *res, myc_bin_cb cb, void *ctx)
{
    return myc_run(c, myc_execute_begin(c, st, params, nv, res, cb, ctx, false));
}

static int myc_stmt_close(struct my_conn *c, struct myc_stmt *st)
{
    u8 id[4] = {(u8)st->id, (u8)(st->id >> 8), (u8)(st->id >> 16), (u8)(st->id >> 24)};
    c->async = false;
    int rc = myc_command(c, MY_COM_STMT_CLOSE, id, 4); /* no reply */
    myc_stmt_free(st);
    return rc;
}

B_UNUSED /* for the OLTP workloads; tested in tests/t_my_live.c */
static int myc_stmt_reset(struct my_conn *c, struct myc_stmt *st)
{
    u8 id[4] = {(u8)st->id, (u8)(st->id >> 8), (u8)(st->id >> 16), (u8)(st->id >> 24)};
    return myc_simple(c, MY_COM_STMT_RESET, id, 4);
}

static void myc_result_free(struct myc_result *res)
{
    free(res->cols);
    memset(res, 0, sizeof(*res));
}

/* The cipher suite of a TLS connection, or NULL. */
static const char *myc_cipher(struct my_conn *c)
{
    return c->tls ? mbedtls_ssl_get_ciphersuite(c->ssl) : NULL;
}

/* The TLS version of a TLS connection ("TLSv1.2"), or NULL. */
static const char *myc_tls_version(struct my_conn *c)
{
    return c->tls ? mbedtls_ssl_get_version(c->ssl) : NULL;
}

/* ---- the non-blocking interface (issue 13): the event-loop driver's ---- */
/*
 * Each *_start begins an operation without waiting: the request is framed into c->out and
 * sent as far as the socket takes it. They return MYC_WANT_READ/MYC_WANT_WRITE (wait on
 * myc_fd(c), then myc_step), B_OK when the operation already finished (bytes were buffered),
 * or an error (< 0; the operation did not start; a failed login leaves c closed). Views and
 * buffers passed in (sql, params) may be freed after the call; res, st and ctx must live
 * until the operation ends. No b_stop checks: the loop owns signals; the deadlines are the
 * same as the blocking calls' (c->deadline_ns; myc_step returns B_TIMEOUT past it).
 */
static int myc_async(struct my_conn *c, int rc)
{
    if (rc < 0 || c->op == MYC_OP_NONE)
        return rc;
    if (rc == MYC_WANT_READ || rc == MYC_WANT_WRITE)
        return rc;
    if (rc == MYC_NEXT || c->in_pos < c->in_len || c->out_off < c->out.len ||
        (c->tls && mbedtls_ssl_get_bytes_avail(c->ssl)))
        return myc_step(c);
    return c->want = MYC_WANT_READ;
}

B_UNUSED /* the event-loop driver */
static int myc_connect_start(struct my_conn *c, const struct myc_params *p)
{
    return myc_async(c, myc_connect_begin(c, p, true));
}

B_UNUSED /* the event-loop driver */
static int myc_query_start(struct my_conn *c, const char *sql, size_t len,
                           struct myc_result *res, myc_text_cb cb, void *ctx)
{
    return myc_async(c, myc_query_begin(c, sql, len, res, cb, ctx, true));
}

B_UNUSED /* the event-loop driver */
static int myc_prepare_start(struct my_conn *c, const char *sql, size_t len, struct myc_stmt *st)
{
    return myc_async(c, myc_prepare_begin(c, sql, len, st, true));
}

B_UNUSED /* the event-loop driver */
static int myc_execute_start(struct my_conn *c, struct myc_stmt *st, const struct my_val *params,
                             size_t nv, struct myc_result *res, myc_bin_cb cb, void *ctx)
{
    return myc_async(c, myc_execute_begin(c, st, params, nv, res, cb, ctx, true));
}

/* Begin the login over a transport already connected: a test double over a byte script, or
 * a recorder over a socket the caller connected (fd: the one to wait on, or -1). As
 * myc_connect_start otherwise. */
B_UNUSED /* tests */
static int myc_connect_io_start(struct my_conn *c, const struct myc_params *p,
                                const struct myc_io *io, int fd)
{
    u64 t0 = clk_now_ns();
    myc_init(c, p);
    c->t0 = t0;
    c->async = true;
    c->op = MYC_OP_CONNECT;
    c->io = *io;
    c->fd = fd;
    c->state = MYC_S_GREETING;
    c->login = 1;
    return myc_async(c, MYC_NEXT);
}

/* The socket to wait on (-1 when closed). */
B_UNUSED /* the event-loop driver */
static int myc_fd(const struct my_conn *c)
{
    return c->fd;
}

/* Nothing in progress (a finished or no operation). */
B_UNUSED /* the event-loop driver */
static bool myc_idle(const struct my_conn *c)
{
    return c->op == MYC_OP_NONE;
}

/* ---- from the options: a connection's parameters, and a failed connect in words ---- */
/* They print nothing: a failure fills a struct b_err with both personas' words. */

/* The connection parameters for connection number idx (hosts and ports round-robin). */
struct myc_conn_params {
    struct myc_params p;
    char host[256], socket[PATH_MAX];
};

static int myc_list_item(const char *list, unsigned idx, char *out, size_t n)
{
    unsigned cnt = 1;
    for (const char *q = list; *q; q++)
        cnt += *q == ',';
    idx %= cnt;
    const char *s = list;
    for (unsigned i = 0; i < idx; i++)
        s = strchr(s, ',') + 1;
    size_t l = strcspn(s, ",");
    snprintf(out, n, "%.*s", (int)B_MIN(l, n - 1), s);
    return (int)cnt;
}

/* --mysql-compression-algorithms (the mysql client's --compression-algorithms): zlib turns
 * compression on, uncompressed alone leaves it as --mysql-compression says, zstd without zlib
 * is refused (bench has no zstd). */
/* A connection option that does not parse: a usage error (sysbench's exit code 1). */
static void myc_params_bad(struct b_err *e, const char *hint, const char *fmt, ...)
    B_PRINTF(3, 4);
static void myc_params_bad(struct b_err *e, const char *hint, const char *fmt, ...)
{
    va_list ap;
    e->rc = B_INVALID;
    e->ex = B_EXIT_USAGE;
    e->sb_ex = B_EXIT_FAIL;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
    snprintf(e->hint, sizeof(e->hint), "%s", hint);
}

static int myc_params_compression(const struct bench_opts *o, struct myc_params *p,
                                  struct b_err *e)
{
    const char *s = o->mysql_compression_algorithms;
    bool zlib = false, zstd = false;
    while (s && *s) {
        size_t l = strcspn(s, ",");
        if (l == 4 && !strncasecmp(s, "zlib", 4))
            zlib = true;
        else if (l == 4 && !strncasecmp(s, "zstd", 4))
            zstd = true;
        else if (!(l == 12 && !strncasecmp(s, "uncompressed", 12))) {
            if (e) {
                char v[64];
                my_escape(v, sizeof(v), s, B_MIN(l, (size_t)40));
                myc_params_bad(e, "see 'bench --help'",
                               "--mysql-compression-algorithms: invalid algorithm '%s' "
                               "(expected zlib or uncompressed)", v);
            }
            return B_INVALID;
        }
        s += l + (s[l] == ',');
    }
    if (zstd && !zlib) {
        if (e)
            myc_params_bad(e, "use --mysql-compression-algorithms=zlib (or --compress)",
                           "--mysql-compression-algorithms=%s: zstd compression is not "
                           "supported (bench speaks the zlib compressed protocol)",
                           o->mysql_compression_algorithms);
        return B_UNSUPPORTED;
    }
    p->compress |= zlib;
    return B_OK;
}

static int myc_params_from_opts(const struct bench_opts *o, unsigned idx,
                                struct myc_conn_params *cc, struct b_err *e)
{
    static const char *const modes[] = {"DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA",
                                        "VERIFY_IDENTITY"};
    struct myc_params *p = &cc->p;
    char port[16];
    memset(cc, 0, sizeof(*cc));
    p->ssl_mode = -1;
    if (*o->ssl_mode) {
        for (int i = 0; i < (int)countof(modes); i++)
            if (!strcasecmp(o->ssl_mode, modes[i]))
                p->ssl_mode = i;
        if (p->ssl_mode < 0) {
            if (e)
                myc_params_bad(e, "see 'bench --help'",
                               "--ssl-mode: invalid value '%s' (expected DISABLED, PREFERRED, "
                               "REQUIRED, VERIFY_CA or VERIFY_IDENTITY)",
                               o->ssl_mode);
            return B_INVALID;
        }
    } else if (o->mysql_ssl)
        p->ssl_mode = MYC_SSL_REQUIRED; /* sysbench's --mysql-ssl=on */
    else if (o->mysql_ssl_set || o->sb_behaviour ||
             (!o->tls_preferred && !*o->ssl_ca && !*o->ssl_cert && !*o->ssl_key))
        p->ssl_mode = MYC_SSL_DISABLED; /* --mysql-ssl=off, or sysbench 1.0's default for its
                                           workloads (ping and the one-liner: the mysql
                                           client's PREFERRED; --ssl-ca/-cert/-key ask TLS) */
    myc_list_item(o->mysql_host, idx, cc->host, sizeof(cc->host));
    unsigned nhosts = 1;
    for (const char *q = o->mysql_host; *q; q++)
        nhosts += *q == ',';
    myc_list_item(o->mysql_port, idx / nhosts, port, sizeof(port));
    char *end;
    unsigned long pv = strtoul(port, &end, 10);
    if (*end || !*port || pv == 0 || pv > 65535) {
        if (e)
            myc_params_bad(e, "see 'bench --help'",
                           "--mysql-port: invalid port '%s' (expected 1..65535)", port);
        return B_INVALID;
    }
    p->port = (unsigned)pv;
    if (*o->mysql_socket)
        myc_list_item(o->mysql_socket, idx, cc->socket, sizeof(cc->socket));
    else if (!strcmp(cc->host, "localhost")) {
        /* as the mysql client: localhost means the local server's unix socket */
        static const char *const paths[] = {"/run/mysqld/mysqld.sock",
                                            "/var/run/mysqld/mysqld.sock", "/tmp/mysql.sock"};
        for (size_t i = 0; i < countof(paths); i++)
            if (access(paths[i], F_OK) == 0) {
                snprintf(cc->socket, sizeof(cc->socket), "%s", paths[i]);
                break;
            }
    }
    /* as the mysql client: --ssl-ca means VERIFY_CA unless --ssl-mode asks for less */
    if (*o->ssl_ca && ((p->ssl_mode == -1 && !cc->socket[0]) || p->ssl_mode == MYC_SSL_REQUIRED))
        p->ssl_mode = MYC_SSL_VERIFY_CA;
    p->host = cc->host;
    p->socket = cc->socket[0] ? cc->socket : NULL;
    p->user = o->mysql_user;
    p->password = o->mysql_password;
    p->db = o->mysql_db;
    p->ssl_ca = *o->ssl_ca ? o->ssl_ca : NULL;
    p->ssl_cert = *o->ssl_cert ? o->ssl_cert : NULL;
    p->ssl_key = *o->ssl_key ? o->ssl_key : NULL;
    p->server_pubkey = *o->server_pubkey ? o->server_pubkey : NULL;
    p->connect_timeout_ms = (int)o->mysql_connect_timeout * 1000;
    p->io_timeout_ms = (int)o->mysql_io_timeout * 1000;
    p->max_packet = (size_t)o->max_allowed_packet;
    p->get_server_pubkey = o->get_server_pubkey;
    p->trace = o->debug_proto ? o->proto_trace : NULL; /* cli_ prints the lines */
    p->compress = o->mysql_compression;
    return myc_params_compression(o, p, e);
}

/* The hint for error 2061 (full authentication over plain TCP without a trusted RSA key). */
static const char myc_hint_2061[] =
    "over plain TCP the password goes only to a trusted RSA key: use TLS (--ssl-mode=REQUIRED), "
    "give the key with --server-public-key-path, or trust the server's with "
    "--get-server-public-key";

/* A failed connect, in the words of STYLE 2.6; returns the exit code. */
/* Text into a fixed field, cut at its size (messages quote the server's words). */
static void myc_fmt(char *dst, size_t n, const char *fmt, ...) B_PRINTF(3, 4);
static void myc_fmt(char *dst, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, n, fmt, ap);
    va_end(ap);
}

/* myc_conn_error - a failed connect in the words of STYLE 2.6, into *e: the bench persona's
 * lines (msg may hold two, '\n'-separated: the login and the server's answer) and hint, and
 * sysbench's own FATAL lines. Returns the exit code (the bench persona's; e->sb_ex sysbench's). */
static int myc_conn_error(const char *what, const struct my_conn *c, const struct myc_params *p,
                          struct b_err *e)
{
    double ms = (double)c->connect_ns / 1e6;
    char where[PATH_MAX + 64];
    myc_fmt(where, sizeof(where), "FATAL: unable to connect to MySQL server on %s '%s'%s%.0u, "
             "aborting...\n", p->socket ? "socket" : "host", p->socket ? p->socket : p->host,
             p->socket ? "" : ", port ", p->socket ? 0u : p->port);
    e->rc = c->err.rc ? c->err.rc : B_SYSERR;
    e->sys_errno = c->err.sys_errno;
    e->hint[0] = 0;
    e->sb[0] = 0;
    e->sb_fd = 1;
    e->sb_ex = B_EXIT_FAIL;
    if (c->err.rc == B_DONE) { /* a stop signal: nothing was measured */
        myc_fmt(e->msg, sizeof(e->msg), "%s: %s after %.1f ms", what, c->err.msg, ms);
        return e->ex = B_EXIT_FAIL;
    }
    if (c->srv_code) { /* the server's ERR, or a client error in its numbering (2061) */
        myc_fmt(e->sb, sizeof(e->sb), "%sFATAL: error %u: %s\n", where, c->srv_code,
                 c->srv_msg);
        myc_fmt(e->msg, sizeof(e->msg),
                 "%s: login to %s failed for user '%s' (auth plugin %s, password: %s)\n"
                 "%s: %s: ERROR %u (%s): %s",
                 what, c->target, p->user, c->plugin[0] ? c->plugin : "?",
                 p->password && *p->password ? "yes" : "no", what,
                 c->err.rc == B_SERVER ? "server said" : "client error", c->srv_code,
                 c->sqlstate, c->srv_msg);
        if (c->srv_code == 2061)
            myc_fmt(e->hint, sizeof(e->hint), "%s", myc_hint_2061);
        else if (c->srv_code == 1045)
            myc_fmt(e->hint, sizeof(e->hint), "check --mysql-user/--mysql-password (-u/-p); "
                     "MariaDB also answers 1045 when it requires TLS (try --ssl-mode=REQUIRED)");
        else if (c->srv_code == 1049)
            myc_fmt(e->hint, sizeof(e->hint), "create the database first, or name another "
                     "with --mysql-db (-D)");
        return e->ex = B_EXIT_ENV;
    }
    myc_fmt(e->sb, sizeof(e->sb), "%sFATAL: %s\n", where, c->err.msg);
    if (c->err.sys_errno)
        myc_fmt(e->msg, sizeof(e->msg), "%s: %s (1 attempt, %.1f ms)", what, c->err.msg, ms);
    else
        myc_fmt(e->msg, sizeof(e->msg), "%s: %s", what, c->err.msg);
    if (c->err.sys_errno == ECONNREFUSED)
        myc_fmt(e->hint, sizeof(e->hint), "nothing is listening there; check "
                 "--mysql-host/--mysql-port (-h/-P) or use --mysql-socket (-S)");
    else if (c->err.sys_errno == ETIMEDOUT)
        myc_fmt(e->hint, sizeof(e->hint), "no answer within --mysql-connect-timeout=%d s: a "
                 "firewall, or the wrong host", p->connect_timeout_ms / 1000);
    else if (c->err.sys_errno == ENOENT)
        myc_fmt(e->hint, sizeof(e->hint), "no server socket at that path; check "
                 "--mysql-socket (-S)");
    else if (strstr(c->err.msg, "did not verify"))
        myc_fmt(e->hint, sizeof(e->hint), "give the server's CA with --ssl-ca, or use "
                 "--ssl-mode=REQUIRED to encrypt without verifying");
    return e->ex = B_EXIT_ENV;
}

/*== 11 cpu_, mem_ : CPU and memory workloads ================================*/
/*
 * cpu: sysbench's event is one trial-division prime count up to --cpu-max-prime, with 64-bit
 * integers and a double square root. The count goes to a per-thread sink that the compiler
 * must keep (clang deletes sysbench's loop: sysbench issues #389, #469), so events/s stay
 * comparable with GCC-built sysbench.
 *
 * memory: sysbench 1.0.20 semantics (spec 3.2): one block (global, or one per thread with
 * --memory-scope=local), one event = one pass over it in 8-byte words, events per thread =
 * total/block/threads; --events is ignored. Limitations: like sysbench, a small block measures
 * the L1 cache, not DRAM; `bench memory` keeps those semantics for comparable numbers.
 */

static const struct opt_def opt_cpu[] = {
    OPT("cpu-max-prime", INT, cpu_max_prime, "10000", 1, 1e12, NULL,
        "upper limit for primes generator", "Invalid value of cpu-max-prime: %s.", OPT_F_SBLATE),
};

static int cpu_event(struct load_thread *t)
{
    u64 max = (u64)t->run->o->cpu_max_prime, n = 0;
    for (u64 c = 3; c < max; c++) {
        /* a large --cpu-max-prime makes one event last minutes: look for a stop every 256
         * candidates (at most ~0.1 s of trial division near 1e12) */
        if (!(c & 255) && load_stopping(t->run))
            return B_DONE;
        double s = sqrt((double)c);
        u64 l;
        for (l = 2; (double)l <= s; l++)
            if (c % l == 0)
                break;
        if ((double)l > s)
            n++;
    }
    /* the sink: a relaxed store the optimiser cannot drop */
    atomic_store_explicit(&t->ctr[0], n, memory_order_relaxed);
    return B_OK;
}


static const struct opt_def opt_memory[] = {
    OPT("memory-block-size", SIZE, memory_block_size, "1K", 0, 1ull << 40, NULL,
        "size of memory block for test", "Invalid value for memory-block-size: %s",
        OPT_F_SBLATE),
    OPT("memory-total-size", SIZE, memory_total_size, "100G", 0, 1e19, NULL,
        "total size of data to transfer", NULL, 0),
    OPT("memory-scope", ENUM, memory_scope, "global", 0, 0, "global,local",
        "memory access scope %C", "Invalid value for memory-scope: %s", OPT_F_SBLATE),
    OPT("memory-hugetlb", BOOL, memory_hugetlb, "off", 0, 0, NULL,
        "allocate memory from HugeTLB pool", NULL, 0),
    OPT("memory-oper", ENUM, memory_oper, "write", 0, 0, "read,write,none",
        "type of memory operations {read, write, none}", "Invalid value for memory-oper: %s",
        OPT_F_SBLATE),
    OPT("memory-access-mode", ENUM, memory_access_mode, "seq", 0, 0, "seq,rnd",
        "memory access mode %C", "Invalid value for memory-access-mode: %s", OPT_F_SBLATE),
    OPT("memory-mode", ENUM, memory_mode, "sysbench", 0, 0, "sysbench,stream,latency",
        "what to measure: sysbench's loop, STREAM bandwidth or load latency %C",
        NULL, OPT_F_EXT),
    OPT("memory-passes", INT, memory_passes, "10", 2, 1e6, NULL,
        "passes of each STREAM kernel (stream mode)",
        NULL, OPT_F_EXT),
};

enum { MEM_GLOBAL, MEM_LOCAL };
enum { MEM_READ, MEM_WRITE, MEM_NONE };
enum { MEM_SEQ, MEM_RND };

struct mem_block {
    size_t *p;   /* the block, page-aligned */
    size_t len;  /* bytes */
    int shmid;   /* SysV segment for --memory-hugetlb, else -1 */
};

/*
 * bench's own memory measures (--memory-mode; the default "sysbench" is the test above).
 *
 * stream: McCalpin's STREAM kernels (stream.c 5.10), "STREAM-like" as its run rules ask:
 * copy c = a, scale b = q*c, add c = a + b, triad a = b + q*c over three arrays of doubles,
 * each >= 4x the last-level cache (and at most a quarter of MemAvailable for all three),
 * one slice per thread, touched first by that thread. Each kernel runs --memory-passes
 * times between two barriers of all threads; the best pass counts, the first one excepted
 * (STREAM's rule). Bytes as STREAM counts them: 16 per element for copy and scale, 24 for add
 * and triad; write-allocate traffic is not counted. The arrays are then checked as
 * checkSTREAMresults does. One event per thread: the whole measurement (--time is not a limit).
 *
 * latency: a random cyclic pointer chase, one node per 64-byte cache line, the order a
 * single cycle (Sattolo's algorithm), in working sets from 4 KiB doubling to >= 4x the
 * last-level cache, one thread; each size is timed for >= ~20 ms, best of 3; once on a mapping
 * with MADV_NOHUGEPAGE and once with MADV_HUGEPAGE (what THP granted is read back from
 * /proc/self/smaps). The plateaus are the medians of the points inside each cache level.
 */

enum { MEM_MODE_SB, MEM_MODE_STREAM, MEM_MODE_LATENCY };
enum { MEM_COPY, MEM_SCALE, MEM_ADD, MEM_TRIAD, MEM_NKERNELS };
static const char *const mem_kernel_names[MEM_NKERNELS] = {"copy", "scale", "add", "triad"};
#define MEM_Q 3.0          /* STREAM's scalar */
#define MEM_LINE 64        /* bytes per chase node */

/* Data cache sizes of cpu0 by level (bytes; 0 = none) and where they were read. */
struct mem_caches {
    u64 l1d, l2, l3;
    const char *src; /* "sysfs", "cpuid" or "default" */
};

/* "48K", "1024K", "32M" as sysfs writes cache sizes; 0 if unreadable. */
static u64 mem_parse_cache_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return 0;
    return *end == 'K' ? v << 10 : *end == 'M' ? v << 20 : *end == 'G' ? v << 30 : v;
}

static void mem_cpuid(u32 leaf, u32 sub, u32 r[4])
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
#else
    (void)leaf, (void)sub;
    r[0] = r[1] = r[2] = r[3] = 0;
#endif
}

/* mem_caches - sysfs (cpu0's index*), else CPUID (deterministic cache parameters, leaf 4 or
 * AMD's 0x8000001D; else AMD's 0x80000005/6), else 32 KiB / 1 MiB / 32 MiB. */
static void mem_caches_read(struct mem_caches *c)
{
    memset(c, 0, sizeof(*c));
    for (int i = 0; i < 16; i++) {
        char p[96], type[32];
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        snprintf(type, sizeof(type), "%s", os_read_line(p));
        if (!strcmp(type, "?"))
            break;
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        int level = atoi(os_read_line(p));
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        u64 size = mem_parse_cache_size(os_read_line(p));
        if (!strcmp(type, "Instruction") || !size)
            continue;
        u64 *dst = level == 1 ? &c->l1d : level == 2 ? &c->l2 : level == 3 ? &c->l3 : NULL;
        if (dst)
            *dst = B_MAX(*dst, size);
        c->src = "sysfs";
    }
    if (c->src)
        return;
    u32 r[4];
    mem_cpuid(0, 0, r);
    u32 max = r[0];
    mem_cpuid(0x80000000u, 0, r);
    u32 maxext = r[0];
    u32 leaves[2] = {max >= 4 ? 4u : 0u, maxext >= 0x8000001Du ? 0x8000001Du : 0u};
    for (int l = 0; l < 2 && !c->src; l++)
        for (u32 i = 0; leaves[l] && i < 16; i++) {
            mem_cpuid(leaves[l], i, r);
            u32 type = r[0] & 31, level = (r[0] >> 5) & 7;
            if (!type)
                break;
            u64 size = (u64)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) *
                       ((r[1] & 0xfff) + 1) * ((u64)r[2] + 1);
            if (type == 2) /* instruction */
                continue;
            u64 *dst = level == 1 ? &c->l1d : level == 2 ? &c->l2 : level == 3 ? &c->l3 : NULL;
            if (dst)
                *dst = B_MAX(*dst, size);
            c->src = "cpuid";
        }
    if (!c->src && maxext >= 0x80000006u) { /* AMD's legacy leaves (hypervisors keep them) */
        mem_cpuid(0x80000005u, 0, r);
        c->l1d = (u64)(r[2] >> 24) << 10;
        mem_cpuid(0x80000006u, 0, r);
        c->l2 = (u64)(r[2] >> 16) << 10;
        c->l3 = (u64)(r[3] >> 18) << 19;
        if (c->l1d || c->l2 || c->l3)
            c->src = "cpuid";
    }
    if (!c->src || (!c->l2 && !c->l3)) {
        c->l1d = c->l1d ? c->l1d : 32768;
        c->l2 = 1u << 20;
        c->l3 = 32u << 20;
        c->src = "default";
    }
}

static u64 mem_llc(const struct mem_caches *c)
{
    return c->l3 ? c->l3 : c->l2;
}

/* CPUs this process may run on (sched_getaffinity), at least 1. */
static int mem_usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set))
        return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}

/* MemAvailable from /proc/meminfo in bytes; 0 if unknown. */
static u64 mem_available(void)
{
    char line[256];
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (u64)kb << 10;
}

/* The sysbench default of --memory-total-size: in the bench modes, any other value sets the
 * size (stream: the three arrays together; latency: the largest working set). */
#define MEM_TOTAL_DEFAULT (100ull << 30)

/* A mapping for the bench modes, aligned to 2 MiB (huge pages possible), zero-filled lazily;
 * advice MADV_HUGEPAGE, MADV_NOHUGEPAGE or -1 (none). NULL on failure (errno). */
static void *mem_map(size_t len, int advice, size_t *maplen)
{
    const size_t huge = (size_t)2 << 20;
    size_t l = len + huge;
    char *p = mmap(NULL, l, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *a = (char *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
    if (a > p)
        munmap(p, (size_t)(a - p));
    size_t tail = l - (size_t)(a - p) - len;
    if (tail)
        munmap(a + len, tail);
    *maplen = len;
    if (advice >= 0)
        (void)madvise(a, len, advice);
    return a;
}

/* AnonHugePages of the mapping that starts at p (/proc/self/smaps), bytes; -1 unknown. */
static i64 mem_thp_bytes(const void *p)
{
    char line[256], want[32];
    i64 kb = -1;
    bool in = false;
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    snprintf(want, sizeof(want), "%lx-", (unsigned long)(uintptr_t)p);
    while (fgets(line, sizeof(line), f)) {
        if (isxdigit((unsigned char)line[0]) && strchr(line, '-') && strchr(line, ' ') &&
            strchr(line, '-') < strchr(line, ' ')) {
            if (in)
                break;
            in = !strncmp(line, want, strlen(want));
            continue;
        }
        long long v;
        if (in && sscanf(line, "AnonHugePages: %lld kB", &v) == 1)
            kb = v;
    }
    fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}

/* ---- stream ---- */

/* A spinning barrier for n threads; false (not passed) when the run is stopping. */
struct mem_barrier {
    _Atomic int count, gen;
    int n;
};

static bool mem_barrier_wait(struct mem_barrier *b, const struct load_run *r)
{
    int g = atomic_load(&b->gen);
    if (atomic_fetch_add(&b->count, 1) == b->n - 1) {
        atomic_store(&b->count, 0);
        atomic_fetch_add(&b->gen, 1);
        return true;
    }
    while (atomic_load(&b->gen) == g) {
        if (r && load_stopping(r))
            return false;
        sched_yield();
    }
    return true;
}

/* Bytes one pass of kernel k over n elements counts (STREAM's rule). */
static u64 mem_stream_bytes(int k, u64 n)
{
    return (k == MEM_ADD || k == MEM_TRIAD ? 3 : 2) * sizeof(double) * n;
}

/* Two doubles, any 8-byte alignment (movupd): GCC 12 at -O2 (the "very cheap" cost model)
 * leaves the plain loops scalar, so the kernels say the vectors themselves (SSE2, the
 * x86-64 baseline); a scalar tail does the odd element. */
typedef double mem_v2 __attribute__((vector_size(16), aligned(8)));

/* The kernels over [0, n) of one slice (restrict: no overlap); the barrier after each keeps
 * the stores (the check reads them anyway). */
static void mem_stream_kernel(int k, double *restrict a, double *restrict b, double *restrict c,
                              size_t n)
{
    const double q = MEM_Q;
    const mem_v2 qv = {q, q};
    size_t j = 0, nv = n & ~(size_t)1;
    switch (k) {
    case MEM_COPY:
        for (; j < nv; j += 2)
            *(mem_v2 *)(c + j) = *(const mem_v2 *)(a + j);
        for (; j < n; j++)
            c[j] = a[j];
        break;
    case MEM_SCALE:
        for (; j < nv; j += 2)
            *(mem_v2 *)(b + j) = qv * *(const mem_v2 *)(c + j);
        for (; j < n; j++)
            b[j] = q * c[j];
        break;
    case MEM_ADD:
        for (; j < nv; j += 2)
            *(mem_v2 *)(c + j) = *(const mem_v2 *)(a + j) + *(const mem_v2 *)(b + j);
        for (; j < n; j++)
            c[j] = a[j] + b[j];
        break;
    default:
        for (; j < nv; j += 2)
            *(mem_v2 *)(a + j) = *(const mem_v2 *)(b + j) + qv * *(const mem_v2 *)(c + j);
        for (; j < n; j++)
            a[j] = b[j] + q * c[j];
    }
    __asm__ __volatile__("" ::: "memory");
}

/* STREAM's initial values (a = 1, then doubled, b = 2, c = 0), written by the slice's owner. */
static void mem_stream_init(double *a, double *b, double *c, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        a[j] = 1.0;
        b[j] = 2.0;
        c[j] = 0.0;
    }
    for (size_t j = 0; j < n; j++)
        a[j] *= 2.0;
}

/* checkSTREAMresults: the values after `passes` rounds of the four kernels, and the mean
 * absolute error of each array against them (relative to the expected value) within
 * 1e-13. B_OK, or B_ERR with e filled. */
static int mem_stream_check(const double *a, const double *b, const double *c, size_t n,
                            int passes, struct b_err *e)
{
    double aj = 2.0, bj = 2.0, cj = 0.0, ea = 0, eb = 0, ec = 0;
    for (int k = 0; k < passes; k++) {
        cj = aj;
        bj = MEM_Q * cj;
        cj = aj + bj;
        aj = bj + MEM_Q * cj;
    }
    for (size_t j = 0; j < n; j++) {
        ea += fabs(a[j] - aj);
        eb += fabs(b[j] - bj);
        ec += fabs(c[j] - cj);
    }
    ea /= (double)n, eb /= (double)n, ec /= (double)n;
    if (ea / aj > 1e-13 || eb / bj > 1e-13 || ec / cj > 1e-13)
        return b_seterr(e, B_INVALID, 0,
                        "memory stream: the arrays are wrong after %d passes (mean relative "
                        "errors a %.3g, b %.3g, c %.3g; expected a %g, b %g, c %g): the "
                        "memory or the CPU miscomputes, nothing is reported",
                        passes, ea / aj, eb / bj, ec / cj, aj, bj, cj);
    return B_OK;
}

struct mem_stream {
    size_t n;                     /* elements per array */
    int nthreads, passes;
    double *a, *b, *c;
    size_t maplen[3];
    struct mem_barrier bar;
    double *secs;                 /* [MEM_NKERNELS * passes], thread 0 writes */
    struct mem_caches caches;
};

static int mem_stream_setup(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    struct mem_stream *s = b_xcalloc(1, sizeof(*s));
    r->wl_global = s;
    mem_caches_read(&s->caches);
    u64 each = 4 * mem_llc(&s->caches), avail = mem_available();
    each = B_MAX(each, (u64)64 << 20);
    if (avail && each * 3 > avail / 4)
        each = B_MAX(avail / 12, (u64)1 << 20);
    if (o->memory_total_size != MEM_TOTAL_DEFAULT)
        each = o->memory_total_size / 3;
    s->n = (size_t)(each / sizeof(double));
    s->n = B_MAX(s->n, (size_t)r->nthreads);
    s->nthreads = r->nthreads;
    s->passes = (int)o->memory_passes;
    s->bar.n = r->nthreads;
    s->secs = b_xcalloc((size_t)MEM_NKERNELS * (size_t)s->passes, sizeof(double));
    double **arr[3] = {&s->a, &s->b, &s->c};
    for (int i = 0; i < 3; i++) {
        *arr[i] = mem_map(s->n * sizeof(double), -1, &s->maplen[i]);
        if (!*arr[i])
            return b_seterr(&r->err, B_NOMEM, errno,
                            "memory stream: mapping 3 arrays of %zu bytes failed: %s", 
                            s->n * sizeof(double), strerror(errno));
    }
    return B_OK;
}

static void mem_stream_free(struct mem_stream *s)
{
    double *arr[3] = {s->a, s->b, s->c};
    for (int i = 0; i < 3; i++)
        if (arr[i])
            munmap(arr[i], s->maplen[i]);
    free(s->secs);
    free(s);
}

/* The results into the run's res: facts and a step per kernel (thread 0, after the last
 * barrier). */
static void mem_stream_report(struct load_run *r, struct mem_stream *s)
{
    struct res *res = r->res;
    char key[48];
    res_fact_str(res, "memory_mode", "stream");
    res_fact_int(res, "array_bytes", (i64)(s->n * sizeof(double)));
    res_fact_int(res, "passes", s->passes);
    res_fact_int(res, "threads", s->nthreads);
    res_fact_int(res, "llc_bytes", (i64)mem_llc(&s->caches));
    res_fact_str(res, "cache_sizes_from", "%s", s->caches.src);
    for (int k = 0; k < MEM_NKERNELS; k++) {
        double mn = 1e300, mx = 0, sum = 0;
        for (int p = 1; p < s->passes; p++) { /* the first pass excepted, as STREAM */
            double t = s->secs[k * s->passes + p];
            mn = B_MIN(mn, t), mx = B_MAX(mx, t), sum += t;
        }
        double bytes = (double)mem_stream_bytes(k, s->n);
        double rate = mn > 0 ? bytes / mn / 1e6 : 0;
        snprintf(key, sizeof(key), "stream_%s_mb_per_s", mem_kernel_names[k]);
        res_fact_num(res, key, rate);
        struct res *st = res_step(res, res->w, mem_kernel_names[k]);
        res_fact_num(st, "best_mb_per_s", rate);
        res_fact_num(st, "best_mib_per_s", mn > 0 ? bytes / mn / 1048576.0 : 0);
        res_fact_num(st, "avg_time_s", sum / (s->passes - 1));
        res_fact_num(st, "min_time_s", mn);
        res_fact_num(st, "max_time_s", mx);
        res_fact_int(st, "bytes_per_pass", (i64)bytes);
    }
}

/* One thread's whole STREAM run over its slice. */
static int mem_stream_event(struct load_thread *t)
{
    struct load_run *r = t->run;
    struct mem_stream *s = r->wl_global;
    /* slices start on a cache line (8 doubles): no line is shared by two threads */
    size_t from = (s->n * (size_t)t->id / (size_t)s->nthreads) & ~(size_t)7;
    size_t to = t->id + 1 == s->nthreads ? s->n
                                         : (s->n * (size_t)(t->id + 1) / (size_t)s->nthreads) &
                                               ~(size_t)7;
    size_t n = to - from;
    double *a = s->a + from, *b = s->b + from, *c = s->c + from;
    mem_stream_init(a, b, c, n); /* first touch: the pages land on this thread's node */
    for (int p = 0; p < s->passes; p++)
        for (int k = 0; k < MEM_NKERNELS; k++) {
            if (!mem_barrier_wait(&s->bar, r))
                return B_DONE;
            u64 t0 = clk_now_ns();
            mem_stream_kernel(k, a, b, c, n);
            if (!mem_barrier_wait(&s->bar, r))
                return B_DONE;
            if (t->id == 0)
                s->secs[k * s->passes + p] = (double)(clk_now_ns() - t0) / 1e9;
        }
    if (!mem_barrier_wait(&s->bar, r))
        return B_DONE;
    if (t->id)
        return B_OK;
    int rc = mem_stream_check(s->a, s->b, s->c, s->n, s->passes, &t->err);
    if (rc == B_OK)
        mem_stream_report(r, s);
    return rc;
}

/* ---- latency ---- */

/* Sattolo's algorithm: perm becomes one cycle through all n entries (perm[i] = next of i). */
static void mem_sattolo(u32 *perm, size_t n, struct rnd *rng)
{
    for (size_t i = 0; i < n; i++)
        perm[i] = (u32)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(rnd_next(rng) % i); /* j < i: never itself, hence one cycle */
        u32 x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
}

/* Link the first `size` bytes of buf into the chase: one node per line, cycle order perm. */
static void mem_chase_link(char *buf, size_t size, u32 *perm, struct rnd *rng)
{
    size_t n = size / MEM_LINE;
    mem_sattolo(perm, n, rng);
    for (size_t i = 0; i < n; i++) {
        void *next = buf + (size_t)perm[i] * MEM_LINE; /* memcpy: buf is char * (-Wcast-align) */
        memcpy(buf + i * MEM_LINE, &next, sizeof(next));
    }
}

/* Follow the chain from p for `loads` loads (rounded up to 16); the end of the chain. */
static void *mem_chase(void *p, u64 loads)
{
    for (u64 i = 0; i < loads; i += 16) {
#pragma GCC unroll 16
        for (int k = 0; k < 16; k++)
            p = *(void **)p;
    }
    __asm__ __volatile__("" : : "r"(p) : "memory"); /* the loads are used */
    return p;
}

/* ns per load over the first `size` bytes (linked): >= ~20 ms of loads, best of 3. */
static double mem_chase_ns(char *buf, u64 loads_min, double min_s)
{
    void *p = buf;
    u64 loads = 4096, t0 = clk_now_ns();
    p = mem_chase(p, loads);
    double s = (double)(clk_now_ns() - t0) / 1e9;
    while (s < min_s / 8) { /* calibrate */
        loads *= 4;
        t0 = clk_now_ns();
        p = mem_chase(p, loads);
        s = (double)(clk_now_ns() - t0) / 1e9;
    }
    loads = B_MAX(loads_min, (u64)((double)loads * min_s / s) + 16);
    double best = 1e300;
    for (int k = 0; k < 3; k++) {
        t0 = clk_now_ns();
        p = mem_chase(p, loads);
        best = B_MIN(best, (double)(clk_now_ns() - t0) / (double)loads);
    }
    return best;
}

/* The median of v[0..n) (sorted in place); 0 when empty. */
static double mem_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MEM_LAT_MAX 40 /* sizes: 4 KiB * 2^39 is far beyond any memory */

struct mem_lat {
    struct mem_caches caches;
    size_t max;                /* largest working set */
    int nsizes;
    double ns[2][MEM_LAT_MAX]; /* [0] 4 KiB pages (MADV_NOHUGEPAGE), [1] MADV_HUGEPAGE */
    i64 thp_bytes[2];          /* AnonHugePages of each mapping, -1 unknown */
};

/* The plateaus: the median of the sizes inside each level (L1: <= L1d; L2: (L1d, L2];
 * L3: (L2, L3]; DRAM: >= 2x the last level), into out[4] (0 = no point). */
static void mem_lat_plateaus(const struct mem_lat *m, int v, double out[4])
{
    const struct mem_caches *c = &m->caches;
    u64 lim[4] = {c->l1d, c->l2, c->l3, UINT64_MAX};
    for (int lv = 0; lv < 4; lv++) {
        double pts[MEM_LAT_MAX];
        int n = 0;
        u64 lo = lv == 0 ? 0 : lv == 3 ? 2 * mem_llc(c) : lim[lv - 1];
        for (int i = 0; i < m->nsizes; i++) {
            u64 sz = (u64)4096 << i;
            if (lv < 3 && !lim[lv])
                break;
            if (sz > lo - (lv == 3 ? 1 : 0) && sz <= lim[lv])
                pts[n++] = m->ns[v][i];
        }
        out[lv] = mem_median(pts, n);
    }
}

static int mem_lat_event(struct load_thread *t)
{
    struct load_run *r = t->run;
    struct mem_lat *m = r->wl_global;
    struct res *res = r->res;
    u32 *perm = malloc((m->max / MEM_LINE) * sizeof(u32));
    if (!perm)
        return b_seterr(&t->err, B_NOMEM, ENOMEM, "memory latency: no memory for %zu nodes",
                        m->max / MEM_LINE);
    double min_s = r->o->mem_lat_min_s > 0 ? r->o->mem_lat_min_s : 0.02;
    m->thp_bytes[1] = -1; /* unknown until its pass ran */
    for (int v = 0; v < (r->o->mem_lat_nothp ? 1 : 2); v++) {
        size_t maplen;
        char *buf = mem_map(m->max, v ? MADV_HUGEPAGE : MADV_NOHUGEPAGE, &maplen);
        if (!buf) {
            free(perm);
            return b_seterr(&t->err, B_NOMEM, errno,
                            "memory latency: mapping %zu bytes failed: %s", m->max,
                            strerror(errno));
        }
        memset(buf, 0, m->max); /* fault the pages in (huge ones where THP grants them) */
        m->thp_bytes[v] = mem_thp_bytes(buf);
        for (int i = 0; i < m->nsizes; i++) {
            size_t size = (size_t)4096 << i;
            if (load_stopping(r)) {
                munmap(buf, maplen);
                free(perm);
                return B_DONE;
            }
            mem_chase_link(buf, size, perm, &t->rng);
            m->ns[v][i] = mem_chase_ns(buf, size / MEM_LINE, min_s);
        }
        munmap(buf, maplen);
    }
    free(perm);
    res_fact_str(res, "memory_mode", "latency");
    res_fact_int(res, "l1d_bytes", (i64)m->caches.l1d);
    res_fact_int(res, "l2_bytes", (i64)m->caches.l2);
    res_fact_int(res, "l3_bytes", (i64)m->caches.l3);
    res_fact_str(res, "cache_sizes_from", "%s", m->caches.src);
    res_fact_int(res, "max_size_bytes", (i64)m->max);
    res_fact_str(res, "thp_enabled", "%s",
                 os_read_line("/sys/kernel/mm/transparent_hugepage/enabled"));
    res_fact_int(res, "thp_granted_bytes", m->thp_bytes[1]);
    res_fact_int(res, "thp_nohuge_granted_bytes", m->thp_bytes[0]);
    static const char *const lvn[4] = {"l1", "l2", "l3", "dram"};
    for (int v = 0; v < 2; v++) {
        double pl[4];
        char key[48];
        mem_lat_plateaus(m, v, pl);
        for (int lv = 0; lv < 4; lv++) {
            snprintf(key, sizeof(key), "latency_%s_ns%s", lvn[lv], v ? "_thp" : "");
            if (pl[lv] > 0)
                res_fact_num(res, key, pl[lv]);
        }
    }
    for (int i = 0; i < m->nsizes; i++) {
        struct res *st = res_step(res, res->w, "size");
        res_fact_int(st, "size_bytes", (i64)((u64)4096 << i));
        res_fact_num(st, "ns_per_load", m->ns[0][i]);
        if (!r->o->mem_lat_nothp)
            res_fact_num(st, "ns_per_load_thp", m->ns[1][i]);
    }
    return B_OK;
}

static int mem_lat_setup(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    struct mem_lat *m = b_xcalloc(1, sizeof(*m));
    r->wl_global = m;
    mem_caches_read(&m->caches);
    u64 want = o->memory_total_size != MEM_TOTAL_DEFAULT ? o->memory_total_size
                                                         : 4 * mem_llc(&m->caches);
    u64 avail = mem_available();
    if (o->memory_total_size == MEM_TOTAL_DEFAULT && avail && want > avail / 4)
        want = avail / 4; /* the largest size is then the last that fits */
    m->nsizes = 1;
    while (m->nsizes < MEM_LAT_MAX && ((u64)4096 << (m->nsizes - 1)) < want)
        m->nsizes++;
    if (((u64)4096 << (m->nsizes - 1)) > want && m->nsizes > 1 &&
        o->memory_total_size == MEM_TOTAL_DEFAULT && avail && want == avail / 4)
        m->nsizes--;
    m->max = (size_t)4096 << (m->nsizes - 1);
    return B_OK;
}

/* The bench modes' hooks, called from the memory test's (mode != sysbench). */
static int mem_mode_check(struct bench_opts *o, struct b_err *e)
{
    if (o->warmup_time || o->forced_s >= 0)
        return b_fail(e, B_EXIT_USAGE, "memory: --%s does not apply to --memory-mode=%s (it "
                                       "measures once, to the end)",
                      o->warmup_time ? "warmup-time" : "forced-shutdown",
                      o->memory_mode == MEM_MODE_STREAM ? "stream" : "latency");
    if (o->memory_mode == MEM_MODE_STREAM && o->threads == 1)
        o->threads = mem_usable_cpus(); /* the default: all usable CPUs (taskset for fewer) */
    if (o->memory_mode == MEM_MODE_LATENCY && o->threads != 1)
        return b_fail(e, B_EXIT_USAGE, "memory: --memory-mode=latency runs one thread, not "
                                       "--threads=%lld", (long long)o->threads);
    if (o->memory_total_size != MEM_TOTAL_DEFAULT &&
        o->memory_total_size < (o->memory_mode == MEM_MODE_STREAM ? 3 * 4096u : 4096u))
        return b_fail(e, B_EXIT_USAGE,
                      "memory: --memory-total-size=%llu is too small for --memory-mode=%s",
                      (unsigned long long)o->memory_total_size,
                      o->memory_mode == MEM_MODE_STREAM ? "stream" : "latency");
    return B_EXIT_OK;
}

static int mem_mode_init(struct load_run *r)
{
    for (int i = 0; i < r->nthreads; i++)
        r->thr[i].limit = 1; /* one event per thread: the whole measurement */
    r->event_limit = 0;
    return r->o->memory_mode == MEM_MODE_STREAM ? mem_stream_setup(r) : mem_lat_setup(r);
}

static void mem_mode_done(struct load_run *r)
{
    if (!r->wl_global)
        return;
    if (r->o->memory_mode == MEM_MODE_STREAM)
        mem_stream_free(r->wl_global);
    else
        free(r->wl_global);
    r->wl_global = NULL;
}

static int mem_check(struct bench_opts *o, struct b_err *err)
{
    if (o->memory_mode != MEM_MODE_SB)
        return mem_mode_check(o, err);
    u64 bs = o->memory_block_size;
    if (bs < sizeof(size_t) || (bs & (bs - 1))) {
        b_fail(err, B_EXIT_USAGE,
               "memory: --memory-block-size=%llu: not a power of two of at least %zu bytes",
               (unsigned long long)bs, sizeof(size_t));
        b_hint(err, "use a size such as 1K, 4K, 1M or 64M");
        b_fail_sb(err, 1, B_EXIT_FAIL, "FATAL: Invalid value for memory-block-size: %llu\n",
                  (unsigned long long)bs);
        return B_EXIT_USAGE;
    }
    return B_EXIT_OK;
}

static void mem_release(struct mem_block *m)
{
    if (!m->p)
        return;
    if (m->shmid >= 0)
        shmdt(m->p);
    else
        free(m->p);
    m->p = NULL;
}

/* Zero a new block (sysbench does), 4 MiB at a time: a 16 GiB block takes seconds or
 * minutes (page faults), and a signal stops it within milliseconds; the block is then
 * released. */
static int mem_zero(struct mem_block *m, struct b_err *e)
{
    const size_t step = (size_t)4 << 20;
    for (size_t off = 0; off < m->len; off += step) {
        if (atomic_load(&b_stop)) {
            char done[32], all[32];
            unit_fmt_size(off, done, sizeof(done));
            unit_fmt_size(m->len, all, sizeof(all));
            mem_release(m);
            return b_seterr(e, B_INTR, 0,
                            "zeroing the %s memory block: interrupted by %s after %s; "
                            "nothing was measured",
                            all, os_stop_signame(), done);
        }
        memset((char *)m->p + off, 0, B_MIN(step, m->len - off));
    }
    return B_OK;
}

static int mem_alloc(struct mem_block *m, size_t len, bool huge, struct b_err *e)
{
    m->len = len;
    m->shmid = -1;
    if (huge) {
        size_t hl = (len + (4u << 20) - 1) & ~(size_t)((4u << 20) - 1);
        m->shmid = shmget(IPC_PRIVATE, hl, SHM_HUGETLB | IPC_CREAT | SHM_R | SHM_W);
        if (m->shmid < 0) {
            int err = errno;
            if (e)
                snprintf(e->hint, sizeof(e->hint),
                         "reserve huge pages first (sysctl vm.nr_hugepages=N; now %s) or drop "
                         "--memory-hugetlb",
                         os_read_line("/proc/sys/vm/nr_hugepages"));
            return b_seterr(e, B_SYSERR, err,
                            "allocating the %zu-byte block from the HugeTLB pool: "
                            "shmget(SHM_HUGETLB, %zu bytes) failed: %s (%s)",
                            len, hl, strerror(err), b_errno_name(err));
        }
        void *p = shmat(m->shmid, NULL, 0);
        shmctl(m->shmid, IPC_RMID, NULL); /* freed when detached, even if we crash */
        if (p == (void *)-1)
            return b_seterr(e, B_SYSERR, errno, "shmat of the HugeTLB segment failed: %s (%s)",
                            strerror(errno), b_errno_name(errno));
        m->p = p;
        return mem_zero(m, e);
    }
    void *p = NULL;
    int rc = posix_memalign(&p, 4096, len);
    if (rc)
        return b_seterr(e, B_NOMEM, rc, "allocating a %zu-byte memory block failed: %s", len,
                        strerror(rc));
    m->p = p;
    return mem_zero(m, e);
}

static int mem_init(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    if (o->memory_mode != MEM_MODE_SB)
        return mem_mode_init(r);
    if (o->memory_total_size) /* integer division drops the remainder (sysbench issue #545) */
        for (int i = 0; i < r->nthreads; i++)
            r->thr[i].limit = o->memory_total_size / o->memory_block_size / (u64)r->nthreads;
    r->event_limit = 0; /* sysbench: memory ignores --events */
    r->sb_bookkeeping = true;
    if (o->memory_scope == MEM_GLOBAL) {
        struct mem_block *m = b_xcalloc(1, sizeof(*m));
        r->wl_global = m;
        return mem_alloc(m, (size_t)o->memory_block_size, o->memory_hugetlb, &r->err);
    }
    return B_OK;
}

static int mem_thread_init(struct load_thread *t)
{
    const struct bench_opts *o = t->run->o;
    if (o->memory_mode != MEM_MODE_SB)
        return B_OK;
    if (o->memory_scope == MEM_LOCAL) {
        struct mem_block *m = b_xcalloc(1, sizeof(*m));
        t->wl = m;
        return mem_alloc(m, (size_t)o->memory_block_size, o->memory_hugetlb, &t->err);
    }
    t->wl = t->run->wl_global;
    return B_OK;
}

/*
 * sysbench's word access: ConcurrencyKit's ck_pr_load_64/ck_pr_store_64, one movq each with
 * a compiler barrier, so that no access is vectorised, merged or dropped. The seq loops are
 * unrolled 8 times as in Debian's build (-O2 -funroll-loops: check with objdump -d).
 */
static inline size_t mem_ld(const size_t *p)
{
    size_t v;
    __asm__ __volatile__("movq %1, %0" : "=r"(v) : "m"(*p) : "memory");
    return v;
}

static inline void mem_st(size_t *p, size_t v)
{
    __asm__ __volatile__("movq %1, %0" : "=m"(*p) : "r"(v) : "memory");
}

/* a word offset drawn as sysbench does: uniform double x block words, truncated */
static inline size_t mem_rnd_word(struct rnd *rng, size_t words)
{
    return (size_t)(rnd_double(rng) * (double)words);
}

/* Words [from, to) (byte offsets) of one pass, as sysbench 1.0.20's event_{seq,rnd}_{read,
 * write,none} (sb_memory.c). The values read are discarded, as there. */
static void mem_pass(struct load_thread *t, size_t from, size_t to)
{
    const struct bench_opts *o = t->run->o;
    struct mem_block *m = t->wl;
    if (o->memory_access_mode == MEM_SEQ) {
        size_t *p = m->p + from / sizeof(size_t), *stop = m->p + to / sizeof(size_t);
        size_t *end = m->p + m->len / sizeof(size_t);
        switch (o->memory_oper) {
        case MEM_WRITE:
#pragma GCC unroll 8
            for (; p < stop; p++)
                mem_st(p, (size_t)(end - p));
            break;
        case MEM_READ:
#pragma GCC unroll 8
            for (; p < stop; p++)
                (void)mem_ld(p);
            break;
        default:
#pragma GCC unroll 8
            for (; p < stop; p++)
                __asm__ __volatile__("" ::: "memory");
        }
        return;
    }
    /* like sysbench, the block and its size are read again for every word */
    switch (o->memory_oper) {
    case MEM_WRITE:
        for (size_t i = from; i < to; i += sizeof(size_t))
            mem_st(m->p + mem_rnd_word(&t->rng, m->len / sizeof(size_t)), i);
        break;
    case MEM_READ:
        for (size_t i = from; i < to; i += sizeof(size_t))
            (void)mem_ld(m->p + mem_rnd_word(&t->rng, m->len / sizeof(size_t)));
        break;
    default:
        for (size_t i = from; i < to; i += sizeof(size_t)) {
            volatile size_t k = mem_rnd_word(&t->rng, m->len / sizeof(size_t));
            (void)k;
        }
    }
}

/* One event: one pass over the block, 1 MiB at a time so that a signal stops a pass over a
 * block of gigabytes within milliseconds (the pass is then not counted). */
static int mem_event(struct load_thread *t)
{
    if (t->run->o->memory_mode != MEM_MODE_SB)
        return t->run->o->memory_mode == MEM_MODE_STREAM ? mem_stream_event(t) : mem_lat_event(t);
    const size_t step = (size_t)1 << 20, len = ((struct mem_block *)t->wl)->len;
    for (size_t off = 0; off < len; off += step) {
        if (off && load_stopping(t->run))
            return B_DONE;
        mem_pass(t, off, B_MIN(len, off + step));
    }
    return B_OK;
}

static void mem_thread_done(struct load_thread *t)
{
    if (t->run->o->memory_mode == MEM_MODE_SB && t->run->o->memory_scope == MEM_LOCAL && t->wl) {
        mem_release(t->wl);
        free(t->wl);
        t->wl = NULL;
    }
}

static void mem_done(struct load_run *r)
{
    if (r->o->memory_mode != MEM_MODE_SB) {
        mem_mode_done(r);
        return;
    }
    if (r->wl_global) {
        mem_release(r->wl_global);
        free(r->wl_global);
        r->wl_global = NULL;
    }
}




/*== 12 thr_ : threads and mutex workloads ===================================*/
/*
 * threads: --thread-locks mutexes shared by all threads (a total, despite sysbench's help
 * text); each event takes mutex (counter++ mod locks) and does --thread-yields rounds of
 * lock, sched_yield(), unlock. mutex: exactly one event per thread, which does --mutex-locks
 * rounds of: pick a random mutex, spin --mutex-loops empty iterations outside it, lock,
 * bump a shared counter, unlock (spec 3.3, 3.4).
 */

static const struct opt_def opt_threads[] = {
    OPT("thread-yields", INT, thread_yields, "1000", 0, 1e12, NULL,
        "number of yields to do per request", NULL, 0),
    OPT("thread-locks", INT, thread_locks, "8", 1, 1e7, NULL, "number of locks per thread", NULL,
        0),
    OPT("threads-mode", ENUM, threads_mode, "sysbench", 0, 0, "sysbench,pingpong",
        "what to measure: sysbench's loop or the context-switch cost %C",
        NULL, OPT_F_EXT),
    OPT("thread-round-trips", INT, thread_round_trips, "50000", 1, 1e9, NULL,
        "round trips per CPU placement (pingpong mode)", NULL, OPT_F_EXT),
};

static const struct opt_def opt_mutex[] = {
    OPT("mutex-num", INT, mutex_num, "4096", 1, 1e8, NULL, "total size of mutex array", NULL, 0),
    OPT("mutex-locks", INT, mutex_locks, "50000", 0, 1e12, NULL,
        "number of mutex locks to do per thread", NULL, 0),
    OPT("mutex-loops", INT, mutex_loops, "10000", 0, 1e12, NULL,
        "number of empty loops to do outside mutex lock", NULL, 0),
};

struct thr_lock {
    pthread_mutex_t mu;
    char pad[B_CACHELINE];  /* keep neighbours off this cache line */
};

struct thr_shared {
    struct thr_lock *locks;  /* the array */
    size_t n;                /* entries */
    _Atomic u64 next;        /* threads: round-robin lock index */
    _Atomic u64 counter;     /* mutex: bumped under one of many locks, as sysbench does */
};

/* The lock array. --mutex-num=1e8 is 10 GB and seconds of initialisation: a signal stops
 * it within milliseconds, and thr_done then frees what was made. */
static int thr_init_locks(struct load_run *r, size_t n)
{
    struct thr_shared *s;
    void *p = NULL;
    if (posix_memalign(&p, B_CACHELINE, n * sizeof(struct thr_lock)))
        return b_seterr(&r->err, B_NOMEM, ENOMEM, "allocating %zu mutexes failed", n);
    s = b_xcalloc(1, sizeof(*s));
    s->locks = p;
    r->wl_global = s;
    for (; s->n < n; s->n++) {
        if (!(s->n & 65535) && atomic_load(&b_stop))
            return b_seterr(&r->err, B_INTR, 0,
                            "initialising %zu mutexes: interrupted by %s after %zu; nothing "
                            "was measured",
                            n, os_stop_signame(), s->n);
        pthread_mutex_init(&s->locks[s->n].mu, NULL);
    }
    return B_OK;
}

static void thr_done(struct load_run *r)
{
    struct thr_shared *s = r->wl_global;
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        pthread_mutex_destroy(&s->locks[i].mu);
    free(s->locks);
    free(s);
    r->wl_global = NULL;
}

static int thr_threads_init(struct load_run *r)
{
    return thr_init_locks(r, (size_t)r->o->thread_locks);
}

static int thr_threads_event(struct load_thread *t)
{
    struct thr_shared *s = t->run->wl_global;
    size_t k = (size_t)(atomic_fetch_add_explicit(&s->next, 1, memory_order_relaxed) % s->n);
    for (i64 i = 0; i < t->run->o->thread_yields; i++) {
        if (!(i & 1023) && i && load_stopping(t->run)) /* --thread-yields=1e9: minutes */
            return B_DONE;
        pthread_mutex_lock(&s->locks[k].mu);
        sched_yield();
        pthread_mutex_unlock(&s->locks[k].mu);
    }
    return B_OK;
}


static int thr_mutex_init(struct load_run *r)
{
    for (int i = 0; i < r->nthreads; i++)
        r->thr[i].limit = 1; /* one event per thread, whatever --events says */
    r->event_limit = 0;
    return thr_init_locks(r, (size_t)r->o->mutex_num);
}

static int thr_mutex_event(struct load_thread *t)
{
    struct thr_shared *s = t->run->wl_global;
    const struct bench_opts *o = t->run->o;
    /* one event can last minutes (--mutex-locks, --mutex-loops up to 1e12): look for a stop
     * every 256 locks and every 64Ki empty loops */
    for (i64 i = 0; i < o->mutex_locks; i++) {
        size_t k = (size_t)rnd_uniform(&t->rng, 0, (u32)(s->n - 1));
        if (!(i & 255) && i && load_stopping(t->run))
            return B_DONE;
        for (i64 j = 0; j < o->mutex_loops; j += 65536) {
            for (i64 e = B_MIN(o->mutex_loops, j + 65536), x = j; x < e; x++)
                __asm__ __volatile__("" ::: "memory");
            if (j && load_stopping(t->run))
                return B_DONE;
        }
        pthread_mutex_lock(&s->locks[k].mu);
        atomic_store_explicit(&s->counter,
                              atomic_load_explicit(&s->counter, memory_order_relaxed) + 1,
                              memory_order_relaxed);
        pthread_mutex_unlock(&s->locks[k].mu);
    }
    return B_OK;
}


/*
 * threads --threads-mode=pingpong: the cost of a context switch. Two threads hand a token
 * back and forth through a futex word: each waits (FUTEX_WAIT) until the word is its own,
 * then gives it to the other (store, FUTEX_WAKE). A futex rather than a pipe: the hand-off is
 * the kernel's wait/wake path and the switch itself, without a pipe's buffer copies and
 * file locking (lmbench's lat_ctx and stress-ng --switch use pipes: add ~1 us). Both threads
 * belong to one process (no address-space switch). Pinned both to one CPU, every hand-off is
 * a switch on that CPU; pinned to two CPUs, it is a cross-CPU wake-up (IPI, the other CPU
 * leaving idle) instead. ns per switch = round trip / 2. One worker runs the measurement.
 */

enum { THR_MODE_SB, THR_MODE_PINGPONG };

struct thr_pp {
    _Atomic u32 word;        /* whose turn: 0 the first thread, 1 the second */
    u64 trips;               /* round trips */
    u64 count[2];            /* hand-offs each side made (exactly trips each) */
    int cpu[2];              /* where each runs, -1 = not pinned */
    int rc;                  /* pinning failed: errno */
};

static void thr_futex_wait(_Atomic u32 *w, u32 val)
{
    syscall(SYS_futex, (u32 *)w, 128 /* FUTEX_WAIT_PRIVATE */, val, NULL, NULL, 0);
}

static void thr_futex_wake(_Atomic u32 *w)
{
    syscall(SYS_futex, (u32 *)w, 129 /* FUTEX_WAKE_PRIVATE */, 1, NULL, NULL, 0);
}

static int thr_pin(int cpu)
{
    if (cpu < 0)
        return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((size_t)cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
}

/* One side: side 0 starts; each waits for its turn, then passes it on. */
static void thr_pp_side(struct thr_pp *p, u32 side)
{
    for (u64 i = 0; i < p->trips; i++) {
        u32 w;
        while ((w = atomic_load_explicit(&p->word, memory_order_acquire)) != side)
            thr_futex_wait(&p->word, w);
        atomic_store_explicit(&p->word, side ^ 1u, memory_order_release);
        thr_futex_wake(&p->word);
        p->count[side]++;
    }
}

static void *thr_pp_partner(void *arg)
{
    struct thr_pp *p = arg;
    int rc = thr_pin(p->cpu[1]);
    if (rc)
        p->rc = rc;
    thr_pp_side(p, 1);
    return NULL;
}

/* thr_pingpong - `trips` round trips between this thread (on cpu a) and a new one (on cpu
 * b; -1 = anywhere); counts[2] gets the hand-offs of each. ns per switch (round trip / 2),
 * or a negative B_* code (e filled). The calling thread's affinity is restored. */
static double thr_pingpong(int a, int b, u64 trips, u64 counts[2], struct b_err *e)
{
    struct thr_pp p;
    cpu_set_t old;
    pthread_t tid;
    memset(&p, 0, sizeof(p));
    p.trips = trips;
    p.cpu[0] = a, p.cpu[1] = b;
    bool have_old = sched_getaffinity(0, sizeof(old), &old) == 0;
    int rc = thr_pin(a);
    if (rc)
        return b_seterr(e, B_SYSERR, rc, "threads pingpong: pinning to CPU %d failed: %s", a,
                        strerror(rc));
    u64 t0 = clk_now_ns();
    if ((rc = os_thread_start(&tid, 0, thr_pp_partner, &p))) {
        if (have_old)
            sched_setaffinity(0, sizeof(old), &old);
        return b_seterr(e, B_SYSERR, rc, "threads pingpong: creating a thread failed: %s",
                        strerror(rc));
    }
    thr_pp_side(&p, 0);
    u64 t1 = clk_now_ns();
    pthread_join(tid, NULL);
    if (have_old)
        sched_setaffinity(0, sizeof(old), &old);
    counts[0] = p.count[0], counts[1] = p.count[1];
    if (p.rc)
        return b_seterr(e, B_SYSERR, p.rc, "threads pingpong: pinning to CPU %d failed: %s",
                        b, strerror(p.rc));
    return (double)(t1 - t0) / (double)trips / 2.0;
}

static int thr_pp_init(struct load_run *r)
{
    for (int i = 0; i < r->nthreads; i++)
        r->thr[i].limit = 1; /* the worker runs the whole measurement once */
    r->event_limit = 0;
    return B_OK;
}

/* The first two usable CPUs into cpu[2]; how many there are (at most 2). */
static int thr_two_cpus(int cpu[2])
{
    cpu_set_t set;
    int n = 0;
    cpu[0] = cpu[1] = -1;
    if (sched_getaffinity(0, sizeof(set), &set))
        return 0;
    for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
        if (CPU_ISSET((size_t)c, &set))
            cpu[n++] = c;
    return n;
}

static int thr_pp_event(struct load_thread *t)
{
    struct load_run *r = t->run;
    struct res *res = r->res;
    u64 trips = (u64)r->o->thread_round_trips, counts[2];
    int cpu[2], ncpu = thr_two_cpus(cpu);
    static const char *const names[2] = {"same_cpu", "cross_cpu"};
    res_fact_str(res, "threads_mode", "pingpong");
    res_fact_str(res, "method", "futex");
    res_fact_int(res, "round_trips", (i64)trips);
    for (int k = 0; k < 2; k++) {
        if (k == 1 && ncpu < 2) {
            res_warn(res, "one_cpu", "run it where two CPUs are usable",
                     "threads pingpong: one usable CPU: no cross-CPU measure");
            break;
        }
        if (load_stopping(r))
            return B_DONE;
        double ns = thr_pingpong(cpu[0], k ? cpu[1] : cpu[0], trips, counts, &t->err);
        if (ns < 0)
            return (int)ns;
        char key[48];
        snprintf(key, sizeof(key), "%s_ns_per_switch", names[k]);
        res_fact_num(res, key, ns);
        struct res *st = res_step(res, res->w, names[k]);
        res_fact_int(st, "cpu_a", cpu[0]);
        res_fact_int(st, "cpu_b", k ? cpu[1] : cpu[0]);
        res_fact_int(st, "round_trips", (i64)trips);
        res_fact_num(st, "ns_per_round_trip", 2 * ns);
        res_fact_num(st, "ns_per_switch", ns);
    }
    return B_OK;
}

/* The threads test's hooks by mode (sysbench's, or the ping-pong). */
static int thr_threads_check(struct bench_opts *o, struct b_err *e)
{
    if (o->threads_mode == THR_MODE_PINGPONG && (o->warmup_time || o->forced_s >= 0))
        return b_fail(e, B_EXIT_USAGE, "threads: --%s does not apply to --threads-mode=pingpong "
                                       "(it measures once, to the end)",
                      o->warmup_time ? "warmup-time" : "forced-shutdown");
    if (o->threads_mode == THR_MODE_PINGPONG && o->threads != 1)
        return b_fail(e, B_EXIT_USAGE, "threads: --threads-mode=pingpong runs its own two "
                                       "threads, not --threads=%lld", (long long)o->threads);
    return B_EXIT_OK;
}

static int thr_threads_any_init(struct load_run *r)
{
    return r->o->threads_mode == THR_MODE_PINGPONG ? thr_pp_init(r) : thr_threads_init(r);
}

static int thr_threads_any_event(struct load_thread *t)
{
    return t->run->o->threads_mode == THR_MODE_PINGPONG ? thr_pp_event(t) : thr_threads_event(t);
}


/*== 13 load_ : worker threads, limits, --rate, intervals, checkpoints =======*/
/*
 * Each worker owns a struct load_thread: its RNG, counters and latency histogram. Counters
 * are relaxed atomics written only by their owner (a plain store on x86), so the measured
 * loop takes no lock and does no read-modify-write; the reporter sums them at any time.
 * Intervals, checkpoints and the end of --warmup-time are all differences of such sums
 * ("snapshots"), so nothing is ever reset under a running worker except min/max.
 *
 * Limits: --time (a deadline checked before each event), --events (a shared counter, only
 * when set, as sysbench), per-thread limits (memory, mutex), SIGINT.
 *
 * --rate is open loop: arrivals form one Poisson process, drawn lock-free from a shared
 * "next arrival" time (compare-and-swap); a free worker takes the earliest arrival, sleeps
 * until it if early, and its latency is measured from that intended start, so a stall in
 * the server or the host shows up in the percentiles instead of being hidden (coordinated
 * omission). When the backlog exceeds sysbench's queue size the run stops, as sysbench does.
 *
 * The controller (load_run_main) runs in the main thread: it releases the workers, then
 * sleeps until the next interval, checkpoint, end of warmup or forced shutdown, and calls
 * back into the report layer through struct load_hooks.
 */

#define LOAD_QUEUE_MAX 131072 /* sysbench's event queue size */

struct load_hooks {
    void *ctx;
    void (*interval)(void *ctx, struct load_run *r, const struct load_snap *d, double secs,
                     double at_s);
    void (*checkpoint)(void *ctx, struct load_run *r, const struct load_snap *cur, double at_s);
};

static void load_snap_init(struct load_snap *s, int nthreads, int nops)
{
    memset(s, 0, sizeof(*s));
    s->nops = nops;
    s->op_hist = nops ? b_xcalloc((size_t)nops, sizeof(struct hist)) : NULL;
    s->thr_events = b_xcalloc((size_t)nthreads, sizeof(u64));
    s->thr_sum_ns = b_xcalloc((size_t)nthreads, sizeof(u64));
    s->hist = b_xcalloc(1, sizeof(struct hist));
    s->lat_min_ns = UINT64_MAX;
}

static void load_snap_free(struct load_snap *s)
{
    free(s->op_hist);
    free(s->thr_events);
    free(s->thr_sum_ns);
    free(s->hist);
    memset(s, 0, sizeof(*s));
}

/* load_snapshot - sum every thread's counters into *s (allocated by load_snap_init). */
static void load_snapshot(struct load_run *r, struct load_snap *s)
{
    s->t_ns = clk_now_ns();
    s->events = s->lat_sum_ns = s->lat_max_ns = 0;
    s->lat_min_ns = UINT64_MAX;
    s->busy = 0;
    memset(s->ctr, 0, sizeof(s->ctr));
    memset(s->hist, 0, sizeof(*s->hist));
    if (s->nops)
        memset(s->op_hist, 0, (size_t)s->nops * sizeof(struct hist));
    u64 counted = 0; /* values in s->hist so far */
    for (int i = 0; i < r->nthreads; i++) {
        struct load_thread *t = &r->thr[i];
        u64 ev;
        u64 sum = atomic_load_explicit(&t->lat_sum_ns, memory_order_relaxed);
        /* a self-timed thread overlaps its events: its time is what it reports (exec_ns) */
        u64 busy_ns = r->self_timed ? atomic_load_explicit(&t->exec_ns, memory_order_relaxed)
                                    : sum;
        u64 mn = atomic_load_explicit(&t->lat_min_ns, memory_order_relaxed);
        u64 mx = atomic_load_explicit(&t->lat_max_ns, memory_order_relaxed);
        /* the thread's events are what its histogram holds at the one read of it below:
         * a thread recording while the snapshot is taken cannot make the counts and the
         * histogram differ (a checkpoint's window and the final one each add up) */
        if (r->nloops) { /* the loops' histograms are added once, below */
            ev = atomic_load_explicit(&t->events, memory_order_relaxed);
        } else {
            hist_add(s->hist, t->hist);
            u64 now_counted = hist_total(s->hist);
            ev = now_counted - counted;
            counted = now_counted;
        }
        s->thr_events[i] = ev;
        s->thr_sum_ns[i] = busy_ns;
        s->events += ev;
        s->lat_sum_ns += sum;
        s->lat_min_ns = B_MIN(s->lat_min_ns, mn);
        s->lat_max_ns = B_MAX(s->lat_max_ns, mx);
        for (int k = 0; k < LOAD_NCTR; k++)
            s->ctr[k] += atomic_load_explicit(&t->ctr[k], memory_order_relaxed);
        s->busy += atomic_load_explicit(&t->busy, memory_order_relaxed) > 0;
        for (int k = 0; k < s->nops && t->op_hist; k++)
            hist_add(&s->op_hist[k], &t->op_hist[k]);
    }
    if (r->nloops) {
        /* clients of event loops: the events are what the loops' histograms hold (one read
         * each); the clients' own counts (fairness) may trail them by an event in flight */
        for (int l = 0; l < r->nloops; l++)
            hist_add(s->hist, &r->loops[l].hist);
        s->events = hist_total(s->hist);
    }
}

/* load_snap_diff - d = a - b for the additive fields; min/max and busy are a's. */
static void load_snap_diff(struct load_snap *d, const struct load_snap *a,
                           const struct load_snap *b, int nthreads)
{
    d->t_ns = a->t_ns;
    d->events = a->events - b->events;
    d->lat_sum_ns = a->lat_sum_ns - b->lat_sum_ns;
    d->lat_min_ns = a->lat_min_ns;
    d->lat_max_ns = a->lat_max_ns;
    d->busy = a->busy;
    for (int k = 0; k < LOAD_NCTR; k++)
        d->ctr[k] = a->ctr[k] - b->ctr[k];
    for (int i = 0; i < nthreads; i++) {
        d->thr_events[i] = a->thr_events[i] - b->thr_events[i];
        d->thr_sum_ns[i] = a->thr_sum_ns[i] - b->thr_sum_ns[i];
    }
    memset(d->hist, 0, sizeof(*d->hist));
    hist_add(d->hist, a->hist);
    hist_sub(d->hist, b->hist);
    for (int k = 0; k < d->nops; k++) {
        memset(&d->op_hist[k], 0, sizeof(struct hist));
        hist_add(&d->op_hist[k], &a->op_hist[k]);
        hist_sub(&d->op_hist[k], &b->op_hist[k]);
    }
}

static void load_snap_copy(struct load_snap *d, const struct load_snap *a, int nthreads)
{
    u64 *te = d->thr_events, *ts = d->thr_sum_ns;
    struct hist *h = d->hist, *oh = d->op_hist;
    *d = *a;
    d->thr_events = te;
    d->thr_sum_ns = ts;
    d->hist = h;
    d->op_hist = oh;
    if (d->nops)
        memcpy(oh, a->op_hist, (size_t)d->nops * sizeof(struct hist));
    memcpy(te, a->thr_events, (size_t)nthreads * sizeof(u64));
    memcpy(ts, a->thr_sum_ns, (size_t)nthreads * sizeof(u64));
    memcpy(h, a->hist, sizeof(*h));
}

/* load_base_events_zero - clear a base's event statistics (events, latencies, histograms),
 * keeping the workload counters: at the end of warmup every recorded event is measured. */
static void load_base_events_zero(struct load_snap *b, int nthreads)
{
    b->events = b->lat_sum_ns = 0;
    memset(b->thr_events, 0, (size_t)nthreads * sizeof(u64));
    memset(b->thr_sum_ns, 0, (size_t)nthreads * sizeof(u64));
    memset(b->hist, 0, sizeof(*b->hist));
    if (b->nops)
        memset(b->op_hist, 0, (size_t)b->nops * sizeof(struct hist));
}

/* Restart min/max (at checkpoints); an update racing with this may be lost. */
static void load_reset_minmax(struct load_run *r)
{
    for (int i = 0; i < r->nthreads; i++) {
        atomic_store_explicit(&r->thr[i].lat_min_ns, UINT64_MAX, memory_order_relaxed);
        atomic_store_explicit(&r->thr[i].lat_max_ns, 0, memory_order_relaxed);
    }
}

/* The first failure wins: its code, and the worker's error detail, become the run's. */
static void load_fail(struct load_run *r, int rc, const struct b_err *e)
{
    int zero = 0;
    pthread_mutex_lock(&r->mu);
    if (atomic_compare_exchange_strong(&r->failed, &zero, rc) && e && e->msg[0])
        r->err = *e;
    pthread_mutex_unlock(&r->mu);
    atomic_store(&r->stop, 1);
}

static inline void load_record(struct load_thread *t, u64 lat)
{
    t->done++;
    u64 mn = atomic_load_explicit(&t->lat_min_ns, memory_order_relaxed);
    u64 mx = atomic_load_explicit(&t->lat_max_ns, memory_order_relaxed);
    if (lat < mn)
        atomic_store_explicit(&t->lat_min_ns, lat, memory_order_relaxed);
    if (lat > mx)
        atomic_store_explicit(&t->lat_max_ns, lat, memory_order_relaxed);
    atomic_store_explicit(&t->lat_sum_ns,
                          atomic_load_explicit(&t->lat_sum_ns, memory_order_relaxed) + lat,
                          memory_order_relaxed);
    /* the histogram is the count of events too (load_snapshot): one counter, one truth */
    hist_record(t->hist, lat);
    if (t->run->nloops) /* the histogram is its loop's: the client's own count */
        atomic_store_explicit(&t->events,
                              atomic_load_explicit(&t->events, memory_order_relaxed) + 1,
                              memory_order_relaxed);
}

/* Why a worker left its loop (for the INFO lines sysbench prints at verbosity >= 4). */
enum { LOAD_END_NONE, LOAD_END_TIME, LOAD_END_EVENTS };

/* --rate: take the earliest arrival of the run's one Poisson process (lock-free); returns its
 * intended start. Also the event loops' (evl_arrival). */
static u64 load_arrival(struct load_thread *t)
{
    struct load_run *r = t->run;
    u64 old = atomic_load_explicit(&r->next_arrival_ns, memory_order_relaxed), nw;
    do
        nw = old + rnd_exp_gap_ns(&t->rng, r->rate);
    while (!atomic_compare_exchange_weak_explicit(&r->next_arrival_ns, &old, nw,
                                                  memory_order_relaxed, memory_order_relaxed));
    return old;
}

/* --rate: claim the next arrival; returns its intended start, or 0 to stop. */
static u64 load_rate_wait(struct load_thread *t, u64 now)
{
    struct load_run *r = t->run;
    u64 old = load_arrival(t);
    if (old > now) {
        if (r->deadline_ns && old >= r->deadline_ns) {
            /* no arrival before --time is up: wait for the end (as sysbench's workers wait on
             * its queue), so the run lasts --time and not until the last arrival */
            while (now < r->deadline_ns) {
                clk_sleep_until(B_MIN(r->deadline_ns, now + 50000000u));
                if (atomic_load_explicit(&r->stop, memory_order_relaxed) || atomic_load(&b_stop))
                    break;
                now = clk_now_ns();
            }
            return 0;
        }
        while (old > now + 50000000u) { /* sleep in slices so a stop is seen */
            clk_sleep_until(now + 50000000u);
            if (atomic_load_explicit(&r->stop, memory_order_relaxed) || atomic_load(&b_stop))
                return 0;
            now = clk_now_ns();
        }
        clk_sleep_until(old);
    } else if ((double)(now - old) * r->rate / 1e9 > LOAD_QUEUE_MAX) {
        atomic_store(&r->queue_full, 1);
        atomic_store(&r->stop, 1);
        return 0;
    }
    return old;
}

BENCH_API bool load_stopping(const struct load_run *r)
{
    return atomic_load_explicit(&b_stop, memory_order_relaxed) ||
           atomic_load_explicit(&((struct load_run *)r)->stop, memory_order_relaxed);
}

/*
 * load_claim - may thread t start another event now? Checks the stop flags, the per-thread
 * limit, --time and --events (the shared counter, only once warmup is over) and records why
 * not in t->end_why. Workloads that time their own events (self_timed) call it per request.
 */
static bool load_claim(struct load_thread *t, u64 now)
{
    struct load_run *r = t->run;
    if (atomic_load_explicit(&r->stop, memory_order_relaxed) ||
        atomic_load_explicit(&b_stop, memory_order_relaxed) || t->done >= t->limit)
        return false;
    if (r->deadline_ns && now >= r->deadline_ns) {
        t->end_why = LOAD_END_TIME;
        return false;
    }
    if (now < r->t_measure_ns) { /* --warmup-time: not measured, not counted */
        t->warm_claims++;
        return true;
    }
    if (r->event_limit &&
        atomic_fetch_add_explicit(&r->issued, 1, memory_order_relaxed) >= r->event_limit) {
        t->end_why = LOAD_END_EVENTS;
        return false;
    }
    return true;
}

/*
 * load_sb_bookkeeping - what sysbench 1.0.20's event loop does per event on top of what
 * load_worker does (sysbench.c: sb_more_events, sb_event_start, sb_event_stop,
 * sb_histogram_update; read off Debian's binary): a clock read of its own for the --time
 * check, the per-thread timer lock taken and released at the start and at the stop stamp
 * (two xchg), and its latency histogram update: an RNG draw (for a slot), log() and floor()
 * for the bucket, a locked increment. For workloads whose events are so short that this is
 * a large share of them and whose figures must compare with sysbench's: a 1 KiB memory
 * event is about 140 ns of sysbench's bookkeeping and 130 ns of loop; without it, bench's
 * MiB/s was 1.7-1.9x sysbench's on the same host, with it 1.05-1.25x (tests/perf/memory.sh):
 * sysbench's loop still costs ~40 ns more per event (glibc's log(), its calls through
 * function pointers and the PLT), which is not imitated.
 */
static void load_sb_bookkeeping(struct load_thread *t, u64 lat)
{
    /* sysbench's histogram: 1024 buckets, log-scale over 0.001 .. 100000 ms */
    const double lo = log(0.001), mult = 1023.0 / (log(100000.0) - log(0.001));
    (void)clk_now_ns();
    for (int i = 0; i < 2; i++) {
        while (atomic_exchange_explicit(&t->sb_lock, 1, memory_order_acquire))
            ;
        atomic_store_explicit(&t->sb_lock, 0, memory_order_release);
    }
    (void)rnd_next(&t->rng);
    double x = floor((log((double)lat / 1e6) - lo) * mult + 0.5);
    size_t k = x > 0 ? (x < 1023 ? (size_t)x : 1023) : 0;
    atomic_fetch_add_explicit(&t->sb_hist[k], 1, memory_order_relaxed);
}

/* load_record_op - record one event of kind op (for per-operation latency, e.g. fileio). */
static inline void load_record_op(struct load_thread *t, int op, u64 lat)
{
    /* One instant, t_measure_ns, starts the window: an event claimed before it is warmup
     * and never recorded; one claimed at or after it is measured and counts against
     * --events. So exactly --events=N events are reported. (Completions are matched to
     * claims by count: with several requests in flight, the first ones to finish after
     * the instant are dropped.) */
    if (t->warm_claims) {
        t->warm_claims--;
        return;
    }
    if (t->op_hist)
        hist_record(&t->op_hist[op], lat);
    load_record(t, lat);
}

/* A --debug line to the run's sink (res_say's job; res_ comes after this section). */
static void load_debug(const struct load_run *r, const char *fmt, ...) B_PRINTF(2, 3);
static void load_debug(const struct load_run *r, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    if (!r->res || !r->res->sink || !r->res->sink->say)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    r->res->sink->say(r->res->sink->ctx, RES_SAY_DEBUG, line);
}

static void *load_worker(void *arg)
{
    struct load_thread *t = arg;
    struct load_run *r = t->run;
    int rc = B_OK;

    if (r->o->debug)
        load_debug(r, "DEBUG: Worker thread (#%d) started", t->id);
    if (r->w->thread_init)
        rc = r->w->thread_init(t);
    if (rc < 0)
        load_fail(r, rc, &t->err);
    else if (r->o->debug)
        load_debug(r, "DEBUG: Worker thread (#%d) initialized", t->id);

    pthread_mutex_lock(&r->mu);
    atomic_fetch_add(&r->ready, 1);
    pthread_cond_broadcast(&r->cv_done);
    while (!r->go)
        pthread_cond_wait(&r->cv_go, &r->mu);
    pthread_mutex_unlock(&r->mu);

    if (rc == B_OK && r->self_timed) {
        /* the workload runs its own loop (queue depth > 1), calling load_claim and
         * load_record_op per request, and returns B_DONE when its limits are reached */
        rc = r->w->event(t);
        if (rc < 0 && rc != B_DONE)
            load_fail(r, rc, &t->err);
    } else {
        while (rc == B_OK) {
            u64 start = clk_now_ns(), intended = start;
            if (!load_claim(t, start))
                break;
            if (r->rate > 0) {
                if (!(intended = load_rate_wait(t, start)))
                    break;
            }
            atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
            rc = r->w->event(t);
            u64 end = clk_now_ns();
            atomic_store_explicit(&t->busy, 0, memory_order_relaxed);
            if (rc == B_DONE) {
                rc = B_OK;
                break;
            }
            if (rc < 0) {
                load_fail(r, rc, &t->err);
                break;
            }
            load_record_op(t, t->op, end - intended);
            if (r->sb_bookkeeping)
                load_sb_bookkeeping(t, end - intended);
        }
    }
    atomic_store_explicit(&t->busy, 0, memory_order_relaxed);
    if (r->w->thread_done)
        r->w->thread_done(t);

    pthread_mutex_lock(&r->mu);
    atomic_fetch_sub(&r->running, 1);
    pthread_cond_broadcast(&r->cv_done);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/* load_run_init - set up a run of workload w with nthreads workers (nothing started yet). */
static void load_run_init(struct load_run *r, const struct wl_def *w, const struct bench_opts *o)
{
    pthread_condattr_t ca;
    memset(r, 0, sizeof(*r));
    r->w = w;
    r->o = o;
    r->nthreads = (int)o->threads;
    r->event_limit = (u64)o->events;
    r->rate = (double)o->rate;
    r->thr = aligned_alloc(B_CACHELINE, (size_t)r->nthreads * sizeof(struct load_thread));
    if (!r->thr)
        b_die("out of memory allocating %d worker states", r->nthreads);
    memset(r->thr, 0, (size_t)r->nthreads * sizeof(struct load_thread));
    /* a workload that can run its events without blocking (w->ev_start) runs its clients
     * on --event-loops threads, each with one histogram for all its clients */
    if (w->ev_start && o->event_loops > 0)
        r->nloops = (int)B_MIN(o->event_loops, (i64)r->nthreads);
    if (r->nloops) {
        r->loops = aligned_alloc(B_CACHELINE, (size_t)r->nloops * sizeof(struct load_loop));
        if (!r->loops)
            b_die("out of memory allocating %d event loops", r->nloops);
        memset(r->loops, 0, (size_t)r->nloops * sizeof(struct load_loop));
        for (int l = 0; l < r->nloops; l++) { /* clients dealt out evenly, in order */
            struct load_loop *lp = &r->loops[l];
            lp->run = r;
            lp->id = l;
            lp->first = (int)((i64)r->nthreads * l / r->nloops);
            lp->n = (int)((i64)r->nthreads * (l + 1) / r->nloops) - lp->first;
            for (int i = lp->first; i < lp->first + lp->n; i++)
                r->thr[i].hist = &lp->hist;
        }
    }
    for (int i = 0; i < r->nthreads; i++) {
        struct load_thread *t = &r->thr[i];
        t->id = i;
        t->run = r;
        t->ev_fd = -1;
        if (!r->nloops)
            t->hist = b_xcalloc(1, sizeof(struct hist));
        t->limit = UINT64_MAX;
        if (w->nops)
            t->op_hist = b_xcalloc((size_t)w->nops, sizeof(struct hist));
        atomic_store(&t->lat_min_ns, UINT64_MAX);
        rnd_seed(&t->rng); /* in thread order from the one srandom() seed: reproducible */
    }
    pthread_mutex_init(&r->mu, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&r->cv_done, &ca);
    pthread_cond_init(&r->cv_go, NULL);
    pthread_condattr_destroy(&ca);
    load_snap_init(&r->base, r->nthreads, w->nops);
}

static void load_run_free(struct load_run *r)
{
    load_snap_free(&r->base);
    for (int i = 0; r->thr && i < r->nthreads; i++) {
        free(r->thr[i].op_hist);
        free(r->thr[i].sb_hist);
        if (!r->nloops)
            free(r->thr[i].hist);
    }
    free(r->loops);
    r->loops = NULL;
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv_done);
    pthread_cond_destroy(&r->cv_go);
    free(r->thr);
    r->thr = NULL;
}

/* load_join - wait for every worker (thread or event loop) to leave. */
static void load_join(struct load_run *r)
{
    for (int i = 0; i < (r->nloops ? r->nloops : r->nthreads); i++)
        pthread_join(r->nloops ? r->loops[i].tid : r->thr[i].tid, NULL);
}

/* load_start - create the workers and wait until all have run thread_init.
 * Returns B_OK, or the first failure (r->err says more); then the workers are released to
 * exit at once and joined. */
static int load_start(struct load_run *r)
{
    /* the workers: a thread per client, or the event loops that run them */
    const int nw = r->nloops ? r->nloops : r->nthreads;
    for (int i = 0; i < r->nthreads && r->sb_bookkeeping; i++)
        r->thr[i].sb_hist = b_xcalloc(1024, sizeof(u64));
    atomic_store(&r->running, nw);
    for (int i = 0; i < nw; i++) {
        int e = r->nloops ? os_thread_start(&r->loops[i].tid, (size_t)r->o->thread_stack_size,
                                            evl_thread, &r->loops[i])
                          : os_thread_start(&r->thr[i].tid, (size_t)r->o->thread_stack_size,
                                            load_worker, &r->thr[i]);
        if (e) {
            atomic_store(&r->running, i); /* the ones not started never decrement */
            struct b_err be;
            memset(&be, 0, sizeof(be));
            load_fail(r, b_seterr(&be, B_SYSERR, e, "creating worker thread %d failed: %s", i,
                                  strerror(e)),
                      &be);
            pthread_mutex_lock(&r->mu);
            r->go = 1;
            pthread_cond_broadcast(&r->cv_go);
            pthread_mutex_unlock(&r->mu);
            for (int k = 0; k < i; k++)
                pthread_join(r->nloops ? r->loops[k].tid : r->thr[k].tid, NULL);
            if (!r->nloops)
                r->nthreads = i;
            return B_SYSERR;
        }
    }
    pthread_mutex_lock(&r->mu);
    while (atomic_load(&r->ready) < nw)
        pthread_cond_wait(&r->cv_done, &r->mu);
    pthread_mutex_unlock(&r->mu);
    if (atomic_load(&r->failed)) {
        pthread_mutex_lock(&r->mu);
        r->go = 1;
        pthread_cond_broadcast(&r->cv_go);
        pthread_mutex_unlock(&r->mu);
        load_join(r);
        return atomic_load(&r->failed);
    }
    return B_OK;
}

/* ---- --start-at: the measured window starts at a wall-clock instant ---- */

/* load_unix_offset - CLOCK_REALTIME minus CLOCK_MONOTONIC in ns, from one reading of the wall
 * clock between two of the monotonic one (their midpoint). */
static i64 load_unix_offset(void)
{
    struct timespec m1, rt, m2;
    clock_gettime(CLOCK_MONOTONIC, &m1);
    clock_gettime(CLOCK_REALTIME, &rt);
    clock_gettime(CLOCK_MONOTONIC, &m2);
    i64 mono = ((i64)m1.tv_sec * 1000000000 + m1.tv_nsec + (i64)m2.tv_sec * 1000000000 +
                m2.tv_nsec) / 2;
    return (i64)rt.tv_sec * 1000000000 + rt.tv_nsec - mono;
}

/* load_fmt_unix_ns - RFC 3339 UTC with milliseconds ("2026-12-02T14:00:00.000Z"). */
static const char *load_fmt_unix_ns(char *out, size_t n, i64 ns)
{
    time_t secs = (time_t)(ns / 1000000000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    snprintf(out, n, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ns % 1000000000 / 1000000));
    return out;
}

BENCH_API int load_start_at_parse(const char *s, i64 now_unix_ns, i64 *out, struct b_err *e)
{
    const i64 sec = 1000000000;
    i64 t;
    if (s[0] == '+') { /* +N seconds from now */
        /* decimal digits and an optional fraction only (no hex, no exponent: not strtod) */
        const char *p = s + 1;
        i64 whole = 0, frac = 0, scale = sec;
        if (!isdigit((unsigned char)*p))
            goto bad;
        for (; isdigit((unsigned char)*p); p++)
            if (whole <= 86400 * 10) /* past a day stays past a day; no overflow */
                whole = whole * 10 + (*p - '0');
        if (*p == '.') {
            if (!isdigit((unsigned char)p[1]))
                goto bad;
            for (p++; isdigit((unsigned char)*p); p++)
                if (scale > 1)
                    scale /= 10, frac += (*p - '0') * scale;
        }
        if (*p || (whole == 0 && frac == 0))
            goto bad;
        if (whole > 86400 || (whole == 86400 && frac > 0)) {
            b_fail(e, B_EXIT_USAGE, "--start-at=%s: that time is more than a day ahead", s);
            return B_EXIT_USAGE;
        }
        t = now_unix_ns + whole * sec + frac;
    } else { /* RFC 3339 in UTC: YYYY-MM-DDTHH:MM:SS[.frac](Z|+00:00|-00:00) */
        int Y, M, D, h, m, sc, used = 0;
        struct tm tm;
        i64 frac = 0;
        if (sscanf(s, "%4d-%2d-%2d%*1[Tt ]%2d:%2d:%2d%n", &Y, &M, &D, &h, &m, &sc, &used) != 6 ||
            used != 19 || M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sc > 59 ||
            Y < 1970 || h < 0 || m < 0 || sc < 0)
            goto bad;
        const char *p = s + used;
        if (*p == '.') {
            i64 scale = sec;
            if (!isdigit((unsigned char)p[1]))
                goto bad;
            for (p++; isdigit((unsigned char)*p); p++)
                if (scale > 1)
                    scale /= 10, frac += (*p - '0') * scale;
        }
        if (strcmp(p, "Z") && strcmp(p, "z") && strcmp(p, "+00:00") && strcmp(p, "-00:00")) {
            b_fail(e, B_EXIT_USAGE,
                   "--start-at=%s: only UTC is taken (end the time in Z, or give +N seconds)", s);
            return B_EXIT_USAGE;
        }
        memset(&tm, 0, sizeof(tm));
        tm.tm_year = Y - 1900, tm.tm_mon = M - 1, tm.tm_mday = D;
        tm.tm_hour = h, tm.tm_min = m, tm.tm_sec = sc;
        time_t tt = timegm(&tm);
        if (tm.tm_mday != D) /* 2026-02-30 normalised to March */
            goto bad;
        if ((i64)tt > now_unix_ns / sec + 86400 + 1) { /* before the multiply: no overflow */
            b_fail(e, B_EXIT_USAGE, "--start-at=%s: that time is %.0f s ahead, more than a day",
                   s, (double)((i64)tt - now_unix_ns / sec));
            return B_EXIT_USAGE;
        }
        t = (i64)tt * sec + frac;
    }
    if (t <= now_unix_ns) {
        char now[80];
        b_fail(e, B_EXIT_USAGE, "--start-at=%s: that time is %.3f s in the past (now: %s)", s,
               (double)(now_unix_ns - t) / 1e9, load_fmt_unix_ns(now, sizeof(now), now_unix_ns));
        b_hint(e, "give a time ahead, or +N for N seconds from now (the clients must get time "
                  "to connect)");
        return B_EXIT_USAGE;
    }
    if (t - now_unix_ns > 86400 * sec) {
        b_fail(e, B_EXIT_USAGE, "--start-at=%s: that time is %.0f s ahead, more than a day", s,
               (double)(t - now_unix_ns) / 1e9);
        return B_EXIT_USAGE;
    }
    *out = t;
    return B_EXIT_OK;
bad:
    b_fail(e, B_EXIT_USAGE,
           "--start-at=%s: not a time (expected RFC 3339 UTC such as 2026-12-02T14:00:00Z, or +N "
           "seconds such as +30)",
           s);
    return B_EXIT_USAGE;
}

BENCH_API void load_clock_read(struct load_clock *c)
{
    struct timex tx;
    memset(&tx, 0, sizeof(tx)); /* modes 0: read only */
    memset(c, 0, sizeof(*c));
    int st = adjtimex(&tx);
    if (st < 0)
        return;
    c->known = true;
    c->synced = st != TIME_ERROR && !(tx.status & STA_UNSYNC);
    c->esterror_us = (i64)tx.esterror;
    c->maxerror_us = (i64)tx.maxerror;
}

BENCH_API int load_clock_refuse(const struct load_clock *c, bool force, struct b_err *e)
{
    if (!c->known || c->synced || force)
        return B_OK;
    b_fail(e, B_EXIT_ENV,
           "--start-at: the kernel says the system clock is not synchronized (adjtimex: "
           "STA_UNSYNC, maximum error %.3f ms): clients on several hosts would not start "
           "together",
           (double)c->maxerror_us / 1e3);
    b_hint(e, "synchronize the clock (chrony, systemd-timesyncd, ntpd), or add "
              "--start-at-force to start anyway");
    e->rc = B_UNSUPPORTED;
    return B_UNSUPPORTED;
}

/*
 * load_start_at_setup - with --start-at: read the clock state into the result's facts and
 * refuse an unsynchronized clock (unless --start-at-force), a time already past; convert the
 * target to the monotonic clock once. B_OK (also without --start-at), else r->err says why.
 */
static int load_start_at_setup(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    struct load_clock c;
    char when[80];
    if (!o->start_at_unix_ns)
        return B_OK;
    load_clock_read(&c);
    res_fact_str(r->res, "start_at", "%s", load_fmt_unix_ns(when, sizeof(when),
                                                             o->start_at_unix_ns));
    res_fact_int(r->res, "start_at_unix_ns", o->start_at_unix_ns);
    if (c.known) {
        res_fact_bool(r->res, "clock_synchronized", c.synced);
        res_fact_int(r->res, "clock_esterror_us", c.esterror_us);
        res_fact_int(r->res, "clock_maxerror_us", c.maxerror_us);
    } else
        res_warn(r->res, "clock_unknown", NULL,
                 "--start-at: adjtimex(2) did not answer: the clock's synchronization is "
                 "unknown");
    int rc = load_clock_refuse(&c, o->start_at_force, &r->err);
    if (rc != B_OK)
        return rc;
    r->unix_off_ns = load_unix_offset();
    i64 mono = o->start_at_unix_ns - r->unix_off_ns;
    if (mono <= (i64)clk_now_ns()) {
        b_fail(&r->err, B_EXIT_USAGE, "--start-at=%s: that time has passed", o->start_at);
        return B_INVALID;
    }
    r->start_at_ns = (u64)mono;
    return B_OK;
}

/* load_release_failed - workers created and waiting for the start signal: stop them, join. */
static void load_release_failed(struct load_run *r)
{
    atomic_store(&r->stop, 1);
    pthread_mutex_lock(&r->mu);
    r->go = 1;
    pthread_cond_broadcast(&r->cv_go);
    pthread_mutex_unlock(&r->mu);
    for (int k = 0; k < r->nthreads; k++)
        pthread_join(r->thr[k].tid, NULL);
}

/*
 * load_start_at_wait - with --start-at, once the workers are connected and ready: sleep until
 * the instant minus --warmup-time (in slices: a signal ends the wait), so that the measured
 * window starts at it. A target already passed (connecting took too long) is an error, not a
 * late start. On failure the workers are joined and r->err says why.
 */
static int load_start_at_wait(struct load_run *r)
{
    const u64 warm = (u64)r->o->warmup_time * 1000000000u;
    if (!r->start_at_ns)
        return B_OK;
    u64 release = r->start_at_ns > warm ? r->start_at_ns - warm : 0, now = clk_now_ns();
    int rc = B_OK;
    if (now >= r->start_at_ns) {
        char when[80];
        b_fail(&r->err, B_EXIT_ENV,
               "--start-at=%s: the time passed %.3f s ago, while connecting and initializing; "
               "nothing was measured",
               load_fmt_unix_ns(when, sizeof(when), r->o->start_at_unix_ns),
               (double)(now - r->start_at_ns) / 1e9);
        b_hint(&r->err, "start the clients earlier, or give a later time");
        rc = r->err.rc = B_TIMEOUT;
    } else if (now > release)
        res_warn(r->res, "warmup_short", NULL,
                 "--start-at: only %.3f s of the --warmup-time=%lld were left after connecting",
                 (double)(r->start_at_ns - now) / 1e9, (long long)r->o->warmup_time);
    while (rc == B_OK && now < release) {
        clk_sleep_until(B_MIN(release, now + 50000000u));
        if (atomic_load(&b_stop)) {
            b_fail(&r->err, B_EXIT_FAIL, "--start-at: interrupted by %s while waiting for the "
                                         "start time",
                   os_stop_signame());
            rc = r->err.rc = B_INTR;
        }
        now = clk_now_ns();
    }
    if (rc != B_OK)
        load_release_failed(r);
    return rc;
}

/* load_go - start the clock and release the workers. */
static void load_go(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    if (!r->unix_off_ns)
        r->unix_off_ns = load_unix_offset();
    r->t_start_ns = clk_now_ns();
    r->t_measure_ns = r->t_start_ns + (u64)o->warmup_time * 1000000000u;
    if (r->start_at_ns) /* --start-at: the window starts at the instant (or when the
                           workers were released, if that was late: what they really did) */
        r->t_measure_ns = B_MAX(r->start_at_ns, r->t_start_ns);
    u64 len_ns = o->all_step_ms > 0 ? (u64)o->all_step_ms * 1000000u
                                    : (u64)o->time_s * 1000000000u;
    r->deadline_ns = len_ns ? r->t_measure_ns + len_ns : 0;
    atomic_store(&r->next_arrival_ns, r->t_start_ns);
    r->base.t_ns = r->t_measure_ns;
    pthread_mutex_lock(&r->mu);
    r->go = 1;
    pthread_cond_broadcast(&r->cv_go);
    pthread_mutex_unlock(&r->mu);
}

/*
 * load_run_main - the controller: sleep until the next interval report, checkpoint, end of
 * warmup or forced shutdown, act, repeat until every worker has finished; then join them.
 */
static void load_run_main(struct load_run *r, const struct load_hooks *hk)
{
    const struct bench_opts *o = r->o;
    const u64 sec = 1000000000u;
    u64 next_iv = o->report_interval ? r->t_measure_ns + (u64)o->report_interval * sec : 0;
    u64 forced = (r->deadline_ns && o->forced_s >= 0)
                     ? r->deadline_ns + (u64)(o->forced_s * 1e9)
                     : 0;
    bool warm = o->warmup_time > 0;
    int ck = 0;
    struct load_snap prev, cur, d;
    load_snap_init(&prev, r->nthreads, r->w->nops);
    load_snap_init(&cur, r->nthreads, r->w->nops);
    load_snap_init(&d, r->nthreads, r->w->nops);
    prev.t_ns = r->t_start_ns;

    pthread_mutex_lock(&r->mu);
    while (atomic_load(&r->running) > 0) {
        u64 wake = UINT64_MAX, now;
        u64 ck_t = ck < o->nckpt ? r->t_measure_ns + (u64)(o->ckpt[ck] * 1e9) : 0;
        if (warm)
            wake = r->t_measure_ns;
        if (next_iv)
            wake = B_MIN(wake, next_iv);
        if (ck_t)
            wake = B_MIN(wake, ck_t);
        if (forced)
            wake = B_MIN(wake, forced);
        if (wake == UINT64_MAX) {
            pthread_cond_wait(&r->cv_done, &r->mu);
            continue;
        }
        struct timespec ts = {.tv_sec = (time_t)(wake / sec), .tv_nsec = (long)(wake % sec)};
        pthread_cond_timedwait(&r->cv_done, &r->mu, &ts);
        if (atomic_load(&r->running) == 0)
            break;
        now = clk_now_ns();
        pthread_mutex_unlock(&r->mu);
        if (warm && now >= r->t_measure_ns) {
            /* warmup events were never recorded (load_record_op): the base keeps only the
             * workload counters of warmup (bytes, queries), at the window's start */
            warm = false;
            load_snapshot(r, &r->base);
            load_base_events_zero(&r->base, r->nthreads);
            r->base.t_ns = r->t_measure_ns;
            load_snap_copy(&prev, &r->base, r->nthreads);
        }
        if (next_iv && now >= next_iv) {
            load_snapshot(r, &cur);
            load_snap_diff(&d, &cur, &prev, r->nthreads);
            if (hk->interval)
                hk->interval(hk->ctx, r, &d, (double)(cur.t_ns - prev.t_ns) / 1e9,
                             (double)(next_iv - r->t_measure_ns) / 1e9);
            load_snap_copy(&prev, &cur, r->nthreads);
            next_iv += (u64)o->report_interval * sec;
        }
        if (ck_t && now >= ck_t) {
            load_snapshot(r, &cur);
            if (hk->checkpoint)
                hk->checkpoint(hk->ctx, r, &cur, o->ckpt[ck]);
            load_snap_copy(&r->base, &cur, r->nthreads);
            load_reset_minmax(r);
            /* a time given twice (--report-checkpoints=1,1) is one report, as sysbench */
            for (ck++; ck < o->nckpt && o->ckpt[ck] <= o->ckpt[ck - 1]; ck++)
                ;
        }
        if (forced && now >= forced && atomic_load(&r->running) > 0) {
            /* workers still inside an event: the run ends here, they are not waited for
             * (wl_run abandons the run to wl_reap; the process goes on) */
            load_snap_init(&r->forced_snap, r->nthreads, r->w->nops);
            load_snapshot(r, &r->forced_snap);
            r->forced = true;
            atomic_store(&r->stop, 1);
            pthread_mutex_lock(&r->mu);
            break;
        }
        pthread_mutex_lock(&r->mu);
    }
    pthread_mutex_unlock(&r->mu);
    if (r->forced) {
        load_snap_free(&prev);
        load_snap_free(&cur);
        load_snap_free(&d);
        return;
    }
    load_join(r);
    /* the interval that ends with --time: sysbench may or may not print it (a race); we do */
    if (next_iv && r->deadline_ns && next_iv <= r->deadline_ns && hk->interval &&
        !atomic_load(&r->stop) && !atomic_load(&b_stop)) {
        load_snapshot(r, &cur);
        load_snap_diff(&d, &cur, &prev, r->nthreads);
        hk->interval(hk->ctx, r, &d, (double)(cur.t_ns - prev.t_ns) / 1e9,
                     (double)(next_iv - r->t_measure_ns) / 1e9);
    }
    load_snap_free(&prev);
    load_snap_free(&cur);
    load_snap_free(&d);
}

/*== 14 jr_ : JSON reader: untrusted bytes to a tree, paths ==================*/
/*
 * RFC 8259 JSON into a tree of struct jr_val, for inputs bench did not write itself (reports
 * handed to `bench compare` and `bench merge`): every byte is untrusted. Two passes over the
 * same recursive-descent code: the first validates and counts values and string bytes, the
 * second builds into ONE arena allocation of exactly that size (values first, then every
 * string, key and number literal NUL-terminated), so a document is freed with one free() and
 * the memory a hostile file can make us take is bounded by its length (at most about 28x:
 * "[1,1,1,...]" is one 56-byte value per 2 input bytes). Errors name the line and the column
 * (bytes, 1-based) of the offending byte and what was expected there.
 *
 * Strict: one value with optional whitespace (space, tab, LF, CR) around it; no BOM, comments,
 * trailing commas, single quotes, NaN/Infinity, leading zeros or '+'; numbers in the RFC's
 * grammar, refused when out of double range ("1e400"); strings valid UTF-8 (no overlong forms,
 * no encoded surrogates, nothing above U+10FFFF), no raw control characters, the RFC's escapes
 * only, \u surrogate pairs joined into one code point and a lone surrogate refused; nesting
 * depth at most JR_MAX_DEPTH. Integer literals keep their exact magnitude (u64) beside the
 * double, so histogram counts and byte sizes survive above 2^53.
 *
 * Limitations: duplicate member names are kept and lookups find the first (RFC 8259 leaves
 * the meaning open); "\u0000" is decoded (jr_str's length says where the text ends); member
 * lookup is a linear scan (bench's objects have tens of members).
 */

/* The parser's state; build == false is the counting pass. */
struct jr_ps {
    const u8 *p, *end, *start;
    const char *what;          /* the input's name in messages */
    struct b_err *e;
    bool build;
    size_t nvals, nbytes;      /* counting pass: what the arena must hold */
    struct jr_val *vals;       /* building pass: next free value */
    char *str;                 /* building pass: next free string byte */
    size_t max_arena;          /* the most arena bytes this document may take */
};

/* jr_limits - in the counting pass, every 4096 values: past the arena budget, or b_stop set
 * (SIGINT/SIGTERM), the parse stops with an error. */
static int jr_limits(struct jr_ps *ps)
{
    if (ps->build || (ps->nvals & 0xfff))
        return B_OK;
    if (atomic_load(&b_stop)) {
        b_fail(ps->e, B_EXIT_FAIL, "reading %s: interrupted by %s", ps->what,
               os_stop_signame());
        ps->e->rc = B_DONE;
        return B_DONE;
    }
    if (ps->nvals * sizeof(struct jr_val) + ps->nbytes > ps->max_arena) {
        b_fail(ps->e, B_EXIT_FAIL, "reading %s: more than %zu MiB of values (a bench report "
               "takes far less: is this a report?)", ps->what, ps->max_arena >> 20);
        ps->e->rc = B_INVALID;
        return B_INVALID;
    }
    return B_OK;
}

static const char *jr_found(const u8 *at, const u8 *end, char *buf, size_t n)
{
    if (at >= end)
        return "end of input";
    if (*at >= 0x21 && *at < 0x7f)
        snprintf(buf, n, "'%c'", *at);
    else
        snprintf(buf, n, "byte 0x%02x", *at);
    return buf;
}

/* jr_fail - e = "reading WHAT: line L col C: MSG"; the position is at's. */
static int jr_fail(struct jr_ps *ps, const u8 *at, const char *fmt, ...) B_PRINTF(3, 4);
static int jr_fail(struct jr_ps *ps, const u8 *at, const char *fmt, ...)
{
    char m[200];
    va_list ap;
    size_t line = 1;
    const u8 *ls = ps->start;
    for (const u8 *q = ps->start; q < at && q < ps->end; q++)
        if (*q == '\n')
            line++, ls = q + 1;
    va_start(ap, fmt);
    vsnprintf(m, sizeof(m), fmt, ap);
    va_end(ap);
    ps->e->rc = B_INVALID;
    b_fail(ps->e, B_EXIT_FAIL, "reading %s: line %zu col %zu: %s", ps->what, line,
           (size_t)(at - ls) + 1, m);
    return B_INVALID;
}

static void jr_ws(struct jr_ps *ps)
{
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static struct jr_val *jr_newval(struct jr_ps *ps)
{
    ps->nvals++;
    if (!ps->build)
        return NULL;
    struct jr_val *v = ps->vals++;
    memset(v, 0, sizeof(*v));
    return v;
}

/* copy n bytes to the arena (NUL added); the counting pass only counts */
static char *jr_strcopy(struct jr_ps *ps, const void *src, size_t n)
{
    ps->nbytes += n + 1;
    if (!ps->build)
        return NULL;
    char *d = ps->str;
    memcpy(d, src, n);
    d[n] = 0;
    ps->str += n + 1;
    return d;
}

/* Length of the valid UTF-8 sequence at p (a lead byte >= 0x80), or 0 if invalid. */
static size_t jr_utf8_len(const u8 *p, const u8 *end)
{
    u8 c = p[0], lo = 0x80, hi = 0xbf;
    size_t n;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;     /* overlong */
        else if (c == 0xed)
            hi = 0x9f;     /* UTF-16 surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;     /* overlong */
        else if (c == 0xf4)
            hi = 0x8f;     /* above U+10FFFF */
    } else
        return 0;
    if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

static int jr_hex4(const u8 *p, const u8 *end, u32 *out)
{
    u32 v = 0;
    if (end - p < 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        u8 c = p[i];
        u32 d = c >= '0' && c <= '9'   ? (u32)(c - '0')
                : c >= 'a' && c <= 'f' ? (u32)(c - 'a' + 10)
                : c >= 'A' && c <= 'F' ? (u32)(c - 'A' + 10)
                                       : 16;
        if (d == 16)
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

static size_t jr_utf8_put(u8 *o, u32 cp)
{
    if (cp < 0x80) {
        o[0] = (u8)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (u8)(0xc0 | cp >> 6);
        o[1] = (u8)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (u8)(0xe0 | cp >> 12);
        o[1] = (u8)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (u8)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (u8)(0xf0 | cp >> 18);
    o[1] = (u8)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (u8)(0x80 | (cp >> 6 & 0x3f));
    o[3] = (u8)(0x80 | (cp & 0x3f));
    return 4;
}

/* A string at ps->p (on its '"'): decoded into the arena, *out and *len set (building pass). The
 * decoded text is never longer than the literal, so the counting pass counts the literal's
 * decoded bytes exactly by decoding into nothing. */
static int jr_string(struct jr_ps *ps, const char **out, u32 *len)
{
    const u8 *q = ps->p + 1;
    size_t n = 0;
    char *d = ps->build ? ps->str : NULL;
    for (;;) {
        if (q >= ps->end)
            return jr_fail(ps, q, "unterminated string (opened at %s)",
                           "the '\"' before");
        u8 c = *q;
        if (c == '"')
            break;
        if (c < 0x20)
            return jr_fail(ps, q, "control character 0x%02x in a string (escape it)", c);
        if (c == '\\') {
            u8 tmp[4];
            size_t k = 1;
            if (q + 1 >= ps->end)
                return jr_fail(ps, q + 1, "unterminated escape in a string");
            switch (q[1]) {
            case '"': tmp[0] = '"'; break;
            case '\\': tmp[0] = '\\'; break;
            case '/': tmp[0] = '/'; break;
            case 'b': tmp[0] = '\b'; break;
            case 'f': tmp[0] = '\f'; break;
            case 'n': tmp[0] = '\n'; break;
            case 'r': tmp[0] = '\r'; break;
            case 't': tmp[0] = '\t'; break;
            case 'u': {
                u32 cp, lo;
                if (jr_hex4(q + 2, ps->end, &cp))
                    return jr_fail(ps, q, "expected 4 hex digits after \\u");
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return jr_fail(ps, q, "lone low surrogate \\u%04x", cp);
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    if (ps->end - q < 12 || q[6] != '\\' || q[7] != 'u' ||
                        jr_hex4(q + 8, ps->end, &lo) || lo < 0xdc00 || lo > 0xdfff)
                        return jr_fail(ps, q, "high surrogate \\u%04x without a low one after it",
                                       cp);
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    q += 6;
                }
                k = jr_utf8_put(tmp, cp);
                q += 4;
                break;
            }
            default:
                return jr_fail(ps, q, "invalid escape '\\%c' in a string",
                               q[1] >= 0x21 && q[1] < 0x7f ? q[1] : '?');
            }
            if (d)
                memcpy(d + n, tmp, k);
            n += k;
            q += 2;
            continue;
        }
        size_t k = 1;
        if (c >= 0x80 && !(k = jr_utf8_len(q, ps->end)))
            return jr_fail(ps, q, "invalid UTF-8 in a string (byte 0x%02x)", c);
        if (d)
            memcpy(d + n, q, k);
        n += k;
        q += k;
    }
    if (n > UINT32_MAX)
        return jr_fail(ps, ps->p, "string too long");
    ps->nbytes += n + 1;
    if (d) {
        d[n] = 0;
        ps->str += n + 1;
        *out = d;
        *len = (u32)n;
    }
    ps->p = q + 1;
    return B_OK;
}

static int jr_number(struct jr_ps *ps, struct jr_val *v)
{
    const u8 *s = ps->p, *q = s;
    bool integer = true;
    if (q < ps->end && *q == '-')
        q++;
    if (q >= ps->end || *q < '0' || *q > '9')
        return jr_fail(ps, q, "expected a digit");
    if (*q == '0') {
        q++;
        if (q < ps->end && *q >= '0' && *q <= '9')
            return jr_fail(ps, q, "leading zero in a number");
    } else
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    if (q < ps->end && *q == '.') {
        integer = false;
        q++;
        if (q >= ps->end || *q < '0' || *q > '9')
            return jr_fail(ps, q, "expected a digit after '.'");
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        integer = false;
        q++;
        if (q < ps->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= ps->end || *q < '0' || *q > '9')
            return jr_fail(ps, q, "expected a digit in the exponent");
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    }
    size_t n = (size_t)(q - s);
    char small[64];
    const char *txt = jr_strcopy(ps, s, n);
    if (!txt) { /* counting pass: check the range on a copy */
        char *big = n < sizeof(small) ? small : b_xmalloc(n + 1);
        memcpy(big, s, n);
        big[n] = 0;
        double x = strtod(big, NULL);
        if (big != small)
            free(big);
        if (!isfinite(x))
            return jr_fail(ps, s, "number out of range");
    } else {
        v->type = JR_NUM;
        v->s = txt;
        v->num = strtod(txt, NULL);
        if (integer) {
            const char *dg = txt + (*txt == '-');
            u64 m = 0;
            bool ok = true;
            for (; *dg && ok; dg++) {
                u64 digit = (u64)(*dg - '0');
                if (m > (UINT64_MAX - digit) / 10)
                    ok = false;
                else
                    m = m * 10 + digit;
            }
            if (ok) {
                v->exact = 1;
                v->neg = *txt == '-' && m != 0;
                v->mag = m;
            }
        }
    }
    ps->p = q;
    return B_OK;
}

static int jr_value(struct jr_ps *ps, struct jr_val *v, int depth);

/* An array or object at ps->p (on its '[' or '{'). */
static int jr_container(struct jr_ps *ps, struct jr_val *v, int depth)
{
    bool obj = *ps->p == '{';
    char close = obj ? '}' : ']';
    const u8 *open = ps->p;
    struct jr_val **tail = v ? &v->kid : NULL;
    size_t count = 0;
    int rc;
    if (depth >= JR_MAX_DEPTH)
        return jr_fail(ps, ps->p, "nested deeper than %d levels", JR_MAX_DEPTH);
    if (v)
        v->type = obj ? JR_OBJ : JR_ARR;
    ps->p++;
    jr_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return B_OK;
    }
    for (;;) {
        const char *key = NULL;
        u32 keylen = 0;
        char fb[16];
        if (obj) {
            if (ps->p >= ps->end || *ps->p != '"')
                return jr_fail(ps, ps->p, "expected a member name in quotes (found %s)",
                               jr_found(ps->p, ps->end, fb, sizeof(fb)));
            if ((rc = jr_string(ps, &key, &keylen)) != B_OK)
                return rc;
            jr_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':')
                return jr_fail(ps, ps->p, "expected ':' (found %s)",
                               jr_found(ps->p, ps->end, fb, sizeof(fb)));
            ps->p++;
            jr_ws(ps);
        }
        struct jr_val *kid = jr_newval(ps);
        if ((rc = jr_limits(ps)) != B_OK)
            return rc;
        if (kid) {
            kid->key = key;
            kid->keylen = keylen;
            *tail = kid;
            tail = &kid->next;
        }
        if ((rc = jr_value(ps, kid, depth + 1)) != B_OK)
            return rc;
        count++;
        jr_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            jr_ws(ps);
            if (ps->p < ps->end && *ps->p == close)
                return jr_fail(ps, ps->p, "trailing ',' before '%c'", close);
            continue;
        }
        if (ps->p < ps->end && *ps->p == close)
            break;
        if (ps->p >= ps->end)
            return jr_fail(ps, ps->p, "expected ',' or '%c' (the %s opened at offset %zu is "
                           "not closed)", close, obj ? "object" : "array",
                           (size_t)(open - ps->start));
        return jr_fail(ps, ps->p, "expected ',' or '%c' (found %s)", close,
                       jr_found(ps->p, ps->end, fb, sizeof(fb)));
    }
    ps->p++;
    if (count > UINT32_MAX)
        return jr_fail(ps, open, "too many items");
    if (v)
        v->n = (u32)count;
    return B_OK;
}

static int jr_value(struct jr_ps *ps, struct jr_val *v, int depth)
{
    static const struct {
        const char *lit;
        int type;
    } lits[] = {{"null", JR_NULL}, {"false", JR_FALSE}, {"true", JR_TRUE}};
    char fb[16];
    if (ps->p >= ps->end)
        return jr_fail(ps, ps->p, "expected a value (found end of input)");
    u8 c = *ps->p;
    if (c == '{' || c == '[')
        return jr_container(ps, v, depth);
    if (c == '"') {
        const char *s = NULL;
        u32 n = 0;
        int rc = jr_string(ps, &s, &n);
        if (rc == B_OK && v) {
            v->type = JR_STR;
            v->s = s;
            v->n = n;
        }
        return rc;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        return jr_number(ps, v);
    for (size_t i = 0; i < countof(lits); i++) {
        size_t n = strlen(lits[i].lit);
        if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, lits[i].lit, n)) {
            ps->p += n;
            if (v)
                v->type = (u8)lits[i].type;
            return B_OK;
        }
    }
    if (c == 0xef && ps->p == ps->start)
        return jr_fail(ps, ps->p, "expected a value (found a byte order mark, which JSON "
                                  "does not allow)");
    return jr_fail(ps, ps->p, "expected a value (found %s)", jr_found(ps->p, ps->end, fb,
                                                                      sizeof(fb)));
}

/* one whole pass over the input */
static int jr_pass(struct jr_ps *ps, struct jr_val *root)
{
    char fb[16];
    int rc;
    ps->p = ps->start;
    jr_ws(ps);
    if ((rc = jr_value(ps, root, 0)) != B_OK)
        return rc;
    jr_ws(ps);
    if (ps->p < ps->end)
        return jr_fail(ps, ps->p, "expected the end of input after the value (found %s)",
                       jr_found(ps->p, ps->end, fb, sizeof(fb)));
    return B_OK;
}

BENCH_API int jr_parse(const char *p, size_t len, const char *what, struct jr_doc *doc,
                       struct b_err *e)
{
    return jr_parse_max(p, len, what, JR_MAX_ARENA_BYTES, doc, e);
}

BENCH_API int jr_parse_max(const char *p, size_t len, const char *what, size_t max_arena,
                           struct jr_doc *doc, struct b_err *e)
{
    struct jr_ps ps;
    int rc;
    memset(doc, 0, sizeof(*doc));
    if (len > JR_MAX_FILE_BYTES) {
        b_fail(e, B_EXIT_FAIL, "reading %s: %zu bytes, more than the %u MiB a report may have",
               what, len, JR_MAX_FILE_BYTES >> 20);
        e->rc = B_INVALID;
        return B_INVALID;
    }
    memset(&ps, 0, sizeof(ps));
    ps.start = (const u8 *)p;
    ps.end = ps.start + len;
    ps.what = what;
    ps.e = e;
    ps.nvals = 1; /* the root */
    ps.max_arena = max_arena;
    if ((rc = jr_pass(&ps, NULL)) != B_OK)
        return rc;
    size_t vbytes = ps.nvals * sizeof(struct jr_val);
    doc->arena_bytes = vbytes + ps.nbytes;
    if (doc->arena_bytes > max_arena) {
        b_fail(e, B_EXIT_FAIL, "reading %s: more than %zu MiB of values (a bench report takes "
               "far less: is this a report?)", what, max_arena >> 20);
        doc->arena_bytes = 0;
        e->rc = B_INVALID;
        return B_INVALID;
    }
    if (atomic_load(&b_stop)) { /* between the passes */
        b_fail(e, B_EXIT_FAIL, "reading %s: interrupted by %s", what, os_stop_signame());
        doc->arena_bytes = 0;
        e->rc = B_DONE;
        return B_DONE;
    }
    doc->arena = malloc(doc->arena_bytes);
    if (!doc->arena) {
        b_fail(e, B_EXIT_ENV, "reading %s: out of memory for %zu bytes", what, doc->arena_bytes);
        e->rc = B_NOMEM;
        return B_NOMEM;
    }
    ps.build = true;
    ps.vals = doc->arena;
    ps.str = (char *)doc->arena + vbytes;
    ps.nvals = 0;
    ps.nbytes = 0;
    doc->root = jr_newval(&ps);
    if ((rc = jr_pass(&ps, doc->root)) != B_OK) { /* NEVER: the first pass accepted it */
        jr_free(doc);
        return rc;
    }
    return B_OK;
}

/* jr_slurp - the whole of regular file path (at most max bytes) into *out (malloc'd, NUL
 * after it), its length in *outlen. Returns B_OK or an error with e (see jr_parse_file). */
static int jr_slurp(const char *path, size_t max, char **out, size_t *outlen, struct b_err *e)
{
    struct stat st;
    *out = NULL;
    *outlen = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        int er = errno;
        b_fail(e, B_EXIT_ENV, "reading %s: %s (%s)", path, strerror(er), b_errno_name(er));
        e->rc = B_SYSERR;
        e->sys_errno = er;
        return B_SYSERR;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (u64)st.st_size > (u64)max) {
        int er = errno;
        if (S_ISDIR(st.st_mode))
            b_fail(e, B_EXIT_FAIL, "reading %s: a directory, not a report file", path);
        else if (S_ISREG(st.st_mode) && (u64)st.st_size > (u64)max)
            b_fail(e, B_EXIT_FAIL, "reading %s: %lld bytes, more than the %u MiB a report may "
                   "have", path, (long long)st.st_size, (unsigned)(max >> 20));
        else if (!S_ISREG(st.st_mode))
            b_fail(e, B_EXIT_FAIL, "reading %s: not a regular file", path);
        else
            b_fail(e, B_EXIT_ENV, "reading %s: %s (%s)", path, strerror(er), b_errno_name(er));
        e->rc = B_INVALID;
        close(fd);
        return B_INVALID;
    }
    size_t cap = (size_t)st.st_size, len = 0;
    char *buf = b_xmalloc(cap + 1);
    for (;;) { /* the size may change under us: read to EOF, never past the cap */
        if (len == cap) {
            char one;
            ssize_t r = read(fd, &one, 1);
            if (r == 0)
                break;
            if (r < 0 && errno == EINTR)
                continue;
            if (r > 0)
                b_fail(e, B_EXIT_FAIL, "reading %s: the file grew while it was read", path);
            else
                b_fail(e, B_EXIT_ENV, "reading %s: %s (%s)", path, strerror(errno),
                       b_errno_name(errno));
            e->rc = B_INVALID;
            free(buf);
            close(fd);
            return B_INVALID;
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int er = errno;
            b_fail(e, B_EXIT_ENV, "reading %s: %s (%s)", path, strerror(er), b_errno_name(er));
            e->rc = B_SYSERR;
            e->sys_errno = er;
            free(buf);
            close(fd);
            return B_SYSERR;
        }
        if (r == 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    buf[len] = 0;
    *out = buf;
    *outlen = len;
    return B_OK;
}

BENCH_API int jr_parse_file(const char *path, struct jr_doc *doc, struct b_err *e)
{
    char *buf;
    size_t len;
    memset(doc, 0, sizeof(*doc));
    int rc = jr_slurp(path, JR_MAX_FILE_BYTES, &buf, &len, e);
    if (rc != B_OK)
        return rc;
    rc = jr_parse(buf, len, path, doc, e);
    free(buf);
    return rc;
}

/* Is the document a bench result ({"type":"result", ...})? */
static bool jr_is_result(const struct jr_val *root)
{
    const struct jr_val *t = jr_get(root, "type");
    return t && t->type == JR_STR && !strcmp(t->s, "result");
}

BENCH_API int jr_parse_report(const char *path, size_t max_file, size_t max_arena,
                              struct jr_doc *doc, struct b_err *e)
{
    char *buf;
    size_t len;
    struct b_err e0 = *e; /* restored when a line is the result */
    memset(doc, 0, sizeof(*doc));
    int rc = jr_slurp(path, max_file, &buf, &len, e);
    if (rc != B_OK)
        return rc;
    rc = jr_parse_max(buf, len, path, max_arena, doc, e);
    if (rc == B_INVALID && e->rc == B_INVALID) {
        /* JSON lines (a run's --format=json stdout): the last line that is a result */
        size_t end = len;
        while (end) {
            while (end && (buf[end - 1] == '\n' || buf[end - 1] == '\r' ||
                           buf[end - 1] == ' ' || buf[end - 1] == '\t'))
                end--;
            size_t start = end;
            while (start && buf[start - 1] != '\n')
                start--;
            if (start == 0)
                break; /* one line only: the whole-document error stands */
            struct b_err le;
            memset(&le, 0, sizeof(le));
            if (jr_parse_max(buf + start, end - start, path, max_arena, doc, &le) == B_OK) {
                if (jr_is_result(doc->root)) {
                    *e = e0;
                    rc = B_OK;
                    break;
                }
                jr_free(doc);
            } else if (le.rc == B_DONE) {
                *e = le;
                rc = B_DONE;
                break;
            }
            end = start;
        }
    }
    free(buf);
    return rc;
}

BENCH_API void jr_free(struct jr_doc *doc)
{
    free(doc->arena);
    memset(doc, 0, sizeof(*doc));
}

BENCH_API const struct jr_val *jr_get(const struct jr_val *o, const char *name)
{
    if (!o || o->type != JR_OBJ)
        return NULL;
    size_t n = strlen(name);
    for (const struct jr_val *v = o->kid; v; v = v->next)
        if (v->keylen == n && !memcmp(v->key, name, n))
            return v;
    return NULL;
}

BENCH_API const struct jr_val *jr_at(const struct jr_val *a, size_t i)
{
    if (!a || a->type != JR_ARR || i >= a->n)
        return NULL;
    const struct jr_val *v = a->kid;
    while (i-- && v)
        v = v->next;
    return v;
}

BENCH_API const struct jr_val *jr_path(const struct jr_val *root, const char *path)
{
    if (!root || !path)
        return NULL;
    if (!*path)
        return root;
    size_t rest = strlen(path);
    if (root->type == JR_ARR) {
        size_t i = 0, k = 0;
        for (; path[k] >= '0' && path[k] <= '9'; k++) {
            if (i > (SIZE_MAX - 9) / 10 || (k == 1 && path[0] == '0'))
                return NULL;
            i = i * 10 + (size_t)(path[k] - '0');
        }
        if (!k || (path[k] && path[k] != '.') || (path[k] == '.' && !path[k + 1]))
            return NULL;
        return jr_path(jr_at(root, i), path[k] ? path + k + 1 : "");
    }
    if (root->type != JR_OBJ)
        return NULL;
    for (const struct jr_val *v = root->kid; v; v = v->next) /* whole names first */
        if (v->keylen == rest && !memcmp(v->key, path, rest))
            return v;
    for (const struct jr_val *v = root->kid; v; v = v->next)
        if (v->keylen < rest && path[v->keylen] == '.' && path[v->keylen + 1] &&
            !memcmp(v->key, path, v->keylen)) {
            const struct jr_val *r = jr_path(v, path + v->keylen + 1);
            if (r)
                return r;
        }
    return NULL;
}

BENCH_API const struct jr_val *jr_first(const struct jr_val *v)
{
    return v && (v->type == JR_ARR || v->type == JR_OBJ) ? v->kid : NULL;
}

BENCH_API const struct jr_val *jr_next(const struct jr_val *v)
{
    return v ? v->next : NULL;
}

BENCH_API bool jr_num(const struct jr_val *v, double *out)
{
    if (!v || v->type != JR_NUM)
        return false;
    *out = v->num;
    return true;
}

BENCH_API bool jr_i64(const struct jr_val *v, i64 *out)
{
    if (!v || v->type != JR_NUM || !v->exact)
        return false;
    if (!v->neg && v->mag > (u64)INT64_MAX)
        return false;
    if (v->neg && v->mag > (u64)INT64_MAX + 1)
        return false;
    *out = v->neg ? (v->mag == (u64)INT64_MAX + 1 ? INT64_MIN : -(i64)v->mag) : (i64)v->mag;
    return true;
}

BENCH_API bool jr_u64(const struct jr_val *v, u64 *out)
{
    if (!v || v->type != JR_NUM || !v->exact || v->neg)
        return false;
    *out = v->mag;
    return true;
}

BENCH_API bool jr_str(const struct jr_val *v, const char **out, size_t *len)
{
    if (!v || v->type != JR_STR)
        return false;
    *out = v->s;
    if (len)
        *len = v->n;
    return true;
}

BENCH_API bool jr_bool(const struct jr_val *v, bool *out)
{
    if (!v || (v->type != JR_TRUE && v->type != JR_FALSE))
        return false;
    *out = v->type == JR_TRUE;
    return true;
}

BENCH_API const char *jr_type_name(int type)
{
    static const char *const names[] = {"null",   "false", "true",  "number",
                                        "string", "array", "object"};
    return type >= 0 && type < (int)countof(names) ? names[type] : "?";
}

/*== 15 res_ : results as data ===============================================*/
/*
 * What a command measured, as data: the workload and options, host and target facts, the
 * measured window's counts and latency (the mergeable histogram itself, exact min/max/sum),
 * interval samples, checkpoints, warnings, and how the run ended. Workloads fill facts and
 * warnings; the run path (wl_run) fills the statistics; renderers in rep_ turn a result into
 * sysbench's text or JSON. Nothing here prints: res_say hands a line to the caller's sink.
 */

BENCH_API void res_init(struct res *res, const struct wl_def *w, const char *cmd,
                        struct bench_opts *o, const struct res_sink *sink)
{
    struct timespec ts;
    memset(res, 0, sizeof(*res));
    res->w = w;
    res->command = cmd;
    res->o = o;
    res->sink = sink;
    clock_gettime(CLOCK_REALTIME, &ts);
    res->started_unix_ms = (i64)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void res_stats_free(struct res_stats *s)
{
    load_snap_free(&s->d);
    free(s->thr_min_ns);
    free(s->thr_max_ns);
    s->thr_min_ns = s->thr_max_ns = NULL;
}

BENCH_API void res_free(struct res *res)
{
    for (int i = 0; i < res->nfacts; i++)
        free(res->facts[i].str);
    free(res->facts);
    free(res->warns);
    if (res->have_final)
        res_stats_free(&res->final);
    for (int i = 0; i < res->nckpt; i++)
        res_stats_free(&res->ckpt[i]);
    free(res->ckpt);
    free(res->iv);
    for (int i = 0; i < res->nsteps; i++)
        res_free(&res->steps[i]);
    free(res->steps);
    memset(res, 0, sizeof(*res));
}

/* Make room for one more element of an array that grows by doubling. */
static void *res_grow(void *p, int *cap, int n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? *cap * 2 : 8;
    p = realloc(p, (size_t)*cap * size);
    if (!p)
        b_die("out of memory growing a result to %d entries", *cap);
    return p;
}

static struct res_fact *res_fact_slot(struct res *res, const char *key)
{
    for (int i = 0; i < res->nfacts; i++)
        if (!strcmp(res->facts[i].key, key)) {
            free(res->facts[i].str);
            res->facts[i].str = NULL;
            return &res->facts[i];
        }
    res->facts = res_grow(res->facts, &res->capfacts, res->nfacts, sizeof(*res->facts));
    struct res_fact *f = &res->facts[res->nfacts++];
    memset(f, 0, sizeof(*f));
    snprintf(f->key, sizeof(f->key), "%s", key);
    return f;
}

BENCH_API void res_fact_int(struct res *res, const char *key, i64 v)
{
    struct res_fact *f = res_fact_slot(res, key);
    f->type = RES_INT;
    f->i = v;
}

BENCH_API void res_fact_num(struct res *res, const char *key, double v)
{
    struct res_fact *f = res_fact_slot(res, key);
    f->type = RES_NUM;
    f->num = v;
}

BENCH_API void res_fact_bool(struct res *res, const char *key, bool v)
{
    struct res_fact *f = res_fact_slot(res, key);
    f->type = RES_BOOL;
    f->i = v;
}

BENCH_API void res_fact_str(struct res *res, const char *key, const char *fmt, ...)
{
    struct buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof(tmp)) {
        va_start(ap, fmt);
        b.cap = (size_t)n + 1;
        b.p = b_xmalloc(b.cap);
        vsnprintf(b.p, b.cap, fmt, ap);
        va_end(ap);
    } else
        b.p = b_xstrdup(tmp);
    struct res_fact *f = res_fact_slot(res, key);
    f->type = RES_STR;
    f->str = b.p;
}

BENCH_API const struct res_fact *res_fact(const struct res *res, const char *key)
{
    for (int i = 0; res && i < res->nfacts; i++)
        if (!strcmp(res->facts[i].key, key))
            return &res->facts[i];
    return NULL;
}

BENCH_API void res_warn(struct res *res, const char *code, const char *hint, const char *fmt, ...)
{
    va_list ap;
    res->warns = res_grow(res->warns, &res->capwarns, res->nwarns, sizeof(*res->warns));
    struct res_warn *w = &res->warns[res->nwarns++];
    memset(w, 0, sizeof(*w));
    snprintf(w->code, sizeof(w->code), "%s", code);
    snprintf(w->hint, sizeof(w->hint), "%s", hint ? hint : "");
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
    va_end(ap);
}

BENCH_API void res_say(const struct res *res, int kind, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    if (!res || !res->sink || !res->sink->say)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    res->sink->say(res->sink->ctx, kind, line);
}

BENCH_API struct res *res_step(struct res *res, const struct wl_def *w, const char *cmd)
{
    res->steps = res_grow(res->steps, &res->capsteps, res->nsteps, sizeof(*res->steps));
    struct res *s = &res->steps[res->nsteps++];
    res_init(s, w, cmd, res->o, NULL);
    return s;
}

/* res_stats_from - the window cur - base as a result's statistics (allocates s). */
static void res_stats_from(struct res_stats *s, const struct load_run *r,
                           const struct load_snap *cur, u64 t_end_ns)
{
    int n = r->nthreads;
    memset(s, 0, sizeof(*s));
    load_snap_init(&s->d, n, r->w->nops);
    load_snap_diff(&s->d, cur, &r->base, n);
    if (t_end_ns < r->t_measure_ns) /* stopped during --warmup-time: nothing was measured */
        t_end_ns = r->t_measure_ns;
    s->d.t_ns = t_end_ns;
    s->window_s = (double)(t_end_ns - r->base.t_ns) / 1e9;
    s->total_s = (double)(t_end_ns - r->t_measure_ns) / 1e9;
    s->at_s = s->total_s;
    s->start_unix_ns = (i64)r->base.t_ns + r->unix_off_ns;
    s->end_unix_ns = (i64)t_end_ns + r->unix_off_ns;
    s->threads = n;
    if (!s->d.events)
        s->d.lat_min_ns = s->d.lat_max_ns = 0;
    s->thr_min_ns = b_xcalloc((size_t)n, sizeof(u64));
    s->thr_max_ns = b_xcalloc((size_t)n, sizeof(u64));
    for (int i = 0; i < n; i++) {
        s->thr_min_ns[i] = atomic_load(&r->thr[i].lat_min_ns);
        s->thr_max_ns[i] = atomic_load(&r->thr[i].lat_max_ns);
    }
}

/* Used by `bench merge` (mrg_: multi-host runs) and the tests. */
BENCH_API int res_stats_merge(struct res_stats *dst, const struct res_stats *src)
{
    if (dst->d.nops != src->d.nops)
        return B_INVALID;
    u64 mn = dst->d.events ? dst->d.lat_min_ns : UINT64_MAX;
    u64 smn = src->d.events ? src->d.lat_min_ns : UINT64_MAX;
    dst->d.lat_min_ns = B_MIN(mn, smn);
    if (dst->d.lat_min_ns == UINT64_MAX)
        dst->d.lat_min_ns = 0;
    dst->d.lat_max_ns = B_MAX(dst->d.lat_max_ns, src->d.lat_max_ns);
    dst->d.events += src->d.events;
    dst->d.lat_sum_ns += src->d.lat_sum_ns;
    for (int k = 0; k < LOAD_NCTR; k++)
        dst->d.ctr[k] += src->d.ctr[k];
    hist_add(dst->d.hist, src->d.hist);
    for (int k = 0; k < dst->d.nops; k++)
        hist_add(&dst->d.op_hist[k], &src->d.op_hist[k]);
    dst->window_s += src->window_s;
    dst->total_s += src->total_s;
    dst->at_s = dst->total_s;
    dst->unfinished += src->unfinished;
    return B_OK;
}

/*== 16 uring_, io_ : io_uring by raw syscalls; the fileio workload ==========*/
/*
 * uring_: a minimal io_uring client over the three raw syscalls (no liburing): setup with
 * fio's "newest flags first" ladder (SINGLE_ISSUER|DEFER_TASKRUN, then COOP_TASKRUN, then
 * CQSIZE, then none), the three mmaps (or one ring mapping with IORING_FEAT_SINGLE_MMAP),
 * registered files and buffers where the kernel and RLIMIT_MEMLOCK allow, each request
 * submitted at once and completions reaped in batches. References: io_uring_setup(2),
 * io_uring_enter(2), fio engines/io_uring.c (behaviour), shared/spec/sizing.md 3.2-3.4.
 *
 * io_: sysbench 1.0.20's fileio (spec 3.5): test_file.N of total/num bytes in --file-dir,
 * sequential modes walking the files and wrapping around, random modes, the periodic fsync
 * burst (after every --file-fsync-freq requests one fsync event per file), --file-fsync-all,
 * fsync of all files by each thread at the end, the deterministic read/write mix of rndrw,
 * and --validate's CRC32 trailers. Requests come from one atomic ticket counter (no mutex):
 * ticket k maps to the k-th request of sysbench's sequence. Beyond sysbench: data is
 * incompressible, O_DIRECT buffers are aligned, one latency histogram per operation,
 * --file-queue-depth for io_uring, and cleanup removes only files it can prove are its own.
 * Limitations: async mode needs io_uring (Linux 5.1+); --rate needs sync or mmap mode.
 */

#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

struct uring {
    int fd;                      /* ring fd, -1 when closed */
    unsigned sq_entries, cq_entries, sq_mask, cq_mask;
    unsigned *sq_head, *sq_tail, *sq_array, *cq_head, *cq_tail;
    struct io_uring_sqe *sqes;   /* SQE array */
    struct io_uring_cqe *cqes;   /* CQE array */
    void *sq_map, *cq_map;       /* ring mappings (cq_map == sq_map with SINGLE_MMAP) */
    size_t sq_map_len, cq_map_len, sqes_len;
    unsigned local_tail;         /* SQEs filled, not yet published */
    unsigned published;          /* SQEs published to the kernel */
    unsigned setup_flags;        /* the rung of the ladder that worked */
    bool fixed_files, fixed_bufs;/* registrations in effect */
};

static int uring_sys_setup(unsigned entries, struct io_uring_params *p)
{
    return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int uring_sys_enter(int fd, unsigned submit, unsigned min, unsigned flags)
{
    return (int)syscall(__NR_io_uring_enter, fd, submit, min, flags, NULL, 0);
}

static int uring_sys_register(int fd, unsigned op, const void *arg, unsigned n)
{
    return (int)syscall(__NR_io_uring_register, fd, op, arg, n);
}

static void uring_free(struct uring *u)
{
    if (u->sqes && u->sqes != MAP_FAILED)
        munmap(u->sqes, u->sqes_len);
    if (u->cq_map && u->cq_map != MAP_FAILED && u->cq_map != u->sq_map)
        munmap(u->cq_map, u->cq_map_len);
    if (u->sq_map && u->sq_map != MAP_FAILED)
        munmap(u->sq_map, u->sq_map_len);
    if (u->fd >= 0)
        close(u->fd);
    memset(u, 0, sizeof(*u));
    u->fd = -1;
}

/* uring_setup - a ring of `entries` SQEs. On failure *e says why (errno kept). */
static int uring_setup(struct uring *u, unsigned entries, struct b_err *e)
{
    static const unsigned ladder[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN |
            IORING_SETUP_CQSIZE,
        IORING_SETUP_COOP_TASKRUN | IORING_SETUP_CQSIZE,
        IORING_SETUP_CQSIZE,
        0,
    };
    struct io_uring_params p;
    int fd = -1, err = 0;
    memset(u, 0, sizeof(*u));
    u->fd = -1;
    for (size_t i = 0; i < countof(ladder); i++) {
        memset(&p, 0, sizeof(p));
        p.flags = ladder[i];
        p.cq_entries = entries * 2;
        fd = uring_sys_setup(entries, &p);
        if (fd >= 0) {
            u->setup_flags = ladder[i];
            break;
        }
        err = errno;
        if (err != EINVAL)
            break;
    }
    if (fd < 0) {
        const char *why = err == ENOSYS   ? "the kernel lacks io_uring (Linux < 5.1 or "
                                            "CONFIG_IO_URING=n) or a sandbox hides it"
                          : err == EPERM  ? "refused by a seccomp profile (containers) or by "
                                            "kernel.io_uring_disabled"
                          : err == ENOMEM ? "RLIMIT_MEMLOCK is too small for the ring"
                                          : "the kernel refused the ring";
        if (e)
            snprintf(e->hint, sizeof(e->hint),
                     "use --file-io-mode=sync (kernel.io_uring_disabled is %s here)",
                     os_read_line("/proc/sys/kernel/io_uring_disabled"));
        return b_seterr(e, err == ENOSYS || err == EPERM ? B_UNSUPPORTED : B_SYSERR, err,
                        "io_uring_setup(%u) failed: %s (%s); %s", entries, strerror(err),
                        b_errno_name(err), why);
    }
    u->fd = fd;
    u->sq_entries = p.sq_entries;
    u->cq_entries = p.cq_entries;
    u->sq_map_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    u->cq_map_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    if (p.features & IORING_FEAT_SINGLE_MMAP)
        u->sq_map_len = u->cq_map_len = B_MAX(u->sq_map_len, u->cq_map_len);
    u->sq_map = mmap(NULL, u->sq_map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
                     IORING_OFF_SQ_RING);
    if (u->sq_map == MAP_FAILED)
        goto fail;
    u->cq_map = (p.features & IORING_FEAT_SINGLE_MMAP)
                    ? u->sq_map
                    : mmap(NULL, u->cq_map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                           fd, IORING_OFF_CQ_RING);
    if (u->cq_map == MAP_FAILED)
        goto fail;
    u->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
    u->sqes = mmap(NULL, u->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
                   IORING_OFF_SQES);
    if (u->sqes == MAP_FAILED)
        goto fail;
    char *sq = u->sq_map, *cq = u->cq_map;
    u->sq_head = (unsigned *)(void *)(sq + p.sq_off.head);
    u->sq_tail = (unsigned *)(void *)(sq + p.sq_off.tail);
    u->sq_mask = *(unsigned *)(void *)(sq + p.sq_off.ring_mask);
    u->sq_array = (unsigned *)(void *)(sq + p.sq_off.array);
    u->cq_head = (unsigned *)(void *)(cq + p.cq_off.head);
    u->cq_tail = (unsigned *)(void *)(cq + p.cq_off.tail);
    u->cq_mask = *(unsigned *)(void *)(cq + p.cq_off.ring_mask);
    u->cqes = (struct io_uring_cqe *)(void *)(cq + p.cq_off.cqes);
    u->local_tail = u->published = *u->sq_tail;
    return B_OK;
fail:
    err = errno;
    uring_free(u);
    return b_seterr(e, B_SYSERR, err, "mapping the io_uring rings failed: %s (%s)",
                    strerror(err), b_errno_name(err));
}

/* uring_sqe - the next free SQE, zeroed, or NULL when the SQ is full. */
static struct io_uring_sqe *uring_sqe(struct uring *u)
{
    unsigned head = __atomic_load_n(u->sq_head, __ATOMIC_ACQUIRE);
    if (u->local_tail - head >= u->sq_entries)
        return NULL;
    unsigned idx = u->local_tail & u->sq_mask;
    struct io_uring_sqe *sqe = &u->sqes[idx];
    memset(sqe, 0, sizeof(*sqe));
    u->sq_array[idx] = idx;
    u->local_tail++;
    return sqe;
}

/* uring_submit - publish the filled SQEs and wait for at least `wait` completions. */
static int uring_submit(struct uring *u, unsigned wait)
{
    unsigned n = u->local_tail - u->published;
    __atomic_store_n(u->sq_tail, u->local_tail, __ATOMIC_RELEASE);
    u->published = u->local_tail;
    for (;;) {
        int rc = uring_sys_enter(u->fd, n, wait, wait ? IORING_ENTER_GETEVENTS : 0);
        if (rc >= 0) {
            n -= B_MIN(n, (unsigned)rc);
            if (n == 0 || wait == 0)
                return B_OK;
            continue;
        }
        if (errno != EINTR && errno != EAGAIN && errno != EBUSY)
            return B_SYSERR;
    }
}

/* uring_cqe - the next completion, or NULL; uring_cqe_seen releases it. */
static struct io_uring_cqe *uring_cqe(struct uring *u)
{
    unsigned head = *u->cq_head;
    if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
        return NULL;
    return &u->cqes[head & u->cq_mask];
}

static void uring_cqe_seen(struct uring *u)
{
    __atomic_store_n(u->cq_head, *u->cq_head + 1, __ATOMIC_RELEASE);
}

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32 with seed 0) for --validate. */
static u32 io_crc_table[256];
static pthread_once_t io_crc_once = PTHREAD_ONCE_INIT;

static void io_crc_init(void)
{
    for (u32 i = 0; i < 256; i++) {
        u32 c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        io_crc_table[i] = c;
    }
}

static u32 io_crc32(u32 crc, const u8 *p, size_t n)
{
    pthread_once(&io_crc_once, io_crc_init);
    crc = ~crc;
    while (n--)
        crc = io_crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static const struct opt_def opt_fileio[] = {
    OPT("file-num", INT, file_num, "128", 1, 1e6, NULL, "number of files to create", NULL,
        OPT_F_SBLATE),
    OPT("file-block-size", SIZE, file_block_size, "16384", 1, 1ull << 30, NULL,
        "block size to use in all IO operations", "Invalid value for file-block-size: %u.",
        OPT_F_SBHINT_N | OPT_F_SBLATE),
    OPT("file-total-size", SIZE, file_total_size, "2G", 1, 1e18, NULL,
        "total size of files to create", NULL, OPT_F_SBLATE),
    OPT("file-test-mode", STR, file_test_mode, "", 0, 0, NULL,
        "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}", NULL, OPT_F_NODEF),
    OPT("file-io-mode", ENUM, file_io_mode, "sync", 0, 0, "sync,async,mmap",
        "file operations mode %C", "unknown I/O mode: %s", OPT_F_SBLATE),
    OPT("file-async-backlog", INT, file_async_backlog, "128", 1, 4096, NULL,
        "number of asynchronous operatons to queue per thread", NULL, OPT_F_SBLATE),
    OPT("file-extra-flags", LIST, file_extra_flags, "", 0, 0, NULL,
        "list of additional flags to use to open files {sync,dsync,direct}", NULL, 0),
    OPT("file-fsync-freq", INT, file_fsync_freq, "100", 0, 1e12, NULL,
        "do fsync() after this number of requests (0 - don't use fsync())",
        "Invalid value for file-fsync-freq: %s.", OPT_F_SBLATE),
    OPT("file-fsync-all", BOOL, file_fsync_all, "off", 0, 0, NULL,
        "do fsync() after each write operation", NULL, 0),
    OPT("file-fsync-end", BOOL, file_fsync_end, "on", 0, 0, NULL,
        "do fsync() at the end of test", NULL, 0),
    OPT("file-fsync-mode", ENUM, file_fsync_mode, "fsync", 0, 0, "fsync,fdatasync",
        "which method to use for synchronization {fsync, fdatasync}",
        "Invalid fsync mode: %s.", OPT_F_SBLATE),
    OPT("file-merged-requests", INT, file_merged_requests, "0", 0, 1e6, NULL,
        "merge at most this number of IO requests if possible (0 - don't merge)",
        "Invalid value for file-merged-requests: %s.", OPT_F_SBLATE),
    OPT("file-rw-ratio", DOUBLE, file_rw_ratio, "1.5", 0, 1e9, NULL,
        "reads/writes ratio for combined test", "Invalid value for --file-rw-ratio: %f.",
        OPT_F_SBLATE),
    OPT("file-dir", STR, file_dir, ".", 0, 0, NULL,
        "directory for the test files (bench creates and removes only test_file.N and its "
        "manifest .bench-fileio.manifest there)",
        NULL, OPT_F_EXT),
    OPT("file-queue-depth", INT, file_queue_depth, "0", 0, 4096, NULL,
        "I/O requests in flight per thread with --file-io-mode=async (io_uring); 0 means "
        "--file-async-backlog, as sysbench",
        NULL, OPT_F_EXT),
    OPT("file-fill", STR, file_fill, "", 0, 0, NULL,
        "data written {random, zero}: random (incompressible, every 512 bytes unique) is "
        "the default, zero (sysbench's content) when invoked as sysbench",
        NULL, OPT_F_EXT | OPT_F_NODEF),
    OPT("file-io-mode-strict", BOOL, file_io_mode_strict, "off", 0, 0, NULL,
        "fail (exit 3) instead of falling back to sync when io_uring is unavailable", NULL,
        OPT_F_EXT),
};

enum { IO_SEQWR, IO_SEQREWR, IO_SEQRD, IO_RNDRD, IO_RNDWR, IO_RNDRW };
enum { IO_SYNC, IO_ASYNC, IO_MMAP };
enum { IO_OP_READ, IO_OP_WRITE, IO_OP_FSYNC }; /* also the per-operation histogram index */
static const char *const io_mode_names[] = {"seqwr", "seqrewr", "seqrd",
                                            "rndrd", "rndwr",   "rndrw"};
static const char *const io_mode_text[] = {"sequential write (creation)", "sequential rewrite",
                                           "sequential read", "random read", "random write",
                                           "random r/w"};
static const char *const io_op_names[] = {"read", "write", "fsync"};

/* What the fileio counters count (the report's "File operations" and "Throughput"). */
static const struct res_ctr_def io_ctrs[] = {
    {"reads", "operations", true, "read requests completed"},
    {"writes", "operations", true, "write requests completed"},
    {"fsyncs", "operations", true, "fsync/fdatasync calls completed"},
    {"read_bytes", "bytes", true, "bytes read"},
    {"written_bytes", "bytes", true, "bytes written"},
};

#define IO_VALIDATE_TRAILER 12 /* CRC32 (4) + file offset (8) at the end of each block */

/* Derived run parameters and shared state. */
struct io_shared {
    int mode, iomode, nfiles, oflags, flagwords;
    u64 file_size, full_size;    /* size asked for, and what prepare leaves (whole blocks) */
    u64 bs, req_size;            /* block size, request size (merged for sequential) */
    u64 period, freq;            /* fsync burst: freq I/O tickets then nfiles fsync tickets */
    u64 reqs_per_file;           /* sequential: requests per file */
    unsigned depth;              /* requests in flight per thread (async) */
    bool writes, validate, fsync_all, fdatasync;
    bool fill_random;            /* --file-fill=random, or --validate */
    int *fds;                    /* [nfiles] */
    struct io_man *man;          /* --file-dir and its manifest (run) */
    u8 **maps;                   /* [nfiles] for mmap mode */
    _Atomic u64 ticket;          /* next request of the sequence */
    /* rndrw with periodic fsync: sysbench's stateful generator (a burst only when a write
     * came since the last one), under a lock because reads may leave a burst out */
    bool dirty_gen;
    pthread_mutex_t gen_mu;
    u64 req_performed;           /* I/O requests issued (not fsyncs) */
    int fsynced_file;            /* next file of the burst in progress */
    bool is_dirty;               /* a write since the last complete burst */
    _Atomic u8 *held;            /* --validate with concurrency: blocks in flight, [nblocks] */
    u64 nblocks;                 /* blocks in all files */
    const struct bench_opts *o;
};

/* Where the written data comes from (io_fill). */
struct io_pool {
    u8 *base;                    /* span + step bytes, 4 KiB aligned */
    u64 span, step, pos;         /* walk: pos advances by step (a request, 4 KiB rounded) */
    u64 seq, nonce;              /* writes made, and this pool's own random salt */
};

/* One request. */
struct io_req {
    int op, file;
    u64 off, len;
};

/* An async slot: one request in flight and its buffer. */
struct io_slot {
    struct io_req q;
    u64 start_ns;
    u8 *buf;
};

struct io_thread {
    u8 *buf;                     /* depth * req_size bytes, 4 KiB aligned */
    struct io_pool pool;         /* written data */
    u64 reads_done, writes_done; /* for rndrw's deterministic mix */
    struct uring ring;           /* async mode */
    struct io_slot *slots;       /* [depth] */
    unsigned *free_slots, nfree; /* stack of free slot indexes */
};

static bool io_mode_writes(int mode)
{
    return mode != IO_SEQRD && mode != IO_RNDRD;
}

static bool io_mode_random(int mode)
{
    return mode >= IO_RNDRD;
}

/* Parse --file-extra-flags into open(2) flags; -1 on an unknown word (in *bad). *words
 * gets the words given (1 sync, 2 dsync, 4 direct): O_SYNC includes O_DSYNC's bit, so the
 * flags alone cannot tell "sync" from "sync,dsync" as sysbench prints them. */
static int io_parse_flags(const char *list, const char **bad, size_t *badlen, int *words)
{
    int fl = 0, wd = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 4 && !strncmp(p, "sync", 4))
            fl |= O_SYNC, wd |= 1;
        else if (n == 5 && !strncmp(p, "dsync", 5))
            fl |= O_DSYNC, wd |= 2;
        else if (n == 6 && !strncmp(p, "direct", 6))
            fl |= O_DIRECT, wd |= 4;
        else if (n) {
            *bad = p;
            *badlen = n;
            return -1;
        }
        p += n;
        if (*p)
            p++;
    }
    if (words)
        *words = wd;
    return fl;
}

/* The path of test file i in --file-dir. */
static void io_path(const struct bench_opts *o, int i, char *out, size_t n)
{
    if (!strcmp(o->file_dir, "."))
        snprintf(out, n, "test_file.%d", i);
    else
        snprintf(out, n, "%s/test_file.%d", o->file_dir, i);
}

static int io_test_mode(const char *s)
{
    for (int i = 0; i < (int)countof(io_mode_names); i++)
        if (!strcmp(s, io_mode_names[i]))
            return i;
    return -1;
}

/*
 * The one switch io_ reads: o->sb_behaviour (set by cli_ from the persona's row), sysbench's
 * own behaviour where bench's differs on purpose (docs/cli.md): the files it accepts as its
 * own, zeros as the default fill, checks sysbench does not make, a missing --file-dir as
 * nothing to clean up, prepare's size line, the exit code of a cleanup that left someone's
 * files. Messages carry both wordings in the struct b_err; cli_ picks one.
 */
static bool io_sb(const struct bench_opts *o)
{
    return o->sb_behaviour;
}

static int io_check(struct bench_opts *o, struct b_err *err);

/* Why io_check_run fell back from io_uring to sync ("" = it did not): io_facts makes it the
 * run's "io_uring_fallback" warning. */
static char io_fallback_why[sizeof(((struct b_err *)0)->msg)];

/* Fill sh from the options (no I/O). */
static void io_params(struct io_shared *sh, const struct bench_opts *o, int mode)
{
    const char *bad;
    size_t badlen;
    memset(sh, 0, sizeof(*sh));
    sh->o = o;
    sh->mode = mode;
    sh->iomode = o->file_io_mode;
    sh->nfiles = (int)o->file_num;
    sh->bs = o->file_block_size;
    sh->file_size = o->file_total_size / (u64)o->file_num;
    sh->full_size = (sh->file_size + sh->bs - 1) / sh->bs * sh->bs;
    sh->oflags = io_parse_flags(o->file_extra_flags, &bad, &badlen, &sh->flagwords);
    sh->req_size = (!io_mode_random(mode) && o->file_merged_requests > 0)
                       ? sh->bs * (u64)o->file_merged_requests
                       : sh->bs;
    sh->reqs_per_file = sh->file_size ? (sh->file_size + sh->req_size - 1) / sh->req_size : 1;
    sh->writes = io_mode_writes(mode);
    sh->validate = o->validate;
    /* the sysbench persona writes sysbench's zeros unless asked (--validate: random) */
    sh->fill_random = o->validate || (*o->file_fill ? !strcmp(o->file_fill, "random") : !io_sb(o));
    sh->fsync_all = o->file_fsync_all;
    sh->fdatasync = o->file_fsync_mode == 1;
    sh->freq = (u64)o->file_fsync_freq;
    sh->period = (sh->writes && sh->freq && !sh->fsync_all) ? sh->freq + (u64)sh->nfiles : 0;
    /* seqwr, seqrewr and rndwr write on every request, so a burst always follows a write
     * and the ticket formula holds; rndrw's reads may leave one out (sysbench's is_dirty) */
    sh->dirty_gen = sh->period && mode == IO_RNDRW;
    sh->depth = sh->iomode == IO_ASYNC ? (unsigned)(o->file_queue_depth ? o->file_queue_depth
                                                                       : o->file_async_backlog)
                                       : 1;
}

/* A random request (rndrd, rndwr, rndrw): sysbench's position and read/write choice. */
static void io_rnd_req(struct io_shared *sh, struct io_thread *it, struct rnd *rng,
                       struct io_req *q)
{
    u64 total = sh->file_size * (u64)sh->nfiles, pos;
    for (;;) {
        pos = (u64)(rnd_double(rng) * (double)total) / sh->bs * sh->bs;
        u8 zero = 0;
        /* --validate: a block being written by one request must not be read or written by
         * another at the same time (sysbench re-draws too) */
        if (!sh->held || atomic_compare_exchange_strong(&sh->held[pos / sh->bs], &zero, 1))
            break;
    }
    q->file = (int)(pos / sh->file_size);
    q->off = pos % sh->file_size;
    q->len = B_MIN(sh->bs, sh->file_size - q->off);
    if (sh->mode == IO_RNDRD)
        q->op = IO_OP_READ;
    else if (sh->mode == IO_RNDWR)
        q->op = IO_OP_WRITE;
    else
        q->op = (double)(it->reads_done + 1) / (double)(it->writes_done + 1) <
                        sh->o->file_rw_ratio
                    ? IO_OP_READ
                    : IO_OP_WRITE;
}

/* rndrw with periodic fsync, as sysbench's file_get_rnd_request: when the requests issued
 * are a multiple of --file-fsync-freq and a write came since the last burst, one fsync
 * event per file; without a write in between, no burst (--file-rw-ratio=1000: 1 write in
 * 1000 events, no burst). */
static void io_next_dirty(struct io_shared *sh, struct io_thread *it, struct rnd *rng,
                          struct io_req *q)
{
    pthread_mutex_lock(&sh->gen_mu);
    if (sh->is_dirty && sh->req_performed % sh->freq == 0) {
        q->op = IO_OP_FSYNC;
        q->file = sh->fsynced_file++;
        q->off = q->len = 0;
        if (sh->fsynced_file == sh->nfiles) {
            sh->fsynced_file = 0;
            sh->is_dirty = false;
        }
    } else {
        sh->req_performed++;
        io_rnd_req(sh, it, rng, q);
        sh->is_dirty |= q->op == IO_OP_WRITE;
    }
    pthread_mutex_unlock(&sh->gen_mu);
}

/* The request for the next ticket: sysbench's sequence, without its global mutex. */
static void io_next(struct io_shared *sh, struct io_thread *it, struct rnd *rng,
                    struct io_req *q)
{
    if (sh->dirty_gen) {
        io_next_dirty(sh, it, rng, q);
        return;
    }
    u64 t = atomic_fetch_add_explicit(&sh->ticket, 1, memory_order_relaxed);
    if (sh->period) {
        u64 k = t % sh->period;
        if (k >= sh->freq) {
            q->op = IO_OP_FSYNC;
            q->file = (int)(k - sh->freq);
            q->off = q->len = 0;
            return;
        }
        t = t / sh->period * sh->freq + k; /* index among the I/O requests */
    }
    if (!io_mode_random(sh->mode)) {
        u64 f = (t / sh->reqs_per_file) % (u64)sh->nfiles;
        q->file = (int)f;
        q->off = (t % sh->reqs_per_file) * sh->req_size;
        q->len = B_MIN(sh->req_size, sh->file_size - q->off);
        q->op = sh->mode == IO_SEQRD ? IO_OP_READ : IO_OP_WRITE;
        return;
    }
    io_rnd_req(sh, it, rng, q);
}

/*
 * Written data, --file-fill. random (the bench persona's default): a pool of random bytes
 * made once per thread (IO_POOL_SPAN plus one request) that the writes walk through, one
 * request's worth further each time, and a stamp of 16 bytes at the start of every 512
 * bytes: a hash of the file, the offset and the thread's write count. So every sector
 * written differs from every other (nothing to deduplicate, at any granularity from 512
 * bytes, also between two writes of the same block), and 1 MiB of consecutive writes holds
 * 1 MiB of distinct random bytes (nothing for a compressing filesystem's 128 KiB records),
 * at the cost of two hashes per 512 bytes instead of 8 random bytes per 8 (fresh random
 * data for every write was 41-56% of bench's CPU time, as fio's scramble_buffers). zero:
 * sysbench's content (its buffers are zeros), the sysbench persona's default. --validate
 * always writes random data, each block ending in a CRC32 and its offset, as sysbench.
 */
#define IO_POOL_SPAN ((u64)1 << 20)

static u64 io_mix64(u64 x) /* splitmix64's finalizer */
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Make a thread's pool: random unless zeros are asked for; 4 KiB aligned (O_DIRECT). */
static int io_pool_init(struct io_pool *pl, const struct io_shared *sh, u64 salt)
{
    void *p = NULL;
    memset(pl, 0, sizeof(*pl));
    pl->step = (sh->req_size + 4095) / 4096 * 4096;
    pl->span = sh->fill_random ? IO_POOL_SPAN : 0;
    size_t len = (size_t)(pl->span + pl->step);
    if (posix_memalign(&p, 4096, len))
        return -1;
    pl->base = p;
    struct rnd r = {{io_mix64(clk_now_ns() ^ salt), io_mix64(salt + (uintptr_t)p) | 1}};
    pl->nonce = rnd_next(&r);
    if (!sh->fill_random) {
        memset(pl->base, 0, len); /* also touches the pages now, not in the measured loop */
        return 0;
    }
    for (size_t i = 0; i + 8 <= len; i += 8) {
        u64 x = rnd_next(&r);
        memcpy(pl->base + i, &x, 8);
    }
    return 0;
}

/* The next write's data: len bytes at off of file, from the pool (stamped, with --validate
 * trailers). Valid until the next call. */
static u8 *io_fill(const struct io_shared *sh, struct io_pool *pl, u64 len, u64 off, int file)
{
    u8 *buf = pl->base + pl->pos;
    if (!sh->fill_random)
        return buf;
    pl->pos = (pl->pos + pl->step) % pl->span;
    /* each sector starts with a stamp: a hash of where the write goes (file and offset)
     * plus the sector's place in it, and a hash of the write count (so a rewrite differs
     * too). Two hashes per write, not per sector: two multiplies per sector keep the
     * stamping cheap next to a page-cache write */
    u64 h = io_mix64(pl->nonce ^ ((u64)(unsigned)file << 44) ^ off);
    u64 when = io_mix64(pl->nonce + ++pl->seq);
    for (u64 b = 0; b < len; b += 512) {
        /* a Weyl step per sector, then an odd multiply (both bijections: sectors of a
         * write differ) so that neighbouring stamps share no bytes a compressor could use */
        u64 x = h + (b >> 9) * 0x9e3779b97f4a7c15ull;
        u64 st[2] = {x * 0xbf58476d1ce4e5b9ull, (x ^ when) * 0x94d049bb133111ebull};
        memcpy(buf + b, st, (size_t)B_MIN(16, len - b));
    }
    if (!sh->validate)
        return buf;
    for (u64 b = 0; b < len; b += sh->bs) {
        u64 n = B_MIN(sh->bs, len - b), boff = off + b;
        if (n <= IO_VALIDATE_TRAILER)
            continue;
        u32 crc = io_crc32(0, buf + b, (size_t)(n - IO_VALIDATE_TRAILER));
        memcpy(buf + b + n - IO_VALIDATE_TRAILER, &crc, 4);
        memcpy(buf + b + n - 8, &boff, 8);
    }
    return buf;
}

/* --validate: check the CRC trailers of what was read. */
static int io_verify(struct io_shared *sh, const u8 *buf, u64 len, u64 off, int file,
                     struct b_err *e)
{
    for (u64 b = 0; b < len; b += sh->bs) {
        u64 n = B_MIN(sh->bs, len - b), boff = off + b, got_off;
        u32 crc, want;
        if (n <= IO_VALIDATE_TRAILER)
            continue;
        crc = io_crc32(0, buf + b, (size_t)(n - IO_VALIDATE_TRAILER));
        memcpy(&want, buf + b + n - IO_VALIDATE_TRAILER, 4);
        memcpy(&got_off, buf + b + n - 8, 8);
        if (crc != want)
            return b_seterr(e, B_PROTOCOL, 0,
                            "Checksum mismatch in block with offset: %llu (file %d)",
                            (unsigned long long)boff, file);
        if (got_off != boff)
            return b_seterr(e, B_PROTOCOL, 0,
                            "Offset mismatch in block: actual offset: %llu, expected: %llu "
                            "(file %d)",
                            (unsigned long long)got_off, (unsigned long long)boff, file);
    }
    return B_OK;
}

/* Release a block io_next reserved for --validate. */
static void io_release(struct io_shared *sh, const struct io_req *q)
{
    if (sh->held && q->op != IO_OP_FSYNC && io_mode_random(sh->mode))
        atomic_store(&sh->held[(sh->file_size * (u64)q->file + q->off) / sh->bs], 0);
}

static void io_count(struct load_thread *t, int op, u64 bytes)
{
    int c = op == IO_OP_READ ? 0 : op == IO_OP_WRITE ? 1 : 2;
    atomic_store_explicit(&t->ctr[c], atomic_load_explicit(&t->ctr[c], memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (op != IO_OP_FSYNC)
        atomic_store_explicit(&t->ctr[3 + c],
                              atomic_load_explicit(&t->ctr[3 + c], memory_order_relaxed) + bytes,
                              memory_order_relaxed);
}

static int io_sync_file(struct io_shared *sh, int file)
{
    if (sh->iomode == IO_MMAP && sh->maps)
        return msync(sh->maps[file], (size_t)sh->file_size, MS_SYNC | MS_INVALIDATE);
    return sh->fdatasync ? fdatasync(sh->fds[file]) : fsync(sh->fds[file]);
}

static int io_syserr_e(struct b_err *e, const struct bench_opts *o, const char *what, int file,
                       u64 off, int err)
{
    char path[PATH_MAX];
    io_path(o, file, path, sizeof(path));
    return b_seterr(e, B_SYSERR, err, "%s %s at offset %llu failed: %s (%s)", what, path,
                    (unsigned long long)off, strerror(err), b_errno_name(err));
}

static int io_syserr(struct load_thread *t, const char *what, int file, u64 off, int err)
{
    return io_syserr_e(&t->err, t->run->o, what, file, off, err);
}

static int io_do(struct load_thread *t, const struct io_req *qp);

/*
 * mmap mode: a page the filesystem cannot back (no space for a hole or a copy-on-write
 * block, a file truncated under the mapping) raises SIGBUS in the copy. The handler jumps
 * back to io_map_copy, which fails like a failed pwrite; a SIGBUS anywhere else keeps its
 * default action. SA_NODEFER: the jump leaves the handler, so SIGBUS must stay unblocked.
 */
static _Thread_local sigjmp_buf *volatile io_bus_jmp; /* volatile: set around a memcpy */

static void io_on_sigbus(int sig)
{
    if (io_bus_jmp)
        siglongjmp(*io_bus_jmp, 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void io_catch_sigbus(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = io_on_sigbus;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

/* memcpy to or from a mapping; -1 when the page could not be backed (SIGBUS). */
static int io_map_copy(void *dst, const void *src, size_t n)
{
    sigjmp_buf jb;
    if (sigsetjmp(jb, 0)) {
        io_bus_jmp = NULL;
        return -1;
    }
    io_bus_jmp = &jb;
    memcpy(dst, src, n);
    io_bus_jmp = NULL;
    return 0;
}

/* One request, synchronously (sync and mmap modes). */
static int io_event(struct load_thread *t)
{
    struct io_shared *sh = t->run->wl_global;
    struct io_req q;
    io_next(sh, t->wl, &t->rng, &q);
    t->op = q.op;
    int rc = io_do(t, &q);
    io_release(sh, &q);
    return rc;
}

static int io_do(struct load_thread *t, const struct io_req *qp)
{
    struct load_run *r = t->run;
    struct io_shared *sh = r->wl_global;
    struct io_thread *it = t->wl;
    struct io_req q = *qp;
    if (q.op == IO_OP_FSYNC) {
        if (io_sync_file(sh, q.file) < 0)
            return io_syserr(t, "fsync of", q.file, 0, errno);
        io_count(t, q.op, 0);
        return B_OK;
    }
    size_t len = (size_t)q.len;
    if (q.op == IO_OP_WRITE) {
        const u8 *src = io_fill(sh, &it->pool, q.len, q.off, q.file);
        if (sh->iomode == IO_MMAP) {
            /* seqwr grows the files with ftruncate: allocate the hole first, so that a full
             * disk is ENOSPC here, as in sync mode, not SIGBUS in the copy */
            if (sh->mode == IO_SEQWR &&
                fallocate(sh->fds[q.file], 0, (off_t)q.off, (off_t)len) < 0 &&
                errno != EOPNOTSUPP)
                return io_syserr(t, "fallocate of", q.file, q.off, errno);
            if (io_map_copy(sh->maps[q.file] + q.off, src, len) < 0)
                return io_syserr(t, "write (SIGBUS: no space to back the page) through the "
                                    "mapping of",
                                 q.file, q.off, EIO);
        } else
            for (size_t done = 0; done < len;) {
                ssize_t n = pwrite(sh->fds[q.file], src + done, len - done,
                                   (off_t)(q.off + done));
                if (n <= 0)
                    return io_syserr(t, "pwrite to", q.file, q.off, n < 0 ? errno : EIO);
                done += (size_t)n;
            }
        if (sh->fsync_all) {
            if (io_sync_file(sh, q.file) < 0)
                return io_syserr(t, "fsync of", q.file, 0, errno);
            io_count(t, IO_OP_FSYNC, 0);
        }
        it->writes_done++;
    } else {
        if (sh->iomode == IO_MMAP) {
            if (io_map_copy(it->buf, sh->maps[q.file] + q.off, len) < 0)
                return io_syserr(t, "read (SIGBUS: the file was cut under the mapping) from",
                                 q.file, q.off, EIO);
        } else
            for (size_t done = 0; done < len;) {
                ssize_t n = pread(sh->fds[q.file], it->buf + done, len - done,
                                  (off_t)(q.off + done));
                if (n <= 0)
                    return n < 0 ? io_syserr(t, "pread from", q.file, q.off, errno)
                                 : io_syserr(t, "pread (end of file) from", q.file, q.off, EIO);
                done += (size_t)n;
            }
        if (sh->validate && io_verify(sh, it->buf, q.len, q.off, q.file, &t->err) < 0)
            return B_PROTOCOL;
        it->reads_done++;
    }
    io_count(t, q.op, q.len);
    return B_OK;
}

/* Prepare an SQE for request q in slot k. */
static void io_prep_sqe(struct io_shared *sh, struct io_thread *it, struct io_uring_sqe *sqe,
                        unsigned k)
{
    struct io_slot *sl = &it->slots[k];
    sqe->user_data = k;
    sqe->fd = it->ring.fixed_files ? sl->q.file : sh->fds[sl->q.file];
    if (it->ring.fixed_files)
        sqe->flags |= IOSQE_FIXED_FILE;
    if (sl->q.op == IO_OP_FSYNC) {
        sqe->opcode = IORING_OP_FSYNC;
        sqe->fsync_flags = sh->fdatasync ? IORING_FSYNC_DATASYNC : 0;
        sqe->flags |= IOSQE_IO_DRAIN; /* an fsync covers the writes issued before it */
        return;
    }
    bool w = sl->q.op == IO_OP_WRITE;
    sqe->opcode = it->ring.fixed_bufs ? (w ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED)
                                      : (w ? IORING_OP_WRITE : IORING_OP_READ);
    sqe->addr = (u64)(uintptr_t)sl->buf;
    sqe->len = (u32)sl->q.len;
    sqe->off = sl->q.off;
    if (it->ring.fixed_bufs)
        sqe->buf_index = (u16)k;
}

/* async mode: the thread's whole loop, up to `depth` requests in flight on its ring. */
static int io_async_loop(struct load_thread *t)
{
    struct load_run *r = t->run;
    struct io_shared *sh = r->wl_global;
    struct io_thread *it = t->wl;
    unsigned inflight = 0;
    bool more = true;
    u64 t0 = clk_now_ns();
    for (;;) {
        u64 now = clk_now_ns();
        while (more && it->nfree > 0) {
            if (!load_claim(t, now)) {
                more = false;
                break;
            }
            unsigned k = it->free_slots[--it->nfree];
            struct io_slot *sl = &it->slots[k];
            io_next(sh, it, &t->rng, &sl->q);
            if (sl->q.op == IO_OP_WRITE) {
                /* the slot's buffer is registered with the ring (and may hold a read) */
                memcpy(sl->buf, io_fill(sh, &it->pool, sl->q.len, sl->q.off, sl->q.file),
                       (size_t)sl->q.len);
                it->writes_done++;
            } else if (sl->q.op == IO_OP_READ)
                it->reads_done++;
            struct io_uring_sqe *sqe = uring_sqe(&it->ring);
            if (!sqe)
                return b_seterr(&t->err, B_SYSERR, 0, "io_uring submission queue full");
            io_prep_sqe(sh, it, sqe, k);
            sl->start_ns = now;
            inflight++;
            /* submit each request at once (as fio's iodepth_batch_submit=1): batching the
             * refills left the device queue emptier and cost ~12% IOPS at QD32 here */
            if (uring_submit(&it->ring, 0) < 0)
                return b_seterr(&t->err, B_SYSERR, errno, "io_uring_enter failed: %s (%s)",
                                strerror(errno), b_errno_name(errno));
        }
        if (inflight == 0)
            return B_DONE;
        atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
        if (uring_submit(&it->ring, 1) < 0)
            return b_seterr(&t->err, B_SYSERR, errno, "io_uring_enter failed: %s (%s)",
                            strerror(errno), b_errno_name(errno));
        struct io_uring_cqe *cqe;
        u64 end = clk_now_ns();
        while ((cqe = uring_cqe(&it->ring))) {
            unsigned k = (unsigned)cqe->user_data;
            int res = cqe->res;
            uring_cqe_seen(&it->ring);
            struct io_slot *sl = &it->slots[k];
            inflight--;
            it->free_slots[it->nfree++] = k;
            io_release(sh, &sl->q);
            if (res < 0)
                return io_syserr(t,
                                 sl->q.op == IO_OP_FSYNC  ? "io_uring fsync of"
                                 : sl->q.op == IO_OP_READ ? "io_uring read from"
                                                          : "io_uring write to",
                                 sl->q.file, sl->q.off, -res);
            if (sl->q.op != IO_OP_FSYNC && (u64)res != sl->q.len)
                return io_syserr(t, "short io_uring transfer on", sl->q.file, sl->q.off, EIO);
            if (sl->q.op == IO_OP_READ && sh->validate &&
                io_verify(sh, sl->buf, sl->q.len, sl->q.off, sl->q.file, &t->err) < 0)
                return B_PROTOCOL;
            io_count(t, sl->q.op, sl->q.len);
            if (sl->q.op == IO_OP_WRITE && sh->fsync_all) {
                /* as sysbench: the write's own fsync, in the same event, before the next */
                if (io_sync_file(sh, sl->q.file) < 0)
                    return io_syserr(t, "fsync of", sl->q.file, 0, errno);
                io_count(t, IO_OP_FSYNC, 0);
                end = clk_now_ns();
            }
            load_record_op(t, sl->q.op, end - sl->start_ns);
        }
        /* the thread's execution time: the wall time of its loop since measuring began,
         * not the sum of its overlapping request latencies */
        u64 from = B_MAX(t0, r->t_measure_ns);
        atomic_store_explicit(&t->exec_ns, end > from ? end - from : 0, memory_order_relaxed);
        atomic_store_explicit(&t->busy, 0, memory_order_relaxed);
    }
}

static int io_event_any(struct load_thread *t)
{
    struct io_shared *sh = t->run->wl_global;
    return sh->iomode == IO_ASYNC ? io_async_loop(t) : io_event(t);
}

static int io_thread_init(struct load_thread *t)
{
    struct load_run *r = t->run;
    struct io_shared *sh = r->wl_global;
    struct io_thread *it = b_xcalloc(1, sizeof(*it));
    void *p = NULL;
    /* read buffers (async: each slot's, also for writes); sync and mmap writes come from
     * the pool, so a writing mode without reads needs none (1 GiB blocks: 1 GiB less) */
    bool reads = !sh->writes || sh->mode == IO_RNDRW || sh->iomode == IO_ASYNC;
    size_t len = reads ? (size_t)(sh->req_size * sh->depth) : 4096;
    t->wl = it;
    it->ring.fd = -1;
    if (posix_memalign(&p, 4096, len))
        return b_seterr(&t->err, B_NOMEM, ENOMEM, "allocating %zu bytes of I/O buffers failed",
                        len);
    it->buf = p;
    memset(it->buf, 0, len); /* touch the pages now, not in the measured loop */
    if (sh->writes && io_pool_init(&it->pool, sh, (u64)t->id) < 0)
        return b_seterr(&t->err, B_NOMEM, ENOMEM,
                        "allocating %llu bytes of write data failed",
                        (unsigned long long)(IO_POOL_SPAN + sh->req_size));
    if (sh->iomode != IO_ASYNC)
        return B_OK;
    int rc = uring_setup(&it->ring, B_MAX(sh->depth, 2), &t->err);
    if (rc < 0)
        return rc;
    it->slots = b_xcalloc(sh->depth, sizeof(*it->slots));
    it->free_slots = b_xcalloc(sh->depth, sizeof(unsigned));
    struct iovec *iov = b_xcalloc(sh->depth, sizeof(*iov));
    for (unsigned k = 0; k < sh->depth; k++) {
        it->slots[k].buf = it->buf + (size_t)k * sh->req_size;
        it->free_slots[it->nfree++] = sh->depth - 1 - k;
        iov[k].iov_base = it->slots[k].buf;
        iov[k].iov_len = (size_t)sh->req_size;
    }
    /* registered files and buffers save an fget and a page pin per I/O; both are optional */
    it->ring.fixed_files = uring_sys_register(it->ring.fd, IORING_REGISTER_FILES, sh->fds,
                                              (unsigned)sh->nfiles) == 0;
    it->ring.fixed_bufs =
        uring_sys_register(it->ring.fd, IORING_REGISTER_BUFFERS, iov, sh->depth) == 0;
    if (r->o->debug)
        load_debug(r,
                   "DEBUG: thread %d: io_uring fd %d, depth %u, setup flags 0x%x, registered "
                   "files %s, buffers %s",
                   t->id, it->ring.fd, sh->depth, it->ring.setup_flags,
                   it->ring.fixed_files ? "yes" : "no", it->ring.fixed_bufs ? "yes" : "no");
    free(iov);
    return B_OK;
}

static void io_thread_done(struct load_thread *t)
{
    struct io_shared *sh = t->run->wl_global;
    struct io_thread *it = t->wl;
    /* sysbench: with --file-fsync-end each thread fsyncs every file once (writing modes);
     * not with --file-fsync-all, where every write was synced already */
    if (sh->writes && t->run->o->file_fsync_end && !sh->fsync_all &&
        !atomic_load(&t->run->failed) &&
        !atomic_load(&b_stop))
        for (int i = 0; i < sh->nfiles; i++)
            if (io_sync_file(sh, i) == 0)
                io_count(t, IO_OP_FSYNC, 0);
    if (!it)
        return;
    if (it->ring.fd >= 0 || it->ring.sq_map)
        uring_free(&it->ring);
    free(it->slots);
    free(it->free_slots);
    free(it->buf);
    free(it->pool.base);
    free(it);
    t->wl = NULL;
}

/*
 * Is a test_file.N with this stat one that bench (or sysbench) made with these options?
 * prepare writes whole blocks up to full_size; a seqwr run re-creates files empty and fills
 * them in requests that are whole blocks except for a last one ending at file_size. Anything
 * else (another size, not a regular file) is someone else's and is never modified or removed.
 */
static bool io_is_ours(const struct io_shared *sh, const struct stat *st)
{
    u64 sz = (u64)st->st_size;
    /* one link: a hard link to someone's file under bench's name has two or more */
    return S_ISREG(st->st_mode) && st->st_nlink == 1 &&
           (sz == sh->file_size || (sz % sh->bs == 0 && sz <= sh->full_size));
}

/*
 * Ownership of the test files. prepare and a seqwr run record each file they create in a
 * manifest, .bench-fileio.manifest in --file-dir: its index, device, inode, birth time
 * (statx; 0 where the filesystem keeps none) and size, exact once written ('c') or the most
 * bench will write while it writes ('w', so that a file cut short by ENOSPC, a signal or a
 * crash is still known). Every write, extend, truncate or unlink of a test file is preceded
 * by a check against it: the file must be a regular file (never a symlink: all opens are
 * openat() with O_NOFOLLOW relative to the --file-dir descriptor) with the recorded inode
 * and size. The manifest is an append-only journal (a later line for an index wins; "- N"
 * forgets one): a million files cost one line each, not a rewrite each. It is opened with
 * O_NOFOLLOW, must be a regular file owned by the user and writable by nobody else, is
 * fsync'd at the end of each phase, and is compacted by prepare and cleanup (removed when
 * empty). Why not a user.* extended attribute: tmpfs before Linux 6.6 and some NFS and
 * FUSE mounts have none, and `cp -a` copies an attribute onto a file bench never made,
 * while an inode cannot be copied. Limit: a file replaced by one with the same inode, size
 * and birth time (a filesystem without birth times reusing the inode) is not told apart.
 * The sysbench persona also accepts, as sysbench does, a file whose size prepare could
 * have written (io_is_ours), but never a symlink.
 */
#define IO_MANIFEST ".bench-fileio.manifest"
#define IO_MANIFEST_HDR "bench-fileio-manifest 1"

struct io_own {
    u64 dev, ino, btime, size; /* size: exact ('c') or the most bench writes ('w') */
    char state;                /* 0 (no entry), 'c' or 'w' */
};

struct io_man {
    int dirfd, fd;    /* --file-dir, and the journal (-1 until first needed) */
    struct io_own *e; /* [cap], by file index */
    int cap;
    u64 lines, live;  /* journal lines and live entries, for compaction */
    bool dirty;       /* written since the last fsync */
    bool rofs;        /* opened read-only: the filesystem is */
};

/* Identity of a file as the ownership check sees it. */
struct io_id {
    struct stat st;
    u64 btime;
};

static void io_name(int i, char *out, size_t n)
{
    snprintf(out, n, "test_file.%d", i);
}

/* The file's birth time in ns, or 0 (raw statx: musl 1.2.3 has no wrapper). */
static u64 io_btime(int fd)
{
#ifdef SYS_statx
    u8 b[256]; /* struct statx: stx_mask at 0, stx_btime {i64 s; u32 ns} at 80 */
    u32 mask, ns;
    i64 s;
    memset(b, 0, sizeof(b));
    if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, 0x800u /* STATX_BTIME */, b) < 0)
        return 0;
    memcpy(&mask, b, 4);
    memcpy(&s, b + 80, 8);
    memcpy(&ns, b + 88, 4);
    return (mask & 0x800u) && s > 0 ? (u64)s * 1000000000u + ns : 0;
#else
    (void)fd;
    return 0;
#endif
}

static int io_fid(int fd, struct io_id *id)
{
    if (fstat(fd, &id->st) < 0)
        return -1;
    id->btime = io_btime(fd);
    return 0;
}

/* The identity of test_file.i without following a symlink; -1 with errno (ENOENT). */
static int io_id_at(int dirfd, int i, struct io_id *id)
{
    char name[32];
    io_name(i, name, sizeof(name));
    int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = io_fid(fd, id);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

/* Is the recorded file w the one at hand (device, inode and, where kept, birth time)? */
static bool io_same_inode(const struct io_own *w, const struct io_id *id)
{
    return w->dev == (u64)id->st.st_dev && w->ino == (u64)id->st.st_ino &&
           (!w->btime || !id->btime || w->btime == id->btime);
}

/*
 * Why test_file.i (identity id) is not bench's: NULL when it is. The sysbench persona also
 * accepts sysbench's shape (io_is_ours) below --file-num. why[] holds the longer reasons.
 */
static const char *io_not_ours(const struct io_shared *sh, const struct io_man *m, int i,
                               const struct io_id *id, char *why, size_t n)
{
    const struct stat *st = &id->st;
    if (S_ISLNK(st->st_mode))
        return "is a symlink";
    if (!S_ISREG(st->st_mode))
        return "not a regular file";
    const struct io_own *w = i < m->cap ? &m->e[i] : NULL;
    const char *r = NULL;
    if (!w || !w->state)
        r = "no manifest entry";
    else if (!io_same_inode(w, id)) {
        snprintf(why, n, "inode changed: inode %llu, the manifest says %llu",
                 (unsigned long long)st->st_ino, (unsigned long long)w->ino);
        r = why;
    } else if (w->state == 'c' ? (u64)st->st_size != w->size : (u64)st->st_size > w->size) {
        snprintf(why, n, "size changed: %lld bytes, the manifest says %s%llu",
                 (long long)st->st_size, w->state == 'c' ? "" : "at most ",
                 (unsigned long long)w->size);
        r = why;
    }
    /* why sysbench's shape is not enough */
    if (r && io_sb(sh->o) && st->st_nlink > 1 && r != why) {
        snprintf(why, n, "%s, and %llu hard links", r, (unsigned long long)st->st_nlink);
        return why;
    }
    /* beyond --file-num (cleanup) sysbench removes nothing: there only the manifest's proof */
    return r && io_sb(sh->o) && i < sh->nfiles && io_is_ours(sh, st) ? NULL : r;
}

static int io_man_err(struct b_err *e, const char *dir, const char *what, int err)
{
    return b_seterr(e, B_SYSERR, err, "%s %s/" IO_MANIFEST " failed: %s (%s)", what, dir,
                    strerror(err), b_errno_name(err));
}

static int io_write_all(int fd, const void *p, size_t n)
{
    for (size_t done = 0; done < n;) {
        ssize_t k = write(fd, (const char *)p + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? errno : EIO;
        done += (size_t)k;
    }
    return 0;
}

static void io_man_set(struct io_man *m, int i, const struct io_own *w)
{
    if (i >= m->cap) {
        int cap = B_MAX(i + 1, m->cap * 2);
        struct io_own *e = b_xcalloc((size_t)cap, sizeof(*e));
        if (m->cap)
            memcpy(e, m->e, (size_t)m->cap * sizeof(*e));
        free(m->e);
        m->e = e;
        m->cap = cap;
    }
    if (w->state && !m->e[i].state)
        m->live++;
    else if (!w->state && m->e[i].state)
        m->live--;
    m->e[i] = *w;
}

static int io_own_fmt(char *out, size_t n, int i, const struct io_own *w)
{
    return snprintf(out, n, "+ %d %llu %llu %llu %llu %c\n", i, (unsigned long long)w->dev,
                    (unsigned long long)w->ino, (unsigned long long)w->btime,
                    (unsigned long long)w->size, w->state);
}

/* Parse the journal's text; B_OK or why it is not a manifest. */
static int io_man_parse(struct io_man *m, char *text, size_t len, const char *dir,
                        struct b_err *e)
{
    char *p = text, *end = text + len;
    u64 ln = 0;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) /* a line cut by a crash: never complete, so never relied on */
            break;
        *nl = 0;
        ln++;
        struct io_own w;
        int i = -1, used = 0;
        unsigned long long dev, ino, bt, sz;
        char st;
        memset(&w, 0, sizeof(w));
        if (ln == 1 ? strncmp(p, IO_MANIFEST_HDR " ", sizeof(IO_MANIFEST_HDR)) != 0
            : *p == '+'
                ? sscanf(p, "+ %d %llu %llu %llu %llu %c%n", &i, &dev, &ino, &bt, &sz, &st,
                         &used) != 6 ||
                      (st != 'c' && st != 'w')
                : sscanf(p, "- %d%n", &i, &used) != 1)
            i = -2;
        if (ln > 1 && (i < 0 || i >= 1000000 || p[used] != 0)) {
            char shown[64]; /* its bytes reach a terminal: escaped */
            my_escape(shown, sizeof(shown), p, strnlen(p, 40));
            return b_seterr(e, B_INVALID, 0,
                            "%s/" IO_MANIFEST " is not a bench manifest (line %llu: '%s')",
                            dir, (unsigned long long)ln, shown);
        }
        if (ln == 1 && i == -2)
            return b_seterr(e, B_INVALID, 0, "%s/" IO_MANIFEST " is not a bench manifest", dir);
        if (ln > 1) {
            if (*p == '+')
                w = (struct io_own){dev, ino, bt, sz, st};
            io_man_set(m, i, &w);
        }
        p = nl + 1;
    }
    m->lines = ln;
    return B_OK;
}

/*
 * Open --file-dir and, with load, read its manifest (none is an empty one). A manifest that is a
 * symlink, not a regular file, someone else's or writable by others is not trusted.
 */
static int io_man_open(struct io_man *m, const char *dir, bool load, struct b_err *e)
{
    memset(m, 0, sizeof(*m));
    m->fd = -1;
    m->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m->dirfd < 0)
        return b_seterr(e, B_SYSERR, errno, "cannot open --file-dir=%s: %s (%s)", dir,
                        strerror(errno), b_errno_name(errno));
    if (!load) /* a reading run: no ownership needed, the directory is enough */
        return B_OK;
    int fd = openat(m->dirfd, IO_MANIFEST, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == EROFS) { /* read it; a write to it then fails with EROFS */
        fd = openat(m->dirfd, IO_MANIFEST, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        m->rofs = true;
    }
    if (fd < 0 && errno == ENOENT)
        return B_OK;
    if (fd < 0 && errno == ELOOP)
        return b_seterr(e, B_INVALID, 0, "%s/" IO_MANIFEST " is a symlink: not trusted", dir);
    if (fd < 0)
        return io_man_err(e, dir, "opening", errno);
    m->fd = fd;
    struct stat st;
    if (fstat(fd, &st) < 0)
        return io_man_err(e, dir, "fstat of", errno);
    if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
        return b_seterr(e, B_INVALID, 0,
                        "%s/" IO_MANIFEST " is not a regular file owned by you and writable "
                        "only by you: not trusted",
                        dir);
    size_t len = (size_t)st.st_size, got = 0;
    char *text = b_xmalloc(len + 1);
    while (got < len) {
        ssize_t k = pread(fd, text + got, len - got, (off_t)got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    int rc = io_man_parse(m, text, got, dir, e);
    free(text);
    return rc;
}

/* Append one line, creating the journal on first use. */
static int io_man_append(struct io_man *m, const char *line, size_t n, const char *dir,
                         struct b_err *e)
{
    int err;
    if (m->rofs)
        return io_man_err(e, dir, "writing", EROFS);
    if (m->fd < 0) {
        char h[96];
        struct rnd r;
        rnd_seed(&r);
        m->fd = openat(m->dirfd, IO_MANIFEST,
                       O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (m->fd < 0)
            return io_man_err(e, dir, "creating", errno);
        int hn = snprintf(h, sizeof(h), IO_MANIFEST_HDR " run=%016llx created=%lld\n",
                          (unsigned long long)(rnd_next(&r) ^ clk_now_ns()),
                          (long long)time(NULL));
        if ((err = io_write_all(m->fd, h, (size_t)hn)))
            return io_man_err(e, dir, "writing", err);
        m->lines = 1;
    }
    if ((err = io_write_all(m->fd, line, n)))
        return io_man_err(e, dir, "writing", err);
    m->lines++;
    m->dirty = true;
    return B_OK;
}

/* Record test_file.i (state 'c' with its size, or 'w' with the most bench writes). */
static int io_man_put(struct io_man *m, int i, const struct io_id *id, char state, u64 size,
                      const char *dir, struct b_err *e)
{
    struct io_own w;
    char line[128];
    memset(&w, 0, sizeof(w)); /* padding too: compared with memcmp */
    w.dev = (u64)id->st.st_dev;
    w.ino = (u64)id->st.st_ino;
    w.btime = id->btime;
    w.size = size;
    w.state = state;
    if (i < m->cap && !memcmp(&m->e[i], &w, sizeof(w)))
        return B_OK;
    int n = io_own_fmt(line, sizeof(line), i, &w);
    io_man_set(m, i, &w);
    return io_man_append(m, line, (size_t)n, dir, e);
}

static int io_man_forget(struct io_man *m, int i, const char *dir, struct b_err *e)
{
    struct io_own none;
    char line[32];
    if (i >= m->cap || !m->e[i].state)
        return B_OK;
    memset(&none, 0, sizeof(none));
    io_man_set(m, i, &none);
    int n = snprintf(line, sizeof(line), "- %d\n", i);
    return io_man_append(m, line, (size_t)n, dir, e);
}

static int io_man_sync(struct io_man *m, const char *dir, struct b_err *e)
{
    if (m->fd >= 0 && m->dirty && fsync(m->fd) < 0)
        return io_man_err(e, dir, "fsync of", errno);
    m->dirty = false;
    return B_OK;
}

/*
 * Rewrite the journal with only its live entries (a new file renamed over it, then the
 * directory fsync'd), or remove it when none is left.
 */
static int io_man_compact(struct io_man *m, const char *dir, struct b_err *e)
{
    if (m->fd < 0 || m->lines <= m->live + 1)
        return B_OK;
    close(m->fd);
    m->fd = -1;
    if (m->live == 0) {
        if (unlinkat(m->dirfd, IO_MANIFEST, 0) < 0 && errno != ENOENT)
            return io_man_err(e, dir, "removing", errno);
        m->lines = 0;
        return B_OK;
    }
    static const char tmp[] = IO_MANIFEST ".new";
    unlinkat(m->dirfd, tmp, 0); /* a leftover of a crash (a symlink is removed, not followed) */
    int fd = openat(m->dirfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return io_man_err(e, dir, "compacting", errno);
    struct buf b;
    memset(&b, 0, sizeof(b));
    int err = 0;
    char line[128];
    buf_printf(&b, IO_MANIFEST_HDR " compacted=%lld\n", (long long)time(NULL));
    for (int i = 0; i < m->cap; i++)
        if (m->e[i].state) {
            io_own_fmt(line, sizeof(line), i, &m->e[i]);
            buf_printf(&b, "%s", line);
        }
    if ((err = io_write_all(fd, b.p, b.len)) || (fsync(fd) < 0 && (err = errno)) ||
        (renameat(m->dirfd, tmp, m->dirfd, IO_MANIFEST) < 0 && (err = errno))) {
        close(fd);
        unlinkat(m->dirfd, tmp, 0);
        buf_free(&b);
        return io_man_err(e, dir, "compacting", err);
    }
    buf_free(&b);
    fsync(m->dirfd);
    m->fd = fd;
    m->lines = m->live + 1;
    m->dirty = false;
    return B_OK;
}

static void io_man_close(struct io_man *m)
{
    if (m->fd >= 0)
        close(m->fd);
    if (m->dirfd >= 0)
        close(m->dirfd);
    free(m->e);
    memset(m, 0, sizeof(*m));
    m->fd = m->dirfd = -1;
}

/* Open every test file for the run; sysbench's checks and messages. Never through a
 * symlink; a writing mode writes only to files the manifest proves bench's. */
static int io_open_all(struct load_run *r, struct io_shared *sh)
{
    const struct bench_opts *o = r->o;
    struct io_man *m = sh->man;
    char path[PATH_MAX], name[32], sz1[32], sz2[32], why[160];
    sh->fds = b_xcalloc((size_t)sh->nfiles, sizeof(int));
    for (int i = 0; i < sh->nfiles; i++)
        sh->fds[i] = -1;
    for (int i = 0; i < sh->nfiles; i++) {
        struct io_id id;
        const char *whyp;
        io_path(o, i, path, sizeof(path));
        io_name(i, name, sizeof(name));
        if (sh->mode == IO_SEQWR) {
            /* sysbench re-creates the files of a seqwr run: only bench's own */
            if (io_id_at(m->dirfd, i, &id) == 0) {
                if ((whyp = io_not_ours(sh, m, i, &id, why, sizeof(why)))) {
                    snprintf(r->err.hint, sizeof(r->err.hint),
                             "move it away, or use another --file-dir");
                    return b_seterr(&r->err, B_INVALID, 0,
                                    "seqwr would re-create %s, but it was not created by "
                                    "bench (%s): not touching it",
                                    path, whyp);
                }
                if (unlinkat(m->dirfd, name, 0) < 0 && errno != ENOENT)
                    return b_seterr(&r->err, B_SYSERR, errno,
                                    "cannot remove %s to re-create it for seqwr: %s (%s)", path,
                                    strerror(errno), b_errno_name(errno));
            }
            sh->fds[i] = openat(m->dirfd, name,
                                O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC | sh->oflags,
                                0600);
        } else
            sh->fds[i] = openat(m->dirfd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC | sh->oflags);
        if (sh->fds[i] < 0) {
            int e = errno;
            if (io_sb(o)) {
                snprintf(r->err.hint, sizeof(r->err.hint),
                         "Did you forget to run the prepare step?");
                return b_seterr(&r->err, B_SYSERR, e, "Cannot open file '%s' errno = %d (%s)",
                                path, e, strerror(e));
            }
            if (e == ELOOP)
                return b_seterr(&r->err, B_INVALID, 0,
                                "cannot open %s: not created by bench (is a symlink): bench "
                                "never follows one",
                                path);
            if (e == EINVAL && (sh->oflags & O_DIRECT))
                snprintf(r->err.hint, sizeof(r->err.hint),
                         "this filesystem has no direct I/O (tmpfs, some FUSE and overlay "
                         "mounts); use a disk-backed --file-dir");
            else if (e == ENOENT)
                snprintf(r->err.hint, sizeof(r->err.hint),
                         "run 'bench fileio prepare' first with the same --file-num, "
                         "--file-total-size and --file-dir");
            return b_seterr(&r->err, B_SYSERR, e, "cannot open %s%s: %s (%s)", path,
                            (sh->oflags & O_DIRECT) ? " with O_DIRECT" : "", strerror(e),
                            b_errno_name(e));
        }
        if (io_fid(sh->fds[i], &id) < 0)
            return io_syserr_e(&r->err, o, "fstat of", i, 0, errno);
        if (sh->mode == IO_SEQWR) {
            int rc = io_man_put(m, i, &id, 'w', sh->full_size, o->file_dir, &r->err);
            if (rc < 0)
                return rc;
            continue;
        }
        if (sh->writes && (whyp = io_not_ours(sh, m, i, &id, why, sizeof(why)))) {
            snprintf(r->err.hint, sizeof(r->err.hint),
                     "bench writes only to files its prepare made; move it away, or use "
                     "another --file-dir");
            return b_seterr(&r->err, B_INVALID, 0,
                            "%s would write to %s, but it was not created by bench (%s): not "
                            "touching it",
                            o->file_test_mode, path, whyp);
        }
        if ((u64)id.st.st_size < sh->file_size) {
            unit_fmt_size((u64)id.st.st_size, sz1, sizeof(sz1));
            unit_fmt_size(sh->file_size, sz2, sizeof(sz2));
            snprintf(r->err.hint, sizeof(r->err.hint), "%s",
                     io_sb(o) ? "Did you run 'prepare' with different --file-total-size or "
                             "--file-num values?"
                           : "run 'bench fileio prepare' with the same --file-num and "
                             "--file-total-size as the run");
            return b_seterr(&r->err, B_INVALID, 0,
                            "Size of file '%s' is %s, but at least %s is expected.", path, sz1,
                            sz2);
        }
    }
    if (sh->iomode == IO_MMAP) {
        io_catch_sigbus();
        sh->maps = b_xcalloc((size_t)sh->nfiles, sizeof(u8 *));
        for (int i = 0; i < sh->nfiles; i++) {
            if (sh->mode == IO_SEQWR && ftruncate(sh->fds[i], (off_t)sh->file_size) < 0)
                return io_syserr_e(&r->err, o, "ftruncate of", i, sh->file_size, errno);
            void *mp = mmap(NULL, (size_t)sh->file_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                            sh->fds[i], 0);
            if (mp == MAP_FAILED)
                return io_syserr_e(&r->err, o, "mmap of", i, 0, errno);
            sh->maps[i] = mp;
        }
    }
    return B_OK;
}

/* "Extra file open flags: sync dsync directio" as sysbench prints it, from the words given
 * (io_parse_flags): "sync" alone shows as "sync ", not "sync dsync ". The line of prepare's
 * progress and of the run header (rep_io_flags). */
static const char *io_flags_text(int words, char *out, size_t n)
{
    snprintf(out, n, "Extra file open flags: %s%s%s%s", words ? "" : "(none)",
             words & 1 ? "sync " : "", words & 2 ? "dsync " : "", words & 4 ? "directio" : "");
    return out;
}

/* Facts for the run header: what the files sit on, and whether the page cache will answer
 * instead of the disk (a warning); io_uring refused (a warning). The sysbench persona's
 * header shows neither the files' facts nor the page cache warning (rep_io_mode). */
static void io_facts(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    struct io_shared sh;
    struct os_fsinfo fi;
    char dir[PATH_MAX], ram[32], total[32];
    io_params(&sh, o, io_test_mode(o->file_test_mode));
    res_fact_int(r->res, "file_size_bytes", (i64)sh.file_size);
    res_fact_int(r->res, "total_size_bytes", (i64)(sh.file_size * (u64)sh.nfiles));
    res_fact_int(r->res, "block_size_bytes", (i64)sh.bs);
    res_fact_str(r->res, "io_mode", "%s", sh.iomode == IO_SYNC    ? "sync"
                                          : sh.iomode == IO_ASYNC ? "async"
                                                                  : "mmap");
    if (sh.iomode == IO_ASYNC)
        res_fact_int(r->res, "queue_depth", sh.depth);
    if (io_fallback_why[0])
        res_warn(r->res, "io_uring_fallback", NULL,
                 "fileio: %s; falling back to --file-io-mode=sync", io_fallback_why);
    if (os_fsinfo_get(o->file_dir, &fi) < 0)
        return;
    if (!realpath(o->file_dir, dir))
        snprintf(dir, sizeof(dir), "%s", o->file_dir);
    res_fact_str(r->res, "dir", "%s", dir);
    res_fact_str(r->res, "fs_type", "%s", fi.fstype[0] ? fi.fstype : "?");
    res_fact_str(r->res, "fs_source", "%s", fi.source[0] ? fi.source : "?");
    res_fact_str(r->res, "mount_options", "%s", fi.options[0] ? fi.options : "?");
    res_fact_int(r->res, "fs_free_bytes", (i64)fi.avail_bytes);
    if (fi.device[0]) {
        res_fact_str(r->res, "device", "%s", fi.device);
        if (fi.rotational >= 0)
            res_fact_bool(r->res, "device_rotational", fi.rotational == 1);
        if (fi.model[0])
            res_fact_str(r->res, "device_model", "%s", fi.model);
    }
    u64 mem = os_mem_total(), tot = sh.file_size * (u64)sh.nfiles;
    if (mem)
        res_fact_int(r->res, "ram_bytes", (i64)mem);
    if ((!(sh.oflags & O_DIRECT) || sh.iomode == IO_MMAP) && mem && tot <= mem)
        res_warn(r->res, "page_cache",
                 "add --file-extra-flags=direct, or make --file-total-size larger than RAM",
                 "fileio: the %s of test files fit in RAM (%s) and O_DIRECT is off: this "
                 "measures the page cache, not the disk",
                 unit_fmt_size(tot, total, sizeof(total)), unit_fmt_size(mem, ram, sizeof(ram)));
}

static int io_init(struct load_run *r)
{
    struct io_shared *sh = b_xcalloc(1, sizeof(*sh));
    char path[PATH_MAX];
    r->wl_global = sh;
    io_params(sh, r->o, io_test_mode(r->o->file_test_mode));
    pthread_mutex_init(&sh->gen_mu, NULL);
    r->self_timed = sh->iomode == IO_ASYNC; /* io_async_loop runs each thread's loop */
    if (sh->validate && io_mode_random(sh->mode) && (r->nthreads > 1 || sh->depth > 1)) {
        sh->nblocks = (sh->file_size * (u64)sh->nfiles + sh->bs - 1) / sh->bs;
        sh->held = b_xcalloc((size_t)sh->nblocks, sizeof(*sh->held));
        /* a request in flight holds its block: a queue deeper than the thread's share of the
         * blocks would wait forever on its own requests (io_rnd_req draws again) */
        u64 share = sh->nblocks / (u64)r->nthreads;
        if (sh->depth > share)
            sh->depth = (unsigned)B_MAX(share, 1);
    }
    sh->man = b_xcalloc(1, sizeof(*sh->man));
    int rc = io_man_open(sh->man, r->o->file_dir, sh->writes, &r->err);
    if (rc < 0 && io_sb(r->o) && sh->man->dirfd < 0) { /* sysbench's words for a missing dir */
        io_path(r->o, 0, path, sizeof(path));
        snprintf(r->err.hint, sizeof(r->err.hint), "Did you forget to run the prepare step?");
        return b_seterr(&r->err, B_SYSERR, r->err.sys_errno,
                        "Cannot open file '%s' errno = %d (%s)", path, r->err.sys_errno,
                        strerror(r->err.sys_errno));
    }
    return rc < 0 ? rc : io_open_all(r, sh);
}

static void io_done(struct load_run *r)
{
    struct io_shared *sh = r->wl_global;
    if (!sh)
        return;
    for (int i = 0; sh->maps && i < sh->nfiles; i++)
        if (sh->maps[i])
            munmap(sh->maps[i], (size_t)sh->file_size);
    for (int i = 0; sh->fds && i < sh->nfiles; i++)
        if (sh->fds[i] >= 0)
            close(sh->fds[i]);
    if (sh->man) {
        struct b_err e;
        if (io_man_sync(sh->man, r->o->file_dir, &e) < 0 && r->res)
            res_warn(r->res, "manifest", NULL, "fileio: %s", e.msg);
        io_man_close(sh->man);
        free(sh->man);
    }
    free(sh->maps);
    free(sh->fds);
    free((void *)sh->held);
    pthread_mutex_destroy(&sh->gen_mu);
    free(sh);
    r->wl_global = NULL;
}






/* io_refuse - a fileio failure in the bench persona's words and exit code ex; the sysbench
 * persona prints "FATAL: <msg>" (or e->sb, when set after) and exits 1, as sysbench does on
 * every fileio error. Returns ex. */
static int io_refuse(struct b_err *e, int ex, const char *fmt, ...) B_PRINTF(3, 4);
static int io_refuse(struct b_err *e, int ex, const char *fmt, ...)
{
    char m[sizeof(e->msg)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof(m), fmt, ap);
    va_end(ap);
    b_fail(e, ex, "%s", m);
    e->sb_ex = B_EXIT_FAIL;
    return ex;
}

/* Validation shared by prepare, run and cleanup (before anything is printed or touched):
 * B_EXIT_OK, or the exit code with *err filled (cli_check prints it). */
static int io_check(struct bench_opts *o, struct b_err *err)
{
    const char *bad = NULL;
    size_t badlen = 0;
    int fl = io_parse_flags(o->file_extra_flags, &bad, &badlen, NULL);
    if (fl < 0) {
        io_refuse(err, B_EXIT_USAGE,
                  "--file-extra-flags: unknown flag '%.*s' (expected sync, dsync or direct, "
                  "separated by commas)",
                  (int)badlen, bad);
        b_hint(err, "see 'bench fileio help'");
        b_fail_sb(err, 1, B_EXIT_FAIL, "FATAL: Invalid value for file-extra-flags: %.*s\n",
                  (int)badlen, bad);
        return B_EXIT_USAGE;
    }
    if (*o->file_fill && strcmp(o->file_fill, "random") && strcmp(o->file_fill, "zero")) {
        io_refuse(err, B_EXIT_USAGE, "--file-fill: invalid value '%s' (expected random or zero)",
                  o->file_fill);
        b_hint(err, "see 'bench fileio help'");
        return B_EXIT_USAGE;
    }
    if (o->file_total_size / (u64)o->file_num == 0) {
        io_refuse(err, B_EXIT_USAGE,
                  "fileio: --file-total-size=%llu split over --file-num=%lld files leaves 0 "
                  "bytes per file",
                  (unsigned long long)o->file_total_size, (long long)o->file_num);
        b_hint(err, "raise --file-total-size or lower --file-num");
        return B_EXIT_USAGE;
    }
    if (!io_sb(o) && o->validate && o->file_block_size <= IO_VALIDATE_TRAILER) {
        io_refuse(err, B_EXIT_USAGE,
                  "fileio: --validate with --file-block-size=%llu: each block ends with a "
                  "%d-byte checksum and offset, so blocks of %d bytes or less cannot be "
                  "validated",
                  (unsigned long long)o->file_block_size, IO_VALIDATE_TRAILER,
                  IO_VALIDATE_TRAILER);
        b_hint(err, "use --file-block-size=%d or more, or drop --validate",
               IO_VALIDATE_TRAILER + 1);
        return B_EXIT_USAGE;
    }
    if (!io_sb(o) && o->file_total_size / (u64)o->file_num < o->file_block_size) {
        char a[32], b[32];
        /* sysbench writes one whole block per file anyway, more than the size asked for */
        io_refuse(err, B_EXIT_USAGE,
                  "fileio: --file-total-size=%llu over --file-num=%lld files gives %s per "
                  "file, less than one --file-block-size block (%s)",
                  (unsigned long long)o->file_total_size, (long long)o->file_num,
                  unit_fmt_size(o->file_total_size / (u64)o->file_num, a, sizeof(a)),
                  unit_fmt_size(o->file_block_size, b, sizeof(b)));
        b_hint(err, "raise --file-total-size, or lower --file-num or --file-block-size");
        return B_EXIT_USAGE;
    }
    if ((fl & O_DIRECT) && o->file_block_size % 512) {
        io_refuse(err, B_EXIT_USAGE,
                  "fileio: --file-block-size=%llu with O_DIRECT: direct I/O needs a multiple "
                  "of the device's logical block size (512 or 4096 bytes)",
                  (unsigned long long)o->file_block_size);
        b_hint(err, "use --file-block-size=4K or 16K");
        return B_EXIT_USAGE;
    }
    if (!io_sb(o)) {
        struct stat st;
        if (stat(o->file_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
            int e = errno;
            io_refuse(err, B_EXIT_ENV, "fileio: --file-dir=%s: %s", o->file_dir,
                      S_ISDIR(st.st_mode) || e == ENOENT ? strerror(e) : "not a directory");
            b_hint(err, "create the directory first, on the disk you want to measure");
            return B_EXIT_ENV;
        }
    }
    return B_EXIT_OK;
}

/* Checks of the run command: the mode, queue depth, and the io_uring probe (refused: sync
 * instead, a warning in the run's header; with --file-io-mode-strict, a failure). */
static int io_check_run(struct bench_opts *o, struct b_err *err)
{
    int ex = io_check(o, err);
    io_fallback_why[0] = 0;
    if (ex != B_EXIT_OK)
        return ex;
    if (!*o->file_test_mode) {
        struct buf hb = {0}; /* sysbench lists the test's options after the error */
        opt_help_text(&hb, opt_fileio, countof(opt_fileio), true);
        char *help = hb.p;
        io_refuse(err, B_EXIT_USAGE,
                  "fileio: run needs --file-test-mode: seqwr, seqrewr, seqrd, rndrd, rndwr or "
                  "rndrw");
        b_hint(err, "for example: bench fileio --file-test-mode=rndrd run");
        b_fail_sb(err, 1, B_EXIT_FAIL,
                  "FATAL: Missing required argument: --file-test-mode\n\nfileio options:\n%s\n",
                  help ? help : "");
        free(help);
        return B_EXIT_USAGE;
    }
    if (io_test_mode(o->file_test_mode) < 0) {
        io_refuse(err, B_EXIT_USAGE,
                  "--file-test-mode: invalid value '%s' (expected seqwr, seqrewr, seqrd, "
                  "rndrd, rndwr or rndrw)",
                  o->file_test_mode);
        b_hint(err, "see 'bench fileio help'");
        b_fail_sb(err, 1, B_EXIT_FAIL, "FATAL: Invalid IO operations mode: %s.\n",
                  o->file_test_mode);
        return B_EXIT_USAGE;
    }
    if (o->file_io_mode != IO_ASYNC && o->file_queue_depth > 1) {
        io_refuse(err, B_EXIT_USAGE,
                  "fileio: --file-queue-depth=%lld needs --file-io-mode=async (io_uring); "
                  "sync and mmap modes do one request at a time",
                  (long long)o->file_queue_depth);
        b_hint(err, "add --file-io-mode=async, or use --threads for parallel sync I/O");
        return B_EXIT_USAGE;
    }
    if (o->file_io_mode == IO_ASYNC) {
        struct uring u;
        struct b_err e;
        memset(&e, 0, sizeof(e));
        if (o->rate) {
            io_refuse(err, B_EXIT_USAGE,
                      "fileio: --rate is not supported with --file-io-mode=async");
            b_hint(err, "use --file-io-mode=sync with --rate");
            return B_EXIT_USAGE;
        }
        if (uring_setup(&u, 2, &e) < 0) {
            if (o->file_io_mode_strict) {
                io_refuse(err, B_EXIT_ENV, "fileio: %s", e.msg);
                b_hint(err, "%s", e.hint);
                return B_EXIT_ENV;
            }
            snprintf(io_fallback_why, sizeof(io_fallback_why), "%s", e.msg);
            o->file_io_mode = IO_SYNC;
            o->file_queue_depth = 0;
        } else
            uring_free(&u);
    }
    return B_EXIT_OK;
}

/* A fileio error from a lower layer (e, its hint too) as the command's failure (*out):
 * the bench persona's exit code (environment), sysbench's 1. Returns the exit code. */
static int io_fail(struct b_err *out, const struct b_err *e)
{
    struct b_err c = *e;
    io_refuse(out, B_EXIT_ENV, "fileio: %s", c.msg);
    b_hint(out, "%s", c.hint);
    out->rc = c.rc ? c.rc : out->rc;
    out->sys_errno = c.sys_errno;
    return B_EXIT_ENV;
}

/* Write len bytes at off in pieces of at most 4 MiB, so that a signal is seen within a
 * second even with 1 GiB blocks. 0, an errno, or EINTR when stopped by a signal. */
static int io_pwrite_all(int fd, const u8 *p, u64 len, u64 off)
{
    for (u64 done = 0; done < len;) {
        if (atomic_load(&b_stop))
            return EINTR;
        size_t n = (size_t)B_MIN(len - done, (u64)4 << 20);
        ssize_t k = pwrite(fd, p + done, n, (off_t)(off + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? errno : ENOSPC;
        done += (u64)k;
    }
    return 0;
}

/*
 * prepare, before writing anything: every existing test_file.N must be bench's (never a
 * symlink), and the filesystem must have the space (each file rounded up to whole
 * filesystem blocks, less what it already holds, plus the manifest) and the inodes.
 * B_EXIT_OK, or the exit code with *e filled.
 */
static int io_prepare_check(const struct io_shared *sh, const struct io_man *m, struct b_err *e)
{
    const struct bench_opts *o = sh->o;
    char path[PATH_MAX], why[160], a[32], b[32];
    struct statfs sf;
    u64 need = 0, newfiles = 0;
    u64 gran = fstatfs(m->dirfd, &sf) == 0 && sf.f_bsize > 0 ? (u64)sf.f_bsize : 4096;
    for (int i = 0; i < sh->nfiles && !atomic_load(&b_stop); i++) {
        struct io_id id;
        const char *whyp;
        if (io_id_at(m->dirfd, i, &id) < 0) {
            need += (sh->full_size + gran - 1) / gran * gran;
            newfiles++;
            continue;
        }
        if ((whyp = io_not_ours(sh, m, i, &id, why, sizeof(why)))) {
            io_path(o, i, path, sizeof(path));
            io_refuse(e, B_EXIT_ENV, "fileio: prepare: not touching %s: not created by bench (%s)",
                      path, whyp);
            b_hint(e, "move it away, or use another --file-dir");
            return B_EXIT_ENV;
        }
        u64 want = (B_MAX(sh->full_size, (u64)id.st.st_size) + gran - 1) / gran * gran;
        u64 has = (u64)id.st.st_blocks * 512;
        need += want > has ? want - has : 0;
    }
    if (atomic_load(&b_stop))
        return B_EXIT_OK; /* the caller says interrupted */
    need += ((u64)sh->nfiles * 2 * 64 + gran) / gran * gran; /* the manifest's lines */
    u64 avail = (u64)sf.f_bavail * (u64)sf.f_bsize;
    if (gran && avail < need) {
        io_refuse(e, B_EXIT_ENV,
                  "fileio: prepare in %s needs %s more, but the filesystem has %s available "
                  "(%llu bytes needed, %llu available)",
                  o->file_dir, unit_fmt_size(need, a, sizeof(a)),
                  unit_fmt_size(avail, b, sizeof(b)), (unsigned long long)need,
                  (unsigned long long)avail);
        b_hint(e, "lower --file-total-size, or use another --file-dir");
        return B_EXIT_ENV;
    }
    if (sf.f_files > 0 && (u64)sf.f_ffree < newfiles + 2) {
        io_refuse(e, B_EXIT_ENV,
                  "fileio: prepare in %s needs %llu new files, but the filesystem has %llu free "
                  "inodes",
                  o->file_dir, (unsigned long long)newfiles + 1, (unsigned long long)sf.f_ffree);
        b_hint(e, "lower --file-num, or use another --file-dir");
        return B_EXIT_ENV;
    }
    return B_EXIT_OK;
}

/*
 * One file of prepare: create or extend test_file.i to whole blocks up to full_size. On a
 * failure or a signal the file is left as it was found: removed when this call created it,
 * cut back to its old size when it extended it (*undone says which). Its progress line goes
 * to res's sink. B_OK, B_SYSERR (*e).
 */
static int io_prepare_file(const struct res *res, struct io_shared *sh, int i,
                           struct io_pool *pl, u64 *written, const char **undone,
                           struct b_err *e)
{
    const struct bench_opts *o = sh->o;
    struct io_man *m = sh->man;
    char path[PATH_MAX], name[32], why[160];
    struct io_id id;
    const char *whyp;
    bool created = false;
    int err = 0, rc;
    io_path(o, i, path, sizeof(path));
    io_name(i, name, sizeof(name));
    int fd = openat(m->dirfd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | sh->oflags);
    if (fd < 0 && errno == ENOENT) {
        fd = openat(m->dirfd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC |
                                        sh->oflags,
                    0600);
        created = fd >= 0;
    }
    if (fd < 0) {
        err = errno;
        if (io_sb(o))
            return b_seterr(e, B_SYSERR, err, "Cannot open file '%s' errno = %d (%s)", path,
                            err, strerror(err));
        return b_seterr(e, B_SYSERR, err, "prepare: cannot create %s: %s (%s)", path,
                        err == ELOOP ? "it is a symlink, and bench never follows one"
                                     : strerror(err),
                        b_errno_name(err));
    }
    if (io_fid(fd, &id) < 0) {
        err = errno;
        close(fd);
        return b_seterr(e, B_SYSERR, err, "prepare: fstat of %s failed: %s (%s)", path,
                        strerror(err), b_errno_name(err));
    }
    if (!created && (whyp = io_not_ours(sh, m, i, &id, why, sizeof(why)))) {
        close(fd); /* replaced since io_prepare_check */
        return b_seterr(e, B_INVALID, 0, "prepare: not touching %s: not created by bench (%s)",
                        path, whyp);
    }
    u64 old = (u64)id.st.st_size, off = old / sh->bs * sh->bs;
    res_say(res, RES_SAY_NOTE, "%s file %s",
            old >= sh->file_size ? "Reusing existing"
            : old > 0            ? "Extending existing"
                                 : "Creating",
            path);
    rc = io_man_put(m, i, &id, off < sh->file_size ? 'w' : 'c',
                    off < sh->file_size ? B_MAX(sh->full_size, old) : old, o->file_dir, e);
    for (; rc == B_OK && off < sh->file_size && !err; off += sh->bs) {
        const u8 *buf = io_fill(sh, pl, sh->bs, off, i);
        if (!(err = io_pwrite_all(fd, buf, sh->bs, off)))
            *written += sh->bs;
    }
    if (rc == B_OK && !err && !atomic_load(&b_stop) && fsync(fd) < 0)
        err = errno;
    if (rc == B_OK && !err) {
        if (io_fid(fd, &id) == 0)
            rc = io_man_put(m, i, &id, 'c', (u64)id.st.st_size, o->file_dir, e);
        close(fd);
        return rc;
    }
    /* leave the file as it was found */
    if (created) {
        unlinkat(m->dirfd, name, 0);
        io_man_forget(m, i, o->file_dir, e);
        *undone = "removed the unfinished";
    } else if (ftruncate(fd, (off_t)old) == 0)
        *undone = "cut back to its old size";
    else
        *undone = "could not cut back (recorded in the manifest)";
    close(fd);
    if (rc < 0 || err == EINTR)
        return rc < 0 ? rc : B_AGAIN;
    return b_seterr(e, B_SYSERR, err, "prepare: writing %s at offset %llu failed: %s (%s)",
                    path, (unsigned long long)off, strerror(err), b_errno_name(err));
}

/* prepare: create (or extend) test_file.N with incompressible data. sysbench's progress
 * lines go to res's sink (the bench persona states the size it writes: whole blocks); the
 * facts: files, file_size_bytes, total_size_bytes, written_bytes; a failure in res->err. */
static int io_prepare(struct res *res)
{
    struct bench_opts *o = res->o;
    struct io_shared sh;
    struct io_man m;
    struct b_err e;
    char path[PATH_MAX], flags[64];
    u64 t_cmd = clk_now_ns();
    io_params(&sh, o, IO_SEQWR);
    res_fact_int(res, "files", sh.nfiles);
    res_fact_int(res, "file_size_bytes", (i64)sh.file_size);
    res_fact_int(res, "total_size_bytes", (i64)(sh.file_size * (u64)sh.nfiles));
    res_fact_int(res, "written_bytes", 0);
    u64 each = io_sb(o) ? sh.file_size : sh.full_size;
    res_say(res, RES_SAY_NOTE, "%lld files, %lluKb each, %lluMb total", (long long)o->file_num,
            (unsigned long long)(each / 1024),
            (unsigned long long)(each * (u64)sh.nfiles / 1048576));
    res_say(res, RES_SAY_NOTE, "Creating files for the test...");
    res_say(res, RES_SAY_NOTE, "%s", io_flags_text(sh.flagwords, flags, sizeof(flags)));
    memset(&e, 0, sizeof(e));
    sh.man = &m;
    int ex = B_EXIT_OK;
    if (io_man_open(&m, o->file_dir, true, &e) < 0)
        ex = io_fail(&res->err, &e);
    else if ((ex = io_prepare_check(&sh, &m, &res->err)) == B_EXIT_OK &&
             io_man_compact(&m, o->file_dir, &e) < 0)
        ex = io_fail(&res->err, &e);
    if (ex != B_EXIT_OK) {
        io_man_close(&m);
        res->elapsed_s = (double)(clk_now_ns() - t_cmd) / 1e9;
        return ex;
    }
    struct io_pool pool;
    if (io_pool_init(&pool, &sh, 0) < 0)
        b_die("out of memory allocating %llu bytes of write data",
              (unsigned long long)(IO_POOL_SPAN + sh.req_size));
    u64 written = 0, t0 = clk_now_ns();
    int done = 0, rc = B_OK;
    const char *undone = NULL;
    while (done < sh.nfiles && !atomic_load(&b_stop) &&
           (rc = io_prepare_file(res, &sh, done, &pool, &written, &undone, &e)) == B_OK)
        done++;
    free(pool.base);
    if (rc == B_OK && atomic_load(&b_stop))
        rc = B_AGAIN; /* stopped between files */
    struct b_err se;
    /* an empty manifest goes (interrupted before the first file); no rewrite otherwise, so
     * a signal is answered within the second */
    if (((m.live == 0 && io_man_compact(&m, o->file_dir, &se) < 0) ||
         io_man_sync(&m, o->file_dir, &se) < 0) &&
        rc == B_OK) {
        e = se;
        rc = se.rc;
    }
    io_man_close(&m);
    u64 t1 = clk_now_ns();
    double secs = (double)(t1 - t0) / 1e9;
    res->elapsed_s = (double)(t1 - t_cmd) / 1e9;
    res_fact_int(res, "written_bytes", (i64)written);
    if (written)
        res_say(res, RES_SAY_NOTE, "%llu bytes written in %.2f seconds (%.2f MiB/sec).",
                (unsigned long long)written, secs,
                secs > 0 ? (double)written / 1048576.0 / secs : 0.0);
    else if (rc == B_OK)
        res_say(res, RES_SAY_NOTE, "No bytes written.");
    if (rc == B_OK)
        return B_EXIT_OK;
    /* what is left: files finished before this one stay, recorded as bench's */
    char left[PATH_MAX + 200];
    io_path(o, done, path, sizeof(path));
    int l = undone ? snprintf(left, sizeof(left), "%s %s; ", undone, path) : 0;
    if (done)
        snprintf(left + l, sizeof(left) - (size_t)l,
                 "%d finished file%s stay ('bench fileio cleanup' removes them, the next "
                 "prepare reuses them)",
                 done, done == 1 ? "" : "s");
    else
        snprintf(left + l, sizeof(left) - (size_t)l, "no test file is left");
    if (rc == B_AGAIN) { /* a signal: a warning, and exit 1 in both personas */
        res_warn(res, "interrupted", NULL, "fileio: prepare interrupted after %d of %d files: %s",
                 done, sh.nfiles, left);
        return B_EXIT_FAIL;
    }
    ex = io_fail(&res->err, &e);
    b_hint(&res->err, "%s", left);
    return ex;
}

/* cleanup: remove test_file.N, but only those the manifest proves bench made (the
 * sysbench persona: or whose size prepare writes), never through a symlink; whatever the
 * size options, every file the manifest records goes, also beyond --file-num (sysbench
 * removes only test_file.0 to --file-num - 1: a prepare with more files left the rest).
 * Files left alone are warnings ("not_ours"); the facts: files, file_size_bytes,
 * total_size_bytes, removed_files; a failure in res->err. */
static int io_cleanup(struct res *res)
{
    struct bench_opts *o = res->o;
    struct io_shared sh;
    struct io_man m;
    struct b_err e;
    char path[PATH_MAX], name[32], why[160];
    int kept = 0, removed = 0, ex = B_EXIT_OK;
    u64 t0 = clk_now_ns();
    io_params(&sh, o, IO_SEQWR);
    res_fact_int(res, "files", sh.nfiles);
    res_fact_int(res, "file_size_bytes", (i64)sh.file_size);
    res_fact_int(res, "total_size_bytes", (i64)(sh.file_size * (u64)sh.nfiles));
    res_fact_int(res, "removed_files", 0);
    res_say(res, RES_SAY_NOTE, "Removing test files...");
    memset(&e, 0, sizeof(e));
    if (io_man_open(&m, o->file_dir, true, &e) < 0) {
        if (!(m.dirfd < 0 && io_sb(o))) /* sysbench: nothing to remove */
            ex = io_fail(&res->err, &e);
        io_man_close(&m);
        res->elapsed_s = (double)(clk_now_ns() - t0) / 1e9;
        return ex;
    }
    int n = B_MAX(sh.nfiles, m.cap);
    for (int i = 0; i < n && ex == B_EXIT_OK; i++) {
        struct io_id id;
        const char *whyp;
        if (atomic_load(&b_stop)) {
            res_warn(res, "interrupted", NULL,
                     "fileio: cleanup interrupted at test_file.%d; run it again to remove the "
                     "rest",
                     i);
            ex = B_EXIT_FAIL;
            break;
        }
        if (i >= sh.nfiles && !m.e[i].state)
            continue; /* beyond --file-num and not recorded: not looked at */
        io_path(o, i, path, sizeof(path));
        io_name(i, name, sizeof(name));
        if (io_id_at(m.dirfd, i, &id) < 0) {
            int err = errno;
            if (err == ENOENT && io_man_forget(&m, i, o->file_dir, &e) == B_OK)
                continue;
            if (err != ENOENT) /* else e says why the manifest could not be written */
                b_seterr(&e, B_SYSERR, err, "cleanup: cannot look at %s: %s (%s)", path,
                         strerror(err), b_errno_name(err));
            ex = io_fail(&res->err, &e);
            break;
        }
        if ((whyp = io_not_ours(&sh, &m, i, &id, why, sizeof(why)))) {
            if (i >= sh.nfiles && !strcmp(whyp, "no manifest entry"))
                continue; /* beyond --file-num and not recorded: not looked at */
            res_warn(res, "not_ours", NULL, "fileio: cleanup: left %s: not created by bench (%s)",
                     path, whyp);
            kept++;
            /* bench's file under that name is gone (replaced): forget it */
            if (i < m.cap && m.e[i].state && !io_same_inode(&m.e[i], &id) &&
                io_man_forget(&m, i, o->file_dir, &e) < 0)
                ex = io_fail(&res->err, &e);
            continue;
        }
        if (unlinkat(m.dirfd, name, 0) < 0) {
            int err = errno;
            ex = io_refuse(&res->err, B_EXIT_ENV, "fileio: cleanup: cannot remove %s: %s (%s)",
                           path, strerror(err), b_errno_name(err));
            res->err.rc = B_SYSERR;
            res->err.sys_errno = err;
        } else if (io_man_forget(&m, i, o->file_dir, &e) < 0)
            ex = io_fail(&res->err, &e);
        else
            removed++;
    }
    if ((io_man_compact(&m, o->file_dir, &e) < 0 || io_man_sync(&m, o->file_dir, &e) < 0) &&
        ex == B_EXIT_OK)
        ex = io_fail(&res->err, &e);
    io_man_close(&m);
    res_fact_int(res, "removed_files", removed);
    res->elapsed_s = (double)(clk_now_ns() - t0) / 1e9;
    if (kept && !io_sb(o) && ex == B_EXIT_OK) { /* sysbench's persona: kept quietly, exit 0 */
        snprintf(res->warns[res->nwarns - 1].hint, sizeof(res->warns[0].hint),
                 "bench removes only the files its manifest in --file-dir proves its own; "
                 "remove the others yourself if they are yours to remove");
        return B_EXIT_FAIL;
    }
    return ex;
}

/*== 17 evl_ : event loop: many client connections per thread ================*/
/*
 * --threads=N clients (sysbench's meaning: each its own connection, transaction stream,
 * generator, counters, events and time for the fairness lines) run on L event-loop threads
 * (--event-loops=L) instead of a thread each. A client is a struct load_thread as a
 * thread's worker is (load_claim, load_record_op and the snapshots treat both alike); the
 * latency histogram is its loop's (struct load_loop: one writer, 36 KiB per loop, not per
 * client) and the client counts its own events (t->events) for the fairness lines.
 * The workload runs an event without blocking through its ev_start/ev_step hooks (OLTP: the
 * event's program, oltp_ev_*), which say what they wait for (EVL_WANT_READ/WRITE) on ev_fd.
 *
 * Mechanism: epoll, edge-triggered, each socket registered once for reading and writing
 * (EPOLLET): no epoll_ctl per statement; the hooks read and write until the socket would
 * block before they say they wait (myc_step's contract), so an edge follows. A socket that
 * changes (a reconnect) is registered anew; a closed one leaves the set by itself.
 * Per loop: a FIFO of clients ready to start an event (after one ends: no client runs two
 * in a row while others wait) and, under --rate, a FIFO of clients holding an arrival that
 * is not due yet. Arrivals are claimed in time order from the run's one arrival process
 * (the compare-and-swap of load_rate_wait), so that FIFO is sorted; the latency counts
 * from the intended start, queue time included. Every wait is at most EVL_TICK_NS: the stop
 * flags, --time, and clients stalled past their statement's deadline (myc_step then says
 * B_TIMEOUT) are looked at. SIGINT abandons the events in flight (not recorded).
 * Limitations: logins (thread_init) and reconnects still block their loop while they run.
 */

enum { EVL_C_READY, EVL_C_WAIT, EVL_C_BUSY, EVL_C_DONE }; /* load_thread.ev_state */

#define EVL_TICK_NS 50000000u    /* the longest sleep of a loop */
#define EVL_STALL_NS 1000000000u /* a client without progress this long is stepped anyway */
#define EVL_MAXEV 256            /* epoll events taken per wait */

/* A FIFO of client indices (each client is in at most one: cap = the loop's clients). */
struct evl_fifo {
    int *v;
    size_t head, len, cap;
};

static void evl_push(struct evl_fifo *q, int i)
{
    q->v[(q->head + q->len++) % q->cap] = i;
}

static int evl_pop(struct evl_fifo *q)
{
    int i = q->v[q->head];
    q->head = (q->head + 1) % q->cap;
    q->len--;
    return i;
}

/* One loop thread's state (on its stack). */
struct evl {
    struct load_loop *lp;
    struct load_run *r;
    int ep;                  /* the epoll set */
    int live;                /* clients not done */
    struct evl_fifo ready;   /* clients to start an event now */
    struct evl_fifo wait;    /* --rate: clients whose claimed arrival is ahead, in time order */
    struct evl_fifo again;   /* clients to step again: EVL_WANT_RUN (a flooding server) */
};

static void evl_done(struct evl *e, struct load_thread *t)
{
    if (t->ev_state == EVL_C_DONE)
        return;
    t->ev_state = EVL_C_DONE;
    atomic_store_explicit(&t->busy, 0, memory_order_relaxed);
    e->live--;
    atomic_store_explicit(&e->lp->live, e->live, memory_order_relaxed);
}

/* Keep t's socket in the epoll set (a new one after a reconnect). */
static int evl_track(struct evl *e, struct load_thread *t)
{
    int fd = e->r->w->ev_fd(t);
    if (fd == t->ev_fd && t->ev_sock_gen == t->ev_sock_seen)
        return B_OK;
    t->ev_fd = -1; /* the old socket was closed: it left the set by itself */
    t->ev_sock_seen = t->ev_sock_gen;
    if (fd < 0)
        return B_OK;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET,
                             .data.ptr = t};
    if (epoll_ctl(e->ep, EPOLL_CTL_ADD, fd, &ev) < 0 &&
        (errno != EEXIST || epoll_ctl(e->ep, EPOLL_CTL_MOD, fd, &ev) < 0))
        return b_seterr(&t->err, B_SYSERR, errno, "event loop %d: watching the socket of "
                        "client %d failed: %s", e->lp->id, t->id, strerror(errno));
    t->ev_fd = fd;
    return B_OK;
}

/* What ev_start/ev_step said for client t: wait, done (record, ready again), or finished. */
static void evl_result(struct evl *e, struct load_thread *t, int rc)
{
    struct load_run *r = e->r;
    if (rc == EVL_WANT_WRITE) /* a socket that would block on send is rare: once more */
        rc = r->w->ev_step(t);
    if (rc == EVL_WANT_RUN && !t->ev_again) { /* the others first, then t again */
        t->ev_again = true;
        evl_push(&e->again, t->id - e->lp->first);
    }
    if (rc == EVL_WANT_READ || rc == EVL_WANT_WRITE || rc == EVL_WANT_RUN) {
        int tr = evl_track(e, t);
        if (tr < 0) {
            load_fail(r, tr, &t->err);
            evl_done(e, t);
            return;
        }
        t->ev_state = EVL_C_BUSY;
        t->ev_last_ns = clk_now_ns();
        return;
    }
    if (rc == B_OK) {
        u64 end = clk_now_ns();
        atomic_store_explicit(&t->busy, 0, memory_order_relaxed);
        load_record_op(t, t->op, end - t->ev_intended_ns);
        (void)evl_track(e, t); /* a reconnect inside the event: the new socket */
        t->ev_state = EVL_C_READY;
        evl_push(&e->ready, t->id - e->lp->first);
        return;
    }
    if (rc != B_DONE)
        load_fail(r, rc, &t->err);
    evl_done(e, t);
}

/* --rate: claim the next arrival for t (load_rate_wait without the sleep). Returns its
 * intended start, or 0: no more (the run ends, or the backlog is over sysbench's queue). */
static u64 evl_arrival(struct load_thread *t, u64 now)
{
    struct load_run *r = t->run;
    u64 old = load_arrival(t);
    if (old > now && r->deadline_ns && old >= r->deadline_ns)
        return 0;
    if (old <= now && (double)(now - old) * r->rate / 1e9 > LOAD_QUEUE_MAX) {
        atomic_store(&r->queue_full, 1);
        atomic_store(&r->stop, 1);
        return 0;
    }
    return old;
}

/* Start t's event now (its intended start is in ev_intended_ns). */
static void evl_go(struct evl *e, struct load_thread *t)
{
    atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
    evl_result(e, t, e->r->w->ev_start(t));
}

/* A ready client: claim its next event (limits, --rate) and start it, or finish it. */
static void evl_begin(struct evl *e, struct load_thread *t)
{
    u64 now = clk_now_ns();
    if (!load_claim(t, now)) {
        evl_done(e, t);
        return;
    }
    t->ev_intended_ns = now;
    if (e->r->rate > 0) {
        u64 at = evl_arrival(t, now);
        if (!at) {
            evl_done(e, t);
            return;
        }
        t->ev_intended_ns = at;
        if (at > now) {
            t->ev_state = EVL_C_WAIT;
            evl_push(&e->wait, t->id - e->lp->first);
            return;
        }
    }
    evl_go(e, t);
}

/* Set up clients [first, first + n): the workload's thread_init for each, in order.
 * A signal before the last one is set up fails the run as thread mode does (a thread per
 * client would be waiting to log in): the next client's login says so at once (myc's gate
 * refuses a login begun after the signal), in the same words. */
static int evl_init(struct evl *e)
{
    struct load_run *r = e->r;
    for (int i = e->lp->first; i < e->lp->first + e->lp->n; i++) {
        struct load_thread *t = &r->thr[i];
        bool sig = atomic_load(&b_stop) != 0;
        if (load_stopping(r) && !sig)
            return B_OK; /* another client's failure: the run's first one is its answer */
        if (r->o->debug)
            load_debug(r, "DEBUG: Worker thread (#%d) started", t->id);
        int rc = r->w->thread_init ? r->w->thread_init(t) : B_OK;
        if (rc >= 0 && sig) /* a workload whose set-up does not look at the signal */
            rc = b_seterr(&t->err, B_DONE, 0, "interrupted by %s while setting up client %d",
                          atomic_load(&b_stop) == SIGTERM ? "SIGTERM" : "SIGINT", t->id);
        if (rc < 0) {
            load_fail(r, rc, &t->err);
            return rc;
        }
        if (r->o->debug)
            load_debug(r, "DEBUG: Worker thread (#%d) initialized", t->id);
    }
    return B_OK;
}

/* The loop: start ready clients and due arrivals, wait for sockets, step the clients. */
static void evl_loop(struct evl *e)
{
    struct load_run *r = e->r;
    struct epoll_event evs[EVL_MAXEV];
    u64 last_scan = clk_now_ns();
    for (int i = 0; i < e->lp->n; i++)
        evl_push(&e->ready, i);
    e->live = e->lp->n;
    for (;;) {
        u64 now = clk_now_ns();
        bool stopping = load_stopping(r);
        if (atomic_load_explicit(&b_stop, memory_order_relaxed)) {
            /* a signal: the events in flight are abandoned, not recorded */
            for (int i = e->lp->first; i < e->lp->first + e->lp->n; i++)
                evl_done(e, &r->thr[i]);
            break;
        }
        for (size_t k = e->ready.len; k > 0 && e->ready.len; k--)
            evl_begin(e, &r->thr[e->lp->first + evl_pop(&e->ready)]);
        while (e->wait.len) {
            struct load_thread *t = &r->thr[e->lp->first + e->wait.v[e->wait.head]];
            if (!stopping && t->ev_intended_ns > now)
                break;
            evl_pop(&e->wait);
            if (stopping)
                evl_done(e, t);
            else
                evl_go(e, t);
        }
        if (e->live == 0) {
            /* --rate with no arrival left before --time: the run still lasts --time */
            if (r->rate > 0 && r->deadline_ns && now < r->deadline_ns && !stopping) {
                clk_sleep_until(B_MIN(r->deadline_ns, now + EVL_TICK_NS));
                continue;
            }
            break;
        }
        u64 wake = now + EVL_TICK_NS;
        if (e->ready.len || e->again.len)
            wake = now;
        if (e->wait.len)
            wake = B_MIN(wake, r->thr[e->lp->first + e->wait.v[e->wait.head]].ev_intended_ns);
        int ms = wake > now ? (int)((wake - now + 999999) / 1000000) : 0;
        int n = epoll_wait(e->ep, evs, EVL_MAXEV, ms);
        for (int k = 0; k < n; k++) {
            struct load_thread *t = evs[k].data.ptr;
            if (t->ev_state != EVL_C_BUSY) /* an edge between events: nothing waits on it */
                continue;
            t->ev_last_ns = now;
            evl_result(e, t, r->w->ev_step(t));
        }
        for (size_t k = e->again.len; k > 0 && e->again.len; k--) {
            struct load_thread *t = &r->thr[e->lp->first + evl_pop(&e->again)];
            t->ev_again = false;
            if (t->ev_state == EVL_C_BUSY)
                evl_result(e, t, r->w->ev_step(t));
        }
        now = clk_now_ns();
        if (now - last_scan >= EVL_TICK_NS) { /* deadlines of stalled statements */
            last_scan = now;
            for (int i = e->lp->first; i < e->lp->first + e->lp->n; i++) {
                struct load_thread *t = &r->thr[i];
                if (t->ev_state == EVL_C_BUSY && now - t->ev_last_ns >= EVL_STALL_NS) {
                    t->ev_last_ns = now;
                    evl_result(e, t, r->w->ev_step(t));
                }
            }
        }
    }
}

BENCH_API void *evl_thread(void *arg)
{
    struct load_loop *lp = arg;
    struct load_run *r = lp->run;
    struct evl e = {.lp = lp, .r = r, .ep = -1};
    atomic_store_explicit(&lp->live, lp->n, memory_order_relaxed);
    int rc = evl_init(&e);
    if (rc == B_OK) {
        e.ep = epoll_create1(EPOLL_CLOEXEC);
        if (e.ep < 0) {
            struct b_err be;
            memset(&be, 0, sizeof(be));
            rc = b_seterr(&be, B_SYSERR, errno, "event loop %d: epoll_create1 failed: %s",
                          lp->id, strerror(errno));
            load_fail(r, rc, &be);
        }
    }
    size_t cap = (size_t)B_MAX(lp->n, 1);
    e.ready = (struct evl_fifo){.v = b_xcalloc(cap, sizeof(int)), .cap = cap};
    e.wait = (struct evl_fifo){.v = b_xcalloc(cap, sizeof(int)), .cap = cap};
    e.again = (struct evl_fifo){.v = b_xcalloc(cap, sizeof(int)), .cap = cap};

    pthread_mutex_lock(&r->mu);
    atomic_fetch_add(&r->ready, 1);
    pthread_cond_broadcast(&r->cv_done);
    while (!r->go)
        pthread_cond_wait(&r->cv_go, &r->mu);
    pthread_mutex_unlock(&r->mu);

    if (rc == B_OK && !atomic_load(&r->failed))
        evl_loop(&e);
    for (int i = lp->first; i < lp->first + lp->n; i++) {
        atomic_store_explicit(&r->thr[i].busy, 0, memory_order_relaxed);
        if (r->w->thread_done && r->thr[i].wl)
            r->w->thread_done(&r->thr[i]);
    }
    if (e.ep >= 0)
        close(e.ep);
    free(e.ready.v);
    free(e.wait.v);
    free(e.again.v);
    atomic_store_explicit(&lp->live, 0, memory_order_relaxed);
    pthread_mutex_lock(&r->mu);
    atomic_fetch_sub(&r->running, 1);
    pthread_cond_broadcast(&r->cv_done);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

/*== 18 oltp_ : sysbench's OLTP workloads over the myc_ client ===============*/
/*
 * The 11 scripts of sysbench 1.0.20 (oltp_common.lua and friends, spec section 4) built in:
 * the same schema and data, the same statements (server-side prepared by default, one per
 * connection x table x kind; text with --db-ps-mode=disable), the same event composition,
 * and the same counting: a statement with a result set is a read, one without is a write
 * when it changed rows and "other" otherwise; BEGIN and COMMIT are other. Ignorable errors
 * (--mysql-ignore-errors, default 1213,1020,1205) restart the whole event, whose latency
 * includes the retries; a lost connection, when its code is in the list, reconnects.
 * Counters per thread: ctr[0] reads, [1] writes, [2] other, [3] ignored errors,
 * [4] reconnects. Tables carry COMMENT 'created by bench' (o->own_tables: the bench persona)
 * so that cleanup, and runs that write, touch only tables bench made (STYLE: prove ownership).
 * Nothing here prints: commands say their lines through res_say and fill b_err (both
 * personas' words where sysbench's differ); which persona is cli_'s business.
 * Limitations: MySQL/MariaDB only (no pgsql); --mysql-compression is zlib only (no zstd).
 */

/* What the OLTP counters count (the report's "SQL statistics"). */
static const struct res_ctr_def oltp_ctrs[] = {
    {"queries_read", "queries", true, "SELECT statements (sysbench's read)"},
    {"queries_write", "queries", true, "INSERT, UPDATE, DELETE, REPLACE (sysbench's write)"},
    {"queries_other", "queries", true, "BEGIN, COMMIT and the rest (sysbench's other)"},
    {"ignored_errors", "errors", true, "server errors ignored by --mysql-ignore-errors"},
    {"reconnects", "connections", true, "reconnects after a lost connection"},
};

/*
 * The scripts, one row each: X(name, id, options, writes, shape). name is the script (and its
 * Lua file's base name), id its variant (wl_def.variant, an index of oltp_variants[]), options
 * its option table, writes whether it changes rows (a run checks first that the tables are
 * bench's or sysbench's), shape the statements of one event (OS_* bits, in oltp_body's order).
 * wl_all's rows, the ids and oltp_variants[] all come from this list: a new script is a row
 * here, plus a shape bit and its statements in oltp_body when no other script runs them.
 */
#define OLTP_VARIANTS(X)                                                                     \
    X("oltp_read_write", OLTP_READ_WRITE, opt_oltp, true,                                    \
      OS_TRX | OS_POINTS | OS_RANGES | OS_IDX_UPD | OS_NONIDX_UPD | OS_DEL_INS)              \
    X("oltp_read_only", OLTP_READ_ONLY, opt_oltp, false, OS_TRX | OS_POINTS | OS_RANGES)     \
    X("oltp_write_only", OLTP_WRITE_ONLY, opt_oltp, true,                                    \
      OS_TRX | OS_IDX_UPD | OS_NONIDX_UPD | OS_DEL_INS)                                      \
    X("oltp_point_select", OLTP_POINT_SELECT, opt_oltp, false, OS_POINT1)                    \
    X("oltp_insert", OLTP_INSERT, opt_oltp, true, OS_INSERT1)                                \
    X("oltp_update_index", OLTP_UPDATE_INDEX, opt_oltp, true, OS_IDX_UPD)                    \
    X("oltp_update_non_index", OLTP_UPDATE_NON_INDEX, opt_oltp, true, OS_NONIDX_UPD)         \
    X("oltp_delete", OLTP_DELETE, opt_oltp, true, OS_DELETE1)                                \
    X("select_random_points", OLTP_RANDOM_POINTS, opt_oltp_points, false, OS_RPOINTS)        \
    X("select_random_ranges", OLTP_RANDOM_RANGES, opt_oltp_ranges, false, OS_RRANGES)        \
    X("bulk_insert", OLTP_BULK_INSERT, opt_oltp, true, OS_BULK)

#define OLTP_VENUM(name, id, opts, writes, shape) id,
enum { OLTP_VARIANTS(OLTP_VENUM) OLTP_NVARIANTS };
#undef OLTP_VENUM

/* The statements of one event, in the order oltp_body runs them (oltp_common.lua's execute_*
 * functions); counts come from the options unless the bit says one. */
enum oltp_shape {
    OS_TRX = 1 << 0,        /* BEGIN first and COMMIT last, unless --skip-trx */
    OS_POINTS = 1 << 1,     /* --point-selects point SELECTs */
    OS_POINT1 = 1 << 2,     /* one point SELECT */
    OS_RANGES = 1 << 3,     /* --simple/sum/order/distinct-ranges SELECTs, if --range-selects */
    OS_IDX_UPD = 1 << 4,    /* --index-updates UPDATE ... SET k=k+1 */
    OS_NONIDX_UPD = 1 << 5, /* --non-index-updates UPDATE ... SET c=? */
    OS_DEL_INS = 1 << 6,    /* --delete-inserts DELETE + INSERT pairs */
    OS_DELETE1 = 1 << 7,    /* one DELETE */
    OS_INSERT1 = 1 << 8,    /* one text INSERT (id 0: auto-increment) */
    OS_RPOINTS = 1 << 9,    /* one SELECT ... WHERE k IN (--random-points values) */
    OS_RRANGES = 1 << 10,   /* one SELECT count(k) ... --number-of-ranges BETWEENs */
    OS_BULK = 1 << 11,      /* one row appended to the thread's own table's bulk INSERT */
};

/* One script: a row of OLTP_VARIANTS. */
struct oltp_variant {
    const char *name;           /* "oltp_read_write" */
    int id;                     /* OLTP_*: its index in oltp_variants[] */
    const struct opt_def *opts; /* its options */
    size_t nopts;
    bool writes;                /* changes rows */
    unsigned shape;             /* enum oltp_shape bits */
};

enum { OQ_POINT, OQ_SIMPLE, OQ_SUM, OQ_ORDER, OQ_DISTINCT, OQ_IDX_UPD, OQ_NONIDX_UPD,
       OQ_DELETE, OQ_INSERT, OQ_RPOINTS, OQ_RRANGES, OQ_N };

#define OLTP_MARK "created by bench"
#define OLTP_BULK_MAX (512 * 1024) /* sysbench's statement size for bulk INSERTs */

static const char *const oltp_sql[OQ_N] = {
    "SELECT c FROM %s WHERE id=?",
    "SELECT c FROM %s WHERE id BETWEEN ? AND ?",
    "SELECT SUM(k) FROM %s WHERE id BETWEEN ? AND ?",
    "SELECT c FROM %s WHERE id BETWEEN ? AND ? ORDER BY c",
    "SELECT DISTINCT c FROM %s WHERE id BETWEEN ? AND ? ORDER BY c",
    "UPDATE %s SET k=k+1 WHERE id=?",
    "UPDATE %s SET c=? WHERE id=?",
    "DELETE FROM %s WHERE id=?",
    "INSERT INTO %s (id, k, c, pad) VALUES (?, ?, ?, ?)",
    NULL, /* built: SELECT id, k, c, pad FROM sbtest1 WHERE k IN (?, ...) */
    NULL, /* built: SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ? OR ... */
};

#define OLTP_OPT(name, type, field, def, lo, hi, help)                                       \
    OPT(name, type, field, def, lo, hi, NULL, help, NULL, OPT_F_LUA)

/* Options of oltp_common.lua, alphabetical as sysbench lists them (with underscores). */
#define OLTP_COMMON_OPTS                                                                     \
    OLTP_OPT("auto-inc", BOOL, oltp_auto_inc, "on", 0, 0,                                    \
             "Use AUTO_INCREMENT column as Primary Key (for MySQL), or its alternatives in "  \
             "other DBMS. When disabled, use client-generated IDs"),                         \
        OLTP_OPT("create-secondary", BOOL, oltp_create_secondary, "on", 0, 0,                \
                 "Create a secondary index in addition to the PRIMARY KEY"),                 \
        OLTP_OPT("delete-inserts", INT, oltp_delete_inserts, "1", 0, 1e6,                    \
                 "Number of DELETE/INSERT combinations per transaction"),                    \
        OLTP_OPT("distinct-ranges", INT, oltp_distinct_ranges, "1", 0, 1e6,                  \
                 "Number of SELECT DISTINCT queries per transaction"),                       \
        OLTP_OPT("index-updates", INT, oltp_index_updates, "1", 0, 1e6,                      \
                 "Number of UPDATE index queries per transaction"),                          \
        OLTP_OPT("mysql-storage-engine", STR, oltp_engine, "innodb", 0, 0,                   \
                 "Storage engine, if MySQL is used"),                                        \
        OLTP_OPT("non-index-updates", INT, oltp_non_index_updates, "1", 0, 1e6,              \
                 "Number of UPDATE non-index queries per transaction"),                      \
        OLTP_OPT("order-ranges", INT, oltp_order_ranges, "1", 0, 1e6,                        \
                 "Number of SELECT ORDER BY queries per transaction"),                       \
        OPT("pgsql-variant", STR, oltp_pgsql_variant, "", 0, 0, NULL,                        \
            "Use this PostgreSQL variant when running with the PostgreSQL driver. The only " \
            "currently supported variant is 'redshift'. When enabled, create_secondary is "  \
            "automatically disabled, and delete_inserts is set to 0",                        \
            NULL, OPT_F_LUA | OPT_F_NODEF),                                                  \
        OLTP_OPT("point-selects", INT, oltp_point_selects, "10", 0, 1e6,                     \
                 "Number of point SELECT queries per transaction")

#define OLTP_COMMON_OPTS2                                                                    \
    OLTP_OPT("range-selects", BOOL, oltp_range_selects, "on", 0, 0,                          \
             "Enable/disable all range SELECT queries"),                                     \
        OLTP_OPT("range-size", INT, oltp_range_size, "100", 1, 1e9,                          \
                 "Range size for range SELECT queries"),                                     \
        OLTP_OPT("secondary", BOOL, oltp_secondary, "off", 0, 0,                             \
                 "Use a secondary index in place of the PRIMARY KEY"),                       \
        OLTP_OPT("simple-ranges", INT, oltp_simple_ranges, "1", 0, 1e6,                      \
                 "Number of simple range SELECT queries per transaction"),                   \
        OLTP_OPT("skip-trx", BOOL, oltp_skip_trx, "off", 0, 0,                               \
                 "Don't start explicit transactions and execute all queries in the "         \
                 "AUTOCOMMIT mode"),                                                         \
        OLTP_OPT("sum-ranges", INT, oltp_sum_ranges, "1", 0, 1e6,                            \
                 "Number of SELECT SUM() queries per transaction"),                          \
        OLTP_OPT("table-size", INT, oltp_table_size, "10000", 0, 2147483647.0,              \
                 "Number of rows per table"),                                                \
        OLTP_OPT("tables", INT, oltp_tables, "1", 1, 1e6, "Number of tables")

static const struct opt_def opt_oltp[] = {OLTP_COMMON_OPTS, OLTP_COMMON_OPTS2};
static const struct opt_def opt_oltp_points[] = {
    OLTP_COMMON_OPTS,
    OLTP_OPT("random-points", INT, oltp_random_points, "10", 1, 1e5,
             "Number of random points in the IN() clause in generated SELECTs"),
    OLTP_COMMON_OPTS2};
static const struct opt_def opt_oltp_ranges[] = {
    OLTP_COMMON_OPTS,
    OLTP_OPT("delta", INT, oltp_delta, "5", 0, 1e9, "Size of BETWEEN intervals"),
    OLTP_OPT("number-of-ranges", INT, oltp_number_of_ranges, "10", 1, 1e5,
             "Number of random BETWEEN ranges per SELECT"),
    OLTP_COMMON_OPTS2};

#define OLTP_VROW(nm, var, opttab, wr, sh) {nm, var, opttab, countof(opttab), wr, sh},
static const struct oltp_variant oltp_variants[] = {OLTP_VARIANTS(OLTP_VROW)};
#undef OLTP_VROW

/* The row of workload w (the 0.4 command line runs as oltp_read_write: variant 0). */
static const struct oltp_variant *oltp_variant(const struct wl_def *w)
{
    return &oltp_variants[w->variant >= 0 && w->variant < OLTP_NVARIANTS ? w->variant : 0];
}

/* Does one event of w run BEGIN ... COMMIT? */
static bool oltp_trx_on(const struct bench_opts *o, const struct wl_def *w)
{
    return !o->oltp_skip_trx && (oltp_variant(w)->shape & OS_TRX);
}

/* The tables of w's commands: one per thread (bulk_insert) or --tables. */
static i64 oltp_ntables(const struct bench_opts *o, const struct wl_def *w)
{
    return oltp_variant(w)->shape & OS_BULK ? o->threads : o->oltp_tables;
}

/* The statements of an event program (oltp_build): OQ_* on a table, or these. */
enum { OP_BEGIN = OQ_N, OP_COMMIT, OP_TEXT };

/* One statement of an event program. */
struct oltp_op {
    u8 kind;              /* OQ_*, OP_BEGIN, OP_COMMIT, OP_TEXT (the text at toff) */
    u32 table;            /* 1..--tables (OQ_* kinds) */
    u32 voff, nv;         /* its parameters: prog.v[voff .. voff + nv) */
    u32 toff;             /* OP_TEXT: NUL-terminated statement in prog.text */
    struct rnd rng_after; /* the generator after this statement's draws (a restart) */
};

/* One event's statements and values, built up front; kept per thread and reused. */
struct oltp_prog {
    struct oltp_op *op;   /* [n] */
    size_t n, cap;
    struct my_val *v;     /* parameters of all statements [nv] */
    size_t nv, vcap;
    struct buf text;      /* string parameters and text statements */
    size_t pc;            /* the statement running, or next */
    size_t bulk_before;   /* bulk_insert: the buffer's length before this event's row */
};

struct oltp_thread {
    struct my_conn c;
    struct oltp_prog prog;     /* the current event */
    struct myc_params cp;      /* the connection's parameters (host, socket: cp_host,
                                  cp_sock; not a struct myc_conn_params: 4.4 KiB, mostly
                                  PATH_MAX, per connection) */
    char *cp_host, *cp_sock;   /* exactly as long as they are; cp_sock NULL: TCP */
    bool connected;
    struct myc_stmt *st;       /* [tables * OQ_N]; st->coldefs != NULL when prepared */
    struct myc_stmt trx[2];    /* BEGIN, COMMIT prepared once per connection (as sysbench) */
    struct myc_result res;
    struct buf q;              /* text statement */
    struct buf tmpl;           /* text statement with '?' placeholders */
    char cbuf[128], padbuf[64];
    struct my_val *pv;         /* select_random_*: parameters [npv] */
    size_t npv;
    u64 bulk_next;             /* bulk_insert: next id */
    struct buf bulk;           /* bulk_insert: pending INSERT */
};

/* Names that reach SQL: at most 64 characters of UTF-8 (MySQL's limit), so 256 bytes; quoted
 * with every backtick doubled, at most 2 * 256 + 2. */
#define OLTP_NAME_SZ 260
#define OLTP_QNAME_SZ 520

static void oltp_table(const struct bench_opts *o, i64 n, char *out, size_t len)
{
    if (o->oltp_legacy_table && *o->oltp_legacy_table)
        snprintf(out, len, "%s", o->oltp_legacy_table); /* 0.4: one table, --oltp-table-name */
    else
        snprintf(out, len, "sbtest%lld", (long long)n);
}

/* The characters of s when it is valid UTF-8 (shortest forms, no surrogates), else -1. */
static long oltp_utf8_len(const char *s)
{
    const u8 *p = (const u8 *)s;
    long n = 0;
    while (*p) {
        u32 c = *p;
        int more = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2
                                 : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (more < 0)
            return -1;
        c &= more ? 0x3Fu >> more : 0x7Fu;
        for (int i = 1; i <= more; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return -1;
            c = c << 6 | (p[i] & 0x3Fu);
        }
        static const u32 lo[4] = {0, 0x80, 0x800, 0x10000};
        if (c < lo[more] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return -1;
        p += more + 1;
        n++;
    }
    return n;
}

/*
 * A name that reaches SQL as an identifier (a table, a schema): 1 to 64 characters of valid
 * UTF-8 (a C string holds no NUL). With word_only, letters, digits and '_' only (an engine).
 * Returns B_OK, or B_INVALID with e saying which option and why.
 */
static int oltp_name_check(const char *opt, const char *name, bool word_only, struct b_err *e)
{
    long n = oltp_utf8_len(name);
    const char *why = NULL, *c;
    char shown[128]; /* the name as the message shows it: control characters escaped */
    for (c = name; *c && (u8)*c >= 0x20 && *c != 0x7F; c++)
        ;
    if (n < 0)
        why = "not valid UTF-8";
    else if (n == 0)
        why = "empty";
    else if (n > 64)
        why = "longer than 64 characters";
    else if (*c) /* they would reach terminals in bench's messages, and logs */
        why = "control characters are not allowed";
    else if (word_only && name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_")])
        why = "only letters, digits and '_' are allowed";
    if (!why)
        return B_OK;
    snprintf(e->hint, sizeof(e->hint), "names reach SQL as identifiers: at most 64 characters "
                                       "of UTF-8 (MySQL's limit)");
    my_escape(shown, sizeof(shown), name, strnlen(name, n > 64 ? 40 : 80));
    if (n > 64)
        return b_seterr(e, B_INVALID, 0, "%s: invalid name '%s...' (%ld characters): %s", opt,
                        shown, n, why);
    return b_seterr(e, B_INVALID, 0, "%s: invalid name '%s': %s", opt, n < 0 ? "?" : shown,
                    why);
}

/*
 * name as an identifier in SQL: bench's own sbtest<N> as sysbench writes it (the same
 * statements), any other name in backticks with each backtick doubled. Never spliced raw.
 */
static void oltp_quote(const char *name, char *out, size_t len)
{
    size_t k = 0;
    bool plain = !strncmp(name, "sbtest", 6) && strspn(name + 6, "0123456789") == strlen(name + 6);
    if (!plain && k + 1 < len)
        out[k++] = '`';
    for (const char *p = name; *p && k + 3 < len; p++) {
        if (*p == '`' && !plain)
            out[k++] = '`';
        out[k++] = *p;
    }
    if (!plain && k + 1 < len)
        out[k++] = '`';
    out[k] = 0;
}

/* Table n as an identifier for SQL. */
static void oltp_qtable(const struct bench_opts *o, i64 n, char *out, size_t len)
{
    char tbl[OLTP_NAME_SZ];
    oltp_table(o, n, tbl, sizeof(tbl));
    oltp_quote(tbl, out, len);
}

/* sysbench.rand.string: '#' -> a digit */
static void oltp_rand_string(struct rnd *r, const char *tmpl, char *out)
{
    for (; *tmpl; tmpl++, out++)
        *out = *tmpl == '#' ? (char)('0' + rnd_uniform(r, 0, 9)) : *tmpl;
    *out = 0;
}

#define OLTP_C_TMPL                                                                          \
    "###########-###########-###########-###########-###########-###########-###########-"  \
    "###########-###########-###########"
#define OLTP_PAD_TMPL "###########-###########-###########-###########-###########"

/* Count one statement by its result, as sysbench 1.0 does. */
static void oltp_count(struct load_thread *t, const struct myc_result *res)
{
    int k = res->nsets > 0 ? 0 : res->affected > 0 ? 1 : 2;
    atomic_store_explicit(&t->ctr[k], atomic_load_explicit(&t->ctr[k], memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

static void oltp_bump(struct load_thread *t, int k)
{
    atomic_store_explicit(&t->ctr[k], atomic_load_explicit(&t->ctr[k], memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

/* Is error code in --mysql-ignore-errors ("all", or a list)? */
static bool oltp_ignored(const struct bench_opts *o, unsigned code)
{
    const char *l = o->mysql_ignore_errors;
    if (!strcmp(l, "all"))
        return true;
    while (*l) {
        char *end;
        unsigned long v = strtoul(l, &end, 10);
        if (end != l && v == code)
            return true;
        l = *end ? end + 1 : end;
    }
    return false;
}

enum { OLTP_RESTART = 1 }; /* an ignorable error: run the whole event again */
enum { OLTP_NEXT = 2 };    /* oltp_prog_after: run statement pc now */
enum { OLTP_RECONNECT = -1000 }; /* oltp_fail: a lost connection in the ignore list */

/* The sysbench persona's words for a failure in e: "FATAL: " and the text, cut as a message
 * is (256 bytes), on its logger's stream (stdout), exit 1. */
static void oltp_sb_fatal(struct b_err *e, const char *fmt, ...) B_PRINTF(2, 3);
static void oltp_sb_fatal(struct b_err *e, const char *fmt, ...)
{
    char text[sizeof(e->msg)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    b_fail_sb(e, 1, B_EXIT_FAIL, "FATAL: %s\n", text);
}

/* The failure of statement `what`: ignorable (restart), a lost connection (reconnect), or
 * fatal (t->err says which statement and the server's words). */
static int oltp_fail(struct load_thread *t, int rc, const char *what, bool prepared)
{
    struct oltp_thread *ot = t->wl;
    const struct bench_opts *o = t->run->o;
    if (rc == B_SERVER && oltp_ignored(o, ot->c.srv_code)) {
        oltp_bump(t, 3);
        return OLTP_RESTART;
    }
    /* a lost connection is the client's 2013/2006/2011/2055 (CR_SERVER_LOST, _GONE_ERROR,
     * CR_TCP_CONNECTION, CR_SERVER_LOST_EXTENDED): sysbench reconnects when one of them is
     * in the list, or `all`; a malformed answer (2027) is not among them */
    bool lost = rc == B_SYSERR || rc == B_TIMEOUT;
    if (lost && (oltp_ignored(o, 2013) || oltp_ignored(o, 2006) || oltp_ignored(o, 2011) ||
                 oltp_ignored(o, 2055))) {
        /* reconnect every 1 ms until it works or the run ends, then prepare again */
        myc_close(&ot->c);
        ot->connected = false;
        return OLTP_RECONNECT; /* handled by oltp_event: reconnect */
    }
    if (rc == B_SERVER) {
        oltp_sb_fatal(&t->err, "%s() returned error %u (%s) for query '%s'",
                      prepared ? "mysql_stmt_execute" : "mysql_drv_query", ot->c.srv_code,
                      ot->c.srv_msg, what);
        snprintf(t->err.hint, sizeof(t->err.hint),
                 "add the code to --mysql-ignore-errors to retry such events instead");
        return b_seterr(&t->err, B_SERVER, 0, "statement failed on %s: ERROR %u (%s): %s "
                        "(statement: %.120s)",
                        ot->c.target, ot->c.srv_code, ot->c.sqlstate, ot->c.srv_msg, what);
    }
    if (rc == B_TIMEOUT) /* the option that cut it, by name */
        snprintf(t->err.hint, sizeof(t->err.hint), "%s within --mysql-io-timeout=%lld s: "
                 "raise it, or add 2013 to --mysql-ignore-errors to reconnect and go on",
                 myc_answered(&ot->c) ? "the answer did not end" : "no answer",
                 (long long)o->mysql_io_timeout);
    else
        snprintf(t->err.hint, sizeof(t->err.hint), "add 2013 to --mysql-ignore-errors to "
                 "reconnect and go on instead");
    return b_seterr(&t->err, rc, ot->c.err.sys_errno, "%s", ot->c.err.msg);
}

static int oltp_text(struct load_thread *t, const char *sql)
{
    struct oltp_thread *ot = t->wl;
    if (t->run->o->mysql_dry_run) { /* sysbench: every call "succeeds" and counts as other */
        oltp_bump(t, 2);
        return B_OK;
    }
    int rc = myc_query(&ot->c, sql, strlen(sql), &ot->res, NULL, NULL);
    if (rc < 0)
        return oltp_fail(t, rc, sql, false);
    oltp_count(t, &ot->res);
    return B_OK;
}

/* The text of statement kind k on table n, with '?' placeholders. */
static void oltp_build_sql(const struct bench_opts *o, int k, i64 n, struct buf *sql)
{
    char tbl[OLTP_QNAME_SZ];
    oltp_qtable(o, n, tbl, sizeof(tbl));
    sql->len = 0;
    if (k == OQ_RPOINTS || k == OQ_RRANGES) {
        i64 cnt = k == OQ_RPOINTS ? o->oltp_random_points : o->oltp_number_of_ranges;
        /* the scripts' multi-line [[...]] texts, whitespace included */
        buf_printf(sql, k == OQ_RPOINTS ? "        SELECT id, k, c, pad\n          FROM %s\n"
                                          "          WHERE k IN ("
                                        : "        SELECT count(k)\n          FROM %s\n"
                                          "          WHERE ",
                   tbl);
        for (i64 i = 0; i < cnt; i++)
            buf_printf(sql, k == OQ_RPOINTS ? "%s?" : "%sk BETWEEN ? AND ?",
                       i ? (k == OQ_RPOINTS ? ", " : " OR ") : "");
        if (k == OQ_RPOINTS)
            buf_printf(sql, ")\n        ");
        return;
    }
    const char *s = oltp_sql[k], *pc = strstr(s, "%s");
    buf_printf(sql, "%.*s%s%s", (int)(pc - s), s, tbl, pc + 2);
}

static struct my_val oltp_int(i64 v)
{
    return (struct my_val){.type = MY_T_LONG, .i = v};
}

/*
 * oltp_insert --auto-inc=off: one unique sequence per run, shared by the threads, seeded as
 * sb_rand_init seeds it (rnd_unique_seed) from --rand-seed. sysbench draws that seed from a
 * random() state its libraries seeded with the time of day; unseeded (0) bench takes the clock
 * and the pid, so a second run on the same tables starts elsewhere in the permutation and does
 * not collide. --client-count clients share the run's sequence, each its own lane of it.
 */
static struct rnd_unique oltp_uniq;

static void oltp_unique_seed(const struct bench_opts *o)
{
    u64 ns = clk_now_ns() ^ ((u64)getpid() << 40);
    rnd_unique_seed(&oltp_uniq, o->rand_seed ? (unsigned)o->rand_seed
                                             : (u32)ns * 2654435761u ^ (u32)(ns >> 32));
    if (o->client_count > 0)
        rnd_unique_lane(&oltp_uniq, (u32)o->client_index, (u32)o->client_count);
}

/* A row id of a write that must not meet another client's (delete/insert pairs): the drawn id
 * moved to this client's residue class modulo --client-count, within [1, size]. */
static i64 oltp_client_id(const struct bench_opts *o, i64 id)
{
    i64 n = o->client_count, size = o->oltp_table_size;
    if (n <= 1 || size < n)
        return id;
    id = id - (id - 1) % n + o->client_index;
    return id > size ? id - n : id;
}

static i64 oltp_pick_table(struct load_thread *t)
{
    return rnd_uniform(&t->rng, 1, (u32)t->run->o->oltp_tables);
}

static i64 oltp_id(struct load_thread *t)
{
    struct oltp_thread *ot = t->wl;
    i64 size = t->run->o->oltp_table_size;
    (void)ot;
    return rnd_default(&t->rng, &t->run->o->rnd, 1, (u32)(size > 0 ? size : 1));
}

static const char *const oltp_trx_sql[2] = {"BEGIN", "COMMIT"};

/*
 * An event as a program. oltp_build draws every value of one event from the thread's
 * generator, in the order the script draws them (oltp_common.lua's execute_* functions), and
 * lists its statements (struct oltp_op); an executor then runs them one by one: the blocking
 * path (oltp_event: one myc_ call per statement) and the event loop (oltp_ev_*: the same
 * statements started and stepped without blocking) share the program and what follows each
 * statement (oltp_op_done: count, or restart, reconnect, fail; oltp_prog_after).
 * sysbench draws a statement's values just before running it, so after a failure at
 * statement i (an ignored error restarts the event) its generator is where statement i's
 * draws left it, not at the end of the event: each statement keeps that state (rng_after)
 * and a restart resumes from it. The values of every event, restarts included, stay
 * sysbench's.
 */
/* realloc, or the end of the process (b_xcalloc's rule) */
static void *oltp_grow(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q)
        b_die("out of memory growing an event program to %zu bytes", n);
    return q;
}

static void oltp_prog_reset(struct oltp_prog *p)
{
    p->n = p->nv = p->text.len = p->pc = 0;
}

/* A string parameter: its bytes go to the program's text; the pointer is set once the text
 * stops growing (oltp_prog_fix), the offset kept in .i until then. */
static struct my_val oltp_pstr(struct oltp_prog *p, const char *s, size_t n)
{
    struct my_val v = {.type = MY_T_VAR_STRING, .i = (i64)p->text.len, .s = {NULL, n}};
    buf_put(&p->text, s, n);
    buf_put(&p->text, "", 1);
    return v;
}

/* Append statement kind on table n with values v[nv]; the generator as it is now. */
static void oltp_emit(struct load_thread *t, int kind, i64 n, const struct my_val *v, size_t nv)
{
    struct oltp_thread *ot = t->wl;
    struct oltp_prog *p = &ot->prog;
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 16;
        p->op = oltp_grow(p->op, p->cap * sizeof(*p->op));
    }
    if (p->nv + nv > p->vcap) {
        p->vcap = B_MAX(2 * p->vcap, p->nv + nv + 16);
        p->v = oltp_grow(p->v, p->vcap * sizeof(*p->v));
    }
    struct oltp_op *op = &p->op[p->n++];
    op->kind = (u8)kind;
    op->table = (u32)n;
    op->voff = (u32)p->nv;
    op->nv = (u32)nv;
    op->toff = 0;
    op->rng_after = t->rng;
    if (nv)
        memcpy(p->v + p->nv, v, nv * sizeof(*v));
    p->nv += nv;
}

/* Append a text statement (its bytes copied). */
static void oltp_emit_text(struct load_thread *t, const char *sql, size_t len)
{
    struct oltp_prog *p = &((struct oltp_thread *)t->wl)->prog;
    size_t off = p->text.len;
    buf_put(&p->text, sql, len);
    buf_put(&p->text, "", 1);
    oltp_emit(t, OP_TEXT, 0, NULL, 0);
    p->op[p->n - 1].toff = (u32)off;
}

/* The text has its final place: string parameters point into it. */
static void oltp_prog_fix(struct oltp_prog *p)
{
    for (size_t i = 0; i < p->nv; i++)
        if (p->v[i].type == MY_T_VAR_STRING)
            p->v[i].s.p = p->text.p + p->v[i].i;
}

/* One event of the oltp_* scripts as a program (oltp_common.lua's execute_* functions). */
static void oltp_build(struct load_thread *t)
{
    struct oltp_thread *ot = t->wl;
    struct oltp_prog *p = &ot->prog;
    const struct bench_opts *o = t->run->o;
    const unsigned shape = oltp_variant(t->run->w)->shape;
    struct my_val v[4];
    bool trx = oltp_trx_on(o, t->run->w);
    oltp_prog_reset(p);
    if (trx)
        oltp_emit(t, OP_BEGIN, 0, NULL, 0);
    if (shape & (OS_POINTS | OS_POINT1)) {
        i64 n = oltp_pick_table(t);
        i64 cnt = shape & OS_POINT1 ? 1 : o->oltp_point_selects;
        for (i64 i = 0; i < cnt; i++) {
            v[0] = oltp_int(oltp_id(t));
            oltp_emit(t, OQ_POINT, n, v, 1);
        }
    }
    if ((shape & OS_RANGES) && o->oltp_range_selects) {
        static const int kinds[4] = {OQ_SIMPLE, OQ_SUM, OQ_ORDER, OQ_DISTINCT};
        const i64 cnts[4] = {o->oltp_simple_ranges, o->oltp_sum_ranges, o->oltp_order_ranges,
                             o->oltp_distinct_ranges};
        for (int g = 0; g < 4; g++) {
            i64 n = oltp_pick_table(t);
            for (i64 i = 0; i < cnts[g]; i++) {
                i64 id = oltp_id(t);
                v[0] = oltp_int(id);
                v[1] = oltp_int(id + o->oltp_range_size - 1);
                oltp_emit(t, kinds[g], n, v, 2);
            }
        }
    }
    if (shape & OS_IDX_UPD) {
        i64 n = oltp_pick_table(t);
        for (i64 i = 0; i < o->oltp_index_updates; i++) {
            v[0] = oltp_int(oltp_id(t));
            oltp_emit(t, OQ_IDX_UPD, n, v, 1);
        }
    }
    if (shape & OS_NONIDX_UPD) {
        i64 n = oltp_pick_table(t);
        for (i64 i = 0; i < o->oltp_non_index_updates; i++) {
            oltp_rand_string(&t->rng, OLTP_C_TMPL, ot->cbuf);
            v[0] = oltp_pstr(p, ot->cbuf, 119);
            v[1] = oltp_int(oltp_id(t));
            oltp_emit(t, OQ_NONIDX_UPD, n, v, 2);
        }
    }
    if (shape & OS_DEL_INS) {
        i64 n = oltp_pick_table(t);
        for (i64 i = 0; i < o->oltp_delete_inserts; i++) {
            /* drawn in the script's order: id, k, c, pad; then DELETE and INSERT */
            i64 id = oltp_client_id(o, oltp_id(t)), k = oltp_id(t);
            oltp_rand_string(&t->rng, OLTP_C_TMPL, ot->cbuf);
            oltp_rand_string(&t->rng, OLTP_PAD_TMPL, ot->padbuf);
            v[0] = oltp_int(id);
            oltp_emit(t, OQ_DELETE, n, v, 1);
            v[0] = oltp_int(id);
            v[1] = oltp_int(k);
            v[2] = oltp_pstr(p, ot->cbuf, 119);
            v[3] = oltp_pstr(p, ot->padbuf, 59);
            oltp_emit(t, OQ_INSERT, n, v, 4);
        }
    }
    if (shape & OS_DELETE1) {
        i64 n = oltp_pick_table(t);
        v[0] = oltp_int(oltp_client_id(o, oltp_id(t)));
        oltp_emit(t, OQ_DELETE, n, v, 1);
    }
    if (shape & OS_INSERT1) { /* a text INSERT, id 0 = auto-increment (sysbench) */
        char tbl[OLTP_QNAME_SZ];
        i64 n = oltp_pick_table(t), k = oltp_id(t); /* the script's order: table, k, c, pad */
        oltp_qtable(o, n, tbl, sizeof(tbl));
        oltp_rand_string(&t->rng, OLTP_C_TMPL, ot->cbuf);
        oltp_rand_string(&t->rng, OLTP_PAD_TMPL, ot->padbuf);
        i64 id = 0;
        if (!o->oltp_auto_inc) /* sysbench.rand.unique() - 2^31: spread over INT, new per run */
            id = (i64)rnd_unique(&oltp_uniq) - 2147483648LL;
        ot->q.len = 0;
        buf_printf(&ot->q, "INSERT INTO %s (id, k, c, pad) VALUES (%lld, %lld, '%s', '%s')", tbl,
                   (long long)id, (long long)k, ot->cbuf, ot->padbuf);
        oltp_emit_text(t, ot->q.p, ot->q.len);
    }
    if (shape & (OS_RPOINTS | OS_RRANGES)) {
        /* each thread draws from its own slice of the k domain (select_random_*.lua): Lua's
         * double rlen = size / threads, the bounds truncated on their way to uint32_t, so
         * the last slice ends at the size whether or not the threads divide it */
        double rlen = (double)o->oltp_table_size / t->run->nthreads, rlo = rlen * t->id;
        i64 rmin = (i64)(u32)rlo, rmax = (i64)(u32)(rlo + rlen);
        struct my_val *pv = ot->pv;
        size_t np = 0;
        i64 cnt = shape & OS_RPOINTS ? o->oltp_random_points : o->oltp_number_of_ranges;
        for (i64 i = 0; i < cnt && np + 2 <= ot->npv; i++) {
            i64 x = rnd_default(&t->rng, &o->rnd, (u32)rmin, (u32)B_MAX(rmax, rmin));
            pv[np++] = oltp_int(x);
            if (shape & OS_RRANGES)
                pv[np++] = oltp_int(x + o->oltp_delta);
        }
        oltp_emit(t, shape & OS_RPOINTS ? OQ_RPOINTS : OQ_RRANGES, 1, pv, np);
    }
    if (shape & OS_BULK) { /* one row per event into the thread's own table */
        u64 n = ++ot->bulk_next;
        if (o->client_count > 1) /* client i of c: ids i+1, i+1+c, ... of the thread's table */
            n = (n - 1) * (u64)o->client_count + (u64)o->client_index + 1;
        char row[48];
        int rl = snprintf(row, sizeof(row), "(%llu,%llu)", (unsigned long long)n,
                          (unsigned long long)n);
        /* db_driver.c's db_bulk_insert_next: the statement goes out before the row that
         * would not fit the 512 KiB buffer with its ',' and the terminating NUL; when it
         * fails the buffer is gone and the row never went in (p->bulk_before, a restart) */
        if (ot->bulk.len && ot->bulk.len + (size_t)rl + 2 > OLTP_BULK_MAX) {
            oltp_emit_text(t, ot->bulk.p, ot->bulk.len);
            ot->bulk.len = 0;
        }
        p->bulk_before = ot->bulk.len;
        if (ot->bulk.len == 0)
            buf_printf(&ot->bulk, "INSERT INTO sbtest%d VALUES", t->id + 1);
        else
            buf_put(&ot->bulk, ",", 1);
        buf_put(&ot->bulk, row, (size_t)rl);
    }
    if (trx)
        oltp_emit(t, OP_COMMIT, 0, NULL, 0);
    oltp_prog_fix(p);
}

/* The prepared statement op runs as, or NULL when it goes as text. */
static struct myc_stmt *oltp_op_stmt(struct load_thread *t, const struct oltp_op *op)
{
    struct oltp_thread *ot = t->wl;
    struct myc_stmt *st = NULL;
    if (op->kind == OP_BEGIN || op->kind == OP_COMMIT)
        st = &ot->trx[op->kind - OP_BEGIN];
    else if (op->kind < OQ_N && t->run->o->db_ps_mode == 0)
        st = &ot->st[(op->table - 1) * OQ_N + op->kind];
    return st && st->coldefs ? st : NULL;
}

/* The text of op (text protocol): the values substituted, strings quoted (digits and dashes
 * only), in the thread's buffers (no allocation per query). */
static const char *oltp_op_text(struct load_thread *t, const struct oltp_op *op)
{
    struct oltp_thread *ot = t->wl;
    const struct oltp_prog *p = &ot->prog;
    if (op->kind == OP_TEXT)
        return p->text.p + op->toff;
    if (op->kind == OP_BEGIN || op->kind == OP_COMMIT)
        return oltp_trx_sql[op->kind - OP_BEGIN];
    oltp_build_sql(t->run->o, op->kind, op->table, &ot->tmpl);
    ot->q.len = 0;
    size_t vi = 0;
    const struct my_val *v = p->v + op->voff;
    for (const char *c = ot->tmpl.p; *c; c++) {
        if (*c == '?' && vi < op->nv) {
            const struct my_val *x = &v[vi++];
            if (x->type == MY_T_VAR_STRING)
                buf_printf(&ot->q, "'%.*s'", (int)x->s.len, x->s.p);
            else
                buf_printf(&ot->q, "%lld", (long long)x->i);
        } else
            buf_put(&ot->q, c, 1);
    }
    return ot->q.p;
}

/* The statement op finished with rc: counted (B_OK), or oltp_fail's verdict. */
static int oltp_op_done(struct load_thread *t, const struct oltp_op *op, int rc)
{
    struct oltp_thread *ot = t->wl;
    if (rc < 0) {
        bool prepared = oltp_op_stmt(t, op) != NULL;
        /* the statement as sysbench names it: a prepared one by its kind, text in full */
        const char *what = !prepared                ? oltp_op_text(t, op)
                           : op->kind >= OP_BEGIN ? oltp_trx_sql[op->kind - OP_BEGIN]
                                                  : "prepared statement";
        return oltp_fail(t, rc, what, prepared);
    }
    oltp_count(t, &ot->res);
    return B_OK;
}

/* Run statement op to its end (the blocking path). */
static int oltp_op_run(struct load_thread *t, const struct oltp_op *op)
{
    struct oltp_thread *ot = t->wl;
    if (t->run->o->mysql_dry_run) { /* sysbench: every call "succeeds" and counts as other */
        oltp_bump(t, 2);
        return B_OK;
    }
    struct myc_stmt *st = oltp_op_stmt(t, op);
    int rc;
    if (st)
        rc = myc_execute(&ot->c, st, ot->prog.v + op->voff, op->nv, &ot->res, NULL, NULL);
    else {
        const char *sql = oltp_op_text(t, op);
        rc = myc_query(&ot->c, sql, strlen(sql), &ot->res, NULL, NULL);
    }
    return oltp_op_done(t, op, rc);
}

/* The event's end: sysbench's sb_event_stop. With percentiles on, the latency goes to one of
 * 128 histogram slots picked by a draw from this thread's generator; the next event's
 * values come after it. */
static int oltp_prog_end(struct load_thread *t)
{
    if (t->run->o->npct)
        (void)rnd_next(&t->rng);
    return B_OK;
}

/* A program built: OLTP_NEXT to run its first statement, or B_OK when it has none (a
 * bulk_insert row that fits the buffer). */
static int oltp_prog_first(struct load_thread *t)
{
    struct oltp_prog *p = &((struct oltp_thread *)t->wl)->prog;
    p->pc = 0;
    return p->n ? OLTP_NEXT : oltp_prog_end(t);
}

/*
 * oltp_prog_after - statement pc ended with rc (oltp_op_done's). Returns OLTP_NEXT (run
 * statement pc: the next one, or the first of the event built again after an ignored
 * error), B_OK (the event is done), OLTP_RECONNECT (the program is built again; reconnect,
 * count it, then run statement pc), or a failure.
 */
static int oltp_prog_after(struct load_thread *t, int rc)
{
    struct oltp_thread *ot = t->wl;
    struct oltp_prog *p = &ot->prog;
    if (rc == B_OK) {
        if (++p->pc < p->n)
            return OLTP_NEXT;
        return oltp_prog_end(t);
    }
    if (rc != OLTP_RESTART && rc != OLTP_RECONNECT)
        return rc;
    /* the event again, from where the failed statement's draws left the generator */
    t->rng = p->op[p->pc].rng_after;
    if (oltp_variant(t->run->w)->shape & OS_BULK)
        ot->bulk.len = p->bulk_before;
    oltp_build(t);
    if (rc == OLTP_RECONNECT)
        return rc;
    return oltp_prog_first(t);
}

/* COM_STMT_PREPARE of one statement; a statement the server cannot prepare (1295) stays
 * unprepared (st->coldefs NULL) and goes as text, as sysbench's driver emulates it. */
static int oltp_prepare1(struct load_thread *t, const char *sql, size_t len, struct myc_stmt *st)
{
    struct oltp_thread *ot = t->wl;
    const struct bench_opts *o = t->run->o;
    int rc = myc_prepare(&ot->c, sql, len, st);
    if (rc >= 0 || (rc == B_SERVER && ot->c.srv_code == 1295))
        return B_OK;
    /* sysbench's four lines, Lua frames included, for its parsers */
    oltp_sb_fatal(&t->err, "mysql_stmt_prepare() failed\nFATAL: MySQL error: %u \"%s\"\n"
                           "FATAL: `thread_init' function failed: "
                           "/usr/share/sysbench/oltp_common.lua:284: SQL API error\n"
                           "FATAL: Thread initialization failed!",
                  ot->c.srv_code, ot->c.srv_msg);
    b_seterr(&t->err, rc, 0, "preparing '%s' on %s failed: %s", sql, ot->c.target,
             ot->c.err.msg);
    if (ot->c.srv_code == 1146)
        snprintf(t->err.hint, sizeof(t->err.hint),
                 "run 'bench %s prepare' with the same --tables and --mysql-db first",
                 t->run->w->name);
    else if (rc == B_TIMEOUT)
        snprintf(t->err.hint, sizeof(t->err.hint),
                 "no answer within --mysql-io-timeout=%lld s; raise it for a slow or busy server",
                 (long long)o->mysql_io_timeout);
    return rc;
}

/* Prepare every statement the variant needs, for every table (sysbench's thread_init), and
 * BEGIN and COMMIT once for the connection where the script runs transactions. */
/* The statement kinds a script prepares, whatever their counts (as its prepare_statements):
 * need[OQ_*] from the shape; the text INSERTs (OS_INSERT1, OS_BULK) are never prepared. */
static void oltp_kinds(unsigned shape, const struct bench_opts *o, bool need[OQ_N])
{
    memset(need, 0, OQ_N * sizeof(bool));
    need[OQ_POINT] = shape & (OS_POINTS | OS_POINT1);
    need[OQ_SIMPLE] = need[OQ_SUM] = need[OQ_ORDER] = need[OQ_DISTINCT] =
        (shape & OS_RANGES) && o->oltp_range_selects;
    need[OQ_IDX_UPD] = shape & OS_IDX_UPD;
    need[OQ_NONIDX_UPD] = shape & OS_NONIDX_UPD;
    need[OQ_DELETE] = shape & (OS_DEL_INS | OS_DELETE1);
    need[OQ_INSERT] = shape & OS_DEL_INS;
    need[OQ_RPOINTS] = shape & OS_RPOINTS;
    need[OQ_RRANGES] = shape & OS_RRANGES;
}

static int oltp_prepare_stmts(struct load_thread *t)
{
    struct oltp_thread *ot = t->wl;
    const struct bench_opts *o = t->run->o;
    bool need[OQ_N];
    oltp_kinds(oltp_variant(t->run->w)->shape, o, need);
    if (o->db_ps_mode != 0)
        return B_OK; /* --db-ps-mode=disable: text only */
    int rc = B_OK;
    if (oltp_trx_on(o, t->run->w))
        for (int i = 0; i < 2 && rc == B_OK; i++)
            rc = oltp_prepare1(t, oltp_trx_sql[i], strlen(oltp_trx_sql[i]), &ot->trx[i]);
    for (i64 n = 1; n <= o->oltp_tables && rc == B_OK; n++)
        for (int k = 0; k < OQ_N && rc == B_OK; k++) {
            if (!need[k] || ((k == OQ_RPOINTS || k == OQ_RRANGES) && n > 1))
                continue;
            struct buf sql = {0};
            oltp_build_sql(o, k, n, &sql);
            rc = oltp_prepare1(t, sql.p, sql.len, &ot->st[(n - 1) * OQ_N + k]);
            buf_free(&sql);
        }
    return rc;
}

/* Connect (and prepare). g: the run's connect phase (thread_init: bounded parallel logins,
 * retries, progress); NULL for a reconnect during the run. */
static int oltp_connect(struct load_thread *t, struct myc_gate *g)
{
    struct oltp_thread *ot = t->wl;
    unsigned tries = 1;
    u64 seed = clk_now_ns() ^ ((u64)t->id << 32); /* the backoff's jitter, not t->rng */
    int rc = g ? myc_connect_retry(&ot->c, &ot->cp, g, &tries, &seed)
               : myc_connect(&ot->c, &ot->cp);
    if (rc < 0 && g && ot->c.err.sb[0]) { /* only a shut gate gives c an sb text */
        t->err = ot->c.err; /* another worker's failure ended the phase: its words and hint */
        return rc;
    }
    if (rc < 0) {
        char msg[sizeof(t->err.msg)];
        if (tries > 1)
            snprintf(msg, sizeof(msg), "%.480s (%u attempts)", ot->c.err.msg, tries);
        else
            snprintf(msg, sizeof(msg), "%s", ot->c.err.msg);
        oltp_sb_fatal(&t->err, "unable to connect to MySQL server: %s", msg);
        b_seterr(&t->err, rc, ot->c.err.sys_errno, "%s", msg);
        if (rc == B_SERVER && ot->c.srv_code == 1040)
            snprintf(t->err.hint, sizeof(t->err.hint),
                     "the server allows fewer connections than --threads=%lld: raise its "
                     "max_connections (and open_files_limit), or run fewer threads",
                     (long long)t->run->o->threads);
        else if (ot->c.err.sys_errno == ECONNREFUSED)
            snprintf(t->err.hint, sizeof(t->err.hint),
                     "nothing is listening there; check --mysql-host/--mysql-port (-h/-P)");
        else if (g && ot->c.err.sys_errno == ETIMEDOUT)
            snprintf(t->err.hint, sizeof(t->err.hint),
                     "no answer within --mysql-connect-timeout=%lld s: is it a MySQL server, "
                     "and is it overloaded (its back_log, max_connections)?",
                     (long long)t->run->o->mysql_connect_timeout);
        else if (ot->c.srv_code == 2061) /* no TLS by default, as sysbench: issue 8's rule */
            snprintf(t->err.hint, sizeof(t->err.hint), "%s", myc_hint_2061);
        else if (rc == B_SERVER && ot->c.srv_code == 1049)
            snprintf(t->err.hint, sizeof(t->err.hint),
                     "create the database first: sysbench and bench never create it (the "
                     "one-liner 'bench oltp' makes its own)");
        if (g)
            myc_gate_shut(g, rc, &t->err); /* the others stop waiting: one failure, one line */
        return rc;
    }
    if (g) {
        char line[64];
        if (myc_gate_progress(g, line, sizeof(line)))
            res_say(t->run->res, RES_SAY_STATUS, "%s", line);
    }
    ot->connected = true;
    memset(&t->err, 0, sizeof(t->err)); /* a reconnect: earlier attempts' failures are past */
    return oltp_prepare_stmts(t);
}

static int oltp_thread_init(struct load_thread *t)
{
    const struct bench_opts *o = t->run->o;
    struct oltp_thread *ot = b_xcalloc(1, sizeof(*ot));
    t->wl = ot;
    ot->c.fd = -1;
    ot->st = b_xcalloc((size_t)o->oltp_tables * OQ_N, sizeof(struct myc_stmt));
    ot->npv = (size_t)B_MAX(o->oltp_random_points, 2 * o->oltp_number_of_ranges) + 2;
    ot->pv = b_xcalloc(ot->npv, sizeof(struct my_val));
    if (o->mysql_dry_run)
        return B_OK;
    struct myc_conn_params *cc = b_xcalloc(1, sizeof(*cc)); /* copied out, then freed */
    if (myc_params_from_opts(o, (unsigned)t->id, cc, NULL) < 0) { /* oltp_check said why */
        free(cc);
        return b_seterr(&t->err, B_INVALID, 0, "invalid connection options");
    }
    ot->cp = cc->p;
    ot->cp.host = ot->cp_host = b_xstrdup(cc->host);
    ot->cp.socket = ot->cp_sock = cc->p.socket ? b_xstrdup(cc->p.socket) : NULL;
    free(cc);
    return oltp_connect(t, t->run->wl_global);
}

/* Forget the statements; on a live connection close them first (COM_STMT_CLOSE, as
 * sysbench's thread_done), so that the server frees them before the connection ends. */
static void oltp_free_stmts(struct oltp_thread *ot, i64 tables)
{
    for (i64 i = -2; i < tables * OQ_N; i++) {
        struct myc_stmt *st = i < 0 ? &ot->trx[i + 2] : &ot->st[i];
        if (!st->coldefs)
            continue;
        if (ot->connected && myc_stmt_close(&ot->c, st) < 0)
            ot->connected = false; /* the rest go with the connection */
        else if (!ot->connected)
            myc_stmt_free(st);
    }
}

/* A lost connection in the ignore list: reconnect every 1 ms until it works or the run ends
 * (B_DONE), prepare again, count it. The program is built again already (oltp_prog_after).
 * On an event loop this blocks the loop while it runs. */
static int oltp_reconnect(struct load_thread *t)
{
    struct oltp_thread *ot = t->wl;
    oltp_free_stmts(ot, t->run->o->oltp_tables);
    for (;;) {
        if (atomic_load(&t->run->stop) || atomic_load(&b_stop) ||
            (t->run->deadline_ns && clk_now_ns() >= t->run->deadline_ns))
            return B_DONE;
        if (oltp_connect(t, NULL) == B_OK)
            break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    t->ev_sock_gen++; /* an event loop registers the new socket (evl_track) */
    oltp_bump(t, 4);
    return B_OK;
}

/* One event, blocking: the program's statements one myc_ call each. */
static int oltp_event(struct load_thread *t)
{
    struct oltp_thread *ot = t->wl;
    oltp_build(t);
    int rc = oltp_prog_first(t);
    while (rc != B_OK) {
        if (rc == OLTP_NEXT) {
            rc = oltp_prog_after(t, oltp_op_run(t, &ot->prog.op[ot->prog.pc]));
            continue;
        }
        if (rc != OLTP_RECONNECT || (rc = oltp_reconnect(t)) != B_OK)
            return rc;
        rc = oltp_prog_first(t);
    }
    return B_OK;
}

/*
 * The same event on an event loop (evl_): each statement started without blocking
 * (myc_*_start), stepped when its socket is ready (oltp_ev_step); what follows a statement
 * is the blocking path's (oltp_op_done, oltp_prog_after). Returns EVL_WANT_* while a
 * statement is in flight, else as oltp_event.
 */
static int oltp_ev_run(struct load_thread *t, int rc)
{
    struct oltp_thread *ot = t->wl;
    while (rc == OLTP_NEXT || rc == OLTP_RECONNECT) {
        if (rc == OLTP_RECONNECT) {
            if ((rc = oltp_reconnect(t)) != B_OK)
                return rc;
            rc = oltp_prog_first(t);
            continue;
        }
        const struct oltp_op *op = &ot->prog.op[ot->prog.pc];
        int sr;
        if (t->run->o->mysql_dry_run) { /* every call "succeeds" and counts as other */
            oltp_bump(t, 2);
            rc = oltp_prog_after(t, B_OK);
            continue;
        }
        {
            struct myc_stmt *st = oltp_op_stmt(t, op);
            if (st) {
                sr = myc_execute_start(&ot->c, st, ot->prog.v + op->voff, op->nv, &ot->res,
                                       NULL, NULL);
            } else {
                const char *sql = oltp_op_text(t, op);
                sr = myc_query_start(&ot->c, sql, strlen(sql), &ot->res, NULL, NULL);
            }
            if (sr == MYC_WANT_READ && myc_runnable(&ot->c))
                return EVL_WANT_RUN;
            if (sr == MYC_WANT_READ || sr == MYC_WANT_WRITE)
                return sr == MYC_WANT_READ ? EVL_WANT_READ : EVL_WANT_WRITE;
        }
        rc = oltp_prog_after(t, oltp_op_done(t, op, sr));
    }
    return rc;
}

static int oltp_ev_start(struct load_thread *t)
{
    oltp_build(t);
    return oltp_ev_run(t, oltp_prog_first(t));
}

static int oltp_ev_step(struct load_thread *t)
{
    struct oltp_thread *ot = t->wl;
    int sr = myc_step(&ot->c);
    if (sr == MYC_WANT_READ && myc_runnable(&ot->c))
        return EVL_WANT_RUN;
    if (sr == MYC_WANT_READ || sr == MYC_WANT_WRITE)
        return sr == MYC_WANT_READ ? EVL_WANT_READ : EVL_WANT_WRITE;
    return oltp_ev_run(t, oltp_prog_after(t, oltp_op_done(t, &ot->prog.op[ot->prog.pc], sr)));
}

static int oltp_ev_fd(const struct load_thread *t)
{
    const struct oltp_thread *ot = t->wl;
    return myc_fd(&ot->c);
}

static void oltp_thread_done(struct load_thread *t)
{
    struct oltp_thread *ot = t->wl;
    if (ot && ot->bulk.len && ot->connected) { /* bulk_insert flushes at thread end */
        (void)oltp_text(t, ot->bulk.p);
        ot->bulk.len = 0;
    }
}

/*
 * The teardown of every worker, once the measured window has ended (after the report): with
 * many tables x threads, freeing the statements takes seconds, which counted in the window
 * and cut the TPS when each worker did it on its way out.
 */
static void oltp_done(struct load_run *r)
{
    if (r->wl_global) {
        myc_gate_free(r->wl_global);
        free(r->wl_global);
        r->wl_global = NULL;
    }
    for (int i = 0; i < r->nthreads; i++) {
        struct oltp_thread *ot = r->thr[i].wl;
        if (!ot)
            continue;
        oltp_free_stmts(ot, r->o->oltp_tables);
        free(ot->st);
        free(ot->pv);
        free(ot->prog.op);
        free(ot->prog.v);
        buf_free(&ot->prog.text);
        myc_close(&ot->c);
        myc_result_free(&ot->res);
        buf_free(&ot->q);
        buf_free(&ot->tmpl);
        buf_free(&ot->bulk);
        free(ot->cp_host);
        free(ot->cp_sock);
        free(ot);
        r->thr[i].wl = NULL;
    }
}



/* ---- commands: prepare, prewarm, cleanup (their lines go to res_say, as sysbench's scripts
 * print them; a failure fills the job's b_err) ---- */

struct oltp_job {
    const struct bench_opts *o;
    const struct wl_def *w;
    struct res *res;             /* the command's result, for its lines (NULL: none) */
    int idx, nthreads;           /* tables idx+1, idx+1+nthreads, ... */
    int (*fn)(struct oltp_job *j, struct my_conn *c, i64 n);
    int ex;                      /* exit code of this job (the bench persona's) */
    i64 made;                    /* prepare: the table it created and has not finished, or 0 */
    struct rnd rng;
    struct b_err err;            /* its first failure (oltp_jobs hands the first on to res) */
};

/*
 * Before every OLTP command (prepare, run, cleanup, prewarm, the one-liner): the names that
 * reach SQL are valid, and the connection options parse for every host and port of the
 * lists: one path and one wording for all (usage exit). Returns an exit code.
 */
/* --client-index and --client-count: both or neither, 0 <= index < count, and a shared
 * --rand-seed (the clients draw their ids from one sequence, their seeds from one seed). */
static int oltp_client_check(const struct bench_opts *o, struct b_err *e)
{
    i64 i = o->client_index, n = o->client_count;
    if (i < 0 && n < 0)
        return B_EXIT_OK;
    if (n < 0)
        return b_fail(e, B_EXIT_USAGE, "--client-index=%lld without --client-count: say how "
                      "many clients act as one run", (long long)i);
    if (n < 1)
        return b_fail(e, B_EXIT_USAGE, "--client-count=%lld: must be at least 1", (long long)n);
    if (i < 0)
        return b_fail(e, B_EXIT_USAGE, "--client-count=%lld without --client-index: say which "
                      "client (0 to %lld) this is", (long long)n, (long long)(n - 1));
    if (i >= n)
        return b_fail(e, B_EXIT_USAGE, "--client-index=%lld: must be below --client-count=%lld "
                      "(clients are numbered 0 to %lld)", (long long)i, (long long)n,
                      (long long)(n - 1));
    if (n > 1 && !o->rand_seed) {
        b_fail(e, B_EXIT_USAGE, "--client-count=%lld needs --rand-seed: the clients share one "
               "sequence of ids and derive their seeds from it", (long long)n);
        b_hint(e, "give every client the same --rand-seed=N (not 0)");
        return e->ex;
    }
    return B_EXIT_OK;
}

static int oltp_check(struct bench_opts *o, struct b_err *e)
{
    struct myc_conn_params cc;
    if ((o->oltp_legacy_table && *o->oltp_legacy_table &&
         oltp_name_check("--oltp-table-name", o->oltp_legacy_table, false, e) < 0) ||
        (o->mysql_db && *o->mysql_db &&
         oltp_name_check("--mysql-db (-D)", o->mysql_db, false, e) < 0) ||
        oltp_name_check("--mysql-storage-engine", o->oltp_engine, true, e) < 0) {
        e->sb_ex = B_EXIT_FAIL; /* sysbench's exit for a bad option value */
        return e->ex = B_EXIT_USAGE;
    }
    unsigned hosts = 1, ports = 1;
    for (const char *q = o->mysql_host; *q; q++)
        hosts += *q == ',';
    for (const char *q = o->mysql_port; *q; q++)
        ports += *q == ',';
    for (unsigned i = 0; i < hosts * ports; i++)
        if (myc_params_from_opts(o, i, &cc, e) < 0)
            return e->ex;
    return oltp_client_check(o, e);
}

struct oltp_kv {
    char v[4][256];
    int n;
};

static int oltp_kv_row(void *ctx, const struct myc_result *res, const struct my_str *vals)
{
    struct oltp_kv *kv = ctx;
    for (size_t i = 0; i < 4 && i < res->ncols; i++)
        snprintf(kv->v[i], sizeof(kv->v[i]), "%.*s", vals[i].p ? (int)B_MIN(vals[i].len, 255) : 0,
                 vals[i].p ? vals[i].p : "");
    kv->n++;
    return 0;
}

/* A statement of a command; a failure (the server's words) goes to j->err and ends the job. An
 * unbounded wait ended by a signal is not a failure: oltp_jobs says "interrupted". */
static int oltp_cmd_sql(struct oltp_job *j, struct my_conn *c, const char *sql)
{
    struct myc_result res = {0};
    int rc = myc_query(c, sql, strlen(sql), &res, NULL, NULL);
    myc_result_free(&res);
    if (rc == B_OK || rc == B_DONE)
        return rc;
    j->ex = B_EXIT_ENV;
    if (j->err.msg[0]) /* the job's first failure is the one it reports */
        return rc;
    j->err.rc = rc;
    b_fail(&j->err, B_EXIT_ENV, "%s: '%.120s%s' failed on %s: %s", j->w->name, sql,
           strlen(sql) > 120 ? "..." : "", c->target, c->err.msg);
    if (c->srv_code == 1050)
        b_hint(&j->err, "the table exists and bench does not touch tables it did not create; "
                        "use another --mysql-db, or run cleanup if bench made it");
    else if (rc == B_TIMEOUT)
        b_hint(&j->err, "no answer within --mysql-io-timeout=%lld s; raise it for a slow or "
                        "busy server",
               (long long)j->o->mysql_io_timeout);
    oltp_sb_fatal(&j->err, "mysql_drv_query() returned error %u (%s) for query '%.200s'",
                  c->srv_code, c->srv_msg, sql);
    return rc;
}

/* A statement bench knows may be long (bulk load, CREATE INDEX, DROP, prewarm): not cut by
 * --mysql-io-timeout; a signal still ends the wait within MYC_SLICE_MS. */
static int oltp_long_sql(struct oltp_job *j, struct my_conn *c, const char *sql)
{
    myc_set_unbounded(c, true);
    int rc = oltp_cmd_sql(j, c, sql);
    myc_set_unbounded(c, false);
    return rc;
}

/* A name as an SQL string that no byte of it can end: CONVERT(X'hex' USING utf8mb4). */
static void oltp_put_name(struct buf *q, const char *name)
{
    buf_printf(q, "CONVERT(X'");
    for (const u8 *p = (const u8 *)name; *p; p++)
        buf_printf(q, "%02x", *p);
    buf_printf(q, "' USING utf8mb4)");
}

/*
 * Is a table's definition exactly what sysbench's prepare makes? cols: its columns as
 * "name:type:length:nullable:default:extra:unsigned" (oltp_owned's query), idx: its index
 * entries as "name:non_unique:column:prefix". oltp_* tables: id INTEGER NOT NULL
 * [AUTO_INCREMENT], k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad
 * CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id) or KEY xid (id) (--secondary), and at most
 * the index k_N (k) (--create-secondary); bulk_insert's: id INTEGER NOT NULL, k INTEGER
 * DEFAULT '0' NOT NULL, PRIMARY KEY (id). Any other column, type, attribute or index: no
 * (nor a trigger or a foreign key: oltp_schema_links).
 */
/* The columns of the workload's tables, for oltp_owned. */
static const char *oltp_sb_cols(const struct wl_def *w)
{
    return oltp_variant(w)->shape & OS_BULK ? "id,k" : "id,k,c,pad";
}

static bool oltp_sb_shape(const char *cols, const char *idx, bool bulk)
{
    if (bulk)
        return !strcmp(cols, "id:int::NO:-::0,k:int::NO:0::0") && !strcmp(idx, "PRIMARY:0:id:");
    if (strcmp(cols, "id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:NO:::0,"
                     "pad:char:60:NO:::0") &&
        strcmp(cols, "id:int::NO:-::0,k:int::NO:0::0,c:char:120:NO:::0,pad:char:60:NO:::0"))
        return false;
    int nid = 0, nk = 0;
    for (const char *p = idx; *p;) {
        size_t l = strcspn(p, ",");
        if ((l == 13 && !strncmp(p, "PRIMARY:0:id:", l)) || (l == 9 && !strncmp(p, "xid:1:id:", l)))
            nid++;
        else if (l > 7 && !strncmp(p, "k_", 2) && p[2] != '0' &&
                 strspn(p + 2, "0123456789") == l - 7 && !strncmp(p + l - 5, ":1:k:", 5))
            nk++;
        else
            return false;
        p += l + (p[l] == ',');
    }
    return nid == 1 && nk <= 1;
}

/* One row of information_schema about table tbl: "SELECT <what> FROM information_schema.<from>
 * WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = <tbl>" into kv. Each query reads one
 * information_schema table, no subquery: MariaDB 10.11.19 crashed (signal 11 in
 * create_tmp_table_for_schema) on correlated subqueries over COLUMNS and STATISTICS, and on
 * such a query as a prepared statement. The name is never spliced: it travels hex-encoded (no
 * byte of it can end the literal, whatever the sql_mode) and is compared byte for byte (a
 * user's 'Sbtest1' is not bench's 'sbtest1'). */
static int oltp_schema_where(struct my_conn *c, const char *what, const char *from,
                             const char *scol, const char *tcol, const char *tbl,
                             struct oltp_kv *kv)
{
    struct buf q = {0};
    memset(kv, 0, sizeof(*kv));
    buf_printf(&q, "SELECT %s FROM information_schema.%s WHERE %s = DATABASE() AND %s = ", what,
               from, scol, tcol);
    oltp_put_name(&q, tbl);
    buf_printf(&q, " COLLATE utf8mb4_bin");
    struct myc_result res = {0};
    int rc = myc_query(c, q.p, q.len, &res, oltp_kv_row, kv);
    myc_result_free(&res);
    buf_free(&q);
    return rc;
}

static int oltp_schema_row(struct my_conn *c, const char *what, const char *from,
                           const char *tbl, struct oltp_kv *kv)
{
    return oltp_schema_where(c, what, from, "TABLE_SCHEMA", "TABLE_NAME", tbl, kv);
}

/* Does anything reach beyond table tbl: a trigger on it, or a foreign key into or out of it?
 * sysbench makes none; with one, bench's writes (or its DROP) would change other tables (an
 * ON DELETE CASCADE from a user's table deletes the user's rows). */
static int oltp_schema_links(struct my_conn *c, const char *tbl, bool *linked)
{
    static const char *const q[3][3] = {
        {"TRIGGERS", "EVENT_OBJECT_SCHEMA", "EVENT_OBJECT_TABLE"},
        {"KEY_COLUMN_USAGE", "REFERENCED_TABLE_SCHEMA", "REFERENCED_TABLE_NAME"},
        {"KEY_COLUMN_USAGE", "TABLE_SCHEMA", "TABLE_NAME"}};
    struct oltp_kv kv;
    *linked = false;
    for (size_t i = 0; i < countof(q) && !*linked; i++) {
        const char *what = i == 2 ? "COUNT(REFERENCED_TABLE_NAME)" : "COUNT(*)";
        int rc = oltp_schema_where(c, what, q[i][0], q[i][1], q[i][2], tbl, &kv);
        if (rc < 0)
            return rc;
        *linked = kv.n > 0 && strcmp(kv.v[0], "0");
    }
    return B_OK;
}

/*
 * Does table `tbl` exist, and did bench make it? *owned: with --own-tables (o->own_tables, the
 * bench persona) the COMMENT marker; without, exactly sysbench's definition (cols names the
 * shape: "id,k,c,pad" for oltp_*, "id,k" for bulk_insert; "" never matches). *sysb (may be
 * NULL): no marker and exactly sysbench's definition: sysbench's benchmark data, which both
 * personas run on and clean up. Returns B_OK, or an error in j->err.
 */
static int oltp_owned(struct oltp_job *j, struct my_conn *c, const char *tbl, const char *cols,
                      bool *exists, bool *owned, bool *sysb)
{
    struct oltp_kv kv, def;
    int rc = oltp_schema_row(c, "TABLE_COMMENT", "TABLES", tbl, &kv);
    *exists = rc == B_OK && kv.n > 0;
    bool mark = *exists && !strcmp(kv.v[0], OLTP_MARK), shape = false;
    if (*exists && *cols && (!j->o->own_tables || (!mark && sysb))) {
        rc = oltp_schema_row(c, "GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION), "
                                "GROUP_CONCAT(CONCAT_WS(':', COLUMN_NAME, DATA_TYPE, "
                                "IFNULL(CHARACTER_MAXIMUM_LENGTH, ''), IS_NULLABLE, "
                                "IFNULL(TRIM(BOTH '''' FROM COLUMN_DEFAULT), '-'), EXTRA, "
                                "COLUMN_TYPE LIKE '%unsigned%' OR COLUMN_TYPE LIKE "
                                "'%zerofill%') ORDER BY ORDINAL_POSITION)",
                             "COLUMNS", tbl, &kv);
        if (rc == B_OK)
            rc = oltp_schema_row(c, "GROUP_CONCAT(CONCAT_WS(':', INDEX_NAME, NON_UNIQUE, "
                                    "COLUMN_NAME, IFNULL(SUB_PART, '')) ORDER BY INDEX_NAME, "
                                    "SEQ_IN_INDEX)",
                                 "STATISTICS", tbl, &def);
        shape = rc == B_OK && !strcmp(kv.v[0], cols) &&
                oltp_sb_shape(kv.v[1], def.v[0], !strcmp(cols, "id,k"));
        bool linked = false;
        if (shape && (rc = oltp_schema_links(c, tbl, &linked)) == B_OK)
            shape = !linked;
    }
    if (rc == B_DONE) /* a signal: oltp_jobs says "interrupted" */
        return rc;
    if (rc < 0) { /* a command's message names the workload (a run's: cli_run_error does) */
        j->ex = B_EXIT_ENV;
        j->err.rc = rc;
        b_fail(&j->err, B_EXIT_ENV, "%s%schecking table '%s' on %s failed: %s",
               j->res ? j->w->name : "", j->res ? ": " : "", tbl, c->target, c->err.msg);
        j->err.sb_ex = B_EXIT_FAIL;
        return rc;
    }
    *owned = j->o->own_tables ? mark : shape;
    if (sysb)
        *sysb = !mark && shape;
    return B_OK;
}

static int oltp_connect_cmd(struct oltp_job *j, struct my_conn *c, struct myc_conn_params *cc)
{
    if (myc_params_from_opts(j->o, (unsigned)j->idx, cc, &j->err) < 0) {
        j->ex = j->err.ex;
        return B_INVALID;
    }
    int rc = myc_connect(c, &cc->p);
    if (rc < 0)
        j->ex = myc_conn_error(j->w->name, c, &cc->p, &j->err);
    return rc;
}

/*
 * After a signal: drop the table this job created and did not finish, when it is provably
 * bench's (its marker), over a new connection that first kills the statement in flight on
 * `old`. Without o->own_tables (the sysbench persona) it is left, as sysbench does (the signal
 * kills it), since no marker proves the table ours there.
 */
static void oltp_undo(struct oltp_job *j, const struct my_conn *old, struct myc_conn_params *cc)
{
    char tbl[OLTP_NAME_SZ], sql[OLTP_QNAME_SZ + 16];
    struct my_conn c;
    bool exists = false, owned = false;
    oltp_table(j->o, j->made, tbl, sizeof(tbl));
    if (!j->o->own_tables)
        return;
    if (myc_connect(&c, &cc->p) < 0) {
        res_say(j->res, RES_SAY_WARN, "%s: could not drop the unfinished table '%s': %s",
                j->w->name, tbl, c.err.msg);
        j->ex = B_EXIT_ENV;
        myc_close(&c);
        return;
    }
    /* The greeting's id is the server's thread id of `old` only when no proxy stands
     * between: kill it only if that thread is ours (same user and schema) and is running a
     * statement on this very table; otherwise let the statement finish (a new id is never
     * reused before it wraps). */
    struct buf q = {0};
    struct oltp_kv kv;
    memset(&kv, 0, sizeof(kv));
    buf_printf(&q, "SELECT ID FROM information_schema.PROCESSLIST WHERE ID = %u AND USER = "
                   "SUBSTRING_INDEX(USER(), '@', 1) AND DB <=> DATABASE() AND INSTR(INFO, ",
               old->hs.conn_id);
    oltp_put_name(&q, tbl);
    buf_printf(&q, ") > 0");
    struct myc_result res = {0};
    int qrc = myc_query(&c, q.p, q.len, &res, oltp_kv_row, &kv);
    myc_result_free(&res);
    buf_free(&q);
    if (qrc == B_OK && kv.n == 1) {
        snprintf(sql, sizeof(sql), "KILL %u", old->hs.conn_id);
        (void)myc_query(&c, sql, strlen(sql), &res, NULL, NULL); /* 1094: it had ended */
        myc_result_free(&res);
    }
    /* a lock another session holds on the table must not keep us: 1 s, then leave it */
    if (oltp_cmd_sql(j, &c, "SET SESSION lock_wait_timeout = 1") == B_OK &&
        oltp_owned(j, &c, tbl, "", &exists, &owned, NULL) == B_OK && owned) {
        char qt[OLTP_QNAME_SZ];
        oltp_quote(tbl, qt, sizeof(qt));
        snprintf(sql, sizeof(sql), "DROP TABLE %s", qt);
        if (oltp_cmd_sql(j, &c, sql) == B_OK)
            res_say(j->res, RES_SAY_WARN,
                    "%s: dropped the unfinished table '%s' (created by this prepare)", j->w->name,
                    tbl);
        else
            res_say(j->res, RES_SAY_HINT, "the unfinished table '%s' is left; it carries bench's "
                                          "marker: 'bench %s cleanup' drops it",
                    tbl, j->w->name);
    }
    myc_close(&c);
}

static int oltp_prewarm_one(struct oltp_job *j, struct my_conn *c, i64 n);

static void *oltp_job_main(void *arg)
{
    struct oltp_job *j = arg;
    struct my_conn c;
    struct myc_conn_params cc;
    if (oltp_connect_cmd(j, &c, &cc) < 0)
        return NULL;
    /* cmd_prewarm: no on-disk temporary tables, set once per connection (every thread's) */
    if (j->fn == oltp_prewarm_one &&
        (oltp_cmd_sql(j, &c, "SET tmp_table_size=2*1024*1024*1024") < 0 ||
         oltp_cmd_sql(j, &c, "SET max_heap_table_size=2*1024*1024*1024") < 0)) {
        myc_close(&c);
        return NULL;
    }
    i64 last = oltp_ntables(j->o, j->w);
    for (i64 n = j->idx + 1; n <= last && !atomic_load(&b_stop); n += j->nthreads)
        if (j->fn(j, &c, n) < 0)
            break;
    if (j->made && atomic_load(&b_stop))
        oltp_undo(j, &c, &cc);
    myc_close(&c);
    return NULL;
}

static int oltp_prepare_one(struct oltp_job *j, struct my_conn *c, i64 n);
static int oltp_cleanup_one(struct oltp_job *j, struct my_conn *c, i64 n);
static int oltp_await_one(struct oltp_job *j, struct my_conn *c, i64 n);

/* Run fn over the tables: in the main thread, or dealt round-robin to --threads threads. Lines
 * go to res (w's command), the first failure to res->err. Returns an exit code. */
static int oltp_jobs(struct res *res, const struct bench_opts *o, const struct wl_def *w,
                     int (*fn)(struct oltp_job *, struct my_conn *, i64))
{
    int n = (int)o->threads, ex = B_EXIT_OK;
    struct oltp_job *jobs = b_xcalloc((size_t)n, sizeof(*jobs));
    pthread_t *tid = b_xcalloc((size_t)n, sizeof(*tid));
    rnd_libc_srandom(o->rand_seed ? (unsigned)o->rand_seed : (unsigned)time(NULL));
    for (int i = 0; i < n; i++) {
        jobs[i] = (struct oltp_job){.o = o, .w = w, .res = res, .idx = i, .nthreads = n, .fn = fn};
        rnd_seed(&jobs[i].rng);
    }
    if (n == 1)
        oltp_job_main(&jobs[0]);
    else {
        res_say(res, RES_SAY_NOTE, "Initializing worker threads...");
        res_say(res, RES_SAY_NOTE, "%s", "");
        for (int i = 0; i < n; i++)
            if (os_thread_start(&tid[i], 1 << 20, oltp_job_main, &jobs[i]))
                b_die("creating a prepare thread failed");
        for (int i = 0; i < n; i++)
            pthread_join(tid[i], NULL);
    }
    for (int i = 0; i < n; i++) {
        if (jobs[i].ex && !ex)
            ex = jobs[i].ex;
        if (jobs[i].err.msg[0] && !res->err.msg[0])
            res->err = jobs[i].err;
    }
    free(jobs);
    free(tid);
    int sig = atomic_load(&b_stop);
    if (sig && o->sig_kills) /* as sysbench, which the signal kills: 130 or 143, no message */
        return 128 + sig;
    if (sig) {
        res_say(res, RES_SAY_WARN, "%s %s: interrupted by %s; %s", w->name,
              fn == oltp_prepare_one || fn == oltp_await_one ? "prepare"
              : fn == oltp_cleanup_one                       ? "cleanup"
                                                             : "prewarm",
              sig == SIGINT ? "SIGINT" : "SIGTERM",
              fn == oltp_prepare_one ? "tables finished before the signal are kept (cleanup "
                                       "removes them)"
                                     : "tables not reached are left as they were");
        ex = ex ? ex : B_EXIT_FAIL;
    }
    return ex;
}

static int oltp_prepare_one(struct oltp_job *j, struct my_conn *c, i64 n)
{
    const struct bench_opts *o = j->o;
    char tbl[OLTP_NAME_SZ], qt[OLTP_QNAME_SZ];
    struct buf q = {0};
    int rc;
    oltp_table(o, n, tbl, sizeof(tbl));
    oltp_quote(tbl, qt, sizeof(qt));
    if (oltp_variant(j->w)->shape & OS_BULK) {
        buf_printf(&q, "CREATE TABLE IF NOT EXISTS %s (id INTEGER NOT NULL, k INTEGER DEFAULT '0' "
                       "NOT NULL, PRIMARY KEY (id))%s",
                   qt, o->own_tables ? " COMMENT='" OLTP_MARK "'" : "");
        rc = oltp_cmd_sql(j, c, q.p);
        buf_free(&q);
        return rc;
    }
    res_say(j->res, RES_SAY_PROGRESS, "Creating table '%s'...", tbl);
    buf_printf(&q,
               "CREATE TABLE %s(\n  id INTEGER NOT NULL%s,\n  k INTEGER DEFAULT '0' NOT NULL,\n"
               "  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n"
               "  %s (id)\n) /*! ENGINE = %s */ %s",
               qt, o->oltp_auto_inc ? " AUTO_INCREMENT" : "",
               o->oltp_secondary ? "KEY xid" : "PRIMARY KEY", o->oltp_engine,
               o->own_tables ? "COMMENT='" OLTP_MARK "'" : "");
    if ((rc = oltp_cmd_sql(j, c, q.p)) < 0) {
        buf_free(&q);
        return rc;
    }
    j->made = n;
    i64 rows = (oltp_variant(j->w)->shape & OS_INSERT1) && !o->oltp_auto_inc ? 0 : o->oltp_table_size;
    if (rows > 0)
        res_say(j->res, RES_SAY_PROGRESS, "Inserting %lld records into '%s'", (long long)rows, tbl);
    char cb[128], pb[64];
    u64 t_load = clk_now_ns();
    q.len = 0;
    for (i64 i = 1; i <= rows; i++) {
        if (q.len == 0) {
            if (atomic_load(&b_stop)) { /* oltp_job_main drops the table */
                buf_free(&q);
                return B_DONE;
            }
            buf_printf(&q, o->oltp_auto_inc ? "INSERT INTO %s(k, c, pad) VALUES"
                                            : "INSERT INTO %s(id, k, c, pad) VALUES",
                       qt);
        } else
            buf_put(&q, ",", 1);
        oltp_rand_string(&j->rng, OLTP_C_TMPL, cb);
        oltp_rand_string(&j->rng, OLTP_PAD_TMPL, pb);
        u32 k = rnd_default(&j->rng, &o->rnd, 1, (u32)o->oltp_table_size);
        if (o->oltp_auto_inc)
            buf_printf(&q, "(%u, '%s', '%s')", k, cb, pb);
        else
            buf_printf(&q, "(%lld, %u, '%s', '%s')", (long long)i, k, cb, pb);
        if (q.len > OLTP_BULK_MAX - 256 || i == rows) {
            if ((rc = oltp_long_sql(j, c, q.p)) < 0) {
                buf_free(&q);
                return rc;
            }
            q.len = 0;
            /* progress for people watching a long load (a terminal's status line) */
            double s = (double)(clk_now_ns() - t_load) / 1e9;
            res_say(j->res, RES_SAY_STATUS, "loading %s: %lld of %lld rows (%.0f rows/s)%s", tbl,
                    (long long)i, (long long)rows, s > 0 ? (double)i / s : 0.0,
                    i == rows ? "\n" : "");
        }
    }
    rc = B_OK;
    if (o->oltp_create_secondary && !atomic_load(&b_stop)) {
        res_say(j->res, RES_SAY_PROGRESS, "Creating a secondary index on '%s'...", tbl);
        q.len = 0;
        buf_printf(&q, "CREATE INDEX k_%lld ON %s(k)", (long long)n, qt);
        rc = oltp_long_sql(j, c, q.p);
    }
    buf_free(&q);
    if (rc == B_OK && !atomic_load(&b_stop))
        j->made = 0; /* finished: kept whatever comes */
    return rc < 0 ? rc : B_OK;
}

static int oltp_cleanup_one(struct oltp_job *j, struct my_conn *c, i64 n)
{
    char tbl[OLTP_NAME_SZ], qt[OLTP_QNAME_SZ];
    bool exists, owned, sysb;
    oltp_table(j->o, n, tbl, sizeof(tbl));
    int rc = oltp_owned(j, c, tbl, oltp_sb_cols(j->w), &exists, &owned, &sysb);
    if (rc < 0)
        return rc;
    if (!(oltp_variant(j->w)->shape & OS_BULK))
        res_say(j->res, RES_SAY_PROGRESS, "Dropping table '%s'...", tbl);
    if (!exists)
        return B_OK;
    if (!owned && !sysb) { /* left alone: a failure only where bench's marker was the rule */
        res_say(j->res, RES_SAY_WARN, "%s: cleanup: left table '%s' alone: %s", j->w->name, tbl,
                j->o->own_tables ? "bench did not create it (no '" OLTP_MARK "' comment) and its "
                                   "definition is not sysbench's"
                                 : "its definition is not sysbench's");
        j->ex = j->o->own_tables ? B_EXIT_FAIL : B_EXIT_OK;
        return B_OK;
    }
    if (!owned && j->o->own_tables)
        res_say(j->res, RES_SAY_MSG, "%s: %s was created by sysbench (exactly sysbench's "
                                     "definition); dropping it as sysbench would",
                j->w->name, tbl);
    char sql[OLTP_QNAME_SZ + 24];
    oltp_quote(tbl, qt, sizeof(qt));
    snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS %s", qt);
    return oltp_long_sql(j, c, sql);
}

static int oltp_prewarm_one(struct oltp_job *j, struct my_conn *c, i64 n)
{
    char tbl[OLTP_NAME_SZ], qt[OLTP_QNAME_SZ];
    struct buf q = {0};
    int rc;
    oltp_table(j->o, n, tbl, sizeof(tbl));
    oltp_quote(tbl, qt, sizeof(qt));
    res_say(j->res, RES_SAY_PROGRESS, "Prewarming table %s", tbl);
    buf_printf(&q, "ANALYZE TABLE %s", qt);
    if ((rc = oltp_long_sql(j, c, q.p)) == B_OK) {
        q.len = 0;
        buf_printf(&q, "SELECT AVG(id) FROM (SELECT * FROM %s FORCE KEY (PRIMARY) LIMIT %lld) t",
                   qt, (long long)j->o->oltp_table_size);
        rc = oltp_long_sql(j, c, q.p);
    }
    if (rc == B_OK) {
        q.len = 0;
        buf_printf(&q, "SELECT COUNT(*) FROM (SELECT * FROM %s WHERE k LIKE '%%0%%' LIMIT %lld) t",
                   qt, (long long)j->o->oltp_table_size);
        rc = oltp_long_sql(j, c, q.p);
    }
    buf_free(&q);
    return rc;
}

/*
 * prepare of --client-index N > 0: client 0 makes the tables; this one waits, up to
 * --client-wait seconds (in 100 ms steps that see a signal), until table n exists and, where
 * prepare loads rows, holds its last one (prepare inserts in id order). A wait that runs out is
 * an error that names the table and whose tables it waited for.
 */
static int oltp_await_one(struct oltp_job *j, struct my_conn *c, i64 n)
{
    const struct bench_opts *o = j->o;
    unsigned shape = oltp_variant(j->w)->shape;
    i64 rows = (shape & OS_BULK) || ((shape & OS_INSERT1) && !o->oltp_auto_inc)
                   ? 0
                   : o->oltp_table_size;
    char tbl[OLTP_NAME_SZ], qt[OLTP_QNAME_SZ], sql[OLTP_QNAME_SZ + 64];
    oltp_table(o, n, tbl, sizeof(tbl));
    oltp_quote(tbl, qt, sizeof(qt));
    snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM %s WHERE id = %lld", qt, (long long)rows);
    u64 t0 = clk_now_ns(), deadline = t0 + (u64)o->client_wait * 1000000000u;
    res_say(j->res, RES_SAY_PROGRESS, "Waiting for client 0 of %lld to prepare '%s'...",
            (long long)o->client_count, tbl);
    for (;;) {
        bool exists = false, owned = false, sysb = false;
        int rc = oltp_owned(j, c, tbl, oltp_sb_cols(j->w), &exists, &owned, &sysb);
        if (rc != B_OK)
            return rc;
        if (exists && rows == 0)
            return B_OK;
        if (exists) {
            struct oltp_kv kv = {.n = 0};
            struct myc_result res = {0};
            rc = myc_query(c, sql, strlen(sql), &res, oltp_kv_row, &kv);
            myc_result_free(&res);
            if (rc == B_OK && kv.n > 0 && strcmp(kv.v[0], "0"))
                return B_OK;
        }
        u64 now = clk_now_ns();
        if (now >= deadline) {
            j->ex = B_EXIT_FAIL;
            j->err.rc = B_TIMEOUT;
            b_fail(&j->err, B_EXIT_FAIL, "%s prepare: client %lld of %lld: table '%s' on %s is "
                   "%s after --client-wait=%lld s",
                   j->w->name, (long long)o->client_index, (long long)o->client_count, tbl,
                   c->target, exists ? "not loaded" : "not there", (long long)o->client_wait);
            b_hint(&j->err, "client 0 (--client-index=0) makes the tables: start its prepare "
                            "against the same server and --mysql-db, or raise --client-wait");
            return B_TIMEOUT;
        }
        if (atomic_load(&b_stop))
            return B_DONE;
        clk_sleep_until(B_MIN(now + 100000000u, deadline));
    }
}

static int oltp_prepare_cmd(struct res *res)
{
    if (res->o->client_index > 0)
        return oltp_jobs(res, res->o, res->w, oltp_await_one);
    return oltp_jobs(res, res->o, res->w, oltp_prepare_one);
}

static int oltp_cleanup_cmd(struct res *res)
{
    if (res->o->client_index > 0) { /* the tables are client 0's */
        res_say(res, RES_SAY_MSG, "%s cleanup: client %lld of %lld leaves the tables to client 0",
                res->w->name, (long long)res->o->client_index, (long long)res->o->client_count);
        return B_EXIT_OK;
    }
    return oltp_jobs(res, res->o, res->w, oltp_cleanup_one);
}

static int oltp_prewarm_cmd(struct res *res)
{
    int ex = oltp_check(res->o, &res->err);
    return ex != B_EXIT_OK ? ex : oltp_jobs(res, res->o, res->w, oltp_prewarm_one);
}

/* Before a run that writes (o->own_tables, the bench persona): every table must be bench's own
 * or sysbench's; the connection that checks also names the server for the header. */
static int oltp_init(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    oltp_unique_seed(o);
    if (o->client_count > 0) {
        res_fact_int(r->res, "client_index", o->client_index);
        res_fact_int(r->res, "client_count", o->client_count);
    }
    /* connections on event loops: the bench persona's header and the JSON facts say so (a
     * thread per connection, sysbench's way, goes unsaid: its output stays sysbench's) */
    if (r->nloops) {
        res_fact_str(r->res, "client_io", "%s", "epoll");
        res_fact_int(r->res, "event_loops", r->nloops);
    }
    if (!o->mysql_dry_run) { /* the workers' logins: bounded, retried, with progress */
        struct myc_gate *g = b_xcalloc(1, sizeof(*g));
        myc_gate_init(g, 0, (int)o->threads,
                      (int)o->mysql_connect_timeout * 1000 + MYC_SLICE_MS);
        r->wl_global = g;
    }
    if (!o->own_tables || o->mysql_dry_run)
        return B_OK;
    struct oltp_job j = {.o = o, .w = r->w};
    struct my_conn c;
    struct myc_conn_params cc;
    if (myc_params_from_opts(o, 0, &cc, NULL) < 0 || myc_connect(&c, &cc.p) < 0)
        return B_OK; /* the workers report the connection error */
    /* the bench persona's header names the transport the workers use (as this connection) */
    res_fact_str(r->res, "server", "%s", c.target);
    res_fact_str(r->res, "server_version", "%s", c.version);
    res_fact_str(r->res, "transport", "%s", c.is_unix ? "unix" : "tcp");
    res_fact_bool(r->res, "tls", c.tls);
    if (c.tls) {
        res_fact_str(r->res, "tls_version", "%s", myc_tls_version(&c));
        res_fact_str(r->res, "tls_cipher", "%s", myc_cipher(&c));
    }
    i64 last = oltp_variant(r->w)->writes ? oltp_ntables(o, r->w) : 0, nsb = 0;
    char first[OLTP_NAME_SZ] = "";
    for (i64 n = 1; n <= last; n++) {
        char tbl[OLTP_NAME_SZ];
        bool exists, owned, sysb;
        oltp_table(o, n, tbl, sizeof(tbl));
        int rc = oltp_owned(&j, &c, tbl, oltp_sb_cols(r->w), &exists, &owned, &sysb);
        if (rc == B_DONE) /* a signal: the run that follows stops at once, interrupted */
            break;
        if (rc < 0) { /* never write to tables that could not be checked */
            r->err = j.err;
            myc_close(&c);
            return rc;
        }
        if (exists && !owned && !sysb) {
            snprintf(r->err.hint, sizeof(r->err.hint),
                     "bench writes only to tables it or sysbench created: run 'bench %s "
                     "prepare' with another --mysql-db",
                     r->w->name);
            myc_close(&c);
            return b_seterr(&r->err, B_INVALID, 0,
                            "table %s.%s was not created by bench (no '" OLTP_MARK "' comment) "
                            "and its definition is not sysbench's: not writing to it",
                            o->mysql_db, tbl);
        }
        if (sysb && !nsb++)
            snprintf(first, sizeof(first), "%s", tbl);
    }
    myc_close(&c);
    if (nsb == 1)
        res_say(r->res, RES_SAY_MSG, "%s: %s was created by sysbench (exactly sysbench's "
                                     "definition); using it as sysbench would",
                r->w->name, first);
    else if (nsb > 1)
        res_say(r->res, RES_SAY_MSG, "%s: %s and %lld more tables were created by sysbench "
                                     "(exactly sysbench's definition); using them as sysbench "
                                     "would",
                r->w->name, first, (long long)nsb - 1);
    return B_OK;
}

/* sysbench 0.4's --test=oltp options (not listed in help; spec section 1.7) */
static const struct opt_def opt_oltp_legacy[] = {
    OPT("oltp-test-mode", STR, oltp_test_mode, "complex", 0, 0, NULL,
        "0.4: simple, complex or nontrx", NULL, OPT_F_NOHELP),
    OPT("oltp-nontrx-mode", STR, oltp_nontrx_mode, "select", 0, 0, NULL,
        "0.4: select, update_key, update_nokey, insert or delete", NULL, OPT_F_NOHELP),
    OPT("oltp-read-only", BOOL, oltp_read_only, "off", 0, 0, NULL, "0.4: read-only", NULL,
        OPT_F_NOHELP),
    OPT("oltp-table-size", INT, oltp_table_size, "10000", 0, 2147483647.0, NULL,
        "0.4: rows", NULL, OPT_F_NOHELP),
    OPT("oltp-table-name", STR, oltp_legacy_table, "", 0, 0, NULL,
        "0.4: the table (sbtest when not given)", NULL, OPT_F_NOHELP),
    OPT("oltp-range-size", INT, oltp_range_size, "100", 1, 1e9, NULL, "0.4", NULL, OPT_F_NOHELP),
    OPT("oltp-point-selects", INT, oltp_point_selects, "10", 0, 1e6, NULL, "0.4", NULL,
        OPT_F_NOHELP),
    OPT("oltp-simple-ranges", INT, oltp_simple_ranges, "1", 0, 1e6, NULL, "0.4", NULL,
        OPT_F_NOHELP),
    OPT("oltp-sum-ranges", INT, oltp_sum_ranges, "1", 0, 1e6, NULL, "0.4", NULL, OPT_F_NOHELP),
    OPT("oltp-order-ranges", INT, oltp_order_ranges, "1", 0, 1e6, NULL, "0.4", NULL,
        OPT_F_NOHELP),
    OPT("oltp-distinct-ranges", INT, oltp_distinct_ranges, "1", 0, 1e6, NULL, "0.4", NULL,
        OPT_F_NOHELP),
    OPT("oltp-index-updates", INT, oltp_index_updates, "1", 0, 1e6, NULL, "0.4", NULL,
        OPT_F_NOHELP),
    OPT("oltp-non-index-updates", INT, oltp_non_index_updates, "1", 0, 1e6, NULL, "0.4", NULL,
        OPT_F_NOHELP),
    OPT("oltp-delete-inserts", INT, oltp_delete_inserts, "1", 0, 1e6, NULL, "0.4", NULL,
        OPT_F_NOHELP),
    OPT("oltp-range-selects", BOOL, oltp_range_selects, "on", 0, 0, NULL, "0.4", NULL,
        OPT_F_NOHELP),
    OPT("oltp-skip-trx", BOOL, oltp_skip_trx, "off", 0, 0, NULL, "0.4", NULL, OPT_F_NOHELP),
    OPT("oltp-auto-inc", BOOL, oltp_auto_inc, "on", 0, 0, NULL, "0.4", NULL, OPT_F_NOHELP),
    OPT("oltp-secondary", BOOL, oltp_secondary, "off", 0, 0, NULL, "0.4", NULL, OPT_F_NOHELP),
    OPT("oltp-dist-type", ENUM, rand_type, "special", 0, 0, "uniform,gaussian,special,pareto",
        "0.4: --rand-type", NULL, OPT_F_NOHELP),
    OPT("oltp-dist-iter", INT, rand_spec_iter, "12", 1, 1000, NULL, "0.4", NULL, OPT_F_NOHELP),
    OPT("oltp-dist-pct", INT, rand_spec_pct, "1", 0, 100, NULL, "0.4", NULL, OPT_F_NOHELP),
    OPT("oltp-dist-res", INT, rand_spec_res, "75", 0, 99, NULL, "0.4", NULL, OPT_F_NOHELP),
    OPT("mysql-table-engine", STR, oltp_engine, "innodb", 0, 0, NULL, "0.4", NULL, OPT_F_NOHELP),
};

/* The 1.0 workload a 0.4 `--test=oltp` command line means (spec 1.7), or NULL. */
static const char *oltp_legacy_map(const struct bench_opts *o)
{
    if (!strcmp(o->oltp_test_mode, "complex"))
        return o->oltp_read_only ? "oltp_read_only" : "oltp_read_write";
    if (!strcmp(o->oltp_test_mode, "simple"))
        return "oltp_point_select";
    if (strcmp(o->oltp_test_mode, "nontrx"))
        return NULL;
    static const char *const m[][2] = {{"select", "oltp_point_select"},
                                       {"update_key", "oltp_update_index"},
                                       {"update_nokey", "oltp_update_non_index"},
                                       {"insert", "oltp_insert"},
                                       {"delete", "oltp_delete"}};
    for (size_t i = 0; i < countof(m); i++)
        if (!strcmp(o->oltp_nontrx_mode, m[i][0]))
            return m[i][1];
    return NULL;
}

/*== 19 ping_, sizing_ : commands of their own: ping, the oltp one-liner =====*/
/*
 * Commands that are not sysbench tests: `bench ping` (connect, authenticate, time round
 * trips) and `bench oltp` (the sizing one-liner: its own schema, a thread ladder of OLTP runs
 * by the run path, the knee). Like workloads they fill a struct res and never print.
 */

/* ---- ping: connect, log in, time round trips ---- */

#define PING_VARS "SELECT @@hostname, @@max_connections, @@innodb_buffer_pool_size"

struct ping_vars {
    char v[3][64];
};

static int ping_vars_row(void *ctx, const struct myc_result *res, const struct my_str *vals)
{
    struct ping_vars *pv = ctx;
    for (size_t i = 0; i < 3 && i < res->ncols; i++) /* the server's words: escaped */
        my_escape(pv->v[i], sizeof(pv->v[i]), vals[i].p ? vals[i].p : "NULL",
                  vals[i].p ? B_MIN(vals[i].len, 60) : 4);
    return 0;
}

/* The facts of the login just made: server, transport, TLS, plugin, times. */
static void ping_conn_facts(struct res *res, struct my_conn *c, const struct myc_params *p)
{
    res_fact_str(res, "server", "%s", c->target);
    res_fact_str(res, "server_version", "%s", c->version);
    res_fact_bool(res, "server_mariadb", strstr(c->version, "MariaDB") != NULL);
    res_fact_int(res, "connection_id", c->hs.conn_id);
    res_fact_str(res, "transport", "%s", c->is_unix ? "unix" : "tcp");
    res_fact_bool(res, "tls", c->tls);
    if (c->tls) {
        res_fact_str(res, "tls_version", "%s", myc_tls_version(c));
        res_fact_str(res, "tls_cipher", "%s", myc_cipher(c));
        res_fact_bool(res, "tls_verified", p->ssl_mode >= MYC_SSL_VERIFY_CA);
    } else
        res_fact_str(res, "tls_off_reason", "%s",
                     c->is_unix                  ? "unix socket"
                     : (c->hs.caps & MY_CAP_SSL) ? "--ssl-mode=DISABLED"
                                                 : "the server offers none");
    res_fact_str(res, "compression", "%s", c->zlib ? "zlib" : "none");
    res_fact_str(res, "auth_plugin", "%s", c->plugin);
    res_fact_str(res, "user", "%s", p->user ? p->user : "");
    res_fact_int(res, "connect_ns", (i64)c->connect_ns);
    res_fact_num(res, "connect_ms", (double)c->connect_ns / 1e6);
    res_fact_int(res, "socket_connect_ns", (i64)c->socket_ns);
    res_fact_int(res, "handshake_ns", (i64)(c->connect_ns - c->socket_ns));
}

/* The server's settings that size a benchmark (PING_VARS's row). */
static void ping_vars_facts(struct res *res, const struct ping_vars *pv)
{
    unsigned long long bpv = strtoull(pv->v[2], NULL, 10);
    res_fact_str(res, "server_hostname", "%s", pv->v[0]);
    res_fact_str(res, "max_connections", "%s", pv->v[1]);
    res_fact_str(res, "innodb_buffer_pool_size", "%s", pv->v[2]);
    if (bpv)
        res_fact_int(res, "innodb_buffer_pool_size_bytes", (i64)bpv);
}

/* One kind of round trip as a result's statistics: one thread, events = round trips, the
 * exact min/max/sum and the histogram; the window is the time spent in them. */
static void ping_stats(struct res_stats *s, const struct hist *h, u64 done, u64 mn, u64 mx,
                       u64 sum)
{
    memset(s, 0, sizeof(*s));
    load_snap_init(&s->d, 1, 0);
    memcpy(s->d.hist, h, sizeof(*h));
    s->threads = 1;
    s->d.events = done;
    s->d.lat_min_ns = mn;
    s->d.lat_max_ns = mx;
    s->d.lat_sum_ns = sum;
    s->d.thr_events[0] = done;
    s->d.thr_sum_ns[0] = sum;
    s->window_s = s->total_s = s->at_s = (double)sum / 1e9;
}

/* The kinds of round trip ping times, in order (its steps' commands). */
static const char *const ping_what[] = {"COM_PING", "SELECT 1 (COM_QUERY)",
                                        "SELECT ? (COM_STMT_EXECUTE)"};

/* The round trips of one kind (k: COM_PING, SELECT 1, SELECT ?) as a step of res (its
 * final), and res->final for COM_PING. Returns the last command's code. */
static int ping_kind(struct res *res, struct my_conn *c, int k, i64 n, struct myc_result *mr,
                     struct myc_stmt *st, struct hist *h)
{
    u64 mn = UINT64_MAX, mx = 0, sum = 0, done = 0;
    int rc = B_OK;
    memset(h, 0, sizeof(*h));
    for (i64 i = 0; i < n && !atomic_load(&b_stop); i++) {
        struct my_val arg = {.type = MY_T_LONGLONG, .i = i};
        u64 t0 = clk_now_ns();
        rc = k == 0   ? myc_ping(c)
             : k == 1 ? myc_query(c, "SELECT 1", 8, mr, NULL, NULL)
                      : myc_execute(c, st, &arg, 1, mr, NULL, NULL);
        u64 d = clk_now_ns() - t0;
        if (rc != B_OK)
            break;
        hist_record(h, d);
        mn = B_MIN(mn, d), mx = B_MAX(mx, d), sum += d, done++;
    }
    struct res *s = res_step(res, res->w, ping_what[k]);
    ping_stats(&s->final, h, done, mn, mx, sum);
    s->have_final = true;
    s->complete = done == (u64)n;
    if (k == 0) {
        ping_stats(&res->final, h, done, mn, mx, sum);
        res->have_final = true;
    }
    return rc;
}

/*
 * ping_main - `bench ping`: connect, log in, and time COM_PING, SELECT 1 and a prepared
 * SELECT ?, --count each. Facts: the server, TLS, plugin, connect time, its settings; the
 * round trips of each kind a step with its final statistics (res->final: COM_PING's). Prints
 * nothing: rep_ping shows it. The first thing to run against a new DB host.
 */
static int ping_main(struct res *res)
{
    struct bench_opts *o = res->o;
    struct myc_conn_params cc;
    struct my_conn c;
    res->command = "ping";
    o->tls_preferred = true; /* a mysql-client-style command: the client's default TLS */
    if (myc_params_from_opts(o, 0, &cc, &res->err) < 0)
        return res->err.ex;
    if (!o->mysql_db_set)
        cc.p.db = NULL; /* ping needs no schema; sysbench's default 'sbtest' may not exist */
    int rc = myc_connect(&c, &cc.p);
    if (rc < 0)
        return myc_conn_error("ping", &c, &cc.p, &res->err);
    ping_conn_facts(res, &c, &cc.p);
    struct myc_result mr;
    struct ping_vars pv;
    struct myc_stmt st;
    bool prepared = false;
    memset(&mr, 0, sizeof(mr));
    memset(&pv, 0, sizeof(pv));
    /* each step stops the ping at its first error, with that error */
    const char *step = "the settings query (" PING_VARS ")";
    rc = myc_query(&c, PING_VARS, strlen(PING_VARS), &mr, ping_vars_row, &pv);
    if (rc == B_OK) {
        ping_vars_facts(res, &pv);
        step = "PREPARE of SELECT ?";
        rc = myc_prepare(&c, "SELECT ?", 8, &st);
        prepared = rc == B_OK;
    }
    i64 n = B_MAX(o->ping_count, 1);
    res_fact_int(res, "ping_count", n);
    struct hist *h = b_xcalloc(1, sizeof(*h));
    for (int k = 0; k < 3 && rc == B_OK && !atomic_load(&b_stop); k++) {
        step = ping_what[k];
        rc = ping_kind(res, &c, k, n, &mr, &st, h);
    }
    free(h);
    if (prepared && rc == B_OK && !atomic_load(&b_stop))
        (void)myc_stmt_close(&c, &st);
    else if (prepared)
        myc_stmt_free(&st); /* the connection is out of step or stopping: no more commands */
    myc_result_free(&mr);
    int ex = B_EXIT_OK;
    res->rc = rc;
    res->end = RES_END_LIMIT;
    if (rc == B_DONE || atomic_load(&b_stop)) {
        res->end = RES_END_SIGNAL;
        res->end_signal = atomic_load(&b_stop) == SIGTERM ? SIGTERM : SIGINT;
        ex = b_fail(&res->err, B_EXIT_FAIL,
                    "ping: interrupted by %s during %s; the figures above are what was "
                    "measured until then",
                    atomic_load(&b_stop) == SIGTERM ? "SIGTERM" : "SIGINT", step);
        res->err.rc = B_DONE;
    } else if (rc < 0) {
        res->end = RES_END_FAILED;
        if (rc == B_SERVER)
            ex = b_fail(&res->err, B_EXIT_ENV, "ping: %s on %s: %s", step, c.target, c.err.msg);
        else
            ex = b_fail(&res->err, B_EXIT_ENV, "ping: %s: %s", step, c.err.msg);
        res->err.rc = rc;
        if (rc == B_TIMEOUT)
            b_hint(&res->err, "no complete answer within --mysql-io-timeout=%lld s",
                   (long long)o->mysql_io_timeout);
    }
    res->complete = ex == B_EXIT_OK;
    myc_close(&c);
    return ex;
}


/* ---- `bench oltp -h HOST -u USER`: the sizing one-liner ---- */

static const struct wl_def *wl_find(const char *name);

static const struct opt_def opt_oltp_sizing[] = {
    OLTP_COMMON_OPTS,
    OPT("max-threads", INT, sizing_max_threads, "64", 1, 4096, NULL,
        "highest thread count of the ladder (1, 2, 4, ...)", NULL, 0),
    OPT("step-time", INT, sizing_step_time, "5", 1, 3600, NULL,
        "seconds each step of the ladder runs", NULL, 0),
    OLTP_COMMON_OPTS2};

/* The figures of one step of the ladder, as the table shows them (rep_sizing). */
struct sizing_row {
    const char *wl;
    i64 threads;
    double tps, qps, p95, p99;
    u64 errors;
};

/* sizing_row_of - the figures of step st (a measured run of the ladder). */
static void sizing_row_of(const struct res *st, struct sizing_row *row)
{
    const struct load_snap *s = &st->final.d;
    double secs = st->final.total_s > 0 ? st->final.total_s : 1;
    row->wl = st->w->name;
    row->threads = st->final.threads;
    row->tps = (double)s->events / secs;
    row->qps = (double)(s->ctr[0] + s->ctr[1] + s->ctr[2]) / secs;
    row->p95 = (double)hist_percentile(s->hist, 95, s->lat_min_ns, s->lat_max_ns) / 1e6;
    row->p99 = (double)hist_percentile(s->hist, 99, s->lat_min_ns, s->lat_max_ns) / 1e6;
    row->errors = s->ctr[3];
}

/* One step: `threads` workers of w for step-time seconds, by the run path, as a new step of res
 * (its final statistics, histogram included); fills *row. A step that failed is not kept: its
 * failure goes to *err. */
static int sizing_step(struct res *res, const struct bench_opts *base, const struct wl_def *w,
                       i64 threads, struct sizing_row *row, struct b_err *err)
{
    struct bench_opts so = *base;
    so.threads = threads;
    so.time_s = base->sizing_step_time;
    so.events = 0;
    so.rate = 0;
    so.warmup_time = 0;
    so.report_interval = 0;
    so.nckpt = 0;
    so.debug = false;
    struct res *st = res_step(res, w, "run");
    int rc = wl_run(w, &so, st);
    st->o = res->o; /* so ends here; the step's thread count is in its final statistics */
    if (rc == B_OK && st->rc)
        rc = st->rc;
    if (rc < 0) {
        *err = st->err;
        res_free(st);
        res->nsteps--;
        return rc;
    }
    sizing_row_of(st, row);
    return rc;
}

static int sizing_sql(struct my_conn *c, const char *sql)
{
    struct myc_result res = {0};
    int rc = myc_query(c, sql, strlen(sql), &res, NULL, NULL);
    myc_result_free(&res);
    return rc;
}

/* The one-liner's prepare: its lines for standard output are not shown (the table is), its
 * messages are, through the command's sink (ctx: the command's res). */
static void sizing_prep_say(void *ctx, int kind, const char *text)
{
    const struct res *res = ctx;
    if (kind != RES_SAY_PROGRESS && kind != RES_SAY_NOTE && res->sink && res->sink->say)
        res->sink->say(res->sink->ctx, kind, text);
}

/*
 * The sizing run: its own schema (created here, dropped at the end: bench never touches a
 * schema it did not create in this run), a dataset of --tables x --table-size rows (4 x 25000
 * unless given), then oltp_point_select and oltp_read_write over a ladder of thread counts
 * (1, 2, 4, ... --max-threads) until throughput stops growing. Into res: one step per rung
 * (res_step, by wl_run), the facts of the table's heading (server, server_version, tls,
 * tables, table_size, step_time_s) and of each workload's knee (<workload>_knee_step: the
 * step's index, <workload>_knee_threads, <workload>_knee_tps: the recommendation); rep_sizing
 * shows them. Progress goes to res_say.
 */
static int sizing_main(struct res *res)
{
    struct bench_opts *o = res->o;
    struct myc_conn_params cc;
    struct my_conn c;
    char db[OLTP_NAME_SZ], sql[OLTP_QNAME_SZ + 32], qdb[OLTP_QNAME_SZ];
    u64 t0 = clk_now_ns();
    if (!o->sizing_tables_set)
        o->oltp_tables = 4;
    if (!o->sizing_rows_set)
        o->oltp_table_size = 25000;
    if (!o->mysql_db_set) {
        free(o->mysql_db);
        o->mysql_db = b_xstrdup("bench");
    }
    o->tls_preferred = true; /* a mysql-client-style command: the client's default TLS */
    int ex = oltp_check(o, &res->err); /* -D among the names: at most 64 characters, UTF-8 */
    if (ex != B_EXIT_OK)
        return ex;
    snprintf(db, sizeof(db), "%s", o->mysql_db);
    oltp_quote(db, qdb, sizeof(qdb));
    if (myc_params_from_opts(o, 0, &cc, &res->err) < 0)
        return res->err.ex;
    cc.p.db = NULL;
    if (myc_connect(&c, &cc.p) < 0)
        return myc_conn_error("oltp", &c, &cc.p, &res->err);
    snprintf(sql, sizeof(sql), "CREATE DATABASE %s", qdb);
    if (sizing_sql(&c, sql) < 0) {
        b_fail(&res->err, B_EXIT_ENV, "oltp: creating schema '%s' on %s failed: %s", db,
               c.target, c.err.msg);
        if (c.srv_code == 1007)
            b_hint(&res->err, "bench works in a schema it creates and drops itself, and never "
                              "touches an existing one; name another with -D (a leftover of an "
                              "interrupted run holds tables commented '" OLTP_MARK "')");
        myc_close(&c);
        return B_EXIT_ENV;
    }
    res_fact_str(res, "server", "%s", c.target);
    res_fact_str(res, "server_version", "%s", c.version);
    res_fact_bool(res, "tls", c.tls);
    res_fact_int(res, "tables", o->oltp_tables);
    res_fact_int(res, "table_size", o->oltp_table_size);
    res_fact_int(res, "step_time_s", o->sizing_step_time);
    res_say(res, RES_SAY_MSG, "oltp: created schema '%s' on %s (%s); loading %lld tables x %lld "
                              "rows",
            db, c.target, c.version, (long long)o->oltp_tables, (long long)o->oltp_table_size);
    struct wl_def const *ps = wl_find("oltp_point_select"), *rw = wl_find("oltp_read_write");
    struct bench_opts po = *o;
    po.threads = B_MIN(8, B_MAX(2, o->oltp_tables));
    const struct res_sink prep_sink = {res, NULL, NULL, NULL, sizing_prep_say, NULL};
    struct res prep;
    res_init(&prep, rw, "prepare", &po, &prep_sink);
    ex = oltp_jobs(&prep, &po, rw, oltp_prepare_one);
    if (prep.err.msg[0] || prep.err.sb[0])
        res->err = prep.err;
    res_free(&prep);
    struct sizing_row rows[2][16];
    int nrows[2] = {0, 0}, best[2] = {0, 0};
    const struct wl_def *wls[2] = {ps, rw};
    if (ex == B_EXIT_OK) {
        for (int k = 0; k < 2 && !atomic_load(&b_stop) && ex == B_EXIT_OK; k++) {
            for (i64 th = 1; th <= o->sizing_max_threads && nrows[k] < 16; th *= 2) {
                /* keep the whole run near 90 s: no new step past 80 s */
                if ((double)(clk_now_ns() - t0) / 1e9 + (double)o->sizing_step_time > 85)
                    break;
                struct b_err e;
                struct sizing_row *row = &rows[k][nrows[k]];
                memset(&e, 0, sizeof(e));
                if (sizing_step(res, o, wls[k], th, row, &e) != 0) {
                    b_fail(&res->err, B_EXIT_FAIL, "oltp: %s with %lld threads: %s",
                           wls[k]->name, (long long)th, e.msg);
                    ex = B_EXIT_FAIL;
                    break;
                }
                res_say(res, RES_SAY_MSG, "oltp: %-17s %4lld threads: %10.2f tps, p99 %.2f ms",
                        row->wl, (long long)th, row->tps, row->p99);
                nrows[k]++;
                if (row->tps > rows[k][best[k]].tps)
                    best[k] = nrows[k] - 1;
                /* stop once a doubling gains less than 5% over the best so far */
                if (nrows[k] > 1 && row->tps < rows[k][best[k]].tps * 1.05 &&
                    best[k] != nrows[k] - 1)
                    break;
                if (atomic_load(&b_stop))
                    break;
            }
        }
    }
    for (int k = 0; k < 2; k++)
        if (nrows[k]) {
            char key[48];
            snprintf(key, sizeof(key), "%s_knee_step", wls[k]->name);
            res_fact_int(res, key, (k ? nrows[0] : 0) + best[k]);
            snprintf(key, sizeof(key), "%s_knee_threads", wls[k]->name);
            res_fact_int(res, key, rows[k][best[k]].threads);
            snprintf(key, sizeof(key), "%s_knee_tps", wls[k]->name);
            res_fact_num(res, key, rows[k][best[k]].tps);
        }
    if (atomic_load(&b_stop) && ex == B_EXIT_OK) {
        res_say(res, RES_SAY_WARN, "oltp: interrupted; the table below covers the steps that ran");
        ex = B_EXIT_FAIL;
    }
    /* drop what this run created, whatever happened above */
    snprintf(sql, sizeof(sql), "DROP DATABASE %s", qdb);
    if (sizing_sql(&c, sql) < 0)
        res_say(res, RES_SAY_WARN, "oltp: dropping schema '%s' failed: %s (drop it yourself)", db,
                c.err.msg);
    else
        res_say(res, RES_SAY_MSG, "oltp: dropped schema '%s'", db);
    res->elapsed_s = (double)(clk_now_ns() - t0) / 1e9;
    myc_close(&c);
    return ex;
}

/*== 20 slap_ : mysqlslap mode: options, generated SQL, client threads =======*/
/*
 * `bench slap` (and bench invoked as mysqlslap or mariadb-slap): mysqlslap's benchmark, drop-in
 * (spec mysqlslap.md). For each engine, each concurrency C and each iteration: drop the schema
 * (only one this process created), create it, pre-load, pre-query, C clients on connections of
 * their own (the timed part, connects included, in whole ms as mysqlslap), post-query. The
 * result: one res_step per engine x concurrency with avg/min/max; --only-print: the statement
 * stream, made without any connection. Better than mysqlslap: a schema it did not create is
 * never dropped (--create-schema=EXISTING -a refuses, exit 3); a failing query stops the run
 * with the server's error (exit 1); per-query latency percentiles with --percentile.
 * Limit: one thread per client until the event-loop client lands (SLAP_MAX_CLIENTS).
 */

#define SLAP_MAX_CLIENTS 4096   /* threads: one per client */
#define SLAP_RAND_STRING 126    /* characters of a generated VARCHAR value */
#define SLAP_DUMMY_KEY "796c4422-1d94-102a-9d6d-00e0812d" /* --only-print, blackhole */
#define SLAP_CONNECT_TRIES 10   /* as mysqlslap: 10 attempts, 100 ms apart */
#define SLAP_MAX_COLS 4096      /* -y + -x + secondary indexes: MySQL's columns per table */

/* mysqlslap's alphabet: 60 characters, U and V missing (spec 3.2). */
static const char slap_alnum[] = "0123456789ABCDEFGHIJKLMNOPQRSTWXYZabcdefghijklmnopqrstuvwxyz";

static const struct opt_def opt_slap[] = {
    OPT("auto-generate-sql", BOOL, slap_auto, "off", 0, 0, NULL,
        "-a: generate the table, data and queries", NULL, OPT_F_EXT),
    OPT("auto-generate-sql-add-autoincrement", BOOL, slap_autoinc, "off", 0, 0, NULL,
        "add an AUTO_INCREMENT column (id serial) to the generated table", NULL, OPT_F_EXT),
    OPT("auto-generate-sql-execute-number", INT, slap_execute_number, "0", 0, 1e18, NULL,
        "queries each client runs (excludes --number-of-queries)", NULL, OPT_F_EXT),
    OPT("auto-generate-sql-guid-primary", BOOL, slap_guid, "off", 0, 0, NULL,
        "add a GUID primary key (id varchar(36), uuid()) to the generated table", NULL,
        OPT_F_EXT),
    OPT("auto-generate-sql-load-type", STR, slap_load_type, "mixed", 0, 0, NULL,
        "read, write, key, update or mixed (only the first character counts)", NULL,
        OPT_F_EXT),
    OPT("auto-generate-sql-secondary-indexes", INT, slap_secondary, "0", 0, 1000, NULL,
        "unique GUID columns added to the generated table", NULL, OPT_F_EXT),
    OPT("auto-generate-sql-unique-query-number", INT, slap_unique_query, "10", 0, 1e7, NULL,
        "distinct generated queries, less one", NULL, OPT_F_EXT),
    OPT("auto-generate-sql-unique-write-number", INT, slap_unique_write, "10", 0, 1e7, NULL,
        "distinct INSERTs of the pre-load", NULL, OPT_F_EXT),
    OPT("auto-generate-sql-write-number", INT, slap_write_number, "100", 0, 1e12, NULL,
        "statements of the pre-load, the CREATE TABLE included", NULL, OPT_F_EXT),
    OPT("commit", INT, slap_commit, "0", 0, 1e9, NULL, "COMMIT every N statements", NULL,
        OPT_F_EXT),
    OPT("concurrency", STR, slap_concurrency, "1", 0, 0, NULL,
        "-c: clients, a list run in turn (1,10,50); one thread each, at most 4096", NULL,
        OPT_F_EXT),
    OPT("create", STR, slap_create, "", 0, 0, NULL, "create statements: SQL text or a file",
        NULL, OPT_F_EXT),
    OPT("create-schema", STR, slap_schema, "mysqlslap", 0, 0, NULL,
        "the schema the test runs in (created and dropped with -a or --create)", NULL,
        OPT_F_EXT),
    OPT("csv", STR, slap_csv, "", 0, 0, NULL,
        "a CSV line per result, appended to FILE (- or no value: stdout); implies --silent",
        NULL, OPT_F_EXT),
    OPT("debug-info", BOOL, slap_debug_info, "off", 0, 0, NULL,
        "-T: resource usage at the end", NULL, OPT_F_EXT),
    OPT("delimiter", STR, slap_delimiter, "\n", 0, 0, NULL,
        "-F: statement separator of the SQL text (its first character)", NULL,
        OPT_F_EXT | OPT_F_NODEF),
    OPT("detach", INT, slap_detach, "0", 0, 1e9, NULL,
        "reconnect every N statements", NULL, OPT_F_EXT),
    OPT("engine", STR, slap_engine, "", 0, 0, NULL,
        "-e: storage engines, a list of engine[:option]", NULL, OPT_F_EXT),
    OPT("force-drop-existing-schema", BOOL, slap_force_drop, "off", 0, 0, NULL,
        "drop --create-schema even when this run did not create it (mysqlslap's way)", NULL,
        OPT_F_EXT),
    OPT("init-command", STR, slap_init_command, "", 0, 0, NULL,
        "SQL run on every client connection after connecting", NULL, OPT_F_EXT),
    OPT("iterations", INT, slap_iterations, "1", 1, 1e9, NULL, "-i: runs of each test",
        NULL, OPT_F_EXT),
    OPT("no-drop", BOOL, slap_no_drop, "off", 0, 0, NULL, "do not drop the schema", NULL,
        OPT_F_EXT),
    OPT("number-char-cols", STR, slap_char_cols, "1", 0, 0, NULL,
        "-x: VARCHAR columns of the generated table, N[:index]", NULL, OPT_F_EXT),
    OPT("number-int-cols", STR, slap_int_cols, "1", 0, 0, NULL,
        "-y: INT columns of the generated table, N[:index]", NULL, OPT_F_EXT),
    OPT("number-of-queries", INT, slap_queries, "0", 0, 1e18, NULL,
        "queries in all, divided among the clients", NULL, OPT_F_EXT),
    OPT("only-print", BOOL, slap_only_print, "off", 0, 0, NULL,
        "print the statements instead of running them (no connection)", NULL, OPT_F_EXT),
    OPT("post-query", STR, slap_post_query, "", 0, 0, NULL,
        "SQL text or file run after each test", NULL, OPT_F_EXT),
    OPT("post-system", STR, slap_post_system, "", 0, 0, NULL,
        "shell command (sh -c) run after each test, after --post-query; failing fails the run",
        NULL, OPT_F_EXT),
    OPT("pre-query", STR, slap_pre_query, "", 0, 0, NULL,
        "SQL text or file run before each test", NULL, OPT_F_EXT),
    OPT("pre-system", STR, slap_pre_system, "", 0, 0, NULL,
        "shell command (sh -c) run before each test, before --pre-query; failing fails the run",
        NULL, OPT_F_EXT),
    OPT("query", STR, slap_query, "", 0, 0, NULL, "-q: the test statements: SQL text or a file",
        NULL, OPT_F_EXT),
    OPT("silent", BOOL, slap_silent, "off", 0, 0, NULL, "-s: no Benchmark blocks", NULL,
        OPT_F_EXT),
    OPT("slap-latency", BOOL, slap_latency, "off", 0, 0, NULL,
        "per-query latency percentiles (set by --percentile)", NULL, OPT_F_EXT | OPT_F_NOHELP),
    OPT("sql-mode", STR, slap_sql_mode, "", 0, 0, NULL,
        "SET sql_mode on the main connection (MySQL's mysqlslap)", NULL, OPT_F_EXT),
    OPT("verbose", INT, slap_verbose, "0", 0, 100, NULL,
        "-v: 2 progress lines, 3 every statement", NULL, OPT_F_EXT),
};

/* ---- statement lists and the generated SQL ---- */

static void slap_add(struct slap_list *l, const char *sql, size_t len, int type)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, l->cap * sizeof(*l->v));
        if (!l->v)
            b_die("out of memory for %zu statements", l->cap);
    }
    struct slap_stmt *s = &l->v[l->n++];
    s->sql = b_xmalloc(len + 1);
    memcpy(s->sql, sql, len);
    s->sql[len] = 0;
    s->len = len;
    s->type = type;
}

static void slap_list_free(struct slap_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].sql);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

/* Statements up to the first empty one: what every walk of a list sees. */
static size_t slap_live(const struct slap_list *l)
{
    size_t n = 0;
    while (n < l->n && l->v[n].len)
        n++;
    return n;
}

BENCH_API void slap_split(const char *text, char delim, struct slap_list *l)
{
    const char *p = text, *end = text + strlen(text), *d;
    while ((d = strchr(p, delim)) && delim) {
        slap_add(l, p, (size_t)(d - p), l->pieces ? SLAP_T_OTHER : SLAP_T_CREATE_TABLE);
        l->pieces++;
        p = d + 1;
        if (isspace((unsigned char)*p))
            p++;
    }
    if (p < end) {
        slap_add(l, p, (size_t)(end - p), l->pieces ? SLAP_T_OTHER : SLAP_T_CREATE_TABLE);
        l->pieces++;
    }
}

/* SQL text, or the file it names (mysqlslap: a value naming an existing file is read). */
static int slap_text(const char *what, const char *val, char delim, struct slap_list *l,
                     struct b_err *e)
{
    struct stat st;
    if (!val || !*val)
        return B_EXIT_OK;
    if (stat(val, &st) != 0) {
        slap_split(val, delim, l);
        return B_EXIT_OK;
    }
    if (!S_ISREG(st.st_mode))
        return b_fail(e, B_EXIT_USAGE, "slap: --%s=%s: not a regular file", what, val);
    struct buf b = {0};
    char tmp[4096];
    size_t n;
    FILE *f = fopen(val, "rb");
    if (!f)
        return b_fail(e, B_EXIT_ENV, "slap: --%s: cannot read '%s': %s (%s)", what, val,
                      strerror(errno), b_errno_name(errno));
    while ((n = fread(tmp, 1, sizeof(tmp), f)) > 0)
        buf_put(&b, tmp, n);
    int err = ferror(f) ? errno : 0;
    fclose(f);
    if (err) {
        buf_free(&b);
        return b_fail(e, B_EXIT_ENV, "slap: --%s: cannot read '%s': %s (%s)", what, val,
                      strerror(err), b_errno_name(err));
    }
    slap_split(b.p ? b.p : "", delim, l);
    buf_free(&b);
    return B_EXIT_OK;
}

static void slap_rand_string(struct buf *b)
{
    char s[SLAP_RAND_STRING];
    for (int i = 0; i < SLAP_RAND_STRING; i++)
        s[i] = slap_alnum[rnd_libc_random() % (long)(sizeof(slap_alnum) - 1)];
    buf_put(b, s, sizeof(s));
}

/* mysqlslap's build_table_string, byte for byte (its stray commas included). */
static void slap_gen_table(const struct bench_opts *o, const struct slap_plan *p,
                           struct slap_list *l)
{
    struct buf b = {0};
    bool cols = p->int_cols || p->char_cols;
    buf_printf(&b, "CREATE TABLE `t1` (");
    if (o->slap_autoinc)
        buf_printf(&b, "id serial%s", cols ? "," : "");
    if (o->slap_guid)
        buf_printf(&b, "id varchar(36) primary key,"); /* mysqlslap: always the comma */
    for (i64 k = 0; k < o->slap_secondary; k++)
        buf_printf(&b, "%sid%lld varchar(36) unique key", k ? "," : "", (long long)k);
    if (o->slap_secondary && cols)
        buf_printf(&b, ",");
    for (int k = 1; k <= p->int_cols; k++) {
        if (p->int_index)
            buf_printf(&b, "intcol%d INT(32), INDEX(intcol%d)", k, k);
        else
            buf_printf(&b, "intcol%d INT(32) ", k);
        if (k < p->int_cols || p->char_cols > 0)
            buf_printf(&b, ",");
    }
    for (int k = 1; k <= p->char_cols; k++) {
        if (p->char_index)
            buf_printf(&b, "charcol%d VARCHAR(128), INDEX(charcol%d) ", k, k);
        else
            buf_printf(&b, "charcol%d VARCHAR(128)", k);
        if (k < p->char_cols)
            buf_printf(&b, ",");
    }
    buf_printf(&b, ")");
    slap_add(l, b.p, b.len, SLAP_T_CREATE_TABLE);
    buf_free(&b);
}

static void slap_gen_insert(const struct bench_opts *o, const struct slap_plan *p,
                            struct slap_list *l)
{
    struct buf b = {0};
    bool cols = p->int_cols || p->char_cols;
    buf_printf(&b, "INSERT INTO t1 VALUES (");
    if (o->slap_autoinc)
        buf_printf(&b, "NULL%s", cols ? "," : "");
    if (o->slap_guid)
        buf_printf(&b, "uuid()%s", cols ? "," : "");
    for (i64 k = 0; k < o->slap_secondary; k++)
        buf_printf(&b, "%suuid()", k ? "," : "");
    if (o->slap_secondary && cols)
        buf_printf(&b, ",");
    for (int k = 1; k <= p->int_cols; k++)
        buf_printf(&b, "%ld%s", rnd_libc_random(), k < p->int_cols || p->char_cols ? "," : "");
    for (int k = 1; k <= p->char_cols; k++) {
        buf_put(&b, "'", 1);
        slap_rand_string(&b);
        buf_printf(&b, "'%s", k < p->char_cols ? "," : "");
    }
    buf_printf(&b, ")");
    slap_add(l, b.p, b.len, SLAP_T_OTHER);
    buf_free(&b);
}

static void slap_gen_update(const struct slap_plan *p, struct slap_list *l)
{
    struct buf b = {0};
    buf_printf(&b, "UPDATE t1 SET ");
    for (int k = 1; k <= p->int_cols; k++)
        buf_printf(&b, "intcol%d = %ld%s", k, rnd_libc_random(),
                   k < p->int_cols || p->char_cols ? "," : "");
    for (int k = 1; k <= p->char_cols; k++) {
        buf_printf(&b, "charcol%d = '", k);
        slap_rand_string(&b);
        buf_printf(&b, "'%s", k < p->char_cols ? "," : "");
    }
    if (p->keyed)
        buf_printf(&b, " WHERE id = ");
    slap_add(l, b.p, b.len, p->keyed ? SLAP_T_UPDATE_KEY : SLAP_T_OTHER);
    buf_free(&b);
}

static void slap_gen_select(const struct slap_plan *p, bool key, struct slap_list *l)
{
    struct buf b = {0};
    buf_printf(&b, "SELECT ");
    for (int k = 1; k <= p->int_cols; k++)
        buf_printf(&b, "intcol%d%s", k, k < p->int_cols || p->char_cols ? "," : "");
    for (int k = 1; k <= p->char_cols; k++)
        buf_printf(&b, "charcol%d%s", k, k < p->char_cols ? "," : "");
    buf_printf(&b, " FROM t1");
    key = key && p->keyed;
    if (key)
        buf_printf(&b, " WHERE id = ");
    slap_add(l, b.p, b.len, key ? SLAP_T_SELECT_KEY : SLAP_T_OTHER);
    buf_free(&b);
}

/* -y/-x "N[:I]": the first comma-separated item, atoi of each part, as mysqlslap. */
static void slap_cols(const char *s, int *n, int *idx)
{
    char item[64];
    snprintf(item, sizeof(item), "%.*s", (int)B_MIN(strcspn(s, ","), sizeof(item) - 1), s);
    char *colon = strchr(item, ':');
    *idx = colon ? atoi(colon + 1) : 0;
    if (colon)
        *colon = 0;
    *n = B_MAX(atoi(item), 0);
}

BENCH_API void slap_plan_free(struct slap_plan *p)
{
    slap_list_free(&p->create);
    slap_list_free(&p->query);
    slap_list_free(&p->pre);
    slap_list_free(&p->post);
    for (size_t i = 0; i < p->nengines; i++) {
        free(p->engines[i]);
        free(p->engine_opts[i]);
    }
    free(p->engines);
    free(p->engine_opts);
    free(p->conc);
    memset(p, 0, sizeof(*p));
}

BENCH_API int slap_build(const struct bench_opts *o, struct slap_plan *p, struct b_err *e)
{
    char delim = o->slap_delimiter[0];
    const char *lt = o->slap_load_type;
    int ex;
    memset(p, 0, sizeof(*p));
    if (o->client_index >= 0 || o->client_count >= 0) { /* every client would run it all */
        b_hint(e, "run one bench slap with -c N for N clients");
        return b_fail(e, B_EXIT_USAGE, "slap: %s: slap does not split work across clients "
                      "(processes, hosts) yet: each would drop, create and write the same "
                      "schema", o->client_index >= 0 ? "--client-index" : "--client-count");
    }
    if (o->slap_auto && (*o->slap_create || *o->slap_query))
        return b_fail(e, B_EXIT_USAGE, "slap: --auto-generate-sql (-a) cannot be used with "
                                       "--create or --query");
    if (o->slap_auto && o->slap_guid && o->slap_autoinc)
        return b_fail(e, B_EXIT_USAGE, "slap: either --auto-generate-sql-guid-primary or "
                                       "--auto-generate-sql-add-autoincrement, not both");
    if (o->slap_auto && lt[0] == 'k' && !o->slap_guid && !o->slap_autoinc) {
        b_hint(e, "add --auto-generate-sql-add-autoincrement or "
                  "--auto-generate-sql-guid-primary");
        return b_fail(e, B_EXIT_USAGE, "slap: --auto-generate-sql-load-type=key needs a "
                                       "primary key");
    }
    if (o->slap_auto && o->slap_queries && o->slap_execute_number)
        return b_fail(e, B_EXIT_USAGE, "slap: either --auto-generate-sql-execute-number or "
                                       "--number-of-queries, not both");
    if (!o->slap_auto && !*o->slap_query && !*o->slap_create) {
        b_hint(e, "give -a (--auto-generate-sql) or -q/--query='SQL' (see 'bench slap help')");
        return b_fail(e, B_EXIT_USAGE, "slap: nothing to run: no --auto-generate-sql, "
                                       "--query or --create");
    }
    /* concurrency: atoi of each item up to the first 0 (mysqlslap's parse_comma) */
    const char *c = o->slap_concurrency;
    for (;;) {
        long v = atol(c);
        if (v <= 0 && p->nconc == 0) {
            b_hint(e, "mysqlslap runs 1, 2, 3, ... clients forever for a list that starts "
                      "with 0; give the counts, e.g. -c 1,10,50");
            return b_fail(e, B_EXIT_USAGE, "slap: --concurrency=%s: the first count must be "
                                           "1 or more", o->slap_concurrency);
        }
        if (v <= 0)
            break;
        if (v > SLAP_MAX_CLIENTS) {
            b_hint(e, "bench runs one thread per client until its event-loop client lands");
            return b_fail(e, B_EXIT_USAGE, "slap: --concurrency: %ld clients: at most %d",
                          v, SLAP_MAX_CLIENTS);
        }
        p->conc = realloc(p->conc, (p->nconc + 1) * sizeof(*p->conc));
        if (!p->conc)
            b_die("out of memory");
        p->conc[p->nconc++] = v;
        c = strchr(c, ',');
        if (!c)
            break;
        c++;
    }
    /* engines: "a:opt, b" (a space after a comma skipped) */
    for (const char *s = o->slap_engine; *s;) {
        size_t l = strcspn(s, ",");
        char item[256];
        snprintf(item, sizeof(item), "%.*s", (int)B_MIN(l, sizeof(item) - 1), s);
        char *colon = strchr(item, ':');
        p->engines = realloc(p->engines, (p->nengines + 1) * sizeof(char *));
        p->engine_opts = realloc(p->engine_opts, (p->nengines + 1) * sizeof(char *));
        if (!p->engines || !p->engine_opts)
            b_die("out of memory");
        p->engine_opts[p->nengines] = b_xstrdup(colon ? colon + 1 : "");
        if (colon)
            *colon = 0;
        p->engines[p->nengines++] = b_xstrdup(item);
        s += l;
        if (*s == ',')
            s++;
        if (*s == ' ')
            s++;
    }
    if (*o->slap_csv && strcmp(o->slap_csv, "-")) { /* as mysqlslap: before anything runs */
        int fd = open(o->slap_csv, O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0644);
        if (fd < 0)
            return b_fail(e, B_EXIT_ENV, "slap: --csv=%s: cannot open: %s (%s)", o->slap_csv,
                          strerror(errno), b_errno_name(errno));
        close(fd);
    }
    slap_cols(o->slap_int_cols, &p->int_cols, &p->int_index);
    slap_cols(o->slap_char_cols, &p->char_cols, &p->char_index);
    if (o->slap_auto && (i64)p->int_cols + p->char_cols + o->slap_secondary > SLAP_MAX_COLS)
        return b_fail(e, B_EXIT_USAGE, "slap: -y %s -x %s: %lld columns: a table holds at "
                                       "most %d", o->slap_int_cols, o->slap_char_cols,
                      (long long)p->int_cols + p->char_cols + o->slap_secondary, SLAP_MAX_COLS);
    p->drop = !o->slap_no_drop && (o->slap_auto || *o->slap_create);
    static const char *const sys_schemas[] = {"mysql", "information_schema",
                                              "performance_schema", "sys"};
    for (size_t i = 0; p->drop && o->slap_force_drop && i < countof(sys_schemas); i++)
        if (!strcasecmp(o->slap_schema, sys_schemas[i])) /* the server's own: never */
            return b_fail(e, B_EXIT_USAGE, "slap: --create-schema=%s with "
                                           "--force-drop-existing-schema: the server's own "
                                           "schema, never dropped", o->slap_schema);
    p->keyed = o->slap_autoinc || o->slap_guid;
    rnd_libc_srandom(1); /* mysqlslap's statements come from random() unseeded */
    if (o->slap_auto) {
        slap_gen_table(o, p, &p->create);
        for (i64 i = 0; i < o->slap_unique_write; i++)
            slap_gen_insert(o, p, &p->create);
        for (i64 i = 0; i <= o->slap_unique_query; i++) {
            switch (lt[0]) {
            case 'r':
                slap_gen_select(p, false, &p->query);
                break;
            case 'k':
                slap_gen_select(p, true, &p->query);
                break;
            case 'w':
                slap_gen_insert(o, p, &p->query);
                break;
            case 'u':
                slap_gen_update(p, &p->query);
                break;
            default: /* mixed: INSERT first, then SELECT and INSERT in turn */
                if (i % 2 == 0)
                    slap_gen_insert(o, p, &p->query);
                else
                    slap_gen_select(p, true, &p->query);
            }
        }
        p->create.pieces = p->create.n;
        p->query.pieces = 0; /* "actual queries" of -a: 0 (one pass per client) */
    } else {
        if ((ex = slap_text("create", o->slap_create, delim, &p->create, e)) != B_EXIT_OK ||
            (ex = slap_text("query", o->slap_query, delim, &p->query, e)) != B_EXIT_OK)
            return ex;
    }
    if ((ex = slap_text("pre-query", o->slap_pre_query, delim, &p->pre, e)) != B_EXIT_OK ||
        (ex = slap_text("post-query", o->slap_post_query, delim, &p->post, e)) != B_EXIT_OK)
        return ex;
    return B_EXIT_OK;
}

/* Queries per client: execute-number, else number-of-queries / C, else the --query pieces
 * (0 for -a: one pass over the list). */
static u64 slap_limit(const struct bench_opts *o, const struct slap_plan *p, i64 conc)
{
    if (o->slap_execute_number)
        return (u64)o->slap_execute_number;
    if (o->slap_queries)
        return (u64)(o->slap_queries / conc);
    return p->query.pieces;
}

/* ---- the run: the main connection, the schema, the clients ---- */

struct slap_run {
    struct res *res;                /* for res_say */
    const struct bench_opts *o;
    const struct slap_plan *p;
    bool only_print;
    struct buf out;                 /* --only-print: the statement stream */
    pthread_mutex_t mu;             /* out, err, go */
    pthread_cond_t cv;              /* go */
    bool go;
    _Atomic int failed;
    struct b_err err;               /* the first failure */
    char **keys;                    /* primary keys of t1 (SELECT id from t1) */
    size_t nkeys;
    u64 limit;                      /* queries per client, 0 = one pass */
    bool schema_ours;               /* this process created the schema, not dropped since */
    struct my_conn c;               /* the main connection */
    struct myc_conn_params cc;
    struct myc_result r;
};

struct slap_client {
    struct slap_run *run;
    pthread_t tid;
    int id;
    struct rnd rng;                 /* the key of a key SELECT or UPDATE */
    struct my_conn c;
    struct myc_conn_params cc;
    struct myc_result r;
    struct hist *h;                 /* per-query latency (--percentile), or NULL */
    u64 queries, lat_sum, lat_min, lat_max;
};

/* --only-print's stream: a then b (a line's text and its end), out as made through the sink's
 * out (the cli's writer: nothing held here, however many statements), or kept in run->out for
 * the "statements" fact where the sink has none (JSON). */
static void slap_emit(struct slap_run *run, const char *a, size_t alen, const char *b,
                      size_t blen)
{
    const struct res_sink *k = run->res->sink;
    pthread_mutex_lock(&run->mu);
    if (k && k->out) {
        k->out(k->ctx, a, alen);
        k->out(k->ctx, b, blen);
    } else {
        buf_put(&run->out, a, alen);
        buf_put(&run->out, b, blen);
    }
    pthread_mutex_unlock(&run->mu);
}

/* A line of -v (level lvl): into the stream under --only-print, else to the sink. */
static void slap_note(struct slap_run *run, int lvl, const char *text, size_t len)
{
    if (run->o->slap_verbose < lvl)
        return;
    if (run->only_print)
        slap_emit(run, text, len, "\n", 1);
    else
        res_say(run->res, RES_SAY_NOTE, "%.*s", (int)B_MIN(len, 1000), text);
}

/* The stop that ended a slap step, for its message: a signal, or the report's reader. */
static const char *slap_stopped(void)
{
    if (atomic_load(&b_stop) == SIGPIPE)
        return "stopped: the reader of standard output went away (EPIPE)";
    return atomic_load(&b_stop) == SIGINT ? "interrupted by SIGINT" : "interrupted by SIGTERM";
}

/* The first failure of the run wins; returns its exit code. */
static int slap_failed(struct slap_run *run, const struct b_err *e)
{
    pthread_mutex_lock(&run->mu);
    if (!atomic_load(&run->failed)) {
        run->err = *e;
        atomic_store(&run->failed, 1);
    }
    pthread_mutex_unlock(&run->mu);
    return e->ex;
}

/* A statement failed on c: the server's error as the server said it. */
static int slap_sql_error(struct slap_run *run, const char *who, const struct my_conn *c,
                          const char *sql, size_t len)
{
    struct b_err e;
    memset(&e, 0, sizeof(e));
    if (c->err.rc == B_SERVER)
        b_fail(&e, B_EXIT_FAIL, "slap: %s: ERROR %u (%s): %s", who, c->srv_code, c->sqlstate,
               c->srv_msg);
    else
        b_fail(&e, B_EXIT_FAIL, "slap: %s: %s", who, c->err.msg[0] ? c->err.msg : "failed");
    char q[160];
    my_escape(q, sizeof(q), sql, B_MIN(len, (size_t)120));
    b_hint(&e, "the statement was: %s%s", q, len > 120 ? "..." : "");
    return slap_failed(run, &e);
}

/* Run one statement, every result set consumed (--only-print: print it as "sql;"). */
static int slap_exec(struct slap_run *run, struct my_conn *c, struct myc_result *r,
                     const char *sql, size_t len)
{
    if (run->only_print) {
        slap_emit(run, sql, len, ";\n", 2);
        return B_OK;
    }
    if (run->o->slap_verbose >= 3) {
        char line[1024];
        int n = snprintf(line, sizeof(line), "%.*s;", (int)B_MIN(len, sizeof(line) - 2), sql);
        slap_note(run, 3, line, (size_t)B_MAX(n, 0));
    }
    return myc_query(c, sql, len, r, NULL, NULL);
}

/* A statement on the main connection; what names the phase for the error. None after a
 * stop signal: the run ends at once (the pre-load, the pre/post-queries, the next DROP). */
static int slap_main_exec(struct slap_run *run, const char *what, const char *sql, size_t len)
{
    if (atomic_load(&b_stop)) {
        struct b_err e;
        memset(&e, 0, sizeof(e));
        b_fail(&e, B_EXIT_FAIL, "slap: %s: %s", what, slap_stopped());
        return slap_failed(run, &e);
    }
    if (slap_exec(run, &run->c, &run->r, sql, len) < 0)
        return slap_sql_error(run, what, &run->c, sql, len);
    return B_EXIT_OK;
}

/* Connect (db: the default schema, or NULL), up to SLAP_CONNECT_TRIES times while the
 * failure is not the server's answer; then --init-command. */
static int slap_connect(struct slap_run *run, unsigned idx, struct myc_conn_params *cc,
                        struct my_conn *c, struct myc_result *r, const char *db)
{
    struct b_err e;
    int rc = B_OK;
    memset(&e, 0, sizeof(e));
    if (myc_params_from_opts(run->o, idx, cc, NULL) < 0) {
        b_hint(&e, "see 'bench slap help' and 'bench --help' for the connection options");
        b_fail(&e, B_EXIT_USAGE, "slap: invalid connection options (--mysql-port, "
                                 "--ssl-mode or --mysql-compression-algorithms)");
        return slap_failed(run, &e);
    }
    cc->p.db = db;
    cc->p.multi_statements = true; /* as mysqlslap: a statement may hold several */
    for (int t = 0; t < SLAP_CONNECT_TRIES; t++) {
        rc = myc_connect(c, &cc->p);
        if (rc == B_OK || c->srv_code || atomic_load(&b_stop) || atomic_load(&run->failed))
            break;
        myc_close(c);
        clk_sleep_until(clk_now_ns() + 100000000u);
    }
    if (rc < 0) {
        if (c->srv_code)
            b_fail(&e, B_EXIT_ENV, "slap: connect to %s as '%s': ERROR %u (%s): %s", c->target,
                   cc->p.user, c->srv_code, c->sqlstate, c->srv_msg);
        else
            b_fail(&e, B_EXIT_ENV, "slap: connect to %s: %s", c->target, c->err.msg);
        if (c->srv_code == 1049)
            b_hint(&e, "with --query and no --create or -a, the schema --create-schema=%s must "
                       "exist", db);
        myc_close(c);
        return slap_failed(run, &e);
    }
    const char *ic = run->o->slap_init_command;
    if (*ic && myc_query(c, ic, strlen(ic), r, NULL, NULL) < 0)
        return slap_sql_error(run, "--init-command", c, ic, strlen(ic));
    return B_EXIT_OK;
}

/* A client's statement; timed ones are the queries it counts. */
static int slap_client_exec(struct slap_client *cl, const char *sql, size_t len, bool timed)
{
    u64 t0 = cl->h && timed ? clk_now_ns() : 0;
    if (slap_exec(cl->run, &cl->c, &cl->r, sql, len) < 0) {
        char who[32];
        snprintf(who, sizeof(who), "client %d", cl->id + 1);
        return slap_sql_error(cl->run, who, &cl->c, sql, len);
    }
    if (cl->h && timed) {
        u64 d = clk_now_ns() - t0;
        hist_record(cl->h, d);
        cl->lat_sum += d;
        cl->lat_min = B_MIN(cl->lat_min, d);
        cl->lat_max = B_MAX(cl->lat_max, d);
    }
    return B_EXIT_OK;
}

static int slap_client_connect(struct slap_client *cl)
{
    struct slap_run *run = cl->run;
    return slap_connect(run, (unsigned)cl->id, &cl->cc, &cl->c, &cl->r, run->o->slap_schema);
}

/* One client (mysqlslap's run_task): connect, SET AUTOCOMMIT=0 with --commit, the query list
 * in passes until the limit (0: one pass), COMMIT every --commit queries and at the end,
 * reconnect at every --detach'th statement of a pass. */
static void *slap_client_main(void *arg)
{
    struct slap_client *cl = arg;
    struct slap_run *run = cl->run;
    const struct bench_opts *o = run->o;
    const struct slap_list *q = &run->p->query;
    size_t nq = slap_live(q);
    struct buf kb = {0};
    u64 commits = 0;
    pthread_mutex_lock(&run->mu);
    while (!run->go)
        pthread_cond_wait(&run->cv, &run->mu);
    pthread_mutex_unlock(&run->mu);
    cl->c.fd = -1;
    if (!run->only_print && slap_client_connect(cl) != B_EXIT_OK)
        goto out;
    slap_note(run, 3, "connected!", 10); /* as mysqlslap: --only-print too, not on --detach */
    if (o->slap_commit && slap_client_exec(cl, "SET AUTOCOMMIT=0", 16, false) != B_EXIT_OK)
        goto out;
    for (;;) {
        for (size_t i = 0; i < nq; i++) {
            const struct slap_stmt *s = &q->v[i];
            if (atomic_load(&run->failed) || atomic_load(&b_stop))
                goto out;
            if (!run->only_print && o->slap_detach && i % (u64)o->slap_detach == 0) {
                myc_close(&cl->c);
                if (slap_client_connect(cl) != B_EXIT_OK)
                    goto out;
            }
            if (s->type == SLAP_T_SELECT_KEY || s->type == SLAP_T_UPDATE_KEY) {
                if (run->nkeys) { /* as mysqlslap: no key, no statement (still counted) */
                    kb.len = 0;
                    buf_printf(&kb, "%s '%s'", s->sql, run->keys[rnd_next(&cl->rng) % run->nkeys]);
                    if (slap_client_exec(cl, kb.p, kb.len, true) != B_EXIT_OK)
                        goto out;
                }
            } else if (slap_client_exec(cl, s->sql, s->len, true) != B_EXIT_OK)
                goto out;
            cl->queries++;
            if (o->slap_commit && ++commits == (u64)o->slap_commit) {
                commits = 0;
                if (slap_client_exec(cl, "COMMIT", 6, false) != B_EXIT_OK)
                    goto out;
            }
            if (run->limit && cl->queries == run->limit)
                goto done;
        }
        if (!run->limit || cl->queries >= run->limit || nq == 0)
            break;
    }
done:
    if (o->slap_commit)
        (void)slap_client_exec(cl, "COMMIT", 6, false);
out:
    buf_free(&kb);
    myc_close(&cl->c);
    myc_result_free(&cl->r);
    return NULL;
}

/* What one timed run measured. */
struct slap_lat {
    u64 queries, sum, min, max;
};

/* One timed run of conc clients (mysqlslap's run_scheduler): threads created, released
 * together, joined; *ms is the whole milliseconds from release to the last one's end. Under
 * --only-print the clients run one after the other (a stable statement stream). */
static int slap_clients(struct slap_run *run, i64 conc, struct hist *h, struct slap_lat *lat,
                        u64 *ms)
{
    struct slap_client *cl = b_xcalloc((size_t)conc, sizeof(*cl));
    pthread_attr_t attr;
    i64 started = 0;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)512 << 10);
    run->go = run->only_print;
    for (i64 i = 0; i < conc; i++) {
        cl[i].run = run;
        cl[i].id = (int)i;
        cl[i].lat_min = UINT64_MAX;
        rnd_seed(&cl[i].rng);
        if (h)
            cl[i].h = b_xcalloc(1, sizeof(struct hist));
        if (run->only_print) {
            slap_client_main(&cl[i]);
            continue;
        }
        int err = pthread_create(&cl[i].tid, &attr, slap_client_main, &cl[i]);
        if (err) {
            struct b_err e;
            memset(&e, 0, sizeof(e));
            b_hint(&e, "bench runs a thread per client: lower --concurrency, or raise the "
                       "limits on threads (ulimit -u) and memory");
            b_fail(&e, B_EXIT_ENV, "slap: cannot start client thread %lld of %lld: %s",
                   (long long)i + 1, (long long)conc, strerror(err));
            slap_failed(run, &e);
            break;
        }
        started++;
    }
    pthread_attr_destroy(&attr);
    pthread_mutex_lock(&run->mu);
    run->go = true;
    pthread_cond_broadcast(&run->cv);
    pthread_mutex_unlock(&run->mu);
    u64 t0 = clk_now_ns();
    for (i64 i = 0; i < started; i++)
        pthread_join(cl[i].tid, NULL);
    *ms = run->only_print ? 0 : (clk_now_ns() - t0) / 1000000u;
    for (i64 i = 0; i < conc; i++) {
        lat->queries += cl[i].queries;
        if (cl[i].h) {
            hist_add(h, cl[i].h);
            lat->sum += cl[i].lat_sum;
            lat->min = B_MIN(lat->min, cl[i].lat_min);
            lat->max = B_MAX(lat->max, cl[i].lat_max);
            free(cl[i].h);
        }
    }
    free(cl);
    return atomic_load(&run->failed) ? run->err.ex : B_EXIT_OK;
}

/* ---- schema: drop (only our own), create, pre-load, the key list ---- */

struct slap_exists {
    i64 schemas, tables;
};

static int slap_exists_row(void *ctx, const struct myc_result *r, const struct my_str *v)
{
    struct slap_exists *x = ctx;
    if (r->ncols >= 2) {
        x->schemas = v[0].p ? strtoll(v[0].p, NULL, 10) : 0;
        x->tables = v[1].p ? strtoll(v[1].p, NULL, 10) : 0;
    }
    return 0;
}

/* name as a quoted identifier: in backticks, a backtick doubled (a name holding "`; DROP
 * DATABASE x; -- " stays one name on the multi-statement main connection). */
static void slap_ident(struct buf *b, const char *name)
{
    buf_put(b, "`", 1);
    for (const char *s = name; *s; s++)
        buf_put(b, *s == '`' ? "``" : s, *s == '`' ? 2 : 1);
    buf_put(b, "`", 1);
}

/* DROP SCHEMA IF EXISTS, refused for a schema that exists and that this run did not create
 * (mysqlslap drops it silently: spec 7), unless --force-drop-existing-schema; not sent when
 * the check finds no such schema (--only-print prints it). */
static int slap_drop(struct slap_run *run)
{
    const struct bench_opts *o = run->o;
    if (!run->only_print && !run->schema_ours && !o->slap_force_drop) {
        struct buf lit = {0};
        struct slap_exists x = {0, 0};
        for (const char *s = o->slap_schema; *s; s++)
            buf_printf(&lit, "%s%c", *s == '\'' || *s == '\\' ? "\\" : "", *s);
        struct buf q = {0};
        buf_printf(&q, "SELECT (SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE "
                       "SCHEMA_NAME = '%s'), (SELECT COUNT(*) FROM information_schema.TABLES "
                       "WHERE TABLE_SCHEMA = '%s')",
                   lit.p ? lit.p : "", lit.p ? lit.p : "");
        int rc = myc_query(&run->c, q.p, q.len, &run->r, slap_exists_row, &x);
        buf_free(&lit);
        if (rc < 0) {
            int ex = slap_sql_error(run, "checking whether the schema exists", &run->c, q.p,
                                    q.len);
            buf_free(&q);
            return ex;
        }
        buf_free(&q);
        if (x.schemas > 0) {
            struct b_err e;
            memset(&e, 0, sizeof(e));
            b_hint(&e, "bench drops only a schema it created in this run: name a new one "
                       "(--create-schema=NAME), or run --query alone on this one's data "
                       "(--force-drop-existing-schema drops it, as mysqlslap does)");
            b_fail(&e, B_EXIT_ENV, "slap: refusing to drop schema `%s`: it exists (%lld "
                                   "table%s) and was not created by this run",
                   o->slap_schema, (long long)x.tables, x.tables == 1 ? "" : "s");
            return slap_failed(run, &e);
        }
        return B_EXIT_OK; /* nothing to drop: a DROP now could hit one made since the check
                           * by another client; CREATE SCHEMA (no IF NOT EXISTS) fails on it */
    }
    struct buf q = {0};
    buf_printf(&q, "DROP SCHEMA IF EXISTS ");
    slap_ident(&q, o->slap_schema);
    int ex = slap_main_exec(run, "dropping the schema", q.p, q.len);
    buf_free(&q);
    if (ex == B_EXIT_OK)
        run->schema_ours = false;
    return ex;
}

/* mysqlslap's create_schema: CREATE SCHEMA, USE, then the create list; with -a until
 * --auto-generate-sql-write-number statements ran (the CREATE TABLE once, INSERTs cycled). */
static int slap_create(struct slap_run *run, const char *engine, const char *eopt)
{
    const struct bench_opts *o = run->o;
    const struct slap_list *l = &run->p->create;
    size_t n = slap_live(l), start = 0;
    u64 count = 0, want = (u64)o->slap_write_number;
    struct buf eb = {0};
    int ex;
    slap_note(run, 2, "Loading Pre-data", 16);
    buf_printf(&eb, "CREATE SCHEMA ");
    slap_ident(&eb, o->slap_schema);
    ex = slap_main_exec(run, "creating the schema", eb.p, eb.len);
    buf_free(&eb);
    if (ex != B_EXIT_OK)
        return ex;
    run->schema_ours = true;
    if (run->only_print) {
        slap_emit(run, "use ", 4, o->slap_schema, strlen(o->slap_schema));
        slap_emit(run, ";\n", 2, "", 0);
    } else if (myc_init_db(&run->c, o->slap_schema) < 0)
        return slap_sql_error(run, "selecting the schema", &run->c, o->slap_schema,
                              strlen(o->slap_schema));
    for (;;) {
        for (size_t i = start; i < n; i++, count++) {
            const struct slap_stmt *s = &l->v[i];
            if (o->slap_auto && count == want)
                goto done;
            if (engine && s->type == SLAP_T_CREATE_TABLE) {
                eb.len = 0;
                buf_printf(&eb, "%s Engine = %s%s%s", s->sql, engine, *eopt ? " " : "", eopt);
                ex = slap_main_exec(run, "create statement", eb.p, eb.len);
            } else
                ex = slap_main_exec(run, "create statement", s->sql, s->len);
            if (ex != B_EXIT_OK) {
                buf_free(&eb);
                return ex;
            }
        }
        if (!o->slap_auto || count >= want || n <= 1)
            break;
        start = 1; /* the CREATE TABLE runs once */
    }
done:
    buf_free(&eb);
    return B_EXIT_OK;
}

static void slap_keys_free(struct slap_run *run)
{
    for (size_t i = 0; i < run->nkeys; i++)
        free(run->keys[i]);
    free(run->keys);
    run->keys = NULL;
    run->nkeys = 0;
}

static int slap_key_row(void *ctx, const struct myc_result *r, const struct my_str *v)
{
    struct slap_run *run = ctx;
    (void)r;
    if (!v[0].p)
        return 0;
    run->keys = realloc(run->keys, (run->nkeys + 1) * sizeof(char *));
    if (!run->keys)
        b_die("out of memory for %zu keys", run->nkeys + 1);
    char *k = b_xmalloc(v[0].len + 1);
    memcpy(k, v[0].p, v[0].len);
    k[v[0].len] = 0;
    run->keys[run->nkeys++] = k;
    return 0;
}

/* The keys of t1 for key SELECTs and UPDATEs (a dummy one under --only-print or blackhole). */
static int slap_keys(struct slap_run *run, const char *engine)
{
    slap_keys_free(run);
    if (run->only_print || (engine && strstr(engine, "blackhole"))) {
        run->keys = b_xcalloc(1, sizeof(char *));
        run->keys[0] = b_xstrdup(SLAP_DUMMY_KEY);
        run->nkeys = 1;
        return B_EXIT_OK;
    }
    slap_note(run, 3, "SELECT id from t1;", 18);
    if (myc_query(&run->c, "SELECT id from t1", 17, &run->r, slap_key_row, run) < 0)
        return slap_sql_error(run, "reading the primary keys", &run->c, "SELECT id from t1", 17);
    return B_EXIT_OK;
}

/* --pre-query / --post-query: on the main connection, results discarded. */
static int slap_list_exec(struct slap_run *run, const char *what, const struct slap_list *l)
{
    int ex = B_EXIT_OK;
    for (size_t i = 0; i < slap_live(l) && ex == B_EXIT_OK; i++)
        ex = slap_main_exec(run, what, l->v[i].sql, l->v[i].len);
    return ex;
}

/* Its name for messages: signal number 0 is none. */
static const char *slap_signame(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } t[] = {{SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"},
             {SIGILL, "SIGILL"},   {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},
             {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"},
             {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
             {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}};
    for (size_t i = 0; i < countof(t); i++)
        if (t[i].sig == sig)
            return t[i].name;
    return "SIG?";
}

/*
 * slap_shown - cmd for a message into dst (cap >= 4): its first 200 bytes escaped (my_escape),
 * "..." appended when bytes were left out, by the 200-byte cut or by dst's room.
 */
static void slap_shown(char *dst, size_t cap, const char *cmd)
{
    char full[4 * 200 + 1]; /* each byte escapes to at most 4 characters */
    size_t len = strlen(cmd), in = B_MIN(len, (size_t)200);
    my_escape(dst, cap - 3, cmd, in);
    my_escape(full, sizeof(full), cmd, in);
    if (len > in || strlen(dst) < strlen(full))
        memcpy(dst + strlen(dst), "...", 4);
}

/*
 * --pre-system / --post-system (what): cmd through /bin/sh -c, as mysqlslap's system(3): each
 * iteration, before the pre-queries and after the post-queries, --only-print included (as
 * mariadb-slap; the stream held so far is written out first, so the command's own output
 * comes after it). The child starts with no signal blocked and SIGPIPE, SIGINT, SIGTERM at
 * their defaults. A status other than 0 fails the run with it (mysqlslap warns and goes on).
 * The child runs in a process group of its own (a terminal's Ctrl-C reaches bench, not it);
 * the wait wakes on a stop signal: the group gets SIGTERM, SIGKILL 2 s later or as soon as
 * sh has ended (nothing it started outlives the run), and the run ends interrupted.
 */
static int slap_system(struct slap_run *run, const char *what, const char *cmd)
{
    const struct res_sink *k = run->res->sink;
    struct b_err e;
    char shown[240];
    int st = 0, err;
    pid_t pid;
    if (!*cmd)
        return B_EXIT_OK;
    memset(&e, 0, sizeof(e));
    slap_shown(shown, sizeof(shown), cmd);
    if (atomic_load(&b_stop)) {
        b_fail(&e, B_EXIT_FAIL, "slap: %s: %s", what, slap_stopped());
        return slap_failed(run, &e);
    }
    if (k && k->out) {
        pthread_mutex_lock(&run->mu);
        k->out(k->ctx, NULL, 0);
        pthread_mutex_unlock(&run->mu);
    }
    posix_spawnattr_t a;
    sigset_t none, dfl;
    sigemptyset(&none);
    sigemptyset(&dfl);
    sigaddset(&dfl, SIGPIPE);
    sigaddset(&dfl, SIGINT);
    sigaddset(&dfl, SIGTERM);
    posix_spawnattr_init(&a);
    posix_spawnattr_setsigmask(&a, &none);
    posix_spawnattr_setsigdefault(&a, &dfl);
    posix_spawnattr_setpgroup(&a, 0); /* its own group: a stop signals all it started */
    posix_spawnattr_setflags(&a, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                     POSIX_SPAWN_SETPGROUP);
    char sh[] = "sh", dash_c[] = "-c";
    char *argv[] = {sh, dash_c, (char *)(uintptr_t)cmd, NULL};
    err = posix_spawn(&pid, "/bin/sh", NULL, &a, argv, environ);
    posix_spawnattr_destroy(&a);
    if (err) {
        b_fail(&e, B_EXIT_ENV, "slap: %s '%s': cannot start /bin/sh: %s (%s)", what, shown,
               strerror(err), b_errno_name(err));
        return slap_failed(run, &e);
    }
    u64 nap = 1000000u, killed_at = 0;
    for (;;) {
        siginfo_t si;
        memset(&si, 0, sizeof(si));
        /* WNOWAIT: sh stays a zombie, so its pid (the group's id) is not reused meanwhile */
        int w = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT);
        if (w == 0 && si.si_pid == pid) {
            if (killed_at) /* what sh started and left behind in the group */
                kill(-pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            break;
        }
        if (w < 0 && errno != EINTR) {
            err = errno;
            b_fail(&e, B_EXIT_ENV, "slap: %s '%s': waiting for it: %s (%s)", what, shown,
                   strerror(err), b_errno_name(err));
            return slap_failed(run, &e);
        }
        if (atomic_load(&b_stop) && !killed_at) {
            kill(-pid, SIGTERM);
            killed_at = clk_now_ns();
        } else if (killed_at && clk_now_ns() - killed_at > 2000000000u)
            kill(-pid, SIGKILL);
        clk_sleep_until(clk_now_ns() + nap);
        nap = B_MIN(nap * 2, (u64)50000000u); /* 1 ms, doubling to 50 ms */
    }
    if (killed_at)
        b_fail(&e, B_EXIT_FAIL, "slap: %s '%s': %s", what, shown, slap_stopped());
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return B_EXIT_OK;
    else if (WIFEXITED(st))
        b_fail(&e, B_EXIT_FAIL, "slap: %s '%s' exited with status %d", what, shown,
               WEXITSTATUS(st));
    else
        b_fail(&e, B_EXIT_FAIL, "slap: %s '%s' was killed by signal %d (%s)", what, shown,
               WTERMSIG(st), slap_signame(WTERMSIG(st)));
    return slap_failed(run, &e);
}

/* One engine x concurrency: iterations timed, the step with its statistics. */
static int slap_block(struct slap_run *run, const char *engine, const char *eopt, i64 conc)
{
    const struct bench_opts *o = run->o;
    const struct slap_plan *p = run->p;
    u64 sum = 0, mn = UINT64_MAX, mx = 0;
    struct hist *h = o->slap_latency ? b_xcalloc(1, sizeof(struct hist)) : NULL;
    struct slap_lat lat = {0, 0, UINT64_MAX, 0};
    int ex = B_EXIT_OK;
    run->limit = slap_limit(o, p, conc);
    slap_note(run, 2, "Starting Concurrency Test", 25);
    for (i64 it = 0; it < o->slap_iterations && ex == B_EXIT_OK && !atomic_load(&b_stop); it++) {
        u64 ms = 0;
        if (p->drop && (ex = slap_drop(run)) != B_EXIT_OK)
            break;
        if (p->create.n && (ex = slap_create(run, engine, eopt)) != B_EXIT_OK)
            break;
        slap_note(run, 2, "Generating primary key list", 27); /* as mysqlslap: always */
        if (p->keyed && o->slap_auto && (ex = slap_keys(run, engine)) != B_EXIT_OK)
            break;
        if (o->slap_commit &&
            (ex = slap_main_exec(run, "SET AUTOCOMMIT=0", "SET AUTOCOMMIT=0", 16)) != B_EXIT_OK)
            break;
        if ((ex = slap_system(run, "--pre-system", o->slap_pre_system)) != B_EXIT_OK ||
            (ex = slap_list_exec(run, "--pre-query", &p->pre)) != B_EXIT_OK)
            break;
        if ((ex = slap_clients(run, conc, h, &lat, &ms)) != B_EXIT_OK)
            break;
        if ((ex = slap_list_exec(run, "--post-query", &p->post)) != B_EXIT_OK ||
            (ex = slap_system(run, "--post-system", o->slap_post_system)) != B_EXIT_OK)
            break;
        sum += ms;
        mn = B_MIN(mn, ms);
        mx = B_MAX(mx, ms);
    }
    slap_keys_free(run);
    if (ex == B_EXIT_OK && atomic_load(&b_stop)) {
        struct b_err e;
        memset(&e, 0, sizeof(e));
        b_fail(&e, B_EXIT_FAIL, "slap: %s", slap_stopped());
        ex = slap_failed(run, &e);
    }
    if (ex != B_EXIT_OK) {
        free(h);
        return ex;
    }
    slap_note(run, 2, "Generating stats", 16);
    struct res *st = res_step(run->res, run->res->w, "slap");
    u64 avg = sum / (u64)o->slap_iterations;
    res_fact_str(st, "engine", "%s", engine ? engine : "");
    res_fact_str(st, "load_type", "%s", o->slap_load_type);
    res_fact_int(st, "clients", conc);
    res_fact_int(st, "queries_per_client", (i64)run->limit);
    res_fact_int(st, "iterations", o->slap_iterations);
    res_fact_int(st, "avg_ms", (i64)avg);
    res_fact_int(st, "min_ms", (i64)mn);
    res_fact_int(st, "max_ms", (i64)mx);
    res_fact_num(st, "avg_s", (double)avg / 1e3);
    res_fact_num(st, "min_s", (double)mn / 1e3);
    res_fact_num(st, "max_s", (double)mx / 1e3);
    res_fact_int(st, "queries", (i64)lat.queries);
    st->elapsed_s = (double)sum / 1e3;
    if (h) { /* per-query latency of all iterations: the result's final statistics */
        load_snap_init(&st->final.d, 1, 0);
        hist_add(st->final.d.hist, h);
        st->final.d.events = hist_total(h);
        st->final.d.lat_sum_ns = lat.sum;
        st->final.d.lat_min_ns = st->final.d.events ? lat.min : 0;
        st->final.d.lat_max_ns = lat.max;
        st->final.threads = 1;
        st->final.window_s = st->final.total_s = st->final.at_s = (double)sum / 1e3;
        st->have_final = true;
        free(h);
    }
    st->complete = true;
    st->end = RES_END_LIMIT;
    return B_EXIT_OK;
}

BENCH_API int slap_main(struct res *res)
{
    struct bench_opts *o = res->o;
    struct slap_plan p;
    struct slap_run run;
    int ex;
    memset(&run, 0, sizeof(run));
    run.c.fd = -1;
    o->tls_preferred = true; /* a mysql client: the client's default TLS (PREFERRED) */
    ex = slap_build(o, &p, &res->err);
    if (ex != B_EXIT_OK) {
        slap_plan_free(&p);
        return ex;
    }
    run.res = res;
    run.o = o;
    run.p = &p;
    run.only_print = o->slap_only_print;
    pthread_mutex_init(&run.mu, NULL);
    pthread_cond_init(&run.cv, NULL);
    if (o->slap_auto) {
        slap_note(&run, 2, "Building Create Statements for Auto", 35);
        slap_note(&run, 2, "Building Query Statements for Auto", 34);
        const char *g = o->slap_load_type[0] == 'r'   ? "Generating SELECT Statements for Auto"
                        : o->slap_load_type[0] == 'k' ? "Generating SELECT for keys Statements "
                                                        "for Auto"
                        : o->slap_load_type[0] == 'w' ? "Generating INSERT Statements for Auto"
                                                      : NULL;
        if (g)
            slap_note(&run, 2, g, strlen(g));
    }
    slap_note(&run, 2, "Parsing engines to use.", 23);
    res_fact_str(res, "schema", "%s", o->slap_schema);
    res_fact_bool(res, "only_print", run.only_print);
    if (!run.only_print)
        ex = slap_connect(&run, 0, &run.cc, &run.c, &run.r, NULL);
    if (ex == B_EXIT_OK && !run.only_print) {
        res_fact_str(res, "server", "%s", run.c.version);
        res_fact_str(res, "target", "%s", run.c.target);
    }
    if (ex == B_EXIT_OK && *o->slap_sql_mode) {
        struct buf q = {0};
        buf_printf(&q, "SET sql_mode = ");
        slap_ident(&q, o->slap_sql_mode); /* as MySQL's mysqlslap: in backticks */
        ex = slap_main_exec(&run, "--sql-mode", q.p, q.len);
        buf_free(&q);
    }
    size_t ne = B_MAX(p.nengines, (size_t)1);
    for (size_t e = 0; e < ne && ex == B_EXIT_OK; e++) {
        const char *eng = p.nengines ? p.engines[e] : NULL;
        const char *eopt = p.nengines ? p.engine_opts[e] : "";
        for (size_t k = 0; k < p.nconc && ex == B_EXIT_OK; k++)
            ex = slap_block(&run, eng, eopt, p.conc[k]);
        if (ex == B_EXIT_OK && p.drop)
            ex = slap_drop(&run);
    }
    if (ex != B_EXIT_OK) {
        res->err = run.err;
        if (run.schema_ours && p.drop && run.c.fd >= 0) {
            struct buf q = {0}; /* best effort: what this run created goes */
            buf_printf(&q, "DROP SCHEMA IF EXISTS ");
            slap_ident(&q, o->slap_schema);
            (void)myc_query(&run.c, q.p, q.len, &run.r, NULL, NULL);
            buf_free(&q);
        }
    }
    if (run.only_print)
        res_fact_str(res, "statements", "%s", run.out.p ? run.out.p : "");
    res->complete = ex == B_EXIT_OK;
    res->end = ex == B_EXIT_OK ? RES_END_LIMIT : RES_END_FAILED;
    buf_free(&run.out);
    myc_close(&run.c);
    myc_result_free(&run.r);
    pthread_mutex_destroy(&run.mu);
    pthread_cond_destroy(&run.cv);
    slap_plan_free(&p);
    return ex;
}

/* ---- the command line: mysqlslap's options as bench's ---- */


/* Long options of slap that take a value: "--name value" joins the next word. */
static bool slap_valopt(const char *name, size_t len)
{
    static const char *const more[] = {"percentile"};
    const struct opt_def *d = opt_find(opt_slap, countof(opt_slap), name, len);
    if (d)
        return d->type != OPT_BOOL && strncmp(d->name, "csv", 3);
    for (size_t i = 0; i < countof(more); i++)
        if (strlen(more[i]) == len && !strncmp(more[i], name, len))
            return true;
    return false;
}

static void slap_push(char ***v, int *n, char *s)
{
    *v = realloc(*v, (size_t)(*n + 2) * sizeof(char *));
    if (!*v)
        b_die("out of memory for arguments");
    (*v)[(*n)++] = s;
    (*v)[*n] = NULL;
}

static char *slap_fmt(const char *fmt, ...) B_PRINTF(1, 2);
static char *slap_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = b_xmalloc((size_t)B_MAX(n, 0) + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)B_MAX(n, 0) + 1, fmt, ap);
    va_end(ap);
    return s;
}

BENCH_API int slap_args(int argc, char **argv, bool forced, char ***out, const char **bad)
{
    static const struct {
        char s;
        const char *l;
    } vals[] = {{'c', "concurrency"}, {'e', "engine"},           {'i', "iterations"},
                {'q', "query"},       {'x', "number-char-cols"}, {'y', "number-int-cols"},
                {'F', "delimiter"}};
    char **v = NULL;
    int n = 0, verbose = 0, npos = 0;
    bool help = false;
    *out = NULL;
    *bad = NULL;
    if (!forced) { /* is the test slap? The first word that is not an option or its value */
        const char *test = NULL;
        for (int i = 1; i < argc && !test; i++) {
            const char *a = argv[i];
            if (a[0] != '-')
                test = a;
            else if (a[1] && strchr("hPuSD", a[1]) && !a[2])
                i++;
        }
        if (!test || strcmp(test, "slap"))
            return 0;
    }
    slap_push(&v, &n, argv[0]);
    if (forced)
        slap_push(&v, &n, b_xstrdup("slap"));
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] == '-' && a[2]) {
            const char *name = a + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            char nm[64];
            snprintf(nm, sizeof(nm), "%.*s", (int)B_MIN(len, sizeof(nm) - 1), name);
            for (char *q = nm; *q; q++)
                *q = *q == '_' ? '-' : *q;
            if (!strcmp(nm, "verbose") && !eq)
                verbose++;
            else if (!strcmp(nm, "csv") && !eq)
                slap_push(&v, &n, b_xstrdup("--csv=-"));
            else if (!strcmp(nm, "skip-ssl"))
                slap_push(&v, &n, b_xstrdup("--ssl-mode=DISABLED"));
            else if (!strcmp(nm, "ssl") && !eq)
                slap_push(&v, &n, b_xstrdup("--ssl-mode=PREFERRED"));
            else if (!strcmp(nm, "protocol")) { /* tcp/socket follow from -h / -S */
                if (!eq)
                    i++;
            } else if (!strcmp(nm, "help") && forced)
                help = true;
            else if (!strncmp(nm, "skip-", 5) && !eq &&
                     opt_find(opt_slap, countof(opt_slap), nm + 5, strlen(nm + 5)))
                slap_push(&v, &n, slap_fmt("--%s=off", nm + 5));
            else if (!eq && i + 1 < argc && slap_valopt(nm, strlen(nm)))
                slap_push(&v, &n, slap_fmt("--%s=%s", nm, argv[++i]));
            else if (!eq && slap_valopt(nm, strlen(nm))) { /* the last word: no value */
                *bad = a;
                break;
            }
            else if (!eq && i + 1 < argc && (!strcmp(nm, "host") || !strcmp(nm, "port") ||
                                             !strcmp(nm, "user") || !strcmp(nm, "socket"))) {
                slap_push(&v, &n, b_xstrdup(a)); /* the client's: cli_mysql_args takes both */
                slap_push(&v, &n, b_xstrdup(argv[++i]));
            }
            else
                slap_push(&v, &n, b_xstrdup(a));
            if (!strcmp(nm, "percentile"))
                slap_push(&v, &n, b_xstrdup("--slap-latency=on"));
        } else if (a[0] == '-' && a[1] && a[1] != '-') {
            if (strchr("hPuSDpC", a[1])) { /* the mysql client's: cli_mysql_args maps them */
                slap_push(&v, &n, b_xstrdup(a));
                if (strchr("hPuSD", a[1]) && !a[2] && i + 1 < argc)
                    slap_push(&v, &n, b_xstrdup(argv[++i]));
                continue;
            }
            for (const char *q = a + 1; *q; q++) {
                size_t k = 0;
                while (k < countof(vals) && vals[k].s != *q)
                    k++;
                if (k < countof(vals)) { /* takes the rest, or the next word */
                    const char *val = q[1] ? q + 1 : i + 1 < argc ? argv[++i] : NULL;
                    if (!val) {
                        *bad = slap_fmt("-%c", *q);
                        slap_push(&v, &n, (char *)(uintptr_t)*bad); /* freed with v's words */
                        break;
                    }
                    slap_push(&v, &n, slap_fmt("--%s=%s", vals[k].l, val));
                    break;
                }
                if (*q == 'a')
                    slap_push(&v, &n, b_xstrdup("--auto-generate-sql=on"));
                else if (*q == 'T')
                    slap_push(&v, &n, b_xstrdup("--debug-info=on"));
                else if (*q == 's')
                    slap_push(&v, &n, b_xstrdup("--silent=on"));
                else if (*q == 'v')
                    verbose++;
                else if (*q == 'V')
                    slap_push(&v, &n, b_xstrdup("--version"));
                else if (*q == '?' || *q == 'I')
                    help = true;
                else { /* left for the usual message about an unknown option */
                    slap_push(&v, &n, slap_fmt("-%c", *q));
                    break;
                }
            }
        } else if (!forced || !strcmp(a, "help"))
            slap_push(&v, &n, b_xstrdup(a));
        else if (++npos > 2) { /* mysqlslap ignores two positionals; a third is an error */
            *bad = a;
            break;
        }
        if (*bad)
            break;
    }
    if (*bad) {
        *out = v;
        return -(npos > 2 ? 2 : 1);
    }
    if (verbose)
        slap_push(&v, &n, slap_fmt("--verbose=%d", verbose));
    if (help)
        slap_push(&v, &n, b_xstrdup(forced ? "help" : "--help"));
    *out = v;
    return n;
}

/*== 21 all_ : bench all: the one-page sizing report, checks, settings =======*/
/*
 * `bench all [--dir=DIR] [mysql options] [--quick|--thorough]`: host facts, then a plan of
 * steps (all_plan), each a sub-result by the run path (wl_run) or a command on its own struct
 * res; the measures the page needs as facts of the top result under dotted names (cpu.*,
 * mem.*, sched.*, disk.*, db.*: the JSON paths --expect names); checks (all_checks) and
 * derived settings (all_settings) as steps of their own ("check", "setting"). Prints nothing:
 * rep_all shows the page. The exit code: 0 all pass, 1 some WARN, 2 some FAIL, 3 could not run.
 */

enum { ALL_QUICK, ALL_DEFAULT, ALL_THOROUGH };
enum { ALL_NEED_NONE, ALL_NEED_DISK, ALL_NEED_DB };
enum { ALL_PASS, ALL_INFO, ALL_WARN, ALL_FAIL };
static const char *const all_verdicts[] = {"PASS", "INFO", "WARN", "FAIL"};

struct all_ctx {
    struct res *res;         /* the command's result */
    struct bench_opts *o;    /* the user's options */
    int level;               /* ALL_QUICK.. */
    int ncpu;                /* usable CPUs */
    bool disk;               /* disk steps run */
    bool direct;             /* O_DIRECT on the test file */
    u64 file_bytes;          /* the test file */
    int step, nsteps;        /* progress */
    u64 t0;
};

/* One step of the plan: the workload it runs by wl_run with its options for the level. */
struct all_step {
    const char *name;        /* the step's fact "step" */
    const char *wl;          /* workload */
    int need;                /* ALL_NEED_* */
    double secs[3];          /* --time for quick, default, thorough */
    void (*set)(struct bench_opts *so, const struct all_ctx *x, const struct all_step *s);
    void (*take)(struct all_ctx *x, const struct all_step *s, const struct res *st);
    const char *mode;        /* fileio: --file-test-mode */
    int qd;                  /* fileio: queue depth (0: sync, QD1) */
    u64 bs;                  /* fileio: block size */
    const char *key;         /* fileio: the facts' prefix ("disk.randread_qd1") */
};

static char all_direct[] = "direct", all_none[] = "";
static char all_m_seqrewr[] = "seqrewr", all_m_rndrd[] = "rndrd", all_m_rndwr[] = "rndwr",
            all_m_seqrd[] = "seqrd";

static double all_num(const struct res *res, const char *key, bool *have)
{
    const struct res_fact *f = res_fact(res, key);
    bool ok = f && (f->type == RES_INT || f->type == RES_NUM || f->type == RES_BOOL);
    if (have)
        *have = ok;
    return !ok ? 0 : f->type == RES_NUM ? f->num : (double)f->i;
}

static const char *all_str(const struct res *res, const char *key)
{
    const struct res_fact *f = res_fact(res, key);
    return f && f->type == RES_STR && f->str ? f->str : "";
}

static double all_rate(const struct res *st, u64 n)
{
    return st->final.total_s > 0 ? (double)n / st->final.total_s : 0;
}

static double all_pct_ms(const struct hist *h, double p)
{
    return (double)hist_percentile(h, p, 0, UINT64_MAX) / 1e6;
}

/* ---- the steps' options and what each takes from its result ---- */

static void all_set_cpu(struct bench_opts *so, const struct all_ctx *x, const struct all_step *s)
{
    so->threads = strstr(s->name, "all") ? x->ncpu : 1;
}

static void all_take_cpu(struct all_ctx *x, const struct all_step *s, const struct res *st)
{
    bool all = strstr(s->name, "all") != NULL;
    double r = all_rate(st, st->final.d.events);
    res_fact_num(x->res, all ? "cpu.events_per_s_all" : "cpu.events_per_s", r);
    if (all) {
        bool h;
        double one = all_num(x->res, "cpu.events_per_s", &h);
        res_fact_int(x->res, "cpu.threads_all", x->ncpu);
        if (h && one > 0)
            res_fact_num(x->res, "cpu.scaling_efficiency", r / (one * x->ncpu));
    }
}

static void all_set_stream(struct bench_opts *so, const struct all_ctx *x,
                           const struct all_step *s)
{
    (void)s;
    so->memory_mode = MEM_MODE_STREAM;
    so->threads = x->ncpu;
    so->memory_passes = x->level == ALL_QUICK ? 3 : x->level == ALL_DEFAULT ? 5 : 10;
    so->memory_total_size = x->level == ALL_THOROUGH ? MEM_TOTAL_DEFAULT
                            : x->level == ALL_QUICK  ? 3 * (32ull << 20)
                                                     : 3 * (128ull << 20);
}

static void all_take_stream(struct all_ctx *x, const struct all_step *s, const struct res *st)
{
    static const char *const k[] = {"copy", "scale", "add", "triad"};
    (void)s;
    for (size_t i = 0; i < countof(k); i++) {
        char from[48], to[48];
        bool h;
        snprintf(from, sizeof(from), "stream_%s_mb_per_s", k[i]);
        snprintf(to, sizeof(to), "mem.stream_%s_mb_per_s", k[i]);
        double v = all_num(st, from, &h);
        if (h)
            res_fact_num(x->res, to, v);
    }
    bool h;
    double a = all_num(st, "array_bytes", &h);
    if (h)
        res_fact_int(x->res, "mem.stream_array_bytes", (i64)a);
}

/* Is the last-level cache the hardware claims plausible? A hypervisor's CPUID can claim an
 * L3 no chip has (a 2-CPU VM here says 508 MiB): more than 256 MiB and more than 32 MiB per
 * usable CPU is taken as such (a real 504 MB Xeon L3 comes with >= 64 CPUs). */
static bool all_llc_plausible(u64 llc, int ncpu)
{
    return llc <= (256ull << 20) || llc <= (u64)(ncpu > 1 ? ncpu : 1) * ((u64)32 << 20);
}

/* The latency curve's largest working set: 4x the LLC (16 MiB where the claim is not
 * plausible: the curve then finds the real one, mem.latency_dram_4x_llc says if 4x held),
 * capped by the level (quick 32 MiB, default 512 MiB) and by
 * a quarter of the available memory; a power of two. */
static u64 all_lat_bytes(u64 llc, bool plausible, int level, u64 avail)
{
    u64 want = 4 * (plausible && llc ? llc : 16ull << 20);
    u64 cap = level == ALL_QUICK ? 32ull << 20 : level == ALL_DEFAULT ? 512ull << 20 : UINT64_MAX;
    if (avail)
        cap = B_MIN(cap, avail / 4);
    want = B_MIN(want, cap);
    u64 p = 4096;
    while (p * 2 <= want)
        p *= 2;
    return p;
}

static void all_set_latency(struct bench_opts *so, const struct all_ctx *x,
                            const struct all_step *s)
{
    (void)s;
    struct mem_caches c;
    mem_caches_read(&c);
    so->memory_mode = MEM_MODE_LATENCY;
    so->threads = 1;
    so->memory_total_size = all_lat_bytes(mem_llc(&c), all_llc_plausible(mem_llc(&c), x->ncpu),
                                          x->level, mem_available());
    /* 5 ms (quick), 10 ms (default) of loads per size; the huge-page pass only when
     * thorough (the page shows 4 KiB pages) */
    so->mem_lat_min_s = x->level == ALL_QUICK ? 0.005 : x->level == ALL_DEFAULT ? 0.01 : 0;
    so->mem_lat_nothp = x->level != ALL_THOROUGH;
}

/*
 * The plateaus of a latency curve from the curve itself. ns[i] is the latency at 4 KiB << i.
 * Noise on a busy host only ever adds time, and the true curve never falls as the working
 * set grows, so each point is first lowered to the least of it and every larger one. A knee
 * is a rise: consecutive doublings each >= 1.25x that add up to >= 1.6x; of more than three
 * the three largest count. The knees, smallest first, end L1, L2, L3; what follows the last
 * knee is DRAM when there were three, or when the last knee lies at >= half the plausible
 * LLC the hardware claims (llc 0: none plausible). A plateau is the median of its points
 * outside the rises; cap[lv] the largest working set on it (0 when that level was not seen).
 * Returns the number of knees; lat[4], cap[4] get 0 for a level not seen.
 */
#define ALL_LAT_MAX 40
static int all_lat_knees(const double *ns, int n, u64 llc, double lat[4], u64 cap[4])
{
    double e[ALL_LAT_MAX];
    int rs[ALL_LAT_MAX], re[ALL_LAT_MAX], nr = 0; /* rises: sizes rs..re are the climb */
    n = B_MIN(n, ALL_LAT_MAX);
    for (int lv = 0; lv < 4; lv++)
        lat[lv] = 0, cap[lv] = 0;
    if (n <= 0)
        return 0;
    for (int i = n - 1; i >= 0; i--)
        e[i] = i == n - 1 ? ns[i] : B_MIN(ns[i], e[i + 1]);
    for (int i = 1; i < n; i++) {
        if (!(e[i - 1] > 0) || e[i] < e[i - 1] * 1.25)
            continue;
        int j = i;
        while (j + 1 < n && e[j + 1] >= e[j] * 1.25)
            j++;
        if (e[j] >= e[i - 1] * 1.6)
            rs[nr] = i, re[nr++] = j;
        i = j;
    }
    while (nr > 3) { /* drop the smallest rise */
        int k = 0;
        for (int r = 1; r < nr; r++)
            if (e[re[r]] / e[rs[r] - 1] < e[re[k]] / e[rs[k] - 1])
                k = r;
        for (int r = k; r + 1 < nr; r++)
            rs[r] = rs[r + 1], re[r] = re[r + 1];
        nr--;
    }
    bool dram = nr == 3 || (nr > 0 && llc && ((u64)4096 << (rs[nr - 1] - 1)) * 2 >= llc) ||
                (nr > 0 && !llc && nr >= 2);
    for (int k = 0; k <= nr; k++) {
        int lo = k ? re[k - 1] + 1 : 0, hi = k < nr ? rs[k] - 1 : n - 1;
        int lv = k == nr && dram ? 3 : k;
        double pts[ALL_LAT_MAX];
        int np = 0;
        for (int i = lo; i <= hi; i++)
            pts[np++] = e[i];
        if (!np) /* a rise straight into the next: its last point stands for the level */
            pts[np++] = e[k ? re[k - 1] : 0];
        lat[lv] = mem_median(pts, np);
        cap[lv] = (u64)4096 << (k < nr ? rs[k] - 1 : n - 1);
    }
    return nr;
}

static void all_take_latency(struct all_ctx *x, const struct all_step *s, const struct res *st)
{
    static const char *const lv[] = {"l1", "l2", "l3", "dram"};
    (void)s;
    double ns[ALL_LAT_MAX], lat[4];
    u64 cap[4];
    int n = 0;
    for (int i = 0; i < st->nsteps && n < ALL_LAT_MAX; i++)
        if (!strcmp(st->steps[i].command, "size"))
            ns[n++] = all_num(&st->steps[i], "ns_per_load", NULL);
    u64 l1 = (u64)all_num(st, "l1d_bytes", NULL), l2 = (u64)all_num(st, "l2_bytes", NULL),
        l3 = (u64)all_num(st, "l3_bytes", NULL), llc = l3 ? l3 : l2;
    bool plausible = all_llc_plausible(llc, x->ncpu);
    int knees = all_lat_knees(ns, n, plausible ? llc : (l3 ? l2 : 0), lat, cap);
    res_fact_int(x->res, "mem.latency_knees", knees);
    for (size_t i = 0; i < countof(lv); i++) {
        char to[48];
        snprintf(to, sizeof(to), "mem.latency_%s_ns", lv[i]);
        if (lat[i] > 0)
            res_fact_num(x->res, to, lat[i]);
        snprintf(to, sizeof(to), "mem.latency_%s_to_bytes", lv[i]);
        if (cap[i])
            res_fact_int(x->res, to, (i64)cap[i]);
    }
    res_fact_int(x->res, "mem.cache_l1d_claimed_bytes", (i64)l1);
    res_fact_int(x->res, "mem.cache_l2_claimed_bytes", (i64)l2);
    res_fact_int(x->res, "mem.cache_l3_claimed_bytes", (i64)l3);
    res_fact_str(x->res, "mem.cache_claimed_from", "%s", all_str(st, "cache_sizes_from"));
    /* the claim against the curve: DRAM reached below a quarter of the claimed LLC */
    bool contradicted = lat[3] > 0 && llc && knees > 0 && cap[knees - 1] * 4 < llc;
    res_fact_bool(x->res, "mem.llc_claim_plausible", plausible && !contradicted);
    bool h;
    double m = all_num(st, "max_size_bytes", &h);
    if (h) {
        res_fact_int(x->res, "mem.latency_max_bytes", (i64)m);
        u64 real = plausible && !contradicted ? llc : cap[knees > 0 ? knees - 1 : 0];
        res_fact_bool(x->res, "mem.latency_dram_4x_llc", m >= 4.0 * (double)real);
    }
}

static void all_set_threads(struct bench_opts *so, const struct all_ctx *x,
                            const struct all_step *s)
{
    so->threads = x->ncpu * 2;
    if (!strcmp(s->name, "pingpong")) {
        so->threads = 1;
        so->threads_mode = 1; /* pingpong */
        so->thread_round_trips = x->level == ALL_QUICK ? 1000 : 20000;
    } else if (!strcmp(s->name, "mutex"))
        so->mutex_locks = x->level == ALL_QUICK ? 2000 : 50000;
}

static void all_take_threads(struct all_ctx *x, const struct all_step *s, const struct res *st)
{
    bool h;
    if (!strcmp(s->name, "pingpong")) {
        double v = all_num(st, "same_cpu_ns_per_switch", &h);
        if (h)
            res_fact_num(x->res, "sched.ctxsw_same_cpu_ns", v);
        v = all_num(st, "cross_cpu_ns_per_switch", &h);
        if (h)
            res_fact_num(x->res, "sched.ctxsw_cross_cpu_ns", v);
    } else if (!strcmp(s->name, "mutex"))
        res_fact_num(x->res, "sched.mutex_total_ms", st->final.total_s * 1e3);
    else
        res_fact_num(x->res, "sched.threads_events_per_s", all_rate(st, st->final.d.events));
}

static void all_set_disk(struct bench_opts *so, const struct all_ctx *x, const struct all_step *s)
{
    so->file_num = 1;
    so->file_total_size = x->file_bytes;
    so->file_block_size = s->bs;
    so->file_extra_flags = x->direct ? all_direct : all_none;
    so->file_fsync_freq = 0;
    so->file_fsync_end = false;
    so->file_test_mode = (char *)(uintptr_t)s->mode;
    so->file_io_mode = s->qd ? IO_ASYNC : IO_SYNC;
    so->file_queue_depth = s->qd;
    so->threads = 1;
    if (!strcmp(s->name, "fdatasync")) {
        so->file_fsync_freq = 1;
        so->file_fsync_mode = 1; /* fdatasync */
        so->all_step_ms = 0;     /* a whole second even in quick: its p99 needs the samples */
    }
}

static void all_take_disk(struct all_ctx *x, const struct all_step *s, const struct res *st)
{
    const struct load_snap *d = &st->final.d;
    char key[48];
    if (!strcmp(s->name, "fdatasync")) {
        const struct hist *h = d->nops > IO_OP_FSYNC ? &d->op_hist[IO_OP_FSYNC] : d->hist;
        static const struct {
            const char *k;
            double p;
        } ps[] = {{"p50", 50}, {"p99", 99}, {"p999", 99.9}};
        for (size_t i = 0; i < countof(ps); i++) {
            snprintf(key, sizeof(key), "disk.fdatasync_%s_ms", ps[i].k);
            res_fact_num(x->res, key, all_pct_ms(h, ps[i].p));
        }
        if (d->nops > IO_OP_WRITE)
            res_fact_num(x->res, "disk.fdatasync_write_p50_ms",
                         all_pct_ms(&d->op_hist[IO_OP_WRITE], 50));
        res_fact_num(x->res, "disk.fdatasync_per_s", all_rate(st, d->ctr[2]));
        return;
    }
    u64 ops = d->ctr[0] + d->ctr[1], bytes = d->ctr[3] + d->ctr[4];
    if (s->bs >= (1u << 20)) {
        snprintf(key, sizeof(key), "%s_mib_per_s", s->key);
        res_fact_num(x->res, key, all_rate(st, bytes) / 1048576.0);
        return;
    }
    const struct hist *h = d->hist;
    if (d->nops > IO_OP_WRITE)
        h = &d->op_hist[d->ctr[0] ? IO_OP_READ : IO_OP_WRITE];
    snprintf(key, sizeof(key), "%s_iops", s->key);
    res_fact_num(x->res, key, all_rate(st, ops));
    snprintf(key, sizeof(key), "%s_p50_ms", s->key);
    res_fact_num(x->res, key, all_pct_ms(h, 50));
    snprintf(key, sizeof(key), "%s_p99_ms", s->key);
    res_fact_num(x->res, key, all_pct_ms(h, 99));
    if (s->qd) {
        const struct res_fact *m = res_fact(st, "io_mode");
        bool uring = m && m->str && !strcmp(m->str, "async");
        res_fact_str(x->res, "disk.io_engine", "%s", uring ? "io_uring" : "sync");
        for (int i = 0; i < st->nwarns && !uring; i++)
            if (!strcmp(st->warns[i].code, "io_uring_fallback"))
                res_fact_str(x->res, "disk.io_engine_why", "%s", st->warns[i].msg);
    }
}

#define ALL_DISK(nm, md, q, b, k)                                                            \
    {nm, "fileio", ALL_NEED_DISK, {0.5, 3, 10}, all_set_disk, all_take_disk, md, q, b, k}

/* The plan, in order: quick / default / thorough seconds per timed step. */
static const struct all_step all_plan[] = {
    {"cpu_1", "cpu", ALL_NEED_NONE, {0.5, 2, 10}, all_set_cpu, all_take_cpu, NULL, 0, 0, NULL},
    {"cpu_all", "cpu", ALL_NEED_NONE, {0.5, 2, 10}, all_set_cpu, all_take_cpu, NULL, 0, 0,
     NULL},
    {"stream", "memory", ALL_NEED_NONE, {0, 0, 0}, all_set_stream, all_take_stream, NULL, 0, 0,
     NULL},
    {"latency", "memory", ALL_NEED_NONE, {0, 0, 0}, all_set_latency, all_take_latency, NULL, 0,
     0, NULL},
    {"threads", "threads", ALL_NEED_NONE, {0.5, 1, 5}, all_set_threads, all_take_threads, NULL, 0,
     0, NULL},
    {"mutex", "mutex", ALL_NEED_NONE, {0, 0, 0}, all_set_threads, all_take_threads, NULL, 0, 0,
     NULL},
    {"pingpong", "threads", ALL_NEED_NONE, {0, 0, 0}, all_set_threads, all_take_threads, NULL,
     0, 0, NULL},
    ALL_DISK("fdatasync", all_m_seqrewr, 0, 16384, "disk.fdatasync"),
    ALL_DISK("randread_qd1", all_m_rndrd, 0, 16384, "disk.randread_qd1"),
    ALL_DISK("randread_qd32", all_m_rndrd, 32, 16384, "disk.randread_qd32"),
    ALL_DISK("randwrite_qd1", all_m_rndwr, 0, 16384, "disk.randwrite_qd1"),
    ALL_DISK("randwrite_qd32", all_m_rndwr, 32, 16384, "disk.randwrite_qd32"),
    ALL_DISK("seqwrite", all_m_seqrewr, 8, 1u << 20, "disk.seqwrite"),
    ALL_DISK("seqread", all_m_seqrd, 8, 1u << 20, "disk.seqread"),
};

static void all_progress(struct all_ctx *x, const char *what)
{
    x->step++;
    res_say(x->res, RES_SAY_STATUS, "all: [%d/%d] %-24s %5.1f s  ", x->step, x->nsteps, what,
            (double)(clk_now_ns() - x->t0) / 1e9);
}

/* Options of a step: the user's, with the run-shaping ones reset. */
static void all_base_opts(struct bench_opts *so, const struct bench_opts *o, double secs)
{
    *so = *o;
    so->threads = 1;
    so->time_s = (i64)ceil(secs);
    so->all_step_ms = secs != floor(secs) ? (i64)(secs * 1000) : 0; /* quick's half seconds */
    so->events = 0;
    so->rate = 0;
    so->warmup_time = 0;
    so->report_interval = 0;
    so->nckpt = 0;
    so->debug = false;
    so->validate = false;
}

/* One step of the plan by the run path; a failure becomes a warning of the command. */
static void all_run_step(struct all_ctx *x, const struct all_step *s)
{
    const struct wl_def *w = wl_find(s->wl);
    struct bench_opts so;
    struct b_err e;
    all_progress(x, s->name);
    all_base_opts(&so, x->o, s->secs[x->level]);
    s->set(&so, x, s);
    memset(&e, 0, sizeof(e));
    int ex = w->check ? w->check(&so, &e) : B_EXIT_OK;
    struct res *st = res_step(x->res, w, "run");
    res_fact_str(st, "step", "%s", s->name);
    int rc = ex == B_EXIT_OK ? wl_run(w, &so, st) : B_INVALID;
    st->o = x->res->o;
    if (ex != B_EXIT_OK)
        st->err = e, st->rc = rc;
    if (rc == B_OK && st->rc == B_OK && st->have_final)
        s->take(x, s, st);
    else
        res_warn(x->res, "step_failed", NULL, "all: step %s: %s", s->name,
                 st->err.msg[0] ? st->err.msg : b_errstr(st->rc ? st->rc : rc));
}

/* The test file: written once (incompressible), used by every disk step, removed after. */
static int all_disk_file(struct all_ctx *x, bool make)
{
    struct bench_opts so;
    all_base_opts(&so, x->o, 0);
    so.file_num = 1;
    so.file_total_size = x->file_bytes;
    so.file_block_size = 1u << 20;
    so.file_extra_flags = all_none;
    struct res *st = res_step(x->res, wl_find("fileio"), make ? "prepare" : "cleanup");
    st->o = &so;
    int ex = make ? io_prepare(st) : io_cleanup(st);
    st->o = x->res->o;
    if (ex != B_EXIT_OK)
        res_warn(x->res, "step_failed", NULL, "all: fileio %s: %s",
                 make ? "prepare" : "cleanup", st->err.msg[0] ? st->err.msg : "failed");
    return ex;
}

/* Can O_DIRECT open a file in dir? (tmpfs and some FUSE/overlay say EINVAL) */
static bool all_direct_ok(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/.bench-all-direct.%ld", dir, (long)getpid());
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_DIRECT | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    close(fd);
    unlink(path);
    return true;
}

/* The disk part: tmpfs, read-only, free space decided here; the steps; the file removed. */
static int all_disk(struct all_ctx *x)
{
    const char *dir = x->o->file_dir;
    bool h;
    u64 want[3] = {256ull << 20, 1ull << 30, 4ull << 30};
    x->file_bytes = want[x->level];
    double freeb = all_num(x->res, "fs_free_bytes", &h);
    if (access(dir, W_OK) != 0 || all_num(x->res, "fs_readonly", NULL) > 0) {
        res_fact_str(x->res, "disk.status", "skipped: %s is read-only (%s)", dir,
                     errno == EROFS || all_num(x->res, "fs_readonly", NULL) > 0 ? "read-only mount"
                                                                                : "no write access");
        return B_EXIT_OK;
    }
    if (h && freeb < (double)(2 * x->file_bytes + (64u << 20))) {
        char need[32], have[32];
        unit_fmt_size(2 * x->file_bytes + (64u << 20), need, sizeof(need));
        unit_fmt_size((u64)freeb, have, sizeof(have));
        int ex = b_fail(&x->res->err, B_EXIT_ENV,
                        "all: --dir=%s has %s free; the disk tests need %s (twice the test file)",
                        dir, have, need);
        b_hint(&x->res->err, "point --dir at a filesystem with more room, or use --quick");
        return ex;
    }
    x->direct = all_direct_ok(dir);
    bool tmpfs = all_num(x->res, "fs_tmpfs", NULL) > 0;
    res_fact_int(x->res, "disk.file_bytes", (i64)x->file_bytes);
    res_fact_bool(x->res, "disk.o_direct", x->direct);
    u64 mem = os_mem_total();
    if (tmpfs)
        res_fact_str(x->res, "disk.status", "page cache measured: %s is tmpfs", dir);
    else if (!x->direct)
        res_fact_str(x->res, "disk.status", "cached, not a disk result: O_DIRECT refused in %s",
                     dir);
    else if (mem && x->file_bytes < mem)
        res_fact_str(x->res, "disk.status", "measured with O_DIRECT (file smaller than RAM: "
                                            "the page cache is bypassed, not outsized)");
    else
        res_fact_str(x->res, "disk.status", "measured with O_DIRECT");
    all_progress(x, "disk: writing test file");
    if (all_disk_file(x, true) != B_EXIT_OK) {
        (void)all_disk_file(x, false);
        return B_EXIT_OK;
    }
    x->disk = true;
    for (size_t i = 0; i < countof(all_plan) && !atomic_load(&b_stop); i++)
        if (all_plan[i].need == ALL_NEED_DISK)
            all_run_step(x, &all_plan[i]);
    (void)all_disk_file(x, false);
    return B_EXIT_OK;
}

/* ---- database: ping, the server's settings, a short OLTP ladder in a schema of its own ---- */

static const char *const all_db_vars[] = {
    "innodb_buffer_pool_size", "innodb_redo_log_capacity", "innodb_log_file_size",
    "innodb_flush_method",     "innodb_flush_log_at_trx_commit", "max_connections",
    "log_bin",                 "sync_binlog",             "innodb_io_capacity",
    /* per connection and global buffers: the max_connections ceiling (all_conn_bytes) */
    "sort_buffer_size",        "join_buffer_size",        "read_buffer_size",
    "read_rnd_buffer_size",    "thread_stack",            "binlog_cache_size",
    "net_buffer_length",       "tmp_table_size",          "max_heap_table_size",
    "key_buffer_size",         "innodb_log_buffer_size",
};

struct all_var {
    char v[64];
    bool got;
};

static int all_var_row(void *ctx, const struct myc_result *mr, const struct my_str *vals)
{
    struct all_var *av = ctx;
    if (mr->ncols >= 1 && vals[0].p) {
        my_escape(av->v, sizeof(av->v), vals[0].p, B_MIN(vals[0].len, 60));
        av->got = true;
    }
    return 0;
}

static void all_db(struct all_ctx *x)
{
    struct bench_opts so;
    all_base_opts(&so, x->o, 0);
    all_progress(x, "db: ping");
    so.ping_count = 20;
    struct res *st = res_step(x->res, wl_find("ping"), "ping");
    st->o = &so;
    int ex = ping_main(st);
    st->o = x->res->o;
    if (ex != B_EXIT_OK || !st->have_final) {
        res_warn(x->res, "db_failed", NULL, "all: database: %s",
                 st->err.msg[0] ? st->err.msg : "connection failed");
        return;
    }
    const struct load_snap *d = &st->final.d;
    res_fact_str(x->res, "db.server", "%s", all_str(st, "server"));
    res_fact_str(x->res, "db.server_version", "%s", all_str(st, "server_version"));
    res_fact_num(x->res, "db.ping_p50_ms", all_pct_ms(d->hist, 50));
    res_fact_num(x->res, "db.ping_p99_ms", all_pct_ms(d->hist, 99));
    res_fact_num(x->res, "db.ping_max_ms", (double)d->lat_max_ns / 1e6);
    /* the settings: one query each (a variable the server lacks is left out) */
    struct myc_conn_params cc;
    struct my_conn c;
    if (myc_params_from_opts(&so, 0, &cc, false) < 0)
        return;
    cc.p.db = NULL;
    if (myc_connect(&c, &cc.p) == B_OK) {
        for (size_t i = 0; i < countof(all_db_vars); i++) {
            char sql[128], key[48];
            struct all_var av = {{0}, false};
            struct myc_result mr;
            memset(&mr, 0, sizeof(mr));
            snprintf(sql, sizeof(sql), "SELECT @@%s", all_db_vars[i]);
            if (myc_query(&c, sql, strlen(sql), &mr, all_var_row, &av) == B_OK && av.got) {
                snprintf(key, sizeof(key), "db.%s", all_db_vars[i]);
                char *end;
                double v = strtod(av.v, &end);
                if (end != av.v && !*end)
                    res_fact_num(x->res, key, v);
                else
                    res_fact_str(x->res, key, "%s", av.v);
            }
            myc_result_free(&mr);
        }
        myc_close(&c);
    }
    /* the ladder: the one-liner's code, shortened */
    all_progress(x, "db: OLTP ladder");
    so.sizing_step_time = x->level == ALL_QUICK ? 1 : x->level == ALL_DEFAULT ? 2 : 10;
    so.all_step_ms = x->level == ALL_QUICK ? 500 : 0; /* quick: half-second rungs */
    so.sizing_max_threads = B_MAX(2, 2 * x->ncpu);
    so.sizing_tables_set = so.sizing_rows_set = true;
    so.oltp_tables = 2;
    so.oltp_table_size = x->level == ALL_QUICK ? 2000 : x->level == ALL_DEFAULT ? 10000 : 100000;
    if (!so.mysql_db_set) {
        static char name[] = "bench_all";
        so.mysql_db = name;
        so.mysql_db_set = true;
    }
    st = res_step(x->res, wl_find("oltp"), "oltp");
    st->o = &so;
    ex = sizing_main(st);
    st->o = x->res->o;
    res_fact_str(x->res, "db.oltp_schema", "%s", so.mysql_db);
    if (ex != B_EXIT_OK)
        res_warn(x->res, "db_failed", NULL, "all: OLTP ladder: %s",
                 st->err.msg[0] ? st->err.msg : "failed");
    bool h;
    double v = all_num(st, "oltp_read_write_knee_threads", &h);
    if (h) {
        res_fact_int(x->res, "db.oltp_knee_threads", (i64)v);
        res_fact_num(x->res, "db.oltp_knee_tps", all_num(st, "oltp_read_write_knee_tps", NULL));
    }
    v = all_num(st, "oltp_point_select_knee_tps", &h);
    if (h)
        res_fact_num(x->res, "db.point_select_knee_tps", v);
}

/* ---- checks: thresholds on the measures, with their basis (sizing.md 2.5) ---- */

/* One check: the fact at path against WARN and FAIL thresholds (NAN: none); hi: higher is
 * worse. A fact that is absent gives INFO "not measured". */
struct all_check {
    const char *id;
    const char *path;
    bool hi;
    double warn, fail;
    const char *unit;
    const char *basis;
};

static const struct all_check all_checks[] = {
    {"durable_writes", "disk.fdatasync_p99_ms", true, 2, 10, "ms",
     "etcd WAL p99<10ms"},
    {"flush_behaviour", "disk.flush_volatile", true, 1, (double)NAN, "",
     "no PLP, slow flush"},
    {"steal", "cpu_steal_pct", true, 2, 10, "%", "/proc/stat steal"},
    {"cpu_scaling", "cpu.scaling_efficiency", false, 0.8, (double)NAN, "",
     "N CPUs ~ N x 1 CPU"},
    {"swappiness", "swappiness", true, 11, (double)NAN, "", "MySQLTuner: <= 10"},
    {"swap_used", "host.swap_used_bytes", true, 1, (double)NAN, "B", "MySQLTuner"},
    {"swap_io", "host.swap_pages_moved", true, (double)NAN, 0, "pg", "swap-in/out in run"},
    {"thp", "host.thp_always", true, 1, (double)NAN, "", "DB vendor guidance"},
    {"clocksource", "host.clocksource_slow", true, 1, (double)NAN, "", "latency fidelity"},
    {"nofile", "host.nofile_limit", false, 65536, (double)NAN, "", "MySQLTuner"},
    {"disk_dir", "disk.not_a_disk", true, 1, (double)NAN, "", "tmpfs/no O_DIRECT"},
};

/* The facts the checks read that are not measures themselves. */
static void all_derive(struct all_ctx *x)
{
    struct res *res = x->res;
    bool h, h2;
    double st = all_num(res, "swap_total_bytes", &h), sf = all_num(res, "swap_free_bytes", &h2);
    if (h && h2)
        res_fact_int(res, "host.swap_used_bytes", (i64)(st - sf));
    const char *thp = all_str(res, "thp_enabled");
    if (*thp)
        res_fact_bool(res, "host.thp_always", !strcmp(thp, "always"));
    const char *cs = all_str(res, "clocksource");
    if (*cs)
        res_fact_bool(res, "host.clocksource_slow",
                      strcmp(cs, "tsc") && strcmp(cs, "arch_sys_counter"));
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
        res_fact_int(res, "host.nofile_limit",
                     rl.rlim_cur == RLIM_INFINITY ? INT64_MAX : (i64)rl.rlim_cur);
    const struct res_fact *ds = res_fact(res, "disk.status");
    if (ds && ds->str && strncmp(ds->str, "skipped", 7))
        res_fact_bool(res, "disk.not_a_disk", !x->direct || all_num(res, "fs_tmpfs", NULL) > 0);
    double p50 = all_num(res, "disk.fdatasync_p50_ms", &h);
    if (h && x->direct)
        res_fact_bool(res, "disk.flush_volatile",
                      !strcmp(all_str(res, "disk_write_cache"), "write back") && p50 >= 0.5);
}

static void all_fmt_num(char *out, size_t n, double v)
{
    if (v != v)
        snprintf(out, n, "-");
    else if (fabs(v) < 1e15 && v == floor(v))
        snprintf(out, n, "%.0f", v);
    else
        snprintf(out, n, "%.4g", v);
}

static int all_verdict(bool hi, double v, double warn, double fail)
{
    if (fail == fail && (hi ? v > fail : v < fail))
        return ALL_FAIL;
    if (warn == warn && (hi ? v >= warn : v < warn))
        return ALL_WARN;
    return ALL_PASS;
}

/* One verdict as a step "check": id, path, value, verdict, threshold, basis. */
static int all_check_step(struct res *res, const char *id, const char *path, bool have,
                          double v, int verdict, const char *threshold, const char *basis)
{
    struct res *c = res_step(res, NULL, "check");
    res_fact_str(c, "id", "%s", id);
    res_fact_str(c, "path", "%s", path);
    if (have)
        res_fact_num(c, "value", v);
    res_fact_str(c, "verdict", "%s", all_verdicts[verdict]);
    res_fact_str(c, "threshold", "%s", threshold);
    res_fact_str(c, "basis", "%s", basis);
    return verdict;
}

static int all_run_checks(struct res *res)
{
    int worst = ALL_PASS;
    for (size_t i = 0; i < countof(all_checks); i++) {
        const struct all_check *k = &all_checks[i];
        char thr[96], w[32], f[32];
        bool h;
        double v = all_num(res, k->path, &h);
        all_fmt_num(w, sizeof(w), k->warn);
        all_fmt_num(f, sizeof(f), k->fail);
        if (k->fail == k->fail && k->warn != k->warn)
            snprintf(thr, sizeof(thr), "fail%s%s%s", k->hi ? ">" : "<", f, k->unit);
        else if (k->fail == k->fail)
            snprintf(thr, sizeof(thr), "warn%s%s fail%s%s%s", k->hi ? ">=" : "<", w,
                     k->hi ? ">" : "<", f, k->unit);
        else
            snprintf(thr, sizeof(thr), "warn%s%s%s", k->hi ? ">=" : "<", w, k->unit);
        int vd = h ? all_verdict(k->hi, v, k->warn, k->fail) : ALL_INFO;
        all_check_step(res, k->id, k->path, h, v, vd, h ? thr : "not measured", k->basis);
        worst = B_MAX(worst, vd);
    }
    return worst;
}

/* ---- --expect: the user's thresholds on the result's facts ---- */

struct all_expect {
    char path[48];
    char op[3];
    double v;
    char text[128];
};

/* Parse "path OP number" terms, comma or newline separated ('#' to the end of a line is a
 * comment). Returns the number of terms, or -1 with bad naming the bad term. */
static int all_expect_parse(const char *s, struct all_expect *out, int max, char *bad,
                            size_t badn)
{
    int n = 0;
    while (*s) {
        const char *e = s;
        while (*e && *e != ',' && *e != '\n' && *e != '#')
            e++;
        const char *a = s, *b = e;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        if (b > a) {
            struct all_expect *x = &out[n];
            const char *p = a;
            while (p < b && (isalnum((unsigned char)*p) || *p == '_' || *p == '.'))
                p++;
            size_t pl = (size_t)(p - a);
            const char *q = p;
            while (q < b && isspace((unsigned char)*q))
                q++;
            size_t ol = q + 1 < b && (q[1] == '=') ? 2 : 1;
            char num[64];
            const char *r = q + ol;
            while (r < b && isspace((unsigned char)*r))
                r++;
            size_t nl = (size_t)(b - r);
            bool ok = n < max && pl > 0 && pl < sizeof(x->path) && q < b &&
                      strchr("<>=!", *q) && nl > 0 && nl < sizeof(num);
            if (ok) {
                memcpy(x->path, a, pl);
                x->path[pl] = 0;
                memcpy(x->op, q, ol);
                x->op[ol] = 0;
                ok = !strcmp(x->op, "<") || !strcmp(x->op, "<=") || !strcmp(x->op, ">") ||
                     !strcmp(x->op, ">=") || !strcmp(x->op, "==") || !strcmp(x->op, "!=");
            }
            if (ok) {
                char *end;
                memcpy(num, r, nl);
                num[nl] = 0;
                x->v = strtod(num, &end);
                ok = end != num && !*end && x->v == x->v;
            }
            if (!ok) {
                snprintf(bad, badn, "%.*s", (int)B_MIN((size_t)(b - a), 80), a);
                return -1;
            }
            snprintf(x->text, sizeof(x->text), "%s %s", x->op, num);
            n++;
        }
        if (*e == '#')
            while (*e && *e != '\n')
                e++;
        s = *e ? e + 1 : e;
    }
    return n;
}

static bool all_expect_holds(const struct all_expect *x, double v)
{
    const char *op = x->op;
    return !strcmp(op, "<")    ? v < x->v
           : !strcmp(op, "<=") ? v <= x->v
           : !strcmp(op, ">")  ? v > x->v
           : !strcmp(op, ">=") ? v >= x->v
           : !strcmp(op, "==") ? v == x->v
                               : v != x->v;
}

/* --expect and --expect-file into terms; a usage error names the bad term. */
static int all_expect_load(struct res *res, struct all_expect *t, int max, int *n)
{
    const struct bench_opts *o = res->o;
    char bad[96];
    *n = 0;
    if (o->all_expect && *o->all_expect) {
        int k = all_expect_parse(o->all_expect, t, max, bad, sizeof(bad));
        if (k < 0)
            return b_fail(&res->err, b_usage_exit(),
                          "all: --expect: malformed term '%s' (expected PATH OP NUMBER, OP one "
                          "of < <= > >= == !=)",
                          bad);
        *n = k;
    }
    if (o->all_expect_file && *o->all_expect_file) {
        FILE *f = fopen(o->all_expect_file, "r");
        if (!f)
            return b_fail(&res->err, B_EXIT_ENV, "all: --expect-file=%s: %s (%s)",
                          o->all_expect_file, strerror(errno), b_errno_name(errno));
        struct buf b = {0};
        char line[512];
        while (fgets(line, sizeof(line), f))
            buf_printf(&b, "%s", line);
        fclose(f);
        int k = all_expect_parse(b.p ? b.p : "", t + *n, max - *n, bad, sizeof(bad));
        buf_free(&b);
        if (k < 0)
            return b_fail(&res->err, b_usage_exit(),
                          "all: --expect-file=%s: malformed term '%s' (expected PATH OP NUMBER)",
                          o->all_expect_file, bad);
        *n += k;
    }
    return B_EXIT_OK;
}

/* ---- derived settings, each with its rule (sizing.md 2.4) ---- */

static void all_setting(struct res *res, const char *name, const char *rule, const char *fmt,
                        ...) B_PRINTF(4, 5);
static void all_setting(struct res *res, const char *name, const char *rule, const char *fmt,
                        ...)
{
    char v[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof(v), fmt, ap);
    va_end(ap);
    struct res *s = res_step(res, NULL, "setting");
    res_fact_str(s, "name", "%s", name);
    res_fact_str(s, "value", "%s", v);
    res_fact_str(s, "rule", "%s", rule);
}

/*
 * A connection's worst-case buffers (MySQLTuner's per-thread model): sort + join + read +
 * read_rnd + thread_stack + binlog_cache (when the binary log is on) + net_buffer_length +
 * min(tmp_table_size, max_heap_table_size); the server's values where db.* has them, else
 * MySQL 8.4's defaults. *global gets key_buffer_size + innodb_log_buffer_size; *server
 * whether any value came from the server.
 */
static double all_conn_bytes(const struct res *res, double *global, bool *server)
{
    static const struct {
        const char *var;
        double def;
    } per[] = {{"db.sort_buffer_size", 262144},    {"db.join_buffer_size", 262144},
               {"db.read_buffer_size", 131072},    {"db.read_rnd_buffer_size", 262144},
               {"db.thread_stack", 1048576},       {"db.binlog_cache_size", 32768},
               {"db.net_buffer_length", 16384},    {"db.tmp_table_size", 16777216},
               {"db.max_heap_table_size", 16777216}, {"db.key_buffer_size", 8388608},
               {"db.innodb_log_buffer_size", 16777216}};
    double v[countof(per)];
    *server = false;
    for (size_t i = 0; i < countof(per); i++) {
        bool h;
        v[i] = all_num(res, per[i].var, &h);
        if (h && v[i] >= 0)
            *server = true;
        else
            v[i] = per[i].def;
    }
    bool h;
    double bin = all_num(res, "db.log_bin", &h);
    double c = v[0] + v[1] + v[2] + v[3] + v[4] + (h && bin == 0 ? 0 : v[5]) + v[6] +
               B_MIN(v[7], v[8]);
    *global = v[9] + v[10];
    return c;
}

static void all_settings(struct all_ctx *x)
{
    struct res *res = x->res;
    bool h;
    double ram = all_num(res, "mem_total_bytes", &h);
    double lim = all_num(res, "cgroup_memory_limit_bytes", NULL);
    if (lim > 0 && lim < ram)
        ram = lim;
    if (!h)
        ram = (double)os_mem_total();
    const double g = 1073741824.0, m = 1048576.0;
    double bp = ram < g ? 128 * m : ram <= 4 * g ? 0.5 * ram : 0.75 * ram;
    bp = floor(bp / (128 * m)) * 128 * m;
    if (bp < 128 * m)
        bp = 128 * m;
    res_fact_int(res, "rec.innodb_buffer_pool_size_bytes", (i64)bp);
    all_setting(res, "innodb_buffer_pool_size", "RAM<1G:128M, 1-4G:50%, >4G:75% (limit)",
                "%.0fM", bp / m);
    double iops = all_num(res, "disk.randwrite_qd32_iops", &h);
    if (h && x->direct && all_num(res, "disk.not_a_disk", NULL) == 0) {
        double cap = floor(iops * 0.5 / 100 + 0.5) * 100;
        cap = B_MIN(B_MAX(cap, 200), 20000);
        double mx = B_MAX(B_MIN(2 * cap, iops), 2000);
        mx = floor(mx / 100) * 100;
        res_fact_int(res, "rec.innodb_io_capacity", (i64)cap);
        res_fact_int(res, "rec.innodb_io_capacity_max", (i64)mx);
        all_setting(res, "innodb_io_capacity", "16K randwrite QD32 IOPS x 0.5, [200, 20000]",
                    "%.0f", cap);
        all_setting(res, "innodb_io_capacity_max", "min(2 x io_capacity, IOPS), >= 2000",
                    "%.0f", mx);
    } else
        all_setting(res, "innodb_io_capacity", "needs the O_DIRECT disk measure", "(not measured)");
    all_setting(res, "innodb_flush_method", "O_DIRECT where it works, else fsync", "%s",
                x->direct ? "O_DIRECT" : "fsync");
    double redo = B_MIN(B_MAX((double)x->ncpu / 2, 1), 16);
    all_setting(res, "innodb_redo_log_capacity", "CPUs/2 GiB, 1..16 GiB (MySQL 8.4)", "%.0fG",
                redo);
    double glob, per;
    bool srv;
    per = all_conn_bytes(res, &glob, &srv);
    double conn = floor((ram - bp - glob - g) / per);
    char rule[96];
    snprintf(rule, sizeof(rule), "(RAM-pool-globals-1G)/%.1fM per conn (%s)", per / m,
             srv ? "server" : "8.4 dflt");
    res_fact_num(res, "rec.per_connection_bytes", per);
    res_fact_int(res, "rec.max_connections", (i64)B_MAX(conn, 10));
    all_setting(res, "max_connections", rule, "%.0f", B_MAX(conn, 10));
    double knee = all_num(res, "db.oltp_knee_threads", &h);
    if (h)
        all_setting(res, "client threads", "OLTP ladder knee (tps stops rising)", "%.0f", knee);
    else
        all_setting(res, "client threads", "sweep 1..2 x CPUs (no database measured)", "%d",
                    2 * x->ncpu);
}

/* The CPUs to size threads for: the usable ones (affinity), fewer under a cgroup CPU quota
 * (in a container nproc lies); and, not root, what is read instead. Each said as a note. */
static void all_cpus_and_user(struct all_ctx *x)
{
    struct res *res = x->res;
    bool h;
    int aff = (int)B_MAX(1, all_num(res, "cpus_usable", NULL));
    double q = all_num(res, "cgroup_cpu_quota_cpus", &h);
    x->ncpu = aff;
    if (h && q > 0 && ceil(q) < (double)aff) {
        x->ncpu = (int)B_MAX(1, ceil(q));
        res_fact_str(res, "all.cpus_from", "cgroup CPU quota");
        res_warn(res, "cgroup_cpu_quota", NULL,
                 "all: a cgroup CPU quota of %.2f CPUs: threads sized for %d, not the %d CPUs "
                 "affinity allows",
                 q, x->ncpu, aff);
    } else
        res_fact_str(res, "all.cpus_from", "affinity");
    res_fact_int(res, "all.cpus", x->ncpu);
    if (geteuid() != 0) {
        res_fact_bool(res, "all.root", false);
        res_warn(res, "not_root", NULL,
                 "all: not root (uid %u): container detection without PID 1's environment",
                 (unsigned)geteuid());
    } else
        res_fact_bool(res, "all.root", true);
}

/* Was a database named: connection options, MYSQL_PWD or an option file (cli_ sets it)? */
static bool all_db_given(const struct bench_opts *o)
{
    return o->db_given;
}

/*
 * all_main - `bench all`: host facts, the plan, checks, settings, --expect into res; returns
 * the exit code (0 all pass, 1 some WARN, 2 some FAIL, 3 could not run; a usage error: the
 * persona's). Prints nothing (rep_all), progress as RES_SAY_STATUS lines.
 */
static int all_main(struct res *res)
{
    struct bench_opts *o = res->o;
    struct all_ctx x;
    struct all_expect ex_t[32];
    int nexp = 0, ex;
    memset(&x, 0, sizeof(x));
    x.res = res;
    x.o = o;
    x.t0 = clk_now_ns();
    res->command = "all";
    if (o->all_quick && o->all_thorough)
        return b_fail(&res->err, b_usage_exit(), "all: --quick and --thorough exclude each other");
    x.level = o->all_quick ? ALL_QUICK : o->all_thorough ? ALL_THOROUGH : ALL_DEFAULT;
    if ((ex = all_expect_load(res, ex_t, (int)countof(ex_t), &nexp)) != B_EXIT_OK)
        return ex;
    struct os_cpu_sample s0, s1;
    bool steal = os_steal_sample("", &s0) == B_OK;
    u64 sw0 = 0, sw1 = 0;
    bool swio = os_swap_pages("", &sw0);
    if (os_host_facts("", res) != B_OK || os_dir_facts("", o->file_dir, res) != B_OK) {
        if (!res->err.msg[0])
            b_fail(&res->err, B_EXIT_ENV, "all: --dir=%s: cannot be read", o->file_dir);
        return B_EXIT_ENV;
    }
    all_cpus_and_user(&x);
    res_fact_str(res, "all.level", "%s", x.level == ALL_QUICK    ? "quick"
                                         : x.level == ALL_DEFAULT ? "default"
                                                                  : "thorough");
    bool db = all_db_given(o);
    x.nsteps = (int)countof(all_plan) + 1 + (db ? 2 : 0); /* + the test file's writing */
    for (size_t i = 0; i < countof(all_plan) && !atomic_load(&b_stop); i++)
        if (all_plan[i].need == ALL_NEED_NONE)
            all_run_step(&x, &all_plan[i]);
    if (!atomic_load(&b_stop) && (ex = all_disk(&x)) != B_EXIT_OK)
        return ex;
    if (db && !atomic_load(&b_stop))
        all_db(&x);
    if (steal && os_steal_sample("", &s1) == B_OK && s1.total_ticks > s0.total_ticks)
        res_fact_num(res, "cpu_steal_pct", os_steal_pct(&s0, &s1));
    if (swio && os_swap_pages("", &sw1) && sw1 >= sw0)
        res_fact_int(res, "host.swap_pages_moved", (i64)(sw1 - sw0));
    all_derive(&x);
    int worst = all_run_checks(res);
    for (int i = 0; i < nexp; i++) {
        bool h;
        double v = all_num(res, ex_t[i].path, &h);
        int vd = !h ? ALL_FAIL : all_expect_holds(&ex_t[i], v) ? ALL_PASS : ALL_FAIL;
        all_check_step(res, "expect", ex_t[i].path, h, v, vd,
                       h ? ex_t[i].text : "no such measure", "--expect");
        worst = B_MAX(worst, vd);
    }
    if (res->nwarns)
        for (int i = 0; i < res->nwarns; i++)
            if (!strcmp(res->warns[i].code, "step_failed") ||
                !strcmp(res->warns[i].code, "db_failed"))
                worst = B_MAX(worst, ALL_WARN);
    all_settings(&x);
    res->elapsed_s = (double)(clk_now_ns() - x.t0) / 1e9;
    res_fact_num(res, "all.total_s", res->elapsed_s);
    res_say(res, RES_SAY_STATUS, "all: done in %.1f s%-30s\n", res->elapsed_s, "");
    res->end = atomic_load(&b_stop) ? RES_END_SIGNAL : RES_END_LIMIT;
    res->complete = res->end == RES_END_LIMIT;
    if (atomic_load(&b_stop))
        return b_fail(&res->err, B_EXIT_FAIL, "all: interrupted; the page shows what ran");
    res_fact_str(res, "all.verdict", "%s", all_verdicts[worst]);
    return worst == ALL_FAIL ? 2 : worst == ALL_WARN ? 1 : B_EXIT_OK;
}

static const struct opt_def opt_all[] = {
    OPT("dir", STR, file_dir, ".", 0, 0, NULL,
        "directory for the disk tests (bench writes and removes one test file there)", NULL, 0),
    OPT("quick", BOOL, all_quick, "off", 0, 0, NULL, "a shorter run (about 20 s)", NULL, 0),
    OPT("thorough", BOOL, all_thorough, "off", 0, 0, NULL,
        "longer steps, larger files and arrays", NULL, 0),
    OPT("expect", STR, all_expect, "", 0, 0, NULL,
        "acceptance thresholds: PATH OP NUMBER[,...], e.g. disk.fdatasync_p99_ms<=5", NULL,
        OPT_F_NODEF),
    OPT("expect-file", STR, all_expect_file, "", 0, 0, NULL,
        "a file of --expect terms, one or more a line ('#' comments)", NULL, OPT_F_NODEF),
    OPT("html", STR, all_html, "", 0, 0, NULL,
        "also write the report as one self-contained HTML file (inline CSS and SVG)", NULL,
        OPT_F_NODEF),
};

/*== 22 mrg_ : bench merge: one result from many clients' results ============*/
/*
 * bench merge A.json B.json ...: the result documents of clients that ran the same test at
 * the same time (--start-at; docs/multi-host.md) as one result, as if one process had run
 * all their threads: counts added; histograms added bucket by bucket, so that every
 * percentile is the one of a single histogram fed every sample; per-thread arrays joined;
 * rates over the common measured window (the latest start to the earliest end); interval
 * lines aligned by wall clock. Each client is a step of the result (one line each) with its
 * start skew; a client that started late, ended early or left no result is reported, not
 * averaged away. The inputs are untrusted bytes (jr_): every field is checked for its type
 * and range before use. Nothing here prints: rep_merge renders the result.
 */

static const char *rep_num(char *out, size_t n, double v);
static const struct wl_def *wl_find(const char *name);

#define MRG_LATE_S 1.0     /* a start later than the earliest by this much is reported */
#define MRG_OVERLAP_PCT 95 /* below this overlap of the windows, a warning */
#define MRG_MAX_FILE (16u << 20) /* a merge input: real results are KiB to a few MiB */
#define MRG_MAX_SLOTS 4000000    /* merged interval lines at most */
#define MRG_NS_LO 946684800000000000LL  /* 2000-01-01: a window's wall clock is after this */
#define MRG_NS_HI 7258118400000000000LL /* 2200-01-01: and before this */
#define MRG_MAX_THREADS 100000 /* threads of all clients together */

/* One input file. */
struct mrg_client {
    const char *path;
    struct jr_doc doc;
    const struct jr_val *root, *rs; /* the result document and its "results" */
    bool ok;                        /* a result document with results */
    char why[400];                  /* not ok: what the file holds instead */
    struct res_stats st;            /* its statistics (allocated when ok) */
    const char *end;                /* its "end" */
    bool complete;
};

/* Options that may differ between the clients of one run: where each connected, how it
 * wrote its result, its share of the threads. Every other option must be equal. */
static const char *const mrg_own_opts[] = {
    "threads", "start-at", "start-at-force", "output", "format", "verbosity", "config-file",
    "mysql-host", "mysql-port", "mysql-socket", "mysql-user", "mysql-password", "mysql-db",
    "defaults-file", "no-defaults", "debug", "db-debug", "mysql-debug", "client-index",
    "thread-stack-size", "mysql-connect-timeout", "mysql-io-timeout", "ssl-mode", "ssl-ca",
    "ssl-cert", "ssl-key", "mysql-ssl", "mysql-ssl-cipher", "server-public-key-path",
    "get-server-public-key", "help", "version",
};

static bool mrg_own_opt(const char *name)
{
    for (size_t i = 0; i < countof(mrg_own_opts); i++)
        if (!strcmp(mrg_own_opts[i], name))
            return true;
    return false;
}

/* Are two JSON values equal (numbers by value, strings by bytes, arrays item by item)? */
static bool mrg_equal(const struct jr_val *a, const struct jr_val *b)
{
    if (!a || !b || a->type != b->type)
        return false;
    switch (a->type) {
    case JR_NUM:
        return a->num == b->num;
    case JR_STR:
        return a->n == b->n && !memcmp(a->s, b->s, a->n);
    case JR_ARR:
    case JR_OBJ:
        if (a->n != b->n)
            return false;
        for (const struct jr_val *x = jr_first(a), *y = jr_first(b); x && y;
             x = jr_next(x), y = jr_next(y))
            if (!mrg_equal(x, y) || (x->key && (!y->key || strcmp(x->key, y->key))))
                return false;
        return true;
    }
    return true;
}

/* A JSON value as short text for messages ("10000", "\"special\"", "[95,99]"). */
static const char *mrg_show(const struct jr_val *v, char *out, size_t n)
{
    if (!v)
        snprintf(out, n, "absent");
    else if (v->type == JR_STR) { /* from a file: escaped (no terminal controls) */
        char esc[64];
        my_escape(esc, sizeof(esc), v->s, B_MIN(v->n, (size_t)60));
        snprintf(out, n, "'%s'", esc);
    }
    else if (v->type == JR_NUM)
        snprintf(out, n, "%.40s", v->s);
    else if (v->type == JR_ARR || v->type == JR_OBJ) {
        size_t k = (size_t)snprintf(out, n, "%c", v->type == JR_ARR ? '[' : '{');
        for (const struct jr_val *x = jr_first(v); x && k < n; x = jr_next(x)) {
            char one[80];
            k += (size_t)snprintf(out + k, n - k, "%s%s", x == jr_first(v) ? "" : ",",
                                  mrg_show(x, one, sizeof(one)));
        }
        if (k < n)
            snprintf(out + k, n - k, "%c", v->type == JR_ARR ? ']' : '}');
    } else
        snprintf(out, n, "%s", jr_type_name(v->type));
    return out;
}

/*
 * mrg_load - read one client's file: a result document, alone (--output=FILE) or as the
 * last line of the JSON lines a run wrote on standard output. A file that cannot be read is
 * an error (B_SYSERR, e); one that holds no result (empty, cut off, interval lines only: the
 * client was killed) leaves c->ok false with c->why said, to be reported.
 */
static int mrg_load(struct mrg_client *c, struct b_err *e)
{
    struct stat st;
    int fd = open(c->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        b_seterr(e, B_SYSERR, errno, "merge: cannot open %s: %s", c->path, strerror(errno));
        e->ex = B_EXIT_ENV;
        return B_SYSERR;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (u64)st.st_size > MRG_MAX_FILE) {
        int bad = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
        close(fd);
        if (bad == EFBIG)
            b_fail(e, B_EXIT_ENV, "merge: %s: %llu bytes, larger than a result can be (16 MiB)",
                   c->path, (unsigned long long)st.st_size);
        else
            b_fail(e, B_EXIT_ENV, "merge: %s: not a regular file", c->path);
        return B_INVALID;
    }
    size_t len = (size_t)st.st_size, got = 0;
    char *p = b_xmalloc(len + 1);
    while (got < len) {
        ssize_t r = read(fd, p + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    len = got;
    p[len] = 0;
    /* the last non-empty line */
    size_t end = len, nlines = 0;
    while (end && isspace((unsigned char)p[end - 1]))
        end--;
    size_t start = end;
    while (start && p[start - 1] != '\n')
        start--;
    for (size_t i = 0; i < end; i++)
        nlines += p[i] == '\n';
    if (end == 0) {
        snprintf(c->why, sizeof(c->why), "empty: the client left no result (killed before it "
                                         "wrote one?)");
        free(p);
        return B_OK;
    }
    struct b_err pe;
    memset(&pe, 0, sizeof(pe));
    if (jr_parse(p + start, end - start, c->path, &c->doc, &pe) != B_OK) {
        if (start == 0 && nlines == 0) { /* a whole file that is not JSON: not a result */
            free(p);
            *e = pe;
            e->ex = B_EXIT_ENV; /* as compare: not a bench result */
            return B_INVALID;
        }
        snprintf(c->why, sizeof(c->why), "its last line is cut off, after %zu whole line(s) "
                                         "(the client was killed while it wrote?)",
                 nlines);
        free(p);
        return B_OK;
    }
    free(p);
    c->root = c->doc.root;
    const char *type = "";
    if (!jr_str(jr_get(c->root, "type"), &type, NULL)) {
        b_fail(e, B_EXIT_ENV, "merge: %s: not a bench result (no \"type\" in its last line)",
               c->path);
        return B_INVALID;
    }
    if (strcmp(type, "result")) {
        double at = 0;
        char et[24];
        jr_num(jr_get(c->root, "at_s"), &at);
        my_escape(et, sizeof(et), type, B_MIN(strlen(type), (size_t)20));
        snprintf(c->why, sizeof(c->why),
                 "no result document: its last line is an '%s' line at %.0f s (the client "
                 "was killed mid-run?)",
                 et, at);
        return B_OK;
    }
    c->ok = true;
    return B_OK;
}

/* mrg_field_err - a field of a client's result is missing or wrong: the one-line error. */
static int mrg_field_err(struct b_err *e, const struct mrg_client *c, const char *field,
                         const char *expected)
{
    b_fail(e, B_EXIT_FAIL, "merge: %s: %s: expected %s", c->path, field, expected);
    return B_INVALID;
}

static int mrg_get_u64(const struct jr_val *o, const char *name, u64 *out, struct b_err *e,
                       const struct mrg_client *c, const char *where)
{
    char f[160];
    if (jr_u64(jr_get(o, name), out))
        return B_OK;
    snprintf(f, sizeof(f), "%s%s", where, name);
    return mrg_field_err(e, c, f, "a count (an integer >= 0)");
}

/* mrg_hist - a "histogram" object into h (zeroed), checked: bench's scheme, indexes in range
 * and rising; *total gets the count. */
static int mrg_hist(const struct jr_val *hv, struct hist *h, u64 *total, struct b_err *e,
                    const struct mrg_client *c, const char *where)
{
    char f[160];
    const char *scheme = "";
    i64 sub = 0, mx = 0;
    memset(h, 0, sizeof(*h));
    *total = 0;
    snprintf(f, sizeof(f), "%shistogram.scheme", where);
    if (!jr_str(jr_get(hv, "scheme"), &scheme, NULL) || strcmp(scheme, "log-linear"))
        return mrg_field_err(e, c, f, "'log-linear' (the scheme this bench adds)");
    snprintf(f, sizeof(f), "%shistogram.sub_bits", where);
    if (!jr_i64(jr_get(hv, "sub_bits"), &sub) || sub != HIST_SUB_BITS)
        return mrg_field_err(e, c, f, "8 (the bucket scheme this bench adds)");
    snprintf(f, sizeof(f), "%shistogram.max_exp", where);
    if (!jr_i64(jr_get(hv, "max_exp"), &mx) || mx != HIST_MAX_EXP)
        return mrg_field_err(e, c, f, "42 (the bucket scheme this bench adds)");
    snprintf(f, sizeof(f), "%shistogram.buckets", where);
    const struct jr_val *b = jr_get(hv, "buckets");
    if (!b || b->type != JR_ARR)
        return mrg_field_err(e, c, f, "an array of [index, count] pairs");
    u64 next = 0;
    for (const struct jr_val *x = jr_first(b); x; x = jr_next(x)) {
        u64 i, n;
        if (x->type != JR_ARR || x->n != 2 || !jr_u64(jr_at(x, 0), &i) ||
            !jr_u64(jr_at(x, 1), &n) || i >= HIST_NBUCKETS || i < next || n == 0 ||
            *total + n < *total)
            return mrg_field_err(e, c, f, "[index, count] pairs, indexes rising below 4608, "
                                          "counts >= 1");
        next = i + 1;
        atomic_store_explicit(&h->count[i], n, memory_order_relaxed);
        *total += n;
    }
    return B_OK;
}

/* mrg_stats - a client's "results" as statistics (allocates c->st). */
static int mrg_stats(struct mrg_client *c, const struct wl_def *w, struct b_err *e)
{
    const struct jr_val *rs = c->rs, *lat = jr_get(rs, "latency_ns"),
                        *pt = jr_get(rs, "per_thread");
    struct res_stats *st = &c->st;
    u64 threads, total;
    i64 t0, t1;
    int rc;
    if ((rc = mrg_get_u64(rs, "threads", &threads, e, c, "results.")) != B_OK)
        return rc;
    if (threads < 1 || threads > 100000)
        return mrg_field_err(e, c, "results.threads", "1 to 100000 threads");
    if (!jr_i64(jr_get(rs, "window_start_unix_ns"), &t0) ||
        !jr_i64(jr_get(rs, "window_end_unix_ns"), &t1) || t1 < t0)
        return mrg_field_err(e, c, "results.window_start_unix_ns",
                             "the window's wall clock (bench writes it since schema_minor 1)");
    if (t0 < MRG_NS_LO || t1 > MRG_NS_HI)
        return mrg_field_err(e, c, "results.window_start_unix_ns",
                             "a wall clock in the years 2000 to 2200 (ns since 1970)");
    memset(st, 0, sizeof(*st));
    load_snap_init(&st->d, (int)threads, w->nops);
    st->threads = (int)threads;
    st->thr_min_ns = b_xcalloc(threads, sizeof(u64));
    st->thr_max_ns = b_xcalloc(threads, sizeof(u64));
    st->start_unix_ns = t0;
    st->end_unix_ns = t1;
    if (!jr_num(jr_get(rs, "window_s"), &st->window_s) || !(st->window_s >= 0) ||
        st->window_s > (double)(t1 - t0) / 1e9 + 1.0)
        return mrg_field_err(e, c, "results.window_s",
                             "seconds, 0 to the span of window_start/end_unix_ns");
    if (!jr_num(jr_get(rs, "total_time_s"), &st->total_s) || !(st->total_s >= 0) ||
        st->total_s > 1e9)
        return mrg_field_err(e, c, "results.total_time_s", "seconds, 0 to 1e9");
    st->at_s = st->total_s;
    if ((rc = mrg_get_u64(rs, "events", &st->d.events, e, c, "results.")) ||
        (rc = mrg_get_u64(rs, "unfinished_events", &st->unfinished, e, c, "results.")) ||
        (rc = mrg_get_u64(lat, "min", &st->d.lat_min_ns, e, c, "results.latency_ns.")) ||
        (rc = mrg_get_u64(lat, "max", &st->d.lat_max_ns, e, c, "results.latency_ns.")) ||
        (rc = mrg_get_u64(lat, "sum", &st->d.lat_sum_ns, e, c, "results.latency_ns.")))
        return rc;
    if (st->d.events && st->d.lat_min_ns > st->d.lat_max_ns)
        return mrg_field_err(e, c, "results.latency_ns.min", "at most latency_ns.max");
    for (int k = 0; k < w->nctrs && k < LOAD_NCTR; k++)
        if ((rc = mrg_get_u64(rs, w->ctrs[k].name, &st->d.ctr[k], e, c, "results.")))
            return rc;
    if ((rc = mrg_hist(jr_get(lat, "histogram"), st->d.hist, &total, e, c,
                       "results.latency_ns.")))
        return rc;
    if (total != st->d.events && strcmp(c->end, "forced")) {
        b_fail(e, B_EXIT_FAIL, "merge: %s: results.latency_ns.histogram: its counts add up to "
                               "%llu, but events is %llu",
               c->path, (unsigned long long)total, (unsigned long long)st->d.events);
        return B_INVALID;
    }
    for (int k = 0; k < w->nops; k++) {
        char where[96];
        snprintf(where, sizeof(where), "results.operations.%s.latency_ns.", w->op_names[k]);
        const struct jr_val *op = jr_get(jr_get(rs, "operations"), w->op_names[k]);
        if ((rc = mrg_hist(jr_get(jr_get(op, "latency_ns"), "histogram"), &st->d.op_hist[k],
                           &total, e, c, where)))
            return rc;
    }
    const struct jr_val *ev = jr_get(pt, "events"), *tn = jr_get(pt, "time_ns");
    if (!ev || !tn || ev->type != JR_ARR || tn->type != JR_ARR || ev->n != threads ||
        tn->n != threads)
        return mrg_field_err(e, c, "results.per_thread.events",
                             "one count per thread (bench writes it since schema_minor 1)");
    size_t i = 0;
    u64 evsum = 0, span = (u64)(t1 - t0);
    for (const struct jr_val *x = jr_first(ev), *y = jr_first(tn); x && y;
         x = jr_next(x), y = jr_next(y), i++) {
        if (!jr_u64(x, &st->d.thr_events[i]) || !jr_u64(y, &st->d.thr_sum_ns[i]))
            return mrg_field_err(e, c, "results.per_thread", "counts");
        if (evsum + st->d.thr_events[i] < evsum)
            return mrg_field_err(e, c, "results.per_thread.events", "counts that add up in 64 bits");
        evsum += st->d.thr_events[i];
        if (st->d.thr_sum_ns[i] > span + span / 10 + 1000000000u)
            return mrg_field_err(e, c, "results.per_thread.time_ns",
                                 "at most the window (window_end - window_start)");
    }
    if (evsum != st->d.events && strcmp(c->end, "forced"))
        return mrg_field_err(e, c, "results.per_thread.events", "counts that add up to events");
    return B_OK;
}

/* mrg_same - a client ran what the first one did: the same schema, test and options (the
 * ones of mrg_own_opts aside). Else the error names the field. */
static int mrg_same(const struct mrg_client *a, const struct mrg_client *b, struct b_err *e)
{
    static const char *const top[] = {"schema_version", "workload", "action"};
    char va[200], vb[200];
    for (size_t i = 0; i < countof(top); i++)
        if (!mrg_equal(jr_get(a->root, top[i]), jr_get(b->root, top[i]))) {
            b_fail(e, B_EXIT_USAGE, "merge: %s: %s is %s, but %s has %s: not one run's clients",
                   b->path, top[i], mrg_show(jr_get(b->root, top[i]), vb, sizeof(vb)), a->path,
                   mrg_show(jr_get(a->root, top[i]), va, sizeof(va)));
            return B_INVALID;
        }
    const struct jr_val *oa = jr_get(a->root, "options"), *ob = jr_get(b->root, "options");
    for (int pass = 0; pass < 2; pass++) /* each side's names in the other */
        for (const struct jr_val *x = jr_first(pass ? ob : oa); x; x = jr_next(x)) {
            const struct jr_val *y = jr_get(pass ? oa : ob, x->key);
            const struct jr_val *va_ = pass ? y : x, *vb_ = pass ? x : y;
            if (mrg_own_opt(x->key) || mrg_equal(va_, vb_))
                continue;
            b_fail(e, B_EXIT_USAGE,
                   "merge: %s: option %s is %s, but %s has %s: the clients ran different "
                   "tests",
                   b->path, x->key, mrg_show(vb_, vb, sizeof(vb)), a->path,
                   mrg_show(va_, va, sizeof(va)));
            b_hint(e, "merge the results of one run: the same test and options on every client "
                      "(threads, hosts and credentials may differ)");
            return B_INVALID;
        }
    return B_OK;
}

/* mrg_options - the clients' options (the first's) into o, the ones this invocation owns
 * (format, output, verbosity) aside, so the merged result reads as the run's own. */
static void mrg_options(struct bench_opts *o, const struct wl_def *w, const struct jr_val *ov)
{
    static const char *const keep[] = {"format", "output", "verbosity", "config-file", "help",
                                       "version", "debug"};
    for (const struct jr_val *x = jr_first(ov); x; x = jr_next(x)) {
        const struct opt_def *d = NULL;
        bool skip = false;
        for (size_t i = 0; i < countof(keep); i++)
            skip |= !strcmp(keep[i], x->key);
        for (size_t g = 0; g < countof(opt_groups) && !d && !skip; g++)
            d = opt_find(opt_groups[g].t, opt_groups[g].n, x->key, strlen(x->key));
        if (!d && !skip)
            d = opt_find(w->opts, w->nopts, x->key, strlen(x->key));
        if (!d)
            continue; /* an option of another bench version: shown as it was, not used */
        struct buf t = {0};
        if (x->type == JR_ARR)
            for (const struct jr_val *y = jr_first(x); y; y = jr_next(y))
                buf_printf(&t, "%s%s", y == jr_first(x) ? "" : ",", y->type == JR_STR ? y->s : "");
        else if (x->type == JR_STR)
            buf_printf(&t, "%s", x->s);
        else if (x->type == JR_NUM)
            buf_printf(&t, "%s", x->s);
        else if (x->type == JR_TRUE || x->type == JR_FALSE)
            buf_printf(&t, "%s", x->type == JR_TRUE ? "on" : "off");
        if (t.p && opt_set(d, o, t.p) != OPT_OK) { /* refused here: stays at the default */
        }
        buf_free(&t);
    }
    /* the percentiles and the histogram flag, as cli_derive makes them */
    o->npct = 0;
    for (const char *p = o->percentile_list; p && *p && o->npct < OPT_MAX_PCT;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p)
            break;
        if (v > 0 && v <= 100)
            o->pct[o->npct++] = v;
        p = *end == ',' ? end + 1 : end;
    }
    for (int i = 1; i < o->npct; i++) /* sorted, as they are written */
        for (int k = i; k > 0 && o->pct[k] < o->pct[k - 1]; k--) {
            double t = o->pct[k];
            o->pct[k] = o->pct[k - 1], o->pct[k - 1] = t;
        }
    o->debug = false;
}

/* One merged interval line: the clients' lines that end in the same slot of the common
 * window's grid. */
struct mrg_slot {
    struct res_interval iv;
    u64 running; /* threads running, summed in 64 bits (capped at MRG_MAX_THREADS) */
    int n;
};

static bool mrg_interrupted(struct res *res);

static u64 mrg_add_sat(u64 a, u64 b)
{
    return a + b < a ? UINT64_MAX : a + b;
}

/* mrg_intervals - the clients' interval lines, aligned by their wall-clock ends on the grid
 * of --report-interval from t0 to t1 (the common window; the slot is computed, not searched):
 * counts added, threads added, percentiles the highest of the clients' (interval lines carry
 * no histogram; the final block's are exact). Lines that end outside the common window are
 * left out and said. Returns an exit code (B_EXIT_FAIL when interrupted). */
static int mrg_intervals(struct res *res, struct mrg_client *cl, int n, i64 t0, i64 t1)
{
    const struct bench_opts *o = res->o;
    struct mrg_slot *sl;
    int early = 0, late = 0;
    if (o->report_interval <= 0 || o->report_interval > 1000000 || t1 < t0)
        return B_EXIT_OK;
    i64 ri = o->report_interval * 1000000000;
    i64 nslot = (t1 - t0) / ri + 2; /* slots 1 .. nslot-1: the common window's lines */
    if (nslot > MRG_MAX_SLOTS)
        nslot = MRG_MAX_SLOTS;
    sl = b_xcalloc((size_t)nslot, sizeof(*sl));
    for (int i = 0; i < n; i++) {
        if (!cl[i].ok)
            continue;
        u64 seen = 0;
        for (const struct jr_val *x = jr_first(jr_get(cl[i].root, "intervals")); x;
             x = jr_next(x)) {
            i64 end;
            u64 ev;
            double secs;
            if (!(++seen & 4095) && mrg_interrupted(res)) {
                free(sl);
                return B_EXIT_FAIL;
            }
            if (!jr_i64(jr_get(x, "end_unix_ns"), &end) || !jr_u64(jr_get(x, "events"), &ev) ||
                !jr_num(jr_get(x, "interval_s"), &secs) || !(secs >= 0 && secs < 1e9))
                continue;
            if (end < t0 + ri / 2) { /* slot < 1 (and no overflow: t0 is in range) */
                early++;
                continue;
            }
            if (end > t1 + ri / 2 || (end - t0 + ri / 2) / ri >= nslot) {
                late++;
                continue;
            }
            i64 slot = (end - t0 + ri / 2) / ri;
            struct res_interval *iv = &sl[slot].iv;
            iv->npct = o->npct;
            iv->events = mrg_add_sat(iv->events, ev);
            iv->secs += secs;
            iv->end_unix_ns = B_MAX(iv->end_unix_ns, end);
            for (int c = 0; c < res->w->nctrs && c < LOAD_NCTR; c++) {
                u64 v = 0;
                jr_u64(jr_get(x, res->w->ctrs[c].name), &v);
                iv->ctr[c] = mrg_add_sat(iv->ctr[c], v);
            }
            u64 run = 0;
            jr_u64(jr_get(x, "threads_running"), &run);
            sl[slot].running = B_MIN(sl[slot].running + B_MIN(run, (u64)MRG_MAX_THREADS),
                                     (u64)MRG_MAX_THREADS);
            for (int p = 0; p < o->npct; p++) {
                char num[32], key[40];
                u64 v = 0;
                snprintf(key, sizeof(key), "p%s", rep_num(num, sizeof(num), o->pct[p]));
                jr_u64(jr_get(jr_get(jr_get(x, "latency_ns"), "percentiles"), key), &v);
                iv->pct_ns[p] = B_MAX(iv->pct_ns[p], v);
            }
            sl[slot].n++;
        }
    }
    for (i64 k = 1; k < nslot; k++) {
        if (!sl[k].n)
            continue;
        sl[k].iv.at_s = (double)(k * o->report_interval);
        sl[k].iv.secs /= sl[k].n;
        sl[k].iv.running = (int)sl[k].running;
        res->iv = res_grow(res->iv, &res->capiv, res->niv, sizeof(*res->iv));
        res->iv[res->niv++] = sl[k].iv;
    }
    free(sl);
    if (early)
        res_warn(res, "intervals_early", NULL,
                 "%d interval line(s) of the clients ended before the common window began: "
                 "left out of the merged lines (the totals count them)",
                 early);
    if (late)
        res_warn(res, "intervals_late", NULL,
                 "%d interval line(s) of the clients ended after the common window: left out "
                 "of the merged lines (the totals count them)",
                 late);
    return B_EXIT_OK;
}

/* The client's "end" as the enum of a result. */
static int mrg_end_of(const char *end)
{
    static const char *const names[] = {[RES_END_LIMIT] = "limit", [RES_END_SIGNAL] = "signal",
                                        [RES_END_FAILED] = "failed", [RES_END_FORCED] = "forced",
                                        [RES_END_QUEUE] = "queue_full"};
    for (int i = 1; i < (int)countof(names); i++)
        if (names[i] && !strcmp(names[i], end))
            return i;
    return RES_END_NONE;
}

/* mrg_interrupted - SIGINT/SIGTERM came: the error, true. */
static bool mrg_interrupted(struct res *res)
{
    if (!atomic_load(&b_stop))
        return false;
    b_fail(&res->err, B_EXIT_FAIL, "merge: interrupted by %s", os_stop_signame());
    return true;
}

/* mrg_clients - the options client-index/client-count of the results: each index once, in
 * 0..count-1, and every index there (a repeat names both files; each missing one is said). */
static int mrg_clients(struct res *res, struct mrg_client *cl, int n)
{
    i64 count = -1;
    int by[64], first = -1;
    char miss[256];
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        i64 idx = -1, cnt = -1;
        const struct jr_val *ov;
        if (!cl[i].ok)
            continue;
        ov = jr_get(cl[i].root, "options");
        if (!jr_i64(jr_get(ov, "client-count"), &cnt) || cnt < 1)
            continue; /* a run without --client-count */
        if (!jr_i64(jr_get(ov, "client-index"), &idx) || idx < 0 || idx >= cnt || cnt > 64)
            return mrg_field_err(&res->err, &cl[i], "options.client-index",
                                 "0 to client-count - 1 (client-count at most 64)"),
                   B_EXIT_FAIL;
        if (count < 0) {
            count = cnt, first = i;
            for (int j = 0; j < 64; j++)
                by[j] = -1;
        } else if (cnt != count) {
            b_fail(&res->err, B_EXIT_FAIL, "merge: %s: options.client-count is %lld, but %s has "
                                           "%lld",
                   cl[i].path, (long long)cnt, cl[first].path, (long long)count);
            return B_EXIT_FAIL;
        }
        if (by[idx] >= 0) {
            b_fail(&res->err, B_EXIT_FAIL, "merge: %s and %s: both are client-index %lld: one "
                                           "client's result given twice?",
                   cl[by[idx]].path, cl[i].path, (long long)idx);
            return B_EXIT_FAIL;
        }
        by[idx] = i;
    }
    if (count < 0)
        return B_EXIT_OK;
    miss[0] = 0;
    for (int j = 0; j < count; j++)
        if (by[j] < 0 && k < sizeof(miss))
            k += (size_t)snprintf(miss + k, sizeof(miss) - k, "%s%d", k ? ", " : "", j);
    if (miss[0]) {
        b_fail(&res->err, B_EXIT_FAIL, "merge: client-count is %lld, but no result of "
                                       "client-index %s",
               (long long)count, miss);
        return B_EXIT_FAIL;
    }
    return B_EXIT_OK;
}

/* mrg_sums - the merged counts fit: threads at most MRG_MAX_THREADS, events and latency sums
 * in 64 bits. */
static int mrg_sums(struct res *res, struct mrg_client *cl, int n)
{
    u64 thr = 0, ev = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        if (!cl[i].ok)
            continue;
        thr += (u64)cl[i].st.threads;
        if (ev + cl[i].st.d.events < ev || sum + cl[i].st.d.lat_sum_ns < sum) {
            b_fail(&res->err, B_EXIT_FAIL, "merge: %s: results.%s: the clients' sum overflows "
                                           "64 bits",
                   cl[i].path, ev + cl[i].st.d.events < ev ? "events" : "latency_ns.sum");
            return B_EXIT_FAIL;
        }
        ev += cl[i].st.d.events, sum += cl[i].st.d.lat_sum_ns;
        if (thr > MRG_MAX_THREADS) {
            b_fail(&res->err, B_EXIT_FAIL, "merge: %s: results.threads: the clients' threads add "
                                           "up to more than %d",
                   cl[i].path, MRG_MAX_THREADS);
            return B_EXIT_FAIL;
        }
    }
    return B_EXIT_OK;
}

/* mrg_main - the merge command: res gets the merged statistics, the options of the run, one
 * step per client, the facts (clients, skew, overlap) and warnings. Returns an exit code. */
static int mrg_main(struct res *res)
{
    struct bench_opts *o = res->o;
    int n = o->nfiles, ex = B_EXIT_OK, nok = 0, first = -1;
    struct mrg_client *cl;
    const struct wl_def *w = NULL;
    res->command = "merge";
    if (n < 1) {
        b_fail(&res->err, B_EXIT_USAGE, "merge: no files: bench merge A.json B.json ... (the "
                                        "--format=json results of the clients)");
        return B_EXIT_USAGE;
    }
    cl = b_xcalloc((size_t)n, sizeof(*cl));
    for (int i = 0; i < n && ex == B_EXIT_OK; i++) {
        cl[i].path = o->files[i];
        for (int j = 0; j < i; j++)
            if (!strcmp(cl[j].path, cl[i].path)) {
                char ep[200];
                my_escape(ep, sizeof(ep), cl[i].path, strlen(cl[i].path));
                b_fail(&res->err, B_EXIT_USAGE, "merge: %s: named twice (files %d and %d)", ep,
                       j + 1, i + 1);
                ex = B_EXIT_USAGE;
            }
        if (ex == B_EXIT_OK && mrg_interrupted(res))
            ex = B_EXIT_FAIL;
        else if (ex == B_EXIT_OK && mrg_load(&cl[i], &res->err) != B_OK)
            ex = res->err.ex ? res->err.ex : B_EXIT_FAIL;
    }
    /* every result: schema, then the same test and options as the first */
    for (int i = 0; i < n && ex == B_EXIT_OK; i++) {
        struct mrg_client *c = &cl[i];
        i64 ver = 0, minor = 0;
        const char *wl = "";
        if (mrg_interrupted(res)) {
            ex = B_EXIT_FAIL;
            break;
        }
        if (!c->ok)
            continue;
        if (!jr_i64(jr_get(c->root, "schema_version"), &ver) || ver != 1)
            ex = mrg_field_err(&res->err, c, "schema_version", "1"), ex = B_EXIT_ENV,
            res->err.ex = B_EXIT_ENV; /* another schema: as compare */
        else if (!jr_i64(jr_get(c->root, "schema_minor"), &minor) || minor < 1)
            ex = mrg_field_err(&res->err, c, "schema_minor",
                               "1 or more (the results of a bench that writes the window's "
                               "wall clock and the per-thread counts)"),
            ex = B_EXIT_FAIL;
        else if (!jr_str(jr_get(c->root, "workload"), &wl, NULL) || !(w = wl_find(wl)) ||
                 w->family == WL_CMD)
            ex = mrg_field_err(&res->err, c, "workload", "a test that bench runs"),
            ex = B_EXIT_FAIL;
        else if (!jr_get(c->root, "options") || jr_get(c->root, "options")->type != JR_OBJ)
            ex = mrg_field_err(&res->err, c, "options", "an object"), ex = B_EXIT_FAIL;
        else if (!(c->rs = jr_get(c->root, "results")) || c->rs->type != JR_OBJ) {
            snprintf(c->why, sizeof(c->why), "its run measured nothing (results: null)");
            c->ok = false;
        } else if (first >= 0 && mrg_same(&cl[first], c, &res->err) != B_OK)
            ex = B_EXIT_USAGE;
        if (ex == B_EXIT_OK && c->ok) {
            if (!jr_str(jr_get(c->root, "end"), &c->end, NULL) ||
                mrg_end_of(c->end) == RES_END_NONE) /* printed: only a name bench writes */
                c->end = "";
            jr_bool(jr_get(c->root, "complete"), &c->complete);
            if (first < 0)
                first = i;
            if (mrg_stats(c, w, &res->err) != B_OK)
                ex = B_EXIT_FAIL;
            else
                nok++;
        }
    }
    if (ex == B_EXIT_OK)
        ex = mrg_clients(res, cl, n);
    if (ex == B_EXIT_OK)
        ex = mrg_sums(res, cl, n);
    if (ex == B_EXIT_OK && !nok) {
        b_fail(&res->err, B_EXIT_FAIL, "merge: none of the %d file(s) holds a result: %s: %s", n,
               cl[0].path, cl[0].why);
        ex = B_EXIT_FAIL;
    }
    if (ex != B_EXIT_OK)
        goto out;
    w = wl_find(jr_get(cl[first].root, "workload")->s);
    res->w = w;
    mrg_options(o, w, jr_get(cl[first].root, "options"));

    /* the common window: the latest start to the earliest end; the union for the overlap */
    i64 s_min = INT64_MAX, s_max = INT64_MIN, e_min = INT64_MAX, e_max = INT64_MIN;
    int threads = 0; /* mrg_sums checked: at most MRG_MAX_THREADS */
    for (int i = 0; i < n; i++)
        if (cl[i].ok) {
            s_min = B_MIN(s_min, cl[i].st.start_unix_ns);
            s_max = B_MAX(s_max, cl[i].st.start_unix_ns);
            e_min = B_MIN(e_min, cl[i].st.end_unix_ns);
            e_max = B_MAX(e_max, cl[i].st.end_unix_ns);
            threads += cl[i].st.threads;
        }
    double common = e_min > s_max ? (double)(e_min - s_max) / 1e9 : 0,
           all = (double)(e_max - s_min) / 1e9, overlap = all > 0 ? 100.0 * common / all : 100;
    struct res_stats *m = &res->final;
    memset(m, 0, sizeof(*m));
    load_snap_init(&m->d, threads, w->nops);
    m->threads = threads;
    m->thr_min_ns = b_xcalloc((size_t)threads, sizeof(u64));
    m->thr_max_ns = b_xcalloc((size_t)threads, sizeof(u64));
    res->have_final = true;
    int at = 0, nbad = n - nok;
    bool complete = nok == n;
    o->threads = threads;
    for (int i = 0; i < n; i++) {
        struct res *step = res_step(res, w, "run");
        res_fact_str(step, "file", "%s", cl[i].path);
        if (!cl[i].ok) {
            step->rc = B_INVALID;
            b_seterr(&step->err, B_INVALID, 0, "%s: %s", cl[i].path, cl[i].why);
            res_warn(res, "client_lost", NULL, "client %d (%s) is not in the merged result: %s",
                     i + 1, cl[i].path, cl[i].why);
            continue;
        }
        const char *host = "";
        char eh[256];
        jr_str(jr_path(cl[i].root, "host.hostname"), &host, NULL);
        my_escape(eh, sizeof(eh), host, strlen(host)); /* from a file: no terminal controls */
        res_fact_str(step, "hostname", "%s", eh);
        double skew = (double)(cl[i].st.start_unix_ns - s_min) / 1e9;
        res_fact_num(step, "start_skew_s", skew);
        res_stats_merge(m, &cl[i].st);
        memcpy(m->d.thr_events + at, cl[i].st.d.thr_events,
               (size_t)cl[i].st.threads * sizeof(u64));
        memcpy(m->d.thr_sum_ns + at, cl[i].st.d.thr_sum_ns,
               (size_t)cl[i].st.threads * sizeof(u64));
        at += cl[i].st.threads;
        step->final = cl[i].st; /* the step owns it now */
        memset(&cl[i].st, 0, sizeof(cl[i].st));
        step->have_final = true;
        step->end = mrg_end_of(cl[i].end);
        step->complete = cl[i].complete;
        step->elapsed_s = step->final.total_s;
        if (skew > MRG_LATE_S)
            res_warn(res, "client_late", "start the clients with one --start-at",
                     "client %d (%s) started %.3f s after the first", i + 1, cl[i].path, skew);
        if (!cl[i].complete) {
            complete = false;
            nbad++;
            res_warn(res, "client_incomplete", NULL,
                     "client %d (%s) did not run to its end: it ended on '%s' after %.3f s; its "
                     "events until then are counted",
                     i + 1, cl[i].path, cl[i].end, step->final.total_s);
        }
    }
    m->window_s = m->total_s = m->at_s = common;
    m->start_unix_ns = s_max;
    m->end_unix_ns = e_min > s_max ? e_min : s_max;
    res->elapsed_s = all;
    res_fact_int(res, "clients", n);
    res_fact_int(res, "clients_merged", nok);
    res_fact_num(res, "start_skew_s", (double)(s_max - s_min) / 1e9);
    res_fact_num(res, "common_window_s", common);
    res_fact_num(res, "union_window_s", all);
    res_fact_num(res, "window_overlap_pct", overlap);
    if (overlap < MRG_OVERLAP_PCT)
        res_warn(res, "window_overlap", "start the clients with one --start-at and the same --time",
                 "the clients' measured windows overlap by %.1f%% only (%.3f s in common of "
                 "%.3f s): the rates are over the common window, the counts over each client's",
                 overlap, common, all);
    if ((ex = mrg_intervals(res, cl, n, s_max, e_min)) != B_EXIT_OK)
        goto out;
    res->end = complete ? RES_END_LIMIT : RES_END_FAILED;
    res->complete = complete;
    if (!complete) {
        b_fail(&res->err, B_EXIT_FAIL, "merge: %d of %d client(s) did not complete their run "
                                       "(see the warnings): the merged result is incomplete",
               nbad, n);
        ex = B_EXIT_FAIL;
    }
out:
    for (int i = 0; i < n; i++) {
        if (cl[i].st.thr_min_ns || cl[i].st.d.hist)
            res_stats_free(&cl[i].st);
        jr_free(&cl[i].doc);
    }
    free(cl);
    return ex;
}

/*== 23 cmp_ : bench compare: reports side by side ===========================*/
/*
 * `bench compare A.json B.json [C.json ...]`: JSON results bench wrote (`bench all
 * --format=json` reports first of all, and single runs: `bench cpu run --format=json`, the
 * oltp one-liner, ...) read back with the jr_ reader and laid side by side. Each input is
 * untrusted: not JSON, not a bench result, another schema_version, another command than A's
 * are refused with one line naming the file and the field.
 *
 * What is compared (cmp_collect): the measures, i.e. the numbers whose name says which way is
 * better: a rate (a name with "_per_s", "_iops", "_tps", an efficiency) is better higher; a
 * time (a name ending in _ns, _us, _ms, _s, or with "latency") or a "_pct" is better lower.
 * Numbers that say neither (sizes, counts, settings: mem_total_bytes, threads) are not
 * measures; the host facts among them are shown side by side at the top. Sources: the
 * document's facts (bench all's measures, a workload's own facts such as memory's
 * stream_*_mb_per_s), its results (events_per_s, counters per second, latency min, avg,
 * max and percentiles, per operation too), and, except in bench all reports (whose facts
 * already hold what their steps measured), each step's results. bench all's checks are
 * shown verdict by verdict.
 *
 * Noise: a measure's ratio to A is marked better or worse only when it differs from 1 by
 * more than its noise: the larger of --noise (percent, default 5) and the measure's own
 * spread in any of the files being compared, where the report carries one: the coefficient
 * of variation (population standard deviation / mean, percent) of the measure over the
 * run's --report-interval samples, when there are at least 3. bench all's facts carry no
 * spread (each is one window; STREAM is already the best of its passes): --noise applies.
 *
 * Nothing here prints: the result (facts, and one step per row) is rendered by rep_cmp_text,
 * or as JSON by the generic writer (docs/json.md "bench compare").
 * Limitations: a member name seen twice in a report counts once (the first).
 */

#define CMP_MAX_FILES 8
#define CMP_MAX_ROWS 4096
#define CMP_MAX_FILE_BYTES ((size_t)8 << 20)    /* a report is KiB; bench all's ~100 KiB */
#define CMP_MAX_ARENA_BYTES ((size_t)256 << 20) /* reader memory for all files together */
#define CMP_SCHEMA_VERSION 1 /* the schema_version it reads: REP_JSON_SCHEMA_VERSION (asserted in
                                rep_, which comes later) */

enum cmp_dir { CMP_NONE = 0, CMP_HIGHER = 1, CMP_LOWER = -1 };

/* One row: a measure (or a host fact, a check) across the files. */
struct cmp_row {
    char name[96];               /* as shown: "cpu.events_per_s", "latency_ns.p95" */
    char path[192];              /* where it is in a document: "facts.cpu.events_per_s" */
    int dir;                     /* enum cmp_dir */
    bool has[CMP_MAX_FILES];
    double v[CMP_MAX_FILES];
    double spread_pct[CMP_MAX_FILES]; /* the measure's own spread in that file; 0 if none */
};

struct cmp_ctx {
    struct res *res;
    int nfiles;
    const char *path[CMP_MAX_FILES];
    struct jr_doc doc[CMP_MAX_FILES];
    bool all_report;             /* A is a bench all report */
    struct cmp_row *rows;
    int nrows, caprows;
    int nlong, ndropped;         /* measures skipped: name too long; past CMP_MAX_ROWS */
};

static bool cmp_ends(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* cmp_dir_of - which way a measure named name is better (enum cmp_dir); CMP_NONE when the
 * name does not say (then it is not compared as a measure). */
static int cmp_dir_of(const char *name)
{
    if (cmp_ends(name, "_bytes"))
        return CMP_NONE; /* a size: mem.latency_max_bytes is how far the curve went */
    if (strstr(name, "_per_s") || strstr(name, "_iops") || cmp_ends(name, "_tps") ||
        cmp_ends(name, "efficiency"))
        return CMP_HIGHER;
    if (cmp_ends(name, "_ns") || cmp_ends(name, "_us") || cmp_ends(name, "_ms") ||
        cmp_ends(name, "_s") || strstr(name, "_ns_") || strstr(name, "_us_") ||
        strstr(name, "_ms_") || strstr(name, "latency") || cmp_ends(name, "_pct"))
        return CMP_LOWER;
    return CMP_NONE;
}

/* The row named name (added when new, in the order first seen); NULL past CMP_MAX_ROWS. */
static struct cmp_row *cmp_row(struct cmp_ctx *x, const char *name, const char *path, int dir)
{
    if (strlen(name) >= sizeof(x->rows[0].name) || strlen(path) >= sizeof(x->rows[0].path)) {
        x->nlong++; /* kept whole or not at all: a cut name would never match across files */
        return NULL;
    }
    for (int i = 0; i < x->nrows; i++)
        if (!strcmp(x->rows[i].name, name) && x->rows[i].dir == dir)
            return &x->rows[i];
    if (x->nrows >= CMP_MAX_ROWS) {
        x->ndropped++;
        return NULL;
    }
    if (x->nrows == x->caprows) {
        x->caprows = x->caprows ? 2 * x->caprows : 64;
        x->rows = realloc(x->rows, (size_t)x->caprows * sizeof(*x->rows));
        if (!x->rows)
            b_die("out of memory for %d compare rows", x->caprows);
    }
    struct cmp_row *r = &x->rows[x->nrows++];
    memset(r, 0, sizeof(*r));
    snprintf(r->name, sizeof(r->name), "%s", name);
    snprintf(r->path, sizeof(r->path), "%s", path);
    r->dir = dir;
    return r;
}

static void cmp_put(struct cmp_ctx *x, int f, const char *name, const char *path, int dir,
                    double v, double spread)
{
    struct cmp_row *r = cmp_row(x, name, path, dir);
    if (r && !r->has[f]) {
        r->has[f] = true;
        r->v[f] = v;
        r->spread_pct[f] = spread;
    }
}

/* The coefficient of variation (percent) of the number at sub-path sub of each item of the
 * intervals array iv; 0 with fewer than 3 samples or a zero mean. */
static double cmp_spread(const struct jr_val *iv, const char *sub)
{
    double sum = 0, sq = 0, v;
    int n = 0;
    for (const struct jr_val *it = jr_first(iv); it; it = jr_next(it))
        if (jr_num(jr_path(it, sub), &v)) {
            sum += v;
            sq += v * v;
            n++;
        }
    if (n < 3 || sum == 0)
        return 0;
    double mean = sum / n, var = sq / n - mean * mean;
    return var > 0 ? 100 * sqrt(var) / fabs(mean) : 0;
}

/* The measures of one results object r (at path rp, shown with prefix np; iv its intervals). */
static void cmp_results(struct cmp_ctx *x, int f, const struct jr_val *r, const char *rp,
                        const char *np, const struct jr_val *iv)
{
    char name[256], path[384], sub[256];
    double v;
    for (const struct jr_val *m = jr_first(r); m; m = jr_next(m))
        if (m->type == JR_NUM && cmp_ends(m->key, "_per_s") && jr_num(m, &v)) {
            snprintf(name, sizeof(name), "%s%s", np, m->key);
            snprintf(path, sizeof(path), "%s.%s", rp, m->key);
            cmp_put(x, f, name, path, CMP_HIGHER, v, cmp_spread(iv, m->key));
        }
    const struct jr_val *lat = jr_get(r, "latency_ns");
    static const char *const agg[] = {"min", "avg", "max"};
    for (size_t i = 0; i < countof(agg); i++)
        if (jr_num(jr_get(lat, agg[i]), &v)) {
            snprintf(name, sizeof(name), "%slatency_ns.%s", np, agg[i]);
            snprintf(path, sizeof(path), "%s.latency_ns.%s", rp, agg[i]);
            cmp_put(x, f, name, path, CMP_LOWER, v, 0);
        }
    for (const struct jr_val *p = jr_first(jr_get(lat, "percentiles")); p; p = jr_next(p))
        if (jr_num(p, &v)) {
            snprintf(name, sizeof(name), "%slatency_ns.%s", np, p->key);
            snprintf(path, sizeof(path), "%s.latency_ns.percentiles.%s", rp, p->key);
            snprintf(sub, sizeof(sub), "latency_ns.percentiles.%s", p->key);
            cmp_put(x, f, name, path, CMP_LOWER, v, cmp_spread(iv, sub));
        }
    for (const struct jr_val *op = jr_first(jr_get(r, "operations")); op; op = jr_next(op))
        for (const struct jr_val *p = jr_first(jr_path(op, "latency_ns.percentiles")); p;
             p = jr_next(p))
            if (jr_num(p, &v)) {
                snprintf(name, sizeof(name), "%s%s.latency_ns.%s", np, op->key, p->key);
                snprintf(path, sizeof(path), "%s.operations.%s.latency_ns.percentiles.%s", rp,
                         op->key, p->key);
                cmp_put(x, f, name, path, CMP_LOWER, v, 0);
            }
}

/* Facts shown side by side at the top (those present in any file), in this order: a name and
 * where to find it, first in bench all's facts, else in the document's host object. */
static const struct {
    const char *name, *path, *alt;
} cmp_host_keys[] = {
    {"hostname", "host.hostname", NULL},
    {"cpu_model", "facts.cpu_model", NULL},
    {"cpu_sockets", "facts.cpu_sockets", NULL},
    {"cpu_cores", "facts.cpu_cores", NULL},
    {"cpu_threads", "facts.cpu_threads", NULL},
    {"cpus", "facts.cpus_usable", "host.cpus"},
    {"numa_nodes", "facts.numa_nodes", NULL},
    {"mem_total_bytes", "facts.mem_total_bytes", "host.memory_bytes"},
    {"swap_total_bytes", "facts.swap_total_bytes", NULL},
    {"thp_enabled", "facts.thp_enabled", NULL},
    {"kernel", "facts.kernel", "host.kernel"},
    {"clocksource", "facts.clocksource", NULL},
    {"virtualization", "facts.virtualization", NULL},
    {"container", "facts.container", NULL},
    {"fs_type", "facts.fs_type", NULL},
    {"disk", "facts.disk", NULL},
    {"disk_model", "facts.disk_model", NULL},
    {"disk_rotational", "facts.disk_rotational", NULL},
    {"disk_scheduler", "facts.disk_scheduler", NULL},
    {"disk.io_engine", "facts.disk.io_engine", NULL},
    {"db.server_version", "facts.db.server_version", NULL},
    {"all.level", "facts.all.level", NULL},
};

/* Everything compared of file f. */
static void cmp_collect(struct cmp_ctx *x, int f)
{
    const struct jr_val *root = x->doc[f].root, *facts = jr_get(root, "facts");
    char path[384];
    double v;
    for (const struct jr_val *m = jr_first(facts); m; m = jr_next(m)) {
        int dir = cmp_dir_of(m->key);
        if (m->type != JR_NUM || dir == CMP_NONE || !strncmp(m->key, "all.", 4) ||
            !strncmp(m->key, "rec.", 4) || !jr_num(m, &v))
            continue;
        snprintf(path, sizeof(path), "facts.%s", m->key);
        cmp_put(x, f, m->key, path, dir, v, 0);
    }
    const struct jr_val *r = jr_get(root, "results");
    if (r && r->type == JR_OBJ)
        cmp_results(x, f, r, "results", "", jr_get(root, "intervals"));
    if (x->all_report)
        return;
    int i = 0;
    for (const struct jr_val *s = jr_first(jr_get(root, "steps")); s; s = jr_next(s), i++) {
        const struct jr_val *sr = jr_get(s, "results");
        char rp[64], np[64];
        if (!sr || sr->type != JR_OBJ)
            continue;
        snprintf(rp, sizeof(rp), "steps.%d.results", i);
        snprintf(np, sizeof(np), "steps.%d.", i);
        cmp_results(x, f, sr, rp, np, jr_get(s, "intervals"));
    }
}

/* "all (quick)", "cpu run", "oltp": what a document is the result of. */
static void cmp_what(const struct jr_val *root, char *out, size_t n)
{
    const char *act = "?", *wl = NULL, *lvl = NULL;
    (void)jr_str(jr_get(root, "action"), &act, NULL);
    (void)jr_str(jr_get(root, "workload"), &wl, NULL);
    (void)jr_str(jr_path(root, "facts.all.level"), &lvl, NULL);
    if (wl && strcmp(wl, act))
        snprintf(out, n, "%s %s", wl, act);
    else
        snprintf(out, n, "%s%s%s%s", act, lvl ? " (" : "", lvl ? lvl : "", lvl ? ")" : "");
}

/* Is file f a bench result A can be compared with? Exit code; e names the file and field. */
static int cmp_check_file(struct cmp_ctx *x, int f)
{
    const struct jr_val *root = x->doc[f].root, *a = x->doc[0].root;
    struct b_err *e = &x->res->err;
    const char *p = x->path[f], *type = NULL, *s1 = NULL, *s0 = NULL;
    i64 ver, ver0;
    if (root->type != JR_OBJ)
        return b_fail(e, B_EXIT_ENV, "compare: %s: not a bench result (the document is %s "
                      "%s, not an object)", p, root->type == JR_ARR || root->type == JR_OBJ ?
                      "an" : "a", jr_type_name(root->type));
    if (!jr_str(jr_get(root, "type"), &type, NULL) || strcmp(type, "result"))
        return b_fail(e, B_EXIT_ENV, "compare: %s: not a bench result (field 'type' is "
                      "%s%s%s)", p, type ? "'" : "",
                      type ? type : jr_get(root, "type") ? "not a string" : "missing",
                      type ? "'" : "");
    if (!jr_i64(jr_get(root, "schema_version"), &ver))
        return b_fail(e, B_EXIT_ENV, "compare: %s: not a bench result (field "
                      "'schema_version' is %s)", p, jr_get(root, "schema_version") ?
                      "not an integer" : "missing");
    if (ver != CMP_SCHEMA_VERSION) {
        b_hint(e, "compare reports of schema_version %d, written by this bench's version line",
               CMP_SCHEMA_VERSION);
        return b_fail(e, B_EXIT_ENV, "compare: %s: field 'schema_version' is %lld; this "
                      "bench reads %d", p, (long long)ver, CMP_SCHEMA_VERSION);
    }
    if (!jr_str(jr_get(root, "action"), &s1, NULL) || !jr_get(root, "facts") ||
        jr_get(root, "facts")->type != JR_OBJ)
        return b_fail(e, B_EXIT_ENV, "compare: %s: not a bench result (field '%s' is "
                      "missing or of the wrong type)", p, s1 ? "facts" : "action");
    if (f == 0)
        return B_EXIT_OK;
    (void)jr_i64(jr_get(a, "schema_version"), &ver0);
    static const char *const same[] = {"action", "workload"};
    for (size_t i = 0; i < countof(same); i++) {
        s1 = s0 = NULL;
        (void)jr_str(jr_get(root, same[i]), &s1, NULL);
        (void)jr_str(jr_get(a, same[i]), &s0, NULL);
        if ((s0 == NULL) != (s1 == NULL) || (s0 && strcmp(s0, s1))) {
            b_hint(e, "compare results of one command: bench all with bench all, cpu run with "
                      "cpu run");
            return b_fail(e, B_EXIT_ENV, "compare: %s: field '%s' is %s%s%s, but %s's is "
                          "%s%s%s", p, same[i], s1 ? "'" : "", s1 ? s1 : "null", s1 ? "'" : "",
                          x->path[0], s0 ? "'" : "", s0 ? s0 : "null", s0 ? "'" : "");
        }
    }
    return B_EXIT_OK;
}

/* A step per host row: value_K as the file has it (string, number or boolean), differs. */
static void cmp_host(struct cmp_ctx *x)
{
    for (size_t k = 0; k < countof(cmp_host_keys); k++) {
        const struct jr_val *v[CMP_MAX_FILES];
        const char *path = cmp_host_keys[k].path;
        bool any = false, differs = false;
        for (int f = 0; f < x->nfiles; f++) {
            v[f] = jr_path(x->doc[f].root, cmp_host_keys[k].path);
            if (!v[f] && cmp_host_keys[k].alt)
                v[f] = jr_path(x->doc[f].root, cmp_host_keys[k].alt);
            if (v[f] && v[f]->type != JR_STR && v[f]->type != JR_NUM && v[f]->type != JR_TRUE &&
                v[f]->type != JR_FALSE)
                v[f] = NULL;
            if (v[f] && !any && jr_path(x->doc[f].root, cmp_host_keys[k].path) != v[f])
                path = cmp_host_keys[k].alt;
            any |= v[f] != NULL;
        }
        if (!any)
            continue;
        struct res *s = res_step(x->res, NULL, "host");
        res_fact_str(s, "name", "%s", cmp_host_keys[k].name);
        res_fact_str(s, "path", "%s", path);
        for (int f = 0; f < x->nfiles; f++) {
            char key[32];
            i64 i;
            snprintf(key, sizeof(key), "value_%d", f + 1);
            if (!v[f])
                continue;
            if (v[f]->type == JR_STR)
                res_fact_str(s, key, "%s", v[f]->s);
            else if (jr_i64(v[f], &i))
                res_fact_int(s, key, i);
            else if (v[f]->type == JR_NUM)
                res_fact_num(s, key, v[f]->num);
            else
                res_fact_bool(s, key, v[f]->type == JR_TRUE);
            if (f > 0 && (!v[0] || v[0]->type != v[f]->type ||
                          (v[f]->type == JR_STR && strcmp(v[0]->s, v[f]->s)) ||
                          (v[f]->type == JR_NUM && v[0]->num != v[f]->num)))
                differs = true;
        }
        for (int f = 1; f < x->nfiles; f++)
            differs |= !v[f];
        res_fact_bool(s, "differs", differs);
    }
}

/* bench all's checks: one row per check id, each file's verdict. */
static void cmp_checks(struct cmp_ctx *x)
{
    const struct jr_val *steps = jr_get(x->doc[0].root, "steps");
    for (const struct jr_val *st = jr_first(steps); st; st = jr_next(st)) {
        const char *act = NULL, *id = NULL, *vd = NULL, *first = NULL, *path = NULL;
        if (!jr_str(jr_get(st, "action"), &act, NULL) || strcmp(act, "check") ||
            !jr_str(jr_path(st, "facts.id"), &id, NULL))
            continue;
        struct res *s = res_step(x->res, NULL, "check");
        bool differs = false;
        res_fact_str(s, "id", "%s", id);
        if (jr_str(jr_path(st, "facts.path"), &path, NULL))
            res_fact_str(s, "path", "%s", path);
        for (int f = 0; f < x->nfiles; f++) {
            vd = NULL;
            for (const struct jr_val *o = jr_first(jr_get(x->doc[f].root, "steps")); o && !vd;
                 o = jr_next(o)) {
                const char *a2 = NULL, *id2 = NULL;
                if (jr_str(jr_get(o, "action"), &a2, NULL) && !strcmp(a2, "check") &&
                    jr_str(jr_path(o, "facts.id"), &id2, NULL) && !strcmp(id2, id))
                    (void)jr_str(jr_path(o, "facts.verdict"), &vd, NULL);
            }
            char key[32];
            snprintf(key, sizeof(key), "verdict_%d", f + 1);
            res_fact_str(s, key, "%s", vd ? vd : "-");
            if (f == 0)
                first = vd ? vd : "-";
            else if (strcmp(first, vd ? vd : "-"))
                differs = true;
        }
        res_fact_bool(s, "differs", differs);
    }
}

/* One step per measure: values, ratios to A, marks. Counts of marks into the result. */
static void cmp_measures(struct cmp_ctx *x, double noise)
{
    int better[CMP_MAX_FILES] = {0}, worse[CMP_MAX_FILES] = {0}, same[CMP_MAX_FILES] = {0};
    char key[32];
    for (int i = 0; i < x->nrows; i++) {
        const struct cmp_row *r = &x->rows[i];
        double nz = noise;
        for (int f = 0; f < x->nfiles; f++)
            if (r->has[f] && r->spread_pct[f] > nz)
                nz = r->spread_pct[f];
        struct res *s = res_step(x->res, NULL, "measure");
        res_fact_str(s, "name", "%s", r->name);
        res_fact_str(s, "path", "%s", r->path);
        res_fact_str(s, "better", "%s", r->dir == CMP_HIGHER ? "higher" : "lower");
        res_fact_num(s, "noise_pct", nz);
        for (int f = 0; f < x->nfiles; f++) {
            if (!r->has[f])
                continue;
            snprintf(key, sizeof(key), "value_%d", f + 1);
            res_fact_num(s, key, r->v[f]);
            if (r->spread_pct[f] > 0) {
                snprintf(key, sizeof(key), "spread_pct_%d", f + 1);
                res_fact_num(s, key, r->spread_pct[f]);
            }
        }
        for (int f = 1; f < x->nfiles; f++) {
            const char *mark;
            double a = r->v[0], b = r->v[f];
            if (!r->has[0] || !r->has[f])
                mark = "missing";
            else if (a == 0 && b == 0)
                mark = "same";
            else if (a <= 0 || b < 0) /* no ratio to A, or a negative rate or time */
                mark = "n/a";
            else {
                double ratio = b / a;
                snprintf(key, sizeof(key), "ratio_%d", f + 1);
                res_fact_num(s, key, ratio);
                if (ratio < 0) /* a sign change: neither better nor worse */
                    mark = "n/a";
                else if (fabs(ratio - 1) * 100 <= nz)
                    mark = "same";
                else
                    mark = (ratio > 1) == (r->dir == CMP_HIGHER) ? "better" : "worse";
            }
            snprintf(key, sizeof(key), "mark_%d", f + 1);
            res_fact_str(s, key, "%s", mark);
            better[f] += !strcmp(mark, "better");
            worse[f] += !strcmp(mark, "worse");
            same[f] += !strcmp(mark, "same");
        }
    }
    for (int f = 1; f < x->nfiles; f++) {
        snprintf(key, sizeof(key), "compare.better_%d", f + 1);
        res_fact_int(x->res, key, better[f]);
        snprintf(key, sizeof(key), "compare.worse_%d", f + 1);
        res_fact_int(x->res, key, worse[f]);
        snprintf(key, sizeof(key), "compare.same_%d", f + 1);
        res_fact_int(x->res, key, same[f]);
    }
}

/*
 * cmp_main - `bench compare`: read and check every file (opts.cmp_files), then fill res:
 * facts (files, what each is, noise, counts of marks), steps "host", "measure", "check".
 * Returns the exit code: 0; a usage error (fewer than 2 or more than CMP_MAX_FILES files); 3
 * (B_EXIT_ENV: a file that cannot be read or is not a comparable bench result).
 */
static int cmp_main(struct res *res)
{
    const struct bench_opts *o = res->o;
    struct cmp_ctx x;
    int ex = B_EXIT_OK;
    char key[32], what[96];
    memset(&x, 0, sizeof(x));
    x.res = res;
    res->command = "compare";
    if (o->cmp_nfiles < 2 || o->cmp_nfiles > CMP_MAX_FILES) {
        b_hint(&res->err, "bench compare A.json B.json [C.json ...] [--noise=PCT]");
        return o->cmp_nfiles < 2 ? b_fail(&res->err, b_usage_exit(), "compare: needs at least "
                                          "two reports (%d given)", o->cmp_nfiles)
                                 : b_fail(&res->err, b_usage_exit(), "compare: too many "
                                          "reports (at most %d)", CMP_MAX_FILES);
    }
    x.nfiles = o->cmp_nfiles;
    size_t budget = CMP_MAX_ARENA_BYTES; /* memory for all the documents together */
    for (int f = 0; f < x.nfiles && ex == B_EXIT_OK; f++) {
        x.path[f] = o->cmp_files[f];
        if (atomic_load(&b_stop)) {
            ex = b_fail(&res->err, B_EXIT_FAIL, "compare: interrupted by %s before reading %s",
                        os_stop_signame(), x.path[f]);
            break;
        }
        int rc = jr_parse_report(x.path[f], CMP_MAX_FILE_BYTES, budget, &x.doc[f], &res->err);
        budget -= rc == B_OK ? x.doc[f].arena_bytes : 0;
        if (rc != B_OK) {
            char m[sizeof(res->err.msg)];
            snprintf(m, sizeof(m), "%s", res->err.msg);
            /* cannot be read, or is not bench's (docs/cli.md); interrupted: 1 */
            ex = rc == B_DONE ? B_EXIT_FAIL : B_EXIT_ENV;
            b_fail(&res->err, ex, "compare: %s", m);
            break;
        }
        if (f == 0) {
            const char *wl = NULL;
            x.all_report = jr_str(jr_get(x.doc[0].root, "workload"), &wl, NULL) &&
                           !strcmp(wl, "all");
        }
        ex = cmp_check_file(&x, f);
    }
    if (ex == B_EXIT_OK) {
        res_fact_int(res, "compare.files", x.nfiles);
        res_fact_num(res, "compare.noise_pct", o->cmp_noise_pct);
        for (int f = 0; f < x.nfiles; f++) {
            const struct jr_val *root = x.doc[f].root;
            const char *s = NULL;
            snprintf(key, sizeof(key), "file_%d", f + 1);
            res_fact_str(res, key, "%s", x.path[f]);
            cmp_what(root, what, sizeof(what));
            snprintf(key, sizeof(key), "what_%d", f + 1);
            res_fact_str(res, key, "%s", what);
            snprintf(key, sizeof(key), "hostname_%d", f + 1);
            res_fact_str(res, key, "%s", jr_str(jr_path(root, "host.hostname"), &s, NULL) ? s
                                                                                        : "?");
            s = NULL;
            snprintf(key, sizeof(key), "started_at_%d", f + 1);
            res_fact_str(res, key, "%s", jr_str(jr_get(root, "started_at"), &s, NULL) ? s : "?");
            cmp_collect(&x, f);
        }
        cmp_host(&x);
        cmp_measures(&x, o->cmp_noise_pct);
        if (x.nlong)
            res_warn(res, "compare_long_names", NULL, "compare: %d measure(s) skipped: names "
                     "longer than %zu bytes", x.nlong, sizeof(x.rows[0].name) - 1);
        if (x.ndropped)
            res_warn(res, "compare_too_many", NULL, "compare: %d measure(s) skipped: more than "
                     "%d measures", x.ndropped, CMP_MAX_ROWS);
        cmp_checks(&x);
        res->end = RES_END_LIMIT;
        res->complete = true;
    }
    for (int f = 0; f < x.nfiles; f++)
        jr_free(&x.doc[f]);
    free(x.rows);
    return ex;
}

static const struct opt_def opt_compare[] = {
    OPT("noise", DOUBLE, cmp_noise_pct, "5", 0, 1000, NULL,
        "percent within which a ratio counts as noise (a measure's own spread, when larger, "
        "wins)", NULL, 0),
};

/*== 24 wl_ : workload registry and the run path =============================*/
/*
 * One row per built-in test, as sysbench's sb_test_t: name, options, hooks. A new workload
 * is a new row. A test name given as a path ending in ".lua" (old scripts:
 * /usr/share/sysbench/cpu.lua) maps to the built-in of the same base name.
 */


static const struct opt_def opt_ping[] = {
    OPT("count", INT, ping_count, "10", 1, 1e6, NULL, "number of COM_PING round trips to time",
        NULL, 0),
};

/* The OLTP scripts share their hooks; a row of OLTP_VARIANTS (oltp_) gives name, variant and
 * options. */
#define WL_OLTP(nm, var, opttab, writes, shape)                                             \
    {.name = nm,                                                                             \
     .desc = "sysbench's " nm ".lua (MySQL/MariaDB)",                                        \
     .opts = opttab,                                                                         \
     .nopts = countof(opttab),                                                               \
     .db = true,                                                                             \
     .variant = var,                                                                         \
     .check = oltp_check,                                                                    \
     .check_common = oltp_check,                                                             \
     .prepare = oltp_prepare_cmd,                                                            \
     .cleanup = oltp_cleanup_cmd,                                                            \
     .prewarm = oltp_prewarm_cmd,                                                            \
     .init = oltp_init,                                                                      \
     .thread_init = oltp_thread_init,                                                        \
     .event = oltp_event,                                                                    \
     .ev_start = oltp_ev_start,                                                              \
     .ev_step = oltp_ev_step,                                                                \
     .ev_fd = oltp_ev_fd,                                                                    \
     .thread_done = oltp_thread_done,                                                        \
     .done = oltp_done,                                                                      \
     .family = WL_OLTP,                                                                      \
     .ctrs = oltp_ctrs,                                                                      \
     .nctrs = countof(oltp_ctrs)},

static const struct wl_def wl_all[] = {
    {.name = "fileio",
     .desc = "File I/O test",
     .opts = opt_fileio,
     .nopts = countof(opt_fileio),
     .nops = 3,
     .op_names = io_op_names,
     .check = io_check_run,
     .check_common = io_check,
     .prepare = io_prepare,
     .cleanup = io_cleanup,
     .init = io_init,
     .thread_init = io_thread_init,
     .event = io_event_any,
     .thread_done = io_thread_done,
     .done = io_done,
     .facts = io_facts,
     .family = WL_FILEIO,
     .ctrs = io_ctrs,
     .nctrs = countof(io_ctrs)},
    {.name = "ping",
     .desc = "MySQL/MariaDB connection check: server, TLS, authentication, round trips",
     .opts = opt_ping,
     .nopts = countof(opt_ping),
     .db = true,
     .family = WL_CMD,
     .command = ping_main},
    OLTP_VARIANTS(WL_OLTP)
    {.name = "oltp-0.4",
     .desc = "sysbench 0.4's --test=oltp (hidden)",
     .opts = opt_oltp_legacy,
     .nopts = countof(opt_oltp_legacy),
     .db = true,
     .hidden = true,
     .family = WL_OLTP},
    {.name = "slap",
     .desc = "mysqlslap (mariadb-slap), drop-in: bench slap -a -c 10,50 -i 3; it never drops "
             "a schema it did not create",
     .opts = opt_slap,
     .nopts = countof(opt_slap),
     .db = true,
     .family = WL_CMD,
     .command = slap_main},
    {.name = "oltp",
     .desc = "the sizing one-liner: bench oltp -h HOST -u USER [-p]: a schema of its own, a "
             "thread ladder, the knee",
     .opts = opt_oltp_sizing,
     .nopts = countof(opt_oltp_sizing),
     .db = true,
     .family = WL_CMD,
     .command = sizing_main},
    {.name = "all",
     .desc = "the one-page sizing report: bench all [--dir=DIR] [-h HOST -u USER] [--quick]",
     .opts = opt_all,
     .nopts = countof(opt_all),
     .db = true,
     .family = WL_CMD,
     .command = all_main},
    {.name = "merge",
     .desc = "one result from the --format=json results of clients that ran together: bench "
             "merge A.json B.json ... (docs/multi-host.md)",
     .files = true,
     .family = WL_CMD,
     .command = mrg_main},
    {.name = "hostfacts",
     .desc = "host and --file-dir facts as data (for `bench all`)",
     .opts = opt_hostfacts,
     .nopts = countof(opt_hostfacts),
     .hidden = true,
     .family = WL_CMD,
     .command = os_hostfacts_cmd},
    {.name = "compare",
     .desc = "reports side by side: bench compare A.json B.json [...]: ratios, marks beyond "
             "noise",
     .opts = opt_compare,
     .nopts = countof(opt_compare),
     .family = WL_CMD,
     .command = cmp_main},
    {.name = "cpu",
     .desc = "CPU performance test",
     .opts = opt_cpu,
     .nopts = countof(opt_cpu),
     .event = cpu_event,
     .family = WL_CPU},
    {.name = "memory",
     .desc = "Memory functions speed test",
     .opts = opt_memory,
     .nopts = countof(opt_memory),
     .own_limit = true,
     .check = mem_check,
     .init = mem_init,
     .thread_init = mem_thread_init,
     .event = mem_event,
     .thread_done = mem_thread_done,
     .done = mem_done,
     .family = WL_MEMORY},
    {.name = "threads",
     .desc = "Threads subsystem performance test",
     .opts = opt_threads,
     .nopts = countof(opt_threads),
     .check = thr_threads_check,
     .init = thr_threads_any_init,
     .event = thr_threads_any_event,
     .done = thr_done,
     .family = WL_THREADS},
    {.name = "mutex",
     .desc = "Mutex performance test",
     .opts = opt_mutex,
     .nopts = countof(opt_mutex),
     .own_limit = true,
     .init = thr_mutex_init,
     .event = thr_mutex_event,
     .done = thr_done,
     .family = WL_MUTEX},
};

/* wl_find - a built-in by name, or by a script path "dir/name.lua"; NULL if none. */
static const struct wl_def *wl_find(const char *name)
{
    const char *base = strrchr(name, '/');
    size_t len;
    base = base ? base + 1 : name;
    len = strlen(base);
    if (len > 4 && !strcmp(base + len - 4, ".lua"))
        len -= 4;
    else
        base = name, len = strlen(name);
    for (size_t i = 0; i < countof(wl_all); i++)
        if (strlen(wl_all[i].name) == len && !strncmp(wl_all[i].name, base, len))
            return &wl_all[i];
    return NULL;
}

/* ---- the run path: one workload, given options, a result; no printing, no exit ---- */

/* Runs ended by --forced-shutdown with workers still inside an event: not joined, not freed
 * until those workers have left (wl_reap); the process goes on meanwhile. */
static pthread_mutex_t wl_abandoned_mu = PTHREAD_MUTEX_INITIALIZER;
static struct load_run *wl_abandoned;

static void wl_run_free(struct load_run *r)
{
    if (r->w->done)
        r->w->done(r);
    if (r->forced)
        load_snap_free(&r->forced_snap);
    if (r->res_own) {
        res_free(r->res_own);
        free(r->res_own);
    }
    load_run_free(r);
    free(r);
}

/*
 * wl_reap - finish the abandoned runs whose workers have all left: join them, run the
 * workload's teardown, free. Waits up to wait_ms for them. Returns the runs still out
 * (their workers are stuck inside an event: memory they use stays allocated).
 */
BENCH_API int wl_reap(int wait_ms)
{
    u64 until = clk_now_ns() + (u64)wait_ms * 1000000u;
    int out;
    for (;;) {
        out = 0;
        pthread_mutex_lock(&wl_abandoned_mu);
        for (struct load_run **pp = &wl_abandoned; *pp;) {
            struct load_run *r = *pp;
            if (atomic_load(&r->running) == 0) {
                *pp = r->next_abandoned;
                load_join(r);
                wl_run_free(r);
            } else {
                out++;
                pp = &r->next_abandoned;
            }
        }
        pthread_mutex_unlock(&wl_abandoned_mu);
        if (!out || clk_now_ns() >= until)
            return out;
        clk_sleep_until(B_MIN(until, clk_now_ns() + 10000000u));
    }
}

/* One --report-interval sample: into the result, then to the sink. */
static void wl_on_interval(void *ctx, struct load_run *r, const struct load_snap *d,
                           double secs, double at_s)
{
    struct res *res = ctx;
    const struct bench_opts *o = r->o;
    struct res_interval iv;
    memset(&iv, 0, sizeof(iv));
    iv.at_s = at_s;
    iv.secs = secs;
    iv.end_unix_ns = (i64)d->t_ns + r->unix_off_ns;
    iv.events = d->events;
    memcpy(iv.ctr, d->ctr, sizeof(iv.ctr));
    iv.running = atomic_load(&r->running);
    if (r->nloops) { /* event loops: the clients not finished, as a thread each would count */
        iv.running = 0;
        for (int l = 0; l < r->nloops; l++)
            iv.running += atomic_load_explicit(&r->loops[l].live, memory_order_relaxed);
    }
    iv.busy = d->busy;
    iv.rate = r->rate > 0;
    if (iv.rate) {
        u64 now = clk_now_ns(), next = atomic_load(&r->next_arrival_ns);
        if (next < now)
            iv.queue = (u64)((double)(now - next) * r->rate / 1e9);
    }
    iv.npct = o->npct;
    for (int i = 0; i < o->npct; i++)
        iv.pct_ns[i] = hist_percentile(d->hist, o->pct[i], 0, UINT64_MAX);
    res->iv = res_grow(res->iv, &res->capiv, res->niv, sizeof(*res->iv));
    res->iv[res->niv++] = iv;
    if (res->sink && res->sink->interval)
        res->sink->interval(res->sink->ctx, res, &iv);
}

/* A --report-checkpoints window (cur - base): into the result, then to the sink. */
static void wl_on_checkpoint(void *ctx, struct load_run *r, const struct load_snap *cur,
                             double at_s)
{
    struct res *res = ctx;
    res->ckpt = res_grow(res->ckpt, &res->capckpt, res->nckpt, sizeof(*res->ckpt));
    struct res_stats *st = &res->ckpt[res->nckpt++];
    res_stats_from(st, r, cur, cur->t_ns);
    st->at_s = at_s;
    if (res->sink && res->sink->checkpoint)
        res->sink->checkpoint(res->sink->ctx, res, st);
}

static void wl_phase(struct res *res, int phase)
{
    if (res->sink && res->sink->phase)
        res->sink->phase(res->sink->ctx, res, phase);
}

/*
 * wl_run - run workload w once with options o (already checked: w->check) and fill *res
 * (res_init'ed by the caller, with the sink that sees the run live). Returns B_OK when the
 * run was measured, complete or not (res->end says how it ended, res->rc and res->err why),
 * or the code of a setup failure (res->err; nothing measured). Never prints, never exits:
 * a forced shutdown ends this run, abandoning workers still inside an event to wl_reap.
 */
BENCH_API int wl_run(const struct wl_def *w, struct bench_opts *o, struct res *res)
{
    struct load_run *r = b_xcalloc(1, sizeof(*r));
    const struct load_hooks hooks = {res, wl_on_interval, wl_on_checkpoint};
    u64 t0 = clk_now_ns();
    int rc;

    wl_reap(0);
    res->w = w;
    res->o = o;
    res->command = "run";
    load_run_init(r, w, o);
    r->o_own = *o; /* workers read the options until they leave, which may be after we return */
    r->o = &r->o_own;
    r->res = res;
    if (w->facts)
        w->facts(r);
    rc = load_start_at_setup(r); /* --start-at: the clock's state, a refusal */
    if (rc == B_OK) {
        wl_phase(res, RES_PH_HEADER);
        rc = w->init ? w->init(r) : B_OK;
    }
    if (rc == B_OK) {
        wl_phase(res, RES_PH_READY);
        rc = load_start(r);
    }
    if (rc == B_OK)
        rc = load_start_at_wait(r);
    if (rc < 0) {
        res->rc = rc;
        res->err = r->err;
        if (!res->err.rc)
            res->err.rc = rc;
        res->end = RES_END_NONE;
        wl_run_free(r);
        res->elapsed_s = (double)(clk_now_ns() - t0) / 1e9;
        return rc;
    }
    load_go(r);
    wl_phase(res, RES_PH_STARTED);
    load_run_main(r, &hooks);

    struct load_snap cur;
    u64 t_end;
    if (r->forced) {
        cur = r->forced_snap;
        t_end = cur.t_ns;
    } else {
        t_end = clk_now_ns();
        load_snap_init(&cur, r->nthreads, w->nops);
        load_snapshot(r, &cur);
        cur.t_ns = t_end;
    }
    res_stats_from(&res->final, r, &cur, t_end);
    res->have_final = true;
    if (r->forced)
        res->final.unfinished = (u64)cur.busy;
    else
        load_snap_free(&cur);
    for (int i = 0; i < r->nthreads && !r->forced; i++)
        res->end_why[r->thr[i].end_why]++;
    res->rc = atomic_load(&r->failed);
    if (res->rc)
        res->err = r->err;
    if (atomic_load(&r->queue_full))
        res->end = RES_END_QUEUE;
    else if (r->forced)
        res->end = RES_END_FORCED;
    else if (res->rc)
        res->end = RES_END_FAILED;
    else if (atomic_load(&b_stop))
        res->end = RES_END_SIGNAL, res->end_signal = atomic_load(&b_stop);
    else
        res->end = RES_END_LIMIT;
    res->complete = res->end == RES_END_LIMIT;
    wl_phase(res, RES_PH_STOPPED);
    if (r->forced) { /* what the stuck workers and the teardown write goes to the run's own */
        r->res_own = b_xcalloc(1, sizeof(*r->res_own));
        res_init(r->res_own, w, "run", &r->o_own, NULL);
        r->res = r->res_own;
        pthread_mutex_lock(&wl_abandoned_mu);
        r->next_abandoned = wl_abandoned;
        wl_abandoned = r;
        pthread_mutex_unlock(&wl_abandoned_mu);
    } else
        wl_run_free(r);
    res->elapsed_s = (double)(clk_now_ns() - t0) / 1e9;
    return B_OK;
}

/*== 25 rep_ : renderers: sysbench 1.0.20's text, JSON =======================*/
/*
 * Every block is line-compatible with sysbench 1.0.20 (spec section 5), so parsers written
 * for it keep working: the run header, interval lines, the histogram, "General statistics",
 * "Latency (ms)" and "Threads fairness". Percentiles are read from the log-linear histogram
 * (within 0.4%) and clamped to the exact min/max; min/avg/max/sum are exact.
 * Several percentiles (--percentile=50,95,99.9) print one line each, in sysbench's shape.
 */

/* nanoseconds to milliseconds, for reports */
static double rep_ms(u64 ns)
{
    return (double)ns / 1e6;
}

/* rep_num - the shortest text that reads back as exactly v, without an exponent for
 * values from 1e-4 up: "99.99999" where %g says "100", "99.9", "95". */
static const char *rep_num(char *out, size_t n, double v)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, n, "%.*g", prec, v);
        if (strtod(out, NULL) == v && (!strchr(out, 'e') || fabs(v) < 1e-4))
            break;
    }
    return out;
}

/* "95th percentile:" / "99.9th percentile:" right-aligned as sysbench's "%3dth" (the
 * sysbench persona takes integers only); the value as given, never rounded ("99.99999th"). */
static void rep_pct_label(char *out, size_t n, double p)
{
    char num[32];
    snprintf(out, n, "%sth percentile:", rep_num(num, sizeof(num), p));
}

/* A fact's string value, or "" when absent. */
static const char *rep_fact_str(const struct res *res, const char *key)
{
    const struct res_fact *f = res_fact(res, key);
    return f && f->type == RES_STR ? f->str : "";
}

/* Warnings of a result, on the message stream (b_msg: the persona's prefix). */
static void rep_warnings(const struct res *res)
{
    for (int i = 0; i < res->nwarns; i++) {
        b_msg(B_MSG_WARN, "%s", res->warns[i].msg);
        if (res->warns[i].hint[0])
            b_msg(B_MSG_HINT, "%s", res->warns[i].hint);
    }
}

/* ---- each family's lines: the header's mode lines, the final block, the interval line ---- */

static void rep_cpu_mode(const struct res *res)
{
    const struct bench_opts *o = res->o;
    if (o->verbosity >= 4)
        printf("Doing CPU performance benchmark\n\n");
    printf("Prime numbers limit: %lld\n\n", (long long)o->cpu_max_prime);
}

static void rep_cpu_final(const struct res *res, const struct res_stats *s)
{
    (void)res;
    printf("CPU speed:\n    events per second: %8.2f\n\n",
           s->window_s > 0 ? (double)s->d.events / s->window_s : 0.0);
}

static void rep_memx_mode(const struct res *res);
static void rep_mem_any_final(const struct res *res);
static void rep_pingpong_mode(const struct res *res);
static void rep_pingpong_final(const struct res *res);

static void rep_mem_mode(const struct res *res)
{
    const struct bench_opts *o = res->o;
    if (o->memory_mode != MEM_MODE_SB) {
        rep_memx_mode(res);
        return;
    }
    static const char *oper[] = {"read", "write", "none"}, *scope[] = {"global", "local"};
    if (o->verbosity >= 4)
        printf("Doing memory operations speed test\n");
    printf("Running memory speed test with the following options:\n");
    printf("  block size: %lluKiB\n", (unsigned long long)(o->memory_block_size / 1024));
    printf("  total size: %lluMiB\n", (unsigned long long)(o->memory_total_size / 1048576));
    printf("  operation: %s\n", oper[o->memory_oper]);
    printf("  scope: %s\n", scope[o->memory_scope]);
    printf("\n");
}

static void rep_mem_final(const struct res *res, const struct res_stats *s)
{
    const struct bench_opts *o = res->o;
    if (o->memory_mode != MEM_MODE_SB) {
        rep_mem_any_final(res);
        return;
    }
    double secs = s->window_s;
    double mib = (double)s->d.events * (double)o->memory_block_size / 1048576.0;
    printf("Total operations: %llu (%8.2f per second)\n\n", (unsigned long long)s->d.events,
           secs > 0 ? (double)s->d.events / secs : 0.0);
    if (o->memory_oper != MEM_NONE)
        printf("%4.2f MiB transferred (%4.2f MiB/sec)\n\n", mib, secs > 0 ? mib / secs : 0.0);
    printf("\n");
}

static void rep_threads_mode(const struct res *res)
{
    const struct bench_opts *o = res->o;
    if (o->threads_mode != THR_MODE_SB) {
        rep_pingpong_mode(res);
        return;
    }
    if (o->verbosity >= 4)
        printf("Doing thread subsystem performance test\nThread yields per test: %lld Locks "
               "used: %lld\n",
               (long long)o->thread_yields, (long long)o->thread_locks);
}

static void rep_mutex_mode(const struct res *res)
{
    if (res->o->verbosity >= 4)
        printf("Doing mutex performance test\n");
}

/* threads and mutex have no block of their own; sysbench prints an empty line for it */
static void rep_empty_final(const struct res *res, const struct res_stats *s)
{
    (void)s;
    if (res->w->family == WL_THREADS && res->o->threads_mode != THR_MODE_SB) {
        rep_pingpong_final(res);
        return;
    }
    printf("\n");
}

/* "Extra file open flags: sync dsync directio" (io_flags_text, also prepare's line) */
static void rep_io_flags(int words)
{
    char line[64];
    printf("%s\n", io_flags_text(words, line, sizeof(line)));
}

static void rep_io_mode(const struct res *res)
{
    const struct bench_opts *o = res->o;
    const struct res_fact *f;
    struct io_shared sh;
    char a[32], b[32];
    int mode = io_test_mode(o->file_test_mode);
    io_params(&sh, o, mode);
    if (o->persona != B_SYSBENCH && (f = res_fact(res, "dir"))) { /* what the files sit on */
        const struct res_fact *rot = res_fact(res, "device_rotational");
        const struct res_fact *fr = res_fact(res, "fs_free_bytes");
        printf("Directory %s: %s on %s (%s), %s free", f->str, rep_fact_str(res, "fs_type"),
               rep_fact_str(res, "fs_source"), rep_fact_str(res, "mount_options"),
               unit_fmt_size(fr ? (u64)fr->i : 0, a, sizeof(a)));
        if (res_fact(res, "device"))
            printf(", device %s%s%s%s%s", rep_fact_str(res, "device"),
                   !rot          ? ""
                   : rot->i == 1 ? " (rotational)"
                                 : " (solid state)",
                   res_fact(res, "device_model") ? ", model \"" : "",
                   rep_fact_str(res, "device_model"),
                   res_fact(res, "device_model") ? "\"" : "");
        printf("\n");
    }
    if (o->persona != B_SYSBENCH)
        rep_warnings(res);
    else /* sysbench's header: no word on the page cache */
        for (int i = 0; i < res->nwarns; i++)
            if (strcmp(res->warns[i].code, "page_cache"))
                b_msg(B_MSG_WARN, "%s", res->warns[i].msg);
    rep_io_flags(sh.flagwords);
    printf("%lld files, %s each\n", (long long)o->file_num,
           unit_fmt_size(sh.file_size, a, sizeof(a)));
    printf("%s total file size\n", unit_fmt_size(sh.file_size * (u64)sh.nfiles, b, sizeof(b)));
    printf("Block size %s\n", unit_fmt_size(sh.bs, a, sizeof(a)));
    if (o->file_merged_requests > 0)
        printf("Merging requests up to %s for sequential IO.\n",
               unit_fmt_size(sh.bs * (u64)o->file_merged_requests, a, sizeof(a)));
    if (io_mode_random(mode)) {
        printf("Number of IO requests: %lld\n", (long long)o->events);
        printf("Read/Write ratio for combined random IO test: %2.2f\n", o->file_rw_ratio);
    }
    if (o->file_fsync_freq > 0 && !o->file_fsync_all)
        printf("Periodic FSYNC enabled, calling fsync() each %lld requests.\n",
               (long long)o->file_fsync_freq);
    if (o->file_fsync_end && !o->file_fsync_all)
        printf("Calling fsync() at the end of test, Enabled.\n");
    if (o->file_fsync_all)
        printf("Calling fsync() after each write operation.\n");
    printf("Using %s I/O mode\n", sh.iomode == IO_SYNC    ? "synchronous"
                                  : sh.iomode == IO_ASYNC ? "asynchronous"
                                                          : "fast mmaped");
    if (o->persona != B_SYSBENCH && sh.iomode == IO_ASYNC)
        printf("io_uring queue depth %u per thread\n", sh.depth);
    if (o->validate)
        printf("Using checksums validation.\n");
    printf("Doing %s test\n", io_mode_text[mode]);
}

static void rep_io_final(const struct res *res, const struct res_stats *st)
{
    const struct bench_opts *o = res->o;
    const struct load_snap *s = &st->d;
    double d = st->window_s > 0 ? st->window_s : 1;
    printf("\nFile operations:\n");
    printf("    reads/s:                      %4.2f\n", (double)s->ctr[0] / d);
    printf("    writes/s:                     %4.2f\n", (double)s->ctr[1] / d);
    printf("    fsyncs/s:                     %4.2f\n\n", (double)s->ctr[2] / d);
    printf("Throughput:\n");
    printf("    read, MiB/s:                  %4.2f\n", (double)s->ctr[3] / 1048576.0 / d);
    printf("    written, MiB/s:               %4.2f\n\n", (double)s->ctr[4] / 1048576.0 / d);
    if (o->persona == B_SYSBENCH || !o->npct)
        return;
    /* bench: each operation's own latency (fsync latency is what a redo log waits for) */
    printf("Latency by operation (ms):\n");
    for (int k = 0; k < s->nops; k++) {
        u64 n = hist_total(&s->op_hist[k]);
        if (!n)
            continue;
        printf("    %-6s %10llu ops ", res->w->op_names[k], (unsigned long long)n);
        for (int i = 0; i < o->npct; i++)
            printf(" %g%%: %.3f", o->pct[i],
                   rep_ms(hist_percentile(&s->op_hist[k], o->pct[i], 0, UINT64_MAX)));
        printf("\n");
    }
    printf("\n");
}

/* " lat (ms,50%,95%): 0.12,0.34" - the percentiles of an interval line (label: "lat" or
 * "latency", as sysbench words it per test; decimals 2, or 3 for fileio) */
static void rep_interval_pcts(const struct res *res, const struct res_interval *iv,
                              const char *label, int decimals)
{
    const struct bench_opts *o = res->o;
    if (!o->npct)
        return;
    char num[32];
    printf(" %s (ms,", label);
    for (int i = 0; i < o->npct; i++)
        printf("%s%s%%", i ? "," : "", rep_num(num, sizeof(num), o->pct[i]));
    printf("):");
    for (int i = 0; i < iv->npct; i++)
        printf("%s%4.*f", i ? "," : " ", decimals, rep_ms(iv->pct_ns[i]));
}

static void rep_io_interval(const struct res *res, const struct res_interval *iv)
{
    double x = iv->secs > 0 ? iv->secs : 1;
    printf("[ %.0fs ] reads: %4.2f MiB/s writes: %4.2f MiB/s fsyncs: %4.2f/s", iv->at_s,
           (double)iv->ctr[3] / 1048576.0 / x, (double)iv->ctr[4] / 1048576.0 / x,
           (double)iv->ctr[2] / x);
    rep_interval_pcts(res, iv, "latency", 3);
    printf("\n");
}

static void rep_mem_interval(const struct res *res, const struct res_interval *iv)
{
    if (res->o->memory_mode != MEM_MODE_SB)
        return; /* one event per thread: no rate to show */
    double mib = (double)iv->events * (double)res->o->memory_block_size / 1048576.0;
    printf("[ %.0fs ] %4.2f MiB/sec\n", iv->at_s, iv->secs > 0 ? mib / iv->secs : 0.0);
}

static void rep_generic_interval(const struct res *res, const struct res_interval *iv)
{
    printf("[ %.0fs ] thds: %d eps: %4.2f", iv->at_s, iv->running,
           iv->secs > 0 ? (double)iv->events / iv->secs : 0.0);
    rep_interval_pcts(res, iv, "lat", 2);
    printf("\n");
}

/* The bench persona's OLTP header line: the server and the transport the workers use. */
static void rep_oltp_mode(const struct res *res)
{
    const struct res_fact *tls = res_fact(res, "tls");
    if (!res_fact(res, "server"))
        return;
    bool unix_sock = !strcmp(rep_fact_str(res, "transport"), "unix"), t = tls && tls->i;
    printf("Server: %s (%s), %s%s%s%s%s\n\n", rep_fact_str(res, "server"),
           rep_fact_str(res, "server_version"), unix_sock ? "unix socket" : t ? "" : "TCP",
           unix_sock && t ? ", " : "", t ? rep_fact_str(res, "tls_version") : "",
           t ? " " : unix_sock ? "" : ", no TLS", t ? rep_fact_str(res, "tls_cipher") : "");
    const struct res_fact *loops = res_fact(res, "event_loops");
    if (loops && loops->i > 0) /* a thread per connection, as sysbench, goes unsaid */
        printf("Client I/O: %s, %lld connection%s on %lld event loop%s\n\n",
               rep_fact_str(res, "client_io"), (long long)res->o->threads,
               res->o->threads == 1 ? "" : "s", (long long)loops->i, loops->i == 1 ? "" : "s");
}

static void rep_oltp_final(const struct res *res, const struct res_stats *st)
{
    const struct load_snap *s = &st->d;
    u64 rd = s->ctr[0], wr = s->ctr[1], ot = s->ctr[2], total = rd + wr + ot;
    double d = st->window_s > 0 ? st->window_s : 1;
    char n[32];
    (void)res;
    printf("SQL statistics:\n");
    printf("    queries performed:\n");
    printf("        read:                            %llu\n", (unsigned long long)rd);
    printf("        write:                           %llu\n", (unsigned long long)wr);
    printf("        other:                           %llu\n", (unsigned long long)ot);
    printf("        total:                           %llu\n", (unsigned long long)total);
    snprintf(n, sizeof(n), "%llu", (unsigned long long)s->events);
    printf("    transactions:                        %-6s (%.2f per sec.)\n", n,
           (double)s->events / d);
    snprintf(n, sizeof(n), "%llu", (unsigned long long)total);
    printf("    queries:                             %-6s (%.2f per sec.)\n", n, (double)total / d);
    snprintf(n, sizeof(n), "%llu", (unsigned long long)s->ctr[3]);
    printf("    ignored errors:                      %-6s (%.2f per sec.)\n", n,
           (double)s->ctr[3] / d);
    snprintf(n, sizeof(n), "%llu", (unsigned long long)s->ctr[4]);
    printf("    reconnects:                          %-6s (%.2f per sec.)\n\n", n,
           (double)s->ctr[4] / d);
}

static void rep_oltp_interval(const struct res *res, const struct res_interval *iv)
{
    double x = iv->secs > 0 ? iv->secs : 1;
    u64 q = iv->ctr[0] + iv->ctr[1] + iv->ctr[2];
    printf("[ %.0fs ] thds: %d tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f)", iv->at_s,
           iv->running, (double)iv->events / x, (double)q / x, (double)iv->ctr[0] / x,
           (double)iv->ctr[1] / x, (double)iv->ctr[2] / x);
    rep_interval_pcts(res, iv, "lat", 2);
    printf(" err/s: %4.2f reconn/s: %4.2f\n", (double)iv->ctr[3] / x, (double)iv->ctr[4] / x);
}

/* The text renderer of each family (enum wl_family). */
static const struct rep_family {
    void (*mode)(const struct res *res);  /* header lines (warnings: after them, unless own) */
    bool own_warnings;                    /* mode prints the warnings where they belong */
    void (*ready)(const struct res *res); /* lines once the workload's init is done */
    void (*final)(const struct res *res, const struct res_stats *s); /* the test's block */
    void (*interval)(const struct res *res, const struct res_interval *iv);
} rep_families[] = {
    [WL_CMD] = {NULL, false, NULL, NULL, NULL},
    [WL_CPU] = {rep_cpu_mode, false, NULL, rep_cpu_final, rep_generic_interval},
    [WL_MEMORY] = {rep_mem_mode, false, NULL, rep_mem_final, rep_mem_interval},
    [WL_THREADS] = {rep_threads_mode, false, NULL, rep_empty_final, rep_generic_interval},
    [WL_MUTEX] = {rep_mutex_mode, false, NULL, rep_empty_final, rep_generic_interval},
    [WL_FILEIO] = {rep_io_mode, true, NULL, rep_io_final, rep_io_interval},
    [WL_OLTP] = {NULL, false, rep_oltp_mode, rep_oltp_final, rep_oltp_interval},
};

/* ---- the run: header, interval lines, the final block, checkpoints ---- */

/* --start-at in the bench persona's header: the instant and the clock's state. */
static void rep_start_at(const struct res *res)
{
    const struct res_fact *sync = res_fact(res, "clock_synchronized"),
                          *est = res_fact(res, "clock_esterror_us"),
                          *mx = res_fact(res, "clock_maxerror_us");
    if (res->o->persona != B_BENCH || !res_fact(res, "start_at"))
        return;
    printf("Measured window starts at %s (", rep_fact_str(res, "start_at"));
    if (sync && est && mx)
        printf("clock %s, estimated error %.3f ms, maximum error %.3f ms)\n",
               sync->i ? "synchronized" : "NOT synchronized", (double)est->i / 1e3,
               (double)mx->i / 1e3);
    else
        printf("clock state unknown)\n");
}

static void rep_header(const struct res *res)
{
    const struct bench_opts *o = res->o;
    printf("Running the test with following options:\n");
    printf("Number of threads: %lld\n", (long long)o->threads);
    if (o->client_count > 0 && o->persona == B_BENCH) /* --client-index, --client-count */
        printf("Client %lld of %lld (client index %lld): one run of %lld threads in all\n",
               (long long)o->client_index + 1, (long long)o->client_count,
               (long long)o->client_index, (long long)(o->threads * o->client_count));
    if (o->warmup_time)
        printf("Warmup time: %llds\n", (long long)o->warmup_time);
    if (o->rate)
        printf("Target transaction rate: %lld/sec\n", (long long)o->rate);
    if (o->report_interval)
        printf("Report intermediate results every %lld second(s)\n",
               (long long)o->report_interval);
    if (o->nckpt) {
        printf("Report checkpoint(s) at ");
        for (int i = 0; i < o->nckpt; i++)
            printf("%s%g", i ? ", " : "", o->ckpt[i]);
        printf(" seconds\n");
    }
    if (o->debug)
        printf("Debug mode enabled.\n\n");
    if (o->validate)
        printf("Validation checks: on.\n\n");
    if (o->rand_seed)
        printf("Initializing random number generator from seed (%lld).\n\n",
               (long long)o->rand_seed);
    else
        printf("Initializing random number generator from current time\n\n");
    if (o->forced_s >= 0 && o->time_s)
        printf("Forcing shutdown in %.0f seconds\n", (double)o->time_s + o->forced_s);
    rep_start_at(res);
    printf("\n");
    const struct rep_family *f = &rep_families[res->w->family];
    if (f->mode)
        f->mode(res);
    if (!f->own_warnings)
        rep_warnings(res);
}

/* Once the workload's init is done: its own lines, then sysbench's. */
static void rep_ready(const struct res *res)
{
    if (rep_families[res->w->family].ready)
        rep_families[res->w->family].ready(res);
    printf("Initializing worker threads...\n\n");
    fflush(stdout);
}

/* One interval sample: the family's line, and --rate's queue line. */
static void rep_interval(const struct res *res, const struct res_interval *iv)
{
    if (res->o->verbosity < 3)
        return;
    if (rep_families[res->w->family].interval)
        rep_families[res->w->family].interval(res, iv);
    if (iv->rate)
        printf("[ %.0fs ] queue length: %llu concurrency: %d\n", iv->at_s,
               (unsigned long long)iv->queue, iv->busy);
    fflush(stdout);
}

/* The histogram in sysbench's layout: its 1024 log buckets over 0.001..100000 ms. */
static void rep_histogram(const struct hist *h)
{
    static u64 sb[1024];
    const double lo = log(0.001), mult = 1023.0 / (log(100000.0) - log(0.001));
    u64 mx = 0;
    memset(sb, 0, sizeof(sb));
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        u64 c = atomic_load_explicit(&h->count[i], memory_order_relaxed);
        if (!c)
            continue;
        double ms = (double)(hist_bucket_lo(i) + (hist_bucket_hi(i) - 1 - hist_bucket_lo(i)) / 2) /
                    1e6;
        double x = ms > 0 ? floor((log(ms) - lo) * mult + 0.5) : 0;
        int k = x < 0 ? 0 : x > 1023 ? 1023 : (int)x;
        sb[k] += c;
        mx = B_MAX(mx, sb[k]);
    }
    printf("Latency histogram (values are in milliseconds)\n");
    printf("       value  ------------- distribution ------------- count\n");
    for (int k = 0; k < 1024; k++) {
        if (!sb[k])
            continue;
        char bar[41];
        int n = (int)floor((double)sb[k] * 40.0 / (double)mx + 0.5);
        memset(bar, '*', (size_t)n);
        bar[n] = 0;
        printf("%12.3f |%-40s %llu\n", exp(k / mult + lo), bar, (unsigned long long)sb[k]);
    }
    printf(" \n");
}

/* rep_final - the test's own block, "General statistics", "Latency (ms)", "Threads fairness"
 * for one window (the whole run with last, or a checkpoint). */
static void rep_final(const struct res *res, const struct res_stats *st, bool last)
{
    const struct bench_opts *o = res->o;
    const struct load_snap *d = &st->d;
    int n = st->threads;
    u64 mn = d->events ? d->lat_min_ns : 0, mx = d->events ? d->lat_max_ns : 0;

    if (last && o->histogram && o->npct)
        rep_histogram(d->hist);
    if (rep_families[res->w->family].final)
        rep_families[res->w->family].final(res, st);
    if (st->unfinished)
        printf("Number of unfinished transactions on forced shutdown: %llu\n\n",
               (unsigned long long)st->unfinished);
    printf("General statistics:\n");
    printf("    total time:                          %.4fs\n", st->total_s);
    printf("    total number of events:              %llu\n\n", (unsigned long long)d->events);
    printf("Latency (ms):\n");
    printf("         min: %39.2f\n", rep_ms(mn));
    printf("         avg: %39.2f\n", d->events ? rep_ms(d->lat_sum_ns) / (double)d->events : 0.0);
    printf("         max: %39.2f\n", rep_ms(mx));
    if (o->npct) {
        for (int i = 0; i < o->npct; i++) {
            char label[64];
            rep_pct_label(label, sizeof(label), o->pct[i]);
            printf("%25s %27.2f\n", label, rep_ms(hist_percentile(d->hist, o->pct[i], mn, mx)));
        }
    } else
        printf("         percentile stats:               disabled\n");
    printf("         sum: %39.2f\n\n", rep_ms(d->lat_sum_ns));

    double ev_avg = 0, ev_var = 0, t_avg = 0, t_var = 0;
    for (int i = 0; i < n; i++) {
        ev_avg += (double)d->thr_events[i] / n;
        t_avg += (double)d->thr_sum_ns[i] / 1e9 / n;
    }
    for (int i = 0; i < n; i++) {
        double a = (double)d->thr_events[i] - ev_avg, b = (double)d->thr_sum_ns[i] / 1e9 - t_avg;
        ev_var += a * a / n;
        t_var += b * b / n;
    }
    printf("Threads fairness:\n");
    printf("    events (avg/stddev):           %.4f/%3.2f\n", ev_avg, sqrt(ev_var));
    printf("    execution time (avg/stddev):   %.4f/%3.2f\n\n", t_avg, sqrt(t_var));

    if (o->debug) {
        printf("DEBUG: Verbose per-thread statistics:\n\n");
        for (int i = 0; i < n; i++) {
            u64 ev = d->thr_events[i];
            printf("DEBUG:     thread #%3d: min: %.4fs  avg: %.4fs  max: %.4fs  events: %llu\n",
                   i, ev ? (double)st->thr_min_ns[i] / 1e9 : 0.0,
                   ev ? (double)d->thr_sum_ns[i] / 1e9 / (double)ev : 0.0,
                   ev ? (double)st->thr_max_ns[i] / 1e9 : 0.0, (unsigned long long)ev);
            printf("DEBUG:                  total time taken by event execution: %.4fs\n",
                   (double)d->thr_sum_ns[i] / 1e9);
        }
        printf("\n");
    }
    fflush(stdout);
}

static void rep_checkpoint(const struct res *res, const struct res_stats *st)
{
    printf("[ %gs ] Checkpoint report:\n", st->at_s);
    rep_final(res, st, false);
}

/* rep_facts - a result's facts as "key: value" lines, in the order they were found (the
 * hidden `bench hostfacts`; `bench all` will lay them out in its report). */
static void rep_facts(const struct res *res)
{
    char num[64];
    for (int i = 0; i < res->nfacts; i++) {
        const struct res_fact *f = &res->facts[i];
        switch (f->type) {
        case RES_INT:
            printf("%s: %lld\n", f->key, (long long)f->i);
            break;
        case RES_NUM:
            printf("%s: %s\n", f->key, rep_num(num, sizeof(num), f->num));
            break;
        case RES_BOOL:
            printf("%s: %s\n", f->key, f->i ? "true" : "false");
            break;
        default:
            printf("%s: %s\n", f->key, f->str ? f->str : "");
        }
    }
    fflush(stdout);
}

/* A fact's integer (or boolean) value, or 0 when absent. */
static i64 rep_fact_int(const struct res *res, const char *key)
{
    const struct res_fact *f = res_fact(res, key);
    return f && (f->type == RES_INT || f->type == RES_BOOL) ? f->i : 0;
}

/* `bench ping`: the server, TLS, plugin and connect time, the server's settings, and one line
 * per kind of round trip (its step's final statistics), as far as the ping got. */
static void rep_ping(const struct res *res)
{
    if (!res_fact(res, "server"))
        return; /* no login: the error says it all */
    bool tls = rep_fact_int(res, "tls") != 0;
    bool is_unix = !strcmp(rep_fact_str(res, "transport"), "unix");
    printf("Connected to %s\n", rep_fact_str(res, "server"));
    printf("    server:            %s%s, connection id %u\n", rep_fact_str(res, "server_version"),
           rep_fact_int(res, "server_mariadb") ? " (MariaDB)" : "",
           (unsigned)rep_fact_int(res, "connection_id"));
    if (tls)
        printf("    TLS:               %s %s (certificate %s)\n",
               rep_fact_str(res, "tls_version"), rep_fact_str(res, "tls_cipher"),
               rep_fact_int(res, "tls_verified") ? "verified" : "not verified");
    else
        printf("    TLS:               off (%s)\n", rep_fact_str(res, "tls_off_reason"));
    if (!strcmp(rep_fact_str(res, "compression"), "zlib"))
        printf("    compression:       zlib (bench's own deflate; the server's zlib)\n");
    printf("    authentication:    %s as '%s'\n", rep_fact_str(res, "auth_plugin"),
           rep_fact_str(res, "user"));
    const struct res_fact *cm = res_fact(res, "connect_ms");
    printf("    connect:           %.2f ms (%s%s + login)\n", cm ? cm->num : 0.0,
           is_unix ? "socket" : "TCP", tls ? " + TLS" : "");
    if (res_fact(res, "server_hostname")) {
        char bp[32];
        i64 bpv = rep_fact_int(res, "innodb_buffer_pool_size_bytes");
        printf("    server settings:   hostname %s, max_connections %s, "
               "innodb_buffer_pool_size %s\n",
               rep_fact_str(res, "server_hostname"), rep_fact_str(res, "max_connections"),
               bpv ? unit_fmt_size((u64)bpv, bp, sizeof(bp))
                   : rep_fact_str(res, "innodb_buffer_pool_size"));
    }
    i64 n = rep_fact_int(res, "ping_count");
    for (int k = 0; k < res->nsteps; k++) {
        const struct res *s = &res->steps[k];
        const struct load_snap *d = &s->final.d;
        u64 mn = d->lat_min_ns, mx = d->lat_max_ns;
        if (!s->have_final || !d->events)
            continue;
        printf("    %-27s %lld round trips%s, ms: min %.3f avg %.3f p50 %.3f p95 %.3f "
               "p99 %.3f max %.3f\n",
               s->command, (long long)d->events, (i64)d->events < n ? " (interrupted)" : "",
               rep_ms(mn), rep_ms(d->lat_sum_ns / d->events),
               rep_ms(hist_percentile(d->hist, 50, mn, mx)),
               rep_ms(hist_percentile(d->hist, 95, mn, mx)),
               rep_ms(hist_percentile(d->hist, 99, mn, mx)), rep_ms(mx));
    }
}

/* A command's text renderer, by workload. */
typedef void (*rep_render_fn)(const struct res *res);

/* ---- bench all: the page (all_main's result): <= 60 lines of <= 100 columns ---- */

static void rep_all_line(const char *fmt, ...) B_PRINTF(1, 2);
static void rep_all_line(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    size_t n = strlen(line);
    while (n && line[n - 1] == ' ')
        n--;
    printf("%.*s\n", (int)B_MIN(n, 100), line);
}

/* A measure as text: "-" when absent. */
static const char *rep_all_v(const struct res *res, const char *key, int prec, char *out,
                             size_t n)
{
    bool h;
    double v = all_num(res, key, &h);
    if (!h)
        return "-";
    if (prec < 0)
        snprintf(out, n, "%.4g", v);
    else
        snprintf(out, n, "%.*f", prec, v);
    return out;
}

/* The latency plateaus found in the curve (to the working set each reaches) and the cache
 * sizes the hardware claims beside them; an implausible claimed L3 said as such. */
static void rep_all_latency(const struct res *res)
{
    static const char *const lv[4] = {"l1", "l2", "l3", "dram"}, *const up[4] = {"L1", "L2",
                                                                                 "L3", "DRAM"};
    char line[160], v[32], sz[4][16];
    size_t n = 0;
    n += (size_t)snprintf(line + n, sizeof(line) - n, "          load latency");
    for (int i = 0; i < 4; i++) {
        char k[48];
        snprintf(k, sizeof(k), "mem.latency_%s_ns", lv[i]);
        rep_all_v(res, k, 1, v, sizeof(v));
        snprintf(k, sizeof(k), "mem.latency_%s_to_bytes", lv[i]);
        double to = all_num(res, k, NULL);
        unit_fmt_size((u64)to, sz[i], sizeof(sz[i]));
        if (n < sizeof(line))
            n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %s %s%s%s%s", i ? "," : "",
                                  up[i], res_fact(res, k) ? v : "-", res_fact(res, k) ? " ns" : "",
                                  to > 0 ? i == 3 ? " to " : " <=" : "", to > 0 ? sz[i] : "");
    }
    rep_all_line("%s", line);
    if (!res_fact(res, "mem.cache_l3_claimed_bytes"))
        return;
    char c1[16], c2[16], c3[16];
    unit_fmt_size((u64)all_num(res, "mem.cache_l1d_claimed_bytes", NULL), c1, sizeof(c1));
    unit_fmt_size((u64)all_num(res, "mem.cache_l2_claimed_bytes", NULL), c2, sizeof(c2));
    unit_fmt_size((u64)all_num(res, "mem.cache_l3_claimed_bytes", NULL), c3, sizeof(c3));
    bool ok = all_num(res, "mem.llc_claim_plausible", NULL) > 0;
    rep_all_line("          claimed (%s): L1d %s, L2 %s, L3 %s%s; knees in the curve: %s",
                 all_str(res, "mem.cache_claimed_from"), c1, c2, c3, ok ? "" : " (implausible)",
                 rep_all_v(res, "mem.latency_knees", 0, v, sizeof(v)));
}

static void rep_all(const struct res *res)
{
    char a[32], b[32], c[32], d[32], e[32], f[32];
    const double gib = 1073741824.0;
    rep_all_line("bench all (%s): %s, %s, one page", all_str(res, "all.level"),
                 all_str(res, "cpu_model"), all_str(res, "kernel"));
    rep_all_line("%s", "");
    rep_all_line("HOST      %s sockets, %s cores, %s threads (%s usable), NUMA nodes %s, RAM %s GiB",
                 rep_all_v(res, "cpu_sockets", 0, a, sizeof(a)),
                 rep_all_v(res, "cpu_cores", 0, b, sizeof(b)),
                 rep_all_v(res, "cpu_threads", 0, c, sizeof(c)),
                 rep_all_v(res, "cpus_usable", 0, d, sizeof(d)),
                 rep_all_v(res, "numa_nodes", 0, e, sizeof(e)),
                 all_num(res, "mem_total_bytes", NULL) > 0
                     ? (snprintf(f, sizeof(f), "%.1f", all_num(res, "mem_total_bytes", NULL) / gib), f)
                     : "-");
    rep_all_line("          virt %s, container %s, clock %s, THP %s, swappiness %s, swap %s GiB",
                 *all_str(res, "virtualization") ? all_str(res, "virtualization") : "none",
                 *all_str(res, "container") ? all_str(res, "container") : "none",
                 all_str(res, "clocksource"), all_str(res, "thp_enabled"),
                 rep_all_v(res, "swappiness", 0, b, sizeof(b)),
                 (snprintf(c, sizeof(c), "%.1f", all_num(res, "swap_total_bytes", NULL) / gib), c));
    rep_all_line("CPU       1 thread %s events/s, %s threads %s events/s, scaling %s%%, steal %s%%",
                 rep_all_v(res, "cpu.events_per_s", 1, a, sizeof(a)),
                 rep_all_v(res, "cpu.threads_all", 0, b, sizeof(b)),
                 rep_all_v(res, "cpu.events_per_s_all", 1, c, sizeof(c)),
                 (all_num(res, "cpu.scaling_efficiency", NULL) > 0
                      ? (snprintf(d, sizeof(d), "%.0f",
                                  100 * all_num(res, "cpu.scaling_efficiency", NULL)), d)
                      : "-"),
                 rep_all_v(res, "cpu_steal_pct", 1, e, sizeof(e)));
    rep_all_line("MEMORY    STREAM copy %s MB/s, triad %s MB/s (arrays of %s MiB, all CPUs)",
                 rep_all_v(res, "mem.stream_copy_mb_per_s", 0, a, sizeof(a)),
                 rep_all_v(res, "mem.stream_triad_mb_per_s", 0, b, sizeof(b)),
                 (snprintf(c, sizeof(c), "%.0f",
                           all_num(res, "mem.stream_array_bytes", NULL) / 1048576.0), c));
    rep_all_latency(res);
    rep_all_line("SCHEDULER threads %s events/s, mutex %s ms, context switch %s ns same CPU, %s ns "
                 "cross",
                 rep_all_v(res, "sched.threads_events_per_s", 0, a, sizeof(a)),
                 rep_all_v(res, "sched.mutex_total_ms", 0, b, sizeof(b)),
                 rep_all_v(res, "sched.ctxsw_same_cpu_ns", 0, c, sizeof(c)),
                 rep_all_v(res, "sched.ctxsw_cross_cpu_ns", 0, d, sizeof(d)));
    rep_all_line("DISK      %s: %s on %s (%s, cache %s, sched %s), %s GiB free",
                 all_str(res, "dir_path"), all_str(res, "fs_type"),
                 *all_str(res, "disk") ? all_str(res, "disk") : all_str(res, "fs_source"),
                 !res_fact(res, "disk_rotational")              ? "?"
                 : all_num(res, "disk_rotational", NULL) > 0 ? "rotational"
                                                             : "non-rotational",
                 *all_str(res, "disk_write_cache") ? all_str(res, "disk_write_cache") : "?",
                 *all_str(res, "disk_scheduler") ? all_str(res, "disk_scheduler") : "?",
                 (snprintf(a, sizeof(a), "%.1f", all_num(res, "fs_free_bytes", NULL) / gib), a));
    rep_all_line("          %s", all_str(res, "disk.status"));
    if (res_fact(res, "disk.fdatasync_p99_ms")) {
        rep_all_line("          16K write+fdatasync QD1: p50 %s ms, p99 %s ms, p99.9 %s ms (%s/s)",
                     rep_all_v(res, "disk.fdatasync_p50_ms", 3, a, sizeof(a)),
                     rep_all_v(res, "disk.fdatasync_p99_ms", 3, b, sizeof(b)),
                     rep_all_v(res, "disk.fdatasync_p999_ms", 3, c, sizeof(c)),
                     rep_all_v(res, "disk.fdatasync_per_s", 0, d, sizeof(d)));
        static const char *const rw[2][2] = {{"randread", "disk.randread"},
                                             {"randwrite", "disk.randwrite"}};
        for (int i = 0; i < 2; i++) {
            char k1[48], k2[48], k3[48], k4[48];
            snprintf(k1, sizeof(k1), "%s_qd1_iops", rw[i][1]);
            snprintf(k2, sizeof(k2), "%s_qd1_p99_ms", rw[i][1]);
            snprintf(k3, sizeof(k3), "%s_qd32_iops", rw[i][1]);
            snprintf(k4, sizeof(k4), "%s_qd32_p99_ms", rw[i][1]);
            rep_all_line("          16K %-9s QD1 %s IOPS, p99 %s ms; QD32 %s IOPS, p99 %s ms", rw[i][0],
                         rep_all_v(res, k1, 0, a, sizeof(a)),
                         rep_all_v(res, k2, 3, b, sizeof(b)),
                         rep_all_v(res, k3, 0, c, sizeof(c)),
                         rep_all_v(res, k4, 3, d, sizeof(d)));
        }
        rep_all_line("          1M sequential read %s MiB/s, write %s MiB/s; QD32 by %s",
                     rep_all_v(res, "disk.seqread_mib_per_s", 0, a, sizeof(a)),
                     rep_all_v(res, "disk.seqwrite_mib_per_s", 0, b, sizeof(b)),
                     all_str(res, "disk.io_engine"));
        const char *why = all_str(res, "disk.io_engine_why");
        if (*why)
            rep_all_line("          sync, not io_uring: %s",
                         strncmp(why, "fileio: ", 8) ? why : why + 8);
    }
    if (res_fact(res, "db.server_version")) {
        rep_all_line("DATABASE  %s, %s: ping p50 %s ms, p99 %s ms",
                     all_str(res, "db.server"), all_str(res, "db.server_version"),
                     rep_all_v(res, "db.ping_p50_ms", 3, a, sizeof(a)),
                     rep_all_v(res, "db.ping_p99_ms", 3, b, sizeof(b)));
        rep_all_line("          buffer pool %s MiB, redo %s MiB, flush %s, trx_commit %s, "
                     "max_connections %s",
                     (snprintf(a, sizeof(a), "%.0f",
                               all_num(res, "db.innodb_buffer_pool_size", NULL) / 1048576.0), a),
                     res_fact(res, "db.innodb_redo_log_capacity")
                         ? (snprintf(b, sizeof(b), "%.0f",
                                     all_num(res, "db.innodb_redo_log_capacity", NULL) / 1048576.0), b)
                         : (snprintf(b, sizeof(b), "%.0f",
                                     all_num(res, "db.innodb_log_file_size", NULL) / 1048576.0), b),
                     all_str(res, "db.innodb_flush_method"),
                     rep_all_v(res, "db.innodb_flush_log_at_trx_commit", 0, c, sizeof(c)),
                     rep_all_v(res, "db.max_connections", 0, d, sizeof(d)));
        rep_all_line("          log_bin %s, sync_binlog %s; OLTP in '%s': read_write knee %s "
                     "threads, %s tps",
                     rep_all_v(res, "db.log_bin", 0, a, sizeof(a)),
                     rep_all_v(res, "db.sync_binlog", 0, b, sizeof(b)),
                     all_str(res, "db.oltp_schema"),
                     rep_all_v(res, "db.oltp_knee_threads", 0, c, sizeof(c)),
                     rep_all_v(res, "db.oltp_knee_tps", 1, d, sizeof(d)));
    }
    rep_all_line("%s", "");
    rep_all_line("VERDICTS %-15s %-26s %-8s %-19s %s", "check", "measure", "value", "threshold",
                 "basis");
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *s = &res->steps[i];
        if (strcmp(s->command, "check"))
            continue;
        char v[32];
        bool h;
        double x = all_num(s, "value", &h);
        if (h)
            all_fmt_num(v, sizeof(v), x);
        rep_all_line("  %-4s %-17s %-26s %-8s %-19s %s", all_str(s, "verdict"), all_str(s, "id"),
                     all_str(s, "path"), h ? v : "-", all_str(s, "threshold"),
                     all_str(s, "basis"));
    }
    rep_all_line("%s", "");
    rep_all_line("SETTINGS  %-26s %-14s %s", "setting", "value", "rule");
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *s = &res->steps[i];
        if (!strcmp(s->command, "setting"))
            rep_all_line("  %-34s %-14s %s", all_str(s, "name"), all_str(s, "value"),
                         all_str(s, "rule"));
    }
    int shown = 0;
    for (int i = 0; i < res->nwarns && shown < 4; i++, shown++)
        rep_all_line("%s %s", shown ? "         " : "\nNOTES   ", res->warns[i].msg);
    rep_all_line("%s", "");
    rep_all_line("Total time %.1f s; verdict %s", all_num(res, "all.total_s", NULL),
                 *all_str(res, "all.verdict") ? all_str(res, "all.verdict") : "-");
}

/* ---- bench all --html=FILE: one self-contained page (inline CSS and SVG, no script) ---- */

static void rep_html_esc(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
}

/* A chart: n points (x label, y value) as a polyline (line) or bars, y from 0 to the max. */
static void rep_html_chart(FILE *f, const char *title, const char *unit, const char *const *xl,
                           const double *y, int n, bool line)
{
    const double W = 560, H = 220, L = 60, B = 30, T = 24;
    double mx = 0;
    for (int i = 0; i < n; i++)
        mx = B_MAX(mx, y[i]);
    if (mx <= 0)
        mx = 1;
    fprintf(f, "<figure><svg width=\"%.0f\" height=\"%.0f\" "
               "role=\"img\" class=\"chart\"><title>",
            W, H);
    rep_html_esc(f, title);
    fprintf(f, "</title><text x=\"%.0f\" y=\"16\" class=\"t\">", L);
    rep_html_esc(f, title);
    fprintf(f, " (%s)</text>", unit);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"ax\"/>", L, H - B,
            W - 10, H - B);
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"ax\"/>", L, T, L,
            H - B);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" class=\"l\" text-anchor=\"end\">%.4g</text>", L - 4,
            T + 4, mx);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" class=\"l\" text-anchor=\"end\">0</text>", L - 4,
            H - B);
    double step = n > 0 ? (W - 10 - L) / n : 0;
    if (line)
        fputs("<polyline class=\"p\" points=\"", f);
    for (int i = 0; i < n && line; i++)
        fprintf(f, "%.1f,%.1f ", L + step * (i + 0.5), H - B - (H - B - T) * y[i] / mx);
    if (line)
        fputs("\"/>", f);
    for (int i = 0; i < n; i++) {
        double x = L + step * (i + 0.5), h = (H - B - T) * y[i] / mx;
        if (!line)
            fprintf(f, "<rect class=\"b\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
                    x - step * 0.35, H - B - h, step * 0.7, h);
        else
            fprintf(f, "<circle class=\"d\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", x, H - B - h);
        fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" class=\"l\" text-anchor=\"middle\">", x,
                H - B + 14);
        rep_html_esc(f, xl[i]);
        fputs("</text>", f);
    }
    fputs("</svg></figure>\n", f);
}

/* The step of all's result whose fact "step" is name; NULL if none. */
static const struct res *rep_all_step(const struct res *res, const char *name)
{
    for (int i = 0; i < res->nsteps; i++)
        if (!strcmp(all_str(&res->steps[i], "step"), name))
            return &res->steps[i];
    return NULL;
}

static void rep_html_facts(FILE *f, const struct res *res, const char *title, const char *pfx)
{
    fprintf(f, "<section><h2>%s</h2><table>\n", title);
    for (int i = 0; i < res->nfacts; i++) {
        const struct res_fact *x = &res->facts[i];
        bool dotted = strchr(x->key, '.') != NULL;
        if (pfx ? strncmp(x->key, pfx, strlen(pfx)) : dotted)
            continue;
        fputs("<tr><th>", f);
        rep_html_esc(f, x->key);
        fputs("</th><td>", f);
        if (x->type == RES_STR)
            rep_html_esc(f, x->str ? x->str : "");
        else if (x->type == RES_NUM)
            fprintf(f, "%.6g", x->num);
        else if (x->type == RES_BOOL)
            fputs(x->i ? "yes" : "no", f);
        else
            fprintf(f, "%lld", (long long)x->i);
        fputs("</td></tr>\n", f);
    }
    fputs("</table></section>\n", f);
}

/* rep_all_html - the page as one HTML file. Returns 0, or errno when the file failed. */
static int rep_all_html(const struct res *res, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errno ? errno : EIO;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<title>bench all report</title><style>"
          "body{font:14px/1.4 sans-serif;margin:2em;color:#222}h1{font-size:1.4em}"
          "h2{font-size:1.1em;border-bottom:1px solid #ccc}table{border-collapse:collapse}"
          "th,td{padding:2px 10px;text-align:left;border-bottom:1px solid #eee}"
          "th{font-weight:normal;color:#555}.PASS{color:#070}.WARN{color:#a60}.FAIL{color:#c00}"
          ".INFO{color:#555}.chart{background:#fafafa;border:1px solid #ddd}"
          ".ax{stroke:#888}.p{fill:none;stroke:#36c;stroke-width:2}.d{fill:#36c}.b{fill:#36c}"
          ".t{font-size:13px}.l{font-size:10px;fill:#555}"
          "</style></head><body>\n<h1>bench all report</h1>\n",
          f);
    fprintf(f, "<p>%s run, %.1f s, verdict <b class=\"%s\">%s</b></p>\n",
            all_str(res, "all.level"), all_num(res, "all.total_s", NULL),
            all_str(res, "all.verdict"), all_str(res, "all.verdict"));
    rep_html_facts(f, res, "Host", NULL);
    rep_html_facts(f, res, "CPU", "cpu.");
    rep_html_facts(f, res, "Memory", "mem.");
    const struct res *lat = rep_all_step(res, "latency");
    if (lat && lat->nsteps) {
        const char *xl[40];
        char lab[40][16];
        double y[40];
        int n = 0;
        for (int i = 0; i < lat->nsteps && n < 40; i++) {
            double sz = all_num(&lat->steps[i], "size_bytes", NULL);
            unit_fmt_size((u64)sz, lab[n], sizeof(lab[n]));
            xl[n] = lab[n];
            y[n++] = all_num(&lat->steps[i], "ns_per_load", NULL);
        }
        rep_html_chart(f, "load latency by working-set size", "ns", xl, y, n, true);
    }
    rep_html_facts(f, res, "Scheduler", "sched.");
    rep_html_facts(f, res, "Disk", "disk.");
    if (res_fact(res, "disk.randread_qd1_iops")) {
        static const char *const xl[] = {"read QD1", "read QD32", "write QD1", "write QD32"};
        static const char *const k[] = {"disk.randread_qd1", "disk.randread_qd32",
                                        "disk.randwrite_qd1", "disk.randwrite_qd32"};
        double y[4], z[4];
        for (int i = 0; i < 4; i++) {
            char key[48];
            snprintf(key, sizeof(key), "%s_iops", k[i]);
            y[i] = all_num(res, key, NULL);
            snprintf(key, sizeof(key), "%s_p99_ms", k[i]);
            z[i] = all_num(res, key, NULL);
        }
        rep_html_chart(f, "16 KiB random IOPS by queue depth", "IOPS", xl, y, 4, false);
        rep_html_chart(f, "16 KiB random p99 latency by queue depth", "ms", xl, z, 4, false);
    }
    if (res_fact(res, "db.server_version")) {
        rep_html_facts(f, res, "Database", "db.");
        for (int i = 0; i < res->nsteps; i++) {
            const struct res *o = &res->steps[i];
            if (strcmp(o->command, "oltp") || !o->nsteps)
                continue;
            const char *xl[32];
            char lab[32][32];
            double y[32];
            int n = 0;
            for (int j = 0; j < o->nsteps && n < 32; j++) {
                struct sizing_row row;
                if (!o->steps[j].have_final || !o->steps[j].w)
                    continue;
                sizing_row_of(&o->steps[j], &row);
                snprintf(lab[n], sizeof(lab[n]), "%s %lld",
                         strstr(row.wl, "point") ? "ps" : "rw", (long long)row.threads);
                xl[n] = lab[n];
                y[n++] = row.tps;
            }
            rep_html_chart(f, "OLTP ladder (ps: point_select, rw: read_write; threads)", "tps", xl,
                           y, n, false);
        }
    }
    fputs("<section><h2>Verdicts</h2><table><tr><th>verdict</th><th>check</th><th>measure</th>"
          "<th>value</th><th>threshold</th><th>basis</th></tr>\n",
          f);
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *s = &res->steps[i];
        if (strcmp(s->command, "check"))
            continue;
        char v[32];
        bool h;
        double x = all_num(s, "value", &h);
        if (h)
            all_fmt_num(v, sizeof(v), x);
        fprintf(f, "<tr><td class=\"%s\">%s</td><td>", all_str(s, "verdict"),
                all_str(s, "verdict"));
        rep_html_esc(f, all_str(s, "id"));
        fputs("</td><td>", f);
        rep_html_esc(f, all_str(s, "path"));
        fprintf(f, "</td><td>%s</td><td>", h ? v : "-");
        rep_html_esc(f, all_str(s, "threshold"));
        fputs("</td><td>", f);
        rep_html_esc(f, all_str(s, "basis"));
        fputs("</td></tr>\n", f);
    }
    fputs("</table></section>\n<section><h2>Settings</h2><table><tr><th>setting</th>"
          "<th>value</th><th>rule</th></tr>\n",
          f);
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *s = &res->steps[i];
        if (strcmp(s->command, "setting"))
            continue;
        fputs("<tr><td>", f);
        rep_html_esc(f, all_str(s, "name"));
        fputs("</td><td>", f);
        rep_html_esc(f, all_str(s, "value"));
        fputs("</td><td>", f);
        rep_html_esc(f, all_str(s, "rule"));
        fputs("</td></tr>\n", f);
    }
    fputs("</table></section>\n</body></html>\n", f);
    int bad = ferror(f) ? (errno ? errno : EIO) : 0;
    if (fclose(f) && !bad)
        bad = errno ? errno : EIO;
    return bad;
}

static const char *rep_json_end(int end);

/* bench merge (mrg_main's result): one line per client, the start skew and the windows'
 * overlap, then what a single run prints: its interval lines and its final block, over all
 * the clients' threads. */
static void rep_merge(const struct res *res)
{
    const struct res_fact *sk = res_fact(res, "start_skew_s"), *cw = res_fact(res, "common_window_s"),
                          *uw = res_fact(res, "union_window_s"), *ov = res_fact(res, "window_overlap_pct");
    printf("Merged %d client results of %s: %d threads in all\n\n", res->nsteps, res->w->name,
           res->final.threads);
    printf("client  %-30s %-16s %7s %11s %10s %12s  %s\n", "file", "host", "threads",
           "start skew", "window", "events", "end");
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *s = &res->steps[i];
        const struct res_fact *skew = res_fact(s, "start_skew_s");
        if (!s->have_final) {
            printf("%6d  %-30s %s\n", i + 1, rep_fact_str(s, "file"), s->err.msg);
            continue;
        }
        printf("%6d  %-30s %-16s %7d %+10.3fs %9.3fs %12llu  %s\n", i + 1,
               rep_fact_str(s, "file"), rep_fact_str(s, "hostname"), s->final.threads,
               skew ? skew->num : 0.0, s->final.window_s,
               (unsigned long long)s->final.d.events,
               s->complete ? "complete" : rep_json_end(s->end) ? rep_json_end(s->end) : "?");
    }
    printf("\nStart skew: %.3f s; window overlap: %.1f%% (%.3f s in common of %.3f s)\n\n",
           sk ? sk->num : 0.0, ov ? ov->num : 0.0, cw ? cw->num : 0.0, uw ? uw->num : 0.0);
    for (int i = 0; i < res->niv; i++)
        rep_interval(res, &res->iv[i]);
    if (res->niv)
        printf("\n");
    rep_final(res, &res->final, true);
}

static void rep_cmp_text(const struct res *res);

/* rep_command_renderer - the renderer cli_command calls after a command that succeeded or
 * measured something; NULL when its progress lines were all its output. */
static rep_render_fn rep_command_renderer(const struct res *res)
{
    static const struct {
        const char *workload;
        rep_render_fn fn;
    } tab[] = {{"ping", rep_ping}, {"hostfacts", rep_facts}, {"all", rep_all},
               {"compare", rep_cmp_text}};
    if (res->command && !strcmp(res->command, "merge"))
        return res->have_final ? rep_merge : NULL;
    for (size_t i = 0; i < countof(tab) && res->w; i++)
        if (!strcmp(res->w->name, tab[i].workload))
            return tab[i].fn;
    return NULL;
}

/* The one-liner's table (sizing_main's result): its heading, one row per step of the ladder
 * with each workload's knee marked, then one line per knee. */
static void rep_sizing(const struct res *res)
{
    const struct res_fact *tls = res_fact(res, "tls"), *tables = res_fact(res, "tables"),
                          *size = res_fact(res, "table_size"), *step = res_fact(res, "step_time_s");
    struct sizing_row row;
    bool knee[64] = {false};
    char key[48];
    if (!res->nsteps)
        return;
    for (int i = 0; i < res->nsteps && i < (int)countof(knee); i++) {
        snprintf(key, sizeof(key), "%s_knee_step", res->steps[i].w->name);
        const struct res_fact *f = res_fact(res, key);
        knee[i] = f && f->i == i;
    }
    printf("OLTP sizing of %s (%s, %s): %lld tables x %lld rows, %lld s per step, %.0f s in all\n\n",
           rep_fact_str(res, "server"), rep_fact_str(res, "server_version"),
           tls && tls->i ? "TLS" : "no TLS", (long long)(tables ? tables->i : 0),
           (long long)(size ? size->i : 0), (long long)(step ? step->i : 0), res->elapsed_s);
    printf("%-18s %7s %12s %12s %9s %9s %8s\n", "workload", "threads", "tps", "qps", "p95 ms",
           "p99 ms", "errors");
    for (int i = 0; i < res->nsteps; i++) {
        sizing_row_of(&res->steps[i], &row);
        printf("%-18s %7lld %12.2f %12.2f %9.2f %9.2f %8llu%s\n", row.wl, (long long)row.threads,
               row.tps, row.qps, row.p95, row.p99, (unsigned long long)row.errors,
               i < (int)countof(knee) && knee[i] ? "  <- knee" : "");
    }
    printf("\n");
    for (int i = 0; i < res->nsteps && i < (int)countof(knee); i++)
        if (knee[i]) {
            sizing_row_of(&res->steps[i], &row);
            printf("knee: %s peaks at %lld threads (%.0f tps, p99 %.2f ms)\n", row.wl,
                   (long long)row.threads, row.tps, row.p99);
        }
}

/* ---- JSON: one document per command, lines while it runs (docs/json.md) ---- */

#define REP_JSON_SCHEMA_VERSION 1
#define REP_JSON_SCHEMA_MINOR 1 /* 1: window and interval wall clock, per-thread arrays */

/* A JSON text being written into b. A comma goes before the next value unless it opens a
 * container or follows a key: one flag is enough. Output is compact: one line per text. */
struct rep_json {
    struct buf b;
    bool comma;
};

/* What a document says beyond the result: filled by cli_ (argv already masked). */
struct rep_json_env {
    const char *bench_version;
    int argc;
    const char *const *argv;
    const char *hostname, *kernel;
    int cpus;
    u64 memory_bytes;
    int exit_code;
};

/* rep_json_esc - append s[0..n) as a JSON string: quotes, backslash and control characters
 * escaped, DEL as \u007f, bytes that are not well-formed UTF-8 (stray continuations,
 * overlongs, surrogates, > U+10FFFF, truncated sequences) each become \ufffd. */
static void rep_json_esc(struct buf *b, const char *s, size_t n)
{
    const u8 *p = (const u8 *)s;
    size_t i = 0, run = 0;
    buf_printf(b, "\"");
    while (i < n) {
        u8 c = p[i];
        size_t len = 0;
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            len = 1;
        else if (c >= 0xc2 && c <= 0xdf)
            len = i + 1 < n && (p[i + 1] & 0xc0) == 0x80 ? 2 : 0;
        else if (c >= 0xe0 && c <= 0xef) {
            u8 lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
            len = i + 2 < n && p[i + 1] >= lo && p[i + 1] <= hi && (p[i + 2] & 0xc0) == 0x80
                      ? 3
                      : 0;
        } else if (c >= 0xf0 && c <= 0xf4) {
            u8 lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
            len = i + 3 < n && p[i + 1] >= lo && p[i + 1] <= hi && (p[i + 2] & 0xc0) == 0x80 &&
                          (p[i + 3] & 0xc0) == 0x80
                      ? 4
                      : 0;
        }
        if (len) { /* copied as is: extend the run */
            i += len;
            run += len;
            continue;
        }
        if (run)
            buf_printf(b, "%.*s", (int)run, s + i - run);
        run = 0;
        if (c == '"' || c == '\\')
            buf_printf(b, "\\%c", c);
        else if (c == '\n')
            buf_printf(b, "\\n");
        else if (c == '\t')
            buf_printf(b, "\\t");
        else if (c == '\r')
            buf_printf(b, "\\r");
        else if (c == '\b')
            buf_printf(b, "\\b");
        else if (c == '\f')
            buf_printf(b, "\\f");
        else if (c < 0x20 || c == 0x7f)
            buf_printf(b, "\\u%04x", c);
        else
            buf_printf(b, "\\ufffd");
        i++;
    }
    if (run)
        buf_printf(b, "%.*s", (int)run, s + i - run);
    buf_printf(b, "\"");
}

static void rep_json_sep(struct rep_json *j)
{
    if (j->comma)
        buf_printf(&j->b, ",");
    j->comma = true;
}

static void rep_json_open(struct rep_json *j, char c)
{
    rep_json_sep(j);
    buf_printf(&j->b, "%c", c);
    j->comma = false;
}

static void rep_json_close(struct rep_json *j, char c)
{
    buf_printf(&j->b, "%c", c);
    j->comma = true;
}

static void rep_json_key(struct rep_json *j, const char *k)
{
    rep_json_sep(j);
    rep_json_esc(&j->b, k, strlen(k));
    buf_printf(&j->b, ":");
    j->comma = false;
}

static void rep_json_str(struct rep_json *j, const char *s)
{
    rep_json_sep(j);
    if (s)
        rep_json_esc(&j->b, s, strlen(s));
    else
        buf_printf(&j->b, "null");
}

static void rep_json_null(struct rep_json *j)
{
    rep_json_sep(j);
    buf_printf(&j->b, "null");
}

static void rep_json_bool(struct rep_json *j, bool v)
{
    rep_json_sep(j);
    buf_printf(&j->b, v ? "true" : "false");
}

static void rep_json_int(struct rep_json *j, i64 v)
{
    rep_json_sep(j);
    buf_printf(&j->b, "%lld", (long long)v);
}

static void rep_json_u64(struct rep_json *j, u64 v)
{
    rep_json_sep(j);
    buf_printf(&j->b, "%llu", (unsigned long long)v);
}

/* A double: the shortest text that reads back as v; NaN and infinities are null. */
static void rep_json_num(struct rep_json *j, double v)
{
    char t[40];
    if (!isfinite(v)) {
        rep_json_null(j);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(t, sizeof(t), "%.*g", prec, v);
        if (strtod(t, NULL) == v && (!strchr(t, 'e') || fabs(v) < 1e-4 || fabs(v) >= 1e17))
            break; /* no exponent for the magnitudes of measurements: 2500000, not 2.5e+06 */
    }
    rep_json_sep(j);
    buf_printf(&j->b, "%s", t);
}

/* Key and value in one call, for the many scalar fields. */
static void rep_json_kint(struct rep_json *j, const char *k, i64 v)
{
    rep_json_key(j, k);
    rep_json_int(j, v);
}

static void rep_json_ku64(struct rep_json *j, const char *k, u64 v)
{
    rep_json_key(j, k);
    rep_json_u64(j, v);
}

static void rep_json_knum(struct rep_json *j, const char *k, double v)
{
    rep_json_key(j, k);
    rep_json_num(j, v);
}

static void rep_json_kstr(struct rep_json *j, const char *k, const char *v)
{
    rep_json_key(j, k);
    rep_json_str(j, v);
}

/* rate over a window; 0 for an empty window */
static double rep_json_rate(u64 n, double secs)
{
    return secs > 0 ? (double)n / secs : 0.0;
}

/* "percentiles": {"p95": ns, "p99.9": ns} of h for the requested percentiles. */
static void rep_json_pcts(struct rep_json *j, const struct res *res, const struct hist *h,
                          u64 mn, u64 mx)
{
    rep_json_key(j, "percentiles");
    rep_json_open(j, '{');
    for (int i = 0; i < res->o->npct; i++) {
        char num[32], key[40];
        snprintf(key, sizeof(key), "p%s", rep_num(num, sizeof(num), res->o->pct[i]));
        rep_json_ku64(j, key, hist_percentile(h, res->o->pct[i], mn, mx));
    }
    rep_json_close(j, '}');
}

/* "histogram": the log-linear buckets, sparse, mergeable by adding counts. */
static void rep_json_hist(struct rep_json *j, const struct hist *h)
{
    rep_json_key(j, "histogram");
    rep_json_open(j, '{');
    rep_json_kstr(j, "scheme", "log-linear");
    rep_json_kint(j, "sub_bits", HIST_SUB_BITS);
    rep_json_kint(j, "max_exp", HIST_MAX_EXP);
    rep_json_key(j, "buckets");
    rep_json_open(j, '[');
    for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
        u64 c = atomic_load_explicit(&h->count[i], memory_order_relaxed);
        if (!c)
            continue;
        rep_json_open(j, '[');
        rep_json_u64(j, i);
        rep_json_u64(j, c);
        rep_json_close(j, ']');
    }
    rep_json_close(j, ']');
    rep_json_close(j, '}');
}

/* The workload's counters of one window: name and, when rated, name_per_s. */
static void rep_json_ctrs(struct rep_json *j, const struct res *res, const u64 *ctr, double secs)
{
    for (int k = 0; res->w && k < res->w->nctrs && k < LOAD_NCTR; k++) {
        char key[80];
        rep_json_ku64(j, res->w->ctrs[k].name, ctr[k]);
        if (res->w->ctrs[k].rated) {
            snprintf(key, sizeof(key), "%s_per_s", res->w->ctrs[k].name);
            rep_json_knum(j, key, rep_json_rate(ctr[k], secs));
        }
    }
}

/* rep_json_stats - one measured window (the run, or up to a checkpoint) as an object. */
static void rep_json_stats(struct rep_json *j, const struct res *res, const struct res_stats *st)
{
    const struct load_snap *d = &st->d;
    u64 mn = d->events ? d->lat_min_ns : 0, mx = d->events ? d->lat_max_ns : 0;
    int n = st->threads;

    rep_json_open(j, '{');
    rep_json_ku64(j, "events", d->events);
    rep_json_knum(j, "events_per_s", rep_json_rate(d->events, st->window_s));
    rep_json_knum(j, "total_time_s", st->total_s);
    rep_json_knum(j, "window_s", st->window_s);
    rep_json_kint(j, "window_start_unix_ns", st->start_unix_ns);
    rep_json_kint(j, "window_end_unix_ns", st->end_unix_ns);
    rep_json_kint(j, "threads", n);
    rep_json_ku64(j, "unfinished_events", st->unfinished);
    rep_json_ctrs(j, res, d->ctr, st->window_s);

    rep_json_key(j, "latency_ns");
    rep_json_open(j, '{');
    rep_json_ku64(j, "min", mn);
    rep_json_knum(j, "avg", d->events ? (double)d->lat_sum_ns / (double)d->events : 0.0);
    rep_json_ku64(j, "max", mx);
    rep_json_ku64(j, "sum", d->lat_sum_ns);
    rep_json_pcts(j, res, d->hist, mn, mx);
    rep_json_hist(j, d->hist);
    rep_json_close(j, '}');

    rep_json_key(j, "operations");
    rep_json_open(j, '{');
    for (int k = 0; res->w && k < d->nops && k < res->w->nops && d->op_hist; k++) {
        rep_json_key(j, res->w->op_names[k]);
        rep_json_open(j, '{');
        rep_json_ku64(j, "count", hist_total(&d->op_hist[k]));
        rep_json_key(j, "latency_ns");
        rep_json_open(j, '{');
        rep_json_pcts(j, res, &d->op_hist[k], 0, UINT64_MAX);
        rep_json_hist(j, &d->op_hist[k]);
        rep_json_close(j, '}');
        rep_json_close(j, '}');
    }
    rep_json_close(j, '}');

    /* sysbench's "Threads fairness", computed as rep_final does */
    double em = 0, ev = 0, tm = 0, tv = 0;
    for (int i = 0; i < n && d->thr_events; i++) {
        em += (double)d->thr_events[i] / n;
        tm += (double)d->thr_sum_ns[i] / 1e9 / n;
    }
    for (int i = 0; i < n && d->thr_events; i++) {
        double de = (double)d->thr_events[i] - em, dt = (double)d->thr_sum_ns[i] / 1e9 - tm;
        ev += de * de / n;
        tv += dt * dt / n;
    }
    rep_json_key(j, "per_thread");
    rep_json_open(j, '{');
    rep_json_knum(j, "events_mean", em);
    rep_json_knum(j, "events_stddev", sqrt(ev));
    rep_json_knum(j, "time_mean_s", tm);
    rep_json_knum(j, "time_stddev_s", sqrt(tv));
    rep_json_key(j, "events"); /* each thread's, for `bench merge` */
    rep_json_open(j, '[');
    for (int i = 0; i < n && d->thr_events; i++)
        rep_json_u64(j, d->thr_events[i]);
    rep_json_close(j, ']');
    rep_json_key(j, "time_ns");
    rep_json_open(j, '[');
    for (int i = 0; i < n && d->thr_sum_ns; i++)
        rep_json_u64(j, d->thr_sum_ns[i]);
    rep_json_close(j, ']');
    rep_json_close(j, '}');
    rep_json_close(j, '}');
}

/* rep_json_interval - one --report-interval sample ({"type":"interval",...}). */
static void rep_json_interval(struct rep_json *j, const struct res *res,
                              const struct res_interval *iv)
{
    rep_json_open(j, '{');
    rep_json_kstr(j, "type", "interval");
    rep_json_knum(j, "at_s", iv->at_s);
    rep_json_knum(j, "interval_s", iv->secs);
    rep_json_kint(j, "end_unix_ns", iv->end_unix_ns);
    rep_json_ku64(j, "events", iv->events);
    rep_json_knum(j, "events_per_s", rep_json_rate(iv->events, iv->secs));
    rep_json_ctrs(j, res, iv->ctr, iv->secs);
    rep_json_kint(j, "threads_running", iv->running);
    rep_json_key(j, "rate_limited");
    rep_json_bool(j, iv->rate);
    rep_json_ku64(j, "queue_length", iv->rate ? iv->queue : 0);
    rep_json_kint(j, "concurrency", iv->busy);
    rep_json_key(j, "latency_ns");
    rep_json_open(j, '{');
    rep_json_key(j, "percentiles");
    rep_json_open(j, '{');
    for (int i = 0; i < iv->npct && i < res->o->npct; i++) {
        char num[32], key[40];
        snprintf(key, sizeof(key), "p%s", rep_num(num, sizeof(num), res->o->pct[i]));
        rep_json_ku64(j, key, iv->pct_ns[i]);
    }
    rep_json_close(j, '}');
    rep_json_close(j, '}');
    rep_json_close(j, '}');
}

/* rep_json_checkpoint - one --report-checkpoints window ({"type":"checkpoint",...}). */
static void rep_json_checkpoint(struct rep_json *j, const struct res *res,
                                const struct res_stats *st)
{
    rep_json_open(j, '{');
    rep_json_kstr(j, "type", "checkpoint");
    rep_json_knum(j, "at_s", st->at_s);
    rep_json_key(j, "results");
    rep_json_stats(j, res, st);
    rep_json_close(j, '}');
}

/* rep_json_say - a progress line, note or debug line of a command. */
static void rep_json_say(struct rep_json *j, int kind, const char *text)
{
    rep_json_open(j, '{');
    static const char *const type[] = {[RES_SAY_PROGRESS] = "progress", [RES_SAY_NOTE] = "note",
                                       [RES_SAY_DEBUG] = "debug", [RES_SAY_MSG] = "note",
                                       [RES_SAY_WARN] = "warning", [RES_SAY_HINT] = "hint",
                                       [RES_SAY_STATUS] = "progress"}; /* (not sent) */
    rep_json_kstr(j, "type", kind >= 0 && kind < (int)countof(type) ? type[kind] : "note");
    rep_json_kstr(j, "message", text);
    rep_json_close(j, '}');
}

/* The value of one option row, typed. */
static void rep_json_opt(struct rep_json *j, const struct opt_def *d, const struct bench_opts *o)
{
    const char *field = (const char *)o + d->off;
    i64 i;
    u64 u;
    double x;
    bool b;
    int e;
    const char *s;
    rep_json_key(j, d->name);
    switch (d->type) {
    case OPT_INT:
        memcpy(&i, field, sizeof(i));
        rep_json_int(j, i);
        return;
    case OPT_SIZE:
        memcpy(&u, field, sizeof(u));
        rep_json_u64(j, u);
        return;
    case OPT_DOUBLE:
        memcpy(&x, field, sizeof(x));
        rep_json_num(j, x);
        return;
    case OPT_BOOL:
        memcpy(&b, field, sizeof(b));
        rep_json_bool(j, b);
        return;
    case OPT_ENUM: {
        memcpy(&e, field, sizeof(e));
        const char *p = d->choices;
        for (int k = 0; k < e && *p; k++) {
            p += strcspn(p, ",|");
            if (*p)
                p++;
        }
        rep_json_sep(j);
        rep_json_esc(&j->b, p, strcspn(p, ",|"));
        return;
    }
    default:
        memcpy(&s, field, sizeof(s));
        s = s ? s : "";
        if (!strcmp(d->name, "mysql-password")) { /* never the secret itself */
            rep_json_str(j, *s ? "***" : "");
            return;
        }
        if (d->type != OPT_LIST) {
            rep_json_str(j, s);
            return;
        }
        rep_json_open(j, '[');
        while (*s) {
            size_t n = strcspn(s, ",");
            rep_json_sep(j);
            rep_json_esc(&j->b, s, n);
            s += n;
            if (*s)
                s++;
        }
        rep_json_close(j, ']');
    }
}

/* How a result ended, as the document's "end". */
static const char *rep_json_end(int end)
{
    switch (end) {
    case RES_END_LIMIT:
        return "limit";
    case RES_END_SIGNAL:
        return "signal";
    case RES_END_FAILED:
        return "failed";
    case RES_END_FORCED:
        return "forced";
    case RES_END_QUEUE:
        return "queue_full";
    }
    return NULL;
}

/* Did a result complete: a run that ran to its limit, a command that did not fail. */
static bool rep_json_complete(const struct res *res)
{
    if (res->have_final || res->end != RES_END_NONE)
        return res->complete;
    return res->rc == B_OK && !res->err.msg[0] && !res->err.sb[0];
}

/* "error": the failure of a result, or null. */
static void rep_json_error(struct rep_json *j, const struct res *res)
{
    const struct b_err *e = &res->err;
    char msg[sizeof(((struct b_err *)0)->msg)];
    rep_json_key(j, "error");
    if (res->rc == B_OK && !e->rc && !e->msg[0] && !e->sb[0]) {
        rep_json_null(j);
        return;
    }
    if (e->msg[0])
        snprintf(msg, sizeof(msg), "%s", e->msg);
    else if (e->sb[0]) { /* the sysbench wording only: its first line, without "FATAL: " */
        const char *p = strncmp(e->sb, "FATAL: ", 7) ? e->sb : e->sb + 7;
        snprintf(msg, sizeof(msg), "%.*s", (int)strcspn(p, "\n"), p);
    } else
        snprintf(msg, sizeof(msg), "%s", b_errstr(e->rc ? e->rc : res->rc));
    rep_json_open(j, '{');
    rep_json_kstr(j, "code", b_errname(e->rc ? e->rc : res->rc ? res->rc : B_INVALID));
    rep_json_kstr(j, "errno_name", e->sys_errno ? b_errno_name(e->sys_errno) : NULL);
    rep_json_kstr(j, "message", msg);
    rep_json_kstr(j, "hint", e->hint[0] ? e->hint : NULL);
    rep_json_close(j, '}');
}

/* The part of a document every result has, steps included (recursive). */
static void rep_json_core(struct rep_json *j, const struct res *res, bool complete)
{
    rep_json_kstr(j, "action", res->command);
    rep_json_kstr(j, "workload", res->w ? res->w->name : NULL);
    rep_json_knum(j, "elapsed_s", res->elapsed_s);
    rep_json_key(j, "facts");
    rep_json_open(j, '{');
    for (int i = 0; i < res->nfacts; i++) {
        const struct res_fact *f = &res->facts[i];
        rep_json_key(j, f->key);
        if (f->type == RES_INT)
            rep_json_int(j, f->i);
        else if (f->type == RES_NUM)
            rep_json_num(j, f->num);
        else if (f->type == RES_BOOL)
            rep_json_bool(j, f->i != 0);
        else
            rep_json_str(j, f->str ? f->str : "");
    }
    rep_json_close(j, '}');
    rep_json_key(j, "results");
    if (res->have_final)
        rep_json_stats(j, res, &res->final);
    else
        rep_json_null(j);
    rep_json_key(j, "intervals");
    rep_json_open(j, '[');
    for (int i = 0; i < res->niv; i++)
        rep_json_interval(j, res, &res->iv[i]);
    rep_json_close(j, ']');
    rep_json_key(j, "checkpoints");
    rep_json_open(j, '[');
    for (int i = 0; i < res->nckpt; i++)
        rep_json_checkpoint(j, res, &res->ckpt[i]);
    rep_json_close(j, ']');
    rep_json_key(j, "warnings");
    rep_json_open(j, '[');
    for (int i = 0; i < res->nwarns; i++) {
        rep_json_open(j, '{');
        rep_json_kstr(j, "code", res->warns[i].code);
        rep_json_kstr(j, "message", res->warns[i].msg);
        rep_json_kstr(j, "hint", res->warns[i].hint[0] ? res->warns[i].hint : NULL);
        rep_json_close(j, '}');
    }
    rep_json_close(j, ']');
    rep_json_key(j, "complete");
    rep_json_bool(j, complete);
    rep_json_kstr(j, "end", rep_json_end(res->end));
    rep_json_error(j, res);
    rep_json_key(j, "steps");
    rep_json_open(j, '[');
    for (int i = 0; i < res->nsteps; i++) {
        rep_json_open(j, '{');
        rep_json_core(j, &res->steps[i], rep_json_complete(&res->steps[i]));
        rep_json_close(j, '}');
    }
    rep_json_close(j, ']');
}

/* rep_json_doc - the result document of one command ({"type":"result",...}), one line. */
static void rep_json_doc(struct rep_json *j, const struct res *res, const struct rep_json_env *env)
{
    char when[64];
    time_t secs = (time_t)(res->started_unix_ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    snprintf(when, sizeof(when), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
             (int)(res->started_unix_ms % 1000));

    rep_json_open(j, '{');
    rep_json_kstr(j, "type", "result");
    rep_json_kint(j, "schema_version", REP_JSON_SCHEMA_VERSION);
    rep_json_kint(j, "schema_minor", REP_JSON_SCHEMA_MINOR);
    rep_json_kstr(j, "bench_version", env->bench_version);
    rep_json_key(j, "command");
    rep_json_open(j, '[');
    for (int i = 0; i < env->argc; i++)
        rep_json_str(j, env->argv[i]);
    rep_json_close(j, ']');
    rep_json_kstr(j, "started_at", when);
    rep_json_key(j, "host");
    rep_json_open(j, '{');
    rep_json_kstr(j, "hostname", env->hostname);
    rep_json_kstr(j, "kernel", env->kernel);
    rep_json_kint(j, "cpus", env->cpus);
    rep_json_ku64(j, "memory_bytes", env->memory_bytes);
    rep_json_close(j, '}');
    rep_json_key(j, "options");
    rep_json_open(j, '{');
    for (size_t g = 0; g < countof(opt_groups); g++)
        for (size_t i = 0; i < opt_groups[g].n; i++)
            rep_json_opt(j, &opt_groups[g].t[i], res->o);
    for (size_t i = 0; res->w && i < res->w->nopts; i++)
        rep_json_opt(j, &res->w->opts[i], res->o);
    rep_json_close(j, '}');
    rep_json_kint(j, "exit_code", env->exit_code);
    rep_json_core(j, res, rep_json_complete(res) && env->exit_code == B_EXIT_OK);
    rep_json_close(j, '}');
}

/* rep_json_about - --version or --help (help: true) with --format=json: one object on stdout,
 * {"type":"version"|"help","program":P,"bench_version":V,"sysbench_compatible":"1.0.20",
 * "mbedtls":M,"version_text":T}; help adds "tests": [{"name","description"}] (the tests'
 * options: `bench TEST help`, or any result document's "options"). Returns 0 or an errno. */
static int rep_json_about(bool help, const char *program, const char *version_text)
{
    struct rep_json j = {{0}, false};
    rep_json_open(&j, '{');
    rep_json_kstr(&j, "type", help ? "help" : "version");
    rep_json_kstr(&j, "program", program);
    rep_json_kstr(&j, "bench_version", BENCH_VERSION);
    rep_json_kstr(&j, "sysbench_compatible", BENCH_SB_VERSION);
    rep_json_kstr(&j, "mbedtls", MBEDTLS_VERSION_STRING);
    rep_json_kstr(&j, "version_text", version_text);
    if (help) {
        rep_json_key(&j, "tests");
        rep_json_open(&j, '[');
        for (size_t i = 0; i < countof(wl_all); i++) {
            if (wl_all[i].hidden)
                continue;
            rep_json_open(&j, '{');
            rep_json_kstr(&j, "name", wl_all[i].name);
            rep_json_kstr(&j, "description", wl_all[i].desc);
            rep_json_close(&j, '}');
        }
        rep_json_close(&j, ']');
    }
    rep_json_close(&j, '}');
    errno = 0;
    int err = fputs(j.b.p, stdout) < 0 || fputc('\n', stdout) < 0 || fflush(stdout) ? errno : 0;
    buf_free(&j.b);
    return err;
}

/* rep_opt_help - an option table's help block (opt_help_text: sysbench's layout) on stdout. */
static void rep_opt_help(const struct opt_def *t, size_t n, bool sb)
{
    struct buf b = {0};
    opt_help_text(&b, t, n, sb);
    if (b.p)
        fputs(b.p, stdout);
    buf_free(&b);
}

/* ---- mysqlslap mode: slap_main's result in mysqlslap's words ---- */

static i64 rep_slap_int(const struct res *res, const char *key)
{
    const struct res_fact *f = res_fact(res, key);
    return f ? f->i : 0;
}

/* Whole milliseconds as mysqlslap's seconds: "%ld.%03ld". */
static const char *rep_slap_secs(char *out, size_t n, i64 ms)
{
    snprintf(out, n, "%lld.%03lld", (long long)(ms / 1000), (long long)(ms % 1000));
    return out;
}

/* rep_slap_text - a "Benchmark" block per engine x concurrency (stdout), and with
 * --percentile the per-query latency (a bench extension). */
static void rep_slap_text(const struct res *res)
{
    const struct bench_opts *o = res->o;
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *st = &res->steps[i];
        char a[32], mn[32], mx[32];
        printf("Benchmark\n");
        if (*rep_fact_str(st, "engine"))
            printf("\tRunning for engine %s\n", rep_fact_str(st, "engine"));
        printf("\tAverage number of seconds to run all queries: %s seconds\n",
               rep_slap_secs(a, sizeof(a), rep_slap_int(st, "avg_ms")));
        printf("\tMinimum number of seconds to run all queries: %s seconds\n",
               rep_slap_secs(mn, sizeof(mn), rep_slap_int(st, "min_ms")));
        printf("\tMaximum number of seconds to run all queries: %s seconds\n",
               rep_slap_secs(mx, sizeof(mx), rep_slap_int(st, "max_ms")));
        printf("\tNumber of clients running queries: %lld\n",
               (long long)rep_slap_int(st, "clients"));
        printf("\tAverage number of queries per client: %lld\n",
               (long long)rep_slap_int(st, "queries_per_client"));
        if (o->slap_latency && st->have_final && st->final.d.events) {
            const struct load_snap *d = &st->final.d;
            printf("\tLatency per query (ms): min %.3f, avg %.3f", rep_ms(d->lat_min_ns),
                   rep_ms(d->lat_sum_ns / d->events));
            for (int k = 0; k < o->npct; k++) {
                char num[32];
                printf(", %sth %.3f", rep_num(num, sizeof(num), o->pct[k]),
                       rep_ms(hist_percentile(d->hist, o->pct[k], d->lat_min_ns,
                                              d->lat_max_ns)));
            }
            printf(", max %.3f (%llu queries)\n", rep_ms(d->lat_max_ns),
                   (unsigned long long)d->events);
        }
        printf("\n");
    }
}

/* rep_slap_csv - mysqlslap's CSV line per block, appended to --csv's file (or stdout for
 * "-"). Returns B_OK, or fills e. */
static int rep_slap_csv(const struct res *res, struct b_err *e)
{
    const struct bench_opts *o = res->o;
    bool out = !strcmp(o->slap_csv, "-");
    int fd = out ? 1 : open(o->slap_csv, O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return b_fail(e, B_EXIT_ENV, "slap: --csv=%s: cannot open: %s (%s)", o->slap_csv,
                      strerror(errno), b_errno_name(errno));
    fflush(stdout);
    struct buf b = {0};
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *st = &res->steps[i];
        char a[32], mn[32], mx[32];
        buf_printf(&b, "%s,%s,%s,%s,%s,%lld,%lld\n", rep_fact_str(st, "engine"),
                   rep_fact_str(st, "load_type"),
                   rep_slap_secs(a, sizeof(a), rep_slap_int(st, "avg_ms")),
                   rep_slap_secs(mn, sizeof(mn), rep_slap_int(st, "min_ms")),
                   rep_slap_secs(mx, sizeof(mx), rep_slap_int(st, "max_ms")),
                   (long long)rep_slap_int(st, "clients"),
                   (long long)rep_slap_int(st, "queries_per_client"));
    }
    int rc = B_OK;
    for (size_t off = 0; b.p && off < b.len;) {
        ssize_t w = write(fd, b.p + off, b.len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            b_fail(e, B_EXIT_ENV, "slap: --csv=%s: cannot write: %s (%s)", o->slap_csv,
                   strerror(errno), b_errno_name(errno));
            rc = B_SYSERR;
            break;
        }
        off += (size_t)w;
    }
    buf_free(&b);
    if (!out)
        close(fd);
    return rc;
}

/* rep_slap_rusage - -T: the process's resource usage as mysqlslap's my_end prints it (on
 * stderr, after an empty line). */
static void rep_slap_rusage(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru))
        return;
    fflush(stdout);
    fprintf(stderr,
            "\nUser time %.2f, System time %.2f\n"
            "Maximum resident set size %ld, Integral resident set size %ld\n"
            "Non-physical pagefaults %ld, Physical pagefaults %ld, Swaps %ld\n"
            "Blocks in %ld out %ld, Messages in %ld out %ld, Signals %ld\n"
            "Voluntary context switches %ld, Involuntary context switches %ld\n",
            (double)(ru.ru_utime.tv_sec * 100 + ru.ru_utime.tv_usec / 10000) / 100.0,
            (double)(ru.ru_stime.tv_sec * 100 + ru.ru_stime.tv_usec / 10000) / 100.0,
            ru.ru_maxrss, ru.ru_idrss, ru.ru_minflt, ru.ru_majflt, ru.ru_nswap, ru.ru_inblock,
            ru.ru_oublock, ru.ru_msgsnd, ru.ru_msgrcv, ru.ru_nsignals, ru.ru_nvcsw,
            ru.ru_nivcsw);
}

/* rep_stream - a command's output text as it is made (slap --only-print's statements, through
 * the text sink's out): held up to 64 KiB, then written to stdout in one piece; text NULL
 * writes out what is held and flushes stdout. Returns 0, or the errno of a failed write.
 * One writer at a time (slap holds its lock). */
static int rep_stream(const char *text, size_t len)
{
    static char held[65536];
    static size_t n;
    int err = 0;
    if (text && n + len <= sizeof(held)) {
        memcpy(held + n, text, len);
        n += len;
        return 0;
    }
    errno = 0;
    if (n && fwrite(held, 1, n, stdout) != n)
        err = errno ? errno : EIO;
    n = 0;
    if (text && len > sizeof(held)) {
        if (fwrite(text, 1, len, stdout) != len && !err)
            err = errno ? errno : EIO;
    } else if (text) {
        memcpy(held, text, len);
        n = len;
    } else if (fflush(stdout) && !err)
        err = errno ? errno : EIO;
    return err;
}

/* rep_slap - the whole text of a slap result: --only-print's statement stream, the Benchmark
 * blocks (unless --silent, --csv or --only-print), the CSV lines, -T's usage. Returns B_OK or
 * a failure in e (the CSV file). */
static int rep_slap(const struct res *res, struct b_err *e)
{
    const struct bench_opts *o = res->o;
    int rc = B_OK;
    if (o->slap_only_print) { /* streamed (rep_stream), or held in the fact (no sink) */
        rep_stream(NULL, 0);
        fputs(rep_fact_str(res, "statements"), stdout);
    }
    if (!o->slap_silent && !*o->slap_csv && !o->slap_only_print)
        rep_slap_text(res);
    if (*o->slap_csv)
        rc = rep_slap_csv(res, e);
    fflush(stdout);
    if (o->slap_debug_info)
        rep_slap_rusage();
    return rc;
}

/* ---- bench's own memory and scheduler measures: --memory-mode=stream|latency,
 * --threads-mode=pingpong (the facts and steps of sections 11 and 12) ---- */

/* A numeric fact (RES_NUM or RES_INT) of res, or 0. */
static double rep_fact_num(const struct res *res, const char *key)
{
    const struct res_fact *f = res_fact(res, key);
    return !f ? 0 : f->type == RES_NUM ? f->num : (double)f->i;
}

static void rep_memx_mode(const struct res *res)
{
    const struct bench_opts *o = res->o;
    if (o->memory_mode == MEM_MODE_STREAM)
        printf("Memory bandwidth: STREAM-like kernels, all threads, best of %lld passes\n\n",
               (long long)o->memory_passes);
    else
        printf("Load-to-use latency: a random cyclic chase of %d-byte lines, best of 3, one "
               "thread\n\n",
               MEM_LINE);
}

static void rep_stream_final(const struct res *res)
{
    char a[32], l[32];
    printf("3 arrays of %s, %lld thread(s), best of %lld passes (first excepted), "
           "last-level cache %s (%s)\n",
           unit_fmt_size((u64)rep_fact_num(res, "array_bytes"), a, sizeof(a)),
           (long long)rep_fact_num(res, "threads"), (long long)rep_fact_num(res, "passes"),
           unit_fmt_size((u64)rep_fact_num(res, "llc_bytes"), l, sizeof(l)),
           rep_fact_str(res, "cache_sizes_from"));
    printf("Function    Best MB/s   Best MiB/s     Avg time     Min time     Max time\n");
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *st = &res->steps[i];
        char name[16];
        snprintf(name, sizeof(name), "%s:", st->command);
        name[0] = (char)toupper((unsigned char)name[0]);
        printf("%-12s%9.1f  %11.1f  %11.6f  %11.6f  %11.6f\n", name,
               rep_fact_num(st, "best_mb_per_s"), rep_fact_num(st, "best_mib_per_s"),
               rep_fact_num(st, "avg_time_s"), rep_fact_num(st, "min_time_s"),
               rep_fact_num(st, "max_time_s"));
    }
    printf("(MB = 10^6 bytes; 16 bytes per element for copy and scale, 24 for add and "
           "triad; validated)\n\n");
}

static void rep_memlat_final(const struct res *res)
{
    char s1[32], s2[32], s3[32], g[32];
    static const char *const lv[4] = {"L1", "L2", "L3", "DRAM"}, *const lk[4] = {"l1", "l2", "l3",
                                                                                 "dram"};
    const struct res_fact *thp = res_fact(res, "thp_granted_bytes");
    printf("Caches (%s): L1d %s, L2 %s, L3 %s; THP %s\n", rep_fact_str(res, "cache_sizes_from"),
           unit_fmt_size((u64)rep_fact_num(res, "l1d_bytes"), s1, sizeof(s1)),
           unit_fmt_size((u64)rep_fact_num(res, "l2_bytes"), s2, sizeof(s2)),
           unit_fmt_size((u64)rep_fact_num(res, "l3_bytes"), s3, sizeof(s3)),
           rep_fact_str(res, "thp_enabled"));
    if (!thp || thp->i < 0)
        printf("MADV_HUGEPAGE: huge pages granted unknown\n");
    else
        printf("MADV_HUGEPAGE: %s of %s in huge pages\n",
               unit_fmt_size((u64)thp->i, g, sizeof(g)),
               unit_fmt_size((u64)rep_fact_num(res, "max_size_bytes"), s1, sizeof(s1)));
    printf("    size   ns/load   ns/load (THP)\n");
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *st = &res->steps[i];
        printf("%8s %9.2f %15.2f\n",
               unit_fmt_size((u64)rep_fact_num(st, "size_bytes"), s1, sizeof(s1)),
               rep_fact_num(st, "ns_per_load"), rep_fact_num(st, "ns_per_load_thp"));
    }
    for (int v = 0; v < 2; v++) {
        printf("%s", v ? "Plateaus with THP:" : "Plateaus (ns per load):");
        for (int k = 0; k < 4; k++) {
            char key[48];
            snprintf(key, sizeof(key), "latency_%s_ns%s", lk[k], v ? "_thp" : "");
            if (res_fact(res, key))
                printf(" %s %.2f", lv[k], rep_fact_num(res, key));
        }
        printf("\n");
    }
    printf("\n");
}

static void rep_mem_any_final(const struct res *res)
{
    if (!res->nsteps) /* stopped before the end: nothing of its own */
        return;
    if (res->o->memory_mode == MEM_MODE_STREAM)
        rep_stream_final(res);
    else
        rep_memlat_final(res);
}

static void rep_pingpong_mode(const struct res *res)
{
    printf("Context-switch cost: two threads ping-ponging through a futex, %lld round trips\n\n",
           (long long)res->o->thread_round_trips);
}

static void rep_pingpong_final(const struct res *res)
{
    rep_warnings(res);
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *st = &res->steps[i];
        char where[32];
        bool same = !strcmp(st->command, "same_cpu");
        if (same)
            snprintf(where, sizeof(where), "same CPU (%lld):",
                     (long long)rep_fact_num(st, "cpu_a"));
        else
            snprintf(where, sizeof(where), "CPUs %lld and %lld:",
                     (long long)rep_fact_num(st, "cpu_a"), (long long)rep_fact_num(st, "cpu_b"));
        printf("    %-20s %10.1f ns per switch (%.1f ns per round trip)\n", where,
               rep_fact_num(st, "ns_per_switch"), rep_fact_num(st, "ns_per_round_trip"));
    }
    printf("\n");
}

/* ---- bench compare (cmp_main's result): files, host facts, measures, checks ---- */

_Static_assert(CMP_SCHEMA_VERSION == REP_JSON_SCHEMA_VERSION,
               "bench compare reads the schema this bench writes");

/* A measure's value in about 4 significant digits, no exponent above 0.01. */
static const char *rep_cmp_num(char *out, size_t n, double v)
{
    double a = fabs(v);
    if (a >= 1e15)
        snprintf(out, n, "%.4g", v); /* not a 309-digit column */
    else if (a >= 1000 || (v == floor(v) && a < 1e15))
        snprintf(out, n, "%.0f", v);
    else if (a >= 100)
        snprintf(out, n, "%.1f", v);
    else if (a >= 1)
        snprintf(out, n, "%.2f", v);
    else if (a >= 0.01)
        snprintf(out, n, "%.3f", v);
    else
        snprintf(out, n, "%.3g", v);
    return out;
}

/* rep_cmp_esc - s with control characters and DEL escaped (\n, \t, \r, \xHH): every string
 * compare shows came from a file, and a hostname holding ESC must not drive the terminal. */
static const char *rep_cmp_esc(char *out, size_t n, const char *s)
{
    size_t k = 0;
    for (; s && *s && k + 5 < n; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != 0x7f)
            out[k++] = (char)c;
        else if (c == '\n' || c == '\t' || c == '\r') {
            out[k++] = '\\';
            out[k++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        } else
            k += (size_t)snprintf(out + k, n - k, "\\x%02x", c);
    }
    if (n)
        out[k < n ? k : n - 1] = 0;
    return out;
}

/* A host fact's value_K as text: sizes in GiB, booleans yes/no; "-" when the file lacks it. */
static const char *rep_cmp_host_val(char *out, size_t n, const struct res *s, int f)
{
    char key[32];
    snprintf(key, sizeof(key), "value_%d", f + 1);
    const struct res_fact *v = res_fact(s, key);
    const char *name = rep_fact_str(s, "name");
    if (!v)
        snprintf(out, n, "-");
    else if (v->type == RES_STR)
        rep_cmp_esc(out, n, v->str ? v->str : "");
    else if (v->type == RES_BOOL)
        snprintf(out, n, "%s", v->i ? "yes" : "no");
    else if (v->type == RES_INT && cmp_ends(name, "_bytes") && v->i >= (1 << 30))
        snprintf(out, n, "%.1f GiB", (double)v->i / 1073741824.0);
    else if (v->type == RES_INT)
        snprintf(out, n, "%lld", (long long)v->i);
    else
        rep_cmp_num(out, n, v->num);
    return out;
}

/* print a line without its trailing blanks */
static void rep_cmp_line(struct buf *b)
{
    while (b->len && b->p[b->len - 1] == ' ')
        b->p[--b->len] = 0;
    printf("%s\n", b->p ? b->p : "");
    b->len = 0;
    if (b->p)
        b->p[0] = 0;
}

/* `bench compare`: the files (A, B, ...), then HOST, MEASURES and CHECKS side by side, each
 * ratio against A with its mark (better/worse beyond the row's noise, ~ within it), and a count
 * of marks per file. Columns are as wide as their longest cell: 100 columns hold 3 reports of
 * bench all (host values longer than their share are cut, ending in '~'). */
static void rep_cmp_text(const struct res *res)
{
    const struct res_fact *nf = res_fact(res, "compare.files");
    if (!nf)
        return;
    int n = (int)nf->i, lw = 8, vw = 6, hw = 6;
    char key[48], v[160], r[32], e1[512], e2[512], e3[512], e4[512];
    struct buf b = {0};
    for (int i = 0; i < res->nsteps; i++) {
        const struct res *s = &res->steps[i];
        const char *name = rep_fact_str(s, !strcmp(s->command, "check") ? "id" : "name");
        lw = B_MAX(lw, (int)strlen(rep_cmp_esc(e1, sizeof(e1), name)));
        for (int f = 0; f < n; f++) {
            if (!strcmp(s->command, "host")) {
                hw = B_MAX(hw, (int)strlen(rep_cmp_host_val(v, sizeof(v), s, f)));
                continue;
            }
            snprintf(key, sizeof(key), "%s_%d", !strcmp(s->command, "check") ? "verdict"
                                                                               : "value", f + 1);
            const struct res_fact *x = res_fact(s, key);
            if (x && x->type == RES_NUM)
                vw = B_MAX(vw, (int)strlen(rep_cmp_num(v, sizeof(v), x->num)));
        }
    }
    hw = B_MIN(hw, B_MAX(8, (100 - 2 - lw) / n - 2));
    printf("bench compare: %d reports; ratios against A; marked better/worse beyond the noise "
           "(%s%%,\nor a measure's own spread when larger), ~ within it\n", n,
           rep_cmp_num(v, sizeof(v), rep_fact_num(res, "compare.noise_pct")));
    for (int f = 0; f < n; f++) {
        char k2[48], k3[48];
        snprintf(key, sizeof(key), "file_%d", f + 1);
        snprintf(k2, sizeof(k2), "what_%d", f + 1);
        snprintf(k3, sizeof(k3), "hostname_%d", f + 1);
        printf("  %c  %s: %s on %s", 'A' + f, rep_cmp_esc(e1, sizeof(e1), rep_fact_str(res, key)),
               rep_cmp_esc(e2, sizeof(e2), rep_fact_str(res, k2)),
               rep_cmp_esc(e3, sizeof(e3), rep_fact_str(res, k3)));
        snprintf(key, sizeof(key), "started_at_%d", f + 1);
        printf(", %s\n", rep_cmp_esc(e4, sizeof(e4), rep_fact_str(res, key)));
    }
    static const char *const parts[] = {"host", "measure", "check"};
    static const char *const titles[] = {"HOST", "MEASURES", "CHECKS"};
    for (size_t p = 0; p < countof(parts); p++) {
        bool head = false, host = p == 0, check = p == 2;
        for (int i = 0; i < res->nsteps; i++) {
            const struct res *s = &res->steps[i];
            if (strcmp(s->command, parts[p]))
                continue;
            if (!head) {
                buf_printf(&b, "\n%-*s", lw + 2, titles[p]);
                for (int f = 0; f < n; f++)
                    buf_printf(&b, host ? "  %-*c" : "  %*c", host ? hw : vw, 'A' + f);
                for (int f = 1; f < n && !host && !check; f++)
                    buf_printf(&b, "  %5c/A        ", 'A' + f);
                rep_cmp_line(&b);
                head = true;
            }
            buf_printf(&b, "  %-*s", lw,
                       rep_cmp_esc(e1, sizeof(e1), rep_fact_str(s, check ? "id" : "name")));
            for (int f = 0; f < n; f++) {
                if (host) {
                    rep_cmp_host_val(v, sizeof(v), s, f);
                    if ((int)strlen(v) > hw)
                        snprintf(v + hw - 1, sizeof(v) - (size_t)hw + 1, "~");
                    buf_printf(&b, "  %-*s", hw, v);
                    continue;
                }
                snprintf(key, sizeof(key), "%s_%d", check ? "verdict" : "value", f + 1);
                const struct res_fact *x = res_fact(s, key);
                if (x && x->type == RES_NUM)
                    rep_cmp_num(v, sizeof(v), x->num);
                else
                    rep_cmp_esc(v, sizeof(v), x && x->type == RES_STR ? x->str : "-");
                buf_printf(&b, "  %*s", vw, v);
            }
            if (host || check) {
                if (rep_fact_int(s, "differs"))
                    buf_printf(&b, "  differs");
                rep_cmp_line(&b);
                continue;
            }
            for (int f = 1; f < n; f++) {
                snprintf(key, sizeof(key), "ratio_%d", f + 1);
                const struct res_fact *x = res_fact(s, key);
                if (x)
                    snprintf(r, sizeof(r), fabs(x->num) < 1e6 ? "%.3f" : "%.3g", x->num);
                else
                    snprintf(r, sizeof(r), "-");
                snprintf(key, sizeof(key), "mark_%d", f + 1);
                const char *m = rep_fact_str(s, key);
                buf_printf(&b, "  %7s %-7s", r, !strcmp(m, "same") ? "~" : m);
            }
            rep_cmp_line(&b);
        }
    }
    printf("\n");
    for (int f = 1; f < n; f++) {
        int c[4] = {0};
        static const char *const marks[] = {"better", "worse", "same", "missing"};
        snprintf(key, sizeof(key), "mark_%d", f + 1);
        for (int i = 0; i < res->nsteps; i++)
            for (int k = 0; k < 4; k++)
                c[k] += !strcmp(res->steps[i].command, "measure") &&
                        !strcmp(rep_fact_str(&res->steps[i], key), marks[k]);
        printf("%c against A: %d better, %d worse, %d within noise%s", 'A' + f, c[0], c[1], c[2],
               c[3] ? "" : "\n");
        if (c[3])
            printf(", %d not in both\n", c[3]);
    }
    buf_free(&b);
    fflush(stdout);
}

/*== 26 cli_ : command line, dispatch, bench_main(), main() ==================*/
/*
 * bench [options]... [testname] [command], exactly as sysbench 1.0.20 (spec 1.1, 1.2):
 * options anywhere, the first positional is the test, the second the command. Everything is
 * parsed and validated before anything runs. Invoked as `sysbench` (a symlink), bench is
 * the sysbench it replaces: same banner shape, messages, streams and exit codes. Invoked as
 * `bench`, errors are one "bench: ..." line plus a hint on stderr, with exit codes
 * 0 ok, 1 run failed, 2 usage, 3 environment (docs/cli.md).
 * Layout: the personas (cli_personas: one row each, picked once from argv[0]); option files
 * and values; then cli_main = cli_parse (argv, option files, mysql-style arguments into
 * struct cli), cli_resolve (test, command word, option values, 0.4 mappings, password) and
 * cli_dispatch (the command table cli_cmds: one row per command), with one cli_free.
 */

/* ---- personas: who bench is for this invocation, from argv[0] ---- */

enum cli_help { CLI_HELP_BENCH, CLI_HELP_SYSBENCH, CLI_HELP_NONE };

/* Every difference of a persona that is not a message of its own: rows in enum b_persona
 * order. Messages whose words differ (sysbench's exact texts) test cli_sb() where they are. */
struct cli_persona {
    int persona;                 /* enum b_persona: the row's index */
    const char *name;            /* the program's name in help and usage lines */
    const char *const *argv0;    /* names that select it: a prefix of argv[0]'s base name
                                    (sysbench's own check: strncmp(me, "sysbench", 8)) */
    const char *banner;          /* before a command's output (--verbosity >= 1); "" none */
    const char *version;         /* --version */
    const char *fatal, *warn, *hint, *note; /* b_msg prefixes by kind */
    int msg_fd;                  /* 1: stdout (sysbench's logger: msg_out when muted), 2: stderr */
    bool hints;                  /* hint lines are shown */
    int usage_ex;                /* exit code of a usage error */
    bool ext;                    /* bench's extension values are accepted (ENUM after '|') */
    bool sb_behaviour;           /* sysbench's behaviour where bench's differs (opts field) */
    int help;                    /* enum cli_help: what --help and `bench` alone print */
};

#if defined(__x86_64__)
#define CLI_MACHINE "x86_64"
#elif defined(__aarch64__)
#define CLI_MACHINE "aarch64"
#else
#define CLI_MACHINE "unknown"
#endif

static const char *const cli_argv0_sysbench[] = {"sysbench", NULL};
static const char *const cli_argv0_mysqlslap[] = {"mysqlslap", "mariadb-slap", NULL};

static const struct cli_persona cli_personas[] = {
    [B_BENCH] = {.persona = B_BENCH,
                 .name = "bench",
                 .argv0 = NULL, /* the default */
                 .banner = "bench " BENCH_VERSION " (sysbench " BENCH_SB_VERSION " compatible)\n\n",
                 .version = "bench " BENCH_VERSION " (sysbench " BENCH_SB_VERSION
                            " compatible; mbed TLS " MBEDTLS_VERSION_STRING ")\n",
                 .fatal = "bench: ",
                 .warn = "bench: warning: ",
                 .hint = "bench: hint: ",
                 .note = "bench: ",
                 .msg_fd = 2,
                 .hints = true,
                 .usage_ex = B_EXIT_USAGE,
                 .ext = true,
                 .sb_behaviour = false,
                 .help = CLI_HELP_BENCH},
    [B_SYSBENCH] = {.persona = B_SYSBENCH,
                    .name = "sysbench",
                    .argv0 = cli_argv0_sysbench,
                    .banner = "sysbench " BENCH_SB_VERSION " (using bench " BENCH_VERSION ")\n\n",
                    .version = "sysbench " BENCH_SB_VERSION "\n",
                    .fatal = "FATAL: ",
                    .warn = "WARNING: ",
                    .hint = "",
                    .note = "",
                    .msg_fd = 1,
                    .hints = false,
                    .usage_ex = B_EXIT_FAIL,
                    .ext = false,
                    .sb_behaviour = true,
                    .help = CLI_HELP_SYSBENCH},
    /* bench as mysqlslap / mariadb-slap: the slap command (slap_args rewrites argv) */
    [B_MYSQLSLAP] = {.persona = B_MYSQLSLAP,
                     .name = "mysqlslap",
                     .argv0 = cli_argv0_mysqlslap,
                     .banner = "",
                     /* after the program's name, as mariadb-slap's -V */
                     .version = "  Ver 1.0 Distrib bench-" BENCH_VERSION ", for linux-musl ("
                                CLI_MACHINE ")\n",
                     .fatal = "mysqlslap: ",
                     .warn = "mysqlslap: warning: ",
                     .hint = "",
                     .note = "mysqlslap: ",
                     .msg_fd = 2,
                     .hints = false,
                     .usage_ex = B_EXIT_FAIL,
                     .ext = true,
                     .sb_behaviour = false,
                     .help = CLI_HELP_NONE},
};

/* The persona that argv[0] selects: the first row with a matching name, else bench. */
static const struct cli_persona *cli_persona_for(const char *argv0)
{
    const char *me = strrchr(argv0, '/');
    me = me ? me + 1 : argv0;
    for (size_t i = 0; i < countof(cli_personas); i++)
        for (const char *const *m = cli_personas[i].argv0; m && *m; m++)
            if (!strncmp(me, *m, strlen(*m)))
                return &cli_personas[i];
    return &cli_personas[B_BENCH];
}

/* The mysqlslap persona's name in its messages and -V: argv[0]'s base name, as mariadb-slap's
 * my_progname ("mysqlslap" or "mariadb-slap"). */
static char cli_prog[64] = "mysqlslap";

static void cli_prog_set(const char *argv0)
{
    const char *me = strrchr(argv0, '/');
    me = me ? me + 1 : argv0;
    snprintf(cli_prog, sizeof(cli_prog), "%s", *me ? me : "mysqlslap");
}

/* The persona's prefix of a message of kind (b_msg_kind) on f; the mysqlslap persona's
 * carries the program's name as invoked. */
static void cli_prefix(FILE *f, int kind)
{
    const struct cli_persona *p = &cli_personas[opts.persona];
    if (opts.persona == B_MYSQLSLAP && kind != B_MSG_HINT)
        fprintf(f, "%s: %s", cli_prog, kind == B_MSG_WARN ? "warning: " : "");
    else
        fputs(kind == B_MSG_FATAL  ? p->fatal
              : kind == B_MSG_WARN ? p->warn
              : kind == B_MSG_HINT ? p->hint
                                   : p->note,
              f);
}

/* The mysqlslap persona's exit code where mariadb-slap's option parser (my_getopt) has one
 * of its own: 2 unknown option, 5 no value, 7 unknown variable, 13 a bad value. 0: none;
 * every other failure of the persona exits 1, as mariadb-slap's (cli_main). */
static int cli_slap_ex;

static int cli_slap_code(int ex)
{
    cli_slap_ex = ex;
    return ex;
}

/* This invocation's persona (opts.persona, set once by cli_persona_set). */
static const struct cli_persona *cli_persona(void)
{
    return &cli_personas[opts.persona];
}

/* Is this sysbench, for the messages that have sysbench's own words? */
static bool cli_sb(void)
{
    return opts.persona == B_SYSBENCH;
}

/* b_msg's printer: the persona's prefix and stream. Warnings are muted with the rest of the
 * output below --verbosity=2 (as sysbench's logger). */
static void cli_msg_print(int kind, const char *fmt, va_list ap) B_PRINTF(2, 0);
static void cli_msg_print(int kind, const char *fmt, va_list ap)
{
    const struct cli_persona *p = cli_persona();
    FILE *f = p->msg_fd == 1 && opts.msg_out ? opts.msg_out : p->msg_fd == 1 ? stdout : stderr;
    if (kind == B_MSG_HINT && !p->hints)
        return;
    if (kind == B_MSG_WARN && opts.verbosity < 2 && opts.msg_out)
        return;
    fflush(stdout);
    cli_prefix(f, kind);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    fflush(f);
}

/* Set the persona, once, with what lower sections read of it (opts.sb for code not yet on
 * opts.persona). */
static void cli_persona_set(const struct cli_persona *p)
{
    snprintf(cli_prog, sizeof(cli_prog), "%s", p->name); /* cli_prog_set: argv[0]'s */
    opts.persona = p->persona;
    opts.sb = p->persona == B_SYSBENCH;
    opts.sb_behaviour = p->sb_behaviour;
    opts.usage_ex = p->usage_ex;
    opts.ext_off = !p->ext;
    opts.msg_print = cli_msg_print;
    opts.own_tables = p->persona != B_SYSBENCH; /* OLTP: bench's marker proves ownership */
    opts.sig_kills = p->persona == B_SYSBENCH;  /* OLTP commands: a signal exits as it kills */
}

struct cli {
    const char **args;              /* options, in order (argv and option files), no limit */
    const char **from;              /* where each was read: "FILE:LINE", NULL = command line */
    int nargs, cap;
    const char *pos[3];             /* positionals: test, command, extra */
    int npos;
    const char **opnd;              /* every positional, for a test that takes files */
    int nopnd;
    char **own;                     /* strings read from option files, freed by cli_free */
    int nown, capown;
    const struct wl_def *w;         /* the test, once known */
    const char *test, *cmd;         /* the test's name as given, the command word (or NULL) */
    int late_ex;                    /* a failure sysbench reports after its banner, pending */
    bool banner_done;               /* the banner has been printed */
    char **av;                      /* argv after the mysql-style rewrite */
    struct buf argmem;              /* strings of rewritten options */
};

/* The persona's banner, once, before the first output of a command (--verbosity >= 1). */
static bool cli_quiet_text(void);
static int cli_output_open(void);

static void cli_banner(struct cli *c)
{
    if (!c->banner_done && opts.verbosity >= 1 && !cli_quiet_text() &&
        cli_output_open() == B_EXIT_OK)
        fputs(cli_persona()->banner, stdout);
    c->banner_done = true;
}

static void cli_free(struct cli *c)
{
    for (int i = 0; i < c->nown; i++)
        free(c->own[i]);
    free(c->own);
    free(c->args);
    free(c->from);
    free(c->av);
    free(c->opnd);
    buf_free(&c->argmem);
    c->opnd = NULL;
    c->nopnd = 0;
    c->own = NULL;
    c->args = c->from = NULL;
    c->nown = c->nargs = 0;
    c->av = NULL;
}


static void cli_hint_help(const struct cli *c)
{
    if (c->w)
        b_msg(B_MSG_HINT, "see 'bench --help' and 'bench %s help'", c->w->name);
    else
        b_msg(B_MSG_HINT, "see 'bench --help'");
}

/* The row for a name in the general tables or the test's table. */
static const struct opt_def *cli_lookup(const struct cli *c, const char *name, size_t len)
{
    const struct opt_def *d;
    for (size_t g = 0; g < countof(opt_groups); g++)
        if ((d = opt_find(opt_groups[g].t, opt_groups[g].n, name, len)))
            return d;
    if (c->w && (d = opt_find(c->w->opts, c->w->nopts, name, len)))
        return d;
    return NULL;
}

/* Closest option name (any table), and the test it belongs to (NULL = general). */
static const char *cli_suggest(const char *name, size_t len, const char **owner)
{
    const char *best = NULL;
    size_t bestd = SIZE_MAX;
    *owner = NULL;
    for (size_t g = 0; g < countof(opt_groups); g++)
        for (size_t i = 0; i < opt_groups[g].n; i++) {
            const struct opt_def *d = &opt_groups[g].t[i];
            size_t dist = opt_edit_distance(name, len, d->name, strlen(d->name));
            if (!(d->flags & OPT_F_NOHELP) && dist < bestd)
                bestd = dist, best = d->name, *owner = NULL;
        }
    for (size_t w = 0; w < countof(wl_all); w++)
        for (size_t i = 0; i < wl_all[w].nopts; i++) {
            const struct opt_def *d = &wl_all[w].opts[i];
            size_t dist = opt_edit_distance(name, len, d->name, strlen(d->name));
            if (dist < bestd)
                bestd = dist, best = d->name, *owner = wl_all[w].name;
        }
    return bestd <= B_MAX(2, len / 3) ? best : NULL;
}

/* ---- option files: sysbench's --config-file and the mysql client's ~/.my.cnf ---- */

#define CLI_OPTFILE_MAX (1u << 20) /* bytes of one option file: they hold a few lines */
#define CLI_INCLUDE_DEPTH 10       /* nesting of !include, as the mysql client */

static void *cli_grow(void *p, size_t n, size_t size)
{
    void *q = realloc(p, n * size);
    if (!q)
        b_die("out of memory for %zu options", n);
    return q;
}

/* c owns s from now on (freed by cli_free); returns s. */
static char *cli_own(struct cli *c, char *s)
{
    if (c->nown == c->capown) {
        c->capown = c->capown ? 2 * c->capown : 16;
        c->own = cli_grow(c->own, (size_t)c->capown, sizeof(*c->own));
    }
    c->own[c->nown++] = s;
    return s;
}

/* Insert option a, read at from ("FILE:LINE", NULL = the command line), at index at. */
static void cli_add(struct cli *c, int at, const char *a, const char *from)
{
    if (c->nargs == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->args = cli_grow(c->args, (size_t)c->cap, sizeof(*c->args));
        c->from = cli_grow(c->from, (size_t)c->cap, sizeof(*c->from));
    }
    memmove(c->args + at + 1, c->args + at, (size_t)(c->nargs - at) * sizeof(*c->args));
    memmove(c->from + at + 1, c->from + at, (size_t)(c->nargs - at) * sizeof(*c->from));
    c->args[at] = a;
    c->from[at] = from;
    c->nargs++;
}

static const char *cli_esc(struct buf *b, const char *s, size_t n);

/* "FILE:LINE", owned by c; FILE escaped (an !include or a directory can name it). */
static const char *cli_where(struct cli *c, const char *path, int line)
{
    struct buf b = {0}, e = {0};
    buf_printf(&b, "%s:%d", cli_esc(&e, path, strlen(path)), line);
    buf_free(&e);
    return cli_own(c, b.p);
}

/* n bytes of s for a message, escaped by my_escape (the one escaper: control bytes, C1 and
 * bytes that are not well-formed UTF-8 as \n \r \t \xNN), so that junk read from a file
 * or argv cannot drive the terminal. Returns b's text. */
static const char *cli_esc(struct buf *b, const char *s, size_t n)
{
    b->len = 0;
    buf_reserve(b, 4 * n + 1); /* each byte becomes at most \xNN */
    my_escape(b->p, 4 * n + 1, s, n);
    b->len = strlen(b->p);
    return b->p;
}

enum { CLI_F_OK, CLI_F_MISSING, CLI_F_IGNORED, CLI_F_BAD };

/*
 * cli_slurp - an option file, whole, into *out: a regular file (not a directory, device or
 * FIFO: /dev/zero would never end) of at most CLI_OPTFILE_MAX bytes with no NUL byte. With
 * ww_rule a world-writable file is CLI_F_IGNORED, as the mysql client ignores it (anyone
 * could have put a host= there). On CLI_F_BAD or CLI_F_MISSING, why says why.
 */
static int cli_slurp(const char *path, bool ww_rule, struct buf *out, struct stat *st,
                     char *why, size_t wn)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY), rc = CLI_F_BAD;
    out->len = 0;
    buf_put(out, "", 0);
    if (fd < 0) {
        int e = errno;
        snprintf(why, wn, "%s (%s)", strerror(e), b_errno_name(e));
        return e == ENOENT ? CLI_F_MISSING : CLI_F_BAD;
    }
    if (fstat(fd, st))
        snprintf(why, wn, "%s (%s)", strerror(errno), b_errno_name(errno));
    else if (S_ISDIR(st->st_mode))
        snprintf(why, wn, "it is a directory, not a file");
    else if (!S_ISREG(st->st_mode))
        snprintf(why, wn, "it is not a regular file (a device, FIFO or socket)");
    else if (ww_rule && (st->st_mode & S_IWOTH))
        rc = CLI_F_IGNORED;
    else
        for (;;) { /* chunks the size of the file: no large buffer for a small file */
            size_t left = (size_t)st->st_size > out->len ? (size_t)st->st_size - out->len : 0;
            size_t chunk = B_MIN(B_MAX(left + 1, (size_t)512), (size_t)65536);
            buf_reserve(out, chunk + 1);
            ssize_t n = read(fd, out->p + out->len, chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                snprintf(why, wn, "%s (%s)", strerror(errno), b_errno_name(errno));
                break;
            }
            out->len += (size_t)n;
            out->p[out->len] = 0;
            if (out->len > CLI_OPTFILE_MAX) {
                snprintf(why, wn, "it is larger than %u KiB, too large for an option file",
                         CLI_OPTFILE_MAX >> 10);
                break;
            }
            if (n == 0) {
                const char *z = memchr(out->p, 0, out->len);
                if (z)
                    snprintf(why, wn, "it holds a NUL byte at offset %zu: not a text file",
                             (size_t)(z - out->p));
                else
                    rc = CLI_F_OK;
                break;
            }
        }
    close(fd);
    return rc;
}

/* The next line at *pos (any length), NUL-terminated in place, less a "\r\n"'s '\r'. */
static char *cli_line(char **pos, char *end)
{
    char *p = *pos, *nl;
    if (p >= end)
        return NULL;
    nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
        nl = end;
    *nl = 0;
    if (nl > p && nl[-1] == '\r')
        nl[-1] = 0;
    *pos = nl + 1;
    return p;
}

static char *cli_trim(char *p, char **end)
{
    while (isspace((unsigned char)*p))
        p++;
    char *e = *end ? *end : p + strlen(p);
    while (e > p && isspace((unsigned char)e[-1]))
        e--;
    *end = e;
    return p;
}

/* Read --config-file: "name = value" lines, '#' comments (sysbench's format), appended as
 * options at the end of c->args. */
static int cli_read_config(struct cli *c, const char *path)
{
    struct buf b = {0}, e = {0};
    struct stat st;
    char why[160];
    int rc = cli_slurp(path, !cli_sb(), &b, &st, why, sizeof(why)), line = 0;
    if (rc == CLI_F_IGNORED) {
        b_msg(B_MSG_WARN, "World-writable config file '%s' is ignored.",
              cli_esc(&e, path, strlen(path)));
        b_msg(B_MSG_HINT, "remove the write permission of others: chmod o-w '%s'", e.p);
    } else if (rc != CLI_F_OK) {
        if (cli_sb())
            printf("FATAL: Cannot open config file '%s': %s\n", path, why);
        else {
            b_msg(B_MSG_FATAL, "cannot read config file '%s': %s",
                  cli_esc(&e, path, strlen(path)), why);
            b_msg(B_MSG_HINT, "the file holds lines such as 'threads = 4'");
        }
        buf_free(&b);
        buf_free(&e);
        return cli_sb() ? B_EXIT_FAIL : B_EXIT_ENV;
    }
    buf_free(&e);
    for (char *pos = b.p, *p; (p = cli_line(&pos, b.p + b.len));) {
        char *hash = strchr(p, '#'), *ne = NULL, *eq;
        struct buf a = {0};
        line++;
        if (hash)
            *hash = 0;
        p = cli_trim(p, &ne);
        if (p == ne)
            continue;
        eq = memchr(p, '=', (size_t)(ne - p));
        if (eq) {
            char *ke = eq, *ve = ne, *v = cli_trim(eq + 1, &ve);
            while (ke > p && isspace((unsigned char)ke[-1]))
                ke--;
            if (!cli_sb() && ke - p == 11 &&
                (!strncmp(p, "config-file", 11) || !strncmp(p, "config_file", 11))) {
                b_msg(B_MSG_FATAL, "%s: config-file: a config file cannot name another one "
                                   "(it would not be read)",
                      cli_where(c, path, line));
                b_msg(B_MSG_HINT, "give each file with its own --config-file=FILE");
                buf_free(&b);
                return B_EXIT_USAGE;
            }
            if (ve - v >= 2 && (*v == '"' || *v == '\'') && ve[-1] == *v)
                v++, ve--;
            buf_printf(&a, "--%.*s=%.*s", (int)(ke - p), p, (int)(ve - v), v);
        } else
            buf_printf(&a, "--%.*s", (int)(ne - p), p);
        cli_add(c, c->nargs, cli_own(c, a.p), cli_where(c, path, line));
    }
    buf_free(&b);
    return B_EXIT_OK;
}

/* The mysql client's option files ([client] and the groups it reads), with its grammar:
 * '#'/';' comment lines, '#' after a value outside quotes, "..." or '...' with \n \t \r \b
 * \s \" \' \\ escapes, !include FILE (missing: skipped), !includedir DIR (its *.cnf in name
 * order); an option before any [group] or a '[' without ']' is an error. */
struct cli_cnf {
    struct cli *c;
    int at;                       /* where the next option goes in c->args */
    int depth;                    /* of !include */
    dev_t dev[CLI_INCLUDE_DEPTH + 1];
    ino_t ino[CLI_INCLUDE_DEPTH + 1]; /* the files being read, to find include loops */
};

static const char *const cli_cnf_groups[] = {"client", "client-server", "client-mariadb"};

static int cli_cnf_file(struct cli_cnf *k, const char *path, bool must_exist,
                        const char *via);

/* Cut a trailing '#' comment outside quotes (the client's remove_end_comment). */
static void cli_cnf_uncomment(char *p)
{
    char quote = 0, esc = 0;
    for (; *p; p++) {
        if ((*p == '\'' || *p == '"') && !esc)
            quote = !quote ? *p : quote == *p ? 0 : quote;
        if (!quote && *p == '#') {
            *p = 0;
            return;
        }
        esc = quote && *p == '\\' && !esc;
    }
}

/* An option line of a wanted group: "--mysql-x=value" for the keys bench knows. */
static int cli_cnf_option(struct cli_cnf *k, char *p, const char *path, int line)
{
    static const struct {
        const char *key, *opt;
    } map[] = {{"host", "mysql-host"},         {"port", "mysql-port"},
               {"user", "mysql-user"},         {"password", "mysql-password"},
               {"socket", "mysql-socket"},     {"database", "mysql-db"},
               {"ssl-mode", "ssl-mode"},       {"ssl-ca", "ssl-ca"},
               {"ssl-cert", "ssl-cert"},       {"ssl-key", "ssl-key"}};
    char *eq = strchr(p, '='), *ke = eq ? eq : p + strlen(p);
    struct buf key = {0}, a = {0};
    while (ke > p && isspace((unsigned char)ke[-1]))
        ke--;
    if (!strncmp(p, "loose-", 6) || !strncmp(p, "loose_", 6))
        p += 6; /* the client's "ignore if unknown" prefix */
    for (char *q = p; q < ke; q++)
        buf_printf(&key, "%c", *q == '_' ? '-' : *q);
    size_t m = 0;
    while (m < countof(map) && (!key.p || strcmp(key.p, map[m].key)))
        m++;
    buf_free(&key);
    if (m == countof(map) || !eq)
        return B_EXIT_OK; /* another program's option, or a key without a value */
    char *ve = NULL, *v = cli_trim(eq + 1, &ve);
    if ((*v == '"' || *v == '\'') && v + 1 < ve && ve[-1] == *v)
        v++, ve--;
    buf_printf(&a, "--%s=", map[m].opt);
    for (; v < ve; v++) {
        char ch = *v;
        if (ch == '\\' && v + 1 < ve) {
            static const char from[] = "ntrbs\"'\\", to[] = "\n\t\r\b \"'\\";
            const char *f = strchr(from, *++v);
            if (f && *f)
                ch = to[f - from];
            else
                buf_put(&a, "\\", 1), ch = *v;
        }
        buf_put(&a, &ch, 1);
    }
    if (!strcmp(map[m].key, "port")) { /* checked here, where the file and line are known */
        const char *pv = a.p + strlen("--mysql-port=");
        char *end;
        errno = 0;
        unsigned long port = strtoul(pv, &end, 10);
        if (!*pv || *end || errno || port > 65535 || !isdigit((unsigned char)*pv)) {
            struct buf e = {0};
            b_msg(B_MSG_FATAL, "%s: port: invalid value '%s' (expected a TCP port 0..65535)",
                  cli_where(k->c, path, line), cli_esc(&e, pv, strlen(pv)));
            buf_free(&e);
            buf_free(&a);
            return B_EXIT_USAGE;
        }
    }
    cli_add(k->c, k->at++, cli_own(k->c, a.p), cli_where(k->c, path, line));
    return B_EXIT_OK;
}

static int cli_cnf_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* !includedir DIR: its files named *.cnf, in name order. */
static int cli_cnf_dir(struct cli_cnf *k, const char *dir, const char *via)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t n = 0, cap = 0;
    int ex = B_EXIT_OK;
    if (!d) {
        int err = errno;
        struct buf e = {0};
        b_msg(B_MSG_FATAL, "%s: cannot read !includedir '%s': %s (%s)", via,
              cli_esc(&e, dir, strlen(dir)), strerror(err), b_errno_name(err));
        buf_free(&e);
        return B_EXIT_ENV;
    }
    for (struct dirent *de; (de = readdir(d));) {
        size_t l = strlen(de->d_name);
        if (l < 4 || strcmp(de->d_name + l - 4, ".cnf"))
            continue;
        if (n == cap)
            names = cli_grow(names, cap = cap ? 2 * cap : 16, sizeof(*names));
        struct buf p = {0};
        buf_printf(&p, "%s/%s", dir, de->d_name);
        names[n++] = p.p;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof(*names), cli_cnf_cmp);
    for (size_t i = 0; i < n; i++) {
        if (ex == B_EXIT_OK)
            ex = cli_cnf_file(k, names[i], false, via);
        free(names[i]);
    }
    free(names);
    return ex;
}

/* A '!' directive line (p after the '!'). */
static int cli_cnf_directive(struct cli_cnf *k, char *p, const char *path, int line)
{
    bool dir = false;
    size_t kl;
    p += strspn(p, " \t\v\f\r");
    if (!strncmp(p, "includedir", kl = 10) && (!p[kl] || isspace((unsigned char)p[kl])))
        dir = true;
    else if (strncmp(p, "include", kl = 7) || (p[kl] && !isspace((unsigned char)p[kl])))
        return B_EXIT_OK; /* the client ignores other directives */
    char *e = NULL, *arg = cli_trim(p + kl, &e);
    const char *via = cli_where(k->c, path, line);
    if (arg == e) {
        b_msg(B_MSG_FATAL, "%s: '!%s' without a %s name", via, dir ? "includedir" : "include",
              dir ? "directory" : "file");
        return B_EXIT_USAGE;
    }
    *e = 0;
    if (k->depth > CLI_INCLUDE_DEPTH) {
        struct buf ea = {0};
        b_msg(B_MSG_WARN, "%s: skipping '!%s %s': more than %d levels of !include", via,
              dir ? "includedir" : "include", cli_esc(&ea, arg, strlen(arg)),
              CLI_INCLUDE_DEPTH);
        buf_free(&ea);
        return B_EXIT_OK;
    }
    return dir ? cli_cnf_dir(k, arg, via) : cli_cnf_file(k, arg, false, via);
}

/* One option file; via is the "FILE:LINE" of the !include that names it (NULL: the top). */
static int cli_cnf_file(struct cli_cnf *k, const char *path, bool must_exist, const char *via)
{
    struct buf b = {0}, e = {0};
    struct stat st;
    char why[160];
    int ex = B_EXIT_OK, line = 0;
    bool found_group = false, wanted = false;
    int rc = cli_slurp(path, true, &b, &st, why, sizeof(why));
    cli_esc(&e, path, strlen(path));
    if (rc == CLI_F_IGNORED)
        b_msg(B_MSG_WARN, "World-writable config file '%s' is ignored.", e.p);
    else if (rc == CLI_F_MISSING && !must_exist)
        ;
    else if (rc != CLI_F_OK) {
        if (via)
            b_msg(B_MSG_FATAL, "%s: cannot read included option file '%s': %s", via, e.p, why);
        else
            b_msg(B_MSG_FATAL, "cannot read option file '%s': %s", e.p, why);
        b_msg(B_MSG_HINT, "an option file is a text file with a [client] group of host=, "
                          "user=, password= lines");
        ex = B_EXIT_ENV;
    } else
        for (int i = 0; i < k->depth; i++)
            if (k->dev[i] == st.st_dev && k->ino[i] == st.st_ino) {
                b_msg(B_MSG_FATAL, "%s: '!include %s' makes a loop: that file is being read",
                      via, e.p);
                ex = B_EXIT_USAGE;
                rc = CLI_F_BAD;
                break;
            }
    if (rc != CLI_F_OK) {
        buf_free(&b);
        buf_free(&e);
        return ex;
    }
    k->dev[k->depth] = st.st_dev;
    k->ino[k->depth++] = st.st_ino;
    for (char *pos = b.p, *p; ex == B_EXIT_OK && (p = cli_line(&pos, b.p + b.len));) {
        line++;
        p += strspn(p, " \t\v\f\r");
        if (!*p || *p == '#' || *p == ';')
            continue;
        if (*p == '!') {
            ex = cli_cnf_directive(k, p + 1, path, line);
            continue;
        }
        if (*p == '[') {
            char *end = strchr(p, ']');
            if (!end) {
                b_msg(B_MSG_FATAL, "%s:%d: a group name without its closing ']'", e.p, line);
                ex = B_EXIT_USAGE;
                break;
            }
            char *g = p + 1; /* the client trims the end of a group name, not its start */
            while (end > g && isspace((unsigned char)end[-1]))
                end--;
            found_group = true;
            wanted = false;
            for (size_t i = 0; i < countof(cli_cnf_groups); i++)
                if (strlen(cli_cnf_groups[i]) == (size_t)(end - g) &&
                    !strncasecmp(g, cli_cnf_groups[i], (size_t)(end - g)))
                    wanted = true;
            continue;
        }
        if (!found_group) {
            b_msg(B_MSG_FATAL, "%s:%d: an option before any [group]", e.p, line);
            b_msg(B_MSG_HINT, "bench reads the [client] group, as the mysql client");
            ex = B_EXIT_USAGE;
            break;
        }
        if (!wanted)
            continue;
        cli_cnf_uncomment(p);
        ex = cli_cnf_option(k, p, path, line);
    }
    k->depth--;
    buf_free(&b);
    buf_free(&e);
    return ex;
}

/* Parse "1,2.5,99.9" into up to max doubles in [lo, hi]; returns the count or -1. */
static int cli_parse_doubles(const char *s, double *out, int max, double lo, double hi)
{
    int n = 0;
    if (!*s)
        return 0;
    for (;;) {
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (errno || end == s || v < lo || v > hi || v != v || n >= max)
            return -1;
        out[n++] = v;
        if (*end == 0)
            return n;
        if (*end != ',')
            return -1;
        s = end + 1;
    }
}

static int cli_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/*
 * sysbench's FATAL for a bad value of a row that has one (d->sb_bad): sysbench checks
 * integers and numbers for bounds only (a non-number is its generic message), sizes and
 * choices for anything. "%s" is the value as given ("(null)" when empty, as sysbench),
 * "%u" sysbench's reading of a size (0 when it cannot read it), "%f" the number as %f.
 */
static bool cli_sb_bad(const struct opt_def *d, const char *val, int rc)
{
    const char *f = d->sb_bad, *pc;
    bool num = d->type == OPT_INT || d->type == OPT_DOUBLE;
    if (!f || !(pc = strchr(f, '%')))
        return false;
    if (num && (*val ? rc != OPT_RANGE : d->lo <= 0 && d->hi >= 0))
        return false; /* sysbench's generic message, or it reads "" as a valid 0 */
    printf("FATAL: %.*s", (int)(pc - f), f);
    if (pc[1] == 'u') {
        u64 x = 0;
        printf("%llu", unit_parse_size(val, &x) == B_OK ? (unsigned long long)x : 0ull);
    } else if (pc[1] == 'f')
        printf("%f", strtod(val, NULL));
    else
        printf("%s", *val ? val : num ? "0" : "(null)");
    printf("%s\n", pc + 2);
    return true;
}

/*
 * cli_apply - parse every collected option into opts. Two passes, as sysbench: general
 * options first (their errors come before the banner in the sysbench persona), then the
 * rest. *late is set when the failure is one sysbench reports after its banner.
 */
/* --debug=proto: myc_'s hex dump lines, on stderr as they come. */
static void cli_proto_trace(void *ctx, const char *line)
{
    (void)ctx;
    fputs(line, stderr);
    fputc('\n', stderr);
}

static int cli_apply(struct cli *c, bool *late)
{
    *late = false;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < c->nargs; i++) {
            const char *a = c->args[i] + 2, *eq = strchr(a, '=');
            size_t len = eq ? (size_t)(eq - a) : strlen(a);
            const struct opt_def *d = cli_lookup(c, a, len);
            bool general = d && !(c->w && d >= c->w->opts && d < c->w->opts + c->w->nopts);
            if ((pass == 0) != general)
                continue;
            if (!d) {
                const char *owner, *sug = cli_suggest(a, len, &owner);
                *late = true;
                int nl = (int)len + 2; /* the name only: the value may be a mistyped password */
                if (cli_sb()) {
                    cli_banner(c);
                    /* sysbench echoes the value too; not when it looks like a password */
                    bool pw = sug && strstr(sug, "password");
                    struct buf e = {0};
                    const char *arg = c->args[i];
                    fprintf(stderr, "invalid option: %s%s\n",
                            cli_esc(&e, arg, pw ? (size_t)nl : strlen(arg)),
                            pw && eq ? "=..." : "");
                    buf_free(&e);
                    return B_EXIT_FAIL;
                }
                if (opts.persona == B_MYSQLSLAP) { /* mariadb-slap's words and codes */
                    struct buf e = {0};
                    bool pw = strstr(c->args[i], "pass") != NULL; /* the value may be one */
                    b_msg(B_MSG_FATAL, eq ? "unknown variable '%s%s'" : "unknown option '--%s%s'",
                          cli_esc(&e, a, eq && pw ? len : strlen(a)), eq && pw ? "=..." : "");
                    buf_free(&e);
                    return cli_slap_code(eq ? 7 : 2);
                }
                struct buf e = {0}, why = {0};
                buf_printf(&why, "%s%sunknown option '%s'", c->from[i] ? c->from[i] : "",
                           c->from[i] ? ": " : "", cli_esc(&e, c->args[i], (size_t)nl));
                if (sug && owner && (!c->w || strcmp(owner, c->w->name)))
                    b_msg(B_MSG_FATAL, "%s (--%s is an option of the '%s' test)", why.p, sug,
                          owner);
                else if (sug)
                    b_msg(B_MSG_FATAL, "%s (did you mean '--%s'?)", why.p, sug);
                else
                    b_msg(B_MSG_FATAL, "%s", why.p);
                buf_free(&e);
                buf_free(&why);
                cli_hint_help(c);
                return B_EXIT_USAGE;
            }
            const char *val = eq ? eq + 1 : d->type == OPT_BOOL ? "on" : "";
            if (d->off == offsetof(struct bench_opts, debug) && !strcmp(val, "proto")) {
                opts.debug_proto = true; /* --debug=proto: hex dump of every packet */
                opts.proto_trace = cli_proto_trace;
                continue;
            }
            int rc = opt_set(d, &opts, val);
            if (d->off == offsetof(struct bench_opts, mysql_db))
                opts.mysql_db_set = true;
            if (d >= opt_mysql && d < opt_mysql + countof(opt_mysql))
                opts.db_given = true; /* bench all: a database was named */
            if (d->off == offsetof(struct bench_opts, mysql_ssl))
                opts.mysql_ssl_set = true;
            if (d->off == offsetof(struct bench_opts, oltp_tables))
                opts.sizing_tables_set = true;
            if (d->off == offsetof(struct bench_opts, oltp_table_size))
                opts.sizing_rows_set = true;
            if (rc == OPT_OK)
                continue;
            *late = !general || d->type == OPT_BOOL || (d->flags & OPT_F_SBLATE);
            if (cli_sb() && *late)
                cli_banner(c);
            if (cli_sb()) {
                if (d->type == OPT_BOOL || (!eq && d->type != OPT_STR))
                    fprintf(stderr, "invalid option: %s\n", c->args[i]);
                else if (cli_sb_bad(d, val, rc))
                    ;
                else {
                    fprintf(stderr, "Invalid value for the '");
                    for (const char *p = d->name; *p; p++)
                        fputc(*p == '-' ? '_' : *p, stderr);
                    fprintf(stderr, "' option: '%s'\n", val);
                }
                return B_EXIT_FAIL;
            }
            if (opts.persona == B_MYSQLSLAP) { /* mariadb-slap's line and my_getopt's 13 */
                struct buf e = {0};
                b_msg(B_MSG_FATAL, "Error while setting value '%s' to '%s'",
                      cli_esc(&e, val, strlen(val)), d->name);
                buf_free(&e);
                return cli_slap_code(13);
            }
            struct buf ex = {0}, e = {0};
            opt_expect(&ex, d, false);
            b_msg(B_MSG_FATAL, "%s%s--%s: invalid value '%s' (expected %s)",
                  c->from[i] ? c->from[i] : "", c->from[i] ? ": " : "", d->name,
                  cli_esc(&e, val, strlen(val)), ex.p);
            buf_free(&ex);
            buf_free(&e);
            cli_hint_help(c);
            return B_EXIT_USAGE;
        }
    }
    return B_EXIT_OK;
}

/* Derived settings and cross-option checks; all before any work. */
static int cli_derive(struct cli *c)
{
    struct bench_opts *o = &opts;
    /* deprecated aliases win when set to a non-default value (sysbench 1.0 rule) */
    static const struct {
        const char *old, *neu;
        size_t off_old, off_new;
        i64 dflt;
    } alias[] = {
        {"num-threads", "threads", offsetof(struct bench_opts, num_threads),
         offsetof(struct bench_opts, threads), 1},
        {"max-requests", "events", offsetof(struct bench_opts, max_requests),
         offsetof(struct bench_opts, events), 0},
        {"max-time", "time", offsetof(struct bench_opts, max_time),
         offsetof(struct bench_opts, time_s), 0},
        {"tx-rate", "rate", offsetof(struct bench_opts, tx_rate),
         offsetof(struct bench_opts, rate), 0},
    };
    for (size_t i = 0; i < countof(alias); i++) {
        i64 v;
        memcpy(&v, (char *)o + alias[i].off_old, sizeof(v));
        if (v != alias[i].dflt) {
            memcpy((char *)o + alias[i].off_new, &v, sizeof(v));
            b_msg(B_MSG_WARN, "--%s is deprecated, use --%s instead", alias[i].old,
                  alias[i].neu);
        }
    }
    /* --percentile: sysbench takes one integer 0..100; bench also a list */
    {
        int n = cli_parse_doubles(o->percentile_list, o->pct, OPT_MAX_PCT, 0, 100);
        if (n < 0 || (cli_sb() && (n != 1 || o->pct[0] != floor(o->pct[0])))) {
            if (cli_sb())
                printf("FATAL: Invalid value for --percentile: %s\n", o->percentile_list);
            else {
                b_msg(B_MSG_FATAL,
                      "--percentile: invalid value '%s' (expected 0, or up to %d percentiles in "
                      "0..100 separated by commas, such as 50,95,99.9)",
                      o->percentile_list, OPT_MAX_PCT);
                cli_hint_help(c);
            }
            return b_usage_exit();
        }
        qsort(o->pct, (size_t)n, sizeof(double), cli_cmp_double);
        o->npct = (n == 1 && o->pct[0] == 0) ? 0 : n;
        for (int i = 0; i < o->npct; i++)
            if (o->pct[i] == 0) {
                b_msg(B_MSG_FATAL, "--percentile: 0 disables percentiles and cannot be in a "
                                   "list");
                return b_usage_exit();
            }
    }
    if (o->histogram && !o->npct) {
        if (cli_sb())
            printf("FATAL: --histogram cannot be used with --percentile=0\n");
        else {
            b_msg(B_MSG_FATAL, "--histogram needs percentiles, but --percentile=0 disables them");
            b_msg(B_MSG_HINT, "drop --percentile=0 or --histogram");
        }
        return b_usage_exit();
    }
    /* --report-checkpoints */
    {
        int n = cli_parse_doubles(o->report_checkpoints, o->ckpt, OPT_MAX_CKPT, 0, 1e9);
        if (n < 0) {
            if (cli_sb())
                printf("FATAL: Invalid value for --report-checkpoints: %s\n",
                       o->report_checkpoints);
            else {
                b_msg(B_MSG_FATAL,
                      "--report-checkpoints: invalid value '%s' (expected up to %d times in "
                      "seconds separated by commas, such as 10,20)",
                      o->report_checkpoints, OPT_MAX_CKPT);
                cli_hint_help(c);
            }
            return b_usage_exit();
        }
        qsort(o->ckpt, (size_t)n, sizeof(double), cli_cmp_double);
        o->nckpt = n;
    }
    /* --forced-shutdown: off, N, N%, or empty (5%) */
    {
        const char *f = o->forced_shutdown;
        char *end;
        o->forced_s = -1;
        if (!strcmp(f, "off"))
            ;
        else if (!*f)
            o->forced_s = (double)o->time_s * 0.05;
        else {
            errno = 0;
            double v = strtod(f, &end);
            bool ok = !errno && end != f && v >= 0 && (!*end || !strcmp(end, "%"));
            if (!ok) {
                if (cli_sb())
                    printf("FATAL: Invalid value for --forced-shutdown: %s\n", f);
                else {
                    b_msg(B_MSG_FATAL,
                          "--forced-shutdown: invalid value '%s' (expected off, seconds such as "
                          "5, or a percentage of --time such as 10%%)",
                          f);
                    cli_hint_help(c);
                }
                return b_usage_exit();
            }
            o->forced_s = *end == '%' ? (double)o->time_s * v / 100.0 : v;
        }
    }
    if (o->start_at && *o->start_at) { /* --start-at: to the wall clock's ns, once */
        struct b_err e;
        struct timespec now;
        memset(&e, 0, sizeof(e));
        clock_gettime(CLOCK_REALTIME, &now);
        int ex = load_start_at_parse(o->start_at, (i64)now.tv_sec * 1000000000 + now.tv_nsec,
                                     &o->start_at_unix_ns, &e);
        if (ex != B_EXIT_OK) {
            b_msg(B_MSG_FATAL, "%s", e.msg);
            if (e.hint[0])
                b_msg(B_MSG_HINT, "%s", e.hint);
            return b_usage_exit();
        }
    }
    if (o->time_s == 0 && o->events == 0 && (cli_sb() || !c->w || !c->w->own_limit))
        b_msg(B_MSG_WARN, "Both event and time limits are disabled, running an endless test");
    if (o->debug)
        o->verbosity = 5;
    rnd_params_init(&o->rnd, o->rand_type, (int)o->rand_spec_iter, (int)o->rand_spec_pct,
                    (int)o->rand_spec_res, o->rand_pareto_h, o->rand_zipfian_exp);
    return B_EXIT_OK;
}

/* ---- database connections: mysql client conventions, option files, ping ---- */

/* Read a password from the terminal without echo (-p with no value): B_OK, B_SYSERR (no
 * terminal), B_INTR (a signal: SIGINT/SIGTERM end the read) or B_TRUNCATED (longer than
 * n - 1 bytes: the whole line is read, nothing is cut silently). */
static int cli_prompt_password(char *out, size_t n)
{
    int fd = open("/dev/tty", O_RDWR | O_CLOEXEC), rc = B_OK;
    struct termios t, t0;
    size_t len = 0;
    if (fd < 0)
        return B_SYSERR;
    bool restore = tcgetattr(fd, &t0) == 0;
    if (restore) {
        t = t0;
        t.c_lflag &= ~(tcflag_t)ECHO;
        tcsetattr(fd, TCSAFLUSH, &t);
    }
    (void)!write(fd, "Enter password: ", 16); /* after TCSAFLUSH: what is typed now is kept */
    for (char ch;;) { /* a signal that came before read(2) would not end it: poll */
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (atomic_load(&b_stop)) {
            rc = B_INTR; /* no password to use */
            break;
        }
        if (poll(&p, 1, 100) == 0 || (p.revents == 0))
            continue;
        if (read(fd, &ch, 1) != 1) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (ch == '\n' || ch == '\r')
            break;
        if (len + 1 < n)
            out[len++] = ch;
        else
            rc = B_TRUNCATED;
    }
    out[len] = 0;
    if (restore)
        tcsetattr(fd, TCSAFLUSH, &t0);
    (void)!write(fd, "\n", 1);
    close(fd);
    return rc;
}

/* Where the secret starts in a password argument (-pSECRET, --password=, --mysql-password=),
 * or NULL. */
static char *cli_secret(const char *a)
{
    static const char *const pre[] = {"--password=", "--mysql-password=", "--mysql_password="};
    if (a[0] == '-' && a[1] == 'p')
        return (char *)(uintptr_t)(a + 2);
    for (size_t i = 0; i < countof(pre); i++)
        if (!strncmp(a, pre[i], strlen(pre[i])))
            return (char *)(uintptr_t)(a + strlen(pre[i]));
    return NULL;
}

/* The mysql client's rule: once parsed, passwords leave argv (and /proc/PID/cmdline), each
 * byte replaced by 'x'. The parsed copies live in struct cli's buffers. */
static void cli_hide_secrets(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        char *p = cli_secret(argv[i]);
        if (p)
            memset(p, 'x', strlen(p));
    }
}

/*
 * mysql client conventions on the command line: -h -P -u -p[pw] -S -D (value attached or
 * next), --host/--port/--user/--password[=]/--socket/--database, -C/--compress and
 * --compression-algorithms[=]. Rewrites them as --mysql-*
 * options in place; returns the new argc. -p and --password without a value ask at the
 * terminal. An unknown short option is a usage error, reported by the caller.
 */
static int cli_mysql_args(int argc, char **argv, char **out, struct buf *mem, bool *prompt,
                          const char **bad)
{
    static const struct {
        char s;
        const char *l, *opt;
    } map[] = {{'h', "host", "mysql-host"},   {'P', "port", "mysql-port"},
               {'u', "user", "mysql-user"},   {'p', "password", "mysql-password"},
               {'S', "socket", "mysql-socket"}, {'D', "database", "mysql-db"}};
    int n = 0;
    size_t *offs = b_xcalloc((size_t)argc + 1, sizeof(size_t));
    int *isnew = b_xcalloc((size_t)argc + 1, sizeof(int));
    *bad = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int k = -1;
        const char *val = NULL;
        bool takes_next = false;
        bool zc = !strcmp(a, "-C") || !strcmp(a, "--compress");
        bool za = !strncmp(a, "--compression-algorithms", 24) && (a[24] == '=' || !a[24]);
        if (zc || za) { /* the client's compression options */
            const char *v = !za ? NULL : a[24] ? a + 25 : i + 1 < argc ? argv[++i] : NULL;
            if (za && !v) {
                *bad = a;
                break;
            }
            offs[n] = mem->len;
            isnew[n++] = 1;
            if (v)
                buf_printf(mem, "--mysql-compression-algorithms=%s%c", v, 0);
            else
                buf_printf(mem, "--mysql-compression=on%c", 0);
            continue;
        }
        if (a[0] == '-' && a[1] && a[1] != '-') {
            for (size_t m = 0; m < countof(map); m++)
                if (a[1] == map[m].s)
                    k = (int)m;
            if (k < 0) {
                *bad = a;
                break;
            }
            val = a[2] ? a + 2 : NULL;
            takes_next = !val && map[k].s != 'p';
        } else if (a[0] == '-' && a[1] == '-') {
            for (size_t m = 0; m < countof(map); m++) {
                size_t l = strlen(map[m].l);
                if (!strncmp(a + 2, map[m].l, l) && (a[2 + l] == '=' || a[2 + l] == 0))
                    k = (int)m, val = a[2 + l] == '=' ? a + 3 + l : NULL;
            }
            takes_next = k >= 0 && !val && map[k].s != 'p';
        }
        if (k < 0 && cli_secret(a)) { /* a copy: cli_hide_secrets wipes argv */
            offs[n] = mem->len;
            isnew[n++] = 1;
            buf_printf(mem, "%s%c", a, 0);
            continue;
        }
        if (k < 0) {
            out[n] = argv[i];
            isnew[n++] = 0;
            continue;
        }
        if (takes_next) {
            if (i + 1 >= argc) {
                *bad = a;
                break;
            }
            val = argv[++i];
        }
        if (!val && map[k].s == 'p') {
            *prompt = true;
            continue;
        }
        offs[n] = mem->len;
        isnew[n++] = 1;
        buf_printf(mem, "--%s=%s%c", map[k].opt, val, 0);
    }
    for (int i = 0; i < n; i++) /* mem may have moved while growing: point into it now */
        if (isnew[i])
            out[i] = mem->p + offs[i];
    free(offs);
    free(isnew);
    return *bad ? -1 : n;
}

/* --help, and the bench persona's `bench` alone: the persona's help style. */
static void cli_print_help(void)
{
    const struct cli_persona *p = cli_persona();
    const bool sb = p->help != CLI_HELP_BENCH; /* sysbench's text: no bench extensions */
    if (!sb) /* first contact: the product's own commands lead, one example each */
        printf("bench: database host sizing and benchmarks in one static binary\n\n"
               "Commands:\n"
               "  all   the one-page sizing report: host, CPU, memory, disk, database, verdicts\n"
               "        bench all --dir=/var/lib/mysql [-h HOST -u USER -p] [--quick]\n"
               "  oltp  the OLTP sizing one-liner: a thread ladder in its own schema, the knee\n"
               "        bench oltp -h HOST -u USER -p\n"
               "  ping  connection check: server, TLS, authentication, round-trip times\n"
               "        bench ping -h HOST -u USER -p\n"
               "  compare  reports side by side: ratios, better/worse beyond noise\n"
               "        bench compare before.json after.json\n"
               "  slap  mysqlslap (mariadb-slap), drop-in\n"
               "        bench slap -h HOST -u USER -p -a -c 10,50 -i 3\n\n"
               "The sysbench 1.0.20 compatible tests and their options follow.\n\n");
    printf("Usage:\n  %s [options]... [testname] [command]\n\n", p->name);
    printf("Commands implemented by most tests: prepare run cleanup help\n\n");
    for (size_t g = 0; g < countof(opt_groups); g++) {
        if (opt_groups[g].t == opt_mysql)
            printf("\nCompiled-in database drivers:\n  mysql - MySQL driver\n\n");
        if (*opt_groups[g].title)
            printf("%s\n", opt_groups[g].title);
        rep_opt_help(opt_groups[g].t, opt_groups[g].n, sb);
        printf("\n");
    }
    printf("Compiled-in tests:\n");
    /* sysbench compiles in only its C tests; its database workloads are Lua scripts */
    for (size_t i = 0; i < countof(wl_all); i++)
        if (!wl_all[i].hidden && !(sb && (wl_all[i].db || wl_all[i].command)))
            printf("  %s - %s\n", wl_all[i].name, wl_all[i].desc);
    printf("\nSee '%s <testname> help' for a list of options for each test.\n\n", p->name);
    if (!sb)
        printf("Exit status: 0 success, 1 the run failed or its result is invalid, 2 usage "
               "error,\n3 the environment refused (open, connect, memory). See bench(1).\n\n");
}

static void cli_print_version(void)
{
    if (opts.persona == B_MYSQLSLAP) /* "mariadb-slap  Ver 1.0 Distrib ..." */
        fputs(cli_prog, stdout);
    fputs(cli_persona()->version, stdout);
}

/* A failure of a run, from r->err: the bench persona says which test and gives the hint;
 * the sysbench persona prints sysbench's FATAL and WARNING lines. */
static int cli_err_print(const struct b_err *e);

static void cli_run_error(const struct wl_def *w, const struct b_err *e, int rc)
{
    const char *msg = e->msg[0] ? e->msg : b_errstr(rc);
    if (cli_sb() && e->sb[0]) { /* the workload's own sysbench text */
        (void)cli_err_print(e);
        return;
    }
    if (cli_sb()) {
        b_msg(B_MSG_FATAL, "%s", msg);
        if (e->hint[0])
            b_msg(B_MSG_WARN, "%s", e->hint);
        return;
    }
    b_msg(B_MSG_FATAL, "%s: %s", w->name, msg);
    if (e->hint[0])
        b_msg(B_MSG_HINT, "%s", e->hint);
}

/* ---- the report's stream: standard output that was closed, is full or lost its reader ---- */

static _Atomic int cli_out_errno; /* the first write error on standard output */

/* A report line could not be written: remember why; a reader that went away (EPIPE: SIGPIPE
 * is ignored) ends the run as a signal would, at the next safe point. */
static void cli_out_failed(int e)
{
    int none = 0;
    atomic_compare_exchange_strong(&cli_out_errno, &none, e ? e : EIO);
    if (e == EPIPE) {
        none = 0;
        atomic_compare_exchange_strong(&b_stop, &none, SIGPIPE);
    }
}

/* While a run lasts with standard output on a pipe or socket: a reader that closed its end
 * stops the run (poll reports POLLERR/POLLHUP on the write end) even between reports. */
static _Atomic bool cli_watch_end;

static void *cli_out_watch(void *arg)
{
    (void)arg;
    while (!atomic_load(&cli_watch_end) && !atomic_load(&b_stop)) {
        struct pollfd p = {.fd = 1, .events = 0};
        if (poll(&p, 1, 100) > 0 && (p.revents & (POLLERR | POLLHUP))) {
            cli_out_failed(EPIPE);
            break;
        }
    }
    return NULL;
}

static bool cli_out_watch_start(pthread_t *tid)
{
    struct stat st;
    atomic_store(&cli_watch_end, false);
    if (fstat(1, &st) || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
        return false;
    return os_thread_start(tid, 64 << 10, cli_out_watch, NULL) == 0;
}

static void cli_out_watch_stop(pthread_t tid, bool started)
{
    atomic_store(&cli_watch_end, true);
    if (started)
        pthread_join(tid, NULL);
}

/*
 * At exit: a report that could not be written (a full disk, /dev/full, a reader that went
 * away) is an error on standard error and exit 1, never a silent 0 (docs/cli.md).
 */
static int cli_out_check(int ex)
{
    FILE *fs[2] = {stdout, opts.msg_out};
    int e = atomic_load(&cli_out_errno);
    bool bad = e != 0;
    for (int i = 0; i < 2; i++) {
        errno = 0;
        if (fs[i] && (fflush(fs[i]) || ferror(fs[i]))) {
            bad = true;
            e = e ? e : errno;
        }
    }
    if (!bad)
        return ex;
    if (!e) { /* stdio forgot why: one more byte on the broken stream asks the kernel again */
        FILE *f = opts.msg_out && ferror(opts.msg_out) ? opts.msg_out : stdout;
        e = write(fileno(f), "\n", 1) < 0 ? errno : EIO;
    }
    cli_prefix(stderr, B_MSG_FATAL); /* text with --output=FILE: standard output is FILE */
    bool file = opts.output && *opts.output && !cli_quiet_text();
    fprintf(stderr, "cannot write the report to %s%s: %s (%s)\n", file ? "--output=" : "",
            file ? opts.output : "standard output", strerror(e), b_errno_name(e));
    return ex ? ex : B_EXIT_FAIL;
}

/* ---- the text sink: sysbench's layout, printed as the run goes ---- */

static struct {
    pthread_t watch; /* cli_out_watch, while workers run */
    bool watching;
} cli_text;

static void cli_text_flush(void)
{
    if (fflush(stdout) || ferror(stdout))
        cli_out_failed(errno);
}

static void cli_text_phase(void *ctx, struct res *res, int phase)
{
    (void)ctx;
    errno = 0;
    switch (phase) {
    case RES_PH_HEADER:
        rep_header(res);
        break;
    case RES_PH_READY:
        rep_ready(res);
        break;
    case RES_PH_STARTED:
        printf("Threads started!\n\n");
        cli_text_flush();
        cli_text.watching = cli_out_watch_start(&cli_text.watch);
        break;
    case RES_PH_STOPPED:
        cli_out_watch_stop(cli_text.watch, cli_text.watching);
        cli_text.watching = false;
        break;
    }
}

static void cli_text_interval(void *ctx, struct res *res, const struct res_interval *iv)
{
    (void)ctx;
    errno = 0;
    rep_interval(res, iv);
    cli_text_flush();
}

static void cli_text_checkpoint(void *ctx, struct res *res, const struct res_stats *st)
{
    (void)ctx;
    errno = 0;
    rep_checkpoint(res, st);
    cli_text_flush();
}

/* Progress lines of commands are what sysbench's scripts print(): in sysbench not subject to
 * --verbosity (its muted stdout keeps msg_out). Messages, warnings and hints in the persona's
 * words (b_msg); a status line only on the bench persona's terminal. Called from several
 * threads (prepare jobs). */
static void cli_text_say(void *ctx, int kind, const char *text)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static const int msg_kind[] = {[RES_SAY_MSG] = B_MSG_NOTE, [RES_SAY_WARN] = B_MSG_WARN,
                                   [RES_SAY_HINT] = B_MSG_HINT};
    FILE *f = kind == RES_SAY_PROGRESS && opts.persona == B_SYSBENCH && opts.msg_out
                  ? opts.msg_out
                  : stdout;
    (void)ctx;
    pthread_mutex_lock(&mu);
    if (kind == RES_SAY_MSG || kind == RES_SAY_WARN || kind == RES_SAY_HINT)
        b_msg(msg_kind[kind], "%s", text);
    else if (kind == RES_SAY_STATUS) {
        if (opts.persona == B_BENCH && isatty(2)) {
            fprintf(stderr, "\rbench: %s", text);
            fflush(stderr);
        }
    } else {
        fputs(text, f);
        fputc('\n', f);
        fflush(f);
    }
    pthread_mutex_unlock(&mu);
}

/* A command's output as it is made (slap --only-print): rep_stream writes it; a write that
 * fails stops the run as a report line's would. */
static void cli_text_out(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    int e = rep_stream(text, len);
    if (e)
        cli_out_failed(e);
}

static const struct res_sink cli_text_sink = {NULL, cli_text_phase, cli_text_interval,
                                              cli_text_checkpoint, cli_text_say, cli_text_out};

/* ---- --format=json and --output: the JSON sink, the result document's destination ---- */

static int cli_argc;       /* the command line, for the document's "command" (bench_main) */
static char **cli_argv;

/* cli_quiet_text - true when no text may go to standard output (--format=json): the banner,
 * headers and reports are skipped; the document and JSON lines say it all. */
static bool cli_quiet_text(void)
{
    return opts.format == OPT_FMT_JSON;
}

static struct {
    bool tried;    /* cli_output_open ran */
    int err;       /* its errno, 0 = open */
    FILE *doc;     /* --format=json --output: the document's file */
    const struct wl_def *w; /* the test (cli_dispatch), for cli_output_clobbers */
} cli_output;

static FILE *cli_json_f; /* --format=json: standard output as it was (cli_output_open) */

/* Where JSON lines and a document without --output go: standard output (kept in msg_out when
 * --verbosity < 3 mutes it). */
static FILE *cli_json_stream(void)
{
    return cli_json_f ? cli_json_f : opts.msg_out ? opts.msg_out : stdout;
}

/* cli_output_clobbers - is --output one of fileio's test files (same inode)? Opening it would
 * truncate the prepared data set under the run. Returns the file's index, or -1. */
static int cli_output_clobbers(void)
{
    struct stat so, sf;
    char p[PATH_MAX];
    if (!cli_output.w || cli_output.w->family != WL_FILEIO || stat(opts.output, &so) ||
        !S_ISREG(so.st_mode))
        return -1;
    for (i64 i = 0; i < opts.file_num && i < INT_MAX; i++) {
        io_path(&opts, (int)i, p, sizeof(p));
        if (!stat(p, &sf) && sf.st_dev == so.st_dev && sf.st_ino == so.st_ino)
            return (int)i;
    }
    return -1;
}

/* cli_output_open - once per process. JSON mode: standard output is kept for the JSON lines
 * and descriptor 1 becomes standard error, so that text printed by anything else cannot
 * corrupt the stream. --output=FILE: text mode sends standard output there; JSON mode keeps
 * the file for the document. Returns B_EXIT_OK, or B_EXIT_ENV after saying why. */
static int cli_output_open(void)
{
    if (cli_quiet_text() && !cli_output.tried && !opts.msg_out) {
        fflush(stdout);
        int fd = dup(1);
        cli_json_f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (cli_json_f)
            dup2(2, 1);
        else if (fd >= 0)
            close(fd);
    }
    if (!opts.output || !*opts.output) {
        cli_output.tried = true;
        return B_EXIT_OK;
    }
    if (!cli_output.tried) {
        cli_output.tried = true;
        int k = cli_output_clobbers();
        if (k >= 0) {
            fprintf(stderr, "%s--output=%s: it is the test's file test_file.%d; writing the "
                            "result there would destroy it\n",
                    opts.sb ? "FATAL: " : "bench: ", opts.output, k);
            cli_output.err = EEXIST;
            return B_EXIT_ENV;
        }
        errno = 0;
        if (cli_quiet_text())
            cli_output.doc = fopen(opts.output, "w");
        else {
            fflush(cli_json_stream());
            if (freopen(opts.output, "w", cli_json_stream()))
                cli_output.doc = cli_json_stream();
        }
        if (!cli_output.doc) {
            cli_output.err = errno ? errno : EIO;
            fprintf(stderr, "%s--output=%s: cannot open for writing: %s (%s)\n",
                    opts.sb ? "FATAL: " : "bench: ", opts.output, strerror(cli_output.err),
                    b_errno_name(cli_output.err));
        } else if (!cli_quiet_text())
            cli_output.doc = NULL; /* text: it is standard output now */
    }
    return cli_output.err ? B_EXIT_ENV : B_EXIT_OK;
}

/* cli_json_msgs - may the persona's message lines be printed (after cli_output_open)? Always
 * in text mode; in JSON mode unless they would land in the JSON stream: the sysbench
 * persona's go to standard output, which is standard error by then, except with
 * --verbosity < 3 (msg_out is the JSON stream). */
static bool cli_json_msgs(void)
{
    return !cli_quiet_text() || !opts.sb || cli_json_f;
}

static pthread_mutex_t cli_json_mu = PTHREAD_MUTEX_INITIALIZER;

/* One JSON line on the stream, whole, from any thread. */
static void cli_json_line(struct rep_json *j)
{
    FILE *f = cli_json_stream();
    pthread_mutex_lock(&cli_json_mu);
    errno = 0;
    fputs(j->b.p, f);
    fputc('\n', f);
    if (fflush(f) || ferror(f))
        cli_out_failed(errno);
    pthread_mutex_unlock(&cli_json_mu);
    buf_free(&j->b);
}

static void cli_json_phase(void *ctx, struct res *res, int phase)
{
    (void)ctx;
    (void)res;
    if (phase == RES_PH_STARTED)
        cli_text.watching = cli_out_watch_start(&cli_text.watch);
    else if (phase == RES_PH_STOPPED) {
        cli_out_watch_stop(cli_text.watch, cli_text.watching);
        cli_text.watching = false;
    }
}

static void cli_json_interval(void *ctx, struct res *res, const struct res_interval *iv)
{
    struct rep_json j = {{0}, false};
    (void)ctx;
    rep_json_interval(&j, res, iv);
    cli_json_line(&j);
}

static void cli_json_checkpoint(void *ctx, struct res *res, const struct res_stats *st)
{
    struct rep_json j = {{0}, false};
    (void)ctx;
    rep_json_checkpoint(&j, res, st);
    cli_json_line(&j);
}

static void cli_json_say(void *ctx, int kind, const char *text)
{
    struct rep_json j = {{0}, false};
    (void)ctx;
    if (kind == RES_SAY_STATUS) /* a terminal's status line: not data */
        return;
    rep_json_say(&j, kind, text);
    cli_json_line(&j);
}

static const struct res_sink cli_json_sink = {NULL, cli_json_phase, cli_json_interval,
                                              cli_json_checkpoint, cli_json_say, NULL};

/* cli_json_doc - the result document of a command that ended with exit code ex, to --output
 * or standard output. Returns ex, or B_EXIT_FAIL when the file could not be written. */
static int cli_json_doc(const struct res *res, int ex)
{
    struct os_host h;
    struct buf mem = {0};
    size_t *at = b_xcalloc((size_t)cli_argc + 1, sizeof(size_t));
    const char **av = b_xcalloc((size_t)cli_argc + 1, sizeof(char *));
    for (int i = 0; i < cli_argc; i++) { /* passwords masked (cli_hide_secrets left 'x's) */
        const char *a = cli_argv[i], *p = cli_secret(a);
        at[i] = mem.len;
        if (p && *p)
            buf_printf(&mem, "%.*s***", (int)(p - a), a);
        else
            buf_printf(&mem, "%s", a);
        buf_printf(&mem, "%c", 0);
    }
    for (int i = 0; i < cli_argc; i++)
        av[i] = mem.p + at[i];
    os_host_get(&h);
    struct rep_json_env env = {BENCH_VERSION, cli_argc, av, h.hostname, h.kernel, h.cpus,
                               os_mem_total(), ex};
    struct rep_json j = {{0}, false};
    rep_json_doc(&j, res, &env);
    free(at);
    free(av);
    buf_free(&mem);
    if (!cli_output.doc) {
        cli_json_line(&j);
        return ex;
    }
    errno = 0;
    fputs(j.b.p, cli_output.doc);
    fputc('\n', cli_output.doc);
    buf_free(&j.b);
    int bad = ferror(cli_output.doc) ? (errno ? errno : EIO) : 0;
    if (fclose(cli_output.doc) && !bad)
        bad = errno ? errno : EIO;
    cli_output.doc = NULL;
    if (!bad)
        return ex;
    fprintf(stderr, "%s--output=%s: cannot write the result: %s (%s)\n",
            opts.sb ? "FATAL: " : "bench: ", opts.output, strerror(bad), b_errno_name(bad));
    return ex ? ex : B_EXIT_FAIL;
}

/* The `run` command: the run path with the text sink, then the end in the persona's words;
 * with --format=json the JSON sink, the document, and only the bench persona's error lines
 * (stderr; the sysbench persona's go to stdout). */
static int cli_run(const struct wl_def *w)
{
    struct res res;
    int ex = B_EXIT_OK;
    bool sb = opts.persona == B_SYSBENCH, json = cli_quiet_text();
    bool text = !json;             /* the report and the text on stdout */
    bool msgs;                     /* error and warning lines (b_msg) */

    if ((ex = cli_output_open()) != B_EXIT_OK)
        return ex;
    msgs = cli_json_msgs();
    res_init(&res, w, "run", &opts, json ? &cli_json_sink : &cli_text_sink);
    int rc = wl_run(w, &opts, &res);
    if (rc < 0) {
        if (msgs)
            cli_run_error(w, &res.err, rc);
        if (opts.debug && text)
            printf("DEBUG: %s failed with %s\n", w->name, b_errname(rc));
        if (!res.rc)
            res.rc = rc;
        ex = sb || rc == B_INTR ? B_EXIT_FAIL : B_EXIT_ENV;
        if (json)
            ex = cli_json_doc(&res, ex);
        res_free(&res);
        return ex;
    }
    if (opts.verbosity >= 4 && res.end != RES_END_FORCED && text) {
        for (int k = 1; k < 3; k++)
            if (res.end_why[k]) {
                printf("%s limit exceeded, exiting...\n", k == LOAD_END_TIME ? "Time" : "Event");
                if (res.end_why[k] > 1)
                    printf("(last message repeated %d times)\n", res.end_why[k] - 1);
            }
        printf("Done.\n\n");
    }
    switch (res.end) {
    case RES_END_QUEUE:
        if (msgs) {
            b_msg(B_MSG_FATAL, "The event queue is full. This means the worker threads are "
                               "unable to keep up with the specified event generation rate");
            b_msg(B_MSG_HINT, "lower --rate or add --threads; the results would hide the "
                              "backlog");
        }
        ex = B_EXIT_FAIL;
        break;
    case RES_END_FORCED:
        if (msgs && sb)
            b_msg(B_MSG_FATAL, "The --max-time limit has expired, forcing shutdown...");
        else if (msgs)
            b_msg(B_MSG_FATAL,
                  "run: --time=%lld expired %.1f s ago and %llu thread(s) are still inside an "
                  "event; forcing shutdown (--forced-shutdown=%s), exit %d",
                  (long long)opts.time_s, res.final.total_s - (double)opts.time_s,
                  (unsigned long long)res.final.unfinished, opts.forced_shutdown, B_EXIT_FAIL);
        if (text)
            rep_final(&res, &res.final, true);
        ex = sb ? B_EXIT_FORCED : B_EXIT_FAIL;
        break;
    case RES_END_FAILED:
        if (!sb && text) { /* what was measured until the error, marked as such */
            rep_final(&res, &res.final, true);
            b_msg(B_MSG_WARN, "the statistics above are incomplete: the run stopped on the "
                              "error below");
        }
        if (msgs)
            cli_run_error(w, &res.err, res.rc);
        ex = B_EXIT_FAIL;
        break;
    default:
        if (res.end == RES_END_SIGNAL && res.end_signal != SIGPIPE && !sb && msgs)
            b_msg(B_MSG_WARN, "interrupted; the report covers the run until the signal");
        if (text)
            rep_final(&res, &res.final, true);
        if (res.end == RES_END_SIGNAL)
            ex = B_EXIT_FAIL;
    }
    if (json)
        ex = cli_json_doc(&res, ex);
    res_free(&res);
    return ex;
}

/*
 * cli_err_print - a failure in the persona's words: the bench persona's one line and hint on
 * stderr; the sysbench persona's own text where the workload gave one (e->sb, verbatim, on
 * its stream), else "FATAL: msg". Returns the persona's exit code for it.
 */
/* One message per line of text (a b_err's msg may hold several, '\n'-separated). */
static void cli_msg_lines(int kind, const char *text)
{
    for (const char *p = text; *p;) {
        int n = (int)strcspn(p, "\n");
        b_msg(kind, "%.*s", n, p);
        p += n + (p[n] == '\n');
    }
}

static int cli_err_print(const struct b_err *e)
{
    if (opts.persona == B_SYSBENCH) {
        if (e->sb[0]) {
            FILE *f = e->sb_fd == 2 ? stderr : opts.msg_out ? opts.msg_out : stdout;
            fflush(stdout);
            fputs(e->sb, f);
            fflush(f);
        } else if (e->msg[0])
            cli_msg_lines(B_MSG_FATAL, e->msg);
        return e->sb_ex ? e->sb_ex : e->ex;
    }
    const char *m = e->msg; /* as mysqlslap: "mysqlslap: <what>", not "mysqlslap: slap: " */
    if (opts.persona == B_MYSQLSLAP && !strncmp(m, "slap: ", 6))
        m += 6;
    if (m[0])
        cli_msg_lines(B_MSG_FATAL, m);
    if (e->hint[0])
        b_msg(B_MSG_HINT, "%s", e->hint);
    return e->ex;
}

/* A check hook: B_EXIT_OK, or its failure printed and the persona's exit code. */
static int cli_check(int (*check)(struct bench_opts *o, struct b_err *e))
{
    struct b_err e;
    memset(&e, 0, sizeof(e));
    int ex = check(&opts, &e);
    if (ex == B_EXIT_OK)
        return ex;
    if (e.msg[0] || e.sb[0]) { /* else the hook printed it (being moved here) */
        int pex = cli_err_print(&e);
        if (pex)
            ex = pex;
    }
    return ex;
}

/* --client-index and --client-count for every test and command (the header, the seeds and the
 * JSON facts read them whatever the workload): both or neither, count >= 1, 0 <= index < count.
 * The OLTP check adds its shared --rand-seed. A usage error naming the option. */
static int cli_client_check(struct bench_opts *o, struct b_err *e)
{
    i64 i = o->client_index, n = o->client_count;
    if (i < 0 && n < 0)
        return B_EXIT_OK;
    if (n < 0)
        return b_fail(e, B_EXIT_USAGE, "--client-index=%lld without --client-count: say how "
                      "many clients act as one run", (long long)i);
    if (n < 1)
        return b_fail(e, B_EXIT_USAGE, "--client-count=%lld: must be at least 1", (long long)n);
    if (i < 0)
        return b_fail(e, B_EXIT_USAGE, "--client-count=%lld without --client-index: say which "
                      "client (0 to %lld) this is", (long long)n, (long long)(n - 1));
    if (i >= n)
        return b_fail(e, B_EXIT_USAGE, "--client-index=%lld: must be below --client-count=%lld "
                      "(clients are numbered 0 to %lld)", (long long)i, (long long)n,
                      (long long)(n - 1));
    return B_EXIT_OK;
}

/* slap's result in mysqlslap's words (rep_slap), before the failure's message if any. */
static int cli_slap_render(const struct res *res, int ex)
{
    struct b_err e;
    memset(&e, 0, sizeof(e));
    if (rep_slap(res, &e) != B_OK && ex == B_EXIT_OK)
        ex = cli_err_print(&e);
    return ex;
}

/* A command (prepare, cleanup, prewarm, ping, the one-liner) with the text sink: progress
 * lines as they come; the failure, if any, in the persona's words. */
static int cli_command(const struct wl_def *w, const char *cmd, int (*fn)(struct res *res))
{
    struct res res;
    bool json = cli_quiet_text();
    int ex = cli_output_open();
    if (ex != B_EXIT_OK)
        return ex;
    res_init(&res, w, cmd, &opts, json ? &cli_json_sink : &cli_text_sink);
    ex = fn(&res);
    if (!json) {
        rep_render_fn render = rep_command_renderer(&res);
        if (render && (ex == B_EXIT_OK || res.have_final || res.nfacts))
            render(&res);
        rep_warnings(&res); /* what the command left undone or alone (fileio's cleanup) */
        if (res.nsteps && res.w && res.w->command == sizing_main) /* the one-liner's ladder */
            rep_sizing(&res);
        if (fn == slap_main) /* mysqlslap's blocks, CSV, -T */
            ex = cli_slap_render(&res, ex);
    }
    if (fn == all_main && opts.all_html && *opts.all_html && res.nfacts) { /* bench all --html */
        int bad = rep_all_html(&res, opts.all_html);
        if (bad) {
            b_msg(B_MSG_FATAL, "all: --html=%s: cannot write the report: %s (%s)", opts.all_html,
                  strerror(bad), b_errno_name(bad));
            ex = B_EXIT_ENV;
        }
    }
    if (ex != B_EXIT_OK && (res.err.msg[0] || res.err.sb[0])) {
        int pex = cli_json_msgs() ? cli_err_print(&res.err) : res.err.sb_ex ? res.err.sb_ex
                                                                            : res.err.ex;
        if (pex)
            ex = pex;
    }
    if (json) {
        if (ex != B_EXIT_OK && !res.rc && !res.err.msg[0] && !res.err.sb[0])
            res.rc = B_INVALID; /* a failure the hook printed itself */
        ex = cli_json_doc(&res, ex);
    }
    res_free(&res);
    return ex;
}

/* Release what the option tables own (strings), for leak-free tests and sanitizer runs. */
static void cli_free_opts(void)
{
    for (size_t g = 0; g < countof(opt_groups); g++)
        opt_free_strings(opt_groups[g].t, opt_groups[g].n, &opts);
    for (size_t i = 0; i < countof(wl_all); i++)
        opt_free_strings(wl_all[i].opts, wl_all[i].nopts, &opts);
    if (opts.msg_out) {
        fclose(opts.msg_out);
        opts.msg_out = NULL;
    }
}

/* For database tests (bench persona): MYSQL_PWD, then the client's groups of ~/.my.cnf or
 * --defaults-file, go before the command-line options, which therefore win. */
static int cli_db_defaults(struct cli *c)
{
    const char *file = NULL;
    bool none = false;
    for (int i = 0; i < c->nargs; i++) {
        if (!strcmp(c->args[i], "--no-defaults") || !strcmp(c->args[i], "--no_defaults") ||
            !strcmp(c->args[i], "--no-defaults=on"))
            none = true;
        if (!strncmp(c->args[i], "--defaults-file=", 16) ||
            !strncmp(c->args[i], "--defaults_file=", 16))
            file = c->args[i] + 16;
    }
    if (none)
        return B_EXIT_OK;
    struct cli_cnf k;
    memset(&k, 0, sizeof(k));
    k.c = c;
    const char *pwd = getenv("MYSQL_PWD");
    if (pwd) {
        struct buf a = {0};
        buf_printf(&a, "--mysql-password=%s", pwd);
        cli_add(c, k.at++, cli_own(c, a.p), "MYSQL_PWD");
    }
    if (file)
        return cli_cnf_file(&k, file, true, NULL);
    struct buf home = {0};
    const char *h = getenv("HOME");
    buf_printf(&home, "%s/.my.cnf", h && *h ? h : "/");
    int ex = cli_cnf_file(&k, cli_own(c, home.p), false, NULL);
    return ex;
}

/*
 * Started with fd 0, 1 or 2 closed (`>&-`), the first file bench opens would become that
 * descriptor and receive the report (a test file, a MySQL socket). Before anything is
 * opened, /dev/null fills every closed one of them; writes to it then succeed unseen.
 */
static void cli_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
            continue;
        int n = open("/dev/null", fd ? O_WRONLY : O_RDONLY);
        if (n >= 0 && n != fd) { /* cannot happen: lower ones are open; be sure anyway */
            dup2(n, fd);
            close(n);
        }
        if (n < 0)
            _exit(B_EXIT_ENV); /* no /dev/null: nowhere safe to write even a message */
    }
}

/* ---- parse: argv, mysql-style arguments and option files into struct cli ---- */

/* A mysqlslap command line that slap_args or cli_mysql_args refused: kind -1 an option
 * with no value, -2 a third positional, 0 an unknown option; in mariadb-slap's words and
 * codes as the mysqlslap persona, else bench's usage error. */
static int cli_slap_args_error(const char *bad, int kind)
{
    if (opts.persona == B_MYSQLSLAP) {
        if (kind == -2) {
            b_msg(B_MSG_FATAL, "Too many arguments");
            return cli_slap_code(B_EXIT_FAIL);
        }
        b_msg(B_MSG_FATAL, kind == -1 ? "option '%s' requires an argument" : "unknown option '%s'",
              bad);
        return cli_slap_code(kind == -1 ? 5 : 2);
    }
    b_msg(B_MSG_FATAL, "slap: %s: needs a value", bad);
    b_msg(B_MSG_HINT, "see 'bench slap help' for what it takes");
    return B_EXIT_USAGE;
}

/* `bench compare A.json B.json ...`: the words after "compare" are its reports (opts.cmp_files),
 * except a lone "help" (the test's help). The sysbench persona has no compare. */
static bool cli_compare_file(struct cli *c, const char *a)
{
    if (cli_sb() || c->npos != 1 || strcmp(c->pos[0], "compare") ||
        (!opts.cmp_nfiles && !strcmp(a, "help")))
        return false;
    if (opts.cmp_nfiles < (int)countof(opts.cmp_files))
        opts.cmp_files[opts.cmp_nfiles++] = a;
    return true;
}

static int cli_parse(struct cli *c, int argc, char **argv)
{
    const char *bad;
    int ex;

    /* mysql client conventions (-h -P -u -p -S -D, --host= ...) become --mysql-* options;
     * mysqlslap's command line (bench slap, or argv0 mysqlslap) becomes bench's first */
    char **sv;
    const char *sbad;
    int sc = slap_args(argc, argv, opts.persona == B_MYSQLSLAP, &sv, &sbad);
    if (sc < 0) {
        ex = cli_slap_args_error(sbad, sc);
        for (int i = 1; sv && sv[i]; i++)
            free(sv[i]);
        free(sv);
        cli_hide_secrets(argc, argv);
        return ex;
    }
    for (int i = 1; i < sc; i++)
        cli_own(c, sv[i]);
    c->av = b_xcalloc((size_t)(sv ? sc : argc) + 1, sizeof(char *));
    int nav = cli_mysql_args((sv ? sc : argc) - 1, (sv ? sv : argv) + 1, c->av, &c->argmem,
                             &opts.password_prompt, &bad);
    free(sv);
    cli_hide_secrets(argc, argv);
    if (nav < 0) {
        if (opts.persona == B_MYSQLSLAP)
            return cli_slap_args_error(bad, strchr("hPuSD", bad[1]) || bad[1] == '-' ? -1 : 0);
        if (cli_sb())
            fprintf(stderr, "invalid option: %s\n", bad);
        else {
            b_msg(B_MSG_FATAL, "unknown option '%s' (bench takes --name=value options, and the "
                               "mysql client's -h -P -u -p -S -D with a value)",
                  bad);
            b_msg(B_MSG_HINT, "see 'bench --help'");
        }
        return b_usage_exit();
    }
    for (int i = 0; i < nav; i++) {
        const char *a = c->av[i];
        if (!strncmp(a, "--", 2) && a[2]) {
            if (!strncmp(a, "--config-file=", 14) || !strncmp(a, "--config_file=", 14)) {
                if ((ex = cli_read_config(c, a + 14)) != B_EXIT_OK)
                    return ex;
                continue;
            }
            if (!cli_sb() && (!strcmp(a, "--mysql-password") || !strcmp(a, "--mysql_password")) &&
                i + 1 < nav && c->av[i + 1][0] != '-') {
                /* "--mysql-password SECRET": the next word would be echoed as a test or
                 * command by the messages below */
                b_msg(B_MSG_FATAL, "%s: no value attached; the argument after it is not "
                                   "shown (it may be the password)",
                      a);
                b_msg(B_MSG_HINT, "write --mysql-password=SECRET, or -p to be asked for it");
                return B_EXIT_USAGE;
            }
            if (!strncmp(a, "--test=", 7)) {
                fprintf(stderr, "WARNING: the --test option is deprecated. You can pass a "
                                "script name or path on the command line without any "
                                "options.\n");
            }
            cli_add(c, c->nargs, a, NULL);
        } else if (cli_compare_file(c, a)) {
            continue;
        } else {
            c->opnd = cli_grow(c->opnd, (size_t)c->nopnd + 1, sizeof(*c->opnd));
            c->opnd[c->nopnd++] = a;
            if (c->npos < 3)
                c->pos[c->npos++] = a;
        }
    }
    return B_EXIT_OK;
}

/* ---- resolve: the test, the command word, option values, the 0.4 mappings, the password ---- */

/* --test=oltp (sysbench 0.4): the 1.0 workload its modes name, on its one table. */
static int cli_legacy_oltp(struct cli *c)
{
    const char *to = oltp_legacy_map(&opts);
    if (!to) {
        b_msg(B_MSG_FATAL, "--test=oltp: unknown --oltp-test-mode=%s / --oltp-nontrx-mode=%s",
              opts.oltp_test_mode, opts.oltp_nontrx_mode);
        b_msg(B_MSG_HINT, "0.4's modes are simple, complex and nontrx (select, update_key, "
                          "update_nokey, insert, delete)");
        return b_usage_exit();
    }
    c->w = wl_find(to); /* the table is --oltp-table-name (0.4: one, unnumbered) */
    opts.oltp_tables = 1;
    if (!*opts.oltp_legacy_table) {
        free(opts.oltp_legacy_table);
        opts.oltp_legacy_table = b_xstrdup("sbtest");
    }
    if (!cli_sb())
        b_msg(B_MSG_WARN, "--test=oltp (sysbench 0.4) runs as %s on table '%s'", to,
              opts.oltp_legacy_table);
    return B_EXIT_OK;
}

/* -p without a value: the password from the terminal. */
static int cli_ask_password(void)
{
    char pw[256];
    int prc = cli_prompt_password(pw, sizeof(pw));
    if (prc < 0) {
        mbedtls_platform_zeroize(pw, sizeof(pw));
        if (prc == B_INTR)
            b_msg(B_MSG_FATAL, "-p: asking for the password: interrupted by %s",
                  os_stop_signame());
        else if (prc == B_TRUNCATED)
            b_msg(B_MSG_FATAL, "-p: the password typed is longer than %zu bytes",
                  sizeof(pw) - 1);
        else
            b_msg(B_MSG_FATAL, "-p: cannot ask for the password: no terminal");
        if (prc != B_INTR)
            b_msg(B_MSG_HINT, "give it as -pSECRET, --mysql-password=SECRET or in MYSQL_PWD");
        return prc == B_INTR ? B_EXIT_FAIL : b_usage_exit();
    }
    free(opts.mysql_password);
    opts.mysql_password = b_xstrdup(pw);
    mbedtls_platform_zeroize(pw, sizeof(pw));
    return B_EXIT_OK;
}

/*
 * cli_resolve - the test and the command word (--test=NAME supplies the test: the positional
 * is then the command), option values (option files of the mysql client first, for database
 * tests), the 0.4 mappings and the password. A failure sysbench reports after its banner is
 * kept in c->late_ex, for cli_dispatch.
 */
static int cli_resolve(struct cli *c)
{
    bool late;
    int ex;

    for (int i = 0; i < c->nargs; i++)
        if (!strncmp(c->args[i], "--test=", 7))
            c->test = c->args[i] + 7;
    int first_cmd = c->test ? 0 : 1;
    if (!c->test && c->npos > 0)
        c->test = c->pos[0];
    const struct wl_def *fw = c->test && c->test == c->pos[0] ? wl_find(c->test) : NULL;
    if (fw && fw->files) { /* bench merge A.json B.json ...: operands, not a command word */
        bool help = c->nopnd == 2 && !strcmp(c->opnd[1], "help");
        opts.files = help ? NULL : c->opnd + 1;
        opts.nfiles = help ? 0 : c->nopnd - 1;
        c->npos = help ? 2 : 1;
    }
    if (c->npos > first_cmd)
        c->cmd = c->pos[first_cmd];
    if (c->npos > first_cmd + 1) {
        if (cli_sb())
            fprintf(stderr, "Unrecognized command line argument: %s\n", c->pos[first_cmd + 1]);
        else {
            b_msg(B_MSG_FATAL, "unexpected argument '%s' (the syntax is: bench [options]... "
                               "[testname] [command])",
                  c->pos[first_cmd + 1]);
            b_msg(B_MSG_HINT, "options take the form --name=value, with no space");
        }
        return b_usage_exit();
    }
    if (c->test)
        c->w = wl_find(c->test);
    /* --test=oltp: sysbench 0.4's OLTP test */
    bool legacy_oltp = c->test && c->test != c->pos[0] && !strcmp(c->test, "oltp");
    if (legacy_oltp)
        c->w = wl_find("oltp-0.4");
    if (c->w && c->w->db && !cli_sb() && (ex = cli_db_defaults(c)) != B_EXIT_OK)
        return ex;

    ex = cli_apply(c, &late);
    if (ex == B_EXIT_OK)
        ex = cli_derive(c);
    if (ex != B_EXIT_OK && (!late || !cli_sb()))
        return ex;
    c->late_ex = ex;
    if (ex == B_EXIT_OK && opts.debug && !cli_sb()) /* where each option of a file came from */
        for (int i = 0; i < c->nargs; i++)
            if (c->from[i]) {
                struct buf e = {0};
                const char *a = c->args[i];
                size_t n = cli_secret(a) ? (size_t)(cli_secret(a) - a) : strlen(a);
                printf("DEBUG: %s: %s%s\n", c->from[i], cli_esc(&e, a, n),
                       n < strlen(a) ? "(hidden)" : "");
                buf_free(&e);
            }
    if (ex == B_EXIT_OK && legacy_oltp && (ex = cli_legacy_oltp(c)) != B_EXIT_OK)
        return ex;
    os_install_signals(); /* SIGINT/SIGTERM end runs cleanly: reports print, schemas drop */
    if (ex == B_EXIT_OK && opts.password_prompt)
        return cli_ask_password();
    return B_EXIT_OK;
}

/* ---- dispatch: the command table ---- */

enum cli_word {
    CLI_W_NONE,     /* no test: asked by an option (--help, --version) */
    CLI_W_NEEDED,   /* the word after the test: run, prepare, cleanup, prewarm, help */
    CLI_W_OPTIONAL, /* a test's command of its own (ping, oltp): "run" or no word */
};
enum cli_hook { CLI_H_NONE, CLI_H_RUN, CLI_H_PREPARE, CLI_H_CLEANUP, CLI_H_PREWARM, CLI_H_OWN };
enum cli_chk { CLI_CHK_NONE, CLI_CHK_RUN, CLI_CHK_COMMON };

/* One command: a new command is a row (and its handler if none of these fits). */
struct cli_cmd {
    const char *name;  /* the command word; for CLI_W_NONE the option's name */
    int word;          /* enum cli_word: how it is asked for */
    int hook;          /* enum cli_hook: what of the test it runs (the test must have it) */
    int check;         /* enum cli_chk: the test's check hook that runs first */
    bool banner;       /* the persona's banner before its output */
    int (*fn)(struct cli *c, const struct cli_cmd *k);
};

/* The test's hook a row runs; NULL if the test has none. */
static int (*cli_hook_of(const struct wl_def *w, int hook))(struct res *res)
{
    switch (hook) {
    case CLI_H_PREPARE:
        return w->prepare;
    case CLI_H_CLEANUP:
        return w->cleanup;
    case CLI_H_PREWARM:
        return w->prewarm;
    case CLI_H_OWN:
        return w->command;
    }
    return NULL;
}

/* The test's check hook a row runs first; NULL if none. */
static int (*cli_check_of(const struct wl_def *w, int chk))(struct bench_opts *o, struct b_err *e)
{
    return chk == CLI_CHK_RUN ? w->check : chk == CLI_CHK_COMMON ? w->check_common : NULL;
}

/* --event-loops on a test that has no event loop (cpu, fileio, slap, ...): a usage error,
 * not an option silently ignored. The OLTP tests run on loops; all and the one-liner pass it
 * to their OLTP runs. */
static int cli_event_loops_check(const struct wl_def *w)
{
    if (opts.event_loops <= 0 || w->ev_start || w->command == all_main ||
        w->command == sizing_main)
        return B_EXIT_OK;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    b_fail(&e, B_EXIT_USAGE, "%s: --event-loops does not apply: the test has no event loop "
           "(only the OLTP tests run their connections on event loops)", w->name);
    int ex = cli_err_print(&e);
    return ex ? ex : B_EXIT_USAGE;
}

/* --help / --version with --format=json: rep_json_about's object instead of the text. */
static int cli_about_json(bool help)
{
    char line[256];
    snprintf(line, sizeof(line), "%s%s", opts.persona == B_MYSQLSLAP ? cli_prog : "",
             cli_persona()->version);
    line[strcspn(line, "\n")] = 0;
    int e = rep_json_about(help, opts.persona == B_MYSQLSLAP ? cli_prog : cli_persona()->name,
                           line);
    if (e)
        cli_out_failed(e);
    return B_EXIT_OK;
}

static int cli_do_help(struct cli *c, const struct cli_cmd *k)
{
    (void)c, (void)k;
    if (cli_quiet_text())
        return cli_about_json(true);
    cli_print_help();
    return B_EXIT_OK;
}

static int cli_do_version(struct cli *c, const struct cli_cmd *k)
{
    (void)c, (void)k;
    if (cli_quiet_text())
        return cli_about_json(false);
    cli_print_version();
    return B_EXIT_OK;
}

static int cli_do_test_help(struct cli *c, const struct cli_cmd *k)
{
    (void)k;
    printf("%s options:\n", c->w->name);
    rep_opt_help(c->w->opts, c->w->nopts, cli_persona()->help == CLI_HELP_SYSBENCH);
    printf("\n");
    return B_EXIT_OK;
}

static int cli_do_run(struct cli *c, const struct cli_cmd *k)
{
    (void)k;
    rnd_libc_srandom(opts.rand_seed ? rnd_client_seed((u64)opts.rand_seed, opts.client_index)
                                    : (unsigned)time(NULL));
    return cli_run(c->w);
}

static int cli_do_hook(struct cli *c, const struct cli_cmd *k)
{
    return cli_command(c->w, k->name, cli_hook_of(c->w, k->hook));
}

static const struct cli_cmd cli_cmds[] = {
    {"help", CLI_W_NONE, CLI_H_NONE, CLI_CHK_NONE, false, cli_do_help},
    {"version", CLI_W_NONE, CLI_H_NONE, CLI_CHK_NONE, false, cli_do_version},
    {"help", CLI_W_NEEDED, CLI_H_NONE, CLI_CHK_NONE, true, cli_do_test_help},
    {"run", CLI_W_NEEDED, CLI_H_RUN, CLI_CHK_RUN, true, cli_do_run},
    {"prepare", CLI_W_NEEDED, CLI_H_PREPARE, CLI_CHK_COMMON, true, cli_do_hook},
    {"cleanup", CLI_W_NEEDED, CLI_H_CLEANUP, CLI_CHK_COMMON, true, cli_do_hook},
    {"prewarm", CLI_W_NEEDED, CLI_H_PREWARM, CLI_CHK_NONE, true, cli_do_hook},
    {"run", CLI_W_OPTIONAL, CLI_H_OWN, CLI_CHK_NONE, false, cli_do_hook},
};

/* Can row k serve test w (NULL: no test)? A test with a command of its own has only that and
 * help; the others have run, help and the hooks they define. */
static bool cli_cmd_fits(const struct cli_cmd *k, const struct wl_def *w)
{
    if (k->word == CLI_W_NONE || !w)
        return k->word == CLI_W_NONE && !w;
    if (k->hook == CLI_H_NONE)
        return true;
    if (k->hook == CLI_H_RUN)
        return !w->command;
    return (k->hook == CLI_H_OWN) == (w->command != NULL) && cli_hook_of(w, k->hook);
}

/* cli_cmd_find - the row for command word `word` (NULL: none given) of test w (NULL: the
 * commands without a test, by name); NULL when the test has no such command. */
static const struct cli_cmd *cli_cmd_find(const struct wl_def *w, const char *word)
{
    for (size_t i = 0; i < countof(cli_cmds); i++) {
        const struct cli_cmd *k = &cli_cmds[i];
        if (cli_cmd_fits(k, w) && (word ? !strcmp(k->name, word) : k->word == CLI_W_OPTIONAL))
            return k;
    }
    return NULL;
}

/* No row for the command word of test c->w: the persona's usage error. */
static int cli_cmd_unknown(const struct cli *c)
{
    const char *cmd = c->cmd, *name = c->w->name;
    if (!cmd) {
        if (cli_sb())
            fprintf(stderr, "The '%s' test requires a command argument. See 'sysbench %s help'\n",
                    name, name);
        else {
            b_msg(B_MSG_FATAL, "the '%s' test needs a command: run or help", name);
            b_msg(B_MSG_HINT, "try 'bench %s run'", name);
        }
    } else if (c->w->command)
        b_msg(B_MSG_FATAL, "unknown command '%s' for '%s'", cmd, name);
    else if (!strcmp(cmd, "prepare") || !strcmp(cmd, "cleanup")) {
        if (cli_sb())
            fprintf(stderr, "'%s' test does not implement the '%s' command.\n", name, cmd);
        else {
            b_msg(B_MSG_FATAL, "the '%s' test does not implement the '%s' command (it needs no "
                               "files or tables)",
                  name, cmd);
            b_msg(B_MSG_HINT, "try 'bench %s run'", name);
        }
    } else if (cli_sb())
        fprintf(stderr, "Unknown command: %s\n", cmd);
    else {
        b_msg(B_MSG_FATAL, "unknown command '%s' for the '%s' test", cmd, name);
        b_msg(B_MSG_HINT, "the commands are prepare, run, cleanup and help");
    }
    return b_usage_exit();
}

/* The bench persona checks the test name before it prints anything. */
static int cli_unknown_test(const char *test)
{
    const char *best = NULL;
    size_t bd = SIZE_MAX;
    for (size_t i = 0; i < countof(wl_all); i++) {
        size_t d = opt_edit_distance(test, strlen(test), wl_all[i].name, strlen(wl_all[i].name));
        if (d < bd)
            bd = d, best = wl_all[i].name;
    }
    if (bd <= 2)
        b_msg(B_MSG_FATAL, "unknown test '%s' (did you mean '%s'?)", test, best);
    else
        b_msg(B_MSG_FATAL, "unknown test '%s': no such built-in test", test);
    b_msg(B_MSG_HINT, "the tests are listed by 'bench --help'");
    return B_EXIT_USAGE;
}

/*
 * cli_dispatch - pick the command's row and run it: --help, --version and `bench` alone
 * first; then, with the output muted below --verbosity=3 and the sysbench persona's banner
 * out (its late failures follow it), the test's command: its check, the banner, the handler.
 */
static int cli_dispatch(struct cli *c)
{
    const struct cli_cmd *k;
    int ex;
    cli_output.w = c->w;

    if (c->late_ex == B_EXIT_OK) {
        k = opts.help ? cli_cmd_find(NULL, "help") : opts.version ? cli_cmd_find(NULL, "version")
                                                                  : NULL;
        if (!k && !cli_sb() && c->test && !c->w)
            return cli_unknown_test(c->test);
        if (!k && !c->test)
            k = cli_cmd_find(NULL, "help");
        if (k)
            return k->fn(c, k);
    }
    if (opts.verbosity < 3) {
        /* sysbench prints everything but warnings and errors at NOTICE level (3): keep a
         * stream for messages and send the rest of stdout to /dev/null */
        int fd = dup(1);
        opts.msg_out = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (opts.msg_out && !freopen("/dev/null", "w", stdout))
            b_die("cannot reopen stdout on /dev/null: %s", strerror(errno));
    }
    if (cli_sb()) /* the bench persona prints its banner only once all checks passed */
        cli_banner(c);
    if (c->late_ex != B_EXIT_OK) /* a sysbench error that comes after its banner */
        return c->late_ex;
    if (!c->w) {
        printf("FATAL: Cannot find benchmark '%s': no such built-in test, file or module\n",
               c->test);
        return B_EXIT_FAIL;
    }
    if (!(k = cli_cmd_find(c->w, c->cmd)))
        return cli_cmd_unknown(c);
    if ((ex = cli_event_loops_check(c->w)) != B_EXIT_OK)
        return ex;
    int (*check)(struct bench_opts *o, struct b_err *e) = cli_check_of(c->w, k->check);
    if (k->hook != CLI_H_NONE && (ex = cli_check(cli_client_check)) != B_EXIT_OK)
        return ex;
    if (check && (ex = cli_check(check)) != B_EXIT_OK)
        return ex;
    if (k->banner)
        cli_banner(c);
    return k->fn(c, k);
}

/* cli_main - parse, resolve, dispatch; one way out, which frees struct cli. */
static int cli_main(int argc, char **argv)
{
    struct cli c;
    int ex;

    memset(&c, 0, sizeof(c));
    memset(&opts, 0, sizeof(opts));
    cli_slap_ex = 0;
    cli_persona_set(cli_persona_for(argv[0]));
    cli_prog_set(argv[0]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t g = 0; g < countof(opt_groups); g++)
        opt_defaults(opt_groups[g].t, opt_groups[g].n, &opts);
    for (size_t i = 0; i < countof(wl_all); i++)
        opt_defaults(wl_all[i].opts, wl_all[i].nopts, &opts);

    if ((ex = cli_parse(&c, argc, argv)) == B_EXIT_OK && (ex = cli_resolve(&c)) == B_EXIT_OK)
        ex = cli_dispatch(&c);
    cli_free(&c);
    if (opts.persona == B_MYSQLSLAP) /* mariadb-slap's codes: my_getopt's, else 0 or 1 */
        ex = cli_slap_ex ? cli_slap_ex : ex == B_EXIT_USAGE || ex == B_EXIT_ENV ? B_EXIT_FAIL : ex;
    return ex;
}

/* bench_main - the whole program; main() only calls it (tests include bench.c). */
static int bench_main(int argc, char **argv)
{
    cli_std_fds();
    cli_argc = argc;
    cli_argv = argv;
    int ex = cli_out_check(cli_main(argc, argv));
    if (wl_reap(0) == 0) /* else workers stuck in an event may still read the options */
        cli_free_opts();
    return ex;
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
    return bench_main(argc, argv);
}
#endif
