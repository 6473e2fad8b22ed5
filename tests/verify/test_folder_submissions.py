"""``judge problem verify`` reads a folder of ``submissions/<verdict>/`` as one multi-file program
(its language and main file as the format's language list decides them), judges a Kotlin, Rust
or Go file like any other, and names a Python 2 program in a warning instead of running it as
Python 3 (in this 2023-07 package, a ``.py`` with a ``python2`` shebang is Python 3, as that
version of the format says)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.verify import verify_package
from tests.languages.conftest import needs_root
from tests.verify.conftest import VERIFY_SLOT

pytestmark = needs_root
FIXTURE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "packages" / "archivesum"

# a sum of n numbers: n on the first line, the numbers on the second
FILES = {
    "accepted/mysol/main.py": "from reading import numbers\nprint(sum(numbers()))\n",
    "accepted/mysol/reading.py": "def numbers():\n    input()\n    return list(map(int, input().split()))\n",
    "accepted/split_cpp/solve.cpp": (
        '#include <cstdio>\n#include "total.h"\nint main(){int n;scanf("%d",&n);printf("%lld\\n",total(n));}\n'
    ),
    "accepted/split_cpp/total.cpp": (
        '#include <cstdio>\n#include "total.h"\n'
        'long long total(int n){long long s=0,x;while(n--&&scanf("%lld",&x)==1)s+=x;return s;}\n'
    ),
    "accepted/split_cpp/total.h": "long long total(int n);\n",
    "accepted/sum.rs": (
        "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n"
        "    std::io::stdin().read_to_string(&mut s).unwrap();\n"
        '    println!("{}", s.split_whitespace().skip(1).map(|w| w.parse::<i64>().unwrap()).sum::<i64>());\n}\n'
    ),
    "wrong_answer/first_only/main.go": (
        'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar n, x int64\n'
        "\tfmt.Scan(&n, &x)\n\tfmt.Println(first(x))\n}\n"
    ),
    "wrong_answer/first_only/first.go": "package main\n\nfunc first(x int64) int64 { return x }\n",
    "wrong_answer/old.py2": "input()\nprint sum(map(int, raw_input().split()))\n",
    # the fixture is a 2023-07 package: a .py is Python 3 whatever its shebang says
    "accepted/shebang.py": "#!/usr/bin/env python2\ninput()\nprint(sum(map(int, input().split())))\n",
}


@pytest.fixture
def archivesum(tmp_path) -> Path:
    root = Path(shutil.copytree(FIXTURE, tmp_path / "archivesum"))
    for name, text in FILES.items():
        path = root / "submissions" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_folders_are_judged_as_one_program_and_python2_is_named(archivesum):
    report = verify_package(archivesum, slot=VERIFY_SLOT)
    step = next(step for step in report.steps if step.number == 6)
    assert sorted(step.notes) == [
        "accepted/mysol: AC",
        "accepted/shebang.py: AC",
        "accepted/split_cpp: AC",
        "accepted/sum.c: AC",
        "accepted/sum.py: AC",
        "accepted/sum.rs: AC",
        "wrong_answer/first_only: WA on sample/1",
        "wrong_answer/largest.py: WA on sample/1",
    ], step.failures
    assert [w for w in step.warnings if "old.py" in w] == [
        "wrong_answer/old.py2: not judged: Python 2 (a .py2 file or a python2 shebang): this judge has no Python 2"
        " (judge/languages.py)"
    ]
    assert step.checked == 8 and report.ok, report.failures()
