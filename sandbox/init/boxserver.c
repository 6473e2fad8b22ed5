/*
 * boxserver: PID 1 of a session box (sandbox/session.py). bubblewrap sets the box up once per
 * session; boxserver then starts one judged program at a time, each time the judge asks.
 *
 *   boxserver SOCKET_FD SECCOMP_FD
 *
 * SOCKET_FD: a SOCK_SEQPACKET socket to the judge. SECCOMP_FD: the BPF deny-list (an array of
 * struct sock_filter), read once at start.
 *
 * Protocol (boxserver first sends "ready\n"; then one message each way per run):
 *   request: NUL-terminated fields FOLDER, TMP_BYTES, N, N x "RESOURCE:SOFT:HARD", M, M x
 *            "NAME=VALUE", K, K x ARG, with file descriptors (SCM_RIGHTS) stdin, stdout,
 *            stderr and then the cgroup.procs files of the run (opened by the judge as root).
 *   reply:   "exit N\n", "signal N\n", "setup-failed ERRNO\n", "exec-failed ERRNO\n" (sent
 *            by the run's zygote, or by boxserver if the run could not start), or
 *            "refused ERRNO\n" for a request it could not take (malformed, or one already
 *            running).
 *   "prepare" [TMP_BYTES] (no reply), with the cgroup.procs files of the next run: the judge
 *            has the last run's reply and has seen every process of it gone; boxserver makes
 *            the next run's processes ahead (see below), which join those cgroups at once and
 *            mount /tmp and /dev/shm of TMP_BYTES (the size the next run is expected to ask).
 *
 * Each run starts as a "zygote": a child that boxserver makes ahead of the request as PID 1 of
 * a new PID namespace, which enters its own mount and IPC namespaces (with a /proc of its PID
 * namespace and a fresh tmpfs of TMP_BYTES on /tmp and /dev/shm), drops every capability (the
 * bounding set is boxserver's, emptied once at its start), sets no_new_privs and the seccomp
 * filter, and makes the program's process (PID 2) with a clone that shares its memory until
 * exec (CLONE_VM: no pages or page tables copied; a descriptor table of its own). That process
 * joins the cgroups "prepare" named (a cgroup migration may wait for an RCU grace period,
 * milliseconds: it is done before the request, not after) and waits. On the request,
 * boxserver (which keeps CAP_SYS_ADMIN and CAP_SYS_CHROOT in the box's user namespace) enters
 * the zygote's mount namespace and mounts there FOLDER of the session root over /box (so no
 * other run's folder is reachable), and /tmp and /dev/shm again if the request's TMP_BYTES is
 * not the size they have (still empty: nothing has run there). It hands the request on,
 * leaving out the cgroups already joined; the program's process joins the others (from here
 * on its CPU and memory are counted), sets the rlimits, keeps fds 0, 1, 2 only and execs
 * (PATH searched in the run's environment). The zygote stays out of the run's cgroups as the
 * namespace's init: it reaps its processes and reports to the judge itself how the program
 * ended ("exit N" / "signal N", or the program process's failure to start it, which that
 * process leaves in the memory they share), over its copy of boxserver's socket to the judge
 * (no hand-off through boxserver; the program's process closes its copy at once), then exits,
 * which ends every process left in the namespace. The namespaces die with the run's
 * processes: nothing of one run is visible to the next. Making the zygote ahead takes the
 * fork, the namespaces, the mounts, the filter and the cgroup migration out of the time
 * between request and exec; it is made only once the judge said the last run's processes are
 * gone, so none of them can signal it.
 *
 * boxserver is non-dumpable (a program cannot open its /proc entries; ptrace is denied
 * anyway), and so are its zygotes (forked, never exec'd), which hold the judge's socket; it
 * blocks every signal (none is ignored, so a zygote need only clear the mask for the program
 * to start with the default handlers; as PID 1 of the PID namespace, signals from inside
 * cannot kill it). It reaps every process of the box, and exits when the judge closes the
 * socket: the kernel then kills whatever is left in the box.
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define BOX_DIR "/box"
#define MAX_REQUEST (256 * 1024)
#define MAX_FIELDS 8192
#define MAX_FDS 8
#define STDIO_FDS 3
#define MAX_RLIMITS 16  /* RLIM_NLIMITS */
#define MAX_FILTER_BYTES (4096 * 8)
#define ZYGOTE_SOCKET 3  /* in a zygote: its socket to boxserver */
#define JUDGE_SOCKET 4   /* in a zygote: the judge's socket, for the report; the cgroups to join ahead follow */
#define HIGH_FD 1000     /* in a zygote: where its descriptors wait to be moved into place */
#define TMP_BYTES_SIZE 24  /* room for the digits of a tmpfs size (bytes) */

