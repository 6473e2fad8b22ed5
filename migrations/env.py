"""Alembic environment: migrations for SQLite and PostgreSQL from the same scripts."""

from __future__ import annotations

from alembic import context

from judge.config import load_settings
from judge.db import make_engine
from judge.models import Base

config = context.config
url = config.get_main_option("sqlalchemy.url") or load_settings().database_url
target_metadata = Base.metadata


def run_migrations() -> None:
    """Run the migrations online; SQLite uses batch mode so ALTER TABLE works there too."""
    engine = make_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations()
