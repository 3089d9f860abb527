//! X-mas Rush, the fast twin: packed rows of nibbles, pushes by shifts and masks, a bitboard
//! flood fill for the reachable set, and a turn function whose events cost nothing when not
//! asked for. Every operation names its reference twin and is checked against it (traces,
//! quickcheck, the `xmas_rush_game_diff` fuzz target).
//!
//! [`FastXmasRush`] is the typed `Game` (twin of `twinsim_reference::xmas_rush::XmasRush`); [`engine`]
//! the text-level `TraceEngine`.
//!
//! Cold paths reuse the reference: setup (once per game, then packed), parsing a bot's line,
//! and the trace JSON of a state (through [`State::to_reference`]).

pub mod bfs;
pub mod board;
pub mod protocol;
pub mod push;
pub mod rules;
pub mod search;
pub mod typed;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod typed_tests;

pub use board::State;
pub use rules::{play_turn, Action, Answer, NoEvents, Sink};
pub use typed::FastXmasRush;

use crate::bench::BenchOp;
use serde_json::{json, Map, Value};
use twinsim_reference::game::{EngineKind, PlayerId, TraceEngine, TracePlay, TurnStructure};
use twinsim_reference::java_random::JavaRandom;
use twinsim_reference::xmas_rush as r;

/// The fast text-level engine.
pub struct FastEngine;

/// The engine object `twinsim` uses.
pub static ENGINE: FastEngine = FastEngine;

/// The text-level engine for replay and verification.
pub fn engine() -> Option<&'static dyn TraceEngine> {
    Some(&ENGINE)
}

impl TraceEngine for FastEngine {
    fn game(&self) -> &'static str {
        "xmas-rush"
    }

    fn kind(&self) -> EngineKind {
        EngineKind::Fast
    }

    fn turns(&self) -> TurnStructure {
        TurnStructure::Simultaneous
    }

    fn setup(&self, seed: Option<i64>, params: &Value) -> Result<Box<dyn TracePlay>, String> {
        let league = r::league_from_params(params)?;
        Ok(Box::new(FastPlay { state: State::new_game(seed.unwrap_or(0), league), events: vec![] }))
    }
}

/// A game in progress on the packed state, with the last turn's events.
#[derive(Clone, Debug)]
pub struct FastPlay {
    pub state: State,
    pub events: Vec<r::Event>,
}

fn views(s: &State) -> Value {
    if s.game_over {
        json!([])
    } else {
        json!([protocol::render_view(s, 0), protocol::render_view(s, 1)])
    }
}

impl TracePlay for FastPlay {
    fn boxed_clone(&self) -> Box<dyn TracePlay> {
        Box::new(self.clone())
    }

    fn num_players(&self) -> usize {
        2
    }

    fn initial_record(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("initial".into(), r::json::state_json(&self.state.to_reference()));
        m.insert("initial_views".into(), views(&self.state));
        m
    }

    fn players_to_act(&self) -> Vec<PlayerId> {
        if self.state.game_over {
            vec![]
        } else {
            vec![0, 1]
        }
    }

    fn legal_lines(&self, player: PlayerId) -> Vec<String> {
        legal_lines(&self.state, player)
    }

    fn play_turn(&mut self, actions: &[Option<String>]) -> Result<(), String> {
        let actions = twinsim_reference::game::turn_lines::<2>(actions)?;
        let answer =
            |a: &Option<String>| Answer::from_reference(&r::Answer::from_line(a.as_deref()));
        let answers = [answer(&actions[0]), answer(&actions[1])];
        self.events.clear();
        rules::play_turn(&mut self.state, &answers, &mut self.events).map_err(|e| e.to_string())
    }

    fn turn_record(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("state".into(), r::json::state_json(&self.state.to_reference()));
        m.insert("views".into(), views(&self.state));
        let events: Vec<String> = self.events.iter().map(|e| e.to_string()).collect();
        m.insert("events".into(), json!(events));
        m
    }

    fn is_over(&self) -> bool {
        self.state.game_over
    }

