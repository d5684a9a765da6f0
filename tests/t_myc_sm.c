/*
 * myc_ as a state machine (issue 13): recorded server byte streams (tests/fixtures/mysql/
 * sm-*.txt) replayed through a test double transport, split at every byte boundary (one byte
 * per read and per write, a would-block between any two) and all at once; the results (rows,
 * values, status, errors) and the bytes the client sent must be identical for every split.
 * Live (BENCH_MY_HOST): a session recorded through a tee transport and replayed the same way,
 * and many connections, with and without TLS, driven by myc_step and poll in one thread.
 * BENCH_SM_RECORD=DIR writes the live recordings there in the fixture format.
 *
 * Fixture format: '#' comments; "< hex..." lines are server bytes; a ">" line means the
 * client sends (a request): the server bytes after it are released only once the client has
 * sent something after everything before it was read.
 */

struct t_sm_script {
    struct buf b;      /* the server's bytes */
    size_t end[64];    /* end[i]: where block i ends in b */
    size_t nblk;
};

static void t_sm_script_free(struct t_sm_script *s)
{
    buf_free(&s->b);
    memset(s, 0, sizeof(*s));
}

static int t_sm_load(const char *name, struct t_sm_script *s)
{
    char path[256], line[4096];
    snprintf(path, sizeof(path), strchr(name, '/') ? "%s" : "tests/fixtures/mysql/%s", name);
    FILE *f = fopen(path, "r");
    memset(s, 0, sizeof(*s));
    if (!f) {
        fprintf(stderr, "  cannot open %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '>' && s->b.len) {
            if (s->nblk + 1 >= countof(s->end))
                break;
            s->end[s->nblk++] = s->b.len;
        } else if (line[0] == '<')
            for (char *q = line + 1; *q;) {
                char *e;
                unsigned long v = strtoul(q, &e, 16);
                if (e == q)
                    break;
                u8 byte = (u8)v;
                buf_put(&s->b, &byte, 1);
                q = e;
            }
    }
    fclose(f);
    s->end[s->nblk++] = s->b.len;
    return s->b.len ? 0 : -1;
}

/* The double: delivers the script's bytes chunk at a time, a would-block after each read
 * and write when chunk > 0. */
struct t_sm_io {
    const struct t_sm_script *s;
    size_t pos, blk, chunk;
    bool sent, rblock, wblock;
    struct buf out;    /* what the client sent */
    unsigned reads, wants;
};

static int t_sm_recv(void *ctx, u8 *p, size_t n)
{
    struct t_sm_io *d = ctx;
    if (d->pos == d->s->end[d->blk] && d->sent && d->blk + 1 < d->s->nblk)
        d->blk++, d->sent = false;
    if (d->rblock || d->pos == d->s->end[d->blk]) {
        d->rblock = false;
        d->wants++;
        return MBEDTLS_ERR_SSL_WANT_READ;
    }
    size_t k = B_MIN(n, d->s->end[d->blk] - d->pos);
    if (d->chunk)
        k = B_MIN(k, d->chunk);
    memcpy(p, d->s->b.p + d->pos, k);
    d->pos += k;
    if (d->pos == d->s->end[d->blk])
        d->sent = false;
    d->rblock = d->chunk != 0;
    d->reads++;
    return (int)k;
}

static int t_sm_send(void *ctx, const u8 *p, size_t n)
{
    struct t_sm_io *d = ctx;
    if (d->wblock) {
        d->wblock = false;
        d->wants++;
        return MBEDTLS_ERR_SSL_WANT_WRITE;
    }
    size_t k = d->chunk ? B_MIN(n, d->chunk) : n;
    buf_put(&d->out, p, k);
    d->sent = true;
    d->wblock = d->chunk != 0;
    return (int)k;
}

/* Step until the operation ends (a hang is an error, not a wait). */
static int t_sm_finish(struct my_conn *c, int rc)
{
    for (long guard = 0; rc == MYC_WANT_READ || rc == MYC_WANT_WRITE; guard++) {
        if (guard > 50000000)
            return -1000;
        rc = myc_step(c);
    }
    return rc;
}

