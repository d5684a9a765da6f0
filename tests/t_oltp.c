/* OLTP names that reach SQL (issue 18): validation and identifier quoting. */

static int t_oltp_names(void)
{
    struct b_err e;
    char big[70], q[OLTP_QNAME_SZ];
    memset(&e, 0, sizeof(e));
    /* characters, not bytes: 64 two-byte characters pass, 65 do not */
    T_CHECK(oltp_utf8_len("abc") == 3);
    T_CHECK(oltp_utf8_len("\xc3\xa4\xe8\xa1\xa8\xf0\x9f\x98\x80") == 3);
    T_CHECK(oltp_utf8_len("\xff") == -1);          /* not a lead byte */
    T_CHECK(oltp_utf8_len("\xc3") == -1);          /* cut inside a character */
    T_CHECK(oltp_utf8_len("\xc0\xaf") == -1);      /* overlong '/' */
    T_CHECK(oltp_utf8_len("\xed\xa0\x80") == -1);  /* a surrogate */
    T_CHECK(oltp_utf8_len("\xf4\x90\x80\x80") == -1); /* past U+10FFFF */
    struct buf u = {0};
    for (int i = 0; i < 64; i++)
        buf_put(&u, "\xc3\xa4", 2);
    buf_put(&u, "", 1);
    T_CHECK(oltp_name_check("--mysql-db (-D)", u.p, false, &e) == B_OK);
    u.len--;
    buf_put(&u, "\xc3\xa4", 3);
    T_CHECK(oltp_name_check("--mysql-db (-D)", u.p, false, &e) == B_INVALID);
    T_CHECK(strstr(e.msg, "(65 characters): longer than 64 characters") != NULL);
    buf_free(&u);
    memset(big, 'a', 64);
    big[64] = 0;
    T_CHECK(oltp_name_check("--oltp-table-name", big, false, &e) == B_OK);
    T_CHECK(oltp_name_check("--oltp-table-name", "", false, &e) == B_INVALID);
    T_CHECK(oltp_name_check("--oltp-table-name", "a\xff", false, &e) == B_INVALID &&
            !strcmp(e.msg, "--oltp-table-name: invalid name '?': not valid UTF-8"));
    /* control characters would reach terminals (messages, the one-liner's schema line) */
    T_CHECK(oltp_name_check("--mysql-db (-D)", "a\x1b[2Jb\nc", false, &e) == B_INVALID &&
            !strcmp(e.msg, "--mysql-db (-D): invalid name 'a\\x1b[2Jb\\nc': control "
                           "characters are not allowed"));
    T_CHECK(oltp_name_check("--oltp-table-name", "t\x7f", false, &e) == B_INVALID);
    T_CHECK(oltp_name_check("--mysql-storage-engine", "a\x1b", true, &e) == B_INVALID &&
            strchr(e.msg, 0x1b) == NULL);
    T_CHECK(oltp_name_check("--mysql-storage-engine", "InnoDB_2", true, &e) == B_OK);
    T_CHECK(oltp_name_check("--mysql-storage-engine", "innodb */ x", true, &e) == B_INVALID);
    /* sbtest<N> as sysbench writes it; any other name in backticks, inner ones doubled */
    oltp_quote("sbtest12", q, sizeof(q));
    T_CHECK(!strcmp(q, "sbtest12"));
    oltp_quote("sbtest", q, sizeof(q));
    T_CHECK(!strcmp(q, "sbtest"));
    oltp_quote("sbtest1x", q, sizeof(q));
    T_CHECK(!strcmp(q, "`sbtest1x`"));
    oltp_quote("x`; DROP TABLE y; --", q, sizeof(q));
    T_CHECK(!strcmp(q, "`x``; DROP TABLE y; --`"));
    oltp_quote("``", q, sizeof(q));
    T_CHECK(!strcmp(q, "``````"));
    /* the longest valid name fits, quoted, with every character a backtick */
    memset(big, '`', 64);
    big[64] = 0;
    oltp_quote(big, q, sizeof(q));
    T_CHECK(strlen(q) == 130 && q[0] == '`' && q[129] == '`');
    return 0;
}

