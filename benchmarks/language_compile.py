"""Compile and first-run cost of each language's hello-world in the sandbox, as the worker's
self-test (``judge.selftest``) and every submission pay it: CPU ms of the compile (the compiler's
own CPU time, the cgroup's count) and of the hello run, median of ``count`` rounds taken in turns,
with each language's ratio to C measured in the same run (the baseline).

Usage: ``python -m benchmarks.language_compile [count] [language ...]`` (default 3 rounds, all).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.sandbox_support import REPOSITORY  # noqa: F401  (puts the repository on sys.path)
from judge.judging import COMPILE_LIMITS, open_session
from judge.languages import LANGUAGES, Language
from judge.selftest import HELLO_LIMITS, HELLO_MEMORY_KIB
from sandbox import Limits, Sandbox

SLOT = 57 + int(os.environ.get("JUDGE_TEST_SLOT_OFFSET", "0"))  # apart from verify's 50-51


def measure(box: Sandbox, language: Language, work: Path) -> tuple[int, int]:
    """(compile CPU ms, run CPU ms) of the language's hello-world; raises RuntimeError if it fails."""
    source = language.hello
    with open_session(box, language, work) as session:
        folder = session.folder("compile")
        (folder / language.file_name(source)).write_text(source, encoding="utf-8")
        argv = language.compile_argv(source)
        compile_ms = 0
        if argv is not None:
            built = session.run(argv, "compile", COMPILE_LIMITS)
            if built.exit_code != 0:
                raise RuntimeError(f"{language.id}: compile failed: {built.stderr[:200]!r}")
            compile_ms = built.cpu_ms
        run_folder = session.folder("run")
        for name in language.program_files(source, folder):
            (run_folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(folder / name, run_folder / name)
        limits = Limits(
            processes=language.processes, memory_kib=HELLO_MEMORY_KIB + language.extra_memory_kib, **HELLO_LIMITS
        )
        ran = session.run(language.run_argv(source, HELLO_MEMORY_KIB), "run", limits)
        if ran.exit_code != 0:
            raise RuntimeError(f"{language.id}: run failed: {ran.stderr[:200]!r}")
        return compile_ms, ran.cpu_ms


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    chosen = sys.argv[2:] or list(LANGUAGES)
    ids = ["c", *[i for i in chosen if i != "c"]]  # C is the baseline
    root = Path(tempfile.mkdtemp(prefix="bench-languages-"))
    os.chmod(root, 0o711)
    times: dict[str, list[tuple[int, int]]] = {i: [] for i in ids}
    try:
        with Sandbox(slot=SLOT) as box:
            for _ in range(count):
                for language_id in ids:
                    times[language_id].append(measure(box, LANGUAGES[language_id], root / language_id))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    base_compile = statistics.median(c for c, _ in times["c"])
    print(f"rounds: {count}, in turns; load average: {os.getloadavg()[0]:.2f}; baseline: C (gcc -static)")
    for language_id, measured in times.items():
        compile_ms = statistics.median(c for c, _ in measured)
        run_ms = statistics.median(r for _, r in measured)
        print(
            f"{language_id:11} compile {compile_ms:7.0f} ms CPU ({compile_ms / base_compile:5.1f}x C)"
            f"   hello run {run_ms:5.0f} ms CPU"
        )


if __name__ == "__main__":
    main()
