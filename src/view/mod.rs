//! `twinsim view`: a referee trace (or an arena's `traces.jsonl`) as one self-contained HTML page
//! that replays the game turn by turn in a browser, and `DIR/index.html` for `arena --out DIR`.
//!
//! The page is the embedded template (`viewer.html`, `viewer.css`, `viewer.js`) with the games'
//! records inlined as JSON: no network, no build step. The drawing is done in the browser from the
//! trace records (states, views, actions, events), so the Rust side only checks the records'
//! shape and escapes them.

use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};
use twinsim_arena::GameResult;
use twinsim_reference::registry::GameId;

const TEMPLATE: &str = include_str!("viewer.html");
const STYLE: &str = include_str!("viewer.css");
const SCRIPT: &str = include_str!("viewer.js");

/// The games the page knows how to draw (the trace format's `game` values).
pub const GAMES: [&str; GameId::ALL.len()] = twinsim_reference::registry::NAMES;

/// Why a page could not be written.
#[derive(Debug)]
pub enum ViewError {
    /// A file could not be read.
    Read { path: PathBuf, error: std::io::Error },
    /// A file could not be written.
    Write { path: PathBuf, error: std::io::Error },
    /// A line is not JSON.
    Json { path: PathBuf, line: usize, error: serde_json::Error },
    /// A line is JSON but not a game record the page can draw.
    NotAGame { path: PathBuf, line: usize, why: String },
    /// The file holds no game.
    NoGames { path: PathBuf },
    /// `--game K` with K not below the number of games in the file.
    GameOutOfRange { path: PathBuf, index: usize, count: usize },
}

impl fmt::Display for ViewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewError::Read { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            ViewError::Write { path, error } => {
                write!(f, "cannot write {}: {error}", path.display())
            }
            ViewError::Json { path, line, error } => {
                write!(f, "{}:{line}: not JSON: {error}", path.display())
            }
            ViewError::NotAGame { path, line, why } => {
                write!(f, "{}:{line}: not a game record: {why}", path.display())
            }
            ViewError::NoGames { path } => write!(f, "{}: no game in the file", path.display()),
            ViewError::GameOutOfRange { path, index, count } => write!(
                f,
                "{}: --game {index} asked, but the file holds {count} game(s) (0 to {})",
                path.display(),
                count.saturating_sub(1)
            ),
        }
    }
}

impl std::error::Error for ViewError {}

/// Why `record` cannot be drawn, or `None` when it has what the page reads: a known `game`, an
/// `initial` state object, and `turns` whose entries each hold a `state` object.
fn shape_problem(record: &Value) -> Option<String> {
    let Some(object) = record.as_object() else {
        return Some("not a JSON object".into());
    };
    let game = match object.get("game").and_then(Value::as_str) {
        Some(game) => game,
        None => return Some("no \"game\" string".into()),
    };
    if !GAMES.contains(&game) {
        return Some(format!("unknown game {game:?} (known: {})", GAMES.join(", ")));
    }
    if !object.get("initial").is_some_and(Value::is_object) {
        return Some("no \"initial\" state object".into());
    }
    let Some(turns) = object.get("turns").and_then(Value::as_array) else {
        return Some("no \"turns\" array".into());
    };
    if let Some(k) = turns.iter().position(|t| !t.get("state").is_some_and(Value::is_object)) {
        return Some(format!("turns[{k}] has no \"state\" object"));
    }
    let states = std::iter::once(("initial".to_string(), &object["initial"]))
        .chain(turns.iter().enumerate().map(|(k, t)| (format!("turns[{k}].state"), &t["state"])));
    for (place, state) in states {
        if let Some(key) = state_keys(game).iter().find(|k| state.get(**k).is_none()) {
            return Some(format!("{place} has no {key:?} (the {game} state schema)"));
        }
    }
    None
}

/// The state fields the page draws from, per game (the rules' state schemas, in each game's
/// [`GameInfo::state_keys`](twinsim_reference::registry::GameInfo::state_keys)).
fn state_keys(game: &str) -> &'static [&'static str] {
    game.parse::<GameId>().map_or(&[], |game| game.info().state_keys)
}

