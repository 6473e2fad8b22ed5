"""Fixtures of the sandbox tests: one shared Sandbox on a test-only slot, fresh work folders
that the slot's uid can reach, and compiled helper programs.

The tests use slots 900+ (uids 61900+) so they never meet a judge worker's slots (0, 1, ...).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from sandbox import Sandbox

TEST_SLOT = 900
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox's uid drop and cgroups need root")


@pytest.fixture(scope="session")
def box():
    """A Sandbox on the test slot, shared by the whole session (as a judge worker would)."""
    with Sandbox(slot=TEST_SLOT) as sandbox:
        yield sandbox


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
    path = work_root / request.node.name.replace("[", "_").replace("]", "_")
    if path.exists():
        shutil.rmtree(path)
    path.mkdir()
    return path


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
            subprocess.run([compiler, "-O1", "-o", str(binary), str(src), *flags, "-lpthread"],
                           check=True, capture_output=True)
            os.chmod(binary, 0o755)
            built[key] = binary
        return built[key]

    return build


def place(binary: Path, workdir: Path, name: str = "prog") -> list[str]:
    """Copy ``binary`` into ``workdir`` as ``name``; return the argv that runs it in the box."""
    shutil.copy(binary, workdir / name)
    os.chmod(workdir / name, 0o755)
    return ["./" + name]
