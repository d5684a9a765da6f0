/*
 * oldkernel - run a command as an old kernel would: every system call newer than Linux 3.10
 * (RHEL 7) or 4.18 (RHEL 8) fails with ENOSYS, as it does there, by a seccomp filter that
 * the command and its children inherit. Used by tests/oldkernel.sh.
 *   usage: oldkernel 3.10|4.18 COMMAND [ARGS...]
 *          oldkernel io_uring COMMAND [ARGS...]   (tests/noiouring's behaviour: io_uring_*
 *                                                  only, EPERM or $NOIOURING_ERRNO)
 *
 * Source of the numbers and versions: the kernel's arch/x86/entry/syscalls/syscall_64.tbl
 * and syscall_32.tbl (Linux 6.x), each call's version from syscalls(2) ("System call / Kernel"
 * table, man-pages 6.03). x86_64 numbers are given out in order, and none was ever given
 * back, so "newer than 3.10" is every number above 3.10's last (313 finit_module, 3.8), and
 * "newer than 4.18" every number above 4.18's last (334 rseq, 4.18; 335-423 were never used
 * on x86_64, 424 pidfd_send_signal came in 5.1):
 *   314 sched_setattr 3.14   315 sched_getattr 3.14   316 renameat2 3.15   317 seccomp 3.17
 *   318 getrandom 3.17       319 memfd_create 3.17    320 kexec_file_load 3.17   321 bpf 3.18
 *   322 execveat 3.19        323 userfaultfd 4.3      324 membarrier 4.3     325 mlock2 4.4
 *   326 copy_file_range 4.5  327 preadv2 4.6          328 pwritev2 4.6
 *   329-331 pkey_mprotect/pkey_alloc/pkey_free 4.9    332 statx 4.11
 *   333 io_pgetevents 4.18   334 rseq 4.18            (3.10 refuses 314-334 and all below)
 *   424 pidfd_send_signal 5.1   425-427 io_uring_setup/enter/register 5.1
 *   428-433 open_tree/move_mount/fsopen/fsconfig/fsmount/fspick 5.2
 *   434 pidfd_open 5.3   435 clone3 5.3   436 close_range 5.9   437 openat2 5.6
 *   438 pidfd_getfd 5.6  439 faccessat2 5.8  440 process_madvise 5.10  441 epoll_pwait2 5.11
 *   442 mount_setattr 5.12  443 quotactl_fd 5.14  444-446 landlock_* 5.13
 *   447 memfd_secret 5.14  448 process_mrelease 5.15  449 futex_waitv 5.16
 *   450 set_mempolicy_home_node 5.17  451 cachestat 6.5  452 fchmodat2 6.6
 *   453 map_shadow_stack 6.6  454-456 futex_wake/wait/requeue 6.7  457 statmount 6.8
 *   458 listmount 6.8  459-461 lsm_* 6.8  462 mseal 6.10  463-466 *xattrat 6.13 ...
 * i386 (int 0x80 from a 64-bit process): 3.10's last is 350 finit_module, 4.18's 386 rseq.
 * x32 (the 0x40000000 bit): RHEL 7 and 8 build without CONFIG_X86_X32, so every x32 call
 * fails with ENOSYS there, and here.
 * What seccomp cannot show: flags and files an old kernel lacks inside an old call
 * (O_TMPFILE 3.11, RWF_* 4.6, MAP_FIXED_NOREPLACE 4.17, /proc/pressure 4.20, cgroup v2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define X32_BIT 0x40000000u

/* a lane: the first x86_64 and i386 numbers the kernel does not have */
struct ok_lane {
    const char *name;
    unsigned first64, first32;
};

static const struct ok_lane ok_lanes[] = {
    {"3.10", 314, 351},
    {"4.18", 335, 387},
};

#define LD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define ENOSYS_RET (SECCOMP_RET_ERRNO | ENOSYS)

static int ok_install(struct sock_filter *f, size_t n)
{
    struct sock_fprog prog = {.len = (unsigned short)n, .filter = f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
        perror("oldkernel: installing the seccomp filter");
        return -1;
    }
    return 0;
}

/* ENOSYS to x86_64 numbers >= first64 (and x32), to i386 numbers >= first32 */
static int ok_lane_filter(const struct ok_lane *l)
{
    struct sock_filter f[] = {
        LD(arch),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 5),
        LD(nr),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 2, 0), /* x32: not configured */
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, l->first64, 1, 0),
        RET(SECCOMP_RET_ALLOW),
        RET(ENOSYS_RET),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 2), /* others: allowed */
        LD(nr),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, l->first32, 1, 0),
        RET(SECCOMP_RET_ALLOW),
        RET(ENOSYS_RET),
    };
    return ok_install(f, sizeof(f) / sizeof(f[0]));
}

/* tests/noiouring's filter: io_uring_setup/enter/register (425-427) fail with err */
static int ok_iouring_filter(unsigned err)
{
    struct sock_filter f[] = {
        LD(arch),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        RET(SECCOMP_RET_ALLOW),
        LD(nr),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 425, 0, 2),
        BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 427, 1, 0),
        RET(SECCOMP_RET_ERRNO | (err & SECCOMP_RET_DATA)),
        RET(SECCOMP_RET_ALLOW),
    };
    return ok_install(f, sizeof(f) / sizeof(f[0]));
}

int main(int argc, char **argv)
{
    const char *e = getenv("NOIOURING_ERRNO");
    const struct ok_lane *lane = NULL;
    int rc = -1;
    if (argc < 3) {
        fprintf(stderr, "usage: oldkernel 3.10|4.18|io_uring COMMAND [ARGS...]\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof(ok_lanes) / sizeof(ok_lanes[0]); i++)
        if (!strcmp(argv[1], ok_lanes[i].name))
            lane = &ok_lanes[i];
    if (lane)
        rc = ok_lane_filter(lane);
    else if (!strcmp(argv[1], "io_uring"))
        rc = ok_iouring_filter(e ? (unsigned)atoi(e) : EPERM);
    else {
        fprintf(stderr, "oldkernel: unknown kernel '%s' (hint: 3.10, 4.18 or io_uring)\n", argv[1]);
        return 2;
    }
    if (rc)
        return 2;
    execvp(argv[2], argv + 2);
    perror("oldkernel: exec");
    return 127;
}
