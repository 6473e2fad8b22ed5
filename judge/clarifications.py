"""Clarification rules: who may ask, answer and announce in a contest, who sees what, the rate limit
of questions, and the clarifications as one viewer sees them (API, pages, command line and event
streams alike).

A clarification (``judge.models.Clarification``) is a participant's question about one problem of
the contest or about the contest in general, with the jury's answer, or the jury's announcement.

- Asking: a participant (``judge.contests.is_participant``), not the jury, while the contest runs
  (``[start, end)``); one question every ``question_interval_s`` seconds (``judge.config``); the text
  1 to ``MAX_TEXT_CHARS`` characters.
- Answering and announcing: the contest's jury (``judge.contests.is_contest_jury``), at any time.
  An answer goes to the asker alone (private) or to everyone (public); answering again replaces
  the answer. An announcement is public; before the start it cannot name a problem (the problems
  are hidden until then, ``judge.contests.problems_shown``).
- Seeing: the jury sees every clarification and who asked; anyone else who may see the contest sees
  their own questions with their answers, every public answer with its question (never who asked),
  and the announcements.

Times are UTC (``judge.clock``).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, false, func, or_, select, true
from sqlalchemy.orm import Session

from judge import contests as rules
from judge.contests import ContestRuleError, RateLimited
from judge.models import Clarification, Contest, User

MAX_TEXT_CHARS = 2000  # of a question, an answer or an announcement
CLOCK_SLACK = timedelta(minutes=1)  # API hosts stamp changed_at with their own clocks


class QuestionLimited(RateLimited):
    """A question sooner than ``question_interval_s`` allows; ``retry_after_s`` whole seconds to wait
    (a 429 with ``Retry-After``, as ``RateLimited``)."""

    def __init__(self, retry_after_s: int, interval_s: float):
        super().__init__(retry_after_s, f"one question every {interval_s:g} s")


def clean_text(text: str, what: str) -> str:
    """``text`` without surrounding white space; raises ContestRuleError (422) when that is empty or
    longer than ``MAX_TEXT_CHARS`` characters, naming ``what`` (``question``, ``answer``…)."""
    text = text.strip()
    if not text:
        raise ContestRuleError(422, f"the {what} is empty")
    if len(text) > MAX_TEXT_CHARS:
        raise ContestRuleError(422, f"the {what} is {len(text)} characters long: at most {MAX_TEXT_CHARS}")
    return text


def _problem_of(contest: Contest, problem: str | None) -> str | None:
    """The problem id of letter (or id) ``problem`` in ``contest``, None for none or empty;
    ContestRuleError (404) when the contest has no such problem."""
    if not problem:
        return None
    entry = rules.contest_problem(contest, problem)
    if entry is None:
        raise ContestRuleError(404, f"contest {contest.id} has no problem {problem[:20]!r}")
    return entry.problem_id


def ask(
    session: Session, user: User, contest: Contest, text: str, problem: str | None, interval_s: float, now: datetime
) -> Clarification:
    """Store ``user``'s question about ``problem`` (a letter; None: general) in ``contest`` at
    ``now`` (committed) and return it.

    Raises ContestRuleError: 403 for the jury (it announces instead), a non-participant, or outside
    the contest's window; 404 for an unknown letter; 422 for an empty or too long text; QuestionLimited
    (429) within ``interval_s`` of the user's last question in any contest. The check counts the
    question already inserted under a lock on the user's row, so two questions sent at once cannot
    both pass (PostgreSQL: ``FOR UPDATE``; SQLite: one writer at a time).
    """
    if rules.is_contest_jury(user, contest):
        raise ContestRuleError(403, "the jury answers questions: post an announcement instead")
    if not rules.is_participant(session, contest, user):
        raise ContestRuleError(403, f"you do not take part in contest {contest.id}")
    if not contest.start_at <= now < contest.end_at:
        raise ContestRuleError(403, f"contest {contest.id} is not running: questions are asked while it runs")
    row = Clarification(
        contest_id=contest.id,
        asker_id=user.id,
        problem_id=_problem_of(contest, problem),
        question=clean_text(text, "question"),
        asked_at=now,
        changed_at=now,
    )
    if interval_s > 0:
        session.execute(select(User.id).where(User.id == user.id).with_for_update())
    session.add(row)
    session.flush()
    if interval_s > 0:
        threshold = now - timedelta(seconds=interval_s)
        last = session.scalar(
            select(func.max(Clarification.asked_at)).where(
                Clarification.asker_id == user.id, Clarification.id != row.id, Clarification.asked_at > threshold
            )
        )
        if last is not None:
            session.rollback()
            raise QuestionLimited(max(1, math.ceil(interval_s - (now - last).total_seconds())), interval_s)
    session.commit()
    return row


def answer(session: Session, user: User, row: Clarification, text: str, public: bool, now: datetime) -> None:
    """Write the jury's answer to question ``row`` (committed): to the asker alone, or to everyone
    when ``public``; an earlier answer is replaced. Raises ContestRuleError: 403 for anyone but the
    contest's jury, 409 for an announcement (it has no question), 422 for an empty or too long text."""
    contest = session.get(Contest, row.contest_id)
    if contest is None or not rules.is_contest_jury(user, contest):
        raise ContestRuleError(403, "only the contest's teacher or an admin may answer")
    if row.question is None:
        raise ContestRuleError(409, f"clarification {row.id} is an announcement: it has no question to answer")
    row.answer, row.public = clean_text(text, "answer"), public
    row.answered_by, row.answered_at, row.changed_at = user.id, now, now
    session.commit()


