/* rnd_: the generator and the statistical shape of each distribution (spec 1.4). */

static int t_rnd_vector(void)
{
    /* xoroshiro128+ from state {1, 2}, worked by hand from the step in spec 1.4 */
    struct rnd r = {{1, 2}};
    T_CHECK(rnd_next(&r) == 3);
    T_CHECK(rnd_next(&r) == 36029003177443331ull);
    T_CHECK(rnd_next(&r) == 78883775479546723ull);
    for (int i = 0; i < 100000; i++) {
        double d = rnd_double(&r);
        T_CHECK(d >= 0 && d < 1);
    }
    rnd_libc_srandom(42);
    struct rnd a, b;
    rnd_seed(&a);
    rnd_libc_srandom(42);
    rnd_seed(&b);
    T_CHECK(a.s[0] == b.s[0] && a.s[1] == b.s[1]); /* --rand-seed makes runs reproducible */
    return 0;
}

/* glibc's random() stream, whatever the libc: the values glibc 2.36 prints for srandom(7), for
 * srandom(0) (= 1) and unseeded (= srandom(1)); musl's random() gives others */
static int t_rnd_glibc(void)
{
    static const long s7[4] = {1045618677, 1863967299, 1272579899, 461085871};
    static const long s1[6] = {1804289383, 846930886, 1681692777, 1714636915, 1957747793,
                               424238335};
    rnd_libc_srandom(7);
    for (int i = 0; i < 4; i++)
        T_CHECK(rnd_libc_random() == s7[i]);
    rnd_libc_srandom(0);
    for (int i = 0; i < 6; i++)
        T_CHECK(rnd_libc_random() == s1[i]);
    rnd_libc_srandom(7); /* a thread's xoroshiro128+ state: two calls per word, high first */
    struct rnd r;
    rnd_seed(&r);
    T_CHECK(r.s[0] == ((u64)1045618677 << 32 | 1863967299));
    T_CHECK(r.s[1] == ((u64)1272579899 << 32 | 461085871));
    return 0;
}

/* sysbench.rand.unique(): the ids Debian's sysbench 1.0.20 inserted (oltp_insert --auto-inc=off,
 * plus 2^31) after its random() calls gave offset 1775026555 and index 1322886768 (traced) */
static int t_rnd_unique(void)
{
    struct rnd_unique u;
    rnd_unique_init(&u, 1322886768u, 1775026555u);
    T_CHECK(rnd_unique(&u) == 3234328538u);
    T_CHECK(rnd_unique(&u) == 3527582379u);
    T_CHECK(rnd_unique(&u) == 734586641u);
    rnd_unique_init(&u, 0, 0); /* no repeats over a stretch */
    u32 seen[4096];
    for (int i = 0; i < 4096; i++) {
        seen[i] = rnd_unique(&u);
        for (int j = 0; j < i; j++)
            T_CHECK(seen[j] != seen[i]);
    }
    return 0;
}

static int t_rnd_u32_cmp(const void *a, const void *b)
{
    u32 x = *(const u32 *)a, y = *(const u32 *)b;
    return x < y ? -1 : x > y;
}

/* sb_rand_init's draws from a run's seed: after srandom(1) glibc gives 1804289383, 846930886,
 * 1681692777, 1714636915 (the main thread's xoroshiro128+), then 1957747793 (rand_unique_seed's
 * offset, its second argument, evaluated first) and 424238335 (its index) */
static int t_rnd_unique_seed(void)
{
    struct rnd_unique a, b;
    rnd_unique_seed(&a, 1);
    rnd_unique_init(&b, 424238335u, 1957747793u);
    for (int i = 0; i < 1000; i++)
        T_CHECK(rnd_unique(&a) == rnd_unique(&b));
    rnd_unique_seed(&a, 0); /* srandom(0) is srandom(1) */
    rnd_unique_init(&b, 424238335u, 1957747793u);
    T_CHECK(rnd_unique(&a) == rnd_unique(&b));
    rnd_unique_seed(&a, 2);
    T_CHECK(rnd_unique(&a) != rnd_unique(&b));
    /* the private stream is the process-wide one, and leaves it alone */
    struct rnd_glibc g;
    rnd_glibc_srandom(&g, 7);
    rnd_libc_srandom(7);
    for (int i = 0; i < 1000; i++)
        T_CHECK((long)rnd_glibc_random(&g) == rnd_libc_random());
    return 0;
}

