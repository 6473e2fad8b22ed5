"""Reading a problem package in the Kattis problem package layout.

Source of the format: the Kattis problem package format (legacy version, read by Kattis, DOMjudge
and problemtools), with two additions this judge reads from ``problem.yaml``:
``limits.time_limit`` (seconds, the 2025-09 field) and ``io: {input_file, output_file}`` for problems
whose programs read and write files (see docs/conventions.md).

Refused at load, with the file and the reason: a jury file (``.in`` or ``.ans``) that starts with a
UTF-8 byte order mark or holds a carriage return (docs/conventions.md "Jury files and team output"),
and, with ``validation: default``, ``validator_flags`` the default checker does not know.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from judge.checkers import BYTE_ORDER_MARK, FlagError, parse_flags

PROBLEM_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
DEFAULT_TIME_LIMIT_S = 1.0
DEFAULT_MEMORY_MIB = 256
DEFAULT_OUTPUT_MIB = 8
TEST_GROUPS = ("sample", "secret")
INPUT_VALIDATOR_FOLDERS = ("input_validators", "input_format_validators")


class PackageError(ValueError):
    """A package that breaks the format; the message names the file and what is wrong."""


@dataclass(frozen=True)
class TestCase:
    """One test case: ``name`` like ``sample/01`` or ``secret/07-corridor``; input and judge answer paths."""

    name: str
    group: str
    input_path: Path
    answer_path: Path


@dataclass(frozen=True)
class ProblemPackage:
    """A parsed package.

    time_limit_ms: CPU time per test (ms); memory_kib: memory limit (KiB); output_bytes: the
    largest output a program may write (bytes). tests: samples first, then secret, each sorted by
    file name. output_validator: the output validator program (a file or a folder in any
    language, see ``judge.validators``) or None; input_validators: every input validator program,
    input_validator the first (or None); input_validator_flags / validator_flags: the arguments
    passed to the input / output validators; interactive: the output validator is an
    interactor talking to the submission (legacy ``validation: custom interactive``, 2023-07
    ``type: interactive``).
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
    interactive: bool = False

    def interaction(self, test: TestCase) -> str | None:
        """The sample conversation of an interactive problem's test (``<name>.interaction`` beside
        its input: lines starting ``>`` the submission writes, ``<`` it reads, as problemtools'
        statements show them), as text; None when the problem is not interactive or the test has
        none."""
        path = test.input_path.with_suffix(".interaction")
        if not self.interactive or not path.is_file() or path.is_symlink():
            return None
        return path.read_text(encoding="utf-8", errors="replace")

    def statement(self, language: str = "en") -> str:
        """The statement in Markdown for ``language`` (falls back to English, then any)."""
        path = self.statements.get(language) or self.statements.get("en")
        if path is None and self.statements:
            path = next(iter(self.statements.values()))
        return path.read_text(encoding="utf-8") if path else ""


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
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise PackageError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise PackageError(f"{path}: must be a mapping of keys")
    return data


def _positive_number(value, what: str, path: Path) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise PackageError(f"{path}: {what} must be a positive number, not {value!r}")
    return float(value)


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


def _tests(root: Path) -> tuple[TestCase, ...]:
    tests = []
    for group in TEST_GROUPS:
        folder = root / "data" / group
        for input_path in sorted(folder.glob("*.in")):
            answer = input_path.with_suffix(".ans")
            if not answer.is_file():
                raise PackageError(f"{input_path}: no judge answer {answer.name}")
            check_jury_bytes(input_path)
            check_jury_bytes(answer)
            tests.append(TestCase(f"{group}/{input_path.stem}", group, input_path, answer))
    return tuple(tests)


def load_package(root: Path | str, *, require_tests: bool = True) -> ProblemPackage:
    """Parse the package in folder ``root``.

    Raises PackageError for a missing or malformed ``problem.yaml``, bad limits or several validator
    programs; with ``require_tests`` (else no tests are read) also for an input without its ``.ans``
    or no test at all.
    """
    root = Path(root).resolve()
    problem_id = root.name
    if not PROBLEM_ID.match(problem_id):
        raise PackageError(f"{root}: folder name must be a problem id (a-z, 0-9, - and _)")
    meta_path = root / "problem.yaml"
    meta = _read_yaml(meta_path)
    limits = meta.get("limits") or {}
    if not isinstance(limits, dict):
        raise PackageError(f"{meta_path}: limits must be a mapping")
    time_s = _positive_number(limits.get("time_limit", DEFAULT_TIME_LIMIT_S), "limits.time_limit", meta_path)
    memory_mib = _positive_number(limits.get("memory", DEFAULT_MEMORY_MIB), "limits.memory", meta_path)
    output_mib = _positive_number(limits.get("output", DEFAULT_OUTPUT_MIB), "limits.output", meta_path)
    validation_words = str(meta.get("validation", "default")).split() or ["default"]
    validation = validation_words[0]
    kinds = meta.get("type") or []
    interactive = "interactive" in validation_words[1:] or "interactive" in (
        kinds if isinstance(kinds, list) else str(kinds).split()
    )
    if interactive:
        validation = "custom"  # the output validator is the interactor
    if validation not in ("default", "custom"):
        raise PackageError(f"{meta_path}: validation must be 'default' or 'custom', not {validation!r}")
    flags = _flags(meta, "validator_flags", meta_path)
    if validation == "default":
        try:
            parse_flags(flags)
        except FlagError as exc:
            raise PackageError(f"{meta_path}: validator_flags: {exc}") from exc
    io = meta.get("io") or {}
    if not isinstance(io, dict):
        raise PackageError(f"{meta_path}: io must be a mapping with input_file / output_file")
    for key in ("input_file", "output_file"):
        name = io.get(key)
        if name is not None and (not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name)):
            raise PackageError(f"{meta_path}: io.{key} must be a plain file name, not {name!r}")
    output_validator = find_output_validator(root)
    if interactive and output_validator is None:
        raise PackageError(f"{root}: an interactive problem needs its interactor in output_validators/")
    if validation == "custom" and output_validator is None:
        raise PackageError(f"{root}: validation is custom but output_validators/ has no program")
    input_validators = find_input_validators(root)
    tests = _tests(root) if require_tests else ()
    if require_tests and not tests:
        raise PackageError(f"{root}: no test cases in data/sample or data/secret")
    statements = {p.name.split(".")[1]: p for p in sorted((root / "statement").glob("problem.*.md"))}
    return ProblemPackage(
        id=problem_id,
        root=root,
        name=str(meta.get("name") or problem_id),
        time_limit_ms=int(math.ceil(time_s * 1000)),
        memory_kib=int(memory_mib * 1024),
        output_bytes=int(output_mib * 1024 * 1024),
        validation=validation,
        validator_flags=flags,
        input_file=io.get("input_file"),
        output_file=io.get("output_file"),
        tests=tests,
        output_validator=output_validator if validation == "custom" else None,
        input_validator=input_validators[0] if input_validators else None,
        statements=statements,
        input_validators=input_validators,
        interactive=interactive,
        input_validator_flags=_input_validator_flags(root, meta, meta_path),
    )
