/* pg_: the PostgreSQL codec from bytes, no server: framing bounds, builders' bytes, every
 * parser against good and lying messages, md5 and SCRAM-SHA-256 (RFC 7677's vector), the
 * URL and ~/.pgpass of pgc_. */

/* a backend message type + body into b (length word computed) */
static void t_pg_msg(struct buf *b, u8 type, const void *body, size_t n)
{
    b->len = 0;
    buf_put(b, &type, 1);
    pg_put32(b, (u32)n + 4);
    buf_put(b, body, n);
}

static int t_pg_framing(void)
{
    struct pg_msg m;
    u8 in[16] = {'Z', 0, 0, 0, 5, 'I', 'X'};
    for (size_t k = 0; k < 6; k++) /* every prefix wants more */
        T_CHECK(pg_frame_parse(in, k, 1024, &m) == B_AGAIN);
    T_CHECK(pg_frame_parse(in, 7, 1024, &m) == 6 && m.type == 'Z' && m.len == 1 && m.p[0] == 'I');
    T_CHECK(pg_frame_want(in, 3) == 5 && pg_frame_want(in, 5) == 6);
    /* a length under 4 is a lie, over the maximum refused from its header on */
    u8 shortlen[5] = {'D', 0, 0, 0, 3};
    T_CHECK(pg_frame_parse(shortlen, 5, 1024, &m) == B_PROTOCOL);
    u8 big[5] = {'D', 0x7f, 0xff, 0xff, 0xff};
    T_CHECK(pg_frame_parse(big, 5, 1u << 20, &m) == B_PROTOCOL);
    u8 edge[5] = {'D', 0, 0, 4, 4}; /* body 1024: the maximum itself passes */
    T_CHECK(pg_frame_parse(edge, 5, 1024, &m) == B_AGAIN && pg_frame_parse(edge, 5, 1023, &m) == B_PROTOCOL);
    return 0;
}

static int t_pg_builders(void)
{
    struct buf b = {0};
    pg_build_ssl_request(&b);
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len, "00000008 04d2162f") == 0);
    b.len = 0;
    const char *kv[] = {"user", "u", "database", "d"};
    size_t vl[] = {1, 1};
    T_CHECK(pg_build_startup(&b, kv, vl, 2) == B_OK);
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len,
                        "0000001b 00030000 7573657200 7500 646174616261736500 6400 00") == 0);
    /* a NUL inside a value (CVE-2026-142201's injection) or an empty key: nothing appended */
    b.len = 0;
    const char *inj[] = {"user", "u", "application_name", "x\0search_path"};
    size_t il[] = {1, 15};
    T_CHECK(pg_build_startup(&b, inj, il, 2) == B_INVALID && b.len == 0);
    const char *nokey[] = {"", "v"};
    T_CHECK(pg_build_startup(&b, nokey, il, 1) == B_INVALID && b.len == 0);
    T_CHECK(pg_build_query(&b, "a\0b", 3) == B_INVALID && pg_build_password(&b, "a\0b", 3) == B_INVALID);
    T_CHECK(b.len == 0);
    T_CHECK(pg_build_query(&b, "SELECT 1", 8) == B_OK);
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len, "51 0000000d 53454c4543542031 00") == 0);
    b.len = 0;
    struct pg_str v[2] = {{"42", 2}, {NULL, 0}};
    T_CHECK(pg_build_parse(&b, "s1", "SELECT $1", 9, NULL, 0) == B_OK);
    T_CHECK(pg_build_bind(&b, "", "s1", v, 2) == B_OK);
    pg_build_execute(&b, "", 0);
    pg_build_empty(&b, 'S');
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len,
                        "50 00000013 733100 53454c454354202431 00 0000"
                        "42 00000018 00 733100 0000 0002 00000002 3432 ffffffff 0000"
                        "45 00000009 00 00000000"
                        "53 00000004") == 0);
    b.len = 0;
    u8 key[4] = {1, 2, 3, 4};
    T_CHECK(pg_build_cancel(&b, 77, key, 4) == B_OK);
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len, "00000010 04d2162e 0000004d 01020304") == 0);
    T_CHECK(pg_build_cancel(&b, 77, key, 3) == B_INVALID);
    b.len = 0;
    pg_build_sasl_initial(&b, "SCRAM-SHA-256", "n,,", 3);
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len,
                        "70 00000019 534352414d2d5348412d32353600 00000003 6e2c2c") == 0);
    buf_free(&b);
    return 0;
}

