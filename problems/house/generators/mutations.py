"""Checker-audit outputs for `house`, read by `judge problem verify` (step 5).

wrong_answers(input_text, answer_text) -> [(kind, output)]: outputs that are wrong for this test.
alternative_answers(input_text, answer_text) -> [output]: other valid trails with the same count,
found without the reference solver: the judge's trail walked backwards, a closed trail started at
another of its vertices, and Hierholzer's algorithm (1873) from every possible start.

A trail is a list of m + 1 vertices (1 ... n). Standard library only.
"""


def read_test(input_text, answer_text):
    """Return (n, edges, count, trail): the graph of the input and the judge's count and trail."""
    values = [int(token) for token in input_text.split()]
    n, m = values[0], values[1]
    edges = [(values[2 + 2 * i], values[3 + 2 * i]) for i in range(m)]
    answer = [int(token) for token in answer_text.split()]
    return n, edges, answer[0], answer[1:]


def output(count, trail):
    """The output text: the count, then the trail on line 2 if there is one."""
    text = f"{count}\n"
    return text + " ".join(map(str, trail)) + "\n" if trail else text


def hierholzer(n, edges, start, descending):
    """An Euler trail from `start` (Hierholzer 1873), neighbours taken in ascending or descending
    order; None when the edges cannot all be walked from there."""
    adj = {v: [] for v in range(1, n + 1)}
    for index, (a, b) in enumerate(edges):
        adj[a].append((b, index))
        adj[b].append((a, index))
    for neighbours in adj.values():
        neighbours.sort(reverse=not descending)  # popped from the end
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


def alternative_answers(input_text, answer_text):
    """Other valid trails (none when the count is 0)."""
    n, edges, count, trail = read_test(input_text, answer_text)
    if count == 0:
        return []
    candidates = [trail[::-1]]
    if trail[0] == trail[-1]:
        middle = len(trail) // 2
        candidates.append(trail[middle:] + trail[1 : middle + 1])
    degree = {v: sum(v in edge for edge in edges) for v in range(1, n + 1)}
    odd = [v for v in degree if degree[v] % 2]
    for start in odd or [v for v in degree if degree[v]]:
        for descending in (False, True):
            candidates.append(hierholzer(n, edges, start, descending))
    found = []
    for candidate in candidates:
        if candidate and candidate != trail and candidate not in found:
            found.append(candidate)
    return [output(count, candidate) for candidate in found]


def wrong_answers(input_text, answer_text):
    """Wrong outputs for this test: wrong counts, a missing or short trail, a vertex out of range,
    a step along no edge, an edge walked twice; for S = 0, a claimed trail."""
    n, edges, count, trail = read_test(input_text, answer_text)
    made = [("wrong count: one more", output(count + 1, trail))]
    if count == 0:
        return made + [("claims a trail", output(2, list(edges[0])))]
    made += [
        ("wrong count: one less", output(count - 1, trail)),
        ("wrong count: one direction only", output(count // 2, trail)),
        ("trail missing", output(count, [])),
        ("a trail one edge short", output(count, trail[:-1])),
        ("a vertex out of range (0)", output(count, trail[:-1] + [0])),
        ("a vertex out of range (n+1)", output(count, [n + 1] + trail[1:])),
        ("a step that is not an edge (standing still)", output(count, trail[:-1] + [trail[-2]])),
    ]
    if len(edges) >= 2:
        made.append(("an edge walked twice", output(count, trail[:-1] + [trail[-3]])))
    return made
