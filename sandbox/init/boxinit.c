/*
 * boxinit: the first program bubblewrap starts in the box; it starts the judged program and
 * reports exactly how it ended.
 *
 *   boxinit STATUS_FD [CGROUP_PROCS_FD ...] -- PROGRAM [ARG ...]
 *
 * 1. Writes "0" (this process) into each cgroup.procs FD (opened by the judge, as root, before
 *    the box was made), then closes them: the program's CPU and memory counters start here, not
 *    at bubblewrap's own set-up.
 * 2. Becomes non-dumpable (its /proc/PID/fd cannot be opened by the program), ignores the
 *    signals a program could send it, forks the program (signals back to default, status FD
 *    closed on exec) and waits for it, reaping orphans meanwhile. It runs as PID 1 of the box
 *    (bubblewrap --as-pid-1): when it exits the kernel kills whatever is left in the box, and
 *    bubblewrap reaps it, so no process of the run outlives bubblewrap.
 * 3. Writes one line on STATUS_FD: "exit N", "signal N", or "exec-failed ERRNO", and exits with
 *    the program's code (128 + N for a signal, as bubblewrap does).
 * A failure before the program starts is reported as "setup-failed ERRNO" and exit 125.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int status_fd = -1;

static void report(const char *what, int value)
{
    char line[64];
    int n = snprintf(line, sizeof line, "%s %d\n", what, value);
    if (status_fd >= 0 && n > 0)
        (void)!write(status_fd, line, (size_t)n);
}

static void setup_failed(void)
{
    report("setup-failed", errno);
    _exit(125);
}

int main(int argc, char **argv)
{
    int i, separator = -1;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) { separator = i; break; }
    if (separator < 2 || separator + 1 >= argc)
        return 125;
    status_fd = atoi(argv[1]);
    for (i = 2; i < separator; i++) {
        int fd = atoi(argv[i]);
        if (write(fd, "0", 1) != 1)
            setup_failed();
        close(fd);
    }
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        setup_failed();
    for (i = 1; i < NSIG; i++)
        if (i != SIGCHLD)
            signal(i, SIG_IGN);

    pid_t child = fork();
    if (child < 0)
        setup_failed();
    if (child == 0) {
        sigset_t none;
        sigemptyset(&none);
        for (i = 1; i < NSIG; i++)
            signal(i, SIG_DFL);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if (fcntl(status_fd, F_SETFD, FD_CLOEXEC) != 0)
            _exit(125);
        execvp(argv[separator + 1], argv + separator + 1);
        report("exec-failed", errno);
        _exit(127);
    }
    /* as PID 1 of the box, reap every orphan too: zombies would hold slots of the task limit */
    int status;
    struct rusage usage;
    for (;;) {
        pid_t done = wait4(-1, &status, 0, &usage);
        if (done == child)
            break;
        if (done < 0 && errno != EINTR)
            setup_failed();
    }
    /* the program's own peak RSS (KiB): forked here after exec, it carries none of the judge's
       memory, unlike the rusage the judge gets for bubblewrap (used where there are no cgroups) */
    report("maxrss", (int)usage.ru_maxrss);
    if (WIFSIGNALED(status)) {
        report("signal", WTERMSIG(status));
        return 128 + WTERMSIG(status);
    }
    report("exit", WEXITSTATUS(status));
    return WEXITSTATUS(status);
}
