"""Resource limits, each exercised by a real program through both paths (``Sandbox.run`` and
``Session.run``, the ``runner`` fixture): CPU, wall, memory, stack, tasks, output, files. Every
case also checks that the slot is left clean and usable."""

from __future__ import annotations

import os
import signal

import pytest

from sandbox import Limits
from tests.sandbox.conftest import assert_slot_clean, needs_root, place

pytestmark = needs_root

SPIN = r"""
int main(void) { volatile unsigned long n = 0; for (;;) n++; }
"""

SPIN_THREADS = r"""
#include <pthread.h>
static void *spin(void *arg) { volatile unsigned long n = 0; for (;;) n++; return arg; }
int main(void) {
    pthread_t t[8];
    for (int i = 0; i < 8; i++) pthread_create(&t[i], 0, spin, 0);
    pthread_join(t[0], 0);
}
"""

SPIN_CHILDREN = r"""
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 4; i++) if (fork() == 0) break;
    volatile unsigned long n = 0; for (;;) n++;
}
"""

CLOCK_BUSY_WAIT = r"""
#include <time.h>
int main(void) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do clock_gettime(CLOCK_MONOTONIC, &now); while (now.tv_sec - start.tv_sec < 100);
    return 0;
}
"""

CATCH_SIGXCPU = r"""
#include <signal.h>
#include <stdio.h>
static void ignore(int sig) { (void)sig; }
int main(void) {
    signal(SIGXCPU, ignore);
    signal(SIGTERM, ignore);
    volatile unsigned long n = 0; for (;;) n++;
}
"""

BLOCKED_READ = r"""
#include <unistd.h>
int main(void) { int p[2]; char c; pipe(p); return (int)read(p[0], &c, 1); }
"""

MEMORY_HOG = r"""
#include <stdlib.h>
#include <string.h>
int main(void) { for (;;) { char *p = malloc(1 << 20); if (!p) return 3; memset(p, 1, 1 << 20); } }
"""

UNTOUCHED_8GIB = r"""
#include <stdio.h>
#include <stdlib.h>
int main(void) { char *p = malloc((size_t)8 << 30); puts(p ? "allocated" : "refused"); return 0; }
"""

CUBE_512 = r"""
#include <cstdio>
int main() {
    auto a = new int[512][512][512];
    for (int i = 0; i < 512; i++) for (int j = 0; j < 512; j++) for (int k = 0; k < 512; k++) a[i][j][k] = i ^ j ^ k;
    std::printf("%d\n", a[511][511][511]);
}
"""

DEEP_RECURSION = r"""
#include <stdio.h>
#include <string.h>
/* about 1 KiB of stack per call: depth 200000 needs about 200 MiB of stack */
static long down(long depth) {
    volatile char frame[1000];
    memset((char *)frame, (int)depth, sizeof frame);
    return depth == 0 ? frame[0] : down(depth - 1) + frame[1];
}
int main(void) { printf("%ld\n", down(200000)); return 0; }
"""

STDOUT_FLOOD = r"""
#include <stdio.h>
#include <string.h>
int main(void) { char b[65536]; memset(b, 'x', sizeof b); for (;;) fwrite(b, 1, sizeof b, stdout); }
"""

