/* lee in C: Lee's wave (BFS) from the mouse over a maze framed by walls, then the path is walked
   back from the cheese along cells whose distance drops by one. dist = 1 + moves, 0 = unreached. */
#include <stdio.h>

#define SIZE 102
static int wall[SIZE + 1][SIZE + 1], dist[SIZE + 1][SIZE + 1];
static int queue_row[SIZE * SIZE], queue_col[SIZE * SIZE], path_row[SIZE * SIZE], path_col[SIZE * SIZE];
static const int d_row[4] = {-1, 1, 0, 0}, d_col[4] = {0, 0, -1, 1};

int main(void) {
    int n, m, mouse_row, mouse_col, cheese_row, cheese_col;
    if (scanf("%d %d", &n, &m) != 2) return 1;
    for (int i = 0; i <= n + 1; i++)
        for (int j = 0; j <= m + 1; j++) wall[i][j] = 1;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) scanf("%d", &wall[i][j]);
    scanf("%d %d %d %d", &mouse_row, &mouse_col, &cheese_row, &cheese_col);
    int head = 0, tail = 0;
    queue_row[tail] = mouse_row; queue_col[tail++] = mouse_col;
    dist[mouse_row][mouse_col] = 1;
    while (head < tail) {
        int r = queue_row[head], c = queue_col[head++];
        for (int k = 0; k < 4; k++) {
            int nr = r + d_row[k], nc = c + d_col[k];
            if (!wall[nr][nc] && !dist[nr][nc]) {
                dist[nr][nc] = dist[r][c] + 1;
                queue_row[tail] = nr; queue_col[tail++] = nc;
            }
        }
    }
    if (!dist[cheese_row][cheese_col]) { puts("-1"); return 0; }
    int length = 0, r = cheese_row, c = cheese_col;
    path_row[length] = r; path_col[length++] = c;
    while (dist[r][c] > 1) {
        for (int k = 0; k < 4; k++) {
            int nr = r + d_row[k], nc = c + d_col[k];
            if (!wall[nr][nc] && dist[nr][nc] == dist[r][c] - 1) { r = nr; c = nc; break; }
        }
        path_row[length] = r; path_col[length++] = c;
    }
    printf("%d\n", length - 1);
    for (int p = length - 1; p >= 0; p--) printf("%d %d\n", path_row[p], path_col[p]);
    return 0;
}
