/* Host facts (os_host_facts, os_dir_facts, os_steal_*): fake /proc and /sys trees built in a
 * temporary directory, every fact checked exactly; random bytes fed to every parser; one live
 * look at this machine (sane, not exact). Included by tests/unit.c. */
#include <ftw.h>

/* mkdir -p of the directory part of root+path */
static int t_host_mkdirs(const char *root, const char *path)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s%s", root, path);
    for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
        *s = 0;
        if (mkdir(p, 0755) < 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return 0;
}

/* write text to root+path, creating its directories */
static int t_host_put(const char *root, const char *path, const char *text)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s%s", root, path);
    if (t_host_mkdirs(root, path) < 0)
        return -1;
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* symlink root+path -> target (relative targets stay inside the tree) */
static int t_host_link(const char *root, const char *path, const char *target)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s%s", root, path);
    if (t_host_mkdirs(root, path) < 0)
        return -1;
    return symlink(target, p);
}

static int t_host_rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void t_host_rm(const char *root)
{
    nftw(root, t_host_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* fact checks: exact value, or absent */
static bool t_host_int(const struct res *r, const char *key, i64 v)
{
    const struct res_fact *f = res_fact(r, key);
    if (!f || f->type != RES_INT || f->i != v) {
        fprintf(stderr, "  %s: want %lld, have %s %lld\n", key, (long long)v,
                f ? "" : "(absent)", f ? (long long)f->i : 0LL);
        return false;
    }
    return true;
}

static bool t_host_num(const struct res *r, const char *key, double v)
{
    const struct res_fact *f = res_fact(r, key);
    if (!f || f->type != RES_NUM || fabs(f->num - v) > 1e-9) {
        fprintf(stderr, "  %s: want %g, have %s %g\n", key, v, f ? "" : "(absent)",
                f ? f->num : 0.0);
        return false;
    }
    return true;
}

static bool t_host_bool(const struct res *r, const char *key, bool v)
{
    const struct res_fact *f = res_fact(r, key);
    if (!f || f->type != RES_BOOL || (f->i != 0) != v) {
        fprintf(stderr, "  %s: want %d, have %s\n", key, v, f ? (f->i ? "1" : "0") : "(absent)");
        return false;
    }
    return true;
}

static bool t_host_str(const struct res *r, const char *key, const char *v)
{
    const struct res_fact *f = res_fact(r, key);
    if (!f || f->type != RES_STR || strcmp(f->str, v)) {
        fprintf(stderr, "  %s: want '%s', have '%s'\n", key, v,
                f && f->type == RES_STR ? f->str : "(absent)");
        return false;
    }
    return true;
}

static bool t_host_absent(const struct res *r, const char *key)
{
    if (res_fact(r, key)) {
        fprintf(stderr, "  %s: want absent\n", key);
        return false;
    }
    return true;
}

/* A 2-socket, 8-core, 16-thread Xeon (4 cores x 2 threads per socket), AES and AVX2, THP
 * madvise, 2 NUMA nodes, cgroup v2 with 1.5 CPUs and 2 GiB, in docker; /data is ext4 on LVM
 * (dm-1) on dm-crypt (dm-0) on nvme0n1p2. */
static int t_host_xeon_tree(const char *root)
{
    struct buf ci = {0};
    char p[160], v[32];
    int rc = 0;
    for (int i = 0; i < 16; i++) {
        int pkg = i / 8, core = i % 4;
        buf_printf(&ci, "processor\t: %d\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
                        "model name\t: Intel(R) Xeon(R) Gold 6134 CPU @ 3.20GHz\n"
                        "physical id\t: %d\nsiblings\t: 8\ncore id\t\t: %d\ncpu cores\t: 4\n"
                        "flags\t\t: fpu vme de pse tsc msr pae sse sse2 ssse3 sse4_1 sse4_2 "
                        "aes xsave avx f16c avx2 bmi2 erms\n\n",
                   i, pkg, core);
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", i);
        snprintf(v, sizeof(v), "%d\n", pkg);
        rc |= t_host_put(root, p, v);
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/core_id", i);
        snprintf(v, sizeof(v), "%d\n", core);
        rc |= t_host_put(root, p, v);
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/die_id", i);
        rc |= t_host_put(root, p, "0\n");
    }
    rc |= t_host_put(root, "/proc/cpuinfo", ci.p);
    buf_free(&ci);
    rc |= t_host_put(root, "/sys/devices/system/cpu/online", "0-15\n");
    rc |= t_host_put(root, "/sys/devices/system/cpu/possible", "0-15\n");
    static const char *const cache[][4] = {
        {"0", "1", "Data", "32K"},        {"1", "1", "Instruction", "32K"},
        {"2", "2", "Unified", "1024K"},   {"3", "3", "Unified", "25344K"}};
    for (size_t i = 0; i < countof(cache); i++) {
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%s/level", cache[i][0]);
        rc |= t_host_put(root, p, cache[i][1]);
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%s/type", cache[i][0]);
        rc |= t_host_put(root, p, cache[i][2]);
        snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cache/index%s/size", cache[i][0]);
        rc |= t_host_put(root, p, cache[i][3]);
    }
    rc |= t_host_put(root, "/sys/devices/system/node/online", "0-1\n");
    rc |= t_host_put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
                     "performance\n");
    rc |= t_host_put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "intel_pstate\n");
    rc |= t_host_put(root, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "3700000\n");
    rc |= t_host_put(root, "/proc/meminfo",
                     "MemTotal:       196608000 kB\nMemFree:        100000000 kB\n"
                     "MemAvailable:   150000000 kB\nSwapTotal:        8388604 kB\n"
                     "SwapFree:         8388604 kB\nHugePages_Total:     512\n"
                     "HugePages_Free:      512\nHugepagesize:       2048 kB\n");
    rc |= t_host_put(root, "/sys/kernel/mm/transparent_hugepage/enabled",
                     "always [madvise] never\n");
    rc |= t_host_put(root, "/proc/sys/vm/swappiness", "1\n");
    rc |= t_host_put(root, "/proc/sys/vm/dirty_ratio", "20\n");
    rc |= t_host_put(root, "/proc/sys/vm/dirty_background_ratio", "10\n");
    rc |= t_host_put(root, "/proc/sys/kernel/osrelease", "5.15.0-91-generic\n");
    rc |= t_host_put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
                     "tsc\n");
    rc |= t_host_put(root, "/sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
    rc |= t_host_put(root, "/sys/class/dmi/id/product_name", "PowerEdge R640\n");
    rc |= t_host_put(root, "/.dockerenv", "");
    rc |= t_host_put(root, "/proc/self/cgroup", "0::/\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/cpu.max", "150000 100000\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/memory.max", "2147483648\n");
    rc |= t_host_put(root, "/proc/stat",
                     "cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 50 0 25 400 5 0 0 20 0 0\n"
                     "intr 12345\nctxt 999\n");
    /* mounts: / on nvme0n1p1, /data on dm-1, /data/tmp tmpfs, /dat (a prefix of /data's
     * name, not a parent), "/mnt/my disk" read-only, /data mounted over once more (on top) */
    rc |= t_host_put(root, "/proc/self/mountinfo",
                     "21 1 259:1 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p1 rw\n"
                     "30 21 253:1 / /data rw,relatime shared:5 - xfs /dev/mapper/old rw\n"
                     "31 21 0:40 / /dat rw - tmpfs tmpfs rw,size=1024k\n"
                     "32 30 253:1 / /data rw,noatime shared:6 master:2 - ext4 "
                     "/dev/mapper/vg0-data rw,data=ordered\n"
                     "33 32 0:41 / /data/tmp rw,nosuid - tmpfs tmpfs rw,size=65536k\n"
                     "34 21 259:1 /mnt /mnt/my\\040disk ro,relatime - ext4 /dev/nvme0n1p1 rw\n");
    const char *nv = "/sys/devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1";
    rc |= t_host_link(root, "/sys/dev/block/253:1", "../../devices/virtual/block/dm-1");
    rc |= t_host_link(root, "/sys/dev/block/259:1",
                      "../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p1");
    rc |= t_host_link(root, "/sys/class/block/dm-1", "../../devices/virtual/block/dm-1");
    rc |= t_host_link(root, "/sys/class/block/dm-0", "../../devices/virtual/block/dm-0");
    rc |= t_host_link(root, "/sys/devices/virtual/block/dm-1/slaves/dm-0", "../../dm-0");
    rc |= t_host_link(root, "/sys/devices/virtual/block/dm-0/slaves/nvme0n1p2",
                      "../../../../pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p2");
    rc |= t_host_put(root, "/sys/devices/virtual/block/dm-1/queue/scheduler", "none\n");
    rc |= t_host_link(root, "/sys/class/block/nvme0n1p1",
                      "../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p1");
    rc |= t_host_link(root, "/sys/class/block/nvme0n1p2",
                      "../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p2");
    rc |= t_host_link(root, "/sys/class/block/nvme0n1",
                      "../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1");
    snprintf(p, sizeof(p), "%s/nvme0n1p1/partition", nv);
    rc |= t_host_put(root, p, "1\n");
    snprintf(p, sizeof(p), "%s/nvme0n1p2/partition", nv);
    rc |= t_host_put(root, p, "2\n");
    snprintf(p, sizeof(p), "%s/queue/scheduler", nv);
    rc |= t_host_put(root, p, "[none] mq-deadline kyber bfq\n");
    snprintf(p, sizeof(p), "%s/queue/rotational", nv);
    rc |= t_host_put(root, p, "0\n");
    snprintf(p, sizeof(p), "%s/queue/write_cache", nv);
    rc |= t_host_put(root, p, "write back\n");
    snprintf(p, sizeof(p), "%s/device", nv);
    rc |= t_host_link(root, p, "../../nvme0");
    rc |= t_host_put(root, "/sys/devices/pci0000:00/0000:00:1d.0/nvme/nvme0/model",
                     "Samsung SSD 980 PRO 1TB                 \n");
    return rc;
}

