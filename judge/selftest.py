"""Language self-test at worker start: compile and run each language's hello-world in the sandbox.

A language whose toolchain is missing or broken is left out of the worker's list, so the API reports
it unavailable and refuses it with 422 rather than judging every submission CE. The hello-world runs
through the same steps as a submission (``compile_source``, ``copy_program``, the language's run
command and limits) at the problems' usual memory limit, 256 MiB.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from judge.judging import compile_source, copy_program, open_session
from judge.languages import HELLO, LANGUAGES, Language
from sandbox import Limits, Sandbox

log = logging.getLogger(__name__)
HELLO_MEMORY_KIB = 256 * 1024  # the problems' memory limit (problem.yaml ``limits.memory``)
HELLO_LIMITS = dict(cpu_ms=5000, wall_ms=10000, output_bytes=1 << 16, file_bytes=1 << 16, stderr_bytes=1 << 14)


def missing_tools(language: Language) -> list[str]:
    """Absolute program paths of the compile and run commands that do not exist on this host."""
    commands = [language.compile or (), language.run]
    return [argv[0] for argv in commands if argv and argv[0].startswith("/") and not os.path.exists(argv[0])]


def check_language(box: Sandbox, language: Language, work: Path) -> str | None:
    """None when ``language`` compiles and runs its hello-world at a 256 MiB limit, else the reason
    (one line, for the worker's log). Never raises: a broken toolchain must not stop the worker."""
    missing = missing_tools(language)
    if missing:
        return f"not installed: {', '.join(missing)}"
    source = language.hello
    try:
        with open_session(box, language, work) as session:
            program, message = compile_source(session, language, source)
            if program is None:
                return f"hello-world did not compile: {message[:200]}"
            problem = copy_program(program, session.folder("run"))
            if problem is not None:
                return f"hello-world program not copied: {problem}"
            limits = Limits(
                processes=language.processes, memory_kib=HELLO_MEMORY_KIB + language.extra_memory_kib, **HELLO_LIMITS
            )
            result = session.run(language.run_argv(source, HELLO_MEMORY_KIB), "run", limits)
        if result.stdout.strip() != HELLO.encode() or result.limit_exceeded:
            return (
                f"hello-world printed {result.stdout[:80]!r} (exit {result.exit_code}, signal {result.signal}, "
                f"peak {result.peak_memory_kib} KiB): {result.stderr[:200]!r}"
            )
        return None
    except Exception as exc:  # a broken toolchain must not stop the worker
        return f"self-test failed: {type(exc).__name__}: {exc}"


def available_languages(box: Sandbox, work: Path) -> tuple[list[str], dict[str, str]]:
    """(ids of languages that pass the self-test, {id: reason} for those that do not)."""
    ok, broken = [], {}
    for language in LANGUAGES.values():
        reason = check_language(box, language, work / f"selftest-{language.id}")
        if reason is None:
            ok.append(language.id)
        else:
            broken[language.id] = reason
            log.warning("language %s unavailable: %s", language.id, reason)
    return ok, broken
