"""Reading Kattis packages, storing them by hash, and ``judge problem generate`` reproducibility."""

from __future__ import annotations

import hashlib
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from judge.cli import app
from judge.db import make_engine, make_sessionmaker, upgrade
from judge.generate import generate
from judge.package_store import cached_package, load_problem, pack
from judge.packages import PackageError, load_package

REPO = Path(__file__).resolve().parents[2]

GENERATOR = """
import random, sys
rng = random.Random(int(sys.argv[sys.argv.index("--seed") + 1]))
print(rng.randint(1, 10**9), rng.randint(1, 10**9))
"""
PLAN = """
sample:
  - name: "01"
secret:
  - {name: 01-random, args: [random], seed: 1}
  - {name: 02-random, args: [random], seed: 2}
  - {name: 03-random, args: [random], seed: 3}
"""
REFERENCE = "a, b = map(int, input().split())\nprint(a + b)\n"


def make_package(root: Path, yaml_text: str = "name: A plus B\nlimits:\n  time_limit: 2\n  memory: 128\n") -> Path:
    """A tiny package ``sum`` (add two numbers) with a generator and a reference."""
    pkg = root / "sum"
    for folder in ("data/sample", "data/secret", "generators", "submissions/accepted", "statement"):
        (pkg / folder).mkdir(parents=True, exist_ok=True)
    (pkg / "problem.yaml").write_text(yaml_text)
    (pkg / "statement" / "problem.en.md").write_text("# A plus B\n")
    (pkg / "data/sample/01.in").write_text("1 2\n")
    (pkg / "generators/generate.py").write_text(textwrap.dedent(GENERATOR))
    (pkg / "generators/tests.yaml").write_text(textwrap.dedent(PLAN))
    (pkg / "submissions/accepted/reference.py").write_text(REFERENCE)
    return pkg


def digest_tree(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            h.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def test_generate_is_byte_identical_on_every_run(tmp_path):
    pkg = make_package(tmp_path)
    generate(pkg)
    first = digest_tree(pkg / "data")
    (pkg / "data/secret/99-stale.in").write_text("0 0\n")  # a leftover must not survive
    generate(pkg)
    assert digest_tree(pkg / "data") == first
    assert (pkg / "data/sample/01.ans").read_text() == "3\n"
    package = load_package(pkg)
    assert [t.name for t in package.tests] == ["sample/01", "secret/01-random", "secret/02-random", "secret/03-random"]
    assert (package.time_limit_ms, package.memory_kib) == (2000, 128 * 1024)


@pytest.mark.parametrize(
    "package_id", ["lee", "lines", "snakes", "basic", "queens", "house", "knight", "domination", "camels"]
)
def test_real_package_generates_what_is_committed(tmp_path, package_id):
    """``judge problem generate`` on a copy of each shipped package rewrites the same bytes."""
    import shutil

    source = REPO / "problems" / package_id
    if not (source / "problem.yaml").is_file():
        pytest.skip(f"package {package_id} not written yet")
    copy = tmp_path / package_id
    shutil.copytree(source, copy, symlinks=True)
    link = copy / "submissions/accepted/reference.py"
    if link.is_symlink():  # the relative link points into the repository's reference/
        link.unlink()
        link.symlink_to(REPO / "reference" / f"{package_id}.py")
    generate(copy)
    assert digest_tree(copy / "data") == digest_tree(source / "data")


@pytest.mark.parametrize(
    "yaml_text, message",
    [
        ("name: [unclosed\n", "not valid YAML"),
        ("- a list\n", "mapping"),
        ("limits:\n  time_limit: -1\n", "positive number"),
        ("limits:\n  memory: lots\n", "positive number"),
        ("validation: custom\n", "no program"),
        ("io:\n  output_file: ../../etc/passwd\n", "plain file name"),
    ],
)
def test_malformed_package_is_a_clear_error(tmp_path, yaml_text, message):
    pkg = make_package(tmp_path, yaml_text)
    with pytest.raises(PackageError, match=message.replace("[", r"\[")):
        load_package(pkg, require_tests=False)


def test_input_without_answer_is_refused(tmp_path):
    pkg = make_package(tmp_path)
    with pytest.raises(PackageError, match="no judge answer"):
        load_package(pkg)


def test_generate_cli_reports_failing_reference_and_exits_non_zero(tmp_path):
    pkg = make_package(tmp_path)
    (pkg / "submissions/accepted/reference.py").write_text("raise SystemExit(3)\n")
    result = CliRunner().invoke(app, ["problem", "generate", str(pkg)])
    assert result.exit_code == 1
    assert "exit code 3" in result.output


def test_store_by_hash_and_unpack_in_worker_cache(tmp_path, sqlite_url):
    pkg = make_package(tmp_path)
    generate(pkg)
    assert pack(pkg) == pack(pkg)  # reproducible archive, so the hash names the content
    upgrade(sqlite_url)
    with make_sessionmaker(make_engine(sqlite_url))() as session:
        problem = load_problem(session, pkg)
        session.commit()
        assert problem.package_sha256 == hashlib.sha256(pack(pkg)).hexdigest()
        cached = cached_package(session, problem.package_sha256, "sum", tmp_path / "cache")
    assert cached.root != pkg.resolve()
    assert [t.answer_path.read_bytes() for t in cached.tests] == [
        t.answer_path.read_bytes() for t in load_package(pkg).tests
    ]