/* Every fact of r is a measure bench all's --expect takes (all_measures: bench all's JSON
 * carries the host facts; tests/all.sh checks the same on this host's). */
static bool t_host_all_known(const struct res *r)
{
    for (int i = 0; i < r->nfacts; i++)
        if (!all_measure_known(r->facts[i].key)) {
            fprintf(stderr, "  fact %s: not a measure of bench all (all_measures)\n",
                    r->facts[i].key);
            return false;
        }
    return true;
}

static int t_host_xeon(void)
{
    char root[] = "/tmp/bench-host.XXXXXX";
    struct res r;
    T_CHECK(mkdtemp(root));
    int made = t_host_xeon_tree(root);
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    int rc = made == 0 ? os_host_facts(root, &r) : -1;
    bool ok = made == 0 && rc == B_OK &&
              t_host_str(&r, "cpu_model", "Intel(R) Xeon(R) Gold 6134 CPU @ 3.20GHz") &&
              t_host_int(&r, "cpu_sockets", 2) && t_host_int(&r, "cpu_cores", 8) &&
              t_host_int(&r, "cpu_threads", 16) && t_host_int(&r, "cpus_online", 16) &&
              t_host_absent(&r, "cpus_usable") &&
              t_host_int(&r, "cache_l1d_bytes", 32768) &&
              t_host_int(&r, "cache_l2_bytes", 1048576) &&
              t_host_int(&r, "cache_l3_bytes", 25344 * 1024) && t_host_int(&r, "numa_nodes", 2) &&
              t_host_str(&r, "cpu_governor", "performance") &&
              t_host_str(&r, "cpu_freq_driver", "intel_pstate") &&
              t_host_int(&r, "cpu_mhz_max", 3700) && t_host_bool(&r, "cpu_aes", true) &&
              t_host_bool(&r, "cpu_avx2", true) && t_host_bool(&r, "cpu_avx512", false) &&
              t_host_int(&r, "mem_total_bytes", 196608000ll * 1024) &&
              t_host_int(&r, "mem_available_bytes", 150000000ll * 1024) &&
              t_host_int(&r, "hugepages_total", 512) &&
              t_host_int(&r, "hugepage_size_bytes", 2048 * 1024) &&
              t_host_int(&r, "swap_total_bytes", 8388604ll * 1024) &&
              t_host_int(&r, "swap_free_bytes", 8388604ll * 1024) &&
              t_host_str(&r, "thp_enabled", "madvise") && t_host_int(&r, "swappiness", 1) &&
              t_host_int(&r, "dirty_ratio", 20) && t_host_int(&r, "dirty_background_ratio", 10) &&
              t_host_str(&r, "kernel", "5.15.0-91-generic") &&
              t_host_str(&r, "clocksource", "tsc") && t_host_str(&r, "virtualization", "none") &&
              /* /.dockerenv with PID 1 in "/" on ext4: a marker, not a container */
              t_host_str(&r, "container", "none") &&
              t_host_str(&r, "container_marker",
                         "/.dockerenv present, PID 1 not in a container cgroup") &&
              t_host_int(&r, "cgroup_version", 2) &&
              t_host_num(&r, "cgroup_cpu_quota_cpus", 1.5) &&
              t_host_int(&r, "cgroup_memory_limit_bytes", 2147483648ll);
    if (ok && r.nfacts != 33) { /* every fact above, nothing else */
        fprintf(stderr, "  %d facts, want 33\n", r.nfacts);
        ok = false;
    }
    ok = ok && t_host_all_known(&r);
    res_free(&r);

    /* /data: the top mount of /data, the chain down to the disk */
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_dir_facts(root, "/data/db/../db/./", &r) == B_OK &&
         t_host_str(&r, "dir_path", "/data/db") && t_host_str(&r, "fs_type", "ext4") &&
         t_host_str(&r, "fs_source", "/dev/mapper/vg0-data") &&
         t_host_str(&r, "mount_point", "/data") &&
         t_host_str(&r, "mount_options", "rw,noatime") &&
         t_host_str(&r, "fs_options", "rw,data=ordered") && t_host_bool(&r, "fs_tmpfs", false) &&
         t_host_bool(&r, "fs_readonly", false) && t_host_str(&r, "block_device", "dm-1") &&
         t_host_str(&r, "block_chain", "dm-1 -> dm-0 -> nvme0n1p2 -> nvme0n1") &&
         t_host_str(&r, "disk", "nvme0n1") && t_host_str(&r, "disk_scheduler", "none") &&
         t_host_bool(&r, "disk_rotational", false) &&
         t_host_str(&r, "disk_write_cache", "write back") &&
         t_host_str(&r, "disk_model", "Samsung SSD 980 PRO 1TB") &&
         t_host_absent(&r, "fs_free_bytes") && t_host_all_known(&r);
    res_free(&r);
    /* /data/tmp/x: tmpfs, no block device; /datum: under /, not /dat */
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_dir_facts(root, "/data/tmp/x", &r) == B_OK &&
         t_host_str(&r, "fs_type", "tmpfs") && t_host_bool(&r, "fs_tmpfs", true) &&
         t_host_str(&r, "mount_point", "/data/tmp") && t_host_absent(&r, "block_device");
    res_free(&r);
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_dir_facts(root, "/datum", &r) == B_OK && t_host_str(&r, "mount_point", "/") &&
         t_host_str(&r, "block_chain", "nvme0n1p1 -> nvme0n1") &&
         t_host_str(&r, "fs_options", "rw");
    res_free(&r);
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_dir_facts(root, "/mnt/my disk/x", &r) == B_OK &&
         t_host_str(&r, "mount_point", "/mnt/my disk") && t_host_bool(&r, "fs_readonly", true);
    res_free(&r);
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_dir_facts(root, "relative", &r) == B_INVALID && r.err.msg[0];
    res_free(&r);

    /* steal: 140 of 1000 ticks */
    struct os_cpu_sample a, b;
    ok = ok && os_steal_sample(root, &a) == B_OK && a.total_ticks == 1000 && a.steal_ticks == 40;
    ok = ok && t_host_put(root, "/proc/stat", "cpu  200 0 100 1500 20 0 0 180 0 0\n") == 0 &&
         os_steal_sample(root, &b) == B_OK && fabs(os_steal_pct(&a, &b) - 14.0) < 1e-9 &&
         os_steal_pct(&b, &a) == 0 && os_steal_pct(&a, &a) == 0;
    ok = ok && t_host_put(root, "/proc/stat", "cpu0 1 2 3 4\n") == 0 &&
         os_steal_sample(root, &b) == B_INVALID;
    t_host_rm(root);
    T_CHECK(ok);
    return 0;
}

