"""Checker-audit outputs for `knight`, read by `judge problem verify` (step 5).

wrong_answers(input_text, answer_text) -> [(kind, output)]: outputs that are wrong for this test.
alternative_answers(input_text, answer_text) -> [output]: other tours from the same square, found
without the reference solver: the judge's tour mirrored by a symmetry of the board that keeps the
start square where it is, and a backtracking search in Warnsdorff's order (1823) that breaks ties
toward the larger square number.

A board is a list of N rows of N move numbers (1 ... N*N). Standard library only.
"""

MOVES = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
SEARCH_LIMIT = 20000  # squares entered before the alternative search gives up


def read_test(input_text, answer_text):
    """Return (n, start, board): start 0-based (row, col), board None when there is no tour."""
    n, row, col = (int(token) for token in input_text.split())
    values = [int(token) for token in answer_text.split()]
    board = None if values == [-1] else [values[r * n : r * n + n] for r in range(n)]
    return n, (row - 1, col - 1), board


def output(board):
    """The output text of a board (rows of numbers), or of -1 for None."""
    return "-1\n" if board is None else "".join(" ".join(map(str, line)) + "\n" for line in board)


def other_search(n, start):
    """A tour from `start` by backtracking in Warnsdorff's order, ties to the larger square; None
    when none is found within SEARCH_LIMIT entered squares."""
    path, seen, budget = [start], {start}, [SEARCH_LIMIT]

    def onward(square):
        return [
            (square[0] + dr, square[1] + dc)
            for dr, dc in MOVES
            if 0 <= square[0] + dr < n and 0 <= square[1] + dc < n and (square[0] + dr, square[1] + dc) not in seen
        ]

    def extend():
        if len(path) == n * n:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for square in sorted(onward(path[-1]), key=lambda s: (len(onward(s)), -s[0], -s[1])):
            path.append(square)
            seen.add(square)
            if extend():
                return True
            seen.discard(path.pop())
        return False

    if not extend():
        return None
    board = [[0] * n for _ in range(n)]
    for number, (row, col) in enumerate(path, start=1):
        board[row][col] = number
    return board


def alternative_answers(input_text, answer_text):
    """Other valid tours (none when there is no tour)."""
    n, (row, col), board = read_test(input_text, answer_text)
    if board is None:
        return []
    candidates = [other_search(n, (row, col))]
    if row == col:  # the main diagonal keeps the start square
        candidates.append([list(line) for line in zip(*board)])
    if row + col == n - 1:  # so does the other diagonal
        candidates.append([[board[n - 1 - c][n - 1 - r] for c in range(n)] for r in range(n)])
    if 2 * col == n - 1:  # so does the middle column (left-right mirror)
        candidates.append([line[::-1] for line in board])
    return [output(candidate) for candidate in candidates if candidate and candidate != board]


def wrong_answers(input_text, answer_text):
    """Wrong outputs for this test: -1 for an existing tour, a board when there is none, two moves
    swapped, a number repeated or out of range, the tour walked backwards (wrong start), a row
    missing."""
    n, (row, col), board = read_test(input_text, answer_text)
    if board is None:
        return [("claims a tour", output([[1] * n for _ in range(n)])), ("claims a tour (one square)", "1\n")]
    size = n * n
    made = [("claims no tour", "-1\n")]
    flat = [number for line in board for number in line]

    def as_board(numbers):
        return [numbers[r * n : r * n + n] for r in range(n)]

    made.append(("a number out of range (N*N+1)", output(as_board([size + 1 if v == size else v for v in flat]))))
    if size > 1:
        made += [
            ("a number repeated", output(as_board([1 if v == size else v for v in flat]))),
            ("the tour walked backwards (wrong start)", output(as_board([size + 1 - v for v in flat]))),
            ("a row missing", output(board[:-1])),
        ]
    if size > 2:
        swapped = [3 if v == 2 else 2 if v == 3 else v for v in flat]  # 1 -> 3 is never a knight's move
        made.append(("two moves swapped (not a knight's move)", output(as_board(swapped))))
    return made
