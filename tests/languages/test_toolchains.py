"""Each language's toolchain in the real sandbox: the hello-world self-test passes at the problems'
256 MiB limit, a broken toolchain is reported (not raised), and a syntax error is CE with the
compiler's message in every language, interpreted ones included."""

from __future__ import annotations

import dataclasses

import pytest

from judge.judging import compile_source, open_session
from judge.languages import HELLO, LANGUAGES
from judge.selftest import HELLO_MEMORY_KIB, check_language
from tests.languages.conftest import needs_root

pytestmark = needs_root

# a typo in each language, and a word its compiler (or syntax check) is known to print about it
SYNTAX_ERRORS = {
    "c": ("int main(void) { return 0 }\n", "error"),
    "cpp": ("int main() { int x = ; }\n", "error"),
    "cpp20": ("int main() { int x = ; }\n", "error"),
    "python3": ("def main(:\n    pass\n", "SyntaxError"),
    "pypy3": ("def main(:\n    pass\n", "SyntaxError"),
    "pascal": ("program p;\nbegin\n  writeln(1\nend.\n", "Error"),
    "java": ("public class Broken { public static void main(String[] a) { int x = ; } }\n", "error"),
    "javascript": ("function main( {\n", "SyntaxError"),
    "kotlin": ("fun main() { val x = }\n", "error"),
    "rust": ("fn main() { let x = ; }\n", "error"),
    "go": ("package main\n\nfunc main() { x := }\n", "syntax error"),
}


@pytest.mark.parametrize("language_id", sorted(LANGUAGES))
def test_hello_world_passes_at_256_mib(box, work_root, language_id):
    assert HELLO_MEMORY_KIB == 256 * 1024
    assert check_language(box, LANGUAGES[language_id], work_root / f"hello-{language_id}") is None


def test_a_missing_compiler_makes_the_language_unavailable(box, work_root):
    broken = dataclasses.replace(LANGUAGES["cpp"], compile=("/usr/bin/no-such-g++", "-o", "main", "{source}"))
    reason = check_language(box, broken, work_root / "missing-compiler")
    assert reason is not None and "/usr/bin/no-such-g++" in reason


def test_a_compiler_the_box_cannot_start_makes_the_language_unavailable(box, work_root):
    # a relative name that exists nowhere in the box: only the sandbox finds out, and says so
    broken = dataclasses.replace(LANGUAGES["c"], compile=("no-such-cc", "{source}"))
    reason = check_language(box, broken, work_root / "unstartable-compiler")
    assert reason is not None and reason.startswith("self-test failed")


def test_a_runtime_that_prints_something_else_is_unavailable(box, work_root):
    liar = dataclasses.replace(LANGUAGES["c"], hello='#include <stdio.h>\nint main(void){puts("goodbye");}\n')
    reason = check_language(box, liar, work_root / "wrong-hello")
    assert reason is not None and "goodbye" in reason and HELLO not in reason


@pytest.mark.parametrize("language_id", sorted(SYNTAX_ERRORS))
def test_a_syntax_error_is_a_compile_error_with_the_message(box, work_root, language_id):
    source, word = SYNTAX_ERRORS[language_id]
    language = LANGUAGES[language_id]
    with open_session(box, language, work_root / f"typo-{language_id}") as session:
        program_dir, message = compile_source(session, language, source)
    assert program_dir is None
    assert word in message


def test_a_pascal_unit_is_not_a_program(box, work_root):
    unit = (
        "unit main;\ninterface\nfunction Twice(x: longint): longint;\nimplementation\n"
        "function Twice(x: longint): longint;\nbegin\n  Twice := 2 * x;\nend;\nend.\n"
    )
    with open_session(box, LANGUAGES["pascal"], work_root / "pascal-unit") as session:
        program_dir, message = compile_source(session, LANGUAGES["pascal"], unit)
    assert program_dir is None and "no program" in message
