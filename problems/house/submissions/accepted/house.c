/* The house in one stroke, accepted: the seed's backtracking over edges with the number of
   completions from (vertex, set of used edges) memoized, in C (gcc -O2). Reads the graph on
   stdin; prints the count of Euler trails and the first trail in lexicographic order. */
#include <stdio.h>
#include <string.h>

static int n, m, degree[11], neighbour[11][16], edge_bit[11][16];
static long long memo[1 << 16][11];
static int full;

static long long completions(int vertex, int used) {
    if (used == full) return 1;
    if (memo[used][vertex] >= 0) return memo[used][vertex];
    long long total = 0;
    for (int k = 0; k < degree[vertex]; ++k)
        if (!(used & edge_bit[vertex][k])) total += completions(neighbour[vertex][k], used | edge_bit[vertex][k]);
    return memo[used][vertex] = total;
}

static void add(int from, int to, int bit) {
    int k = degree[from]++;
    while (k > 0 && neighbour[from][k - 1] > to) {  /* keep neighbours ascending */
        neighbour[from][k] = neighbour[from][k - 1];
        edge_bit[from][k] = edge_bit[from][k - 1];
        --k;
    }
    neighbour[from][k] = to;
    edge_bit[from][k] = bit;
}

int main(void) {
    if (scanf("%d %d", &n, &m) != 2) return 1;
    for (int i = 0; i < m; ++i) {
        int a, b;
        if (scanf("%d %d", &a, &b) != 2) return 1;
        add(a, b, 1 << i);
        add(b, a, 1 << i);
    }
    full = (1 << m) - 1;
    memset(memo, -1, sizeof memo);
    int odd = 0;
    for (int v = 1; v <= n; ++v) odd += degree[v] % 2;
    long long count = 0;
    int first = 0;
    for (int v = 1; v <= n; ++v) {
        if (degree[v] == 0 || (odd == 2 && degree[v] % 2 == 0) || (odd != 0 && odd != 2)) continue;
        long long here = completions(v, 0);
        if (here > 0 && first == 0) first = v;
        count += here;
    }
    printf("%lld\n", count);
    if (count == 0) return 0;
    int vertex = first, used = 0;
    printf("%d", vertex);
    while (used != full) {
        for (int k = 0; k < degree[vertex]; ++k) {
            int bit = edge_bit[vertex][k];
            if (!(used & bit) && completions(neighbour[vertex][k], used | bit) > 0) {
                used |= bit;
                vertex = neighbour[vertex][k];
                break;
            }
        }
        printf(" %d", vertex);
    }
    printf("\n");
    return 0;
}
