"""Test groups and grading: the nested groups of ``data/``, testdata.yaml (legacy, 2023-07) and
test_group.yaml (2025-09) read as the format says, and a judging's verdict and score from them."""

from __future__ import annotations

import pytest

from judge.package.testdata import TestScore, default_grader, grade
from judge.packages import PackageError, load_package
from tests.format.conftest import FIXTURES, write_package


def judged(package, verdict_of):
    return {t.name: TestScore(verdict_of(t.name)) for t in package.tests}


def test_doubling_walks_nested_groups_in_name_order():
    package = load_package(FIXTURES / "doubling")
    assert [(t.name, t.group) for t in package.tests] == [
        ("sample/1", "sample"),
        ("secret/group1/1", "secret/group1"),
        ("secret/group1/2", "secret/group1"),
        ("secret/group2/1", "secret/group2"),
        ("secret/group2/2", "secret/group2"),
    ]
    secret = next(g for g in package.groups.groups() if g.name == "secret/group1")
    assert (secret.config["accept_score"], secret.config["on_reject"]) == (40, "continue")  # inherited


@pytest.mark.parametrize(
    ("failing", "verdict", "score"),
    [
        ((), "AC", 100.0),
        (("secret/group2/1",), "AC", 40.0),  # partially accepted: group 1 only
        (("secret/group1/2",), "AC", 60.0),
        (("sample/1",), "AC", 100.0),  # ignore_sample: the sample counts for nothing
        (("secret/group1/1", "secret/group2/2"), "WA", 0.0),
    ],
)
def test_doubling_scores_each_group_as_its_testdata_yaml_says(failing, verdict, score):
    package = load_package(FIXTURES / "doubling")
    result = grade(package.metadata, package.groups, judged(package, lambda n: "WA" if n in failing else "AC"))
    assert (result.verdict, result.score, result.max_score) == (verdict, score, 100.0)


def test_pass_fail_scores_the_fraction_of_tests_passed():
    package = load_package(FIXTURES / "oldtimer")
    result = grade(package.metadata, package.groups, judged(package, lambda n: "TLE" if n == "secret/2-zero" else "AC"))
    assert (result.verdict, result.score, result.max_score, result.fraction) == ("TLE", 2.0, 3.0, 2 / 3)


def test_a_test_not_run_makes_the_grading_a_judge_error_never_a_silent_score():
    package = load_package(FIXTURES / "doubling")
    partial = {t.name: TestScore("AC") for t in package.tests if "group2" not in t.name}
    result = grade(package.metadata, package.groups, partial)
    assert (result.verdict, result.score) == ("JE", 0.0)
    pass_fail = load_package(FIXTURES / "oldtimer")
    result = grade(pass_fail.metadata, pass_fail.groups, {"sample/1": TestScore("AC")})
    assert (result.verdict, result.score, result.max_score) == ("JE", 1.0, 3.0)


@pytest.mark.parametrize(
    ("children", "flags", "expected"),
    [
        ([("AC", 1), ("WA", 0), ("TLE", 0)], (), ("TLE", 1.0)),  # worst_error: TLE before WA
        ([("AC", 1), ("WA", 0), ("TLE", 0)], ("first_error",), ("WA", 1.0)),
        ([("AC", 3), ("WA", 1)], ("min",), ("WA", 1.0)),
        ([("AC", 3), ("WA", 1)], ("max", "always_accept"), ("AC", 3.0)),
        ([("AC", 3), ("WA", 1)], ("avg", "accept_if_any_accepted"), ("AC", 2.0)),
        ([("AC", 3), ("WA", 1)], ("min", "sum"), ("WA", 4.0)),  # the last of conflicting modes wins
        ([("AC", 1), ("AC", 5)], ("ignore_sample",), ("AC", 5.0)),
        ([("JE", 0), ("AC", 5)], (), ("JE", 0.0)),
        ([], (), ("AC", 0.0)),
    ],
)
def test_default_grader_matches_problemtools(children, flags, expected):
    assert default_grader(children, flags) == expected


def test_on_reject_break_stops_a_group_at_its_first_rejection(tmp_path):
    root = write_package(
        tmp_path / "brk",
        "name: B\ntype: scoring\nlimits: {time_limit: 1}\n",
        {
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1\n",
            "data/testdata.yaml": "grader_flags: ignore_sample\non_reject: continue\n",
            "data/secret/testdata.yaml": "on_reject: break\naccept_score: 10\ngrader_flags: sum\n",
            **{f"data/secret/{i}.in": f"{i}\n" for i in range(1, 4)},
            **{f"data/secret/{i}.ans": f"{i}\n" for i in range(1, 4)},
        },
    )
    package = load_package(root)
    result = grade(package.metadata, package.groups, judged(package, lambda n: "WA" if n == "secret/2" else "AC"))
    assert (result.verdict, result.score) == ("WA", 10.0)  # 3 never counts: judging broke at 2


def test_custom_score_from_the_validator_replaces_accept_score():
    package = load_package(FIXTURES / "doubling")
    results = judged(package, lambda n: "AC")
    results["secret/group2/1"] = TestScore("AC", score=25.0)  # min over group 2: 25
    assert grade(package.metadata, package.groups, results).score == 65.0


SCORING_2025 = """\
problem_format_version: 2025-09
name: Parts
type: scoring
limits: {time_limit: 1}
"""


