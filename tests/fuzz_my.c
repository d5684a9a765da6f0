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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    u8 sel = data[0];
    const u8 *p = data + 1;
    size_t n = size - 1;
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
        (void)my_parse_handshake(p, n, &h);
        break;
    case 1:
        (void)my_parse_ok(p, n, &ok);
        break;
    case 2:
        (void)my_parse_err(p, n, &e);
        break;
    case 3:
        (void)my_parse_coldef(p, n, sel & 0x80, &c);
        break;
    case 4:
        (void)my_parse_text_row(p, n, (size_t)(sel >> 4) + 1, sv);
        break;
    case 5:
        (void)my_parse_prepare_ok(p, n, &po);
        break;
    case 6:
        (void)my_parse_eof(p, n, &w, &st);
        break;
    case 7: { /* a binary row: column types from the next bytes */
        size_t ncols = n ? (size_t)(p[0] % 16) + 1 : 1;
        memset(cols, 0, sizeof(cols));
        for (size_t i = 0; i < ncols && i + 1 < n; i++) {
            cols[i].type = p[1 + i];
            cols[i].flags = (p[1 + i] & 1) ? MY_FLAG_UNSIGNED : 0;
        }
        size_t skip = B_MIN(n, ncols + 1);
        (void)my_parse_binary_row(p + skip, n - skip, ncols, cols, vals);
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
