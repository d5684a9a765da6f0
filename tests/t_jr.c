/* jr_: the JSON reader over untrusted bytes: valid and invalid vectors, exact integers, paths,
 * the file reader's refusals, and a round trip of bench's own JSON for a real cpu run. */

/* Parse s; on failure *msg (if given) gets e.msg. Returns the rc. */
static int t_jr_try(const char *s, size_t n, struct jr_doc *d, char *msg, size_t msgn)
{
    struct b_err e;
    memset(&e, 0, sizeof(e));
    int rc = jr_parse(s, n, "t.json", d, &e);
    if (msg)
        snprintf(msg, msgn, "%s", e.msg);
    if (rc == B_OK && e.msg[0])
        return -99; /* success leaves no message */
    if (rc != B_OK && (e.ex != B_EXIT_FAIL || !e.msg[0]))
        return -98;
    return rc;
}

static int t_jr_valid(void)
{
    static const char *const ok[] = {
        "0", "-0", "1", "-1", "0.5", "1e3", "1E+3", "1e-3", "-1.25e-2", "123456789012345678901234",
        "\"\"", "\"a\"", "null", "true", "false", "[]", "{}", " [ ] ", "\t\r\n{}\n",
        "[1,2,3]", "{\"a\":1,\"b\":[true,false,null]}", "[[[[[]]]]]",
        "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u00e9\\u20ac\\ud83d\\ude00\"",
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", "{\"a\":1,\"a\":2}", "\"\\u0000\"",
        "1.7976931348623157e308", "1e-400",
    };
    for (size_t i = 0; i < countof(ok); i++) {
        struct jr_doc d;
        char m[512];
        int rc = t_jr_try(ok[i], strlen(ok[i]), &d, m, sizeof(m));
        if (rc != B_OK)
            fprintf(stderr, "  valid #%zu %s: %d %s\n", i, ok[i], rc, m);
        T_CHECK(rc == B_OK && d.root);
        jr_free(&d);
    }
    return 0;
}

static int t_jr_invalid(void)
{
    static const struct {
        const char *in;
        const char *msg; /* the whole message after "reading t.json: " */
    } bad[] = {
        {"", "line 1 col 1: expected a value (found end of input)"},
        {"   ", "line 1 col 4: expected a value (found end of input)"},
        {"[1,]", "line 1 col 4: trailing ',' before ']'"},
        {"{\"a\":1,}", "line 1 col 8: trailing ',' before '}'"},
        {"{\"a\":1 \"b\":2}", "line 1 col 8: expected ',' or '}' (found '\"')"},
        {"{\"a\"\n:1,\n\"b\" 2}", "line 3 col 5: expected ':' (found '2')"},
        {"[1 2]", "line 1 col 4: expected ',' or ']' (found '2')"},
        {"[1", "line 1 col 3: expected ',' or ']' (the array opened at offset 0 is not closed)"},
        {"{a:1}", "line 1 col 2: expected a member name in quotes (found 'a')"},
        {"{'a':1}", "line 1 col 2: expected a member name in quotes (found ''')"},
        {"01", "line 1 col 2: leading zero in a number"},
        {"-", "line 1 col 2: expected a digit"},
        {"+1", "line 1 col 1: expected a value (found '+')"},
        {".5", "line 1 col 1: expected a value (found '.')"},
        {"1.", "line 1 col 3: expected a digit after '.'"},
        {"1e", "line 1 col 3: expected a digit in the exponent"},
        {"1e+", "line 1 col 4: expected a digit in the exponent"},
        {"1e400", "line 1 col 1: number out of range"},
        {"-1e400", "line 1 col 1: number out of range"},
        {"NaN", "line 1 col 1: expected a value (found 'N')"},
        {"Infinity", "line 1 col 1: expected a value (found 'I')"},
        {"tru", "line 1 col 1: expected a value (found 't')"},
        {"nul", "line 1 col 1: expected a value (found 'n')"},
        {"1 2", "line 1 col 3: expected the end of input after the value (found '2')"},
        {"{} x", "line 1 col 4: expected the end of input after the value (found 'x')"},
        {"// c\n1", "line 1 col 1: expected a value (found '/')"},
        {"[1]/*x*/", "line 1 col 4: expected the end of input after the value (found '/')"},
        {"\"abc", "line 1 col 5: unterminated string (opened at the '\"' before)"},
        {"\"a\nb\"", "line 1 col 3: control character 0x0a in a string (escape it)"},
        {"\"\\x\"", "line 1 col 2: invalid escape '\\x' in a string"},
        {"\"\\u12\"", "line 1 col 2: expected 4 hex digits after \\u"},
        {"\"\\u12g4\"", "line 1 col 2: expected 4 hex digits after \\u"},
        {"\"\\udc00\"", "line 1 col 2: lone low surrogate \\udc00"},
        {"\"\\ud800\"", "line 1 col 2: high surrogate \\ud800 without a low one after it"},
        {"\"\\ud800\\u0041\"", "line 1 col 2: high surrogate \\ud800 without a low one after it"},
        {"\"\\", "line 1 col 3: unterminated escape in a string"},
        {"\"\x80\"", "line 1 col 2: invalid UTF-8 in a string (byte 0x80)"},
        {"\"\xc0\xaf\"", "line 1 col 2: invalid UTF-8 in a string (byte 0xc0)"},
        {"\"\xe0\x80\xaf\"", "line 1 col 2: invalid UTF-8 in a string (byte 0xe0)"},
        {"\"\xed\xa0\x80\"", "line 1 col 2: invalid UTF-8 in a string (byte 0xed)"},
        {"\"\xf4\x90\x80\x80\"", "line 1 col 2: invalid UTF-8 in a string (byte 0xf4)"},
        {"\"\xe2\x82\"", "line 1 col 2: invalid UTF-8 in a string (byte 0xe2)"},
        {"\"\xff\"", "line 1 col 2: invalid UTF-8 in a string (byte 0xff)"},
        {"\xef\xbb\xbf{}",
         "line 1 col 1: expected a value (found a byte order mark, which JSON does not allow)"},
        {"\x01", "line 1 col 1: expected a value (found byte 0x01)"},
        {"[\f1]", "line 1 col 2: expected a value (found byte 0x0c)"},
        {"{\"a\":}", "line 1 col 6: expected a value (found '}')"},
    };
    for (size_t i = 0; i < countof(bad); i++) {
        struct jr_doc d;
        char m[512], want[512];
        int rc = t_jr_try(bad[i].in, strlen(bad[i].in), &d, m, sizeof(m));
        snprintf(want, sizeof(want), "reading t.json: %s", bad[i].msg);
        if (rc != B_INVALID || strcmp(m, want))
            fprintf(stderr, "  invalid #%zu: rc %d\n   got  %s\n   want %s\n", i, rc, m, want);
        T_CHECK(rc == B_INVALID && !strcmp(m, want));
        T_CHECK(d.root == NULL && d.arena == NULL);
    }
    /* a NUL byte inside the input is not whitespace */
    struct jr_doc d;
    T_CHECK(t_jr_try("[1,\0 2]", 7, &d, NULL, 0) == B_INVALID);
    T_CHECK(t_jr_try("\"a\0\"", 4, &d, NULL, 0) == B_INVALID);
    /* depth: 64 levels parse, 65 do not */
    char deep[200];
    memset(deep, '[', 64);
    memset(deep + 64, ']', 64);
    T_CHECK(t_jr_try(deep, 128, &d, NULL, 0) == B_OK);
    jr_free(&d);
    memset(deep, '[', 65);
    memset(deep + 65, ']', 65);
    char m[512];
    T_CHECK(t_jr_try(deep, 130, &d, m, sizeof(m)) == B_INVALID);
    T_CHECK(!strcmp(m, "reading t.json: line 1 col 65: nested deeper than 64 levels"));
    return 0;
}

/* decoded strings, exact integers, the getters' refusals */
static int t_jr_values(void)
{
    static const char doc[] =
        "{\"s\":\"caf\\u00e9 \\ud83d\\ude00 \\\"q\\\" \\/\",\"z\":\"a\\u0000b\","
        "\"u\":18446744073709551615,\"big\":18446744073709551616,\"i\":-9223372036854775808,"
        "\"neg\":-1,\"f\":2.5,\"e\":1e3,\"t\":true,\"n\":null,\"mz\":-0,"
        "\"a\":[10,20,{\"x\":[1,2,3]}],\"dot.ted\":{\"k\":7},\"dot\":{\"ted\":{\"k\":8}}}";
    struct jr_doc d;
    T_CHECK(t_jr_try(doc, strlen(doc), &d, NULL, 0) == B_OK);
    const struct jr_val *r = d.root;
    const char *s;
    size_t n;
    double x;
    i64 i;
    u64 u;
    bool b;
    T_CHECK(r->type == JR_OBJ && r->n == 14);
    T_CHECK(jr_str(jr_get(r, "s"), &s, &n) && n == 16 &&
            !strcmp(s, "caf\xc3\xa9 \xf0\x9f\x98\x80 \"q\" /"));
    T_CHECK(jr_str(jr_get(r, "z"), &s, &n) && n == 3 && !memcmp(s, "a\0b", 4));
    T_CHECK(jr_u64(jr_get(r, "u"), &u) && u == UINT64_MAX);
    T_CHECK(!jr_i64(jr_get(r, "u"), &i));
    T_CHECK(!jr_u64(jr_get(r, "big"), &u) && jr_num(jr_get(r, "big"), &x) &&
            x == 18446744073709551616.0);
    T_CHECK(jr_i64(jr_get(r, "i"), &i) && i == INT64_MIN && !jr_u64(jr_get(r, "i"), &u));
    T_CHECK(jr_i64(jr_get(r, "neg"), &i) && i == -1);
    T_CHECK(jr_num(jr_get(r, "f"), &x) && x == 2.5 && !jr_i64(jr_get(r, "f"), &i));
    T_CHECK(jr_num(jr_get(r, "e"), &x) && x == 1000 && !jr_u64(jr_get(r, "e"), &u));
    T_CHECK(!strcmp(jr_get(r, "e")->s, "1e3"));
    T_CHECK(jr_bool(jr_get(r, "t"), &b) && b && !jr_bool(jr_get(r, "n"), &b));
    T_CHECK(jr_get(r, "n")->type == JR_NULL && !jr_num(jr_get(r, "n"), &x));
    T_CHECK(jr_i64(jr_get(r, "mz"), &i) && i == 0 && jr_u64(jr_get(r, "mz"), &u) && u == 0);
    T_CHECK(!jr_str(jr_get(r, "f"), &s, NULL) && !jr_num(NULL, &x) && !jr_get(r, "nope"));
    /* paths: array indexes, dotted member names, and what is not there */
    T_CHECK(jr_u64(jr_path(r, "a.1"), &u) && u == 20);
    T_CHECK(jr_u64(jr_path(r, "a.2.x.2"), &u) && u == 3);
    T_CHECK(jr_u64(jr_path(r, "dot.ted.k"), &u) && u == 7); /* the dotted name: first */
    T_CHECK(jr_path(r, "") == r && jr_path(r, "a") == jr_get(r, "a"));
    T_CHECK(!jr_path(r, "a.3") && !jr_path(r, "a.01") && !jr_path(r, "a.-1") &&
            !jr_path(r, "a.") && !jr_path(r, "a..1") && !jr_path(r, "f.x") &&
            !jr_path(r, "a.2.x.2.0") && !jr_path(r, ".a") && !jr_path(r, "a.1x"));
    /* iteration in document order */
    int k = 0;
    for (const struct jr_val *v = jr_first(jr_get(r, "a")); v; v = jr_next(v), k++)
        T_CHECK(v->key == NULL);
    T_CHECK(k == 3 && !jr_first(jr_get(r, "f")));
    const struct jr_val *m1 = jr_first(r);
    T_CHECK(m1 && !strcmp(m1->key, "s") && m1->keylen == 1);
    T_CHECK(jr_at(jr_get(r, "a"), 0)->num == 10 && !jr_at(r, 0));
    T_CHECK(!strcmp(jr_type_name(JR_OBJ), "object") && !strcmp(jr_type_name(99), "?"));
    jr_free(&d);
    T_CHECK(d.arena == NULL && d.root == NULL);
    return 0;
}

/* the file reader: missing file, a directory, a FIFO, a file over the cap, a good file */
static int t_jr_files(void)
{
    char dir[] = "/tmp/bench-t-jr.XXXXXX", p[128];
    struct jr_doc d;
    struct b_err e;
    T_CHECK(mkdtemp(dir) != NULL);
    memset(&e, 0, sizeof(e));
    snprintf(p, sizeof(p), "%s/none.json", dir);
    T_CHECK(jr_parse_file(p, &d, &e) == B_SYSERR && e.ex == B_EXIT_ENV &&
            strstr(e.msg, "none.json: No such file or directory (ENOENT)"));
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse_file(dir, &d, &e) == B_INVALID && e.ex == B_EXIT_FAIL &&
            strstr(e.msg, ": a directory, not a report file"));
    snprintf(p, sizeof(p), "%s/fifo", dir);
    T_CHECK(mkfifo(p, 0600) == 0);
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse_file(p, &d, &e) == B_INVALID && strstr(e.msg, "fifo: not a regular file"));
    unlink(p);
    snprintf(p, sizeof(p), "%s/big.json", dir);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    T_CHECK(fd >= 0 && ftruncate(fd, (off_t)JR_MAX_FILE_BYTES + 1) == 0);
    close(fd);
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse_file(p, &d, &e) == B_INVALID && e.ex == B_EXIT_FAIL &&
            strstr(e.msg, "big.json: 67108865 bytes, more than the 64 MiB a report may have"));
    fd = open(p, O_WRONLY | O_TRUNC);
    T_CHECK(fd >= 0 && write(fd, "{\"x\":\n [1, 2]}\n", 15) == 15);
    close(fd);
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse_file(p, &d, &e) == B_OK && jr_path(d.root, "x.1")->num == 2);
    jr_free(&d);
    fd = open(p, O_WRONLY | O_TRUNC);
    T_CHECK(fd >= 0 && write(fd, "{\"x\":\n [1, 2}\n", 14) == 14);
    close(fd);
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse_file(p, &d, &e) == B_INVALID);
    char want[200];
    snprintf(want, sizeof(want), "reading %s: line 2 col 7: expected ',' or ']' (found '}')", p);
    if (strcmp(e.msg, want))
        fprintf(stderr, "  got  %s\n  want %s\n", e.msg, want);
    T_CHECK(!strcmp(e.msg, want));
    unlink(p);
    rmdir(dir);
    return 0;
}

