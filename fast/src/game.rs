//! The search face of a game: [`SearchGame`], one small allocation-free trait that every
//! engine of the workspace implements, the five fast twins and the five reference twins alike,
//! so a search written once runs on both and a payoff table compares the same code on each.
//!
//! Why an extension of [`Game`] rather than a trait of its own: [`Game`] already fixes what a
//! game *is* for the typed API (setup, the typed `Action` bots print, the step contract, the
//! outcome); a search only needs the hot calls without their `Vec`s. So [`SearchGame`] adds
//!
//! - who acts as a [`Players`] bit set instead of a `Vec<PlayerId>`,
//! - the legal actions written into a caller-owned fixed-capacity [`MoveList`] (cleared and
//!   refilled, never reallocated; each game names its capacity, the largest legal list its
//!   rules allow),
//! - [`SearchGame::play`]: one validating step with [`Game::step`]'s contract (an illegal action
//!   is a [`StepError`], the state is left unchanged), which also refuses a missing action of a
//!   player to act; the referee's consequence of a bad line (a forfeit, a timeout) is applied
//!   only by the text layer (`engine()`), never here.
//!
//! The trait lives here, in `fast`, because `fast` already depends on `reference`: it can name
//! both twins' types and implement the trait for the reference games too (the orphan rule allows
//! it: the trait is local), and the searches need depend on `fast` alone for their vocabulary.
//! Every implementation keeps the twins' promise: the same legal list in the same order as
//! [`Game::legal_actions`] (tested per game, with `play` refusing an illegal action).

use std::fmt;
use std::hash::Hasher;
use twinsim_reference::game::{Game, PlayerId, StepError, TurnStructure};

/// A set of players (bit `p` for player `p`; games have at most three).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Players(pub u8);

impl Players {
    /// No player.
    pub const NONE: Players = Players(0);

    /// Just `player`.
    pub fn one(player: PlayerId) -> Players {
        Players(1 << player)
    }

    /// The first `n` players (`0..n`).
    pub fn first_n(n: usize) -> Players {
        Players(((1u16 << n) - 1) as u8)
    }

    /// Whether `player` is in the set.
    pub fn contains(self, player: PlayerId) -> bool {
        player < 8 && self.0 >> player & 1 == 1
    }

    /// The set with `player` added.
    pub fn with(self, player: PlayerId) -> Players {
        Players(self.0 | 1 << player)
    }

    /// Whether the set is empty (the game is over).
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many players.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The lowest player (the mover of an alternating game).
    pub fn first(self) -> Option<PlayerId> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    /// The players in increasing order (the order of [`Game::players_to_act`]).
    pub fn iter(self) -> impl Iterator<Item = PlayerId> {
        (0..8).filter(move |&p| self.0 >> p & 1 == 1)
    }
}

/// A list of at most `N` actions: its storage is reserved once, for `N` actions, when the list
/// is made, and [`MoveList::clear`] and [`MoveList::push`] never allocate, so one list reused
/// through a search costs nothing per node.
///
/// Why a `Vec` reserved up front rather than an inline array: an array needs a value in every
/// unused slot, the actions have no natural filler value, and the crate forbids `unsafe` (no
/// uninitialised slots); an array of `Option<A>` works but pays a check on every read (about 5%
/// more instructions per alpha-beta node on Wondev Woman), while the reserved `Vec` reads as a
/// plain slice. (Every game's typed action is `Copy` now, X-mas Rush's MOVE holding its path
/// inline, so pushing one never allocates either; an inline array of them is not measured.)
#[derive(Clone, PartialEq, Eq)]
pub struct MoveList<A, const N: usize> {
    items: Vec<A>,
}

impl<A, const N: usize> Default for MoveList<A, N> {
    fn default() -> Self {
        MoveList { items: Vec::with_capacity(N) }
    }
}

impl<A: fmt::Debug, const N: usize> fmt::Debug for MoveList<A, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.items).finish()
    }
}

impl<A, const N: usize> MoveList<A, N> {
    /// The capacity, the longest legal list of the game.
    pub const CAPACITY: usize = N;

    /// Empties the list (keeps the storage).
    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// Appends `action`. Panics when full: a capacity below the game's longest legal list is a
    /// bug of the implementation (and would reallocate), which the per-game tests would catch.
    #[inline]
    pub fn push(&mut self, action: A) {
        assert!(self.items.len() < N, "MoveList capacity {N} exceeded");
        self.items.push(action);
    }

    /// Number of actions.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The actions in order.
    pub fn as_slice(&self) -> &[A] {
        &self.items
    }
}

/// The allocation-free calls a search makes, on top of [`Game`] (see the module docs).
pub trait SearchGame: Game {
    /// The fixed-capacity list `legal_moves` fills: a [`MoveList`] of the game's actions.
    type MoveList: MoveBuffer<Self::Action>;

    /// Who is asked for an action now, as a set (empty once the game is over). Same players
    /// as [`Game::players_to_act`].
    fn to_act(state: &Self::State) -> Players;

