/* my_: the codec from bytes, no server: vectors, fixtures, truncation, flips, guard pages. */

static int t_hex(const char *h, u8 *out, size_t max)
{
    size_t n = 0;
    for (const char *p = h; *p;) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        unsigned v;
        if (n >= max || sscanf(p, "%2x", &v) != 1)
            return -1;
        out[n++] = (u8)v;
        p += 2;
    }
    return (int)n;
}

static int t_unhex_cmp(const u8 *got, size_t n, const char *want)
{
    u8 w[256];
    int wn = t_hex(want, w, sizeof(w));
    if (wn < 0 || (size_t)wn != n || memcmp(got, w, n)) {
        fprintf(stderr, "  got:  ");
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, "%02x", got[i]);
        fprintf(stderr, "\n  want: %s\n", want);
        return 1;
    }
    return 0;
}

/* my_count_params: what a PREPARE_OK must claim; quoted and commented ? do not count */
static int t_my_count_params(void)
{
#define CP(s) my_count_params(s, sizeof(s) - 1)
    T_CHECK(CP("SELECT ?") == 1 && CP("SELECT 1") == 0);
    T_CHECK(CP("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?") == 2);
    T_CHECK(CP("SELECT '?', \"?\", `?`, ?") == 1);
    T_CHECK(CP("SELECT 'it''s ?', 'a\\'?', ?") == 1);
    T_CHECK(CP("SELECT ? -- ?\n, ? # ?\n, /* ? */ ?") == 3);
    T_CHECK(CP("SELECT 1--?") == 1 && CP("SELECT /*!100000 ? */ 1") == 1);
    T_CHECK(CP("SELECT '?") == 0 && CP("SELECT /* ?") == 0); /* unterminated: no overrun */
#undef CP
    return 0;
}

/* A fixture file: '#' comment lines, then hex. Returns the payload length or -1. */
static int t_fixture(const char *name, u8 *out, size_t max)
{
    char path[256], line[512], all[8192] = "";
    snprintf(path, sizeof(path), "tests/fixtures/mysql/%s", name);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "  cannot open %s\n", path);
        return -1;
    }
    while (fgets(line, sizeof(line), f))
        if (line[0] != '#' && strlen(all) + strlen(line) < sizeof(all))
            strcat(all, line);
    fclose(f);
    return t_hex(all, out, max);
}

static int t_my_lenenc(void)
{
    static const struct {
        u64 v;
        const char *hex;
    } t[] = {{0, "00"},          {250, "fa"},          {251, "fcfb00"},
             {0x0FF1, "fcf10f"}, {65535, "fcffff"},    {65536, "fd000001"},
             {16777215, "fdffffff"}, {16777216, "fe0000000100000000"}};
    for (size_t i = 0; i < countof(t); i++) {
        struct buf b = {0};
        my_put_lenenc(&b, t[i].v);
        T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len, t[i].hex) == 0);
        struct my_rd r = MY_RD(b.p, b.len);
        u64 v;
        T_CHECK(my_rd_lenenc(&r, &v, NULL) == B_OK && v == t[i].v && my_rd_left(&r) == 0);
        for (size_t k = 0; k < b.len; k++) { /* every prefix is truncated */
            struct my_rd rp = MY_RD(b.p, k);
            T_CHECK(my_rd_lenenc(&rp, &v, NULL) == B_TRUNCATED);
        }
        buf_free(&b);
    }
    u8 nul = 0xFB, ff = 0xFF;
    struct my_rd r = MY_RD(&nul, 1);
    u64 v;
    bool isnull;
    T_CHECK(my_rd_lenenc(&r, &v, NULL) == B_PROTOCOL); /* NULL only inside rows */
    r = MY_RD(&nul, 1);
    T_CHECK(my_rd_lenenc(&r, &v, &isnull) == B_OK && isnull);
    r = MY_RD(&ff, 1);
    T_CHECK(my_rd_lenenc(&r, &v, &isnull) == B_PROTOCOL);
    return 0;
}

