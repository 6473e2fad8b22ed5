"""The `basic` output validator: accepts every shortest sequence (not only the reference's), and
rejects each kind of bad answer with a one-line reason (Kattis exit codes 42/43)."""

from __future__ import annotations

import importlib.util
import itertools
import random
from pathlib import Path

import pytest

from reference.basic import GOAL, format_answer, neighbours, next_towards_goal, solve

PACKAGE = Path(__file__).resolve().parents[1]
SAMPLE = PACKAGE / "data" / "sample"
ALL_BOARDS = sorted("".join(p) for p in itertools.permutations(GOAL))


def load_checker():
    """Import the package's check.py as a module (it is a script, not a package module)."""
    path = PACKAGE / "output_validators" / "check" / "check.py"
    spec = importlib.util.spec_from_file_location("basic_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKER = load_checker()


def goal_distances() -> dict[str, int]:
    """{board: least moves to GOAL}, from the lengths of the reference's BFS tree."""
    towards = next_towards_goal()
    distance = {}
    for board in towards:
        steps, at = 0, board
        while at != GOAL:
            at, steps = towards[at], steps + 1
        distance[board] = steps
    return distance


def random_shortest(board: str, distance: dict[str, int], rng: random.Random) -> list[str]:
    """A shortest sequence from `board` picking a random closer neighbour at every step."""
    sequence = [board]
    while sequence[-1] != GOAL:
        closer = [b for b in neighbours(sequence[-1]) if distance.get(b) == distance[sequence[-1]] - 1]
        sequence.append(rng.choice(closer))
    return sequence


def judge(board: str, team: bytes) -> str | None:
    """The checker's verdict in-process: None (AC) or the reason."""
    return CHECKER.check(board, format_answer(solve(board)), team)


def test_accepts_the_reference_and_other_shortest_sequences_from_every_board():
    distance = goal_distances()
    rng = random.Random(5)
    differing = 0
    for board in ALL_BOARDS:
        reference = format_answer(solve(board))
        assert judge(board, reference.encode()) is None, board
        if board in distance:
            other = format_answer(random_shortest(board, distance, rng))
            differing += other != reference
            assert judge(board, other.encode()) is None, board
    assert differing >= 20  # the alternatives really are other sequences, many times over


@pytest.mark.parametrize(
    "layout",
    [
        lambda text: text.replace("\n", "\r\n"),
        lambda text: text.replace("\n", " "),
        lambda text: text.rstrip("\n"),
        lambda text: "\t" + text.replace("\n", " \t\n"),
    ],
)
def test_accepts_any_whitespace_layout(layout):
    text = (SAMPLE / "02.ans").read_text()
    assert judge("CIA*BS", layout(text).encode()) is None


def test_command_line_accepts_and_rejects(output_validator):
    answer = SAMPLE / "02.ans"
    assert output_validator(PACKAGE, SAMPLE / "02.in", answer, answer.read_bytes()) == (42, "")
    code, message = output_validator(PACKAGE, SAMPLE / "02.in", answer, b"7\n")
    assert code == 43 and message == "wrong k: 7 moves, the least is 8\n"
    code, message = output_validator(PACKAGE, SAMPLE / "03.in", SAMPLE / "03.ans", b"-1 -1\n")
    assert code == 43 and message.startswith("extra output")


SHORTEST = (SAMPLE / "02.ans").read_text().split()[1:]  # CIA*BS ... BASIC*, 8 moves


def sequence_text(positions: list[str], moves: int | None = None) -> bytes:
    """Output text: the move count (default: len - 1) then the positions."""
    count = len(positions) - 1 if moves is None else moves
    return ("%d\n" % count + "\n".join(positions) + "\n").encode()


@pytest.mark.parametrize(
    ("team", "reason"),
    [
        (sequence_text(["CIA*BS", "CIAB*S", "CIA*BS"] + SHORTEST[1:]), "wrong k: 10 moves"),
        (sequence_text(SHORTEST[:1] + SHORTEST[2:]), "wrong k: 7 moves"),
        (b"-1\n", "answered -1, but CIA*BS reaches BASIC* in 8 moves"),
        (sequence_text(SHORTEST[:-1], moves=8), "expected 9 positions after k, found 8"),
        (sequence_text(SHORTEST + ["BASIC*"], moves=8), "extra output after 9 positions"),
        (sequence_text(SHORTEST + ["thanks"], moves=8), "extra output after 9 positions"),
        (sequence_text(SHORTEST[:4] + ["C*ABSI"] + SHORTEST[5:]), "illegal move 4"),
        (sequence_text(SHORTEST[:3] + [SHORTEST[2]] + SHORTEST[4:]), "illegal move 3"),
        (sequence_text(SHORTEST[:5] + ["basic*"] + SHORTEST[6:]), "position 6 'basic*' is not a permutation"),
        (sequence_text(SHORTEST[:5] + ["BASICC"] + SHORTEST[6:]), "is not a permutation"),
        (sequence_text(SHORTEST[:5] + ["BASIC"] + SHORTEST[6:]), "is not a permutation"),
        (b"", "empty output"),
        (b"eight\n", "first token 'eight' is not an integer"),
        (b"\x00\xff\xfe\n", "is not an integer"),
        (b"8.0\n" + b"\n".join(s.encode() for s in SHORTEST), "is not an integer"),
        (b"8" * 100, "wrong k"),
    ],
)
def test_rejects_bad_answers_with_reason(team, reason):
    message = judge("CIA*BS", team)
    assert message is not None and reason in message
    assert "\n" not in message


def test_rejects_wrong_start_and_wrong_end():
    # BASI*C is one move from the goal: start elsewhere, or make a legal move away from the goal
    assert "first position BAS*IC is not the input BASI*C" in judge("BASI*C", sequence_text(["BAS*IC", "BASI*C"]))
    assert "last position BAS*IC is not BASIC*" in judge("BASI*C", sequence_text(["BASI*C", "BAS*IC"]))


def test_rejects_answers_to_unreachable_boards():
    assert judge("ABSIC*", b"-1\n") is None
    assert "cannot reach BASIC*" in judge("ABSIC*", b"1\nABSIC*\nBASIC*\n")
    assert "extra output after -1" in judge("ABSIC*", b"-1\nABSIC*\n")


@pytest.mark.parametrize(
    ("before", "after", "legal"),
    [
        ("BASI*C", "BASIC*", True),  # left-right in the bottom row
        ("BA*ICS", "BASIC*", True),  # up-down in the right column
        ("*BSIAC", "IBS*AC", True),  # up-down in the left column
        ("B*SIAC", "BASI*C", True),  # up-down in the middle column
        ("BA*ICS", "BAI*CS", False),  # cells 2 and 3 are not neighbours (no wrap to the next row)
        ("B*SIAC", "BIS*AC", False),  # a diagonal is not a move
        ("B*SIAC", "BASIC*", False),  # two moves at once
        ("BASIC*", "ABSIC*", False),  # tiles swapped without the blank
        ("BASIC*", "BASIC*", False),  # no move at all
    ],
)
def test_one_move_apart(before, after, legal):
    assert CHECKER.one_move_apart(before, after) is legal