/* A KVM guest (OpenStack DMI) with cgroup v1 in kubernetes: no sysfs topology (cpuinfo
 * counts instead), AVX-512, THP always, limits on an ancestor of our cgroup, odd files. */
static int t_host_kvm(void)
{
    char root[] = "/tmp/bench-host.XXXXXX";
    struct res r;
    T_CHECK(mkdtemp(root));
    struct buf ci = {0};
    for (int i = 0; i < 4; i++)
        buf_printf(&ci, "processor\t: %d\nmodel name\t: Intel Xeon Processor (Cascadelake)\n"
                        "physical id\t: 0\nsiblings\t: 4\ncpu cores\t: 2\n"
                        "flags\t\t: fpu sse2 hypervisor aes avx avx2 avx512f avx512dq\n\n",
                   i);
    int rc = t_host_put(root, "/proc/cpuinfo", ci.p);
    buf_free(&ci);
    rc |= t_host_put(root, "/sys/devices/system/cpu/online", "0-1,3\n");
    rc |= t_host_put(root, "/proc/meminfo", "MemTotal:        8000000 kB\nSwapTotal:  0 kB\n"
                                            "HugePages_Total: x\n");
    rc |= t_host_put(root, "/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never");
    rc |= t_host_put(root, "/proc/sys/vm/swappiness", "abc\n");        /* malformed: absent */
    rc |= t_host_put(root, "/proc/sys/vm/dirty_background_ratio", ""); /* empty: absent */
    rc |= t_host_put(root, "/proc/sys/kernel/osrelease", "4.18.0-513.el8.x86_64\n");
    rc |= t_host_put(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
                     "kvm-clock\n");
    rc |= t_host_put(root, "/sys/class/dmi/id/sys_vendor", "OpenStack Foundation\n");
    rc |= t_host_put(root, "/sys/class/dmi/id/product_name", "OpenStack Nova\n");
    rc |= t_host_put(root, "/proc/self/cgroup",
                     "12:memory:/kubepods/burstable/pod1/c1\n"
                     "4:cpu,cpuacct:/kubepods/burstable/pod1/c1\n1:name=systemd:/x\n");
    /* cpu: our path is not visible (the container's own cgroup is the mount's root) */
    rc |= t_host_put(root, "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "200000\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    /* memory: visible; unlimited at our level, 4 GiB on the pod */
    rc |= t_host_put(root, "/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/memory/kubepods/burstable/pod1/c1/memory.limit_in_bytes",
                     "9223372036854771712\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/memory/kubepods/burstable/pod1/memory.limit_in_bytes",
                     "4294967296\n");
    rc |= t_host_put(root, "/proc/self/mountinfo",
                     "100 90 0:52 / / rw,relatime - overlay overlay rw,lowerdir=/a:/b\n"
                     "101 100 0:53 / /proc rw - proc proc rw\n");
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    bool ok = rc == 0 && os_host_facts(root, &r) == B_OK &&
              t_host_str(&r, "cpu_model", "Intel Xeon Processor (Cascadelake)") &&
              t_host_int(&r, "cpu_sockets", 1) && t_host_int(&r, "cpu_cores", 2) &&
              t_host_int(&r, "cpu_threads", 4) && t_host_int(&r, "cpus_online", 3) &&
              t_host_absent(&r, "cache_l1d_bytes") && t_host_absent(&r, "numa_nodes") &&
              t_host_absent(&r, "cpu_governor") && t_host_absent(&r, "cpu_mhz_max") &&
              t_host_bool(&r, "cpu_aes", true) && t_host_bool(&r, "cpu_avx2", true) &&
              t_host_bool(&r, "cpu_avx512", true) &&
              t_host_int(&r, "mem_total_bytes", 8000000ll * 1024) &&
              t_host_absent(&r, "mem_available_bytes") && t_host_absent(&r, "hugepages_total") &&
              t_host_int(&r, "swap_total_bytes", 0) && t_host_str(&r, "thp_enabled", "always") &&
              t_host_absent(&r, "swappiness") && t_host_absent(&r, "dirty_ratio") &&
              t_host_absent(&r, "dirty_background_ratio") &&
              t_host_str(&r, "kernel", "4.18.0-513.el8.x86_64") &&
              t_host_str(&r, "clocksource", "kvm-clock") &&
              t_host_str(&r, "virtualization", "kvm") &&
              t_host_str(&r, "container", "kubernetes") && t_host_int(&r, "cgroup_version", 1) &&
              t_host_num(&r, "cgroup_cpu_quota_cpus", 2.0) &&
              t_host_int(&r, "cgroup_memory_limit_bytes", 4294967296ll);
    res_free(&r);
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_dir_facts(root, "/var/lib/mysql", &r) == B_OK &&
         t_host_str(&r, "fs_type", "overlay") && t_host_str(&r, "mount_point", "/") &&
         t_host_absent(&r, "block_device") && t_host_bool(&r, "fs_readonly", false);
    res_free(&r);
    /* the marker with PID 1 in a docker cgroup (ours elsewhere): docker, no marker note */
    ok = ok && t_host_put(root, "/.dockerenv", "") == 0 &&
         t_host_put(root, "/proc/1/cgroup", "0::/system.slice/docker-4f1e.scope\n") == 0 &&
         t_host_put(root, "/proc/self/cgroup", "0::/\n") == 0;
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_host_facts(root, &r) == B_OK && t_host_str(&r, "container", "docker") &&
         t_host_absent(&r, "container_marker");
    res_free(&r);
    /* the marker, PID 1 in "/" (a cgroup namespace) on overlayfs: docker */
    ok = ok && t_host_put(root, "/proc/1/cgroup", "0::/\n") == 0 &&
         t_host_put(root, "/proc/1/mountinfo",
                    "100 90 0:52 / / rw,relatime - overlay overlay rw,lowerdir=/a\n") == 0;
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_host_facts(root, &r) == B_OK && t_host_str(&r, "container", "docker");
    res_free(&r);
    /* a container marker and a manager's own word, and an EC2 bare-metal box */
    ok = ok && t_host_put(root, "/run/.containerenv", "") == 0 &&
         t_host_put(root, "/proc/self/cgroup", "0::/\n") == 0 &&
         t_host_put(root, "/sys/class/dmi/id/sys_vendor", "Amazon EC2\n") == 0 &&
         t_host_put(root, "/sys/class/dmi/id/product_name", "m5.metal\n") == 0;
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_host_facts(root, &r) == B_OK && t_host_str(&r, "container", "podman") &&
         t_host_str(&r, "virtualization", "none");
    res_free(&r);
    ok = ok && t_host_put(root, "/run/systemd/container", "systemd-nspawn\n") == 0 &&
         t_host_put(root, "/sys/class/dmi/id/product_name", "m5.large\n") == 0;
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_host_facts(root, &r) == B_OK && t_host_str(&r, "container", "systemd-nspawn") &&
         t_host_str(&r, "virtualization", "amazon");
    res_free(&r);
    /* an empty tree: facts absent, never a failure */
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    ok = ok && os_host_facts("/nonexistent-bench-root", &r) == B_OK &&
         t_host_str(&r, "virtualization", "none") && t_host_str(&r, "container", "none") &&
         r.nfacts == 2 && os_dir_facts("/nonexistent-bench-root", "/x", &r) == B_OK &&
         t_host_bool(&r, "fs_readonly", false);
    res_free(&r);
    t_host_rm(root);
    T_CHECK(ok);
    return 0;
}

/* The second-signal rule (issue 28): the same sender within OS_SIGNAL_GRACE_MS is the same
 * request (timeout(1): the child, then its group); another sender, or the grace past, is a
 * second one. The word packs the first signal's time (ms + 1) over its sender's pid. */
static int t_host_signal_again(void)
{
    u64 first = ((u64)(10000 + 1) << 22) | 4242; /* pid 4242 at 10,000 ms */
    T_CHECK(!os_signal_again(first, 4242, 10000));
    T_CHECK(!os_signal_again(first, 4242, 10000 + OS_SIGNAL_GRACE_MS - 1));
    T_CHECK(os_signal_again(first, 4242, 10000 + OS_SIGNAL_GRACE_MS));
    T_CHECK(os_signal_again(first, 4243, 10000));
    T_CHECK(os_signal_again(first, 0, 10000)); /* the terminal's Ctrl-C after a kill(1) */
    u64 tty = (u64)(0 + 1) << 22;              /* Ctrl-C (the kernel: pid 0) at 0 ms */
    T_CHECK(!os_signal_again(tty, 0, 100) && os_signal_again(tty, 0, 600));
    return 0;
}

/* The CPUID signatures, and the small parsers on their edge cases. */
/* The memory room under a cgroup limit (issue 28): v2 nested (the parent's limit is the
 * tighter: 256 MiB less 120 MiB used, 20 MiB of it inactive page cache, leaves 156 MiB; the
 * child's own 1 GiB less 100 MiB used leaves 924 MiB), v1 (total_inactive_file), no limit. */
static int t_host_cgroom(void)
{
    char root[] = "/tmp/bench-cgroom.XXXXXX";
    double room = 0, lim = 0;
    const double mib = 1048576;
    int rc = 0;
    T_CHECK(mkdtemp(root));
    rc |= t_host_put(root, "/proc/self/cgroup", "0::/pod/app\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/memory.max", "max\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/pod/memory.max", "268435456\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/pod/memory.current", "125829120\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/pod/memory.stat",
                     "anon 104857600\nfile 20971520\nactive_file 0\ninactive_file 20971520\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/pod/app/memory.max", "1073741824\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/pod/app/memory.current", "104857600\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/pod/app/memory.stat", "inactive_file 0\n");
    bool ok = rc == 0 && os_cg_mem_room(root, &room, &lim) && room == 156 * mib &&
              lim == 256 * mib;
    t_host_rm(root);
    T_CHECK(ok);
    T_CHECK(mkdtemp(strcpy(root, "/tmp/bench-cgroom.XXXXXX")));
    rc |= t_host_put(root, "/proc/self/cgroup", "4:memory:/kubepods/pod1\n3:cpu:/\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/memory/kubepods/pod1/memory.limit_in_bytes",
                     "50331648\n");
    rc |= t_host_put(root, "/sys/fs/cgroup/memory/kubepods/pod1/memory.usage_in_bytes",
                     "60000000\n"); /* the inactive cache (20 MB) is not counted */
    rc |= t_host_put(root, "/sys/fs/cgroup/memory/kubepods/pod1/memory.stat",
                     "cache 1\ntotal_inactive_file 20000000\ninactive_file 5\n");
    ok = rc == 0 && os_cg_mem_room(root, &room, &lim) && room == 50331648.0 - 40000000.0 &&
         lim == 50331648.0;
    rc |= t_host_put(root, "/sys/fs/cgroup/memory/kubepods/pod1/memory.limit_in_bytes",
                     "9223372036854771712\n");
    ok = ok && rc == 0 && !os_cg_mem_room(root, &room, &lim); /* no limit anywhere */
    t_host_rm(root);
    T_CHECK(ok);
    return 0;
}

/* ARM hosts: MIDR decoding from the fixture cpuinfo files (tests/fixtures/cpuinfo), the
 * features of their Features line, no x86 facts; sysfs's midr_el1 wins over cpuinfo. */
static int t_host_arm_one(const char *fixture, const char *midr_el1, const char *model,
                          const char *midr, bool aes, bool lse, bool sve, int threads)
{
    char root[] = "/tmp/bench-host.XXXXXX", path[PATH_MAX];
    struct res r;
    T_CHECK(mkdtemp(root));
    snprintf(path, sizeof(path), "tests/fixtures/cpuinfo/%s", fixture);
    FILE *f = fopen(path, "r");
    char text[16384];
    size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = 0;
    int made = n > 0 ? t_host_put(root, "/proc/cpuinfo", text) : -1;
    if (midr_el1)
        made |= t_host_put(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
                           midr_el1);
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    bool ok = made == 0 && os_host_facts(root, &r) == B_OK && t_host_str(&r, "cpu_model", model) &&
              t_host_str(&r, "cpu_midr", midr) && t_host_bool(&r, "cpu_aes", aes) &&
              t_host_bool(&r, "cpu_lse", lse) && t_host_bool(&r, "cpu_sve", sve) &&
              t_host_absent(&r, "cpu_avx2") && t_host_absent(&r, "cpu_avx512") &&
              t_host_int(&r, "cpu_threads", threads) && t_host_absent(&r, "isa") &&
              t_host_absent(&r, "page_size_bytes") && t_host_absent(&r, "compiler");
    if (!ok)
        fprintf(stderr, "  (fixture %s)\n", fixture);
    res_free(&r);
    t_host_rm(root);
    T_CHECK(ok);
    return 0;
}

static int t_host_arm(void)
{
    T_CHECK(!t_host_arm_one("graviton2.txt", NULL, "ARM Neoverse N1", "0x413fd0c1", true, true,
                            false, 2));
    T_CHECK(!t_host_arm_one("graviton3.txt", NULL, "ARM Neoverse V1", "0x411fd401", true, true,
                            true, 4));
    T_CHECK(!t_host_arm_one("rpi4.txt", NULL, "ARM Cortex-A72", "0x410fd083", false, false,
                            false, 4));
    /* big.LITTLE: cpu0 (an Icestorm) names the machine, as sysfs's cpu0 would */
    T_CHECK(!t_host_arm_one("apple-m1.txt", NULL, "Apple M1 (Icestorm)", "0x611f0221", true,
                            true, false, 8));
    T_CHECK(!t_host_arm_one("ampere-one.txt", NULL, "Ampere Ampere-1", "0xc00fac30", true, true,
                            false, 2));
    /* Azure Cobalt 100: sysfs's register (implementer Microsoft) over cpuinfo's fields */
    T_CHECK(!t_host_arm_one("graviton2.txt", "0x000000006d0fd490\n",
                            "Microsoft Azure Cobalt 100 (Neoverse N2)", "0x6d0fd490", true, true,
                            false, 2));
    char b[96];
    T_CHECK(!strcmp(os_midr_name(0x410fd4f0u, b, sizeof(b)), "ARM Neoverse V2"));
    T_CHECK(!strcmp(os_midr_name(0x410fd490u, b, sizeof(b)), "ARM Neoverse N2"));
    T_CHECK(!strcmp(os_midr_name(0x410fd0b0u, b, sizeof(b)), "ARM Cortex-A76"));
    T_CHECK(!strcmp(os_midr_name(0x410fd990u, b, sizeof(b)), "ARM part 0xd99"));
    T_CHECK(!strcmp(os_midr_name(0x7a0f0010u, b, sizeof(b)), "implementer 0x7a part 0x001"));
    /* an x86 cpuinfo stays x86: no MIDR, the model name line */
    struct os_cpuinfo ci;
    os_parse_cpuinfo("processor\t: 0\nmodel name\t: AMD EPYC\nflags\t: fpu aes avx2\n", &ci);
    T_CHECK(!ci.arm && ci.midr == 0 && !strcmp(ci.model, "AMD EPYC") && ci.aes && ci.avx2);
    /* hostile fields: not a number of the field's width, no MIDR made of it (was 0x000fd0c0
     * "implementer 0x00" from "0xzz", 0xff from "-1", ARM Neoverse N1 from "0x141") */
    static const char *const bad[] = {"0xzz", "-1", "0x141", "0x41x", ""};
    for (size_t i = 0; i < countof(bad); i++) {
        char t[128];
        snprintf(t, sizeof(t), "processor\t: 0\nCPU implementer\t: %s\nCPU part\t: 0xd0c\n", bad[i]);
        os_parse_cpuinfo(t, &ci);
        T_CHECK(!ci.arm);
    }
    os_parse_cpuinfo("processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0x1d0c\n", &ci);
    T_CHECK(ci.arm && ci.midr == 0x410f0000u); /* the part out of its 12 bits: not taken */
    os_parse_cpuinfo("processor : 0\nCPU implementer : 65\nCPU part : 3340\r\n", &ci);
    T_CHECK(ci.arm && ci.midr == 0x410fd0c0u); /* decimal, CR LF */
    return 0;
}

/* os_fallback: ENOSYS (no such call) and EPERM (a policy) are kernel fallbacks, the first
 * errno kept and the ways gathered; ENOMEM and EMFILE (this process's limits) are none. The
 * facts "fallbacks" and "fallback_io_uring", and the header's line per call (rep_fallbacks):
 * the errno's meaning and only the ways taken (was "refused: sync file I/O, event loops on
 * epoll" for any command, whatever the errno). The process-wide set is restored after. */
static void t_host_fallback_call(void *arg)
{
    rep_fallbacks(arg);
}

/* os_fallback_why: the running kernel's MAJOR.MINOR against the call's (statx 4.11, io_uring
 * 5.1), both sides of each boundary; a release not read as MAJOR.MINOR says so; EPERM is a
 * policy whatever the kernel */
static int t_host_fallback_why(void)
{
    static const struct {
        int which, err;
        const char *release, *want;
    } c[] = {
        {OS_FB_IO_URING, ENOSYS, "3.10.0-1160.el7.x86_64",
         "the kernel has no io_uring (Linux 5.1; this is 3.10.0-1160.el7.x86_64)"},
        {OS_FB_IO_URING, ENOSYS, "5.0.21", "the kernel has no io_uring (Linux 5.1; this is 5.0.21)"},
        {OS_FB_IO_URING, ENOSYS, "4.99", "the kernel has no io_uring (Linux 5.1; this is 4.99)"},
        {OS_FB_IO_URING, ENOSYS, "5.1.0",
         "refused with ENOSYS on Linux 5.1 (a sandbox's filter, or a kernel built without it)"},
        {OS_FB_IO_URING, ENOSYS, "6.18.44-fc-v1300",
         "refused with ENOSYS on Linux 6.18 (a sandbox's filter, or a kernel built without it)"},
        {OS_FB_IO_URING, ENOSYS, "10.0",
         "refused with ENOSYS on Linux 10.0 (a sandbox's filter, or a kernel built without it)"},
        {OS_FB_STATX, ENOSYS, "4.10.17", "the kernel has no statx (Linux 4.11; this is 4.10.17)"},
        {OS_FB_STATX, ENOSYS, "4.11.0",
         "refused with ENOSYS on Linux 4.11 (a sandbox's filter, or a kernel built without it)"},
        {OS_FB_STATX, ENOSYS, "4.18.0-553.el8_10.x86_64",
         "refused with ENOSYS on Linux 4.18 (a sandbox's filter, or a kernel built without it)"},
        {OS_FB_IO_URING, ENOSYS, "", "refused with ENOSYS (Linux 5.1; this kernel's release unread: \"\")"},
        {OS_FB_IO_URING, ENOSYS, "linux-6.1",
         "refused with ENOSYS (Linux 5.1; this kernel's release unread: \"linux-6.1\")"},
        {OS_FB_IO_URING, ENOSYS, "6", "refused with ENOSYS (Linux 5.1; this kernel's release unread: \"6\")"},
        {OS_FB_IO_URING, ENOSYS, "6.", "refused with ENOSYS (Linux 5.1; this kernel's release unread: \"6.\")"},
        {OS_FB_IO_URING, ENOSYS, ".18", "refused with ENOSYS (Linux 5.1; this kernel's release unread: \".18\")"},
        {OS_FB_IO_URING, ENOSYS, "99999999999.1",
         "refused with ENOSYS (Linux 5.1; this kernel's release unread: \"99999999999.1\")"},
        {OS_FB_IO_URING, EPERM, "3.10.0",
         "refused by policy (seccomp, container or io_uring_disabled)"},
        {OS_FB_STATX, EPERM, "6.18.44", "refused by policy (seccomp, container)"},
    };
    char out[256];
    for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
        os_fallback_why(out, sizeof(out), c[i].which, c[i].err, c[i].release);
        if (strcmp(out, c[i].want))
            fprintf(stderr, "    \"%s\": \"%s\", want \"%s\"\n", c[i].release, out, c[i].want);
        T_CHECK(!strcmp(out, c[i].want));
    }
    return 0;
}

