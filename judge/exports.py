"""Exports for spreadsheets: ``scoreboard.csv``, ``grades.csv`` and a contest's clarifications,
written by one CSV writer (``csv_text``) that both the API and the command line use.

Format: RFC 4180 CSV (comma, ``"`` quoting, CRLF line ends) in UTF-8 with a byte order mark, so
Excel and LibreOffice show ``Ștefan`` and not ``È˜tefan``. Text cells that a spreadsheet would read
as a formula (OWASP "CSV Injection": a first character ``=``, ``+``, ``-``, ``@``, tab, carriage
return, line feed or a full-width ``＝＋－＠``, also after leading spaces) get a leading ``'``, which
spreadsheets show as text. Numbers are written as numbers.

Columns (ICPC / IOI):

- scoreboard.csv: rank, user, display name, then ICPC: solved, attempts, penalty (minutes), pending;
  IOI: total (points), attempts, pending; then per problem (headed ``A: Problem name``) ICPC: two
  columns, its attempts up to the first AC and the contest minute of that AC (empty if unsolved);
  IOI: the score.
- grades.csv (one row per contestant, by user name): user, display name, rank, per problem (ICPC:
  1 solved, 0 not; IOI: the score), then ICPC: solved, attempts, penalty; IOI: total, attempts.

- clarifications: id, asked at, problem (letter; empty: general), asker (empty: an announcement or
  not shown to this reader), question, answer, to (``everyone`` or ``asker``; empty while it waits),
  answered at; times as the API writes them (ISO 8601, UTC).

``attempts`` counts the shown attempts that cost or earn something (ICPC: up to the first AC);
``pending``: attempts without a shown verdict (queued, judging, or after the freeze).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping

from judge.scoreboard import Cell, Row, Scoreboard
from judge.vocabulary import Scoring

BOM = "\ufeff"
FORMULA_STARTS = frozenset("=+-@\t\r\n＝＋－＠")
Value = str | int | float | None


def safe_cell(value: Value) -> Value:
    """``value`` as a spreadsheet reads it literally: text starting (after spaces) with a formula
    character gets a leading ``'``; numbers and None are left alone."""
    if isinstance(value, str) and value and (value[0] in FORMULA_STARTS or value.lstrip(" ")[:1] in FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(rows: Iterable[Iterable[Value]]) -> str:
    """``rows`` as CSV text (module docstring: RFC 4180, byte order mark first, cells made safe)."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([safe_cell(value) for value in row])
    return out.getvalue()


def _points(value: float) -> int | float:
    """Points rounded to two decimals; a whole number as an int (``50``, ``33.33``)."""
    rounded = round(value, 2)
    return int(rounded) if rounded == int(rounded) else rounded


def _problem_heads(board: Scoreboard) -> list[str]:
    return [f"{letter}: {name}" for letter, name, _ in board.problems]


def _attempts(row: Row) -> int:
    return sum(c.attempts for c in row.cells)


def _icpc_cells(cell: Cell) -> list[Value]:
    return [cell.attempts, cell.minute if cell.solved else None]


def scoreboard_rows(board: Scoreboard) -> list[list[Value]]:
    """The scoreboard's table, header first (columns in the module docstring)."""
    heads = _problem_heads(board)
    if board.scoring == Scoring.ICPC:
        header: list[Value] = ["rank", "user", "display name", "solved", "attempts", "penalty", "pending"]
        header += [f"{head} ({what})" for head in heads for what in ("attempts", "minute")]
    else:
        header = ["rank", "user", "display name", "total", "attempts", "pending", *heads]
    rows: list[list[Value]] = [header]
    for row in board.rows:
        pending = sum(c.pending for c in row.cells)
        if board.scoring == Scoring.ICPC:
            totals: list[Value] = [row.solved, _attempts(row), row.penalty, pending]
            cells = [value for c in row.cells for value in _icpc_cells(c)]
        else:
            totals, cells = [_points(row.total), _attempts(row), pending], [_points(c.score) for c in row.cells]
        rows.append([row.rank, row.user, row.display_name, *totals, *cells])
    return rows


def grades_rows(board: Scoreboard) -> list[list[Value]]:
    """The grade book's table, header first, one row per contestant by user name (columns in the
    module docstring). Meant for the jury view (live results)."""
    icpc = board.scoring == Scoring.ICPC
    header: list[Value] = ["user", "display name", "rank", *_problem_heads(board)]
    header += ["solved", "attempts", "penalty"] if icpc else ["total", "attempts"]
    rows: list[list[Value]] = [header]
    for row in sorted(board.rows, key=lambda r: r.user):
        cells = [int(c.solved) if icpc else _points(c.score) for c in row.cells]
        totals: list[Value] = (
            [row.solved, _attempts(row), row.penalty] if icpc else [_points(row.total), _attempts(row)]
        )
        rows.append([row.user, row.display_name, row.rank, *cells, *totals])
    return rows


def scoreboard_csv(board: Scoreboard) -> str:
    """``scoreboard.csv``: ``scoreboard_rows`` through ``csv_text``."""
    return csv_text(scoreboard_rows(board))


def grades_csv(board: Scoreboard) -> str:
    """``grades.csv``: ``grades_rows`` through ``csv_text``."""
    return csv_text(grades_rows(board))


CLARIFICATION_COLUMNS = ("id", "asked at", "problem", "asker", "question", "answer", "to", "answered at")


def clarifications_csv(rows: Iterable[Mapping[str, object]]) -> str:
    """A contest's clarifications as CSV (columns in the module docstring), from the API's
    clarification objects (``judge.api.clarifications.ClarificationOut`` as JSON)."""

    def to(row: Mapping[str, object]) -> str:
        return "" if row.get("answer") is None else "everyone" if row.get("public") else "asker"

    table: list[list[Value]] = [list(CLARIFICATION_COLUMNS)]
    for row in rows:
        cells = [_cell(row.get(key)) for key in ("id", "asked_at", "problem", "asker", "question", "answer")]
        table.append([*cells, to(row), _cell(row.get("answered_at"))])
    return csv_text(table)


def _cell(value: object) -> Value:
    """A JSON value as a cell: text and whole numbers as they are, anything else empty."""
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else None
