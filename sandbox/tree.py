"""Walking and removing folder trees that a program (or a compiler) made, whatever their shape.

Everything here works through directory file descriptors (``openat``, ``unlinkat``, as
``rm -rf`` does), one folder open at a time, without recursion: a tree 100,000 levels deep, or
under a path far longer than PATH_MAX, is removed and counted like a flat one, and no symlink is
ever followed.

Guarantees:
- ``remove_tree`` removes any tree the slot's uid can make (any depth, any path length, folders
  of mode 000, symlinks to anywhere: the link is removed, never its target); a mount found
  inside (a session's disk left behind) is detached, never walked.
  tests/sandbox/test_box_guarantees.py::test_any_tree_is_removed
- ``clear_folder`` never leaves the judge stuck: a folder that cannot be removed is renamed aside
  (``<name>.aside-<random>``, logged as an error), a fresh empty one takes its place, and later
  calls retry the asides. tests/sandbox/test_box_guarantees.py::test_a_folder_that_cannot_be_removed_is_moved_aside
- ``walk_files`` lists the files a judge may copy out of a folder, to ``MAX_DEPTH`` levels and
  ``MAX_PATH`` characters. tests/sandbox/test_box_guarantees.py::test_walks_stop_at_their_depth
- ``tree_usage`` counts allocated blocks (``st_blocks``), not file sizes: a file with space
  reserved beyond its size counts what it holds on disk; it stops at ``MAX_DEPTH`` levels or
  ``MAX_ENTRIES`` entries and then reports the tree as too large.
  tests/sandbox/test_box_guarantees.py::test_usage_counts_allocated_blocks_and_deep_trees
"""

from __future__ import annotations

import logging
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.disk import ENTRY_BYTES, TOO_LARGE, unmount
from sandbox.errors import SandboxError

log = logging.getLogger(__name__)
# a walk (usage count) stops below this depth or past this many entries and calls the tree too large
MAX_DEPTH = 256
MAX_ENTRIES = 100_000
# the longest relative path ``walk_files`` lists (characters; PATH_MAX less room for a folder)
MAX_PATH = 3072
ASIDE = ".aside-"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass
class _Level:
    """One open level of a walk: the folder's name in its parent, its identity, the sub-folders
    still to visit."""

    name: str
    device: int
    inode: int
    pending: list[str] = field(default_factory=list)


