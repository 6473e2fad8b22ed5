"""The hostile corpus: programs that attack the judge, each run for real through both paths
(``Sandbox.run``, one box per run, and ``Session.run``, one box for many runs: the ``runner``
fixture), each with its expected outcome, and each followed by a check that the slot is clean
(no process of its uid but a session's own box, no file in the host's temp folders) and that
the next run works normally."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time

import pytest

from sandbox import Limits, read_output_file
from tests.sandbox.conftest import assert_slot_clean, needs_root, place, stray_processes

pytestmark = needs_root

FORK_BOMB = r"""
#include <unistd.h>
int main(void) { for (;;) fork(); }
"""

THREAD_BOMB = r"""
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static void *idle(void *arg) { for (;;) pause(); return arg; }
int main(void) {
    int made = 0;
    for (int i = 0; i < 1000; i++) { pthread_t t; if (pthread_create(&t, 0, idle, 0) == 0) made++; }
    printf("%d\n", made);
    fflush(stdout);
    for (;;) pause();
}
"""

KILL_EVERYONE = r"""
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int parent = kill(getppid(), SIGKILL), all = kill(-1, SIGKILL);
    printf("%d %d\n", parent, all);
    return 0;
}
"""

DAEMON = r"""
#include <stdio.h>
#include <unistd.h>
int main(void) {
    if (fork() != 0) return 0;
    setsid();
    if (fork() != 0) return 0;
    for (;;) { FILE *f = fopen("/box/alive", "a"); if (f) { fputs(".", f); fclose(f); } usleep(20000); }
}
"""

EXIT_137 = "int main(void) { return 137; }\n"
ABORT = "#include <stdlib.h>\nint main(void) { abort(); }\n"

TRY_FILES = r"""
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
/* argv: w|r path ...; prints "path ok" or "path errno-name" for each */
int main(int argc, char **argv) {
    for (int i = 2; i < argc; i++) {
        int fd = argv[1][0] == 'w' ? open(argv[i], O_WRONLY | O_CREAT | O_TRUNC, 0644) : open(argv[i], O_RDONLY);
        char c;
        if (fd >= 0 && (argv[1][0] == 'w' ? write(fd, "x", 1) == 1 : read(fd, &c, 1) >= 0)) printf("%s ok\n", argv[i]);
        else printf("%s %s\n", argv[i], strerror(errno));
        if (fd >= 0) close(fd);
    }
    return 0;
}
"""

CONNECT = r"""
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET; a.sin_port = htons(atoi(argv[i + 1]));
        inet_pton(AF_INET, argv[i], &a.sin_addr);
        int s = socket(AF_INET, SOCK_STREAM, 0);
        int r = s < 0 ? -1 : connect(s, (struct sockaddr *)&a, sizeof a);
        printf("%s:%s %s\n", argv[i], argv[i + 1], r == 0 ? "connected" : strerror(errno));
        if (s >= 0) close(s);
    }
    return 0;
}
"""


def lines(result) -> dict[str, str]:
    """``key rest`` lines of a program's stdout as a dict."""
    return dict(line.split(" ", 1) for line in result.stdout.decode().splitlines())


@pytest.mark.slow
def test_fork_bomb_is_contained(runner, workdir, programs):
    limits = Limits(processes=16, cpu_ms=1000, wall_ms=2000)
    result = runner.run(place(programs("forkbomb", FORK_BOMB), workdir), workdir, limits)
    assert result.process_limit_hit
    assert result.cpu_limit_exceeded or result.wall_limit_exceeded
    assert_slot_clean(runner, workdir)


@pytest.mark.slow
def test_thread_bomb_is_capped_at_the_task_limit(runner, workdir, programs):
    limits = Limits(processes=32, cpu_ms=2000, wall_ms=2000)
    result = runner.run(place(programs("threadbomb", THREAD_BOMB), workdir), workdir, limits)
    assert result.process_limit_hit and result.wall_limit_exceeded
    assert 0 < int(result.stdout) < 32  # the main thread and boxinit take slots too
    assert_slot_clean(runner, workdir)


def test_kill_all_and_kill_parent_harm_no_host_process(runner, workdir, programs):
    canary = subprocess.Popen(["/bin/sleep", "60"], user=runner.uid, group=runner.gid, extra_groups=[])
    try:
        result = runner.run(place(programs("killall", KILL_EVERYONE), workdir), workdir, Limits())
        assert canary.poll() is None, "a host process of the slot's uid was killed"
        assert not result.limit_exceeded
    finally:
        canary.kill()
        canary.wait()
    assert_slot_clean(runner, workdir)


