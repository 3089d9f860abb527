//! A complete Wondev Woman contest bot on standard input and output: alpha-beta with iterative deepening through the fog deduction, on the fast twin,
//! playing from what the referee sends it (nothing else).
//!
//! ```sh
//! cargo build --release --example wondev_woman_bot
//! cargo run --release -- arena wondev-woman --bot target/release/examples/wondev_woman_bot --bot builtin:random
//! ```
//!
//! It uses only the dependency-free core (`twinsim-search` and `twinsim-fast` with
//! `default-features = false`), so it submits as one file (README, "Submitting to a contest"):
//!
//! ```sh
//! cargo run --release -- bundle examples/wondev_woman_bot.rs -o submission.rs
//! rustc --edition 2021 -O submission.rs
//! ```
//!
//! `TWINSIM_ITERATIONS=N` in the environment makes every move search exactly `N` iterations
//! (deterministic, for tests) instead of thinking against the clock.

use std::io::{self, Write};
use twinsim_fast::wondev_woman::FastWondevWoman;
use twinsim_search::bot::ViewPlayer;
use twinsim_search::stdio::{TurnClock, TurnReader};
use twinsim_search::wondev_woman::AlphaBetaBot;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A fixed iteration budget per move (deterministic) instead of the clock.
    let iterations = match std::env::var("TWINSIM_ITERATIONS") {
        Ok(n) => Some(n.parse::<u64>()?),
        Err(_) => None,
    };
    let mut input = TurnReader::new(twinsim_reference::wondev_woman::FRAMING, io::stdin().lock());
    let mut clock = TurnClock::new(twinsim_reference::wondev_woman::TIME_LIMITS);
    let mut bot = None;
    while let Some(text) = input.next_turn()? {
        let deadline = clock.start_turn();
        let bot = match &mut bot {
            Some(bot) => bot,
            // The fog deduction finds the seat out from the views.
            None => bot.insert(AlphaBetaBot::<FastWondevWoman>::new(iterations, 1)),
        };
        if let Some(answer) = bot.play(&text, deadline) {
            writeln!(io::stdout(), "{answer}")?;
            io::stdout().flush()?;
        }
        clock.end_turn();
    }
    Ok(())
}
