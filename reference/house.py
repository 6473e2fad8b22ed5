"""Reference solver for `house`: count the Euler trails of a small undirected graph and print one.

An Euler trail is a sequence of vertices v0, v1, ..., vm in which every edge of the graph joins two
consecutive vertices exactly once. Trails are counted as sequences, so a trail and its reverse
count twice, and a closed trail counts once for each start and direction.

Algorithm: the seed's backtracking (extend the trail by one unused edge at a time, undo on return),
with memoization of the number of completions from a state (current vertex, set of used edges as a
bit mask): dynamic programming over subsets (Bellman 1962, the Held-Karp method for Hamiltonian
paths, here over edges). At most n * 2^m states, far fewer in practice. A trail can start only at
an odd vertex when there are two, at any vertex with an edge when there are none (Euler 1736,
Hierholzer 1873); with more odd vertices there is none. Everything is computed; no table.

Input (stdin): `n m`, then m lines `a b` (an edge), 1 <= n <= 8, 1 <= m <= 16, no loops, no
edge twice.
Output (stdout): the count S; if S > 0, a second line with the lexicographically first trail
(m + 1 vertices).
"""

import sys


def read_graph(text):
    """Return (n, edges) from the input text: edges a list of (a, b) pairs, vertices 1-based."""
    values = [int(token) for token in text.split()]
    n, m = values[0], values[1]
    return n, [(values[2 + 2 * i], values[3 + 2 * i]) for i in range(m)]


def adjacency(n, edges):
    """Return adj: adj[v] is the list of (neighbour, edge bit) of vertex v, neighbours ascending."""
    adj = [[] for _ in range(n + 1)]
    for index, (a, b) in enumerate(edges):
        adj[a].append((b, 1 << index))
        adj[b].append((a, 1 << index))
    for neighbours in adj:
        neighbours.sort()
    return adj


def start_vertices(n, adj):
    """The vertices where an Euler trail may start: the two odd ones, every vertex with an edge when
    all degrees are even, none otherwise (a necessary condition; connectivity is left to the count)."""
    odd = [v for v in range(1, n + 1) if len(adj[v]) % 2 == 1]
    if len(odd) == 2:
        return odd
    return [v for v in range(1, n + 1) if adj[v]] if not odd else []


def solve(n, edges):
    """Return (S, trail): the number of Euler trails and the lexicographically first one (a list of
    m + 1 vertices) or None when S = 0."""
    adj = adjacency(n, edges)
    full = (1 << len(edges)) - 1
    memo = {}

    def completions(vertex, used):
        """The number of ways to use every edge not in `used`, starting at `vertex`."""
        if used == full:
            return 1
        key = used << 4 | vertex
        known = memo.get(key)
        if known is None:
            known = 0
            for neighbour, bit in adj[vertex]:
                if not used & bit:
                    known += completions(neighbour, used | bit)
            memo[key] = known
        return known

    starts = start_vertices(n, adj)
    count = sum(completions(start, 0) for start in starts)
    if count == 0:
        return 0, None
    vertex = next(start for start in starts if completions(start, 0))
    trail, used = [vertex], 0
    while used != full:
        vertex, bit = next((u, bit) for u, bit in adj[vertex] if not used & bit and completions(u, used | bit))
        used |= bit
        trail.append(vertex)
    return count, trail


def format_answer(count, trail):
    """Return the output text: S on line 1 and, if there is a trail, its vertices on line 2."""
    return f"{count}\n" if trail is None else f"{count}\n{' '.join(map(str, trail))}\n"


def main():
    """Read the graph on stdin, write the answer on stdout."""
    sys.setrecursionlimit(1000)
    sys.stdout.write(format_answer(*solve(*read_graph(sys.stdin.read()))))


if __name__ == "__main__":
    main()
