"""``judge submit`` against careless input and unhelpful servers: a message and exit code 2 ("the
submission could not be made"), never a traceback, and never exit 1 (which means a non-AC verdict)."""

from __future__ import annotations

import http.server
import json
import re
import threading
from contextlib import contextmanager

import pytest
from typer.testing import CliRunner

from judge.cli import app

from ..contests.conftest import add_problems
from .conftest import _free_port, served

runner = CliRunner()


def submit(tmp_path, server: str, name: str, content: bytes, *extra: str):
    """Run ``judge submit`` on a file ``name`` holding ``content``; returns the CliRunner result."""
    source = tmp_path / name
    source.write_bytes(content)
    return runner.invoke(
        app,
        ["submit", "--problem", "lee", "--server", server, "--token", "t0ken", "--timeout", "20", str(source), *extra],
    )


def assert_clean_refusal(result, words: str) -> None:
    assert isinstance(result.exception, SystemExit), repr(result.exception)  # not a crash
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert words in result.output, result.output  # one line: never wrapped


@pytest.fixture
def live_api(api_app):
    """The API served by uvicorn with problem row ``lee``; yields (URL, a student's token)."""
    from judge.auth import create_user, issue_token

    with api_app.state.sessions() as session:
        add_problems(session, "lee")
        user, _ = create_user(session, "ana", "student", password="pw-12345")
        token, _ = issue_token(session, user)
    with served(api_app) as url:
        yield url, token


@pytest.mark.parametrize(
    "content, words",
    [
        (b"", "source is empty"),
        (b"  \n\t\n", "source is empty"),
        (b"print(1)\x00\n", "NUL"),
        (b"#" * 70_000, "413"),
        (b"#" * (2 << 20), "HTTP 413: the request body is over 1048576 bytes (1 MiB), the most this address reads"),
    ],
)
def test_sources_the_server_refuses_give_its_reason(tmp_path, live_api, content, words):
    url, token = live_api
    source = tmp_path / "a.py"
    source.write_bytes(content)
    result = runner.invoke(app, ["submit", "--problem", "lee", "--server", url, "--token", token, str(source)])
    assert_clean_refusal(result, words)


def test_a_second_submission_too_soon_says_the_wait_once(tmp_path, live_api, api_app):
    url, token = live_api
    api_app.state.settings = api_app.state.settings.model_copy(update={"submit_interval_s": 60})
    source = tmp_path / "a.py"
    source.write_text("print(-1)\n")
    command = ["submit", "--problem", "lee", "--server", url, "--token", token, "--no-wait", str(source)]
    assert runner.invoke(app, command).exit_code == 0
    result = runner.invoke(app, command)
    assert_clean_refusal(result, "HTTP 429")
    assert re.fullmatch(r"error: HTTP 429: one submission every 60 s: try again in \d+ s\n", result.output)


def test_files_that_cannot_be_sent_are_refused_before_any_request(tmp_path):
    server = f"http://127.0.0.1:{_free_port()}"  # nobody listens: any request would fail differently
    assert_clean_refusal(submit(tmp_path, server, "latin1.py", b"print('\xe9t\xe9')\n"), "not UTF-8")
    assert_clean_refusal(submit(tmp_path, server, "noext", b"print(1)\n"), "cannot tell the language")
    old = b"#!/usr/bin/env python2\nprint 1\n"  # the format's Python 2: never sent as Python 3
    assert_clean_refusal(submit(tmp_path, server, "old.py", old), "this judge has no Python 2")
    result = runner.invoke(
        app, ["submit", "--problem", "lee", "--server", server, "--token", "x", str(tmp_path / "missing.py")]
    )
    assert_clean_refusal(result, "no such file")


@pytest.mark.parametrize(
    "server, words",
    [("http://127.0.0.1:{port}", "cannot reach"), ("http://[::1", "cannot reach"), ("localhost:8000", "cannot reach")],
)
def test_an_unreachable_or_malformed_server_address(tmp_path, server, words):
    result = submit(tmp_path, server.format(port=_free_port()), "a.py", b"print(1)\n")
    assert_clean_refusal(result, words)


@contextmanager
def fake_judge(post_reply: tuple[int, bytes], get_reply: tuple[int, bytes]):
    """An HTTP server that answers every POST and every GET with a fixed status and body."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def _answer(self, status: int, body: bytes):
            self.send_response(status)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length", 0)))
            self._answer(*post_reply)

        def do_GET(self):
            self._answer(*get_reply)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


QUEUED = (202, json.dumps({"id": 7, "status": "queued", "url": "/api/v1/submissions/7"}).encode())
PROXY_ERROR = (502, b"<html><body>502 Bad Gateway</body></html>")


@pytest.mark.parametrize(
    "post_reply, get_reply, words",
    [
        (QUEUED, PROXY_ERROR, "HTTP 502"),  # the server restarts behind its proxy while the CLI waits
        (QUEUED, (500, b"Internal Server Error"), "HTTP 500"),
        (QUEUED, (401, json.dumps({"detail": "token unknown or expired"}).encode()), "token unknown or expired"),
        (QUEUED, (200, b"[]"), "unexpected answer"),
        ((202, b"<html>queued?</html>"), PROXY_ERROR, "unexpected answer"),
    ],
)
def test_a_server_that_answers_with_something_else_while_waiting(tmp_path, post_reply, get_reply, words):
    with fake_judge(post_reply, get_reply) as server:
        result = submit(tmp_path, server, "a.py", b"print(1)\n")
    assert_clean_refusal(result, words)
