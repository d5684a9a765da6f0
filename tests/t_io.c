/* fileio: the manifest journal's parser, the ownership check, the fill, and the commands and
 * checks as data: progress lines through a sink, facts, b_err, nothing printed (res_). */

static int t_io_manifest_parse(void)
{
    struct io_man m;
    struct b_err e;
    char ok[] = IO_MANIFEST_HDR " run=1 created=2\n"
                "+ 0 5 100 7 65536 w\n"
                "+ 0 5 100 7 65536 c\n"
                "+ 3 5 103 0 16384 c\n"
                "- 3\n"
                "+ 2 5 102 0 16384 c"; /* cut by a crash: never relied on */
    memset(&m, 0, sizeof(m));
    memset(&e, 0, sizeof(e));
    T_CHECK(io_man_parse(&m, ok, strlen(ok), "d", &e) == B_OK);
    T_CHECK(m.lines == 5 && m.live == 1);
    T_CHECK(m.e[0].state == 'c' && m.e[0].ino == 100 && m.e[0].size == 65536);
    T_CHECK(m.e[3].state == 0 && m.cap >= 4 && m.e[2].state == 0);
    free(m.e);
    char *bad[] = {
        (char[]){"hello\n"},
        (char[]){IO_MANIFEST_HDR " x\n+ 1 2 3 4 5 z\n"},
        (char[]){IO_MANIFEST_HDR " x\n+ 1000000 2 3 4 5 c\n"},
        (char[]){IO_MANIFEST_HDR " x\n+ -1 2 3 4 5 c\n"},
        (char[]){IO_MANIFEST_HDR " x\n+ 1 2 3 4 5 c trailing\n"},
        (char[]){IO_MANIFEST_HDR " x\n- 1x\n"},
    };
    for (size_t i = 0; i < countof(bad); i++) {
        memset(&m, 0, sizeof(m));
        T_CHECK(io_man_parse(&m, bad[i], strlen(bad[i]), "d", &e) == B_INVALID);
        T_CHECK(strstr(e.msg, "d/" IO_MANIFEST " is not a bench manifest") != NULL);
        free(m.e);
    }
    return 0;
}

static int t_io_not_ours(void)
{
    struct bench_opts o;
    struct io_shared sh;
    struct io_man m;
    struct io_id id;
    struct io_own w = {5, 100, 7, 65536, 'c'};
    char why[160];
    memset(&o, 0, sizeof(o));
    memset(&sh, 0, sizeof(sh));
    memset(&m, 0, sizeof(m));
    memset(&id, 0, sizeof(id));
    sh.o = &o;
    sh.bs = 16384;
    sh.file_size = sh.full_size = 65536;
    sh.nfiles = 4;
    id.st.st_mode = S_IFREG | 0600;
    id.st.st_dev = 5;
    id.st.st_ino = 100;
    id.st.st_size = 65536;
    id.btime = 7;
    T_CHECK(!strcmp(io_not_ours(&sh, &m, 0, &id, why, sizeof(why)), "no manifest entry"));
    io_man_set(&m, 0, &w);
    T_CHECK(io_not_ours(&sh, &m, 0, &id, why, sizeof(why)) == NULL);
    id.st.st_size = 65537;
    T_CHECK(!strcmp(io_not_ours(&sh, &m, 0, &id, why, sizeof(why)),
                    "size changed: 65537 bytes, the manifest says 65536"));
    w.state = 'w'; /* being written: any size up to the recorded one */
    io_man_set(&m, 0, &w);
    id.st.st_size = 100;
    T_CHECK(io_not_ours(&sh, &m, 0, &id, why, sizeof(why)) == NULL);
    id.btime = 8; /* same inode number, another file */
    T_CHECK(!strncmp(io_not_ours(&sh, &m, 0, &id, why, sizeof(why)), "inode changed", 13));
    id.st.st_mode = S_IFLNK | 0777;
    T_CHECK(!strcmp(io_not_ours(&sh, &m, 0, &id, why, sizeof(why)), "is a symlink"));
    /* the sysbench persona: sysbench's shape without an entry, never a symlink */
    o.persona = B_SYSBENCH;
    o.sb_behaviour = true;
    T_CHECK(!strcmp(io_not_ours(&sh, &m, 0, &id, why, sizeof(why)), "is a symlink"));
    id.st.st_mode = S_IFREG | 0600;
    id.st.st_size = 32768;
    id.st.st_nlink = 1;
    T_CHECK(io_not_ours(&sh, &m, 1, &id, why, sizeof(why)) == NULL);
    /* beyond --file-num (cleanup) sysbench removes nothing: only the manifest's proof */
    T_CHECK(!strcmp(io_not_ours(&sh, &m, 4, &id, why, sizeof(why)), "no manifest entry"));
    id.st.st_nlink = 2; /* a hard link to someone's file under bench's name */
    T_CHECK(!strcmp(io_not_ours(&sh, &m, 1, &id, why, sizeof(why)),
                    "no manifest entry, and 2 hard links"));
    free(m.e);
    return 0;
}

