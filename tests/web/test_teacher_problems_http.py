"""The teacher's problems page over HTTP: an upload through the form loads the package as the API's
upload does (refusals shown on the page with the API's status, names escaped), and the unload button
unloads and loads again as ``judge problem unload`` does; students are kept out."""

from __future__ import annotations

from markupsafe import escape
from sqlalchemy import select

from judge.auth import create_user
from judge.models import Problem, User
from tests.judge.test_problem_upload import package_zip
from tests.web.test_teacher_http import PASSWORD, signed_in


def accounts(app) -> None:
    with app.state.sessions() as session:
        create_user(session, "tess", "teacher", password=PASSWORD)
        create_user(session, "ana", "student", password=PASSWORD)
        session.commit()


def post_zip(client, data: bytes, name: str = "archivesum.zip", **form):
    return client.post(
        "/teacher/problems",
        files={"file": (name, data, "application/zip")},
        data={"csrf_token": client.csrf, **form},
    )


def test_a_teacher_uploads_a_package_and_unloads_it(api_app):
    accounts(api_app)
    tess = signed_in(api_app, "tess")
    assert tess.get("/teacher/problems").status_code == 200
    loaded = post_zip(tess, package_zip())
    assert loaded.status_code == 200 and "loaded archivesum (Sum of a list)" in loaded.text
    taken = post_zip(tess, package_zip())
    assert taken.status_code == 409 and "replace=true" in taken.text
    assert post_zip(tess, package_zip(), replace="true").status_code == 200
    unloaded = tess.post("/teacher/problems/archivesum/unload", data={"csrf_token": tess.csrf}, follow_redirects=False)
    assert unloaded.status_code == 303
    with api_app.state.sessions() as session:
        assert session.get(Problem, "archivesum").archived
    assert "Load again" in tess.get("/teacher/problems").text
    tess.post("/teacher/problems/archivesum/unload", data={"csrf_token": tess.csrf, "undo": "true"})
    with api_app.state.sessions() as session:
        assert not session.get(Problem, "archivesum").archived


def test_a_bad_zip_is_answered_on_the_page_with_its_name_escaped(api_app):
    accounts(api_app)
    tess = signed_in(api_app, "tess")
    evil = "<img src=x onerror=alert(1)>"
    reply = post_zip(tess, package_zip(top=""), name=evil + ".zip")
    assert reply.status_code == 422
    assert str(escape(f"'{evil}' is no problem id")) in reply.text
    assert evil not in reply.text
    traversal = post_zip(tess, package_zip(top="../"))
    assert traversal.status_code == 422 and "zip entry" in traversal.text


def test_students_and_forms_without_a_token_are_refused(api_app):
    accounts(api_app)
    ana = signed_in(api_app, "ana")
    assert ana.get("/teacher/problems").status_code == 403
    assert post_zip(ana, package_zip()).status_code == 403
    tess = signed_in(api_app, "tess")
    no_token = tess.post("/teacher/problems", files={"file": ("a.zip", package_zip(), "application/zip")})
    assert no_token.status_code == 403
    with api_app.state.sessions() as session:
        assert session.get(Problem, "archivesum") is None


def test_a_package_past_the_apis_1_mib_body_limit_uploads_through_the_form(api_app):
    accounts(api_app)
    tess = signed_in(api_app, "tess")
    big = package_zip(changed={"data/secret/big.txt": bytes(range(256)) * 12_288})  # 3 MiB
    loaded = post_zip(tess, big)
    assert loaded.status_code == 200 and "loaded archivesum" in loaded.text


def test_a_teacher_cannot_unload_a_problem_of_another_teachers_running_contest(api_app):
    from datetime import timedelta

    from judge.models import utcnow
    from tests.contests.conftest import make_contest

    accounts(api_app)
    with api_app.state.sessions() as session:
        create_user(session, "tom", "teacher", password=PASSWORD)
        session.commit()
    tess, tom = signed_in(api_app, "tess"), signed_in(api_app, "tom")
    assert post_zip(tess, package_zip()).status_code == 200
    with api_app.state.sessions() as session:
        contest = make_contest(session, ["archivesum"], start=utcnow() - timedelta(minutes=5))
        contest.owner_id = session.scalar(select(User.id).where(User.name == "tess"))
        session.commit()
    refused = tom.post("/teacher/problems/archivesum/unload", data={"csrf_token": tom.csrf}, follow_redirects=False)
    assert refused.status_code == 409 and "another teacher&#39;s contest" in refused.text
    with api_app.state.sessions() as session:
        assert not session.get(Problem, "archivesum").archived
    done = tess.post("/teacher/problems/archivesum/unload", data={"csrf_token": tess.csrf}, follow_redirects=False)
    assert done.status_code == 303
