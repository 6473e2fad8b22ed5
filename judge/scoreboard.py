"""Contest scoreboards: read from the summary rows ``judge.board`` keeps (one per contestant and
problem), with the freeze applied, ranked, and exported as JSON-ready dicts (CSV: ``judge.exports``).

Speed: a board is built from the contest's summary rows (``kept_cells``: one row per scoreboard
cell) and the rendered board is kept per (database, contest, view) with the contest's board version
(``judge.board``) and what the clock decides (started, frozen); after a change it is brought up to
date from the rows stamped since (``compute_scoreboard``), whichever API process serves it.
``replay_cells`` is the plain definition (each cell's
submissions replayed through ``judge.scoring``, one query per cell); tests check the kept board
equals the replayed one on random contests and ``benchmarks/scoreboard.py`` times both.

Window: only the contestants' submissions made in ``[start_at, end_at)`` count (``in_window``), as
the contest is now: moving the start or the end re-decides what counts.

Freeze (ICPC practice): for every viewer but the jury, a submission made at or after ``freeze_at`` is
pending with no verdict until the contest is unfrozen; solved counts, times, penalties, scores and
the first-solve markers are computed from the earlier submissions only, so nothing of a frozen
verdict shows.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from types import SimpleNamespace
from typing import cast

from sqlalchemy import Engine, Select, bindparam, case, func, select
from sqlalchemy.orm import Session

from judge import board
from judge.clock import UtcDateTime, iso_utc, utcnow
from judge.contests import class_students, on_scoreboard, participants, problems_shown
from judge.models import Contest, ContestParticipant, Problem, Submission, TestResult, User
from judge.scoring import (
    Attempt,
    competition_ranks,
    contest_minute,
    icpc_cell,
    icpc_rank_key,
    ioi_cell,
    ioi_rank_key,
    problem_points,
    submission_points,
)
from judge.verdicts import AC
from judge.vocabulary import ScoreboardView, Scoring, Status


@dataclass(slots=True)
class Cell:
    """One contestant on one problem. ICPC: ``attempts`` counted up to the first AC, ``minute`` and
    ``penalty`` (minutes) when solved, ``first_solve`` for the earliest AC of the problem. IOI:
    ``score`` (points, best over submissions), ``attempts`` judged. ``pending``: attempts with no
    verdict shown (queued, judging, or frozen). ``first_ac``: (time, id) of the submission that
    decided the cell: ICPC its first AC, IOI the first to reach its best score above 0."""

    letter: str
    attempts: int = 0
    pending: int = 0
    solved: bool = False
    minute: int | None = None
    penalty: int = 0
    score: float = 0.0
    first_solve: bool = False
    first_ac: tuple[datetime, int] | None = field(default=None, repr=False)  # (time, id): orders first solves


@dataclass(slots=True)
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
    rendered: dict | None = field(default=None, repr=False, compare=False)  # to_dict's, once made

    def to_dict(self) -> dict:
        """JSON-ready: the rows' cells without internal ids. Made once per board (a kept board's
        copies share it, and a newer board the rows that did not change): callers must not change
        what it holds but its top-level keys."""
        if self.rendered is None:
            self.rendered = {**self._render_head(), "rows": [{"rank": r.rank, **_render_row(r)} for r in self.rows]}
        return {**self.rendered, "computed_at": iso_utc(self.computed_at)}

    def _render_head(self) -> dict:
        return {
            "contest": self.contest_id,
            "name": self.contest_name,
            "scoring": self.scoring,
            "view": self.view,
            "frozen": self.frozen,
            "problems": [{"letter": l, "name": n, "points": p} for l, n, p in self.problems],
        }


def _render_row(row: Row) -> dict:
    """A row JSON-ready, but for its rank (which comes first)."""
    return {
        "user": row.user,
        "display_name": row.display_name,
        "solved": row.solved,
        "penalty": row.penalty,
        "total": row.total,
        "cells": [
            {  # a literal per cell: a board renders thousands
                "letter": c.letter,
                "attempts": c.attempts,
                "pending": c.pending,
                "solved": c.solved,
                "minute": c.minute,
                "penalty": c.penalty,
                "score": c.score,
                "first_solve": c.first_solve,
            }
            for c in row.cells
        ],
    }


def hidden_after(contest: Contest, view: ScoreboardView) -> datetime | None:
    """The time from which verdicts are hidden in ``view``: the freeze time, except for the jury or
    once the contest is unfrozen (None: nothing hidden)."""
    if view == ScoreboardView.JURY or contest.freeze_at is None or contest.unfrozen:
        return None
    return contest.freeze_at


# -- cells: the kept summary rows --------------------------------------------------------------------
def kept_cells(session: Session, contest: Contest, hide_after: datetime | None) -> dict[tuple[int, str], Cell]:
    """Every non-empty cell, keyed by (user id, letter), from the summary rows ``judge.board`` keeps:
    the frozen variant when verdicts after ``hide_after`` (the freeze time) are hidden. Minutes and
    penalties follow from the first AC's time, the start and ``penalty_minutes``."""
    return cells_of(contest, board.kept_rows(session, contest, hide_after is not None))


