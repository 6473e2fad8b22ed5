"""Request and response bodies of the HTTP API (pydantic)."""
from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field


class SubmissionIn(BaseModel):
    """POST /api/v1/submissions: problem id, language id, source text (UTF-8, at most 64 KiB)."""

    problem: str = Field(min_length=1, max_length=64)
    language: str = Field(min_length=1, max_length=32)
    source: str


class SubmissionCreated(BaseModel):
    """202 answer: the new submission's id and where to follow it."""

    id: int
    status: str
    url: str


class TestResultOut(BaseModel):
    """One test case's result: CPU time (ms), wall time (ms), peak memory (KiB)."""

    ordinal: int
    test: str
    group: str
    verdict: str
    time_ms: int
    wall_ms: int
    memory_kib: int
    message: str | None = None


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
    (None while no worker has reported)."""

    id: str
    name: str
    available: bool | None
