/* --start-at (load_start_at_parse, load_clock_refuse) and the exactness of merged histograms
 * (res_stats_merge, what `bench merge` adds). */

static int t_load_start_at_parse(void)
{
    const i64 s = 1000000000;
    const i64 now = 1796220000 * s - 3600 * s; /* 2026-12-02T13:00:00Z */
    i64 t = 0;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(load_start_at_parse("2026-12-02T14:00:00Z", now, &t, &e) == B_EXIT_OK);
    T_CHECK(t == 1796220000 * s);
    T_CHECK(load_start_at_parse("2026-12-02t14:00:00.25z", now, &t, &e) == B_EXIT_OK);
    T_CHECK(t == 1796220000 * s + 250000000);
    T_CHECK(load_start_at_parse("2026-12-02T14:00:00.123456789123+00:00", now, &t, &e) ==
            B_EXIT_OK);
    T_CHECK(t == 1796220000 * s + 123456789);
    T_CHECK(load_start_at_parse("+2", now, &t, &e) == B_EXIT_OK && t == now + 2 * s);
    T_CHECK(load_start_at_parse("+0.5", now, &t, &e) == B_EXIT_OK && t == now + s / 2);
    /* refused: not a time, not UTC, a day that does not exist, past, too far */
    static const char *const bad[] = {"", "+", "+0", "+-1", "+2s", "tomorrow", "2026-12-02",
                                      "2026-12-02T14:00Z", "2026-13-02T14:00:00Z",
                                      "2026-02-30T00:00:00Z", "2026-12-02T24:00:00Z",
                                      "2026-12-02T14:00:00", "2026-12-02T14:00:00.Z",
                                      "2026-12-02T14:00:00Zjunk", "+100000"};
    for (size_t i = 0; i < countof(bad); i++) {
        memset(&e, 0, sizeof(e));
        T_CHECK(load_start_at_parse(bad[i], now, &t, &e) == B_EXIT_USAGE);
        T_CHECK(strstr(e.msg, "--start-at=") == e.msg);
    }
    memset(&e, 0, sizeof(e));
    T_CHECK(load_start_at_parse("2026-12-02T14:00:00+02:00", now, &t, &e) == B_EXIT_USAGE);
    T_CHECK(strstr(e.msg, "only UTC"));
    memset(&e, 0, sizeof(e));
    T_CHECK(load_start_at_parse("2026-12-02T12:59:58.5Z", now, &t, &e) == B_EXIT_USAGE);
    T_CHECK(strstr(e.msg, "1.500 s in the past") && strstr(e.msg, "2026-12-02T13:00:00.000Z"));
    T_CHECK(e.hint[0]);
    memset(&e, 0, sizeof(e));
    T_CHECK(load_start_at_parse("2026-12-02T13:00:00Z", now, &t, &e) == B_EXIT_USAGE); /* now */
    memset(&e, 0, sizeof(e));
    T_CHECK(load_start_at_parse("2026-12-04T13:00:00Z", now, &t, &e) == B_EXIT_USAGE);
    T_CHECK(strstr(e.msg, "more than a day"));
    /* far future: compared before the multiply (no overflow), and not "in the past" */
    static const char *const far[] = {"9999-12-31T23:59:59Z", "+86401", "+86400.5",
                                      "+99999999999999999999999999"};
    for (size_t i = 0; i < countof(far); i++) {
        memset(&e, 0, sizeof(e));
        T_CHECK(load_start_at_parse(far[i], now, &t, &e) == B_EXIT_USAGE);
        T_CHECK(strstr(e.msg, "more than a day") && !strstr(e.msg, "past"));
    }
    T_CHECK(load_start_at_parse("+86400", now, &t, &e) == B_EXIT_OK && t == now + 86400 * s);
    T_CHECK(load_start_at_parse("+1.000000001", now, &t, &e) == B_EXIT_OK && t == now + s + 1);
    /* decimal digits only: no hex, exponent, sign or space that strtod would take */
    static const char *const notnum[] = {"+0x10", "+1e3", "+1E3", "+0.", "+.5", "+1.5.",
                                         "+ 5", "+inf", "+nan", "+5 ", "+0.0", "++5"};
    for (size_t i = 0; i < countof(notnum); i++) {
        memset(&e, 0, sizeof(e));
        T_CHECK(load_start_at_parse(notnum[i], now, &t, &e) == B_EXIT_USAGE);
        T_CHECK(strstr(e.msg, "not a time"));
    }
    return 0;
}