struct request {
    const char *folder;
    const char *tmp_bytes;
    char **rlimits;
    char **env;
    char **argv;
    int fds[MAX_FDS];
    int n_fds;
    size_t length;
};

/* a forked child that will become a run's program: its socket to boxserver and its mount
 * namespace (held, so that the namespace outlives the program until boxserver lets go) */
struct zygote {
    pid_t pid;
    int sock;
    int mount_ns;
    int ready;
    struct {
        dev_t st_dev;
        ino_t st_ino;
    } joined[MAX_FDS];  /* the cgroup.procs files its program process joined ahead */
    int n_joined;
    char tmp_bytes[TMP_BYTES_SIZE];  /* the size of the tmpfs it mounted ahead ("": none) */
};

static char request_buffer[MAX_REQUEST + 1];
static char *fields[MAX_FIELDS];
static char *lists[3][MAX_FIELDS + 1];
static struct sock_filter filter[MAX_FILTER_BYTES / sizeof(struct sock_filter)];
static struct sock_fprog filter_program;
static int own_mount_ns = -1;
static int judge_socket = -1;

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
static int take_list(int total, int *at, char **list)
{
    if (*at >= total)
        return 0;
    char *end;
    long count = strtol(fields[*at], &end, 10);
    if (*end != '\0' || count < 0 || count > total - *at - 1)
        return 0;
    memcpy(list, fields + *at + 1, (size_t)count * sizeof(char *));
    list[count] = NULL;
    *at += 1 + (int)count;
    return 1;
}

/* Parses the request of request->length bytes in request_buffer; false if malformed. */
static int parse_request(struct request *request)
{
    int total = 0;
    size_t length = request->length;
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
        || strcmp(request->folder, ".") == 0 || strcmp(request->folder, "..") == 0
        || strspn(request->tmp_bytes, "0123456789") != strlen(request->tmp_bytes))
        return 0;
    int at = 2;
    for (int i = 0; i < 3; i++)
        if (!take_list(total, &at, lists[i]))
            return 0;
    if (at != total || lists[2][0] == NULL)
        return 0;
    request->rlimits = lists[0];
    request->env = lists[1];
    request->argv = lists[2];
    return 1;
}

static void close_fds(struct request *request)
{
    for (int i = 0; i < request->n_fds; i++)
        close(request->fds[i]);
    request->n_fds = 0;
}

/* Receives one message with its descriptors (close-on-exec) into `buffer` (`size` bytes).
 * Returns its length, 0 at end of file, -1 on an error or a truncated message (descriptors
 * closed). */
static ssize_t receive_into(int sock, char *buffer, size_t size, struct request *request)
{
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(MAX_FDS * sizeof(int))];
    } control;
    struct iovec data = { buffer, size };
    struct msghdr message = { 0 };
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    ssize_t length;
    do
        length = recvmsg(sock, &message, MSG_CMSG_CLOEXEC);
    while (length < 0 && errno == EINTR);
    request->n_fds = 0;
    if (length <= 0)
        return length;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < count; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (request->n_fds < MAX_FDS)
                request->fds[request->n_fds++] = fd;
            else
                close(fd);
        }
    }
    request->length = (size_t)length;
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        close_fds(request);
        errno = EMSGSIZE;
        return -1;
    }
    return length;
}

/* A request from the judge (or, in a zygote, from boxserver), into request_buffer. */
static ssize_t receive(int sock, struct request *request)
{
    return receive_into(sock, request_buffer, MAX_REQUEST, request);
}

