"""Secret test generator for `house` (drawing a graph in one stroke).

Usage: python3 generators/generate.py OUTDIR
Writes OUTDIR/<NN-name>.in for every secret test case, in judging order. Deterministic: every
random choice comes from random.Random(<fixed seed>), so the same run writes the same bytes.

A test is built as (n, edges): n vertices 1 ... n, edges a list of (a, b) pairs with a != b and
no edge twice; the file holds them in the exact input format of the problem.
"""

import itertools
import os
import random
import sys

MAX_VERTICES, MAX_EDGES = 10, 16
# The seed's house: a square 1-2-4-3 with both diagonals and the roof 3-5-4. The samples hold the
# house (88 trails), a star (none) and a triangle (6: a closed trail from each start, both ways).
HOUSE = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4), (3, 5), (4, 5)]


def complete(n):
    """Every edge of the complete graph on vertices 1 ... n."""
    return list(itertools.combinations(range(1, n + 1), 2))


def cycle(n):
    """The cycle 1-2-...-n-1."""
    return [(v, v % n + 1) for v in range(1, n + 1)]


def without(edges, removed):
    """`edges` less those in `removed` (either orientation)."""
    gone = {frozenset(edge) for edge in removed}
    return [edge for edge in edges if frozenset(edge) not in gone]


def degrees(n, edges):
    """Degree of each vertex 0 ... n (index 0 unused)."""
    degree = [0] * (n + 1)
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    return degree


def connected(n, edges):
    """True if all edges lie in one connected component (isolated vertices do not count)."""
    parent = list(range(n + 1))

    def root(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for a, b in edges:
        parent[root(a)] = root(b)
    return len({root(v) for edge in edges for v in edge}) <= 1


def random_graph(seed, n, m, odd_vertices):
    """A random connected graph with n vertices, m edges and exactly `odd_vertices` odd vertices
    (None: any number, connected or not), edges and their ends in random order."""
    rng = random.Random(seed)
    pool = complete(n)
    while True:
        edges = rng.sample(pool, m)
        odd = sum(d % 2 for d in degrees(n, edges))
        if odd_vertices is None or (odd == odd_vertices and connected(n, edges)):
            return n, [(a, b) if rng.random() < 0.5 else (b, a) for a, b in edges]


def relabelled(seed, n, edges):
    """The same graph with its vertices renumbered at random and its edges shuffled."""
    rng = random.Random(seed)
    names = list(range(1, n + 1))
    rng.shuffle(names)
    moved = [(names[a - 1], names[b - 1]) for a, b in edges]
    rng.shuffle(moved)
    return n, moved


def two_triangles_bridged():
    """Two triangles joined by one edge (a bridge): a greedy walk that crosses it too early is stuck."""
    return 6, [(1, 2), (2, 3), (1, 3), (3, 4), (4, 5), (5, 6), (4, 6)]


def bowtie():
    """Two triangles sharing vertex 3: every degree even, the shared vertex 4."""
    return 5, [(1, 2), (1, 3), (2, 3), (3, 4), (3, 5), (4, 5)]


def two_components():
    """Two disjoint cycles: every degree even, but no single stroke draws both."""
    return 8, cycle(4) + [(a + 4, b + 4) for a, b in cycle(4)]


def house_with_chimney():
    """The house with a chimney edge 5-6 on the roof: four odd vertices, no trail."""
    return 6, HOUSE + [(5, 6)]


def double_house():
    """Two houses sharing the floor edge 1-2, one standing on its head (15 edges): the floor's ends
    are the two odd vertices."""
    return 8, HOUSE + [(1, 6), (2, 7), (1, 7), (2, 6), (6, 7), (6, 8), (7, 8)]


# Test cases in judging order: name -> builder returning (n, edges).
TESTS = [
    ("one-edge", lambda: (2, [(1, 2)])),
    ("one-edge-isolated-vertices", lambda: (10, [(7, 3)])),
    ("path", lambda: (4, [(3, 4), (1, 2), (2, 3)])),
    ("complete-4", lambda: (4, complete(4))),
    ("two-components", two_components),
    ("bowtie", bowtie),
    ("bridge", two_triangles_bridged),
    ("house-with-chimney", house_with_chimney),
    ("house-relabelled", lambda: relabelled(15, 5, HOUSE)),
    ("double-house", double_house),
    ("cycle-10", lambda: (10, cycle(10))),
    ("complete-5", lambda: (5, complete(5))),
    ("octahedron", lambda: (6, without(complete(6), [(1, 2), (3, 4), (5, 6)]))),
    ("complete-6-odd", lambda: (6, complete(6))),
    ("complete-7-less-cycle-5", lambda: (7, without(complete(7), cycle(5)))),
    ("complete-7-less-cycle-5-relabelled", lambda: relabelled(17, 7, without(complete(7), cycle(5)))),
    ("random-even-8-16", lambda: random_graph(1816, 8, 16, 0)),
    ("random-even-10-16", lambda: random_graph(11016, 10, 16, 0)),
    ("random-two-odd-8-16", lambda: random_graph(2816, 8, 16, 2)),
    ("random-two-odd-10-16", lambda: random_graph(21016, 10, 16, 2)),
    ("random-two-odd-6-12", lambda: random_graph(2612, 6, 12, 2)),
    ("random-four-odd-8-16", lambda: random_graph(4816, 8, 16, 4)),
    ("random-any-10-16", lambda: random_graph(9016, 10, 16, None)),
]


def format_input(n, edges):
    """Render a test in the exact input format (single spaces, '\\n' line ends)."""
    return "".join(f"{line}\n" for line in [f"{n} {len(edges)}"] + [f"{a} {b}" for a, b in edges])


def main():
    """Write every test of TESTS into the directory given as the only argument."""
    if len(sys.argv) != 2:
        sys.exit("usage: generate.py OUTDIR")
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for number, (name, build) in enumerate(TESTS, start=1):
        n, edges = build()
        assert n <= MAX_VERTICES and 1 <= len(edges) <= MAX_EDGES, name
        assert len({frozenset(edge) for edge in edges}) == len(edges) and all(a != b for a, b in edges), name
        with open(os.path.join(out_dir, f"{number:02d}-{name}.in"), "w", encoding="ascii", newline="\n") as test_file:
            test_file.write(format_input(n, edges))


if __name__ == "__main__":
    main()
