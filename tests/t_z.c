/* my_inflate, my_deflate, the compressed frames: zlib vectors from python3's zlib, hostile
 * streams, round trips (ours and python's zlib.decompress). */

#define T_HELLO "hello hello hello hello, compressed world! "
#define T_DYN_TEXT                                                                           \
    "SELECT c FROM sbtest1 WHERE id BETWEEN 4000 AND 4099; 0- 1-b 2-cc 3-ddd 4-eeee 5-fffff " \
    "6-gggggg 7- 8-i 9-jj 10-aaa 11-bbbb 12-ccccc 13-dddddd 14- 15-f 16-gg 17-hhh 18-iiii "  \
    "19-jjjjj 20-aaaaaa 21- 22-c 23-dd 24-eee 25-ffff 26-ggggg 27-hhhhhh 28- 29-j 30-aa "     \
    "31-bbb 32-cccc 33-ddddd 34-eeeeee 35- 36-g 37-hh 38-iii 39-jjjj "

/* inflate hex into exactly want (announced length strlen(want)); the reason on failure */
static const char *t_inflate_hex(const char *hex, const char *want, size_t outlen)
{
    static u8 in[1024], out[1024];
    static char why_buf[128];
    const char *why = NULL;
    int n = t_hex(hex, in, sizeof(in));
    if (n < 0)
        return "bad hex";
    memset(out, 0xAA, sizeof(out));
    int rc = my_inflate(in, (size_t)n, out, outlen, &why);
    if (rc == B_OK && (outlen != strlen(want) || memcmp(out, want, outlen)))
        return "inflated bytes differ";
    if (out[outlen] != 0xAA) /* never past the announced length */
        return "wrote past the end";
    if (rc != B_OK) {
        snprintf(why_buf, sizeof(why_buf), "%s", why ? why : "(no reason)");
        return why_buf;
    }
    return NULL;
}

static int t_my_inflate_vectors(void)
{
    char hello[200] = "";
    for (int i = 0; i < 3; i++)
        strcat(hello, T_HELLO);
    size_t hl = strlen(hello);
    /* python3: zlib.compress(hello, 1), 6, 9: fixed Huffman blocks with matches */
    T_CHECK(!t_inflate_hex("7801cb48cdc9c957c84027751492f3730b8a528b8b535314caf38b7252143115414428"
                           "540a000ff32f2f", hello, hl));
    T_CHECK(!t_inflate_hex("789ccb48cdc9c957c84027751492f3730b8a528b8b535314caf38b72521431155145"
                           "29000ff32f2f", hello, hl));
    T_CHECK(!t_inflate_hex("78dacb48cdc9c957c84027751492f3730b8a528b8b535314caf38b72521431155145"
                           "29000ff32f2f", hello, hl));
    /* zlib.compress(b"stored block, level 0", 0): one stored block */
    T_CHECK(!t_inflate_hex("7801011500eaff73746f72656420626c6f636b2c206c6576656c203057990771",
                           "stored block, level 0", 21));
    /* zlib.compress(T_DYN_TEXT, 9): a dynamic Huffman block */
    static const char dyn[] =
        "78da2dcf416ec2400c46e1abbc0b581adba11075d5d2a9ba68a9449158878436b085fbabf6847f351b7f7af"
        "3533febf6c0c8fbfefb8bdbe97ebedd95e347dd572e13aff570ac7547574ae165f7168fbe7fa6082a274cc6"
        "1197699ae8e41c6325bf399ee4af8db5b0910bbd5caf68916118d0388da1791e431b918a760187812680ae6"
        "59e673484189a4a0c6b505aa6828583a581b50c6cc9c01e195883d2b24d1c8483a781b7167c49c11f25f8f"
        "29fb07c257838781a786bc19714fe01ae895606";
    T_CHECK(strlen(T_DYN_TEXT) == 319);
    T_CHECK(!t_inflate_hex(dyn, T_DYN_TEXT, 319));
    /* a bad adler32 (last byte changed) */
    const char *w = t_inflate_hex("789ccb48cdc9c957c84027751492f3730b8a528b8b535314caf38b725214311"
                                  "5514529000ff32f2e", hello, hl);
    T_CHECK(w && !strcmp(w, "an adler32 mismatch"));
    /* the announced length: one short (never written past), one long */
    w = t_inflate_hex(dyn, T_DYN_TEXT, 318);
    T_CHECK(w && !strcmp(w, "more data than the announced length"));
    w = t_inflate_hex(dyn, T_DYN_TEXT, 320);
    T_CHECK(w && !strcmp(w, "less data than the announced length"));
    w = t_inflate_hex("7801011500eaff73746f72656420626c6f636b2c206c6576656c203057990771",
                      "stored block, level 0", 20);
    T_CHECK(w && !strcmp(w, "more data than the announced length"));
    /* headers: not deflate, a preset dictionary, a bad check; truncation; trailing bytes */
    T_CHECK((w = t_inflate_hex("7a9c0300000001", "", 0)) && strstr(w, "bad header"));
    T_CHECK((w = t_inflate_hex("78bb0300000001", "", 0)) && !strcmp(w, "a preset dictionary"));
    T_CHECK((w = t_inflate_hex("789d0300000001", "", 0)) && strstr(w, "bad header"));
    T_CHECK(!t_inflate_hex("789c030000000001", "", 0)); /* zlib.compress(b"") */
    T_CHECK((w = t_inflate_hex("789c0300000000", "", 0)) && strstr(w, "adler32"));
    T_CHECK((w = t_inflate_hex("789c03000000000100", "", 0)) && strstr(w, "after the end"));
    T_CHECK((w = t_inflate_hex("789ccb48cdc9c957c840", hello, hl)) && strstr(w, "ends early"));
    /* a stored block whose NLEN is not LEN's complement; block type 3 */
    T_CHECK((w = t_inflate_hex("7801011500ebff73746f72656420626c6f636b2c206c6576656c203057990771",
                               "stored block, level 0", 21)) && strstr(w, "length check"));
    T_CHECK((w = t_inflate_hex("789c07", "", 0)) && !strcmp(w, "an invalid block type"));
    return 0;
}

