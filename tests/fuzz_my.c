/*
 * libFuzzer target over every parser of server bytes (STYLE 2.8): the frame parser and the
 * packet parsers of the my_ section, the --debug=proto auth masks and the escaping of server
 * strings. The first input byte picks the parser and, for binary rows, the column types; the
 * rest is the packet. Seeds: tests/fixtures/mysql (converted
 * from hex by the Makefile). Built and run for a bounded time by `make test`.
 */
#define BENCH_NO_MAIN
#include "../bench.c"
/* main() is compiled out; keep bench_main referenced so -Werror builds do not flag it unused */
int (*const fuzz_bench_main)(int, char **) = bench_main;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Selectors 0xF0..0xFF: the client state machine (myc_step) over a whole server stream: the
 * rest of the input is what the server sends, delivered (sel & 7) bytes per read (0: all it
 * asks for) with a would-block after each; login, then a query, a prepare and an execute
 * while the connection stays usable. It must end (an error, or waiting when the bytes run
 * out), never crash or spin: each step reads or writes something, or it is a bug.
 */
struct fz_io {
    const u8 *p;
    size_t n, pos, chunk, moved; /* moved: bytes read and written */
    bool rblock, wblock;
};

static int fz_recv(void *ctx, u8 *p, size_t n)
{
    struct fz_io *d = ctx;
    if (d->rblock || d->pos == d->n) {
        d->rblock = false;
        return MBEDTLS_ERR_SSL_WANT_READ;
    }
    size_t k = B_MIN(n, d->n - d->pos);
    if (d->chunk)
        k = B_MIN(k, d->chunk);
    memcpy(p, d->p + d->pos, k);
    d->pos += k;
    d->moved += k;
    d->rblock = d->chunk != 0;
    return (int)k;
}

static int fz_send(void *ctx, const u8 *p, size_t n)
{
    struct fz_io *d = ctx;
    (void)p;
    if (d->wblock) {
        d->wblock = false;
        return MBEDTLS_ERR_SSL_WANT_WRITE;
    }
    d->wblock = d->chunk != 0;
    n = d->chunk ? B_MIN(n, d->chunk) : n;
    d->moved += n;
    return (int)n;
}

static int fz_row(void *ctx, const struct myc_result *res, const struct my_str *v)
{
    (void)ctx, (void)res, (void)v;
    return 0;
}

static int fz_brow(void *ctx, const struct myc_result *res, const struct my_val *v)
{
    (void)ctx, (void)res, (void)v;
    return 0;
}

/* Step until done, or until it waits with every byte read. */
static int fz_finish(struct my_conn *c, struct fz_io *d, int rc)
{
    size_t idle = 0, last = d->moved;
    while (rc == MYC_WANT_READ || rc == MYC_WANT_WRITE) {
        if (rc == MYC_WANT_READ && d->pos == d->n && !d->rblock)
            return B_AGAIN;
        idle = d->moved == last ? idle + 1 : 0;
        last = d->moved;
        if (idle > 4)
            __builtin_trap(); /* steps that move no byte: a spin */
        rc = myc_step(c);
    }
    return rc;
}

static void fz_session(u8 sel, const u8 *p, size_t n)
{
    struct fz_io d = {.p = p, .n = n, .chunk = sel & 7u};
    struct myc_io io = {fz_send, fz_recv, &d, NULL};
    struct myc_params prm = {.host = "h", .port = 1, .user = "u", .password = "pw", .db = "d",
                             .ssl_mode = MYC_SSL_DISABLED, .max_packet = 1 << 20,
                             .no_deprecate_eof = (sel & 8) != 0, .multi_statements = true};
    struct my_conn c;
    struct myc_result res = {0};
    struct myc_stmt st = {0};
    int rc = fz_finish(&c, &d, myc_connect_io_start(&c, &prm, &io, -1));
    if (rc == B_OK)
        rc = fz_finish(&c, &d, myc_query_start(&c, "SELECT 1", 8, &res, fz_row, NULL));
    if (rc == B_OK || rc == B_SERVER)
        rc = fz_finish(&c, &d, myc_prepare_start(&c, "SELECT ?", 8, &st));
    if (rc == B_OK && st.nparams <= 4) {
        struct my_val v[4] = {{.type = MY_T_LONGLONG, .i = 7}};
        rc = fz_finish(&c, &d, myc_execute_start(&c, &st, v, st.nparams, &res, fz_brow, NULL));
    }
    myc_stmt_free(&st);
    myc_result_free(&res);
    myc_close(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    u8 sel = data[0];
    const u8 *p = data + 1;
    size_t n = size - 1;
    if (sel >= 0xF0) {
        fz_session(sel, p, n);
        return 0;
    }
    struct my_handshake h;
    struct my_ok_pkt ok;
    struct my_err_pkt e;
    struct my_coldef c;
    struct my_str sv[16];
    struct my_prep_ok po;
    struct my_val vals[16];
    struct my_coldef cols[16];
    const u8 *pl;
    size_t plen;
    u8 seq;
    u16 w, st;
    size_t m[4];
    char esc[128];
    switch (sel % 11) {
    case 0:
        (void)!my_parse_handshake(p, n, &h);
        break;
    case 1:
        (void)!my_parse_ok(p, n, &ok);
        break;
    case 2:
        (void)!my_parse_err(p, n, &e);
        break;
    case 3:
        (void)!my_parse_coldef(p, n, sel & 0x80, &c);
        break;
    case 4:
        (void)!my_parse_text_row(p, n, (size_t)(sel >> 4) + 1, sv);
        break;
    case 5:
        (void)!my_parse_prepare_ok(p, n, &po);
        break;
    case 6:
        (void)!my_parse_eof(p, n, &w, &st);
        break;
    case 7: { /* a binary row: column types from the next bytes */
        size_t ncols = n ? (size_t)(p[0] % 16) + 1 : 1;
        memset(cols, 0, sizeof(cols));
        for (size_t i = 0; i < ncols && i + 1 < n; i++) {
            cols[i].type = p[1 + i];
            cols[i].flags = (p[1 + i] & 1) ? MY_FLAG_UNSIGNED : 0;
        }
        size_t skip = B_MIN(n, ncols + 1);
        (void)!my_parse_binary_row(p + skip, n - skip, ncols, cols, vals);
        break;
    }
    case 9: /* the masks stay inside the packet */
        my_auth_mask(p, n, sel & 0x80, m);
        if ((m[1] && m[0] + m[1] > n) || (m[3] && m[2] + m[3] > n))
            __builtin_trap();
        break;
    case 10: /* escaped: always terminated, no control byte left */
        my_escape(esc, (size_t)(sel >> 4) + 1 + (sel & 0x80 ? 100 : 0), (const char *)p, n);
        for (const char *q = esc; *q; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f)
                __builtin_trap();
        break;
    default:
        while (n > 0) {
            long used = my_frame_parse(p, n, &pl, &plen, &seq);
            if (used <= 0)
                break;
            (void)my_is_eof(pl, plen);
            p += used;
            n -= (size_t)used;
        }
    }
    return 0;
}