static int t_host_fallback(void)
{
    static const char *const kv[] = {NULL};
    unsigned taken = atomic_load(&os_fb_taken), ways[OS_FB_N];
    int errs[OS_FB_N];
    struct bench_opts o;
    struct res res;
    char out[1024];
    T_CHECK(t_opts(&o, kv) == 0);
    o.persona = B_BENCH;
    for (int i = 0; i < OS_FB_N; i++) {
        ways[i] = atomic_exchange(&os_fb_ways[i], 0u);
        errs[i] = atomic_exchange(&os_fb_errno[i], 0);
    }
    atomic_store(&os_fb_taken, 0u);
    T_CHECK(!os_fallback(OS_FB_IO_URING, ENOMEM, OS_FB_W_SYNC_IO));
    T_CHECK(!os_fallback(OS_FB_IO_URING, EMFILE, OS_FB_W_EPOLL));
    res_init(&res, wl_find("fileio"), "run", &o, NULL);
    os_fallback_fact(&res);
    T_CHECK(!res_fact(&res, "fallbacks") && !res_fact(&res, "fallback_io_uring"));
    T_CHECK(t_capture(t_host_fallback_call, &res, out, sizeof(out)) == 0 && !*out);
    res_free(&res);
    /* EPERM, fileio's way: one line, the policy's */
    T_CHECK(os_fallback(OS_FB_IO_URING, EPERM, OS_FB_W_SYNC_IO));
    res_init(&res, wl_find("fileio"), "run", &o, NULL);
    os_fallback_fact(&res);
    T_CHECK(!strcmp(rep_fact_str(&res, "fallback_io_uring"), "EPERM: sync file I/O"));
    T_CHECK(t_capture(t_host_fallback_call, &res, out, sizeof(out)) == 0);
    T_CHECK(!strcmp(out, "Kernel fallback: io_uring: refused by policy (seccomp, container or "
                         "io_uring_disabled): sync file I/O\n"));
    res_free(&res);
    /* then ENOSYS (the first errno stays) and the loops' way; statx by ENOSYS */
    T_CHECK(os_fallback(OS_FB_IO_URING, ENOSYS, OS_FB_W_EPOLL));
    T_CHECK(os_fallback(OS_FB_STATX, ENOSYS, OS_FB_W_FILE_ID));
    res_init(&res, wl_find("fileio"), "run", &o, NULL);
    os_fallback_fact_on(&res, "3.10.0-1160.el7.x86_64");
    T_CHECK(!strcmp(rep_fact_str(&res, "fallbacks"), "statx, io_uring"));
    T_CHECK(!strcmp(rep_fact_str(&res, "fallback_io_uring"),
                    "EPERM: sync file I/O, event loops on epoll"));
    T_CHECK(t_capture(t_host_fallback_call, &res, out, sizeof(out)) == 0);
    T_CHECK(!strcmp(out, "Kernel fallback: statx: the kernel has no statx (Linux 4.11; this is "
                         "3.10.0-1160.el7.x86_64): fileio's "
                         "test files known by device, inode and size, no birth time\n"
                         "Kernel fallback: io_uring: refused by policy (seccomp, container or "
                         "io_uring_disabled): sync file I/O, event loops on epoll\n"));
    res_free(&res);
    /* ENOSYS below 5.1: the kernel has none; at 6.18: a sandbox's filter (was "the kernel has
     * no io_uring" for any ENOSYS: podman's and containerd's seccomp profiles answer ENOSYS) */
    atomic_store(&os_fb_errno[OS_FB_IO_URING], 0);
    atomic_store(&os_fb_ways[OS_FB_IO_URING], 0u);
    T_CHECK(os_fallback(OS_FB_IO_URING, ENOSYS, OS_FB_W_EPOLL));
    res_init(&res, wl_find("fileio"), "run", &o, NULL);
    os_fallback_fact_on(&res, "4.18.0-553.el8_10.x86_64");
    T_CHECK(!strcmp(rep_fact_str(&res, "fallback_io_uring_why"),
                    "the kernel has no io_uring (Linux 5.1; this is 4.18.0-553.el8_10.x86_64)"));
    T_CHECK(t_capture(t_host_fallback_call, &res, out, sizeof(out)) == 0);
    T_CHECK(strstr(out, "\nKernel fallback: io_uring: the kernel has no io_uring (Linux 5.1; "
                        "this is 4.18.0-553.el8_10.x86_64): event loops on epoll\n"));
    res_free(&res);
    res_init(&res, wl_find("fileio"), "run", &o, NULL);
    os_fallback_fact_on(&res, "6.18.44-fc-v1300");
    T_CHECK(t_capture(t_host_fallback_call, &res, out, sizeof(out)) == 0);
    T_CHECK(!strcmp(out, "Kernel fallback: statx: refused with ENOSYS on Linux 6.18 (a sandbox's "
                         "filter, or a kernel built without it): fileio's test files known by "
                         "device, inode and size, no birth time\n"
                         "Kernel fallback: io_uring: refused with ENOSYS on Linux 6.18 (a "
                         "sandbox's filter, or a kernel built without it): event loops on epoll\n"));
    res_free(&res);
    for (int i = 0; i < OS_FB_N; i++) {
        atomic_store(&os_fb_ways[i], ways[i]);
        atomic_store(&os_fb_errno[i], errs[i]);
    }
    atomic_store(&os_fb_taken, taken);
    t_opts_free(&o);
    return 0;
}