/* bench's own JSON for a real cpu run reads back with every number it wrote, exactly */
static int t_jr_roundtrip(void)
{
    static const char *const kv[] = {"threads=2", "events=10", "time=0", "cpu-max-prime=500",
                                     NULL};
    static const char *const argv[] = {"bench", "cpu", "--events=10", "run"};
    struct bench_opts o;
    struct res r;
    const struct load_snap *sp;
    T_CHECK(t_opts(&o, kv) == 0);
    T_CHECK(t_run(wl_find("cpu"), &o, &r, &sp) == 0);
    struct rep_json j = {{0}, false};
    struct rep_json_env env = {"v-test", 4, argv, "h\"1", "k", 2, 1ull << 40, 0};
    rep_json_doc(&j, &r, &env);
    struct jr_doc d;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse(j.b.p, j.b.len, "cpu.json", &d, &e) == B_OK);
    const struct jr_val *root = d.root;
    const char *s;
    u64 u, sum = 0, lo, hi;
    i64 i;
    double x;
    T_CHECK(jr_str(jr_get(root, "type"), &s, NULL) && !strcmp(s, "result"));
    T_CHECK(jr_i64(jr_get(root, "schema_version"), &i) && i == REP_JSON_SCHEMA_VERSION);
    T_CHECK(jr_str(jr_path(root, "host.hostname"), &s, NULL) && !strcmp(s, "h\"1"));
    T_CHECK(jr_u64(jr_path(root, "host.memory_bytes"), &u) && u == 1ull << 40);
    T_CHECK(jr_str(jr_path(root, "command.1"), &s, NULL) && !strcmp(s, "cpu"));
    T_CHECK(jr_u64(jr_path(root, "results.events"), &u) && u == 10 && u == sp->events);
    T_CHECK(jr_num(jr_path(root, "results.window_s"), &x) && x == r.final.window_s);
    T_CHECK(jr_num(jr_path(root, "results.events_per_s"), &x) &&
            x == (double)sp->events / r.final.window_s);
    T_CHECK(jr_u64(jr_path(root, "results.latency_ns.min"), &lo) && lo == sp->lat_min_ns);
    T_CHECK(jr_u64(jr_path(root, "results.latency_ns.max"), &hi) && hi == sp->lat_max_ns);
    T_CHECK(jr_u64(jr_path(root, "results.latency_ns.sum"), &u) && u == sp->lat_sum_ns);
    T_CHECK(lo <= hi);
    /* the histogram's buckets: [index, count] pairs whose counts add up to the events */
    const struct jr_val *b = jr_path(root, "results.latency_ns.histogram.buckets");
    T_CHECK(b && b->type == JR_ARR && b->n >= 1);
    for (const struct jr_val *v = jr_first(b); v; v = jr_next(v)) {
        u64 idx, c;
        T_CHECK(v->type == JR_ARR && v->n == 2);
        T_CHECK(jr_u64(jr_at(v, 0), &idx) && jr_u64(jr_at(v, 1), &c));
        T_CHECK(idx < HIST_NBUCKETS && c == atomic_load(&sp->hist->count[idx]));
        sum += c;
    }
    T_CHECK(sum == 10);
    T_CHECK(jr_path(root, "error")->type == JR_NULL);
    T_CHECK(jr_bool(jr_get(root, "complete"), &(bool){0}));
    jr_free(&d);
    buf_free(&j.b);
    res_free(&r);
    t_opts_free(&o);
    return 0;
}