/* In a zygote before its run: report a failure to boxserver and end. */
static void zygote_failed(int sock, const char *kind)
{
    char line[64];
    int n = snprintf(line, sizeof line, "%s %d\n", kind, errno);
    (void)!send(sock, line, (size_t)n, MSG_NOSIGNAL);
    _exit(kind[0] == 'e' ? 127 : 125);
}

/* Shared by a zygote and its program process until the exec (CLONE_VM): whether the program
 * process took the request, and how it failed to start the program after that (kind "" if
 * it did not fail). The zygote reads them once it has reaped that process. */
static volatile sig_atomic_t request_taken;
static const char *volatile failure_kind = "";
static volatile int failure_errno;

/* In a zygote's program process: a failure before the request goes to boxserver (the zygote
 * is then made again); after it, the zygote reports it to the judge. Ends the process. */
static void program_failed(int sock, const char *kind)
{
    if (!request_taken)
        zygote_failed(sock, kind);
    failure_errno = errno;
    failure_kind = kind;
    _exit(kind[0] == 'e' ? 127 : 125);
}

/* In a zygote: no capability left (the bounding set is already empty: boxserver emptied its
 * own at start, and a fork inherits it). */
static void drop_capabilities(int sock)
{
    struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct none[2];
    memset(none, 0, sizeof none);
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0
        || syscall(SYS_capset, &header, none) != 0)
        zygote_failed(sock, "setup-failed");
}

/* Sends "ready" with the zygote's mount namespace (boxserver cannot open a non-dumpable
 * process's /proc/PID/ns itself). */
static void send_ready(int sock)
{
    int mount_ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    if (mount_ns < 0)
        zygote_failed(sock, "setup-failed");
    struct iovec data = { "ready\n", 6 };
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    struct msghdr message = { 0 };
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof control.bytes;
    struct cmsghdr *c = CMSG_FIRSTHDR(&message);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &mount_ns, sizeof(int));
    if (sendmsg(sock, &message, MSG_NOSIGNAL) != 6)
        _exit(125);
    close(mount_ns);
}

/* the program's process runs on this stack until exec */
static char launch_stack[64 * 1024] __attribute__((aligned(16)));

/* Writes "0" (this process) to each cgroup.procs descriptor in fds[0..count) and closes it. */
static void join_cgroups(int sock, const int *fds, int count)
{
    for (int i = 0; i < count; i++) {
        if (write(fds[i], "0", 1) != 1)
            program_failed(sock, "setup-failed");
        close(fds[i]);
    }
}

/* The zygote's program process (PID 2), made with the zygote and in its memory until exec
 * (CLONE_VM: no pages or page tables copied), with a descriptor table of its own: only
 * system calls and the request's parsing, on a stack of its own (the zygote meanwhile only
 * waits). `argument`: the cgroup.procs descriptors (count first) it joins at once, as the
 * judge said the last run is over, so that no cgroup migration is left between request and
 * exec. Then it waits for the request, joins the cgroups it names besides, sets the rlimits,
 * keeps descriptors 0, 1, 2 only and execs (PATH searched in the run's environment). Never
 * returns. */
static int program_main(void *argument)
{
    const int *ahead = argument;
    int sock = ZYGOTE_SOCKET;
    close(JUDGE_SOCKET);  /* the zygote's: this process never writes to the judge */
    join_cgroups(sock, ahead + 1, ahead[0]);
    struct request request;
    ssize_t length = receive(sock, &request);
    if (length <= 0)
        _exit(length == 0 ? 0 : 125);  /* boxserver is ending, or the request was lost */
    request_taken = 1;
    if (!parse_request(&request) || request.n_fds < STDIO_FDS) {
        errno = EINVAL;
        program_failed(sock, "setup-failed");
    }
    if (chdir(BOX_DIR) != 0)  /* the run's folder, mounted there by boxserver */
        program_failed(sock, "setup-failed");
    join_cgroups(sock, request.fds + STDIO_FDS, request.n_fds - STDIO_FDS);  /* from here on its CPU and memory count */
    for (char **limit = request.rlimits; *limit != NULL; limit++) {
        int resource;
        unsigned long long soft, hard;
        if (sscanf(*limit, "%d:%llu:%llu", &resource, &soft, &hard) != 3) {
            errno = EINVAL;
            program_failed(sock, "setup-failed");
        }
        struct rlimit value = { (rlim_t)soft, (rlim_t)hard };
        if (setrlimit(resource, &value) != 0)
            program_failed(sock, "setup-failed");
    }
    for (int i = 0; i < STDIO_FDS; i++)
        if (dup2(request.fds[i], i) != i)
            program_failed(sock, "setup-failed");
    if (close_range(STDIO_FDS, ~0U, 0) != 0)
        program_failed(sock, "setup-failed");
    environ = request.env;
    execvp(request.argv[0], request.argv);
    program_failed(sock, "exec-failed");
    return 127;
}

