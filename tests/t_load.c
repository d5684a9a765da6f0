/* load_: the engine with real threads, driven directly (no stdout). */

#include <sys/wait.h>

/* Set every option to its default, then apply "name=value" overrides. */
static int t_opts(struct bench_opts *o, const char *const *kv)
{
    memset(o, 0, sizeof(*o));
    for (size_t g = 0; g < countof(opt_groups); g++)
        opt_defaults(opt_groups[g].t, opt_groups[g].n, o);
    for (size_t i = 0; i < countof(wl_all); i++)
        opt_defaults(wl_all[i].opts, wl_all[i].nopts, o);
    for (; *kv; kv++) {
        const char *eq = strchr(*kv, '=');
        const struct opt_def *d = NULL;
        for (size_t g = 0; g < countof(opt_groups) && !d; g++)
            d = opt_find(opt_groups[g].t, opt_groups[g].n, *kv, (size_t)(eq - *kv));
        for (size_t i = 0; i < countof(wl_all) && !d; i++)
            d = opt_find(wl_all[i].opts, wl_all[i].nopts, *kv, (size_t)(eq - *kv));
        if (!d || opt_set(d, o, eq + 1) != OPT_OK)
            return -1;
    }
    o->npct = 1;
    o->pct[0] = 95;
    o->forced_s = -1;
    return 0;
}


static const struct load_hooks t_no_hooks = {NULL, NULL, NULL};

/* Run w to completion with options o; fills *s with the totals. */
static int t_run(const struct wl_def *w, const struct bench_opts *o, struct load_run *r,
                 struct load_snap *s)
{
    load_run_init(r, w, o);
    if (w->init && w->init(r) < 0)
        return -1;
    if (load_start(r) < 0)
        return -1;
    load_go(r);
    load_run_main(r, &t_no_hooks);
    load_snap_init(s, r->nthreads, w->nops);
    load_snapshot(r, s);
    if (w->done)
        w->done(r);
    return 0;
}

