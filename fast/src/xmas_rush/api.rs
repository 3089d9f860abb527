//! X-mas Rush's face in the shared search API ([`SearchGame`]): the same names in every
//! `twinsim_fast::<game>::api` (`State`, `Action`, `MoveList`, `CAPACITY`, `Fast`, `Reference`),
//! re-exported at the game's root (`twinsim_fast::<game>::MoveList` is this list in every game).
//!
//! `Action` is the typed action bots print (the reference's); the packed action of the turn
//! function is [`super::PackedAction`]. Both are `Copy`: a MOVE's path is held inline
//! ([`twinsim_reference::xmas_rush::Path`]), so listing a turn, PUSH or MOVE, allocates
//! nothing.

pub use super::board::State;
use super::typed::path_tree;
use crate::game::{FieldHasher, Players, SearchGame};
use std::hash::{Hash, Hasher};
use twinsim_reference::game::PlayerId;
pub use twinsim_reference::xmas_rush::Action;
use twinsim_reference::xmas_rush::{Direction, TurnType, SIZE};

/// The fast twin's typed API.
pub type Fast = super::FastXmasRush;
/// The reference twin's typed API.
#[cfg(feature = "reference-twin")]
pub type Reference = twinsim_reference::xmas_rush::XmasRush;

/// The longest legal list: `PASS` and one MOVE per other cell of the 7×7 board (a PUSH turn
/// has 28).
pub const CAPACITY: usize = SIZE * SIZE;

/// One player's legal actions, without allocation of the list.
pub type MoveList = crate::game::MoveList<Action, CAPACITY>;

impl SearchGame for Fast {
    type MoveList = MoveList;

    fn to_act(state: &State) -> Players {
        if state.game_over {
            Players::NONE
        } else {
            Players::first_n(2)
        }
    }

    /// As [`super::typed::legal_actions`]: the 28 pushes line-major, or `PASS` then one shortest
    /// MOVE per other reachable cell within 20 steps, in BFS order.
    fn legal_moves(state: &State, player: PlayerId, moves: &mut MoveList) {
        moves.clear();
        if state.game_over || player > 1 {
            return;
        }
        match state.turn_type {
            TurnType::Push => {
                for line in 0..SIZE {
                    for direction in Direction::ALL {
                        moves.push(Action::Push { line, direction });
                    }
                }
            }
            TurnType::Move => {
                let p = &state.players[player];
                let tree = path_tree(state, p.x as usize, p.y as usize);
                moves.push(Action::Pass);
                // Cells more than 20 steps away have no MOVE (§5).
                for &cell in &tree.order[1..tree.len] {
                    if let Some(path) = tree.path_to(cell) {
                        moves.push(Action::Move(path));
                    }
                }
            }
        }
    }

    /// A [`FieldHasher`] fold of the packed state's meaningful part: the board's direction
    /// sets, hand tiles, items and quest sets, the item order (its first `order_len` entries),
    /// both players (position, revealed quests and hidden deck in order, score, active), the
    /// stale-push count, the turns left, the turn type, the end and the league. X-mas Rush
    /// draws nothing after setup (the decks are dealt then, and kept in the state), so this is
    /// everything the future depends on. Entries past a list's length are left out: they are
    /// stale (a collect or a reveal shortens a list without clearing the rest) and the
    /// conversion from the reference zeroes them.
    fn hash(state: &State) -> u64 {
        let mut h = FieldHasher::default();
        (state.open, state.hands, state.hand_quests, state.item_rows).hash(&mut h);
        (state.hand_items, state.quest_sets).hash(&mut h);
        state.order[..state.order_len as usize].hash(&mut h);
        for p in &state.players {
            (p.x, p.y, p.score, p.active).hash(&mut h);
            p.deck[..p.deck_len as usize].hash(&mut h);
            p.quests[..p.quests_len as usize].hash(&mut h);
        }
        (state.stale, state.turns_left, state.turn_type, state.game_over).hash(&mut h);
        (state.end_reason, state.league).hash(&mut h);
        h.finish()
    }
}

/// [`SearchGame::hash`] of the reference twin: the fast hash of the converted state.
#[cfg(feature = "reference-twin")]
pub(crate) fn reference_hash(state: &twinsim_reference::xmas_rush::State) -> u64 {
    <Fast as SearchGame>::hash(&State::from(state))
}
