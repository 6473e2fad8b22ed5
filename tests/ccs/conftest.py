"""Fixtures of the Contest API tests: the judge of ``api_app`` with the contest of
``tests/ccs/frozen.py``, and clients as its jury (HTTP Basic) and as the public."""

from __future__ import annotations

import base64

import pytest
from fastapi.testclient import TestClient

from .frozen import PASSWORD, seed_frozen_contest


def basic(name: str, password: str = PASSWORD) -> dict[str, str]:
    """The HTTP Basic header of ``name``."""
    return {"Authorization": "Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()}


@pytest.fixture
def frozen_contest(api_app):
    """``seed_frozen_contest`` on the database of ``api_app``."""
    with api_app.state.sessions() as session:
        return seed_frozen_contest(session)


@pytest.fixture
def jury(api_app):
    """A client with the contest teacher's HTTP Basic credentials."""
    return TestClient(api_app, headers=basic("jury"))


@pytest.fixture
def public(api_app):
    """A client without credentials."""
    return TestClient(api_app)