/* A Huffman code of n bits, most significant bit first (RFC 1951 3.1.1). */
static void t_zw_code(struct my_zw *w, u32 code, unsigned n)
{
    u32 r = 0;
    for (unsigned i = 0; i < n; i++)
        r |= ((code >> i) & 1) << (n - 1 - i);
    my_zw_bits(w, r, n);
}

/* One literal/length symbol in the fixed code (RFC 1951 3.2.6). */
static void t_zw_lit(struct my_zw *w, unsigned sym)
{
    if (sym < 144)
        t_zw_code(w, 0x30 + sym, 8);
    else if (sym < 256)
        t_zw_code(w, 0x190 + sym - 144, 9);
    else if (sym < 280)
        t_zw_code(w, sym - 256, 7);
    else
        t_zw_code(w, 0xC0 + sym - 280, 8);
}

static void t_zw_match(struct my_zw *w, unsigned len, unsigned dist)
{
    unsigned l = my_zw_lcode(len), d = my_zw_dcode(dist);
    t_zw_lit(w, 257 + l);
    my_zw_bits(w, len - my_z_lbase[l], my_z_lext[l]);
    t_zw_code(w, d, 5);
    my_zw_bits(w, dist - my_z_dbase[d], my_z_dext[d]);
}

/* A fixed block with a match at distance dist after lit literals 'a': handmade streams. */
static const char *t_inflate_made(unsigned lit, unsigned len, unsigned dist, unsigned dcode)
{
    struct buf b = {0};
    struct my_zw w = {.out = &b};
    static u8 out[600];
    const char *why = NULL;
    buf_put(&b, "\x78\x9c", 2);
    my_zw_bits(&w, 1, 1);
    my_zw_bits(&w, 1, 2);
    for (unsigned i = 0; i < lit; i++)
        t_zw_lit(&w, 'a');
    if (dcode < 30)
        t_zw_match(&w, len, dist);
    else { /* a distance code the fixed code has but deflate forbids (30, 31) */
        t_zw_lit(&w, 257);
        t_zw_code(&w, dcode, 5);
    }
    t_zw_lit(&w, 256);
    my_zw_bits(&w, 0, 8 - w.bitcnt % 8);
    u8 t[4] = {0, 0, 0, 1};
    buf_put(&b, t, 4);
    (void)!my_inflate((const u8 *)b.p, b.len, out, lit + len, &why);
    buf_free(&b);
    return why;
}

static int t_my_inflate_hostile(void)
{
    const char *w;
    T_CHECK((w = t_inflate_made(0, 3, 1, 0)) && !strcmp(w, "a distance too far back"));
    T_CHECK((w = t_inflate_made(4, 10, 5, 0)) && !strcmp(w, "a distance too far back"));
    T_CHECK((w = t_inflate_made(4, 10, 4, 0)) && !strcmp(w, "an adler32 mismatch")); /* valid */
    T_CHECK((w = t_inflate_made(1, 3, 1, 30)) && !strcmp(w, "an invalid distance code"));
    T_CHECK((w = t_inflate_made(1, 3, 1, 31)) && !strcmp(w, "an invalid distance code"));
    /* a dynamic block: HLIT 30 (287 codes), over the 286 allowed */
    T_CHECK((w = t_inflate_hex("789cf5ffff", "", 0)) && strstr(w, "too many"));
    /* every stream of 1..3 bytes after a good header: an error or empty, never a crash */
    u8 in[5] = {0x78, 0x9c}, out[64];
    const char *why;
    for (unsigned v = 0; v < (1u << 16); v++) {
        in[2] = (u8)v, in[3] = (u8)(v >> 8), in[4] = (u8)(v * 7);
        T_CHECK(my_inflate(in, 5, out, sizeof(out), &why) == B_PROTOCOL && why);
    }
    return 0;
}

