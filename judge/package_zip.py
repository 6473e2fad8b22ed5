"""Problem packages in and out as zip files: ``judge problem import`` / ``export`` and a teacher's
upload (``POST /api/v1/problems``, ``store_zip``).

Source of the format: the Kattis problem package format ("a ZIP compressed archive of such a
directory with identical base name and extension ``.kpp`` or ``.zip``"). A zip is read in either
layout: the package's files at the top (the id is then the zip's base name), or one top folder
named by the problem id holding them. ``export_zip`` writes the second layout.

Unpacking treats the zip as untrusted. It is refused (``PackageError`` naming the entry, nothing
left behind) for: a file that is not a zip; an entry name that is absolute, has a ``..`` or empty
part, a backslash, a drive letter or a control character; a name part longer than
``MAX_NAME_PART_BYTES`` or a name longer than ``MAX_NAME_BYTES`` (in UTF-8, which the file system
would refuse); a symbolic link, or any entry that is
neither a regular file nor a folder; two entries of the same name; more than ``MAX_ENTRIES``
entries; a declared uncompressed total over ``max_bytes`` (a zip bomb is refused before a byte is
written). The bytes really written are counted as well, so an entry that lies about its size stops
at the same cap. Files are written with modes 0644 (0755 when the zip marks them executable).

Export: a package already in a version of the format problemtools reads (one that names its
``problem_format_version``, or a legacy one without this judge's additions) is written as it is. A
package written to this judge's conventions (docs/conventions.md: Markdown ``statement/``,
``limits.time_limit``, ``validation``, ``io``) is written as a ``2023-07-draft`` package, the
version whose statements may be Markdown and whose limits hold ``time_limit``: problem.yaml gets
``problem_format_version``, a ``uuid`` derived from the id, a ``name`` per statement language (the
statement's first ``# `` heading) and a license unless it has one; ``validation`` and ``io`` go
(the format has no file I/O, so submissions that open the ``io`` files are left out);
``validator_flags`` become ``output_validator_flags`` of ``data/testdata.yaml``;
``output_validators/`` becomes ``output_validator/``; the package's own pytest folder ``tests/`` is
left out. Symbolic links (the accepted reference) are written as the files they point to.
"""

from __future__ import annotations

import io
import re
import shutil
import stat
import tempfile
import uuid
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO

import yaml
from sqlalchemy.orm import Session

from judge.models import Problem
from judge.package_store import load_problem
from judge.packages import PROBLEM_ID, PackageError, load_package

MAX_ENTRIES = 20_000
# Longest entry name and name part (bytes of UTF-8): Linux refuses a part over 255 bytes (NAME_MAX),
# and the whole name must leave room under PATH_MAX (4096) for the folder it is unpacked into.
MAX_NAME_PART_BYTES = 255
MAX_NAME_BYTES = 1024
COPY_CHUNK_BYTES = 1 << 16
# A fixed namespace, so an exported package's uuid is the same on every export (derived from its id).
UUID_NAMESPACE = uuid.UUID("5f0c7a52-2f43-4c4e-9d43-6f1a3c2b7e10")
EXPORT_FORMAT_VERSION = "2023-07-draft"
# This judge's own files in a package folder, not part of the package format (docs/conventions.md).
OWN_FOLDERS = ("tests",)
UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f\\]|^[A-Za-z]:")


@dataclass(frozen=True)
class ExportReport:
    """What ``export_zip`` wrote: the problem id, how many files, whether the package was converted
    to ``2023-07-draft`` (else written as it is), and the submissions left out (file I/O)."""

    problem_id: str
    files: int
    converted: bool
    left_out: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PackageFile:
    """One file of an exported package: its bytes, and whether it is executable."""

    data: bytes
    executable: bool = False


# -- unpacking ---------------------------------------------------------------------------------------


