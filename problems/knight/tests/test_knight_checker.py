"""The `knight` output validator: accepts every tour from the start square, rejects the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
ACCEPTED, WRONG_ANSWER = 42, 43
# Sample 1 (5 x 5 from the corner) and the same tour mirrored in the main diagonal.
TOUR = "1 20 9 14 3\n10 15 2 19 24\n21 8 25 4 13\n16 11 6 23 18\n7 22 17 12 5\n"
MIRRORED = "1 10 21 16 7\n20 15 8 11 22\n9 2 25 6 17\n14 19 4 23 12\n3 24 13 18 5\n"


@pytest.mark.parametrize(
    "test, team_output",
    [
        ("sample/01", MIRRORED),
        ("sample/01", TOUR.replace("\n", " ")),
        ("sample/01", TOUR.replace("\n", "\r\n").replace(" ", "\t")),
        ("sample/02", "-1"),
        ("sample/02", "\n-1\n\n"),
        ("secret/01-one-square", "1\n"),
    ],
)
def test_accepts_every_valid_answer(check_test, test, team_output):
    code, message = check_test(PACKAGE, test, team_output)
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "test, team_output, reason",
    [
        ("sample/01", "-1\n", "printed -1, but a tour from (1, 1) exists"),
        ("sample/02", "1 2 3\n4 5 6\n7 8 9\n", "there is no tour from (1, 1), but the output is not -1"),
        ("sample/02", "-1 -1\n", "extra output after -1"),
        ("sample/01", TOUR.replace("24", "26"), "square (2, 5) holds 26, outside 1 ... 25"),
        ("sample/01", TOUR.replace("24", "23"), "squares (2, 5) and (4, 4) both hold 23"),
        ("sample/01", TOUR.replace("1 20", "0 20"), "holds 0"),
        ("sample/01", TOUR.replace(" 2 ", " 3 ").replace(" 3\n", " 2\n"), "move 1 from (1, 1) to (1, 5) is not"),
        (
            "sample/01",
            " ".join(str(26 - int(v)) for v in TOUR.split()),
            "the tour starts at (3, 3), not at the given square (1, 1)",
        ),
        ("sample/01", TOUR + "26\n", "expected 25 numbers (5 rows of 5), got 26"),
        ("sample/01", TOUR.rsplit("\n", 2)[0], "expected 25 numbers (5 rows of 5), got 20"),
        ("sample/01", TOUR.replace("13", "1e1"), "token 15 must be an integer"),
        ("sample/01", "", "empty output"),
        ("sample/01", b"\xfe\xff", "not ASCII"),
    ],
)
def test_rejects_wrong_answers_with_a_reason(check_test, test, team_output, reason):
    code, message = check_test(PACKAGE, test, team_output)
    assert code == WRONG_ANSWER, message
    assert message.count("\n") == 1 and reason in message, message
