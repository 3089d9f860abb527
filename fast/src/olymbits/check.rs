//! Differential checks, fast against reference, shared by the quickcheck properties, the
//! cargo-fuzz targets (one line each) and the regression test. Each returns the first
//! difference as a readable message instead of panicking.

use super::engine::FastPlay;
use super::state::State;
use super::step::tick_hurdles;
use super::tables::{hurdle_solution, hurdle_tables, mask_of, Solved, UNKNOWN_TRACK};
use std::collections::HashMap;
use twinsim_reference::game::TracePlay;
use twinsim_reference::olymbits as r;
use twinsim_reference::trace::{lockstep_difference, Moment};

/// The line a fuzz byte stands for: valid spellings mostly (252 of 256 values), else a
/// timeout or one of three invalid lines.
pub fn line_of(byte: u8) -> Option<String> {
    let action = r::Action::ALL[(byte % 4) as usize].keyword();
    match byte {
        0 => None,
        1 => Some("WAIT".into()),
        2 => Some(format!("&lt;{action}&gt;")),
        3 => Some(format!("{action}\u{a0}")),
        b if (b >> 2) % 3 == 0 => Some(action.to_ascii_lowercase()),
        b if (b >> 2) % 3 == 1 => Some(format!("{action} msg")),
        _ => Some(action.to_string()),
    }
}

fn reference_without_events(s: &r::State) -> r::State {
    let mut s = s.clone();
    s.events.clear();
    s
}

/// A readable diff of two reference states (their JSON, field by field).
pub fn state_diff(expected: &r::State, found: &r::State) -> String {
    let mut out = vec![];
    twinsim_reference::trace::diff_values(
        Moment::Setup,
        "state",
        &r::trace::state_json(expected),
        &r::trace::state_json(found),
        &mut out,
    );
    let mut text: Vec<String> = out.iter().map(|d| d.to_string()).collect();
    if text.is_empty() {
        text.push(format!("states differ outside the JSON schema: {expected:?} vs {found:?}"));
    }
    text.join("\n")
}

/// Whole games from fuzzer bytes: seed (8 bytes), league (1 byte), then one byte per player
/// per turn. Compares state, views, events, legal lines and outcome after every step, and
/// the conversions both ways.
pub fn olymbits_diff(data: &[u8]) -> Result<(), String> {
    let mut seed_bytes = [0u8; 8];
    for (k, b) in data.iter().take(8).enumerate() {
        seed_bytes[k] = *b;
    }
    let seed = match i64::from_le_bytes(seed_bytes) {
        0 => 1,
        s => s,
    };
    let league = match data.get(8).copied().unwrap_or(3) % 4 {
        0 => r::League::Wood1,
        1 => r::League::Wood2,
        _ => r::League::Top,
    };
    let params = r::Params { league };
    let mut reference = r::trace::Play::new(r::new_game(seed, &params).map_err(|e| e.to_string())?);
    let mut fast = FastPlay {
        state: State::new(seed, &params).map_err(|e| e.to_string())?,
        lines: Default::default(),
    };
    if reference.initial_record() != fast.initial_record() {
        return Err(format!("setup differs for seed {seed}"));
    }
    let rest = data.get(9..).unwrap_or(&[]);
    for (turn, chunk) in rest.chunks(3).enumerate() {
        let lines: Vec<Option<String>> =
            (0..3).map(|i| line_of(chunk.get(i).copied().unwrap_or(15))).collect();
        let diff = lockstep_difference(&mut reference, &mut fast, &lines, Moment::Turn(turn + 1));
        if !diff.is_empty() {
            let text: Vec<String> = diff.iter().map(|d| d.to_string()).collect();
            return Err(format!("seed {seed} {league:?}: {}", text.join("\n")));
        }
        let want = reference_without_events(&reference.state);
        let got = fast.state.to_reference();
        if want != got {
            return Err(format!("turn {}: {}", turn + 1, state_diff(&want, &got)));
        }
        if State::from(&reference.state).to_reference() != want {
            return Err(format!(
                "turn {}: From<&twinsim_reference::State> does not round-trip",
                turn + 1
            ));
        }
        for p in 0..3 {
            if reference.legal_lines(p) != fast.legal_lines(p) {
                return Err(format!("turn {}: legal lines of player {p} differ", turn + 1));
            }
        }
        if reference.is_over() {
            if reference.outcome() != fast.outcome() {
                return Err(format!(
                    "outcome differs: {:?} vs {:?}",
                    reference.outcome(),
                    fast.outcome()
                ));
            }
            if fast.play_turn(&lines).is_ok() {
                return Err("the fast engine stepped a finished game".into());
            }
            break;
        }
    }
    Ok(())
}

