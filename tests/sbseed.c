/*
 * LD_PRELOAD shim for Debian's sysbench 1.0.20 in tests/oltp.sh: pins the seed of
 * sysbench.rand.unique(). sb_rand_init draws that seed with random() before sysbench's own
 * srandom(--rand-seed), and Debian's LuaJIT has by then seeded random() from the time of day
 * (str_hash_init_sse42, at load). Here LuaJIT's srandom() becomes srandom($SB_UNIQUE_SEED) and
 * its random() calls draw from a stream of their own, so sb_rand_init's draws are those of
 * srandom(seed): the path bench takes from --rand-seed (rnd_unique_seed). Test code only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static int from_luajit(const void *ret)
{
    Dl_info di;
    return dladdr(ret, &di) && di.dli_fname && strstr(di.dli_fname, "luajit");
}

void srandom(unsigned seed)
{
    void (*real)(unsigned) = (void (*)(unsigned))dlsym(RTLD_NEXT, "srandom");
    const char *s = getenv("SB_UNIQUE_SEED");
    if (s && from_luajit(__builtin_return_address(0)))
        seed = (unsigned)strtoul(s, NULL, 10);
    real(seed);
}

long random(void)
{
    static unsigned own = 1;
    long (*real)(void) = (long (*)(void))dlsym(RTLD_NEXT, "random");
    if (getenv("SB_UNIQUE_SEED") && from_luajit(__builtin_return_address(0)))
        return (long)(rand_r(&own) & 0x7fffffff);
    return real();
}
