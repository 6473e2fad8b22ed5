"""Reading a problem package in the Kattis problem package format: ``load_package``.

Source of the format: the Kattis problem package format, versions legacy, 2023-07 and 2025-09, as
its specification and problemtools read them; the aspects are read by ``judge.package.metadata``
(problem.yaml), ``judge.package.testdata`` (test groups, ``testdata.yaml`` / ``test_group.yaml``,
grading) and ``judge.package.statements``. This judge also reads ``io: {input_file, output_file}``
for problems whose programs read and write files (see docs/conventions.md).

Time limit, in this order: ``limits.time_limit`` (2023-07 and later; read in legacy too), then the
``.timelimit`` file (seconds; what Kattis and DOMjudge keep beside a package), else none: the
package's ``time_limit_source`` is empty and ``judge problem verify`` / ``judge problem load``
derive it from the slowest accepted submission (``Timing``) and write ``.timelimit``.

Refused at load, with the file and the reason: a jury file (``.in`` or ``.ans``) that starts with a
UTF-8 byte order mark or holds a carriage return (docs/conventions.md "Jury files and team output"),
with ``validation: default``, ``validator_flags`` the default checker does not know, and whatever
``judge.package`` refuses (a key this judge cannot honour).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from judge.checkers import BYTE_ORDER_MARK, FlagError, parse_flags
from judge.package.metadata import LARGEST_LIMITS, LEGACY, Metadata, PackageError, Timing, read_config, read_metadata
from judge.package.statements import find_statements, statement_title
from judge.package.testdata import TestCase, TestGroup, read_test_data

__all__ = ["PackageError", "ProblemPackage", "TestCase", "TestGroup", "load_package"]

PROBLEM_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
TEST_GROUPS = ("sample", "secret")
INPUT_VALIDATOR_FOLDERS = ("input_validators", "input_format_validators")
TIMELIMIT_FILE = ".timelimit"
NO_TIME_LIMIT_MS = 60_000  # ms: the cap a package without a time limit runs under until one is derived
MAX_NAME_CHARS = 200  # of a problem's name in each language: what judge.models.Problem.name holds


@dataclass(frozen=True)
class ProblemPackage:
    """A parsed package.

    time_limit_ms: CPU time per test (ms), from ``time_limit_source`` (``problem.yaml``,
    ``.timelimit``, or empty: no limit given yet, ``NO_TIME_LIMIT_MS`` until one is derived);
    memory_kib: memory limit (KiB); output_bytes: the largest output a program may write (bytes);
    code_bytes: the largest submission the package allows (bytes, None: no limit of its own).
    tests: samples first, then secret, each in file name order, groups walked depth first; groups:
    the root test group ``data`` with its configuration (grading). output_validator: the output
    validator program (a file or a folder in any language, see ``judge.validators``) or None;
    input_validators: every input validator program, input_validator the first (or None);
    input_validator_flags / validator_flags: the arguments passed to the input / output
    validators (a test group's own flags come on top, ``TestCase``); interactive: the output
    validator is an interactor talking to the submission. metadata: problem.yaml as read
    (version, types, names, timing, warnings…); warnings: every key or file ignored, for the
    teacher. statements: language → statement file (``.md`` or ``.tex``).
    """

    id: str
    root: Path
    name: str
    time_limit_ms: int
    memory_kib: int
    output_bytes: int
    validation: str
    validator_flags: tuple[str, ...]
    input_file: str | None
    output_file: str | None
    tests: tuple[TestCase, ...]
    output_validator: Path | None
    input_validator: Path | None
    statements: dict[str, Path] = field(default_factory=dict)
    input_validators: tuple[Path, ...] = ()
    input_validator_flags: tuple[str, ...] = ()
    metadata: Metadata | None = None
    groups: TestGroup | None = None
    names: dict[str, str] = field(default_factory=dict)
    time_limit_source: str = "problem.yaml"
    code_bytes: int | None = None
    warnings: tuple[str, ...] = ()

    def interaction(self, test: TestCase) -> str | None:
        """The sample conversation of an interactive problem's test (``<name>.interaction`` beside
        its input: lines starting ``>`` the submission writes, ``<`` it reads, as problemtools'
        statements show them), as text; None when the problem is not interactive or the test has
        none."""
        path = test.input_path.with_suffix(".interaction")
        if not self.interactive or not path.is_file() or path.is_symlink():
            return None
        return path.read_text(encoding="utf-8", errors="replace")

    @property
    def timing(self) -> Timing:
        """How the time limit is derived from the slowest accepted run (the format's multipliers)."""
        return self.metadata.timing if self.metadata else Timing(5.0, 2.0)

    @property
    def scoring(self) -> bool:
        """True for a scoring problem (type: scoring)."""
        return bool(self.metadata and self.metadata.scoring)

    @property
    def interactive(self) -> bool:
        """True for an interactive problem (type: interactive / validation: custom interactive)."""
        return bool(self.metadata and self.metadata.interactive)

    def title(self, language: str = "en") -> str:
        """The problem's name in ``language`` (falls back to English, then any, then the id)."""
        return self.names.get(language) or self.names.get("en") or next(iter(self.names.values()), self.id)

    def statement(self, language: str = "en") -> str:
        """The statement's source text for ``language`` (falls back to English, then any)."""
        path = self.statement_path(language)
        return path.read_text(encoding="utf-8") if path else ""

    def statement_path(self, language: str = "en") -> Path | None:
        """The statement file for ``language`` (falls back to English, then any; None without one)."""
        path = self.statements.get(language) or self.statements.get("en")
        if path is None and self.statements:
            path = next(iter(self.statements.values()))
        return path


def find_programs(folder: Path) -> list[Path]:
    """The validator programs in ``folder`` (``input_validators/``, legacy ``output_validators/``),
    sorted: each a file with a program suffix (``judge.validators.PROGRAM_SUFFIXES``) or a
    sub-folder. Names starting with ``.`` or ``_`` are left out."""
    from judge.validators import PROGRAM_SUFFIXES

    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.iterdir()
        if not p.name.startswith((".", "_"))
        and not p.is_symlink()
        and (p.is_dir() or (p.is_file() and p.name.endswith(PROGRAM_SUFFIXES)))
    )