static int t_pg_parsers(void)
{
    struct buf b = {0};
    struct pg_msg m;
    struct pg_auth a;
#define MSG(t, lit) (t_pg_msg(&b, t, lit, sizeof(lit) - 1), \
                     m = (struct pg_msg){t, (const u8 *)b.p + 5, sizeof(lit) - 1})
    MSG('R', "\0\0\0\0");
    T_CHECK(pg_parse_auth(&m, &a) == B_OK && a.code == PG_AUTH_OK);
    MSG('R', "\0\0\0\x05" "ABCD");
    T_CHECK(pg_parse_auth(&m, &a) == B_OK && a.code == 5 && !memcmp(a.salt, "ABCD", 4));
    MSG('R', "\0\0\0\x05" "ABC");
    T_CHECK(pg_parse_auth(&m, &a) == B_PROTOCOL);
    MSG('R', "\0\0\0\x0a" "SCRAM-SHA-256-PLUS\0SCRAM-SHA-256\0\0");
    T_CHECK(pg_parse_auth(&m, &a) == B_OK && a.scram && a.plus);
    MSG('R', "\0\0\0\x0a" "SCRAM-SHA-256\0"); /* the list's end missing */
    T_CHECK(pg_parse_auth(&m, &a) == B_PROTOCOL);
    MSG('R', "\0\0\0\x07");
    T_CHECK(pg_parse_auth(&m, &a) == B_UNSUPPORTED && a.code == 7);
    MSG('R', "\0\0\0\x0b" "r=x");
    T_CHECK(pg_parse_auth(&m, &a) == B_OK && a.dlen == 3 && !memcmp(a.data, "r=x", 3));
    /* K: 4..256-byte keys */
    u32 pid;
    u8 key[PG_KEY_MAX];
    size_t kl;
    MSG('K', "\0\0\0\x09" "abcd");
    T_CHECK(pg_parse_key(&m, &pid, key, &kl) == B_OK && pid == 9 && kl == 4);
    MSG('K', "\0\0\0\x09" "abc");
    T_CHECK(pg_parse_key(&m, &pid, key, &kl) == B_PROTOCOL);
    u8 k257[4 + 257] = {0};
    t_pg_msg(&b, 'K', k257, 4 + 256), m = (struct pg_msg){'K', (const u8 *)b.p + 5, 4 + 256};
    T_CHECK(pg_parse_key(&m, &pid, key, &kl) == B_OK && kl == 256);
    m.len = 4 + 257;
    T_CHECK(pg_parse_key(&m, &pid, key, &kl) == B_PROTOCOL);
    u8 st;
    MSG('Z', "T");
    T_CHECK(pg_parse_ready(&m, &st) == B_OK && st == 'T');
    MSG('Z', "X");
    T_CHECK(pg_parse_ready(&m, &st) == B_PROTOCOL);
    /* E: fields verbatim, V preferred to the localized S */
    struct pg_err e;
    MSG('E', "SFEHLER\0VFATAL\0C28P01\0Mpassword authentication failed for user \"x\"\0\0");
    T_CHECK(pg_parse_error(&m, &e) == B_OK && e.severity.len == 5 && !memcmp(e.severity.p, "FATAL", 5));
    T_CHECK(e.code.len == 5 && !memcmp(e.code.p, "28P01", 5) && e.msg.len == strlen("password authentication failed for user \"x\""));
    MSG('E', "SFATAL\0C28P01"); /* a field without its NUL */
    T_CHECK(pg_parse_error(&m, &e) == B_PROTOCOL);
    /* T: the count cannot claim more fields than bytes carry */
    size_t nc;
    struct pg_col cols[2];
    MSG('T', "\0\x01" "a\0" "\0\0\0\0" "\0\0" "\0\0\0\x17" "\0\x04" "\xff\xff\xff\xff" "\0\0");
    T_CHECK(pg_parse_rowdesc(&m, &nc, cols, 2) == B_OK && nc == 1 && cols[0].type_oid == 23 &&
            cols[0].typmod == -1 && cols[0].name.len == 1);
    MSG('T', "\xff\xff" "a\0");
    T_CHECK(pg_parse_rowdesc(&m, &nc, NULL, 0) == B_PROTOCOL);
    /* D: lengths that lie */
    struct pg_str vals[2];
    MSG('D', "\0\x02" "\0\0\0\x02" "42" "\xff\xff\xff\xff");
    T_CHECK(pg_parse_datarow(&m, 2, vals) == B_OK && vals[0].len == 2 && !vals[1].p);
    MSG('D', "\0\x02" "\0\0\0\x09" "42" "\xff\xff\xff\xff");
    T_CHECK(pg_parse_datarow(&m, 2, vals) == B_PROTOCOL);
    MSG('D', "\0\x01" "\0\0\0\x02" "42");
    T_CHECK(pg_parse_datarow(&m, 2, vals) == B_PROTOCOL); /* not the columns described */
    /* a first value that claims more than is left (8 of 4) yet no more than the body (10), in
     * a body that ends where a page the process may not read begins: refused before the
     * second length is read (a bound by the body's length reads past it: SIGSEGV here, ASan or
     * not) */
    size_t pgsz = (size_t)sysconf(_SC_PAGESIZE);
    u8 *pages = mmap(NULL, 2 * pgsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    T_CHECK(pages != MAP_FAILED && mprotect(pages + pgsz, pgsz, PROT_NONE) == 0);
    u8 *exact = pages + pgsz - 10;
    memcpy(exact, "\0\x02" "\0\0\0\x08" "abcd", 10);
    struct pg_msg em = {'D', exact, 10};
    enum b_rc erc = pg_parse_datarow(&em, 2, vals);
    munmap(pages, 2 * pgsz);
    T_CHECK(erc == B_PROTOCOL);
    struct pg_str tag;
    u64 rows;
    MSG('C', "INSERT 0 5\0");
    T_CHECK(pg_parse_complete(&m, &tag, &rows) == B_OK && rows == 5 && tag.len == 10);
    MSG('C', "BEGIN\0");
    T_CHECK(pg_parse_complete(&m, &tag, &rows) == B_OK && rows == 0);
    MSG('1', "");
    T_CHECK(pg_parse_empty(&m, '1') == B_OK);
    MSG('2', "x");
    T_CHECK(pg_parse_empty(&m, '2') == B_PROTOCOL);
    size_t np;
    MSG('t', "\0\x01\0\0\0\x17");
    T_CHECK(pg_parse_paramdesc(&m, &np) == B_OK && np == 1);
    MSG('t', "\0\x02\0\0\0\x17");
    T_CHECK(pg_parse_paramdesc(&m, &np) == B_PROTOCOL);
    struct pg_copy cp;
    MSG('G', "\0\0\x02\0\0\0\0");
    T_CHECK(pg_parse_copy(&m, &cp) == B_OK && cp.ncols == 2 && cp.format == 0);
    MSG('G', "\0\0\x09\0\0");
    T_CHECK(pg_parse_copy(&m, &cp) == B_PROTOCOL);
    struct pg_negotiate v;
    MSG('v', "\0\0\0\0\0\0\0\x01" "_pq_.x\0");
    T_CHECK(pg_parse_negotiate(&m, &v) == B_OK && v.noptions == 1 && v.first_option.len == 6);
    MSG('v', "\0\0\0\0\x7f\0\0\0");
    T_CHECK(pg_parse_negotiate(&m, &v) == B_PROTOCOL);
    struct pg_str k, val;
    MSG('S', "server_version\0" "15.18\0");
    T_CHECK(pg_parse_param_status(&m, &k, &val) == B_OK && val.len == 5);
#undef MSG
    buf_free(&b);
    return 0;
}

