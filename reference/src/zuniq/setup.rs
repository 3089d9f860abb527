//! Setup (rules doc §3): there is nothing to draw. Zuniq has no randomness and no leagues, so
//! every game starts from the empty board, whatever the seed.

use super::state::State;
use super::Params;

/// §3: the empty board, player 0 to move. `seed` and `params` are taken only so that every game
/// has the same `setup::new_game(seed, params)` shape; neither changes anything.
pub fn new_game(_seed: i64, _params: &Params) -> State {
    State::new()
}
