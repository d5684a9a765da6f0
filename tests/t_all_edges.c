/*
 * bench all (section all_) at the edges of what a step's result holds (issue 29: branch
 * coverage of all_, each case's figures asserted): a result without the facts a step takes
 * (nothing made up), the latency curve's odd shapes (no points, more than three climbs, a
 * climb straight into the next, DRAM named without a cache claim), a disk step's runs (its
 * histograms, io_uring or not, more runs than kept, no runs), others' load (unknown, a
 * clock that went back, a busy disk step, a full list), the thresholds' text, --expect's
 * grammar at its limits, --expect-file of no terms, the settings' inputs (a cgroup limit,
 * a server's zero sizes, redo files, whole GiB) and the CPU quota. No server, no disk.
 * Included by tests/unit.c.
 */

/* The plan's step called name (all_plan). */
static const struct all_step *t_all_step(const char *name)
{
    for (size_t i = 0; i < countof(all_plan); i++)
        if (!strcmp(all_plan[i].name, name))
            return &all_plan[i];
    return NULL;
}

/* Facts of each type read as numbers and strings; a rate without time; the page's numbers;
 * a threshold that is not set judges nothing. */
static int t_all_fact_types(void)
{
    struct bench_opts o;
    struct res r;
    bool h = true;
    char s[32];
    memset(&o, 0, sizeof(o));
    res_init(&r, NULL, "all", &o, NULL);
    res_fact_str(&r, "name", "%s", "vm");
    res_fact_bool(&r, "flag", true);
    res_fact_int(&r, "n", 7);
    T_CHECK(all_num(&r, "name", &h) == 0 && !h);       /* a string is no number */
    T_CHECK(all_num(&r, "flag", &h) == 1 && h);        /* a boolean is 0 or 1 */
    T_CHECK(all_num(&r, "none", &h) == 0 && !h);
    T_CHECK(!strcmp(all_str(&r, "n"), "") && !strcmp(all_str(&r, "name"), "vm"));
    r.final.total_s = 0;
    T_CHECK(all_rate(&r, 1000) == 0); /* no time: no rate, never a division by 0 */
    r.final.total_s = 4;
    T_CHECK(all_rate(&r, 1000) == 250);
    res_free(&r);
    all_fmt_num(s, sizeof(s), NAN);
    T_CHECK(!strcmp(s, "-"));
    all_fmt_num(s, sizeof(s), 1e16); /* whole but too large for %.0f's place */
    T_CHECK(!strcmp(s, "1e+16"));
    all_fmt_num(s, sizeof(s), 0.123456);
    T_CHECK(!strcmp(s, "0.1235"));
    all_fmt_num(s, sizeof(s), -3);
    T_CHECK(!strcmp(s, "-3"));
    T_CHECK(all_verdict(true, 1e9, NAN, NAN) == ALL_PASS); /* neither threshold set */
    T_CHECK(all_verdict(false, 1, 5, 2) == ALL_FAIL && all_verdict(false, 3, 5, 2) == ALL_WARN);
    return 0;
}

/* A step's result without the facts it takes: the page gets none of them (no zeros made up);
 * with them, each one once, in its unit. */
