"""A teacher's upload of a package zip (``POST /api/v1/problems``) and unloading a problem
(``judge problem unload``), on SQLite and PostgreSQL.

Upload: teachers and admins only; a bad, unsafe or unloadable zip is a 422 that says why, a zip over
``JUDGE_MAX_PACKAGE_BYTES`` a 413, an existing id a 409 unless ``replace``. Unload: the problem
leaves every list, students no longer see it, nobody may submit to it (practice or contest), it
cannot be added to another contest; its past submissions and results stay, and loading the package
again (or ``--undo``) brings it back.
"""

from __future__ import annotations

import io
import random
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from judge.cli import app as cli
from judge.models import Problem, Submission, utcnow
from tests.conftest import make_account

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "packages" / "archivesum"


LONG_NAME_YAML = (FIXTURE / "problem.yaml").read_bytes().replace(b"Sum of a list", b"S" * 60_000)


def package_zip(top: str = "archivesum/", changed: dict[str, bytes] | None = None) -> bytes:
    """The ``archivesum`` fixture as a zip under ``top``, with some files ``changed`` (path → bytes)."""
    files = {str(p.relative_to(FIXTURE)): p.read_bytes() for p in FIXTURE.rglob("*") if p.is_file()}
    files |= changed or {}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(top + name, data)
    return buffer.getvalue()


@pytest.fixture
def db_app(database_url, tmp_path, monkeypatch):
    """The API app on a fresh database of each kind, no rate limit, cheap Argon2."""
    from argon2 import PasswordHasher, profiles

    from judge.api import create_app
    from judge.config import Settings

    monkeypatch.setenv("JUDGE_SUBMIT_INTERVAL_S", "0")
    monkeypatch.setattr("judge.auth._hasher", PasswordHasher.from_parameters(profiles.CHEAPEST))
    application = create_app(
        Settings(database_url=database_url, problems_dir=tmp_path / "problems", work_dir=tmp_path / "work")
    )
    yield application
    application.state.engine.dispose()


def client(app, name: str, role: str) -> TestClient:
    test_client = TestClient(app, raise_server_exceptions=False)
    test_client.user_id, headers = make_account(app, name, role)
    test_client.headers.update(headers)
    return test_client


def upload(test_client: TestClient, data: bytes, name: str = "archivesum.zip", **form):
    return test_client.post("/api/v1/problems", files={"file": (name, data, "application/zip")}, data=form)


def test_only_teachers_and_admins_may_upload(db_app):
    anonymous = TestClient(db_app, raise_server_exceptions=False)
    assert upload(anonymous, package_zip()).status_code == 401
    student = client(db_app, "stu", "student")
    refused = upload(student, package_zip())
    assert refused.status_code == 403 and "teacher or an admin" in refused.json()["detail"]
    teacher = client(db_app, "tea", "teacher")
    made = upload(teacher, package_zip())
    assert made.status_code == 201, made.text
    assert made.json()["id"] == "archivesum" and made.json()["time_limit_ms"] == 1000
    assert upload(client(db_app, "adm", "admin"), package_zip(), replace="true").status_code == 201
    listed = student.get("/api/v1/problems").json()
    assert [p["id"] for p in listed] == ["archivesum"]
    shown = student.get("/api/v1/problems/archivesum").json()
    assert shown["samples"][0]["input"] == "3\n1 2 3\n"


def test_an_existing_id_is_replaced_only_when_asked(db_app):
    teacher = client(db_app, "tea", "teacher")
    assert upload(teacher, package_zip()).status_code == 201
    taken = upload(teacher, package_zip())
    assert taken.status_code == 409 and "replace=true" in taken.json()["detail"]
    meta = (FIXTURE / "problem.yaml").read_bytes().replace(b"memory: 256", b"memory: 512")
    bigger = package_zip(changed={"problem.yaml": meta})
    replaced = upload(teacher, bigger, replace="true")
    assert replaced.status_code == 201 and replaced.json()["memory_kib"] == 512 * 1024


