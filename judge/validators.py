"""Input and output validators in any language, built once and run in the sandbox.

Source of the rules: the Kattis problem package format (legacy and 2023-07) and problemtools
(``problemtools/run``): a validator is a single file (C, C++, Java, Python, or a checktestdata
``.ctd`` script for input) or a folder. A folder with a ``build`` and/or ``run`` script is built by
running ``build`` and run by ``run``; any other folder is one program in the language of its files
(every C or C++ file compiled together, its headers beside them; Java's class with ``main``; the
Python file that is alone, ``main.py`` or named like the folder). Compilers and their flags are
the languages table's (``judge.languages``): C as ``c``, C++ as ``cpp20``, Java as ``java``; Python
runs as ``python3 -S``. A ``.ctd`` script is turned into a standalone Python validator by PyPI's
``checktestdata`` (``--convert``, the package problemtools runs ``.ctd`` files with), inside the box.

Building (``build_validator``) happens in a sandbox session under ``BUILD_LIMITS``; the result is
kept in a cache folder named by the hash of the validator's files and recipe, so a package's
validator is compiled once per host whatever the number of judgings. A build that fails raises
``ValidatorError`` with the compiler's message.

Running: every run is a run of its own in the session (own folder, mount, PID and IPC namespaces,
the slot's unprivileged uid), under ``VALIDATOR_LIMITS``, with only PATH/LANG/HOME as environment.
Its folder ``/box`` holds a copy of the built validator, the test's files read-only in
``/box/.judge/`` (root-owned, mode 0555/0444) and the writable feedback folder ``/box/feedback/``;
the team output comes on standard input. An output validator is run as ``validator
/box/.judge/testdata.in /box/.judge/testdata.ans /box/feedback/ [flags] < team_output``; an input
validator as ``validator [flags] < input``. Exit 42 accepts, 43 rejects; any other exit, a
signal or a limit is a judge error (JE), never a verdict of the submission. What the validator
wrote to ``judgemessage.txt``, ``teammessage.txt``, ``score.txt`` and ``feedback.json`` is read
back without following links and with size limits (``judge.checkers.read_feedback``).
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from judge.checkers import ACCEPT_EXIT, MESSAGE_LIMIT, REJECT_EXIT, CheckResult, read_feedback
from judge.judging import ARTIFACT_LIMIT, PATH_ENV, copy_regular_file, fresh_dir
from judge.languages import FILES, LANGUAGES, PLACEHOLDER, java_names
from judge.verdicts import AC, JE, WA
from sandbox import Limits, RunResult, Sandbox, SandboxError, read_output_file
from sandbox.session import Session
from sandbox.tree import walk_files

# a validator's run: CPU, wall, memory (KiB), tasks, output (stdout is not read), files it writes
VALIDATOR_LIMITS = Limits(
    cpu_ms=30_000,
    wall_ms=60_000,
    memory_kib=1 << 20,
    processes=64,
    output_bytes=1 << 20,
    file_bytes=64 << 20,
    stderr_bytes=64 << 10,
)
# building a validator (compile, a build script, checktestdata's conversion)
BUILD_LIMITS = Limits(
    cpu_ms=60_000,
    wall_ms=120_000,
    memory_kib=1 << 20,
    processes=64,
    output_bytes=1 << 20,
    file_bytes=256 << 20,
    stderr_bytes=64 << 10,
)
BUILD_MESSAGE_LIMIT = 8 * 1024  # bytes of a failed build's output kept for the jury
TEXT_FILE_LIMIT = 64 * 1024  # bytes: a larger judgemessage.txt / teammessage.txt / score.txt is ignored
RECIPE_VERSION = "1"  # part of the cache key: a change in how validators are built rebuilds them
BUILD_FOLDER, CHECK_FOLDER = "validator-build", "validator-run"
JUDGE_DIR, FEEDBACK_DIR = ".judge", "feedback"
BOX = "/box"
PYTHON = "/usr/bin/python3"
C_SUFFIXES = (".c",)
CPP_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".C")
JAVA_SUFFIXES = (".java",)
PY_SUFFIXES = (".py",)
CTD_SUFFIXES = (".ctd",)
LANGUAGE_OF = {"cpp20": CPP_SUFFIXES, "c": C_SUFFIXES, "java": JAVA_SUFFIXES}
JAVA_MAIN = re.compile(r"\bstatic\s+void\s+main\s*\(|\bvoid\s+main\s*\(")
PROGRAM_SUFFIXES = C_SUFFIXES + CPP_SUFFIXES + JAVA_SUFFIXES + PY_SUFFIXES + CTD_SUFFIXES


class ValidatorError(Exception):
    """A validator that cannot be built: no language recognised, or a build that failed (the
    message holds the compiler's or build script's output)."""


@dataclass(frozen=True)
class Recipe:
    """How to build and run one validator.

    sources: (name in the build folder, host file) pairs; executables: names made executable
    before the build; compile: the build command (None: nothing to build); run: the command,
    relative to the built folder; artifacts: fnmatch patterns of the build folder's files kept.
    """

    program: Path
    sources: tuple[tuple[str, Path], ...]
    run: tuple[str, ...]
    compile: tuple[str, ...] | None = None
    artifacts: tuple[str, ...] = ("*",)
    executables: tuple[str, ...] = ()

    def key(self) -> str:
        """SHA-256 (hex) of the recipe and the bytes of every source: the cache folder's name."""
        digest = hashlib.sha256()
        head = [RECIPE_VERSION, self.compile, self.run, self.artifacts, self.executables]
        digest.update(json.dumps(head).encode())
        for name, path in sorted(self.sources):
            digest.update(f"\0{name}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
        return digest.hexdigest()


@dataclass(frozen=True)
class BuiltValidator:
    """A validator ready to run: the host folder holding its files and its command (argv)."""

    folder: Path
    run: tuple[str, ...]


def _files(folder: Path) -> list[tuple[str, Path]]:
    """(relative name, path) of the regular files under ``folder`` (links never followed)."""
    return [(name, folder / name) for name in walk_files(folder) if "__pycache__" not in name.split("/")]


def _fill(template: Sequence[str], sources: Sequence[str], values: dict[str, str]) -> tuple[str, ...]:
    """A languages-table template with ``{files}`` (``judge.languages.FILES``) expanded to every source."""
    argv: list[str] = []
    for arg in template:
        if arg == FILES:
            argv.extend(sources)
        else:
            argv.append(PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), arg))
    return tuple(argv)


