"""Submissions as the format's language list names them: extensions, Python 2 told from 3 and
refused, the language and main file of a multi-file program, and a folder read as one submission."""

from __future__ import annotations

import pytest

from judge.languages import LANGUAGES, NoLanguage, detect_program, language_for_file, python2_file
from judge.verify.submissions import read_submission


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("a.c", "c"),
        ("a.cc", "cpp"),
        ("a.cpp", "cpp"),
        ("a.cxx", "cpp"),
        ("a.c++", "cpp"),
        ("a.C", "cpp"),
        ("a.py", "python3"),
        ("a.py3", "python3"),
        ("A.java", "java"),
        ("a.js", "javascript"),
        ("a.pas", "pascal"),
        ("a.kt", "kotlin"),
        ("a.rs", "rust"),
        ("a.go", "go"),
    ],
)
def test_language_by_extension(name, language):
    found = language_for_file(name)
    assert found is not None and found.id == language
    assert detect_program({name: "x\n"}).language.id == language


def test_python2_is_told_by_extension_or_shebang():
    assert python2_file("a.py2", "print 1")
    assert python2_file("a.py", "#!/usr/bin/env python2")
    assert not python2_file("a.py", "#!/usr/bin/env python3")
    assert not python2_file("a.py", "print(1)")


@pytest.mark.parametrize(
    "files",
    [
        {"a.py": "#!/usr/bin/env python2\nprint 1\n"},
        {"a.py": "\ufeff#!/usr/bin/python2.7\nprint 1\n"},
        {"a.py2": "print 1\n"},
        # two files of Python 2 evidence outnumber one of Python 3
        {"main.py2": "print 1\n", "util.py2": "X = 1\n", "more.py": "x = 1\n"},
    ],
)
def test_a_python2_program_is_refused_not_run_as_python3(files):
    with pytest.raises(NoLanguage, match="Python 2"):
        detect_program(files)


def test_from_version_2023_07_on_a_py_file_is_python3_whatever_its_shebang():
    assert not python2_file("a.py", "#!/usr/bin/env python2", legacy=False)
    assert python2_file("a.py2", "", legacy=False)
    program = detect_program({"a.py": "#!/usr/bin/env python2\nprint(1)\n"}, legacy=False)
    assert program.language.id == "python3"
    with pytest.raises(NoLanguage, match="Python 2"):
        detect_program({"a.py2": "print 1\n"}, legacy=False)


def test_a_python2_shebang_on_one_of_several_files_leaves_the_program_python3():
    # problemtools' rule: a .py is Python 3 evidence always, Python 2 evidence only with the shebang
    program = detect_program({"main.py": "#!/usr/bin/env python2\nimport util\n", "util.py": "X = 1\n"})
    assert program.language.id == "python3" and program.main == "main.py"


@pytest.mark.parametrize(
    ("files", "language", "main"),
    [
        ({"solve.cpp": "", "util.cpp": "", "util.h": ""}, "cpp", "solve.cpp"),  # no main.*: first by name
        ({"a.cpp": "", "Main.cpp": "", "z.h": ""}, "cpp", "Main.cpp"),  # main.* in any case
        ({"MAIN.c": "", "b.c": ""}, "c", "MAIN.c"),
        ({"lib.py": "", "main.py": "", "notes.txt": ""}, "python3", "main.py"),
        # the format's default entry point of Python before problemtools' main.*
        ({"__init__.py": "", "__main__.py": "", "main.py": ""}, "python3", "__main__.py"),
        ({"src/only.go": "", "README": ""}, "go", "src/only.go"),  # one source: that one
        ({"Helper.java": "", "Solution.java": ""}, "java", "Helper.java"),
        # the most files wins: two C++ sources over one C file; a tie goes to the higher priority
        ({"a.c": "", "b.cpp": "", "c.cc": ""}, "cpp", "b.cpp"),
        ({"a.c": "", "b.kt": ""}, "c", "a.c"),
        ({"a.rs": "", "b.go": ""}, "rust", "a.rs"),
    ],
)
def test_the_language_and_main_file_of_a_program(files, language, main):
    program = detect_program(files)
    assert (program.language.id, program.main) == (language, main)
    assert program.source == files[main] and set(program.others) == set(files) - {main}


def test_files_of_no_language_of_this_judge_are_refused():
    with pytest.raises(NoLanguage, match="notes.txt"):
        detect_program({"notes.txt": "", "solve.rb": ""})
    with pytest.raises(NoLanguage):
        detect_program({})


def test_the_compile_command_takes_every_source_of_the_language():
    cpp = LANGUAGES["cpp"].compile_argv("int main(){}", ["util.cpp", "util.h", "a/b.cc", "notes.txt"])
    assert cpp is not None and cpp[-3:] == ["main.cpp", "a/b.cc", "util.cpp"]
    java = LANGUAGES["java"].compile_argv("public class Lee {}", ["Cell.java"])
    assert java is not None and java[-2:] == ["Lee.java", "Cell.java"]
    rust = LANGUAGES["rust"].compile_argv("fn main() {}", ["grid.rs"])
    assert rust is not None and "grid.rs" not in rust  # rustc finds modules from the main file


def test_a_folder_is_read_as_one_submission(tmp_path):
    one = tmp_path / "one"
    (one / "src").mkdir(parents=True)
    (one / "src" / "main.py").write_text("print(1)\n")
    assert read_submission(one) == {"src/main.py": "print(1)\n"}
    several = tmp_path / "several"
    (several / ".git").mkdir(parents=True)
    (several / ".git" / "HEAD").write_text("ref\n")
    (several / ".notes").write_text("hidden\n")
    (several / "main.py").write_text("import util\n")
    (several / "util.py").write_text("X = 1\n")
    (several / "linked.py").symlink_to(tmp_path / "one" / "src" / "main.py")
    assert read_submission(several) == {"main.py": "import util\n", "util.py": "X = 1\n"}
    single = tmp_path / "bfs.cpp"
    single.write_text("int main(){}\n")
    assert read_submission(single) == {"bfs.cpp": "int main(){}\n"}
