/* The BASIC puzzle: BFS (Moore 1959) from the given position over the 720 boards, remembering
   for each board the board it was reached from; the chain back from BASIC* is a shortest way.
   Boards are kept as 6-character strings in discovery order; 720 of them make a linear search
   for "seen before?" cheap enough. */
#include <stdio.h>
#include <string.h>

#define BOARDS 720

static char boards[BOARDS][7];
static int parent[BOARDS];
static int count;

static int find(const char *board) {
    for (int i = 0; i < count; ++i)
        if (strcmp(boards[i], board) == 0) return i;
    return -1;
}

int main(void) {
    char start[16];
    if (scanf("%15s", start) != 1) return 1;
    /* blank moves: right, left, down, up (as column/row steps on the 2x3 board) */
    const int step_row[4] = {0, 0, 1, -1}, step_col[4] = {1, -1, 0, 0};
    strcpy(boards[0], start);
    parent[0] = -1;
    count = 1;
    int goal = strcmp(start, "BASIC*") == 0 ? 0 : -1;
    for (int head = 0; head < count && goal < 0; ++head) {
        int blank = (int)(strchr(boards[head], '*') - boards[head]);
        for (int d = 0; d < 4 && goal < 0; ++d) {
            int row = blank / 3 + step_row[d], col = blank % 3 + step_col[d];
            if (row < 0 || row > 1 || col < 0 || col > 2) continue;
            char next[7];
            strcpy(next, boards[head]);
            next[blank] = next[row * 3 + col];
            next[row * 3 + col] = '*';
            if (find(next) >= 0) continue;
            strcpy(boards[count], next);
            parent[count] = head;
            if (strcmp(next, "BASIC*") == 0) goal = count;
            ++count;
        }
    }
    if (goal < 0) {
        printf("-1\n");
        return 0;
    }
    int path[BOARDS], length = 0;
    for (int at = goal; at >= 0; at = parent[at]) path[length++] = at;
    printf("%d\n", length - 1);
    for (int i = length - 1; i >= 0; --i) printf("%s\n", boards[path[i]]);
    return 0;
}
