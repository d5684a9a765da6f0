/* opt_, unit_, b_: value syntax, tables, help layout, error names. */

static int t_opt_sizes(void)
{
    static const struct {
        const char *s;
        int rc;
        u64 v;
    } t[] = {
        {"0", B_OK, 0},         {"10", B_OK, 10},          {"1K", B_OK, 1024},
        {"4k", B_OK, 4096},     {"1M", B_OK, 1048576},     {"1G", B_OK, 1073741824ull},
        {"1GB", B_OK, 1073741824ull}, {"2T", B_OK, 2199023255552ull}, {"64KiB", B_OK, 65536},
        {"1.5G", B_INVALID, 0}, {"", B_INVALID, 0},        {"-1", B_INVALID, 0},
        {"1X", B_INVALID, 0},   {"1Kb2", B_INVALID, 0},    {"99999999999T", B_INVALID, 0},
        {"K", B_INVALID, 0},
    };
    for (size_t i = 0; i < countof(t); i++) {
        u64 v = 12345;
        int rc = unit_parse_size(t[i].s, &v);
        if (rc != t[i].rc || (rc == B_OK && v != t[i].v))
            fprintf(stderr, "  size '%s': rc %d v %llu\n", t[i].s, rc, (unsigned long long)v);
        T_CHECK(rc == t[i].rc);
        T_CHECK(rc != B_OK || v == t[i].v);
    }
    char buf[32];
    T_CHECK(!strcmp(unit_fmt_size(512 * 1024, buf, sizeof(buf)), "512KiB"));
    T_CHECK(!strcmp(unit_fmt_size(64ull << 20, buf, sizeof(buf)), "64MiB"));
    T_CHECK(!strcmp(unit_fmt_size(1000, buf, sizeof(buf)), "1000B"));
    return 0;
}

static int t_opt_set_types(void)
{
    struct bench_opts o;
    memset(&o, 0, sizeof(o));
    const struct opt_def *th = opt_find(opt_general, countof(opt_general), "threads", 7);
    T_CHECK(th);
    T_CHECK(opt_set(th, &o, "8") == OPT_OK && o.threads == 8);
    T_CHECK(opt_set(th, &o, "0") == OPT_RANGE && o.threads == 8);
    T_CHECK(opt_set(th, &o, "eight") == OPT_BADVAL);
    T_CHECK(opt_set(th, &o, "8x") == OPT_BADVAL);
    T_CHECK(opt_set(th, &o, "") == OPT_BADVAL);
    /* dashes and underscores are interchangeable */
    T_CHECK(opt_find(opt_general, countof(opt_general), "report_interval", 15) ==
            opt_find(opt_general, countof(opt_general), "report-interval", 15));
    T_CHECK(!opt_find(opt_general, countof(opt_general), "thread", 6));
    const struct opt_def *dbg = opt_find(opt_general, countof(opt_general), "debug", 5);
    static const char *on[] = {"on", "true", "1"}, *off[] = {"off", "false", "0"};
    for (int i = 0; i < 3; i++) {
        T_CHECK(opt_set(dbg, &o, on[i]) == OPT_OK && o.debug);
        T_CHECK(opt_set(dbg, &o, off[i]) == OPT_OK && !o.debug);
    }
    T_CHECK(opt_set(dbg, &o, "5") == OPT_BADVAL);
    T_CHECK(opt_set(dbg, &o, "yes") == OPT_BADVAL);
    const struct opt_def *rt = opt_find(opt_rand, countof(opt_rand), "rand-type", 9);
    T_CHECK(opt_set(rt, &o, "pareto") == OPT_OK && o.rand_type == RND_PARETO);
    T_CHECK(opt_set(rt, &o, "zipfian") == OPT_OK && o.rand_type == RND_ZIPFIAN);
    o.ext_off = true; /* sysbench 1.0.20 has no zipfian: the sysbench persona refuses it */
    T_CHECK(opt_set(rt, &o, "zipfian") == OPT_RANGE);
    T_CHECK(opt_set(rt, &o, "uniform") == OPT_OK && o.rand_type == RND_UNIFORM);
    T_CHECK(opt_set(rt, &o, "unif") == OPT_RANGE);
    const struct opt_def *bs = opt_find(opt_memory, countof(opt_memory), "memory_block_size", 17);
    T_CHECK(opt_set(bs, &o, "4K") == OPT_OK && o.memory_block_size == 4096);
    T_CHECK(opt_set(bs, &o, "1.5K") == OPT_BADVAL);
    const struct opt_def *ph = opt_find(opt_rand, countof(opt_rand), "rand-pareto-h", 13);
    T_CHECK(opt_set(ph, &o, "0.5") == OPT_OK && o.rand_pareto_h == 0.5);
    T_CHECK(opt_set(ph, &o, "1") == OPT_RANGE);
    T_CHECK(opt_set(ph, &o, "nan") == OPT_BADVAL);
    t_opts_free(&o);
    return 0;
}