    /// Clears `moves` and writes every legal action of `player` into it, in
    /// [`Game::legal_actions`] order (nothing if the player is not to act).
    fn legal_moves(state: &Self::State, player: PlayerId, moves: &mut Self::MoveList);

    /// Resolves one turn: `joint[p]` is player `p`'s action, `None` for a player not to act.
    /// Validates like [`Game::step`] (the same errors, the state unchanged on error), and more
    /// strictly: a player to act must give an action ([`StepError::NotToAct`] otherwise),
    /// where `step` of a simultaneous game reads a missing action as the referee's timeout (a
    /// deactivation, a lost game). So in `play` every bad action is an error, and no referee
    /// consequence is ever applied. The default checks that, then calls [`Game::step`], which
    /// every twin implements without allocating on success.
    fn play(state: &mut Self::State, joint: &[Option<Self::Action>]) -> Result<(), StepError> {
        // After `step`'s own first checks (game over, arity), which it makes itself. The
        // alternating games' `step` already refuses a silent mover (the check folds away).
        if Self::TURNS == TurnStructure::Simultaneous && joint.len() == Self::num_players(state) {
            if let Some(player) = Self::to_act(state).iter().find(|&p| joint[p].is_none()) {
                return Err(StepError::NotToAct { player });
            }
        }
        Self::step(state, joint)
    }

    /// A 64-bit hash of the position: the searches' transposition key.
    ///
    /// The contract:
    /// - it is a pure function of the state (no random keys, no global state);
    /// - two states with different futures (different legal actions or outcomes for some
    ///   sequence of actions from here) differ in hash, up to 64-bit collisions; two states with
    ///   the same future *may* share a hash (Zuniq merges dead walls on purpose), and each game
    ///   documents what it leaves out and why;
    /// - the fast and the reference twin give the same hash for the same position, so a
    ///   search's statistics keyed by it are the same on both twins (a reference twin may
    ///   convert to the fast state and use its hash; readable, not fast).
    ///
    /// The fast twins with an incremental zobrist hash (Zuniq, Wondev Woman, Photosynthesis)
    /// return it for free; the others (Olymbits, X-mas Rush) fold their packed fields with
    /// [`FieldHasher`].
    fn hash(state: &Self::State) -> u64;
}

/// Perft: the number of joint-action sequences of length `depth` from `state`, every node
/// made with [`SearchGame::play`] on a copy. A joint action gives each player to act one of
/// its legal moves, so in an alternating game it is the mover's move (the chess-engine perft)
/// and in a simultaneous game the product of the movers' lists. Depth 0 counts the position
/// itself; a finished game (nobody to act) or a player to act without a legal move ends every
/// line early, which then counts nothing. The one perft of both twins of every game: the
/// expected counts are data (`perft_tests`), the same for the fast and the reference twin.
///
/// Not named `perft`: the contest bundler keeps every item whose name another kept item
/// mentions, so two items named `perft` (this and a game's own) would keep each other in bots.
pub fn joint_perft<G: SearchGame>(state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let movers: Vec<PlayerId> = G::to_act(state).iter().collect();
    let lists: Vec<G::MoveList> = movers
        .iter()
        .map(|&player| {
            let mut list = G::MoveList::default();
            G::legal_moves(state, player, &mut list);
            list
        })
        .collect();
    if movers.is_empty() || lists.iter().any(|list| list.is_empty()) {
        return 0;
    }
    // An odometer over the movers' lists visits every joint action once.
    let mut digits = vec![0; movers.len()];
    let mut joint = vec![None; G::num_players(state)];
    let mut total = 0;
    loop {
        for (k, &player) in movers.iter().enumerate() {
            joint[player] = Some(lists[k].get(digits[k]).clone());
        }
        let mut child = state.clone();
        G::play(&mut child, &joint).expect("a joint action of legal moves is playable");
        total += joint_perft::<G>(&child, depth - 1);
        let mut k = 0;
        loop {
            if k == movers.len() {
                return total;
            }
            digits[k] += 1;
            if digits[k] < lists[k].len() {
                break;
            }
            digits[k] = 0;
            k += 1;
        }
    }
}

/// Make/unmake for the games that have it: [`UndoGame::play_undoable`] plays like
/// [`SearchGame::play`] (the same validation, the same errors, the state unchanged on error,
/// the same resulting state on success) and returns what [`UndoGame::undo`] needs to put the
/// state back exactly as it was. A search can then walk one state down and up its tree instead
/// of cloning it at every node. Only Wondev Woman has it (its fast twin's `make`/`unmake`);
/// a game whose turn changes most of its state (Olymbits, X-mas Rush pushes) gains nothing over
/// a copy.
pub trait UndoGame: SearchGame {
    /// What [`UndoGame::undo`] restores from.
    type Undo;

    /// Plays `joint` as [`SearchGame::play`] does and returns how to take it back.
    fn play_undoable(
        state: &mut Self::State,
        joint: &[Option<Self::Action>],
    ) -> Result<Self::Undo, StepError>;

