"""Fixtures of the web pages' tests: a real server (uvicorn on a free 127.0.0.1 port) with a real
worker judging in the sandbox, Debian's Chromium driven by Playwright, and a place for screenshots.

Screenshots go to ``var/artifacts/screenshots/`` (``JUDGE_SCREENSHOT_DIR`` overrides); each test
prints the path of the one it saves.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.slots import WORK_ROOT, slot

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/lib/chromium/chromium")
# no GPU, no update checks, no first-run pages: the browser talks to our server only
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SCREENSHOTS = Path(os.environ.get("JUDGE_SCREENSHOT_DIR", REPO / "var" / "artifacts" / "screenshots"))
PASSWORD = "pw-" + "x" * 8
WORKER_SLOT = slot(95)  # clear of the other folders (languages: 70, 71; hostile: 82)
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (the kernel's pick)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LiveJudge:
    """A running server (``url``) and worker on one database. The worker judges while ``gate`` is
    set; a test clears it to see a submission waiting, then sets it."""

    url: str
    app: FastAPI
    gate: threading.Event = field(default_factory=threading.Event)

    def api_token(self, name: str) -> dict:
        """Bearer headers of ``name`` (password ``PASSWORD``) from the real API."""
        answer = httpx.post(f"{self.url}/api/v1/auth/token", data={"username": name, "password": PASSWORD})
        answer.raise_for_status()
        return {"Authorization": f"Bearer {answer.json()['access_token']}"}

    def add_user(self, name: str, role: str = "student", display_name: str | None = None) -> None:
        """Create an account with ``PASSWORD``."""
        from judge.auth import create_user

        with self.app.state.sessions() as session:
            create_user(session, name, role, display_name, password=PASSWORD)
            session.commit()


@pytest.fixture(scope="package")
def live_judge(tmp_path_factory) -> Iterator[LiveJudge]:
    """uvicorn serving ``judge.api.create_app`` (pages included) on a fresh SQLite database with every
    problem of ``problems/`` loaded, and a real worker in a thread; no rate limit, cheap Argon2."""
    import uvicorn
    from argon2 import PasswordHasher, profiles

    from judge.api import create_app
    from judge.config import Settings
    from judge.db import make_engine, make_sessionmaker, upgrade
    from judge.package_store import load_problem
    from judge.worker import Worker

    tmp = tmp_path_factory.mktemp("web")
    settings = Settings(
        database_url=f"sqlite:///{tmp / 'judge.db'}",
        problems_dir=REPO / "problems",
        work_dir=Path(os.environ.get("JUDGE_WORK_DIR", WORK_ROOT)) / f"web-{tmp.name}",  # apart per slot offset
        submit_interval_s=0,
    )
    upgrade(settings.database_url)
    with make_sessionmaker(make_engine(settings.database_url))() as session:
        for package in sorted(p.parent for p in (REPO / "problems").glob("*/problem.yaml")):
            load_problem(session, package)
        session.commit()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("judge.auth._hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))
        app = create_app(settings)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        serving = threading.Thread(target=server.run, daemon=True)
        serving.start()
        worker = Worker(settings, slot=WORKER_SLOT)
        worker.start()
        judge = LiveJudge(f"http://127.0.0.1:{port}", app)
        judge.gate.set()

        def judging():
            while not worker.stop.is_set():
                if not (judge.gate.wait(0.2) and worker.judge_one()):
                    time.sleep(0.1)

        judging_thread = threading.Thread(target=judging, daemon=True)
        judging_thread.start()
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.started, "uvicorn did not start"
        yield judge
        worker.stop.set()
        judging_thread.join(60)
        server.should_exit = True
        serving.join(10)
        worker.close()
        shutil.rmtree(settings.work_dir, ignore_errors=True)


@pytest.fixture(scope="package")
def browser():
    """Headless Debian Chromium under Playwright (never Playwright's own download)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} missing: `make install` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, live_judge):
    """A function: a fresh browser page (own cookies) at 1280×720, or a phone's 390×844."""
    contexts = []

    def make(width: int = 1280, height: int = 720):
        context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_judge.url)
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def sign_in(page, name: str, password: str = PASSWORD) -> None:
    """Sign in through the form, as a person would."""
    page.goto("/login")
    page.get_by_label("User name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: not url.endswith("/login"))


def screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot (the whole page, or what the screen shows) as ``<name>.png`` under the
    artifacts and print its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    print(f"screenshot: {path}")
    return path
