/* rep_json_: the JSON writer (docs/json.md): the string escaper and one whole document. */

/* Escape s[0..n) and compare with want (quotes included). */
static int t_json_esc1(const char *s, size_t n, const char *want)
{
    struct buf b = {0};
    rep_json_esc(&b, s, n);
    int ok = !strcmp(b.p, want);
    if (!ok)
        fprintf(stderr, "  escape: got %s want %s\n", b.p, want);
    buf_free(&b);
    return ok;
}

static int t_json_escape(void)
{
    T_CHECK(t_json_esc1("", 0, "\"\""));
    T_CHECK(t_json_esc1("plain text 123", 14, "\"plain text 123\""));
    T_CHECK(t_json_esc1("q\"b\\s/", 6, "\"q\\\"b\\\\s/\""));
    T_CHECK(t_json_esc1("\n\t\r\b\f", 5, "\"\\n\\t\\r\\b\\f\""));
    T_CHECK(t_json_esc1("\x01\x1f\x7f", 3, "\"\\u0001\\u001f\\u007f\""));
    T_CHECK(t_json_esc1("a\0b", 3, "\"a\\u0000b\""));                 /* NUL inside */
    T_CHECK(t_json_esc1("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14,
                        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"")); /* valid UTF-8 */
    T_CHECK(t_json_esc1("\x80", 1, "\"\\ufffd\""));                   /* stray continuation */
    T_CHECK(t_json_esc1("\xc0\xaf", 2, "\"\\ufffd\\ufffd\""));        /* overlong '/' */
    T_CHECK(t_json_esc1("\xe0\x80\xaf", 3, "\"\\ufffd\\ufffd\\ufffd\"")); /* overlong, 3 */
    T_CHECK(t_json_esc1("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\"")); /* surrogate */
    T_CHECK(t_json_esc1("\xf4\x90\x80\x80", 4,
                        "\"\\ufffd\\ufffd\\ufffd\\ufffd\""));          /* > U+10FFFF */
    T_CHECK(t_json_esc1("\xe2\x82", 2, "\"\\ufffd\\ufffd\""));        /* truncated */
    T_CHECK(t_json_esc1("x\xff\xfey", 4, "\"x\\ufffd\\ufffdy\""));
    T_CHECK(t_json_esc1("\xc3", 1, "\"\\ufffd\""));                   /* cut at the end */
    return 0;
}

/* Numbers: integers as integers, doubles round-trip, NaN and infinities are null. */
static int t_json_numbers(void)
{
    struct rep_json j = {{0}, false};
    rep_json_open(&j, '[');
    rep_json_num(&j, 0.1);
    rep_json_num(&j, 2);
    rep_json_num(&j, 2500000);
    rep_json_num(&j, 0.00001);
    rep_json_num(&j, 1e300);
    rep_json_num(&j, NAN);
    rep_json_num(&j, -INFINITY);
    rep_json_int(&j, INT64_MIN);
    rep_json_u64(&j, UINT64_MAX);
    rep_json_num(&j, 1.0 / 3);
    rep_json_close(&j, ']');
    const char *want = "[0.1,2,2500000,1e-05,1e+300,null,null,-9223372036854775808,"
                       "18446744073709551615,"
                       "0.3333333333333333]";
    if (strcmp(j.b.p, want))
        fprintf(stderr, "  got %s\n want %s\n", j.b.p, want);
    T_CHECK(!strcmp(j.b.p, want));
    buf_free(&j.b);
    /* a progress line of a command, as the JSON sink writes it */
    struct rep_json k = {{0}, false};
    rep_json_say(&k, RES_SAY_PROGRESS, "Creating table 'sbtest1'...\x1b[0m");
    T_CHECK(!strcmp(k.b.p, "{\"type\":\"progress\",\"message\":\"Creating table "
                           "'sbtest1'...\\u001b[0m\"}"));
    buf_free(&k.b);
    return 0;
}

/* One synthetic fileio result: facts of every type, a warning, an interval, two threads,
 * per-operation histograms; compared as exact text (the options object is checked apart: it
 * grows with every new option). */
