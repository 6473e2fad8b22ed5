"""Judging one submission: compile in the sandbox, run every test in the sandbox, check each output.

Plain functions in the manner of CMS's ``grading/steps``: ``compile_source`` → ``run_test`` per test
→ ``judge_submission`` collects the verdicts. Nothing here touches the database; the worker
(``judge.worker``) stores what ``judge_submission`` reports through its ``on_test`` callback.
All runs of one submission share one sandbox session (``open_session``): one box set up once, each
run in its own fresh folder, with its own limits and counters (``sandbox.session``).
"""

from __future__ import annotations

import os
import select
import shutil
import stat
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from judge.checkers import CheckResult, ValidatorRunner, check_output
from judge.languages import Language, saved_source
from judge.package.testdata import TestScore, grade
from judge.packages import ProblemPackage, TestCase
from judge.verdicts import AC, CE, JE, WA, resource_verdict, submission_verdict
from sandbox import Limits, RunResult, Sandbox, clear_folder
from sandbox.session import Session

if TYPE_CHECKING:
    from judge.validators import SandboxedValidators

# 512 MiB is twice what g++ -std=gnu++20 needs for <bits/stdc++.h>, and low enough that a compile
# bomb (an exploding template, #include "/dev/urandom") is stopped early.
COMPILE_LIMITS = Limits(
    cpu_ms=20_000,
    wall_ms=40_000,
    memory_kib=512 * 1024,
    processes=64,
    output_bytes=1 << 20,
    file_bytes=256 << 20,
    stderr_bytes=64 << 10,
)
COMPILE_MESSAGE_LIMIT = 8 * 1024  # bytes of compiler output kept for the student
ARTIFACT_LIMIT = 256 << 20  # bytes: the largest compiled file copied into a run folder
STDERR_LIMIT = 64 << 10
SAMPLE_OUTPUT_KEPT = 16 << 10  # bytes of a sample's output kept for the student's side-by-side view
PATH_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp"}
# an interactive problem's interactor runs in sandbox slot (the worker's slot + this): its own uid
INTERACTOR_SLOT_OFFSET = 1000
DRAIN_BYTES = 16 * 1024 * 1024  # the most of an interactor's unread output read off at the end (bytes)


@dataclass
class TestOutcome:
    """One test's result: verdict, CPU ms, wall ms, peak KiB, exit code, signal, reason, and the
    output validator's feedback (a JSON object, or None)."""

    ordinal: int
    test: TestCase
    verdict: str
    time_ms: int = 0
    wall_ms: int = 0
    memory_kib: int = 0
    exit_code: int | None = None
    signal: int | None = None
    message: str = ""
    feedback: dict | None = None
    score: float | None = None  # the output validator's score.txt (scoring problems), else None
    output: bytes | None = None  # a sample's output (its first SAMPLE_OUTPUT_KEPT bytes); None otherwise


@dataclass
class JudgingOutcome:
    """A whole judging: the submission's verdict, compiler output, the test outcomes in order, and
    its ``score`` out of ``max_score`` by the package's grading (``judge.package.testdata.grade``;
    None: not graded, as for CE; max_score None: unbounded)."""

    verdict: str
    compile_message: str = ""
    judge_message: str = ""
    tests: list[TestOutcome] = field(default_factory=list)
    score: float | None = None
    max_score: float | None = None

    @property
    def time_ms(self) -> int:
        """The largest CPU time over the tests (ms)."""
        return max((t.time_ms for t in self.tests), default=0)

    @property
    def memory_kib(self) -> int:
        """The largest peak memory over the tests (KiB)."""
        return max((t.memory_kib for t in self.tests), default=0)