/* ---- what a session did, as text ---- */

static void t_sm_log(struct buf *log, const char *fmt, ...) B_PRINTF(2, 3);
static void t_sm_log(struct buf *log, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    buf_put(log, line, (size_t)B_MIN(n, (int)sizeof(line) - 1));
}

static int t_sm_text_row(void *ctx, const struct myc_result *res, const struct my_str *v)
{
    struct buf *log = ctx;
    t_sm_log(log, "  row");
    for (size_t i = 0; i < res->ncols; i++)
        if (v[i].p)
            t_sm_log(log, " %.*s", (int)v[i].len, v[i].p);
        else
            t_sm_log(log, " NULL");
    t_sm_log(log, "\n");
    return 0;
}

static int t_sm_bin_row(void *ctx, const struct myc_result *res, const struct my_val *v)
{
    struct buf *log = ctx;
    t_sm_log(log, "  brow");
    for (size_t i = 0; i < res->ncols; i++)
        if (v[i].is_null)
            t_sm_log(log, " NULL");
        else if (v[i].s.p)
            t_sm_log(log, " %.*s", (int)v[i].s.len, v[i].s.p);
        else if (v[i].type == MY_T_DOUBLE || v[i].type == MY_T_FLOAT)
            t_sm_log(log, " %g", v[i].d);
        else
            t_sm_log(log, " %lld", (long long)v[i].i);
    t_sm_log(log, "\n");
    return 0;
}

static void t_sm_log_res(struct buf *log, const char *what, int rc, const struct my_conn *c,
                         const struct myc_result *r)
{
    t_sm_log(log, "%s rc=%d", what, rc);
    if (rc == B_SERVER)
        t_sm_log(log, " ERROR %u (%s): %s", c->srv_code, c->sqlstate, c->srv_msg);
    else if (rc < 0)
        t_sm_log(log, " %s", c->err.msg);
    t_sm_log(log, " rows=%llu sets=%d cols=%zu status=0x%x warnings=%u affected=%llu id=%llu",
             (unsigned long long)r->rows, r->nsets, r->ncols, r->status, r->warnings,
             (unsigned long long)r->affected, (unsigned long long)r->insert_id);
    for (size_t i = 0; i < r->ncols; i++)
        t_sm_log(log, " %s:%u", r->cols[i].name, r->cols[i].type);
    t_sm_log(log, "\n");
}

/* ---- the sessions ---- */

enum { T_SM_END, T_SM_QUERY, T_SM_PREPARE, T_SM_EXECUTE };
struct t_sm_op {
    int kind;
    const char *sql;
    i64 arg;
};

struct t_sm_case {
    const char *file;            /* the fixture */
    const char *user, *pw;
    bool classic_eof;
    struct t_sm_op ops[8];
    const char *want[8];         /* lines the session's text must hold */
};

