//! The trace's state schema (rules doc §12 "Trace files and the state schema").

use super::state::*;
use serde_json::{json, Value};

/// §12: the state as the trace records it, keys in the fixed order (`serde_json` keeps
/// insertion order only with `preserve_order`; the comparison is by key anyway).
pub fn state_json(state: &State) -> Value {
    let rows: Vec<String> = (0..SIZE)
        .map(|y| {
            (0..SIZE).map(|x| state.tiles[x][y].pattern.to_string()).collect::<Vec<_>>().join(" ")
        })
        .collect();
    let players: Vec<Value> = state
        .players
        .iter()
        .map(|p| {
            // The deck is listed top first: the next card to be revealed comes first.
            let deck: Vec<&str> = p.deck.iter().rev().map(|n| n.name()).collect();
            let quests: Vec<&str> = p.quests.iter().map(|n| n.name()).collect();
            json!({
                "x": p.x,
                "y": p.y,
                "tile": p.hand.pattern.to_string(),
                "score": p.score,
                "active": p.active,
                "quests": quests,
                "deck": deck,
            })
        })
        .collect();
    let items: Vec<Value> = state
        .items
        .iter()
        .map(|item| {
            let (x, y) = match state.find_item(*item) {
                Some(ItemPlace::Board(x, y)) => (x as i64, y as i64),
                Some(ItemPlace::Hand(0)) => (-1, -1),
                _ => (-2, -2),
            };
            json!([item.name.name(), item.owner, x, y])
        })
        .collect();
    json!({
        "turn": state.turn(),
        "turns_left": state.turns_left,
        "turn_type": state.turn_type.name(),
        "tiles": rows,
        "players": players,
        "items": items,
        "stale": state.stale,
        "game_over": state.game_over,
    })
}

/// §12 `outcome`: scores, winner (null for a draw), reason, game turns played; `None` while the
/// game goes on.
pub fn trace_outcome(state: &State) -> Option<crate::trace::TraceOutcome> {
    let reason = state.end_reason.filter(|_| state.game_over)?;
    let scores = vec![state.players[0].score, state.players[1].score];
    let winner = super::rules::winner(state);
    Some(
        crate::trace::TraceOutcome::new(scores, winner, reason.name(), OUTCOME_KEYS)
            .with("turns", state.turn()),
    )
}

/// How X-mas Rush's outcome records write the winner (`null`: a draw) and the ranks (they
/// have none: the ranks are the winner's).
pub const OUTCOME_KEYS: crate::trace::OutcomeKeys =
    crate::trace::OutcomeKeys { winner: true, ranks: None };
