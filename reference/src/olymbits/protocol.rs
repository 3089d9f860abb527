//! The protocol in both directions (rules doc §10–§11): the text each player reads every turn
//! (rendered from a state byte-exact, and parsed back into a typed view), and the bot's output
//! line, validated exactly like the referee's Java regex.
//!
//! A bot reads its input with [`parse_turn`] ([`parse_first_input`] on the first turn) and rebuilds a state to search on with
//! [`state_from_view`], whose documentation says what the view hides and what is assumed instead.

use super::rules::points;
use super::state::*;
use crate::game::ParseError;
use crate::sha1prng::Sha1Prng;

// ---------------------------------------------------------------------------------------------
// §10 Input protocol
// ---------------------------------------------------------------------------------------------

/// §4.5, §5.4, §6.4, §7.3, §10: the GPU string and the seven registers of one mini-game line.
/// `GAME_OVER` replaces the GPU on a reset turn, the registers keep the finished run's values;
/// unused registers are 0.
pub fn registers(game: &MiniGame) -> (String, [i32; 7]) {
    let (gpu, regs) = match &game.run {
        Run::Hurdles(g) => {
            let gpu = String::from_utf8_lossy(&g.map).into_owned();
            let p = g.positions;
            let s = g.stun_timers;
            (gpu, [p[0], p[1], p[2], s[0], s[1], s[2], 0])
        }
        Run::Archery(g) => {
            let gpu: String = g.wind.iter().map(|w| w.to_string()).collect();
            let c = g.cursors;
            (gpu, [c[0].0, c[0].1, c[1].0, c[1].1, c[2].0, c[2].1, 0])
        }
        Run::Skating(g) => {
            let gpu: String = g.directions.iter().map(|d| d.letter()).collect();
            let p = g.positions;
            let r = g.risk;
            (gpu, [p[0], p[1], p[2], r[0], r[1], r[2], g.timer])
        }
        Run::Diving(g) => {
            let gpu: String = g.goal.iter().map(|d| d.letter()).collect();
            let p = g.points;
            let c = g.combo;
            (gpu, [p[0], p[1], p[2], c[0], c[1], c[2], 0])
        }
    };
    if game.should_reset {
        ("GAME_OVER".to_string(), regs)
    } else {
        (gpu, regs)
    }
}

/// One player's score line (§10): points, then gold, silver, bronze of each mini-game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoreLine {
    /// `prod(3 * gold + silver)` (a deactivated player's too, §10).
    pub points: i64,
    /// `[gold, silver, bronze]` per mini-game.
    pub medals: Vec<[u32; 3]>,
}

/// One mini-game line (§10).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameLine {
    /// The GPU string (`GAME_OVER` on a reset turn).
    pub gpu: String,
    /// reg0..reg6.
    pub registers: [i32; 7],
}

/// What every player reads each turn (§10): three score lines, then one line per mini-game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnView {
    /// Players 0, 1, 2.
    pub scores: Vec<ScoreLine>,
    /// Mini-games in index order.
    pub games: Vec<GameLine>,
}

/// The initialization lines (§10), sent once before the first turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InitView {
    /// The reader's index, 0..=2.
    pub player: usize,
    /// Number of mini-games.
    pub nb_games: usize,
}

impl TurnView {
    /// §10: the turn input of `state` (identical for every player).
    pub fn from_state(state: &State) -> TurnView {
        let scores = (0..PLAYER_COUNT)
            .map(|i| ScoreLine {
                points: points(&state.medals[i]),
                medals: state.medals[i].clone(),
            })
            .collect();
        let games = state
            .games
            .iter()
            .map(|g| {
                let (gpu, registers) = registers(g);
                GameLine { gpu, registers }
            })
            .collect();
        TurnView { scores, games }
    }

    /// §10: the text, lines joined by `\n` (no final newline), numbers as plain decimals
    /// separated by single spaces.
    pub fn render(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        for s in &self.scores {
            let mut parts = vec![s.points.to_string()];
            for m in &s.medals {
                parts.extend(m.iter().map(|v| v.to_string()));
            }
            lines.push(parts.join(" "));
        }
        for g in &self.games {
            let mut parts = vec![g.gpu.clone()];
            parts.extend(g.registers.iter().map(|v| v.to_string()));
            lines.push(parts.join(" "));
        }
        lines.join("\n")
    }
}