def find_program(folder: Path) -> Path | None:
    """The one program of a legacy validator folder (``output_validators/``): a file or a
    sub-folder (``find_programs``). Raises PackageError when the folder holds several."""
    programs = find_programs(folder)
    if len(programs) > 1:
        names = ", ".join(p.name for p in programs)
        raise PackageError(f"{folder}: several validator programs ({names}); keep one")
    return programs[0] if programs else None


def find_output_validator(root: Path) -> Path | None:
    """The package's output validator: the folder ``output_validator/`` (2023-07: the folder is
    the program) or the one program of ``output_validators/`` (legacy). Raises PackageError when
    both exist or the legacy folder holds several."""
    modern, legacy = root / "output_validator", find_program(root / "output_validators")
    if modern.is_dir() and legacy is not None:
        raise PackageError(f"{root}: both output_validator/ and output_validators/; keep one")
    return modern if modern.is_dir() else legacy


def find_input_validators(root: Path) -> tuple[Path, ...]:
    """Every input validator program: ``input_validators/`` and the legacy ``input_format_validators/``."""
    return tuple(p for folder in INPUT_VALIDATOR_FOLDERS for p in find_programs(root / folder))


def _flags(meta: dict, key: str, path: Path) -> tuple[str, ...]:
    value = meta.get(key)
    if value is None:
        return ()
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise PackageError(f"{path}: {key} must be a string of arguments, not {type(value).__name__}")
    return tuple(str(value).split())


def _input_validator_flags(root: Path, meta: dict, meta_path: Path) -> tuple[str, ...]:
    """``input_validator_flags`` of problem.yaml, else of the root ``data/testdata.yaml`` (where the
    legacy format puts it)."""
    if "input_validator_flags" in meta:
        return _flags(meta, "input_validator_flags", meta_path)
    testdata = root / "data" / "testdata.yaml"
    return _flags(_read_yaml(testdata), "input_validator_flags", testdata) if testdata.is_file() else ()


def _read_yaml(path: Path) -> dict:
    if not path.is_file():
        raise PackageError(f"{path}: missing")
    return read_config(path)


def check_jury_bytes(path: Path) -> None:
    """Raise PackageError when jury file ``path`` starts with a UTF-8 byte order mark or holds a CR.

    Jury files are stored as the reference prints them: no byte order mark, LF line ends only.
    """
    data = path.read_bytes()
    if data.startswith(BYTE_ORDER_MARK):
        raise PackageError(f"{path}: starts with a UTF-8 byte order mark; save jury files without one")
    if b"\r" in data:
        line = data.count(b"\n", 0, data.index(b"\r")) + 1
        raise PackageError(f"{path}: carriage return on line {line}; jury files use LF line ends only")


def read_timelimit_file(root: Path) -> float | None:
    """The seconds in ``root/.timelimit`` (a derived time limit), or None when there is no such file.

    Raises PackageError when the file holds anything but one positive number of seconds up to the
    largest time limit a package may set (``LARGEST_LIMITS``).
    """
    path = root / TIMELIMIT_FILE
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    try:
        seconds = float(text)
    except ValueError:
        raise PackageError(f"{path}: must hold one number of seconds, not {text[:40]!r}") from None
    if not 0 < seconds <= LARGEST_LIMITS["time_limit"]:
        raise PackageError(
            f"{path}: the time limit must be a positive number of seconds up to {LARGEST_LIMITS['time_limit']},"
            f" not {text[:40]!r}"
        )
    return seconds