/* cmp_: which way a measure is better, from its name alone */
static int t_cmp_dir(void)
{
    static const struct {
        const char *name;
        int dir;
    } t[] = {
        {"cpu.events_per_s", CMP_HIGHER},         {"cpu.events_per_s_all", CMP_HIGHER},
        {"mem.stream_copy_mb_per_s", CMP_HIGHER}, {"disk.seqread_mib_per_s", CMP_HIGHER},
        {"disk.randread_qd32_iops", CMP_HIGHER},  {"db.oltp_knee_tps", CMP_HIGHER},
        {"cpu.scaling_efficiency", CMP_HIGHER},   {"reads_per_s", CMP_HIGHER},
        {"disk.fdatasync_p99_ms", CMP_LOWER},     {"mem.latency_l1_ns", CMP_LOWER},
        {"mem.latency_l1_ns_thp", CMP_LOWER},     {"sched.ctxsw_same_cpu_ns", CMP_LOWER},
        {"latency_ns.p95", CMP_LOWER},            {"read.latency_ns.p99", CMP_LOWER},
        {"all.total_s", CMP_LOWER},               {"cpu_steal_pct", CMP_LOWER},
        {"db.ping_p50_ms", CMP_LOWER},            {"x_us", CMP_LOWER},
        {"mem.latency_max_bytes", CMP_NONE},      {"mem_total_bytes", CMP_NONE},
        {"cpu.threads_all", CMP_NONE},            {"swappiness", CMP_NONE},
        {"db.max_connections", CMP_NONE},         {"events", CMP_NONE},
    };
    for (size_t i = 0; i < countof(t); i++) {
        if (cmp_dir_of(t[i].name) != t[i].dir)
            fprintf(stderr, "  %s: %d, want %d\n", t[i].name, cmp_dir_of(t[i].name), t[i].dir);
        T_CHECK(cmp_dir_of(t[i].name) == t[i].dir);
    }
    return 0;
}

