"""Contest scoreboards: computed from the submissions table in two or three aggregate queries, with
the freeze applied, ranked, and exported as JSON-ready dicts (CSV: ``judge.exports``).

Speed: ``aggregate_cells`` lets the database do the per-(contestant, problem) work in one statement
that reads the contest's entries of the covering index ``ix_submissions_scoreboard`` (no table
lookups), so Python only sees one row per scoreboard cell. IOI reads test results only for problems
whose package has scoring groups. ``replay_cells`` is the plain definition (each cell's submissions
replayed through ``judge.scoring``, one query per cell); tests check the two agree on random contests
and ``benchmarks/scoreboard.py`` times both.

Window: only the contestants' submissions made in ``[start_at, end_at)`` count (``in_window``), as
the contest is now: moving the start or the end re-decides what counts.

Freeze (ICPC practice): for every viewer but the jury, a submission made at or after ``freeze_at`` is
pending with no verdict until the contest is unfrozen; solved counts, times, penalties, scores and
the first-solve markers are computed from the earlier submissions only, so nothing of a frozen
verdict shows.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import and_, case, func, not_, or_, select
from sqlalchemy.orm import Session, aliased

from judge.clock import iso_utc, utcnow
from judge.contests import class_students, in_window, on_scoreboard, participants, problem_points, problems_shown
from judge.models import Contest, ContestParticipant, Problem, Submission, TestResult, User
from judge.scoring import (
    NOT_COUNTED,
    UNGROUPED,
    Attempt,
    competition_ranks,
    contest_minute,
    icpc_cell,
    icpc_rank_key,
    ioi_cell,
    ioi_fraction,
    ioi_rank_key,
    ioi_submission_score,
)
from judge.verdicts import AC
from judge.vocabulary import ScoreboardView, Scoring, Status


@dataclass
class Cell:
    """One contestant on one problem. ICPC: ``attempts`` counted up to the first AC, ``minute`` and
    ``penalty`` (minutes) when solved, ``first_solve`` for the earliest AC of the problem. IOI:
    ``score`` (points, best over submissions), ``attempts`` judged. ``pending``: attempts with no
    verdict shown (queued, judging, or frozen)."""

    letter: str
    attempts: int = 0
    pending: int = 0
    solved: bool = False
    minute: int | None = None
    penalty: int = 0
    score: float = 0.0
    first_solve: bool = False
    first_ac: tuple[datetime, int] | None = field(default=None, repr=False)  # (time, id): orders first solves


CELL_FIELDS = ("letter", "attempts", "pending", "solved", "minute", "penalty", "score", "first_solve")  # exported


@dataclass
class Row:
    """A contestant's row: ``rank`` (shared on ties), ICPC ``solved`` and ``penalty`` (minutes), IOI
    ``total`` (points), one cell per problem in letter order."""

    rank: int
    user: str
    display_name: str
    solved: int
    penalty: int
    total: float
    cells: list[Cell]


@dataclass
class Scoreboard:
    """A computed scoreboard. ``frozen``: verdicts after the freeze are hidden in this view;
    ``problems``: (letter, problem name, points) in letter order."""

    contest_id: int
    contest_name: str
    scoring: str
    view: ScoreboardView
    frozen: bool
    computed_at: datetime
    problems: list[tuple[str, str, int]]
    rows: list[Row]

    def to_dict(self) -> dict:
        """JSON-ready: the rows' cells without internal ids."""
        return {
            "contest": self.contest_id,
            "name": self.contest_name,
            "scoring": self.scoring,
            "view": self.view,
            "frozen": self.frozen,
            "computed_at": iso_utc(self.computed_at),
            "problems": [{"letter": l, "name": n, "points": p} for l, n, p in self.problems],
            "rows": [
                {
                    "rank": r.rank,
                    "user": r.user,
                    "display_name": r.display_name,
                    "solved": r.solved,
                    "penalty": r.penalty,
                    "total": r.total,
                    "cells": [{k: getattr(c, k) for k in CELL_FIELDS} for c in r.cells],
                }
                for r in self.rows
            ],
        }


def hidden_after(contest: Contest, view: ScoreboardView) -> datetime | None:
    """The time from which verdicts are hidden in ``view``: the freeze time, except for the jury or
    once the contest is unfrozen (None: nothing hidden)."""
    if view == ScoreboardView.JURY or contest.freeze_at is None or contest.unfrozen:
        return None
    return contest.freeze_at


# -- cells: the fast way ------------------------------------------------------------------------------
def _contest_rows(contest: Contest, s=Submission):
    """SQL: the non-jury submissions of ``contest`` made in its window (``s``: the table or an alias of it)."""
    return [s.contest_id == contest.id, s.is_jury.is_(False), s.user_id.is_not(None), *in_window(contest, s)]


