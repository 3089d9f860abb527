//! Differential checks, fast against reference, in library code so that quickcheck properties,
//! fuzz targets (one line each) and the regression test share them. Each panics with a readable
//! difference when the two engines disagree.

use super::board::State;
use super::bot::voronoi;
use super::movegen::{self, MoveList, Mv};
use super::{engine, play};
use serde_json::Value;
use twinsim_reference::trace::{diff_values, Moment};
use twinsim_reference::wondev_woman as r;

/// Lines a misbehaving bot prints, chosen by fuzzer bytes.
pub const BAD_LINES: [&str; 16] = [
    "",
    "WAIT",
    "ACCEPT-DEFEAT",
    "ACCEPT-DEFEATxyz",
    " MOVE&BUILD 0 N S",
    "MOVE&BUILD 2 N S",
    "MOVE&BUILD 1 N S",
    "move&build 0 n s",
    "Push&Build 0 N N",
    "PUSH&BUILD 0 ne n",
    "PUSH&BUILD 1 S SE hi",
    "MOVE&BUILD\t0  E\u{0B}W   msg",
    "MOVE&BUILD 0 N Sxyz",
    "MOVE&BUILD 9 SW NE",
    "PUSH&BUILD 0 E W",
    "MOVE&BUILD 1 SE NW 日本",
];

fn difference(what: &str, expected: &Value, found: &Value) -> Option<String> {
    let mut out = vec![];
    diff_values(Moment::Setup, what, expected, found, &mut out);
    if out.is_empty() {
        None
    } else {
        Some(
            out.iter()
                .map(|d| format!("{}: reference {}, fast {}", d.field, d.expected, d.found))
                .collect::<Vec<_>>()
                .join("\n"),
        )
    }
}

/// Compares everything the two engines expose about a position; `Err` is a readable diff.
pub fn compare(reference: &r::State, fast: &State) -> Result<(), String> {
    let mut rs = reference.clone();
    rs.last_turn = None;
    let back = fast.to_reference();
    if back != rs {
        let d = difference("state", &r::trace::state_json(&rs), &r::trace::state_json(&back));
        return Err(
            d.unwrap_or_else(|| format!("hidden fields differ:\nreference {rs:?}\nfast {back:?}"))
        );
    }
    if fast.hash != fast.hash_from_scratch() {
        return Err("incremental hash differs from the hash from scratch".into());
    }
    let mut list = MoveList::default();
    for p in 0..2 {
        let want: Vec<String> =
            r::rules::legal_actions(reference, p).iter().map(|a| a.to_string()).collect();
        movegen::legal(fast, p, &mut list);
        let got: Vec<String> = list.as_slice().iter().map(|m| m.to_action().to_string()).collect();
        if want != got {
            return Err(format!(
                "legal list of player {p}:\nreference {want:?}\nfast      {got:?}"
            ));
        }
        if movegen::count(fast, p) as usize != want.len() {
            return Err(format!("legal count of player {p}"));
        }
        let (rv, fv) =
            (r::protocol::render_turn_input(reference, p), engine::render_turn_input(fast, p));
        if rv != fv {
            return Err(format!("view of player {p}:\nreference {rv:?}\nfast      {fv:?}"));
        }
    }
    let (rv, fv) = (r::bot::eval::voronoi(reference), voronoi::voronoi(fast));
    if rv != fv {
        return Err(format!("voronoi: reference {rv:?}, fast {fv:?}"));
    }
    let (ro, fo) = (r::trace::trace_outcome(reference), engine::trace_outcome(fast));
    if ro != fo {
        return Err(format!("outcome: reference {ro:?}, fast {fo:?}"));
    }
    Ok(())
}

