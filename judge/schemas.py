"""Request and response bodies of the HTTP API (pydantic)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import Path
from pydantic import AfterValidator, BaseModel, Field

MAX_ROW_ID = 2**31 - 1  # ids are SQL INTEGER columns: 32-bit on PostgreSQL, so larger ids exist nowhere
EARLIEST_TIME, LATEST_TIME = datetime(1970, 1, 1), datetime(3000, 1, 1)  # naive UTC, like judge.models
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


def _storable_text(text: str) -> str:
    if not storable(text):
        raise ValueError("must be valid Unicode text without NUL characters or lone surrogates")
    return text


def utc_in_range(moment: datetime) -> datetime:
    """``moment`` as naive UTC (a naive time is UTC already), in [1970, 3000); raises ValueError
    otherwise (an offset near year 1 or 9999 would overflow the conversion)."""
    try:
        utc = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
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


class SubmissionIn(BaseModel):
    """POST /api/v1/submissions: problem id, language id, source text (UTF-8, at most 64 KiB)."""

    problem: Text = Field(min_length=1, max_length=64)
    language: Text = Field(min_length=1, max_length=32)
    source: Text


class SubmissionCreated(BaseModel):
    """202 answer: the new submission's id and where to follow it."""

    id: int
    status: str
    url: str


class TestResultOut(BaseModel):
    """One test case's result: CPU time (ms), wall time (ms), peak memory (KiB), and the output
    validator's structured feedback (a JSON object drawn by ``judge.pictures``), shown like ``message``."""

    ordinal: int
    test: str
    group: str
    verdict: str
    time_ms: int
    wall_ms: int
    memory_kib: int
    message: str | None = None
    feedback: dict | None = None


class SubmissionOut(BaseModel):
    """A submission's state: status queued/judging/done, verdict once done, per-test results."""

    id: int
    problem: str
    language: str
    status: str
    verdict: str | None
    compile_message: str | None
    judge_message: str | None
    time_ms: int | None
    memory_kib: int | None
    tests_passed: int | None
    tests_total: int | None
    created_at: datetime
    finished_at: datetime | None
    results: list[TestResultOut]


class ProblemSummary(BaseModel):
    """A problem in the list: CPU time limit per test (ms), memory limit (KiB)."""

    id: str
    name: str
    time_limit_ms: int
    memory_kib: int


class SampleOut(BaseModel):
    """A sample test: its input and the judge's answer, as text."""

    name: str
    input: str
    answer: str


class ProblemOut(ProblemSummary):
    """A problem: statement (Markdown) in the requested language, its languages, limits, samples."""

    statement: str
    statement_language: str
    statement_languages: list[str]
    output_limit_bytes: int
    input_file: str | None
    output_file: str | None
    samples: list[SampleOut]


class LanguageOut(BaseModel):
    """A judge language; ``available`` is False when no worker's self-test passed for it
    (None while no worker is alive: none has reported yet, or all are down)."""

    id: str
    name: str
    available: bool | None
