"""Programming languages the judge compiles and runs: one small declarative definition each.

A definition gives the source file name, the compile command (a syntax check for interpreted
languages, so a typo is CE and not RTE), the run command, the files of the compile folder a run
needs (``artifacts``), extra read-only host paths, extra memory or tasks its runtime needs, and a
hello-world that the worker compiles and runs at start (``judge.selftest``): a language whose
toolchain is missing or broken is reported unavailable and refused with 422 instead of giving CE.
Pattern from DMOJ's executors (one small class per language, ``dmoj/executors/CPP17.py``).

Commands run inside the sandbox with the work folder as the current directory. Their arguments may
hold three placeholders, filled per submission:
``{source}`` the source file name (``Main.java``), ``{entry}`` what the run starts (Java's main
class ``Main``; else the source's stem), ``{memory_mib}`` the problem's memory limit (MiB).

Language table (ids are the API's; extra memory is added to the problem's limit in the cgroup):

========== ===================================== =============================== ======= =====
id         compile                               run                             extra   tasks
========== ===================================== =============================== ======= =====
c          gcc -std=gnu17 -O2 -static            ./main                          0       16
cpp        g++ -std=gnu++17 -O2 -static          ./main                          0       16
cpp20      g++ -std=gnu++20 -O2 -static          ./main                          0       16
python3    python3 -S compile() (syntax check)   python3 -E -s main.py           0       16
pypy3      pypy3 -S compile() (syntax check)     pypy3 -E -s main.py             0       16
pascal     fpc -Mobjfpc -Sgic -O2 -XS            ./main                          0       16
java       javac -d . Name.java                  java -Xmx<limit> -Xss64m Name   128 MiB 64
kotlin     kotlinc -d . main.kt                  java -Xmx<limit> ... MainKt     128 MiB 64
rust       rustc --edition 2021 -C opt-level=3   ./main                          0       16
go         go build (GOPATH mode, no cgo)        ./main                          0       32
javascript node --check main.js                  node --max-old-space-size=<lim> 128 MiB 32
========== ===================================== =============================== ======= =====

Sources are saved as UTF-8 without a leading byte order mark (``saved_source``): javac refuses one
and Free Pascal, seeing one, turns the non-ASCII letters of string constants into ``?``.
Python runs without environment variables (``-E``) and the user site folder (``-s``) but with
``site``, so ``exit()``, ``quit()`` and ``help()`` are there as on a student's own machine, and
with the main file's folder first on the module path, so the other files of a multi-file
submission import as modules (``-I`` would leave that folder out).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sandbox.tree import walk_files

HELLO = "hello, judge"
BOM = "\ufeff"
PLACEHOLDER = re.compile(r"\{(source|entry|memory_mib)\}")
FILES = "{files}"  # a compile argument that stands for every source file of the submission


@dataclass(frozen=True)
class Language:
    """One language.

    id: API id (``cpp``); name: shown to students; source_name: file the source is saved as (a
    function of the source for Java, whose file must match the public class); compile/run: argv
    templates (placeholders in the module docstring); artifacts: shell-style patterns (fnmatch,
    ``*`` also crosses ``/``) of the compile folder's regular files a run needs, e.g. ``main`` or
    ``*.class``; entry: what the run starts, from the source (default: the source file's stem);
    extra_binds: host paths bound read-only in the box besides the system folders;
    extra_memory_kib: added to the problem's memory limit (a runtime's own footprint, KiB);
    processes: tasks the program may use at once (threads count: the JVM needs many);
    compile_processes: tasks the compiler may use; env: variables added to the judge's PATH/LANG/HOME;
    extensions: the file name endings of its sources (the Kattis format's language list); priority:
    that list's tie-breaker when a program's files fit several languages (``detect_language``).
    hello: a program that reads its standard input and prints ``HELLO``.
    heap_exhausted: markers the runtime writes on standard error when its own heap, capped at the
    problem's memory limit, runs out (the JVM, V8), or when the kernel refused an allocation
    (C++'s std::bad_alloc, Python's MemoryError): such a run is MLE, not RTE. The kernel refuses
    an allocation larger than the host's memory at once, and grants a smaller one that the
    memory limit then stops: both are MLE, on every host.
    """

    id: str
    name: str
    source_name: str | Callable[[str], str]
    run: tuple[str, ...]
    hello: str
    compile: tuple[str, ...] | None = None
    artifacts: tuple[str, ...] = ("{source}",)
    entry: Callable[[str], str] | None = None
    extensions: tuple[str, ...] = ()
    priority: int = 0
    extra_binds: tuple[str, ...] = ()
    extra_memory_kib: int = 0
    processes: int = 16
    compile_processes: int = 32
    env: dict[str, str] = field(default_factory=dict)
    heap_exhausted: tuple[bytes, ...] = ()

    def file_name(self, source: str) -> str:
        """The name to save ``source`` under in the work directory."""
        source = saved_source(source)
        return self.source_name(source) if callable(self.source_name) else self.source_name

    def entry_point(self, source: str) -> str | None:
        """What a run of ``source`` starts when the language names it apart from the file (Java's
        and Kotlin's main class), else None: the CCS API's ``entry_point``."""
        return self.entry(saved_source(source)) if self.entry else None

    def _fields(self, source: str, memory_kib: int) -> dict[str, str]:
        file_name = self.file_name(source)
        entry = self.entry(saved_source(source)) if self.entry else file_name.rsplit(".", 1)[0]
        return {"source": file_name, "entry": entry, "memory_mib": str(max(1, memory_kib // 1024))}

    def _fill(self, template: tuple[str, ...], source: str, memory_kib: int) -> list[str]:
        values = self._fields(source, memory_kib)
        return [PLACEHOLDER.sub(lambda m: values[m.group(1)], arg) for arg in template]

    def compile_argv(self, source: str, others: Iterable[str] = ()) -> list[str] | None:
        """The compile command for ``source`` (None when the language has no compile step). An
        argument ``{files}`` becomes the source's file name followed by those of ``others`` (the
        other files of a multi-file submission, relative names) that are sources of this language
        (``extensions``), sorted: the Kattis format's ``{files}``."""
        if self.compile is None:
            return None
        files = [self.file_name(source), *sorted(name for name in others if self.is_source(name))]
        argv: list[str] = []
        for arg in self.compile:
            argv += files if arg == FILES else self._fill((arg,), source, 0)
        return argv

    def is_source(self, file_name: str) -> bool:
        """Whether ``file_name`` ends with one of this language's ``extensions``."""
        return any(file_name.endswith(ext) for ext in self.extensions)

    def run_argv(self, source: str, memory_kib: int) -> list[str]:
        """The run command for ``source`` under a problem memory limit of ``memory_kib`` (KiB)."""
        return self._fill(self.run, source, memory_kib)

    def program_files(self, source: str, folder: Path) -> list[str]:
        """Relative paths (``/``-separated, sorted) of the regular files in ``folder`` that match
        ``artifacts``: what a run needs from the compile folder. Symbolic links and what lies
        behind them are never listed, nor what lies deeper than ``sandbox.tree.MAX_DEPTH`` folders."""
        patterns = self._fill(self.artifacts, source, 0)
        found = walk_files(folder)  # regular files only, links never followed, depth capped
        return sorted(relative for relative in found if any(fnmatch.fnmatchcase(relative, p) for p in patterns))


def saved_source(source: str) -> str:
    """The text of ``source`` as saved for the compiler: without a leading byte order mark."""
    return source.removeprefix(BOM)


# Java: comments, string and character literals and text blocks hide braces and words from the
# scan below; they are blanked out first.
_JAVA_NOISE = re.compile(r'"""[\s\S]*?"""|//[^\n]*|/\*[\s\S]*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
# A Java identifier (JLS 3.8) may hold any Unicode letter, currency sign, connecting punctuation,
# digit or combining mark (``Žaba``, ``Café`` spelt with U+0301, ``€uro``): here, a run of characters
# that are neither white space nor ASCII punctuation other than ``_`` and ``$``, not starting with a
# digit. What javac would refuse inside it is javac's to report.
JAVA_NAME_BYTES = 250  # a longer class name cannot name a file (255 bytes with ".java" or ".class")
_JAVA_PART = r"[^\s\x00-\x1f\x7f!-#%-/:-@\[-^`{-~]"  # control characters end a name too
_JAVA_IDENTIFIER = rf"(?!\d){_JAVA_PART}+"
_JAVA_TOKENS = re.compile(
    r"(?P<open>\{)|(?P<close>\})"
    rf"|(?<!{_JAVA_PART})package\s+(?P<package>{_JAVA_IDENTIFIER}(?:\s*\.\s*{_JAVA_IDENTIFIER})*)\s*;"
    r"|(?P<modifiers>(?:\b(?:public|protected|private|abstract|final|static|strictfp|sealed|non-sealed)\s+)*)"
    rf"(?<!{_JAVA_PART})(?:class|interface|enum|record)\s+(?P<type>{_JAVA_IDENTIFIER})"
    rf"|(?<!{_JAVA_PART})void\s+(?P<main>main)\s*\("
)


@dataclass(frozen=True)
class JavaNames:
    """What a Java source declares: ``file_class`` names the file (``Name.java``: the public
    top-level type, which javac requires to match), ``main_class`` is what ``java`` starts
    (package-qualified binary name, ``a.b.Main`` or ``Outer$Inner``)."""

    file_class: str
    main_class: str


def java_names(source: str) -> JavaNames:
    """Scan a Java source (Java Language Specification 17, sections 7.4 and 8.1) for its types.

    The main class is the type declaring a ``main`` method, preferring the public top-level
    class; without any main it is the public top-level class, then the first type, then ``Main``.
    A file class longer than ``JAVA_NAME_BYTES`` (UTF-8) cannot name a file: ``Main`` instead.
    Braces are counted after comments and literals are blanked out, so a nested class declared
    before ``main`` is not mistaken for its owner. Never raises.
    """
    code = _JAVA_NOISE.sub(lambda m: " " * len(m.group(0)), source)
    package, pending, public_top = "", None, None
    open_types: list[str | None] = []  # for each open brace: the type it opened, or None
    top_level: list[str] = []
    with_main: list[str] = []
    for match in _JAVA_TOKENS.finditer(code):
        if match.group("open"):
            open_types.append(pending)
            pending = None
        elif match.group("close"):
            if open_types:
                open_types.pop()
        elif match.group("package") and not open_types:
            package = re.sub(r"\s+", "", match.group("package")) + "."
        elif match.group("type"):
            pending = match.group("type")
            if not any(open_types):
                top_level.append(pending)
                if "public" in match.group("modifiers").split() and public_top is None:
                    public_top = pending
        elif match.group("main"):
            owners = [name for name in open_types if name]
            if owners:
                with_main.append("$".join(owners))
    if public_top and public_top in with_main:
        main = public_top
    else:
        main = next(iter(with_main), public_top or next(iter(top_level), "Main"))
    file_class = public_top or main.split("$", 1)[0]
    if len(file_class.encode("utf-8")) > JAVA_NAME_BYTES:  # javac reports the mismatch: CE
        file_class = "Main"
    return JavaNames(file_class=file_class, main_class=package + main)


def java_file_name(source: str) -> str:
    """``Name.java`` for a Java source: its public top-level class, else its main class."""
    return f"{java_names(source).file_class}.java"


def java_main_class(source: str) -> str:
    """The class ``java`` starts for a Java source (package-qualified)."""
    return java_names(source).main_class


C_HELLO = '#include <stdio.h>\nint main(void){while(getchar()!=EOF){}puts("%s");return 0;}\n' % HELLO
CPP_HELLO = (
    "#include <iostream>\n#include <string>\nint main(){std::string w;while(std::cin>>w){}"
    'std::cout<<"%s"<<std::endl;}\n' % HELLO
)
PY_HELLO = f'import sys\nsys.stdin.read()\nprint("{HELLO}")\n'
PASCAL_HELLO = (
    f"program Hello;\nvar line: string;\nbegin\n  while not eof do readln(line);\n  writeln('{HELLO}');\nend.\n"
)
# the class is not called Main: the self-test proves the file and class name come from the source
JAVA_HELLO = (
    "public class Hello {\n  public static void main(String[] args) throws java.io.IOException {\n"
    f'    System.in.readAllBytes();\n    System.out.println("{HELLO}");\n  }}\n}}\n'
)
JS_HELLO = f'require("fs").readFileSync(0);\nconsole.log("{HELLO}");\n'
KOTLIN_HELLO = f'fun main() {{\n    System.`in`.readBytes()\n    println("{HELLO}")\n}}\n'
RUST_HELLO = (
    "use std::io::Read;\nfn main() {\n    let mut text = String::new();\n"
    f'    std::io::stdin().read_to_string(&mut text).unwrap();\n    println!("{HELLO}");\n}}\n'
)
GO_HELLO = (
    'package main\n\nimport (\n\t"fmt"\n\t"io"\n\t"os"\n)\n\n'
    f'func main() {{\n\tio.ReadAll(os.Stdin)\n\tfmt.Println("{HELLO}")\n}}\n'
)

# what a failed run writes when an allocation was refused (sandbox/README.md, "Memory")
CPP_ALLOCATION_REFUSED = (b"std::bad_alloc",)
PY_ALLOCATION_REFUSED = (b"MemoryError",)
# file name endings of the Kattis format's language list; cpp20 and pypy3 share those of cpp and
# python3 (their priority 0: asked for by id, never detected)
CPP_EXTENSIONS = (".cpp", ".cc", ".cxx", ".c++", ".C")
PY_EXTENSIONS = (".py", ".py3")
# g++/gcc: static binaries start fast and need no loader; -pipe keeps temporaries off the disk
GCC = ("-O2", "-pipe", "-static", "-o", "main", "{files}")
# Python's syntax check: every source file compiled in memory, nothing written (the run never
# reads a .pyc, and a module's sub-folder belongs to the judge, not to the box)
PY_SYNTAX_CHECK = (
    "-S",
    "-c",
    "import sys\nfor f in sys.argv[1:]: compile(open(f,'rb').read(),f,'exec')",
    "{files}",
)
# the JVM flags of a Java or Kotlin compile and run (see the Java definition below)
JVM_COMPILE = ("-J-Xmx320m", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-J-XX:-UsePerfData")
JVM_RUN = ("-Xmx{memory_mib}m", "-Xss64m", "-XX:+UseSerialGC", "-XX:ActiveProcessorCount=1", "-XX:-UsePerfData")
KOTLIN_HOME = "/usr/share/kotlin/kotlinc"
# what a JVM run needs besides the program's heap: its own memory and threads (see Java below)
JVM_RUNTIME: dict[str, Any] = dict(
    extra_memory_kib=128 * 1024,
    processes=64,
    compile_processes=64,
    heap_exhausted=(b"java.lang.OutOfMemoryError",),
)
# Kotlin compiles ``main.kt`` to the class ``MainKt`` (in the source's package, if it declares one)
_KOTLIN_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)


def kotlin_main_class(source: str) -> str:
    """The class ``java`` starts for a Kotlin source saved as ``main.kt``: ``MainKt``, qualified by
    the source's ``package`` declaration when it has one (``a.b.MainKt``)."""
    package = _KOTLIN_PACKAGE.search(_JAVA_NOISE.sub(" ", source))
    return f"{package.group(1)}.MainKt" if package else "MainKt"


LANGUAGES: dict[str, Language] = {
    lang.id: lang
    for lang in (
        Language(
            id="c",
            name="C (gcc, C17)",
            source_name="main.c",
            extensions=(".c",),
            priority=950,
            compile=("/usr/bin/gcc", "-std=gnu17", *GCC, "-lm"),
            artifacts=("main",),
            run=("./main",),
            hello=C_HELLO,
        ),
        Language(
            id="cpp",
            name="C++ (g++, C++17)",
            source_name="main.cpp",
            extensions=CPP_EXTENSIONS,
            priority=1000,
            compile=("/usr/bin/g++", "-std=gnu++17", *GCC),
            artifacts=("main",),
            run=("./main",),
            hello=CPP_HELLO,
            heap_exhausted=CPP_ALLOCATION_REFUSED,
        ),
        Language(
            id="cpp20",
            name="C++ (g++, C++20)",
            source_name="main.cpp",
            extensions=CPP_EXTENSIONS,
            compile=("/usr/bin/g++", "-std=gnu++20", *GCC),
            artifacts=("main",),
            run=("./main",),
            hello=CPP_HELLO,
            heap_exhausted=CPP_ALLOCATION_REFUSED,
        ),
        Language(
            id="python3",
            name="Python 3 (CPython)",
            source_name="main.py",
            extensions=PY_EXTENSIONS,
            priority=850,
            compile=("/usr/bin/python3", *PY_SYNTAX_CHECK),
            artifacts=("*.py",),  # the main file and its modules
            run=("/usr/bin/python3", "-E", "-s", "{source}"),
            hello=PY_HELLO,
            heap_exhausted=PY_ALLOCATION_REFUSED,
        ),
        Language(
            id="pypy3",
            name="Python 3 (PyPy)",
            source_name="main.py",
            extensions=PY_EXTENSIONS,
            compile=("/usr/bin/pypy3", *PY_SYNTAX_CHECK),
            artifacts=("*.py",),
            run=("/usr/bin/pypy3", "-E", "-s", "{source}"),
            hello=PY_HELLO,
            heap_exhausted=PY_ALLOCATION_REFUSED,
        ),
        # Free Pascal in objfpc mode: 32-bit integer (classroom code outgrows Turbo Pascal's
        # 16-bit one), short strings as in Turbo Pascal; -Sg labels and goto, -Sc C-style +=,
        # -Si inline; -l- -v0ew: errors and warnings only, no banner. A {$mode} in the source
        # wins. fpc leaves main.o beside the binary: only ``main`` is copied to the runs.
        Language(
            id="pascal",
            name="Pascal (Free Pascal)",
            source_name="main.pas",
            extensions=(".pas", ".pp"),
            priority=350,
            compile=(
                "/usr/bin/fpc",
                "-l-",
                "-v0ew",
                "-Mobjfpc",
                "-Sgic",
                "-O2",
                "-XS",
                "-dONLINE_JUDGE",
                "-omain",
                "{source}",
            ),
            artifacts=("main",),
            run=("./main",),
            hello=PASCAL_HELLO,
        ),
        # Java: the box hides the cgroup from the JVM, so the heap is capped by -Xmx at the
        # problem's limit and the cgroup gets 128 MiB more for the JVM itself (metaspace, code
        # cache, the 64 MiB main-thread stack of -Xss for deep recursion). One visible CPU keeps
        # the thread count (about 14 with the serial GC) the same on every host. javac gets a
        # C1-only JIT: a third less CPU for a short compile.
        Language(
            id="java",
            name="Java (OpenJDK 17)",
            source_name=java_file_name,
            entry=java_main_class,
            extensions=(".java",),
            priority=800,
            compile=(
                "/usr/bin/javac",
                *JVM_COMPILE,
                "-encoding",
                "UTF-8",
                "-d",
                ".",
                "{files}",
            ),
            artifacts=("*.class",),
            run=("/usr/bin/java", *JVM_RUN, "-cp", ".", "{entry}"),
            hello=JAVA_HELLO,
            **JVM_RUNTIME,
        ),
        # Kotlin (kotlinc 1.3 from Debian, on the same JVM as Java): compiled with kotlinc's own
        # script (its JVM flags passed with -J), run on the plain JVM with Kotlin's standard library
        # on the class path, with Java's flags and extra memory.
        Language(
            id="kotlin",
            name="Kotlin (kotlinc 1.3, JVM)",
            source_name="main.kt",
            entry=kotlin_main_class,
            extensions=(".kt",),
            priority=250,
            compile=("/usr/bin/kotlinc", *JVM_COMPILE, "-nowarn", "-d", ".", "{files}"),
            artifacts=("*.class",),
            run=("/usr/bin/java", *JVM_RUN, "-cp", f".:{KOTLIN_HOME}/lib/kotlin-stdlib.jar", "{entry}"),
            hello=KOTLIN_HELLO,
            **JVM_RUNTIME,
        ),
        # Rust (rustc from Debian): optimised as the Kattis format's language list does, without
        # -C target-cpu=native (a program must run the same on every judge host); rustc links with cc.
        Language(
            id="rust",
            name="Rust (rustc, 2021 edition)",
            source_name="main.rs",
            extensions=(".rs",),
            priority=575,
            compile=("/usr/bin/rustc", "--edition", "2021", "-C", "opt-level=3", "-o", "main", "{source}"),
            artifacts=("main",),
            run=("./main",),
            hello=RUST_HELLO,
            heap_exhausted=(b"memory allocation of",),
        ),
        # Go (golang-go from Debian): GOPATH mode, no module file needed; the build cache in the
        # box's private /tmp; static without cgo. One visible CPU (GOMAXPROCS) keeps the thread
        # count the same on every host, as for the JVM.
        Language(
            id="go",
            name="Go (gc)",
            source_name="main.go",
            extensions=(".go",),
            priority=400,
            compile=("/usr/bin/go", "build", "-o", "main", "{files}"),
            artifacts=("main",),
            run=("./main",),
            hello=GO_HELLO,
            processes=32,
            compile_processes=64,
            env={
                "GO111MODULE": "off",
                "GOPATH": "/tmp/go",
                "GOCACHE": "/tmp/go-cache",
                "CGO_ENABLED": "0",
                "GOMAXPROCS": "1",
                "GOTELEMETRY": "off",
            },
            heap_exhausted=(b"fatal error: runtime: out of memory",),
        ),
        # Node: the V8 heap is capped at the problem's limit (V8 cannot see the cgroup either);
        # a 64 MB JS stack (--stack-size is in KiB) fits in the box's stack limit (= memory limit).
        Language(
            id="javascript",
            name="JavaScript (Node.js)",
            source_name="main.js",
            extensions=(".js",),
            priority=500,
            compile=("/usr/bin/node", "--check", "{source}"),
            artifacts=("*.js",),  # the main file and the modules it requires
            run=("/usr/bin/node", "--max-old-space-size={memory_mib}", "--stack-size=65500", "{source}"),
            hello=JS_HELLO,
            extra_memory_kib=128 * 1024,
            processes=32,
            heap_exhausted=(b"JavaScript heap out of memory", b"Reached heap limit"),
        ),
    )
}


PYTHON2 = re.compile(r"^#!.*python2\b")
PYTHON2_PRIORITY = 860  # the Kattis format's python2, ahead of python3 (850) on a tie
MAIN_FILE = re.compile(r"[mM][aA][iI][nN]\.[^/]*")
PYTHON_ENTRY = "__main__.py"  # the format's default entry point of a Python program


def python2_file(file_name: str, first_line: str, legacy: bool = True) -> bool:
    """Whether a file is Python 2 as the Kattis format says: ``.py2``, or in a ``legacy`` package
    a ``.py`` with a ``python2`` shebang (from version 2023-07 on, ``.py`` is always Python 3).
    This judge has no Python 2; such a file is refused, never run as 3."""
    if file_name.endswith(".py2"):
        return True
    return legacy and file_name.endswith(".py") and bool(PYTHON2.match(first_line))


def language_for_file(file_name: str) -> Language | None:
    """The language of a submission file by its extension (``.cpp`` → cpp), or None."""
    for lang in LANGUAGES.values():
        if lang.is_source(file_name):
            return lang
    return None


def accepted_extensions() -> str:
    """The languages and the file endings each is known by, for people: ``C (.c); C++ (.cpp .cc …);
    Python 3 (.py .py3); …`` (the variants of one language, such as C++17 and C++20, named once)."""
    named: dict[tuple[str, ...], list[str]] = {}
    for lang in LANGUAGES.values():
        names = named.setdefault(lang.extensions, [])
        short = lang.name.split(" (")[0]
        if short not in names:
            names.append(short)
    return "; ".join(f"{' or '.join(names)} ({' '.join(ends)})" for ends, names in named.items())


class NoLanguage(ValueError):
    """A program none of this judge's languages takes; the message says why (for CE or a report)."""


class Python2Program(NoLanguage):
    """A Python 2 program (``python2_file``): this judge has no Python 2 and never runs it as 3."""


@dataclass(frozen=True)
class Program:
    """A submission of one or more files: its ``language``, the ``main`` file's name and text
    (what the run starts), and the ``others`` ({relative name: text}) saved beside it."""

    language: Language
    main: str
    source: str
    others: dict[str, str]


def detect_program(files: Mapping[str, str], legacy: bool = True) -> Program:
    """The language and main file of a submission of ``files`` ({relative name: text}) in a
    package of the ``legacy`` format version or a later one, as the Kattis format's language list
    (its languages appendix and problemtools' ``languages.yaml``) decides them:

    - each language counts the files that are evidence for it: its sources (``extensions``); a
      ``.py2`` is Python 2, and in a legacy package so is a ``.py`` whose first line is a
      ``#!…python2`` shebang (it is evidence for Python 2 and 3 alike);
    - the language with the most wins; a tie goes to the higher ``priority`` (Python 2 before 3);
    - the main file is the only source file, else the format's default entry point
      ``__main__.py``, else the source named ``main.*`` in any letter case (problemtools), else
      the first source file by name.

    Raises NoLanguage when no language of this judge has a source among ``files``, Python2Program
    when Python 2 wins: this judge has no Python 2 (Debian 12 has none), and a Python 2 program is
    not run as 3.
    """
    counts: list[tuple[int, int, Language | None]] = []
    for lang in LANGUAGES.values():
        if lang.priority:
            counts.append((sum(lang.is_source(name) for name in files), lang.priority, lang))
    python2 = sum(python2_file(name, text.partition("\n")[0].removeprefix(BOM), legacy) for name, text in files.items())
    counts.append((python2, PYTHON2_PRIORITY, None))
    count, _, language = max(counts, key=lambda item: item[:2])
    if count == 0:
        names = sorted(files)
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        raise NoLanguage(f"no language of this judge has a source among {shown or 'no files'}")
    if language is None:
        raise Python2Program("Python 2 (a .py2 file or a python2 shebang): this judge has no Python 2")
    sources = sorted(name for name in files if language.is_source(name))
    mains = [name for name in sources if name == PYTHON_ENTRY] + [
        name for name in sources if MAIN_FILE.fullmatch(name.rsplit("/", 1)[-1])
    ]
    main = sources[0] if len(sources) == 1 else next(iter(mains), sources[0])
    others = {name: text for name, text in files.items() if name != main}
    return Program(language, main, files[main], others)