/* md5: "md5" + md5(md5("secretpostgres") in hex || salt) in hex; the values computed
 * independently (Python's hashlib), md5(secretpostgres) = 53f48b7c... */
static int t_pg_md5(void)
{
    char out[36];
    u8 salt[4] = {0x01, 0x02, 0x03, 0x04};
    pg_md5_password("postgres", "secret", salt, out);
    T_CHECK(!strcmp(out, "md5bb41a296aab6baccb36ff243a562abff"));
    return 0;
}

/* RFC 7677 section 3: user "user", password "pencil", the client's and server's messages */
static int t_pg_scram_rfc7677(void)
{
    struct pg_scram s;
    struct buf first = {0}, fin = {0};
    const char *why = NULL;
    pg_scram_first(&s, "n,,", "user", "rOprNGfwEbeRWgbNEkqO", &first);
    T_CHECK(!strcmp(first.p, "n,,n=user,r=rOprNGfwEbeRWgbNEkqO"));
    const char *sf = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                     "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    T_CHECK(pg_scram_final(&s, (const u8 *)sf, strlen(sf), "pencil", NULL, 0, &fin, &why) == B_OK);
    T_CHECK(!strcmp(fin.p, "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
                           "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="));
    const char *good = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";
    T_CHECK(pg_scram_verify(&s, (const u8 *)good, strlen(good), &why) == B_OK);
    /* one bit off: an impostor (the first character: the last one's low bits are padding) */
    const char *bad = "v=7rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";
    T_CHECK(pg_scram_verify(&s, (const u8 *)bad, strlen(bad), &why) == B_PROTOCOL && strstr(why, "wrong"));
    /* ... and one bit off in the last byte (a comparison of the first bytes only passes it) */
    const char *badlast = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G8=";
    T_CHECK(pg_scram_verify(&s, (const u8 *)badlast, strlen(badlast), &why) == B_PROTOCOL && strstr(why, "wrong"));
    T_CHECK(pg_scram_verify(&s, (const u8 *)"e=other-error", 13, &why) == B_SERVER);
    pg_scram_free(&s);
    /* a server nonce that does not extend ours, iterations out of range, a bad salt */
    const char *cases[] = {"r=XXXX,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
                           "r=rOprNGfwEbeRWgbNEkqOx,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=0",
                           "r=rOprNGfwEbeRWgbNEkqOx,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=99999999",
                           "r=rOprNGfwEbeRWgbNEkqOx,s=!!,i=4096",
                           "r=rOprNGfwEbeRWgbNEkqOx,i=4096",
                           /* the server's nonce equal to ours: it added nothing */
                           "r=rOprNGfwEbeRWgbNEkqO,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
                           /* a mandatory extension (RFC 5802 5.1: abort) */
                           "m=ext,r=rOprNGfwEbeRWgbNEkqOx,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"};
    for (size_t i = 0; i < countof(cases); i++) {
        first.len = fin.len = 0;
        pg_scram_first(&s, "n,,", "", "rOprNGfwEbeRWgbNEkqO", &first);
        T_CHECK(pg_scram_final(&s, (const u8 *)cases[i], strlen(cases[i]), "pencil", NULL, 0,
                               &fin, &why) == B_PROTOCOL);
        pg_scram_free(&s);
    }
    /* a SASLFinal before any proof */
    memset(&s, 0, sizeof(s));
    T_CHECK(pg_scram_verify(&s, (const u8 *)good, strlen(good), &why) == B_PROTOCOL);
    buf_free(&first);
    buf_free(&fin);
    return 0;
}