/* every row: a default that parses, a unique name, a help text; enum defaults in choices */
static int t_opt_tables(void)
{
    const struct opt_def *rows[1024];
    size_t n = 0;
    for (size_t g = 0; g < countof(opt_groups); g++)
        for (size_t i = 0; i < opt_groups[g].n; i++)
            if (n < countof(rows))
                rows[n++] = &opt_groups[g].t[i];
    for (size_t w = 0; w < countof(wl_all); w++)
        for (size_t i = 0; i < wl_all[w].nopts; i++)
            if (n < countof(rows))
                rows[n++] = &wl_all[w].opts[i];
    struct bench_opts o;
    memset(&o, 0, sizeof(o));
    for (size_t i = 0; i < n; i++) {
        T_CHECK(rows[i]->help && *rows[i]->help);
        T_CHECK(!strchr(rows[i]->name, '_'));
        if (opt_set(rows[i], &o, rows[i]->def) != OPT_OK)
            fprintf(stderr, "  default of --%s does not parse\n", rows[i]->name);
        T_CHECK(opt_set(rows[i], &o, rows[i]->def) == OPT_OK);
        /* a name means one thing everywhere: tables shared by several workloads (the
         * oltp_* scripts) may repeat a row, never give a name another field or type */
        for (size_t k = i + 1; k < n; k++)
            if (!strcmp(rows[i]->name, rows[k]->name)) {
                if (rows[i]->off != rows[k]->off || rows[i]->type != rows[k]->type)
                    fprintf(stderr, "  --%s has two meanings\n", rows[i]->name);
                T_CHECK(rows[i]->off == rows[k]->off && rows[i]->type == rows[k]->type);
            }
        if (rows[i]->sb_bad) { /* one conversion: %s, %u or %f (cli_sb_bad) */
            const char *pc = strchr(rows[i]->sb_bad, '%');
            T_CHECK(pc && strchr("suf", pc[1]) && !strchr(pc + 1, '%'));
        }
    }
    t_opts_free(&o);
    return 0;
}

/* Help output is sysbench's, byte for byte (captured from Debian's sysbench 1.0.20). */
static int t_opt_help_layout(void)
{
    struct buf hb = {0};
    opt_help_text(&hb, opt_memory, countof(opt_memory), true);
    char *text = hb.p;
    T_CHECK(!strcmp(text,
                    "  --memory-block-size=SIZE    size of memory block for test [1K]\n"
                    "  --memory-total-size=SIZE    total size of data to transfer [100G]\n"
                    "  --memory-scope=STRING       memory access scope {global,local} [global]\n"
                    "  --memory-hugetlb[=on|off]   allocate memory from HugeTLB pool [off]\n"
                    "  --memory-oper=STRING        type of memory operations {read, write, "
                    "none} [write]\n"
                    "  --memory-access-mode=STRING memory access mode {seq,rnd} [seq]\n"));
    free(text);
    hb = (struct buf){0};
    opt_help_text(&hb, opt_rand, countof(opt_rand), true); /* sysbench persona: no zipfian */
    text = hb.p;
    T_CHECK(strstr(text, "  --rand-type=STRING random numbers distribution "
                         "{uniform,gaussian,special,pareto} [special]\n"));
    T_CHECK(!strstr(text, "zipfian"));
    free(text);
    hb = (struct buf){0};
    opt_help_text(&hb, opt_rand, countof(opt_rand), false); /* bench persona: with zipfian */
    text = hb.p;
    T_CHECK(strstr(text, "{uniform,gaussian,special,pareto,zipfian} [special]\n"));
    T_CHECK(strstr(text, "--rand-zipfian-exp=N"));
    free(text);
    return 0;
}

