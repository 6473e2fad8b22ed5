"""Ordinary classroom programs are accepted in every language: each source here starts with a UTF-8
byte order mark (what Windows editors save), names a variable or class in Romanian or another
language outside ASCII where the language allows it, prints a non-ASCII string, and ends in one of
the usual ways (``exit()``, ``quit()``, ``sys.exit(0)``, ``System.exit(0)``, ``process.exit(0)``,
``return 0``, ``halt`` …). Judged by ``judge_submission`` in the real sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.judging import judge_submission
from judge.languages import LANGUAGES
from judge.packages import load_package
from judge.verdicts import AC, CE, RTE
from tests.languages.conftest import needs_root

pytestmark = needs_root

BOM = "\ufeff"
ANSWER = "Ștefan și Ana 42\n"

C = (
    "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  int vârstă = 42;\n"
    '  printf("Ștefan și Ana %d\\n", vârstă);\n  EXIT\n}\n'
)
CPP = (
    "#include <cstdlib>\n#include <iostream>\nint main() {\n  int vârstă = 42;\n"
    '  std::cout << "Ștefan și Ana " << vârstă << "\\n";\n  EXIT\n}\n'
)
PYTHON = 'import sys\nvârstă = 42\nprint("Ștefan și Ana", vârstă)\nEXIT\nprint("not reached")\n'
# Free Pascal takes ASCII identifiers only; the string is non-ASCII
PASCAL = (
    "program Salut;\nvar varsta: integer;\nbegin\n  varsta := 42;\n  writeln('Ștefan și Ana ', varsta);\n  EXIT\nend.\n"
)
JAVA = (
    "public class CLASS {\n  public static void main(String[] args) {\n    int vârstă = 42;\n"
    '    System.out.println("Ștefan și Ana " + vârstă);\n    EXIT\n  }\n}\n'
)
JS = 'const vârstă = 42;\nconsole.log("Ștefan și Ana " + vârstă);\nEXIT\n'
KOTLIN = (
    "import kotlin.system.exitProcess\n\nfun main() {\n    val vârstă = 42\n"
    '    println("Ștefan și Ana " + vârstă)\n    EXIT\n}\n'
)
RUST = 'fn main() {\n    let vârstă = 42;\n    println!("Ștefan și Ana {}", vârstă);\n    EXIT\n}\n'
GO = (
    'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nvar _ = os.Exit\n\n'
    'func main() {\n\tvârstă := 42\n\tfmt.Println("Ștefan și Ana", vârstă)\n\tEXIT\n}\n'
)

PROGRAMS = [
    *[("c", C, end) for end in ("return 0;", "exit(0);", "exit(EXIT_SUCCESS);")],
    *[(lang, CPP, end) for lang in ("cpp", "cpp20") for end in ("return 0;", "std::exit(0);", "")],
    *[
        (lang, PYTHON, end)
        for lang in ("python3", "pypy3")
        for end in ("exit()", "quit()", "sys.exit(0)", "sys.exit()", "exit(0)", "raise SystemExit")
    ],
    *[("pascal", PASCAL, end) for end in ("halt;", "halt(0);", "exit;", "")],
    *[("java", JAVA.replace("CLASS", "Main"), end) for end in ("System.exit(0);", "return;", "")],
    *[("javascript", JS, end) for end in ("process.exit(0);", "process.exit();", "process.exitCode = 0;", "")],
    *[("kotlin", KOTLIN, end) for end in ("exitProcess(0)", "return", "")],
    *[("rust", RUST, end) for end in ("std::process::exit(0);", "return;", "")],
    *[("go", GO, end) for end in ("os.Exit(0)", "return", "")],
]


def answer_package(root: Path) -> Path:
    """A one-sample package (256 MiB, 2 s, default token checker) whose answer is ``ANSWER``."""
    package = root / "hello"
    (package / "data" / "sample").mkdir(parents=True)
    (package / "problem.yaml").write_text("name: hello\nlimits:\n  time_limit: 2\n  memory: 256\n")
    (package / "data" / "sample" / "01.in").write_text("\n")
    (package / "data" / "sample" / "01.ans").write_text(ANSWER, encoding="utf-8")
    return package


@pytest.fixture(scope="module")
def hello(tmp_path_factory) -> Path:
    return answer_package(tmp_path_factory.mktemp("ordinary"))


def judge(box, work_root, package: Path, language_id: str, source: str):
    return judge_submission(
        box, load_package(package), LANGUAGES[language_id], source, work_root / f"ordinary-{language_id}"
    )


def details(outcome) -> tuple:
    return outcome.compile_message, [(t.verdict, t.message) for t in outcome.tests]


@pytest.mark.parametrize(
    "language_id, template, end", PROGRAMS, ids=[f"{lang}-{end or 'end'}" for lang, _, end in PROGRAMS]
)
def test_a_program_with_a_bom_non_ascii_text_and_an_ordinary_exit_is_accepted(
    box, work_root, hello, language_id, template, end
):
    outcome = judge(box, work_root, hello, language_id, BOM + template.replace("EXIT", end))
    assert outcome.verdict == AC, details(outcome)


@pytest.mark.parametrize(
    "declaration, class_name",
    [
        ("public class", "Žaba"),
        ("public class", "Café"),  # é as one code point
        ("public final class", "Cafe\u0301"),  # e and a combining acute accent: another name
        ("class", "Ärger"),  # no public class: named after the class holding main
        ("public class", "€uro"),
    ],
)
def test_a_java_class_named_outside_ascii_is_accepted(box, work_root, hello, declaration, class_name):
    source = BOM + JAVA.replace("public class CLASS", f"{declaration} {class_name}").replace("EXIT", "")
    outcome = judge(box, work_root, hello, "java", source)
    assert outcome.verdict == AC, details(outcome)


@pytest.mark.parametrize(
    "language_id, source",
    [
        ("python3", 'print("Ștefan și Ana 42")\nexit(3)\n'),
        ("pypy3", 'print("Ștefan și Ana 42")\nquit(1)\n'),
        ("c", '#include <stdio.h>\nint main(void) { puts("Ștefan și Ana 42"); return 3; }\n'),
        (
            "java",
            'public class Žaba { public static void main(String[] a) { System.out.println("x"); System.exit(2); } }',
        ),
        ("javascript", 'console.log("Ștefan și Ana 42"); process.exit(1);\n'),
        ("pascal", "begin writeln('Ștefan și Ana 42'); halt(4); end.\n"),
    ],
)
def test_a_non_zero_exit_is_still_a_run_time_error(box, work_root, hello, language_id, source):
    """The exits above are accepted because they report success, not because any exit is."""
    outcome = judge(box, work_root, hello, language_id, BOM + source)
    assert outcome.verdict == RTE, details(outcome)


@pytest.mark.parametrize(
    "language_id, template",
    [
        ("c", C),
        ("cpp", CPP),
        ("python3", PYTHON),
        ("pypy3", PYTHON),
        ("pascal", PASCAL),
        ("java", JAVA),
        ("javascript", JS),
    ],
)
def test_a_windows_source_with_crlf_line_ends_is_accepted(box, work_root, hello, language_id, template):
    exits = {"python3": "exit()", "pypy3": "quit()", "java": "System.exit(0);", "javascript": "process.exit(0);"}
    source = template.replace("CLASS", "Žaba").replace("EXIT", exits.get(language_id, ""))
    outcome = judge(box, work_root, hello, language_id, BOM + source.replace("\n", "\r\n"))
    assert outcome.verdict == AC, details(outcome)


def test_a_java_class_name_too_long_for_a_file_is_a_compile_error(box, work_root, hello):
    outcome = judge(box, work_root, hello, "java", JAVA.replace("CLASS", "Ž" * 200).replace("EXIT", ""))
    assert outcome.verdict == CE, details(outcome)
    assert "Main.java" in outcome.compile_message