    fn outcome(&self) -> Option<Value> {
        r::json::outcome_json(&self.state.to_reference())
    }

    fn render(&self, colour: bool) -> String {
        r::display::render(&self.state.to_reference(), colour)
    }
}

/// Legal lines for random play: the 28 pushes, or PASS and one path per reachable cell (the
/// same list as the reference's `legal_actions`, which is the twin; cold path, through it).
pub fn legal_lines(s: &State, player: PlayerId) -> Vec<String> {
    r::legal_actions(&s.to_reference(), player).iter().map(|a| a.to_string()).collect()
}

/// Where two reference states differ, field by field (trace JSON paths), for failure messages.
pub fn state_diff(expected: &r::State, found: &r::State) -> String {
    let mut out = Vec::new();
    twinsim_reference::trace::diff_values(
        twinsim_reference::trace::Moment::Setup,
        "state",
        &r::json::state_json(expected),
        &r::json::state_json(found),
        &mut out,
    );
    if out.is_empty() && expected != found {
        return format!("states differ outside the trace schema:\n{expected:?}\n{found:?}");
    }
    out.iter()
        .map(|d| format!("{}: expected {}, found {}", d.field, d.expected, d.found))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Panics with a readable diff when the fast state does not convert to `reference`.
fn assert_same(fast: &State, reference: &r::State, when: &str) {
    let found = fast.to_reference();
    if found != *reference {
        panic!("fast != reference {when}:\n{}", state_diff(reference, &found));
    }
}

/// Plays a whole game chosen by `data` (each byte picks a line: `byte % candidates`; byte 255
/// is a malformed line, 254 a timeout) through both engines and panics at the first
/// difference in state, events, views or outcome. The check behind the `xmas_rush_game_diff` fuzz
/// target and its regression test.
pub fn check_game_bytes(data: &[u8]) {
    let seed = data.iter().take(8).fold(0i64, |acc, &b| (acc << 8) | i64::from(b));
    let league = r::League { level: i64::from(data.first().copied().unwrap_or(6) % 8) };
    let mut reference = r::new_game(seed, league);
    let mut fast = State::new_game(seed, league);
    assert_same(&fast, &reference, "after setup");
    let mut bytes = data.iter().skip(8).copied();
    while !reference.game_over {
        let mut lines: Vec<Option<String>> = Vec::new();
        for p in 0..2 {
            let Some(b) = bytes.next() else { return };
            let line = match b {
                255 => Some("PUSH 7 UP".to_string()),
                254 => None,
                _ => {
                    let mut c: Vec<String> =
                        r::legal_actions(&reference, p).iter().map(|a| a.to_string()).collect();
                    c.extend(["MOVE UP LEFT", "MOVE DOWN RIGHT DOWN", "PASS"].map(String::from));
                    Some(c[b as usize % c.len()].clone())
                }
            };
            lines.push(line);
        }
        let ra =
            [r::Answer::from_line(lines[0].as_deref()), r::Answer::from_line(lines[1].as_deref())];
        let fa = [Answer::from_reference(&ra[0]), Answer::from_reference(&ra[1])];
        let re = r::rules::play_turn(&mut reference, &ra);
        let mut fe = Vec::new();
        let fr = rules::play_turn(&mut fast, &fa, &mut fe);
        assert_eq!(re.as_ref().map(|_| ()), fr.as_ref().map(|_| ()), "result");
        assert_eq!(re.unwrap_or_default(), fe, "events after {lines:?}");
        assert_same(&fast, &reference, &format!("after {lines:?}"));
        assert_eq!(fast.open, board::masks_of_rows(&fast.rows), "direction sets out of step");
        assert_eq!(fast.quest_sets, board::quest_sets_of(&fast), "quest sets out of step");
        if !reference.game_over {
            for p in 0..2 {
                assert_eq!(protocol::render_view(&fast, p), r::render_view(&reference, p), "view");
            }
        }
        for p in 0..2 {
            assert_eq!(search::greedy_walk(&fast, p), r::search::greedy_walk(&reference, p));
            assert_eq!(search::most_items(&fast, p), r::search::most_items(&reference, p));
        }
        for x in 0..7 {
            for y in 0..7 {
                let want: u64 = r::rules::reachable(&reference, x, y)
                    .iter()
                    .map(|(a, b)| 1u64 << (b * 7 + a))
                    .sum();
                assert_eq!(bfs::reachable(&fast, x, y), want, "reachable from ({x},{y})");
            }
        }
    }
}

/// A state from fuzzer bytes: the first 8 bytes seed a top-league game, then each byte is a
/// raw push (player, line, direction) applied through the reference rule, so states reach
/// boards and hands that games rarely do. Returns the state and the unused bytes.
fn state_from_bytes(data: &[u8]) -> (r::State, &[u8]) {
    let seed = data.iter().take(8).fold(0i64, |acc, &b| (acc << 8) | i64::from(b));
    let mut state = r::new_game(seed, r::League::default());
    let rest = data.get(8..).unwrap_or(&[]);
    let (pushes, rest) =
        rest.split_at(rest.len().min(usize::from(rest.first().copied().unwrap_or(0) % 64)));
    for &b in pushes {
        let b = usize::from(b);
        r::rules::apply_push(&mut state, b & 1, (b >> 1) % 7, r::Direction::ALL[(b >> 4) % 4]);
    }
    (state, rest)
}

/// Raw pushes chosen by `data`, fast vs reference after each (state, direction sets). The check
/// behind the `push_diff` fuzz target.
pub fn check_push_bytes(data: &[u8]) {
    let (mut reference, rest) = state_from_bytes(data);
    let mut fast = State::from(&reference);
    assert_same(&fast, &reference, "after packing");
    for &b in rest {
        let b = usize::from(b);
        let (p, line, d) = (b & 1, (b >> 1) % 7, r::Direction::ALL[(b >> 4) % 4]);
        r::rules::apply_push(&mut reference, p, line, d);
        push::push(&mut fast, p, line, d.index() as u8);
        assert_same(&fast, &reference, &format!("after push {p} {line} {d}"));
        assert_eq!(fast.open, board::masks_of_rows(&fast.rows), "direction sets out of step");
        assert_eq!(fast.quest_sets, board::quest_sets_of(&fast), "quest sets out of step");
    }
}

/// Path searches on a state chosen by `data` (players moved to fuzzer-chosen cells): reachable
/// sets from every cell, greedy walk and exact best for both players, fast vs reference. The
/// check behind the `bfs_diff` fuzz target.
pub fn check_bfs_bytes(data: &[u8]) {
    let (mut reference, rest) = state_from_bytes(data);
    for (p, &b) in rest.iter().take(2).enumerate() {
        reference.players[p].x = usize::from(b) % 7;
        reference.players[p].y = usize::from(b / 7) % 7;
    }
    let fast = State::from(&reference);
    for x in 0..7 {
        for y in 0..7 {
            let want: u64 = r::rules::reachable(&reference, x, y)
                .iter()
                .map(|(a, b)| 1u64 << (b * 7 + a))
                .sum();
            assert_eq!(bfs::reachable(&fast, x, y), want, "reachable from ({x},{y})");
        }
    }
    for p in 0..2 {
        assert_eq!(search::greedy_walk(&fast, p), r::search::greedy_walk(&reference, p));
        assert_eq!(search::most_items(&fast, p), r::search::most_items(&reference, p));
    }
}

/// Arbitrary text thrown at the protocol parsers: a bot's line (rules doc §5) and a turn's
/// input (§9). Never panics; whatever parses prints back to text that parses to the same
/// value. The check behind the `parse_xmas_rush` fuzz target.
pub fn check_parse_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(action) = r::parse_line(&text) {
        assert_eq!(r::parse_line(&action.to_string()), Ok(action.clone()));
        assert!(Action::from_reference(&action).is_some(), "parsed actions fit the packed form");
    }
    if let Ok(view) = r::View::parse(&text) {
        assert_eq!(r::View::parse(&view.to_string()), Ok(view));
    }
}

