"""Rows a route may show its caller, or the HTTP refusal: the access rules of ``judge.contests``
applied to one contest, scoreboard or submission. A row the caller may not see does not exist as far
as the caller can tell (404)."""

from __future__ import annotations

from fastapi import HTTPException
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.models import Contest, Submission, User
from judge.vocabulary import ScoreboardView


def visible_contest(session: Session, user: User | None, contest_id: int) -> Contest:
    """The contest if ``user`` may look at it (``judge.contests.contest_visible``), else 404."""
    contest = session.get(Contest, contest_id)
    if contest is None or not rules.contest_visible(session, user, contest):
        raise HTTPException(404, f"no contest {contest_id}")
    return contest


def jury_contest(session: Session, user: User, contest_id: int) -> Contest:
    """The contest if ``user`` is its jury; 404 if invisible to the user, 403 if only visible."""
    contest = visible_contest(session, user, contest_id)
    if not rules.is_contest_jury(user, contest):
        raise HTTPException(403, "only the contest's teacher or an admin may do this")
    return contest


def viewable_submission(session: Session, user: User, submission_id: int) -> Submission:
    """The submission if ``user`` may see it; 404 otherwise (another student's submission does not
    exist as far as a student can tell)."""
    row = session.get(Submission, submission_id)
    if row is None or not rules.can_view_submission(session, user, row):
        raise HTTPException(404, f"no submission {submission_id}")
    return row


def board_view(session: Session, user: User | None, contest_id: int) -> tuple[Contest, ScoreboardView]:
    """The contest and the scoreboard view ``user`` gets; 401 for a guest when the board is not
    public, 404 when the user may not see it (an archived contest's, for anyone but its jury)."""
    contest = session.get(Contest, contest_id)
    view = rules.scoreboard_access(session, user, contest) if contest else None
    if contest is None or view is None:
        if contest is not None and user is None and not contest.archived:
            raise HTTPException(
                401, "this scoreboard is not public: log in first", headers={"WWW-Authenticate": "Bearer"}
            )
        raise HTTPException(404, f"no scoreboard for contest {contest_id}")
    return contest, view


def events_view(session: Session, user: User | None, contest_id: int) -> tuple[Contest, ScoreboardView | None]:
    """The contest and the board view of its event stream for ``user``: ``board_view``'s, or None
    (no board: clarifications and the user's own verdicts only) for a signed-in user who may see
    the contest but not its scoreboard; ``board_view``'s refusals otherwise."""
    contest = session.get(Contest, contest_id)
    if (
        contest is not None
        and user is not None
        and rules.scoreboard_access(session, user, contest) is None
        and rules.contest_visible(session, user, contest)
    ):
        return contest, None
    return board_view(session, user, contest_id)
