"""Each shipped package's checker rejects every kind of wrong answer named in issue #3 and accepts
other valid answers (another tie-breaking), as its ``generators/mutations.py`` builds them.

For speed, only a few tests of each package are audited: greedily, the first tests that together
produce every required kind, plus tests with alternative answers where the problem has several.
``judge problem verify`` on every shipped package (tests/verify/test_shipped_packages.py) audits every test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.packages import load_package
from judge.verify.checker_audit import audit_test, load_mutations, specific_outputs
from tests.validator_box import needs_root, validator_box_fixture

REPO = Path(__file__).resolve().parents[2]

# kinds of wrong answers each package must produce (prefixes of the kinds its mutations.py names)
REQUIRED_KINDS = {
    "lee": [
        "one step longer",
        "a path through a wall cell",
        "a diagonal move",
        "wrong count",
        "a jump of two cells",
        "not starting at the mouse",
        "a path through walls",
    ],
    "lines": [
        "a longer path",
        "a + on a ball",
        "a changed cell",
        "a disconnected +",
        "wrong first line",
        "a path through balls",
    ],
    "snakes": ["count + 1", "count - 1", "claims unreachable"],
    "basic": ["one move longer", "an illegal move", "wrong start", "wrong end", "claims zero moves"],
    "queens": ["wrong count", "an attacking placement", "a column out of range", "claims a placement"],
    "house": [
        "wrong count",
        "an edge walked twice",
        "a step that is not an edge",
        "a vertex out of range",
        "claims a trail",
    ],
    "knight": [
        "claims no tour",
        "claims a tour",
        "a number repeated",
        "a number out of range",
        "two moves swapped",
        "the tour walked backwards",
    ],
    "domination": [
        "one queen fewer",
        "one queen more",
        "a queen off the board",
        "two queens on one square",
        "a square left uncovered",
    ],
    "camels": [
        "wrong count",
        "claims no schedule",
        "claims a schedule",
        "a day repeated",
        "a camel twice in one day",
        "two camels swapped in a day",
    ],
}
WITH_ALTERNATIVES = {"lee", "lines", "basic", "queens", "house", "knight", "domination", "camels"}
TESTS_WITH_ALTERNATIVES = 2


def kinds_covered(kinds: list[str], required: list[str]) -> set[str]:
    """The required kinds that some kind in ``kinds`` starts with."""
    return {need for need in required if any(kind.startswith(need) for kind in kinds)}


box = validator_box_fixture(66)


@needs_root
@pytest.mark.parametrize("package_id", sorted(REQUIRED_KINDS))
def test_checker_rejects_every_required_kind_and_accepts_alternatives(package_id, box):
    root = REPO / "problems" / package_id
    if not (root / "generators" / "mutations.py").is_file() or not (root / "problem.yaml").is_file():
        pytest.skip(f"package {package_id} not written yet")
    package = load_package(root)
    mutations = load_mutations(package)
    required = REQUIRED_KINDS[package_id]
    covered: set[str] = set()
    with_alternatives = 0
    chosen = []
    for test in package.tests:
        wrong, alternatives = specific_outputs(mutations, test.input_path.read_text(), test.answer_path.read_text())
        adds_kind = kinds_covered([w.kind for w in wrong], required) - covered
        adds_alternative = alternatives and with_alternatives < TESTS_WITH_ALTERNATIVES
        if adds_kind or adds_alternative:
            chosen.append(test)
            covered |= adds_kind
            with_alternatives += bool(alternatives)
    assert covered == set(required), f"never produced: {set(required) - covered}"
    if package_id in WITH_ALTERNATIVES:
        assert with_alternatives == TESTS_WITH_ALTERNATIVES, "too few tests with another valid answer"
    for test in chosen:
        audit = audit_test(package, test, mutations, box.validators.check)
        assert audit.failures == [], (test.name, audit.failures)
        assert audit.specific_wrong > 0
