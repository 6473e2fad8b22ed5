"""Which sources are compared and what the zip holds, on SQLite and PostgreSQL: each student's latest
AC submission (else the latest), jury submissions left out, the contest's own submissions only."""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta

from sqlalchemy import update

from judge.models import Submission, User, utcnow
from judge.similarity import latest_sources
from judge.source_archive import contest_sources_zip
from tests.contests.conftest import add_problems, add_submission, add_users, make_contest


def _source(db, submission_id: int, text: str) -> None:
    db.execute(update(Submission).where(Submission.id == submission_id).values(source=text))
    db.commit()


def test_the_latest_ac_else_the_latest_of_each_student_jury_left_out(db):
    add_problems(db, "pa", "pb")
    ids = add_users(db, "ana", "bob", "cyd")
    jury = add_users(db, "tess", role="teacher")["tess"]
    contest = make_contest(db, start=utcnow() - timedelta(minutes=60))
    other = make_contest(db, problems=("pb",), start=utcnow() - timedelta(minutes=60))
    ana_ac = add_submission(db, contest, ids["ana"], "pa", "AC", 5)
    add_submission(db, contest, ids["ana"], "pa", "WA", 9)  # later, but not AC: ana stands behind her AC
    add_submission(db, contest, ids["bob"], "pa", "WA", 4)
    bob_last = add_submission(db, contest, ids["bob"], "pa", None, 8)  # still queued: the latest
    add_submission(db, contest, jury, "pa", "AC", 7, is_jury=True)
    cyd_practice = add_submission(db, None, ids["cyd"], "pa", "AC", 3)  # practice: not the contest's
    add_submission(db, other, ids["cyd"], "pb", "AC", 3)
    chosen = latest_sources(db, "pa", Submission.contest_id == contest.id)
    assert [s.id for s in chosen] == [ana_ac, bob_last]
    assert [s.id for s in latest_sources(db, "pa")] == [ana_ac, bob_last, cyd_practice]  # every submission

    _source(db, ana_ac, "// ana's\n")
    archive = zipfile.ZipFile(io.BytesIO(contest_sources_zip(db, contest)))
    names = archive.namelist()
    assert sorted({n.split("/")[0] for n in names}) == ["ana", "bob", "tess"]
    assert len(names) == 5 and all(n.endswith(".cpp") for n in names)
    ana_file = next(n for n in names if f"_{ana_ac}_" in n)
    assert ana_file.startswith("ana/A-pa_") and "_AC_" in ana_file and archive.read(ana_file) == b"// ana's\n"
    assert any("_queued_" in n for n in names)


def test_two_authors_whose_names_collapse_keep_two_folders(db):
    add_problems(db, "pa")
    ids = add_users(db, "p", "q")
    for key, name in (("p", "ana!"), ("q", "ana?")):  # names from outside today's rules (an import)
        db.execute(update(User).where(User.id == ids[key]).values(name=name))
    db.commit()
    contest = make_contest(db, problems=("pa",), start=utcnow() - timedelta(minutes=60))
    add_submission(db, contest, ids["p"], "pa", "AC", 1)
    add_submission(db, contest, ids["q"], "pa", "AC", 2)
    names = zipfile.ZipFile(io.BytesIO(contest_sources_zip(db, contest))).namelist()
    assert sorted(n.split("/")[0] for n in names) == ["ana_", f"ana__{ids['q']}"]
