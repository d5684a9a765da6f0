/* fileio: the manifest journal's parser and the ownership check (section 14). */

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
    o.sb = true;
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
