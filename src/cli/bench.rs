//! `twinsim bench [GAME]`: the table of hot operations, reference against fast (the measuring
//! itself is `twinsim::bench`).

use super::known_game;
use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;
use twinsim::bench;

/// Measures every operation of `game` (or all games) and prints the table or JSON; with
/// `instructions`, counts them under callgrind instead.
pub fn run(game: Option<&str>, rounds: usize, json: bool, instructions: bool) -> ExitCode {
    if let Some(g) = game {
        if let Err(code) = known_game(g) {
            return code;
        }
    }
    let mut ops = twinsim_fast::bench::ops(game);
    if ops.is_empty() {
        println!("no benchmark pairs yet for {}", game.unwrap_or("any game"));
        return ExitCode::FAILURE;
    }
    if instructions {
        return bench::instructions::run(game, &mut ops, json);
    }
    let mut results = Vec::new();
    let live = !json && std::io::stdout().is_terminal();
    for op in ops.iter_mut() {
        let r = bench::measure(op, rounds, Duration::from_millis(20));
        if live {
            print!("\r{:<60}", format!("measured {} {}", r.game, r.name));
            let _ = std::io::stdout().flush();
        }
        results.push(r);
    }
    if json {
        let out: Vec<Value> = results.iter().map(|r| r.to_json()).collect();
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        if live {
            print!("\r{:<60}\r", "");
        }
        print!("{}", bench::table(&results));
    }
    ExitCode::SUCCESS
}
