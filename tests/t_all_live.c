/*
 * bench all's database part against the suite's MariaDB (issue 29: branch coverage of all_,
 * the behaviour asserted): where the server runs (a unix socket's peer, the server's end of a
 * TCP connection over IPv6 in /proc/net/tcp6), the ladder's schema while another run holds
 * its lock, a server that refuses the connection, the open-files limit read from mysqld's
 * /proc/PID/limits. Seconds: no ladder runs. Skipped (77) when BENCH_MY_HOST is unset.
 */

/* The pid the suite's mariadbd wrote beside its socket (tests/mariadb.sh: DIR/sock, DIR/pid). */
static long t_all_live_mysqld_pid(void)
{
    const char *sock = getenv("BENCH_MY_SOCK");
    char path[PATH_MAX], line[32];
    if (!sock || strlen(sock) < 5 || strlen(sock) >= sizeof(path))
        return 0;
    snprintf(path, sizeof(path), "%.*spid", (int)(strlen(sock) - 4), sock);
    FILE *f = fopen(path, "re");
    long pid = f && fgets(line, sizeof(line), f) ? strtol(line, NULL, 10) : 0;
    if (f)
        fclose(f);
    return pid;
}

/* all_db_where: over the unix socket the server is local by its peer's credentials (the pid
 * mariadbd wrote); over TCP to ::1 by its end of the connection in /proc/net/tcp6, held by
 * mariadbd (the same pid), whose soft open-files limit is read from /proc/PID/limits. */
static int t_all_live_where(void)
{
    struct myc_params p;
    struct my_conn c;
    T_LIVE_OR_SKIP(&p, "root", "", -1);
    long pid = t_all_live_mysqld_pid();
    T_CHECK(pid > 0);
    p.socket = getenv("BENCH_MY_SOCK");
    p.db = NULL;
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    t_all_ctx(&o, &r, &x);
    T_CHECK(myc_connect(&c, &p) == B_OK && c.is_unix);
    all_db_where(&x, c.fd, c.is_unix);
    myc_close(&c);
    const struct res_fact *f = res_fact(&r, "db.local_how");
    T_CHECK(x.db_local && x.db_pid == pid && f && !strcmp(f->str, "unix socket"));
    T_CHECK(all_num(&r, "db.mysqld_pid", NULL) == (double)pid);
    T_CHECK(all_num(&r, "db.server_local", NULL) == 1 && r.nwarns == 0);
    T_CHECK(all_num(&r, "db.mysqld_nofile_soft", NULL) >= 1);
    res_free(&r);
    if (!getenv("BENCH_MY_V6")) {
        printf("(no ::1: the TCP6 half skipped) ");
        return 0;
    }
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    p.host = "::1";
    p.db = NULL;
    t_all_ctx(&o, &r, &x);
    T_CHECK(myc_connect(&c, &p) == B_OK && !c.is_unix);
    all_db_where(&x, c.fd, c.is_unix);
    myc_close(&c);
    f = res_fact(&r, "db.local_how");
    char want[96];
    snprintf(want, sizeof(want), "its TCP socket held by mariadbd (pid %ld)", pid);
    T_CHECK(x.db_local && x.db_pid == pid && f && !strcmp(f->str, want));
    /* the limit the server reports (its open_files_limit absent here) comes from /proc */
    x.db_pid = pid;
    all_derive_db(&x);
    f = res_fact(&r, "db.nofile_from");
    snprintf(want, sizeof(want), "/proc/%ld/limits", pid);
    T_CHECK(f && !strcmp(f->str, want));
    T_CHECK(all_num(&r, "db.nofile_limit", NULL) == all_num(&r, "db.mysqld_nofile_soft", NULL));
    res_free(&r);
    return 0;
}

/* all_db_schema: while another session holds the lock of bench_all, a run without -D takes
 * bench_all_2; with -D naming a held schema there is no ladder, and a note says why. */
