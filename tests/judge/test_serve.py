"""``judge serve`` as a person starts it: the port is bound before anything else, so a port in use
stops it with one clear message (nothing migrated, no admin created, no address printed), and the
address it prints is one that already takes connections."""

from __future__ import annotations

import os
import queue
import socket
import subprocess
import sys
import threading
from pathlib import Path

from tests.web.conftest import free_port


def _environment(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "JUDGE_DATABASE_URL": f"sqlite:///{tmp_path / 'judge.db'}",
        "JUDGE_WORK_DIR": str(tmp_path / "work"),
        "PYTHONUNBUFFERED": "1",
    }


def _serve(tmp_path: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "judge", "serve", "--workers", "0", "--no-load", "--port", str(port)],
        env=_environment(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_port_in_use_stops_serve_with_one_message_and_nothing_done(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = _serve(tmp_path, port)
        out, err = server.communicate(timeout=120)
    assert server.returncode == 1, (out, err)
    assert err.strip() == (
        f"error: port {port} is in use on 127.0.0.1 (another judge serve, or another program): "
        "stop it, or start another with `.venv/bin/judge serve --port N`"
    )
    assert "API on" not in out and "password" not in out, out
    assert not (tmp_path / "judge.db").exists()  # not migrated: no admin was made either


def test_the_address_printed_already_takes_connections(tmp_path):
    port = free_port()
    server = _serve(tmp_path, port)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in server.stdout], daemon=True).start()
    try:
        printed: list[str] = []
        while not any("API on" in line for line in printed):
            try:
                printed.append(lines.get(timeout=120))
            except queue.Empty:
                raise AssertionError(f"judge serve printed no address: {printed}") from None
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass  # the port listens already: a browser sent there now waits for its page, is not refused
        assert f"API on http://127.0.0.1:{port}" in printed[-1]
        assert any(line.startswith("created user admin, password ") for line in printed), printed
    finally:
        server.terminate()
        server.wait(timeout=60)
