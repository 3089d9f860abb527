//! Differential checks against the reference, driven by the fuzz targets, their regression
//! inputs and the quickcheck properties.

use super::*;
use twinsim_reference::xmas_rush as r;

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
pub fn game_diff(data: &[u8]) {
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
        assert_eq!(
            (fast.quest_sets, fast.hand_quests),
            board::quest_sets_of(&fast),
            "quest sets out of step"
        );
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
pub fn push_diff(data: &[u8]) {
    let (mut reference, rest) = state_from_bytes(data);
    let mut fast = State::from(&reference);
    assert_same(&fast, &reference, "after packing");
    for &b in rest {
        let b = usize::from(b);
        let (p, line, d) = (b & 1, (b >> 1) % 7, r::Direction::ALL[(b >> 4) % 4]);
        r::rules::apply_push(&mut reference, p, line, d);
        push::push(&mut fast, p, line, d.index() as u8);
        assert_same(&fast, &reference, &format!("after push {p} {line} {d}"));
        assert_eq!(
            (fast.quest_sets, fast.hand_quests),
            board::quest_sets_of(&fast),
            "quest sets out of step"
        );
    }
}

/// Path searches on a state chosen by `data` (players moved to fuzzer-chosen cells): reachable
/// sets from every cell, greedy walk and exact best for both players, fast vs reference. The
/// check behind the `bfs_diff` fuzz target.
pub fn bfs_diff(data: &[u8]) {
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
pub fn parse_diff(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(action) = r::parse_line(&text) {
        assert_eq!(r::parse_line(&action.to_string()), Ok(action));
        assert!(
            PackedAction::from_reference(&action).is_some(),
            "parsed actions fit the packed form"
        );
    }
    if let Ok(view) = r::parse_turn(&text) {
        assert_eq!(r::parse_turn(&view.to_string()), Ok(view));
    }
}
