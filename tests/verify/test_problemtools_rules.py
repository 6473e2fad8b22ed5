"""``judge problem verify`` decides a foreign package by the rules problemtools' ``verifyproblem``
applies, where the format leaves the verifier a choice: each test below is a small package written
here that verifyproblem passes, and that verify passes too."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from judge.verify import verify_package
from tests.verify.conftest import VERIFY_SLOT

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "packages" / "archivesum"

# Sums the list, after spending `cpu` seconds of its own CPU time (measured by the process itself,
# so the machine's load does not change it).
SLOW_SUM = """import time
while time.process_time() < {cpu}:
    pass
n = int(input())
print(sum(int(x) for x in input().split()))
"""


@pytest.fixture
def archivesum(tmp_path) -> Path:
    return Path(shutil.copytree(FIXTURE, tmp_path / "archivesum"))


def steps(report) -> dict:
    return {step.number: step for step in report.steps}


def test_a_submission_that_needs_the_extra_time_passes_and_one_that_never_ends_still_is_tle(archivesum):
    # time limit 0.5 s, and 2023-07's time_limit_to_tle 6: the verifier's second limit is 3 s
    yaml = (archivesum / "problem.yaml").read_text().replace("time_limit: 1", "time_limit: 0.5")
    (archivesum / "problem.yaml").write_text(yaml + "  time_multipliers:\n    time_limit_to_tle: 6\n")
    for path, cpu in (("accepted/slowish.py", 1.0), ("time_limit_exceeded/endless.py", 1000)):
        (archivesum / "submissions" / path).parent.mkdir(exist_ok=True)
        (archivesum / "submissions" / path).write_text(SLOW_SUM.format(cpu=cpu))
    report = verify_package(archivesum, slot=VERIFY_SLOT)
    assert report.ok, report.failures()
    notes = steps(report)[6].notes
    assert "accepted/slowish.py: AC (with extra time: 3000 ms)" in notes
    assert any(n.startswith("time_limit_exceeded/endless.py: TLE on sample/1") for n in notes), notes
    assert not any("extra time" in n for n in notes if n.startswith("time_limit_exceeded/"))


def test_a_wrong_answer_is_not_judged_again_with_extra_time(archivesum):
    yaml = (archivesum / "problem.yaml").read_text().replace("time_limit: 1", "time_limit: 0.5")
    (archivesum / "problem.yaml").write_text(yaml)
    (archivesum / "submissions/accepted/wrong.py").write_text("print(0)\n")
    report = verify_package(archivesum, slot=VERIFY_SLOT)
    assert not report.ok
    assert [f.test for _, f in report.failures()] == ["accepted/wrong.py"]