static const struct t_sm_case t_sm_cases[] = {
    {"sm-native.txt", "nat", "secret", false,
     {{T_SM_QUERY, "SELECT 1 AS a, 'xy' AS b, NULL AS c", 0},
      {T_SM_QUERY, "CALL p2()", 0},
      {T_SM_PREPARE, "SELECT ? + 1 AS x, 'ab' AS s, NULL AS n UNION ALL SELECT 5, 'cd', 7", 0},
      {T_SM_EXECUTE, NULL, 41},
      {T_SM_EXECUTE, NULL, -3},
      {T_SM_QUERY, "SELECT * FROM no_such_table", 0},
      {T_SM_QUERY, "DO 1", 0},
      {T_SM_END, NULL, 0}},
     {"connect rc=0 plugin=mysql_native_password\n", "  row 1 xy NULL\n",
      "query rc=0 rows=3 sets=2", "  row y 2\n", "  brow 42 ab NULL\n", "  brow -2 ab NULL\n",
      "ERROR 1146 (42S02): Table 'benchtest.no_such_table' doesn't exist", "  brow 5 cd 7\n"}},
    {"sm-native-eof.txt", "nat", "secret", true,
     {{T_SM_QUERY, "SELECT 1 AS a, 'xy' AS b, NULL AS c", 0},
      {T_SM_QUERY, "CALL p2()", 0},
      {T_SM_PREPARE, "SELECT ? + 1 AS x, 'ab' AS s, NULL AS n UNION ALL SELECT 5, 'cd', 7", 0},
      {T_SM_EXECUTE, NULL, 41},
      {T_SM_QUERY, "SELECT * FROM no_such_table", 0},
      {T_SM_END, NULL, 0}},
     {"connect rc=0 plugin=mysql_native_password\n", "  row 1 xy NULL\n",
      "query rc=0 rows=3 sets=2", "  brow 42 ab NULL\n", "ERROR 1146 (42S02)", "  brow 5 cd 7\n",
      NULL, NULL}},
    {"sm-switch-ed25519.txt", "ed", "foobar", false,
     {{T_SM_QUERY, "SELECT CURRENT_USER() AS u", 0}, {T_SM_END, NULL, 0}},
     {"connect rc=0 plugin=client_ed25519\n", "  row ed@%\n", NULL, NULL, NULL, NULL, NULL,
      NULL}},
    {"sm-sha2-fast.txt", "alice", "secret", false,
     {{T_SM_QUERY, "SELECT 1", 0}, {T_SM_END, NULL, 0}},
     {"connect rc=0 plugin=caching_sha2_password\n", "query rc=0 rows=1", NULL, NULL, NULL,
      NULL, NULL, NULL}},
};

/* Run a case's session over an open login (rc from the connect start); its text into log. */
static int t_sm_session(const struct t_sm_case *k, struct my_conn *c, int rc, struct buf *log,
                        int (*finish)(struct my_conn *, int))
{
    struct myc_result res = {0};
    struct myc_stmt st = {0};
    bool have_st = false;
    rc = finish(c, rc);
    t_sm_log(log, "connect rc=%d plugin=%s\n", rc, c->plugin);
    if (rc != B_OK) {
        t_sm_log(log, "  %s\n", c->err.msg);
        return rc;
    }
    for (const struct t_sm_op *op = k->ops; op->kind != T_SM_END; op++) {
        T_CHECK(myc_idle(c));
        if (op->kind == T_SM_QUERY) {
            rc = finish(c, myc_query_start(c, op->sql, strlen(op->sql), &res, t_sm_text_row, log));
            t_sm_log_res(log, "query", rc, c, &res);
        } else if (op->kind == T_SM_PREPARE) {
            rc = finish(c, myc_prepare_start(c, op->sql, strlen(op->sql), &st));
            have_st = rc == B_OK;
            t_sm_log(log, "prepare rc=%d id=%u params=%u cols=%u", rc, st.id, st.nparams, st.ncols);
            for (u16 i = 0; have_st && i < st.ncols; i++)
                t_sm_log(log, " %s:%u", st.cols[i].name, st.cols[i].type);
            t_sm_log(log, "\n");
        } else {
            struct my_val v = {.type = MY_T_LONGLONG, .i = op->arg};
            T_CHECK(have_st);
            rc = finish(c, myc_execute_start(c, &st, &v, 1, &res, t_sm_bin_row, log));
            t_sm_log_res(log, "execute", rc, c, &res);
        }
        T_CHECK(myc_idle(c));
        if (rc != B_OK && rc != B_SERVER)
            break;
    }
    if (have_st)
        myc_stmt_free(&st);
    myc_result_free(&res);
    return 0;
}

static void t_sm_params(struct myc_params *p, const struct t_sm_case *k)
{
    memset(p, 0, sizeof(*p));
    p->host = "127.0.0.1";
    p->port = 3306;
    p->user = k->user;
    p->password = k->pw;
    p->db = "benchtest";
    p->ssl_mode = MYC_SSL_DISABLED;
    p->no_deprecate_eof = k->classic_eof;
}

/* Replay a script with chunk bytes per read/write (0: as much as asked): the session's text
 * and the bytes the client sent. */
