"""Shared set-up of the sandbox benchmarks: a scratch folder the slot uids can reach, holding a
compiled C program and a work folder with a copy of it."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
# added to the benchmarks' sandbox slots, as to the tests' (tests/slots.py)
SLOT_OFFSET = int(os.environ.get("JUDGE_TEST_SLOT_OFFSET", "0"))
if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))


@dataclass
class Scratch:
    """binary: the program compiled on the host; workdir: a work folder holding a copy as ``name``."""

    binary: Path
    workdir: Path


@contextlib.contextmanager
def scratch_program(name: str, source: str, flags: tuple[str, ...] = ("-O1",)) -> Iterator[Scratch]:
    """Compile ``source`` (C) with gcc ``flags`` in a fresh folder (mode 0711, so the sandbox's
    uid can reach it) and copy it into a work folder; everything is removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix=f"sandbox-{name}-"))
    os.chmod(root, 0o711)
    try:
        (root / f"{name}.c").write_text(source)
        binary = root / name
        subprocess.run(["gcc", *flags, "-o", str(binary), str(root / f"{name}.c")], check=True)
        workdir = root / "work"
        workdir.mkdir()
        shutil.copy(binary, workdir / name)
        yield Scratch(binary=binary, workdir=workdir)
    finally:
        shutil.rmtree(root, ignore_errors=True)