static int t_host_parsers(void)
{
    T_CHECK(!strcmp(os_virt_from_sig("KVMKVMKVM\0\0\0"), "kvm"));
    T_CHECK(!strcmp(os_virt_from_sig("Microsoft Hv"), "hyperv"));
    T_CHECK(!strcmp(os_virt_from_sig("VMwareVMware"), "vmware"));
    T_CHECK(!strcmp(os_virt_from_sig("XenVMMXenVMM"), "xen"));
    T_CHECK(!strcmp(os_virt_from_sig("TCGTCGTCGTCG"), "qemu"));
    T_CHECK(os_virt_from_sig("GenuineIntel") == NULL);
    T_CHECK(os_parse_cpulist("0-3,8,10-11\n") == 7);
    T_CHECK(os_parse_cpulist("0\n") == 1);
    T_CHECK(os_parse_cpulist("\n") == 0);
    T_CHECK(os_parse_cpulist("3-1") == -1 && os_parse_cpulist("0-") == -1);
    T_CHECK(os_parse_cpulist("0,,1") == -1 && os_parse_cpulist("x") == -1);
    T_CHECK(os_parse_cpulist("0-99999999999999999999") == -1);
    double c;
    T_CHECK(os_parse_cpu_max("150000 100000\n", &c) && c == 1.5);
    T_CHECK(!os_parse_cpu_max("max 100000\n", &c) && !os_parse_cpu_max("1 0", &c));
    T_CHECK(!os_parse_cpu_max("1 2 3", &c));
    u64 v;
    T_CHECK(os_parse_cache_size("25344K", &v) && v == 25344 * 1024);
    T_CHECK(os_parse_cache_size("16M\n", &v) && v == 16u << 20);
    T_CHECK(!os_parse_cache_size("K", &v) && !os_parse_cache_size("12Q", &v));
    T_CHECK(os_parse_u64(" 42\n", &v) && v == 42);
    T_CHECK(!os_parse_u64("18446744073709551616", &v) && !os_parse_u64("-1", &v));
    char w[16];
    T_CHECK(os_parse_bracket("[none] mq-deadline", w, sizeof(w)) && !strcmp(w, "none"));
    T_CHECK(!os_parse_bracket("[] x", w, sizeof(w)) && !os_parse_bracket("[abc", w, sizeof(w)));
    T_CHECK(!os_parse_bracket("[0123456789abcdefg]", w, sizeof(w)));
    T_CHECK(os_parse_meminfo("A: 1 kB\nMemTotal: 2 kB\n", "MemTotal", &v) && v == 2048);
    T_CHECK(!os_parse_meminfo("MemTotalX: 2 kB\n", "MemTotal", &v));
    T_CHECK(!os_parse_meminfo("MemTotal: 2 MB\n", "MemTotal", &v));
    char path[64];
    T_CHECK(os_parse_cgroup("2:cpu,cpuacct:/a\n0::/b\n", "cpuacct", path, sizeof(path)) &&
            !strcmp(path, "/a"));
    T_CHECK(os_parse_cgroup("2:cpu,cpuacct:/a\n0::/b\n", "", path, sizeof(path)) &&
            !strcmp(path, "/b"));
    T_CHECK(!os_parse_cgroup("2:cpuset:/a\n", "cpu", path, sizeof(path)));
    T_CHECK(!os_parse_cgroup("0::/a/../../etc\n", "", path, sizeof(path)));
    T_CHECK(!os_parse_cgroup("0::/..\n", "", path, sizeof(path)));
    T_CHECK(os_parse_cgroup("0::/a..b/..c\n", "", path, sizeof(path)));
    char clean[64];
    T_CHECK(os_path_clean("//a/./b/../c//", clean, sizeof(clean)) && !strcmp(clean, "/a/c"));
    T_CHECK(os_path_clean("/..", clean, sizeof(clean)) && !strcmp(clean, "/"));
    return 0;
}

