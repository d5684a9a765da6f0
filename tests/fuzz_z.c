/*
 * libFuzzer target over the compressed protocol's decoders (STYLE 2.8): my_inflate with an
 * announced length from the input, the frame reader (my_zframe_parse + my_zframe_body, then
 * the inner packets with my_frame_parse) with a 1 MiB cap as --max-allowed-packet gives, and
 * the round trip my_deflate -> my_inflate, which must give the input back. The first byte
 * picks the mode. Never a crash, a write past the announced length (ASan: the output buffer
 * is exactly that long) or memory beyond the cap. Built and run for a bounded time by `make
 * test`; seeds from tests/fixtures/zlib (converted by the Makefile).
 */
#define BENCH_NO_MAIN
#include "../bench.c"

/* main() is compiled out; keep bench_main referenced so -Werror builds do not flag it unused */
int (*const fuzz_bench_main)(int, char **) = bench_main;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_CAP ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static u32 *work;
    if (size < 3)
        return 0;
    u8 sel = data[0];
    const u8 *p = data + 3;
    size_t n = size - 3;
    const char *why = NULL;
    switch (sel % 3) {
    case 0: { /* inflate into exactly the announced length */
        size_t outlen = (size_t)data[1] | (size_t)data[2] << 8;
        u8 *out = malloc(outlen ? outlen : 1);
        int rc = my_inflate(p, n, out, outlen, &why);
        if ((rc == B_OK) != (why == NULL))
            __builtin_trap();
        free(out);
        break;
    }
    case 1: /* frames, then the packets inside them */
        while (n > 0) {
            size_t clen, ulen;
            u8 cseq;
            long used = my_zframe_parse(p, n, FZ_CAP, &clen, &ulen, &cseq);
            if (used <= 0)
                break;
            if (clen > FZ_CAP || ulen > FZ_CAP)
                __builtin_trap();
            size_t m = ulen ? ulen : clen;
            u8 *out = malloc(m ? m : 1);
            if (my_zframe_body(p, clen, ulen, out, &why) == B_OK) {
                const u8 *pl = out, *pk;
                size_t left = m, plen;
                u8 seq;
                long k;
                while ((k = my_frame_parse(pl, left, &pk, &plen, &seq)) > 0)
                    pl += k, left -= (size_t)k;
            } else if (!why)
                __builtin_trap();
            free(out);
            p += used;
            n -= (size_t)used;
        }
        break;
    default: { /* deflate gives a stream inflate reads back exactly */
        struct buf z = {0};
        if (!work)
            work = b_xcalloc(MY_Z_WORK, sizeof(u32));
        size_t zl = my_deflate(&z, p, n, work);
        u8 *back = malloc(n ? n : 1);
        if (zl != z.len || my_inflate((const u8 *)z.p, z.len, back, n, &why) != B_OK ||
            memcmp(back, p, n))
            __builtin_trap();
        free(back);
        buf_free(&z);
    }
    }
    return 0;
}
