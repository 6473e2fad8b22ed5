"""Sandbox slots and worker folders of the test suite.

Every test that opens a sandbox or starts a worker takes its slot from ``slot(n)``: the base number
``n`` (below ``BASE_LIMIT``) plus ``OFFSET``, and its workers' folders from ``WORK_ROOT`` (which
carries the same offset), so that two test runs on one machine (two checkouts) can be moved apart
and never share a slot's uid, lock, cgroups or folders.

``OFFSET`` is ``JUDGE_TEST_SLOT_OFFSET`` (default 0) plus ``WORKER_STRIDE`` times the number of the
pytest-xdist worker running this process (``PYTEST_XDIST_WORKER``: ``gw0``, ``gw1``, …; none without
xdist), so that the workers of one ``pytest -n 2`` run are two such runs.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from judge.judging import INTERACTOR_SLOT_OFFSET

BASE_LIMIT = 1000  # every base number ``n`` of the suite is below it
# an interactive judging's interactor takes the slot INTERACTOR_SLOT_OFFSET above its submission's:
# a worker's share holds both, so that no two xdist workers ever meet on a slot
WORKER_STRIDE = BASE_LIMIT + INTERACTOR_SLOT_OFFSET
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
WORKER_NUMBER = int(XDIST_WORKER.removeprefix("gw")) if XDIST_WORKER.startswith("gw") else 0
OFFSET = int(os.environ.get("JUDGE_TEST_SLOT_OFFSET", "0")) + WORKER_STRIDE * WORKER_NUMBER
# not pytest's private tmp_path: the sandbox's unprivileged uid must reach the workers' folders
WORK_ROOT = Path(tempfile.gettempdir()) / f"classjudge-tests-{OFFSET}"


def slot(n: int) -> int:
    """The sandbox slot of base number ``n`` (0 <= n < BASE_LIMIT) for this test process."""
    assert 0 <= n < BASE_LIMIT, n
    return n + OFFSET