STDERR_FLOOD = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    char b[65536]; memset(b, 'e', sizeof b);
    for (int i = 0; i < 1600; i++) fwrite(b, 1, sizeof b, stderr);  /* 100 MiB */
    puts("done");
    return 0;
}
"""

BIG_FILE = r"""
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
int main(int argc, char **argv) {
    signal(SIGXFSZ, SIG_IGN);  /* see the error instead of dying: either way the file stays small */
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) { printf("open failed %d\n", errno); return 0; }
    static char b[1 << 20];
    memset(b, 'f', sizeof b);
    for (int i = 0; i < 1024; i++)
        if (write(fd, b, sizeof b) != (ssize_t)sizeof b) { printf("stopped at %d MiB errno %d\n", i, errno); return 0; }
    puts("wrote 1 GiB");
    return 0;
}
"""


def run_c(runner, workdir, programs, name, source, limits, args=(), cpp=False):
    argv = place(programs(name, source, cpp=cpp), workdir)
    return runner.run([*argv, *args], workdir, limits)


def test_infinite_loop_hits_cpu_limit(runner, workdir, programs):
    result = run_c(runner, workdir, programs, "spin", SPIN, Limits(cpu_ms=500, wall_ms=5000))
    assert result.cpu_limit_exceeded and not result.wall_limit_exceeded
    assert result.signal == signal.SIGKILL
    assert 500 <= result.cpu_ms < 1000
    assert_slot_clean(runner, workdir)


@pytest.mark.slow
def test_spinning_threads_share_one_cpu_budget(runner, workdir, programs):
    result = run_c(runner, workdir, programs, "threads", SPIN_THREADS, Limits(cpu_ms=1000, wall_ms=10000))
    assert result.cpu_limit_exceeded
    assert result.cpu_ms < 2000  # the sum of 8 threads' CPU, stopped near 1x the limit, not 8x
    assert_slot_clean(runner, workdir)


@pytest.mark.slow
def test_forked_children_share_one_cpu_budget(runner, workdir, programs):
    result = run_c(runner, workdir, programs, "children", SPIN_CHILDREN, Limits(cpu_ms=1000, wall_ms=10000))
    assert result.cpu_limit_exceeded
    assert result.cpu_ms < 2000  # 5 processes: RLIMIT_CPU alone would allow 5 x 2 s
    assert_slot_clean(runner, workdir)


def test_busy_waiting_on_the_clock_hits_cpu_limit(runner, workdir, programs):
    result = run_c(runner, workdir, programs, "clockwait", CLOCK_BUSY_WAIT, Limits(cpu_ms=500, wall_ms=5000))
    assert result.cpu_limit_exceeded
    assert_slot_clean(runner, workdir)


def test_caught_sigxcpu_does_not_escape_the_cpu_limit(runner, workdir, programs):
    result = run_c(runner, workdir, programs, "xcpu", CATCH_SIGXCPU, Limits(cpu_ms=500, wall_ms=8000))
    assert result.cpu_limit_exceeded and not result.wall_limit_exceeded
    assert result.cpu_ms < 1000
    assert_slot_clean(runner, workdir)


def test_sleep_hits_wall_limit(runner, workdir):
    result = runner.run(["/bin/sleep", "100"], workdir, Limits(cpu_ms=1000, wall_ms=500))
    assert result.wall_limit_exceeded and not result.cpu_limit_exceeded
    assert result.signal == signal.SIGKILL
    assert_slot_clean(runner, workdir)


def test_read_that_never_ends_hits_wall_limit(runner, workdir, programs):
    result = run_c(runner, workdir, programs, "blocked", BLOCKED_READ, Limits(cpu_ms=1000, wall_ms=500))
    assert result.wall_limit_exceeded and not result.cpu_limit_exceeded
    assert_slot_clean(runner, workdir)


def test_memory_hog_hits_memory_limit_with_peak_near_it(runner, workdir, programs):
    limit_kib = 64 * 1024
    result = run_c(runner, workdir, programs, "hog", MEMORY_HOG, Limits(memory_kib=limit_kib, wall_ms=10000))
    assert result.memory_limit_exceeded
    assert result.signal == signal.SIGKILL
    assert 0.9 * limit_kib <= result.peak_memory_kib <= 1.05 * limit_kib
    assert_slot_clean(runner, workdir)


def test_untouched_8_gib_allocation_is_harmless(runner, workdir, programs):
    result = run_c(runner, workdir, programs, "untouched", UNTOUCHED_8GIB, Limits(memory_kib=256 * 1024))
    assert result.exit_code == 0 and result.stdout in (b"allocated\n", b"refused\n")
    assert not result.memory_limit_exceeded
    assert result.peak_memory_kib < 64 * 1024
    assert_slot_clean(runner, workdir)


def test_512_cubed_ints_exceed_256_mib(runner, workdir, programs):
    result = run_c(
        runner, workdir, programs, "cube", CUBE_512, Limits(memory_kib=256 * 1024, cpu_ms=5000, wall_ms=10000), cpp=True
    )
    assert result.memory_limit_exceeded and result.exit_code is None
    assert_slot_clean(runner, workdir)


def test_deep_recursion_with_200_mib_stack_passes(runner, workdir, programs):
    result = run_c(
        runner,
        workdir,
        programs,
        "recursion",
        DEEP_RECURSION,
        Limits(memory_kib=256 * 1024, cpu_ms=5000, wall_ms=10000),
    )
    assert (result.exit_code, result.signal) == (0, None)
    assert not result.limit_exceeded
    assert result.peak_memory_kib > 190 * 1024  # the stack really was used
    assert_slot_clean(runner, workdir)


def test_stdout_flood_hits_the_output_limit(runner, workdir, programs):
    limit = 1 << 20
    result = run_c(
        runner, workdir, programs, "flood", STDOUT_FLOOD, Limits(output_bytes=limit, file_bytes=limit, wall_ms=5000)
    )
    assert result.output_limit_exceeded
    assert len(result.stdout) == limit
    assert_slot_clean(runner, workdir)


def test_stderr_is_capped_not_fatal(runner, workdir, programs):
    result = run_c(runner, workdir, programs, "errflood", STDERR_FLOOD, Limits(stderr_bytes=4096, wall_ms=20000))
    assert (result.exit_code, result.stdout) == (0, b"done\n")
    assert result.stderr == b"e" * 4096
    assert not result.limit_exceeded
    assert_slot_clean(runner, workdir)


@pytest.mark.parametrize("where", ["/tmp/big", "/box/big", "/dev/shm/big"])
def test_a_1_gib_file_is_stopped_small(runner, workdir, programs, where):
    limits = Limits(file_bytes=8 << 20, tmp_bytes=16 << 20, wall_ms=10000)
    result = run_c(runner, workdir, programs, "bigfile", BIG_FILE, limits, args=(where,))
    assert result.stdout.startswith(b"stopped at"), result.stdout
    assert int(result.stdout.split()[2]) <= 16
    if where == "/box/big":
        assert (workdir / "big").stat().st_size <= limits.file_bytes + 1
        os.unlink(workdir / "big")
    assert_slot_clean(runner, workdir)


@pytest.mark.slow
def test_compile_bomb_from_dev_urandom_is_stopped(runner, workdir):
    (workdir / "bomb.cpp").write_text('#include "/dev/urandom"\n')
    limits = Limits(cpu_ms=5000, wall_ms=10000, memory_kib=256 * 1024, output_bytes=1 << 20)
    result = runner.run(["/usr/bin/g++", "-c", "bomb.cpp"], workdir, limits, env={"PATH": "/usr/bin:/bin"})
    assert result.limit_exceeded or result.exit_code not in (0, None)
    assert not (workdir / "bomb.o").exists()
    assert_slot_clean(runner, workdir)


MANY_FILES = r"""
#include <stdio.h>
#include <string.h>
int main(void) {
    static char b[1 << 20];
    memset(b, 'm', sizeof b);
    char name[64];
    for (int i = 0; i < 100000; i++) {  /* 100 GiB in 1 MiB files, each under the file limit */
        snprintf(name, sizeof name, "junk%d", i);
        FILE *f = fopen(name, "w");
        if (!f) return 2;
        fwrite(b, 1, sizeof b, f);
        fclose(f);
    }
    return 0;
}
"""


def test_many_files_hit_the_workdir_limit(runner, workdir, programs):
    limits = Limits(workdir_bytes=32 << 20, file_bytes=2 << 20, wall_ms=20000, cpu_ms=10000)
    result = run_c(runner, workdir, programs, "manyfiles", MANY_FILES, limits)
    assert result.output_limit_exceeded and result.signal == signal.SIGKILL
    written = sum(path.stat().st_size for path in workdir.glob("junk*"))
    assert written < 512 << 20  # stopped within a fraction of a second of passing 32 MiB
    for path in workdir.glob("junk*"):
        path.unlink()
    assert_slot_clean(runner, workdir)