@pytest.mark.parametrize(
    ("data", "name", "reason"),
    [
        (b"PK\x03\x04 not really", "archivesum.zip", "not a zip file"),
        (package_zip(top="../"), "archivesum.zip", "zip entry '../problem.yaml'"),
        (package_zip(top=""), "Sum List.zip", "is no problem id"),
        (package_zip(changed={"problem.yaml": b"limits: {time_limit: fast}\n"}), "archivesum.zip", "limits.time_limit"),
        (package_zip(changed={"data/secret/01-one.in": b"1\r\n5\r\n"}), "archivesum.zip", "carriage return"),
        (
            package_zip(changed={"problem.yaml": LONG_NAME_YAML}),
            "archivesum.zip",
            "the problem name (en) is 60000 characters long: at most 200",
        ),
    ],
)
def test_a_bad_zip_or_package_is_a_422_that_says_why(db_app, data, name, reason):
    teacher = client(db_app, "tea", "teacher")
    reply = upload(teacher, data, name)
    assert reply.status_code == 422, reply.text
    detail = reply.json()["detail"]
    assert reason in detail
    assert str(db_app.state.settings.work_dir) not in detail  # names files in the package, not our folders
    assert teacher.get("/api/v1/problems").json() == []


def test_a_package_zip_over_the_apis_body_limit_is_loaded(db_app):
    # a statement picture that does not compress: the zip is over the 1 MiB of a JSON request
    noise = bytes(random.Random(7).getrandbits(8) for _ in range(1_500_000))
    data = package_zip(changed={"statement/noise.png": noise})
    assert len(data) > 1 << 20
    made = upload(client(db_app, "tea", "teacher"), data)
    assert made.status_code == 201, made.text


def test_a_zip_over_the_cap_is_a_413(db_app):
    db_app.state.settings = db_app.state.settings.model_copy(update={"max_package_bytes": 2000})
    reply = upload(client(db_app, "tea", "teacher"), package_zip())
    assert reply.status_code == 413 and "over 2000 bytes" in reply.json()["detail"]


def test_a_symbolic_link_in_an_upload_is_refused(db_app):
    buffer = io.BytesIO(package_zip())
    with zipfile.ZipFile(buffer, "a") as archive:
        info = zipfile.ZipInfo("archivesum/data/secret/03.in")
        info.external_attr = 0o120777 << 16
        archive.writestr(info, "/etc/shadow")
    reply = upload(client(db_app, "tea", "teacher"), buffer.getvalue())
    assert reply.status_code == 422 and "a symbolic link" in reply.json()["detail"]


# -- unloading a problem -----------------------------------------------------------------------------


def submit(test_client: TestClient, problem: str, contest: int | None = None):
    body = {"problem": problem, "language": "python3", "source": "print(6)\n", "contest": contest}
    return test_client.post("/api/v1/submissions", json=body)


def unload(db_app, monkeypatch, *args: str):
    monkeypatch.setenv("JUDGE_DATABASE_URL", db_app.state.settings.database_url)
    return CliRunner().invoke(cli, ["problem", "unload", *args])


def test_an_unloaded_problem_is_hidden_and_closed_but_its_submissions_stay(db_app, monkeypatch):
    teacher, student = client(db_app, "tea", "teacher"), client(db_app, "stu", "student")
    assert upload(teacher, package_zip()).status_code == 201
    earlier = submit(student, "archivesum")
    assert earlier.status_code == 202, earlier.text
    contest = teacher.post(
        "/api/v1/contests",
        json={
            "name": "Week 3",
            "start_at": (utcnow() - timedelta(minutes=5)).isoformat(),
            "end_at": (utcnow() + timedelta(hours=1)).isoformat(),
            "problems": [{"letter": "A", "problem": "archivesum"}],
        },
    )
    assert contest.status_code == 201, contest.text
    contest_id = contest.json()["id"]

    result = unload(db_app, monkeypatch, "archivesum")
    assert result.exit_code == 0, result.output
    assert student.get("/api/v1/problems").json() == teacher.get("/api/v1/problems").json() == []
    assert student.get("/api/v1/problems/archivesum").status_code == 404
    assert teacher.get("/api/v1/problems/archivesum").status_code == 200  # the jury still reads it
    assert submit(student, "archivesum").status_code == 404
    closed = submit(teacher, "archivesum")
    assert closed.status_code == 409 and "unloaded" in closed.json()["detail"]
    in_contest = submit(student, "A", contest_id)
    assert in_contest.status_code == 409 and "unloaded" in in_contest.json()["detail"]
    kept = student.get(f"/api/v1/submissions/{earlier.json()['id']}")
    assert kept.status_code == 200 and kept.json()["problem"] == "archivesum"
    with db_app.state.sessions() as session:
        assert session.get(Submission, earlier.json()["id"]) is not None
        assert session.get(Problem, "archivesum").archived
    another = teacher.post(
        "/api/v1/contests",
        json={
            "name": "Week 4",
            "start_at": (utcnow() + timedelta(days=1)).isoformat(),
            "end_at": (utcnow() + timedelta(days=1, hours=1)).isoformat(),
            "problems": [{"letter": "A", "problem": "archivesum"}],
        },
    )
    assert another.status_code == 409 and "unloaded" in another.json()["detail"]


