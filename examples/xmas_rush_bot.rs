//! A complete X-mas Rush contest bot on standard input and output: Smitsimax (one search tree per player) over pushes and greedy walks, on the fast twin,
//! playing from what the referee sends it (nothing else).
//!
//! ```sh
//! cargo build --release --example xmas_rush_bot
//! cargo run --release -- arena xmas-rush --bot target/release/examples/xmas_rush_bot --bot builtin:random
//! ```

use std::io::{self, Write};
use twinsim_search::bot::{make_player, SearchSpec};
use twinsim_search::stdio::{TurnClock, TurnReader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let spec: SearchSpec = "smitsimax@fast".parse()?;
    let mut input = TurnReader::new("xmas-rush", io::stdin().lock())?;
    let mut clock = TurnClock::new("xmas-rush");
    let mut bot = None;
    while let Some(text) = input.next_turn()? {
        let deadline = clock.start_turn();
        // The seat is known once the first input has been read.
        let bot = match &mut bot {
            Some(bot) => bot,
            None => bot.insert(make_player("xmas-rush", &spec, input.seat().unwrap_or(0), 1)?),
        };
        if let Some(answer) = bot.play(&text, deadline) {
            writeln!(io::stdout(), "{answer}")?;
            io::stdout().flush()?;
        }
        clock.end_turn();
    }
    Ok(())
}
