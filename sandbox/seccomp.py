"""The seccomp filter given to bubblewrap (``--seccomp FD``): a deny-list of system calls a judged
program never needs.

Guarantees (each proved by a test):
- Denied calls fail with EPERM instead of killing the program, so a runtime that probes them (the
  JVM, glibc) keeps working: ptrace, mount/umount2 and the new mount API, unshare, setns, bpf,
  perf_event_open, io_uring_*, keyctl/add_key/request_key, userfaultfd, kexec_*, module loading,
  pivot_root, chroot, swap, reboot, acct, open_by_handle_at, quotactl, syslog, iopl/ioperm,
  process_vm_writev; ``ioctl(TIOCSTI)`` and ``ioctl(TIOCLINUX)`` (typing into a terminal).
  tests/sandbox/test_seccomp.py::test_denied_calls_fail_with_eperm_in_box
- ``clone`` with a namespace flag fails with EPERM; ``clone3`` (whose flags a filter cannot read)
  fails with ENOSYS, so glibc falls back to ``clone`` (the approach of Docker's and systemd's
  filters). tests/sandbox/test_seccomp.py::test_threads_and_fork_still_work
- ``socket`` and ``socketpair`` work for AF_UNIX only; any other family (internet, vsock,
  netlink, packet) fails with EAFNOSUPPORT: a program reaches no network, not even the box's
  loopback shared by a session's runs, and no host service over vsock.
  tests/sandbox/test_box_guarantees.py::test_only_unix_sockets
- ``fallocate`` works with mode 0 only (it grows the file, so RLIMIT_FSIZE and the disk limits
  see it); FALLOC_FL_KEEP_SIZE, PUNCH_HOLE and the other modes fail with EOPNOTSUPP.
  tests/sandbox/test_box_guarantees.py::test_fallocate_cannot_hide_disk
- A system call of another ABI (i386 ``int 0x80``, x32) kills the process: the deny-list's numbers
  are only right for x86_64. tests/sandbox/test_seccomp.py::test_program_layout
- The syscall numbers match the kernel headers. tests/sandbox/test_seccomp.py::test_numbers_match_headers

Format: classic BPF over ``struct seccomp_data`` (linux/seccomp.h, linux/filter.h): each
instruction is ``struct sock_filter {u16 code; u8 jt; u8 jf; u32 k}``, native byte order;
bubblewrap reads the instruction array from the FD and installs it after setting up the box.
"""

from __future__ import annotations

import errno
import functools
import platform
import struct

# BPF opcodes (linux/bpf_common.h)
BPF_LD_W_ABS = 0x00 | 0x00 | 0x20  # BPF_LD | BPF_W | BPF_ABS
BPF_JEQ_K = 0x05 | 0x10 | 0x00  # BPF_JMP | BPF_JEQ | BPF_K
BPF_JGE_K = 0x05 | 0x30 | 0x00  # BPF_JMP | BPF_JGE | BPF_K
BPF_JSET_K = 0x05 | 0x40 | 0x00  # BPF_JMP | BPF_JSET | BPF_K
BPF_RET_K = 0x06 | 0x00  # BPF_RET | BPF_K

# seccomp return actions (linux/seccomp.h)
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000

# offsets in struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6];}
OFFSET_NR = 0
OFFSET_ARCH = 4


def _arg_low_word(index: int) -> int:
    """Offset of the low 32 bits of syscall argument ``index`` (little endian x86_64)."""
    return 16 + 8 * index


# x86_64 numbers (arch/x86/entry/syscalls/syscall_64.tbl)
DENIED_SYSCALLS_X86_64: dict[str, int] = {
    "ptrace": 101,
    "syslog": 103,
    "pivot_root": 155,
    "chroot": 161,
    "acct": 163,
    "mount": 165,
    "umount2": 166,
    "swapon": 167,
    "swapoff": 168,
    "reboot": 169,
    "iopl": 172,
    "ioperm": 173,
    "init_module": 175,
    "delete_module": 176,
    "quotactl": 179,
    "kexec_load": 246,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "unshare": 272,
    "perf_event_open": 298,
    "open_by_handle_at": 304,
    "setns": 308,
    "process_vm_writev": 311,
    "finit_module": 313,
    "kexec_file_load": 320,
    "bpf": 321,
    "userfaultfd": 323,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "mount_setattr": 442,
}
SYSCALL_IOCTL = 16
SYSCALL_SOCKET = 41
SYSCALL_SOCKETPAIR = 53
SYSCALL_FALLOCATE = 285
AF_UNIX = 1
SYSCALL_CLONE = 56
SYSCALL_CLONE3 = 435
DENIED_IOCTLS = {"TIOCSTI": 0x5412, "TIOCLINUX": 0x541C}
# CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET (linux/sched.h);
# CLONE_NEWTIME (0x80) shares bits with clone()'s exit signal and only works with clone3/unshare
CLONE_NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _deny_if_equal(value: int, action: int) -> list[bytes]:
    """Two instructions: if the accumulator == value return ``action``, else go on."""
    return [_insn(BPF_JEQ_K, value, 0, 1), _insn(BPF_RET_K, action)]