impl InitView {
    /// §10: `<playerIdx>\n<nbGames>`.
    pub fn render(&self) -> String {
        format!("{}\n{}", self.player, self.nb_games)
    }
}

/// §10: the turn input text of `state`.
pub fn render_turn_input(state: &State) -> String {
    TurnView::from_state(state).render()
}

/// §10: what `player` reads before its first action: init lines, then the turn lines.
pub fn render_first_input(state: &State, player: usize) -> String {
    let init = InitView { player, nb_games: state.nb_games() };
    format!("{}\n{}", init.render(), render_turn_input(state))
}

/// Splits a line into space-separated tokens with their 1-based starting column.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut column = 1;
    for token in line.split(' ') {
        out.push((column, token));
        column += token.chars().count() + 1;
    }
    out
}

fn parse_int<T: std::str::FromStr>(
    line: usize,
    (column, token): (usize, &str),
    what: &str,
) -> Result<T, ParseError> {
    let digits = token.strip_prefix('-').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError { line, column, expected: what.to_string(), found: token.into() });
    }
    token.parse().map_err(|_| ParseError {
        line,
        column,
        expected: format!("{what} in range"),
        found: token.into(),
    })
}

fn expect_count(
    line_no: usize,
    line: &str,
    toks: &[(usize, &str)],
    want: usize,
) -> Result<(), ParseError> {
    if toks.len() == want {
        return Ok(());
    }
    let column = if toks.len() > want { toks[want].0 } else { line.chars().count() + 1 };
    let found = if toks.len() > want { toks[want].1.to_string() } else { String::new() };
    Err(ParseError {
        line: line_no,
        column,
        expected: format!("{want} space-separated fields"),
        found,
    })
}

/// Parses a turn input (§10) for `nb_games` mini-games. Lines are numbered from 1 plus
/// `first_line - 1` (so errors in a first input name the line of the whole text).
fn parse_turn_lines(
    lines: &[&str],
    nb_games: usize,
    first_line: usize,
) -> Result<TurnView, ParseError> {
    let want = PLAYER_COUNT + nb_games;
    if lines.len() != want {
        let line = first_line + lines.len().min(want);
        return Err(ParseError {
            line,
            column: 1,
            expected: format!("{want} lines (3 score lines, {nb_games} mini-game lines)"),
            found: lines.get(want).map(|l| l.to_string()).unwrap_or_default(),
        });
    }
    let mut scores = Vec::new();
    for (k, text) in lines[..PLAYER_COUNT].iter().enumerate() {
        let line = first_line + k;
        let toks = tokens(text);
        expect_count(line, text, &toks, 1 + 3 * nb_games)?;
        let points = parse_int::<i64>(line, toks[0], "points (an integer)")?;
        let mut medals = Vec::new();
        for g in 0..nb_games {
            let mut m = [0u32; 3];
            for (r, slot) in m.iter_mut().enumerate() {
                *slot = parse_int::<u32>(line, toks[1 + 3 * g + r], "a medal count")?;
            }
            medals.push(m);
        }
        scores.push(ScoreLine { points, medals });
    }
    let mut games = Vec::new();
    for (k, text) in lines[PLAYER_COUNT..].iter().enumerate() {
        let line = first_line + PLAYER_COUNT + k;
        let toks = tokens(text);
        expect_count(line, text, &toks, 8)?;
        let gpu = toks[0].1;
        if gpu.is_empty() {
            return Err(ParseError::at(1, "a GPU string", "").with_line(line));
        }
        let mut registers = [0i32; 7];
        for (r, slot) in registers.iter_mut().enumerate() {
            *slot = parse_int::<i32>(line, toks[1 + r], "a register (an integer)")?;
        }
        games.push(GameLine { gpu: gpu.to_string(), registers });
    }
    Ok(TurnView { scores, games })
}

trait WithLine {
    fn with_line(self, line: usize) -> Self;
}

impl WithLine for ParseError {
    fn with_line(mut self, line: usize) -> Self {
        self.line = line;
        self
    }
}

/// Parses the per-turn input (§10), the one call a bot makes each turn after the first.
pub fn parse_turn(text: &str, nb_games: usize) -> Result<TurnView, ParseError> {
    let lines: Vec<&str> = text.split('\n').collect();
    parse_turn_lines(&lines, nb_games, 1)
}