/// Every game record of a JSON Lines file (blank lines ignored), each checked for the shape the
/// page reads.
pub fn read_games(path: &Path) -> Result<Vec<Value>, ViewError> {
    let text = read_text(path)?;
    let games = game_lines(&text)
        .map(|(line, text)| parse_game(path, line, text))
        .collect::<Result<Vec<_>, _>>()?;
    if games.is_empty() {
        return Err(ViewError::NoGames { path: path.to_path_buf() });
    }
    Ok(games)
}

/// Game `index` (0-based, counting the non-blank lines) of a JSON Lines file, checked like
/// [`read_games`]; the other lines are not read, so a corrupt line elsewhere in the file (a run
/// cut short, a hand edit) does not cost the game asked for.
pub fn read_game(path: &Path, index: usize) -> Result<Value, ViewError> {
    let text = read_text(path)?;
    let mut count = 0;
    for (line, record) in game_lines(&text) {
        if count == index {
            return parse_game(path, line, record);
        }
        count += 1;
    }
    if count == 0 {
        return Err(ViewError::NoGames { path: path.to_path_buf() });
    }
    Err(ViewError::GameOutOfRange { path: path.to_path_buf(), index, count })
}

fn read_text(path: &Path) -> Result<String, ViewError> {
    let mut text = twinsim::input::read_text(path)
        .map_err(|error| ViewError::Read { path: path.to_path_buf(), error })?;
    drop_cut_last_line(path, &mut text);
    Ok(text)
}

/// Removes from a JSON Lines text a last line that a crash cut short, saying so on stderr.
///
/// `arena --out` writes each record as one whole line, newline included, in one write
/// (`arena/src/out_dir.rs`), so after `kill -9` or a full disk the only damage a file can show
/// is a last line with no newline whose JSON ends early; `--resume` removes it. Until then the
/// directory is still viewable: that fragment is no game, so it is left out with a note. A last
/// line without a newline that is whole JSON (a hand-written trace) is kept, and any other bad
/// line is still an error naming its line. Returns whether a line was removed.
fn drop_cut_last_line(path: &Path, text: &mut String) -> bool {
    if text.ends_with('\n') {
        return false;
    }
    let start = text.rfind('\n').map_or(0, |i| i + 1);
    let last = &text[start..];
    if last.trim().is_empty() {
        return false;
    }
    match serde_json::from_str::<Value>(last) {
        Err(error) if error.is_eof() => {
            let line = text[..start].matches('\n').count() + 1;
            eprintln!(
                "note: {}:{line}: left out a last line cut short ({} bytes, no newline: a run \
                 killed or out of space while writing it; `twinsim arena --resume` removes it)",
                path.display(),
                last.len()
            );
            text.truncate(start);
            true
        }
        _ => false,
    }
}

/// The non-blank lines of a JSON Lines text, with their 1-based line numbers.
fn game_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()).map(|(i, l)| (i + 1, l))
}

/// One line of a trace file as a game record the page can draw.
fn parse_game(path: &Path, line: usize, text: &str) -> Result<Value, ViewError> {
    let record: Value = serde_json::from_str(text).map_err(|error| ViewError::Json {
        path: path.to_path_buf(),
        line,
        error,
    })?;
    if let Some(why) = shape_problem(&record) {
        return Err(ViewError::NotAGame { path: path.to_path_buf(), line, why });
    }
    Ok(record)
}

/// Text made safe for HTML element content and attribute values.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON text that can sit inside a `<script>` element: `<`, `>` and `&` only occur inside JSON
/// strings, where their `\u` escapes mean the same, so `</script>` or `<!--` in a bot's output
/// cannot end the element early.
fn json_for_script(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

/// Integers a JavaScript number cannot hold exactly (beyond ±2^53, e.g. 64-bit seeds) become
/// strings of their digits, so the page shows them as they are in the file.
fn exact_in_javascript(value: &mut Value) {
    const SAFE: u64 = 1 << 53;
    match value {
        Value::Number(n) => {
            let unsafe_integer = match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => i.unsigned_abs() > SAFE,
                (None, Some(u)) => u > SAFE,
                (None, None) => false,
            };
            if unsafe_integer {
                *value = Value::String(n.to_string());
            }
        }
        Value::Array(items) => items.iter_mut().for_each(exact_in_javascript),
        Value::Object(map) => map.values_mut().for_each(exact_in_javascript),
        _ => {}
    }
}

