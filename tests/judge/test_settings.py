"""Settings: README's configuration table lists exactly the fields of ``judge.config.Settings``, and
each field is read from its ``JUDGE_`` variable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from judge.config import Settings, load_settings

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_variables() -> list[str]:
    """The variables in the first column of README's "Configuration" table, in order."""
    section = README.read_text().split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(JUDGE_[A-Z_]+)` \|", section, flags=re.MULTILINE)


def test_readme_lists_exactly_the_settings():
    fields = [f"JUDGE_{name.upper()}" for name in Settings.model_fields]
    assert readme_variables() == fields


def test_every_setting_has_a_meaning():
    assert all(field.description for field in Settings.model_fields.values())


def test_settings_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGE_SUBMIT_INTERVAL_S", "2.5")
    monkeypatch.setenv("JUDGE_WORK_DIR", str(tmp_path))
    monkeypatch.setenv("JUDGE_MAX_ATTEMPTS", "5")
    settings = load_settings()
    assert (settings.submit_interval_s, settings.work_dir, settings.max_attempts) == (2.5, tmp_path, 5)
    assert Settings(max_attempts=7).max_attempts == 7  # an argument wins over the environment


def test_a_bad_value_names_its_variable(monkeypatch):
    monkeypatch.setenv("JUDGE_SUBMIT_INTERVAL_S", "-1")
    with pytest.raises(ValidationError, match="submit_interval_s"):
        load_settings()
