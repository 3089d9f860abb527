//! `twinsim`: replay referee traces, verify both engines, draw positions, perft and benchmarks.

use clap::{Parser, Subcommand, ValueEnum};
use reference::game::EngineKind;
use reference::trace;
use std::path::PathBuf;
use std::process::ExitCode;
use twinsim::{registry, replay};

#[derive(Parser)]
#[command(
    name = "twinsim",
    version,
    about = "Exact, fast rule engines for five bot-programming games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EngineChoice {
    Reference,
    Fast,
    Both,
}

impl EngineChoice {
    fn kinds(self) -> Vec<EngineKind> {
        match self {
            EngineChoice::Reference => vec![EngineKind::Reference],
            EngineChoice::Fast => vec![EngineKind::Fast],
            EngineChoice::Both => vec![EngineKind::Reference, EngineKind::Fast],
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Replay referee trace files and compare every turn with the file.
    Replay {
        /// JSON Lines trace files (games may be mixed).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Which engine(s) to replay through.
        #[arg(long, value_enum, default_value = "both")]
        engine: EngineChoice,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Replay { files, engine } => run_replay(&files, engine),
    }
}

fn run_replay(files: &[PathBuf], engine: EngineChoice) -> ExitCode {
    let mut games = Vec::new();
    for file in files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("twinsim: cannot read {}: {e}", file.display());
                return ExitCode::from(2);
            }
        };
        match trace::parse_jsonl(&text) {
            Ok(mut parsed) => games.append(&mut parsed),
            Err(e) => {
                eprintln!("twinsim: {}: {e}", file.display());
                return ExitCode::from(2);
            }
        }
    }
    for game in &games {
        if !registry::GAMES.contains(&game.game.as_str()) {
            eprintln!(
                "twinsim: unknown game {:?} (known: {})",
                game.game,
                registry::GAMES.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let summary = replay::replay_all(&games, &engine.kinds());
    for (kind, report) in &summary.failures {
        print!("{}", replay::describe_failure(*kind, report));
    }
    for (game, kind) in &summary.skipped_engines {
        println!("skipped: {game} has no {kind} engine yet");
    }
    println!("{}", summary.line());
    if summary.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
