"""The class rules on SQLite and PostgreSQL alike: a contest's participants come from its classes as
they are at each moment (taking part, the practice lock, the scoreboard and its fingerprint), and a
teacher sees its own students and the students in no class."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from judge import classes
from judge.contests import (
    ContestRuleError,
    contest_class_ids,
    contests_for,
    edit_contest,
    is_participant,
    participants,
    running_contest_of,
    submission_target,
    viewable_submissions,
)
from judge.models import Submission, User, utcnow
from judge.scoreboard import scoreboard_fingerprint
from tests.contests.conftest import add_problems, add_submission, add_users, make_contest


def _user(db, name: str) -> User:
    return db.scalar(select(User).where(User.name == name))


def test_a_contests_classes_decide_who_takes_part(db):
    add_problems(db, "pa", "pb")
    add_users(db, "tess", "tom", role="teacher")
    add_users(db, "ana", "bob", "cid", "dan")
    tess, ana, bob, cid, dan = (_user(db, n) for n in ("tess", "ana", "bob", "cid", "dan"))
    nine_a = classes.create_class(db, tess, "9A")
    nine_b = classes.create_class(db, tess, "9B")
    classes.add_students(db, tess, nine_a, ["ana", "bob"])
    classes.add_students(db, tess, nine_b, ["cid", "bob"])  # bob is in both
    db.commit()
    now = utcnow()
    contest = make_contest(db, start=now - timedelta(minutes=5), classes=[nine_a.id], owner="tess")

    assert [is_participant(db, contest, u) for u in (ana, bob, cid, dan)] == [True, True, False, False]
    assert [u.name for u in participants(db, contest)] == ["ana", "bob"]
    assert [running_contest_of(db, "pa", now, u) for u in (ana, cid, dan)] == [contest.id, None, None]
    assert running_contest_of(db, "pa", now) == contest.id
    assert submission_target(db, cid, "pa", None, now).contest is None  # 9B practises
    assert [c.id for c in contests_for(db, cid)] == []

    before = scoreboard_fingerprint(db, contest, now)
    classes.add_students(db, tess, nine_a, ["dan"])
    db.commit()
    assert scoreboard_fingerprint(db, contest, now) != before
    assert "dan" in [u.name for u in participants(db, contest)]
    assert running_contest_of(db, "pa", now, dan) == contest.id

    # named students and classes together; a class of another teacher is refused by name
    tom = _user(db, "tom")
    other = classes.create_class(db, tom, "Other")
    db.commit()
    edit_contest(db, contest, {"participants": ["cid"]}, now, tess)
    assert [is_participant(db, contest, u) for u in (ana, cid)] == [True, True]
    try:
        edit_contest(db, contest, {"classes": [other.id]}, now, tess)
        raise AssertionError("another teacher's class was taken")
    except ContestRuleError as exc:
        assert exc.status == 404
    edit_contest(db, contest, {"classes": [nine_a.id, other.id]}, now)  # the command line names any class
    edit_contest(db, contest, {"participants": ["cid", "ana"]}, now, tess)  # tess keeps what is listed
    assert contest_class_ids(db, contest) == sorted([nine_a.id, other.id])
    edit_contest(db, contest, {"classes": None, "participants": None}, now, tess)
    assert contest.all_students and is_participant(db, contest, cid)


def test_a_teacher_sees_its_students_and_the_unplaced_ones(db):
    add_problems(db, "pa")
    add_users(db, "tess", "tom", role="teacher")
    add_users(db, "ana", "bea", "new")
    tess, tom = _user(db, "tess"), _user(db, "tom")
    classes.add_students(db, tess, classes.create_class(db, tess, "T"), ["ana"])
    classes.add_students(db, tom, classes.create_class(db, tom, "O"), ["bea"])
    db.commit()
    seen = set(db.scalars(select(User.name).where(classes.users_seen(tess))))
    assert seen == {"tess", "ana", "new"}
    practice = {n: add_submission(db, None, _user(db, n).id, "pa", "AC", 0) for n in ("ana", "bea", "new")}
    visible = set(db.scalars(select(Submission.id).where(viewable_submissions(tess))))
    assert visible == {practice["ana"], practice["new"]}