def test_daemon_does_not_outlive_the_run(runner, workdir, programs):
    result = runner.run(place(programs("daemon", DAEMON), workdir), workdir, Limits())
    assert result.exit_code == 0
    assert stray_processes(runner) == []
    size = (workdir / "alive").stat().st_size if (workdir / "alive").exists() else 0
    time.sleep(0.1)
    after = (workdir / "alive").stat().st_size if (workdir / "alive").exists() else 0
    assert after == size, "something still writes into the work folder"
    assert_slot_clean(runner, workdir)


def test_exit_137_is_not_a_limit(runner, workdir, programs):
    result = runner.run(place(programs("exit137", EXIT_137), workdir), workdir, Limits())
    assert (result.exit_code, result.signal) == (137, None)
    assert not result.limit_exceeded
    assert_slot_clean(runner, workdir)


def test_abort_reports_sigabrt(runner, workdir, programs):
    result = runner.run(place(programs("abort", ABORT), workdir), workdir, Limits())
    assert (result.exit_code, result.signal, result.signal_name) == (None, signal.SIGABRT, "SIGABRT")
    assert not result.limit_exceeded
    assert_slot_clean(runner, workdir)


def test_system_places_cannot_be_written(runner, workdir, programs):
    targets = ["/x", "/usr/x", "/etc/x", "/proc/sys/kernel/hostname", "/proc/sys/vm/drop_caches", "/dev/x"]
    result = runner.run(place(programs("tryfiles", TRY_FILES), workdir) + ["w", *targets], workdir, Limits())
    outcome = lines(result)
    assert set(outcome) == set(targets)
    assert all(status != "ok" for status in outcome.values()), outcome
    assert_slot_clean(runner, workdir)


def test_host_secrets_cannot_be_read(runner, workdir, work_root, programs):
    # world-readable on purpose: what hides them is the box's mounts, not file modes
    secret = work_root / "package" / "data" / "secret"
    secret.mkdir(parents=True, exist_ok=True)
    (secret / "01.ans").write_text("42\n")
    os.chmod(secret / "01.ans", 0o644)
    other_slot = work_root / "other-slot-work"
    other_slot.mkdir(exist_ok=True)
    (other_slot / "main.cpp").write_text("// another team's code\n")
    targets = [
        "/etc/shadow",
        "/etc/passwd",
        "/root/.bashrc",
        str(secret / "01.ans"),
        str(other_slot / "main.cpp"),
        "/proc/1/environ",
    ]
    result = runner.run(place(programs("tryfiles", TRY_FILES), workdir) + ["r", *targets], workdir, Limits())
    outcome = lines(result)
    assert all(outcome[path] != "ok" for path in targets[:5]), outcome
    assert_slot_clean(runner, workdir)


def test_worker_environment_is_not_visible(runner, workdir, monkeypatch):
    monkeypatch.setenv("JUDGE_DATABASE_PASSWORD", "hunter2")
    script = "cat /proc/self/environ /proc/1/environ | tr '\\0' '\\n'; ls /proc | grep -c '^[0-9]'"
    result = runner.run(["/bin/sh", "-c", script], workdir, Limits(), env={"ONLY": "this"})
    assert b"hunter2" not in result.stdout
    assert b"JUDGE_DATABASE_PASSWORD" not in result.stdout
    assert b"ONLY=this" in result.stdout
    assert_slot_clean(runner, workdir)


def test_network_is_unreachable(runner, workdir, programs):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    try:
        argv = place(programs("connect", CONNECT), workdir) + [
            "127.0.0.1",
            str(port),
            "127.0.0.1",
            "5432",
            "1.1.1.1",
            "80",
        ]
        result = runner.run(argv, workdir, Limits(wall_ms=5000))
    finally:
        listener.close()
    outcome = lines(result)
    assert len(outcome) == 3
    assert all(status != "connected" for status in outcome.values()), outcome
    assert_slot_clean(runner, workdir)


@pytest.mark.parametrize("plant", ["symlink-shadow", "symlink-secret", "fifo", "folder"])
def test_planted_output_files_are_refused(runner, workdir, work_root, plant):
    secret = work_root / "judge-answer.ans"
    secret.write_text("the judge answer\n")
    command = {
        "symlink-shadow": "ln -s /etc/shadow output.txt",
        "symlink-secret": f"ln -s {secret} output.txt",
        "fifo": "mkfifo output.txt",
        "folder": "mkdir output.txt",
    }[plant]
    result = runner.run(["/bin/sh", "-c", command], workdir, Limits())
    assert result.exit_code == 0
    assert read_output_file(workdir, "output.txt", 1 << 20) is None
    assert secret.read_text() == "the judge answer\n"
    assert_slot_clean(runner, workdir)
