"""Problem packages stored in the database by content hash, and each host's local cache of them.

``load_problem`` packs a package folder into a reproducible gzip'd tar (sorted names, zero times and
owners), stores it under its SHA-256 and points the problem at it. A worker on any host needs only
the database: ``cached_package`` unpacks an archive once into ``<work_dir>/packages/<sha256>/<id>``.
Submissions remember the hash they were made against, so a reloaded package never changes how an
older submission is (re)judged.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import os
import shutil
import tarfile
import tempfile
import zlib
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import board
from judge.clock import utcnow
from judge.config import load_settings
from judge.models import ContestProblem, PackageArchive, Problem
from judge.package.metadata import parse_config, read_metadata
from judge.package.statements import statement_html
from judge.packages import PackageError, ProblemPackage, load_package
from judge.schemas import storable

# What judging and the statement need, in every version of the Kattis format: the legacy folder
# names (problem_statement/, input_format_validators/, output_validators/), the 2023-07 ones
# (statement/, output_validator/), include/ (files added to submissions) and DOMjudge's .timelimit.
PACKED = (
    "problem.yaml",
    ".timelimit",
    "statement",
    "problem_statement",
    "data",
    "output_validators",
    "output_validator",
    "input_validators",
    "input_format_validators",
    "attachments",
    "include",
)


def pack(package_root: Path) -> bytes:
    """The package's judging files as gzip'd tar bytes, identical for identical files."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as gz, tarfile.open(fileobj=gz, mode="w") as tar:
        paths = []
        for top in PACKED:
            path = package_root / top
            if path.is_file():
                paths.append(path)
            elif path.is_dir():
                paths.extend(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        for path in sorted(paths):
            data = path.read_bytes()
            info = tarfile.TarInfo(str(path.relative_to(package_root)))
            info.size, info.mtime, info.mode = len(data), 0, 0o755 if os.access(path, os.X_OK) else 0o644
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def load_problem(session: Session, package_root: Path | str, *, restore: bool = True) -> Problem:
    """Store the package at ``package_root`` and create or update its problem row (not committed).

    Every LaTeX statement is turned into HTML once, so one pandoc cannot read is refused here. A
    package without a time limit gets one derived from its accepted submissions, written to its
    ``.timelimit`` (``judge.verify.submissions.time_limit_from_accepted``, in sandbox slot
    ``Settings.time_limit_slot``). restore: an unloaded problem
    (``Problem.archived``) is loaded again; False keeps it unloaded (``judge serve`` loading its
    folder at every start). Raises PackageError when the package does not parse or no time limit
    can be derived.
    """
    package = load_package(package_root)
    for statement in package.statements.values():  # a LaTeX statement pandoc cannot read is refused now
        if statement.suffix == ".tex":
            statement_html(statement, lambda name: name)
    if not package.time_limit_source:
        from judge.verify.submissions import time_limit_from_accepted  # the sandbox, only when needed

        package = time_limit_from_accepted(package, load_settings().time_limit_slot)
    archive = pack(package.root)
    digest = hashlib.sha256(archive).hexdigest()
    if session.get(PackageArchive, digest) is None:
        session.add(PackageArchive(sha256=digest, archive=archive, size_bytes=len(archive)))
    problem = session.get(Problem, package.id) or Problem(id=package.id)
    if problem.name is not None and problem.name != package.name:  # a scoreboard heading changes
        contests = select(ContestProblem.contest_id).where(ContestProblem.problem_id == problem.id)
        board.bump(session, session.scalars(contests).all())
    problem.name = package.name
    problem.package_sha256 = digest
    problem.time_limit_ms = package.time_limit_ms
    problem.memory_kib = package.memory_kib
    problem.updated_at = utcnow()
    problem.archived = bool(problem.archived) and not restore
    session.add(problem)
    session.flush()
    return problem


def unload_problem(session: Session, problem_id: str, *, undo: bool = False) -> Problem | None:
    """Unload the problem ``problem_id`` (``Problem.archived``: left out of lists, hidden from
    students, closed to submissions, its submissions and results kept), or with ``undo`` load it
    again; committed. None when there is no such problem."""
    row = session.get(Problem, problem_id) if storable(problem_id) else None
    if row is not None:
        row.archived = not undo
        session.commit()
    return row


def load_problems_dir(session: Session, problems_dir: Path) -> list[Problem]:
    """Load every package folder in ``problems_dir`` (those with a ``problem.yaml``) and commit;
    unloaded problems stay unloaded.

    Raises PackageError naming the first package that does not parse.
    """
    folders = [p for p in sorted(problems_dir.iterdir()) if (p / "problem.yaml").is_file()]
    problems = [load_problem(session, p, restore=False) for p in folders]
    session.commit()
    return problems


_PASS_FAIL: dict[str, bool] = {}  # archive SHA-256 → package_pass_fail: an archive never changes


def package_pass_fail(session: Session, sha256: str) -> bool:
    """Whether the package stored under ``sha256`` is a pass-fail problem (not ``Metadata.scoring``:
    its submissions get a verdict and no score of their own), as its ``problem.yaml`` says; read
    from the archive once per process. False when that cannot be told (no such archive, or one
    that cannot be read): nothing is then taken away from what is stored."""
    known = _PASS_FAIL.get(sha256)
    if known is not None:
        return known
    archive = session.scalar(select(PackageArchive.archive).where(PackageArchive.sha256 == sha256))
    if archive is None:
        return False
    name = Path("problem.yaml")
    try:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
            member = tar.extractfile(name.name)
            text = member.read() if member is not None else b""
        known = not read_metadata(parse_config(text, name), name).scoring
    except (PackageError, tarfile.TarError, KeyError, OSError, EOFError, zlib.error):
        known = False
    _PASS_FAIL[sha256] = known
    return known


def cached_package(session: Session, sha256: str, problem_id: str, cache_dir: Path) -> ProblemPackage:
    """The package with hash ``sha256``, unpacked once into ``cache_dir/<sha256>/<problem_id>``.

    Raises PackageError when the database has no such archive.
    """
    target = cache_dir / sha256 / problem_id
    if not (target / "problem.yaml").is_file():
        row = session.get(PackageArchive, sha256)
        if row is None:
            raise PackageError(f"package {sha256[:12]} of {problem_id} is not in the database")
        cache_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=cache_dir))
        with tarfile.open(fileobj=io.BytesIO(row.archive), mode="r:gz") as tar:
            tar.extractall(staging / problem_id, filter="data")
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(staging / problem_id, target)  # atomic: another process may race us
        except OSError:
            if not (target / "problem.yaml").is_file():
                raise
        shutil.rmtree(staging, ignore_errors=True)
    return _load_unpacked(str(target), os.stat(target / "problem.yaml").st_ino)


@functools.lru_cache(maxsize=32)
def _load_unpacked(target: str, _yaml_inode: int) -> ProblemPackage:
    """``load_package`` of an unpacked archive, kept per process: what an archive holds is fixed
    by its hash, so a worker reads its tests' folders once, not at every judging (the inode of
    its ``problem.yaml`` tells a new unpacking of the same archive apart)."""
    return load_package(Path(target))
