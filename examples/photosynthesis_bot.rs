//! A complete Photosynthesis contest bot on standard input and output: a beam search over the day's own actions, on the fast twin,
//! playing from what the referee sends it (nothing else).
//!
//! ```sh
//! cargo build --release --example photosynthesis_bot
//! cargo run --release -- arena photosynthesis --bot target/release/examples/photosynthesis_bot --bot builtin:random
//! ```
//!
//! It uses only the dependency-free core (`twinsim-search` and `twinsim-fast` with
//! `default-features = false`), so it submits as one file (README, "Submitting to a contest"):
//!
//! ```sh
//! cargo run --release -- bundle examples/photosynthesis_bot.rs -o submission.rs
//! rustc --edition 2021 -O submission.rs
//! ```
//!
//! `TWINSIM_ITERATIONS=N` in the environment makes every move search exactly `N` iterations
//! (deterministic, for tests) instead of thinking against the clock.

use std::io::{self, Write};
use twinsim_search::bot::ViewPlayer;
use twinsim_search::photosynthesis::BeamBot;
use twinsim_search::stdio::{TurnClock, TurnReader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A fixed iteration budget per move (deterministic) instead of the clock.
    let iterations = match std::env::var("TWINSIM_ITERATIONS") {
        Ok(n) => Some(n.parse::<u64>()?),
        Err(_) => None,
    };
    let mut input = TurnReader::new(twinsim_reference::photosynthesis::FRAMING, io::stdin().lock());
    let mut clock = TurnClock::new(twinsim_reference::photosynthesis::TIME_LIMITS);
    let mut bot = None;
    while let Some(text) = input.next_turn()? {
        let deadline = clock.start_turn();
        // The seat is known once the first input has been read.
        let bot = match &mut bot {
            Some(bot) => bot,
            None => bot.insert(BeamBot::new(input.seat().unwrap_or(0), 1, iterations)),
        };
        if let Some(answer) = bot.play(&text, deadline) {
            writeln!(io::stdout(), "{answer}")?;
            io::stdout().flush()?;
        }
        clock.end_turn();
    }
    Ok(())
}
