"""The judge's clock: every time is UTC.

``utcnow`` is the one source of the current time; ``to_utc`` brings a time from outside (an API body,
a command line) into the same form.
"""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """The current time in UTC, without tzinfo (SQLite keeps no time zone; all times are UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


def to_utc(moment: datetime) -> datetime:
    """``moment`` as naive UTC (an aware time is converted; a naive one is taken as UTC already).

    Raises OverflowError when the conversion leaves the years 1-9999.
    """
    if moment.tzinfo is not None:
        return moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def aware(moment: datetime) -> datetime:
    """A stored time (naive UTC) with its zone attached, as the API shows contest times and expiries."""
    return moment.replace(tzinfo=UTC)
