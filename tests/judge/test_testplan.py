"""The test plan ``generators/tests.yaml``: reading it, refusing bad plans with the reason, keeping a
test, and ``judge problem generate`` following it (hand-written inputs kept, stale secret data gone)."""

from __future__ import annotations

import pytest

from judge.generate import generate
from judge.packages import PackageError, load_package
from judge.testplan import keep_test, read_plan
from tests.judge.test_packages_generate import make_package


def test_plan_lists_samples_then_secret_with_args_and_seeds(tmp_path):
    plan = read_plan(make_package(tmp_path))
    assert plan is not None
    assert [(t.group, t.name, t.hand_written) for t in plan.tests][:2] == [
        ("sample", "01", True),
        ("secret", "01-random", False),
    ]
    assert plan.tests[1].argv() == ["random", "--seed", "1"]
    assert plan.stress is None


@pytest.mark.parametrize(
    "plan_text, message",
    [
        ("secret: [unclosed\n", "not valid YAML"),
        ("tests: []\n", "unknown key"),
        ("secret:\n  - {name: ../x, args: [a]}\n", "file stem"),
        ("secret:\n  - {name: a, args: [a], seed: -1}\n", "seed"),
        ("secret:\n  - {name: a, seed: 3}\n", "needs args"),
        ("secret:\n  - {name: a, args: [a]}\n  - {name: a, args: [b]}\n", "listed twice"),
        ("secret:\n  - {name: a, args: [a], generator: ../../x.sh}\n", "generator"),
        ("secret:\n  - {name: a, args: {k: v}}\n", "args"),
        ("stress: {max_size: 0}\n", "max_size"),
    ],
)
def test_a_bad_plan_is_refused_with_the_reason(tmp_path, plan_text, message):
    pkg = make_package(tmp_path)
    (pkg / "generators/tests.yaml").write_text(plan_text)
    with pytest.raises(PackageError, match=message):
        read_plan(pkg)


def test_hand_written_secret_inputs_stay_and_unlisted_ones_go(tmp_path):
    pkg = make_package(tmp_path)
    (pkg / "data/secret/00-by-hand.in").write_text("5 6\n")
    with (pkg / "generators/tests.yaml").open("a") as plan:
        plan.write("  - name: 00-by-hand\n")
    (pkg / "data/secret/99-stale.in").write_text("0 0\n")
    generate(pkg)
    assert (pkg / "data/secret/00-by-hand.ans").read_text() == "11\n"
    assert not (pkg / "data/secret/99-stale.in").exists()


def test_a_sample_missing_from_the_plan_is_refused_not_deleted(tmp_path):
    pkg = make_package(tmp_path)
    (pkg / "data/sample/02.in").write_text("3 4\n")
    with pytest.raises(PackageError, match="not in the test plan"):
        generate(pkg)
    assert (pkg / "data/sample/02.in").read_text() == "3 4\n"


def test_a_failing_generator_writes_nothing(tmp_path):
    pkg = make_package(tmp_path)
    generate(pkg)
    before = sorted(p.name for p in (pkg / "data/secret").iterdir())
    (pkg / "generators/generate.py").write_text("raise SystemExit(2)\n")
    with pytest.raises(PackageError, match="exit code 2"):
        generate(pkg)
    assert sorted(p.name for p in (pkg / "data/secret").iterdir()) == before


def test_a_generator_without_a_plan_is_refused(tmp_path):
    pkg = make_package(tmp_path)
    (pkg / "generators/tests.yaml").unlink()
    with pytest.raises(PackageError, match="tests.yaml: missing"):
        generate(pkg)


def test_keep_appends_a_numbered_hand_written_secret_test(tmp_path):
    pkg = make_package(tmp_path)
    stem = keep_test(pkg, "stress-sum", b"7 8\n")
    assert stem == "04-stress-sum"
    plan = read_plan(pkg)
    assert plan is not None and plan.group("secret")[-1].name == "04-stress-sum"
    generate(pkg)
    assert (pkg / "data/secret/04-stress-sum.ans").read_text() == "15\n"
    assert [t.name for t in load_package(pkg).tests][-1] == "secret/04-stress-sum"
    with pytest.raises(PackageError, match="exists"):
        keep_test(pkg, "stress-sum", b"1 1\n")


def test_keep_refuses_a_plan_whose_secret_list_is_not_last(tmp_path):
    pkg = make_package(tmp_path)
    path = pkg / "generators/tests.yaml"
    path.write_text(path.read_text() + "stress: {args: [random]}\n")
    before = path.read_text()
    with pytest.raises(PackageError, match="last key"):
        keep_test(pkg, "x", b"1 1\n")
    assert path.read_text() == before
    assert not list((pkg / "data/secret").glob("*-x.in"))
