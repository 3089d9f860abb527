//! [`SearchGame::hash`] and [`UndoGame`] on both twins of every game, over random games played
//! in lockstep on the two twins (the same legal lists, so the same choices reach the same
//! positions): the twins' hashes agree, the hash survives a fast → reference → fast round
//! trip, distinct positions mostly get distinct hashes (so a constant or a too-coarse hash
//! fails), and Wondev Woman's `play_undoable` + `undo` gives `play`'s state and then the state
//! before, hash included.

use crate::game::{MoveBuffer, SearchGame, UndoGame};
use crate::zuniq::Rng;
use crate::{olymbits, photosynthesis, wondev_woman, xmas_rush, zuniq};
use twinsim_reference::game::Game;

/// How a fast state and its reference twin convert into each other.
struct Twins<F: SearchGame, R: SearchGame> {
    to_reference: fn(&F::State) -> R::State,
    from_reference: fn(&R::State) -> F::State,
}

/// What a walk saw: every position's hash and fast state, for the distinctness count.
struct Walked<S> {
    hashes: Vec<u64>,
    states: Vec<S>,
}

/// Plays `games` random games (at most `max_turns` turns each) on both twins at once and checks
/// the hash contract at every position; `visit` sees every position and joint action before
/// it is played (both twins).
fn walk<F, R>(
    games: i64,
    max_turns: usize,
    twins: &Twins<F, R>,
    mut visit: impl FnMut(&F::State, &R::State, &[Option<F::Action>]),
) -> Walked<F::State>
where
    F: SearchGame,
    R: SearchGame<Action = F::Action>,
{
    let mut walked = Walked { hashes: Vec::new(), states: Vec::new() };
    let mut moves = F::MoveList::default();
    for seed in 1..=games {
        let mut rng = Rng(seed as u64 * 0x9E37_79B9 + 1);
        let mut fast = F::new_game(seed, &F::Params::default());
        let mut reference = R::new_game(seed, &R::Params::default());
        for turn in 0..max_turns {
            let hash = F::hash(&fast);
            let at = format!("seed {seed} turn {turn}");
            assert_eq!(hash, R::hash(&reference), "{at}: the twins' hashes differ");
            let converted = (twins.to_reference)(&fast);
            assert_eq!(R::hash(&converted), hash, "{at}: hash of the converted state");
            let back = (twins.from_reference)(&converted);
            assert_eq!(F::hash(&back), hash, "{at}: fast -> reference -> fast changed the hash");
            walked.hashes.push(hash);
            walked.states.push(fast.clone());
            let to_act = F::to_act(&fast);
            if to_act.is_empty() {
                break;
            }
            let mut joint = vec![None; F::num_players(&fast)];
            for p in to_act.iter() {
                F::legal_moves(&fast, p, &mut moves);
                joint[p] = Some(moves.get(rng.below(moves.len() as u32) as usize).clone());
            }
            visit(&fast, &reference, &joint);
            F::play(&mut fast, &joint).unwrap_or_else(|e| panic!("{at}: fast: {e}"));
            R::play(&mut reference, &joint).unwrap_or_else(|e| panic!("{at}: reference: {e}"));
        }
    }
    walked
}

/// At least 95% as many distinct hashes as distinct positions: a hash may merge positions on
/// purpose (each game documents which), never most of them.
fn mostly_distinct<S: PartialEq>(walked: &Walked<S>) {
    let mut states: Vec<&S> = Vec::new();
    for s in &walked.states {
        if !states.contains(&s) {
            states.push(s);
        }
    }
    let mut hashes = walked.hashes.clone();
    hashes.sort_unstable();
    hashes.dedup();
    assert!(states.len() > 50, "too few positions to judge: {}", states.len());
    assert!(
        hashes.len() * 100 >= states.len() * 95,
        "{} distinct hashes for {} distinct positions",
        hashes.len(),
        states.len()
    );
}

/// A game's [`Twins`]: every fast state has `to_reference` and `From<&reference state>`.
macro_rules! twins {
    ($game:ident) => {
        Twins::<$game::Fast, $game::Reference> {
            to_reference: |s| s.to_reference(),
            from_reference: |s| $game::State::from(s),
        }
    };
}

#[test]
fn zuniq_hash_is_the_same_on_both_twins() {
    mostly_distinct(&walk(12, 100, &twins!(zuniq), |_, _, _| {}));
}

#[test]
fn photosynthesis_hash_is_the_same_on_both_twins() {
    mostly_distinct(&walk(3, 300, &twins!(photosynthesis), |_, _, _| {}));
}

#[test]
fn olymbits_hash_is_the_same_on_both_twins() {
    mostly_distinct(&walk(3, 120, &twins!(olymbits), |_, _, _| {}));
}

#[test]
fn xmas_rush_hash_is_the_same_on_both_twins() {
    mostly_distinct(&walk(3, 120, &twins!(xmas_rush), |_, _, _| {}));
}