static int t_all_live_schema_lock(void)
{
    struct myc_params p;
    struct my_conn a, b;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    p.db = NULL;
    T_CHECK(myc_connect(&a, &p) == B_OK && myc_connect(&b, &p) == B_OK);
    T_CHECK(all_db_lock(&a, "bench_all") == 1 && all_db_lock(&a, "t_all_live_d") == 1);
    struct bench_opts o, so;
    struct res r;
    struct all_ctx x;
    char name[OLTP_NAME_SZ];
    t_all_ctx(&o, &r, &x);
    memset(&so, 0, sizeof(so));
    T_CHECK(all_db_schema(&x, &b, &so, name, sizeof(name)));
    T_CHECK(!strcmp(name, "bench_all_2") && so.mysql_db == name && so.mysql_db_set);
    T_CHECK(r.nwarns == 0);
    myc_close(&b); /* its lock of bench_all_2 goes with it */
    T_CHECK(myc_connect(&b, &p) == B_OK);
    memset(&so, 0, sizeof(so));
    char dname[] = "t_all_live_d";
    so.mysql_db = dname;
    so.mysql_db_set = true;
    T_CHECK(!all_db_schema(&x, &b, &so, name, sizeof(name)));
    T_CHECK(r.nwarns == 1 && !strcmp(r.warns[0].code, "db_failed"));
    T_CHECK(strstr(r.warns[0].msg, "schema 't_all_live_d' is in use by another bench all run "
                                    "on this server; not measured") != NULL);
    myc_close(&b);
    myc_close(&a);
    res_free(&r);
    return 0;
}

/* all_db against a port where no server listens: one note naming the failed connection, no
 * db.* facts, no ladder (no step but ping's). */
static int t_all_live_refused(void)
{
    struct myc_params p;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0); /* a port bound, not listening */
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof(sa);
    T_CHECK(s >= 0 && bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
            getsockname(s, (struct sockaddr *)&sa, &sl) == 0);
    char port[32];
    snprintf(port, sizeof(port), "mysql-port=%u", ntohs(sa.sin_port));
    const char *kv[] = {"mysql-host=127.0.0.1", port, "mysql-user=nat", "mysql-password=secret",
                        NULL};
    struct bench_opts o;
    struct res r;
    struct all_ctx x;
    T_CHECK(t_opts(&o, kv) == 0);
    memset(&x, 0, sizeof(x));
    res_init(&r, NULL, "all", &o, NULL);
    x.res = &r, x.o = &o, x.level = ALL_QUICK;
    all_db(&x);
    close(s);
    T_CHECK(r.nwarns == 1 && !strcmp(r.warns[0].code, "db_failed"));
    T_CHECK(strstr(r.warns[0].msg, "all: database: ") == r.warns[0].msg);
    T_CHECK(strstr(r.warns[0].msg, "Connection refused") != NULL);
    T_CHECK(!res_fact(&r, "db.server") && !res_fact(&r, "db.oltp_schema") && !x.db_vars);
    T_CHECK(r.nsteps == 1 && !strcmp(r.steps[0].command, "ping"));
    res_free(&r);
    t_opts_free(&o);
    return 0;
}

/* ping_timed's time bound (bench all's o->all_step_ms): a count no bound of 1 ms lets finish
 * ends each kind early, and such a kind is complete (its round trips all answered); without
 * the bound the same count would run to its end. */
static int t_all_live_ping_bound(void)
{
    struct myc_params p;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    char h[128], port[64];
    snprintf(h, sizeof(h), "mysql-host=%s", getenv("BENCH_MY_HOST"));
    snprintf(port, sizeof(port), "mysql-port=%s", getenv("BENCH_MY_PORT"));
    const char *kv[] = {h, port, "mysql-user=nat", "mysql-password=secret", "count=1000000",
                        NULL};
    struct bench_opts o;
    struct res r;
    T_CHECK(t_opts(&o, kv) == 0);
    o.all_step_ms = 1;
    res_init(&r, wl_find("ping"), "ping", &o, NULL);
    u64 t0 = clk_now_ns();
    T_CHECK(ping_main(&r) == B_EXIT_OK && r.complete && r.nsteps == 3);
    T_CHECK(clk_now_ns() - t0 < 20000000000ull); /* 3 x 1 ms and a login, not 3 million trips */
    for (int k = 0; k < 3; k++) {
        const struct res *s = &r.steps[k];
        T_CHECK(s->have_final && s->complete && s->final.d.events >= 1 &&
                s->final.d.events < 1000000);
    }
    T_CHECK(all_num(&r, "ping_count", NULL) == 1000000);
    res_free(&r);
    t_opts_free(&o);
    return 0;
}

