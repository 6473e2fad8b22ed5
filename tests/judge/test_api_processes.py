"""``judge serve --api-processes 2``: two real API processes on one port, on SQLite and PostgreSQL.

Each test knows which process answered a request: a connection is served by the one process that
holds its server-side socket (found through /proc/net/tcp and /proc/<pid>/fd). The proofs:
- a submission posted to one process shows on a contest event stream held by the other;
- the per-student rate limit holds when two submissions of one student land on different processes;
- failed logins counted by one process throttle the account on the other;
- SIGKILL of `judge serve` leaves no API process behind.
"""

from __future__ import annotations

import asyncio
import ctypes
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.auth import issue_token
from judge.db import make_engine, make_sessionmaker
from judge.models import User, utcnow
from judge.serving import GC_THRESHOLDS, TakeTurnsEventLoop
from tests.contests.conftest import add_problems, add_users, make_contest

SUBMIT_INTERVAL_S = 60  # long enough that a second submission of one student within a test is refused
LOGIN_FAILURES = 3
PIDFD_GETFD = 438  # the system call's number on x86_64 and arm64


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _server_socket_inode(port: int, client_port: int) -> int | None:
    """The inode of the server's end of the TCP connection 127.0.0.1:client_port → 127.0.0.1:port."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1].split(":"), fields[2].split(":")
        if int(local[1], 16) == port and int(remote[1], 16) == client_port:
            return int(fields[9])
    return None


def _holder(pids: list[int], inode: int) -> tuple[int, int] | None:
    """Which of ``pids`` holds the socket ``inode`` open, and as which descriptor: (pid, fd)."""
    target = f"socket:[{inode}]"
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                try:
                    if os.readlink(fd) == target:
                        return pid, int(fd.name)
                except OSError:
                    continue
        except OSError:
            continue
    return None


def _owner(pids: list[int], inode: int) -> int | None:
    """Which of ``pids`` holds the socket ``inode`` open."""
    held = _holder(pids, inode)
    return held[0] if held else None


def _copy_of_descriptor(pid: int, fd: int) -> socket.socket:
    """A socket object on process ``pid``'s descriptor ``fd`` (pidfd_getfd(2); root)."""
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        copied = libc.syscall(PIDFD_GETFD, pidfd, fd, 0)
        if copied < 0:
            raise OSError(ctypes.get_errno(), "pidfd_getfd")
    finally:
        os.close(pidfd)
    return socket.socket(fileno=copied)