static int t_my_framing(void)
{
    struct buf b = {0};
    u8 seq = 0;
    my_frame(&b, &seq, "\x0e", 1);
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len, "010000000e") == 0 && seq == 1);
    /* exactly 0xFFFFFF bytes: one full packet and an empty one */
    size_t n = MY_MAX_PACKET;
    u8 *big = b_xcalloc(n + 2, 1);
    b.len = 0;
    seq = 0;
    my_frame(&b, &seq, big, n);
    T_CHECK(b.len == n + 8 && seq == 2);
    T_CHECK(!memcmp(b.p, "\xff\xff\xff\x00", 4) && !memcmp(b.p + 4 + n, "\x00\x00\x00\x01", 4));
    /* one more byte: the second packet carries it */
    b.len = 0;
    seq = 7;
    my_frame(&b, &seq, big, n + 1);
    T_CHECK(b.len == n + 9 && seq == 9 && !memcmp(b.p + 4 + n, "\x01\x00\x00\x08", 4));
    /* parsing: every prefix wants more, the whole takes its length */
    const u8 *pl;
    size_t plen = 0;
    u8 s = 0;
    for (size_t k = 0; k < 9; k++)
        T_CHECK(my_frame_parse((const u8 *)b.p + 4 + n, k, &pl, &plen, &s) ==
                (k < 5 ? B_AGAIN : 5));
    T_CHECK(plen == 1 && s == 8);
    free(big);
    buf_free(&b);
    return 0;
}

static int t_my_scrambles(void)
{
    static const struct {
        const char *pw;
        u8 nonce[20];
        const char *native, *sha2;
    } v[] = {
        {"testing", "I/JiR>}{tU-{G3e$\"{hx", "dd50112522392e81d0487c6895086715f293e734",
         "fc30eb5a4b6d6282520d8a787bd3cfc846b87f2e3114675784eec65e256963ea"},
        {"secret", {96, 71, 63, 8, 1, 58, 75, 12, 69, 95, 66, 60, 117, 31, 48, 31, 89, 39, 55, 31},
         "ca29c3a422e2316715d3a7c7e374083039479592", NULL},
        {"secret", "cuE4vui1T4GHr*t,y@sD", "d0313894ad1490a2e5248b7e1212349060bef40e", NULL},
        {"secret", {10, 47, 74, 111, 75, 73, 34, 48, 88, 76, 114, 74, 37, 13, 3, 80, 82, 2, 23, 21},
         NULL, "f490e76f66d9d86665ce54d98c78d0acfe2fb0b08b423da807144873d30b312c"},
        {"secret2", {10, 47, 74, 111, 75, 73, 34, 48, 88, 76, 114, 74, 37, 13, 3, 80, 82, 2, 23, 21},
         NULL, "abc3934a012cf342e876071c8ee202de51785b430258a7a0138bc79c4d800bc6"},
        {"secret", {90, 105, 74, 126, 30, 48, 37, 56, 3, 23, 115, 127, 69, 22, 41, 84, 32, 123, 43, 118},
         NULL, "662005238fa18cf1abe8388b2b0e6bc4f9aa933cdccc78b2d60fb8961a3d39eb"},
    };
    for (size_t i = 0; i < countof(v); i++) {
        u8 t20[20], t32[32];
        if (v[i].native) {
            my_scramble_native(v[i].pw, strlen(v[i].pw), v[i].nonce, t20);
            T_CHECK(t_unhex_cmp(t20, 20, v[i].native) == 0);
        }
        if (v[i].sha2) {
            my_scramble_sha2(v[i].pw, strlen(v[i].pw), v[i].nonce, t32);
            T_CHECK(t_unhex_cmp(t32, 32, v[i].sha2) == 0);
        }
    }
    return 0;
}

static int t_my_ed25519(void)
{
    u8 sig[64], pub[32], nonce[32], n2[32];
    memset(nonce, 0x41, 32);
    my_ed25519_sign("foobar", 6, nonce, 32, sig, pub);
    T_CHECK(t_unhex_cmp(pub, 32, "aafda61ba1d60aecb7d9295be71855e131d2b5ec0dcf65483553db824f97009f") == 0);
    T_CHECK(t_unhex_cmp(sig, 64, "e83dc93f433f33355649ee23aa7592d61a1123090884f58d3063423a24e43054"
                                 "73febba858a2f93923554feea76a44753887ab2f140e854f0fe57ca0b0648a0e") == 0);
    T_CHECK(t_hex("887c881ab836a3998e448bc8a5411265106d608843941d6b44db001238123e74", n2, 32) == 32);
    my_ed25519_sign("foobar", 6, n2, 32, sig, NULL);
    T_CHECK(t_unhex_cmp(sig, 64, "989d520b54300b8803481f69161958e1ce413cba52c022a1e7fc9622b4cae531"
                                 "e651cdbb1dbd75139ac3b54d83b218bb5a7619b9930c9895e3e305f4bf280a02") == 0);
    return 0;
}