static int t_opt_edit_distance(void)
{
    T_CHECK(opt_edit_distance("thread", 6, "threads", 7) == 1);
    T_CHECK(opt_edit_distance("cpu_max_prime", 13, "cpu-max-prime", 13) == 0);
    T_CHECK(opt_edit_distance("tiem", 4, "time", 4) == 2);
    T_CHECK(opt_edit_distance("", 0, "abc", 3) == 3);
    const char *owner;
    T_CHECK(!strcmp(cli_suggest("thread", 6, &owner), "threads") && !owner);
    T_CHECK(!strcmp(cli_suggest("cpu-max-primes", 14, &owner), "cpu-max-prime") &&
            !strcmp(owner, "cpu"));
    T_CHECK(cli_suggest("zzzzzzzzzzzz", 12, &owner) == NULL);
    return 0;
}

static int t_b_errors(void)
{
    T_CHECK(!strcmp(b_errname(B_TRUNCATED), "B_TRUNCATED"));
    T_CHECK(!strcmp(b_errstr(B_OK), "success"));
    T_CHECK(!strcmp(b_errname(-999), "B_UNKNOWN"));
    T_CHECK(!strcmp(b_errno_name(ECONNREFUSED), "ECONNREFUSED"));
    struct b_err e;
    T_CHECK(b_seterr(&e, B_SYSERR, ENOENT, "open %s: %s", "x", "y") == B_SYSERR);
    T_CHECK(e.rc == B_SYSERR && e.sys_errno == ENOENT && !strcmp(e.msg, "open x: y"));
    return 0;
}

/* bench_main's exit codes for bad input, in both personas (output goes to /dev/null). */
static int t_cli_exit_codes(void)
{
    static const struct {
        const char *argv[6];
        int bench, sb;
    } t[] = {
        {{"x", "--thread=4", "cpu", "run"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "--threads=0", "cpu", "run"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "--threads=x", "cpu", "run"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "cpu", "run", "extra"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "nosuchtest", "run"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "cpu"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "cpu", "prepare"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "--percentile=50,abc", "cpu", "run"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "--config-file=/nonexistent/bench.conf", "cpu", "run"}, B_EXIT_ENV, B_EXIT_FAIL},
        {{"x", "memory", "--memory-block-size=3", "run"}, B_EXIT_USAGE, B_EXIT_FAIL},
        {{"x", "--version"}, B_EXIT_OK, B_EXIT_OK},
        {{"x", "cpu", "help"}, B_EXIT_OK, B_EXIT_OK},
    };
    int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
    T_CHECK(out >= 0 && err >= 0 && null >= 0);
    int bad = -1;
    for (size_t i = 0; i < countof(t) && bad < 0; i++) {
        for (int sb = 0; sb < 2; sb++) {
            char *argv[6];
            int argc = 0;
            for (; t[i].argv[argc]; argc++)
                argv[argc] = (char *)t[i].argv[argc];
            argv[argc] = NULL;
            argv[0] = (char *)(sb ? "/usr/bin/sysbench" : "./bench");
            fflush(stdout);
            dup2(null, 1), dup2(null, 2);
            int rc = bench_main(argc, argv);
            fflush(stdout), fflush(stderr);
            dup2(out, 1), dup2(err, 2);
            if (rc != (sb ? t[i].sb : t[i].bench)) {
                fprintf(stderr, "  %s %s: exit %d\n", argv[0], t[i].argv[1], rc);
                bad = (int)i;
            }
        }
    }
    close(out), close(err), close(null);
    T_CHECK(bad < 0);
    return 0;
}

