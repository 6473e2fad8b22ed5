"""Output validator (checker) for `camels`, Kattis interface.

`check.py input judge_answer feedback_dir < team_output`: exit 42 accepted, 43 wrong answer,
with a one-line reason in `feedback_dir/judgemessage.txt`.

The team output is read as whitespace-separated tokens (any spacing, `\\r\\n`, a missing
final newline are fine). Task 2: one integer equal to the judge's count. Task 1: `-1` alone when
the judge answer is `-1`; otherwise N*N integers, N caravans of N camels (front first), each a
permutation of 1 ... N, in which every camel leads one day and no camel walks directly behind the
same camel twice (with N days of N - 1 places that means every ordered pair exactly once). Nothing
may follow. The checker does not search for schedules: the judge answer says whether one exists.
"""

import os
import re
import sys

# >>> shared reading: the same in judge/checkers.py and every package checker (docs/conventions.md "Checkers")
BYTE_ORDER_MARK = b"\xef\xbb\xbf"
INTEGER_TOKEN = re.compile(rb"0|-?[1-9][0-9]{0,99}")
FLOAT_TOKEN = re.compile(rb"-?(?:0|[1-9][0-9]{0,99})(?:\.[0-9]{1,100})?(?:[eE][-+]?[0-9]{1,3})?")


def plain_text(data):
    """Return `data` (bytes of a jury file or a team output) without a leading UTF-8 byte order mark,
    with CR LF line ends read as LF."""
    return (data[len(BYTE_ORDER_MARK) :] if data.startswith(BYTE_ORDER_MARK) else data).replace(b"\r\n", b"\n")


def integer_token(token):
    """Return the int that `token` (bytes, or ASCII str) spells in the integer grammar, else None.

    Integer grammar: `0`, or an optional `-`, a digit 1-9 and at most 99 more digits 0-9.
    """
    if isinstance(token, str):
        token = token.encode("ascii", "replace")
    return int(token) if INTEGER_TOKEN.fullmatch(token) else None


def float_token(token):
    """Return the finite float that `token` (bytes, or ASCII str) spells in the float grammar, else None.

    Float grammar: an optional `-`, an integer part without leading zeros, an optional `.` and
    1-100 digits, an optional exponent `e`/`E`, optional sign, 1-3 digits.
    """
    if isinstance(token, str):
        token = token.encode("ascii", "replace")
    value = float(token) if FLOAT_TOKEN.fullmatch(token) else None
    return value if value is not None and abs(value) < float("inf") else None


# <<< shared reading

ACCEPTED = 42
WRONG_ANSWER = 43
# A valid answer is under 200 bytes; anything beyond the judge's 8 MiB output limit is not read.
MAX_READ_BYTES = 8 * 1024 * 1024 + 1


class WrongAnswer(Exception):
    """The team output breaks the contract; the exception text is the one-line reason."""


def shown(token):
    """Return `token` quoted, cut to 20 characters, for a message."""
    return repr(token[:20] + "..." if len(token) > 20 else token)


def read_tokens(data):
    """Return the whitespace-separated tokens of the team output (bytes). Raises WrongAnswer on non-ASCII bytes."""
    try:
        return plain_text(data).decode("ascii").split()
    except UnicodeDecodeError:
        raise WrongAnswer("the output contains bytes that are not ASCII") from None


def to_integer(token, what):
    """Return `token` as an int; raises WrongAnswer naming `what` if it is not a plain integer."""
    value = integer_token(token)
    if value is None:
        raise WrongAnswer(f"{what} must be an integer, got {shown(token)}")
    return value


def schedule_fault(n, days):
    """The first fault of `days` (N lists of N ints) as a schedule, or None: (reason, day, message)
    with reason not_a_permutation, same_leader or pair_twice; day 1-based."""
    leaders = {}
    walked = {}
    for day, caravan in enumerate(days, start=1):
        if sorted(caravan) != list(range(1, n + 1)):
            return "not_a_permutation", day, f"day {day} is not the camels 1 ... {n} each once"
        if caravan[0] in leaders:
            return "same_leader", day, f"camel {caravan[0]} leads on days {leaders[caravan[0]]} and {day}"
        leaders[caravan[0]] = day
        for ahead, following in zip(caravan, caravan[1:]):
            if (ahead, following) in walked:
                first = walked[ahead, following]
                return (
                    "pair_twice",
                    day,
                    f"camel {following} walks directly behind camel {ahead} on days {first} and {day}",
                )
            walked[ahead, following] = day
    return None