static int t_load_clock_refuse(void)
{
    struct load_clock c = {true, false, 16000000, 16000000};
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(load_clock_refuse(&c, false, &e) == B_UNSUPPORTED);
    T_CHECK(strstr(e.msg, "not synchronized") && strstr(e.msg, "16000.000 ms"));
    T_CHECK(strstr(e.hint, "--start-at-force") && e.ex == B_EXIT_ENV);
    memset(&e, 0, sizeof(e));
    T_CHECK(load_clock_refuse(&c, true, &e) == B_OK && !e.msg[0]); /* --start-at-force */
    c.synced = true;
    T_CHECK(load_clock_refuse(&c, false, &e) == B_OK && !e.msg[0]);
    c.known = false, c.synced = false; /* adjtimex did not answer: not a refusal */
    T_CHECK(load_clock_refuse(&c, false, &e) == B_OK && !e.msg[0]);
    /* this machine's clock: the reading is consistent with itself */
    load_clock_read(&c);
    T_CHECK(!c.known || (c.maxerror_us >= 0 && c.esterror_us >= 0));
    return 0;
}

/* Samples spread over three "clients" with different distributions: their statistics merged
 * by res_stats_merge equal one histogram fed every sample, bucket by bucket and in every
 * percentile (clamped to the merged min and max). */
static int t_mrg_hist_exact(void)
{
    struct res_stats cl[3], m;
    struct hist *all = b_xcalloc(1, sizeof(*all));
    struct rnd r = {{0x1234567, 0x89abcdef}};
    u64 mn = UINT64_MAX, mx = 0, n = 0, sum = 0;
    memset(&m, 0, sizeof(m));
    res_snap_init(&m.d, 1, 0);
    for (int c = 0; c < 3; c++) {
        memset(&cl[c], 0, sizeof(cl[c]));
        res_snap_init(&cl[c].d, 1, 0);
        cl[c].d.lat_min_ns = UINT64_MAX;
        for (int i = 0; i < 20000 + 7000 * c; i++) {
            u64 v = 1000 + (rnd_next(&r) % (u64)(50000 << (4 * c))) + (c == 2 && i % 97 == 0 ? 5000000000u : 0);
            hist_record(cl[c].d.hist, v);
            hist_record(all, v);
            cl[c].d.events++, cl[c].d.lat_sum_ns += v, n++, sum += v;
            cl[c].d.lat_min_ns = B_MIN(cl[c].d.lat_min_ns, v);
            cl[c].d.lat_max_ns = B_MAX(cl[c].d.lat_max_ns, v);
            mn = B_MIN(mn, v), mx = B_MAX(mx, v);
        }
        cl[c].window_s = 10;
        T_CHECK(res_stats_merge(&m, &cl[c]) == B_OK);
    }
    T_CHECK(m.d.events == n && m.d.lat_sum_ns == sum && m.d.lat_min_ns == mn &&
            m.d.lat_max_ns == mx);
    for (unsigned i = 0; i < HIST_NBUCKETS; i++)
        T_CHECK(atomic_load(&m.d.hist->count[i]) == atomic_load(&all->count[i]));
    static const double ps[] = {0.001, 1, 50, 90, 95, 99, 99.9, 99.99, 100};
    for (size_t i = 0; i < countof(ps); i++)
        T_CHECK(hist_percentile(m.d.hist, ps[i], m.d.lat_min_ns, m.d.lat_max_ns) ==
                hist_percentile(all, ps[i], mn, mx));
    /* and not the mean of the clients' percentiles: that would be another number */
    u64 p99 = hist_percentile(all, 99, mn, mx), avg = 0;
    for (int c = 0; c < 3; c++)
        avg += hist_percentile(cl[c].d.hist, 99, cl[c].d.lat_min_ns, cl[c].d.lat_max_ns) / 3;
    T_CHECK(avg != p99);
    for (int c = 0; c < 3; c++)
        res_snap_free(&cl[c].d);
    res_snap_free(&m.d);
    free(all);
    return 0;
}

/* mrg_load within the budget of all the results together: a result that fits is read and
 * its memory taken from the budget; one that does not fit the rest is refused with merge's
 * own line (not the reader's "is this a report?"), exit 3. */
static int t_mrg_budget(void)
{
    char path[] = "/tmp/bench-t-mrg-XXXXXX";
    int fd = mkstemp(path);
    T_CHECK(fd >= 0);
    static const char doc[] = "{\"type\":\"result\",\"results\":{\"events\":1,"
                              "\"v\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]}}\n";
    T_CHECK(write(fd, doc, sizeof(doc) - 1) == (ssize_t)(sizeof(doc) - 1));
    close(fd);
    struct mrg_client c;
    struct b_err e;
    memset(&c, 0, sizeof(c));
    memset(&e, 0, sizeof(e));
    c.path = path;
    size_t budget = (size_t)1 << 20;
    T_CHECK(mrg_load(&c, &budget, &e) == B_OK);
    size_t took = ((size_t)1 << 20) - budget;
    T_CHECK(took > 0 && took == c.doc.arena_bytes);
    jr_free(&c.doc);
    memset(&c, 0, sizeof(c));
    c.path = path;
    budget = took - 1; /* one byte short of what this result needs */
    T_CHECK(mrg_load(&c, &budget, &e) == B_INVALID);
    T_CHECK(e.ex == B_EXIT_ENV);
    T_CHECK(strstr(e.msg, "need more than the 1024 MiB merge allows for all of them") != NULL);
    T_CHECK(strncmp(e.msg, "merge: /tmp/bench-t-mrg-", 24) == 0);
    unlink(path);
    return 0;
}