/* ---- option files (cli_read_config, cli_cnf_file): a scratch directory of their own ---- */

static char t_cnf_dir[64];

static void t_cnf_write(const char *name, const char *text, mode_t mode)
{
    char p[128];
    snprintf(p, sizeof(p), "%s/%s", t_cnf_dir, name);
    FILE *f = fopen(p, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    chmod(p, mode);
}

/* Read one option file as cli_db_defaults does (or --config-file with cfg); the options it
 * gave, joined by '|', into out. Messages go to /dev/null. */
static int t_cnf_read(const char *name, bool cfg, struct buf *out)
{
    struct cli c;
    struct cli_cnf k;
    char p[128];
    memset(&c, 0, sizeof(c));
    memset(&k, 0, sizeof(k));
    k.c = &c;
    snprintf(p, sizeof(p), "%s/%s", name[0] == '/' ? "" : t_cnf_dir, name);
    int err = dup(2), null = open("/dev/null", O_WRONLY);
    fflush(stderr);
    dup2(null, 2);
    int ex = cfg ? cli_read_config(&c, name[0] == '/' ? name : p)
                 : cli_cnf_file(&k, name[0] == '/' ? name : p, true, NULL);
    fflush(stderr);
    dup2(err, 2);
    close(err), close(null);
    out->len = 0;
    buf_put(out, "", 0);
    for (int i = 0; i < c.nargs; i++)
        buf_printf(out, "%s%s", i ? "|" : "", c.args[i]);
    cli_free(&c);
    return ex;
}

static int t_opt_cnf_grammar(void)
{
    struct buf b = {0}, txt = {0};
    snprintf(t_cnf_dir, sizeof(t_cnf_dir), "/tmp/bench-t-cnf.%d", (int)getpid());
    T_CHECK(mkdir(t_cnf_dir, 0700) == 0);
    /* a comment longer than any old line buffer: its tail must not become an option */
    buf_printf(&txt, "[client]\n# ");
    for (int i = 0; i < 5000; i++)
        buf_printf(&txt, "x");
    buf_printf(&txt, "user=evil host=evil\n"
                     "host = 127.0.0.1 # the test server\n"
                     "port = 1 # comment\n"
                     "password = \"p#w\\\"x\\\\y\" # quoted, escaped\n"
                     "socket='s q'\n"
                     "[mysql]\nuser=m\n"
                     "[client-server]\nloose-ssl_ca = /ca.pem\n"
                     "[CLIENT]\ndatabase=d\\sb\n"
                     "; a comment\n  \n[other]\nuser=o\n");
    t_cnf_write("g.cnf", txt.p, 0600);
    T_CHECK(t_cnf_read("g.cnf", false, &b) == B_EXIT_OK);
    T_CHECK(!strcmp(b.p, "--mysql-host=127.0.0.1|--mysql-port=1|--mysql-password=p#w\"x\\y|"
                         "--mysql-socket=s q|--ssl-ca=/ca.pem|--mysql-db=d b"));
    /* a long value is kept whole */
    txt.len = 0;
    buf_printf(&txt, "[client]\npassword=");
    for (int i = 0; i < 3000; i++)
        buf_printf(&txt, "%c", 'a' + i % 26);
    buf_printf(&txt, "\n");
    t_cnf_write("long.cnf", txt.p, 0600);
    T_CHECK(t_cnf_read("long.cnf", false, &b) == B_EXIT_OK);
    T_CHECK(b.len == strlen("--mysql-password=") + 3000 && b.p[b.len - 1] == 'a' + 2999 % 26);
    /* errors: name the file and line; refused files */
    t_cnf_write("nogroup.cnf", "user=x\n[client]\n", 0600);
    T_CHECK(t_cnf_read("nogroup.cnf", false, &b) == B_EXIT_USAGE);
    t_cnf_write("badgroup.cnf", "[client\nuser=x\n", 0600);
    T_CHECK(t_cnf_read("badgroup.cnf", false, &b) == B_EXIT_USAGE);
    t_cnf_write("badport.cnf", "[client]\nport = 1x\n", 0600);
    T_CHECK(t_cnf_read("badport.cnf", false, &b) == B_EXIT_USAGE);
    t_cnf_write("ww.cnf", "[client]\nhost=evil\n", 0666);
    T_CHECK(t_cnf_read("ww.cnf", false, &b) == B_EXIT_OK && b.len == 0);
    T_CHECK(t_cnf_read("/dev/zero", false, &b) == B_EXIT_ENV);
    T_CHECK(t_cnf_read("/tmp", false, &b) == B_EXIT_ENV);
    T_CHECK(t_cnf_read("missing.cnf", false, &b) == B_EXIT_ENV);
    t_cnf_write("nul.cnf", "[client]\nuser=a", 0600);
    {
        char p[128];
        snprintf(p, sizeof(p), "%s/nul.cnf", t_cnf_dir);
        FILE *f = fopen(p, "a");
        T_CHECK(f && fputc(0, f) == 0 && fclose(f) == 0);
    }
    T_CHECK(t_cnf_read("nul.cnf", false, &b) == B_EXIT_ENV);
    buf_free(&b);
    buf_free(&txt);
    return 0;
}

static int t_opt_cnf_include(void)
{
    struct buf b = {0}, txt = {0};
    char d[128];
    T_CHECK(t_cnf_dir[0]); /* after t_opt_cnf_grammar */
    snprintf(d, sizeof(d), "%s/conf.d", t_cnf_dir);
    T_CHECK(mkdir(d, 0700) == 0);
    t_cnf_write("conf.d/b.cnf", "[client]\nuser=b\n", 0600);
    t_cnf_write("conf.d/a.cnf", "[client]\nuser=a\nhost=a\n", 0600);
    t_cnf_write("conf.d/c.txt", "[client]\nuser=c\n", 0600);
    buf_printf(&txt, "[client]\nuser=top\n!includedir %s\n!include %s/none.cnf\n"
                     "!include %s/inc.cnf  \n!unknown directive\nport=7\n",
               d, t_cnf_dir, t_cnf_dir);
    t_cnf_write("top.cnf", txt.p, 0600);
    t_cnf_write("inc.cnf", "[mysql]\n[client]\nsocket=/s\n", 0600);
    T_CHECK(t_cnf_read("top.cnf", false, &b) == B_EXIT_OK);
    T_CHECK(!strcmp(b.p, "--mysql-user=top|--mysql-user=a|--mysql-host=a|--mysql-user=b|"
                         "--mysql-socket=/s|--mysql-port=7"));
    /* a loop is an error; a chain deeper than the client's 10 levels stops there */
    txt.len = 0;
    buf_printf(&txt, "[client]\nuser=l1\n!include %s/loop2.cnf\n", t_cnf_dir);
    t_cnf_write("loop1.cnf", txt.p, 0600);
    txt.len = 0;
    buf_printf(&txt, "[client]\nuser=l2\n!include %s/loop1.cnf\n", t_cnf_dir);
    t_cnf_write("loop2.cnf", txt.p, 0600);
    T_CHECK(t_cnf_read("loop1.cnf", false, &b) == B_EXIT_USAGE);
    for (int i = 0; i < 14; i++) {
        char name[32];
        txt.len = 0;
        buf_printf(&txt, "[client]\nport=%d\n!include %s/deep%d.cnf\n", i, t_cnf_dir, i + 1);
        snprintf(name, sizeof(name), "deep%d.cnf", i);
        t_cnf_write(name, txt.p, 0600);
    }
    T_CHECK(t_cnf_read("deep0.cnf", false, &b) == B_EXIT_OK);
    T_CHECK(b.len >= 15 && !strcmp(b.p + b.len - 15, "--mysql-port=10"));
    t_cnf_write("noarg.cnf", "[client]\n!include   \n", 0600);
    T_CHECK(t_cnf_read("noarg.cnf", false, &b) == B_EXIT_USAGE);
    buf_free(&b);
    buf_free(&txt);
    return 0;
}

/* sysbench's --config-file: every line, any length, no cap on their number */
static int t_opt_config_file(void)
{
    struct buf b = {0}, txt = {0};
    T_CHECK(t_cnf_dir[0]);
    for (int i = 0; i < 3000; i++)
        buf_printf(&txt, "%s = %d # n\n", i % 2 ? "threads" : "events", i);
    buf_printf(&txt, "mysql-password = '");
    for (int i = 0; i < 9000; i++)
        buf_printf(&txt, "p");
    buf_printf(&txt, "'\n");
    t_cnf_write("big.cfg", txt.p, 0600);
    T_CHECK(t_cnf_read("big.cfg", true, &b) == B_EXIT_OK);
    size_t n = 0;
    for (char *p = b.p; (p = strchr(p, '|')); p++)
        n++;
    T_CHECK(n == 3000);
    T_CHECK(strstr(b.p, "|--threads=2999|--mysql-password=ppp") != NULL);
    T_CHECK(b.len > 9000 && b.p[b.len - 1] == 'p');
    T_CHECK(t_cnf_read(t_cnf_dir, true, &b) == B_EXIT_ENV);
    T_CHECK(t_cnf_read("/dev/zero", true, &b) == B_EXIT_ENV);
    buf_free(&b);
    buf_free(&txt);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t_cnf_dir);
    T_CHECK(system(cmd) == 0);
    return 0;
}