/* --file-fill: the pool walk, the stamps, zeros, the --validate trailers */
static int t_io_cmp16(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

static int t_io_fill_pool(void)
{
    struct bench_opts o;
    struct io_shared sh;
    struct io_pool pl;
    struct b_err e;
    memset(&o, 0, sizeof(o));
    memset(&sh, 0, sizeof(sh));
    sh.o = &o;
    sh.bs = sh.req_size = 16384;
    sh.fill_random = true;
    T_CHECK(io_pool_init(&pl, &sh, 1) == 0);
    /* 1 MiB of consecutive writes to one file: 2048 sectors of 512 bytes, all different
     * (first 16 bytes, the stamp, and the random rest differ too: distinct pool regions) */
    enum { N = 64, SEC = 16384 / 512 };
    u8(*st)[16] = calloc((size_t)N * SEC, 16);
    T_CHECK(st != NULL);
    const u8 *first = NULL;
    for (int w = 0; w < N; w++) {
        const u8 *b = io_fill(&sh, &pl, 16384, (u64)w * 16384, 0);
        T_CHECK(b >= pl.base && b + 16384 <= pl.base + pl.span + pl.step);
        if (w == 0)
            first = b;
        else
            T_CHECK(memcmp(b + 16, first + 16, 496) != 0); /* another pool region */
        for (int k = 0; k < SEC; k++)
            memcpy(st[w * SEC + k], b + k * 512, 16);
    }
    qsort(st, (size_t)N * SEC, 16, t_io_cmp16);
    for (int k = 1; k < N * SEC; k++)
        T_CHECK(memcmp(st[k - 1], st[k], 16) != 0);
    free(st);
    /* the same block written twice differs (a snapshot cannot deduplicate it either) */
    u8 a[512];
    memcpy(a, io_fill(&sh, &pl, 16384, 0, 3), sizeof(a));
    T_CHECK(memcmp(a, io_fill(&sh, &pl, 16384, 0, 3), 16) != 0);
    /* --validate: the trailers check out */
    sh.validate = true;
    memset(&e, 0, sizeof(e));
    const u8 *v = io_fill(&sh, &pl, 16384, 49152, 2);
    T_CHECK(io_verify(&sh, v, 16384, 49152, 2, &e) == B_OK);
    T_CHECK(io_verify(&sh, v, 16384, 16384, 2, &e) == B_PROTOCOL);
    free(pl.base);
    /* a block size that is not a multiple of 8 or 512: the stamp stays inside the block */
    sh.validate = false;
    sh.bs = sh.req_size = 13;
    T_CHECK(io_pool_init(&pl, &sh, 2) == 0);
    u8 keep = pl.base[13];
    const u8 *t = io_fill(&sh, &pl, 13, 0, 0);
    T_CHECK(t == pl.base && pl.base[13] == keep);
    free(pl.base);
    /* zero: sysbench's content, every write */
    sh.fill_random = false;
    sh.bs = sh.req_size = 16384;
    T_CHECK(io_pool_init(&pl, &sh, 3) == 0);
    for (int w = 0; w < 3; w++) {
        const u8 *z = io_fill(&sh, &pl, 16384, (u64)w * 16384, 1);
        for (int k = 0; k < 16384; k++)
            T_CHECK(z[k] == 0);
    }
    free(pl.base);
    return 0;
}

/* ---- prepare, cleanup and the checks report through struct res / struct b_err ---- */

/* A sink that keeps the say() lines, "kind|text\n" each. */
struct t_io_sink {
    char text[8192];
    size_t len;
    int lines;
};

static void t_io_say(void *ctx, int kind, const char *text)
{
    struct t_io_sink *c = ctx;
    int n = snprintf(c->text + c->len, sizeof(c->text) - c->len, "%d|%s\n", kind, text);
    if (n > 0 && (size_t)n < sizeof(c->text) - c->len)
        c->len += (size_t)n;
    c->lines++;
}

/* stdout and stderr into a scratch file while a test calls the hooks: what they printed */
struct t_io_cap {
    int fd, out, err;
};

static int t_io_cap_start(struct t_io_cap *c)
{
    char name[] = "/tmp/t_io_cap.XXXXXX";
    fflush(stdout);
    fflush(stderr);
    c->fd = mkstemp(name);
    if (c->fd < 0)
        return -1;
    unlink(name);
    c->out = dup(1);
    c->err = dup(2);
    dup2(c->fd, 1);
    dup2(c->fd, 2);
    return 0;
}

/* bytes written to stdout and stderr since t_io_cap_start */
static long t_io_cap_end(struct t_io_cap *c)
{
    struct stat st;
    fflush(stdout);
    fflush(stderr);
    dup2(c->out, 1);
    dup2(c->err, 2);
    close(c->out);
    close(c->err);
    long n = fstat(c->fd, &st) == 0 ? (long)st.st_size : -1;
    close(c->fd);
    return n;
}

static i64 t_io_fact(const struct res *res, const char *key)
{
    const struct res_fact *f = res_fact(res, key);
    return f && f->type == RES_INT ? f->i : -1;
}

static int t_io_prepare_cleanup(void)
{
    char dir[] = "/tmp/t_io_cmd.XXXXXX", kv_dir[64], want[1024], path[128];
    struct t_io_sink sk;
    struct res_sink sink = {&sk, NULL, NULL, NULL, t_io_say, NULL};
    struct bench_opts o;
    struct res res;
    struct t_io_cap cap;
    const struct wl_def *w = wl_find("fileio");
    T_CHECK(w && mkdtemp(dir) != NULL);
    snprintf(kv_dir, sizeof(kv_dir), "file-dir=%s", dir);
    const char *kv[] = {"file-num=2", "file-total-size=40K", "file-block-size=16K", kv_dir, NULL};
    T_CHECK(t_opts(&o, kv) == 0);
    o.persona = B_BENCH;
    T_CHECK(t_io_cap_start(&cap) == 0);

    /* prepare: sysbench's lines (whole blocks: 20K asked, 32K written per file), the facts */
    memset(&sk, 0, sizeof(sk));
    res_init(&res, w, "prepare", &o, &sink);
    int ex = io_prepare(&res);
    snprintf(want, sizeof(want),
             "1|2 files, 32Kb each, 0Mb total\n"
             "1|Creating files for the test...\n"
             "1|Extra file open flags: (none)\n"
             "1|Creating file %s/test_file.0\n"
             "1|Creating file %s/test_file.1\n"
             "1|65536 bytes written in ",
             dir, dir);
    bool lines_ok = !strncmp(sk.text, want, strlen(want)) && sk.lines == 6 &&
                    strstr(sk.text, " MiB/sec).\n") == sk.text + sk.len - 11;
    bool facts_ok = t_io_fact(&res, "files") == 2 && t_io_fact(&res, "file_size_bytes") == 20480 &&
                    t_io_fact(&res, "total_size_bytes") == 40960 &&
                    t_io_fact(&res, "written_bytes") == 65536 && res.elapsed_s > 0 &&
                    res.elapsed_s < 60 && res.nwarns == 0 && !res.err.msg[0];
    res_free(&res);

    /* again: the files are reused, nothing written */
    memset(&sk, 0, sizeof(sk));
    res_init(&res, w, "prepare", &o, &sink);
    int ex2 = io_prepare(&res);
    snprintf(want, sizeof(want),
             "1|2 files, 32Kb each, 0Mb total\n"
             "1|Creating files for the test...\n"
             "1|Extra file open flags: (none)\n"
             "1|Reusing existing file %s/test_file.0\n"
             "1|Reusing existing file %s/test_file.1\n"
             "1|No bytes written.\n",
             dir, dir);
    bool again_ok = !strcmp(sk.text, want) && t_io_fact(&res, "written_bytes") == 0;
    res_free(&res);

    /* cleanup: one line, the files counted */
    memset(&sk, 0, sizeof(sk));
    res_init(&res, w, "cleanup", &o, &sink);
    int ex3 = io_cleanup(&res);
    bool clean_ok = !strcmp(sk.text, "1|Removing test files...\n") &&
                    t_io_fact(&res, "removed_files") == 2 && t_io_fact(&res, "files") == 2 &&
                    t_io_fact(&res, "total_size_bytes") == 40960 && res.nwarns == 0 &&
                    res.elapsed_s >= 0;
    res_free(&res);
    snprintf(path, sizeof(path), "%s/test_file.0", dir);
    bool gone = access(path, F_OK) != 0;

    /* someone's file under bench's name: left, a warning with the hint, exit 1 */
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    bool made = fd >= 0 && write(fd, "x", 1) == 1;
    if (fd >= 0)
        close(fd);
    memset(&sk, 0, sizeof(sk));
    res_init(&res, w, "cleanup", &o, &sink);
    int ex4 = io_cleanup(&res);
    snprintf(want, sizeof(want),
             "fileio: cleanup: left %s/test_file.0: not created by bench (no manifest entry)",
             dir);
    bool kept_ok = ex4 == B_EXIT_FAIL && res.nwarns == 1 &&
                   !strcmp(res.warns[0].code, "not_ours") && !strcmp(res.warns[0].msg, want) &&
                   !strncmp(res.warns[0].hint, "bench removes only the files", 28) &&
                   t_io_fact(&res, "removed_files") == 0 && !res.err.msg[0];
    res_free(&res);

    /* prepare refuses to touch it: the failure in res->err, both personas' exit codes */
    memset(&sk, 0, sizeof(sk));
    res_init(&res, w, "prepare", &o, &sink);
    int ex5 = io_prepare(&res);
    snprintf(want, sizeof(want),
             "fileio: prepare: not touching %s/test_file.0: not created by bench (no manifest "
             "entry)",
             dir);
    bool refused_ok = ex5 == B_EXIT_ENV && !strcmp(res.err.msg, want) &&
                      !strcmp(res.err.hint, "move it away, or use another --file-dir") &&
                      res.err.ex == B_EXIT_ENV && res.err.sb_ex == B_EXIT_FAIL &&
                      !res.err.sb[0] && sk.lines == 3 && t_io_fact(&res, "written_bytes") == 0;
    res_free(&res);
    long printed = t_io_cap_end(&cap);

    unlink(path);
    char man[128];
    snprintf(man, sizeof(man), "%s/" IO_MANIFEST, dir);
    unlink(man);
    rmdir(dir);
    t_opts_free(&o);
    T_CHECK(ex == B_EXIT_OK && lines_ok && facts_ok);
    T_CHECK(ex2 == B_EXIT_OK && again_ok);
    T_CHECK(ex3 == B_EXIT_OK && clean_ok && gone);
    T_CHECK(made && kept_ok);
    T_CHECK(refused_ok);
    T_CHECK(printed == 0);
    return 0;
}

static int t_io_check_err(void)
{
    struct bench_opts o;
    struct b_err e;
    struct t_io_cap cap;
    const char *flags[] = {"file-extra-flags=direct,fast", NULL};
    const char *nomode[] = {NULL};
    const char *badmode[] = {"file-test-mode=bogus", NULL};
    const char *depth[] = {"file-test-mode=rndrd", "file-queue-depth=8", NULL};
    const char *nodir[] = {"file-test-mode=rndrd", "file-dir=/nonexistent/t_io", NULL};
    int ex[6];
    struct b_err er[6];
    memset(er, 0, sizeof(er));
    T_CHECK(t_io_cap_start(&cap) == 0);
    T_CHECK(t_opts(&o, flags) == 0);
    ex[0] = io_check(&o, &er[0]);
    t_opts_free(&o);
    T_CHECK(t_opts(&o, nomode) == 0);
    ex[1] = io_check_run(&o, &er[1]);
    t_opts_free(&o);
    T_CHECK(t_opts(&o, badmode) == 0);
    ex[2] = io_check_run(&o, &er[2]);
    t_opts_free(&o);
    T_CHECK(t_opts(&o, depth) == 0);
    ex[3] = io_check_run(&o, &er[3]);
    t_opts_free(&o);
    T_CHECK(t_opts(&o, nodir) == 0);
    ex[4] = io_check_run(&o, &er[4]);
    o.persona = B_SYSBENCH; /* sysbench makes no such check: the run itself says it */
    o.sb_behaviour = true;
    ex[5] = io_check_run(&o, &er[5]);
    t_opts_free(&o);
    long printed = t_io_cap_end(&cap);
    T_CHECK(printed == 0);

    e = er[0];
    T_CHECK(ex[0] == B_EXIT_USAGE && e.ex == B_EXIT_USAGE && e.sb_ex == B_EXIT_FAIL &&
            e.sb_fd == 1 && e.rc == B_INVALID);
    T_CHECK(!strcmp(e.msg, "--file-extra-flags: unknown flag 'fast' (expected sync, dsync or "
                           "direct, separated by commas)"));
    T_CHECK(!strcmp(e.hint, "see 'bench fileio help'"));
    T_CHECK(!strcmp(e.sb, "FATAL: Invalid value for file-extra-flags: fast\n"));

    e = er[1];
    T_CHECK(ex[1] == B_EXIT_USAGE && e.ex == B_EXIT_USAGE && e.sb_ex == B_EXIT_FAIL);
    T_CHECK(!strcmp(e.msg, "fileio: run needs --file-test-mode: seqwr, seqrewr, seqrd, rndrd, "
                           "rndwr or rndrw"));
    T_CHECK(!strcmp(e.hint, "for example: bench fileio --file-test-mode=rndrd run"));
    const char *head = "FATAL: Missing required argument: --file-test-mode\n\nfileio options:\n"
                       "  --file-num=N                  number of files to create [128]\n";
    const char *tail = "reads/writes ratio for combined test [1.5]\n\n";
    T_CHECK(!strncmp(e.sb, head, strlen(head)));
    T_CHECK(strlen(e.sb) > strlen(tail) &&
            !strcmp(e.sb + strlen(e.sb) - strlen(tail), tail));
    T_CHECK(!strstr(e.sb, "--file-dir")); /* bench's own options are not sysbench's */

    e = er[2];
    T_CHECK(ex[2] == B_EXIT_USAGE && e.sb_ex == B_EXIT_FAIL &&
            !strcmp(e.sb, "FATAL: Invalid IO operations mode: bogus.\n"));
    T_CHECK(!strcmp(e.msg, "--file-test-mode: invalid value 'bogus' (expected seqwr, seqrewr, "
                           "seqrd, rndrd, rndwr or rndrw)"));

    e = er[3]; /* the same words in both personas: sysbench's "FATAL: <msg>", exit 1 */
    T_CHECK(ex[3] == B_EXIT_USAGE && e.ex == B_EXIT_USAGE && e.sb_ex == B_EXIT_FAIL && !e.sb[0]);
    T_CHECK(!strcmp(e.msg, "fileio: --file-queue-depth=8 needs --file-io-mode=async "
                           "(io_uring); sync and mmap modes do one request at a time"));
    T_CHECK(!strcmp(e.hint, "add --file-io-mode=async, or use --threads for parallel sync I/O"));

    e = er[4];
    T_CHECK(ex[4] == B_EXIT_ENV && e.ex == B_EXIT_ENV &&
            !strcmp(e.msg, "fileio: --file-dir=/nonexistent/t_io: No such file or directory") &&
            !strcmp(e.hint, "create the directory first, on the disk you want to measure"));
    T_CHECK(ex[5] == B_EXIT_OK && !er[5].msg[0] && !er[5].sb[0]);
    return 0;
}
