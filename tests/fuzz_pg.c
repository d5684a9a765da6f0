/*
 * libFuzzer target over the pg_ codec's parsers of server bytes (issue 32): the input is a
 * server's byte stream, cut by pg_frame_parse (a bounded maximum) and each message handed to
 * the parser of its type, DataRows decoded with the last RowDescription's column count.
 * Selector: an input whose first byte is '@' is a connection URL for pgc_parse_url and
 * pgc_url_secret/pgc_url_masked instead (every password span inside the URL, in order, and
 * none of it left in the mask); '!' a SCRAM server-first-message, a NUL, then a
 * server-final-message for pg_scram_final/pg_scram_verify (PBKDF2 cut at 20 ms); '#' a
 * ~/.pgpass file for pgc_pgpass.
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
        size_t n, ul = strlen(u);
        const char *prev = NULL;
        for (const char *q = pgc_url_secret(u, NULL, &n); q; q = pgc_url_secret(u, q + n, &n)) {
            if (q < u || q + n > u + ul || (prev && q <= prev))
                abort(); /* a span outside the URL, or not moving on */
            prev = q;
        }
        struct buf mb = {0};
        pgc_url_masked(&mb, u);
        buf_free(&mb);
        free(cc);
        free(u);
        return 0;
    }
    if (size && data[0] == '!') { /* SCRAM: server-first NUL server-final */
        const u8 *sf = data + 1, *nul = memchr(sf, 0, size - 1);
        size_t sfl = nul ? (size_t)(nul - sf) : size - 1;
        struct pg_scram sc;
        struct buf first = {0}, fin = {0};
        const char *why = NULL;
        pg_scram_first(&sc, "n,,", "", "fyko+d2lbbFgONRv9qkxdawL", &first);
        sc.deadline_ns = clk_now_ns() + 20000000u;
        if (!pg_scram_final(&sc, sf, sfl, "pencil", NULL, 0, &fin, &why) && nul)
            (void)!pg_scram_verify(&sc, nul + 1, size - 1 - sfl - 1, &why);
        pg_scram_free(&sc);
        buf_free(&first);
        buf_free(&fin);
        return 0;
    }
    if (size && data[0] == '#') { /* a ~/.pgpass */
        static char path[64];
        if (!path[0]) {
            snprintf(path, sizeof(path), "/tmp/fuzz-pgpass.%d", (int)getpid());
            setenv("PGPASSFILE", path, 1);
        }
        FILE *f = fopen(path, "w");
        if (!f)
            return 0;
        fwrite(data + 1, 1, size - 1, f);
        fclose(f);
        chmod(path, 0600);
        struct pgc_conn_params *cc = b_xcalloc(1, sizeof(*cc));
        cc->p.host = "db.example", cc->p.port = 5433, cc->p.db = "sales", cc->p.user = "bob";
        pgc_pgpass(cc);
        free(cc);
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