def _judged(hide_after: datetime | None, s=Submission):
    """SQL: the submission's verdict is shown (judged, and not hidden by the freeze)."""
    done = s.status == Status.DONE
    return done if hide_after is None else and_(done, s.created_at < hide_after)


def _rejected(hide_after: datetime | None, s=Submission):
    """SQL: a shown verdict that costs an ICPC penalty (not AC, CE or JE)."""
    return and_(_judged(hide_after, s), s.verdict.not_in((AC, *NOT_COUNTED)))


def _count(condition):
    return func.sum(case((condition, 1), else_=0))


def aggregate_cells(session: Session, contest: Contest, hide_after: datetime | None) -> dict[tuple[int, str], Cell]:
    """Every non-empty cell, keyed by (user id, letter), computed by aggregate queries."""
    letter_of = {p.problem_id: p.letter for p in contest.problems}
    if contest.scoring == Scoring.ICPC:
        return _icpc_aggregate(session, contest, hide_after, letter_of)
    return _ioi_aggregate(session, contest, hide_after, letter_of)


def _icpc_aggregate(session, contest, hide_after, letter_of) -> dict[tuple[int, str], Cell]:
    """One statement: per cell the first shown AC and the totals (one pass over the contest's index
    entries), joined to the attempts before that AC (an index range per solved cell) and to the AC
    row for its time. Unsolved cells use the totals; solved ones the counts before the AC."""
    s = Submission
    totals = (
        select(
            s.user_id,
            s.problem_id,
            func.min(case((and_(_judged(hide_after), s.verdict == AC), s.id))).label("ac_id"),
            _count(_rejected(hide_after)).label("rejected"),
            _count(not_(_judged(hide_after))).label("pending"),
        )
        .where(*_contest_rows(contest), s.problem_id.in_(letter_of))
        .group_by(s.user_id, s.problem_id)
        .subquery("totals")
    )
    before, first_ac = aliased(Submission, name="before_ac"), aliased(Submission, name="first_ac")
    query = (
        select(
            totals.c.user_id,
            totals.c.problem_id,
            totals.c.ac_id,
            totals.c.rejected,
            totals.c.pending,
            first_ac.created_at,
            _count(and_(before.id.is_not(None), _rejected(hide_after, before))),
            _count(and_(before.id.is_not(None), not_(_judged(hide_after, before)))),
        )
        .select_from(totals)
        .outerjoin(first_ac, first_ac.id == totals.c.ac_id)
        .outerjoin(
            before,
            and_(
                *_contest_rows(contest, before),
                before.user_id == totals.c.user_id,
                before.problem_id == totals.c.problem_id,
                before.id < totals.c.ac_id,
            ),
        )
        .group_by(
            totals.c.user_id,
            totals.c.problem_id,
            totals.c.ac_id,
            totals.c.rejected,
            totals.c.pending,
            first_ac.created_at,
        )
    )
    cells = {}
    start, penalty = contest.start_at, contest.penalty_minutes  # plain locals: ORM attributes cost per access
    for user_id, problem_id, ac_id, rejected, pending, ac_at, rejected_before, pending_before in session.execute(query):
        letter = letter_of[problem_id]
        if ac_id is None:
            cells[(user_id, letter)] = Cell(letter, attempts=int(rejected), pending=int(pending))
        else:
            minute = contest_minute(start, ac_at)
            cells[(user_id, letter)] = Cell(
                letter,
                attempts=int(rejected_before) + 1,
                pending=int(pending_before),
                solved=True,
                minute=minute,
                penalty=minute + penalty * int(rejected_before),
                first_ac=(ac_at, ac_id),
            )
    return cells


def _ioi_aggregate(session, contest, hide_after, letter_of) -> dict[tuple[int, str], Cell]:
    """Per cell the best graded share (score / max_score, ``ioi_fraction``) and, over submissions
    without a bounded stored score, the best fraction of tests passed (one pass over the contest's index
    entries); for those of problems with scoring groups, the best group score from the test results."""
    s, judged = Submission, _judged(hide_after)
    where = [*_contest_rows(contest), s.problem_id.in_(letter_of)]
    no_share = or_(s.score.is_(None), s.max_score.is_(None), s.max_score <= 0)  # as ``ioi_fraction`` says
    graded = and_(judged, s.score.is_not(None), s.max_score > 0)
    share = case((graded, s.score / s.max_score), else_=0.0)  # grading keeps 0 ≤ score ≤ max_score
    ungraded = and_(judged, no_share, s.tests_total > 0)
    fraction = case((ungraded, s.tests_passed * 1.0 / s.tests_total), else_=0.0)
    query = (
        select(s.user_id, s.problem_id, func.max(share), func.max(fraction), _count(judged), _count(not_(judged)))
        .where(*where)
        .group_by(s.user_id, s.problem_id)
    )
    points = {p.problem_id: problem_points(p) for p in contest.problems}
    cells, shares = {}, {}
    for user_id, problem_id, best_share, best, judged_count, pending in session.execute(query):
        shares[(user_id, problem_id)] = float(best_share or 0) * points[problem_id]
        cells[(user_id, letter_of[problem_id])] = Cell(
            letter_of[problem_id],
            attempts=int(judged_count),
            pending=int(pending),
            score=max(float(best or 0) * points[problem_id], min(shares[(user_id, problem_id)], points[problem_id])),
        )
    unscored = [*where, no_share]
    grouped = _grouped_problems(session, unscored, judged)
    if grouped:
        for (user_id, problem_id), score in _group_scores(
            session, [*unscored, s.problem_id.in_(grouped)], judged, points
        ).items():
            cells[(user_id, letter_of[problem_id])].score = max(score, shares[(user_id, problem_id)])
    return cells


