#define _GNU_SOURCE
/*
 * bench - size and accept a database server from one static binary.
 *
 * Build:  make            (static musl + mbedTLS release binary ./bench)
 *         cc -O2 -o bench bench.c -lpthread -lm     (quick dynamic build, no TLS)
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
 *   9  cpu_, mem_   CPU and memory workloads
 *   10 thr_    threads and mutex workloads
 *   11 load_   worker threads, limits, --rate, intervals and checkpoints
 *   12 uring_, io_  io_uring by raw syscalls; the fileio workload
 *   13 wl_     workload registry
 *   14 rep_    reports (sysbench layout)
 *   15 cli_    command line, dispatch, bench_main(), main()
 *
 * Limitations: Linux only (x86_64 tested). No Lua: sysbench scripts are mapped by name to
 * built-in workloads. Percentiles are exact to within 0.4% (log-linear histogram), not
 * quantised to sysbench's 1.8% buckets.
 */

/*== 1 — : includes, version, build switches ================================*/

#include "bench.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <linux/io_uring.h>
#include <time.h>
#include <unistd.h>

#ifdef BENCH_HAVE_MBEDTLS
#include <mbedtls/version.h>
#endif

#ifndef BENCH_VERSION
#define BENCH_VERSION "unknown"
#endif
#define BENCH_SB_VERSION "1.0.20" /* the sysbench release whose CLI and output we follow */

/* The two mutable globals (STYLE 2.4): options, written once by cli_, and the stop flag,
 * set by SIGINT/SIGTERM. b_stop is a lock-free atomic rather than a volatile sig_atomic_t
 * because worker threads read it too. */
static struct bench_opts opts;
static _Atomic int b_stop;

/*== 2 b_ : basics, error codes, messages, allocation =======================*/
/*
 * Error codes come from the B_ERRORS X-macro in bench.h. Messages for people are printed
 * only by cli_ and rep_, through b_msg(): "bench: <what>: <cause>" on stderr in the bench
 * persona, sysbench's "FATAL: ..." on stdout in the sysbench persona.
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

/* Message kinds: how the two personas print them. */
enum b_msg_kind { B_MSG_FATAL, B_MSG_WARN, B_MSG_HINT, B_MSG_NOTE };

/*
 * b_msg - print one message line; the helper adds prefix and newline (the format must not
 * contain '\n'). bench persona: "bench: <text>" / "bench: warning: " / "bench: hint: " on
 * stderr. sysbench persona: "FATAL: " / "WARNING: " on stdout, as sysbench's logger does.
 */
static void b_msg(int kind, const char *fmt, ...) B_PRINTF(2, 3);
static void b_msg(int kind, const char *fmt, ...)
{
    va_list ap;
    FILE *f = opts.sb ? (opts.msg_out ? opts.msg_out : stdout) : stderr;
    if (opts.sb && kind == B_MSG_HINT)
        return; /* sysbench prints no hints; keep its output byte-compatible */
    if (kind == B_MSG_WARN && opts.verbosity < 2 && opts.msg_out)
        return;
    fflush(stdout);
    if (opts.sb)
        fputs(kind == B_MSG_FATAL ? "FATAL: " : kind == B_MSG_WARN ? "WARNING: " : "", f);
    else
        fputs(kind == B_MSG_WARN ? "bench: warning: " : kind == B_MSG_HINT ? "bench: hint: "
                                                                            : "bench: ",
              f);
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fflush(f);
}

/*== 3 buf_ : growable byte buffer ==========================================*/

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
        size_t need = b->len + (size_t)n + 1, cap = b->cap ? b->cap : 64;
        while (cap < need)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            b_die("out of memory growing a buffer to %zu bytes", cap);
        b->p = p;
        b->cap = cap;
    }
}

