//! `twinsim arena GAME --bot CMD --bot CMD ...`: bots against each other, the table of results.

use super::progress::Progress;
use super::{default_engine, known_game, usage_error, EngineChoice};
use std::path::PathBuf;
use std::process::ExitCode;
use twinsim_arena as arena;
use twinsim_reference::game::EngineKind;

/// What `arena` is asked for: its flags.
#[derive(clap::Args)]
pub struct ArenaArgs {
    /// Game.
    pub game: String,
    /// A bot: a shell command (it reads what the referee sends: `twinsim protocol GAME`),
    /// builtin:random, builtin:greedy, or a search (builtin:smitsimax, beam, mcts, alphabeta;
    /// add @reference or @fast, and optionally :iterations=N for a fixed number of iterations
    /// per answer, :ms=N for the bot's own time budget of N ms per answer, for Zuniq per game,
    /// when shorter than the limit). One per seat.
    #[arg(long = "bot", required = true)]
    pub bots: Vec<String>,
    /// Games to play, 1 to 1,000,000,000 (seats rotate: every seed is played once per
    /// rotation).
    #[arg(long, default_value_t = 100, value_parser = super::args::games_at_least_one)]
    pub games: usize,
    /// Master seed (any 64-bit integer, negative too).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: i64,
    /// League (default: the top league).
    #[arg(long)]
    pub league: Option<u32>,
    /// Games run at once, 1 to 256 (default: all cores).
    #[arg(long, value_parser = super::args::threads)]
    pub threads: Option<usize>,
    /// Multiplies the referee's time limits (e.g. 2 on a slow machine): above 0, at most
    /// 1000.
    #[arg(long, default_value_t = 1.0, value_parser = super::args::time_scale)]
    pub time_scale: f64,
    /// One bot's own time scale, BOT=X: the BOT-th --bot (from 0) gets the referee's limits
    /// times X instead of --time-scale, e.g. `--bot-time-scale 0=3` gives a slow process bot 3×
    /// while the others keep --time-scale. Repeatable, once per bot.
    #[arg(long = "bot-time-scale", value_name = "BOT=X", value_parser = super::args::bot_time_scale)]
    pub bot_time_scales: Vec<(usize, f64)>,
    /// Engine that referees (default: fast where built, else reference); `both`: the fast twin
    /// referees and the reference engine replays every turn in lockstep, and the run stops at
    /// the first divergence with its differences.
    #[arg(long, value_enum)]
    pub engine: Option<EngineChoice>,
    /// Write every game as a trace, each bot's stderr, and results.jsonl here.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Most bytes of each process bot's stderr kept per game in --out (0 to 1 GiB; default
    /// 256 KiB); a cut file ends with a marker line saying how much was dropped.
    #[arg(long, default_value_t = arena::bots::DEFAULT_STDERR_LIMIT, value_parser = super::args::stderr_limit)]
    pub stderr_limit: usize,
    /// Continue the run recorded in --out.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs the arena and prints the table (or JSON).
pub fn run(request: ArenaArgs) -> ExitCode {
    if let Err(code) = known_game(&request.game) {
        return code;
    }
    let specs: Result<Vec<arena::BotSpec>, String> =
        request.bots.iter().map(|b| b.parse()).collect();
    let specs = match specs {
        Ok(s) => s,
        Err(e) => return usage_error(e),
    };
    // `both`: the default twin referees and the other replays every turn in lockstep.
    let engine = match request.engine {
        Some(EngineChoice::Reference) => EngineKind::Reference,
        Some(EngineChoice::Fast) => EngineKind::Fast,
        Some(EngineChoice::Both) | None => default_engine(&request.game),
    };
    let lockstep = request.engine == Some(EngineChoice::Both);
    let mut bot_time_scales = vec![None; specs.len()];
    for &(bot, scale) in &request.bot_time_scales {
        match bot_time_scales.get_mut(bot) {
            Some(slot @ None) => *slot = Some(scale),
            Some(Some(_)) => return usage_error(format!("--bot-time-scale: bot {bot} twice")),
            None => {
                return usage_error(format!(
                    "--bot-time-scale {bot}=...: there are {} bots (0 to {})",
                    specs.len(),
                    specs.len() - 1
                ))
            }
        }
    }
    let interrupt = super::interrupt::watch();
    let config = arena::ArenaConfig {
        game: request.game,
        bots: specs,
        games: request.games,
        seed: request.seed,
        league: request.league,
        time_scale: request.time_scale,
        bot_time_scales,
        engine,
        threads: request.threads,
        out: request.out,
        resume: request.resume,
        stderr_limit: request.stderr_limit,
        interrupt: Some(interrupt),
        lockstep,
    };
    let json_output = request.json;
    let progress = Progress::new(!json_output);
    if json_output {
        print!("{{\"games\":[");
    }
    let first = std::sync::atomic::AtomicBool::new(true);
    let on_game = |result: &arena::GameResult, standings: &arena::Standings| {
        if json_output {
            // Streamed: one game per line as it is counted, so memory stays flat.
            let comma =
                if first.swap(false, std::sync::atomic::Ordering::SeqCst) { "" } else { "," };
            println!("{comma}{}", result.to_line());
        }
        let done = standings.games();
        progress.report(done, config.games, done == config.games, || {
            arena::progress::win_rates(standings)
        });
    };
    let end = match arena::run(&config, &on_game) {
        Ok(end) => end,
        Err(e) => {
            if json_output {
                println!("]}}");
            }
            return usage_error(format!("arena: {e}"));
        }
    };
    let standings = &end.standings;
    if json_output {
        let bots = serde_json::to_string(&standings.summaries(&config.bots))
            .expect("the totals serialize");
        println!("],\"bots\":{bots},\"interrupted\":{}}}", end.interrupted);
    }
    let table = arena::report(&config, standings);
    if !json_output {
        print!("{table}");
    }
    if let Some(dir) = &config.out {
        match crate::view::write_arena_index(dir, Some(&table)) {
            Ok(index) => eprintln!("replays: {}", index.display()),
            Err(e) => return usage_error(format!("arena: writing the replay index: {e}")),
        }
    }
    if let Some(message) = broken_bots(&config, standings) {
        eprintln!("twinsim: {message}");
        return ExitCode::FAILURE;
    }
    if end.interrupted {
        eprintln!(
            "twinsim: interrupted after {} of {} games.{}",
            standings.games(),
            config.games,
            resume_hint(&config)
        );
        return ExitCode::from(130);
    }
    ExitCode::SUCCESS
}

/// The bots that crashed or could not start in every game they played (a command that names a
/// missing file, a script that dies on its first line), said plainly with their first problem:
/// such a run measured nothing about them, so it fails rather than report a clean 0%.
fn broken_bots(config: &arena::ArenaConfig, standings: &arena::Standings) -> Option<String> {
    let broken: Vec<String> = standings
        .totals()
        .iter()
        .enumerate()
        .filter_map(|(b, t)| {
            let played = t.wins + t.draws + t.losses;
            let failed = t.crashes + t.not_started;
            if played == 0 || failed < played {
                return None;
            }
            let first =
                t.first_problems.values().next().map_or(String::new(), |p| format!(": {p}"));
            Some(format!(
                "bot{b} `{}` crashed or did not start in every game ({failed} of {played}){first}",
                config.bots[b]
            ))
        })
        .collect();
    (!broken.is_empty()).then(|| {
        format!(
            "{}\n(check the bot's command: it must run as typed from this directory)",
            broken.join("\n")
        )
    })
}

/// How to continue an interrupted run.
fn resume_hint(config: &arena::ArenaConfig) -> String {
    match &config.out {
        Some(dir) => {
            format!(" Continue it with the same command and `--out {} --resume`.", dir.display())
        }
        None => " Runs with `--out DIR` can be continued with `--resume`.".into(),
    }
}
