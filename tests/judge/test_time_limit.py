"""``judge problem time``: the Kattis rule for the time limit (slowest accepted run x multiplier,
rounded up to the resolution), its multipliers read from problem.yaml, and ``--write`` changing only
``limits.time_limit``."""

from __future__ import annotations

import pytest
import yaml
from typer.testing import CliRunner

from judge.cli import app
from judge.packages import PackageError
from judge.scaffold import new_problem
from judge.timelimit import TimeRule, read_rule, time_limit_from, write_time_limit
from tests.slots import slot

TIME_SLOT = slot(54)


@pytest.mark.parametrize(
    "slowest_s, rule, limit_s",
    [
        (0.0, TimeRule(), 1.0),  # at least one resolution step
        (0.3, TimeRule(), 1.0),
        (0.5, TimeRule(), 1.0),  # exactly 1 s: not rounded further up
        (0.6, TimeRule(), 2.0),
        (1.6, TimeRule(ac_to_time_limit=5), 8.0),  # the legacy format's multiplier
        (0.6, TimeRule(time_resolution=0.5), 1.5),
        (0.1, TimeRule(time_resolution=0.25), 0.25),
    ],
)
def test_the_kattis_rule(slowest_s, rule, limit_s):
    assert time_limit_from(slowest_s, rule) == limit_s


def test_multipliers_come_from_problem_yaml(tmp_path):
    yaml_text = "limits:\n  time_multipliers: {ac_to_time_limit: 3}\n  time_resolution: 0.5\n"
    (tmp_path / "problem.yaml").write_text(yaml_text)
    assert read_rule(tmp_path) == TimeRule(3.0, 1.5, 0.5)
    (tmp_path / "problem.yaml").write_text("limits:\n  time_multiplier: 4\n")
    assert read_rule(tmp_path) == TimeRule(4.0, 2.0, 1.0)
    (tmp_path / "problem.yaml").write_text("limits:\n  time_multipliers: {ac_to_time_limit: 0.5}\n")
    with pytest.raises(PackageError, match="ac_to_time_limit"):
        read_rule(tmp_path)


def test_write_changes_only_the_time_limit(tmp_path):
    text = "name: X  # the title\nlimits:\n  time_limit: 1        # seconds\n  memory: 256          # MiB\nio: {}\n"
    (tmp_path / "problem.yaml").write_text(text)
    write_time_limit(tmp_path, 3.0)
    assert (tmp_path / "problem.yaml").read_text() == text.replace("time_limit: 1 ", "time_limit: 3 ")
    (tmp_path / "problem.yaml").write_text("name: X\nlimits:\n  memory: 64\n")
    write_time_limit(tmp_path, 2.5)
    assert yaml.safe_load((tmp_path / "problem.yaml").read_text())["limits"] == {"time_limit": 2.5, "memory": 64}
    (tmp_path / "problem.yaml").write_text("name: X\n")
    write_time_limit(tmp_path, 2.0)
    assert yaml.safe_load((tmp_path / "problem.yaml").read_text()) == {"name": "X", "limits": {"time_limit": 2}}


def test_time_write_on_a_new_package(tmp_path):
    root = new_problem(tmp_path / "problems", "sumup")
    (root / "problem.yaml").write_text((root / "problem.yaml").read_text().replace("time_limit: 1 ", "time_limit: 9 "))
    result = CliRunner().invoke(app, ["problem", "time", str(root), "--write", "--slot", str(TIME_SLOT)])
    assert result.exit_code == 0, result.output
    assert "problem.yaml has 9 s" in result.output and "slowest accepted run" in result.output
    meta = yaml.safe_load((root / "problem.yaml").read_text())
    slowest_ms = int(result.output.split("slowest accepted run ")[1].split(" ms")[0])
    assert meta["limits"]["time_limit"] == time_limit_from(slowest_ms / 1000, TimeRule())
    assert meta["limits"]["memory"] == 256 and meta["name"] == "Sumup"
    assert "# seconds of CPU per test" in (root / "problem.yaml").read_text()
