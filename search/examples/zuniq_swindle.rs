//! Zuniq swindle probe (issue 34): for lost positions read from stdin (the `zuniq_probe`
//! format: `GAME TAG PLY WALL WALL ...`), which wall makes the opponent most likely to go wrong?
//!
//! For each position the player to move loses (proven by the solver), it prints, for the wall
//! `builtin:mcts` plays (its search with proofs ignored, 1.5 s) and for the wall leaving the
//! opponent the smallest share of winning answers (counted by the solver), that share and how
//! often `builtin:mcts-v1` answering it (its clock as at that ply of a 30 s game, several seeds)
//! plays a losing wall.
//!
//! `cargo run --release -p twinsim-search --example zuniq_swindle -- SEEDS < positions.txt`
//!
//! The positions of an arena run's `traces.jsonl` at ply 26 (each game's first 26 walls), in
//! that format:
//! `python3 -c 'import json,sys; [print(i, "x", 26, *[t["actions"][0].rstrip("!") for t in json.loads(l)["turns"]][:26]) for i, l in enumerate(open(sys.argv[1]))]' traces.jsonl > positions.txt`
//! (lines the solver does not prove lost for the player to move are reported and skipped;
//! unreadable lines are named on standard error).
use std::io::BufRead;
use std::time::{Duration, Instant};
use twinsim_fast::zuniq::typed::{parse_line, wall_of};
use twinsim_fast::zuniq::{Board, FastZuniq};
use twinsim_reference::zuniq::rules::apply_move;
use twinsim_reference::zuniq::{Action, State as RefState};
use twinsim_search::bot::ViewPlayer;
use twinsim_search::zuniq::ZuniqBot;
use twinsim_search::zuniq_mcts::{Config, Search};
use twinsim_search::zuniq_solver::{live_walls, search_board, Limit, Solver};

fn after(board: &Board, w: usize) -> Board {
    let mut child = *board;
    child.place(w, board.cut(w));
    child
}

fn walls(mask: u64) -> impl Iterator<Item = usize> {
    (0..60).filter(move |w| mask >> w & 1 == 1)
}

/// v1's whole-game clock left when answering at `ply` (its own schedule from 30 s).
fn v1_left(ply: u8) -> Duration {
    Duration::from_secs_f64(match ply {
        0..=25 => 10.0,
        26..=27 => 8.6,
        28..=29 => 7.3,
        30..=31 => 6.1,
        _ => 5.4,
    })
}

/// A line `GAME TAG PLY WALL WALL ...`: the game's label, the position (claims cleared) and the
/// reference state after those walls; an error names the token that is no wall or not legal.
fn read_position(line: &str) -> Result<(String, Board, RefState), String> {
    let mut it = line.split_whitespace();
    let game = it.next().ok_or("an empty line")?.to_string();
    if it.next().is_none() || it.next().is_none() {
        return Err("expected `GAME TAG PLY WALL ...`".into());
    }
    let mut board = Board::new();
    let mut state = RefState::new();
    for name in it {
        let (w, _) = parse_line(name.as_bytes()).ok_or(format!("`{name}` is not a wall"))?;
        apply_move(&mut state, Action { wall: wall_of(w), claim: false })
            .map_err(|e| format!("`{name}` is not legal here: {e}"))?;
        board = after(&board, w);
    }
    Ok((game, search_board(&board), state))
}

fn main() {
    let seeds: i64 = std::env::args().nth(1).map_or(3, |s| s.parse().unwrap());
    let mut solver = Solver::default();
    let limit = |secs: f64| Limit {
        nodes: u64::MAX,
        deadline: Some(Instant::now() + Duration::from_secs_f64(secs)),
    };
    for (number, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.expect("standard input is readable text");
        let (game, b, state) = match read_position(&line) {
            Ok(position) => position,
            Err(why) => {
                eprintln!("line {}: {why}; skipped", number + 1);
                continue;
            }
        };
        let t = Instant::now();
        match solver.solve(&b, limit(10.0)) {
            Some(false) => {}
            value => {
                let why = match value {
                    Some(_) => "won for the player to move",
                    None => "not proven in 10 s",
                };
                println!(
                    "{game} ply {} live {} skipped: {why} ({:.2}s)",
                    b.ply,
                    live_walls(&b),
                    t.elapsed().as_secs_f64()
                );
                continue;
            }
        }
        // Winning answers of each wall (the opponent's answers after which we lose).
        let t = Instant::now();
        let mut share = [(0u32, 0u32); 60];
        let mut complete = true;
        for m in walls(b.legal_mask()) {
            let child = after(&b, m);
            for r in walls(child.legal_mask()) {
                let grandchild = after(&child, r);
                match solver.solve(&grandchild, limit(5.0)) {
                    Some(false) => share[m].0 += 1,
                    Some(true) => {}
                    None => complete = false,
                }
                share[m].1 += 1;
            }
        }
        let count_secs = t.elapsed().as_secs_f64();
        let fraction = |m: usize| f64::from(share[m].0) / f64::from(share[m].1.max(1));
        let trap = walls(b.legal_mask())
            .min_by(|&x, &y| fraction(x).total_cmp(&fraction(y)).then(share[x].0.cmp(&share[y].0)))
            .unwrap();
        let now = Instant::now();
        let mut search = Search::new(Config::default(), 7);
        let played = search
            .decide(
                &b,
                None,
                Some(now + Duration::from_millis(1500)),
                u64::MAX,
                Some(now + Duration::from_millis(750)),
                false,
            )
            .unwrap()
            .wall;
        // How often v1 goes wrong after each.
        let mut errors = |m: usize| {
            let mut s = state.clone();
            apply_move(&mut s, Action { wall: wall_of(m), claim: false }).unwrap();
            let child = after(&b, m);
            let seat = usize::from(child.ply & 1);
            let mut wrong = 0;
            for seed in 1..=seeds {
                let mut v1 = ZuniqBot::<FastZuniq>::resume(seat, seed, None, &s);
                let reply = v1.play("", Instant::now() + v1_left(child.ply)).unwrap();
                let (r, _) = parse_line(reply.as_bytes()).unwrap();
                if solver.solve(&after(&child, r), limit(10.0)) == Some(true) {
                    wrong += 1;
                }
            }
            wrong
        };
        let played_wrong = errors(played);
        let trap_wrong = if trap == played { played_wrong } else { errors(trap) };
        println!(
            "{game} ply {} live {} count {count_secs:.2}s{} played {}/{} wrong {played_wrong}/{seeds} trap {}/{} wrong {trap_wrong}/{seeds}",
            b.ply,
            live_walls(&b),
            if complete { "" } else { " (incomplete)" },
            share[played].0,
            share[played].1,
            share[trap].0,
            share[trap].1,
        );
    }
}
