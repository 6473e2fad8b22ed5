"""Field types and bounds of what reaches the database from outside (API bodies, the command line):
text it can store, ids within its integer range, times it can order; ``RequestBody``, the base of every
request body; ``UtcStamp``, every time a response carries. The request and response bodies
themselves live beside their routes in ``judge.api``, but for a contest's request bodies, which the
teacher's form reads too (``judge.contest_bodies``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import Path
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from judge.clock import to_utc

MAX_ROW_ID = 2**31 - 1  # ids are SQL INTEGER columns: 32-bit on PostgreSQL, so larger ids exist nowhere
EARLIEST_TIME, LATEST_TIME = datetime(1970, 1, 1, tzinfo=UTC), datetime(3000, 1, 1, tzinfo=UTC)
MAX_POINTS = 1_000_000  # IOI points of one problem: far below the INTEGER columns' range
MAX_PENALTY_MINUTES = 1000
# list sizes: a class, not a load test (PostgreSQL takes at most 65,535 parameters in one statement)
MAX_PARTICIPANTS, MAX_CONTEST_PROBLEMS, MAX_IMPORTED_USERS = 5000, 100, 2000


def storable(text: str) -> bool:
    """Whether every database of the judge can store ``text``: no NUL character (PostgreSQL refuses
    it in text columns) and no lone UTF-16 surrogate (JSON can spell ``"\\ud800"``; it has no UTF-8 form)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def whole_number(text: str, most: int = MAX_ROW_ID) -> int | None:
    """``text`` as an integer in [0, ``most``] when it is ASCII digits only, else None. ``str.isdigit``
    alone also takes ``"²"`` and other Unicode digits that ``int`` refuses, and ``int`` refuses a text of
    over 4300 digits: every number a path, query or form field spells is read here."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)):
        return None
    number = int(text)
    return number if number <= most else None


def _storable_text(text: str) -> str:
    if not storable(text):
        raise ValueError("must be valid Unicode text without NUL characters or lone surrogates")
    return text


def utc_in_range(moment: datetime) -> datetime:
    """``moment`` in UTC, timezone-aware (a naive time is UTC already), in [1970, 3000); raises
    ValueError otherwise (an offset near year 1 or 9999 would overflow the conversion)."""
    try:
        utc = to_utc(moment)
    except OverflowError:
        raise ValueError("is out of range once converted to UTC") from None
    if not EARLIEST_TIME <= utc < LATEST_TIME:
        raise ValueError(f"must lie between {EARLIEST_TIME:%Y} and {LATEST_TIME:%Y} (UTC)")
    return utc


# Request fields that reach the database: text it can store, ids within its integer range (strict:
# JSON true or "1" is no id), times it can order.
Text = Annotated[str, AfterValidator(_storable_text)]
RowId = Annotated[int, Field(strict=True, ge=1, le=MAX_ROW_ID)]
PathId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="row id")]
UtcTime = Annotated[datetime, AfterValidator(utc_in_range)]
# Response fields: a time in UTC whatever the row held, so it leaves as ISO 8601 ending in "Z"
# (``judge.clock.iso_utc``), typed ``date-time`` in the OpenAPI schema.
UtcStamp = Annotated[datetime, AfterValidator(to_utc)]


class RequestBody(BaseModel):
    """A request body: a field it does not define is refused (422), never silently ignored."""

    model_config = ConfigDict(extra="forbid")
