//! Zuniq solver probe (issue 34): solves positions read from stdin, one a line:
//! `GAME TAG PLY WALL WALL ...` (the walls in the order played, e.g. from a match's
//! `traces.jsonl`), and prints each one's value for the player to move, the time and the nodes.
//!
//! `cargo run --release -p twinsim-search --example zuniq_probe -- SECONDS < positions.txt`:
//! each position gets at most SECONDS (default 3) and, with `NODES=N` in the environment, at
//! most N nodes; the table is kept from one line to the next (the positions of one game, as in
//! a match) unless `FRESH` is set. Replaying every ply of a match's games shows where each game
//! was decided and which move threw a proven win away.
use std::io::BufRead;
use std::time::{Duration, Instant};
use twinsim_fast::zuniq::typed::parse_line;
use twinsim_fast::zuniq::Board;
use twinsim_search::zuniq_solver::{live_walls, search_board, Limit, Solver};

fn main() {
    let secs: f64 = std::env::args().nth(1).map_or(3.0, |s| s.parse().unwrap());
    let max_nodes: u64 = std::env::var("NODES").map_or(u64::MAX, |s| s.parse().unwrap());
    let mut solver = Solver::default();
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let mut it = line.split_whitespace();
        let (game, tag, ply) = (it.next().unwrap(), it.next().unwrap(), it.next().unwrap());
        let mut b = Board::new();
        for m in it {
            let (w, _) = parse_line(m.as_bytes()).unwrap();
            let cut = b.cut(w);
            b.place(w, cut);
        }
        let b = search_board(&b);
        if std::env::var("FRESH").is_ok() {
            solver = Solver::default();
        }
        let t = Instant::now();
        let before = solver.nodes;
        let r = solver.solve(
            &b,
            Limit { nodes: max_nodes, deadline: Some(t + Duration::from_secs_f64(secs)) },
        );
        let mover = if b.ply & 1 == 0 { "W" } else { "B" };
        let v = match r {
            Some(true) => format!("{mover}wins"),
            Some(false) => format!("{mover}loses"),
            None => "?".into(),
        };
        println!(
            "{game} {tag} ply {ply} live {} {v} {:.2}s {} nodes",
            live_walls(&b),
            t.elapsed().as_secs_f64(),
            solver.nodes - before
        );
    }
}
