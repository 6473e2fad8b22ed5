"""Contest packages (icpc/ccs-specs 2023-06, ``Contest_Package.md``): one contest as the Contest API
shows it to its jury, on disk as a folder or a zip of it.

Written by ``export_files``: ``api.json``, ``contest.json``, ``judgement-types.json``,
``languages.json``, ``problems.json`` with ``problems/<id>/<id>.zip`` (the problem package, Kattis
layout), ``groups.json``, ``teams.json``, ``accounts.json`` (no passwords: the judge keeps only
their hashes), ``state.json``, ``submissions.json`` with ``submissions/<id>/files.zip``,
``judgements.json``, ``runs.json``, ``clarifications.json``, ``awards.json``, ``scoreboard.json``
and ``event-feed.ndjson``.

Read by ``import_contest`` into a judge: problems not there yet are loaded from their package
zip; each team becomes a student named after its account's username (an existing account of that
name is reused; new ones get generated passwords); the contest keeps its times, freeze, scoring,
penalty and problem letters, and is unfrozen when ``state.json`` says it was thawed; each
submission keeps its time, source, and its last final judgement with its runs as test results
(test names and groups from the problem package, by ordinal). A submission without a final
judgement is queued for judging. The scoreboard visibility is not part of the format: imported
contests show theirs to participants. ``contest``, ``problems`` and ``accounts`` may be YAML.
"""

from __future__ import annotations

import gzip
import io
import json
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge import lifecycle
from judge.auth import AccountError, create_user, same_name
from judge.ccs import API_INFORMATION
from judge.ccs.feed import EventFeed, ndjson, snapshot
from judge.ccs.format import parse_abstime, parse_reltime, zip_bytes
from judge.ccs.objects import ContestView
from judge.clock import utcnow
from judge.contests import ContestRuleError, ContestSpec, ProblemEntry, create_contest
from judge.languages import LANGUAGES
from judge.models import Contest, PackageArchive, Problem, TestResult, User
from judge.package_store import cached_package, load_problem
from judge.packages import PackageError
from judge.vocabulary import Role, ScoreboardView, Scoring, Verdict

MAX_MEMBER_BYTES = 256 << 20  # a larger file in a package zip is refused


class ContestPackageError(ValueError):
    """A contest package that cannot be read or imported; the message names the file and the reason."""


def source_zip(language: str, source: str) -> bytes:
    """A submission's files as the API serves them: a zip holding the source under the file name
    the judge compiles it as (``main.cpp``, ``Main.java``)."""
    lang = LANGUAGES.get(language)
    return zip_bytes({lang.file_name(source) if lang else "source.txt": source.encode("utf-8")})


def package_zip(archive: bytes) -> bytes:
    """A stored problem package (gzip'd tar, ``judge.package_store``) as a zip of the same files."""
    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(archive)), mode="r:") as tar:
        files = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}  # type: ignore[union-attr]
    return zip_bytes(files)


# -- export ---------------------------------------------------------------------------------------------
def export_files(session: Session, contest: Contest, cache_dir: Path, now: datetime | None = None) -> dict[str, bytes]:
    """The package of ``contest`` (jury view) as relative path → bytes."""
    view = ContestView(session, contest, ScoreboardView.JURY, None, cache_dir, now or utcnow())
    files: dict[str, bytes] = {}

    def put(name: str, value: Any) -> None:
        files[name] = json.dumps(value, indent=1, ensure_ascii=False).encode("utf-8") + b"\n"

    put("api.json", API_INFORMATION)
    put("contest.json", view.contest_object())
    problems = view.problems()
    for problem in problems:
        row = session.get(Problem, problem["id"])
        archive = session.get(PackageArchive, row.package_sha256) if row else None
        if archive is not None:
            name = f"{problem['id']}.zip"
            href = f"contests/{contest.id}/problems/{problem['id']}/package"
            problem["package"] = [{"href": href, "filename": name, "mime": "application/zip"}]
            files[f"problems/{problem['id']}/{name}"] = package_zip(archive.archive)
    put("problems.json", problems)
    for endpoint in ("judgement-types", "languages", "groups", "teams", "accounts"):
        put(f"{endpoint}.json", view.collection(endpoint))
    put("state.json", view.state())
    put("submissions.json", view.submissions())
    for submission in view.rows:
        files[f"submissions/{submission.id}/files.zip"] = source_zip(submission.language, submission.source)
    for endpoint in ("judgements", "runs", "clarifications", "awards"):
        put(f"{endpoint}.json", view.collection(endpoint))
    put("scoreboard.json", view.scoreboard())
    files["event-feed.ndjson"] = "".join(map(ndjson, EventFeed(contest.id).changes(snapshot(view)))).encode("utf-8")
    return files