/* Random bytes, and random text from the files' own alphabet, into every parser (ASan and
 * UBSan watch), then into every file of a fake tree read by os_host_facts/os_dir_facts. */
static int t_host_fuzz(void)
{
    static const char alpha[] = "0123456789 -,:[]\n\t/\\kBKMaxcpumemory_=.";
    u64 s = 0x9e3779b97f4a7c15ull;
    char text[512], out[64];
    for (int it = 0; it < 40000; it++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        size_t n = (size_t)(s % (sizeof(text) - 1));
        bool raw = s >> 60 & 1;
        for (size_t i = 0; i < n; i++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            text[i] = raw ? (char)(s & 0xff) : alpha[s % (sizeof(alpha) - 1)];
        }
        text[n] = 0;
        u64 v;
        double d;
        struct os_cpuinfo ci;
        struct os_cpu_sample cs;
        struct os_mount m;
        (void)os_parse_u64(text, &v);
        (void)os_parse_bracket(text, out, sizeof(out));
        (void)os_parse_cache_size(text, &v);
        (void)os_parse_cpulist(text);
        (void)os_parse_meminfo(text, "MemTotal", &v);
        os_parse_cpuinfo(text, &ci);
        (void)os_parse_cgroup(text, "cpu", out, sizeof(out));
        (void)os_parse_cgroup(text, "", out, sizeof(out));
        (void)os_parse_cpu_max(text, &d);
        (void)os_parse_stat_cpu(text, &cs);
        (void)os_parse_mountinfo(text, "/data/x", &m);
        (void)os_path_clean(text, out, sizeof(out));
        if (n >= 12)
            (void)os_virt_from_sig(text);
    }
    /* the same garbage in every file of the Xeon tree */
    char root[] = "/tmp/bench-host.XXXXXX";
    T_CHECK(mkdtemp(root));
    T_CHECK(t_host_xeon_tree(root) == 0);
    static const char *const files[] = {
        "/proc/cpuinfo", "/proc/meminfo", "/proc/self/mountinfo", "/proc/self/cgroup",
        "/proc/stat", "/sys/devices/system/cpu/online", "/sys/devices/system/node/online",
        "/sys/fs/cgroup/cpu.max", "/sys/fs/cgroup/memory.max",
        "/sys/kernel/mm/transparent_hugepage/enabled", "/proc/sys/vm/swappiness",
        "/sys/devices/system/cpu/cpu0/cache/index2/size",
        "/sys/devices/system/cpu/cpu3/topology/core_id", "/sys/class/dmi/id/sys_vendor",
        "/sys/devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/queue/scheduler"};
    for (int round = 0; round < 60; round++) {
        for (size_t f = 0; f < countof(files); f++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            size_t n = (size_t)(s % (sizeof(text) - 1));
            for (size_t i = 0; i < n; i++) {
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                char c = round & 1 ? (char)(s & 0xff) : alpha[s % (sizeof(alpha) - 1)];
                text[i] = c ? c : ' ';
            }
            text[n] = 0;
            T_CHECK(t_host_put(root, files[f], text) == 0);
        }
        struct res r;
        struct os_cpu_sample cs;
        res_init(&r, NULL, "hostfacts", NULL, NULL);
        T_CHECK(os_host_facts(root, &r) == B_OK);
        T_CHECK(os_dir_facts(root, "/data/db", &r) == B_OK);
        (void)!os_steal_sample(root, &cs);
        res_free(&r);
    }
    t_host_rm(root);
    return 0;
}

