// lee in Rust: Lee's wave (BFS) from the mouse over a maze framed by walls, then the path is walked
// back from the cheese along cells whose distance drops by one. dist = 1 + moves, 0 = unreached.
use std::collections::VecDeque;
use std::io::{self, Read, Write};

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).unwrap();
    let mut numbers = text.split_ascii_whitespace().map(|w| w.parse::<usize>().unwrap());
    let (n, m) = (numbers.next().unwrap(), numbers.next().unwrap());
    let mut wall = vec![vec![true; m + 2]; n + 2];
    for row in wall.iter_mut().skip(1).take(n) {
        for cell in row.iter_mut().skip(1).take(m) {
            *cell = numbers.next().unwrap() == 1;
        }
    }
    let mouse = (numbers.next().unwrap(), numbers.next().unwrap());
    let cheese = (numbers.next().unwrap(), numbers.next().unwrap());
    let steps = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)];
    let next = |(r, c): (usize, usize), (dr, dc): (i64, i64)| ((r as i64 + dr) as usize, (c as i64 + dc) as usize);
    let mut dist = vec![vec![0u32; m + 2]; n + 2];
    dist[mouse.0][mouse.1] = 1;
    let mut queue = VecDeque::from([mouse]);
    while let Some(cell) = queue.pop_front() {
        for step in steps {
            let (r, c) = next(cell, step);
            if !wall[r][c] && dist[r][c] == 0 {
                dist[r][c] = dist[cell.0][cell.1] + 1;
                queue.push_back((r, c));
            }
        }
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    if dist[cheese.0][cheese.1] == 0 {
        writeln!(out, "-1").unwrap();
        return;
    }
    let mut path = vec![cheese];
    let mut cell = cheese;
    while dist[cell.0][cell.1] > 1 {
        cell = steps
            .iter()
            .map(|&step| next(cell, step))
            .find(|&(r, c)| !wall[r][c] && dist[r][c] == dist[cell.0][cell.1] - 1)
            .unwrap();
        path.push(cell);
    }
    writeln!(out, "{}", path.len() - 1).unwrap();
    for (r, c) in path.iter().rev() {
        writeln!(out, "{} {}", r, c).unwrap();
    }
}
