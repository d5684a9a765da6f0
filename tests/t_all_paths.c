/*
 * bench all's steps off the quick path the suites run (issue 29: branch coverage of all_, the
 * behaviour asserted): each level's options for the steps whose size depends on it (only
 * --quick runs in the suites: default and thorough take minutes), a step whose run fails (a
 * warning naming it, the repeats stopped at the first failure, no measure), a test file that
 * cannot be written (a link where it goes: said as the step's failure), a --dir whose own directory's name is too
 * long (skipped, said). No server, no disk I/O beyond a temporary directory: milliseconds.
 */

/* t_all_ctx over every option's default (a step's workload reads its own options). */
static int t_all_ctx_dflt(struct bench_opts *o, struct res *r, struct all_ctx *x)
{
    static const char *const none[] = {NULL};
    if (t_opts(o, none) != 0)
        return -1;
    memset(x, 0, sizeof(*x));
    res_init(r, NULL, "all", o, NULL);
    x->res = r, x->o = o, x->dir_fd = -1;
    return 0;
}

/* The level's options: STREAM's passes, the latency curve's windows and huge-page pass,
 * pingpong's round trips and mutex's locks (docs/cli.md's plan, level by level). */
static int t_all_levels(void)
{
    static const struct {
        int passes;
        double lat_min_s;
        bool nothp;
        i64 trips, locks;
    } want[3] = {{3, 0.005, true, 1000, 2000},
                 {5, 0.01, true, 20000, 50000},
                 {10, 0, false, 20000, 50000}};
    const struct all_step *stream = NULL, *lat = NULL, *pp = NULL, *mx = NULL;
    for (size_t i = 0; i < countof(all_plan); i++) {
        const struct all_step *s = &all_plan[i];
        stream = !strcmp(s->name, "stream") ? s : stream;
        lat = !strcmp(s->name, "latency") ? s : lat;
        pp = !strcmp(s->name, "pingpong") ? s : pp;
        mx = !strcmp(s->name, "mutex") ? s : mx;
    }
    T_CHECK(stream && lat && pp && mx);
    for (int lv = ALL_QUICK; lv <= ALL_THOROUGH; lv++) {
        struct bench_opts o, so;
        struct res r;
        struct all_ctx x;
        t_all_ctx(&o, &r, &x);
        x.level = lv, x.ncpu = 3;
        all_base_opts(&so, &o, 0);
        stream->set(&so, &x, stream);
        T_CHECK(so.memory_passes == want[lv].passes && so.threads == 3 &&
                so.memory_mode == MEM_MODE_STREAM);
        all_base_opts(&so, &o, 0);
        lat->set(&so, &x, lat);
        T_CHECK(so.mem_lat_min_s == want[lv].lat_min_s && so.mem_lat_nothp == want[lv].nothp);
        T_CHECK(so.threads == 1 && so.memory_total_size >= 4096);
        all_base_opts(&so, &o, 0);
        pp->set(&so, &x, pp);
        T_CHECK(so.thread_round_trips == want[lv].trips && so.threads == 1);
        all_base_opts(&so, &o, 0);
        mx->set(&so, &x, mx);
        T_CHECK(so.mutex_locks == want[lv].locks && so.threads == 6);
        res_free(&r);
    }
    return 0;
}

/* A disk step whose runs fail (its test file is not there): one warning "all: step NAME:"
 * with the run's error, the repeats stopped at the first, no measure of the step. */
static int t_all_step_fails(void)
{
    char top[] = "/tmp/t_all_step.XXXXXX";
    T_CHECK(mkdtemp(top) != NULL);
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    T_CHECK(t_all_ctx_dflt(&o, &r, &x) == 0);
    x.level = ALL_QUICK, x.ncpu = 1, x.file_bytes = 1u << 20;
    snprintf(x.dir, sizeof(x.dir), "%s", top); /* no test_file.0 there */
    const struct all_step s = {"t_randread", "fileio", ALL_NEED_DISK, {0.3, 0.7, 3},
                               all_set_disk, all_take_disk, all_m_rndrd, 0, 16384,
                               "disk.t_randread", 3, all_disk_done};
    struct t_quiet q;
    T_CHECK(t_quiet_begin(&q, 2) == 0);
    all_run_step(&x, &s);
    (void)t_quiet_end(&q);
    int failed = 0;
    for (int i = 0; i < r.nwarns; i++)
        failed += !strcmp(r.warns[i].code, "step_failed") &&
                  strstr(r.warns[i].msg, "all: step t_randread: ") == r.warns[i].msg;
    T_CHECK(failed == 1);
    T_CHECK(r.nsteps == 1); /* one run, not three */
    T_CHECK(!res_fact(&r, "disk.t_randread_iops") && !res_fact(&r, "disk.t_randread_runs"));
    res_free(&r);
    t_opts_free(&o);
    rmdir(top);
    return 0;
}

