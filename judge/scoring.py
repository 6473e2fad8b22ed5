"""Contest scoring as small pure functions, one per score type (the pattern of CMS's score types,
``cms/grading/scoretypes/``): they take the attempts of one contestant on one problem, in submission
order, and return that scoreboard cell; ``competition_ranks`` ranks the rows.

- ``icpc``: ICPC World Finals rules. A problem is solved by its first AC; its time is the whole
  minutes from the contest start to that submission; penalty = that time + ``penalty_minutes`` (20)
  per rejected attempt before it. CE and JE attempts are not counted (neither is the contestant's
  fault at run time); attempts after the first AC are not counted. Rows: most solved, then least
  penalty; equal rows share a rank.
- ``ioi``: a submission judged by a package earns the share of the problem its grading gave
  (``ioi_fraction``: score / max_score of the Kattis format's test groups,
  ``judge.package.testdata.grade``; for a pass-fail package that is the fraction of tests passed)
  × the problem's points. A submission without a bounded stored score (judged before scores were kept,
  imported, unbounded) scores per test group (CMS "GroupMin": a group's points only when all its tests pass)
  when it has groups, else by the fraction of tests passed. A problem counts the best score over
  the contestant's submissions; total = sum.

A pending attempt (queued, judging, or hidden by the scoreboard freeze) has verdict None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from judge.verdicts import AC, CE, JE

NOT_COUNTED = (CE, JE)  # attempts that cost no penalty and no try
UNGROUPED = ("sample", "secret")  # the test groups of a package without scoring groups
DEFAULT_POINTS = 100


@dataclass(frozen=True)
class Attempt:
    """One submission as a scoreboard sees it: minutes since the contest start (whole minutes),
    verdict (None while pending), and for IOI its score in points."""

    minute: int
    verdict: str | None
    score: float = 0.0


@dataclass(frozen=True)
class IcpcCell:
    """An ICPC cell: ``tries`` counted attempts up to and including the first AC (rejected + 1 if
    solved), ``pending`` attempts with no verdict before any AC, the solving ``minute`` and the
    ``penalty`` in minutes (0 when unsolved)."""

    solved: bool
    tries: int
    pending: int
    minute: int | None
    penalty: int


@dataclass(frozen=True)
class IoiCell:
    """An IOI cell: the best ``score`` (points) over judged attempts, how many were judged, how many pend."""

    score: float
    judged: int
    pending: int


def contest_minute(start: datetime, at: datetime) -> int:
    """Whole minutes from ``start`` to ``at`` (floored; 0 for anything in the first minute)."""
    # whole days and seconds, exact: no float, no microseconds divided (boards call it thousands of times)
    since = at - start
    return max(0, since.days * 1440 + since.seconds // 60)


def icpc_cell(attempts: Iterable[Attempt], penalty_minutes: int = 20) -> IcpcCell:
    """Score one contestant's ``attempts`` on one problem (in submission order) by ICPC rules."""
    rejected = pending = 0
    for attempt in attempts:
        if attempt.verdict is None:
            pending += 1
        elif attempt.verdict == AC:
            return IcpcCell(True, rejected + 1, pending, attempt.minute, attempt.minute + penalty_minutes * rejected)
        elif attempt.verdict not in NOT_COUNTED:
            rejected += 1
    return IcpcCell(False, rejected, pending, None, 0)


def ioi_fraction(score: float | None, max_score: float | None) -> float | None:
    """The share (0 … 1) of a problem a graded submission earned: ``score / max_score`` clamped;
    None when it holds no graded score (``score`` or ``max_score`` None, or ``max_score`` ≤ 0)."""
    if score is None or max_score is None or max_score <= 0:
        return None
    return min(1.0, max(0.0, score / max_score))


def ioi_submission_score(groups: Mapping[str, tuple[int, int]], points: float) -> float:
    """The IOI score (points) of one judged submission from ``groups``: test group → (tests passed,
    tests run).

    With scoring groups (any group besides ``sample`` and ``secret``) each non-sample group is worth
    an equal share of ``points``, earned only when all its tests pass; otherwise the score is the
    fraction of all tests passed × ``points``. No tests (CE) scores 0.
    """
    scoring = {g: counts for g, counts in groups.items() if g not in UNGROUPED}
    if scoring:
        full = sum(1 for passed, total in scoring.values() if total and passed == total)
        return points * full / len(scoring)
    passed = sum(p for p, _ in groups.values())
    total = sum(t for _, t in groups.values())
    return points * passed / total if total else 0.0


def submission_points(
    score: float | None,
    max_score: float | None,
    groups: Mapping[str, tuple[int, int]],
    tests_passed: int | None,
    tests_total: int | None,
    points: float,
) -> float:
    """The IOI score (points) of one judged submission: its graded share (``ioi_fraction``) ×
    ``points`` when it holds one, else by its test ``groups`` (``ioi_submission_score``), else, with
    no test results stored (imported), by the counters ``tests_passed`` of ``tests_total``."""
    fraction = ioi_fraction(score, max_score)
    if fraction is not None:
        return points * fraction
    if not groups and tests_total:
        groups = {"secret": (tests_passed or 0, tests_total)}
    return ioi_submission_score(groups, points)


def problem_points(entry: object) -> int:
    """The IOI maximum of a contest problem (a ``ContestProblem``): its ``points``, 100 unless set."""
    points = getattr(entry, "points", None)
    return int(points) if points is not None else DEFAULT_POINTS


def ioi_cell(attempts: Iterable[Attempt]) -> IoiCell:
    """Score one contestant's ``attempts`` on one problem: the best judged score (CE and JE score 0)."""
    best, judged, pending = 0.0, 0, 0
    for attempt in attempts:
        if attempt.verdict is None:
            pending += 1
        else:
            judged += 1
            best = max(best, attempt.score)
    return IoiCell(best, judged, pending)


def icpc_rank_key(solved: int, penalty: int) -> tuple:
    """Sort key of an ICPC row: more solved first, then less penalty."""
    return (-solved, penalty)


def ioi_rank_key(total: float) -> tuple:
    """Sort key of an IOI row: higher total first (rounded to 1e-6 so float sums compare as equal)."""
    return (-round(total, 6),)


def competition_ranks(keys: Sequence[tuple]) -> list[int]:
    """Standard competition ranks ("1224") of rows already sorted by ``keys``: equal keys share a rank
    and the next distinct key ranks after all of them."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks
