/* The knight's tour, accepted: backtracking in Warnsdorff's order (fewest onward moves first,
   ties to the square farther from the centre, then the smaller one) with the colour rule and the
   dead-end rule of the reference, in C (gcc -O2). Reads `N r c`; prints the board of move numbers
   or -1. */
#include <stdio.h>

static const int DR[8] = {-2, -2, -1, -1, 1, 1, 2, 2}, DC[8] = {-1, 1, -2, 2, -2, 2, -1, 1};
static int n, size, count_nb[256], nb[256][8], degree[256], is_free[256], number[256], far[256], placed;

static void enter(int s) {
    is_free[s] = 0;
    number[s] = ++placed;
    for (int k = 0; k < count_nb[s]; ++k) --degree[nb[s][k]];
}

static void leave(int s) {
    is_free[s] = 1;
    number[s] = 0;
    --placed;
    for (int k = 0; k < count_nb[s]; ++k) ++degree[nb[s][k]];
}

static int hopeless(int here) {
    int ends = 0;
    for (int s = 0; s < size; ++s) {
        if (!is_free[s]) continue;
        int links = degree[s];
        for (int k = 0; k < count_nb[here]; ++k) links += nb[here][k] == s;
        if (links <= 1 && (links == 0 || ++ends > 1)) return 1;
    }
    return 0;
}

static int before(int a, int b) {
    if (degree[a] != degree[b]) return degree[a] < degree[b];
    if (far[a] != far[b]) return far[a] > far[b];
    return a < b;
}

static int extend(int here) {
    if (placed == size) return 1;
    if (hopeless(here)) return 0;
    int order[8], m = 0;
    for (int k = 0; k < count_nb[here]; ++k)
        if (is_free[nb[here][k]]) order[m++] = nb[here][k];
    for (int i = 1; i < m; ++i)  /* insertion sort by (degree, farther from the centre, square) */
        for (int j = i; j > 0 && before(order[j], order[j - 1]); --j) {
            int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (int i = 0; i < m; ++i) {
        enter(order[i]);
        if (extend(order[i])) return 1;
        leave(order[i]);
    }
    return 0;
}

int main(void) {
    int row, col;
    if (scanf("%d %d %d", &n, &row, &col) != 3) return 1;
    size = n * n;
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            for (int k = 0; k < 8; ++k)
                if (r + DR[k] >= 0 && r + DR[k] < n && c + DC[k] >= 0 && c + DC[k] < n)
                    nb[r * n + c][count_nb[r * n + c]++] = (r + DR[k]) * n + c + DC[k];
    for (int s = 0; s < size; ++s) {
        int dr = 2 * (s / n) - n + 1, dc = 2 * (s % n) - n + 1;
        is_free[s] = 1, degree[s] = count_nb[s], far[s] = dr * dr + dc * dc;
    }
    int start = (row - 1) * n + col - 1;
    if (size % 2 == 1 && (row + col) % 2 == 1) { printf("-1\n"); return 0; }
    enter(start);
    if (!extend(start)) { printf("-1\n"); return 0; }
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) printf(c + 1 < n ? "%d " : "%d\n", number[r * n + c]);
    return 0;
}
