"""read_output_file: what a program left in its folder is read only if it is a plain, small,
regular file; links, FIFOs and folders are refused without being followed or blocking."""

from __future__ import annotations

import os

import pytest

from sandbox import read_output_file


def test_regular_file_is_read(tmp_path):
    (tmp_path / "output.txt").write_bytes(b"1 2 3\n")
    assert read_output_file(tmp_path, "output.txt", 100) == b"1 2 3\n"


def test_absent_file_is_none(tmp_path):
    assert read_output_file(tmp_path, "output.txt", 100) is None


def test_file_at_the_cap_is_read_and_one_byte_more_is_refused(tmp_path):
    (tmp_path / "output.txt").write_bytes(b"x" * 10)
    assert read_output_file(tmp_path, "output.txt", 10) == b"x" * 10
    assert read_output_file(tmp_path, "output.txt", 9) is None


def test_symlink_is_not_followed(tmp_path):
    target = tmp_path / "answer.ans"
    target.write_text("secret")
    (tmp_path / "output.txt").symlink_to(target)
    assert read_output_file(tmp_path, "output.txt", 100) is None


def test_hard_link_is_refused(tmp_path):
    target = tmp_path / "answer.ans"
    target.write_text("secret")
    os.link(target, tmp_path / "output.txt")
    assert read_output_file(tmp_path, "output.txt", 100) is None


def test_fifo_does_not_block(tmp_path):
    os.mkfifo(tmp_path / "output.txt")
    assert read_output_file(tmp_path, "output.txt", 100) is None


def test_folder_is_refused(tmp_path):
    (tmp_path / "output.txt").mkdir()
    assert read_output_file(tmp_path, "output.txt", 100) is None


@pytest.mark.parametrize("name", ["", ".", "..", "../output.txt", "sub/output.txt", "/etc/shadow"])
def test_only_plain_names_are_accepted(tmp_path, name):
    with pytest.raises(ValueError):
        read_output_file(tmp_path, name, 100)


def test_symlinked_workdir_is_refused(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (real / "output.txt").write_text("x")
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(OSError):
        read_output_file(tmp_path / "link", "output.txt", 100)