def _allow_only_if_argument(number: int, index: int, value: int, action: int) -> list[bytes]:
    """Five instructions: for system call ``number``, allow it if the low 32 bits of argument
    ``index`` equal ``value``, else return ``action``; other calls go on."""
    return [
        _insn(BPF_JEQ_K, number, 0, 4),
        _insn(BPF_LD_W_ABS, _arg_low_word(index)),
        _insn(BPF_JEQ_K, value, 0, 1),
        _insn(BPF_RET_K, SECCOMP_RET_ALLOW),
        _insn(BPF_RET_K, action),
    ]


def build_filter() -> bytes:
    """The compiled filter: an array of 8-byte ``sock_filter`` instructions for x86_64.

    Layout: check the ABI (kill on another), load the syscall number, kill x32 numbers, then one
    compare-and-return pair per denied call, argument checks for ioctl, socket, socketpair,
    fallocate and clone, allow the rest.
    Raises SandboxError on a machine that is not x86_64 (the numbers would be wrong).
    """
    return _build_filter_cached()


@functools.lru_cache(maxsize=1)
def _build_filter_cached() -> bytes:
    if platform.machine() != "x86_64":
        from sandbox.errors import SandboxError

        raise SandboxError(f"the seccomp filter knows only x86_64 system calls, not {platform.machine()}")
    eperm = SECCOMP_RET_ERRNO | errno.EPERM
    program = [
        _insn(BPF_LD_W_ABS, OFFSET_ARCH),
        _insn(BPF_JEQ_K, AUDIT_ARCH_X86_64, 1, 0),
        _insn(BPF_RET_K, SECCOMP_RET_KILL_PROCESS),
        _insn(BPF_LD_W_ABS, OFFSET_NR),
        _insn(BPF_JGE_K, X32_SYSCALL_BIT, 0, 1),
        _insn(BPF_RET_K, SECCOMP_RET_KILL_PROCESS),
    ]
    for number in sorted(DENIED_SYSCALLS_X86_64.values()):
        program += _deny_if_equal(number, eperm)
    program += _deny_if_equal(SYSCALL_CLONE3, SECCOMP_RET_ERRNO | errno.ENOSYS)
    # ioctl: look at the request (argument 1); the kernel reads it as a 32-bit unsigned int
    ioctl_checks = [_insn(BPF_LD_W_ABS, _arg_low_word(1))]
    for request in DENIED_IOCTLS.values():
        ioctl_checks += _deny_if_equal(request, eperm)
    ioctl_checks.append(_insn(BPF_RET_K, SECCOMP_RET_ALLOW))
    program += [_insn(BPF_JEQ_K, SYSCALL_IOCTL, 0, len(ioctl_checks))] + ioctl_checks
    # socket, socketpair: only AF_UNIX (argument 0); no internet, vsock or netlink socket
    for number in (SYSCALL_SOCKET, SYSCALL_SOCKETPAIR):
        program += _allow_only_if_argument(number, 0, AF_UNIX, SECCOMP_RET_ERRNO | errno.EAFNOSUPPORT)
    # fallocate: only mode 0 (argument 1), which grows the file's size and so meets RLIMIT_FSIZE;
    # KEEP_SIZE, PUNCH_HOLE and the other modes would reserve or move disk the size does not show
    program += _allow_only_if_argument(SYSCALL_FALLOCATE, 1, 0, SECCOMP_RET_ERRNO | errno.EOPNOTSUPP)
    # clone: flags (argument 0) carrying a namespace bit are refused
    program += [
        _insn(BPF_JEQ_K, SYSCALL_CLONE, 0, 4),
        _insn(BPF_LD_W_ABS, _arg_low_word(0)),
        _insn(BPF_JSET_K, CLONE_NAMESPACE_FLAGS, 0, 1),
        _insn(BPF_RET_K, eperm),
        _insn(BPF_RET_K, SECCOMP_RET_ALLOW),
    ]
    program.append(_insn(BPF_RET_K, SECCOMP_RET_ALLOW))
    return b"".join(program)
