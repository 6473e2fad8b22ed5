"""The `house` test data and reference: validator, generator, exact counts.

Counts are checked against an independent slow method (the lecture's backtracking: walk every
unused edge, count every complete trail) on every test with at most 12 edges, and against the
count the lecture gives for the house (88).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reference import house as reference

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
SECRET = PACKAGE / "data" / "secret"
ALL_INPUTS = sorted(SAMPLE.glob("*.in")) + sorted(SECRET.glob("*.in"))
VALID, INVALID = 42, 43
HOUSE = b"5 8\n1 2\n1 3\n1 4\n2 3\n2 4\n3 4\n3 5\n4 5\n"


def slow_count(n: int, edges: list[tuple[int, int]]) -> int:
    """Count Euler trails by walking every trail from every vertex (no memo)."""
    unused = {frozenset(edge) for edge in edges}

    def walk(vertex: int) -> int:
        if not unused:
            return 1
        total = 0
        for other in range(1, n + 1):
            edge = frozenset((vertex, other))
            if edge in unused:
                unused.remove(edge)
                total += walk(other)
                unused.add(edge)
        return total

    return sum(walk(start) for start in range(1, n + 1))


def is_trail(trail: list[int], edges: list[tuple[int, int]]) -> bool:
    """True if `trail` walks every edge exactly once."""
    steps = [frozenset(step) for step in zip(trail, trail[1:])]
    return len(steps) == len(edges) and set(steps) == {frozenset(edge) for edge in edges}


def test_every_input_is_valid_and_the_samples_are_the_statements(input_validator):
    assert (SAMPLE / "01.in").read_bytes() == HOUSE
    verdicts = {path.name: input_validator(PACKAGE, path.read_bytes()) for path in ALL_INPUTS}
    assert {name: code for name, (code, _) in verdicts.items() if code != VALID} == {}


MALFORMED = {
    "empty input": (b"", "newline"),
    "no final newline": (HOUSE[:-1], "newline"),
    "blank line at the end": (HOUSE + b"\n", "extra line"),
    "edge missing": (b"5 8\n1 2\n", "missing"),
    "extra edge": (b"2 1\n1 2\n2 1\n", "extra line"),
    "loop": (b"3 2\n1 2\n2 2\n", "loop"),
    "edge twice": (b"3 2\n1 2\n1 2\n", "twice"),
    "edge twice reversed": (b"3 2\n1 2\n2 1\n", "twice"),
    "vertex out of range": (b"3 1\n1 4\n", "outside"),
    "vertex zero": (b"3 1\n0 1\n", "outside"),
    "too many vertices": (b"11 1\n1 2\n", "outside"),
    "no edges": (b"3 0\n", "outside"),
    "too many edges": (b"10 17\n" + b"1 2\n" * 17, "outside"),
    "leading zero": (b"3 1\n01 2\n", "plain integer"),
    "plus sign": (b"3 1\n+1 2\n", "plain integer"),
    "double space": (b"3 1\n1  2\n", "one space"),
    "trailing space": (b"3 1\n1 2 \n", "one space"),
    "tab": (b"3 1\n1\t2\n", "one space"),
    "crlf": (b"3 1\r\n1 2\r\n", "plain integer"),
    "non-ascii": (b"3 1\n1 \xc3\xa9\n", "non-ascii"),
}


@pytest.mark.parametrize("data, words", MALFORMED.values(), ids=MALFORMED.keys())
def test_validator_rejects_input_outside_the_contract(input_validator, data, words):
    code, reason = input_validator(PACKAGE, data)
    assert (code, reason.count("\n")) == (INVALID, 1), reason
    assert words in reason.lower(), reason


def test_validator_accepts_the_bounds(input_validator):
    largest = "10 16\n" + "".join(f"{a} {b}\n" for a, b in reference_edges_of_size(10, 16))
    assert input_validator(PACKAGE, largest.encode())[0] == VALID
    assert input_validator(PACKAGE, b"2 1\n2 1\n")[0] == VALID


def reference_edges_of_size(n: int, m: int) -> list[tuple[int, int]]:
    """The first m edges of the complete graph on n vertices, in lexicographic order."""
    return [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)][:m]


def test_generator_is_reproducible_and_matches_the_secret_data(generate_into, tmp_path):
    first = generate_into(PACKAGE, tmp_path / "first")
    assert generate_into(PACKAGE, tmp_path / "second") == first
    assert first == {path.name: path.read_bytes() for path in sorted(SECRET.glob("*.in"))}


def test_the_house_has_88_trails_as_the_lecture_counts():
    n, edges = reference.read_graph(HOUSE.decode())
    assert reference.solve(n, edges)[0] == 88 == slow_count(n, edges)


@pytest.mark.parametrize("test", ALL_INPUTS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_answer_files_hold_the_count_and_a_valid_trail(test):
    n, edges = reference.read_graph(test.read_text())
    lines = test.with_suffix(".ans").read_text().splitlines()
    count = int(lines[0])
    if len(edges) <= 12:
        assert count == slow_count(n, edges)
    assert (lines == [str(count)]) if count == 0 else is_trail([int(v) for v in lines[1].split()], edges)


def test_relabelling_a_graph_keeps_its_count():
    answers = {path.stem: int(path.with_suffix(".ans").read_text().split()[0]) for path in ALL_INPUTS}
    assert answers["09-house-relabelled"] == 88
    assert answers["15-complete-7-less-cycle-5"] == answers["16-complete-7-less-cycle-5-relabelled"] > 10**5