def _safe_name(info: zipfile.ZipInfo) -> PurePosixPath:
    """The entry's name as a relative path, or PackageError when it is unsafe."""
    name = info.filename
    if not name or name.startswith("/") or UNSAFE_NAME.search(name):
        raise PackageError(f"zip entry {name!r}: an absolute path or a character not allowed in a name")
    parts = name.rstrip("/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise PackageError(f"zip entry {name!r}: '..', '.' or an empty part in the path")
    if len(name.encode()) > MAX_NAME_BYTES or any(len(part.encode()) > MAX_NAME_PART_BYTES for part in parts):
        raise PackageError(
            f"zip entry {name[:100]!r}…: a name over {MAX_NAME_BYTES} bytes or a part over {MAX_NAME_PART_BYTES}"
        )
    kind = stat.S_IFMT(info.external_attr >> 16)
    if kind == stat.S_IFLNK:
        raise PackageError(f"zip entry {name!r}: a symbolic link (store the file itself)")
    if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
        raise PackageError(f"zip entry {name!r}: neither a file nor a folder")
    return PurePosixPath(*parts)


def _entries(archive: zipfile.ZipFile, max_bytes: int) -> list[tuple[zipfile.ZipInfo, PurePosixPath]]:
    """Every entry with its checked path; PackageError for any of the refusals of the module."""
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        raise PackageError(f"the zip has {len(infos)} entries; at most {MAX_ENTRIES}")
    declared = sum(info.file_size for info in infos)
    if declared > max_bytes:
        raise PackageError(f"the zip unpacks to {declared} bytes; at most {max_bytes}")
    entries, seen = [], set()
    for info in infos:
        path = _safe_name(info)
        if path in seen:
            raise PackageError(f"zip entry {info.filename!r} appears twice")
        seen.add(path)
        entries.append((info, path))
    files = {path for info, path in entries if not info.is_dir()}
    for path in files:
        if any(parent in files for parent in path.parents):
            raise PackageError(f"zip entry {str(path)!r} lies inside another entry that is a file")
    return entries


def _package_root(paths: list[PurePosixPath], fallback_id: str) -> tuple[str, PurePosixPath | None]:
    """(problem id, the top folder to strip or None) of a zip with these entry paths."""
    if PurePosixPath("problem.yaml") in paths:
        return fallback_id, None
    tops = {path.parts[0] for path in paths}
    if len(tops) == 1:
        top = PurePosixPath(tops.pop())
        if top / "problem.yaml" in paths:
            return top.name, top
    raise PackageError("no problem.yaml at the top of the zip or in its one top folder")


def _copy_limited(source: IO[bytes], target: IO[bytes], budget: list[int], name: str) -> None:
    """Copy ``source`` to ``target``, taking each byte from ``budget[0]``; PackageError past it."""
    while chunk := source.read(COPY_CHUNK_BYTES):
        budget[0] -= len(chunk)
        if budget[0] < 0:
            raise PackageError(f"zip entry {name!r}: the zip unpacks to more bytes than it declares, past the cap")
        target.write(chunk)


def problem_id_of(file_name: str) -> str:
    """The problem id a zip's file name gives (``hello.zip`` → ``hello``; ``.kpp`` too)."""
    name = Path(file_name).name
    for suffix in (".zip", ".kpp"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def unpack_zip(source: Path | IO[bytes], file_name: str, destination: Path, *, max_bytes: int) -> Path:
    """Unpack the package zip ``source`` into the new folder ``destination/<id>`` and return it.

    The id is the zip's top folder, or else ``problem_id_of(file_name)``. max_bytes: the cap on the
    unpacked size (bytes). Raises PackageError (nothing written) for a bad or unsafe zip (see the
    module), a bad problem id, or when ``destination/<id>`` exists.
    """
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise PackageError(f"{file_name}: not a zip file ({exc})") from exc
    with archive:
        entries = _entries(archive, max_bytes)
        problem_id, top = _package_root([path for _, path in entries], problem_id_of(file_name))
        if not PROBLEM_ID.match(problem_id):
            raise PackageError(f"{problem_id!r} is no problem id: a-z, 0-9, - and _, starting with a letter or digit")
        target = destination / problem_id
        if target.exists():
            raise PackageError(f"{target} already exists")
        destination.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".unzip-", dir=destination))
        try:
            budget = [max_bytes]
            for info, path in entries:
                relative = path.relative_to(top) if top is not None else path
                out = staging / relative
                if info.is_dir():
                    out.mkdir(parents=True, exist_ok=True)
                    continue
                out.parent.mkdir(parents=True, exist_ok=True)
                try:
                    with archive.open(info) as data, open(out, "xb") as written:
                        _copy_limited(data, written, budget, info.filename)
                except (zipfile.BadZipFile, NotImplementedError, EOFError, RuntimeError) as exc:  # bad CRC, method
                    raise PackageError(f"zip entry {info.filename!r}: cannot be read ({exc})") from exc
                out.chmod(0o755 if (info.external_attr >> 16) & 0o111 else 0o644)
            staging.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return target