#[test]
fn olymbits_hash_covers_the_generator() {
    // Two states that differ only by their dice have different futures (the next mini-games),
    // so different hashes.
    let state = olymbits::Fast::new_game(1, &Default::default());
    let search = state.clone().with_search_dice(olymbits::SearchDice::new(1));
    let other = state.clone().with_search_dice(olymbits::SearchDice::new(2));
    type Search = olymbits::SearchOlymbits;
    assert_ne!(<Search as SearchGame>::hash(&search), <Search as SearchGame>::hash(&other));
}

/// `play_undoable` then `undo` on one twin: the state after equals `play`'s, the state after
/// `undo` equals the one before (hash included), and a refused turn is refused alike.
fn check_undo<G: UndoGame>(
    state: &G::State,
    joint: &[Option<G::Action>],
    bad: &[Option<G::Action>],
) {
    let mut played = state.clone();
    G::play(&mut played, joint).expect("a legal turn");
    let mut walked = state.clone();
    let undo = G::play_undoable(&mut walked, joint).expect("a legal turn");
    assert_eq!(walked, played, "play_undoable and play disagree");
    G::undo(&mut walked, &undo);
    assert_eq!(&walked, state, "undo did not restore the state");
    assert_eq!(G::hash(&walked), G::hash(state));
    let mut refused = state.clone();
    let expected = G::play(&mut refused, bad).expect_err("an illegal turn");
    assert_eq!(G::play_undoable(&mut walked, bad).err(), Some(expected));
    assert_eq!(&walked, state, "a refused play_undoable changed the state");
}

#[test]
fn wondev_woman_hash_twins_and_undo() {
    use twinsim_reference::wondev_woman::state::{Dir, Kind};
    let mut undone = 0;
    let walked = walk(6, 200, &twins!(wondev_woman), |fast, reference, joint| {
        // A turn of the wrong player: refused by `play` and `play_undoable` alike.
        let mut bad = joint.to_vec();
        bad.reverse();
        if bad == joint {
            let any = wondev_woman::Action::Build {
                kind: Kind::Move,
                unit: 0,
                dir1: Dir::ALL[0],
                dir2: Dir::ALL[0],
            };
            bad = vec![Some(any), Some(any)];
        }
        check_undo::<wondev_woman::Fast>(fast, joint, &bad);
        check_undo::<wondev_woman::Reference>(reference, joint, &bad);
        undone += 1;
    });
    assert!(undone > 100, "{undone} turns taken back");
    mostly_distinct(&walked);
}

#[test]
fn wondev_woman_undo_unwinds_a_whole_game() {
    // Undos applied in reverse order after a whole game bring back the start, move by move.
    let mut state = wondev_woman::Fast::new_game(5, &Default::default());
    let start = state;
    let (mut trail, mut states) = (Vec::new(), Vec::new());
    let mut moves = wondev_woman::MoveList::default();
    let mut rng = Rng(3);
    while let Some(p) = wondev_woman::Fast::to_act(&state).first() {
        wondev_woman::Fast::legal_moves(&state, p, &mut moves);
        let mut joint = [None, None];
        joint[p] = Some(*moves.get(rng.below(moves.len() as u32) as usize));
        states.push(state);
        trail.push(wondev_woman::Fast::play_undoable(&mut state, &joint).expect("legal"));
    }
    assert!(trail.len() > 20, "a short game: {} plies", trail.len());
    while let Some(undo) = trail.pop() {
        wondev_woman::Fast::undo(&mut state, &undo);
        assert_eq!(state, states.pop().expect("one state per ply"));
    }
    assert_eq!(state, start);
}

/// Compiles only when `G`'s search types are the given ones.
fn same_names<G, S, A, M>()
where
    G: SearchGame<State = S, Action = A, MoveList = M>,
{
}

#[test]
fn every_root_names_the_search_api() {
    // `twinsim_fast::<game>::{Fast, State, Action, MoveList}` are the search API's types in
    // every game, and `CAPACITY` bounds its list (a mismatch does not compile).
    same_names::<zuniq::Fast, zuniq::State, zuniq::Action, zuniq::MoveList>();
    same_names::<olymbits::Fast, olymbits::State, olymbits::Action, olymbits::MoveList>();
    same_names::<xmas_rush::Fast, xmas_rush::State, xmas_rush::Action, xmas_rush::MoveList>();
    same_names::<
        photosynthesis::Fast,
        photosynthesis::State,
        photosynthesis::Action,
        photosynthesis::MoveList,
    >();
    same_names::<
        wondev_woman::Fast,
        wondev_woman::State,
        wondev_woman::Action,
        wondev_woman::MoveList,
    >();
    same_names::<
        wondev_woman::Reference,
        twinsim_reference::wondev_woman::State,
        wondev_woman::Action,
        wondev_woman::MoveList,
    >();
    let capacities = [
        (zuniq::CAPACITY, zuniq::MoveList::CAPACITY),
        (olymbits::CAPACITY, olymbits::MoveList::CAPACITY),
        (xmas_rush::CAPACITY, xmas_rush::MoveList::CAPACITY),
        (photosynthesis::CAPACITY, photosynthesis::MoveList::CAPACITY),
        (wondev_woman::CAPACITY, wondev_woman::MoveList::CAPACITY),
    ];
    for (named, list) in capacities {
        assert_eq!(named, list);
    }
}
