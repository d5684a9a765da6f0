/* hist_: bucket geometry, percentiles against exact sorted samples, merging. */

static int t_hist_bucket_bounds(void)
{
    struct rnd r = {{12345, 67890}};
    unsigned prev = 0;
    for (u64 v = 0; v < 70000; v++) { /* exhaustive over the small range: monotonic */
        unsigned i = hist_index(v);
        T_CHECK(i >= prev);
        T_CHECK(hist_bucket_lo(i) <= v && v < hist_bucket_hi(i));
        prev = i;
    }
    for (int k = 0; k < 200000; k++) { /* random values over the whole range */
        u64 v = rnd_next(&r) >> (rnd_next(&r) % 64);
        unsigned i = hist_index(v);
        T_CHECK(i < HIST_NBUCKETS);
        if (i == HIST_NBUCKETS - 1)
            continue;
        u64 lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);
        T_CHECK(lo <= v && v < hi);
        T_CHECK(lo < 256 || (double)(hi - lo) / (double)lo <= 1.0 / 128 + 1e-12);
        T_CHECK(hist_index(lo) == i && hist_index(hi - 1) == i);
    }
    return 0;
}

static int t_cmp_u64(const void *a, const void *b)
{
    u64 x = *(const u64 *)a, y = *(const u64 *)b;
    return (x > y) - (x < y);
}

/* lognormal-ish latencies around 200 us with a long tail */
static u64 t_sample(struct rnd *r)
{
    double u1 = rnd_double(r) + 1e-12, u2 = rnd_double(r);
    double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
    return (u64)(200000.0 * exp(1.2 * z)) + 1;
}

static int t_hist_percentile_exact(void)
{
    enum { N = 100000 };
    static const double ps[] = {0.1, 1, 25, 50, 90, 95, 99, 99.9, 99.99, 100};
    struct rnd r = {{1, 2}};
    u64 *v = b_xmalloc(N * sizeof(u64)), mn = UINT64_MAX, mx = 0;
    struct hist *h = b_xcalloc(1, sizeof(*h));
    for (int i = 0; i < N; i++) {
        v[i] = t_sample(&r);
        hist_record(h, v[i]);
        mn = B_MIN(mn, v[i]);
        mx = B_MAX(mx, v[i]);
    }
    qsort(v, N, sizeof(u64), t_cmp_u64);
    T_CHECK(hist_total(h) == N);
    for (size_t k = 0; k < countof(ps); k++) {
        size_t rank = (size_t)ceil(ps[k] / 100.0 * N); /* nearest rank */
        double exact = (double)v[rank - 1], got = (double)hist_percentile(h, ps[k], mn, mx);
        if (t_rel(got, exact) > 0.004)
            fprintf(stderr, "  p%g: exact %.0f, histogram %.0f\n", ps[k], exact, got);
        T_CHECK(t_rel(got, exact) <= 0.004); /* docs/cli.md: within 0.4% */
    }
    T_CHECK(hist_percentile(h, 100, mn, mx) == mx);
    /* the report's invariants: min <= every percentile <= max, monotone in p */
    u64 prev = mn;
    for (double p = 0.5; p <= 100; p += 0.5) {
        u64 q = hist_percentile(h, p, mn, mx);
        T_CHECK(q >= mn && q <= mx);
        T_CHECK(q >= prev);
        prev = q;
    }
    free(v);
    free(h);
    return 0;
}

static int t_hist_merge_sub(void)
{
    struct rnd r = {{7, 9}};
    struct hist *a = b_xcalloc(1, sizeof(*a)), *b = b_xcalloc(1, sizeof(*b));
    struct hist *all = b_xcalloc(1, sizeof(*all)), *m = b_xcalloc(1, sizeof(*m));
    for (int i = 0; i < 50000; i++) {
        u64 x = t_sample(&r);
        hist_record(i % 3 ? a : b, x);
        hist_record(all, x);
    }
    hist_add(m, a);
    hist_add(m, b);
    T_CHECK(memcmp(m, all, sizeof(*m)) == 0); /* merged = recorded together, exactly */
    T_CHECK(hist_percentile(m, 99, 0, UINT64_MAX) == hist_percentile(all, 99, 0, UINT64_MAX));
    hist_sub(m, b);
    T_CHECK(memcmp(m, a, sizeof(*m)) == 0);
    T_CHECK(hist_total(m) == hist_total(a));
    free(a), free(b), free(all), free(m);
    return 0;
}

static int t_hist_edges(void)
{
    struct hist *h = b_xcalloc(1, sizeof(*h));
    T_CHECK(hist_percentile(h, 95, 0, UINT64_MAX) == 0); /* empty */
    hist_record(h, 5);
    T_CHECK(hist_percentile(h, 50, 5, 5) == 5); /* exact below 256 ns */
    hist_record(h, UINT64_MAX);                  /* saturates into the last bucket */
    T_CHECK(hist_index(UINT64_MAX) == HIST_NBUCKETS - 1);
    T_CHECK(hist_percentile(h, 100, 5, UINT64_MAX - 1) == UINT64_MAX - 1);
    free(h);
    return 0;
}
