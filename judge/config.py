"""Settings of the judge, read from the environment.

Every setting has a default that works on a fresh clone (SQLite in ``var/``); a school's deployment
overrides them with environment variables (see README, section "Configuration").
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Settings:
    """Judge settings.

    database_url: SQLAlchemy URL (``JUDGE_DATABASE_URL``; default SQLite file ``var/judge.db``).
    problems_dir: folder of problem packages loaded by ``judge serve`` (``JUDGE_PROBLEMS_DIR``).
    work_dir: scratch space of the workers: package cache and per-run folders (``JUDGE_WORK_DIR``).
    max_source_bytes: largest accepted source file in bytes (64 KiB).
    lease_seconds: how long a worker's claim on a submission lasts without renewal (s).
    max_attempts: judgings of one submission before it ends as JE (worker deaths).
    """

    database_url: str
    problems_dir: Path
    work_dir: Path
    max_source_bytes: int = 64 * 1024
    lease_seconds: float = 30.0
    max_attempts: int = 3


def load_settings() -> Settings:
    """Read the settings from the environment (no caching: tests change the environment)."""
    var = REPO_ROOT / "var"
    default_db = f"sqlite:///{var / 'judge.db'}"
    return Settings(
        database_url=os.environ.get("JUDGE_DATABASE_URL", default_db),
        problems_dir=Path(os.environ.get("JUDGE_PROBLEMS_DIR", REPO_ROOT / "problems")),
        # not under the checkout: the sandbox's unprivileged uid must be able to reach it
        work_dir=Path(os.environ.get("JUDGE_WORK_DIR", Path(tempfile.gettempdir()) / "classjudge")),
        lease_seconds=float(os.environ.get("JUDGE_LEASE_SECONDS", "30")),
        max_attempts=int(os.environ.get("JUDGE_MAX_ATTEMPTS", "3")),
    )
