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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from operator import itemgetter
from types import SimpleNamespace
from typing import Any, cast

from sqlalchemy import Engine, Select, bindparam, case, func, select
from sqlalchemy.orm import Session

from judge import board
from judge.clock import UtcDateTime, iso_utc, naive_utc, stored_utc, utcnow
from judge.contests import class_students, on_scoreboard, participants, problems_shown
from judge.models import Contest, ContestParticipant, ContestProblem, Problem, Submission, TestResult, User
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


CellKey = tuple[int, str]  # (user id, letter)
FirstAc = tuple[datetime, int]  # (naive UTC time, submission id): orders first solves
Firsts = dict[str, dict[int, FirstAc]]  # by letter and user id
UserCells = list[dict | None]  # a contestant's rendered cells in the order of the contest's problems


@dataclass
class Scoreboard:
    """A computed scoreboard. ``frozen``: verdicts after the freeze are hidden in this view;
    ``problems``: (letter, problem name, points) in letter order; ``rows`` in rank order.

    A board is made as what ``to_dict`` gives (its rows and cells as dicts, what the API sends);
    ``rows`` (``Row`` and ``Cell`` objects: pages, CSV, the CCS feed) are made from it when first
    read, once for the board and its copies."""

    contest_id: int
    contest_name: str
    scoring: str
    view: ScoreboardView
    frozen: bool
    computed_at: datetime
    problems: list[tuple[str, str, int]]
    rendered: dict = field(repr=False)  # to_dict's but computed_at; its rows those of ``ranked``
    ranked: _RankedRows = field(repr=False, compare=False)

    @property
    def rows(self) -> list[Row]:
        """The rows as objects, in rank order (made once, shared by the board's copies: callers
        must not change them)."""
        return self.ranked.rows()

    def to_dict(self) -> dict:
        """JSON-ready: the rows' cells without internal ids. Shared by a kept board's copies, and
        its rows that did not change by a newer board: callers must not change what it holds but
        its top-level keys."""
        return {**self.rendered, "computed_at": iso_utc(self.computed_at)}


class _RankedRows:
    """A board's rows as dicts (``to_dict``'s) in rank order with their users' ids, and the
    (naive UTC time, id) of the submission that decided each cell that has one, by letter and user
    id: what ``Scoreboard.rows`` is made from, once."""

    __slots__ = ("_made", "firsts", "rendered", "user_ids")

    def __init__(self, user_ids: list[int], rendered: list[dict], firsts: Firsts):
        self.user_ids, self.rendered, self.firsts = user_ids, rendered, firsts
        self._made: list[Row] | None = None

    def rows(self) -> list[Row]:
        """``Row`` objects of the rendered rows (two threads may both make them: equal, either kept)."""
        if self._made is None:
            firsts = self.firsts
            self._made = [
                Row(
                    r["rank"],
                    r["user"],
                    r["display_name"],
                    r["solved"],
                    r["penalty"],
                    r["total"],
                    [_cell(c, firsts[c["letter"]].get(user_id)) for c in r["cells"]],
                )
                for user_id, r in zip(self.user_ids, self.rendered)
            ]
        return self._made


def _rendered_row(user: str, display_name: str, cells: list[dict]) -> dict:
    """A row as ``to_dict`` gives it (but for its rank, which comes first) from its rendered cells in
    letter order: solved problems, penalty and total points summed over them."""
    return {
        "user": user,
        "display_name": display_name,
        "solved": sum(map(_SOLVED, cells)),
        "penalty": sum(map(_PENALTY, cells)),
        "total": round(sum(map(_SCORE, cells)), 6),
        "cells": cells,
    }


_SOLVED, _PENALTY, _SCORE = itemgetter("solved"), itemgetter("penalty"), itemgetter("score")


def _rendered_cell(cell: Cell) -> dict:
    """``cell`` as ``to_dict`` gives it: its fields but ``first_ac``."""
    return {name: getattr(cell, name) for name in _SHOWN_FIELDS}


_SHOWN_FIELDS = [f.name for f in fields(Cell) if f.name != "first_ac"]
_NO_ROWS = _RankedRows([], [], {})


def hidden_after(contest: Contest, view: ScoreboardView) -> datetime | None:
    """The time from which verdicts are hidden in ``view``: the freeze time, except for the jury or
    once the contest is unfrozen (None: nothing hidden)."""
    if view == ScoreboardView.JURY or contest.freeze_at is None or contest.unfrozen:
        return None
    return contest.freeze_at


# -- cells: the kept summary rows --------------------------------------------------------------------
def kept_cells(session: Session, contest: Contest, hide_after: datetime | None) -> dict[CellKey, Cell]:
    """Every non-empty cell, keyed by (user id, letter), from the summary rows ``judge.board`` keeps:
    the frozen variant when verdicts after ``hide_after`` (the freeze time) are hidden. Minutes and
    penalties follow from the first AC's time, the start and ``penalty_minutes``."""
    rows = board.kept_rows(session, contest, hide_after is not None)
    return _cells(*_rendered_cells(contest, rows, board.time_reader(session)))


