"""The judge's words, each a ``StrEnum``: a member equals its text, so it is stored, compared and
sent as JSON as that text.

- ``Status``: where a submission is in its life (``judge.lifecycle`` moves it).
- ``Verdict``: the outcome of a test case or a submission.
- ``Role``: what an account may do.
- ``Visibility``: who may see a contest's scoreboard (a contest setting).
- ``ScoreboardView``: which scoreboard a viewer gets: the live one or the public (frozen) one.
- ``DetailLevel``: how much of a submission's secret test cases a viewer sees.
- ``Scoring``: how a contest ranks its contestants.
- ``StepStatus``: the outcome of one step of ``judge problem verify``.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Status(StrEnum):
    """A submission's life: ``queued`` → ``judging`` (a worker holds its lease) → ``done``."""

    QUEUED = "queued"
    JUDGING = "judging"
    DONE = "done"


class Verdict(StrEnum):
    """Accepted, wrong answer, time / memory / output limit exceeded, run-time error, compile
    error, judge error."""

    AC = "AC"
    WA = "WA"
    TLE = "TLE"
    MLE = "MLE"
    RTE = "RTE"
    OLE = "OLE"
    CE = "CE"
    JE = "JE"


class Role(StrEnum):
    """``admin``: everything; ``teacher``: the jury of the contests it owns; ``student``: a contestant."""

    ADMIN = "admin"
    TEACHER = "teacher"
    STUDENT = "student"


class Visibility(StrEnum):
    """Who may see a contest's scoreboard: anyone without a token, its participants, or its jury only."""

    PUBLIC = "public"
    PARTICIPANTS = "participants"
    JURY = "jury"


class ScoreboardView(StrEnum):
    """The scoreboard a viewer gets: ``jury`` live, ``public`` with verdicts after the freeze hidden."""

    JURY = "jury"
    PUBLIC = "public"


class DetailLevel(StrEnum):
    """What a viewer sees of a submission's secret test cases: ``jury`` everything; ``details`` names,
    times and resource reasons; ``verdicts`` the verdict of each only."""

    JURY = "jury"
    DETAILS = "details"
    VERDICTS = "verdicts"


class Scoring(StrEnum):
    """``icpc``: problems solved, then penalty time; ``ioi``: points per problem (``judge.scoring``)."""

    ICPC = "icpc"
    IOI = "ioi"


class Priority(IntEnum):
    """A queued submission's priority: lower is judged first."""

    CONTEST = 0
    PRACTICE = 1
    REJUDGE = 2


class StepStatus(StrEnum):
    """One step of ``judge problem verify`` (``judge.verify.report.StepReport.status``): ``ok``;
    ``skipped``: the step checks a convention of this judge the package does not follow (it passes);
    ``not run``: the step could not run (it fails); ``FAIL``: it found failures."""

    OK = "ok"
    SKIPPED = "skipped"
    NOT_RUN = "not run"
    FAIL = "FAIL"