/// States from random games (deterministic), for benchmarks.
pub fn sample_states(count: usize) -> Vec<r::State> {
    let mut out = Vec::new();
    let mut chooser = JavaRandom::new(99);
    let mut game = 0;
    while out.len() < count {
        let mut s = r::new_game(game, r::League::default());
        game += 1;
        while !s.game_over && out.len() < count {
            out.push(s.clone());
            let lines: Vec<String> = (0..2)
                .map(|p| {
                    let l = r::legal_actions(&s, p);
                    l[chooser.next_below(l.len() as i32) as usize].to_string()
                })
                .collect();
            let answers =
                [r::Answer::from_line(Some(&lines[0])), r::Answer::from_line(Some(&lines[1]))];
            let _ = r::rules::play_turn(&mut s, &answers);
        }
    }
    out
}

/// Hot operations, reference vs fast: one push, the reachable set, a whole PUSH turn (both
/// players, events off in fast), on states from random games.
pub fn bench_ops() -> Vec<BenchOp> {
    use std::hint::black_box;
    let refs = sample_states(256);
    let fasts: Vec<State> = refs.iter().map(State::from).collect();
    let pushes: Vec<r::State> =
        refs.iter().filter(|s| s.turn_type == r::TurnType::Push).cloned().collect();
    let fast_pushes: Vec<State> = pushes.iter().map(State::from).collect();
    let few: Vec<r::State> =
        sample_states(64).into_iter().filter(|s| s.turn_type == r::TurnType::Push).collect();
    let fast_few: Vec<State> = few.iter().map(State::from).collect();
    let mut cache = Box::new([[search::PushPair::default(); 28]; 28]);
    let game = "xmas-rush";
    vec![
        BenchOp::cycling(
            game,
            "push",
            refs.clone(),
            fasts.clone(),
            |s, i| {
                let mut s = s.clone();
                r::rules::apply_push(&mut s, i % 2, i % 7, r::Direction::ALL[i % 4]);
                black_box(&s);
            },
            |s, j| {
                let mut s = *s;
                push::push(&mut s, j % 2, j % 7, (j % 4) as u8);
                black_box(&s);
            },
        ),
        BenchOp::cycling(
            game,
            "reachable",
            refs.clone(),
            fasts.clone(),
            |s, _| {
                let p = &s.players[0];
                black_box(r::rules::reachable(s, p.x, p.y));
            },
            |s, _| {
                let p = &s.players[0];
                black_box(bfs::reachable(s, p.x as usize, p.y as usize));
            },
        ),
        BenchOp::cycling(
            game,
            "push_turn",
            pushes,
            fast_pushes,
            |s, i| {
                let mut s = s.clone();
                let a = |k: usize| {
                    r::Answer::Action(r::Action::Push {
                        line: k % 7,
                        direction: r::Direction::ALL[k % 4],
                    })
                };
                let _ = black_box(r::rules::play_turn(&mut s, &[a(i), a(i / 3)]));
            },
            |s, j| {
                let mut s = *s;
                let a = |k: usize| {
                    Answer::Action(Action::Push { line: (k % 7) as u8, dir: (k % 4) as u8 })
                };
                let _ = black_box(rules::play_turn(&mut s, &[a(j), a(j / 3)], &mut NoEvents));
            },
        ),
        BenchOp::cycling(
            game,
            "greedy_walk",
            refs.clone(),
            fasts.clone(),
            |s, i| {
                black_box(r::search::greedy_walk(s, i % 2));
            },
            |s, j| {
                black_box(search::greedy_walk(s, j % 2));
            },
        ),
        BenchOp::cycling(
            game,
            "most_items",
            refs,
            fasts,
            |s, i| {
                black_box(r::search::most_items(s, i % 2));
            },
            |s, j| {
                black_box(search::most_items(s, j % 2));
            },
        ),
        BenchOp::cycling(
            game,
            "move_cache",
            few,
            fast_few,
            |s, i| {
                black_box(r::search::move_cache(s, i % 2));
            },
            move |s, j| {
                search::move_cache(s, j % 2, &mut cache);
                black_box(&cache);
            },
        ),
    ]
}
