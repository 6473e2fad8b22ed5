"""Slow or idle connections are timed out: raw sockets against a real uvicorn configured as
``judge serve`` configures it (``judge.serving``), with a read timeout of 1 s. A connection that
sends nothing, trickles its headers, or trickles its body gets 408 and is closed; a request that
arrived whole is never cut, however long its answer streams."""

from __future__ import annotations

import socket
import time

import pytest

from judge.clock import utcnow

from ..contests.conftest import make_contest
from .conftest import client_of, served

READ_TIMEOUT_S = 1.0


@pytest.fixture
def slow_app(any_db_app):
    any_db_app.state.settings = any_db_app.state.settings.model_copy(update={"request_read_timeout_s": READ_TIMEOUT_S})
    return any_db_app


def _connect(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    return sock


def _trickle(sock: socket.socket, data: bytes, every_s: float, for_s: float) -> bool:
    """Send ``data`` a byte every ``every_s`` seconds for at most ``for_s`` seconds; False once the
    server has closed the connection (a send fails)."""
    deadline = time.monotonic() + for_s
    for byte in data:
        if time.monotonic() > deadline:
            return True
        try:
            sock.send(bytes([byte]))
        except OSError:
            return False
        time.sleep(every_s)
    return True


def _answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (at most 10 s)."""
    chunks = []
    sock.settimeout(10)
    while True:
        try:
            chunk = sock.recv(4096)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def _one_response(sock: socket.socket) -> bytes:
    """One whole response with a Content-Length: its head and its body, however the bytes arrive
    (a large body comes in several reads)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        assert chunk, "connection closed before the response's head"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(4096)
        assert chunk, "connection closed inside the response's body"
        body += chunk
    assert len(body) == length, "the server sent more than one response"
    return head + b"\r\n\r\n" + body


def test_an_idle_connection_gets_408_and_is_closed(slow_app):
    with served(slow_app) as url, _connect(url) as sock:
        started = time.monotonic()
        answer = _answer(sock)
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert READ_TIMEOUT_S * 0.9 <= time.monotonic() - started < 8


def test_headers_trickled_a_byte_at_a_time_are_cut_off(slow_app):
    request = b"GET /api/v1/problems HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    with served(slow_app) as url, _connect(url) as sock:
        _trickle(sock, request, every_s=0.1, for_s=5)  # 20 s to send it all: far past the timeout
        assert _answer(sock).startswith(b"HTTP/1.1 408 ")


def test_a_body_trickled_without_a_token_is_cut_off(slow_app):
    body = b'{"problem": "lee", "language": "python3", "source": "print(1)"}'
    head = b"POST /api/v1/submissions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    with served(slow_app) as url, _connect(url) as sock:
        sock.sendall(head + b"Content-Length: %d\r\n\r\n" % len(body))
        _trickle(sock, body, every_s=0.1, for_s=5)
        assert _answer(sock).startswith(b"HTTP/1.1 408 ")  # FastAPI reads the body before the token


def test_a_request_that_arrived_is_answered_and_a_long_stream_is_not_cut(slow_app):
    student = client_of(slow_app, "ana")
    with slow_app.state.sessions() as session:
        contest = make_contest(session, problems=["lee"], start=utcnow())
    token = student.headers["authorization"].encode()
    with served(slow_app) as url, _connect(url) as sock:
        sock.sendall(b"GET /api/v1/problems HTTP/1.1\r\nHost: x\r\n\r\n")
        first = _one_response(sock)
        assert first.startswith(b"HTTP/1.1 200 ")
        path = f"/api/v1/contests/{contest.id}/events?max_seconds={3 * READ_TIMEOUT_S}".encode()
        sock.sendall(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nAuthorization: " + token + b"\r\n\r\n")
        started = time.monotonic()
        streamed = _answer(sock)
        assert streamed.startswith(b"HTTP/1.1 200 ")
        assert b"event: end" in streamed  # the stream ran to its own end, past the read timeout
        assert time.monotonic() - started >= 2 * READ_TIMEOUT_S
