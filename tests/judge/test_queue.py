"""The queue: atomic claims, leases, fencing and re-queueing, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from datetime import timedelta

from sqlalchemy import event, select, update

from judge import lifecycle
from judge.db import make_engine, make_sessionmaker
from judge.models import PackageArchive, Problem, Submission, TestResult, utcnow
from judge.vocabulary import Priority


def _seed(url: str, count: int) -> list[int]:
    sessions = make_sessionmaker(make_engine(url))
    with sessions() as s:
        s.add(PackageArchive(sha256="0" * 64, archive=b"", size_bytes=0))
        s.add(Problem(id="p", name="P", package_sha256="0" * 64, time_limit_ms=1000, memory_kib=1024))
        rows = [Submission(problem_id="p", package_sha256="0" * 64, language="cpp", source="x") for _ in range(count)]
        s.add_all(rows)
        s.commit()
        return [r.id for r in rows]


def test_claims_oldest_first_and_never_twice(database_url):
    ids = _seed(database_url, 3)
    sessions = make_sessionmaker(make_engine(database_url))
    with sessions() as s:
        got = [lifecycle.claim(s, "w", 30) for _ in range(4)]
    assert [c.submission_id for c in got[:3]] == ids
    assert all(c.attempt == 1 for c in got[:3])
    assert got[3] is None


def test_concurrent_workers_claim_each_submission_once(database_url):
    ids = _seed(database_url, 60)
    claimed: list[int] = []
    lock = threading.Lock()

    def work(name: str):
        sessions = make_sessionmaker(make_engine(database_url))
        with sessions() as s:
            while (c := lifecycle.claim(s, name, 30)) is not None:
                with lock:
                    claimed.append(c.submission_id)

    threads = [threading.Thread(target=work, args=(f"w{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(claimed) == ids  # every one claimed, none twice


def test_expired_lease_is_requeued_and_old_worker_is_fenced_off(database_url):
    (sid,) = _seed(database_url, 1)
    sessions = make_sessionmaker(make_engine(database_url))
    with sessions() as s:
        first = lifecycle.claim(s, "dead", 30)
        s.execute(update(Submission).values(lease_expires_at=utcnow() - timedelta(seconds=1)))
        s.commit()
        assert lifecycle.requeue_expired(s, max_attempts=3) == 1
        second = lifecycle.claim(s, "alive", 30)
        assert second.attempt == first.attempt + 1
        assert not lifecycle.renew(s, first, 30)  # the presumed-dead worker lost its lease
        assert not lifecycle.give_back(s, first)
        assert lifecycle.renew(s, second, 30)
        row = s.get(Submission, sid)
        assert (row.status, row.worker_id) == ("judging", "alive")


def test_after_max_attempts_a_lost_submission_ends_as_judge_error(database_url):
    (sid,) = _seed(database_url, 1)
    sessions = make_sessionmaker(make_engine(database_url))
    with sessions() as s:
        for _ in range(2):
            lifecycle.claim(s, "w", 30)
            s.execute(update(Submission).values(lease_expires_at=utcnow() - timedelta(seconds=1)))
            s.commit()
            lifecycle.requeue_expired(s, max_attempts=2)
        row = s.scalars(select(Submission).where(Submission.id == sid)).one()
        s.refresh(row)
        assert (row.status, row.verdict) == ("done", "JE")
        assert "interrupted 2 times" in row.judge_message
        assert lifecycle.claim(s, "w", 30) is None


def test_finish_stores_the_last_results_with_the_verdict_or_nothing(database_url):
    first, second = _seed(database_url, 2)
    sessions = make_sessionmaker(make_engine(database_url))

    def results(*ordinals: int) -> list[dict]:
        return [
            dict(ordinal=n, test_name=f"t{n}", test_group="secret", verdict="AC", message="x" * 3000) for n in ordinals
        ]

    def finish(s, claim, rows) -> bool:
        return lifecycle.finish(
            s, claim, verdict="AC", compile_message=None, judge_message=None, time_ms=1, memory_kib=1,
            tests_passed=3, tests_total=3, results=rows,
        )  # fmt: skip

    with sessions() as s:
        claim = lifecycle.claim(s, "w", 30)
        assert lifecycle.store_tests(s, claim, "w", results(1))
        assert finish(s, claim, results(2, 3))
        stale = lifecycle.claim(s, "w", 30)
        lifecycle.rejudge(s, submission_id=second)  # the claim on the second no longer holds
        assert not finish(s, stale, results(1))
        stored = s.execute(select(TestResult.submission_id, TestResult.ordinal, TestResult.message)).all()
    assert [(sid, n) for sid, n, _ in stored] == [(first, 1), (first, 2), (first, 3)]
    assert {len(message) for _, _, message in stored} == {lifecycle.MESSAGE_LIMIT}


def test_a_judging_s_results_are_one_insert_per_write_whatever_their_number(database_url):
    _seed(database_url, 1)
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    inserts: list[str] = []

    def note(connection, cursor, statement, *rest) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO TEST_RESULTS"):
            inserts.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    rows = [dict(ordinal=n, test_name=f"t{n}", test_group="secret", verdict="AC", time_ms=n) for n in range(1, 31)]
    with sessions() as s:
        claim = lifecycle.claim(s, "w", 30)
        assert lifecycle.store_tests(s, claim, "w", rows[:10])
        assert lifecycle.finish(
            s, claim, verdict="AC", compile_message=None, judge_message=None, time_ms=30, memory_kib=1,
            tests_passed=30, tests_total=30, results=rows[10:],
        )  # fmt: skip
        stored = s.execute(
            select(
                TestResult.ordinal, TestResult.attempt, TestResult.time_ms, TestResult.wall_ms, TestResult.message
            ).order_by(TestResult.ordinal)
        ).all()
    assert len(inserts) == 2  # one for the batch, one with the verdict: not one per test
    assert [tuple(row) for row in stored] == [(n, claim.attempt, n, 0, None) for n in range(1, 31)]


def test_release_puts_submission_back_for_another_worker(database_url):
    (sid,) = _seed(database_url, 1)
    sessions = make_sessionmaker(make_engine(database_url))
    with sessions() as s:
        c = lifecycle.claim(s, "stopping", 30)
        assert lifecycle.give_back(s, c)
        again = lifecycle.claim(s, "other", 30)
        assert (again.submission_id, again.attempt) == (sid, 2)


def test_contest_before_practice_before_rejudge_and_fair_order_per_user(database_url):
    from judge.models import User

    _seed(database_url, 0)
    sessions = make_sessionmaker(make_engine(database_url))
    with sessions() as s:
        users = [User(name=f"u{i}", display_name=f"U{i}", role="student", password_hash="x") for i in range(3)]
        s.add_all(users)
        s.commit()
        greedy, a, b = (u.id for u in users)

        def add(user_id, priority):
            row = Submission(
                problem_id="p",
                package_sha256="0" * 64,
                language="cpp",
                source="x",
                user_id=user_id,
                **lifecycle.queue_position(s, user_id, priority),
            )
            s.add(row)
            s.commit()
            return row.id

        rejudge = add(a, Priority.REJUDGE)
        flood = [add(greedy, Priority.PRACTICE) for _ in range(10)]  # one student queues ten
        late_a = add(a, Priority.PRACTICE)  # a's second waiting submission (the rejudge is the first)
        late_b = add(b, Priority.PRACTICE)
        contest = add(b, Priority.CONTEST)
        order = []
        while (c := lifecycle.claim(s, "w", 30)) is not None:
            order.append(c.submission_id)
    assert order[0] == contest  # live contest first
    assert order[1:3] == [flood[0], late_b]  # then everyone's first waiting submission
    assert order[3:5] == [flood[1], late_a]  # then everyone's second (a's rejudge was its first)
    assert order[5:13] == flood[2:]  # the rest of the flood after the class
    assert order[-1] == rejudge  # rejudges last


def test_rejudges_do_not_count_as_lost_judgings(database_url):
    """A submission judged and rejudged several times (attempt 3) whose worker then dies goes back to
    the queue: only expired leases count toward the JE limit."""
    (sid,) = _seed(database_url, 1)
    sessions = make_sessionmaker(make_engine(database_url))
    with sessions() as s:
        for _ in range(3):  # judged, then rejudged twice
            lifecycle.claim(s, "w", 30)
            s.execute(update(Submission).values(status="queued"))
            s.commit()
        lifecycle.claim(s, "dies", 30)
        s.execute(update(Submission).values(lease_expires_at=utcnow() - timedelta(seconds=1)))
        s.commit()
        lifecycle.requeue_expired(s, max_attempts=3)
        row = s.get(Submission, sid)
        s.refresh(row)
        assert (row.status, row.verdict, row.attempt, row.lost_judgings) == ("queued", None, 4, 1)


def test_a_worker_claims_only_languages_it_can_judge(database_url):
    ids = _seed(database_url, 2)
    sessions = make_sessionmaker(make_engine(database_url))
    with sessions() as s:
        s.execute(update(Submission).where(Submission.id == ids[0]).values(language="java"))
        s.commit()
        assert lifecycle.claim(s, "no-java", 30, languages=[]) is None
        got = lifecycle.claim(s, "no-java", 30, languages=["cpp", "c"])
        assert got.submission_id == ids[1]  # the older Java submission is left for another worker
        assert lifecycle.claim(s, "no-java", 30, languages=["cpp", "c"]) is None
        assert lifecycle.claim(s, "java", 30, languages=["java"]).submission_id == ids[0]
