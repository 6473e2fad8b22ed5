"""docker-compose.yml is valid and runs the real CLI: every service command parses with ``judge``'s own
argument parser, workers get the database URL and the privileges the sandbox needs."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import typer
import yaml

from judge.cli import app

REPO = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def _parses(argv: list[str]) -> None:
    """Raise typer's UsageError when ``argv`` is not a valid ``judge`` command line."""
    command = typer.main.get_command(app)
    ctx = command.make_context("judge", list(argv[1:]), resilient_parsing=False)
    while hasattr(ctx.command, "resolve_command"):  # a group: descend into the sub-command
        name, sub, rest = ctx.command.resolve_command(ctx, ctx._protected_args + ctx.args)
        ctx = sub.make_context(name, rest, parent=ctx)


def test_every_service_command_is_a_real_judge_command():
    services = _compose()["services"]
    assert {"db", "api", "worker1", "worker2"} <= set(services)
    for name, service in services.items():
        if "command" not in service:
            continue
        argv = shlex.split(service["command"]) if isinstance(service["command"], str) else service["command"]
        assert argv[0] == "judge", name
        _parses(argv)
    with pytest.raises(Exception, match="No such option"):
        _parses(["judge", "worker", "--no-such-flag"])  # the check can fail


def test_workers_share_only_the_database_and_are_privileged_for_the_sandbox():
    services = _compose()["services"]
    url = services["api"]["environment"]["JUDGE_DATABASE_URL"]
    assert url.startswith("postgresql+psycopg://") and "@db:" in url
    for name in ("worker1", "worker2"):
        assert services[name]["environment"]["JUDGE_DATABASE_URL"] == url
        assert services[name]["privileged"] is True
    assert "--workers 0" in services["api"]["command"]


@pytest.mark.skipif(shutil.which("docker") is None, reason="no docker client")
def test_docker_compose_config_accepts_the_file():
    probe = subprocess.run(["docker", "compose", "version"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("docker has no compose plugin here")
    result = subprocess.run(
        ["docker", "compose", "-f", str(REPO / "docker-compose.yml"), "config", "-q"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
