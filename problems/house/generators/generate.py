"""Test input generator of `house`: `python3 generate.py KIND [PARAMS...] [--seed S] [--size S]`.

Writes one input (a graph) on standard output. The tests it makes are listed in
generators/tests.yaml (the test plan read by `judge problem generate`).

Kinds (a trailing parameter `relabelled` renumbers the vertices and shuffles the edges with
random.Random(S)):
- `graph NAME`: a hand-built graph of GRAPHS (the house, a bridge, a bowtie ...);
- `complete N`, `cycle N`: the complete graph, the cycle on N vertices;
- `complete-less-cycle N K`: the complete graph on N vertices less the cycle 1-2-...-K-1;
- `random N M ODD --seed S`: a random connected graph with N vertices, M edges and exactly ODD odd
  vertices (`any`: any graph);
- `stress --size S --seed N`: a random small graph for `judge problem stress` (at most S edges).
A graph is (n, edges): vertices 1 ... n, edges (a, b) with a != b and no edge twice.
No clock, no global state: the same arguments give the same bytes.
"""

import argparse
import itertools
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
    (None: any number, connected or not), edges and their ends in random order. The caller makes
    sure such a graph exists."""
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


GRAPHS = {
    "house": lambda: (5, HOUSE),
    "one-edge": lambda: (2, [(1, 2)]),
    "one-edge-isolated-vertices": lambda: (10, [(7, 3)]),
    "path": lambda: (4, [(3, 4), (1, 2), (2, 3)]),
    "two-components": two_components,
    "bowtie": bowtie,
    "bridge": two_triangles_bridged,
    "house-with-chimney": house_with_chimney,
    "double-house": double_house,
    "octahedron": lambda: (6, without(complete(6), [(1, 2), (3, 4), (5, 6)])),
}


def stress_graph(seed, size):
    """A random graph with at most min(size, MAX_EDGES) edges: any parity, often with a trail."""
    rng = random.Random(seed)
    n = rng.randint(2, min(MAX_VERTICES, size + 1))
    m = rng.randint(1, min(MAX_EDGES, n * (n - 1) // 2, max(1, size)))
    return n, [(a, b) if rng.random() < 0.5 else (b, a) for a, b in rng.sample(complete(n), m)]


def build(kind, params, seed, size):
    """The graph (n, edges) that the kind and its parameters name."""
    relabel = params[-1:] == ["relabelled"]
    params = params[:-1] if relabel else params
    if kind == "graph":
        n, edges = GRAPHS[params[0]]()
    elif kind == "complete":
        n, edges = int(params[0]), complete(int(params[0]))
    elif kind == "cycle":
        n, edges = int(params[0]), cycle(int(params[0]))
    elif kind == "complete-less-cycle":
        n, edges = int(params[0]), without(complete(int(params[0])), cycle(int(params[1])))
    elif kind == "random":
        odd = None if params[2] == "any" else int(params[2])
        n, edges = random_graph(seed, int(params[0]), int(params[1]), odd)
    else:
        n, edges = stress_graph(seed, size)
    return relabelled(seed, n, edges) if relabel else (n, edges)


def format_input(n, edges):
    """Render a test in the exact input format (single spaces, '\\n' line ends)."""
    return "".join(f"{line}\n" for line in [f"{n} {len(edges)}"] + [f"{a} {b}" for a, b in edges])


def main():
    """Parse the arguments and write the input of the chosen kind on standard output."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["graph", "complete", "cycle", "complete-less-cycle", "random", "stress"])
    parser.add_argument("params", nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=int, default=MAX_EDGES)
    options = parser.parse_args()
    n, edges = build(options.kind, options.params, options.seed, options.size)
    assert n <= MAX_VERTICES and 1 <= len(edges) <= MAX_EDGES
    assert len({frozenset(edge) for edge in edges}) == len(edges) and all(a != b for a, b in edges)
    sys.stdout.buffer.write(format_input(n, edges).encode("ascii"))


if __name__ == "__main__":
    main()
