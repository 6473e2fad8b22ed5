"""Kotlin, Rust and Go judged by ``judge_submission`` in the real sandbox on a one-test package
(sum of two numbers, 1 s, 64 MiB): a right program is AC, a wrong answer WA, a typo CE, a crash
or a non-zero exit RTE, an endless loop TLE, and a program that keeps filling memory MLE. Each
language's runtime (the JVM's threads, Go's threads and build cache, rustc's linker) works inside
the box's limits; a multi-file program in each is judged with its files compiled together."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.judging import judge_submission
from judge.languages import LANGUAGES
from judge.packages import load_package
from judge.verdicts import AC, CE, MLE, RTE, TLE, WA
from tests.languages.conftest import make_sum_package, needs_root

pytestmark = needs_root

KOTLIN = {
    AC: "fun main() {\n    val (a, b) = readLine()!!.split(' ').map { it.toLong() }\n    println(a + b)\n}\n",
    WA: "fun main() {\n    val (a, b) = readLine()!!.split(' ').map { it.toLong() }\n    println(a - b)\n}\n",
    CE: "fun main() {\n    println(undefinedName)\n}\n",
    RTE: "fun main() {\n    val xs = IntArray(1)\n    println(xs[readLine()!!.length])\n}\n",
    TLE: "fun main() {\n    var x = 0L\n    while (true) { x = x * 31 + 7 }\n}\n",
    MLE: ("fun main() {\n    val keep = ArrayList<LongArray>()\n    while (true) keep.add(LongArray(1 shl 20))\n}\n"),
}
RUST = {
    AC: (
        "use std::io::Read;\nfn main() {\n    let mut s = String::new();\n"
        "    std::io::stdin().read_to_string(&mut s).unwrap();\n"
        "    let v: Vec<i64> = s.split_whitespace().map(|w| w.parse().unwrap()).collect();\n"
        '    println!("{}", v[0] + v[1]);\n}\n'
    ),
    WA: 'fn main() {\n    println!("0");\n}\n',
    CE: 'fn main() {\n    let x: i32 = "text";\n}\n',
    RTE: 'fn main() {\n    let v: Vec<i32> = Vec::new();\n    println!("{}", v[std::env::args().count()]);\n}\n',
    TLE: (
        "fn main() {\n    let mut x: u64 = 1;\n    loop {\n        x = x.wrapping_mul(31).wrapping_add(7);\n"
        '        if x == 0 {\n            println!("{}", x);\n        }\n    }\n}\n'
    ),
    MLE: (
        "fn main() {\n    let mut keep: Vec<Vec<u8>> = Vec::new();\n"
        "    loop {\n        keep.push(vec![1u8; 1 << 20]);\n    }\n}\n"
    ),
}
GO = {
    AC: (
        'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar a, b int64\n\tfmt.Scan(&a, &b)\n\tfmt.Println(a + b)\n}\n'
    ),
    WA: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(0)\n}\n',
    CE: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(undefinedName)\n}\n',
    RTE: 'package main\n\nimport "os"\n\nfunc main() {\n\tvar xs []int\n\txs[len(os.Args)] = 1\n}\n',
    TLE: "package main\n\nfunc main() {\n\tx := 1\n\tfor {\n\t\tx = x*31 + 7\n\t}\n}\n",
    MLE: (
        "package main\n\nfunc main() {\n\tvar keep [][]byte\n\tfor {\n\t\tb := make([]byte, 1<<20)\n"
        "\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n\t\tkeep = append(keep, b)\n\t}\n}\n"
    ),
}
PROGRAMS = {"kotlin": KOTLIN, "rust": RUST, "go": GO}
CASES = [(language, verdict) for language, programs in PROGRAMS.items() for verdict in programs]


@pytest.fixture(scope="module")
def sum_package(tmp_path_factory) -> Path:
    return make_sum_package(tmp_path_factory.mktemp("sum"), time_limit_s=1, memory_mib=64)


@pytest.mark.parametrize("language_id, verdict", CASES, ids=[f"{lang}-{v}" for lang, v in CASES])
def test_each_verdict_in_kotlin_rust_and_go(box, work_root, sum_package, language_id, verdict):
    source = PROGRAMS[language_id][verdict]
    outcome = judge_submission(
        box, load_package(sum_package), LANGUAGES[language_id], source, work_root / f"verdicts-{language_id}"
    )
    details = (outcome.compile_message, [(t.verdict, t.message, t.exit_code, t.signal) for t in outcome.tests])
    assert outcome.verdict == verdict, details
    if verdict == CE:
        assert "undefinedName" in outcome.compile_message or "mismatched types" in outcome.compile_message


def test_a_kotlin_program_in_a_package_runs_its_package_qualified_class(box, work_root, sum_package):
    source = "package contest.sum\n\n" + KOTLIN[AC]
    outcome = judge_submission(box, load_package(sum_package), LANGUAGES["kotlin"], source, work_root / "kotlin-pkg")
    assert outcome.verdict == AC, (outcome.compile_message, [(t.verdict, t.message) for t in outcome.tests])


HUGE = {
    "rust": 'fn main() {\n    let block = vec![1u8; 1 << 40];\n    println!("{}", block[12345]);\n}\n',
    "go": (
        'package main\n\nimport "fmt"\n\nfunc main() {\n\tblock := make([]byte, 1<<40)\n'
        "\tfmt.Println(block[12345])\n}\n"
    ),
    "kotlin": "fun main() {\n    val block = LongArray(Int.MAX_VALUE - 8)\n    println(block[12345])\n}\n",
}


@pytest.mark.parametrize("language_id", sorted(HUGE))
def test_an_allocation_refused_at_once_is_mle(box, work_root, sum_package, language_id):
    """1 TiB (Rust, Go) or 16 GiB (the JVM's largest array) is refused before any limit is reached;
    the runtime's message (``Language.heap_exhausted``) makes it MLE, not RTE, on every host."""
    outcome = judge_submission(
        box, load_package(sum_package), LANGUAGES[language_id], HUGE[language_id], work_root / f"huge-{language_id}"
    )
    assert outcome.verdict == MLE, (outcome.compile_message, [(t.verdict, t.message) for t in outcome.tests])
