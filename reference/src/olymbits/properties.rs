//! quickcheck properties over states deep in games: random playouts from random seeds and
//! leagues, with misbehaving players (timeouts, invalid lines, odd spellings).

use super::protocol::*;
use super::rules::*;
use super::state::*;
use super::trace::inputs_from_lines;
use super::Olymbits;
use crate::game::{Game, StepError};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

/// A game played from `seed` in `league` with one byte per player per turn.
#[derive(Clone, Debug)]
struct Playout {
    seed: i64,
    league: League,
    bytes: Vec<u8>,
    /// Whether bytes 0 and 1 mean "timeout" and "invalid line".
    misbehave: bool,
}

impl Arbitrary for Playout {
    fn arbitrary(g: &mut Gen) -> Self {
        let seed = match i64::arbitrary(g) {
            0 => 1,
            s => s,
        };
        let league = match u8::arbitrary(g) % 4 {
            0 => League::Wood1,
            1 => League::Wood2,
            _ => League::Top,
        };
        let n = usize::from(u16::arbitrary(g) % 311);
        let bytes = (0..n).map(|_| u8::arbitrary(g)).collect();
        Playout { seed, league, bytes, misbehave: bool::arbitrary(g) }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let me = self.clone();
        Box::new(self.bytes.shrink().map(move |bytes| Playout { bytes, ..me.clone() }))
    }
}

/// The line a byte stands for: an action in one of several valid spellings, or (when
/// misbehaving) no answer or an invalid line.
fn line(byte: u8, misbehave: bool) -> Option<String> {
    if misbehave && byte == 0 {
        return None;
    }
    if misbehave && byte == 1 {
        return Some("WAIT".into());
    }
    let action = Action::ALL[(byte % 4) as usize];
    let k = action.keyword();
    Some(match (byte / 4) % 4 {
        0 => k.to_string(),
        1 => k.to_ascii_lowercase(),
        2 => format!("{k} go go"),
        _ => format!("{k}\t"),
    })
}

fn lines_of(chunk: &[u8], misbehave: bool) -> Vec<Option<String>> {
    (0..PLAYER_COUNT).map(|i| line(chunk.get(i).copied().unwrap_or(2), misbehave)).collect()
}

impl Playout {
    fn start(&self) -> State {
        Olymbits::new_game(self.seed, &Params { league: self.league })
    }

    /// Every state of the playout, the start included, with the lines played between them.
    fn states(&self) -> Vec<(State, Vec<Option<String>>)> {
        let mut state = self.start();
        let mut out = Vec::new();
        for chunk in self.bytes.chunks(PLAYER_COUNT) {
            if state.is_over() {
                break;
            }
            let lines = lines_of(chunk, self.misbehave);
            out.push((state.clone(), lines.clone()));
            let inputs = inputs_from_lines(&state, &lines);
            play_turn(&mut state, &inputs).expect("game not over");
        }
        out.push((state, vec![]));
        out
    }

    fn last(&self) -> State {
        self.states().pop().map(|(s, _)| s).unwrap_or_else(|| self.start())
    }
}

fn ranges_hold(state: &State) -> Result<(), String> {
    for (g, game) in state.games.iter().enumerate() {
        let ok = match &game.run {
            Run::Hurdles(h) => {
                h.map.len() == TRACK_LENGTH
                    && h.map[TRACK_LENGTH - 1] == b'.'
                    && h.map.iter().all(|c| *c == b'.' || *c == b'#')
                    && h.positions.iter().all(|p| (0..=FINISH_CELL).contains(p))
                    && h.stun_timers.iter().all(|s| (0..=2).contains(s))
            }
            Run::Archery(a) => {
                a.cursors.iter().all(|(x, y)| (-20..=20).contains(x) && (-20..=20).contains(y))
                    && a.wind.len() <= 15
                    && a.wind.iter().all(|w| *w <= 9)
            }
            Run::Skating(s) => {
                s.risk.iter().all(|r| (-2..=4).contains(r))
                    && (0..=15).contains(&s.timer)
                    && s.positions.iter().all(|p| *p >= 0)
                    && {
                        let mut d = s.directions;
                        d.sort();
                        d == Action::ALL
                    }
            }
            Run::Diving(d) => {
                d.goal.len() <= 15
                    && d.combo.iter().all(|c| *c >= 0)
                    && (0..PLAYER_COUNT).all(|i| d.points[i] >= d.combo[i])
            }
        };
        if !ok {
            return Err(format!("mini-game {g} out of range: {:?}", game.run));
        }
    }
    Ok(())
}

