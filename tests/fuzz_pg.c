/*
 * libFuzzer target over the pg_ codec's parsers of server bytes (issue 32): the input is a
 * server's byte stream, cut by pg_frame_parse (a bounded maximum) and each message handed to
 * the parser of its type, DataRows decoded with the last RowDescription's column count.
 * Selector: an input whose first byte is '@' is a connection URL for pgc_parse_url instead.
 * Seeds: tests/fixtures/pgsql (hex, converted by the Makefile). Built and run for a bounded
 * time by `make test` (make fuzz).
 */
#define BENCH_NO_MAIN
#include "../bench.c"
/* main() is compiled out; keep bench_main referenced so -Werror builds do not flag it unused */
int (*const fuzz_bench_main)(int, char **) = bench_main;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_pg_message(const struct pg_msg *m, size_t *ncols)
{
    struct pg_auth a;
    struct pg_str k, v, tag, vals[64];
    struct pg_err e;
    struct pg_copy cp;
    struct pg_negotiate ng;
    u8 key[PG_KEY_MAX], st;
    u32 pid;
    size_t kl, n;
    u64 rows;
    switch (m->type) {
    case 'R': (void)!pg_parse_auth(m, &a); break;
    case 'S': (void)!pg_parse_param_status(m, &k, &v); break;
    case 'K': (void)!pg_parse_key(m, &pid, key, &kl); break;
    case 'Z': (void)!pg_parse_ready(m, &st); break;
    case 'E': case 'N': (void)!pg_parse_error(m, &e); break;
    case 'T':
        if (!pg_parse_rowdesc(m, &n, NULL, 0)) {
            struct pg_col *cols = b_xcalloc(n ? n : 1, sizeof(*cols));
            if (!pg_parse_rowdesc(m, &n, cols, n))
                *ncols = n;
            free(cols);
        }
        break;
    case 'D':
        if (*ncols <= countof(vals))
            (void)!pg_parse_datarow(m, *ncols, vals);
        break;
    case 'C': (void)!pg_parse_complete(m, &tag, &rows); break;
    case 't': (void)!pg_parse_paramdesc(m, &n); break;
    case 'G': case 'H': case 'W': (void)!pg_parse_copy(m, &cp); break;
    case 'v': (void)!pg_parse_negotiate(m, &ng); break;
    default: (void)!pg_parse_empty(m, m->type); break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size && data[0] == '@') { /* a URL */
        char *u = b_xmalloc(size);
        memcpy(u, data + 1, size - 1);
        u[size - 1] = 0;
        struct pgc_conn_params *cc = b_xcalloc(1, sizeof(*cc));
        struct b_err e;
        (void)!pgc_parse_url(cc, u, &e);
        free(cc);
        free(u);
        return 0;
    }
    size_t off = 0, ncols = 0;
    for (;;) {
        struct pg_msg m;
        long n = pg_frame_parse(data + off, size - off, 1u << 16, &m);
        if (n <= 0)
            break;
        /* the message alone in a buffer of its size: a read past it is a crash */
        u8 *copy = b_xmalloc(m.len ? m.len : 1);
        memcpy(copy, m.p, m.len);
        m.p = copy;
        fz_pg_message(&m, &ncols);
        free(copy);
        off += (size_t)n;
    }
    return 0;
}