def groups_2025(tmp_path, secret_yaml="", a_yaml="max_score: 30\n", b_yaml="max_score: 70\n"):
    files = {"data/sample/1.in": "0\n", "data/sample/1.ans": "0\n"}
    if secret_yaml:
        files["data/secret/test_group.yaml"] = secret_yaml
    for group, text in (("a", a_yaml), ("b", b_yaml)):
        files[f"data/secret/{group}/test_group.yaml"] = text
        for i in (1, 2):
            files[f"data/secret/{group}/{i}.in"] = f"{i}\n"
            files[f"data/secret/{group}/{i}.ans"] = f"{i}\n"
    return load_package(write_package(tmp_path / "parts", SCORING_2025, files))


def test_2025_09_pass_fail_groups_earn_their_max_score_only_whole(tmp_path):
    package = groups_2025(tmp_path)
    result = grade(package.metadata, package.groups, judged(package, lambda n: "WA" if n == "secret/b/2" else "AC"))
    assert (result.score, result.max_score, result.groups["secret/a"], result.groups["secret/b"]) == (30, 100, 30, 0)
    assert result.verdict == "WA"


def test_2025_09_sum_aggregation_shares_a_groups_max_score_among_its_tests(tmp_path):
    package = groups_2025(tmp_path, b_yaml="max_score: 70\nscore_aggregation: sum\n")
    result = grade(package.metadata, package.groups, judged(package, lambda n: "WA" if n == "secret/b/2" else "AC"))
    assert result.score == 65.0
    results = judged(package, lambda n: "AC")
    results["secret/b/1"] = TestScore("AC", multiplier=0.5)
    assert grade(package.metadata, package.groups, results).score == pytest.approx(30 + 17.5 + 35)


def test_2025_09_require_pass_scores_a_group_only_after_the_groups_it_names(tmp_path):
    package = groups_2025(tmp_path, b_yaml="max_score: 70\nrequire_pass: secret/a\n")
    result = grade(package.metadata, package.groups, judged(package, lambda n: "WA" if n == "secret/a/1" else "AC"))
    assert result.score == 0.0
    result = grade(package.metadata, package.groups, judged(package, lambda n: "AC"))
    assert result.score == 100.0


def test_2023_07_scoring_map_reads_as_2025_09_keys(tmp_path):
    files = {
        "data/sample/1.in": "0\n",
        "data/sample/1.ans": "0\n",
        "data/secret/a/testdata.yaml": "scoring: {score: 40}\n",
        "data/secret/a/1.in": "1\n",
        "data/secret/a/1.ans": "1\n",
        "data/secret/b/testdata.yaml": "scoring: {score: 60, aggregation: min}\n",
        "data/secret/b/1.in": "2\n",
        "data/secret/b/1.ans": "2\n",
    }
    yaml_text = "problem_format_version: 2023-07\nname: P\ntype: scoring\nlimits: {time_limit: 1}\n"
    package = load_package(write_package(tmp_path / "p2023", yaml_text, files))
    result = grade(package.metadata, package.groups, judged(package, lambda n: "WA" if n == "secret/b/1" else "AC"))
    assert (result.score, result.max_score) == (40.0, 100.0)


@pytest.mark.parametrize(
    ("path", "text", "reason"),
    [
        ("data/secret/testdata.yaml", "grading: custom\n", "grader program"),
        ("data/secret/testdata.yaml", "on_reject: maybe\n", "on_reject"),
        ("data/secret/testdata.yaml", "grader_flags: median\n", "unknown flag"),
        ("data/secret/testdata.yaml", "range: zero hundred\n", "range"),
        ("data/secret/testdata.yaml", "accept_score: 3\n", "only for scoring problems"),
        ("data/secret/testdata.yaml", "- a list\n", "mapping"),
    ],
)
def test_a_test_data_configuration_this_judge_cannot_honour_is_refused(tmp_path, path, text, reason):
    root = write_package(tmp_path / "cfg", "name: C\nlimits: {time_limit: 1}\n", {path: text})
    (root / "data/secret/1.in").write_text("1\n")
    (root / "data/secret/1.ans").write_text("1\n")
    with pytest.raises(PackageError, match=reason):
        load_package(root)


def test_group_flags_reach_the_default_checker(tmp_path):
    from judge.checkers import check_output

    root = write_package(
        tmp_path / "flt",
        "name: F\nlimits: {time_limit: 1}\n",
        {
            "data/sample/1.in": "1\n",
            "data/sample/1.ans": "1.0\n",
            "data/secret/testdata.yaml": "output_validator_flags: float_tolerance 0.1\n",
            "data/secret/1.in": "1\n",
            "data/secret/1.ans": "1.0\n",
        },
    )
    package = load_package(root)
    team = tmp_path / "team.out"
    team.write_text("1.05\n")

    def no_validator(*args):  # validation: default never runs a program
        raise AssertionError("an output validator ran")

    verdicts = {t.group: check_output(package, t, team, no_validator).verdict for t in package.tests}
    assert verdicts == {"sample": "WA", "secret": "AC"}


def test_a_group_below_sample_still_holds_samples(tmp_path):
    root = write_package(
        tmp_path / "nested",
        "name: N\nlimits: {time_limit: 1}\n",
        {
            "data/sample/a/1.in": "1\n",
            "data/sample/a/1.ans": "1\n",
            "data/secret/1.in": "2\n",
            "data/secret/1.ans": "2\n",
        },
    )
    package = load_package(root)
    assert [(t.name, t.group, t.sample) for t in package.tests] == [
        ("sample/a/1", "sample/a", True),
        ("secret/1", "secret", False),
    ]


def test_2025_09_a_groups_aggregation_is_its_own_not_its_parents(tmp_path):
    package = groups_2025(tmp_path, secret_yaml="max_score: 100\nscore_aggregation: sum\n")
    result = grade(package.metadata, package.groups, judged(package, lambda n: "WA" if n == "secret/b/2" else "AC"))
    assert result.groups["secret/b"] == 0.0  # pass-fail by default, though secret sums