/* all_db with -D (the OLTP ladder's schema): one another run holds (no ladder: said, no oltp
 * step), then one holding a table of the user's (the ladder refuses it before touching
 * anything: said with the schema and table, the table's row intact). Ping and the settings
 * are measured all the same. */
static int t_all_live_db_schema(void)
{
    struct myc_params p;
    struct my_conn a;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    p.db = NULL;
    T_CHECK(myc_connect(&a, &p) == B_OK);
    T_CHECK(t_q(&a, "DROP DATABASE IF EXISTS t_all_live_f") == B_OK &&
            t_q(&a, "CREATE DATABASE t_all_live_f") == B_OK &&
            t_q(&a, "CREATE TABLE t_all_live_f.sbtest1 (id INT)") == B_OK &&
            t_q(&a, "INSERT INTO t_all_live_f.sbtest1 VALUES (7)") == B_OK);
    T_CHECK(all_db_lock(&a, "t_all_live_h") == 1);
    static const char *const dbs[2] = {"t_all_live_h", "t_all_live_f"};
    for (int k = 0; k < 2; k++) {
        char h[128], port[64];
        snprintf(h, sizeof(h), "mysql-host=%s", getenv("BENCH_MY_HOST"));
        snprintf(port, sizeof(port), "mysql-port=%s", getenv("BENCH_MY_PORT"));
        const char *kv[] = {h, port, "mysql-user=nat", "mysql-password=secret", NULL};
        struct bench_opts o;
        struct res r;
        struct all_ctx x;
        T_CHECK(t_opts(&o, kv) == 0);
        free(o.mysql_db);
        o.mysql_db = b_xstrdup(dbs[k]);
        o.mysql_db_set = true;
        memset(&x, 0, sizeof(x));
        res_init(&r, NULL, "all", &o, NULL);
        x.res = &r, x.o = &o, x.level = ALL_QUICK, x.ncpu = 1;
        struct t_quiet q;
        T_CHECK(t_quiet_begin(&q, 2) == 0);
        all_db(&x);
        (void)t_quiet_end(&q);
        T_CHECK(res_fact(&r, "db.ping_p50_ms") && res_fact(&r, "db.max_connections"));
        char want[200];
        int said = 0;
        if (k == 0)
            snprintf(want, sizeof(want), "all: OLTP ladder: schema 't_all_live_h' is in use by "
                                         "another bench all run on this server");
        else
            snprintf(want, sizeof(want), "all: OLTP ladder: oltp: schema 't_all_live_f' on "
                                         "%s:%s holds a table 'sbtest1' that bench all did not "
                                         "create: left alone",
                     getenv("BENCH_MY_HOST"), getenv("BENCH_MY_PORT"));
        for (int i = 0; i < r.nwarns; i++)
            said += !strcmp(r.warns[i].code, "db_failed") && strstr(r.warns[i].msg, want);
        T_CHECK(said == 1);
        const struct res_fact *f = res_fact(&r, "db.oltp_schema");
        T_CHECK(k == 0 ? !f && r.nsteps == 1 : f && !strcmp(f->str, "t_all_live_f"));
        T_CHECK(!res_fact(&r, "db.oltp_top_threads"));
        res_free(&r);
        t_opts_free(&o);
    }
    struct oltp_kv kv;
    memset(&kv, 0, sizeof(kv));
    struct myc_result mr = {0};
    T_CHECK(myc_query(&a, "SELECT id FROM t_all_live_f.sbtest1", 35, &mr, oltp_kv_row, &kv) ==
                B_OK &&
            kv.n == 1 && !strcmp(kv.v[0], "7"));
    myc_result_free(&mr);
    T_CHECK(t_q(&a, "DROP DATABASE t_all_live_f") == B_OK);
    myc_close(&a);
    return 0;
}

/* the number of tables named tbl in schema db (information_schema), -1 when the query fails */
static int t_all_live_ntables(struct my_conn *c, const char *db, const char *tbl)
{
    char sql[256];
    snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM information_schema.TABLES WHERE "
                               "TABLE_SCHEMA='%s' AND TABLE_NAME='%s'", db, tbl);
    struct oltp_kv kv;
    memset(&kv, 0, sizeof(kv));
    struct myc_result mr = {0};
    int n = myc_query(c, sql, strlen(sql), &mr, oltp_kv_row, &kv) == B_OK && kv.n == 1
                ? atoi(kv.v[0]) : -1;
    myc_result_free(&mr);
    return n;
}

