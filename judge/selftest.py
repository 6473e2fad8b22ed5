"""Language self-test at worker start: compile and run each language's hello-world in the sandbox.

A language whose toolchain is missing or broken is left out of the worker's list, so the API reports
it unavailable and refuses it with 422 rather than judging every submission CE.
"""
from __future__ import annotations

import logging
from pathlib import Path

from sandbox import Limits, Sandbox

from judge.judging import PATH_ENV, compile_source, copy_regular_file, fresh_dir, _program_files
from judge.languages import HELLO, LANGUAGES, Language

log = logging.getLogger(__name__)
HELLO_LIMITS = dict(cpu_ms=5000, wall_ms=10000, memory_kib=256 * 1024, output_bytes=1 << 16,
                    file_bytes=1 << 16, stderr_bytes=1 << 14)


def check_language(box: Sandbox, language: Language, work: Path) -> str | None:
    """None when ``language`` compiles and runs its hello-world at a 256 MiB limit, else the reason."""
    try:
        program_dir, message = compile_source(box, language, language.hello, work)
        if program_dir is None:
            return f"hello-world did not compile: {message[:200]}"
        folder = fresh_dir(work / "run")
        for name in _program_files(language, language.hello):
            copy_regular_file(program_dir, name, folder / name, 1 << 28)
        limits = Limits(processes=language.processes, **{**HELLO_LIMITS,
                        "memory_kib": HELLO_LIMITS["memory_kib"] + language.extra_memory_kib})
        result = box.run(argv=list(language.run), workdir=folder, limits=limits, stdin=None,
                         readonly_binds=[Path(p) for p in language.extra_binds], env={**PATH_ENV, **language.env})
        if result.stdout.strip() != HELLO.encode():
            return f"hello-world printed {result.stdout[:80]!r} (exit {result.exit_code}, signal {result.signal})"
        return None
    except Exception as exc:  # a broken toolchain must not stop the worker
        return f"self-test failed: {exc}"


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
