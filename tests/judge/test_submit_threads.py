"""A burst of submissions to one API process is accepted at most ``SUBMITS.tokens`` at a time: the
rest wait in the event loop, not in threads that would only contend for the interpreter lock."""

from __future__ import annotations

import asyncio
import threading
import time

import httpx

from judge.api import submissions


class CountingAccept:
    """Stands in for ``accept_by_token``: holds its thread for 50 ms, counts the overlapping calls,
    and refuses the token (so the API answers 401)."""

    def __init__(self) -> None:
        self.running = self.most = self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, *_args, **_kwargs):
        with self.lock:
            self.running += 1
            self.calls += 1
            self.most = max(self.most, self.running)
        time.sleep(0.05)
        with self.lock:
            self.running -= 1
        return None


def test_a_burst_of_submissions_runs_at_most_the_limit_at_once(api_app, monkeypatch):
    accept = CountingAccept()
    monkeypatch.setattr(submissions, "accept_by_token", accept)
    body = {"problem": "sum", "language": "python3", "source": "print(1)\n"}

    async def burst() -> list[int]:
        transport = httpx.ASGITransport(app=api_app)
        async with httpx.AsyncClient(transport=transport, base_url="http://judge") as client:
            answers = await asyncio.gather(
                *(
                    client.post("/api/v1/submissions", json=body, headers={"Authorization": f"Bearer t{i}"})
                    for i in range(3 * submissions.SUBMITS.tokens)
                )
            )
        return [a.status_code for a in answers]

    statuses = asyncio.run(burst())
    assert statuses == [401] * (3 * submissions.SUBMITS.tokens)
    assert accept.calls == 3 * submissions.SUBMITS.tokens
    assert accept.most == submissions.SUBMITS.tokens