/* 4 million draws: no repeats, spread evenly over the int32 range (ids are value - 2^31) */
static int t_rnd_unique_spread(void)
{
    enum { N = 4 << 20, K = 64 };
    u32 *v = malloc((size_t)N * sizeof(*v));
    u64 cnt[K] = {0};
    T_CHECK(v != NULL);
    struct rnd_unique u;
    rnd_unique_seed(&u, 12345);
    for (u32 i = 0; i < N; i++) {
        v[i] = rnd_unique(&u);
        i64 id = (i64)v[i] - 2147483648LL;
        cnt[(u64)(id + 2147483648LL) >> 26]++;
    }
    qsort(v, N, sizeof(*v), t_rnd_u32_cmp);
    u32 dups = 0;
    for (u32 i = 1; i < N; i++)
        dups += v[i] == v[i - 1];
    u32 lo = v[0], hi = v[N - 1];
    free(v);
    T_CHECK(dups == 0);
    T_CHECK(lo < (1u << 12) && hi > 0xffffffffu - (1u << 12)); /* both ends of the range */
    double chi2 = 0, e = (double)N / K;
    for (int k = 0; k < K; k++)
        chi2 += ((double)cnt[k] - e) * ((double)cnt[k] - e) / e;
    T_CHECK(chi2 < 103.4); /* df = 63, p = 0.001 */
    return 0;
}

/* --client-count lanes: client i of n draws the run's sequence at indices i, i + n, ...: 4
 * clients of a million draws each never meet, and together are the one-client sequence */
static int t_rnd_unique_lanes(void)
{
    enum { C = 4, N = 1 << 20 };
    u32 *v = malloc((size_t)C * N * sizeof(*v));
    T_CHECK(v != NULL);
    struct rnd_unique one, lane[C];
    rnd_unique_seed(&one, 99);
    for (u32 c = 0; c < C; c++) {
        rnd_unique_seed(&lane[c], 99);
        rnd_unique_lane(&lane[c], c, C);
    }
    u32 bad = 0;
    for (u32 k = 0; k < N; k++)
        for (u32 c = 0; c < C; c++) {
            u32 x = rnd_unique(&lane[c]);
            v[k * C + c] = x;
            bad += x != rnd_unique(&one);
        }
    qsort(v, (size_t)C * N, sizeof(*v), t_rnd_u32_cmp);
    u32 dups = 0;
    for (u32 i = 1; i < (u32)C * N; i++)
        dups += v[i] == v[i - 1];
    free(v);
    T_CHECK(bad == 0);
    T_CHECK(dups == 0);
    /* the clients' own seeds: client 0 keeps the run's, the others differ from it and each
     * other */
    T_CHECK(rnd_client_seed(42, 0) == 42 && rnd_client_seed(42, -1) == 42);
    unsigned s[256];
    for (int i = 0; i < 256; i++) {
        s[i] = rnd_client_seed(42, i);
        T_CHECK(s[i] != 0);
        for (int j = 0; j < i; j++)
            T_CHECK(s[j] != s[i]);
    }
    return 0;
}

static int t_rnd_uniform_chi2(void)
{
    struct rnd r = {{3, 4}};
    struct rnd_params p;
    enum { N = 200000, K = 10 };
    u64 cnt[K] = {0};
    rnd_params_init(&p, RND_UNIFORM, 12, 1, 75, 0.2, 0.8);
    for (int i = 0; i < N; i++) {
        u32 x = rnd_default(&r, &p, 1, 10);
        T_CHECK(x >= 1 && x <= 10);
        cnt[x - 1]++;
    }
    double chi2 = 0, e = (double)N / K;
    for (int k = 0; k < K; k++)
        chi2 += ((double)cnt[k] - e) * ((double)cnt[k] - e) / e;
    T_CHECK(chi2 < 27.9); /* df = 9, p = 0.001 */
    return 0;
}