/* The zygote once its program process is made: PID 1 of the run's PID namespace. Reaps every
 * process of it until the program ends, reports to the judge (`judge`) how it ended, or how
 * it failed to start, and exits with 0 (the kernel then kills what is left in the
 * namespace). If the program process ended before it took a request, nothing is reported
 * and the exit code is 125 (boxserver then makes another zygote). It holds none of the run's
 * descriptors (its program process received them): end of file on the streams comes when
 * the run's processes end. Never returns. */
static void init_main(int judge, pid_t program)
{
    int status = 0;
    for (;;) {
        pid_t done = waitpid(-1, &status, 0);
        if (done == program)
            break;
        if (done < 0 && errno != EINTR)
            _exit(125);
    }
    if (!request_taken)
        _exit(125);
    if (failure_kind[0] != '\0')
        reply(judge, failure_kind, failure_errno);
    else if (WIFSIGNALED(status))
        reply(judge, "signal", WTERMSIG(status));
    else
        reply(judge, "exit", WEXITSTATUS(status));
    _exit(0);
}

/* The tmpfs options of a run's /tmp and /dev/shm: `tmp_bytes` (digits) bytes each. */
static void tmp_options(char *options, size_t size, const char *tmp_bytes)
{
    snprintf(options, size, "size=%s,mode=0755", tmp_bytes);
}

/* The zygote, just forked: `sock` its socket to boxserver, `judge` the judge's socket,
 * ahead[0] cgroup.procs descriptors in ahead[1..], `tmp_bytes` the size of the tmpfs to mount
 * on /tmp and /dev/shm now ("": none yet, boxserver mounts them with the request). Makes
 * everything that does not depend on the request: own mount and IPC namespaces with a /proc
 * of the run's PID namespace, no capabilities, no_new_privs, the seccomp filter, and the
 * program's process (which joins the cgroups and waits for the request); then reports ready
 * and stays as the run's init. Never returns. */
static void zygote_main(int sock, int judge, int *ahead, const char *tmp_bytes)
{
    /* nothing of boxserver's but these: the sockets at ZYGOTE_SOCKET and JUDGE_SOCKET, the
     * cgroups after them (moved out of the way first, then into place) */
    int high[MAX_FDS + 2];
    int kept = 2 + ahead[0];
    high[0] = fcntl(sock, F_DUPFD_CLOEXEC, HIGH_FD);
    high[1] = fcntl(judge, F_DUPFD_CLOEXEC, HIGH_FD);
    for (int i = 1; i <= ahead[0]; i++)
        high[i + 1] = fcntl(ahead[i], F_DUPFD_CLOEXEC, HIGH_FD);
    if (close_range(STDIO_FDS, HIGH_FD - 1, 0) != 0)
        _exit(125);
    for (int i = 0; i < kept; i++)
        if (high[i] < HIGH_FD || dup2(high[i], ZYGOTE_SOCKET + i) != ZYGOTE_SOCKET + i)
            _exit(125);
    sock = ZYGOTE_SOCKET;
    for (int i = 1; i <= ahead[0]; i++)
        ahead[i] = JUDGE_SOCKET + i;
    if (close_range(ZYGOTE_SOCKET + kept, ~0U, 0) != 0)
        zygote_failed(sock, "setup-failed");
    /* boxserver's handlers are the defaults (it blocks signals instead of ignoring them):
     * only the mask is the program's to reset */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* own mount and IPC namespaces, and a /proc of the run's own PID namespace */
    if (unshare(CLONE_NEWNS | CLONE_NEWIPC) != 0
        || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
        || mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        zygote_failed(sock, "setup-failed");
    if (tmp_bytes[0] != '\0') {
        char options[96];
        tmp_options(options, sizeof options, tmp_bytes);
        if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, options) != 0
            || mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
            zygote_failed(sock, "setup-failed");
    }
    drop_capabilities(sock);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter_program, 0, 0) != 0)
        zygote_failed(sock, "setup-failed");
    /* PID 2; the zygote stays as the namespace's init */
    pid_t program = clone(program_main, launch_stack + sizeof launch_stack, CLONE_VM | SIGCHLD, ahead);
    if (program < 0)
        zygote_failed(sock, "setup-failed");
    for (int i = 1; i <= ahead[0]; i++)
        close(ahead[i]);
    send_ready(sock);
    init_main(JUDGE_SOCKET, program);
}

