"""Open event streams poll the database at most MAX_CONCURRENT_POLLS at a time, so a student who opens
many streams cannot take every pooled connection from the other requests."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time

from judge import events


class CountingFeed:
    """A feed whose poll holds its 'connection' for 50 ms and counts how many polls overlap."""

    running = 0
    most = 0
    lock = threading.Lock()

    def __init__(self):
        self.finished = False
        self.polls = 0

    def poll(self, _session):
        with CountingFeed.lock:
            CountingFeed.running += 1
            CountingFeed.most = max(CountingFeed.most, CountingFeed.running)
        time.sleep(0.05)
        with CountingFeed.lock:
            CountingFeed.running -= 1
        self.polls += 1
        self.finished = self.polls >= 3
        return []


def test_many_streams_never_poll_more_than_the_limit_at_once():
    feeds = [CountingFeed() for _ in range(30)]

    async def drain(feed):
        async for _ in events.stream(feed, contextlib.nullcontext, poll_s=0.0, max_s=30):
            pass

    async def main():
        await asyncio.gather(*(drain(f) for f in feeds))

    asyncio.run(main())
    assert all(f.polls == 3 for f in feeds)
    assert 2 <= CountingFeed.most <= events.MAX_CONCURRENT_POLLS