/* Issue 17: a table is sysbench's data only with exactly sysbench's definition. */
static int t_oltp_sb_shape(void)
{
    const char *ai = "id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:NO:::0,"
                     "pad:char:60:NO:::0";
    const char *noai = "id:int::NO:-::0,k:int::NO:0::0,c:char:120:NO:::0,pad:char:60:NO:::0";
    /* what sysbench's prepare makes: PRIMARY KEY or KEY xid, with or without k_N */
    T_CHECK(oltp_sb_shape(ai, "k_1:1:k:,PRIMARY:0:id:", false));
    T_CHECK(oltp_sb_shape(ai, "PRIMARY:0:id:,k_12:1:k:", false));
    T_CHECK(oltp_sb_shape(noai, "PRIMARY:0:id:", false));
    T_CHECK(oltp_sb_shape(ai, "k_3:1:k:,xid:1:id:", false));
    T_CHECK(oltp_sb_shape("id:int::NO:-::0,k:int::NO:0::0", "PRIMARY:0:id:", true));
    /* anything more or else is not */
    T_CHECK(!oltp_sb_shape(ai, "", false));                                  /* no key on id */
    T_CHECK(!oltp_sb_shape(ai, "PRIMARY:0:id:,xid:1:id:", false));           /* two */
    T_CHECK(!oltp_sb_shape(ai, "extra:1:c:,k_1:1:k:,PRIMARY:0:id:", false)); /* extra index */
    T_CHECK(!oltp_sb_shape(ai, "k_1:1:k:,k_1:1:c:,PRIMARY:0:id:", false));   /* k_1 (k, c) */
    T_CHECK(!oltp_sb_shape(ai, "k_1:0:k:,PRIMARY:0:id:", false));            /* unique */
    T_CHECK(!oltp_sb_shape(ai, "k_1:1:k:,k_2:1:k:,PRIMARY:0:id:", false));   /* two on k */
    T_CHECK(!oltp_sb_shape(ai, "k_:1:k:,PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape(ai, "k_01:1:k:,PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape(ai, "k_1x:1:k:,PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape(ai, "PRIMARY:0:id:10", false));                  /* a prefix */
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:bigint::NO:0::0,c:char:120:NO:::0,"
                           "pad:char:60:NO:::0", "PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:int::NO:0::1,c:char:120:NO:::0,"
                           "pad:char:60:NO:::0", "PRIMARY:0:id:", false)); /* unsigned */
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:YES:::0,"
                           "pad:char:60:NO:::0", "PRIMARY:0:id:", false)); /* NULL allowed */
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:NO:::0,"
                           "pad:char:60:NO:x::0", "PRIMARY:0:id:", false)); /* default */
    T_CHECK(!oltp_sb_shape("id:int::NO:-:auto_increment:0,k:int::NO:0::0,c:char:120:NO:::0,"
                           "pad:char:60:NO:::0,x:int::YES:-::0", "PRIMARY:0:id:", false));
    T_CHECK(!oltp_sb_shape(ai, "PRIMARY:0:id:", true)); /* bulk_insert's has no c, pad */
    T_CHECK(!oltp_sb_shape("id:int::NO:-::0,k:int::NO:0::0", "PRIMARY:0:id:,k_1:1:k:", true));
    return 0;
}

/* Statements one event of a script runs with sysbench's default options (reads, writes,
 * other), from its row's shape: what oltp_body runs for each bit. */
static void t_oltp_counts(const struct oltp_variant *v, const struct bench_opts *o, i64 c[3])
{
    unsigned s = v->shape;
    c[0] = (s & OS_POINTS ? o->oltp_point_selects : 0) + !!(s & OS_POINT1) +
           (s & OS_RANGES && o->oltp_range_selects
                ? o->oltp_simple_ranges + o->oltp_sum_ranges + o->oltp_order_ranges +
                      o->oltp_distinct_ranges
                : 0) +
           !!(s & OS_RPOINTS) + !!(s & OS_RRANGES);
    c[1] = (s & OS_IDX_UPD ? o->oltp_index_updates : 0) +
           (s & OS_NONIDX_UPD ? o->oltp_non_index_updates : 0) +
           (s & OS_DEL_INS ? 2 * o->oltp_delete_inserts : 0) + !!(s & OS_DELETE1) +
           !!(s & OS_INSERT1);
    c[2] = s & OS_TRX && !o->oltp_skip_trx ? 2 : 0;
}

/* The variants table: every OLTP row of wl_all is one row of it, and each row's statements
 * per event are sysbench 1.0.20's (spec 4.4, "default queries per event (r/w/o)"). */
