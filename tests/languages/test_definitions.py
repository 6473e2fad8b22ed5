"""The language definitions themselves, without the sandbox: Java's class names read from the
source, the commands filled in per submission, the files a run takes from the compile folder,
languages by file extension."""

from __future__ import annotations

import dataclasses
import os

import pytest

from judge.languages import LANGUAGES, java_file_name, java_main_class, java_names, language_for_file
from judge.selftest import missing_tools
from tests.languages.conftest import SOLUTIONS

MAIN = "public static void main(String[] args) { }"


def test_the_judge_has_the_issues_eleven_languages():
    assert set(LANGUAGES) == {
        *("c", "cpp", "cpp20", "python3", "pypy3", "pascal", "java", "javascript"),
        *("kotlin", "rust", "go"),  # the Kattis format's list, from Debian
    }


@pytest.mark.parametrize(
    "source, main_class",
    [
        ("fun main() { }", "MainKt"),
        ("// package fake\npackage contest.lee\n\nfun main() { }", "contest.lee.MainKt"),
        ('fun main() { println("package nope") }', "MainKt"),
    ],
)
def test_kotlin_runs_the_class_of_main_kt_in_its_package(source, main_class):
    assert LANGUAGES["kotlin"].run_argv(source, 64 * 1024)[-1] == main_class
    assert LANGUAGES["kotlin"].entry_point(source) == main_class
    assert LANGUAGES["rust"].entry_point("fn main() {}") is None


@pytest.mark.parametrize(
    "source, file_name, main_class",
    [
        (f"public class Solution {{ {MAIN} }}", "Solution.java", "Solution"),
        # no public class: the file is named after the class holding main, whatever comes first
        (f"class Node {{ int x; }}\nclass Main {{ {MAIN} }}", "Main.java", "Main"),
        # a nested class declared before main does not own main
        (f"public class Lee {{ static class Cell {{ int r, c; }} {MAIN} }}", "Lee.java", "Lee"),
        # a helper class before the public one, main in the public one
        (f"class Helper {{ }}\npublic final class Answer {{ {MAIN} }}", "Answer.java", "Answer"),
        # words in comments, strings, characters and text blocks are not declarations
        (
            "// public class Old { }\n/* class Older { } */\n"
            f"public class Real {{ String s = \"class Fake {{\"; char c = '{{';\n"
            f'  String block = """\n    class Block {{\n    """;\n  {MAIN} }}',
            "Real.java",
            "Real",
        ),
        # a package: java starts the qualified name
        (
            f"package contest . lee;\nimport java.util.*;\npublic class Main {{ {MAIN} }}",
            "Main.java",
            "contest.lee.Main",
        ),
        # main only in a nested class: its binary name
        (f"public class Outer {{ static class Runner {{ {MAIN} }} }}", "Outer.java", "Outer$Runner"),
        # nothing to go by
        ("interface", "Main.java", "Main"),
        # identifiers outside ASCII (JLS 3.8): letters, a combining mark, a currency sign; a BOM first
        (f"\ufeffpublic class Žaba {{ {MAIN} }}", "Žaba.java", "Žaba"),
        (f"public class Cafe\u0301 {{ {MAIN} }}", "Cafe\u0301.java", "Cafe\u0301"),
        (f"package ro.școală;\nclass €uro {{ }}\nclass Ärger {{ {MAIN} }}", "Ärger.java", "ro.școală.Ärger"),
        (f"public class Ünter_$1 {{ static class Inner$Ä {{ {MAIN} }} }}", "Ünter_$1.java", "Ünter_$1$Inner$Ä"),
        # a name no file can have: javac is left to report it (CE)
        (f"public class {'Ž' * 200} {{ {MAIN} }}", "Main.java", "Ž" * 200),
        (f"public class A\x01B {{ {MAIN} }}", "A.java", "A"),
    ],
)
def test_java_names_come_from_the_source(source, file_name, main_class):
    assert java_file_name(source) == file_name
    assert java_main_class(source) == main_class


def test_java_names_of_the_lee_solution():
    names = java_names((SOLUTIONS / "MouseAndCheese.java").read_text())
    assert (names.file_class, names.main_class) == ("MouseAndCheese", "MouseAndCheese")


@pytest.mark.parametrize("memory_mib", [64, 256, 1024])
def test_runtime_heaps_follow_the_problem_memory_limit(memory_mib):
    source = (SOLUTIONS / "MouseAndCheese.java").read_text()
    java = LANGUAGES["java"].run_argv(source, memory_mib * 1024)
    assert f"-Xmx{memory_mib}m" in java and java[-1] == "MouseAndCheese"
    node = LANGUAGES["javascript"].run_argv("console.log(1)", memory_mib * 1024)
    assert f"--max-old-space-size={memory_mib}" in node and node[-1] == "main.js"


def test_java_compiles_the_file_named_after_its_class():
    argv = LANGUAGES["java"].compile_argv(f"public class Solution {{ {MAIN} }}")
    assert argv[0] == "/usr/bin/javac" and argv[-1] == "Solution.java"


@pytest.mark.parametrize("language_id", sorted(LANGUAGES))
def test_every_placeholder_is_filled(language_id):
    language = LANGUAGES[language_id]
    argvs = [language.compile_argv(language.hello) or [], language.run_argv(language.hello, 256 * 1024)]
    assert argvs[1], "a run command"
    for argv in argvs:
        assert not any("{" in arg for arg in argv), argv


def _touch(folder, *names):
    for name in names:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(b"x")


def test_pascal_runs_take_only_the_binary(tmp_path):
    _touch(tmp_path, "main", "main.o", "main.pas", "link.res", "ppas.sh")
    assert LANGUAGES["pascal"].program_files("program p; begin end.", tmp_path) == ["main"]


def test_java_runs_take_every_class_file_and_no_link(tmp_path):
    _touch(tmp_path, "Main.java", "Main.class", "Main$Cell.class", "contest/lee/Tool.class", "notes.txt")
    os.symlink("/etc/passwd", tmp_path / "Stolen.class")
    os.symlink(tmp_path / "contest", tmp_path / "linked")  # a linked folder is not entered
    assert LANGUAGES["java"].program_files("public class Main {}", tmp_path) == [
        "Main$Cell.class",
        "Main.class",
        "contest/lee/Tool.class",
    ]


def test_interpreted_runs_take_the_source_only(tmp_path):
    _touch(tmp_path, "main.py", "__pycache__/main.cpython-311.pyc")
    assert LANGUAGES["python3"].program_files("print(1)", tmp_path) == ["main.py"]
    assert LANGUAGES["javascript"].program_files("1", tmp_path) == []


@pytest.mark.parametrize(
    "file_name, language_id",
    [
        ("wave.pas", "pascal"),
        ("Lee.java", "java"),
        ("bfs.js", "javascript"),
        ("reference.py", "python3"),
        ("bfs.c", "c"),
        ("bfs.cpp", "cpp"),
        ("bfs.kt", "kotlin"),
        ("bfs.rs", "rust"),
        ("bfs.go", "go"),
        ("notes.txt", None),
    ],
)
def test_package_submissions_get_their_language_by_extension(file_name, language_id):
    language = language_for_file(file_name)
    assert (language.id if language else None) == language_id


def test_a_missing_compiler_is_named():
    broken = dataclasses.replace(LANGUAGES["pascal"], compile=("/usr/bin/no-such-fpc", "{source}"))
    assert missing_tools(broken) == ["/usr/bin/no-such-fpc"]
    assert missing_tools(LANGUAGES["pascal"]) == []
