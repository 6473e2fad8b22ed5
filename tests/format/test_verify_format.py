"""``judge problem verify`` on the format's features in the real sandbox: a time limit derived from
the slowest accepted run and written to ``.timelimit``, and a scoring problem whose
partially_accepted submission earns AC with less than the full score; ``judge problem load``
derives a missing time limit the same way."""

from __future__ import annotations

from judge.package_store import load_problem
from judge.packages import load_package
from judge.verify import verify_package
from tests.slots import slot

FORMAT_SLOT = slot(57)  # a slot of its own: tests/verify takes 50 and 51


def test_scoring_package_verifies_partial_scores_and_derives_its_time_limit(fixture_copy):
    root = fixture_copy("doubling")
    assert not (root / ".timelimit").exists()
    report = verify_package(root, slot=FORMAT_SLOT)
    submissions, timing = report.steps[5], report.steps[6]
    assert submissions.ok, submissions.failures
    notes = "\n".join(submissions.notes)
    assert "accepted/exact.py: AC, score 100 of 100" in notes
    assert "partially_accepted/floating.py: AC, score 40 of 100" in notes
    assert "wrong_answer/plus_one.py: WA" in notes
    assert "time limit derived from the slowest accepted run: 1000 ms" in notes
    assert timing.ok and "of the 1000 ms limit" in timing.notes[0]
    assert (root / ".timelimit").read_text() == "1\n"  # max(1, ceil(slowest × 5)) seconds
    assert load_package(root).time_limit_source == ".timelimit"


def test_a_partially_accepted_submission_with_the_full_score_fails_verify(fixture_copy):
    root = fixture_copy("doubling")
    (root / "submissions/partially_accepted/floating.py").write_text("print(2 * int(input()))\n")
    (root / ".timelimit").write_text("1\n")
    failures = verify_package(root, slot=FORMAT_SLOT).steps[5].failures
    assert [(f.test, f.reason) for f in failures] == [
        ("partially_accepted/floating.py", "expected AC with less than the full score, got score 100 of 100")
    ]


def test_load_derives_a_missing_time_limit_from_the_accepted_submissions(fixture_copy, api_app, monkeypatch):
    from judge.verify import submissions

    root = fixture_copy("greeting")
    text = (root / "problem.yaml").read_text().replace("  time_limit: 2\n", "")
    (root / "problem.yaml").write_text(text)
    monkeypatch.setattr(submissions, "DEFAULT_SLOT", FORMAT_SLOT)
    with api_app.state.sessions() as session:
        problem = load_problem(session, root)
        assert problem.time_limit_ms == 1000  # 2023-07: slowest × 2, at least 1 s
    assert (root / ".timelimit").read_text() == "1\n"


def test_load_refuses_a_package_with_no_time_limit_and_no_accepted_submission(fixture_copy, api_app):
    import shutil

    import pytest

    from judge.packages import PackageError

    root = fixture_copy("doubling")
    shutil.rmtree(root / "submissions/accepted")
    with api_app.state.sessions() as session, pytest.raises(PackageError, match="no accepted submission"):
        load_problem(session, root)
