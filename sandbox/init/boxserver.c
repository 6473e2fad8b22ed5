/*
 * boxserver: PID 1 of a session box (sandbox/session.py). bubblewrap sets the box up once per
 * session; boxserver then starts one judged program at a time, each time the judge asks.
 *
 *   boxserver SOCKET_FD SECCOMP_FD
 *
 * SOCKET_FD: a SOCK_SEQPACKET socket to the judge. SECCOMP_FD: the BPF deny-list (an array of
 * struct sock_filter), read once at start.
 *
 * Protocol (one message each way per run; boxserver first sends "ready\n"):
 *   request: NUL-terminated fields FOLDER, TMP_BYTES, N, N x "RESOURCE:SOFT:HARD", M, M x
 *            "NAME=VALUE", K, K x ARG, with file descriptors (SCM_RIGHTS) stdin, stdout,
 *            stderr and then the cgroup.procs files of the run (opened by the judge as root).
 *   reply:   "exit N\n", "signal N\n", "setup-failed ERRNO\n", "exec-failed ERRNO\n",
 *            or "refused ERRNO\n" for a request it could not take (malformed, or one already
 *            running).
 *
 * What each program gets (its child, between fork and exec):
 * - its own mount and IPC namespaces: /box is its folder FOLDER of the session root (which it
 *   covers, so no other run's folder is reachable), /tmp and /dev/shm fresh tmpfs of TMP_BYTES,
 *   no System V IPC object of an earlier run. All of it is gone when its processes are gone.
 * - the run's cgroups joined (from here on its CPU and memory are counted), the rlimits, fds
 *   0, 1, 2 only, every capability and the bounding set dropped, no_new_privs, the seccomp
 *   filter, then exec (PATH searched in the run's environment).
 * boxserver itself keeps CAP_SYS_ADMIN and CAP_SETPCAP in the box's user namespace (for the
 * mounts above), is non-dumpable (a program cannot open its /proc entries, ptrace is denied
 * anyway) and ignores every signal (as PID 1 of the PID namespace, signals from inside cannot
 * kill it). It reaps every process of the box, and exits when the judge closes the socket: the
 * kernel then kills whatever is left in the box.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define BOX_DIR "/box"
#define MAX_REQUEST (256 * 1024)
#define MAX_FIELDS 8192
#define MAX_FDS 8
#define STDIO_FDS 3
#define MAX_FILTER_BYTES (4096 * 8)

struct request {
    const char *folder;
    const char *tmp_bytes;
    char **rlimits;
    char **env;
    char **argv;
    int fds[MAX_FDS];
    int n_fds;
};

static char request_buffer[MAX_REQUEST + 1];
static char *fields[MAX_FIELDS + 3];
static struct sock_filter filter[MAX_FILTER_BYTES / sizeof(struct sock_filter)];
static struct sock_fprog filter_program;

static void reply(int sock, const char *what, int value)
{
    char line[64];
    int n = snprintf(line, sizeof line, "%s %d\n", what, value);
    if (send(sock, line, (size_t)n, MSG_NOSIGNAL) < 0)
        _exit(1);  /* the judge is gone: ending PID 1 ends the box */
}

static void read_filter(int fd)
{
    size_t got = 0;
    for (;;) {
        ssize_t n = read(fd, (char *)filter + got, sizeof filter - got);
        if (n == 0)
            break;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            _exit(125);
        }
        got += (size_t)n;
        if (got == sizeof filter)
            _exit(125);  /* larger than the kernel's BPF_MAXINSNS */
    }
    close(fd);
    if (got == 0 || got % sizeof(struct sock_filter) != 0)
        _exit(125);
    filter_program.len = (unsigned short)(got / sizeof(struct sock_filter));
    filter_program.filter = filter;
}

/* Splits the counted list at *at into a NULL-terminated array; false if malformed. */
static int take_list(char **all, int total, int *at, char ***list)
{
    if (*at >= total)
        return 0;
    char *end;
    long count = strtol(all[*at], &end, 10);
    if (*end != '\0' || count < 0 || count > total - *at - 1)
        return 0;
    *list = all + *at + 1;
    *at += 1 + (int)count;
    return 1;
}