static int t_my_handshake(void)
{
    u8 p[512];
    struct my_handshake h;
    int n = t_fixture("greeting-mariadb-10.11-tls.hex", p, sizeof(p));
    T_CHECK(n > 0);
    T_CHECK(my_parse_handshake(p, (size_t)n, &h) == B_OK);
    T_CHECK(h.proto == 10 && h.version.len == 32 && !memcmp(h.version.p, "5.5.5-10.11.19-MariaDB", 22));
    T_CHECK(h.caps == 0x81FFFFFEu && (h.caps & MY_CAP_SSL) && h.ext_caps == 0x1D);
    T_CHECK(h.charset == 8 && h.status == 2 && h.scramble_len == 20 && h.scramble[20] == 0);
    T_CHECK(h.plugin.len == 21 && !memcmp(h.plugin.p, "mysql_native_password", 21));
    for (int k = 0; k < n; k++) /* every truncation is an error, never a success */
        T_CHECK(my_parse_handshake(p, (size_t)k, &h) < 0 || k >= n - 22);
    p[0] = 9;
    T_CHECK(my_parse_handshake(p, (size_t)n, &h) == B_PROTOCOL);
    p[0] = 0xFF;
    T_CHECK(my_parse_handshake(p, (size_t)n, &h) == B_SERVER);
    return 0;
}

static int t_my_ok_err(void)
{
    u8 p[256];
    struct my_ok_pkt ok;
    struct my_err_pkt e;
    int n = t_hex("00 02 03 02 00 00 00 26 52 65 63 6f 72 64 73 3a 20 32 20 20 44 75 70 6c 69 63 61"
                  "74 65 73 3a 20 30 20 20 57 61 72 6e 69 6e 67 73 3a 20 30", p, sizeof(p));
    T_CHECK(my_parse_ok(p, (size_t)n, &ok) == B_OK);
    T_CHECK(ok.affected == 2 && ok.insert_id == 3 && ok.status == 2 && ok.info.len == 38);
    n = t_fixture("err-1045.hex", p, sizeof(p));
    T_CHECK(n > 0 && my_parse_err(p, (size_t)n, &e) == B_OK);
    T_CHECK(e.code == 1045 && !strcmp(e.sqlstate, "28000"));
    T_CHECK(e.msg.len > 20 && !memcmp(e.msg.p, "Access denied for user", 22));
    /* before the greeting an ERR has no SQLSTATE */
    n = t_hex("ff 10 04 54 6f 6f 20 6d 61 6e 79", p, sizeof(p));
    T_CHECK(my_parse_err(p, (size_t)n, &e) == B_OK && e.code == 1040 &&
            !strcmp(e.sqlstate, "HY000") && e.msg.len == 8);
    for (int k = 0; k < 7; k++)
        T_CHECK(my_parse_ok(p, (size_t)k, &ok) < 0);
    u16 w, st;
    n = t_hex("fe 00 00 02 00", p, sizeof(p));
    T_CHECK(my_parse_eof(p, (size_t)n, &w, &st) == B_OK && st == 2 && my_is_eof(p, (size_t)n));
    return 0;
}

static int t_my_resultset(void)
{
    u8 p[512];
    struct my_coldef c;
    struct my_str v[3];
    int n = t_fixture("coldef-select-b.hex", p, sizeof(p));
    T_CHECK(n > 0 && my_parse_coldef(p, (size_t)n, false, &c) == B_OK);
    T_CHECK(c.name.len == 1 && c.name.p[0] == 'b' && c.type == MY_T_VAR_STRING &&
            c.charset == 45 && c.length == 8);
    for (int k = 0; k < n; k++)
        T_CHECK(my_parse_coldef(p, (size_t)k, false, &c) < 0);
    n = t_fixture("row-text.hex", p, sizeof(p));
    T_CHECK(n > 0 && my_parse_text_row(p, (size_t)n, 3, v) == B_OK);
    T_CHECK(v[0].len == 1 && v[0].p[0] == '1' && v[1].len == 2 && v[2].p == NULL);
    for (int k = 0; k < n; k++)
        T_CHECK(my_parse_text_row(p, (size_t)k, 3, v) < 0);
    T_CHECK(my_parse_text_row(p, (size_t)n, 2, v) == B_PROTOCOL); /* bytes left over */
    return 0;
}

