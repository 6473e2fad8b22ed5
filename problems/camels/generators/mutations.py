"""Checker-audit outputs for `camels`, read by `judge problem verify` (step 5).

wrong_answers(input_text, answer_text) -> [(kind, output)]: outputs that are wrong for this test.
alternative_answers(input_text, answer_text) -> [output]: other valid schedules, found without the
reference solver: the judge's schedule with its days in another order, and with the camels
renumbered (camel c becomes N + 1 - c); both keep every pair exactly once.

A schedule is a list of N days, each a list of N camels (front first). Standard library only.
"""


def read_test(input_text, answer_text):
    """Return (n, task, answer): answer a count (task 2), a schedule, or None for -1."""
    n, task = (int(token) for token in input_text.split())
    values = [int(token) for token in answer_text.split()]
    if task == 2:
        return n, task, values[0]
    return n, task, None if values == [-1] else [values[d * n : d * n + n] for d in range(n)]


def output(days):
    """The output text of a schedule (None: -1)."""
    return "-1\n" if days is None else "".join(" ".join(map(str, day)) + "\n" for day in days)


def alternative_answers(input_text, answer_text):
    """Other valid schedules (task 1 with a schedule only)."""
    n, task, days = read_test(input_text, answer_text)
    if task == 2 or days is None:
        return []
    candidates = [days[::-1], days[1:] + days[:1], [[n + 1 - camel for camel in day] for day in days]]
    return [output(candidate) for candidate in candidates if candidate != days]


def wrong_answers(input_text, answer_text):
    """Wrong outputs: a wrong count; -1 for an existing schedule, a schedule where none exists;
    a day repeated (same leader, pairs twice), two camels swapped inside a day, a camel twice in a
    day, a day missing."""
    n, task, answer = read_test(input_text, answer_text)
    if task == 2:
        return [("wrong count: one more", f"{answer + 1}\n"), ("wrong count: times N!", f"{answer * 720 + 1}\n")]
    if answer is None:
        return [("claims a schedule", output([list(range(1, n + 1))] * n))]
    made = [("claims no schedule", "-1\n")]
    if n >= 2:
        made += [
            ("a day repeated", output(answer[:-1] + [answer[0]])),
            ("a camel twice in one day", output(answer[:-1] + [[answer[-1][0]] * n])),
            ("a day missing", output(answer[:-1])),
        ]
    if n >= 3:
        last = answer[-1]
        made.append(("two camels swapped in a day", output(answer[:-1] + [last[:1] + last[1:][::-1]])))
    return made