static int t_all_take_partial(void)
{
    struct bench_opts o;
    struct res r, st;
    struct all_ctx x;
    t_all_ctx(&o, &r, &x);
    x.ncpu = 4;
    res_init(&st, NULL, "cpu", &o, NULL);
    st.final.total_s = 2, st.final.d.events = 8000;
    all_take_cpu(&x, t_all_step("cpu_all"), &st); /* no cpu_1 before it: no efficiency */
    T_CHECK(all_num(&r, "cpu.events_per_s_all", NULL) == 4000 &&
            all_num(&r, "cpu.threads_all", NULL) == 4 && !res_fact(&r, "cpu.scaling_efficiency"));
    res_free(&r);
    t_all_ctx(&o, &r, &x);
    x.ncpu = 4;
    res_fact_num(&r, "cpu.events_per_s", 0); /* a cpu_1 of no events: no efficiency either */
    all_take_cpu(&x, t_all_step("cpu_all"), &st);
    T_CHECK(!res_fact(&r, "cpu.scaling_efficiency"));
    res_fact_num(&r, "cpu.events_per_s", 1250);
    all_take_cpu(&x, t_all_step("cpu_all"), &st);
    T_CHECK(all_num(&r, "cpu.scaling_efficiency", NULL) == 0.8); /* 4000 / (4 x 1250) */
    res_free(&st);
    res_free(&r);

    t_all_ctx(&o, &r, &x);
    res_init(&st, NULL, "memory", &o, NULL);
    all_take_stream(&x, t_all_step("stream"), &st);
    all_take_threads(&x, t_all_step("pingpong"), &st);
    T_CHECK(r.nfacts == 0); /* nothing measured, nothing said */
    res_fact_bool(&st, "stream_reaches_dram", false);
    res_fact_num(&st, "stream_triad_mb_per_s", 9000);
    res_fact_int(&st, "room_bytes", 1 << 30);
    res_fact_str(&st, "room_from", "%s", "MemAvailable");
    all_take_stream(&x, t_all_step("stream"), &st);
    T_CHECK(!strcmp(all_str(&r, "mem.stream_level"), "cache") &&
            all_num(&r, "mem.stream_reaches_dram", &(bool){0}) == 0);
    T_CHECK(all_num(&r, "mem.stream_triad_mb_per_s", NULL) == 9000 &&
            !res_fact(&r, "mem.stream_copy_mb_per_s"));
    T_CHECK(all_num(&r, "mem.room_bytes", NULL) == 1 << 30 &&
            !strcmp(all_str(&r, "mem.room_from"), "MemAvailable"));
    T_CHECK(!res_fact(&r, "mem.stream_passes") && !res_fact(&r, "mem.stream_llc_bytes") &&
            !res_fact(&r, "mem.stream_threads"));
    res_fact_int(&st, "threads", 3);
    all_take_stream(&x, t_all_step("stream"), &st);
    T_CHECK(all_num(&r, "mem.stream_threads", NULL) == 3);
    st.final.total_s = 0.25;
    all_take_threads(&x, t_all_step("mutex"), &st);
    T_CHECK(all_num(&r, "sched.mutex_total_ms", NULL) == 250);
    res_fact_num(&st, "cross_cpu_ns_per_switch", 5000); /* the same-CPU figure missing */
    all_take_threads(&x, t_all_step("pingpong"), &st);
    T_CHECK(all_num(&r, "sched.ctxsw_cross_cpu_ns", NULL) == 5000 &&
            !res_fact(&r, "sched.ctxsw_same_cpu_ns"));
    res_free(&st);
    res_free(&r);
    return 0;
}

/* The latency curve's sizes and shapes: the largest working set by the level, the claim and
 * the memory left; no points; four climbs (the smallest dropped: three levels and DRAM); a
 * climb straight into the next (its last point stands for the level); two climbs and no
 * cache claim (the top is DRAM). */
static int t_all_lat_shapes(void)
{
    const u64 M = 1ull << 20;
    T_CHECK(all_lat_bytes(0, false, ALL_QUICK, 0) == 64 * M); /* 4 x 16 MiB without a claim */
    T_CHECK(all_lat_bytes(32 * M, false, ALL_QUICK, 0) == 64 * M); /* not plausible: the same */
    T_CHECK(all_lat_bytes(96 * M, true, ALL_QUICK, 0) == 256 * M);    /* capped at 256 MiB */
    T_CHECK(all_lat_bytes(96 * M, true, ALL_DEFAULT, 0) == 256 * M);  /* 384: a power of 2 */
    T_CHECK(all_lat_bytes(256 * M, true, ALL_THOROUGH, 0) == 1024 * M); /* no level cap */
    T_CHECK(all_lat_bytes(256 * M, true, ALL_THOROUGH, 400 * M) == 64 * M); /* a quarter of 400 */
    double lat[4] = {9, 9, 9, 9};
    u64 cap[4] = {9, 9, 9, 9};
    T_CHECK(all_lat_knees(NULL, 0, 0, lat, cap) == 0);
    T_CHECK(lat[0] == 0 && lat[3] == 0 && cap[0] == 0 && cap[3] == 0);
    /* four doublings, each a plateau of two sizes: the first (all the same height) dropped */
    const double four[] = {1, 1, 2, 2, 4, 4, 8, 8, 16, 16};
    T_CHECK(all_lat_knees(four, 10, 0, lat, cap) == 3);
    T_CHECK(lat[0] == 1.5 && cap[0] == 4096u << 3); /* sizes 0..3: the dropped climb's plateau */
    T_CHECK(lat[1] == 4 && cap[1] == 4096u << 5 && lat[2] == 8 && cap[2] == 4096u << 7);
    T_CHECK(lat[3] == 16 && cap[3] == 4096u << 9); /* three climbs: the last is DRAM */
    /* one climb over two sizes straight to the end: the level after it is its top point */
    const double steep[] = {1, 2, 4};
    T_CHECK(all_lat_knees(steep, 3, 0, lat, cap) == 1);
    T_CHECK(lat[0] == 1 && cap[0] == 4096 && lat[1] == 4 && cap[1] == 4096u << 2 && lat[3] == 0);
    /* two climbs, no cache claimed: the second plateau is DRAM */
    const double two[] = {1, 1, 2, 2, 4, 4};
    T_CHECK(all_lat_knees(two, 6, 0, lat, cap) == 2);
    T_CHECK(lat[0] == 1 && lat[1] == 2 && lat[2] == 0 && lat[3] == 4 && cap[3] == 4096u << 5);
    /* ... a claimed LLC far above where the curve climbed: not DRAM yet (level 3 is L3) */
    T_CHECK(all_lat_knees(two, 6, 1ull << 30, lat, cap) == 2);
    T_CHECK(lat[2] == 4 && lat[3] == 0);
    return 0;
}