/* The test file cannot be made (a symlink holds its name): its prepare's error as a
 * warning, bench's directory removed. A --dir whose directory of bench's would not fit PATH_MAX:
 * disk.status says it is skipped and why, nothing is made. */
static int t_all_disk_unmade(void)
{
    char top[] = "/tmp/t_all_unmade.XXXXXX";
    T_CHECK(mkdtemp(top) != NULL);
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    T_CHECK(t_all_ctx_dflt(&o, &r, &x) == 0);
    x.level = ALL_QUICK, x.ncpu = 1;
    char *dflt = o.file_dir;
    o.file_dir = top;
    T_CHECK(all_dir_make(&x) == B_EXIT_OK && x.dir[0]);
    char made[PATH_MAX];
    snprintf(made, sizeof(made), "%s", x.dir);
    char link[PATH_MAX + 16];
    snprintf(link, sizeof(link), "%s/test_file.0", x.dir); /* a link: never followed */
    T_CHECK(symlink("/dev/null", link) == 0);
    x.file_bytes = 1u << 20;
    struct t_quiet q;
    T_CHECK(t_quiet_begin(&q, 2) == 0);
    int ex = all_disk_file(&x, true);
    (void)t_quiet_end(&q);
    T_CHECK(ex != B_EXIT_OK && r.nwarns >= 1 && !strcmp(r.warns[0].code, "step_failed"));
    T_CHECK(strstr(r.warns[0].msg, "all: fileio prepare: ") == r.warns[0].msg);
    (void)all_disk_file(&x, false);
    all_dir_remove(&x);
    struct stat st;
    T_CHECK(stat(made, &st) != 0 && errno == ENOENT);
    res_free(&r);
    o.file_dir = dflt;
    t_opts_free(&o);
    /* a --dir of PATH_MAX - 8 characters: "/bench-all.PID" does not fit */
    static char longdir[PATH_MAX];
    memset(longdir, 'd', PATH_MAX - 8);
    longdir[0] = '/';
    longdir[PATH_MAX - 8] = 0;
    t_all_ctx(&o, &r, &x);
    x.dir_fd = -1;
    o.file_dir = longdir;
    T_CHECK(all_dir_make(&x) == B_EXIT_ENV && !x.dir[0]);
    const struct res_fact *f = res_fact(&r, "disk.status");
    T_CHECK(f && !strncmp(f->str, "skipped: cannot make ", 21) &&
            strstr(f->str, strerror(ENAMETOOLONG))); /* glibc's words or musl's */
    res_free(&r);
    rmdir(top);
    return 0;
}

/* --expect's operators on both sides of their number (all_expect_holds): the suites' runs
 * use a few; each one here, == and != on the number itself. */
static int t_all_expect_ops(void)
{
    struct all_expect t[6];
    char bad[96];
    T_CHECK(all_expect_parse("a<2, a<=2, a>2, a>=2, a==2, a!=2", t, 6, bad, sizeof(bad)) == 6);
    static const int below[6] = {1, 1, 0, 0, 0, 1}, at[6] = {0, 1, 0, 1, 1, 0},
                     above[6] = {0, 0, 1, 1, 0, 1};
    for (int i = 0; i < 6; i++)
        T_CHECK(all_expect_holds(&t[i], 1.5) == below[i] &&
                all_expect_holds(&t[i], 2) == at[i] && all_expect_holds(&t[i], 2.5) == above[i]);
    return 0;
}