static int t_sm_replay(const struct t_sm_case *k, const struct t_sm_script *s, size_t chunk,
                       struct buf *log, struct buf *sent)
{
    struct myc_params p;
    struct my_conn c;
    struct t_sm_io d = {.s = s, .chunk = chunk};
    struct myc_io io = {t_sm_send, t_sm_recv, &d, NULL};
    t_sm_params(&p, k);
    int rc = t_sm_session(k, &c, myc_connect_io_start(&c, &p, &io, -1), log, t_sm_finish);
    myc_close(&c);
    if (rc != 0 || d.pos != s->b.len) {
        buf_put(log, "", 1);
        fprintf(stderr, "  %s, chunk %zu: %zu of %zu bytes read:\n%s", k->file, chunk, d.pos,
                s->b.len, log->p);
        buf_free(&d.out);
        return 1;
    }
    if (chunk)
        T_CHECK(d.wants >= d.reads); /* a would-block after every read */
    buf_put(sent, d.out.p, d.out.len);
    buf_free(&d.out);
    return 0;
}

/* Every split gives the same session: the text, and the bytes sent. */
static int t_sm_check_splits(const struct t_sm_case *k, const struct t_sm_script *s)
{
    struct buf log0 = {0}, sent0 = {0};
    T_CHECK(t_sm_replay(k, s, 0, &log0, &sent0) == 0);
    buf_put(&log0, "", 1);
    for (size_t i = 0; i < countof(k->want); i++)
        if (k->want[i] && !strstr(log0.p, k->want[i])) {
            fprintf(stderr, "  %s: missing '%s' in:\n%s", k->file, k->want[i], log0.p);
            return 1;
        }
    static const size_t chunks[] = {1, 2, 3, 7, 4096};
    for (size_t i = 0; i < countof(chunks); i++) {
        struct buf log = {0}, sent = {0};
        T_CHECK(t_sm_replay(k, s, chunks[i], &log, &sent) == 0);
        buf_put(&log, "", 1);
        if (strcmp(log.p, log0.p) || sent.len != sent0.len || memcmp(sent.p, sent0.p, sent.len)) {
            fprintf(stderr, "  %s: split %zu differs:\n%s---\n%s", k->file, chunks[i], log.p,
                    log0.p);
            return 1;
        }
        buf_free(&log);
        buf_free(&sent);
    }
    buf_free(&log0);
    buf_free(&sent0);
    return 0;
}

static int t_myc_sm_replay(void)
{
    for (size_t i = 0; i < countof(t_sm_cases); i++) {
        struct t_sm_script s;
        T_CHECK(t_sm_load(t_sm_cases[i].file, &s) == 0);
        T_CHECK(s.nblk >= 3);
        int rc = t_sm_check_splits(&t_sm_cases[i], &s);
        t_sm_script_free(&s);
        if (rc)
            return rc;
    }
    return 0;
}

/* A truncated stream (the server closes early) ends every split with the same error, never a
 * hang; a stream cut inside a block waits (WANT_READ) for the rest. */
