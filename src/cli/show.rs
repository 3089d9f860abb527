//! `twinsim show GAME`: a position drawn in the terminal, or the exact text a seat reads.

use super::{known_game, seed_allowed, usage_error, EngineChoice};
use serde_json::Value;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use twinsim_arena::registry;
use twinsim_reference::game::{EngineKind, TracePlay, TurnStructure};
use twinsim_reference::trace;

/// What `show` is asked for: its flags.
#[derive(clap::Args)]
pub struct ShowArgs {
    /// Game: xmas-rush, photosynthesis, zuniq, olymbits, wondev-woman.
    pub game: String,
    /// Game seed (default 1; with a trace file, the trace's own seed is used).
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<i64>,
    /// League (default: the top league; with a trace file, the trace's params are used).
    #[arg(long)]
    pub league: Option<u32>,
    /// Show the position after this many turns of `--actions` (0: after setup).
    #[arg(long)]
    pub turn: Option<usize>,
    /// The turns to play: a trace file (`.jsonl`: seed, league and params come from the
    /// record) or a text file with one turn per line, players' lines separated by ` | ` in
    /// simultaneous games.
    #[arg(long)]
    pub actions: Option<PathBuf>,
    /// Which game of a trace file, counted from 0 as in `view --game` (default 0).
    #[arg(long = "game", value_name = "K")]
    pub game_number: Option<usize>,
    /// Print the exact text seat P reads at that turn (init input included at turn 0)
    /// instead of the drawing.
    #[arg(long, value_name = "P")]
    pub view: Option<usize>,
    /// Which engine draws it (reference or fast).
    #[arg(long, value_enum, default_value = "reference")]
    pub engine: EngineChoice,
}

/// Seed, params and turns to play, from the flags or from a trace record.
struct Script {
    seed: i64,
    params: Value,
    turns: Vec<TurnText>,
}

/// Runs `show`.
pub fn run(request: &ShowArgs) -> ExitCode {
    match show(request) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => usage_error(message),
    }
}

/// The text `show` prints, or the error.
fn show(request: &ShowArgs) -> Result<String, String> {
    let game = request.game.as_str();
    known_game(game)
        .map_err(|_| format!("unknown game {game:?} (known: {})", registry::GAMES.join(", ")))?;
    let kind = match request.engine {
        EngineChoice::Reference => EngineKind::Reference,
        EngineChoice::Fast => EngineKind::Fast,
        EngineChoice::Both => {
            return Err("show draws with one engine: --engine reference or --engine fast".into())
        }
    };
    let engine =
        registry::engine(game, kind).ok_or_else(|| format!("{game} has no {kind} engine yet"))?;
    let alternating = engine.turns() == TurnStructure::Alternating;
    let script = script(request)?;
    let mut play = engine
        .setup(Some(script.seed), &script.params)
        .map_err(|e| format!("setup of {game} seed {} failed: {e}", script.seed))?;
    let upto = match request.turn {
        Some(t) if t > script.turns.len() => {
            return Err(format!("--turn {t}: the actions hold only {} turns", script.turns.len()))
        }
        Some(t) => t,
        None => script.turns.len(),
    };
    for (i, actions) in script.turns.iter().take(upto).enumerate() {
        if play.is_over() {
            return Err(format!("turn {}: the game was already over after turn {i}", i + 1));
        }
        let actions = actions.actions(play.num_players(), alternating);
        play.play_turn(&actions).map_err(|e| format!("turn {}: {e}", i + 1))?;
    }
    match request.view {
        None => Ok(format!("{}\n", play.render(std::io::stdout().is_terminal()))),
        Some(seat) => seat_input(play.as_ref(), game, seat, upto),
    }
}

