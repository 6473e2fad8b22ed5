"""Multi-file submissions judged by ``judge_submission`` in the real sandbox: in each language
that compiles several sources (or imports modules), a program whose main file calls a function
of another file is AC on a sum-of-two-numbers package; a header beside the sources is found; the
language and main file come from ``detect_program`` as the format's language list says."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.judging import judge_submission
from judge.languages import detect_program
from judge.packages import load_package
from judge.verdicts import AC, CE
from tests.languages.conftest import make_sum_package, needs_root

pytestmark = needs_root

PROGRAMS = {
    "cpp": {
        "solve.cpp": '#include <cstdio>\n#include "add.h"\nint main(){long a,b;scanf("%ld %ld",&a,&b);'
        'printf("%ld\\n",add(a,b));}\n',
        "add.cpp": '#include "add.h"\nlong add(long a, long b){ return a + b; }\n',
        "add.h": "long add(long a, long b);\n",
    },
    "c": {
        "main.c": '#include <stdio.h>\nlong add(long, long);\nint main(void){long a,b;scanf("%ld %ld",&a,&b);'
        'printf("%ld\\n",add(a,b));return 0;}\n',
        "add.c": "long add(long a, long b) { return a + b; }\n",
    },
    "python3": {
        "main.py": "from helpers.arith import add\na, b = map(int, input().split())\nprint(add(a, b))\n",
        "helpers/arith.py": "def add(a, b):\n    return a + b\n",
    },
    "java": {
        "Main.java": "import java.util.Scanner;\npublic class Main { public static void main(String[] x) {\n"
        "  Scanner in = new Scanner(System.in);\n  System.out.println(Arith.add(in.nextLong(), in.nextLong()));\n} }\n",
        "Arith.java": "public class Arith { static long add(long a, long b) { return a + b; } }\n",
    },
    "kotlin": {
        "Main.kt": (
            "fun main() {\n    val (a, b) = readLine()!!.split(' ').map { it.toLong() }\n    println(add(a, b))\n}\n"
        ),
        "arith.kt": "fun add(a: Long, b: Long): Long = a + b\n",
    },
    "go": {
        "main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar a, b int64\n\tfmt.Scan(&a, &b)\n'
        "\tfmt.Println(add(a, b))\n}\n",
        "arith.go": "package main\n\nfunc add(a, b int64) int64 { return a + b }\n",
    },
    "rust": {
        "main.rs": "mod arith;\nuse std::io::Read;\nfn main() {\n    let mut s = String::new();\n"
        "    std::io::stdin().read_to_string(&mut s).unwrap();\n"
        "    let v: Vec<i64> = s.split_whitespace().map(|w| w.parse().unwrap()).collect();\n"
        '    println!("{}", arith::add(v[0], v[1]));\n}\n',
        "arith.rs": "pub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n",
    },
    "javascript": {
        "main.js": 'const { add } = require("./arith.js");\n'
        'const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(" ").map(Number);\n'
        "console.log(add(a, b));\n",
        "arith.js": "module.exports.add = (a, b) => a + b;\n",
    },
}


@pytest.fixture(scope="module")
def sum_package(tmp_path_factory) -> Path:
    return make_sum_package(tmp_path_factory.mktemp("sum-multi"), time_limit_s=2, memory_mib=256)


@pytest.mark.parametrize("language_id", sorted(PROGRAMS))
def test_a_program_of_several_files_is_accepted(box, work_root, sum_package, language_id):
    program = detect_program(PROGRAMS[language_id])
    assert program.language.id == language_id and program.others
    outcome = judge_submission(
        box,
        load_package(sum_package),
        program.language,
        program.source,
        work_root / f"multi-{language_id}",
        others=program.others,
    )
    assert outcome.verdict == AC, (outcome.compile_message, [(t.verdict, t.message) for t in outcome.tests])


def test_without_its_other_file_the_same_main_file_is_a_compile_error(box, work_root, sum_package):
    program = detect_program(PROGRAMS["cpp"])
    outcome = judge_submission(box, load_package(sum_package), program.language, program.source, work_root / "alone")
    assert outcome.verdict == CE and "add.h" in outcome.compile_message


@pytest.mark.parametrize("name", ["../escape.cpp", "/etc/x.cpp", ".hidden.h", "main.cpp"])
def test_a_file_name_that_cannot_be_saved_is_a_compile_error(box, work_root, sum_package, name):
    program = detect_program(PROGRAMS["cpp"])
    outcome = judge_submission(
        box,
        load_package(sum_package),
        program.language,
        program.source,
        work_root / "unsafe",
        others={**program.others, name: "int x;\n"},
    )
    assert (
        outcome.verdict == CE and "cannot be saved" in outcome.compile_message or "two files" in outcome.compile_message
    )
    assert not (work_root / "escape.cpp").exists()
