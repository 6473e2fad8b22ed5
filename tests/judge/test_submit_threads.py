"""A burst of submissions to one API process is written in batches (``judge.threads.LoopBatcher``,
``judge.api.submissions.submit_batcher``): one batch at a time, each taking every submission that
came while the last was written, so the burst costs a few thread hops and commits, not one each;
every caller still gets its own answer."""

from __future__ import annotations

import asyncio
import threading
import time

import httpx

from judge.api import submissions


class CountingBatch:
    """Stands in for ``accept_batch``: holds its thread for 50 ms, notes each batch's tokens and the
    overlapping calls, and refuses every token but those ending in ``ok`` (401), which get ids."""

    def __init__(self) -> None:
        self.running = self.most = 0
        self.batches: list[list[str]] = []
        self.lock = threading.Lock()

    def __call__(self, _session, _settings, requests):
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
            self.batches.append([r.token for r in requests])
        time.sleep(0.05)
        with self.lock:
            self.running -= 1
        return [int(r.token[1:-2]) if r.token.endswith("ok") else None for r in requests]


def test_a_burst_of_submissions_is_written_one_batch_at_a_time(api_app, monkeypatch):
    batch = CountingBatch()
    monkeypatch.setattr(submissions, "accept_batch", batch)
    body = {"problem": "sum", "language": "python3", "source": "print(1)\n"}
    tokens = [f"t{i}ok" if i % 2 else f"t{i}" for i in range(12)]

    async def burst() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=api_app)
        async with httpx.AsyncClient(transport=transport, base_url="http://judge") as client:
            return await asyncio.gather(
                *(
                    client.post("/api/v1/submissions", json=body, headers={"Authorization": f"Bearer {t}"})
                    for t in tokens
                )
            )

    answers = asyncio.run(burst())
    for token, answer in zip(tokens, answers, strict=True):
        if token.endswith("ok"):
            assert answer.status_code == 202 and answer.json()["id"] == int(token[1:-2])
        else:
            assert answer.status_code == 401
    assert batch.most == 1
    assert sorted(t for b in batch.batches for t in b) == sorted(tokens)
    assert len(batch.batches) < len(tokens)  # those that came during the first batch went together