static void forget_zygote(struct zygote *zygote)
{
    if (zygote->sock >= 0)
        close(zygote->sock);
    if (zygote->mount_ns >= 0)
        close(zygote->mount_ns);
    zygote->pid = 0;
    zygote->sock = zygote->mount_ns = -1;
    zygote->ready = 0;
    zygote->n_joined = 0;
    zygote->tmp_bytes[0] = '\0';
}

/* Forks a zygote whose program process joins the cgroups of the cgroup.procs descriptors
 * fds[0..count) ahead, with /tmp and /dev/shm of `tmp_bytes` mounted ahead (digits; "" or
 * anything longer than TMP_BYTES_SIZE: mounted with the request); 0, or an errno. */
static int make_zygote(struct zygote *zygote, const int *fds, int count, const char *tmp_bytes)
{
    int ahead[MAX_FDS + 1];
    ahead[0] = 0;
    zygote->n_joined = 0;
    zygote->tmp_bytes[0] = '\0';
    if (strlen(tmp_bytes) < TMP_BYTES_SIZE && strspn(tmp_bytes, "0123456789") == strlen(tmp_bytes))
        strcpy(zygote->tmp_bytes, tmp_bytes);
    for (int i = 0; i < count && i < MAX_FDS; i++) {
        struct stat info;
        if (fstat(fds[i], &info) != 0)
            continue;
        ahead[++ahead[0]] = fds[i];
        zygote->joined[zygote->n_joined].st_dev = info.st_dev;
        zygote->joined[zygote->n_joined++].st_ino = info.st_ino;
    }
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0)
        return errno;
    /* the zygote is PID 1 of a PID namespace of its own: each run numbers its processes from 2 */
    pid_t pid = (pid_t)syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, NULL, NULL, NULL, NULL);
    if (pid == 0) {
        close(ends[0]);
        zygote_main(ends[1], judge_socket, ahead, zygote->tmp_bytes);
    }
    int error = errno;
    close(ends[1]);
    if (pid < 0) {
        close(ends[0]);
        return error;
    }
    zygote->pid = pid;
    zygote->sock = ends[0];
    zygote->mount_ns = -1;
    zygote->ready = 0;
    return 0;
}

/* Leaves out of the request the cgroup.procs descriptors (past the standard three) of cgroups
 * the zygote's program process joined ahead, closing them. */
static void drop_joined(const struct zygote *zygote, struct request *request)
{
    int kept = STDIO_FDS;
    for (int i = STDIO_FDS; i < request->n_fds; i++) {
        struct stat info;
        int joined = 0;
        if (fstat(request->fds[i], &info) == 0)
            for (int j = 0; j < zygote->n_joined; j++)
                joined |= zygote->joined[j].st_dev == info.st_dev && zygote->joined[j].st_ino == info.st_ino;
        if (joined)
            close(request->fds[i]);
        else
            request->fds[kept++] = request->fds[i];
    }
    request->n_fds = kept;
}

/* Takes the zygote's "ready" and its mount namespace (waiting for them if `wait`); 0 once
 * ready, EAGAIN if not yet, else the errno of its failure (it is then forgotten). */
