/* bench all (section all_): --expect's grammar, the verdicts of a threshold, the checks over
 * a result's facts and the derived settings' rules. Included by tests/unit.c. */

static int t_all_expect_parse(void)
{
    struct all_expect t[8];
    char bad[96];
    int n = all_expect_parse("cpu.events_per_s>=1500, disk.fdatasync_p99_ms <= 5\n# c\nx==1e3",
                             t, 8, bad, sizeof(bad));
    T_CHECK(n == 3);
    T_CHECK(!strcmp(t[0].path, "cpu.events_per_s") && !strcmp(t[0].op, ">=") && t[0].v == 1500);
    T_CHECK(!strcmp(t[1].path, "disk.fdatasync_p99_ms") && !strcmp(t[1].op, "<=") && t[1].v == 5);
    T_CHECK(!strcmp(t[2].op, "==") && t[2].v == 1000);
    T_CHECK(all_expect_holds(&t[0], 1500) && !all_expect_holds(&t[0], 1499.9));
    T_CHECK(all_expect_holds(&t[1], 5) && !all_expect_holds(&t[1], 5.01));
    static const char *const bads[] = {"a>>1", "a>=", ">=1", "a 1", "a>=1x", "a=>1", "a>=nan"};
    for (size_t i = 0; i < countof(bads); i++) {
        T_CHECK(all_expect_parse(bads[i], t, 8, bad, sizeof(bad)) == -1);
        T_CHECK(!strcmp(bad, bads[i]));
    }
    T_CHECK(all_expect_parse("a<1,b>2,c<3", t, 2, bad, sizeof(bad)) == -1); /* too many */
    T_CHECK(all_expect_parse(" , ,", t, 8, bad, sizeof(bad)) == 0);
    return 0;
}

static int t_all_verdicts(void)
{
    T_CHECK(all_verdict(true, 1.9, 2, 10) == ALL_PASS);
    T_CHECK(all_verdict(true, 2, 2, 10) == ALL_WARN);
    T_CHECK(all_verdict(true, 10, 2, 10) == ALL_WARN);
    T_CHECK(all_verdict(true, 10.1, 2, 10) == ALL_FAIL);
    T_CHECK(all_verdict(false, 0.79, 0.8, NAN) == ALL_WARN);
    T_CHECK(all_verdict(false, 0.8, 0.8, NAN) == ALL_PASS);
    /* checks over facts: absent = INFO, present = its verdict */
    struct bench_opts o;
    struct res r;
    memset(&o, 0, sizeof(o));
    res_init(&r, NULL, "all", &o, NULL);
    res_fact_num(&r, "disk.fdatasync_p99_ms", 12);
    res_fact_int(&r, "swappiness", 1);
    T_CHECK(all_run_checks(&r) == ALL_FAIL);
    int seen = 0;
    for (int i = 0; i < r.nsteps; i++) {
        const struct res *s = &r.steps[i];
        const char *id = all_str(s, "id"), *v = all_str(s, "verdict");
        const char *want = !strcmp(id, "durable_writes") ? "FAIL"
                           : !strcmp(id, "swappiness")   ? "PASS"
                           : !strcmp(id, "steal")        ? "INFO"
                                                         : NULL;
        if (want) {
            seen++;
            T_CHECK(!strcmp(v, want));
        }
    }
    T_CHECK(seen == 3);
    res_free(&r);
    return 0;
}

/* innodb_io_capacity = QD32 random-write IOPS x 0.5 rounded to 100, in [200, 20000];
 * _max = min(2 x capacity, IOPS), at least 2000; the buffer pool by RAM. */
static int t_all_settings(void)
{
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    memset(&o, 0, sizeof(o));
    memset(&x, 0, sizeof(x));
    res_init(&r, NULL, "all", &o, NULL);
    x.res = &r, x.o = &o, x.ncpu = 8, x.direct = true;
    res_fact_int(&r, "mem_total_bytes", 16ll << 30);
    res_fact_num(&r, "disk.randwrite_qd32_iops", 23792);
    res_fact_bool(&r, "disk.not_a_disk", false);
    all_settings(&x);
    T_CHECK(all_num(&r, "rec.innodb_io_capacity", NULL) == 11900);
    T_CHECK(all_num(&r, "rec.innodb_io_capacity_max", NULL) == 23700);
    T_CHECK(all_num(&r, "rec.innodb_buffer_pool_size_bytes", NULL) == 12.0 * 1073741824);
    res_free(&r);
    res_init(&r, NULL, "all", &o, NULL);
    x.res = &r;
    res_fact_int(&r, "mem_total_bytes", 2ll << 30);
    res_fact_num(&r, "disk.randwrite_qd32_iops", 150);
    res_fact_bool(&r, "disk.not_a_disk", false);
    all_settings(&x);
    T_CHECK(all_num(&r, "rec.innodb_io_capacity", NULL) == 200);
    T_CHECK(all_num(&r, "rec.innodb_io_capacity_max", NULL) == 2000);
    T_CHECK(all_num(&r, "rec.innodb_buffer_pool_size_bytes", NULL) == 1073741824.0);
    res_free(&r);
    return 0;
}
