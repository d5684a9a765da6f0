/*
 * Exact values where the suite accepted wrong ones (issue 9, mutation testing): the
 * histogram's nearest rank and bucket midpoint, the final report of a synthetic run printed
 * byte for byte, a login with an empty password against a real server.
 */

/* Capture what fn(arg) prints on stdout into out (NUL-terminated); 0 on success. */
static int t_capture(void (*fn)(void *), void *arg, char *out, size_t n)
{
    FILE *f = tmpfile();
    if (!f)
        return -1;
    fflush(stdout);
    int saved = dup(1);
    if (saved < 0 || dup2(fileno(f), 1) < 0)
        return -1;
    fn(arg);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(f);
    size_t got = fread(out, 1, n - 1, f);
    out[got] = 0;
    fclose(f);
    return 0;
}

/* Nearest rank, exactly: below 256 ns every value has its own bucket, so 1..100 ns give
 * p = k -> k ns. Above, the answer is the midpoint of the bucket holding the exact
 * nearest-rank sample (within 1/256 of it, as the docs promise), clamped to min/max. */
static int t_exact_hist_rank_midpoint(void)
{
    struct hist *h = b_xcalloc(1, sizeof(*h));
    for (u64 v = 1; v <= 100; v++)
        hist_record(h, v);
    static const struct {
        double p;
        u64 want;
    } t[] = {{1, 1}, {2, 2}, {25, 25}, {50, 50}, {50.5, 51}, {95, 95}, {99, 99}, {99.5, 100},
             {100, 100}};
    for (size_t i = 0; i < countof(t); i++) {
        u64 got = hist_percentile(h, t[i].p, 1, 100);
        if (got != t[i].want)
            fprintf(stderr, "  p%g: got %llu, want %llu\n", t[i].p, (unsigned long long)got,
                    (unsigned long long)t[i].want);
        T_CHECK(got == t[i].want);
    }
    free(h);

    enum { N = 20000 };
    static const double ps[] = {1, 10, 25, 50, 75, 90, 95, 99, 99.9};
    struct rnd r = {{3, 4}};
    u64 *v = b_xmalloc(N * sizeof(u64)), mn = UINT64_MAX, mx = 0;
    h = b_xcalloc(1, sizeof(*h));
    for (int i = 0; i < N; i++) {
        v[i] = 300000 + rnd_next(&r) % 5000000; /* 0.3 .. 5.3 ms */
        hist_record(h, v[i]);
        mn = B_MIN(mn, v[i]);
        mx = B_MAX(mx, v[i]);
    }
    qsort(v, N, sizeof(u64), t_cmp_u64);
    for (size_t k = 0; k < countof(ps); k++) {
        u64 exact = v[(size_t)ceil(ps[k] / 100.0 * N) - 1];
        unsigned b = hist_index(exact);
        u64 mid = hist_bucket_lo(b) + (hist_bucket_hi(b) - 1 - hist_bucket_lo(b)) / 2;
        u64 got = hist_percentile(h, ps[k], mn, mx);
        T_CHECK(got == B_MIN(B_MAX(mid, mn), mx));
        T_CHECK(t_rel((double)got, (double)exact) <= 1.0 / 256);
    }
    free(v);
    free(h);
    return 0;
}

struct t_rep_arg {
    struct res *res;
    struct res_stats *st;
};

static void t_rep_final_call(void *a)
{
    struct t_rep_arg *x = a;
    rep_final(x->res, x->st, true);
}

/* A synthetic cpu run, 2 threads, started at 0 with 1 s of warmup, measured from 1 s to 3 s:
 * thread 0 one event of 1 ms, thread 1 three events of 2, 3 and 4 ms. Every figure of the report is known exactly, and so is its layout
 * (sysbench 1.0.20's widths: "%8.2f" events per second, "%39.2f" latencies, "%27.2f"
 * percentiles). */