BENCH_API void buf_free(struct buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

/*== 4 clk_, hist_ : monotonic clock, log-linear latency histogram ==========*/
/*
 * The clock is CLOCK_MONOTONIC through the vDSO (musl uses it in static binaries too).
 * The histogram is HdrHistogram's layout with 2 significant digits: values below 256 ns
 * are counted exactly; above, each power of two [2^e, 2^(e+1)) is cut into 128 equal
 * buckets. A bucket's midpoint is within 1/256 (0.4%) of every value in it. It is
 * mergeable (add the counters), so thread, interval and host results combine exactly.
 * 4352 buckets x 8 bytes = 34 KiB per histogram.
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

/* nanoseconds to milliseconds, for reports */
static double rep_ms(u64 ns)
{
    return (double)ns / 1e6;
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

/*== 5 unit_ : sizes ========================================================*/

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

B_UNUSED /* until fileio (issue 3) */
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

/*== 6 rnd_ : xoroshiro128+ and sysbench 1.0.20's distributions =============*/
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

BENCH_API void rnd_seed(struct rnd *r)
{
    for (int i = 0; i < 2; i++) {
        u64 hi = (u64)random(), lo = (u64)random();
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

BENCH_API u32 rnd_uniform(struct rnd *r, u32 a, u32 b)
{
    return a + (u32)(rnd_double(r) * (double)((u64)b - a + 1));
}

static u32 rnd_gaussian(struct rnd *r, int iter, u32 a, u32 b)
{
    double sum = 0, t = (double)((u64)b - a + 1);
    for (int i = 0; i < iter; i++)
        sum += rnd_double(r) * t;
    return a + (u32)(sum / iter);
}

static u32 rnd_special(struct rnd *r, const struct rnd_params *p, u32 a, u32 b)
{
    double t = (double)(b - a), u = rnd_double(r), sum = 0;
    double d = t * p->spec_pct / 100.0;
    if (u * t * 100.0 / (100.0 - p->spec_res) < t) {
        for (int i = 0; i < p->spec_iter; i++)
            sum += rnd_double(r);
        return a + (u32)(t * sum / p->spec_iter);
    }
    return a + (u32)(u * (d + 1) + t / 2.0 - t * p->spec_pct / 200.0);
}

static u32 rnd_pareto(struct rnd *r, const struct rnd_params *p, u32 a, u32 b)
{
    return a + (u32)((double)((u64)b - a + 1) * pow(rnd_double(r), p->pareto_p));
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

B_UNUSED /* until the OLTP workloads (issue 5) */
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

/*== 7 opt_ : option tables, parser, help printer ===========================*/
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
        int idx = opt_choice(d->choices, val, o->sb);
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

BENCH_API void opt_print_help(FILE *f, const struct opt_def *t, size_t n, bool sb)
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
        opt_describe(&desc, &t[i], sb);
        fprintf(f, "  %-*s %s", (int)w + 2, name.p, desc.p);
        if (!(t[i].flags & OPT_F_NODEF))
            fprintf(f, " [%s]", t[i].def);
        fputc('\n', f);
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

/*== 8 os_ : threads, signals, host facts ===================================*/
/*
 * Thin wrappers over POSIX. Threads are created with an explicit stack size: musl's default
 * is about 128 KiB where glibc's is 8 MiB, so --thread-stack-size (sysbench's, default 64K)
 * is honoured, with a floor large enough for our workers.
 */

static void os_on_signal(int sig)
{
    (void)sig;
    atomic_store(&b_stop, 1);
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

/* os_thread_start - pthread_create with an explicit stack size. Returns 0 or an errno. */
static int os_thread_start(pthread_t *tid, size_t stack_bytes, void *(*fn)(void *), void *arg)
{
    pthread_attr_t a;
    int rc;
    if ((rc = pthread_attr_init(&a)))
        return rc;
    if (stack_bytes < 65536)
        stack_bytes = 65536; /* room for our own frames and libc's printf in reports */
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

/*== 9 cpu_, mem_ : CPU and memory workloads ================================*/
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

static void cpu_print_mode(const struct bench_opts *o)
{
    if (o->verbosity >= 4)
        printf("Doing CPU performance benchmark\n\n");
    printf("Prime numbers limit: %lld\n\n", (long long)o->cpu_max_prime);
}

static const struct opt_def opt_memory[] = {
    OPT("memory-block-size", SIZE, memory_block_size, "1K", 0, 1ull << 40, NULL,
        "size of memory block for test", "Invalid value for memory-block-size: %s",
        OPT_F_SBLATE),
    OPT("memory-total-size", SIZE, memory_total_size, "100G", 0, 1e19, NULL,
        "total size of data to transfer", NULL, 0),
    OPT("memory-scope", ENUM, memory_scope, "global", 0, 0, "global,local",
        "memory access scope %C", NULL, OPT_F_SBLATE),
    OPT("memory-hugetlb", BOOL, memory_hugetlb, "off", 0, 0, NULL,
        "allocate memory from HugeTLB pool", NULL, 0),
    OPT("memory-oper", ENUM, memory_oper, "write", 0, 0, "read,write,none",
        "type of memory operations {read, write, none}", NULL, OPT_F_SBLATE),
    OPT("memory-access-mode", ENUM, memory_access_mode, "seq", 0, 0, "seq,rnd",
        "memory access mode %C", NULL, OPT_F_SBLATE),
};

enum { MEM_GLOBAL, MEM_LOCAL };
enum { MEM_READ, MEM_WRITE, MEM_NONE };
enum { MEM_SEQ, MEM_RND };

struct mem_block {
    size_t *p;   /* the block, page-aligned */
    size_t len;  /* bytes */
    int shmid;   /* SysV segment for --memory-hugetlb, else -1 */
};

static int mem_check(struct bench_opts *o)
{
    u64 bs = o->memory_block_size;
    if (bs < sizeof(size_t) || (bs & (bs - 1))) {
        if (o->sb) {
            printf("FATAL: Invalid value for memory-block-size: %llu\n", (unsigned long long)bs);
        } else {
            b_msg(B_MSG_FATAL,
                  "memory: --memory-block-size=%llu: not a power of two of at least %zu bytes",
                  (unsigned long long)bs, sizeof(size_t));
            b_msg(B_MSG_HINT, "use a size such as 1K, 4K, 1M or 64M");
        }
        return o->sb ? B_EXIT_FAIL : B_EXIT_USAGE;
    }
    return B_EXIT_OK;
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
        m->p = shmat(m->shmid, NULL, 0);
        shmctl(m->shmid, IPC_RMID, NULL); /* freed when detached, even if we crash */
        if (m->p == (void *)-1)
            return b_seterr(e, B_SYSERR, errno, "shmat of the HugeTLB segment failed: %s (%s)",
                            strerror(errno), b_errno_name(errno));
        memset(m->p, 0, len);
        return B_OK;
    }
    void *p = NULL;
    int rc = posix_memalign(&p, 4096, len);
    if (rc)
        return b_seterr(e, B_NOMEM, rc, "allocating a %zu-byte memory block failed: %s", len,
                        strerror(rc));
    memset(p, 0, len);
    m->p = p;
    return B_OK;
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

static int mem_init(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    if (o->memory_total_size) /* integer division drops the remainder (sysbench issue #545) */
        for (int i = 0; i < r->nthreads; i++)
            r->thr[i].limit = o->memory_total_size / o->memory_block_size / (u64)r->nthreads;
    r->event_limit = 0; /* sysbench: memory ignores --events */
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
    if (o->memory_scope == MEM_LOCAL) {
        struct mem_block *m = b_xcalloc(1, sizeof(*m));
        t->wl = m;
        return mem_alloc(m, (size_t)o->memory_block_size, o->memory_hugetlb, &t->err);
    }
    t->wl = t->run->wl_global;
    return B_OK;
}

static int mem_event(struct load_thread *t)
{
    const struct bench_opts *o = t->run->o;
    struct mem_block *m = t->wl;
    volatile size_t *p = m->p;
    size_t n = m->len / sizeof(size_t), sink = 0;
    if (o->memory_access_mode == MEM_SEQ) {
        switch (o->memory_oper) {
        case MEM_WRITE:
            for (size_t i = 0; i < n; i++)
                p[i] = n - i;
            break;
        case MEM_READ:
            for (size_t i = 0; i < n; i++)
                sink += p[i];
            break;
        default:
            for (size_t i = 0; i < n; i++)
                __asm__ __volatile__("" ::: "memory");
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            size_t k = (size_t)(rnd_double(&t->rng) * (double)n);
            if (o->memory_oper == MEM_WRITE)
                p[k] = k;
            else if (o->memory_oper == MEM_READ)
                sink += p[k];
        }
    }
    (void)sink;
    return B_OK;
}

static void mem_thread_done(struct load_thread *t)
{
    if (t->run->o->memory_scope == MEM_LOCAL && t->wl) {
        mem_release(t->wl);
        free(t->wl);
        t->wl = NULL;
    }
}

static void mem_done(struct load_run *r)
{
    if (r->wl_global) {
        mem_release(r->wl_global);
        free(r->wl_global);
        r->wl_global = NULL;
    }
}

static void mem_print_mode(const struct bench_opts *o)
{
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

static void mem_report(const struct load_run *r, const struct load_snap *s, double secs)
{
    const struct bench_opts *o = r->o;
    double mib = (double)s->events * (double)o->memory_block_size / 1048576.0;
    printf("Total operations: %llu (%8.2f per second)\n\n", (unsigned long long)s->events,
           secs > 0 ? (double)s->events / secs : 0.0);
    if (o->memory_oper != MEM_NONE)
        printf("%4.2f MiB transferred (%4.2f MiB/sec)\n\n", mib, secs > 0 ? mib / secs : 0.0);
    printf("\n");
}

static void mem_interval(const struct load_run *r, const struct load_snap *d, double secs,
                         double at_s)
{
    double mib = (double)d->events * (double)r->o->memory_block_size / 1048576.0;
    printf("[ %.0fs ] %4.2f MiB/sec\n", at_s, secs > 0 ? mib / secs : 0.0);
}

/*== 10 thr_ : threads and mutex workloads ==================================*/
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

static int thr_init_locks(struct load_run *r, size_t n)
{
    struct thr_shared *s = b_xcalloc(1, sizeof(*s));
    void *p = NULL;
    if (posix_memalign(&p, B_CACHELINE, n * sizeof(struct thr_lock)))
        return b_seterr(&r->err, B_NOMEM, ENOMEM, "allocating %zu mutexes failed", n);
    s->locks = p;
    s->n = n;
    for (size_t i = 0; i < n; i++)
        pthread_mutex_init(&s->locks[i].mu, NULL);
    r->wl_global = s;
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
        pthread_mutex_lock(&s->locks[k].mu);
        sched_yield();
        pthread_mutex_unlock(&s->locks[k].mu);
    }
    return B_OK;
}

static void thr_threads_mode(const struct bench_opts *o)
{
    if (o->verbosity >= 4)
        printf("Doing thread subsystem performance test\nThread yields per test: %lld Locks "
               "used: %lld\n",
               (long long)o->thread_yields, (long long)o->thread_locks);
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
    for (i64 i = 0; i < o->mutex_locks; i++) {
        size_t k = (size_t)rnd_uniform(&t->rng, 0, (u32)(s->n - 1));
        for (i64 j = 0; j < o->mutex_loops; j++)
            __asm__ __volatile__("" ::: "memory");
        pthread_mutex_lock(&s->locks[k].mu);
        atomic_store_explicit(&s->counter,
                              atomic_load_explicit(&s->counter, memory_order_relaxed) + 1,
                              memory_order_relaxed);
        pthread_mutex_unlock(&s->locks[k].mu);
    }
    return B_OK;
}

/* threads and mutex have no block of their own; sysbench prints an empty line for it */
static void thr_report(const struct load_run *r, const struct load_snap *s, double secs)
{
    (void)r, (void)s, (void)secs;
    printf("\n");
}

static void thr_mutex_mode(const struct bench_opts *o)
{
    if (o->verbosity >= 4)
        printf("Doing mutex performance test\n");
}

/*== 11 load_ : worker threads, limits, --rate, intervals, checkpoints ======*/
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
    void (*interval)(struct load_run *r, const struct load_snap *d, double secs, double at_s);
    void (*checkpoint)(struct load_run *r, const struct load_snap *cur, double at_s);
    void (*forced)(struct load_run *r, const struct load_snap *cur); /* does not return */
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
    for (int i = 0; i < r->nthreads; i++) {
        struct load_thread *t = &r->thr[i];
        u64 ev = atomic_load_explicit(&t->events, memory_order_relaxed);
        u64 sum = atomic_load_explicit(&t->lat_sum_ns, memory_order_relaxed);
        u64 mn = atomic_load_explicit(&t->lat_min_ns, memory_order_relaxed);
        u64 mx = atomic_load_explicit(&t->lat_max_ns, memory_order_relaxed);
        s->thr_events[i] = ev;
        s->thr_sum_ns[i] = sum;
        s->events += ev;
        s->lat_sum_ns += sum;
        s->lat_min_ns = B_MIN(s->lat_min_ns, mn);
        s->lat_max_ns = B_MAX(s->lat_max_ns, mx);
        for (int k = 0; k < LOAD_NCTR; k++)
            s->ctr[k] += atomic_load_explicit(&t->ctr[k], memory_order_relaxed);
        s->busy += atomic_load_explicit(&t->busy, memory_order_relaxed) > 0;
        hist_add(s->hist, &t->hist);
        for (int k = 0; k < s->nops && t->op_hist; k++)
            hist_add(&s->op_hist[k], &t->op_hist[k]);
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

/* Restart min/max (after warmup and at checkpoints); an update racing with this may be lost. */
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
    hist_record(&t->hist, lat);
    /* events last, with release: a reader that sees the count sees its latency */
    atomic_store_explicit(&t->events, atomic_load_explicit(&t->events, memory_order_relaxed) + 1,
                          memory_order_release);
}

/* Why a worker left its loop (for the INFO lines sysbench prints at verbosity >= 4). */
enum { LOAD_END_NONE, LOAD_END_TIME, LOAD_END_EVENTS };

/* --rate: claim the next arrival; returns its intended start, or 0 to stop. */
static u64 load_rate_wait(struct load_thread *t, u64 now)
{
    struct load_run *r = t->run;
    u64 old = atomic_load_explicit(&r->next_arrival_ns, memory_order_relaxed), nw;
    do
        nw = old + rnd_exp_gap_ns(&t->rng, r->rate);
    while (!atomic_compare_exchange_weak_explicit(&r->next_arrival_ns, &old, nw,
                                                  memory_order_relaxed, memory_order_relaxed));
    if (old > now) {
        if (r->deadline_ns && old >= r->deadline_ns)
            return 0;
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
    if (r->event_limit && now >= r->t_measure_ns &&
        atomic_fetch_add_explicit(&r->issued, 1, memory_order_relaxed) >= r->event_limit) {
        t->end_why = LOAD_END_EVENTS;
        return false;
    }
    return true;
}

/* load_record_op - record one event of kind op (for per-operation latency, e.g. fileio). */
static inline void load_record_op(struct load_thread *t, int op, u64 lat)
{
    if (t->op_hist)
        hist_record(&t->op_hist[op], lat);
    load_record(t, lat);
}

static void *load_worker(void *arg)
{
    struct load_thread *t = arg;
    struct load_run *r = t->run;
    int rc = B_OK;

    if (r->o->debug)
        printf("DEBUG: Worker thread (#%d) started\n", t->id);
    if (r->w->thread_init)
        rc = r->w->thread_init(t);
    if (rc < 0)
        load_fail(r, rc, &t->err);
    else if (r->o->debug)
        printf("DEBUG: Worker thread (#%d) initialized\n", t->id);

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
    for (int i = 0; i < r->nthreads; i++) {
        struct load_thread *t = &r->thr[i];
        t->id = i;
        t->run = r;
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
    for (int i = 0; r->thr && i < r->nthreads; i++)
        free(r->thr[i].op_hist);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv_done);
    pthread_cond_destroy(&r->cv_go);
    free(r->thr);
    r->thr = NULL;
}

/* load_start - create the workers and wait until all have run thread_init.
 * Returns B_OK, or the first failure (r->err says more); then the workers are released to
 * exit at once and joined. */
static int load_start(struct load_run *r)
{
    atomic_store(&r->running, r->nthreads);
    for (int i = 0; i < r->nthreads; i++) {
        int e = os_thread_start(&r->thr[i].tid, (size_t)r->o->thread_stack_size, load_worker,
                                &r->thr[i]);
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
                pthread_join(r->thr[k].tid, NULL);
            r->nthreads = i;
            return B_SYSERR;
        }
    }
    pthread_mutex_lock(&r->mu);
    while (atomic_load(&r->ready) < r->nthreads)
        pthread_cond_wait(&r->cv_done, &r->mu);
    pthread_mutex_unlock(&r->mu);
    if (atomic_load(&r->failed)) {
        pthread_mutex_lock(&r->mu);
        r->go = 1;
        pthread_cond_broadcast(&r->cv_go);
        pthread_mutex_unlock(&r->mu);
        for (int k = 0; k < r->nthreads; k++)
            pthread_join(r->thr[k].tid, NULL);
        return atomic_load(&r->failed);
    }
    return B_OK;
}

/* load_go - start the clock and release the workers. */
static void load_go(struct load_run *r)
{
    const struct bench_opts *o = r->o;
    r->t_start_ns = clk_now_ns();
    r->t_measure_ns = r->t_start_ns + (u64)o->warmup_time * 1000000000u;
    r->deadline_ns = o->time_s ? r->t_measure_ns + (u64)o->time_s * 1000000000u : 0;
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
            warm = false;
            load_snapshot(r, &r->base);
            load_reset_minmax(r);
            load_snap_copy(&prev, &r->base, r->nthreads);
        }
        if (next_iv && now >= next_iv) {
            load_snapshot(r, &cur);
            load_snap_diff(&d, &cur, &prev, r->nthreads);
            if (hk->interval)
                hk->interval(r, &d, (double)(cur.t_ns - prev.t_ns) / 1e9,
                             (double)(next_iv - r->t_measure_ns) / 1e9);
            load_snap_copy(&prev, &cur, r->nthreads);
            next_iv += (u64)o->report_interval * sec;
        }
        if (ck_t && now >= ck_t) {
            load_snapshot(r, &cur);
            if (hk->checkpoint)
                hk->checkpoint(r, &cur, o->ckpt[ck]);
            load_snap_copy(&r->base, &cur, r->nthreads);
            load_reset_minmax(r);
            ck++;
        }
        if (forced && now >= forced && atomic_load(&r->running) > 0) {
            load_snapshot(r, &cur);
            hk->forced(r, &cur);
        }
        pthread_mutex_lock(&r->mu);
    }
    pthread_mutex_unlock(&r->mu);
    for (int i = 0; i < r->nthreads; i++)
        pthread_join(r->thr[i].tid, NULL);
    /* the interval that ends with --time: sysbench may or may not print it (a race); we do */
    if (next_iv && r->deadline_ns && next_iv <= r->deadline_ns && hk->interval &&
        !atomic_load(&r->stop) && !atomic_load(&b_stop)) {
        load_snapshot(r, &cur);
        load_snap_diff(&d, &cur, &prev, r->nthreads);
        hk->interval(r, &d, (double)(cur.t_ns - prev.t_ns) / 1e9,
                     (double)(next_iv - r->t_measure_ns) / 1e9);
    }
    load_snap_free(&prev);
    load_snap_free(&cur);
    load_snap_free(&d);
}

/*== 12 uring_, io_ : io_uring by raw syscalls; the fileio workload =========*/
/*
 * uring_: a minimal io_uring client over the three raw syscalls (no liburing): setup with
 * fio's "newest flags first" ladder (SINGLE_ISSUER|DEFER_TASKRUN, then COOP_TASKRUN, then
 * CQSIZE, then none), the three mmaps (or one ring mapping with IORING_FEAT_SINGLE_MMAP),
 * registered files and buffers where the kernel and RLIMIT_MEMLOCK allow, batched submit and
 * reap. References: io_uring_setup(2), io_uring_enter(2), fio engines/io_uring.c (behaviour),
 * shared/spec/sizing.md 3.2-3.4.
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
static u32 io_crc32(u32 crc, const u8 *p, size_t n)
{
    static u32 table[256];
    static _Atomic int ready;
    if (!atomic_load_explicit(&ready, memory_order_acquire)) {
        for (u32 i = 0; i < 256; i++) {
            u32 c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        atomic_store_explicit(&ready, 1, memory_order_release);
    }
    crc = ~crc;
    while (n--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static const struct opt_def opt_fileio[] = {
    OPT("file-num", INT, file_num, "128", 1, 1e6, NULL, "number of files to create", NULL,
        OPT_F_SBLATE),
    OPT("file-block-size", SIZE, file_block_size, "16384", 1, 1ull << 30, NULL,
        "block size to use in all IO operations", "Invalid value for file-block-size: %s",
        OPT_F_SBHINT_N | OPT_F_SBLATE),
    OPT("file-total-size", SIZE, file_total_size, "2G", 1, 1e18, NULL,
        "total size of files to create", NULL, OPT_F_SBLATE),
    OPT("file-test-mode", STR, file_test_mode, "", 0, 0, NULL,
        "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}", NULL, OPT_F_NODEF),
    OPT("file-io-mode", ENUM, file_io_mode, "sync", 0, 0, "sync,async,mmap",
        "file operations mode %C", "Invalid IO mode: %s.", OPT_F_SBLATE),
    OPT("file-async-backlog", INT, file_async_backlog, "128", 1, 4096, NULL,
        "number of asynchronous operatons to queue per thread", NULL, OPT_F_SBLATE),
    OPT("file-extra-flags", LIST, file_extra_flags, "", 0, 0, NULL,
        "list of additional flags to use to open files {sync,dsync,direct}", NULL, 0),
    OPT("file-fsync-freq", INT, file_fsync_freq, "100", 0, 1e12, NULL,
        "do fsync() after this number of requests (0 - don't use fsync())", NULL, OPT_F_SBLATE),
    OPT("file-fsync-all", BOOL, file_fsync_all, "off", 0, 0, NULL,
        "do fsync() after each write operation", NULL, 0),
    OPT("file-fsync-end", BOOL, file_fsync_end, "on", 0, 0, NULL,
        "do fsync() at the end of test", NULL, 0),
    OPT("file-fsync-mode", ENUM, file_fsync_mode, "fsync", 0, 0, "fsync,fdatasync",
        "which method to use for synchronization {fsync, fdatasync}",
        "Invalid value of file-fsync-mode: %s.", OPT_F_SBLATE),
    OPT("file-merged-requests", INT, file_merged_requests, "0", 0, 1e6, NULL,
        "merge at most this number of IO requests if possible (0 - don't merge)", NULL,
        OPT_F_SBLATE),
    OPT("file-rw-ratio", DOUBLE, file_rw_ratio, "1.5", 0, 1e9, NULL,
        "reads/writes ratio for combined test", NULL, OPT_F_SBLATE),
    OPT("file-dir", STR, file_dir, ".", 0, 0, NULL,
        "directory for the test files (bench creates and removes only test_file.N there)",
        NULL, OPT_F_EXT),
    OPT("file-queue-depth", INT, file_queue_depth, "0", 0, 4096, NULL,
        "I/O requests in flight per thread with --file-io-mode=async (io_uring); 0 means "
        "--file-async-backlog, as sysbench",
        NULL, OPT_F_EXT),
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

#define IO_VALIDATE_TRAILER 12 /* CRC32 (4) + file offset (8) at the end of each block */

/* Derived run parameters and shared state. */
struct io_shared {
    int mode, iomode, nfiles, oflags;
    u64 file_size, full_size;    /* size asked for, and what prepare leaves (whole blocks) */
    u64 bs, req_size;            /* block size, request size (merged for sequential) */
    u64 period, freq;            /* fsync burst: freq I/O tickets then nfiles fsync tickets */
    u64 reqs_per_file;           /* sequential: requests per file */
    unsigned depth;              /* requests in flight per thread (async) */
    bool writes, validate, fsync_all, fdatasync;
    int *fds;                    /* [nfiles] */
    u8 **maps;                   /* [nfiles] for mmap mode */
    _Atomic u64 ticket;          /* next request of the sequence */
    _Atomic u8 *held;            /* --validate with concurrency: blocks in flight, [nblocks] */
    u64 nblocks;                 /* blocks in all files */
    const struct bench_opts *o;
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

/* Parse --file-extra-flags into open(2) flags; -1 on an unknown word (in *bad). */
static int io_parse_flags(const char *list, const char **bad, size_t *badlen)
{
    int fl = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == 4 && !strncmp(p, "sync", 4))
            fl |= O_SYNC;
        else if (n == 5 && !strncmp(p, "dsync", 5))
            fl |= O_DSYNC;
        else if (n == 6 && !strncmp(p, "direct", 6))
            fl |= O_DIRECT;
        else if (n) {
            *bad = p;
            *badlen = n;
            return -1;
        }
        p += n;
        if (*p)
            p++;
    }
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

static int io_check(struct bench_opts *o);

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
    sh->oflags = io_parse_flags(o->file_extra_flags, &bad, &badlen);
    sh->req_size = (!io_mode_random(mode) && o->file_merged_requests > 0)
                       ? sh->bs * (u64)o->file_merged_requests
                       : sh->bs;
    sh->reqs_per_file = sh->file_size ? (sh->file_size + sh->req_size - 1) / sh->req_size : 1;
    sh->writes = io_mode_writes(mode);
    sh->validate = o->validate;
    sh->fsync_all = o->file_fsync_all;
    sh->fdatasync = o->file_fsync_mode == 1;
    sh->freq = (u64)o->file_fsync_freq;
    sh->period = (sh->writes && sh->freq && !sh->fsync_all) ? sh->freq + (u64)sh->nfiles : 0;
    sh->depth = sh->iomode == IO_ASYNC ? (unsigned)(o->file_queue_depth ? o->file_queue_depth
                                                                       : o->file_async_backlog)
                                       : 1;
}

/* The request for the next ticket: sysbench's sequence, without its global mutex. */
static void io_next(struct io_shared *sh, struct io_thread *it, struct rnd *rng,
                    struct io_req *q)
{
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

/* Fill a write buffer with fresh random data (incompressible, never deduplicated: every
 * block differs, and so does every 128 KiB record a compressing filesystem sees); with
 * --validate, a CRC32 and offset trailer per block. xoroshiro128+ costs about 1 ns per
 * 8 bytes, 2 us per 16 KiB block. */
static void io_fill(struct io_shared *sh, struct rnd *rng, u8 *buf, u64 len, u64 off)
{
    for (u64 i = 0; i + 8 <= len; i += 8) {
        u64 x = rnd_next(rng);
        memcpy(buf + i, &x, 8);
    }
    if (!sh->validate)
        return;
    for (u64 b = 0; b < len; b += sh->bs) {
        u64 n = B_MIN(sh->bs, len - b), boff = off + b;
        if (n <= IO_VALIDATE_TRAILER)
            continue;
        u32 crc = io_crc32(0, buf + b, (size_t)(n - IO_VALIDATE_TRAILER));
        memcpy(buf + b + n - IO_VALIDATE_TRAILER, &crc, 4);
        memcpy(buf + b + n - 8, &boff, 8);
    }
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
        io_fill(sh, &t->rng, it->buf, q.len, q.off);
        if (sh->iomode == IO_MMAP)
            memcpy(sh->maps[q.file] + q.off, it->buf, len);
        else
            for (size_t done = 0; done < len;) {
                ssize_t n = pwrite(sh->fds[q.file], it->buf + done, len - done,
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
        if (sh->iomode == IO_MMAP)
            memcpy(it->buf, sh->maps[q.file] + q.off, len);
        else
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
                io_fill(sh, &t->rng, sl->buf, sl->q.len, sl->q.off);
                it->writes_done++;
            } else if (sl->q.op == IO_OP_READ)
                it->reads_done++;
            struct io_uring_sqe *sqe = uring_sqe(&it->ring);
            if (!sqe)
                return b_seterr(&t->err, B_SYSERR, 0, "io_uring submission queue full");
            io_prep_sqe(sh, it, sqe, k);
            sl->start_ns = now;
            inflight++;
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
            load_record_op(t, sl->q.op, end - sl->start_ns);
        }
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
    size_t len = (size_t)(sh->req_size * sh->depth);
    t->wl = it;
    it->ring.fd = -1;
    if (posix_memalign(&p, 4096, len))
        return b_seterr(&t->err, B_NOMEM, ENOMEM, "allocating %zu bytes of I/O buffers failed",
                        len);
    it->buf = p;
    memset(it->buf, 0, len); /* touch the pages now, not in the measured loop */
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
        printf("DEBUG: thread %d: io_uring fd %d, depth %u, setup flags 0x%x, registered files "
               "%s, buffers %s\n",
               t->id, it->ring.fd, sh->depth, it->ring.setup_flags,
               it->ring.fixed_files ? "yes" : "no", it->ring.fixed_bufs ? "yes" : "no");
    free(iov);
    return B_OK;
}

static void io_thread_done(struct load_thread *t)
{
    struct io_shared *sh = t->run->wl_global;
    struct io_thread *it = t->wl;
    /* sysbench: with --file-fsync-end each thread fsyncs every file once (writing modes) */
    if (sh->writes && t->run->o->file_fsync_end && !atomic_load(&t->run->failed))
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
    return S_ISREG(st->st_mode) && (sz == sh->file_size || (sz % sh->bs == 0 && sz <= sh->full_size));
}

/* Open every test file for the run; sysbench's checks and messages. */
static int io_open_all(struct load_run *r, struct io_shared *sh)
{
    const struct bench_opts *o = r->o;
    char path[PATH_MAX], sz1[32], sz2[32];
    sh->fds = b_xcalloc((size_t)sh->nfiles, sizeof(int));
    for (int i = 0; i < sh->nfiles; i++)
        sh->fds[i] = -1;
    for (int i = 0; i < sh->nfiles; i++) {
        struct stat st;
        io_path(o, i, path, sizeof(path));
        if (sh->mode == IO_SEQWR) {
            if (stat(path, &st) == 0)
                unlink(path); /* checked to be ours by io_check_seqwr */
            sh->fds[i] = open(path, O_CREAT | O_EXCL | O_RDWR | sh->oflags, 0600);
        } else
            sh->fds[i] = open(path, O_RDWR | sh->oflags);
        if (sh->fds[i] < 0) {
            int e = errno;
            if (o->sb) {
                snprintf(r->err.hint, sizeof(r->err.hint),
                         "Did you forget to run the prepare step?");
                return b_seterr(&r->err, B_SYSERR, e, "Cannot open file '%s' errno = %d (%s)",
                                path, e, strerror(e));
            }
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
        if (sh->mode != IO_SEQWR && fstat(sh->fds[i], &st) == 0 &&
            (u64)st.st_size < sh->file_size) {
            unit_fmt_size((u64)st.st_size, sz1, sizeof(sz1));
            unit_fmt_size(sh->file_size, sz2, sizeof(sz2));
            snprintf(r->err.hint, sizeof(r->err.hint), "%s",
                     o->sb ? "Did you run 'prepare' with different --file-total-size or "
                             "--file-num values?"
                           : "run 'bench fileio prepare' with the same --file-num and "
                             "--file-total-size as the run");
            return b_seterr(&r->err, B_INVALID, 0,
                            "Size of file '%s' is %s, but at least %s is expected.", path, sz1,
                            sz2);
        }
    }
    if (sh->iomode == IO_MMAP) {
        sh->maps = b_xcalloc((size_t)sh->nfiles, sizeof(u8 *));
        for (int i = 0; i < sh->nfiles; i++) {
            if (sh->mode == IO_SEQWR && ftruncate(sh->fds[i], (off_t)sh->file_size) < 0)
                return io_syserr_e(&r->err, o, "ftruncate of", i, sh->file_size, errno);
            void *m = mmap(NULL, (size_t)sh->file_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                           sh->fds[i], 0);
            if (m == MAP_FAILED)
                return io_syserr_e(&r->err, o, "mmap of", i, 0, errno);
            sh->maps[i] = m;
        }
    }
    return B_OK;
}

static int io_init(struct load_run *r)
{
    struct io_shared *sh = b_xcalloc(1, sizeof(*sh));
    char path[PATH_MAX];
    r->wl_global = sh;
    io_params(sh, r->o, io_test_mode(r->o->file_test_mode));
    r->self_timed = sh->iomode == IO_ASYNC; /* io_async_loop runs each thread's loop */
    if (sh->validate && io_mode_random(sh->mode) && (r->nthreads > 1 || sh->depth > 1)) {
        sh->nblocks = (sh->file_size * (u64)sh->nfiles + sh->bs - 1) / sh->bs;
        sh->held = b_xcalloc((size_t)sh->nblocks, sizeof(*sh->held));
    }
    /* sysbench re-creates the files of a seqwr run: first make sure every one is ours */
    for (int i = 0; sh->mode == IO_SEQWR && i < sh->nfiles; i++) {
        struct stat st;
        io_path(r->o, i, path, sizeof(path));
        if (lstat(path, &st) == 0 && !io_is_ours(sh, &st)) {
            snprintf(r->err.hint, sizeof(r->err.hint), "move it away, or use another --file-dir");
            return b_seterr(&r->err, B_INVALID, 0,
                            "seqwr would re-create %s, but its size (%lld bytes) is not one "
                            "bench writes with these options: not touching it",
                            path, (long long)st.st_size);
        }
    }
    return io_open_all(r, sh);
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
    free(sh->maps);
    free(sh->fds);
    free((void *)sh->held);
    free(sh);
    r->wl_global = NULL;
}

/* "Extra file open flags: sync dsync directio " as sysbench prints it. */
static void io_print_flags(int fl)
{
    printf("Extra file open flags: ");
    if (!fl)
        printf("(none)");
    if (fl & O_SYNC & ~O_DSYNC)
        printf("sync ");
    if (fl & O_DSYNC)
        printf("dsync ");
    if (fl & O_DIRECT)
        printf("directio ");
    printf("\n");
}

/* bench persona: what the files sit on, and whether the page cache will answer. */
static void io_print_host(const struct bench_opts *o, const struct io_shared *sh)
{
    struct os_fsinfo fi;
    char avail[32], ram[32], total[32], dir[PATH_MAX];
    if (o->sb || os_fsinfo_get(o->file_dir, &fi) < 0)
        return;
    if (!realpath(o->file_dir, dir))
        snprintf(dir, sizeof(dir), "%s", o->file_dir);
    unit_fmt_size(fi.avail_bytes, avail, sizeof(avail));
    printf("Directory %s: %s on %s (%s), %s free", dir, fi.fstype[0] ? fi.fstype : "?",
           fi.source[0] ? fi.source : "?", fi.options[0] ? fi.options : "?", avail);
    if (fi.device[0])
        printf(", device %s%s%s%s%s", fi.device,
               fi.rotational == 1   ? " (rotational)"
               : fi.rotational == 0 ? " (solid state)"
                                    : "",
               fi.model[0] ? ", model \"" : "", fi.model, fi.model[0] ? "\"" : "");
    printf("\n");
    u64 mem = os_mem_total(), tot = sh->file_size * (u64)sh->nfiles;
    if ((!(sh->oflags & O_DIRECT) || sh->iomode == IO_MMAP) && mem && tot <= mem) {
        unit_fmt_size(tot, total, sizeof(total));
        unit_fmt_size(mem, ram, sizeof(ram));
        b_msg(B_MSG_WARN,
              "fileio: the %s of test files fit in RAM (%s) and O_DIRECT is off: this measures "
              "the page cache, not the disk",
              total, ram);
        b_msg(B_MSG_HINT, "add --file-extra-flags=direct, or make --file-total-size larger "
                          "than RAM");
    }
}

static void io_print_mode(const struct bench_opts *o)
{
    struct io_shared sh;
    char a[32], b[32];
    int mode = io_test_mode(o->file_test_mode);
    io_params(&sh, o, mode);
    io_print_host(o, &sh);
    io_print_flags(sh.oflags);
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
    if (!o->sb && sh.iomode == IO_ASYNC)
        printf("io_uring queue depth %u per thread\n", sh.depth);
    if (o->validate)
        printf("Using checksums validation.\n");
    printf("Doing %s test\n", io_mode_text[mode]);
}

static void io_report(const struct load_run *r, const struct load_snap *s, double secs)
{
    const struct bench_opts *o = r->o;
    double d = secs > 0 ? secs : 1;
    printf("\nFile operations:\n");
    printf("    reads/s:                      %4.2f\n", (double)s->ctr[0] / d);
    printf("    writes/s:                     %4.2f\n", (double)s->ctr[1] / d);
    printf("    fsyncs/s:                     %4.2f\n\n", (double)s->ctr[2] / d);
    printf("Throughput:\n");
    printf("    read, MiB/s:                  %4.2f\n", (double)s->ctr[3] / 1048576.0 / d);
    printf("    written, MiB/s:               %4.2f\n\n", (double)s->ctr[4] / 1048576.0 / d);
    if (o->sb || !o->npct)
        return;
    /* bench: each operation's own latency (fsync latency is what a redo log waits for) */
    printf("Latency by operation (ms):\n");
    for (int k = 0; k < s->nops; k++) {
        u64 n = hist_total(&s->op_hist[k]);
        if (!n)
            continue;
        printf("    %-6s %10llu ops ", io_op_names[k], (unsigned long long)n);
        for (int i = 0; i < o->npct; i++)
            printf(" %g%%: %.3f", o->pct[i],
                   rep_ms(hist_percentile(&s->op_hist[k], o->pct[i], 0, UINT64_MAX)));
        printf("\n");
    }
    printf("\n");
}

static void io_interval(const struct load_run *r, const struct load_snap *d, double secs,
                        double at_s)
{
    const struct bench_opts *o = r->o;
    double x = secs > 0 ? secs : 1;
    printf("[ %.0fs ] reads: %4.2f MiB/s writes: %4.2f MiB/s fsyncs: %4.2f/s", at_s,
           (double)d->ctr[3] / 1048576.0 / x, (double)d->ctr[4] / 1048576.0 / x,
           (double)d->ctr[2] / x);
    if (o->npct) {
        printf(" latency (ms,");
        for (int i = 0; i < o->npct; i++)
            printf("%s%g%%", i ? "," : "", o->pct[i]);
        printf("):");
        for (int i = 0; i < o->npct; i++)
            printf("%s%4.3f", i ? "," : " ",
                   rep_ms(hist_percentile(d->hist, o->pct[i], 0, UINT64_MAX)));
    }
    printf("\n");
}

/* Validation shared by prepare, run and cleanup (before anything is printed or touched). */
static int io_check(struct bench_opts *o)
{
    const char *bad = NULL;
    size_t badlen = 0;
    int fl = io_parse_flags(o->file_extra_flags, &bad, &badlen);
    if (fl < 0) {
        if (o->sb)
            printf("FATAL: Invalid value for file-extra-flags: %.*s\n", (int)badlen, bad);
        else {
            b_msg(B_MSG_FATAL, "--file-extra-flags: unknown flag '%.*s' (expected sync, dsync "
                               "or direct, separated by commas)",
                  (int)badlen, bad);
            b_msg(B_MSG_HINT, "see 'bench fileio help'");
        }
        return o->sb ? B_EXIT_FAIL : B_EXIT_USAGE;
    }
    if (o->file_total_size / (u64)o->file_num == 0) {
        b_msg(B_MSG_FATAL, "fileio: --file-total-size=%llu split over --file-num=%lld files "
                           "leaves 0 bytes per file",
              (unsigned long long)o->file_total_size, (long long)o->file_num);
        b_msg(B_MSG_HINT, "raise --file-total-size or lower --file-num");
        return o->sb ? B_EXIT_FAIL : B_EXIT_USAGE;
    }
    if ((fl & O_DIRECT) && o->file_block_size % 512) {
        b_msg(B_MSG_FATAL, "fileio: --file-block-size=%llu with O_DIRECT: direct I/O needs a "
                           "multiple of the device's logical block size (512 or 4096 bytes)",
              (unsigned long long)o->file_block_size);
        b_msg(B_MSG_HINT, "use --file-block-size=4K or 16K");
        return o->sb ? B_EXIT_FAIL : B_EXIT_USAGE;
    }
    if (!o->sb) {
        struct stat st;
        if (stat(o->file_dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
            int e = errno;
            b_msg(B_MSG_FATAL, "fileio: --file-dir=%s: %s", o->file_dir,
                  S_ISDIR(st.st_mode) || e == ENOENT ? strerror(e) : "not a directory");
            b_msg(B_MSG_HINT, "create the directory first, on the disk you want to measure");
            return B_EXIT_ENV;
        }
    }
    return B_EXIT_OK;
}

/* Checks of the run command: the mode, queue depth, and the io_uring probe. */
static int io_check_run(struct bench_opts *o)
{
    int ex = io_check(o);
    if (ex != B_EXIT_OK)
        return ex;
    if (!*o->file_test_mode) {
        if (o->sb) {
            printf("FATAL: Missing required argument: --file-test-mode\n\n");
            printf("fileio options:\n");
            opt_print_help(stdout, opt_fileio, countof(opt_fileio), true);
            printf("\n");
        } else {
            b_msg(B_MSG_FATAL, "fileio: run needs --file-test-mode: seqwr, seqrewr, seqrd, "
                               "rndrd, rndwr or rndrw");
            b_msg(B_MSG_HINT, "for example: bench fileio --file-test-mode=rndrd run");
        }
        return o->sb ? B_EXIT_FAIL : B_EXIT_USAGE;
    }
    if (io_test_mode(o->file_test_mode) < 0) {
        if (o->sb)
            printf("FATAL: Invalid IO operations mode: %s.\n", o->file_test_mode);
        else {
            b_msg(B_MSG_FATAL, "--file-test-mode: invalid value '%s' (expected seqwr, seqrewr, "
                               "seqrd, rndrd, rndwr or rndrw)",
                  o->file_test_mode);
            b_msg(B_MSG_HINT, "see 'bench fileio help'");
        }
        return o->sb ? B_EXIT_FAIL : B_EXIT_USAGE;
    }
    if (o->file_io_mode != IO_ASYNC && o->file_queue_depth > 1) {
        b_msg(B_MSG_FATAL, "fileio: --file-queue-depth=%lld needs --file-io-mode=async "
                           "(io_uring); sync and mmap modes do one request at a time",
              (long long)o->file_queue_depth);
        b_msg(B_MSG_HINT, "add --file-io-mode=async, or use --threads for parallel sync I/O");
        return o->sb ? B_EXIT_FAIL : B_EXIT_USAGE;
    }
    if (o->file_io_mode == IO_ASYNC) {
        struct uring u;
        struct b_err e;
        memset(&e, 0, sizeof(e));
        if (o->rate) {
            b_msg(B_MSG_FATAL, "fileio: --rate is not supported with --file-io-mode=async");
            b_msg(B_MSG_HINT, "use --file-io-mode=sync with --rate");
            return o->sb ? B_EXIT_FAIL : B_EXIT_USAGE;
        }
        if (uring_setup(&u, 2, &e) < 0) {
            if (o->file_io_mode_strict) {
                b_msg(B_MSG_FATAL, "fileio: %s", e.msg);
                b_msg(B_MSG_HINT, "%s", e.hint);
                return o->sb ? B_EXIT_FAIL : B_EXIT_ENV;
            }
            b_msg(B_MSG_WARN, "fileio: %s; falling back to --file-io-mode=sync", e.msg);
            o->file_io_mode = IO_SYNC;
            o->file_queue_depth = 0;
        } else
            uring_free(&u);
    }
    return B_EXIT_OK;
}

/* prepare: create (or extend) test_file.N with incompressible data, sysbench's messages. */
static int io_prepare(struct bench_opts *o)
{
    struct io_shared sh;
    char path[PATH_MAX];
    io_params(&sh, o, IO_SEQWR);
    printf("%lld files, %lluKb each, %lluMb total\n", (long long)o->file_num,
           (unsigned long long)(sh.file_size / 1024),
           (unsigned long long)(sh.file_size * (u64)sh.nfiles / 1048576));
    printf("Creating files for the test...\n");
    io_print_flags(sh.oflags);
    /* before writing anything: every existing file must look like ours, and the space must
     * be there (statfs), so a prepare never half-fills a disk or appends to a user's file */
    u64 need = 0;
    for (int i = 0; i < sh.nfiles; i++) {
        struct stat st;
        io_path(o, i, path, sizeof(path));
        if (stat(path, &st) < 0) {
            need += sh.full_size;
            continue;
        }
        u64 sz = (u64)st.st_size;
        if (!io_is_ours(&sh, &st)) {
            b_msg(B_MSG_FATAL,
                  "fileio: prepare: %s exists with %llu bytes, which bench's prepare does not "
                  "write with these options (not a multiple of %llu bytes up to %llu): not "
                  "touching it",
                  path, (unsigned long long)sz, (unsigned long long)sh.bs,
                  (unsigned long long)sh.full_size);
            b_msg(B_MSG_HINT, "move it away, or use another --file-dir");
            return o->sb ? B_EXIT_FAIL : B_EXIT_ENV;
        }
        need += sh.full_size > sz ? sh.full_size - sz : 0;
    }
    struct statfs sf;
    if (statfs(o->file_dir, &sf) == 0 && (u64)sf.f_bavail * (u64)sf.f_bsize < need) {
        char a[32], b[32];
        b_msg(B_MSG_FATAL, "fileio: prepare in %s needs %s more, but the filesystem has %s "
                           "available (%llu bytes needed, %llu available)",
              o->file_dir, unit_fmt_size(need, a, sizeof(a)),
              unit_fmt_size((u64)sf.f_bavail * (u64)sf.f_bsize, b, sizeof(b)),
              (unsigned long long)need, (unsigned long long)((u64)sf.f_bavail * (u64)sf.f_bsize));
        b_msg(B_MSG_HINT, "lower --file-total-size, or use another --file-dir");
        return o->sb ? B_EXIT_FAIL : B_EXIT_ENV;
    }
    struct io_thread it;
    struct rnd rng;
    void *p;
    memset(&it, 0, sizeof(it));
    rnd_seed(&rng);
    if (posix_memalign(&p, 4096, (size_t)sh.bs))
        b_die("out of memory allocating a %llu-byte block", (unsigned long long)sh.bs);
    it.buf = p;
    u64 written = 0, t0 = clk_now_ns();
    for (int i = 0; i < sh.nfiles; i++) {
        struct stat st;
        io_path(o, i, path, sizeof(path));
        int fd = open(path, O_CREAT | O_WRONLY | sh.oflags, 0600);
        if (fd < 0 || fstat(fd, &st) < 0) {
            int e = errno;
            if (o->sb)
                printf("FATAL: Cannot open file '%s' errno = %d (%s)\n", path, e, strerror(e));
            else
                b_msg(B_MSG_FATAL, "fileio: prepare: cannot create %s: %s (%s)", path,
                      strerror(e), b_errno_name(e));
            free(it.buf);
            return o->sb ? B_EXIT_FAIL : B_EXIT_ENV;
        }
        u64 off = (u64)st.st_size / sh.bs * sh.bs;
        printf("%s file %s\n", (u64)st.st_size >= sh.file_size ? "Reusing existing"
                               : st.st_size > 0                ? "Extending existing"
                                                               : "Creating",
               path);
        for (; off < sh.file_size; off += sh.bs) {
            io_fill(&sh, &rng, it.buf, sh.bs, off);
            ssize_t n = pwrite(fd, it.buf, (size_t)sh.bs, (off_t)off);
            if (n != (ssize_t)sh.bs) {
                int e = n < 0 ? errno : ENOSPC;
                b_msg(B_MSG_FATAL, "fileio: prepare: writing %s at offset %llu failed: %s (%s)",
                      path, (unsigned long long)off, strerror(e), b_errno_name(e));
                close(fd);
                free(it.buf);
                return o->sb ? B_EXIT_FAIL : B_EXIT_ENV;
            }
            written += sh.bs;
        }
        if (fsync(fd) < 0 || close(fd) < 0) {
            int e = errno;
            b_msg(B_MSG_FATAL, "fileio: prepare: fsync of %s failed: %s (%s)", path,
                  strerror(e), b_errno_name(e));
            free(it.buf);
            return o->sb ? B_EXIT_FAIL : B_EXIT_ENV;
        }
    }
    free(it.buf);
    double secs = (double)(clk_now_ns() - t0) / 1e9;
    if (written)
        printf("%llu bytes written in %.2f seconds (%.2f MiB/sec).\n",
               (unsigned long long)written, secs,
               secs > 0 ? (double)written / 1048576.0 / secs : 0.0);
    else
        printf("No bytes written.\n");
    return B_EXIT_OK;
}

/* cleanup: remove test_file.N, but only those whose size proves bench made them. */
static int io_cleanup(struct bench_opts *o)
{
    struct io_shared sh;
    char path[PATH_MAX];
    int kept = 0;
    io_params(&sh, o, IO_SEQWR);
    printf("Removing test files...\n");
    for (int i = 0; i < sh.nfiles; i++) {
        struct stat st;
        io_path(o, i, path, sizeof(path));
        if (lstat(path, &st) < 0)
            continue;
        if (!io_is_ours(&sh, &st)) {
            b_msg(B_MSG_WARN,
                  "fileio: cleanup: left %s alone: its size (%lld bytes) is not what bench's "
                  "prepare writes with these options (%llu bytes), so it is not ours",
                  path, (long long)st.st_size, (unsigned long long)sh.full_size);
            kept++;
            continue;
        }
        if (unlink(path) < 0) {
            int e = errno;
            b_msg(B_MSG_FATAL, "fileio: cleanup: cannot remove %s: %s (%s)", path, strerror(e),
                  b_errno_name(e));
            return o->sb ? B_EXIT_FAIL : B_EXIT_ENV;
        }
    }
    if (kept && !o->sb) {
        b_msg(B_MSG_HINT, "run cleanup with the --file-num and --file-total-size of the "
                          "prepare, or remove the files yourself");
        return B_EXIT_FAIL;
    }
    return B_EXIT_OK;
}

/*== 13 wl_ : workload registry =============================================*/
/*
 * One row per built-in test, as sysbench's sb_test_t: name, options, hooks. A new workload
 * is a new row. A test name given as a path ending in ".lua" (old scripts:
 * /usr/share/sysbench/cpu.lua) maps to the built-in of the same base name.
 */

static void wl_generic_interval(const struct load_run *r, const struct load_snap *d,
                                double secs, double at_s);
static void wl_cpu_report(const struct load_run *r, const struct load_snap *s, double secs);

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
     .print_mode = io_print_mode,
     .init = io_init,
     .thread_init = io_thread_init,
     .event = io_event_any,
     .thread_done = io_thread_done,
     .done = io_done,
     .report = io_report,
     .interval = io_interval},
    {.name = "cpu",
     .desc = "CPU performance test",
     .opts = opt_cpu,
     .nopts = countof(opt_cpu),
     .print_mode = cpu_print_mode,
     .event = cpu_event,
     .report = wl_cpu_report,
     .interval = wl_generic_interval},
    {.name = "memory",
     .desc = "Memory functions speed test",
     .opts = opt_memory,
     .nopts = countof(opt_memory),
     .own_limit = true,
     .check = mem_check,
     .print_mode = mem_print_mode,
     .init = mem_init,
     .thread_init = mem_thread_init,
     .event = mem_event,
     .thread_done = mem_thread_done,
     .done = mem_done,
     .report = mem_report,
     .interval = mem_interval},
    {.name = "threads",
     .desc = "Threads subsystem performance test",
     .opts = opt_threads,
     .nopts = countof(opt_threads),
     .print_mode = thr_threads_mode,
     .init = thr_threads_init,
     .event = thr_threads_event,
     .done = thr_done,
     .report = thr_report,
     .interval = wl_generic_interval},
    {.name = "mutex",
     .desc = "Mutex performance test",
     .opts = opt_mutex,
     .nopts = countof(opt_mutex),
     .own_limit = true,
     .print_mode = thr_mutex_mode,
     .init = thr_mutex_init,
     .event = thr_mutex_event,
     .done = thr_done,
     .report = thr_report,
     .interval = wl_generic_interval},
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

/*== 14 rep_ : reports in sysbench 1.0.20's layout ==========================*/
/*
 * Every block is line-compatible with sysbench 1.0.20 (spec section 5), so parsers written
 * for it keep working: the run header, interval lines, the histogram, "General statistics",
 * "Latency (ms)" and "Threads fairness". Percentiles are read from the log-linear histogram
 * (within 0.4%) and clamped to the exact min/max; min/avg/max/sum are exact.
 * Several percentiles (--percentile=50,95,99.9) print one line each, in sysbench's shape.
 */

static void rep_banner(const struct bench_opts *o)
{
    if (o->verbosity < 1)
        return;
    if (o->sb)
        printf("sysbench %s (using bench %s)\n\n", BENCH_SB_VERSION, BENCH_VERSION);
    else
        printf("bench %s (sysbench %s compatible)\n\n", BENCH_VERSION, BENCH_SB_VERSION);
}

/* "95th percentile:" / "99.9th percentile:" right-aligned as sysbench's "%3dth". */
static void rep_pct_label(char *out, size_t n, double p)
{
    snprintf(out, n, "%gth percentile:", p);
}

static void rep_header(const struct load_run *r, const struct bench_opts *o)
{
    printf("Running the test with following options:\n");
    printf("Number of threads: %lld\n", (long long)o->threads);
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
    printf("\n");
    if (r->w->print_mode)
        r->w->print_mode(o);
}

static void wl_generic_interval(const struct load_run *r, const struct load_snap *d,
                                double secs, double at_s)
{
    const struct bench_opts *o = r->o;
    int running = atomic_load(&((struct load_run *)r)->running);
    printf("[ %.0fs ] thds: %d eps: %4.2f", at_s, running,
           secs > 0 ? (double)d->events / secs : 0.0);
    if (o->npct) {
        printf(" lat (ms,");
        for (int i = 0; i < o->npct; i++)
            printf("%s%g%%", i ? "," : "", o->pct[i]);
        printf("):");
        for (int i = 0; i < o->npct; i++)
            printf("%s%4.2f", i ? "," : " ",
                   rep_ms(hist_percentile(d->hist, o->pct[i], 0, UINT64_MAX)));
    }
    printf("\n");
}

static void wl_cpu_report(const struct load_run *r, const struct load_snap *s, double secs)
{
    (void)r;
    printf("CPU speed:\n    events per second: %8.2f\n\n",
           secs > 0 ? (double)s->events / secs : 0.0);
}

/* Queue length and concurrency for --rate interval lines. */
static void rep_rate_line(struct load_run *r, const struct load_snap *d, double at_s)
{
    u64 now = clk_now_ns(), next = atomic_load(&r->next_arrival_ns), q = 0;
    if (next < now)
        q = (u64)((double)(now - next) * r->rate / 1e9);
    printf("[ %.0fs ] queue length: %llu concurrency: %d\n", at_s, (unsigned long long)q,
           d->busy);
}

static void rep_interval(struct load_run *r, const struct load_snap *d, double secs,
                         double at_s)
{
    if (r->o->verbosity < 3)
        return;
    if (r->w->interval)
        r->w->interval(r, d, secs, at_s);
    if (r->rate > 0)
        rep_rate_line(r, d, at_s);
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

/* rep_final - the test's own block, "General statistics", "Latency (ms)", "Threads fairness". */
static void rep_final(struct load_run *r, const struct load_snap *cur, u64 t_end_ns,
                      u64 unfinished, bool last)
{
    const struct bench_opts *o = r->o;
    struct load_snap d;
    int n = r->nthreads;
    load_snap_init(&d, n, r->w->nops);
    load_snap_diff(&d, cur, &r->base, n);
    double secs = (double)(t_end_ns - r->base.t_ns) / 1e9;
    double total = (double)(t_end_ns - r->t_measure_ns) / 1e9;
    u64 mn = d.events ? d.lat_min_ns : 0, mx = d.events ? d.lat_max_ns : 0;

    if (last && o->histogram && o->npct)
        rep_histogram(d.hist);
    if (r->w->report)
        r->w->report(r, &d, secs);
    if (unfinished)
        printf("Number of unfinished transactions on forced shutdown: %llu\n\n",
               (unsigned long long)unfinished);
    printf("General statistics:\n");
    printf("    total time:                          %.4fs\n", total);
    printf("    total number of events:              %llu\n\n", (unsigned long long)d.events);
    printf("Latency (ms):\n");
    printf("         min: %39.2f\n", rep_ms(mn));
    printf("         avg: %39.2f\n", d.events ? rep_ms(d.lat_sum_ns) / (double)d.events : 0.0);
    printf("         max: %39.2f\n", rep_ms(mx));
    if (o->npct) {
        for (int i = 0; i < o->npct; i++) {
            char label[40];
            rep_pct_label(label, sizeof(label), o->pct[i]);
            printf("%25s %27.2f\n", label, rep_ms(hist_percentile(d.hist, o->pct[i], mn, mx)));
        }
    } else
        printf("         percentile stats:               disabled\n");
    printf("         sum: %39.2f\n\n", rep_ms(d.lat_sum_ns));

    double ev_avg = 0, ev_var = 0, t_avg = 0, t_var = 0;
    for (int i = 0; i < n; i++) {
        ev_avg += (double)d.thr_events[i] / n;
        t_avg += (double)d.thr_sum_ns[i] / 1e9 / n;
    }
    for (int i = 0; i < n; i++) {
        double a = (double)d.thr_events[i] - ev_avg, b = (double)d.thr_sum_ns[i] / 1e9 - t_avg;
        ev_var += a * a / n;
        t_var += b * b / n;
    }
    printf("Threads fairness:\n");
    printf("    events (avg/stddev):           %.4f/%3.2f\n", ev_avg, sqrt(ev_var));
    printf("    execution time (avg/stddev):   %.4f/%3.2f\n\n", t_avg, sqrt(t_var));

    if (o->debug) {
        printf("DEBUG: Verbose per-thread statistics:\n\n");
        for (int i = 0; i < n; i++) {
            struct load_thread *t = &r->thr[i];
            u64 tmin = atomic_load(&t->lat_min_ns), tmax = atomic_load(&t->lat_max_ns);
            u64 ev = d.thr_events[i];
            printf("DEBUG:     thread #%3d: min: %.4fs  avg: %.4fs  max: %.4fs  events: %llu\n",
                   i, ev ? (double)tmin / 1e9 : 0.0,
                   ev ? (double)d.thr_sum_ns[i] / 1e9 / (double)ev : 0.0,
                   ev ? (double)tmax / 1e9 : 0.0, (unsigned long long)ev);
            printf("DEBUG:                  total time taken by event execution: %.4fs\n",
                   (double)d.thr_sum_ns[i] / 1e9);
        }
        printf("\n");
    }
    fflush(stdout);
    load_snap_free(&d);
}

static void rep_checkpoint(struct load_run *r, const struct load_snap *cur, double at_s)
{
    printf("[ %gs ] Checkpoint report:\n", at_s);
    rep_final(r, cur, cur->t_ns, 0, false);
}

static _Noreturn void rep_forced(struct load_run *r, const struct load_snap *cur)
{
    if (r->o->sb)
        b_msg(B_MSG_FATAL, "The --max-time limit has expired, forcing shutdown...");
    else
        b_msg(B_MSG_FATAL,
              "run: --time=%lld expired %.1f s ago and %d thread(s) are still inside an event; "
              "forcing shutdown (--forced-shutdown=%s), exit %d",
              (long long)r->o->time_s, (double)(cur->t_ns - r->deadline_ns) / 1e9, cur->busy,
              r->o->forced_shutdown, B_EXIT_FAIL);
    rep_final(r, cur, cur->t_ns, (u64)cur->busy, true);
    fflush(stdout);
    _exit(r->o->sb ? B_EXIT_FORCED : B_EXIT_FAIL);
}

/*== 15 cli_ : command line, dispatch, bench_main(), main() =================*/
/*
 * bench [options]... [testname] [command], exactly as sysbench 1.0.20 (spec 1.1, 1.2):
 * options anywhere, the first positional is the test, the second the command. Everything is
 * parsed and validated before anything runs. Invoked as `sysbench` (a symlink), bench is
 * the sysbench it replaces: same banner shape, messages, streams and exit codes. Invoked as
 * `bench`, errors are one "bench: ..." line plus a hint on stderr, with exit codes
 * 0 ok, 1 run failed, 2 usage, 3 environment (docs/cli.md).
 */

#define CLI_MAX_ARGS 1024

struct cli {
    const char *args[CLI_MAX_ARGS]; /* options, in order (argv and --config-file lines) */
    int nargs;
    const char *pos[3];             /* positionals: test, command, extra */
    int npos;
    char *cfg_text;                 /* --config-file contents (args point into it) */
    const struct wl_def *w;         /* the test, once known */
    bool banner_done;               /* the banner has been printed */
};

/* Usage error in the persona's words; returns the persona's exit code. */
static int cli_usage_exit(void)
{
    return opts.sb ? B_EXIT_FAIL : B_EXIT_USAGE;
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

/* Read --config-file: "name = value" lines, '#' comments (sysbench's format). */
static int cli_read_config(struct cli *c, const char *path)
{
    FILE *f = fopen(path, "r");
    struct buf b = {0};
    char line[4096];
    if (!f) {
        int e = errno;
        if (opts.sb)
            printf("FATAL: Cannot open config file '%s': %s\n", path, strerror(e));
        else {
            b_msg(B_MSG_FATAL, "cannot open config file '%s': %s (%s)", path, strerror(e),
                  b_errno_name(e));
            b_msg(B_MSG_HINT, "the file holds lines such as 'threads = 4'");
        }
        return opts.sb ? B_EXIT_FAIL : B_EXIT_ENV;
    }
    /* first pass: build "--name=value\0" strings into one buffer */
    while (fgets(line, sizeof(line), f)) {
        char *p = line, *eq, *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        eq = strchr(p, '=');
        char *ne = eq ? eq : p + strlen(p);
        while (ne > p && isspace((unsigned char)ne[-1]))
            ne--;
        buf_printf(&b, "--%.*s", (int)(ne - p), p);
        if (eq) {
            char *v = eq + 1, *ve;
            while (isspace((unsigned char)*v))
                v++;
            ve = v + strlen(v);
            while (ve > v && isspace((unsigned char)ve[-1]))
                ve--;
            if (ve - v >= 2 && (*v == '"' || *v == '\'') && ve[-1] == *v)
                v++, ve--;
            buf_printf(&b, "=%.*s", (int)(ve - v), v);
        }
        buf_printf(&b, "%c", 0);
    }
    fclose(f);
    c->cfg_text = b.p;
    for (size_t off = 0; off < b.len; off += strlen(b.p + off) + 1) {
        if (c->nargs >= CLI_MAX_ARGS)
            break;
        c->args[c->nargs++] = b.p + off;
    }
    return B_EXIT_OK;
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
 * cli_apply - parse every collected option into opts. Two passes, as sysbench: general
 * options first (their errors come before the banner in the sysbench persona), then the
 * rest. *late is set when the failure is one sysbench reports after its banner.
 */
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
                if (opts.sb) {
                    rep_banner(&opts);
                    c->banner_done = true;
                    fprintf(stderr, "invalid option: %s\n", c->args[i]);
                    return B_EXIT_FAIL;
                }
                if (sug && owner && (!c->w || strcmp(owner, c->w->name)))
                    b_msg(B_MSG_FATAL, "unknown option '%s' (--%s is an option of the '%s' test)",
                          c->args[i], sug, owner);
                else if (sug)
                    b_msg(B_MSG_FATAL, "unknown option '%s' (did you mean '--%s'?)", c->args[i],
                          sug);
                else
                    b_msg(B_MSG_FATAL, "unknown option '%s'", c->args[i]);
                cli_hint_help(c);
                return B_EXIT_USAGE;
            }
            const char *val = eq ? eq + 1 : d->type == OPT_BOOL ? "on" : "";
            int rc = opt_set(d, &opts, val);
            if (rc == OPT_OK)
                continue;
            *late = !general || d->type == OPT_BOOL || (d->flags & OPT_F_SBLATE);
            if (opts.sb && *late)
                rep_banner(&opts), c->banner_done = true;
            if (opts.sb) {
                if (d->type == OPT_BOOL || (!eq && d->type != OPT_STR))
                    fprintf(stderr, "invalid option: %s\n", c->args[i]);
                else if (rc == OPT_RANGE && d->sb_bad) {
                    const char *pc = strstr(d->sb_bad, "%s");
                    printf("FATAL: %.*s%s%s\n", (int)(pc - d->sb_bad), d->sb_bad, val, pc + 2);
                } else {
                    fprintf(stderr, "Invalid value for the '");
                    for (const char *p = d->name; *p; p++)
                        fputc(*p == '-' ? '_' : *p, stderr);
                    fprintf(stderr, "' option: '%s'\n", val);
                }
                return B_EXIT_FAIL;
            }
            struct buf ex = {0};
            opt_expect(&ex, d, false);
            b_msg(B_MSG_FATAL, "--%s: invalid value '%s' (expected %s)", d->name, val, ex.p);
            buf_free(&ex);
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
        if (n < 0 || (o->sb && (n != 1 || o->pct[0] != floor(o->pct[0])))) {
            if (o->sb)
                printf("FATAL: Invalid value for --percentile: %s\n", o->percentile_list);
            else {
                b_msg(B_MSG_FATAL,
                      "--percentile: invalid value '%s' (expected 0, or up to %d percentiles in "
                      "0..100 separated by commas, such as 50,95,99.9)",
                      o->percentile_list, OPT_MAX_PCT);
                cli_hint_help(c);
            }
            return cli_usage_exit();
        }
        qsort(o->pct, (size_t)n, sizeof(double), cli_cmp_double);
        o->npct = (n == 1 && o->pct[0] == 0) ? 0 : n;
        for (int i = 0; i < o->npct; i++)
            if (o->pct[i] == 0) {
                b_msg(B_MSG_FATAL, "--percentile: 0 disables percentiles and cannot be in a "
                                   "list");
                return cli_usage_exit();
            }
    }
    if (o->histogram && !o->npct) {
        if (o->sb)
            printf("FATAL: --histogram cannot be used with --percentile=0\n");
        else {
            b_msg(B_MSG_FATAL, "--histogram needs percentiles, but --percentile=0 disables them");
            b_msg(B_MSG_HINT, "drop --percentile=0 or --histogram");
        }
        return cli_usage_exit();
    }
    /* --report-checkpoints */
    {
        int n = cli_parse_doubles(o->report_checkpoints, o->ckpt, OPT_MAX_CKPT, 0, 1e9);
        if (n < 0) {
            if (o->sb)
                printf("FATAL: Invalid value for --report-checkpoints: %s\n",
                       o->report_checkpoints);
            else {
                b_msg(B_MSG_FATAL,
                      "--report-checkpoints: invalid value '%s' (expected up to %d times in "
                      "seconds separated by commas, such as 10,20)",
                      o->report_checkpoints, OPT_MAX_CKPT);
                cli_hint_help(c);
            }
            return cli_usage_exit();
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
                if (o->sb)
                    printf("FATAL: Invalid value for --forced-shutdown: %s\n", f);
                else {
                    b_msg(B_MSG_FATAL,
                          "--forced-shutdown: invalid value '%s' (expected off, seconds such as "
                          "5, or a percentage of --time such as 10%%)",
                          f);
                    cli_hint_help(c);
                }
                return cli_usage_exit();
            }
            o->forced_s = *end == '%' ? (double)o->time_s * v / 100.0 : v;
        }
    }
    if (o->time_s == 0 && o->events == 0 && (o->sb || !c->w || !c->w->own_limit))
        b_msg(B_MSG_WARN, "Both event and time limits are disabled, running an endless test");
    if (o->debug)
        o->verbosity = 5;
    rnd_params_init(&o->rnd, o->rand_type, (int)o->rand_spec_iter, (int)o->rand_spec_pct,
                    (int)o->rand_spec_res, o->rand_pareto_h, o->rand_zipfian_exp);
    return B_EXIT_OK;
}

static void cli_print_help(void)
{
    const bool sb = opts.sb;
    const char *me = sb ? "sysbench" : "bench";
    printf("Usage:\n  %s [options]... [testname] [command]\n\n", me);
    printf("Commands implemented by most tests: prepare run cleanup help\n\n");
    for (size_t g = 0; g < countof(opt_groups); g++) {
        if (*opt_groups[g].title)
            printf("%s\n", opt_groups[g].title);
        opt_print_help(stdout, opt_groups[g].t, opt_groups[g].n, sb);
        printf("\n");
    }
    printf("Compiled-in tests:\n");
    for (size_t i = 0; i < countof(wl_all); i++)
        printf("  %s - %s\n", wl_all[i].name, wl_all[i].desc);
    printf("\nSee '%s <testname> help' for a list of options for each test.\n\n", me);
    if (!sb)
        printf("Exit status: 0 success, 1 the run failed or its result is invalid, 2 usage "
               "error,\n3 the environment refused (open, connect, memory). See bench(1).\n\n");
}

static void cli_print_version(void)
{
    if (opts.sb) {
        printf("sysbench %s\n", BENCH_SB_VERSION);
        return;
    }
    printf("bench %s (sysbench %s compatible", BENCH_VERSION, BENCH_SB_VERSION);
#ifdef BENCH_HAVE_MBEDTLS
    printf("; mbed TLS %s", MBEDTLS_VERSION_STRING);
#endif
    printf(")\n");
}

/* A failure of a run, from r->err: the bench persona says which test and gives the hint;
 * the sysbench persona prints sysbench's FATAL and WARNING lines. */
static void cli_run_error(const struct wl_def *w, const struct b_err *e, int rc)
{
    const char *msg = e->msg[0] ? e->msg : b_errstr(rc);
    if (opts.sb) {
        b_msg(B_MSG_FATAL, "%s", msg);
        if (e->hint[0])
            b_msg(B_MSG_WARN, "%s", e->hint);
        return;
    }
    b_msg(B_MSG_FATAL, "%s: %s", w->name, msg);
    if (e->hint[0])
        b_msg(B_MSG_HINT, "%s", e->hint);
}

/* The `run` command. */
static int cli_run(const struct wl_def *w)
{
    struct load_run r;
    static const struct load_hooks hooks = {rep_interval, rep_checkpoint, rep_forced};
    int rc, ex = B_EXIT_OK;

    load_run_init(&r, w, &opts);
    rep_header(&r, &opts);
    rc = w->init ? w->init(&r) : B_OK;
    if (rc == B_OK) {
        printf("Initializing worker threads...\n\n");
        fflush(stdout);
        rc = load_start(&r);
    }
    if (rc < 0) {
        cli_run_error(w, &r.err, rc);
        if (opts.debug)
            printf("DEBUG: %s failed with %s\n", w->name, b_errname(rc));
        if (w->done)
            w->done(&r);
        load_run_free(&r);
        return opts.sb ? B_EXIT_FAIL : B_EXIT_ENV;
    }
    load_go(&r);
    printf("Threads started!\n\n");
    fflush(stdout);
    load_run_main(&r, &hooks);
    u64 t_end = clk_now_ns();
    struct load_snap cur;
    load_snap_init(&cur, r.nthreads, w->nops);
    load_snapshot(&r, &cur);
    cur.t_ns = t_end;

    if (opts.verbosity >= 4) {
        int n[3] = {0, 0, 0};
        for (int i = 0; i < r.nthreads; i++)
            n[r.thr[i].end_why]++;
        for (int k = 1; k < 3; k++)
            if (n[k]) {
                printf("%s limit exceeded, exiting...\n", k == LOAD_END_TIME ? "Time" : "Event");
                if (n[k] > 1)
                    printf("(last message repeated %d times)\n", n[k] - 1);
            }
        printf("Done.\n\n");
    }
    if (atomic_load(&r.queue_full)) {
        b_msg(B_MSG_FATAL, "The event queue is full. This means the worker threads are unable "
                           "to keep up with the specified event generation rate");
        b_msg(B_MSG_HINT, "lower --rate or add --threads; the results would hide the backlog");
        ex = B_EXIT_FAIL;
    } else if (atomic_load(&r.failed)) {
        cli_run_error(w, &r.err, atomic_load(&r.failed));
        ex = B_EXIT_FAIL;
    } else {
        if (atomic_load(&b_stop) && !opts.sb)
            b_msg(B_MSG_WARN, "interrupted; the report covers the run until the signal");
        rep_final(&r, &cur, t_end, 0, true);
        if (atomic_load(&b_stop))
            ex = B_EXIT_FAIL;
    }
    if (w->done)
        w->done(&r);
    load_snap_free(&cur);
    load_run_free(&r);
    return ex;
}

static void cli_banner(struct cli *c)
{
    if (!c->banner_done)
        rep_banner(&opts);
    c->banner_done = true;
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

static int cli_main(int argc, char **argv);

/* bench_main - the whole program; main() only calls it (tests include bench.c). */
static int bench_main(int argc, char **argv)
{
    int ex = cli_main(argc, argv);
    fflush(stdout);
    cli_free_opts();
    return ex;
}

static int cli_main(int argc, char **argv)
{
    struct cli c;
    const char *me = strrchr(argv[0], '/');
    bool late;
    int ex;

    memset(&c, 0, sizeof(c));
    memset(&opts, 0, sizeof(opts));
    me = me ? me + 1 : argv[0];
    opts.sb = !strncmp(me, "sysbench", 8);
    setvbuf(stdout, NULL, _IOLBF, 0);

    for (size_t g = 0; g < countof(opt_groups); g++)
        opt_defaults(opt_groups[g].t, opt_groups[g].n, &opts);
    for (size_t i = 0; i < countof(wl_all); i++)
        opt_defaults(wl_all[i].opts, wl_all[i].nopts, &opts);

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "--", 2) && a[2]) {
            if (!strncmp(a, "--config-file=", 14) || !strncmp(a, "--config_file=", 14)) {
                if ((ex = cli_read_config(&c, a + 14)) != B_EXIT_OK)
                    return ex;
                continue;
            }
            if (!strncmp(a, "--test=", 7)) {
                fprintf(stderr, "WARNING: the --test option is deprecated. You can pass a "
                                "script name or path on the command line without any "
                                "options.\n");
            }
            if (c.nargs >= CLI_MAX_ARGS) {
                b_msg(B_MSG_FATAL, "too many options (at most %d)", CLI_MAX_ARGS);
                return cli_usage_exit();
            }
            c.args[c.nargs++] = a;
        } else if (c.npos < 3) {
            c.pos[c.npos++] = a;
        }
    }
    /* --test=NAME (0.4 syntax) supplies the test name: the positional is then the command */
    const char *test = NULL, *cmd = NULL;
    for (int i = 0; i < c.nargs; i++)
        if (!strncmp(c.args[i], "--test=", 7))
            test = c.args[i] + 7;
    int first_cmd = test ? 0 : 1;
    if (!test && c.npos > 0)
        test = c.pos[0];
    if (c.npos > first_cmd)
        cmd = c.pos[first_cmd];
    if (c.npos > first_cmd + 1) {
        if (opts.sb)
            fprintf(stderr, "Unrecognized command line argument: %s\n", c.pos[first_cmd + 1]);
        else {
            b_msg(B_MSG_FATAL, "unexpected argument '%s' (the syntax is: bench [options]... "
                               "[testname] [command])",
                  c.pos[first_cmd + 1]);
            b_msg(B_MSG_HINT, "options take the form --name=value, with no space");
        }
        free(c.cfg_text);
        return cli_usage_exit();
    }
    if (test)
        c.w = wl_find(test);

    ex = cli_apply(&c, &late);
    if (ex == B_EXIT_OK)
        ex = cli_derive(&c);
    if (ex != B_EXIT_OK && (!late || !opts.sb)) {
        free(c.cfg_text);
        return ex;
    }
    if (ex == B_EXIT_OK && opts.help) {
        cli_print_help();
        free(c.cfg_text);
        return B_EXIT_OK;
    }
    if (ex == B_EXIT_OK && opts.version) {
        cli_print_version();
        free(c.cfg_text);
        return B_EXIT_OK;
    }
    if (!opts.sb && ex == B_EXIT_OK) {
        /* the bench persona checks the test and command before it prints anything */
        if (test && !c.w) {
            const char *best = NULL;
            size_t bd = SIZE_MAX;
            for (size_t i = 0; i < countof(wl_all); i++) {
                size_t d = opt_edit_distance(test, strlen(test), wl_all[i].name,
                                             strlen(wl_all[i].name));
                if (d < bd)
                    bd = d, best = wl_all[i].name;
            }
            if (bd <= 2)
                b_msg(B_MSG_FATAL, "unknown test '%s' (did you mean '%s'?)", test, best);
            else
                b_msg(B_MSG_FATAL, "unknown test '%s': no such built-in test", test);
            b_msg(B_MSG_HINT, "the tests are listed by 'bench --help'");
            free(c.cfg_text);
            return B_EXIT_USAGE;
        }
    }
    if (ex == B_EXIT_OK && !test) {
        cli_print_help();
        free(c.cfg_text);
        return B_EXIT_OK;
    }
    if (opts.verbosity < 3) {
        /* sysbench prints everything but warnings and errors at NOTICE level (3): keep a
         * stream for messages and send the rest of stdout to /dev/null */
        int fd = dup(1);
        opts.msg_out = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (opts.msg_out && !freopen("/dev/null", "w", stdout))
            b_die("cannot reopen stdout on /dev/null: %s", strerror(errno));
    }
    if (opts.sb) /* the bench persona prints its banner only once all checks passed */
        cli_banner(&c);
    if (ex != B_EXIT_OK) { /* a sysbench error that comes after its banner */
        free(c.cfg_text);
        return ex;
    }
    if (!c.w) {
        printf("FATAL: Cannot find benchmark '%s': no such built-in test, file or module\n",
               test);
        free(c.cfg_text);
        return B_EXIT_FAIL;
    }
    if (!cmd) {
        if (opts.sb)
            fprintf(stderr, "The '%s' test requires a command argument. See 'sysbench %s help'\n",
                    c.w->name, c.w->name);
        else {
            b_msg(B_MSG_FATAL, "the '%s' test needs a command: run or help", c.w->name);
            b_msg(B_MSG_HINT, "try 'bench %s run'", c.w->name);
        }
        free(c.cfg_text);
        return cli_usage_exit();
    }
    if (!strcmp(cmd, "help")) {
        cli_banner(&c);
        printf("%s options:\n", c.w->name);
        opt_print_help(stdout, c.w->opts, c.w->nopts, opts.sb);
        printf("\n");
        free(c.cfg_text);
        return B_EXIT_OK;
    }
    if ((!strcmp(cmd, "prepare") && c.w->prepare) || (!strcmp(cmd, "cleanup") && c.w->cleanup)) {
        if (c.w->check_common && (ex = c.w->check_common(&opts)) != B_EXIT_OK) {
            free(c.cfg_text);
            return ex;
        }
        cli_banner(&c);
        ex = !strcmp(cmd, "prepare") ? c.w->prepare(&opts) : c.w->cleanup(&opts);
        free(c.cfg_text);
        return ex;
    }
    if (!strcmp(cmd, "prepare") || !strcmp(cmd, "cleanup")) {
        if (opts.sb)
            fprintf(stderr, "'%s' test does not implement the '%s' command.\n", c.w->name, cmd);
        else {
            b_msg(B_MSG_FATAL, "the '%s' test does not implement the '%s' command (it needs no "
                               "files or tables)",
                  c.w->name, cmd);
            b_msg(B_MSG_HINT, "try 'bench %s run'", c.w->name);
        }
        free(c.cfg_text);
        return cli_usage_exit();
    }
    if (strcmp(cmd, "run")) {
        if (opts.sb)
            fprintf(stderr, "Unknown command: %s\n", cmd);
        else {
            b_msg(B_MSG_FATAL, "unknown command '%s' for the '%s' test", cmd, c.w->name);
            b_msg(B_MSG_HINT, "the commands are prepare, run, cleanup and help");
        }
        free(c.cfg_text);
        return cli_usage_exit();
    }
    if (c.w->check && (ex = c.w->check(&opts)) != B_EXIT_OK) {
        free(c.cfg_text);
        return ex;
    }
    cli_banner(&c);
    srandom(opts.rand_seed ? (unsigned)opts.rand_seed : (unsigned)time(NULL));
    os_install_signals();
    ex = cli_run(c.w);
    free(c.cfg_text);
    return ex;
}

#ifndef BENCH_NO_MAIN
int main(int argc, char **argv)
{
    return bench_main(argc, argv);
}
#endif
