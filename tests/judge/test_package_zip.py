"""Package zips in and out (``judge.package_zip``): hostile zips are refused before anything is
written, an exported package imports back the same, and the CLI's import / export commands."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from judge.cli import app
from judge.package_zip import export_zip, import_zip, unpack_zip, zip_bytes
from judge.packages import PackageError, load_package

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "packages" / "archivesum"
MIB = 1024 * 1024
CAP = 4 * MIB


def zip_of(entries: dict[str, bytes], *, top: str = "", links: dict[str, str] | None = None) -> bytes:
    """A zip holding ``entries`` (name → bytes) under the folder ``top`` and symbolic links
    ``links`` (name → target), as ``zip -y`` stores them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(f"{top}{name}", data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(f"{top}{name}")
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return buffer.getvalue()


def fixture_entries() -> dict[str, bytes]:
    """The files of the ``archivesum`` fixture package (name relative to the package → bytes)."""
    return {str(p.relative_to(FIXTURE)): p.read_bytes() for p in sorted(FIXTURE.rglob("*")) if p.is_file()}


def unpack(data: bytes, tmp_path: Path, name: str = "archivesum.zip", cap: int = CAP) -> Path:
    return unpack_zip(io.BytesIO(data), name, tmp_path / "out", max_bytes=cap)


def nothing_written(tmp_path: Path) -> bool:
    """True when an unpack into ``tmp_path / "out"`` left nothing there (no folder, or an empty one)."""
    out = tmp_path / "out"
    return not out.exists() or list(out.iterdir()) == []


# -- the two layouts ---------------------------------------------------------------------------------


def test_a_zip_with_one_top_folder_takes_its_id_from_the_folder(tmp_path):
    root = unpack(zip_of(fixture_entries(), top="archivesum/"), tmp_path, name="download (3).zip")
    assert root == tmp_path / "out" / "archivesum"
    assert load_package(root).id == "archivesum"


def test_a_zip_with_the_files_at_the_top_takes_its_id_from_its_name(tmp_path):
    root = unpack(zip_of(fixture_entries()), tmp_path, name="sums.kpp")
    assert root.name == "sums" and (root / "data/secret/02-mixed.in").is_file()


@pytest.mark.parametrize("name", ["Sum List.zip", "-x.zip", "ab/../..zip"])
def test_a_name_that_is_no_problem_id_is_refused(tmp_path, name):
    with pytest.raises(PackageError, match="no problem id"):
        unpack(zip_of(fixture_entries()), tmp_path, name=name)


def test_a_zip_without_a_problem_yaml_is_refused(tmp_path):
    with pytest.raises(PackageError, match="no problem.yaml"):
        unpack(zip_of({"a/problem.yaml": b"name: a\n", "b/problem.yaml": b"name: b\n"}), tmp_path)


def test_a_file_that_is_no_zip_is_refused(tmp_path):
    with pytest.raises(PackageError, match="not a zip file"):
        unpack(b"name: not a zip\n", tmp_path)


# -- hostile zips: refused, and nothing written outside (or inside) the destination ---------------------


@pytest.mark.parametrize(
    "name",
    ["../escaped.txt", "archivesum/../../escaped.txt", "/tmp/escaped.txt", "archivesum/data/./x", "C:/escaped.txt"],
)
def test_traversal_and_absolute_names_are_refused(tmp_path, name):
    entries = {f"archivesum/{k}": v for k, v in fixture_entries().items()} | {name: b"owned\n"}
    with pytest.raises(PackageError, match="zip entry"):
        unpack(zip_of(entries), tmp_path)
    assert not (tmp_path / "escaped.txt").exists() and not Path("/tmp/escaped.txt").exists()
    assert nothing_written(tmp_path)


@pytest.mark.parametrize("name", ["data/secret/" + "x" * 300 + ".in", "/".join(["d" * 200] * 30) + "/f"])
def test_names_the_file_system_cannot_hold_are_refused(tmp_path, name):
    entries = fixture_entries() | {name: b"1\n"}
    with pytest.raises(PackageError, match="a name over"):
        unpack(zip_of(entries), tmp_path)
    assert nothing_written(tmp_path)


def test_a_backslash_name_is_refused(tmp_path):
    entries = fixture_entries() | {"..\\..\\escaped.txt": b"owned\n"}
    with pytest.raises(PackageError, match="not allowed in a name"):
        unpack(zip_of(entries), tmp_path)


@pytest.mark.parametrize("target", ["/etc/passwd", "../../../../etc/passwd", "problem.yaml"])
def test_symbolic_links_are_refused_wherever_they_point(tmp_path, target):
    data = zip_of(fixture_entries(), top="archivesum/", links={"submissions/accepted/link.py": target})
    with pytest.raises(PackageError, match="a symbolic link"):
        unpack(data, tmp_path)
    assert nothing_written(tmp_path)


def test_a_zip_bomb_is_refused_by_its_declared_size_before_anything_is_written(tmp_path):
    bomb = fixture_entries() | {"data/secret/99-huge.in": bytes(CAP)}  # zeros: a few KiB compressed
    data = zip_of(bomb)
    assert len(data) < CAP // 100
    with pytest.raises(PackageError, match=f"unpacks to {CAP + sum(map(len, fixture_entries().values()))} bytes"):
        unpack(data, tmp_path)
    assert nothing_written(tmp_path)


def test_an_entry_that_lies_about_its_size_is_stopped(tmp_path):
    data = bytearray(zip_of(fixture_entries() | {"data/secret/99-big.in": bytes(2 * MIB)}))
    real = (2 * MIB).to_bytes(4, "little")
    assert data.count(real) == 2  # its size in the local header and in the central directory
    data[:] = data.replace(real, (10).to_bytes(4, "little"))  # declares 10 bytes, holds 2 MiB
    with pytest.raises(PackageError, match="99-big.in"):
        unpack(bytes(data), tmp_path)
    assert nothing_written(tmp_path)


def test_too_many_entries_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr("judge.package_zip.MAX_ENTRIES", 5)
    with pytest.raises(PackageError, match="at most 5"):
        unpack(zip_of(fixture_entries()), tmp_path)


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_a_name_twice_and_a_file_holding_a_file_are_refused(tmp_path):
    twice = io.BytesIO()
    with zipfile.ZipFile(twice, "w") as archive:
        for name, data in fixture_entries().items():
            archive.writestr(name, data)
        archive.writestr("problem.yaml", b"name: other\n")
    with pytest.raises(PackageError, match="appears twice"):
        unpack(twice.getvalue(), tmp_path)
    with pytest.raises(PackageError, match="inside another entry that is a file"):
        unpack(zip_of(fixture_entries() | {"problem.yaml/x": b""}), tmp_path)


# -- import ------------------------------------------------------------------------------------------


def test_import_refuses_a_package_that_does_not_load_and_leaves_nothing(tmp_path):
    entries = fixture_entries() | {"problem.yaml": b"limits: {memory: -1}\n"}
    with pytest.raises(PackageError, match="limits.memory"):
        import_zip(io.BytesIO(zip_of(entries)), "archivesum.zip", tmp_path / "problems", max_bytes=CAP)
    assert list((tmp_path / "problems").iterdir()) == []


def test_import_replaces_only_when_asked(tmp_path):
    problems = tmp_path / "problems"
    first = import_zip(io.BytesIO(zip_of(fixture_entries())), "archivesum.zip", problems, max_bytes=CAP)
    (first / "data/secret/02-mixed.in").unlink()
    with pytest.raises(PackageError, match="already exists"):
        import_zip(io.BytesIO(zip_of(fixture_entries())), "archivesum.zip", problems, max_bytes=CAP)
    again = import_zip(io.BytesIO(zip_of(fixture_entries())), "archivesum.zip", problems, max_bytes=CAP, replace=True)
    assert (again / "data/secret/02-mixed.in").is_file()
    assert [p.name for p in problems.iterdir()] == ["archivesum"]  # no staging folder left


# -- export and the round trip -----------------------------------------------------------------------


def program_bytes(program: Path) -> dict[str, bytes]:
    """A validator program's files (a file, or every file of a folder) by their path under it."""
    files = [program] if program.is_file() else sorted(p for p in program.rglob("*") if p.is_file())
    return {p.relative_to(program.parent).as_posix(): p.read_bytes() for p in files}


def package_fingerprint(root: Path) -> dict:
    """What the judge reads from a package: limits, each test's bytes, each statement's text."""
    package = load_package(root)
    return {
        "limits": (package.time_limit_ms, package.memory_kib, package.output_bytes, package.validation),
        "tests": {t.name: (t.input_path.read_bytes(), t.answer_path.read_bytes()) for t in package.tests},
        "statements": {lang: path.read_text() for lang, path in package.statements.items()},
        "input_validators": [program_bytes(p) for p in package.input_validators],
    }


def test_a_package_of_another_format_version_is_exported_as_it_is_and_imports_back(tmp_path):
    data, report = zip_bytes(FIXTURE)
    assert not report.converted and report.left_out == []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert sorted(archive.namelist()) == sorted(f"archivesum/{name}" for name in fixture_entries())
    back = import_zip(io.BytesIO(data), "whatever.zip", tmp_path / "problems", max_bytes=CAP)
    assert package_fingerprint(back) == package_fingerprint(FIXTURE)


def test_a_package_of_our_conventions_is_exported_as_2023_07_draft(tmp_path):
    lee = REPO / "problems" / "lee"
    target = tmp_path / "lee.zip"
    report = export_zip(lee, target)
    assert report.converted and report.problem_id == "lee"
    with zipfile.ZipFile(target) as archive:
        names = set(archive.namelist())
        meta = yaml.safe_load(archive.read("lee/problem.yaml"))
        # the checker moves to the 2023-07 folder, the reference link becomes the file it points to
        checker = archive.read("lee/output_validator/check/check.py")
        reference = archive.read("lee/submissions/accepted/reference.py")
    assert checker == (lee / "output_validators/check/check.py").read_bytes()
    assert reference == (REPO / "reference/lee.py").read_bytes()
    assert not any(n.startswith(("lee/tests/", "lee/output_validators/")) or "__pycache__" in n for n in names)
    assert meta["problem_format_version"] == "2023-07-draft"
    assert "validation" not in meta and "io" not in meta and meta["uuid"]
    assert meta["name"]["en"] and meta["limits"]["time_limit"] == 1
    assert export_zip(lee, tmp_path / "again.zip").files == report.files
    assert (tmp_path / "again.zip").read_bytes() == target.read_bytes()  # the same bytes every time
    back = import_zip(io.BytesIO(target.read_bytes()), "lee.zip", tmp_path / "problems", max_bytes=64 * MIB)
    before, after = package_fingerprint(lee), package_fingerprint(back)
    assert after["tests"] == before["tests"] and after["statements"] == before["statements"]
    assert after["limits"][:3] == before["limits"][:3]
    assert after["input_validators"] == before["input_validators"]


def test_submissions_that_use_file_io_are_left_out_of_the_export(tmp_path):
    report = export_zip(REPO / "problems" / "lines", tmp_path / "lines.zip")
    with zipfile.ZipFile(tmp_path / "lines.zip") as archive:
        names = archive.namelist()
    assert report.left_out and all(f"lines/submissions/{name}" not in names for name in report.left_out)


# -- the CLI ------------------------------------------------------------------------------------------


def test_cli_import_unpacks_loads_and_refuses_a_second_time(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_PROBLEMS_DIR", str(tmp_path / "problems"))
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'judge.db'}")
    (tmp_path / "archivesum.zip").write_bytes(zip_of(fixture_entries(), top="archivesum/"))
    runner = CliRunner()
    result = runner.invoke(app, ["problem", "import", str(tmp_path / "archivesum.zip")])
    assert result.exit_code == 0, result.output
    assert "loaded archivesum" in result.output
    assert (tmp_path / "problems/archivesum/problem.yaml").is_file()
    again = runner.invoke(app, ["problem", "import", str(tmp_path / "archivesum.zip")])
    assert again.exit_code == 1 and "already exists" in again.output
    replaced = runner.invoke(app, ["problem", "import", str(tmp_path / "archivesum.zip"), "--replace"])
    assert replaced.exit_code == 0, replaced.output


def test_cli_import_names_what_is_wrong_with_a_hostile_zip(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_PROBLEMS_DIR", str(tmp_path / "problems"))
    (tmp_path / "evil.zip").write_bytes(zip_of(fixture_entries() | {"../../evil.sh": b"rm -rf /\n"}))
    result = CliRunner().invoke(app, ["problem", "import", str(tmp_path / "evil.zip"), "--no-load"])
    assert result.exit_code == 1
    assert "zip entry '../../evil.sh'" in result.output
    assert not (tmp_path / "evil.sh").exists()


def test_cli_import_refuses_a_zip_over_the_cap(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_PROBLEMS_DIR", str(tmp_path / "problems"))
    monkeypatch.setenv("JUDGE_MAX_PACKAGE_BYTES", "1000")
    (tmp_path / "archivesum.zip").write_bytes(zip_of(fixture_entries()))
    result = CliRunner().invoke(app, ["problem", "import", str(tmp_path / "archivesum.zip"), "--no-load"])
    assert result.exit_code == 1 and "at most 1000" in result.output


def test_cli_export_by_id_and_by_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_PROBLEMS_DIR", str(REPO / "problems"))
    runner = CliRunner()
    result = runner.invoke(app, ["problem", "export", "lee", "-o", str(tmp_path / "lee.zip")])
    assert result.exit_code == 0, result.output
    assert "2023-07-draft" in result.output and zipfile.is_zipfile(tmp_path / "lee.zip")
    exists = runner.invoke(app, ["problem", "export", "lee", "-o", str(tmp_path / "lee.zip")])
    assert exists.exit_code == 1 and "already exists" in exists.output
    folder = runner.invoke(app, ["problem", "export", str(FIXTURE), "-o", str(tmp_path / "sum.zip")])
    assert folder.exit_code == 0, folder.output
    unknown = runner.invoke(app, ["problem", "export", "nosuch", "-o", str(tmp_path / "x.zip")])
    assert unknown.exit_code == 1 and "no package folder" in unknown.output


def test_the_stored_archive_keeps_the_folders_of_every_format_version(tmp_path):
    import gzip
    import tarfile

    from judge.package_store import pack

    extra = {
        "problem_statement/problem.en.tex": b"\\problemname{Sum of a list}\n",
        "input_format_validators/check.ctd": b"INT(1,1000)\n",
        "output_validator/check.py": b"import sys\nsys.exit(42)\n",
        ".timelimit": b"2\n",
        "generators/notes.txt": b"not for judging\n",
    }
    root = unpack(zip_of(fixture_entries() | extra), tmp_path)
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(pack(root)))) as tar:
        names = set(tar.getnames())
    assert set(extra) - names == {"generators/notes.txt"}
