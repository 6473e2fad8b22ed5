"""Scoreboards computed from the database (SQLite and PostgreSQL): hand-computed ICPC and IOI boards,
the freeze, rejudging, and the kept cells against the plain replay on random contests."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import update

from judge import board, lifecycle
from judge.lifecycle import rejudge
from judge.models import Submission, utcnow
from judge.scoreboard import compute_scoreboard, hidden_after, kept_cells, replay_cells
from judge.vocabulary import ScoreboardView

from .conftest import add_problems, add_submission, add_users, judge_next, make_contest


def rows_by_user(board) -> dict:
    return {r.user: r for r in board.rows}


def cell(board, user: str, letter: str):
    return next(c for c in rows_by_user(board)[user].cells if c.letter == letter)


@pytest.fixture
def class_contest(db):
    """Four students and a teacher; a two-hour ICPC contest on problems A (pa) and B (pb) that
    started an hour ago."""
    add_problems(db, "pa", "pb")
    ids = add_users(db, "alice", "bob", "carol", "dave")
    ids |= add_users(db, "tess", role="teacher")
    contest = make_contest(db, start=utcnow() - timedelta(minutes=60))
    return contest, ids


def test_icpc_board_on_a_hand_computed_contest(db, class_contest):
    contest, ids = class_contest
    a, b, c = ids["alice"], ids["bob"], ids["carol"]
    # submissions in time order (ids follow time, as in a real contest)
    add_submission(db, contest, ids["tess"], "pa", "AC", 1, is_jury=True)  # jury: off the board
    add_submission(db, contest, c, "pa", "JE", 1)
    add_submission(db, contest, c, "pa", "WA", 2)
    add_submission(db, contest, c, "pa", "WA", 3)
    add_submission(db, contest, a, "pa", "WA", 5)
    add_submission(db, contest, a, "pa", "CE", 8)
    add_submission(db, contest, b, "pb", "WA", 10)
    add_submission(db, contest, a, "pa", "AC", 12.5)
    add_submission(db, contest, b, "pa", "AC", 20)
    add_submission(db, contest, b, "pb", "AC", 22)
    add_submission(db, contest, a, "pb", "AC", 30)
    add_submission(db, contest, c, "pb", "AC", 50)
    add_submission(db, contest, c, "pb", "WA", 55)  # after the AC: not counted
    board = compute_scoreboard(db, contest, ScoreboardView.JURY)
    rows = rows_by_user(board)
    # alice: A at 12 after WA (CE free) = 32, B at 30 = 30 -> 2 solved, 62
    # bob: A at 20 = 20, B at 22 after one WA = 42 -> 2 solved, 62: tied with alice, same rank
    # carol: A unsolved (JE free, 2 WA), B at 50 -> 1 solved, 50; dave: nothing
    assert [(r.user, r.rank, r.solved, r.penalty) for r in board.rows] == [
        ("alice", 1, 2, 62),
        ("bob", 1, 2, 62),
        ("carol", 3, 1, 50),
        ("dave", 4, 0, 0),
    ]
    assert "tess" not in rows
    assert (cell(board, "alice", "A").minute, cell(board, "alice", "A").attempts) == (12, 2)
    assert (cell(board, "carol", "A").solved, cell(board, "carol", "A").attempts) == (False, 2)
    assert (cell(board, "carol", "B").penalty, cell(board, "carol", "B").attempts) == (50, 1)
    # first solves: A by alice (minute 12; the jury's minute-1 AC does not count), B by bob (22)
    assert [(r.user, c.letter) for r in board.rows for c in r.cells if c.first_solve] == [("alice", "A"), ("bob", "B")]


def test_ioi_board_takes_the_best_submission_per_problem(db):
    add_problems(db, "pa", "pb")
    ids = add_users(db, "ann", "ben")
    contest = make_contest(
        db, problems=[("pa", 100), ("pb", 50)], start=utcnow() - timedelta(minutes=30), scoring="ioi"
    )

    def four(passed):
        return [("sample", "AC")] + [("secret", "AC")] * (passed - 1) + [("secret", "WA")] * (4 - passed)

    add_submission(db, contest, ids["ann"], "pa", "WA", 1, tests=four(3))  # 3/4 of 100 = 75
    add_submission(db, contest, ids["ann"], "pa", "WA", 2, tests=four(1))  # worse later: best stays 75
    add_submission(db, contest, ids["ann"], "pb", "CE", 3)  # 0
    add_submission(db, contest, ids["ben"], "pa", "WA", 4, tests=four(2))  # 50
    add_submission(db, contest, ids["ben"], "pb", "AC", 5, tests=four(4))  # all of 50
    add_submission(db, contest, ids["ben"], "pb", None, 6)  # pending
    board = compute_scoreboard(db, contest, ScoreboardView.JURY)
    totals = {r.user: (r.rank, r.total) for r in board.rows}
    assert totals == {"ben": (1, 100.0), "ann": (2, 75.0)}
    assert (cell(board, "ann", "A").score, cell(board, "ann", "A").attempts) == (75.0, 2)
    assert (cell(board, "ben", "B").score, cell(board, "ben", "B").pending) == (50.0, 1)


def test_ioi_groups_score_all_or_nothing_per_group(db):
    add_problems(db, "pa")
    ids = add_users(db, "ann")
    contest = make_contest(db, problems=[("pa", 90)], start=utcnow() - timedelta(minutes=30), scoring="ioi")
    grouped = [
        ("sample", "WA"),
        ("secret/g1", "AC"),
        ("secret/g1", "AC"),
        ("secret/g2", "AC"),
        ("secret/g2", "WA"),
        ("secret/g3", "AC"),
    ]
    add_submission(db, contest, ids["ann"], "pa", "WA", 1, tests=grouped)  # g1 and g3 of 3 groups: 60
    board = compute_scoreboard(db, contest, ScoreboardView.JURY)
    assert cell(board, "ann", "A").score == pytest.approx(60.0)


def test_freeze_hides_verdicts_from_the_public_until_unfrozen(db, class_contest):
    contest, ids = class_contest
    contest.freeze_at = contest.start_at + timedelta(minutes=40)
    db.commit()
    add_submission(db, contest, ids["alice"], "pa", "AC", 10)
    add_submission(db, contest, ids["bob"], "pa", "WA", 41)  # frozen
    add_submission(db, contest, ids["bob"], "pa", "AC", 45)  # frozen: would be a solve
    add_submission(db, contest, ids["carol"], "pb", "AC", 50)  # frozen: would be the first solve of B
    public = compute_scoreboard(db, contest, ScoreboardView.PUBLIC)
    assert public.frozen
    bob_a, carol_b = cell(public, "bob", "A"), cell(public, "carol", "B")
    assert (bob_a.solved, bob_a.pending, bob_a.attempts, bob_a.minute, bob_a.penalty) == (False, 2, 0, None, 0)
    assert (carol_b.solved, carol_b.pending, carol_b.first_solve) == (False, 1, False)
    assert [(r.user, r.solved, r.rank) for r in public.rows][:2] == [("alice", 1, 1), ("bob", 0, 2)]
    live = compute_scoreboard(db, contest, ScoreboardView.JURY)
    assert not live.frozen and cell(live, "bob", "A").penalty == 45 + 20 and cell(live, "carol", "B").first_solve
    contest.unfrozen = True
    db.commit()
    revealed = compute_scoreboard(db, contest, ScoreboardView.PUBLIC)
    assert revealed.to_dict()["rows"] == live.to_dict()["rows"]


def test_a_frozen_verdict_changes_nothing_on_the_public_board(db, class_contest):
    contest, ids = class_contest
    contest.freeze_at = contest.start_at + timedelta(minutes=30)
    db.commit()
    add_submission(db, contest, ids["alice"], "pa", "WA", 5)
    hidden = add_submission(db, contest, ids["alice"], "pa", "AC", 35)
    before = compute_scoreboard(db, contest, ScoreboardView.PUBLIC).to_dict()
    for verdict in ("WA", "CE", "JE"):
        db.execute(update(Submission).where(Submission.id == hidden).values(verdict=verdict))
        board.rebuild(db, contest)  # written behind the judge's back: re-derive the kept board
        db.commit()
        after = compute_scoreboard(db, contest, ScoreboardView.PUBLIC).to_dict()
        assert after["rows"] == before["rows"], verdict
    db.execute(update(Submission).where(Submission.id == hidden).values(status="queued", verdict=None))
    board.rebuild(db, contest)
    db.commit()
    assert (
        compute_scoreboard(db, contest, ScoreboardView.PUBLIC).to_dict()["rows"] == before["rows"]
    )  # same as still pending


def test_rejudge_requeues_with_fencing_and_moves_the_first_ac_earlier(db, class_contest):
    contest, ids = class_contest
    wrongly_rejected = add_submission(db, contest, ids["alice"], "pa", "WA", 5)
    add_submission(db, contest, ids["alice"], "pa", "AC", 40)
    add_submission(db, contest, ids["bob"], "pa", "AC", 20)
    board = compute_scoreboard(db, contest, ScoreboardView.JURY)
    assert (cell(board, "alice", "A").penalty, cell(board, "bob", "A").first_solve) == (60, True)
    assert [r.user for r in board.rows][:2] == ["bob", "alice"]

    assert rejudge(db, contest_id=contest.id, problem_id="pa", only_non_ac=True) == [wrongly_rejected]
    row = db.get(Submission, wrongly_rejected)
    db.refresh(row)
    assert (row.status, row.verdict, row.attempt, row.tests_total) == ("queued", None, 1, None)
    pending = compute_scoreboard(db, contest, ScoreboardView.JURY)
    assert cell(pending, "alice", "A").pending == 1 and cell(pending, "alice", "A").penalty == 40

    stale = lifecycle.Claim(wrongly_rejected, 1)  # the worker of the first judging can write nothing now
    assert not lifecycle.renew(db, stale, 30)
    judge_next(db, "AC")
    db.refresh(row)
    assert (row.status, row.verdict, row.attempt) == ("done", "AC", 2)
    after = compute_scoreboard(db, contest, ScoreboardView.JURY)
    alice_a = cell(after, "alice", "A")
    assert (alice_a.minute, alice_a.penalty, alice_a.attempts, alice_a.first_solve) == (5, 5, 1, True)
    assert not cell(after, "bob", "A").first_solve
    assert [r.user for r in after.rows][:2] == ["alice", "bob"]


def test_rejudge_of_a_submission_being_judged_fences_off_its_worker(db, class_contest):
    contest, ids = class_contest
    sid = add_submission(db, contest, ids["alice"], "pa", None, 5)
    first = lifecycle.claim(db, "slow-worker", 30)
    assert rejudge(db, submission_id=sid) == [sid]
    assert not lifecycle.renew(db, first, 30)  # status is queued again: the old claim no longer holds
    second = lifecycle.claim(db, "other-worker", 30)
    assert (second.submission_id, second.attempt) == (sid, first.attempt + 1)


@pytest.mark.parametrize("scoring", ["icpc", "ioi"])
def test_kept_cells_agree_with_the_plain_replay(db, scoring):
    """Random contests: every kept cell equals the replay through judge.scoring, live and frozen."""
    rng = random.Random(20261130)
    add_problems(db, "pa", "pb", "pc")
    ids = list(add_users(db, *[f"s{i}" for i in range(8)]).values())
    contest = make_contest(
        db,
        problems=[("pa", 100), ("pb", 30), ("pc", None)],
        scoring=scoring,
        start=utcnow() - timedelta(minutes=100),
        minutes=120,
    )
    contest.freeze_at = contest.start_at + timedelta(minutes=60)
    contest.penalty_minutes = 15
    db.commit()
    verdicts = ["AC", "WA", "WA", "TLE", "CE", "JE", "RTE", None]
    for minute in sorted(rng.uniform(0, 99) for _ in range(160)):
        verdict = rng.choice(verdicts)
        tests = (
            None
            if verdict in (None, "CE")
            else [("sample", "AC")] + [("secret", rng.choice(["AC", "WA", verdict])) for _ in range(rng.randint(1, 5))]
        )
        add_submission(
            db,
            contest,
            rng.choice(ids),
            rng.choice(["pa", "pb", "pc"]),
            verdict,
            minute,
            tests=tests,
            status="judging" if verdict is None and rng.random() < 0.5 else None,
        )
    for view in (ScoreboardView.JURY, ScoreboardView.PUBLIC):
        hide = hidden_after(contest, view)
        fast, plain = kept_cells(db, contest, hide), replay_cells(db, contest, hide)
        assert fast.keys() == plain.keys()
        for key in plain:
            f, p = fast[key], plain[key]
            assert (f.attempts, f.pending, f.solved, f.minute, f.penalty, f.first_ac) == (
                p.attempts,
                p.pending,
                p.solved,
                p.minute,
                p.penalty,
                p.first_ac,
            ), key
            assert f.score == pytest.approx(p.score), key
        assert any(c.solved or c.score for c in plain.values())  # the data is not trivially empty
    assert (
        compute_scoreboard(db, contest, ScoreboardView.PUBLIC).to_dict()
        != compute_scoreboard(db, contest, ScoreboardView.JURY).to_dict()
    )
