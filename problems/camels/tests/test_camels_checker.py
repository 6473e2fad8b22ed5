"""The `camels` output validator: accepts every valid schedule and the exact count, rejects the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1]
DATA = PACKAGE / "data"
ACCEPTED, WRONG_ANSWER = 42, 43
SIX = (DATA / "sample" / "01.ans").read_text()
SIX_DAYS = [day.split() for day in SIX.splitlines()]


def days_text(days: list[list[str]]) -> str:
    """The output text of a schedule given as lists of tokens."""
    return "".join(" ".join(day) + "\n" for day in days)


@pytest.mark.parametrize(
    "test, team_output",
    [
        ("sample/01", days_text(SIX_DAYS[::-1])),  # the days in another order
        ("sample/01", days_text([[str(7 - int(c)) for c in day] for day in SIX_DAYS])),  # renumbered
        ("sample/01", SIX.replace("\n", " ")),
        ("sample/01", SIX.replace("\n", "\r\n")),
        ("sample/02", "-1"),
        ("sample/03", "1\n"),
        ("secret/02-schedule-2", "2 1\n1 2\n"),
    ],
)
def test_accepts_every_valid_answer(check_test, test, team_output):
    code, message = check_test(PACKAGE, test, team_output)
    assert code == ACCEPTED, message


@pytest.mark.parametrize(
    "test, team_output, reason",
    [
        ("sample/03", "2\n", "wrong number of schedules: '2', expected 1"),
        ("sample/03", "1 1\n", "extra output after the answer"),
        ("sample/01", "-1\n", "printed -1, but 6 camels have a schedule"),
        ("sample/02", "1 2 3\n2 3 1\n3 1 2\n", "3 camels have no schedule, but the output is not -1"),
        ("sample/02", "-1\n-1\n", "extra output after -1"),
        ("sample/01", days_text(SIX_DAYS[:-1]), "expected 36 numbers (6 days of 6 camels), got 30"),
        ("sample/01", days_text(SIX_DAYS[:-1] + [SIX_DAYS[0]]), "camel 1 leads on days 1 and 6"),
        ("sample/01", days_text(SIX_DAYS[:-1] + [["6"] * 6]), "day 6 is not the camels 1 ... 6 each once"),
        (
            "sample/01",
            days_text(SIX_DAYS[:-1] + [SIX_DAYS[-1][:1] + SIX_DAYS[-1][1:][::-1]]),
            "walks directly behind camel",
        ),
        ("sample/01", SIX.replace("6", "x", 1), "must be an integer"),
        ("sample/01", "", "empty output"),
        ("sample/01", b"\xc0", "not ASCII"),
    ],
)
def test_rejects_wrong_answers_with_a_reason(check_test, test, team_output, reason):
    code, message = check_test(PACKAGE, test, team_output)
    assert code == WRONG_ANSWER, message
    assert message.count("\n") == 1 and reason in message, message
