/* slap_: mysqlslap's statement lists and generated SQL (spec mysqlslap.md 3, 4), its command
 * line. The generated texts are checked against mariadb-slap --only-print's (glibc random()
 * unseeded: 1804289383, 846930886, ...); tests/slap.sh compares whole streams. */

static bool t_slap_prefix(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

static int t_slap_split(void)
{
    struct slap_list l;
    memset(&l, 0, sizeof(l));
    slap_split("a\n\nb\n\n\nc\n", '\n', &l); /* one whitespace skipped after a delimiter */
    T_CHECK(l.pieces == 4 && l.n == 4 && slap_live(&l) == 2);
    T_CHECK(!strcmp(l.v[0].sql, "a") && !strcmp(l.v[1].sql, "b") && l.v[2].len == 0);
    T_CHECK(!strcmp(l.v[3].sql, "c"));
    T_CHECK(l.v[0].type == SLAP_T_CREATE_TABLE && l.v[1].type == SLAP_T_OTHER);
    slap_list_free(&l);
    slap_split("CREATE TABLE a(a int)", ';', &l); /* no delimiter: one piece, a CREATE */
    T_CHECK(l.pieces == 1 && l.v[0].type == SLAP_T_CREATE_TABLE);
    slap_list_free(&l);
    slap_split("SELECT 1;; SELECT 2;", ';', &l); /* an empty piece ends every walk */
    T_CHECK(l.pieces == 3 && slap_live(&l) == 1);
    slap_list_free(&l);
    slap_split("", '\n', &l);
    T_CHECK(l.pieces == 0 && l.n == 0);
    slap_list_free(&l);
    return 0;
}

static int t_slap_build_auto(void)
{
    struct bench_opts o;
    struct slap_plan p;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(t_opts(&o, (const char *const[]){"auto-generate-sql=on", NULL}) == 0);
    T_CHECK(slap_build(&o, &p, &e) == B_EXIT_OK);
    T_CHECK(p.create.n == 11 && p.query.n == 11 && p.drop && !p.keyed);
    T_CHECK(!strcmp(p.create.v[0].sql, "CREATE TABLE `t1` (intcol1 INT(32) ,charcol1 VARCHAR(128))"));
    T_CHECK(t_slap_prefix(p.create.v[1].sql, "INSERT INTO t1 VALUES (1804289383,'mxvtvmC9127qJNm06sGB8R92q2j7"));
    T_CHECK(p.create.v[1].len == strlen("INSERT INTO t1 VALUES (1804289383,'')") + 126);
    T_CHECK(t_slap_prefix(p.query.v[0].sql, "INSERT INTO t1 VALUES (100669,'qnMdipW5KkXdTjGCh2PNzLoeR0527"));
    T_CHECK(!strcmp(p.query.v[1].sql, "SELECT intcol1,charcol1 FROM t1")); /* mixed, no key */
    for (size_t i = 0; i < p.query.n; i++)
        T_CHECK(!strncmp(p.query.v[i].sql, i % 2 ? "SELECT" : "INSERT", 6));
    for (size_t i = 1; i < p.create.n; i++) /* the alphabet has no U and no V */
        T_CHECK(!strpbrk(strchr(p.create.v[i].sql, '\''), "UV"));
    T_CHECK(p.nconc == 1 && p.conc[0] == 1 && p.nengines == 0);
    T_CHECK(slap_limit(&o, &p, 1) == 0); /* -a: one pass */
    slap_plan_free(&p);
    t_opts_free(&o);

    /* autoincrement, key load, indexes, engines and a concurrency list */
    T_CHECK(t_opts(&o, (const char *const[]){"auto-generate-sql=on",
                                             "auto-generate-sql-add-autoincrement=on",
                                             "auto-generate-sql-load-type=key",
                                             "number-int-cols=2:1", "number-char-cols=2",
                                             "engine=innodb, memory:max_rows=100",
                                             "concurrency=5,10,0,20", "number-of-queries=101",
                                             NULL}) == 0);
    T_CHECK(slap_build(&o, &p, &e) == B_EXIT_OK);
    T_CHECK(!strcmp(p.create.v[0].sql, "CREATE TABLE `t1` (id serial,intcol1 INT(32), "
                                       "INDEX(intcol1),intcol2 INT(32), INDEX(intcol2),"
                                       "charcol1 VARCHAR(128),charcol2 VARCHAR(128))"));
    T_CHECK(t_slap_prefix(p.create.v[1].sql, "INSERT INTO t1 VALUES (NULL,1804289383,846930886,'x"));
    T_CHECK(!strcmp(p.query.v[0].sql,
                    "SELECT intcol1,intcol2,charcol1,charcol2 FROM t1 WHERE id = "));
    T_CHECK(p.query.v[0].type == SLAP_T_SELECT_KEY && p.keyed);
    T_CHECK(p.nconc == 2 && p.conc[1] == 10); /* a 0 ends the list */
    T_CHECK(p.nengines == 2 && !strcmp(p.engines[1], "memory") &&
            !strcmp(p.engine_opts[1], "max_rows=100") && !*p.engine_opts[0]);
    T_CHECK(slap_limit(&o, &p, 5) == 20 && slap_limit(&o, &p, 10) == 10);
    slap_plan_free(&p);
    t_opts_free(&o);

    /* GUID key and no columns: mysqlslap's stray comma and missing one, kept */
    T_CHECK(t_opts(&o, (const char *const[]){"auto-generate-sql=on",
                                             "auto-generate-sql-guid-primary=on",
                                             "auto-generate-sql-secondary-indexes=2",
                                             "auto-generate-sql-load-type=update",
                                             "number-int-cols=0", "number-char-cols=0", NULL}) == 0);
    T_CHECK(slap_build(&o, &p, &e) == B_EXIT_OK);
    T_CHECK(!strcmp(p.create.v[0].sql, "CREATE TABLE `t1` (id varchar(36) primary key,id0 "
                                       "varchar(36) unique key,id1 varchar(36) unique key)"));
    T_CHECK(!strcmp(p.create.v[1].sql, "INSERT INTO t1 VALUES (uuid()uuid(),uuid())"));
    T_CHECK(!strcmp(p.query.v[0].sql, "UPDATE t1 SET  WHERE id = ") &&
            p.query.v[0].type == SLAP_T_UPDATE_KEY);
    slap_plan_free(&p);
    t_opts_free(&o);
    return 0;
}

/* the clients of one step: a thread each, or on at most one loop per client */
static int t_slap_loops(void)
{
    struct bench_opts o;
    struct slap_plan p;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(t_opts(&o, (const char *const[]){"query=SELECT 1", "concurrency=2000,3,65536",
                                              "event-loops=4", NULL}) == 0);
    T_CHECK(o.event_loops == 4);
    T_CHECK(slap_build(&o, &p, &e) == B_EXIT_OK);
    T_CHECK(p.nconc == 3 && p.conc[0] == 2000 && p.conc[2] == 65536);
    T_CHECK(slap_nloops(&o, 2000) == 4 && slap_nloops(&o, 3) == 3 && slap_nloops(&o, 1) == 1);
    o.event_loops = 0;
    T_CHECK(slap_nloops(&o, 2000) == 0);
    o.event_loops = -1; /* auto: the usable CPUs, at most one per client */
    T_CHECK(slap_nloops(&o, 2000) == os_usable_cpus() && slap_nloops(&o, 1) == 1);
    /* auto: a loop per 32 connections, at most the usable CPUs (load_auto_loops) */
    T_CHECK(slap_nloops(&o, 8) == 1 && slap_nloops(&o, 32) == 1);
    T_CHECK(load_auto_loops(33) == B_MIN(2, os_usable_cpus()));
    T_CHECK(load_auto_loops(64) == B_MIN(2, os_usable_cpus()));
    T_CHECK(load_auto_loops(4000) == B_MIN(125, os_usable_cpus()) && load_auto_loops(0) == 1);
    slap_plan_free(&p);
    t_opts_free(&o);
    return 0;
}

/* slap_build refuses the options kv: a usage error whose message starts with msg */
static int t_slap_refused(const char *const *kv, const char *msg)
{
    struct bench_opts o;
    struct slap_plan p;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(slap_build(&o, &p, &e) == B_EXIT_USAGE);
    T_CHECK(t_slap_prefix(e.msg, msg));
    slap_plan_free(&p);
    t_opts_free(&o);
    return 0;
}

static int t_slap_build_refusals(void)
{
    const char *const *const bad[] = {
        (const char *const[]){"auto-generate-sql=on", "query=SELECT 1", NULL},
        (const char *const[]){"auto-generate-sql=on", "auto-generate-sql-load-type=key", NULL},
        (const char *const[]){"auto-generate-sql=on", "auto-generate-sql-guid-primary=on",
                              "auto-generate-sql-add-autoincrement=on", NULL},
        (const char *const[]){"auto-generate-sql=on", "number-of-queries=10",
                              "auto-generate-sql-execute-number=3", NULL},
        (const char *const[]){"query=SELECT 1", "concurrency=0", NULL},
        (const char *const[]){"query=SELECT 1", "concurrency=100000", NULL},
        /* a thread per client: at most 4096; on event loops at most 65536 */
        (const char *const[]){"query=SELECT 1", "concurrency=4097", "event-loops=0", NULL},
        (const char *const[]){"query=SELECT 1", "concurrency=65537", "event-loops=2", NULL},
        /* a column count that would build a table string of gigabytes */
        (const char *const[]){"auto-generate-sql=on", "number-char-cols=999999999", NULL},
        (const char *const[]){"auto-generate-sql=on", "number-int-cols=4000",
                              "number-char-cols=90", "auto-generate-sql-secondary-indexes=7",
                              NULL},
        (const char *const[]){"auto-generate-sql=on", "force-drop-existing-schema=on",
                              "create-schema=MySQL", NULL},
        (const char *const[]){"create=CREATE TABLE a (a int)", "query=SELECT 1",
                              "force-drop-existing-schema=on", "create-schema=sys", NULL},
        (const char *const[]){NULL},
    };
    for (size_t i = 0; i < countof(bad); i++)
        T_CHECK(t_slap_refused(bad[i], "slap: ") == 0);
    return 0;
}

/* --rand-seed: the generated statements follow it (0: mysqlslap's, random() unseeded);
 * --client-index/--client-count: client 0 is the plain run, client 1 its own data, no drop,
 * --number-of-queries shared by n x -c clients; the combinations that would re-create the
 * schema under the others refused. */
static int t_slap_seed_clients(void)
{
    static const char *const seeds[][5] = {
        {"auto-generate-sql=on", "rand-seed=0", NULL},
        {"auto-generate-sql=on", "rand-seed=5", NULL},
        {"auto-generate-sql=on", "rand-seed=5", NULL},
        {"auto-generate-sql=on", "rand-seed=6", NULL},
        {"auto-generate-sql=on", "rand-seed=5", "client-index=0", "client-count=2", NULL},
        {"auto-generate-sql=on", "rand-seed=5", "client-index=1", "client-count=2", NULL},
    };
    char first[countof(seeds)][64];
    bool drop[countof(seeds)];
    for (size_t i = 0; i < countof(seeds); i++) {
        struct bench_opts o;
        struct slap_plan p;
        struct b_err e;
        memset(&e, 0, sizeof(e));
        T_CHECK(t_opts(&o, seeds[i]) == 0);
        T_CHECK(slap_build(&o, &p, &e) == B_EXIT_OK);
        snprintf(first[i], sizeof(first[i]), "%s", p.query.v[0].sql);
        drop[i] = p.drop;
        if (i == 5) { /* 60 queries for 2 x 3 clients */
            o.slap_queries = 60;
            T_CHECK(slap_limit(&o, &p, 3) == 10);
        }
        slap_plan_free(&p);
        t_opts_free(&o);
    }
    T_CHECK(t_slap_prefix(first[0], "INSERT INTO t1 VALUES (100669,'qnMdipW5KkXdTjGCh2PNzLoeR0527"));
    T_CHECK(!strcmp(first[1], first[2]) && strcmp(first[1], first[3]) && strcmp(first[0], first[1]));
    T_CHECK(!strcmp(first[1], first[4]) && strcmp(first[4], first[5]));
    T_CHECK(drop[1] && !drop[4] && !drop[5]);
    static const char *const bad[][6] = {
        {"auto-generate-sql=on", "client-index=0", "client-count=2", NULL},
        {"auto-generate-sql=on", "rand-seed=1", "client-index=1", "client-count=2",
         "iterations=2", NULL},
        {"create=CREATE TABLE a (a int)", "rand-seed=1", "client-index=0", "client-count=2",
         "concurrency=1,2", NULL},
        {"auto-generate-sql=on", "rand-seed=1", "client-index=0", "client-count=2",
         "engine=innodb,memory", NULL},
    };
    for (size_t i = 0; i < countof(bad); i++)
        T_CHECK(t_slap_refused(bad[i], "slap: --client-count=2 ") == 0);
    return 0;
}

/* a writable argv copy of src (NULL-terminated), freed by t_slap_argv_free */
static char **t_slap_argv(const char *const *src, int *n)
{
    for (*n = 0; src[*n]; (*n)++)
        ;
    char **v = b_xcalloc((size_t)*n + 1, sizeof(char *));
    for (int i = 0; i < *n; i++)
        v[i] = b_xstrdup(src[i]);
    return v;
}

static void t_slap_argv_free(char **v, int n, int from)
{
    for (int i = from; i < n; i++)
        free(v[i]);
    free(v);
}

static int t_slap_args(void)
{
    static const char *const in[] = {"mysqlslap", "-a", "-c5,10", "-vv", "--csv", "-x", "2",
                                     "--skip-no-drop", "--create_schema", "s1", "-h", "db1",
                                     "-uroot", "-pPW", "extra", NULL};
    static const char *const want[] = {"mysqlslap", "slap", "--auto-generate-sql=on",
                                       "--concurrency=5,10", "--csv=-", "--number-char-cols=2",
                                       "--no-drop=off", "--create-schema=s1", "-h", "db1",
                                       "-uroot", "-pPW", "--verbose=2"};
    char **out;
    const char *bad;
    int na, n;
    char **a = t_slap_argv(in, &na);
    n = slap_args(na, a, true, &out, &bad);
    T_CHECK(n == (int)countof(want));
    for (int i = 0; i < n; i++)
        T_CHECK(!strcmp(out[i], want[i]));
    t_slap_argv_free(out, n, 1);
    t_slap_argv_free(a, na, 0);
    static const char *const other[] = {"bench", "cpu", "-a", NULL}; /* not slap: untouched */
    a = t_slap_argv(other, &na);
    T_CHECK(slap_args(na, a, false, &out, &bad) == 0 && !out && !bad);
    t_slap_argv_free(a, na, 0);
    static const char *const named[] = {"bench", "-h", "x", "slap", "-q", "SELECT 1",
                                        "--percentile=99", NULL};
    a = t_slap_argv(named, &na);
    n = slap_args(na, a, false, &out, &bad);
    T_CHECK(n == 7 && !strcmp(out[3], "slap") && !strcmp(out[4], "--query=SELECT 1"));
    T_CHECK(!strcmp(out[6], "--slap-latency=on"));
    t_slap_argv_free(out, n, 1);
    t_slap_argv_free(a, na, 0);
    /* an option with no value (-1, *bad: as written), a third positional as mysqlslap (-2) */
    static const char *const novalue[][4] = {{"mysqlslap", "-a", "--concurrency", NULL},
                                             {"mysqlslap", "-a", "-c", NULL},
                                             {"bench", "slap", "-i", NULL},
                                             {"mysqlslap", "p1", "p2", "p3"}};
    static const char *const why[] = {"--concurrency", "-c", "-i", "p3"};
    for (size_t k = 0; k < countof(novalue); k++) {
        const char *v[5];
        memcpy(v, novalue[k], sizeof(novalue[k]));
        v[4] = NULL;
        a = t_slap_argv(v, &na);
        n = slap_args(na, a, strcmp(v[0], "bench") != 0, &out, &bad);
        T_CHECK(n == (k == 3 ? -2 : -1) && bad && !strcmp(bad, why[k]));
        for (int i = 1; out && out[i]; i++)
            free(out[i]);
        free(out);
        t_slap_argv_free(a, na, 0);
    }
    T_CHECK(cli_persona_for("/usr/bin/mariadb-slap")->persona == B_MYSQLSLAP &&
            cli_persona_for("mysqlslap")->persona == B_MYSQLSLAP &&
            cli_persona_for("bench")->persona == B_BENCH);
    return 0;
}

/* slap_shown: a command for a message fits its buffer whatever its bytes (a control byte
 * escapes to 4 characters), "..." when cut, the command itself when short */
static int t_slap_shown(void)
{
    char cmd[256], buf[240 + 8], full[1024];
    memset(buf, 'Z', sizeof(buf));
    strcpy(cmd, "true #");
    memset(cmd + 6, 1, 249);
    cmd[255] = 0;
    slap_shown(buf, 240, cmd);
    T_CHECK(strlen(buf) < 240 && buf[sizeof(buf) - 1] == 'Z' && buf[240] == 'Z');
    T_CHECK(strncmp(buf, "true #\\x01", 10) == 0);
    T_CHECK(strcmp(buf + strlen(buf) - 3, "...") == 0);
    slap_shown(full, sizeof(full), cmd); /* 200 bytes in: 6 + 194 * 4 characters, cut */
    T_CHECK(strlen(full) == 6 + 194 * 4 + 3);
    memset(cmd, 'a', 250);
    cmd[250] = 0;
    slap_shown(full, sizeof(full), cmd);
    T_CHECK(strlen(full) == 203 && strncmp(full + 197, "aaa...", 7) == 0);
    slap_shown(full, sizeof(full), "exit 3");
    T_CHECK(strcmp(full, "exit 3") == 0);
    cmd[200] = 0;
    slap_shown(full, sizeof(full), cmd); /* exactly 200 bytes: whole */
    T_CHECK(strlen(full) == 200);
    return 0;
}

/* The completion marker's token names the run (--rand-seed, --client-count); the open-file
 * check raises the soft limit when the hard one allows, and refuses past it (exit 3). */
static int t_slap_marker_nofile(void)
{
    struct bench_opts o;
    char a[48], b[48], c[48], d[48];
    memset(&o, 0, sizeof(o));
    o.rand_seed = 5, o.client_count = 2;
    slap_ready_token(&o, a, sizeof(a));
    slap_ready_token(&o, b, sizeof(b));
    o.rand_seed = 6;
    slap_ready_token(&o, c, sizeof(c));
    o.rand_seed = 5, o.client_count = 3;
    slap_ready_token(&o, d, sizeof(d));
    T_CHECK(!strcmp(a, b) && strcmp(a, c) && strcmp(a, d) && strcmp(c, d));
    T_CHECK(t_slap_prefix(d + 8, "-3") && strlen(a) == 10);
    struct rlimit rl0, rl;
    T_CHECK(getrlimit(RLIMIT_NOFILE, &rl0) == 0);
    rl = rl0;
    rl.rlim_cur = 64;
    T_CHECK(setrlimit(RLIMIT_NOFILE, &rl) == 0);
    struct slap_plan p;
    i64 conc[1] = {100};
    struct b_err e;
    memset(&p, 0, sizeof(p));
    memset(&e, 0, sizeof(e));
    p.conc = conc, p.nconc = 1;
    int ex = slap_nofile(&p, &e);
    T_CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0);
    T_CHECK(rl0.rlim_max < 116 ? ex == B_EXIT_ENV : ex == B_EXIT_OK && rl.rlim_cur >= 116);
    conc[0] = rl0.rlim_max == RLIM_INFINITY || rl0.rlim_max > 1000000000 ? 1000000000
                                                                         : (i64)rl0.rlim_max;
    ex = slap_nofile(&p, &e);
    T_CHECK(ex == B_EXIT_ENV && t_slap_prefix(e.msg, "slap: --concurrency=") &&
            strstr(e.msg, " open files; the limit (ulimit -n) is ") && *e.hint);
    T_CHECK(setrlimit(RLIMIT_NOFILE, &rl0) == 0);
    return 0;
}