def judge(input_text, answer_text, team_data):
    """Return the acceptance message for one test: input and judge answer as text, team output as bytes.

    Raises WrongAnswer with the reason when the team output is wrong.
    """
    n, task = (int(token) for token in input_text.split())
    answer = answer_text.split()
    tokens = read_tokens(team_data)
    if not tokens:
        raise WrongAnswer("empty output: expected " + ("a schedule or -1" if task == 1 else "the number of schedules"))
    if task == 2:
        count = to_integer(tokens[0], "the number of schedules")
        if count != int(answer[0]):
            raise WrongAnswer(f"wrong number of schedules: {shown(tokens[0])}, expected {answer[0]}")
        if len(tokens) > 1:
            raise WrongAnswer(f"extra output after the answer: {shown(tokens[1])}")
        return f"{count} schedules"
    if tokens[0] == "-1":
        if answer[0] != "-1":
            raise WrongAnswer(f"printed -1, but {n} camels have a schedule")
        if len(tokens) > 1:
            raise WrongAnswer(f"extra output after -1: {shown(tokens[1])}")
        return "no schedule, as expected"
    if answer[0] == "-1":
        raise WrongAnswer(f"{n} camels have no schedule, but the output is not -1")
    numbers = [to_integer(token, f"token {index}") for index, token in enumerate(tokens[: n * n + 1], start=1)]
    if len(tokens) != n * n:
        raise WrongAnswer(f"expected {n * n} numbers ({n} days of {n} camels), got {len(tokens)}")
    fault = schedule_fault(n, [numbers[day * n : day * n + n] for day in range(n)])
    if fault is not None:
        raise WrongAnswer(fault[2])
    return "a valid schedule"


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "camels", 1


def build_feedback(input_text, answer_text, team_data, accepted):
    """The picture's data (a JSON-ready dict): N, the task, the team's tokens read as integers (up to
    the first other token, at most N*N) cut into days, the judge's answer (days, or a count, or
    None for -1), and the first fault (None when accepted): {reason, day?} with reason format,
    wrong_count, claims_none, claims_schedule, extra_output, count, not_a_permutation,
    same_leader or pair_twice."""
    n, task = (int(token) for token in input_text.split())
    answer = [int(token) for token in answer_text.split()]
    tokens = plain_text(team_data).decode("ascii", "replace").split()
    numbers = []
    for token in tokens[: n * n]:
        if integer_token(token) is None or len(token) > 6:
            break
        numbers.append(int(token))
    fault = None
    if not accepted:
        if not numbers:
            fault = {"reason": "format"}
        elif task == 2:
            fault = {"reason": "wrong_count" if numbers[0] != answer[0] else "extra_output"}
        elif numbers[0] == -1 or answer == [-1]:
            fault = {
                "reason": "claims_none" if answer != [-1] else "claims_schedule" if numbers[0] != -1 else "extra_output"
            }
        elif len(tokens) != n * n or len(numbers) != n * n:
            fault = {"reason": "count"}
        else:
            found = schedule_fault(n, [numbers[day * n : day * n + n] for day in range(n)])
            fault = {"reason": found[0], "day": found[1]} if found else {"reason": "format"}
    return {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "camels": n,
        "task": task,
        "days": [numbers[day * n : day * n + n] for day in range((len(numbers) + n - 1) // n)],
        "expected": answer[0]
        if task == 2
        else (None if answer == [-1] else [answer[d * n : d * n + n] for d in range(n)]),
        "fault": fault,
    }


def write_feedback(feedback_dir, build):
    """Write feedback_dir/feedback.json from `build()` (compact JSON, a few KB at most).

    The verdict never depends on it: any error while building or writing leaves no file.
    """
    import json

    try:
        text = json.dumps(build(), separators=(",", ":"))
        with open(os.path.join(feedback_dir, "feedback.json"), "w", encoding="ascii") as handle:
            handle.write(text)
    except Exception as error:  # the picture is optional; the verdict is not
        print(f"feedback.json not written: {type(error).__name__}: {error}", file=sys.stderr)


def main():
    """Run the checker on the command-line files and stdin; exit 42 or 43."""
    input_path, answer_path, feedback_dir = sys.argv[1:4]
    with open(input_path, "rb") as input_file, open(answer_path, "rb") as answer_file:
        input_text, answer_text = (plain_text(file.read()).decode("ascii") for file in (input_file, answer_file))
    team_data = sys.stdin.buffer.read(MAX_READ_BYTES)
    try:
        message, code = judge(input_text, answer_text, team_data), ACCEPTED
    except WrongAnswer as reason:
        message, code = str(reason), WRONG_ANSWER
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as message_file:
        message_file.write(message + "\n")
    write_feedback(feedback_dir, lambda: build_feedback(input_text, answer_text, team_data, code == ACCEPTED))
    sys.exit(code)


if __name__ == "__main__":
    main()
