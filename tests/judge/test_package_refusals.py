"""What a package may not hold, refused when it is loaded (``load_package``, ``judge problem load``,
``judge serve``) with the file and the reason: jury files with a UTF-8 byte order mark or CR, and
default-checker flags the Kattis default validator does not know."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.packages import PackageError, load_package
from judge.verify.answers import check_answers_accepted
from judge.verify.report import NoProgress, StepReport

REPO = Path(__file__).resolve().parents[2]


def copy_of_lee(tmp_path: Path) -> Path:
    """The judging files of the `lee` package (no submissions or tests), copied into ``tmp_path``."""
    root = tmp_path / "lee"
    root.mkdir()
    for part in ("problem.yaml", "data", "input_validators", "output_validators", "statement"):
        source = REPO / "problems" / "lee" / part
        (shutil.copytree if source.is_dir() else shutil.copyfile)(source, root / part)
    return root


def default_package(tmp_path: Path, flags: str, answer: bytes = b"1 2\n") -> Path:
    """A package ``pair`` judged by the default checker with ``validator_flags: flags``."""
    root = tmp_path / "pair"
    for group in ("sample", "secret"):
        (root / "data" / group).mkdir(parents=True)
        (root / "data" / group / "01.in").write_bytes(b"1\n")
        (root / "data" / group / "01.ans").write_bytes(answer)
    (root / "problem.yaml").write_text(f"name: Pair\nvalidation: default\nvalidator_flags: {flags}\n")
    return root


@pytest.mark.parametrize(
    "name, alter, reason",
    [
        ("data/sample/01.ans", lambda data: b"\xef\xbb\xbf" + data, "starts with a UTF-8 byte order mark"),
        ("data/secret/01-one-cell.in", lambda data: data.replace(b"\n", b"\r\n"), "carriage return on line 1"),
        ("data/secret/01-one-cell.ans", lambda data: data[:-1] + b"\r\n", "carriage return on line 2"),
    ],
)
def test_jury_files_with_a_byte_order_mark_or_cr_are_refused(tmp_path, name, alter, reason):
    root = copy_of_lee(tmp_path)
    load_package(root)
    path = root / name
    path.write_bytes(alter(path.read_bytes()))
    with pytest.raises(PackageError, match=reason) as raised:
        load_package(root)
    assert name in str(raised.value)


def test_judge_problem_load_refuses_a_byte_order_mark_with_the_file_named(tmp_path, monkeypatch):
    root = copy_of_lee(tmp_path)
    answer = root / "data" / "sample" / "01.ans"
    answer.write_bytes(b"\xef\xbb\xbf" + answer.read_bytes())
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'judge.db'}")
    result = CliRunner().invoke(app, ["problem", "load", str(root)])
    assert result.exit_code != 0
    assert "byte order mark" in " ".join(result.output.split())


@pytest.mark.parametrize(
    "flags, reason",
    [
        ("float_tolerence 1e-6", "unknown validator flag 'float_tolerence'"),
        ("float_tolerance", "needs a number"),
        ("float_relative_tolerance -1", "needs a number"),
    ],
)
def test_default_checker_flags_that_are_not_kattis_flags_are_refused(tmp_path, flags, reason):
    with pytest.raises(PackageError, match=reason):
        load_package(default_package(tmp_path, flags))


def test_every_kattis_flag_loads_and_reaches_the_checker(tmp_path):
    flags = "case_sensitive space_change_sensitive float_tolerance 1e-6"
    package = load_package(default_package(tmp_path, flags))
    assert package.validator_flags == tuple(flags.split())


def test_a_custom_validator_gets_its_own_flags_unchecked(tmp_path):
    root = copy_of_lee(tmp_path)
    meta = root / "problem.yaml"
    meta.write_text(meta.read_text() + "validator_flags: its_own_flag 3\n")
    assert load_package(root).validator_flags == ("its_own_flag", "3")


def _never_run(*args, **kwargs):
    raise AssertionError("the default checker runs no output validator")


def test_verify_warns_about_integers_a_float_tolerance_cannot_compare(tmp_path):
    package = load_package(default_package(tmp_path, "float_tolerance 1e-9", b"9007199254740993\n"))
    step = StepReport(4, "checker accepts every .ans")
    check_answers_accepted(package, step, NoProgress(), _never_run)
    assert step.ok and len(step.warnings) == 2  # sample/01 and secret/01
    assert "beyond 2^53" in step.warnings[0] and "9007199254740993" in step.warnings[0]
    exact = load_package(default_package(tmp_path / "exact", "float_tolerance 1e-9", b"9007199254740992\n"))
    check_answers_accepted(exact, quiet := StepReport(4, "checker accepts every .ans"), NoProgress(), _never_run)
    assert quiet.ok and quiet.warnings == []


# nine times nine times ... of one list: a few hundred bytes of YAML whose full repr has 9**7 items
LAUGHS = "bomb: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 7)
)


@pytest.mark.parametrize(
    "problem_yaml, where",
    [
        (LAUGHS + "name: *a6\n", "name must be a string"),
        (LAUGHS + "name: Lee\nvalidation: *a6\n", "validation"),
        (LAUGHS + "name: Lee\nlimits: {time_limit: *a6}\n", "time_limit"),
        (LAUGHS + "name: Lee\ntype: *a6\n", "type"),
    ],
)
def test_a_value_of_shared_yaml_aliases_is_quoted_in_a_few_hundred_characters(tmp_path, problem_yaml, where):
    """A refusal quotes the value it refuses, cut short (``judge.package.metadata.shown``): YAML
    aliases make a small file hold a value whose whole repr would take megabytes, or gigabytes."""
    root = copy_of_lee(tmp_path)
    (root / "problem.yaml").write_text(problem_yaml)
    with pytest.raises(PackageError, match=where) as refused:
        load_package(root)
    assert len(str(refused.value)) < 1000 + len(str(root))


@pytest.mark.parametrize("name", ['"a\\0b"', '"two\\nlines"', '"bell\\a"'])
def test_a_problem_name_with_control_characters_is_refused(tmp_path, name):
    root = copy_of_lee(tmp_path)
    (root / "problem.yaml").write_text(f"name: {name}\nvalidation: custom\n")
    with pytest.raises(PackageError, match="must be one line of text"):
        load_package(root)