/* This machine: the facts are there and sane (no exact values). */
static int t_host_live(void)
{
    struct res r;
    res_init(&r, NULL, "hostfacts", NULL, NULL);
    T_CHECK(os_host_facts("", &r) == B_OK);
    const struct res_fact *f = res_fact(&r, "cpus_online");
    T_CHECK(f && f->type == RES_INT && f->i >= 1);
    f = res_fact(&r, "cpus_usable");
    T_CHECK(f && f->i >= 1);
    f = res_fact(&r, "mem_total_bytes");
    T_CHECK(f && f->type == RES_INT && f->i > 0);
    /* the one meminfo reader (os_meminfo) agrees with the host facts' parse of the file */
    T_CHECK(f && os_mem_total() == (u64)f->i);
    T_CHECK(mem_available() > 0 && mem_available() <= os_mem_total());
    T_CHECK(os_meminfo("NoSuchKey") == 0 && os_meminfo("MemTota") == 0);
    f = res_fact(&r, "kernel");
    T_CHECK(f && f->type == RES_STR && f->str[0]);
    f = res_fact(&r, "virtualization");
    T_CHECK(f && f->str[0]);
    f = res_fact(&r, "container");
    T_CHECK(f && f->str[0]);
    f = res_fact(&r, "page_size_bytes"); /* the kernel's, whatever it is: a power of 2 >= 4K */
    T_CHECK(f && f->type == RES_INT && f->i == sysconf(_SC_PAGESIZE) && f->i >= 4096 &&
            !(f->i & (f->i - 1)));
    f = res_fact(&r, "isa");
    struct utsname un;
    T_CHECK(f && uname(&un) == 0 && !strcmp(f->str, B_ISA[0] ? B_ISA : un.machine));
    f = res_fact(&r, "compiler");
    T_CHECK(f && (!strncmp(f->str, "gcc ", 4) || !strncmp(f->str, "clang ", 6)));
    T_CHECK(os_dir_facts("", ".", &r) == B_OK);
    f = res_fact(&r, "fs_type");
    T_CHECK(f && f->type == RES_STR && f->str[0]);
    f = res_fact(&r, "fs_free_bytes");
    T_CHECK(f && f->i >= 0);
    T_CHECK(os_dir_facts("", "/nonexistent/bench/dir", &r) == B_SYSERR && r.err.msg[0] &&
            r.err.ex == B_EXIT_ENV);
    res_free(&r);
    struct os_cpu_sample a;
    T_CHECK(os_steal_sample("", &a) == B_OK && a.total_ticks > 0);
    return 0;
}
