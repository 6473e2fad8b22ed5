"""A fuzz of the whole OpenAPI schema (schemathesis): every operation, as a student and as a
teacher, with valid and invalid requests drawn from the schema (a fixed seed and a bounded number
per operation, so a run is the same every time and takes well under a minute). No answer may be a
5xx or differ from the schema: its status, content type, headers and body are all documented.

The event streams are fuzzed too, with ``max_seconds`` cut to a fraction of a second (the client
reads a response only once it has ended). Deeper runs: ``JUDGE_FUZZ_EXAMPLES=500 .venv/bin/pytest
tests/hostile/test_openapi_fuzz.py`` (README, "Testing").
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from judge.clock import utcnow

from ..conftest import make_account
from ..contests.conftest import add_problems, make_contest

EXAMPLES = int(os.environ.get("JUDGE_FUZZ_EXAMPLES", "15"))  # per operation, role and mode
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture(scope="module")
def fuzzed_app(tmp_path_factory):
    """The API on SQLite with problems, a running public contest with submissions, and the tokens
    of a student and a teacher; the limits that would turn the fuzz into 429s are lifted."""
    from argon2 import PasswordHasher, profiles

    import judge.auth
    from judge.api import create_app
    from judge.config import Settings
    from judge.db import upgrade

    folder = tmp_path_factory.mktemp("fuzz")
    url = f"sqlite:///{folder / 'judge.db'}"
    upgrade(url)
    judge.auth._hasher = PasswordHasher.from_parameters(profiles.CHEAPEST)
    app = create_app(
        Settings(
            database_url=url,
            problems_dir=folder / "problems",
            work_dir=folder / "work",
            submit_interval_s=0,
            min_poll_s=0.05,
            max_streams_per_user=1000,
            max_streams_per_address=1000,
            login_failures_per_account=10**6,
            login_failures_per_address=10**6,
        )
    )
    with app.state.sessions() as session:
        add_problems(session, "lee", "basic")
        make_contest(session, problems=["lee", "basic"], start=utcnow(), scoreboard_visibility="public")
    tokens = {role: make_account(app, f"fuzz-{role}", role)[1] for role in ("student", "teacher")}
    yield app, tokens
    app.state.engine.dispose()


def make_token(app, name: str) -> dict[str, str]:
    """Bearer headers with a new token of the existing account ``name``."""
    from sqlalchemy import select

    from judge.auth import issue_token
    from judge.models import User

    with app.state.sessions() as session:
        token, _ = issue_token(session, session.scalar(select(User).where(User.name == name)))
    return {"Authorization": f"Bearer {token}"}


def _bounded_streams(case):
    """A case whose event stream, if it is one, ends within a fraction of a second."""
    if case.operation.path.endswith(("/events", "/event-feed")) and case.query is not None:
        case.query["max_seconds"] = 0.2
    return case


def _operations(app):
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    return [result.ok() for result in schema.get_all_operations()]


@pytest.mark.slow
@pytest.mark.parametrize("role", ["student", "teacher"])
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_operation_answers_5xx_or_outside_its_schema(fuzzed_app, role, mode):
    app, tokens = fuzzed_app
    operations = _operations(app)
    assert len(operations) >= 25  # every route of the API is in the schema
    failures = []
    for operation in operations:

        @seed(20261201)
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=mode).map(_bounded_streams))
        def fuzz(case):
            headers = tokens[role]
            if case.operation.path == "/api/v1/auth/logout":  # it ends the token it carries: a fresh one
                headers = make_token(app, f"fuzz-{role}")
            case.call_and_validate(headers=headers, checks=CHECKS)

        try:
            fuzz()
        except Unsatisfiable:  # NEGATIVE: an operation with no input to get wrong (GET /api/v1/problems)
            continue
        except (Exception, BaseExceptionGroup) as exc:  # gather every operation's first failure, then report them all
            failures.append(f"{operation.method.upper()} {operation.path}: {str(exc)[:1500]}")
    assert not failures, "\n\n".join(failures)