static int t_oltp_variants(void)
{
    static const struct {
        const char *name;
        i64 r, w, o;
        bool writes;
    } want[] = {
        {"oltp_read_write", 14, 4, 2, true},       {"oltp_read_only", 14, 0, 2, false},
        {"oltp_write_only", 0, 4, 2, true},        {"oltp_point_select", 1, 0, 0, false},
        {"oltp_insert", 0, 1, 0, true},            {"oltp_update_index", 0, 1, 0, true},
        {"oltp_update_non_index", 0, 1, 0, true},  {"oltp_delete", 0, 1, 0, true},
        {"select_random_points", 1, 0, 0, false},  {"select_random_ranges", 1, 0, 0, false},
        {"bulk_insert", 0, 0, 0, true}, /* a row per event; writes = flushed INSERTs */
    };
    struct bench_opts o;
    memset(&o, 0, sizeof(o));
    opt_defaults(opt_oltp, countof(opt_oltp), &o);
    T_CHECK(OLTP_NVARIANTS == (int)countof(oltp_variants) && countof(want) == countof(oltp_variants));
    int seen[OLTP_NVARIANTS] = {0};
    for (size_t i = 0; i < countof(wl_all); i++) {
        const struct wl_def *w = &wl_all[i];
        if (w->event != oltp_event)
            continue;
        T_CHECK(w->variant >= 0 && w->variant < OLTP_NVARIANTS);
        const struct oltp_variant *v = &oltp_variants[w->variant];
        T_CHECK(v->id == w->variant && !strcmp(v->name, w->name) && v->opts == w->opts &&
                v->nopts == w->nopts && oltp_variant(w) == v && wl_find(v->name) == w);
        seen[w->variant]++;
    }
    for (size_t i = 0; i < countof(oltp_variants); i++) {
        const struct oltp_variant *v = &oltp_variants[i];
        i64 c[3];
        T_CHECK(seen[i] == 1 && v->id == (int)i && !strcmp(v->name, want[i].name));
        t_oltp_counts(v, &o, c);
        if (c[0] != want[i].r || c[1] != want[i].w || c[2] != want[i].o || v->writes != want[i].writes) {
            fprintf(stderr, "  %s: %lld/%lld/%lld writes %d\n", v->name, (long long)c[0],
                    (long long)c[1], (long long)c[2], v->writes);
            return 1;
        }
        /* writes: exactly the scripts with a statement that changes rows */
        T_CHECK(v->writes == !!(v->shape & (OS_IDX_UPD | OS_NONIDX_UPD | OS_DEL_INS | OS_DELETE1 |
                                            OS_INSERT1 | OS_BULK)));
    }
    /* the statements each script prepares (its prepare_statements), counts aside */
    bool need[OQ_N];
    oltp_kinds(oltp_variants[OLTP_READ_WRITE].shape, &o, need);
    for (int k = 0; k < OQ_N; k++)
        T_CHECK(need[k] == (k <= OQ_INSERT));
    o.oltp_range_selects = false;
    oltp_kinds(oltp_variants[OLTP_READ_ONLY].shape, &o, need);
    for (int k = 0; k < OQ_N; k++)
        T_CHECK(need[k] == (k == OQ_POINT));
    oltp_kinds(oltp_variants[OLTP_INSERT].shape, &o, need);
    oltp_kinds(oltp_variants[OLTP_BULK_INSERT].shape, &o, need);
    for (int k = 0; k < OQ_N; k++)
        T_CHECK(!need[k]);
    oltp_kinds(oltp_variants[OLTP_RANDOM_RANGES].shape, &o, need);
    T_CHECK(need[OQ_RRANGES] && !need[OQ_RPOINTS] && !need[OQ_POINT]);
    opt_free_strings(opt_oltp, countof(opt_oltp), &o);
    return 0;
}