static int take_ready(struct zygote *zygote, int wait)
{
    struct request answer;  /* request_buffer may hold the judge's request meanwhile */
    char line[64];
    ssize_t n;
    if (!wait) {
        struct pollfd ready = { zygote->sock, POLLIN, 0 };
        if (poll(&ready, 1, 0) == 0)
            return EAGAIN;
    }
    n = receive_into(zygote->sock, line, sizeof line - 1, &answer);
    int error = n < 0 ? errno : EIO;
    if (n == 6 && answer.n_fds == 1 && memcmp(line, "ready\n", 6) == 0) {
        zygote->mount_ns = answer.fds[0];
        zygote->ready = 1;
        return 0;
    }
    close_fds(&answer);
    if (n > 0) {
        line[n] = '\0';
        sscanf(line, "%*s %d", &error);
    }
    kill(zygote->pid, SIGKILL);  /* reaped by the main loop */
    forget_zygote(zygote);
    return error;
}

/* In the zygote's mount namespace: the run's folder over /box, and /tmp and /dev/shm of the
 * request's size (the zygote mounted them ahead; of another size, they are mounted again,
 * still empty: no program has run there). 0, or an errno. */
static int mount_for_run(const struct zygote *zygote, const struct request *request)
{
    char options[96], source[4096];
    tmp_options(options, sizeof options, request->tmp_bytes);
    snprintf(source, sizeof source, "%s/%s", BOX_DIR, request->folder);
    if (setns(zygote->mount_ns, CLONE_NEWNS) != 0)
        return errno;
    int error = 0;
    int flags = MS_NOSUID | MS_NODEV | (zygote->tmp_bytes[0] != '\0' ? MS_REMOUNT : 0);
    if (strcmp(zygote->tmp_bytes, request->tmp_bytes) != 0
        && (mount("tmpfs", "/tmp", "tmpfs", (unsigned long)flags, options) != 0
            || mount("tmpfs", "/dev/shm", "tmpfs", (unsigned long)flags, options) != 0))
        error = errno;
    if (error == 0 && mount(source, BOX_DIR, NULL, MS_BIND, NULL) != 0)  /* covers the session root */
        error = errno;
    if (setns(own_mount_ns, CLONE_NEWNS) != 0 || chdir("/") != 0)
        _exit(125);  /* cannot go home: end the box rather than work in a run's namespace */
    return error;
}

/* Starts the request in the ready zygote, which then belongs to the run. 0, or an errno. */
static int start_run(struct zygote *zygote, struct request *request)
{
    int error = mount_for_run(zygote, request);
    if (error != 0)
        return error;
    struct iovec data = { request_buffer, request->length };
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(MAX_FDS * sizeof(int))];
    } control;
    struct msghdr message = { 0 };
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = CMSG_SPACE((size_t)request->n_fds * sizeof(int));
    struct cmsghdr *c = CMSG_FIRSTHDR(&message);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN((size_t)request->n_fds * sizeof(int));
    memcpy(CMSG_DATA(c), request->fds, (size_t)request->n_fds * sizeof(int));
    if (sendmsg(zygote->sock, &message, MSG_NOSIGNAL) < 0)
        return errno;
    return 0;
}

/* The end of a running zygote that did not report to the judge itself (it exited with other
 * than 0): what its program process sent before it took the request, else the zygote's wait
 * status. */
static void report_end(int sock, int status, int channel)
{
    char line[64];
    ssize_t n = recv(channel, line, sizeof line, MSG_DONTWAIT);
    if (n > 0) {
        if (send(sock, line, (size_t)n, MSG_NOSIGNAL) < 0)
            _exit(1);
    } else if (WIFSIGNALED(status)) {
        reply(sock, "signal", WTERMSIG(status));
    } else {
        reply(sock, "exit", WEXITSTATUS(status));
    }
}

/* Whether the message in request_buffer is "prepare" (optionally followed by the next run's
 * tmpfs size, a field of digits, put in *tmp_bytes; else ""). */
static int is_prepare(const struct request *request, const char **tmp_bytes)
{
    size_t length = request->length;
    if (length < 8 || memcmp(request_buffer, "prepare", 8) != 0 || request_buffer[length - 1] != '\0')
        return 0;
    *tmp_bytes = length > 8 ? request_buffer + 8 : "";
    return strlen(*tmp_bytes) + 9 == length || length == 8;
}

