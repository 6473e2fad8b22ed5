"""The seccomp deny-list: its numbers, its behaviour when loaded into a plain process, and its
effect on real programs in the box (both paths: the ``runner`` fixture)."""

from __future__ import annotations

import errno
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import Limits
from sandbox.seccomp import (
    DENIED_IOCTLS,
    DENIED_SYSCALLS_X86_64,
    SYSCALL_CLONE,
    SYSCALL_CLONE3,
    SYSCALL_IOCTL,
    build_filter,
)
from tests.sandbox.conftest import needs_root, place

HEADER = Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h")
IOCTL_HEADER = Path("/usr/include/asm-generic/ioctls.h")

# Loads the filter into this very process (no bubblewrap) and reports what some calls return.
LOAD_AND_PROBE = r"""
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
code = sys.stdin.buffer.read()
class Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]
program = Program(len(code) // 8, code)
assert libc.prctl(38, 1, 0, 0, 0) == 0                     # PR_SET_NO_NEW_PRIVS
assert libc.prctl(22, 2, ctypes.byref(program), 0, 0) == 0  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
def call(number, *args):
    result = libc.syscall(number, *args)
    return 0 if result >= 0 else ctypes.get_errno()
print("ptrace", call(101, 0, 0, 0, 0))
print("unshare", call(272, 0x10000000))
print("clone3", call(435, 0, 0))
print("getpid", call(39))
print("ioctl_tiocsti", call(16, 0, 0x5412, ctypes.c_char_p(b"x")))
print("ioctl_fionread", call(16, 0, 0x541B, ctypes.byref(ctypes.c_int())))
print("bpf", call(321, 0, 0, 0))
"""

IN_BOX = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/wait.h>
#define SHOW(name, expr) do { long r = (expr); printf("%s %d\n", name, r < 0 ? errno : 0); } while (0)
static void *nothing(void *arg) { return arg; }
int main(void) {
    SHOW("ptrace", syscall(SYS_ptrace, 0, 0, 0, 0));
    SHOW("mount", syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, 0));
    SHOW("umount2", syscall(SYS_umount2, "/tmp", 0));
    SHOW("unshare", syscall(SYS_unshare, CLONE_NEWNET));
    SHOW("setns", syscall(SYS_setns, 0, 0));
    SHOW("bpf", syscall(SYS_bpf, 0, 0, 0));
    SHOW("perf_event_open", syscall(SYS_perf_event_open, 0, 0, -1, -1, 0));
    SHOW("io_uring_setup", syscall(SYS_io_uring_setup, 1, 0));
    SHOW("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0));
    SHOW("add_key", syscall(SYS_add_key, 0, 0, 0, 0, 0));
    SHOW("request_key", syscall(SYS_request_key, 0, 0, 0, 0));
    SHOW("userfaultfd", syscall(SYS_userfaultfd, 0));
    SHOW("kexec_load", syscall(SYS_kexec_load, 0, 0, 0, 0));
    SHOW("init_module", syscall(SYS_init_module, 0, 0, 0));
    SHOW("tiocsti", ioctl(0, TIOCSTI, "x"));
    SHOW("clone_newuser", syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0));
    SHOW("clone3", syscall(SYS_clone3, 0, 0));
    pthread_t t;
    SHOW("thread", -(long)pthread_create(&t, 0, nothing, 0) ?: pthread_join(t, 0));
    pid_t child = fork();
    if (child == 0) _exit(0);
    int status;
    SHOW("fork", child < 0 ? -1 : waitpid(child, &status, 0));
    return 0;
}
"""

I386_SYSCALL = r"""
int main(void) { int result; __asm__ volatile ("int $0x80" : "=a"(result) : "a"(20)); return result > 0 ? 0 : 1; }
"""


def test_numbers_match_headers():
    if not HEADER.exists():
        pytest.skip("kernel headers are not installed")
    text = HEADER.read_text()
    numbers = {name: int(number) for name, number in re.findall(r"#define __NR_(\w+) (\d+)", text)}
    for name, number in DENIED_SYSCALLS_X86_64.items():
        assert numbers[name] == number, name
    assert (numbers["ioctl"], numbers["clone"], numbers["clone3"]) == (SYSCALL_IOCTL, SYSCALL_CLONE, SYSCALL_CLONE3)
    ioctls = dict(re.findall(r"#define (TIOC\w+)\s+(0x[0-9A-Fa-f]+)", IOCTL_HEADER.read_text()))
    for name, number in DENIED_IOCTLS.items():
        assert int(ioctls[name], 16) == number


def test_program_layout():
    code = build_filter()
    assert len(code) % 8 == 0 and 0 < len(code) // 8 < 4096  # the kernel's BPF_MAXINSNS
    assert code[:8] == bytes.fromhex("2000000004000000")  # ld [4]: the architecture comes first


def test_filter_denies_with_eperm_when_loaded_in_a_process():
    done = subprocess.run([sys.executable, "-c", LOAD_AND_PROBE], input=build_filter(), capture_output=True, check=True)
    result = dict(line.split() for line in done.stdout.decode().splitlines())
    assert int(result["ptrace"]) == errno.EPERM
    assert int(result["unshare"]) == errno.EPERM
    assert int(result["bpf"]) == errno.EPERM
    assert int(result["clone3"]) == errno.ENOSYS
    assert int(result["ioctl_tiocsti"]) == errno.EPERM
    assert int(result["getpid"]) == 0
    assert int(result["ioctl_fionread"]) == 0  # other ioctls pass


@needs_root
def test_denied_calls_fail_with_eperm_in_box(runner, workdir, programs):
    result = runner.run(place(programs("seccomp_probe", IN_BOX), workdir), workdir, Limits())
    outcome = {name: int(code) for name, code in (line.split() for line in result.stdout.decode().splitlines())}
    for name in (
        "ptrace",
        "mount",
        "umount2",
        "unshare",
        "setns",
        "bpf",
        "perf_event_open",
        "io_uring_setup",
        "keyctl",
        "add_key",
        "request_key",
        "userfaultfd",
        "kexec_load",
        "init_module",
        "tiocsti",
        "clone_newuser",
    ):
        assert outcome[name] == errno.EPERM, name
    assert outcome["clone3"] == errno.ENOSYS


@needs_root
def test_threads_and_fork_still_work(runner, workdir, programs):
    result = runner.run(place(programs("seccomp_probe", IN_BOX), workdir), workdir, Limits())
    outcome = dict(line.split() for line in result.stdout.decode().splitlines())
    assert (outcome["thread"], outcome["fork"]) == ("0", "0")


@needs_root
def test_other_abi_system_call_kills_the_program(runner, workdir, programs):
    result = runner.run(place(programs("i386", I386_SYSCALL), workdir), workdir, Limits())
    assert result.signal == signal.SIGSYS
