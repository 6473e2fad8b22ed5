"""Reference solver for `snakes`: the fewest die throws in Snakes and Ladders.

Algorithm: breadth-first search (Moore 1959, "The shortest path through a maze") over the cells
of the board. A move is one throw r = 1..6 from cell c to c + r (only if c + r <= n - 1), followed
by at most one transition (ladder up or snake down) that starts on the landing cell. Every move
costs 1, so the BFS layer of cell n - 1 is the answer. Snakes are ordinary edges here: a route
that slides back to reach a good ladder is found like any other. O(6 n) time, O(n) memory.

Input (stdin): `n t`, then t lines `a b` (a transition from cell a to cell b).
Output (stdout): the least number of throws from cell 0 to cell n - 1, or `-1`.
"""

import sys

DIE_FACES = 6


def solve(n, transitions):
    """Return the least number of throws from cell 0 to cell n - 1, or -1 if unreachable.

    n: number of cells (cells 0 .. n-1), n >= 2.
    transitions: list of (a, b) pairs, 1 <= a <= n-2, 0 <= b <= n-1, each a at most once,
    no b equal to another pair's a (guaranteed by the input validator).
    Raises nothing on valid input.
    """
    # landing[c]: where a move that lands on c ends (c itself for a plain cell).
    landing = list(range(n))
    for start, end in transitions:
        landing[start] = end
    goal = n - 1
    # throws[c]: BFS distance of cell c; -1 = not reached yet.
    throws = [-1] * n
    throws[0] = 0
    frontier = [0]
    layer = 0
    while frontier and throws[goal] < 0:
        layer += 1
        next_frontier = []
        for cell in frontier:
            for target in range(cell + 1, min(cell + DIE_FACES, goal) + 1):
                end = landing[target]
                if throws[end] < 0:
                    throws[end] = layer
                    next_frontier.append(end)
        frontier = next_frontier
    return throws[goal]


def parse_input(text):
    """Parse the input text into (n, transitions) with transitions a list of (a, b) ints.

    Raises ValueError/IndexError on malformed input (never on a validated test).
    """
    values = [int(token) for token in text.split()]
    n, count = values[0], values[1]
    pairs = values[2 : 2 + 2 * count]
    return n, list(zip(pairs[0::2], pairs[1::2]))


def format_answer(throws):
    """Format the answer (an int, -1 for unreachable) as one line of output."""
    return "%d\n" % throws


def main():
    """Read a board from stdin and print the least number of throws."""
    n, transitions = parse_input(sys.stdin.buffer.read().decode("ascii"))
    sys.stdout.write(format_answer(solve(n, transitions)))


if __name__ == "__main__":
    main()
