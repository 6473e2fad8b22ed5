"""The kept scoreboard (``judge.board``) equals the board replayed from the submissions
(``judge.scoreboard.replay_cells``, the plain definition through ``judge.scoring``) on random ICPC
and IOI contests driven through the judge's own paths: submissions queued, claimed, judged with
test results and graded scores, lost leases ending as JE, rejudges of a submission, of a problem and
of the non-AC ones, window and freeze edits, unfreezing, scoring, penalty and problem-set edits, and
jury submissions. After every step both views (jury and public), rendered through the board cache,
must equal the replay: most of them are the cached board brought up to date from the cells stamped
since (``judge.scoreboard._patch``), after one step on the walk's engine and after several on a
second engine on the same database (another API process); and a second engine sees every change."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from sqlalchemy import select

from judge import board, lifecycle, scoreboard
from judge.contests import ContestRuleError, ProblemEntry, edit_contest
from judge.db import make_engine, make_sessionmaker
from judge.models import Contest, Problem, Submission, utcnow
from judge.scoreboard import compute_scoreboard, hidden_after, kept_cells, replay_cells
from judge.vocabulary import ScoreboardView

from .conftest import add_problems, add_users, finish_claimed, make_contest

VERDICTS = ["AC", "AC", "WA", "WA", "TLE", "RTE", "CE", "JE"]
VIEWS = (ScoreboardView.JURY, ScoreboardView.PUBLIC)


def assert_kept_equals_replay(session, contest: Contest, step: str, reader=None) -> None:
    """Both views of the kept (and cached) board equal the replayed ones, cell by cell, row by row and
    rendered; the cached board read through ``reader`` (a session of another engine) when given."""
    now = utcnow()
    if reader is not None:
        reader.expire_all()  # as an API process loads the contest for each request
        there = reader.get(Contest, contest.id)
    for view in VIEWS:
        hide = hidden_after(contest, view)
        replayed = replay_cells(session, contest, hide)
        assert kept_cells(session, contest, hide) == replayed, (step, view)
        if reader is None:
            kept = compute_scoreboard(session, contest, view, now)
        else:
            kept = compute_scoreboard(reader, there, view, now)
            reader.commit()
        plain = compute_scoreboard(session, contest, view, now, cells=replayed)
        assert kept.rows == plain.rows, (step, view)
        assert kept.to_dict() == plain.to_dict(), (step, view)


@pytest.fixture
def patches(monkeypatch):
    """The boards brought up to date from stamped cells (``judge.scoreboard._patch``), counted."""
    made = []
    patch = scoreboard._patch

    def counted(*args, **kwargs):
        kept = patch(*args, **kwargs)
        made.append(kept is not None)
        return kept

    monkeypatch.setattr(scoreboard, "_patch", counted)
    return made


def _judge_one(session, rng: random.Random, ioi: bool) -> str:
    """What a worker does: claim the next queued submission, store its test results, finish it."""
    claim = lifecycle.claim(session, "w", 30)
    if claim is None:
        return "nothing queued"
    verdict = rng.choice(VERDICTS)
    count = 0 if verdict == "CE" else rng.randint(1, 4)
    groups = ["g1", "g2"] if ioi and rng.random() < 0.5 else ["secret"]
    tests = [("sample", "AC")] * (count > 0) + [(rng.choice(groups), rng.choice(["AC", verdict])) for _ in range(count)]
    graded = ioi and rng.random() < 0.5
    score = float(rng.randint(0, 10)) if graded else None
    finish_claimed(session, claim, "w", verdict, tests, score, 10.0 if graded else None)
    return f"judged {claim.submission_id} {verdict}"


def _submit(session, rng: random.Random, contest: Contest, users: dict[str, int]) -> str:
    name = rng.choice(sorted(users))
    problem = session.get(Problem, rng.choice(["pa", "pb", "pc"]))
    at = contest.start_at + timedelta(minutes=rng.uniform(-10, 130))  # some outside the window
    row = lifecycle.enqueue(
        session,
        problem=problem,
        language="cpp",
        source="int main(){}",
        user_id=users[name],
        contest_id=contest.id,
        is_jury=name == "tess",
        now=at,
    )
    session.commit()
    return f"submitted {row.id} by {name}"


def _rejudge(session, rng: random.Random, contest: Contest) -> str:
    ids = session.scalars(select(Submission.id).where(Submission.contest_id == contest.id)).all()
    how = rng.randrange(3)
    if how == 0 and ids:
        moved = lifecycle.rejudge(session, submission_id=rng.choice(ids))
    elif how == 1:
        moved = lifecycle.rejudge(session, contest_id=contest.id, problem_id=rng.choice(["pa", "pb"]))
    else:
        moved = lifecycle.rejudge(session, contest_id=contest.id, only_non_ac=True)
    return f"rejudged {len(moved)}"


def _lose_a_lease(session) -> str:
    claim = lifecycle.claim(session, "lost", -1)  # its lease has expired already
    if claim is None:
        return "nothing queued"
    return f"lost lease: {lifecycle.requeue_expired(session, max_attempts=1)} ended as JE"


def _edit(session, rng: random.Random, contest: Contest) -> str:
    minutes = timedelta(minutes=1)
    choice = rng.randrange(6)
    if choice == 0:
        changes: dict[str, object] = {"start_at": contest.start_at + rng.randint(-15, 15) * minutes}
    elif choice == 1:
        changes = {"end_at": contest.end_at + rng.randint(-30, 30) * minutes}
    elif choice == 2:
        freeze = contest.start_at + rng.randint(0, 120) * minutes
        changes = {"freeze_at": None if rng.random() < 0.2 else freeze}
    elif choice == 3:
        changes = {"unfrozen": not contest.unfrozen}
    elif choice == 4:
        changes = {"scoring": rng.choice(["icpc", "ioi"]), "penalty_minutes": rng.randint(0, 30)}
    else:
        chosen = rng.sample(["pa", "pb", "pc"], rng.randint(1, 3))
        changes = {"problems": [ProblemEntry(chr(65 + i), p, rng.choice([None, 30])) for i, p in enumerate(chosen)]}
    try:
        edit_contest(session, contest, changes, utcnow())
    except ContestRuleError as refused:
        return f"edit refused: {refused}"
    return f"edited {sorted(changes)}"


@pytest.mark.parametrize("scoring", ["icpc", "ioi"])
@pytest.mark.parametrize("seed", range(4))
def test_the_kept_board_equals_the_replayed_board(db, database_url, patches, scoring, seed):
    rng = random.Random(1000 * seed + len(scoring))
    other = make_engine(database_url)
    reader, peeks = make_sessionmaker(other)(), random.Random(seed)
    add_problems(db, "pa", "pb", "pc")
    users = add_users(db, *[f"s{i}" for i in range(4)]) | add_users(db, "tess", role="teacher")
    contest = make_contest(
        db,
        problems=[("pa", None), ("pb", 40)],
        scoring=scoring,
        start=utcnow() - timedelta(minutes=130),
        minutes=120,  # over: the freeze may be lifted
    )
    edit_contest(db, contest, {"freeze_at": contest.start_at + timedelta(minutes=60)}, utcnow())
    assert_kept_equals_replay(db, contest, "empty")
    steps = [
        lambda: _submit(db, rng, contest, users),
        lambda: _submit(db, rng, contest, users),
        lambda: _judge_one(db, rng, contest.scoring == "ioi"),
        lambda: _judge_one(db, rng, contest.scoring == "ioi"),
        lambda: _judge_one(db, rng, contest.scoring == "ioi"),
        lambda: _rejudge(db, rng, contest),
        lambda: _lose_a_lease(db),
        lambda: _edit(db, rng, contest),
    ]
    shown = []
    for _ in range(45):
        step = rng.choice(steps)()
        shown.append(step)
        assert_kept_equals_replay(db, contest, step)
        if peeks.random() < 0.3:  # the other engine's board, some steps behind
            assert_kept_equals_replay(db, contest, step, reader)
    while "nothing queued" not in _judge_one(db, rng, contest.scoring == "ioi"):
        pass
    assert_kept_equals_replay(db, contest, "all judged")
    assert_kept_equals_replay(db, contest, "all judged", reader)
    reader.close()
    other.dispose()
    boards = [compute_scoreboard(db, contest, view).to_dict() for view in VIEWS]
    assert any(c["attempts"] for r in boards[0]["rows"] for c in r["cells"]), shown  # not trivially empty
    assert patches.count(True) >= 8, patches  # most views were a board brought up to date


def test_a_board_cached_by_one_engine_follows_changes_made_through_another(database_url):
    """Two engines on one database stand for two API processes: each caches boards, and a verdict
    stored through one shows at once on the other (the cache is keyed on the stored board version)."""
    first, second = make_engine(database_url), make_engine(database_url)
    try:
        with make_sessionmaker(first)() as one, make_sessionmaker(second)() as two:
            add_problems(one, "pa", "pb")
            ids = add_users(one, "ann", "ben")
            contest = make_contest(one, start=utcnow() - timedelta(minutes=30))
            lifecycle.enqueue(
                one,
                problem=one.get(Problem, "pa"),
                language="cpp",
                source="int main(){}",
                user_id=ids["ann"],
                contest_id=contest.id,
                is_jury=False,
                now=utcnow(),
            )
            one.commit()
            there = two.get(Contest, contest.id)
            pending = compute_scoreboard(two, there, ScoreboardView.JURY).to_dict()
            assert compute_scoreboard(two, there, ScoreboardView.JURY).to_dict()["rows"] == pending["rows"]
            ann = next(r for r in pending["rows"] if r["user"] == "ann")
            assert (ann["cells"][0]["pending"], ann["solved"]) == (1, 0)
            version = board.version(two, contest.id)
            two.commit()
            claim = lifecycle.claim(one, "w", 30)
            assert claim is not None
            assert lifecycle.finish(
                one,
                claim,
                verdict="AC",
                compile_message=None,
                judge_message=None,
                time_ms=1,
                memory_kib=1,
                tests_passed=1,
                tests_total=1,
            )
            assert board.version(two, contest.id) > version
            solved = compute_scoreboard(two, there, ScoreboardView.JURY).to_dict()
            ann = next(r for r in solved["rows"] if r["user"] == "ann")
            assert (ann["cells"][0]["pending"], ann["solved"], ann["cells"][0]["first_solve"]) == (0, 1, True)
    finally:
        first.dispose()
        second.dispose()


def test_a_cell_removed_reads_the_board_anew(db, patches):
    """A cell left empty (its only submission deleted) is a change the stamps cannot describe: it
    moves the contest's base version, and the cached board is read anew, equal to the replay."""
    add_problems(db, "pa", "pb")
    ids = add_users(db, "ann", "ben")
    contest = make_contest(db, start=utcnow() - timedelta(minutes=30))
    for name in ("ann", "ben"):
        lifecycle.enqueue(
            db,
            problem=db.get(Problem, "pa"),
            language="cpp",
            source="int main(){}",
            user_id=ids[name],
            contest_id=contest.id,
            is_jury=False,
            now=utcnow(),
        )
    db.commit()
    assert_kept_equals_replay(db, contest, "two pending")
    version, base = board.versions(db, contest.id)
    ann = db.scalars(select(Submission).where(Submission.user_id == ids["ann"])).one()
    db.delete(ann)
    db.commit()
    assert_kept_equals_replay(db, contest, "one removed")
    assert board.versions(db, contest.id)[1] > version > base
    assert patches == [], patches  # read anew, not brought up to date
