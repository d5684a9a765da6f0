/*
 * libFuzzer target over the JSON reader (jr_ section), the parser of the reports `bench
 * compare` and `bench merge` read. The input is a document, optionally preceded by a path and
 * a 0xFF byte (0xFF never occurs in valid JSON): the document is parsed; when it parses, its
 * tree is checked (counts match the children, strings are valid UTF-8 of their length,
 * numbers finite), written back out with rep_json_*, parsed again and written again: the two
 * texts must be identical, and the path (if any) is looked up in both trees with the same
 * answer. When it does not parse, the message must carry "line L col C". Seeds:
 * tests/fixtures/json. Built and run for a bounded time by `make fuzz`.
 */
#define BENCH_NO_MAIN
#include "../bench.c"
/* main() is compiled out; keep bench_main referenced so -Werror builds do not flag it unused */
int (*const fuzz_bench_main)(int, char **) = bench_main;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* check one value and write it to j */
static void fz_jr_emit(struct rep_json *j, const struct jr_val *v, int depth)
{
    i64 i;
    u64 u;
    if (depth > JR_MAX_DEPTH)
        abort();
    switch (v->type) {
    case JR_NULL:
        rep_json_null(j);
        break;
    case JR_FALSE:
    case JR_TRUE:
        rep_json_bool(j, v->type == JR_TRUE);
        break;
    case JR_NUM:
        if (!isfinite(v->num) || !v->s)
            abort();
        if (jr_u64(v, &u))
            rep_json_u64(j, u);
        else if (v->num == 0) /* "-0", "-0.0", "1e-999": a zero whose sign the text drops */
            rep_json_u64(j, 0);
        else if (jr_i64(v, &i))
            rep_json_int(j, i);
        else
            rep_json_num(j, v->num);
        break;
    case JR_STR:
        if (strlen(v->s) > v->n)
            abort();
        for (size_t k = 0; k < v->n;) { /* valid UTF-8 (NULs allowed) */
            u8 c = (u8)v->s[k];
            size_t l = c < 0x80 ? 1 : jr_utf8_len((const u8 *)v->s + k, (const u8 *)v->s + v->n);
            if (!l)
                abort();
            k += l;
        }
        rep_json_sep(j);
        rep_json_esc(&j->b, v->s, v->n);
        break;
    case JR_ARR:
    case JR_OBJ: {
        u32 n = 0;
        rep_json_open(j, v->type == JR_ARR ? '[' : '{');
        for (const struct jr_val *k = jr_first(v); k; k = jr_next(k), n++) {
            if ((v->type == JR_OBJ) != (k->key != NULL))
                abort();
            if (k->key) {
                rep_json_sep(j);
                rep_json_esc(&j->b, k->key, k->keylen);
                buf_printf(&j->b, ":");
                j->comma = false;
            }
            fz_jr_emit(j, k, depth + 1);
        }
        if (n != v->n)
            abort();
        rep_json_close(j, v->type == JR_ARR ? ']' : '}');
        break;
    }
    default:
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const u8 *ff = memchr(data, 0xff, size);
    char path[256] = "";
    if (ff && (size_t)(ff - data) < sizeof(path)) {
        memcpy(path, data, (size_t)(ff - data));
        path[ff - data] = 0;
        size -= (size_t)(ff - data) + 1;
        data = ff + 1;
    }
    struct jr_doc d, d2;
    struct b_err e;
    memset(&e, 0, sizeof(e));
    if (jr_parse((const char *)data, size, "fuzz", &d, &e) != B_OK) {
        if (!strstr(e.msg, "reading fuzz: line ") || !strstr(e.msg, " col ") || d.arena)
            abort();
        return 0;
    }
    struct rep_json j = {{0}, false}, j2 = {{0}, false};
    fz_jr_emit(&j, d.root, 0);
    memset(&e, 0, sizeof(e));
    if (jr_parse(j.b.p, j.b.len, "again", &d2, &e) != B_OK) {
        fprintf(stderr, "re-parse failed: %s\n%s\n", e.msg, j.b.p);
        abort();
    }
    fz_jr_emit(&j2, d2.root, 0);
    if (j.b.len != j2.b.len || memcmp(j.b.p, j2.b.p, j.b.len)) {
        fprintf(stderr, "unstable:\n%s\n%s\n", j.b.p, j2.b.p);
        abort();
    }
    const struct jr_val *a = jr_path(d.root, path), *b = jr_path(d2.root, path);
    if (!a != !b || (a && a->type != b->type))
        abort();
    buf_free(&j.b);
    buf_free(&j2.b);
    jr_free(&d);
    jr_free(&d2);
    return 0;
}