def _grouped_problems(session, where, judged) -> set[str]:
    """The problems whose package has scoring groups, told by the newest judged submission of each
    (a package's groups are the same for all its submissions): a few index lookups."""
    s, t = Submission, TestResult
    newest = select(func.max(s.id)).where(*where, judged, s.tests_total > 0).group_by(s.problem_id)
    return set(
        session.scalars(
            select(s.problem_id)
            .join(t, and_(t.submission_id == s.id, t.attempt == s.attempt))
            .where(s.id.in_(newest), t.test_group.not_in(UNGROUPED))
            .distinct()
        )
    )


def _group_scores(session, where, judged, points) -> dict[tuple[int, str], float]:
    """Best group-scored result per (user, problem) over the judged submissions ``where`` selects."""
    s, t = Submission, TestResult
    query = (
        select(s.user_id, s.problem_id, s.id, t.test_group, func.count(), _count(t.verdict == AC))
        .join(t, and_(t.submission_id == s.id, t.attempt == s.attempt))
        .where(*where, judged)
        .group_by(s.user_id, s.problem_id, s.id, t.test_group)
    )
    groups: dict[tuple[int, str, int], dict[str, tuple[int, int]]] = defaultdict(dict)
    for user_id, problem_id, sid, group, total, passed in session.execute(query):
        groups[(user_id, problem_id, sid)][group] = (int(passed), int(total))
    best: dict[tuple[int, str], float] = {}
    for (user_id, problem_id, _), by_group in groups.items():
        score = ioi_submission_score(by_group, points[problem_id])
        best[(user_id, problem_id)] = max(best.get((user_id, problem_id), 0.0), score)
    return best


# -- cells: the plain definition ----------------------------------------------------------------------
def replay_cells(session: Session, contest: Contest, hide_after: datetime | None) -> dict[tuple[int, str], Cell]:
    """Every non-empty cell by replaying each contestant's submissions through ``judge.scoring``, one
    query per cell (the obvious implementation: the reference the aggregate queries must match)."""
    cells = {}
    for user in participants(session, contest):
        for entry in contest.problems:
            rows = session.scalars(
                select(Submission)
                .where(
                    *_contest_rows(contest), Submission.user_id == user.id, Submission.problem_id == entry.problem_id
                )
                .order_by(Submission.id)
            ).all()
            if rows:
                cells[(user.id, entry.letter)] = _replay(session, contest, entry, rows, hide_after)
    return cells


def _replay(session, contest, entry, rows, hide_after) -> Cell:
    def shown(row):
        return row.status == Status.DONE and (hide_after is None or row.created_at < hide_after)

    attempts = [
        Attempt(
            contest_minute(contest.start_at, r.created_at),
            r.verdict if shown(r) else None,
            _submission_score(session, r, problem_points(entry)) if shown(r) else 0.0,
        )
        for r in rows
    ]
    if contest.scoring != Scoring.ICPC:
        ioi = ioi_cell(attempts)
        return Cell(entry.letter, attempts=ioi.judged, pending=ioi.pending, score=ioi.score)
    icpc = icpc_cell(attempts, contest.penalty_minutes)
    first_ac = next(((r.created_at, r.id) for r, a in zip(rows, attempts) if a.verdict == AC), None)
    return Cell(
        entry.letter,
        attempts=icpc.tries,
        pending=icpc.pending,
        solved=icpc.solved,
        minute=icpc.minute,
        penalty=icpc.penalty,
        first_ac=first_ac,
    )


