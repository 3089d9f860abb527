//! A complete Photosynthesis contest bot on standard input and output: a beam search over the day's own actions, on the fast twin,
//! playing from what the referee sends it (nothing else).
//!
//! ```sh
//! cargo build --release --example photosynthesis_bot
//! cargo run --release -- arena photosynthesis --bot target/release/examples/photosynthesis_bot --bot builtin:random
//! ```

use std::io::{self, Write};
use twinsim_search::bot::{make_player, SearchSpec};
use twinsim_search::stdio::{TurnClock, TurnReader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let spec: SearchSpec = "beam@fast".parse()?;
    let mut input = TurnReader::new("photosynthesis", io::stdin().lock())?;
    let mut clock = TurnClock::new("photosynthesis");
    let mut bot = None;
    while let Some(text) = input.next_turn()? {
        let deadline = clock.start_turn();
        // The seat is known once the first input has been read.
        let bot = match &mut bot {
            Some(bot) => bot,
            None => bot.insert(make_player("photosynthesis", &spec, input.seat().unwrap_or(0), 1)?),
        };
        if let Some(answer) = bot.play(&text, deadline) {
            writeln!(io::stdout(), "{answer}")?;
            io::stdout().flush()?;
        }
        clock.end_turn();
    }
    Ok(())
}