def import_zip(source: Path | IO[bytes], file_name: str, into: Path, *, max_bytes: int, replace: bool = False) -> Path:
    """Unpack a package zip, check that it loads (``judge.packages.load_package``) and put it at
    ``into/<id>``; returns that folder.

    replace: an existing ``into/<id>`` is replaced (else PackageError). Raises PackageError for a
    bad zip or a package that does not load; ``into`` is then left as it was.
    """
    into.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".import-", dir=into) as staging:
        unpacked = unpack_zip(source, file_name, Path(staging), max_bytes=max_bytes)
        load_package(unpacked)
        target = into / unpacked.name
        if target.exists() or target.is_symlink():
            if not replace:
                raise PackageError(f"{target} already exists (replace it with --replace)")
            shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
        unpacked.rename(target)
    return target


# -- export ------------------------------------------------------------------------------------------


def _package_files(root: Path, left_out_tops: tuple[str, ...]) -> Iterator[PurePosixPath]:
    """Every file of the package folder, relative and sorted; hidden files and caches left out."""
    for path in sorted(root.rglob("*")):
        relative = PurePosixPath(path.relative_to(root).as_posix())
        if relative.parts[0] in left_out_tops or any(p.startswith(".") or p == "__pycache__" for p in relative.parts):
            continue
        if path.is_file():  # follows symbolic links: the file a link points to is written
            yield relative


def _is_own_convention(meta: dict, root: Path) -> bool:
    """True when problem.yaml or the layout uses this judge's additions to the legacy format."""
    if "problem_format_version" in meta:
        return False
    limits = meta.get("limits")
    limits = limits if isinstance(limits, dict) else {}
    return "io" in meta or "time_limit" in limits or (root / "statement").is_dir()


def _statement_title(path: Path) -> str | None:
    """The first Markdown ``# `` heading of a statement (its title), or None."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return None


def _uses_files(source: bytes, names: list[str]) -> bool:
    """True if a submission's source has one of the ``io`` file names as a string literal."""
    text = source.decode("utf-8", errors="replace")
    return any(re.search(rf"""["']{re.escape(name)}["']""", text) for name in names)


def _file(path: Path) -> PackageFile:
    """The bytes of ``path`` and whether it is executable (read through a symbolic link)."""
    return PackageFile(path.read_bytes(), bool(path.stat().st_mode & 0o111))


def _converted(root: Path, meta: dict) -> tuple[dict[str, PackageFile], list[str]]:
    """The files of a package of this judge's conventions as a 2023-07-draft package (the module
    says what changes), and the submissions left out."""
    meta = dict(meta)
    meta.pop("validation", None)
    io_files = [str(v) for v in (meta.pop("io", None) or {}).values()]
    flags = str(meta.pop("validator_flags", "") or "").strip()
    names = {p.name.split(".")[1]: _statement_title(p) for p in sorted((root / "statement").glob("problem.*.md"))}
    meta["problem_format_version"] = EXPORT_FORMAT_VERSION
    meta.setdefault("uuid", str(uuid.uuid5(UUID_NAMESPACE, root.name)))
    fallback = meta.get("name") if isinstance(meta.get("name"), str) else root.name
    meta["name"] = {language: title or fallback for language, title in names.items()} or fallback
    meta.setdefault("license", "cc by-sa")
    meta.setdefault("rights_owner", "the teachers of this judge")
    files: dict[str, PackageFile] = {}
    left_out = []
    for relative in _package_files(root, OWN_FOLDERS):
        file = _file(root / relative)
        if relative.parts[0] == "submissions" and io_files and _uses_files(file.data, io_files):
            left_out.append("/".join(relative.parts[1:]))
            continue
        if relative.parts[0] == "output_validators":
            relative = PurePosixPath("output_validator", *relative.parts[1:])
        files[str(relative)] = file
    files["problem.yaml"] = PackageFile(yaml.safe_dump(meta, allow_unicode=True, sort_keys=False).encode())
    if flags:
        old = files.get("data/testdata.yaml")
        testdata = (yaml.safe_load(old.data) if old else None) or {}
        testdata["output_validator_flags"] = flags
        files["data/testdata.yaml"] = PackageFile(yaml.safe_dump(testdata, allow_unicode=True).encode())
    return files, left_out