/// Checks one step from `before` to `after`.
fn step_invariants(before: &State, after: &State) -> Result<(), String> {
    ranges_hold(after)?;
    for g in 0..before.games.len() {
        let ended = after.games[g].should_reset && !before.games[g].should_reset;
        let before_dead = before.games[g].run.dead();
        let after_dead = after.games[g].run.dead();
        for i in 0..PLAYER_COUNT {
            if before_dead[i] && !after_dead[i] {
                return Err(format!("dead flag of player {i} cleared in game {g}"));
            }
            let (b, a) = (before.medals[i][g], after.medals[i][g]);
            if (0..3).any(|k| a[k] < b[k]) {
                return Err(format!("medals shrank: player {i} game {g}: {b:?} -> {a:?}"));
            }
            let gained: u32 = (0..3).map(|k| a[k] - b[k]).sum();
            if gained != u32::from(ended) {
                return Err(format!("player {i} game {g} gained {gained} medals, ended {ended}"));
            }
            if ended && !after.active[i] && a[2] != b[2] + 1 {
                return Err(format!("inactive player {i} did not get bronze in game {g}"));
            }
        }
        if ended {
            // Competition-style ties: a rank is the number of better players, so the number
            // of golds is ≥ 1, silvers only if exactly one gold, ...
            let ranks: Vec<usize> = (0..PLAYER_COUNT)
                .map(|i| (0..3).find(|&k| after.medals[i][g][k] > before.medals[i][g][k]).unwrap())
                .collect();
            let active_ranks: Vec<usize> =
                (0..PLAYER_COUNT).filter(|&i| after.active[i]).map(|i| ranks[i]).collect();
            for &r in &active_ranks {
                let better = active_ranks.iter().filter(|&&o| o < r).count();
                if better != r {
                    return Err(format!("ranks {ranks:?} are not competition style"));
                }
            }
        }
    }
    Ok(())
}

fn check(tests: u64, prop: fn(Playout) -> TestResult) {
    QuickCheck::new().tests(tests).quickcheck(prop);
}

#[test]
fn prop_every_step_keeps_the_invariants() {
    fn prop(p: Playout) -> TestResult {
        let states = p.states();
        for w in states.windows(2) {
            if let Err(e) = step_invariants(&w[0].0, &w[1].0) {
                return TestResult::error(format!("turn {}: {e}", w[1].0.turn));
            }
        }
        TestResult::passed()
    }
    check(300, prop);
}

#[test]
fn prop_a_turns_draws_depend_only_on_the_state() {
    fn prop(p: Playout, x: [u8; 3], y: [u8; 3]) -> TestResult {
        let start = p.last();
        if start.is_over() {
            return TestResult::discard();
        }
        let mut a = start.clone();
        let mut b = start.clone();
        // Any actions (valid or not): the generator ends in the same place.
        play_turn(&mut a, &inputs_from_lines(&start, &lines_of(&x, true))).unwrap();
        play_turn(&mut b, &inputs_from_lines(&start, &lines_of(&y, true))).unwrap();
        if a.rng != b.rng {
            return TestResult::error("the generator depends on the actions");
        }
        // The same actions spelled differently give the same state.
        let spell = |v: [u8; 3], k: u8| v.map(|c| (c % 4) + 4 * k);
        let mut c = start.clone();
        let mut d = start.clone();
        play_turn(&mut c, &inputs_from_lines(&start, &lines_of(&spell(x, 0), false))).unwrap();
        play_turn(&mut d, &inputs_from_lines(&start, &lines_of(&spell(x, 2), false))).unwrap();
        TestResult::from_bool(c == d)
    }
    QuickCheck::new().tests(200).quickcheck(prop as fn(Playout, [u8; 3], [u8; 3]) -> TestResult);
}

#[test]
fn prop_views_render_and_parse_back() {
    fn prop(p: Playout) -> TestResult {
        let state = p.last();
        let view = TurnView::from_state(&state);
        let text = render_turn_input(&state);
        let parsed = match parse_turn(&text, state.nb_games()) {
            Ok(v) => v,
            Err(e) => return TestResult::error(format!("{e} in {text:?}")),
        };
        if parsed != view || parsed.render() != text {
            return TestResult::failed();
        }
        let player = (p.seed.unsigned_abs() % 3) as usize;
        let first = render_first_input(&state, player);
        match parse_first_input(&first) {
            Ok((init, v)) => TestResult::from_bool(
                init == InitView { player, nb_games: state.nb_games() } && v == view,
            ),
            Err(e) => TestResult::error(e.to_string()),
        }
    }
    check(200, prop);
}