def write_package(files: dict[str, bytes], target: Path) -> None:
    """Write ``files`` into the folder ``target`` (created; it must be empty if it exists), or as a
    zip when ``target`` ends in ``.zip`` (it must not exist). Raises ContestPackageError."""
    if target.suffix.lower() == ".zip":
        if target.exists():
            raise ContestPackageError(f"{target}: already exists")
        target.write_bytes(zip_bytes(files))
        return
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ContestPackageError(f"{target}: exists and is not an empty folder")
    for name, data in files.items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


# -- import ---------------------------------------------------------------------------------------------
def read_package(source: Path) -> dict[str, bytes]:
    """A package folder or zip as relative path → bytes. Raises ContestPackageError."""
    if source.is_dir():
        return {str(p.relative_to(source)): p.read_bytes() for p in source.rglob("*") if p.is_file()}
    try:
        with zipfile.ZipFile(source) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            if any(m.file_size > MAX_MEMBER_BYTES for m in members):
                raise ContestPackageError(f"{source}: a file over {MAX_MEMBER_BYTES >> 20} MiB")
            files = {m.filename: archive.read(m) for m in members}
    except (OSError, zipfile.BadZipFile) as exc:
        raise ContestPackageError(f"{source}: not a contest package folder or zip ({exc})") from exc
    tops = {name.split("/", 1)[0] for name in files}
    if "contest.json" not in files and "contest.yaml" not in files and len(tops) == 1:  # a zipped folder
        top = tops.pop() + "/"
        files = {name.removeprefix(top): data for name, data in files.items()}
    return files


def _document(files: dict[str, bytes], stem: str, yaml_allowed: bool = False, required: bool = True) -> Any:
    for name in [f"{stem}.json", *([f"{stem}.yaml"] if yaml_allowed else [])]:
        if name in files:
            try:
                return json.loads(files[name]) if name.endswith(".json") else yaml.safe_load(files[name])
            except (ValueError, yaml.YAMLError) as exc:
                raise ContestPackageError(f"{name}: {exc}") from exc
    if required:
        raise ContestPackageError(f"no {stem}.json in the package")
    return []


@dataclass
class Imported:
    """An imported contest and the accounts created for it ((user, generated password) pairs)."""

    contest: Contest
    created: list[tuple[User, str | None]]


def import_contest(session: Session, files: dict[str, bytes], cache_dir: Path) -> Imported:
    """Create the contest of package ``files`` (``read_package``) with its problems, teams and
    submissions (committed). Raises ContestPackageError, leaving nothing behind on a bad package
    up to the contest's creation."""
    try:
        return _import(session, files, cache_dir)
    except ContestPackageError:
        session.rollback()
        raise
    except (KeyError, TypeError, ValueError, AttributeError, zipfile.BadZipFile, AccountError, PackageError) as exc:
        session.rollback()
        raise ContestPackageError(f"cannot import the package: {type(exc).__name__}: {exc}") from exc
    except ContestRuleError as exc:
        session.rollback()
        raise ContestPackageError(f"cannot import the package: {exc.message}") from exc


def _import(session: Session, files: dict[str, bytes], cache_dir: Path) -> Imported:
    info = _document(files, "contest", yaml_allowed=True)
    problems = sorted(_document(files, "problems", yaml_allowed=True), key=lambda p: p.get("ordinal", 0))
    accounts = _document(files, "accounts", yaml_allowed=True, required=False)
    teams, state = _document(files, "teams"), _document(files, "state", required=False) or {}
    score = info.get("scoreboard_type") == "score"
    tests = {p["id"]: _load_problem(session, files, p, cache_dir) for p in problems}
    names = {a["team_id"]: a["username"] for a in accounts if a.get("type") == "team" and a.get("team_id")}
    users, created = {}, []
    for team in teams:
        name = names.get(team["id"]) or team.get("label") or team["id"]
        user = session.scalar(select(User).where(same_name(name)))
        if user is None:
            user, password = create_user(session, name, Role.STUDENT, team.get("display_name") or team.get("name"))
            created.append((user, password))
        users[team["id"]] = user
    start = parse_abstime(info["start_time"])
    end = start + parse_reltime(info["duration"])
    freeze = parse_reltime(info.get("scoreboard_freeze_duration") or "0:00:00")
    spec = ContestSpec(
        name=info.get("name") or info["id"],
        start_at=start,
        end_at=end,
        problems=[ProblemEntry(p["label"], p["id"], int(p["max_score"]) if score else None) for p in problems],
        freeze_at=end - freeze if freeze > timedelta(0) else None,
        scoring=Scoring.IOI if score else Scoring.ICPC,
        participants=[u.name for u in users.values()],
        penalty_minutes=int(info.get("penalty_time", 20)) if not score else 20,
    )
    contest = create_contest(session, spec)  # committed: the rest is checked before it
    contest.unfrozen = bool(state.get("thawed"))
    _import_submissions(session, files, contest, users, tests)
    session.commit()
    return Imported(contest, created)