/* The latency step's result into the page: the sizes' points only (other steps skipped), the
 * L2 as the last level without an L3, DRAM's own figures when the curve reached it, the claim
 * contradicted by the curve, the largest set against 4x the real last level. */
static int t_all_take_latency_edges(void)
{
    struct bench_opts o;
    struct res r, st;
    struct all_ctx x;
    t_all_ctx(&o, &r, &x);
    x.ncpu = 2;
    res_init(&st, NULL, "memory", &o, NULL);
    static const double ns[] = {1, 1, 4, 4, 999, 16, 16, 64, 64};
    for (int i = 0; i < 9; i++) { /* the fifth step is not a size: not a point */
        struct res *s = res_step(&st, NULL, i == 4 ? "note" : "size");
        res_fact_num(s, "ns_per_load", ns[i]);
    }
    res_fact_int(&st, "l1d_bytes", 32768);
    res_fact_int(&st, "l2_bytes", 64ll << 20); /* no L3: the L2 is the last level, claimed
                                                  far above where DRAM begins */
    res_fact_num(&st, "latency_dram_ns", 85);
    res_fact_num(&st, "latency_dram_ns_max", 97);
    res_fact_int(&st, "latency_dram_bytes", 256ll << 20);
    res_fact_str(&st, "latency_dram_pages", "%s", "4k");
    res_fact_int(&st, "latency_dram_windows", 12);
    res_fact_int(&st, "latency_dram_loads", 100000);
    res_fact_int(&st, "max_size_bytes", 256ll << 20);
    all_take_latency(&x, t_all_step("latency"), &st);
    /* points 1 1 4 4 16 16 64 64 (the "note" left out): three climbs, the last into DRAM */
    T_CHECK(all_num(&r, "mem.latency_knees", NULL) == 3);
    T_CHECK(all_num(&r, "mem.latency_l1_ns", NULL) == 1 && all_num(&r, "mem.latency_l2_ns", NULL) == 4 &&
            all_num(&r, "mem.latency_l3_ns", NULL) == 16);
    T_CHECK(all_num(&r, "mem.latency_l3_to_bytes", NULL) == 4096 << 5);
    T_CHECK(all_num(&r, "mem.latency_dram_ns", NULL) == 85); /* the DRAM step's best window */
    T_CHECK(all_num(&r, "mem.latency_dram_ns_min", NULL) == 85 &&
            all_num(&r, "mem.latency_dram_ns_max", NULL) == 97 &&
            all_num(&r, "mem.latency_dram_samples", NULL) == 12 &&
            !strcmp(all_str(&r, "mem.latency_dram_pages"), "4k"));
    T_CHECK(all_num(&r, "mem.cache_l3_claimed_bytes", NULL) == 0 &&
            all_num(&r, "mem.cache_l2_claimed_bytes", NULL) == 64ll << 20);
    /* DRAM past 4096 << 5 = 128 KiB: a 64 MiB L2 claim is contradicted by the curve */
    T_CHECK(all_num(&r, "mem.llc_claim_plausible", NULL) == 0);
    T_CHECK(all_num(&r, "mem.latency_max_bytes", NULL) == 256ll << 20 &&
            all_num(&r, "mem.latency_dram_4x_llc", NULL) == 1); /* >= 4 x the 128 KiB level */
    res_free(&r);
    /* no largest set in the result, a plausible claim the curve does not contradict (one
     * climb, no DRAM): the claim stands, nothing said of 4x */
    t_all_ctx(&o, &r, &x);
    x.ncpu = 2;
    res_free(&st);
    res_init(&st, NULL, "memory", &o, NULL);
    for (int i = 0; i < 4; i++)
        res_fact_num(res_step(&st, NULL, "size"), "ns_per_load", i < 2 ? 1 : 3);
    res_fact_int(&st, "l2_bytes", 1 << 20);
    res_fact_int(&st, "l3_bytes", 8 << 20);
    all_take_latency(&x, t_all_step("latency"), &st);
    T_CHECK(all_num(&r, "mem.latency_knees", NULL) == 1 &&
            all_num(&r, "mem.llc_claim_plausible", NULL) == 1 &&
            !res_fact(&r, "mem.latency_dram_ns") && !res_fact(&r, "mem.latency_dram_4x_llc"));
    res_free(&st);
    res_free(&r);
    return 0;
}

