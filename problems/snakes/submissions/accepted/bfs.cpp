// Snakes and ladders: BFS over the cells (Moore 1959). The queue holds the cells a move can end
// on; a throw that lands on the start of a transition ends on its other end instead.
#include <cstdio>
#include <vector>

int main() {
    int n, t;
    if (std::scanf("%d %d", &n, &t) != 2) return 1;
    std::vector<int> ends_on(n);
    for (int cell = 0; cell < n; ++cell) ends_on[cell] = cell;
    for (int i = 0; i < t; ++i) {
        int a, b;
        if (std::scanf("%d %d", &a, &b) != 2) return 1;
        ends_on[a] = b;
    }
    std::vector<int> moves(n, -1);  // -1: not reached yet
    std::vector<int> queue;
    queue.reserve(n);
    moves[0] = 0;
    queue.push_back(0);
    for (size_t head = 0; head < queue.size() && moves[n - 1] < 0; ++head) {
        int cell = queue[head];
        for (int throw_value = 1; throw_value <= 6 && cell + throw_value <= n - 1; ++throw_value) {
            int end = ends_on[cell + throw_value];
            if (moves[end] < 0) {
                moves[end] = moves[cell] + 1;
                queue.push_back(end);
            }
        }
    }
    std::printf("%d\n", moves[n - 1]);
    return 0;
}