static int t_pg_url(void)
{
    struct pgc_conn_params cc;
    struct b_err e;
    memset(&cc, 0, sizeof(cc));
    cc.p.sslmode = cc.p.cbind = -1;
    T_CHECK(pgc_parse_url(&cc, "postgresql://us%40er:p%3Aw@[::1]:6543/d%2fb?sslmode=verify-full&"
                               "channel_binding=require&connect_timeout=1", &e) == B_OK);
    T_CHECK(!strcmp(cc.p.user, "us@er") && !strcmp(cc.p.password, "p:w") && !strcmp(cc.p.host, "::1"));
    T_CHECK(cc.p.port == 6543 && !strcmp(cc.p.db, "d/b") && cc.p.sslmode == PGC_SSL_VERIFY_FULL);
    T_CHECK(cc.p.cbind == PGC_CB_REQUIRE && cc.p.connect_ms == 2000); /* libpq's minimum 2 s */
    memset(&cc, 0, sizeof(cc));
    T_CHECK(pgc_parse_url(&cc, "postgres://h", &e) == B_OK && !strcmp(cc.p.host, "h") && !cc.p.user);
    T_CHECK(pgc_parse_url(&cc, "postgres://h:0/", &e) == B_INVALID);
    T_CHECK(pgc_parse_url(&cc, "postgres://h1,h2/db", &e) == B_INVALID);
    T_CHECK(pgc_parse_url(&cc, "postgres://u:a%00b@h/db", &e) == B_INVALID);
    T_CHECK(pgc_parse_url(&cc, "postgres://h/db?sslmode", &e) == B_INVALID);
    T_CHECK(pgc_parse_url(&cc, "postgres://h/db?sslmode=maybe", &e) == B_INVALID);
    T_CHECK(pgc_parse_url(&cc, "postgres://h/db?x=1", &e) == B_INVALID && strstr(e.msg, "'x'"));
    T_CHECK(pgc_parse_url(&cc, "postgres://h/%zz", &e) == B_INVALID);
    T_CHECK(pgc_parse_url(&cc, "http://h/db", &e) == B_INVALID);
    /* what is wrong is said: a name too long, a bad %-escape, not "without '=value'" */
    T_CHECK(pgc_parse_url(&cc, "postgres://h/db?kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk=1", &e) == B_INVALID &&
            strstr(e.msg, "too long") && !strstr(e.msg, "without"));
    T_CHECK(pgc_parse_url(&cc, "postgres://u%zz@h/db", &e) == B_INVALID && strstr(e.msg, "user name (a bad percent-encoding"));
    /* every password in the URL, for the echoes' masks */
    size_t n;
    const char *u = "postgres://u:p1@h/d?sslmode=disable&password=p2&pass%77ord=p3&xpassword=no&password=";
    const char *p1 = pgc_url_secret(u, NULL, &n);
    T_CHECK(p1 && n == 2 && !strncmp(p1, "p1", 2));
    const char *p2 = pgc_url_secret(u, p1 + n, &n);
    T_CHECK(p2 && n == 2 && !strncmp(p2, "p2", 2));
    const char *p3 = pgc_url_secret(u, p2 + n, &n);
    T_CHECK(p3 && n == 2 && !strncmp(p3, "p3", 2));
    const char *p4 = pgc_url_secret(u, p3 + n, &n);
    T_CHECK(p4 && n == 0 && !*p4 && !pgc_url_secret(u, p4, &n));
    struct buf mb = {0};
    pgc_url_masked(&mb, u);
    T_CHECK(!strcmp(mb.p, "postgres://u:***@h/d?sslmode=disable&password=***&pass%77ord=***&xpassword=no&password=***"));
    buf_free(&mb);
    return 0;
}