/// Reference twin of the hurdle tables' solutions: turns to finish and best actions for one
/// runner from every cell and stun of `map`, found by searching over
/// `twinsim_reference::olymbits::HurdleRace::tick` (memoised recursion; moves only go forward).
pub fn reference_hurdle_solution(map: &[u8], cell: u8, stun: u8) -> Solved {
    fn dist(map: &[u8], pos: i32, stun: i32, memo: &mut HashMap<(i32, i32), u8>) -> u8 {
        if pos == 29 {
            return 0;
        }
        if let Some(d) = memo.get(&(pos, stun)) {
            return *d;
        }
        let mut best = u8::MAX;
        for action in r::Action::ALL {
            let (p, s) = after(map, pos, stun, action);
            best = best.min(1 + dist(map, p, s, memo));
        }
        memo.insert((pos, stun), best);
        best
    }
    fn after(map: &[u8], pos: i32, stun: i32, action: r::Action) -> (i32, i32) {
        let mut race = r::HurdleRace {
            map: map.to_vec(),
            positions: [pos, 0, 0],
            stun_timers: [stun, 0, 0],
            dead: [false; 3],
            finished: [-1; 3],
            rank: 0,
        };
        race.tick(&[Some(action), None, None]);
        (race.positions[0], race.stun_timers[0])
    }
    let mut memo = HashMap::new();
    let (pos, stun) = (i32::from(cell), i32::from(stun));
    let turns = dist(map, pos, stun, &mut memo);
    let mut best = 0u8;
    for action in r::Action::ALL {
        if pos == 29 {
            best = 0b1111;
            break;
        }
        let (p, s) = after(map, pos, stun, action);
        if 1 + dist(map, p, s, &mut memo) == turns {
            best |= 1 << action.index();
        }
    }
    Solved { turns, best }
}

/// Hurdle races from fuzzer bytes: an arbitrary track, positions, stuns, dead flags, then
/// ticks; the fast tick against the reference tick after each, and the solved table against
/// the reference search when the track is one of the 251.
pub fn hurdle_diff(data: &[u8]) -> Result<(), String> {
    let byte = |k: usize| data.get(k).copied().unwrap_or(0);
    let tables = hurdle_tables();
    let mask = if byte(0) & 1 == 0 {
        // One of the drawable tracks.
        tables.masks[usize::from(byte(1)) % tables.masks.len()]
    } else {
        u32::from_le_bytes([byte(1), byte(2), byte(3), byte(4)]) & ((1 << 30) - 1)
    };
    let map: Vec<u8> = (0..30).map(|x| if mask >> x & 1 == 1 { b'#' } else { b'.' }).collect();
    let positions = [5, 6, 7].map(|k| i32::from(byte(k) % 30));
    let mut race = r::HurdleRace {
        map: map.clone(),
        positions,
        stun_timers: [8, 9, 10].map(|k| i32::from(byte(k) % 3)),
        dead: [11, 12, 13].map(|k| byte(k) % 7 == 0),
        finished: positions.map(|p| if p == 29 { 0 } else { -1 }),
        rank: if positions.contains(&29) { 1 } else { 0 },
    };
    let mut state =
        r::new_game(1, &r::Params { league: r::League::Wood1 }).map_err(|e| e.to_string())?;
    state.games[0].run = r::Run::Hurdles(race.clone());
    let mut fast = State::from(&state);
    for chunk in data.get(14..).unwrap_or(&[]).chunks(3) {
        let codes: [u8; 3] = std::array::from_fn(|i| chunk.get(i).copied().unwrap_or(0) % 5);
        let actions = codes.map(|c| (c < 4).then(|| r::Action::ALL[c as usize]));
        race.tick(&actions);
        tick_hurdles(&mut fast.games[0], &codes);
        let got = match fast.to_reference().games[0].run.clone() {
            r::Run::Hurdles(h) => h,
            _ => return Err("not hurdles".into()),
        };
        if got != race {
            return Err(format!("hurdle tick differs: expected {race:?}, found {got:?}"));
        }
    }
    let id = fast.games[0].track_id;
    if id != UNKNOWN_TRACK {
        if mask_of(&map) != tables.masks[id as usize] {
            return Err("track id does not name the track".into());
        }
        for i in 0..3 {
            let (cell, stun) = (race.positions[i] as u8, race.stun_timers[i] as u8);
            let want = reference_hurdle_solution(&map, cell, stun);
            let got = hurdle_solution(tables, id, cell, stun);
            if want != got {
                return Err(format!(
                    "solution at cell {cell} stun {stun}: expected {want:?}, found {got:?}"
                ));
            }
        }
    }
    Ok(())
}

/// Arbitrary text at the protocol parsers: nothing panics, and a parsed view renders to a
/// text that parses back to the same view.
pub fn parse_check(data: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    let _ = r::parse_line(&text);
    if let Some(line) = text.lines().next() {
        let _ = r::parse_line(line);
    }
    for nb in [1, 4] {
        if let Ok(view) = r::parse_turn(&text, nb) {
            let again = r::parse_turn(&view.render(), nb).map_err(|e| e.to_string())?;
            if again != view {
                return Err(format!("view does not round-trip: {view:?}"));
            }
        }
    }
    if let Ok((init, view)) = r::parse_first_input(&text) {
        let text = format!("{}\n{}", init.render(), view.render());
        if r::parse_first_input(&text).map_err(|e| e.to_string())? != (init, view) {
            return Err("first input does not round-trip".into());
        }
    }
    Ok(())
}
