// lee in Kotlin: Lee's wave (BFS) from the mouse over a maze framed by walls, then the path is walked
// back from the cheese along cells whose distance drops by one. dist = 1 + moves, 0 = unreached.
import java.io.StreamTokenizer
import java.util.ArrayDeque

fun main() {
    val tokens = StreamTokenizer(System.`in`.bufferedReader())
    fun next(): Int { tokens.nextToken(); return tokens.nval.toInt() }
    val n = next()
    val m = next()
    val wall = Array(n + 2) { BooleanArray(m + 2) { true } }
    for (i in 1..n) for (j in 1..m) wall[i][j] = next() == 1
    val mouse = intArrayOf(next(), next())
    val cheese = intArrayOf(next(), next())
    val steps = arrayOf(intArrayOf(-1, 0), intArrayOf(1, 0), intArrayOf(0, -1), intArrayOf(0, 1))
    val dist = Array(n + 2) { IntArray(m + 2) }
    dist[mouse[0]][mouse[1]] = 1
    val queue = ArrayDeque<IntArray>()
    queue.addLast(mouse)
    while (queue.isNotEmpty()) {
        val c = queue.removeFirst()
        for (s in steps) {
            val r = c[0] + s[0]
            val k = c[1] + s[1]
            if (!wall[r][k] && dist[r][k] == 0) {
                dist[r][k] = dist[c[0]][c[1]] + 1
                queue.addLast(intArrayOf(r, k))
            }
        }
    }
    if (dist[cheese[0]][cheese[1]] == 0) {
        println(-1)
        return
    }
    val path = mutableListOf(cheese)
    var c = cheese
    while (dist[c[0]][c[1]] > 1) {
        c = steps.map { intArrayOf(c[0] + it[0], c[1] + it[1]) }
            .first { !wall[it[0]][it[1]] && dist[it[0]][it[1]] == dist[c[0]][c[1]] - 1 }
        path.add(c)
    }
    val out = StringBuilder().append(path.size - 1).append('\n')
    for (p in path.asReversed()) out.append(p[0]).append(' ').append(p[1]).append('\n')
    print(out)
}