def export_files(root: Path | str) -> tuple[dict[str, PackageFile], ExportReport]:
    """The files of the package in folder ``root`` as problemtools reads them ({path: file}) and
    the report; the module says when a package is converted. Raises PackageError when the package
    does not load."""
    package = load_package(root)
    meta = yaml.safe_load((package.root / "problem.yaml").read_text(encoding="utf-8")) or {}
    if _is_own_convention(meta, package.root):
        files, left_out = _converted(package.root, meta)
        return files, ExportReport(package.id, len(files), True, left_out)
    files = {str(p): _file(package.root / p) for p in _package_files(package.root, ())}
    return files, ExportReport(package.id, len(files), False)


def export_zip(root: Path | str, target: Path | IO[bytes]) -> ExportReport:
    """Write the package in folder ``root`` as a zip with one top folder ``<id>/`` to ``target``
    (a path or a binary file). Raises PackageError when the package does not load, OSError when
    ``target`` cannot be written."""
    files, report = export_files(root)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, file in sorted(files.items()):
            info = zipfile.ZipInfo(f"{report.problem_id}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | (0o755 if file.executable else 0o644)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, file.data)
    return report


def zip_bytes(root: Path | str) -> tuple[bytes, ExportReport]:
    """``export_zip`` into memory: (the zip's bytes, the report)."""
    buffer = io.BytesIO()
    report = export_zip(root, buffer)
    return buffer.getvalue(), report


# -- a teacher's upload ------------------------------------------------------------------------------


class PackageExists(PackageError):
    """The uploaded package's problem id is taken and the upload did not ask to replace it."""


class PackageTooLarge(PackageError):
    """The uploaded zip is larger than the cap."""


class PackageInUse(PackageError):
    """The uploaded package would replace one that the uploader may not change (``replaceable``)."""


def refusal_status(exc: PackageError) -> int:
    """The HTTP status of a refused upload: 413 too large, 409 the id taken or in use elsewhere, 422
    anything else."""
    return 413 if isinstance(exc, PackageTooLarge) else 409 if isinstance(exc, (PackageExists, PackageInUse)) else 422


def store_upload(
    session: Session,
    stream: IO[bytes],
    file_name: str,
    scratch: Path,
    *,
    max_bytes: int,
    replace: bool = False,
    replaceable: Callable[[str], str | None] | None = None,
) -> Problem:
    """``store_zip`` for an upload arriving as ``stream``: copied to a temporary file first, and
    refused with PackageTooLarge once it passes ``max_bytes`` (bytes) without reading the rest."""
    with tempfile.TemporaryFile() as copy:
        while chunk := stream.read(COPY_CHUNK_BYTES):
            copy.write(chunk)
            if copy.tell() > max_bytes:
                raise PackageTooLarge(f"the package zip is over {max_bytes} bytes")
        copy.seek(0)
        return store_zip(
            session, copy, file_name, scratch, max_bytes=max_bytes, replace=replace, replaceable=replaceable
        )


def store_zip(
    session: Session,
    source: IO[bytes],
    file_name: str,
    scratch: Path,
    *,
    max_bytes: int,
    replace: bool = False,
    replaceable: Callable[[str], str | None] | None = None,
) -> Problem:
    """Load the package zip ``source`` (a teacher's upload) into the database, not committed: it is
    unpacked into a temporary folder under ``scratch``, loaded (``judge.package_store.load_problem``,
    which stores it by content hash; an unloaded problem of that id is loaded again), and the folder
    removed. Returns the problem row.

    replaceable(problem id): None when the uploader may replace that existing problem's package,
    else why not. Raises PackageExists when the id is taken and not ``replace``; PackageInUse when
    ``replaceable`` gives a reason; PackageError for a bad or unsafe zip or a package that does not
    load (the message names files inside the package, not the temporary folder).
    """
    scratch.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="upload-", dir=scratch) as staging:
        try:
            root = unpack_zip(source, file_name, Path(staging), max_bytes=max_bytes)
            if session.get(Problem, root.name) is not None:
                if not replace:
                    raise PackageExists(f"problem {root.name!r} exists; send replace=true to replace its package")
                if replaceable is not None and (reason := replaceable(root.name)) is not None:
                    raise PackageInUse(reason)
            return load_problem(session, root)
        except PackageError as exc:
            raise type(exc)(str(exc).replace(f"{staging}/", "")) from exc
