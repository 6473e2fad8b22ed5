"""Fixtures of the sandbox tests: one shared Sandbox on a test-only slot, fresh work folders
that the slot's uid can reach, and compiled helper programs.

The tests use slots 900+ (uids 61900+) so they never meet a judge worker's slots (0, 1, ...);
JUDGE_TEST_SLOT_OFFSET moves them (tests/slots.py).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from sandbox import Sandbox
from tests.slots import slot

TEST_SLOT = slot(900)
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox's uid drop and cgroups need root")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a sandbox test of 1.5 s or more (deselect with -m 'not slow')")


@pytest.fixture(scope="session")
def box():
    """A Sandbox on the test slot, shared by the whole session (as a judge worker would)."""
    with Sandbox(slot=TEST_SLOT) as sandbox:
        yield sandbox


class SessionRunner:
    """``Sandbox.run``'s signature over a ``Session`` whose root is the tests' work root: the
    test's work folder (a child of that root) is the run's folder. Lets one test body check the
    one-shot and the session path alike."""

    def __init__(self, box: Sandbox, root: Path) -> None:
        self.box, self.uid, self.gid = box, box.uid, box.gid
        self.session = box.session(root, disk_bytes=None)

    def run(self, argv, workdir, limits=None, stdin=None, readonly_binds=(), env=None):
        assert not readonly_binds, "a session's read-only binds are fixed when it opens"
        assert Path(workdir).parent == self.session.root
        return self.session.run(argv, Path(workdir).name, limits, stdin, env)

    @property
    def box_pids(self) -> tuple[int, ...]:
        return self.session.box_pids


@pytest.fixture(params=["one-shot", "session"])
def runner(request, box, work_root):
    """The shared Sandbox (one bubblewrap per run), or a session on it (one box for the test's
    runs); both have ``run(argv, workdir, limits, stdin, readonly_binds, env)``, ``uid``, ``gid``."""
    if request.param == "one-shot":
        yield box
        return
    session_runner = SessionRunner(box, work_root)
    try:
        yield session_runner
    finally:
        session_runner.session.close()


@pytest.fixture(scope="session")
def work_root():
    """A folder under /tmp that every uid may traverse (pytest's tmp_path is private to root)."""
    root = Path(tempfile.mkdtemp(prefix="sandbox-tests-"))
    os.chmod(root, 0o711)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def workdir(work_root, request):
    """A fresh, empty work folder for one test."""
    path = work_root / re.sub(r"[^\w.-]", "_", request.node.name)
    if path.exists():
        shutil.rmtree(path)
    path.mkdir()
    return path


@pytest.fixture
def session_root(work_root, request):
    """A fresh session folder under the tests' work root."""
    root = work_root / f"session-{request.node.name}"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir()
    return root


@pytest.fixture(scope="session")
def programs(work_root):
    """Compiles a C (or C++) source on the host, once per session; returns a function
    ``build(name, source, flags=()) -> Path`` of a folder-free binary path to copy into a box."""
    built: dict[tuple, Path] = {}
    out = work_root / "bin"
    out.mkdir()
    os.chmod(out, 0o755)

    def build(name: str, source: str, flags: tuple[str, ...] = (), cpp: bool = False) -> Path:
        key = (name, source, flags, cpp)
        if key not in built:
            src = out / (name + (".cpp" if cpp else ".c"))
            src.write_text(source)
            binary = out / name
            compiler = "g++" if cpp else "gcc"
            subprocess.run(
                [compiler, "-O1", "-o", str(binary), str(src), *flags, "-lpthread"], check=True, capture_output=True
            )
            os.chmod(binary, 0o755)
            built[key] = binary
        return built[key]

    return build


def place(binary: Path, workdir: Path, name: str = "prog") -> list[str]:
    """Copy ``binary`` into ``workdir`` as ``name``; return the argv that runs it in the box."""
    shutil.copy(binary, workdir / name)
    os.chmod(workdir / name, 0o755)
    return ["./" + name]


def _command_line(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        with open(f"/proc/{pid}/stat", "rb") as stat:
            name, rest = stat.read().rsplit(b")", 1)
        state, parent = rest.split()[:2]
        return f"{command or name.split(b'(', 1)[1].decode()} state {state.decode()} parent {parent.decode()}"
    except OSError:
        return "?"


def processes_of(uid: int, zombies: bool = True) -> list[str]:
    """Host processes running as ``uid`` (real uid), as "pid command line state S parent P",
    from /proc; ``zombies=False`` leaves out dead processes not yet reaped by their parent."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status") as status:
                for line in status:
                    if line.startswith("Uid:"):
                        description = f"{entry.name} {_command_line(entry.name)}"
                        if int(line.split()[1]) == uid and (zombies or " state Z " not in description):
                            found.append(description)
                        break
        except OSError:
            continue
    return found


def files_of(uid: int, folders=("/tmp", "/var/tmp", "/dev/shm")) -> list[str]:
    """Entries owned by ``uid`` directly inside the host's shared temporary folders."""
    found = []
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid == uid:
                    found.append(entry.path)
            except OSError:
                continue
    return found


def stray_processes(box) -> list[str]:
    """``processes_of`` the slot's uid, leaving out a session's own box (``Session.box_pids``:
    bubblewrap, boxserver, its zygotes and their program processes); ``box``: a Sandbox or a
    SessionRunner. The box's processes are read before and after the scan: a session makes its
    next run's zygote meanwhile, and the last run's zygote may end and be reaped meanwhile."""
    own = {str(pid) for pid in getattr(box, "box_pids", ())}
    found = processes_of(box.uid)
    own |= {str(pid) for pid in getattr(box, "box_pids", ())}
    return [line for line in found if line.split()[0] not in own]


def assert_slot_clean(box, workdir: Path) -> None:
    """After a run: no process of the slot's uid on the host (but a session's own box), no file
    of it in the shared temp folders, and the next run in the same slot behaves normally.
    ``box``: a Sandbox or a SessionRunner."""
    assert stray_processes(box) == []
    assert files_of(box.uid) == []
    follow_up = box.run(["/bin/sh", "-c", "echo fine"], workdir)
    assert (follow_up.exit_code, follow_up.stdout, follow_up.limit_exceeded) == (0, b"fine\n", False)