class Server:
    """``judge serve --api-processes 2`` on a free port; ``connection_to(i)`` opens a keep-alive
    connection served by API process i (0 or 1)."""

    def __init__(self, url: str, work: Path):
        self.port = _free_port()
        env = {
            **os.environ,
            "JUDGE_DATABASE_URL": url,
            "JUDGE_WORK_DIR": str(work),
            "JUDGE_SUBMIT_INTERVAL_S": str(SUBMIT_INTERVAL_S),
            "JUDGE_MIN_POLL_S": "0.05",
            "JUDGE_LOGIN_FAILURES_PER_ACCOUNT": str(LOGIN_FAILURES),
        }
        self.log = open(work / "serve.log", "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "judge", "serve", "--workers", "0", "--no-load", "--api-processes", "2"]
            + ["--port", str(self.port)],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.pids: list[int] = []

    def wait_up(self) -> None:
        """Wait until both API processes answer."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log_text()
            try:
                self.pids = [self.serving_pid(self.open()) for _ in range(8)]
            except OSError:
                time.sleep(0.2)
                continue
            if len(set(self.pids)) == 2:
                return
        raise AssertionError(f"two API processes did not answer: {self.pids}\n{self.log_text()}")

    def open(self) -> http.client.HTTPConnection:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/api/v1/languages")  # accepted and answered by one process
        reply = connection.getresponse()
        reply.read()
        return connection

    def serving_pid(self, connection: http.client.HTTPConnection) -> int:
        inode = _server_socket_inode(self.port, connection.sock.getsockname()[1])
        owner = _owner(_children(self.process.pid), inode) if inode else None
        assert owner is not None, "no API process holds the connection"
        return owner

    def connection_to(self, index: int) -> http.client.HTTPConnection:
        """A connection served by the API process ``sorted(pids)[index]``."""
        wanted = sorted(set(self.pids))[index]
        for _ in range(200):
            connection = self.open()
            if self.serving_pid(connection) == wanted:
                return connection
            connection.close()
        raise AssertionError(f"no connection reached process {wanted}")

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-3000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


@pytest.fixture
def contest_db(database_url):
    """The database with problem ``pa``, students ann and bob, a running contest (A = pa) with its
    scoreboard public, and a bearer token per student: (url, {name: token}, contest id)."""
    from datetime import timedelta

    sessions = make_sessionmaker(make_engine(database_url))
    with sessions() as session:
        add_problems(session, "pa")
        ids = add_users(session, "ann", "bob")
        contest = make_contest(
            session,
            ("pa",),
            start=utcnow() - timedelta(minutes=5),
            participants=["ann", "bob"],
            scoreboard_visibility="public",
        )
        session.commit()
        tokens = {name: issue_token(session, session.get(User, uid))[0] for name, uid in ids.items()}
        return database_url, tokens, contest.id


@pytest.fixture
def server(contest_db, tmp_path) -> Iterator[Server]:
    running = Server(contest_db[0], tmp_path)
    try:
        running.wait_up()
        yield running
    finally:
        running.stop()


def _post(connection: http.client.HTTPConnection, path: str, token: str | None, body: dict | str) -> tuple[int, dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if isinstance(body, dict):
        payload, headers["Content-Type"] = json.dumps(body), "application/json"
    else:
        payload, headers["Content-Type"] = body, "application/x-www-form-urlencoded"
    connection.request("POST", path, body=payload, headers=headers)
    reply = connection.getresponse()
    return reply.status, json.loads(reply.read() or b"{}")


def _submission(letter: str, contest_id: int, note: str) -> dict:
    return {"problem": letter, "contest": contest_id, "language": "python3", "source": f"print(1)  # {note}\n"}


def test_a_submission_posted_to_one_process_shows_on_a_stream_held_by_the_other(server, contest_db):
    _, tokens, contest_id = contest_db
    watcher = server.connection_to(1)
    watcher.request(
        "GET",
        f"/api/v1/contests/{contest_id}/events?poll=0.05&max_seconds=30",
        headers={"Authorization": f"Bearer {tokens['bob']}"},
    )
    stream = watcher.getresponse()
    assert stream.status == 200

    def next_board() -> dict:
        name = None
        while True:
            line = stream.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: ") and name == "scoreboard":
                return json.loads(line.removeprefix("data: "))

    def pending_of(board: dict, user: str) -> int:
        row = next(r for r in board["rows"] if r["user"] == user)
        return sum(cell["pending"] for cell in row["cells"])

    assert pending_of(next_board(), "ann") == 0  # the board as it was when the stream opened
    poster = server.connection_to(0)
    status, body = _post(poster, "/api/v1/submissions", tokens["ann"], _submission("A", contest_id, "one"))
    assert status == 202, body
    assert pending_of(next_board(), "ann") == 1  # posted through process 0, seen by process 1's stream
    stream.close()


def test_the_rate_limit_holds_when_two_submissions_land_on_different_processes(server, contest_db):
    _, tokens, contest_id = contest_db
    first, second = server.connection_to(0), server.connection_to(1)
    assert server.serving_pid(first) != server.serving_pid(second)
    status, body = _post(first, "/api/v1/submissions", tokens["ann"], _submission("A", contest_id, "first"))
    assert status == 202, body
    status, body = _post(second, "/api/v1/submissions", tokens["ann"], _submission("A", contest_id, "second"))
    assert status == 429, body
    status, body = _post(second, "/api/v1/submissions", tokens["bob"], _submission("A", contest_id, "bob"))
    assert status == 202, body  # the limit is per student: bob is not held back by ann


def test_failed_logins_on_one_process_throttle_the_account_on_the_other(server):
    first, second = server.connection_to(0), server.connection_to(1)
    form = "username=ann&password=wrong"
    answers = [_post(first, "/api/v1/auth/token", None, form)[0] for _ in range(LOGIN_FAILURES)]
    assert answers == [401] * LOGIN_FAILURES
    status, body = _post(second, "/api/v1/auth/token", None, form)
    assert status == 429, body
    assert _post(second, "/api/v1/auth/token", None, "username=bob&password=wrong")[0] == 401  # bob is not ann


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_each_api_process_answers_without_nagles_delay(server):
    """The server's end of every connection has TCP_NODELAY, in each API process: otherwise an
    answer written as head then body waits for the client's delayed ACK (up to 40 ms a request),
    since the socket the parent binds for its children names no protocol and asyncio then leaves
    Nagle's algorithm on (``judge.serving.no_delay``)."""
    for index in (0, 1):
        connection = server.connection_to(index)
        inode = _server_socket_inode(server.port, connection.sock.getsockname()[1])
        held = _holder(_children(server.process.pid), inode) if inode else None
        assert held is not None, "no API process holds the connection"
        with _copy_of_descriptor(*held) as server_end:
            assert server_end.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
        connection.close()


def test_an_api_process_that_answers_late_is_kept(server):
    """An API process that cannot run for longer than uvicorn's default health-ping wait (5 s) is
    busy, not hung: the supervisor keeps it (``judge.serving.HEALTHCHECK_S``), and with it the
    connections it would hold, and it serves again once it runs."""
    slow = sorted(set(server.pids))[0]
    os.kill(slow, signal.SIGSTOP)
    try:
        time.sleep(8)
    finally:
        os.kill(slow, signal.SIGCONT)
    assert slow in _children(server.process.pid), server.log_text()
    assert server.serving_pid(server.connection_to(0)) == slow
    assert "died" not in server.log_text()


def test_serve_killed_takes_its_api_processes_with_it(sqlite_url, tmp_path):
    """SIGKILL gives ``judge serve`` no chance to stop its API processes: each asked Linux for
    SIGTERM when its parent dies (``judge.serving.die_with_parent``), and none is left."""
    running = Server(sqlite_url, tmp_path)
    api_pids: list[int] = []
    try:
        running.wait_up()
        api_pids = sorted(set(running.pids))
        running.process.kill()
        running.process.wait()
        deadline = time.monotonic() + 30
        while any(_alive(pid) for pid in api_pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in api_pids if _alive(pid)]
    finally:
        for pid in api_pids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        running.stop()


def test_an_api_process_leaves_its_start_up_objects_out_of_garbage_collections(sqlite_url, tmp_path):
    """Each API process freezes its heap once its app is built (``judge.serving.freeze_heap``): a
    full collection under load then walks only the objects made since, not every module and route;
    and it collects its older generations less often than Python's default (700, 10, 10)."""
    program = (
        "import gc\nfrom judge.serving import api_process_app\napi_process_app()\n"
        "print(gc.get_freeze_count(), *gc.get_threshold())\n"
    )
    env = {**os.environ, "JUDGE_DATABASE_URL": sqlite_url, "JUDGE_WORK_DIR": str(tmp_path / "work")}
    out = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=60, check=True
    )
    frozen, *thresholds = map(int, out.stdout.split()[-4:])
    assert frozen > 10_000  # the app, its routes, models and modules
    assert tuple(thresholds) == GC_THRESHOLDS and GC_THRESHOLDS[1:] > (10, 10)


