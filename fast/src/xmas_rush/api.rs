//! X-mas Rush's face in the shared search API ([`SearchGame`]): the same names in every
//! `twinsim_fast::<game>::api` (`State`, `Action`, `MoveList`, `CAPACITY`, `Fast`, `Reference`),
//! re-exported at the game's root (`twinsim_fast::<game>::MoveList` is this list in every game).
//!
//! `Action` is the typed action bots print (the reference's); the packed action of the turn
//! function is [`super::PackedAction`]. A MOVE's path is a `Vec` in the
//! typed action, so listing a MOVE turn allocates one path per reachable cell; PUSH turns and
//! the list itself allocate nothing.

pub use super::board::State;
use super::typed::path_tree;
use crate::game::{Players, SearchGame};
use twinsim_reference::game::PlayerId;
pub use twinsim_reference::xmas_rush::Action;
use twinsim_reference::xmas_rush::{Direction, TurnType, MAX_STEPS, SIZE};

/// The fast twin's typed API.
pub type Fast = super::FastXmasRush;
/// The reference twin's typed API.
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
                for &cell in &tree.order[1..tree.len] {
                    if tree.depth[cell as usize] as usize <= MAX_STEPS {
                        moves.push(Action::Move(tree.path_to(cell)));
                    }
                }
            }
        }
    }
}
