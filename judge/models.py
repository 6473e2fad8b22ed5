"""Database models (SQLAlchemy 2): problem packages, problems, submissions, test results, workers.

Portable SQL only: the same models run on SQLite (embedded default) and PostgreSQL (several hosts).
A submission row is also the queue's job (see ``judge.queue``).
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    """The current time in UTC, without tzinfo (SQLite keeps no time zone; all times are UTC)."""
    return datetime.now(timezone.utc).replace(tzinfo=None)


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
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Problem(Base):
    """A problem students can submit to: its id (package folder name) and the current package."""

    __tablename__ = "problems"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    package_sha256: Mapped[str] = mapped_column(ForeignKey("package_archives.sha256"))
    time_limit_ms: Mapped[int] = mapped_column(Integer)
    memory_kib: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Submission(Base):
    """One submitted source and, once judged, its verdict.

    status: ``queued`` → ``judging`` (a worker holds the lease) → ``done``.
    attempt: the fencing token; each claim increments it and a worker writes results only while the
    row still carries its attempt and ``status = judging``.
    time_ms / memory_kib: the largest CPU time (ms) and peak memory (KiB) over the tests run.
    """

    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    problem_id: Mapped[str] = mapped_column(ForeignKey("problems.id"))
    package_sha256: Mapped[str] = mapped_column(ForeignKey("package_archives.sha256"))
    language: Mapped[str] = mapped_column(String(32))
    source: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    verdict: Mapped[str | None] = mapped_column(String(8), nullable=True)
    compile_message: Mapped[str | None] = mapped_column(Text, nullable=True)
    judge_message: Mapped[str | None] = mapped_column(Text, nullable=True)
    time_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    memory_kib: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tests_passed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tests_total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    worker_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    lease_expires_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    results: Mapped[list["TestResult"]] = relationship(
        back_populates="submission", order_by="TestResult.ordinal", cascade="all, delete-orphan"
    )

    __table_args__ = (Index("ix_submissions_status_id", "status", "id"),)


class TestResult(Base):
    """The outcome of one test case in one judging (``attempt``) of a submission.

    time_ms: CPU time (ms); wall_ms: wall time (ms); memory_kib: peak memory (KiB).
    """

    __tablename__ = "test_results"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id", ondelete="CASCADE"))
    attempt: Mapped[int] = mapped_column(Integer)
    ordinal: Mapped[int] = mapped_column(Integer)
    test_name: Mapped[str] = mapped_column(String(200))
    test_group: Mapped[str] = mapped_column(String(32))
    verdict: Mapped[str] = mapped_column(String(8))
    time_ms: Mapped[int] = mapped_column(Integer, default=0)
    wall_ms: Mapped[int] = mapped_column(Integer, default=0)
    memory_kib: Mapped[int] = mapped_column(Integer, default=0)
    exit_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    signal: Mapped[int | None] = mapped_column(Integer, nullable=True)
    message: Mapped[str | None] = mapped_column(Text, nullable=True)

    submission: Mapped[Submission] = relationship(back_populates="results")

    __table_args__ = (
        UniqueConstraint("submission_id", "attempt", "ordinal", name="uq_test_results_run"),
    )


class Worker(Base):
    """A judge worker process: where it runs, what it is doing, what languages it can judge."""

    __tablename__ = "workers"
    id: Mapped[str] = mapped_column(String(128), primary_key=True)
    host: Mapped[str] = mapped_column(String(200))
    slots: Mapped[int] = mapped_column(Integer, default=1)
    languages: Mapped[list] = mapped_column(JSON, default=list)
    current_submission_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    last_heartbeat: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
