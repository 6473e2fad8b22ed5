"""Sandbox slots and worker folders of the test suite.

Every test that opens a sandbox or starts a worker takes its slot from ``slot(n)``: the base number
``n`` plus ``JUDGE_TEST_SLOT_OFFSET`` (default 0), and its workers' folders from ``WORK_ROOT``
(which carries the same offset), so that two test runs on one machine (two checkouts) can be moved
apart and never share a slot's uid, lock, cgroups or folders.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

OFFSET = int(os.environ.get("JUDGE_TEST_SLOT_OFFSET", "0"))
# not pytest's private tmp_path: the sandbox's unprivileged uid must reach the workers' folders
WORK_ROOT = Path(tempfile.gettempdir()) / f"classjudge-tests-{OFFSET}"


def slot(n: int) -> int:
    """The sandbox slot of base number ``n`` for this test run."""
    return n + OFFSET