/* A disk step's runs: fdatasync without per-operation histograms (the whole one), a random
 * read run on io_uring or on the fallback (said why), more runs than kept, no runs at all,
 * a sequential step (MiB/s, no latencies). */
static int t_all_take_disk_edges(void)
{
    struct bench_opts o;
    struct res r, st;
    struct all_ctx x;
    struct hist *h = b_xcalloc(1, sizeof(*h));
    t_all_ctx(&o, &r, &x);
    for (int i = 0; i < 50; i++)
        hist_record(h, 2000000); /* 2 ms */
    res_init(&st, NULL, "fileio", &o, NULL);
    st.final.total_s = 5;
    st.final.d.hist = h, st.final.d.nops = 0, st.final.d.ctr[2] = 50;
    all_take_disk(&x, t_all_step("fdatasync"), &st);
    T_CHECK(all_num(&r, "disk.fdatasync_samples", NULL) == 50 &&
            t_rel(all_num(&r, "disk.fdatasync_p50_ms", NULL), 2) < 0.01);
    T_CHECK(!strcmp(all_str(&r, "disk.fdatasync_ended"), "time budget") &&
            !res_fact(&r, "disk.fdatasync_write_p50_ms") &&
            all_num(&r, "disk.fdatasync_per_s", NULL) == 10);
    T_CHECK(!strcmp(all_str(&r, "disk.fdatasync_p99_ms_why"), "n/a: 50 samples, p99 needs 1000"));
    /* randread QD32: io_uring granted, then the fallback with its warning */
    st.final.d.ctr[0] = 1000, st.final.d.ctr[2] = 0;
    res_fact_str(&st, "io_mode", "%s", "async");
    all_take_disk(&x, t_all_step("randread_qd32"), &st);
    T_CHECK(!strcmp(all_str(&r, "disk.io_engine"), "io_uring") && !res_fact(&r, "disk.io_engine_why"));
    T_CHECK(x.nrv == 1 && x.rv[0] == 200); /* 1000 reads in 5 s */
    res_free(&st);
    res_init(&st, NULL, "fileio", &o, NULL);
    st.final.total_s = 5;
    st.final.d.hist = h, st.final.d.ctr[0] = 500;
    res_fact_str(&st, "io_mode", "%s", "sync");
    res_warn(&st, "other", NULL, "something else");
    res_warn(&st, "io_uring_fallback", NULL, "io_uring refused: EPERM");
    for (int i = 0; i < ALL_MAX_REPS + 2; i++) /* more runs than kept: the first ones count */
        all_take_disk(&x, t_all_step("randread_qd32"), &st);
    T_CHECK(!strcmp(all_str(&r, "disk.io_engine"), "sync") &&
            !strcmp(all_str(&r, "disk.io_engine_why"), "io_uring refused: EPERM"));
    T_CHECK(x.nrv == ALL_MAX_REPS && x.rv[1] == 100);
    all_disk_done(&x, t_all_step("randread_qd32")); /* no x->acc: the rates, no latencies */
    T_CHECK(all_num(&r, "disk.randread_qd32_iops", NULL) == 100 &&
            all_num(&r, "disk.randread_qd32_iops_min", NULL) == 100 &&
            all_num(&r, "disk.randread_qd32_iops_max", NULL) == 200 &&
            all_num(&r, "disk.randread_qd32_runs", NULL) == ALL_MAX_REPS &&
            !res_fact(&r, "disk.randread_qd32_samples"));
    x.nrv = 0;
    int before = r.nfacts;
    all_disk_done(&x, t_all_step("seqread")); /* no run: nothing */
    T_CHECK(r.nfacts == before);
    st.final.d.ctr[0] = 0, st.final.d.ctr[3] = 500ull << 20; /* 500 MiB read in 5 s */
    x.acc = h;
    all_take_disk(&x, t_all_step("seqread"), &st);
    all_disk_done(&x, t_all_step("seqread"));
    T_CHECK(all_num(&r, "disk.seqread_mib_per_s", NULL) == 100 &&
            !res_fact(&r, "disk.seqread_samples") && !res_fact(&r, "disk.seqread_p50_ms"));
    res_free(&st);
    res_free(&r);
    free(h);
    return 0;
}