/* sslnegotiation (libpq 17): the URL's, PGSSLNEGOTIATION, the given one winning over both;
 * direct only with sslmode require or stronger (libpq's words); a bad value named */
static int t_pg_negotiation(void)
{
    struct pgc_conn_params cc;
    struct b_err e;
    const char *req[8] = {"h", "5432", "u", "pw", "d", "require", "", ""};
    const char *pref[8] = {"h", "5432", "u", "pw", "d", "", "", ""};
    const char *dis[8] = {"h", "5432", "u", "pw", "d", "disable", "", ""};
    char *old = getenv("PGSSLNEGOTIATION") ? b_xstrdup(getenv("PGSSLNEGOTIATION")) : NULL;
    char *oldm = getenv("PGSSLMODE") ? b_xstrdup(getenv("PGSSLMODE")) : NULL;
    unsetenv("PGSSLNEGOTIATION");
    unsetenv("PGSSLMODE");
    memset(&cc, 0, sizeof(cc));
    bool url = pgc_parse_url(&cc, "postgres://h/db?sslnegotiation=direct", &e) == B_OK && cc.p.direct;
    bool url_bad = pgc_parse_url(&cc, "postgres://h/db?sslnegotiation=tls", &e) == B_INVALID &&
                   strstr(e.msg, "sslnegotiation 'tls': postgres") != NULL;
    bool dflt = pgc_params_resolve_neg(&cc, "", req, NULL, 1000, 1000, &e) == B_OK && !cc.p.direct;
    bool given = pgc_params_resolve_neg(&cc, "", req, "direct", 1000, 1000, &e) == B_OK && cc.p.direct;
    bool weak = pgc_params_resolve_neg(&cc, "", pref, "direct", 1000, 1000, &e) == B_INVALID &&
                strstr(e.msg, "weak sslmode \"prefer\" may not be used with sslnegotiation=direct");
    bool weak2 = pgc_params_resolve_neg(&cc, "", dis, "direct", 1000, 1000, &e) == B_INVALID &&
                 strstr(e.msg, "weak sslmode \"disable\"");
    bool url_wins_env, given_wins_url, env;
    setenv("PGSSLNEGOTIATION", "direct", 1);
    env = pgc_params_resolve_neg(&cc, "", req, NULL, 1000, 1000, &e) == B_OK && cc.p.direct;
    url_wins_env = pgc_params_resolve_neg(&cc, "postgres://h/d?sslnegotiation=postgres", req, NULL,
                                          1000, 1000, &e) == B_OK && !cc.p.direct;
    unsetenv("PGSSLNEGOTIATION");
    given_wins_url = pgc_params_resolve_neg(&cc, "postgres://h/d?sslnegotiation=direct", req,
                                            "postgres", 1000, 1000, &e) == B_OK && !cc.p.direct;
    bool env_bad;
    setenv("PGSSLNEGOTIATION", "maybe", 1);
    env_bad = pgc_params_resolve_neg(&cc, "", req, NULL, 1000, 1000, &e) == B_INVALID &&
              strstr(e.msg, "PGSSLNEGOTIATION: sslnegotiation 'maybe'");
    if (old)
        setenv("PGSSLNEGOTIATION", old, 1);
    else
        unsetenv("PGSSLNEGOTIATION");
    if (oldm)
        setenv("PGSSLMODE", oldm, 1);
    free(old);
    free(oldm);
    T_CHECK(url && url_bad && dflt && given);
    T_CHECK(weak && weak2);
    T_CHECK(env && url_wins_env && given_wins_url && env_bad);
    return 0;
}