/// A fresh random nonce for the page's own scripts (128 bits from the standard library's
/// randomly seeded hasher, in hex): a trace cannot guess it, so no script it smuggles in runs.
fn script_nonce() -> String {
    use std::hash::{BuildHasher, Hasher};
    let half = || std::collections::hash_map::RandomState::new().build_hasher().finish();
    format!("{:016x}{:016x}", half(), half())
}

/// The replay page's Content-Security-Policy: nothing from the network, inline style, and
/// only the page's own two scripts (by `nonce`): an inline event handler or a `<script>` from
/// trace text that escaped the escaping still does not run.
fn viewer_policy(nonce: &str) -> String {
    format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; \
         img-src data:; base-uri 'none'; form-action 'none'"
    )
}

/// The arena index's Content-Security-Policy: nothing from the network, inline script and
/// style only.
const INDEX_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; \
    style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/// The self-contained replay page for `games` (a game picker when there are several).
pub fn page(games: &[Value], title: &str) -> String {
    let mut games = Value::Array(games.to_vec());
    exact_in_javascript(&mut games);
    let data = json_for_script(&games);
    // The data goes in last, so nothing inside it is ever taken for a placeholder.
    let (head, tail) = TEMPLATE.split_once("{{DATA}}").unwrap_or((TEMPLATE, ""));
    let nonce = script_nonce();
    let fill = |part: &str| {
        part.replace("{{CSP}}", &viewer_policy(&nonce))
            .replace("{{NONCE}}", &nonce)
            .replace("{{TITLE}}", &escape_html(title))
            .replace("{{STYLE}}", STYLE)
            .replace("{{SCRIPT}}", SCRIPT)
    };
    let mut out = fill(head);
    out.push_str(&data);
    out.push_str(&fill(tail));
    out
}

/// `twinsim view`: writes the page for game `game` of `file` (every game, with a picker, when
/// `None`) to `out`, and returns the number of games on the page.
pub fn write_view(file: &Path, game: Option<usize>, out: &Path) -> Result<usize, ViewError> {
    let games = match game {
        Some(index) => vec![read_game(file, index)?],
        None => read_games(file)?,
    };
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let title = match game {
        Some(index) => format!("{name} game {index}"),
        None => name,
    };
    std::fs::write(out, page(&games, &title))
        .map_err(|error| ViewError::Write { path: out.to_path_buf(), error })?;
    Ok(games.len())
}

/// Reads a JSON Lines file of an arena directory; a missing file is an empty list.
fn read_jsonl(path: &Path) -> Result<Vec<Value>, ViewError> {
    let mut text = match twinsim::input::read_text(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(ViewError::Read { path: path.to_path_buf(), error }),
    };
    drop_cut_last_line(path, &mut text);
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|error| ViewError::Json {
                path: path.to_path_buf(),
                line: i + 1,
                error,
            })
        })
        .collect()
}

/// What pairs an arena result with its trace: games are appended by parallel workers, so the two
/// files need not list them in the same order. Seed, the bot of every seat and the number of
/// turns identify a game; games equal in all three are interchangeable for the index.
fn game_key(seed: &Value, bots: &[String], turns: u64) -> String {
    format!("{seed}|{}|{turns}", bots.join("\u{1f}"))
}

