"""Output validator (checker) for `house`, Kattis interface.

`check.py input judge_answer feedback_dir < team_output`: exit 42 accepted, 43 wrong answer,
with a one-line reason in `feedback_dir/judgemessage.txt`.

The team output is read as whitespace-separated tokens (any spacing, `\\r\\n`, a missing
final newline are fine). Accepted: the count S equal to the judge answer's first token,
and, if S > 0, exactly m + 1 more tokens forming an Euler trail: vertices 1 ... n, each two
consecutive ones joined by an edge of the graph, no edge walked twice (so, with m steps, every
edge exactly once). Nothing may follow. The checker does not count trails itself: the judge
answer carries S.
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
# A valid answer is under 100 bytes; anything beyond the judge's 8 MiB output limit is not read.
MAX_READ_BYTES = 8 * 1024 * 1024 + 1


class WrongAnswer(Exception):
    """The team output breaks the contract; the exception text is the one-line reason."""


def shown(token):
    """Return `token` quoted, cut to 20 characters, for a message."""
    return repr(token[:20] + "..." if len(token) > 20 else token)


def read_graph(input_text):
    """Return (n, edges) of the (already validated) input: edges a list of (a, b), 1-based."""
    values = [int(token) for token in input_text.split()]
    n, m = values[0], values[1]
    return n, [(values[2 + 2 * i], values[3 + 2 * i]) for i in range(m)]


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


def trail_fault(n, edges, trail):
    """The first fault of `trail` (list of ints) as an Euler trail of the graph, or None.

    Returns (reason, step, message): reason `out_of_range`, `not_an_edge` or `edge_twice`; step the
    1-based index of the faulty vertex or step (vertex v_i is reached by step i, v_0 is step 0).
    """
    for index, vertex in enumerate(trail):
        if not 1 <= vertex <= n:
            return "out_of_range", index, f"vertex #{index} of the trail is {vertex}, outside 1 ... {n}"
    known = {frozenset(edge) for edge in edges}
    walked = set()
    for step in range(1, len(trail)):
        a, b = trail[step - 1], trail[step]
        edge = frozenset((a, b))
        if edge not in known:
            return "not_an_edge", step, f"step {step} goes from {a} to {b}, which is not an edge"
        if edge in walked:
            return "edge_twice", step, f"step {step} walks the edge {a}-{b} a second time"
        walked.add(edge)
    return None


def judge(input_text, answer_text, team_data):
    """Return the acceptance message for one test: input and judge answer as text, team output as bytes.

    Raises WrongAnswer with the reason when the team output is wrong.
    """
    n, edges = read_graph(input_text)
    expected_count = int(answer_text.split()[0])
    tokens = read_tokens(team_data)
    if not tokens:
        raise WrongAnswer("empty output: expected the number of Euler trails")
    count = to_integer(tokens[0], "the number of Euler trails")
    if count != expected_count:
        raise WrongAnswer(f"wrong number of Euler trails: {shown(tokens[0])}, expected {expected_count}")
    wanted = 1 + (len(edges) + 1 if count > 0 else 0)
    if len(tokens) < wanted:
        raise WrongAnswer(f"expected a trail of {len(edges) + 1} vertices after the count, got {len(tokens) - 1}")
    if len(tokens) > wanted:
        raise WrongAnswer(f"extra output after the answer: {shown(tokens[wanted])}")
    trail = [to_integer(token, f"vertex #{index} of the trail") for index, token in enumerate(tokens[1:])]
    fault = trail_fault(n, edges, trail)
    if fault is not None:
        raise WrongAnswer(fault[2])
    return f"{count} Euler trails" + (", and a valid one" if count else "")


# -- feedback.json: what the checker saw, for the picture of the answer ------------------------------
FEEDBACK_KIND, FEEDBACK_VERSION = "house", 1
TRAIL_LIMIT = 64  # vertices kept from the team output (a trail has at most 17)


def one_trail(n, edges):
    """One Euler trail by Hierholzer's algorithm (1873), or None when the graph has none."""
    adj = {v: [] for v in range(1, n + 1)}
    for index, (a, b) in enumerate(edges):
        adj[a].append((b, index))
        adj[b].append((a, index))
    odd = [v for v in adj if len(adj[v]) % 2]
    if len(odd) not in (0, 2):
        return None
    start = odd[0] if odd else edges[0][0]
    used, stack, trail = set(), [start], []
    while stack:
        vertex = stack[-1]
        while adj[vertex] and adj[vertex][-1][1] in used:
            adj[vertex].pop()
        if adj[vertex]:
            neighbour, index = adj[vertex].pop()
            used.add(index)
            stack.append(neighbour)
        else:
            trail.append(stack.pop())
    return trail[::-1] if len(trail) == len(edges) + 1 else None


def count_fault(count, expected_count, tokens, trail, m):
    """The first fault before the trail itself, in the order `judge` finds it: {reason} with reason
    format, wrong_count, missing or extra_output; None when the layout is right."""
    if count is None:
        return {"reason": "format"}
    if count != expected_count:
        return {"reason": "wrong_count"}
    wanted = 1 + (m + 1 if count > 0 else 0)
    if len(tokens) != wanted:
        return {"reason": "missing" if len(tokens) < wanted else "extra_output"}
    if len(trail) != wanted - 1:
        return {"reason": "format"}
    return None


def build_feedback(input_text, answer_text, team_data, accepted):
    """The picture's data (a JSON-ready dict): n, the edges, the team's count and trail as read
    (integers up to the first other token, at most TRAIL_LIMIT), the judge's count, one Euler trail
    to compare with (None when there is none), and the first fault (None when accepted):
    {reason, step?} with reason format, wrong_count, missing, extra_output, out_of_range,
    not_an_edge or edge_twice, step the 1-based step (0 for the first vertex)."""
    n, edges = read_graph(input_text)
    expected_count = int(answer_text.split()[0])
    tokens = plain_text(team_data).decode("ascii", "replace").split()
    count = integer_token(tokens[0]) if tokens else None
    trail = []
    for token in tokens[1 : 1 + TRAIL_LIMIT]:
        if integer_token(token) is None or len(token) > 6:
            break
        trail.append(int(token))
    fault = None
    if not accepted:
        fault = count_fault(count, expected_count, tokens, trail, len(edges))
        found = trail_fault(n, edges, trail) if fault is None else None
        fault = fault or ({"reason": found[0], "step": found[1]} if found else {"reason": "format"})
    return {
        "kind": FEEDBACK_KIND,
        "version": FEEDBACK_VERSION,
        "accepted": accepted,
        "vertices": n,
        "edges": [list(edge) for edge in edges],
        "claimed_count": count,
        "expected_count": expected_count,
        "trail": trail,
        "example": one_trail(n, edges) if expected_count else None,
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