/* A check that fails fills the b_err, in both personas' words, and prints nothing. */
static int t_oltp_check_err(void)
{
    struct bench_opts o;
    struct b_err e;
    char path[] = "/tmp/bench-t-oltp-XXXXXX";
    int fd = mkstemp(path);
    T_CHECK(fd >= 0);
    unlink(path);
    memset(&o, 0, sizeof(o));
    memset(&e, 0, sizeof(e));
    o.oltp_engine = (char *)"innodb */ AS SELECT 1 /*";
    o.mysql_host = (char *)"127.0.0.1";
    o.mysql_port = (char *)"3306";
    fflush(stdout);
    fflush(stderr);
    int o1 = dup(1), o2 = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    int ex = oltp_check(&o, &e);
    fflush(stdout);
    fflush(stderr);
    dup2(o1, 1);
    dup2(o2, 2);
    close(o1);
    close(o2);
    off_t printed = lseek(fd, 0, SEEK_END);
    close(fd);
    T_CHECK(printed == 0);
    T_CHECK(ex == B_EXIT_USAGE && e.ex == B_EXIT_USAGE && e.sb_ex == B_EXIT_FAIL &&
            e.rc == B_INVALID);
    T_CHECK(!strcmp(e.msg, "--mysql-storage-engine: invalid name 'innodb */ AS SELECT 1 /*': "
                           "only letters, digits and '_' are allowed"));
    T_CHECK(strstr(e.hint, "64 characters") != NULL);
    /* a valid engine passes the names; the connection options are cli_'s */
    memset(&e, 0, sizeof(e));
    o.oltp_engine = (char *)"InnoDB";
    o.ssl_mode = (char *)"";
    o.mysql_socket = (char *)"";
    o.ssl_ca = o.ssl_cert = o.ssl_key = o.server_pubkey = (char *)"";
    o.mysql_user = o.mysql_password = (char *)"";
    o.client_index = o.client_count = -1; /* the defaults: not one of several clients */
    T_CHECK(oltp_check(&o, &e) == B_EXIT_OK && !e.msg[0]);
    return 0;
}

/* The knee of a ladder: once a rung is found that no later doubling beats by 10%, the fewest
 * threads at 95% of the peak; confirmed by two doublings past that rung; a flat step that a
 * later rung beats is noise, not where it flattens; a ladder still rising at its top, or
 * whose 95% point is its top, has none. */
static int t_oltp_sizing_knee(void)
{
    bool c;
    const double sb[] = {386, 651, 758, 798, 787, 684, 444}; /* sysbench 1.0.20, 2 CPUs */
    T_CHECK(sizing_knee(sb, 7, &c) == 3 && c);  /* 758 < 95% of 798 */
    T_CHECK(sizing_knee(sb, 5, &c) == 3 && c);  /* two doublings past where it flattens */
    T_CHECK(sizing_knee(sb, 4, &c) == -1);      /* flat from 4, but the best is the top */
    T_CHECK(sizing_knee(sb, 3, &c) == -1);      /* +16% on the last doubling: still rising */
    const double noisy[] = {600, 606, 760, 800, 810}; /* +1% then +25%: 2 is no knee */
    T_CHECK(sizing_knee(noisy, 5, &c) == 3 && c);
    T_CHECK(sizing_knee(noisy, 2, &c) == 0 && !c);
    const double dip[] = {600, 400, 700, 720, 730}; /* a burst of load at 2 threads */
    T_CHECK(sizing_knee(dip, 5, &c) == 2 && c);
    T_CHECK(sizing_knee(dip, 4, &c) == 2 && !c); /* one doubling past where it flattens */
    const double rising[] = {100, 150, 200, 260, 330};
    T_CHECK(sizing_knee(rising, 5, &c) == -1 && !c);
    T_CHECK(sizing_knee(rising, 1, &c) == -1);
    T_CHECK(sizing_knee(rising, 0, &c) == -1);
    const double exact[] = {100, 110, 120}; /* +10% is a gain: the knee is where it stops */
    T_CHECK(sizing_knee(exact, 3, &c) == -1); /* 110 < 95% of 120: the best is the top */
    return 0;
}

/* The one-liner's table from a result: steps (runs of the ladder) and the knee facts, as
 * sizing_main fills them; rep_sizing prints today's layout. */
