//! `twinsim`: replay referee traces, verify both engines, draw positions, perft, benchmarks and
//! the arena. This file declares the flags; each subcommand's handler is in `cli/`.

mod cli;
mod view;

use clap::{Parser, Subcommand};
use cli::{args, EngineChoice};
use std::path::PathBuf;
use std::process::ExitCode;

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

#[derive(Subcommand)]
enum Command {
    /// Replay referee trace files and compare every turn with the file.
    Replay {
        /// JSON Lines trace files (games may be mixed). A malformed line is reported with its
        /// number; the other games are still replayed (exit 2).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Which engine(s) to replay through.
        #[arg(long, value_enum, default_value = "both")]
        engine: EngineChoice,
    },
    /// The main job: replay the shipped traces through both engines, then play random games
    /// through both in lockstep, and print a table per game.
    Verify {
        /// Random games per game (0 to 1,000,000,000).
        #[arg(long, default_value_t = 200, value_parser = args::games)]
        games: usize,
        /// Master seed of the random games (any 64-bit integer, negative too).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        seed: i64,
        /// Directory of trace files (`<game>.jsonl`) [default: tests/traces of the source tree
        /// the tool was built from].
        #[arg(long)]
        traces: Option<PathBuf>,
        /// Fail (exit 1) when a game or engine is not implemented yet, not only on mismatches.
        #[arg(long)]
        strict: bool,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position in the terminal, or print exactly what one seat reads (`--view`).
    Show(cli::show::ShowArgs),
    /// What a bot reads and prints, its time limits and what bad output costs, with a real
    /// example (the same text as docs/protocol/GAME.md).
    Protocol {
        /// Game: xmas-rush, photosynthesis, zuniq, olymbits, wondev-woman.
        game: String,
    },
    /// Count the leaves of the legal-move tree (alternating games: zuniq, wondev-woman).
    Perft {
        /// Game.
        game: String,
        /// Depth in plies (0 to 16); every depth from 0 up to it is printed.
        #[arg(long, value_parser = args::perft_depth)]
        depth: u32,
        /// Game seed of the start position (default 1; Zuniq has none).
        #[arg(long, allow_negative_numbers = true)]
        seed: Option<i64>,
        /// Which engine(s).
        #[arg(long, value_enum, default_value = "both")]
        engine: EngineChoice,
    },
    /// Play bots against each other under the exact rules, many games in parallel.
    Arena(cli::arena::ArenaArgs),
    /// What speed buys: the game's search bot on the fast twin against the same search on the
    /// reference engine (same wall-clock budget per move, seats rotating), then against
    /// builtin:greedy. Prints a Markdown table.
    Payoff(cli::payoff::PayoffArgs),
    /// How much stronger bot A is than bot B: both seat orders of fixed seeds, A's
    /// wins-draws-losses, score and Elo difference with 95% intervals. Prints a Markdown table.
    Ladder(cli::ladder::LadderArgs),
    /// Write a replay of a trace file (a referee's or an arena's traces.jsonl) as one
    /// self-contained HTML page to watch in a browser, offline.
    View {
        /// JSON Lines trace file.
        file: PathBuf,
        /// Only this game of the file (0-based); default: every game, with a game picker.
        #[arg(long)]
        game: Option<usize>,
        /// The page to write.
        #[arg(short = 'o', long = "output", default_value = "replay.html")]
        output: PathBuf,
    },
    /// One self-contained source file from a bot built on twinsim-fast and twinsim-search, for a
    /// contest that compiles a single file with plain `rustc` (only the bot's game is kept;
    /// comments and tests are stripped).
    Bundle(cli::bundle::BundleArgs),
    /// Each hot operation, reference vs fast, interleaved in one run: median ns/op and ratio.
    Bench {
        /// Only this game.
        game: Option<String>,
        /// Alternating rounds per operation (1 to 100,000).
        #[arg(long, default_value_t = 15, value_parser = args::bench_rounds)]
        rounds: usize,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Count instructions per operation (under valgrind's callgrind) instead of timing.
        #[arg(long)]
        instructions: bool,
    },
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Replay { files, engine } => cli::replay::run(&files, engine),
        Command::Verify { games, seed, traces, strict, json } => {
            cli::verify::run(games, seed, traces.as_deref(), strict, json)
        }
        Command::Show(show) => cli::show::run(&show),
        Command::Protocol { game } => cli::protocol::run(&game),
        Command::Perft { game, depth, seed, engine } => cli::perft::run(&game, depth, seed, engine),
        Command::View { file, game, output } => match view::write_view(&file, game, &output) {
            Ok(count) => {
                eprintln!("wrote {} ({count} game(s))", output.display());
                ExitCode::SUCCESS
            }
            Err(e) => cli::usage_error(format!("view: {e}")),
        },
        Command::Bench { game, rounds, json, instructions } => {
            cli::bench::run(game.as_deref(), rounds, json, instructions)
        }
        Command::Payoff(payoff) => cli::payoff::run(&payoff),
        Command::Ladder(ladder) => cli::ladder::run(&ladder),
        Command::Arena(arena) => cli::arena::run(arena),
        Command::Bundle(bundle) => cli::bundle::run(&bundle),
    }
}
