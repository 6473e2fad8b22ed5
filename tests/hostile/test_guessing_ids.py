"""A student walking through ids: another student's submission, its source and its event stream,
and a contest the student is not in, answer exactly as an id that does not exist does (no oracle),
and no walk ever returns someone else's data."""

from __future__ import annotations

from datetime import timedelta

from judge.models import utcnow

from ..contests.conftest import add_problems, add_submission, make_contest
from .conftest import client_of


def test_walking_submission_and_contest_ids_reveals_nothing(api_app):
    ana, ben = client_of(api_app, "ana"), client_of(api_app, "ben")
    client_of(api_app, "tess", "teacher")
    with api_app.state.sessions() as session:
        add_problems(session, "lee")
        open_to_all = make_contest(session, problems=["lee"], start=utcnow() - timedelta(minutes=5), owner="tess")
        only_ben = make_contest(
            session,
            problems=["lee"],
            start=utcnow() - timedelta(minutes=5),
            owner="tess",
            participants=["ben"],
            name="Ben's make-up test",
        )
        mine = add_submission(session, open_to_all, ana.user_id, "lee", "WA", 1)
        bens = {
            add_submission(session, open_to_all, ben.user_id, "lee", "AC", 2),
            add_submission(session, only_ben, ben.user_id, "lee", "AC", 3),
            add_submission(session, None, ben.user_id, "lee", "AC", 4),
        }
        open_id, hidden_id = open_to_all.id, only_ben.id
    missing = max(bens) + 1000
    for sid in sorted(bens) + [missing]:
        for suffix in ("", "/source", "/events"):
            reply = ana.get(f"/api/v1/submissions/{sid}{suffix}")
            assert (reply.status_code, reply.json()) == (404, {"detail": f"no submission {sid}"})
        reply = ana.post(f"/api/v1/submissions/{sid}/rejudge")
        assert (reply.status_code, reply.json()) == (404, {"detail": f"no submission {sid}"})
    assert ana.get(f"/api/v1/submissions/{mine}").status_code == 200
    for cid in (hidden_id, missing):
        for suffix in ("", "/submissions"):
            reply = ana.get(f"/api/v1/contests/{cid}{suffix}")
            assert (reply.status_code, reply.json()) == (404, {"detail": f"no contest {cid}"})
        reply = ana.get(f"/api/v1/contests/{cid}/scoreboard")
        assert (reply.status_code, reply.json()) == (404, {"detail": f"no scoreboard for contest {cid}"})
    listed = ana.get(f"/api/v1/contests/{open_id}/submissions").json()
    assert [s["id"] for s in listed] == [mine]
    assert [s["id"] for s in ana.get("/api/v1/submissions").json()] == [mine]
    assert "Ben's make-up test" not in ana.get("/api/v1/contests").text