def cells_of(contest: Contest, rows: Iterable[tuple]) -> dict[CellKey, Cell]:
    """Cells keyed by (user id, letter) from summary rows as ``judge.board.kept_rows`` has them, but
    for the time: a datetime (``judge.board.derive``'s)."""
    return _cells(*_rendered_cells(contest, rows, naive_utc))


def _cells(by_user: dict[int, UserCells], firsts: Firsts) -> dict[CellKey, Cell]:
    return {
        (user_id, c["letter"]): _cell(c, firsts[c["letter"]].get(user_id))
        for user_id, cells in by_user.items()
        for c in cells
        if c is not None
    }


def _cell(rendered: dict, first: FirstAc | None) -> Cell:
    """The ``Cell`` of a rendered cell and the (naive UTC time, id) deciding it, if any."""
    return Cell(**rendered, first_ac=(stored_utc(first[0]), first[1]) if first is not None else None)


def _rendered_cells(
    contest: Contest, rows: Iterable[tuple], read_time: Callable[[Any], datetime]
) -> tuple[dict[int, UserCells], Firsts]:
    """The cells of summary rows (as ``cells_of``, their times read by ``read_time`` as naive UTC)
    as ``to_dict`` gives them (first-solve flags unset), by user id in the order of the contest's
    problems (None: no cell), and the (naive UTC time, id) of the submission that decided each cell
    that has one, by letter and user id. A board is made from these: a dict per cell and no object
    (it makes thousands)."""
    place = {p.problem_id: (index, p.letter) for index, p in enumerate(contest.problems)}
    count = len(place)
    start, penalty = naive_utc(contest.start_at), contest.penalty_minutes
    icpc = contest.scoring == Scoring.ICPC
    by_user: dict[int, UserCells] = {}
    firsts: Firsts = {p.letter: {} for p in contest.problems}
    for user_id, problem_id, attempts, pending, score, first_id, first_at in rows:
        found = place.get(problem_id)
        if found is None:
            continue
        index, letter = found
        solved, minute, penalized = False, None, 0
        if first_id is not None:
            first_at = read_time(first_at)
            firsts[letter][user_id] = (first_at, first_id)
            if icpc:
                solved, minute = True, contest_minute(start, first_at)
                penalized = minute + penalty * (attempts - 1)
        cells = by_user.get(user_id)
        if cells is None:
            cells = by_user[user_id] = [None] * count
        cells[index] = {
            "letter": letter,
            "attempts": attempts,
            "pending": pending,
            "solved": solved,
            "minute": minute,
            "penalty": penalized,
            "score": score,
            "first_solve": False,
        }
    return by_user, firsts