/* Others' load: unknown samples (no fact, not busy), a clock or tick count that went back
 * (0), a disk step whose device moved more than we did (its share said, the step named
 * with both shares), a list of busy steps that is full (counted, not written past). */
static int t_all_busy_edges(void)
{
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    struct all_load a, b;
    long hz = sysconf(_SC_CLK_TCK);
    t_all_ctx(&o, &r, &x);
    x.ncpu = 2;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    a.t_ns = 1000000000, b.t_ns = 2000000000;
    a.cpu.busy_ticks = 0, b.cpu.busy_ticks = (u64)hz; /* one CPU-second in one second */
    all_busy(&x, t_all_step("cpu_1"), &a, &b); /* neither sample taken */
    T_CHECK(r.nfacts == 0 && x.nbusy == 0 && !x.busy[0]);
    T_CHECK(all_others_pct(&a, &b) == 0);
    a.have = true;
    T_CHECK(all_others_pct(&a, &b) == 0); /* one of them */
    b.have = true;
    T_CHECK(t_rel(all_others_pct(&a, &b), 100) < 1e-9);
    b.t_ns = a.t_ns; /* no wall time */
    T_CHECK(all_others_pct(&a, &b) == 0);
    b.t_ns = 2000000000, b.cpu.busy_ticks = 0, a.cpu.busy_ticks = 5; /* ticks went back */
    T_CHECK(all_others_pct(&a, &b) == 0);
    /* fdatasync: the device moved 400 MB, we 100 MB: 75% others'; 10% of a CPU */
    a.cpu.busy_ticks = 0, b.cpu.busy_ticks = (u64)hz / 10;
    a.have_io = b.have_io = true, a.io_bytes = 1e9, b.io_bytes = 1.4e9;
    x.io_bytes = 1e8;
    b.load1 = 1.5;
    all_busy(&x, t_all_step("fdatasync"), &a, &b);
    T_CHECK(all_num(&r, "load.fdatasync_others_io_pct", NULL) == 75 &&
            all_num(&r, "load.fdatasync_load1", NULL) == 1.5);
    T_CHECK(x.nbusy == 1 && !strcmp(x.busy, "fdatasync 10% CPU 75% disk"));
    /* a disk step where only we moved bytes: 0% */
    x.io_bytes = 1e9;
    all_busy(&x, t_all_step("seqread"), &a, &b);
    T_CHECK(all_num(&r, "load.seqread_others_io_pct", NULL) == 0 && x.nbusy == 1);
    /* a full list: the busy step counted, its name not written past the end */
    memset(x.busy, 'x', sizeof(x.busy) - 1);
    x.busy[sizeof(x.busy) - 1] = 0;
    b.cpu.busy_ticks = (u64)hz; /* 100% of a CPU: busy */
    all_busy(&x, t_all_step("cpu_1"), &a, &b);
    T_CHECK(x.nbusy == 2 && strlen(x.busy) == sizeof(x.busy) - 1 && !strstr(x.busy, "cpu_1"));
    x.io_bytes = 0; /* and a busy disk step on a full list */
    all_busy(&x, t_all_step("seqwrite"), &a, &b);
    T_CHECK(x.nbusy == 3 && strlen(x.busy) == sizeof(x.busy) - 1 && !strstr(x.busy, "seqwrite"));
    res_free(&r);
    return 0;
}

