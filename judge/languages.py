"""Programming languages the judge compiles and runs: one small declarative definition each.

A definition gives the source file name, the compile command (None for interpreted languages), the
run command, extra read-only host paths the toolchain needs inside the sandbox, extra memory or
processes its runtime needs, and a hello-world that the worker compiles and runs at start
(``judge.selftest``): a language whose toolchain is missing or broken is reported unavailable and
refused with 422 instead of giving CE. Pattern from DMOJ's executors (one small class per language).
All commands run inside the sandbox with the work directory as the current directory.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

HELLO = "hello, judge"


@dataclass(frozen=True)
class Language:
    """One language.

    id: API id (``cpp``); name: shown to students; source_name: file the source is saved as (a
    function of the source for Java, whose file must match the public class); compile/run: argv;
    extra_binds: host paths bound read-only in the box besides the default system folders;
    extra_memory_kib: added to the problem's memory limit (a runtime's own footprint, KiB);
    processes: tasks the program may use at once (threads count: the JVM needs many);
    hello: a program that prints ``HELLO``.
    """

    id: str
    name: str
    source_name: str | Callable[[str], str]
    run: tuple[str, ...]
    hello: str
    compile: tuple[str, ...] | None = None
    extensions: tuple[str, ...] = ()
    extra_binds: tuple[str, ...] = ()
    extra_memory_kib: int = 0
    processes: int = 16
    compile_processes: int = 32
    env: dict[str, str] = field(default_factory=dict)

    def file_name(self, source: str) -> str:
        """The name to save ``source`` under in the work directory."""
        return self.source_name(source) if callable(self.source_name) else self.source_name


def java_file_name(source: str) -> str:
    """``Name.java`` for the first public class (else the first class) of a Java source."""
    match = re.search(r"public\s+(?:final\s+)?class\s+([A-Za-z_]\w*)", source) or re.search(
        r"\bclass\s+([A-Za-z_]\w*)", source
    )
    return f"{match.group(1) if match else 'Main'}.java"


C_HELLO = '#include <stdio.h>\nint main(void){puts("%s");return 0;}\n' % HELLO
CPP_HELLO = '#include <iostream>\nint main(){std::cout<<"%s"<<std::endl;}\n' % HELLO

LANGUAGES: dict[str, Language] = {
    lang.id: lang
    for lang in (
        Language(
            id="c", name="C (gcc, C17)", source_name="main.c", extensions=(".c",),
            compile=("/usr/bin/gcc", "-std=gnu17", "-O2", "-pipe", "-static", "-o", "main", "main.c", "-lm"),
            run=("./main",), hello=C_HELLO,
        ),
        Language(
            id="cpp", name="C++ (g++, C++17)", source_name="main.cpp", extensions=(".cpp", ".cc", ".cxx"),
            compile=("/usr/bin/g++", "-std=gnu++17", "-O2", "-pipe", "-static", "-o", "main", "main.cpp"),
            run=("./main",), hello=CPP_HELLO,
        ),
        Language(
            id="cpp20", name="C++ (g++, C++20)", source_name="main.cpp",
            compile=("/usr/bin/g++", "-std=gnu++20", "-O2", "-pipe", "-static", "-o", "main", "main.cpp"),
            run=("./main",), hello=CPP_HELLO,
        ),
        Language(
            id="python3", name="Python 3 (CPython)", source_name="main.py", extensions=(".py",),
            compile=("/usr/bin/python3", "-S", "-c", "import py_compile,sys;py_compile.compile('main.py',doraise=True)"),
            run=("/usr/bin/python3", "-S", "main.py"), hello=f'print("{HELLO}")\n',
            extra_memory_kib=0,
        ),
    )
}


def language_for_file(file_name: str) -> Language | None:
    """The language of a submission file by its extension (``.cpp`` → cpp), or None."""
    for lang in LANGUAGES.values():
        if any(file_name.endswith(ext) for ext in lang.extensions):
            return lang
    return None