/// Parses the initialization input (§10): exactly the two lines `<playerIdx>` (0, 1 or 2) and
/// `<nbGames>` (1 or 4).
pub fn parse_init(text: &str) -> Result<InitView, ParseError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let init = parse_init_lines(&lines)?;
    if lines.len() > 2 {
        return Err(ParseError {
            line: 3,
            column: 1,
            expected: "the end of the init lines".into(),
            found: lines[2].to_string(),
        });
    }
    Ok(init)
}

/// The two init lines at the start of `lines` (§10); what follows is not looked at.
fn parse_init_lines(lines: &[&str]) -> Result<InitView, ParseError> {
    let player_line = lines.first().copied().unwrap_or("");
    let player = parse_int::<usize>(1, (1, player_line), "the player index (0, 1 or 2)")?;
    if player >= PLAYER_COUNT {
        return Err(ParseError::at(1, "the player index (0, 1 or 2)", player_line));
    }
    let Some(games_line) = lines.get(1) else {
        return Err(ParseError {
            line: 2,
            column: 1,
            expected: "nbGames".into(),
            found: "".into(),
        });
    };
    let nb_games = parse_int::<usize>(2, (1, games_line), "nbGames (1 or 4)")?;
    if nb_games != 1 && nb_games != 4 {
        return Err(ParseError {
            line: 2,
            column: 1,
            expected: "nbGames (1 or 4)".into(),
            found: games_line.to_string(),
        });
    }
    Ok(InitView { player, nb_games })
}

/// Parses the first input (§10), what a bot reads before its first action: the two init lines
/// ([`parse_init`]), then the turn lines ([`parse_turn`]).
pub fn parse_first_input(text: &str) -> Result<(InitView, TurnView), ParseError> {
    let lines: Vec<&str> = text.split('\n').collect();
    let init = parse_init_lines(&lines)?;
    let turn = parse_turn_lines(&lines[2..], init.nb_games, 3)?;
    Ok((init, turn))
}

// ---------------------------------------------------------------------------------------------
// §10 The view → a search state
// ---------------------------------------------------------------------------------------------

/// The mini-game kinds of a first view (§12): one game is the hurdles-only league; four games
/// are the top league unless the second line's GPU is a hurdle track (league 2: four hurdles).
/// Only a first view tells: on later turns a `GAME_OVER` line hides the second track.
pub fn mini_games_of_first_view(view: &TurnView) -> Vec<MiniGameKind> {
    let second_is_a_track = |line: &GameLine| line.gpu.bytes().all(|b| b == b'.' || b == b'#');
    let league = match view.games.get(1) {
        None => League::Wood1,
        Some(line) if second_is_a_track(line) => League::Wood2,
        Some(_) => League::Top,
    };
    league.mini_games()
}

/// §12: the league whose mini-games are `kinds` (see [`mini_games_of_first_view`]).
fn league_of(kinds: &[MiniGameKind]) -> League {
    match kinds {
        [_] => League::Wood1,
        [_, MiniGameKind::Hurdles, ..] => League::Wood2,
        _ => League::Top,
    }
}

/// The players a turn shows to have been deactivated (§9), from the views before and after it:
/// the view has no such flag, but the hurdle race tells (§4.3): a player with no stun left, not
/// on the last cell, always moves at least one cell when it acts, so one that stays put on a
/// turn the race ticked gave no action. (Archery or diving cannot tell: a cursor can stay
/// clamped on the border, a diver can miss.) A player deactivated while stunned stays stunned
/// until the race resets (a dead hurdler does not tick), so recognition can take a race.
pub fn deactivated(before: &TurnView, after: &TurnView, kinds: &[MiniGameKind]) -> [bool; 3] {
    let mut out = [false; PLAYER_COUNT];
    for (g, &kind) in kinds.iter().enumerate() {
        let (Some(b), Some(a)) = (before.games.get(g), after.games.get(g)) else { continue };
        if kind != MiniGameKind::Hurdles || b.gpu == "GAME_OVER" {
            continue;
        }
        for (p, dead) in out.iter_mut().enumerate() {
            let (position, stun) = (b.registers[p], b.registers[3 + p]);
            if stun == 0 && position < 29 && a.registers[p] == position {
                *dead = true;
            }
        }
    }
    out
}