/* Parses a request of `length` bytes in request_buffer; false if malformed. The arrays point
 * into `fields`, whose entries after each list are set to NULL by shifting. */
static int parse_request(size_t length, struct request *request)
{
    int total = 0;
    char *cursor = request_buffer, *end = request_buffer + length;
    if (length == 0 || request_buffer[length - 1] != '\0')
        return 0;
    while (cursor < end) {
        if (total == MAX_FIELDS)
            return 0;
        fields[total++] = cursor;
        cursor += strlen(cursor) + 1;
    }
    if (total < 2)
        return 0;
    request->folder = fields[0];
    request->tmp_bytes = fields[1];
    if (request->folder[0] == '\0' || strchr(request->folder, '/') != NULL
        || strcmp(request->folder, ".") == 0 || strcmp(request->folder, "..") == 0)
        return 0;
    /* copy the three lists into NULL-terminated arrays at the end of `fields` */
    static char *lists[3][MAX_FIELDS + 1];
    char **parts[3];
    int at = 2;
    for (int i = 0; i < 3; i++) {
        int start = at;
        if (!take_list(fields, total, &at, &parts[i]))
            return 0;
        int count = at - start - 1;
        memcpy(lists[i], parts[i], (size_t)count * sizeof(char *));
        lists[i][count] = NULL;
    }
    if (at != total || lists[2][0] == NULL)
        return 0;
    request->rlimits = lists[0];
    request->env = lists[1];
    request->argv = lists[2];
    return 1;
}

static void child_failed(int error_fd, const char *kind)
{
    char line[64];
    int n = snprintf(line, sizeof line, "%s %d\n", kind, errno);
    (void)!write(error_fd, line, (size_t)n);
    _exit(kind[0] == 'e' ? 127 : 125);
}

static void drop_capabilities(int error_fd)
{
    for (int cap = 0; cap <= 63; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            child_failed(error_fd, "setup-failed");
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0)
        child_failed(error_fd, "setup-failed");
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct none[2];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &header, none) != 0)
        child_failed(error_fd, "setup-failed");
}

/* In the forked child: the run's namespaces, folder, cgroups, limits, then exec. Never returns. */
static void start_program(const struct request *request, int error_fd)
{
    sigset_t none;
    sigemptyset(&none);
    for (int i = 1; i < NSIG; i++)
        signal(i, SIG_DFL);
    sigprocmask(SIG_SETMASK, &none, NULL);

    char options[80], source[4096];
    snprintf(options, sizeof options, "size=%s,mode=0755", request->tmp_bytes);
    snprintf(source, sizeof source, "%s/%s", BOX_DIR, request->folder);
    if (unshare(CLONE_NEWNS | CLONE_NEWIPC) != 0
        || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
        || mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, options) != 0
        || mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, options) != 0
        || mount(source, BOX_DIR, NULL, MS_BIND, NULL) != 0  /* covers the session root */
        || chdir(BOX_DIR) != 0)
        child_failed(error_fd, "setup-failed");

    for (int i = STDIO_FDS; i < request->n_fds; i++)
        if (write(request->fds[i], "0", 1) != 1)
            child_failed(error_fd, "setup-failed");
    for (char **limit = request->rlimits; *limit != NULL; limit++) {
        int resource;
        unsigned long long soft, hard;
        if (sscanf(*limit, "%d:%llu:%llu", &resource, &soft, &hard) != 3) {
            errno = EINVAL;
            child_failed(error_fd, "setup-failed");
        }
        struct rlimit value = { (rlim_t)soft, (rlim_t)hard };
        if (setrlimit(resource, &value) != 0)
            child_failed(error_fd, "setup-failed");
    }
    for (int i = 0; i < STDIO_FDS; i++)
        if (dup2(request->fds[i], i) != i)
            child_failed(error_fd, "setup-failed");
    if (error_fd != STDIO_FDS) {
        if (dup3(error_fd, STDIO_FDS, O_CLOEXEC) != STDIO_FDS)
            child_failed(error_fd, "setup-failed");
        error_fd = STDIO_FDS;
    }
    if (close_range(STDIO_FDS + 1, ~0U, 0) != 0)
        child_failed(error_fd, "setup-failed");

    drop_capabilities(error_fd);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter_program, 0, 0) != 0)
        child_failed(error_fd, "setup-failed");
    environ = request->env;
    execvp(request->argv[0], request->argv);
    child_failed(error_fd, "exec-failed");
}

