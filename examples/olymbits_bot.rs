//! A complete Olymbits contest bot on standard input and output: decoupled UCT over the four mini-games, on the fast twin,
//! playing from what the referee sends it (nothing else).
//!
//! ```sh
//! cargo build --release --example olymbits_bot
//! cargo run --release -- arena olymbits --bot target/release/examples/olymbits_bot --bot builtin:random
//! ```

use std::io::{self, Write};
use twinsim_search::bot::{make_player, SearchSpec};
use twinsim_search::stdio::{TurnClock, TurnReader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let spec: SearchSpec = "smitsimax@fast".parse()?;
    let mut input = TurnReader::new("olymbits", io::stdin().lock())?;
    let mut clock = TurnClock::new("olymbits");
    let mut bot = None;
    while let Some(text) = input.next_turn()? {
        let deadline = clock.start_turn();
        // The seat is known once the first input has been read.
        let bot = match &mut bot {
            Some(bot) => bot,
            None => bot.insert(make_player("olymbits", &spec, input.seat().unwrap_or(0), 1)?),
        };
        if let Some(answer) = bot.play(&text, deadline) {
            writeln!(io::stdout(), "{answer}")?;
            io::stdout().flush()?;
        }
        clock.end_turn();
    }
    Ok(())
}