def copy_regular_file(src_dir: Path, name: str, dst: Path, max_bytes: int) -> bool:
    """Copy ``src_dir/name`` to ``dst`` if it is a regular file of at most ``max_bytes``.

    Opened with O_NOFOLLOW: a symlink planted by a program (to /etc/shadow, to the judge answers)
    is never followed. Returns False when there is no such regular file or it is too large.
    """
    try:
        fd = os.open(src_dir / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as src:
        info = os.fstat(src.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
            return False
        with open(dst, "wb") as out:
            copied = 0
            while copied < info.st_size:  # in the kernel: a compiled program is megabytes, copied per test
                sent = os.sendfile(out.fileno(), src.fileno(), copied, info.st_size - copied)
                if sent == 0:
                    break
                copied += sent
    os.chmod(dst, 0o755 if info.st_mode & 0o111 else 0o644)
    return True


def link_regular_file(src_dir: Path, name: str, dst: Path, max_bytes: int) -> bool:
    """Put ``src_dir/name`` at ``dst`` if it is a regular file of at most ``max_bytes``: as a
    hard link to the same file, which the judge first makes its own and read-only (root, mode
    0555 or 0444: no run can change it for the runs after it), so that a compiled program of
    megabytes is not copied for every test; a copy (``copy_regular_file``) where no link can be
    made (not root, another file system). Opened with O_NOFOLLOW, linked through its descriptor:
    what is linked is the file that was checked, never where a symlink points."""
    try:
        fd = os.open(src_dir / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > max_bytes:
            return False
        mode = 0o555 if info.st_mode & 0o111 else 0o444
        try:
            if (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) != (0, 0, mode):
                os.fchown(fd, 0, 0)
                os.fchmod(fd, mode)
            # linkat(AT_SYMLINK_FOLLOW) on the descriptor's /proc link (a dir_fd makes Python
            # call linkat; plain link() would try to link the /proc link itself)
            folder = os.open(dst.parent, os.O_PATH | os.O_DIRECTORY)
            try:
                os.link(f"/proc/self/fd/{fd}", dst.name, dst_dir_fd=folder, follow_symlinks=True)
            finally:
                os.close(folder)
            return True
        except OSError:  # not root, or another file system
            pass
    finally:
        os.close(fd)
    return copy_regular_file(src_dir, name, dst, max_bytes)


def fresh_dir(path: Path) -> Path:
    """Empty folder ``path``: what is there is removed whatever its depth, or moved aside
    (``sandbox.clear_folder``)."""
    return clear_folder(path)


@dataclass(frozen=True)
class Program:
    """A compiled program: its compile ``folder`` and the ``files`` a run needs from it
    (``Language.program_files``: relative ``/``-separated paths, found once after the compile)."""

    folder: Path
    files: tuple[str, ...]


def copy_program(program: Program, folder: Path) -> str | None:
    """Put ``program``'s files (the binary, Java's class files, the source of an interpreted
    language) from its compile folder into the run folder ``folder`` (``link_regular_file``:
    read-only links), keeping sub-folders (Java packages). Returns None, or what is missing or
    too large."""
    if not program.files:
        return "no compiled program"
    for name in program.files:
        target = folder / name
        if "/" in name:
            target.parent.mkdir(parents=True, exist_ok=True)
        if not link_regular_file(program.folder, name, target, ARTIFACT_LIMIT):
            return name
    return None


def open_session(box: Sandbox, language: Language | None, work: Path) -> Session:
    """The sandbox session for one submission in ``language``: its box works in ``work/box``
    (compile and run folders), with the language's read-only binds and environment; for
    ``language`` None, a session with no binds of its own, which ``fit_session`` fits to the
    language once it is known. Raises SandboxError if the box cannot be set up."""
    binds = [Path(p) for p in language.extra_binds] if language else []
    return box.session(fresh_dir(work / "box"), readonly_binds=binds, env=session_env(language))


def session_env(language: Language | None) -> dict[str, str]:
    """The environment of a run of ``language`` (None: of no language in particular)."""
    return {**PATH_ENV, **(language.env if language else {})}


def fit_session(session: Session, box: Sandbox, language: Language, work: Path) -> Session:
    """``session`` (open, and unused by any run: opened ahead by ``open_session(box, None,
    work)``) made ready for a submission in ``language``: the language's environment, the same
    binds; a new session in its place (``session`` closed) where the language needs read-only
    binds of its own. Raises SandboxError if a new box cannot be set up."""
    if session.binds != box.checked_binds(language.extra_binds):
        session.close()
        return open_session(box, language, work)
    session.env = session_env(language)
    return session


def compile_source(
    session: Session, language: Language, source: str, others: Mapping[str, str] | None = None
) -> tuple[Program | None, str]:
    """Compile ``source`` in the session's folder ``compile``, with the other files of a
    multi-file submission (``others``: {relative name: text}) saved beside it under their names;
    the language's compile command takes those that are its sources (``Language.compile_argv``).

    Returns (the ``Program``, compiler message) on success, (None, message) on a
    compile error: non-zero exit, a limit hit (compile bombs), no program produced, or a file
    name that cannot be saved (``unsafe_file_name``).
    """
    folder = session.folder("compile")
    main = language.file_name(source)
    others = others or {}
    for name, text in others.items():
        refused = unsafe_file_name(name, main)
        if refused:
            return None, refused
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(saved_source(text), encoding="utf-8")
    (folder / main).write_text(saved_source(source), encoding="utf-8")
    argv = language.compile_argv(source, others)
    if argv is None:
        return Program(folder, tuple(language.program_files(source, folder))), ""
    result = session.run(argv, "compile", _compile_limits(language))
    message = (result.stdout + result.stderr)[:COMPILE_MESSAGE_LIMIT].decode("utf-8", errors="replace")
    problem = resource_verdict(result)
    if problem is not None and (
        result.memory_limit_exceeded
        or result.cpu_limit_exceeded
        or result.wall_limit_exceeded
        or result.output_limit_exceeded
    ):
        return None, f"compilation stopped: {problem[1]}\n{message}".strip()
    if problem is not None:
        return None, message or f"compiler failed: {problem[1]}"
    files = tuple(language.program_files(source, folder))
    if not files:  # e.g. a Pascal unit instead of a program
        return None, f"{message}\nthe compiler produced no program".strip()
    return Program(folder, files), message


def unsafe_file_name(name: str, main: str) -> str:
    """Why ``name`` (a relative ``/``-separated path of a submission's file) cannot be saved beside
    its main file, saved as ``main``, or '': absolute, ``..``, hidden or empty parts, or ``main``."""
    parts = name.split("/")
    if name.startswith("/") or any(part in ("", ".", "..") or part.startswith(".") for part in parts):
        return f"the file name {name!r} cannot be saved: a relative path without hidden or '..' parts is needed"
    if name == main:
        return f"two files are saved as {main}: the main file is saved under that name"
    return ""


def _compile_limits(language: Language) -> Limits:
    return Limits(**{**COMPILE_LIMITS.__dict__, "processes": max(COMPILE_LIMITS.processes, language.compile_processes)})


def run_limits(package: ProblemPackage, language: Language) -> Limits:
    """Limits of one test run: the package's CPU time and memory (plus the language's extra),
    wall time = 2 × CPU + 1 s, output = the package's output limit (bytes)."""
    return Limits(
        cpu_ms=package.time_limit_ms,
        wall_ms=2 * package.time_limit_ms + 1000,
        memory_kib=package.memory_kib + language.extra_memory_kib,
        processes=language.processes,
        output_bytes=package.output_bytes,
        file_bytes=package.output_bytes,
        stderr_bytes=STDERR_LIMIT,
    )


def run_test(
    session: Session,
    package: ProblemPackage,
    language: Language,
    source: str,
    program: Program,
    test: TestCase,
    ordinal: int,
    work: Path,
    run_validator: ValidatorRunner,
) -> TestOutcome:
    """Run the program on one test in the session's fresh folder ``run``, then check its output
    with ``check_output`` (for an output validator the team output is written to ``work``, outside
    the box), whose output validator runs through ``run_validator`` (``judge.validators``: in the
    same session, in a folder and run of its own).

    The input is given on standard input and, when the package sets ``io.input_file``, as that file;
    the output is ``io.output_file`` when the program created it, else standard output.
    """
    from sandbox import read_output_file

    folder = session.folder("run")
    missing = copy_program(program, folder)
    if missing is not None:
        return TestOutcome(ordinal, test, JE, message=f"compiled program: {missing} cannot be copied")
    if package.input_file:
        shutil.copyfile(test.input_path, folder / package.input_file)
    limits = run_limits(package, language)
    result = session.run(language.run_argv(source, package.memory_kib), "run", limits, stdin=test.input_path)
    outcome = TestOutcome(
        ordinal, test, AC, result.cpu_ms, result.wall_ms, result.peak_memory_kib, result.exit_code, result.signal
    )
    problem = resource_verdict(result, language.heap_exhausted)
    if problem is not None:
        outcome.verdict, outcome.message = problem
        return outcome
    output = None
    if package.output_file:
        output = read_output_file(folder, package.output_file, package.output_bytes)
    team_output = result.stdout if output is None else output
    if test.sample:  # its data is in the statement: the student may see what went wrong
        outcome.output = team_output[:SAMPLE_OUTPUT_KEPT]
    check = check_output(package, test, work / "team_output", run_validator, data=team_output)
    outcome.verdict, outcome.message, outcome.feedback = check.verdict, check.message, check.feedback
    outcome.score = check.score
    return outcome


def interactive_verdict(
    submission: RunResult,
    interactor: CheckResult,
    interactor_first: bool,
    heap_markers: tuple[bytes, ...] = (),
) -> tuple[str, str]:
    """(verdict, reason) of one test of an interactive problem, by problemtools' rules
    (``verifyproblem``, interactive runs): an interactor that crashed, hit a limit or exited with
    neither 42 nor 43 is JE; an interactor's WA (exit 43) from an interactor that ended first
    (``interactor_first``) is WA, whatever the submission did after; otherwise the submission's
    own failure (TLE, then MLE, OLE, RTE by ``resource_verdict``); otherwise the interactor's
    verdict."""
    problem = resource_verdict(submission, heap_markers)
    if interactor.verdict == JE:
        return JE, interactor.message
    if interactor.verdict == WA and (problem is None or interactor_first):
        return WA, interactor.message or "wrong answer"
    if problem is not None:
        return problem
    return interactor.verdict, interactor.message


def _discard_until_done(read_fd: int, interactor: Future) -> None:
    """Read off and drop what the interactor writes to the ended submission (pipe end ``read_fd``)
    until ``interactor`` (its run) is done: its writes then never fail (no SIGPIPE: the format's
    interactor decides its verdict after the submission ended, as problemtools' runner lets it)."""
    watch = select.poll()
    watch.register(read_fd, select.POLLIN)
    while not interactor.done():
        if watch.poll(50) and not _drain(read_fd):
            break  # end of file: the interactor closed its output


def _drain(read_fd: int) -> bool:
    """Read what is there on the non-blocking ``read_fd``; False at end of file."""
    try:
        while chunk := os.read(read_fd, 65536):
            del chunk
        return False
    except BlockingIOError:
        return True


def _writers_gone(read_fd: int) -> bool:
    """Whether every writing end of the pipe whose reading end is ``read_fd`` is closed: its
    data (no longer wanted) is read off until end of file (True) or until nothing more is there
    yet (False: a writer still holds it), at most ``DRAIN_BYTES``."""
    os.set_blocking(read_fd, False)
    drained = 0
    try:
        while drained < DRAIN_BYTES:
            chunk = os.read(read_fd, 65536)
            if not chunk:
                return True
            drained += len(chunk)
    except BlockingIOError:
        pass
    return False


def run_interactive_test(
    session: Session,
    interactor: SandboxedValidators,
    package: ProblemPackage,
    language: Language,
    source: str,
    program: Program,
    test: TestCase,
    ordinal: int,
    interactor_thread: ThreadPoolExecutor,
) -> TestOutcome:
    """Run the program on one test of an interactive problem: its standard input and output are
    pipes to the package's interactor (the output validator, run as ``validator input
    judge_answer feedback_dir`` by ``interactor``, in another slot's box), both under limits
    and at the same time; the verdict is ``interactive_verdict``'s.

    The interactor runs on ``interactor_thread`` (one thread, for as long as the interactor's
    session): a box it sets up again dies with the thread that started it (bubblewrap's
    ``--die-with-parent``), so that thread must outlive the box.

    Who ended first is judged by cause, not by the clock (the judge sees each run end a
    scheduling delay late): the judge holds a copy of the submission's output and input pipe
    ends until it has seen the submission end, so the interactor meets the end of the
    submission's output only after that. Then the interactor ended first exactly when it had
    already closed its output (``_writers_gone``); else it is still running, and whatever it
    decides after is a reaction to the submission's end. (An interactor that closed its output
    on purpose and rejects later counts as first.)
    """
    from judge.validators import ValidatorRun, output_verdict

    folder = session.folder("run")
    missing = copy_program(program, folder)
    if missing is not None:
        return TestOutcome(ordinal, test, JE, message=f"compiled program: {missing} cannot be copied")
    assert package.output_validator is not None
    limits = run_limits(package, language)
    to_program_r, to_program_w = os.pipe2(os.O_CLOEXEC)
    to_interactor_r, to_interactor_w = os.pipe2(os.O_CLOEXEC)
    # held here too until the submission is seen to end (see the docstring)
    held = [os.dup(to_program_r), os.dup(to_interactor_w)]
    found: dict[str, ValidatorRun | BaseException] = {}

    def run_interactor() -> None:
        try:
            found["run"] = interactor.interact(
                package.output_validator,  # type: ignore[arg-type]
                test.input_path,
                test.answer_path,
                (to_interactor_r, to_program_w),
                package.validator_flags,
                wall_ms=limits.wall_ms + 5000,
            )
        except BaseException as error:  # reported as JE below
            found["run"] = error

    interactor_run = interactor_thread.submit(run_interactor)
    argv = language.run_argv(source, package.memory_kib)
    try:
        result = session.run(argv, "run", limits, pipe_fds=(to_program_r, to_interactor_w))
        interactor_first = _writers_gone(held[0])
        os.close(held.pop())  # the interactor may now meet the end of the submission's output
        _discard_until_done(held[0], interactor_run)
    finally:
        for fd in held:
            os.close(fd)
        wait_for([interactor_run])
    outcome = TestOutcome(
        ordinal, test, AC, result.cpu_ms, result.wall_ms, result.peak_memory_kib, result.exit_code, result.signal
    )
    run = found.get("run")
    if not isinstance(run, ValidatorRun):
        outcome.verdict, outcome.message = JE, f"interactor could not run: {run}"
        return outcome
    check = output_verdict(run)
    outcome.verdict, outcome.message = interactive_verdict(result, check, interactor_first, language.heap_exhausted)
    outcome.feedback = check.feedback
    return outcome


def judge_submission(
    box: Sandbox,
    package: ProblemPackage,
    language: Language,
    source: str,
    work: Path,
    on_test: Callable[[TestOutcome], None] | None = None,
    stop_on_failure: bool = False,
    validator_cache: Path | None = None,
    others: Mapping[str, str] | None = None,
    session: Session | None = None,
) -> JudgingOutcome:
    """Compile and run ``source`` on every test of ``package`` (samples first; all tests run
    unless ``stop_on_failure``, which stops after the first non-AC test: ``judge problem verify``
    needs only the verdict).

    ``on_test`` is called after each test (for live progress). Returns CE with the compiler message
    when compilation fails or the source breaks the package's ``languages`` or code limit; otherwise
    the first non-AC test verdict, or AC (for a scoring problem the verdict of its grading), with
    the score of ``graded``. The package's validators are built once into ``validator_cache``
    (default: ``work``'s parent folder's ``validators/``) and run in the submission's session
    (``judge.validators``). ``others``: the other files of a multi-file submission
    (``compile_source``). ``session``: an open session of ``box`` for ``language`` in ``work``
    (``open_session``, ``fit_session``) to judge in, left open for the caller to close; None:
    one is opened here and closed at the end.
    """
    refusal = package_refusal(package, language, source, others)
    if refusal:
        return JudgingOutcome(CE, compile_message=refusal)
    work.mkdir(parents=True, exist_ok=True)
    with open_session(box, language, work) if session is None else nullcontext(session) as session:
        program, message = compile_source(session, language, source, others)
        if program is None:
            return JudgingOutcome(CE, compile_message=message)
        outcome = JudgingOutcome(AC, compile_message=message)
        from judge.validators import SandboxedValidators

        cache = validator_cache or work.parent / "validators"
        validators = SandboxedValidators(session, cache)
        with ExitStack() as stack:
            interactor = None
            if package.interactive:  # the interactor runs beside the program: in a slot of its own
                # entered first, so that its thread ends after the interactor's box
                interactor_thread = stack.enter_context(ThreadPoolExecutor(1, thread_name_prefix="interactor"))
                other = stack.enter_context(Sandbox(slot=box.slot + INTERACTOR_SLOT_OFFSET))
                other_session = stack.enter_context(other.session(fresh_dir(work / "interactor"), env=dict(PATH_ENV)))
                interactor = SandboxedValidators(other_session, cache)
            for ordinal, test in enumerate(package.tests, start=1):
                if interactor is not None:
                    test_outcome = run_interactive_test(
                        session, interactor, package, language, source, program, test, ordinal, interactor_thread
                    )
                else:
                    test_outcome = run_test(
                        session, package, language, source, program, test, ordinal, work, validators.check
                    )
                outcome.tests.append(test_outcome)
                if on_test:
                    on_test(test_outcome)
                if stop_on_failure and test_outcome.verdict != AC and not package.scoring:
                    break
    outcome.verdict = submission_verdict(t.verdict for t in outcome.tests)
    return graded(package, outcome)


# Kattis language codes (the format's language list) of this judge's languages
KATTIS_CODES = {"cpp20": "cpp", "pypy3": "python3"}


def package_refusal(
    package: ProblemPackage, language: Language, source: str, others: Mapping[str, str] | None = None
) -> str:
    """Why ``source`` (with ``others``, the other files of a multi-file submission) in ``language``
    may not be judged on ``package`` (its ``languages`` list or its code limit on all the files
    together, Kattis problem package format), or ''."""
    allowed = package.metadata.languages if package.metadata else None
    code = KATTIS_CODES.get(language.id, language.id)
    if allowed is not None and code not in allowed:
        return f"this problem accepts only {', '.join(allowed)}, not {language.id}"
    size = sum(len(text.encode("utf-8")) for text in (source, *(others or {}).values()))
    if package.code_bytes is not None and size > package.code_bytes:
        return f"the source is {size} bytes; this problem allows at most {package.code_bytes} bytes"
    return ""


def graded(package: ProblemPackage, outcome: JudgingOutcome) -> JudgingOutcome:
    """``outcome`` with its score out of the most by the package's grading; a scoring problem's
    verdict is its grading's (a judge error stays one). A package without groups is left as it is."""
    if package.metadata is None or package.groups is None or not outcome.tests:
        return outcome
    results = {t.test.name: TestScore(t.verdict, t.score) for t in outcome.tests}
    result = grade(package.metadata, package.groups, results)
    outcome.score, outcome.max_score = result.score, result.max_score
    if package.scoring and outcome.verdict != JE:
        outcome.verdict = result.verdict
    return outcome