def cells_of(contest: Contest, rows: Iterable[tuple]) -> dict[tuple[int, str], Cell]:
    """Cells keyed by (user id, letter) from summary rows (``judge.board.kept_rows``'s tuples)."""
    letter_of = {p.problem_id: p.letter for p in contest.problems}
    start, penalty, icpc = contest.start_at, contest.penalty_minutes, contest.scoring == Scoring.ICPC
    cells = {}
    for user_id, problem_id, attempts, pending, score, first_id, first_at in rows:
        letter = letter_of.get(problem_id)
        if letter is None:
            continue
        if first_id is None:
            cells[(user_id, letter)] = Cell(letter, attempts, pending, False, None, 0, score)
            continue
        first = (first_at, first_id)
        if icpc:
            minute = contest_minute(start, first_at)
            penalized = minute + penalty * (attempts - 1)
            cells[(user_id, letter)] = Cell(letter, attempts, pending, True, minute, penalized, score, False, first)
        else:
            cells[(user_id, letter)] = Cell(letter, attempts, pending, False, None, 0, score, False, first)
    return cells


# -- cells: the plain definition ----------------------------------------------------------------------
def replay_cells(session: Session, contest: Contest, hide_after: datetime | None) -> dict[tuple[int, str], Cell]:
    """Every non-empty cell by replaying each contestant's submissions through ``judge.scoring``, one
    query per cell (the obvious implementation: the reference the aggregate queries must match)."""
    cells = {}
    for user in participants(session, contest):
        for entry in contest.problems:
            rows = session.scalars(
                select(Submission)
                .where(*board.counted(contest), Submission.user_id == user.id)
                .where(Submission.problem_id == entry.problem_id)
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
        best = next(
            ((r.created_at, r.id) for r, a in zip(rows, attempts) if a.verdict and a.score == ioi.score > 0), None
        )
        return Cell(entry.letter, attempts=ioi.judged, pending=ioi.pending, score=ioi.score, first_ac=best)
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
    groups: dict[str, tuple[int, int]] = {}
    if row.score is None or row.max_score is None or row.max_score <= 0:
        for result in session.scalars(
            select(TestResult).where(TestResult.submission_id == row.id, TestResult.attempt == row.attempt)
        ):
            passed, total = groups.get(result.test_group, (0, 0))
            groups[result.test_group] = (passed + (result.verdict == AC), total + 1)
    return submission_points(row.score, row.max_score, groups, row.tests_passed, row.tests_total, points)


# -- the board ----------------------------------------------------------------------------------------
CACHED_BOARDS = 64  # rendered boards kept per database, one per (contest, view); least recently used dropped
_boards: weakref.WeakKeyDictionary[Engine, OrderedDict[tuple, _Kept]] = weakref.WeakKeyDictionary()
_boards_lock = threading.Lock()


@dataclass(slots=True, frozen=True)
class _Kept:
    """A rendered board kept in the process with what bringing it up to date needs: its ``shape``
    (``board_key`` without the version), the board ``version`` it shows, its cells by (user id,
    letter) with their first-solve flags, its contestants (id, name, display name) in display order,
    and each one's row (rank 0) and rendered row (no rank) by user id. Never changed once made: a
    newer one shares what did not change."""

    shape: tuple
    version: int
    board: Scoreboard
    cells: dict[tuple[int, str], Cell]
    users: list[tuple[int, str, str]]
    rows: dict[int, Row]
    rendered: dict[int, dict]


def compute_scoreboard(
    session: Session,
    contest: Contest,
    view: ScoreboardView = ScoreboardView.PUBLIC,
    now: datetime | None = None,
    cells: dict[tuple[int, str], Cell] | None = None,
) -> Scoreboard:
    """The scoreboard of ``contest`` as ``view`` (``jury``: live; ``public``: frozen after the freeze
    time until unfrozen) at ``now`` (UTC), built from the kept summary rows (``kept_cells``) or, given,
    from ``cells`` (tests, benchmark: a replay).

    Only submissions made in the contest's window count. Before the start, the public view has no
    problems (``judge.contests.problems_shown``): its rows list the contestants and no cells.

    A board built from the summary rows is kept per (database, contest, view) with the contest's
    board version it shows, read from the database (``judge.board.versions``), so every process
    serving the database sees a change at once. When the version moved and the rest of its key
    (``board_key``) did not, the kept board is brought up to date from the cells stamped since
    (``judge.board.changed_rows``): those cells, their contestants' rows and the first solves of
    their problems are made anew and the rows ranked again. It is read anew when a change the stamps
    cannot describe came since (the contest's base version is past it: a rebuild, new participants)
    or a changed cell is a contestant it does not list. The board is shared: callers must not change
    it; ``computed_at`` is ``now``."""
    now = now or utcnow()
    if cells is not None:
        return _build(session, contest, view, now, (), 0, cells).board
    version, base = board.versions(session, contest.id)
    shape = _shape(contest, view, now)
    engine = session.get_bind()
    place = (contest.id, view)
    with _boards_lock:
        kept = _boards.setdefault(engine, OrderedDict()).get(place)  # type: ignore[arg-type]
    fresh = None
    if kept is not None and kept.shape == shape and base <= kept.version <= version:
        fresh = kept if kept.version == version else _patch(session, contest, kept, version)
    if fresh is None:
        fresh = _build(session, contest, view, now, shape, version, None)
    if fresh is not kept:
        with _boards_lock:
            boards = _boards.setdefault(engine, OrderedDict())  # type: ignore[arg-type]
            stored = boards.get(place)
            if stored is None or stored.shape != shape or stored.version <= version:
                boards[place] = fresh
            boards.move_to_end(place)
            while len(boards) > CACHED_BOARDS:
                boards.popitem(last=False)
    return replace(fresh.board, computed_at=now)


def _shape(contest: Contest, view: ScoreboardView, now: datetime) -> tuple:
    hide_after = hidden_after(contest, view)
    return (
        contest.id,
        view,
        problems_shown(contest, view == ScoreboardView.JURY, now),
        hide_after is not None and now >= hide_after,
        hide_after,
        contest.start_at,
        contest.end_at,
        contest.scoring,
        contest.penalty_minutes,
        contest.name,
        tuple((p.letter, p.problem_id, p.points) for p in contest.problems),
    )


def board_key(session: Session, contest: Contest, view: ScoreboardView, now: datetime) -> tuple:
    """What a rendered board of ``contest`` in ``view`` at ``now`` depends on: the contest's board
    version as stored (``judge.board``: advanced with every change of its summary rows, participants,
    problems, settings), its settings, and what ``now`` decides (problems shown, frozen). One small
    query. Equal keys of one database give equal boards."""
    return (*_shape(contest, view, now), board.version(session, contest.id))


def _users_on_scoreboard(all_students: bool) -> Select:
    """SELECT (id, name, display name) of the users on the scoreboard (``on_scoreboard``) of the
    contest of the bound parameters ``contest_id``, ``start``, ``end`` (its window), its
    ``all_students`` as given, in display order: built once, as a board reads it each time."""
    any_contest = SimpleNamespace(
        id=bindparam("contest_id"),
        start_at=bindparam("start", type_=UtcDateTime),
        end_at=bindparam("end", type_=UtcDateTime),
        all_students=all_students,
    )
    return (
        select(User.id, User.name, User.display_name)
        .where(on_scoreboard(cast(Contest, any_contest)))
        .order_by(User.display_name, User.name)
    )


_USERS = {all_students: _users_on_scoreboard(all_students) for all_students in (False, True)}
_NAMES = select(Problem.id, Problem.name).where(Problem.id.in_(bindparam("ids", expanding=True)))


def _build(
    session: Session,
    contest: Contest,
    view: ScoreboardView,
    now: datetime,
    shape: tuple,
    version: int,
    cells: dict[tuple[int, str], Cell] | None,
) -> _Kept:
    """The board read anew: from ``cells`` when given, else from the kept rows."""
    hide_after = hidden_after(contest, view)
    shown = contest.problems if problems_shown(contest, view == ScoreboardView.JURY, now) else []
    if cells is None:
        cells = kept_cells(session, contest, hide_after) if shown else {}
    connection = session.connection()
    names = dict(connection.execute(_NAMES, {"ids": [p.problem_id for p in shown]}).all())
    problems = [(p.letter, names.get(p.problem_id, p.problem_id), problem_points(p)) for p in shown]
    _mark_first_solves(cells)
    window = {"contest_id": contest.id, "start": contest.start_at, "end": contest.end_at}
    users = [(user_id, name, display) for user_id, name, display in connection.execute(_USERS[contest.all_students], window)]
    letters = [letter for letter, _, _ in problems]
    empty = [Cell(letter) for letter in letters]  # shared by the rows without a cell there: never changed
    get = cells.get
    rows = {
        user_id: _row(name, display, [get((user_id, letter)) or e for letter, e in zip(letters, empty)])
        for user_id, name, display in users
    }
    rendered = {user_id: _render_row(row) for user_id, row in rows.items()}
    frozen = hide_after is not None and now >= hide_after
    empty = Scoreboard(contest.id, contest.name, contest.scoring, view, frozen, now, problems, [])
    return _ranked(_Kept(shape, version, empty, cells, users, rows, rendered), contest)


def _patch(session: Session, contest: Contest, kept: _Kept, version: int) -> _Kept | None:
    """``kept`` brought to ``version`` from the cells stamped after its own (see
    ``compute_scoreboard``); None when it must be read anew (a changed cell of a contestant it does
    not list)."""
    if not kept.board.problems:  # no cells shown (the public view before the start)
        return _Kept(kept.shape, version, kept.board, kept.cells, kept.users, kept.rows, kept.rendered)
    hide_after = hidden_after(contest, kept.board.view)
    changed = cells_of(contest, board.changed_rows(session, contest, hide_after is not None, kept.version))
    if any(user_id not in kept.rows for user_id, _ in changed):
        return None
    cells = {**kept.cells, **changed}
    touched = {user_id for user_id, _ in changed}
    for letter in {letter for _, letter in changed}:  # its first solve, as _mark_first_solves finds it
        best = None
        for user_id, _, _ in kept.users:
            cell = cells.get((user_id, letter))
            if cell is not None and cell.solved and cell.first_ac is not None:
                if best is None or cell.first_ac < best[1].first_ac:  # type: ignore[operator]
                    best = (user_id, cell)
        for user_id, _, _ in kept.users:
            cell = cells.get((user_id, letter))
            if cell is not None and cell.first_solve != (best is not None and best[0] == user_id):
                cells[(user_id, letter)] = replace(cell, first_solve=not cell.first_solve)
                touched.add(user_id)
    letters = [letter for letter, _, _ in kept.board.problems]
    rows, rendered = dict(kept.rows), dict(kept.rendered)
    for user_id, name, display in kept.users:
        if user_id in touched:
            rows[user_id] = _row(name, display, [cells.get((user_id, letter)) or Cell(letter) for letter in letters])
            rendered[user_id] = _render_row(rows[user_id])
    return _ranked(_Kept(kept.shape, version, kept.board, cells, kept.users, rows, rendered), contest)


def _ranked(kept: _Kept, contest: Contest) -> _Kept:
    """``kept`` with its board's rows (new ones: earlier boards share the rows kept) ranked and
    rendered; ties keep the contestants' display order."""
    if contest.scoring == Scoring.ICPC:
        order = sorted(kept.users, key=lambda u: icpc_rank_key(kept.rows[u[0]].solved, kept.rows[u[0]].penalty))
        keys = [icpc_rank_key(kept.rows[u[0]].solved, kept.rows[u[0]].penalty) for u in order]
    else:
        order = sorted(kept.users, key=lambda u: ioi_rank_key(kept.rows[u[0]].total))
        keys = [ioi_rank_key(kept.rows[u[0]].total) for u in order]
    rows, rendered_rows = [], []
    for (user_id, _, _), rank in zip(order, competition_ranks(keys)):
        r = kept.rows[user_id]
        rows.append(Row(rank, r.user, r.display_name, r.solved, r.penalty, r.total, r.cells))
        rendered_rows.append({"rank": rank, **kept.rendered[user_id]})
    template = kept.board
    result = replace(template, rows=rows, rendered=None)
    result.rendered = {**result._render_head(), "rows": rendered_rows}
    return _Kept(kept.shape, kept.version, result, kept.cells, kept.users, kept.rows, kept.rendered)


def _row(name: str, display_name: str, cells: list[Cell]) -> Row:
    return Row(
        0,
        name,
        display_name,
        solved=sum([c.solved for c in cells]),
        penalty=sum([c.penalty for c in cells]),
        total=round(sum([c.score for c in cells]), 6),
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