def _load_problem(session: Session, files: dict[str, bytes], problem: dict, cache_dir: Path) -> list[tuple[str, str]]:
    """Load the problem from its package zip unless the judge has it; its tests' (name, group)."""
    row = session.get(Problem, problem["id"])
    if row is None:
        ref = (problem.get("package") or [{}])[0]
        data = files.get(f"problems/{problem['id']}/{ref.get('filename') or problem['id'] + '.zip'}")
        if data is None:
            raise ContestPackageError(f"problem {problem['id']!r} is not in this judge and its package is missing")
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder) / problem["id"]
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                for member in archive.infolist():
                    target = (root / member.filename).resolve()
                    if not target.is_relative_to(root.resolve()):
                        raise ContestPackageError(f"problem {problem['id']}: {member.filename!r} leaves the package")
                archive.extractall(root)
            row = load_problem(session, root)
    package = cached_package(session, row.package_sha256, row.id, cache_dir)
    return [(t.name, t.group) for t in package.tests]


def _import_submissions(session, files, contest, users, tests) -> None:
    judgements = _document(files, "judgements", required=False)
    runs = _document(files, "runs", required=False)
    final = {}
    for judgement in sorted(judgements, key=lambda j: j.get("end_time") or ""):
        if judgement.get("judgement_type_id"):
            final[judgement["submission_id"]] = judgement
    runs_of: dict[str, list[dict]] = {}
    for run in runs:
        runs_of.setdefault(run["judgement_id"], []).append(run)
    for sub in sorted(_document(files, "submissions", required=False), key=lambda s: parse_abstime(s["time"])):
        if sub["language_id"] not in LANGUAGES:
            raise ContestPackageError(f"submission {sub['id']}: unknown language {sub['language_id']!r}")
        problem = session.get(Problem, sub["problem_id"])
        source = _source(files, sub["id"])
        created, judgement = parse_abstime(sub["time"]), final.get(sub["id"])
        common = dict(problem=problem, language=sub["language_id"], source=source, user_id=users[sub["team_id"]].id)
        if judgement is None:
            lifecycle.enqueue(session, **common, contest_id=contest.id, is_jury=False, now=created)
            continue
        named = tests[sub["problem_id"]]
        results = []
        for run in sorted(runs_of.get(judgement["id"], []), key=lambda r: r["ordinal"]):
            n = run["ordinal"]
            name, group = named[n - 1] if 0 < n <= len(named) else (f"secret/{n:02d}", "secret")
            ms = round(float(run.get("run_time") or 0) * 1000)
            results.append(
                TestResult(
                    ordinal=n, test_name=name, test_group=group, verdict=Verdict(run["judgement_type_id"]), time_ms=ms
                )
            )
        max_run = judgement.get("max_run_time")
        lifecycle.record_judged(
            session,
            **common,
            contest_id=contest.id,
            created_at=created,
            started_at=parse_abstime(judgement["start_time"]),
            finished_at=parse_abstime(judgement["end_time"]),
            verdict=Verdict(judgement["judgement_type_id"]),
            time_ms=round(float(max_run) * 1000) if max_run is not None else None,
            results=results,
        )


def _source(files: dict[str, bytes], submission_id: str) -> str:
    data = files.get(f"submissions/{submission_id}/files.zip")
    if data is None:
        raise ContestPackageError(f"submission {submission_id}: no submissions/{submission_id}/files.zip")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = [m for m in archive.infolist() if not m.is_dir()]
        if len(members) != 1:
            raise ContestPackageError(f"submission {submission_id}: {len(members)} files; the judge takes one")
        return archive.read(members[0]).decode("utf-8")