/// §10 the view → a search state: rebuilds the referee's state from what a player reads, `turn`
/// turns having been resolved (the view has no turn number: the bot counts its turns), for the
/// mini-games `kinds` (from the first view, [`mini_games_of_first_view`]).
///
/// What the view shows is kept as is: the medals (score lines), every running mini-game's GPU
/// (hurdle track, remaining winds, skating risk order, diving goal) and registers (positions,
/// stuns, cursors, risks, points, combos, the skating timer). What it hides, and what is assumed
/// instead:
/// - the referee's SHA1PRNG (§3), which draws every future run and the skating order of the
///   next turns: seeded with `seed` (the determinization: one plausible future, drawn with the
///   referee's own distributions);
/// - which players were deactivated (§9, no flag in the view): those of `inactive` (the caller's
///   deduction, see [`deactivated`]) are inactive and dead in every mini-game, the others active
///   (the referee marks a deactivated player dead in a mini-game at its next tick, which the
///   missing action makes certain, so the futures are the same);
/// - a hurdle race's finishers and rank (§4.4): a running race has none, so a player on the last
///   cell is counted finished first;
/// - the run a `GAME_OVER` line hides (it is about to be regenerated, §3): the previous state's
///   values (`previous`, if any), else an empty track, no winds, the default skating order and
///   no goal; only the skating risk order could matter (the reset shuffles it in place, §6.1),
///   and that is drawn again anyway;
/// - the league: read from `kinds` (§12).
///
/// A view with fewer game lines than `kinds` gives a state with fewer mini-games; missing score
/// lines give no medals.
pub fn state_from_view(
    view: &TurnView,
    kinds: &[MiniGameKind],
    turn: u32,
    seed: i64,
    previous: Option<&State>,
    inactive: [bool; 3],
) -> State {
    let three = |r: &[i32; 7], k: usize| [r[k], r[k + 1], r[k + 2]];
    let games = kinds
        .iter()
        .zip(&view.games)
        .enumerate()
        .map(|(g, (&kind, line))| {
            let over = line.gpu == "GAME_OVER";
            let before = previous.and_then(|p| p.games.get(g)).map(|m| &m.run);
            let r = &line.registers;
            let run = match kind {
                MiniGameKind::Hurdles => {
                    let map = match before {
                        Some(Run::Hurdles(h)) if over => h.map.clone(),
                        _ if over || line.gpu.len() != TRACK_LENGTH => vec![b'.'; TRACK_LENGTH],
                        _ => line.gpu.as_bytes().to_vec(),
                    };
                    let positions = three(r, 0);
                    // §4.4: a running race has no finisher (the first finish ends it).
                    let finished = positions.map(|p| if p >= 29 { 0 } else { -1 });
                    Run::Hurdles(HurdleRace {
                        map,
                        positions,
                        stun_timers: three(r, 3),
                        dead: inactive,
                        finished,
                        rank: finished.iter().filter(|&&f| f == 0).count() as i32,
                    })
                }
                MiniGameKind::Archery => Run::Archery(Archery {
                    cursors: [(r[0], r[1]), (r[2], r[3]), (r[4], r[5])],
                    wind: if over {
                        Vec::new()
                    } else {
                        line.gpu.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect()
                    },
                    dead: inactive,
                }),
                MiniGameKind::Skating => {
                    let mut directions = [Action::Up, Action::Down, Action::Left, Action::Right];
                    let letters: Vec<Action> =
                        line.gpu.chars().filter_map(Action::from_letter).collect();
                    if !over && letters.len() == 4 {
                        directions.copy_from_slice(&letters);
                    } else if let Some(Run::Skating(s)) = before {
                        directions = s.directions;
                    }
                    Run::Skating(Skating {
                        positions: three(r, 0),
                        risk: three(r, 3),
                        dead: inactive,
                        directions,
                        timer: r[6],
                    })
                }
                MiniGameKind::Diving => Run::Diving(Diving {
                    goal: if over {
                        Vec::new()
                    } else {
                        line.gpu.chars().filter_map(Action::from_letter).collect()
                    },
                    points: three(r, 0),
                    combo: three(r, 3),
                    dead: inactive,
                }),
            };
            MiniGame { run, should_reset: over, resetting: false }
        })
        .collect();
    let medals = std::array::from_fn(|p| {
        let mut m = view.scores.get(p).map(|s| s.medals.clone()).unwrap_or_default();
        m.resize(kinds.len(), [0; 3]);
        m
    });
    State {
        league: league_of(kinds),
        turn,
        active: inactive.map(|i| !i),
        medals,
        games,
        rng: Sha1Prng::new(seed),
        events: Vec::new(),
        end: None,
    }
}