/// `arena --out DIR`: writes `DIR/replays/game-<index>.html` for every finished game and
/// `DIR/index.html`, the results table with each game linked to its replay. Returns the index's
/// path.
pub fn write_arena_index(dir: &Path, standings: Option<&str>) -> Result<PathBuf, ViewError> {
    let identity_path = dir.join("arena.json");
    let identity: Value = match twinsim::input::read_text(&identity_path) {
        Ok(text) => serde_json::from_str(&text).map_err(|error| ViewError::Json {
            path: identity_path.clone(),
            line: 1,
            error,
        })?,
        Err(error) => return Err(ViewError::Read { path: identity_path, error }),
    };
    let bots: Vec<String> = identity
        .get("bots")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|b| b.as_str().unwrap_or("?").to_string()).collect())
        .unwrap_or_default();
    let game = identity.get("game").and_then(Value::as_str).unwrap_or("?").to_string();
    let results_path = dir.join("results.jsonl");
    let mut results = Vec::new();
    for (i, v) in read_jsonl(&results_path)?.iter().enumerate() {
        let result = GameResult::from_json(v).ok_or_else(|| ViewError::NotAGame {
            path: results_path.clone(),
            line: i + 1,
            why: "not an arena result (index, seed, seats, scores, ranks, turns)".into(),
        })?;
        results.push(result);
    }
    results.sort_by_key(|r| r.index);
    let traces_path = dir.join("traces.jsonl");
    let mut traces: Vec<Option<Value>> = read_jsonl(&traces_path)?.into_iter().map(Some).collect();
    let trace_keys: Vec<String> = traces
        .iter()
        .map(|t| {
            let t = t.as_ref().unwrap_or(&Value::Null);
            let seat_bots: Vec<String> = t
                .pointer("/params/bots")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(|b| b.as_str().unwrap_or("").to_string()).collect())
                .unwrap_or_default();
            let turns = t.get("turns").and_then(Value::as_array).map_or(0, |a| a.len() as u64);
            game_key(t.get("seed").unwrap_or(&Value::Null), &seat_bots, turns)
        })
        .collect();
    let replays = dir.join("replays");
    std::fs::create_dir_all(&replays)
        .map_err(|error| ViewError::Write { path: replays.clone(), error })?;
    let seat_name = |b: usize| bots.get(b).cloned().unwrap_or_else(|| format!("bot {b}"));
    let mut rows = String::new();
    for result in &results {
        let seat_bots: Vec<String> = result.seats.iter().map(|&b| seat_name(b)).collect();
        let key = game_key(&Value::from(result.seed), &seat_bots, result.turns as u64);
        let trace =
            trace_keys.iter().zip(traces.iter_mut()).find(|(k, t)| **k == key && t.is_some());
        let link = match trace.and_then(|(_, t)| t.take()) {
            Some(record) if shape_problem(&record).is_none() => {
                let name = format!("game-{}.html", result.index);
                let title = format!("{game} arena game {}", result.index);
                let path = replays.join(&name);
                std::fs::write(&path, page(&[record], &title))
                    .map_err(|error| ViewError::Write { path, error })?;
                format!("<a href=\"replays/{name}\">replay</a>")
            }
            Some(_) => "trace unreadable".to_string(),
            None => "no trace".to_string(),
        };
        rows.push_str(&index_row(result, &seat_bots, &link));
    }
    let summary = bot_summary(&results, &bots);
    // The CLI's own table (win rate with its interval, Elo, skill), when the run gives it.
    let standings = standings.map_or(String::new(), |table| {
        format!("<h2>standings</h2><pre id=\"standings\">{}</pre>", escape_html(table))
    });
    let chart = win_rate_chart(&results, &bots);
    // Zuniq has no randomness: its arena seed only seeds the bots.
    let seeded = game.parse::<GameId>().map_or(true, |game| game.info().seeded);
    let seed_name = if seeded { "seed" } else { "bot seed" };
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{INDEX_POLICY}\">\
         <title>{title}</title><style>{INDEX_STYLE}</style></head><body>\
         <h1>{title}</h1><p>{count} games; engine {engine}; {seed_name} {seed}.</p>{standings}\
         {summary}{chart}\
         <table id=\"games\"><thead><tr><th>game</th><th>{seed_name}</th><th>seats (bot, score, \
         result)</th><th>turns</th><th>end</th><th>replay</th></tr></thead><tbody>{rows}</tbody>\
         </table></body></html>\n",
        title = escape_html(&format!("arena: {game}")),
        count = results.len(),
        engine = escape_html(identity.get("engine").and_then(Value::as_str).unwrap_or("?")),
        seed = escape_html(&identity.get("seed").map(|s| s.to_string()).unwrap_or_default()),
    );
    let index = dir.join("index.html");
    std::fs::write(&index, html)
        .map_err(|error| ViewError::Write { path: index.clone(), error })?;
    Ok(index)
}

const INDEX_STYLE: &str = "body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse;margin-top:1em}td,th{border:1px solid #ccc;padding:3px 8px;\
text-align:left;vertical-align:top}.win{color:#15803d;font-weight:600}.loss{color:#b91c1c}\
.draw{color:#a16207}.mark{background:#fee2e2;color:#991b1b;border-radius:3px;padding:0 4px;\
margin-left:4px;font-size:12px}ol{margin:0;padding-left:1.4em}";

/// Win, draw or loss of each seat from its rank (1 = first; shared first place = draw).
fn seat_results(ranks: &[usize]) -> Vec<&'static str> {
    let firsts = ranks.iter().filter(|&&r| r == 1).count();
    ranks
        .iter()
        .map(|&r| match (r == 1, firsts) {
            (true, 1) => "win",
            (true, _) => "draw",
            _ => "loss",
        })
        .collect()
}

