"""The API stays split by resource: ``create_app`` only assembles the routers, no route module grows
past a reader's page, and every router is mounted."""

from __future__ import annotations

import inspect
from pathlib import Path

import judge.api
from judge.api import ROUTERS, create_app

API = Path(judge.api.__file__).parent
MAX_MODULE_LINES = 250
MAX_CREATE_APP_LINES = 40


def test_no_route_module_is_longer_than_a_page():
    lengths = {path.name: len(path.read_text().splitlines()) for path in API.glob("*.py")}
    assert {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES} == {}


def test_create_app_only_assembles():
    assert len(inspect.getsource(create_app).splitlines()) <= MAX_CREATE_APP_LINES


def test_every_route_module_is_mounted(tmp_path):
    from judge.config import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'judge.db'}", work_dir=tmp_path))
    served = set(app.openapi()["paths"]) | {"/metrics"}  # /metrics is left out of the schema
    for module in ROUTERS:
        paths = {route.path for route in module.router.routes}
        assert paths and paths <= served, module.__name__
    modules = {f"judge.api.{p.stem}" for p in API.glob("*.py")} - {"judge.api.__init__"}
    no_routes = {"judge.api.errors", "judge.api.lookups", "judge.api.json_depth", "judge.api.etag"}
    no_routes |= {"judge.api.submission_view", "judge.api.body_limit"}
    assert modules - {m.__name__ for m in ROUTERS} == no_routes