// ---------------------------------------------------------------------------------------------
// §11 Output, validation and invalid output
// ---------------------------------------------------------------------------------------------

/// A valid output line (§11.2): the action and the cosmetic message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Command {
    /// The keyword, ASCII upper-cased.
    pub action: Action,
    /// The `message` group as Java's greedy matcher captures it, if it took part.
    pub message: Option<String>,
}

/// Java's `\s` (§11.2): ASCII whitespace only.
use crate::java_text::is_java_space;

/// Java's line terminators, the characters `.` refuses (§11.2).
use crate::java_text::is_java_line_terminator as is_line_terminator;

/// What the referee expects in front of a line (§11.3's message).
const KEYWORDS: &str = "UP, DOWN, LEFT or RIGHT (ASCII letters, any case)";

/// §11.2: validates `line` exactly as
/// `^(?<button>UP|DOWN|RIGHT|LEFT)(?:\s+(?<message>.+))?\s*$` with Java's `CASE_INSENSITIVE`
/// and `matches()`: the keyword in any ASCII case, then either only ASCII whitespace, or ASCII
/// whitespace, a message without line terminators, and trailing ASCII whitespace.
pub fn parse_line(line: &str) -> Result<Command, ParseError> {
    let mut keyword = None;
    for action in [Action::Up, Action::Down, Action::Right, Action::Left] {
        let k = action.keyword();
        if line.len() >= k.len() && line.as_bytes()[..k.len()].eq_ignore_ascii_case(k.as_bytes()) {
            keyword = Some((action, k.len()));
            break;
        }
    }
    let Some((action, len)) = keyword else {
        let found: String = line.chars().take(8).collect();
        return Err(ParseError::at(1, KEYWORDS, found));
    };
    let rest: Vec<char> = line[len..].chars().collect();
    let column_of = |k: usize| len + k + 1; // keyword is ASCII: columns = bytes there
    if rest.iter().all(|c| is_java_space(*c)) {
        return Ok(Command { action, message: greedy_message(&rest) });
    }
    if !is_java_space(rest[0]) {
        return Err(ParseError::at(
            column_of(0),
            "whitespace after the keyword, or the end of the line",
            rest[0].to_string(),
        ));
    }
    // Leading whitespace run [0, a), trailing whitespace run [b, len): the message must cover
    // everything in between and can contain no line terminator.
    let a = rest.iter().position(|c| !is_java_space(*c)).unwrap_or(rest.len());
    let b = rest.iter().rposition(|c| !is_java_space(*c)).map_or(a, |p| p + 1);
    if let Some(k) = (a..b).find(|&k| is_line_terminator(rest[k])) {
        return Err(ParseError::at(
            column_of(k),
            "message text (a line terminator such as \\n, \\r, U+0085, U+2028 or U+2029 cannot be part of a message)",
            rest[k].to_string(),
        ));
    }
    Ok(Command { action, message: greedy_message(&rest) })
}

/// The `message` group Java's backtracking matcher reports for the text after the keyword
/// (`rest` is already known to match `(?:\s+(.+))?\s*`): `\s+` as long as possible, then `.+`
/// as long as possible, such that only ASCII whitespace is left.
fn greedy_message(rest: &[char]) -> Option<String> {
    let lead = rest.iter().take_while(|c| is_java_space(**c)).count();
    // suffix_ws[k]: rest[k..] is all whitespace.
    let mut suffix_ws = vec![true; rest.len() + 1];
    for k in (0..rest.len()).rev() {
        suffix_ws[k] = suffix_ws[k + 1] && is_java_space(rest[k]);
    }
    for start in (1..=lead.min(rest.len())).rev() {
        if start >= rest.len() || is_line_terminator(rest[start]) {
            continue;
        }
        let end = (start..rest.len()).find(|&k| is_line_terminator(rest[k])).unwrap_or(rest.len());
        if suffix_ws[end] {
            return Some(rest[start..end].iter().collect());
        }
    }
    None
}