/* --expect at its limits: a path as long as it may be and one longer, a term cut to 80
 * characters when said, a comment that ends the text, a term with no operator after its
 * spaces, a number too long; --expect-file of comments only (no terms: fine), one of a bad
 * term (usage), one that does not exist (exit 3); all.verdict refused; an unknown measure
 * with nothing near it (no "did you mean"). */
static int t_all_expect_edges(void)
{
    struct all_expect t[4];
    char bad[96], p47[64], p48[64], big[128], num[80], term[160];
    memset(p47, 'a', 47), p47[47] = 0;
    memset(p48, 'a', 48), p48[48] = 0;
    snprintf(term, sizeof(term), "%s<1", p47);
    T_CHECK(all_expect_parse(term, t, 4, bad, sizeof(bad)) == 1 && !strcmp(t[0].path, p47));
    snprintf(term, sizeof(term), "%s<1", p48);
    T_CHECK(all_expect_parse(term, t, 4, bad, sizeof(bad)) == -1 && !strcmp(bad, term));
    memset(big, 'b', 100), big[100] = 0; /* no operator: said, cut to 80 characters */
    T_CHECK(all_expect_parse(big, t, 4, bad, sizeof(bad)) == -1 && strlen(bad) == 80);
    T_CHECK(all_expect_parse("a<1 # the end", t, 4, bad, sizeof(bad)) == 1 && t[0].v == 1);
    T_CHECK(all_expect_parse("a  ", t, 4, bad, sizeof(bad)) == -1 && !strcmp(bad, "a"));
    T_CHECK(all_expect_parse("a-b<1", t, 4, bad, sizeof(bad)) == -1); /* '-' ends the path */
    memset(num, '1', 70), num[70] = 0;
    snprintf(term, sizeof(term), "a<%s", num); /* 70 digits: longer than a number is read */
    T_CHECK(all_expect_parse(term, t, 4, bad, sizeof(bad)) == -1);

    char dir[] = "/tmp/t_all_expect.XXXXXX", f[PATH_MAX];
    T_CHECK(mkdtemp(dir) != NULL);
    snprintf(f, sizeof(f), "%s/expect", dir);
    FILE *fp = fopen(f, "w");
    T_CHECK(fp != NULL);
    fputs("# nothing but comments\n\n   # and blanks\n", fp);
    fclose(fp);
    struct bench_opts o;
    struct res r;
    int n = -1;
    memset(&o, 0, sizeof(o));
    o.all_expect = (char *)(uintptr_t)"";
    o.all_expect_file = f;
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_expect_load(&r, t, 4, &n) == B_EXIT_OK && n == 0);
    res_free(&r);
    fp = fopen(f, "w");
    T_CHECK(fp != NULL);
    fputs("cpu.events_per_s >= 1\ncpu.events_per_s => 1\n", fp);
    fclose(fp);
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_expect_load(&r, t, 4, &n) == b_usage_exit());
    T_CHECK(strstr(r.err.msg, "malformed term 'cpu.events_per_s => 1' (expected PATH OP NUMBER)"));
    res_free(&r);
    unlink(f);
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_expect_load(&r, t, 4, &n) == B_EXIT_ENV && strstr(r.err.msg, "No such file"));
    res_free(&r);
    rmdir(dir);
    o.all_expect_file = NULL;
    o.all_expect = (char *)(uintptr_t)"all.verdict==0";
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_expect_load(&r, t, 4, &n) == b_usage_exit() &&
            strstr(r.err.msg, "'all.verdict' cannot be checked"));
    res_free(&r);
    o.all_expect = (char *)(uintptr_t)"qqqqqqqqqqqqqqqq<1";
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_expect_load(&r, t, 4, &n) == B_EXIT_NO_MEASURE);
    T_CHECK(strstr(r.err.msg, "unknown measure 'qqqqqqqqqqqqqqqq'") && !strstr(r.err.msg, "mean"));
    res_free(&r);
    /* a suffix on a path too long to be a measure's: unknown, not cut to one */
    char longp[80];
    memset(longp, 'c', 70), longp[70] = 0;
    strcat(longp, "_min");
    T_CHECK(!all_measure_known(longp));
    T_CHECK(all_edit_distance(longp, longp) == 0); /* past 63 characters: the first 63 */
    return 0;
}

/* The settings' inputs: a cgroup limit below the RAM sizes the pool; a server reporting 0
 * for every per-connection size (no memory per connection: the floor of 10 stays); an older
 * MySQL's two redo files; a value of whole GiB shown in G; the CPU quota. */
