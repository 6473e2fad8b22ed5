"""How a compiled program reaches each test's run folder (``judge.judging.link_regular_file``):
a read-only link owned by the judge, never a symlink followed, a copy where no link can be made."""

from __future__ import annotations

import os
import stat

import pytest

from judge.judging import link_regular_file

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the judge links as root")


def test_the_program_is_linked_read_only_and_owned_by_the_judge(tmp_path):
    compiled, run = tmp_path / "compile", tmp_path / "run"
    compiled.mkdir()
    run.mkdir()
    (compiled / "main").write_bytes(b"\x7fELF program")
    os.chown(compiled / "main", 61234, 61234)  # as a compiler run by a slot's uid leaves it
    os.chmod(compiled / "main", 0o775)
    assert link_regular_file(compiled, "main", run / "main", 1 << 20)
    info = os.stat(run / "main")
    assert os.path.samefile(compiled / "main", run / "main")  # no copy was made
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (0, 0, 0o555)
    second = tmp_path / "run2"
    second.mkdir()
    assert link_regular_file(compiled, "main", second / "main", 1 << 20)  # the next test's folder
    assert os.stat(second / "main").st_nlink == 3 and (second / "main").read_bytes() == b"\x7fELF program"


def test_a_source_file_is_linked_without_execute_bits(tmp_path):
    (tmp_path / "main.py").write_text("print(1)\n")
    (tmp_path / "run").mkdir()
    assert link_regular_file(tmp_path, "main.py", tmp_path / "run" / "main.py", 1 << 20)
    assert stat.S_IMODE(os.stat(tmp_path / "run" / "main.py").st_mode) == 0o444


def test_symlinks_large_files_and_folders_are_refused(tmp_path):
    (tmp_path / "secret").write_text("answer\n")
    (tmp_path / "main").symlink_to(tmp_path / "secret")
    (tmp_path / "big").write_bytes(b"x" * 2048)
    (tmp_path / "folder").mkdir()
    (tmp_path / "run").mkdir()
    assert not link_regular_file(tmp_path, "main", tmp_path / "run" / "main", 1 << 20)
    assert not link_regular_file(tmp_path, "big", tmp_path / "run" / "big", 1024)
    assert not link_regular_file(tmp_path, "folder", tmp_path / "run" / "folder", 1 << 20)
    assert not link_regular_file(tmp_path, "missing", tmp_path / "run" / "missing", 1 << 20)
    assert sorted(os.listdir(tmp_path / "run")) == []
    assert stat.S_IMODE(os.stat(tmp_path / "secret").st_mode) != 0o444  # the symlink's target untouched
