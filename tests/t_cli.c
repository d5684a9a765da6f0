/* The cli_ section's tables: personas (argv[0] -> row) and commands (word -> row). */

/* Run bench_main with argv[0] = me and the arguments given, output to /dev/null. */
static int t_cli_run(const char *me, const char *const *args)
{
    char *argv[8];
    int argc = 0;
    argv[argc++] = (char *)(uintptr_t)me;
    for (; args[argc - 1] && argc < 7; argc++)
        argv[argc] = (char *)(uintptr_t)args[argc - 1];
    argv[argc] = NULL;
    int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
    fflush(stdout), fflush(stderr);
    dup2(null, 1), dup2(null, 2);
    int rc = bench_main(argc, argv);
    fflush(stdout), fflush(stderr);
    dup2(out, 1), dup2(err, 2);
    close(out), close(err), close(null);
    memset(&opts, 0, sizeof(opts)); /* no persona's printer left for the tests after this */
    return rc;
}

static int t_cli_personas(void)
{
    static const struct {
        const char *argv0;
        int persona;
    } t[] = {
        /* sysbench's own test of its name: strncmp(me, "sysbench", 8) on the base name */
        {"sysbench", B_SYSBENCH},       {"/usr/bin/sysbench", B_SYSBENCH},
        {"sysbench-1.0", B_SYSBENCH},   {"./sysbench1.0.20", B_SYSBENCH},
        {"bench", B_BENCH},             {"./bench", B_BENCH},
        {"/opt/sysbench/bench", B_BENCH}, {"sys", B_BENCH},
        {"xsysbench", B_BENCH},         {"", B_BENCH},
        {"mysqlslap", B_MYSQLSLAP},     {"/usr/bin/mariadb-slap", B_MYSQLSLAP},
        {"mysql", B_BENCH},             {"mariadb", B_BENCH},
    };
    for (size_t i = 0; i < countof(t); i++) {
        const struct cli_persona *p = cli_persona_for(t[i].argv0);
        if (p->persona != t[i].persona)
            fprintf(stderr, "  argv[0] '%s': persona %d\n", t[i].argv0, p->persona);
        T_CHECK(p->persona == t[i].persona);
    }
    /* one row per persona, at its index, every field there */
    T_CHECK(countof(cli_personas) == B_MYSQLSLAP + 1);
    for (size_t i = 0; i < countof(cli_personas); i++) {
        const struct cli_persona *p = &cli_personas[i];
        T_CHECK(p->persona == (int)i && p->name && p->banner && p->version);
        T_CHECK(p->fatal && p->warn && p->hint && p->note && (p->msg_fd == 1 || p->msg_fd == 2));
        T_CHECK(p->usage_ex == B_EXIT_USAGE || p->usage_ex == B_EXIT_FAIL);
        T_CHECK(p->version[0] && p->version[strlen(p->version) - 1] == '\n');
    }
    T_CHECK(cli_personas[B_BENCH].usage_ex == B_EXIT_USAGE && cli_personas[B_BENCH].hints);
    T_CHECK(cli_personas[B_SYSBENCH].usage_ex == B_EXIT_FAIL && !cli_personas[B_SYSBENCH].hints);
    T_CHECK(!strcmp(cli_personas[B_SYSBENCH].fatal, "FATAL: "));
    T_CHECK(cli_personas[B_SYSBENCH].msg_fd == 1 && cli_personas[B_BENCH].msg_fd == 2);
    /* what a persona sets for the lower sections */
    memset(&opts, 0, sizeof(opts));
    cli_persona_set(&cli_personas[B_SYSBENCH]);
    T_CHECK(opts.sb && opts.ext_off && b_usage_exit() == B_EXIT_FAIL && opts.msg_print);
    cli_persona_set(&cli_personas[B_BENCH]);
    T_CHECK(!opts.sb && !opts.ext_off && b_usage_exit() == B_EXIT_USAGE);
    memset(&opts, 0, sizeof(opts));
    /* the mysqlslap persona runs the slap command: nothing to run exits 1 as mariadb-slap's
     * failures (its own option errors: my_getopt's codes), --help lists slap's options */
    static const char *const none[] = {NULL}, *const help[] = {"--help", NULL};
    static const char *const unk[] = {"--nosuch", NULL}, *const unkv[] = {"--nosuch=1", NULL};
    static const char *const noval[] = {"-a", "-c", NULL}, *const badv[] = {"-i", "x", NULL};
    T_CHECK(t_cli_run("mysqlslap", none) == B_EXIT_FAIL);
    T_CHECK(t_cli_run("mysqlslap", unk) == 2 && t_cli_run("mariadb-slap", unkv) == 7);
    T_CHECK(t_cli_run("mysqlslap", noval) == 5 && t_cli_run("mysqlslap", badv) == 13);
    T_CHECK(t_cli_run("bench", unk) == B_EXIT_USAGE); /* bench's codes stay bench's */
    T_CHECK(t_cli_run("/usr/bin/mariadb-slap", help) == B_EXIT_OK);
    return 0;
}

