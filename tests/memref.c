/*
 * memref - independent references for bench's memory figures (tests/memory_oracle.sh).
 * Written from STREAM's description (McCalpin, stream.c 5.10) and the textbook pointer chase,
 * not from bench.c, so that a bug in one is not copied into the other.
 *
 *   memref stream ARRAY_BYTES THREADS PASSES [thp|nothp]
 *       STREAM's four kernels over three arrays of ARRAY_BYTES each, split in THREADS slices
 *       (each slice first touched by its own thread). Each kernel is timed as STREAM times an
 *       OpenMP loop: the clock is read by the main thread before the workers are released
 *       and after the last of them has finished. Best of PASSES, the first pass excluded;
 *       bytes as STREAM counts them (copy, scale 16/element; add, triad 24/element).
 *       thp: the arrays advised MADV_HUGEPAGE (bench's arrays are), else left as mapped; each
 *       array starts on a 2 MiB boundary, as bench's do (unaligned, a 256 MiB array was not all
 *       huge pages: triad at 0.7x on an EPYC VM, kernel 6.18).
 *       Prints: "copy MB/s scale MB/s add MB/s triad MB/s" (MB = 1e6 bytes). Built with -O3
 *       (the Makefile), as STREAM is: at -O2 GCC 12 leaves these loops scalar, and a scalar
 *       copy is bound by the core, not the memory (40 vs 60 GB/s on the 2-CPU VM).
 *   memref chase BYTES SECONDS [thp|nothp]
 *       a random cyclic permutation of the 64-byte lines of a BYTES buffer (a Fisher-Yates
 *       shuffle of the line order, each line pointing at the next in that order, the last at
 *       the first), followed for SECONDS in 20 windows; the best window's ns per load.
 *       Prints: "ns_per_load N".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "memref: %s\n", what);
    exit(2);
}

/* ---- stream ---- */

static double *A, *B, *C;
static size_t N;
static int T, KERNEL;
static pthread_barrier_t go, done;

static void slice(int id, size_t *lo, size_t *hi)
{
    *lo = N * (size_t)id / (size_t)T;
    *hi = N * (size_t)(id + 1) / (size_t)T;
}

static void run_kernel(int k, size_t lo, size_t hi)
{
    const double s = 3.0;
    switch (k) {
    case 0:
        for (size_t j = lo; j < hi; j++)
            C[j] = A[j];
        break;
    case 1:
        for (size_t j = lo; j < hi; j++)
            B[j] = s * C[j];
        break;
    case 2:
        for (size_t j = lo; j < hi; j++)
            C[j] = A[j] + B[j];
        break;
    case 3:
        for (size_t j = lo; j < hi; j++)
            A[j] = B[j] + s * C[j];
        break;
    default:
        for (size_t j = lo; j < hi; j++)
            A[j] = 1.0, B[j] = 2.0, C[j] = 0.0;
    }
}

/* A worker: wait for a kernel number (-1: quit), run it on its slice, report done. */
static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    size_t lo, hi;
    slice(id, &lo, &hi);
    for (;;) {
        pthread_barrier_wait(&go);
        if (KERNEL < 0)
            return NULL;
        run_kernel(KERNEL, lo, hi);
        pthread_barrier_wait(&done);
    }
}

/* Main is thread 0; the time spans release, all slices, and the last finisher. */
static double timed(int k)
{
    size_t lo, hi;
    slice(0, &lo, &hi);
    double t0 = now_s();
    KERNEL = k;
    pthread_barrier_wait(&go);
    run_kernel(k, lo, hi);
    pthread_barrier_wait(&done);
    return now_s() - t0;
}

/* map2m - an anonymous mapping of n bytes that starts on a 2 MiB boundary (as bench's arrays
 * do), so that huge pages can back all of it; NULL on failure */
