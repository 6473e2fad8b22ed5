"""Every language the judge offers compiles (inside the box, as the judge does) and runs in the
box, through both paths (``Sandbox.run`` and ``Session.run``, the ``runner`` fixture): static
and dynamic C, C++, Python 3, PyPy, Free Pascal, Java, JavaScript (Node)."""

from __future__ import annotations

import shutil

import pytest

from sandbox import Limits
from tests.sandbox.conftest import needs_root

pytestmark = needs_root

ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
COMPILE = Limits(cpu_ms=20_000, wall_ms=40_000, memory_kib=1 << 20, processes=64, file_bytes=256 << 20)
RUN = Limits(cpu_ms=5_000, wall_ms=10_000, memory_kib=512 * 1024, processes=64)

CASES = {
    "c-dynamic": (
        "main.c",
        '#include <stdio.h>\nint main(void){int a,b;scanf("%d%d",&a,&b);printf("%d\\n",a+b);}\n',
        ["gcc", "-O2", "-o", "main", "main.c"],
        ["./main"],
    ),
    "c-static": (
        "main.c",
        '#include <stdio.h>\nint main(void){int a,b;scanf("%d%d",&a,&b);printf("%d\\n",a+b);}\n',
        ["gcc", "-O2", "-static", "-o", "main", "main.c"],
        ["./main"],
    ),
    "cpp": (
        "main.cpp",
        "#include <iostream>\nint main(){long a,b;std::cin>>a>>b;std::cout<<a+b<<std::endl;}\n",
        ["g++", "-O2", "-std=gnu++17", "-o", "main", "main.cpp"],
        ["./main"],
    ),
    "python3": ("main.py", "a, b = map(int, input().split())\nprint(a + b)\n", None, ["/usr/bin/python3", "main.py"]),
    "pypy3": ("main.py", "a, b = map(int, input().split())\nprint(a + b)\n", None, ["pypy3", "main.py"]),
    "pascal": (
        "main.pas",
        "var a, b: longint;\nbegin\n  readln(a, b);\n  writeln(a + b);\nend.\n",
        ["fpc", "-O2", "main.pas"],
        ["./main"],
    ),
    "java": (
        "Main.java",
        "import java.util.*;\npublic class Main { public static void main(String[] x) {\n"
        "  Scanner s = new Scanner(System.in); System.out.println(s.nextLong() + s.nextLong()); } }\n",
        ["javac", "Main.java"],
        ["java", "-Xmx256m", "-Xss64m", "Main"],
    ),
    "javascript": (
        "main.js",
        "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(a + b);\n",
        None,
        ["node", "main.js"],
    ),
}


@pytest.mark.parametrize(
    "language", [pytest.param(name, marks=pytest.mark.slow) if name == "java" else name for name in sorted(CASES)]
)
def test_language_compiles_and_runs_in_the_box(runner, workdir, work_root, language):
    file_name, source, compile_argv, run_argv = CASES[language]
    if shutil.which(compile_argv[0] if compile_argv else run_argv[0]) is None:
        pytest.skip(f"{language} toolchain not installed")
    (workdir / file_name).write_text(source)
    if compile_argv:
        compiled = runner.run(compile_argv, workdir, COMPILE, env=ENV)
        assert (compiled.exit_code, compiled.limit_exceeded) == (0, False), compiled.stderr + compiled.stdout
    given = work_root / f"{language}.in"
    given.write_text("20 22\n")
    result = runner.run(run_argv, workdir, RUN, stdin=given, env=ENV)
    assert result.stdout == b"42\n", result.stderr
    assert (result.exit_code, result.limit_exceeded) == (0, False)
