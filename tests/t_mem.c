/* mem_, thr_: bench's own memory and scheduler measures (stream, latency, ping-pong). */

/* The four kernels compute STREAM's values; the byte counts are STREAM's. */
static int t_mem_stream_kernels(void)
{
    enum { N = 1001 };
    static double a[N], b[N], c[N];
    mem_stream_init(a, b, c, N);
    T_CHECK(a[0] == 2.0 && b[N - 1] == 2.0 && c[7] == 0.0);
    mem_stream_kernel(MEM_COPY, a, b, c, N);
    T_CHECK(c[0] == 2.0 && c[N - 1] == 2.0);
    mem_stream_kernel(MEM_SCALE, a, b, c, N);
    T_CHECK(b[0] == 6.0 && b[N - 1] == 6.0);
    mem_stream_kernel(MEM_ADD, a, b, c, N);
    T_CHECK(c[0] == 8.0 && c[N - 1] == 8.0);
    mem_stream_kernel(MEM_TRIAD, a, b, c, N);
    T_CHECK(a[0] == 30.0 && a[N - 1] == 30.0);
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(mem_stream_check_k(a, b, c, N, 4, &e) == B_OK);
    for (int p = 1; p < 10; p++)
        for (int k = 0; k < MEM_NKERNELS; k++)
            mem_stream_kernel(k, a, b, c, N);
    T_CHECK(mem_stream_check_k(a, b, c, N, 40, &e) == B_OK);
    T_CHECK(mem_stream_check_k(a, b, c, N, 36, &e) != B_OK && strstr(e.msg, "wrong"));
    memset(&e, 0, sizeof(e));
    mem_stream_kernel(MEM_COPY, a, b, c, N); /* a stop after two kernels of pass 11 */
    mem_stream_kernel(MEM_SCALE, a, b, c, N);
    T_CHECK(mem_stream_check_k(a, b, c, N, 42, &e) == B_OK);
    T_CHECK(mem_stream_check_k(a, b, c, N, 41, &e) != B_OK && strstr(e.msg, "and a part"));
    memset(&e, 0, sizeof(e));
    mem_stream_kernel(MEM_ADD, a, b, c, N);
    mem_stream_kernel(MEM_TRIAD, a, b, c, N);
    memset(&e, 0, sizeof(e));
    T_CHECK(mem_stream_check_k(a, b, c, N, 44, &e) == B_OK);
    c[500] *= 1.01; /* one wrong element */
    T_CHECK(mem_stream_check_k(a, b, c, N, 44, &e) != B_OK);
    T_CHECK(mem_stream_bytes(MEM_COPY, 1000) == 16000 && mem_stream_bytes(MEM_SCALE, 1) == 16);
    T_CHECK(mem_stream_bytes(MEM_ADD, 1000) == 24000 && mem_stream_bytes(MEM_TRIAD, 3) == 72);
    return 0;
}

/* Sattolo: one cycle through every node; the linked chase visits each line once a cycle. */
static int t_mem_sattolo_one_cycle(void)
{
    struct rnd rng = {{0x9e3779b97f4a7c15ull, 12345}};
    static const size_t ns[] = {1, 2, 3, 64, 1000, 65536};
    for (size_t t = 0; t < countof(ns); t++) {
        size_t n = ns[t];
        u32 *perm = malloc(n * sizeof(u32));
        unsigned char *seen = calloc(n, 1);
        T_CHECK(perm && seen);
        mem_sattolo(perm, n, &rng);
        size_t i = 0, steps = 0;
        do {
            T_CHECK(!seen[i]);
            seen[i] = 1;
            i = perm[i];
            steps++;
        } while (i != 0 && steps <= n);
        T_CHECK(steps == n);
        free(perm);
        free(seen);
    }
    size_t size = 1 << 20, n = size / MEM_LINE;
    char *buf = aligned_alloc(4096, size);
    u32 *perm = malloc(n * sizeof(u32));
    unsigned char *seen = calloc(n, 1);
    T_CHECK(buf && perm && seen);
    mem_chase_link(buf, size, perm, &rng);
    void *p = buf;
    for (size_t k = 0; k < n; k++) {
        size_t idx = (size_t)((char *)p - buf) / MEM_LINE;
        T_CHECK(((char *)p - buf) % MEM_LINE == 0 && idx < n && !seen[idx]);
        seen[idx] = 1;
        p = *(void **)p;
    }
    T_CHECK(p == buf);
    free(buf);
    free(perm);
    free(seen);
    return 0;
}