/* jr_parse_max: a budget refuses "[1,1,...]" before allocating; b_stop (SIGINT) stops a
 * parse with "interrupted by SIGINT". */
static int t_jr_limits(void)
{
    size_t n = 2 * 100000 + 1;
    char *s = b_xmalloc(n + 2);
    s[0] = '[';
    for (size_t i = 0; i < 100000; i++)
        memcpy(s + 1 + 2 * i, "1,", 2);
    s[n - 1] = '1';
    s[n] = ']';
    struct jr_doc d;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse_max(s, n + 1, "ones", (size_t)1 << 20, &d, &e) == B_INVALID);
    T_CHECK(strstr(e.msg, "more than 1 MiB of values") != NULL);
    T_CHECK(d.arena == NULL);
    memset(&e, 0, sizeof(e));
    T_CHECK(jr_parse_max(s, n + 1, "ones", (size_t)64 << 20, &d, &e) == B_OK);
    jr_free(&d);
    atomic_store(&b_stop, SIGINT);
    memset(&e, 0, sizeof(e));
    int rc = jr_parse_max(s, n + 1, "ones", (size_t)64 << 20, &d, &e);
    atomic_store(&b_stop, 0);
    T_CHECK(rc == B_DONE);
    T_CHECK(strstr(e.msg, "interrupted by SIGINT") != NULL);
    free(s);
    return 0;
}

