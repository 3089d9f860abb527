//! `twinsim bundle BOT.rs [--game G] -o submission.rs [--limit N]`: the bot and the modules of
//! our crates it uses, one file (see `twinsim::bundle`).

use super::usage_error;
use std::path::PathBuf;
use std::process::ExitCode;
use twinsim::bundle;

/// The flags of `twinsim bundle`.
#[derive(clap::Args)]
pub struct BundleArgs {
    /// The bot's main source file (the crate root of the submission).
    bot: PathBuf,
    /// The game whose modules are kept (xmas-rush, photosynthesis, zuniq, olymbits,
    /// wondev-woman); default: the one game the bot's source names.
    #[arg(long)]
    game: Option<String>,
    /// The file to write.
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// Refuse a bundle longer than this many characters (CodinGame's limit by default).
    #[arg(long, default_value_t = bundle::DEFAULT_LIMIT)]
    limit: usize,
    /// The twinsim workspace whose crates are inlined (default: the one this tool was built
    /// from; resolved when run, so `--help` shows no path of the build machine).
    #[arg(long)]
    root: Option<PathBuf>,
}

/// The workspace this binary was built from.
const BUILT_FROM: &str = env!("CARGO_MANIFEST_DIR");

/// Writes the bundle and prints its size; exit 1 (nothing written) above the limit.
pub fn run(args: &BundleArgs) -> ExitCode {
    let root = args.root.clone().unwrap_or_else(|| PathBuf::from(BUILT_FROM));
    let text = match bundle::bundle(&root, &args.bot, args.game.as_deref()) {
        Ok(text) => text,
        Err(e) => return usage_error(format!("bundle: {e}")),
    };
    let size = bundle::size(&text);
    if size > args.limit {
        eprintln!(
            "twinsim: bundle: {size} characters, over the limit of {} (nothing written)",
            args.limit
        );
        return ExitCode::FAILURE;
    }
    if let Err(e) = std::fs::write(&args.output, &text) {
        return usage_error(format!("bundle: {}: {e}", args.output.display()));
    }
    println!("{}: {size} characters (limit {})", args.output.display(), args.limit);
    ExitCode::SUCCESS
}
