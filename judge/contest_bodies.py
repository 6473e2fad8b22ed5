"""The request bodies of a contest (``POST``/``PATCH /api/v1/contests``) and how they become
``judge.contests`` calls. The API's routes (``judge.api.contests``) and the teacher's contest form
(``judge.web.teacher.contests``) both read contests through these, so both refuse the same things."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.clock import utcnow
from judge.contests import ProblemEntry
from judge.models import Contest, User
from judge.schemas import (
    MAX_CONTEST_PROBLEMS,
    MAX_PARTICIPANTS,
    MAX_PENALTY_MINUTES,
    MAX_POINTS,
    RequestBody,
    RowId,
    Text,
    UtcTime,
)


class ContestProblemIn(RequestBody):
    """A contest problem: the problem id, its letter (default: by position, A, B, …), IOI points (100)."""

    problem: Text = Field(min_length=1, max_length=64)
    letter: Text | None = Field(default=None, max_length=8)
    points: int | None = Field(default=None, gt=0, le=MAX_POINTS)


class ContestPatch(RequestBody):
    """Changes to a contest; fields left out stay, an unknown field is refused (422), and null only
    means something for ``participants`` and ``classes`` (none listed; both none: every student takes
    part) and ``freeze_at`` (no freeze). ``participants`` are login names, ``classes`` class ids
    (``/api/v1/classes``): a teacher names only its own classes and the students it sees.
    Times are ISO 8601 (without a zone: UTC); penalty in minutes. Moving ``end_at`` moves the freeze
    with it (the last N minutes stay frozen) unless ``freeze_at`` is sent too. ``unfrozen`` true lifts
    the freeze once the contest is over, false puts it back; ``archived`` true hides the contest from
    everyone but its jury and closes it to submissions."""

    name: Text | None = Field(default=None, min_length=1, max_length=200)
    start_at: UtcTime | None = None
    end_at: UtcTime | None = None
    freeze_at: UtcTime | None = None
    scoring: Literal["icpc", "ioi"] | None = None
    problems: list[ContestProblemIn] | None = Field(default=None, min_length=1, max_length=MAX_CONTEST_PROBLEMS)
    participants: list[Text] | None = Field(default=None, max_length=MAX_PARTICIPANTS)
    classes: list[RowId] | None = Field(default=None, max_length=MAX_CONTEST_PROBLEMS)
    scoreboard_visibility: Literal["public", "participants", "jury"] | None = None
    show_test_details: bool | None = None
    penalty_minutes: int | None = Field(default=None, ge=0, le=MAX_PENALTY_MINUTES)
    unfrozen: bool | None = None
    archived: bool | None = None


class ContestIn(ContestPatch):
    """A new contest: name, window, problems (required), the rest as in ``ContestPatch``."""

    name: Text = Field(min_length=1, max_length=200)
    start_at: UtcTime
    end_at: UtcTime
    problems: list[ContestProblemIn] = Field(min_length=1, max_length=MAX_CONTEST_PROBLEMS)
    scoring: Literal["icpc", "ioi"] = "icpc"  # Literal types: the values of Scoring and Visibility
    scoreboard_visibility: Literal["public", "participants", "jury"] = "participants"
    show_test_details: bool = False
    penalty_minutes: int = Field(default=20, ge=0, le=MAX_PENALTY_MINUTES)
    unfrozen: None = Field(default=None, description="not for a new contest")
    archived: None = Field(default=None, description="not for a new contest")


def _entries(problems: list[ContestProblemIn]) -> list[ProblemEntry]:
    auto = rules.letters_for([p.problem for p in problems])
    return [ProblemEntry(p.letter or a.letter, p.problem, p.points) for p, a in zip(problems, auto)]


def contest_spec(body: ContestIn) -> rules.ContestSpec:
    """The ``judge.contests.ContestSpec`` of a validated new contest (letters A, B, … where none is given)."""
    return rules.ContestSpec(
        name=body.name,
        start_at=body.start_at,
        end_at=body.end_at,
        freeze_at=body.freeze_at,
        problems=_entries(body.problems),
        scoring=body.scoring,
        participants=body.participants,
        classes=body.classes,
        scoreboard_visibility=body.scoreboard_visibility,
        show_test_details=body.show_test_details,
        penalty_minutes=body.penalty_minutes,
    )


def apply_changes(session: Session, contest: Contest, body: ContestPatch, actor: User) -> None:
    """Change ``contest`` by the fields sent in ``body`` by ``actor`` through
    ``judge.contests.edit_contest``, the one rule for edits (committed; ContestRuleError 404/409/422
    with nothing changed)."""
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    if changes.get("problems") is not None:
        changes["problems"] = _entries(body.problems or [])
    rules.edit_contest(session, contest, changes, utcnow(), actor)
