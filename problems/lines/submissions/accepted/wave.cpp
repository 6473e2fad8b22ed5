// Lines, accepted: the wave (breadth-first search) from @, in C++17.
// Reads stdin, writes stdout. Neighbours are tried up, left, down, right, so on boards with
// many shortest paths the route usually differs from the reference's.
#include <cstdio>
#include <queue>
#include <string>
#include <utility>
#include <vector>

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 1;
    std::vector<std::string> board(n);
    char line[64];
    for (int r = 0; r < n; ++r) {
        std::scanf("%63s", line);
        board[r] = line;
    }
    int start = -1, target = -1;
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
            if (board[r][c] == '@') start = r * n + c;
            if (board[r][c] == 'X') target = r * n + c;
        }
    const int dr[4] = {-1, 0, 1, 0}, dc[4] = {0, -1, 0, 1};
    std::vector<int> parent(n * n, -2);  // -2: not reached yet
    parent[start] = -1;
    std::queue<int> wave;
    wave.push(start);
    while (!wave.empty() && parent[target] == -2) {
        int cell = wave.front();
        wave.pop();
        for (int k = 0; k < 4; ++k) {
            int r = cell / n + dr[k], c = cell % n + dc[k];
            if (r < 0 || r >= n || c < 0 || c >= n) continue;
            int next = r * n + c;
            if (parent[next] != -2 || (board[r][c] != '.' && board[r][c] != 'X')) continue;
            parent[next] = cell;
            wave.push(next);
        }
    }
    if (parent[target] == -2) {
        std::puts("N");
        return 0;
    }
    for (int cell = target; cell != start; cell = parent[cell]) board[cell / n][cell % n] = '+';
    std::puts("Y");
    for (int r = 0; r < n; ++r) std::puts(board[r].c_str());
    return 0;
}
