/*
 * launch: runs as root outside the box, between the judge and bubblewrap; sets the rlimits,
 * drops to the slot's uid and execs bubblewrap.
 *
 *   launch UID GID [RESOURCE:SOFT:HARD ...] -- BWRAP [ARG ...]
 *
 * UID/GID -1: keep the current ones (the judge is not root). RESOURCE is an RLIMIT_* number.
 * Why a C program: the judge (Python) can then spawn with vfork instead of forking itself to
 * run Python code between fork and exec, which costs about ten times more.
 * Any failure: a "launch: ..." line on stderr and exit 126, before bubblewrap starts.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static void fail(const char *what)
{
    fprintf(stderr, "launch: %s: %s\n", what, strerror(errno));
    _exit(126);
}

int main(int argc, char **argv)
{
    int i, separator = -1;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) { separator = i; break; }
    if (separator < 3 || separator + 1 >= argc) {
        errno = EINVAL;
        fail("usage: launch UID GID [RESOURCE:SOFT:HARD ...] -- PROGRAM [ARG ...]");
    }
    long uid = strtol(argv[1], NULL, 10), gid = strtol(argv[2], NULL, 10);
    for (i = 3; i < separator; i++) {
        int resource;
        unsigned long long soft, hard;
        if (sscanf(argv[i], "%d:%llu:%llu", &resource, &soft, &hard) != 3) {
            errno = EINVAL;
            fail(argv[i]);
        }
        struct rlimit limit = { (rlim_t)soft, (rlim_t)hard };
        if (setrlimit(resource, &limit) != 0)
            fail("setrlimit");
    }
    umask(022);
    if (gid >= 0) {
        if (setgroups(0, NULL) != 0)
            fail("setgroups");
        if (setresgid((gid_t)gid, (gid_t)gid, (gid_t)gid) != 0)
            fail("setresgid");
    }
    if (uid >= 0) {
        if (setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid) != 0)
            fail("setresuid");
        if (uid != 0 && setuid(0) == 0) {  /* the drop must be irreversible */
            errno = EPERM;
            fail("still able to regain root");
        }
    }
    execv(argv[separator + 1], argv + separator + 1);
    fail(argv[separator + 1]);
    return 126;
}