/* issue 29 (coverage of slap_): mysqlslap's option words that slap_args maps (--verbose
 * without a value counted, --protocol with its value in the next word or none, -? and -I:
 * help, an unknown letter left for the usual message, the client's long options before the
 * word slap), and slap_build's refusals by their message and exit code: -a with --create, a
 * --csv file that cannot be opened (3), SQL files that are not regular files (2) or cannot be
 * read (3: /proc/self/mem at address 0 answers EIO). */
static int t_slap_args_more(void)
{
    static const char *const in[] = {"mysqlslap", "--verbose", "--verbose", "--protocol",
                                     "tcp", "--protocol=socket", "-?", "help", "-Z", NULL};
    static const char *const want[] = {"mysqlslap", "slap", "--protocol=tcp",
                                       "--protocol=socket", "help", "-Z", "--verbose=2",
                                       "help"};
    char **out;
    const char *bad;
    int na, n;
    char **a = t_slap_argv(in, &na);
    n = slap_args(na, a, true, &out, &bad);
    T_CHECK(n == (int)countof(want) && !bad);
    for (int i = 0; i < n && i < (int)countof(want); i++)
        T_CHECK(!strcmp(out[i], want[i]));
    t_slap_argv_free(out, n, 1);
    t_slap_argv_free(a, na, 0);
    static const char *const last[] = {"mysqlslap", "-a", "--protocol", NULL};
    a = t_slap_argv(last, &na);
    T_CHECK(slap_args(na, a, true, &out, &bad) == -1 && bad && !strcmp(bad, "--protocol"));
    for (int i = 1; out && out[i]; i++)
        free(out[i]);
    free(out);
    t_slap_argv_free(a, na, 0);
    /* bench's own command line: the client's options and their values are not the test */
    static const char *const named[] = {"bench", "--host", "h", "--port", "1", "--user", "u",
                                        "--socket", "s", "--database", "d", "--protocol",
                                        "tcp", "slap", "-I", NULL};
    static const char *const nwant[] = {"bench", "--host", "h", "--port", "1", "--user", "u",
                                        "--socket", "s", "--database", "d", "--protocol=tcp",
                                        "slap", "help"};
    a = t_slap_argv(named, &na);
    n = slap_args(na, a, false, &out, &bad);
    T_CHECK(n == (int)countof(nwant) && !bad);
    for (int i = 0; i < n && i < (int)countof(nwant); i++)
        T_CHECK(!strcmp(out[i], nwant[i]));
    t_slap_argv_free(out, n, 1);
    t_slap_argv_free(a, na, 0);
    static const char *const notslap[] = {"bench", "--protocol", "--x", "cpu", "slap", NULL};
    a = t_slap_argv(notslap, &na);
    T_CHECK(slap_args(na, a, false, &out, &bad) == 0 && !out);
    t_slap_argv_free(a, na, 0);

    static const struct {
        const char *kv[4];
        int ex;
        const char *msg; /* with err: msg, strerror(err) (the libc's own words), tail */
        int err;
        const char *tail;
    } refused[] = {
        {{"auto-generate-sql=on", "create=CREATE TABLE a (a int)", NULL}, B_EXIT_USAGE,
         "slap: --auto-generate-sql (-a) cannot be used with --create or --query", 0, NULL},
        {{"query=SELECT 1", "csv=/nonexistent-dir/x.csv", NULL}, B_EXIT_ENV,
         "slap: --csv=/nonexistent-dir/x.csv: cannot open: ", ENOENT, " (ENOENT)"},
        {{"query=/", NULL}, B_EXIT_USAGE, "slap: --query=/: not a regular file", 0, NULL},
        {{"create=/", "query=SELECT 1", NULL}, B_EXIT_USAGE, "slap: --create=/: not a regular file", 0, NULL},
        {{"query=SELECT 1", "pre-query=/", NULL}, B_EXIT_USAGE,
         "slap: --pre-query=/: not a regular file", 0, NULL},
        {{"query=SELECT 1", "post-query=/", NULL}, B_EXIT_USAGE,
         "slap: --post-query=/: not a regular file", 0, NULL},
        {{"query=/proc/self/mem", NULL}, B_EXIT_ENV,
         "slap: --query: cannot read '/proc/self/mem': ", EIO, " (EIO)"},
    };
    for (size_t i = 0; i < countof(refused); i++) {
        struct bench_opts o;
        struct slap_plan p;
        struct b_err e;
        char exp[256];
        memset(&e, 0, sizeof(e));
        snprintf(exp, sizeof(exp), "%s%s%s", refused[i].msg,
                 refused[i].err ? strerror(refused[i].err) : "", refused[i].err ? refused[i].tail : "");
        T_CHECK(t_opts(&o, refused[i].kv) == 0);
        T_CHECK(slap_build(&o, &p, &e) == refused[i].ex);
        if (strcmp(e.msg, exp))
            fprintf(stderr, "slap_args_more: %zu: '%s'\n", i, e.msg);
        T_CHECK(!strcmp(e.msg, exp));
        slap_plan_free(&p);
        t_opts_free(&o);
    }
    /* --force-drop-existing-schema on a schema of the user's: allowed, dropped */
    struct bench_opts o;
    struct slap_plan p;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(t_opts(&o, (const char *const[]){"auto-generate-sql=on",
                                              "force-drop-existing-schema=on",
                                              "create-schema=mysqlslap_x", NULL}) == 0);
    T_CHECK(slap_build(&o, &p, &e) == B_EXIT_OK && p.drop);
    slap_plan_free(&p);
    t_opts_free(&o);
    /* no delimiter (--delimiter=''): the text is one statement */
    struct slap_list l;
    memset(&l, 0, sizeof(l));
    slap_split("SELECT 1;SELECT 2", 0, &l);
    T_CHECK(l.pieces == 1 && l.n == 1 && !strcmp(l.v[0].sql, "SELECT 1;SELECT 2"));
    slap_list_free(&l);
    return 0;
}