static int t_my_binary(void)
{
    /* the 14-column row of protocol.md 4.7 (captured from MariaDB 10.11) */
    static const u8 types[14] = {MY_T_LONG, MY_T_TINY, MY_T_LONGLONG, MY_T_FLOAT, MY_T_DOUBLE,
                                 MY_T_NEWDECIMAL, MY_T_VAR_STRING, MY_T_BLOB, MY_T_DATETIME,
                                 MY_T_DATE, MY_T_TIME, MY_T_YEAR, MY_T_BLOB, MY_T_BIT};
    struct my_coldef cols[14];
    struct my_val v[14];
    u8 p[256];
    memset(cols, 0, sizeof(cols));
    for (int i = 0; i < 14; i++)
        cols[i].type = types[i];
    cols[0].flags = MY_FLAG_UNSIGNED;
    int n = t_hex("00 00 00 01 00 00 00 fb 00 e6 8e e7 fd ff ff ff 00 00 c0 3f 00 00 00 00 00 00 02 40"
                  "07 2d 31 32 2e 33 34 35 06 68 c3 a9 6c 6c 6f 02 00 ff 0b e8 07 02 1d 0d 0e 0f 40 e2"
                  "01 00 04 e8 07 02 1d 0c 01 22 00 00 00 16 3b 3a 20 a1 07 00 e8 07 07 7b 22 61 22 3a"
                  "31 7d 01 15", p, sizeof(p));
    T_CHECK(my_parse_binary_row(p, (size_t)n, 14, cols, v) == B_OK);
    T_CHECK(v[0].i == 1 && v[1].i == -5 && v[2].i == -9000000000LL && v[3].d == 1.5 &&
            v[4].d == 2.25);
    T_CHECK(v[5].s.len == 7 && !memcmp(v[5].s.p, "-12.345", 7) && v[6].s.len == 6);
    T_CHECK(v[8].t.year == 2024 && v[8].t.usec == 123456 && v[9].t.day == 29);
    T_CHECK(v[10].t.neg && v[10].t.days == 34 && v[10].t.hour == 22 && v[10].t.usec == 500000);
    T_CHECK(v[11].i == 2024 && v[13].s.len == 1 && (u8)v[13].s.p[0] == 0x15);
    for (int k = 0; k < n; k++)
        T_CHECK(my_parse_binary_row(p, (size_t)k, 14, cols, v) < 0);
    /* the all-NULL row: bitmap bits 3..15 */
    n = t_hex("00 f8 ff 02 00 00 00", p, sizeof(p));
    T_CHECK(my_parse_binary_row(p, (size_t)n, 14, cols, v) == B_OK && v[0].i == 2 && v[13].is_null);
    /* building: the parameters round-trip through the same encodings */
    struct buf b = {0};
    struct my_val pv[3] = {{.type = MY_T_LONG, .i = 15},
                           {.type = MY_T_LONG, .is_null = true},
                           {.type = MY_T_YEAR, .i = 2024}};
    my_build_execute(&b, 1, pv, 1);
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len, "17 01000000 00 01000000 00 01 0300 0f000000") == 0);
    b.len = 0;
    my_build_execute(&b, 2, pv, 3); /* NULL bitmap, YEAR sent as SHORT */
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len,
                        "17 02000000 00 01000000 02 01 0300 0600 0200 0f000000 e807") == 0);
    buf_free(&b);
    return 0;
}

/* Every parser on every byte flip of every fixture: an error or a success, never a crash
 * (ASan watches), and placed against a PROT_NONE page so any over-read faults at once. */
