//! `twinsim protocol GAME`: what a bot reads and prints, its time limits and what bad output
//! costs, with a real example; the text is `docs/protocol/<game>.md`, compiled in.

use super::known_game;
use std::process::ExitCode;
use twinsim_reference::registry::GameId;

/// The protocol document of `game`, if it is one of the games.
pub fn document(game: &str) -> Option<&'static str> {
    Some(match game.parse::<GameId>().ok()? {
        GameId::XmasRush => include_str!("../../docs/protocol/xmas-rush.md"),
        GameId::Photosynthesis => include_str!("../../docs/protocol/photosynthesis.md"),
        GameId::Zuniq => include_str!("../../docs/protocol/zuniq.md"),
        GameId::Olymbits => include_str!("../../docs/protocol/olymbits.md"),
        GameId::WondevWoman => include_str!("../../docs/protocol/wondev-woman.md"),
    })
}

/// Prints the protocol of `game`.
pub fn run(game: &str) -> ExitCode {
    if let Err(code) = known_game(game) {
        return code;
    }
    match document(game) {
        Some(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        None => super::usage_error(format!("no protocol document for {game}")),
    }
}
