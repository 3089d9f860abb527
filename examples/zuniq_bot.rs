//! A complete Zuniq contest bot on standard input and output: `builtin:mcts`
//! (`twinsim_search::zuniq_mcts`: MCTS with transposition nodes, RAVE and an exact endgame solver,
//! on the fast twin's board), playing from what the referee sends it (nothing else).
//!
//! ```sh
//! cargo build --release --example zuniq_bot
//! cargo run --release -- arena zuniq --bot target/release/examples/zuniq_bot --bot builtin:random
//! ```
//!
//! It uses only the dependency-free core (`twinsim-search` and `twinsim-fast` with
//! `default-features = false`), so it submits as one file (README, "Submitting to a contest"):
//!
//! ```sh
//! cargo run --release -- bundle examples/zuniq_bot.rs -o submission.rs
//! rustc --edition 2021 -O submission.rs
//! ```
//!
//! `TWINSIM_ITERATIONS=N` in the environment makes every move search exactly `N` iterations
//! (deterministic, for tests) instead of thinking against the clock.

use std::io::{self, Write};
use twinsim_search::bot::ViewPlayer;
use twinsim_search::stdio::{TurnClock, TurnReader};
use twinsim_search::zuniq_mcts::ZuniqBot;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A fixed iteration budget per move (deterministic) instead of the clock.
    let iterations = match std::env::var("TWINSIM_ITERATIONS") {
        Ok(n) => Some(n.parse::<u64>()?),
        Err(_) => None,
    };
    let mut input = TurnReader::new(twinsim_reference::zuniq::FRAMING, io::stdin().lock());
    let mut clock = TurnClock::new(twinsim_reference::zuniq::TIME_LIMITS);
    let mut bot = None;
    while let Some(text) = input.next_turn()? {
        let deadline = clock.start_turn();
        // The seat is known once the first input has been read.
        let bot = match &mut bot {
            Some(bot) => bot,
            None => {
                let seat = input.seat().unwrap_or(0);
                bot.insert(ZuniqBot::new(seat, 1, iterations))
            }
        };
        if let Some(answer) = bot.play(&text, deadline) {
            writeln!(io::stdout(), "{answer}")?;
            io::stdout().flush()?;
        }
        clock.end_turn();
    }
    Ok(())
}