static int t_oltp_rep_sizing(void)
{
    struct res res;
    static const struct {
        const char *wl;
        int threads;
        u64 events, q, lat_ns;
    } st[] = {{"oltp_point_select", 1, 1000, 1000, 1000000},
              {"oltp_point_select", 2, 1500, 1500, 1000000},
              {"oltp_read_write", 1, 100, 2000, 10000000}};
    res_init(&res, wl_find("oltp"), "run", NULL, NULL);
    for (size_t i = 0; i < countof(st); i++) {
        struct res *s = res_step(&res, wl_find(st[i].wl), "run");
        s->have_final = true;
        res_snap_init(&s->final.d, st[i].threads, 0);
        s->final.threads = st[i].threads;
        s->final.total_s = 2;
        s->final.d.events = st[i].events;
        s->final.d.ctr[0] = st[i].q;
        s->final.d.lat_min_ns = s->final.d.lat_max_ns = st[i].lat_ns;
        hist_record(s->final.d.hist, st[i].lat_ns);
    }
    res_fact_str(&res, "server", "127.0.0.1:3306");
    res_fact_str(&res, "server_version", "11.4.2-MariaDB");
    res_fact_bool(&res, "tls", true);
    res_fact_int(&res, "tables", 4);
    res_fact_int(&res, "table_size", 25000);
    res_fact_int(&res, "step_time_s", 2);
    res_fact_int(&res, "oltp_point_select_knee_step", 1);
    res_fact_bool(&res, "oltp_point_select_knee_confirmed", false);
    res_fact_bool(&res, "oltp_read_write_still_rising", true);
    res_fact_int(&res, "oltp_read_write_top_threads", 1);
    res_fact_str(&res, "oltp_read_write_ladder_end", "budget");
    res.elapsed_s = 7.4;
    char path[] = "/tmp/bench-t-sizing-XXXXXX", got[2048];
    int fd = mkstemp(path);
    T_CHECK(fd >= 0);
    unlink(path);
    fflush(stdout);
    int o1 = dup(1);
    dup2(fd, 1);
    rep_sizing(&res);
    fflush(stdout);
    dup2(o1, 1);
    close(o1);
    ssize_t n = pread(fd, got, sizeof(got) - 1, 0);
    close(fd);
    res_free(&res);
    T_CHECK(n > 0);
    got[n] = 0;
    const char *want =
        "OLTP sizing of 127.0.0.1:3306 (11.4.2-MariaDB, TLS): 4 tables x 25000 rows, 2 s per "
        "step, 7 s in all\n\n"
        "workload           threads          tps          qps    p95 ms    p99 ms   errors\n"
        "oltp_point_select        1       500.00       500.00      1.00      1.00        0\n"
        "oltp_point_select        2       750.00       750.00      1.00      1.00        0  <- knee\n"
        "oltp_read_write          1        50.00      1000.00     10.00     10.00        0\n"
        "\n"
        "knee: oltp_point_select at 2 threads (750 tps, p99 1.00 ms): 95% of the peak (2 "
        "threads), one doubling past where it flattens: not confirmed\n"
        "no knee: oltp_read_write measured at 1 thread only (stopped by budget)\n";
    if (strcmp(got, want)) {
        fprintf(stderr, "  got:\n%s", got);
        return 1;
    }
    return 0;
}

/* --verify-writes' rules without a server: an event's writes folded per row (DELETE then
 * INSERT of one id: the INSERT's row; UPDATE c after it: its c; k=k+1 after it: its k + 1,
 * alone: one increment), and per row and column only the last acknowledged states count: a
 * state acknowledged before another commit of the column was sent is superseded (its old
 * value on the server is a lost write), overlapping commits may each be the last, an
 * unknown outcome may be; a later write of another column hides nothing. */