/* b_msg through the persona's printer: prefix, stream, hints shown or not. */
static int t_cli_msg(void)
{
    static const struct {
        int persona, kind;
        const char *out, *err; /* what stdout and stderr get */
    } t[] = {
        {B_BENCH, B_MSG_FATAL, "", "bench: x 1\n"},
        {B_BENCH, B_MSG_WARN, "", "bench: warning: x 1\n"},
        {B_BENCH, B_MSG_HINT, "", "bench: hint: x 1\n"},
        {B_SYSBENCH, B_MSG_FATAL, "FATAL: x 1\n", ""},
        {B_SYSBENCH, B_MSG_WARN, "WARNING: x 1\n", ""},
        {B_SYSBENCH, B_MSG_HINT, "", ""},
        {B_MYSQLSLAP, B_MSG_FATAL, "", "mysqlslap: x 1\n"},
    };
    for (size_t i = 0; i < countof(t); i++) {
        char got[2][64];
        FILE *f[2] = {tmpfile(), tmpfile()};
        T_CHECK(f[0] && f[1]);
        int sv[2] = {dup(1), dup(2)};
        memset(&opts, 0, sizeof(opts));
        opts.verbosity = 3;
        cli_persona_set(&cli_personas[t[i].persona]);
        fflush(stdout), fflush(stderr);
        dup2(fileno(f[0]), 1), dup2(fileno(f[1]), 2);
        b_msg(t[i].kind, "x %d", 1);
        fflush(stdout), fflush(stderr);
        dup2(sv[0], 1), dup2(sv[1], 2);
        close(sv[0]), close(sv[1]);
        for (int k = 0; k < 2; k++) {
            rewind(f[k]);
            size_t n = fread(got[k], 1, sizeof(got[k]) - 1, f[k]);
            got[k][n] = 0;
            fclose(f[k]);
        }
        memset(&opts, 0, sizeof(opts));
        if (strcmp(got[0], t[i].out) || strcmp(got[1], t[i].err))
            fprintf(stderr, "  row %zu: stdout '%s' stderr '%s'\n", i, got[0], got[1]);
        T_CHECK(!strcmp(got[0], t[i].out) && !strcmp(got[1], t[i].err));
    }
    return 0;
}

static int t_cli_commands(void)
{
    static const char *const words[] = {"run", "prepare", "cleanup", "prewarm", "check", "help"};
    /* every row is reachable, and for each test a word has at most one row */
    for (size_t k = 0; k < countof(cli_cmds); k++) {
        bool reached = cli_cmd_find(NULL, cli_cmds[k].name) == &cli_cmds[k];
        for (size_t w = 0; w < countof(wl_all) && !reached; w++)
            reached = cli_cmd_find(&wl_all[w], cli_cmds[k].name) == &cli_cmds[k] ||
                      (cli_cmds[k].word == CLI_W_OPTIONAL &&
                       cli_cmd_find(&wl_all[w], NULL) == &cli_cmds[k]);
        T_CHECK(reached && cli_cmds[k].fn);
    }
    for (size_t w = 0; w < countof(wl_all); w++) {
        const struct wl_def *wl = &wl_all[w];
        for (size_t i = 0; i < countof(words); i++) {
            int n = 0;
            for (size_t k = 0; k < countof(cli_cmds); k++)
                n += cli_cmd_fits(&cli_cmds[k], wl) && !strcmp(cli_cmds[k].name, words[i]);
            T_CHECK(n <= 1);
        }
        /* run and help always; the hooks where the test has them */
        T_CHECK(cli_cmd_find(wl, "help") && cli_cmd_find(wl, "run"));
        T_CHECK(!cli_cmd_find(wl, "prepare") == !(wl->prepare && !wl->command));
        T_CHECK(!cli_cmd_find(wl, "cleanup") == !(wl->cleanup && !wl->command));
        T_CHECK(!cli_cmd_find(wl, "prewarm") == !(wl->prewarm && !wl->command));
        T_CHECK(!cli_cmd_find(wl, "check") == !(wl->audit && !wl->command));
        T_CHECK(!cli_cmd_find(wl, "version") && !cli_cmd_find(wl, "bogus"));
        /* no command word: only a test with a command of its own runs */
        T_CHECK(!cli_cmd_find(wl, NULL) == !wl->command);
        if (wl->command)
            T_CHECK(cli_cmd_find(wl, "run")->hook == CLI_H_OWN);
        else
            T_CHECK(cli_cmd_find(wl, "run")->hook == CLI_H_RUN);
    }
    T_CHECK(cli_cmd_find(NULL, "help") && cli_cmd_find(NULL, "version"));
    T_CHECK(!cli_cmd_find(NULL, "run") && !cli_cmd_find(NULL, NULL));
    /* an unknown word: the persona's usage error */
    static const char *const bad[][3] = {
        {"cpu", "bogus", NULL},     {"cpu", "prewarm", NULL}, {"threads", "cleanup", NULL},
        {"ping", "bogus", NULL},    {"ping", "prepare", NULL},
    };
    for (size_t i = 0; i < countof(bad); i++) {
        T_CHECK(t_cli_run("./bench", bad[i]) == B_EXIT_USAGE);
        T_CHECK(t_cli_run("/usr/bin/sysbench", bad[i]) == B_EXIT_FAIL);
    }
    return 0;
}