/* A working set in L1 answers faster than one far beyond the caches (64 MiB, not 4x LLC:
 * the unit run stays short), by a wide margin on any machine. */
static int t_mem_latency_monotone(void)
{
    struct rnd rng = {{42, 4242}};
    size_t big = (size_t)64 << 20;
    size_t maplen;
    char *buf = mem_map(big, -1, &maplen);
    u32 *perm = malloc(big / MEM_LINE * sizeof(u32));
    T_CHECK(buf && perm);
    double small, large, worst;
    u64 loads;
    mem_chase_link(buf, 4096, perm, &rng);
    T_CHECK(mem_chase_windows(buf, 0.005, 3, NULL, &small, &worst, &loads) == 3);
    T_CHECK(worst >= small && loads >= 16 && loads % 16 == 0);
    mem_chase_link(buf, big, perm, &rng);
    T_CHECK(mem_chase_windows(buf, 0.005, 3, NULL, &large, &worst, &loads) == 3);
    munmap(buf, maplen);
    free(perm);
    T_CHECK(small > 0 && large > 2 * small);
    return 0;
}

/* The plateaus are the medians of the points inside each level. */
static int t_mem_plateaus(void)
{
    struct mem_lat m;
    memset(&m, 0, sizeof(m));
    m.caches.l1d = 32 << 10, m.caches.l2 = 256 << 10, m.caches.l3 = 1 << 20;
    m.llc = 1 << 20;
    m.nsizes = m.done[0] = 12; /* 4 KiB .. 8 MiB */
    /* 4K..32K: L1; 64K..256K: L2; 512K..1M: L3; DRAM: 8M, the largest (>= 4x LLC) */
    static const double v[12] = {1, 1, 2, 1, 4, 5, 6, 20, 22, 50, 90, 100};
    memcpy(m.ns[0], v, sizeof(v));
    double pl[4];
    mem_lat_plateaus(&m, 0, pl);
    T_CHECK(pl[0] == 1.0 && pl[1] == 5.0 && pl[2] == 21.0 && pl[3] == 100.0);
    m.done[0] = 10; /* stopped at 2 MiB (--time): 4x the LLC not reached, no DRAM figure */
    mem_lat_plateaus(&m, 0, pl);
    T_CHECK(pl[2] == 21.0 && pl[3] == 0);
    /* a claimed L3 larger than the last level sized from: L3 ends at that level */
    m.done[0] = 12, m.caches.l3 = 508u << 20, m.llc = 1 << 20;
    mem_lat_plateaus(&m, 0, pl);
    T_CHECK(pl[2] == 21.0 && pl[3] == 100.0);
    return 0;
}

/* The last level sized from: an implausible claim is capped per CPU; sysfs and CPUID
 * cross-checked; STREAM's arrays >= 4x it; the latency curve's sizes. */
