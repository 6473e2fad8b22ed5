"""Database models (SQLAlchemy 2): problem packages, problems, submissions, test results, workers,
and for class contests: users, API tokens, classes and their students, contests, their problems and
participants (named users and classes).

Portable SQL only: the same models run on SQLite (embedded default) and PostgreSQL (several hosts).
A submission row is also the queue's job; ``judge.lifecycle`` alone writes its status, lease and
attempt columns. Times are UTC (``judge.clock``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from judge.clock import UtcDateTime, utcnow
from judge.vocabulary import Scoring, Status, Visibility


class Base(DeclarativeBase):
    """Declarative base of every table."""


class PackageArchive(Base):
    """A problem package stored by content: ``sha256`` of the archive, the gzip'd tar bytes.

    Workers on other hosts fetch the archive by hash and cache it (``judge.package_store``).
    """

    __tablename__ = "package_archives"
    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    archive: Mapped[bytes] = mapped_column(LargeBinary)
    size_bytes: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class Problem(Base):
    """A problem students can submit to: its id (package folder name) and the current package.

    archived: unloaded by a teacher (``judge problem unload``): left out of every problem list,
    hidden from students, closed to submissions; its past submissions and results are kept, and
    loading the package again brings it back.
    """

    __tablename__ = "problems"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    package_sha256: Mapped[str] = mapped_column(ForeignKey("package_archives.sha256"))
    time_limit_ms: Mapped[int] = mapped_column(Integer)
    memory_kib: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    archived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Submission(Base):
    """One submitted source and, once judged, its verdict.

    status: ``queued`` → ``judging`` (a worker holds the lease) → ``done`` (``Status``).
    attempt: the fencing token; each claim increments it and a worker writes results only while the
    row still carries its attempt and ``status = judging``.
    time_ms / memory_kib: the largest CPU time (ms) and peak memory (KiB) over the tests run.
    priority: 0 contest, 1 practice, 2 rejudge (``Priority``: lower is judged first); fair_rank: how
    many of the same user's submissions were already waiting when this one was queued; claims take
    them in the order (priority, fair_rank, id).
    user_id, contest_id: who submitted, to which contest (None: practice); is_jury: a teacher's or
    an admin's submission, kept off the scoreboard.
    """

    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    problem_id: Mapped[str] = mapped_column(ForeignKey("problems.id"))
    package_sha256: Mapped[str] = mapped_column(ForeignKey("package_archives.sha256"))
    language: Mapped[str] = mapped_column(String(32))
    source: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default=Status.QUEUED)
    verdict: Mapped[str | None] = mapped_column(String(8), nullable=True)
    compile_message: Mapped[str | None] = mapped_column(Text, nullable=True)
    judge_message: Mapped[str | None] = mapped_column(Text, nullable=True)
    time_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    memory_kib: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tests_passed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tests_total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # points by the package's grading (Kattis format test groups) and the most it gives (None: unbounded)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    max_score: Mapped[float | None] = mapped_column(Float, nullable=True)
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    worker_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    lease_expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", name="fk_submissions_user"), nullable=True)
    contest_id: Mapped[int | None] = mapped_column(
        ForeignKey("contests.id", name="fk_submissions_contest"), nullable=True
    )
    is_jury: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    priority: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    fair_rank: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lost_judgings: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # leases that expired

    results: Mapped[list[TestResult]] = relationship(
        back_populates="submission", order_by="TestResult.ordinal", cascade="all, delete-orphan"
    )

    __table_args__ = (
        Index("ix_submissions_status_id", "status", "id"),
        Index("ix_submissions_claim_order", "status", "priority", "fair_rank", "id"),
        # the scoreboard's aggregates read one contest from this index alone (no table lookups)
        Index(
            "ix_submissions_scoreboard",
            "contest_id",
            "user_id",
            "problem_id",
            "id",
            "status",
            "verdict",
            "is_jury",
            "created_at",
            "attempt",
            "finished_at",
            "tests_passed",
            "tests_total",
            "score",
            "max_score",
        ),
        Index("ix_submissions_user_id", "user_id", "id"),
    )


class TestResult(Base):
    """The outcome of one test case in one judging (``attempt``) of a submission.

    time_ms: CPU time (ms); wall_ms: wall time (ms); memory_kib: peak memory (KiB).
    feedback: the output validator's ``feedback.json`` (a JSON object of at most 256 KiB), drawn by
    ``judge.pictures``; None when the validator wrote none.
    """

    __tablename__ = "test_results"
    __test__ = False  # not a pytest test class, despite its name
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id", ondelete="CASCADE"))
    attempt: Mapped[int] = mapped_column(Integer)
    ordinal: Mapped[int] = mapped_column(Integer)
    test_name: Mapped[str] = mapped_column(String(200))
    test_group: Mapped[str] = mapped_column(String(200))  # the group's path under data/: secret/group1
    verdict: Mapped[str] = mapped_column(String(8))
    time_ms: Mapped[int] = mapped_column(Integer, default=0)
    wall_ms: Mapped[int] = mapped_column(Integer, default=0)
    memory_kib: Mapped[int] = mapped_column(Integer, default=0)
    exit_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    signal: Mapped[int | None] = mapped_column(Integer, nullable=True)
    message: Mapped[str | None] = mapped_column(Text, nullable=True)
    feedback: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    # a sample's output as the program wrote it (``judge.judging.SAMPLE_OUTPUT_KEPT`` bytes at most,
    # UTF-8 with bad bytes and NUL replaced), shown beside the expected one; None on secret tests
    output: Mapped[str | None] = mapped_column(Text, nullable=True)

    submission: Mapped[Submission] = relationship(back_populates="results")

    __table_args__ = (UniqueConstraint("submission_id", "attempt", "ordinal", name="uq_test_results_run"),)


class Worker(Base):
    """A judge worker process: where it runs, what it is doing, what languages it can judge."""

    __tablename__ = "workers"
    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    host: Mapped[str] = mapped_column(String(200))
    slots: Mapped[int] = mapped_column(Integer, default=1)
    languages: Mapped[list] = mapped_column(JSON, default=list)
    current_submission_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    started_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_heartbeat: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class User(Base):
    """An account: login ``name``, ``display_name``, ``role`` (``admin``, ``teacher`` = jury, ``student``)
    and the Argon2id hash of its password (``judge.auth``). A name is unique whatever its case
    (``Alice`` and ``alice`` are one name: the index on ``lower(name)``); it keeps the case it was
    given.

    last_submission_at: time of the user's last accepted submission (UTC), for the rate limit.
    active: False once deactivated (``judge.users.set_active``): its tokens are gone and it cannot
    sign in; its submissions stay.
    """

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    display_name: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16))
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_submission_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())

    __table_args__ = (Index("uq_users_name_lower", func.lower(name), unique=True),)


class ApiToken(Base):
    """A bearer token, stored as the SHA-256 (hex) of its text so a copy of the database grants nothing."""

    __tablename__ = "api_tokens"
    token_sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)


class Contest(Base):
    """A contest: its window ``[start_at, end_at)`` (UTC), the optional ``freeze_at`` after which the
    public scoreboard stops showing verdicts until ``unfrozen``, scoring ``icpc`` or ``ioi``.

    all_students: every student takes part (else only the ``contest_participants`` rows and the
    students of the ``contest_classes``).
    scoreboard_visibility: ``public`` (no token needed), ``participants`` or ``jury``.
    show_test_details: students see name, time and memory of secret tests (never their data).
    penalty_minutes: ICPC penalty per rejected attempt before the first AC (minutes).
    owner_id: the teacher who created it; with admins, its jury.
    archived: put away by its jury: hidden from everyone else, closed to submissions, kept whole.
    """

    __tablename__ = "contests"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    scoring: Mapped[str] = mapped_column(String(8), default=Scoring.ICPC)
    start_at: Mapped[datetime] = mapped_column(UtcDateTime)
    end_at: Mapped[datetime] = mapped_column(UtcDateTime)
    freeze_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    unfrozen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    all_students: Mapped[bool] = mapped_column(Boolean, default=True)
    scoreboard_visibility: Mapped[str] = mapped_column(String(16), default=Visibility.PARTICIPANTS)
    show_test_details: Mapped[bool] = mapped_column(Boolean, default=False)
    penalty_minutes: Mapped[int] = mapped_column(Integer, default=20)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    archived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # bumped in every transaction that changes what its scoreboard shows (``judge.board``)
    board_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # the board version of the last change its cells' stamps do not describe (``judge.board``)
    board_base_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    problems: Mapped[list[ContestProblem]] = relationship(
        order_by="ContestProblem.letter", cascade="all, delete-orphan"
    )


class BoardCell(Base):
    """One contestant on one problem of a contest, kept by ``judge.board`` from the submissions that
    count (non-jury, in the window), in two variants: ``live_*`` over every verdict (the jury's view)
    and ``frozen_*`` with the submissions made at or after ``freeze_at`` pending (the public view
    while frozen; equal to live without a freeze).

    attempts: ICPC counted tries up to and including the first AC (rejected + 1 when solved); IOI
    judged submissions. pending: ICPC attempts with no verdict shown before the first AC; IOI all of
    them. score: IOI best score (points). first_id, first_at: the submission that decided the cell:
    ICPC its first AC shown, IOI the first to reach its best score above 0; else None. version: the
    contest's board version that last wrote the row (its stamp).
    """

    __tablename__ = "board_cells"
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    problem_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    live_attempts: Mapped[int] = mapped_column(Integer)
    live_pending: Mapped[int] = mapped_column(Integer)
    live_score: Mapped[float] = mapped_column(Float)
    live_first_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    live_first_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    frozen_attempts: Mapped[int] = mapped_column(Integer)
    frozen_pending: Mapped[int] = mapped_column(Integer)
    frozen_score: Mapped[float] = mapped_column(Float)
    frozen_first_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    frozen_first_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __table_args__ = (Index("ix_board_cells_stamp", "contest_id", "version"),)


class ContestProblem(Base):
    """A problem in a contest under its ``letter`` (A, B, …); ``points`` is its IOI maximum (default 100)."""

    __tablename__ = "contest_problems"
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True)
    letter: Mapped[str] = mapped_column(String(8), primary_key=True)
    problem_id: Mapped[str] = mapped_column(ForeignKey("problems.id"))
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (UniqueConstraint("contest_id", "problem_id", name="uq_contest_problems_problem"),)


class ContestParticipant(Base):
    """A user taking part in a contest that is not open to all students."""

    __tablename__ = "contest_participants"
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)


class SchoolClass(Base):
    """A class: a teacher's (``owner_id``) named group of students (``class_members``); a student may be
    in several. Rules in ``judge.classes``."""

    __tablename__ = "classes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(200))
    owner_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL", name="fk_classes_owner"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)

    __table_args__ = (UniqueConstraint("owner_id", "name", name="uq_classes_owner_name"),)


class ClassMember(Base):
    """A student in a class."""

    __tablename__ = "class_members"
    class_id: Mapped[int] = mapped_column(
        ForeignKey("classes.id", ondelete="CASCADE", name="fk_class_members_class"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE", name="fk_class_members_user"), primary_key=True, index=True
    )


class ContestClass(Base):
    """A class taking part in a contest: its students, as they are at each moment, are participants."""

    __tablename__ = "contest_classes"
    contest_id: Mapped[int] = mapped_column(
        ForeignKey("contests.id", ondelete="CASCADE", name="fk_contest_classes_contest"), primary_key=True
    )
    class_id: Mapped[int] = mapped_column(
        ForeignKey("classes.id", ondelete="CASCADE", name="fk_contest_classes_class"), primary_key=True
    )


class Clarification(Base):
    """A clarification of a contest (``judge.clarifications``): a participant's ``question`` and the
    jury's ``answer``, or the jury's announcement (no question, no asker).

    problem_id: the problem it is about (None: the contest in general).
    public: the answer or announcement is for everyone in the contest; else for the asker alone.
    asked_at: when it was asked or announced (UTC); answered_at: when the answer was last written
    (None: the question waits). changed_at: its last change, which the event streams watch.
    """

    __tablename__ = "clarifications"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    contest_id: Mapped[int] = mapped_column(ForeignKey("contests.id", ondelete="CASCADE"))
    asker_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), nullable=True)
    problem_id: Mapped[str | None] = mapped_column(ForeignKey("problems.id"), nullable=True)
    question: Mapped[str | None] = mapped_column(Text, nullable=True)
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    answered_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    asked_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    answered_at: Mapped[datetime | None] = mapped_column(UtcDateTime, nullable=True)
    changed_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)

    __table_args__ = (
        Index("ix_clarifications_contest_changed", "contest_id", "changed_at"),
        Index("ix_clarifications_asker", "asker_id", "asked_at"),
    )


class LoginFailure(Base):
    """One failed login (``judge.throttle.LoginThrottle``), shared by every API process.

    key_sha256: SHA-256 (hex) of ``account:<name>`` or ``address:<ip>``, so any text a client sends
    fits; failed_at: when, in seconds since the Unix epoch (the throttle's clock).
    """

    __tablename__ = "login_failures"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key_sha256: Mapped[str] = mapped_column(String(64))
    failed_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        Index("ix_login_failures_key", "key_sha256", "failed_at"),
        Index("ix_login_failures_failed_at", "failed_at"),
    )


class StreamSlot(Base):
    """An event stream held open (``judge.throttle.StreamSlots``), shared by every API process.

    key_sha256: SHA-256 (hex) of ``user:<id>`` or ``address:<ip>``; expires_at: the end of its lease
    in seconds since the Unix epoch, renewed while the stream lives, so a slot of a process that died
    frees itself.
    """

    __tablename__ = "stream_slots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key_sha256: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_stream_slots_key", "key_sha256", "expires_at"),)