/* sizing_own_tables, the -D schema's tables sbtest1..N, on the live server: bench all's own
 * (commented "created by bench all") dropped, before and after the ladder; a dataset's table
 * (commented "created by bench": bench prepare's) refuses the schema with its words and is
 * left, rows and all; a schema the server does not have: the check fails with the server's
 * words (ERROR 1049), "checking" before the ladder, "dropping" after it. */
static int t_all_live_own_tables(void)
{
    struct myc_params p;
    struct my_conn c;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    p.db = NULL;
    T_CHECK(myc_connect(&c, &p) == B_OK);
    T_CHECK(t_q(&c, "DROP DATABASE IF EXISTS t_all_live_o") == B_OK &&
            t_q(&c, "CREATE DATABASE t_all_live_o") == B_OK &&
            t_q(&c, "CREATE TABLE t_all_live_o.sbtest1 (id INT) COMMENT='" OLTP_MARK_ALL "'") ==
                B_OK &&
            t_q(&c, "CREATE TABLE t_all_live_o.sbtest2 (id INT) COMMENT='" OLTP_MARK "'") == B_OK &&
            t_q(&c, "INSERT INTO t_all_live_o.sbtest2 VALUES (7)") == B_OK);
    static const char *const kv[] = {"tables=3", NULL};
    struct bench_opts o;
    struct res r;
    T_CHECK(t_opts(&o, kv) == 0);
    /* sbtest1 bench all's: dropped; sbtest2 a dataset's: refused, left; sbtest3 not reached */
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(sizing_own_tables(&r, &o, &c, "t_all_live_o", "`t_all_live_o`", false) ==
            B_EXIT_ENV);
    char want[700];
    snprintf(want, sizeof(want), "oltp: schema 't_all_live_o' on %s holds a table 'sbtest2' that "
                                 "a bench prepare made (a dataset, not bench all's): left alone, "
                                 "nothing run there", c.target);
    T_CHECK(!strcmp(r.err.msg, want) && r.err.ex == B_EXIT_ENV);
    T_CHECK(t_all_live_ntables(&c, "t_all_live_o", "sbtest1") == 0);
    T_CHECK(t_all_live_ntables(&c, "t_all_live_o", "sbtest2") == 1);
    res_free(&r);
    /* after the ladder: bench all's own dropped, absent ones passed over, the schema kept */
    T_CHECK(t_q(&c, "DROP TABLE t_all_live_o.sbtest2") == B_OK &&
            t_q(&c, "CREATE TABLE t_all_live_o.sbtest3 (id INT) COMMENT='" OLTP_MARK_ALL "'") ==
                B_OK);
    res_init(&r, NULL, "all", &o, NULL);
    T_CHECK(sizing_own_tables(&r, &o, &c, "t_all_live_o", "`t_all_live_o`", true) == B_EXIT_OK);
    T_CHECK(t_all_live_ntables(&c, "t_all_live_o", "sbtest3") == 0 && r.err.msg[0] == 0);
    res_free(&r);
    /* a schema the server does not have: the server's words, before and after */
    T_CHECK(t_q(&c, "DROP DATABASE t_all_live_o") == B_OK);
    for (int after = 0; after < 2; after++) {
        res_init(&r, NULL, "all", &o, NULL);
        T_CHECK(sizing_own_tables(&r, &o, &c, "t_all_live_o", "`t_all_live_o`", after) ==
                B_EXIT_ENV);
        snprintf(want, sizeof(want), "oltp: %s bench's tables in schema 't_all_live_o' on %s "
                                     "failed: ERROR 1049 (42000): Unknown database "
                                     "'t_all_live_o'", after ? "dropping" : "checking",
                 c.target);
        if (strcmp(r.err.msg, want))
            fprintf(stderr, "  got '%s'\n  want '%s'\n", r.err.msg, want);
        T_CHECK(!strcmp(r.err.msg, want));
        res_free(&r);
    }
    t_opts_free(&o);
    myc_close(&c);
    return 0;
}