static int t_all_settings_edges(void)
{
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    const char *cur = NULL;
    double ram;
    int cpus;
    t_all_ctx(&o, &r, &x);
    x.ncpu = 4;
    res_fact_int(&r, "mem_total_bytes", 16ll << 30);
    res_fact_int(&r, "cgroup_memory_limit_bytes", 2ll << 30);
    all_sized_for(&x, &ram, &cpus);
    T_CHECK(ram == 2.0 * (1 << 30) && cpus == 4);
    res_free(&r);

    t_all_ctx(&o, &r, &x);
    x.ncpu = 4, x.db_vars = true, x.db_local = true;
    res_fact_int(&r, "mem_total_bytes", 8ll << 30);
    static const char *const vars[] = {"sort_buffer_size",  "join_buffer_size",
                                       "read_buffer_size",  "read_rnd_buffer_size",
                                       "thread_stack",      "binlog_cache_size",
                                       "net_buffer_length", "tmp_table_size",
                                       "max_heap_table_size"};
    char key[64];
    for (size_t i = 0; i < countof(vars); i++) {
        snprintf(key, sizeof(key), "db.%s", vars[i]);
        res_fact_num(&r, key, 0);
    }
    res_fact_num(&r, "db.innodb_buffer_pool_size", 8ll << 30); /* whole GiB: "8G" */
    res_fact_num(&r, "db.innodb_log_file_size", 512ll << 20);
    res_fact_int(&r, "db.innodb_log_files_in_group", 2);
    res_fact_num(&r, "db.max_connections", 151);
    all_settings(&x);
    T_CHECK(!strcmp(t_all_setting(&r, "innodb_buffer_pool_size", &cur), "6144M") &&
            !strcmp(cur, "8G"));
    T_CHECK(all_num(&r, "rec.per_connection_bytes", NULL) == 0 &&
            all_num(&r, "rec.max_connections", NULL) == 10);
    /* 4 CPUs: 2 GiB of redo in all, in two files of 1024M */
    T_CHECK(!strcmp(t_all_setting(&r, "innodb_log_file_size", &cur), "1024M") &&
            !strcmp(cur, "512M"));
    res_free(&r);

    /* --server-cpus unset, a cgroup quota of 1.5 CPUs on 4 usable: sized for 2 */
    t_all_ctx(&o, &r, &x);
    res_fact_int(&r, "cpus_usable", 4);
    res_fact_num(&r, "cgroup_cpu_quota_cpus", 1.5);
    all_cpus_and_user(&x);
    T_CHECK(x.ncpu == 2 && !strcmp(all_str(&r, "all.cpus_from"), "cgroup CPU quota"));
    res_free(&r);
    t_all_ctx(&o, &r, &x);
    res_fact_int(&r, "cpus_usable", 4);
    res_fact_num(&r, "cgroup_cpu_quota_cpus", 8); /* a quota above the affinity: the affinity */
    all_cpus_and_user(&x);
    T_CHECK(x.ncpu == 4);
    res_free(&r);
    return 0;
}

/* The memory a connection takes by the server's sizes (8.4's defaults where it said none):
 * without the binary log no binlog cache; the current values as the SETTINGS table shows
 * them (a string as it is, bytes in M unless whole GiB, a count as a number). */
static int t_all_conn_cur(void)
{
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    double glob;
    bool srv = true;
    char out[48];
    t_all_ctx(&o, &r, &x);
    T_CHECK(all_conn_bytes(&r, &glob, &srv) == 18792448 && !srv && glob == 8388608 + 16777216);
    res_fact_int(&r, "db.log_bin", 0);
    T_CHECK(all_conn_bytes(&r, &glob, &srv) == 18792448 - 32768 && !srv);
    res_fact_int(&r, "db.sort_buffer_size", -1); /* not a size: the default stands in */
    T_CHECK(all_conn_bytes(&r, &glob, &srv) == 18792448 - 32768 && !srv);
    res_fact_int(&r, "db.log_bin", 1);
    res_fact_int(&r, "db.binlog_cache_size", 65536); /* the server's own: 32 KiB more */
    T_CHECK(all_conn_bytes(&r, &glob, &srv) == 18792448 + 32768 && srv);
    res_fact_str(&r, "db.innodb_flush_method", "%s", "O_DIRECT");
    res_fact_num(&r, "db.innodb_log_file_size", 1.5 * 1073741824.0);
    res_fact_int(&r, "db.innodb_buffer_pool_size", 2ll << 30);
    res_fact_int(&r, "db.max_connections", 151);
    T_CHECK(!strcmp(all_cur(&r, "innodb_flush_method", false, out, sizeof(out)), "O_DIRECT"));
    T_CHECK(!strcmp(all_cur(&r, "innodb_log_file_size", true, out, sizeof(out)), "1536M"));
    T_CHECK(!strcmp(all_cur(&r, "innodb_buffer_pool_size", true, out, sizeof(out)), "2G"));
    T_CHECK(!strcmp(all_cur(&r, "max_connections", false, out, sizeof(out)), "151"));
    T_CHECK(all_cur(&r, "tmp_table_size", true, out, sizeof(out)) == NULL);
    res_free(&r);
    return 0;
}