static void close_fds(struct request *request)
{
    for (int i = 0; i < request->n_fds; i++)
        close(request->fds[i]);
    request->n_fds = 0;
}

/* Receives one request; returns 1 with the request filled, 0 if refused (reply sent), and
 * exits when the judge has closed the socket. */
static int receive(int sock, struct request *request)
{
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(MAX_FDS * sizeof(int))];
    } control;
    struct iovec data = { request_buffer, MAX_REQUEST };
    struct msghdr message = { 0 };
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    ssize_t length = recvmsg(sock, &message, MSG_CMSG_CLOEXEC);
    if (length == 0)
        _exit(0);
    if (length < 0) {
        if (errno == EINTR || errno == EAGAIN)
            return 0;
        _exit(1);
    }
    request->n_fds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < count && request->n_fds < MAX_FDS; i++)
            memcpy(&request->fds[request->n_fds++], CMSG_DATA(c) + i * sizeof(int), sizeof(int));
    }
    if ((message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || request->n_fds < STDIO_FDS
        || !parse_request((size_t)length, request)) {
        close_fds(request);
        reply(sock, "refused", EINVAL);
        return 0;
    }
    return 1;
}

/* The end of the current program: its wait status, or what its child side reported. */
static void report_end(int sock, int status, int error_fd)
{
    char line[64];
    ssize_t n = read(error_fd, line, sizeof line - 1);
    close(error_fd);
    if (n > 0) {
        if (send(sock, line, (size_t)n, MSG_NOSIGNAL) < 0)
            _exit(1);
    } else if (WIFSIGNALED(status)) {
        reply(sock, "signal", WTERMSIG(status));
    } else {
        reply(sock, "exit", WEXITSTATUS(status));
    }
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 125;
    int sock = atoi(argv[1]);
    read_filter(atoi(argv[2]));
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 || fcntl(sock, F_SETFD, FD_CLOEXEC) != 0
        || chdir("/") != 0)
        return 125;
    sigset_t child_signal;
    sigemptyset(&child_signal);
    sigaddset(&child_signal, SIGCHLD);
    for (int i = 1; i < NSIG; i++)
        if (i != SIGCHLD)
            signal(i, SIG_IGN);
    sigprocmask(SIG_BLOCK, &child_signal, NULL);
    int signals = signalfd(-1, &child_signal, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signals < 0)
        return 125;
    if (send(sock, "ready\n", 6, MSG_NOSIGNAL) != 6)
        return 1;

    pid_t running = 0;
    int error_fd = -1;
    struct pollfd watched[2] = { { sock, POLLIN, 0 }, { signals, POLLIN, 0 } };
    for (;;) {
        if (poll(watched, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        if (watched[1].revents) {
            struct signalfd_siginfo info;
            while (read(signals, &info, sizeof info) > 0)
                ;
            /* reap every process: orphans of a run are ours too (zombies hold task slots) */
            int status;
            pid_t done;
            while ((done = waitpid(-1, &status, WNOHANG)) > 0)
                if (done == running) {
                    report_end(sock, status, error_fd);
                    running = 0;
                    error_fd = -1;
                }
        }
        if (!watched[0].revents)
            continue;
        struct request request;
        if (!receive(sock, &request))
            continue;
        if (running != 0) {
            close_fds(&request);
            reply(sock, "refused", EBUSY);
            continue;
        }
        int pipe_ends[2];
        if (pipe2(pipe_ends, O_CLOEXEC | O_NONBLOCK) != 0) {
            close_fds(&request);
            reply(sock, "setup-failed", errno);
            continue;
        }
        pid_t child = fork();
        if (child == 0) {
            close(pipe_ends[0]);
            start_program(&request, pipe_ends[1]);
        }
        int fork_error = errno;
        close(pipe_ends[1]);
        close_fds(&request);
        if (child < 0) {
            close(pipe_ends[0]);
            reply(sock, "setup-failed", fork_error);
            continue;
        }
        running = child;
        error_fd = pipe_ends[0];
    }
}