/// Reads the setup from the first bytes: seed, league, map, symmetric.
fn setup_from(bytes: &[u8]) -> (i64, r::Params, &[u8]) {
    let mut seed_bytes = [0u8; 8];
    let n = bytes.len().min(8);
    seed_bytes[..n].copy_from_slice(&bytes[..n]);
    let seed = i64::from_le_bytes(seed_bytes);
    let flags = bytes.get(8).copied().unwrap_or(3);
    let league = r::League::from_version((flags & 3) as i64).unwrap_or_default();
    let map_index = ((flags >> 2) & 3) as i32 - 1;
    let symmetric = flags & 16 != 0;
    let rest = if bytes.len() > 9 { &bytes[9..] } else { &[] };
    (seed, r::Params { league, map_index, symmetric }, rest)
}

/// The bit-set setup against the reference setup converted, for one seed and parameter set
/// (twin: `r::setup::new_game`, then `State::from`). The reference states are compared first, so
/// a difference prints as a field-by-field diff; then the whole fast states, hidden fields
/// (unit count, masks, hash) included.
pub fn setup_diff_params(seed: i64, params: &r::Params) -> Result<(), String> {
    let rs = r::setup::new_game(seed, params);
    let fs = super::setup::new_game(seed, params);
    let back = fs.to_reference();
    if back != rs {
        let d = difference("state", &r::trace::state_json(&rs), &r::trace::state_json(&back));
        return Err(format!(
            "seed {seed} {params:?} setup:\n{}",
            d.unwrap_or_else(|| format!("hidden fields differ:\nreference {rs:?}\nfast {back:?}"))
        ));
    }
    let converted = State::from(&rs);
    if converted != fs {
        return Err(format!(
            "seed {seed} {params:?} setup: fast state differs from the converted reference:\n\
             converted {converted:?}\nfast      {fs:?}"
        ));
    }
    Ok(())
}

/// The setup from fuzzer bytes (seed from the first 8, league, map and symmetric from the 9th;
/// the rest is ignored): [`setup_diff_params`], panicking on a difference.
pub fn setup_diff(bytes: &[u8]) {
    let (seed, params, _) = setup_from(bytes);
    if let Err(e) = setup_diff_params(seed, &params) {
        panic!("{e}");
    }
}

/// Whole games from fuzzer bytes: setup from the first 9 bytes, then one byte per turn (below
/// 240: the `byte % len`-th legal action; 240..=254: a bad line; 255: a timeout), comparing
/// state, legal lists, views, hash, Voronoi, events and outcome after every step, and
/// make/unmake and make_search/unmake_search against the state before.
pub fn game_diff(bytes: &[u8]) {
    let (seed, params, turns) = setup_from(bytes);
    let mut rs = r::setup::new_game(seed, &params);
    let mut fs = State::new_game(seed, &params);
    if let Err(e) = compare(&rs, &fs) {
        panic!("seed {seed} {params:?} setup:\n{e}");
    }
    for (k, &b) in turns.iter().enumerate() {
        if rs.game_over {
            break;
        }
        let p = rs.to_move.unwrap_or(0);
        let legal = r::rules::legal_actions(&rs, p);
        let line: Option<String> = match b {
            255 => None,
            240..=254 => Some(BAD_LINES[(b as usize + k) % BAD_LINES.len()].to_string()),
            _ if legal.is_empty() => Some("WAIT".into()),
            _ => Some(legal[b as usize % legal.len()].to_string()),
        };
        // make/unmake on a legal action leaves the state exactly as it was.
        if let Some(a) = line.as_deref().and_then(|l| l.parse::<r::Action>().ok()) {
            if legal.contains(&a) {
                let mv = Mv::from_action(&a).expect("legal actions convert");
                let before = fs;
                let mut t = fs;
                let u = movegen::make(&mut t, mv);
                let mut via_ref = rs.clone();
                r::rules::apply_action(&mut via_ref, p, &a);
                if let Err(e) = compare(&via_ref, &t) {
                    panic!("seed {seed} turn {k} make {a}:\n{e}");
                }
                // The search's make and unmake: the same states but for the action records
                // (which they leave stale).
                let mut q = before;
                let qu = movegen::make_search(&mut q, mv);
                assert_eq!(
                    State { records: t.records, ..q },
                    t,
                    "seed {seed} turn {k}: make_search"
                );
                movegen::unmake_search(&mut q, &qu);
                assert_eq!(
                    State { records: before.records, ..q },
                    before,
                    "seed {seed} turn {k}: unmake_search did not restore the state"
                );
                movegen::unmake(&mut t, &u);
                assert_eq!(t, before, "seed {seed} turn {k}: unmake did not restore the state");
            }
        }
        r::referee::play_turn(&mut rs, line.as_deref()).expect("running");
        let events = play::play_turn(&mut fs, line.as_deref()).expect("running");
        let want = &rs.last_turn.as_ref().expect("a turn").events;
        assert_eq!(want, &events, "seed {seed} turn {k} line {line:?}: events differ");
        if let Err(e) = compare(&rs, &fs) {
            panic!("seed {seed} turn {k} line {line:?}:\n{e}");
        }
    }
    let mut t = fs;
    assert!(play::play_turn(&mut t, Some("ACCEPT-DEFEAT")).is_err() || !rs.game_over);
}

