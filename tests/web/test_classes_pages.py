"""The classes and account-care pages over HTTP (TestClient, no browser): a class from the form and an
uploaded CSV, another teacher's class and students hidden, a contest for a class from the contest
form, deactivating a student from the Users page (its session ends at once), archiving a contest
from its jury page. The rules are the API's (``judge.classes``, ``judge.users``, ``judge.contests``)."""

from __future__ import annotations

import re

from sqlalchemy import select

from judge.contests import is_participant
from judge.models import Contest, SchoolClass, User
from tests.web import test_teacher_http
from tests.web.test_teacher_http import EVIL, contest_form, contest_of, signed_in

app = test_teacher_http.app  # the fixture: lee, queens, the teachers tess and tom, the students ana and bob


def _class_page(client, name: str) -> tuple[int, str]:
    made = client.post("/teacher/classes", data={"csrf_token": client.csrf, "name": name}, follow_redirects=False)
    assert made.status_code == 303, made.text
    class_id = int(made.headers["location"].rsplit("/", 1)[1])
    return class_id, client.get(f"/teacher/classes/{class_id}").text


def test_a_class_from_the_pages_and_another_teachers_hidden(app):
    tess, tom = signed_in(app, "tess"), signed_in(app, "tom")
    class_id, page = _class_page(tess, "9A <b>")
    assert "9A &lt;b&gt;" in page and "No student in this class yet" in page
    upload = tess.post(
        f"/teacher/classes/{class_id}/import",
        data={"csrf_token": tess.csrf},
        files={"file": ("9a.csv", b"name,display name\nana,\nzoe,Zoe Z\n", "text/csv")},
    )
    assert upload.status_code == 200 and "1 new accounts, 1 existing students added" in upload.text
    assert "zoe" in upload.text and upload.headers["cache-control"] == "no-store"
    added = tess.post(f"/teacher/classes/{class_id}/students", data={"csrf_token": tess.csrf, "names": "bob, nobody"})
    assert added.status_code == 404 and "nobody" in added.text
    page = tess.get(f"/teacher/classes/{class_id}").text
    assert all(n in page for n in ("ana", "zoe")) and "bob" not in page and EVIL not in page

    assert tom.get(f"/teacher/classes/{class_id}").status_code == 404
    assert "9A" not in tom.get("/teacher/classes").text
    users_page = tom.get("/teacher/users").text
    assert ">zoe<" not in users_page and ">ana<" not in users_page and ">bob<" in users_page
    refused = tom.post("/teacher/users/zoe/deactivate", data={"csrf_token": tom.csrf})
    assert refused.status_code == 404
    assert tom.post(f"/teacher/classes/{class_id}/delete", data={"csrf_token": tom.csrf}).status_code == 404
    assert signed_in(app, "ana").get("/teacher/classes").status_code == 403

    # a contest for the class, from the contest form
    form = contest_form(tess) | {"classes": [str(class_id)]}
    made = tess.post("/teacher/contests", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    contest_page = tess.get(made.headers["location"]).text
    assert re.search(r"class 9A &lt;b&gt;", contest_page)
    with app.state.sessions() as session:
        contest = session.scalar(select(Contest))
        ana, bob = (session.scalar(select(User).where(User.name == n)) for n in ("ana", "bob"))
        assert is_participant(session, contest, ana) and not is_participant(session, contest, bob)
    edit = tess.get(f"/teacher/contests/{contest.id}/edit").text
    assert re.search(rf'name="classes" value="{class_id}"\s+checked', edit)
    theirs = tom.post("/teacher/contests", data=contest_form(tom) | {"classes": [str(class_id)]})
    assert theirs.status_code == 404 and f"no class {class_id}" in theirs.text

    assert (
        tess.post(f"/teacher/classes/{class_id}/students/ana/remove", data={"csrf_token": tess.csrf}).status_code == 200
    )
    assert tess.post(f"/teacher/classes/{class_id}/delete", data={"csrf_token": tess.csrf}).status_code == 200
    with app.state.sessions() as session:
        assert session.scalar(select(SchoolClass)) is None
        assert session.scalar(select(User).where(User.name == "ana")) is not None


def test_deactivating_from_the_users_page_ends_the_session_at_once(app):
    tess, bob = signed_in(app, "tess"), signed_in(app, "bob")
    assert bob.get("/submissions").status_code == 200
    answer = tess.post("/teacher/users/bob/deactivate", data={"csrf_token": tess.csrf}, follow_redirects=False)
    assert answer.status_code == 303
    assert "deactivated" in tess.get("/teacher/users").text
    assert bob.get("/submissions").status_code == 401
    assert tess.post("/teacher/users/tess/deactivate", data={"csrf_token": tess.csrf}).status_code == 403
    assert tess.post("/teacher/users/bob/reactivate", data={"csrf_token": tess.csrf}).status_code == 200
    assert signed_in(app, "bob").get("/submissions").status_code == 200
    assert tess.post("/teacher/users/bob/deactivate").status_code == 403  # no CSRF token


def test_a_contest_is_archived_and_restored_from_its_jury_page(app):
    contest_id = contest_of(app, "tess")
    tess = signed_in(app, "tess")
    assert 'name="archived" value="on"' in tess.get(f"/teacher/contests/{contest_id}").text
    tess.post(f"/teacher/contests/{contest_id}/archive", data={"csrf_token": tess.csrf, "archived": "on"})
    page = tess.get(f"/teacher/contests/{contest_id}").text
    assert "Restore from the archive" in page and 'id="archived-note"' in page
    assert ">archived<" in tess.get("/teacher/contests").text
    assert signed_in(app, "ana").get(f"/contests/{contest_id}").status_code == 404
    tess.post(f"/teacher/contests/{contest_id}/archive", data={"csrf_token": tess.csrf})
    with app.state.sessions() as session:
        assert session.get(Contest, contest_id).archived is False
