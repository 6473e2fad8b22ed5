"""A ``judge.validators.ValidatorBox`` for tests that run validators: each test module opens its
own on a slot of its own (``tests.slots``), with its work and build cache under the tests'
WORK_ROOT, which the slot's uid reaches."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from judge.validators import ValidatorBox
from tests.slots import WORK_ROOT, slot

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox's uid drop and cgroups need root")


@contextmanager
def validator_box(number: int) -> Iterator[ValidatorBox]:
    """A ValidatorBox on sandbox slot ``slot(number)``; its folders are removed afterwards."""
    work = WORK_ROOT / f"validators-{number}"
    shutil.rmtree(work, ignore_errors=True)
    try:
        with ValidatorBox(slot(number), work / "box", work / "cache") as box:
            yield box
    finally:
        shutil.rmtree(work, ignore_errors=True)


def validator_box_fixture(number: int):
    """A module-scoped pytest fixture giving ``validator_box(number)``."""

    @pytest.fixture(scope="module")
    def box():
        with validator_box(number) as opened:
            yield opened

    return box