def announce(
    session: Session, user: User, contest: Contest, text: str, problem: str | None, now: datetime
) -> Clarification:
    """Store the jury's announcement to everyone in ``contest`` about ``problem`` (a letter; None:
    general) at ``now`` (committed) and return it. Raises ContestRuleError: 403 for anyone but the
    contest's jury, 404 for an unknown letter, 422 for an empty or too long text or for a problem
    named before the start (students do not see the problems yet)."""
    if not rules.is_contest_jury(user, contest):
        raise ContestRuleError(403, "only the contest's teacher or an admin may announce")
    problem_id = _problem_of(contest, problem)
    if problem_id is not None and not rules.problems_shown(contest, False, now):
        raise ContestRuleError(422, "the problems are hidden until the contest starts: announce in general")
    row = Clarification(
        contest_id=contest.id,
        problem_id=problem_id,
        answer=clean_text(text, "announcement"),
        public=True,
        answered_by=user.id,
        asked_at=now,
        answered_at=now,
        changed_at=now,
    )
    session.add(row)
    session.commit()
    return row


# -- who sees what -------------------------------------------------------------------------------------
def seen_by(viewer_id: int | None, jury: bool) -> ColumnElement[bool]:
    """SQL condition on ``Clarification``: the rows a viewer sees (the module docstring): all for
    the jury; else the viewer's own questions, public answers and announcements."""
    if jury:
        return true()
    shared = Clarification.public.is_(True) & Clarification.answer.is_not(None)
    mine = Clarification.asker_id == viewer_id if viewer_id is not None else false()
    return or_(shared, mine)


def visible_clarifications(session: Session, contest: Contest, viewer: User | None) -> list[Clarification]:
    """The contest's clarifications ``viewer`` sees (``seen_by``), newest first."""
    jury = rules.is_contest_jury(viewer, contest)
    return list(
        session.scalars(
            select(Clarification)
            .where(Clarification.contest_id == contest.id, seen_by(viewer.id if viewer else None, jury))
            .order_by(Clarification.asked_at.desc(), Clarification.id.desc())
        )
    )


def can_see(session: Session, viewer: User, row: Clarification) -> bool:
    """Whether ``viewer`` sees ``row``: it sees the contest (``judge.contests.contest_visible``) and
    the row is one ``seen_by`` shows it."""
    contest = session.get(Contest, row.contest_id)
    if contest is None or not rules.contest_visible(session, viewer, contest):
        return False
    if rules.is_contest_jury(viewer, contest):
        return True
    return row.asker_id == viewer.id or (row.public and row.answer is not None)


def shown(session: Session, row: Clarification, contest: Contest, viewer: User | None) -> dict[str, object]:
    """``row`` as ``viewer`` (who sees it) sees it, as a dict: ``id``, ``contest``, ``kind``
    (``question`` or ``announcement``), ``problem`` (its letter, None: general), ``question``,
    ``answer`` (None: waiting), ``public``, ``mine`` (the viewer asked it), ``asker`` (the asker's
    name, for the jury only), ``asked_at``, ``answered_at``."""
    jury = rules.is_contest_jury(viewer, contest)
    letter = next((p.letter for p in contest.problems if p.problem_id == row.problem_id), None)
    asker = session.get(User, row.asker_id) if jury and row.asker_id is not None else None
    return {
        "id": row.id,
        "contest": row.contest_id,
        "kind": "question" if row.question is not None else "announcement",
        "problem": letter,
        "question": row.question,
        "answer": row.answer,
        "public": row.public,
        "mine": viewer is not None and row.asker_id == viewer.id,
        "asker": asker.name if asker else None,
        "asked_at": row.asked_at,
        "answered_at": row.answered_at,
    }


class ClarificationWatch:
    """The ``clarification`` events of one contest for one viewer (``judge.events.ContestFeed``):
    each clarification the viewer sees (``seen_by``) once it is new or changed since the last poll,
    looking back from ``CLOCK_SLACK`` before the stream opened."""

    def __init__(self, viewer_id: int | None, jury: bool, now: datetime):
        self.viewer_id, self.jury = viewer_id, jury
        self.since = now - CLOCK_SLACK
        self.sent: dict[int, datetime] = {}

    def poll(self, session: Session, contest: Contest) -> list[tuple[str, dict]]:
        """The events since the last poll, as (``clarification``, data as ``shown``), oldest change first."""
        rows = session.scalars(
            select(Clarification)
            .where(
                Clarification.contest_id == contest.id,
                Clarification.changed_at >= self.since,
                seen_by(self.viewer_id, self.jury),
            )
            .order_by(Clarification.changed_at, Clarification.id)
        ).all()
        viewer = session.get(User, self.viewer_id) if self.viewer_id is not None else None
        events = []
        for row in rows:
            self.since = max(self.since, row.changed_at - CLOCK_SLACK)
            if self.sent.get(row.id) != row.changed_at:
                self.sent[row.id] = row.changed_at
                events.append(("clarification", shown(session, row, contest, viewer)))
        return events


def clarifications_fingerprint(session: Session, contest_id: int) -> tuple:
    """What changes whenever a clarification of the contest is added or changed: their count and
    latest change (the Contest API feed rebuilds its objects when it moves)."""
    return tuple(
        session.execute(
            select(func.count(Clarification.id), func.max(Clarification.changed_at)).where(
                Clarification.contest_id == contest_id
            )
        ).one()
    )
