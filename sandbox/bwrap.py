"""The bubblewrap command line of a run.

Guarantees (bubblewrap 0.8 flags; each proved by a test in tests/sandbox/):
- New user, PID, network, IPC, UTS and (where possible) cgroup namespaces; ``--disable-userns``
  (no nested user namespace), ``--die-with-parent``, ``--new-session`` (no TIOCSTI on the judge's
  terminal), ``--cap-drop ALL``, ``--clearenv`` then only the caller's variables.
  test_isolation.py::test_namespaces_and_identity, test_isolation.py::test_environment_is_only_what_was_given
- The root is an empty tmpfs remounted read-only; the system folders (/usr and the /bin, /lib*
  links or binds, a few /etc files: dynamic loader cache, alternatives, fpc.cfg, the JDK's
  config) are bound read-only; nothing else of the host is visible (no /home, no /etc/shadow, no
  /root, no judge folders). test_isolation.py::test_host_files_are_invisible,
  test_isolation.py::test_system_folders_are_read_only
- The work directory is bound read-write at /box (the current directory); /tmp and /dev/shm are
  private tmpfs of ``Limits.tmp_bytes``; /dev is bubblewrap's minimal one (null, zero, full,
  random, urandom, tty) remounted read-only; /proc belongs to the new PID namespace only.
  test_isolation.py::test_tmp_is_private_and_capped, test_isolation.py::test_proc_shows_only_the_box
- No pseudo-terminal can be opened: an empty tmpfs covers bubblewrap's devpts (the kernel's
  count of terminals, kernel.pty.max, is shared by the whole machine). test_box_guarantees.py::
  test_no_pseudo_terminals
- The seccomp filter (sandbox.seccomp) is installed by bubblewrap on the program.

The fixed part of the argument list is built once per ``Sandbox``; a run adds its binds, sizes,
environment and file descriptors. A session box (``session_arguments``) is the same box made
once for many runs; what differs is stated there and in sandbox/session.py.
"""

from __future__ import annotations

import glob
import json
import os
from collections.abc import Sequence
from pathlib import Path

BOX_DIR = "/box"
# top-level host folders a toolchain needs: on merged-/usr systems they are symlinks into /usr
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# /etc entries a toolchain reads: the loader's cache, alternatives (java, c++ ...), Free Pascal's
# config (a symlink chain: bound as the file it resolves to), the JDK's config (its conf/ links
# there). Each bind costs a mount per run: keep the list short.
SYSTEM_ETC = ("/etc/ld.so.cache", "/etc/alternatives", "/etc/fpc.cfg")
SYSTEM_ETC_GLOBS = ("/etc/java-*-openjdk",)
NAMESPACE_FLAGS = (
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
)
HARDENING_FLAGS = (
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
    "--clearenv",
    "--hostname",
    "box",
)


def system_mounts() -> list[str]:
    """bwrap arguments that show the host's system folders read-only: a symlink stays a symlink
    (``/lib -> usr/lib``), a real folder is bound; absent ones are skipped."""
    args: list[str] = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    etc = [p for p in SYSTEM_ETC if os.path.lexists(p)]
    for pattern in SYSTEM_ETC_GLOBS:
        etc += sorted(glob.glob(pattern))
    for path in etc:
        args += ["--ro-bind", path, path]
    return args


