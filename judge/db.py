"""Database engine and sessions (SQLAlchemy 2), for SQLite and PostgreSQL alike."""
from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import sessionmaker

from judge.config import REPO_ROOT


def make_engine(url: str) -> Engine:
    """Create an engine for ``url``.

    SQLite: creates the parent folder, waits up to 30 s on a locked database (several worker
    processes share one file), and turns on WAL so readers never block the writer.
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


def make_sessionmaker(engine: Engine) -> sessionmaker:
    """A session factory whose objects stay readable after commit."""
    return sessionmaker(engine, expire_on_commit=False)


def upgrade(url: str) -> None:
    """Apply every Alembic migration in ``migrations/`` to the database at ``url``.

    Raises alembic/SQLAlchemy errors when the database cannot be reached.
    """
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if url.startswith("sqlite"):
        make_engine(url).dispose()  # creates the folder of the file
    command.upgrade(cfg, "head")