static int t_my_flips_guard(void)
{
    static const char *const fx[] = {"greeting-mariadb-10.11-tls.hex", "err-1045.hex",
                                     "coldef-select-b.hex", "row-text.hex",
                                     "authswitch-ed25519.hex", "prepare-ok.hex"};
    long pg = sysconf(_SC_PAGESIZE);
    u8 *map = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    T_CHECK(map != MAP_FAILED && mprotect(map + pg, (size_t)pg, PROT_NONE) == 0);
    for (size_t f = 0; f < countof(fx); f++) {
        u8 p[512];
        int n = t_fixture(fx[f], p, sizeof(p));
        T_CHECK(n > 0);
        for (int k = 0; k <= n; k++) { /* prefixes, ending at the guard page */
            u8 *at = map + pg - k;
            memcpy(at, p, (size_t)k);
            struct my_handshake h;
            struct my_ok_pkt ok;
            struct my_err_pkt e;
            struct my_coldef c;
            struct my_str sv[8];
            struct my_prep_ok po;
            (void)!my_parse_handshake(at, (size_t)k, &h);
            (void)!my_parse_ok(at, (size_t)k, &ok);
            (void)!my_parse_err(at, (size_t)k, &e);
            (void)!my_parse_coldef(at, (size_t)k, false, &c);
            (void)!my_parse_coldef(at, (size_t)k, true, &c);
            (void)!my_parse_text_row(at, (size_t)k, 3, sv);
            (void)!my_parse_prepare_ok(at, (size_t)k, &po);
        }
        for (int i = 0; i < n; i++) /* flips, full length */
            for (int bit = 0; bit < 8; bit++) {
                u8 *at = map + pg - n;
                memcpy(at, p, (size_t)n);
                at[i] ^= (u8)(1u << bit);
                struct my_handshake h;
                struct my_coldef c;
                struct my_str sv[8];
                int rc = my_parse_handshake(at, (size_t)n, &h);
                T_CHECK(rc <= 0 && rc >= B_DONE);
                rc = my_parse_coldef(at, (size_t)n, false, &c);
                T_CHECK(rc <= 0 && rc >= B_DONE);
                rc = my_parse_text_row(at, (size_t)n, 3, sv);
                T_CHECK(rc <= 0 && rc >= B_DONE);
            }
    }
    munmap(map, (size_t)pg * 2);
    return 0;
}

static int t_my_prepare_authswitch(void)
{
    u8 p[256];
    struct my_prep_ok po;
    int n = t_fixture("prepare-ok.hex", p, sizeof(p));
    T_CHECK(n > 0 && my_parse_prepare_ok(p, (size_t)n, &po) == B_OK);
    T_CHECK(po.stmt_id >= 1 && po.ncols == 14 && po.nparams == 1);
    n = t_fixture("authswitch-ed25519.hex", p, sizeof(p));
    T_CHECK(n == 48 && p[0] == 0xFE && !memcmp(p + 1, "client_ed25519", 15));
    return 0;
}

/* server strings for the terminal: controls, C1 and bad UTF-8 escaped, UTF-8 kept */
static int t_my_escape(void)
{
    char out[64];
    static const char in[] = "a\x1b[31mb\x07\n\r\t\x7f\xc3\xa9\xc2\x9b\xff\xe2\x82";
    my_escape(out, sizeof(out), in, sizeof(in) - 1);
    T_CHECK(!strcmp(out, "a\\x1b[31mb\\x07\\n\\r\\t\\x7f\xc3\xa9\\xc2\\x9b\\xff\\xe2\\x82"));
    my_escape(out, 6, "abc\x01zz", 6); /* never a cut escape, always terminated */
    T_CHECK(!strcmp(out, "abc"));
    my_escape(out, sizeof(out), "q\\z", 3); /* verbatim otherwise */
    T_CHECK(!strcmp(out, "q\\z"));
    return 0;
}

/* --debug=proto masks: the greeting's scramble parts, an AuthSwitchRequest's nonce, and the
 * auth data of HandshakeResponse41 */
static int t_my_auth_mask(void)
{
    u8 p[256];
    size_t m[4];
    int n = t_fixture("greeting-mariadb-10.11-tls.hex", p, sizeof(p));
    struct my_handshake h;
    T_CHECK(n > 0 && my_parse_handshake(p, (size_t)n, &h) == B_OK);
    my_auth_mask(p, (size_t)n, true, m);
    T_CHECK(m[1] == 8 && !memcmp(p + m[0], h.scramble, 8));
    T_CHECK(m[3] == 13 && !memcmp(p + m[2], h.scramble + 8, 12) && p[m[2] + 12] == 0);
    n = t_fixture("authswitch-ed25519.hex", p, sizeof(p));
    my_auth_mask(p, (size_t)n, false, m);
    T_CHECK(m[0] == 16 && m[1] == 32 && m[3] == 0);
    my_auth_mask(p, 20, true, m); /* not a greeting, and cut: nothing, nothing past the end */
    T_CHECK(m[1] == 0 && m[3] == 0);
    my_auth_mask((const u8 *)"\x0a" "8.0\0", 5, true, m);
    T_CHECK(m[1] == 0 && m[3] == 0);
    struct buf b = {0};
    size_t at = my_build_handshake_response(&b, MY_CAP_WANTED, 0, "bob", (const u8 *)"TOKEN", 5,
                                            "", "caching_sha2_password");
    T_CHECK(at == 32 + 4 + 1 && !memcmp(b.p + at, "TOKEN", 5));
    buf_free(&b);
    return 0;
}