def fixed_arguments(bwrap_path: str) -> list[str]:
    """The part of the command shared by every run of a slot: bwrap, namespaces, hardening flags,
    system folders, /proc and /dev."""
    return [
        bwrap_path,
        *NAMESPACE_FLAGS,
        *HARDENING_FLAGS,
        *system_mounts(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        # no pseudo-terminals: the kernel's count of them is machine-wide (kernel.pty.max)
        "--size",
        "4096",
        "--tmpfs",
        "/dev/pts",
        "--remount-ro",
        "/dev/pts",
    ]


def run_arguments(
    fixed: list[str],
    *,
    workdir: Path,
    tmp_bytes: int,
    readonly_binds: Sequence[Path | tuple[Path, str]],
    env: dict[str, str],
    seccomp_fd: int,
    status_fd: int,
    argv: list[str],
    as_pid_1: bool = False,
) -> list[str]:
    """The whole command of one run.

    workdir: host folder bound read-write at /box and made the current directory.
    tmp_bytes: size of the private /tmp and /dev/shm (bytes). readonly_binds: extra host paths,
    shown read-only at the same path, or (host path, path in the box) pairs. env: the program's
    whole environment. seccomp_fd: a readable FD holding the BPF program; status_fd: where bwrap writes its JSON status
    (``exit-code`` appears only if the program was started). argv: the program and arguments.
    as_pid_1: run argv as the PID namespace's init instead of under bubblewrap's own reaper
    (for boxinit: bubblewrap's reaper tells its parent of the end before it has exited, so it
    would be left as an orphan of the host's init).
    """
    args = list(fixed)
    args += ["--size", str(tmp_bytes), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    args += ["--size", str(tmp_bytes), "--tmpfs", "/tmp"]
    args += _folder_arguments(readonly_binds, workdir, BOX_DIR)
    for name, value in env.items():
        args += ["--setenv", name, value]
    if as_pid_1:
        args.append("--as-pid-1")
    args += ["--seccomp", str(seccomp_fd), "--json-status-fd", str(status_fd), "--", *argv]
    return args


def session_arguments(
    fixed: list[str],
    *,
    root: Path,
    readonly_binds: Sequence[Path | tuple[Path, str]],
    server_fd: int,
    status_fd: int,
    argv: list[str],
) -> list[str]:
    """The command of a session box (sandbox.session): the same box as ``run_arguments``
    except for what its init, ``boxserver`` (``argv``), does again for every run.

    root: host folder bound read-write at /box; each run's own folder is bound over it.
    server_fd: a readable FD of the ``boxserver`` binary, copied (mode 0755) to ``argv[0]`` in
    the box's root: a bind would show its host path in /proc/self/mountinfo.
    /tmp and /dev/shm are empty mount points (each run mounts its own tmpfs there); the
    environment is empty (each run brings its own); no seccomp filter here (boxserver installs
    it on each program, before the program's mounts are made from outside its namespace);
    boxserver keeps CAP_SYS_ADMIN, CAP_SYS_CHROOT (to enter a program's mount namespace) and
    CAP_SETPCAP in the box's user namespace and drops them, with every other capability and
    the bounding set, in each program. status_fd: bubblewrap's JSON status.
    """
    args = [*fixed, "--remount-ro", "/dev", "--dir", "/tmp", "--perms", "0755", "--file", str(server_fd), argv[0]]
    args += _folder_arguments(readonly_binds, root, "/")
    args += [
        "--cap-add",
        "CAP_SYS_ADMIN",
        "--cap-add",
        "CAP_SYS_CHROOT",
        "--cap-add",
        "CAP_SETPCAP",
        "--as-pid-1",
        "--json-status-fd",
        str(status_fd),
        "--",
        *argv,
    ]
    return args


def _folder_arguments(readonly_binds: Sequence[Path | tuple[Path, str]], workdir: Path, chdir: str) -> list[str]:
    """The extra read-only binds, ``workdir`` bound at /box, the current directory, and the
    root made read-only (after every mount point under it was made)."""
    args: list[str] = []
    for bind in readonly_binds:
        source, target = bind if isinstance(bind, tuple) else (bind, bind)
        args += ["--ro-bind", str(source), str(target)]
    return args + ["--bind", str(workdir), BOX_DIR, "--chdir", chdir, "--remount-ro", "/"]


class BwrapStatus:
    """bubblewrap's JSON status stream (``--json-status-fd``), read as it arrives.

    ``child_pid``: host pid of the namespace's init (written right after the clone);
    ``exit_code``: the code bubblewrap reports when the program ended (absent if the box could
    not be set up, or if bubblewrap was killed).
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self._text = b""
        self.child_pid: int | None = None
        self.exit_code: int | None = None

    def read(self) -> None:
        """Take in what the pipe holds now (never blocks)."""
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except BlockingIOError:
                break
            if not chunk:
                break
            self._text += chunk
        for line in self._text.decode(errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if "child-pid" in record:
                self.child_pid = int(record["child-pid"])
            if "exit-code" in record:
                self.exit_code = int(record["exit-code"])
