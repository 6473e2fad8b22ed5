"""The BASIC puzzle, another shortest sequence: BFS layers from the goal, then a greedy walk.

First a BFS from BASIC* gives every reachable board its distance to the goal. Then, from the
given board, each step goes to the alphabetically LARGEST neighbour that is one step closer.
Every step lowers the distance by one, so the walk is a shortest sequence, usually not the one
the reference prints (this solution exists to prove the checker accepts any shortest one).
"""

import sys

NEXT_TO = [(1, 3), (0, 2, 4), (1, 5), (0, 4), (1, 3, 5), (2, 4)]


def moves_from(board):
    hole = board.index("*")
    result = []
    for cell in NEXT_TO[hole]:
        swapped = list(board)
        swapped[hole], swapped[cell] = swapped[cell], "*"
        result.append("".join(swapped))
    return result


def main():
    start = sys.stdin.readline().strip()
    distance = {"BASIC*": 0}
    frontier = ["BASIC*"]
    while frontier:
        grown = []
        for board in frontier:
            for other in moves_from(board):
                if other not in distance:
                    distance[other] = distance[board] + 1
                    grown.append(other)
        frontier = grown
    if start not in distance:
        print(-1)
        return
    walk = [start]
    while walk[-1] != "BASIC*":
        closer = [b for b in moves_from(walk[-1]) if distance.get(b) == distance[walk[-1]] - 1]
        walk.append(max(closer))
    print(len(walk) - 1)
    print("\n".join(walk))


main()
