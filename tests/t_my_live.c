/*
 * my_/myc_ against a real MariaDB (tests/mariadb.sh starts one; run.sh passes BENCH_MY_*).
 * Skipped (77) when BENCH_MY_HOST is unset. BENCH_DEBUG_PROTO=1 dumps every packet (for
 * capturing fixtures).
 */

static void t_live_trace(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

static bool t_live_params(struct myc_params *p, const char *user, const char *pw, int ssl)
{
    const char *host = getenv("BENCH_MY_HOST"), *port = getenv("BENCH_MY_PORT");
    memset(p, 0, sizeof(*p));
    if (!host || !port)
        return false;
    p->host = host;
    p->port = (unsigned)atoi(port);
    p->user = user;
    p->password = pw;
    p->db = "benchtest";
    p->ssl_mode = ssl;
    p->connect_timeout_ms = 10000;
    p->io_timeout_ms = 30000;
    p->trace = getenv("BENCH_DEBUG_PROTO") ? t_live_trace : NULL;
    return true;
}

#define T_LIVE_OR_SKIP(p, u, pw, ssl)                                                        \
    do {                                                                                     \
        if (!t_live_params(p, u, pw, ssl)) {                                                 \
            printf("skip (BENCH_MY_HOST unset) ");                                           \
            return 77;                                                                       \
        }                                                                                    \
    } while (0)

static int t_q(struct my_conn *c, const char *sql)
{
    struct myc_result res;
    memset(&res, 0, sizeof(res));
    int rc = myc_query(c, sql, strlen(sql), &res, NULL, NULL);
    if (rc < 0)
        fprintf(stderr, "  query failed: %s: %s\n", sql, c->err.msg);
    myc_result_free(&res);
    return rc;
}

/* logins: every plugin and transport the server offers */
static int t_my_live_logins(void)
{
    struct myc_params p;
    struct my_conn c;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    T_CHECK(myc_connect(&c, &p) == B_OK);
    T_CHECK(!c.tls && !strcmp(c.plugin, "mysql_native_password"));
    T_CHECK(strstr(c.version, "MariaDB") && c.hs.conn_id > 0);
    T_CHECK(myc_ping(&c) == B_OK);
    myc_close(&c);
    p.ssl_mode = MYC_SSL_REQUIRED; /* TLS 1.2 via SSLRequest */
    T_CHECK(myc_connect(&c, &p) == B_OK);
    T_CHECK(c.tls && myc_cipher(&c) && myc_ping(&c) == B_OK);
    myc_close(&c);
    p.ssl_mode = -1; /* default over TCP: PREFERRED */
    T_CHECK(myc_connect(&c, &p) == B_OK && c.tls);
    myc_close(&c);
    t_live_params(&p, "ed", "foobar", MYC_SSL_DISABLED); /* client_ed25519 via AuthSwitch */
    T_CHECK(myc_connect(&c, &p) == B_OK);
    T_CHECK(!strcmp(c.plugin, "client_ed25519") && myc_ping(&c) == B_OK);
    myc_close(&c);
    p.password = "foobaz";
    T_CHECK(myc_connect(&c, &p) == B_SERVER && c.srv_code == 1045);
    t_live_params(&p, "tls", "tlspw", MYC_SSL_DISABLED); /* REQUIRE SSL */
    T_CHECK(myc_connect(&c, &p) == B_SERVER && c.srv_code == 1045);
    p.ssl_mode = MYC_SSL_VERIFY_CA;
    p.ssl_ca = getenv("BENCH_MY_CA");
    T_CHECK(myc_connect(&c, &p) == B_OK && c.tls);
    myc_close(&c);
    p.ssl_mode = MYC_SSL_VERIFY_IDENTITY; /* 127.0.0.1 is an IP subjectAltName (issue 28) */
    T_CHECK(myc_connect(&c, &p) == B_OK && c.tls);
    myc_close(&c);
    if (getenv("BENCH_MY_V6")) { /* ::1 is not: the message names the certificate's names */
        p.host = "::1";
        T_CHECK(myc_connect(&c, &p) == B_UNSUPPORTED && strstr(c.err.msg, "did not verify") &&
                strstr(c.err.msg, "the certificate names: localhost, 127.0.0.1"));
        myc_close(&c);
    }
    p.host = "localhost";
    T_CHECK(myc_connect(&c, &p) == B_OK && c.tls);
    myc_close(&c);
    p.host = "127.0.0.1";
    p.ssl_mode = MYC_SSL_VERIFY_CA;
    p.ssl_ca = getenv("BENCH_MY_OTHER_CA"); /* a CA that did not sign it */
    T_CHECK(myc_connect(&c, &p) == B_UNSUPPORTED && strstr(c.err.msg, "not correctly signed"));
    t_live_params(&p, "x509", "certpw", MYC_SSL_REQUIRED); /* REQUIRE X509 */
    T_CHECK(myc_connect(&c, &p) == B_SERVER && c.srv_code == 1045);
    p.ssl_cert = getenv("BENCH_MY_CLIENT_CERT");
    p.ssl_key = getenv("BENCH_MY_CLIENT_KEY");
    T_CHECK(p.ssl_cert && myc_connect(&c, &p) == B_OK && c.tls);
    myc_close(&c);
    t_live_params(&p, "root", "", -1); /* unix socket: no TLS by default */
    p.socket = getenv("BENCH_MY_SOCK");
    T_CHECK(myc_connect(&c, &p) == B_OK && c.is_unix && !c.tls && myc_ping(&c) == B_OK);
    myc_close(&c);
    return 0;
}

static int t_my_live_errors(void)
{
    struct myc_params p;
    struct my_conn c;
    T_LIVE_OR_SKIP(&p, "nat", "wrong", MYC_SSL_DISABLED);
    T_CHECK(myc_connect(&c, &p) == B_SERVER);
    T_CHECK(c.srv_code == 1045 && !strcmp(c.sqlstate, "28000"));
    T_CHECK(strstr(c.srv_msg, "Access denied for user 'nat'"));
    T_CHECK(c.fd < 0);
    p.password = "secret";
    p.db = "nosuchdb";
    T_CHECK(myc_connect(&c, &p) == B_SERVER && c.srv_code == 1049 &&
            !strcmp(c.sqlstate, "42000"));
    /* a refused port: bind an ephemeral port, close it, connect to it */
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof(sa);
    T_CHECK(bind(s, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    T_CHECK(getsockname(s, (struct sockaddr *)&sa, &sl) == 0);
    close(s);
    p.port = ntohs(sa.sin_port);
    p.db = NULL;
    T_CHECK(myc_connect(&c, &p) == B_SYSERR && c.err.sys_errno == ECONNREFUSED);
    T_CHECK(strstr(c.err.msg, "Connection refused") && strstr(c.err.msg, "127.0.0.1:"));
    /* a syntax error after login, verbatim */
    t_live_params(&p, "nat", "secret", MYC_SSL_DISABLED);
    T_CHECK(myc_connect(&c, &p) == B_OK);
    struct myc_result res = {0};
    T_CHECK(myc_query(&c, "SELEC 1", 7, &res, NULL, NULL) == B_SERVER);
    T_CHECK(c.srv_code == 1064 && !strcmp(c.sqlstate, "42000"));
    T_CHECK(!strncmp(c.err.msg, "ERROR 1064 (42000): You have an error in your SQL syntax", 56));
    T_CHECK(myc_ping(&c) == B_OK); /* the connection survives */
    myc_result_free(&res);
    myc_close(&c);
    return 0;
}

struct t_rows {
    int n;
    char v[4][64];
    bool null[4];
};

static int t_text_row(void *ctx, const struct myc_result *res, const struct my_str *vals)
{
    struct t_rows *r = ctx;
    for (size_t i = 0; i < res->ncols && i < 4; i++) {
        r->null[i] = vals[i].p == NULL;
        snprintf(r->v[i], sizeof(r->v[i]), "%.*s", (int)vals[i].len, vals[i].p ? vals[i].p : "");
    }
    r->n++;
    return 0;
}

static int t_my_live_commands_mode(bool classic_eof, bool compress)
{
    struct myc_params p;
    struct my_conn c;
    struct myc_result res = {0};
    struct t_rows rows = {0};
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    p.multi_statements = true;
    p.no_deprecate_eof = classic_eof;
    p.compress = compress;
    T_CHECK(myc_connect(&c, &p) == B_OK && c.zlib == compress);
    T_CHECK(myc_init_db(&c, "benchtest") == B_OK);
    T_CHECK(myc_init_db(&c, "nosuchdb") == B_SERVER && c.srv_code == 1049);
    T_CHECK(myc_query(&c, "SELECT 1 AS a, 'xy' AS b, NULL AS c", 35, &res, t_text_row, &rows) ==
            B_OK);
    T_CHECK(rows.n == 1 && res.ncols == 3 && !strcmp(res.cols[1].name, "b"));
    T_CHECK(!strcmp(rows.v[0], "1") && !strcmp(rows.v[1], "xy") && rows.null[2]);
    T_CHECK(res.cols[0].type == MY_T_LONG && res.cols[1].type == MY_T_VAR_STRING);
    /* CALL of a procedure with two result sets: both, then the CALL's own OK */
    T_CHECK(t_q(&c, "DROP PROCEDURE IF EXISTS p2") == B_OK);
    T_CHECK(t_q(&c, "CREATE PROCEDURE p2() BEGIN SELECT 1; SELECT 'x', NULL UNION ALL SELECT 'y', 2; END") == B_OK);
    rows.n = 0;
    T_CHECK(myc_query(&c, "CALL p2()", 9, &res, t_text_row, &rows) == B_OK);
    T_CHECK(res.nsets == 2 && res.rows == 3 && rows.n == 3 && !strcmp(rows.v[0], "y"));
    T_CHECK(!(res.status & MY_SERVER_MORE_RESULTS));
    /* multi-statements */
    T_CHECK(myc_query(&c, "SELECT 1; SELECT 2; DO 3", 24, &res, NULL, NULL) == B_OK);
    T_CHECK(res.nsets == 2 && res.rows == 2);
    /* INSERT's OK: affected rows, insert id, info */
    T_CHECK(t_q(&c, "CREATE OR REPLACE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, v INT)") == B_OK);
    T_CHECK(myc_query(&c, "INSERT INTO ai (v) VALUES (7),(8)", 33, &res, NULL, NULL) == B_OK);
    T_CHECK(res.affected == 2 && res.insert_id == 1);
    /* a LOCAL INFILE request is refused cleanly (the server refuses first: 4166 or 1148) */
    const char *ld = "LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE ai";
    T_CHECK(myc_query(&c, ld, strlen(ld), &res, NULL, NULL) == B_SERVER && myc_ping(&c) == B_OK);
    /* large packets: a query of exactly 0xFFFFFF bytes (split + empty trailing packet) and a
     * result row over 16 MiB (reassembled) */
    size_t qlen = MY_MAX_PACKET - 1; /* + the command byte = 0xFFFFFF */
    char *q = b_xmalloc(qlen + 1);
    memcpy(q, "SELECT LENGTH('", 15);
    memset(q + 15, 'a', qlen - 15 - 2);
    memcpy(q + qlen - 2, "')", 2);
    rows.n = 0;
    T_CHECK(myc_query(&c, q, qlen, &res, t_text_row, &rows) == B_OK);
    char want[32];
    snprintf(want, sizeof(want), "%zu", qlen - 17);
    T_CHECK(rows.n == 1 && !strcmp(rows.v[0], want));
    free(q);
    rows.n = 0;
    T_CHECK(myc_query(&c, "SELECT REPEAT('z', 17000000)", 28, &res, t_text_row, &rows) == B_OK);
    T_CHECK(rows.n == 1 && rows.v[0][0] == 'z');
    T_CHECK(myc_reset_connection(&c) == B_OK && myc_ping(&c) == B_OK);
    T_CHECK(!!(c.caps & MY_CAP_DEPRECATE_EOF) == !classic_eof);
    myc_result_free(&res);
    myc_close(&c);
    return 0;
}

/* both result-set framings: OK-as-EOF (DEPRECATE_EOF) and classic EOF packets */
static int t_my_live_commands(void)
{
    int rc = t_my_live_commands_mode(false, false);
    return rc ? rc : t_my_live_commands_mode(true, false);
}

/* the same over the compressed protocol: multi-results, 0xFFFFFF-byte queries and 17 MB rows
 * (frames split at 16 MiB, packets across frames), LOCAL INFILE's refusal */
static int t_my_live_compress_commands(void)
{
    int rc = t_my_live_commands_mode(false, true);
    return rc ? rc : t_my_live_commands_mode(true, true);
}

/* The receive buffer: MYC_IN_START after the login and a small result; a result of many
 * short packets (no packet over the buffer) longer than it grows it by the reads that filled
 * it, never past MYC_IN_READ; the rows all arrive (1,000: MariaDB's max_recursive_iterations,
 * ~40 KB). */
static int t_my_live_inbuf(void)
{
    struct myc_params p;
    struct my_conn c;
    struct myc_result res = {0};
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    T_CHECK(myc_connect(&c, &p) == B_OK && c.in_cap == MYC_IN_START);
    T_CHECK(myc_query(&c, "SELECT 1", 8, &res, NULL, NULL) == B_OK && res.rows == 1);
    T_CHECK(c.in_cap == MYC_IN_START);
    const char *q = "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000) "
                    "SELECT n, 'abcdefghijklmnopqrstuvwxyz' FROM r";
    T_CHECK(myc_query(&c, q, strlen(q), &res, NULL, NULL) == B_OK && res.rows == 1000);
    printf("(in_cap %zu) ", c.in_cap);
    T_CHECK(c.in_cap > MYC_IN_START && c.in_cap <= MYC_IN_READ);
    T_CHECK(myc_query(&c, q, strlen(q), &res, NULL, NULL) == B_OK && res.rows == 1000);
    T_CHECK(c.in_cap <= MYC_IN_READ);
    myc_result_free(&res);
    myc_close(&c);
    return 0;
}

struct t_zrows {
    u64 n, sum; /* rows and a checksum of every value */
};

static int t_zrow(void *ctx, const struct myc_result *res, const struct my_str *vals)
{
    struct t_zrows *z = ctx;
    z->n++;
    for (size_t i = 0; i < res->ncols; i++)
        for (size_t k = 0; vals[i].p && k < vals[i].len; k++)
            z->sum = z->sum * 31 + (u8)vals[i].p[k];
    return 0;
}

/* compression on: the server's session says so, over TCP and inside TLS; a result of many
 * frames reads the same as uncompressed; off when not asked */
static int t_my_live_compress(void)
{
    struct myc_params p;
    struct my_conn c;
    struct myc_result res = {0};
    static const char *q = "SELECT seq, REPEAT(CHAR(65 + seq % 26), seq % 300), MD5(seq) "
                           "FROM seq_1_to_20000";
    struct t_zrows want = {0}, got = {0};
    struct t_rows st = {0};
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    T_CHECK(myc_connect(&c, &p) == B_OK && !c.zlib && !(c.caps & MY_CAP_COMPRESS));
    T_CHECK(myc_query(&c, "SHOW SESSION STATUS LIKE 'Compression'", 38, &res, t_text_row, &st) ==
            B_OK && st.n == 1 && !strcmp(st.v[1], "OFF"));
    T_CHECK(myc_query(&c, q, strlen(q), &res, t_zrow, &want) == B_OK && want.n == 20000);
    myc_close(&c);
    for (int tls = 0; tls < 2; tls++) {
        p.ssl_mode = tls ? MYC_SSL_REQUIRED : MYC_SSL_DISABLED;
        p.compress = true;
        T_CHECK(myc_connect(&c, &p) == B_OK && c.zlib && c.tls == (tls == 1));
        st.n = 0;
        T_CHECK(myc_query(&c, "SHOW SESSION STATUS LIKE 'Compression'", 38, &res, t_text_row,
                          &st) == B_OK && st.n == 1 && !strcmp(st.v[1], "ON"));
        memset(&got, 0, sizeof(got));
        T_CHECK(myc_query(&c, q, strlen(q), &res, t_zrow, &got) == B_OK);
        T_CHECK(got.n == want.n && got.sum == want.sum);
        T_CHECK(c.cseq > 2); /* the answer came in several frames */
        T_CHECK(myc_ping(&c) == B_OK && c.cseq == 2);
        myc_close(&c);
    }
    myc_result_free(&res);
    return 0;
}

/* IPv6 loopback (the suite's server listens on ::1 too) */
static int t_my_live_ipv6(void)
{
    struct myc_params p;
    struct my_conn c;
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_DISABLED);
    if (!getenv("BENCH_MY_V6")) {
        printf("skip (no IPv6 loopback) ");
        return 77;
    }
    p.host = "::1";
    T_CHECK(myc_connect(&c, &p) == B_OK && !strncmp(c.target, "[::1]:", 6));
    T_CHECK(myc_ping(&c) == B_OK);
    myc_close(&c);
    return 0;
}

/* prepared statements: every parameter type written, read back as binary rows and compared */
struct t_bin {
    int n;
    struct my_val v[16];
    char strs[16][64];
};

static int t_bin_row(void *ctx, const struct myc_result *res, const struct my_val *vals)
{
    struct t_bin *b = ctx;
    for (size_t i = 0; i < res->ncols && i < 16; i++) {
        b->v[i] = vals[i];
        memset(b->strs[i], 0, sizeof(b->strs[i]));
        if (vals[i].s.p)
            memcpy(b->strs[i], vals[i].s.p, B_MIN(vals[i].s.len, 63));
        b->v[i].s.p = b->strs[i];
    }
    b->n++;
    return 0;
}

static int t_my_live_prepared_mode(bool no_cache)
{
    struct myc_params p;
    struct my_conn c;
    struct myc_result res = {0};
    struct myc_stmt ins, sel;
    struct t_bin got = {0};
    T_LIVE_OR_SKIP(&p, "nat", "secret", MYC_SSL_REQUIRED); /* over TLS, for good measure */
    p.no_cache_metadata = no_cache;
    T_CHECK(myc_connect(&c, &p) == B_OK && c.tls);
    T_CHECK(!!(c.ext_caps & MY_MARIADB_CACHE_METADATA) == !no_cache); /* MariaDB >= 10.6 */
    T_CHECK(t_q(&c, "CREATE OR REPLACE TABLE t (id INT UNSIGNED PRIMARY KEY, i8 TINYINT, "
                    "i64 BIGINT, u64 BIGINT UNSIGNED, f FLOAT, d DOUBLE, dec1 DECIMAL(10,3), "
                    "s VARCHAR(20), b VARBINARY(8), dt DATETIME(6), da DATE, tm TIME(1), "
                    "y YEAR, n INT)") == B_OK);
    const char *isql = "INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    T_CHECK(myc_prepare(&c, isql, strlen(isql), &ins) == B_OK && ins.nparams == 14);
    struct my_val v[14];
    memset(v, 0, sizeof(v));
    v[0] = (struct my_val){.type = MY_T_LONG, .is_unsigned = true, .i = 1};
    v[1] = (struct my_val){.type = MY_T_TINY, .i = -5};
    v[2] = (struct my_val){.type = MY_T_LONGLONG, .i = -9000000000LL};
    v[3] = (struct my_val){.type = MY_T_LONGLONG, .is_unsigned = true, .i = (i64)18446744073709551615ULL};
    v[4] = (struct my_val){.type = MY_T_FLOAT, .d = 1.5};
    v[5] = (struct my_val){.type = MY_T_DOUBLE, .d = 2.25};
    v[6] = (struct my_val){.type = MY_T_NEWDECIMAL, .s = {"-12.345", 7}};
    v[7] = (struct my_val){.type = MY_T_VAR_STRING, .s = {"h\xc3\xa9llo", 6}};
    v[8] = (struct my_val){.type = MY_T_BLOB, .s = {"\x00\xff\x01", 3}};
    v[9] = (struct my_val){.type = MY_T_DATETIME, .t = {2024, 2, 29, 13, 14, 15, 123456, false, 0}};
    v[10] = (struct my_val){.type = MY_T_DATE, .t = {2024, 2, 29, 0, 0, 0, 0, false, 0}};
    v[11] = (struct my_val){.type = MY_T_TIME, .t = {0, 0, 0, 22, 59, 58, 500000, true, 34}};
    v[12] = (struct my_val){.type = MY_T_YEAR, .i = 2024};
    v[13] = (struct my_val){.type = MY_T_LONG, .is_null = true};
    T_CHECK(myc_execute(&c, &ins, v, 14, &res, NULL, NULL) == B_OK && res.affected == 1);
    const char *ssql = "SELECT * FROM t WHERE id = ?";
    T_CHECK(myc_prepare(&c, ssql, strlen(ssql), &sel) == B_OK && sel.ncols == 14);
    struct my_val key = {.type = MY_T_LONG, .i = 1};
    T_CHECK(myc_execute(&c, &sel, &key, 1, &res, t_bin_row, &got) == B_OK && got.n == 1);
    T_CHECK(res.ncols == 14 && !strcmp(res.cols[13].name, "n"));
    T_CHECK(got.v[0].type == MY_T_LONG && got.v[0].i == 1 && got.v[0].is_unsigned);
    T_CHECK(got.v[1].i == -5 && got.v[2].i == -9000000000LL);
    T_CHECK((u64)got.v[3].i == 18446744073709551615ULL && got.v[3].is_unsigned);
    T_CHECK(got.v[4].d == 1.5 && got.v[5].d == 2.25);
    T_CHECK(!strcmp(got.strs[6], "-12.345") && !strcmp(got.strs[7], "h\xc3\xa9llo"));
    T_CHECK(got.v[8].s.len == 3 && !memcmp(got.strs[8], "\x00\xff\x01", 3));
    T_CHECK(got.v[9].t.year == 2024 && got.v[9].t.month == 2 && got.v[9].t.day == 29 &&
            got.v[9].t.hour == 13 && got.v[9].t.second == 15 && got.v[9].t.usec == 123456);
    T_CHECK(got.v[10].t.year == 2024 && got.v[10].t.day == 29);
    T_CHECK(got.v[11].t.neg && got.v[11].t.days == 34 && got.v[11].t.hour == 22 &&
            got.v[11].t.minute == 59 && got.v[11].t.usec == 500000);
    T_CHECK(got.v[12].type == MY_T_YEAR && got.v[12].i == 2024 && got.v[13].is_null);
    /* re-execute, reset, close; a closed statement is gone (1243) */
    got.n = 0;
    T_CHECK(myc_execute(&c, &sel, &key, 1, &res, t_bin_row, &got) == B_OK && got.n == 1);
    T_CHECK(myc_stmt_reset(&c, &sel) == B_OK);
    u32 id = sel.id;
    T_CHECK(myc_stmt_close(&c, &sel) == B_OK);
    sel.id = id;
    sel.coldefs = b_xcalloc(14, sizeof(struct my_coldef));
    T_CHECK(myc_execute(&c, &sel, &key, 1, &res, NULL, NULL) == B_SERVER && c.srv_code == 1243);
    free(sel.coldefs);
    T_CHECK(myc_stmt_close(&c, &ins) == B_OK);
    myc_result_free(&res);
    myc_close(&c);
    return 0;
}

/* with MariaDB's CACHE_METADATA (definitions only at PREPARE) and without */
static int t_my_live_prepared(void)
{
    int rc = t_my_live_prepared_mode(false);
    return rc ? rc : t_my_live_prepared_mode(true);
}

/* ping_main fills its result: facts of the login, one step per kind of round trip with its
 * final statistics, res->final = COM_PING's with events == --count; it prints nothing. */
static int t_my_live_ping_res(void)
{
    const char *host = getenv("BENCH_MY_HOST"), *port = getenv("BENCH_MY_PORT");
    if (!host || !port) {
        printf("skip (BENCH_MY_HOST unset) ");
        return 77;
    }
    char h[128], p[64];
    snprintf(h, sizeof(h), "mysql-host=%s", host);
    snprintf(p, sizeof(p), "mysql-port=%s", port);
    const char *kv[] = {h, p, "mysql-user=nat", "mysql-password=secret", "count=7", NULL};
    struct bench_opts o;
    struct res res;
    T_CHECK(t_opts(&o, kv) == 0);
    res_init(&res, wl_find("ping"), "run", &o, NULL);
    struct t_quiet q1, q2;
    T_CHECK(t_quiet_begin(&q1, 1) == 0 && t_quiet_begin(&q2, 2) == 0);
    int ex = ping_main(&res);
    long err_len = t_quiet_end(&q2), out_len = t_quiet_end(&q1);
    T_CHECK(out_len == 0 && err_len == 0); /* nothing printed */
    T_CHECK(ex == B_EXIT_OK && res.complete && res.err.msg[0] == 0);
    T_CHECK(res.have_final && res.final.d.events == 7 && res.final.threads == 1);
    T_CHECK(res.nsteps == 3);
    for (int k = 0; k < res.nsteps; k++) {
        const struct res_stats *s = &res.steps[k].final;
        u64 mn = s->d.lat_min_ns, mx = s->d.lat_max_ns;
        u64 p50 = hist_percentile(s->d.hist, 50, mn, mx);
        T_CHECK(res.steps[k].have_final && s->d.events == 7 && s->threads == 1);
        T_CHECK(mn > 0 && mn <= p50 && p50 <= mx && s->d.lat_sum_ns >= 7 * mn);
        T_CHECK(s->window_s > 0);
    }
    T_CHECK(!strcmp(res.steps[0].command, "COM_PING"));
    T_CHECK(res.final.d.lat_sum_ns == res.steps[0].final.d.lat_sum_ns);
    const struct res_fact *f = res_fact(&res, "server_version");
    T_CHECK(f && f->type == RES_STR && *f->str);
    f = res_fact(&res, "auth_plugin");
    T_CHECK(f && !strcmp(f->str, "mysql_native_password"));
    f = res_fact(&res, "connect_ns");
    T_CHECK(f && f->type == RES_INT && f->i > 0);
    T_CHECK(res_fact(&res, "tls") && res_fact(&res, "connection_id") &&
            res_fact(&res, "transport") && res_fact(&res, "server_hostname"));
    res_free(&res);
    t_opts_free(&o);
    return 0;
}