static int t_mem_llc_sizing(void)
{
    const u64 M = 1u << 20;
    T_CHECK(mem_llc_cap(508 * M, 2) == 64 * M && mem_llc_cap(32 * M, 2) == 32 * M);
    T_CHECK(mem_llc_cap(256 * M, 1) == 256 * M && mem_llc_cap(257 * M, 1) == 32 * M);
    T_CHECK(mem_llc_cap(504 * M, 64) == 504 * M && mem_llc_cap(504 * M, 8) == 256 * M);
    T_CHECK(mem_llc_pick(32 * M, 508 * M, 0, 2) == 32 * M);   /* both: the smaller */
    T_CHECK(mem_llc_pick(0, 508 * M, 0, 2) == 64 * M);        /* CPUID alone, capped */
    T_CHECK(mem_llc_pick(12 * M, 0, 0, 2) == 12 * M);         /* sysfs alone */
    T_CHECK(mem_llc_pick(0, 0, 32 * M, 2) == 32 * M);         /* neither: the fallback */
    T_CHECK(mem_stream_each(64 * M, 0, 0) == 256 * M);        /* 4x the LLC */
    T_CHECK(mem_stream_each(4 * M, 0, 0) == 64 * M);          /* at least 64 MiB */
    T_CHECK(mem_stream_each(64 * M, 1200 * M, 0) == 100 * M); /* a quarter of the memory */
    T_CHECK(mem_stream_each(64 * M, 0, 3 * M) == M);          /* the user's total, for 3 */
    T_CHECK(mem_lat_sizes(256 * M, false) == 17 && mem_lat_sizes(300 * M, false) == 18);
    T_CHECK(mem_lat_sizes(300 * M, true) == 17 && mem_lat_sizes(4096, true) == 1);
    T_CHECK(mem_lat_windows(128 * M, 64 * M) == MEM_LAT_WIN_DRAM &&
            mem_lat_windows(64 * M, 64 * M) == MEM_LAT_WIN);
    return 0;
}

/* Ping-pong: each side hands the token over exactly `trips` times. */
static int t_thr_pingpong_counts(void)
{
    u64 counts[2];
    struct b_err e;
    memset(&e, 0, sizeof(e));
    double ns = thr_pingpong(-1, -1, 2000, counts, &e);
    T_CHECK(ns > 0 && counts[0] == 2000 && counts[1] == 2000);
    ns = thr_pingpong(0, 0, 500, counts, &e);
    T_CHECK(ns > 0 && counts[0] == 500 && counts[1] == 500);
    return 0;
}

/* The run path: stream on small arrays, facts and a step per kernel; ping-pong's facts. */
static int t_mem_stream_run(void)
{
    static const char *const kv[] = {"threads=2", "memory-mode=stream", "memory-passes=3",
                                     "memory-total-size=3M", NULL};
    static const char *const kv2[] = {"threads-mode=pingpong", "thread-round-trips=300",
                                      NULL};
    struct bench_opts o;
    struct res r;
    const struct load_snap *sp;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(mem_check(&o, &e) == B_EXIT_OK && o.threads == 2);
    T_CHECK(t_run(wl_find("memory"), &o, &r, &sp) == 0);
    T_CHECK(r.complete && r.nsteps == 4 && sp->events == 2);
    T_CHECK(res_fact(&r, "stream_triad_mb_per_s")->num > 0);
    T_CHECK(res_fact(&r, "array_bytes")->i == 1 << 20 && res_fact(&r, "passes")->i == 3);
    T_CHECK(!strcmp(r.steps[3].command, "triad") &&
            res_fact(&r.steps[3], "bytes_per_pass")->i == 24 * (1 << 17));
    res_free(&r);
    t_opts_free(&o);
    T_CHECK(t_opts(&o, kv2) == 0);
    T_CHECK(thr_threads_check(&o, &e) == B_EXIT_OK);
    T_CHECK(t_run(wl_find("threads"), &o, &r, &sp) == 0);
    T_CHECK(r.complete && res_fact(&r, "same_cpu_ns_per_switch")->num > 0);
    T_CHECK(r.nsteps >= 1 && res_fact(&r.steps[0], "round_trips")->i == 300);
    res_free(&r);
    t_opts_free(&o);
    return 0;
}

/* mem_check prints nothing and tests no persona: its failure is in err, in both words. */
static int t_mem_check_block_size(void)
{
    static const char *const kv[] = {"memory-block-size=3", NULL};
    struct bench_opts o;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(mem_check(&o, &e) == B_EXIT_USAGE && e.ex == B_EXIT_USAGE);
    T_CHECK(!strcmp(e.msg, "memory: --memory-block-size=3: not a power of two of at least 8 "
                           "bytes"));
    T_CHECK(e.hint[0] && e.sb_fd == 1 && e.sb_ex == B_EXIT_FAIL);
    T_CHECK(!strcmp(e.sb, "FATAL: Invalid value for memory-block-size: 3\n"));
    t_opts_free(&o);
    return 0;
}