static int t_exact_rep_final(void)
{
    static const char *const kv[] = {"threads=2", NULL};
    static const char want[] = "CPU speed:\n"
                               "    events per second:     2.00\n"
                               "\n"
                               "General statistics:\n"
                               "    total time:                          2.0000s\n"
                               "    total number of events:              4\n"
                               "\n"
                               "Latency (ms):\n"
                               "         min:                                    1.00\n"
                               "         avg:                                    2.50\n"
                               "         max:                                    4.00\n"
                               "         95th percentile:                        4.00\n"
                               "         50th percentile:                        2.00\n"
                               "         sum:                                   10.00\n"
                               "\n"
                               "Threads fairness:\n"
                               "    events (avg/stddev):           2.0000/1.00\n"
                               "    execution time (avg/stddev):   0.0050/0.00\n"
                               "\n";
    struct bench_opts o;
    struct load_run r;
    struct load_snap cur;
    char out[4096];
    T_CHECK(t_opts(&o, kv) == 0);
    o.npct = 2;
    o.pct[1] = 50;
    load_run_init(&r, wl_find("cpu"), &o);
    r.t_start_ns = 0;
    r.t_measure_ns = r.base.t_ns = 1000000000u;
    res_snap_init(&cur, 2, 0);
    cur.events = 4;
    cur.lat_min_ns = 1000000, cur.lat_max_ns = 4000000, cur.lat_sum_ns = 10000000;
    cur.thr_events[0] = 1, cur.thr_events[1] = 3;
    cur.thr_sum_ns[0] = 1000000, cur.thr_sum_ns[1] = 9000000;
    for (u64 ms = 1; ms <= 4; ms++)
        hist_record(cur.hist, ms * 1000000);
    cur.t_ns = 3000000000u;
    struct res res;
    struct res_stats st;
    res_init(&res, r.w, "run", &o, NULL);
    res_stats_from(&st, &r, &cur, cur.t_ns);
    struct t_rep_arg a = {&res, &st};
    T_CHECK(t_capture(t_rep_final_call, &a, out, sizeof(out)) == 0);
    res_stats_free(&st);
    res_free(&res);
    if (strcmp(out, want))
        fprintf(stderr, "  got:\n%s  want:\n%s", out, want);
    T_CHECK(!strcmp(out, want));
    res_snap_free(&cur);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

/* A user IDENTIFIED BY '' (tests/mariadb.sh creates 'nopw'): mysql_native_password must send
 * an empty auth response, not the scramble of an empty string (the server answers 1045). */
static int t_exact_live_empty_password(void)
{
    struct myc_params p;
    struct my_conn c;
    T_LIVE_OR_SKIP(&p, "nopw", "", MYC_SSL_DISABLED);
    p.db = NULL;
    int rc = myc_connect(&c, &p);
    if (rc != B_OK)
        fprintf(stderr, "  nopw login: %s\n", c.err.msg);
    T_CHECK(rc == B_OK && !strcmp(c.plugin, "mysql_native_password"));
    T_CHECK(myc_ping(&c) == B_OK);
    myc_close(&c);
    p.password = NULL; /* no -p at all: the same empty response */
    T_CHECK(myc_connect(&c, &p) == B_OK);
    myc_close(&c);
    p.password = "x"; /* and a wrong password is refused */
    T_CHECK(myc_connect(&c, &p) == B_SERVER && c.srv_code == 1045);
    return 0;
}

/* The seeding of sysbench 1.0.20 (spec sysbench.md, the generator): each state word is two
 * glibc random() calls (rnd_libc_random, also under musl), the first as the high 32 bits,
 * so --rand-seed=N draws sysbench's ids. */
static int t_exact_rnd_seed(void)
{
    rnd_libc_srandom(42);
    u64 w[4];
    for (int i = 0; i < 4; i++)
        w[i] = (u64)rnd_libc_random();
    rnd_libc_srandom(42);
    struct rnd a;
    rnd_seed(&a);
    T_CHECK(a.s[0] == (w[0] << 32 | w[1]) && a.s[1] == (w[2] << 32 | w[3]));
    return 0;
}