static u64 t_z_rand(u64 *s) /* xorshift64* */
{
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* deflate -> inflate, and deflate -> python3's zlib.decompress */
static int t_my_deflate_roundtrip(void)
{
    u32 *work = b_xcalloc(MY_Z_WORK, sizeof(u32));
    size_t n = 200000;
    u8 *text = b_xmalloc(n), *back = b_xmalloc(n + 1);
    u64 r = 42;
    /* sbtest-like rows: digits in groups (the c column), repeated SQL words, random bytes */
    for (size_t i = 0; i < n;) {
        u64 x = t_z_rand(&r);
        const char *word = (x & 3) == 0 ? "SELECT c FROM sbtest1 WHERE id=" : "-";
        size_t wl = strlen(word);
        for (size_t k = 0; k < wl && i < n; k++)
            text[i++] = (u8)word[k];
        for (int k = 0; k < 11 && i < n; k++)
            text[i++] = (u8)('0' + (x >> (4 + 4 * k)) % 10);
        if ((x & 0xF0000) == 0 && i < n)
            text[i++] = (u8)(x >> 24);
    }
    struct buf z = {0};
    const char *why = NULL;
    size_t sizes[] = {0, 1, 3, 50, 258, 259, 1000, 32768, 40000, n};
    for (size_t s = 0; s < countof(sizes); s++) {
        z.len = 0;
        size_t zl = my_deflate(&z, text, sizes[s], work);
        T_CHECK(zl == z.len && zl >= 6);
        back[sizes[s]] = 0x5A;
        T_CHECK(my_inflate((const u8 *)z.p, zl, back, sizes[s], &why) == B_OK);
        T_CHECK(!memcmp(back, text, sizes[s]) && back[sizes[s]] == 0x5A);
    }
    /* it shrinks: SQL-ish text to under half; long runs to almost nothing */
    T_CHECK(z.len < n / 2);
    memset(text, 'x', 100000);
    z.len = 0;
    T_CHECK(my_deflate(&z, text, 100000, work) < 1000);
    /* python's zlib reads it: the file holds the stream, python prints the adler32 and size */
    z.len = 0;
    r = 7;
    for (size_t i = 0; i < n; i++)
        text[i] = (u8)('a' + t_z_rand(&r) % 7);
    my_deflate(&z, text, n, work);
    char path[] = "/tmp/bench-t-z-XXXXXX";
    int fd = mkstemp(path);
    T_CHECK(fd >= 0 && write(fd, z.p, z.len) == (ssize_t)z.len);
    close(fd);
    char cmd[300];
    snprintf(cmd, sizeof(cmd),
             "python3 -c 'import sys,zlib; d=zlib.decompress(open(sys.argv[1],\"rb\").read()); "
             "print(len(d), zlib.adler32(d))' %s",
             path);
    FILE *f = popen(cmd, "r");
    char line[100] = "";
    T_CHECK(f && fgets(line, sizeof(line), f));
    pclose(f);
    unlink(path);
    char want[100];
    snprintf(want, sizeof(want), "%zu %u\n", n, my_adler32(1, text, n));
    if (strcmp(line, want))
        fprintf(stderr, "  python3 says: %s  want: %s", line, want);
    T_CHECK(!strcmp(line, want));
    buf_free(&z);
    free(text);
    free(back);
    free(work);
    return 0;
}

/* frames: the header's fields, the cap, stored and compressed bodies */
static int t_my_zframe(void)
{
    u8 f[64] = {5, 0, 0, 3, 0, 0, 0, 'h', 'e', 'l', 'l', 'o'}, out[64];
    size_t clen, ulen;
    u8 seq;
    const char *why;
    T_CHECK(my_zframe_parse(f, 6, 100, &clen, &ulen, &seq) == B_AGAIN && clen == 0);
    T_CHECK(my_zframe_parse(f, 11, 100, &clen, &ulen, &seq) == B_AGAIN && clen == 5);
    T_CHECK(my_zframe_parse(f, 12, 100, &clen, &ulen, &seq) == 12 && seq == 3 && ulen == 0);
    T_CHECK(my_zframe_body(f, clen, ulen, out, &why) == B_OK && !memcmp(out, "hello", 5));
    T_CHECK(my_zframe_parse(f, 12, 4, &clen, &ulen, &seq) == B_PROTOCOL);
    /* zlib.compress(b"") announced as 1 byte; and a header with ulen over the cap */
    u8 g[] = {8, 0, 0, 0, 1, 0, 0, 0x78, 0x9c, 0x03, 0, 0, 0, 0, 1};
    T_CHECK(my_zframe_parse(g, sizeof(g), 100, &clen, &ulen, &seq) == 15 && ulen == 1);
    T_CHECK(my_zframe_body(g, clen, ulen, out, &why) == B_PROTOCOL && strstr(why, "less data"));
    u8 h[7] = {1, 0, 0, 0, 0xFF, 0xFF, 0xFF};
    T_CHECK(my_zframe_parse(h, 7, 1 << 20, &clen, &ulen, &seq) == B_PROTOCOL);
    return 0;
}
