"""Checker-audit outputs for `snakes`, read by `judge problem verify` (step 5).

The answer is one number, the least count of throws (or -1), so there is no other valid answer:
wrong_answers gives the count one off either way and, where the end is reachable, -1;
alternative_answers gives nothing. Standard library only.
"""


def wrong_answers(input_text, answer_text):
    """[(kind, output)]: the count plus one, minus one, and -1 when the end is reachable."""
    best = int(answer_text.split()[0])
    made = [("count + 1", f"{best + 1}\n"), ("count - 1", f"{best - 1}\n")]
    if best != -1:
        made.append(("claims unreachable", "-1\n"))
    return made


def alternative_answers(input_text, answer_text):
    """No alternative: the exact count is the only valid answer."""
    return []