static int t_oltp_ledger(void)
{
    const struct wl_def *w = wl_find("oltp_write_only");
    struct bench_opts o;
    struct load_run r;
    struct load_thread *t = aligned_alloc(B_CACHELINE, sizeof(struct load_thread));
    struct oltp_thread *ot = calloc(1, sizeof(*ot));
    T_CHECK(w != NULL && t != NULL && ot != NULL);
    T_CHECK(sizeof(struct oltp_lw) == 40); /* the bytes per row state docs/cli.md states */
    memset(&o, 0, sizeof(o));
    memset(&r, 0, sizeof(r));
    memset(t, 0, sizeof(*t));
    r.o = &o;
    r.w = w;
    t->run = &r;
    t->wl = ot;
    ot->lw_max = 16;
    /* BEGIN(0) DELETE(1) INSERT(2) UPDATE c(3) UPDATE k(4) UPDATE k(5) COMMIT(6): rows 7
     * (k 42 + 1), 8 (two increments), 9 (deleted, then k=k+1 and c changing nothing) */
    oltp_pw_add(t, 1, 1, OLTP_W_DELETE, 7, 0, NULL, NULL);
    oltp_pw_add(t, 2, 1, OLTP_W_INSERT, 7, 42, "c1", "p1");
    oltp_pw_add(t, 3, 1, OLTP_W_SET_C, 7, 0, "c2", NULL);
    oltp_pw_add(t, 4, 1, OLTP_W_INC_K, 8, 0, NULL, NULL);
    oltp_pw_add(t, 4, 1, OLTP_W_INC_K, 7, 0, NULL, NULL);
    oltp_pw_add(t, 5, 1, OLTP_W_INC_K, 8, 0, NULL, NULL);
    oltp_pw_add(t, 5, 1, OLTP_W_DELETE, 9, 0, NULL, NULL);
    oltp_pw_add(t, 5, 1, OLTP_W_INC_K, 9, 0, NULL, NULL);
    oltp_pw_add(t, 5, 1, OLTP_W_SET_C, 9, 0, "c9", NULL);
    static const struct oltp_op commit = {.kind = OP_COMMIT};
    ot->op_sent_ns = 100;
    oltp_lw_after(t, &commit, 6, B_OK);
    T_CHECK(ot->nlw == 3);
    const struct oltp_lw *a = &ot->lw[0], *b = &ot->lw[1], *d = &ot->lw[2];
    T_CHECK(a->id == 7 && a->table == 1 && a->state == OLTP_LW_ACKED && a->sent == 100 &&
            a->ack >= 100 && a->mask == (OLTP_M_K | OLTP_M_C | OLTP_M_PAD) && a->kv == 43 &&
            a->cc == oltp_lw_crc("c2", 2) && a->pc == oltp_lw_crc("p1", 2));
    T_CHECK(b->id == 8 && b->mask == OLTP_M_KINC && b->kv == 2);
    T_CHECK(d->id == 9 && d->mask == OLTP_M_ABSENT);
    struct res_outage x;
    u32 row[3] = {43, oltp_lw_crc("c2", 2), oltp_lw_crc("p1", 2)};
    memset(&x, 0, sizeof(x));
    T_CHECK(!oltp_lw_row(a, 1, true, row, &x) && oltp_lw_row(a, 1, false, row, &x));
    row[1] = oltp_lw_crc("c1", 2); /* the INSERT's c: the UPDATE's is the row's */
    T_CHECK(oltp_lw_row(a, 1, true, row, &x));
    row[1] = oltp_lw_crc("c2", 2), row[0] = 42; /* the increment lost */
    T_CHECK(oltp_lw_row(a, 1, true, row, &x));
    row[0] = 43, row[2] = oltp_lw_crc("p2", 2);
    T_CHECK(oltp_lw_row(a, 1, true, row, &x));
    T_CHECK(!oltp_lw_row(b, 1, true, row, &x) && oltp_lw_row(b, 1, false, row, &x));
    T_CHECK(!oltp_lw_row(d, 1, false, row, &x) && oltp_lw_row(d, 1, true, row, &x));
    T_CHECK(x.acked == 9 && x.unknown == 0);
    /* a connection lost before the COMMIT: rolled back, nothing; a deadlock (1213) too (the
     * whole transaction rolled back); a lock wait timeout (1205) at statement 3: the
     * statement alone, the two before it unknown (row 7: the INSERT's state) */
    static const struct oltp_op upd = {.kind = OQ_NONIDX_UPD};
    oltp_lw_after(t, &upd, 3, B_SYSERR);
    T_CHECK(ot->nlw == 3);
    ot->c.srv_code = 1213;
    oltp_lw_after(t, &upd, 3, B_SERVER);
    T_CHECK(ot->nlw == 3);
    ot->c.srv_code = 1205;
    oltp_lw_after(t, &upd, 3, B_SERVER);
    T_CHECK(ot->nlw == 4 && ot->lw[3].state == OLTP_LW_UNKNOWN && ot->lw[3].ack == 0 &&
            ot->lw[3].id == 7 && ot->lw[3].kv == 42 && ot->lw[3].cc == oltp_lw_crc("c1", 2));
    ot->lw_max = 4; /* the bound: counted, not kept */
    oltp_lw_after(t, &commit, 6, B_OK);
    T_CHECK(ot->nlw == 4 && ot->lw_not_kept == 3);

    /* the rows' rules over states of several commits, by column: C(v) sets c, K(v) k = v,
     * I(n) n increments, at [sent, ack] (ack 0: unknown) */
#define C_(s, a, v) {5, s, a, 0, oltp_lw_crc(v, strlen(v)), 0, 1, OLTP_M_C, a ? OLTP_LW_ACKED : OLTP_LW_UNKNOWN}
#define K_(s, a, v) {5, s, a, v, 0, 0, 1, OLTP_M_K, a ? OLTP_LW_ACKED : OLTP_LW_UNKNOWN}
#define I_(s, a, n) {5, s, a, n, 0, 0, 1, OLTP_M_KINC, a ? OLTP_LW_ACKED : OLTP_LW_UNKNOWN}
    u32 crc[3] = {0, oltp_lw_crc("new", 3), 0};
    struct oltp_lw e[3] = {C_(10, 20, "old"), C_(30, 40, "new"), C_(15, 0, "unk")};
    memset(&x, 0, sizeof(x));
    T_CHECK(!oltp_lw_row(e, 3, true, crc, &x) && x.acked == 2 && x.unknown == 1 &&
            x.unknown_present == 0);
    crc[1] = oltp_lw_crc("old", 3); /* old was superseded (new sent at 30 after its ack at 20) */
    memset(&x, 0, sizeof(x));
    T_CHECK(oltp_lw_row(e, 3, true, crc, &x));
    e[1].sent = 15; /* overlapping commits (new sent before old's ack): either may be last */
    T_CHECK(!oltp_lw_row(e, 3, true, crc, &x));
    e[1].sent = 30;
    crc[1] = oltp_lw_crc("unk", 3); /* an unknown outcome may be the last */
    memset(&x, 0, sizeof(x));
    T_CHECK(!oltp_lw_row(e, 3, true, crc, &x) && x.unknown_present == 1);
    T_CHECK(oltp_lw_row(e, 2, false, crc, &x)); /* gone */

    /* F3: c set (acked), then k=k+1 (acked, later): the k update says nothing of c, so a
     * changed c behind it is lost; and the other way round, a lost increment behind a later c */
    struct oltp_lw f[3] = {K_(1, 2, 100), C_(10, 20, "mine"), I_(30, 40, 1)};
    u32 srv[3] = {101, oltp_lw_crc("mine", 4), 0};
    memset(&x, 0, sizeof(x));
    T_CHECK(!oltp_lw_row(f, 3, true, srv, &x) && x.acked == 3);
    srv[1] = oltp_lw_crc("theirs", 6);
    T_CHECK(oltp_lw_row(f, 3, true, srv, &x));
    srv[1] = oltp_lw_crc("mine", 4), srv[0] = 100; /* the increment lost */
    T_CHECK(oltp_lw_row(f, 3, true, srv, &x));
    struct oltp_lw g[3] = {K_(1, 2, 100), I_(10, 20, 1), C_(30, 40, "mine")};
    T_CHECK(oltp_lw_row(g, 3, true, srv, &x)); /* lost behind the later c */
    srv[0] = 101;
    T_CHECK(!oltp_lw_row(g, 3, true, srv, &x));
    /* increments: those sent after k's ack count for sure, those overlapping it (or of
     * unknown outcome) may; those acknowledged before it was sent came before it */
    struct oltp_lw h[5] = {K_(10, 20, 100), I_(30, 40, 2), I_(15, 25, 1), I_(1, 5, 4),
                           I_(35, 0, 1)};
    for (u32 k = 99; k <= 105; k++) {
        srv[0] = k;
        T_CHECK(oltp_lw_row(h, 5, true, srv, &x) == (k < 102 || k > 104));
    }
    /* a later INSERT (K) superseding: the old k's increments no longer matter */
    struct oltp_lw m[3] = {K_(1, 2, 100), I_(3, 4, 1), K_(10, 20, 7)};
    srv[0] = 7;
    T_CHECK(!oltp_lw_row(m, 3, true, srv, &x));
    srv[0] = 101;
    T_CHECK(oltp_lw_row(m, 3, true, srv, &x));
#undef C_
#undef K_
#undef I_
    free(ot->lw);
    free(ot->pw);
    free(ot);
    free(t);
    return 0;
}

