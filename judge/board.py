"""The kept scoreboard: one summary row per (contest, contestant, problem) (``BoardCell``), kept in
the same transaction as every change of the submissions that count, and a version per contest
(``Contest.board_version``) bumped in every transaction that changes what a board shows.

What counts (``counted``): the non-jury submissions of the contest's problems made in its window
``[start_at, end_at)`` as the contest is now. A cell is derived from those submissions of one
contestant on one problem, in id order, through ``judge.scoring`` (``icpc_cell``, ``ioi_cell``),
twice: ``live`` (every verdict; the jury's view, and the public one once unfrozen) and ``frozen``
(submissions made at or after ``freeze_at`` pending). Minutes and penalties are not stored: they
follow from ``first_at``, ``start_at`` and ``penalty_minutes`` when the board is read.

Who keeps it:
- ``refresh`` re-derives the cells of given (contest, user, problem) keys: ``judge.lifecycle`` calls
  it for its bulk statements (finished, ended as JE, rejudged), and ``keep`` makes every session of
  a factory call it at commit for the submissions it added, changed or deleted as objects (a new
  submission, an imported one with its test results);
- ``rebuild`` re-derives a whole contest: a window, freeze, scoring or problem-set edit
  (``judge.contests.edit_contest``) and the migration that creates the table;
- ``bump`` alone, where only the rows of a board change (participants, class members, new
  accounts, problem names) or the view does (unfreeze).

Stamps: every transaction that writes cells first advances the contest's version (on PostgreSQL
that takes the contest's row lock, so versions are handed out in commit order) and stamps each row
it writes with it (``BoardCell.version``). A change the stamps cannot describe (a rebuild, a
``bump``, a cell deleted) also sets ``Contest.board_base_version`` to its version. So a board read at
version ``v`` ≥ the base version is brought up to date by the cells stamped after ``v``
(``changed_rows``); an older one must be read anew (``kept_rows``).

A cell's derivation reads one index range (``ix_submissions_scoreboard``) and, for IOI submissions
without a stored graded score, their test results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime
from itertools import groupby
from types import SimpleNamespace
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    DateTime,
    Table,
    and_,
    bindparam,
    case,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker

from judge.models import BoardCell, Contest, ContestProblem, Submission, TestResult
from judge.scoring import Attempt, icpc_cell, ioi_cell, problem_points, submission_points
from judge.verdicts import AC
from judge.vocabulary import Scoring, Status

CellKey = tuple[int, int, str]  # (contest id, user id, problem id)
CELLS, CONTESTS = cast(Table, BoardCell.__table__), cast(Table, Contest.__table__)
VARIANTS = ("live", "frozen")


def in_window(contest: Contest | Any, s: type[Submission] | Any = Submission) -> list[ColumnElement[bool]]:
    """SQL conditions: the submission (``s``: the table or an alias) was made in the contest's
    window ``[start_at, end_at)`` as it is now. Only these count on a scoreboard, so moving the start
    or the end re-decides what counts; the others keep their verdicts for their authors."""
    return [s.created_at >= contest.start_at, s.created_at < contest.end_at]


def counted(contest: Contest | Any, s: type[Submission] | Any = Submission) -> list[ColumnElement[bool]]:
    """SQL conditions: a non-jury submission of a contestant to ``contest`` (its ``id``, ``start_at``
    and ``end_at``: values, or bound parameters) made in its window."""
    return [s.contest_id == contest.id, s.is_jury.is_(False), s.user_id.is_not(None), *in_window(contest, s)]


# -- versions -----------------------------------------------------------------------------------------
def bump(session: Session, contest_ids: Iterable[int]) -> None:
    """Advance the board version of these contests and make it their base version (a change their
    cells' stamps do not describe), in the caller's transaction. A rendered board is cached under
    its version (``judge.scoreboard``)."""
    connection = session.connection()
    for contest_id in sorted(set(contest_ids)):  # in id order: concurrent bumps take row locks alike
        connection.execute(_STATEMENTS.bump, {"contest_id": contest_id})


def version(session: Session, contest_id: int) -> int:
    """The board version of contest ``contest_id`` as committed (or as this transaction changed it)."""
    return versions(session, contest_id)[0]


def versions(session: Session, contest_id: int) -> tuple[int, int]:
    """(board version, base version) of contest ``contest_id`` as committed (or as this transaction
    changed them), in one query; (0, 0) for an unknown contest. A board read at a version ≥ the base
    version is made current by the cells stamped after it (``changed_rows``)."""
    found = session.connection().execute(_STATEMENTS.versions, {"contest_id": contest_id}).first()
    return (found[0], found[1]) if found else (0, 0)


# -- keeping ------------------------------------------------------------------------------------------
_NOTED = "judge.board.keys"  # session.info: the cells of submissions flushed since the last commit
_CELL_COLUMNS = ("contest_id", "user_id", "problem_id", "is_jury")


def keep(factory: sessionmaker) -> sessionmaker:
    """Make the sessions of ``factory`` keep the scoreboard: the cells of every submission added,
    changed or deleted through the session's objects are re-derived (``refresh``) just before the
    transaction commits, in it. Bulk statements (``update(Submission)``) are not seen: their callers
    call ``refresh`` themselves (``judge.lifecycle``). Returns ``factory``."""
    event.listen(factory, "after_flush", _note)
    event.listen(factory, "before_commit", _refresh_noted)
    event.listen(factory, "after_rollback", lambda session: session.info.pop(_NOTED, None))
    return factory


def _note(session: Session, _context: object) -> None:
    noted = session.info.setdefault(_NOTED, set())
    for obj in (*session.new, *session.dirty, *session.deleted):
        if not isinstance(obj, Submission):
            continue
        state = inspect(obj)
        now, before = [], []
        for name in _CELL_COLUMNS:
            history = state.attrs[name].history
            now.append(getattr(obj, name))
            before.append(history.deleted[0] if history.deleted else getattr(obj, name))
        for values in (now, before):
            key = key_of(SimpleNamespace(**dict(zip(_CELL_COLUMNS, values))))
            if key is not None:
                noted.add(key)


def _refresh_noted(session: Session) -> None:
    session.flush()
    noted = session.info.pop(_NOTED, None)
    if noted:
        refresh(session, noted)
        session.info.pop(_NOTED, None)


def refresh(session: Session, keys: Iterable[CellKey]) -> None:
    """Re-derive the cells of ``keys`` (contest id, user id, problem id) from their submissions,
    stamped with their contests' versions advanced first, in the caller's transaction (flushed
    first). Per contest one update of its version; one query for the contests' settings; per
    (contest, problem): one query for the submissions (IOI: with their test results per group where
    they hold no graded score), one upsert, and a delete only for a cell left empty (which, when it
    removes a row, makes the version the contest's base)."""
    users: dict[tuple[int, str], set[int]] = defaultdict(set)
    for contest_id, user_id, problem_id in keys:
        users[(contest_id, problem_id)].add(user_id)
    if not users:
        return
    session.flush()
    connection = session.connection()
    stamps = {  # first, in id order: the contest's row lock orders concurrent refreshes by version
        contest_id: connection.execute(_STATEMENTS.stamp, {"contest_id": contest_id}).scalar()
        for contest_id in sorted({contest_id for contest_id, _ in users})
    }
    contests = _contests(session, set(stamps))
    for (contest_id, problem_id), user_ids in users.items():
        contest = contests.get(contest_id)
        if contest is None:
            continue
        if problem_id not in {p.problem_id for p in contest.problems}:  # no cell, but on the board's rows
            connection.execute(_STATEMENTS.rebase, {"contest_id": contest_id})
            continue
        rows = derive(session, contest, problem_id, sorted(user_ids), stamps[contest_id] or 0)
        if rows:
            connection.execute(_upsert(connection.dialect.name), rows)
        empty = sorted(user_ids - {row["user_id"] for row in rows})
        if empty:
            deleted = connection.execute(
                _STATEMENTS.delete_cells, {"contest_id": contest_id, "problem_id": problem_id, "users": empty}
            )
            if deleted.rowcount:
                connection.execute(_STATEMENTS.rebase, {"contest_id": contest_id})


def _contests(session: Session, ids: set[int]) -> dict[int, Any]:
    """The settings a derivation reads (id, window, freeze, scoring, problems with their
    points) of the contests ``ids`` as this transaction sees them, one query each: a worker's session
    holds no contest, and a session that does may hold it as it was before another's edit."""
    found: dict[int, Any] = {}
    connection = session.connection()
    for contest_id in sorted(ids):
        for cid, start, end, freeze, scoring, problem_id, points in connection.execute(
            _STATEMENTS.settings, {"contest_id": contest_id}
        ):
            contest = found.setdefault(
                cid,
                SimpleNamespace(id=cid, start_at=start, end_at=end, freeze_at=freeze, scoring=scoring, problems=[]),
            )
            if problem_id is not None:
                contest.problems.append(SimpleNamespace(problem_id=problem_id, points=points))
    return found


def rebuild(session: Session, contest: Contest) -> None:
    """Re-derive every cell of ``contest`` from its submissions, stamped with its version advanced
    first and made its base version, in the caller's transaction (flushed first)."""
    session.flush()
    connection = session.connection()
    stamp = connection.execute(_STATEMENTS.bump, {"contest_id": contest.id}).scalar()
    connection.execute(delete(CELLS).where(CELLS.c.contest_id == contest.id))
    rows = derive(session, contest, stamp=stamp or 0)
    for start in range(0, len(rows), 2000):
        connection.execute(insert(CELLS), rows[start : start + 2000])


class _Statements:
    """The statements that keep the board, built once with bound parameters: a verdict's refresh
    then spends no time building SQL expressions (compiled forms are cached by SQLAlchemy)."""

    def __init__(self) -> None:
        s, t, cells, contests = Submission.__table__.c, TestResult.__table__.c, CELLS.c, CONTESTS.c
        self.columns = [
            s.id, s.user_id, s.problem_id, s.status, s.verdict, s.created_at, s.score, s.max_score, s.tests_passed,
            s.tests_total,
        ]  # fmt: skip
        any_contest = SimpleNamespace(
            id=bindparam("contest_id"),
            start_at=bindparam("start", type_=s.created_at.type),
            end_at=bindparam("end", type_=s.created_at.type),
        )
        chosen = [*counted(any_contest, s), s.problem_id.in_(bindparam("problems", expanding=True))]
        one_problem = [s.problem_id == bindparam("problem_id"), s.user_id.in_(bindparam("users", expanding=True))]
        order = (s.user_id, s.problem_id, s.id)
        self.contest = select(*self.columns).where(*chosen).order_by(*order)
        # a cell's: its problem is one of the contest's (``refresh`` checks), so no list of them to expand
        self.cells = select(*self.columns).where(*counted(any_contest, s), *one_problem).order_by(*order)
        # IOI: a submission that holds no graded score is scored from its test results per group. A
        # cell's come in its submissions' statement (one row per group, one row with no group where
        # none is needed); a whole contest's apart, as joined they would sort every submission's
        # columns with each of its test results
        no_share = or_(s.score.is_(None), s.max_score.is_(None), s.max_score <= 0)
        scored_by_tests = and_(t.submission_id == s.id, t.attempt == s.attempt, s.status == Status.DONE, no_share)
        self.contest_groups = (
            select(s.id, t.test_group, func.count(), func.sum(case((t.verdict == AC, 1), else_=0)))
            .select_from(Submission.__table__.join(TestResult.__table__, scored_by_tests))
            .where(*chosen)
            .group_by(s.id, t.test_group)
        )
        with_groups = (
            select(
                *self.columns,
                t.test_group,
                func.count(t.submission_id).label("group_tests"),
                func.sum(case((t.verdict == AC, 1), else_=0)).label("group_passed"),
            )
            .select_from(Submission.__table__.outerjoin(TestResult.__table__, scored_by_tests))
            .group_by(s.id, t.test_group)
        )
        self.cells_with_groups = with_groups.where(*counted(any_contest, s), *one_problem).order_by(*order)
        p = cast(Table, ContestProblem.__table__).c
        self.settings = (
            select(
                contests.id,
                contests.start_at,
                contests.end_at,
                contests.freeze_at,
                contests.scoring,
                *p["problem_id", "points"],
            )
            .select_from(CONTESTS.outerjoin(ContestProblem.__table__, p.contest_id == contests.id))
            .where(contests.id == bindparam("contest_id"))
        )
        self.delete_cells = delete(CELLS).where(
            cells.contest_id == bindparam("contest_id"),
            cells.problem_id == bindparam("problem_id"),
            cells.user_id.in_(bindparam("users", expanding=True)),
        )
        this_contest = update(CONTESTS).where(contests.id == bindparam("contest_id"))
        advanced = contests.board_version + 1
        self.stamp = this_contest.values(board_version=advanced).returning(contests.board_version)
        self.bump = this_contest.values(board_version=advanced, board_base_version=advanced).returning(
            contests.board_version
        )
        self.rebase = this_contest.values(board_base_version=contests.board_version)
        self.versions = select(contests.board_version, contests.board_base_version).where(
            contests.id == bindparam("contest_id")
        )
        self.upserts: dict[str, Any] = {}
        self.kept = [
            select(
                cells.user_id,
                cells.problem_id,
                *(cells[f"{variant}_{name}"] for name in ("attempts", "pending", "score", "first_id", "first_at")),
            ).where(cells.contest_id == bindparam("contest_id"))
            for variant in VARIANTS
        ]
        self.changed = [kept.where(cells.version > bindparam("since")) for kept in self.kept]


_STATEMENTS = _Statements()


def _upsert(dialect: str) -> Any:
    """INSERT … ON CONFLICT (the cell) DO UPDATE of every kept column, in ``dialect`` (SQLite or PostgreSQL)."""
    if dialect not in _STATEMENTS.upserts:
        module = postgresql if dialect == "postgresql" else sqlite
        statement = module.insert(CELLS)
        kept = [c.name for c in CELLS.columns if not c.primary_key]
        _STATEMENTS.upserts[dialect] = statement.on_conflict_do_update(
            index_elements=["contest_id", "user_id", "problem_id"],
            set_={name: statement.excluded[name] for name in kept},
        )
    return _STATEMENTS.upserts[dialect]


def derive(
    session: Session,
    contest: Contest | Any,
    problem_id: str | None = None,
    users: list[int] | None = None,
    stamp: int = 0,
) -> list[dict]:
    """The ``BoardCell`` rows (column dicts, ``version`` = ``stamp``) of ``contest`` over its counted
    submissions (of ``users`` on ``problem_id``, one of the contest's problems, when given): one per
    (contestant, problem of the contest) with any."""
    entries = {p.problem_id: p for p in contest.problems}
    if not entries:
        return []
    params: dict[str, object] = {
        "contest_id": contest.id,
        "start": contest.start_at,
        "end": contest.end_at,
        "problems": sorted(entries),
    }
    one = problem_id is not None
    if one:
        params.update(problem_id=problem_id, users=users or [])
    connection = session.connection()
    groups: dict[int, dict[str, tuple[int, int]]] = defaultdict(dict)
    if contest.scoring == Scoring.ICPC or not one:
        submissions = connection.execute(_STATEMENTS.cells if one else _STATEMENTS.contest, params).all()
        if contest.scoring != Scoring.ICPC:
            for sid, group, total, passed in connection.execute(_STATEMENTS.contest_groups, params):
                groups[sid][group] = (int(passed or 0), int(total))
    else:
        submissions = []
        for r in connection.execute(_STATEMENTS.cells_with_groups, params).all():
            if not submissions or submissions[-1].id != r.id:
                submissions.append(r)
            if r.group_tests:
                groups[r.id][r.test_group] = (int(r.group_passed or 0), int(r.group_tests))
    rows = []
    for (user_id, problem_id_), cell in groupby(submissions, key=lambda r: (r.user_id, r.problem_id)):
        history = list(cell)
        row: dict[str, object] = {
            "contest_id": contest.id,
            "user_id": user_id,
            "problem_id": problem_id_,
            "version": stamp,
        }
        live, frozen = _variants(contest, problem_points(entries[problem_id_]), history, groups)
        for variant, values in zip(VARIANTS, (live, frozen)):
            row.update({f"{variant}_{name}": value for name, value in values.items()})
        rows.append(row)
    return rows


_PENDING = Attempt(0, None, 0.0)  # an attempt whose verdict is not shown


def _variants(contest: Contest | Any, points: int, history: list, groups: dict) -> tuple[dict, dict]:
    """The live and the frozen variant of a cell: ``history`` (submission rows in id order) replayed
    through ``judge.scoring``, every verdict shown, then with the verdicts of submissions made at or
    after the freeze pending. Each submission is scored once; with nothing at or after the freeze
    both variants are one."""
    scored = contest.scoring != Scoring.ICPC
    live = [
        (
            Attempt(
                0,
                r.verdict,
                submission_points(r.score, r.max_score, groups.get(r.id, {}), r.tests_passed, r.tests_total, points)
                if scored
                else 0.0,
            )
            if r.status == Status.DONE
            else _PENDING
        )
        for r in history
    ]
    freeze = contest.freeze_at
    shown = _fold(contest, history, live)
    if freeze is None or all(r.created_at < freeze for r in history):
        return shown, shown
    return shown, _fold(contest, history, [a if r.created_at < freeze else _PENDING for r, a in zip(history, live)])


def _fold(contest: Contest | Any, history: list, attempts: list[Attempt]) -> dict:
    """One variant of a cell from ``history`` (submission rows in id order) and their ``attempts``
    as that variant shows them, through ``judge.scoring``."""
    if contest.scoring != Scoring.ICPC:
        ioi = ioi_cell(attempts)
        best = ioi.score
        first = next((r for r, a in zip(history, attempts) if best > 0 and a.verdict and a.score == best), None)
        return {
            "attempts": ioi.judged,
            "pending": ioi.pending,
            "score": best,
            "first_id": first.id if first else None,
            "first_at": first.created_at if first else None,
        }
    icpc = icpc_cell(attempts)  # the penalty is not kept: it follows from the tries when read
    first = next((r for r, a in zip(history, attempts) if a.verdict == AC), None)
    return {
        "attempts": icpc.tries,
        "pending": icpc.pending,
        "score": 0.0,
        "first_id": first.id if first else None,
        "first_at": first.created_at if first else None,
    }


# -- reading ------------------------------------------------------------------------------------------
def kept_rows(session: Session, contest: Contest, frozen: bool) -> list[tuple]:
    """The kept cells of ``contest`` as (user id, problem id, attempts, pending, score, first AC id,
    first AC time) from the ``frozen`` variant or the live one (see ``BoardCell``), as the
    database's driver returns them: ``time_reader`` reads the time. Plain tuples from the driver's
    cursor: a board reads thousands, and SQLAlchemy's rows and its result type for the time
    (``UtcDateTime``) would cost as much again as the driver."""
    return _driver_rows(session, _STATEMENTS.kept[frozen], {"contest_id": contest.id})


def changed_rows(session: Session, contest: Contest, frozen: bool, since: int) -> list[tuple]:
    """The kept cells of ``contest`` (as ``kept_rows``) stamped after board version ``since``: with
    ``since`` ≥ the base version (``versions``), every cell that changed since then."""
    return _driver_rows(session, _STATEMENTS.changed[frozen], {"contest_id": contest.id, "since": since})


def _driver_rows(session: Session, statement: Any, params: dict) -> list[tuple]:
    result = session.connection().execute(statement, params)
    try:
        return cast(list[tuple], result.cursor.fetchall())
    finally:
        result.close()


_TIME_READERS: dict[str, Callable[[Any], datetime]] = {}


def time_reader(session: Session) -> Callable[[Any], datetime]:
    """The function reading a time as the session's database driver returns it (not None; in
    ``kept_rows``) as a naive UTC datetime, as the dialect's ``DateTime`` does (SQLite keeps text)."""
    dialect = session.get_bind().dialect
    reader = _TIME_READERS.get(dialect.name)
    if reader is None:
        parse = DateTime().dialect_impl(dialect).result_processor(dialect, None)
        reader = _TIME_READERS[dialect.name] = cast(Callable[[Any], datetime], parse or _as_is)
    return reader


def _as_is(value: datetime) -> datetime:
    return value


def key_of(submission: Submission | Any) -> CellKey | None:
    """The cell a submission (a row or an object with ``contest_id``, ``user_id``, ``problem_id``,
    ``is_jury``) belongs to; None when it is on no board (practice, jury, no author)."""
    if submission.contest_id is None or submission.user_id is None or submission.is_jury:
        return None
    return (submission.contest_id, submission.user_id, submission.problem_id)
