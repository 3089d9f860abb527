//! Differential checks, fast vs reference, in library code so that each fuzz target is one line
//! and the committed regressions replay in an ordinary test.

use super::engine::FastPlay;
use super::typed::{parse_line, State};
use twinsim_reference::game::TracePlay;
use twinsim_reference::trace::{lockstep_difference, Moment};
use twinsim_reference::zuniq::trace::Play as ReferencePlay;

/// Odd lines a fuzzer byte can pick instead of a legal move: timeouts, malformed lines, and
/// (through `occupied`) placed walls.
const ODD_LINES: [Option<&str>; 8] =
    [None, Some(""), Some("A1h!!"), Some("F1v"), Some("a1h"), Some("Quit"), Some("A6h"), Some(" ")];

/// Drives one whole game through both engines from fuzzer bytes and compares, after every
/// turn: the turn records (state, views, legal, events), the converted states, the board
/// rebuilt from the reference state (closed cells, used sizes, dead walls, hash), the
/// incremental hash against a recomputation, and at the end the outcome.
///
/// Byte `b`: `b % 32 == 31` plays an odd line (`b / 32` picks it; some pick a placed or dead
/// wall), otherwise the `(b % 32)`-th-ish legal line (`b as usize % legal.len()`), claims
/// included.
pub fn game_diff(data: &[u8]) -> Result<(), String> {
    let mut reference = ReferencePlay::new(twinsim_reference::zuniq::State::new());
    let mut fast = FastPlay::default();
    for (turn, &byte) in data.iter().enumerate() {
        if reference.is_over() {
            break;
        }
        let line: Option<String> = if byte % 32 == 31 {
            let pick = (byte / 32) as usize;
            match pick {
                0..=4 => ODD_LINES[pick].map(str::to_string),
                5 => reference.state.walls.iter().next().map(|w| w.name()),
                6 => reference
                    .state
                    .zones()
                    .first()
                    .and_then(|z| z.cells.first().map(|c| c.walls()[0].name())),
                _ => ODD_LINES[pick].map(str::to_string),
            }
        } else {
            let legal = reference.legal_lines(reference.state.to_move());
            legal.get(byte as usize % legal.len().max(1)).cloned()
        };
        let differences = lockstep_difference(
            &mut reference,
            &mut fast,
            std::slice::from_ref(&line),
            Moment::Turn(turn + 1),
        );
        if !differences.is_empty() {
            let text: Vec<String> = differences.iter().map(|d| d.to_string()).collect();
            return Err(format!("line {line:?}: {}", text.join("; ")));
        }
        check_state(&reference.state, &fast.state)?;
    }
    if reference.outcome() != fast.outcome() {
        return Err(format!("outcome: {:?} vs {:?}", reference.outcome(), fast.outcome()));
    }
    Ok(())
}

/// The fast state converts to the reference one, and rebuilding it from the reference state
/// gives the same board (derived masks and hash included).
pub fn check_state(
    reference: &twinsim_reference::zuniq::State,
    fast: &State,
) -> Result<(), String> {
    if &fast.to_reference() != reference {
        return Err(format!("to_reference: {:?} vs {reference:?}", fast.to_reference()));
    }
    let rebuilt = State::from(reference);
    if rebuilt != *fast {
        return Err(format!("From<&reference>: {rebuilt:?} vs {fast:?}"));
    }
    if fast.board.hash != fast.board.hash_from_scratch() {
        return Err("incremental hash differs from the recomputed one".into());
    }
    Ok(())
}

/// The fast line parser accepts exactly what the reference parser accepts, with the same
/// result.
pub fn parse_diff(text: &str) -> Result<(), String> {
    let fast = parse_line(text.as_bytes()).map(|(w, claim)| (super::typed::wall_of(w), claim));
    let reference = twinsim_reference::zuniq::parse_line(text).ok().map(|a| (a.wall, a.claim));
    if fast != reference {
        return Err(format!("{text:?}: fast {fast:?}, reference {reference:?}"));
    }
    if let Ok(view) = twinsim_reference::zuniq::parse_turn(text) {
        if view.to_string() != text {
            return Err(format!("view {text:?} renders as {view}"));
        }
    }
    Ok(())
}