/// Voronoi on positions reached from fuzzer bytes, including hand-placed units: after the
/// setup bytes, pairs of bytes move units to arbitrary cells (skipping occupied or domed ones)
/// and raise cells.
pub fn voronoi_diff(bytes: &[u8]) {
    let (seed, params, rest) = setup_from(bytes);
    let mut rs = r::setup::new_game(seed, &params);
    for pair in rest.chunks(2) {
        let (a, b) = (pair[0], pair.get(1).copied().unwrap_or(0));
        let cells = rs.cells();
        let c = cells[b as usize % cells.len()];
        if a & 1 == 0 {
            let h = rs.heights[c.y as usize][c.x as usize].unwrap_or(0);
            if h < 4 && (h < 3 || rs.unit_at(c).is_none()) {
                rs.heights[c.y as usize][c.x as usize] = Some(h + 1);
            }
        } else {
            let g = (a as usize >> 1) % 4;
            let (p, i) = (g / 2, g % 2);
            if i < rs.units[p].len()
                && rs.unit_at(c).is_none()
                && rs.height(c).is_some_and(|h| h < 4)
            {
                rs.units[p][i] = c;
            }
        }
        if a & 2 == 2 {
            rs.to_move = rs.to_move.map(|m| 1 - m);
        }
    }
    let fs = State::from(&rs);
    let (rv, fv) = (r::bot::eval::voronoi(&rs), voronoi::voronoi(&fs));
    assert_eq!(rv, fv, "voronoi differs on {:?}", r::trace::state_json(&rs));
    assert_eq!(r::bot::eval::evaluate(&rs), voronoi::evaluate(&fs));
}

/// Arbitrary text at the protocol parsers: never a panic; an action that parses prints back to
/// a line that parses to the same action; a view text that parses renders back identically.
pub fn parse_diff(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Ok(a) = r::protocol::parse_action(&text) {
        assert_eq!(r::protocol::parse_action(&a.to_string()), Ok(a));
    }
    let _ = r::protocol::parse_line(&text);
    let _ = r::protocol::parse_init(&text);
    let size = bytes.first().map_or(5, |b| (*b % 8) as usize);
    if let Ok(v) = r::protocol::parse_turn(&text, size, 2) {
        let back = r::protocol::render_view(&v);
        assert_eq!(r::protocol::parse_turn(&back, size, 2), Ok(v));
    }
    // The fast engine resolves every line exactly like the reference.
    let rs = r::setup::new_game(bytes.len() as i64, &r::Params::default());
    let fs = State::from(&rs);
    let (a, b) = (
        r::referee::resolve_output(&rs, 0, Some(&text)),
        play::resolve_output(&fs, 0, Some(&text)),
    );
    assert_eq!(a.map(|x| super::board::Rec::from_reference(&x)), b, "line {text:?}");
}