def _compiled(program: Path, language_id: str, files: list[tuple[str, Path]]) -> Recipe:
    language = LANGUAGES[language_id]
    suffixes = LANGUAGE_OF[language_id]
    sources = sorted(name for name, _ in files if name.endswith(suffixes))
    values = {"entry": "", "memory_mib": str((VALIDATOR_LIMITS.memory_kib - language.extra_memory_kib) // 1024)}
    if language_id == "java":  # the class declaring main (JLS scan of judge.languages)
        texts = [path.read_text(encoding="utf-8", errors="replace") for name, path in files if name in sources]
        with_main = [java_names(text).main_class for text in texts if JAVA_MAIN.search(text)]
        values["entry"] = with_main[0] if with_main else "Main"
    assert language.compile is not None
    return Recipe(
        program,
        tuple(files),
        run=_fill(language.run, sources, values),
        compile=_fill(language.compile, sources, values),
        artifacts=language.artifacts,
    )


def _python_main(folder: Path, names: list[str]) -> str:
    top = [n for n in names if "/" not in n]
    for candidate in (top if len(top) == 1 else [], ["main.py"], [f"{folder.name}.py"]):
        if candidate and candidate[0] in names:
            return candidate[0]
    raise ValidatorError(f"{folder}: several Python files and none is main.py or {folder.name}.py")


def recipe(program: Path) -> Recipe:
    """How to build and run the validator ``program`` (a file or a folder, see the module
    docstring). Raises ValidatorError when no language is recognised."""
    if program.is_file():
        files = [(program.name, program)]
    elif program.is_dir():
        files = _files(program)
    else:
        raise ValidatorError(f"{program}: no such validator")
    names = [name for name, _ in files]
    if program.is_dir() and ("build" in names or "run" in names):
        executables = tuple(n for n in ("build", "run") if n in names)
        return Recipe(
            program, tuple(files), ("./run",), ("./build",) if "build" in names else None, ("*",), executables
        )
    for language_id, suffixes in LANGUAGE_OF.items():
        if any(name.endswith(suffixes) for name in names):
            return _compiled(program, language_id, files)
    python = [n for n in names if n.endswith(PY_SUFFIXES)]
    if python:
        main = _python_main(program, python) if program.is_dir() else program.name
        check = ("-S", "-c", "import py_compile,sys;py_compile.compile(sys.argv[1],doraise=True)", main)
        return Recipe(program, tuple(files), (PYTHON, "-S", main), (PYTHON, *check))
    scripts = [n for n in names if n.endswith(CTD_SUFFIXES)]
    if len(scripts) == 1:
        return _checktestdata(program, files, scripts[0])
    raise ValidatorError(f"{program}: no validator program (C, C++, Java, Python, .ctd, or build/run scripts)")


def _checktestdata(program: Path, files: list[tuple[str, Path]], script: str) -> Recipe:
    """checktestdata's own files go into the build folder with the script: the box sees only the
    system folders, not the judge's Python environment."""
    try:
        import checktestdata
    except ImportError as error:
        raise ValidatorError(f"{program}: checktestdata is not installed (pip install checktestdata)") from error
    package = Path(checktestdata.__file__).parent
    own = [(f"checktestdata/{name}", path) for name, path in _files(package)]
    convert = (PYTHON, "-S", "-m", "checktestdata", "--convert", "validator.py", script)
    return Recipe(program, tuple(files + own), (PYTHON, "-S", "validator.py"), convert, ("validator.py",))


def _copy_in(files: Sequence[tuple[str, Path]], folder: Path, executables: Sequence[str] = ()) -> None:
    for name, path in files:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        os.chmod(target, 0o755 if name in executables or os.access(path, os.X_OK) else 0o644)


def _run_problem(result: RunResult) -> str | None:
    """Why a validator's run is a judge error by the sandbox's counters alone, or None."""
    if result.cpu_limit_exceeded or result.wall_limit_exceeded:
        return f"ran over its time limit ({result.cpu_ms} ms CPU, {result.wall_ms} ms wall)"
    if result.memory_limit_exceeded:
        return f"ran over its memory limit ({result.peak_memory_kib} KiB)"
    if result.output_limit_exceeded:
        return "wrote more than its output limit"
    if result.signal is not None:
        return f"was killed by {result.signal_name}"
    return None


def _output_text(result: RunResult) -> str:
    return (result.stdout + result.stderr)[:BUILD_MESSAGE_LIMIT].decode("utf-8", errors="replace").strip()


def build_validator(session: Session, program: Path | Recipe, cache_root: Path) -> BuiltValidator:
    """The validator ``program`` (or its ``recipe``) built in ``session`` (folder
    ``BUILD_FOLDER``) or taken from ``cache_root/<recipe key>`` where an earlier build left it.

    Raises ValidatorError for an unknown language or a failed build (with the build's output);
    SandboxError when the box cannot run the build.
    """
    plan = program if isinstance(program, Recipe) else recipe(program)
    program = plan.program
    target = cache_root / plan.key()
    if target.is_dir():
        return BuiltValidator(target, plan.run)
    folder = session.folder(BUILD_FOLDER)
    _copy_in(plan.sources, folder, plan.executables)
    if plan.compile is not None:
        result = session.run(list(plan.compile), BUILD_FOLDER, BUILD_LIMITS, env=dict(PATH_ENV))
        problem = _run_problem(result) or (None if result.exit_code == 0 else f"exited with {result.exit_code}")
        if problem is not None:
            raise ValidatorError(f"{program.name} does not build: the build {problem}\n{_output_text(result)}".strip())
    kept = [n for n in walk_files(folder) if any(fnmatch.fnmatchcase(n, p) for p in plan.artifacts)]
    command = plan.run[0]
    if not command.startswith("/") and os.path.normpath(command) not in kept:
        raise ValidatorError(f"{program.name} does not build: the build left no {command}")
    cache_root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=cache_root))
    for name in kept:
        (staging / name).parent.mkdir(parents=True, exist_ok=True)
        if not copy_regular_file(folder, name, staging / name, ARTIFACT_LIMIT):
            shutil.rmtree(staging, ignore_errors=True)
            raise ValidatorError(f"{program.name} does not build: {name} is missing or too large")
    try:
        os.rename(staging, target)  # atomic: another worker may have built the same validator
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        if not target.is_dir():
            raise
    session.remove(BUILD_FOLDER)
    return BuiltValidator(target, plan.run)


