"""Sandbox slots of the test suite.

Every test that opens a sandbox or starts a worker takes its slot from ``slot(n)``: the base number
``n`` plus ``JUDGE_TEST_SLOT_OFFSET`` (default 0), so that two test runs on one machine (two
checkouts) can be moved apart and never share a slot's uid, lock and cgroups.
"""

from __future__ import annotations

import os

OFFSET = int(os.environ.get("JUDGE_TEST_SLOT_OFFSET", "0"))


def slot(n: int) -> int:
    """The sandbox slot of base number ``n`` for this test run."""
    return n + OFFSET
