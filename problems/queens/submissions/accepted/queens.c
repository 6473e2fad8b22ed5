/* N queens, accepted: backtracking row by row with bit masks for the taken columns and
   both diagonal directions, in C (gcc -O2). Reads N on stdin; prints the count and the
   first placement found (columns tried from left to right). */
#include <stdio.h>

static int size, full, count;
static int current[16], first[16];

static void place(int row, int columns, int left, int right) {
    if (row == size) {
        if (count++ == 0)
            for (int i = 0; i < size; ++i) first[i] = current[i];
        return;
    }
    int free_cells = full & ~(columns | left | right);
    while (free_cells) {
        int bit = free_cells & -free_cells;
        free_cells ^= bit;
        current[row] = __builtin_ctz(bit) + 1;
        place(row + 1, columns | bit, ((left | bit) << 1) & full, (right | bit) >> 1);
    }
}

int main(void) {
    if (scanf("%d", &size) != 1) return 1;
    full = (1 << size) - 1;
    place(0, 0, 0, 0);
    printf("%d\n", count);
    if (count > 0) {
        for (int i = 0; i < size; ++i) printf(i ? " %d" : "%d", first[i]);
        printf("\n");
    }
    return 0;
}