/// The text seat `seat` reads before its next answer, after `turns` turns: at turn 0 its init
/// input and first view, later that turn's view.
fn seat_input(
    play: &dyn TracePlay,
    game: &str,
    seat: usize,
    turns: usize,
) -> Result<String, String> {
    let players = play.num_players();
    if seat >= players {
        return Err(format!(
            "--view {seat}: the game has seats 0 to {} ({players} players)",
            players - 1
        ));
    }
    let mut text = String::new();
    let view = if turns == 0 {
        let mut setup = play.initial_record();
        trace::normalize_setup(game, &mut setup);
        if let Some(init) = setup.init_input_of(seat).filter(|t| !t.is_empty()) {
            text.push_str(init);
            text.push('\n');
        }
        setup.initial_view(seat).to_string()
    } else {
        play.turn_record().views.get(seat).cloned().flatten().unwrap_or_default()
    };
    if view.is_empty() {
        return if play.is_over() {
            Err(format!("the game is over after turn {turns}: seat {seat} reads nothing more"))
        } else {
            Err(format!("seat {seat} is not asked to act after turn {turns}: it reads nothing"))
        };
    }
    text.push_str(&view);
    text.push('\n');
    Ok(text)
}

/// The game to set up and the turns to play.
fn script(request: &ShowArgs) -> Result<Script, String> {
    let game = request.game.as_str();
    if request.league.is_some() && !twinsim_arena::has_leagues(game) {
        return Err(format!("{game} has no leagues: leave out --league"));
    }
    // As `perft` does: a seed for Zuniq (no randomness) is a mistake, not a setting to ignore.
    seed_allowed(game, request.seed)?;
    let Some(path) = request.actions.as_deref() else {
        if request.turn.is_some_and(|t| t > 0) {
            return Err("--turn needs --actions FILE (the turns to play)".into());
        }
        if request.game_number.is_some() {
            return Err("--game picks a game of a trace file given with --actions".into());
        }
        return Ok(Script {
            seed: request.seed.unwrap_or(1),
            params: registry::league_params(game, request.league),
            turns: Vec::new(),
        });
    };
    let bytes = twinsim::input::read_bytes(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    if path.extension().is_some_and(|e| e == "jsonl") {
        if request.seed.is_some() || request.league.is_some() {
            return Err(format!(
                "--seed and --league come from the trace record of {}; leave them out",
                path.display()
            ));
        }
        // Only the line of the game asked for is parsed: a corrupt line elsewhere in the file
        // (a run cut short) does not cost it.
        let number = request.game_number.unwrap_or(0);
        let lines: Vec<(usize, &str)> =
            text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()).collect();
        let &(index, line) = lines.get(number).ok_or_else(|| {
            format!(
                "--game {number}: {} holds games 0 to {} (counted from 0, as in `view --game`)",
                path.display(),
                lines.len().saturating_sub(1)
            )
        })?;
        let record = trace::parse_jsonl(line)
            .map_err(|e| format!("{}: line {}: {}", path.display(), index + 1, e.message))?
            .pop()
            .ok_or_else(|| format!("{}: line {} holds no game", path.display(), index + 1))?;
        if record.game != game {
            return Err(format!(
                "game {number} of {} is {}, not {game}",
                path.display(),
                record.game
            ));
        }
        return Ok(Script {
            seed: record.seed.unwrap_or(1),
            params: record.params,
            turns: record.turns.into_iter().map(|t| TurnText::Actions(t.actions)).collect(),
        });
    }
    if request.game_number.is_some() {
        return Err("--game picks a game of a trace file (.jsonl)".into());
    }
    let turns = text.lines().map(|line| TurnText::Line(line.to_string())).collect();
    Ok(Script {
        seed: request.seed.unwrap_or(1),
        params: registry::league_params(game, request.league),
        turns,
    })
}

/// One turn to play: a trace record's actions, or a line of a text actions file.
enum TurnText {
    /// The trace's `actions` array, as given.
    Actions(Vec<Option<String>>),
    /// The mover's line (alternating games) or the players' lines separated by ` | `.
    Line(String),
}

impl TurnText {
    /// The actions array of the turn in a game of `players` seats.
    fn actions(&self, players: usize, alternating: bool) -> Vec<Option<String>> {
        match self {
            TurnText::Actions(actions) => actions.clone(),
            TurnText::Line(line) if alternating => vec![Some(line.clone())],
            TurnText::Line(line) => {
                let mut parts: Vec<Option<String>> =
                    line.split(" | ").map(|p| Some(p.to_string())).collect();
                parts.resize(players, None);
                parts
            }
        }
    }
}
