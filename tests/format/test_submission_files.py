"""Submissions as the format's language list names them: extensions, Python 2 refused, and a
folder holding one source file judged as that file."""

from __future__ import annotations

import pytest

from judge.languages import language_for_file, python2_file
from judge.verify.submissions import submission_source


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
    ],
)
def test_language_by_extension(name, language):
    found = language_for_file(name)
    assert found is not None and found.id == language


def test_python2_is_told_by_extension_or_shebang():
    assert python2_file("a.py2", "print 1")
    assert python2_file("a.py", "#!/usr/bin/env python2")
    assert not python2_file("a.py", "#!/usr/bin/env python3")
    assert not python2_file("a.py", "print(1)")


def test_a_folder_with_one_source_is_that_source(tmp_path):
    one = tmp_path / "one"
    (one / "src").mkdir(parents=True)
    (one / "src" / "main.py").write_text("print(1)\n")
    assert submission_source(one) == one / "src" / "main.py"
    several = tmp_path / "several"
    several.mkdir()
    (several / "main.py").write_text("import util\n")
    (several / "util.py").write_text("\n")
    assert submission_source(several) == several  # several files: not judged as one of them