#[test]
fn prop_stepping_a_finished_game_is_refused() {
    fn prop(p: Playout) -> TestResult {
        let mut state = p.last();
        let mut k = 0usize;
        while !state.is_over() {
            let actions: Vec<Option<Action>> = (0..PLAYER_COUNT)
                .map(|i| state.active[i].then_some(Action::ALL[(k + i) % 4]))
                .collect();
            Olymbits::step(&mut state, &actions).unwrap();
            k += 1;
        }
        let before = state.clone();
        let r = Olymbits::step(&mut state, &[Some(Action::Up); 3]);
        TestResult::from_bool(
            r == Err(StepError::GameOver)
                && state == before
                && Olymbits::players_to_act(&state).is_empty()
                && Olymbits::outcome(&state).is_some(),
        )
    }
    check(100, prop);
}

/// A line made of characters that matter to the referee's pattern.
#[derive(Clone, Debug)]
struct Line(String);

impl Arbitrary for Line {
    fn arbitrary(g: &mut Gen) -> Self {
        const ALPHABET: &[char] = &[
            'U', 'P', 'u', 'p', 'D', 'O', 'W', 'N', 'L', 'E', 'F', 'T', 'R', 'I', 'G', 'H', 'x',
            ' ', ' ', '\t', '\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}',
            '\u{a0}', '\u{1c}', 'ı', 'Ｕ', '!', '&',
        ];
        let prefix = g.choose(&["", "UP", "down", "LeFt", "RIGHT", "UP ", "RIGHT\t"]).unwrap();
        let n = usize::arbitrary(g) % 8;
        let tail: String = (0..n).map(|_| *g.choose(ALPHABET).unwrap()).collect();
        Line(format!("{prefix}{tail}"))
    }
}

/// The referee's pattern matched by brute force over every way to split the line (no
/// cleverness): keyword, then `(\s+ .+)? \s*` with Java's `\s` and `.`.
fn brute_force_matches(line: &str) -> Option<Action> {
    let ws = |c: &char| crate::java_text::is_java_space(*c);
    let dot = |c: &char| !crate::java_text::is_java_line_terminator(*c);
    for action in Action::ALL {
        let k = action.keyword();
        let chars: Vec<char> = line.chars().collect();
        if chars.len() < k.len() {
            continue;
        }
        let head: String = chars[..k.len()].iter().collect();
        if !head.eq_ignore_ascii_case(k) || !head.is_ascii() {
            continue;
        }
        let r = &chars[k.len()..];
        if r.iter().all(ws) {
            return Some(action);
        }
        for i in 1..=r.len() {
            for j in i + 1..=r.len() {
                if r[..i].iter().all(ws) && r[i..j].iter().all(dot) && r[j..].iter().all(ws) {
                    return Some(action);
                }
            }
        }
    }
    None
}

#[test]
fn prop_output_lines_match_the_java_pattern() {
    fn prop(l: Line) -> TestResult {
        let ours = parse_line(&l.0).ok().map(|c| c.action);
        TestResult::from_bool(ours == brute_force_matches(&l.0))
    }
    QuickCheck::new().tests(3000).quickcheck(prop as fn(Line) -> TestResult);
}

#[test]
fn prop_parsers_never_panic_on_any_text() {
    fn prop(text: String, nb: u8) -> bool {
        let _ = parse_line(&text);
        let _ = parse_turn(&text, usize::from(nb % 5));
        let _ = parse_first_input(&text);
        true
    }
    QuickCheck::new().tests(2000).quickcheck(prop as fn(String, u8) -> bool);
}

#[test]
fn playouts_reach_deep_states_and_odd_corners() {
    let mut g = Gen::new(100);
    let finals: Vec<State> = (0..200).map(|_| Playout::arbitrary(&mut g).last()).collect();
    let deepest = finals.iter().map(|s| s.turn).max().unwrap();
    assert!(deepest >= 90, "deepest playout only reached turn {deepest}");
    assert!(finals.iter().any(|s| s.is_over()), "no playout ended");
    assert!(finals.iter().any(|s| s.active_count() == 2), "no single deactivation");
    assert!(finals.iter().any(|s| s.league == League::Wood1));
    let medals = |s: &State| s.medals.iter().flatten().flatten().sum::<u32>();
    assert!(finals.iter().any(|s| medals(s) > 30), "no playout won many medals");
}