def test_loading_again_or_undo_brings_an_unloaded_problem_back(db_app, monkeypatch):
    teacher, student = client(db_app, "tea", "teacher"), client(db_app, "stu", "student")
    assert upload(teacher, package_zip()).status_code == 201
    assert unload(db_app, monkeypatch, "archivesum").exit_code == 0
    assert upload(teacher, package_zip(), replace="true").status_code == 201
    assert [p["id"] for p in student.get("/api/v1/problems").json()] == ["archivesum"]
    assert unload(db_app, monkeypatch, "archivesum").exit_code == 0
    assert unload(db_app, monkeypatch, "archivesum", "--undo").exit_code == 0
    assert submit(student, "archivesum").status_code == 202
    missing = unload(db_app, monkeypatch, "nosuch")
    assert missing.exit_code == 1 and "no problem 'nosuch'" in missing.output


def test_serve_loading_its_folder_keeps_an_unloaded_problem_unloaded(db_app, tmp_path):
    from judge.package_store import load_problem, load_problems_dir

    problems = tmp_path / "served"
    problems.mkdir()
    (problems / "archivesum").symlink_to(FIXTURE)
    with db_app.state.sessions() as session:
        load_problem(session, problems / "archivesum").archived = True
        session.commit()
        load_problems_dir(session, problems)  # what `judge serve` does at every start
        assert session.get(Problem, "archivesum").archived


def test_a_zip_past_the_apis_1_mib_body_limit_uploads_up_to_the_package_cap(db_app):
    big = package_zip(changed={"data/secret/big.txt": bytes(range(256)) * 12_288})  # 3 MiB, stored as is
    assert len(big) > 3 * 1024 * 1024
    teacher = client(db_app, "tea", "teacher")
    reply = upload(teacher, big)
    assert reply.status_code == 201, reply.text
    assert reply.json()["id"] == "archivesum"
    db_app.state.settings = db_app.state.settings.model_copy(update={"max_package_bytes": 2 * 1024 * 1024})
    refused = upload(teacher, big, replace="true")
    assert refused.status_code == 413 and "over 2097152 bytes" in refused.json()["detail"]
    other = teacher.post("/api/v1/users", json={"name": "x" * (2 * 1024 * 1024)})
    assert other.status_code == 413  # every other route keeps the 1 MiB limit


def test_a_teacher_may_not_change_the_package_of_another_teachers_contest_until_it_ends(db_app):
    from judge.models import Contest
    from tests.contests.conftest import make_contest

    owner, other = client(db_app, "tea", "teacher"), client(db_app, "tom", "teacher")
    admin = client(db_app, "adm", "admin")
    assert upload(owner, package_zip()).status_code == 201
    with db_app.state.sessions() as session:
        contest = make_contest(session, ["archivesum"], start=utcnow() - timedelta(minutes=5))
        contest.owner_id = owner.user_id
        session.commit()
        contest_id = contest.id
    hijack = package_zip(changed={"problem.yaml": b"name: Hijacked\nlimits: {time_limit: 1}\n"})
    refused = upload(other, hijack, replace="true")
    assert refused.status_code == 409 and "another teacher's contest" in refused.json()["detail"]
    assert owner.get("/api/v1/problems/archivesum").json()["name"] == "Sum of a list"
    assert upload(owner, hijack, replace="true").status_code == 201  # its jury may
    assert upload(admin, package_zip(), replace="true").status_code == 201  # and an admin
    with db_app.state.sessions() as session:
        session.get(Contest, contest_id).end_at = utcnow() - timedelta(minutes=1)
        session.commit()
    assert upload(other, hijack, replace="true").status_code == 201  # after the end, anyone
