//! Perft: leaf counts of the legal-move tree, the correctness-and-speed yardstick of
//! alternating games (as in chess engines).
//!
//! Every engine of an alternating game answers (`TracePlay::perft`: the reference's generic
//! `game::typed_perft`, the fast twins' bulk-counting ones); the typed twins of every game share
//! `twinsim_fast::game::joint_perft`, whose expected counts are one table checked on both
//! twins. The text-level fallback this module once had counted only the first mover's lines, and no
//! game reached it.

use twinsim_reference::game::TracePlay;

/// The engine's own perft of depth `depth` from `play`; `None` when it has none (the
/// simultaneous games, whose typed twins `twinsim_fast::game::joint_perft` covers).
pub fn perft(play: &dyn TracePlay, depth: u32) -> Option<u64> {
    play.perft(depth)
}
