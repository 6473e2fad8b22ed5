"""One contest's Contest API objects as one viewer may see them (icpc/ccs-specs 2023-06, JSON formats
in ``Contest_API.md``).

Who sees what: the viewer's ``ScoreboardView`` comes from ``judge.contests.scoreboard_access``. The
jury sees everything. Everyone else sees what the public scoreboard shows: submissions made at or
after the freeze time (``judge.scoreboard.hidden_after``) have no judgement until the contest is
unfrozen; no submission files, no runs (test-level results are the jury's: students see their own
through ``judge.contests.detail_level`` elsewhere), only their own account; problems only once
the contest has started (``judge.contests.problems_shown``, as its scoreboard).

Ids: contest, submission and team/account ids are our row ids as text (a team is a student's
account: team id = account id = user id); problem ids are the package ids, labels the letters;
judgement ``<submission>-<attempt>`` (a rejudge is a new judgement); run
``<submission>-<attempt>-<ordinal>``.

State: ``started``/``frozen``/``ended`` from the contest's times as they pass; ``thawed`` (the
unfreeze time is not stored) is the end time once the contest has ended and been unfrozen; a
contest unfrozen before its end reports no freeze. ``finalized``: the contest has ended and none
of its submissions waits for a verdict (the last verdict's time, at least the end);
``end_of_updates``: finalized and, if it was frozen, thawed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import clarifications
from judge import contests as rules
from judge.ccs.format import abstime, judgement_types, reltime
from judge.clock import utcnow
from judge.languages import LANGUAGES, Language
from judge.models import Clarification, Contest, Problem, Submission, TestResult, User
from judge.package_store import cached_package
from judge.scoreboard import Scoreboard, compute_scoreboard, hidden_after
from judge.scoring import contest_minute, ioi_submission_score, problem_points
from judge.vocabulary import DetailLevel, Role, ScoreboardView, Scoring, Status, Verdict

_TEST_COUNTS: dict[str, int] = {}  # package sha256 → test cases: a stored package never changes


def _test_count(session: Session, problem: Problem, cache_dir: Path) -> int:
    """How many test cases (samples and secret) the problem's current package has; read once per
    package and process (reading a package checks every test file)."""
    if problem.package_sha256 not in _TEST_COUNTS:
        package = cached_package(session, problem.package_sha256, problem.id, cache_dir)
        _TEST_COUNTS[problem.package_sha256] = len(package.tests)
    return _TEST_COUNTS[problem.package_sha256]


def _source_extension(lang: Language) -> str:
    """The extension of the file a language's sources are saved as (``main.py`` → ``py``)."""
    return lang.source_name.rsplit(".", 1)[-1] if isinstance(lang.source_name, str) else lang.id


def _entry_point(language_id: str, source: str) -> str | None:
    """A submission's ``entry_point``: Java's or Kotlin's main class, else None."""
    language = LANGUAGES.get(language_id)
    return language.entry_point(source) if language else None


def compact(obj: dict, keep: tuple[str, ...] = ()) -> dict:
    """``obj`` without its None values (the specification treats a missing property as null),
    except those named in ``keep``."""
    return {k: v for k, v in obj.items() if v is not None or k in keep}


