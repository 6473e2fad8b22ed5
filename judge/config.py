"""Settings of the judge service and its workers, read from ``JUDGE_*`` environment variables.

``Settings`` is the one list: each field's type, default, unit and meaning are below, and README's
"Configuration" table lists exactly these (``tests/judge/test_settings.py`` checks it). Every
default works on a fresh clone (SQLite in ``var/``); a school's deployment overrides them. The
``judge submit`` client's own options (``JUDGE_SERVER``, ``JUDGE_USER``, …) belong to the command
line, not to the service (``judge.cli``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Judge settings; the environment variable of a field is ``JUDGE_`` + its name in capitals.

    Arguments given to the constructor win over the environment.
    """

    model_config = SettingsConfigDict(env_prefix="JUDGE_", frozen=True)

    database_url: str = Field(
        default=f"sqlite:///{REPO_ROOT / 'var' / 'judge.db'}",
        description="SQLAlchemy URL of the database; PostgreSQL: postgresql+psycopg://user@host/db",
    )
    problems_dir: Path = Field(
        default=REPO_ROOT / "problems", description="folder of the problem packages that `judge serve` loads"
    )
    # not under the checkout: the sandbox's unprivileged uid must be able to reach it
    work_dir: Path = Field(
        default=Path(tempfile.gettempdir()) / "classjudge",
        description="workers' scratch folders (one per sandbox slot) and their package cache",
    )
    time_limit_slot: int = Field(
        default=50,
        ge=0,
        description="sandbox slot where loading a package without a time limit judges its accepted submissions",
    )
    max_source_bytes: int = Field(default=64 * 1024, gt=0, description="largest accepted source file (bytes)")
    max_package_bytes: int = Field(
        default=256 * 1024 * 1024,
        gt=0,
        description="largest problem package zip a teacher may upload or import, and its largest unpacked size (bytes)",
    )
    submit_interval_s: float = Field(
        default=10.0, ge=0, description="seconds between two submissions of a student (0: no limit)"
    )
    question_interval_s: float = Field(
        default=30.0, ge=0, description="seconds between two clarification questions of a student (0: no limit)"
    )
    lease_seconds: float = Field(
        default=30.0, gt=0, description="seconds a worker's claim on a submission lasts unless renewed while judging"
    )
    max_attempts: int = Field(
        default=3, ge=1, description="judgings lost with their worker before a submission ends as JE"
    )
    metrics_token: str = Field(
        default="",
        description="bearer token a Prometheus scraper sends to /metrics (empty: a teacher's or admin's login token)",
    )
    request_read_timeout_s: float = Field(
        default=30.0,
        gt=0,
        description="seconds a client has to send a whole request (headers and body) before 408 and close",
    )
    max_streams_per_user: int = Field(default=4, ge=1, description="event streams one account may hold open at once")
    max_streams_per_address: int = Field(
        default=8, ge=1, description="event streams without a token one client address may hold open at once"
    )
    min_poll_s: float = Field(
        default=1.0, gt=0, description="shortest poll interval of an event stream (s); a shorter `poll` is raised to it"
    )
    login_failures_per_account: int = Field(
        default=5, ge=1, description="failed logins to one account within `login_window_s` before 429"
    )
    login_failures_per_address: int = Field(
        default=100, ge=1, description="failed logins from one client address within `login_window_s` before 429"
    )
    login_window_s: float = Field(
        default=300.0, gt=0, description="seconds a failed login counts against its account and address"
    )


def load_settings() -> Settings:
    """The settings from the environment, read afresh on every call (tests change the environment).

    Raises pydantic.ValidationError naming the variable when one holds no valid value.
    """
    return Settings()