static int t_load_events_exact(void)
{
    static const char *const kv[] = {"threads=4", "events=137", "time=0", "cpu-max-prime=500",
                                     NULL};
    struct bench_opts o;
    struct load_run r;
    struct load_snap s;
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(t_run(wl_find("cpu"), &o, &r, &s) == 0);
    T_CHECK(s.events == 137); /* exactly --events, shared by 4 threads */
    u64 sum = 0, sumlat = 0;
    for (int i = 0; i < 4; i++)
        sum += s.thr_events[i], sumlat += s.thr_sum_ns[i];
    T_CHECK(sum == 137 && sumlat == s.lat_sum_ns);
    T_CHECK(hist_total(s.hist) == 137);
    T_CHECK(s.lat_min_ns > 0 && s.lat_min_ns <= s.lat_sum_ns / s.events);
    T_CHECK(s.lat_sum_ns / s.events <= s.lat_max_ns);
    T_CHECK(atomic_load(&r.failed) == 0);
    load_snap_free(&s);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

/* --warmup-time with --events=N: one instant starts the window, so the report holds exactly
 * N events (issue 18.8: the claim counter started at the end of warmup, the statistics at
 * the controller's snapshot a little later, and events in flight fell between them). */
static int t_load_warmup_events_exact(void)
{
    static const char *const kv[] = {"threads=4", "events=3000", "time=0", "warmup-time=1",
                                     "cpu-max-prime=300", NULL};
    struct bench_opts o;
    struct load_run r;
    struct load_snap s, d;
    T_CHECK(t_opts(&o, kv) == 0);
    u64 t0 = clk_now_ns();
    T_CHECK(t_run(wl_find("cpu"), &o, &r, &s) == 0);
    T_CHECK(clk_now_ns() - t0 >= 1000000000u); /* the warmup second ran */
    load_snap_init(&d, 4, 0);
    load_snap_diff(&d, &s, &r.base, 4); /* what the report shows */
    T_CHECK(d.events == 3000 && hist_total(d.hist) == 3000);
    u64 sum = 0;
    for (int i = 0; i < 4; i++)
        sum += d.thr_events[i];
    T_CHECK(sum == 3000);
    T_CHECK(r.base.t_ns == r.t_measure_ns); /* rates count from the window's start */
    T_CHECK(d.lat_min_ns > 0 && d.lat_min_ns <= d.lat_sum_ns / d.events);
    load_snap_free(&s), load_snap_free(&d);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

static int t_load_mutex_one_per_thread(void)
{
    static const char *const kv[] = {"threads=3", "events=50", "mutex-locks=200",
                                     "mutex-loops=10", NULL};
    struct bench_opts o;
    struct load_run r;
    struct load_snap s;
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(t_run(wl_find("mutex"), &o, &r, &s) == 0);
    T_CHECK(s.events == 3); /* one event per thread, --events ignored (sysbench) */
    load_snap_free(&s);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

static int t_load_memory_limit(void)
{
    static const char *const kv[] = {"threads=2", "time=0", "memory-total-size=1M",
                                     "memory-block-size=4K", "events=3", NULL};
    static const char *const kv2[] = {"threads=2", "time=0", "memory-total-size=1M",
                                      "memory-block-size=1M", "memory-scope=local", NULL};
    struct bench_opts o;
    struct load_run r;
    struct load_snap s;
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(t_run(wl_find("memory"), &o, &r, &s) == 0);
    T_CHECK(s.events == 256 && s.thr_events[0] == 128 && s.thr_events[1] == 128);
    load_snap_free(&s);
    load_run_free(&r);
    t_opts_free(&o);
    /* block x threads > total: zero events (sysbench issue #545) */
    T_CHECK(t_opts(&o, kv2) == 0);
    T_CHECK(t_run(wl_find("memory"), &o, &r, &s) == 0);
    T_CHECK(s.events == 0);
    load_snap_free(&s);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

/* A workload that stalls once for 200 ms: the open-loop latency must show the stall in the
 * percentiles (every arrival during the stall waited), a closed loop hides it. */
static int t_stall_event(struct load_thread *t)
{
    if (t->done == 50) {
        struct timespec ts = {0, 200000000};
        nanosleep(&ts, NULL);
    }
    return B_OK;
}

static int t_load_rate_open_loop(void)
{
    static const struct wl_def w = {.name = "stall", .event = t_stall_event};
    static const char *const kv[] = {"threads=1", "time=1", "rate=1000", NULL};
    static const char *const kv_closed[] = {"threads=1", "time=0", "events=400", NULL};
    struct bench_opts o;
    struct load_run r;
    struct load_snap s;
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(t_run(&w, &o, &r, &s) == 0);
    /* Poisson arrivals at 1000/s for 1 s: 1000 +- a few sd */
    T_CHECK(s.events > 850 && s.events < 1150);
    /* ~200 of ~1000 arrivals fall in the stall: p90 is tens of ms, not microseconds */
    u64 p90 = hist_percentile(s.hist, 90, s.lat_min_ns, s.lat_max_ns);
    T_CHECK(p90 > 20000000);
    T_CHECK(s.lat_max_ns >= 200000000);
    T_CHECK(!atomic_load(&r.queue_full));
    load_snap_free(&s);
    load_run_free(&r);
    t_opts_free(&o);
    /* closed loop: the same stall is one slow event */
    T_CHECK(t_opts(&o, kv_closed) == 0);
    T_CHECK(t_run(&w, &o, &r, &s) == 0);
    T_CHECK(s.events == 400);
    T_CHECK(hist_percentile(s.hist, 90, s.lat_min_ns, s.lat_max_ns) < 1000000);
    load_snap_free(&s);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

static int t_load_snapshot_diff(void)
{
    static const char *const kv[] = {"threads=2", "events=40", "time=0", "cpu-max-prime=300",
                                     NULL};
    struct bench_opts o;
    struct load_run r;
    struct load_snap s, zero, d;
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(t_run(wl_find("cpu"), &o, &r, &s) == 0);
    load_snap_init(&zero, 2, 0);
    load_snap_init(&d, 2, 0);
    load_snap_diff(&d, &s, &zero, 2);
    T_CHECK(d.events == 40 && hist_total(d.hist) == 40);
    load_snap_diff(&d, &s, &s, 2);
    T_CHECK(d.events == 0 && hist_total(d.hist) == 0 && d.lat_sum_ns == 0);
    load_snap_free(&s), load_snap_free(&zero), load_snap_free(&d);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

/* The event's work is real: the prime count below 10000 is 1229 (2 is not counted: 1228). */
static int t_cpu_prime_count(void)
{
    static const char *const kv[] = {"threads=1", "events=1", "time=0", NULL};
    struct bench_opts o;
    struct load_run r;
    struct load_snap s;
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(t_run(wl_find("cpu"), &o, &r, &s) == 0);
    T_CHECK(s.ctr[0] == 1228);
    load_snap_free(&s);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

/* The percentile label shows the value asked for: %g printed 99.99999 as "100th". */
static int t_rep_pct_label_exact(void)
{
    static const struct {
        double p;
        const char *label;
    } c[] = {{99.99999, "99.99999th percentile:"}, {95, "95th percentile:"},
             {99.9, "99.9th percentile:"},         {50, "50th percentile:"},
             {100, "100th percentile:"},           {0.001, "0.001th percentile:"}};
    char l[64];
    for (size_t i = 0; i < countof(c); i++) {
        rep_pct_label(l, sizeof(l), c[i].p);
        T_CHECK(strcmp(l, c[i].label) == 0);
    }
    return 0;
}

/* --report-checkpoints=0.2,0.2,0.4: a time given twice is one checkpoint (sysbench prints
 * one); the second used to report the few milliseconds after the first. */
static int t_ck_calls;
static double t_ck_at[4];
static void t_ck_hook(void *ctx, struct load_run *r, const struct load_snap *cur, double at_s)
{
    (void)ctx, (void)r, (void)cur;
    if (t_ck_calls < 4)
        t_ck_at[t_ck_calls] = at_s;
    t_ck_calls++;
}

static int t_load_checkpoints_dedupe(void)
{
    static const struct load_hooks hk = {NULL, NULL, t_ck_hook};
    static const char *const kv[] = {"threads=2", "time=1", "cpu-max-prime=300", NULL};
    struct bench_opts o;
    struct load_run r;
    T_CHECK(t_opts(&o, kv) == 0);
    o.nckpt = 3;
    o.ckpt[0] = o.ckpt[1] = 0.2;
    o.ckpt[2] = 0.4;
    load_run_init(&r, wl_find("cpu"), &o);
    T_CHECK(load_start(&r) == B_OK);
    load_go(&r);
    load_run_main(&r, &hk);
    T_CHECK(t_ck_calls == 2 && t_ck_at[0] == 0.2 && t_ck_at[1] == 0.4);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}

/* A stop set because the report's reader went away (b_stop = SIGPIPE) is not the user's
 * first signal: the user's SIGINT that follows is a first one (stop in order, exit 1), not
 * a second one (_exit(130) that skips the cleanup). In a child: _exit kills the caller. */
static int t_os_signal_after_lost_reader(void)
{
    pid_t pid = fork();
    T_CHECK(pid >= 0);
    if (pid == 0) {
        atomic_store(&b_stop, SIGPIPE);
        os_on_signal(SIGINT);
        _exit(atomic_load(&b_stop) == SIGINT ? 0 : 2);
    }
    int st = 0;
    T_CHECK(waitpid(pid, &st, 0) == pid);
    T_CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return 0;
}