static int t_json_doc(void)
{
    static const char *const kv[] = {"threads=2", "mysql-password=s3cret", "percentile=95",
                                     NULL};
    static const char *const argv[] = {"bench", "fileio", "run", "--mysql-password=***"};
    static const char want_head[] =
        "{\"type\":\"result\",\"schema_version\":1,\"schema_minor\":1,"
        "\"bench_version\":\"v-test\","
        "\"command\":[\"bench\",\"fileio\",\"run\",\"--mysql-password=***\"],"
        "\"started_at\":\"2026-01-02T03:04:05.678Z\",\"host\":{\"hostname\":\"h\\\"1\","
        "\"kernel\":\"6.1\",\"cpus\":4,\"memory_bytes\":1073741824,\"fallbacks\":[]},"
        "\"options\":{";
    static const char want_tail[] =
        "\"exit_code\":0,\"action\":\"run\",\"workload\":\"fileio\",\"elapsed_s\":2.5,"
        "\"facts\":{\"fs_type\":\"ext4\",\"files\":2,\"ratio\":0.5,\"direct\":true},"
        "\"results\":{\"events\":4,\"events_per_s\":2,\"total_time_s\":2,\"window_s\":2,"
        "\"window_start_unix_ns\":1000000000,\"window_end_unix_ns\":3000000000,\"threads\":2,\"unfinished_events\":0,\"reads\":3,\"reads_per_s\":1.5,\"writes\":1,"
        "\"writes_per_s\":0.5,\"fsyncs\":0,\"fsyncs_per_s\":0,\"read_bytes\":12288,"
        "\"read_bytes_per_s\":6144,\"written_bytes\":4096,\"written_bytes_per_s\":2048,"
        "\"latency_ns\":{\"min\":1000000,\"avg\":2500000,\"max\":4000000,\"sum\":10000000,"
        "\"percentiles\":{\"p95\":4000000},\"histogram\":{\"scheme\":\"log-linear\","
        "\"sub_bits\":8,\"max_exp\":42,\"buckets\":[[1780,1],[1908,1],[1975,1],[2036,1]]}},"
        "\"operations\":{\"read\":{\"count\":3,\"latency_ns\":{\"percentiles\":{\"p95\":"
        "3006463},\"histogram\":{\"scheme\":\"log-linear\",\"sub_bits\":8,\"max_exp\":42,"
        "\"buckets\":[[1780,1],[1908,1],[1975,1]]}}},\"write\":{\"count\":1,\"latency_ns\":{"
        "\"percentiles\":{\"p95\":4005887},\"histogram\":{\"scheme\":\"log-linear\","
        "\"sub_bits\":8,\"max_exp\":42,\"buckets\":[[2036,1]]}}},\"fsync\":{\"count\":0,"
        "\"latency_ns\":{\"percentiles\":{\"p95\":0},\"histogram\":{\"scheme\":\"log-linear\","
        "\"sub_bits\":8,\"max_exp\":42,\"buckets\":[]}}}},\"per_thread\":{\"events_mean\":2,"
        "\"events_stddev\":1,\"time_mean_s\":0.004999999999999999,"
        "\"time_stddev_s\":0.003999999999999999,\"events\":[1,3],\"time_ns\":[1000000,9000000]}},"
        "\"intervals\":[{\"type\":\"interval\",\"at_s\":1,\"interval_s\":1,\"end_unix_ns\":0,"
        "\"events\":2,"
        "\"events_per_s\":2,\"reads\":1,\"reads_per_s\":1,\"writes\":1,\"writes_per_s\":1,"
        "\"fsyncs\":0,\"fsyncs_per_s\":0,\"read_bytes\":4096,\"read_bytes_per_s\":4096,"
        "\"written_bytes\":4096,\"written_bytes_per_s\":4096,\"threads_running\":2,"
        "\"rate_limited\":false,\"queue_length\":0,\"concurrency\":1,\"latency_ns\":{"
        "\"percentiles\":{\"p95\":2000000}}}],\"checkpoints\":[],\"warnings\":[{\"code\":"
        "\"page_cache\",\"message\":\"files fit in memory\",\"hint\":\"use --file-total-size\"},"
        "{\"code\":\"x\",\"message\":\"tab\\there\",\"hint\":null}],\"complete\":true,"
        "\"end\":\"limit\",\"error\":null,\"steps\":[]}";
    struct bench_opts o;
    struct load_run r;
    struct load_snap cur;
    const struct wl_def *w = wl_find("fileio");
    T_CHECK(w && t_opts(&o, kv) == 0);
    load_run_init(&r, w, &o);
    r.t_start_ns = 0;
    r.t_measure_ns = r.base.t_ns = 1000000000u;
    res_snap_init(&cur, 2, w->nops);
    cur.events = 4;
    cur.lat_min_ns = 1000000, cur.lat_max_ns = 4000000, cur.lat_sum_ns = 10000000;
    cur.thr_events[0] = 1, cur.thr_events[1] = 3;
    cur.thr_sum_ns[0] = 1000000, cur.thr_sum_ns[1] = 9000000;
    cur.ctr[0] = 3, cur.ctr[1] = 1, cur.ctr[3] = 12288, cur.ctr[4] = 4096;
    for (u64 ms = 1; ms <= 4; ms++) {
        hist_record(cur.hist, ms * 1000000);
        hist_record(&cur.op_hist[ms == 4 ? 1 : 0], ms * 1000000);
    }
    cur.t_ns = 3000000000u;

    struct res res;
    res_init(&res, w, "run", &o, NULL);
    res.started_unix_ms = 1767323045678; /* 2026-01-02T03:04:05.678Z */
    res.elapsed_s = 2.5;
    res_fact_str(&res, "fs_type", "ext4");
    res_fact_int(&res, "files", 2);
    res_fact_num(&res, "ratio", 0.5);
    res_fact_bool(&res, "direct", true);
    res_warn(&res, "page_cache", "use --file-total-size", "files fit in memory");
    res_warn(&res, "x", NULL, "tab\there");
    res_stats_from(&res.final, &r, &cur, cur.t_ns);
    res.have_final = true;
    res.end = RES_END_LIMIT;
    res.complete = true;
    struct res_interval iv = {.at_s = 1, .secs = 1, .events = 2, .running = 2, .busy = 1,
                              .npct = 1};
    iv.ctr[0] = 1, iv.ctr[1] = 1, iv.ctr[3] = 4096, iv.ctr[4] = 4096;
    iv.pct_ns[0] = 2000000;
    res.iv = &iv;
    res.niv = 1;

    struct rep_json_env env = {"v-test", 4, argv, "h\"1", "6.1", 4, 1u << 30, 0};
    struct rep_json j = {{0}, false};
    rep_json_doc(&j, &res, &env);
    res.iv = NULL;
    res.niv = 0;

    const char *opts_at = strstr(j.b.p, "\"options\":{");
    const char *tail = strstr(j.b.p, "},\"exit_code\":");
    int ok = opts_at && tail && !strncmp(j.b.p, want_head, sizeof(want_head) - 1) &&
             opts_at + strlen("\"options\":{") == j.b.p + sizeof(want_head) - 1 &&
             !strcmp(tail + 2, want_tail);
    if (!ok)
        fprintf(stderr, "  got:\n%s\n  want:\n%s...%s\n", j.b.p, want_head, want_tail);
    T_CHECK(ok);
    /* options: typed, every table, the secret masked */
    T_CHECK(strstr(j.b.p, "\"threads\":2,"));
    T_CHECK(strstr(j.b.p, "\"mysql-password\":\"***\""));
    T_CHECK(!strstr(j.b.p, "s3cret"));
    T_CHECK(strstr(j.b.p, "\"percentile\":[\"95\"]"));
    T_CHECK(strstr(j.b.p, "\"file-io-mode\":\"sync\""));
    T_CHECK(strstr(j.b.p, "\"file-total-size\":2147483648"));
    T_CHECK(strstr(j.b.p, "\"rand-pareto-h\":0.2,"));
    T_CHECK(strstr(j.b.p, "\"validate\":false"));
    /* the kernel fallbacks taken (fact "fallbacks", os_fallback_fact): host.fallbacks */
    res_fact_str(&res, "fallbacks", "statx, io_uring");
    struct rep_json fj = {{0}, false};
    rep_json_doc(&fj, &res, &env);
    T_CHECK(strstr(fj.b.p, "\"memory_bytes\":1073741824,\"fallbacks\":[\"statx\",\"io_uring\"]},"));
    buf_free(&fj.b);

    /* a failed command: error filled, complete false */
    struct res f;
    res_init(&f, w, "prepare", &o, NULL);
    (void)!b_seterr(&f.err, B_SYSERR, ENOSPC,
                    "writing test_file.0: No space left on device");
    b_hint(&f.err, "free some space");
    f.rc = B_SYSERR;
    struct rep_json k = {{0}, false};
    rep_json_open(&k, '{');
    rep_json_core(&k, &f, rep_json_complete(&f));
    rep_json_close(&k, '}');
    T_CHECK(strstr(k.b.p, "\"complete\":false,\"end\":null,\"error\":{\"code\":\"B_SYSERR\","
                          "\"errno_name\":\"ENOSPC\",\"message\":\"writing test_file.0: No "
                          "space left on device\",\"hint\":\"free some space\"}"));
    buf_free(&k.b);
    res_free(&f);

    buf_free(&j.b);
    res_free(&res);
    res_snap_free(&cur);
    load_run_free(&r);
    t_opts_free(&o);
    return 0;
}