def _time_limit(root: Path, metadata: Metadata) -> tuple[int, str]:
    if metadata.time_limit_s is not None:
        return int(math.ceil(metadata.time_limit_s * 1000)), "problem.yaml"
    seconds = read_timelimit_file(root)
    if seconds is not None:
        return int(math.ceil(seconds * 1000)), TIMELIMIT_FILE
    return NO_TIME_LIMIT_MS, ""


def _io(meta_path: Path, io: dict) -> dict[str, str | None]:
    for key in sorted(set(io) - {"input_file", "output_file"}):
        raise PackageError(f"{meta_path}: io.{key} is not known; io takes input_file and output_file")
    for key in ("input_file", "output_file"):
        name = io.get(key)
        if name is not None and (not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name)):
            raise PackageError(f"{meta_path}: io.{key} must be a plain file name, not {name!r}")
    return {key: io.get(key) for key in ("input_file", "output_file")}


def _names(metadata: Metadata, statements: dict[str, Path], problem_id: str) -> dict[str, str]:
    """Language → name: problem.yaml's ``name`` (a map in 2023-07 and later), else, in legacy,
    each statement's ``\\problemname`` (as problemtools reads legacy packages).

    Raises PackageError for a name over ``MAX_NAME_CHARS`` characters."""
    names = dict(metadata.names)
    if metadata.version == LEGACY:
        from_statements = {lang: statement_title(path) for lang, path in statements.items()}
        titled = {lang: title for lang, title in from_statements.items() if title}
        if titled and (not names or set(names) == {"en"} and len(titled) > 1):
            names = {**titled, **names} if names else titled
    for language, name in names.items():
        if len(name) > MAX_NAME_CHARS:
            raise PackageError(
                f"the problem name ({language}) is {len(name)} characters long: at most {MAX_NAME_CHARS}"
            )
    return names or {"en": problem_id}


def load_package(root: Path | str, *, require_tests: bool = True) -> ProblemPackage:
    """Parse the package in folder ``root``.

    Raises PackageError for a missing or malformed ``problem.yaml``, a key this judge cannot
    honour, bad limits or several validator programs; with ``require_tests`` (else no tests are
    read) also for an input without its ``.ans``, a jury file with a byte order mark or a CR, or
    no test at all.
    """
    root = Path(root).resolve()
    problem_id = root.name
    if not PROBLEM_ID.match(problem_id):
        raise PackageError(f"{root}: folder name must be a problem id (a-z, 0-9, - and _)")
    meta_path = root / "problem.yaml"
    raw_meta = _read_yaml(meta_path)
    metadata = read_metadata(raw_meta, meta_path)
    validation = metadata.validation
    output_validator = find_output_validator(root)
    if metadata.interactive or (metadata.version != LEGACY and output_validator is not None):
        validation = "custom"  # 2023-07: a package with an output validator uses it; an interactor is one
    flags = metadata.validator_flags
    if validation == "default":
        try:
            parse_flags(flags)
        except FlagError as exc:
            raise PackageError(f"{meta_path}: validator_flags: {exc}") from exc
    io = _io(meta_path, metadata.io)
    if metadata.interactive and output_validator is None:
        raise PackageError(f"{root}: an interactive problem needs its interactor in output_validators/")
    if validation == "custom" and output_validator is None:
        raise PackageError(f"{root}: validation is custom but output_validators/ has no program")
    input_validators = find_input_validators(root)
    groups, data_warnings = read_test_data(root, metadata) if require_tests else (None, ())
    tests = tuple(groups.test_cases()) if groups else ()
    for test in tests:
        check_jury_bytes(test.input_path)
        check_jury_bytes(test.answer_path)
    if require_tests and not tests:
        raise PackageError(f"{root}: no test cases in data/sample or data/secret")
    statement_dir = "problem_statement" if metadata.version == LEGACY else "statement"
    statements, statement_warnings = find_statements(root, statement_dir)
    time_limit_ms, time_source = _time_limit(root, metadata)
    names = _names(metadata, statements, problem_id)
    return ProblemPackage(
        id=problem_id,
        root=root,
        name=names.get("en") or next(iter(names.values())),
        time_limit_ms=time_limit_ms,
        memory_kib=int(metadata.memory_mib * 1024),
        output_bytes=int(metadata.output_mib * 1024 * 1024),
        validation=validation,
        validator_flags=flags,
        input_file=io["input_file"],
        output_file=io["output_file"],
        tests=tests,
        output_validator=output_validator if validation == "custom" else None,
        input_validator=input_validators[0] if input_validators else None,
        statements=statements,
        input_validators=input_validators,
        input_validator_flags=_input_validator_flags(root, raw_meta, meta_path),
        metadata=metadata,
        groups=groups,
        names=names,
        time_limit_source=time_source,
        code_bytes=int(metadata.code_kib * 1024) if metadata.code_kib is not None else None,
        warnings=metadata.warnings + data_warnings + tuple(statement_warnings),
    )
