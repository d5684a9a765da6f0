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

/* The latency curve's plateaus from the curve: knees where it climbs, noise (which only adds
 * time) lowered away, levels named from the smallest; DRAM after the last knee by the LLC. */
static int t_all_lat_knees(void)
{
    /* 4K..256M: L1 to 32K, L2 to 1M, L3 to 32M, DRAM: 3 knees, 4 levels */
    double clean[17] = {1, 1, 1, 1, 4, 4, 4, 4, 4, 12, 12, 12, 12, 12, 80, 90, 90};
    double lat[4];
    u64 cap[4];
    T_CHECK(all_lat_knees(clean, 17, 32u << 20, lat, cap) == 3);
    T_CHECK(lat[0] == 1 && lat[1] == 4 && lat[2] == 12 && lat[3] == 90);
    T_CHECK(cap[0] == 32768 && cap[1] == 1u << 20 && cap[2] == 32u << 20 &&
            cap[3] == 256u << 20);
    /* a spike at 128K and a slow 4K (noise adds time): the same knees */
    double noisy[17] = {3, 1, 1, 1, 4, 18, 4, 4, 4, 12, 12, 30, 12, 12, 80, 90, 90};
    T_CHECK(all_lat_knees(noisy, 17, 32u << 20, lat, cap) == 3);
    T_CHECK(lat[0] == 1 && lat[1] == 4 && lat[2] == 12 && lat[3] == 90);
    /* a claimed L3 of 508 MiB the curve does not show: two knees; the LLC passed as L2 */
    double vm[15] = {1.2, 1.2, 1.3, 1.3, 4, 4.3, 4.5, 4.8, 32, 248, 697, 895, 1103, 1210, 1770};
    int k = all_lat_knees(vm, 15, 1u << 20, lat, cap);
    T_CHECK(k == 2);
    T_CHECK(lat[0] > 1 && lat[0] < 1.5 && lat[1] >= 4 && lat[1] <= 4.8 && lat[2] == 0);
    T_CHECK(lat[3] >= 697 && cap[1] == 512u << 10 && cap[3] == 64u << 20);
    /* the same curve where a plausible 32 MiB L3 is claimed: not DRAM, L3 */
    k = all_lat_knees(vm, 15, 32u << 20, lat, cap);
    T_CHECK(k == 2 && lat[2] >= 697 && lat[3] == 0);
    /* flat: one level */
    double flat[5] = {2, 2, 2, 2, 2};
    T_CHECK(all_lat_knees(flat, 5, 32u << 20, lat, cap) == 0 && lat[0] == 2 && lat[3] == 0);
    T_CHECK(all_lat_knees(flat, 0, 0, lat, cap) == 0 && lat[0] == 0);
    /* the claim's plausibility and the working set */
    T_CHECK(!all_llc_plausible(508ull << 20, 2) && all_llc_plausible(32ull << 20, 2) &&
            all_llc_plausible(504ull << 20, 128));
    T_CHECK(all_lat_bytes(32ull << 20, true, ALL_DEFAULT, 0) == 128ull << 20);
    T_CHECK(all_lat_bytes(508ull << 20, false, ALL_DEFAULT, 0) == 64ull << 20);
    T_CHECK(all_lat_bytes(64ull << 20, true, ALL_QUICK, 0) == 256ull << 20);
    T_CHECK(all_lat_bytes(256ull << 20, true, ALL_QUICK, 0) == 256ull << 20);
    T_CHECK(all_lat_bytes(64ull << 20, true, ALL_THOROUGH, 1ull << 30) == 256ull << 20);
    return 0;
}

/* max_connections: (RAM - pool - globals - 1G) / the per-connection buffers; swap paging
 * parsed from /proc/vmstat text. */
static int t_all_conn_swap(void)
{
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    double glob;
    bool srv;
    memset(&o, 0, sizeof(o));
    memset(&x, 0, sizeof(x));
    res_init(&r, NULL, "all", &o, NULL);
    /* MySQL 8.4 defaults: 256K+256K+128K+256K+1M+32K+16K+16M */
    T_CHECK(all_conn_bytes(&r, &glob, &srv) == 18792448.0 && !srv && glob == 25165824.0);
    res_fact_num(&r, "db.sort_buffer_size", 2097152);
    res_fact_num(&r, "db.tmp_table_size", 67108864);
    res_fact_num(&r, "db.max_heap_table_size", 33554432);
    res_fact_num(&r, "db.log_bin", 0);
    /* 2M+256K+128K+256K+1M+(no binlog)+16K+min(64M,32M) */
    T_CHECK(all_conn_bytes(&r, &glob, &srv) == 2097152.0 + 262144 + 131072 + 262144 + 1048576 +
                                                  16384 + 33554432 &&
            srv);
    res_free(&r);
    res_init(&r, NULL, "all", &o, NULL);
    x.res = &r, x.o = &o, x.ncpu = 8, x.direct = true;
    res_fact_int(&r, "mem_total_bytes", 16ll << 30);
    all_settings(&x);
    /* 16G: pool 12G; (16G - 12G - 24M - 1G) / 18792448 = 170.07 */
    T_CHECK(all_num(&r, "rec.max_connections", NULL) == 170);
    res_free(&r);
    u64 v = 0;
    T_CHECK(os_parse_vmstat("pgpgin 5\npswpin 12\npswpout 30\n", "pswpin", &v) && v == 12);
    T_CHECK(os_parse_vmstat("pswpinx 1\npswpout 30\n", "pswpout", &v) && v == 30);
    T_CHECK(!os_parse_vmstat("pswpinx 1\n", "pswpin", &v));
    T_CHECK(!os_parse_vmstat("pswpin x\n", "pswpin", &v));
    return 0;
}
