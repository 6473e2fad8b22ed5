"""What a contest tells before and during it: its problems only from the start (every view of the
board and every refusal), and a submission's overall time and memory only over the tests whose
figures the viewer sees. (Metrics: tests/judge/test_ops.py.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from judge.events import SubmissionFeed
from judge.models import Submission, utcnow
from judge.scoreboard import compute_scoreboard
from judge.vocabulary import DetailLevel, ScoreboardView

from ..conftest import make_account
from .conftest import add_problems, add_submission, csv_rows, make_contest
from .test_freeze_api import sse_events

SOURCE = "int main() { return 0; }\n"


def post(client, problem: str, contest: int) -> tuple[int, str]:
    body = {"problem": problem, "language": "cpp", "source": SOURCE, "contest": contest}
    reply = client.post("/api/v1/submissions", json=body)
    return reply.status_code, reply.json()["detail"]


@pytest.fixture
def upcoming(app_db, api_client, teacher_client):
    """A contest with a public scoreboard starting in an hour, owned by teacher1; student1 takes part."""
    add_problems(app_db, "pa", "pb")
    return make_contest(app_db, start=utcnow() + timedelta(hours=1), owner="teacher1", scoreboard_visibility="public")


def board_views(api_app, client, contest_id: int) -> dict[str, str]:
    """The board as ``client`` gets it: JSON, CSV, the event stream's first board, the contest."""
    url = f"/api/v1/contests/{contest_id}"
    boards = [data for name, data in sse_events(client, f"{url}/events") if name == "scoreboard"]
    return {
        "json": client.get(f"{url}/scoreboard").text,
        "csv": client.get(f"{url}/scoreboard.csv").text,
        "events": str(boards[0]),
        "contest": client.get(url).text,
    }


def test_before_the_start_no_view_of_the_board_names_a_problem(api_app, api_client, teacher_client, upcoming):
    for client in (TestClient(api_app), api_client):
        views = board_views(api_app, client, upcoming.id)
        assert [name for name, text in views.items() if "Problem p" in text or '"letter"' in text] == []
        assert csv_rows(views["csv"])[0] == ["rank", "user", "display name", "solved", "attempts", "penalty", "pending"]
    board = api_client.get(f"/api/v1/contests/{upcoming.id}/scoreboard").json()
    assert board["problems"] == [] and [r["cells"] for r in board["rows"]] == [[]]  # student1, no cells
    jury = board_views(api_app, teacher_client, upcoming.id)
    assert all("Problem pa" in text for text in jury.values())  # the jury prepares the contest


def test_the_problems_appear_at_the_start(api_app, app_db, api_client, upcoming):
    upcoming.start_at = utcnow() - timedelta(seconds=1)
    app_db.commit()
    views = board_views(api_app, api_client, upcoming.id)
    assert all("Problem pa" in text and "Problem pb" in text for text in views.values())


def test_the_command_lines_public_board_follows_the_same_rule(app_db, upcoming):
    public = compute_scoreboard(app_db, upcoming, ScoreboardView.PUBLIC)
    jury = compute_scoreboard(app_db, upcoming, ScoreboardView.JURY)
    assert (public.problems, [p[0] for p in jury.problems]) == ([], ["A", "B"])


def test_a_refused_submission_tells_nothing_of_the_problems(api_app, app_db, api_client, upcoming):
    """Before the start: the same 403 for a letter in the contest and one not in it. A student who
    cannot see a contest gets the answer of a contest that does not exist, for every letter."""
    assert post(api_client, "A", upcoming.id) == post(api_client, "Q", upcoming.id)
    assert post(api_client, "A", upcoming.id)[0] == 403
    closed = make_contest(app_db, ("pa",), start=utcnow() - timedelta(minutes=5), participants=["student1"])
    outsider = TestClient(api_app, headers=make_account(api_app, "outsider")[1])
    answers = [post(outsider, letter, closed.id) for letter in ("A", "Q")]
    assert answers == [(404, f"no contest {closed.id}")] * 2
    assert post(outsider, "A", 987654) == (404, "no contest 987654")


@pytest.fixture
def judged(app_db, api_client, teacher_client):
    """A running contest (teacher1's) and student1's WA with a sample (10 ms, 1024 KiB) and two
    secret tests (20 ms, 30 ms): stored overall 30 ms and 4096 KiB, the secret tests' maxima."""
    add_problems(app_db, "pa")
    contest = make_contest(app_db, ("pa",), start=utcnow() - timedelta(minutes=5), owner="teacher1")
    sid = add_submission(
        app_db, contest, api_client.user_id, "pa", "WA", 1, tests=[("sample", "AC"), ("secret", "AC"), ("secret", "WA")]
    )
    row = app_db.get(Submission, sid)
    row.time_ms, row.memory_kib = 30, 4096
    row.results[-1].memory_kib = 4096
    app_db.commit()
    return contest, sid


def figures(client, sid: int) -> tuple:
    view = client.get(f"/api/v1/submissions/{sid}").json()
    verdict = next(data for name, data in sse_events(client, f"/api/v1/submissions/{sid}/events") if name == "verdict")
    return (view["time_ms"], view["memory_kib"]), (verdict["time_ms"], verdict["memory_kib"])


def test_overall_time_and_memory_cover_only_the_tests_a_student_sees(app_db, api_client, teacher_client, judged):
    contest, sid = judged
    assert figures(api_client, sid) == ((10, 1024), (10, 1024))  # the sample's figures, not 30 ms
    assert figures(teacher_client, sid) == ((30, 4096), (30, 4096))
    contest.show_test_details = True  # the student sees every test's figures: the maxima tell nothing more
    app_db.commit()
    assert figures(api_client, sid) == ((30, 4096), (30, 4096))


def test_without_samples_a_student_sees_no_overall_figures(app_db, api_client, judged):
    _, sid = judged
    row = app_db.get(Submission, sid)
    row.results[0].test_group = "secret"
    app_db.commit()
    assert figures(api_client, sid) == ((None, None), (None, None))
    feed = SubmissionFeed(sid, DetailLevel.VERDICTS)
    verdict = dict(feed.poll(app_db))["verdict"]
    assert (verdict["time_ms"], verdict["memory_kib"]) == (None, None)