@pytest.mark.parametrize("loop_class", [TakeTurnsEventLoop, asyncio.SelectorEventLoop])
def test_an_api_process_takes_one_waiting_connection_at_a_time(loop_class):
    """With five connections waiting on a listening socket, one turn of an API process's event loop
    (``judge.serving.TakeTurnsEventLoop``) accepts one and leaves four to whichever process comes
    next; asyncio's own loop takes all five at once."""
    listening = socket.create_server(("127.0.0.1", 0))
    clients: list[socket.socket] = []
    accepted: list[asyncio.BaseTransport] = []

    class Accepted(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted.append(transport)

    loop = loop_class()
    try:
        server = loop.run_until_complete(loop.create_server(Accepted, sock=listening))
        clients = [socket.create_connection(listening.getsockname()) for _ in range(5)]
        loop.call_soon(loop.stop)
        loop.run_forever()  # one turn: the socket is ready, its connections are accepted
        listening.setblocking(False)
        left = 0
        while True:
            try:
                listening.accept()[0].close()
                left += 1
            except BlockingIOError:
                break
        assert left == (4 if loop_class is TakeTurnsEventLoop else 0)
        loop.run_until_complete(asyncio.sleep(0.05))  # the accepted connections are set up
        assert len(accepted) == 5 - left
        for transport in accepted:
            transport.close()
        server.close()
        loop.run_until_complete(asyncio.sleep(0))
    finally:
        for client in clients:
            client.close()
        loop.close()
        listening.close()
