"""Classroom programs judged by ``judge_submission`` in the real sandbox: the repo's Free Pascal
solutions (``lines`` reads input.txt and writes output.txt), a Java solution inside a package,
and deep recursion (200 MiB of C++ stack under a 256 MiB limit; Java's -Xss)."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.judging import judge_submission
from judge.languages import LANGUAGES
from judge.packages import load_package
from judge.verdicts import AC, MLE, RTE
from tests.languages.conftest import REPO, SOLUTIONS, needs_root, trimmed_package

pytestmark = needs_root

# Each call keeps a 1 KiB array alive across the recursive call, so depth d holds d KiB of stack;
# it prints how many MiB deep it went.
CPP_DEEP = r"""
#include <cstdio>
long dive(long depth) {
    volatile char frame[1024];
    frame[0] = 1; frame[1023] = 1;
    if (depth == 0) return 0;
    return dive(depth - 1) + frame[0] * frame[1023];  /* read after the call: no tail call */
}
int main() { long mib; if (scanf("%ld", &mib) != 1) return 1; printf("%ld\n", dive(mib * 1024) / 1024); }
"""
JAVA_DEEP = """
import java.util.Scanner;
public class Deep {
    static int dive(int depth) { return depth == 0 ? 0 : 1 + dive(depth - 1); }
    public static void main(String[] args) { System.out.println(dive(new Scanner(System.in).nextInt())); }
}
"""


def echo_package(root: Path, name: str, value: int) -> Path:
    """A one-test package (256 MiB, 2 s, default token checker) whose input and answer are
    both ``value``: a program that reaches its recursion depth prints what it read."""
    package = root / name
    (package / "data" / "sample").mkdir(parents=True)
    (package / "problem.yaml").write_text(f"name: {name}\nlimits:\n  time_limit: 2\n  memory: 256\n")
    (package / "data" / "sample" / "01.in").write_text(f"{value}\n")
    (package / "data" / "sample" / "01.ans").write_text(f"{value}\n")
    return package


def _judge(box, work_root, package_root: Path, language_id: str, source: str):
    return judge_submission(
        box,
        load_package(package_root),
        LANGUAGES[language_id],
        source,
        work_root / f"judge-{package_root.name}-{language_id}",
    )


@pytest.mark.parametrize(
    "problem, submission, secret",
    [
        # the seed's style: reads input.txt, writes output.txt, 16-bit-safe integers
        ("lines", "wave.pas", ("02-n2-blocked", "08-at-boxed-in", "20-spiral", "32-random-40-50")),
        ("queens", "queens.pas", 10),
    ],
)
def test_the_repo_pascal_solutions_are_accepted(box, work_root, tmp_path, problem, submission, secret):
    root = trimmed_package(problem, tmp_path, secret)
    source = (REPO / "problems" / problem / "submissions" / "accepted" / submission).read_text()
    outcome = _judge(box, work_root, root, "pascal", source)
    assert outcome.verdict == AC, (
        outcome.compile_message,
        [(t.test.name, t.verdict, t.message) for t in outcome.tests],
    )
    assert len(outcome.tests) == len(load_package(root).tests) >= 5


def test_a_java_solution_inside_a_package_is_accepted(box, work_root, short_lee):
    # javac -d . puts the classes in classroom/lee/: the run folder gets the same tree
    source = "package classroom.lee;\n" + (SOLUTIONS / "MouseAndCheese.java").read_text()
    outcome = _judge(box, work_root, short_lee, "java", source)
    assert outcome.verdict == AC, (
        outcome.compile_message,
        [(t.test.name, t.verdict, t.message) for t in outcome.tests],
    )


def test_200_mib_of_cpp_stack_passes_under_a_256_mib_limit(box, work_root, tmp_path):
    outcome = _judge(box, work_root, echo_package(tmp_path, "deep", 200), "cpp", CPP_DEEP)
    assert outcome.verdict == AC, (outcome.compile_message, outcome.tests)
    assert outcome.memory_kib >= 200 * 1024  # the stack was really touched, not optimised away


def test_a_stack_past_the_memory_limit_is_stopped(box, work_root, tmp_path):
    outcome = _judge(box, work_root, echo_package(tmp_path, "deeper", 300), "cpp", CPP_DEEP)
    assert outcome.verdict in (MLE, RTE)  # the cgroup's OOM kill, or SIGSEGV at the stack rlimit


def test_java_recursion_a_million_calls_deep_passes(box, work_root, tmp_path):
    outcome = _judge(box, work_root, echo_package(tmp_path, "javadeep", 1_000_000), "java", JAVA_DEEP)
    assert outcome.verdict == AC, (outcome.compile_message, [(t.verdict, t.message) for t in outcome.tests])


JAVA_HOG = """
import java.util.ArrayList;
public class Hog {
    public static void main(String[] args) {
        ArrayList<int[]> kept = new ArrayList<>();
        while (true) kept.add(new int[1 << 20]);  // 4 MiB at a time, never freed
    }
}
"""
JS_HOG = "const kept = []; for (;;) kept.push(new Array(1 << 20).fill(7));\n"


@pytest.mark.parametrize("language_id, source", [("java", JAVA_HOG), ("javascript", JS_HOG)])
def test_a_managed_heap_past_the_limit_is_mle_not_rte(box, work_root, tmp_path, language_id, source):
    """The JVM and V8 heaps are capped at the problem's limit; running out of them is MLE."""
    outcome = _judge(box, work_root, echo_package(tmp_path, f"hog{language_id}", 1), language_id, source)
    assert outcome.verdict == MLE, (outcome.compile_message, [(t.verdict, t.message) for t in outcome.tests])