def _first_line(data: bytes | None) -> str:
    text = (data or b"").decode("utf-8", errors="replace").strip()
    return text.splitlines()[0][:MESSAGE_LIMIT] if text else ""


def _score(data: bytes | None) -> float | None:
    try:
        value = float((data or b"").decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        return None
    return value if abs(value) < float("inf") else None


@dataclass(frozen=True)
class ValidatorRun:
    """What one validator run left: its counters and its feedback folder (host path)."""

    result: RunResult
    feedback: Path

    def read(self, name: str) -> bytes | None:
        """A feedback file (at most TEXT_FILE_LIMIT bytes; links and other oddities give None)."""
        return read_output_file(self.feedback, name, TEXT_FILE_LIMIT)

    def judge_error(self, what: str) -> CheckResult | None:
        """JE when the run crashed, hit a limit or exited with neither 42 nor 43; else None."""
        problem = _run_problem(self.result)
        if problem is None and self.result.exit_code not in (ACCEPT_EXIT, REJECT_EXIT):
            said = self.result.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
            problem = f"exited with {self.result.exit_code}: {said[0][:MESSAGE_LIMIT]}"
        return None if problem is None else CheckResult(JE, f"{what} {problem}")


def run_validator(
    session: Session,
    built: BuiltValidator,
    args: Sequence[str],
    stdin: Path | None,
    data: dict[str, Path],
    limits: Limits = VALIDATOR_LIMITS,
    pipe_fds: tuple[int, int] | None = None,
) -> ValidatorRun:
    """Run ``built`` with ``args`` in the session's folder ``CHECK_FOLDER``: a fresh copy of its
    files, ``data`` (name → host file) read-only in ``/box/.judge/``, an empty writable
    ``/box/feedback/``, ``stdin`` on standard input (or ``pipe_fds``, see ``Session.run``).
    Raises SandboxError if the box fails."""
    try:
        folder = session.folder(CHECK_FOLDER)
        _copy_in(_files(built.folder), folder)
        judge_dir = folder / JUDGE_DIR
        judge_dir.mkdir()
        for name, path in data.items():
            shutil.copyfile(path, judge_dir / name)
            os.chmod(judge_dir / name, 0o444)
        os.chmod(judge_dir, 0o555)
        feedback = folder / FEEDBACK_DIR
        feedback.mkdir()
        if session.box.uid is not None:
            os.chown(feedback, session.box.uid, session.box.gid)
    except BaseException:
        for fd in pipe_fds or ():
            os.close(fd)
        raise
    result = session.run([*built.run, *args], CHECK_FOLDER, limits, stdin=stdin, env=dict(PATH_ENV), pipe_fds=pipe_fds)
    return ValidatorRun(result, feedback)


class SandboxedValidators:
    """Builds (once per instance and program, cached on disk by ``build_validator``) and runs a
    package's validators in ``session``, each run under ``limits`` (default ``VALIDATOR_LIMITS``); ``check`` is a
    ``judge.checkers.ValidatorRunner``. Thread-safe: one run at a time (the session runs one
    program at a time)."""

    def __init__(self, session: Session, cache_root: Path, limits: Limits | None = None) -> None:
        self.session, self.cache_root = session, cache_root
        self.limits = limits or VALIDATOR_LIMITS
        self.lock = threading.Lock()
        self.built: dict[str, BuiltValidator | ValidatorError] = {}

    def get(self, program: Path) -> BuiltValidator:
        """``program`` built (a failed build is remembered and raised again: ValidatorError)."""
        plan = recipe(program)
        key = plan.key()
        if key not in self.built:
            try:
                self.built[key] = build_validator(self.session, plan, self.cache_root)
            except ValidatorError as error:
                self.built[key] = error
        found = self.built[key]
        if isinstance(found, ValidatorError):
            raise found
        return found

    def check(
        self, program: Path, input_path: Path, answer_path: Path, team_output_path: Path, flags: Sequence[str] = ()
    ) -> CheckResult:
        """The output validator's verdict on one team output: AC (exit 42), WA (43), else JE."""
        data = {"testdata.in": input_path, "testdata.ans": answer_path}
        args = [f"{BOX}/{JUDGE_DIR}/testdata.in", f"{BOX}/{JUDGE_DIR}/testdata.ans", f"{BOX}/{FEEDBACK_DIR}/", *flags]
        with self.lock:
            try:
                run = run_validator(self.session, self.get(program), args, team_output_path, data, self.limits)
            except ValidatorError as error:
                return CheckResult(JE, f"output validator: {error}")
            except SandboxError as error:
                return CheckResult(JE, f"output validator could not run: {error}")
            return output_verdict(run)

    def interact(
        self,
        program: Path,
        input_path: Path,
        answer_path: Path,
        pipe_fds: tuple[int, int],
        flags: Sequence[str] = (),
        wall_ms: int | None = None,
    ) -> ValidatorRun:
        """Run the interactor ``program`` as an output validator whose standard input and output
        are ``pipe_fds`` (the submission's output, its input; the session owns and closes them),
        with a wall limit of ``wall_ms`` when given. Raises ValidatorError when it does not build,
        SandboxError when the box fails (``pipe_fds`` are closed either way)."""
        data = {"testdata.in": input_path, "testdata.ans": answer_path}
        args = [f"{BOX}/{JUDGE_DIR}/testdata.in", f"{BOX}/{JUDGE_DIR}/testdata.ans", f"{BOX}/{FEEDBACK_DIR}/", *flags]
        limits = self.limits if wall_ms is None else Limits(**{**self.limits.__dict__, "wall_ms": wall_ms})
        with self.lock:
            try:
                built = self.get(program)
            except BaseException:
                for fd in pipe_fds:
                    os.close(fd)
                raise
            return run_validator(self.session, built, args, None, data, limits, pipe_fds)

    def validate_input(self, program: Path, input_path: Path, flags: Sequence[str] = ()) -> CheckResult:
        """An input validator's verdict on one input: AC valid (42), WA invalid (43, with its
        message or the last line of its standard error), JE otherwise."""
        with self.lock:
            try:
                run = run_validator(self.session, self.get(program), list(flags), input_path, {}, self.limits)
            except ValidatorError as error:
                return CheckResult(JE, f"input validator: {error}")
            except SandboxError as error:
                return CheckResult(JE, f"input validator could not run: {error}")
            failed = run.judge_error("input validator")
            if failed is not None:
                return failed
            if run.result.exit_code == ACCEPT_EXIT:
                return CheckResult(AC)
            said = run.result.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
            return CheckResult(WA, _first_line(run.read("judgemessage.txt")) or said[0][:MESSAGE_LIMIT])


def output_verdict(run: ValidatorRun) -> CheckResult:
    """An output validator's CheckResult from its run: JE (crash, limit, other exit), else AC or
    WA with judgemessage.txt's first line, teammessage.txt's, score.txt and feedback.json."""
    failed = run.judge_error("output validator")
    if failed is not None:
        return failed
    accepted = run.result.exit_code == ACCEPT_EXIT
    message = _first_line(run.read("judgemessage.txt"))
    return CheckResult(
        AC if accepted else WA,
        message if accepted else message or "wrong answer",
        read_feedback(run.feedback / "feedback.json"),
        team_message=_first_line(run.read("teammessage.txt")),
        score=_score(run.read("score.txt")),
    )


class ValidatorBox:
    """A sandbox slot with one session for running validators outside a judging (``judge
    problem verify``): ``with ValidatorBox(slot, work, cache) as box: box.validators.check(...)``.
    Raises SandboxError when the slot cannot be opened."""

    def __init__(self, slot: int, work: Path, cache_root: Path) -> None:
        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        self.box = Sandbox(slot=slot)
        try:
            self.session = self.box.session(fresh_dir(work / "validators-box"), env=dict(PATH_ENV))
            self.session.__enter__()
        except BaseException:
            self.box.close()
            raise
        self.validators = SandboxedValidators(self.session, cache_root)

    def close(self) -> None:
        """End the session and release the slot."""
        try:
            self.session.close()
        finally:
            self.box.close()
            shutil.rmtree(self.work / "validators-box", ignore_errors=True)

    def __enter__(self) -> ValidatorBox:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
