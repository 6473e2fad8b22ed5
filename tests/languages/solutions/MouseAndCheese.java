// lee in Java: Lee's wave (BFS) from the mouse, then the path from the cheese back along the
// predecessor of each cell. The public class is not called Main and a nested class is declared
// before main: the judge must take the class name from the source.
import java.io.*;
import java.util.*;

public class MouseAndCheese {
    static class Cell {
        final int row, col;
        Cell(int row, int col) { this.row = row; this.col = col; }
    }

    static final int[] D_ROW = {-1, 1, 0, 0}, D_COL = {0, 0, -1, 1};

    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        int n = next(in), m = next(in);
        boolean[][] wall = new boolean[n][m];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) wall[i][j] = next(in) == 1;
        Cell mouse = new Cell(next(in) - 1, next(in) - 1), cheese = new Cell(next(in) - 1, next(in) - 1);
        Cell[][] previous = new Cell[n][m];
        boolean[][] seen = new boolean[n][m];
        ArrayDeque<Cell> queue = new ArrayDeque<>();
        queue.add(mouse);
        seen[mouse.row][mouse.col] = true;
        while (!queue.isEmpty()) {
            Cell cell = queue.poll();
            for (int k = 0; k < 4; k++) {
                int r = cell.row + D_ROW[k], c = cell.col + D_COL[k];
                if (r >= 0 && r < n && c >= 0 && c < m && !wall[r][c] && !seen[r][c]) {
                    seen[r][c] = true;
                    previous[r][c] = cell;
                    queue.add(new Cell(r, c));
                }
            }
        }
        if (!seen[cheese.row][cheese.col]) {
            System.out.println(-1);
            return;
        }
        ArrayList<Cell> path = new ArrayList<>();
        for (Cell cell = cheese; cell != null; cell = previous[cell.row][cell.col]) path.add(cell);
        Collections.reverse(path);
        StringBuilder out = new StringBuilder().append(path.size() - 1).append('\n');
        for (Cell cell : path) out.append(cell.row + 1).append(' ').append(cell.col + 1).append('\n');
        System.out.print(out);
    }

    static int next(StreamTokenizer in) throws IOException {
        in.nextToken();
        return (int) in.nval;
    }
}