static int t_myc_sm_truncated(void)
{
    struct t_sm_script s;
    const struct t_sm_case *k = &t_sm_cases[0];
    T_CHECK(t_sm_load(k->file, &s) == 0);
    size_t cuts[] = {3, s.end[0] - 1, s.end[1] + 5, s.end[2] - 1};
    for (size_t i = 0; i < countof(cuts); i++) {
        struct t_sm_script t = s;
        t.b.len = cuts[i];
        size_t nb = 0;
        while (nb < s.nblk && s.end[nb] < cuts[i])
            nb++;
        t.end[nb] = cuts[i];
        t.nblk = nb + 1;
        struct myc_params p;
        struct my_conn c;
        struct t_sm_io d = {.s = &t, .chunk = 1};
        struct myc_io io = {t_sm_send, t_sm_recv, &d, NULL};
        struct buf log = {0};
        t_sm_params(&p, k);
        struct myc_result res = {0};
        bool queried = false;
        int rc = myc_connect_io_start(&c, &p, &io, -1);
        for (int n = 0; n < 100000; n++) {
            if (rc == B_OK && !queried) { /* logged in: the first query's answer is cut */
                queried = true;
                rc = myc_query_start(&c, "SELECT 1", 8, &res, NULL, NULL);
            }
            if (d.pos == t.b.len && rc == MYC_WANT_READ)
                break; /* it waits for the rest: no error, no busy progress */
            T_CHECK(rc == MYC_WANT_READ || rc == MYC_WANT_WRITE);
            rc = myc_step(&c);
        }
        T_CHECK(rc == MYC_WANT_READ && !myc_idle(&c));
        myc_result_free(&res);
        if (d.pos != t.b.len)
            fprintf(stderr, "  cut %zu: %zu of %zu read, rc %d\n", i, d.pos, t.b.len, rc);
        T_CHECK(d.pos == t.b.len);
        myc_close(&c);
        buf_free(&log);
        buf_free(&d.out);
    }
    t_sm_script_free(&s);
    return 0;
}

/* A deadline passed: myc_step says B_TIMEOUT with the socket layer's message. */
static int t_myc_sm_deadline(void)
{
    struct t_sm_script s;
    const struct t_sm_case *k = &t_sm_cases[0];
    T_CHECK(t_sm_load(k->file, &s) == 0);
    s.nblk = 1;
    s.end[0] = 10; /* half a greeting, then nothing */
    struct myc_params p;
    struct my_conn c;
    struct t_sm_io d = {.s = &s};
    struct myc_io io = {t_sm_send, t_sm_recv, &d, NULL};
    t_sm_params(&p, k);
    p.connect_timeout_ms = 30;
    T_CHECK(myc_connect_io_start(&c, &p, &io, -1) == MYC_WANT_READ);
    T_CHECK(myc_step(&c) == MYC_WANT_READ && !myc_idle(&c));
    usleep(40000);
    T_CHECK(myc_step(&c) == B_TIMEOUT && myc_idle(&c));
    char want[128]; /* strerror: glibc says "Connection timed out", musl "Operation timed out" */
    snprintf(want, sizeof(want), "reading from 127.0.0.1:3306 failed: %s (ETIMEDOUT)",
             strerror(ETIMEDOUT));
    T_CHECK(!strcmp(c.err.msg, want));
    myc_close(&c);
    buf_free(&d.out);
    t_sm_script_free(&s);
    return 0;
}

/* ---- live ---- */

struct t_sm_tee {
    int fd;
    bool sent;
    struct buf text; /* the fixture */
    size_t col;
};