/* bulk_insert's range audit (oltp_vr_row): the ids 10, 12, .., 20 (step 2, another client's
 * odd ids between them) read back in order; an absent id and one with another k are lost
 * (acknowledged: named, absent as missing) and the rest found; of an unknown range none is
 * lost. */
static int t_oltp_ranges(void)
{
    struct res_outage x;
    struct myc_result r;
    memset(&x, 0, sizeof(x));
    memset(&r, 0, sizeof(r));
    r.ncols = 2;
    struct oltp_vr vr = {10, 20, 2, 0, true, 3, &x};
    static const char *const rows[][2] = {{"10", "10"}, {"11", "11"}, {"12", "12"},
                                          {"16", "16"}, {"18", "7"}};
    for (size_t i = 0; i < countof(rows); i++) {
        struct my_str v[2] = {{rows[i][0], strlen(rows[i][0])}, {rows[i][1], strlen(rows[i][1])}};
        T_CHECK(oltp_vr_row(&vr, &r, v) == 0);
    }
    T_CHECK(vr.found == 3 && vr.next == 20 && x.lost == 2 && x.nlost_ex == 2);
    T_CHECK(x.lost_ex[0].id == 14 && x.lost_ex[0].missing && x.lost_ex[0].table == 3);
    T_CHECK(x.lost_ex[1].id == 18 && !x.lost_ex[1].missing);
    /* the same rows as an unknown outcome: nothing lost, 3 found */
    memset(&x, 0, sizeof(x));
    struct oltp_vr vu = {10, 20, 2, 0, false, 3, &x};
    for (size_t i = 0; i < countof(rows); i++) {
        struct my_str v[2] = {{rows[i][0], strlen(rows[i][0])}, {rows[i][1], strlen(rows[i][1])}};
        T_CHECK(oltp_vr_row(&vu, &r, v) == 0);
    }
    T_CHECK(vu.found == 3 && x.lost == 0 && x.nlost_ex == 0);
    return 0;
}

