"""A judging's score by the package's grading reaches the submission, the IOI scoreboard (the
aggregate queries and the plain replay alike) and the grades: judged in the sandbox on the scoring
fixture, and stored through the lifecycle."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest
from sqlalchemy import update

from judge import board as kept_board
from judge import lifecycle
from judge.judging import judge_submission
from judge.languages import LANGUAGES
from judge.models import Submission, utcnow
from judge.packages import load_package
from judge.scoreboard import compute_scoreboard, kept_cells, replay_cells
from judge.vocabulary import ScoreboardView
from sandbox import Sandbox
from tests.contests.conftest import add_problems, add_submission, add_users, make_contest
from tests.format.conftest import FIXTURES
from tests.slots import WORK_ROOT, slot

SCORES_SLOT = slot(58)


@pytest.fixture(scope="module")
def box():
    with Sandbox(slot=SCORES_SLOT) as sandbox:
        yield sandbox


@pytest.mark.parametrize(
    ("submission", "verdict", "score"),
    [("accepted/exact.py", "AC", 100.0), ("partially_accepted/floating.py", "AC", 40.0)],
)
def test_judging_a_scoring_problem_gives_the_groups_score(box, submission, verdict, score):
    package = load_package(FIXTURES / "doubling")
    source = (package.root / "submissions" / submission).read_text()
    work = WORK_ROOT / "format-scores"
    try:
        outcome = judge_submission(box, package, LANGUAGES["python3"], source, work, stop_on_failure=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    assert (outcome.verdict, outcome.score, outcome.max_score) == (verdict, score, 100.0)
    assert len(outcome.tests) == 5  # a scoring problem runs every test, even when stopping on failure


def test_a_language_the_package_does_not_list_and_a_source_over_its_code_limit_are_refused(tmp_path, box):
    from tests.format.conftest import write_package

    root = write_package(
        tmp_path / "onlypy",
        "problem_format_version: 2023-07\nname: P\nlanguages: [python3]\nlimits: {time_limit: 1, code: 1}\n",
    )
    package = load_package(root)
    c = judge_submission(box, package, LANGUAGES["c"], "int main(){return 0;}", tmp_path / "w")
    assert (c.verdict, c.compile_message) == ("CE", "this problem accepts only python3, not c")
    big = judge_submission(box, package, LANGUAGES["pypy3"], "#" * 2000, tmp_path / "w")
    assert big.verdict == "CE" and "at most 1024 bytes" in big.compile_message


def test_finish_stores_the_score_and_rejudge_clears_it(db):
    add_problems(db, "pa")
    ids = add_users(db, "ann")
    sid = add_submission(db, None, ids["ann"], "pa", None, 0)
    claim = lifecycle.claim(db, "w", 30)
    assert claim is not None and claim.submission_id == sid
    assert lifecycle.finish(
        db,
        claim,
        verdict="AC",
        compile_message=None,
        judge_message=None,
        time_ms=1,
        memory_kib=1,
        tests_passed=3,
        tests_total=5,
        score=40.0,
        max_score=100.0,
    )
    row = db.get(Submission, sid)
    db.refresh(row)
    assert (row.score, row.max_score) == (40.0, 100.0)
    assert lifecycle.rejudge(db, submission_id=sid) == [sid]
    db.refresh(row)
    assert (row.score, row.max_score) == (None, None)


def test_ioi_board_counts_the_graded_share_of_each_problem(db):
    add_problems(db, "pa", "pb")
    ids = add_users(db, "ann", "ben")
    contest = make_contest(
        db, problems=[("pa", 50), ("pb", 200)], start=utcnow() - timedelta(minutes=30), scoring="ioi"
    )
    # graded: 40 of 100 → 20 of 50 points, though only 3 of 5 tests passed (that would be 30)
    graded = add_submission(
        db, contest, ids["ann"], "pa", "AC", 1, tests=[("secret", "AC")] * 3 + [("secret", "WA")] * 2
    )
    db.execute(update(Submission).where(Submission.id == graded).values(score=40.0, max_score=100.0))
    # an older row without a stored score keeps the fraction of tests passed: 1 of 4 → 50 of 200
    add_submission(db, contest, ids["ann"], "pb", "WA", 2, tests=[("secret", "AC")] + [("secret", "WA")] * 3)
    better = add_submission(db, contest, ids["ann"], "pb", "AC", 3, tests=[("secret", "AC")])
    db.execute(update(Submission).where(Submission.id == better).values(score=0.75, max_score=1.0))  # 150 of 200
    unbounded = add_submission(db, contest, ids["ben"], "pa", "AC", 4, tests=[("secret", "AC")])
    db.execute(update(Submission).where(Submission.id == unbounded).values(score=7.0, max_score=None))
    kept_board.rebuild(db, contest)  # scores written behind the judge's back: re-derive the kept board
    db.commit()
    board = compute_scoreboard(db, contest, ScoreboardView.JURY)
    cells = {(r.user, c.letter): c.score for r in board.rows for c in r.cells}
    assert cells[("ann", "A")] == pytest.approx(20.0)
    assert cells[("ann", "B")] == pytest.approx(150.0)
    assert cells[("ben", "A")] == pytest.approx(50.0)  # no bounded score: the tests it passed, 1 of 1
    assert kept_cells(db, contest, None) == replay_cells(db, contest, None)