/* One request from the judge: a run (answered by its zygote when it ends) or "prepare". */
static void take_request(int sock, struct request *request, struct zygote *next, struct zygote *running)
{
    const char *tmp_bytes;
    if (is_prepare(request, &tmp_bytes)) {
        /* the judge has the last run's report and saw its processes gone: its zygote, ending
         * now, is reaped whenever it has */
        forget_zygote(running);
        if (next->pid == 0)
            make_zygote(next, request->fds, request->n_fds, tmp_bytes);  /* a failure shows at the next request */
        close_fds(request);  /* the zygote has its own copies */
        return;
    }
    if (request->n_fds < STDIO_FDS || !parse_request(request)) {
        close_fds(request);
        reply(sock, "refused", EINVAL);
        return;
    }
    if (running->pid != 0) {
        close_fds(request);
        reply(sock, "refused", EBUSY);
        return;
    }
    int error = 0;
    if (next->pid == 0)
        error = make_zygote(next, NULL, 0, "");
    if (error == 0 && !next->ready)
        error = take_ready(next, 1);
    if (error == 0) {
        drop_joined(next, request);
        error = start_run(next, request);
    }
    close_fds(request);
    if (error != 0) {
        if (next->pid != 0)
            kill(next->pid, SIGKILL);
        forget_zygote(next);
        reply(sock, "setup-failed", error);
        return;
    }
    *running = *next;
    next->pid = 0;  /* handed over: nothing of it to close here */
    next->sock = next->mount_ns = -1;
    forget_zygote(next);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 125;
    int sock = atoi(argv[1]);
    judge_socket = sock;
    read_filter(atoi(argv[2]));
    /* a mount namespace of our own user namespace, to come back to from a zygote's */
    if (unshare(CLONE_NEWNS) != 0 || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0
        || fcntl(sock, F_SETFD, FD_CLOEXEC) != 0 || chdir("/") != 0)
        return 125;
    own_mount_ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    if (own_mount_ns < 0)
        return 125;
    /* the bounding set, emptied once for every zygote (a fork inherits it; boxserver's own
     * capabilities stay: it never execs) */
    for (int cap = 0; prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) == 0; cap++)
        ;
    if (errno != EINVAL)  /* EINVAL: past the last capability */
        return 125;
    /* every signal blocked, none ignored: a zygote only clears the mask, and the handlers the
     * program inherits are the defaults; SIGCHLD is read from the signalfd */
    sigset_t all, child_signal;
    sigfillset(&all);
    sigemptyset(&child_signal);
    sigaddset(&child_signal, SIGCHLD);
    sigprocmask(SIG_BLOCK, &all, NULL);
    int signals = signalfd(-1, &child_signal, SFD_CLOEXEC | SFD_NONBLOCK);
    if (signals < 0)
        return 125;
    struct zygote next = { .pid = 0, .sock = -1, .mount_ns = -1 }, running = next;
    make_zygote(&next, NULL, 0, "");
    if (send(sock, "ready\n", 6, MSG_NOSIGNAL) != 6)
        return 1;

    for (;;) {
        struct pollfd watched[3] = { { sock, POLLIN, 0 }, { signals, POLLIN, 0 },
                                     { next.pid != 0 ? next.sock : -1, POLLIN, 0 } };
        if (poll(watched, 3, -1) < 0) {
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
            while ((done = waitpid(-1, &status, WNOHANG)) > 0) {
                if (done == running.pid) {
                    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)  /* 0: it reported */
                        report_end(sock, status, running.sock);
                    forget_zygote(&running);
                } else if (done == next.pid) {
                    forget_zygote(&next);  /* made again at the next request */
                }
            }
        }
        if (watched[2].revents && next.pid != 0 && next.sock == watched[2].fd) {
            if (!next.ready) {
                take_ready(&next, 0);
            } else {  /* a ready zygote that writes or ends has failed: made again without cgroups */
                kill(next.pid, SIGKILL);
                forget_zygote(&next);
            }
        }
        if (!watched[0].revents)
            continue;
        struct request request;
        ssize_t length = receive(sock, &request);
        if (length == 0)
            return 0;
        if (length < 0) {
            if (errno == EMSGSIZE)
                reply(sock, "refused", EMSGSIZE);
            else if (errno != EAGAIN)
                return 1;
            continue;
        }
        take_request(sock, &request, &next, &running);
    }
}