/* execute: the values the caller passed, never the server's count; the counts are named */
static int t_my_execute_count(void)
{
    struct buf b = {0};
    struct my_val v = {.type = MY_T_LONGLONG, .i = 7};
    my_build_execute(&b, 9, &v, 1);
    T_CHECK(t_unhex_cmp((const u8 *)b.p, b.len, "17090000000001000000000108000700000000000000") == 0);
    buf_free(&b);
    int sv[2];
    T_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    struct myc_params prm = {.host = "h", .port = 1, .io_timeout_ms = 1000};
    struct my_conn c;
    struct myc_result res = {0};
    myc_init(&c, &prm);
    c.fd = sv[0];
    struct myc_stmt st = {.id = 3, .nparams = 40};
    T_CHECK(myc_execute(&c, &st, &v, 1, &res, NULL, NULL) == B_INVALID);
    T_CHECK(!strcmp(c.err.msg, "executing prepared statement 3 on h:1: the server says it takes "
                               "40 parameters, bench has 1"));
    char x;
    T_CHECK(recv(sv[1], &x, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN); /* nothing was sent */
    myc_close(&c);
    close(sv[1]);
    return 0;
}

/* The plugin table: every plugin a server may name has exactly one row with a first answer;
 * the greeting is answered only with the four bench can start with; unknown and refused
 * plugins fail with a message naming them; mysql_clear_password needs TLS or a socket. */
static int t_my_auth_plugins(void)
{
    static const struct {
        const char *name;
        bool greet;
        size_t len; /* first answer with password "pw" over plain TCP; (size_t)-1: refused */
    } want[] = {
        {"mysql_native_password", true, 20}, {"caching_sha2_password", true, 32},
        {"sha256_password", true, (size_t)-1}, /* plain TCP, no key: error 2061 */
        {"client_ed25519", true, 64},          {"mysql_clear_password", false, (size_t)-1},
        {"mysql_old_password", false, (size_t)-1},
    };
    T_CHECK(countof(myc_auth_plugins) == countof(want));
    for (size_t i = 0; i < countof(want); i++) {
        const struct myc_auth_plugin *ap = myc_auth_find(want[i].name);
        int rows = 0;
        for (size_t k = 0; k < countof(myc_auth_plugins); k++)
            rows += !strcmp(myc_auth_plugins[k].name, want[i].name);
        T_CHECK(ap && rows == 1 && ap->first && ap->greet == want[i].greet);
        struct myc_params prm = {.host = "h", .port = 1, .password = "pw"};
        struct my_conn c;
        struct buf out = {0};
        myc_init(&c, &prm);
        int rc = myc_auth_data(&c, want[i].name, &out);
        if (want[i].len == (size_t)-1)
            T_CHECK(rc < 0 && c.err.msg[0]);
        else
            T_CHECK(rc == B_OK && out.len == want[i].len && c.auth == ap);
        buf_free(&out);
        myc_close(&c);
    }
    T_CHECK(myc_auth_find("caching_sha2_password")->more &&
            myc_auth_find("sha256_password")->more && !myc_auth_find("client_ed25519")->more);
    static const char *const unknown[] = {"dialog", "auth_gssapi_client", "", "MYSQL_NATIVE_PASSWORD"};
    for (size_t i = 0; i < countof(unknown); i++) {
        struct myc_params prm = {.host = "h", .port = 1};
        struct my_conn c;
        struct buf out = {0};
        char want_msg[160];
        myc_init(&c, &prm);
        T_CHECK(!myc_auth_find(unknown[i]));
        T_CHECK(myc_auth_data(&c, unknown[i], &out) == B_UNSUPPORTED && out.len == 0);
        snprintf(want_msg, sizeof(want_msg), "the server at h:1 asked for the authentication "
                 "plugin '%s', which bench does not support", unknown[i]);
        T_CHECK(!strcmp(c.err.msg, want_msg));
        myc_close(&c);
    }
    struct myc_params prm = {.host = "h", .port = 1, .password = "pw"};
    struct my_conn c;
    struct buf out = {0};
    myc_init(&c, &prm);
    T_CHECK(myc_auth_data(&c, "mysql_clear_password", &out) == B_UNSUPPORTED);
    T_CHECK(strstr(c.err.msg, "mysql_clear_password over plain TCP") != NULL);
    T_CHECK(myc_auth_data(&c, "mysql_old_password", &out) == B_UNSUPPORTED);
    T_CHECK(strstr(c.err.msg, "pre-4.1 password protocol (mysql_old_password)") != NULL);
    c.is_unix = true; /* a socket: the cleartext password may go */
    T_CHECK(myc_auth_data(&c, "mysql_clear_password", &out) == B_OK && out.len == 3);
    T_CHECK(!memcmp(out.p, "pw", 3));
    buf_free(&out);
    myc_close(&c);
    return 0;
}

/* Redirect fd (1 or 2) to a temporary file; t_quiet_end restores it and returns how many
 * bytes were written there (-1 on failure). */
struct t_quiet {
    FILE *f;
    int fd, saved;
};

static int t_quiet_begin(struct t_quiet *q, int fd)
{
    fflush(stdout);
    fflush(stderr);
    q->fd = fd;
    q->f = tmpfile();
    q->saved = q->f ? dup(fd) : -1;
    if (q->saved < 0 || dup2(fileno(q->f), fd) < 0)
        return -1;
    return 0;
}

static long t_quiet_end(struct t_quiet *q)
{
    fflush(stdout);
    fflush(stderr);
    dup2(q->saved, q->fd);
    close(q->saved);
    long len = fseek(q->f, 0, SEEK_END) == 0 ? ftell(q->f) : -1;
    fclose(q->f);
    return len;
}

struct t_trace {
    int n;
    char lines[4][100];
};

static void t_trace_line(void *ctx, const char *line)
{
    struct t_trace *t = ctx;
    if (t->n < 4)
        snprintf(t->lines[t->n], sizeof(t->lines[0]), "%s", line);
    t->n++;
}

/* --debug=proto goes through the trace callback, line by line in the dump's format; with no
 * callback nothing is dumped, nothing is printed. */
static int t_my_trace(void)
{
    struct t_trace tr = {0};
    struct myc_params prm = {.host = "h", .port = 1, .io_timeout_ms = 1000,
                             .trace = t_trace_line, .trace_ctx = &tr};
    struct my_conn c;
    int sv[2];
    T_CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    myc_init(&c, &prm);
    c.fd = sv[0];
    T_CHECK(myc_command(&c, MY_COM_PING, NULL, 0) == B_OK);
    T_CHECK(tr.n == 2);
    T_CHECK(!strcmp(tr.lines[0], "bench: proto: > 5 bytes"));
    T_CHECK(!strcmp(tr.lines[1], "  0000  01 00 00 00 0e                                   |.....|"));
    /* 20 bytes with a masked range: two lines, ** and * where the mask is */
    u8 pkt[20];
    for (size_t i = 0; i < sizeof(pkt); i++)
        pkt[i] = (u8)('A' + i);
    tr.n = 0;
    c.scratch.len = 0;
    c.seq = 0;
    c.mask_off = 4 + 2, c.mask_len = 3;
    T_CHECK(myc_send(&c, pkt, sizeof(pkt)) == B_OK);
    T_CHECK(tr.n == 3 && !strcmp(tr.lines[0], "bench: proto: > 24 bytes"));
    T_CHECK(!strcmp(tr.lines[1],
                    "  0000  14 00 00 00 41 42 ** ** ** 46 47 48 49 4a 4b 4c  |....AB***FGHIJKL|"));
    T_CHECK(!strcmp(tr.lines[2],
                    "  0010  4d 4e 4f 50 51 52 53 54                          |MNOPQRST|"));
    /* no callback: no dump, and nothing on stderr */
    struct t_quiet q;
    T_CHECK(t_quiet_begin(&q, 2) == 0);
    prm.trace = NULL;
    tr.n = 0;
    int rc = myc_command(&c, MY_COM_PING, NULL, 0);
    long len = t_quiet_end(&q);
    T_CHECK(rc == B_OK && tr.n == 0 && len == 0);
    myc_close(&c);
    close(sv[1]);
    return 0;
}