/// One table row: every seat with its bot, score, result and crash/timeout marks.
fn index_row(result: &GameResult, seat_bots: &[String], link: &str) -> String {
    let outcomes = seat_results(&result.ranks);
    let mut seats = String::from("<ol start=\"0\">");
    for (seat, bot) in seat_bots.iter().enumerate() {
        let outcome = outcomes.get(seat).copied().unwrap_or("loss");
        // Written as JSON writes it (`3.0`), as the results file has it.
        let score =
            result.scores.get(seat).map(|s| Value::from(*s).to_string()).unwrap_or_default();
        let mut marks = String::new();
        if result.crashed.get(seat).copied().unwrap_or(false) {
            marks.push_str("<span class=\"mark crash\">crashed</span>");
        }
        let timeouts = result.timeouts.get(seat).copied().unwrap_or(0);
        if timeouts > 0 {
            marks.push_str(&format!("<span class=\"mark timeout\">{timeouts} timeout(s)</span>"));
        }
        seats.push_str(&format!(
            "<li data-seat=\"{seat}\" data-result=\"{outcome}\"><span class=\"{outcome}\">{outcome}\
             </span> {bot} — {score}{marks}</li>",
            bot = escape_html(bot),
            score = escape_html(&score),
        ));
    }
    seats.push_str("</ol>");
    format!(
        "<tr data-index=\"{index}\"><td>{index}</td><td>{seed}</td><td>{seats}</td><td>{turns}</td>\
         <td>{reason}</td><td>{link}</td></tr>",
        index = result.index,
        seed = escape_html(&result.seed.to_string()),
        turns = result.turns,
        reason = escape_html(&result.reason),
    )
}

/// Each bot's running win rate (a draw counts half) after each of its games, in game order,
/// as an inline SVG chart: one line per bot, 0 to 100% up the side.
fn win_rate_chart(results: &[GameResult], bots: &[String]) -> String {
    const COLORS: [&str; 3] = ["#e8543f", "#2f7de1", "#1f9d55"];
    let (width, height, left, top) = (640.0, 220.0, 40.0, 10.0);
    let (plot_w, plot_h) = (width - left - 10.0, height - top - 30.0);
    let games = results.len().max(1) as f64;
    let mut lines = String::new();
    for (b, bot) in bots.iter().enumerate() {
        let (mut points, mut played, mut path) = (0.0, 0usize, Vec::new());
        for (g, result) in results.iter().enumerate() {
            let outcomes = seat_results(&result.ranks);
            for (seat, _) in result.seats.iter().enumerate().filter(|(_, &s)| s == b) {
                played += 1;
                points += match outcomes.get(seat).copied() {
                    Some("win") => 1.0,
                    Some("draw") => 0.5,
                    _ => 0.0,
                };
                let rate = points / played as f64;
                let x = left + plot_w * (g + 1) as f64 / games;
                path.push(format!("{x:.1},{:.1}", top + plot_h * (1.0 - rate)));
            }
        }
        let rate = if played == 0 { 0.0 } else { points / played as f64 };
        lines.push_str(&format!(
            "<polyline data-bot=\"{b}\" data-final=\"{rate:.4}\" fill=\"none\" stroke=\"{color}\" \
             stroke-width=\"2\" points=\"{points}\"><title>{name}</title></polyline>\
             <text x=\"{x}\" y=\"{y}\" fill=\"{color}\" font-size=\"12\">bot{b} {pct:.1}%</text>",
            color = COLORS[b % COLORS.len()],
            points = path.join(" "),
            name = escape_html(bot),
            x = left + 8.0 + 90.0 * b as f64,
            y = height - 6.0,
            pct = 100.0 * rate,
        ));
    }
    format!(
        "<h2>win rate over the games</h2><svg id=\"win-rate-chart\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {width} {height}\" role=\"img\">\
         <rect x=\"{left}\" y=\"{top}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"#fafafa\" \
         stroke=\"#ccc\"/><line x1=\"{left}\" x2=\"{right}\" y1=\"{mid}\" y2=\"{mid}\" \
         stroke=\"#ddd\"/><text x=\"4\" y=\"{top_label}\" font-size=\"11\">100%</text>\
         <text x=\"4\" y=\"{mid_label}\" font-size=\"11\">50%</text><text x=\"4\" \
         y=\"{bottom_label}\" font-size=\"11\">0%</text>{lines}</svg>",
        right = left + plot_w,
        mid = top + plot_h / 2.0,
        top_label = top + 10.0,
        mid_label = top + plot_h / 2.0 + 4.0,
        bottom_label = top + plot_h,
    )
}