/* mrg_load on a result pretty-printed over many lines (jq .): one document, read whole; the
 * JSON lines of a run: the last line; a cut-off pretty document: a lost client, said so. And
 * mrg_rate_window: the merged rate (events / the window) is the sum of the clients' rates. */
static int t_mrg_pretty(void)
{
    static const char *const docs[] = {
        "{\n  \"type\": \"result\",\n  \"results\": {\n    \"events\": 7\n  }\n}\n",
        "{\"type\":\"interval\",\"at_s\":1}\n{\"type\":\"result\",\"results\":{\"events\":8}}\n",
        "{\n  \"type\": \"result\",\n  \"results\": {\n",
    };
    static const i64 want[] = {7, 8, -1};
    for (size_t k = 0; k < countof(docs); k++) {
        char path[] = "/tmp/bench-t-mrg-XXXXXX";
        int fd = mkstemp(path);
        T_CHECK(fd >= 0);
        T_CHECK(write(fd, docs[k], strlen(docs[k])) == (ssize_t)strlen(docs[k]));
        close(fd);
        struct mrg_client c;
        struct b_err e;
        memset(&c, 0, sizeof(c));
        memset(&e, 0, sizeof(e));
        c.path = path;
        size_t budget = (size_t)1 << 20;
        i64 ev = -1;
        T_CHECK(mrg_load(&c, &budget, &e) == B_OK);
        T_CHECK(c.ok == (want[k] >= 0));
        if (c.ok)
            T_CHECK(jr_i64(jr_path(c.root, "results.events"), &ev) && ev == want[k]);
        else
            T_CHECK(strstr(c.why, "cut off") != NULL);
        jr_free(&c.doc);
        unlink(path);
    }
    /* clients of 100 events in 1 s and 300 in 2 s, 0.5 s in common: 250/s, not 800/s */
    double wnd = mrg_rate_window(400, 100.0 / 1 + 300.0 / 2, 0.5);
    T_CHECK(fabs(400 / wnd - 250) < 1e-9);
    T_CHECK(mrg_rate_window(0, 0, 0.5) == 0.5 && mrg_rate_window(5, 0, 0.5) == 0.5);
    return 0;
}

/* mrg_show (issue 29, coverage): a value of a client's file as a mismatch line shows it: absent,
 * a string quoted and escaped, a number as written, arrays and objects with their members,
 * true/false/null by name, a long array cut at the buffer's end. */
static int t_mrg_show(void)
{
    static const struct {
        const char *doc, *key, *want;
    } t[] = {
        {"{\"a\":1}", "b", "absent"},
        {"{\"a\":\"x\\ny\"}", "a", "'x\\ny'"},
        {"{\"a\":1.50e3}", "a", "1.50e3"},
        {"{\"a\":[1,\"s\",[true,null]]}", "a", "[1,'s',[true,null]]"},
        {"{\"a\":{\"k\":false}}", "a", "{false}"},
        {"{\"a\":[]}", "a", "[]"},
    };
    for (size_t i = 0; i < countof(t); i++) {
        struct jr_doc d;
        struct b_err e;
        char out[128];
        memset(&e, 0, sizeof(e));
        T_CHECK(jr_parse(t[i].doc, strlen(t[i].doc), "t", &d, &e) == B_OK);
        const char *got = mrg_show(jr_get(d.root, t[i].key), out, sizeof(out));
        if (strcmp(got, t[i].want))
            fprintf(stderr, "  %s: '%s', want '%s'\n", t[i].doc, got, t[i].want);
        T_CHECK(!strcmp(got, t[i].want));
        jr_free(&d);
    }
    /* 100 members in 40 bytes: cut, never past the buffer */
    char big[512] = "{\"a\":[", out[40];
    for (int i = 0; i < 100; i++)
        strcat(big, i ? ",7" : "7");
    strcat(big, "]}");
    struct jr_doc d;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse(big, strlen(big), "t", &d, &e) == B_OK);
    mrg_show(jr_get(d.root, "a"), out, sizeof(out));
    T_CHECK(strlen(out) == sizeof(out) - 1 && !strncmp(out, "[7,7,7,", 7));
    jr_free(&d);
    return 0;
}
