//! `twinsim replay FILES`: every readable game of the files through the chosen engine(s).

use super::{usage_error, EngineChoice};
use std::path::PathBuf;
use std::process::ExitCode;
use twinsim::replay;
use twinsim_arena::registry;
use twinsim_reference::trace;

/// Replays the readable games of `files`. A malformed line is reported with its file and line
/// number and the other games are still replayed; the exit code is then 2.
pub fn run(files: &[PathBuf], engine: EngineChoice) -> ExitCode {
    let mut games = Vec::new();
    let mut unreadable_lines = 0;
    for file in files {
        let text = match twinsim::input::read_bytes(file) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => return usage_error(format!("cannot read {}: {e}", file.display())),
        };
        let (mut parsed, errors) = trace::parse_jsonl_lenient(&text);
        for error in &errors {
            eprintln!("twinsim: {}: {error} (game skipped)", file.display());
        }
        unreadable_lines += errors.len();
        games.append(&mut parsed);
    }
    if let Some(unknown) = games.iter().find(|g| !registry::GAMES.contains(&g.game.as_str())) {
        return usage_error(format!(
            "unknown game {:?} (known: {})",
            unknown.game,
            registry::GAMES.join(", ")
        ));
    }
    let summary = replay::replay_all(&games, &engine.kinds());
    for (kind, report) in &summary.failures {
        print!("{}", replay::describe_failure(*kind, report));
    }
    for (game, kind) in &summary.skipped_engines {
        println!("skipped: {game} has no {kind} engine yet");
    }
    if unreadable_lines > 0 {
        println!("{}; {unreadable_lines} unreadable lines", summary.line());
        ExitCode::from(2)
    } else if summary.is_clean() {
        println!("{}", summary.line());
        ExitCode::SUCCESS
    } else {
        println!("{}", summary.line());
        ExitCode::FAILURE
    }
}