@dataclass
class ContestView:
    """The objects of ``contest`` for ``viewer`` (None: anonymous) seeing it as ``view`` at ``now``.
    ``cache_dir``: where problem packages are unpacked (their test counts)."""

    session: Session
    contest: Contest
    view: ScoreboardView
    viewer: User | None
    cache_dir: Path
    now: datetime = field(default_factory=utcnow)

    @property
    def jury(self) -> bool:
        """Whether the viewer sees everything."""
        return self.view == ScoreboardView.JURY

    @property
    def score_contest(self) -> bool:
        """Whether the scoreboard type is ``score`` (IOI) rather than ``pass-fail`` (ICPC)."""
        return self.contest.scoring == Scoring.IOI

    def _rel(self, moment: datetime) -> str:
        return reltime(moment - self.contest.start_at)

    # -- configuration ------------------------------------------------------------------------------
    def contest_object(self) -> dict:
        """The contest object."""
        c = self.contest
        return compact(
            {
                "id": str(c.id),
                "name": c.name,
                "formal_name": c.name,
                "start_time": abstime(c.start_at),
                "duration": reltime(c.end_at - c.start_at),
                "scoreboard_freeze_duration": reltime(c.end_at - c.freeze_at) if c.freeze_at else None,
                "scoreboard_type": "score" if self.score_contest else "pass-fail",
                "penalty_time": None if self.score_contest else c.penalty_minutes,
            }
        )

    def judgement_types(self) -> list[dict]:
        """The judgement types (``judge.ccs.format``)."""
        return judgement_types(penalty=not self.score_contest)

    def languages(self) -> list[dict]:
        """Our languages: their ids, names and file extensions; none needs an entry point."""
        return [
            {
                "id": lang.id,
                "name": lang.name,
                "entry_point_required": False,
                "extensions": [e.lstrip(".") for e in lang.extensions] or [_source_extension(lang)],
            }
            for lang in LANGUAGES.values()
        ]

    def problems(self) -> list[dict]:
        """The contest's problems the viewer may see, in letter order."""
        return [dict(p) for p in self._problems]

    @cached_property
    def _problems(self) -> list[dict]:
        shown: list[dict] = []
        if not rules.problems_shown(self.contest, self.jury, self.now):  # the contest's rule, as its scoreboard's
            return shown
        for ordinal, entry in enumerate(self.contest.problems, start=1):
            problem = self.session.get(Problem, entry.problem_id)
            if problem is None:
                continue
            tests = _test_count(self.session, problem, self.cache_dir)
            shown.append(
                compact(
                    {
                        "id": problem.id,
                        "label": entry.letter,
                        "name": problem.name,
                        "ordinal": ordinal,
                        "time_limit": round(problem.time_limit_ms / 1000, 3),
                        "test_data_count": tests,
                        "max_score": problem_points(entry) if self.score_contest else None,
                    }
                )
            )
        return shown

    def groups(self) -> list[dict]:
        """Groups of teams: none (the judge has no classes)."""
        return []

    def organizations(self) -> list[dict]:
        """Organizations of teams: none (one school)."""
        return []

    @cached_property
    def _teams(self) -> list[User]:
        return rules.participants(self.session, self.contest)

    def teams(self) -> list[dict]:
        """The contest's contestants (``judge.contests.participants``), one team each."""
        return [
            {"id": str(u.id), "label": u.name, "name": u.display_name, "display_name": u.display_name, "group_ids": []}
            for u in self._teams
        ]

    def accounts(self) -> list[dict]:
        """Jury: the teams' accounts and the contest's jury (admins, its teacher); others: their own."""
        if not self.jury:
            return [self.account(self.viewer)] if self.viewer is not None and self._is_team(self.viewer) else []
        jury = self.session.scalars(
            select(User).where((User.role == Role.ADMIN) | (User.id == self.contest.owner_id)).order_by(User.id)
        ).all()
        return [self.account(u) for u in [*self._teams, *[u for u in jury if not self._is_team(u)]]]

    def _is_team(self, user: User) -> bool:
        return user.name in self._team_ids  # names are unique

    def account(self, user: User) -> dict:
        """The account object of ``user``: type ``team`` (with its team), ``admin``, ``judge`` (the
        contest's teacher), or null for anyone else."""
        kind = "team" if self._is_team(user) else None
        if kind is None and rules.is_contest_jury(user, self.contest):
            kind = "admin" if user.role == Role.ADMIN else "judge"
        return compact(
            {
                "id": str(user.id),
                "username": user.name,
                "name": user.display_name,
                "type": kind,
                "team_id": str(user.id) if kind == "team" else None,
            },
            keep=("type",),
        )

    # -- live data -----------------------------------------------------------------------------------
    def state(self) -> dict:
        """The contest state (rules in the module docstring); the same for every viewer."""
        c, now = self.contest, self.now
        ended = c.end_at if now >= c.end_at else None
        frozen = c.freeze_at if c.freeze_at and now >= c.freeze_at and not (c.unfrozen and ended is None) else None
        thawed = c.end_at if frozen and c.unfrozen else None
        finalized = None
        if ended is not None:
            rows = self.rows
            if all(r.status == Status.DONE for r in rows):
                finalized = max([c.end_at, *(r.finished_at for r in rows if r.finished_at)])
        end_of_updates = max(finalized, thawed or finalized) if finalized and (thawed or not frozen) else None
        return {
            "started": abstime(c.start_at) if now >= c.start_at else None,
            "frozen": abstime(frozen) if frozen else None,
            "ended": abstime(ended) if ended else None,
            "thawed": abstime(thawed) if thawed else None,
            "finalized": abstime(finalized) if finalized else None,
            "end_of_updates": abstime(end_of_updates) if end_of_updates else None,
        }

    @cached_property
    def rows(self) -> list[Submission]:
        """The contest's scoreboard submissions (not the jury's), oldest first."""
        return list(
            self.session.scalars(
                select(Submission)
                .where(
                    Submission.contest_id == self.contest.id,
                    Submission.is_jury.is_(False),
                    Submission.user_id.is_not(None),
                )
                .order_by(Submission.id)
            )
        )

    def submissions(self) -> list[dict]:
        """Every scoreboard submission; files (a zip) for the jury only."""
        shown = []
        for row in self._shown_rows():
            files = [
                {
                    "href": f"contests/{self.contest.id}/submissions/{row.id}/files",
                    "filename": "files.zip",
                    "mime": "application/zip",
                }
            ]
            shown.append(
                compact(
                    {
                        "id": str(row.id),
                        "language_id": row.language,
                        "problem_id": row.problem_id,
                        "team_id": str(row.user_id),
                        "time": abstime(row.created_at),
                        "contest_time": self._rel(row.created_at),
                        "entry_point": _entry_point(row.language, row.source),
                        "files": files if self.jury else [],
                    },
                    keep=("entry_point",),  # null, not absent: the schema's C/C++ rule reads it so
                )
            )
        return shown

    def verdict_shown(self, row: Submission) -> bool:
        """Whether the viewer may see ``row``'s judgement: always for the jury, else when it was made
        before the freeze time in force (``judge.scoreboard.hidden_after``)."""
        hide_after = hidden_after(self.contest, self.view)
        return hide_after is None or row.created_at < hide_after

    @cached_property
    def _results(self) -> dict[int, list[TestResult]]:
        """Test results of the current judging of each submission, by submission id."""
        by_row: dict[int, list[TestResult]] = defaultdict(list)
        attempts = {r.id: r.attempt for r in self.rows}
        if attempts:
            for result in self.session.scalars(
                select(TestResult)
                .where(TestResult.submission_id.in_(list(attempts)))
                .order_by(TestResult.submission_id, TestResult.ordinal)
            ):
                if result.attempt == attempts[result.submission_id]:
                    by_row[result.submission_id].append(result)
        return by_row

    def _shown_rows(self) -> list[Submission]:
        """The submissions to problems the viewer may see (a hidden problem hides its submissions)."""
        visible = {p["id"] for p in self._problems}
        return [r for r in self.rows if r.problem_id in visible]

    def _judged_rows(self) -> list[Submission]:
        return [r for r in self._shown_rows() if r.attempt > 0 and r.status != Status.QUEUED and self.verdict_shown(r)]

    def submission_score(self, row: Submission) -> float:
        """The IOI score (points) of a judged submission (``judge.scoring.ioi_submission_score``)."""
        groups: dict[str, tuple[int, int]] = {}
        for result in self._results.get(row.id, []):
            passed, total = groups.get(result.test_group, (0, 0))
            groups[result.test_group] = (passed + (result.verdict == Verdict.AC), total + 1)
        entry = rules.contest_problem(self.contest, row.problem_id)
        return ioi_submission_score(groups, problem_points(entry) if entry else 0)

    def _detail_level(self, row: Submission) -> DetailLevel:
        """How much of ``row``'s tests the viewer sees: everything for the contest's jury, else what
        the contest shows any student (``judge.contests.detail_level`` of no one in particular)."""
        return DetailLevel.JURY if self.jury else rules.detail_level(self.session, None, row)

    def judgements(self) -> list[dict]:
        """One judgement per submission's current judging the viewer may see; its ``max_run_time``
        outside the jury only over the tests whose times the viewer sees (``judge.contests.shown_figures``)."""
        shown = []
        for row in self._judged_rows():
            start = row.started_at or row.created_at
            done = row.status == Status.DONE
            end = (row.finished_at or start) if done else None
            score = round(self.submission_score(row), 6) if done and self.score_contest else None
            time_ms, _ = rules.shown_figures(row, self._results.get(row.id, []), self._detail_level(row))
            shown.append(
                compact(
                    {
                        "id": f"{row.id}-{row.attempt}",
                        "submission_id": str(row.id),
                        "judgement_type_id": row.verdict if done else None,
                        "score": score,
                        "start_time": abstime(start),
                        "start_contest_time": self._rel(start),
                        "end_time": abstime(end) if end else None,
                        "end_contest_time": self._rel(end) if end else None,
                        "max_run_time": round(time_ms / 1000, 3) if done and time_ms is not None else None,
                    }
                )
            )
        return shown

    def runs(self) -> list[dict]:
        """Jury: one run per test case of each judging, timed at the judging's end (per-test times
        are not stored). Others: none."""
        if not self.jury:
            return []
        shown = []
        for row in self._judged_rows():
            at = row.finished_at or row.started_at or row.created_at
            for result in self._results.get(row.id, []):
                shown.append(
                    {
                        "id": f"{row.id}-{row.attempt}-{result.ordinal}",
                        "judgement_id": f"{row.id}-{row.attempt}",
                        "ordinal": result.ordinal,
                        "judgement_type_id": result.verdict,
                        "time": abstime(at),
                        "contest_time": self._rel(at),
                        "run_time": round(result.time_ms / 1000, 3),
                    }
                )
        return shown

    def clarifications(self) -> list[dict]:
        """The clarification messages the viewer sees (``judge.clarifications.seen_by``), oldest
        first. A question is a message from its team (id ``<n>``); its answer one from the jury
        (id ``<n>-answer``, ``reply_to_id`` the question) to that team or, when public, to all; an
        announcement one from the jury to all (id ``<n>``). A viewer who does not see the question
        of a public answer (another team's) gets the answer with the question quoted before it
        (``> `` lines) and no ``reply_to_id``: who asked stays unknown."""
        rows = self.session.scalars(
            select(Clarification)
            .where(
                Clarification.contest_id == self.contest.id,
                clarifications.seen_by(self.viewer.id if self.viewer else None, self.jury),
            )
            .order_by(Clarification.asked_at, Clarification.id)
        )
        messages = []
        for row in rows:
            messages.extend(self._messages(row))
        return messages

    def _messages(self, row: Clarification) -> list[dict]:
        """The Contest API messages of one clarification row (``clarifications``)."""

        def message(key: str, text: str, at: datetime, **ids: str | None) -> dict:
            return compact(
                {
                    "id": key,
                    **ids,
                    "problem_id": row.problem_id,
                    "text": text,
                    "time": abstime(at),
                    "contest_time": self._rel(at),
                }
            )

        if row.question is None:  # an announcement
            return [message(str(row.id), row.answer or "", row.asked_at)]
        asker = str(row.asker_id) if row.asker_id is not None else None
        question_seen = self.jury or (self.viewer is not None and row.asker_id == self.viewer.id)
        shown = [message(str(row.id), row.question, row.asked_at, from_team_id=asker)] if question_seen else []
        if row.answer is not None and row.answered_at is not None:
            text = (
                row.answer
                if question_seen
                else "\n".join(f"> {line}" for line in row.question.splitlines()) + "\n\n" + row.answer
            )
            shown.append(
                message(
                    f"{row.id}-answer",
                    text,
                    row.answered_at,
                    to_team_id=None if row.public else asker,
                    reply_to_id=str(row.id) if question_seen else None,
                )
            )
        return shown

    # -- aggregates -----------------------------------------------------------------------------------
    @cached_property
    def board(self) -> Scoreboard:
        """The scoreboard of this view (``judge.scoreboard.compute_scoreboard``)."""
        return compute_scoreboard(self.session, self.contest, self.view, self.now)

    @cached_property
    def _team_ids(self) -> dict[str, str]:
        return {u.name: str(u.id) for u in self._teams}

    def awards(self) -> list[dict]:
        """``winner`` (rank 1, once something is solved or scored) and, for pass-fail contests,
        ``first-to-solve-<problem>`` per problem, from this view's scoreboard."""
        rows = self.board.rows
        scored = [r for r in rows if r.rank == 1 and (r.solved if not self.score_contest else r.total > 0)]
        awards = [{"id": "winner", "citation": "Contest winner", "team_ids": [self._team_ids[r.user] for r in scored]}]
        if not self.score_contest:
            for entry in self._visible_entries():
                index = [p.letter for p in self.contest.problems].index(entry.letter)
                firsts = [self._team_ids[r.user] for r in rows if r.cells[index].first_solve]
                awards.append(
                    {
                        "id": f"first-to-solve-{entry.problem_id}",
                        "citation": f"First to solve problem {entry.letter}",
                        "team_ids": firsts,
                    }
                )
        return awards

    def _visible_entries(self):
        visible = {p["id"] for p in self._problems}
        return [e for e in self.contest.problems if e.problem_id in visible]

    def scoreboard(self) -> dict:
        """The scoreboard object: this view's board (ranks, solved, penalty or score, per-problem cells)."""
        index = {p.letter: i for i, p in enumerate(self.contest.problems)}
        entries = self._visible_entries()
        rows = []
        for row in self.board.rows:
            team = self._team_ids[row.user]
            cells = []
            for entry in entries:
                cell = row.cells[index[entry.letter]]
                out: dict = {"problem_id": entry.problem_id, "num_judged": cell.attempts, "num_pending": cell.pending}
                if self.score_contest:
                    out["score"] = round(cell.score, 6)
                    if cell.score > 0 and cell.first_ac is not None:  # the first to reach the best score
                        out["time"] = contest_minute(self.contest.start_at, cell.first_ac[0])
                else:
                    out["solved"] = cell.solved
                    if cell.solved:
                        out["time"] = cell.minute
                cells.append(out)
            if self.score_contest:
                score: dict = {"score": round(row.total, 6)}
            else:
                solved = [c.minute for c in row.cells if c.solved and c.minute is not None]
                score = compact(
                    {"num_solved": row.solved, "total_time": row.penalty, "time": max(solved, default=None)}
                )
            rows.append({"rank": row.rank, "team_id": team, "score": score, "problems": cells})
        return {"time": abstime(self.now), "contest_time": self._rel(self.now), "state": self.state(), "rows": rows}

    def access(self) -> dict:
        """The access object: no capabilities (this API only reads), and the endpoints and
        properties this viewer gets (runs: the jury only)."""
        dropped = {"penalty", "penalty_time"} if self.score_contest else {"max_score", "score"}
        endpoints = [
            {"type": kind, "properties": [n for n in names.split() if n not in dropped]}
            for kind, names in PROPERTIES.items()
            if kind != "runs" or self.jury
        ]
        return {"capabilities": [], "endpoints": endpoints}

    # -- lookups ----------------------------------------------------------------------------------------
    def collection(self, endpoint: str) -> list[dict] | None:
        """The objects of a collection endpoint (``teams``, ``submissions``, …; ``COLLECTIONS``), None
        for an unknown one."""
        return getattr(self, endpoint.replace("-", "_"))() if endpoint in COLLECTIONS else None


# the collection endpoints and the properties we give their objects (the ``access`` endpoint)
PROPERTIES = {
    "contest": "id name formal_name start_time duration scoreboard_freeze_duration scoreboard_type penalty_time",
    "judgement-types": "id name penalty solved",
    "languages": "id name entry_point_required extensions",
    "problems": "id label name ordinal time_limit test_data_count max_score",
    "groups": "id name",
    "organizations": "id name",
    "teams": "id label name display_name group_ids",
    "accounts": "id username name type team_id",
    "state": "started frozen ended thawed finalized end_of_updates",
    "submissions": "id language_id problem_id team_id time contest_time entry_point files",
    "judgements": "id submission_id judgement_type_id score start_time start_contest_time end_time end_contest_time "
    "max_run_time",
    "runs": "id judgement_id ordinal judgement_type_id time contest_time run_time",
    "clarifications": "id from_team_id to_team_id reply_to_id problem_id text time contest_time",
    "awards": "id citation team_ids",
    "scoreboard": "time contest_time state rows",
}
COLLECTIONS = tuple(k for k in PROPERTIES if k not in ("contest", "state", "scoreboard"))