/// Wins, draws, losses, crashes and timeouts of each bot over the run.
fn bot_summary(results: &[GameResult], bots: &[String]) -> String {
    let mut rows = String::new();
    for (b, bot) in bots.iter().enumerate() {
        let (mut wins, mut draws, mut losses, mut crashes, mut timeouts) = (0, 0, 0, 0, 0);
        for result in results {
            let outcomes = seat_results(&result.ranks);
            for (seat, _) in result.seats.iter().enumerate().filter(|(_, &s)| s == b) {
                match outcomes.get(seat).copied() {
                    Some("win") => wins += 1,
                    Some("draw") => draws += 1,
                    _ => losses += 1,
                }
                crashes += usize::from(result.crashed.get(seat).copied().unwrap_or(false));
                timeouts += result.timeouts.get(seat).copied().unwrap_or(0);
            }
        }
        rows.push_str(&format!(
            "<tr data-bot=\"{b}\"><td>{b}</td><td>{}</td><td>{wins}</td><td>{draws}</td>\
             <td>{losses}</td><td>{crashes}</td><td>{timeouts}</td></tr>",
            escape_html(bot)
        ));
    }
    format!(
        "<table id=\"bots\"><thead><tr><th>bot</th><th>command</th><th>wins</th><th>draws</th>\
         <th>losses</th><th>crashes</th><th>timeouts</th></tr></thead><tbody>{rows}</tbody></table>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A record with the state fields the page reads (values irrelevant to the shape check).
    fn minimal(game: &str) -> Value {
        let state: serde_json::Map<String, Value> =
            state_keys(game).iter().map(|k| (k.to_string(), json!(0))).collect();
        json!({"game": game, "initial": state, "turns": [{"state": state}]})
    }

    #[test]
    fn shape_accepts_a_minimal_record_of_each_game() {
        for game in GAMES {
            assert_eq!(shape_problem(&minimal(game)), None, "{game}");
        }
    }

    #[test]
    fn shape_names_what_is_missing() {
        let cases = [
            (json!([1]), "not a JSON object"),
            (json!({"initial": {}, "turns": []}), "no \"game\" string"),
            (json!({"game": "chess", "initial": {}, "turns": []}), "unknown game \"chess\""),
            (json!({"game": "zuniq", "turns": []}), "no \"initial\" state object"),
            (json!({"game": "zuniq", "initial": {}}), "no \"turns\" array"),
            (json!({"game": "zuniq", "initial": {}, "turns": [{"state": {}}, {}]}), "turns[1]"),
            (json!({"game": "zuniq", "initial": {}, "turns": []}), "initial has no \"ply\""),
        ];
        for (record, expected) in cases {
            let why = shape_problem(&record).expect("a problem");
            assert!(why.contains(expected), "{why:?} should mention {expected:?}");
        }
    }

    #[test]
    fn script_data_cannot_close_its_element() {
        let record = json!({"game": "zuniq", "note": "</script><!-- & >"});
        let text = json_for_script(&record);
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), record);
    }

    #[test]
    fn page_inlines_style_script_and_data_without_placeholders() {
        let html = page(&[minimal("zuniq")], "a <title>");
        for placeholder in ["{{DATA}}", "{{STYLE}}", "{{SCRIPT}}", "{{TITLE}}"] {
            assert!(!html.contains(placeholder), "{placeholder} left in the page");
        }
        assert!(html.contains("a &lt;title&gt;"));
        assert!(html.contains(r#"[{"game":"zuniq""#));
        assert!(!html.contains("http://") && !html.contains("https://"), "no network reference");
    }

    #[test]
    fn integers_beyond_javascript_precision_become_strings() {
        let mut record = json!({"seed": -4964420948893066024i64, "day": 3, "big": [18446744073709551615u64],
            "edge": 9007199254740992u64, "over": 9007199254740993u64, "x": 0.5});
        exact_in_javascript(&mut record);
        assert_eq!(
            record,
            json!({"seed": "-4964420948893066024", "day": 3, "big": ["18446744073709551615"],
                "edge": 9007199254740992u64, "over": "9007199254740993", "x": 0.5})
        );
    }

    #[test]
    fn seat_results_from_ranks() {
        assert_eq!(seat_results(&[1, 2]), ["win", "loss"]);
        assert_eq!(seat_results(&[1, 1]), ["draw", "draw"]);
        assert_eq!(seat_results(&[3, 1, 2]), ["loss", "win", "loss"]);
    }

    #[test]
    fn read_games_reports_the_line_of_a_bad_record() {
        let dir = std::env::temp_dir().join(format!("twinsim-view-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.jsonl");
        std::fs::write(&path, format!("{}\n\n{{\"game\":\"zuniq\"}}\n", minimal("zuniq"))).unwrap();
        match read_games(&path) {
            Err(ViewError::NotAGame { line, .. }) => assert_eq!(line, 3),
            other => panic!("expected NotAGame on line 3, got {other:?}"),
        }
        std::fs::write(&path, "{not json\n").unwrap();
        assert!(matches!(read_games(&path), Err(ViewError::Json { line: 1, .. })));
        std::fs::write(&path, "\n\n").unwrap();
        assert!(matches!(read_games(&path), Err(ViewError::NoGames { .. })));
        let out = dir.join("out.html");
        std::fs::write(&path, format!("{}\n", minimal("olymbits"))).unwrap();
        assert!(matches!(
            write_view(&path, Some(1), &out),
            Err(ViewError::GameOutOfRange { index: 1, count: 1, .. })
        ));
        assert_eq!(write_view(&path, Some(0), &out).unwrap(), 1);
        // A corrupt line elsewhere costs only the page of every game, not the game asked for.
        let good = minimal("zuniq");
        std::fs::write(&path, format!("{good}\n{{cut short\n\n{good}\n")).unwrap();
        assert!(matches!(read_games(&path), Err(ViewError::Json { line: 2, .. })));
        assert_eq!(write_view(&path, Some(0), &out).unwrap(), 1);
        assert_eq!(write_view(&path, Some(2), &out).unwrap(), 1);
        assert!(matches!(write_view(&path, Some(1), &out), Err(ViewError::Json { line: 2, .. })));
        assert!(matches!(
            write_view(&path, Some(3), &out),
            Err(ViewError::GameOutOfRange { index: 3, count: 3, .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_last_line_cut_by_a_crash_is_left_out_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("twinsim-view-cut-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("traces.jsonl");
        let good = minimal("zuniq").to_string();
        let cut = &good[..good.len() / 2];
        // traces.jsonl as `kill -9` leaves it: whole lines, then a fragment with no newline.
        std::fs::write(&path, format!("{good}\n{good}\n{cut}")).unwrap();
        assert_eq!(read_games(&path).unwrap().len(), 2);
        assert!(read_game(&path, 1).is_ok());
        assert!(matches!(
            read_game(&path, 2),
            Err(ViewError::GameOutOfRange { index: 2, count: 2, .. })
        ));
        // results.jsonl (read for the arena index) the same way.
        let results = dir.join("results.jsonl");
        let result = r#"{"index":0,"seed":5,"seats":[0,1]}"#;
        std::fs::write(&results, format!("{result}\n{}", &result[..20])).unwrap();
        assert_eq!(read_jsonl(&results).unwrap().len(), 1);
        // A whole record without its newline (a hand-written file) is kept.
        std::fs::write(&path, format!("{good}\n{good}")).unwrap();
        assert_eq!(read_games(&path).unwrap().len(), 2);
        // A bad line that a crash cannot leave is still an error naming it: a cut line that has
        // its newline, or a last line that is not JSON from its start.
        std::fs::write(&path, format!("{good}\n{cut}\n")).unwrap();
        assert!(matches!(read_games(&path), Err(ViewError::Json { line: 2, .. })));
        std::fs::write(&path, format!("{good}\n{cut}\n{good}")).unwrap();
        assert!(matches!(read_games(&path), Err(ViewError::Json { line: 2, .. })));
        std::fs::write(&path, format!("{good}\nnot json")).unwrap();
        assert!(matches!(read_games(&path), Err(ViewError::Json { line: 2, .. })));
        // Only a fragment: no game.
        std::fs::write(&path, cut).unwrap();
        assert!(matches!(read_games(&path), Err(ViewError::NoGames { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
