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
    id.st.st_nlink = 2; /* a hard link to someone's file under bench's name */
    T_CHECK(!strcmp(io_not_ours(&sh, &m, 1, &id, why, sizeof(why)),
                    "no manifest entry, and 2 hard links"));
    free(m.e);
    return 0;
}

/* every byte of a block is random, also past the last multiple of 8 */
static int t_io_fill_tail(void)
{
    struct io_shared sh;
    struct rnd r;
    u8 buf[13 + 1];
    memset(&sh, 0, sizeof(sh));
    sh.bs = 13;
    rnd_seed(&r);
    int changed = 0;
    for (int k = 0; k < 8; k++) {
        memset(buf, 0xAB, sizeof(buf));
        io_fill(&sh, &r, buf, 13, 0);
        changed += buf[8] != 0xAB || buf[12] != 0xAB;
        T_CHECK(buf[13] == 0xAB); /* and not one byte more */
    }
    T_CHECK(changed >= 7);
    return 0;
}