def _open_folder(parent_fd: int, name: str) -> int:
    """Open sub-folder ``name`` of ``parent_fd`` without following a symlink; a folder its owner
    made unreadable (mode 000) is opened after a chmod (needed without root)."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)
    except PermissionError:
        os.chmod(name, 0o700, dir_fd=parent_fd, follow_symlinks=False)
        return os.open(name, _DIR_FLAGS, dir_fd=parent_fd)


def _entries(fd: int) -> list[os.DirEntry]:
    with os.scandir(fd) as listing:
        return list(listing)


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _go_up(fd: int, expected: _Level) -> int:
    """The parent of open folder ``fd`` (through ``..``), checked to be ``expected``: a tree
    moved meanwhile raises OSError instead of removing something else. Closes ``fd``."""
    try:
        parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
    finally:
        os.close(fd)
    info = os.fstat(parent)
    if (info.st_dev, info.st_ino) != (expected.device, expected.inode):
        os.close(parent)
        raise OSError(f"folder {expected.name!r} moved during the walk")
    return parent


def _empty_folder(parent_fd: int, name: str) -> None:
    """Remove everything inside sub-folder ``name`` of ``parent_fd`` (the folder itself stays).
    Depth first, one descriptor open at a time; raises OSError when something cannot go."""
    fd = _open_folder(parent_fd, name)
    info = os.fstat(fd)
    stack = [_Level(name, info.st_dev, info.st_ino)]
    try:
        while True:
            level = stack[-1]
            if not level.pending:  # first visit, or every sub-folder done: unlink the rest
                for entry in _entries(fd):
                    if _is_folder(entry):
                        level.pending.append(entry.name)
                    else:
                        os.unlink(entry.name, dir_fd=fd)
            if level.pending:
                child = level.pending[-1]
                child_fd = _open_folder(fd, child)
                child_info = os.fstat(child_fd)
                if child_info.st_dev != level.device:  # a session disk left mounted: detach it
                    os.close(child_fd)
                    try:
                        unmount(Path(f"/proc/self/fd/{fd}/{child}"))
                    except SandboxError as error:
                        raise OSError(str(error)) from error
                    continue
                os.close(fd)
                fd = child_fd
                stack.append(_Level(child, child_info.st_dev, child_info.st_ino))
                continue
            if len(stack) == 1:
                return
            stack.pop()
            below, fd = fd, -1
            fd = _go_up(below, stack[-1])
            os.rmdir(level.name, dir_fd=fd)
            stack[-1].pending.pop()
    finally:
        if fd >= 0:
            os.close(fd)


def remove_tree(path: Path) -> None:
    """Remove ``path`` and everything under it (a file or symlink is just unlinked; nothing
    happens if it is absent). Raises OSError if something cannot be removed."""
    try:
        parent_fd = os.open(path.parent, _DIR_FLAGS)
    except FileNotFoundError:
        return
    try:
        try:
            info = os.lstat(path.name, dir_fd=parent_fd)
        except FileNotFoundError:
            return
        if not stat.S_ISDIR(info.st_mode):
            os.unlink(path.name, dir_fd=parent_fd)
            return
        _empty_folder(parent_fd, path.name)
        os.rmdir(path.name, dir_fd=parent_fd)
    finally:
        os.close(parent_fd)


def clear_folder(path: Path, mode: int = 0o755) -> Path:
    """Make ``path`` an empty folder (with ``mode``): what is there is removed with
    ``remove_tree``; if that fails, it is renamed aside to ``<path>.aside-<random>`` (logged as an
    error) and a fresh folder made. Earlier asides next to it are removed when possible.
    Returns ``path``. Raises SandboxError only if the folder can neither be removed nor moved."""
    for old in _asides(path):
        try:
            remove_tree(old)
        except OSError:
            pass  # logged when it was moved aside; tried again next time
    try:
        remove_tree(path)
    except OSError as error:
        aside = path.with_name(f"{path.name}{ASIDE}{secrets.token_hex(4)}")
        try:
            os.rename(path, aside)
        except OSError as rename_error:
            raise SandboxError(f"cannot remove or move aside {path}: {error}; {rename_error}") from error
        log.error("cannot remove %s (%s): moved aside to %s", path, error, aside)
    path.mkdir(mode=mode, parents=True)
    os.chmod(path, mode)
    return path


def _asides(path: Path) -> list[Path]:
    """The folders ``clear_folder`` moved aside next to ``path`` (``<name>.aside-*``)."""
    prefix = f"{path.name}{ASIDE}"
    try:
        with os.scandir(path.parent) as listing:
            return [path.parent / entry.name for entry in listing if entry.name.startswith(prefix)]
    except OSError:  # no parent folder yet
        return []


def is_empty_folder(path: Path) -> bool:
    """Whether ``path`` is a folder (not a symlink) with nothing in it."""
    try:
        fd = os.open(path, _DIR_FLAGS)
    except OSError:
        return False
    try:
        return not _entries(fd)
    finally:
        os.close(fd)


class TooDeep(Exception):
    """A walk met a folder deeper than its ``max_depth``."""


def _walk(
    path: Path, max_depth: int, too_deep: Callable[[str], None]
) -> Iterator[tuple[list[str], list[tuple[os.DirEntry, os.stat_result]]]]:
    """The folders under ``path``, top first: (names from ``path`` down to the folder, its
    entries with their ``lstat``), symlinks not followed, one descriptor open at a time. An
    entry that vanished or cannot be read is left out; a sub-folder ``max_depth`` levels down
    is not entered: ``too_deep(its name)`` is called instead (it may raise to end the walk).
    Nothing if ``path`` cannot be opened."""
    try:
        fd = os.open(path, _DIR_FLAGS)
    except OSError:
        return
    info = os.fstat(fd)
    stack = [_Level(path.name, info.st_dev, info.st_ino)]
    try:
        while True:
            level = stack[-1]
            if not level.pending:
                try:
                    listing = _entries(fd)
                except OSError:
                    listing = []
                stated = []
                for entry in listing:
                    try:
                        stated.append((entry, entry.stat(follow_symlinks=False)))
                    except OSError:
                        continue
                yield [level.name for level in stack[1:]], stated
                level.pending = [""] + [entry.name for entry, info in stated if stat.S_ISDIR(info.st_mode)]
            child = level.pending.pop()
            if child:
                if len(stack) >= max_depth:
                    too_deep(child)
                    continue
                try:
                    child_fd = os.open(child, _DIR_FLAGS, dir_fd=fd)
                except OSError:
                    continue
                child_info = os.fstat(child_fd)
                os.close(fd)
                fd = child_fd
                stack.append(_Level(child, child_info.st_dev, child_info.st_ino))
                continue
            if len(stack) == 1:
                return
            stack.pop()
            below, fd = fd, -1
            fd = _go_up(below, stack[-1])
    finally:
        if fd >= 0:
            os.close(fd)


def _stop(name: str) -> None:
    raise TooDeep(name)


def tree_usage(path: Path, max_depth: int = MAX_DEPTH, max_entries: int = MAX_ENTRIES) -> int:
    """Bytes allocated under folder ``path``: ``st_blocks`` x 512 of every entry plus
    ``ENTRY_BYTES`` per entry, symlinks not followed. ``TOO_LARGE`` for a tree deeper than
    ``max_depth`` or with more than ``max_entries`` entries, or one that moved during the walk;
    0 if ``path`` cannot be opened."""
    total, entries = 0, 0
    try:
        for _names, listing in _walk(path, max_depth, _stop):
            entries += len(listing)
            if entries > max_entries:
                return TOO_LARGE
            total += sum(ENTRY_BYTES + info.st_blocks * 512 for _entry, info in listing)
    except (TooDeep, OSError):
        return TOO_LARGE
    return total


def walk_files(path: Path, max_depth: int = MAX_DEPTH, max_entries: int = MAX_ENTRIES) -> list[str]:
    """Relative paths (``/``-separated) of the regular files under folder ``path``, symlinks not
    followed; what lies deeper than ``max_depth`` levels or past ``max_entries`` entries, and
    paths longer than ``MAX_PATH`` characters, are left out (a program's tree is not the
    judge's problem)."""
    found: list[str] = []
    entries = 0
    try:
        for names, listing in _walk(path, max_depth, lambda name: None):
            entries += len(listing)
            if entries > max_entries:
                break
            for entry, info in listing:
                relative = "/".join([*names, entry.name])
                if stat.S_ISREG(info.st_mode) and len(relative) <= MAX_PATH:
                    found.append(relative)
    except (TooDeep, OSError):
        pass
    return found
