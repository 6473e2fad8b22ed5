"""The throttles kept in the database (judge.throttle), on SQLite and PostgreSQL: two objects on one
database stand for two API processes, and a clock of the test's own moves time."""

from __future__ import annotations

import pytest

from judge.db import make_engine, make_sessionmaker
from judge.throttle import STREAM_LEASE_S, LoginThrottle, StreamSlots, Throttled


@pytest.fixture
def sessions(database_url):
    engine = make_engine(database_url)
    yield make_sessionmaker(engine)
    engine.dispose()


def test_failed_logins_counted_by_one_process_refuse_on_another_until_the_window_passes(sessions):
    clock = [1_000_000.0]
    first, second = (LoginThrottle(sessions, 3, 5, 300, clock=lambda: clock[0]) for _ in range(2))
    first.failed("ann", "10.0.0.1")
    clock[0] += 100
    second.failed("ann", "10.0.0.2")
    first.failed("ann\x00 or 1=1", "10.0.0.2")  # any text a client sends is a key like any other
    first.check("ann", "10.0.0.3")  # two failures of three: not yet
    second.failed("ann", "10.0.0.3")
    with pytest.raises(Throttled) as refused:
        first.check("ann", "10.0.0.9")
    assert refused.value.retry_after_s == 200  # the oldest failure leaves the window 200 s from now
    second.check("bob", "10.0.0.9")  # another account, another address: free
    clock[0] += 200
    first.check("ann", "10.0.0.9")  # the first failure aged out
    second.failed("ann", "10.0.0.1")
    with pytest.raises(Throttled):
        second.check("ann", "10.0.0.9")
    first.succeeded("ann")  # the owner got in elsewhere: the account's count is cleared everywhere
    second.check("ann", "10.0.0.9")
    for _ in range(3):
        first.failed(f"user{_}", "10.0.0.2")  # 10.0.0.2 now has five failures in the window
    with pytest.raises(Throttled):
        second.check("carol", "10.0.0.2")


def test_stream_slots_count_over_processes_and_free_themselves_when_their_lease_ends(sessions):
    clock = [1_000_000.0]
    first, second = (StreamSlots(sessions, clock=lambda: clock[0]) for _ in range(2))
    held = [first.take("user:1", 2), second.take("user:1", 2)]
    with pytest.raises(Throttled):
        first.take("user:1", 2)
    assert second.held("user:1") == 2 and first.take("user:2", 2) is not None  # per key
    held[0].release()
    held[0].release()  # a second release gives nothing back twice
    assert first.held("user:1") == 1
    held[0] = second.take("user:1", 2)
    clock[0] += STREAM_LEASE_S * 0.6
    held[0].renew()  # renewed: it lives on; held[1] is not renewed (its process died)
    clock[0] += STREAM_LEASE_S * 0.6
    assert first.held("user:1") == 1
    again = first.take("user:1", 2)  # the dead process's slot no longer counts
    with pytest.raises(Throttled):
        second.take("user:1", 2)
    again.release()
    assert second.held("user:1") == 1