def _submission_score(session: Session, row: Submission, points: int) -> float:
    fraction = ioi_fraction(row.score, row.max_score)
    if fraction is not None:
        return points * fraction
    groups: dict[str, tuple[int, int]] = {}
    for result in session.scalars(
        select(TestResult).where(TestResult.submission_id == row.id, TestResult.attempt == row.attempt)
    ):
        passed, total = groups.get(result.test_group, (0, 0))
        groups[result.test_group] = (passed + (result.verdict == AC), total + 1)
    if not groups and row.tests_total:  # results not stored (e.g. imported): the counters still tell
        groups = {"secret": (row.tests_passed or 0, row.tests_total)}
    return ioi_submission_score(groups, points)


# -- the board ----------------------------------------------------------------------------------------
def compute_scoreboard(
    session: Session,
    contest: Contest,
    view: ScoreboardView = ScoreboardView.PUBLIC,
    now: datetime | None = None,
    cells: dict[tuple[int, str], Cell] | None = None,
) -> Scoreboard:
    """The scoreboard of ``contest`` as ``view`` (``jury``: live; ``public``: frozen after the freeze
    time until unfrozen) at ``now`` (UTC). ``cells`` replaces the aggregate queries (tests, benchmark).

    Only submissions made in the contest's window count. Before the start, the public view has no
    problems (``judge.contests.problems_shown``): its rows list the contestants and no cells."""
    now = now or utcnow()
    hide_after = hidden_after(contest, view)
    shown = contest.problems if problems_shown(contest, view == ScoreboardView.JURY, now) else []
    if cells is None:
        cells = aggregate_cells(session, contest, hide_after) if shown else {}
    names = dict(
        session.execute(select(Problem.id, Problem.name).where(Problem.id.in_([p.problem_id for p in shown]))).all()
    )
    problems = [(p.letter, names.get(p.problem_id, p.problem_id), problem_points(p)) for p in shown]
    _mark_first_solves(cells)
    users = session.execute(
        select(User.id, User.name, User.display_name)
        .where(on_scoreboard(contest))
        .order_by(User.display_name, User.name)
    )
    rows = [
        _row(name, display, [cells.get((user_id, letter)) or Cell(letter) for letter, _, _ in problems])
        for user_id, name, display in users
    ]
    key = (
        (lambda r: icpc_rank_key(r.solved, r.penalty))
        if contest.scoring == Scoring.ICPC
        else (lambda r: ioi_rank_key(r.total))
    )
    rows.sort(key=key)  # stable: ties keep the participants' display-name order
    for row, rank in zip(rows, competition_ranks([key(r) for r in rows])):
        row.rank = rank
    frozen = hide_after is not None and now >= hide_after
    return Scoreboard(contest.id, contest.name, contest.scoring, view, frozen, now, problems, rows)


def _row(name: str, display_name: str, cells: list[Cell]) -> Row:
    return Row(
        0,
        name,
        display_name,
        solved=sum(c.solved for c in cells),
        penalty=sum(c.penalty for c in cells),
        total=round(sum(c.score for c in cells), 6),
        cells=cells,
    )


def _mark_first_solves(cells: dict[tuple[int, str], Cell]) -> None:
    """Flag, per problem, the cell holding the earliest shown AC (by submission time, then id)."""
    first: dict[str, Cell] = {}
    for cell in cells.values():
        if cell.solved and cell.first_ac is not None:
            best = first.get(cell.letter)
            if best is None or best.first_ac is None or cell.first_ac < best.first_ac:
                first[cell.letter] = cell
    for cell in first.values():
        cell.first_solve = True


def scoreboard_fingerprint(session: Session, contest: Contest, now: datetime) -> tuple:
    """A cheap value that changes whenever the scoreboard may have: the contest's submissions (count,
    newest id, judgings, finished ones, last finish), its settings and participants (named, and the
    students of its classes as they are now), the number of users, and whether the start and the
    freeze time have passed (the problems show from the start: ``problems_shown``).
    Event streams recompute the board only when it changes."""
    s = Submission
    counts = session.execute(
        select(
            func.count(),
            func.max(s.id),
            func.sum(s.attempt),
            func.sum(case((s.status == Status.DONE, 1), else_=0)),
            func.max(s.finished_at),
        ).where(s.contest_id == contest.id)
    ).one()
    users = session.scalar(select(func.count()).select_from(User))
    named = select(ContestParticipant.user_id).where(ContestParticipant.contest_id == contest.id)
    taking_part = tuple(sorted(set(session.scalars(named.union(class_students(contest.id))))))
    settings = (
        contest.unfrozen,
        contest.freeze_at,
        contest.start_at,
        contest.end_at,
        contest.scoring,
        contest.penalty_minutes,
        tuple((p.letter, p.problem_id, p.points) for p in contest.problems),
        contest.all_students,
        taking_part,
    )
    started = now >= contest.start_at
    return (*counts, users, settings, started, contest.freeze_at is not None and now >= contest.freeze_at)