    /// Takes back the turn that returned `undo`, which must be the last one played on `state`
    /// and not yet taken back: afterwards `state` equals the state before it.
    fn undo(state: &mut Self::State, undo: &Self::Undo);
}

/// A small deterministic hasher for [`SearchGame::hash`] of the games without an incremental
/// hash: each written word is folded in by a xor, a multiplication by an odd constant and a
/// rotation, and [`Hasher::finish`] mixes the total through splitmix64's finalizer so that
/// every input bit reaches every output bit. Unlike `std`'s `DefaultHasher` its output is fixed
/// (no keys, no version-dependent algorithm), as the hash contract needs.
#[derive(Clone, Copy, Debug, Default)]
pub struct FieldHasher(u64);

impl FieldHasher {
    #[inline]
    fn fold(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
}

impl Hasher for FieldHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.fold(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            // The length in the top byte: a short tail of zeros is not the empty tail.
            self.fold(u64::from_le_bytes(word) ^ (rest.len() as u64) << 56);
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.fold(u64::from(n));
    }
    fn write_u16(&mut self, n: u16) {
        self.fold(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.fold(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.fold(n);
    }
    fn write_usize(&mut self, n: usize) {
        self.fold(n as u64);
    }
    fn finish(&self) -> u64 {
        crate::rng::splitmix64_mix(self.0)
    }
}

/// What a search needs of [`SearchGame::MoveList`]: implemented by every [`MoveList`].
pub trait MoveBuffer<A>: Default {
    /// Empties the list.
    fn clear(&mut self);
    /// Appends an action (never reallocating).
    fn push(&mut self, action: A);
    /// The actions in order.
    fn as_slice(&self) -> &[A];
    /// Number of actions.
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    /// Whether there is none.
    fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }
    /// The `i`-th action (`i < len`).
    fn get(&self, i: usize) -> &A {
        &self.as_slice()[i]
    }
}

impl<A, const N: usize> MoveBuffer<A> for MoveList<A, N> {
    fn clear(&mut self) {
        MoveList::clear(self);
    }
    #[inline]
    fn push(&mut self, action: A) {
        MoveList::push(self, action);
    }
    fn as_slice(&self) -> &[A] {
        MoveList::as_slice(self)
    }
}

/// Fills `moves` from a legal list that already exists as a `Vec` (the reference twins, whose
/// readable rules build one; the searches stay the same code on both twins).
pub fn fill_from<A, M: MoveBuffer<A>>(moves: &mut M, legal: Vec<A>) {
    moves.clear();
    for action in legal {
        moves.push(action);
    }
}

/// [`SearchGame::to_act`] from [`Game::players_to_act`], for the reference twins.
pub fn players_of(list: &[PlayerId]) -> Players {
    list.iter().fold(Players::NONE, |set, &p| set.with(p))
}

/// The per-game test every implementation must pass (used by the crate's tests and the
/// workspace's): on `state`, `to_act` is `players_to_act`, and for every player `legal_moves`
/// lists exactly `legal_actions`, in order. The first difference, described, is the error.
pub fn check_against_typed<G: SearchGame>(state: &G::State) -> Result<(), String> {
    let listed = G::players_to_act(state);
    let set = G::to_act(state);
    if set.iter().collect::<Vec<_>>() != listed {
        return Err(format!("to_act {set:?}, players_to_act {listed:?}"));
    }
    let mut moves = G::MoveList::default();
    // A stale entry must not survive a refill.
    if let Some(a) = listed.first().and_then(|&p| G::legal_actions(state, p).into_iter().next()) {
        moves.push(a);
    }
    for player in 0..G::num_players(state) + 1 {
        G::legal_moves(state, player, &mut moves);
        let typed = G::legal_actions(state, player);
        let ours = moves.as_slice().to_vec();
        if ours != typed {
            return Err(format!("player {player}: legal_moves {ours:?}, legal_actions {typed:?}"));
        }
    }
    Ok(())
}

#[cfg(feature = "reference-twin")]
/// The reference twins: their readable rules build the legal list as a `Vec`, copied into the
/// same fixed-capacity list as the fast twin's (so a search is the same code on both twins; the
/// reference is not the one meant to be fast).
macro_rules! reference_search_game {
    ($($game:ident),*) => {$(
        impl SearchGame for crate::$game::api::Reference {
            type MoveList = crate::$game::api::MoveList;

            fn to_act(state: &Self::State) -> Players {
                players_of(&Self::players_to_act(state))
            }

            fn legal_moves(state: &Self::State, player: PlayerId, moves: &mut Self::MoveList) {
                fill_from(moves, Self::legal_actions(state, player));
            }

            /// The fast twin's hash of the same position (see the game's `api` module).
            fn hash(state: &Self::State) -> u64 {
                crate::$game::api::reference_hash(state)
            }
        }
    )*};
}

#[cfg(feature = "reference-twin")]
reference_search_game!(zuniq, wondev_woman, olymbits, photosynthesis, xmas_rush);