/* passwords leave argv after parsing, as the mysql client does */
static int t_opt_hide_secrets(void)
{
    char a0[] = "bench", a1[] = "-pSECRET", a2[] = "--password=S2", a3[] = "--mysql-password=S3",
         a4[] = "--mysql-host=h", a5[] = "ping";
    char *argv[] = {a0, a1, a2, a3, a4, a5, NULL};
    char *out[7];
    struct buf mem = {0};
    bool prompt = false;
    const char *bad;
    int n = cli_mysql_args(5, argv + 1, out, &mem, &prompt, &bad);
    cli_hide_secrets(6, argv);
    T_CHECK(n == 5);
    T_CHECK(!strcmp(a1, "-pxxxxxx") && !strcmp(a2, "--password=xx") &&
            !strcmp(a3, "--mysql-password=xx") && !strcmp(a4, "--mysql-host=h"));
    T_CHECK(!strcmp(out[0], "--mysql-password=SECRET") &&
            !strcmp(out[1], "--mysql-password=S2") && !strcmp(out[2], "--mysql-password=S3"));
    buf_free(&mem);
    return 0;
}

/* junk in messages: control bytes and non-UTF-8 bytes escaped, UTF-8 kept */
static int t_opt_esc(void)
{
    struct buf b = {0};
    static const char in[] = "a\x1b[31m\x01\x7f\xff\xc3\xa9\xe2\x82\xac\xc3";
    T_CHECK(!strcmp(cli_esc(&b, in, sizeof(in) - 1),
                    "a\\x1b[31m\\x01\\x7f\\xff\xc3\xa9\xe2\x82\xac\\xc3"));
    T_CHECK(!strcmp(cli_esc(&b, "", 0), ""));
    /* C1 controls encoded as UTF-8 (U+009B, a CSI) are escaped; U+00A0 and up are kept */
    T_CHECK(!strcmp(cli_esc(&b, "\xc2\x9b" "31m\xc2\x80\xc2\xa0", 9),
                    "\\xc2\\x9b31m\\xc2\\x80\xc2\xa0"));
    buf_free(&b);
    return 0;
}
