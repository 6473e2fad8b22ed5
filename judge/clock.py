"""The judge's clock: every time is UTC and timezone-aware.

``utcnow`` is the one source of the current time; ``to_utc`` brings a time from outside (an API body,
a command line) into the same form. The database stores times as UTC without a zone (SQLite keeps
none); ``UtcDateTime``, the type of every time column, strips the zone on the way in and attaches
UTC on the way out, so no naive time leaves the database.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    """The current time, in UTC, timezone-aware."""
    return datetime.now(UTC)


def to_utc(moment: datetime) -> datetime:
    """``moment`` in UTC, timezone-aware: an aware time is converted, a naive one is taken as UTC.

    Raises OverflowError when the conversion leaves the years 1-9999.
    """
    return moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A time column: stored as naive UTC (``DateTime`` without a zone, as the schema has it), read
    back timezone-aware in UTC. A naive time written to it is taken as UTC."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """The naive UTC form of ``value`` for the database."""
        return to_utc(value).replace(tzinfo=None) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """The stored naive UTC ``value`` with its zone attached."""
        return value.replace(tzinfo=UTC) if value is not None else None
