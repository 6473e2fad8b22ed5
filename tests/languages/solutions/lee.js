// lee in JavaScript (Node): the whole input from require('fs').readFileSync(0), Lee's wave (BFS)
// from the mouse over flat arrays, then the path rebuilt from the cheese by predecessors.
const numbers = require('fs').readFileSync(0, 'utf8').trim().split(/\s+/).map(Number);
let at = 0;
const next = () => numbers[at++];
const n = next(), m = next();
const wall = Array.from({ length: n * m }, next);
const mouse = (next() - 1) * m + (next() - 1);
const cheese = (next() - 1) * m + (next() - 1);
const previous = new Int32Array(n * m).fill(-2);  // -2 unreached, -1 the start
previous[mouse] = -1;
const queue = [mouse];
for (let head = 0; head < queue.length; head++) {
  const cell = queue[head], row = Math.floor(cell / m), col = cell % m;
  for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
    const r = row + dr, c = col + dc, neighbour = r * m + c;
    if (r >= 0 && r < n && c >= 0 && c < m && !wall[neighbour] && previous[neighbour] === -2) {
      previous[neighbour] = cell;
      queue.push(neighbour);
    }
  }
}
if (previous[cheese] === -2) {
  console.log(-1);
} else {
  const path = [];
  for (let cell = cheese; cell !== -1; cell = previous[cell]) path.push(cell);
  path.reverse();
  const lines = [String(path.length - 1)];
  for (const cell of path) lines.push(`${Math.floor(cell / m) + 1} ${cell % m + 1}`);
  console.log(lines.join('\n'));
}
