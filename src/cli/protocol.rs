//! `twinsim protocol GAME`: what a bot reads and prints, its time limits and what bad output
//! costs, with a real example; the text is `docs/protocol/<game>.md`, compiled in.

use super::known_game;
use std::process::ExitCode;

/// The protocol document of each game, by trace name.
const DOCUMENTS: [(&str, &str); 5] = [
    ("xmas-rush", include_str!("../../docs/protocol/xmas-rush.md")),
    ("photosynthesis", include_str!("../../docs/protocol/photosynthesis.md")),
    ("zuniq", include_str!("../../docs/protocol/zuniq.md")),
    ("olymbits", include_str!("../../docs/protocol/olymbits.md")),
    ("wondev-woman", include_str!("../../docs/protocol/wondev-woman.md")),
];

/// The protocol document of `game`, if it is one of the five.
pub fn document(game: &str) -> Option<&'static str> {
    DOCUMENTS.iter().find(|(name, _)| *name == game).map(|(_, text)| *text)
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
