/*
 * libFuzzer target over the command line and the option files (STYLE 2.8): the mysql client's
 * files (~/.my.cnf, --defaults-file, !include, !includedir) and sysbench's --config-file.
 * The input is split at 0xFF bytes: part 0 is argv (NUL-separated), parts 1..4 are the files
 * c1.cnf, c2.cnf, d/c3.cnf, d/c4.cnf (c1.cnf is also ~/.my.cnf). The first byte of part 0
 * picks what runs: the whole parse of a command line (no test runs: bench_main is not called,
 * so nothing connects, creates or waits), or the file readers alone. Every '/' of the input
 * becomes '_': paths stay inside the scratch directory the harness makes and changes into
 * ($TMPDIR/bench-fuzz-opt.XXXXXX, removed at exit), with HOME pointing there. Built and run
 * for a bounded time by `make fuzz` (seeds: the Makefile).
 */
#define BENCH_NO_MAIN
#include "../bench.c"
/* main() is compiled out; keep bench_main referenced so -Werror builds do not flag it unused */
int (*const fuzz_bench_main)(int, char **) = bench_main;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fz_dir[PATH_MAX];

static void fz_cleanup(void)
{
    static const char *const names[] = {"c1.cnf", "c2.cnf", "d/c3.cnf", "d/c4.cnf", ".my.cnf"};
    char p[PATH_MAX + 16];
    for (size_t i = 0; i < countof(names); i++) {
        snprintf(p, sizeof(p), "%s/%s", fz_dir, names[i]);
        unlink(p);
    }
    snprintf(p, sizeof(p), "%s/d", fz_dir);
    rmdir(p);
    rmdir(fz_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *t = getenv("TMPDIR");
    snprintf(fz_dir, sizeof(fz_dir), "%s/bench-fuzz-opt.XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(fz_dir) || chdir(fz_dir) || mkdir("d", 0700))
        b_die("fuzz_opt: cannot make its scratch directory %s", fz_dir);
    setenv("HOME", fz_dir, 1);
    unsetenv("MYSQL_PWD");
    atexit(fz_cleanup);
    cli_std_fds(); /* -close_fd_mask closes 1 and 2: /dev/null, not our files, takes them */
    return 0;
}

static void fz_write(const char *name, const u8 *p, size_t n)
{
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    for (size_t off = 0; off < n;) {
        ssize_t w = write(fd, p + off, n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(fd);
}

/* The parse phase of cli_main: argv rewrite, --config-file, option files, apply, derive. */
static void fz_cmdline(char *buf, size_t n, bool sb)
{
    char *argv[66];
    int argc = 0;
    argv[argc++] = (char *)(sb ? "sysbench" : "bench");
    for (size_t off = 0; off < n && argc < 65;) {
        argv[argc++] = buf + off;
        off += strlen(buf + off) + 1;
    }
    argv[argc] = NULL;
    struct cli c;
    bool late;
    const char *bad;
    memset(&c, 0, sizeof(c));
    memset(&opts, 0, sizeof(opts));
    cli_persona_set(&cli_personas[sb ? B_SYSBENCH : B_BENCH]); /* as cli_main does */
    for (size_t g = 0; g < countof(opt_groups); g++)
        opt_defaults(opt_groups[g].t, opt_groups[g].n, &opts);
    for (size_t i = 0; i < countof(wl_all); i++)
        opt_defaults(wl_all[i].opts, wl_all[i].nopts, &opts);
    c.av = b_xcalloc((size_t)argc + 1, sizeof(char *));
    int nav = cli_mysql_args(argc - 1, argv + 1, c.av, &c.argmem, &opts.password_prompt, &bad);
    cli_hide_secrets(argc, argv);
    int ex = nav < 0 ? B_EXIT_USAGE : B_EXIT_OK;
    for (int i = 0; ex == B_EXIT_OK && i < nav; i++) {
        const char *a = c.av[i];
        if (!strncmp(a, "--config-file=", 14))
            ex = cli_read_config(&c, a + 14);
        else if (!strncmp(a, "--", 2) && a[2])
            cli_add(&c, c.nargs, a, NULL);
        else if (c.npos < 3)
            c.pos[c.npos++] = a;
    }
    if (ex == B_EXIT_OK && c.npos)
        c.w = wl_find(c.pos[0]);
    if (ex == B_EXIT_OK && c.w && c.w->db && !opts.sb)
        ex = cli_db_defaults(&c);
    if (ex == B_EXIT_OK && cli_apply(&c, &late) == B_EXIT_OK)
        (void)cli_derive(&c);
    cli_free(&c);
    cli_free_opts();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"c1.cnf", "c2.cnf", "d/c3.cnf", "d/c4.cnf"};
    if (size < 1)
        return 0;
    u8 sel = data[0];
    char *in = malloc(size + 1);
    if (!in)
        return 0;
    for (size_t i = 1; i < size; i++)
        in[i - 1] = data[i] == '/' ? '_' : (char)data[i];
    size_t n = size - 1, part0 = n;
    in[n] = 0;
    /* the files */
    const char *p = memchr(in, 0xff, n);
    if (p)
        part0 = (size_t)(p - in);
    for (size_t k = 0; k < countof(names); k++) {
        const char *s = p ? p + 1 : in + n, *e;
        if (p) {
            e = memchr(s, 0xff, (size_t)(in + n - s));
            e = e ? e : in + n;
            p = e < in + n ? e : NULL;
        } else
            e = s;
        fz_write(names[k], (const u8 *)s, (size_t)(e - s));
        if (k == 0)
            fz_write(".my.cnf", (const u8 *)s, (size_t)(e - s));
    }
    if (sel & 1) {
        in[part0] = 0;
        fz_cmdline(in, part0, sel & 2);
    } else {
        struct cli c;
        struct cli_cnf k;
        memset(&c, 0, sizeof(c));
        memset(&k, 0, sizeof(k));
        memset(&opts, 0, sizeof(opts));
        opts.sb = sel & 2;
        k.c = &c;
        (void)cli_cnf_file(&k, "c1.cnf", true, NULL);
        (void)cli_read_config(&c, "c2.cnf");
        cli_free(&c);
    }
    free(in);
    return 0;
}
