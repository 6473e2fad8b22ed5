"""Contest packages: a contest with a freeze exported (folder and zip, in the specification's
layout) and imported into a fresh judge gives the same scoreboards, jury and public; the CLI
commands; bad packages refused with a message."""

from __future__ import annotations

import json
import shutil
import zipfile

import pytest
from typer.testing import CliRunner

from judge.ccs.package import ContestPackageError, export_files, import_contest, read_package, write_package
from judge.cli import app
from judge.db import make_engine, make_sessionmaker
from judge.models import Contest, Submission
from judge.scoreboard import compute_scoreboard
from judge.vocabulary import ScoreboardView

runner = CliRunner()
LAYOUT = {
    "api.json",
    "contest.json",
    "judgement-types.json",
    "languages.json",
    "problems.json",
    "problems/basic/basic.zip",
    "problems/lee/lee.zip",
    "groups.json",
    "teams.json",
    "accounts.json",
    "state.json",
    "submissions.json",
    "judgements.json",
    "runs.json",
    "clarifications.json",
    "awards.json",
    "scoreboard.json",
    "event-feed.ndjson",
}


@pytest.fixture
def fresh_judge(migrated_sqlite_file, tmp_path):
    """A session on a second, empty judge database."""
    shutil.copyfile(migrated_sqlite_file, tmp_path / "fresh.db")
    engine = make_engine(f"sqlite:///{tmp_path / 'fresh.db'}")
    with make_sessionmaker(engine)() as session:
        yield session
    engine.dispose()


def boards(session, contest) -> dict:
    """Both scoreboards of ``contest`` without what differs between judges (ids, computing time)."""
    shown = {}
    for view in ScoreboardView:
        board = compute_scoreboard(session, contest, view).to_dict()
        shown[view] = {k: v for k, v in board.items() if k not in ("contest", "computed_at")}
    return shown


def test_export_writes_the_package_layout_and_import_gives_the_same_scoreboards(
    api_app, frozen_contest, fresh_judge, tmp_path
):
    cache = tmp_path / "cache"
    with api_app.state.sessions() as session:
        contest = session.get(Contest, frozen_contest["id"])
        files = export_files(session, contest, cache)
        original = boards(session, contest)
    submissions = {f"submissions/{i}/files.zip" for i in range(1, 6)}
    assert set(files) == LAYOUT | submissions
    assert original[ScoreboardView.JURY] != original[ScoreboardView.PUBLIC]  # the freeze hides something
    write_package(files, tmp_path / "pkg")
    write_package(files, tmp_path / "pkg.zip")
    assert read_package(tmp_path / "pkg") == read_package(tmp_path / "pkg.zip") == files
    feed = [json.loads(line) for line in files["event-feed.ndjson"].decode().splitlines()]
    assert {e["type"] for e in feed} >= {"contest", "problems", "teams", "submissions", "judgements", "runs", "state"}
    problems = json.loads(files["problems.json"])
    assert problems[0]["package"][0]["filename"] == "basic.zip"
    with zipfile.ZipFile(tmp_path / "pkg" / "problems" / "basic" / "basic.zip") as package:
        assert "problem.yaml" in package.namelist()

    imported = import_contest(fresh_judge, read_package(tmp_path / "pkg.zip"), cache)
    assert sorted(u.name for u, _ in imported.created) == ["ana", "ben"]
    assert boards(fresh_judge, imported.contest) == original
    again = fresh_judge.get(Submission, 4)
    assert (again.verdict, again.created_at, again.source) == ("AC", feed_time(feed, "4"), "int main(){}")


def test_a_score_contest_round_trips_too(api_app, frozen_contest, fresh_judge, tmp_path):
    from .frozen import seed_score_contest

    with api_app.state.sessions() as session:
        contest = session.get(Contest, seed_score_contest(session))
        files = export_files(session, contest, tmp_path / "cache")
        original = boards(session, contest)
    assert original[ScoreboardView.PUBLIC]["rows"][0]["total"] == 40  # ben's 100 is frozen
    assert json.loads(files["contest.json"])["scoreboard_type"] == "score"
    imported = import_contest(fresh_judge, files, tmp_path / "cache")
    assert boards(fresh_judge, imported.contest) == original


def feed_time(feed: list[dict], submission_id: str):
    from judge.ccs.format import parse_abstime

    event = next(e for e in feed if e["type"] == "submissions" and e["id"] == submission_id)
    return parse_abstime(event["data"]["time"])


def test_the_cli_exports_and_imports(api_app, frozen_contest, tmp_path, monkeypatch, migrated_sqlite_file):
    monkeypatch.setenv("JUDGE_DATABASE_URL", str(api_app.state.engine.url))
    monkeypatch.setenv("JUDGE_WORK_DIR", str(tmp_path / "work"))
    target = tmp_path / "contest.zip"
    result = runner.invoke(app, ["contest", "export", str(frozen_contest["id"]), str(target)])
    assert result.exit_code == 0 and target.is_file(), result.output
    again = runner.invoke(app, ["contest", "export", str(frozen_contest["id"]), str(target)])
    assert again.exit_code == 1 and "already exists" in again.output
    shutil.copyfile(migrated_sqlite_file, tmp_path / "fresh.db")
    monkeypatch.setenv("JUDGE_DATABASE_URL", f"sqlite:///{tmp_path / 'fresh.db'}")
    result = runner.invoke(app, ["contest", "import", str(target), "--passwords", str(tmp_path / "pw.tsv")])
    assert result.exit_code == 0, result.output
    assert "imported (2 new accounts)" in result.output
    assert sorted(line.split("\t")[0] for line in (tmp_path / "pw.tsv").read_text().splitlines()) == ["ana", "ben"]
    assert runner.invoke(app, ["contest", "import", str(tmp_path / "none.zip")]).exit_code == 1


def test_bad_packages_are_refused_with_the_reason(api_app, frozen_contest, fresh_judge, tmp_path):
    with api_app.state.sessions() as session:
        files = export_files(session, session.get(Contest, frozen_contest["id"]), tmp_path / "cache")
    broken = {k: v for k, v in files.items() if k != "problems/lee/lee.zip"}
    with pytest.raises(ContestPackageError, match="lee"):
        import_contest(fresh_judge, broken, tmp_path / "cache")
    assert fresh_judge.scalar(Contest.__table__.select().with_only_columns(Contest.id)) is None
    with pytest.raises(ContestPackageError, match="contest.json"):
        import_contest(fresh_judge, {"contest.json": b"{not json"}, tmp_path / "cache")
    (tmp_path / "junk.zip").write_bytes(b"not a zip")
    with pytest.raises(ContestPackageError, match="not a contest package"):
        read_package(tmp_path / "junk.zip")