/* bench all's refusals before anything runs (no host fact read, no step): --quick with
 * --thorough, an unknown --list, a malformed --expect at the default level; --list=checks
 * at --thorough runs nothing. --html: none given, or the same file as --output (by name, or
 * by another name of it): refused, the page's file not left behind. The names a stale
 * directory may hold that are bench's. */
static int t_all_main_refusals(void)
{
    struct bench_opts o;
    struct res r;
    memset(&o, 0, sizeof(o));
    o.all_quick = o.all_thorough = true;
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_main(&r) == b_usage_exit() && strstr(r.err.msg, "exclude each other"));
    T_CHECK(r.nfacts == 0 && r.nsteps == 0);
    res_free(&r);
    o.all_quick = false, o.all_list = (char *)(uintptr_t)"bogus";
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_main(&r) == b_usage_exit() &&
            strstr(r.err.msg, "--list=bogus: unknown list (measures or checks)"));
    res_free(&r);
    o.all_list = (char *)(uintptr_t)"checks";
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_main(&r) == B_EXIT_OK && r.nfacts == 0 && r.nsteps == 0);
    res_free(&r);
    o.all_thorough = false, o.all_list = (char *)(uintptr_t)"";
    o.all_expect = (char *)(uintptr_t)"cpu.events_per_s>>1";
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(all_main(&r) == b_usage_exit() && strstr(r.err.msg, "malformed term") &&
            r.nfacts == 0);
    res_free(&r);

    struct b_err e;
    char dir[] = "/tmp/t_all_html.XXXXXX", h[PATH_MAX], out[PATH_MAX];
    T_CHECK(mkdtemp(dir) != NULL);
    memset(&o, 0, sizeof(o));
    memset(&e, 0, sizeof(e));
    T_CHECK(all_html_open(&o, &e) == B_EXIT_OK && all_html_fd < 0); /* no --html */
    o.all_html = (char *)(uintptr_t)"";
    T_CHECK(all_html_open(&o, &e) == B_EXIT_OK && all_html_fd < 0);
    snprintf(h, sizeof(h), "%s/page.html", dir);
    snprintf(out, sizeof(out), "%s/./page.html", dir);
    o.all_html = h, o.output = h;
    T_CHECK(all_html_open(&o, &e) == b_usage_exit() && strstr(e.msg, "name the same file"));
    T_CHECK(all_html_fd < 0 && access(h, F_OK) != 0); /* made, then removed */
    memset(&e, 0, sizeof(e));
    o.output = out; /* another name of it: the same file once it exists */
    T_CHECK(all_html_open(&o, &e) == b_usage_exit() && strstr(e.msg, "name the same file"));
    T_CHECK(all_html_fd < 0 && access(h, F_OK) != 0);
    snprintf(out, sizeof(out), "%s/result.json", dir); /* another file: the page is opened */
    T_CHECK(all_html_open(&o, &e) == B_EXIT_OK && all_html_fd >= 0 && access(h, F_OK) == 0);
    all_html_close(&o); /* made by this run and closed unwritten: removed */
    T_CHECK(all_html_fd < 0 && access(h, F_OK) != 0);
    rmdir(dir);

    T_CHECK(all_dir_ours("test_file.0") && all_dir_ours(IO_MANIFEST) &&
            all_dir_ours(".bench-all-direct.123"));
    T_CHECK(!all_dir_ours("test_file.1") && !all_dir_ours("notes.txt") &&
            !all_dir_ours(".bench-all"));
    return 0;
}