/* cmp_check_file (issue 29, coverage): each way a file is not a result A can be compared with
 * is refused with exit 3 and a message naming the file and the field. */
static int t_cmp_check_file(void)
{
    static const char a[] = "{\"type\":\"result\",\"schema_version\":1,\"action\":\"run\","
                            "\"workload\":\"cpu\",\"facts\":{}}";
    static const struct {
        const char *doc, *want;
    } t[] = {
        {"[1]", "B.json: not a bench result (the document is an array, not an object)"},
        {"7", "B.json: not a bench result (the document is a number, not an object)"},
        {"{\"type\":3}", "(field 'type' is not a string)"},
        {"{}", "(field 'type' is missing)"},
        {"{\"type\":\"note\"}", "(field 'type' is 'note')"},
        {"{\"type\":\"result\"}", "(field 'schema_version' is missing)"},
        {"{\"type\":\"result\",\"schema_version\":1.5}", "(field 'schema_version' is not an integer)"},
        {"{\"type\":\"result\",\"schema_version\":2}", "B.json: field 'schema_version' is 2; this bench reads 1"},
        {"{\"type\":\"result\",\"schema_version\":1,\"facts\":{}}", "(field 'action' is missing or of the wrong type)"},
        {"{\"type\":\"result\",\"schema_version\":1,\"action\":\"run\",\"facts\":[]}", "(field 'facts' is missing or of the wrong type)"},
        {"{\"type\":\"result\",\"schema_version\":1,\"action\":\"prepare\",\"workload\":\"cpu\",\"facts\":{}}",
         "B.json: field 'action' is 'prepare', but A.json's is 'run'"},
        {"{\"type\":\"result\",\"schema_version\":1,\"action\":\"run\",\"facts\":{}}",
         "B.json: field 'workload' is null, but A.json's is 'cpu'"},
        {a, NULL},
    };
    for (size_t i = 0; i < countof(t); i++) {
        struct bench_opts o;
        struct res r;
        struct cmp_ctx x;
        struct b_err e;
        memset(&o, 0, sizeof(o));
        memset(&x, 0, sizeof(x));
        memset(&e, 0, sizeof(e));
        res_init(&r, NULL, "compare", &o, NULL);
        x.res = &r, x.nfiles = 2, x.path[0] = "A.json", x.path[1] = "B.json";
        T_CHECK(jr_parse(a, strlen(a), "A.json", &x.doc[0], &e) == B_OK);
        T_CHECK(jr_parse(t[i].doc, strlen(t[i].doc), "B.json", &x.doc[1], &e) == B_OK);
        int rc = cmp_check_file(&x, 1);
        if (t[i].want && (rc != B_EXIT_ENV || !strstr(r.err.msg, t[i].want)))
            fprintf(stderr, "  %s: exit %d, '%s', want '%s'\n", t[i].doc, rc, r.err.msg, t[i].want);
        T_CHECK(t[i].want ? rc == B_EXIT_ENV && strstr(r.err.msg, t[i].want) : rc == B_EXIT_OK);
        T_CHECK(cmp_check_file(&x, 0) == B_EXIT_OK);
        jr_free(&x.doc[0]);
        jr_free(&x.doc[1]);
        res_free(&r);
    }
    return 0;
}