/* The outage report's classes: what a failed statement or login was. */
static int t_oltp_oclass(void)
{
    struct my_conn c;
    memset(&c, 0, sizeof(c));
    T_CHECK(oltp_oclass(B_TIMEOUT, &c) == RES_OC_TIMEOUT);
    static const struct { u16 code; int cls; } srv[] = {
        {1290, RES_OC_READ_ONLY}, {1836, RES_OC_READ_ONLY}, {1792, RES_OC_READ_ONLY},
        {1213, RES_OC_DEADLOCK}, {1062, RES_OC_DUPLICATE}, {1205, RES_OC_TIMEOUT},
        {1053, RES_OC_LOST}, {1927, RES_OC_LOST}, {1040, RES_OC_REFUSED}, {1146, RES_OC_OTHER},
    };
    for (size_t i = 0; i < countof(srv); i++) {
        c.srv_code = srv[i].code;
        T_CHECK(oltp_oclass(B_SERVER, &c) == srv[i].cls);
    }
    c.srv_code = 0;
    c.err.sys_errno = ECONNREFUSED;
    T_CHECK(oltp_oclass(B_SYSERR, &c) == RES_OC_REFUSED);
    c.err.sys_errno = ECONNRESET;
    T_CHECK(oltp_oclass(B_SYSERR, &c) == RES_OC_LOST);
    c.err.sys_errno = 0; /* EOF: the server went away */
    T_CHECK(oltp_oclass(B_SYSERR, &c) == RES_OC_LOST);
    return 0;
}

/* tpcc_: LuaJIT's math.random from a fresh Lua state (what sysbench 1.0.20 with Debian's
 * LuaJIT printed for math.random(i, 3000), i = 1..5), NURand's five draws per call, the
 * byname row of Payment and Order-Status, and the other_ware quirk. */
static int t_tpcc_draws(void)
{
    static const u32 lj[5] = {2383, 2097, 1772, 2261, 247};
    struct tpcc_lj s;
    tpcc_lj_init(&s);
    for (u32 i = 1; i <= 5; i++)
        T_CHECK(tpcc_lj_random(&s, i, 3000) == lj[i - 1]);
    struct rnd a = {{1, 2}}, b = {{1, 2}};
    u32 v = tpcc_nurand(&a, 1023, 1, 3000);
    u32 c = (rnd_uniform(&b, 0, 255), rnd_uniform(&b, 0, 1023));
    (void)rnd_uniform(&b, 0, 8191);
    u32 i = rnd_uniform(&b, 0, 1023), j = rnd_uniform(&b, 1, 3000);
    T_CHECK(v == ((i | j) + c) % 3000 + 1 && a.s[0] == b.s[0] && a.s[1] == b.s[1]);
    T_CHECK(tpcc_byname_row(1) == 0 && tpcc_byname_row(2) == 1 && tpcc_byname_row(3) == 2 &&
            tpcc_byname_row(4) == 2 && tpcc_byname_row(5) == 3);
    char n[32];
    tpcc_lastname(0, n);
    T_CHECK(!strcmp(n, "BARBARBAR"));
    tpcc_lastname(371, n);
    T_CHECK(!strcmp(n, "PRICALLYOUGHT"));
    T_CHECK(tpcc_other_ware(&a, 5, 3) == 3 && tpcc_other_ware(&a, 1, 1) == 1);
    return 0;
}