def _given_cells(contest: Contest, given: dict[CellKey, Cell]) -> tuple[dict[int, UserCells], Firsts]:
    """``given`` cells as ``_rendered_cells`` gives its own."""
    index_of = {p.letter: index for index, p in enumerate(contest.problems)}
    by_user: dict[int, UserCells] = {}
    firsts: Firsts = {letter: {} for letter in index_of}
    for (user_id, letter), cell in given.items():
        if letter in index_of:
            by_user.setdefault(user_id, [None] * len(index_of))[index_of[letter]] = _rendered_cell(cell)
            if cell.first_ac is not None:
                firsts[letter][user_id] = (naive_utc(cell.first_ac[0]), cell.first_ac[1])
    return by_user, firsts


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
    (``board_key`` without the version), the board ``version`` it shows, its contestants (id, name,
    display name) in display order, each one's rendered row (no rank; its cells with their
    first-solve flags) by user id, and the (naive UTC time, id) deciding each cell that has one by
    letter and user id. Never changed once made: a newer one shares what did not change."""

    shape: tuple
    version: int
    board: Scoreboard
    users: list[tuple[int, str, str]]
    rows: dict[int, dict]
    firsts: Firsts


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
    given: dict[CellKey, Cell] | None,
) -> _Kept:
    """The board read anew: from the cells ``given``, else from the kept rows."""
    hide_after = hidden_after(contest, view)
    shown = contest.problems if problems_shown(contest, view == ScoreboardView.JURY, now) else []
    by_user: dict[int, UserCells]
    firsts: Firsts
    if not shown:
        by_user, firsts = {}, {}
    elif given is not None:
        by_user, firsts = _given_cells(contest, given)
    else:
        kept = board.kept_rows(session, contest, hide_after is not None)
        by_user, firsts = _rendered_cells(contest, kept, board.time_reader(session))
    connection = session.connection()
    names = dict(connection.execute(_NAMES, {"ids": [p.problem_id for p in shown]}).all())
    problems = [(p.letter, names.get(p.problem_id, p.problem_id), problem_points(p)) for p in shown]
    _mark_first_solves(by_user, firsts, shown)
    window = {"contest_id": contest.id, "start": contest.start_at, "end": contest.end_at}
    users = [(u, name, display) for u, name, display in connection.execute(_USERS[contest.all_students], window)]
    empty = [_rendered_cell(Cell(p.letter)) for p in shown]  # shared by the rows without that cell
    rows = {}
    for user_id, name, display in users:
        cells = by_user.get(user_id)
        rows[user_id] = _rendered_row(name, display, empty if cells is None else _filled(cells, empty))
    frozen = hide_after is not None and now >= hide_after
    unranked = Scoreboard(contest.id, contest.name, contest.scoring, view, frozen, now, problems, {}, _NO_ROWS)
    return _ranked(_Kept(shape, version, unranked, users, rows, firsts), contest)


def _filled(cells: UserCells, empty: list[dict]) -> list[dict]:
    """``cells`` with each missing one the empty cell of its problem."""
    return cast(list[dict], cells) if None not in cells else [c or e for c, e in zip(cells, empty)]


def _patch(session: Session, contest: Contest, kept: _Kept, version: int) -> _Kept | None:
    """``kept`` brought to ``version`` from the cells stamped after its own (see
    ``compute_scoreboard``); None when it must be read anew (a changed cell of a contestant it does
    not list)."""
    if not kept.board.problems:  # no cells shown (the public view before the start)
        return replace(kept, version=version)
    hide_after = hidden_after(contest, kept.board.view)
    stamped = board.changed_rows(session, contest, hide_after is not None, kept.version)
    changed, changed_firsts = _rendered_cells(contest, stamped, board.time_reader(session))
    if any(user_id not in kept.rows for user_id in changed):
        return None
    cells = {user_id: _filled(new, kept.rows[user_id]["cells"]) for user_id, new in changed.items()}
    firsts = dict(kept.firsts)
    for index, p in enumerate(contest.problems):
        updated = {user_id for user_id, new in changed.items() if new[index] is not None}
        if not updated:
            continue
        mine = firsts[p.letter] = {u: first for u, first in firsts[p.letter].items() if u not in updated}
        mine.update(changed_firsts[p.letter])
        best = None  # its first solve, as _mark_first_solves finds it, among the contestants listed
        for user_id, first in mine.items():
            if user_id in kept.rows and _row_cells(cells, kept, user_id)[index]["solved"]:
                if best is None or first < best[0]:
                    best = (first, user_id)
        for user_id, _, _ in kept.users:
            cell = _row_cells(cells, kept, user_id)[index]
            if cell["first_solve"] != (best is not None and best[1] == user_id):
                cells.setdefault(user_id, list(kept.rows[user_id]["cells"]))[index] = {
                    **cell,
                    "first_solve": not cell["first_solve"],
                }
    rows = dict(kept.rows)
    for user_id, row_cells in cells.items():
        rows[user_id] = _rendered_row(rows[user_id]["user"], rows[user_id]["display_name"], row_cells)
    return _ranked(_Kept(kept.shape, version, kept.board, kept.users, rows, firsts), contest)


def _row_cells(cells: dict[int, list[dict]], kept: _Kept, user_id: int) -> list[dict]:
    """The cells of a contestant's row being patched: made anew (``cells``), else as kept."""
    found = cells.get(user_id)
    return found if found is not None else kept.rows[user_id]["cells"]


def _ranked(kept: _Kept, contest: Contest) -> _Kept:
    """``kept`` with its board's rows (new ones: earlier boards share the rows kept) ranked;
    ties keep the contestants' display order."""
    rows = kept.rows
    if contest.scoring == Scoring.ICPC:
        keys = [icpc_rank_key(rows[user_id]["solved"], rows[user_id]["penalty"]) for user_id, _, _ in kept.users]
    else:
        keys = [ioi_rank_key(rows[user_id]["total"]) for user_id, _, _ in kept.users]
    order = sorted(range(len(keys)), key=keys.__getitem__)  # stable: ties in display order
    user_ids = [kept.users[i][0] for i in order]
    ranks = competition_ranks([keys[i] for i in order])
    rendered = [{"rank": rank, **rows[user_id]} for user_id, rank in zip(user_ids, ranks)]
    template = kept.board
    made = replace(
        template,
        rendered={**_rendered_head(template), "rows": rendered},
        ranked=_RankedRows(user_ids, rendered, kept.firsts),
    )
    return replace(kept, board=made)


def _rendered_head(board: Scoreboard) -> dict:
    """``to_dict``'s keys before the rows."""
    return {
        "contest": board.contest_id,
        "name": board.contest_name,
        "scoring": board.scoring,
        "view": board.view,
        "frozen": board.frozen,
        "problems": [{"letter": l, "name": n, "points": p} for l, n, p in board.problems],
    }


def _mark_first_solves(by_user: dict[int, UserCells], firsts: Firsts, problems: list[ContestProblem]) -> None:
    """Flag, per problem, the rendered cell holding the earliest shown AC (by submission time, then
    id; ``firsts``: the (naive UTC time, id) deciding each cell that has one, by letter and user)."""
    for index, p in enumerate(problems):
        best = None
        for user_id, first in firsts[p.letter].items():
            if by_user[user_id][index]["solved"] and (best is None or first < best[0]):  # type: ignore[index]
                best = (first, user_id)
        if best is not None:
            by_user[best[1]][index]["first_solve"] = True  # type: ignore[index]


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