static double *map2m(size_t n)
{
    size_t al = (size_t)2 << 20;
    char *p = mmap(NULL, n + al, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    return (double *)(void *)(p + (al - (size_t)((uintptr_t)p % al)) % al);
}

static int stream(size_t bytes, int threads, int passes, int thp)
{
    N = bytes / sizeof(double);
    T = threads;
    if (N < (size_t)T || T < 1 || passes < 2)
        die("stream: ARRAY_BYTES too small, THREADS < 1 or PASSES < 2");
    A = map2m(N * 8);
    B = map2m(N * 8);
    C = map2m(N * 8);
    if (!A || !B || !C)
        die("stream: mmap failed");
    if (thp) {
        madvise(A, N * 8, MADV_HUGEPAGE);
        madvise(B, N * 8, MADV_HUGEPAGE);
        madvise(C, N * 8, MADV_HUGEPAGE);
    }
    pthread_barrier_init(&go, NULL, (unsigned)T);
    pthread_barrier_init(&done, NULL, (unsigned)T);
    pthread_t *th = calloc((size_t)T, sizeof(*th));
    for (int i = 1; i < T; i++)
        if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i))
            die("stream: pthread_create failed");
    (void)timed(4); /* first touch by the slice's owner */
    double best[4] = {1e30, 1e30, 1e30, 1e30};
    for (int p = 0; p < passes; p++)
        for (int k = 0; k < 4; k++) {
            double t = timed(k);
            if (p > 0 && t < best[k])
                best[k] = t;
        }
    KERNEL = -1;
    pthread_barrier_wait(&go);
    for (int i = 1; i < T; i++)
        pthread_join(th[i], NULL);
    /* the values STREAM's check expects, so the loops cannot be skipped */
    double a = 1.0, b = 2.0, c = 0.0;
    for (int p = 0; p < passes; p++)
        c = a, b = 3.0 * c, c = a + b, a = b + 3.0 * c;
    if (A[N / 2] != a || B[N - 1] != b || C[0] != c)
        die("stream: wrong results");
    static const char *const name[4] = {"copy", "scale", "add", "triad"};
    for (int k = 0; k < 4; k++)
        printf("%s%s %.1f", k ? " " : "", name[k],
               (double)(k < 2 ? 16 : 24) * (double)N / best[k] / 1e6);
    printf("\n");
    return 0;
}

/* ---- chase ---- */

static uint64_t rng_s = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) /* splitmix64 */
{
    uint64_t z = (rng_s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int chase(size_t bytes, double seconds, int thp)
{
    size_t n = bytes / 64;
    if (n < 2 || seconds <= 0)
        die("chase: BYTES < 128 or SECONDS <= 0");
    char *buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t *order = malloc(n * sizeof(*order));
    if (buf == MAP_FAILED || !order)
        die("chase: no memory");
    madvise(buf, bytes, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(rng() % (i + 1)), x = order[i];
        order[i] = order[j], order[j] = x;
    }
    for (size_t i = 0; i < n; i++)
        *(char **)(buf + order[i] * 64) = buf + order[(i + 1) % n] * 64;
    free(order);
    char **p = (char **)buf;
    /* calibrate a window to ~seconds/20 */
    long loads = 1000;
    for (;;) {
        double t0 = now_s();
        for (long i = 0; i < loads; i++)
            p = (char **)*p;
        if (now_s() - t0 >= seconds / 200 || loads > (1l << 40))
            break;
        loads *= 2;
    }
    loads *= 10;
    double best = 1e30;
    for (int w = 0; w < 20; w++) {
        double t0 = now_s();
        for (long i = 0; i < loads; i++)
            p = (char **)*p;
        double ns = (now_s() - t0) * 1e9 / (double)loads;
        if (ns < best)
            best = ns;
    }
    __asm__ __volatile__("" : : "r"(p) : "memory");
    printf("ns_per_load %.2f\n", best);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && !strcmp(argv[1], "stream"))
        return stream(strtoull(argv[2], NULL, 0), atoi(argv[3]), atoi(argv[4]),
                      argc > 5 && !strcmp(argv[5], "thp"));
    if (argc >= 4 && !strcmp(argv[1], "chase"))
        return chase(strtoull(argv[2], NULL, 0), atof(argv[3]),
                     argc > 4 && !strcmp(argv[4], "thp"));
    fprintf(stderr, "usage: memref stream ARRAY_BYTES THREADS PASSES [thp|nothp] | "
                    "memref chase BYTES SECONDS [thp|nothp]\n");
    return 2;
}
