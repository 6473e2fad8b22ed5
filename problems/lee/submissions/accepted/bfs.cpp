// Classroom Lee (BFS) solution: the maze gets a frame of walls so no bounds checks are needed,
// the queue is two plain arrays with a head and a tail index, d[i][j] = 1 + moves from the mouse
// (0 = not reached yet), and the path is rebuilt from the cheese back to the mouse.
#include <iostream>
using namespace std;

const int MAXN = 102;
int maze[MAXN + 1][MAXN + 1];          // 1 = wall (the frame included), 0 = free
int d[MAXN + 1][MAXN + 1];             // 0 = not reached, else 1 + moves from the mouse
int queueRow[MAXN * MAXN], queueCol[MAXN * MAXN];
int pathRow[MAXN * MAXN], pathCol[MAXN * MAXN];
int stepRow[4] = {-1, 0, 1, 0};
int stepCol[4] = {0, 1, 0, -1};

int main() {
    int n, m;
    cin >> n >> m;
    for (int i = 0; i <= n + 1; i++)
        for (int j = 0; j <= m + 1; j++)
            maze[i][j] = 1;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++)
            cin >> maze[i][j];
    int mouseRow, mouseCol, cheeseRow, cheeseCol;
    cin >> mouseRow >> mouseCol >> cheeseRow >> cheeseCol;

    int head = 0, tail = 0;
    queueRow[tail] = mouseRow;
    queueCol[tail] = mouseCol;
    tail++;
    d[mouseRow][mouseCol] = 1;
    while (head < tail) {
        int i = queueRow[head], j = queueCol[head];
        head++;
        for (int k = 0; k < 4; k++) {
            int ni = i + stepRow[k], nj = j + stepCol[k];
            if (maze[ni][nj] == 0 && d[ni][nj] == 0) {
                d[ni][nj] = d[i][j] + 1;
                queueRow[tail] = ni;
                queueCol[tail] = nj;
                tail++;
            }
        }
    }

    if (d[cheeseRow][cheeseCol] == 0) {
        cout << -1 << "\n";
        return 0;
    }
    // Walk back from the cheese, each time to a neighbour one wave earlier.
    int length = d[cheeseRow][cheeseCol];
    int i = cheeseRow, j = cheeseCol;
    for (int t = length; t >= 1; t--) {
        pathRow[t] = i;
        pathCol[t] = j;
        for (int k = 0; k < 4 && t > 1; k++) {
            int ni = i + stepRow[k], nj = j + stepCol[k];
            if (d[ni][nj] == t - 1) {
                i = ni;
                j = nj;
                break;
            }
        }
    }
    cout << length - 1 << "\n";
    for (int t = 1; t <= length; t++)
        cout << pathRow[t] << " " << pathCol[t] << "\n";
    return 0;
}
