/*
 * rusage: runs a command and prints what it cost, for tests/perf/floor.sh.
 *
 *     rusage OUT CMD [ARG...]
 *
 * Runs CMD with its stdout and stderr to the file OUT, waits for it with wait4() and prints
 * one line: its CPU seconds (user + sys, all its threads), its voluntary and its involuntary
 * context switches:
 *     0.812345 1234 56
 * Exit 0 when CMD exited 0; else 1 (CMD failed, was killed, or could not start: OUT says).
 * What tests/perf/oltp.sh does with python3's os.wait4, without the interpreter's start
 * (about a second of CPU on a loaded 2-CPU machine, on every run).
 * Build: gcc -O2 -std=c11 -o rusage tests/perf/rusage.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: rusage OUT CMD [ARG...]\n", stderr);
        return 2;
    }
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "rusage: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "rusage: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        if (dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
        execv(argv[2], argv + 2);
        dprintf(2, "rusage: %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    close(fd);
    int st;
    struct rusage ru;
    pid_t r;
    while ((r = wait4(pid, &st, 0, &ru)) < 0 && errno == EINTR)
        ;
    if (r < 0) {
        fprintf(stderr, "rusage: wait4: %s\n", strerror(errno));
        return 1;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return 1;
    double cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
                   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    printf("%.6f %ld %ld\n", cpu_s, ru.ru_nvcsw, ru.ru_nivcsw);
    return 0;
}
