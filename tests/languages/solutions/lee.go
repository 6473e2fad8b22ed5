// lee in Go: Lee's wave (BFS) from the mouse over a maze framed by walls, then the path is walked
// back from the cheese along cells whose distance drops by one. dist = 1 + moves, 0 = unreached.
package main

import (
	"bufio"
	"fmt"
	"os"
)

type cell struct{ row, col int }

var steps = []cell{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var n, m int
	fmt.Fscan(in, &n, &m)
	wall := make([][]bool, n+2)
	dist := make([][]int, n+2)
	for i := range wall {
		wall[i] = make([]bool, m+2)
		dist[i] = make([]int, m+2)
		for j := range wall[i] {
			wall[i][j] = true
		}
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			var v int
			fmt.Fscan(in, &v)
			wall[i][j] = v == 1
		}
	}
	var mouse, cheese cell
	fmt.Fscan(in, &mouse.row, &mouse.col, &cheese.row, &cheese.col)
	dist[mouse.row][mouse.col] = 1
	queue := []cell{mouse}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, s := range steps {
			r, k := c.row+s.row, c.col+s.col
			if !wall[r][k] && dist[r][k] == 0 {
				dist[r][k] = dist[c.row][c.col] + 1
				queue = append(queue, cell{r, k})
			}
		}
	}
	if dist[cheese.row][cheese.col] == 0 {
		fmt.Fprintln(out, -1)
		return
	}
	path := []cell{cheese}
	for c := cheese; dist[c.row][c.col] > 1; path = append(path, c) {
		for _, s := range steps {
			r, k := c.row+s.row, c.col+s.col
			if !wall[r][k] && dist[r][k] == dist[c.row][c.col]-1 {
				c = cell{r, k}
				break
			}
		}
	}
	fmt.Fprintln(out, len(path)-1)
	for i := len(path) - 1; i >= 0; i-- {
		fmt.Fprintln(out, path[i].row, path[i].col)
	}
}