static int t_rnd_gaussian(void)
{
    struct rnd r = {{5, 6}};
    struct rnd_params p;
    enum { N = 200000 };
    double sum = 0, sq = 0;
    int in1 = 0;
    rnd_params_init(&p, RND_GAUSSIAN, 12, 1, 75, 0.2, 0.8);
    for (int i = 0; i < N; i++) {
        double x = rnd_default(&r, &p, 1, 10000);
        T_CHECK(x >= 1 && x <= 10000);
        sum += x;
        sq += x * x;
    }
    double mean = sum / N, sd = sqrt(sq / N - mean * mean);
    /* Irwin-Hall of 12: mean mid-range, sd = range / sqrt(12 * 12) */
    T_CHECK(t_rel(mean, 5000.5) < 0.01);
    T_CHECK(t_rel(sd, 10000.0 / 12.0) < 0.03);
    for (int i = 0; i < N; i++) {
        double x = rnd_default(&r, &p, 1, 10000);
        in1 += fabs(x - 5000.5) <= 10000.0 / 12.0;
    }
    T_CHECK(fabs((double)in1 / N - 0.683) < 0.02); /* about 68% within one sd */
    return 0;
}

static int t_rnd_special(void)
{
    struct rnd r = {{7, 8}};
    struct rnd_params p;
    enum { N = 200000 };
    int hot = 0;
    rnd_params_init(&p, RND_SPECIAL, 12, 1, 75, 0.2, 0.8);
    for (int i = 0; i < N; i++) {
        u32 x = rnd_default(&r, &p, 1, 10000);
        T_CHECK(x >= 1 && x <= 10000);
        hot += x >= 4975 && x <= 5051;
    }
    /* spec 1.4: about 76% of draws fall in the ~77 ids around the middle */
    T_CHECK(fabs((double)hot / N - 0.76) < 0.02);
    return 0;
}

static int t_rnd_pareto(void)
{
    struct rnd r = {{9, 10}};
    struct rnd_params p;
    enum { N = 200000 };
    int low = 0;
    rnd_params_init(&p, RND_PARETO, 12, 1, 75, 0.2, 0.8);
    for (int i = 0; i < N; i++) {
        u32 x = rnd_default(&r, &p, 1, 10000);
        T_CHECK(x >= 1 && x <= 10000);
        low += x <= 2000;
    }
    T_CHECK(fabs((double)low / N - 0.80) < 0.02); /* the 80/20 rule for h = 0.2 */
    return 0;
}

static int t_rnd_zipfian(void)
{
    static const double exps[] = {0.8, 1.0, 1.5};
    for (size_t k = 0; k < countof(exps); k++) {
        struct rnd r = {{11, 12 + k}};
        struct rnd_params p;
        enum { N = 400000 };
        static u64 cnt[1001];
        memset(cnt, 0, sizeof(cnt));
        rnd_params_init(&p, RND_ZIPFIAN, 12, 1, 75, 0.2, exps[k]);
        for (int i = 0; i < N; i++) {
            u32 x = rnd_default(&r, &p, 1, 1000);
            T_CHECK(x >= 1 && x <= 1000);
            cnt[x]++;
        }
        /* P(rank i) ~ i^-e: rank 1 / rank 2 = 2^e, rank 1 / rank 4 = 4^e */
        T_CHECK(t_rel((double)cnt[1] / (double)cnt[2], pow(2, exps[k])) < 0.05);
        T_CHECK(t_rel((double)cnt[1] / (double)cnt[4], pow(4, exps[k])) < 0.08);
    }
    return 0;
}

static int t_rnd_exp_gap(void)
{
    struct rnd r = {{13, 14}};
    double sum = 0;
    for (int i = 0; i < 100000; i++)
        sum += (double)rnd_exp_gap_ns(&r, 1000.0);
    T_CHECK(t_rel(sum / 100000, 1e6) < 0.02); /* mean gap 1/rate = 1 ms */
    return 0;
}