static int t_sm_tee_recv(void *ctx, u8 *p, size_t n)
{
    struct t_sm_tee *t = ctx;
    ssize_t r = recv(t->fd, p, n, MSG_DONTWAIT);
    if (r < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK ? MBEDTLS_ERR_SSL_WANT_READ
                                                       : MBEDTLS_ERR_NET_RECV_FAILED;
    if (t->sent)
        buf_put(&t->text, ">\n", 2), t->sent = false;
    for (ssize_t i = 0; i < r; i++) {
        char h[8];
        int l = snprintf(h, sizeof(h), i % 16 ? " %02x" : "< %02x", p[i]);
        buf_put(&t->text, h, (size_t)l);
        if (i % 16 == 15 || i == r - 1)
            buf_put(&t->text, "\n", 1);
    }
    return (int)r;
}

static int t_sm_tee_send(void *ctx, const u8 *p, size_t n)
{
    struct t_sm_tee *t = ctx;
    ssize_t r = send(t->fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (r < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK ? MBEDTLS_ERR_SSL_WANT_WRITE
                                                       : MBEDTLS_ERR_NET_SEND_FAILED;
    t->sent = true;
    return (int)r;
}

static int t_sm_poll_finish(struct my_conn *c, int rc)
{
    while (rc == MYC_WANT_READ || rc == MYC_WANT_WRITE) {
        struct pollfd pfd = {.fd = myc_fd(c), .events = rc == MYC_WANT_READ ? POLLIN : POLLOUT};
        if (poll(&pfd, 1, 10000) <= 0)
            return -1000;
        rc = myc_step(c);
    }
    return rc;
}

/* Record a case's session against a live server (port), then replay it at every split. */
static int t_sm_live_case(const struct t_sm_case *k, unsigned port)
{
    struct myc_params p;
    struct my_conn c;
    struct t_sm_tee t = {0};
    struct buf log = {0};
    t_sm_params(&p, k);
    p.host = getenv("BENCH_MY_HOST");
    p.port = port;
    p.connect_timeout_ms = 10000;
    p.io_timeout_ms = 10000;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((u16)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    t.fd = socket(AF_INET, SOCK_STREAM, 0);
    T_CHECK(t.fd >= 0 && connect(t.fd, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    struct myc_io io = {t_sm_tee_send, t_sm_tee_recv, &t, NULL};
    static const char head[] = "# recorded by tests/t_myc_sm.c (BENCH_SM_RECORD=DIR): the server's "
                               "bytes of one session; '>': the client sends\n";
    buf_put(&t.text, head, strlen(head));
    T_CHECK(t_sm_session(k, &c, myc_connect_io_start(&c, &p, &io, t.fd), &log,
                         t_sm_poll_finish) == 0);
    myc_close(&c);
    buf_put(&log, "", 1);
    for (size_t i = 0; i < countof(k->want); i++)
        if (k->want[i] && !strstr(log.p, k->want[i])) {
            fprintf(stderr, "  live %s: missing '%s' in:\n%s", k->file, k->want[i], log.p);
            return 1;
        }
    const char *dir = getenv("BENCH_SM_RECORD");
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%s", dir ? dir : "build", k->file);
    FILE *f = fopen(path, "w");
    T_CHECK(f && fwrite(t.text.p, 1, t.text.len, f) == t.text.len && fclose(f) == 0);
    /* the recording replays identically at every split */
    struct t_sm_script s;
    T_CHECK(t_sm_load(path, &s) == 0);
    int rc = t_sm_check_splits(k, &s);
    t_sm_script_free(&s);
    buf_free(&t.text);
    buf_free(&log);
    return rc;
}

static int t_myc_sm_live_record(void)
{
    struct myc_params p;
    struct my_conn c;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    T_CHECK(myc_connect(&c, &p) == B_OK);
    T_CHECK(t_q(&c, "CREATE PROCEDURE IF NOT EXISTS p2() BEGIN SELECT 1; SELECT 'x', NULL UNION ALL SELECT 'y', 2; END") == B_OK);
    myc_close(&c);
    for (size_t i = 0; i < 3; i++) /* the MariaDB cases; sm-sha2-fast.txt: tests/fakemysql.py */
        if (t_sm_live_case(&t_sm_cases[i], p.port))
            return 1;
    const char *fp = getenv("BENCH_SM_FAKE_PORT"); /* a fakemysql.py, when recording */
    if (fp && t_sm_live_case(&t_sm_cases[3], (unsigned)atoi(fp)))
        return 1;
    return 0;
}

/* Many connections on one thread: each logs in (half with TLS) and runs its own queries,
 * all driven by myc_step when poll says their socket is ready. */
#define T_SM_CONNS 48
#define T_SM_QUERIES 25

struct t_sm_conn {
    struct my_conn c;
    struct myc_result res;
    int want, done, bad;
    long got;
    char sql[64];
};

static int t_sm_val_row(void *ctx, const struct myc_result *res, const struct my_str *v)
{
    struct t_sm_conn *k = ctx;
    (void)res;
    k->got = v[0].p ? strtol(v[0].p, NULL, 10) : -1;
    return 0;
}

static int t_sm_next(struct t_sm_conn *k, int i)
{
    snprintf(k->sql, sizeof(k->sql), "SELECT %d * 1000 + %d", i, k->done);
    k->got = -2;
    return myc_query_start(&k->c, k->sql, strlen(k->sql), &k->res, t_sm_val_row, k);
}

static int t_myc_sm_live_many(void)
{
    struct myc_params p, ptls;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    ptls = p;
    ptls.ssl_mode = MYC_SSL_REQUIRED;
    struct t_sm_conn *k = b_xcalloc(T_SM_CONNS, sizeof(*k));
    struct pollfd pf[T_SM_CONNS];
    int finished = 0, logged = 0;
    for (int i = 0; i < T_SM_CONNS; i++) {
        k[i].want = myc_connect_start(&k[i].c, i % 2 ? &ptls : &p);
        k[i].done = -1; /* the login */
        T_CHECK(k[i].want == MYC_WANT_READ || k[i].want == MYC_WANT_WRITE);
    }
    u64 t0 = clk_now_ns();
    while (finished < T_SM_CONNS && clk_now_ns() - t0 < 60000000000ull) {
        for (int i = 0; i < T_SM_CONNS; i++) {
            pf[i].fd = k[i].want > 0 ? myc_fd(&k[i].c) : -1;
            pf[i].events = k[i].want == MYC_WANT_WRITE ? POLLOUT : POLLIN;
            pf[i].revents = 0;
        }
        T_CHECK(poll(pf, T_SM_CONNS, 1000) >= 0 || errno == EINTR); /* 60 s in all */
        for (int i = 0; i < T_SM_CONNS; i++) {
            if (!pf[i].revents)
                continue;
            int rc = myc_step(&k[i].c);
            while (rc == B_OK) { /* an operation ended: check it, start the next */
                if (k[i].done < 0)
                    logged += k[i].c.tls == (i % 2 == 1);
                else if (k[i].got != (long)i * 1000 + k[i].done || k[i].res.rows != 1)
                    k[i].bad++;
                if (++k[i].done == T_SM_QUERIES) {
                    finished++;
                    rc = 0;
                    k[i].want = 0;
                    break;
                }
                rc = t_sm_next(&k[i], i);
            }
            if (k[i].want == 0)
                continue;
            if (rc < 0) {
                fprintf(stderr, "  connection %d: %s\n", i, k[i].c.err.msg);
                return 1;
            }
            k[i].want = rc;
        }
    }
    int bad = 0;
    for (int i = 0; i < T_SM_CONNS; i++) {
        bad += k[i].bad;
        myc_result_free(&k[i].res);
        myc_close(&k[i].c);
    }
    free(k);
    T_CHECK(logged == T_SM_CONNS && finished == T_SM_CONNS && bad == 0);
    return 0;
}

/* What a connection costs: the struct, and the heap of a plain one after a query. */
static int t_myc_sm_sizes(void)
{
    struct my_conn c;
    struct t_sm_script s;
    t_spare_drain(); /* a fresh process's connection: no closed one's buffer kept (b_spare) */
    const struct t_sm_case *k = &t_sm_cases[0];
    T_CHECK(t_sm_load(k->file, &s) == 0);
    struct myc_params p;
    struct t_sm_io d = {.s = &s};
    struct myc_io io = {t_sm_send, t_sm_recv, &d, NULL};
    t_sm_params(&p, k);
    T_CHECK(t_sm_finish(&c, myc_connect_io_start(&c, &p, &io, -1)) == B_OK);
    struct myc_result res = {0};
    T_CHECK(t_sm_finish(&c, myc_query_start(&c, k->ops[0].sql, strlen(k->ops[0].sql), &res,
                                            NULL, NULL)) == B_OK && res.rows == 1);
    T_CHECK(c.in_cap == MYC_IN_START && c.ssl == NULL && c.cd == NULL);
    size_t heap = c.in_cap + c.out.cap + c.scratch.cap + c.big.cap;
    printf("(sizeof(struct my_conn) %zu, heap %zu) ", sizeof(struct my_conn), heap);
    T_CHECK(sizeof(struct my_conn) < 8192 && heap < 8192);
    myc_result_free(&res);
    myc_close(&c);
    buf_free(&d.out);
    t_sm_script_free(&s);
    return 0;
}