static int t_pg_pgpass(void)
{
    char dir[] = "/tmp/bench-pgpass.XXXXXX", path[64];
    struct pgc_conn_params cc;
    struct b_err e;
    const char *given[8] = {"db.example", "5433", "bob", "", "sales", "disable", "", ""};
    T_CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof(path), "%s/pw", dir);
    FILE *f = fopen(path, "w");
    T_CHECK(f != NULL);
    /* a comment line of 1100 bytes whose tail would be an entry if the line were cut at
     * 1023; entries differing from the wanted one only in the port, only in the user */
    fputs("# comment", f);
    for (int i = 0; i < 1014; i++)
        fputc('x', f);
    fputs("db.example:5433:*:bob:cut\ndb.example:5433:other:bob:no\n"
          "db.example:5432:*:bob:port\ndb.example:5433:*:alice:user\n"
          "db.example:5433:*:bob:pa\\:ss\\\\w\r\ndb.example:*:*:*:late\n", f);
    fclose(f);
    chmod(path, 0600);
    char *old = getenv("PGPASSFILE") ? b_xstrdup(getenv("PGPASSFILE")) : NULL;
    char *oldpw = getenv("PGPASSWORD") ? b_xstrdup(getenv("PGPASSWORD")) : NULL;
    unsetenv("PGPASSWORD");
    setenv("PGPASSFILE", path, 1);
    int r1 = pgc_params_resolve(&cc, "", given, 1000, 1000, &e);
    bool ok1 = r1 == B_OK && cc.p.password && !strcmp(cc.p.password, "pa:ss\\w") && !cc.warn[0];
    chmod(path, 0640); /* group-readable: ignored, with a warning */
    int r2 = pgc_params_resolve(&cc, "", given, 1000, 1000, &e);
    bool ok2 = r2 == B_OK && !cc.p.password && strstr(cc.warn, "group or world access");
    /* a password longer than bench's buffer: skipped with a warning, never cut; the next
     * matching entry is used */
    f = fopen(path, "w");
    T_CHECK(f != NULL);
    fputs("db.example:5433:*:bob:", f);
    for (int i = 0; i < 300; i++)
        fputc('p', f);
    fputs("\n*:*:*:*:next\n", f);
    fclose(f);
    chmod(path, 0600);
    int r3 = pgc_params_resolve(&cc, "", given, 1000, 1000, &e);
    bool ok3 = r3 == B_OK && cc.p.password && !strcmp(cc.p.password, "next") &&
               strstr(cc.warn, "longer than 255 bytes: skipped");
    /* a directory where the file should be: libpq's warning */
    unlink(path);
    T_CHECK(mkdir(path, 0700) == 0);
    int r4 = pgc_params_resolve(&cc, "", given, 1000, 1000, &e);
    bool ok4 = r4 == B_OK && !cc.p.password && strstr(cc.warn, "is not a plain file");
    rmdir(path);
    if (old)
        setenv("PGPASSFILE", old, 1);
    else
        unsetenv("PGPASSFILE");
    if (oldpw)
        setenv("PGPASSWORD", oldpw, 1);
    free(old);
    free(oldpw);
    unlink(path);
    rmdir(dir);
    T_CHECK(ok1 && ok2 && ok3 && ok4);
    return 0;
}
