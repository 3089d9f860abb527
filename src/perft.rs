//! Perft: leaf counts of the legal-move tree, the correctness-and-speed yardstick of
//! alternating games (as in chess engines).

use twinsim_reference::game::TracePlay;

/// Leaves of the legal-move tree of depth `depth` from `play`, through the text-level API (one
/// mover per ply): the generic fallback for engines without a perft of their own.
pub fn generic_perft(play: &dyn TracePlay, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let movers = play.players_to_act();
    let Some(&mover) = movers.first() else {
        return 1;
    };
    let mut total = 0;
    for line in play.legal_lines(mover) {
        let mut child = play.boxed_clone();
        if child.play_turn(&[Some(line)]).is_ok() {
            total += if depth == 1 { 1 } else { generic_perft(child.as_ref(), depth - 1) };
        }
    }
    total
}

/// The engine's own perft where it has one, else the generic one.
pub fn perft(play: &dyn TracePlay, depth: u32) -> u64 {
    play.perft(depth).unwrap_or_else(|| generic_perft(play, depth))
}