/* --mysql-protocol=auto (cli_protocol): TCP when a port is given on the command line and no
 * socket there, in the bench and mysqlslap personas; as it was otherwise (the sysbench
 * persona, a port from an option file, a socket given, a protocol given). */
static int t_cli_protocol(void)
{
    static const struct {
        const char *args[3], *from[3]; /* at most 3 options; from NULL: the command line */
        bool sb;                       /* the sysbench persona (sb_behaviour) */
        int proto, want;               /* --mysql-protocol given, then resolved */
    } t[] = {
        {{"--mysql-port=3307"}, {NULL}, false, MYC_PROTO_AUTO, MYC_PROTO_TCP},
        {{"--mysql_port=3307"}, {NULL}, false, MYC_PROTO_AUTO, MYC_PROTO_TCP},
        {{"--mysql-port"}, {NULL}, false, MYC_PROTO_AUTO, MYC_PROTO_TCP},
        {{"--mysql-portx=1"}, {NULL}, false, MYC_PROTO_AUTO, MYC_PROTO_AUTO},
        {{"--mysql-host=localhost"}, {NULL}, false, MYC_PROTO_AUTO, MYC_PROTO_AUTO},
        {{"--mysql-port=3307"}, {"my.cnf:2"}, false, MYC_PROTO_AUTO, MYC_PROTO_AUTO},
        {{"--mysql-port=3307", "--mysql-socket=/s"}, {NULL, NULL}, false, MYC_PROTO_AUTO,
         MYC_PROTO_AUTO},
        {{"--mysql-socket=/s", "--mysql-port=3307"}, {NULL, NULL}, false, MYC_PROTO_AUTO,
         MYC_PROTO_AUTO},
        /* a socket from a file does not keep a port given on the command line from TCP */
        {{"--mysql-socket=/s", "--mysql-port=3307"}, {"my.cnf:1", NULL}, false,
         MYC_PROTO_AUTO, MYC_PROTO_TCP},
        {{"--mysql-port=3307"}, {NULL}, true, MYC_PROTO_AUTO, MYC_PROTO_AUTO},
        /* an empty socket is none given */
        {{"--mysql-port=3307", "--mysql-socket="}, {NULL, NULL}, false, MYC_PROTO_AUTO,
         MYC_PROTO_TCP},
        /* a protocol given on the command line wins (proto: as cli_apply left it) */
        {{"--mysql-port=3307", "--mysql-protocol=socket"}, {NULL, NULL}, false,
         MYC_PROTO_SOCKET, MYC_PROTO_SOCKET},
        {{"--mysql-protocol=tcp", "--mysql-socket=/s"}, {NULL, NULL}, false, MYC_PROTO_TCP,
         MYC_PROTO_TCP},
        /* a protocol from an option file: a port on the command line makes it TCP, a socket
         * there the socket (the command line comes later, as in the client) */
        {{"--mysql-protocol=socket", "--mysql-port=3307"}, {"my.cnf:3", NULL}, false,
         MYC_PROTO_SOCKET, MYC_PROTO_TCP},
        {{"--mysql-protocol=tcp", "--mysql-socket=/s"}, {"my.cnf:3", NULL}, false,
         MYC_PROTO_TCP, MYC_PROTO_AUTO},
        {{"--mysql-protocol=tcp"}, {"my.cnf:3"}, false, MYC_PROTO_TCP, MYC_PROTO_TCP},
    };
    for (size_t i = 0; i < countof(t); i++) {
        struct cli c;
        struct bench_opts o;
        memset(&c, 0, sizeof(c));
        memset(&o, 0, sizeof(o));
        const char *args[3], *from[3];
        for (int k = 0; k < 3 && t[i].args[k]; k++)
            args[k] = t[i].args[k], from[k] = t[i].from[k], c.nargs = k + 1;
        c.args = args, c.from = from;
        o.sb_behaviour = t[i].sb;
        o.mysql_protocol = t[i].proto;
        cli_protocol(&c, &o);
        /* the hint's flag: TCP by the port rule only */
        T_CHECK(o.mysql_protocol_by_port ==
                (t[i].want == MYC_PROTO_TCP && t[i].proto != MYC_PROTO_TCP && !t[i].sb));
        if (o.mysql_protocol != t[i].want)
            fprintf(stderr, "  case %zu (%s): protocol %d, wanted %d\n", i, t[i].args[0],
                    o.mysql_protocol, t[i].want);
        T_CHECK(o.mysql_protocol == t[i].want);
    }
    return 0;
}
